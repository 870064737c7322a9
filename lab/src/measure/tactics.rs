//! `lab tactics`: solve counts on a test suite. A position is solved when
//! the engine's move is one of its `bm` moves (if it has any) and none of
//! its `am` moves (if it has any). The time or nodes to solution is the
//! first report from which the principal move stayed a solution to the end.

use std::fmt::Write;
use std::time::Duration;

use anyhow::{bail, Result};
use clap::Args;
use games::engine::SearchOutput;
use games::results::print_summary;
use serde::{Deserialize, Serialize};

use crate::lab::options::HashOption;
use crate::lab::table::Table;
use crate::lab::Lab;
use crate::measure::runner::{
    self, impl_suite_record, RunArgs, Settings, SuiteRun, SuiteSearch, DEPTH_SEARCH_TIMEOUT, NODES_SEARCH_TIMEOUT,
};
use crate::measure::suites::{self, Suite, SuitePosition};

#[derive(Args, Clone, Debug, Serialize)]
pub struct TacticsArgs {
    /// Variant names or UCI engines (`uci:PATH`); the first is the reference for the comparisons.
    #[arg(required = true)]
    pub variants: Vec<String>,
    /// `wac`, `arasan`, `zugzwang`, another named suite, or an EPD file with `bm`/`am`.
    #[arg(long, default_value = "wac")]
    pub suite: String,
    /// Think this many milliseconds per position.
    #[arg(long, value_name = "MS", group = "limit")]
    pub movetime: Option<u64>,
    /// Search this many nodes per position (the default: 100000; reproducible).
    #[arg(long, value_name = "N", group = "limit")]
    pub nodes: Option<u64>,
    /// Search to this depth per position.
    #[arg(long, value_name = "N", group = "limit")]
    pub depth: Option<u32>,
    #[command(flatten)]
    pub hash: HashOption,
    /// Only the suite's first N positions.
    #[arg(long, value_name = "N")]
    pub first: Option<usize>,
    #[command(flatten)]
    #[serde(skip)]
    pub run: RunArgs,
}

/// The default limit: reproducible, about 0.1 s a position.
pub const DEFAULT_NODES: u64 = 100_000;

impl TacticsArgs {
    /// The `go` command and how long before the engine counts as hung.
    fn go(&self) -> (String, Duration) {
        match (self.movetime, self.nodes, self.depth) {
            (Some(ms), _, _) => (format!("go movetime {ms}"), Duration::from_millis(ms) + Duration::from_secs(10)),
            (_, _, Some(depth)) => (format!("go depth {depth}"), DEPTH_SEARCH_TIMEOUT),
            (_, nodes, _) => (format!("go nodes {}", nodes.unwrap_or(DEFAULT_NODES)), NODES_SEARCH_TIMEOUT),
        }
    }

    pub fn limit_text(&self) -> String {
        self.go().0.trim_start_matches("go ").to_string()
    }
}

/// One variant's answer to one position.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TacticsRecord {
    pub variant: String,
    pub position: usize,
    pub id: String,
    pub played: String,
    pub solved: bool,
    pub nodes: u64,
    pub time_ms: u64,
    /// Nodes and time of the report from which the move stayed a solution.
    pub solution_nodes: Option<u64>,
    pub solution_time_ms: Option<u64>,
    pub error: Option<String>,
}

impl_suite_record!(TacticsRecord);

fn is_solution(position: &SuitePosition, mv: &str) -> bool {
    (position.best.is_empty() || position.best.iter().any(|best| best == mv))
        && !position.avoid.iter().any(|avoid| avoid == mv)
}

pub(crate) fn record_of(
    variant: &str,
    index: usize,
    position: &SuitePosition,
    outcome: Result<SearchOutput>,
) -> TacticsRecord {
    let mut record = TacticsRecord {
        variant: variant.to_string(),
        position: index,
        id: position.id.clone(),
        played: String::new(),
        solved: false,
        nodes: 0,
        time_ms: 0,
        solution_nodes: None,
        solution_time_ms: None,
        error: None,
    };
    match outcome {
        Ok(output) => {
            let last = output.last_info().cloned().unwrap_or_default();
            record.nodes = last.nodes.unwrap_or(0);
            record.time_ms = if last.time_ms > 0 { last.time_ms } else { output.elapsed.as_millis() as u64 };
            record.solved = is_solution(position, &output.bestmove);
            record.played = output.bestmove;
            if record.solved {
                // Walk back while the principal move is a solution.
                let mut first = None;
                for info in output.infos.iter().rev() {
                    match info.pv.first() {
                        Some(mv) if is_solution(position, mv) => first = Some(info),
                        Some(_) => break,
                        None => {}
                    }
                }
                let (nodes, time_ms) =
                    first.map_or((record.nodes, record.time_ms), |info| (info.nodes.unwrap_or(0), info.time_ms));
                record.solution_nodes = Some(nodes);
                record.solution_time_ms = Some(time_ms);
            }
        }
        Err(error) => record.error = Some(format!("{error:#}")),
    }
    record
}

