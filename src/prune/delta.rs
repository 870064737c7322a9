//! Delta pruning in quiescence: skip a capture that could not raise alpha
//! even if the captured piece came for free with a safety margin.
//!
//! Phases, side by side:
//! - Baseline: skip when stand pat + captured value + 200 < alpha, never in
//!   the endgame (game phase ≤ 4, the plans' endgame), never for
//!   promotions, never in check.
//! - `delta-enhanced` (plan 003, 1.3): first a coarse filter, returning stand
//!   pat when even winning a queen (975; 600 in the endgame) cannot reach
//!   alpha; then the per-move margin is halved for victims worth a minor
//!   piece or less.

use cozy_chess::{Board, Move, Piece};

use crate::eval::PIECE_VALUES;
use crate::search::Worker;
use crate::see::captured_piece;
use crate::stats::{SearchStats, Technique};
use crate::techniques::{same, TechniqueSet};
use crate::tunables;

tunables! {
    DELTA_MARGIN = "DeltaMargin": 200, 50, 500, 25;
    DELTA_COARSE_MARGIN = "DeltaCoarseMargin": 975, 600, 1400, 25;
    DELTA_COARSE_ENDGAME_MARGIN = "DeltaCoarseEndgameMargin": 600, 300, 1000, 25;
}

/// At or below this game phase the position counts as an endgame.
pub const ENDGAME_PHASE: i32 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeltaPruning {
    pub enhanced: bool,
}

impl DeltaPruning {
    pub const BASELINE: Self = DeltaPruning { enhanced: false };

    pub const fn with(self, feature: &str) -> Self {
        if same(feature, "delta-enhanced") {
            DeltaPruning { enhanced: true }
        } else {
            self
        }
    }

    /// The per-move margin for a victim of `captured_value`.
    pub fn margin(&self, captured_value: i32) -> i32 {
        if self.enhanced && captured_value <= PIECE_VALUES[Piece::Bishop as usize] {
            DELTA_MARGIN.get() / 2
        } else {
            DELTA_MARGIN.get()
        }
    }

    /// The coarse filter's margin (`delta-enhanced`).
    pub fn coarse_margin(&self, phase: i32) -> i32 {
        if phase <= ENDGAME_PHASE {
            DELTA_COARSE_ENDGAME_MARGIN.get()
        } else {
            DELTA_COARSE_MARGIN.get()
        }
    }
}

impl<T: TechniqueSet> Worker<'_, T> {
    /// Step Q3: the enhanced coarse filter; returns stand pat when hopeless.
    pub(crate) fn coarse_delta(&mut self, stand_pat: i32, alpha: i32, phase: i32) -> Option<i32> {
        let delta = T::TECHNIQUES.delta;
        if !delta.enhanced {
            return None;
        }
        let counters = self.stats.technique(Technique::DeltaEnhanced);
        counters.attempts += 1;
        if stand_pat + delta.coarse_margin(phase) < alpha {
            counters.cutoffs += 1;
            return Some(stand_pat);
        }
        None
    }

    /// Step Q4: whether a capture is skipped by delta pruning.
    pub(crate) fn delta_prunes(&mut self, board: &Board, mv: Move, stand_pat: i32, alpha: i32, phase: i32) -> bool {
        if mv.promotion.is_some() || phase <= ENDGAME_PHASE {
            return false;
        }
        let delta = T::TECHNIQUES.delta;
        let captured_value = captured_piece(board, mv).map_or(0, |piece| PIECE_VALUES[piece as usize]);
        let margin = delta.margin(captured_value);
        if stand_pat + captured_value + margin >= alpha {
            return false;
        }
        self.stats.delta_prunes += 1;
        if margin != DELTA_MARGIN.get() {
            // Pruned only thanks to the halved margin? Count what the
            // enhancement adds.
            if stand_pat + captured_value + DELTA_MARGIN.get() >= alpha {
                self.stats.technique(Technique::DeltaEnhanced).extra[0] += 1;
            }
        }
        true
    }
}

pub fn report(stats: &SearchStats, config: &DeltaPruning) -> Option<String> {
    config.enhanced.then(|| {
        let counters = stats.counters(Technique::DeltaEnhanced);
        format!("delta_enh: coarse_{} halved_prunes={}", counters.rate(), counters.extra[0])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins_follow_each_phase() {
        let baseline = DeltaPruning::BASELINE;
        let enhanced = DeltaPruning::BASELINE.with("delta-enhanced");
        assert_eq!(baseline.margin(100), 200);
        assert_eq!(enhanced.margin(100), 100);
        assert_eq!(enhanced.margin(330), 100);
        assert_eq!(enhanced.margin(500), 200);
        assert_eq!((enhanced.coarse_margin(24), enhanced.coarse_margin(4)), (975, 600));
    }
}
