//! `lab openbench --spsa VARIANT --param NAME ...`: an OpenBench SPSA tune
//! of a variant's tunables, created with the fields of OpenBench's create
//! page for a tune (`/tune/new/`: `Templates/OpenBench/create_workload.html`,
//! `verify_tune_creation` in `OpenBench/workloads/verify_workload.py`,
//! `create_new_tune` in `create_workload.py` and `create_spsa_run` in
//! `spsa_utils.py`); `--dry-run` prints them. `lab openbench status` reads
//! the tune's current values back.
//!
//! A tune has one engine. A worker builds it with plain `make`, so the
//! tuned commit's Makefile must make the variant's tuning build its default
//! (`VARIANT ?= p002-1.5` and `FEATURES ?= tune`): the lab builds the
//! commit as a worker does and refuses a build that is not that variant
//! or does not offer the parameters as UCI options (the workers would send
//! options nobody reads). The parameters' lines and defaults are `lab
//! tune`'s, from the lab's own tuning build of the variant; the bench and
//! the expected nps are the worker's build's, its hash the lab's.

use std::fmt::Write;

use anyhow::{bail, Context, Result};
use clap::Args;
use serde::{Deserialize, Serialize};

use super::build::{bench_and_nps, openbench_bench, worker_build};
use super::create::{commit, repository};
use super::status::created_tunes;
use super::{closing_fields, Build, OpenbenchArgs, DEFAULT_HASH_MB};
use crate::engines::builder;
use crate::lab::Lab;
use crate::tune::spsa_update::{Parameter, Schedule};
use crate::tune::tuning_build;
use games::engine::Engine;
use games::results::{read_records, timestamp, RunDir};

/// The run folders of created tunes.
pub(super) const TUNES_COMMAND: &str = "openbench-tunes";
/// OpenBench's defaults on its tune page.
const DEFAULT_ITERATIONS: u64 = 25_000;
const DEFAULT_PAIRS_PER: u64 = 8;
/// The time control of a tune without --tc: the plans' fixed-node setting.
const DEFAULT_TUNE_TC: &str = "N=10000";

#[derive(Args, Clone, Debug, Serialize)]
pub struct SpsaTestArgs {
    /// An SPSA tune of this variant's tunables instead of tests (with --param).
    #[arg(long = "spsa", value_name = "VARIANT", requires = "params")]
    pub variant: Option<String>,
    /// A tunable to tune, as `lab tune --param` takes it.
    #[arg(long = "param", id = "params", value_name = "NAME[:start,min,max,c_end,r_end]", requires = "variant")]
    pub params: Vec<String>,
    /// The tune's iterations.
    #[arg(long, default_value_t = DEFAULT_ITERATIONS, value_name = "N")]
    pub spsa_iterations: u64,
    /// Game pairs per iteration.
    #[arg(long, default_value_t = DEFAULT_PAIRS_PER, value_name = "N")]
    pub spsa_pairs_per: u64,
}

/// No tune: tests, as without `--spsa`.
impl Default for SpsaTestArgs {
    fn default() -> Self {
        SpsaTestArgs {
            variant: None,
            params: Vec::new(),
            spsa_iterations: DEFAULT_ITERATIONS,
            spsa_pairs_per: DEFAULT_PAIRS_PER,
        }
    }
}

/// A tune `lab openbench --spsa` created: one line of an `openbench-tunes` run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CreatedTune {
    pub server: String,
    pub tune_id: u64,
    pub url: String,
    pub variant: String,
    /// As sent, one `spsa_inputs` line each.
    pub parameters: Vec<Parameter>,
    pub iterations: u64,
    pub pairs_per: u64,
    pub tc: String,
    pub build: Build,
    pub info: String,
    pub created: String,
}