/// One variant's solve counts.
#[derive(Clone, Debug, Serialize)]
pub struct TacticsTotals {
    pub variant: String,
    pub solved: usize,
    pub positions: usize,
    pub bm_solved: usize,
    pub bm_positions: usize,
    pub am_solved: usize,
    pub am_positions: usize,
    /// Averages over the positions every variant solved, so they compare.
    pub common_solved: usize,
    pub mean_solution_nodes: Option<f64>,
    pub mean_solution_time_ms: Option<f64>,
    pub failures: usize,
    /// Solved by this variant and not by the first, and the reverse.
    pub gained: Vec<String>,
    pub lost: Vec<String>,
}

pub fn totals(suite: &Suite, records: &[TacticsRecord], variants: &[String]) -> Vec<TacticsTotals> {
    let find = |variant: &str, position: usize| records.iter().find(|r| r.variant == variant && r.position == position);
    let solved_by = |variant: &str, position: usize| find(variant, position).is_some_and(|record| record.solved);
    let common: Vec<usize> =
        (0..suite.positions.len()).filter(|&position| variants.iter().all(|v| solved_by(v, position))).collect();
    let reference = variants.first().map(String::as_str).unwrap_or("");
    variants
        .iter()
        .map(|variant| {
            let count = |filter: &dyn Fn(&SuitePosition) -> bool, solved_only: bool| {
                suite
                    .positions
                    .iter()
                    .enumerate()
                    .filter(|(position, suite_position)| {
                        filter(suite_position) && (!solved_only || solved_by(variant, *position))
                    })
                    .count()
            };
            let has_bm = |position: &SuitePosition| !position.best.is_empty();
            let has_am = |position: &SuitePosition| !position.avoid.is_empty();
            let mean = |value: &dyn Fn(&TacticsRecord) -> Option<u64>| {
                let values: Vec<f64> =
                    common.iter().filter_map(|&p| find(variant, p).and_then(value)).map(|v| v as f64).collect();
                (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
            };
            let ids = |mine: bool| {
                suite
                    .positions
                    .iter()
                    .enumerate()
                    .filter(|(position, _)| {
                        solved_by(variant, *position) == mine && solved_by(reference, *position) != mine
                    })
                    .map(|(_, position)| position.id.clone())
                    .collect()
            };
            TacticsTotals {
                variant: variant.clone(),
                solved: records.iter().filter(|r| &r.variant == variant && r.solved).count(),
                positions: suite.positions.len(),
                bm_solved: count(&has_bm, true),
                bm_positions: count(&has_bm, false),
                am_solved: count(&has_am, true),
                am_positions: count(&has_am, false),
                common_solved: common.len(),
                mean_solution_nodes: mean(&|record| record.solution_nodes),
                mean_solution_time_ms: mean(&|record| record.solution_time_ms),
                failures: records.iter().filter(|r| &r.variant == variant && r.error.is_some()).count(),
                gained: ids(true),
                lost: ids(false),
            }
        })
        .collect()
}

pub fn markdown(args: &TacticsArgs, suite: &Suite, records: &[TacticsRecord]) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "# lab tactics: {} ({} positions), {} per position, Hash {}\n",
        suite.name,
        suite.positions.len(),
        args.limit_text(),
        args.hash.mb
    )
    .unwrap();
    let mut table = Table::new()
        .left("variant")
        .right("solved")
        .right("bm")
        .right("am")
        .right("mean nodes to solution")
        .right("mean ms to solution")
        .right("failures");
    let totals = totals(suite, records, &args.variants);
    for total in &totals {
        table.push([
            total.variant.clone(),
            format!("{}/{}", total.solved, total.positions),
            format!("{}/{}", total.bm_solved, total.bm_positions),
            format!("{}/{}", total.am_solved, total.am_positions),
            total.mean_solution_nodes.map_or("-".to_string(), |nodes| format!("{nodes:.0}")),
            total.mean_solution_time_ms.map_or("-".to_string(), |ms| format!("{ms:.0}")),
            total.failures.to_string(),
        ]);
    }
    write!(out, "{table}").unwrap();
    if let Some(common) = totals.first().map(|total| total.common_solved) {
        writeln!(out, "\nMeans to solution are over the {common} positions every variant solved.").unwrap();
    }
    let reference = &args.variants[0];
    for total in totals.iter().skip(1) {
        let list = |ids: &[String]| if ids.is_empty() { "none".to_string() } else { ids.join(", ") };
        writeln!(out, "\n- solved by {} and not by {reference}: {}", total.variant, list(&total.gained)).unwrap();
        writeln!(out, "- solved by {reference} and not by {}: {}", total.variant, list(&total.lost)).unwrap();
    }
    out
}

