//! One variant against another over a suite's positions, as one number
//! with its uncertainty: the geometric mean of the per-position ratios
//! (B's nodes over A's, B's time over A's) and a 95% interval.
//!
//! Why the geometric mean: a position where B searches twice the nodes and
//! one where it searches half cancel out, whatever their sizes, so a few
//! large searches do not decide the result as they do in a total.
//!
//! A node ratio's interval (`paired_ratio`) is Student's t on the
//! logarithms of the per-position ratios, `exp(m ± t(0.975, n − 1) · s /
//! √n)`, at every count of positions: the positions are a sample of the
//! positions that matter, and the interval says how far the mean would move
//! with another sample of the same size. A percentile bootstrap over the
//! positions, as this was before, measures the spread as if the sample were
//! large: simulated on the spread of the snapshots' own per-position ratios
//! (`snapshots/`, each variant against its parent), it covered 88% at the 8
//! positions a claim needs and 94% at 54, where the t interval covers 95–96%
//! at 8, 10, 20 and 54 (the test below; docs/verdicts.md, "Node change").
//! Neither covers 95% for a technique that changes a few positions and
//! leaves the rest alone: the mean of 8 is then mostly whether the sample
//! holds one of the few.
//!
//! A time is measured more than once per position, in rounds, and a round's
//! engine processes are its own: how a process happens to lie in memory
//! makes it a little faster or slower for the whole round, on every
//! position alike. So a time ratio's interval (`crossed_ratio`) is a
//! bootstrap that resamples the rounds as well as the positions, each
//! independently (the random draws from a ChaCha8 generator with a fixed
//! seed, so the same measurements always give the same interval); measured
//! against the same binary under two paths, an interval over positions alone
//! excluded 1 in about a third of the runs (docs/lab/ttd.md, "Coverage").

use games::statistics::student_t_quantile;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Resamples of the positions; more changes the interval's last digit only.
pub const BOOTSTRAP_RESAMPLES: usize = 4000;
/// The generator's seed: fixed, so an interval is reproducible.
pub const BOOTSTRAP_SEED: u64 = 0x5eed_2024;
/// The interval's coverage.
const LOWER_QUANTILE: f64 = 0.025;
const UPPER_QUANTILE: f64 = 0.975;

/// A ratio of B to A over positions: the geometric mean of the per-position
/// ratios and its 95% bootstrap interval (none with fewer than two).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatioEstimate {
    pub ratio: f64,
    pub interval: Option<(f64, f64)>,
    /// How many positions it is over.
    pub positions: usize,
}

impl RatioEstimate {
    /// The ratio as a change in percent: 0.97 is -3%.
    pub fn percent(&self) -> f64 {
        (self.ratio - 1.0) * 100.0
    }

    /// The interval as changes in percent.
    pub fn percent_interval(&self) -> Option<(f64, f64)> {
        self.interval.map(|(low, high)| ((low - 1.0) * 100.0, (high - 1.0) * 100.0))
    }

    /// `-2.3% (95%: -3.1% to -1.5%, 54 positions)`.
    pub fn percent_text(&self) -> String {
        let point = signed_percent(self.percent());
        match self.percent_interval() {
            Some((low, high)) => format!(
                "{point} (95%: {} to {}, {} positions)",
                signed_percent(low),
                signed_percent(high),
                self.positions
            ),
            None => format!("{point} ({} position, no interval)", self.positions),
        }
    }

    /// `x0.973 (95%: 0.951 to 0.996, 54 positions)`.
    pub fn ratio_text(&self) -> String {
        self.ratio_text_over("position")
    }

    /// The ratio over pairs that are not positions, named by `unit`:
    /// `x1.012 (95%: 0.998 to 1.031, 9 rounds)` for `lab speed`.
    pub fn ratio_text_over(&self, unit: &str) -> String {
        match self.interval {
            Some((low, high)) => {
                format!("x{:.3} (95%: {low:.3} to {high:.3}, {} {unit}s)", self.ratio, self.positions)
            }
            None => format!("x{:.3} ({} {unit}, no interval)", self.ratio, self.positions),
        }
    }
}

