//! `lab speed A B ...`: the bench speed (nodes per second) of variants
//! against each other. Each variant's own binary runs `prunelab bench [D]`
//! as a process, one at a time, never two at once. In each round every
//! variant runs once, back to back, in the given order and then reversed,
//! alternating from one round to the next, so whatever the machine does
//! meanwhile (another build, a match, a clock change) falls on all alike
//! and no variant always goes first.
//!
//! A run's speed is what bench prints on its last line, `Bench: <nodes>
//! nodes <nps> nps`: its nodes over its summed search time, without the
//! process's start. B against A is the geometric mean over rounds of the
//! per-round ratio of B's nps over A's (`crate::measure::ratio`), with its 95%
//! Student-t interval over rounds (each round is fresh processes, so the
//! rounds are independent, and few: a bootstrap over them was too narrow):
//! pairing by round cancels the machine's slow and fast spells. The same bench of the same binary must always
//! search the same nodes, so a variant whose runs report different node
//! counts is flagged: that is a bug in the engine.
//!
//! nps counts every node, and a quiescence node costs a fraction of a
//! main-search one (it generates captures only, and most stand pat). So a
//! pruning change that removes mostly the cheap nodes and their parents
//! lowers nps with no extra cost per node of either kind. Bench runs
//! with `--stats`, whose `nodes: total= qs=` line gives each variant's
//! share of quiescence nodes (the same on every run), and the page shows
//! the ratio a second way, counting main-search nodes only (each with its
//! quiescence below it). When B's nodes are fewer quiescence nodes than
//! A's, B's speed per node, were its cost per node of each kind the same
//! multiple of A's, lies between the two ratios.
//!
//! Only variants take part: a UCI engine has no `bench`, and its speed
//! over other positions would say nothing about ours.

use std::fmt::Write;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use games::results::print_summary;
use serde::{Deserialize, Serialize};

use crate::engines::builder;
use crate::engines::participant::Participant;
use crate::lab::table::Table;
use crate::lab::Lab;
use crate::measure::ratio::{median, student_ratio, RatioEstimate};
use crate::measure::runner::RunArgs;
use crate::measure::suites;

/// A bench at the default depth takes seconds; this only catches a hung engine.
const BENCH_TIMEOUT: Duration = Duration::from_secs(600);

/// Rounds when not given: enough for the interval over rounds to be narrow
/// on a quiet machine, in about a minute a variant at the default depth.
pub const DEFAULT_ROUNDS: usize = 9;

#[derive(Args, Clone, Debug, Serialize)]
pub struct SpeedArgs {
    /// Variant names, the reference first (a `uci:` engine has no `bench`).
    #[arg(required = true, num_args = 2..)]
    pub variants: Vec<String>,
    /// Rounds: each variant runs bench this many times.
    #[arg(long, default_value_t = DEFAULT_ROUNDS)]
    pub rounds: usize,
    /// The depth passed to `prunelab bench`; without it, bench's own default.
    #[arg(long)]
    pub depth: Option<u32>,
    /// The cargo profile the variants are built with, kept in `run.json`:
    /// a resumed run must time the same builds.
    #[arg(skip = builder::build_profile())]
    pub build_profile: String,
    /// Continue a run: its folder, or the latest `speed` run.
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = "latest")]
    #[serde(skip)]
    pub resume: Option<String>,
}

/// One bench run of one variant in one round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpeedRecord {
    pub round: usize,
    /// The variant's index in the arguments.
    pub engine: usize,
    pub variant: String,
    /// What the `Bench:` line says (0 when the run failed).
    pub nodes: u64,
    pub nps: u64,
    /// Of `nodes`, the quiescence nodes, from bench's `--stats` line (none
    /// in runs recorded before the lab asked for it).
    #[serde(default)]
    pub qnodes: Option<u64>,
    /// Wall time of the whole process, from its start to its exit, in microseconds.
    pub wall_us: u64,
    /// CPU time of the whole process (user and system, its start
    /// included), in microseconds: what it cost whatever else the machine
    /// ran; none in runs recorded before the lab measured it.
    #[serde(default)]
    pub cpu_us: Option<u64>,
    /// Why the run failed, when it did (its nodes and nps then do not count).
    pub error: Option<String>,
}

/// The order `engines` variants run in during `round`: as given in even
/// rounds, reversed in odd ones (`lab ttd`'s order, with one position).
pub fn run_order(engines: usize, round: usize) -> Vec<usize> {
    crate::measure::ttd::search_order(engines, round, 0)
}

/// The nodes and nps of bench's output, read from its last line, which must
/// be exactly `Bench: <nodes> nodes <nps> nps`.
pub fn parse_bench_line(stdout: &str) -> Result<(u64, u64)> {
    let Some(last) = stdout.lines().last() else {
        bail!("bench printed nothing");
    };
    let words: Vec<&str> = last.split(' ').collect();
    match words[..] {
        ["Bench:", nodes, "nodes", nps, "nps"] => match (nodes.parse(), nps.parse()) {
            (Ok(nodes), Ok(nps)) => Ok((nodes, nps)),
            _ => bail!("bench's last line has no numbers where `Bench: <nodes> nodes <nps> nps` has them: `{last}`"),
        },
        _ => bail!("bench's last line is not `Bench: <nodes> nodes <nps> nps`: `{last}`"),
    }
}

