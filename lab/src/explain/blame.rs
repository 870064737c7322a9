//! `lab blame A B`: for each position A solves and B does not, the first
//! decision of B's search that cut A's line.
//!
//! The run has two stages, each writing its records as they finish:
//!
//! 1. **Solve**: A and B search every position with the same limit, from
//!    `ucinewgame`, as `lab tactics` does (its records, plus the line of
//!    each search: the principal variation of its last completed
//!    iteration, which begins with the move played).
//! 2. **Blame**: for each position A solves and B does not (or the one
//!    `--position` names, when A solves it), B built with its features plus
//!    `trace` searches again under the same limit, tracing A's line (`trace
//!    <A's line>`), and [`verdict::blame`] reads the trace. The traced
//!    search visits exactly the nodes the untraced one does, so the replay
//!    must play B's move after B's node count; the record says whether it did.
//!
//! Only node and depth limits are offered: a replay under a clock would not
//! search the tree it explains.

mod trace;
mod verdict;

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Result};
use clap::Args;
use serde::{Deserialize, Serialize};

use crate::engines::builder;
use crate::engines::engine::{Engine, SearchOutput};
use crate::engines::runner::{self, Contestant, Job, RunArgs, Settings};
use crate::lab::Lab;
use crate::measure::suites::{self, Suite};
use crate::measure::tactics::{self, TacticsRecord};
use crate::results::{read_run, runs_of, RunDir};

pub use verdict::{Cause, Verdict};

#[derive(Args, Clone, Debug, Serialize)]
pub struct BlameArgs {
    /// The variant that solves: its line is traced.
    pub a: String,
    /// The variant that does not: its search is replayed along A's line.
    pub b: String,
    /// `wac`, `arasan`, `zugzwang`, another named suite, or an EPD file with `bm`/`am`.
    #[arg(long, default_value = "wac")]
    pub suite: String,
    /// Search this many nodes per position (the default: 100000).
    #[arg(long, value_name = "N", group = "limit")]
    pub nodes: Option<u64>,
    /// Search to this depth per position.
    #[arg(long, value_name = "D", group = "limit")]
    pub depth: Option<u32>,
    /// Blame this position (its `id`) only, whenever A solves it.
    #[arg(long, value_name = "ID")]
    pub position: Option<String>,
    /// Hash size in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: u32,
    #[command(flatten)]
    #[serde(skip)]
    pub run: RunArgs,
}

impl BlameArgs {
    /// The `go` command both variants and the replay search with, and how
    /// long before an engine counts as hung.
    fn go(&self) -> (String, Duration) {
        match self.depth {
            Some(depth) => (format!("go depth {depth}"), Duration::from_secs(3600)),
            None => (format!("go nodes {}", self.nodes.unwrap_or(tactics::DEFAULT_NODES)), Duration::from_secs(600)),
        }
    }

    fn limit_text(&self) -> String {
        self.go().0.trim_start_matches("go ").to_string()
    }
}

/// One variant's search of one position: the tactics record and its line.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SolveRecord {
    pub tactics: TacticsRecord,
    /// The principal variation of the last completed iteration (UCI).
    pub line: Vec<String>,
    /// The last completed iteration.
    pub completed_depth: u32,
    /// The depth of the report from which the move stayed a solution.
    pub solution_depth: Option<u32>,
}

/// B's replay of one position along A's line, and the verdict.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PositionBlame {
    pub position: usize,
    pub id: String,
    pub fen: String,
    /// A's line, traced.
    pub line: Vec<String>,
    pub a_played: String,
    pub b_played: String,
    pub b_solved: bool,
    /// What the traced replay played and after how many nodes.
    pub replay_played: String,
    pub replay_nodes: u64,
    /// Whether the replay played B's move after B's node count.
    pub replay_matches: bool,
    pub verdict: Option<Verdict>,
    /// The replay's trace lines, as the engine printed them.
    pub trace: Vec<String>,
    pub error: Option<String>,
}

/// A line of `records.jsonl`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "stage", rename_all = "kebab-case")]
pub enum BlameRecord {
    Solve(SolveRecord),
    Blame(Box<PositionBlame>),
}

