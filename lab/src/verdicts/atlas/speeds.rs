//! `lab atlas ... --speed`: each pair's speed instead of its games. Both
//! sides, built as the atlas builds them, run `prunelab bench` in
//! alternating rounds (`lab speed`'s runs), and the variant's nodes per
//! CPU second over its parent's, with its interval over rounds, is a line
//! of `speeds.jsonl` beside the atlas file, keyed by the two searches. The
//! clock estimate (`clock_estimate`) reads it.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, Result};
use games::results::timestamp;
use serde::{Deserialize, Serialize};

use super::entries::{self, PairSearches};
use crate::lab::Lab;
use crate::measure::ratio::RatioEstimate;
use crate::measure::speed::{self, SpeedArgs};
use crate::tools;

/// The speeds file, beside the atlas file.
pub const SPEEDS_FILE: &str = "speeds.jsonl";

/// Rounds of a pair's speed when `--speed-rounds` is not given.
pub const DEFAULT_ROUNDS: usize = 5;

/// The speeds file beside `atlas`.
pub fn beside(atlas: &Path) -> PathBuf {
    atlas.with_file_name(SPEEDS_FILE)
}

/// One pair's speed: the variant's nodes per CPU second over its
/// parent's, bench against bench.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpeedEntry {
    pub variant: String,
    pub parent: String,
    #[serde(flatten)]
    pub searches: PairSearches,
    pub rounds: usize,
    /// The geometric mean over rounds of the per-round ratio.
    pub ratio: f64,
    /// Its 95% Student-t interval over rounds.
    pub interval: Option<(f64, f64)>,
    pub commit: String,
    pub finished: String,
}

impl SpeedEntry {
    pub fn estimate(&self) -> RatioEstimate {
        RatioEstimate { ratio: self.ratio, interval: self.interval, positions: self.rounds }
    }
}

/// The speeds file's lines, in order; none when it does not exist.
pub fn read(path: &Path) -> Vec<SpeedEntry> {
    entries::read_lines(path)
}

/// The latest speed of `searches`.
pub fn find<'a>(lines: &'a [SpeedEntry], searches: &PairSearches) -> Option<&'a SpeedEntry> {
    lines.iter().rev().find(|line| &line.searches == searches)
}

/// Benches the pair (`binaries`: the parent's, then the variant's) for
/// `rounds` rounds in `folder` and appends its line to `file`.
pub fn measure(
    lab: &Lab,
    (variant, parent): (&str, &str),
    searches: PairSearches,
    binaries: [PathBuf; 2],
    rounds: usize,
    (folder, file): (&Path, &Path),
) -> Result<SpeedEntry> {
    let args = SpeedArgs {
        variants: vec![parent.to_string(), variant.to_string()],
        rounds,
        depth: None,
        build_profile: crate::engines::builder::build_profile(),
        resume: games::results::runs_of(folder, "speed").pop().map(|run| run.display().to_string()),
    };
    let run = speed::run_binaries(&lab.nested(folder), &args, &binaries)?;
    let records = speed::records_of(&run);
    let ratio = speed::cpu_nps_ratio(&records, 0, 1)
        .ok_or_else(|| anyhow!("{}: no round where both benches ran with a CPU time", run.display()))?;
    let entry = SpeedEntry {
        variant: variant.to_string(),
        parent: parent.to_string(),
        searches,
        rounds: ratio.positions,
        ratio: ratio.ratio,
        interval: ratio.interval,
        commit: tools::commit(&lab.root),
        finished: timestamp(),
    };
    entries::append(file, &entry)?;
    Ok(entry)
}
