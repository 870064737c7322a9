//! Where finished games go, the moment they arrive.

use std::fs::File;
use std::io::Write;

use anyhow::Result;

use super::records::{GameRecord, Tally};
use super::summary::{summary_markdown, MatchSummary};
use crate::results::RunDir;
use crate::statistics::{self, SprtState, SprtStatus};

/// The main thread's side of a match: saves each finished game at once,
/// keeps the totals and the summary files, and says when the SPRT is done.
pub struct Recorder {
    pub run: RunDir,
    pgn: File,
    pub tally: Tally,
    pub summary: MatchSummary,
    /// The SPRT's state when it first reached a verdict: a game that ends in
    /// the moment the others are abandoned is kept, but does not reopen the test.
    verdict: Option<SprtStatus>,
}

impl Recorder {
    /// The recorder of a run whose finished games `tally` counts; a resumed
    /// run may already have its verdict.
    pub fn new(run: RunDir, pgn: File, tally: Tally, summary: MatchSummary) -> Recorder {
        let mut recorder = Recorder { run, pgn, tally, summary, verdict: None };
        recorder.check_verdict();
        recorder
    }

    fn sprt_status(&self) -> Option<SprtStatus> {
        let penta = &self.tally.penta;
        let current = self.summary.sprt.map(|settings| settings.on_pairs(penta));
        self.verdict.or(current)
    }

    /// Whether the SPRT has a verdict.
    pub fn concluded(&self) -> bool {
        self.verdict.is_some()
    }

    fn check_verdict(&mut self) {
        if let Some(status) = self.sprt_status().filter(|status| status.verdict != SprtState::Continue) {
            self.verdict.get_or_insert(status);
        }
    }

    /// Saves a finished game (record, PGN, summary); returns the running line
    /// when the game completes its pair.
    pub fn save(&mut self, record: &GameRecord, pgn: &str) -> Result<Option<String>> {
        // The record and its PGN are kept together, or neither, on a signal.
        let _writing = crate::interrupt::writing();
        self.run.append(record)?;
        self.pgn.write_all(pgn.as_bytes())?;
        let completes_pair = self.tally.add(record);
        if completes_pair {
            self.check_verdict();
        }
        let line = completes_pair
            .then(|| statistics::running_line(&self.tally.wdl, &self.tally.penta, self.summary.sprt.as_ref()));
        self.write_summary()?;
        Ok(line)
    }

    /// Copies the totals into the summary and writes it.
    pub fn write_summary(&mut self) -> Result<()> {
        self.summary.take_totals(&self.tally);
        self.summary.sprt_status = self.sprt_status();
        self.run.write_summary(&summary_markdown(&self.summary), &self.summary)
    }
}
