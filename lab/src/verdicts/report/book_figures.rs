//! The book's figures, drawn from the repository's own data by `lab report
//! --figures docs/figures`: the atlas (`atlas/atlas.jsonl`), the
//! calibration (with `atlas/fast.jsonl`), the variant tree (each file of
//! `variants/` and the one it `extends`) and the engine's time management
//! (`src/time.rs`'s soft and hard limits over a game's clock) and one
//! verdict (README's, `docs/data/verdict-razor-r1.toml`). A test draws
//! them again and checks that the committed ones carry the same numbers.

use std::path::Path;

use anyhow::{Context, Result};
use games::results::write_atomically;
use plotters::prelude::*;
use prunelab::time::{clock_budget, GameClock};

use super::figures;
use crate::lab::Lab;
use crate::plots::{self, Mark};
use crate::verdicts::atlas::entries;
use crate::verdicts::atlas::fast_measures;
use crate::verdicts::atlas::fast_measures::Measure;
use crate::verdicts::calibration;

/// The clock the time figure follows: the plans' 10+0.1, in milliseconds.
const CLOCK_MS: u64 = 10_000;
const INCREMENT_MS: u64 = 100;
/// The UCI option `Move Overhead`'s default, as a game starts.
const MOVE_OVERHEAD_MS: u64 = 10;

/// README's verdict as numbers, for the figure of one verdict.
const VERDICT_FILE: &str = "docs/data/verdict-razor-r1.toml";

/// The numbers of [`VERDICT_FILE`].
fn verdict_numbers(lab: &Lab) -> Result<figures::VerdictNumbers> {
    let path = lab.root.join(VERDICT_FILE);
    let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    toml::from_str(&text).with_context(|| format!("{} is not a verdict's numbers", path.display()))
}

/// The figure files, by name, each as drawn from the repository's data.
pub fn draw_all(lab: &Lab) -> Result<Vec<(String, String)>> {
    let atlas = entries::read(&lab.root.join(entries::ATLAS_FILE));
    let latest = entries::latest_per_variant(&atlas);
    // The repository's own measures only, the same on every clone.
    let measured = calibration::measured_pairs(&lab.root.join(fast_measures::FAST_FILE), Path::new(""));
    let rows = calibration::rows(&atlas, &measured);
    let mut out = Vec::new();
    if let Some(svg) = figures::atlas_forest(&latest) {
        out.push(("atlas.svg".to_string(), svg?));
    }
    for measure in Measure::ALL {
        if let Some(svg) = figures::calibration_scatter(&rows, measure) {
            out.push((format!("calibration-{}.svg", slug(measure)), svg?));
        }
    }
    out.push(("verdict-razor-r1.svg".to_string(), figures::verdict(&verdict_numbers(lab)?)?));
    out.push(("variants.svg".to_string(), variant_tree(lab)?));
    out.push(("time.svg".to_string(), time_limits()?));
    Ok(out)
}

/// `nodes`, `ttd`, `wac`: a measure in a file name.
fn slug(measure: Measure) -> &'static str {
    match measure {
        Measure::Nodes => "nodes",
        Measure::TimeToDepth => "ttd",
        Measure::Wac => "wac",
    }
}

/// `lab report --figures DIR`: every figure into `dir`.
pub fn write_all(lab: &Lab, dir: &Path) -> Result<Vec<std::path::PathBuf>> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    draw_all(lab)?
        .into_iter()
        .map(|(name, svg)| {
            let path = dir.join(name);
            write_atomically(&path, &svg)?;
            Ok(path)
        })
        .collect()
}

