//! Capture history: how often a capture (the piece that takes, where, and
//! what it takes) caused a beta cutoff; captures are then ordered by the
//! victim's value plus that history instead of by MVV-LVA.
//!
//! Also called: Stockfish's `captureHistory` (`CapturePieceToHistory`),
//! Ethereal's capture history (`chistory`); "noisy" or "tactical history"
//! in other engines.
//!
//! Phases:
//! - `capture-history` (Stockfish, where a capture's ordering value is
//!   `7 × PieceValue[captured] + captureHistory[piece][to][captured type]`;
//!   Ethereal's capture history is the same idea on the same ±16384 scale
//!   as this engine's butterfly history): a table indexed by the side to
//!   move, the moving piece, the destination and the captured piece type
//!   (Stockfish's indexing; en passant takes a pawn), each entry within
//!   ±16384 with the butterfly history's gravity (`bonus − entry·|bonus| /
//!   16384`, Ethereal's divisor). On a beta cutoff of the main search by a
//!   capture, that capture gets the butterfly's bonus (`128·depth − 64`, at
//!   most 1536) and every capture picked before it the same malus. The main
//!   search's good and bad captures (the baseline's SEE ≥ 0 split) are then
//!   ordered, each group among itself, by `victim value ×
//!   CaptureHistoryVictimFactor + history` instead of MVV-LVA (16 by
//!   default: a pawn is worth 1600 of history, a queen 14400; Stockfish's
//!   7 × PieceValue weighs a pawn at 0.14 of its history bound, Ethereal's
//!   victim bonuses a little under 0.07, this 0.10).
//!
//!   Where it departs: Stockfish and Ethereal also penalise the captures
//!   tried before a quiet move's cutoff; here only a capture's cutoff
//!   teaches the table. They penalise only the captures they searched,
//!   where this engine penalises every capture picked before the cutoff,
//!   pruned ones included, as its butterfly history does with quiets. Both
//!   order quiescence's captures by the history too; here quiescence keeps
//!   MVV-LVA. Stockfish splits good from bad captures by a SEE threshold
//!   that depends on the move's score, where the baseline's split stays and
//!   only the order inside each group changes; Ethereal also indexes by
//!   whether the from and to squares are attacked. The bonus is the
//!   baseline's, not either engine's. A capture that promotes is ordered by
//!   its victim alone (Ethereal puts queen promotions first; the baseline's
//!   MVV-LVA gave them a tie-break). The TT move and under-promotions keep
//!   their baseline order, and the history orders captures only: neither
//!   engine's other readers of it (their LMR of captures, futility and SEE
//!   margins, ProbCut's order) are here.
//!
//! Telemetry: `capt_hist: cut=X first=Y first%=Z.Z%`: beta cutoffs of the
//! main search by a capture the history ordered (a good or bad capture, not
//! the TT move), and how many of them by the first such capture picked.
//!
//! Measured: full-without-capture_history is no ablation: no feature of capture_history is in full.

use cozy_chess::{Color, Piece, Square};

use crate::context::Context;
use crate::eval::PIECE_VALUES;
use crate::movepick::{gravity, history_bonus, MoveKind, ScoredMove};
use crate::search::{Cutoff, Node, NodeType};
use crate::stats::first_rate;
use crate::techniques::{Hooks, Technique, TechniqueCounters, TechniqueSet, Techniques};
use crate::tune::Tunable;
use crate::{counters, features, tunables};

/// Whether captures are ordered by capture history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaptureHistory {
    /// `capture-history`
    pub enabled: bool,
}

features! {
    CaptureHistory {
        enabled: "capture-history" [] "Stockfish (capture history), Ethereal"
            => "captures ordered by victim value * 16 + capture history instead of MVV-LVA";
    }
}

counters! {
    /// `capt_hist:` telemetry.
    pub struct CaptureHistoryCounters {
        /// Cutoffs by a capture the history ordered, and by the first of them picked.
        pub cutoffs: u64,
        pub first: u64,
    }
}

tunables! {
    /// A capture's ordering key is the victim's value times this, plus its history.
    CAPTURE_HISTORY_VICTIM_FACTOR: 16, 4, 64, 2;
}

/// The capture history table: `[side to move][moving piece][to][captured
/// piece]`, each entry within ±`HISTORY_MAX`.
pub struct CaptureHistoryTable {
    table: [[[[i16; Piece::NUM]; Square::NUM]; Piece::NUM]; Color::NUM],
}

