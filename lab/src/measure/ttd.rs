//! `lab ttd A B ...`: time to depth. The engines search the same positions
//! to the same depth from `ucinewgame`, one search at a time, interleaved:
//! in each round every position is searched by each engine back to back,
//! in the given order and then reversed, alternating from one position to
//! the next and from one round to the next, so whatever the machine does
//! meanwhile (another build, a cache flush, a clock change) falls on
//! neighbours alike, and neither of two neighbours always goes first.
//!
//! A search's time is the engine process's CPU time from `go` to `bestmove`
//! (all its threads), in microseconds, so even a few-millisecond search has
//! a ratio, and the time another process takes on a shared machine does not
//! count; `--clock wall` takes the wall time instead (kept besides in every
//! record). Each round starts the engines afresh: a process's placement in
//! memory makes it faster or slower for as long as it runs, and a fresh
//! process per round turns that into noise between rounds, which the
//! interval resamples, instead of a bias of the whole run.
//!
//! An engine's time against another's is the geometric mean of the
//! per-search ratios (position by position, round by round) with its 95%
//! bootstrap interval over positions and rounds (`crate::measure::ratio`'s
//! `crossed_ratio`): x0.95 is 5% faster to depth. The coverage of this
//! interval was measured on the same binary under two paths: see
//! docs/lab/ttd.md, "Coverage". `lab ab` times its two engines; `lab chain`
//! times the whole chain in one run, each variant beside its parent, so each
//! variant is searched once per round rather than twice.

use std::fmt::Write;
use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use games::engine::{Engine, Launch, SearchOutput};
use games::results::print_summary;
use serde::{Deserialize, Serialize};

use crate::engines::participant;
use crate::lab::options::SearchOptions;
use crate::lab::table::Table;
use crate::lab::Lab;
use crate::measure::ratio::{crossed_ratio, median, RatioEstimate};
use crate::measure::runner::{RunArgs, DEPTH_SEARCH_TIMEOUT};
use crate::measure::suites::{self, Suite};

/// What a verdict says of two identical searches (docs/verdicts.md,
/// "Identical searches"): their time to depth is noise.
pub const IDENTICAL_SEARCH: &str = "identical search";

#[derive(Args, Clone, Debug, Serialize)]
pub struct TtdArgs {
    /// The engines (variants or `uci:PATH`), the reference first; each is
    /// searched beside its neighbours.
    #[arg(required = true, num_args = 2..)]
    pub engines: Vec<String>,
    #[command(flatten)]
    #[serde(flatten)]
    pub search: SearchOptions,
    /// Rounds: each position is searched this many times by each engine.
    #[arg(long, default_value_t = DEFAULT_ROUNDS)]
    pub rounds: usize,
    /// Only the suite's first N positions.
    #[arg(long, value_name = "N")]
    pub first: Option<usize>,
    /// The clock a search is timed by: the engine process's CPU time, or
    /// the wall time (both are kept in the records).
    #[arg(long, value_enum, default_value_t = Clock::Cpu)]
    #[serde(default)]
    pub clock: Clock,
    /// Continue a run: its folder, or the latest `ttd` run.
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = "latest")]
    #[serde(skip)]
    pub resume: Option<String>,
}

/// Rounds when not given: enough for the rounds' share of the interval to
/// be measured (docs/lab/ttd.md, "Coverage").
pub const DEFAULT_ROUNDS: usize = 5;

/// What a search's time is read from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Clock {
    /// The engine process's CPU time, all threads (Linux).
    #[default]
    Cpu,
    /// The wall time from `go` to `bestmove`.
    Wall,
}

impl Clock {
    /// The clock `wanted` as `records` can give it: CPU time only where
    /// every search has one (not on systems without another process's CPU
    /// time, nor in runs kept before it was taken).
    pub fn available(wanted: Clock, records: &[TtdRecord]) -> Clock {
        let every_cpu = records.iter().filter(|r| r.error.is_none()).all(|r| r.cpu_us.len() == r.times_us.len());
        if wanted == Clock::Cpu && every_cpu {
            Clock::Cpu
        } else {
            Clock::Wall
        }
    }

