//! Quiescence move ordering: which capture quiescence tries first.
//!
//! Also called: "hash move first in quiescence" (Stockfish's quiescence move
//! picker starts with the TT move, its `QSEARCH_TT` stage).
//!
//! Phases, side by side:
//! - Baseline: captures and queen promotions by MVV-LVA.
//! - `qsearch-tt-first` (plan 003, priority 1: "Don't let queen promotions
//!   override TT move / Move TT move to absolute front in qsearch"): the TT
//!   move, when it is one of the
//!   quiescence moves, always first, ahead of queen promotions; the rest keep
//!   their MVV-LVA order. A TT move that is not in the quiescence list (a
//!   quiet move or an under-promotion stored by the main search) is not
//!   added: quiescence still searches only captures and queen promotions.
//!   Finding it in the freshly generated list also proves it legal, so a
//!   key-check collision cannot smuggle in an illegal move.
//!
//! How, without touching a score (scores are private to `movepick`):
//! `pick_next` is a selection sort that swaps the best remaining move into
//! place. The hook runs those same picks up front until the TT move has been
//! picked, at index k; indices 0..=k then hold the first k + 1 moves in the
//! baseline's order with non-increasing scores, all at least those of the
//! unpicked rest. It then rotates the moves (not the scores) of 0..=k right
//! by one, putting the TT move at 0. `pick_next` keeps the earliest of equal
//! scores, so the search's own picks take 0..=k in place and carry on from
//! k + 1 exactly as the baseline would: the order is the TT move, then the
//! baseline order without it.
//!
//! Measured: full-without-qsearch_order is no ablation: no feature of qsearch_order is in full.

use cozy_chess::Move;

use crate::context::Context;
use crate::movepick::{self, pick_next, ScoredMove};
use crate::search::NodeType;
use crate::techniques::{Hooks, Technique, TechniqueCounters, TechniqueSet, Techniques};
use crate::{counters, features};

/// Whether quiescence tries the TT move first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QsearchOrder {
    /// `qsearch-tt-first`
    pub tt_move_first: bool,
}

features! {
    QsearchOrder {
        tt_move_first: "qsearch-tt-first" [] "plan 003, priority 1" => "the TT move first in quiescence";
    }
}

impl QsearchOrder {
    pub const fn is_on(&self) -> bool {
        self.tt_move_first
    }
}

counters! {
    /// `qs_order:` telemetry.
    pub struct QsearchOrderCounters {
        /// Quiescence nodes whose TT move was among their moves and went first.
        pub tt_first: u64,
    }
}

impl Hooks for QsearchOrder {
    /// Quiescence move ordering: re-orders a quiescence list scored by MVV-LVA (not in check).
    fn order_captures<T: TechniqueSet, NT: NodeType>(
        cx: &mut Context<'_, '_, T, Self>,
        moves: &mut [ScoredMove],
        tt_move: Option<Move>,
    ) {
        if !T::TECHNIQUES.qsearch_order.tt_move_first {
            return;
        }
        if let Some(tt_move) = tt_move {
            if tt_move_first(moves, tt_move) {
                cx.counters().tt_first += 1;
            }
        }
    }
}

impl Technique for QsearchOrder {
    const NAME: &'static str = "qsearch_order";
    type Counters = QsearchOrderCounters;

    fn of(set: &Techniques) -> &Self {
        &set.qsearch_order
    }

    fn counters(all: &TechniqueCounters) -> &QsearchOrderCounters {
        &all.qsearch_order
    }

    fn counters_mut(all: &mut TechniqueCounters) -> &mut QsearchOrderCounters {
        &mut all.qsearch_order
    }

    /// `qs_order: tt_first=N`.
    fn report(&self, counters: &QsearchOrderCounters) -> Vec<String> {
        if !self.is_on() {
            return Vec::new();
        }
        vec![format!("qs_order: tt_first={}", counters.tt_first)]
    }
}

/// Puts `tt_move` first in a scored list that `pick_next` will hand out from
/// index 0, keeping the order of the other moves. Returns whether the move
/// was in the list.
pub fn tt_move_first(moves: &mut [ScoredMove], tt_move: Move) -> bool {
    if !moves.iter().any(|entry| entry.mv == tt_move) {
        return false;
    }
    let mut k = 0;
    while let Some(picked) = pick_next(moves, k) {
        if picked.mv == tt_move {
            break;
        }
        k += 1;
    }
    movepick::move_to_front_keeping_scores(&mut moves[..=k]);
    true
}

#[cfg(test)]
mod tests {
    use cozy_chess::Board;

    use super::*;
    use crate::movepick::{generate, score_tactical};

    fn picked_order(moves: &mut [ScoredMove]) -> Vec<String> {
        let mut order = Vec::new();
        while let Some(picked) = pick_next(moves, order.len()) {
            order.push(picked.mv.to_string());
        }
        order
    }

    fn scored(fen: &str) -> Vec<ScoredMove> {
        let board = Board::from_fen(fen, false).unwrap();
        let mut moves = Vec::new();
        generate(&board, true, &mut moves);
        score_tactical(&mut moves);
        moves
    }

    /// Queen promotions (one capturing a rook), captures of a queen, rook,
    /// knight and pawn.
    const FEN: &str = "r3k3/1P6/8/2q1n3/1P1P4/4p3/3B4/4K3 w - - 0 1";

    #[test]
    fn tt_move_comes_first_and_the_rest_keep_their_order() {
        let baseline = picked_order(&mut scored(FEN));
        assert!(baseline.len() >= 5, "{baseline:?}");
        for tt in baseline.clone() {
            let mut moves = scored(FEN);
            assert!(tt_move_first(&mut moves, tt.parse().unwrap()));
            let order = picked_order(&mut moves);
            let mut expected = vec![tt.clone()];
            expected.extend(baseline.iter().filter(|mv| **mv != tt).cloned());
            assert_eq!(order, expected, "TT move {tt}");
        }
    }

    #[test]
    fn tt_move_goes_ahead_of_queen_promotions() {
        let baseline = picked_order(&mut scored(FEN));
        let last = baseline.last().unwrap().clone();
        assert!(baseline.iter().take_while(|mv| **mv != last).any(|mv| mv.ends_with('q')), "{baseline:?}");
        let mut moves = scored(FEN);
        tt_move_first(&mut moves, last.parse().unwrap());
        assert_eq!(picked_order(&mut moves)[0], last);
    }

    #[test]
    fn a_tt_move_outside_the_list_changes_nothing() {
        let baseline = picked_order(&mut scored(FEN));
        let mut moves = scored(FEN);
        assert!(!tt_move_first(&mut moves, "e1f1".parse().unwrap()));
        assert_eq!(picked_order(&mut moves), baseline);
    }

    #[test]
    fn feature_switches_it_on() {
        assert!(!QsearchOrder::BASELINE.is_on());
        assert!(QsearchOrder::BASELINE.with("qsearch-tt-first").is_on());
    }
}
