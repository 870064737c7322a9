//! OpenBench's SPSA, separate from games: the gains, the perturbation and
//! the update of a tuning run, as OpenBench computes them.
//!
//! Read from OpenBench's own code (AndyGrant/OpenBench):
//!
//! - `OpenBench/spsa_utils.py`, `create_spsa_run`: per parameter,
//!   `c = c_end · N^γ` and `a = r_end · c_end² · (A + N)^α`, with `N` the
//!   iterations and `A = A_ratio · N`;
//! - `spsa_workload_assignment_dict`: at iteration `k` (1 for the first
//!   workload; `1 + games / (2 · pairs_per)` in general),
//!   `c_k = max(c / k^γ, 0.5)` for an integer parameter (`0` for a float) and
//!   `R_k = a / (A + k)^α / c_k²`; a flip `δ = ±1` per parameter, the dev
//!   engine plays `θ + δ c_k` and the base `θ − δ c_k`; an integer
//!   parameter's pair is rounded *probabilistically*, `floor(x + u)` with one
//!   `u ∈ [0, 1)` for both, and both are clipped to `[min, max]`;
//! - `Client/worker.py`, `report_results`: the delta is
//!   `R_k · c_k · (wins − losses) · δ`, wins and losses the dev engine's over
//!   the workload's games;
//! - `OpenBench/utils.py`, the SPSA branch of the results update: the
//!   server adds the delta and clips the value to `[min, max]`; the value is
//!   kept as a float, and an integer parameter's tuned value is
//!   `int(round(value))`, Python's rounding, half to even.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// OpenBench's defaults on its SPSA create page.
pub const ALPHA: f64 = 0.602;
pub const GAMMA: f64 = 0.101;
pub const A_RATIO: f64 = 0.1;

/// The run's shape, shared by its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Schedule {
    pub iterations: u64,
    pub alpha: f64,
    pub gamma: f64,
    pub a_ratio: f64,
}

impl Schedule {
    /// OpenBench's defaults for `iterations`.
    pub fn openbench(iterations: u64) -> Schedule {
        Schedule { iterations, alpha: ALPHA, gamma: GAMMA, a_ratio: A_RATIO }
    }

    /// The stability constant `A = A_ratio · N`.
    fn stability(&self) -> f64 {
        self.a_ratio * self.iterations as f64
    }
}

/// One parameter as OpenBench's input line gives it:
/// `name, int, start, min, max, c_end, r_end`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Parameter {
    pub name: String,
    pub is_float: bool,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    pub c_end: f64,
    pub r_end: f64,
}

/// A parameter's gains at one iteration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gains {
    /// The perturbation size `c_k`.
    pub c: f64,
    /// The learning rate `R_k`.
    pub r: f64,
}

impl Parameter {
    /// OpenBench's `c_value`: `c_end · N^γ`.
    pub fn c_value(&self, schedule: &Schedule) -> f64 {
        self.c_end * (schedule.iterations as f64).powf(schedule.gamma)
    }

    /// OpenBench's `a_value`: `r_end · c_end² · (A + N)^α`.
    pub fn a_value(&self, schedule: &Schedule) -> f64 {
        let a_end = self.r_end * self.c_end * self.c_end;
        a_end * (schedule.stability() + schedule.iterations as f64).powf(schedule.alpha)
    }

    /// `c_k` and `R_k` at iteration `k` (from 1).
    pub fn gains(&self, schedule: &Schedule, k: u64) -> Gains {
        let k = k as f64;
        let floor = if self.is_float { 0.0 } else { 0.5 };
        let c = (self.c_value(schedule) / k.powf(schedule.gamma)).max(floor);
        let r = self.a_value(schedule) / (schedule.stability() + k).powf(schedule.alpha) / (c * c);
        Gains { c, r }
    }

    /// The dev and base values for `value` perturbed by `flip · c`, with
    /// `uniform` the random number of OpenBench's probabilistic rounding.
    pub fn perturbed(&self, value: f64, gains: Gains, flip: f64, uniform: f64) -> (f64, f64) {
        let round = |x: f64| if self.is_float { x } else { (x + uniform).floor() };
        let clip = |x: f64| x.clamp(self.min, self.max);
        (clip(round(value + flip * gains.c)), clip(round(value - flip * gains.c)))
    }

    /// `value` after a workload whose dev engine scored `wins − losses =
    /// result`, clipped.
    pub fn updated(&self, value: f64, gains: Gains, flip: f64, result: i64) -> f64 {
        (value + gains.r * gains.c * result as f64 * flip).clamp(self.min, self.max)
    }