    /// `CPU time` or `wall time`, for pages.
    pub fn words(self) -> &'static str {
        match self {
            Clock::Cpu => "CPU time",
            Clock::Wall => "wall time",
        }
    }

    /// Engine `engine`'s time in `record` by this clock, in microseconds.
    fn time(self, record: &TtdRecord, engine: usize) -> Option<u64> {
        match self {
            Clock::Cpu => record.cpu_us.get(engine).copied(),
            Clock::Wall => record.times_us.get(engine).copied(),
        }
    }
}

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
    /// The engine process's CPU time over the same span, in microseconds,
    /// per engine; empty where the system gives none, and in runs kept
    /// before it was taken.
    #[serde(default)]
    pub cpu_us: Vec<u64>,
    pub nodes: Vec<u64>,
    /// Each engine's best move.
    #[serde(default)]
    pub best: Vec<String>,
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

/// The per-position median times of engines `a` and `b` by `clock`, in
/// microseconds, for each position with at least one round without an
/// error, in position order: (position, A's, B's).
pub fn median_times(records: &[TtdRecord], a: usize, b: usize, clock: Clock) -> Vec<(usize, f64, f64)> {
    let mut positions: Vec<usize> = records.iter().map(|record| record.position).collect();
    positions.sort_unstable();
    positions.dedup();
    positions
        .into_iter()
        .filter_map(|position| {
            let good: Vec<&TtdRecord> =
                records.iter().filter(|record| record.position == position && record.error.is_none()).collect();
            let times =
                |engine: usize| good.iter().filter_map(|r| clock.time(r, engine)).map(|t| t as f64).collect::<Vec<_>>();
            Some((position, median(&times(a))?, median(&times(b))?))
        })
        .collect()
}

/// Engine `b`'s time to depth over engine `a`'s by `clock`: the geometric
/// mean of the per-search ratios, with its bootstrap interval over positions
/// and rounds.
pub fn estimate_by(records: &[TtdRecord], a: usize, b: usize, clock: Clock) -> Option<RatioEstimate> {
    let mut positions: Vec<usize> = records.iter().map(|record| record.position).collect();
    positions.sort_unstable();
    positions.dedup();
    let rounds = records.iter().map(|record| record.round + 1).max().unwrap_or(0);
    let cells: Vec<Vec<Option<f64>>> = positions
        .iter()
        .map(|&position| {
            (0..rounds)
                .map(|round| {
                    let record =
                        records.iter().find(|r| r.position == position && r.round == round && r.error.is_none())?;
                    let (ta, tb) = (clock.time(record, a)?, clock.time(record, b)?);
                    (ta > 0).then(|| tb as f64 / ta as f64)
                })
                .collect()
        })
        .collect();
    crossed_ratio(&cells)
}

/// [`estimate_by`] by CPU time where the records have it, else wall time.
pub fn estimate(records: &[TtdRecord], a: usize, b: usize) -> Option<RatioEstimate> {
    estimate_by(records, a, b, Clock::available(Clock::Cpu, records))
}

/// Whether engines `a` and `b` searched alike in every search both
/// finished, at least one: the same nodes and the same best move. Their
/// times then differ by noise alone.
pub fn identical_search(records: &[TtdRecord], a: usize, b: usize) -> bool {
    let mut good = records.iter().filter(|record| record.error.is_none()).peekable();
    good.peek().is_some()
        && good.all(|record| {
            record.nodes.get(a) == record.nodes.get(b)
                && !record.best.is_empty()
                && record.best.get(a) == record.best.get(b)
        })
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
    let mut cpu_us = Some(vec![0; engines.len()]);
    let mut nodes = vec![0; engines.len()];
    let mut best = vec![String::new(); engines.len()];
    let mut error = None;
    for &engine in &order {
        match engines[engine].search(fen, depth) {
            Ok(output) => {
                times_us[engine] = output.elapsed.as_micros() as u64;
                match (output.cpu, cpu_us.as_mut()) {
                    (Some(cpu), Some(times)) => times[engine] = cpu.as_micros() as u64,
                    _ => cpu_us = None,
                }
                nodes[engine] = output.last_info().and_then(|info| info.nodes).unwrap_or(0);
                best[engine] = output.bestmove;
            }
            Err(failure) => {
                error = Some(format!("{failure:#}"));
                break;
            }
        }
    }
    TtdRecord {
        round,
        position,
        id: suite.positions[position].id.clone(),
        order,
        times_us,
        cpu_us: cpu_us.unwrap_or_default(),
        nodes,
        best,
        error,
    }
}

