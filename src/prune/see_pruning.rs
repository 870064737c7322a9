//! SEE pruning in quiescence: skip captures that lose material by static
//! exchange evaluation.
//!
//! Phases, side by side:
//! - `see-prune-conservative` (plan 002, 1.3): skip captures with SEE < −100.
//! - `see-prune-aggressive` (1.3, aggressive reading): threshold −75.
//!
//! The two thresholds are one setting, so they cannot be combined.

#[cfg(all(feature = "see-prune-conservative", feature = "see-prune-aggressive"))]
compile_error!("`see-prune-conservative` and `see-prune-aggressive` set the same threshold: pick one");

use cozy_chess::{Board, Move};

use crate::search::Worker;
use crate::see::see_ge;
use crate::stats::{SearchStats, Technique};
use crate::techniques::{same, TechniqueSet, COMPILED};
use crate::tunables;

tunables! {
    /// Captures whose SEE is below this are skipped in quiescence.
    SEE_PRUNE_THRESHOLD = "SeePruneThreshold": match COMPILED.see_pruning.threshold { Some(t) => t, None => -100 }, -300, 0, 10;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeePruning {
    pub threshold: Option<i32>,
}

impl SeePruning {
    pub const BASELINE: Self = SeePruning { threshold: None };

    pub const fn with(self, feature: &str) -> Self {
        if same(feature, "see-prune-conservative") {
            SeePruning { threshold: Some(-100) }
        } else if same(feature, "see-prune-aggressive") {
            SeePruning { threshold: Some(-75) }
        } else {
            self
        }
    }

    pub const fn is_on(&self) -> bool {
        self.threshold.is_some()
    }

    pub fn check_exclusive(features: &[&str]) -> Result<(), String> {
        if features.contains(&"see-prune-conservative") && features.contains(&"see-prune-aggressive") {
            return Err("`see-prune-conservative` and `see-prune-aggressive` set the same threshold: pick one".into());
        }
        Ok(())
    }
}

impl<T: TechniqueSet> Worker<'_, T> {
    /// Step Q4: whether a capture is skipped for losing material.
    pub(crate) fn see_prunes(&mut self, board: &Board, mv: Move) -> bool {
        let Some(threshold) = T::TECHNIQUES.see_pruning.threshold else {
            return false;
        };
        let counters = self.stats.technique(Technique::SeePruning);
        counters.attempts += 1;
        if see_ge(board, mv, SEE_PRUNE_THRESHOLD.value_or(threshold)) {
            return false;
        }
        self.stats.technique(Technique::SeePruning).cutoffs += 1;
        true
    }
}

pub fn report(stats: &SearchStats, config: &SeePruning) -> Option<String> {
    config.is_on().then(|| format!("see_qs: {}", stats.counters(Technique::SeePruning).rate()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_follow_the_plan() {
        assert_eq!(SeePruning::BASELINE.with("see-prune-conservative").threshold, Some(-100));
        assert_eq!(SeePruning::BASELINE.with("see-prune-aggressive").threshold, Some(-75));
        assert!(SeePruning::check_exclusive(&["see-prune-conservative", "see-prune-aggressive"]).is_err());
    }
}