/// What one bench run printed: its `Bench:` line, and the quiescence nodes
/// of its `nodes: total=<nodes> qs=<qnodes> ...` counters line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchOutput {
    pub nodes: u64,
    pub nps: u64,
    /// `None` when bench printed no counters line.
    pub qnodes: Option<u64>,
}

/// Reads a `bench --stats` output: the `Bench:` line (`parse_bench_line`)
/// and the counters line of the nodes, whose total must be the same.
pub fn parse_bench_output(stdout: &str) -> Result<BenchOutput> {
    let (nodes, nps) = parse_bench_line(stdout)?;
    let Some(counters) = stdout.lines().find(|line| line.starts_with("nodes: total=")) else {
        return Ok(BenchOutput { nodes, nps, qnodes: None });
    };
    let field = |name: &str| {
        counters.split(' ').find_map(|word| word.strip_prefix(name)).and_then(|value| value.parse::<u64>().ok())
    };
    match (field("total="), field("qs=")) {
        (Some(total), Some(qnodes)) if total == nodes && qnodes <= total => {
            Ok(BenchOutput { nodes, nps, qnodes: Some(qnodes) })
        }
        (Some(total), Some(_)) if total != nodes => {
            bail!("bench's counters count {total} nodes and its Bench line {nodes}: `{counters}`")
        }
        _ => bail!("bench's counters line is not `nodes: total=<nodes> qs=<quiescence nodes> ...`: `{counters}`"),
    }
}

/// The last line of `text`, for an error message.
fn last_line(text: &str) -> &str {
    text.lines().rev().find(|line| !line.trim().is_empty()).unwrap_or("").trim()
}

/// A bench run's times: the process's wall time, and its CPU time where
/// the system gives it.
#[derive(Debug)]
struct BenchTimes {
    wall: Duration,
    cpu: Option<Duration>,
}

/// Runs `binary bench [depth] --stats` once and reads its output
/// (`parse_bench_output`); the error says what went wrong. Also returns the
/// process's times. The counters are kept in every search, so `--stats`
/// only prints them after the last one.
fn bench_once(binary: &Path, depth: Option<u32>, timeout: Duration) -> (Result<BenchOutput>, BenchTimes) {
    let no_cpu = |started: Instant| BenchTimes { wall: started.elapsed(), cpu: None };
    let started = Instant::now();
    let mut command = Command::new(binary);
    command.arg("bench");
    if let Some(depth) = depth {
        command.arg(depth.to_string());
    }
    command.arg("--stats");
    let mut child = match command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn() {
        Ok(child) => child,
        Err(error) => {
            return (Err(anyhow!(error).context(format!("cannot run {}", binary.display()))), no_cpu(started))
        }
    };
    // Both pipes are read as the process writes, so a full pipe never stalls it.
    let read_all = |mut pipe: Box<dyn Read + Send>| {
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            let _ = sender.send(String::from_utf8_lossy(&bytes).into_owned());
        });
        receiver
    };
    let stdout = read_all(Box::new(child.stdout.take().expect("stdout is piped")));
    let stderr = read_all(Box::new(child.stderr.take().expect("stderr is piped")));
    // The process's stdout closes when it exits.
    let Ok(output) = stdout.recv_timeout(timeout) else {
        let _ = child.kill();
        let _ = child.wait();
        let seconds = timeout.as_secs_f64();
        return (Err(anyhow!("no result within {seconds} s: the bench was stopped")), no_cpu(started));
    };
    let (status, cpu) = games::engine::wait_with_cpu_time(&mut child);
    let times = BenchTimes { wall: started.elapsed(), cpu };
    let outcome = status.context("cannot wait for the bench process").and_then(|status| {
        if status.success() {
            parse_bench_output(&output)
        } else {
            let said = stderr.recv().unwrap_or_default();
            bail!("bench failed ({status}): {}", last_line(&said))
        }
    });
    (outcome, times)
}

/// One variant's runs, summed up.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EngineSpeed {
    pub variant: String,
    /// The different node counts its successful runs reported, smallest
    /// first: one, unless the engine is not deterministic.
    pub node_counts: Vec<u64>,
    /// Its successful runs, and all of its runs.
    pub counted: usize,
    pub runs: usize,
    pub nps_median: Option<f64>,
    pub nps_min: Option<u64>,
    pub nps_max: Option<u64>,
    /// The share of its bench nodes that are quiescence nodes, from its
    /// first successful run that counted them.
    pub quiescence_share: Option<f64>,
}

impl EngineSpeed {
    /// Whether every successful run searched the same nodes.
    pub fn is_deterministic(&self) -> bool {
        self.node_counts.len() <= 1
    }

    /// What its nps becomes when only main-search nodes count: nps times
    /// the main-search share.
    fn main_search_factor(&self) -> Option<f64> {
        self.quiescence_share.map(|share| 1.0 - share)
    }
}

