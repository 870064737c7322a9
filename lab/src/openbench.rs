//! `lab openbench VARIANT... --server URL [--dry-run]`: each variant
//! against its parent as an OpenBench test, created through OpenBench's own
//! script endpoint; `lab openbench status` reads the tests' games back into
//! `lab-results/`, where `lab ab` and `lab report` find them.
//!
//! A test names its engines by one commit and the UCI option `Variant`:
//! `make` builds every variant's search into one binary, so the dev side is
//! `Threads=1 Hash=8 Variant=razor-r1` and the base side `Threads=1 Hash=8
//! Variant=p003-3`, both at the same commit, and no branch is made. From
//! the variant file's `[sprt]` come the bounds (normalized Elo, as
//! OpenBench's pentanomial SPRT reads them), the time control and the hash;
//! `--games N` makes a test of N games without an SPRT instead, and
//! `--chain NAME` tests every phase of a chain against its parent.
//!
//! The bench and nps a test carries are measured on the build a worker
//! makes: the commit is exported with `git archive` (what a worker
//! downloads) and built with `make`, its `bench` run. A worker checks each
//! side's bench against the test's and scales the time control by its own
//! bench nps against the test's `scale_nps`; both sides of a `Variant` test
//! are the same binary, whose `bench` searches as the build's default
//! variant, so one bench and one nps serve every test of that commit.
//!
//! A variant of another engine (`lab/other-engines/<folder>/`) is tested
//! the same way, where that engine builds on OpenBench: one engine at one
//! commit, the variant's UCI options on the dev side and its parent's on
//! the base side. The repository and commit come from its variant files
//! (`repository`, `commit`) or `--repo` and `--commit`, the engine's name
//! in the server's configuration from its files' `engine` or `--engine`, and the
//! bench and nps from its binary's `bench` (`--engine-path`), else
//! `--bench` and `--nps`.

mod build;
mod create;
mod server;
mod spsa;
#[cfg(test)]
use test_support::stand_in;
mod status;
#[cfg(test)]
mod tests;

use anyhow::{anyhow, bail, Context, Result};
use clap::{ArgGroup, Args, Subcommand};
use games::results::timestamp;
use games::uci_options::Setting;
use serde::{Deserialize, Serialize};

use self::build::{build, other_engine_build, other_engine_source};
use self::create::{commit, create_tests, other_engine, plan_markdown, refuse_duplicates, test_plans};
use self::server::Server;
use self::status::status;
use crate::lab::Lab;
use crate::variants::grammar::Planned;

/// The run folders of created tests.
const TESTS_COMMAND: &str = "openbench-tests";
/// The hash of a variant whose `[sprt]` sets none: the lab's.
const DEFAULT_HASH_MB: u32 = 16;
/// The SPRT's error rates, as the lab's matches use them.
const CONFIDENCE: &str = "[0.05, 0.05]";
/// OpenBench's own workload size (`Scripts/create_test.py`), which an SPRT keeps.
const SPRT_WORKLOAD_SIZE: u64 = 32;
/// A test of fixed games is cut into at least this many workloads.
const GAMES_WORKLOADS: u64 = 16;
/// Adjudication: the presets of `ci/openbench/prunelab.json`.
const WIN_ADJUDICATION: &str = "movecount=3 score=400";
const DRAW_ADJUDICATION: &str = "movenumber=40 movecount=8 score=10";

