//! SEE-based move ordering: the static exchange evaluation orders quiet
//! moves too, not only captures, so a quiet move that hangs its piece is
//! tried after the quiet moves that do not.
//!
//! Also called: "SEE move ordering" (the baseline splits captures into good
//! and bad by SEE already; engines such as Ethereal also skip or delay
//! quiets that fail a SEE test).
//!
//! Plan 002, 5.3 ("SEE-Based Move Ordering: Order all moves by SEE value /
//! Currently only used for captures") gives no more than that, and it
//! reads two ways (the features are exclusive):
//! - `see-ordering` (the quiet-move reading: SEE extended to the moves
//!   that do not use it yet): after the baseline's scoring, a quiet move
//!   (neither a capture nor a promotion, nor the TT move, a killer or the
//!   countermove, which keep their slots) whose SEE is below 0 goes after
//!   every quiet move whose SEE is not, still before the losing captures;
//!   history orders each group. A quiet move's SEE is 0 or the loss of the
//!   moved piece's exchange, so for quiet moves "by SEE value" is this
//!   split; captures keep the baseline's MVV-LVA within their SEE sign.
//!   The test of a quiet move is made only when the move comes up to be
//!   picked (`ScoredMove::defer`), which hands out the same order as
//!   testing every quiet move first and skips the quiet moves of a node
//!   that cuts before them.
//! - `see-ordering-all` (the text as written: "all moves"): every move but
//!   the TT move (searched first by every reading) is ordered by its exact
//!   SEE value (`see::see_value`, captures, promotions and quiet moves
//!   alike), and the baseline's order breaks ties within a value: good
//!   captures by MVV-LVA, queen promotions, the killers, the countermove,
//!   quiet moves by history, losing captures, under-promotions. So a
//!   winning capture of a rook comes before one of a knight whatever the
//!   attacker, an equal trade comes among the safe quiet moves (after the
//!   killers), and a quiet move that hangs a knight comes before a capture
//!   that loses a rook. Every move's exchange is computed when the list is
//!   ordered. It replaces the orders `capture-history` and
//!   `staged-captures` rely on, so neither combines with it.
//!
//! Telemetry: `see_order: att=X cut=Y cut%=Z.Z%`: with `see-ordering` an
//! attempt is a quiet move tested (one that came up to be picked), a cut
//! one moved back; with `see-ordering-all` an attempt is a move ordered by
//! its exchange, a cut one whose exchange loses material.
//!
//! Measured: full-without-see_ordering against full: -48.6 Elo [-65.7, -31.8], 1000 games at 10000 nodes a move.

use cozy_chess::{BitBoard, Board};

use crate::context::Context;
use crate::movepick::{mvv_lva, MoveKind, ScoredMove, QUIET_SCORE_TOP, TT_MOVE_SCORE};
use crate::search::{Node, NodeType};
use crate::see::{quiet_see_ge_zero, see_value};
use crate::stats::rate;
use crate::techniques::{Hooks, Technique, TechniqueCounters, TechniqueSet, Techniques};
use crate::{counters, features};

/// Whether moves are ordered by SEE beyond the baseline's captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeeOrdering {
    /// `see-ordering`
    pub enabled: bool,
    /// `see-ordering-all`
    pub all_moves: bool,
}

features! {
    SeeOrdering {
        enabled: "see-ordering" [] "plan 002, 5.3 (quiet-move reading)"
            => "quiet moves that lose material by SEE are ordered after the rest";
        all_moves: "see-ordering-all" [] "plan 002, 5.3 (as written)"
            => "every move but the TT move ordered by its SEE value, the baseline's order breaking ties";
    }
    exclusive "readings of plan 002's 5.3": ["see-ordering", "see-ordering-all"];
    exclusive "orders of the captures": ["see-ordering-all", "capture-history"];
    exclusive "staged lists and one order of every move": ["see-ordering-all", "staged-captures"];
}

counters! {
    /// `see_order:` telemetry.
    pub struct SeeOrderingCounters {
        /// Quiet moves tested, and moved back.
        pub attempts: u64,
        pub cutoffs: u64,
    }
}

