//! How far the fast measures can be trusted: each variant's fast measures
//! (node change, time-to-depth ratio, WAC change against its parent) set
//! beside its games at fixed nodes in the atlas. The measures come from the
//! atlas's own file, `atlas/fast.jsonl` (`lab atlas --keep-fast`), so any
//! clone calibrates; a pair the file lacks is taken from the latest `lab ab`
//! or `lab chain` run under `lab-results/` that measured it.
//!
//! `lab report` prints the calibration table: every variant with both, how
//! often each measure's sign agreed with the games where they decided, the
//! gains and the losses or no-gains apart (a fast measure "points to a
//! gain" with fewer nodes, less time to depth or more WAC positions
//! solved), and linear least-squares predictors of Elo from the measures
//! with their leave-one-out error (`fit`), beside the constant model's.
//! `lab ab` prints what the atlas says of its own numbers: a prediction with
//! its prediction interval, made only from measures taken at the settings
//! the atlas's were ([`MeasuredAt::fitted`]), or that the atlas is too small
//! to say.

pub mod fit;
pub mod proportion;

use std::fmt::Write;
use std::path::Path;

use crate::lab::table::Table;
use crate::verdicts::atlas::entries::{self, AtlasEntry, PairSearches};
use crate::verdicts::atlas::fast_measures::{self, latest_comparisons, FastEntry, FastMeasures, Measure, MeasuredAt};
use crate::verdicts::decision::{Decision, GamesSay, Tally, Z_95};

/// Decided games a measure's sign needs in the atlas before `lab ab` says
/// what it went with: below this, a count says nothing.
pub const MIN_DECIDED: usize = 5;

/// Whose calibration a verdict reads: prunelab's atlas, or another
/// engine's (`atlas/<engine>/atlas.jsonl`), fitted alike on that file's
/// lines alone.
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    /// The atlas file as the page names it.
    pub file: String,
    /// Where its games were played: `at fixed nodes`, `on the clock 2+0.02`.
    pub games_at: String,
    /// For another engine, the command that plays its variants into its
    /// atlas, named when the atlas cannot predict.
    pub builds_it: Option<String>,
}

impl Source {
    /// prunelab's atlas, whose games are at fixed nodes.
    pub fn prunelab() -> Source {
        Source { file: entries::ATLAS_FILE.to_string(), games_at: "at fixed nodes".to_string(), builds_it: None }
    }

    /// Where the latest lines of `atlas` were played: `at fixed nodes`,
    /// `on the clock 2+0.02`, or both.
    pub fn games_at(atlas: &[AtlasEntry]) -> String {
        let mut clocks: Vec<String> = Vec::new();
        let mut fixed = false;
        for entry in entries::latest_per_variant(atlas).into_iter().filter(|entry| entry.games > 0) {
            match &entry.key.tc {
                Some(tc) if !clocks.contains(tc) => clocks.push(tc.clone()),
                Some(_) => {}
                None => fixed = true,
            }
        }
        let on_clocks = match clocks.len() {
            0 => None,
            1 => Some(format!("on the clock {}", clocks[0])),
            _ => Some(format!("on the clocks {}", clocks.join(", "))),
        };
        match (fixed, on_clocks) {
            (true, Some(clocks)) => format!("at fixed nodes and {clocks}"),
            (false, Some(clocks)) => clocks,
            _ => "at fixed nodes".to_string(),
        }
    }
}

/// A pair's fast measures as the calibration uses them.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredPair {
    pub variant: String,
    pub parent: String,
    pub fast: FastMeasures,
    /// Where they were taken; `None` when a local run's arguments do not
    /// say (then none is set beside the atlas's).
    pub measured_at: Option<MeasuredAt>,
    /// The variant's and the parent's searches when they were measured,
    /// if known (the atlas's file keeps them; a local run does not).
    pub searches: Option<PairSearches>,
}

/// The fast measures the calibration can use: the atlas's file
/// (`fast_file`) first, then the latest local run of each pair under
/// `results`. The first a row matches wins, so the file's measures (the
/// same on every clone) are preferred to this machine's.
pub fn measured_pairs(fast_file: &Path, results: &Path) -> Vec<MeasuredPair> {
    let kept = fast_measures::read(fast_file).into_iter().rev().map(|entry: FastEntry| MeasuredPair {
        searches: Some(entry.searches),
        variant: entry.variant,
        parent: entry.parent,
        fast: entry.fast,
        measured_at: Some(entry.measured_at),
    });
    let local = latest_comparisons(results).into_iter().map(|local| MeasuredPair {
        fast: FastMeasures::of(&local.comparison),
        variant: local.comparison.subject,
        parent: local.comparison.reference,
        measured_at: local.measured_at,
        searches: None,
    });
    kept.chain(local).collect()
}