/// Which variant extends which: each variant a point, at its depth in its
/// chain, joined to its parent; the tree in the files' order of names.
fn variant_tree(lab: &Lab) -> Result<String> {
    let names: Vec<&str> = lab.variants.iter().map(|variant| variant.name()).collect();
    let parent_of = |name: &str| {
        lab.variants
            .iter()
            .find(|variant| variant.name() == name)
            .and_then(|variant| variant.file.extends.as_deref())
            .filter(|parent| names.contains(parent))
    };
    // Depth-first from the roots, children by name.
    let mut order: Vec<(&str, usize)> = Vec::new();
    let mut stack: Vec<(&str, usize)> =
        names.iter().rev().filter(|name| parent_of(name).is_none()).map(|name| (*name, 0)).collect();
    while let Some((name, depth)) = stack.pop() {
        order.push((name, depth));
        stack
            .extend(names.iter().rev().filter(|child| parent_of(child) == Some(name)).map(|child| (*child, depth + 1)));
    }
    let deepest = order.iter().map(|(_, depth)| *depth).max().unwrap_or(0).max(1);
    let row_height = 16;
    let step = ((plots::WIDTH as i32 - 260) / deepest as i32).min(40);
    let at = |row: usize, depth: usize| (20 + step * depth as i32, 58 + row_height * row as i32);
    let height = 78 + row_height as u32 * order.len() as u32;
    plots::draw((plots::WIDTH, height), |root| {
        root.draw(&Text::new("Which variant extends which (variants/*.toml)", (12, 10), ("sans-serif", 18)))?;
        let key = "each point a variant file; a line joins it to the variant it extends, above it";
        root.draw(&Text::new(key, (12, 32), plots::LABELS))?;
        let mut marks = Vec::new();
        for (row, (name, depth)) in order.iter().enumerate() {
            let point = at(row, *depth);
            let parent = parent_of(name);
            if let Some(parent_row) = parent.and_then(|parent| order.iter().position(|(other, _)| *other == parent)) {
                let from = at(parent_row, depth - 1);
                root.draw(&PathElement::new([from, (from.0, point.1), point], plots::GREY))?;
            }
            root.draw(&Text::new(name.to_string(), (point.0 + 8, point.1 - 6), ("sans-serif", 12)))?;
            marks.push(Mark::new(name).text("parent", parent.unwrap_or("")).value("depth", *depth as f64).circle(
                point,
                3,
                plots::BLUE,
                true,
            ));
        }
        Ok(marks)
    })
}