fn solve_record(variant: &str, index: usize, suite: &Suite, outcome: Result<SearchOutput>) -> SolveRecord {
    let last = outcome.as_ref().ok().and_then(|output| output.last_info().cloned()).unwrap_or_default();
    let infos = outcome.as_ref().map(|output| output.infos.clone()).unwrap_or_default();
    let record = tactics::record_of(variant, index, &suite.positions[index], outcome);
    // The report tactics took the nodes to solution from.
    let solution_depth =
        record.solution_nodes.and_then(|nodes| infos.iter().find(|info| info.nodes == nodes)).map(|info| info.depth);
    SolveRecord { tactics: record, line: last.pv, completed_depth: last.depth, solution_depth }
}

/// The positions the run searches: the suite's with `bm` or `am`, or the
/// one `--position` names.
fn positions(lab: &Lab, args: &BlameArgs) -> Result<Suite> {
    let mut suite = suites::load(lab, &args.suite)?;
    suite.report_skipped(lab);
    suite.positions.retain(|position| !position.best.is_empty() || !position.avoid.is_empty());
    if let Some(id) = &args.position {
        let Some(found) = suite.positions.iter().find(|position| &position.id == id).cloned() else {
            let ids: Vec<&str> = suite.positions.iter().take(3).map(|position| position.id.as_str()).collect();
            bail!(
                "suite `{}` has no position with bm or am whose id is `{id}` (its ids: {}, ...)",
                suite.name,
                ids.join(", ")
            );
        };
        suite.positions = vec![found];
    }
    if suite.positions.is_empty() {
        bail!("suite `{}` has no positions with bm or am", suite.name);
    }
    Ok(suite)
}

/// The solve records of `variant`, by position.
fn solved_by<'a>(records: &'a [BlameRecord], variant: &str) -> BTreeMap<usize, &'a SolveRecord> {
    records
        .iter()
        .filter_map(|record| match record {
            BlameRecord::Solve(solve) if solve.tactics.variant == variant => Some((solve.tactics.position, solve)),
            _ => None,
        })
        .collect()
}

/// The positions to blame: A solved them (without error) and B did not, or,
/// with `--position`, A solved it.
fn to_blame(args: &BlameArgs, records: &[BlameRecord]) -> Vec<usize> {
    let (a, b) = (solved_by(records, &args.a), solved_by(records, &args.b));
    a.iter()
        .filter(|(_, record)| record.tactics.solved && record.tactics.error.is_none())
        .filter(|(position, _)| {
            b.get(position).is_some_and(|record| {
                record.tactics.error.is_none() && (args.position.is_some() || !record.tactics.solved)
            })
        })
        .map(|(&position, _)| position)
        .collect()
}

/// Replays B along A's line with the trace build and reads the verdict.
fn replay(engine: &mut Engine, args: &BlameArgs, suite: &Suite, a: &SolveRecord, b: &SolveRecord) -> PositionBlame {
    let index = a.tactics.position;
    let suite_position = &suite.positions[index];
    let mut blame = PositionBlame {
        position: index,
        id: suite_position.id.clone(),
        fen: suite_position.fen.clone(),
        line: a.line.clone(),
        a_played: a.tactics.played.clone(),
        b_played: b.tactics.played.clone(),
        b_solved: b.tactics.solved,
        replay_played: String::new(),
        replay_nodes: 0,
        replay_matches: false,
        verdict: None,
        trace: Vec::new(),
        error: None,
    };
    let (go, timeout) = args.go();
    let position = format!("position fen {}", suite_position.fen);
    let outcome = (|| {
        engine.new_game()?;
        engine.send(&position)?;
        engine.send(&format!("trace {}", a.line.join(" ")))?;
        if let Some(error) = engine.sync()?.into_iter().find(|text| text.starts_with("error")) {
            bail!("the trace build refused A's line: {error}");
        }
        let output = engine.go(&position, &go, timeout)?;
        let events = trace::events_of(&output.strings)?;
        let completed = output.last_info().map_or(0, |info| info.depth);
        let verdict = verdict::blame(&events, &a.line, completed, a.solution_depth)?;
        Ok((output, events, verdict))
    })();
    match outcome {
        Ok((output, events, verdict)) => {
            blame.replay_played = output.bestmove.clone();
            blame.replay_nodes = output.last_info().map_or(0, |info| info.nodes);
            blame.replay_matches = blame.replay_played == b.tactics.played && blame.replay_nodes == b.tactics.nodes;
            blame.trace = events.iter().map(ToString::to_string).collect();
            blame.verdict = Some(verdict);
        }
        Err(error) => blame.error = Some(format!("{error:#}")),
    }
    blame
}

