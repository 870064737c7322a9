//! `lab ttd A B ...`: time to depth. The engines search the same positions
//! to the same depth from `ucinewgame`, one search at a time, interleaved:
//! in each round every position is searched by each engine back to back,
//! in the given order and then reversed, alternating from one position to
//! the next and from one round to the next, so whatever the machine does
//! meanwhile (another build, a cache flush, a clock change) falls on
//! neighbours alike, and neither of two neighbours always goes first. The
//! time is the wall time from `go` to `bestmove`, in microseconds, so even
//! a few-millisecond search has a ratio.
//!
//! Each position's time is its median over the rounds (a search slowed by
//! the machine once does not count), and an engine's time against another's
//! is the geometric mean of the per-position ratios with its 95% bootstrap
//! interval over positions (`crate::measure::ratio`): x0.95 is 5% faster to depth.
//! `lab ab` times its two engines; `lab chain` times the whole chain in one
//! run, each variant beside its parent, so each variant is searched once per
//! round rather than twice.

use std::fmt::Write;
use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Args;
use serde::{Deserialize, Serialize};

use crate::engines::engine::{Engine, Launch, SearchOutput};
use crate::engines::participant;
use crate::engines::runner::{RunArgs, DEPTH_SEARCH_TIMEOUT};
use crate::lab::Lab;
use crate::measure::ratio::{median, paired_ratio, RatioEstimate};
use crate::measure::suites::{self, Suite};
use crate::results::print_summary;

#[derive(Args, Clone, Debug, Serialize)]
pub struct TtdArgs {
    /// The engines (variants or `uci:PATH`), the reference first; each is
    /// searched beside its neighbours.
    #[arg(required = true, num_args = 2..)]
    pub engines: Vec<String>,
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

/// Rounds when not given: the median outvotes two slow searches of a position.
pub const DEFAULT_ROUNDS: usize = 5;

/// One position in one round: every engine's time, taken back to back.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TtdRecord {
    pub round: usize,
    pub position: usize,
    pub id: String,
    /// The engines' indices in the order they searched.
    pub order: Vec<usize>,
    /// Wall time from `go` to `bestmove`, in microseconds, per engine in
    /// the order of the arguments.
    pub times_us: Vec<u64>,
    pub nodes: Vec<u64>,
    /// Why a search failed, when one did (the record's times then do not count).
    pub error: Option<String>,
}

/// The search order of `engines` engines in `round` on `position`: as
/// given, or reversed, alternating by position and by round.
pub fn search_order(engines: usize, round: usize, position: usize) -> Vec<usize> {
    if (round + position).is_multiple_of(2) {
        (0..engines).collect()
    } else {
        (0..engines).rev().collect()
    }
}

/// The per-position median times of engines `a` and `b`, in microseconds,
/// for each position with at least one round without an error, in position
/// order: (position, A's, B's).
pub fn median_times(records: &[TtdRecord], a: usize, b: usize) -> Vec<(usize, f64, f64)> {
    let mut positions: Vec<usize> = records.iter().map(|record| record.position).collect();
    positions.sort_unstable();
    positions.dedup();
    positions
        .into_iter()
        .filter_map(|position| {
            let good: Vec<&TtdRecord> =
                records.iter().filter(|record| record.position == position && record.error.is_none()).collect();
            let times = |engine: usize| {
                good.iter().filter_map(|r| r.times_us.get(engine)).map(|&t| t as f64).collect::<Vec<_>>()
            };
            Some((position, median(&times(a))?, median(&times(b))?))
        })
        .collect()
}

/// Engine `b`'s time to depth over engine `a`'s: the geometric mean of the
/// per-position ratios of median times, with its bootstrap interval.
pub fn estimate(records: &[TtdRecord], a: usize, b: usize) -> Option<RatioEstimate> {
    paired_ratio(median_times(records, a, b).into_iter().map(|(_, ta, tb)| (ta, tb)))
}

/// A running engine of the pair, started again after a failure.
struct Timed {
    name: String,
    launch: Launch,
    hash_mb: u32,
    engine: Option<Engine>,
}

