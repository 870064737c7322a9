//! SPRT and Elo: the match runner's statistics, and `lab sprt` to apply them
//! to results from elsewhere (fastchess, OpenBench, fishtest).
//!
//! Everything here follows what fishtest (`server/fishtest/stats/LLRcalc.py`,
//! `stat_util.py`), OpenBench (`OpenBench/stats.py`) and fastchess
//! (`app/src/matchmaking/sprt/sprt.cpp`, `elo/elo_*.cpp`) do, so a result here
//! can be compared with theirs number for number:
//!
//! - **LLR** is Michel Van den Bergh's generalized SPRT: the log-likelihood
//!   ratio of the two maximum-likelihood distributions of outcomes that meet
//!   H0's and H1's constraint, given the observed frequencies ("Comments on
//!   Normalized Elo", <https://www.cantate.be/Fishtest/normalized_elo_practical.pdf>,
//!   section 4.1, and "support_MLE_multinomial.pdf", proposition 1.1).
//!   - The *normalized* model constrains the t-value `(mu - 1/2) / sigma` of
//!     the per-game score (`nElo = t * 800 / ln 10`); with pairs, the pair's
//!     t-value is `sqrt(2)` times the per-game one.
//!   - The *logistic* model constrains the expected score `mu = L(elo)`, with
//!     `L(x) = 1 / (1 + 10^(-x/400))`.
//! - **Empty bins** count as 1e-3 of a sample (fishtest's `regularize`,
//!   fastchess's `regularize`), so a likelihood is never `ln 0`. With no
//!   sample at all the LLR is 0. When every result is in one bin the MLE
//!   leans on those 1e-3 bins and solvers disagree: fastchess's tests expect
//!   +2.97 for 16700 draws and nothing else with bounds [0, 5], where the
//!   exact answer (which this file gives, checked by direct maximization in
//!   the tests) is -3.45.
//! - If a far-off hypothesis (hundreds of Elo) leaves the MLE out of reach,
//!   the LLR falls back to Van den Bergh's closed-form approximations
//!   (fishtest's `LLR_normalized_alt`, `LLR_alt`) rather than fail.
//! - The verdict compares the LLR with Wald's bounds as they are; fishtest
//!   also corrects them for the expected overshoot, which is not done here.
//! - **Elo** is logistic Elo of the mean score, its 95% interval the mapped
//!   interval `mu ± 1.96 sqrt(var / n)` of the score, with the variance of the
//!   pentanomial (per pair) or trinomial (per game) sample; the "±" printed is
//!   half the interval's width, as fastchess and fishtest print it.
//!   **nElo** is `(mu - 1/2) / sigma * 800 / ln 10`, sigma the per-game
//!   standard deviation (`sqrt(2 var_pair)` from pairs). Both use the counts
//!   as they are (as fastchess does); only when every result is in one bin
//!   (no variance) are empty bins counted as 1e-3, and a score of 0 or 1 is
//!   clamped to 0.001 or 0.999 (±1199.8 Elo) as fishtest clamps it.
//!
//! Pentanomial results are the ones to trust: the two games of a pair share
//! an opening and are correlated, which the trinomial model ignores.

use std::fmt;
use std::io::Write;

use anyhow::{bail, Result};
use clap::{ArgGroup, Args};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::lab::GlobalArgs;

/// Normalized Elo per unit of t-value: `800 / ln 10` (fishtest's
/// `nelo_divided_by_nt`).
const NELO_PER_T_VALUE: f64 = 800.0 / std::f64::consts::LN_10;

/// The two-sided 95% quantile of the standard normal law.
const Z_95: f64 = 1.959_963_984_540_054;

/// What an empty bin counts as: fishtest's and fastchess's regularization.
const EMPTY_BIN: f64 = 1e-3;

/// Scores are kept in `[SCORE_CLAMP, 1 - SCORE_CLAMP]` before they become
/// logistic Elo (fishtest's `stat_util.elo`), so a perfect score reads
/// ±1199.8 Elo instead of infinity.
const SCORE_CLAMP: f64 = 1e-3;

/// Game-pair outcomes from the first engine's view, indexed by its points in
/// the pair in half-points: `[LL, LD, DD+WL, WD, WW]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Adds one pair: the first engine's points (0, 0.5 or 1) in each game.
    ///
    /// # Panics
    /// If a game's points are not 0, 0.5 or 1: that is a bug in the caller.
    pub fn add_pair(&mut self, first_game: f64, second_game: f64) {
        assert!(
            is_game_points(first_game) && is_game_points(second_game),
            "a game scores 0, 0.5 or 1, not {first_game} and {second_game}"
        );
        let half_points = (2.0 * (first_game + second_game)).round() as usize;
        self.0[half_points] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    pub fn games(&self) -> u64 {
        2 * self.pairs()
    }
}

fn is_game_points(points: f64) -> bool {
    points == 0.0 || points == 0.5 || points == 1.0
}

/// Wins, draws and losses from the first engine's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    /// Adds one game: the first engine's points (0, 0.5 or 1).
    ///
    /// # Panics
    /// If the points are not 0, 0.5 or 1.
    pub fn add_game(&mut self, points: f64) {
        assert!(is_game_points(points), "a game scores 0, 0.5 or 1, not {points}");
        if points == 1.0 {
            self.wins += 1;
        } else if points == 0.5 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The counts in score order, `[L, D, W]`, as the statistics want them.
    fn by_score(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }
}

/// Which Elo the SPRT bounds are in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum Model {
    /// Normalized Elo (fishtest, OpenBench, fastchess default).
    Normalized,
    /// Classical logistic Elo.
    Logistic,
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Model::Normalized => "normalized",
            Model::Logistic => "logistic",
        })
    }
}

/// An estimate with its 95% confidence interval.
///
/// With no games every field is 0: print such an estimate as "n/a".
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl Estimate {
    const NONE: Estimate = Estimate { value: 0.0, low: 0.0, high: 0.0 };

    /// Half the interval's width: the "±" fastchess and fishtest print (the
    /// logistic interval is not quite symmetric around the value).
    pub fn error(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    AcceptH0,
    AcceptH1,
    Continue,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::AcceptH0 => "H0 accepted",
            Verdict::AcceptH1 => "H1 accepted",
            Verdict::Continue => "continue",
        })
    }
}

/// The state of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtStatus {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub verdict: Verdict,
}

impl SprtStatus {
    fn new(llr: f64, alpha: f64, beta: f64) -> SprtStatus {
        let (lower, upper) = bounds(alpha, beta);
        let verdict = if llr >= upper {
            Verdict::AcceptH1
        } else if llr <= lower {
            Verdict::AcceptH0
        } else {
            Verdict::Continue
        };
        SprtStatus { llr, lower, upper, verdict }
    }
}

/// The SPRT's LLR bounds `(ln(beta/(1-alpha)), ln((1-beta)/alpha))`: Wald's
/// approximation, as everyone uses it. The test stops at the first LLR
/// outside them.
pub fn bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// The generalized LLR of H1 (`elo1`) against H0 (`elo0`) for game pairs,
/// `elo0` and `elo1` in normalized or logistic Elo as `model` says. 0 without
/// pairs.
pub fn llr_penta(penta: &Pentanomial, elo0: f64, elo1: f64, model: Model) -> f64 {
    llr(&penta.0, GamesPerSample::Two, elo0, elo1, model)
}

