//! The command line: every command, its options, and which room runs it.
//! A command's outcome is the exit status: a verdict's standing, 1 on an
//! error (docs/verdicts.md, "Exit status").

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use games::statistics::sprt::command as sprt;
use games::{interrupt, matches, pgn_clocks};

use crate::engines::builder;
use crate::explain::{blame, blunders, interactions};
use crate::lab::{GlobalArgs, Lab};
use crate::measure::{endgame_book, nodes, speed, tactics, ttd};
use crate::tune::spsa_input;
use crate::verdicts::verdict::Standing;
use crate::verdicts::{ab, atlas, chain, report};
use crate::{develop, list, openbench, play, snapdiff, tune};

/// `lab`'s command line.
#[derive(Parser)]
#[command(name = "lab", version, about = "prunelab's lab: build variants, count nodes, solve suites, play matches")]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// The main job: a variant against its parent (or B against A): nodes, time to depth, tactics, claims, a verdict (and with --sprt, a match).
    ///
    /// Exit status: 0 when no claim is ruled out (each holds, is undecided or was not measured) and no games are
    /// against the variant; 3 when a claim does not hold or the games say a loss or no gain; 1 on an error; 2 on
    /// a bad command line.
    Ab(ab::AbArgs),
    /// A plan's phases one after another, each against its parent, as the plans' phase table (and with --sprt, a match per phase).
    ///
    /// Exit status: 0 when no phase's claim is ruled out and no phase's SPRT accepted H0; 3 when one is; 1 on an
    /// error; 2 on a bad command line.
    Chain(chain::ChainArgs),
    /// The variants, with their features, parent, source and claimed effect.
    List,
    /// Build each variant's engine into target/lab/<variant>/prunelab.
    Build(builder::BuildArgs),
    /// Nodes, time, EBF, best move, score and telemetry per position, to a fixed depth.
    Nodes(nodes::NodesArgs),
    /// Solve counts on a test suite (bm/am), and the positions one variant solves and another does not.
    Tactics(tactics::TacticsArgs),
    /// Time to depth of B against A, interleaved, as a ratio with a 95% interval.
    Ttd(ttd::TtdArgs),
    /// Bench speed (nps) of B against A, the runs alternating, as a ratio with a 95% interval.
    Speed(speed::SpeedArgs),
    /// Play a match between two variants, with SPRT.
    Match(matches::MatchArgs),
    /// Each variant against its parent at fixed nodes a move, into the repository's atlas file; another engine's into its own, on a clock where it ignores `go nodes` (resumable; a result at the same settings is not played again).
    Atlas(atlas::AtlasArgs),
    /// Each engine's clock rebuilt from PGN move times: time losses, moves started below a threshold, lowest clocks.
    Clocks(pgn_clocks::ClocksArgs),
    /// Each engine's blunders, mistakes and inaccuracies per game in PGNs, judged by a referee engine; the blunders as an EPD suite.
    Blunders(blunders::BlundersArgs),
    /// Each variant against its parent as an OpenBench test (one commit; the UCI option Variant, or another engine's options); `status` reads their games back.
    Openbench(openbench::OpenbenchArgs),
    /// A fixed, seeded sample of an opening book's positions, small enough to version.
    SampleBook(matches::SampleBookArgs),
    /// A book of endgames: a book's openings played forward at fixed nodes to the plans' endgame.
    EndgameBook(endgame_book::EndgameBookArgs),
    /// A markdown report and an SVG chart of the latest results of every variant, under lab-results/.
    Report(report::ReportArgs),
    /// The working tree's snapshots against a git revision (default HEAD), as a markdown summary table.
    Snapdiff(snapdiff::SnapdiffArgs),
    /// OpenBench SPSA input for a variant's tunables.
    Spsa(spsa_input::SpsaArgs),
    /// OpenBench's SPSA run locally: a variant's tunables tuned by games of θ+c against θ−c, at fixed nodes or a time control.
    Tune(tune::TuneArgs),
    /// The SPRT and Elo functions of the match runner, on given results.
    Sprt(sprt::SprtArgs),
    /// For each position A solves and B does not, the first decision of B's search that cut A's line.
    Blame(blame::BlameArgs),
    /// Node change of each feature and each pair added to a variant, and how the pairs interact.
    Interactions(interactions::InteractionsArgs),
    /// The skeleton of a new technique: its file, registry lines, Cargo feature, variant and variants-table row.
    NewTechnique(develop::new_technique::NewTechniqueArgs),
    /// Each technique's measured worth (its ablation from `full` in the atlas) written into its file's header and at its step in src/search.rs.
    AtlasLines(develop::atlas_lines::AtlasLinesArgs),
}

