//! `lab nodes`: each variant searches each position of a suite to a fixed
//! depth from `ucinewgame` (one thread, fixed hash), and the lab compares
//! nodes, time, speed, effective branching factor, best move, score and
//! the technique telemetry, per position and in total.

use std::collections::BTreeMap;
use std::fmt::Write;

use anyhow::Result;
use clap::Args;
use games::engine::{Score, SearchOutput};
use games::results::print_summary;
use serde::{Deserialize, Serialize};

use crate::lab::options::SearchOptions;
use crate::lab::Lab;
use crate::measure::runner::{self, impl_suite_record, RunArgs, Settings, SuiteRun, SuiteSearch, DEPTH_SEARCH_TIMEOUT};
use crate::measure::suites::{self, Suite};
use crate::measure::telemetry::Telemetry;

/// The iterations a search reported (`info depth N` lines, each depth
/// once), kept with its telemetry.
pub const ITERATIONS: &str = "search.iterations";

#[derive(Args, Clone, Debug, Serialize)]
// Without a suite named, the seeds: the positions the snapshots count.
#[command(mut_arg("suite", |arg| arg.default_value("seeds")))]
pub struct NodesArgs {
    /// Variant names or UCI engines (`uci:PATH`); the first is the reference for the Δ columns.
    #[arg(required = true)]
    pub variants: Vec<String>,
    #[command(flatten)]
    #[serde(flatten)]
    pub search: SearchOptions,
    /// Only the suite's first N positions.
    #[arg(long, value_name = "N")]
    pub first: Option<usize>,
    #[command(flatten)]
    #[serde(skip)]
    pub run: RunArgs,
}

/// One variant's search of one position.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NodesRecord {
    pub variant: String,
    pub position: usize,
    pub id: String,
    pub fen: String,
    pub depth: u32,
    pub nodes: u64,
    pub time_ms: u64,
    pub nps: u64,
    /// `sqrt(N(d) / N(d-2))` over the iterations' cumulative node counts.
    pub ebf: Option<f64>,
    pub best: String,
    pub score: Option<Score>,
    pub telemetry: Telemetry,
    /// Why the search failed, when it did (the engine's name and what).
    pub error: Option<String>,
}

impl_suite_record!(NodesRecord);

/// The effective branching factor of the last iteration, smoothed over two.
pub fn effective_branching_factor(output: &SearchOutput) -> Option<f64> {
    let mut nodes_at_depth = BTreeMap::new();
    for info in &output.infos {
        if let Some(nodes) = info.nodes {
            nodes_at_depth.insert(info.depth, nodes);
        }
    }
    let (&depth, &nodes) = nodes_at_depth.iter().next_back()?;
    let earlier = *nodes_at_depth.get(&depth.checked_sub(2)?)?;
    (earlier > 0).then(|| (nodes as f64 / earlier as f64).sqrt())
}

/// What a search without a node count reported last, for its error.
fn last_reports(output: &SearchOutput) -> String {
    let report = output.last_info().map_or("no `info depth ...` line".to_string(), |info| {
        format!("its last `info depth {}` line has no `nodes`", info.depth)
    });
    format!("{report}, then `bestmove {}`", output.bestmove)
}

fn record_of(variant: &str, position: usize, suite: &Suite, depth: u32, outcome: Result<SearchOutput>) -> NodesRecord {
    let suite_position = &suite.positions[position];
    let mut record = NodesRecord {
        variant: variant.to_string(),
        position,
        id: suite_position.id.clone(),
        fen: suite_position.fen.clone(),
        depth,
        nodes: 0,
        time_ms: 0,
        nps: 0,
        ebf: None,
        best: String::new(),
        score: None,
        telemetry: Telemetry::default(),
        error: None,
    };
    match outcome {
        // A search that reports no node count is a failure, not 0 nodes: a
        // 0 would pass for data in every sum and claim.
        Ok(output) if output.last_info().and_then(|info| info.nodes).is_none() => {
            record.error = Some(format!(
                "`{variant}` gave no node count for position {} ({}): {}",
                suite_position.id,
                suite_position.fen,
                last_reports(&output)
            ));
        }
        Ok(output) => {
            let last = output.last_info().cloned().unwrap_or_default();
            record.nodes = last.nodes.unwrap_or_default();
            // The engine's own clock, which excludes pipe latency.
            record.time_ms = if last.time_ms > 0 { last.time_ms } else { output.elapsed.as_millis() as u64 };
            record.nps = record.nodes * 1000 / record.time_ms.max(1);
            record.ebf = effective_branching_factor(&output);
            record.best = output.bestmove.clone();
            record.score = output.score();
            // The lines in the plans' formats of any engine that had
            // `SearchStats` on (see `telemetry`), and the iterations it
            // reported, which the plans' "re-searches per iteration" count in.
            if output.search_stats {
                record.telemetry = Telemetry::parse(&output.strings);
                let depths: std::collections::BTreeSet<u32> = output.infos.iter().map(|info| info.depth).collect();
                record.telemetry.counts.insert(ITERATIONS.to_string(), depths.len() as u64);
            }
        }
        Err(error) => record.error = Some(format!("{error:#}")),
    }
    record
}

