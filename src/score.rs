//! Scores: the search's bounds, mate scores and the draw, and how UCI
//! prints a score. The ground floor: it imports nothing of the engine, so
//! every module that only needs a score constant depends on this file, not
//! on the search.

/// The deepest ply a search reaches.
pub const MAX_PLY: usize = 128;
/// Beyond every score: the search's window starts at ±`INFINITY`.
pub const INFINITY: i32 = 32_000;
/// Mate at the root; mate in `n` plies is `MATE - n`.
pub const MATE: i32 = 31_000;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Marks a missing static eval (the side to move is in check).
pub const NO_EVAL: i32 = -INFINITY;
/// A drawn position's score.
pub const DRAW: i32 = 0;

/// `cp N` or `mate N` as UCI wants it.
pub fn uci_score(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}
