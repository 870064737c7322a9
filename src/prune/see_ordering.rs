//! SEE-based move ordering: the static exchange evaluation orders quiet
//! moves too, not only captures, so a quiet move that hangs its piece is
//! tried after the quiet moves that do not.
//!
//! Also called: "SEE move ordering" (the baseline splits captures into good
//! and bad by SEE already; engines such as Ethereal also skip or delay
//! quiets that fail a SEE test).
//!
//! Phases:
//! - `see-ordering` (plan 002, 5.3: "Order all moves by SEE value /
//!   Currently only used for captures"): after the baseline's scoring, a
//!   quiet move (neither a capture nor a promotion, nor the TT move, a
//!   killer or the countermove, which keep their slots) whose SEE is below
//!   0 goes after every quiet move whose SEE is not, still before the
//!   losing captures; history orders each group. A quiet move's SEE is 0 or
//!   the loss of the moved piece's exchange, so "by SEE value" is this
//!   split: the plan gives no more detail.
//!
//! Telemetry: `see_order: att=X cut=Y cut%=Z.Z%`: an attempt is a quiet
//! move tested, a cut one moved back.

use cozy_chess::Board;

use crate::movepick::{MoveKind, ScoredMove};
use crate::search::{Node, NodeType, Worker};
use crate::see::see_ge;
use crate::stats::rate;
use crate::techniques::{Hooks, Technique, TechniqueSet};
use crate::tune::Tunable;
use crate::{counters, technique};

technique! {
    /// Whether quiet moves are ordered by SEE too.
    pub struct SeeOrdering {
        enabled: "see-ordering" [] "plan 002, 5.3" => "quiet moves that lose material by SEE are ordered after the rest";
    }
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
        worker: &mut Worker<'_, T>,
        board: &Board,
        _node: &Node,
        moves: &mut [ScoredMove],
    ) {
        if !T::TECHNIQUES.see_ordering.enabled {
            return;
        }
        let (tested, demoted) = demote_losing_quiets(board, moves);
        let counters = &mut worker.stats.techniques.see_ordering;
        counters.attempts += tested;
        counters.cutoffs += demoted;
    }
}

/// Moves the quiet moves whose SEE is below 0 after the other quiet moves;
/// returns how many quiet moves it tested and how many it moved.
pub fn demote_losing_quiets(board: &Board, moves: &mut [ScoredMove]) -> (u64, u64) {
    let (mut tested, mut demoted) = (0, 0);
    for entry in moves.iter_mut().filter(|entry| entry.kind == MoveKind::Quiet) {
        tested += 1;
        if !see_ge(board, entry.mv, 0) {
            entry.lower_score(LOSING_QUIET_PENALTY);
            demoted += 1;
        }
    }
    (tested, demoted)
}

impl Technique for SeeOrdering {
    type Counters = SeeOrderingCounters;

    fn report(&self, counters: &SeeOrderingCounters) -> Vec<String> {
        if !self.enabled {
            return Vec::new();
        }
        vec![format!("see_order: {}", rate(counters.attempts, counters.cutoffs))]
    }

    fn snapshot_counters(counters: &SeeOrderingCounters) -> Vec<(&'static str, u64, u64)> {
        vec![("see_order", counters.attempts, counters.cutoffs)]
    }

    fn tunables(&self) -> Vec<&'static Tunable> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movepick::{generate, score_main, History, OrderingHints};

    #[test]
    fn a_quiet_move_that_hangs_its_piece_goes_after_the_others_and_before_losing_captures() {
        // The knight on c3 can go to b5, attacked by the a6 pawn, or e2.
        let board = Board::from_fen("4k3/8/p7/8/8/2N5/8/4K3 w - - 0 1", false).unwrap();
        let mut moves = Vec::new();
        generate(&board, false, &mut moves);
        score_main(&board, &mut moves, &OrderingHints::default(), &History::new());
        let score = |moves: &[ScoredMove], text: &str| moves.iter().find(|m| m.mv.to_string() == text).unwrap().score();
        assert_eq!(score(&moves, "c3b5"), score(&moves, "c3e2"));
        let quiets = moves.iter().filter(|entry| entry.kind == MoveKind::Quiet).count() as u64;
        assert_eq!(demote_losing_quiets(&board, &mut moves), (quiets, 1));
        assert!(score(&moves, "c3b5") < score(&moves, "c3e2"));
        assert!(score(&moves, "c3b5") > -3_000_000, "still before the losing captures");
    }
}
