//! How far the fast measures can be trusted: each variant's fast measures
//! (node change, time-to-depth ratio, WAC change against its parent) set
//! beside its games at fixed nodes in the atlas. The measures come from the
//! atlas's own file, `atlas/fast.jsonl` (`lab atlas --keep-fast`), so any
//! clone calibrates; a pair the file lacks is taken from the latest `lab ab`
//! or `lab chain` run under `lab-results/` that measured it.
//!
//! `lab report` prints the calibration table: every variant with both, how
//! often each measure's sign agreed with the games where they decided (a
//! fast measure "points to a gain" with fewer nodes, less time to depth or
//! more WAC positions solved), and linear least-squares predictors of Elo
//! from the measures with their leave-one-out error (`fit`), beside the
//! constant model's. `lab ab` prints what the atlas says of its own numbers,
//! or that the atlas is too small to say.

pub mod fit;

use std::fmt::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::games::atlas::entries::{self, AtlasEntry};
use crate::games::atlas::fast_measures::{self, FastEntry};
use crate::results::{read_records, runs_of_nested};
use crate::verdicts::chain::PhaseRecord;
use crate::verdicts::verdict::Comparison;

/// Decided games a measure's sign needs in the atlas before `lab ab` says
/// what it went with: below this, a count says nothing.
pub const MIN_DECIDED: usize = 5;

/// The suite whose solve count is the calibration's tactics measure.
pub const TACTICS_SUITE: &str = "wac";

/// A variant's fast measures against its parent, each when measured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FastMeasures {
    /// Node change in percent (geometric mean of the per-position ratios).
    pub node_change_pct: Option<f64>,
    /// Time to depth, the variant's over its parent's.
    pub ttd_ratio: Option<f64>,
    /// WAC positions solved, the variant's less its parent's.
    pub wac_change: Option<i64>,
}

/// The measures by name, as the tables list them, and the sign each points
/// to (+1 a gain, -1 a loss, `None` no change).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    Nodes,
    TimeToDepth,
    Wac,
}

impl Measure {
    pub const ALL: [Measure; 3] = [Measure::Nodes, Measure::TimeToDepth, Measure::Wac];

    pub fn name(self) -> &'static str {
        match self {
            Measure::Nodes => "node change",
            Measure::TimeToDepth => "time-to-depth ratio",
            Measure::Wac => "WAC change",
        }
    }

    /// The measure as a number for the fit: percent for nodes and time to
    /// depth, positions for WAC.
    pub fn value(self, fast: &FastMeasures) -> Option<f64> {
        match self {
            Measure::Nodes => fast.node_change_pct,
            Measure::TimeToDepth => fast.ttd_ratio.map(|ratio| (ratio - 1.0) * 100.0),
            Measure::Wac => fast.wac_change.map(|change| change as f64),
        }
    }

    /// The way it points: fewer nodes, less time or more solved is a gain.
    pub fn points(self, fast: &FastMeasures) -> Option<i8> {
        let value = self.value(fast)?;
        let gain_when_negative = !matches!(self, Measure::Wac);
        match value.partial_cmp(&0.0)? {
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Less => Some(if gain_when_negative { 1 } else { -1 }),
            std::cmp::Ordering::Greater => Some(if gain_when_negative { -1 } else { 1 }),
        }
    }

    /// `-12.3%`, `x0.912`, `+3`.
    pub fn text(self, fast: &FastMeasures) -> String {
        match self {
            Measure::Nodes => fast.node_change_pct.map_or("-".into(), |pct| format!("{pct:+.1}%")),
            Measure::TimeToDepth => fast.ttd_ratio.map_or("-".into(), |ratio| format!("x{ratio:.3}")),
            Measure::Wac => fast.wac_change.map_or("-".into(), |change| format!("{change:+}")),
        }
    }
}

impl FastMeasures {
    pub fn of(comparison: &Comparison) -> FastMeasures {
        FastMeasures {
            node_change_pct: comparison.nodes.map(|ratio| ratio.percent()),
            ttd_ratio: comparison.time_to_depth.map(|ratio| ratio.ratio),
            wac_change: comparison
                .solved
                .iter()
                .find(|solved| solved.suite == TACTICS_SUITE)
                .map(|solved| solved.variant as i64 - solved.parent as i64),
        }
    }

    fn is_empty(&self) -> bool {
        Measure::ALL.iter().all(|measure| measure.value(self).is_none())
    }
}

