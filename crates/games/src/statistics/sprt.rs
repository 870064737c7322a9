//! The SPRT, all in this room: here the generalized SPRT (the
//! log-likelihood ratio of H1 against H0, Wald's bounds, and the verdict);
//! the options every command spells the same way (`options`); how many
//! more games it needs (`remaining`); and the `lab sprt` command, which
//! applies it to results from elsewhere (`command`).

pub mod command;
pub mod options;
pub mod remaining;

use std::fmt;

use serde::{Deserialize, Serialize};

use super::elo::{logistic_score, Model, NELO_PER_T_VALUE};
use super::mle::{mle_with_mean, mle_with_t_value};
use super::outcomes::{Pentanomial, Wdl};
use super::sample::{mean_and_variance, GamesPerSample, Sample};

/// Where an SPRT stands: it accepted H0 or H1, or it goes on. (A match's
/// `run.json` and the atlas store it as its `verdict`.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SprtState {
    AcceptH0,
    AcceptH1,
    Continue,
}

impl SprtState {
    /// Where `llr` stands against Wald's bounds `lower` and `upper`.
    pub fn of(llr: f64, lower: f64, upper: f64) -> SprtState {
        if llr >= upper {
            SprtState::AcceptH1
        } else if llr <= lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

impl fmt::Display for SprtState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtState::AcceptH0 => "H0 accepted",
            SprtState::AcceptH1 => "H1 accepted",
            SprtState::Continue => "continue",
        })
    }
}

/// The state of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtStatus {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub verdict: SprtState,
}

impl SprtStatus {
    fn new(llr: f64, alpha: f64, beta: f64) -> SprtStatus {
        let (lower, upper) = bounds(alpha, beta);
        SprtStatus { llr, lower, upper, verdict: SprtState::of(llr, lower, upper) }
    }
}

/// An SPRT: H0 = `elo0` against H1 = `elo1`, in `model`'s Elo, with false
/// positive rate `alpha` and false negative rate `beta`.
// A match's run.json stores it and `--resume` compares it with the new
// arguments' JSON, so the field names are what earlier runs wrote.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtSettings {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: Model,
}

impl SprtSettings {
    /// The SPRT on game pairs.
    pub fn on_pairs(&self, penta: &Pentanomial) -> SprtStatus {
        sprt_penta(penta, self.elo0, self.elo1, self.alpha, self.beta, self.model)
    }