/// The markdown summary: each engine against its predecessor, then each
/// position's median times.
pub fn markdown(args: &TtdArgs, suite: &Suite, records: &[TtdRecord]) -> String {
    let clock = Clock::available(args.clock, records);
    let mut out = String::new();
    writeln!(
        out,
        "# lab ttd: {}, {} at depth {}, {} round(s) interleaved, Hash {}, {}\n",
        args.engines.join(" | "),
        suite.name,
        args.search.depth,
        args.rounds,
        args.search.hash.mb,
        clock.words()
    )
    .unwrap();
    if clock != args.clock {
        writeln!(out, "(no CPU time here for every search: timed by wall time)\n").unwrap();
    }
    for (index, pair) in args.engines.windows(2).enumerate() {
        match estimate_by(records, index, index + 1, clock) {
            Some(ratio) if identical_search(records, index, index + 1) => writeln!(
                out,
                "- time to depth, {} over {}: {}: **{IDENTICAL_SEARCH}** (the same nodes and best move in every \
                 search), so the time differs by noise alone",
                pair[1],
                pair[0],
                ratio.ratio_text()
            )
            .unwrap(),
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
    let mut table = args.engines.iter().fold(Table::new().left("position"), |table, name| {
        table.right(format!("{name} ms (median {})", clock.words()))
    });
    let columns: Vec<Vec<(usize, f64, f64)>> =
        (1..args.engines.len()).map(|engine| median_times(records, 0, engine, clock)).collect();
    for (row, &(position, first, _)) in columns[0].iter().enumerate() {
        let rest = columns
            .iter()
            .map(|column| column.get(row).map_or("-".to_string(), |(_, _, t)| format!("{:.1}", t / 1000.0)));
        let cells = [suite.positions[position].id.clone(), format!("{:.1}", first / 1000.0)];
        table.push(cells.into_iter().chain(rest));
    }
    write!(out, "\n{table}").unwrap();
    out
}

/// A finished `lab ttd` run.
pub struct TtdRun {
    pub engines: Vec<String>,
    pub records: Vec<TtdRecord>,
    /// The clock the times were read from.
    pub clock: Clock,
    pub run_dir: PathBuf,
}

impl TtdRun {
    /// `b`'s time to depth over `a`'s (by name), when both were timed.
    pub fn estimate(&self, a: &str, b: &str) -> Option<RatioEstimate> {
        let index = |name: &str| self.engines.iter().position(|engine| engine == name);
        estimate_by(&self.records, index(a)?, index(b)?, self.clock)
    }

    /// The sums of `a`'s and `b`'s per-position median times, in seconds.
    pub fn total_seconds(&self, a: &str, b: &str) -> Option<(f64, f64)> {
        let index = |name: &str| self.engines.iter().position(|engine| engine == name);
        let times = median_times(&self.records, index(a)?, index(b)?, self.clock);
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
    suites::check_depth(args.search.depth)?;
    let suite = suites::load_for_run(lab, &args.search.suite, args.first)?;
    let launches = participant::launches(lab, &args.engines)?;
    let run_args = RunArgs { concurrency: 1, resume: args.resume.clone() };
    let (mut run_dir, mut records): (_, Vec<TtdRecord>) = run_args.open(lab, "ttd", args)?;
    let timed = |name: &str, launch: &Launch| Timed {
        name: name.to_string(),
        launch: launch.clone(),
        hash_mb: args.search.hash.mb,
        engine: None,
    };
    let mut engines: Vec<Timed> =
        args.engines.iter().zip(&launches).map(|(name, launch)| timed(name, launch)).collect();
    let pairs: Vec<(usize, usize)> = (0..args.rounds)
        .flat_map(|round| (0..suite.positions.len()).map(move |position| (round, position)))
        .filter(|&(round, position)| !records.iter().any(|r| r.round == round && r.position == position))
        .collect();
    let bar = lab.progress(pairs.len() as u64, &format!("ttd {}", suite.name));
    let mut last_round = None;
    for (round, position) in pairs {
        // Fresh processes each round (the module's comment says why).
        if last_round != Some(round) {
            for engine in &mut engines {
                engine.engine = None;
            }
        }
        last_round = Some(round);
        let record = time_position(&mut engines, round, position, &suite, args.search.depth);
        if let Some(error) = &record.error {
            bar.suspend(|| lab.say(&format!("{}: {error}", record.id)));
        }
        run_dir.keep(&mut records, record)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    records.sort_by_key(|record| (record.round, record.position));
    let clock = Clock::available(args.clock, &records);
    let neighbours: Vec<serde_json::Value> = args
        .engines
        .windows(2)
        .enumerate()
        .map(|(index, pair)| {
            serde_json::json!({
                "a": pair[0],
                "b": pair[1],
                "time_to_depth": estimate_by(&records, index, index + 1, clock),
                "identical_search": identical_search(&records, index, index + 1),
            })
        })
        .collect();
    let summary = serde_json::json!({
        "engines": args.engines,
        "suite": suite.name,
        "depth": args.search.depth,
        "rounds": args.rounds,
        "hash": args.search.hash.mb,
        "clock": clock,
        "neighbours": neighbours,
    });
    run_dir.write_summary(&markdown(args, &suite, &records), &summary)?;
    Ok(TtdRun { engines: args.engines.clone(), records, clock, run_dir: run_dir.path().to_path_buf() })
}

pub fn command(lab: &Lab, args: &TtdArgs) -> Result<()> {
    let run = run(lab, args)?;
    print_summary(&lab.session(), &run.run_dir)
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
            cpu_us: Vec::new(),
            nodes: vec![1; times_us.len()],
            best: vec!["e2e4".into(); times_us.len()],
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
    fn the_table_shows_medians_and_the_ratio_takes_every_search() {
        let records = [
            record(0, 0, &[1000, 900]),
            record(1, 0, &[1000, 5000]), // the machine was busy
            record(2, 0, &[1100, 950]),
            record(0, 1, &[2000, 2400]),
            record(1, 1, &[2000, 2400]),
            record(2, 1, &[2200, 2400]),
        ];
        assert_eq!(median_times(&records, 0, 1, Clock::Wall), [(0, 1000.0, 950.0), (1, 2000.0, 2400.0)]);
        let estimate = estimate(&records, 0, 1).unwrap();
        let logs = [0.9f64, 5.0, 950.0 / 1100.0, 1.2, 1.2, 2400.0 / 2200.0].map(f64::ln);
        assert!((estimate.ratio - (logs.iter().sum::<f64>() / 6.0).exp()).abs() < 1e-12, "{estimate:?}");
        assert_eq!(estimate.positions, 2);
    }

    #[test]
    fn cpu_time_is_read_where_every_search_has_it_else_wall_time() {
        let mut records = vec![record(0, 0, &[1000, 2000]), record(0, 1, &[1000, 2000])];
        for record in &mut records {
            record.cpu_us = vec![900, 900];
        }
        assert_eq!(Clock::available(Clock::Cpu, &records), Clock::Cpu);
        assert_eq!(Clock::available(Clock::Wall, &records), Clock::Wall);
        assert!((estimate(&records, 0, 1).unwrap().ratio - 1.0).abs() < 1e-12);
        assert!((estimate_by(&records, 0, 1, Clock::Wall).unwrap().ratio - 2.0).abs() < 1e-12);
        // One search without a CPU time (a run kept before it was taken): wall time throughout.
        records[1].cpu_us.clear();
        assert_eq!(Clock::available(Clock::Cpu, &records), Clock::Wall);
        assert!((estimate(&records, 0, 1).unwrap().ratio - 2.0).abs() < 1e-12);
    }

    #[test]
    fn identical_searches_are_named() {
        let alike = [record(0, 0, &[1000, 1300]), record(1, 0, &[1000, 1200])];
        assert!(identical_search(&alike, 0, 1));
        let mut other_move = alike.clone();
        other_move[1].best[1] = "d2d4".into();
        assert!(!identical_search(&other_move, 0, 1));
        let mut other_nodes = alike.clone();
        other_nodes[0].nodes[1] = 2;
        assert!(!identical_search(&other_nodes, 0, 1));
        assert!(!identical_search(&[], 0, 1));
    }

    #[test]
    fn each_engine_is_compared_with_whom_it_is_asked() {
        let records = [record(0, 0, &[100, 200, 100]), record(0, 1, &[100, 50, 100])];
        let run = TtdRun {
            engines: vec!["a".into(), "b".into(), "c".into()],
            records: records.to_vec(),
            clock: Clock::Wall,
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
        assert_eq!(median_times(&[failed, record(1, 0, &[10, 20])], 0, 1, Clock::Wall), [(0, 10.0, 20.0)]);
    }
}
