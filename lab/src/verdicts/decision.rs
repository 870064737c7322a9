//! What games decide: one rule, for every command that reads games (the
//! atlas, `lab ab`, `lab chain`, `lab report`), and the p-value of each
//! result, by which a count of decided results is corrected for how many
//! were tested (Holm's step-down procedure).
//!
//! The rule, in order:
//!
//! 1. Games not played to their end (still running, killed, stopped by an
//!    error) are a sample of no planned size: they decide nothing.
//! 2. An SPRT that concluded decides by its bounds: H1 accepted with
//!    `elo0 >= 0` is a gain, with `elo0 < 0` no loss (no regression of
//!    `-elo0`); H0 accepted with `elo1 <= 0` is a loss, with `elo1 > 0` no
//!    gain (none of `elo1`). A sequential test's interval is not read: looked
//!    at after every pair, it excludes 0 by chance far more often than 5%.
//! 3. Games played to their planned end without an SPRT verdict (no SPRT, or
//!    its games cap reached) are one look at a sample of preplanned size: the
//!    95% Elo interval above 0 is a gain, below 0 a loss, else undecided.
//!
//! The p-value of a result is that of the test that decided it (or would
//! have), against the hypothesis its decision rejects:
//!
//! - under rule 3, the two-sided p of Elo = 0 from the pentanomial's normal
//!   approximation, `erfc(|z| / √2)` with `z = (μ − ½) / √(var / n)` over `n`
//!   pairs: the test the 95% interval inverts, so p < 0.05 exactly when the
//!   interval leaves out 0;
//! - under rule 2, the stage-wise p-value of the SPRT (the chance under the
//!   rejected bound that the LLR reaches the boundary it reached by the pair
//!   it reached it at), in the normal approximation of the LLR as a Brownian
//!   motion with drift −Δ/2 and variance Δ a pair, Δ the squared distance of
//!   the bounds in t-value units a pair; the lower boundary is ignored and
//!   the look after every pair taken as continuous, both of which can only
//!   raise it: `p = Φ((−a − s/2)/√s) + e^(−a) Φ((−a + s/2)/√s)` with
//!   `s = Δ·n` and `a` the boundary's distance from 0. An SPRT that crossed
//!   early is strong evidence; one that crossed late has `p` near `e^(−a)`,
//!   about α.
//!
//! Holm's procedure over the p-values of the results counted rejects, at a
//! familywise error of 5%, the smallest p-values while each is below
//! `0.05 / (m − i)`: a count after it is of decisions that are all right with
//! 95% confidence together, whatever the dependence between them (the
//! ablations share `full`, a chain's phases their neighbours), which
//! Benjamini–Hochberg's false-discovery count does not promise.

use std::f64::consts::{LN_10, SQRT_2};

use games::statistics::{nelo_penta, Model, Pentanomial, SprtState};
use serde::{Deserialize, Serialize};

/// The familywise error of the corrected count, and the level of each test.
pub const LEVEL: f64 = 0.05;

/// The two-sided 95% quantile of the standard normal law.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// What games say of the subject.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GamesSay {
    /// The Elo interval of a finished fixed sample lies above 0, or an SPRT
    /// with `elo0 >= 0` accepted H1.
    Gain,
    /// An SPRT with `elo1 > 0` accepted H0: no gain of `elo1`.
    NoGain,
    /// An SPRT with `elo0 < 0` accepted H1: no loss of `-elo0`.
    NoLoss,
    /// The Elo interval of a finished fixed sample lies below 0, or an SPRT
    /// with `elo1 <= 0` accepted H0.
    Loss,
    Undecided,
}