/// How many lost positions each cause explains.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Counts {
    /// Technique → positions whose first cut it made.
    pub technique: BTreeMap<String, usize>,
    /// `technique feature` → positions.
    pub feature: BTreeMap<String, usize>,
    /// Non-pruning reason → positions.
    pub reason: BTreeMap<String, usize>,
}

pub fn counts<'a>(blames: impl Iterator<Item = &'a PositionBlame>) -> Counts {
    let mut counts = Counts::default();
    for verdict in blames.filter_map(|blame| blame.verdict.as_ref()) {
        match &verdict.cause {
            Cause::Pruned { technique, feature } => {
                *counts.technique.entry(technique.clone()).or_default() += 1;
                *counts.feature.entry(format!("{technique} {feature}")).or_default() += 1;
            }
            cause => *counts.reason.entry(cause.reason().to_string()).or_default() += 1,
        }
    }
    counts
}

/// Count tables, most positions first.
fn sorted(map: &BTreeMap<String, usize>) -> Vec<(&String, &usize)> {
    let mut rows: Vec<(&String, &usize)> = map.iter().collect();
    rows.sort_by(|x, y| y.1.cmp(x.1).then(x.0.cmp(y.0)));
    rows
}

/// The verdict in one table cell.
fn short(blame: &PositionBlame) -> String {
    if let Some(error) = &blame.error {
        return format!("failed: {error}");
    }
    let Some(verdict) = &blame.verdict else { return "-".to_string() };
    let event = verdict.event.as_ref();
    match (&verdict.cause, event) {
        (Cause::Pruned { technique, feature }, Some(event)) => {
            let through = if verdict.via.is_empty() { "" } else { ", through a TT cutoff" };
            format!("{technique} `{feature}` {} at ply {}{through}", event.kind.name(), event.ply)
        }
        (Cause::Budget, _) => format!(
            "not pruned: budget ended before depth {} (B: {})",
            verdict.solution_depth.unwrap_or_default(),
            verdict.completed_depth
        ),
        (cause, Some(event)) => format!("not pruned: {} at ply {}", cause.reason(), event.ply),
        (cause, None) => format!("not pruned: {}", cause.reason()),
    }
}

struct Summary {
    markdown: String,
    json: serde_json::Value,
}

