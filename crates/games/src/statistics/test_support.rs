//! What the statistics' tests share: results written as in their sources,
//! and the two ways those sources compare numbers.

use super::{Pentanomial, Wdl};

pub(super) fn penta(counts: [u64; 5]) -> Pentanomial {
    Pentanomial(counts)
}

pub(super) fn wdl(wins: u64, draws: u64, losses: u64) -> Wdl {
    Wdl { wins, draws, losses }
}

/// fastchess's pentanomial from its test constructor
/// `Stats(ll, ld, wl, dd, wd, ww)` (app/src/matchmaking/stats.hpp).
pub(super) fn fastchess_penta(ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64) -> Pentanomial {
    Pentanomial([ll, ld, wl + dd, wd, ww])
}

/// doctest's `Approx(expected).epsilon(e)`, which fastchess's tests use:
/// `|actual - expected| < e * (1 + max(|actual|, |expected|))`.
pub(super) fn assert_doctest_approx(actual: f64, expected: f64, epsilon: f64, what: &str) {
    let tolerance = epsilon * (1.0 + actual.abs().max(expected.abs()));
    assert!((actual - expected).abs() < tolerance, "{what}: {actual} is not {expected} within {tolerance}");
}

pub(super) fn assert_close(actual: f64, expected: f64, tolerance: f64, what: &str) {
    assert!((actual - expected).abs() < tolerance, "{what}: {actual} is not {expected} within {tolerance}");
}