/// A `lab ab` run's summary, as much as the calibration reads.
#[derive(Deserialize)]
struct AbSummary {
    a: String,
    b: String,
    comparison: Comparison,
}

/// The latest comparison of each (reference, subject) pair under
/// `results`, with the run it came from: `lab ab` verdicts and `lab chain`
/// phases, the newest run winning.
pub fn latest_comparisons(results: &Path) -> Vec<(String, Comparison)> {
    let mut runs: Vec<(String, Vec<Comparison>)> = Vec::new();
    for run in runs_of_nested(results, "ab") {
        let summary = std::fs::read_to_string(run.join("summary.json")).ok();
        if let Some(summary) = summary.and_then(|text| serde_json::from_str::<AbSummary>(&text).ok()) {
            let mut comparison = summary.comparison;
            (comparison.reference, comparison.subject) = (summary.a, summary.b);
            runs.push((folder_name(&run), vec![comparison]));
        }
    }
    for run in runs_of_nested(results, "chain") {
        let phases = read_records::<PhaseRecord>(&run);
        let comparisons = phases.into_iter().filter(|phase| !phase.beside).map(|phase| phase.comparison).collect();
        runs.push((folder_name(&run), comparisons));
    }
    // Timestamped names: sorted, the latest comes last and wins.
    runs.sort_by(|a, b| a.0.cmp(&b.0));
    let mut latest: Vec<(String, Comparison)> = Vec::new();
    for (run, comparisons) in runs {
        for comparison in comparisons {
            latest.retain(|(_, seen)| (&seen.reference, &seen.subject) != (&comparison.reference, &comparison.subject));
            latest.push((run.clone(), comparison));
        }
    }
    latest
}

fn folder_name(run: &Path) -> String {
    run.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default()
}

/// A pair's fast measures as the calibration uses them.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredPair {
    pub variant: String,
    pub parent: String,
    pub fast: FastMeasures,
    /// The variant's and the parent's feature sets when they were measured,
    /// if known (the atlas's file keeps them; a local run does not).
    pub features: Option<(Vec<String>, Vec<String>)>,
}

/// The fast measures the calibration can use: the atlas's file
/// (`fast_file`) first, then the latest local run of each pair under
/// `results`. The first a row matches wins, so the file's measures (the
/// same on every clone) are preferred to this machine's.
pub fn measured_pairs(fast_file: &Path, results: &Path) -> Vec<MeasuredPair> {
    let kept = fast_measures::read(fast_file).into_iter().rev().map(|entry: FastEntry| MeasuredPair {
        variant: entry.variant,
        parent: entry.parent,
        fast: entry.fast,
        features: Some((entry.features, entry.parent_features)),
    });
    let local = latest_comparisons(results).into_iter().map(|(_, comparison)| MeasuredPair {
        fast: FastMeasures::of(&comparison),
        variant: comparison.subject,
        parent: comparison.reference,
        features: None,
    });
    kept.chain(local).collect()
}

/// One variant of the calibration: its atlas result and fast measures.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub variant: String,
    pub parent: String,
    pub elo: f64,
    /// What the games decide: +1 won, -1 lost, `None` undecided.
    pub decided: Option<i8>,
    pub fast: FastMeasures,
}

/// The rows: each variant's latest atlas result joined with the fast
/// measures of the same pair, measured on the same two searches where the
/// feature sets are known.
pub fn rows(atlas: &[AtlasEntry], pairs: &[MeasuredPair]) -> Vec<Row> {
    entries::latest_per_variant(atlas)
        .into_iter()
        .filter_map(|entry| {
            let pair = pairs.iter().find(|pair| {
                pair.variant == entry.variant
                    && pair.parent == entry.parent
                    && pair.features.as_ref().is_none_or(|(features, parent_features)| {
                        (features, parent_features) == (&entry.key.features, &entry.key.parent_features)
                    })
            })?;
            let fast = pair.fast;
            (!fast.is_empty() && entry.elo.is_some()).then(|| Row {
                variant: entry.variant.clone(),
                parent: entry.parent.clone(),
                elo: entry.elo.map_or(0.0, |elo| elo.value),
                decided: entry.decided_sign(),
                fast,
            })
        })
        .collect()
}

/// How often a measure's sign agreed with the decided games: (agreed, of).
/// A row whose measure did not move, or whose games decide nothing, is not
/// counted.
pub fn agreement(rows: &[Row], measure: Measure) -> (usize, usize) {
    let pairs: Vec<(i8, i8)> = rows.iter().filter_map(|row| Some((measure.points(&row.fast)?, row.decided?))).collect();
    (pairs.iter().filter(|(points, decided)| points == decided).count(), pairs.len())
}

