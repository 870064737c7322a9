//! The build every test of a commit shares, as an OpenBench worker makes
//! it (`make` on the commit's files, `engines::builder::make_at_commit`),
//! with the bench both sides carry and the expected nps.

use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};

use super::create::repository;
use super::{Build, OpenbenchArgs, TestPlan};
use crate::engines::builder;
use crate::lab::Lab;
use crate::measure::speed::parse_bench_line;
use crate::tools::{git, run_command};

/// The commit built and benched as a worker builds and benches it: the
/// bench both sides carry and the expected nps.
pub(super) fn build(lab: &Lab, args: &OpenbenchArgs, plans: &[TestPlan], commit: String) -> Result<Build> {
    let repo = repository(lab, args)?;
    // The plans come from the working tree's variant files; the engine
    // from the commit's.
    if !git(&lab.root, &["diff", "--name-only", &commit, "--", "variants"])?.is_empty() {
        bail!("variants/ differs from commit {commit}: commit it (and push it), or give --commit");
    }
    let folder = lab.target_dir().join("lab").join("openbench");
    let binary = folder.join(format!("{}-{}", args.engine, commit[..8].to_uppercase()));
    builder::make_at_commit(lab, &commit, &folder, &binary)?;
    let report = builder::self_report(&binary)?;
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

/// One `bench` run: its node count and nps, from its last line.
fn bench(binary: &Path) -> Result<(u64, u64)> {
    let what = format!("{} bench", binary.display());
    let output = run_command(Command::new(binary).arg("bench"), &what)?;
    parse_bench_line(&output).with_context(|| what)
}