/// The generalized LLR of H1 against H0 for single games (the trinomial
/// model). 0 without games.
pub fn llr_wdl(wdl: &Wdl, elo0: f64, elo1: f64, model: Model) -> f64 {
    llr(&wdl.by_score(), GamesPerSample::One, elo0, elo1, model)
}

/// The SPRT on game pairs: the LLR, its bounds, and the verdict (H1 at or
/// above the upper bound, H0 at or below the lower one).
pub fn sprt_penta(penta: &Pentanomial, elo0: f64, elo1: f64, alpha: f64, beta: f64, model: Model) -> SprtStatus {
    SprtStatus::new(llr_penta(penta, elo0, elo1, model), alpha, beta)
}

/// The SPRT on single games (trinomial model).
pub fn sprt_wdl(wdl: &Wdl, elo0: f64, elo1: f64, alpha: f64, beta: f64, model: Model) -> SprtStatus {
    SprtStatus::new(llr_wdl(wdl, elo0, elo1, model), alpha, beta)
}

/// Logistic Elo from game pairs, with the pentanomial variance.
pub fn elo_penta(penta: &Pentanomial) -> Estimate {
    logistic_elo_estimate(&penta.0)
}

/// Normalized Elo from game pairs (sigma per game = `sqrt(2 var_pair)`).
pub fn nelo_penta(penta: &Pentanomial) -> Estimate {
    normalized_elo_estimate(&penta.0, GamesPerSample::Two)
}

/// Logistic Elo from single games, with the trinomial variance.
pub fn elo_wdl(wdl: &Wdl) -> Estimate {
    logistic_elo_estimate(&wdl.by_score())
}

/// Normalized Elo from single games.
pub fn nelo_wdl(wdl: &Wdl) -> Estimate {
    normalized_elo_estimate(&wdl.by_score(), GamesPerSample::One)
}

/// Logistic Elo of an expected score, the score clamped to
/// `[SCORE_CLAMP, 1 - SCORE_CLAMP]` so it stays finite.
fn logistic_elo(score: f64) -> f64 {
    let score = score.clamp(SCORE_CLAMP, 1.0 - SCORE_CLAMP);
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score of a logistic Elo difference: `1 / (1 + 10^(-elo/400))`.
fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// How many games one sample (one count of a bin) stands for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum GamesPerSample {
    One,
    Two,
}

impl GamesPerSample {
    fn games(self) -> f64 {
        match self {
            GamesPerSample::One => 1.0,
            GamesPerSample::Two => 2.0,
        }
    }
}

/// Observed outcomes as an empirical distribution: bin `i` of `n` bins is a
/// score of `i / (n - 1)` per game (the pair's average, for pairs).
struct Sample {
    /// The per-game score of each bin.
    scores: Vec<f64>,
    /// The observed frequency of each bin, summing to 1.
    frequencies: Vec<f64>,
    /// The number of samples, empty bins' share included.
    size: f64,
}

impl Sample {
    /// The sample with empty bins counted as [`EMPTY_BIN`] samples
    /// (fishtest's `results_to_pdf`), as the LLR needs.
    fn regularized(counts: &[u64]) -> Sample {
        Sample::weighted(counts.iter().map(|&count| if count == 0 { EMPTY_BIN } else { count as f64 }).collect())
    }

    /// The sample as observed (fastchess's Elo), or regularized if all of it
    /// falls in one bin, where it would have no variance to divide by.
    fn for_estimates(counts: &[u64]) -> Sample {
        if counts.iter().filter(|&&count| count > 0).count() > 1 {
            Sample::weighted(counts.iter().map(|&count| count as f64).collect())
        } else {
            Sample::regularized(counts)
        }
    }

    fn weighted(weights: Vec<f64>) -> Sample {
        let bins = weights.len();
        let size: f64 = weights.iter().sum();
        let last = (bins - 1) as f64;
        Sample {
            scores: (0..bins).map(|i| i as f64 / last).collect(),
            frequencies: weights.iter().map(|weight| weight / size).collect(),
            size,
        }
    }

    /// `size * Σ p̂ᵢ ln(p1ᵢ / p0ᵢ)`: the log-likelihood ratio of the sample
    /// under distribution `p1` against `p0`.
    fn log_likelihood_ratio(&self, p0: &[f64], p1: &[f64]) -> f64 {
        self.size * self.frequencies.iter().zip(p0.iter().zip(p1)).map(|(f, (a, b))| f * (b.ln() - a.ln())).sum::<f64>()
    }
}

/// Mean and variance of the scores under `probabilities`.
fn mean_and_variance(scores: &[f64], probabilities: &[f64]) -> (f64, f64) {
    let mean: f64 = scores.iter().zip(probabilities).map(|(a, p)| a * p).sum();
    let variance = scores.iter().zip(probabilities).map(|(a, p)| p * (a - mean) * (a - mean)).sum();
    (mean, variance)
}

