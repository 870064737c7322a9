//! Quiescence move ordering.
//!
//! - Baseline: captures and queen promotions by MVV-LVA.
//! - `qsearch-tt-first` (plan 003): the TT move, when it is one of the
//!   quiescence moves, always first, ahead of queen promotions.

use cozy_chess::Move;

use crate::movepick::ScoredMove;
use crate::search::Worker;
use crate::techniques::{same, TechniqueSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QsearchOrder {
    pub tt_move_first: bool,
}

impl QsearchOrder {
    pub const BASELINE: Self = QsearchOrder { tt_move_first: false };

    pub const fn with(self, feature: &str) -> Self {
        if same(feature, "qsearch-tt-first") {
            QsearchOrder { tt_move_first: true }
        } else {
            self
        }
    }
}

impl<T: TechniqueSet> Worker<'_, T> {
    /// Re-orders a scored quiescence list.
    pub(crate) fn order_qsearch(&mut self, _moves: &mut [ScoredMove], _tt_move: Option<Move>) {}
}
