//! The baseline search (placeholder API while the core is being written).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use cozy_chess::{Board, Move};

use crate::position::Position;
use crate::stats::SearchStats;

pub const MAX_PLY: usize = 128;
pub const INFINITY: i32 = 32_000;
pub const MATE: i32 = 31_000;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// What bounds a search. `None` everywhere means: search until stopped.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// Do not start a new iteration after this much time.
    pub soft_time: Option<Duration>,
    /// Abort the search once this much time has passed.
    pub hard_time: Option<Duration>,
}

/// One completed iteration, for `info` lines.
pub struct IterationReport<'a> {
    pub depth: i32,
    pub seldepth: i32,
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Transposition table fill in permille.
    pub hashfull: u32,
    /// The root board, to print the PV in UCI notation.
    pub root: &'a Board,
    pub pv: &'a [Move],
}

#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` only when the root has no legal move.
    pub best_move: Option<Move>,
    pub ponder_move: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
    pub stats: SearchStats,
}

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

pub struct Searcher {
    hash_mb: usize,
}

impl Searcher {
    pub fn new(hash_mb: usize) -> Self {
        Searcher { hash_mb }
    }
    pub fn set_hash(&mut self, mb: usize) {
        self.hash_mb = mb;
    }
    /// `ucinewgame`: clears the transposition table and every history.
    pub fn new_game(&mut self) {}

    pub fn search(
        &mut self,
        pos: &Position,
        _limits: &SearchLimits,
        _stop: &AtomicBool,
        _on_iteration: &mut dyn FnMut(&IterationReport),
    ) -> SearchResult {
        let _ = self.hash_mb;
        let mut best = None;
        pos.board().generate_moves(|mvs| {
            best = mvs.into_iter().next();
            best.is_some()
        });
        SearchResult { best_move: best, ponder_move: None, score: 0, depth: 0, nodes: 0, stats: SearchStats::default() }
    }
}