/// One variant of the calibration: its atlas result and fast measures.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub variant: String,
    pub parent: String,
    pub elo: f64,
    /// The Elo's 95% interval from its pentanomial.
    pub elo_interval: (f64, f64),
    /// What the games decide, by the one rule, and the p-value of the test
    /// that decided.
    pub games: Decision,
    /// The measures taken where the atlas's fit's were (the others left
    /// out).
    pub fast: FastMeasures,
}

/// The rows' count of decided results, with Holm's correction over them.
pub fn tally(rows: &[Row]) -> Tally {
    Tally::of(&rows.iter().map(|row| row.games).collect::<Vec<_>>())
}

/// The rows: each variant's latest atlas result with games, joined with
/// the fast measures of the same pair, measured on the same two searches
/// where the feature sets are known, and only those taken at the fitted
/// settings. A pair that played no game (an identical search) has no Elo
/// and no row.
pub fn rows(atlas: &[AtlasEntry], pairs: &[MeasuredPair]) -> Vec<Row> {
    entries::latest_per_variant(atlas)
        .into_iter()
        .filter_map(|entry| {
            let pair = pairs.iter().find(|pair| {
                pair.variant == entry.variant
                    && pair.parent == entry.parent
                    && pair.searches.as_ref().is_none_or(|searches| searches == &entry.key.searches)
            })?;
            let fast = pair.measured_at.as_ref().map(|at| at.comparable(&pair.fast)).unwrap_or_default();
            let elo = entry.elo.filter(|_| entry.games > 0)?;
            (!fast.is_empty()).then(|| Row {
                variant: entry.variant.clone(),
                parent: entry.parent.clone(),
                elo: elo.value,
                elo_interval: (elo.low, elo.high),
                games: entry.evidence().decision(),
                fast,
            })
        })
        .collect()
}

/// How a measure's sign went with the decided games: the gains, the losses
/// and the "no gain" results (an SPRT's H0 of a gain) apart. A row whose
/// measure did not move, or whose games decide none of these, is not
/// counted. Each is (how many the measure pointed to a gain for, how many).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Agreement {
    pub gains: (usize, usize),
    pub losses: (usize, usize),
    /// "No gain" bounds the Elo below a gain of the SPRT's `elo1` and says
    /// no sign: its column is shown, not counted in the sign's agreement.
    pub no_gains: (usize, usize),
}

impl Agreement {
    /// (agreed in sign, of): the gains it pointed to a gain for, the losses
    /// it did not.
    pub fn agreed(&self) -> (usize, usize) {
        (self.gains.0 + self.losses.1 - self.losses.0, self.gains.1 + self.losses.1)
    }
}

pub fn agreement(rows: &[Row], measure: Measure) -> Agreement {
    let count = |says: GamesSay| {
        let decided: Vec<i8> =
            rows.iter().filter(|row| row.games.says == says).filter_map(|row| measure.points(&row.fast)).collect();
        (decided.iter().filter(|points| **points > 0).count(), decided.len())
    };
    Agreement { gains: count(GamesSay::Gain), losses: count(GamesSay::Loss), no_gains: count(GamesSay::NoGain) }
}

/// A predictor of Elo fitted on the rows: which measures, on how many rows,
/// the fit (weighted by each point's game variance and the scatter the
/// measures leave, `fit`), its leave-one-out error, and the variant of
/// largest leverage with the leave-one-out error of the others.
#[derive(Clone, Debug, PartialEq)]
pub struct Predictor {
    pub measures: Vec<Measure>,
    pub points: usize,
    pub fit: Option<fit::LinearFit>,
    pub loo_rmse: Option<f64>,
    pub largest_leverage: Option<LargestLeverage>,
}

/// The point a fit leans on most, and the fit's error without it.
#[derive(Clone, Debug, PartialEq)]
pub struct LargestLeverage {
    pub variant: String,
    pub leverage: f64,
    pub loo_rmse_without: Option<f64>,
}

