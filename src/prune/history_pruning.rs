//! History pruning: near the horizon, a quiet move whose butterfly history
//! says it has failed again and again is skipped without a search.
//!
//! Also called: history leaf pruning; Stockfish prunes quiet moves whose
//! continuation history is below −k·depth, and Ethereal's "continuation
//! pruning" does the same with its counter-move and follow-up histories.
//!
//! Phases, side by side:
//! - `history-pruning` (plan 003, 3.3: "Prune moves with very negative
//!   history at shallow depths"; plan 002, 5.2: "Prune moves with
//!   consistently bad history"): non-PV, not in check, depth ≤ 3
//!   (`HistoryPruningMaxDepth`). A quiet move (neither a capture nor a
//!   promotion) that does not give check and is neither a killer nor the TT
//!   move is skipped when its history is below −`HistoryPruningThreshold`·depth.
//!   The plans give no number and no exemption: the depth limit, the
//!   threshold and the exemptions (those of move-count pruning's guards, and
//!   Stockfish's shape, −k·depth) are this file's. The threshold is 1024 by
//!   default: −1024, −2048, −3072 at depths 1-3, so at depth 3 a move must
//!   sit in the bottom ~19 % of the ±16384 history range; a cutoff at depth
//!   d moves history by 128·d − 64, so that takes a run of failures, not
//!   one. Plan 003's "consider continuation history" is not done: this
//!   engine has butterfly history only.
//!
//! Telemetry: `history_prune: att=X cut=Y cut%=Z.Z% hp_b=[d1,d2,d3]`; an
//! attempt is a move that met every condition but the history comparison,
//! and the buckets count cutoffs by depth (the last one is depth 3 and up,
//! should `HistoryPruningMaxDepth` be raised).
//!
//! Measured: full-without-history_pruning is no ablation: no feature of history_pruning is in full.

use crate::context::Context;
use crate::search::{Candidate, Node, NodeType};
use crate::techniques::{Hooks, Technique, TechniqueCounters, TechniqueSet, Techniques};
use crate::trace::TraceKind;
use crate::tune::Tunable;
use crate::{counters, features, tunables};

/// Whether history pruning is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryPruning {
    /// `history-pruning`
    pub enabled: bool,
}

features! {
    HistoryPruning {
        enabled: "history-pruning" [] "plan 003, 3.3 (plan 002, 5.2)"
            => "prune quiet moves with history below -threshold * depth at depth <= 3";
    }
}

counters! {
    /// `history_prune:` telemetry.
    pub struct HistoryPruningCounters {
        /// Moves that met every condition but the history comparison, and pruned.
        pub attempts: u64,
        pub cutoffs: u64,
        /// Cutoffs at depths 1, 2 and 3+.
        pub by_depth: [u64; 3],
    }
}

tunables! {
    /// History below −(this × depth) prunes.
    HISTORY_PRUNING_THRESHOLD: 1024, 128, 8192, 128;
    /// Prune at this depth and below.
    HISTORY_PRUNING_MAX_DEPTH: 3, 1, 6, 1;
}

impl HistoryPruning {
    pub const fn is_on(&self) -> bool {
        self.enabled
    }
}

/// The history a move needs at `depth` not to be pruned.
pub fn history_pruning_limit(depth: i32) -> i32 {
    -HISTORY_PRUNING_THRESHOLD.get() * depth
}

/// Depth bucket for `hp_b`: d1, d2, d3+.
fn bucket(depth: i32) -> usize {
    (depth.clamp(1, 3) - 1) as usize
}

impl Hooks for HistoryPruning {
    /// Move pruning: whether a quiet move with bad history is skipped. The
    /// caller has excluded the root, the first move and nodes with only
    /// mated scores.
    fn prunes_move<T: TechniqueSet, NT: NodeType>(
        cx: &mut Context<'_, '_, T, Self>,
        node: &Node,
        candidate: &Candidate,
    ) -> bool {
        if !T::TECHNIQUES.history_pruning.is_on() || NT::PV {
            return false;
        }
        debug_assert!(!NT::ROOT && candidate.move_number > 1, "history pruning at the root or on the first move");
        if node.in_check
            || node.depth > HISTORY_PRUNING_MAX_DEPTH.get()
            || !candidate.quiet
            || candidate.gives_check
            || candidate.is_killer
            || candidate.is_tt_move
        {
            return false;
        }
        cx.counters().attempts += 1;
        if candidate.history >= history_pruning_limit(node.depth) {
            return false;
        }
        let counters = cx.counters();
        counters.cutoffs += 1;
        counters.by_depth[bucket(node.depth)] += 1;
        if cx.traces_move(node.ply, candidate.mv) {
            let detail = format!(
                "history {} < {} at depth {}",
                candidate.history,
                history_pruning_limit(node.depth),
                node.depth
            );
            cx.trace(node.ply, node.depth, TraceKind::MoveSkipped, "history-pruning", detail);
        }
        true
    }
}

impl Technique for HistoryPruning {
    const NAME: &'static str = "history_pruning";
    type Counters = HistoryPruningCounters;

    fn of(set: &Techniques) -> &Self {
        &set.history_pruning
    }

    fn counters(all: &TechniqueCounters) -> &HistoryPruningCounters {
        &all.history_pruning
    }

    fn counters_mut(all: &mut TechniqueCounters) -> &mut HistoryPruningCounters {
        &mut all.history_pruning
    }

    /// `history_prune: att=X cut=Y cut%=Z.Z% hp_b=[d1,d2,d3]`.
    fn report(&self, counters: &HistoryPruningCounters) -> Vec<String> {
        if !self.is_on() {
            return Vec::new();
        }
        vec![format!(
            "history_prune: {} hp_b={}",
            crate::stats::rate(counters.attempts, counters.cutoffs),
            crate::stats::buckets(&counters.by_depth)
        )]
    }

    fn snapshot_counters(counters: &HistoryPruningCounters) -> Vec<(&'static str, u64, u64)> {
        vec![("history_prune", counters.attempts, counters.cutoffs)]
    }

    fn tunable_list() -> &'static [&'static Tunable] {
        TUNABLES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_scale_with_depth() {
        assert_eq!(HISTORY_PRUNING_THRESHOLD.get(), 1024);
        assert_eq!(HISTORY_PRUNING_MAX_DEPTH.get(), 3);
        assert_eq!([1, 2, 3].map(history_pruning_limit), [-1024, -2048, -3072]);
        assert_eq!([1, 2, 3, 4].map(bucket), [0, 1, 2, 2]);
    }

    #[test]
    fn feature_switches_it_on() {
        assert!(!HistoryPruning::BASELINE.is_on());
        assert!(HistoryPruning::BASELINE.with("history-pruning").is_on());
        assert!(!HistoryPruning::BASELINE.with("lmp").is_on());
    }

    #[test]
    fn report_only_when_on() {
        let counters = HistoryPruningCounters { attempts: 10, cutoffs: 3, by_depth: [1, 0, 2] };
        assert!(HistoryPruning::BASELINE.report(&counters).is_empty());
        assert_eq!(
            HistoryPruning { enabled: true }.report(&counters),
            ["history_prune: att=10 cut=3 cut%=30.0% hp_b=[1,0,2]"]
        );
    }
}