fn summarize(lab: &Lab, args: &BlameArgs, suite: &Suite, records: &[BlameRecord]) -> Summary {
    let (a, b) = (&args.a, &args.b);
    let (a_solves, b_solves) = (solved_by(records, a), solved_by(records, b));
    let solved = |map: &BTreeMap<usize, &SolveRecord>| map.values().filter(|record| record.tactics.solved).count();
    let mut blames: Vec<&PositionBlame> = records
        .iter()
        .filter_map(|record| match record {
            BlameRecord::Blame(blame) => Some(blame.as_ref()),
            BlameRecord::Solve(_) => None,
        })
        .collect();
    blames.sort_by_key(|blame| blame.position);
    let counts = counts(blames.iter().copied());
    let a_features = lab.variant(a).map(|variant| variant.features.clone()).unwrap_or_default();
    let in_a = |feature: &str| feature == "baseline" || a_features.contains(&feature);

    let mut out = String::new();
    writeln!(
        out,
        "# lab blame: {b} against {a}, {} at {} per position, Hash {}\n",
        suite.name,
        args.limit_text(),
        args.hash
    )
    .unwrap();
    match &args.position {
        Some(id) => {
            let a_solved = a_solves.values().any(|record| record.tactics.solved);
            let b_solved = b_solves.values().any(|record| record.tactics.solved);
            writeln!(
                out,
                "{id}: {a} {}, {b} {}.",
                if a_solved { "solves it" } else { "does not solve it" },
                if b_solved { "solves it too" } else { "does not" }
            )
            .unwrap();
            if !a_solved {
                writeln!(out, "\nNothing to blame: {a}'s line is not a solution.").unwrap();
            }
        }
        None => writeln!(
            out,
            "{a} solves {} of {}, {b} {}; {} solved by {a} and not by {b}.",
            solved(&a_solves),
            suite.positions.len(),
            solved(&b_solves),
            blames.len()
        )
        .unwrap(),
    }
    if !blames.is_empty() {
        writeln!(
            out,
            "\nEach is searched again by {b} built with `trace`, following {a}'s line (the principal variation of its last \
             completed iteration). The first decision is the one nearest the root, in {b}'s last completed iteration, that \
             cut the line against the side that solves (README, \"Reading a blame\").\n"
        )
        .unwrap();
        writeln!(out, "| position | {a} plays | {b} plays | depth: {a}'s solution / {b}'s last | first decision that cut {a}'s line |")
            .unwrap();
        writeln!(out, "|---|---|---|---|---|").unwrap();
        for blame in &blames {
            let depths = blame.verdict.as_ref().map_or("-".to_string(), |verdict| {
                format!(
                    "{} / {}",
                    verdict.solution_depth.map_or("-".to_string(), |depth| depth.to_string()),
                    verdict.completed_depth
                )
            });
            writeln!(out, "| {} | {} | {} | {depths} | {} |", blame.id, blame.a_played, blame.b_played, short(blame))
                .unwrap();
        }

        writeln!(out, "\n## Counts\n").unwrap();
        let explained: usize = counts.technique.values().sum();
        writeln!(out, "A pruning decision cut {a}'s line in {explained} of {} positions.\n", blames.len()).unwrap();
        if !counts.technique.is_empty() {
            writeln!(out, "| technique | positions |\n|---|---:|").unwrap();
            for (technique, count) in sorted(&counts.technique) {
                writeln!(out, "| {technique} | {count} |").unwrap();
            }
            writeln!(out, "\n| technique | feature | positions | in {a} too |\n|---|---|---:|---|").unwrap();
            for (key, count) in sorted(&counts.feature) {
                let (technique, feature) = key.split_once(' ').unwrap_or((key, ""));
                writeln!(out, "| {technique} | `{feature}` | {count} | {} |", if in_a(feature) { "yes" } else { "no" })
                    .unwrap();
            }
        }
        if !counts.reason.is_empty() {
            writeln!(out, "\n| not pruned: reason | positions |\n|---|---:|").unwrap();
            for (reason, count) in sorted(&counts.reason) {
                writeln!(out, "| {reason} | {count} |").unwrap();
            }
        }

        writeln!(out, "\n## Positions").unwrap();
        for blame in &blames {
            writeln!(out, "\n### {}\n\n`{}`\n", blame.id, blame.fen).unwrap();
            writeln!(out, "- {a}'s line: {}", blame.line.join(" ")).unwrap();
            match (&blame.verdict, &blame.error) {
                (_, Some(error)) => writeln!(out, "- the replay failed: {error}").unwrap(),
                (Some(verdict), None) => writeln!(out, "- {}", verdict.text(&blame.line)).unwrap(),
                (None, None) => {}
            }
            if blame.error.is_none() {
                let agreement = if blame.replay_matches {
                    format!("as {b} did",)
                } else {
                    format!(
                        "**not as {b} did ({} after {} nodes): the trace may not explain its search**",
                        blame.b_played,
                        solve_nodes(&b_solves, blame.position)
                    )
                };
                writeln!(
                    out,
                    "- the traced replay played {} after {} nodes, {agreement}; {} trace events",
                    blame.replay_played,
                    blame.replay_nodes,
                    blame.trace.len()
                )
                .unwrap();
            }
        }
    }
    let json = serde_json::json!({
        "a": a,
        "b": b,
        "suite": suite.name,
        "limit": args.limit_text(),
        "hash": args.hash,
        "position": args.position,
        "positions": suite.positions.len(),
        "solved": { a.as_str(): solved(&a_solves), b.as_str(): solved(&b_solves) },
        "blames": blames.iter().map(|blame| serde_json::json!({
            "id": blame.id,
            "fen": blame.fen,
            "line": blame.line,
            "a_played": blame.a_played,
            "b_played": blame.b_played,
            "replay_matches": blame.replay_matches,
            "verdict": blame.verdict,
            "text": blame.verdict.as_ref().map(|verdict| verdict.text(&blame.line)),
            "error": blame.error,
        })).collect::<Vec<_>>(),
        "counts": counts,
    });
    Summary { markdown: out, json }
}

fn solve_nodes(records: &BTreeMap<usize, &SolveRecord>, position: usize) -> u64 {
    records.get(&position).map_or(0, |record| record.tactics.nodes)
}

