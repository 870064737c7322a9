//! Delta pruning in quiescence: skip a capture that could not raise alpha
//! even if the captured piece came for free with a safety margin.
//!
//! Phases, side by side:
//! - Baseline (plan 003, 1.3: the starting engine "already had
//!   sophisticated delta pruning with phase-aware margins (200/100/50cp)"):
//!   skip a capture when stand pat + captured value + margin < alpha, the
//!   margin 200 in the opening, 100 in the middlegame, 50 in the endgame;
//!   never for promotions, never in check. The plan gives three margins
//!   and no phases; they are read as the plans' three stages
//!   ([`Stage`](crate::position::Stage): opening at game phase ≥ 20,
//!   endgame ≤ 4, as plan 000 R3 defines them), in the order the margins
//!   are listed.
//! - `delta-enhanced` (plan 003, 1.3): first a coarse filter, returning stand
//!   pat when even winning a queen (975; 600 in the endgame, "rook +
//!   minor") cannot reach alpha; then the per-move margin is halved for
//!   victims worth a minor piece or less ("deltaMargin / 2"; major pieces
//!   keep the stage's margin).
//!
//! Measured: full-without-delta against full: -1.4 Elo [-17.6, +14.8], 1000 games at 10000 nodes a move.

use cozy_chess::Piece;

use crate::context::Context;
use crate::eval::PIECE_VALUES;
use crate::movepick::ScoredMove;
use crate::position::Stage;
use crate::search::{NodeType, QNode};
use crate::techniques::{Hooks, Technique, TechniqueCounters, TechniqueSet, Techniques};
use crate::trace::TraceKind;
use crate::tune::Tunable;
use crate::{counters, features, tunables};

/// Which delta pruning features are on (the per-move test is always on:
/// it is part of the baseline).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeltaPruning {
    /// `delta-enhanced`
    pub enhanced: bool,
}

features! {
    DeltaPruning {
        enhanced: "delta-enhanced" [] "plan 003, 1.3"
            => "coarse qsearch delta filter; halved delta for minor or smaller victims";
    }
}

counters! {
    /// `delta:` and `delta_enh:` telemetry.
    pub struct DeltaCounters {
        /// Captures skipped by the per-move test.
        pub prunes: u64,
        /// `delta-enhanced`: nodes the coarse filter judged, and cut.
        pub coarse_attempts: u64,
        pub coarse_cutoffs: u64,
        /// `delta-enhanced`: captures skipped only thanks to the halved margin.
        pub halved_prunes: u64,
    }
}

tunables! {
    /// The per-move margin by stage (the baseline's 200/100/50).
    DELTA_OPENING_MARGIN: 200, 50, 500, 25;
    DELTA_MIDDLEGAME_MARGIN: 100, 25, 400, 25;
    DELTA_ENDGAME_MARGIN: 50, 0, 300, 10;
    /// `delta-enhanced`'s coarse filter (plan 003's "DeltaMargin", 500-1500).
    DELTA_COARSE_MARGIN: 975, 500, 1500, 25;
    DELTA_COARSE_ENDGAME_MARGIN: 600, 300, 1000, 25;
}

impl DeltaPruning {
    /// The baseline's per-move margin at a game phase.
    pub fn stage_margin(phase: i32) -> i32 {
        match Stage::of(phase) {
            Stage::Opening => DELTA_OPENING_MARGIN.get(),
            Stage::Middlegame => DELTA_MIDDLEGAME_MARGIN.get(),
            Stage::Endgame => DELTA_ENDGAME_MARGIN.get(),
        }
    }

    /// The per-move margin for a victim of `captured_value` at a game phase.
    pub fn margin(&self, captured_value: i32, phase: i32) -> i32 {
        let margin = DeltaPruning::stage_margin(phase);
        if self.enhanced && captured_value <= PIECE_VALUES[Piece::Bishop as usize] {
            margin / 2
        } else {
            margin
        }
    }

    /// The coarse filter's margin (`delta-enhanced`).
    pub fn coarse_margin(&self, phase: i32) -> i32 {
        if Stage::of(phase) == Stage::Endgame {
            DELTA_COARSE_ENDGAME_MARGIN.get()
        } else {
            DELTA_COARSE_MARGIN.get()
        }
    }
}

