//! `lab ttd A B`: time to depth. Both engines search the same positions to
//! the same depth from `ucinewgame`, one search at a time, interleaved: in
//! each round every position is searched by A and by B back to back, who
//! goes first alternating from one search pair to the next, so whatever the
//! machine does meanwhile (another build, a cache flush, a clock change)
//! falls on both alike. The time is the wall time from `go` to `bestmove`,
//! in microseconds, so even a few-millisecond search has a ratio.
//!
//! Each position's time is its median over the rounds (a search slowed by
//! the machine once does not count), and the result is B's time over A's,
//! the geometric mean of the per-position ratios with its 95% bootstrap
//! interval over positions (`crate::ratio`): x0.95 is 5% faster to depth.

use std::fmt::Write;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Result};
use clap::Args;
use serde::{Deserialize, Serialize};

use crate::engine::{Engine, SearchOutput};
use crate::lab::Lab;
use crate::participant;
use crate::ratio::{median, paired_ratio, RatioEstimate};
use crate::runner::RunArgs;
use crate::suites::{self, Suite};

/// A search to a fixed depth has no clock; this only catches a hung engine.
const DEPTH_SEARCH_TIMEOUT: Duration = Duration::from_secs(3600);

#[derive(Args, Clone, Debug, Serialize)]
pub struct TtdArgs {
    /// The reference (a variant or `uci:PATH`).
    pub a: String,
    /// The engine timed against it (a variant or `uci:PATH`).
    pub b: String,
    /// The positions (a named suite or an EPD file).
    #[arg(long, default_value = suites::VERDICT)]
    pub suite: String,
    #[arg(long, default_value_t = 10)]
    pub depth: u32,
    /// Rounds: each position is searched this many times by each engine.
    #[arg(long, default_value_t = DEFAULT_ROUNDS)]
    pub rounds: usize,
    /// Hash size in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: u32,
    /// Only the suite's first N positions.
    #[arg(long, value_name = "N")]
    pub first: Option<usize>,
    /// Continue a run: its folder, or the latest `ttd` run.
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = "latest")]
    #[serde(skip)]
    pub resume: Option<String>,
}

/// Rounds when not given: three medians out one slow search per position.
pub const DEFAULT_ROUNDS: usize = 3;

/// One position in one round: both engines' times, taken back to back.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TtdRecord {
    pub round: usize,
    pub position: usize,
    pub id: String,
    /// Which engine searched first (`a` or `b`).
    pub first: String,
    /// Wall time from `go` to `bestmove`, in microseconds.
    pub a_us: u64,
    pub b_us: u64,
    pub a_nodes: u64,
    pub b_nodes: u64,
    /// Why a search failed, when one did (the times are then 0).
    pub error: Option<String>,
}

/// Whether A goes first in `round` on `position`: alternating from one
/// search pair to the next and from one round to the next.
pub fn a_goes_first(round: usize, position: usize) -> bool {
    (round + position).is_multiple_of(2)
}

/// The per-position median times, in microseconds: (A's, B's) for each
/// position with at least one round without an error, in position order.
pub fn median_times(records: &[TtdRecord]) -> Vec<(usize, f64, f64)> {
    let mut positions: Vec<usize> = records.iter().map(|record| record.position).collect();
    positions.sort_unstable();
    positions.dedup();
    positions
        .into_iter()
        .filter_map(|position| {
            let good: Vec<&TtdRecord> =
                records.iter().filter(|record| record.position == position && record.error.is_none()).collect();
            let a = median(&good.iter().map(|record| record.a_us as f64).collect::<Vec<_>>())?;
            let b = median(&good.iter().map(|record| record.b_us as f64).collect::<Vec<_>>())?;
            Some((position, a, b))
        })
        .collect()
}

/// B's time to depth over A's: the geometric mean of the per-position
/// ratios of median times, with its bootstrap interval.
pub fn estimate(records: &[TtdRecord]) -> Option<RatioEstimate> {
    paired_ratio(median_times(records).into_iter().map(|(_, a, b)| (a, b)))
}

/// A running engine of the pair, started again after a failure.
struct Timed {
    name: String,
    binary: PathBuf,
    hash_mb: u32,
    engine: Option<Engine>,
}