/// A finished `lab tactics` run.
pub type TacticsRun = SuiteRun<TacticsRecord>;

pub fn run(lab: &Lab, args: &TacticsArgs) -> Result<TacticsRun> {
    for participant in &args.variants {
        crate::engines::participant::check(lab, participant)?;
    }
    let mut suite = suites::load(lab, &args.suite)?;
    suite.report_skipped(lab);
    let unanswered = suite.positions.iter().filter(|p| p.best.is_empty() && p.avoid.is_empty()).count();
    if unanswered > 0 {
        lab.say(&format!("suite {}: {unanswered} position(s) without bm or am are left out", suite.name));
        suite.positions.retain(|position| !position.best.is_empty() || !position.avoid.is_empty());
    }
    if let Some(first) = args.first {
        suite.positions.truncate(first);
    }
    if suite.positions.is_empty() {
        bail!("suite `{}` has no positions with bm or am", suite.name);
    }
    let (go, timeout) = args.go();
    let search = SuiteSearch {
        command: "tactics",
        variants: &args.variants,
        suite: &suite,
        go,
        timeout,
        settings: Settings { hash_mb: args.hash.mb, concurrency: args.run.concurrency, telemetry: false },
    };
    let (run_dir, records) = runner::run_suite(lab, &args.run, args, &search, |variant, position, outcome| {
        record_of(variant, position, &suite.positions[position], outcome)
    })?;
    let markdown = markdown(args, &suite, &records);
    let summary = serde_json::json!({
        "suite": suite.name,
        "limit": args.limit_text(),
        "hash": args.hash.mb,
        "variants": args.variants,
        "totals": totals(&suite, &records, &args.variants),
        "positions": records,
    });
    run_dir.write_summary(&markdown, &summary)?;
    Ok(TacticsRun { suite, records, run_dir: run_dir.path().to_path_buf() })
}

pub fn command(lab: &Lab, args: &TacticsArgs) -> Result<()> {
    let run = run(lab, args)?;
    print_summary(&lab.session(), &run.run_dir)
}

#[cfg(test)]
mod tests {
    use games::engine::Info;

    use super::*;

    fn position(best: &[&str], avoid: &[&str]) -> SuitePosition {
        SuitePosition {
            id: "t".into(),
            fen: String::new(),
            best: best.iter().map(|m| m.to_string()).collect(),
            avoid: avoid.iter().map(|m| m.to_string()).collect(),
        }
    }

    fn info(nodes: u64, pv: &str) -> Info {
        Info { depth: 1, nodes: Some(nodes), time_ms: nodes / 10, pv: vec![pv.to_string()], ..Default::default() }
    }

    #[test]
    fn best_and_avoid_moves_decide_and_the_solution_time_is_when_it_stuck() {
        let wac = position(&["g3g6", "f1f7"], &[]);
        assert!(is_solution(&wac, "f1f7") && !is_solution(&wac, "e2e4"));
        let avoid = position(&[], &["a2a4"]);
        assert!(is_solution(&avoid, "e2e4") && !is_solution(&avoid, "a2a4"));
        let output = SearchOutput {
            bestmove: "g3g6".into(),
            infos: vec![info(100, "g3g6"), info(200, "e2e4"), info(300, "g3g6"), info(400, "f1f7")],
            ..Default::default()
        };
        let record = record_of("x", 0, &wac, Ok(output));
        assert!(record.solved);
        assert_eq!(record.solution_nodes, Some(300));
        assert_eq!(record.solution_time_ms, Some(30));
        let failed = record_of("x", 0, &wac, Err(anyhow::anyhow!("engine x: exited")));
        assert!(!failed.solved && failed.error.is_some());
    }
}