impl Hooks for DeltaPruning {
    /// Quiescence pruning after stand pat: the enhanced coarse filter; returns stand pat when hopeless.
    fn prune_qnode<T: TechniqueSet, NT: NodeType>(cx: &mut Context<'_, '_, T, Self>, qnode: &QNode) -> Option<i32> {
        let QNode { ply, stand_pat, alpha, phase, .. } = *qnode;
        let delta = T::TECHNIQUES.delta;
        if !delta.enhanced {
            return None;
        }
        let counters = cx.counters();
        counters.coarse_attempts += 1;
        if stand_pat + delta.coarse_margin(phase) < alpha {
            counters.coarse_cutoffs += 1;
            if cx.traces(ply) {
                let detail =
                    format!("coarse delta: stand pat {stand_pat} + {} < alpha {alpha}", delta.coarse_margin(phase));
                cx.trace(ply, 0, TraceKind::NodePruned, "delta-enhanced", detail);
            }
            return Some(stand_pat);
        }
        None
    }

    /// Quiescence move pruning: whether a capture is skipped by delta pruning.
    fn prunes_capture<T: TechniqueSet, NT: NodeType>(
        cx: &mut Context<'_, '_, T, Self>,
        qnode: &QNode,
        entry: &ScoredMove,
    ) -> bool {
        let QNode { ply, stand_pat, alpha, phase, .. } = *qnode;
        let mv = entry.mv;
        if mv.promotion.is_some() {
            return false;
        }
        let delta = T::TECHNIQUES.delta;
        let captured_value = entry.captured.map_or(0, |piece| PIECE_VALUES[piece as usize]);
        let margin = delta.margin(captured_value, phase);
        if stand_pat + captured_value + margin >= alpha {
            return false;
        }
        cx.counters().prunes += 1;
        // Pruned only thanks to the halved margin: what the enhancement adds.
        let halved = stand_pat + captured_value + DeltaPruning::stage_margin(phase) >= alpha;
        if halved {
            cx.counters().halved_prunes += 1;
        }
        if cx.traces_move(ply, mv) {
            let detail =
                format!("delta: stand pat {stand_pat} + victim {captured_value} + margin {margin} < alpha {alpha}");
            let feature = if halved { "delta-enhanced" } else { "baseline" };
            cx.trace(ply, 0, TraceKind::MoveSkipped, feature, detail);
        }
        true
    }
}

impl Technique for DeltaPruning {
    const NAME: &'static str = "delta";
    type Counters = DeltaCounters;

    fn of(set: &Techniques) -> &Self {
        &set.delta
    }

    fn counters(all: &TechniqueCounters) -> &DeltaCounters {
        &all.delta
    }

    fn counters_mut(all: &mut TechniqueCounters) -> &mut DeltaCounters {
        &mut all.delta
    }
    const ALWAYS_ON: bool = true;

    /// `delta: pruned=N`, always (a baseline technique); with
    /// `delta-enhanced`, `delta_enh: coarse_att=X cut=Y cut%=Z.Z% halved_prunes=H`.
    fn report(&self, counters: &DeltaCounters) -> Vec<String> {
        let mut lines = vec![format!("delta: pruned={}", counters.prunes)];
        if self.enhanced {
            lines.push(format!(
                "delta_enh: coarse_{} halved_prunes={}",
                crate::stats::rate(counters.coarse_attempts, counters.coarse_cutoffs),
                counters.halved_prunes
            ));
        }
        lines
    }

    fn snapshot_counters(counters: &DeltaCounters) -> Vec<(&'static str, u64, u64)> {
        vec![("delta_enh", counters.coarse_attempts, counters.coarse_cutoffs)]
    }

    fn tunable_list() -> &'static [&'static Tunable] {
        TUNABLES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins_follow_each_phase() {
        let baseline = DeltaPruning::BASELINE;
        let enhanced = DeltaPruning::BASELINE.with("delta-enhanced");
        // Opening, middlegame, endgame: 200/100/50.
        assert_eq!([24, 20, 19, 5, 4, 0].map(|phase| baseline.margin(100, phase)), [200, 200, 100, 100, 50, 50]);
        assert_eq!([24, 12, 2].map(|phase| enhanced.margin(100, phase)), [100, 50, 25]);
        assert_eq!(enhanced.margin(330, 24), 100);
        assert_eq!(enhanced.margin(500, 24), 200);
        assert_eq!((enhanced.coarse_margin(24), enhanced.coarse_margin(4)), (975, 600));
    }
}
