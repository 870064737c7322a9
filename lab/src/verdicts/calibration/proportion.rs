//! A share of successes with its exact (Clopper–Pearson) 95% interval: the
//! interval of the binomial's success probability that inverts the two
//! one-sided binomial tests at 2.5% each, so it covers at least 95% at any
//! count and probability (the sign agreement of a handful of decided
//! results is where a normal approximation fails).

/// The two-sided level's tail on each side.
const TAIL: f64 = 0.025;

/// The Clopper–Pearson 95% interval of a success probability from
/// `successes` of `trials`; `None` without a trial. The lower end is the
/// probability at which `P(X ≥ successes) = 2.5%` (0 with no success), the
/// upper the one at which `P(X ≤ successes) = 2.5%` (1 when all succeed).
pub fn clopper_pearson(successes: usize, trials: usize) -> Option<(f64, f64)> {
    if trials == 0 || successes > trials {
        return None;
    }
    let low = match successes {
        0 => 0.0,
        _ => solve(|p| 1.0 - binomial_cdf(successes - 1, trials, p) - TAIL),
    };
    let high = match successes {
        _ if successes == trials => 1.0,
        _ => solve(|p| TAIL - binomial_cdf(successes, trials, p)),
    };
    Some((low, high))
}

/// `P(X ≤ k)` for `X ~ Binomial(n, p)`, the terms built from the first by
/// their ratio `(n − i) / (i + 1) · p / (1 − p)` in logarithms.
fn binomial_cdf(k: usize, n: usize, p: f64) -> f64 {
    if p <= 0.0 {
        return 1.0;
    }
    if p >= 1.0 {
        return if k >= n { 1.0 } else { 0.0 };
    }
    let (log_p, log_q) = (p.ln(), (1.0 - p).ln());
    let mut log_term = n as f64 * log_q;
    let mut sum = log_term.exp();
    for i in 0..k.min(n) {
        log_term += ((n - i) as f64 / (i + 1) as f64).ln() + log_p - log_q;
        sum += log_term.exp();
    }
    sum.min(1.0)
}

/// The root in (0, 1) of `f`, increasing in `p`, by bisection.
fn solve(f: impl Fn(f64) -> f64) -> f64 {
    let (mut low, mut high) = (0.0, 1.0);
    for _ in 0..100 {
        let middle = (low + high) / 2.0;
        if f(middle) < 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    (low + high) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// scipy 1.17.1, `beta.ppf(0.025, k, n - k + 1)` and `beta.ppf(0.975,
    /// k + 1, n - k)` (the Clopper–Pearson ends as beta quantiles, an
    /// independent route to them), agreeing with statsmodels 0.14's
    /// `proportion_confint(k, n, method="beta")`.
    #[test]
    fn the_interval_is_clopper_pearsons() {
        let published = [
            ((5, 5), (0.478_176_249_9, 1.0)),
            ((3, 5), (0.146_632_799_6, 0.947_255_049_5)),
            ((10, 11), (0.587_220_083_0, 0.997_701_027_8)),
            ((0, 4), (0.0, 0.602_364_635_6)),
            ((1, 1), (0.025, 1.0)),
            ((6, 11), (0.233_793_597_7, 0.832_511_905_9)),
            ((20, 31), (0.453_695_602_0, 0.807_732_565_6)),
            ((0, 1), (0.0, 0.975)),
        ];
        for ((successes, trials), (low, high)) in published {
            let (ours_low, ours_high) = clopper_pearson(successes, trials).unwrap();
            assert!((ours_low - low).abs() < 1e-9 && (ours_high - high).abs() < 1e-9, "{successes}/{trials}");
        }
        // No trial, no interval.
        assert_eq!(clopper_pearson(0, 0), None);
        assert_eq!(clopper_pearson(3, 2), None);
    }
}