/// Engine `engine`'s runs in `records`, the failed ones left out of the
/// node counts and speeds.
pub fn engine_speed(records: &[SpeedRecord], engine: usize, variant: &str) -> EngineSpeed {
    let runs: Vec<&SpeedRecord> = records.iter().filter(|record| record.engine == engine).collect();
    let good: Vec<&SpeedRecord> = runs.iter().copied().filter(|record| record.error.is_none()).collect();
    let mut node_counts: Vec<u64> = good.iter().map(|record| record.nodes).collect();
    node_counts.sort_unstable();
    node_counts.dedup();
    let nps: Vec<u64> = good.iter().map(|record| record.nps).collect();
    EngineSpeed {
        variant: variant.to_string(),
        node_counts,
        counted: good.len(),
        runs: runs.len(),
        nps_median: median(&nps.iter().map(|&value| value as f64).collect::<Vec<_>>()),
        nps_min: nps.iter().copied().min(),
        nps_max: nps.iter().copied().max(),
        quiescence_share: good.iter().find_map(|record| {
            let qnodes = record.qnodes?;
            (record.nodes > 0).then(|| qnodes as f64 / record.nodes as f64)
        }),
    }
}

/// Engine `b`'s nps over engine `a`'s: the geometric mean over the rounds
/// where both ran without an error of the per-round ratio, with its
/// Student-t interval over rounds.
pub fn nps_ratio(records: &[SpeedRecord], a: usize, b: usize) -> Option<RatioEstimate> {
    let nps = |engine: usize, round: usize| {
        records
            .iter()
            .find(|record| record.engine == engine && record.round == round && record.error.is_none())
            .map(|record| record.nps as f64)
    };
    let mut rounds: Vec<usize> = records.iter().map(|record| record.round).collect();
    rounds.sort_unstable();
    rounds.dedup();
    student_ratio(rounds.into_iter().filter_map(|round| Some((nps(a, round)?, nps(b, round)?))).map(|(a, b)| b / a))
}

/// Engine `b`'s nodes per CPU second over engine `a`'s, as [`nps_ratio`]
/// over the rounds where both have a CPU time: a speed the machine's other
/// work does not move, as a share of the wall clock would.
pub fn cpu_nps_ratio(records: &[SpeedRecord], a: usize, b: usize) -> Option<RatioEstimate> {
    let speed = |engine: usize, round: usize| {
        records
            .iter()
            .find(|record| record.engine == engine && record.round == round && record.error.is_none())
            .and_then(|record| Some(record.nodes as f64 / record.cpu_us.filter(|&cpu| cpu > 0)? as f64))
    };
    let mut rounds: Vec<usize> = records.iter().map(|record| record.round).collect();
    rounds.sort_unstable();
    rounds.dedup();
    student_ratio(rounds.into_iter().filter_map(|round| Some((speed(a, round)?, speed(b, round)?))).map(|(a, b)| b / a))
}

/// Engine `b`'s nps over engine `a`'s counting main-search nodes only: the
/// nps ratio times the two engines' main-search shares, which are the same
/// in every run. `None` without both shares (`speeds` is every engine's,
/// by index).
pub fn main_search_ratio(records: &[SpeedRecord], speeds: &[EngineSpeed], a: usize, b: usize) -> Option<RatioEstimate> {
    let factor = speeds[b].main_search_factor()? / speeds[a].main_search_factor()?;
    if !factor.is_finite() {
        return None; // every node of A's bench was a quiescence node
    }
    let ratio = nps_ratio(records, a, b)?;
    Some(RatioEstimate {
        ratio: ratio.ratio * factor,
        interval: ratio.interval.map(|(low, high)| (low * factor, high * factor)),
        positions: ratio.positions,
    })
}

/// A share as a percentage for the table.
fn share_text(share: Option<f64>) -> String {
    share.map_or("-".to_string(), |share| format!("{:.1}%", share * 100.0))
}

/// `prunelab bench 9`, or `prunelab bench` with its default depth.
fn bench_command(depth: Option<u32>) -> String {
    match depth {
        Some(depth) => format!("`prunelab bench {depth}`"),
        None => format!("`prunelab bench` (its default depth, {})", prunelab::bench::DEFAULT_BENCH_DEPTH),
    }
}

/// An nps figure for the table.
fn nps_text(nps: Option<u64>) -> String {
    nps.map_or("-".to_string(), |nps| nps.to_string())
}

