//! Move-count pruning: near the horizon, once a node has tried enough moves
//! in a well-ordered list, the remaining quiet moves are very unlikely to
//! raise alpha, so they are skipped without a search.
//!
//! Also called: late move pruning (LMP), "quiet move pruning" (Ethereal's
//! `LateMovePruningCounts`), Stockfish's `moveCountPruning` / `skipQuiets`.
//!
//! Phases, side by side:
//! - `lmp` (plan 002, 3.1): non-PV, not in check, depth ≤ 8. A quiet move
//!   (neither a capture nor a promotion) that gives no check and is neither
//!   a killer nor the TT move is skipped when its 1-based move number
//!   (pruned moves included) exceeds the limit for the depth,
//!   [`LMP_LIMITS`]: 3, 6, 12, 18, 24, 32, 40, 50 for depths 1-8. When the
//!   position is not improving (its static eval is not above the one two
//!   plies earlier) the limit is scaled by ×3/4 in integer arithmetic,
//!   rounded down: 2, 4, 9, 13, 18, 24, 30, 37.
//!   Quiet moves that give check are never pruned. The plan does not say
//!   (Stockfish's and Ethereal's move-count pruning do prune them), but with
//!   checks pruned the lab's mate-in-two check position
//!   (`2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w`) is no longer
//!   found at depth 8 (cp 160 instead of mate 2): this engine orders quiet
//!   checks by history only, so a mating check can sit past the limit.
//! - `lmp-history` (3.2): +5 (`LmpHistoryBonus`) to the limit, after the
//!   ×3/4 scaling, for moves whose butterfly history is above
//!   `LmpHistoryThreshold`, 4096 by default: a quarter of the history range
//!   (±16384), reached only by a move that has cut off repeatedly (a cutoff
//!   at depth d adds 128·d − 64).
//! - `lmp-countermove` (3.3): the countermove is never pruned.
//! - `lmp-depth-10` (plan 003, 2.1): depths 9 and 10 too, with limits 48 and
//!   54 ([`LMP_DEPTH_10_LIMITS`]; ×3/4 gives 36 and 40). 48 is below the 50
//!   of depth 8: those are the plan's numbers and they are kept as written.
//!
//! Telemetry: `mcp: att=X cut=Y cut%=Z.Z% mcp_b=[d1,..,d7,d8+]`, where an
//! attempt is a move that met every condition but the move number, and the
//! buckets count cutoffs by depth, the last one depths 8-10 (9 and 10 only
//! with `lmp-depth-10`, which adds `d9=.. d10=..` to split it). With
//! `lmp-history`, `hist_kept=` counts moves searched only thanks to the
//! bonus; with `lmp-countermove`, `cm_kept=` countermoves that would have
//! been pruned.

use crate::search::{Candidate, Node, NodeType, Worker};
use crate::stats::depth_bucket;
use crate::techniques::{Hooks, Technique, TechniqueSet};
use crate::tune::Tunable;
use crate::{counters, technique, tunables};

technique! {
    /// Which move-count pruning features are on.
    pub struct MoveCountPruning {
        enabled: "lmp" [] "plan 002, 3.1" => "late move pruning with limits 3..50 for depths 1-8";
        history_bonus: "lmp-history" ["lmp"] "plan 002, 3.2" => "+5 to the limit for moves with good history";
        keep_countermove: "lmp-countermove" ["lmp"] "plan 002, 3.3" => "never prune the countermove";
        depth_10: "lmp-depth-10" ["lmp"] "plan 003, 2.1" => "late move pruning to depth 10 (limits 48, 54)";
    }
}

counters! {
    /// `mcp:` telemetry.
    pub struct MoveCountCounters {
        /// Moves that met every condition but the move number, and pruned.
        pub attempts: u64,
        pub cutoffs: u64,
        /// Cutoffs at depths 1-3, 4-6, 7-9 and 10+ (the plans' `mcp_b`).
        pub by_depth: [u64; 4],
        /// `lmp-history`: moves searched only thanks to the bonus.
        pub history_kept: u64,
        /// `lmp-countermove`: countermoves that would have been pruned.
        pub countermove_kept: u64,
        /// `lmp-depth-10`: cutoffs at depths 9 and 10.
        pub depth_9: u64,
        pub depth_10: u64,
    }
}

