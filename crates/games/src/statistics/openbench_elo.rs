//! Elo and its 95% interval as OpenBench computes them (`Elo` in
//! `OpenBench/stats.py`, commit 9906bad), so an OpenBench test's page and
//! the lab can be read side by side.
//!
//! It differs from the lab's own interval ([`super::elo_penta`]) in two
//! ways: the score's interval uses Student's t quantile with `pairs - 1`
//! degrees of freedom instead of the normal one (wider for few pairs), and
//! the test page prints the longer of the interval's two sides as its "±"
//! (`max(upper - elo, elo - lower)`), where the lab prints half the width.
//! Empty bins are not regularized; fewer than two pairs give no estimate.

use super::elo::Estimate;
use super::outcomes::Pentanomial;
use super::sample::mean_and_variance;

/// OpenBench's two-sided 95% level.
const LEVEL: f64 = 0.95;

/// Logistic Elo of the pairs' mean score and OpenBench's 95% interval,
/// or `None` below two pairs (OpenBench shows zeros there).
pub fn openbench_elo_penta(penta: &Pentanomial) -> Option<Estimate> {
    let pairs = penta.pairs();
    if pairs < 2 {
        return None;
    }
    let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
    let frequencies: Vec<f64> = penta.0.iter().map(|&count| count as f64 / pairs as f64).collect();
    let (mean, variance) = mean_and_variance(&scores, &frequencies);
    let half_width = student_t_quantile(pairs - 1) * (variance / pairs as f64).sqrt();
    Some(Estimate {
        value: logistic_elo(mean),
        low: logistic_elo(mean - half_width),
        high: logistic_elo(mean + half_width),
    })
}

/// The "±" OpenBench's test page prints: the longer side of the interval.
pub fn openbench_error(estimate: &Estimate) -> f64 {
    (estimate.high - estimate.value).max(estimate.value - estimate.low)
}

/// OpenBench's `logistic_elo`: the score clamped to [0.001, 0.999].
fn logistic_elo(score: f64) -> f64 {
    let score = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / score - 1.0).log10()
}

/// `t` such that a Student's t variable with `degrees` degrees of freedom
/// lies within ±t with probability [`LEVEL`] (scipy's `t.ppf(0.975, df)`),
/// by bisection on the exact distribution function.
pub fn student_t_quantile(degrees: u64) -> f64 {
    let mut high = 1.0;
    while within(high, degrees) < LEVEL {
        high *= 2.0;
    }
    let mut low = 0.0;
    for _ in 0..100 {
        let middle = (low + high) / 2.0;
        if within(middle, degrees) < LEVEL {
            low = middle;
        } else {
            high = middle;
        }
    }
    (low + high) / 2.0
}

/// `P(|T| <= t)` for Student's t with a whole number of degrees of freedom:
/// the finite series of Abramowitz and Stegun 26.7.3 (odd) and 26.7.4
/// (even), in `theta = atan(t / sqrt(degrees))`.
fn within(t: f64, degrees: u64) -> f64 {
    let theta = (t / (degrees as f64).sqrt()).atan();
    let (sin, cos) = theta.sin_cos();
    let cos_squared = cos * cos;
    if degrees % 2 == 1 {
        // θ + sinθ (cosθ + 2/3 cos³θ + ... + (2·4···(ν-3))/(1·3···(ν-2)) cos^(ν-2)θ)
        let mut term = cos;
        let mut sum = 0.0;
        for k in 0..(degrees - 1) / 2 {
            if k > 0 {
                term *= cos_squared * (2 * k) as f64 / (2 * k + 1) as f64;
            }
            sum += term;
        }
        2.0 / std::f64::consts::PI * (theta + sin * sum)
    } else {
        // sinθ (1 + 1/2 cos²θ + ... + (1·3···(ν-3))/(2·4···(ν-2)) cos^(ν-2)θ)
        let mut term = 1.0;
        let mut sum = 0.0;
        for k in 0..degrees / 2 {
            if k > 0 {
                term *= cos_squared * (2 * k - 1) as f64 / (2 * k) as f64;
            }
            sum += term;
        }
        sin * sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statistics::elo_penta;
    use crate::statistics::test_support::*;

    // Published: Student's t two-sided 95% quantiles (any statistics
    // table; scipy's t.ppf(0.975, df)).
    #[test]
    fn student_t_quantiles_are_the_tables() {
        for (degrees, quantile) in [(1, 12.7062), (2, 4.3027), (3, 3.1824), (12, 2.1788), (30, 2.0423), (1000, 1.9623)]
        {
            assert_close(student_t_quantile(degrees), quantile, 5e-5, &format!("t(0.975, {degrees})"));
        }
    }

    /// Issue 34's test, W7 L5 D14 in the pairs [0, 2, 8, 2, 1]: OpenBench's
    /// page showed ±84.3 where the lab's interval is ±74.2.
    #[test]
    fn openbench_shows_the_longer_side_of_a_t_interval() {
        let pairs = penta([0, 2, 8, 2, 1]);
        let openbench = openbench_elo_penta(&pairs).unwrap();
        assert_eq!(format!("{:.2} ± {:.2}", openbench.value, openbench_error(&openbench)), "26.78 ± 84.34");
        let lab = elo_penta(&pairs);
        assert_eq!(format!("{:.1} ± {:.1}", lab.value, lab.error()), "26.8 ± 74.2");
        assert_eq!(openbench_elo_penta(&penta([0, 0, 1, 0, 0])), None);
        assert_eq!(openbench_elo_penta(&penta([0, 0, 0, 0, 0])), None);
    }
}
