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

/// How far apart two speeds may be and still count as near: within a
/// quarter. The atlas's pairs fall either within 18% of each other's speed
/// or at about half (a pruned search against the unpruned baseline), and
/// the model's misses differ between the two groups.
const NEAR_SPEED: f64 = 1.25;

/// One match at a time control with every part of the estimate.
pub struct Tested<'a> {
    pub record: &'a TimeControlMatch,
    pub fixed: Estimate,
    pub speed: RatioEstimate,
    pub doubling: &'a NodeOddsEntry,
    /// The doubling's Elo, k.
    pub k: Estimate,
    pub estimate: ClockEstimate,
    /// The clock's Elo and its 95% interval.
    pub clock: (f64, f64, f64),
}

impl Tested<'_> {
    /// The estimate's miss: its Elo less the clock's.
    fn estimate_miss(&self) -> f64 {
        self.estimate.elo - self.clock.0
    }

    /// The miss of the Elo at fixed nodes alone.
    fn fixed_miss(&self) -> f64 {
        self.fixed.value - self.clock.0
    }
}

/// Whether a speed ratio is near 1 (within `NEAR_SPEED`).
pub fn near_speed(ratio: f64) -> bool {
    (1.0 / NEAR_SPEED..=NEAR_SPEED).contains(&ratio)
}

/// Every match at a time control that has games at fixed nodes, a speed and
/// a doubling at the atlas's budget, with its estimate; and the labels of
/// those without every part.
pub fn tested<'a>(
    records: &'a [TimeControlMatch],
    atlas: &'a [AtlasEntry],
    speeds: &'a [SpeedEntry],
    doublings: &'a [NodeOddsEntry],
) -> (Vec<Tested<'a>>, Vec<String>) {
    let (mut tested, mut missing) = (Vec::new(), Vec::new());
    for record in records {
        let parts = fixed_nodes_result(record, atlas).and_then(|entry| {
            let fixed = entry.elo?;
            let speed = speeds.iter().rev().find(|line| {
                line.searches.features == record.features && line.searches.parent_features == record.parent_features
            })?;
            let doubling = node_odds::per_doubling(doublings, &record.parent, entry.key.nodes)?;
            let k = doubling.elo?;
            let speed = speed.estimate();
            let estimate = estimate(fixed, k, &speed)?;
            let (low, high) = record.elo.interval()?;
            let clock = (record.elo.value, low, high);
            Some(Tested { record, fixed, speed, doubling, k, estimate, clock })
        });
        match parts {
            Some(test) => tested.push(test),
            None => missing.push(record.label()),
        }
    }
    (tested, missing)
}

/// The mean absolute miss of the estimate and of fixed nodes alone over
/// the tests whose speeds are near (or far), in a sentence; `None` for no
/// test.
pub fn misses(tested: &[Tested], near: bool) -> Option<String> {
    let group: Vec<&Tested> = tested.iter().filter(|test| near_speed(test.speed.ratio) == near).collect();
    if group.is_empty() {
        return None;
    }
    let mean = |misses: Vec<f64>| misses.iter().map(|miss| miss.abs()).sum::<f64>() / misses.len() as f64;
    let ratios = group.iter().map(|test| format!("x{:.3}", test.speed.ratio)).collect::<Vec<_>>().join(", ");
    Some(format!(
        "{} match(es) at speeds {} the parent's ({ratios}): the estimate missed the clock's Elo by {:.1} on average, \
         the Elo at fixed nodes alone by {:.1}",
        group.len(),
        if near {
            format!("within a factor {NEAR_SPEED} of")
        } else {
            format!("further than a factor {NEAR_SPEED} from")
        },
        mean(group.iter().map(|test| test.estimate_miss()).collect()),
        mean(group.iter().map(|test| test.fixed_miss()).collect()),
    ))
}

/// `lab report`'s test of the model: each match at a time control that
/// has games at fixed nodes, a speed and a doubling at the atlas's budget,
/// its estimate beside the clock's result, how many overlap (and how many
/// the fixed-nodes Elo alone overlaps), and the mean misses near and far
/// from the parent's speed.
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
    let (tested, missing) = tested(records, atlas, speeds, doublings);
    let yes_no = |answer: bool| if answer { "yes" } else { "no" };
    let (mut overlapping, mut fixed_overlapping) = (0, 0);
    for test in &tested {
        let (_, low, high) = test.clock;
        let overlaps = test.estimate.overlaps((low, high));
        let fixed_overlaps = test.fixed.low <= high && low <= test.fixed.high;
        overlapping += usize::from(overlaps);
        fixed_overlapping += usize::from(fixed_overlaps);
        let (fixed, k) = (test.fixed, test.k);
        writeln!(
            out,
            "| {} | {} | {} | {} | {:+.1} [{:+.1}, {:+.1}] | {} | {:+.1} [{:+.1}, {:+.1}] ({}, N={}) | {} | {} | {} |",
            test.record.variant,
            test.record.parent,
            test.record.tc,
            test.record.elo.text(),
            fixed.value,
            fixed.low,
            fixed.high,
            test.speed.ratio_text_over("round"),
            k.value,
            k.low,
            k.high,
            test.doubling.variant,
            test.doubling.nodes,
            test.estimate.text(),
            yes_no(overlaps),
            yes_no(fixed_overlaps)
        )
        .unwrap();
    }
    writeln!(
        out,
        "\nOf {} match(es) with every part, the estimate's interval overlaps the clock's in {overlapping}; the \
         Elo at fixed nodes alone in {fixed_overlapping}.",
        tested.len()
    )
    .unwrap();
    for near in [true, false] {
        if let Some(sentence) = misses(&tested, near) {
            writeln!(out, "{sentence}.").unwrap();
        }
    }
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

    // The repository's own record: every match at a time control has all
    // three parts, the near and far groups split them, and each group's mean
    // miss is the mean of its rows' (checked once by hand from `lab
    // report`'s table: 14.6 and 20.6 near, 131.7 and 71.7 far).
    #[test]
    fn every_match_at_a_time_control_tests_the_model_and_falls_in_one_group() {
        use std::path::Path;
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let atlas_file = root.join(super::super::entries::ATLAS_FILE);
        let records = super::super::time_controls::read(&super::super::time_controls::beside(&atlas_file)).unwrap();
        let atlas = super::super::entries::read(&atlas_file);
        let speeds = super::super::speeds::read(&super::super::speeds::beside(&atlas_file));
        let doublings = node_odds::read(&node_odds::beside(&atlas_file));
        let (tested, missing) = tested(&records, &atlas, &speeds, &doublings);
        assert_eq!((tested.len(), missing.len()), (records.len(), 0), "{missing:?}");
        let near = tested.iter().filter(|test| near_speed(test.speed.ratio)).count();
        let by_hand = [(true, near, 14.6, 20.6), (false, tested.len() - near, 131.7, 71.7)];
        for (group, count, estimate_miss, fixed_miss) in by_hand {
            let sentence = misses(&tested, group).unwrap();
            assert!(sentence.starts_with(&format!("{count} match(es) at speeds ")), "{sentence}");
            let means = format!("by {estimate_miss:.1} on average, the Elo at fixed nodes alone by {fixed_miss:.1}");
            assert!(sentence.ends_with(&means), "{sentence}");
        }
        assert!(near_speed(1.0) && near_speed(0.8) && near_speed(1.25) && !near_speed(0.79) && !near_speed(1.26));
    }
}
