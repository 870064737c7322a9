//! `lab atlas --node-odds VARIANT --nodes N`: what a doubling of nodes is
//! worth, in Elo, to one search at one budget: the variant at 2N nodes a
//! move against itself at N (`lab match --tc N=2N --tc-b N=N`). The clock
//! estimate (`clock_estimate`) turns a speed ratio into Elo with it. Each
//! finished match is a line of `node-odds.jsonl` beside the atlas file.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Result};
use games::matches::clock::TimeControl;
use games::matches::{self, MatchArgs, StopReason};
use games::results::timestamp;
use games::statistics::{Estimate, Pentanomial, Wdl};
use serde::{Deserialize, Serialize};

use super::entries;
use crate::engines::participant;
use crate::lab::Lab;
use crate::tools;

/// The node-odds file, beside the atlas file.
pub const NODE_ODDS_FILE: &str = "node-odds.jsonl";

/// The node-odds file beside `atlas`.
pub fn beside(atlas: &Path) -> PathBuf {
    atlas.with_file_name(NODE_ODDS_FILE)
}

/// One finished node-odds match: `variant` at `2 nodes` against itself at
/// `nodes`, from the doubled side's view, so its Elo is Elo per doubling.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeOddsEntry {
    pub variant: String,
    /// Every feature it compiles in, sorted, and its tunable values: the
    /// search measured.
    pub features: Vec<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub tunables: String,
    /// The budget doubled: N, against 2N.
    pub nodes: u64,
    pub book: String,
    pub seed: u64,
    pub hash_mb: u32,
    pub games: u64,
    pub wdl: Wdl,
    pub penta: Pentanomial,
    pub elo: Option<Estimate>,
    pub nelo: Option<Estimate>,
    pub failures: u64,
    pub commit: String,
    pub finished: String,
    pub wall_seconds: u64,
}

/// The node-odds lines of `path`, in order; none when it does not exist.
pub fn read(path: &Path) -> Vec<NodeOddsEntry> {
    entries::read_lines(path)
}

/// Elo per doubling of nodes at `nodes` a move: the latest line of
/// `variant` at that budget, else the latest of any search at it (a
/// doubling is worth much the same to searches this close).
pub fn per_doubling<'a>(lines: &'a [NodeOddsEntry], variant: &str, nodes: u64) -> Option<&'a NodeOddsEntry> {
    let at_budget = || lines.iter().rev().filter(|line| line.nodes == nodes && line.elo.is_some());
    at_budget().find(|line| line.variant == variant).or_else(|| at_budget().next())
}

/// Plays `variant` at 2N against itself at N (`games` games, in pairs) and
/// appends the line to `file`.
pub fn play(
    lab: &Lab,
    variant: &str,
    settings: &NodeOddsSettings,
    folder: &Path,
    file: &Path,
) -> Result<NodeOddsEntry> {
    let doubled = settings.nodes.checked_mul(2).filter(|_| settings.nodes > 0);
    let Some(doubled) = doubled else { bail!("--nodes {}: no budget to double", settings.nodes) };
    let mut args = MatchArgs::new(variant, variant);
    args.tc = TimeControl::Nodes(doubled);
    args.tc_b = Some(TimeControl::Nodes(settings.nodes));
    args.games = Some(settings.games);
    args.book = Some(settings.book.clone());
    args.seed = settings.seed;
    args.hash.mb = settings.hash_mb;
    args.concurrency = settings.concurrency;
    args.binaries = settings.binaries.clone();
    args.resume = games::results::runs_of(folder, "match").pop().map(Some);
    let binary = participant::engine_binary(lab, &args, variant)?;
    let commit = tools::commit(&lab.root);
    let started = Instant::now();
    let outcome = matches::run_match(&lab.nested(folder).session(), (variant, &binary), (variant, &binary), &args)?;
    let summary = outcome.summary;
    if !matches!(summary.stop, StopReason::Games) {
        bail!("the node-odds match in {} did not finish", outcome.run_dir.display());
    }
    let mut features: Vec<String> = lab.variant(variant)?.features.iter().map(ToString::to_string).collect();
    features.sort();
    let book_name = settings.book.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    let entry = NodeOddsEntry {
        variant: variant.to_string(),
        features,
        tunables: lab.variant(variant)?.tunables_variable(),
        nodes: settings.nodes,
        book: book_name,
        seed: settings.seed,
        hash_mb: settings.hash_mb,
        games: summary.games,
        wdl: summary.wdl,
        penta: summary.penta,
        elo: summary.elo,
        nelo: summary.nelo,
        failures: summary.engines.iter().map(|engine| engine.failures.total()).sum(),
        commit,
        finished: timestamp(),
        wall_seconds: started.elapsed().as_secs(),
    };
    entries::append(file, &entry)?;
    Ok(entry)
}

/// How `lab atlas --node-odds` plays.
pub struct NodeOddsSettings {
    pub nodes: u64,
    pub games: u64,
    pub book: PathBuf,
    pub seed: u64,
    pub hash_mb: u32,
    pub concurrency: usize,
    pub binaries: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(variant: &str, nodes: u64, elo: f64) -> NodeOddsEntry {
        NodeOddsEntry {
            variant: variant.into(),
            features: Vec::new(),
            tunables: String::new(),
            nodes,
            book: "b.epd".into(),
            seed: 1,
            hash_mb: 16,
            games: 100,
            wdl: Wdl::default(),
            penta: Pentanomial::default(),
            elo: Some(Estimate { value: elo, low: elo - 10.0, high: elo + 10.0 }),
            nelo: None,
            failures: 0,
            commit: "c".into(),
            finished: "t".into(),
            wall_seconds: 1,
        }
    }

    #[test]
    fn a_doubling_is_the_variants_own_at_the_budget_else_any_searchs_there() {
        let lines = [line("full", 10_000, 80.0), line("baseline", 10_000, 120.0), line("full", 20_000, 60.0)];
        assert_eq!(per_doubling(&lines, "full", 10_000).unwrap().elo.unwrap().value, 80.0);
        assert_eq!(per_doubling(&lines, "p003-3", 10_000).unwrap().elo.unwrap().value, 120.0);
        assert_eq!(per_doubling(&lines, "full", 20_000).unwrap().elo.unwrap().value, 60.0);
        assert!(per_doubling(&lines, "full", 5_000).is_none());
    }
}