/// A finished blame run.
pub struct BlameRun {
    pub markdown: String,
    pub run_dir: std::path::PathBuf,
}

pub fn run(lab: &Lab, args: &BlameArgs) -> Result<BlameRun> {
    lab.variant(&args.a)?;
    lab.variant(&args.b)?;
    if let Some(depth) = args.depth {
        suites::check_depth(depth)?;
    }
    let suite = positions(lab, args)?;
    let variants = [args.a.clone(), args.b.clone()];
    let binaries = builder::build_all(lab, &variants)?;
    let contestants: Vec<Contestant> = variants
        .iter()
        .zip(binaries)
        .map(|(name, binary)| Contestant { name: name.clone(), binary, has_telemetry: true })
        .collect();
    let (mut run_dir, mut records): (RunDir, Vec<BlameRecord>) = args.run.open(lab, "blame", args)?;

    // Stage 1: A and B on every position, as `lab tactics` searches them.
    let (go, timeout) = args.go();
    let jobs: Vec<Job> = (0..suite.positions.len())
        .flat_map(|position| (0..contestants.len()).map(move |contestant| (position, contestant)))
        .filter(|&(position, contestant)| !solved_by(&records, &contestants[contestant].name).contains_key(&position))
        .map(|(position, contestant)| Job {
            contestant,
            position,
            fen: suite.positions[position].fen.clone(),
            go: go.clone(),
            timeout,
        })
        .collect();
    let settings = Settings { hash_mb: args.hash, concurrency: args.run.concurrency, telemetry: false };
    let bar = lab.progress(jobs.len() as u64, &format!("blame: solve {}", suite.name));
    runner::run(&contestants, &jobs, &settings, |job, outcome| {
        let record = solve_record(&contestants[job.contestant].name, job.position, &suite, outcome);
        if let Some(error) = &record.tactics.error {
            bar.suspend(|| lab.say(&format!("{}: {error}", record.tactics.id)));
        }
        let record = BlameRecord::Solve(record);
        run_dir.append(&record)?;
        records.push(record);
        bar.inc(1);
        Ok(())
    })?;
    bar.finish_and_clear();

    // Stage 2: B's replay along A's line, for each position to blame.
    let done: Vec<usize> = records
        .iter()
        .filter_map(|record| match record {
            BlameRecord::Blame(blame) => Some(blame.position),
            BlameRecord::Solve(_) => None,
        })
        .collect();
    let pending: Vec<usize> =
        to_blame(args, &records).into_iter().filter(|position| !done.contains(position)).collect();
    if !pending.is_empty() {
        lab.say(&format!("building {} with trace", args.b));
        let traced = builder::ensure_built_with(lab, &args.b, &["trace"])?;
        let mut engine = Engine::start(&traced, &format!("{}+trace", args.b))?;
        engine.set_option("Hash", &args.hash.to_string())?;
        let (a_records, b_records) = (solved_by(&records, &args.a), solved_by(&records, &args.b));
        let bar = lab.progress(pending.len() as u64, "blame: replay");
        let mut blames = Vec::new();
        for &position in &pending {
            let blame = replay(&mut engine, args, &suite, a_records[&position], b_records[&position]);
            if let Some(error) = &blame.error {
                bar.suspend(|| lab.say(&format!("{}: {error}", blame.id)));
                // A failed engine is started again for the next position.
                engine = Engine::start(&traced, &format!("{}+trace", args.b))?;
                engine.set_option("Hash", &args.hash.to_string())?;
            }
            let record = BlameRecord::Blame(Box::new(blame));
            run_dir.append(&record)?;
            blames.push(record);
            bar.inc(1);
        }
        bar.finish_and_clear();
        records.extend(blames);
    }
    let summary = summarize(lab, args, &suite, &records);
    run_dir.write_summary(&summary.markdown, &summary.json)?;
    Ok(BlameRun { markdown: summary.markdown, run_dir: run_dir.path().to_path_buf() })
}

pub fn command(lab: &Lab, args: &BlameArgs) -> Result<()> {
    let run = run(lab, args)?;
    if lab.global.json {
        println!("{}", std::fs::read_to_string(run.run_dir.join("summary.json"))?);
    } else {
        println!("{}", run.markdown);
        lab.say(&format!("results: {}", run.run_dir.display()));
    }
    Ok(())
}

