//! One variant against another over a suite's positions, as one number
//! with its uncertainty: the geometric mean of the per-position ratios
//! (B's nodes over A's, B's time over A's) and a 95% bootstrap interval.
//!
//! Why the geometric mean: a position where B searches twice the nodes and
//! one where it searches half cancel out, whatever their sizes, so a few
//! large searches do not decide the result as they do in a total. Why a
//! bootstrap: the positions are a sample of the positions that matter, so
//! the interval says how much the mean would move with another sample of
//! the same size. It resamples the positions (with replacement, as many as
//! there are) `BOOTSTRAP_RESAMPLES` times, takes each resample's geometric
//! mean, and reads the 2.5th and 97.5th percentiles. The random draws come
//! from a ChaCha8 generator with a fixed seed, so the same measurements
//! always give the same interval.
//!
//! A time is measured more than once per position, in rounds, and a round's
//! engine processes are its own: how a process happens to lie in memory
//! makes it a little faster or slower for the whole round, on every
//! position alike. So a time ratio's interval (`crossed_ratio`) resamples
//! the rounds as well as the positions, each independently; measured
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

/// The 95% percentile-bootstrap interval of the mean of `values`.
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

/// The geometric mean of `ratios` with its bootstrap interval; `None`
/// without a positive, finite ratio. Those that are not have no logarithm
/// and are left out silently: a caller whose counts may be 0 on one side
/// (scoped node counts) leaves them out itself and says how many.
pub fn geometric_mean_ratio(ratios: impl IntoIterator<Item = f64>) -> Option<RatioEstimate> {
    let logs: Vec<f64> = ratios.into_iter().filter(|ratio| ratio.is_finite() && *ratio > 0.0).map(f64::ln).collect();
    if logs.is_empty() {
        return None;
    }
    let interval = (logs.len() >= 2).then(|| {
        let (low, high) = bootstrap_interval_of_mean(&logs);
        (low.exp(), high.exp())
    });
    Some(RatioEstimate { ratio: mean(&logs).exp(), interval, positions: logs.len() })
}

/// The geometric mean ratio of B's values to A's, position by position; a
/// pair with a 0 on either side has no ratio to average and is left out.
pub fn paired_ratio(pairs: impl IntoIterator<Item = (f64, f64)>) -> Option<RatioEstimate> {
    geometric_mean_ratio(pairs.into_iter().filter(|(a, _)| *a > 0.0).map(|(a, b)| b / a))
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
/// logarithm (none with fewer than two): for a few independent pairs, such
/// as `lab speed`'s rounds, where a bootstrap of n draws is too narrow (it
/// measured the spread as if n were large, and excluded 1 in 6 of 30 A/A runs
/// of 9 rounds; docs/lab/speed.md, "Coverage").
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
        // Every resample is (2), (1/2) or both: means 2, 1/2 or 1.
        let (low, high) = estimate.interval.unwrap();
        assert!(close(low, 0.5) && close(high, 2.0), "{estimate:?}");
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
    fn the_interval_is_reproducible_and_pinned() {
        // Ratios 0.80, 0.81, ..., 1.19: a spread like a node change's.
        let ratios: Vec<f64> = (0..40).map(|step| 0.8 + step as f64 / 100.0).collect();
        let estimate = geometric_mean_ratio(ratios.clone()).unwrap();
        assert_eq!(estimate, geometric_mean_ratio(ratios).unwrap());
        // exp(mean(ln r)) of 0.80..1.19, computed independently.
        assert!((estimate.ratio - 0.988_244_4).abs() < 5e-7, "{estimate:?}");
        let (low, high) = estimate.interval.unwrap();
        // The seeded bootstrap's percentiles (a bootstrap with another
        // generator gives 0.953 to 1.025); a change of seed, resample count
        // or quantile rule moves them.
        assert_eq!((format!("{low:.4}"), format!("{high:.4}")), ("0.9522".to_string(), "1.0242".to_string()));
        assert_eq!(estimate.percent_text(), "-1.2% (95%: -4.8% to +2.4%, 40 positions)");
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
        // One round: the positions' bootstrap, as `geometric_mean_ratio` draws it.
        let ratios: Vec<f64> = (0..40).map(|step| 0.8 + step as f64 / 100.0).collect();
        let one_round: Vec<Vec<Option<f64>>> = ratios.iter().map(|&ratio| vec![Some(ratio)]).collect();
        let crossed = crossed_ratio(&one_round).unwrap();
        let over_positions = geometric_mean_ratio(ratios).unwrap();
        assert!(close(crossed.ratio, over_positions.ratio));
        let ((low, high), (low_p, high_p)) = (crossed.interval.unwrap(), over_positions.interval.unwrap());
        assert!((low - low_p).abs() < 0.01 && (high - high_p).abs() < 0.01, "{crossed:?} {over_positions:?}");
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
        assert_eq!(geometric_mean_ratio([f64::NAN, -1.0, 0.0]), None);
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
}