impl Timed {
    fn search(&mut self, fen: &str, depth: u32) -> Result<SearchOutput> {
        if self.engine.is_none() {
            let mut engine = Engine::start(&self.binary, &self.name)?;
            engine.set_option("Hash", &self.hash_mb.to_string())?;
            self.engine = Some(engine);
        }
        let engine = self.engine.as_mut().expect("started above");
        let outcome = engine.new_game().and_then(|()| {
            engine.go(&format!("position fen {fen}"), &format!("go depth {depth}"), DEPTH_SEARCH_TIMEOUT)
        });
        if outcome.is_err() {
            self.engine = None;
        }
        outcome
    }
}

/// Both searches of one position in one round, in the round's order.
fn time_pair(engines: &mut [Timed; 2], round: usize, position: usize, suite: &Suite, depth: u32) -> TtdRecord {
    let fen = &suite.positions[position].fen;
    let order = if a_goes_first(round, position) { [0, 1] } else { [1, 0] };
    let mut outputs: [Option<SearchOutput>; 2] = [None, None];
    let mut error = None;
    for side in order {
        match engines[side].search(fen, depth) {
            Ok(output) => outputs[side] = Some(output),
            Err(failure) => {
                error = Some(format!("{failure:#}"));
                break;
            }
        }
    }
    let micros = |output: &Option<SearchOutput>| output.as_ref().map_or(0, |o| o.elapsed.as_micros() as u64);
    let nodes = |output: &Option<SearchOutput>| output.as_ref().and_then(|o| o.last_info()).map_or(0, |i| i.nodes);
    TtdRecord {
        round,
        position,
        id: suite.positions[position].id.clone(),
        first: if order[0] == 0 { "a" } else { "b" }.to_string(),
        a_us: if error.is_none() { micros(&outputs[0]) } else { 0 },
        b_us: if error.is_none() { micros(&outputs[1]) } else { 0 },
        a_nodes: nodes(&outputs[0]),
        b_nodes: nodes(&outputs[1]),
        error,
    }
}

/// The markdown summary: the ratio, then each position's median times.
pub fn markdown(args: &TtdArgs, suite: &Suite, records: &[TtdRecord]) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "# lab ttd: {} against {}, {} at depth {}, {} round(s) interleaved, Hash {}\n",
        args.b, args.a, suite.name, args.depth, args.rounds, args.hash
    )
    .unwrap();
    match estimate(records) {
        Some(ratio) => writeln!(out, "Time to depth, {} over {}: {}\n", args.b, args.a, ratio.ratio_text()).unwrap(),
        None => writeln!(out, "Time to depth: no position timed without an error\n").unwrap(),
    }
    let failures = records.iter().filter(|record| record.error.is_some()).count();
    if failures > 0 {
        writeln!(out, "**{failures} search pair(s) failed**; see records.jsonl\n").unwrap();
    }
    writeln!(out, "| position | {} ms (median) | {} ms (median) | ratio |", args.a, args.b).unwrap();
    writeln!(out, "|---|---:|---:|---:|").unwrap();
    for (position, a, b) in median_times(records) {
        let id = &suite.positions[position].id;
        writeln!(out, "| {id} | {:.1} | {:.1} | {:.3} |", a / 1000.0, b / 1000.0, b / a.max(1.0)).unwrap();
    }
    out
}

/// A finished `lab ttd` run.
pub struct TtdRun {
    pub records: Vec<TtdRecord>,
    pub estimate: Option<RatioEstimate>,
    pub run_dir: PathBuf,
}

