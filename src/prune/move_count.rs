//! Move-count pruning: near the horizon, once a node has tried enough moves
//! in a well-ordered list, the remaining quiet moves are very unlikely to
//! raise alpha, so they are skipped without a search.
//!
//! Also called: late move pruning (LMP), "quiet move pruning" (Ethereal's
//! `LateMovePruningCounts`), Stockfish's `moveCountPruning` / `skipQuiets`.
//!
//! Phases, side by side:
//! - `lmp` (plan 002, 3.1: "Don't prune captures, promotions, or killers"):
//!   non-PV, not in check, depth ≤ 8, after the first move. A quiet move
//!   (neither a capture nor a promotion) that is not a killer is skipped
//!   when its 1-based move number (pruned moves included) exceeds the limit
//!   for the depth: 3, 6, 12, 18, 24, 32, 40, 50 for depths 1-8 (the
//!   tunables `MoveCountLimit1`..`MoveCountLimit8`). When the position is
//!   not improving the limit is scaled by ×3/4 in integer arithmetic,
//!   rounded down (2, 4, 9, 13, 18, 24, 30, 37). Improving is the plan's:
//!   true only when both the node's static eval and the one two plies
//!   earlier are known and the node's is higher; an unknown eval (in check,
//!   or the root's first plies) means not improving. (The plan's engine
//!   took an eval of 0 for unknown; here unknown is unknown.) Checks and the
//!   TT move are prunable, as the plan writes it.
//! - `lmp-keep-checks` (implies `lmp`; not a plan phase): moves that give
//!   check and the TT move are never pruned, this repository's guard until
//!   the plan was read again. (With checks pruned, the lab's mate-in-two
//!   `2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w` is found later:
//!   this engine orders quiet checks by history only.)
//! - `lmp-history` (3.2: "Adjust move count limit based on history score",
//!   `int historyThreshold = 1000; // Tune this value`, `if (historyScore >
//!   historyThreshold) limit += 5;`): +5 (`MoveCountHistoryBonus`) to the limit,
//!   after the ×3/4 scaling, for moves whose butterfly history is above
//!   `MoveCountHistoryLowerLimit`. The plan's 1000 is a number on its engine's
//!   history, which adds min(2d², 800) per cutoff (32 at depth 4) and
//!   halves the table at 8192; this engine's adds 128·d − 64 (448 at depth
//!   4) with gravity to ±16384, so the same number means another move. The
//!   plan's meaning is "good history", a share of the moves: measured on
//!   the seeds at depth 10, over the moves both engines test (depths 3-8),
//!   SeaJay at the plan's commit (c6f277e, threshold 1000) finds 13 732 of
//!   330 206 above 1000 (4.16%); `p002-3.2` here finds 10 697 of 260 050
//!   above 5000 (4.11%; above 1000, 9.6%; above 2000, 7.6%). So the
//!   default is 5000.
//! - `lmp-history-1000` (implies `lmp-history`; the plan's number as
//!   written): the threshold is 1000 on this engine's history.
//! - `lmp-countermove` (3.3): the countermove is never pruned.
//! - `lmp-depth-10` (plan 003, 2.1): depths 9 and 10 too, with limits 48 and
//!   54 (`MoveCountLimit9`, `MoveCountLimit10`, with the plan's SPSA lines:
//!   `MoveCountLimit9, int, 48, 20, 90, 4, 0.002`; ×3/4 gives 36 and 40).
//!   48 is below the 50 of depth 8: those are the plan's numbers, kept as
//!   written. Plan 003 names the limits from depth 3 (its engine did not
//!   prune at depths 1-2); plan 002 gives limits from depth 1, so every
//!   depth has one.
//! - `lmp-skip-quiets` (implies `lmp`; not a plan phase: Stockfish's
//!   `skipQuiets` once `moveCountPruning` holds, Ethereal's `skipQuiets`
//!   after its late move pruning): once move-count pruning skips a move,
//!   the node drops every quiet move it has not picked yet, unpicked and
//!   untested, and tries only the bad captures and under-promotions left.
//!   The dropped moves count in the move numbers of the moves after them,
//!   as pruned moves do; there it departs from Stockfish, whose picker
//!   never yields them to `moveCount`, so the bad captures after them keep
//!   the reductions they had without the feature. With plain `lmp` every
//!   dropped move would have been pruned too (the move number only grows),
//!   so the tree is the same and only the work is saved; what changes is
//!   that `lmp-history`'s bonus no longer reaches the moves after the first
//!   pruned one, and that bad captures of equal score may come in another
//!   order. With `lmp-keep-checks` the quiet checks stay, handed out where
//!   picking would have put them (see `futility-skip-quiets`).
//!
//! Telemetry: `mcp: att=X cut=Y cut%=Z.Z% mcp_b=[d1-3,d4-6,d7-9,d10+]`
//! (plan 003's buckets), where an attempt is a move that met every
//! condition but the move number. `lmp-depth-10` adds `d9=.. d10=..`; with
//! `lmp-history`, `hist_above=` counts attempts whose history is above the
//! threshold (the share the threshold sets: the plan's code tests every
//! move's history, before its move number) and `hist_kept=` moves searched
//! only thanks to the bonus; with `lmp-countermove`, `cm_kept=`
//! countermoves that would have been pruned; with `lmp-skip-quiets`,
//! `skipped=` quiet moves dropped unpicked.
//!
//! Measured: full-without-move_count against full: -137.4 Elo [-163.4, -112.8], 484 games at 10000 nodes a move, stopped by its SPRT.