/// Runs the command line: the command's outcome is the exit status.
pub fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit());
    interrupt::install(matches.subcommand_name().is_some_and(takes_resume));
    // A verdict's standing is its exit status (docs/verdicts.md, "Exit status").
    let mut standing = Standing::Stands;
    let outcome = match cli.command {
        Command::Sprt(args) => sprt::command(&args, cli.global.json),
        command => Lab::open(cli.global).and_then(|lab| match command {
            Command::Ab(args) => ab::command(&lab, &args).map(|verdict| standing = verdict),
            Command::Chain(args) => chain::command(&lab, &args).map(|verdict| standing = verdict),
            Command::List => list::command(&lab),
            Command::Report(args) => report::command(&lab, &args),
            Command::Snapdiff(args) => snapdiff::command(&lab, &args),
            Command::Spsa(args) => spsa_input::command(&lab, &args),
            Command::Tune(args) => tune::command(&lab, &args),
            Command::Tactics(args) => tactics::command(&lab, &args),
            Command::Build(args) => builder::command(&lab, &args),
            Command::Nodes(args) => nodes::command(&lab, &args),
            Command::Ttd(args) => ttd::command(&lab, &args),
            Command::Speed(args) => speed::command(&lab, &args),
            Command::Match(args) => play::command(&lab, &args).map(|verdict| standing = verdict),
            Command::Atlas(args) => atlas::command(&lab, &args),
            Command::Clocks(args) => pgn_clocks::command(&args),
            Command::Blunders(args) => blunders::command(&lab, &args),
            Command::Openbench(args) => openbench::command(&lab, &args),
            Command::SampleBook(args) => matches::sample_command(&lab.session(), &args),
            Command::EndgameBook(args) => endgame_book::command(&lab, &args),
            Command::Blame(args) => blame::command(&lab, &args),
            Command::Interactions(args) => interactions::command(&lab, &args),
            Command::NewTechnique(args) => develop::new_technique::command(&lab, &args),
            Command::AtlasLines(args) => develop::atlas_lines::command(&lab, &args),
            Command::Sprt(_) => unreachable!("handled above"),
        }),
    };
    match outcome {
        Ok(()) => standing.exit_code(),
        Err(error) => {
            eprintln!("lab: error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Whether the command `name` continues a run with `--resume`, which a
/// stopping signal's last words then name.
fn takes_resume(name: &str) -> bool {
    Cli::command()
        .find_subcommand(name)
        .is_some_and(|command| command.get_arguments().any(|arg| arg.get_id() == "resume"))
}

#[cfg(test)]
#[test]
fn the_command_line_definition_is_valid() {
    Cli::command().debug_assert();
}

#[cfg(test)]
#[test]
fn the_commands_that_resume_are_those_with_resume() {
    let resuming: Vec<String> = Cli::command()
        .get_subcommands()
        .map(|command| command.get_name().to_string())
        .filter(|name| takes_resume(name))
        .collect();
    assert_eq!(
        resuming,
        [
            "ab",
            "chain",
            "nodes",
            "tactics",
            "ttd",
            "speed",
            "match",
            "atlas",
            "blunders",
            "tune",
            "blame",
            "interactions"
        ]
    );
}

/// The options several commands share (`lab/options.rs`), as each command
/// takes them: tested here, where every command is known.
#[cfg(test)]
mod shared_options {
    use clap::{Args, Command, FromArgMatches};

    use crate::explain::blame::BlameArgs;
    use crate::explain::interactions::InteractionsArgs;
    use crate::lab::options::{HashOption, SearchOptions};
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