tunables! {
    /// `lmp-history`: moves added to the limit for a move with good history.
    LMP_HISTORY_BONUS: 5, 0, 20, 1;
    /// `lmp-history`: a move's history must be above this for the bonus.
    LMP_HISTORY_THRESHOLD: 4096, 0, 16384, 256;
}

/// Plan 002 (3.1): the move-count limits for depths 1-8.
pub const LMP_LIMITS: [usize; 8] = [3, 6, 12, 18, 24, 32, 40, 50];
/// Plan 003 (2.1): the limits for depths 9 and 10.
pub const LMP_DEPTH_10_LIMITS: [usize; 2] = [48, 54];
/// The ×3/4 scaling of a position that is not improving.
pub const LMP_NOT_IMPROVING_NUMERATOR: usize = 3;
pub const LMP_NOT_IMPROVING_DENOMINATOR: usize = 4;

impl MoveCountPruning {
    pub const fn is_on(&self) -> bool {
        self.enabled
    }

    /// The deepest depth pruned.
    pub const fn max_depth(&self) -> i32 {
        if self.depth_10 {
            10
        } else {
            8
        }
    }

    /// The move-count limit at `depth` before any history bonus, or `None`
    /// where this configuration does not prune.
    pub fn limit(&self, depth: i32, improving: bool) -> Option<usize> {
        if !self.enabled || depth < 1 || depth > self.max_depth() {
            return None;
        }
        let depth = depth as usize;
        let base = if depth <= LMP_LIMITS.len() { LMP_LIMITS[depth - 1] } else { LMP_DEPTH_10_LIMITS[depth - 9] };
        Some(if improving { base } else { base * LMP_NOT_IMPROVING_NUMERATOR / LMP_NOT_IMPROVING_DENOMINATOR })
    }
}


impl<T: TechniqueSet> Worker<'_, T> {
    /// Step 11a: whether a late quiet move is skipped. The caller has
    /// excluded the root, the first move and nodes with only mated scores.
    pub(crate) fn move_count_prunes<NT: NodeType>(&mut self, node: &Node, candidate: &Candidate) -> bool {
        let config = T::TECHNIQUES.move_count;
        if !config.is_on() || NT::PV {
            return false;
        }
        debug_assert!(!NT::ROOT && candidate.move_number > 1, "move-count pruning at the root or on the first move");
        if node.in_check || !candidate.quiet || candidate.gives_check || candidate.is_killer || candidate.is_tt_move {
            return false;
        }
        let Some(mut limit) = config.limit(node.depth, node.improving) else {
            return false;
        };
        self.stats.techniques.move_count.attempts += 1;
        let over = |limit: usize| candidate.move_number > limit;
        if !over(limit) {
            return false;
        }
        if config.history_bonus && candidate.history > LMP_HISTORY_THRESHOLD.get() {
            limit += LMP_HISTORY_BONUS.get() as usize;
            if !over(limit) {
                self.stats.techniques.move_count.history_kept += 1;
                return false;
            }
        }
        if config.keep_countermove && candidate.is_counter_move {
            self.stats.techniques.move_count.countermove_kept += 1;
            return false;
        }
        let counters = &mut self.stats.techniques.move_count;
        counters.cutoffs += 1;
        counters.by_depth[depth_bucket(node.depth)] += 1;
        match node.depth {
            9 => counters.depth_9 += 1,
            10 => counters.depth_10 += 1,
            _ => {}
        }
        true
    }
}

impl Hooks for MoveCountPruning {
    fn prunes_move<T: TechniqueSet, NT: NodeType>(
        worker: &mut Worker<'_, T>,
        _board: &cozy_chess::Board,
        node: &Node,
        candidate: &Candidate,
    ) -> bool {
        worker.move_count_prunes::<NT>(node, candidate)
    }
}

impl Technique for MoveCountPruning {
    type Counters = MoveCountCounters;

