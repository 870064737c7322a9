//! Which games a match still has to play, pair by pair.

use std::collections::HashSet;

use anyhow::Result;

use super::book::{Opening, OpeningSequence, SkippedLine};
use super::records::GameRecord;

/// Which games are left: pair `k` gets the `k`-th opening of the seeded
/// order, so a resumed run skips the games it has and keeps the openings.
pub struct Schedule {
    openings: OpeningSequence,
    next_pair: u64,
    pairs: u64,
    finished: HashSet<(u64, u8)>,
}

/// A pair's games still to play.
pub struct Job {
    pub pair: u64,
    pub opening: Opening,
    /// 0: engine A has White; 1: engine B has White.
    pub games: Vec<u8>,
}

impl Schedule {
    /// The first `pairs` pairs of `openings`, less the games in `done`.
    pub fn new(openings: OpeningSequence, pairs: u64, done: &[GameRecord]) -> Schedule {
        let finished = done.iter().map(|record| (record.pair, record.game)).collect();
        Schedule { openings, next_pair: 0, pairs, finished }
    }

    /// The next pair with a game to play, and the book lines found broken on
    /// the way to it; `None` when every pair is done.
    pub fn next_job(&mut self) -> Result<Option<(Job, Vec<SkippedLine>)>> {
        let mut skipped = Vec::new();
        while self.next_pair < self.pairs {
            let pair = self.next_pair;
            self.next_pair += 1;
            let (opening, broken) = self.openings.next_opening()?;
            skipped.extend(broken);
            let games: Vec<u8> = (0..2).filter(|game| !self.finished.contains(&(pair, *game))).collect();
            if !games.is_empty() {
                return Ok(Some((Job { pair, opening, games }, skipped)));
            }
        }
        Ok(None)
    }
}
