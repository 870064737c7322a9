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
//! OpenBench's pentanomial SPRT reads them), the time control and the hash.
//!
//! The bench and nps a test carries are measured on the build a worker
//! makes: the commit is exported with `git archive` (what a worker
//! downloads) and built with `make`, its `bench` run. A worker checks each
//! side's bench against the test's and scales the time control by its own
//! bench nps against the test's `scale_nps`; both sides of a `Variant` test
//! are the same binary, whose `bench` searches as the build's default
//! variant, so one bench and one nps serve every test of that commit.

mod build;
mod create;
mod server;
#[cfg(test)]
mod stand_in;
mod status;
#[cfg(test)]
mod tests;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand};
use serde::{Deserialize, Serialize};

use self::build::build;
use self::create::{commit, create_tests, plan_markdown, refuse_duplicates, test_plans};
use self::server::Server;
use self::status::status;
use crate::lab::Lab;
use crate::results::timestamp;
use crate::verdicts::claims::grammar::Planned;

/// The run folders of created tests.
const TESTS_COMMAND: &str = "openbench-tests";
/// The hash of a variant whose `[sprt]` sets none: the lab's.
const DEFAULT_HASH_MB: u32 = 16;
/// The SPRT's error rates, as the lab's matches use them.
const CONFIDENCE: &str = "[0.05, 0.05]";
/// Adjudication: the presets of `ci/openbench/prunelab.json`.
const WIN_ADJUDICATION: &str = "movecount=3 score=400";
const DRAW_ADJUDICATION: &str = "movenumber=40 movecount=8 score=10";

#[derive(Args, Clone, Debug, Serialize)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct OpenbenchArgs {
    #[command(subcommand)]
    #[serde(skip)]
    pub command: Option<OpenbenchCommand>,
    /// The variants, each tested against its parent (its file's `extends`).
    #[arg(required = true, value_name = "VARIANT")]
    pub variants: Vec<String>,
    #[command(flatten)]
    pub server: ServerArgs,
    /// Print the tests (engines, options, bounds, time control, hash, nps,
    /// every field sent) and create none.
    #[arg(long)]
    pub dry_run: bool,
    /// The repository workers download, `https://github.com/OWNER/REPO`;
    /// default: the `origin` remote.
    #[arg(long)]
    pub repo: Option<String>,
    /// The commit to test, pushed to --repo; default: HEAD.
    #[arg(long, default_value = "HEAD")]
    pub commit: String,
    /// The time control of every test instead of the variant files' `[sprt]`
    /// tc: `10+0.1` (seconds plus increment), or `N=25000` (fixed nodes a
    /// move, as OpenBench writes it).
    #[arg(long)]
    pub tc: Option<String>,
    /// Create a test even if `lab-results/` records one with the same
    /// commit, variant, parent, bounds and time control on this server.
    #[arg(long)]
    pub again: bool,
    /// The engine's name in the server's configuration (`Engines/<name>.json`).
    #[arg(long, default_value = "prunelab")]
    pub engine: String,
    /// The opening book, one of the server's.
    #[arg(long, default_value = "UHO_4060_v2.epd")]
    pub book: String,
    /// The expected nps (OpenBench's scale_nps) instead of measuring it.
    #[arg(long)]
    pub nps: Option<u64>,
    /// `bench` runs whose median nps is sent.
    #[arg(long, default_value_t = 5)]
    pub bench_runs: usize,
    #[arg(long, default_value_t = 0)]
    pub priority: i64,
    #[arg(long, default_value_t = 1000)]
    pub throughput: u64,
    /// Game pairs a worker plays per workload.
    #[arg(long, default_value_t = 32)]
    pub workload_size: u64,
}

#[derive(Subcommand, Clone, Debug)]
pub enum OpenbenchCommand {
    /// Read the tests `lab openbench` created (W/L/D, pentanomial, LLR) into lab-results/.
    Status(StatusArgs),
}

#[derive(Args, Clone, Debug, Serialize)]
pub struct StatusArgs {
    /// Only these test numbers (default: every test `lab openbench` created).
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
    /// Normalized Elo.
    pub bounds: (f64, f64),
    pub tc: String,
    pub hash_mb: u32,
}

impl TestPlan {
    pub fn of(lab: &Lab, name: &str) -> Result<TestPlan> {
        let variant = lab.own_variant(name)?;
        let Some(parent) = variant.file.extends.clone() else {
            bail!("`{name}` has no parent to test it against on OpenBench");
        };
        let Some(sprt) = &variant.plan().sprt else {
            bail!("variants/{name}.toml has no [sprt]: add its bounds, tc and hash to test it on OpenBench");
        };
        Ok(TestPlan {
            variant: name.to_string(),
            parent,
            bounds: sprt.bounds,
            tc: sprt.tc.clone(),
            hash_mb: sprt.hash_mb.unwrap_or(DEFAULT_HASH_MB),
        })
    }

    fn options(&self, variant: &str) -> String {
        format!("Threads=1 Hash={} Variant={variant}", self.hash_mb)
    }

    /// The same test at another time control.
    fn at(self, tc: &Option<String>) -> Result<TestPlan> {
        match tc {
            // OpenBench's form takes `N=<nodes>` (fixed nodes, which workers
            // play without scaling) or `<base>+<increment>`, as `[sprt]` does.
            Some(tc) => {
                crate::verdicts::claims::grammar::check_time_control(tc).map_err(|error| anyhow!("--tc {error}"))?;
                Ok(TestPlan { tc: tc.clone(), ..self })
            }
            None => Ok(self),
        }
    }

    /// Whether `test` is this test at `commit` on `server`: the same
    /// variant, parent, bounds and time control.
    fn is_created_as(&self, test: &CreatedTest, server: &str, commit: &str) -> bool {
        test.server == server
            && test.build.commit == commit
            && (test.plan.variant.as_str(), test.plan.parent.as_str()) == (self.variant.as_str(), self.parent.as_str())
            && test.plan.bounds == self.bounds
            && test.plan.tc == self.tc
    }

    pub fn dev_options(&self) -> String {
        self.options(&self.variant)
    }

    pub fn base_options(&self) -> String {
        self.options(&self.parent)
    }

    /// `[0.00, 5.00]`, as OpenBench's form writes bounds.
    pub fn bounds_text(&self) -> String {
        format!("[{:.2}, {:.2}]", self.bounds.0, self.bounds.1)
    }
}

/// The build every test of a commit shares, as a worker makes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Build {
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
    let plans = test_plans(lab, args)?;
    // The address and the duplicates are checked before the build, which
    // takes minutes; nothing is sent to the server before the tests are.
    let server = if args.dry_run { None } else { Some(server(&args.server)?) };
    let commit = commit(lab, args)?;
    if let Some(server) = &server {
        refuse_duplicates(lab, &plans, &server.url, &commit, args.again)?;
    }
    let build = build(lab, args, &plans, commit)?;
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