    /// OpenBench's input line, `name, int, start, min, max, c_end, r_end`.
    pub fn input_line(&self) -> String {
        let kind = if self.is_float { "float" } else { "int" };
        let Parameter { name, start, min, max, c_end, r_end, .. } = self;
        format!("{name}, {kind}, {start}, {min}, {max}, {c_end}, {r_end}")
    }

    /// The value as OpenBench reports it: an integer rounded half to even.
    pub fn reported(&self, value: f64) -> f64 {
        if self.is_float {
            value
        } else {
            value.round_ties_even()
        }
    }
}

/// One parameter's part of an iteration: what the engines played and the
/// gains that moved it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Perturbation {
    pub flip: f64,
    pub c: f64,
    pub r: f64,
    /// The dev engine's value (`θ + flip · c`, rounded and clipped).
    pub dev: f64,
    /// The base engine's value (`θ − flip · c`).
    pub base: f64,
}

/// A tuning run's state: the parameters' current values and the iterations
/// done.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuner {
    pub schedule: Schedule,
    pub parameters: Vec<Parameter>,
    pub values: Vec<f64>,
    /// Iterations done; the next is `done + 1`.
    pub done: u64,
    seed: u64,
}

impl Tuner {
    pub fn new(schedule: Schedule, parameters: Vec<Parameter>, seed: u64) -> Tuner {
        let values = parameters.iter().map(|parameter| parameter.start).collect();
        Tuner { schedule, parameters, values, done: 0, seed }
    }

