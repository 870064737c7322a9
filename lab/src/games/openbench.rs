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

mod server;
#[cfg(test)]
mod stand_in;

use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand};
use prunelab::variants;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use self::server::Server;
use crate::games::evidence::{GameResult, SprtState, STATUS_COMMAND};
use crate::games::statistics::{
    fixed, format_penta, openbench_elo_penta, openbench_error, Model, Pentanomial, SprtSettings, Wdl,
};
use crate::lab::Lab;
use crate::results::{read_records, runs_of, timestamp, RunDir};

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
        let Some(sprt) = &variant.file.sprt else {
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
                variants::check_time_control(tc).map_err(|error| anyhow!("--tc {error}"))?;
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

/// The fields of OpenBench's `CREATE_TEST` (`Scripts/create_test.py`)
/// for one test, without the credentials and the action.
pub fn create_fields(args: &OpenbenchArgs, plan: &TestPlan, build: &Build, info: &str) -> Vec<(String, String)> {
    let bench = build.bench.to_string();
    let mut fields = Vec::new();
    for (side, options) in [("dev", plan.dev_options()), ("base", plan.base_options())] {
        fields.extend([
            (format!("{side}_engine"), args.engine.clone()),
            (format!("{side}_repo"), build.repo.clone()),
            (format!("{side}_branch"), build.commit.clone()),
            (format!("{side}_bench"), bench.clone()),
            (format!("{side}_network"), String::new()),
            (format!("{side}_options"), options),
            (format!("{side}_time_control"), plan.tc.clone()),
        ]);
    }
    let rest = [
        ("test_mode", "SPRT".to_string()),
        ("test_bounds", plan.bounds_text()),
        ("test_confidence", CONFIDENCE.to_string()),
        ("test_max_games", "N/A".to_string()),
        ("book_name", args.book.clone()),
        ("upload_pgns", "FALSE".to_string()),
        ("throughput", args.throughput.to_string()),
        ("workload_size", args.workload_size.to_string()),
        ("priority", args.priority.to_string()),
        // The engine reads no tablebases.
        ("syzygy_wdl", "DISABLED".to_string()),
        ("syzygy_adj", "OPTIONAL".to_string()),
        ("win_adj", WIN_ADJUDICATION.to_string()),
        ("draw_adj", DRAW_ADJUDICATION.to_string()),
        ("scale_method", "BASE".to_string()),
        ("scale_nps", build.nps.to_string()),
        ("info", info.to_string()),
    ];
    fields.extend(rest.into_iter().map(|(key, value)| (key.to_string(), value)));
    fields
}

/// The line a test carries as its `info`, and by which it is found again.
fn info_line(plan: &TestPlan, run: &str) -> String {
    format!(
        "lab openbench {run}: {} against its parent {}, {} at {} Hash {} (variants/{}.toml)",
        plan.variant,
        plan.parent,
        plan.bounds_text(),
        plan.tc,
        plan.hash_mb,
        plan.variant
    )
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

/// Each variant's test, at `--tc` if it is given; a variant named twice is
/// refused.
fn test_plans(lab: &Lab, args: &OpenbenchArgs) -> Result<Vec<TestPlan>> {
    let mut plans: Vec<TestPlan> = Vec::new();
    for name in &args.variants {
        if plans.iter().any(|plan| &plan.variant == name) {
            bail!("`{name}` is named twice: one test a variant");
        }
        plans.push(TestPlan::of(lab, name)?.at(&args.tc)?);
    }
    Ok(plans)
}

/// Refuses a test that `lab-results/` records as created already, on the
/// same server at the same commit, unless `again`.
fn refuse_duplicates(lab: &Lab, plans: &[TestPlan], server: &str, commit: &str, again: bool) -> Result<()> {
    if again {
        return Ok(());
    }
    let created = created_tests(lab);
    for plan in plans {
        if let Some(test) = created.iter().find(|test| plan.is_created_as(test, server, commit)) {
            bail!(
                "{} against {} at {}, {} at {}, is test {} already ({}, created {}): give --again to create \
                 another",
                plan.variant,
                plan.parent,
                &commit[..commit.len().min(8)],
                plan.bounds_text(),
                plan.tc,
                test.test_id,
                test.url,
                test.created
            );
        }
    }
    Ok(())
}

/// Creates the tests and records each in a run folder, made with the first
/// test the server accepted: a create that fails leaves nothing behind.
/// Tests created before a failure stay recorded, and the failure is
/// returned.
fn create_tests(
    lab: &Lab,
    args: &OpenbenchArgs,
    plans: &[TestPlan],
    build: &Build,
    server: &Server,
    run_name: &str,
) -> Result<()> {
    let mut text = plan_markdown(args, plans, build, run_name);
    writeln!(text, "\n## Created\n").unwrap();
    let mut run: Option<RunDir> = None;
    let mut failure = None;
    for plan in plans {
        let info = info_line(plan, run_name);
        let id = match server.create_test(&create_fields(args, plan, build, &info), &info, &build.commit) {
            Ok(id) => id,
            Err(error) => {
                failure = Some(error.context(format!("{} against {}", plan.variant, plan.parent)));
                break;
            }
        };
        let created = CreatedTest {
            server: server.url.clone(),
            test_id: id,
            url: server.test_url(id),
            plan: plan.clone(),
            build: build.clone(),
            info,
            created: timestamp(),
        };
        if run.is_none() {
            run = Some(RunDir::create(&lab.results_root(), TESTS_COMMAND, args)?);
        }
        run.as_mut().expect("made above").append(&created)?;
        lab.say(&format!("created: {} against {}: {}", plan.variant, plan.parent, created.url));
        writeln!(text, "- {} against {}: test {id}, {}", plan.variant, plan.parent, created.url).unwrap();
    }
    if let Some(run) = &run {
        writeln!(text, "\n`lab openbench status` reads their games back.").unwrap();
        run.write_summary(&text, &read_records::<CreatedTest>(run.path()))?;
        println!("{text}");
    }
    match failure {
        Some(error) => Err(error),
        None => Ok(()),
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

/// What `--dry-run` prints, and a created run's summary starts with.
fn plan_markdown(args: &OpenbenchArgs, plans: &[TestPlan], build: &Build, run: &str) -> String {
    let mut out = String::new();
    let short = &build.commit[..build.commit.len().min(8)];
    writeln!(out, "# OpenBench tests: {} at {short}\n", args.engine).unwrap();
    writeln!(
        out,
        "Both sides of every test are `{}` at commit {} of {}, built by `make` (every variant's search in one \
         binary; the UCI option `Variant` chooses it). Bench {} (its `bench` searches as {}), for dev and base. \
         Expected nps {} ({}), sent as scale_nps with scale_method BASE: a worker scales the time control by it \
         over its own bench nps. Book {}, SPRT confidence {CONFIDENCE}, adjudication `{WIN_ADJUDICATION}` and \
         `{DRAW_ADJUDICATION}`, no tablebases.\n",
        args.engine, build.commit, build.repo, build.bench, build.bench_variant, build.nps, build.nps_source, args.book
    )
    .unwrap();
    if plans.iter().any(|plan| plan.tc.starts_with("N=")) {
        writeln!(out, "A fixed-nodes time control (`N=`) is played as it is: workers scale only clocks.\n").unwrap();
    }
    writeln!(out, "| dev | dev options | base | base options | bounds (normalized Elo) | tc | hash | from |").unwrap();
    writeln!(out, "|---|---|---|---|---|---|---:|---|").unwrap();
    for plan in plans {
        writeln!(
            out,
            "| {} | `{}` | {} | `{}` | {} | {} | {} | variants/{}.toml [sprt]{} |",
            plan.variant,
            plan.dev_options(),
            plan.parent,
            plan.base_options(),
            plan.bounds_text(),
            plan.tc,
            plan.hash_mb,
            plan.variant,
            if args.tc.is_some() { ", tc from --tc" } else { "" }
        )
        .unwrap();
    }
    for plan in plans {
        writeln!(
            out,
            "\nThe fields sent for {} (with `username`, `password` and `action=CREATE_TEST`):\n",
            plan.variant
        )
        .unwrap();
        writeln!(out, "```").unwrap();
        for (key, value) in create_fields(args, plan, build, &info_line(plan, run)) {
            writeln!(out, "{key} = {value}").unwrap();
        }
        writeln!(out, "```").unwrap();
    }
    out
}

/// Runs a command, or says what it printed when it fails.
fn run_command(command: &mut Command, what: &str) -> Result<String> {
    let output = command.output().with_context(|| format!("cannot run {what}"))?;
    if !output.status.success() {
        let printed = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        let lines: Vec<&str> = printed.lines().collect();
        bail!("{what} failed:\n{}", lines[lines.len().saturating_sub(30)..].join("\n"));
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
}

fn git(root: &Path, args: &[&str]) -> Result<String> {
    run_command(Command::new("git").current_dir(root).args(args), &format!("git {}", args.join(" ")))
}

/// `https://github.com/OWNER/REPO` from a remote's address (`git@github.com:OWNER/REPO.git` too).
fn github_address(remote: &str) -> Option<String> {
    let path = remote
        .strip_prefix("https://github.com/")
        .or_else(|| remote.strip_prefix("git@github.com:"))
        .or_else(|| remote.strip_prefix("ssh://git@github.com/"))?;
    let path = path.trim_end_matches('/').trim_end_matches(".git");
    let (owner, name) = path.split_once('/')?;
    let owner_ok = !owner.is_empty() && owner.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    let name_ok = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c));
    (owner_ok && name_ok).then(|| format!("https://github.com/{owner}/{name}"))
}

/// The repository workers download, checked as OpenBench checks it.
fn repository(lab: &Lab, args: &OpenbenchArgs) -> Result<String> {
    let remote = match &args.repo {
        Some(repo) => repo.clone(),
        None => git(&lab.root, &["remote", "get-url", "origin"])
            .context("no --repo, and no `origin` remote to take it from")?,
    };
    github_address(&remote).with_context(|| {
        format!("{remote}: OpenBench downloads sources from https://github.com/OWNER/REPO only; give --repo")
    })
}

/// The full hash of `--commit`.
fn commit(lab: &Lab, args: &OpenbenchArgs) -> Result<String> {
    git(&lab.root, &["rev-parse", "--verify", &format!("{}^{{commit}}", args.commit)])
}

/// The commit built and benched as a worker builds and benches it: the
/// bench both sides carry and the expected nps.
fn build(lab: &Lab, args: &OpenbenchArgs, plans: &[TestPlan], commit: String) -> Result<Build> {
    let repo = repository(lab, args)?;
    // The plans come from the working tree's variant files; the engine
    // from the commit's.
    if !git(&lab.root, &["diff", "--name-only", &commit, "--", "variants"])?.is_empty() {
        bail!("variants/ differs from commit {commit}: commit it (and push it), or give --commit");
    }
    let folder = lab.target_dir().join("lab").join("openbench");
    let source = folder.join(format!("source-{}", &commit[..12]));
    let binary = folder.join(format!("{}-{}", args.engine, commit[..8].to_uppercase()));
    if !binary.is_file() {
        export(lab, &commit, &source)?;
        lab.say(&format!(
            "building commit {} as an OpenBench worker does: make (minutes the first time)",
            &commit[..8]
        ));
        let mut make = Command::new("make");
        make.current_dir(&source)
            .arg(format!("EXE={}", binary.display()))
            .env("CARGO_TARGET_DIR", folder.join("cargo"))
            .env("CARGO_TERM_QUIET", "true");
        for variable in ["VARIANT", "FEATURES", "PROFILE", "EXE", "PRUNELAB_VARIANT"] {
            make.env_remove(variable);
        }
        run_command(&mut make, "make")?;
        std::fs::remove_dir_all(&source).ok();
    }
    let report = crate::engines::builder::self_report(&binary)?;
    let names: Vec<&str> = plans.iter().flat_map(|plan| [plan.variant.as_str(), plan.parent.as_str()]).collect();
    if let Some(missing) = names.iter().find(|name| !report.selectable.iter().any(|known| known == *name)) {
        bail!(
            "make at {} does not build the variants build with `{missing}` (a FEATURES line in its Makefile \
             builds one feature set, without the Variant option)",
            &commit[..8]
        );
    }
    let runs = if args.nps.is_some() { 1 } else { args.bench_runs.max(1) };
    lab.say(&format!("bench: {runs} run(s) of {}", binary.display()));
    let mut benches = Vec::new();
    for _ in 0..runs {
        benches.push(bench(&binary)?);
    }
    if let Some((nodes, _)) = benches.iter().find(|(nodes, _)| *nodes != benches[0].0) {
        bail!("{} bench is not deterministic: {} and {nodes} nodes", binary.display(), benches[0].0);
    }
    let (nps, nps_source) = match args.nps {
        Some(nps) => (nps, "--nps".to_string()),
        None => {
            let mut speeds: Vec<u64> = benches.iter().map(|(_, nps)| *nps).collect();
            speeds.sort_unstable();
            let median = speeds[speeds.len() / 2];
            let source = format!(
                "the median of {runs} `bench` runs on this machine, {} to {}",
                speeds[0],
                speeds[speeds.len() - 1]
            );
            (median, source)
        }
    };
    Ok(Build { commit, repo, bench: benches[0].0, nps, nps_source, bench_variant: report.variants.join("/") })
}

/// The commit's files in `folder`, as a worker downloads them.
fn export(lab: &Lab, commit: &str, folder: &Path) -> Result<()> {
    std::fs::remove_dir_all(folder).ok();
    std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
    let mut archive = Command::new("git")
        .current_dir(&lab.root)
        .args(["archive", "--format=tar", commit])
        .stdout(Stdio::piped())
        .spawn()
        .context("cannot run git archive")?;
    let tar_status = Command::new("tar")
        .arg("-x")
        .arg("-C")
        .arg(folder)
        .stdin(archive.stdout.take().expect("piped"))
        .status()
        .context("cannot run tar")?;
    if !archive.wait()?.success() || !tar_status.success() {
        bail!("cannot export commit {commit} into {}", folder.display());
    }
    Ok(())
}

/// One `bench` run: its node count and nps, from its last line.
fn bench(binary: &PathBuf) -> Result<(u64, u64)> {
    let output = run_command(Command::new(binary).arg("bench"), &format!("{} bench", binary.display()))?;
    let last = output.lines().last().unwrap_or_default();
    let words: Vec<&str> = last.split_whitespace().collect();
    match words.as_slice() {
        ["Bench:", nodes, "nodes", nps, "nps"] => Ok((nodes.parse()?, nps.parse()?)),
        _ => bail!("{} bench ended with `{last}`, not `Bench: <nodes> nodes <nps> nps`", binary.display()),
    }
}

/// Every test `lab openbench` created under the results folder, the latest
/// record of each.
fn created_tests(lab: &Lab) -> Vec<CreatedTest> {
    let mut tests: Vec<CreatedTest> = Vec::new();
    for run in runs_of(&lab.results_root(), TESTS_COMMAND) {
        for test in read_records::<CreatedTest>(&run) {
            tests.retain(|seen| (seen.server.as_str(), seen.test_id) != (test.server.as_str(), test.test_id));
            tests.push(test);
        }
    }
    tests
}

/// A test's games as the lab keeps them, from OpenBench's workload API.
pub fn game_result(test: &CreatedTest, workload: &server::Workload, taken: &str) -> Result<GameResult> {
    let info = &workload.info;
    let counts = |key: &str| -> Result<Vec<u64>> {
        info[key]
            .as_array()
            .and_then(|items| items.iter().map(Value::as_u64).collect::<Option<Vec<u64>>>())
            .with_context(|| format!("test {}: no `{key}` counts in {info}", test.test_id))
    };
    let (tri, penta) = (counts("tri")?, counts("penta")?);
    let (&[losses, draws, wins], &[ll, ld, even, wd, ww]) = (tri.as_slice(), penta.as_slice()) else {
        bail!("test {}: `tri` {tri:?} or `penta` {penta:?} has the wrong length", test.test_id);
    };
    let number = |key: &str| info[key].as_f64().with_context(|| format!("test {}: no `{key}`", test.test_id));
    let sprt = if info["test_mode"] == "SPRT" {
        Some(SprtState {
            elo0: number("elolower")?,
            elo1: number("eloupper")?,
            llr: number("currentllr")?,
            lower: number("lowerllr")?,
            upper: number("upperllr")?,
        })
    } else {
        None
    };
    let sum = |key: &str| workload.results.iter().filter_map(|result| result[key].as_u64()).sum();
    Ok(GameResult {
        subject: test.plan.variant.clone(),
        reference: test.plan.parent.clone(),
        source: format!("OpenBench test {}, {}", test.test_id, test.url),
        taken: taken.to_string(),
        tc: info["dev_time_control"].as_str().unwrap_or(&test.plan.tc).to_string(),
        book: info["book_name"].as_str().map(str::to_string),
        wdl: Wdl { wins, draws, losses },
        penta: Pentanomial([ll, ld, even, wd, ww]),
        sprt,
        finished: info["finished"].as_bool().unwrap_or(false),
        time_losses: sum("timeloss"),
        crashes: sum("crashes"),
    })
}

/// A test's state in words, from its flags.
fn state(info: &Value) -> &'static str {
    let flag = |key: &str| info[key].as_bool().unwrap_or(false);
    if flag("deleted") {
        "deleted"
    } else if flag("passed") {
        "passed"
    } else if flag("failed") {
        "failed"
    } else if flag("finished") {
        "stopped"
    } else if !flag("approved") {
        "awaiting approval"
    } else {
        "running"
    }
}

/// `lab openbench status`. The user's credentials go only to the server
/// `--server` (or `$OPENBENCH_SERVER`) names; a test recorded on another
/// server is read without them (a public server's API answers anyone),
/// and the summary says so.
fn status(lab: &Lab, args: &StatusArgs) -> Result<()> {
    let mut tests = created_tests(lab);
    if !args.tests.is_empty() {
        tests.retain(|test| args.tests.contains(&test.test_id));
    }
    if tests.is_empty() {
        bail!(
            "no test created by `lab openbench` under {}{}",
            lab.results_root().display(),
            if args.tests.is_empty() { "" } else { " matches" }
        );
    }
    let named = args.server.server.as_deref().map(|url| url.trim_end_matches('/'));
    let credentials = match (&args.server.username, &args.server.password) {
        (Some(username), Some(password)) => Some((username.as_str(), password.as_str())),
        (None, None) => None,
        _ => bail!("--username and --password (or $OPENBENCH_USERNAME and $OPENBENCH_PASSWORD) go together"),
    };
    let mut notes = Vec::new();
    if credentials.is_some() && named.is_none() {
        notes.push(
            "a user and password were given, but no --server (or $OPENBENCH_SERVER) names the server they are \
             for: every test was read without them"
                .to_string(),
        );
    }
    let mut run = RunDir::create(&lab.results_root(), STATUS_COMMAND, args)?;
    let mut out = String::from("# OpenBench tests\n\n");
    writeln!(
        out,
        "| test | variant | parent | state | tc | games | W / L / D | pentanomial | Elo (OpenBench) | Elo (lab) | \
         nElo (lab) | LLR (bounds) [elo0, elo1] | the lab's LLR | time losses, crashes |"
    )
    .unwrap();
    writeln!(out, "|---|---|---|---|---|---:|---|---|---|---|---|---|---|---|").unwrap();
    let mut failures = Vec::new();
    for test in &tests {
        let server = match credentials {
            Some((username, password)) if named == Some(test.server.as_str()) => {
                Server::new(&test.server, username, password)
            }
            _ => Server::anonymous(&test.server),
        };
        if credentials.is_some() && named.is_some_and(|named| named != test.server) {
            notes.push(format!(
                "test {} is on {}, not on the server --server names ({}): read without credentials",
                test.test_id,
                test.server,
                named.unwrap_or_default()
            ));
        }
        let workload = match server.and_then(|server| server.workload(test.test_id)) {
            Ok(workload) => workload,
            Err(error) => {
                lab.say(&format!("test {} at {}: {error:#}", test.test_id, test.server));
                failures.push(format!("test {}: {error:#}", test.test_id));
                continue;
            }
        };
        let result = game_result(test, &workload, &timestamp())?;
        run.append(&result)?;
        writeln!(out, "{}", status_row(test, &workload, &result)).unwrap();
    }
    writeln!(
        out,
        "\nElo (OpenBench) is the figure OpenBench's test page shows: Student's t interval on the pairs, ± its \
         longer side. Elo (lab) is the lab's, as `lab match` prints it: the normal interval, ± half its width."
    )
    .unwrap();
    for note in &notes {
        writeln!(out, "\nNote: {note}.").unwrap();
    }
    if !failures.is_empty() {
        writeln!(out, "\nNot read: {}", failures.join("; ")).unwrap();
    }
    run.write_summary(&out, &read_records::<GameResult>(run.path()))?;
    println!("{out}");
    lab.say(&format!("results: {}", run.path().display()));
    if failures.len() == tests.len() {
        bail!("no test could be read");
    }
    Ok(())
}

/// A test's row in the status table; the LLR is recomputed from the
/// pentanomial with the lab's statistics beside OpenBench's.
fn status_row(test: &CreatedTest, workload: &server::Workload, result: &GameResult) -> String {
    let (elo, nelo) = result.elo_texts();
    let openbench_elo = match openbench_elo_penta(&result.penta) {
        Some(estimate) => format!("{} ± {}", fixed(estimate.value, 2), fixed(openbench_error(&estimate), 2)),
        None => "n/a".to_string(),
    };
    let (llr, lab_llr) = match &result.sprt {
        Some(sprt) => {
            let settings = SprtSettings {
                elo0: sprt.elo0,
                elo1: sprt.elo1,
                alpha: workload.info["alpha"].as_f64().unwrap_or(0.05),
                beta: workload.info["beta"].as_f64().unwrap_or(0.05),
                model: Model::Normalized,
            };
            (
                format!("{:.2} ({:.2}, {:.2}) [{}, {}]", sprt.llr, sprt.lower, sprt.upper, sprt.elo0, sprt.elo1),
                format!("{:.2}", settings.on_pairs(&result.penta).llr),
            )
        }
        None => ("-".to_string(), "-".to_string()),
    };
    format!(
        "| [{}]({}) | {} | {} | {} | {} | {} | {} / {} / {} | {} | {openbench_elo} | {elo} | {nelo} | {llr} | {lab_llr} \
         | {}, {} |",
        test.test_id,
        test.url,
        result.subject,
        result.reference,
        state(&workload.info),
        result.tc,
        result.games(),
        result.wdl.wins,
        result.wdl.losses,
        result.wdl.draws,
        format_penta(&result.penta),
        result.time_losses,
        result.crashes
    )
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::sync::{Arc, Mutex};

    use serde_json::json;

    use super::stand_in::{Response, StandIn};
    use super::*;

    /// Every key OpenBench's `Scripts/create_test.py` (commit 9906bad) sends,
    /// each of which its `create_new_test` reads.
    const CREATE_TEST_KEYS: [&str; 33] = [
        "dev_engine",
        "dev_repo",
        "dev_branch",
        "dev_bench",
        "dev_network",
        "dev_options",
        "dev_time_control",
        "base_engine",
        "base_repo",
        "base_branch",
        "base_bench",
        "base_network",
        "base_options",
        "base_time_control",
        "test_mode",
        "test_bounds",
        "test_confidence",
        "test_max_games",
        "book_name",
        "upload_pgns",
        "throughput",
        "workload_size",
        "priority",
        "syzygy_wdl",
        "syzygy_adj",
        "win_adj",
        "draw_adj",
        "scale_method",
        "scale_nps",
        "info",
        "username",
        "password",
        "action",
    ];
    const COMMIT: &str = "0123456789abcdef0123456789abcdef01234567";

    fn args() -> OpenbenchArgs {
        OpenbenchArgs {
            command: None,
            variants: vec!["razor-r1".into(), "razor-r2".into()],
            server: ServerArgs { server: None, username: None, password: None },
            dry_run: false,
            repo: None,
            commit: "HEAD".into(),
            tc: None,
            again: false,
            engine: "prunelab".into(),
            book: "UHO_4060_v2.epd".into(),
            nps: None,
            bench_runs: 5,
            priority: 0,
            throughput: 1000,
            workload_size: 32,
        }
    }

    fn build() -> Build {
        Build {
            commit: COMMIT.into(),
            repo: "https://github.com/someone/prunelab".into(),
            bench: 7357031,
            nps: 2400000,
            nps_source: "a test's".into(),
            bench_variant: "baseline".into(),
        }
    }

    /// OpenBench as far as creating tests goes: the script endpoint takes
    /// user `lab` with password `secret`, numbers the tests it accepts from
    /// 100, lists them newest first on the user's page (for the session it
    /// opened), and gives each one's `info` and commit through the API.
    fn creating_server() -> StandIn {
        let created: Arc<Mutex<Vec<String>>> = Arc::new(Mutex::new(Vec::new()));
        StandIn::start(move |request| {
            let mut created = created.lock().unwrap();
            match (request.method.as_str(), request.path.as_str()) {
                ("POST", "/scripts/") if request.field("password") != Some("secret") => {
                    Response::redirect("/login/", &[])
                }
                ("POST", "/scripts/") => {
                    created.push(request.field("info").unwrap_or_default().to_string());
                    Response::redirect("/index/", &["sessionid=s1; expires=Thu, 01 Jan 2099 00:00:00 GMT; Path=/"])
                }
                ("GET", "/user/lab/") if request.header("cookie") == Some("sessionid=s1") => {
                    // An older test of the user's, with another info, is listed too.
                    let links: Vec<String> = (0..=created.len())
                        .rev()
                        .map(|index| format!("<a href=\"/test/{}/\">t</a>", 99 + index))
                        .collect();
                    Response::ok("text/html", links.join("\n"))
                }
                ("POST", path) if path.starts_with("/api/workload/") && path.ends_with("/info/") => {
                    let id: usize = path["/api/workload/".len()..path.len() - "/info/".len()].parse().unwrap();
                    let info = if id == 99 { "an older test".to_string() } else { created[id - 100].clone() };
                    Response::json(json!({"info": {"id": id, "info": info, "dev": {"sha": COMMIT}}}))
                }
                _ => Response::not_found(),
            }
        })
    }

    #[test]
    fn a_test_is_created_with_every_field_of_create_test_and_found_again() {
        let lab = Lab::for_tests();
        let stand_in = creating_server();
        let server = Server::new(&stand_in.url, "lab", "secret").unwrap();
        let mut ids = Vec::new();
        for name in ["razor-r1", "razor-r2"] {
            let plan = TestPlan::of(&lab, name).unwrap();
            let info = info_line(&plan, "20261125T000000Z-openbench-tests");
            ids.push(server.create_test(&create_fields(&args(), &plan, &build(), &info), &info, COMMIT).unwrap());
        }
        assert_eq!(ids, [100, 101]);
        let posts: Vec<_> = stand_in.requests().into_iter().filter(|request| request.path == "/scripts/").collect();
        assert_eq!(posts.len(), 2);
        // What razor-r1's and razor-r2's files say ([sprt] and extends), written out.
        for (post, (variant, parent, bounds)) in
            posts.iter().zip([("razor-r1", "p003-3", "[0.00, 5.00]"), ("razor-r2", "razor-r1", "[-3.00, 3.00]")])
        {
            let sent: BTreeMap<&str, &str> =
                post.form.iter().map(|(key, value)| (key.as_str(), value.as_str())).collect();
            assert_eq!(sent.len(), post.form.len(), "a field sent twice: {:?}", post.form);
            let keys: Vec<&str> = sent.keys().copied().collect();
            let mut expected_keys = CREATE_TEST_KEYS.to_vec();
            expected_keys.sort_unstable();
            assert_eq!(keys, expected_keys);
            let info = format!(
                "lab openbench 20261125T000000Z-openbench-tests: {variant} against its parent {parent}, {bounds} at \
                 10+0.1 Hash 8 (variants/{variant}.toml)"
            );
            let dev_options = format!("Threads=1 Hash=8 Variant={variant}");
            let base_options = format!("Threads=1 Hash=8 Variant={parent}");
            let expected: BTreeMap<&str, &str> = [
                ("dev_engine", "prunelab"),
                ("dev_repo", "https://github.com/someone/prunelab"),
                ("dev_branch", COMMIT),
                ("dev_bench", "7357031"),
                ("dev_network", ""),
                ("dev_options", dev_options.as_str()),
                ("dev_time_control", "10+0.1"),
                ("base_engine", "prunelab"),
                ("base_repo", "https://github.com/someone/prunelab"),
                ("base_branch", COMMIT),
                ("base_bench", "7357031"),
                ("base_network", ""),
                ("base_options", base_options.as_str()),
                ("base_time_control", "10+0.1"),
                ("test_mode", "SPRT"),
                ("test_bounds", bounds),
                ("test_confidence", "[0.05, 0.05]"),
                ("test_max_games", "N/A"),
                ("book_name", "UHO_4060_v2.epd"),
                ("upload_pgns", "FALSE"),
                ("throughput", "1000"),
                ("workload_size", "32"),
                ("priority", "0"),
                ("syzygy_wdl", "DISABLED"),
                ("syzygy_adj", "OPTIONAL"),
                ("win_adj", "movecount=3 score=400"),
                ("draw_adj", "movenumber=40 movecount=8 score=10"),
                ("scale_method", "BASE"),
                ("scale_nps", "2400000"),
                ("info", info.as_str()),
                ("username", "lab"),
                ("password", "secret"),
                ("action", "CREATE_TEST"),
            ]
            .into_iter()
            .collect();
            assert_eq!(sent, expected);
            assert_eq!(post.header("content-type"), Some("application/x-www-form-urlencoded"));
        }
        // A wrong password: OpenBench sends the script back to its login page.
        let intruder = Server::new(&stand_in.url, "lab", "guess").unwrap();
        let plan = TestPlan::of(&lab, "razor-r1").unwrap();
        let error = intruder.create_test(&create_fields(&args(), &plan, &build(), "x"), "x", COMMIT).unwrap_err();
        assert!(error.to_string().contains("user `lab` could not log in, or is not enabled"), "{error}");
    }

    #[test]
    fn a_refused_test_says_what_openbench_said() {
        let stand_in = StandIn::start(|request| {
            match (request.method.as_str(), request.path.as_str()) {
            ("POST", "/scripts/") => Response::redirect("/test/new/", &["sessionid=s2; Path=/"]),
            ("GET", "/test/new/") if request.header("cookie") == Some("sessionid=s2") => Response::ok(
                "text/html",
                "<div class=\"error-message\">\n<pre>Sources must be found on https://github.com/&lt;User&gt;/&lt;Repo&gt;\n\
                 0123 could not be found</pre>\n</div>",
            ),
            _ => Response::not_found(),
        }
        });
        let lab = Lab::for_tests();
        let server = Server::new(&stand_in.url, "lab", "secret").unwrap();
        let plan = TestPlan::of(&lab, "razor-r1").unwrap();
        let error = server.create_test(&create_fields(&args(), &plan, &build(), "x"), "x", COMMIT).unwrap_err();
        assert_eq!(
            error.to_string(),
            "OpenBench refused the test: Sources must be found on https://github.com/<User>/<Repo>\n0123 could not be found"
        );
    }

    /// A running test as OpenBench's `/api/workload/42/info/` gives it
    /// (`model_utils.workload_to_dict`: the Test's fields, `dev` and `base`
    /// as Engine dicts, `tri` as (losses, draws, wins), `penta` as (LL, LD,
    /// DD, DW, WW)), and `/results/` one machine's row.
    fn status_server() -> StandIn {
        StandIn::start(|request| match (request.method.as_str(), request.path.as_str()) {
            ("POST", "/api/workload/42/info/") => Response::json(json!({"info": {
                "id": 42, "author": "lab", "info": "lab openbench ...", "book_name": "UHO_4060_v2.epd",
                "dev_engine": "prunelab", "dev_options": "Threads=1 Hash=8 Variant=razor-r1",
                "dev_time_control": "10.0+0.10", "base_options": "Threads=1 Hash=8 Variant=p003-3",
                "base_time_control": "10.0+0.10", "test_mode": "SPRT", "elolower": 0.0, "eloupper": 5.0,
                "alpha": 0.05, "beta": 0.05, "lowerllr": -2.944438979166, "currentllr": 0.31,
                "upperllr": 2.944438979166, "games": 64, "passed": false, "failed": false,
                "finished": false, "deleted": false, "approved": true, "error": false,
                "dev": {"id": 1, "name": COMMIT, "source": "x", "sha": COMMIT, "bench": 7357031},
                "base": {"id": 2, "name": COMMIT, "source": "x", "sha": COMMIT, "bench": 7357031},
                "tri": [14, 30, 20], "penta": [2, 6, 12, 8, 4],
                "creation": "2026-11-25 14:00:00+00:00", "updated": "2026-11-25 14:30:00+00:00"
            }})),
            ("POST", "/api/workload/42/results/") => Response::json(json!({"results": [
                {"machine__id": 1, "machine__user__username": "lab", "games": 64, "LL": 2, "LD": 6, "DD": 12,
                 "DW": 8, "WW": 4, "timeloss": 1, "crashes": 0, "active": true}
            ]})),
            _ => Response::not_found(),
        })
    }

    #[test]
    fn status_reads_a_test_back_where_lab_ab_finds_it() {
        let stand_in = status_server();
        let results = std::env::temp_dir().join(format!("prunelab-openbench-status-{}", std::process::id()));
        std::fs::remove_dir_all(&results).ok();
        let lab = Lab::for_tests().nested(&results);
        let mut created = RunDir::create(&results, TESTS_COMMAND, &serde_json::json!({})).unwrap();
        let test = CreatedTest {
            server: stand_in.url.clone(),
            test_id: 42,
            url: format!("{}/test/42/", stand_in.url),
            plan: TestPlan::of(&lab, "razor-r1").unwrap(),
            build: build(),
            info: "lab openbench ...".into(),
            created: "20261125T140000Z".into(),
        };
        created.append(&test).unwrap();
        let server = ServerArgs { server: None, username: None, password: None };
        status(&lab, &StatusArgs { tests: Vec::new(), server }).unwrap();

        let found = crate::games::evidence::game_results(&results, "razor-r1", "p003-3");
        assert_eq!(found.len(), 1, "{found:?}");
        let result = &found[0];
        assert_eq!(result.source, format!("OpenBench test 42, {}/test/42/", stand_in.url));
        assert_eq!((result.tc.as_str(), result.finished), ("10.0+0.10", false));
        assert_eq!(result.wdl, Wdl { wins: 20, draws: 30, losses: 14 });
        assert_eq!(result.penta, Pentanomial([2, 6, 12, 8, 4]));
        assert_eq!(
            result.sprt,
            Some(SprtState { elo0: 0.0, elo1: 5.0, llr: 0.31, lower: -2.944438979166, upper: 2.944438979166 })
        );
        assert_eq!((result.time_losses, result.crashes), (1, 0));
        let summary = std::fs::read_to_string(runs_of(&results, STATUS_COMMAND)[0].join("summary.md")).unwrap();
        assert!(summary.contains("| running | 10.0+0.10 | 64 | 20 / 14 / 30 | [2, 6, 12, 8, 4] |"), "{summary}");
        // Elo as OpenBench's page shows it, then the lab's.
        let (elo, nelo) = found[0].elo_texts();
        let openbench = openbench_elo_penta(&Pentanomial([2, 6, 12, 8, 4])).unwrap();
        let openbench = format!("{:.2} ± {:.2}", openbench.value, openbench_error(&openbench));
        assert!(summary.contains(&format!("| [2, 6, 12, 8, 4] | {openbench} | {elo} | {nelo} |")), "{summary}");
        std::fs::remove_dir_all(&results).unwrap();
    }

    /// A results folder of its own for a test, and the lab that writes there.
    fn results_folder(name: &str) -> (PathBuf, Lab) {
        let results = std::env::temp_dir().join(format!("prunelab-openbench-{name}-{}", std::process::id()));
        std::fs::remove_dir_all(&results).ok();
        let lab = Lab::for_tests().nested(&results);
        (results, lab)
    }

    fn with_server(server: &str) -> OpenbenchArgs {
        let server = ServerArgs {
            server: Some(server.to_string()),
            username: Some("lab".into()),
            password: Some("secret".into()),
        };
        OpenbenchArgs { variants: vec!["razor-r1".into()], server, ..args() }
    }

    #[test]
    fn plain_http_to_another_host_is_refused_before_anything_is_sent() {
        let stand_in = creating_server();
        let (results, lab) = results_folder("plain-http");
        // 0.0.0.0 is no loopback address, yet on Linux it reaches this
        // machine's listeners: the stand-in would receive what is sent.
        let port = stand_in.url.rsplit(':').next().unwrap();
        let url = format!("http://0.0.0.0:{port}");
        let error = command(&lab, &with_server(&url)).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "--server {url}: plain http would send the password in clear text to 0.0.0.0; use https:// (http:// \
                 only to this machine: 127.0.0.1, ::1, localhost)"
            )
        );
        assert_eq!(stand_in.requests().len(), 0);
        assert!(!results.exists(), "nothing is written either");
    }

    #[test]
    fn a_second_identical_create_is_refused_unless_again() {
        let stand_in = creating_server();
        let (results, lab) = results_folder("again");
        let args = with_server(&stand_in.url);
        let server = Server::new(&stand_in.url, "lab", "secret").unwrap();
        let plans = test_plans(&lab, &args).unwrap();
        let run = "20261125T000000Z-openbench-tests";
        // As `command` does: the duplicates checked, then the tests created.
        refuse_duplicates(&lab, &plans, &server.url, COMMIT, false).unwrap();
        create_tests(&lab, &args, &plans, &build(), &server, run).unwrap();
        let error = refuse_duplicates(&lab, &plans, &server.url, COMMIT, false).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "razor-r1 against p003-3 at 01234567, [0.00, 5.00] at 10+0.1, is test 100 already ({}/test/100/, \
                 created {}): give --again to create another",
                stand_in.url,
                created_tests(&lab)[0].created
            )
        );
        // Another time control, bounds or commit, or another server, is another test.
        let at_fixed_nodes = plans[0].clone().at(&Some("N=25000".into())).unwrap();
        refuse_duplicates(&lab, &[at_fixed_nodes], &server.url, COMMIT, false).unwrap();
        refuse_duplicates(&lab, &plans, &server.url, &"f".repeat(40), false).unwrap();
        refuse_duplicates(&lab, &plans, "https://openbench.example", COMMIT, false).unwrap();
        refuse_duplicates(&lab, &plans, &server.url, COMMIT, true).unwrap();
        let posts = stand_in.requests().into_iter().filter(|request| request.path == "/scripts/").count();
        assert_eq!(posts, 1);
        // A variant named twice on one command line is refused too.
        let twice = OpenbenchArgs { variants: vec!["razor-r1".into(), "razor-r1".into()], ..args };
        assert_eq!(test_plans(&lab, &twice).unwrap_err().to_string(), "`razor-r1` is named twice: one test a variant");
        std::fs::remove_dir_all(&results).unwrap();
    }

    #[test]
    fn a_failed_create_leaves_no_run_folder() {
        let stand_in = creating_server();
        let (results, lab) = results_folder("failed-create");
        let args = with_server(&stand_in.url);
        let intruder = Server::new(&stand_in.url, "lab", "guess").unwrap();
        let plans = test_plans(&lab, &args).unwrap();
        let error = create_tests(&lab, &args, &plans, &build(), &intruder, "run").unwrap_err();
        assert_eq!(
            format!("{error:#}"),
            "razor-r1 against p003-3: OpenBench refused to create the test: user `lab` could not log in, or is not \
             enabled to create tests"
        );
        assert!(runs_of(&results, TESTS_COMMAND).is_empty());
        assert!(!results.exists(), "{} was made", results.display());
    }

    #[test]
    fn fixed_nodes_reach_the_form_as_openbench_writes_them() {
        let stand_in = creating_server();
        let (results, lab) = results_folder("fixed-nodes");
        let args = OpenbenchArgs { tc: Some("N=25000".into()), ..with_server(&stand_in.url) };
        let server = Server::new(&stand_in.url, "lab", "secret").unwrap();
        let plans = test_plans(&lab, &args).unwrap();
        assert_eq!(plans[0].tc, "N=25000");
        create_tests(&lab, &args, &plans, &build(), &server, "run").unwrap();
        let post = stand_in.requests().into_iter().find(|request| request.path == "/scripts/").unwrap();
        // OpenBench's TimeControl.parse keeps `N=25000` as it is, and its
        // workers play it as `tc=inf nodes=25000`.
        assert_eq!(
            (post.field("dev_time_control"), post.field("base_time_control")),
            (Some("N=25000"), Some("N=25000"))
        );
        assert_eq!(created_tests(&lab)[0].plan.tc, "N=25000");
        let summary = std::fs::read_to_string(runs_of(&results, TESTS_COMMAND)[0].join("summary.md")).unwrap();
        assert!(summary.contains("A fixed-nodes time control (`N=`) is played as it is: workers scale only clocks."));
        assert!(summary.contains("| [0.00, 5.00] | N=25000 | 8 | variants/razor-r1.toml [sprt], tc from --tc |"));
        for (tc, refusal) in [
            ("N=0", "--tc 'N=0': N= takes a positive whole number of nodes, such as N=25000"),
            ("N=25k", "--tc 'N=25k': N= takes a positive whole number of nodes, such as N=25000"),
            (
                "25000",
                "--tc '25000' is not base+increment in seconds, such as 10+0.1, nor fixed nodes, such as N=25000",
            ),
        ] {
            let args = OpenbenchArgs { tc: Some(tc.into()), ..args.clone() };
            assert_eq!(test_plans(&lab, &args).unwrap_err().to_string(), refusal);
        }
        std::fs::remove_dir_all(&results).unwrap();
    }

    /// Two servers, each with a test 42, both recorded in lab-results/.
    fn two_servers_with_a_test_each(lab: &Lab, results: &Path) -> (StandIn, StandIn) {
        let (named, other) = (status_server(), status_server());
        let mut created = RunDir::create(results, TESTS_COMMAND, &serde_json::json!({})).unwrap();
        for stand_in in [&named, &other] {
            let test = CreatedTest {
                server: stand_in.url.clone(),
                test_id: 42,
                url: format!("{}/test/42/", stand_in.url),
                plan: TestPlan::of(lab, "razor-r1").unwrap(),
                build: build(),
                info: "lab openbench ...".into(),
                created: "20261125T140000Z".into(),
            };
            created.append(&test).unwrap();
        }
        (named, other)
    }

    /// The username and password fields of each request a stand-in received.
    fn credentials_sent(stand_in: &StandIn) -> Vec<(Option<String>, Option<String>)> {
        let field = |request: &stand_in::Request, name: &str| request.field(name).map(str::to_string);
        stand_in.requests().iter().map(|request| (field(request, "username"), field(request, "password"))).collect()
    }

    #[test]
    fn status_sends_credentials_to_no_server_but_the_named_one() {
        let (results, lab) = results_folder("status-credentials");
        let (named, other) = two_servers_with_a_test_each(&lab, &results);
        let server = ServerArgs {
            server: Some(named.url.clone()),
            username: Some("lab".into()),
            password: Some("secret".into()),
        };
        status(&lab, &StatusArgs { tests: Vec::new(), server: server.clone() }).unwrap();
        let with = (Some("lab".to_string()), Some("secret".to_string()));
        // Both tests are read: the info and the results of each.
        assert_eq!(credentials_sent(&named), [with.clone(), with]);
        assert_eq!(credentials_sent(&other), [(None, None), (None, None)]);
        let summary = std::fs::read_to_string(runs_of(&results, STATUS_COMMAND)[0].join("summary.md")).unwrap();
        assert_eq!(summary.matches("| running | 10.0+0.10 | 64 |").count(), 2, "{summary}");
        assert!(
            summary.contains(&format!(
                "Note: test 42 is on {}, not on the server --server names ({}): read without credentials.",
                other.url, named.url
            )),
            "{summary}"
        );
        // No server named: the credentials go nowhere.
        let unnamed = ServerArgs { server: None, ..server };
        status(&lab, &StatusArgs { tests: Vec::new(), server: unnamed }).unwrap();
        assert_eq!(credentials_sent(&named)[2..], [(None, None), (None, None)]);
        assert_eq!(credentials_sent(&other)[2..], [(None, None), (None, None)]);
        std::fs::remove_dir_all(&results).unwrap();
    }

    #[test]
    fn a_remote_becomes_the_github_address_openbench_accepts() {
        for remote in [
            "https://github.com/someone/prunelab",
            "https://github.com/someone/prunelab.git",
            "git@github.com:someone/prunelab.git",
        ] {
            assert_eq!(github_address(remote).as_deref(), Some("https://github.com/someone/prunelab"), "{remote}");
        }
        assert_eq!(github_address("https://gitlab.com/someone/prunelab"), None);
        assert_eq!(github_address("/work/main"), None);
    }

    #[test]
    fn a_variant_is_planned_from_its_sprt_against_its_parent() {
        let lab = Lab::for_tests();
        let plan = TestPlan::of(&lab, "razor-r1").unwrap();
        assert_eq!(
            plan,
            TestPlan {
                variant: "razor-r1".into(),
                parent: "p003-3".into(),
                bounds: (0.0, 5.0),
                tc: "10+0.1".into(),
                hash_mb: 8
            }
        );
        assert_eq!(plan.dev_options(), "Threads=1 Hash=8 Variant=razor-r1");
        assert_eq!(plan.base_options(), "Threads=1 Hash=8 Variant=p003-3");
        assert!(TestPlan::of(&lab, "probcut").unwrap_err().to_string().contains("variants/probcut.toml has no [sprt]"));
        assert!(TestPlan::of(&lab, "baseline").unwrap_err().to_string().contains("no parent"));
    }
}
