//! `lab interactions FEATURE... --on VARIANT`: what each feature, and each
//! pair of them, does to the node count of a base variant, and whether the
//! pairs overlap or reinforce.
//!
//! Every feature set (the base, the base plus one feature, the base plus a
//! pair) is its own engine build in the lab's target folder, and counts
//! nodes on the suite to a fixed depth from `ucinewgame`, as `lab nodes`
//! does. With `r = nodes / base nodes` (summed over the positions every set
//! searched), a pair's interaction is `r_pair / (r_a · r_b) − 1`: zero when
//! the two features' savings multiply as if independent; positive when the
//! pair saves less than the two alone would (they **overlap**: they prune
//! the same nodes); negative when it saves more (they **reinforce** each
//! other). A pair the resolver refuses (two razoring styles, both SEE
//! thresholds) or whose set is one of its singles' (one feature implies the
//! other) is skipped with a note.
//!
//! The run writes `interactions.svg`, a heat map of the pairs, beside its
//! summary.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use anyhow::{bail, Context, Result};
use clap::Args;
use games::engine::SearchOutput;
use games::results::{read_run, runs_of, RunDir};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::{Deserialize, Serialize};

use crate::engines::{builder, participant};
use crate::lab::options::SearchOptions;
use crate::lab::table::Table;
use crate::lab::Lab;
use crate::measure::runner::{self, suite_jobs, Contestant, RunArgs, Settings, DEPTH_SEARCH_TIMEOUT};
use crate::measure::suites;

/// The heat map's file in the run folder.
pub const HEAT_MAP: &str = "interactions.svg";
/// Interactions are printed to 0.1%; one that rounds to ±0.0% gets no
/// reading, so a word never claims what the printed number does not show
/// (a pair of which one feature acts on two nodes of the suite would read
/// "reinforcing" at −0.0003%).
const READING_PRECISION: f64 = 0.0005;

#[derive(Args, Clone, Debug, Serialize)]
// Without a suite named, the seeds, as `lab nodes`.
#[command(mut_arg("suite", |arg| arg.default_value("seeds")))]
pub struct InteractionsArgs {
    /// Features to add to the base variant, each alone and in pairs.
    #[arg(required = true, num_args = 2..)]
    pub features: Vec<String>,
    /// The base variant.
    #[arg(long = "on", value_name = "VARIANT", default_value = "p003-3")]
    pub on: String,
    #[command(flatten)]
    #[serde(flatten)]
    pub search: SearchOptions,
    #[command(flatten)]
    #[serde(skip)]
    pub run: RunArgs,
}

/// One build: the base with zero, one or two features added.
#[derive(Clone, Debug)]
struct FeatureSet {
    /// `p003-3`, `p003-3+probcut`, `p003-3+probcut+razor-r1`.
    label: String,
    added: Vec<String>,
    /// The resolved feature list the binary must report.
    features: Vec<&'static str>,
}

/// A pair that is not measured, and why.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SkippedPair {
    pub pair: [String; 2],
    pub why: String,
}

