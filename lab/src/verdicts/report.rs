//! `lab report`: the latest measurements of every variant, from the result
//! files of earlier runs (`lab nodes` and `lab tactics`, and the same steps
//! inside `lab ab` and `lab chain` runs), as `lab-results/report.md` and a
//! bar chart of node change against each variant's parent,
//! `lab-results/report-nodes.svg`, and the same numbers plotted on a page,
//! `lab-results/report/index.html` (`page`, its plots in `figures`).
//! `--figures DIR` draws the book's figures instead (`book_figures`).
//! Every claim of every variant file is
//! judged: node claims on the geometric mean of the per-position ratios
//! against the parent with its 95% interval, rates on the variant's
//! telemetry, solved claims on a tactics run of the claimed suite that has
//! both the variant and its parent.
//!
//! Games decide, so the report opens with every variant's games against its
//! parent (`lab match`, `lab ab --sprt`, `lab openbench status`), and which
//! fast measure they contradict.
//!
//! Plan 002's own success criteria, which are no phase's claims, are judged
//! for its chain's start and end in a section of their own
//! (`plan_criteria`).
//! Then the atlas (`lab atlas`'s games at fixed nodes, from the
//! repository's `atlas/atlas.jsonl`) and the calibration table, which sets
//! each variant's fast measures beside its atlas Elo (`calibration`), and
//! the matches at a time control (`atlas/time-controls.toml`) beside the
//! atlas's games of the same two searches (`time_controls`).
//!
//! Nothing is searched unless `--measure` asks for it: a variant without a
//! `lab nodes` run (or whose parent has none on the same suite and depth) is
//! listed with the command that would measure it.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use anyhow::{Context, Result};
use games::results::{read_records, read_run, runs_of_nested, write_atomically};
use plotters::prelude::*;
use prunelab::stats::MOVE_NUMBER_EDGES;

use crate::lab::options::SearchOptions;
use crate::lab::table::Table;
use crate::lab::{Lab, Side};
use crate::measure::nodes::NodesRecord;
use crate::measure::ratio::{paired_ratio, RatioEstimate};
use crate::measure::suites::SuiteContent;
use crate::measure::tactics::TacticsRecord;
use crate::measure::telemetry::Telemetry;
use crate::plots::{self, Key};
use crate::variants::grammar::{self, Planned, Scope};
use crate::verdicts::atlas::entries::{self, AtlasEntry};
use crate::verdicts::atlas::{fast_measures, text, time_controls};
use crate::verdicts::calibration;
use crate::verdicts::claims::Solved;
use crate::verdicts::claims::{self, ClaimStanding, Evidence, NodeChange, NodeSetting, OwnNodes};
use crate::verdicts::decision::Tally;
use crate::verdicts::evidence::{self, ratio_signal};
use crate::verdicts::plan_criteria;

pub mod book_figures;
mod figures;
pub mod page;

/// A `lab nodes` run's settings: records of runs alike in all of them
/// merge (the latest search of a position wins), and no others do.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Setting {
    /// The suite as the run was given it: a name or a file.
    suite: String,
    /// What the run searched: a hash of its positions, and how many
    /// (`SuiteContent`), so two files of one name do not merge.
    content: (String, usize),
    depth: u64,
    hash_mb: u64,
    first: Option<u64>,
    /// The commit the binaries were built from (`+dirty` when the engine's
    /// files differed from it): a variant is compared with its parent only
    /// as built from the same one.
    commit: String,
}

/// A variant's latest searches at one setting, all by one build.
struct Searches {
    /// The variant's build ([`build_of`]): a later run of it built
    /// otherwise (another feature set) replaces these searches instead of
    /// joining them.
    build: String,
    /// When the latest run of them was, among the runs read (oldest 0).
    run_order: usize,
    /// Position id and FEN → record.
    records: BTreeMap<(String, String), NodesRecord>,
}

/// The latest searches per variant and setting.
#[derive(Default)]
struct NodeData {
    latest: BTreeMap<(String, Setting), Searches>,
}

/// A setting as the verdicts write it: `verdict at depth 10`.
fn setting_text(setting: &Setting) -> String {
    node_setting(setting).to_string()
}

/// A setting as claims compare it: the suite's name and positions, and the depth.
fn node_setting(setting: &Setting) -> NodeSetting {
    NodeSetting {
        suite: crate::measure::suites::name(&setting.suite),
        depth: u32::try_from(setting.depth).unwrap_or(u32::MAX),
        content: Some(SuiteContent { hash: setting.content.0.clone(), positions: setting.content.1 }),
    }
}

/// A nodes run's setting, from its arguments, the positions its records
/// searched and its summary's commit (a run that kept none, an older one or
/// one stopped before its summary, is of an unknown commit).
fn setting_of(run: &Path, records: &[NodesRecord], summary: &serde_json::Value) -> Option<Setting> {
    let run_file = read_run(run)?;
    let args = &run_file["args"];
    let content = SuiteContent::of_fens(records.iter().map(|record| record.fen.as_str()));
    Some(Setting {
        suite: args["suite"].as_str()?.to_string(),
        content: (content.hash, content.positions),
        depth: args["depth"].as_u64()?,
        hash_mb: args["hash"].as_u64().unwrap_or(16),
        first: args["first"].as_u64(),
        commit: summary[crate::measure::nodes::COMMIT].as_str().unwrap_or("unknown commit").to_string(),
    })
}

/// The build of `variant` a nodes run searched with, as its summary names
/// it (`crate::measure::nodes::BUILDS`), else an unknown one.
fn build_of(summary: &serde_json::Value, variant: &str) -> String {
    summary[crate::measure::nodes::BUILDS][variant].as_str().unwrap_or("unknown build").to_string()
}

