//! The two Elo scales, logistic and normalized, and the Elo estimates of a
//! match with their 95% intervals.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::outcomes::{Pentanomial, Wdl};
use super::sample::{mean_and_variance, GamesPerSample, Sample};

/// Normalized Elo per unit of t-value: `800 / ln 10` (fishtest's
/// `nelo_divided_by_nt`).
pub(super) const NELO_PER_T_VALUE: f64 = 800.0 / std::f64::consts::LN_10;

/// The two-sided 95% quantile of the standard normal law.
const Z_95: f64 = 1.959_963_984_540_054;

/// Scores are kept in `[SCORE_CLAMP, 1 - SCORE_CLAMP]` before they become
/// logistic Elo (fishtest's `stat_util.elo`), so a perfect score reads
/// ±1199.8 Elo instead of infinity.
const SCORE_CLAMP: f64 = 1e-3;

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
    pub(super) const NONE: Estimate = Estimate { value: 0.0, low: 0.0, high: 0.0 };

    /// Half the interval's width: the "±" fastchess and fishtest print (the
    /// logistic interval is not quite symmetric around the value).
    pub fn error(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
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
pub(super) fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statistics::test_support::*;

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
}
