//! Continuation history: how often a quiet move (its piece and destination)
//! caused a beta cutoff right after a given earlier move (that move's piece
//! and destination): the opponent's last move, one ply back, and our own
//! move before it, two plies back. Quiet moves are then ordered by their
//! butterfly history plus these.
//!
//! Also called: Ethereal's "counter-move history" (one ply back, `cmhist`)
//! and "follow-up history" (two plies back, `fmhist`); Stockfish's
//! "continuation history" (`continuationHistory`, read several plies back).
//! Not the countermove heuristic (one refutation per earlier move), which
//! the baseline has.
//!
//! Phases, side by side:
//! - `continuation-history-1ply` (Ethereal's counter-move history, Stockfish's
//!   continuation history one ply back): a table indexed by the side to
//!   move, the piece and destination of the move one ply back (the
//!   opponent's last move), and the quiet move's piece and destination;
//!   each entry within ±16384 with the butterfly history's gravity (`bonus −
//!   entry·|bonus| / 16384`, Ethereal's). On a beta cutoff of the main
//!   search by a quiet move, that move's entry gets the butterfly's bonus
//!   (`128·depth − 64`, at most 1536) and the quiet moves picked before it
//!   the same malus, when the earlier move exists (not at the root, not
//!   after a null move). Quiet moves ordered by history (the TT move,
//!   killers and the countermove keep their slots) are ordered by butterfly
//!   + one-ply history.
//! - `continuation-history` (Ethereal, whose quiet moves are ordered by
//!   butterfly + counter-move + follow-up history; Stockfish's continuation
//!   history reads more plies back): a second table of the same shape for
//!   the move two plies back (our own move before the opponent's), learnt
//!   the same way; quiet moves are ordered by butterfly + one-ply + two-ply
//!   history.
//!
//!   Where they depart: Ethereal indexes by piece types without colour and
//!   splits the earlier move by whether it captured, Stockfish by coloured
//!   pieces split by check and capture; here the side to move makes the
//!   colours exact and there is no split. Ethereal skips the update of a
//!   cutoff by the first quiet at depth ≤ 3, gives a bonus quadratic in
//!   depth and penalises only the quiets it searched; here every quiet
//!   cutoff updates with the baseline's bonus, penalising every quiet
//!   picked before it, pruned ones included, exactly as the butterfly
//!   history does, so the tables learn together. Stockfish weighs the
//!   butterfly history double. Both engines also prune and reduce by these
//!   tables; here they only order: `lmr-history`, `history-pruning` and
//!   `lmp-history` still read the butterfly history alone
//!   (`Candidate::history`), since their thresholds are on its ±16384 scale
//!   and the sum spans two or three times that.
//!
//! Memory: the tables (0.6 MB each) are allocated by the first search that
//! runs the technique and dropped by `ucinewgame`; other builds allocate
//! nothing.
//!
//! Telemetry: `cont_hist: cut=X first=Y first%=Z.Z%`: beta cutoffs of the
//! main search by a quiet move the history ordered (not the TT move, a
//! killer or the countermove), and how many of them by the first such move
//! picked.
//!
//! Measured: full-without-continuation_history is no ablation: no feature of continuation_history is in full.

use cozy_chess::{Color, Piece, Square};

use crate::context::Context;
use crate::movepick::{gravity, history_bonus, MoveKind, ScoredMove};
use crate::search::{Cutoff, Node, NodeType};
use crate::stats::first_rate;
use crate::techniques::{Hooks, Technique, TechniqueCounters, TechniqueSet, Techniques};
use crate::{counters, features};

/// How many plies back quiet moves are ordered by continuation history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContinuationHistory {
    /// `continuation-history-1ply`
    pub one_ply: bool,
    /// `continuation-history`
    pub two_plies: bool,
}

features! {
    ContinuationHistory {
        one_ply: "continuation-history-1ply" [] "Ethereal (counter-move history), Stockfish"
            => "quiet moves ordered by butterfly + one-ply continuation history";
        two_plies: "continuation-history" ["continuation-history-1ply"]
            "Ethereal (counter-move and follow-up history), Stockfish"
            => "quiet moves ordered by butterfly + one-ply + two-ply continuation history";
    }
}

impl ContinuationHistory {
    pub const fn is_on(&self) -> bool {
        self.one_ply
    }

    /// The tables it reads: one per ply back.
    const fn tables(&self) -> usize {
        self.one_ply as usize + self.two_plies as usize
    }
}

counters! {
    /// `cont_hist:` telemetry.
    pub struct ContinuationHistoryCounters {
        /// Cutoffs by a quiet move the history ordered, and by the first of them picked.
        pub cutoffs: u64,
        pub first: u64,
    }
}

/// How far back the earlier move of each table is: one ply, two plies.
const PLIES_BACK: [usize; 2] = [1, 2];
/// The entries that follow one earlier move: `[piece][to]` of the quiet move.
const BLOCK: usize = Piece::NUM * Square::NUM;
/// The earlier moves of one table: `[side to move][piece][to]`.
const CONTEXTS: usize = Color::NUM * Piece::NUM * Square::NUM;
/// The entries of one table.
const TABLE: usize = CONTEXTS * BLOCK;