/// `lab openbench --spsa`: the tune's fields printed (`--dry-run`), or the
/// tune created on the server and recorded under `lab-results/`.
pub fn command(lab: &Lab, args: &OpenbenchArgs, variant: &str) -> Result<()> {
    if args.dry_run {
        return dry_run(lab, args, variant);
    }
    // The address and the credentials are checked before the build.
    let server = super::server(&args.server)?;
    let (commit, repo) = (commit(lab, args)?, repository(lab, args)?);
    // The parameters' lines as `lab spsa` prints them: the variant's own
    // tuning build declares the variant's values.
    let (_, parameters) = tuning_build(lab, variant, &args.spsa.params)?;
    let engine = engine_name(args);
    let binary = worker_build(lab, &engine, &commit)?;
    check_worker_build(&binary, variant, &parameters, &commit)?;
    let tc = tune_tc(args);
    if !args.again {
        refuse_duplicate(lab, &server.url, &commit, variant, &parameters, &tc, args)?;
    }
    let build = Build::new(engine, (commit, repo), bench_and_nps(lab, args, &binary)?, variant);
    let schedule = Schedule::openbench(args.spsa.spsa_iterations);
    let info = tune_info(variant, &parameters, args, &tc, &format!("{}-{TUNES_COMMAND}", timestamp()));
    let fields = tune_fields(args, &build, &input_lines(&parameters), &schedule, &info);
    let id = server.create_tune(&fields, &info, &build.commit).map_err(|failure| match failure.may_exist {
        true => failure.error.context(format!(
            "{variant}'s tune may exist on the server all the same: look on the user's page for the info `{info}` \
             before creating it again"
        )),
        false => failure.error.context(format!("{variant}'s tune")),
    })?;
    let tune = CreatedTune {
        server: server.url.clone(),
        tune_id: id,
        url: server.page_url(super::server::Kind::Tune, id),
        variant: variant.to_string(),
        parameters,
        iterations: schedule.iterations,
        pairs_per: args.spsa.spsa_pairs_per,
        tc,
        build,
        info,
        created: timestamp(),
    };
    let mut run = RunDir::create(&lab.results_root(), TUNES_COMMAND, args)?;
    run.append(&tune)?;
    let text = tune_markdown(&tune, &fields);
    run.write_summary(&text, &read_records::<CreatedTune>(run.path()))?;
    println!("{text}");
    lab.say(&format!("created: {variant}'s tune: {}\nresults: {}", tune.url, run.path().display()));
    Ok(())
}

/// `--dry-run`: the fields, from the lab's own tuning build of the variant
/// (a worker builds the commit's `make`, which must build the same).
fn dry_run(lab: &Lab, args: &OpenbenchArgs, variant: &str) -> Result<()> {
    let (binary, parameters) = tuning_build(lab, variant, &args.spsa.params)?;
    let output = std::process::Command::new(&binary)
        .arg("bench")
        .output()
        .with_context(|| format!("cannot run {} bench", binary.display()))?;
    let (bench, nps) = openbench_bench(&String::from_utf8_lossy(&output.stdout))
        .with_context(|| format!("{} bench printed no node count and nps", binary.display()))?;
    let measured = (bench, args.nps.unwrap_or(nps), "one `bench` run of the lab's tuning build".to_string());
    let build = Build::new(engine_name(args), (commit(lab, args)?, repository(lab, args)?), measured, variant);
    let tc = tune_tc(args);
    let info = tune_info(variant, &parameters, args, &tc, &format!("{}-{TUNES_COMMAND}", timestamp()));
    let fields =
        tune_fields(args, &build, &input_lines(&parameters), &Schedule::openbench(args.spsa.spsa_iterations), &info);
    for (key, value) in &fields {
        println!("{key}: {}", value.replace('\n', "\n  "));
    }
    lab.say(&format!(
        "dry run: no tune created; the commit's Makefile must build the tuning variant by default:\n  \
         VARIANT ?= {variant}\n  FEATURES ?= tune"
    ));
    Ok(())
}

fn engine_name(args: &OpenbenchArgs) -> String {
    args.engine.clone().unwrap_or_else(|| "prunelab".to_string())
}

fn tune_tc(args: &OpenbenchArgs) -> String {
    args.tc.clone().unwrap_or_else(|| DEFAULT_TUNE_TC.to_string())
}

