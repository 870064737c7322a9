//! The options several commands take, each in one struct with one name,
//! one default and one help text, flattened into each command that takes
//! it (`#[command(flatten)]`). `--suite` and `--depth` never come without
//! `--hash`, so the three are one struct, `SearchOptions`, which a command
//! hands on whole to the counts and timings it runs. A command whose
//! default differs says so where it flattens the option (`mut_arg`), and
//! its page says why.
//!
//! Each is written into a run's `run.json` as the one field it was before
//! (`"suite": "verdict"`, `"tactics_nodes": 50000`), so runs read back alike.
//! `--hash` is the games crate's (`lab match` takes it too).

use clap::Args;
use games::options::clap_default;
pub use games::options::HashOption;
use serde::Serialize;

use crate::variants::grammar::{self, CLAIM_TACTICS_NODES};

/// `--suite`, `--depth`, `--hash`: what a count or a timing searches,
/// to what depth, with what hash.
#[derive(Args, Clone, Debug, Serialize)]
pub struct SearchOptions {
    /// The positions: `verdict` (54 positions), `seeds`, `bench`, `node-suite`, `startpos`, `wac`, `arasan`, `zugzwang` or an EPD file.
    #[arg(long, value_name = "SUITE", default_value = grammar::VERDICT_SUITE)]
    pub suite: String,
    /// Search each position to this depth (the plans' claims are at depth 10).
    #[arg(long, value_name = "DEPTH", default_value_t = 10)]
    pub depth: u32,
    #[command(flatten)]
    pub hash: HashOption,
}

/// `--tactics`, `--tactics-nodes`, `--tactics-first`: the tactical suite a
/// verdict solves beside its counts.
#[derive(Args, Clone, Debug, Serialize)]
pub struct TacticsOptions {
    /// Tactics suite, or `none` to skip it; the suites the claims name are run besides.
    #[arg(id = "tactics", long = "tactics", value_name = "TACTICS", default_value = "wac")]
    #[serde(rename = "tactics")]
    pub suite: String,
    /// Nodes per tactics position.
    #[arg(id = "tactics_nodes", long = "tactics-nodes", value_name = "TACTICS_NODES", default_value_t = CLAIM_TACTICS_NODES)]
    #[serde(rename = "tactics_nodes")]
    pub nodes: u64,
    /// Only each tactics suite's first N positions.
    #[arg(id = "tactics_first", long = "tactics-first", value_name = "N")]
    #[serde(rename = "tactics_first")]
    pub first: Option<usize>,
}

/// `--games`: the game limit of a verdict's match (with `--sprt`).
#[derive(Args, Clone, Copy, Debug, Serialize)]
#[serde(transparent)]
pub struct GamesOption {
    /// The match's game limit (with --sprt).
    #[arg(id = "games", long = "games", value_name = "GAMES", default_value_t = 20_000)]
    pub limit: u64,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        clap_default()
    }
}