fn llr(counts: &[u64], per_sample: GamesPerSample, elo0: f64, elo1: f64, model: Model) -> f64 {
    if counts.iter().all(|&count| count == 0) {
        return 0.0;
    }
    let sample = Sample::regularized(counts);
    match model {
        Model::Normalized => {
            // The t-value of one sample: a pair's average has half a game's
            // variance, so its t-value is sqrt(2) times the game's.
            let scale = per_sample.games().sqrt() / NELO_PER_T_VALUE;
            let (t0, t1) = (elo0 * scale, elo1 * scale);
            match (mle_with_t_value(&sample, 0.5, t0), mle_with_t_value(&sample, 0.5, t1)) {
                (Some(p0), Some(p1)) => sample.log_likelihood_ratio(&p0, &p1),
                _ => llr_normalized_approximation(&sample, per_sample, elo0, elo1),
            }
        }
        Model::Logistic => {
            let (s0, s1) = (logistic_score(elo0), logistic_score(elo1));
            match (mle_with_mean(&sample, s0), mle_with_mean(&sample, s1)) {
                (Some(p0), Some(p1)) => sample.log_likelihood_ratio(&p0, &p1),
                _ => llr_logistic_approximation(&sample, s0, s1),
            }
        }
    }
}

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
fn mle_with_mean(sample: &Sample, mean: f64) -> Option<Vec<f64>> {
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
fn mle_with_t_value(sample: &Sample, reference: f64, t: f64) -> Option<Vec<f64>> {
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

/// Fallback for the normalized LLR when the exact MLE cannot be found:
/// `games / 2 · ln((1 + (t̂ - t0)²) / (1 + (t̂ - t1)²))` with per-game
/// t-values (normalized_elo_practical.pdf, section 4.2; fishtest's
/// `LLR_normalized_alt`).
fn llr_normalized_approximation(sample: &Sample, per_sample: GamesPerSample, elo0: f64, elo1: f64) -> f64 {
    let (mean, variance) = mean_and_variance(&sample.scores, &sample.frequencies);
    let games = sample.size * per_sample.games();
    let t = (mean - 0.5) / (variance * per_sample.games()).sqrt();
    let (t0, t1) = (elo0 / NELO_PER_T_VALUE, elo1 / NELO_PER_T_VALUE);
    games / 2.0 * ((1.0 + (t - t0).powi(2)) / (1.0 + (t - t1).powi(2))).ln()
}

/// Fallback for the logistic LLR when a hypothesis' score is 0 or 1 in
/// floating point: `n / 2 · ln(r0 / r1)` with `r = Σ p̂ᵢ (aᵢ - s)²`
/// (support_MLE_multinomial.pdf; fishtest's `LLR_alt`).
fn llr_logistic_approximation(sample: &Sample, s0: f64, s1: f64) -> f64 {
    let spread =
        |s: f64| -> f64 { sample.scores.iter().zip(&sample.frequencies).map(|(a, p)| p * (a - s) * (a - s)).sum() };
    sample.size / 2.0 * (spread(s0) / spread(s1)).ln()
}

/// Logistic Elo and its 95% interval: the score's mean `mu` and variance per
/// sample, `mu ± 1.96 sqrt(var / n)` mapped to Elo (fastchess's `EloWDL` /
/// `EloPentanomial`, fishtest's `get_elo`).
fn logistic_elo_estimate(counts: &[u64]) -> Estimate {
    if counts.iter().all(|&count| count == 0) {
        return Estimate::NONE;
    }
    let sample = Sample::for_estimates(counts);
    let (mean, variance) = mean_and_variance(&sample.scores, &sample.frequencies);
    let half_width = Z_95 * (variance / sample.size).sqrt();
    Estimate { value: logistic_elo(mean), low: logistic_elo(mean - half_width), high: logistic_elo(mean + half_width) }
}

/// Normalized Elo `(mu - 1/2) / sigma · 800 / ln 10` and its 95% interval
/// (the same score interval, divided by the same sigma), sigma per game:
/// `sqrt(games per sample · var per sample)` (fastchess's `scoreToNeloDiff`).
fn normalized_elo_estimate(counts: &[u64], per_sample: GamesPerSample) -> Estimate {
    if counts.iter().all(|&count| count == 0) {
        return Estimate::NONE;
    }
    let sample = Sample::for_estimates(counts);
    let (mean, variance) = mean_and_variance(&sample.scores, &sample.frequencies);
    let sigma_per_game = (variance * per_sample.games()).sqrt();
    let half_width = Z_95 * (variance / sample.size).sqrt();
    let nelo = |score: f64| (score - 0.5) / sigma_per_game * NELO_PER_T_VALUE;
    Estimate { value: nelo(mean), low: nelo(mean - half_width), high: nelo(mean + half_width) }
}

/// `value` with `decimals` decimals, and no "-" on a value that rounds to 0.
fn fixed(value: f64, decimals: usize) -> String {
    let text = format!("{value:.decimals$}");
    match text.strip_prefix('-') {
        Some(magnitude) if magnitude.chars().all(|c| c == '0' || c == '.') => magnitude.to_string(),
        _ => text,
    }
}

/// `14.5 ± 30.1`, or `n/a` without games.
fn format_estimate(estimate: &Estimate, games: u64) -> String {
    if games == 0 {
        "n/a".to_string()
    } else {
        format!("{} ± {}", fixed(estimate.value, 1), fixed(estimate.error(), 1))
    }
}

fn format_penta(penta: &Pentanomial) -> String {
    let [ll, ld, dd_wl, wd, ww] = penta.0;
    format!("[{ll}, {ld}, {dd_wl}, {wd}, {ww}]")
}

/// `LLR 0.52 (-2.94, 2.94) [0, 5]`.
fn format_llr(status: &SprtStatus, elo0: f64, elo1: f64) -> String {
    format!("LLR {} ({:.2}, {:.2}) [{elo0}, {elo1}]", fixed(status.llr, 2), status.lower, status.upper)
}

/// The match runner's running line: games and W/L/D, the pentanomial, Elo
/// and nElo (from the pairs once there are any, else from the games), and
/// the LLR when an SPRT runs. `sprt` is `(elo0, elo1, alpha, beta, model)`.
///
/// `Games 120: W 40 L 35 D 45 | Penta [2, 15, 26, 14, 3] | Elo 14.5 ± 30.1 | nElo 20.3 ± 42.0 | LLR 0.52 (-2.94, 2.94) [0, 5]`
pub fn running_line(wdl: &Wdl, penta: &Pentanomial, sprt: Option<(f64, f64, f64, f64, Model)>) -> String {
    let (elo, nelo, games) = if penta.pairs() > 0 {
        (elo_penta(penta), nelo_penta(penta), penta.games())
    } else {
        (elo_wdl(wdl), nelo_wdl(wdl), wdl.games())
    };
    let mut line = format!(
        "Games {}: W {} L {} D {} | Penta {} | Elo {} | nElo {}",
        wdl.games(),
        wdl.wins,
        wdl.losses,
        wdl.draws,
        format_penta(penta),
        format_estimate(&elo, games),
        format_estimate(&nelo, games),
    );
    if let Some((elo0, elo1, alpha, beta, model)) = sprt {
        let status = sprt_penta(penta, elo0, elo1, alpha, beta, model);
        line.push_str(" | ");
        line.push_str(&format_llr(&status, elo0, elo1));
    }
    line
}

/// `lab sprt`: the SPRT and Elo of given results, e.g.
/// `lab sprt --penta 3,40,100,45,2 --elo0 0 --elo1 5`.
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("outcomes").required(true).args(["penta", "wdl"])))]
pub struct SprtArgs {
    /// Game-pair results from the first engine's view: five counts
    /// LL,LD,DD+WL,WD,WW (fastchess's "Ptnml(0-2)", fishtest's pentanomial).
    #[arg(long, value_name = "LL,LD,DD+WL,WD,WW", allow_hyphen_values = true)]
    pub penta: Option<String>,
    /// Game results from the first engine's view: three counts W,D,L.
    #[arg(long, value_name = "W,D,L", allow_hyphen_values = true)]
    pub wdl: Option<String>,
    /// The Elo of H0 (in the model's Elo).
    #[arg(long, allow_negative_numbers = true)]
    pub elo0: f64,
    /// The Elo of H1 (in the model's Elo); more than elo0.
    #[arg(long, allow_negative_numbers = true)]
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds, in (0, 0.5).
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds, in (0, 0.5).
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// What elo0 and elo1 are: normalized Elo or logistic Elo.
    #[arg(long, value_enum, default_value_t = Model::Normalized)]
    pub model: Model,
}

/// The results `lab sprt` was given.
#[derive(Debug, PartialEq)]
enum Results {
    Pairs(Pentanomial),
    Games(Wdl),
}

