//! Late move reductions: quiet moves late in a well-ordered list rarely
//! matter, so they are searched shallower first and re-searched at full
//! depth only when they beat alpha.
//!
//! Phases, side by side:
//! - Baseline: quiet moves from the fourth legal move on, at depth ≥ 3, not
//!   in check, not killers, not giving check. The reduction is
//!   `0.75 + ln(depth)·ln(move number) / 2.25` (Ethereal's table, truncated,
//!   before Ethereal tuned it to 0.7844 and 2.4696), one ply less at PV nodes.
//! - `lmr-history` (plan 003, priority 3: "Increase reduction for moves 15+
//!   with bad history; Add history-based reduction adjustments"; the
//!   history term is Stockfish's and Ethereal's too): the reduction of a
//!   reducible move (the baseline's
//!   conditions decide which moves are reduced) is lowered by
//!   `history / 8192` (`LmrHistoryDivisor`), rounding toward zero: one ply
//!   less from +8192, two at the +16384 bound, one more from −8192, two at
//!   −16384, unchanged in between. A quiet move after the 15th
//!   (`LmrHistoryLateMove`: move number > 15, pruned moves counted) with
//!   bad history (< 0) gets one more ply. The result is never below 0 (the
//!   search also keeps it below the new depth). The divisor is this file's:
//!   the plan gives no number. Its effect shows in the `lmr: reduced= re=`
//!   line (the plan's "monitor re-search rate").
//! - `lmr-log-sf` (Stockfish 9's `Search::init`, 2018): the baseline's
//!   table is replaced by `round(ln(depth)·ln(move number) / 1.95)`, written
//!   here as `base + ln(depth)·ln(move number) / divisor`, truncated, with
//!   the base 0.50 (`LmrLogBase`, in hundredths: the rounding) and the
//!   divisor 1.95 (`LmrLogDivisor`, in hundredths). Only the amount
//!   changes: which moves are reduced, the ply less at PV nodes (Stockfish's
//!   PV table is its non-PV table minus one, floored at 0, as here) and the
//!   other adjustments are the baseline's. Stockfish's table also adds a
//!   ply at non-PV nodes that are not improving when the raw value exceeds
//!   1.0; that is an `improving` idea and is not part of this feature (see
//!   `improving-lmr`). Against the baseline's table it gives a ply more at
//!   1816 of the 63 × 63 entries, deep in long lists (from depth 10, move 9;
//!   depth 6, move 16; depth 4, move 34), and a ply less at 24, where the
//!   baseline's base of 0.75 lifted a small product (of those LMR reaches:
//!   depth 3, moves 13-14; depth 4, move 8; depth 5, move 6; depth 8, move
//!   4).
//! - `improving-lmr` (Ethereal: `R += !PvNode + !improving`; Stockfish 9
//!   builds the same ply into its non-PV table): a reducible move gets one
//!   ply more (`LmrNotImprovingReduction`) when the node is not improving. The flag
//!   is the search's (`Node::improving`): the static eval is known and above
//!   the one two plies earlier, which is known too, as Ethereal's
//!   `!inCheck && eval > (ns-2)->eval`: a node in check two plies earlier
//!   has no eval, so the node is not improving (Stockfish 9 counts it as
//!   improving, and Stockfish 12 compares with four plies earlier instead).
//!   It applies at every node type, as Ethereal's does, before the
//!   `lmr-history` adjustment.
//!
//! The tables are computed at compile time from a logarithm made of IEEE
//! basic operations, so they are the same on every machine; a `tune` build
//! computes `lmr-log-sf`'s entries from the same logarithms and the options'
//! values.
//!
//! Measured: full-without-lmr against full: -15.6 Elo [-31.3, +0.0], 1000 games at 10000 nodes a move.

use crate::context::Context;
use crate::movepick::MoveKind;
use crate::search::{Candidate, Node, NodeType};
use crate::techniques::{Hooks, Technique, TechniqueCounters, TechniqueSet, Techniques};
use crate::tune::{Tunable, TUNING};
use crate::{counters, features, tunables};