fn node_data(results: &Path) -> NodeData {
    let mut data = NodeData::default();
    for (run_order, run) in runs_of_nested(results, "nodes").into_iter().enumerate() {
        let records = read_records::<NodesRecord>(&run);
        let summary: serde_json::Value = std::fs::read_to_string(run.join("summary.json"))
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default();
        let Some(setting) = setting_of(&run, &records, &summary) else { continue };
        for record in records {
            if record.error.is_some() {
                continue;
            }
            let build = build_of(&summary, &record.variant);
            let searches = data.latest.entry((record.variant.clone(), setting.clone())).or_insert_with(|| Searches {
                build: build.clone(),
                run_order,
                records: BTreeMap::new(),
            });
            if searches.build != build {
                *searches = Searches { build, run_order, records: BTreeMap::new() };
            }
            searches.run_order = run_order;
            searches.records.insert((record.id.clone(), record.fen.clone()), record);
        }
    }
    data
}

impl NodeData {
    fn searches(&self, variant: &str, setting: &Setting) -> Option<&BTreeMap<(String, String), NodesRecord>> {
        self.latest.get(&(variant.to_string(), setting.clone())).map(|searches| &searches.records)
    }

    /// The settings `variant` was searched at, latest first.
    fn settings_of(&self, variant: &str) -> Vec<&Setting> {
        let mut settings: Vec<(&Setting, usize)> = self
            .latest
            .iter()
            .filter(|((name, _), _)| name == variant)
            .map(|((_, setting), searches)| (setting, searches.run_order))
            .collect();
        settings.sort_by_key(|&(_, run_order)| std::cmp::Reverse(run_order));
        settings.into_iter().map(|(setting, _)| setting).collect()
    }
}

/// A variant's node change against its parent over the positions both
/// searched, with the setting used and the variant's summed telemetry there.
struct Measured {
    setting: Setting,
    positions: usize,
    /// The geometric mean of the per-position ratios and its interval.
    change_vs_parent: Option<RatioEstimate>,
    telemetry: Telemetry,
}

/// A variant as the report's tables name it: ours by its name, another
/// engine's with its engine and where its binary is, or that none was given
/// (the report reads results only, so a missing binary stops nothing).
fn listed_name(lab: &Lab, side: Side) -> String {
    let Some(external) = side.external else { return side.name().to_string() };
    let binary = match lab.engine_path(&external.engine) {
        Ok(Some((_, path))) if path.is_file() => path.display().to_string(),
        Ok(Some((source, path))) => format!("{source}: {} is not a file", path.display()),
        Ok(None) => "binary not given".to_string(),
        Err(error) => error.to_string(),
    };
    format!("{} (engine {}: {binary})", side.name(), external.engine)
}

/// The settings a report prefers, in order: the verdicts' suite, then the
/// seeds, at the plans' depth; then the latest.
const PREFERRED_SETTINGS: [(&str, u64); 2] = [(crate::variants::grammar::VERDICT_SUITE, 10), ("seeds", 10)];

/// The setting a variant's row shows: the first it and its parent were both
/// searched at, else the first it was, the preferred settings first.
fn row_setting<'a>(data: &'a NodeData, variant: &str, parent: Option<&str>) -> Option<&'a Setting> {
    let mut settings = data.settings_of(variant);
    let rank = |setting: &Setting| {
        PREFERRED_SETTINGS.iter().position(|&(suite, depth)| setting.suite == suite && setting.depth == depth)
    };
    settings.sort_by_key(|setting| rank(setting).unwrap_or(PREFERRED_SETTINGS.len()));
    let with_parent = |setting: &&&Setting| parent.is_some_and(|parent| data.searches(parent, setting).is_some());
    settings.iter().find(with_parent).or(settings.first()).copied()
}

fn measure(data: &NodeData, variant: &str, parent: Option<&str>) -> Option<Measured> {
    let setting = row_setting(data, variant, parent)?.clone();
    let mine = data.searches(variant, &setting)?;
    let mut telemetry = Telemetry::default();
    for record in mine.values() {
        telemetry.add(&record.telemetry);
    }
    let change_vs_parent = parent.and_then(|parent| data.searches(parent, &setting)).and_then(|theirs| {
        paired_ratio(mine.iter().filter_map(|(key, record)| {
            theirs.get(key).map(|parent_record| (parent_record.nodes as f64, record.nodes as f64))
        }))
    });
    Some(Measured { setting, positions: mine.len(), change_vs_parent, telemetry })
}

/// What a claim's scope measured: the variant it was measured against, the
/// node change on the scope, and the variant's telemetry there.
struct ScopedMeasure {
    reference: Option<String>,
    change: Option<(NodeChange, String)>,
    own_nodes: Option<OwnNodes>,
    telemetry: Option<Telemetry>,
}

/// The nodes of a search a scope counts: all of them, or the main-search
/// nodes at its depths or below its moves (the engine's `nodes: by_depth=`
/// and `by_move=`); `None` when the search printed no such buckets.
fn scoped_nodes(record: &NodesRecord, scope: &Scope) -> Option<u64> {
    if let Some((low, high)) = scope.depths {
        let by_depth = record.telemetry.buckets.get("nodes.by_depth")?;
        return Some(by_depth.iter().skip(low as usize - 1).take((high - low + 1) as usize).sum());
    }
    if let Some(from) = scope.moves_from {
        let by_move = record.telemetry.buckets.get("nodes.by_move")?;
        let first = MOVE_NUMBER_EDGES.iter().position(|&edge| edge == from)?;
        return Some(by_move.iter().skip(first).sum());
    }
    Some(record.nodes)
}

