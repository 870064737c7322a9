//! The clock from fixed nodes. Games at fixed nodes leave speed out: a
//! change that makes each node cheaper (the staged picker) gains nothing
//! there and gains on the clock. The model puts it back:
//!
//! Elo at a time control ≈ Elo at fixed nodes + k · log2(B's speed ÷ A's),
//!
//! with k the Elo a doubling of nodes is worth at that budget (`node_odds`:
//! the search at 2N against itself at N) and the speed ratio B's nodes per
//! CPU second over A's (`speeds`: `lab speed`'s CPU-time measure). The
//! interval carries all three errors (the delta method: the parts are
//! independent measurements). `lab report` tests the model on every match
//! at a time control the atlas has all three parts for.

use std::fmt::Write;

use games::statistics::{student_t_quantile, Estimate};

use super::entries::AtlasEntry;
use super::node_odds::{self, NodeOddsEntry};
use super::speeds::SpeedEntry;
use super::time_controls::{fixed_nodes_result, TimeControlMatch};
use crate::measure::ratio::RatioEstimate;

/// The normal distribution's 97.5% quantile: a 95% interval's half-width in
/// standard errors.
const Z_95: f64 = 1.959_963_984_540_054;

/// An Elo estimate at a time control, with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClockEstimate {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

impl ClockEstimate {
    pub fn text(&self) -> String {
        format!("{:+.1} [{:+.1}, {:+.1}]", self.elo, self.low, self.high)
    }

    /// Whether its interval and `[low, high]` overlap.
    pub fn overlaps(&self, (low, high): (f64, f64)) -> bool {
        self.low <= high && low <= self.high
    }
}

/// The estimate from the Elo at fixed nodes, the Elo of a doubling, and
/// the speed ratio, each with its 95% interval: `fixed + k log2(speed)`,
/// its variance `se_fixed² + (log2 speed)² se_k² + k² se_log2(speed)²`
/// (each standard error from its interval: normal for the two Elo, Student's
/// t over the speed's rounds). `None` without a speed interval (one round).
pub fn estimate(fixed: Estimate, per_doubling: Estimate, speed: &RatioEstimate) -> Option<ClockEstimate> {
    let (low, high) = speed.interval?;
    if speed.positions < 2 || !(low > 0.0 && speed.ratio > 0.0) {
        return None;
    }
    let t = student_t_quantile(speed.positions as u64 - 1);
    let log_speed = speed.ratio.log2();
    let se_log_speed = (high.log2() - low.log2()) / (2.0 * t);
    let se = |estimate: Estimate| (estimate.high - estimate.low) / (2.0 * Z_95);
    let k = per_doubling.value;
    let elo = fixed.value + k * log_speed;
    let variance = se(fixed).powi(2) + (log_speed * se(per_doubling)).powi(2) + (k * se_log_speed).powi(2);
    let half = Z_95 * variance.sqrt();
    Some(ClockEstimate { elo, low: elo - half, high: elo + half })
}

