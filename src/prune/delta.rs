//! Delta pruning in quiescence: skip a capture that could not raise alpha
//! even if the captured piece came for free with a safety margin.
//!
//! Phases, side by side:
//! - Baseline: skip when stand pat + captured value + 200 < alpha, never in
//!   the endgame (game phase ≤ 4, the plans' endgame), never for
//!   promotions, never in check.
//! - `delta-enhanced` (plan 003, 1.3): first a coarse filter, returning stand
//!   pat when even winning a queen (975; 600 in the endgame) cannot reach
//!   alpha; then the per-move margin is halved for victims worth a minor
//!   piece or less.

use cozy_chess::{Board, Move, Piece};

use crate::eval::PIECE_VALUES;
use crate::search::{NodeType, Worker};
use crate::see::captured_piece;
use crate::techniques::{Hooks, Technique, TechniqueSet};
use crate::tune::Tunable;
use crate::{counters, technique, tunables};

technique! {
    /// Which delta pruning features are on (the per-move test is always on:
    /// it is part of the baseline).
    pub struct DeltaPruning {
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
    DELTA_MARGIN: 200, 50, 500, 25;
    DELTA_COARSE_MARGIN: 975, 600, 1400, 25;
    DELTA_COARSE_ENDGAME_MARGIN: 600, 300, 1000, 25;
}

/// At or below this game phase the position counts as an endgame.
pub const ENDGAME_PHASE: i32 = 4;

impl DeltaPruning {
    /// The per-move margin for a victim of `captured_value`.
    pub fn margin(&self, captured_value: i32) -> i32 {
        if self.enhanced && captured_value <= PIECE_VALUES[Piece::Bishop as usize] {
            DELTA_MARGIN.get() / 2
        } else {
            DELTA_MARGIN.get()
        }
    }

    /// The coarse filter's margin (`delta-enhanced`).
    pub fn coarse_margin(&self, phase: i32) -> i32 {
        if phase <= ENDGAME_PHASE {
            DELTA_COARSE_ENDGAME_MARGIN.get()
        } else {
            DELTA_COARSE_MARGIN.get()
        }
    }
}

impl<T: TechniqueSet> Worker<'_, T> {
    /// Step Q3: the enhanced coarse filter; returns stand pat when hopeless.
    pub(crate) fn coarse_delta(&mut self, stand_pat: i32, alpha: i32, phase: i32) -> Option<i32> {
        let delta = T::TECHNIQUES.delta;
        if !delta.enhanced {
            return None;
        }
        let counters = &mut self.stats.techniques.delta;
        counters.coarse_attempts += 1;
        if stand_pat + delta.coarse_margin(phase) < alpha {
            counters.coarse_cutoffs += 1;
            return Some(stand_pat);
        }
        None
    }

    /// Step Q4: whether a capture is skipped by delta pruning.
    pub(crate) fn delta_prunes(&mut self, board: &Board, mv: Move, stand_pat: i32, alpha: i32, phase: i32) -> bool {
        if mv.promotion.is_some() || phase <= ENDGAME_PHASE {
            return false;
        }
        let delta = T::TECHNIQUES.delta;
        let captured_value = captured_piece(board, mv).map_or(0, |piece| PIECE_VALUES[piece as usize]);
        let margin = delta.margin(captured_value);
        if stand_pat + captured_value + margin >= alpha {
            return false;
        }
        self.stats.techniques.delta.prunes += 1;
        if margin != DELTA_MARGIN.get() {
            // Pruned only thanks to the halved margin? Count what the
            // enhancement adds.
            if stand_pat + captured_value + DELTA_MARGIN.get() >= alpha {
                self.stats.techniques.delta.halved_prunes += 1;
            }
        }
        true
    }
}

impl Hooks for DeltaPruning {
    fn prune_qnode<T: TechniqueSet, NT: NodeType>(
        worker: &mut Worker<'_, T>,
        _board: &Board,
        stand_pat: i32,
        alpha: i32,
        phase: i32,
    ) -> Option<i32> {
        worker.coarse_delta(stand_pat, alpha, phase)
    }

    fn prunes_capture<T: TechniqueSet, NT: NodeType>(
        worker: &mut Worker<'_, T>,
        board: &Board,
        mv: Move,
        stand_pat: i32,
        alpha: i32,
        phase: i32,
    ) -> bool {
        worker.delta_prunes(board, mv, stand_pat, alpha, phase)
    }
}

impl Technique for DeltaPruning {
    type Counters = DeltaCounters;

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

    fn tunables(&self) -> Vec<&'static Tunable> {
        TUNABLES.to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins_follow_each_phase() {
        let baseline = DeltaPruning::BASELINE;
        let enhanced = DeltaPruning::BASELINE.with("delta-enhanced");
        assert_eq!(baseline.margin(100), 200);
        assert_eq!(enhanced.margin(100), 100);
        assert_eq!(enhanced.margin(330), 100);
        assert_eq!(enhanced.margin(500), 200);
        assert_eq!((enhanced.coarse_margin(24), enhanced.coarse_margin(4)), (975, 600));
    }
}
