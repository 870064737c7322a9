//! SPRT and Elo, as pure functions of a match's counts: the match runner's
//! statistics, which `lab sprt` also applies to results from elsewhere
//! (fastchess, OpenBench, fishtest).
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
//!   exact answer (which `sprt` gives, checked by direct maximization in its
//!   tests) is -3.45.
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
//!
//! The parts, in the order they build on each other:
//!
//! - `outcomes`: the counts, pentanomial and W/D/L;
//! - `sample`: counts as an empirical distribution, empty bins regularized;
//! - `elo`: the logistic and normalized Elo scales, and the estimates;
//! - `openbench_elo`: Elo and its interval as OpenBench's pages show them;
//! - `mle`: the constrained maximum-likelihood distributions;
//! - `sprt`: the LLR, Wald's bounds and the verdict, with the `--sprt`
//!   options (`sprt::options`) and the `lab sprt` command (`sprt::command`);
//! - `text`: the numbers as `lab match` and `lab sprt` print them.

mod elo;
mod mle;
mod openbench_elo;
mod outcomes;
mod sample;
pub mod sprt;
#[cfg(test)]
mod test_support;
mod text;

pub use self::elo::{elo_penta, elo_wdl, nelo_penta, nelo_wdl, Estimate, Model};
pub use self::openbench_elo::{openbench_elo_penta, openbench_error, student_t_quantile};
pub use self::outcomes::{Pentanomial, Wdl};
pub use self::sprt::{SprtSettings, SprtState, SprtStatus};
pub use self::text::{fixed, format_estimate, format_penta, running_line};

// The statistics together, as a report prints them.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::statistics::sprt::{llr_wdl, sprt_penta};
    use crate::statistics::test_support::*;

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
        assert_eq!(status.verdict, SprtState::AcceptH1);
        assert_close(elo_penta(&counts).value, 631.91, 0.005, "Elo");
        assert_close(nelo_penta(&counts).value, 1056.68, 0.005, "nElo");
        assert_close(nelo_penta(&counts).error(), 77.10, 0.005, "nElo error");
    }

    #[test]
    fn no_games_means_llr_zero_and_no_estimate() {
        let status = sprt_penta(&Pentanomial::default(), 0.0, 5.0, 0.05, 0.05, Model::Normalized);
        assert_eq!((status.llr, status.verdict), (0.0, SprtState::Continue));
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
            running_line(
                &Wdl::default(),
                &Pentanomial::default(),
                Some(&SprtSettings { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05, model: Model::Normalized })
            ),
            "Games 0: W 0 L 0 D 0 | Penta [0, 0, 0, 0, 0] | Elo n/a | nElo n/a | LLR 0.00 (-2.94, 2.94) [0, 5]"
        );
    }
}
