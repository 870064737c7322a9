//! A parameter's path as an SVG: θ after each iteration, and the values
//! the dev and base engines played.
//!
//! No Elo curve is drawn: an iteration's games compare θ + c_k and θ − c_k
//! with each other, not θ with the start, so they estimate no Elo of θ.
//! The match the summary gives measures that.

use anyhow::Result;
use plotters::prelude::*;

use super::spsa::{Parameter, Schedule};
use super::IterationRecord;
use crate::plots::{self, Mark};

/// The path of parameter `index` as an SVG; each iteration's θ is a mark
/// (`data-iteration`, `data-value`).
pub fn parameter_path(
    parameter: &Parameter,
    schedule: &Schedule,
    index: usize,
    history: &[IterationRecord],
) -> Result<String> {
    plots::draw((plots::WIDTH, 420), |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(format!("{}: θ per SPSA iteration", parameter.name), ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(0..schedule.iterations.max(1), parameter.min..parameter.max)?;
        chart
            .configure_mesh()
            .label_style(plots::LABELS)
            .light_line_style(TRANSPARENT)
            .x_desc("iteration")
            .y_desc(&parameter.name)
            .draw()?;
        let played = |pick: fn(&super::spsa::Perturbation) -> f64| {
            history.iter().map(move |record| (record.iteration, pick(&record.perturbation[index])))
        };
        let grey = RGBColor(150, 150, 150);
        chart.draw_series(played(|step| step.dev).map(|point| Circle::new(point, 2, grey.mix(0.5).filled())))?;
        chart.draw_series(played(|step| step.base).map(|point| Circle::new(point, 2, grey.mix(0.5).filled())))?;
        let theta: Vec<(u64, f64)> = std::iter::once((0, parameter.start))
            .chain(history.iter().map(|record| (record.iteration, record.values[index])))
            .collect();
        chart.draw_series(LineSeries::new(theta.iter().copied(), plots::BLUE.stroke_width(2)))?;
        Ok(theta
            .iter()
            .map(|&(iteration, value)| {
                Mark::new(&format!("{} after iteration {iteration}", parameter.name))
                    .value("iteration", iteration as f64)
                    .value("value", value)
                    .circle(chart.backend_coord(&(iteration, value)), 2, plots::BLUE, true)
            })
            .collect())
    })
}