/// A predictor of Elo fitted on the rows: which measures, on how many rows,
/// the fit, and its leave-one-out error.
#[derive(Clone, Debug, PartialEq)]
pub struct Predictor {
    pub measures: Vec<Measure>,
    pub points: usize,
    pub fit: Option<fit::LinearFit>,
    pub loo_rmse: Option<f64>,
}

/// Elo on `measures` (none: the constant model, the mean), fitted on the
/// rows that have all of them.
pub fn predictor(rows: &[Row], measures: &[Measure]) -> Predictor {
    let usable: Vec<(Vec<f64>, f64)> = rows
        .iter()
        .filter_map(|row| {
            let x: Option<Vec<f64>> = measures.iter().map(|measure| measure.value(&row.fast)).collect();
            Some((x?, row.elo))
        })
        .collect();
    let xs: Vec<Vec<f64>> = usable.iter().map(|(x, _)| x.clone()).collect();
    let ys: Vec<f64> = usable.iter().map(|(_, y)| *y).collect();
    Predictor {
        measures: measures.to_vec(),
        points: usable.len(),
        fit: fit::least_squares(&xs, &ys),
        loo_rmse: fit::leave_one_out_rmse(&xs, &ys),
    }
}

/// The predictors the table compares: the constant, each measure alone,
/// all three.
pub fn predictors(rows: &[Row]) -> Vec<Predictor> {
    let mut all = vec![predictor(rows, &[])];
    all.extend(Measure::ALL.iter().map(|measure| predictor(rows, &[*measure])));
    all.push(predictor(rows, &Measure::ALL));
    all
}

fn predictor_name(predictor: &Predictor) -> String {
    if predictor.measures.is_empty() {
        "constant (the mean Elo)".to_string()
    } else {
        predictor.measures.iter().map(|measure| measure.name()).collect::<Vec<_>>().join(" + ")
    }
}

/// `Elo = +3.1 - 0.42 · node% + ...`.
fn formula(predictor: &Predictor) -> String {
    let Some(fit) = &predictor.fit else { return "too few points".to_string() };
    let mut text = format!("{:+.2}", fit.intercept);
    for (measure, slope) in predictor.measures.iter().zip(&fit.slopes) {
        let unit = match measure {
            Measure::Nodes => "node%",
            Measure::TimeToDepth => "ttd%",
            Measure::Wac => "wac",
        };
        write!(text, " {} {:.3}·{unit}", if *slope < 0.0 { "-" } else { "+" }, slope.abs()).unwrap();
    }
    text
}

/// The calibration section of `lab report`; `None` when no variant has both
/// an atlas result and fast measures.
pub fn report_section(rows: &[Row]) -> Option<String> {
    if rows.is_empty() {
        return None;
    }
    let mut out = String::from("## Calibration: the fast measures against the atlas's games\n\n");
    out.push_str(
        "Each variant with a result in the atlas and fast measures against the same parent (kept in \
         `atlas/fast.jsonl` by `lab atlas --keep-fast`, else the latest local `lab ab` or `lab chain` run of the \
         pair). node%: node change; ttd: time to depth, the variant's over its \
         parent's; WAC: positions solved, the variant's less its parent's. The games decide where the Elo \
         interval excludes 0 (or an SPRT for a gain accepted H1).\n\n",
    );
    out.push_str("| variant | parent | node change | time to depth | WAC change | Elo (atlas) | games decide |\n");
    out.push_str("|---|---|---:|---:|---:|---:|---|\n");
    for row in rows {
        let decided = match row.decided {
            Some(1) => "won",
            Some(_) => "lost",
            None => "undecided",
        };
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {:+.1} | {decided} |",
            row.variant,
            row.parent,
            Measure::Nodes.text(&row.fast),
            Measure::TimeToDepth.text(&row.fast),
            Measure::Wac.text(&row.fast),
            row.elo
        )
        .unwrap();
    }
    out.push_str("\nHow often each measure's sign agreed with the decided games (a measure that did not move is not counted):\n\n");
    out.push_str("| fast measure | agreed | of | share |\n|---|---:|---:|---:|\n");
    for measure in Measure::ALL {
        let (agreed, of) = agreement(rows, measure);
        let share = if of == 0 { "-".to_string() } else { format!("{:.0}%", 100.0 * agreed as f64 / of as f64) };
        writeln!(out, "| {} | {agreed} | {of} | {share} |", measure.name()).unwrap();
    }
    out.push_str(
        "\nPredictors of the atlas's Elo by linear least squares, each with its error by leave-one-out (every \
         variant predicted by the fit on the others; root mean square, Elo). A predictor whose error is not \
         below the constant model's predicts nothing:\n\n",
    );
    out.push_str("| predictor | variants | fit on all | leave-one-out error |\n|---|---:|---|---:|\n");
    for predictor in predictors(rows) {
        writeln!(
            out,
            "| {} | {} | {} | {} |",
            predictor_name(&predictor),
            predictor.points,
            formula(&predictor),
            predictor.loo_rmse.map_or("too few points".to_string(), |rmse| format!("{rmse:.1}"))
        )
        .unwrap();
    }
    Some(out)
}