    /// `mcp: att=X cut=Y cut%=Z.Z% mcp_b=[d1-3,d4-6,d7-9,d10+]`, then the
    /// phases' own counters.
    fn report(&self, counters: &MoveCountCounters) -> Vec<String> {
        if !self.is_on() {
            return Vec::new();
        }
        let mut line = format!(
            "mcp: {} mcp_b={}",
            crate::stats::rate(counters.attempts, counters.cutoffs),
            crate::stats::buckets(&counters.by_depth)
        );
        if self.depth_10 {
            line.push_str(&format!(" d9={} d10={}", counters.depth_9, counters.depth_10));
        }
        if self.history_bonus {
            line.push_str(&format!(" hist_kept={}", counters.history_kept));
        }
        if self.keep_countermove {
            line.push_str(&format!(" cm_kept={}", counters.countermove_kept));
        }
        vec![line]
    }

    fn snapshot_counters(counters: &MoveCountCounters) -> Vec<(&'static str, u64, u64)> {
        vec![("mcp", counters.attempts, counters.cutoffs)]
    }

    fn tunables(&self) -> Vec<&'static Tunable> {
        if self.is_on() {
            TUNABLES.to_vec()
        } else {
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::techniques::Techniques;

    fn set(features: &[&str]) -> MoveCountPruning {
        Techniques::from_features(features).unwrap().move_count
    }

    fn limits(config: MoveCountPruning, improving: bool) -> Vec<Option<usize>> {
        (0..=11).map(|depth| config.limit(depth, improving)).collect()
    }

    #[test]
    fn plan_limits_for_depths_1_to_8() {
        let lmp = set(&["lmp"]);
        let mut expected = vec![None];
        expected.extend([3, 6, 12, 18, 24, 32, 40, 50].map(Some));
        expected.extend([None, None, None]);
        assert_eq!(limits(lmp, true), expected);
    }

    #[test]
    fn not_improving_scales_by_three_quarters_rounded_down() {
        let mut expected = vec![None];
        expected.extend([2, 4, 9, 13, 18, 24, 30, 37].map(Some));
        expected.extend([None, None, None]);
        assert_eq!(limits(set(&["lmp"]), false), expected);
    }

    #[test]
    fn depth_10_adds_48_and_54() {
        let deep = set(&["lmp-depth-10"]);
        assert!(deep.enabled && deep.depth_10);
        assert_eq!((deep.limit(9, true), deep.limit(10, true)), (Some(48), Some(54)));
        assert_eq!((deep.limit(9, false), deep.limit(10, false)), (Some(36), Some(40)));
        assert_eq!(deep.limit(8, true), Some(50));
        assert_eq!(deep.limit(11, true), None);
        assert_eq!(deep.max_depth(), 10);
        assert_eq!(set(&["lmp"]).max_depth(), 8);
    }

    #[test]
    fn history_bonus_and_threshold() {
        assert_eq!(LMP_HISTORY_BONUS.get(), 5);
        assert_eq!(LMP_HISTORY_THRESHOLD.get(), 4096);
    }

    #[test]
    fn phases_imply_lmp() {
        for feature in ["lmp-history", "lmp-countermove", "lmp-depth-10"] {
            assert!(set(&[feature]).is_on(), "{feature}");
        }
        assert!(set(&["lmp-history"]).history_bonus);
        assert!(set(&["lmp-countermove"]).keep_countermove);
        assert!(!MoveCountPruning::BASELINE.is_on());
        assert_eq!(MoveCountPruning::BASELINE.limit(3, true), None);
    }


    #[test]
    fn report_only_when_on() {
        let mut counters = MoveCountCounters { attempts: 4, cutoffs: 1, ..Default::default() };
        counters.by_depth[2] = 1;
        assert!(MoveCountPruning::BASELINE.report(&counters).is_empty());
        assert_eq!(set(&["lmp"]).report(&counters), ["mcp: att=4 cut=1 cut%=25.0% mcp_b=[0,0,1,0]"]);
        let all = set(&["lmp-history", "lmp-countermove", "lmp-depth-10"]).report(&counters);
        assert!(all[0].contains(" d9=0 d10=0 hist_kept=0 cm_kept=0"), "{all:?}");
    }
}