/// Parses `count,count,...`: exactly `expected` whole numbers, spaces and
/// surrounding brackets allowed (so fastchess's `[3, 40, 100, 45, 2]` pastes).
fn parse_counts(option: &str, layout: &str, text: &str, expected: usize) -> Result<Vec<u64>> {
    let inner = text.trim().trim_start_matches('[').trim_end_matches(']');
    let fields: Vec<&str> = inner.split(',').map(str::trim).collect();
    if fields.len() != expected {
        bail!("{option} takes {expected} counts {layout}, but \"{text}\" has {}", fields.len());
    }
    fields
        .iter()
        .map(|field| {
            if field.strip_prefix('-').is_some_and(|magnitude| magnitude.parse::<f64>().is_ok()) {
                bail!("{option}: {field} is negative; counts are whole numbers >= 0");
            }
            match field.parse::<u64>() {
                Ok(count) => Ok(count),
                Err(_) => bail!("{option}: \"{field}\" is not a count (a whole number >= 0)"),
            }
        })
        .collect()
}

impl SprtArgs {
    fn results(&self) -> Result<Results> {
        match (&self.penta, &self.wdl) {
            (Some(text), None) => {
                let counts = parse_counts("--penta", "LL,LD,DD+WL,WD,WW", text, 5)?;
                Ok(Results::Pairs(Pentanomial([counts[0], counts[1], counts[2], counts[3], counts[4]])))
            }
            (None, Some(text)) => {
                let counts = parse_counts("--wdl", "W,D,L", text, 3)?;
                Ok(Results::Games(Wdl { wins: counts[0], draws: counts[1], losses: counts[2] }))
            }
            _ => bail!("give exactly one of --penta and --wdl"),
        }
    }

    fn check_test(&self) -> Result<()> {
        if !self.elo0.is_finite() || !self.elo1.is_finite() {
            bail!("--elo0 and --elo1 must be finite numbers");
        }
        if self.elo0 >= self.elo1 {
            bail!("--elo0 ({}) must be less than --elo1 ({})", self.elo0, self.elo1);
        }
        for (name, value) in [("--alpha", self.alpha), ("--beta", self.beta)] {
            if !(value > 0.0 && value < 0.5) {
                bail!("{name} must be in (0, 0.5), not {value}");
            }
        }
        Ok(())
    }
}

/// What `lab sprt` reports on its results.
struct Report {
    status: SprtStatus,
    elo: Estimate,
    nelo: Estimate,
    games: u64,
}

impl Report {
    fn new(args: &SprtArgs, results: &Results) -> Report {
        let (elo0, elo1, alpha, beta, model) = (args.elo0, args.elo1, args.alpha, args.beta, args.model);
        match results {
            Results::Pairs(penta) => Report {
                status: sprt_penta(penta, elo0, elo1, alpha, beta, model),
                elo: elo_penta(penta),
                nelo: nelo_penta(penta),
                games: penta.games(),
            },
            Results::Games(wdl) => Report {
                status: sprt_wdl(wdl, elo0, elo1, alpha, beta, model),
                elo: elo_wdl(wdl),
                nelo: nelo_wdl(wdl),
                games: wdl.games(),
            },
        }
    }

    /// The report for people:
    ///
    /// ```text
    /// LLR 0.04 (-2.94, 2.94) [0.00, 5.00] continue
    /// Model normalized, alpha 0.05, beta 0.05
    /// Pairs 190 (380 games): Penta [3, 40, 100, 45, 2]
    /// Elo 2.74 ± 18.38 (95%: -15.63 to 21.13)
    /// nElo 5.22 ± 34.93 (95%: -29.71 to 40.15)
    /// ```
    fn text(&self, args: &SprtArgs, results: &Results) -> String {
        let status = &self.status;
        let mut text = format!(
            "LLR {} ({:.2}, {:.2}) [{:.2}, {:.2}] {}\nModel {}, alpha {}, beta {}\n",
            fixed(status.llr, 2),
            status.lower,
            status.upper,
            args.elo0,
            args.elo1,
            status.verdict,
            args.model,
            args.alpha,
            args.beta
        );
        text += &match results {
            Results::Pairs(penta) => {
                format!("Pairs {} ({} games): Penta {}\n", penta.pairs(), self.games, format_penta(penta))
            }
            Results::Games(wdl) => format!("Games {}: W {} D {} L {}\n", self.games, wdl.wins, wdl.draws, wdl.losses),
        };
        for (name, estimate) in [("Elo", &self.elo), ("nElo", &self.nelo)] {
            if self.games == 0 {
                text += &format!("{name} n/a\n");
            } else {
                text += &format!(
                    "{name} {} ± {} (95%: {} to {})\n",
                    fixed(estimate.value, 2),
                    fixed(estimate.error(), 2),
                    fixed(estimate.low, 2),
                    fixed(estimate.high, 2)
                );
            }
        }
        text
    }

    /// The report for scripts: every number, the estimates `null` without
    /// games.
    fn json(&self, args: &SprtArgs, results: &Results) -> serde_json::Value {
        let estimate = |estimate: &Estimate| {
            (self.games > 0).then(|| {
                json!({"value": estimate.value, "low": estimate.low, "high": estimate.high, "error": estimate.error()})
            })
        };
        let mut report = json!({
            "model": args.model.to_string(),
            "elo0": args.elo0,
            "elo1": args.elo1,
            "alpha": args.alpha,
            "beta": args.beta,
            "llr": self.status.llr,
            "lower": self.status.lower,
            "upper": self.status.upper,
            "verdict": self.status.verdict,
            "games": self.games,
            "elo": estimate(&self.elo),
            "nelo": estimate(&self.nelo),
        });
        match results {
            Results::Pairs(penta) => {
                report["pairs"] = json!(penta.pairs());
                report["penta"] = json!(penta.0);
            }
            Results::Games(wdl) => report["wdl"] = json!(wdl),
        }
        report
    }
}