/// Which late move reduction features are on (LMR itself is always on:
/// it is part of the baseline).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LateMoveReductions {
    /// `lmr-history`
    pub history: bool,
    /// `lmr-log-sf`
    pub log_sf: bool,
    /// `improving-lmr`
    pub not_improving: bool,
}

features! {
    LateMoveReductions {
        history: "lmr-history" [] "plan 003, priority 3" => "LMR adjusted by history, more for late quiets with bad history";
        log_sf: "lmr-log-sf" [] "Stockfish 9" => "LMR table round(ln d * ln m / 1.95) instead of 0.75 + ln d * ln m / 2.25";
        not_improving: "improving-lmr" [] "Ethereal"
            => "one ply more LMR when the static eval is not improving";
    }
}

counters! {
    /// `lmr:` telemetry.
    pub struct LmrCounters {
        /// Moves searched reduced, and re-searched at full depth.
        pub reductions: u64,
        pub researches: u64,
    }
}

tunables! {
    list HISTORY_TUNABLES;
    /// `lmr-history`: a ply less reduction per this much history.
    LMR_HISTORY_DIVISOR: 8192, 2048, 16384, 512;
    /// `lmr-history`: quiet moves after this many get a ply more with bad history.
    LMR_HISTORY_LATE_MOVE: 15, 4, 40, 1;
}
tunables! {
    list LOG_SF_TUNABLES;
    /// `lmr-log-sf`: the table's base, in hundredths of a ply (Stockfish 9
    /// rounds, so 0.50).
    LMR_LOG_BASE: LOG_SF_BASE, 0, 150, 5;
    /// `lmr-log-sf`: the table's divisor of ln(depth)·ln(move number), in
    /// hundredths (Stockfish 9: 1.95).
    LMR_LOG_DIVISOR: LOG_SF_DIVISOR, 100, 400, 5;
}
tunables! {
    list NOT_IMPROVING_TUNABLES;
    /// `improving-lmr`: plies added when the node is not improving.
    LMR_NOT_IMPROVING_REDUCTION: 1, 0, 3, 1;
}

/// The search asks for each move's reduction by name (in the move loop, before the
/// move-level hooks, which may judge a move at its reduced depth).
impl Hooks for LateMoveReductions {
    /// The reduction the move would get (0 for moves that are not reduced).
    fn reduce_move<T: TechniqueSet, NT: NodeType>(node: &Node, candidate: &Candidate) -> i32 {
        let reducible = node.depth >= LMR_MIN_DEPTH
            && candidate.move_number > LMR_MIN_MOVES
            && !node.in_check
            && !candidate.gives_check
            && matches!(candidate.kind, MoveKind::Quiet | MoveKind::CounterMove);
        if !reducible {
            return 0;
        }
        let config = T::TECHNIQUES.lmr;
        let mut reduction = config.table_reduction(node.depth, candidate.move_number, NT::PV);
        if config.not_improving && !node.improving {
            reduction += LMR_NOT_IMPROVING_REDUCTION.get();
        }
        if config.history {
            history_adjusted_reduction(reduction, candidate.move_number, candidate.history)
        } else {
            reduction
        }
    }
}

impl Technique for LateMoveReductions {
    const NAME: &'static str = "lmr";
    type Counters = LmrCounters;

    fn of(set: &Techniques) -> &Self {
        &set.lmr
    }

    fn counters(all: &TechniqueCounters) -> &LmrCounters {
        &all.lmr
    }

    fn counters_mut(all: &mut TechniqueCounters) -> &mut LmrCounters {
        &mut all.lmr
    }

    /// `lmr: reduced=X re=Y`, always (a baseline technique).
    fn report(&self, counters: &LmrCounters) -> Vec<String> {
        vec![format!("lmr: reduced={} re={}", counters.reductions, counters.researches)]
    }