use crate::context::{Context, DropsQuiets};
use crate::search::{Candidate, Node, NodeType};
use crate::stats::depth_bucket;
use crate::techniques::{Hooks, Technique, TechniqueCounters, TechniqueSet, Techniques, COMPILED};
use crate::trace::TraceKind;
use crate::tune::Tunable;
use crate::{counters, features, tunables};

/// Which move-count pruning features are on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveCountPruning {
    /// `lmp`
    pub enabled: bool,
    /// `lmp-keep-checks`
    pub keep_checks: bool,
    /// `lmp-history`
    pub history_bonus: bool,
    /// `lmp-history-1000`
    pub history_1000: bool,
    /// `lmp-countermove`
    pub keep_countermove: bool,
    /// `lmp-depth-10`
    pub depth_10: bool,
    /// `lmp-skip-quiets`
    pub skip_quiets: bool,
}

features! {
    MoveCountPruning {
        enabled: "lmp" [] "plan 002, 3.1" => "late move pruning with limits 3..50 for depths 1-8";
        keep_checks: "lmp-keep-checks" ["lmp"] "this repository's guard (not a plan phase)"
            => "late move pruning never prunes a check or the TT move";
        history_bonus: "lmp-history" ["lmp"] "plan 002, 3.2"
            => "+5 to the limit for moves with good history (above 5000: the plan's share of moves)";
        history_1000: "lmp-history-1000" ["lmp-history"] "plan 002, 3.2 (its number as written)"
            => "the good-history threshold is 1000 on this engine's history";
        keep_countermove: "lmp-countermove" ["lmp"] "plan 002, 3.3" => "never prune the countermove";
        depth_10: "lmp-depth-10" ["lmp"] "plan 003, 2.1" => "late move pruning to depth 10 (limits 48, 54)";
        skip_quiets: "lmp-skip-quiets" ["lmp"] "Stockfish (skipQuiets), Ethereal"
            => "once late move pruning skips a move, the node's remaining quiet moves are dropped unpicked";
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
        /// `lmp-history`: attempts whose history is above the threshold
        /// (the plan's "good history": the share the threshold sets).
        pub history_above: u64,
        /// `lmp-countermove`: countermoves that would have been pruned.
        pub countermove_kept: u64,
        /// `lmp-depth-10`: cutoffs at depths 9 and 10.
        pub depth_9: u64,
        pub depth_10: u64,
        /// `lmp-skip-quiets`: quiet moves dropped unpicked.
        pub skipped: u64,
    }
}

tunables! {
    list LIMIT_TUNABLES;
    /// Plan 002 (3.1): the move-count limits for depths 1-8.
    MOVE_COUNT_LIMIT_1: 3, 1, 8, 1;
    MOVE_COUNT_LIMIT_2: 6, 2, 12, 1;
    MOVE_COUNT_LIMIT_3: 12, 5, 24, 1;
    MOVE_COUNT_LIMIT_4: 18, 8, 34, 2;
    MOVE_COUNT_LIMIT_5: 24, 10, 45, 2;
    MOVE_COUNT_LIMIT_6: 32, 13, 60, 3;
    MOVE_COUNT_LIMIT_7: 40, 17, 75, 3;
    MOVE_COUNT_LIMIT_8: 50, 21, 92, 4;
    /// Plan 003 (2.1): depths 9 and 10, with the plan's SPSA lines.
    MOVE_COUNT_LIMIT_9: 48, 20, 90, 4;
    MOVE_COUNT_LIMIT_10: 54, 25, 100, 5;
}
tunables! {
    list HISTORY_TUNABLES;
    /// `lmp-history`: moves added to the limit for a move with good history.
    MOVE_COUNT_HISTORY_BONUS: 5, 0, 20, 1;
    /// `lmp-history`: a move's history must be above this for the bonus
    /// (the plan's share of moves, 5000; 1000 with `lmp-history-1000`).
    MOVE_COUNT_HISTORY_LOWER_LIMIT: COMPILED.move_count.history_threshold(), 0, 16384, 250;
}

