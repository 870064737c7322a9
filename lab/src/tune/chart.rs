//! A parameter's path as an SVG: θ after each iteration, and the values
//! the dev and base engines played.
//!
//! No Elo curve is drawn: an iteration's games compare θ + c_k and θ − c_k
//! with each other, not θ with the start, so they estimate no Elo of θ.
//! The match the summary gives measures that.

use anyhow::Result;
use plotters::prelude::*;

use super::spsa_update::{Parameter, Schedule};
use super::IterationRecord;
use crate::plots::{self, Key, Mark};

/// At most this many iterations are marked (θ as a mark, the values played
/// as dots), so a long run's chart stays a small file: plan 002's phase 1.6,
/// 1250 iterations, was 2500 dots and 1251 marks, over 600 kB. θ's line
/// goes through every iteration.
const MARKED_ITERATIONS: u64 = 50;

/// Every how many iterations one is marked: 1 up to [`MARKED_ITERATIONS`],
/// 25 for 1250.
fn marking_step(iterations: u64) -> u64 {
    iterations.div_ceil(MARKED_ITERATIONS).max(1)
}

/// The values played: a light grey, apart from the plots' own.
const GREY: RGBColor = RGBColor(150, 150, 150);

/// A tunable's unit, from its name: the engine's margins are centipawns,
/// a depth margin centipawns a ply of depth.
fn unit(name: &str) -> &'static str {
    if name.ends_with("DepthMargin") {
        "centipawns a ply of depth"
    } else if name.contains("Margin") {
        "centipawns"
    } else {
        "as the engine reads it"
    }
}

/// The path of parameter `index` as an SVG: θ's line through every
/// iteration; the start, every [`marking_step`]-th iteration and the last
/// are marks (`data-iteration`, `data-value`), with the values played there
/// as grey dots.
pub fn parameter_path(
    parameter: &Parameter,
    schedule: &Schedule,
    index: usize,
    history: &[IterationRecord],
) -> Result<String> {
    let step = marking_step(history.len() as u64);
    let last = history.last().map_or(0, |record| record.iteration);
    let marked = |iteration: u64| iteration % step == 0 || iteration == last;
    let x_label = match step {
        1 => "SPSA iteration".to_string(),
        _ => format!("SPSA iteration (one in {step} marked, with the values played there)"),
    };
    let key = [
        (Key::Line(plots::BLUE), "θ, the tuned value after each iteration".to_string()),
        (Key::Point(GREY, true), "the values played: θ + c and θ − c".to_string()),
    ];
    let plot_height = 420;
    plots::draw((plots::WIDTH, plot_height + plots::key_height(&key)), |root| {
        let (root, below) = root.split_vertically(plot_height);
        plots::draw_key(&below, &key)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("{}: θ per SPSA iteration", parameter.name), ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(0..schedule.iterations.max(1), parameter.min..parameter.max)?;
        chart
            .configure_mesh()
            .label_style(plots::LABELS)
            .light_line_style(TRANSPARENT)
            .y_label_formatter(&plots::tick)
            .x_desc(x_label)
            .y_desc(format!("{}, {}", parameter.name, unit(&parameter.name)))
            .draw()?;
        let played = |pick: fn(&super::spsa_update::Perturbation) -> f64| {
            history
                .iter()
                .filter(|record| marked(record.iteration))
                .map(move |record| (record.iteration, pick(&record.perturbation[index])))
        };
        chart.draw_series(played(|step| step.dev).map(|point| Circle::new(point, 2, GREY.mix(0.5).filled())))?;
        chart.draw_series(played(|step| step.base).map(|point| Circle::new(point, 2, GREY.mix(0.5).filled())))?;
        let theta: Vec<(u64, f64)> = std::iter::once((0, parameter.start))
            .chain(history.iter().map(|record| (record.iteration, record.values[index])))
            .collect();
        chart.draw_series(LineSeries::new(theta.iter().copied(), plots::BLUE.stroke_width(2)))?;
        Ok(theta
            .iter()
            .filter(|&&(iteration, _)| marked(iteration))
            .map(|&(iteration, value)| {
                Mark::new(&format!("{} after iteration {iteration}", parameter.name))
                    .value("iteration", iteration as f64)
                    .value("value", value)
                    .circle(chart.backend_coord(&(iteration, value)), 2, plots::BLUE, true)
            })
            .collect())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::spsa_update::tests::margin;
    use crate::tune::spsa_update::Perturbation;

    /// `iterations` records whose θ after iteration k is 90 + k/100.
    fn history(iterations: u64) -> Vec<IterationRecord> {
        (1..=iterations)
            .map(|iteration| {
                let value = 90.0 + iteration as f64 / 100.0;
                IterationRecord {
                    iteration,
                    perturbation: vec![Perturbation {
                        flip: 1.0,
                        c: 10.0,
                        r: 0.002,
                        dev: value + 10.0,
                        base: value - 10.0,
                    }],
                    wdl: Default::default(),
                    penta: Default::default(),
                    result: 0,
                    values: vec![value],
                    match_run: Default::default(),
                }
            })
            .collect()
    }

    /// The path of plan 002's margin from 90 after `iterations` of `planned`.
    fn chart(iterations: u64, planned: u64) -> String {
        let schedule = Schedule { iterations: planned, alpha: 0.602, gamma: 0.101, a_ratio: 0.1 };
        parameter_path(&margin(), &schedule, 0, &history(iterations)).unwrap()
    }

    /// The marks' (iteration, θ) and the count of grey dots played.
    fn marks_and_dots(svg: &str) -> (Vec<(u64, f64)>, usize) {
        let marks = plots::read_marks(svg)
            .iter()
            .map(|mark| (mark["iteration"].parse::<f64>().unwrap() as u64, mark["value"].parse().unwrap()))
            .collect();
        // The key's own dot is not a value played.
        (marks, svg.matches("fill=\"#969696\"").count() - 1)
    }

    #[test]
    fn a_short_run_marks_every_iteration() {
        let (marks, dots) = marks_and_dots(&chart(3, 10));
        assert_eq!(marks, [(0, 90.0), (1, 90.01), (2, 90.02), (3, 90.03)]);
        assert_eq!(dots, 6, "the dev and base values of each iteration");
    }

    /// Phase 1.6's 1250 iterations: every 25th marked, the last too, and
    /// the file small enough for the book.
    #[test]
    fn a_long_run_marks_every_nth_iteration_and_stays_small() {
        let svg = chart(1250, 1250);
        let (marks, dots) = marks_and_dots(&svg);
        let expected: Vec<(u64, f64)> =
            (0..=50).map(|n| (n * 25, if n == 0 { 90.0 } else { 90.0 + (n * 25) as f64 / 100.0 })).collect();
        assert_eq!(marks, expected);
        assert_eq!(dots, 100);
        assert!(svg.contains("SPSA iteration (one in 25 marked, with the values played there)"), "{svg}");
        assert!(svg.contains("ReverseFutilityDepthMargin, centipawns a ply of depth"), "{svg}");
        assert!(svg.contains("the values played: θ + c and θ − c"), "{svg}");
        assert!(svg.len() < 60_000, "{} bytes", svg.len());
        // A run stopped between marks marks where it stopped.
        let (marks, _) = marks_and_dots(&chart(1237, 1250));
        assert_eq!(marks.last(), Some(&(1237, 90.0 + 1237.0 / 100.0)));
        assert_eq!(marks[marks.len() - 2].0, 1225);
    }
}