    /// The SPRT on single games (trinomial model).
    pub fn on_games(&self, wdl: &Wdl) -> SprtStatus {
        sprt_wdl(wdl, self.elo0, self.elo1, self.alpha, self.beta, self.model)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statistics::test_support::*;

    #[test]
    fn an_sprt_state_is_where_the_llr_stands_against_the_bounds_which_decide() {
        assert_eq!(SprtState::of(2.94, -2.94, 2.94), SprtState::AcceptH1);
        assert_eq!(SprtState::of(-2.94, -2.94, 2.94), SprtState::AcceptH0);
        assert_eq!(SprtState::of(2.93, -2.94, 2.94), SprtState::Continue);
        assert_eq!(SprtState::of(-3.5, -2.94, 2.94).to_string(), "H0 accepted");
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

    // fishtest's own LLR (LLR_normalized and LLR_logistic, its published
    // code at the commit the file names) on a grid: every pentanomial of up to
    // 6 pairs, every trinomial of up to 10 games, the counts on which a
    // Newton step from 0 lands on the secular equation's pole (LD = 3 WD + 8
    // WW and its mirror), and lopsided samples, at bounds [0, 5], [-5, 0],
    // [-3, 3] and [0, 3] in both models. tests/fishtest-llr/generate.py wrote
    // it with fishtest's code; nothing of ours computed it.
    #[test]
    fn llr_matches_fishtest_on_a_grid_of_results() {
        let fixture = include_str!("../../tests/fishtest-llr/llr.csv");
        let mut lines = fixture.lines().filter(|line| !line.starts_with('#'));
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let hypotheses: Vec<(Model, f64, f64)> = header[2..]
            .iter()
            .map(|column| {
                let fields: Vec<&str> = column.split(' ').collect();
                let model = match fields[0] {
                    "normalized" => Model::Normalized,
                    "logistic" => Model::Logistic,
                    other => panic!("model {other}"),
                };
                (model, fields[1].parse().unwrap(), fields[2].parse().unwrap())
            })
            .collect();
        let (mut compared, mut failures) = (0, Vec::new());
        for line in lines {
            let fields: Vec<&str> = line.split(',').collect();
            let counts: Vec<u64> = fields[1].split(' ').map(|count| count.parse().unwrap()).collect();
            for ((model, elo0, elo1), expected) in hypotheses.iter().zip(&fields[2..]) {
                let expected: f64 = expected.parse().expect("fishtest answered every row of the grid");
                let llr = match counts.len() {
                    5 => llr_penta(&penta(counts.clone().try_into().unwrap()), *elo0, *elo1, *model),
                    3 => llr_wdl(&wdl(counts[2], counts[1], counts[0]), *elo0, *elo1, *model),
                    other => panic!("{other} bins"),
                };
                compared += 1;
                if !((llr - expected).abs() <= (0.01 * expected.abs()).max(0.02)) {
                    failures
                        .push(format!("{} {counts:?} {model} [{elo0}, {elo1}]: {llr} against {expected}", fields[0]));
                }
            }
        }
        assert!(compared > 7000, "{compared} values compared");
        assert!(failures.is_empty(), "{} of {compared} differ from fishtest:\n{}", failures.len(), failures.join("\n"));
    }

    // The three results with which an independent check found the pole: the
    // first Newton step from 0 landed on it (LD = 3 WD + 8 WW), and the SPRT
    // decided the opposite of what fishtest decides.
    #[test]
    fn results_on_the_secular_equations_pole_get_fishtests_llr_and_decision() {
        let regression = penta([25, 35, 20, 9, 1]);
        let gain = penta([1, 6, 8, 26, 27]);
        for (counts, elo0, elo1, expected) in
            [(regression, -5.0, 0.0, -1.121), (gain, 0.0, 5.0, 0.964), (regression, 0.0, 5.0, -1.155)]
        {
            let status = sprt_penta(&counts, elo0, elo1, 0.05, 0.05, Model::Normalized);
            assert_close(status.llr, expected, 0.001, &format!("{counts:?} [{elo0}, {elo1}]"));
            assert_eq!(status.verdict, SprtState::Continue, "{counts:?} [{elo0}, {elo1}]");
        }
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
    fn verdicts_follow_the_bounds() {
        let strong = penta([14, 6935, 20257, 7273, 30]);
        assert_eq!(sprt_penta(&strong, 0.5, 2.5, 0.05, 0.05, Model::Normalized).verdict, SprtState::AcceptH1);
        let weak = penta([291, 10353, 21899, 10175, 306]);
        assert_eq!(sprt_penta(&weak, 0.0, 2.0, 0.05, 0.05, Model::Normalized).verdict, SprtState::AcceptH0);
        let unsure = penta([2, 40, 72, 14, 0]);
        assert_eq!(sprt_penta(&unsure, 0.0, 2.0, 0.05, 0.05, Model::Normalized).verdict, SprtState::Continue);
    }

    // Runs started before this test existed stored exactly these names and
    // values in run.json; `--resume` must still accept them.
    #[test]
    fn settings_serialize_as_earlier_runs_stored_them() {
        let settings = SprtSettings { elo0: -1.75, elo1: 0.25, alpha: 0.05, beta: 0.1, model: Model::Normalized };
        let stored = r#"{"elo0":-1.75,"elo1":0.25,"alpha":0.05,"beta":0.1,"model":"Normalized"}"#;
        assert_eq!(serde_json::to_string(&settings).unwrap(), stored);
        assert_eq!(serde_json::from_str::<SprtSettings>(stored).unwrap(), settings);
        let logistic = SprtSettings { model: Model::Logistic, ..settings };
        assert!(serde_json::to_string(&logistic).unwrap().ends_with(r#""model":"Logistic"}"#));
    }
}