/// The limits by depth, 1-10.
static LIMITS: [&Tunable; 10] = [
    &MOVE_COUNT_LIMIT_1,
    &MOVE_COUNT_LIMIT_2,
    &MOVE_COUNT_LIMIT_3,
    &MOVE_COUNT_LIMIT_4,
    &MOVE_COUNT_LIMIT_5,
    &MOVE_COUNT_LIMIT_6,
    &MOVE_COUNT_LIMIT_7,
    &MOVE_COUNT_LIMIT_8,
    &MOVE_COUNT_LIMIT_9,
    &MOVE_COUNT_LIMIT_10,
];
/// The ×3/4 scaling of a position that is not improving.
pub const LMP_NOT_IMPROVING_NUMERATOR: usize = 3;
pub const LMP_NOT_IMPROVING_DENOMINATOR: usize = 4;

/// `lmp-history`'s threshold: the plan's share of moves on this engine's
/// history, or the plan's number as written.
const HISTORY_THRESHOLD_SHARE: i32 = 5000;
const HISTORY_THRESHOLD_AS_WRITTEN: i32 = 1000;

impl MoveCountPruning {
    pub const fn is_on(&self) -> bool {
        self.enabled
    }

    /// The history a move needs for `lmp-history`'s bonus (before tuning).
    pub const fn history_threshold(&self) -> i32 {
        if self.history_1000 {
            HISTORY_THRESHOLD_AS_WRITTEN
        } else {
            HISTORY_THRESHOLD_SHARE
        }
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
        let base = LIMITS[(depth - 1) as usize].get() as usize;
        Some(if improving { base } else { base * LMP_NOT_IMPROVING_NUMERATOR / LMP_NOT_IMPROVING_DENOMINATOR })
    }
}

impl Hooks for MoveCountPruning {
    /// Move pruning: whether a late quiet move is skipped. The caller has
    /// excluded the root, the first move and nodes with only mated scores.
    fn prunes_move<T: TechniqueSet, NT: NodeType>(
        cx: &mut Context<'_, '_, T, Self>,
        node: &Node,
        candidate: &Candidate,
    ) -> bool {
        let config = T::TECHNIQUES.move_count;
        if !config.is_on() || NT::PV {
            return false;
        }
        debug_assert!(!NT::ROOT && candidate.move_number > 1, "move-count pruning at the root or on the first move");
        if node.in_check || !candidate.quiet || candidate.is_killer {
            return false;
        }
        if config.keep_checks && (candidate.gives_check || candidate.is_tt_move) {
            return false;
        }
        let Some(mut limit) = config.limit(node.depth, node.improving) else {
            return false;
        };
        cx.counters().attempts += 1;
        let good_history = config.history_bonus
            && candidate.history > MOVE_COUNT_HISTORY_LOWER_LIMIT.value_or(config.history_threshold());
        cx.counters().history_above += u64::from(good_history);
        let over = |limit: usize| candidate.move_number > limit;
        if !over(limit) {
            return false;
        }
        if good_history {
            limit += MOVE_COUNT_HISTORY_BONUS.get() as usize;
            if !over(limit) {
                cx.counters().history_kept += 1;
                return false;
            }
        }
        if config.keep_countermove && candidate.is_counter_move {
            cx.counters().countermove_kept += 1;
            return false;
        }
        if config.skip_quiets {
            cx.drop_quiet_moves(node, "lmp-skip-quiets", config.keep_checks);
        }
        let counters = cx.counters();
        counters.cutoffs += 1;
        counters.by_depth[depth_bucket(node.depth)] += 1;
        match node.depth {
            9 => counters.depth_9 += 1,
            10 => counters.depth_10 += 1,
            _ => {}
        }
        if cx.traces_move(node.ply, candidate.mv) {
            let feature = if node.depth > 8 { "lmp-depth-10" } else { "lmp" };
            let detail = format!(
                "move {} > limit {limit} at depth {} ({}improving)",
                candidate.move_number,
                node.depth,
                if node.improving { "" } else { "not " }
            );
            cx.trace(node.ply, node.depth, TraceKind::MoveSkipped, feature, detail);
        }
        true
    }
}

/// The quiet moves a node drops after this technique pruned a move count
/// as its `skipped`.
impl DropsQuiets for MoveCountPruning {
    fn dropped(counters: &mut MoveCountCounters) -> &mut u64 {
        &mut counters.skipped
    }
}

impl Technique for MoveCountPruning {
    const NAME: &'static str = "move_count";
    type Counters = MoveCountCounters;

    fn of(set: &Techniques) -> &Self {
        &set.move_count
    }

    fn counters(all: &TechniqueCounters) -> &MoveCountCounters {
        &all.move_count
    }

