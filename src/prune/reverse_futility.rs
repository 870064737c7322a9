//! Reverse futility pruning, also called static null move pruning (Ethereal:
//! "beta pruning"): when the static eval is so far above beta that even a
//! depth-scaled margin cannot bring it down, the node fails high without a
//! search. It returns `static_eval − margin`.
//!
//! Phases, side by side:
//! - Baseline (the plans' starting point): non-PV, not in check,
//!   0 < depth ≤ 3, |beta| below the mate bound, and only when the side to
//!   move's material balance minus beta exceeds −200; margin 120 cp × depth.
//! - `nmp-margin-90` (plan 002, 1.1): margin 90 cp × depth.
//! - `rfp-depth-6` (1.2a): depth ≤ 6.
//! - `rfp-no-material-gate` (1.2b): no material-balance pre-check.
//! - `rfp-simple` (1.2c, Publius): evaluate directly, gated instead on the
//!   side to move having non-pawn material above a zugzwang threshold (more
//!   than one minor piece: 330 cp); implies 1.2a and 1.2b.
//! - 1.6: the per-ply margin is the tunable `NullMoveStaticMargin` (50-200).
//! - `rfp-progressive` (plan 003, 1.2): depth ≤ 8 with the plan's margin
//!   table 85, 170, 255, 320, 375, 420, 455, 480. The plan also states a
//!   formula, 255 + (d − 3)·42.5, which gives other numbers (e.g. 297 at
//!   depth 4, not 320); the table is what the plan measured, so it is used.

use cozy_chess::{Board, Piece};

use crate::eval::{material_balance, PIECE_VALUES};
use crate::search::{NodeType, Worker, MATE_BOUND};
use crate::techniques::{same, TechniqueSet, COMPILED};
use crate::tunables;

tunables! {
    /// Centipawns of margin per ply (plan 002, phase 1.6).
    NULL_MOVE_STATIC_MARGIN = "NullMoveStaticMargin": COMPILED.reverse_futility.depth_margin, 50, 200, 10;
    /// Material balance minus beta must exceed this (the baseline gate).
    RFP_MATERIAL_GATE = "RfpMaterialGate": -200, -600, 0, 25;
    /// `rfp-simple`: non-pawn material of the side to move must exceed this.
    RFP_ZUGZWANG_THRESHOLD = "RfpZugzwangThreshold": 330, 0, 1000, 25;
}

/// The plan 003 (1.2) margin table for depths 1-8.
pub const PROGRESSIVE_MARGINS: [i32; 8] = [85, 170, 255, 320, 375, 420, 455, 480];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReverseFutility {
    pub depth_margin: i32,
    pub max_depth: i32,
    pub material_gate: bool,
    pub zugzwang_gate: bool,
    pub progressive: bool,
}

impl ReverseFutility {
    pub const BASELINE: Self = ReverseFutility {
        depth_margin: 120,
        max_depth: 3,
        material_gate: true,
        zugzwang_gate: false,
        progressive: false,
    };

    pub const fn with(self, feature: &str) -> Self {
        let mut next = self;
        if same(feature, "nmp-margin-90") {
            next.depth_margin = 90;
        } else if same(feature, "rfp-depth-6") {
            next.max_depth = if next.max_depth > 6 { next.max_depth } else { 6 };
        } else if same(feature, "rfp-no-material-gate") {
            next.material_gate = false;
        } else if same(feature, "rfp-simple") {
            next.zugzwang_gate = true;
        } else if same(feature, "rfp-progressive") {
            next.progressive = true;
            next.max_depth = 8;
        }
        next
    }

    /// The margin at `depth`.
    pub fn margin(&self, depth: i32) -> i32 {
        if self.progressive {
            PROGRESSIVE_MARGINS[(depth.clamp(1, 8) - 1) as usize]
        } else {
            NULL_MOVE_STATIC_MARGIN.value_or(self.depth_margin) * depth
        }
    }

    /// Whether the node may try reverse futility at all (PV nodes and check
    /// are excluded by the caller).
    pub fn applies(&self, board: &Board, depth: i32, beta: i32) -> bool {
        let us = board.side_to_move();
        depth > 0
            && depth <= self.max_depth
            && beta.abs() < MATE_BOUND
            && (!self.material_gate || material_balance(board, us) - beta > RFP_MATERIAL_GATE.get())
            && (!self.zugzwang_gate || non_pawn_value(board) > RFP_ZUGZWANG_THRESHOLD.get())
    }
}

/// The side to move's knights, bishops, rooks and queens, in centipawns.
fn non_pawn_value(board: &Board) -> i32 {
    [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen]
        .iter()
        .map(|&piece| PIECE_VALUES[piece as usize] * board.colored_pieces(board.side_to_move(), piece).len() as i32)
        .sum()
}

impl<T: TechniqueSet> Worker<'_, T> {
    /// Step 8: returns the score to return when the node is pruned.
    pub(crate) fn reverse_futility<NT: NodeType>(&mut self, board: &Board, node: &crate::search::Node) -> Option<i32> {
        let rfp = T::TECHNIQUES.reverse_futility;
        if NT::PV || !rfp.applies(board, node.depth, node.beta) {
            return None;
        }
        self.stats.rfp_attempts += 1;
        let margined = node.static_eval - rfp.margin(node.depth);
        if margined < node.beta {
            return None;
        }
        self.stats.rfp_cutoffs += 1;
        Some(margined)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(features: &[&str]) -> ReverseFutility {
        crate::techniques::Techniques::from_features(features).unwrap().reverse_futility
    }

    #[test]
    fn margins_follow_each_phase() {
        assert_eq!([1, 2, 3].map(|d| set(&[]).margin(d)), [120, 240, 360]);
        assert_eq!([1, 2, 3].map(|d| set(&["nmp-margin-90"]).margin(d)), [90, 180, 270]);
        assert_eq!((1..=8).map(|d| set(&["rfp-progressive"]).margin(d)).collect::<Vec<_>>(), PROGRESSIVE_MARGINS);
    }

    #[test]
    fn depth_limits_follow_each_phase() {
        assert_eq!(set(&[]).max_depth, 3);
        assert_eq!(set(&["rfp-depth-6"]).max_depth, 6);
        assert_eq!(set(&["rfp-simple"]).max_depth, 6);
        assert_eq!(set(&["rfp-progressive", "rfp-depth-6"]).max_depth, 8);
    }

    #[test]
    fn material_gate_refuses_when_down_material() {
        // White is a rook down: balance −500, so beta must stay below −300.
        let board = Board::from_fen("r3k3/8/8/8/8/8/8/R3K2R w - - 0 1", false).unwrap();
        let down_a_rook = Board::from_fen("r3k3/8/8/8/8/8/8/4K3 w - - 0 1", false).unwrap();
        assert!(set(&[]).applies(&down_a_rook, 2, -301));
        assert!(!set(&[]).applies(&down_a_rook, 2, -300));
        assert!(set(&["rfp-no-material-gate"]).applies(&down_a_rook, 2, -300));
        assert!(!set(&[]).applies(&board, 4, 0));
        assert!(!set(&[]).applies(&board, 0, 0));
    }

    #[test]
    fn simple_gate_needs_more_than_a_minor_piece() {
        let rook = Board::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false).unwrap();
        let knight = Board::from_fen("4k3/8/8/8/8/8/8/N3K3 w - - 0 1", false).unwrap();
        assert!(set(&["rfp-simple"]).applies(&rook, 5, 0));
        assert!(!set(&["rfp-simple"]).applies(&knight, 5, -2000));
    }
}
