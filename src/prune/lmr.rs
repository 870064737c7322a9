//! Late move reductions: quiet moves late in a well-ordered list rarely
//! matter, so they are searched shallower first and re-searched at full
//! depth only when they beat alpha.
//!
//! Phases, side by side:
//! - Baseline: quiet moves from the fourth legal move on, at depth ≥ 3, not
//!   in check, not killers, not giving check. The reduction is
//!   `0.75 + ln(depth)·ln(move number) / 2.25`, one ply less at PV nodes.
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

use crate::movepick::MoveKind;
use crate::search::{Candidate, Node, NodeType, Worker};
use crate::techniques::{Hooks, Technique, TechniqueSet};
use crate::tune::Tunable;
use crate::{counters, technique, tunables};

technique! {
    /// Which late move reduction features are on (LMR itself is always on:
    /// it is part of the baseline).
    pub struct LateMoveReductions {
        history: "lmr-history" [] "plan 003, priority 3" => "LMR adjusted by history, more for late quiets with bad history";
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
    /// `lmr-history`: a ply less reduction per this much history.
    LMR_HISTORY_DIVISOR: 8192, 2048, 16384, 512;
    /// `lmr-history`: quiet moves after this many get a ply more with bad history.
    LMR_HISTORY_LATE_MOVE: 15, 4, 40, 1;
}

/// The search asks for each move's reduction by name (Step 11, before the
/// move-level hooks, which may judge a move at its reduced depth).
impl Hooks for LateMoveReductions {}

impl Technique for LateMoveReductions {
    type Counters = LmrCounters;

    /// `lmr: reduced=X re=Y`, always (a baseline technique).
    fn report(&self, counters: &LmrCounters) -> Vec<String> {
        vec![format!("lmr: reduced={} re={}", counters.reductions, counters.researches)]
    }

    fn tunables(&self) -> Vec<&'static Tunable> {
        if self.history {
            TUNABLES.to_vec()
        } else {
            Vec::new()
        }
    }
}

impl<T: TechniqueSet> Worker<'_, T> {
    /// The reduction the move would get (0 for moves that are not reduced).
    pub(crate) fn late_move_reduction<NT: NodeType>(&self, node: &Node, candidate: &Candidate) -> i32 {
        let reducible = node.depth >= LMR_MIN_DEPTH
            && candidate.move_number > LMR_MIN_MOVES
            && !node.in_check
            && !candidate.gives_check
            && matches!(candidate.kind, MoveKind::Quiet | MoveKind::CounterMove);
        if !reducible {
            return 0;
        }
        let reduction = lmr_reduction(node.depth, candidate.move_number, NT::PV);
        if T::TECHNIQUES.lmr.history {
            history_adjusted_reduction(reduction, candidate.move_number, candidate.history)
        } else {
            reduction
        }
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

const REDUCTIONS: [[i32; TABLE_SIZE]; TABLE_SIZE] = build_reductions();

const fn build_reductions() -> [[i32; TABLE_SIZE]; TABLE_SIZE] {
    let mut table = [[0; TABLE_SIZE]; TABLE_SIZE];
    let mut depth = 1;
    while depth < TABLE_SIZE {
        let mut moves = 1;
        while moves < TABLE_SIZE {
            table[depth][moves] = (0.75 + ln(depth as f64) * ln(moves as f64) / 2.25) as i32;
            moves += 1;
        }
        depth += 1;
    }
    table
}

/// The reduction for the `move_number`-th legal move (1-based) at `depth`.
pub fn lmr_reduction(depth: i32, move_number: usize, is_pv: bool) -> i32 {
    let depth = (depth.max(0) as usize).min(TABLE_SIZE - 1);
    let moves = move_number.min(TABLE_SIZE - 1);
    (REDUCTIONS[depth][moves] - is_pv as i32).max(0)
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
    fn feature_switches_history_on() {
        assert_eq!(LateMoveReductions::BASELINE, LateMoveReductions { history: false });
        assert_eq!(LateMoveReductions::BASELINE.with("lmr-history"), LateMoveReductions { history: true });
        assert_eq!(LateMoveReductions::BASELINE.with("lmp"), LateMoveReductions::BASELINE);
    }
}