impl Timed {
    fn search(&mut self, fen: &str, depth: u32) -> Result<SearchOutput> {
        if self.engine.is_none() {
            let mut engine = Engine::launch(&self.launch, &self.name)?;
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

/// Every engine's search of one position in one round, in the round's order.
fn time_position(engines: &mut [Timed], round: usize, position: usize, suite: &Suite, depth: u32) -> TtdRecord {
    let fen = &suite.positions[position].fen;
    let order = search_order(engines.len(), round, position);
    let mut times_us = vec![0; engines.len()];
    let mut nodes = vec![0; engines.len()];
    let mut error = None;
    for &engine in &order {
        match engines[engine].search(fen, depth) {
            Ok(output) => {
                times_us[engine] = output.elapsed.as_micros() as u64;
                nodes[engine] = output.last_info().and_then(|info| info.nodes).unwrap_or(0);
            }
            Err(failure) => {
                error = Some(format!("{failure:#}"));
                break;
            }
        }
    }
    TtdRecord { round, position, id: suite.positions[position].id.clone(), order, times_us, nodes, error }
}

/// The markdown summary: each engine against its predecessor, then each
/// position's median times.
pub fn markdown(args: &TtdArgs, suite: &Suite, records: &[TtdRecord]) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "# lab ttd: {}, {} at depth {}, {} round(s) interleaved, Hash {}\n",
        args.engines.join(" | "),
        suite.name,
        args.depth,
        args.rounds,
        args.hash
    )
    .unwrap();
    for (index, pair) in args.engines.windows(2).enumerate() {
        match estimate(records, index, index + 1) {
            Some(ratio) => {
                writeln!(out, "- time to depth, {} over {}: {}", pair[1], pair[0], ratio.ratio_text()).unwrap()
            }
            None => writeln!(out, "- time to depth, {} over {}: no position timed without an error", pair[1], pair[0])
                .unwrap(),
        }
    }
    let failures = records.iter().filter(|record| record.error.is_some()).count();
    if failures > 0 {
        writeln!(out, "\n**{failures} position(s) failed in a round**; see records.jsonl").unwrap();
    }
    writeln!(
        out,
        "\n| position | {} |",
        args.engines.iter().map(|name| format!("{name} ms (median)")).collect::<Vec<_>>().join(" | ")
    )
    .unwrap();
    writeln!(out, "|---|{}", "---:|".repeat(args.engines.len())).unwrap();
    let columns: Vec<Vec<(usize, f64, f64)>> =
        (1..args.engines.len()).map(|engine| median_times(records, 0, engine)).collect();
    for (row, &(position, first, _)) in columns[0].iter().enumerate() {
        let rest: Vec<String> = columns
            .iter()
            .map(|column| column.get(row).map_or("-".to_string(), |(_, _, t)| format!("{:.1}", t / 1000.0)))
            .collect();
        writeln!(out, "| {} | {:.1} | {} |", suite.positions[position].id, first / 1000.0, rest.join(" | ")).unwrap();
    }
    out
}

/// A finished `lab ttd` run.
pub struct TtdRun {
    pub engines: Vec<String>,
    pub records: Vec<TtdRecord>,
    pub run_dir: PathBuf,
}

impl TtdRun {
    /// `b`'s time to depth over `a`'s (by name), when both were timed.
    pub fn estimate(&self, a: &str, b: &str) -> Option<RatioEstimate> {
        let index = |name: &str| self.engines.iter().position(|engine| engine == name);
        estimate(&self.records, index(a)?, index(b)?)
    }