/// The rows' points for a fit on `measures`: each row that has all of them,
/// its Elo and the Elo's variance.
pub struct RowPoints<'a> {
    pub rows: Vec<&'a Row>,
    pub xs: Vec<Vec<f64>>,
    pub ys: Vec<f64>,
    pub variances: Vec<f64>,
}

impl RowPoints<'_> {
    pub fn points(&self) -> fit::Points<'_> {
        fit::Points { xs: &self.xs, ys: &self.ys, variances: &self.variances }
    }
}

impl Row {
    /// The Elo's variance: its standard error squared, the 95% interval's
    /// half-width over 1.96.
    pub fn elo_variance(&self) -> f64 {
        let (low, high) = self.elo_interval;
        ((high - low) / (2.0 * Z_95)).powi(2)
    }
}

pub fn points<'a>(rows: &'a [Row], measures: &[Measure]) -> RowPoints<'a> {
    let mut points = RowPoints { rows: Vec::new(), xs: Vec::new(), ys: Vec::new(), variances: Vec::new() };
    for row in rows {
        let Some(x) = measures.iter().map(|measure| measure.value(&row.fast)).collect::<Option<Vec<f64>>>() else {
            continue;
        };
        points.rows.push(row);
        points.xs.push(x);
        points.ys.push(row.elo);
        points.variances.push(row.elo_variance());
    }
    points
}

/// Elo on `measures` (none: the constant model, the weighted mean), fitted
/// on the rows that have all of them.
pub fn predictor(rows: &[Row], measures: &[Measure]) -> Predictor {
    let measured = points(rows, measures);
    let points = measured.points();
    let largest_leverage = fit::without_largest_leverage(points).map(|(index, leverage, loo_rmse_without)| {
        LargestLeverage { variant: measured.rows[index].variant.clone(), leverage, loo_rmse_without }
    });
    Predictor {
        measures: measures.to_vec(),
        points: measured.ys.len(),
        fit: fit::fit(points),
        loo_rmse: fit::leave_one_out_rmse(points),
        largest_leverage,
    }
}