/// One variant's sums over the suite.
#[derive(Clone, Debug, Serialize)]
pub struct VariantTotals {
    pub variant: String,
    pub positions: usize,
    pub failures: usize,
    pub nodes: u64,
    pub time_ms: u64,
    pub nps: u64,
    /// Total nodes against the first variant's, in percent.
    pub delta_total_pct: Option<f64>,
    /// Geometric mean of the per-position node ratios, as a change in percent.
    pub delta_geomean_pct: Option<f64>,
    pub ebf_geomean: Option<f64>,
    pub telemetry: Telemetry,
}

fn geometric_mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, count) =
        values.filter(|value| *value > 0.0).fold((0.0, 0), |(sum, count), value| (sum + value.ln(), count + 1));
    (count > 0).then(|| (sum / count as f64).exp())
}

/// Per-variant totals, in the order of `variants`; the first is the reference.
pub fn totals(records: &[NodesRecord], variants: &[String]) -> Vec<VariantTotals> {
    let find = |variant: &str, position: usize| {
        records.iter().find(|record| record.variant == variant && record.position == position && record.error.is_none())
    };
    let reference = variants.first().map(String::as_str).unwrap_or("");
    variants
        .iter()
        .map(|variant| {
            let mine: Vec<&NodesRecord> =
                records.iter().filter(|record| &record.variant == variant && record.error.is_none()).collect();
            let nodes: u64 = mine.iter().map(|record| record.nodes).sum();
            let time_ms: u64 = mine.iter().map(|record| record.time_ms).sum();
            let mut telemetry = Telemetry::default();
            for record in &mine {
                telemetry.add(&record.telemetry);
            }
            // Compare over the positions both variants finished.
            let pairs: Vec<(u64, u64)> = mine
                .iter()
                .filter_map(|record| find(reference, record.position).map(|base| (base.nodes, record.nodes)))
                .collect();
            let base_nodes: u64 = pairs.iter().map(|(base, _)| base).sum();
            let compared_nodes: u64 = pairs.iter().map(|(_, nodes)| nodes).sum();
            VariantTotals {
                variant: variant.clone(),
                positions: mine.len(),
                failures: records.iter().filter(|record| &record.variant == variant && record.error.is_some()).count(),
                nodes,
                time_ms,
                nps: nodes * 1000 / time_ms.max(1),
                delta_total_pct: (base_nodes > 0).then(|| percent_change(compared_nodes as f64, base_nodes as f64)),
                delta_geomean_pct: geometric_mean(
                    pairs.iter().filter(|(base, _)| *base > 0).map(|(base, nodes)| *nodes as f64 / *base as f64),
                )
                .map(|ratio| (ratio - 1.0) * 100.0),
                ebf_geomean: geometric_mean(mine.iter().filter_map(|record| record.ebf)),
                telemetry,
            }
        })
        .collect()
}

pub fn percent_change(value: f64, reference: f64) -> f64 {
    (value / reference - 1.0) * 100.0
}

fn signed(value: Option<f64>) -> String {
    value.map_or("-".to_string(), |value| format!("{value:+.1}%"))
}

fn rate(telemetry: &Telemetry, name: &str) -> String {
    telemetry.rate(name).map_or("-".to_string(), |value| format!("{value:.1}%"))
}