/// `lab report`'s section: the latest blame run's counts, or `None` when
/// there is none.
pub fn report_section(results: &Path) -> Option<String> {
    let run = runs_of(results, "blame").pop()?;
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("summary.json")).ok()?).ok()?;
    let started = read_run(&run).and_then(|run| run["started"].as_str().map(str::to_string)).unwrap_or_default();
    let counts: Counts = serde_json::from_value(summary["counts"].clone()).ok()?;
    let text = |key: &str| summary[key].as_str().unwrap_or("?").to_string();
    let blames = summary["blames"].as_array().map_or(0, Vec::len);
    let mut out = String::new();
    writeln!(
        out,
        "## Blame\n\nThe latest `lab blame` ({started}, `{}`): {} against {}, {} at {}: {blames} position(s) {} solves and {} does not.\n",
        run.file_name().map_or(String::new(), |name| name.to_string_lossy().into_owned()),
        text("b"),
        text("a"),
        text("suite"),
        text("limit"),
        text("a"),
        text("b")
    )
    .ok()?;
    if blames > 0 {
        writeln!(out, "| first decision that cut the line | positions |\n|---|---:|").ok()?;
        for (key, count) in sorted(&counts.feature) {
            let (technique, feature) = key.split_once(' ').unwrap_or((key, ""));
            writeln!(out, "| {technique} `{feature}` | {count} |").ok()?;
        }
        for (reason, count) in sorted(&counts.reason) {
            writeln!(out, "| not pruned: {reason} | {count} |").ok()?;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blame_with(cause: Cause) -> PositionBlame {
        PositionBlame {
            position: 0,
            id: "x".into(),
            fen: String::new(),
            line: vec!["e2e4".into()],
            a_played: "e2e4".into(),
            b_played: "d2d4".into(),
            b_solved: false,
            replay_played: "d2d4".into(),
            replay_nodes: 10,
            replay_matches: true,
            verdict: Some(Verdict {
                cause,
                event: None,
                via: Vec::new(),
                searched_past_later: Vec::new(),
                completed_depth: 5,
                solution_depth: Some(5),
            }),
            trace: Vec::new(),
            error: None,
        }
    }

    #[test]
    fn counts_go_by_technique_feature_and_reason() {
        let pruned = |technique: &str, feature: &str| {
            blame_with(Cause::Pruned { technique: technique.into(), feature: feature.into() })
        };
        let blames = [
            pruned("razoring", "razor-r2"),
            pruned("razoring", "razor-r1"),
            pruned("razoring", "razor-r2"),
            pruned("move_count", "lmp"),
            blame_with(Cause::Lmr),
            blame_with(Cause::Budget),
            blame_with(Cause::Lmr),
        ];
        let counts = counts(blames.iter());
        assert_eq!(counts.technique, BTreeMap::from([("move_count".into(), 1), ("razoring".into(), 3)]));
        assert_eq!(
            counts.feature,
            BTreeMap::from([
                ("move_count lmp".into(), 1),
                ("razoring razor-r1".into(), 1),
                ("razoring razor-r2".into(), 2)
            ])
        );
        assert_eq!(counts.reason, BTreeMap::from([("LMR".into(), 2), ("budget".into(), 1)]));
        assert_eq!(sorted(&counts.feature)[0], (&"razoring razor-r2".to_string(), &2));
    }

    #[test]
    fn records_of_both_stages_read_back() {
        let solve = BlameRecord::Solve(SolveRecord {
            tactics: TacticsRecord {
                variant: "a".into(),
                position: 3,
                id: "WAC.004".into(),
                played: "h6h1".into(),
                solved: true,
                nodes: 900,
                time_ms: 1,
                solution_nodes: Some(400),
                solution_time_ms: Some(1),
                error: None,
            },
            line: vec!["h6h1".into(), "g1h1".into()],
            completed_depth: 7,
            solution_depth: Some(4),
        });
        let blame = BlameRecord::Blame(Box::new(blame_with(Cause::Ordering)));
        for record in [solve, blame] {
            let line = serde_json::to_string(&record).unwrap();
            let back: BlameRecord = serde_json::from_str(&line).unwrap();
            assert_eq!(serde_json::to_string(&back).unwrap(), line);
        }
    }
}
