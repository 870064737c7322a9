//! Perft: counts the leaf nodes of the legal move tree to a fixed depth, the
//! standard correctness check (and speed measure) for move generation.
//!
//! The last ply is bulk-counted: cozy-chess generates moves grouped by piece,
//! and `PieceMoves::len` counts a group (promotions four-fold) without playing
//! or even enumerating its moves.

use cozy_chess::{Board, Move};

/// Number of leaf nodes `depth` plies below `board`.
pub fn perft(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal_moves(board),
        _ => {
            let mut nodes = 0;
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += perft(&child, depth - 1);
                }
                false
            });
            nodes
        }
    }
}

/// Perft split by root move, ordered by from square, to square, then promotion
/// piece, so two runs (or two engines' outputs sorted the same way) line up.
/// Empty when `depth` is 0 or the side to move has no legal move.
pub fn divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut root_moves = Vec::new();
    board.generate_moves(|moves| {
        root_moves.extend(moves);
        false
    });
    root_moves.sort_by_key(|mv| (mv.from as usize, mv.to as usize, mv.promotion.map(|piece| piece as usize)));
    root_moves
        .into_iter()
        .map(|mv| {
            let mut child = board.clone();
            child.play_unchecked(mv);
            (mv, perft(&child, depth - 1))
        })
        .collect()
}

/// Legal moves of `board`, counted without enumerating them.
fn count_legal_moves(board: &Board) -> u64 {
    let mut count = 0;
    board.generate_moves(|moves| {
        count += moves.len() as u64;
        false
    });
    count
}