/// The `spsa_inputs` field: a line a parameter, with no empty last line
/// (OpenBench reads one as a malformed parameter).
fn input_lines(parameters: &[Parameter]) -> String {
    parameters.iter().map(Parameter::input_line).collect::<Vec<_>>().join("\n")
}

/// The line a tune carries as its `info`, by which it is found on the
/// user's page.
fn tune_info(variant: &str, parameters: &[Parameter], args: &OpenbenchArgs, tc: &str, run: &str) -> String {
    let names: Vec<&str> = parameters.iter().map(|parameter| parameter.name.as_str()).collect();
    format!(
        "lab openbench {run}: SPSA of {variant}'s {}, {} iterations of {} pairs at {tc}",
        names.join(", "),
        args.spsa.spsa_iterations,
        args.spsa.spsa_pairs_per
    )
}

/// Checks the build a worker makes at `commit`: it must be `variant`'s
/// tuning build, offering each parameter as a UCI option, or the workers'
/// values would reach no search. (Its declared defaults are not the
/// parameters' start: the variants build declares the union build's, 120
/// for ReverseFutilityDepthMargin where p002-1.5 searches at 90, while a
/// worker sets every parameter's option anyway.)
pub(super) fn check_worker_build(
    binary: &std::path::Path,
    variant: &str,
    parameters: &[Parameter],
    commit: &str,
) -> Result<()> {
    let short = &commit[..commit.len().min(8)];
    let makefile = format!(
        "the commit's Makefile must make {variant}'s tuning build the default:\n  VARIANT ?= {variant}\n  \
         FEATURES ?= tune\ncommit that (and push it), and give the commit with --commit"
    );
    let report = builder::self_report(binary)?;
    if !report.variants.iter().any(|name| name == variant) {
        bail!("make at {short} builds {}, not {variant}: {makefile}", report.variants.join("/"));
    }
    let engine = Engine::start(binary, variant)?;
    if let Some(missing) = parameters.iter().find(|parameter| !engine.offers_option(&parameter.name)) {
        bail!(
            "make at {short} builds {variant} without the `tune` feature: it offers no UCI option `{}`, so the \
             workers' values would reach no search; {makefile}",
            missing.name
        );
    }
    Ok(())
}

/// Refuses a tune that `lab-results/` records as created already: the
/// same server, commit, variant, parameters, schedule and time control.
pub(super) fn refuse_duplicate(
    lab: &Lab,
    server: &str,
    commit: &str,
    variant: &str,
    parameters: &[Parameter],
    tc: &str,
    args: &OpenbenchArgs,
) -> Result<()> {
    let same = |tune: &&CreatedTune| {
        (tune.server.as_str(), tune.build.commit.as_str(), tune.variant.as_str(), tune.tc.as_str())
            == (server, commit, variant, tc)
            && tune.parameters == parameters
            && (tune.iterations, tune.pairs_per) == (args.spsa.spsa_iterations, args.spsa.spsa_pairs_per)
    };
    if let Some(tune) = created_tunes(lab).iter().find(same) {
        bail!(
            "{variant}'s tune at {} is tune {} already ({}, created {}): give --again to create another",
            &commit[..commit.len().min(8)],
            tune.tune_id,
            tune.url,
            tune.created
        );
    }
    Ok(())
}

/// The form fields of OpenBench's tune page, in its order.
pub fn tune_fields(
    args: &OpenbenchArgs,
    build: &Build,
    inputs: &str,
    schedule: &Schedule,
    info: &str,
) -> Vec<(String, String)> {
    [
        ("dev_engine", build.engine.clone()),
        ("dev_repo", build.repo.clone()),
        ("dev_branch", build.commit.clone()),
        ("dev_bench", build.bench.to_string()),
        ("dev_network", String::new()),
        ("dev_options", format!("Threads=1 Hash={DEFAULT_HASH_MB}")),
        ("dev_time_control", tune_tc(args)),
        ("spsa_inputs", inputs.to_string()),
        ("spsa_reporting_type", "BATCHED".to_string()),
        ("spsa_distribution_type", "SINGLE".to_string()),
        ("spsa_alpha", schedule.alpha.to_string()),
        ("spsa_gamma", schedule.gamma.to_string()),
        ("spsa_A_ratio", schedule.a_ratio.to_string()),
        ("spsa_iterations", schedule.iterations.to_string()),
        ("spsa_pairs_per", args.spsa.spsa_pairs_per.to_string()),
        ("book_name", args.book.clone()),
        ("upload_pgns", "FALSE".to_string()),
        ("priority", args.priority.to_string()),
        ("throughput", args.throughput.to_string()),
    ]
    .into_iter()
    .chain(closing_fields(build.nps, info))
    .map(|(key, value)| (key.to_string(), value))
    .collect()
}