/// The tables, `[plies back][side to move][earlier piece][earlier
/// to][piece][to]`, each entry within ±`HISTORY_MAX`; empty until a search
/// with the technique needs them.
pub struct ContinuationHistoryTables {
    entries: Vec<i16>,
}

/// Where the entries following one earlier move start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Block(usize);

impl ContinuationHistoryTables {
    /// No tables yet: nothing is allocated.
    pub const fn new() -> Self {
        ContinuationHistoryTables { entries: Vec::new() }
    }

    /// `ucinewgame`: forgets everything; the next search that runs the
    /// technique allocates the tables again, zeroed.
    pub fn clear(&mut self) {
        self.entries = Vec::new();
    }

    /// Allocates the zeroed tables a search with technique set `T` reads,
    /// when they are not there yet.
    pub fn prepare<T: TechniqueSet>(&mut self) {
        let needed = T::TECHNIQUES.continuation_history.tables() * TABLE;
        if self.entries.len() < needed {
            self.entries.resize(needed, 0);
        }
    }

    /// The block of the earlier move `piece` to `to`, `plies_back` (an
    /// index of `PLIES_BACK`) before a move by `us`.
    fn block(plies_back: usize, us: Color, piece: Piece, to: Square) -> Block {
        let context = (us as usize * Piece::NUM + piece as usize) * Square::NUM + to as usize;
        Block(plies_back * TABLE + context * BLOCK)
    }

    fn index(block: Block, quiet: &ScoredMove) -> usize {
        block.0 + quiet.piece as usize * Square::NUM + quiet.mv.to as usize
    }

    /// The sum of `quiet`'s entries after the earlier moves there are.
    fn get(&self, blocks: &[Option<Block>; 2], quiet: &ScoredMove) -> i32 {
        blocks.iter().flatten().map(|&block| i32::from(self.entries[Self::index(block, quiet)])).sum()
    }

    /// Adds `bonus` (negative for a malus) to `quiet`'s entries after the
    /// earlier moves there are, with gravity.
    fn update(&mut self, blocks: &[Option<Block>; 2], quiet: &ScoredMove, bonus: i32) {
        for &block in blocks.iter().flatten() {
            let entry = &mut self.entries[Self::index(block, quiet)];
            // Gravity keeps the entry within ±HISTORY_MAX, which fits an i16.
            *entry = gravity(i32::from(*entry), bonus) as i16;
        }
    }
}

impl Default for ContinuationHistoryTables {
    fn default() -> Self {
        Self::new()
    }
}

/// The blocks of the moves one and two plies before a move by `us` at
/// `ply`, of the tables `T` reads: none above the root nor for a null
/// move.
fn continuation_blocks<T: TechniqueSet>(
    cx: &mut Context<'_, '_, T, ContinuationHistory>,
    us: Color,
    ply: usize,
) -> [Option<Block>; 2] {
    let tables = T::TECHNIQUES.continuation_history.tables();
    debug_assert!(cx.tables().entries.len() >= tables * TABLE, "continuation history unallocated");
    let mut blocks = [None; 2];
    for (index, (block, back)) in blocks.iter_mut().zip(PLIES_BACK).enumerate().take(tables) {
        let Some(earlier) = ply.checked_sub(back).map(|earlier| cx.entry(earlier)) else { continue };
        if let (Some(mv), Some(piece)) = (earlier.current_move, earlier.moved_piece) {
            *block = Some(ContinuationHistoryTables::block(index, us, piece, mv.to));
        }
    }
    blocks
}

impl Hooks for ContinuationHistory {
    /// Move ordering: adds the continuation histories to the history-ordered quiets.
    fn order_moves<T: TechniqueSet, NT: NodeType>(
        cx: &mut Context<'_, '_, T, Self>,
        node: &Node,
        moves: &mut [ScoredMove],
    ) {
        if !T::TECHNIQUES.continuation_history.is_on() {
            return;
        }
        let blocks = continuation_blocks(cx, node.board.side_to_move(), node.ply);
        if blocks == [None; 2] {
            return;
        }
        for entry in moves.iter_mut().filter(|entry| entry.kind == MoveKind::Quiet) {
            entry.add_to_score(cx.tables().get(&blocks, entry));
        }
    }

    /// The best-move update: a quiet cutoff's move earns the bonus, the quiets picked
    /// before it the malus.
    fn update_histories<T: TechniqueSet>(cx: &mut Context<'_, '_, T, Self>, cutoff: &Cutoff) {
        let Cutoff { board, ply, depth, cut, tried_before } = *cutoff;
        if !T::TECHNIQUES.continuation_history.is_on() || !cut.is_quiet() {
            return;
        }
        if cut.kind == MoveKind::Quiet {
            let counters = cx.counters();
            counters.cutoffs += 1;
            counters.first += u64::from(!tried_before.iter().any(|tried| tried.kind == MoveKind::Quiet));
        }
        let blocks = continuation_blocks(cx, board.side_to_move(), ply);
        if blocks == [None; 2] {
            return;
        }
        let bonus = history_bonus(depth);
        cx.tables().update(&blocks, cut, bonus);
        for tried in tried_before.iter().filter(|tried| tried.is_quiet()) {
            cx.tables().update(&blocks, tried, -bonus);
        }
    }
}