/// Subtracted from a losing quiet move's history score: below every other
/// quiet move (history is within ±16384), above the losing captures.
const LOSING_QUIET_PENALTY: i32 = 1_000_000;

impl Hooks for SeeOrdering {
    fn order_moves<T: TechniqueSet, NT: NodeType>(
        cx: &mut Context<'_, '_, T, Self>,
        node: &Node,
        moves: &mut [ScoredMove],
    ) {
        let config = T::TECHNIQUES.see_ordering;
        if config.enabled {
            defer_quiet_see(moves);
        } else if config.all_moves {
            let losing = order_by_see_value(node.board, moves);
            let counters = cx.counters();
            counters.attempts += moves.iter().filter(|entry| entry.kind != MoveKind::TtMove).count() as u64;
            counters.cutoffs += losing;
        }
    }

    fn settle_move<T: TechniqueSet, NT: NodeType>(
        cx: &mut Context<'_, '_, T, Self>,
        node: &Node,
        entry: &mut ScoredMove,
    ) {
        if !T::TECHNIQUES.see_ordering.enabled {
            return;
        }
        let attacked = cx.attacked_by_opponent(node);
        let demoted = demote_if_losing(node.board, attacked, entry);
        let counters = cx.counters();
        counters.attempts += 1;
        counters.cutoffs += u64::from(demoted);
    }
}

/// Leaves the SEE test of every quiet move until the move would be picked:
/// most nodes cut before their quiet moves are reached, and a SEE per quiet
/// move of every node would cost a fifth of the search's time.
pub fn defer_quiet_see(moves: &mut [ScoredMove]) {
    for entry in moves.iter_mut().filter(|entry| entry.kind == MoveKind::Quiet) {
        entry.defer();
    }
}

/// `see-ordering-all`'s score of a move: its exchange value in centipawns
/// times this, plus the tie-break within the value (below ±512).
const SEE_VALUE_SCALE: i32 = 1024;

/// The baseline's order among moves of one exchange value, within ±512:
/// under-promotions, losing captures, quiet moves by history (scaled into
/// ±256), the countermove, the killers, good captures by MVV-LVA, queen
/// promotions.
fn tie_break(entry: &ScoredMove) -> i32 {
    match entry.kind {
        MoveKind::UnderPromotion => -500 + mvv_lva(entry),
        MoveKind::BadCapture => -400 + mvv_lva(entry),
        MoveKind::Quiet => (entry.score() / 64).clamp(-256, 255),
        MoveKind::CounterMove => 360,
        // The first killer scores one above the second.
        MoveKind::Killer => 369 + i32::from(entry.score() > QUIET_SCORE_TOP - 1),
        MoveKind::GoodCapture => 380 + mvv_lva(entry),
        MoveKind::Promotion => 490,
        MoveKind::TtMove => 511,
    }
}

/// `see-ordering-all`: every move but the TT move scored by its exchange
/// value, ties broken by the baseline's order; a capture's kind follows its
/// exchange's sign. Returns how many moves lose material.
pub fn order_by_see_value(board: &Board, moves: &mut [ScoredMove]) -> u64 {
    let mut losing = 0;
    for entry in moves.iter_mut().filter(|entry| entry.kind != MoveKind::TtMove) {
        let value = see_value(board, entry.mv);
        if entry.captured.is_some() && entry.mv.promotion.is_none() {
            entry.kind = if value >= 0 { MoveKind::GoodCapture } else { MoveKind::BadCapture };
        }
        let score = value * SEE_VALUE_SCALE + tie_break(entry);
        debug_assert!(score.abs() < TT_MOVE_SCORE, "{} scores {score}", entry.mv);
        entry.replace_score(score);
        losing += u64::from(value < 0);
    }
    losing
}

/// Moves a quiet move whose SEE is below 0 after the other quiet moves;
/// returns whether it did. `attacked` is `see::attacked_by_opponent`, which
/// answers most quiet moves without an exchange.
pub fn demote_if_losing(board: &Board, attacked: BitBoard, entry: &mut ScoredMove) -> bool {
    let losing = !quiet_see_ge_zero(board, entry.mv, entry.piece, attacked);
    if losing {
        entry.lower_score(LOSING_QUIET_PENALTY);
    }
    losing
}