    fn counters_mut(all: &mut TechniqueCounters) -> &mut MoveCountCounters {
        &mut all.move_count
    }

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
            line.push_str(&format!(" hist_above={} hist_kept={}", counters.history_above, counters.history_kept));
        }
        if self.keep_countermove {
            line.push_str(&format!(" cm_kept={}", counters.countermove_kept));
        }
        if self.skip_quiets {
            line.push_str(&format!(" skipped={}", counters.skipped));
        }
        vec![line]
    }

    fn snapshot_counters(counters: &MoveCountCounters) -> Vec<(&'static str, u64, u64)> {
        vec![("mcp", counters.attempts, counters.cutoffs)]
    }

    fn tunables(&self) -> Vec<&'static Tunable> {
        let mut list = Vec::new();
        if self.is_on() {
            list.extend_from_slice(&LIMIT_TUNABLES[..self.max_depth() as usize]);
        }
        if self.history_bonus {
            list.extend_from_slice(HISTORY_TUNABLES);
        }
        list
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
        assert_eq!(MOVE_COUNT_HISTORY_BONUS.get(), 5);
        assert_eq!(set(&["lmp-history"]).history_threshold(), 5000);
        assert_eq!(set(&["lmp-history-1000"]).history_threshold(), 1000);
        assert!(set(&["lmp-history-1000"]).history_bonus);
    }

    #[test]
    fn limits_are_tunables_with_plan_003s_spsa_lines() {
        assert_eq!(MOVE_COUNT_LIMIT_9.spsa_line(), "MoveCountLimit9, int, 48, 20, 90, 4, 0.002");
        assert_eq!(MOVE_COUNT_LIMIT_10.spsa_line(), "MoveCountLimit10, int, 54, 25, 100, 5, 0.002");
        let names = |features: &[&str]| -> Vec<String> {
            set(features).tunables().iter().map(|tunable| tunable.name().to_string()).collect()
        };
        assert_eq!(names(&["lmp"]).len(), 8);
        assert_eq!(names(&["lmp-depth-10"]).last().unwrap(), "MoveCountLimit10");
        assert!(names(&["lmp-history"]).contains(&"MoveCountHistoryLowerLimit".to_string()));
        assert!(names(&[]).is_empty());
    }

    #[test]
    fn phases_imply_lmp() {
        for feature in ["lmp-history", "lmp-countermove", "lmp-depth-10", "lmp-skip-quiets"] {
            assert!(set(&[feature]).is_on(), "{feature}");
        }
        assert!(set(&["lmp-history"]).history_bonus);
        assert!(set(&["lmp-countermove"]).keep_countermove);
        assert!(set(&["lmp-skip-quiets"]).skip_quiets);
        assert!(!MoveCountPruning::BASELINE.is_on());
        assert_eq!(MoveCountPruning::BASELINE.limit(3, true), None);
    }

    // The features' sets of the catalogue test, compiled once.
    use super::feature_searches::{enabled as Lmp, skip_quiets as LmpSkippingQuiets};

    /// With plain `lmp`, a dropped quiet move is one every later test would
    /// have pruned, so skipping them saves the work and searches the same
    /// tree: on every position of the node suite, the same nodes, best move
    /// and score, with fewer move-count tests and every dropped move one the
    /// plain search pruned.
    #[test]
    fn skipping_quiets_after_plain_lmp_searches_the_same_tree() {
        use crate::search::SearchResult;

        for (id, plain, skipping) in crate::matrix::suite_with_both::<Lmp, LmpSkippingQuiets>(8) {
            let outcome = |result: &SearchResult| (result.nodes, result.best_move, result.score);
            assert_eq!(outcome(&skipping), outcome(&plain), "{id}");
            let (counters, plain_counters) =
                (&skipping.stats.techniques.move_count, &plain.stats.techniques.move_count);
            assert!(counters.skipped > 0 && counters.attempts < plain_counters.attempts, "{id}");
            assert_eq!(counters.cutoffs + counters.skipped, plain_counters.cutoffs, "{id}");
        }
    }

    #[test]
    fn report_only_when_on() {
        let mut counters = MoveCountCounters { attempts: 4, cutoffs: 1, ..Default::default() };
        counters.by_depth[2] = 1;
        assert!(MoveCountPruning::BASELINE.report(&counters).is_empty());
        assert_eq!(set(&["lmp"]).report(&counters), ["mcp: att=4 cut=1 cut%=25.0% mcp_b=[0,0,1,0]"]);
        let all = set(&["lmp-history", "lmp-countermove", "lmp-depth-10"]).report(&counters);
        assert!(all[0].contains(" d9=0 d10=0 hist_above=0 hist_kept=0 cm_kept=0"), "{all:?}");
        let skipping = MoveCountCounters { skipped: 7, ..counters };
        assert!(set(&["lmp-skip-quiets"]).report(&skipping)[0].ends_with(" skipped=7"));
    }
}
