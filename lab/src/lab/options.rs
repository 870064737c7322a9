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

#[cfg(test)]
mod tests {
    use clap::{Args, Command, FromArgMatches};

    use super::*;
    use crate::explain::blame::BlameArgs;
    use crate::explain::interactions::InteractionsArgs;
    use crate::measure::nodes::NodesArgs;
    use crate::measure::tactics::TacticsArgs;
    use crate::measure::ttd::TtdArgs;
    use crate::verdicts::ab::AbArgs;
    use crate::verdicts::chain::{ChainArgs, DEFAULT_TACTICS_NODES};

    fn command<T: Args>(name: &'static str) -> Command {
        T::augment_args(Command::new(name))
    }

    fn parse<T: Args + FromArgMatches>(line: &[&'static str]) -> Result<T, clap::Error> {
        T::from_arg_matches(&command::<T>(line[0]).try_get_matches_from(line)?)
    }

    /// The help line of `flag` in `command`'s help, its runs of spaces one.
    fn help_line(mut command: Command, flag: &str) -> String {
        let help = command.render_help().to_string();
        let line = help.lines().find(|line| line.trim_start().starts_with(flag)).unwrap_or_else(|| panic!("{help}"));
        line.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn each_shared_option_has_one_default_unless_its_command_says_otherwise() {
        let ab: AbArgs = parse(&["ab", "razor-r1"]).unwrap();
        assert_eq!(
            (ab.search.suite.as_str(), ab.search.depth, ab.search.hash.mb, ab.tactics.suite.as_str(), ab.tactics.nodes),
            ("verdict", 10, 16, "wac", 50_000)
        );
        assert_eq!((ab.tactics.first, ab.games.limit), (None, 20_000));
        let ttd: TtdArgs = parse(&["ttd", "a", "b"]).unwrap();
        assert_eq!((ttd.search.suite.as_str(), ttd.search.depth, ttd.search.hash.mb), ("verdict", 10, 16));
        // The chain: half ab's tactics nodes, and --games only with --sprt.
        let chain: ChainArgs = parse(&["chain", "razor"]).unwrap();
        assert_eq!((chain.tactics.nodes, chain.games.limit), (DEFAULT_TACTICS_NODES, 20_000));
        assert!(parse::<ChainArgs>(&["chain", "razor", "--games", "10"]).is_err());
        let chain: ChainArgs = parse(&["chain", "razor", "--sprt", "--games", "10"]).unwrap();
        assert_eq!(chain.games.limit, 10);
        // Counts without a suite named search the seeds.
        let nodes: NodesArgs = parse(&["nodes", "a"]).unwrap();
        assert_eq!((nodes.search.suite.as_str(), nodes.search.depth, nodes.search.hash.mb), ("seeds", 10, 16));
        let interactions: InteractionsArgs = parse(&["interactions", "f", "g"]).unwrap();
        assert_eq!(interactions.search.suite, "seeds");
        let given: NodesArgs = parse(&["nodes", "a", "--suite", "wac", "--depth", "7", "--hash", "64"]).unwrap();
        assert_eq!((given.search.suite.as_str(), given.search.depth, given.search.hash.mb), ("wac", 7, 64));
        // The defaults the code takes where no command line gives one.
        assert_eq!(
            (SearchOptions::default().suite.as_str(), SearchOptions::default().depth, HashOption::default().mb),
            ("verdict", 10, 16)
        );
    }

    #[test]
    fn each_shared_option_has_one_help_text() {
        let hash_help = help_line(command::<AbArgs>("ab"), "--hash");
        assert_eq!(hash_help, "--hash <MB> Each engine's hash table size in MB [default: 16]");
        for command in [
            command::<ChainArgs>("chain"),
            command::<NodesArgs>("nodes"),
            command::<TtdArgs>("ttd"),
            command::<TacticsArgs>("tactics"),
            command::<BlameArgs>("blame"),
            command::<InteractionsArgs>("interactions"),
            command::<games::matches::MatchArgs>("match"),
        ] {
            assert_eq!(help_line(command, "--hash"), hash_help);
        }
        let depth_help = help_line(command::<AbArgs>("ab"), "--depth");
        for command in [command::<ChainArgs>("chain"), command::<NodesArgs>("nodes"), command::<TtdArgs>("ttd")] {
            assert_eq!(help_line(command, "--depth"), depth_help);
        }
        let suite_help = help_line(command::<AbArgs>("ab"), "--suite");
        assert_eq!(help_line(command::<TtdArgs>("ttd"), "--suite"), suite_help);
        let seeds_help = suite_help.replace("[default: verdict]", "[default: seeds]");
        assert_eq!(help_line(command::<NodesArgs>("nodes"), "--suite"), seeds_help);
        let tactics_help = help_line(command::<AbArgs>("ab"), "--tactics ");
        assert_eq!(help_line(command::<ChainArgs>("chain"), "--tactics "), tactics_help);
    }
}