    fn tunables(&self) -> Vec<&'static Tunable> {
        let mut list = Vec::new();
        if self.history {
            list.extend_from_slice(HISTORY_TUNABLES);
        }
        if self.log_sf {
            list.extend_from_slice(LOG_SF_TUNABLES);
        }
        if self.not_improving {
            list.extend_from_slice(NOT_IMPROVING_TUNABLES);
        }
        list
    }
}

/// `lmr-history`: the reduction adjusted by the move's butterfly history.
pub fn history_adjusted_reduction(reduction: i32, move_number: usize, history: i32) -> i32 {
    let mut adjusted = reduction - history / LMR_HISTORY_DIVISOR.get();
    if move_number > LMR_HISTORY_LATE_MOVE.get() as usize && history < 0 {
        adjusted += 1;
    }
    adjusted.max(0)
}

/// Legal moves searched before reductions start.
pub const LMR_MIN_MOVES: usize = 3;
pub const LMR_MIN_DEPTH: i32 = 3;

const TABLE_SIZE: usize = 64;

/// The baseline table's base and divisor, in hundredths: 0.75 and 2.25.
const BASELINE_BASE: i32 = 75;
const BASELINE_DIVISOR: i32 = 225;
/// `lmr-log-sf`'s defaults, in hundredths: 0.50 (Stockfish rounds) and 1.95.
const LOG_SF_BASE: i32 = 50;
const LOG_SF_DIVISOR: i32 = 195;

/// Natural logarithm by IEEE basic operations only, so the table is the same
/// on every machine and computed at compile time.
const fn ln(x: f64) -> f64 {
    const LN_2: f64 = std::f64::consts::LN_2;
    let mut mantissa = x;
    let mut exponent = 0.0;
    while mantissa >= 2.0 {
        mantissa /= 2.0;
        exponent += 1.0;
    }
    // ln(m) = 2·atanh((m − 1)/(m + 1)), which converges fast for m in [1, 2).
    let t = (mantissa - 1.0) / (mantissa + 1.0);
    let t_squared = t * t;
    let mut term = t;
    let mut sum = 0.0;
    let mut k = 1.0;
    while k < 60.0 {
        sum += term / k;
        term *= t_squared;
        k += 2.0;
    }
    exponent * LN_2 + 2.0 * sum
}

/// `ln(i)` for the table's indices (index 0 is unused).
const LOGARITHMS: [f64; TABLE_SIZE] = {
    let mut logarithms = [0.0; TABLE_SIZE];
    let mut i = 1;
    while i < TABLE_SIZE {
        logarithms[i] = ln(i as f64);
        i += 1;
    }
    logarithms
};

/// One entry, `base + ln(depth)·ln(moves) / divisor` truncated, with the base
/// and the divisor in hundredths (exact: 0.75, 2.25, 0.5 and 1.95 are the
/// doubles these quotients round to).
const fn log_reduction(depth: usize, moves: usize, base: i32, divisor: i32) -> i32 {
    let base = base as f64 / 100.0;
    let divisor = divisor as f64 / 100.0;
    (base + LOGARITHMS[depth] * LOGARITHMS[moves] / divisor) as i32
}

type Table = [[i32; TABLE_SIZE]; TABLE_SIZE];

const fn build_reductions(base: i32, divisor: i32) -> Table {
    let mut table = [[0; TABLE_SIZE]; TABLE_SIZE];
    let mut depth = 1;
    while depth < TABLE_SIZE {
        let mut moves = 1;
        while moves < TABLE_SIZE {
            table[depth][moves] = log_reduction(depth, moves, base, divisor);
            moves += 1;
        }
        depth += 1;
    }
    table
}

/// The baseline's table.
const REDUCTIONS: Table = build_reductions(BASELINE_BASE, BASELINE_DIVISOR);
/// `lmr-log-sf`'s table, from its tunables' defaults.
const LOG_SF_REDUCTIONS: Table = build_reductions(LOG_SF_BASE, LOG_SF_DIVISOR);

/// The table's indices for a depth and a 1-based move number.
fn table_index(depth: i32, move_number: usize) -> (usize, usize) {
    ((depth.max(0) as usize).min(TABLE_SIZE - 1), move_number.min(TABLE_SIZE - 1))
}

