//! The report's plots, from the numbers its tables print: the atlas as a
//! forest plot, the calibration's scatters, a chain's waterfall, another
//! engine's phases beside prunelab's, and the claims against their ranges.
//! Each returns `None` where it has no data.

use anyhow::Result;
use plotters::prelude::*;

use crate::measure::ratio::RatioEstimate;
use crate::plots::{self, padded_range, Mark};
use crate::verdicts::atlas::entries::AtlasEntry;
use crate::verdicts::atlas::fast_measures::Measure;
use crate::verdicts::calibration::{self, fit, Row};
use crate::verdicts::chain::PhaseRecord;

/// One row of an interval plot: a name on the axis, a point with its
/// interval, and a shaded span behind it (a claimed range, a waterfall's
/// step).
pub struct IntervalRow {
    pub name: String,
    /// The data point's mark, named and carrying what the caller adds;
    /// the plot adds `value`, `low` and `high`.
    pub mark: Mark,
    pub value: f64,
    pub interval: Option<(f64, f64)>,
    pub colour: RGBColor,
    /// Decided, or measured where claimed: filled; else hollow.
    pub filled: bool,
    pub span: Option<(f64, f64)>,
}

/// Rows of intervals on a horizontal axis, the first on top, with a line
/// at `reference` (0 for a change).
pub fn interval_plot(caption: &str, axis: &str, reference: f64, rows: Vec<IntervalRow>) -> Result<String> {
    let numbers = rows.iter().flat_map(|row| {
        let (low, high) = row.interval.unwrap_or((row.value, row.value));
        let (from, to) = row.span.unwrap_or((row.value, row.value));
        [row.value, low, high, from, to]
    });
    let x_range = padded_range(numbers, reference, 1.0);
    let count = rows.len();
    let names: Vec<String> = rows.iter().map(|row| row.name.clone()).collect();
    let longest = names.iter().map(|name| name.chars().count()).max().unwrap_or(0) as u32;
    plots::draw((plots::WIDTH, 110 + 22 * count as u32), |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(caption, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size((7 * longest + 20).clamp(60, 360))
            .build_cartesian_2d(x_range.clone(), (0..count).into_segmented())?;
        chart
            .configure_mesh()
            .label_style(plots::LABELS)
            .light_line_style(TRANSPARENT)
            .disable_y_mesh()
            .y_labels(count)
            .y_label_formatter(&|segment| match segment {
                // The first row on top.
                SegmentValue::CenterOf(index) => {
                    count.checked_sub(index + 1).and_then(|row| names.get(row)).cloned().unwrap_or_default()
                }
                _ => String::new(),
            })
            .x_desc(axis)
            .draw()?;
        chart.draw_series(LineSeries::new(
            [(reference, SegmentValue::Exact(0)), (reference, SegmentValue::Exact(count))],
            BLACK.mix(0.6),
        ))?;
        let clip = |x: f64| x.clamp(x_range.start, x_range.end);
        let marks = rows
            .into_iter()
            .enumerate()
            .map(|(index, row)| {
                let slot = count - 1 - index;
                let at = |x: f64| chart.backend_coord(&(clip(x), SegmentValue::CenterOf(slot)));
                let mut mark = row.mark.value("value", row.value);
                if let Some((from, to)) = row.span {
                    let top = chart.backend_coord(&(clip(from), SegmentValue::Exact(slot + 1)));
                    let bottom = chart.backend_coord(&(clip(to), SegmentValue::Exact(slot)));
                    mark = mark.rect((top.0, top.1 + 3), (bottom.0, bottom.1 - 3), row.colour, 0.2);
                }
                if let Some((low, high)) = row.interval {
                    mark = mark.value("low", low).value("high", high).line(at(low), at(high), row.colour, 2);
                }
                mark.circle(at(row.value), 4, row.colour, row.filled)
            })
            .collect();
        Ok(marks)
    })
}

/// Green for a gain, red for a loss: fewer nodes (a change below 0) is the
/// gain when `lower_is_gain`.
fn sign_colour(value: f64, lower_is_gain: bool) -> RGBColor {
    match (value < 0.0) == lower_is_gain {
        _ if value == 0.0 => plots::GREY,
        true => plots::GAIN,
        false => plots::LOSS,
    }
}