impl Technique for SeeOrdering {
    const NAME: &'static str = "see_ordering";
    type Counters = SeeOrderingCounters;

    fn of(set: &Techniques) -> &Self {
        &set.see_ordering
    }

    fn counters(all: &TechniqueCounters) -> &SeeOrderingCounters {
        &all.see_ordering
    }

    fn counters_mut(all: &mut TechniqueCounters) -> &mut SeeOrderingCounters {
        &mut all.see_ordering
    }

    fn report(&self, counters: &SeeOrderingCounters) -> Vec<String> {
        if !self.any() {
            return Vec::new();
        }
        vec![format!("see_order: {}", rate(counters.attempts, counters.cutoffs))]
    }

    fn snapshot_counters(counters: &SeeOrderingCounters) -> Vec<(&'static str, u64, u64)> {
        vec![("see_order", counters.attempts, counters.cutoffs)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movepick::{generate, pick_next_settling, score_main, History, OrderingHints, PickMemo};

    #[test]
    fn a_quiet_move_that_hangs_its_piece_goes_after_the_others_and_before_losing_captures() {
        // The knight on c3 can go to b5, attacked by the a6 pawn, or e2.
        let board = Board::from_fen("4k3/8/p7/8/8/2N5/8/4K3 w - - 0 1", false).unwrap();
        let mut moves = Vec::new();
        generate(&board, false, &mut moves);
        score_main(&board, &mut moves, &OrderingHints::default(), &History::new());
        let find = |moves: &mut [ScoredMove], text: &str| -> ScoredMove {
            *moves.iter_mut().find(|m| m.mv.to_string() == text).unwrap()
        };
        assert_eq!(find(&mut moves, "c3b5").score(), find(&mut moves, "c3e2").score());
        let mut hanging = find(&mut moves, "c3b5");
        let mut safe = find(&mut moves, "c3e2");
        let attacked = crate::see::attacked_by_opponent(&board);
        assert!(demote_if_losing(&board, attacked, &mut hanging));
        assert!(!demote_if_losing(&board, attacked, &mut safe));
        assert!(hanging.score() < safe.score());
        assert!(hanging.score() > -3_000_000, "still before the losing captures");
    }

    /// Every move and the tested quiet moves, in the order a picker that
    /// settles deferred quiet moves hands them out.
    fn picked_in_order(fen: &str, deferred: bool) -> (Vec<String>, usize) {
        let board = Board::from_fen(fen, false).unwrap();
        let mut moves = Vec::new();
        generate(&board, false, &mut moves);
        score_main(&board, &mut moves, &OrderingHints::default(), &History::new());
        let attacked = crate::see::attacked_by_opponent(&board);
        let mut tested = 0;
        if deferred {
            defer_quiet_see(&mut moves);
        } else {
            for entry in moves.iter_mut().filter(|entry| entry.kind == MoveKind::Quiet) {
                demote_if_losing(&board, attacked, entry);
                tested += 1;
            }
        }
        let (mut order, mut memo) = (Vec::new(), PickMemo::default());
        while let Some(picked) = pick_next_settling(&mut moves, order.len(), &mut memo, &mut |entry| {
            tested += 1;
            demote_if_losing(&board, attacked, entry);
        }) {
            order.push(picked.mv.to_string());
        }
        (order, tested)
    }

    #[test]
    fn settling_when_picked_hands_out_the_order_of_testing_every_move_first() {
        for fen in [
            "4k3/8/p7/8/8/2N5/8/4K3 w - - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let (eager, tested_eagerly) = picked_in_order(fen, false);
            let (lazy, tested_lazily) = picked_in_order(fen, true);
            assert_eq!(lazy, eager, "{fen}");
            assert_eq!(tested_lazily, tested_eagerly, "every quiet move is reached once: {fen}");
        }
    }
}