/// The baseline's reduction for the `move_number`-th legal move (1-based) at
/// `depth`.
pub fn lmr_reduction(depth: i32, move_number: usize, is_pv: bool) -> i32 {
    let (depth, moves) = table_index(depth, move_number);
    (REDUCTIONS[depth][moves] - is_pv as i32).max(0)
}

/// `lmr-log-sf`'s reduction for the `move_number`-th legal move at `depth`:
/// its table, or in a `tune` build the options' values.
pub fn log_sf_reduction(depth: i32, move_number: usize, is_pv: bool) -> i32 {
    let (depth, moves) = table_index(depth, move_number);
    let entry = if TUNING {
        log_reduction(depth, moves, LMR_LOG_BASE.get(), LMR_LOG_DIVISOR.get())
    } else {
        LOG_SF_REDUCTIONS[depth][moves]
    };
    (entry - is_pv as i32).max(0)
}

impl LateMoveReductions {
    /// Step 12c, after a move's reduced search: counted (`lmr: reduced=
    /// re=`), with whether it was repeated at full depth. The search calls
    /// it by name, as `picker.rs` calls staged picking's stages: a step of
    /// the search's own, not a hook a technique may act at.
    pub(crate) fn count_reduced_search<T: TechniqueSet>(cx: &mut Context<'_, '_, T, Self>, researched: bool) {
        let counters = cx.counters();
        counters.reductions += 1;
        counters.researches += u64::from(researched);
    }

