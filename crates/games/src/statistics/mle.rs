//! Van den Bergh's maximum-likelihood distributions under a constraint: the
//! distribution over a sample's bins, closest to the observed one, whose
//! expected score (logistic model) or t-value (normalized model) is given.
//! The generalized SPRT compares the likelihoods of two of them.

use super::sample::{mean_and_variance, Sample};

/// Solves Van den Bergh's secular equation `Σ p̂ᵢ φᵢ / (1 + x φᵢ) = 0` for the
/// Lagrange multiplier `x` (support_MLE_multinomial.pdf, equation 1.3;
/// normalized_elo_practical.pdf, equation 4.9) and returns the distribution
/// it gives, `pᵢ = p̂ᵢ / (1 + x φᵢ)`. The left side falls strictly from +∞
/// to -∞ on `(-1/max φ, -1/min φ)`, so it has exactly one root there when
/// `φ` takes both signs (`None` otherwise).
///
/// Newton's method finds it, kept inside a bracket of points whose sign is
/// known: a step that would land outside the bracket, or within a 64th of
/// its width of either end, is replaced by bisection. Near a pole a Newton
/// step means nothing: the first one, from x = 0, lands exactly on the pole
/// `-1/max φ` when `Σ p̂ φ / Σ p̂ φ² = -1/max φ`, which a bound at 0 meets
/// whenever LD = 3 WD + 8 WW (or its mirror), a common count. It stops when
/// the value is down to rounding or the bracket to rounding's width, never
/// on a step's size alone, and answers only with a distribution.
///
/// A lopsided sample (10,000 WW pairs) has its root within 1e-7 of a pole,
/// where `1 + x φ` computed from `x` keeps only half its digits. So a point
/// is held as its distances from both poles, `(x - low pole, high pole - x)`,
/// and each denominator is computed from the nearer one.
fn solve_secular(frequencies: &[f64], phi: &[f64]) -> Option<Vec<f64>> {
    let smallest = phi.iter().copied().fold(f64::INFINITY, f64::min);
    let largest = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(smallest < 0.0 && largest > 0.0) {
        return None;
    }
    let poles = Poles::new(phi, smallest, largest);
    let (mut low, mut high) =
        (Point { from_low: 0.0, from_high: poles.width }, Point { from_low: poles.width, from_high: 0.0 });
    let mut x = Point { from_low: 1.0 / largest, from_high: -1.0 / smallest };
    for _ in 0..400 {
        let (mut value, mut slope, mut scale) = (0.0, 0.0, 0.0);
        for ((p, phi), denominator) in frequencies.iter().zip(phi).zip(poles.denominators(x)) {
            let term = p * phi / denominator;
            value += term;
            slope -= term * term / p;
            scale += term.abs();
        }
        if value.abs() <= 1e-14 * scale {
            break;
        }
        if value > 0.0 {
            low = x;
        } else {
            high = x;
        }
        let width = high.from_low - low.from_low;
        if width <= 4.0 * f64::EPSILON * x.from_low.min(x.from_high) {
            break;
        }
        let newton = x.moved(-value / slope);
        let guard = width / 64.0;
        let inside = newton.from_low > low.from_low + guard && newton.from_high > high.from_high + guard;
        x = if inside { newton } else { low.midpoint(high) };
    }
    let solution: Vec<f64> =
        frequencies.iter().zip(poles.denominators(x)).map(|(p, denominator)| p / denominator).collect();
    is_distribution(&solution).then_some(solution)
}

/// A point of the secular equation's bracket, as its distances from the
/// two poles (each exact where it is small).
#[derive(Clone, Copy)]
struct Point {
    from_low: f64,
    from_high: f64,
}

impl Point {
    fn moved(self, step: f64) -> Point {
        Point { from_low: self.from_low + step, from_high: self.from_high - step }
    }

    fn midpoint(self, other: Point) -> Point {
        Point { from_low: 0.5 * (self.from_low + other.from_low), from_high: 0.5 * (self.from_high + other.from_high) }
    }
}

/// The secular equation's poles `-1/max φ` and `-1/min φ`, and each bin's
/// `1 + x φᵢ` at both (0 at its own).
struct Poles<'a> {
    phi: &'a [f64],
    width: f64,
    at_low: Vec<f64>,
    at_high: Vec<f64>,
}

impl<'a> Poles<'a> {
    fn new(phi: &'a [f64], smallest: f64, largest: f64) -> Poles<'a> {
        let (low, high) = (-1.0 / largest, -1.0 / smallest);
        let at = |pole: f64, own: f64| phi.iter().map(|&phi| if phi == own { 0.0 } else { 1.0 + pole * phi }).collect();
        Poles { phi, width: high - low, at_low: at(low, largest), at_high: at(high, smallest) }
    }

    /// Each bin's `1 + x φᵢ` at `x`, from the nearer pole.
    fn denominators(&self, x: Point) -> impl Iterator<Item = f64> + '_ {
        let near_low = x.from_low <= x.from_high;
        self.phi.iter().zip(self.at_low.iter().zip(&self.at_high)).map(move |(phi, (at_low, at_high))| {
            if near_low {
                at_low + x.from_low * phi
            } else {
                at_high - x.from_high * phi
            }
        })
    }
}

/// Whether `probabilities` are a distribution: each positive and finite, and
/// their sum 1. (`Σ pᵢ = 1 - x · value`, so only a root sums to 1; a point
/// near a pole does not.)
fn is_distribution(probabilities: &[f64]) -> bool {
    let sum: f64 = probabilities.iter().sum();
    probabilities.iter().all(|p| p.is_finite() && *p > 0.0) && (sum - 1.0).abs() < 1e-9
}

/// The maximum-likelihood distribution over the sample's bins with expected
/// score `mean`: `pᵢ = p̂ᵢ / (1 + x (aᵢ - mean))` with `x` from the secular
/// equation (support_MLE_multinomial.pdf, proposition 1.1; fishtest's
/// `MLE_expected`).
pub(super) fn mle_with_mean(sample: &Sample, mean: f64) -> Option<Vec<f64>> {
    let phi: Vec<f64> = sample.scores.iter().map(|a| a - mean).collect();
    solve_secular(&sample.frequencies, &phi)
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
        let next = solve_secular(&sample.frequencies, &phi)?;
        let change = next.iter().zip(&probabilities).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        probabilities = next;
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
