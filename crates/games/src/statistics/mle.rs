//! Van den Bergh's maximum-likelihood distributions under a constraint: the
//! distribution over a sample's bins, closest to the observed one, whose
//! expected score (logistic model) or t-value (normalized model) is given.
//! The generalized SPRT compares the likelihoods of two of them.

use super::sample::{mean_and_variance, Sample};

/// Solves Van den Bergh's secular equation `Σ p̂ᵢ φᵢ / (1 + x φᵢ) = 0` for the
/// Lagrange multiplier `x` (support_MLE_multinomial.pdf, equation 1.3;
/// normalized_elo_practical.pdf, equation 4.9). The left side falls strictly
/// from +∞ to -∞ on `(-1/max φ, -1/min φ)`, so it has exactly one root there
/// when `φ` takes both signs (`None` otherwise); Newton's method finds it,
/// with bisection whenever a Newton step would leave the bracket.
fn solve_secular(frequencies: &[f64], phi: &[f64]) -> Option<f64> {
    let smallest = phi.iter().copied().fold(f64::INFINITY, f64::min);
    let largest = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(smallest < 0.0 && largest > 0.0) {
        return None;
    }
    let (mut low, mut high) = (-1.0 / largest, -1.0 / smallest);
    let mut x = 0.0;
    for _ in 0..200 {
        let (mut value, mut slope) = (0.0, 0.0);
        for (p, phi) in frequencies.iter().zip(phi) {
            let denominator = 1.0 + x * phi;
            value += p * phi / denominator;
            slope -= p * phi * phi / (denominator * denominator);
        }
        if value == 0.0 {
            return Some(x);
        }
        if value > 0.0 {
            low = x;
        } else {
            high = x;
        }
        let newton = x - value / slope;
        let next = if newton > low && newton < high { newton } else { 0.5 * (low + high) };
        if (next - x).abs() <= 1e-15 * (1.0 + x.abs()) {
            return Some(next);
        }
        x = next;
    }
    Some(x)
}

/// The maximum-likelihood distribution over the sample's bins with expected
/// score `mean`: `pᵢ = p̂ᵢ / (1 + x (aᵢ - mean))` with `x` from the secular
/// equation (support_MLE_multinomial.pdf, proposition 1.1; fishtest's
/// `MLE_expected`).
pub(super) fn mle_with_mean(sample: &Sample, mean: f64) -> Option<Vec<f64>> {
    let phi: Vec<f64> = sample.scores.iter().map(|a| a - mean).collect();
    let x = solve_secular(&sample.frequencies, &phi)?;
    Some(sample.frequencies.iter().zip(&phi).map(|(p, phi)| p / (1.0 + x * phi)).collect())
}

/// The maximum-likelihood distribution over the sample's bins with t-value
/// `(mu - reference) / sigma = t` (normalized_elo_practical.pdf, section 4.1;
/// fishtest's `MLE_t_value`): from the uniform distribution, repeat
/// `φᵢ = aᵢ - reference - t σ (1 + ((aᵢ - μ)/σ)²) / 2` with the current μ, σ,
/// then `pᵢ = p̂ᵢ / (1 + x φᵢ)`, to a fixed point. If that fails (it can for
/// far-off `t`, hundreds of nElo), `t` is reached in small steps from 0, each
/// step starting from the last one's solution.
pub(super) fn mle_with_t_value(sample: &Sample, reference: f64, t: f64) -> Option<Vec<f64>> {
    let uniform = vec![1.0 / sample.scores.len() as f64; sample.scores.len()];
    if let Some(solution) = t_value_fixed_point(sample, reference, t, uniform.clone()) {
        return Some(solution);
    }
    const STEPS: u32 = 64;
    let mut solution = uniform;
    for step in 1..=STEPS {
        solution = t_value_fixed_point(sample, reference, t * f64::from(step) / f64::from(STEPS), solution)?;
    }
    Some(solution)
}

fn t_value_fixed_point(sample: &Sample, reference: f64, t: f64, start: Vec<f64>) -> Option<Vec<f64>> {
    let mut probabilities = start;
    for _ in 0..200 {
        let (mean, variance) = mean_and_variance(&sample.scores, &probabilities);
        let sigma = variance.sqrt();
        if sigma.is_nan() || sigma <= 0.0 {
            return None;
        }
        let phi: Vec<f64> = sample
            .scores
            .iter()
            .map(|a| {
                let z = (a - mean) / sigma;
                a - reference - t * sigma * (1.0 + z * z) / 2.0
            })
            .collect();
        let x = solve_secular(&sample.frequencies, &phi)?;
        let mut change: f64 = 0.0;
        for ((p, observed), phi) in probabilities.iter_mut().zip(&sample.frequencies).zip(&phi) {
            let next = observed / (1.0 + x * phi);
            change = change.max((next - *p).abs());
            *p = next;
        }
        // fishtest stops at 1e-9; rounding alone moves the probabilities by
        // about 1e-12, so much below that is out of reach.
        if change < 1e-10 {
            break;
        }
    }
    let (mean, variance) = mean_and_variance(&sample.scores, &probabilities);
    let reached = (mean - reference) / variance.sqrt();
    ((reached - t).abs() < 1e-6).then_some(probabilities)
}