/// A claim's evidence on its scope: the latest runs of the variant and of
/// the claim's reference (the scope's `from`, else the parent) on the
/// suite and depth it is `claimed` on, or, without them, the setting the
/// variant's row shows (on which the claim is not measured, and says so).
fn scoped_measure(
    data: &NodeData,
    variant: &str,
    parent: Option<&str>,
    scope: &Scope,
    claimed: Option<&NodeSetting>,
) -> ScopedMeasure {
    let reference = scope.from.as_deref().or(parent);
    let has = |name: &str, setting: &Setting| data.searches(name, setting).is_some();
    let on_scope: Vec<&Setting> = data
        .settings_of(variant)
        .into_iter()
        .filter(|setting| claimed.is_some_and(|claimed| node_setting(setting).measures(claimed)))
        .collect();
    let own_nodes = |setting: &Setting, mine: &BTreeMap<(String, String), NodesRecord>| OwnNodes {
        total: mine.values().map(|record| record.nodes).sum(),
        positions: mine.len(),
        setting: node_setting(setting),
    };
    let Some(setting) =
        on_scope.iter().find(|setting| reference.is_some_and(|reference| has(reference, setting))).or(on_scope.first())
    else {
        // Not on the claim's scope: only where it was measured, which the
        // claim names to say so.
        let elsewhere = row_setting(data, variant, reference)
            .and_then(|setting| Some(own_nodes(setting, data.searches(variant, setting)?)));
        return ScopedMeasure { reference: None, change: None, own_nodes: elsewhere, telemetry: None };
    };
    let Some(mine) = data.searches(variant, setting) else {
        return ScopedMeasure { reference: None, change: None, own_nodes: None, telemetry: None };
    };
    let mut telemetry = Telemetry::default();
    for record in mine.values() {
        telemetry.add(&record.telemetry);
    }
    let theirs = reference.and_then(|reference| data.searches(reference, setting));
    let change = theirs.and_then(|theirs| {
        let pairs: Option<Vec<(f64, f64)>> = mine
            .iter()
            .filter_map(|(key, record)| theirs.get(key).map(|base| (base, record)))
            .map(|(base, record)| Some((scoped_nodes(base, scope)? as f64, scoped_nodes(record, scope)? as f64)))
            .collect();
        // Positions where neither searched a node of the scope say nothing.
        let pairs: Vec<(f64, f64)> = pairs?.into_iter().filter(|&(base, own)| base > 0.0 || own > 0.0).collect();
        // Where only one side searched such nodes the ratio is 0 or
        // infinite, which no geometric mean takes: those positions are left
        // out, and the measurement says how many.
        let one_sided = pairs.iter().filter(|&&(base, own)| base == 0.0 || own == 0.0).count();
        let positions = pairs.len() - one_sided;
        paired_ratio(pairs.into_iter().filter(|&(base, own)| base > 0.0 && own > 0.0)).map(|ratio| {
            let part = scope.part_text();
            let left_out = match one_sided {
                0 => String::new(),
                count => format!(" ({count} left out: only one side searched such a node there)"),
            };
            let on = format!(
                "{}{} at depth {}, {positions} positions{left_out}",
                crate::measure::suites::name(&setting.suite),
                if part.is_empty() { String::new() } else { format!(", main-search nodes{part},") },
                setting.depth
            );
            (NodeChange::from_ratio(&ratio), on)
        })
    });
    ScopedMeasure {
        reference: theirs.is_some().then(|| reference.unwrap_or_default().to_string()),
        change,
        own_nodes: Some(own_nodes(setting, mine)),
        telemetry: Some(telemetry),
    }
}

/// The latest tactics result per variant: (suite and limit, solved, positions).
fn tactics_data(results: &Path) -> BTreeMap<String, (String, usize, usize)> {
    let mut latest = BTreeMap::new();
    for run in runs_of_nested(results, "tactics") {
        let Some(args) = read_run(&run) else { continue };
        let args = &args["args"];
        let limit = limit_of(args);
        let label = format!(
            "{}{}, {limit}",
            args["suite"].as_str().unwrap_or("?"),
            args["first"].as_u64().map_or(String::new(), |first| format!(" (first {first})"))
        );
        let mut per_variant: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        for record in read_records::<TacticsRecord>(&run) {
            let entry = per_variant.entry(record.variant).or_default();
            entry.0 += usize::from(record.solved);
            entry.1 += 1;
        }
        for (variant, (solved, positions)) in per_variant {
            latest.insert(variant, (label.clone(), solved, positions));
        }
    }
    latest
}

/// A tactics run's setting: the suite, `--first`, and the limit per
/// position (`nodes 50000`).
type TacticsSetting = (String, Option<u64>, String);

/// Solve counts per tactics setting and variant, the latest run of each
/// variant winning.
type SolvedData = BTreeMap<TacticsSetting, BTreeMap<String, (usize, usize)>>;

fn solved_data(results: &Path) -> SolvedData {
    let mut data = SolvedData::new();
    for run in runs_of_nested(results, "tactics") {
        let Some(args) = read_run(&run) else { continue };
        let args = &args["args"];
        let Some(suite) = args["suite"].as_str() else { continue };
        let per_variant = data.entry((suite.to_string(), args["first"].as_u64(), limit_of(args))).or_default();
        let mut counts: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        for record in read_records::<TacticsRecord>(&run) {
            let entry = counts.entry(record.variant).or_default();
            entry.0 += usize::from(record.solved);
            entry.1 += 1;
        }
        per_variant.extend(counts);
    }
    data
}

/// A variant's and its parent's solve counts on `suite` where a solved
/// claim is judged: the whole suite at the claim's budget
/// (`CLAIM_TACTICS_NODES`), both over every position.
fn solved_pair(data: &SolvedData, suite: &str, variant: &str, parent: &str) -> Option<Solved> {
    let setting = (suite.to_string(), None, grammar::claim_tactics_limit());
    let counts = data.get(&setting)?;
    let (own, positions) = *counts.get(variant)?;
    let (theirs, parent_positions) = *counts.get(parent)?;
    (positions == parent_positions).then(|| Solved {
        suite: suite.to_string(),
        parent: theirs,
        variant: own,
        positions,
        at_claim_budget: true,
    })
}

/// `nodes 100000`, `movetime 500` or `depth 8`: a tactics run's limit.
fn limit_of(args: &serde_json::Value) -> String {
    match (args["movetime"].as_u64(), args["nodes"].as_u64(), args["depth"].as_u64()) {
        (Some(ms), _, _) => format!("movetime {ms}"),
        (_, _, Some(depth)) => format!("depth {depth}"),
        (_, nodes, _) => format!("nodes {}", nodes.unwrap_or(crate::measure::tactics::DEFAULT_NODES)),
    }
}