const TELEMETRY_HEADER: &str =
    "null cut% | razor cut% | razor_b | fut cut% | fut_b | asp att/low/high | pvs re% | tt hit%";
const TELEMETRY_ALIGN: &str = "---:|---:|---|---:|---|---|---:|---:|";

fn count(telemetry: &Telemetry, key: &str) -> String {
    telemetry.count(key).map_or("-".to_string(), |count| count.to_string())
}

fn telemetry_cells(telemetry: &Telemetry) -> String {
    format!(
        "{} | {} | {} | {} | {} | {}/{}/{} | {} | {}",
        rate(telemetry, "null.cut%"),
        rate(telemetry, "razor.cut%"),
        telemetry.buckets_text("razor.razor_b").unwrap_or("-".into()),
        rate(telemetry, "fut.cut%"),
        telemetry.buckets_text("fut.fut_b").unwrap_or("-".into()),
        count(telemetry, "asp.att"),
        count(telemetry, "asp.low"),
        count(telemetry, "asp.high"),
        rate(telemetry, "pvs.re%"),
        rate(telemetry, "tt.hit%"),
    )
}

/// The plans' counters of each engine side by side, summed over the
/// positions it searched (rates from the sums): null move, razoring and
/// aspiration (plan 003's `null:`, plan 000's `razor:`, plan 003's `asp:`),
/// then the TT, PVS and the `prune:` totals. An engine that printed no
/// such line shows `-`.
pub fn plan_telemetry_table(rows: &[(&str, &Telemetry)]) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "| engine | null att | null cut | null cut% | razor att | razor cut | razor cut% | razor tactical% | razor_b \
         | asp att | asp low | asp high | asp att per iteration | tt hit% | pvs re% | prune fut | prune mcp |"
    )
    .unwrap();
    writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|").unwrap();
    let mut derived = Vec::new();
    for (engine, telemetry) in rows {
        let per_iteration = match (telemetry.count("asp.att"), telemetry.count(ITERATIONS)) {
            (Some(attempts), Some(iterations)) if iterations > 0 => {
                format!("{:.2}", attempts as f64 / iterations as f64)
            }
            _ => "-".to_string(),
        };
        writeln!(
            out,
            "| {engine} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {per_iteration} | {} | {} | {} | {} |",
            count(telemetry, "null.att"),
            count(telemetry, "null.cut"),
            rate(telemetry, "null.cut%"),
            count(telemetry, "razor.att"),
            count(telemetry, "razor.cut"),
            rate(telemetry, "razor.cut%"),
            rate(telemetry, "razor.tactical%"),
            telemetry.buckets_text("razor.razor_b").unwrap_or("-".into()),
            count(telemetry, "asp.att"),
            count(telemetry, "asp.low"),
            count(telemetry, "asp.high"),
            rate(telemetry, "tt.hit%"),
            rate(telemetry, "pvs.re%"),
            count(telemetry, "prune.fut"),
            count(telemetry, "prune.mcp"),
        )
        .unwrap();
        if !telemetry.derived.is_empty() {
            let keys: Vec<&str> = telemetry.derived.iter().map(String::as_str).collect();
            derived.push(format!("{engine}: {}", keys.join(", ")));
        }
    }
    if !derived.is_empty() {
        writeln!(
            out,
            "\nTaken back from a printed rate and its whole, to the rate's printed precision (the engine prints \
             no count): {}.",
            derived.join("; ")
        )
        .unwrap();
    }
    out
}