impl GamesSay {
    pub fn words(self) -> &'static str {
        match self {
            GamesSay::Gain => "a gain",
            GamesSay::NoGain => "no gain",
            GamesSay::NoLoss => "no loss",
            GamesSay::Loss => "a loss",
            GamesSay::Undecided => "nothing decided yet",
        }
    }

    /// The atlas's word: `won`, `lost`, `no gain`, `no loss`, `undecided`.
    pub fn outcome(self) -> &'static str {
        match self {
            GamesSay::Gain => "won",
            GamesSay::Loss => "lost",
            GamesSay::NoGain => "no gain",
            GamesSay::NoLoss => "no loss",
            GamesSay::Undecided => "undecided",
        }
    }

    /// +1 a gain, -1 a loss: the sign a fast measure's is set against. "No
    /// gain" and "no loss" bound the Elo on one side only and decide no sign.
    pub fn sign(self) -> Option<i8> {
        match self {
            GamesSay::Gain => Some(1),
            GamesSay::Loss => Some(-1),
            GamesSay::NoGain | GamesSay::NoLoss | GamesSay::Undecided => None,
        }
    }

    pub fn is_decided(self) -> bool {
        self != GamesSay::Undecided
    }

    /// Whether the games speak against the subject: a loss or no gain.
    pub fn is_against(self) -> bool {
        matches!(self, GamesSay::Loss | GamesSay::NoGain)
    }
}

/// An SPRT as it ended: its bounds (in `model`'s Elo), Wald's bounds of the
/// LLR and where the LLR stood.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtEnd {
    pub elo0: f64,
    pub elo1: f64,
    pub model: Model,
    pub lower: f64,
    pub upper: f64,
    pub verdict: SprtState,
}

/// A result's games, as much as the rule reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Games {
    /// Played to their end: an SPRT's verdict or every planned game.
    pub finished: bool,
    pub penta: Pentanomial,
    pub sprt: Option<SprtEnd>,
}

/// What a result decides, with the p-value of the test that decided it;
/// none for games not played to their end, which are not a test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    pub says: GamesSay,
    pub p_value: Option<f64>,
}

impl Games {
    /// The rule (the module's head).
    pub fn says(&self) -> GamesSay {
        if !self.finished || self.penta.pairs() == 0 {
            return GamesSay::Undecided;
        }
        match self.sprt.filter(|sprt| sprt.verdict != SprtState::Continue) {
            Some(sprt) => match sprt.verdict {
                SprtState::AcceptH1 if sprt.elo0 >= 0.0 => GamesSay::Gain,
                SprtState::AcceptH1 => GamesSay::NoLoss,
                SprtState::AcceptH0 if sprt.elo1 <= 0.0 => GamesSay::Loss,
                _ => GamesSay::NoGain,
            },
            None => {
                let z = self.z_of_zero();
                if z > Z_95 {
                    GamesSay::Gain
                } else if z < -Z_95 {
                    GamesSay::Loss
                } else {
                    GamesSay::Undecided
                }
            }
        }
    }

    /// The p-value of the test that decides (the module's head); `None` for
    /// games not played to their end or none at all.
    pub fn p_value(&self) -> Option<f64> {
        if !self.finished || self.penta.pairs() == 0 {
            return None;
        }
        let Some(sprt) = self.sprt.filter(|sprt| sprt.verdict != SprtState::Continue) else {
            return Some(libm::erfc(self.z_of_zero().abs() / SQRT_2));
        };
        let boundary = match sprt.verdict {
            SprtState::AcceptH1 => sprt.upper,
            _ => -sprt.lower,
        };
        let information = self.information(sprt);
        Some(boundary_reached_by(boundary, information))
    }

    pub fn decision(&self) -> Decision {
        Decision { says: self.says(), p_value: self.p_value() }
    }

    /// `(μ − ½) / √(var / n)` over the pairs: what the 95% interval is built
    /// on, read back from the nElo interval (`nElo = t · 800 / ln 10` and its
    /// half-width `1.96 · 800 / ln 10 / √n`, both over one σ).
    fn z_of_zero(&self) -> f64 {
        let nelo = nelo_penta(&self.penta);
        let half_width = (nelo.high - nelo.low) / 2.0;
        if half_width > 0.0 {
            Z_95 * nelo.value / half_width
        } else {
            0.0
        }
    }