/// The atlas as a forest plot: each variant's latest Elo at fixed nodes
/// with its 95% interval; filled where the games decide, green for a
/// gain, red for a loss. `None` when no entry has games.
pub fn atlas_forest(latest: &[&AtlasEntry]) -> Option<Result<String>> {
    let rows: Vec<IntervalRow> = latest
        .iter()
        .filter(|entry| entry.games > 0)
        .filter_map(|entry| {
            let elo = entry.elo?;
            let decision = entry.decision();
            Some(IntervalRow {
                name: format!("{} ← {}", entry.variant, entry.parent),
                mark: Mark::new(&entry.variant).text("parent", &entry.parent).text("decision", decision.outcome()),
                value: elo.value,
                interval: Some((elo.low, elo.high)),
                colour: sign_colour(elo.value, false),
                filled: decision.is_decided(),
                span: None,
            })
        })
        .collect();
    (!rows.is_empty()).then(|| {
        interval_plot(
            "The atlas: each variant against its parent at fixed nodes (filled: the games decide)",
            "Elo, 95% interval",
            0.0,
            rows,
        )
    })
}

/// The calibration of one fast measure: each variant's measure against its
/// atlas Elo with its games' 95% interval (filled where the games decide),
/// the weighted fit's line with its 95% prediction band, and each variant's
/// Elo as the fit on the others predicts it (hollow, joined to it). `None`
/// when no row has the measure.
pub fn calibration_scatter(rows: &[Row], measure: Measure) -> Option<Result<String>> {
    let measured = calibration::points(rows, &[measure]);
    if measured.rows.is_empty() {
        return None;
    }
    let points = measured.points();
    let (xs, ys) = (&measured.xs, &measured.ys);
    let left_out = fit::leave_one_out_predictions(points);
    let line = fit::fit(points);
    let x_range = padded_range(xs.iter().map(|x| x[0]), 0.0, 2.0);
    let steps = 40;
    let band: Vec<(f64, fit::Prediction)> = (0..=steps)
        .map(|step| x_range.start + (x_range.end - x_range.start) * step as f64 / steps as f64)
        .filter_map(|x| Some((x, fit::prediction_interval(points, &[x])?)))
        .collect();
    let band_numbers = band.iter().flat_map(|(_, prediction)| [prediction.low, prediction.high]);
    let intervals = measured.rows.iter().flat_map(|row| [row.elo_interval.0, row.elo_interval.1]);
    let y_range = padded_range(
        ys.iter().copied().chain(left_out.iter().flatten().copied()).chain(band_numbers).chain(intervals),
        0.0,
        10.0,
    );
    let unit = match measure {
        Measure::Nodes => "node change, %",
        Measure::TimeToDepth => "time to depth, % change",
        Measure::Wac => "WAC positions solved, the variant's less its parent's",
    };
    Some(plots::draw((plots::WIDTH, 480), |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(format!("Calibration: {} against the atlas's Elo", measure.name()), ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(x_range.clone(), y_range.clone())?;
        chart
            .configure_mesh()
            .label_style(plots::LABELS)
            .light_line_style(TRANSPARENT)
            .x_desc(unit)
            .y_desc("Elo at fixed nodes")
            .draw()?;
        if !band.is_empty() {
            let outline: Vec<(f64, f64)> = band
                .iter()
                .map(|(x, prediction)| (*x, prediction.high))
                .chain(band.iter().rev().map(|(x, prediction)| (*x, prediction.low)))
                .collect();
            chart.draw_series(std::iter::once(Polygon::new(outline, plots::BLUE.mix(0.12).filled())))?;
        }
        if let Some(line) = &line {
            let ends = [x_range.start, x_range.end].map(|x| (x, line.predict(&[x])));
            chart.draw_series(LineSeries::new(ends, plots::BLUE.stroke_width(2)))?;
        }
        let marks = measured
            .rows
            .iter()
            .zip(xs)
            .enumerate()
            .map(|(index, (row, x))| {
                let at = chart.backend_coord(&(x[0], row.elo));
                let decided = row.games.says.is_decided();
                let (low, high) = row.elo_interval;
                let colour = sign_colour(row.elo, false);
                // The games' interval: a bar with caps, set off from the
                // leave-one-out join at the same x.
                let ((bar_x, bottom), (_, top)) =
                    (chart.backend_coord(&(x[0], low)), chart.backend_coord(&(x[0], high)));
                let bar_x = bar_x + 3;
                let mut mark = Mark::new(&row.variant)
                    .text("parent", &row.parent)
                    .text("decision", row.games.says.outcome())
                    .value("measure", x[0])
                    .value("value", row.elo)
                    .value("low", low)
                    .value("high", high)
                    .line((bar_x, bottom), (bar_x, top), colour, 1)
                    .line((bar_x - 3, bottom), (bar_x + 3, bottom), colour, 1)
                    .line((bar_x - 3, top), (bar_x + 3, top), colour, 1);
                if let Some(predicted) = left_out.as_ref().map(|predicted| predicted[index]) {
                    let predicted_at = chart.backend_coord(&(x[0], predicted));
                    mark = mark.value("left_out", predicted).line(at, predicted_at, plots::GREY, 1).circle(
                        predicted_at,
                        3,
                        plots::GREY,
                        false,
                    );
                }
                mark.circle(at, 4, colour, decided)
            })
            .collect();
        Ok(marks)
    }))
}