/// The base, the singles in argument order, the pairs in argument order,
/// and the pairs skipped.
fn plan(base_name: &str, base: &[&'static str], features: &[String]) -> Result<(Vec<FeatureSet>, Vec<SkippedPair>)> {
    for (index, feature) in features.iter().enumerate() {
        if prunelab::features::find(feature).is_none() {
            let valid: Vec<&str> = prunelab::features::CATALOGUE.iter().map(|feature| feature.name).collect();
            bail!("unknown feature `{feature}`; valid features: {}", valid.join(", "));
        }
        if features[..index].contains(feature) {
            bail!("`{feature}` is given twice");
        }
        if base.contains(&feature.as_str()) {
            bail!("`{feature}` is in `{base_name}` already: its single would be the base");
        }
    }
    let set = |added: &[&String]| -> Result<FeatureSet, String> {
        let mut names: Vec<&str> = base.to_vec();
        names.extend(added.iter().map(|feature| feature.as_str()));
        let features = prunelab::features::resolve(&names)?;
        let label = std::iter::once(base_name).chain(added.iter().map(|feature| feature.as_str())).collect::<Vec<_>>();
        Ok(FeatureSet { label: label.join("+"), added: added.iter().map(|f| f.to_string()).collect(), features })
    };
    let mut sets = vec![set(&[]).map_err(anyhow::Error::msg)?];
    for feature in features {
        sets.push(set(&[feature]).map_err(|why| anyhow::anyhow!("`{feature}` on `{base_name}`: {why}"))?);
    }
    let mut skipped = Vec::new();
    for (index, first) in features.iter().enumerate() {
        for second in &features[index + 1..] {
            let pair = [first.clone(), second.clone()];
            match set(&[first, second]) {
                Err(why) => skipped.push(SkippedPair { pair, why }),
                Ok(both) => {
                    let single_of = |feature: &String| sets.iter().find(|set| set.added == [feature.clone()]);
                    let implied = [first, second]
                        .into_iter()
                        .find(|feature| single_of(feature).is_some_and(|single| single.features == both.features));
                    match implied {
                        Some(feature) => skipped.push(SkippedPair {
                            pair,
                            why: format!("`{feature}` implies the other: the pair is its single"),
                        }),
                        None => sets.push(both),
                    }
                }
            }
        }
    }
    Ok((sets, skipped))
}

/// One set's search of one position.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct InteractionRecord {
    pub set: String,
    pub added: Vec<String>,
    pub position: usize,
    pub id: String,
    pub nodes: u64,
    pub best: String,
    pub error: Option<String>,
}

/// A set's node count against the base.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SetTotal {
    pub set: String,
    pub added: Vec<String>,
    pub nodes: u64,
    /// Nodes over the base's, over the positions every set searched.
    pub ratio: f64,
}

/// A pair's interaction.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PairInteraction {
    pub pair: [String; 2],
    pub nodes: u64,
    pub ratio: f64,
    /// The ratio the two singles' ratios predict: `r_a · r_b`.
    pub expected_ratio: f64,
    /// `r_pair / (r_a · r_b) − 1`.
    pub interaction: f64,
    /// The pair's nodes minus what the singles predict, `base · r_a · r_b`.
    pub nodes_beyond_expected: f64,
    /// Positions whose own interaction is positive, and negative (the
    /// rest: exactly zero, where neither feature changed that search or
    /// their changes multiply).
    pub positions_overlapping: usize,
    pub positions_reinforcing: usize,
}

impl PairInteraction {
    pub fn reading(&self) -> &'static str {
        if self.interaction >= READING_PRECISION {
            "overlapping"
        } else if self.interaction <= -READING_PRECISION {
            "reinforcing"
        } else {
            "independent"
        }
    }
}

/// The totals and interactions from the records.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Analysis {
    /// Positions every set searched without error; the sums are over them.
    pub positions: usize,
    pub sets: Vec<SetTotal>,
    pub pairs: Vec<PairInteraction>,
}

fn analyse(base: &str, sets: &[(String, Vec<String>)], records: &[InteractionRecord]) -> Analysis {
    let nodes: BTreeMap<(&str, usize), u64> = records
        .iter()
        .filter(|record| record.error.is_none())
        .map(|record| ((record.set.as_str(), record.position), record.nodes))
        .collect();
    let mut positions: Vec<usize> = records.iter().map(|record| record.position).collect();
    positions.sort_unstable();
    positions.dedup();
    positions
        .retain(|&position| sets.iter().all(|(set, _)| nodes.get(&(set.as_str(), position)).is_some_and(|&n| n > 0)));
    let total = |set: &str| positions.iter().map(|&position| nodes[&(set, position)]).sum::<u64>();
    let base_nodes = total(base);
    let ratio = |set: &str| if base_nodes == 0 { f64::NAN } else { total(set) as f64 / base_nodes as f64 };
    let totals: Vec<SetTotal> = sets
        .iter()
        .map(|(set, added)| SetTotal { set: set.clone(), added: added.clone(), nodes: total(set), ratio: ratio(set) })
        .collect();
    let single = |feature: &str| {
        sets.iter().find(|(_, added)| added.len() == 1 && added[0] == feature).map(|(set, _)| set.as_str())
    };
    let pairs = sets
        .iter()
        .filter(|(_, added)| added.len() == 2)
        .filter_map(|(set, added)| {
            let (a, b) = (single(&added[0])?, single(&added[1])?);
            let expected_ratio = ratio(a) * ratio(b);
            let per_position = positions.iter().map(|&position| {
                let r = |set: &str| nodes[&(set, position)] as f64 / nodes[&(base, position)] as f64;
                r(set) / (r(a) * r(b)) - 1.0
            });
            let (overlapping, reinforcing) = per_position.fold((0, 0), |(over, under), value| {
                (over + usize::from(value > 0.0), under + usize::from(value < 0.0))
            });
            Some(PairInteraction {
                pair: [added[0].clone(), added[1].clone()],
                nodes: total(set),
                ratio: ratio(set),
                expected_ratio,
                interaction: ratio(set) / expected_ratio - 1.0,
                nodes_beyond_expected: total(set) as f64 - base_nodes as f64 * expected_ratio,
                positions_overlapping: overlapping,
                positions_reinforcing: reinforcing,
            })
        })
        .collect();
    Analysis { positions: positions.len(), sets: totals, pairs }
}