/// The markdown summary: a warning for each engine that is not
/// deterministic, each engine's nodes and speed, each engine's speed over
/// the first's, and how it was measured.
pub fn markdown(args: &SpeedArgs, records: &[SpeedRecord]) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "# lab speed: {}, {}, {} round(s) alternating\n",
        args.variants.join(" | "),
        bench_command(args.depth),
        args.rounds
    )
    .unwrap();
    let speeds: Vec<EngineSpeed> =
        args.variants.iter().enumerate().map(|(engine, name)| engine_speed(records, engine, name)).collect();
    for speed in speeds.iter().filter(|speed| !speed.is_deterministic()) {
        let counts: Vec<String> = speed.node_counts.iter().map(u64::to_string).collect();
        writeln!(
            out,
            "**`{}` is not deterministic: its runs searched different node counts ({}). The same bench must always \
             search the same nodes; this is a bug in the engine.**\n",
            speed.variant,
            counts.join(", ")
        )
        .unwrap();
    }
    let mut table = Table::new()
        .left("variant")
        .right("bench nodes")
        .right("quiescence nodes")
        .right("nps (median)")
        .right("nps (min)")
        .right("nps (max)")
        .right("runs counted");
    for speed in &speeds {
        let nodes = if speed.node_counts.is_empty() {
            "-".to_string()
        } else {
            speed.node_counts.iter().map(u64::to_string).collect::<Vec<_>>().join(" / ")
        };
        table.push([
            speed.variant.clone(),
            nodes,
            share_text(speed.quiescence_share),
            nps_text(speed.nps_median.map(|nps| nps.round() as u64)),
            nps_text(speed.nps_min),
            nps_text(speed.nps_max),
            format!("{}/{}", speed.counted, speed.runs),
        ]);
    }
    write!(out, "{table}").unwrap();
    writeln!(out).unwrap();
    for (engine, name) in args.variants.iter().enumerate().skip(1) {
        let ratio = nps_ratio(records, 0, engine)
            .map_or("no round where both ran without an error".to_string(), |ratio| ratio.ratio_text_over("round"));
        writeln!(out, "- nps, {name} over {}: {ratio}", args.variants[0]).unwrap();
        if let Some(cpu) = cpu_nps_ratio(records, 0, engine) {
            writeln!(out, "- nodes per CPU second, {name} over {}: {}", args.variants[0], cpu.ratio_text_over("round"))
                .unwrap();
        }
        if let Some(main) = main_search_ratio(records, &speeds, 0, engine) {
            writeln!(
                out,
                "- nps of main-search nodes only, {name} over {}: {}",
                args.variants[0],
                main.ratio_text_over("round")
            )
            .unwrap();
        }
    }
    let failures = records.iter().filter(|record| record.error.is_some()).count();
    if failures > 0 {
        writeln!(out, "\n**{failures} run(s) failed and are not counted**; see records.jsonl").unwrap();
    }
    writeln!(
        out,
        "\n- how: each variant's own {}, one process at a time; in each round every variant ran once, back to back, \
         the order reversed from one round to the next (A B, B A, ...), {} round(s), so machine noise falls on all \
         alike. nps is what bench prints: its nodes over its summed search time. The ratio is the geometric mean \
         over rounds of the per-round ratio of nps, with a 95% Student-t interval over rounds; x1.05 is 5% \
         more nodes per second. Variants with different bench nodes search different trees, which changes nps too; \
         `lab ttd` times the whole search. Nodes per CPU second are bench's nodes over its process's CPU time \
         (user and system, its start included): the machine's other work does not move it, as it moves bench's \
         wall-clock nps.\n- nodes of two kinds: nps counts every node, and a quiescence node \
         (captures only, most stand pat) costs a fraction of a main-search one, so a variant whose pruning removes \
         mostly quiescence nodes and their parents prints a lower nps at the same cost per node of each kind. The \
         second ratio counts main-search nodes only, each with the quiescence below it. Where B has the smaller \
         share of quiescence nodes, B's speed per node, were its cost per node of each kind the same multiple of \
         A's, lies between the two ratios.",
        bench_command(args.depth),
        args.rounds
    )
    .unwrap();
    if let Some(note) = builder::profile_note(&args.build_profile) {
        writeln!(out, "- **Every engine here is {note}.**").unwrap();
    }
    out
}

/// The JSON summary: what the markdown says, as numbers.
fn summary_json(args: &SpeedArgs, records: &[SpeedRecord]) -> serde_json::Value {
    let speeds: Vec<EngineSpeed> =
        args.variants.iter().enumerate().map(|(engine, name)| engine_speed(records, engine, name)).collect();
    let engines: Vec<serde_json::Value> = speeds
        .iter()
        .map(|speed| {
            let mut value = serde_json::to_value(speed).expect("plain data");
            value["deterministic"] = speed.is_deterministic().into();
            value
        })
        .collect();
    let ratios: Vec<serde_json::Value> = (1..args.variants.len())
        .map(|engine| {
            let ratio = nps_ratio(records, 0, engine);
            let main = main_search_ratio(records, &speeds, 0, engine);
            let cpu = cpu_nps_ratio(records, 0, engine);
            serde_json::json!({
                "a": args.variants[0],
                "b": args.variants[engine],
                "nps_ratio": ratio.map(|ratio| ratio.ratio),
                "interval": ratio.and_then(|ratio| ratio.interval),
                "rounds": ratio.map_or(0, |ratio| ratio.positions),
                "main_search_nps_ratio": main.map(|ratio| ratio.ratio),
                "main_search_interval": main.and_then(|ratio| ratio.interval),
                "cpu_nps_ratio": cpu.map(|ratio| ratio.ratio),
                "cpu_interval": cpu.and_then(|ratio| ratio.interval),
            })
        })
        .collect();
    serde_json::json!({
        "variants": args.variants,
        "rounds": args.rounds,
        "depth": args.depth,
        "default_depth": prunelab::bench::DEFAULT_BENCH_DEPTH,
        "build_profile": args.build_profile,
        "engines": engines,
        "ratios": ratios,
        "failed_runs": records.iter().filter(|record| record.error.is_some()).count(),
    })
}