/// The fields every OpenBench form ends with, a test's and a tune's alike:
/// no tablebases (the engine reads none), the lab's adjudication, time
/// scaled by the bench's nps, and the `info` line the test is found again by.
fn closing_fields(nps: u64, info: &str) -> [(&'static str, String); 7] {
    [
        ("syzygy_wdl", "DISABLED".to_string()),
        ("syzygy_adj", "OPTIONAL".to_string()),
        ("win_adj", WIN_ADJUDICATION.to_string()),
        ("draw_adj", DRAW_ADJUDICATION.to_string()),
        ("scale_method", "BASE".to_string()),
        ("scale_nps", nps.to_string()),
        ("info", info.to_string()),
    ]
}

#[derive(Args, Clone, Debug, Serialize)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
#[command(group(ArgGroup::new("tests").required(true).multiple(true).args(["variants", "chains", "variant"])))]
pub struct OpenbenchArgs {
    #[command(subcommand)]
    #[serde(skip)]
    pub command: Option<OpenbenchCommand>,
    /// The variants, each tested against its parent (its file's `extends`).
    #[arg(value_name = "VARIANT")]
    pub variants: Vec<String>,
    /// Every phase of a chain against its parent (p002, p003, razor,
    /// seajay-p002; repeatable), as `lab chain` and `lab atlas` name chains.
    #[arg(long = "chain", value_name = "NAME")]
    pub chains: Vec<String>,
    #[command(flatten)]
    pub server: ServerArgs,
    #[command(flatten)]
    pub spsa: spsa::SpsaTestArgs,
    /// Print the tests (engines, options, bounds, time control, hash, nps,
    /// every field sent) and create none.
    #[arg(long)]
    pub dry_run: bool,
    /// The repository workers download, `https://github.com/OWNER/REPO`;
    /// default: the `origin` remote (another engine's: its variant files'
    /// `repository`).
    #[arg(long)]
    pub repo: Option<String>,
    /// The commit to test, pushed to --repo; default: HEAD (another
    /// engine's: its variant files' `commit`).
    #[arg(long)]
    pub commit: Option<String>,
    /// The time control of every test instead of the variant files' `[sprt]`
    /// tc: `10+0.1` (seconds plus increment), or `N=25000` (fixed nodes a
    /// move, as OpenBench writes it).
    #[arg(long)]
    pub tc: Option<String>,
    /// Every test plays N games (OpenBench's GAMES mode, no SPRT), as `lab
    /// atlas` plays a phase without an SPRT; a variant without `[sprt]` needs
    /// it (and --tc).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub games: Option<u64>,
    /// Create a test even if `lab-results/` records one with the same
    /// commit, variant, parent, bounds or games and time control on this server.
    #[arg(long)]
    pub again: bool,
    /// The engine's name in the server's configuration (`Engines/<name>.json`);
    /// default: prunelab, or another engine's `engine` in its variant files.
    #[arg(long)]
    pub engine: Option<String>,
    /// The opening book, one of the server's.
    #[arg(long, default_value = "UHO_4060_v2.epd")]
    pub book: String,
    /// The expected nps (OpenBench's scale_nps) instead of measuring it.
    #[arg(long)]
    pub nps: Option<u64>,
    /// Another engine's bench node count instead of running its binary's
    /// `bench` (with --nps, when no --engine-path gives the binary).
    #[arg(long)]
    pub bench: Option<u64>,
    /// `bench` runs whose median nps is sent.
    #[arg(long, default_value_t = 5)]
    pub bench_runs: usize,
    #[arg(long, default_value_t = 0)]
    pub priority: i64,
    #[arg(long, default_value_t = 1000)]
    pub throughput: u64,
    /// OpenBench's workload size W: a worker of concurrency C plays up to
    /// 4·W·C games a workload before it reports; default: 32 for an SPRT,
    /// ⌈N/64⌉ (at most 32) for a test of --games N.
    #[arg(long, value_name = "W", value_parser = clap::value_parser!(u64).range(1..))]
    pub workload_size: Option<u64>,
}

#[derive(Subcommand, Clone, Debug)]
pub enum OpenbenchCommand {
    /// Read the tests `lab openbench` created (W/L/D, pentanomial, LLR) and its tunes' values into lab-results/.
    Status(StatusArgs),
}

#[derive(Args, Clone, Debug, Serialize)]
pub struct StatusArgs {
    /// Only these test or tune numbers (default: every test and tune `lab
    /// openbench` created).
    #[arg(value_name = "TEST")]
    pub tests: Vec<u64>,
    #[command(flatten)]
    pub server: ServerArgs,
}

#[derive(Args, Clone, Debug, Serialize)]
pub struct ServerArgs {
    /// The OpenBench server, e.g. `https://chess.grantnet.us` (http:// only
    /// to this machine); the user's credentials go to it and nowhere else.
    #[arg(long, env = "OPENBENCH_SERVER")]
    pub server: Option<String>,
    #[arg(long, env = "OPENBENCH_USERNAME")]
    pub username: Option<String>,
    /// Never written to lab-results/.
    #[arg(long, env = "OPENBENCH_PASSWORD", hide_env_values = true)]
    #[serde(skip)]
    pub password: Option<String>,
}

/// One test: a variant against its parent, as its file's `[sprt]` says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TestPlan {
    pub variant: String,
    pub parent: String,
    /// The SPRT's bounds, normalized Elo; `None` for a test of fixed games.
    pub bounds: Option<(f64, f64)>,
    /// The games of a test without an SPRT (`--games`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games: Option<u64>,
    pub tc: String,
    pub hash_mb: u32,
    /// The variant's file, from the repository root.
    #[serde(default)]
    pub file: String,
    /// For a variant of another engine: that engine, and each side's options.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_engine: Option<OtherEngine>,
}