    /// The sums of `a`'s and `b`'s per-position median times, in seconds.
    pub fn total_seconds(&self, a: &str, b: &str) -> Option<(f64, f64)> {
        let index = |name: &str| self.engines.iter().position(|engine| engine == name);
        let times = median_times(&self.records, index(a)?, index(b)?);
        Some(times.iter().fold((0.0, 0.0), |(sa, sb), (_, ta, tb)| (sa + ta / 1e6, sb + tb / 1e6)))
    }
}

/// Times the pairs not yet timed (all of them, unless resuming), writing
/// each as it is done; what `lab ttd`, `lab ab` and `lab chain` share.
pub fn run(lab: &Lab, args: &TtdArgs) -> Result<TtdRun> {
    if args.rounds == 0 {
        bail!("--rounds must be at least 1");
    }
    if args.engines.len() < 2 {
        bail!("time to depth compares two engines or more");
    }
    suites::check_depth(args.depth)?;
    let suite = suites::load_for_run(lab, &args.suite, args.first)?;
    let launches = participant::launches(lab, &args.engines)?;
    let run_args = RunArgs { concurrency: 1, resume: args.resume.clone() };
    let (mut run_dir, mut records): (_, Vec<TtdRecord>) = run_args.open(lab, "ttd", args)?;
    let timed = |name: &str, launch: &Launch| Timed {
        name: name.to_string(),
        launch: launch.clone(),
        hash_mb: args.hash,
        engine: None,
    };
    let mut engines: Vec<Timed> =
        args.engines.iter().zip(&launches).map(|(name, launch)| timed(name, launch)).collect();
    let pairs: Vec<(usize, usize)> = (0..args.rounds)
        .flat_map(|round| (0..suite.positions.len()).map(move |position| (round, position)))
        .filter(|&(round, position)| !records.iter().any(|r| r.round == round && r.position == position))
        .collect();
    let bar = lab.progress(pairs.len() as u64, &format!("ttd {}", suite.name));
    for (round, position) in pairs {
        let record = time_position(&mut engines, round, position, &suite, args.depth);
        if let Some(error) = &record.error {
            bar.suspend(|| lab.say(&format!("{}: {error}", record.id)));
        }
        run_dir.keep(&mut records, record)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    records.sort_by_key(|record| (record.round, record.position));
    let neighbours: Vec<serde_json::Value> = args
        .engines
        .windows(2)
        .enumerate()
        .map(|(index, pair)| {
            serde_json::json!({"a": pair[0], "b": pair[1], "time_to_depth": estimate(&records, index, index + 1)})
        })
        .collect();
    let summary = serde_json::json!({
        "engines": args.engines,
        "suite": suite.name,
        "depth": args.depth,
        "rounds": args.rounds,
        "hash": args.hash,
        "neighbours": neighbours,
    });
    run_dir.write_summary(&markdown(args, &suite, &records), &summary)?;
    Ok(TtdRun { engines: args.engines.clone(), records, run_dir: run_dir.path().to_path_buf() })
}

pub fn command(lab: &Lab, args: &TtdArgs) -> Result<()> {
    let run = run(lab, args)?;
    print_summary(lab, &run.run_dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(round: usize, position: usize, times_us: &[u64]) -> TtdRecord {
        TtdRecord {
            round,
            position,
            id: format!("p{position}"),
            order: search_order(times_us.len(), round, position),
            times_us: times_us.to_vec(),
            nodes: vec![1; times_us.len()],
            error: None,
        }
    }

    #[test]
    fn the_order_alternates_by_position_and_by_round() {
        assert_eq!(search_order(3, 0, 0), [0, 1, 2]);
        assert_eq!(search_order(3, 0, 1), [2, 1, 0]);
        assert_eq!(search_order(3, 1, 0), [2, 1, 0]);
        assert_eq!(search_order(2, 1, 1), [0, 1]);
    }

    #[test]
    fn a_slow_round_is_outvoted_by_the_median() {
        let records = [
            record(0, 0, &[1000, 900]),
            record(1, 0, &[1000, 5000]), // the machine was busy
            record(2, 0, &[1100, 950]),
            record(0, 1, &[2000, 2400]),
            record(1, 1, &[2000, 2400]),
            record(2, 1, &[2200, 2400]),
        ];
        assert_eq!(median_times(&records, 0, 1), [(0, 1000.0, 950.0), (1, 2000.0, 2400.0)]);
        let estimate = estimate(&records, 0, 1).unwrap();
        // sqrt(0.95 * 1.2)
        assert!((estimate.ratio - (0.95f64 * 1.2).sqrt()).abs() < 1e-12, "{estimate:?}");
        assert_eq!(estimate.positions, 2);
    }

    #[test]
    fn each_engine_is_compared_with_whom_it_is_asked() {
        let records = [record(0, 0, &[100, 200, 100]), record(0, 1, &[100, 50, 100])];
        let run = TtdRun {
            engines: vec!["a".into(), "b".into(), "c".into()],
            records: records.to_vec(),
            run_dir: PathBuf::new(),
        };
        // b against a: 2 and 1/2; c against b: 1/2 and 2; c against a: 1 and 1.
        assert!((run.estimate("a", "b").unwrap().ratio - 1.0).abs() < 1e-12);
        assert_eq!(run.estimate("a", "c").unwrap().interval, Some((1.0, 1.0)));
        assert_eq!(run.total_seconds("a", "b"), Some((0.0002, 0.00025)));
        assert_eq!(run.estimate("a", "z"), None);
    }

    #[test]
    fn failed_positions_do_not_count() {
        let mut failed = record(0, 0, &[0, 0]);
        failed.error = Some("engine b: the engine process exited".into());
        assert!(estimate(&[failed.clone()], 0, 1).is_none());
        assert_eq!(median_times(&[failed, record(1, 0, &[10, 20])], 0, 1), [(0, 10.0, 20.0)]);
    }
}