/// The variants' names, each checked to be a variant: a `uci:` engine is
/// refused, since bench speed is measured with prunelab's own `bench`.
fn check_variants(lab: &Lab, specs: &[String]) -> Result<()> {
    for spec in specs {
        match Participant::parse(spec)? {
            Participant::Uci { .. } => bail!(
                "`{spec}`: bench speed is measured with prunelab's own `bench` command, so only variants can be \
                 compared (`lab ttd` times a UCI engine beside a variant)"
            ),
            Participant::Variant(name) => {
                lab.own_variant(&name)?;
            }
        }
    }
    Ok(())
}

/// Runs the benches not yet run (all of them, unless resuming), writing
/// each as it is done, and writes the summary. Returns the run's folder.
pub fn run(lab: &Lab, args: &SpeedArgs) -> Result<PathBuf> {
    check_args(args)?;
    check_variants(lab, &args.variants)?;
    let binaries = builder::build_all(lab, &args.variants)?;
    run_binaries(lab, args, &binaries)
}

/// [`run`] with the engines' binaries given, one for each of `args`'
/// names (the atlas's pairs, built from their feature sets). Returns the
/// run's folder.
pub fn run_binaries(lab: &Lab, args: &SpeedArgs, binaries: &[PathBuf]) -> Result<PathBuf> {
    check_args(args)?;
    let run_args = RunArgs { concurrency: 1, resume: args.resume.clone() };
    let (mut run_dir, mut records): (_, Vec<SpeedRecord>) = run_args.open(lab, "speed", args)?;
    let pending: Vec<(usize, usize)> = (0..args.rounds)
        .flat_map(|round| run_order(args.variants.len(), round).into_iter().map(move |engine| (round, engine)))
        .filter(|&(round, engine)| !records.iter().any(|r| r.round == round && r.engine == engine))
        .collect();
    let bar = lab.progress(pending.len() as u64, "speed");
    for (round, engine) in pending {
        let variant = &args.variants[engine];
        bar.set_message(format!("speed {variant}"));
        let (outcome, times) = bench_once(&binaries[engine], args.depth, BENCH_TIMEOUT);
        let mut record = SpeedRecord {
            round,
            engine,
            variant: variant.clone(),
            nodes: 0,
            nps: 0,
            qnodes: None,
            wall_us: times.wall.as_micros() as u64,
            cpu_us: times.cpu.map(|cpu| cpu.as_micros() as u64),
            error: None,
        };
        match outcome {
            Ok(BenchOutput { nodes, nps, qnodes }) => (record.nodes, record.nps, record.qnodes) = (nodes, nps, qnodes),
            Err(error) => {
                let error = format!("{error:#}");
                bar.suspend(|| lab.say(&format!("{variant}, round {round}: {error}")));
                record.error = Some(error);
            }
        }
        run_dir.keep(&mut records, record)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    records.sort_by_key(|record| (record.round, record.engine));
    run_dir.write_summary(&markdown(args, &records), &summary_json(args, &records))?;
    Ok(run_dir.path().to_path_buf())
}

/// What is wrong with the arguments before anything is built.
fn check_args(args: &SpeedArgs) -> Result<()> {
    if args.rounds == 0 {
        bail!("--rounds must be at least 1");
    }
    if args.variants.len() < 2 {
        bail!("bench speed compares two variants or more");
    }
    if let Some(depth) = args.depth {
        suites::check_depth(depth)?;
    }
    Ok(())
}

/// The records of a finished speed run.
pub fn records_of(run: &Path) -> Vec<SpeedRecord> {
    games::results::read_records(run)
}

pub fn command(lab: &Lab, args: &SpeedArgs) -> Result<()> {
    let run_dir = run(lab, args)?;
    print_summary(&lab.session(), &run_dir)
}

#[cfg(test)]
mod tests {
    use test_support::script;

    use super::*;

    fn record(round: usize, engine: usize, nodes: u64, nps: u64) -> SpeedRecord {
        SpeedRecord {
            round,
            engine,
            variant: format!("v{engine}"),
            nodes,
            nps,
            qnodes: None,
            wall_us: 1000,
            cpu_us: None,
            error: None,
        }
    }

    #[test]
    fn nodes_per_cpu_second_are_bench_nodes_over_the_process_cpu_time_round_by_round() {
        let timed =
            |round, engine, nodes, cpu_us| SpeedRecord { cpu_us: Some(cpu_us), ..record(round, engine, nodes, 1) };
        // B searches 10% more nodes in 1.0 and 0.8 of A's CPU time: x1.1 and x1.375.
        let records =
            [timed(0, 0, 1000, 1000), timed(0, 1, 1100, 1000), timed(1, 0, 1000, 1000), timed(1, 1, 1100, 800)];
        let ratio = cpu_nps_ratio(&records, 0, 1).unwrap();
        assert!((ratio.ratio - (1.1f64 * 1.375).sqrt()).abs() < 1e-12, "{ratio:?}");
        assert_eq!(ratio.positions, 2);
        // Runs recorded without a CPU time, or failed, do not count.
        assert_eq!(cpu_nps_ratio(&[record(0, 0, 1000, 5), record(0, 1, 1000, 6)], 0, 1), None);
        assert_eq!(cpu_nps_ratio(&[timed(0, 0, 1000, 1000), failed(0, 1)], 0, 1), None);
    }

    fn counted(round: usize, engine: usize, nodes: u64, qnodes: u64, nps: u64) -> SpeedRecord {
        SpeedRecord { qnodes: Some(qnodes), ..record(round, engine, nodes, nps) }
    }

    fn failed(round: usize, engine: usize) -> SpeedRecord {
        SpeedRecord { error: Some("bench failed (exit status: 101): panicked".into()), ..record(round, engine, 0, 0) }
    }

    fn args(variants: &[&str], rounds: usize) -> SpeedArgs {
        SpeedArgs {
            variants: variants.iter().map(|name| name.to_string()).collect(),
            rounds,
            depth: Some(5),
            build_profile: "release".into(),
            resume: None,
        }
    }

    #[test]
    fn the_bench_line_is_read_from_the_last_line_only() {
        let output =
            " 1/48 nodes        20 bestmove e2e4  score cp 10     fen startpos\nBench: 6788127 nodes 2104512 nps\n";
        assert_eq!(parse_bench_line(output).unwrap(), (6788127, 2104512));
        assert_eq!(parse_bench_line("Bench: 0 nodes 0 nps").unwrap(), (0, 0));

        let garbage = parse_bench_line("Bench: many nodes 12 nps\n").unwrap_err().to_string();
        assert_eq!(
            garbage,
            "bench's last line has no numbers where `Bench: <nodes> nodes <nps> nps` has them: \
             `Bench: many nodes 12 nps`"
        );
        for not_exact in
            ["Bench: 12 nodes", "Bench: 12 nodes 34 nps extra", "bench: 12 nodes 34 nps", "Bench: -1 nodes 3 nps"]
        {
            assert!(parse_bench_line(not_exact).is_err(), "{not_exact}");
        }
        // A Bench line that is not the last line does not count.
        let missing = parse_bench_line("Bench: 12 nodes 34 nps\nrazor: att=1 cut=0 cut%=0.0%\n").unwrap_err();
        assert_eq!(
            missing.to_string(),
            "bench's last line is not `Bench: <nodes> nodes <nps> nps`: `razor: att=1 cut=0 cut%=0.0%`"
        );
        assert_eq!(parse_bench_line("").unwrap_err().to_string(), "bench printed nothing");
    }

    #[test]
    fn the_quiescence_nodes_are_read_from_the_counters_line() {
        let output = " 1/48 nodes        20 bestmove e2e4  score cp 10     fen startpos\n\
                      nodes: total=7357031 qs=5196959 qs%=70.6%\n\
                      tt: probes=7353591 hits=790103 hit%=10.7% cut=427984 illegal_moves=1\n\
                      Bench: 7357031 nodes 3576428 nps\n";
        let read = parse_bench_output(output).unwrap();
        assert_eq!(read, BenchOutput { nodes: 7357031, nps: 3576428, qnodes: Some(5196959) });
        // Without the line (a bench without `--stats`), no share.
        let plain = parse_bench_output("Bench: 12 nodes 34 nps\n").unwrap();
        assert_eq!(plain, BenchOutput { nodes: 12, nps: 34, qnodes: None });
        // A counters line that contradicts the Bench line, or is malformed, is an error.
        let other = parse_bench_output("nodes: total=13 qs=5 qs%=38.5%\nBench: 12 nodes 34 nps\n").unwrap_err();
        assert_eq!(
            other.to_string(),
            "bench's counters count 13 nodes and its Bench line 12: `nodes: total=13 qs=5 qs%=38.5%`"
        );
        for broken in ["nodes: total=12 qs=x", "nodes: total=12", "nodes: total=12 qs=13"] {
            let error = parse_bench_output(&format!("{broken}\nBench: 12 nodes 34 nps\n")).unwrap_err();
            assert!(error.to_string().starts_with("bench's counters line is not `nodes: total="), "{broken}: {error}");
        }
    }

    #[test]
    fn the_main_search_ratio_scales_the_nps_ratio_by_the_node_mix() {
        // A: 800 of 1000 nodes are quiescence nodes; B: 400 of 800.
        // B over A: nps 0.5 and 0.8 in the two rounds; main-search nodes
        // per second, (1 - 0.5) / (1 - 0.8) = 2.5 times that.
        let records = [
            counted(0, 0, 1000, 800, 2000),
            counted(0, 1, 800, 400, 1000),
            counted(1, 1, 800, 400, 1600),
            counted(1, 0, 1000, 800, 2000),
        ];
        let speeds = [engine_speed(&records, 0, "a"), engine_speed(&records, 1, "b")];
        assert_eq!(speeds[0].quiescence_share, Some(0.8));
        assert_eq!(speeds[1].quiescence_share, Some(0.5));
        let nps = nps_ratio(&records, 0, 1).unwrap();
        let main = main_search_ratio(&records, &speeds, 0, 1).unwrap();
        assert!((nps.ratio - 0.4f64.sqrt()).abs() < 1e-12, "{nps:?}");
        assert!((main.ratio - 2.5 * 0.4f64.sqrt()).abs() < 1e-12, "{main:?}");
        // The nps interval (two rounds: t of 12.706) times 2.5.
        let ((low, high), (nps_low, nps_high)) = (main.interval.unwrap(), nps.interval.unwrap());
        assert!((low - 2.5 * nps_low).abs() < 1e-12 && (high - 2.5 * nps_high).abs() < 1e-9, "{main:?}");
        assert_eq!(main.positions, 2);

        let text = markdown(&args(&["a", "b"], 2), &records);
        assert!(text.contains("| a | 1000 | 80.0% | 2000 | 2000 | 2000 | 2/2 |\n"), "{text}");
        assert!(text.contains("| b | 800 | 50.0% | 1300 | 1000 | 1600 | 2/2 |\n"), "{text}");
        assert!(text.contains("- nps, b over a: x0.632 (95%: 0.032 to 12.526, 2 rounds)\n"), "{text}");
        assert!(
            text.contains("- nps of main-search nodes only, b over a: x1.581 (95%: 0.080 to 31.316, 2 rounds)\n"),
            "{text}"
        );
        let json = summary_json(&args(&["a", "b"], 2), &records);
        assert_eq!(json["engines"][1]["quiescence_share"], 0.5);
        assert!((json["ratios"][0]["main_search_nps_ratio"].as_f64().unwrap() - main.ratio).abs() < 1e-12);

        // Without both shares (runs recorded before the counters, or an A
        // whose every node was a quiescence node), no second ratio.
        let old = [record(0, 0, 1000, 2000), counted(0, 1, 800, 400, 1000)];
        let old_speeds = [engine_speed(&old, 0, "a"), engine_speed(&old, 1, "b")];
        assert_eq!(main_search_ratio(&old, &old_speeds, 0, 1), None);
        let text = markdown(&args(&["a", "b"], 1), &old);
        assert!(text.contains("| a | 1000 | - | 2000 |") && !text.contains("main-search nodes only, b"), "{text}");
        let all_quiescence = [counted(0, 0, 10, 10, 2000), counted(0, 1, 800, 400, 1000)];
        let speeds = [engine_speed(&all_quiescence, 0, "a"), engine_speed(&all_quiescence, 1, "b")];
        assert_eq!(main_search_ratio(&all_quiescence, &speeds, 0, 1), None);
    }

    #[test]
    fn the_order_alternates_by_round() {
        assert_eq!(run_order(3, 0), [0, 1, 2]);
        assert_eq!(run_order(3, 1), [2, 1, 0]);
        assert_eq!(run_order(3, 2), [0, 1, 2]);
        assert_eq!(run_order(2, 5), [1, 0]);
    }

    #[test]
    fn the_ratio_is_the_geometric_mean_of_the_per_round_ratios() {
        // B over A: 1.1, 1.2 and 0.9 in rounds 0, 1 and 2.
        let records = [
            record(0, 0, 500, 1000),
            record(0, 1, 400, 1100),
            record(1, 1, 400, 2400),
            record(1, 0, 500, 2000),
            record(2, 0, 500, 1000),
            record(2, 1, 400, 900),
        ];
        let ratio = nps_ratio(&records, 0, 1).unwrap();
        assert!((ratio.ratio - (1.1f64 * 1.2 * 0.9).cbrt()).abs() < 1e-12, "{ratio:?}");
        assert_eq!(ratio.positions, 3);
        // Three rounds: Student's t with 2 degrees of freedom (4.303) over
        // the logarithms' spread, wider than their extremes.
        assert_eq!(ratio.ratio_text_over("round"), "x1.059 (95%: 0.734 to 1.528, 3 rounds)");
        // A against itself is exactly 1.
        assert_eq!(nps_ratio(&records, 0, 0).unwrap().ratio, 1.0);

        let speed = engine_speed(&records, 1, "b");
        assert_eq!(speed.node_counts, [400]);
        assert_eq!((speed.nps_median, speed.nps_min, speed.nps_max), (Some(1100.0), Some(900), Some(2400)));
        assert_eq!((speed.counted, speed.runs), (3, 3));

        let text = markdown(&args(&["a", "b"], 3), &records);
        assert!(text.starts_with("# lab speed: a | b, `prunelab bench 5`, 3 round(s) alternating\n"), "{text}");
        assert!(
            text.contains("| a | 500 | - | 1000 | 1000 | 2000 | 3/3 |\n| b | 400 | - | 1100 | 900 | 2400 | 3/3 |\n"),
            "{text}"
        );
        assert!(text.contains("- nps, b over a: x1.059 (95%: 0.734 to 1.528, 3 rounds)\n"), "{text}");
        assert!(!text.contains("not deterministic") && !text.contains("failed") && !text.contains("measure nothing"));
    }

    #[test]
    fn a_failed_run_is_not_counted() {
        let records = [
            record(0, 0, 500, 1000),
            record(0, 1, 400, 1100),
            failed(1, 1),
            record(1, 0, 500, 2000),
            record(2, 0, 500, 1000),
            record(2, 1, 400, 900),
        ];
        // Round 1 has no ratio: sqrt(1.1 * 0.9) over rounds 0 and 2.
        let ratio = nps_ratio(&records, 0, 1).unwrap();
        assert!((ratio.ratio - (1.1f64 * 0.9).sqrt()).abs() < 1e-12, "{ratio:?}");
        assert_eq!(ratio.positions, 2);
        let speed = engine_speed(&records, 1, "b");
        assert_eq!(speed.node_counts, [400], "the failed run's 0 nodes are no node count");
        assert_eq!((speed.nps_median, speed.nps_min, speed.nps_max), (Some(1000.0), Some(900), Some(1100)));
        assert_eq!((speed.counted, speed.runs), (2, 3));
        let text = markdown(&args(&["a", "b"], 3), &records);
        assert!(text.contains("| b | 400 | - | 1000 | 900 | 1100 | 2/3 |"), "{text}");
        assert!(text.contains("**1 run(s) failed and are not counted**"), "{text}");
        // Nothing to pair at all.
        assert_eq!(nps_ratio(&[record(0, 0, 500, 1000), failed(0, 1)], 0, 1), None);
    }

    #[test]
    fn differing_node_counts_are_flagged() {
        let records =
            [record(0, 0, 500, 1000), record(0, 1, 400, 1000), record(1, 1, 401, 1000), record(1, 0, 500, 1000)];
        assert!(engine_speed(&records, 0, "a").is_deterministic());
        let speed = engine_speed(&records, 1, "b");
        assert!(!speed.is_deterministic());
        assert_eq!(speed.node_counts, [400, 401]);
        let mut asked = args(&["a", "b"], 2);
        asked.build_profile = "labtest".into();
        let text = markdown(&asked, &records);
        assert!(
            text.contains(
                "\n**`b` is not deterministic: its runs searched different node counts (400, 401). The same bench \
                 must always search the same nodes; this is a bug in the engine.**\n"
            ),
            "{text}"
        );
        assert!(!text.contains("`a` is not deterministic"), "{text}");
        assert!(text.contains("| b | 400 / 401 | - | 1000 |"), "{text}");
        assert!(
            text.contains(
                "- **Every engine here is built with cargo profile `labtest` (PRUNELAB_BUILD_PROFILE): its times \
                 measure nothing.**"
            ),
            "{text}"
        );
        let json = summary_json(&asked, &records);
        assert_eq!(json["engines"][0]["deterministic"], true);
        assert_eq!(json["engines"][1]["deterministic"], false);
        assert_eq!(json["engines"][1]["node_counts"], serde_json::json!([400, 401]));
    }

    #[test]
    fn a_run_that_fails_hangs_or_prints_no_bench_line_says_why() {
        let dir = std::env::temp_dir().join(format!("prunelab-speed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let second = Duration::from_secs(1);
        // The depth is passed as bench's argument, and none without it.
        let good = script(
            &dir,
            "good",
            "[ \"$*\" = 'bench 3 --stats' ] && echo 'nodes: total=12 qs=5 qs%=41.7%' && echo 'Bench: 12 nodes 34 nps' \
             || echo \"$*\"",
        );
        assert_eq!(bench_once(&good, Some(3), second).0.unwrap(), BenchOutput { nodes: 12, nps: 34, qnodes: Some(5) });
        let plain = bench_once(&good, None, second).0.unwrap_err().to_string();
        assert_eq!(plain, "bench's last line is not `Bench: <nodes> nodes <nps> nps`: `bench --stats`");
        let crashed =
            script(&dir, "crashed", "echo 'Bench: 12 nodes 34 nps'; echo 'panicked at search.rs' >&2; exit 101");
        let error = bench_once(&crashed, None, second).0.unwrap_err().to_string();
        assert_eq!(error, "bench failed (exit status: 101): panicked at search.rs");
        let contradicted =
            script(&dir, "contradicted", "echo 'nodes: total=13 qs=5 qs%=38.5%'; echo 'Bench: 12 nodes 34 nps'");
        let error = bench_once(&contradicted, None, second).0.unwrap_err().to_string();
        assert!(error.starts_with("bench's counters count 13 nodes and its Bench line 12"), "{error}");
        let silent = script(&dir, "silent", "exit 0");
        assert_eq!(bench_once(&silent, None, second).0.unwrap_err().to_string(), "bench printed nothing");
        let hung = script(&dir, "hung", "exec sleep 30");
        let (outcome, times) = bench_once(&hung, None, Duration::from_millis(200));
        assert_eq!(outcome.unwrap_err().to_string(), "no result within 0.2 s: the bench was stopped");
        assert!(times.wall < Duration::from_secs(10), "{:?}", times.wall);
        // A finished process has its CPU time.
        assert!(bench_once(&good, Some(3), second).1.cpu.is_some());
        let missing = bench_once(&dir.join("no-such-binary"), None, second).0.unwrap_err();
        assert!(format!("{missing:#}").starts_with("cannot run "), "{missing:#}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_uci_engine_is_refused() {
        let lab = Lab::for_tests();
        let error = check_variants(&lab, &["baseline".into(), "uci:/usr/games/stockfish".into()]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "`uci:/usr/games/stockfish`: bench speed is measured with prunelab's own `bench` command, so only \
             variants can be compared (`lab ttd` times a UCI engine beside a variant)"
        );
        assert!(check_variants(&lab, &["baseline".into(), "no-such-variant".into()]).is_err());
        assert!(check_variants(&lab, &["baseline".into(), "razor-r1".into()]).is_ok());
    }
}