    /// The table's reduction, before any adjustment: the baseline's, or
    /// Stockfish's with `lmr-log-sf`.
    pub fn table_reduction(&self, depth: i32, move_number: usize, is_pv: bool) -> i32 {
        if self.log_sf {
            log_sf_reduction(depth, move_number, is_pv)
        } else {
            lmr_reduction(depth, move_number, is_pv)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compile_time_logarithm_matches_std() {
        for x in [1.0, 2.0, 3.0, 10.0, 37.0, 63.0] {
            assert!((ln(x) - f64::ln(x)).abs() < 1e-12, "{x}");
        }
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        assert_eq!(lmr_reduction(3, 4, false), 1);
        assert_eq!(lmr_reduction(10, 20, false), 3);
        assert_eq!(lmr_reduction(10, 20, true), 2);
        assert_eq!(lmr_reduction(63, 63, false), 8);
        assert!(lmr_reduction(20, 30, false) >= lmr_reduction(10, 30, false));
    }

    #[test]
    fn history_adjustment_follows_the_plan() {
        assert_eq!((LMR_HISTORY_DIVISOR.get(), LMR_HISTORY_LATE_MOVE.get()), (8192, 15));
        // history / 8192, rounded toward zero.
        assert_eq!(
            [-16384, -8192, -8191, 0, 8191, 8192, 16384].map(|h| history_adjusted_reduction(2, 10, h)),
            [4, 3, 2, 2, 2, 1, 0]
        );
        // A ply more after the 15th move with history below zero.
        assert_eq!(history_adjusted_reduction(2, 15, -1), 2);
        assert_eq!(history_adjusted_reduction(2, 16, -1), 3);
        assert_eq!(history_adjusted_reduction(2, 16, 0), 2);
        assert_eq!(history_adjusted_reduction(2, 16, -8192), 4);
        // Never below zero.
        assert_eq!(history_adjusted_reduction(1, 4, 16384), 0);
        assert_eq!(history_adjusted_reduction(0, 30, 16384), 0);
    }

    #[test]
    fn baseline_table_is_the_literal_formula() {
        for (depth, row) in REDUCTIONS.iter().enumerate().skip(1) {
            for (moves, &entry) in row.iter().enumerate().skip(1) {
                let literal = (0.75 + ln(depth as f64) * ln(moves as f64) / 2.25) as i32;
                assert_eq!(entry, literal, "depth {depth}, move {moves}");
            }
        }
    }

    #[test]
    fn log_sf_table_is_stockfish_9s_rounding() {
        // Stockfish 9: int(std::round(log(d) * log(mc) / 1.95)), with the
        // platform's logarithm.
        for (depth, row) in LOG_SF_REDUCTIONS.iter().enumerate().skip(1) {
            for (moves, &entry) in row.iter().enumerate().skip(1) {
                let stockfish = ((depth as f64).ln() * (moves as f64).ln() / 1.95).round() as i32;
                assert_eq!(entry, stockfish, "depth {depth}, move {moves}");
            }
        }
        assert_eq!((LMR_LOG_BASE.get(), LMR_LOG_DIVISOR.get()), (50, 195));
    }

    #[test]
    fn log_sf_reduces_less_early_and_more_late() {
        assert_eq!((log_sf_reduction(3, 4, false), lmr_reduction(3, 4, false)), (1, 1));
        // Where the baseline's base of 0.75 lifts an entry a ply.
        assert_eq!((log_sf_reduction(3, 13, false), lmr_reduction(3, 13, false)), (1, 2));
        assert_eq!((log_sf_reduction(8, 4, false), lmr_reduction(8, 4, false)), (1, 2));
        // Where the divisor of 1.95 adds a ply.
        assert_eq!((log_sf_reduction(10, 9, false), lmr_reduction(10, 9, false)), (3, 2));
        assert_eq!((log_sf_reduction(10, 20, false), lmr_reduction(10, 20, false)), (4, 3));
        assert_eq!((log_sf_reduction(10, 20, true), lmr_reduction(10, 20, true)), (3, 2));
        assert_eq!((log_sf_reduction(63, 63, false), lmr_reduction(63, 63, false)), (9, 8));
        let (mut less, mut more) = (0, 0);
        for depth in 1..TABLE_SIZE as i32 {
            for moves in 1..TABLE_SIZE {
                match log_sf_reduction(depth, moves, false) - lmr_reduction(depth, moves, false) {
                    -1 => less += 1,
                    0 => {}
                    1 => more += 1,
                    difference => panic!("depth {depth}, move {moves}: {difference}"),
                }
            }
        }
        assert_eq!((less, more), (24, 1816));
    }

    #[test]
    fn table_follows_the_feature() {
        let sf = LateMoveReductions::BASELINE.with("lmr-log-sf");
        assert_eq!(sf.table_reduction(10, 20, false), 4);
        assert_eq!(LateMoveReductions::BASELINE.table_reduction(10, 20, false), 3);
        assert_eq!(LMR_NOT_IMPROVING_REDUCTION.get(), 1);
    }

    #[test]
    fn features_switch_their_flag_on() {
        let off = LateMoveReductions { history: false, log_sf: false, not_improving: false };
        assert_eq!(LateMoveReductions::BASELINE, off);
        assert_eq!(LateMoveReductions::BASELINE.with("lmr-history"), LateMoveReductions { history: true, ..off });
        assert_eq!(LateMoveReductions::BASELINE.with("lmr-log-sf"), LateMoveReductions { log_sf: true, ..off });
        assert_eq!(
            LateMoveReductions::BASELINE.with("improving-lmr"),
            LateMoveReductions { not_improving: true, ..off }
        );
        assert_eq!(LateMoveReductions::BASELINE.with("lmp"), LateMoveReductions::BASELINE);
    }

    #[test]
    fn tunables_follow_the_features() {
        let names = |feature: &str| -> Vec<&str> {
            LateMoveReductions::BASELINE.with(feature).tunables().iter().map(|tunable| tunable.name()).collect()
        };
        assert!(LateMoveReductions::BASELINE.tunables().is_empty());
        assert_eq!(names("lmr-log-sf"), ["LmrLogBase", "LmrLogDivisor"]);
        assert_eq!(names("improving-lmr"), ["LmrNotImprovingReduction"]);
        assert_eq!(names("lmr-history"), ["LmrHistoryDivisor", "LmrHistoryLateMove"]);
    }
}
