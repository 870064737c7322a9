//! `lab report`: the latest measurements of every variant, from the result
//! files of earlier runs (`lab nodes` and `lab tactics`, and the same steps
//! inside `lab ab` and `lab chain` runs), as `lab-results/report.md` and a
//! bar chart of node change against each variant's parent,
//! `lab-results/report-nodes.svg`. Every claim of every variant file is
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
use plotters::prelude::*;

use crate::games::atlas::entries::{self, AtlasEntry};
use crate::games::atlas::{fast_measures, table, time_controls};
use crate::games::evidence::{self, ratio_signal};
use crate::lab::Lab;
use crate::measure::nodes::NodesRecord;
use crate::measure::ratio::{paired_ratio, RatioEstimate};
use crate::measure::tactics::TacticsRecord;
use crate::measure::telemetry::Telemetry;
use crate::results::{read_records, read_run, runs_of_nested, write_atomically};
use crate::verdicts::calibration;
use crate::verdicts::claims::grammar::{Planned, Scope};
use crate::verdicts::claims::Solved;
use crate::verdicts::claims::{self, Evidence, Judgement, NodeChange, NodeSetting, OwnNodes};
use crate::verdicts::plan_criteria;
use prunelab::stats::MOVE_NUMBER_EDGES;

/// Where a node count was measured: suite and depth.
type Setting = (String, u64);

/// The latest search of each position per variant and setting.
#[derive(Default)]
struct NodeData {
    /// (variant, setting) → (position id and FEN → record)
    latest: BTreeMap<(String, Setting), BTreeMap<(String, String), NodesRecord>>,
    /// The setting of each variant's latest run.
    latest_setting: BTreeMap<String, Setting>,
}

/// A setting as the verdicts write it: `verdict at depth 10`.
fn setting_text(setting: &Setting) -> String {
    node_setting(setting).to_string()
}

/// A setting as claims compare it: the suite's name and the depth.
fn node_setting((suite, depth): &Setting) -> NodeSetting {
    NodeSetting { suite: crate::measure::suites::name(suite), depth: u32::try_from(*depth).unwrap_or(u32::MAX) }
}

fn setting_of(run: &Path) -> Option<Setting> {
    let args = read_run(run)?;
    Some((args["args"]["suite"].as_str()?.to_string(), args["args"]["depth"].as_u64()?))
}

fn node_data(results: &Path) -> NodeData {
    let mut data = NodeData::default();
    for run in runs_of_nested(results, "nodes") {
        let Some(setting) = setting_of(&run) else { continue };
        for record in read_records::<NodesRecord>(&run) {
            if record.error.is_some() {
                continue;
            }
            data.latest_setting.insert(record.variant.clone(), setting.clone());
            data.latest
                .entry((record.variant.clone(), setting.clone()))
                .or_default()
                .insert((record.id.clone(), record.fen.clone()), record);
        }
    }
    data
}

/// A variant's node change against its parent over the positions both
/// searched, with the setting used and the variant's summed telemetry there.
struct Measured {
    setting: Setting,
    positions: usize,
    /// The variant's nodes summed over its positions.
    total_nodes: u64,
    /// The geometric mean of the per-position ratios and its interval.
    change_vs_parent: Option<RatioEstimate>,
    telemetry: Telemetry,
}

/// A variant as the report's tables name it: ours by its name, another
/// engine's with its engine and where its binary is, or that none was given
/// (the report reads results only, so a missing binary stops nothing).
fn listed_name(lab: &Lab, name: &str) -> String {
    let Some(external) = lab.external(name) else { return name.to_string() };
    let binary = match lab.engine_path(&external.engine) {
        Ok(Some((_, path))) if path.is_file() => path.display().to_string(),
        Ok(Some((source, path))) => format!("{source}: {} is not a file", path.display()),
        Ok(None) => "binary not given".to_string(),
        Err(error) => error.to_string(),
    };
    format!("{name} (engine {}: {binary})", external.engine)
}

/// The settings a report prefers, in order: the verdicts' suite, then the
/// seeds, at the plans' depth.
fn preferred_settings() -> Vec<Setting> {
    vec![(crate::measure::suites::VERDICT.to_string(), 10), ("seeds".to_string(), 10)]
}

