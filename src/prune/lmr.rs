//! Late move reductions: quiet moves late in a well-ordered list rarely
//! matter, so they are searched shallower first and re-searched at full
//! depth only when they beat alpha.
//!
//! Phases, side by side:
//! - Baseline: quiet moves from the fourth legal move on, at depth ≥ 3, not
//!   in check, not killers, not giving check. The reduction is
//!   `0.75 + ln(depth)·ln(move number) / 2.25`, one ply less at PV nodes.
//! - `lmr-history` (plan 003): the reduction adjusted by the move's history,
//!   with an extra ply for quiet moves after the 15th with bad history.

use crate::movepick::MoveKind;
use crate::search::{Candidate, Node, NodeType, Worker};
use crate::techniques::{same, TechniqueSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LateMoveReductions {
    pub history: bool,
}

impl LateMoveReductions {
    pub const BASELINE: Self = LateMoveReductions { history: false };

    pub const fn with(self, feature: &str) -> Self {
        if same(feature, "lmr-history") {
            LateMoveReductions { history: true }
        } else {
            self
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
        lmr_reduction(node.depth, candidate.move_number, NT::PV)
    }
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
}
