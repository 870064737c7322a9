//! Reverse futility pruning, also called static null move pruning (Ethereal:
//! "beta pruning"): when the static eval is so far above beta that even a
//! depth-scaled margin cannot bring it down, the node fails high without a
//! search.
//!
//! Baseline, exactly as the plans' starting point (plan 002, before phase
//! 1): non-PV, not in check, 0 < depth ≤ 3, |beta| below the mate bound, and
//! only when the side to move's material balance minus beta exceeds −200.
//! The margin is 120 cp per ply; the node returns `static_eval − margin`.

use cozy_chess::Board;

use crate::eval::material_balance;
use crate::search::MATE_BOUND;

pub const RFP_MAX_DEPTH: i32 = 3;
/// Centipawns of margin per ply of depth (the plans' `NullMoveStaticMargin`).
pub const RFP_DEPTH_MARGIN: i32 = 120;
/// The material pre-check: material balance − beta must exceed this.
pub const RFP_MATERIAL_GATE: i32 = -200;

pub fn rfp_margin(depth: i32) -> i32 {
    RFP_DEPTH_MARGIN * depth
}

/// Whether the node may try reverse futility at all (the caller has already
/// excluded PV nodes and check).
pub fn rfp_applies(board: &Board, depth: i32, beta: i32) -> bool {
    depth > 0
        && depth <= RFP_MAX_DEPTH
        && beta.abs() < MATE_BOUND
        && material_balance(board, board.side_to_move()) - beta > RFP_MATERIAL_GATE
}

/// The score to return when the node is pruned.
pub fn rfp_prune(static_eval: i32, depth: i32, beta: i32) -> Option<i32> {
    let margined = static_eval - rfp_margin(depth);
    (margined >= beta).then_some(margined)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margin_is_120_per_ply() {
        assert_eq!([1, 2, 3].map(rfp_margin), [120, 240, 360]);
    }

    #[test]
    fn prunes_only_when_the_margined_eval_reaches_beta() {
        assert_eq!(rfp_prune(500, 3, 140), Some(140));
        assert_eq!(rfp_prune(500, 3, 141), None);
    }

    #[test]
    fn material_gate_refuses_when_down_material() {
        // White is a rook down: balance −500, so beta must stay below −300.
        let board = Board::from_fen("r3k3/8/8/8/8/8/8/4K3 w - - 0 1", false).unwrap();
        assert!(rfp_applies(&board, 2, -301));
        assert!(!rfp_applies(&board, 2, -300));
        assert!(!rfp_applies(&board, 4, -400));
        assert!(!rfp_applies(&board, 0, -400));
    }
}