    /// `s = Δ·n`: the squared distance of the SPRT's bounds in t-value units
    /// of a pair, times the pairs. In the normalized model a pair's t-value of
    /// `e` nElo is `√2 · e · ln 10 / 800`; in the logistic model it is the
    /// expected score's distance from ½ over the pairs' standard deviation
    /// (infinite information when every pair scored alike).
    fn information(&self, sprt: SprtEnd) -> f64 {
        let pairs = self.penta.pairs() as f64;
        let distance = match sprt.model {
            Model::Normalized => SQRT_2 * (sprt.elo1 - sprt.elo0) * LN_10 / 800.0,
            Model::Logistic => {
                let score = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
                let deviation = pair_score_deviation(&self.penta);
                if deviation == 0.0 {
                    return f64::INFINITY;
                }
                (score(sprt.elo1) - score(sprt.elo0)) / deviation
            }
        };
        distance * distance * pairs
    }
}

/// The standard deviation of a pair's score (0, ¼, ½, ¾ or 1) over the
/// observed pairs.
fn pair_score_deviation(penta: &Pentanomial) -> f64 {
    let pairs = penta.pairs() as f64;
    let score = |bin: usize| bin as f64 / 4.0;
    let mean = penta.0.iter().enumerate().map(|(bin, count)| score(bin) * *count as f64).sum::<f64>() / pairs;
    let variance =
        penta.0.iter().enumerate().map(|(bin, count)| (score(bin) - mean).powi(2) * *count as f64).sum::<f64>();
    (variance / pairs).sqrt()
}

/// The chance that a Brownian motion with drift −½ and unit variance, from
/// 0, reaches `boundary` (> 0) by time `information`: the first-passage law
/// `Φ((−a − s/2)/√s) + e^(−a) Φ((−a + s/2)/√s)`; `e^(−a)` in the limit.
fn boundary_reached_by(boundary: f64, information: f64) -> f64 {
    if information <= 0.0 {
        return 0.0;
    }
    if information.is_infinite() {
        return (-boundary).exp();
    }
    let root = information.sqrt();
    let phi = |x: f64| libm::erfc(-x / SQRT_2) / 2.0;
    (phi((-boundary - information / 2.0) / root) + (-boundary).exp() * phi((-boundary + information / 2.0) / root))
        .min(1.0)
}

/// Which of `p_values` Holm's step-down procedure rejects at a familywise
/// error of [`LEVEL`]: sorted ascending, the `i`-th smallest (from 0) is
/// rejected while every one before it was and it is at most
/// `LEVEL / (m − i)`.
pub fn holm_rejects(p_values: &[f64]) -> Vec<bool> {
    let count = p_values.len();
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by(|a, b| p_values[*a].total_cmp(&p_values[*b]));
    let mut rejected = vec![false; count];
    for (rank, index) in order.into_iter().enumerate() {
        if p_values[index] > LEVEL / (count - rank) as f64 {
            break;
        }
        rejected[index] = true;
    }
    rejected
}

/// A count of decided results and what is left of it after Holm's
/// correction over the results that were tests (played to their end).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    /// Results played to their end: the family Holm's correction is over.
    pub tested: usize,
    pub decided: usize,
    /// Decided, and rejected by Holm's procedure.
    pub after_holm: usize,
}

impl Tally {
    pub fn of(decisions: &[Decision]) -> Tally {
        let tested: Vec<(GamesSay, f64)> =
            decisions.iter().filter_map(|decision| Some((decision.says, decision.p_value?))).collect();
        let p_values: Vec<f64> = tested.iter().map(|(_, p)| *p).collect();
        let after_holm = tested
            .iter()
            .zip(holm_rejects(&p_values))
            .filter(|((says, _), rejected)| says.is_decided() && *rejected)
            .count();
        let decided = decisions.iter().filter(|decision| decision.says.is_decided()).count();
        Tally { tested: tested.len(), decided, after_holm }
    }