/// The bar chart of node change against the parent.
fn chart(path: &Path, bars: &[(String, f64)]) -> Result<()> {
    let height = 120 + 26 * bars.len() as u32;
    let key = [
        (Key::Shade(plots::GAIN), "fewer nodes than the parent".to_string()),
        (Key::Shade(plots::LOSS), "more nodes".to_string()),
    ];
    let whole = SVGBackend::new(path, (900, height + plots::key_height(&key))).into_drawing_area();
    whole.fill(&WHITE)?;
    let (root, below) = whole.split_vertically(height);
    plots::draw_key(&below, &key)?;
    let low = bars.iter().map(|(_, value)| *value).fold(0.0_f64, f64::min);
    let high = bars.iter().map(|(_, value)| *value).fold(0.0_f64, f64::max);
    let margin = ((high - low) * 0.1).max(1.0);
    let mut chart = ChartBuilder::on(&root)
        .caption("Node change against the parent variant (%)", ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(180)
        .build_cartesian_2d((low - margin)..(high + margin), (0..bars.len()).into_segmented())?;
    let names: Vec<String> = bars.iter().map(|(name, _)| name.clone()).collect();
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(bars.len())
        .y_label_formatter(&|segment| match segment {
            SegmentValue::CenterOf(index) => names.get(*index).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .x_label_formatter(&plots::tick)
        .x_desc("nodes vs parent, %")
        .draw()?;
    chart.draw_series(bars.iter().enumerate().map(|(index, (_, value))| {
        let colour = if *value <= 0.0 { plots::GAIN } else { plots::LOSS };
        Rectangle::new(
            [(0.0, SegmentValue::Exact(index)), (*value, SegmentValue::Exact(index + 1))],
            colour.mix(0.8).filled(),
        )
    }))?;
    whole.present()?;
    Ok(())
}

/// A node claim as the claims' plot draws it: its range and the change
/// measured on its scope, once judged on it.
fn claim_point(
    variant: &str,
    claim: &grammar::ScopedClaim,
    change: Option<&(NodeChange, String)>,
    judgement: &ClaimStanding,
) -> Option<figures::ClaimPoint> {
    let claimed = claims::claimed_range(&claim.claim)?;
    let (change, _) = change?;
    (!matches!(judgement, ClaimStanding::NotMeasured(_))).then(|| figures::ClaimPoint {
        variant: variant.to_string(),
        claim: claim.text(),
        claimed,
        measured: change.percent,
        interval: change.interval,
        verdict: judgement.word(),
    })
}

#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// First measure, with `lab nodes` on the verdict suite at depth 10,
    /// every variant (and parent) that has no such result yet.
    #[arg(long)]
    pub measure: bool,
    /// Engine processes at the same time for --measure.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Instead of the report, draw the book's figures from the repository's
    /// data (atlas/, variants/, src/time.rs, docs/data/) into DIR
    /// (docs/figures).
    #[arg(long, value_name = "DIR")]
    pub figures: Option<std::path::PathBuf>,
}

/// The variants without a count on the verdict suite at depth 10, parents first.
fn unmeasured(lab: &Lab, data: &NodeData) -> Vec<String> {
    let verdict = NodeSetting::claimed(lab, &Scope::default()).ok();
    let on_verdict = |name: &str| {
        data.settings_of(name)
            .into_iter()
            .any(|setting| verdict.as_ref().is_some_and(|verdict| node_setting(setting).measures(verdict)))
    };
    let mut missing: Vec<String> =
        lab.variants.iter().map(|variant| variant.name().to_string()).filter(|name| !on_verdict(name)).collect();
    // Chain length first, so each parent is searched before its children.
    let depth = |name: &str| {
        let mut length = 0;
        let mut current = lab.variant(name).ok().and_then(|variant| variant.file.extends.clone());
        while let Some(parent) = current {
            length += 1;
            current = lab.variant(&parent).ok().and_then(|variant| variant.file.extends.clone());
        }
        length
    };
    missing.sort_by_key(|name| (depth(name), name.clone()));
    missing
}

/// The atlas's section: each variant's latest result at fixed nodes, and
/// how many of the plans' chain phases have one (the atlas is partial until
/// all do).
fn atlas_section(atlas: &[AtlasEntry], plan_phases: &[String]) -> String {
    let mut out = String::from("## The atlas: each variant against its parent at fixed nodes\n\n");
    let latest = entries::latest_per_variant(atlas);
    if latest.is_empty() {
        writeln!(
            out,
            "`{}` has no result yet: `lab atlas --chain p002 --nodes 10000` plays some.",
            entries::ATLAS_FILE
        )
        .unwrap();
        return out;
    }
    let missing: Vec<&str> = plan_phases
        .iter()
        .filter(|phase| !latest.iter().any(|entry| &entry.variant == *phase))
        .map(String::as_str)
        .collect();
    writeln!(
        out,
        "From `{}`: games at N nodes a move (`go nodes N`, no clock), the variant against its parent from the \
         book's openings, colours reversed; Elo and nElo from the pentanomial with their 95% intervals.\n",
        entries::ATLAS_FILE
    )
    .unwrap();
    out.push_str(&text::atlas_table(&latest));
    let decisions: Vec<_> = latest.iter().map(|entry| entry.evidence().decision()).collect();
    writeln!(out, "\nOf the {} results, {}.", latest.len(), Tally::of(&decisions).text()).unwrap();
    if missing.is_empty() {
        writeln!(out, "\nEvery phase of the plans' chains ({}) has a result.", plan_phases.len()).unwrap();
    } else {
        writeln!(
            out,
            "\n**Partial**: {} of the plans' {} chain phases have a result; none yet for {}.",
            plan_phases.len() - missing.len(),
            plan_phases.len(),
            missing.join(", ")
        )
        .unwrap();
    }
    out
}

/// The phases of the plans' chains (p002, p003, razor), in order.
fn plan_chain_phases(lab: &Lab) -> Vec<String> {
    crate::verdicts::chain::CHAINS
        .iter()
        .filter_map(|(name, ..)| crate::verdicts::chain::resolve_args(&lab.variants, &[name.to_string()]).ok())
        .flat_map(|chain| chain.into_iter().skip(1))
        .collect()
}

pub fn command(lab: &Lab, args: &ReportArgs) -> Result<()> {
    if let Some(dir) = &args.figures {
        for path in book_figures::write_all(lab, &lab.resolve(dir))? {
            lab.say(&format!("figure: {}", path.display()));
        }
        return Ok(());
    }
    let results = lab.results_root();
    if args.measure {
        let missing = unmeasured(lab, &node_data(&results));
        if missing.is_empty() {
            lab.say("every variant has a count on the verdict suite at depth 10 already");
        } else {
            lab.say(&format!("measuring {} variant(s): {}", missing.len(), missing.join(", ")));
            let nodes_args = crate::measure::nodes::NodesArgs {
                variants: missing,
                search: SearchOptions::default(),
                first: None,
                run: crate::measure::runner::RunArgs { concurrency: args.concurrency, resume: None },
            };
            crate::measure::nodes::run(lab, &nodes_args)?;
        }
    }
    let data = node_data(&results);
    let tactics = tactics_data(&results);
    let solved = solved_data(&results);
    let mut out = String::new();
    writeln!(out, "# prunelab lab report\n").unwrap();
    writeln!(
        out,
        "The latest `lab nodes` and `lab tactics` results of each variant under `{}`.\n",
        lab.global.results.display()
    )
    .unwrap();

    writeln!(out, "## Node change against the parent\n").unwrap();
    writeln!(out, "![node change](report-nodes.svg)\n").unwrap();
    let mut table = Table::new()
        .left("variant")
        .left("parent")
        .left("suite, depth")
        .right("positions")
        .left("nodes vs parent (geometric mean, 95% interval)");
    let mut bars = Vec::new();
    let mut unmeasured = Vec::new();
    let mut unmeasured_external = false;
    let mut measured_by_variant = BTreeMap::new();
    let every_side = lab.every_side();
    for &side in &every_side {
        let variant = side.variant;
        let parent = variant.file.extends.as_deref();
        match measure(&data, variant.name(), parent) {
            Some(measured) => {
                let change = match (measured.change_vs_parent, parent) {
                    (Some(change), _) => change.percent_text(),
                    (None, Some(parent)) => format!("parent not measured: `lab nodes {parent} {}`", variant.name()),
                    (None, None) => "-".to_string(),
                };
                table.push([
                    listed_name(lab, side),
                    parent.unwrap_or("-").to_string(),
                    format!("{}, {}", crate::measure::suites::name(&measured.setting.suite), measured.setting.depth),
                    measured.positions.to_string(),
                    change,
                ]);
                if let Some(change) = measured.change_vs_parent {
                    bars.push((variant.name().to_string(), change.percent()));
                }
                measured_by_variant.insert(variant.name().to_string(), measured);
            }
            None => {
                unmeasured.push(listed_name(lab, side));
                unmeasured_external |= side.external.is_some();
            }
        }
    }
    write!(out, "{table}").unwrap();
    if !unmeasured.is_empty() {
        writeln!(out, "\nNot measured yet ({}): {}.", unmeasured.len(), unmeasured.join(", ")).unwrap();
        writeln!(out, "Measure one against its parent with `lab nodes <parent> <variant>`.").unwrap();
        if unmeasured_external {
            writeln!(out, "Another engine's variant runs its binary: add `--engine-path ENGINE=PATH`.").unwrap();
        }
    }

    // Games decide: their table goes first, after the introduction.
    let every_variant = || every_side.iter().map(|side| side.variant);
    let games: Vec<_> = every_variant()
        .filter_map(|variant| {
            let parent = variant.file.extends.as_deref()?;
            let node_change = measured_by_variant.get(variant.name()).and_then(|measured| measured.change_vs_parent);
            let signals = node_change.and_then(|ratio| ratio_signal(format!("nodes {}", ratio.percent_text()), &ratio));
            Some((evidence::game_results(&results, variant.name(), parent), signals.into_iter().collect()))
        })
        .collect();
    if let Some(section) = evidence::report_section(&games) {
        let after_introduction = out.find("## Node change against the parent").unwrap_or(out.len());
        out.insert_str(after_introduction, &format!("{section}\n"));
    }

    writeln!(out, "\n## The plans' claims, claimed against measured\n").unwrap();
    let mut claim_points = Vec::new();
    let mut claims_table = Table::new().left("variant").left("source").left("claim").right("measured").left("verdict");
    for variant in every_variant().filter(|variant| !variant.plan().claims.is_empty()) {
        let parent = variant.file.extends.as_deref();
        let claimed_suites = crate::verdicts::verdict::claimed_suites(variant);
        let solved: Vec<Solved> =
            claimed_suites.iter().filter_map(|suite| solved_pair(&solved, suite, variant.name(), parent?)).collect();
        let games = parent.map_or(Vec::new(), |parent| evidence::game_results(&results, variant.name(), parent));
        for claim in &variant.plan().claims {
            let claimed_on = NodeSetting::claimed(lab, &claim.scope);
            let scoped = scoped_measure(&data, variant.name(), parent, &claim.scope, claimed_on.as_ref().ok());
            let evidence = Evidence {
                // What the claim is against, measured or not.
                reference: scoped.reference.as_deref().or(claim.scope.from.as_deref()).or(parent),
                node_change: scoped.change.clone(),
                own_nodes: scoped.own_nodes.clone(),
                telemetry: scoped.telemetry.as_ref(),
                claimed_on: Some(claimed_on),
                solved: solved.clone(),
                unsolved: Vec::new(),
                games: &games,
            };
            let judgement = claims::judge(variant, claim, &evidence);
            claim_points.extend(claim_point(variant.name(), claim, scoped.change.as_ref(), &judgement));
            claims_table.push([
                variant.name().to_string(),
                variant.file.source.clone(),
                claim.text(),
                judgement.detail().to_string(),
                judgement.word().to_string(),
            ]);
        }
    }
    write!(out, "{claims_table}").unwrap();

    // Plan 002's own success criteria, on its chain from start to end.
    let chain = measure(&data, plan_criteria::PLAN_END, Some(plan_criteria::PLAN_START));
    let node_change = chain
        .as_ref()
        .and_then(|measured| measured.change_vs_parent.map(|ratio| (ratio, setting_text(&measured.setting))));
    let first_move_cutoffs = chain.as_ref().and_then(|measured| {
        measured.telemetry.rate("first.first%").map(|rate| (rate, setting_text(&measured.setting)))
    });
    let criteria = plan_criteria::judge(&plan_criteria::gather(&results, node_change, first_move_cutoffs));
    writeln!(out, "\n{}", plan_criteria::markdown(&criteria)).unwrap();

    writeln!(out, "\n## Tactics\n").unwrap();
    if tactics.is_empty() {
        writeln!(out, "No `lab tactics` runs yet.").unwrap();
    } else {
        let mut table = Table::new().left("variant").left("suite, limit").right("solved");
        for (variant, (label, solved, positions)) in &tactics {
            table.push([variant.to_string(), label.to_string(), format!("{solved}/{positions}")]);
        }
        write!(out, "{table}").unwrap();
    }

    // The atlas: games at fixed nodes, and the fast measures set against them.
    let atlas = entries::read(&lab.root.join(entries::ATLAS_FILE));
    writeln!(out, "\n{}", atlas_section(&atlas, &plan_chain_phases(lab))).unwrap();
    let measured = calibration::measured_pairs(&lab.root.join(fast_measures::FAST_FILE), &results);
    let calibration_rows = calibration::rows(&atlas, &measured);
    match calibration::report_section(&calibration_rows) {
        Some(section) => writeln!(out, "\n{section}").unwrap(),
        None => writeln!(
            out,
            "\n## Calibration: the fast measures against the atlas's games\n\nNo variant has both a result in the \
             atlas and fast measures against the same parent yet (`lab chain NAME` or `lab ab VARIANT` measures them, \
             `lab atlas --keep-fast` keeps them in the repository)."
        )
        .unwrap(),
    }

    // The matches at a time control beside the same searches at fixed nodes.
    // And the clock estimate from fixed nodes, speed and a doubling, beside them.
    match time_controls::read(&lab.root.join(time_controls::TIME_CONTROLS_FILE)) {
        Ok(records) => {
            writeln!(out, "\n{}", time_controls::section(&records, &atlas, time_controls::TIME_CONTROLS_FILE)).unwrap();
            let atlas_file = lab.root.join(entries::ATLAS_FILE);
            let speeds = crate::verdicts::atlas::speeds::read(&crate::verdicts::atlas::speeds::beside(&atlas_file));
            let doublings =
                crate::verdicts::atlas::node_odds::read(&crate::verdicts::atlas::node_odds::beside(&atlas_file));
            let estimate = crate::verdicts::atlas::clock_estimate::section(&records, &atlas, &speeds, &doublings);
            writeln!(out, "\n{estimate}").unwrap();
        }
        Err(error) => writeln!(out, "\n## Time controls beside fixed nodes\n\n{error:#}\n").unwrap(),
    }

    // The latest `lab blame` and `lab interactions` runs, when there are any.
    for section in
        [crate::explain::blame::report_section(&results), crate::explain::interactions::report_section(&results)]
            .into_iter()
            .flatten()
    {
        writeln!(out, "\n{section}").unwrap();
    }

    std::fs::create_dir_all(&results).with_context(|| format!("cannot create {}", results.display()))?;
    let chart_path = results.join("report-nodes.svg");
    chart(&chart_path, &bars).with_context(|| format!("cannot draw {}", chart_path.display()))?;
    let report_path = results.join("report.md");
    write_atomically(&report_path, &out)?;
    let latest_atlas = entries::latest_per_variant(&atlas);
    let page_data = page::PageData { atlas: &latest_atlas, calibration: &calibration_rows, claims: &claim_points };
    let page_path = results.join(page::PAGE);
    let page_figures = page::figures(lab, &results, &page_data).context("cannot draw the report's page")?;
    if let Some(folder) = page_path.parent() {
        std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
    }
    write_atomically(&page_path, &page::html(&page_figures, &out))?;
    if lab.global.json {
        let rows: Vec<_> = bars
            .iter()
            .map(|(variant, change)| serde_json::json!({"variant": variant, "nodes_vs_parent_geomean_pct": change}))
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(
                &serde_json::json!({"node_change": rows, "report": report_path, "chart": chart_path, "page": page_path})
            )?
        );
    } else {
        println!("{out}");
        lab.say(&format!("report: {}, {} and {}", report_path.display(), chart_path.display(), page_path.display()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search of `id` with `nodes` in all and `by_depth` main-search nodes
    /// by depth (1, 2, ...).
    pub(super) fn record(variant: &str, id: &str, nodes: u64, by_depth: &[u64]) -> NodesRecord {
        let mut telemetry = Telemetry::default();
        telemetry.buckets.insert("nodes.by_depth".into(), by_depth.to_vec());
        telemetry.buckets.insert("nodes.by_move".into(), vec![by_depth[0], 0, 0, nodes / 2, 0, 0]);
        NodesRecord {
            variant: variant.into(),
            position: 0,
            id: id.into(),
            fen: format!("fen of {id}"),
            depth: 10,
            nodes,
            time_ms: 1,
            nps: 1,
            ebf: None,
            best: String::new(),
            score: None,
            telemetry,
            error: None,
        }
    }

    /// A run's setting in these tests: a suite known by its name.
    fn setting(suite: &str, depth: u64) -> Setting {
        let name = crate::measure::suites::name(suite);
        Setting { suite: suite.into(), content: (name, 2), depth, hash_mb: 16, first: None, commit: "c".into() }
    }

    fn add(data: &mut NodeData, (suite, depth): (&str, u64), records: Vec<NodesRecord>) {
        let run_order = data.latest.len();
        for record in records {
            data.latest
                .entry((record.variant.clone(), setting(suite, depth)))
                .or_insert_with(|| Searches { build: "a build".into(), run_order, records: BTreeMap::new() })
                .records
                .insert((record.id.clone(), record.fen.clone()), record);
        }
    }

    fn change(data: &NodeData, scope: Scope) -> (Option<String>, Option<(f64, String)>) {
        let suite = scope.suite.clone().unwrap_or_else(|| crate::variants::grammar::VERDICT_SUITE.to_string());
        let claimed = node_setting(&setting(&suite, u64::from(scope.search_depth())));
        let measured = scoped_measure(data, "child", Some("parent"), &scope, Some(&claimed));
        (measured.reference, measured.change.map(|(change, on)| ((change.percent * 10.0).round() / 10.0, on)))
    }

    #[test]
    fn a_claim_is_measured_on_its_scope() {
        let mut data = NodeData::default();
        // On the verdict suite at depth 10: 10% fewer nodes in all, half the
        // nodes of depths 3-4; nothing changes at depth 1 or 2.
        add(
            &mut data,
            ("verdict", 10),
            vec![
                record("parent", "a", 1000, &[100, 200, 300, 100]),
                record("child", "a", 900, &[100, 200, 150, 50]),
                record("parent", "b", 2000, &[100, 200, 600, 200]),
                record("child", "b", 1800, &[100, 200, 300, 100]),
                record("start", "a", 4000, &[100, 200, 600, 200]),
                record("start", "b", 8000, &[100, 200, 600, 200]),
            ],
        );
        // Elsewhere, at depth 13: twice the nodes.
        add(
            &mut data,
            ("data/suites/material-ahead.epd", 13),
            vec![record("parent", "c", 100, &[1, 1, 1, 1]), record("child", "c", 200, &[1, 1, 1, 1])],
        );
        let verdict = "verdict at depth 10, 2 positions".to_string();
        let (reference, whole) = change(&data, Scope::default());
        assert_eq!((reference.as_deref(), whole), (Some("parent"), Some((-10.0, verdict.clone()))));
        let (_, depths) = change(&data, Scope { depths: Some((3, 4)), ..Default::default() });
        assert_eq!(
            depths,
            Some((-50.0, "verdict, main-search nodes of remaining depths 3-4, at depth 10, 2 positions".to_string()))
        );
        let (_, shallow) = change(&data, Scope { depths: Some((1, 2)), ..Default::default() });
        assert_eq!(shallow.unwrap().0, 0.0);
        let (_, late) = change(&data, Scope { moves_from: Some(4), ..Default::default() });
        assert_eq!(late.unwrap().0, -10.0);
        let elsewhere = Scope { suite: Some("material-ahead".into()), depth: Some(13), ..Default::default() };
        let (_, ahead) = change(&data, elsewhere);
        assert_eq!(ahead, Some((100.0, "material-ahead at depth 13, 1 positions".to_string())));
        // A chain span: from `start`, a quarter of the nodes.
        let (reference, span) = change(&data, Scope { from: Some("start".into()), ..Default::default() });
        assert_eq!((reference.as_deref(), span.map(|(percent, _)| percent)), (Some("start"), Some(-77.5)));
        // No run of the scope: nothing measured, and no reference.
        let (reference, nothing) = change(&data, Scope { depth: Some(14), ..Default::default() });
        assert_eq!((reference, nothing), (None, None));
        // A search without the engine's buckets counts nothing by depth.
        let old = data.latest.get_mut(&("child".to_string(), setting("verdict", 10))).unwrap();
        old.records.values_mut().for_each(|record| record.telemetry = Telemetry::default());
        assert_eq!(change(&data, Scope { depths: Some((3, 4)), ..Default::default() }).1, None);
    }

    #[test]
    fn runs_merge_only_when_alike_in_suite_depth_hash_first_and_build() {
        use games::results::RunDir;

        use crate::measure::nodes::{BUILDS, COMMIT};
        let dir = std::env::temp_dir().join(format!("prunelab-report-alike-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // A nodes run of `child` (built from `commit` as `build`) and
        // `parent` on positions a and b, `child` searching `nodes` on each.
        let run = |args: serde_json::Value, (commit, build): (&str, &str), nodes: u64| {
            let mut run = RunDir::create(&dir, "nodes", &args).unwrap();
            for id in ["a", "b"] {
                run.append(&record("child", id, nodes, &[1, 1, 1, 1])).unwrap();
                run.append(&record("parent", id, 1000, &[1, 1, 1, 1])).unwrap();
            }
            let summary = serde_json::json!({ COMMIT: commit, BUILDS: { "child": build, "parent": "features []" } });
            run.write_summary("", &summary).unwrap();
        };
        let args = |hash: u64, first: Option<u64>| serde_json::json!({"suite": "verdict", "depth": 10, "hash": hash, "first": first});
        let built = ("0123456789ab", "features [razor-r1]");
        run(args(16, None), built, 2000);
        run(args(64, None), built, 3000);
        run(args(16, Some(2)), built, 4000);
        // Built from another commit: a run of its own.
        run(args(16, None), ("0123456789ab+dirty", "features [razor-r1]"), 5000);
        // The same commit, the child built otherwise: its searches replace the first run's.
        run(args(16, None), ("0123456789ab", "features [razor-r2]"), 1500);
        let data = node_data(&dir);
        /// A key of the child's searches (commit, hash, first N), its build and its node counts.
        type Row<'a> = (&'a str, u64, Option<u64>, &'a str, Vec<u64>);
        let child: Vec<Row> = data
            .latest
            .iter()
            .filter(|((variant, _), _)| variant == "child")
            .map(|((_, setting), searches)| {
                let nodes = searches.records.values().map(|record| record.nodes).collect();
                (setting.commit.as_str(), setting.hash_mb, setting.first, searches.build.as_str(), nodes)
            })
            .collect();
        assert_eq!(
            child,
            [
                ("0123456789ab", 16, None, "features [razor-r2]", vec![1500, 1500]),
                ("0123456789ab+dirty", 16, None, "features [razor-r1]", vec![5000, 5000]),
                ("0123456789ab", 16, Some(2), "features [razor-r1]", vec![4000, 4000]),
                ("0123456789ab", 64, None, "features [razor-r1]", vec![3000, 3000]),
            ]
        );
        // Each is compared with the parent's searches of its own setting and commit.
        for ((variant, setting), searches) in data.latest.iter().filter(|((variant, _), _)| variant == "child") {
            let parent = data.searches("parent", setting).unwrap();
            assert_eq!(parent.len(), 2, "{variant} at {setting:?}");
            assert!(searches.records.values().all(|record| record.nodes != 1000));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_solved_claim_is_judged_on_the_whole_suite_at_its_budget() {
        let counts = |variant: (usize, usize), parent: (usize, usize)| {
            BTreeMap::from([("child".to_string(), variant), ("parent".to_string(), parent)])
        };
        let mut data = SolvedData::new();
        // The first ten positions at twice the nodes come first in the map.
        data.insert(("wac".into(), Some(10), "nodes 100000".into()), counts((9, 10), (8, 10)));
        data.insert(("wac".into(), None, "nodes 50000".into()), counts((240, 300), (241, 300)));
        assert_eq!(
            solved_pair(&data, "wac", "child", "parent"),
            Some(Solved { suite: "wac".into(), parent: 241, variant: 240, positions: 300, at_claim_budget: true })
        );
        // Only other settings: not measured where the claim is judged.
        data.remove(&("wac".to_string(), None, "nodes 50000".to_string()));
        assert_eq!(solved_pair(&data, "wac", "child", "parent"), None);
    }

    #[test]
    fn a_position_where_neither_searched_the_scope_says_nothing_and_one_side_is_counted_out() {
        let mut data = NodeData::default();
        // Depth 4: position a halves, b has none on either side, and on c
        // only the parent searched any.
        add(
            &mut data,
            ("verdict", 10),
            vec![
                record("parent", "a", 1000, &[100, 200, 300, 100]),
                record("child", "a", 900, &[100, 200, 300, 50]),
                record("parent", "b", 1000, &[100, 200, 300, 0]),
                record("child", "b", 900, &[100, 200, 300, 0]),
                record("parent", "c", 1000, &[100, 200, 300, 40]),
                record("child", "c", 900, &[100, 200, 300, 0]),
            ],
        );
        let (_, depth_4) = change(&data, Scope { depths: Some((4, 4)), ..Default::default() });
        assert_eq!(
            depth_4,
            Some((
                -50.0,
                "verdict, main-search nodes of remaining depths 4-4, at depth 10, 1 positions \
                 (1 left out: only one side searched such a node there)"
                    .to_string()
            ))
        );
    }

    /// A stand-in engine whose search to depth N (`go depth N`) counts 1000
    /// nodes, 900 with its option `Prune` on.
    const STAND_IN: &str = "#!/bin/sh
nodes=1000
while read -r line; do
  case \"$line\" in
    uci) echo 'id name Report stand-in'
         echo 'option name Hash type spin default 16 min 1 max 64'
         echo 'option name Prune type check default false'
         echo uciok;;
    'setoption name Prune value true') nodes=900;;
    isready) echo readyok;;
    go*) echo \"info depth ${line##* } score cp 10 nodes $nodes pv e2e4\"; echo 'bestmove e2e4';;
    quit) exit 0;;
  esac
done
";

    #[test]
    fn other_engines_variants_are_listed_and_their_claims_judged_as_ours() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("prunelab-report-other-engines-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let folder = dir.join(crate::variants::external::FOLDER);
        std::fs::create_dir_all(folder.join("x")).unwrap();
        std::fs::create_dir_all(folder.join("y")).unwrap();
        let claim = "[expect]\nnodes_pct = [-12, -8]\n";
        std::fs::write(folder.join("x/x-off.toml"), "name = \"x-off\"\nengine = \"x\"\n").unwrap();
        std::fs::write(
            folder.join("x/x-on.toml"),
            format!(
                "name = \"x-on\"\nengine = \"x\"\nextends = \"x-off\"\nsource = \"a stand-in\"\n\
                 [options]\nPrune = true\n{claim}"
            ),
        )
        .unwrap();
        // Engine y's binary is given nowhere: its variant is listed all the same.
        std::fs::write(folder.join("y/y-off.toml"), "name = \"y-off\"\nengine = \"y\"\n").unwrap();
        std::fs::write(
            folder.join("y/y-on.toml"),
            format!("name = \"y-on\"\nengine = \"y\"\nextends = \"y-off\"\n{claim}"),
        )
        .unwrap();
        let engine = dir.join("stand-in");
        std::fs::write(&engine, STAND_IN).unwrap();
        std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
        let suite = dir.join("two.epd");
        std::fs::write(
            &suite,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"startpos\";\n\
             r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - id \"knights\";\n",
        )
        .unwrap();

        let mut lab = Lab::for_tests().nested(&dir.join("results"));
        lab.externals = crate::variants::external::load(&dir, &lab.variants).unwrap();
        lab.global.engine_paths = vec![format!("x={}", engine.display())];
        let nodes_args = crate::measure::nodes::NodesArgs {
            variants: vec!["x-off".into(), "x-on".into()],
            search: SearchOptions { suite: suite.display().to_string(), ..SearchOptions::default() },
            first: None,
            run: crate::measure::runner::RunArgs { concurrency: 1, resume: None },
        };
        crate::measure::nodes::run(&lab, &nodes_args).unwrap();
        command(&lab, &ReportArgs { measure: false, concurrency: 1, figures: None }).unwrap();

        let report = std::fs::read_to_string(dir.join("results/report.md")).unwrap();
        let x = format!("engine x: {}", engine.display());
        for row in [
            format!("| x-off ({x}) | - | two, 10 | 2 | - |"),
            format!("| x-on ({x}) | x-off | two, 10 | 2 | -10.0% (95%: -10.0% to -10.0%, 2 positions) |"),
            // Unscoped, the claim is the verdict suite's at depth 10: two positions of another suite say nothing of it.
            "| x-on | a stand-in | -12% to -8% nodes at depth 10 | measured on two at depth 10, claimed on verdict at \
             depth 10: run `lab ab x-on --suite verdict --depth 10` | not measured |"
                .to_string(),
            "| y-on |  | -12% to -8% nodes at depth 10 | no node counts of it and `y-off`: run `lab ab y-on` | not \
             measured |"
                .to_string(),
        ] {
            assert!(report.contains(&row), "no row {row} in:\n{report}");
        }
        assert!(report.contains("y-off (engine y: binary not given), y-on (engine y: binary not given)."), "{report}");
        assert!(report.contains("Another engine's variant runs its binary: add `--engine-path ENGINE=PATH`."));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
