//! Null move pruning: give the opponent a free move; if a reduced search
//! still fails high, the node is very likely to fail high too.
//!
//! Baseline (the plans' starting point): non-PV nodes, not in check, not
//! straight after another null move, static eval ≥ beta, and the side to
//! move has a piece other than pawns and king (zugzwang is then rare).
//! Adaptive R: 3, plus a ply per four of depth, plus up to three more the
//! further the eval is above beta. No verification search in the baseline.

use cozy_chess::Board;

use crate::position::non_pawn_material;

pub const NULL_MOVE_MIN_DEPTH: i32 = 3;
pub const NULL_MOVE_BASE_REDUCTION: i32 = 3;
/// Plies of depth per extra ply of reduction.
pub const NULL_MOVE_DEPTH_DIVISOR: i32 = 4;
/// Centipawns of eval above beta per extra ply of reduction.
pub const NULL_MOVE_EVAL_DIVISOR: i32 = 200;
pub const NULL_MOVE_MAX_EVAL_REDUCTION: i32 = 3;

/// Whether the node may try a null move (PV nodes, check and a preceding
/// null move are excluded by the caller).
pub fn null_move_applies(board: &Board, depth: i32, static_eval: i32, beta: i32) -> bool {
    depth >= NULL_MOVE_MIN_DEPTH
        && static_eval >= beta
        && non_pawn_material(board, board.side_to_move())
}

/// The depth reduction R; the null move is searched at `depth − R − 1`.
pub fn null_move_reduction(depth: i32, static_eval: i32, beta: i32) -> i32 {
    NULL_MOVE_BASE_REDUCTION
        + depth / NULL_MOVE_DEPTH_DIVISOR
        + ((static_eval - beta) / NULL_MOVE_EVAL_DIVISOR).min(NULL_MOVE_MAX_EVAL_REDUCTION)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduction_grows_with_depth_and_eval_margin() {
        assert_eq!(null_move_reduction(3, 0, 0), 3);
        assert_eq!(null_move_reduction(8, 0, 0), 5);
        assert_eq!(null_move_reduction(8, 450, 0), 7);
        assert_eq!(null_move_reduction(8, 5000, 0), 8);
    }

    #[test]
    fn pawn_endings_never_try_a_null_move() {
        let pawns_only = Board::from_fen("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1", false).unwrap();
        assert!(!null_move_applies(&pawns_only, 6, 100, 0));
        let with_knight = Board::from_fen("4k3/4p3/8/8/8/8/4P3/4KN2 w - - 0 1", false).unwrap();
        assert!(null_move_applies(&with_knight, 6, 100, 0));
        assert!(!null_move_applies(&with_knight, 2, 100, 0));
        assert!(!null_move_applies(&with_knight, 6, -1, 0));
    }
}