/// `lab report`'s test of the model: each match at a time control that
/// has games at fixed nodes, a speed and a doubling at the atlas's budget,
/// its estimate beside the clock's result, and how many overlap (and how
/// many the fixed-nodes Elo alone overlaps).
pub fn section(
    records: &[TimeControlMatch],
    atlas: &[AtlasEntry],
    speeds: &[SpeedEntry],
    doublings: &[NodeOddsEntry],
) -> String {
    let mut out = String::from("## The clock estimate beside the clock\n\n");
    out.push_str(
        "Elo at a time control ≈ Elo at fixed nodes + k · log2(speed ratio), with k the Elo of a doubling of \
         nodes at the atlas's budget (`lab atlas --node-odds`) and the speed ratio the variant's nodes per CPU \
         second over its parent's (`lab atlas --speed`). Each interval is 95%.\n\n",
    );
    out.push_str(
        "| variant | parent | time control | Elo on the clock | Elo at fixed nodes | speed ratio | k (Elo a doubling) \
         | estimate | estimate overlaps | fixed nodes alone overlaps |\n|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let (mut tested, mut overlapping, mut fixed_overlapping) = (0, 0, 0);
    let mut missing: Vec<String> = Vec::new();
    for record in records {
        let parts = fixed_nodes_result(record, atlas).and_then(|entry| {
            let fixed = entry.elo?;
            let speed = speeds.iter().rev().find(|line| {
                line.searches.features == record.features && line.searches.parent_features == record.parent_features
            })?;
            let doubling = node_odds::per_doubling(doublings, &record.parent, entry.key.nodes)?;
            Some((fixed, speed, doubling))
        });
        let (Some((fixed, speed, doubling)), Some(clock)) = (parts, record.elo.interval()) else {
            missing.push(record.label());
            continue;
        };
        let k = doubling.elo.expect("per_doubling keeps lines with an Elo");
        let Some(estimate) = estimate(fixed, k, &speed.estimate()) else {
            missing.push(record.label());
            continue;
        };
        tested += 1;
        let overlaps = estimate.overlaps(clock);
        let fixed_overlaps = fixed.low <= clock.1 && clock.0 <= fixed.high;
        overlapping += usize::from(overlaps);
        fixed_overlapping += usize::from(fixed_overlaps);
        let yes_no = |answer: bool| if answer { "yes" } else { "no" };
        writeln!(
            out,
            "| {} | {} | {} | {} | {:+.1} [{:+.1}, {:+.1}] | {} | {:+.1} [{:+.1}, {:+.1}] ({}, N={}) | {} | {} | {} |",
            record.variant,
            record.parent,
            record.tc,
            record.elo.text(),
            fixed.value,
            fixed.low,
            fixed.high,
            speed.estimate().ratio_text_over("round"),
            k.value,
            k.low,
            k.high,
            doubling.variant,
            doubling.nodes,
            estimate.text(),
            yes_no(overlaps),
            yes_no(fixed_overlaps)
        )
        .unwrap();
    }
    writeln!(
        out,
        "\nOf {tested} match(es) with every part, the estimate's interval overlaps the clock's in {overlapping}; the \
         Elo at fixed nodes alone in {fixed_overlapping}."
    )
    .unwrap();
    if !missing.is_empty() {
        writeln!(out, "Without every part (games at fixed nodes, a speed, a doubling): {}.", missing.join("; "))
            .unwrap();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn elo(value: f64, half: f64) -> Estimate {
        Estimate { value, low: value - half, high: value + half }
    }

    // A known answer, worked by hand: +10 ± 19.6 (se 10) at fixed nodes, k
    // 100 ± 19.6 (se 10), and a speed ratio of exactly 2 known perfectly
    // well (an interval of a few parts in a billion) give 10 + 100 = 110
    // with se sqrt(10² + 1² 10²) = 14.142.
    #[test]
    fn the_estimate_adds_k_times_the_speeds_doublings_and_carries_each_error() {
        let exact_speed = RatioEstimate { ratio: 2.0, interval: Some((2.0 - 1e-9, 2.0 + 1e-9)), positions: 9 };
        let got = estimate(elo(10.0, Z_95 * 10.0), elo(100.0, Z_95 * 10.0), &exact_speed).unwrap();
        assert!((got.elo - 110.0).abs() < 1e-9, "{got:?}");
        assert!((got.high - got.elo - Z_95 * 200f64.sqrt()).abs() < 1e-6, "{got:?}");
        // The same speed: nothing added, and k's error does not count.
        let same = RatioEstimate { ratio: 1.0, interval: Some((1.0 - 1e-12, 1.0 + 1e-12)), positions: 5 };
        let got = estimate(elo(-4.0, 8.0), elo(90.0, 30.0), &same).unwrap();
        assert!((got.elo + 4.0).abs() < 1e-9 && (got.high - got.elo - 8.0).abs() < 1e-6, "{got:?}");
        // The speed's error, through k: log2 of the interval over Student's t.
        let spread = RatioEstimate { ratio: 1.0, interval: Some((0.5, 2.0)), positions: 3 };
        let got = estimate(elo(0.0, 0.0), elo(100.0, 0.0), &spread).unwrap();
        let t = student_t_quantile(2);
        assert!((got.high - Z_95 * 100.0 * 2.0 / (2.0 * t)).abs() < 1e-6, "{got:?}");
        // One round has no interval, and no estimate.
        let one = RatioEstimate { ratio: 1.1, interval: None, positions: 1 };
        assert_eq!(estimate(elo(0.0, 5.0), elo(100.0, 5.0), &one), None);
    }
}