    /// `11 decided (8 after Holm's correction over the 31 tested)`.
    pub fn text(&self) -> String {
        format!(
            "{} decided ({} after Holm's correction over the {} tested)",
            self.decided, self.after_holm, self.tested
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(penta: [u64; 5]) -> Games {
        Games { finished: true, penta: Pentanomial(penta), sprt: None }
    }

    /// An SPRT in nElo with Wald's bounds at α = β = 0.05 (±ln 19).
    fn sprt((elo0, elo1): (f64, f64), verdict: SprtState) -> Option<SprtEnd> {
        let bound = 19f64.ln();
        Some(SprtEnd { elo0, elo1, model: Model::Normalized, lower: -bound, upper: bound, verdict })
    }

    fn close(ours: f64, theirs: f64, relative: f64) {
        assert!((ours - theirs).abs() <= relative * theirs.abs(), "{ours:e} against {theirs:e}");
    }

    #[test]
    fn the_rule_reads_a_concluded_sprt_by_its_bounds_and_a_finished_sample_by_its_interval() {
        let even = [10, 20, 40, 20, 10];
        let with = |bounds, verdict| Games { sprt: sprt(bounds, verdict), ..fixed(even) };
        assert_eq!(with((0.0, 5.0), SprtState::AcceptH1).says(), GamesSay::Gain);
        assert_eq!(with((0.0, 5.0), SprtState::AcceptH0).says(), GamesSay::NoGain);
        assert_eq!(with((-5.0, 0.0), SprtState::AcceptH1).says(), GamesSay::NoLoss);
        assert_eq!(with((-5.0, 0.0), SprtState::AcceptH0).says(), GamesSay::Loss);
        assert_eq!(with((-3.0, 3.0), SprtState::AcceptH0).says(), GamesSay::NoGain);
        assert_eq!(with((0.0, 5.0), SprtState::Continue).says(), GamesSay::Undecided);
        // p002-1.3 (atlas/atlas.jsonl): 1000 games, its SPRT [-2, 3] at LLR
        // 2.63 still going at the cap; +50.7 [34, 68] Elo is a gain.
        let p002_1_3 = [29, 72, 200, 123, 76];
        let capped = Games { sprt: sprt((-2.0, 3.0), SprtState::Continue), ..fixed(p002_1_3) };
        assert_eq!(capped.says(), GamesSay::Gain);
        assert_eq!(Games { finished: false, ..capped }.says(), GamesSay::Undecided);
        assert_eq!(Games { finished: false, ..capped }.p_value(), None);
        // Mirrored, a loss; no pairs, nothing.
        assert_eq!(fixed([76, 123, 200, 72, 29]).says(), GamesSay::Loss);
        assert_eq!(fixed([0; 5]).says(), GamesSay::Undecided);
        assert_eq!(fixed([0; 5]).p_value(), None);
        // All draws (an identical search's games): no variance, p = 1.
        assert_eq!(fixed([0, 0, 500, 0, 0]).says(), GamesSay::Undecided);
        assert_eq!(fixed([0, 0, 500, 0, 0]).p_value(), Some(1.0));
    }

    /// The fixed sample's p-value, from the pentanomial's mean and variance
    /// per pair computed apart: numpy 2.4 and scipy 1.17's
    /// `2 * norm.sf(|z|)`, `z = (m - 0.5) / sqrt(v / n)`, on the atlas's
    /// lines (/tmp script, run once; its values here).
    #[test]
    fn a_fixed_samples_p_value_is_the_two_sided_z_tests_the_interval_inverts() {
        let published = [
            ([29, 72, 200, 123, 76], 1.380_591_217_706e-9),  // p002-1.3, z = 6.0577
            ([40, 134, 190, 103, 33], 4.952_376_725_495e-2), // full-without-lmr, z = -1.9641
            ([34, 103, 195, 115, 53], 3.477_216_964_394e-2), // p003-1, z = 2.1110
            ([41, 116, 198, 99, 46], 7.679_629_369_307e-1),  // razor-r1, z = -0.2950
        ];
        for (penta, p) in published {
            close(fixed(penta).p_value().unwrap(), p, 1e-9);
        }
        // Below 0.05 exactly when the interval leaves out 0: full-without-lmr's
        // [-31.3, -0.0] is a loss at p = 0.0495.
        assert_eq!(fixed([40, 134, 190, 103, 33]).says(), GamesSay::Loss);
    }

    /// The SPRT's stage-wise p-value, `Φ((−a − s/2)/√s) + e^(−a) Φ((−a +
    /// s/2)/√s)`, `s = (√2 · 5 · ln 10 / 800)² · pairs`, `a = ln 19`, from
    /// scipy's `norm.cdf` on the atlas's four SPRTs that accepted H1 (all
    /// [0, 5] nElo); p002-2.1's in the logistic model (the pairs' standard
    /// deviation 0.26…) too. The formula itself was checked against a
    /// simulated Brownian motion with drift −½: at s = 2, 0.00709 against
    /// 0.00683 ± 0.00018 (200,000 paths of 2,000 steps); at s = 8, 0.04101
    /// against 0.0411 ± 0.0014 (20,000 of 4,000); the simulation's discrete
    /// steps can only reach the boundary less often.
    #[test]
    fn a_concluded_sprts_p_value_is_its_stage_wise_one() {
        let accepted = |penta: [u64; 5]| Games { sprt: sprt((0.0, 5.0), SprtState::AcceptH1), ..fixed(penta) };
        let published = [
            ([15, 54, 116, 93, 86], 7.606_199_684_568e-15),  // p002-2.1, s = 0.15077
            ([19, 59, 142, 131, 69], 3.757_081_276_520e-13), // p002-3.1
            ([3, 12, 31, 71, 86], 7.210_226_387_990e-25),    // full-old against baseline
            ([5, 29, 57, 67, 87], 5.435_349_959_301e-21),    // p003-3 against baseline
        ];
        for (penta, p) in published {
            close(accepted(penta).p_value().unwrap(), p, 1e-6);
        }
        let mut logistic = accepted([15, 54, 116, 93, 86]);
        logistic.sprt.as_mut().unwrap().model = Model::Logistic;
        close(logistic.p_value().unwrap(), 3.551_973_043_336e-10, 1e-6);
        // Reached late, the p-value tends to e^(−a) = 1/19 (about α); H0
        // reached mirrors H1.
        let late = Games { penta: Pentanomial([0, 50_000, 0, 50_000, 0]), ..accepted([0; 5]) };
        close(late.p_value().unwrap(), 1.0 / 19.0, 1e-3);
        let late_h0 = Games { sprt: sprt((0.0, 5.0), SprtState::AcceptH0), ..late };
        close(late_h0.p_value().unwrap(), 1.0 / 19.0, 1e-3);
        // Logistic bounds on pairs that all scored alike: infinite information.
        let alike = Games { penta: Pentanomial([0, 0, 0, 0, 40]), ..logistic };
        close(alike.p_value().unwrap(), 1.0 / 19.0, 1e-12);
        assert_eq!(boundary_reached_by(19f64.ln(), 0.0), 0.0);
    }

    /// statsmodels 0.14's `multipletests(p, alpha=0.05, method="holm")` on
    /// these seven: [1, 0, 1, 0, 1, 0, 1].
    #[test]
    fn holm_rejects_as_statsmodels_does() {
        let p_values = [0.0001, 0.02, 0.004, 0.3, 0.0015, 0.049, 0.012];
        assert_eq!(holm_rejects(&p_values), [true, false, true, false, true, false, true]);
        assert!(holm_rejects(&[]).is_empty());
        assert_eq!(holm_rejects(&[0.05]), [true]);
        assert_eq!(holm_rejects(&[0.04, 0.04]), [false, false]);
    }

    #[test]
    fn a_tally_counts_the_decided_and_what_holm_leaves_of_them() {
        let decision = |says, p_value| Decision { says, p_value };
        let decisions = [
            decision(GamesSay::Gain, Some(1e-9)),
            decision(GamesSay::Loss, Some(0.03)),
            decision(GamesSay::Undecided, Some(0.4)),
            decision(GamesSay::NoGain, Some(1e-4)),
            // Stopped early: no test, not in the family.
            decision(GamesSay::Undecided, None),
        ];
        let tally = Tally::of(&decisions);
        assert_eq!(tally, Tally { tested: 4, decided: 3, after_holm: 2 });
        assert_eq!(tally.text(), "3 decided (2 after Holm's correction over the 4 tested)");
        assert_eq!(Tally::of(&[]), Tally { tested: 0, decided: 0, after_holm: 0 });
    }

    /// p002-1.3 in the atlas: 1000 games, stopped at the cap with its SPRT
    /// [-2, 3] still going at LLR 2.63, +50.7 [34, 68] Elo. Read by the
    /// atlas, by `lab ab`'s evidence path (a `lab match` run of the same
    /// games) and by the report's three tables, it stands the same: a gain.
    #[test]
    fn p002_1_3_stands_alike_in_the_atlas_lab_ab_and_the_report() {
        use crate::verdicts::atlas::{entries, fast_measures, table};
        use crate::verdicts::{calibration, evidence};

        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let atlas = entries::read(&root.join(entries::ATLAS_FILE));
        let line = entries::latest_per_variant(&atlas).into_iter().find(|entry| entry.variant == "p002-1.3").unwrap();
        let status = line.sprt_status.unwrap();
        assert_eq!((line.games, line.stop.as_str(), status.verdict), (1000, "games", SprtState::Continue));
        assert_eq!(format!("{:.2}", status.llr), "2.63");
        // The atlas.
        assert_eq!(line.decision(), GamesSay::Gain);
        assert!(table::atlas_table(&[line]).lines().nth(2).unwrap().contains("| won |"));
        // `lab ab`: the same games as a `lab match` run's summary.
        let run = std::env::temp_dir().join(format!("prunelab-decision-{}/20261207T000000Z-match", std::process::id()));
        std::fs::create_dir_all(&run).unwrap();
        let engine = |name: &str| serde_json::json!({"name": name, "failures": {"time_losses": 0, "crashes": 0}});
        let summary = serde_json::json!({
            "engines": [engine("p002-1.3"), engine("p002-1.2c")], "tc": "N=10000", "book": null,
            "wdl": line.wdl, "penta": line.penta, "sprt": line.sprt, "sprt_status": line.sprt_status, "stop": "games",
        });
        std::fs::write(run.join("summary.json"), summary.to_string()).unwrap();
        let played = evidence::match_result(&run).unwrap();
        std::fs::remove_dir_all(run.parent().unwrap()).unwrap();
        assert_eq!(played.says(), GamesSay::Gain);
        assert_eq!(played.evidence().decision(), line.evidence().decision());
        let section = evidence::games_section(std::slice::from_ref(&played), &[]).unwrap();
        assert!(section.contains("say **a gain**"), "{section}");
        // The report: its games table, its atlas table (above) and its
        // calibration, from the atlas's own fast measures.
        let games = evidence::report_section(&[(vec![played], Vec::new())]).unwrap();
        assert!(games.lines().any(|row| row.starts_with("| p002-1.3 |") && row.ends_with("| a gain | - |")), "{games}");
        let pairs = calibration::measured_pairs(&root.join(fast_measures::FAST_FILE), &root.join("no-results"));
        let rows = calibration::rows(&atlas, &pairs);
        let row = rows.iter().find(|row| row.variant == "p002-1.3").unwrap();
        assert_eq!(row.games.says, GamesSay::Gain);
        let report = calibration::report_section(&rows).unwrap();
        assert!(report.lines().any(|row| row.starts_with("| p002-1.3 |") && row.ends_with("| +50.7 | won |")));
    }
}
