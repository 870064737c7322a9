//! How far an SPRT still has to go: about how many more samples (pairs, or
//! games for single games) it needs to reach a bound from where its LLR
//! stands, if the sample's own distribution were the truth.
//!
//! The LLR is close to a Brownian motion with a drift and a variance per
//! sample (fishtest's `LLR_drift_variance_alt2`, GSPRT_approximation.pdf);
//! the expected time such a motion takes to leave `(lower, upper)` from
//! `llr` is Wald's, with the overshoot left out.

use super::super::elo::{logistic_score, Model, NELO_PER_T_VALUE};
use super::super::sample::{mean_and_variance, GamesPerSample, Sample};
use super::{SprtSettings, SprtStatus};

/// The LLR's drift and variance per sample: `((s - (s0 + s1)/2)(s1 - s0)/v,
/// (s1 - s0)²/v)`, with `s` and `v` the sample's mean score and variance
/// and `s0`, `s1` the hypotheses' scores (normalized Elo as a score through
/// the sample's own standard deviation per game).
pub(super) fn drift_and_variance(counts: &[u64], settings: &SprtSettings) -> Option<(f64, f64)> {
    if counts.iter().all(|&count| count == 0) {
        return None;
    }
    let per_sample = if counts.len() == 5 { GamesPerSample::Two } else { GamesPerSample::One };
    let sample = Sample::regularized(counts);
    let (mean, variance) = mean_and_variance(&sample.scores, &sample.frequencies);
    let score = |elo: f64| match settings.model {
        Model::Normalized => 0.5 + elo / NELO_PER_T_VALUE * (variance * per_sample.games()).sqrt(),
        Model::Logistic => logistic_score(elo),
    };
    let (s0, s1) = (score(settings.elo0), score(settings.elo1));
    Some(((mean - (s0 + s1) / 2.0) * (s1 - s0) / variance, (s1 - s0).powi(2) / variance))
}

/// The expected number of steps a Brownian motion with `drift` and
/// `variance` per step takes from `x` to leave `(lower, upper)`:
/// `(b - x)(x - a)/σ²` without drift, else `(P(b) (b - x) + P(a) (a - x))/μ`
/// with `P(b) = (1 - e^{-θ(x - a)})/(1 - e^{-θ(b - a)})`, `θ = 2μ/σ²`.
pub(super) fn expected_exit_time(x: f64, (lower, upper): (f64, f64), drift: f64, variance: f64) -> f64 {
    if x <= lower || x >= upper {
        return 0.0;
    }
    let theta = 2.0 * drift / variance;
    if (theta * (upper - lower)).abs() < 1e-9 {
        return (upper - x) * (x - lower) / variance;
    }
    // Written so no exponent is positive: e^{-θ(b - a)} overflows for a
    // strong negative drift.
    let reaches_upper = if theta > 0.0 {
        (-theta * (x - lower)).exp_m1() / (-theta * (upper - lower)).exp_m1()
    } else {
        let phi = -theta;
        (phi * (x - upper)).exp() * (-phi * (x - lower)).exp_m1() / (-phi * (upper - lower)).exp_m1()
    };
    (reaches_upper * (upper - x) + (1.0 - reaches_upper) * (lower - x)) / drift
}

/// About how many more samples of `counts`' kind (pairs for a pentanomial,
/// games for a trinomial) the SPRT needs from `status`, were the counts'
/// distribution the truth; `None` without counts, 0 once it has decided.
pub fn expected_remaining(counts: &[u64], settings: &SprtSettings, status: &SprtStatus) -> Option<f64> {
    let (drift, variance) = drift_and_variance(counts, settings)?;
    Some(expected_exit_time(status.llr, (status.lower, status.upper), drift, variance))
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::statistics::test_support::assert_close;

    fn settings(elo0: f64, elo1: f64, model: Model) -> SprtSettings {
        SprtSettings { elo0, elo1, alpha: 0.05, beta: 0.05, model }
    }

    // Reference: fishtest's LLR_drift_variance_alt2 with the scores its
    // sprt.set_state gives it (official-stockfish/fishtest b8eecff,
    // server/fishtest/stats/LLRcalc.py and sprt.py), computed with its code.
    #[test]
    fn drift_and_variance_are_fishtests() {
        let cases: [(&[u64], f64, f64, Model, f64, f64); 5] = [
            (&[41, 116, 198, 99, 46], 0.0, 5.0, Model::Normalized, -0.000475644381664, 0.000414210789881),
            (&[29, 72, 200, 123, 76], 0.0, 5.0, Model::Normalized, 0.0053064957006, 0.000414210789881),
            (&[25, 35, 20, 9, 1], -5.0, 0.0, Model::Normalized, -0.016797776937, 0.000414210789881),
            (&[29, 72, 200, 123, 76], 0.0, 5.0, Model::Logistic, 0.00692219318972, 0.000722844238414),
            (&[120, 260, 100], 0.0, 5.0, Model::Normalized, -0.000990949443331, 0.000207105394941),
        ];
        for (counts, elo0, elo1, model, drift, variance) in cases {
            let (d, v) = drift_and_variance(counts, &settings(elo0, elo1, model)).unwrap();
            assert_close(d, drift, 1e-12, &format!("{counts:?} drift"));
            assert_close(v, variance, 1e-12, &format!("{counts:?} variance"));
        }
        assert_eq!(drift_and_variance(&[0, 0, 0, 0, 0], &settings(0.0, 5.0, Model::Normalized)), None);
    }

    /// The mean number of steps a seeded Gaussian random walk with `drift`
    /// and `variance` a step takes from `x` to leave `(lower, upper)`.
    fn simulated_exit_time(x: f64, bounds: (f64, f64), drift: f64, variance: f64, runs: usize) -> f64 {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut total = 0u64;
        for _ in 0..runs {
            let mut position = x;
            while position > bounds.0 && position < bounds.1 {
                // Box-Muller.
                let (u, v): (f64, f64) = (rng.gen_range(f64::EPSILON..1.0), rng.gen());
                let normal = (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos();
                position += drift + variance.sqrt() * normal;
                total += 1;
            }
        }
        total as f64 / runs as f64
    }

    // A known answer: small steps against the band (overshoot negligible),
    // drift up, down and none, from the middle and near a bound.
    #[test]
    fn the_exit_time_is_a_random_walks() {
        let bounds = (-2.944, 2.944);
        for (x, drift) in [(0.0, 0.002), (0.0, -0.002), (0.0, 0.0), (2.0, -0.001), (-2.5, 0.0005), (0.5, 0.02)] {
            let variance = 0.0004;
            let expected = expected_exit_time(x, bounds, drift, variance);
            let simulated = simulated_exit_time(x, bounds, drift, variance, 400);
            let error = (expected - simulated).abs() / simulated;
            assert!(error < 0.08, "from {x}, drift {drift}: {expected:.0} expected, {simulated:.0} simulated");
        }
        assert_eq!(expected_exit_time(3.0, bounds, 0.001, 0.0004), 0.0);
        // A drift so strong that e^{θ(b - a)} overflows still answers.
        let fast = expected_exit_time(0.0, bounds, -5.0, 0.0004);
        assert_close(fast, 2.944 / 5.0, 1e-9, "strong negative drift");
    }
}