fn percent(value: f64) -> String {
    format!("{:+.1}%", value * 100.0)
}

fn markdown(args: &InteractionsArgs, suite: &str, analysis: &Analysis, skipped: &[SkippedPair]) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "# lab interactions: {} on {}, {suite} at depth {}, Hash {}\n",
        args.features.join(", "),
        args.on,
        args.search.depth,
        args.search.hash.mb
    )
    .unwrap();
    writeln!(
        out,
        "Nodes summed over the {} position(s) every build searched. r = nodes / {}'s nodes; a pair's interaction is \
         r_pair / (r_a · r_b) − 1: positive, the pair saves less than the two alone would (**overlapping**); negative, \
         more (**reinforcing**); one that rounds to ±0.0% reads independent.\n",
        analysis.positions, args.on
    )
    .unwrap();
    writeln!(out, "![heat map of the pairs' interactions]({HEAT_MAP})\n").unwrap();
    let mut alone = Table::new().left(format!("added to {}", args.on)).right("nodes").right("r").right("change");
    for total in analysis.sets.iter().filter(|total| total.added.len() < 2) {
        let name =
            if total.added.is_empty() { format!("(none: {})", args.on) } else { format!("`{}`", total.added[0]) };
        alone.push([name, total.nodes.to_string(), format!("{:.3}", total.ratio), percent(total.ratio - 1.0)]);
    }
    write!(out, "## Each feature alone\n\n{alone}").unwrap();
    let mut pairs: Vec<&PairInteraction> = analysis.pairs.iter().collect();
    pairs.sort_by(|x, y| y.interaction.abs().total_cmp(&x.interaction.abs()));
    let mut table = Table::new()
        .left("pair")
        .right("nodes")
        .right("r pair")
        .right("r_a · r_b")
        .right("nodes beyond r_a · r_b")
        .right("interaction")
        .left("reading")
        .right("positions overlapping / reinforcing / neither");
    for pair in pairs {
        table.push([
            pair_cell(pair),
            pair.nodes.to_string(),
            format!("{:.3}", pair.ratio),
            format!("{:.3}", pair.expected_ratio),
            format!("{:+.0}", pair.nodes_beyond_expected),
            percent(pair.interaction),
            format!("**{}**", pair.reading()),
            format!(
                "{} / {} / {}",
                pair.positions_overlapping,
                pair.positions_reinforcing,
                analysis.positions - pair.positions_overlapping - pair.positions_reinforcing
            ),
        ]);
    }
    write!(out, "\n## Pairs, strongest interaction first\n\n{table}").unwrap();
    if !skipped.is_empty() {
        writeln!(out, "\nSkipped:").unwrap();
        for pair in skipped {
            writeln!(out, "- `{}` + `{}`: {}", pair.pair[0], pair.pair[1], pair.why).unwrap();
        }
    }
    out
}