/// A chain as a waterfall: each phase's node change against its parent,
/// a step from the chain's level before it to after it (nodes as a share
/// of the chain's start, %), with the phase's 95% interval from the level
/// before. `None` when no phase has a node change.
pub fn chain_waterfall(chain: &str, phases: &[&PhaseRecord]) -> Option<Result<String>> {
    let mut level = 100.0;
    let rows: Vec<IntervalRow> = phases
        .iter()
        .filter_map(|record| {
            let ratio = record.comparison.nodes?;
            let before = level;
            level *= ratio.ratio;
            let interval = ratio.interval.map(|(low, high)| (before * low, before * high));
            Some(IntervalRow {
                name: format!("{} ({})", record.phase, signed(ratio.percent())),
                mark: Mark::new(&record.phase)
                    .text("parent", &record.parent)
                    .value("change", ratio.percent())
                    .value("from", before),
                value: level,
                interval,
                colour: sign_colour(ratio.percent(), true),
                filled: true,
                span: Some((before, level)),
            })
        })
        .collect();
    (!rows.is_empty()).then(|| {
        interval_plot(
            &format!("Chain {chain}: nodes after each phase, % of the chain's start"),
            "nodes, % of the first variant's (95% interval of each phase's change)",
            100.0,
            rows,
        )
    })
}

/// `+3.1%`.
fn signed(percent: f64) -> String {
    format!("{percent:+.1}%")
}

/// Another engine's phases beside prunelab's same phases: both node
/// changes with their 95% intervals, paired. `None` when no phase was
/// counted beside prunelab's.
pub fn beside_ours(engine: &str, phases: &[&PhaseRecord]) -> Option<Result<String>> {
    let row = |side: &str, phase: &str, pair: String, ratio: &RatioEstimate, colour: RGBColor| IntervalRow {
        name: format!("{phase}: {side}"),
        mark: Mark::new(phase).text("side", side).text("pair", &pair),
        value: ratio.percent(),
        interval: ratio.percent_interval(),
        colour,
        filled: true,
        span: None,
    };
    let rows: Vec<IntervalRow> = phases
        .iter()
        .filter_map(|record| {
            let ours = record.ours.as_ref()?;
            let (theirs_ratio, ours_ratio) = (record.comparison.nodes?, ours.nodes?);
            Some([
                row(
                    engine,
                    &record.phase,
                    format!("{} → {}", record.parent, record.phase),
                    &theirs_ratio,
                    plots::ORANGE,
                ),
                row(
                    "prunelab",
                    &record.phase,
                    format!("{} → {}", ours.reference, ours.subject),
                    &ours_ratio,
                    plots::BLUE,
                ),
            ])
        })
        .flatten()
        .collect();
    (!rows.is_empty()).then(|| {
        interval_plot(
            &format!("{engine} beside prunelab: each plan phase's node change"),
            "node change against the parent, % (95% interval)",
            0.0,
            rows,
        )
    })
}

/// A claim as the report judged it: the claimed range of node change and
/// the measured change with its interval.
pub struct ClaimPoint {
    pub variant: String,
    pub claim: String,
    pub claimed: (f64, f64),
    pub measured: f64,
    pub interval: Option<(f64, f64)>,
    /// `holds`, `undecided` or `does not hold`.
    pub verdict: &'static str,
}

/// Each node claim's measured interval against its claimed range (shaded),
/// green where it holds, grey where undecided, red where it does not.
/// `None` when no node claim was measured.
pub fn claims(points: &[ClaimPoint]) -> Option<Result<String>> {
    let rows: Vec<IntervalRow> = points
        .iter()
        .map(|point| {
            let colour = match point.verdict {
                "holds" => plots::GAIN,
                "does not hold" => plots::LOSS,
                _ => plots::GREY,
            };
            IntervalRow {
                name: format!("{}: {}", point.variant, point.claim),
                mark: Mark::new(&point.variant)
                    .text("claim", &point.claim)
                    .text("verdict", point.verdict)
                    .value("claim_low", point.claimed.0)
                    .value("claim_high", point.claimed.1),
                value: point.measured,
                interval: point.interval,
                colour,
                filled: true,
                span: Some(point.claimed),
            }
        })
        .collect();
    (!rows.is_empty()).then(|| {
        interval_plot(
            "The claims: measured node change (95% interval) against the claimed range (shaded)",
            "node change against the parent, %",
            0.0,
            rows,
        )
    })
}