impl CaptureHistoryTable {
    pub fn new() -> Box<Self> {
        Box::new(CaptureHistoryTable { table: [[[[0; Piece::NUM]; Square::NUM]; Piece::NUM]; Color::NUM] })
    }

    /// The history of `capture` (a move that takes something) by `us`.
    pub fn get(&self, us: Color, capture: &ScoredMove) -> i32 {
        let (piece, to, victim) = key(capture);
        i32::from(self.table[us as usize][piece as usize][to as usize][victim as usize])
    }

    /// Adds `bonus` (negative for a malus) to the history of `capture`, with gravity.
    pub fn update(&mut self, us: Color, capture: &ScoredMove, bonus: i32) {
        let (piece, to, victim) = key(capture);
        let entry = &mut self.table[us as usize][piece as usize][to as usize][victim as usize];
        // Gravity keeps the entry within ±HISTORY_MAX, which fits an i16.
        *entry = gravity(i32::from(*entry), bonus) as i16;
    }
}

/// The table's key of a capture: the moving piece, where it goes, what it takes.
fn key(capture: &ScoredMove) -> (Piece, Square, Piece) {
    let victim = capture.captured.expect("capture history keeps captures only");
    (capture.piece, capture.mv.to, victim)
}

/// A capture's ordering key: its victim's value, weighted, plus its history.
pub fn capture_order_key(victim: Piece, history: i32) -> i32 {
    PIECE_VALUES[victim as usize] * CAPTURE_HISTORY_VICTIM_FACTOR.get() + history
}

/// The captures whose order the history decides: the good and bad captures,
/// not the TT move nor under-promotions.
fn is_ordered_by_history(entry: &ScoredMove) -> bool {
    entry.captured.is_some() && matches!(entry.kind, MoveKind::GoodCapture | MoveKind::BadCapture)
}

impl Hooks for CaptureHistory {
    /// Move ordering: orders the good and the bad captures by victim value and
    /// capture history, each group among itself.
    fn order_moves<T: TechniqueSet, NT: NodeType>(
        cx: &mut Context<'_, '_, T, Self>,
        node: &Node,
        moves: &mut [ScoredMove],
    ) {
        if !T::TECHNIQUES.capture_history.enabled {
            return;
        }
        let us = node.board.side_to_move();
        for entry in moves.iter_mut().filter(|entry| is_ordered_by_history(entry)) {
            let victim = entry.captured.expect("a capture");
            let key = capture_order_key(victim, cx.table().get(us, entry));
            entry.set_capture_key(key);
        }
    }

    /// The best-move update: a capture's cutoff; it earns the bonus, the
    /// captures picked before it the malus.
    fn update_histories<T: TechniqueSet>(cx: &mut Context<'_, '_, T, Self>, cutoff: &Cutoff) {
        let Cutoff { board, depth, cut, tried_before, .. } = *cutoff;
        if !T::TECHNIQUES.capture_history.enabled || cut.captured.is_none() {
            return;
        }
        if is_ordered_by_history(cut) {
            let counters = cx.counters();
            counters.cutoffs += 1;
            counters.first += u64::from(!tried_before.iter().any(is_ordered_by_history));
        }
        let us = board.side_to_move();
        let bonus = history_bonus(depth);
        cx.table().update(us, cut, bonus);
        for tried in tried_before.iter().filter(|tried| tried.captured.is_some()) {
            cx.table().update(us, tried, -bonus);
        }
    }
}

impl Technique for CaptureHistory {
    const NAME: &'static str = "capture_history";
    type Counters = CaptureHistoryCounters;

    fn of(set: &Techniques) -> &Self {
        &set.capture_history
    }

    fn counters(all: &TechniqueCounters) -> &CaptureHistoryCounters {
        &all.capture_history
    }

    fn counters_mut(all: &mut TechniqueCounters) -> &mut CaptureHistoryCounters {
        &mut all.capture_history
    }

    /// `capt_hist: cut=X first=Y first%=Z.Z%`.
    fn report(&self, counters: &CaptureHistoryCounters) -> Vec<String> {
        if !self.enabled {
            return Vec::new();
        }
        vec![format!("capt_hist: {}", first_rate(counters.cutoffs, counters.first))]
    }

    fn snapshot_counters(counters: &CaptureHistoryCounters) -> Vec<(&'static str, u64, u64)> {
        vec![("capt_hist", counters.cutoffs, counters.first)]
    }