fn measure(data: &NodeData, variant: &str, parent: Option<&str>) -> Option<Measured> {
    let mut settings = preferred_settings();
    settings.extend(data.latest_setting.get(variant).cloned());
    let with_parent = |setting: &Setting| {
        parent.is_some_and(|parent| data.latest.contains_key(&(parent.to_string(), setting.clone())))
    };
    let setting = settings
        .iter()
        .find(|setting| data.latest.contains_key(&(variant.to_string(), (*setting).clone())) && with_parent(setting))
        .or_else(|| {
            settings.iter().find(|setting| data.latest.contains_key(&(variant.to_string(), (*setting).clone())))
        })?
        .clone();
    let mine = &data.latest[&(variant.to_string(), setting.clone())];
    let mut telemetry = Telemetry::default();
    for record in mine.values() {
        telemetry.add(&record.telemetry);
    }
    let change_vs_parent =
        parent.and_then(|parent| data.latest.get(&(parent.to_string(), setting.clone()))).and_then(|theirs| {
            paired_ratio(mine.iter().filter_map(|(key, record)| {
                theirs.get(key).map(|parent_record| (parent_record.nodes as f64, record.nodes as f64))
            }))
        });
    let total_nodes = mine.values().map(|record| record.nodes).sum();
    Some(Measured { setting, positions: mine.len(), total_nodes, change_vs_parent, telemetry })
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
/// scope's suite and depth, or, without them, the settings a report prefers.
fn scoped_measure(data: &NodeData, variant: &str, parent: Option<&str>, scope: &Scope) -> ScopedMeasure {
    let reference = scope.from.as_deref().or(parent);
    let wanted = |setting: &Setting| {
        scope
            .suite
            .as_ref()
            .is_none_or(|suite| crate::measure::suites::name(suite) == crate::measure::suites::name(&setting.0))
            && setting.1 == scope.search_depth() as u64
    };
    let has = |name: &str, setting: &Setting| data.latest.contains_key(&(name.to_string(), setting.clone()));
    let mut settings: Vec<Setting> = preferred_settings();
    settings.extend(data.latest.keys().filter(|(name, _)| name == variant).map(|(_, setting)| setting.clone()));
    let settings: Vec<Setting> = settings.into_iter().filter(|setting| wanted(setting)).collect();
    let Some(setting) = settings
        .iter()
        .find(|setting| has(variant, setting) && reference.is_some_and(|reference| has(reference, setting)))
        .or_else(|| settings.iter().find(|setting| has(variant, setting)))
    else {
        return ScopedMeasure { reference: None, change: None, own_nodes: None, telemetry: None };
    };
    let mine = &data.latest[&(variant.to_string(), setting.clone())];
    let mut telemetry = Telemetry::default();
    for record in mine.values() {
        telemetry.add(&record.telemetry);
    }
    let theirs = reference.and_then(|reference| data.latest.get(&(reference.to_string(), setting.clone())));
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
                crate::measure::suites::name(&setting.0),
                if part.is_empty() { String::new() } else { format!(", main-search nodes{part},") },
                setting.1
            );
            (NodeChange::from_ratio(&ratio), on)
        })
    });
    let own_nodes = OwnNodes {
        total: mine.values().map(|record| record.nodes).sum(),
        positions: mine.len(),
        setting: node_setting(setting),
    };
    ScopedMeasure {
        reference: theirs.is_some().then(|| reference.unwrap_or_default().to_string()),
        change,
        own_nodes: Some(own_nodes),
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

/// Solve counts per tactics setting (suite, first N, limit) and variant,
/// the latest run of each variant winning.
type SolvedData = BTreeMap<(String, String), BTreeMap<String, (usize, usize)>>;

fn solved_data(results: &Path) -> SolvedData {
    let mut data = SolvedData::new();
    for run in runs_of_nested(results, "tactics") {
        let Some(args) = read_run(&run) else { continue };
        let args = &args["args"];
        let Some(suite) = args["suite"].as_str() else { continue };
        let setting = format!(
            "{}{}",
            args["first"].as_u64().map_or(String::new(), |first| format!("first {first}, ")),
            limit_of(args)
        );
        let per_variant = data.entry((suite.to_string(), setting)).or_default();
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

/// A variant's and its parent's solve counts on `suite`, from a setting
/// both were run at.
fn solved_pair(data: &SolvedData, suite: &str, variant: &str, parent: &str) -> Option<Solved> {
    data.iter().filter(|((name, _), _)| name == suite).find_map(|(_, counts)| {
        let (own, positions) = *counts.get(variant)?;
        let (theirs, parent_positions) = *counts.get(parent)?;
        (positions == parent_positions).then(|| Solved {
            suite: suite.to_string(),
            parent: theirs,
            variant: own,
            positions,
        })
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
    let root = SVGBackend::new(path, (900, height)).into_drawing_area();
    root.fill(&WHITE)?;
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
        .x_desc("nodes vs parent, %")
        .draw()?;
    chart.draw_series(bars.iter().enumerate().map(|(index, (_, value))| {
        let colour = if *value <= 0.0 { RGBColor(46, 125, 50) } else { RGBColor(198, 40, 40) };
        Rectangle::new(
            [(0.0, SegmentValue::Exact(index)), (*value, SegmentValue::Exact(index + 1))],
            colour.mix(0.8).filled(),
        )
    }))?;
    root.present()?;
    Ok(())
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
}

/// The variants without a count on the verdict suite at depth 10, parents first.
fn unmeasured(lab: &Lab, data: &NodeData) -> Vec<String> {
    let setting = preferred_settings().remove(0);
    let mut missing: Vec<String> = lab
        .variants
        .iter()
        .map(|variant| variant.name().to_string())
        .filter(|name| !data.latest.contains_key(&(name.clone(), setting.clone())))
        .collect();
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
    out.push_str(&table::atlas_table(&latest));
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
    let results = lab.results_root();
    if args.measure {
        let missing = unmeasured(lab, &node_data(&results));
        if missing.is_empty() {
            lab.say("every variant has a count on the verdict suite at depth 10 already");
        } else {
            lab.say(&format!("measuring {} variant(s): {}", missing.len(), missing.join(", ")));
            let nodes_args = crate::measure::nodes::NodesArgs {
                variants: missing,
                suite: crate::measure::suites::VERDICT.to_string(),
                depth: 10,
                hash: 16,
                first: None,
                run: crate::engines::runner::RunArgs { concurrency: args.concurrency, resume: None },
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
    writeln!(out, "| variant | parent | suite, depth | positions | nodes vs parent (geometric mean, 95% interval) |")
        .unwrap();
    writeln!(out, "|---|---|---|---:|---|").unwrap();
    let mut bars = Vec::new();
    let mut unmeasured = Vec::new();
    let mut unmeasured_external = false;
    let mut measured_by_variant = BTreeMap::new();
    let every_variant = lab.every_variant();
    for variant in &every_variant {
        let parent = variant.file.extends.as_deref();
        match measure(&data, variant.name(), parent) {
            Some(measured) => {
                let change = match (measured.change_vs_parent, parent) {
                    (Some(change), _) => change.percent_text(),
                    (None, Some(parent)) => format!("parent not measured: `lab nodes {parent} {}`", variant.name()),
                    (None, None) => "-".to_string(),
                };
                writeln!(
                    out,
                    "| {} | {} | {}, {} | {} | {change} |",
                    listed_name(lab, variant.name()),
                    parent.unwrap_or("-"),
                    crate::measure::suites::name(&measured.setting.0),
                    measured.setting.1,
                    measured.positions
                )
                .unwrap();
                if let Some(change) = measured.change_vs_parent {
                    bars.push((variant.name().to_string(), change.percent()));
                }
                measured_by_variant.insert(variant.name().to_string(), measured);
            }
            None => {
                unmeasured.push(listed_name(lab, variant.name()));
                unmeasured_external |= lab.external(variant.name()).is_some();
            }
        }
    }
    if !unmeasured.is_empty() {
        writeln!(out, "\nNot measured yet ({}): {}.", unmeasured.len(), unmeasured.join(", ")).unwrap();
        writeln!(out, "Measure one against its parent with `lab nodes <parent> <variant>`.").unwrap();
        if unmeasured_external {
            writeln!(out, "Another engine's variant runs its binary: add `--engine-path ENGINE=PATH`.").unwrap();
        }
    }

    // Games decide: their table goes first, after the introduction.
    let games: Vec<_> = every_variant
        .iter()
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
    writeln!(out, "| variant | source | claim | measured | verdict |").unwrap();
    writeln!(out, "|---|---|---|---:|---|").unwrap();
    for variant in every_variant.iter().filter(|variant| !variant.plan().claims.is_empty()) {
        let measured = measured_by_variant.get(variant.name());
        let parent = variant.file.extends.as_deref();
        let claimed_suites = crate::verdicts::verdict::claimed_suites(variant);
        let solved: Vec<Solved> =
            claimed_suites.iter().filter_map(|suite| solved_pair(&solved, suite, variant.name(), parent?)).collect();
        let games = parent.map_or(Vec::new(), |parent| evidence::game_results(&results, variant.name(), parent));
        for claim in &variant.plan().claims {
            let scoped = (claim.scope != Default::default())
                .then(|| scoped_measure(&data, variant.name(), parent, &claim.scope));
            let evidence = match &scoped {
                Some(scoped) => Evidence {
                    reference: scoped.reference.as_deref(),
                    node_change: scoped.change.clone(),
                    own_nodes: scoped.own_nodes.clone(),
                    telemetry: scoped.telemetry.as_ref(),
                    solved: solved.clone(),
                    unsolved: Vec::new(),
                    games: &games,
                },
                None => Evidence {
                    reference: parent,
                    node_change: measured.and_then(|measured| {
                        let on = setting_text(&measured.setting);
                        measured.change_vs_parent.map(|ratio| (NodeChange::from_ratio(&ratio), on))
                    }),
                    own_nodes: measured.map(|measured| OwnNodes {
                        total: measured.total_nodes,
                        positions: measured.positions,
                        setting: node_setting(&measured.setting),
                    }),
                    telemetry: measured.map(|measured| &measured.telemetry),
                    solved: solved.clone(),
                    unsolved: Vec::new(),
                    games: &games,
                },
            };
            let judgement = claims::judge(variant, claim, &evidence);
            let measured = match &judgement {
                Judgement::Holds(measured) | Judgement::DoesNotHold(measured) | Judgement::Undecided(measured) => {
                    measured.clone()
                }
                Judgement::NotMeasured(why) => why.clone(),
            };
            writeln!(
                out,
                "| {} | {} | {} | {measured} | {} |",
                variant.name(),
                variant.file.source,
                claim.text(),
                judgement.word()
            )
            .unwrap();
        }
    }

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
        writeln!(out, "| variant | suite, limit | solved |").unwrap();
        writeln!(out, "|---|---|---:|").unwrap();
        for (variant, (label, solved, positions)) in &tactics {
            writeln!(out, "| {variant} | {label} | {solved}/{positions} |").unwrap();
        }
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
    let tc_section = match time_controls::read(&lab.root.join(time_controls::TIME_CONTROLS_FILE)) {
        Ok(records) => time_controls::section(&records, &atlas, time_controls::TIME_CONTROLS_FILE),
        Err(error) => format!("## Time controls beside fixed nodes\n\n{error:#}\n"),
    };
    writeln!(out, "\n{tc_section}").unwrap();

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
    if lab.global.json {
        let rows: Vec<_> = bars
            .iter()
            .map(|(variant, change)| serde_json::json!({"variant": variant, "nodes_vs_parent_geomean_pct": change}))
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(
                &serde_json::json!({"node_change": rows, "report": report_path, "chart": chart_path})
            )?
        );
    } else {
        println!("{out}");
        lab.say(&format!("report: {} and {}", report_path.display(), chart_path.display()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search of `id` with `nodes` in all and `by_depth` main-search nodes
    /// by depth (1, 2, ...).
    fn record(variant: &str, id: &str, nodes: u64, by_depth: &[u64]) -> NodesRecord {
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

    fn add(data: &mut NodeData, setting: (&str, u64), records: Vec<NodesRecord>) {
        for record in records {
            data.latest
                .entry((record.variant.clone(), (setting.0.to_string(), setting.1)))
                .or_default()
                .insert((record.id.clone(), record.fen.clone()), record);
        }
    }

    fn change(data: &NodeData, scope: Scope) -> (Option<String>, Option<(f64, String)>) {
        let measured = scoped_measure(data, "child", Some("parent"), &scope);
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
        let mut old = data.latest[&("child".to_string(), ("verdict".to_string(), 10))].clone();
        old.values_mut().for_each(|record| record.telemetry = Telemetry::default());
        data.latest.insert(("child".to_string(), ("verdict".to_string(), 10)), old);
        assert_eq!(change(&data, Scope { depths: Some((3, 4)), ..Default::default() }).1, None);
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
        let folder = dir.join(crate::engines::external::FOLDER);
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
        lab.externals = crate::engines::external::load(&dir, &lab.variants).unwrap();
        lab.global.engine_paths = vec![format!("x={}", engine.display())];
        let nodes_args = crate::measure::nodes::NodesArgs {
            variants: vec!["x-off".into(), "x-on".into()],
            suite: suite.display().to_string(),
            depth: 10,
            hash: 16,
            first: None,
            run: crate::engines::runner::RunArgs { concurrency: 1, resume: None },
        };
        crate::measure::nodes::run(&lab, &nodes_args).unwrap();
        command(&lab, &ReportArgs { measure: false, concurrency: 1 }).unwrap();

        let report = std::fs::read_to_string(dir.join("results/report.md")).unwrap();
        let x = format!("engine x: {}", engine.display());
        for row in [
            format!("| x-off ({x}) | - | two, 10 | 2 | - |"),
            format!("| x-on ({x}) | x-off | two, 10 | 2 | -10.0% (95%: -10.0% to -10.0%, 2 positions) |"),
            "| x-on | a stand-in | -12% to -8% nodes at depth 10 | -10.0% (95%: -10.0% to -10.0%) on two at depth 10 \
             | holds |"
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