pub fn command(args: &SprtArgs, global: &GlobalArgs) -> Result<()> {
    args.check_test()?;
    let results = args.results()?;
    let report = Report::new(args, &results);
    let text = if global.json {
        serde_json::to_string_pretty(&report.json(args, &results))? + "\n"
    } else {
        report.text(args, &results)
    };
    // Written, not printed, so a closed pipe (`| head`) is an error, not a panic.
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn penta(counts: [u64; 5]) -> Pentanomial {
        Pentanomial(counts)
    }

    fn wdl(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl { wins, draws, losses }
    }

    /// fastchess's pentanomial from its test constructor
    /// `Stats(ll, ld, wl, dd, wd, ww)` (app/src/matchmaking/stats.hpp).
    fn fastchess_penta(ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64) -> Pentanomial {
        Pentanomial([ll, ld, wl + dd, wd, ww])
    }

    /// doctest's `Approx(expected).epsilon(e)`, which fastchess's tests use:
    /// `|actual - expected| < e * (1 + max(|actual|, |expected|))`.
    fn assert_doctest_approx(actual: f64, expected: f64, epsilon: f64, what: &str) {
        let tolerance = epsilon * (1.0 + actual.abs().max(expected.abs()));
        assert!((actual - expected).abs() < tolerance, "{what}: {actual} is not {expected} within {tolerance}");
    }

    fn assert_close(actual: f64, expected: f64, tolerance: f64, what: &str) {
        assert!((actual - expected).abs() < tolerance, "{what}: {actual} is not {expected} within {tolerance}");
    }

    #[test]
    fn sprt_bounds_are_walds() {
        let (lower, upper) = bounds(0.05, 0.05);
        assert_close(lower, -2.944_438_979_166_44, 1e-12, "lower");
        assert_close(upper, 2.944_438_979_166_44, 1e-12, "upper");
        let (lower, upper) = bounds(0.05, 0.10);
        assert_close(lower, (0.10f64 / 0.95).ln(), 1e-12, "lower");
        assert_close(upper, 18f64.ln(), 1e-12, "upper");
    }

    #[test]
    fn pairs_land_in_their_half_point_bin() {
        let mut counts = Pentanomial::default();
        counts.add_pair(0.0, 0.0);
        counts.add_pair(0.5, 0.0);
        counts.add_pair(0.0, 0.5);
        counts.add_pair(1.0, 0.0);
        counts.add_pair(0.5, 0.5);
        counts.add_pair(0.5, 1.0);
        counts.add_pair(1.0, 1.0);
        assert_eq!(counts, penta([1, 2, 2, 1, 1]));
        assert_eq!((counts.pairs(), counts.games()), (7, 14));
        let mut games = Wdl::default();
        for points in [1.0, 0.5, 0.0, 1.0] {
            games.add_game(points);
        }
        assert_eq!(games, wdl(2, 1, 1));
    }

    #[test]
    #[should_panic(expected = "a game scores 0, 0.5 or 1")]
    fn a_pair_with_impossible_points_panics() {
        Pentanomial::default().add_pair(0.75, 0.0);
    }

    // Published: fastchess app/tests/sprt_test.cpp (Disservin/fastchess, commit
    // 0cbac4988fbac5bbe90716a4c36737c00c238bc5), alpha = beta = 0.05, checked
    // there with doctest::Approx(..).epsilon(0.01). Trinomial `Stats(wins,
    // losses, draws)`, pentanomial `Stats(ll, ld, wl, dd, wd, ww)`.

    #[test]
    fn fastchess_normalized_trinomial() {
        // "normalized trinomial 1": W 36433 L 36027 D 68692, [0, 2] -> 0.92.
        assert_doctest_approx(llr_wdl(&wdl(36433, 68692, 36027), 0.0, 2.0, Model::Normalized), 0.92, 0.01, "1");
        // "normalized trinomial 2": W 10871 L 10650 D 20431, [-1.75, 0.25] -> 2.30.
        assert_doctest_approx(llr_wdl(&wdl(10871, 20431, 10650), -1.75, 0.25, Model::Normalized), 2.30, 0.01, "2");
        // Not used: "normalized trinomial 3" (D 16700 only, [0, 5] -> 2.97; an
        // older version has W 4250 only, [0, 10] -> 2.97). With every result in
        // one bin the MLE sits on the regularized empty bins, and the answer
        // depends on the solver; the exact values (-3.45 and 120.5) are checked
        // against a direct maximization in
        // `trinomial_llr_matches_direct_likelihood_maximization`.
    }

    #[test]
    fn fastchess_logistic_trinomial() {
        // "logistic trinomial 1": W 21404 L 21184 D 40708, [0.5, 2.5] -> -1.57.
        assert_doctest_approx(llr_wdl(&wdl(21404, 40708, 21184), 0.5, 2.5, Model::Logistic), -1.57, 0.01, "1");
        // "logistic trinomial 2": W 57433 L 57030 D 106593, [0, 2] -> -2.59.
        assert_doctest_approx(llr_wdl(&wdl(57433, 106593, 57030), 0.0, 2.0, Model::Logistic), -2.59, 0.01, "2");
    }

    #[test]
    fn fastchess_normalized_pentanomial() {
        // "normalized pentanomial 1": Stats(365, 16618, 36029, 200, 16974, 390), [0, 2] -> 2.25.
        let counts = fastchess_penta(365, 16618, 36029, 200, 16974, 390);
        assert_doctest_approx(llr_penta(&counts, 0.0, 2.0, Model::Normalized), 2.25, 0.01, "1");
        // "normalized pentanomial 2": Stats(127, 4883, 10311, 401, 5150, 104), [-1.75, 0.25] -> 3.01.
        let counts = fastchess_penta(127, 4883, 10311, 401, 5150, 104);
        assert_doctest_approx(llr_penta(&counts, -1.75, 0.25, Model::Normalized), 3.01, 0.01, "2");
        // Not used, as trinomial 3: "normalized pentanomial 3" (104 WW pairs
        // only, [0, 5] -> 2.94; an older version has 5550 WW pairs -> 2.94).
    }

    #[test]
    fn fastchess_logistic_pentanomial() {
        // "logistic pentanomial 1": Stats(223, 9863, 20279, 1000, 10037, 246), [0.5, 2.5] -> -3.07.
        let counts = fastchess_penta(223, 9863, 20279, 1000, 10037, 246);
        assert_doctest_approx(llr_penta(&counts, 0.5, 2.5, Model::Logistic), -3.07, 0.01, "1");
        // "logistic pentanomial 2": Stats(871, 26175, 55003, 980, 26678, 821), [0, 2] -> -4.98.
        let counts = fastchess_penta(871, 26175, 55003, 980, 26678, 821);
        assert_doctest_approx(llr_penta(&counts, 0.0, 2.0, Model::Logistic), -4.98, 0.01, "2");
    }

    // Published: ShogiHome src/tests/renderer/game/sprt.spec.ts
    // (sunfish-shogi/shogihome, commit f9711a39d20ba7bf91a9e977011f2ca1113cf245):
    // normalized pentanomial [LL, LD, DD+WL, WD, WW], alpha = beta = 0.05,
    // checked there with toBeCloseTo(llr, 2), i.e. within 0.005. The first
    // eight (small, some with empty bins) are ShogiHome's own port of
    // fishtest's algorithm; the other fifteen are fishtest tests, each with
    // its tests.stockfishchess.org URL in the source.
    #[test]
    fn fishtest_results_via_shogihome() {
        let vectors: [([u64; 5], f64, f64, f64); 23] = [
            ([0, 0, 0, 0, 0], -1.75, 0.25, 0.0),
            ([10, 5, 2, 5, 10], -1.75, 0.25, 0.0),
            ([0, 0, 0, 0, 3], -1.75, 0.25, 0.02),
            ([3, 0, 0, 0, 0], -1.75, 0.25, -0.02),
            ([0, 0, 0, 0, 10], -1.75, 0.25, 0.08),
            ([10, 0, 0, 0, 0], -1.75, 0.25, -0.08),
            ([0, 2, 4, 6, 10], -1.75, 0.25, 0.13),
            ([10, 6, 4, 2, 0], -1.75, 0.25, -0.13),
            ([19, 4020, 10316, 4215, 24], -1.75, 0.25, 2.94),
            ([103, 3851, 8316, 3728, 98], 0.0, 2.0, -2.03),
            ([291, 10353, 21899, 10175, 306], 0.0, 2.0, -3.08),
            ([99, 3323, 8399, 3606, 109], 0.0, 2.0, 2.98),
            ([2, 40, 72, 14, 0], 0.0, 2.0, -0.36),
            ([326, 12015, 26044, 12357, 362], 0.0, 2.0, 2.93),
            ([59, 6427, 15570, 6693, 91], 0.0, 2.0, 2.94),
            ([328, 12094, 26412, 11964, 338], 0.0, 2.0, -2.93),
            ([900, 30596, 67292, 30899, 809], 0.0, 2.0, -2.96),
            ([45, 8506, 25934, 8883, 57], 0.5, 2.5, 2.94),
            ([14, 6935, 20257, 7273, 30], 0.5, 2.5, 2.95),
            ([105, 19880, 51075, 20005, 108], 0.5, 2.5, -2.94),
            ([68, 15448, 39104, 15441, 94], 0.5, 2.5, -2.94),
            ([41, 5118, 12924, 5334, 31], -1.75, 0.25, 2.94),
            ([36, 5804, 14811, 5986, 39], -1.75, 0.25, 2.94),
        ];
        for (counts, elo0, elo1, expected) in vectors {
            let status = sprt_penta(&penta(counts), elo0, elo1, 0.05, 0.05, Model::Normalized);
            assert_close(status.llr, expected, 0.005, &format!("{counts:?} [{elo0}, {elo1}]"));
            assert_close(status.lower, -2.94, 0.005, "lower bound");
            assert_close(status.upper, 2.94, 0.005, "upper bound");
        }
    }

    // Published: a fastchess run's report quoted in heofthetea/dhbw
    // semester-5/thunfisch/SPRT.md: "Ptnml(0-2): [0, 0, 2, 0, 37]",
    // "LLR: 2.96 (100.6%) (-2.94, 2.94) [0.00, 20.00]", "SPRT ([0.00, 20.00])
    // completed - H1 was accepted" (normalized, the fastchess default), and
    // "Elo: 631.91", "nElo: 1056.68 +/- 77.10". Printed with 2 decimals.
    #[test]
    fn fastchess_report_quoted_in_dhbw_notes() {
        let counts = penta([0, 0, 2, 0, 37]);
        let status = sprt_penta(&counts, 0.0, 20.0, 0.05, 0.05, Model::Normalized);
        assert_close(status.llr, 2.96, 0.005, "LLR");
        assert_eq!(status.verdict, Verdict::AcceptH1);
        assert_close(elo_penta(&counts).value, 631.91, 0.005, "Elo");
        assert_close(nelo_penta(&counts).value, 1056.68, 0.005, "nElo");
        assert_close(nelo_penta(&counts).error(), 77.10, 0.005, "nElo error");
    }

    // Published: fastchess app/tests/elo_test.cpp (Disservin/fastchess, commit
    // 2f5e88819ee01f879ed3078208092099f04cfba3), doctest::Approx(..).epsilon(0.01);
    // "error" is fastchess's half-width of the 95% interval.
    #[test]
    fn fastchess_elo_from_games() {
        // "EloWDL 1": Stats(76, 89, 123) = W 76 L 89 D 123 -> nElo -20.76 ± 40.13.
        let games = wdl(76, 123, 89);
        assert_doctest_approx(nelo_wdl(&games).value, -20.76, 0.01, "1 nElo");
        assert_doctest_approx(nelo_wdl(&games).error(), 40.13, 0.01, "1 nElo error");
        // "EloWDL 2": W 136 L 96 D 111 -> nElo 49.77 ± 36.77, Elo 40.70 ± 30.43.
        let games = wdl(136, 111, 96);
        assert_doctest_approx(nelo_wdl(&games).value, 49.77, 0.01, "2 nElo");
        assert_doctest_approx(nelo_wdl(&games).error(), 36.77, 0.01, "2 nElo error");
        assert_doctest_approx(elo_wdl(&games).value, 40.70, 0.01, "2 Elo");
        assert_doctest_approx(elo_wdl(&games).error(), 30.43, 0.01, "2 Elo error");
        // "EloWDL 3": W 34 L 356 D 0 -> nElo -508.44 ± 34.48.
        let games = wdl(34, 0, 356);
        assert_doctest_approx(nelo_wdl(&games).value, -508.44, 0.01, "3 nElo");
        assert_doctest_approx(nelo_wdl(&games).error(), 34.48, 0.01, "3 nElo error");
    }

    #[test]
    fn fastchess_elo_from_pairs() {
        // "EloPentanomial 1": Stats(34, 54, 31, 32, 64, 75) -> nElo 57.94 ± 28.28, Elo 55.58 ± 27.65.
        let counts = fastchess_penta(34, 54, 31, 32, 64, 75);
        assert_doctest_approx(nelo_penta(&counts).value, 57.94, 0.01, "1 nElo");
        assert_doctest_approx(nelo_penta(&counts).error(), 28.28, 0.01, "1 nElo error");
        assert_doctest_approx(elo_penta(&counts).value, 55.58, 0.01, "1 Elo");
        assert_doctest_approx(elo_penta(&counts).error(), 27.65, 0.01, "1 Elo error");
        // "EloPentanomial 2": Stats(332, 433, 457, 41, 333, 334) -> nElo -9.17 ± 10.96, Elo -8.64 ± 10.33.
        let counts = fastchess_penta(332, 433, 457, 41, 333, 334);
        assert_doctest_approx(nelo_penta(&counts).value, -9.17, 0.01, "2 nElo");
        assert_doctest_approx(nelo_penta(&counts).error(), 10.96, 0.01, "2 nElo error");
        assert_doctest_approx(elo_penta(&counts).value, -8.64, 0.01, "2 Elo");
        assert_doctest_approx(elo_penta(&counts).error(), 10.33, 0.01, "2 Elo error");
        // "EloPentanomial 3": Stats(7895, 8757, 5485, 200, 568, 9999) -> nElo -19.01 ± 2.65, Elo -21.04 ± 2.95.
        let counts = fastchess_penta(7895, 8757, 5485, 200, 568, 9999);
        assert_doctest_approx(nelo_penta(&counts).value, -19.01, 0.01, "3 nElo");
        assert_doctest_approx(nelo_penta(&counts).error(), 2.65, 0.01, "3 nElo error");
        assert_doctest_approx(elo_penta(&counts).value, -21.04, 0.01, "3 Elo");
        assert_doctest_approx(elo_penta(&counts).error(), 2.95, 0.01, "3 Elo error");
    }

    // Published, for the fallback: racetrack src/tests/sprt_tests.rs
    // (MortenLohne/racetrack, commit 4059b8219b9d78d282f9a2a9fad2653e1f9ec37d)
    // computes the normalized LLR with Van den Bergh's section 4.2
    // approximation, as our fallback does; alpha 0.05, beta 0.10, within 0.01.
    // (racetrack adds 1e-2 to every bin; none of these has an empty bin, so
    // that does not show at this precision.)
    #[test]
    fn racetrack_normalized_approximation() {
        let vectors = [
            ([440, 2910, 5170, 2888, 455], 0.0, 5.0, -2.27),
            ([142, 620, 1122, 699, 188], 0.0, 5.0, 2.99),
            ([349, 1561, 3340, 1604, 359], -5.0, 0.0, 2.90),
            ([98, 382, 674, 369, 71], -5.0, 0.0, -1.11),
        ];
        for (counts, elo0, elo1, expected) in vectors {
            let sample = Sample::regularized(&counts);
            let approximation = llr_normalized_approximation(&sample, GamesPerSample::Two, elo0, elo1);
            assert_close(approximation, expected, 0.01, &format!("{counts:?}"));
            // And the exact LLR is near its approximation.
            assert_close(llr_penta(&penta(counts), elo0, elo1, Model::Normalized), expected, 0.15, "exact");
        }
    }

    /// The log-likelihood `Σ nᵢ ln pᵢ` of `counts` (empty bins as EMPTY_BIN)
    /// under the three-outcome law `[pL, pD, pW]`.
    fn log_likelihood(counts: [u64; 3], probabilities: [f64; 3]) -> f64 {
        let sample = Sample::regularized(&counts);
        (0..3).map(|i| sample.size * sample.frequencies[i] * probabilities[i].ln()).sum()
    }

    /// Maximizes a unimodal function of one variable on `(low, high)` by
    /// golden-section search.
    fn maximize(mut low: f64, mut high: f64, f: impl Fn(f64) -> f64) -> f64 {
        let ratio = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..200 {
            let a = high - ratio * (high - low);
            let b = low + ratio * (high - low);
            if f(a) < f(b) {
                low = a;
            } else {
                high = b;
            }
        }
        f((low + high) / 2.0)
    }

    // Cross-check (not published): with three outcomes, a law is fixed by its
    // draw rate pD and one constraint, so the generalized LLR can be computed
    // by maximizing the likelihood directly over pD.
    //
    // Logistic: a mean score s gives pW = s - pD/2, pL = 1 - s - pD/2.
    // Normalized: d = pW - pL has (mu - 1/2)/sigma = d / sqrt(1 - pD - d²) = t,
    // so d = t sqrt((1 - pD) / (1 + t²)).
    #[test]
    fn trinomial_llr_matches_direct_likelihood_maximization() {
        let samples = [
            wdl(120, 260, 100),
            wdl(36433, 68692, 36027),
            wdl(5, 0, 9),
            wdl(30, 100, 0),
            wdl(0, 16700, 0),
            wdl(4250, 0, 0),
        ];
        for games in samples {
            let counts = games.by_score();
            for (elo0, elo1) in [(0.0, 5.0), (0.0, 10.0), (-10.0, 10.0), (-1.75, 0.25)] {
                let best_with_mean = |s: f64| {
                    let upper = 2.0 * s.min(1.0 - s);
                    maximize(0.0, upper, |pd| log_likelihood(counts, [1.0 - s - pd / 2.0, pd, s - pd / 2.0]))
                };
                let direct = best_with_mean(logistic_score(elo1)) - best_with_mean(logistic_score(elo0));
                let llr = llr_wdl(&games, elo0, elo1, Model::Logistic);
                assert_close(llr, direct, 1e-6 * (1.0 + direct.abs()), &format!("logistic {games:?} [{elo0}, {elo1}]"));

                let best_with_t = |nelo: f64| {
                    let t = nelo / NELO_PER_T_VALUE;
                    maximize(0.0, 1.0, |pd| {
                        let d = t * ((1.0 - pd) / (1.0 + t * t)).sqrt();
                        log_likelihood(counts, [(1.0 - pd - d) / 2.0, pd, (1.0 - pd + d) / 2.0])
                    })
                };
                let direct = best_with_t(elo1) - best_with_t(elo0);
                let llr = llr_wdl(&games, elo0, elo1, Model::Normalized);
                assert_close(
                    llr,
                    direct,
                    1e-6 * (1.0 + direct.abs()),
                    &format!("normalized {games:?} [{elo0}, {elo1}]"),
                );
            }
        }
    }

    // Cross-check: seen from the other engine (pentanomial reversed), H0 and
    // H1 trade places with their Elo negated, and the LLR is the same.
    #[test]
    fn llr_is_symmetric_under_swapping_the_engines() {
        let counts = [291, 10353, 21899, 10175, 306];
        let mut reversed = counts;
        reversed.reverse();
        for model in [Model::Normalized, Model::Logistic] {
            let llr = llr_penta(&penta(counts), 0.0, 2.0, model);
            let swapped = llr_penta(&penta(reversed), -2.0, 0.0, model);
            assert_close(llr, -swapped, 1e-9, "reversed, hypotheses swapped");
            assert_close(llr, -llr_penta(&penta(counts), 2.0, 0.0, model), 1e-9, "hypotheses swapped");
        }
    }

    // Far-off bounds push the fixed point from the uniform start out of its
    // domain; the continuation (or at worst the approximation) still answers.
    #[test]
    fn far_off_bounds_still_give_a_finite_llr() {
        for counts in [[0, 0, 2, 0, 37], [3, 40, 100, 45, 2], [37, 0, 2, 0, 0]] {
            for (elo0, elo1) in [(0.0, 400.0), (-800.0, -300.0), (300.0, 1000.0)] {
                for model in [Model::Normalized, Model::Logistic] {
                    let llr = llr_penta(&penta(counts), elo0, elo1, model);
                    assert!(llr.is_finite(), "{counts:?} [{elo0}, {elo1}] {model}: {llr}");
                }
            }
        }
    }

    #[test]
    fn no_games_means_llr_zero_and_no_estimate() {
        let status = sprt_penta(&Pentanomial::default(), 0.0, 5.0, 0.05, 0.05, Model::Normalized);
        assert_eq!((status.llr, status.verdict), (0.0, Verdict::Continue));
        assert_eq!(llr_wdl(&Wdl::default(), 0.0, 5.0, Model::Logistic), 0.0);
        for estimate in [
            elo_penta(&Pentanomial::default()),
            nelo_penta(&Pentanomial::default()),
            elo_wdl(&Wdl::default()),
            nelo_wdl(&Wdl::default()),
        ] {
            assert_eq!(estimate, Estimate::NONE);
        }
        assert_eq!(
            running_line(&Wdl::default(), &Pentanomial::default(), Some((0.0, 5.0, 0.05, 0.05, Model::Normalized))),
            "Games 0: W 0 L 0 D 0 | Penta [0, 0, 0, 0, 0] | Elo n/a | nElo n/a | LLR 0.00 (-2.94, 2.94) [0, 5]"
        );
    }

    #[test]
    fn one_sided_results_give_finite_estimates() {
        for estimate in
            [elo_penta(&penta([0, 0, 0, 0, 9])), nelo_penta(&penta([0, 0, 0, 0, 9])), elo_wdl(&wdl(0, 7, 0))]
        {
            assert!(
                estimate.value.is_finite() && estimate.low.is_finite() && estimate.high.is_finite(),
                "{estimate:?}"
            );
            assert!(estimate.low <= estimate.value && estimate.value <= estimate.high, "{estimate:?}");
        }
    }

    #[test]
    fn verdicts_follow_the_bounds() {
        let strong = penta([14, 6935, 20257, 7273, 30]);
        assert_eq!(sprt_penta(&strong, 0.5, 2.5, 0.05, 0.05, Model::Normalized).verdict, Verdict::AcceptH1);
        let weak = penta([291, 10353, 21899, 10175, 306]);
        assert_eq!(sprt_penta(&weak, 0.0, 2.0, 0.05, 0.05, Model::Normalized).verdict, Verdict::AcceptH0);
        let unsure = penta([2, 40, 72, 14, 0]);
        assert_eq!(sprt_penta(&unsure, 0.0, 2.0, 0.05, 0.05, Model::Normalized).verdict, Verdict::Continue);
    }

    #[test]
    fn running_lines() {
        let games = wdl(40, 45, 35);
        let pairs = penta([2, 15, 26, 14, 3]);
        let line = running_line(&games, &pairs, Some((0.0, 5.0, 0.05, 0.05, Model::Normalized)));
        let elo = elo_penta(&pairs);
        let nelo = nelo_penta(&pairs);
        let llr = llr_penta(&pairs, 0.0, 5.0, Model::Normalized);
        assert_eq!(
            line,
            format!(
                "Games 120: W 40 L 35 D 45 | Penta [2, 15, 26, 14, 3] | Elo {:.1} ± {:.1} | nElo {:.1} ± {:.1} | \
                 LLR {llr:.2} (-2.94, 2.94) [0, 5]",
                elo.value,
                elo.error(),
                nelo.value,
                nelo.error()
            )
        );
        assert!(!running_line(&games, &pairs, None).contains("LLR"));
        // Before the first pair is complete, the estimates come from the games.
        let early = running_line(&wdl(1, 0, 0), &Pentanomial::default(), None);
        assert!(early.starts_with("Games 1: W 1 L 0 D 0 | Penta [0, 0, 0, 0, 0] | Elo 1"), "{early}");
    }

    #[test]
    fn reports_for_people_and_scripts() {
        let args = parse(&["--penta", "3,40,100,45,2", "--elo0", "0", "--elo1", "5"]).unwrap();
        let results = args.results().unwrap();
        let report = Report::new(&args, &results);
        let text = report.text(&args, &results);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], format!("LLR {} (-2.94, 2.94) [0.00, 5.00] continue", fixed(report.status.llr, 2)));
        assert_eq!(lines[1], "Model normalized, alpha 0.05, beta 0.05");
        assert_eq!(lines[2], "Pairs 190 (380 games): Penta [3, 40, 100, 45, 2]");
        assert!(lines[3].starts_with("Elo ") && lines[4].starts_with("nElo "), "{text}");
        let json = report.json(&args, &results);
        assert_eq!((json["pairs"].as_u64(), json["games"].as_u64()), (Some(190), Some(380)));
        assert_eq!(json["model"], "normalized");
        assert_eq!(json["nelo"]["value"].as_f64(), Some(report.nelo.value));

        let args = parse(&["--wdl", "0,0,0", "--elo0", "0", "--elo1", "5"]).unwrap();
        let results = args.results().unwrap();
        let report = Report::new(&args, &results);
        let text = report.text(&args, &results);
        assert!(text.contains("Games 0: W 0 D 0 L 0\nElo n/a\nnElo n/a\n"), "{text}");
        assert!(report.json(&args, &results)["elo"].is_null());
    }

    #[test]
    fn rounded_zero_has_no_sign() {
        assert_eq!((fixed(-0.0, 2), fixed(-0.001, 2), fixed(-0.005, 1)), ("0.00".into(), "0.00".into(), "0.0".into()));
        assert_eq!((fixed(-0.01, 2), fixed(2.944, 2)), ("-0.01".into(), "2.94".into()));
    }

    #[test]
    fn counts_parse_and_bad_counts_are_explained() {
        assert_eq!(parse_counts("--penta", "", "3,40,100,45,2", 5).unwrap(), vec![3, 40, 100, 45, 2]);
        assert_eq!(parse_counts("--penta", "", "[3, 40, 100, 45, 2]", 5).unwrap(), vec![3, 40, 100, 45, 2]);
        let message =
            |text: &str, expected| format!("{:#}", parse_counts("--wdl", "W,D,L", text, expected).unwrap_err());
        assert!(message("1,2", 3).contains("takes 3 counts W,D,L, but \"1,2\" has 2"));
        assert!(message("1,-2,3", 3).contains("-2 is negative"));
        assert!(message("1,x,3", 3).contains("\"x\" is not a count"));
        assert!(message("1,2.5,3", 3).contains("\"2.5\" is not a count"));
        assert!(message("1,,3", 3).contains("\"\" is not a count"));
    }

    /// The command line as `lab` builds it: the global options beside ours.
    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        global: GlobalArgs,
        #[command(flatten)]
        sprt: SprtArgs,
    }

    #[test]
    fn command_line_definition_is_valid() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    fn parse(line: &[&str]) -> std::result::Result<SprtArgs, clap::Error> {
        use clap::Parser;
        Cli::try_parse_from(std::iter::once("sprt").chain(line.iter().copied())).map(|cli| cli.sprt)
    }

    #[test]
    fn command_line_is_checked() {
        let args = parse(&["--penta", "3,40,100,45,2", "--elo0", "-1.75", "--elo1", "0.25"]).unwrap();
        assert_eq!(
            (args.elo0, args.elo1, args.alpha, args.beta, args.model),
            (-1.75, 0.25, 0.05, 0.05, Model::Normalized)
        );
        assert_eq!(args.results().unwrap(), Results::Pairs(penta([3, 40, 100, 45, 2])));
        args.check_test().unwrap();

        let args = parse(&["--wdl", "10,20,5", "--elo0", "0", "--elo1", "5", "--model", "logistic"]).unwrap();
        assert_eq!(args.results().unwrap(), Results::Games(wdl(10, 20, 5)));
        assert_eq!(args.model, Model::Logistic);

        assert!(parse(&["--penta", "1,2,3,4,5", "--wdl", "1,2,3", "--elo0", "0", "--elo1", "5"]).is_err());
        assert!(parse(&["--elo0", "0", "--elo1", "5"]).is_err());
        let check = |line: &[&str]| format!("{:#}", parse(line).unwrap().check_test().unwrap_err());
        assert!(check(&["--wdl", "1,2,3", "--elo0", "5", "--elo1", "5"]).contains("less than --elo1"));
        assert!(check(&["--wdl", "1,2,3", "--elo0", "0", "--elo1", "5", "--alpha", "0.5"]).contains("--alpha"));
        assert!(check(&["--wdl", "1,2,3", "--elo0", "0", "--elo1", "5", "--beta", "0"]).contains("--beta"));
        let args = parse(&["--penta", "-1,2,3,4,5", "--elo0", "0", "--elo1", "5"]).unwrap();
        assert!(format!("{:#}", args.results().unwrap_err()).contains("negative"));
    }
}
