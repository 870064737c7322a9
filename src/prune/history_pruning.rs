//! History pruning: near the horizon, a quiet move whose butterfly history
//! says it has failed again and again is skipped without a search.
//!
//! Also called: history leaf pruning; Stockfish prunes quiet moves whose
//! continuation history is below −k·depth, and Ethereal's "continuation
//! pruning" does the same with its counter-move and follow-up histories.
//!
//! Phases, side by side:
//! - `history-pruning` (plan 003): non-PV, not in check, depth ≤ 3
//!   (`HistoryPruningMaxDepth`). A quiet move (neither a capture nor a
//!   promotion) that does not give check and is neither a killer nor the TT
//!   move is skipped when its history is below −`HistoryPruningThreshold`·depth.
//!   The threshold is 1024 by default: −1024, −2048, −3072 at depths 1-3, so
//!   at depth 3 a move must sit in the bottom ~19 % of the ±16384 history range;
//!   a cutoff at depth d moves history by 128·d − 64, so that takes a run of
//!   failures, not one. The countermove has no exemption (the plan names
//!   killers and the TT move only).
//!
//! Telemetry: `history_prune: att=X cut=Y cut%=Z.Z% hp_b=[d1,d2,d3]`; an
//! attempt is a move that met every condition but the history comparison,
//! and the buckets count cutoffs by depth (the last one is depth 3 and up,
//! should `HistoryPruningMaxDepth` be raised).

use crate::search::{Candidate, Node, NodeType, Worker};
use crate::stats::{SearchStats, Technique};
use crate::techniques::{same, TechniqueSet};
use crate::tunables;

tunables! {
    /// History below −(this × depth) prunes.
    HISTORY_PRUNING_THRESHOLD = "HistoryPruningThreshold": 1024, 128, 8192, 128;
    /// Prune at this depth and below.
    HISTORY_PRUNING_MAX_DEPTH = "HistoryPruningMaxDepth": 3, 1, 6, 1;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryPruning {
    pub enabled: bool,
}

impl HistoryPruning {
    pub const BASELINE: Self = HistoryPruning { enabled: false };

    pub const fn with(self, feature: &str) -> Self {
        if same(feature, "history-pruning") {
            HistoryPruning { enabled: true }
        } else {
            self
        }
    }

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

impl<T: TechniqueSet> Worker<'_, T> {
    /// Step 11a: whether a quiet move with bad history is skipped. The
    /// caller has excluded the root, the first move and nodes with only
    /// mated scores.
    pub(crate) fn history_prunes<NT: NodeType>(&mut self, node: &Node, candidate: &Candidate) -> bool {
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
        self.stats.technique(Technique::HistoryPruning).attempts += 1;
        if candidate.history >= history_pruning_limit(node.depth) {
            return false;
        }
        let counters = self.stats.technique(Technique::HistoryPruning);
        counters.cutoffs += 1;
        counters.buckets[bucket(node.depth)] += 1;
        true
    }
}

/// `history_prune: att=X cut=Y cut%=Z.Z% hp_b=[d1,d2,d3]`.
pub fn report(stats: &SearchStats, config: &HistoryPruning) -> Option<String> {
    config.is_on().then(|| {
        let counters = stats.counters(Technique::HistoryPruning);
        format!("history_prune: {} hp_b={}", counters.rate(), counters.buckets(3))
    })
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
        assert_eq!(report(&SearchStats::default(), &HistoryPruning::BASELINE), None);
        let mut stats = SearchStats::default();
        let counters = stats.technique(Technique::HistoryPruning);
        counters.attempts = 10;
        counters.cutoffs = 3;
        counters.buckets = [1, 0, 2, 0, 0, 0, 0, 0];
        assert_eq!(
            report(&stats, &HistoryPruning { enabled: true }).unwrap(),
            "history_prune: att=10 cut=3 cut%=30.0% hp_b=[1,0,2]"
        );
    }
}