/// The heat map: one row and column per feature; a pair's cell is its
/// interaction (red overlapping, blue reinforcing, deeper the stronger), the
/// diagonal the feature's own node change, a skipped pair grey.
fn heat_map(path: &Path, title: &str, features: &[String], analysis: &Analysis, skipped: &[SkippedPair]) -> Result<()> {
    const CELL_WIDTH: i32 = 150;
    const CELL_HEIGHT: i32 = 56;
    const LABEL_WIDTH: i32 = 170;
    const TOP: i32 = 90;
    let count = features.len() as i32;
    let (width, height) = (LABEL_WIDTH + CELL_WIDTH * count + 30, TOP + CELL_HEIGHT * count + 90);
    let root = SVGBackend::new(path, (width as u32, height as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    let centred =
        |size: u32| TextStyle::from(("sans-serif", size).into_font()).pos(Pos::new(HPos::Center, VPos::Center));
    let left = |size: u32| TextStyle::from(("sans-serif", size).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    root.draw(&Text::new(title.to_string(), (12, 22), left(20)))?;
    root.draw(&Text::new(
        "interaction = r_pair / (r_a · r_b) - 1; diagonal: the feature alone".to_string(),
        (12, 48),
        left(15),
    ))?;
    let strongest = analysis.pairs.iter().map(|pair| pair.interaction.abs()).fold(0.0_f64, f64::max);
    let colour = |value: f64| {
        let strength = if strongest > 0.0 { (value.abs() / strongest).min(1.0) } else { 0.0 };
        let fade = |full: u8| (255.0 - (255.0 - f64::from(full)) * strength).round() as u8;
        if value > 0.0 {
            RGBColor(fade(198), fade(40), fade(40))
        } else {
            RGBColor(fade(30), fade(90), fade(200))
        }
    };
    let cell = |row: i32, column: i32| {
        let (x, y) = (LABEL_WIDTH + column * CELL_WIDTH, TOP + row * CELL_HEIGHT);
        ([(x, y), (x + CELL_WIDTH, y + CELL_HEIGHT)], (x + CELL_WIDTH / 2, y + CELL_HEIGHT / 2))
    };
    for (index, feature) in features.iter().enumerate() {
        let index = index as i32;
        root.draw(&Text::new(feature.clone(), (12, TOP + index * CELL_HEIGHT + CELL_HEIGHT / 2), left(16)))?;
        root.draw(&Text::new(
            feature.clone(),
            (LABEL_WIDTH + index * CELL_WIDTH + CELL_WIDTH / 2, TOP - 14),
            centred(16),
        ))?;
    }
    for (row, first) in features.iter().enumerate() {
        for (column, second) in features.iter().enumerate() {
            let (corners, centre) = cell(row as i32, column as i32);
            let (fill, text) = if row == column {
                let single = analysis.sets.iter().find(|set| set.added == [first.clone()]);
                (
                    RGBColor(235, 235, 235),
                    single.map_or("-".to_string(), |set| format!("alone {}", percent(set.ratio - 1.0))),
                )
            } else if let Some(pair) =
                analysis.pairs.iter().find(|pair| pair.pair.contains(first) && pair.pair.contains(second))
            {
                (colour(pair.interaction), percent(pair.interaction))
            } else if skipped.iter().any(|pair| pair.pair.contains(first) && pair.pair.contains(second)) {
                (RGBColor(190, 190, 190), "skipped".to_string())
            } else {
                (WHITE, "not measured".to_string())
            };
            root.draw(&Rectangle::new(corners, fill.filled()))?;
            root.draw(&Rectangle::new(corners, RGBColor(255, 255, 255).stroke_width(2)))?;
            root.draw(&Text::new(text, centre, centred(17)))?;
        }
    }
    // The scale: the strongest interaction either way.
    let legend_y = TOP + count * CELL_HEIGHT + 30;
    let steps = 9;
    for step in 0..steps {
        let value = strongest * (2.0 * f64::from(step) / f64::from(steps - 1) - 1.0);
        let x = LABEL_WIDTH + step * 40;
        root.draw(&Rectangle::new([(x, legend_y), (x + 40, legend_y + 18)], colour(value).filled()))?;
    }
    root.draw(&Text::new(format!("reinforcing {}", percent(-strongest)), (12, legend_y + 9), left(15)))?;
    root.draw(&Text::new(
        format!("{} overlapping", percent(strongest)),
        (LABEL_WIDTH + steps * 40 + 10, legend_y + 9),
        left(15),
    ))?;
    root.present()?;
    Ok(())
}

/// A finished interactions run.
pub struct InteractionsRun {
    pub markdown: String,
    pub run_dir: std::path::PathBuf,
}

pub fn run(lab: &Lab, args: &InteractionsArgs) -> Result<InteractionsRun> {
    let base = lab.variant(&args.on)?;
    suites::check_depth(args.search.depth)?;
    let (sets, skipped) = plan(base.name(), &base.features, &args.features)?;
    let suite = suites::load_for_run(lab, &args.search.suite, None)?;
    for pair in &skipped {
        lab.say(&format!("skipping `{}` + `{}`: {}", pair.pair[0], pair.pair[1], pair.why));
    }

    let bar = lab.progress(sets.len() as u64, "building");
    let mut contestants = Vec::new();
    for set in &sets {
        bar.set_message(format!("building {}", set.label));
        let launch = match participant::feature_set_by_variants_build(lab, &set.features)? {
            Some(launch) => launch,
            None => {
                builder::ensure_built_features(lab, &set.label, &set.features).inspect_err(|_| bar.abandon())?.into()
            }
        };
        contestants.push(Contestant::new(&set.label, launch));
        bar.inc(1);
    }
    bar.finish_and_clear();

    let (mut run_dir, mut records): (RunDir, Vec<InteractionRecord>) = args.run.open(lab, "interactions", args)?;
    let go = format!("go depth {}", args.search.depth);
    let jobs = suite_jobs(&suite, &contestants, &go, DEPTH_SEARCH_TIMEOUT, |position, name| {
        records.iter().any(|record| record.position == position && record.set == name)
    });
    let settings = Settings { hash_mb: args.search.hash.mb, concurrency: args.run.concurrency, telemetry: false };
    let bar = lab.progress(jobs.len() as u64, &format!("interactions {}", suite.name));
    runner::run(&contestants, &jobs, &settings, |job, outcome: Result<SearchOutput>| {
        let set = &sets[job.contestant];
        let mut record = InteractionRecord {
            set: set.label.clone(),
            added: set.added.clone(),
            position: job.position,
            id: suite.positions[job.position].id.clone(),
            nodes: 0,
            best: String::new(),
            error: None,
        };
        match outcome {
            Ok(output) => {
                record.nodes = output.last_info().and_then(|info| info.nodes).unwrap_or(0);
                record.best = output.bestmove;
            }
            Err(error) => {
                record.error = Some(format!("{error:#}"));
                bar.suspend(|| lab.say(&format!("{} {}: {error:#}", record.set, record.id)));
            }
        }
        run_dir.keep(&mut records, record)?;
        bar.inc(1);
        Ok(())
    })?;
    bar.finish_and_clear();

    let labels: Vec<(String, Vec<String>)> = sets.iter().map(|set| (set.label.clone(), set.added.clone())).collect();
    let analysis = analyse(&sets[0].label, &labels, &records);
    let markdown = markdown(args, &suite.name, &analysis, &skipped);
    let title = format!("Pair interactions on {} ({}, depth {})", args.on, suite.name, args.search.depth);
    let chart = run_dir.file(HEAT_MAP);
    heat_map(&chart, &title, &args.features, &analysis, &skipped)
        .with_context(|| format!("cannot draw {}", chart.display()))?;
    let summary = serde_json::json!({
        "on": args.on,
        "features": args.features,
        "suite": suite.name,
        "depth": args.search.depth,
        "hash": args.search.hash.mb,
        "analysis": analysis,
        "skipped": skipped,
        "heat_map": chart,
    });
    run_dir.write_summary(&markdown, &summary)?;
    Ok(InteractionsRun { markdown, run_dir: run_dir.path().to_path_buf() })
}

pub fn command(lab: &Lab, args: &InteractionsArgs) -> Result<()> {
    let run = run(lab, args)?;
    if lab.global.json {
        println!("{}", std::fs::read_to_string(run.run_dir.join("summary.json"))?);
    } else {
        println!("{}", run.markdown);
        lab.say(&format!("results: {} (heat map: {})", run.run_dir.display(), run.run_dir.join(HEAT_MAP).display()));
    }
    Ok(())
}

/// `lab report`'s section: the latest interactions run's pairs and heat
/// map, or `None` when there is none.
pub fn report_section(results: &Path) -> Option<String> {
    let run = runs_of(results, "interactions").pop()?;
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("summary.json")).ok()?).ok()?;
    let analysis: Analysis = serde_json::from_value(summary["analysis"].clone()).ok()?;
    let skipped: Vec<SkippedPair> = serde_json::from_value(summary["skipped"].clone()).unwrap_or_default();
    let started = read_run(&run).and_then(|run| run["started"].as_str().map(str::to_string)).unwrap_or_default();
    let folder = run.file_name()?.to_string_lossy().into_owned();
    let mut out = String::new();
    writeln!(
        out,
        "## Feature interactions\n\nThe latest `lab interactions` ({started}, `{folder}`): on {}, {} at depth {}, over {} position(s).\n",
        summary["on"].as_str().unwrap_or("?"),
        summary["suite"].as_str().unwrap_or("?"),
        summary["depth"],
        analysis.positions
    )
    .ok()?;
    writeln!(out, "![pair interactions]({folder}/{HEAT_MAP})\n").ok()?;
    let mut table = Table::new().left("pair").right("r pair").right("r_a · r_b").right("interaction").left("reading");
    for pair in &analysis.pairs {
        table.push([
            pair_cell(pair),
            format!("{:.3}", pair.ratio),
            format!("{:.3}", pair.expected_ratio),
            percent(pair.interaction),
            pair.reading().to_string(),
        ]);
    }
    write!(out, "{table}").ok()?;
    for pair in &skipped {
        writeln!(out, "\nSkipped `{}` + `{}`: {}", pair.pair[0], pair.pair[1], pair.why).ok()?;
    }
    Some(out)
}

/// `` `a` + `b` ``: a pair in a table's cell.
fn pair_cell(pair: &PairInteraction) -> String {
    format!("`{}` + `{}`", pair.pair[0], pair.pair[1])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(features: &[&str]) -> Vec<String> {
        features.iter().map(|feature| feature.to_string()).collect()
    }

    #[test]
    fn the_plan_is_the_base_the_singles_and_the_pairs_and_skips_exclusive_and_implied_pairs() {
        let base = prunelab::features::resolve(&["lmp"]).unwrap();
        let (sets, skipped) = plan("base", &base, &names(&["razor-r1", "razor-sf", "probcut", "razor-r2"])).unwrap();
        let labels: Vec<&str> = sets.iter().map(|set| set.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "base",
                "base+razor-r1",
                "base+razor-sf",
                "base+probcut",
                "base+razor-r2",
                "base+razor-r1+probcut",
                "base+razor-sf+probcut",
                "base+probcut+razor-r2",
            ]
        );
        assert_eq!(sets[5].features, prunelab::features::resolve(&["lmp", "razor-r1", "probcut"]).unwrap());
        let skipped_pairs: Vec<[&str; 2]> =
            skipped.iter().map(|pair| [pair.pair[0].as_str(), pair.pair[1].as_str()]).collect();
        assert_eq!(skipped_pairs, [["razor-r1", "razor-sf"], ["razor-r1", "razor-r2"], ["razor-sf", "razor-r2"]]);
        assert!(skipped[0].why.contains("exclusive"), "{}", skipped[0].why);
        assert_eq!(skipped[1].why, "`razor-r2` implies the other: the pair is its single");

        let refused = |features: &[&str]| format!("{:#}", plan("base", &base, &names(features)).unwrap_err());
        assert!(refused(&["razor-r9", "probcut"]).contains("unknown feature `razor-r9`"));
        assert!(refused(&["probcut", "probcut"]).contains("given twice"));
        assert!(refused(&["lmp", "probcut"]).contains("in `base` already"));
    }

    fn record(set: &str, added: &[&str], position: usize, nodes: u64) -> InteractionRecord {
        InteractionRecord {
            set: set.into(),
            added: names(added),
            position,
            id: format!("p{position}"),
            nodes,
            best: "e2e4".into(),
            error: None,
        }
    }

    #[test]
    fn interaction_is_the_pairs_ratio_over_the_singles_product() {
        let sets = vec![
            ("b".to_string(), names(&[])),
            ("b+x".to_string(), names(&["x"])),
            ("b+y".to_string(), names(&["y"])),
            ("b+x+y".to_string(), names(&["x", "y"])),
        ];
        let mut records = vec![
            // Position 0: x saves 20%, y 50%; together 50%: they overlap.
            record("b", &[], 0, 1000),
            record("b+x", &["x"], 0, 800),
            record("b+y", &["y"], 0, 500),
            record("b+x+y", &["x", "y"], 0, 500),
            // Position 1: independent would be 300; they reinforce to 200.
            record("b", &[], 1, 1000),
            record("b+x", &["x"], 1, 600),
            record("b+y", &["y"], 1, 500),
            record("b+x+y", &["x", "y"], 1, 200),
        ];
        // A position one set failed is left out of every sum.
        records.push(record("b", &[], 2, 1000));
        let mut failed = record("b+x", &["x"], 2, 0);
        failed.error = Some("engine b+x: exited".into());
        records.push(failed);
        let analysis = analyse("b", &sets, &records);
        assert_eq!(analysis.positions, 2);
        assert_eq!(analysis.sets[1], SetTotal { set: "b+x".into(), added: names(&["x"]), nodes: 1400, ratio: 0.7 });
        let pair = &analysis.pairs[0];
        assert_eq!(pair.pair, ["x".to_string(), "y".to_string()]);
        assert_eq!(pair.nodes, 700);
        assert!((pair.expected_ratio - 0.35).abs() < 1e-12);
        // 0.35 / (0.7 · 0.5) − 1 = 0: over the two positions, independent.
        assert!(pair.interaction.abs() < 1e-12, "{}", pair.interaction);
        assert!(pair.nodes_beyond_expected.abs() < 1e-9, "{}", pair.nodes_beyond_expected);
        assert_eq!((pair.positions_overlapping, pair.positions_reinforcing), (1, 1));
        assert_eq!(pair.reading(), "independent");
        // A reading needs an interaction the table's 0.1% shows.
        let reading = |interaction: f64| PairInteraction { interaction, ..pair.clone() }.reading();
        assert_eq!(
            [reading(0.0004), reading(-0.0004), reading(0.0006), reading(-0.002)],
            ["independent", "independent", "overlapping", "reinforcing"]
        );
    }

    #[test]
    fn the_heat_map_draws_every_cell() {
        let dir = std::env::temp_dir().join(format!("prunelab-heat-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(HEAT_MAP);
        let analysis = Analysis {
            positions: 1,
            sets: vec![
                SetTotal { set: "b".into(), added: vec![], nodes: 100, ratio: 1.0 },
                SetTotal { set: "b+x".into(), added: names(&["x"]), nodes: 90, ratio: 0.9 },
                SetTotal { set: "b+y".into(), added: names(&["y"]), nodes: 80, ratio: 0.8 },
            ],
            pairs: vec![PairInteraction {
                pair: [String::from("x"), String::from("y")],
                nodes: 75,
                ratio: 0.75,
                expected_ratio: 0.72,
                interaction: 0.75 / 0.72 - 1.0,
                nodes_beyond_expected: 3.0,
                positions_overlapping: 1,
                positions_reinforcing: 0,
            }],
        };
        let skipped = vec![SkippedPair { pair: [String::from("x"), String::from("z")], why: "exclusive".into() }];
        heat_map(&path, "test", &names(&["x", "y", "z"]), &analysis, &skipped).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        for text in ["alone -10.0%", "alone -20.0%", "+4.2%", "skipped", "not measured"] {
            assert!(svg.contains(text), "{text} missing");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
