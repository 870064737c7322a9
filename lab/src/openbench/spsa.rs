//! `lab openbench --spsa VARIANT --param NAME ... --dry-run`: an OpenBench
//! SPSA tune of a variant's tunables, as the fields of OpenBench's create
//! page for a tune (`/tune/new/`: `Templates/OpenBench/create_workload.html`
//! and `verify_tune_creation` in `OpenBench/workloads/verify_workload.py`).
//!
//! A tune has one engine. A worker builds it with plain `make`, so the
//! tuned commit's Makefile must make the variant's tuning build its default
//! (`VARIANT ?= p002-1.5` and `FEATURES ?= tune`); the bench and the
//! expected nps are those of the lab's own tuning build of the variant
//! (`lab tune` plays the same binary), its hash the lab's. The parameters'
//! lines and defaults are `lab tune`'s.

use anyhow::{bail, Context, Result};
use clap::Args;
use serde::Serialize;

use super::build::openbench_bench;
use super::create::{commit, repository};
use super::{closing_fields, OpenbenchArgs};
use crate::lab::Lab;
use crate::tune::spsa::Schedule;
use crate::tune::tuning_build;

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

/// `lab openbench --spsa`: the tune's fields; only as a dry run for now.
pub fn command(lab: &Lab, args: &OpenbenchArgs, variant: &str) -> Result<()> {
    if !args.dry_run {
        bail!("--spsa creates no tune yet: give --dry-run and enter the fields on the server's /tune/new/ page");
    }
    let (binary, parameters) = tuning_build(lab, variant, &args.spsa.params)?;
    let output = std::process::Command::new(&binary)
        .arg("bench")
        .output()
        .with_context(|| format!("cannot run {} bench", binary.display()))?;
    let (bench, nps) = openbench_bench(&String::from_utf8_lossy(&output.stdout))
        .with_context(|| format!("{} bench printed no node count and nps", binary.display()))?;
    let schedule = Schedule::openbench(args.spsa.spsa_iterations);
    let inputs: Vec<String> = parameters.iter().map(|parameter| parameter.input_line()).collect();
    let fields = tune_fields(
        args,
        &TuneBuild {
            repo: repository(lab, args)?,
            commit: commit(lab, args)?,
            bench,
            nps,
            hash: super::DEFAULT_HASH_MB,
        },
        &inputs.join("\n"),
        &schedule,
        &format!("lab tune of {variant}"),
    );
    for (key, value) in &fields {
        println!("{key}: {}", value.replace('\n', "\n  "));
    }
    lab.say(&format!(
        "dry run: no tune created; the commit's Makefile must build the tuning variant by default:\n  \
         VARIANT ?= {variant}\n  FEATURES ?= tune"
    ));
    Ok(())
}

/// What the fields need from the build.
pub struct TuneBuild {
    pub repo: String,
    pub commit: String,
    pub bench: u64,
    pub nps: u64,
    pub hash: u32,
}

/// The form fields of OpenBench's tune page, in its order.
pub fn tune_fields(
    args: &OpenbenchArgs,
    build: &TuneBuild,
    inputs: &str,
    schedule: &Schedule,
    info: &str,
) -> Vec<(String, String)> {
    let tc = args.tc.clone().unwrap_or_else(|| DEFAULT_TUNE_TC.to_string());
    [
        ("dev_engine", args.engine.clone().unwrap_or_else(|| "prunelab".to_string())),
        ("dev_repo", build.repo.clone()),
        ("dev_branch", build.commit.clone()),
        ("dev_bench", build.bench.to_string()),
        ("dev_network", String::new()),
        ("dev_options", format!("Threads=1 Hash={}", build.hash)),
        ("dev_time_control", tc),
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
        let build = TuneBuild {
            repo: "https://github.com/o/r".into(),
            commit: "abc".into(),
            bench: 7357031,
            nps: 3_000_000,
            hash: 16,
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