/// The Elo a fit on `measures` predicts for a variant measuring `fast`,
/// with its 95% prediction interval.
pub fn prediction(rows: &[Row], measures: &[Measure], fast: &FastMeasures) -> Option<fit::Prediction> {
    let x: Option<Vec<f64>> = measures.iter().map(|measure| measure.value(fast)).collect();
    fit::prediction_interval(points(rows, measures).points(), &x?)
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
        "constant (the weighted mean Elo)".to_string()
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

/// `3 of 4`.
fn of_text((count, of): (usize, usize)) -> String {
    format!("{count} of {of}")
}

/// `75% (19–99%)`: a share with its Clopper–Pearson 95% interval; `-` of
/// nothing.
pub fn share_text(count: usize, of: usize) -> String {
    match proportion::clopper_pearson(count, of) {
        Some((low, high)) => {
            format!("{:.0}% ({:.0}–{:.0}%)", 100.0 * count as f64 / of as f64, 100.0 * low, 100.0 * high)
        }
        None => "-".to_string(),
    }
}

/// The calibration section of `lab report`; `None` when no variant has both
/// an atlas result and fast measures.
pub fn report_section(rows: &[Row]) -> Option<String> {
    if rows.is_empty() {
        return None;
    }
    let fitted = MeasuredAt::fitted();
    let mut out = String::from(
        "## Calibration: the fast measures against the atlas's games

",
    );
    writeln!(
        out,
        "Each variant with games in the atlas and fast measures against the same parent (kept in \
         `atlas/fast.jsonl` by `lab atlas --keep-fast`, else the latest local `lab ab` or `lab chain` run of the \
         pair), taken where the atlas's were: nodes and time to depth on {}, WAC on {}. node%: node change; ttd: \
         time to depth, the variant's over its parent's; WAC: positions solved, the variant's less its parent's. \
         The games decide by the lab's one rule (docs/verdicts.md, \"What games decide\"): an SPRT that \
         concluded by its bounds (won, lost, no gain, no loss), games played to their planned end by the Elo \
         interval (won, lost); games stopped early decide nothing. Of the {} variants, {}.\n",
        fitted.text(Measure::Nodes),
        fitted.text(Measure::Wac),
        rows.len(),
        tally(rows).text()
    )
    .unwrap();
    let mut table = fast_measures::fast_measures_table().right("Elo (atlas)").left("games decide");
    for row in rows {
        let games = [format!("{:+.1}", row.elo), row.games.says.outcome().to_string()];
        table.push(fast_measures::fast_measure_cells(&row.variant, &row.parent, &row.fast).into_iter().chain(games));
    }
    out.push_str(&table.to_string());
    let count = |says: GamesSay| rows.iter().filter(|row| row.games.says == says).count();
    writeln!(
        out,
        "\nHow each measure's sign went with the decided games: {} gain(s) and {} loss(es); the {} \"no gain\" \
         result(s) (an SPRT's H0: less than its gain, which is no sign) are shown apart. A measure that did not \
         move is not counted; a measure worth reading points to a gain for the gains and not for the losses. The \
         share's interval is Clopper–Pearson's exact 95%:\n",
        count(GamesSay::Gain),
        count(GamesSay::Loss),
        count(GamesSay::NoGain)
    )
    .unwrap();
    let mut table = Table::new()
        .left("fast measure")
        .right("decided gains it pointed to a gain for")
        .right("decided losses it pointed to a gain for")
        .right("agreed in sign")
        .right("share (95%)")
        .right("no-gains it pointed to a gain for");
    for measure in Measure::ALL {
        let agreement = agreement(rows, measure);
        let (agreed, of) = agreement.agreed();
        table.push([
            measure.name().to_string(),
            of_text(agreement.gains),
            of_text(agreement.losses),
            of_text((agreed, of)),
            share_text(agreed, of),
            of_text(agreement.no_gains),
        ]);
    }
    out.push_str(&table.to_string());
    out.push_str(
        "\nPredictors of the atlas's Elo by linear least squares, each point weighted by its Elo's variance from \
         its pentanomial plus the scatter the measures leave (τ, Elo: Paule and Mandel's estimate; calibration/fit.rs), \
         each with its error by leave-one-out (every variant predicted by the fit on the others; root mean \
         square, Elo), and that error again without the variant the fit leans on most (its largest leverage). A \
         predictor whose error is not below the constant model's predicts nothing:\n\n",
    );
    let mut table = Table::new()
        .left("predictor")
        .right("variants")
        .left("fit on all")
        .right("τ")
        .right("leave-one-out error")
        .left("largest leverage")
        .right("error without it");
    let too_few = || "too few points".to_string();
    for predictor in predictors(rows) {
        let (leaning, without) = match &predictor.largest_leverage {
            Some(largest) => (
                format!("{} ({:.2})", largest.variant, largest.leverage),
                largest.loo_rmse_without.map_or_else(too_few, |rmse| format!("{rmse:.1}")),
            ),
            None => ("-".to_string(), "-".to_string()),
        };
        table.push([
            predictor_name(&predictor),
            predictor.points.to_string(),
            formula(&predictor),
            predictor.fit.as_ref().map_or("-".to_string(), |fit| format!("{:.1}", fit.scatter.sqrt())),
            predictor.loo_rmse.map_or_else(too_few, |rmse| format!("{rmse:.1}")),
            leaning,
            without,
        ]);
    }
    out.push_str(&table.to_string());
    Some(out)
}

/// What the atlas says of a verdict's fast numbers, taken `at` these
/// settings, for `lab ab`: for each measure, how the decided gains and
/// losses of the atlas went with its sign; and the fit's prediction with
/// its 95% prediction interval, from the measures taken where the atlas's
/// were, when the atlas can say.
pub fn verdict_section(rows: &[Row], fast: &FastMeasures, at: &MeasuredAt, source: &Source) -> String {
    let fitted = MeasuredAt::fitted();
    let mut out = format!("{}\n\n", crate::verdicts::ab_sections::ATLAS);
    writeln!(
        out,
        "The atlas (`{}`) has {} variant(s) with games and fast measures: {}.\n",
        source.file,
        rows.len(),
        tally(rows).text()
    )
    .unwrap();
    let not_comparable = |measure: Measure| {
        format!("not comparable: measured at {}, the atlas's at {}", at.text(measure), fitted.text(measure))
    };
    for measure in Measure::ALL {
        let head = format!("- {} {}", measure.name(), measure.text(fast));
        let Some(points) = measure.points(fast) else {
            let why = if measure.value(fast).is_some() { "no change, nothing to compare" } else { "not measured" };
            writeln!(out, "{head}: {why}").unwrap();
            continue;
        };
        if !at.is_fitted(measure) {
            writeln!(out, "{head}: {}", not_comparable(measure)).unwrap();
            continue;
        }
        let direction = if points > 0 { "pointing to a gain" } else { "pointing to a loss" };
        let agreement = agreement(rows, measure);
        let (_, of) = agreement.agreed();
        let deed = measure.gain_deed();
        let text = if of < MIN_DECIDED {
            format!(
                "the atlas has {of} decided variant(s) whose {} moved: too few to say (at least {MIN_DECIDED})",
                measure.name()
            )
        } else {
            let (gain_did, gains) = agreement.gains;
            let (loss_did, losses) = agreement.losses;
            let losses_text = if losses == 0 {
                "it has no decided loss, so it cannot say what a loss looks like".to_string()
            } else {
                format!("of its {losses} decided losses, {loss_did} did")
            };
            format!("of the atlas's {gains} decided gains, {gain_did} {deed}; {losses_text}")
        };
        writeln!(out, "{head} ({direction}): {text}").unwrap();
    }
    let prediction = prediction_line(rows, fast, at, &source.games_at);
    writeln!(out, "{prediction}").unwrap();
    // More lines help where the atlas has too few for the fit; measures
    // taken elsewhere than the atlas's want measuring again, not games.
    let too_few = predictor(rows, &usable_measures(fast, at)).points < FIT_POINTS;
    if let (true, true, Some(command)) = (prediction.starts_with(NO_PREDICTION), too_few, &source.builds_it) {
        writeln!(
            out,
            "- to build its calibration: `{command}` plays each of the engine's variants against its parent \
             into `{}`, and keeps its fast measures beside",
            source.file
        )
        .unwrap();
    }
    out
}

/// How a verdict's line says it predicts nothing.
const NO_PREDICTION: &str = "- no prediction of Elo";

/// Rows a fit needs before the verdict predicts from it: enough to test
/// it by leave-one-out on the decided ones.
const FIT_POINTS: usize = MIN_DECIDED + 3;

/// The measures of `fast` taken where the atlas's were, which a fit may use.
fn usable_measures(fast: &FastMeasures, at: &MeasuredAt) -> Vec<Measure> {
    Measure::ALL.into_iter().filter(|measure| measure.value(fast).is_some() && at.is_fitted(*measure)).collect()
}

/// The prediction of Elo from the measures taken where the atlas's were,
/// with its prediction interval and its leave-one-out error beside the
/// constant model's; or why there is none.
fn prediction_line(rows: &[Row], fast: &FastMeasures, at: &MeasuredAt, games_at: &str) -> String {
    let measured: Vec<Measure> = Measure::ALL.into_iter().filter(|measure| measure.value(fast).is_some()).collect();
    let usable = usable_measures(fast, at);
    if usable.is_empty() {
        let elsewhere: Vec<String> =
            measured.iter().map(|measure| format!("{} measured at {}", measure.name(), at.text(*measure))).collect();
        return match elsewhere.is_empty() {
            true => format!("{NO_PREDICTION}: no fast measure"),
            false => format!(
                "{NO_PREDICTION}: not comparable: {}; the atlas's fit is on {} and {}",
                elsewhere.join(", "),
                MeasuredAt::fitted().text(Measure::Nodes),
                MeasuredAt::fitted().text(Measure::Wac)
            ),
        };
    }
    let fit = predictor(rows, &usable);
    let constant = predictor(rows, &[]);
    let needed = FIT_POINTS;
    let predicted = prediction(rows, &usable, fast);
    let (Some(predicted), Some(error), Some(constant_error), true) =
        (predicted, fit.loo_rmse, constant.loo_rmse, fit.points >= needed)
    else {
        return format!(
            "{NO_PREDICTION}: the atlas has {} variant(s) with {}, too few for a fit to be tested by \
             leave-one-out (at least {needed})",
            fit.points,
            predictor_name(&fit)
        );
    };
    let worth = if error < constant_error {
        "below the constant model's"
    } else {
        "no better than the constant model's: the prediction says nothing"
    };
    let left_out: Vec<&str> =
        measured.iter().filter(|measure| !usable.contains(measure)).map(|measure| measure.name()).collect();
    let left_out = match left_out.is_empty() {
        true => String::new(),
        false => format!(" ({} left out: not comparable)", left_out.join(", ")),
    };
    format!(
        "- the atlas's fit on {}{left_out} predicts {:+.1} Elo {games_at} (95% prediction interval: {:+.1} to \
         {:+.1}, {} variants); its leave-one-out error, {error:.1} Elo, is {worth} ({constant_error:.1})",
        predictor_name(&fit),
        predicted.value,
        predicted.low,
        predicted.high,
        fit.points
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdicts::atlas::entries::tests::entry;
    use crate::verdicts::atlas::entries::STOP_IDENTICAL;

    const WON: GamesSay = GamesSay::Gain;
    const LOST: GamesSay = GamesSay::Loss;

    /// A row whose games say `says`, with an interval of ±16 Elo and a
    /// p-value of 0.001 where they decide, 0.5 where they do not.
    fn row(variant: &str, elo: f64, says: GamesSay, nodes: f64, ttd: f64, wac: i64) -> Row {
        let p_value = Some(if says.is_decided() { 0.001 } else { 0.5 });
        Row {
            variant: variant.into(),
            parent: "parent".into(),
            elo,
            elo_interval: (elo - 16.0, elo + 16.0),
            games: Decision { says, p_value },
            fast: FastMeasures { node_change_pct: Some(nodes), ttd_ratio: Some(ttd), wac_change: Some(wac) },
        }
    }

    /// A constructed atlas of six variants.
    fn table() -> Vec<Row> {
        vec![
            row("a", 20.0, WON, -10.0, 0.90, 2),
            row("b", -15.0, LOST, -5.0, 1.10, 1),
            row("c", 5.0, GamesSay::Undecided, -2.0, 0.98, 0),
            row("d", 30.0, WON, -20.0, 0.80, -1),
            row("e", -25.0, LOST, 5.0, 1.20, -3),
            row("f", 10.0, WON, -8.0, 0.95, 4),
        ]
    }

    #[test]
    fn signs_are_counted_for_the_gains_and_the_losses_apart() {
        let rows = table();
        // Nodes: the gains a d f all searched fewer nodes; of the losses,
        // b did and e did not.
        let nodes = agreement(&rows, Measure::Nodes);
        assert_eq!(nodes, Agreement { gains: (3, 3), losses: (1, 2), no_gains: (0, 0) });
        assert_eq!(nodes.agreed(), (4, 5));
        assert_eq!(
            agreement(&rows, Measure::TimeToDepth),
            Agreement { gains: (3, 3), losses: (0, 2), no_gains: (0, 0) }
        );
        // WAC: a f gain and won, d loss and won; b gain and lost, e loss and lost.
        let wac = agreement(&rows, Measure::Wac);
        assert_eq!(wac, Agreement { gains: (2, 3), losses: (1, 2), no_gains: (0, 0) });
        assert_eq!(wac.agreed(), (3, 5));
        // An SPRT's "no gain" is counted apart, not with the losses.
        let mut with_no_gain = rows.clone();
        with_no_gain.push(row("g", -2.0, GamesSay::NoGain, -4.0, 0.97, 0));
        let ttd = agreement(&with_no_gain, Measure::TimeToDepth);
        assert_eq!(ttd, Agreement { gains: (3, 3), losses: (0, 2), no_gains: (1, 1) });
        assert_eq!(ttd.agreed(), (5, 5));
        let section = report_section(&with_no_gain).unwrap();
        assert!(section.contains("| g | parent | -4.0% | x0.970 | +0 | -2.0 | no gain |"), "{section}");
        assert!(section.contains("3 gain(s) and 2 loss(es); the 1 \"no gain\" result(s)"), "{section}");
        assert!(section.contains("Of the 7 variants, 6 decided (6 after Holm's correction over the 7 tested)."));
        // The shares' Clopper–Pearson intervals: 5 of 5 from 47.8%, 3 of 5
        // 14.7% to 94.7% (scipy, in calibration/proportion.rs).
        assert!(section.contains("| time-to-depth ratio | 3 of 3 | 0 of 2 | 5 of 5 | 100% (48–100%) | 1 of 1 |"));
        assert!(section.contains("| WAC change | 2 of 3 | 1 of 2 | 3 of 5 | 60% (15–95%) | 0 of 0 |"), "{section}");
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
        assert!(section.contains("| c | parent | -2.0% | x0.980 | +0 | +5.0 | undecided |"), "{section}");
        assert!(section.contains("| node change | 3 of 3 | 1 of 2 | 4 of 5 | 80% (28–99%) | 0 of 0 |"), "{section}");
        // Every row's Elo is ±16 (a variance of (16 / 1.96)² = 66.6): equal
        // weights, the ordinary fit above. The time-to-depth fit's residuals
        // are below the games' variance: no scatter left (τ 0); the constant
        // model's (Σ(y − ȳ)² / 5 = 434.2) leave τ = √(434.2 − 66.6) = 19.2.
        // Without e (x = +20, the largest leverage, 0.61) the error is 4.0;
        // with equal weights every point's leverage is 1/6 in the constant
        // model, and the first is named.
        assert!(section.contains("| time-to-depth ratio | 6 | +2.47 - 1.451·ttd% | 0.0 | 3.1 | e (0.61) | 4.0 |"));
        assert!(section.contains("| constant (the weighted mean Elo) | 6 | +4.17 | 19.2 | 22.8 | a (0.17) | 24.2 |"));
        assert_eq!(report_section(&[]), None);
    }

    #[test]
    fn the_verdict_says_how_gains_and_losses_went_or_that_the_atlas_is_too_small() {
        let mut rows = table();
        rows.push(row("g", 8.0, WON, -3.0, 1.02, 1));
        let fast = FastMeasures { node_change_pct: Some(-12.0), ttd_ratio: Some(0.97), wac_change: Some(0) };
        let fitted = MeasuredAt::fitted();
        let text = verdict_section(&rows, &fast, &fitted, &Source::prunelab());
        assert!(
            text.contains("7 variant(s) with games and fast measures: 6 decided (6 after Holm's correction over the 7")
        );
        assert!(
            text.contains(
                "- node change -12.0% (pointing to a gain): of the atlas's 4 decided gains, 4 searched fewer nodes; \
                 of its 2 decided losses, 1 did"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "- time-to-depth ratio x0.970 (pointing to a gain): of the atlas's 4 decided gains, 3 reached the \
                 depth faster; of its 2 decided losses, 0 did"
            ),
            "{text}"
        );
        assert!(text.contains("- WAC change +0: no change, nothing to compare"), "{text}");
        assert!(
            text.contains(
                "- no prediction of Elo: the atlas has 7 variant(s) with node change + time-to-depth ratio + WAC \
                 change, too few for a fit to be tested by leave-one-out (at least 8)"
            ),
            "{text}"
        );
        let unmeasured = FastMeasures { wac_change: None, ..fast };
        assert!(
            verdict_section(&rows, &unmeasured, &fitted, &Source::prunelab()).contains("- WAC change -: not measured")
        );
        let empty = verdict_section(&[], &fast, &fitted, &Source::prunelab());
        assert!(empty.contains("the atlas has 0 decided variant(s) whose node change moved: too few"), "{empty}");
        // Only gains decided: the atlas cannot say what a loss looks like.
        let gains: Vec<Row> = (0..5).map(|i| row(&format!("w{i}"), 10.0, WON, -5.0, 0.9, 1)).collect();
        let text = verdict_section(&gains, &fast, &fitted, &Source::prunelab());
        assert!(
            text.contains(
                "of the atlas's 5 decided gains, 5 reached the depth faster; it has no decided loss, so it cannot say \
                 what a loss looks like"
            ),
            "{text}"
        );
    }

    /// Eight variants with a time-to-depth ratio only, each of the same
    /// game variance v: the fit is ordinary least squares, and the verdict's
    /// prediction interval is the one-predictor textbook one for the
    /// variant's Elo, ŷ ± t(0.975, 6) · √(s²(1 + 1/n + (x − x̄)²/Sxx) − v)
    /// while the residuals' s² exceeds v (else `t · s · √(1/n + …)`),
    /// computed here apart from the fit's matrices (t(0.975, 6) = 2.4469,
    /// any table).
    #[test]
    fn the_verdict_predicts_with_a_prediction_interval_from_comparable_measures_only() {
        let mut rows = table();
        rows.push(row("g", 8.0, WON, -3.0, 1.02, 1));
        rows.push(row("h", -5.0, LOST, 1.0, 1.05, -2));
        let ttd_only = |ratio: f64| FastMeasures { node_change_pct: None, ttd_ratio: Some(ratio), wac_change: None };
        let fast = ttd_only(0.93);
        let xs: Vec<f64> = rows.iter().map(|row| (row.fast.ttd_ratio.unwrap() - 1.0) * 100.0).collect();
        let ys: Vec<f64> = rows.iter().map(|row| row.elo).collect();
        let n = xs.len() as f64;
        let (mx, my) = (xs.iter().sum::<f64>() / n, ys.iter().sum::<f64>() / n);
        let sxx: f64 = xs.iter().map(|x| (x - mx).powi(2)).sum();
        let slope = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum::<f64>() / sxx;
        let fitted_y = |x: f64| my + slope * (x - mx);
        let s2 = xs.iter().zip(&ys).map(|(x, y)| (y - fitted_y(*x)).powi(2)).sum::<f64>() / (n - 2.0);
        let x0 = -7.0;
        let variance = rows[0].elo_variance();
        let leverage = 1.0 / n + (x0 - mx).powi(2) / sxx;
        let half = match s2 > variance {
            true => 2.4469 * (s2 * (1.0 + leverage) - variance).sqrt(),
            false => 2.4469 * (s2 * leverage).sqrt(),
        };
        let predicted = prediction(&rows, &[Measure::TimeToDepth], &fast).unwrap();
        assert!((predicted.value - fitted_y(x0)).abs() < 1e-9);
        assert!((predicted.high - predicted.value - half).abs() < 1e-3, "{predicted:?} against ±{half}");
        let line = format!(
            "- the atlas's fit on time-to-depth ratio predicts {:+.1} Elo at fixed nodes (95% prediction interval: \
             {:+.1} to {:+.1}, 8 variants)",
            fitted_y(x0),
            fitted_y(x0) - half,
            fitted_y(x0) + half
        );
        let text = verdict_section(&rows, &fast, &MeasuredAt::fitted(), &Source::prunelab());
        assert!(text.contains(&line), "{text}\n{line}");
        assert!(text.contains("is below the constant model's"), "{text}");
        // WAC at 50,000 nodes is not the atlas's WAC: it is named, and the
        // prediction leaves it out.
        let all = FastMeasures { node_change_pct: Some(-12.0), ttd_ratio: Some(0.93), wac_change: Some(3) };
        let wac_elsewhere = MeasuredAt { tactics_nodes: 50_000, ..MeasuredAt::fitted() };
        let text = verdict_section(&rows, &all, &wac_elsewhere, &Source::prunelab());
        assert!(
            text.contains(
                "- WAC change +3: not comparable: measured at wac at nodes 50000, hash 16, the atlas's at wac at \
                 nodes 25000, hash 16"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "- the atlas's fit on node change + time-to-depth ratio (WAC change left out: not comparable)"
            ),
            "{text}"
        );
        // Nodes at depth 8 and WAC at 50,000: nothing to predict from.
        let elsewhere = MeasuredAt { depth: 8, ..wac_elsewhere };
        let text = verdict_section(&rows, &all, &elsewhere, &Source::prunelab());
        assert!(
            text.contains(
                "- no prediction of Elo: not comparable: node change measured at verdict at depth 8, hash 16, \
                 time-to-depth ratio measured at verdict at depth 8, hash 16, WAC change measured at wac at nodes \
                 50000, hash 16; the atlas's fit is on verdict at depth 10, hash 16 and wac at nodes 25000, hash 16"
            ),
            "{text}"
        );
    }

    #[test]
    fn rows_take_games_and_the_measures_taken_where_the_atlas_s_were() {
        let won = entry("a", (60, 20, 20), [2, 8, 20, 12, 8]);
        let identical = AtlasEntry { stop: STOP_IDENTICAL.into(), games: 0, ..entry("same", (0, 0, 0), [0; 5]) };
        let measures = FastMeasures { node_change_pct: Some(-5.0), ttd_ratio: Some(0.9), wac_change: Some(2) };
        let pair = |variant: &str, measured_at: Option<MeasuredAt>| MeasuredPair {
            variant: variant.into(),
            parent: "parent".into(),
            fast: measures,
            measured_at,
            searches: None,
        };
        let at_50000 = MeasuredAt { tactics_nodes: 50_000, ..MeasuredAt::fitted() };
        let rows =
            rows(&[won.clone(), identical], &[pair("a", Some(at_50000)), pair("same", Some(MeasuredAt::fitted()))]);
        // The identical pair played no game: no row. a's WAC at 50,000
        // nodes is left out.
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0].fast, FastMeasures { wac_change: None, ..measures });
        assert_eq!(rows[0].games.says, WON);
        // A local run that does not say where it measured gives nothing.
        assert!(super::rows(&[won], &[pair("a", None)]).is_empty());
    }
}