    fn tunable_list() -> &'static [&'static Tunable] {
        TUNABLES
    }
}

#[cfg(test)]
mod tests {
    use cozy_chess::Board;

    use super::*;
    use crate::movepick::{generate, pick_next, score_main, History, OrderingHints, HISTORY_MAX};

    /// The queen on d1 can take the rook on a4 or the knight on d3, the
    /// bishop on b1 the knight too; nothing is defended.
    const FEN: &str = "7k/8/8/8/r7/3n4/8/1B1Q3K w - - 0 1";

    fn find(moves: &[ScoredMove], text: &str) -> ScoredMove {
        *moves.iter().find(|entry| entry.mv.to_string() == text).unwrap()
    }

    fn picked(moves: &mut [ScoredMove]) -> Vec<String> {
        let mut order = Vec::new();
        while let Some(entry) = pick_next(moves, order.len()) {
            order.push(entry.mv.to_string());
        }
        order
    }

    #[test]
    fn the_victim_weighs_and_history_can_overturn_it() {
        assert_eq!(CAPTURE_HISTORY_VICTIM_FACTOR.get(), 16);
        assert_eq!(capture_order_key(Piece::Pawn, 0), 1600);
        assert_eq!(capture_order_key(Piece::Queen, -100), 14300);
        assert!(capture_order_key(Piece::Pawn, HISTORY_MAX) > capture_order_key(Piece::Rook, 0));
    }

    #[test]
    fn updates_have_gravity_and_stay_in_bounds() {
        let board = Board::from_fen(FEN, false).unwrap();
        let mut moves = Vec::new();
        generate(&board, true, &mut moves);
        let capture = find(&moves, "b1d3");
        let mut table = CaptureHistoryTable::new();
        table.update(Color::White, &capture, 1536);
        assert_eq!(table.get(Color::White, &capture), 1536);
        assert_eq!(table.get(Color::Black, &capture), 0, "the side to move is part of the key");
        assert_eq!(table.get(Color::White, &find(&moves, "d1d3")), 0, "so is the moving piece");
        for _ in 0..1000 {
            table.update(Color::White, &capture, -1536);
        }
        assert!((-HISTORY_MAX..=-HISTORY_MAX * 9 / 10).contains(&table.get(Color::White, &capture)));
    }

    #[test]
    fn history_reorders_captures_within_their_band() {
        let board = Board::from_fen(FEN, false).unwrap();
        let mut moves = Vec::new();
        generate(&board, false, &mut moves);
        score_main(&board, &mut moves, &OrderingHints::default(), &History::new());
        // MVV-LVA: the rook first, then the knight by the bishop, then by the queen.
        let good = |moves: &mut [ScoredMove]| picked(moves)[..3].to_vec();
        assert_eq!(good(&mut moves.clone()), ["d1a4", "b1d3", "d1d3"]);
        let mut table = CaptureHistoryTable::new();
        for _ in 0..20 {
            table.update(Color::White, &find(&moves, "d1d3"), 1536);
            table.update(Color::White, &find(&moves, "d1a4"), -1536);
        }
        for entry in moves.iter_mut().filter(|entry| is_ordered_by_history(entry)) {
            let key = capture_order_key(entry.captured.unwrap(), table.get(Color::White, entry));
            entry.set_capture_key(key);
        }
        assert_eq!(good(&mut moves.clone()), ["d1d3", "b1d3", "d1a4"]);
        assert!(moves.iter().filter(|entry| entry.captured.is_some()).all(|entry| entry.score() > 2_500_000));
    }

    #[test]
    fn feature_switches_it_on() {
        assert_eq!(CaptureHistory::BASELINE, CaptureHistory { enabled: false });
        assert_eq!(CaptureHistory::BASELINE.with("capture-history"), CaptureHistory { enabled: true });
        assert_eq!(CaptureHistory::BASELINE.with("continuation-history"), CaptureHistory::BASELINE);
        assert!(CaptureHistory::BASELINE.tunables().is_empty());
        assert_eq!(CaptureHistory { enabled: true }.tunables().len(), 1);
    }

    #[test]
    fn report_only_when_on() {
        let counters = CaptureHistoryCounters { cutoffs: 8, first: 6 };
        assert!(CaptureHistory::BASELINE.report(&counters).is_empty());
        assert_eq!(CaptureHistory { enabled: true }.report(&counters), ["capt_hist: cut=8 first=6 first%=75.0%"]);
    }
}