/// Another engine's side of a test: one engine, two option sets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OtherEngine {
    /// The engine's name in the variant files.
    pub engine: String,
    /// Its variant files' folder under `lab/other-engines/`.
    pub folder: String,
    pub dev: Vec<Setting>,
    pub base: Vec<Setting>,
    /// From the variant files, if they say: the dev side's commit, and the
    /// base side's where its own file or a parent's names another (a commit
    /// variant: the two sides are two builds).
    pub repository: Option<String>,
    pub commit: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_commit: Option<String>,
}

/// An option as OpenBench's options field takes it: `Name=value` words
/// split at spaces, so a name or a value with a space cannot be sent.
fn openbench_option(variant: &str, setting: &Setting) -> Result<String> {
    if setting.name.contains(char::is_whitespace) || setting.value.contains(char::is_whitespace) {
        bail!(
            "`{variant}`: option `{}` = `{}` cannot be sent to OpenBench, whose options are Name=value words split \
             at spaces",
            setting.name,
            setting.value
        );
    }
    Ok(format!("{}={}", setting.name, setting.value))
}

impl TestPlan {
    /// The SPRT of `name` against its parent, as its file's `[sprt]` says.
    pub fn of(lab: &Lab, name: &str) -> Result<TestPlan> {
        let plan = TestPlan::sides(lab, name)?;
        let Some(sprt) = lab.variant(name)?.plan().sprt.clone() else {
            bail!(
                "{} has no [sprt]: add its bounds, tc and hash to test it on OpenBench, or give --games N and --tc",
                plan.file
            );
        };
        Ok(TestPlan {
            bounds: Some(sprt.bounds),
            tc: sprt.tc,
            hash_mb: sprt.hash_mb.unwrap_or(DEFAULT_HASH_MB),
            ..plan
        })
    }

    /// `games` games of `name` against its parent, at `tc`, else its
    /// `[sprt]`'s time control, with its `[sprt]`'s hash if it has one.
    pub fn of_games(lab: &Lab, name: &str, games: u64, tc: &Option<String>) -> Result<TestPlan> {
        let plan = TestPlan::sides(lab, name)?;
        let sprt = lab.variant(name)?.plan().sprt.clone();
        let hash_mb = sprt.as_ref().and_then(|sprt| sprt.hash_mb).unwrap_or(DEFAULT_HASH_MB);
        let file_tc = match (sprt, tc) {
            (Some(sprt), _) => sprt.tc,
            (None, Some(tc)) => tc.clone(),
            (None, None) => bail!("{} has no [sprt] to take a time control from: give --tc", plan.file),
        };
        TestPlan { games: Some(games), tc: file_tc, hash_mb, ..plan }.at(tc)
    }

    /// The two sides of `name`'s test, before its kind and time control.
    fn sides(lab: &Lab, name: &str) -> Result<TestPlan> {
        let variant = lab.variant(name)?;
        let file = lab.variant_file(name);
        let Some(parent) = variant.file.extends.clone() else {
            bail!("`{name}` has no parent to test it against on OpenBench");
        };
        let other_engine = match lab.external(name) {
            None => None,
            Some(external) => {
                // `extends` names a variant of the same engine (checked when read).
                let parent_external = lab.external(&parent);
                let base = parent_external.map(|parent| parent.settings.clone()).unwrap_or_default();
                let base_commit = parent_external
                    .and_then(|parent| parent.commit.clone())
                    .filter(|base_commit| external.commit.as_ref() != Some(base_commit));
                for setting in external.settings.iter().chain(&base) {
                    openbench_option(name, setting)?;
                }
                let folder = std::path::Path::new(&external.path)
                    .parent()
                    .and_then(|folder| folder.file_name())
                    .map_or_else(|| external.engine.clone(), |folder| folder.to_string_lossy().into_owned());
                Some(OtherEngine {
                    engine: external.engine.clone(),
                    folder,
                    dev: external.settings.clone(),
                    base,
                    repository: external.repository.clone(),
                    commit: external.commit.clone(),
                    base_commit,
                })
            }
        };
        Ok(TestPlan {
            variant: name.to_string(),
            parent,
            bounds: None,
            games: None,
            tc: String::new(),
            hash_mb: DEFAULT_HASH_MB,
            file,
            other_engine,
        })
    }

