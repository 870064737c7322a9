//! The build every test of a commit shares, as an OpenBench worker makes
//! it (`make` on the commit's files, `engines::builder::make_at_commit`),
//! with the bench both sides carry and the expected nps. Another engine is
//! not built here: its bench and nps come from its binary's `bench`, read
//! as a worker reads it, or from `--bench` and `--nps`.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use games::engine::Launch;

use super::create::{github_address, repository};
use super::{BaseBuild, Build, OpenbenchArgs, OtherEngine, TestPlan};
use crate::engines::commits::{self, Built, CommitBuild};
use crate::engines::participant;
use crate::engines::{abilities, builder};
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
    let engine = args.engine.clone().unwrap_or_else(|| "prunelab".to_string());
    let binary = worker_build(lab, &engine, &commit)?;
    let report = builder::self_report(&binary)?;
    let names: Vec<&str> = plans.iter().flat_map(|plan| [plan.variant.as_str(), plan.parent.as_str()]).collect();
    if let Some(missing) = names.iter().find(|name| !report.selectable.iter().any(|known| known == *name)) {
        bail!(
            "make at {} does not build the variants build with `{missing}` (a FEATURES line in its Makefile \
             builds one feature set, without the Variant option)",
            &commit[..8]
        );
    }
    Ok(Build::new(engine, (commit, repo), bench_and_nps(lab, args, &binary)?, &report.variants.join("/")))
}

/// The binary `make` builds at `commit`, as a worker builds it and names
/// it (`<engine>-<SHA8>`), kept for every later test of the commit.
pub(super) fn worker_build(lab: &Lab, engine: &str, commit: &str) -> Result<PathBuf> {
    let folder = lab.target_dir().join("lab").join("openbench");
    let binary = folder.join(format!("{engine}-{}", commit[..8].to_uppercase()));
    builder::make_at_commit(lab, commit, &folder, &binary)?;
    Ok(binary)
}