impl Technique for ContinuationHistory {
    const NAME: &'static str = "continuation_history";
    type Counters = ContinuationHistoryCounters;

    fn of(set: &Techniques) -> &Self {
        &set.continuation_history
    }

    fn counters(all: &TechniqueCounters) -> &ContinuationHistoryCounters {
        &all.continuation_history
    }

    fn counters_mut(all: &mut TechniqueCounters) -> &mut ContinuationHistoryCounters {
        &mut all.continuation_history
    }

    /// `cont_hist: cut=X first=Y first%=Z.Z%`.
    fn report(&self, counters: &ContinuationHistoryCounters) -> Vec<String> {
        if !self.is_on() {
            return Vec::new();
        }
        vec![format!("cont_hist: {}", first_rate(counters.cutoffs, counters.first))]
    }

    fn snapshot_counters(counters: &ContinuationHistoryCounters) -> Vec<(&'static str, u64, u64)> {
        vec![("cont_hist", counters.cutoffs, counters.first)]
    }
}

#[cfg(test)]
mod tests {
    use cozy_chess::Board;

    use super::*;
    use crate::movepick::{generate, HISTORY_MAX};
    use crate::techniques::Techniques;

    // The features' sets of the catalogue test, compiled once.
    use super::feature_searches::{one_ply as OnePly, two_plies as TwoPlies};
    use crate::techniques::Baseline as Without;

    fn quiet(board: &Board, text: &str) -> ScoredMove {
        let mut moves = Vec::new();
        generate(board, false, &mut moves);
        *moves.iter().find(|entry| entry.mv.to_string() == text).unwrap()
    }

    #[test]
    fn tables_exist_only_for_a_search_that_runs_the_technique() {
        let mut tables = ContinuationHistoryTables::new();
        tables.prepare::<Without>();
        assert!(tables.entries.is_empty());
        tables.prepare::<OnePly>();
        assert_eq!(tables.entries.len(), 768 * 384);
        tables.prepare::<TwoPlies>();
        assert_eq!(tables.entries.len(), 2 * 768 * 384);
        tables.prepare::<OnePly>();
        assert_eq!(tables.entries.len(), 2 * 768 * 384);
        tables.clear();
        assert!(tables.entries.is_empty());
    }

    #[test]
    fn each_earlier_move_has_its_own_entries() {
        let mut tables = ContinuationHistoryTables::new();
        tables.prepare::<TwoPlies>();
        let board = Board::default();
        let knight = quiet(&board, "g1f3");
        let after_e5 = ContinuationHistoryTables::block(0, Color::White, Piece::Pawn, Square::E5);
        let after_d5 = ContinuationHistoryTables::block(0, Color::White, Piece::Pawn, Square::D5);
        let two_back = ContinuationHistoryTables::block(1, Color::White, Piece::Pawn, Square::E5);
        assert!(after_e5 != after_d5 && after_e5 != two_back);
        tables.update(&[Some(after_e5), None], &knight, 1536);
        assert_eq!(tables.get(&[Some(after_e5), None], &knight), 1536);
        assert_eq!(tables.get(&[Some(after_d5), Some(two_back)], &knight), 0);
        assert_eq!(tables.get(&[Some(after_e5), Some(two_back)], &knight), 1536);
        assert_eq!(tables.get(&[None, None], &knight), 0);
        for _ in 0..1000 {
            tables.update(&[Some(after_e5), Some(two_back)], &knight, 1536);
        }
        assert!(tables.get(&[Some(after_e5), None], &knight) <= HISTORY_MAX);
        assert!(tables.get(&[Some(after_e5), Some(two_back)], &knight) > HISTORY_MAX * 18 / 10);
    }

    #[test]
    fn blocks_cover_the_tables() {
        let last = ContinuationHistoryTables::block(1, Color::Black, Piece::King, Square::H8);
        assert_eq!(last.0 + BLOCK, 2 * TABLE);
    }

    #[test]
    fn features_switch_it_on_one_table_per_ply() {
        let none = ContinuationHistory::BASELINE;
        assert_eq!((none.is_on(), none.tables()), (false, 0));
        let one = Techniques::of(&["continuation-history-1ply"]).continuation_history;
        assert_eq!((one.is_on(), one.tables()), (true, 1));
        let two = Techniques::of(&["continuation-history"]).continuation_history;
        assert_eq!((two.is_on(), two.tables()), (true, 2));
        assert_eq!(Techniques::of(&["capture-history"]).continuation_history, none);
    }

    #[test]
    fn report_only_when_on() {
        let counters = ContinuationHistoryCounters { cutoffs: 4, first: 1 };
        assert!(ContinuationHistory::BASELINE.report(&counters).is_empty());
        assert_eq!(
            ContinuationHistory { one_ply: true, two_plies: false }.report(&counters),
            ["cont_hist: cut=4 first=1 first%=25.0%"]
        );
    }
}