/// `-2.3%`, and `+0.0%` rather than `-0.0%` for what rounds to zero.
pub fn signed_percent(value: f64) -> String {
    let shown = if value.abs() < 0.05 { 0.0 } else { value };
    format!("{shown:+.1}%")
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

/// The value at quantile `q` of sorted `values`, the nearest rank of
/// `q (n - 1)`.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let rank = (q * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

/// The 95% percentile-bootstrap interval of the mean of `values` (4000
/// resamples of as many values, with replacement, a fixed seed): for many
/// values (games), not a handful.
pub fn bootstrap_interval_of_mean(values: &[f64]) -> (f64, f64) {
    let mut rng = ChaCha8Rng::seed_from_u64(BOOTSTRAP_SEED);
    let mut means: Vec<f64> = (0..BOOTSTRAP_RESAMPLES)
        .map(|_| {
            let sum: f64 = (0..values.len()).map(|_| values[rng.gen_range(0..values.len())]).sum();
            sum / values.len() as f64
        })
        .collect();
    means.sort_by(f64::total_cmp);
    (quantile(&means, LOWER_QUANTILE), quantile(&means, UPPER_QUANTILE))
}

/// The geometric mean ratio of B's values to A's, position by position,
/// with its Student's t interval ([`student_ratio`]); a pair with a 0 on
/// either side has no ratio to average and is left out.
pub fn paired_ratio(pairs: impl IntoIterator<Item = (f64, f64)>) -> Option<RatioEstimate> {
    student_ratio(pairs.into_iter().filter(|(a, _)| *a > 0.0).map(|(a, b)| b / a))
}

/// The geometric mean ratio over a table of positions by rounds (`cells[p][r]`,
/// B's over A's; `None` where that search failed), with a 95% bootstrap
/// interval that resamples positions and rounds independently: each
/// resample draws as many positions and as many rounds as there are, with
/// replacement, and takes the mean logarithm over the cells where the drawn
/// positions and rounds cross. The ratio is the mean logarithm over every
/// cell. `positions` counts the positions with a ratio; the interval needs
/// two of them. `None` without a positive, finite ratio.
pub fn crossed_ratio(cells: &[Vec<Option<f64>>]) -> Option<RatioEstimate> {
    let logs: Vec<Vec<Option<f64>>> = cells
        .iter()
        .map(|row| row.iter().map(|ratio| ratio.filter(|r| r.is_finite() && *r > 0.0).map(f64::ln)).collect())
        .filter(|row: &Vec<Option<f64>>| row.iter().any(Option::is_some))
        .collect();
    let every: Vec<f64> = logs.iter().flatten().flatten().copied().collect();
    if every.is_empty() {
        return None;
    }
    let rounds = logs.iter().map(Vec::len).max().unwrap_or(0);
    let interval = (logs.len() >= 2).then(|| {
        let mut rng = ChaCha8Rng::seed_from_u64(BOOTSTRAP_SEED);
        let mut means: Vec<f64> = Vec::with_capacity(BOOTSTRAP_RESAMPLES);
        while means.len() < BOOTSTRAP_RESAMPLES {
            let drawn_rounds: Vec<usize> = (0..rounds).map(|_| rng.gen_range(0..rounds)).collect();
            let (mut sum, mut count) = (0.0, 0usize);
            for _ in 0..logs.len() {
                let row = &logs[rng.gen_range(0..logs.len())];
                for log in drawn_rounds.iter().filter_map(|&round| row.get(round).copied().flatten()) {
                    sum += log;
                    count += 1;
                }
            }
            // A draw of only failed cells has no mean; draw again.
            if count > 0 {
                means.push(sum / count as f64);
            }
        }
        means.sort_by(f64::total_cmp);
        (quantile(&means, LOWER_QUANTILE).exp(), quantile(&means, UPPER_QUANTILE).exp())
    });
    Some(RatioEstimate { ratio: mean(&every).exp(), interval, positions: logs.len() })
}

/// The geometric mean of `ratios` with a 95% Student-t interval of the mean
/// logarithm (none with fewer than two); `None` without a positive, finite
/// ratio. Those that are not have no logarithm and are left out silently:
/// a caller whose counts may be 0 on one side (scoped node counts) leaves
/// them out itself and says how many. For a few independent pairs a
/// bootstrap of n draws is too narrow: it measured the spread as if n were
/// large (over positions, the module's head; over `lab speed`'s rounds, it
/// excluded 1 in 6 of 30 A/A runs of 9 rounds; docs/lab/speed.md,
/// "Coverage").
pub fn student_ratio(ratios: impl IntoIterator<Item = f64>) -> Option<RatioEstimate> {
    let logs: Vec<f64> = ratios.into_iter().filter(|ratio| ratio.is_finite() && *ratio > 0.0).map(f64::ln).collect();
    if logs.is_empty() {
        return None;
    }
    let centre = mean(&logs);
    let interval = (logs.len() >= 2).then(|| {
        let variance = logs.iter().map(|log| (log - centre).powi(2)).sum::<f64>() / (logs.len() - 1) as f64;
        let half = student_t_quantile(logs.len() as u64 - 1) * (variance / logs.len() as f64).sqrt();
        ((centre - half).exp(), (centre + half).exp())
    });
    Some(RatioEstimate { ratio: centre.exp(), interval, positions: logs.len() })
}

/// The median of `values` (the mean of the middle two for an even count).
pub fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let middle = sorted.len() / 2;
    Some(if sorted.len().is_multiple_of(2) { (sorted[middle - 1] + sorted[middle]) / 2.0 } else { sorted[middle] })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn the_geometric_mean_cancels_a_doubling_and_a_halving() {
        let estimate = paired_ratio([(100.0, 200.0), (400.0, 200.0)]).unwrap();
        assert!(close(estimate.ratio, 1.0), "{estimate:?}");
        assert_eq!(estimate.positions, 2);
        // Two positions: t(0.975, 1) = 12.706, the interval exp(±12.706 ·
        // ln 2) (scipy: 1.4964122107e-4 to 6.6826506285e3).
        let (low, high) = estimate.interval.unwrap();
        assert!((low / 1.496_412_210_7e-4 - 1.0).abs() < 1e-8, "{estimate:?}");
        assert!((high / 6.682_650_628_5e3 - 1.0).abs() < 1e-8, "{estimate:?}");
    }

    #[test]
    fn the_same_ratio_everywhere_has_no_spread() {
        let estimate = paired_ratio((1..=30).map(|nodes| (nodes as f64 * 10.0, nodes as f64 * 9.0))).unwrap();
        assert!(close(estimate.ratio, 0.9));
        let (low, high) = estimate.interval.unwrap();
        assert!(close(low, 0.9) && close(high, 0.9));
        assert!(close(estimate.percent(), -10.0));
    }

    #[test]
    fn the_node_ratios_interval_is_students_t_on_the_logarithms() {
        // Ratios 0.80, 0.81, ..., 1.19: a spread like a node change's.
        // scipy 1.17: exp(m ± t.ppf(0.975, 39) · s / √40) of their
        // logarithms is 0.9882444218 (0.9514562336 to 1.0264550305).
        let ratios = (0..40).map(|step| 0.8 + step as f64 / 100.0);
        let estimate = paired_ratio(ratios.map(|ratio| (1000.0, 1000.0 * ratio))).unwrap();
        let (low, high) = estimate.interval.unwrap();
        assert!((estimate.ratio - 0.988_244_421_8).abs() < 1e-9, "{estimate:?}");
        assert!((low - 0.951_456_233_6).abs() < 1e-9 && (high - 1.026_455_030_5).abs() < 1e-9, "{estimate:?}");
        assert_eq!(estimate.percent_text(), "-1.2% (95%: -4.9% to +2.6%, 40 positions)");
    }

    #[test]
    fn the_crossed_bootstrap_resamples_rounds_as_well_as_positions() {
        // Every position 10% slower in round 0 and 10% faster in round 1: a
        // round's processes, not the positions. Over positions alone each
        // position's mean is 1 and the interval would be 1 to 1; resampling
        // the rounds, a resample of round 0 twice gives 1.1, of round 1
        // twice 1/1.1, each a quarter of the time.
        let (slow, fast) = (1.1, 1.0 / 1.1);
        let cells: Vec<Vec<Option<f64>>> = (0..10).map(|_| vec![Some(slow), Some(fast)]).collect();
        let estimate = crossed_ratio(&cells).unwrap();
        assert!(close(estimate.ratio, 1.0), "{estimate:?}");
        let (low, high) = estimate.interval.unwrap();
        assert!(close(low, fast) && close(high, slow), "{estimate:?}");
        assert_eq!(estimate.positions, 10);
        // One round: the positions' bootstrap, as `bootstrap_interval_of_mean` draws it.
        let ratios: Vec<f64> = (0..40).map(|step| 0.8 + step as f64 / 100.0).collect();
        let one_round: Vec<Vec<Option<f64>>> = ratios.iter().map(|&ratio| vec![Some(ratio)]).collect();
        let crossed = crossed_ratio(&one_round).unwrap();
        let logs: Vec<f64> = ratios.iter().map(|ratio| ratio.ln()).collect();
        assert!(close(crossed.ratio, mean(&logs).exp()));
        let ((low, high), (low_p, high_p)) = (crossed.interval.unwrap(), bootstrap_interval_of_mean(&logs));
        assert!((low - low_p.exp()).abs() < 0.01 && (high - high_p.exp()).abs() < 0.01, "{crossed:?}");
        // A failed search is left out; a position with no ratio is not counted.
        let gaps = vec![vec![Some(2.0), None], vec![None, None], vec![Some(2.0), Some(2.0)]];
        let estimate = crossed_ratio(&gaps).unwrap();
        let (low, high) = estimate.interval.unwrap();
        assert!(close(estimate.ratio, 2.0) && close(low, 2.0) && close(high, 2.0), "{estimate:?}");
        assert_eq!(estimate.positions, 2);
        assert_eq!(crossed_ratio(&[vec![None, Some(0.0)]]), None);
        assert_eq!(crossed_ratio(&[vec![Some(1.5), Some(1.5)]]).unwrap().interval, None);
    }

    #[test]
    fn the_student_interval_widens_with_few_pairs() {
        // ln 1.1, ln 1.2, ln 0.9: mean m, standard deviation s; the interval
        // is exp(m ± 4.302653 s / sqrt 3), computed apart.
        let estimate = student_ratio([1.1, 1.2, 0.9]).unwrap();
        assert!((estimate.ratio - 1.059_104_5).abs() < 1e-7, "{estimate:?}");
        let (low, high) = estimate.interval.unwrap();
        assert!((low - 0.734_125_5).abs() < 1e-6 && (high - 1.527_943_5).abs() < 1e-6, "{estimate:?}");
        assert_eq!(student_ratio([1.3]).unwrap().interval, None);
        assert_eq!(student_ratio([0.0]), None);
    }

    #[test]
    fn empty_and_degenerate_inputs() {
        assert_eq!(paired_ratio([(0.0, 5.0)]), None);
        assert_eq!(student_ratio([f64::NAN, -1.0, 0.0]), None);
        let one = paired_ratio([(10.0, 12.0)]).unwrap();
        assert_eq!(one.interval, None);
        assert_eq!(one.ratio_text(), "x1.200 (1 position, no interval)");
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(&[]), None);
        assert_eq!(
            (signed_percent(-0.04), signed_percent(-0.05), signed_percent(2.26)),
            ("+0.0%".into(), "-0.1%".into(), "+2.3%".into())
        );
    }

    /// Every variant's per-position logarithms of its node ratio against its
    /// parent, from the repository's snapshots (`snapshots/*.snap`, 24
    /// positions at depth 10; the parent is the variant file's `extends`).
    fn snapshot_log_ratios() -> Vec<Vec<f64>> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let nodes = |variant: &str| -> Option<Vec<(String, f64)>> {
            let text = std::fs::read_to_string(root.join("snapshots").join(format!("{variant}.snap"))).ok()?;
            let rows = text.lines().filter_map(|line| {
                let mut cells = line.split('|').map(str::trim);
                let position = cells.next().filter(|position| position.contains('.'))?;
                Some((position.to_string(), cells.next()?.parse::<f64>().ok()?))
            });
            Some(rows.collect())
        };
        let mut pairs = Vec::new();
        for file in std::fs::read_dir(root.join("variants")).unwrap() {
            let path = file.unwrap().path();
            let Ok(table) = toml::from_str::<toml::Table>(&std::fs::read_to_string(&path).unwrap_or_default()) else {
                continue;
            };
            let (Some(name), Some(parent)) = (table["name"].as_str(), table.get("extends").and_then(|e| e.as_str()))
            else {
                continue;
            };
            let (Some(own), Some(parents)) = (nodes(name), nodes(parent)) else { continue };
            let logs = own.iter().filter_map(|(position, count)| {
                let (_, base) = parents.iter().find(|(at, _)| at == position)?;
                (*base > 0.0 && *count > 0.0).then(|| (count / base).ln())
            });
            pairs.push(logs.collect());
        }
        pairs
    }

    /// The coverage of the node ratio's interval, simulated: positions are
    /// drawn from the snapshots' own spread of per-position log ratios
    /// (each variant's against its parent, centred on its mean and scaled to
    /// its standard deviation, the pairs whose ratios vary by 1% or more
    /// pooled: 60 pairs, 1440 positions), scaled to their median spread
    /// (0.21) around a known node change of x0.905, and the interval of each
    /// draw is checked to hold it. 10,000 draws at each count: the share's
    /// standard error is 0.2%. Measured this way in numpy/scipy too (20,000
    /// draws): t covered 96.3%, 96.2%, 95.6% and 95.2% at 8, 10, 20 and 54
    /// positions, the percentile bootstrap this was before 87.6%, 88.2%,
    /// 90.7% and 93.8%.
    #[test]
    fn the_node_ratios_interval_covers_95_percent_at_8_to_54_positions() {
        let pairs = snapshot_log_ratios();
        assert!(pairs.len() >= 60, "{} pairs", pairs.len());
        let mut pool: Vec<f64> = Vec::new();
        for logs in pairs.iter().filter(|logs| logs.len() >= 8) {
            let centre = mean(logs);
            let deviation = (logs.iter().map(|log| (log - centre).powi(2)).sum::<f64>() / logs.len() as f64).sqrt();
            if deviation >= 0.01 {
                pool.extend(logs.iter().map(|log| (log - centre) / deviation));
            }
        }
        assert_eq!(pool.len(), 1440);
        let (change, spread) = ((-0.1f64), 0.21);
        let truth = change.exp();
        let mut rng = ChaCha8Rng::seed_from_u64(BOOTSTRAP_SEED);
        let draws = 10_000;
        let coverage: Vec<(usize, f64)> = [8, 10, 20, 54]
            .into_iter()
            .map(|positions| {
                let covered = (0..draws)
                    .filter(|_| {
                        let pairs = (0..positions).map(|_| {
                            let log = change + spread * pool[rng.gen_range(0..pool.len())];
                            (1000.0, 1000.0 * log.exp())
                        });
                        let (low, high) = paired_ratio(pairs).unwrap().interval.unwrap();
                        low <= truth && truth <= high
                    })
                    .count();
                (positions, covered as f64 / draws as f64)
            })
            .collect();
        for (positions, share) in &coverage {
            assert!((0.93..=0.97).contains(share), "{positions} positions: {share} (all: {coverage:?})");
        }
    }
}