    /// The next iteration's flips and values. Its random numbers come from
    /// the seed and the iteration alone, so a resumed run plays the same
    /// engines at an iteration it had started.
    pub fn perturbation(&self) -> Vec<Perturbation> {
        let k = self.done + 1;
        let mut random = ChaCha8Rng::seed_from_u64(self.seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        self.parameters
            .iter()
            .zip(&self.values)
            .map(|(parameter, &value)| {
                let gains = parameter.gains(&self.schedule, k);
                let flip = if random.gen::<bool>() { 1.0 } else { -1.0 };
                let uniform: f64 = random.gen();
                let (dev, base) = parameter.perturbed(value, gains, flip, uniform);
                Perturbation { flip, c: gains.c, r: gains.r, dev, base }
            })
            .collect()
    }

    /// Applies a finished iteration: the dev engine's `wins − losses`.
    pub fn apply(&mut self, perturbation: &[Perturbation], result: i64) {
        for ((parameter, value), step) in self.parameters.iter().zip(&mut self.values).zip(perturbation) {
            *value = parameter.updated(*value, Gains { c: step.c, r: step.r }, step.flip, result);
        }
        self.done += 1;
    }

    /// The current values as OpenBench reports them.
    pub fn reported(&self) -> Vec<f64> {
        self.parameters.iter().zip(&self.values).map(|(parameter, &value)| parameter.reported(value)).collect()
    }
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// Plan 002's static null-move margin, as phase 1.6 tunes it.
    pub fn margin() -> Parameter {
        Parameter {
            name: "ReverseFutilityDepthMargin".into(),
            is_float: false,
            start: 90.0,
            min: 50.0,
            max: 200.0,
            c_end: 10.0,
            r_end: 0.002,
        }
    }

    fn assert_near(actual: f64, expected: f64, what: &str) {
        assert!((actual - expected).abs() < 1e-9, "{what}: {actual} != {expected}");
    }

    /// The numbers come from `lab/tests/data/openbench_spsa.py`, which
    /// computes OpenBench's formulas in Python from the quoted source lines,
    /// independently of this code.
    #[test]
    fn gains_match_openbench_formulas() {
        let schedule = Schedule::openbench(1000);
        let margin = margin();
        assert_near(margin.c_value(&schedule), 20.09092812608728, "c");
        assert_near(margin.a_value(&schedule), 13.550283827094189, "a");
        for (k, c, r) in [
            (1, 20.09092812608728, 0.0020861566909309405),
            (2, 18.732509884737453, 0.0023854985002293625),
            (500, 10.725166168179424, 0.0025043399425713608),
            (1000, 10.0, 0.002),
        ] {
            let gains = margin.gains(&schedule, k);
            assert_near(gains.c, c, &format!("c_{k}"));
            assert_near(gains.r, r, &format!("R_{k}"));
        }
        // An integer parameter's c_k never falls below 0.5; a float's may.
        let small = Parameter { c_end: 0.25, ..margin.clone() };
        assert_eq!(small.gains(&schedule, 1000).c, 0.5);
        let float = Parameter { is_float: true, c_end: 0.25, ..margin };
        assert_near(float.gains(&schedule, 1000).c, 0.25, "float c_1000");
        assert_near(float.gains(&schedule, 1000).r, 0.002, "float R_1000");
    }

    #[test]
    fn perturbation_rounds_and_clips_as_openbench() {
        let schedule = Schedule::openbench(1000);
        let margin = margin();
        let gains = margin.gains(&schedule, 1);
        // 90 ± 20.0909...: floor(110.0909 + 0.3) = 110, floor(69.9091 + 0.3) = 70.
        assert_eq!(margin.perturbed(90.0, gains, 1.0, 0.3), (110.0, 70.0));
        // floor(69.9091 + 0.95) = 70, floor(110.0909 + 0.95) = 111.
        assert_eq!(margin.perturbed(90.0, gains, -1.0, 0.95), (70.0, 111.0));
        // Clipped to [50, 200].
        assert_eq!(margin.perturbed(195.0, gains, 1.0, 0.0), (200.0, 174.0));
        assert_eq!(margin.perturbed(55.0, gains, 1.0, 0.0), (75.0, 50.0));
    }

    /// Five workloads of a constructed run (flip, dev wins − losses), the
    /// value after each from the Python script.
    #[test]
    fn updates_match_openbench_formulas() {
        let schedule = Schedule::openbench(1000);
        let margin = margin();
        let mut value = margin.start;
        let steps = [(1.0, 3, 90.12573847241175), (-1.0, -2, 90.2151112208829), (1.0, 0, 90.2151112208829)];
        let steps = steps.into_iter().chain([(-1.0, 5, 89.97826176828511), (1.0, 8, 90.36363220177286)]);
        for (k, (flip, result, expected)) in (1..).zip(steps) {
            value = margin.updated(value, margin.gains(&schedule, k), flip, result);
            assert_near(value, expected, &format!("value after iteration {k}"));
        }
        // Clipping at the bounds.
        assert_eq!(margin.updated(199.99, margin.gains(&schedule, 1), 1.0, 1000), 200.0);
        assert_eq!(margin.updated(50.01, margin.gains(&schedule, 1), -1.0, 1000), 50.0);
        assert_eq!(margin.input_line(), "ReverseFutilityDepthMargin, int, 90, 50, 200, 10, 0.002");
        // Reported values round half to even, as Python's round.
        assert_eq!((margin.reported(90.5), margin.reported(91.5), margin.reported(90.51)), (90.0, 92.0, 91.0));
    }

    /// The tuner's iteration `k` always draws the same flips and roundings.
    #[test]
    fn a_resumed_iteration_draws_the_same_perturbation() {
        let tuner = Tuner::new(Schedule::openbench(100), vec![margin(), margin()], 7);
        assert_eq!(tuner.perturbation(), tuner.clone().perturbation());
        let mut moved = tuner.clone();
        moved.apply(&tuner.perturbation(), 0);
        assert_ne!(moved.perturbation(), tuner.perturbation(), "iteration 2 draws its own");
    }

    /// A synthetic engine whose strength is `-(θ - 140)² / 40` Elo: each
    /// iteration plays `PAIRS` pairs of win-or-loss games of dev against
    /// base at the Elo difference of their values. From 90 the tuner ends
    /// within 5 of 140 in 2000 iterations: at 137 with these seeds, and
    /// between 135.6 and 142.8 with twenty others tried.
    #[test]
    fn converges_on_a_noisy_objective() {
        const OPTIMUM: f64 = 140.0;
        const PAIRS: u64 = 8;
        let strength = |theta: f64| -(theta - OPTIMUM).powi(2) / 40.0;
        let mut tuner = Tuner::new(Schedule::openbench(2000), vec![margin()], 1);
        let mut games = ChaCha8Rng::seed_from_u64(2);
        while tuner.done < tuner.schedule.iterations {
            let perturbation = tuner.perturbation();
            let elo = strength(perturbation[0].dev) - strength(perturbation[0].base);
            let win = 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
            let result: i64 = (0..2 * PAIRS).map(|_| if games.gen::<f64>() < win { 1 } else { -1 }).sum();
            tuner.apply(&perturbation, result);
        }
        let tuned = tuner.reported()[0];
        assert!((tuned - OPTIMUM).abs() <= 5.0, "ended at {tuned}, {} from {OPTIMUM}", (tuned - OPTIMUM).abs());
        assert!((margin().start - OPTIMUM).abs() >= 50.0, "the start is away from the optimum");
    }
}