/// What the atlas says of a verdict's fast numbers, for `lab ab`: for each
/// measure, how the decided variants whose measure pointed the same way
/// did; and the fit on all three with its error, when the atlas can say.
pub fn verdict_section(rows: &[Row], fast: &FastMeasures) -> String {
    let mut out = String::from("## What the atlas says of these numbers\n\n");
    let decided = rows.iter().filter(|row| row.decided.is_some()).count();
    writeln!(
        out,
        "The atlas (`{}`) has {} variant(s) with games and fast measures, {decided} of them decided.\n",
        entries::ATLAS_FILE,
        rows.len()
    )
    .unwrap();
    for measure in Measure::ALL {
        let Some(points) = measure.points(fast) else {
            let why = if measure.value(fast).is_some() { "no change, nothing to compare" } else { "not measured" };
            writeln!(out, "- {} {}: {why}", measure.name(), measure.text(fast)).unwrap();
            continue;
        };
        let alike: Vec<&Row> =
            rows.iter().filter(|row| row.decided.is_some() && measure.points(&row.fast) == Some(points)).collect();
        let won = alike.iter().filter(|row| row.decided == Some(1)).count();
        let direction = if points > 0 { "pointing to a gain" } else { "pointing to a loss" };
        if alike.len() < MIN_DECIDED {
            writeln!(
                out,
                "- {} {} ({direction}): the atlas has {} decided variant(s) with such a {}: too few to say (at \
                 least {MIN_DECIDED})",
                measure.name(),
                measure.text(fast),
                alike.len(),
                measure.name()
            )
            .unwrap();
        } else {
            writeln!(
                out,
                "- {} {} ({direction}): in the atlas, variants with a {} like this won in {won} of {} decided \
                 games",
                measure.name(),
                measure.text(fast),
                measure.name(),
                alike.len()
            )
            .unwrap();
        }
    }
    let all = predictor(rows, &Measure::ALL);
    let constant = predictor(rows, &[]);
    let values: Option<Vec<f64>> = Measure::ALL.iter().map(|measure| measure.value(fast)).collect();
    match (&all.fit, all.loo_rmse, constant.loo_rmse, values) {
        (Some(fit), Some(error), Some(constant_error), Some(values)) if all.points >= MIN_DECIDED + 3 => {
            let worth = if error < constant_error {
                "below the constant model's"
            } else {
                "no better than the constant model's: the prediction says nothing"
            };
            writeln!(
                out,
                "- the atlas's fit on the three predicts {:+.1} Elo at fixed nodes; its leave-one-out error is ±{error:.1} \
                 Elo over {} variants, {worth} (±{constant_error:.1})",
                fit.predict(&values),
                all.points
            )
            .unwrap();
        }
        _ => writeln!(
            out,
            "- no prediction of Elo: the atlas has {} variant(s) with all three measures, too few for a fit to be \
             tested by leave-one-out (at least {})",
            all.points,
            MIN_DECIDED + 3
        )
        .unwrap(),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(variant: &str, elo: f64, decided: Option<i8>, nodes: f64, ttd: f64, wac: i64) -> Row {
        Row {
            variant: variant.into(),
            parent: "parent".into(),
            elo,
            decided,
            fast: FastMeasures { node_change_pct: Some(nodes), ttd_ratio: Some(ttd), wac_change: Some(wac) },
        }
    }

    /// A constructed atlas of six variants.
    fn table() -> Vec<Row> {
        vec![
            row("a", 20.0, Some(1), -10.0, 0.90, 2),
            row("b", -15.0, Some(-1), -5.0, 1.10, 1),
            row("c", 5.0, None, -2.0, 0.98, 0),
            row("d", 30.0, Some(1), -20.0, 0.80, -1),
            row("e", -25.0, Some(-1), 5.0, 1.20, -3),
            row("f", 10.0, Some(1), -8.0, 0.95, 4),
        ]
    }

    #[test]
    fn signs_agree_with_the_decided_games_only() {
        let rows = table();
        // Nodes: a d f point to a gain and won, b points to a gain and lost, e to a loss and lost.
        assert_eq!(agreement(&rows, Measure::Nodes), (4, 5));
        assert_eq!(agreement(&rows, Measure::TimeToDepth), (5, 5));
        // WAC: a f gain and won, b gain and lost, d loss and won, e loss and lost.
        assert_eq!(agreement(&rows, Measure::Wac), (3, 5));
    }

    #[test]
    fn the_predictors_fit_and_are_tested_on_points_they_did_not_see() {
        let rows = table();
        let ttd = predictor(&rows, &[Measure::TimeToDepth]);
        assert_eq!(ttd.points, 6);
        let fit = ttd.fit.unwrap();
        // Elo on ttd% = (ratio - 1) * 100: x = -10, 10, -2, -20, 20, -5 and
        // y = 20, -15, 5, 30, -25, 10; the slope is Sxy / Sxx, in fractions
        // -1.45061224…, the intercept 2.47428571…; by leave-one-out (worked
        // in fractions too) the misses' root mean square is 3.11477608…,
        // the constant model's (the mean of the other five) 22.82542442….
        let xs = [-10.0, 10.0, -2.0, -20.0, 20.0, -5.0];
        let ys = [20.0, -15.0, 5.0, 30.0, -25.0, 10.0];
        let (mx, my) = (xs.iter().sum::<f64>() / 6.0, ys.iter().sum::<f64>() / 6.0);
        let sxy: f64 = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum();
        let sxx: f64 = xs.iter().map(|x| (x - mx) * (x - mx)).sum();
        assert!((fit.slopes[0] - sxy / sxx).abs() < 1e-9);
        assert!((fit.intercept - (my - sxy / sxx * mx)).abs() < 1e-9);
        assert_eq!(format!("{:.6} {:.6}", fit.slopes[0], fit.intercept), "-1.450612 2.474286");
        assert_eq!(format!("{:.6}", ttd.loo_rmse.unwrap()), "3.114776");
        assert_eq!(format!("{:.6}", predictor(&rows, &[]).loo_rmse.unwrap()), "22.825424");
        // Four parameters on six points: fitted, and tested on five each.
        assert!(predictor(&rows, &Measure::ALL).loo_rmse.is_some());
        let section = report_section(&rows).unwrap();
        assert!(section.contains("| a | parent | -10.0% | x0.900 | +2 | +20.0 | won |"), "{section}");
        assert!(section.contains("| node change | 4 | 5 | 80% |"), "{section}");
        assert!(section.contains("| time-to-depth ratio | 6 | +2.47 - 1.451·ttd% | 3.1 |"), "{section}");
        assert!(section.contains("| constant (the mean Elo) | 6 | +4.17 | 22.8 |"), "{section}");
        assert_eq!(report_section(&[]), None);
    }

    #[test]
    fn the_verdict_says_what_such_numbers_went_with_or_that_the_atlas_is_too_small() {
        let mut rows = table();
        rows.push(row("g", 8.0, Some(1), -3.0, 1.02, 1));
        let fast = FastMeasures { node_change_pct: Some(-12.0), ttd_ratio: Some(0.97), wac_change: Some(0) };
        let text = verdict_section(&rows, &fast);
        assert!(
            text.contains(
                "- node change -12.0% (pointing to a gain): in the atlas, variants with a node change like this won \
                 in 4 of 5 decided games"
            ),
            "{text}"
        );
        assert!(text.contains("- time-to-depth ratio x0.970 (pointing to a gain): the atlas has 3 decided"), "{text}");
        assert!(text.contains("- WAC change +0: no change, nothing to compare"), "{text}");
        assert!(text.contains("- no prediction of Elo: the atlas has 7 variant(s) with all three measures"), "{text}");
        let unmeasured = FastMeasures { wac_change: None, ..fast };
        assert!(verdict_section(&rows, &unmeasured).contains("- WAC change -: not measured"));
        let empty = verdict_section(&[], &fast);
        assert!(empty.contains("the atlas has 0 decided variant(s) with such a node change: too few"), "{empty}");
    }
}