    /// A side's options: ours chooses its search by `Variant`, another
    /// engine by the side's UCI options.
    fn options(&self, variant: &str, settings: Option<&[Setting]>) -> String {
        let mut words = vec!["Threads=1".to_string(), format!("Hash={}", self.hash_mb)];
        match settings {
            None => words.push(format!("Variant={variant}")),
            Some(settings) => {
                words.extend(settings.iter().map(|setting| format!("{}={}", setting.name, setting.value)))
            }
        }
        words.join(" ")
    }

    /// The same test at another time control.
    fn at(self, tc: &Option<String>) -> Result<TestPlan> {
        match tc {
            // OpenBench's form takes `N=<nodes>` (fixed nodes, which workers
            // play without scaling) or `<base>+<increment>`, as `[sprt]` does.
            Some(tc) => {
                crate::variants::grammar::check_time_control(tc).map_err(|error| anyhow!("--tc {error}"))?;
                Ok(TestPlan { tc: tc.clone(), ..self })
            }
            None => Ok(self),
        }
    }

    /// Whether `test` is this test at `commit` on `server`: the same
    /// variant, parent, bounds and time control.
    fn is_created_as(&self, test: &CreatedTest, server: &str, commit: &str) -> bool {
        (test.server.as_str(), test.build.commit.as_str()) == (server, commit) && self.is_planned_as(&test.plan)
    }

    /// Whether `plan` is this test: the same variant, parent, bounds or
    /// games, and time control.
    fn is_planned_as(&self, plan: &TestPlan) -> bool {
        (plan.variant.as_str(), plan.parent.as_str()) == (self.variant.as_str(), self.parent.as_str())
            && plan.bounds == self.bounds
            && plan.games == self.games
            && plan.tc == self.tc
    }

    pub fn dev_options(&self) -> String {
        self.options(&self.variant, self.other_engine.as_ref().map(|other| other.dev.as_slice()))
    }

    pub fn base_options(&self) -> String {
        self.options(&self.parent, self.other_engine.as_ref().map(|other| other.base.as_slice()))
    }

    /// `[0.00, 5.00]`, as OpenBench's form writes bounds; `N/A` for a test
    /// of fixed games.
    pub fn bounds_text(&self) -> String {
        match self.bounds {
            Some((low, high)) => format!("[{low:.2}, {high:.2}]"),
            None => "N/A".to_string(),
        }
    }

    /// OpenBench's workload size for this test, `--workload-size` unless
    /// it is sized here. A worker plays a workload as fastchess's `-rounds
    /// 2·W·C -games 2` (C its concurrency: `get_workload.py`'s
    /// `game_distribution`), 4·W·C games, and the server counts a test's
    /// games only when a worker reports (every 30 s, and at a workload's
    /// end), so a test of fixed games with W = 32 plays far more games than
    /// asked. Its W is therefore sized from its games, so that one workload
    /// at concurrency 1 plays at most 1/16 of them (W = 1 for 64 games or
    /// fewer: 4·C games a workload); an SPRT, which stops at its own
    /// decision, keeps OpenBench's 32.
    pub fn workload_size(&self, asked: Option<u64>) -> u64 {
        asked.unwrap_or(match self.games {
            None => SPRT_WORKLOAD_SIZE,
            Some(games) => games.div_ceil(4 * GAMES_WORKLOADS).clamp(1, SPRT_WORKLOAD_SIZE),
        })
    }

    /// What the test decides by: its bounds, or its games.
    pub fn kind_text(&self) -> String {
        match self.games {
            Some(games) => format!("{games} games"),
            None => self.bounds_text(),
        }
    }
}

