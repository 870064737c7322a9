//! A parameter's path as an SVG: θ after each iteration, and the values
//! the dev and base engines played.
//!
//! No Elo curve is drawn: an iteration's games compare θ + c_k and θ − c_k
//! with each other, not θ with the start, so they estimate no Elo of θ.
//! The match the summary gives measures that.

use std::path::Path;

use anyhow::Result;
use plotters::prelude::*;

use super::spsa::{Parameter, Schedule};
use super::IterationRecord;

pub fn parameter_path(
    path: &Path,
    parameter: &Parameter,
    schedule: &Schedule,
    index: usize,
    history: &[IterationRecord],
) -> Result<()> {
    let root = SVGBackend::new(path, (900, 420)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(format!("{}: θ per SPSA iteration", parameter.name), ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(0..schedule.iterations.max(1), parameter.min..parameter.max)?;
    chart.configure_mesh().x_desc("iteration").y_desc(&parameter.name).draw()?;
    let played = |pick: fn(&super::spsa::Perturbation) -> f64| {
        history.iter().map(move |record| (record.iteration, pick(&record.perturbation[index])))
    };
    let grey = RGBColor(150, 150, 150);
    chart.draw_series(played(|step| step.dev).map(|point| Circle::new(point, 2, grey.mix(0.5).filled())))?;
    chart.draw_series(played(|step| step.base).map(|point| Circle::new(point, 2, grey.mix(0.5).filled())))?;
    let theta = std::iter::once((0, parameter.start))
        .chain(history.iter().map(|record| (record.iteration, record.values[index])));
    chart.draw_series(LineSeries::new(theta, RGBColor(21, 101, 192).stroke_width(2)))?;
    root.present()?;
    Ok(())
}