/// The soft and hard limits of a move (`src/time.rs`'s `clock_budget`)
/// over the clock left, at 10+0.1.
fn time_limits() -> Result<String> {
    let clocks: Vec<u64> = (0..=CLOCK_MS).step_by(200).collect();
    let limits: Vec<(u64, (u64, u64))> = clocks
        .iter()
        .map(|&time_ms| {
            let clock = GameClock { time_ms, increment_ms: INCREMENT_MS, starting_ms: CLOCK_MS };
            (time_ms, clock_budget(clock, None, MOVE_OVERHEAD_MS))
        })
        .collect();
    let highest = limits.iter().map(|(_, (_, hard))| *hard).max().unwrap_or(1) as f64;
    plots::draw((plots::WIDTH, 420), |root| {
        let mut chart = ChartBuilder::on(root)
            .caption("Time management at 10+0.1: a move's soft and hard limits", ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(0.0..CLOCK_MS as f64 / 1000.0, 0.0..highest * 1.1)?;
        chart
            .configure_mesh()
            .label_style(plots::LABELS)
            .light_line_style(TRANSPARENT)
            .x_label_formatter(&plots::tick)
            .y_label_formatter(&plots::tick)
            .x_desc("clock left, s")
            .y_desc("limit, ms")
            .draw()?;
        let mut marks = Vec::new();
        for (kind, colour, pick) in [
            ("soft", plots::BLUE, (|(soft, _)| soft) as fn((u64, u64)) -> u64),
            ("hard", plots::LOSS, |(_, hard)| hard),
        ] {
            let points: Vec<(f64, f64)> =
                limits.iter().map(|&(time_ms, budget)| (time_ms as f64 / 1000.0, pick(budget) as f64)).collect();
            chart
                .draw_series(LineSeries::new(points.iter().copied(), colour.stroke_width(2)))?
                .label(format!("{kind} limit"))
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], colour));
            marks.extend(limits.iter().zip(&points).map(|((time_ms, _), &point)| {
                Mark::new(kind).value("clock_ms", *time_ms as f64).value("value", point.1).circle(
                    chart.backend_coord(&point),
                    2,
                    colour,
                    true,
                )
            }));
        }
        chart.configure_series_labels().background_style(WHITE).border_style(BLACK).draw()?;
        Ok(marks)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::read_marks;

    /// The committed figures in docs/figures are the repository's data as
    /// the lab draws it today: each one's marks (its plotted numbers) equal
    /// a fresh drawing's.
    #[test]
    fn the_books_figures_carry_the_repositorys_data() {
        let lab = Lab::for_tests();
        let committed = lab.root.join("docs/figures");
        let drawn = draw_all(&lab).unwrap();
        let names: Vec<&str> = drawn.iter().map(|(name, _)| name.as_str()).collect();
        for name in ["atlas.svg", "calibration-nodes.svg", "verdict-razor-r1.svg", "variants.svg", "time.svg"] {
            assert!(names.contains(&name), "{name} not drawn: {names:?}");
        }
        for (name, svg) in &drawn {
            let path = committed.join(name);
            let on_disk = std::fs::read_to_string(&path).unwrap_or_else(|_| {
                panic!("{} is missing: run `cargo lab report --figures docs/figures`", path.display())
            });
            assert_eq!(
                read_marks(&on_disk),
                read_marks(svg),
                "{} is not the data's today: run `cargo lab report --figures docs/figures`",
                path.display()
            );
        }
    }

    #[test]
    fn the_figures_plot_the_data_they_come_from() {
        let lab = Lab::for_tests();
        let drawn: std::collections::BTreeMap<String, String> = draw_all(&lab).unwrap().into_iter().collect();
        // The atlas: each variant's latest Elo and interval, as its table prints them.
        let atlas = entries::read(&lab.root.join(entries::ATLAS_FILE));
        let latest = entries::latest_per_variant(&atlas);
        let with_games: Vec<_> = latest.iter().filter(|entry| entry.games > 0 && entry.elo.is_some()).collect();
        let marks = read_marks(&drawn["atlas.svg"]);
        assert_eq!(marks.len(), with_games.len());
        for (mark, entry) in marks.iter().zip(&with_games) {
            let elo = entry.elo.unwrap();
            assert_eq!(mark["label"], entry.variant);
            assert_eq!(
                [&mark["value"], &mark["low"], &mark["high"]].map(|text| text.parse::<f64>().unwrap()),
                [elo.value, elo.low, elo.high]
            );
        }
        // The calibration: each variant's measure, Elo and its games' 95%
        // interval (the error bar), as the atlas and the fast measures hold
        // them, and the Elo the fit on the others predicts for it.
        let measured = calibration::measured_pairs(&lab.root.join(fast_measures::FAST_FILE), Path::new(""));
        let rows = calibration::rows(&atlas, &measured);
        let marks = read_marks(&drawn["calibration-nodes.svg"]);
        let points = calibration::points(&rows, &[Measure::Nodes]);
        assert_eq!(marks.len(), points.rows.len());
        let left_out = calibration::fit::leave_one_out_predictions(points.points()).unwrap();
        for ((mark, row), predicted) in marks.iter().zip(&points.rows).zip(left_out) {
            let entry = with_games.iter().find(|entry| entry.variant == row.variant && entry.parent == row.parent);
            let elo = entry.unwrap().elo.unwrap();
            assert_eq!(mark["label"], row.variant);
            assert_eq!(mark["decision"], entry.unwrap().decision().outcome());
            assert_eq!(
                ["measure", "value", "low", "high", "left_out"].map(|key| mark[key].parse::<f64>().unwrap()),
                [Measure::Nodes.value(&row.fast).unwrap(), elo.value, elo.low, elo.high, predicted]
            );
        }
        // The variant the fit leans on most is named, with its leverage.
        let leverages = calibration::fit::leverages(points.points()).unwrap();
        let most = (0..leverages.len()).max_by(|&a, &b| leverages[a].total_cmp(&leverages[b])).unwrap();
        let named =
            format!("{}: the fit leans on it most (leverage {:.2})", points.rows[most].variant, leverages[most]);
        assert!(drawn["calibration-nodes.svg"].contains(&named), "no `{named}`");
        // The verdict: each measure as its numbers say, and each number as
        // README's verdict prints it.
        let numbers = verdict_numbers(&lab).unwrap();
        let marks = read_marks(&drawn["verdict-razor-r1.svg"]);
        assert_eq!(marks.len(), numbers.measure.len());
        let readme = std::fs::read_to_string(lab.root.join("README.md")).unwrap();
        assert!(readme.contains(&format!("# Verdict: {} against its parent {}", numbers.variant, numbers.parent)));
        for (mark, measure) in marks.iter().zip(&numbers.measure) {
            let (value, interval) = measure.drawn().unwrap();
            assert_eq!(mark["label"], measure.name);
            assert_eq!(mark["value"].parse::<f64>().unwrap(), value);
            let drawn_interval = mark.get("low").map(|low| (low.parse().unwrap(), mark["high"].parse().unwrap()));
            assert_eq!(drawn_interval, interval, "{}", measure.name);
            let claimed = mark.get("claim_low").map(|low| (low.parse().unwrap(), mark["claim_high"].parse().unwrap()));
            assert_eq!(claimed, measure.claimed, "{}", measure.name);
            let printed = &measure.printed;
            assert!(readme.lines().any(|line| line == printed), "README's verdict has no line `{printed}`");
            let numbers = [measure.value, measure.ratio].into_iter().flatten();
            let intervals = [measure.interval, measure.ratio_interval].into_iter().flatten().flat_map(|(l, h)| [l, h]);
            for number in numbers.chain(intervals) {
                let digits = if measure.ratio.is_some() { 3 } else { 1 };
                assert!(printed.contains(&format!("{number:.digits$}")), "`{printed}` does not print {number}");
            }
            if let (Some(claim), Some((low, high))) = (&measure.claim, measure.claimed) {
                assert!(
                    printed.contains(claim)
                        && claim.contains(&format!("{low}%"))
                        && claim.contains(&format!("{high}%"))
                );
                assert!(printed.contains(&format!("**{}**", measure.verdict.as_deref().unwrap())), "{printed}");
            }
        }
        // The variant tree: every variant once, with its parent.
        let marks = read_marks(&drawn["variants.svg"]);
        assert_eq!(marks.len(), lab.variants.len());
        for variant in &lab.variants {
            let mark = marks.iter().find(|mark| mark["label"] == variant.name()).unwrap();
            assert_eq!(mark["parent"], variant.file.extends.clone().unwrap_or_default(), "{}", variant.name());
        }
        // The time limits: src/time.rs's own, the hard never below the soft.
        let marks = read_marks(&drawn["time.svg"]);
        let at = |kind: &str, clock: &str| {
            marks.iter().find(|mark| mark["label"] == kind && mark["clock_ms"] == clock).unwrap()["value"].clone()
        };
        let clock = GameClock { time_ms: 5000, increment_ms: INCREMENT_MS, starting_ms: CLOCK_MS };
        let (soft, hard) = clock_budget(clock, None, MOVE_OVERHEAD_MS);
        assert_eq!((at("soft", "5000"), at("hard", "5000")), (soft.to_string(), hard.to_string()));
        assert!(soft <= hard && soft > 0, "{soft} {hard}");
    }
}