/// Times the pairs not yet timed (all of them, unless resuming), writing
/// each as it is done; what `lab ttd`, `lab ab` and `lab chain` share.
pub fn run(lab: &Lab, args: &TtdArgs) -> Result<TtdRun> {
    if args.rounds == 0 {
        bail!("--rounds must be at least 1");
    }
    if args.depth == 0 || args.depth > 64 {
        bail!("--depth must be between 1 and 64");
    }
    let mut suite = suites::load(lab, &args.suite)?;
    suite.report_skipped(lab);
    if let Some(first) = args.first {
        suite.positions.truncate(first);
    }
    if suite.positions.is_empty() {
        bail!("suite `{}` has no positions", suite.name);
    }
    let binaries = participant::binaries(lab, &[args.a.clone(), args.b.clone()])?;
    let run_args = RunArgs { concurrency: 1, resume: args.resume.clone() };
    let (mut run_dir, mut records): (_, Vec<TtdRecord>) = run_args.open(lab, "ttd", args)?;
    let timed = |name: &str, binary: &PathBuf| Timed {
        name: name.to_string(),
        binary: binary.clone(),
        hash_mb: args.hash,
        engine: None,
    };
    let mut engines = [timed(&args.a, &binaries[0]), timed(&args.b, &binaries[1])];
    let pairs: Vec<(usize, usize)> = (0..args.rounds)
        .flat_map(|round| (0..suite.positions.len()).map(move |position| (round, position)))
        .filter(|&(round, position)| !records.iter().any(|r| r.round == round && r.position == position))
        .collect();
    let bar = lab.progress(pairs.len() as u64, &format!("ttd {}", suite.name));
    for (round, position) in pairs {
        let record = time_pair(&mut engines, round, position, &suite, args.depth);
        if let Some(error) = &record.error {
            bar.suspend(|| lab.say(&format!("{}: {error}", record.id)));
        }
        run_dir.append(&record)?;
        records.push(record);
        bar.inc(1);
    }
    bar.finish_and_clear();
    records.sort_by_key(|record| (record.round, record.position));
    let estimate = estimate(&records);
    let summary = serde_json::json!({
        "a": args.a,
        "b": args.b,
        "suite": suite.name,
        "depth": args.depth,
        "rounds": args.rounds,
        "hash": args.hash,
        "time_to_depth": estimate,
        "positions": median_times(&records)
            .iter()
            .map(|(position, a, b)| serde_json::json!({"id": suite.positions[*position].id, "a_us": a, "b_us": b}))
            .collect::<Vec<_>>(),
    });
    run_dir.write_summary(&markdown(args, &suite, &records), &summary)?;
    Ok(TtdRun { records, estimate, run_dir: run_dir.path().to_path_buf() })
}

pub fn command(lab: &Lab, args: &TtdArgs) -> Result<()> {
    let run = run(lab, args)?;
    if lab.global.json {
        println!("{}", std::fs::read_to_string(run.run_dir.join("summary.json"))?);
    } else {
        println!("{}", std::fs::read_to_string(run.run_dir.join("summary.md"))?);
        lab.say(&format!("results: {}", run.run_dir.display()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(round: usize, position: usize, a_us: u64, b_us: u64) -> TtdRecord {
        TtdRecord {
            round,
            position,
            id: format!("p{position}"),
            first: if a_goes_first(round, position) { "a" } else { "b" }.into(),
            a_us,
            b_us,
            a_nodes: 1,
            b_nodes: 1,
            error: None,
        }
    }

    #[test]
    fn the_order_alternates_by_pair_and_by_round() {
        let orders: Vec<bool> = (0..2).flat_map(|round| (0..3).map(move |p| a_goes_first(round, p))).collect();
        assert_eq!(orders, [true, false, true, false, true, false]);
    }

    #[test]
    fn a_slow_round_is_outvoted_by_the_median() {
        let records = [
            record(0, 0, 1000, 900),
            record(1, 0, 1000, 5000), // the machine was busy
            record(2, 0, 1100, 950),
            record(0, 1, 2000, 2400),
            record(1, 1, 2000, 2400),
            record(2, 1, 2200, 2400),
        ];
        assert_eq!(median_times(&records), [(0, 1000.0, 950.0), (1, 2000.0, 2400.0)]);
        let estimate = estimate(&records).unwrap();
        // sqrt(0.95 * 1.2)
        assert!((estimate.ratio - (0.95f64 * 1.2).sqrt()).abs() < 1e-12, "{estimate:?}");
        assert_eq!(estimate.positions, 2);
    }

    #[test]
    fn failed_pairs_do_not_count() {
        let mut failed = record(0, 0, 0, 0);
        failed.error = Some("engine b: the engine process exited".into());
        assert!(estimate(&[failed.clone()]).is_none());
        assert_eq!(median_times(&[failed, record(1, 0, 10, 20)]), [(0, 10.0, 20.0)]);
    }
}