/// The markdown report: one table per position, then the totals.
pub fn markdown(args: &NodesArgs, suite: &Suite, records: &[NodesRecord]) -> String {
    let mut out = String::new();
    let reference = &args.variants[0];
    writeln!(
        out,
        "# lab nodes: {} at depth {}, Hash {}, one thread, from ucinewgame\n",
        suite.name, args.search.depth, args.search.hash.mb
    )
    .unwrap();
    for (position, suite_position) in suite.positions.iter().enumerate() {
        let base = records.iter().find(|r| &r.variant == reference && r.position == position && r.error.is_none());
        writeln!(out, "## {}\n\n`{}`\n", suite_position.id, suite_position.fen).unwrap();
        writeln!(out, "| variant | nodes | Δ% | time ms | nps | EBF | best | score | {TELEMETRY_HEADER} |").unwrap();
        writeln!(out, "|---|---:|---:|---:|---:|---:|---|---|{TELEMETRY_ALIGN}").unwrap();
        for variant in &args.variants {
            let Some(record) = records.iter().find(|r| &r.variant == variant && r.position == position) else {
                writeln!(out, "| {variant} | not run |").unwrap();
                continue;
            };
            if let Some(error) = &record.error {
                writeln!(out, "| {variant} | failed: {error} |").unwrap();
                continue;
            }
            let delta = base.map(|base| percent_change(record.nodes as f64, base.nodes as f64));
            writeln!(
                out,
                "| {variant} | {} | {} | {} | {} | {} | {} | {} | {} |",
                record.nodes,
                signed(delta),
                record.time_ms,
                record.nps,
                record.ebf.map_or("-".to_string(), |ebf| format!("{ebf:.2}")),
                record.best,
                record.score.map_or("-".to_string(), |score| score.to_string()),
                telemetry_cells(&record.telemetry)
            )
            .unwrap();
        }
        writeln!(out).unwrap();
    }
    writeln!(out, "## Totals\n").unwrap();
    writeln!(
        out,
        "| variant | positions | nodes | Δ% total | Δ% geomean | time s | nps | EBF geomean | {TELEMETRY_HEADER} | failures |"
    )
    .unwrap();
    writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|{TELEMETRY_ALIGN}---:|").unwrap();
    for total in totals(records, &args.variants) {
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {:.2} | {} | {} | {} | {} |",
            total.variant,
            total.positions,
            total.nodes,
            signed(total.delta_total_pct),
            signed(total.delta_geomean_pct),
            total.time_ms as f64 / 1000.0,
            total.nps,
            total.ebf_geomean.map_or("-".to_string(), |ebf| format!("{ebf:.2}")),
            telemetry_cells(&total.telemetry),
            total.failures
        )
        .unwrap();
    }
    let totals = totals(records, &args.variants);
    let rows: Vec<(&str, &Telemetry)> = totals
        .iter()
        .filter(|total| total.positions > 0)
        .map(|total| (total.variant.as_str(), &total.telemetry))
        .collect();
    writeln!(out, "\n## The plans' telemetry, summed over the positions\n").unwrap();
    out.push_str(&plan_telemetry_table(&rows));
    out
}

/// A finished `lab nodes` run.
pub type NodesRun = SuiteRun<NodesRecord>;

/// Builds the variants, runs the searches not yet done, and writes the
/// results; what `lab nodes` and `lab ab` share.
pub fn run(lab: &Lab, args: &NodesArgs) -> Result<NodesRun> {
    for participant in &args.variants {
        crate::engines::participant::check(lab, participant)?;
    }
    suites::check_depth(args.search.depth)?;
    let suite = suites::load_for_run(lab, &args.search.suite, args.first)?;
    let search = SuiteSearch {
        command: "nodes",
        variants: &args.variants,
        suite: &suite,
        go: format!("go depth {}", args.search.depth),
        timeout: DEPTH_SEARCH_TIMEOUT,
        settings: Settings { hash_mb: args.search.hash.mb, concurrency: args.run.concurrency, telemetry: true },
    };
    let (run_dir, records) = runner::run_suite(lab, &args.run, args, &search, |variant, position, outcome| {
        record_of(variant, position, &suite, args.search.depth, outcome)
    })?;
    let markdown = markdown(args, &suite, &records);
    let builds: serde_json::Map<String, serde_json::Value> =
        args.variants.iter().map(|variant| (variant.clone(), build_of(lab, variant).into())).collect();
    let summary = serde_json::json!({
        COMMIT: crate::tools::commit(&lab.root),
        BUILDS: builds,
        "suite": suite.name,
        "depth": args.search.depth,
        "hash": args.search.hash.mb,
        "variants": args.variants,
        "totals": totals(&records, &args.variants),
        "positions": records,
    });
    run_dir.write_summary(&markdown, &summary)?;
    Ok(NodesRun { suite, records, run_dir: run_dir.path().to_path_buf() })
}

/// The keys of a nodes run's summary that say what its binaries were: the
/// commit they are built from, and each participant's build (`build_of`),
/// so `lab report` merges and compares no counts of unlike binaries.
pub const COMMIT: &str = "commit";
pub const BUILDS: &str = "builds";