/// A created tune's summary: what it is and every field sent.
fn tune_markdown(tune: &CreatedTune, fields: &[(String, String)]) -> String {
    let mut out = String::new();
    let short = &tune.build.commit[..tune.build.commit.len().min(8)];
    writeln!(out, "# OpenBench tune {}: {} at {short}\n", tune.tune_id, tune.variant).unwrap();
    writeln!(
        out,
        "{}: SPSA of {}'s tuning build (`make` at commit {} of {}), bench {}, expected nps {} ({}); {} iterations \
         of {} game pairs at {}.\n",
        tune.url,
        tune.variant,
        tune.build.commit,
        tune.build.repo,
        tune.build.bench,
        tune.build.nps,
        tune.build.nps_source,
        tune.iterations,
        tune.pairs_per,
        tune.tc
    )
    .unwrap();
    writeln!(out, "The fields sent (with the login's `csrfmiddlewaretoken`):\n\n```").unwrap();
    for (key, value) in fields {
        writeln!(out, "{key} = {}", value.replace('\n', "\n  ")).unwrap();
    }
    writeln!(out, "```\n\n`lab openbench status` reads its values back.").unwrap();
    out
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Wrapper {
        #[command(flatten)]
        args: OpenbenchArgs,
    }

    #[test]
    fn tune_fields_are_openbenchs_tune_page() {
        let args =
            Wrapper::parse_from(["openbench", "--spsa", "p002-1.5", "--param", "ReverseFutilityDepthMargin"]).args;
        assert_eq!(args.spsa.variant.as_deref(), Some("p002-1.5"));
        let build = Build {
            engine: "prunelab".into(),
            repo: "https://github.com/o/r".into(),
            commit: "abc".into(),
            bench: 7357031,
            nps: 3_000_000,
            nps_source: "--nps".into(),
            bench_variant: "p002-1.5".into(),
            bench_source: String::new(),
            base: None,
        };
        let inputs = "ReverseFutilityDepthMargin, int, 90, 50, 200, 10, 0.002";
        let fields = tune_fields(&args, &build, inputs, &Schedule::openbench(25_000), "lab tune of p002-1.5");
        let text: Vec<String> = fields.iter().map(|(key, value)| format!("{key}={value}")).collect();
        assert_eq!(
            text.join(" | "),
            "dev_engine=prunelab | dev_repo=https://github.com/o/r | dev_branch=abc | dev_bench=7357031 | \
             dev_network= | dev_options=Threads=1 Hash=16 | dev_time_control=N=10000 | \
             spsa_inputs=ReverseFutilityDepthMargin, int, 90, 50, 200, 10, 0.002 | spsa_reporting_type=BATCHED | \
             spsa_distribution_type=SINGLE | spsa_alpha=0.602 | spsa_gamma=0.101 | spsa_A_ratio=0.1 | \
             spsa_iterations=25000 | spsa_pairs_per=8 | book_name=UHO_4060_v2.epd | upload_pgns=FALSE | \
             priority=0 | throughput=1000 | syzygy_wdl=DISABLED | syzygy_adj=OPTIONAL | \
             win_adj=movecount=3 score=400 | draw_adj=movenumber=40 movecount=8 score=10 | scale_method=BASE | \
             scale_nps=3000000 | info=lab tune of p002-1.5"
        );
        assert!(Wrapper::try_parse_from(["openbench", "--spsa", "p002-1.5"]).is_err(), "--spsa needs --param");
    }
}