/// `binary`'s bench as a worker runs it, `--bench-runs` times (once with
/// `--nps`): its node count, which must not change from run to run, and
/// the nps sent (the runs' median, or `--nps`) with where it came from.
pub(super) fn bench_and_nps(lab: &Lab, args: &OpenbenchArgs, binary: &Path) -> Result<(u64, u64, String)> {
    let runs = if args.nps.is_some() { 1 } else { args.bench_runs.max(1) };
    lab.say(&format!("bench: {runs} run(s) of {}", binary.display()));
    let mut benches = Vec::new();
    for _ in 0..runs {
        benches.push(bench(binary)?);
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
    Ok((benches[0].0, nps, nps_source))
}

/// The repository and commit of another engine's tests: `--repo` and
/// `--commit`, else what its variant files say, one of each for every test.
pub(super) fn other_engine_source(
    args: &OpenbenchArgs,
    plans: &[TestPlan],
    other: &OtherEngine,
) -> Result<(String, String)> {
    let known = |flag: &Option<String>, key: &str, field: fn(&OtherEngine) -> &Option<String>| -> Result<String> {
        if let Some(given) = flag {
            return Ok(given.clone());
        }
        let mut values: Vec<&String> = Vec::new();
        for plan in plans {
            let Some(value) = plan.other_engine.as_ref().and_then(|other| field(other).as_ref()) else {
                bail!(
                    "`{}` is a variant of engine `{}`, and its files give no `{key}` for OpenBench's workers: add \
                     `{key} = ...` to {} or a parent's file, or give --{}",
                    plan.variant,
                    other.engine,
                    plan.file,
                    if key == "repository" { "repo" } else { key }
                );
            };
            if !values.contains(&value) {
                values.push(value);
            }
        }
        match values[..] {
            [value] => Ok(value.clone()),
            _ => bail!(
                "the variants give {} `{key}`s ({}): one command tests one, given with --{}",
                values.len(),
                values.iter().map(|value| value.as_str()).collect::<Vec<_>>().join(", "),
                if key == "repository" { "repo" } else { key }
            ),
        }
    };
    let remote = known(&args.repo, "repository", |other| &other.repository)?;
    let repo = github_address(&remote).with_context(|| {
        format!("{remote}: OpenBench downloads sources from https://github.com/OWNER/REPO only; give --repo")
    })?;
    Ok((repo, known(&args.commit, "commit", |other| &other.commit)?))
}

/// Another engine's tests' build: its repository and commit, its name on
/// the server, and the bench and nps of its binary, whose options for each
/// side are checked against what it offers first. The binary is the one
/// `--engine-path` gives, else, where the bench or nps is not given
/// (`--bench`, `--nps`) or a fixed-nodes test must ask it, the commit built
/// from the repository its files name. A test of two commits (a commit
/// variant against its parent's commit) builds and benches each.
pub(super) fn other_engine_build(
    lab: &Lab,
    args: &OpenbenchArgs,
    plans: &[TestPlan],
    other: &OtherEngine,
) -> Result<Build> {
    let (repo, mut commit) = other_engine_source(args, plans, other)?;
    let engine = args.engine.clone().unwrap_or_else(|| other.engine.clone());
    if let Some(base_commit) = base_commit(args, plans, &commit)? {
        return two_commit_build(lab, args, plans, other, (engine, repo), (commit, base_commit));
    }
    let fixed_nodes = plans.iter().find(|plan| plan.tc.starts_with("N="));
    let needed = fixed_nodes.is_some() || args.bench.is_none() || args.nps.is_none();
    let binary = match lab.engine_path(&other.engine)? {
        Some(_) => Some(lab.engine_binary(&other.engine, &plans[0].variant)?),
        None if needed && args.commit.is_none() && other.repository.is_some() => {
            let built = built(lab, plans, other, &commit)?;
            commit = built.commit;
            Some(built.binary)
        }
        None => None,
    };
    if let Some(binary) = &binary {
        for plan in plans {
            let sides =
                plan.other_engine.iter().flat_map(|other| [(&plan.variant, &other.dev), (&plan.parent, &other.base)]);
            for (name, settings) in sides {
                participant::handshake(&Launch { binary: binary.clone(), settings: settings.clone() }, name)?;
            }
        }
    }
    if let Some(plan) = fixed_nodes {
        stops_at_go_nodes(binary.as_deref(), &other.engine, &plan.tc)?;
    }
    let (bench, bench_source, nps, nps_source) = match (args.bench, args.nps, &binary) {
        (Some(bench), Some(nps), _) => (bench, "--bench".to_string(), nps, "--nps".to_string()),
        (_, _, None) => bail!(
            "engine `{}`'s bench and nps for OpenBench: give its binary with --engine-path {}=PATH (its `bench` \
             prints them), or --bench N and --nps N",
            other.engine,
            other.engine
        ),
        (bench_given, nps_given, Some(binary)) => {
            let runs = if nps_given.is_some() { 1 } else { args.bench_runs.max(1) };
            let benches = other_engine_benches(lab, binary, runs)?;
            let bench = match bench_given {
                Some(bench) => (bench, "--bench".to_string()),
                None => (benches[0].0, format!("`bench` of {}", binary.display())),
            };
            let (nps, nps_source) = median_nps(args, &benches);
            (bench.0, bench.1, nps, nps_source)
        }
    };
    Ok(Build { bench_source, ..Build::new(engine, (commit, repo), (bench, nps, nps_source), "its default options") })
}

/// The base side's commit where it is not the dev side's, one for every
/// test; `--commit`, which makes both sides one commit, is then refused.
fn base_commit(args: &OpenbenchArgs, plans: &[TestPlan], commit: &str) -> Result<Option<String>> {
    let bases: Vec<Option<&String>> =
        plans.iter().map(|plan| plan.other_engine.as_ref().and_then(|other| other.base_commit.as_ref())).collect();
    let Some(plan) = plans.iter().zip(&bases).find_map(|(plan, base)| base.map(|_| plan)) else { return Ok(None) };
    if args.commit.is_some() {
        bail!(
            "`{}` is at another commit than its parent `{}`: --commit would make both sides one commit; leave it out",
            plan.variant,
            plan.parent
        );
    }
    if bases.iter().any(|base| *base != bases[0]) {
        bail!("the variants' parents are at several commits: one command tests one pair of commits");
    }
    let base = bases[0].expect("every base is the first's").clone();
    Ok(Some(base).filter(|base| base != commit))
}

/// A test of two commits: each built from the repository the files name,
/// each side's options checked on its own build, each benched; the nps
/// the base side's, which OpenBench's BASE scaling reads.
fn two_commit_build(
    lab: &Lab,
    args: &OpenbenchArgs,
    plans: &[TestPlan],
    other: &OtherEngine,
    (engine, repo): (String, String),
    (commit, base_commit): (String, String),
) -> Result<Build> {
    if let Some((given, _)) = lab.engine_path(&other.engine)? {
        bail!(
            "{given} gives one binary, and `{}` and its parent are two commits ({} and {}): leave it out, and the lab \
             builds each from the repository the variant files name",
            plans[0].variant,
            &commit[..commit.len().min(8)],
            &base_commit[..base_commit.len().min(8)]
        );
    }
    if args.bench.is_some() {
        bail!("--bench gives one bench, and the two sides are two commits with a bench each: leave it out");
    }
    if other.repository.is_none() {
        bail!(
            "`{}` and its parent are two commits of engine `{}`, and its files name no `repository` to build them \
             from: add one (an address or a local clone; --repo only names what the workers download)",
            plans[0].variant,
            other.engine
        );
    }
    // The full hashes the workers check out, whatever the files wrote.
    let (dev, base) = (built(lab, plans, other, &commit)?, built(lab, plans, other, &base_commit)?);
    let (dev, commit, base, base_commit) = (dev.binary, dev.commit, base.binary, base.commit);
    for plan in plans {
        let Some(sides) = &plan.other_engine else { continue };
        for (name, binary, settings) in [(&plan.variant, &dev, &sides.dev), (&plan.parent, &base, &sides.base)] {
            participant::handshake(&Launch { binary: binary.clone(), settings: settings.clone() }, name)?;
        }
        if plan.tc.starts_with("N=") {
            stops_at_go_nodes(Some(&dev), &other.engine, &plan.tc)?;
            stops_at_go_nodes(Some(&base), &other.engine, &plan.tc)?;
        }
    }
    let dev_benches = other_engine_benches(lab, &dev, 1)?;
    let base_runs = if args.nps.is_some() { 1 } else { args.bench_runs.max(1) };
    let base_benches = other_engine_benches(lab, &base, base_runs)?;
    let (nps, nps_source) = median_nps(args, &base_benches);
    let mut build = Build::new(engine, (commit, repo), (dev_benches[0].0, nps, nps_source), "its default options");
    build.bench_source = format!("`bench` of {}", dev.display());
    build.base = Some(BaseBuild {
        commit: base_commit,
        bench: base_benches[0].0,
        bench_source: format!("`bench` of {}", base.display()),
    });
    Ok(build)
}

/// `commit` of the engine the plans test, built from the repository its
/// files name with their build command (`engines::commits`).
fn built(lab: &Lab, plans: &[TestPlan], other: &OtherEngine, commit: &str) -> Result<Built> {
    let repository = other.repository.as_deref().expect("the callers checked the files name one");
    let external = lab.external(&plans[0].variant).expect("another engine's plan is of its variant");
    commits::built(lab, &CommitBuild { engine: &other.engine, repository, commit, build: &external.build })
}

/// `runs` runs of `binary`'s `bench`, each read as a worker reads it, their
/// node count the same every time.
fn other_engine_benches(lab: &Lab, binary: &Path, runs: usize) -> Result<Vec<(u64, u64)>> {
    lab.say(&format!("bench: {runs} run(s) of {}", binary.display()));
    let mut benches = Vec::new();
    for _ in 0..runs {
        let what = format!("{} bench", binary.display());
        let output = run_command(Command::new(binary).arg("bench"), &what)?;
        benches.push(openbench_bench(&output).with_context(|| {
            format!("{what} printed no `<N> nodes` and `<N> nps` as OpenBench reads them: give --bench and --nps")
        })?);
    }
    if let Some((nodes, _)) = benches.iter().find(|(nodes, _)| *nodes != benches[0].0) {
        bail!("{} bench is not deterministic: {} and {nodes} nodes", binary.display(), benches[0].0);
    }
    Ok(benches)
}

/// `--nps`, else the median of the benches' nps, with where it came from.
fn median_nps(args: &OpenbenchArgs, benches: &[(u64, u64)]) -> (u64, String) {
    match args.nps {
        Some(nps) => (nps, "--nps".to_string()),
        None => {
            let mut speeds: Vec<u64> = benches.iter().map(|(_, nps)| *nps).collect();
            speeds.sort_unstable();
            let source = format!(
                "the median of {} `bench` runs on this machine, {} to {}",
                speeds.len(),
                speeds[0],
                speeds[speeds.len() - 1]
            );
            (speeds[speeds.len() / 2], source)
        }
    }
}

/// A fixed-nodes test (`tc` `N=...`) measures something only if the engine
/// stops at `go nodes`; one that searches on until `stop` (SeaJay
/// v20251002) would make every game a time-out on the workers. So the
/// binary is asked once, and a test it cannot be asked about is refused.
fn stops_at_go_nodes(binary: Option<&Path>, engine: &str, tc: &str) -> Result<()> {
    let Some(binary) = binary else {
        bail!(
            "a fixed-nodes test (--tc {tc}) of engine `{engine}` needs its binary, to check that it stops at \
             `go nodes`: give --engine-path {engine}=PATH, or the `repository` its commit is built from in its files"
        );
    };
    if let Some(why) = abilities::go_nodes_refusal(&Launch::from(binary.to_path_buf()), engine)? {
        bail!(
            "engine {why} ({}), so a fixed-nodes test (--tc {tc}) would not measure what it says: give a time \
             control such as --tc 10+0.1",
            binary.display()
        );
    }
    Ok(())
}

/// The bench and nps an OpenBench worker reads from an engine's `bench`
/// (its `Client/bench.py`): the lines from the last, each with its
/// non-alphanumerics as spaces, and in each the first `<N> nodes`, `nodes
/// <N>` or `nodes searched <N>`, and `<N> nps`, `nps <N>` or `nodes second
/// <N>`, any case; the first found of each is kept.
pub fn openbench_bench(output: &str) -> Option<(u64, u64)> {
    let (mut bench, mut nps) = (None, None);
    for line in output.lines().rev() {
        let cleaned: String = line.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { ' ' }).collect();
        // Stockfish's `Nodes searched  : N` and `Nodes/second    : N`.
        let cleaned = cleaned.split_whitespace().collect::<Vec<_>>().join(" ").to_ascii_lowercase();
        let cleaned = cleaned.replace("nodes second ", "nps ").replace("nodes searched ", "nodes ");
        let words: Vec<&str> = cleaned.split(' ').collect();
        let find = |label: &str| {
            words.windows(2).find_map(|pair| match (pair[0].parse::<u64>(), pair[1].parse::<u64>()) {
                (Ok(number), _) if pair[1] == label => Some(number),
                (_, Ok(number)) if pair[0] == label => Some(number),
                _ => None,
            })
        };
        bench = bench.or_else(|| find("nodes"));
        nps = nps.or_else(|| find("nps"));
        if let (Some(bench), Some(nps)) = (bench, nps) {
            return Some((bench, nps));
        }
    }
    None
}

/// One `bench` run: its node count and nps, from its last line.
fn bench(binary: &Path) -> Result<(u64, u64)> {
    let what = format!("{} bench", binary.display());
    let output = run_command(Command::new(binary).arg("bench"), &what)?;
    parse_bench_line(&output).with_context(|| what)
}