/// What a participant's binary is built as: for a variant of ours, its
/// feature set; for another engine, its spec (the lab cannot see inside
/// its binary).
pub fn build_of(lab: &Lab, participant: &str) -> String {
    match lab.own_variant(participant) {
        Ok(variant) => format!("features [{}]", variant.features.join(" ")),
        Err(_) => participant.to_string(),
    }
}

pub fn command(lab: &Lab, args: &NodesArgs) -> Result<()> {
    let run = run(lab, args)?;
    print_summary(&lab.session(), &run.run_dir)
}

#[cfg(test)]
mod tests {
    use games::engine::Info;

    use super::*;

    fn info(depth: u32, nodes: u64) -> Info {
        Info { depth, nodes: Some(nodes), ..Default::default() }
    }

    #[test]
    fn ebf_uses_the_last_report_of_each_depth() {
        let output = SearchOutput {
            infos: vec![info(1, 10), info(2, 40), info(3, 90), info(3, 160), info(4, 360)],
            ..Default::default()
        };
        // sqrt(360 / 40) = 3.
        assert_eq!(effective_branching_factor(&output), Some(3.0));
        assert_eq!(effective_branching_factor(&SearchOutput { infos: vec![info(1, 5)], ..Default::default() }), None);
    }

    #[test]
    fn a_search_without_a_node_count_is_an_error_naming_the_engine_and_position() {
        let fen = "8/8/1p1r1k2/p1pPN1p1/P3KnP1/1P6/8/3R4 b - -";
        let position = suites::SuitePosition {
            id: "zugzwang-endgame".into(),
            fen: fen.into(),
            best: Vec::new(),
            avoid: Vec::new(),
        };
        let suite = Suite { name: "two".into(), positions: vec![position], skipped: Vec::new() };
        let without_nodes = SearchOutput {
            bestmove: "f6e7".into(),
            infos: vec![Info { depth: 3, ..Default::default() }],
            ..Default::default()
        };
        let record = record_of("uci:/engines/quiet", 0, &suite, 3, Ok(without_nodes));
        assert_eq!(
            record.error.as_deref(),
            Some(
                "`uci:/engines/quiet` gave no node count for position zugzwang-endgame \
                 (8/8/1p1r1k2/p1pPN1p1/P3KnP1/1P6/8/3R4 b - -): its last `info depth 3` line has no `nodes`, \
                 then `bestmove f6e7`"
            )
        );
        let without_reports = SearchOutput { bestmove: "f6e7".into(), ..Default::default() };
        let record = record_of("uci:/engines/quiet", 0, &suite, 3, Ok(without_reports));
        assert!(
            record.error.as_deref().unwrap().ends_with(": no `info depth ...` line, then `bestmove f6e7`"),
            "{record:?}"
        );
        // Failed, it weighs in no total.
        let totals = totals(&[record], &["uci:/engines/quiet".to_string()]);
        assert_eq!((totals[0].positions, totals[0].failures, totals[0].nodes), (0, 1, 0));
    }

    fn record(variant: &str, position: usize, nodes: u64) -> NodesRecord {
        NodesRecord {
            variant: variant.into(),
            position,
            id: format!("p{position}"),
            fen: String::new(),
            depth: 5,
            nodes,
            time_ms: 100,
            nps: nodes * 10,
            ebf: Some(2.0),
            best: "e2e4".into(),
            score: Some(Score::Cp(10)),
            telemetry: Telemetry::default(),
            error: None,
        }
    }

    #[test]
    fn totals_compare_against_the_first_variant() {
        let records = [record("a", 0, 100), record("a", 1, 400), record("b", 0, 50), record("b", 1, 800)];
        let totals = totals(&records, &["a".to_string(), "b".to_string()]);
        assert_eq!(totals[0].delta_total_pct, Some(0.0));
        assert_eq!(totals[1].nodes, 850);
        assert!((totals[1].delta_total_pct.unwrap() - 70.0).abs() < 1e-9);
        // Ratios 0.5 and 2: geometric mean 1, no change.
        assert!(totals[1].delta_geomean_pct.unwrap().abs() < 1e-9);
        assert_eq!(totals[1].nps, 4250);
    }
}
