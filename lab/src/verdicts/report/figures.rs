//! The report's plots, from the numbers its tables print: the atlas as a
//! forest plot, the calibration's scatters, a chain's waterfall, another
//! engine's phases beside prunelab's, and the claims against their ranges.
//! Each returns `None` where it has no data.

use anyhow::Result;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::Deserialize;

use crate::measure::ratio::RatioEstimate;
use crate::plots::{self, padded_range, Key, Mark};
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
/// at `reference` (0 for a change), and `key` below the axis.
pub fn interval_plot(
    caption: &str,
    axis: &str,
    reference: f64,
    rows: Vec<IntervalRow>,
    key: &[(Key, String)],
) -> Result<String> {
    let numbers = rows.iter().flat_map(|row| {
        let (low, high) = row.interval.unwrap_or((row.value, row.value));
        let (from, to) = row.span.unwrap_or((row.value, row.value));
        [row.value, low, high, from, to]
    });
    let x_range = padded_range(numbers, reference, 1.0);
    let count = rows.len();
    let names: Vec<String> = rows.iter().map(|row| row.name.clone()).collect();
    let longest = names.iter().map(|name| name.chars().count()).max().unwrap_or(0) as u32;
    let plot_height = 110 + 22 * count as u32;
    plots::draw((plots::WIDTH, plot_height + plots::key_height(key)), |root| {
        let (root, below) = root.split_vertically(plot_height);
        plots::draw_key(&below, key)?;
        let mut chart = ChartBuilder::on(&root)
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
            .x_label_formatter(&plots::tick)
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
    // The node count, where every result shares one.
    let mut counts: Vec<u64> = latest.iter().filter(|entry| entry.games > 0).map(|entry| entry.key.nodes).collect();
    counts.sort_unstable();
    counts.dedup();
    let axis = match counts[..] {
        [nodes] => format!(
            "Elo against the parent at {} nodes a move, with its 95% interval",
            games::wording::thousands(nodes)
        ),
        _ => "Elo against the parent at fixed nodes, with its 95% interval".to_string(),
    };
    let key = [
        (Key::Point(plots::GAIN, true), "the games decide a gain".to_string()),
        (Key::Point(plots::LOSS, true), "the games decide a loss (or no gain)".to_string()),
        (Key::Point(plots::GAIN, false), "undecided, above 0".to_string()),
        (Key::Point(plots::LOSS, false), "undecided, below 0".to_string()),
        (Key::Point(plots::GREY, false), "Elo exactly 0: as many wins as losses".to_string()),
    ];
    (!rows.is_empty()).then(|| {
        interval_plot("The atlas: each variant against its parent in games at fixed nodes", &axis, 0.0, rows, &key)
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
    // The variant the fit leans on most: named on the figure.
    let leaning = fit::leverages(points).and_then(|leverages| {
        leverages.into_iter().enumerate().max_by(|a, b| a.1.total_cmp(&b.1)).map(|(index, leverage)| (index, leverage))
    });
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
    let key = [
        (Key::Bar(plots::GAIN), "a variant's Elo: its games' 95% interval".to_string()),
        (Key::Point(plots::LOSS, true), "filled: the games decide (green above 0, red below)".to_string()),
        (Key::Point(plots::GREY, false), "its Elo as the fit on the other variants predicts it".to_string()),
        (Key::Line(plots::BLUE), "the weighted fit".to_string()),
        (Key::Shade(plots::BLUE), "the fit's 95% prediction band".to_string()),
    ];
    let plot_height = 480;
    Some(plots::draw((plots::WIDTH, plot_height + plots::key_height(&key)), |root| {
        let (root, below) = root.split_vertically(plot_height);
        plots::draw_key(&below, &key)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("Calibration: {} against the atlas's Elo", measure.name()), ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(x_range.clone(), y_range.clone())?;
        chart
            .configure_mesh()
            .label_style(plots::LABELS)
            .light_line_style(TRANSPARENT)
            .x_label_formatter(&plots::tick)
            .y_label_formatter(&plots::tick)
            .x_desc(unit)
            .y_desc("Elo against the parent at fixed nodes")
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
        if let Some((index, leverage)) = leaning {
            let (row, x) = (&measured.rows[index], xs[index][0]);
            let at = chart.backend_coord(&(x, row.elo));
            let text = format!("{}: the fit leans on it most (leverage {leverage:.2})", row.variant);
            // Just below it, reaching toward the plot's middle.
            let right_half = x > (x_range.start + x_range.end) / 2.0;
            let (side, from) = if right_half { (HPos::Right, at.0 + 4) } else { (HPos::Left, at.0 - 4) };
            let style = TextStyle::from(plots::LABELS).pos(Pos::new(side, VPos::Top));
            root.draw(&Text::new(text, (from, at.1 + 10), style))?;
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
            &[
                (Key::Shade(plots::GAIN), "a phase's step: fewer nodes".to_string()),
                (Key::Shade(plots::LOSS), "a phase's step: more nodes".to_string()),
                (Key::Interval(plots::GREY), "the level after it, with the phase's 95% interval".to_string()),
            ],
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
            &[
                (Key::Interval(plots::ORANGE), format!("{engine}'s phase")),
                (Key::Interval(plots::BLUE), "prunelab's same phase".to_string()),
            ],
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

/// Green where a claim holds, red where it does not, grey where undecided;
/// blue for a measure no claim names.
fn verdict_colour(verdict: Option<&str>) -> RGBColor {
    match verdict {
        Some("holds") => plots::GAIN,
        Some("does not hold") => plots::LOSS,
        Some(_) => plots::GREY,
        None => plots::BLUE,
    }
}

/// The key of a plot of claims: the range, and each verdict's colour.
fn claims_key(with_unclaimed: bool) -> Vec<(Key, String)> {
    let mut key = vec![(Key::Shade(plots::GREY), "the claimed range".to_string())];
    for verdict in ["holds", "undecided", "does not hold"] {
        key.push((Key::Interval(verdict_colour(Some(verdict))), verdict.to_string()));
    }
    if with_unclaimed {
        key.push((Key::Interval(verdict_colour(None)), "no claim".to_string()));
    }
    key
}

/// Each node claim's measured interval against its claimed range (shaded),
/// green where it holds, grey where undecided, red where it does not.
/// `None` when no node claim was measured.
pub fn claims(points: &[ClaimPoint]) -> Option<Result<String>> {
    let rows: Vec<IntervalRow> = points
        .iter()
        .map(|point| {
            let colour = verdict_colour(Some(point.verdict));
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
            &claims_key(false),
        )
    })
}

/// One verdict as numbers (`docs/data/verdict-*.toml`): each measure with
/// its interval, and the claim that judges it.
#[derive(Debug, Deserialize)]
pub struct VerdictNumbers {
    pub variant: String,
    pub parent: String,
    pub measure: Vec<MeasureNumbers>,
}

/// A measure of a verdict: a change or a rate in percent, or a ratio.
#[derive(Debug, Deserialize)]
pub struct MeasureNumbers {
    pub name: String,
    pub value: Option<f64>,
    pub interval: Option<(f64, f64)>,
    /// Time to depth: B's over A's, drawn as its change in percent.
    pub ratio: Option<f64>,
    pub ratio_interval: Option<(f64, f64)>,
    pub claim: Option<String>,
    pub claimed: Option<(f64, f64)>,
    pub verdict: Option<String>,
    /// The verdict's line the numbers come from, verbatim.
    pub printed: String,
}

impl MeasureNumbers {
    /// The value and its interval as drawn, in percent.
    pub fn drawn(&self) -> Option<(f64, Option<(f64, f64)>)> {
        let percent = |ratio: f64| (ratio - 1.0) * 100.0;
        match (self.value, self.ratio) {
            (Some(value), _) => Some((value, self.interval)),
            (None, Some(ratio)) => {
                Some((percent(ratio), self.ratio_interval.map(|(low, high)| (percent(low), percent(high)))))
            }
            (None, None) => None,
        }
    }
}

/// One verdict: each measure with its 95% interval against its claim's
/// range (shaded), coloured by the claim's outcome.
pub fn verdict(numbers: &VerdictNumbers) -> Result<String> {
    let rows: Vec<IntervalRow> = numbers
        .measure
        .iter()
        .filter_map(|measure| {
            let (value, interval) = measure.drawn()?;
            let claim = measure.claim.as_deref().unwrap_or("no claim");
            let mut mark = Mark::new(&measure.name).text("claim", claim);
            if let Some((low, high)) = measure.claimed {
                mark = mark.value("claim_low", low).value("claim_high", high);
            }
            Some(IntervalRow {
                name: format!("{} ({claim})", measure.name),
                mark: mark.text("verdict", measure.verdict.as_deref().unwrap_or("-")).text("printed", &measure.printed),
                value,
                interval,
                colour: verdict_colour(measure.verdict.as_deref()),
                filled: true,
                span: measure.claimed,
            })
        })
        .collect();
    interval_plot(
        &format!(
            "One verdict: {} against its parent {}, each measure against its claim",
            numbers.variant, numbers.parent
        ),
        "%: a change against the parent (with its 95% interval), or a share of the variant's own searches",
        0.0,
        rows,
        &claims_key(true),
    )
}
