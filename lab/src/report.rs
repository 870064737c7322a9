//! `lab report`: the latest measurements of every variant, from the result
//! files of earlier runs, as `lab-results/report.md` and a bar chart of node
//! change against each variant's parent, `lab-results/report-nodes.svg`.
//!
//! Nothing is searched unless `--measure` asks for it: a variant without a
//! `lab nodes` run (or whose parent has none on the same suite and depth) is
//! listed with the command that would measure it.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use anyhow::{Context, Result};
use plotters::prelude::*;

use crate::claims::{self, Evidence, Judgement, NodeChange};
use crate::lab::Lab;
use crate::nodes::{percent_change, NodesRecord};
use crate::results::{read_records, read_run, runs_of, write_atomically};
use crate::tactics::TacticsRecord;
use crate::telemetry::Telemetry;

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

fn setting_of(run: &Path) -> Option<Setting> {
    let args = read_run(run)?;
    Some((args["args"]["suite"].as_str()?.to_string(), args["args"]["depth"].as_u64()?))
}

fn node_data(results: &Path) -> NodeData {
    let mut data = NodeData::default();
    for run in runs_of(results, "nodes") {
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
    change_vs_parent: Option<f64>,
    telemetry: Telemetry,
}

fn measure(data: &NodeData, variant: &str, parent: Option<&str>) -> Option<Measured> {
    let preferred = ("seeds".to_string(), 10);
    let mut settings = vec![preferred.clone()];
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
            let (mut own, mut parent_nodes) = (0u64, 0u64);
            for (key, record) in mine {
                if let Some(parent_record) = theirs.get(key) {
                    own += record.nodes;
                    parent_nodes += parent_record.nodes;
                }
            }
            (parent_nodes > 0).then(|| percent_change(own as f64, parent_nodes as f64))
        });
    Some(Measured { setting, positions: mine.len(), change_vs_parent, telemetry })
}

/// The latest tactics result per variant: (suite and limit, solved, positions).
fn tactics_data(results: &Path) -> BTreeMap<String, (String, usize, usize)> {
    let mut latest = BTreeMap::new();
    for run in runs_of(results, "tactics") {
        let Some(args) = read_run(&run) else { continue };
        let args = &args["args"];
        let limit = match (args["movetime"].as_u64(), args["nodes"].as_u64(), args["depth"].as_u64()) {
            (Some(ms), _, _) => format!("movetime {ms}"),
            (_, _, Some(depth)) => format!("depth {depth}"),
            (_, nodes, _) => format!("nodes {}", nodes.unwrap_or(crate::tactics::DEFAULT_NODES)),
        };
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
    /// First measure, with `lab nodes` on the seeds at depth 10, every
    /// variant (and parent) that has no such result yet.
    #[arg(long)]
    pub measure: bool,
    /// Engine processes at the same time for --measure.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
}

/// The variants without a seeds, depth-10 count, parents first.
fn unmeasured(lab: &Lab, data: &NodeData) -> Vec<String> {
    let setting = ("seeds".to_string(), 10);
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

pub fn command(lab: &Lab, args: &ReportArgs) -> Result<()> {
    let results = lab.results_root();
    if args.measure {
        let missing = unmeasured(lab, &node_data(&results));
        if missing.is_empty() {
            lab.say("every variant has a seeds, depth-10 count already");
        } else {
            lab.say(&format!("measuring {} variant(s): {}", missing.len(), missing.join(", ")));
            let nodes_args = crate::nodes::NodesArgs {
                variants: missing,
                suite: "seeds".to_string(),
                depth: 10,
                hash: 16,
                first: None,
                run: crate::runner::RunArgs { concurrency: args.concurrency, resume: None },
            };
            crate::nodes::run(lab, &nodes_args)?;
        }
    }
    let data = node_data(&results);
    let tactics = tactics_data(&results);
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
    writeln!(out, "| variant | parent | suite, depth | positions | nodes vs parent |").unwrap();
    writeln!(out, "|---|---|---|---:|---:|").unwrap();
    let mut bars = Vec::new();
    let mut unmeasured = Vec::new();
    let mut measured_by_variant = BTreeMap::new();
    for variant in &lab.variants {
        let parent = variant.file.extends.as_deref();
        match measure(&data, variant.name(), parent) {
            Some(measured) => {
                let change = match (measured.change_vs_parent, parent) {
                    (Some(change), _) => format!("{change:+.1}%"),
                    (None, Some(parent)) => format!("parent not measured: `lab nodes {parent} {}`", variant.name()),
                    (None, None) => "-".to_string(),
                };
                writeln!(
                    out,
                    "| {} | {} | {}, {} | {} | {change} |",
                    variant.name(),
                    parent.unwrap_or("-"),
                    measured.setting.0,
                    measured.setting.1,
                    measured.positions
                )
                .unwrap();
                if let Some(change) = measured.change_vs_parent {
                    bars.push((variant.name().to_string(), change));
                }
                measured_by_variant.insert(variant.name().to_string(), measured);
            }
            None => unmeasured.push(variant.name().to_string()),
        }
    }
    if !unmeasured.is_empty() {
        writeln!(out, "\nNot measured yet ({}): {}.", unmeasured.len(), unmeasured.join(", ")).unwrap();
        writeln!(out, "Measure one against its parent with `lab nodes <parent> <variant>`.").unwrap();
    }

    writeln!(out, "\n## The plans' claims, claimed against measured\n").unwrap();
    writeln!(out, "| variant | source | claim | measured | verdict |").unwrap();
    writeln!(out, "|---|---|---|---:|---|").unwrap();
    for variant in lab.variants.iter().filter(|variant| !variant.file.claims.is_empty()) {
        let measured = measured_by_variant.get(variant.name());
        let evidence = Evidence {
            reference: measured.and(variant.file.extends.as_deref()),
            node_change: measured
                .and_then(|measured| measured.change_vs_parent)
                .map(|percent| (NodeChange { percent, interval: None }, "the nodes run of the report".to_string())),
            telemetry: measured.map(|measured| &measured.telemetry),
            solved: Vec::new(),
        };
        for claim in &variant.file.claims {
            let judgement = claims::judge(variant, claim, &evidence);
            let measured = match &judgement {
                Judgement::Holds(measured) | Judgement::DoesNotHold(measured) => measured.clone(),
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

    // The latest `lab blame` and `lab interactions` runs, when there are any.
    for section in
        [crate::blame::report_section(&results), crate::interactions::report_section(&results)].into_iter().flatten()
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
            .map(|(variant, change)| serde_json::json!({"variant": variant, "nodes_vs_parent_pct": change}))
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