/// The build every test of a commit shares, as a worker makes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Build {
    /// The engine's name in the server's configuration.
    #[serde(default = "prunelab")]
    pub engine: String,
    /// The full commit hash.
    pub commit: String,
    pub repo: String,
    /// `make`'s `bench` node count: both sides' bench.
    pub bench: u64,
    /// The expected nps, OpenBench's `scale_nps`.
    pub nps: u64,
    /// How the nps was had.
    pub nps_source: String,
    /// The variant the build's `bench` searches as.
    pub bench_variant: String,
    /// Where another engine's bench came from (empty for ours: `make`'s build).
    #[serde(default)]
    pub bench_source: String,
    /// The base side's commit and bench, where they are not the dev side's:
    /// another engine's commit variant against its parent's commit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<BaseBuild>,
}

/// The base side of a test of two commits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BaseBuild {
    pub commit: String,
    pub bench: u64,
    pub bench_source: String,
}

impl Build {
    /// The base side's commit and bench: its own, or the dev side's.
    pub fn base_side(&self) -> (&str, u64) {
        match &self.base {
            Some(base) => (&base.commit, base.bench),
            None => (&self.commit, self.bench),
        }
    }
}

fn prunelab() -> String {
    "prunelab".to_string()
}

impl Build {
    /// `engine` built at `commit` of `repo`, with what its `bench` gives
    /// (nodes, nps, and where the nps came from) searching as
    /// `bench_variant`; its bench `make`'s own (another engine's says where
    /// its bench came from in `bench_source`).
    pub fn new(
        engine: String,
        (commit, repo): (String, String),
        (bench, nps, nps_source): (u64, u64, String),
        bench_variant: &str,
    ) -> Build {
        Build {
            engine,
            commit,
            repo,
            bench,
            nps,
            nps_source,
            bench_variant: bench_variant.to_string(),
            bench_source: String::new(),
            base: None,
        }
    }
}

/// A create whose request may have reached the server though no test
/// number came back: a line of an `openbench-tests` run, until a test
/// with its `info` is found (and recorded as created) or made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnconfirmedTest {
    pub server: String,
    pub plan: TestPlan,
    pub build: Build,
    /// The `info` line sent, by which the test is found on the server.
    pub info: String,
    pub attempted: String,
    /// What went wrong after the request was sent.
    pub lost_answer: String,
}

/// A test `lab openbench` created: one line of an `openbench-tests` run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CreatedTest {
    pub server: String,
    pub test_id: u64,
    pub url: String,
    pub plan: TestPlan,
    pub build: Build,
    pub info: String,
    pub created: String,
}

pub fn command(lab: &Lab, args: &OpenbenchArgs) -> Result<()> {
    if let Some(OpenbenchCommand::Status(status_args)) = &args.command {
        return status(lab, status_args);
    }
    if let Some(variant) = &args.spsa.variant {
        return spsa::command(lab, args, variant);
    }
    let plans = test_plans(lab, args)?;
    // The address and the duplicates are checked before the build, which
    // takes minutes; nothing is sent to the server before the tests are.
    let server = if args.dry_run { None } else { Some(server(&args.server)?) };
    let other_engine = other_engine(&plans)?;
    let commit = match other_engine {
        None => commit(lab, args)?,
        Some(other) => other_engine_source(args, &plans, other)?.1,
    };
    if let Some(server) = &server {
        refuse_duplicates(lab, &plans, &server.url, &commit, args.again)?;
    }
    let build = match other_engine {
        None => build(lab, args, &plans, commit)?,
        Some(other) => other_engine_build(lab, args, &plans, other)?,
    };
    let run_name = format!("{}-{TESTS_COMMAND}", timestamp());
    match &server {
        Some(server) => create_tests(lab, args, &plans, &build, server, &run_name),
        None => {
            println!("{}", plan_markdown(args, &plans, &build, &run_name));
            lab.say("dry run: no test created");
            Ok(())
        }
    }
}

/// The server the tests are created on, with its user's credentials.
fn server(args: &ServerArgs) -> Result<Server> {
    let (url, username, password) = credentials(args)?;
    Server::new(&url, &username, &password)
}

/// Server, user name and password, or which is missing.
fn credentials(args: &ServerArgs) -> Result<(String, String, String)> {
    let missing = |what: &str, variable: &str| format!("--{what} (or ${variable}) is needed to create tests");
    Ok((
        args.server.clone().with_context(|| missing("server", "OPENBENCH_SERVER"))?,
        args.username.clone().with_context(|| missing("username", "OPENBENCH_USERNAME"))?,
        args.password.clone().with_context(|| missing("password", "OPENBENCH_PASSWORD"))?,
    ))
}
