//! `lab report`'s page, `lab-results/report/index.html`: one file, readable
//! offline, its plots inline SVG ([`figures`](super::figures)), then the
//! markdown report itself for the numbers behind them.

use std::path::Path;

use anyhow::Result;
use games::results::{read_records, read_run, runs_of};

use super::figures::{self, ClaimPoint};
use crate::lab::Lab;
use crate::plots::escape;
use crate::tune::spsa_update::{Parameter, Schedule};
use crate::tune::IterationRecord;
use crate::verdicts::atlas::entries::AtlasEntry;
use crate::verdicts::atlas::fast_measures::Measure;
use crate::verdicts::calibration::Row;
use crate::verdicts::chain::PhaseRecord;

/// Where the page goes, under the results folder.
pub const PAGE: &str = "report/index.html";

/// A plot on the page: its heading, what it shows, and the SVG.
pub struct Figure {
    pub title: String,
    pub caption: String,
    pub svg: String,
}

/// What the page is drawn from: the report's own numbers.
pub struct PageData<'a> {
    pub atlas: &'a [&'a AtlasEntry],
    pub calibration: &'a [Row],
    pub claims: &'a [ClaimPoint],
}

/// Each plot that has data, in the report's order.
pub fn figures(lab: &Lab, results: &Path, data: &PageData) -> Result<Vec<Figure>> {
    let mut out = Vec::new();
    let mut add = |title: String, caption: &str, svg: Option<Result<String>>| -> Result<()> {
        if let Some(svg) = svg {
            out.push(Figure { title, caption: caption.to_string(), svg: svg? });
        }
        Ok(())
    };
    add(
        "The claims".into(),
        "Each node claim's measured change with its 95% interval, against the claimed range (shaded): green \
         holds, grey undecided, red does not hold.",
        figures::claims(data.claims),
    )?;
    add(
        "The atlas".into(),
        "Each variant's latest Elo against its parent at fixed nodes, with its 95% interval: filled where the \
         games decide, green above 0, red below.",
        figures::atlas_forest(data.atlas),
    )?;
    for measure in Measure::ALL {
        add(
            format!("Calibration: {}", measure.name()),
            "Each variant's fast measure against its atlas Elo (filled where the games decide), the least-squares \
             line with its 95% prediction band, and, hollow, the Elo the fit on the other variants predicts for it.",
            figures::calibration_scatter(data.calibration, measure),
        )?;
    }
    if let Some((name, records)) = latest_chain(results, |_| true) {
        let phases: Vec<&PhaseRecord> = records.iter().filter(|record| !record.beside).collect();
        add(
            format!("Chain {name}"),
            "Nodes after each phase as a share of the chain's first variant, each step one phase's change \
             against its parent, with that change's 95% interval.",
            figures::chain_waterfall(&name, &phases),
        )?;
    }
    if let Some((_, records)) = latest_chain(results, |record| record.ours.is_some()) {
        let phases: Vec<&PhaseRecord> = records.iter().filter(|record| !record.beside).collect();
        let engine = phases
            .iter()
            .find_map(|record| lab.external(&record.phase).map(|external| external.engine.clone()))
            .unwrap_or_else(|| "the other engine".to_string());
        add(
            format!("{engine} beside prunelab"),
            "Each plan phase's node change in the other engine and in prunelab's mirrored pair, counted in the \
             same run, each with its 95% interval.",
            figures::beside_ours(&engine, &phases),
        )?;
    }
    for (title, svg) in tune_paths(results)? {
        add(title, "θ after each SPSA iteration (blue), and the values the two engines played (grey).", Some(Ok(svg)))?;
    }
    Ok(out)
}

/// The latest `lab chain` run with a phase record that `wanted` takes: its
/// name (`p002`, `razor-r1 razor-r3`) and records.
fn latest_chain(results: &Path, wanted: impl Fn(&PhaseRecord) -> bool) -> Option<(String, Vec<PhaseRecord>)> {
    runs_of(results, "chain").into_iter().rev().find_map(|run| {
        let records = read_records::<PhaseRecord>(&run);
        records.iter().any(&wanted).then(|| {
            let args = read_run(&run).unwrap_or_default();
            let names: Vec<&str> =
                args["args"]["chain"].as_array().into_iter().flatten().filter_map(|name| name.as_str()).collect();
            (names.join(" "), records)
        })
    })
}

/// The latest `lab tune` run's parameter paths, drawn by `lab tune`'s own
/// chart: (title, SVG) per parameter.
fn tune_paths(results: &Path) -> Result<Vec<(String, String)>> {
    let Some(run) = runs_of(results, "tune").pop() else { return Ok(Vec::new()) };
    let settings = read_run(&run).unwrap_or_default();
    let parameters: Option<Vec<Parameter>> = serde_json::from_value(settings["args"]["parameters"].clone()).ok();
    let schedule: Option<Schedule> = serde_json::from_value(settings["args"]["schedule"].clone()).ok();
    let (Some(parameters), Some(schedule)) = (parameters, schedule) else { return Ok(Vec::new()) };
    let history = read_records::<IterationRecord>(&run);
    let variant = settings["args"]["variant"].as_str().unwrap_or("?");
    parameters
        .iter()
        .enumerate()
        .map(|(index, parameter)| {
            let svg = crate::tune::chart::parameter_path(parameter, &schedule, index, &history)?;
            Ok((format!("SPSA: {} of {variant}", parameter.name), svg))
        })
        .collect()
}

/// The page: each figure under its heading, then the markdown report.
pub fn html(figures: &[Figure], markdown: &str) -> String {
    let mut body = String::new();
    for figure in figures {
        body += &format!(
            "<section class=\"figure\">\n<h2>{}</h2>\n<p>{}</p>\n{}</section>\n",
            escape(&figure.title),
            escape(&figure.caption),
            figure.svg
        );
    }
    if figures.is_empty() {
        body += "<p>No plot has data yet: the atlas, a chain, a tuning run or a measured claim draws one.</p>\n";
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>prunelab lab report</title>\n\
         <style>\nbody {{ font-family: sans-serif; max-width: 960px; margin: 1em auto; color: #222; }}\n\
         svg {{ max-width: 100%; height: auto; }}\npre {{ white-space: pre-wrap; font-size: 0.8em; }}\n</style>\n\
         </head>\n<body>\n<h1>prunelab lab report</h1>\n<p>The plots of <code>report.md</code>, from the same \
         numbers; hover over a point for them.</p>\n{body}<details>\n<summary>The report as text \
         (report.md)</summary>\n<pre>{}</pre>\n</details>\n</body>\n</html>\n",
        escape(markdown)
    )
}

#[cfg(test)]
mod page_tests;
