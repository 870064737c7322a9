//! Move generation into a scored list and move ordering.
//!
//! Main search order: TT move, good captures (SEE ≥ 0) by MVV-LVA, queen
//! promotions, two killers, the countermove, quiet moves by butterfly
//! history, bad captures, then under-promotions. Quiescence order: captures
//! and queen promotions by MVV-LVA.

use cozy_chess::{BitBoard, Board, Color, Move, Piece, Rank, Square};

use crate::position::gives_check;
use crate::see::{capture_targets, captured_piece, see_ge_of};

/// What kind of move a picked move is, as ordering classified it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    TtMove,
    GoodCapture,
    Promotion,
    Killer,
    CounterMove,
    Quiet,
    BadCapture,
    UnderPromotion,
}

/// A generated move with what ordering and the search ask of it, found once
/// at generation: the piece that moves and the piece it captures.
#[derive(Clone, Copy, Debug)]
pub struct ScoredMove {
    pub mv: Move,
    pub kind: MoveKind,
    pub piece: Piece,
    /// A pawn for en passant; `None` for quiet moves and castling.
    pub captured: Option<Piece>,
    score: i32,
    /// A technique's part of the score is still to come: it is settled when
    /// the move would be picked (see `pick_next_settling`).
    deferred: bool,
    /// Dropped by a node that skips its remaining quiet moves, but kept in
    /// its place (see `mark_dropped_quiets`): the search passes over it.
    dropped: bool,
}

impl ScoredMove {
    /// The TT move (a legal move of `board`) as `score_main` scores it, for
    /// a node that tries it before generating the others.
    pub fn tt_move(board: &Board, mv: Move) -> Self {
        ScoredMove {
            mv,
            kind: MoveKind::TtMove,
            piece: board.piece_on(mv.from).expect("a legal move has a piece"),
            captured: captured_piece(board, mv),
            score: TT_MOVE_SCORE,
            deferred: false,
            dropped: false,
        }
    }

    /// Neither a capture nor a promotion.
    pub fn is_quiet(&self) -> bool {
        self.captured.is_none() && self.mv.promotion.is_none()
    }

    /// Whether a node skipping its quiet moves dropped this one.
    pub fn is_dropped(&self) -> bool {
        self.dropped
    }

    /// The move's ordering score (higher is tried first).
    pub fn score(&self) -> i32 {
        self.score
    }

    /// Lowers the move's ordering score, for a technique's ordering hook
    /// that moves it back among its kind.
    pub fn lower_score(&mut self, by: i32) {
        self.score -= by;
    }

    /// Leaves part of the move's score to be settled when the move would be
    /// picked, for an ordering term too costly to compute for every move.
    /// The term may only lower the score: the picker then hands out the
    /// same order as if every term had been computed first.
    pub fn defer(&mut self) {
        self.deferred = true;
    }

    /// Adds a technique's term to the move's ordering score (a quiet move's
    /// score is its butterfly history, so the term must stay within a few
    /// times the history bound to keep the move among its kind).
    pub fn add_to_score(&mut self, term: i32) {
        self.score += term;
    }

    /// Replaces the move's ordering score by `score`, settled: no deferred
    /// term or SEE is applied to it later. For a technique that orders
    /// every move its own way (it sets `kind` to match).
    pub fn replace_score(&mut self, score: i32) {
        self.score = score;
        self.deferred = false;
    }

    /// Replaces the MVV-LVA term of a main-search capture's score by `key`,
    /// for a technique that orders captures its own way: the capture keeps
    /// its kind's band (good or bad captures), and only its order among the
    /// captures of that band changes.
    pub fn set_capture_key(&mut self, key: i32) {
        debug_assert!(self.captured.is_some(), "a capture key for {:?}", self.mv);
        debug_assert!(key.abs() < CAPTURE_KEY_LIMIT, "capture key {key} leaves its band");
        self.score += key - mvv_lva(self);
    }
}

/// The TT move's score: above every other move's.
pub const TT_MOVE_SCORE: i32 = 4_000_000;

/// A capture's ordering key stays within ±this: the bands of the main
/// search's kinds are 500 000 apart.
pub const CAPTURE_KEY_LIMIT: i32 = 250_000;

/// Ordering context: the moves a node already knows to be promising.
#[derive(Clone, Copy, Default)]
pub struct OrderingHints {
    pub tt_move: Option<Move>,
    pub killers: [Option<Move>; 2],
    pub counter_move: Option<Move>,
}

/// The bound of every history table: gravity keeps an entry within ±this.
pub const HISTORY_MAX: i32 = 16_384;

/// `entry` moved by `bonus` (negative for a malus), pulled towards zero as
/// it nears its bound (gravity: `bonus - entry * |bonus| / HISTORY_MAX`), so
/// old results fade and the entry stays within ±`HISTORY_MAX`.
pub fn gravity(entry: i32, bonus: i32) -> i32 {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    entry + bonus - entry * bonus.abs() / HISTORY_MAX
}

/// Butterfly history: how often a quiet move by a colour from one square to
/// another caused a cutoff, with gravity so old results fade.
pub struct History {
    table: [[[i32; 64]; 64]; 2],
}

impl History {
    pub fn new() -> Box<Self> {
        Box::new(History { table: [[[0; 64]; 64]; 2] })
    }

    pub fn get(&self, color: Color, mv: Move) -> i32 {
        self.table[color as usize][mv.from as usize][mv.to as usize]
    }

    /// Adds `bonus` (negative for a malus), pulled towards zero as the entry
    /// nears its bound.
    pub fn update(&mut self, color: Color, mv: Move, bonus: i32) {
        let entry = &mut self.table[color as usize][mv.from as usize][mv.to as usize];
        *entry = gravity(*entry, bonus);
    }
}

/// The history bonus for a move that caused a cutoff at `depth`.
pub fn history_bonus(depth: i32) -> i32 {
    (128 * depth - 64).clamp(0, 1536)
}

/// The reply that refuted the opponent's last move, by that move's colour,
/// piece and destination.
pub struct CounterMoves {
    table: [[[Option<Move>; 64]; 6]; 2],
}

impl CounterMoves {
    pub fn new() -> Box<Self> {
        Box::new(CounterMoves { table: [[[None; 64]; 6]; 2] })
    }

    pub fn get(&self, color: Color, piece: Piece, to: Square) -> Option<Move> {
        self.table[color as usize][piece as usize][to as usize]
    }

    pub fn set(&mut self, color: Color, piece: Piece, to: Square, reply: Move) {
        self.table[color as usize][piece as usize][to as usize] = Some(reply);
    }
}

/// True for captures, including en passant; castling (king takes own rook in
/// cozy-chess) is not a capture.
pub fn is_capture(board: &Board, mv: Move) -> bool {
    captured_piece(board, mv).is_some()
}

/// A quiet move: neither a capture nor a promotion.
pub fn is_quiet(board: &Board, mv: Move) -> bool {
    mv.promotion.is_none() && !is_capture(board, mv)
}

/// Most valuable victim first, least valuable attacker breaking ties.
pub fn mvv_lva(entry: &ScoredMove) -> i32 {
    let victim = entry.captured.map_or(0, |piece| piece as i32 + 1);
    let promotion = if entry.mv.promotion == Some(Piece::Queen) { 8 } else { 0 };
    victim * 16 + promotion - entry.piece as i32
}

/// Appends every legal move, or only captures and queen promotions.
pub fn generate(board: &Board, tactical_only: bool, list: &mut Vec<ScoredMove>) {
    list.clear();
    let theirs = board.colors(!board.side_to_move());
    // Only a pawn captures on the en-passant square; only a pawn promotes.
    let pawn_targets = capture_targets(board) | Rank::Eighth.relative_to(board.side_to_move()).bitboard();
    board.generate_moves(|mut piece_moves| {
        let piece = piece_moves.piece;
        if tactical_only {
            let targets: BitBoard = if piece == Piece::Pawn { pawn_targets } else { theirs };
            piece_moves.to &= targets;
        }
        for mv in piece_moves {
            if tactical_only && mv.promotion.is_some_and(|piece| piece != Piece::Queen) {
                continue;
            }
            list.push(unscored(board, theirs, piece, mv));
        }
        false
    });
}

/// Every legal move, for a staged list (`staged-captures`): the captures
/// and promotions into `noisy`, the quiet moves into `quiets`, each in
/// `generate`'s order. One generation costs less than one per stage.
pub fn generate_split(board: &Board, noisy: &mut Vec<ScoredMove>, quiets: &mut Vec<ScoredMove>) {
    noisy.clear();
    quiets.clear();
    let theirs = board.colors(!board.side_to_move());
    board.generate_moves(|piece_moves| {
        let piece = piece_moves.piece;
        for mv in piece_moves {
            let entry = unscored(board, theirs, piece, mv);
            if entry.is_quiet() {
                quiets.push(entry);
            } else {
                noisy.push(entry);
            }
        }
        false
    });
}

/// A generated move, before scoring. `theirs` is the opponent's pieces.
#[inline(always)]
fn unscored(board: &Board, theirs: BitBoard, piece: Piece, mv: Move) -> ScoredMove {
    let captured = if theirs.has(mv.to) {
        board.piece_on(mv.to)
    } else if piece == Piece::Pawn && mv.from.file() != mv.to.file() {
        Some(Piece::Pawn) // en passant
    } else {
        None
    };
    ScoredMove { mv, kind: MoveKind::Quiet, piece, captured, score: 0, deferred: false, dropped: false }
}

/// The highest score a quiet move other than the TT move can have (the
/// first killer's). Every other move scores either above it (the TT move,
/// winning and equal captures, queen promotions) or below every quiet move
/// (losing captures, under-promotions; see `score_main`), so a staged list
/// picks its quiet moves only after every move scored above this.
pub const QUIET_SCORE_TOP: i32 = FIRST_KILLER_SCORE;

const FIRST_KILLER_SCORE: i32 = 2_000_001;

/// Scores a main-search move list; returns how many of the killers and the
/// countermove offered are not moves of this list (the TT move is checked
/// for legality by the search itself). Every capture's SEE is computed now,
/// so the list can be picked with [`pick_next`].
pub fn score_main(board: &Board, list: &mut [ScoredMove], hints: &OrderingHints, history: &History) -> u64 {
    score_list::<false>(board, list, hints, history)
}

/// [`score_main`], but a capture's SEE is left until the capture would be
/// picked ([`settle_capture`], through [`pick_next_settling`]): scored as a
/// good capture until then, it is lowered into the bad captures' band if it
/// loses material, which hands out the order of `score_main`, and a node
/// that cuts before a capture never computes its exchange.
pub fn score_main_deferring_see(
    board: &Board,
    list: &mut [ScoredMove],
    hints: &OrderingHints,
    history: &History,
) -> u64 {
    score_list::<true>(board, list, hints, history)
}

/// What a good capture's score loses when its SEE turns out below 0: it
/// moves from the good captures' band to the bad ones', keeping its key.
const GOOD_TO_BAD_CAPTURE: i32 = 6_000_000;

/// A move's from, to and promotion in 15 bits, so a comparison is one
/// instruction; [`NO_MOVE_KEY`] for no move.
#[inline(always)]
fn move_key(mv: Move) -> u16 {
    mv.from as u16 | (mv.to as u16) << 6 | (mv.promotion.map_or(0, |piece| piece as u16 + 1)) << 12
}

/// The key of no move: no move's key is this.
const NO_MOVE_KEY: u16 = u16::MAX;

fn hint_key(mv: Option<Move>) -> u16 {
    mv.map_or(NO_MOVE_KEY, move_key)
}

#[inline(always)]
fn score_list<const DEFER_SEE: bool>(
    board: &Board,
    list: &mut [ScoredMove],
    hints: &OrderingHints,
    history: &History,
) -> u64 {
    let us = board.side_to_move();
    let [tt_move, first_killer, second_killer, counter_move] =
        [hints.tt_move, hints.killers[0], hints.killers[1], hints.counter_move].map(hint_key);
    let mut found = [false; 3];
    for entry in list.iter_mut() {
        let mv = entry.mv;
        let key = move_key(mv);
        found[0] |= key == first_killer;
        found[1] |= key == second_killer;
        found[2] |= key == counter_move;
        let (kind, score) = if key == tt_move {
            (MoveKind::TtMove, TT_MOVE_SCORE)
        } else if mv.promotion.is_some_and(|piece| piece != Piece::Queen) {
            (MoveKind::UnderPromotion, -4_000_000 + mvv_lva(entry))
        } else if entry.captured.is_some() {
            if DEFER_SEE {
                entry.deferred = true;
                (MoveKind::GoodCapture, 3_000_000 + mvv_lva(entry))
            } else if see_ge_of(board, mv, entry.piece, entry.captured, 0) {
                (MoveKind::GoodCapture, 3_000_000 + mvv_lva(entry))
            } else {
                (MoveKind::BadCapture, 3_000_000 - GOOD_TO_BAD_CAPTURE + mvv_lva(entry))
            }
        } else if mv.promotion.is_some() {
            (MoveKind::Promotion, 2_500_000)
        } else if key == first_killer {
            (MoveKind::Killer, FIRST_KILLER_SCORE)
        } else if key == second_killer {
            (MoveKind::Killer, FIRST_KILLER_SCORE - 1)
        } else if key == counter_move {
            (MoveKind::CounterMove, 1_900_000)
        } else {
            (MoveKind::Quiet, history.get(us, mv))
        };
        entry.kind = kind;
        entry.score = score;
    }
    let offered = [first_killer, second_killer, counter_move];
    offered.iter().zip(found).filter(|&(&offered, found)| offered != NO_MOVE_KEY && !found).count() as u64
}

/// Settles a capture [`score_main_deferring_see`] left unsettled: a capture
/// that loses material becomes a bad capture. Returns whether `entry` was
/// such a capture (anything else is left alone).
#[inline]
pub fn settle_capture(board: &Board, entry: &mut ScoredMove) -> bool {
    if entry.kind != MoveKind::GoodCapture {
        return false;
    }
    if !see_ge_of(board, entry.mv, entry.piece, entry.captured, 0) {
        entry.kind = MoveKind::BadCapture;
        entry.score -= GOOD_TO_BAD_CAPTURE;
    }
    true
}

/// Appends the quiet moves that give check (neither captures nor
/// promotions), after every capture of a scored quiescence list, for a
/// quiescence that tries checks.
pub fn push_quiet_checks(board: &Board, list: &mut Vec<ScoredMove>) {
    let mut all = Vec::new();
    generate(board, false, &mut all);
    for entry in all {
        if entry.is_quiet() && gives_check(board, entry.mv) {
            list.push(ScoredMove { kind: MoveKind::Quiet, score: QUIET_CHECK_SCORE, ..entry });
        }
    }
}

/// Below every MVV-LVA score, so quiet checks come after the captures.
const QUIET_CHECK_SCORE: i32 = -1_000_000;

/// Scores a quiescence move list by MVV-LVA.
pub fn score_tactical(list: &mut [ScoredMove]) {
    for entry in list.iter_mut() {
        entry.kind = if entry.captured.is_some() { MoveKind::GoodCapture } else { MoveKind::Promotion };
        entry.score = mvv_lva(entry);
    }
}

/// Moves the last move of `list` to its front, shifting the others back one
/// place, while every score stays where it was.
pub fn move_to_front_keeping_scores(list: &mut [ScoredMove]) {
    list.rotate_right(1);
    // The scores moved with their moves; bubbling the first one to the end
    // puts each back in its place.
    for i in 1..list.len() {
        let (first, second) = (list[i - 1].score, list[i].score);
        list[i - 1].score = second;
        list[i].score = first;
    }
}

/// Removes the quiet moves of `list[from..]` (moves not picked yet) and
/// returns how many it removed, for a node that skips its remaining quiet
/// moves: the picker then scans only what is left, bad captures and
/// under-promotions, in the order picking every quiet move first would have
/// left them. That order matters only among equal scores (picking swaps
/// moves around), so only then are the quiet moves picked first, by their
/// scores as they stand, before they are removed. (With quiet moves that
/// stay, see `mark_dropped_quiets`.)
pub fn drop_quiets(list: &mut Vec<ScoredMove>, from: usize) -> usize {
    let before = list.len();
    if has_equal_scores(&list[from..]) {
        let (mut rest, mut memo) = (from, PickMemo::default());
        while pick_next_settling(list, rest, &mut memo, &mut |_| {}).is_some_and(|entry| entry.is_quiet()) {
            rest += 1;
        }
        list.drain(from..rest);
    }
    remove_from(list, from, ScoredMove::is_quiet);
    before - list.len()
}

/// Removes the moves of `list` after its first `from` for which `remove`
/// holds; the others keep their order.
pub fn remove_from(list: &mut Vec<ScoredMove>, from: usize, remove: impl Fn(&ScoredMove) -> bool) {
    let mut index = 0;
    list.retain(|entry| {
        index += 1;
        index <= from || !remove(entry)
    });
}

/// Whether two moves other than quiet ones have the same score.
fn has_equal_scores(list: &[ScoredMove]) -> bool {
    let mut others = list.iter().filter(|entry| !entry.is_quiet());
    while let Some(entry) = others.next() {
        if others.clone().any(|other| other.score == entry.score) {
            return true;
        }
    }
    false
}

/// Drops the quiet moves of `list[from..]` that `keep` does not keep, for a
/// node that skips its remaining quiet moves but keeps some (checks): a
/// kept quiet move comes among the dropped ones, and its move number and
/// the quiet moves its cutoff would punish depend on where. So the moves
/// are picked (and settled) in the search's order until the last dropped
/// one, and the dropped ones marked where they are: the search hands out
/// `list[from..end]` in place, passing over the marked moves, and picks as
/// usual from `end`. Returns how many it marked and `end`.
pub fn mark_dropped_quiets(
    list: &mut [ScoredMove],
    from: usize,
    keep: impl Fn(&ScoredMove) -> bool,
    mut settle: impl FnMut(&mut ScoredMove),
) -> (usize, usize) {
    let dropped = |entry: &ScoredMove| entry.is_quiet() && !keep(entry);
    let mut left = list[from..].iter().filter(|entry| dropped(entry)).count();
    let (marked, mut end) = (left, from);
    let mut memo = PickMemo::default();
    while left > 0 {
        let entry = pick_next_settling(list, end, &mut memo, &mut settle).expect("a move to drop is left");
        if dropped(&entry) {
            list[end].dropped = true;
            left -= 1;
        }
        end += 1;
    }
    (marked, end)
}

/// Hands out the best remaining move: a selection sort that stops as soon as
/// a cutoff makes the rest of the order irrelevant. Ties keep generation
/// order, so the order is deterministic.
#[inline]
pub fn pick_next(list: &mut [ScoredMove], next: usize) -> Option<ScoredMove> {
    // A deferred move is picked by its score as it stands: lists here
    // defer nothing, or (`drop_quiets`) only compare what is left.
    pick_next_settling(list, next, &mut PickMemo::default(), &mut |_| {})
}

/// The best score the last scan of a list found, for the picks after it.
/// While a move with that score is left, the next pick is the first such
/// move, found without a scan, which is what a scan would choose: no score
/// rises (a settled one only falls), and the moves tied at the best score
/// keep their places while they are picked (the move swapped away from the
/// front is one of them or below them). Moves removed from the list keep
/// that true.
#[derive(Clone, Copy, Debug, Default)]
pub struct PickMemo {
    best_score: Option<i32>,
}

/// `pick_next` for a list with deferred scores: when the best remaining move
/// is deferred, `settle` completes its score (lowering it or not) and the
/// choice is made again, before anything is swapped. As a deferred term only
/// lowers a score, the move handed out and every position in the list are
/// those of settling every move first, and a move never reached is never
/// settled. `memo` carries what one scan found to the next picks of the
/// same list.
#[inline]
pub fn pick_next_settling(
    list: &mut [ScoredMove],
    next: usize,
    memo: &mut PickMemo,
    settle: &mut dyn FnMut(&mut ScoredMove),
) -> Option<ScoredMove> {
    let best = settle_best(list, next, memo, settle)?;
    list.swap(next, best);
    Some(list[next])
}

/// Where the move `pick_next_settling` would hand out next is, its score
/// settled, without handing it out (a staged list asks what comes next
/// before its next stage is due). `settle` is a `dyn` call, made only for
/// a deferred move: one copy of this loop, not one per caller's closure in
/// each search (the variants build compiled 1,067).
#[inline]
pub fn settle_best(
    list: &mut [ScoredMove],
    next: usize,
    memo: &mut PickMemo,
    settle: &mut dyn FnMut(&mut ScoredMove),
) -> Option<usize> {
    loop {
        let rest = list.get(next..)?;
        let remembered = memo.best_score.and_then(|score| rest.iter().position(|entry| entry.score == score));
        let best = match remembered {
            Some(best) => best,
            None => {
                let (best, best_score) = scan_for_best(rest)?;
                memo.best_score = Some(best_score);
                best
            }
        };
        let chosen = &mut list[next + best];
        if chosen.deferred {
            chosen.deferred = false;
            let before = chosen.score;
            settle(chosen);
            debug_assert!(chosen.score <= before, "a deferred term raised {:?}", chosen.mv);
            continue;
        }
        return Some(next + best);
    }
}

/// The first best-scored move of `rest` and its score; `None` for an empty
/// list.
#[inline]
fn scan_for_best(rest: &[ScoredMove]) -> Option<(usize, i32)> {
    let (mut best, mut best_score) = (0, rest.first()?.score);
    // Written as selects, not branches: which entry wins is data the branch
    // predictor cannot learn.
    for (i, entry) in rest.iter().enumerate().skip(1) {
        let better = entry.score > best_score;
        best = if better { i } else { best };
        best_score = if better { entry.score } else { best_score };
    }
    Some((best, best_score))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves_in_order(fen: &str, hints: OrderingHints) -> Vec<(String, MoveKind)> {
        let board = Board::from_fen(fen, false).unwrap();
        let mut list = Vec::new();
        generate(&board, false, &mut list);
        score_main(&board, &mut list, &hints, &History::new());
        let mut ordered = Vec::new();
        let mut next = 0;
        while let Some(picked) = pick_next(&mut list, next) {
            ordered.push((picked.mv.to_string(), picked.kind));
            next += 1;
        }
        ordered
    }

    #[test]
    fn tt_move_then_good_captures_then_killers() {
        let fen = "4k3/8/8/3n4/4P3/2Q5/8/4K3 w - - 0 1";
        let killer: Move = "e1d1".parse().unwrap();
        let tt: Move = "e1f1".parse().unwrap();
        let order =
            moves_in_order(fen, OrderingHints { tt_move: Some(tt), killers: [Some(killer), None], counter_move: None });
        assert_eq!(order[0], ("e1f1".to_string(), MoveKind::TtMove));
        assert_eq!(order[1], ("e4d5".to_string(), MoveKind::GoodCapture));
        assert_eq!(order[2], ("e1d1".to_string(), MoveKind::Killer));
        assert_eq!(order.last().unwrap().1, MoveKind::Quiet);
    }

    #[test]
    fn losing_captures_come_after_quiet_moves() {
        // Qxd5 loses the queen to c6xd5.
        let order = moves_in_order("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", OrderingHints::default());
        assert_eq!(order.last().unwrap(), &("d2d5".to_string(), MoveKind::BadCapture));
        assert!(order[..order.len() - 1].iter().all(|(_, kind)| *kind == MoveKind::Quiet));
    }

    #[test]
    fn tactical_generation_keeps_captures_and_queen_promotions_only() {
        let board = Board::from_fen("1n2k3/P7/8/3p4/4P3/8/8/4K3 w - - 0 1", false).unwrap();
        let mut list = Vec::new();
        generate(&board, true, &mut list);
        let mut moves: Vec<String> = list.iter().map(|m| m.mv.to_string()).collect();
        moves.sort();
        assert_eq!(moves, ["a7a8q", "a7b8q", "e4d5"]);
    }

    #[test]
    fn tactical_generation_sends_no_piece_to_the_en_passant_square() {
        // After ...d7d5 the knight on b5 and the bishop on b4 reach d6 too, quietly.
        let board = Board::from_fen("4k3/8/8/1N1pP3/1B6/8/8/4K3 w - d6 0 2", false).unwrap();
        let mut list = Vec::new();
        generate(&board, true, &mut list);
        let mut moves: Vec<String> = list.iter().map(|m| m.mv.to_string()).collect();
        moves.sort();
        assert_eq!(moves, ["e5d6"]);
        assert!(list.iter().all(|entry| entry.captured == Some(Piece::Pawn)));
    }

    #[test]
    fn en_passant_is_a_capture_and_castling_is_not() {
        let board = Board::from_fen("4k3/8/8/3pP3/8/8/8/4K2R w K d6 0 1", false).unwrap();
        assert!(is_capture(&board, "e5d6".parse().unwrap()));
        assert!(!is_capture(&board, "e1h1".parse().unwrap()));
    }

    #[test]
    fn dropping_quiets_keeps_picked_moves_and_the_others_order() {
        // Qxd5 loses the queen; every other move is quiet.
        let board = Board::from_fen("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", false).unwrap();
        let mut list = Vec::new();
        generate(&board, false, &mut list);
        score_main(&board, &mut list, &OrderingHints::default(), &History::new());
        let total = list.len();
        let first = pick_next(&mut list, 0).unwrap();
        assert!(first.is_quiet());
        assert_eq!(drop_quiets(&mut list, 1), total - 2);
        assert_eq!(list[0].mv, first.mv, "a picked move stays");
        assert_eq!(list.len(), 2);
        assert_eq!(pick_next(&mut list, 1).map(|entry| entry.mv.to_string()), Some("d2d5".to_string()));
        assert_eq!(pick_next(&mut list, 2).map(|entry| entry.mv), None);
    }

    #[test]
    fn marking_dropped_quiets_keeps_the_picking_order_of_every_move() {
        // Every quiet move scores 0, so picking swaps decide their order.
        // Nf6+, Nh6+ and Qd8+ are quiet checks.
        let board = Board::from_fen("6k1/5ppp/8/8/6N1/8/3Q1PPP/3R2K1 w - - 0 1", false).unwrap();
        let checks = crate::position::CheckInfo::new(&board);
        let gives_check = |entry: &ScoredMove| checks.gives_check(&board, entry.mv, entry.piece);
        let mut list = Vec::new();
        generate(&board, false, &mut list);
        score_main(&board, &mut list, &OrderingHints::default(), &History::new());
        let mut reference = list.clone();
        let order: Vec<Move> = (0..reference.len()).map(|next| pick_next(&mut reference, next).unwrap().mv).collect();
        let quiet_checks = list.iter().filter(|entry| entry.is_quiet() && gives_check(entry)).count();
        assert_eq!(quiet_checks, 3);
        for from in [1, 3, 6] {
            let mut marked = list.clone();
            for next in 0..from {
                pick_next(&mut marked, next);
            }
            let (count, end) = mark_dropped_quiets(&mut marked, from, gives_check, |_| {});
            let mut handed_out = Vec::new();
            for next in 0..marked.len() {
                let entry = if next < end { marked[next] } else { pick_next(&mut marked, next).unwrap() };
                handed_out.push((entry.mv, entry.is_dropped()));
            }
            let moves: Vec<Move> = handed_out.iter().map(|&(mv, _)| mv).collect();
            assert_eq!(moves, order, "from {from}: every move in the order picking hands out");
            assert_eq!(handed_out.iter().filter(|&&(_, dropped)| dropped).count(), count);
            for (next, entry) in marked.iter().enumerate() {
                let droppable = entry.is_quiet() && !gives_check(entry);
                assert_eq!(entry.is_dropped(), next >= from && droppable, "{}", entry.mv);
            }
        }
    }

    #[test]
    fn history_saturates_at_its_bound() {
        let mut history = History::new();
        let mv: Move = "g1f3".parse().unwrap();
        for _ in 0..1000 {
            history.update(Color::White, mv, 1536);
        }
        let value = history.get(Color::White, mv);
        assert!(value > HISTORY_MAX * 9 / 10 && value <= HISTORY_MAX, "{value}");
    }

    #[test]
    fn a_memo_hands_out_the_order_and_the_list_of_scanning_every_pick() {
        // Kiwipete's 48 moves, with scores from a few values so that most
        // moves tie, some deferred and settled lower, and a drop of the
        // quiet moves part way: the remembered picks must match scanning
        // afresh each time, move for move and place for place.
        let board =
            Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false).unwrap();
        let mut generated = Vec::new();
        generate(&board, false, &mut generated);
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut random = move |bound: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % bound
        };
        let (mut remembered, mut picks) = (0, 0);
        for round in 0..400 {
            let mut list = generated.clone();
            for entry in &mut list {
                entry.score = random(4) as i32 * 10;
                entry.deferred = random(3) == 0;
            }
            let lowered: Vec<i32> = list.iter().map(|_| random(3) as i32 * 10).collect();
            let mut settle = |entry: &mut ScoredMove| {
                let index = generated.iter().position(|other| other.mv == entry.mv).unwrap();
                entry.score -= lowered[index];
            };
            let drop_at = if round % 2 == 0 { Some(random(list.len() as u64) as usize) } else { None };
            let (mut fresh, mut kept) = (list.clone(), list);
            let mut memo = PickMemo::default();
            let mut next = 0;
            loop {
                if Some(next) == drop_at {
                    for list in [&mut fresh, &mut kept] {
                        let kept_moves: Vec<ScoredMove> =
                            list.drain(next..).filter(|entry| !entry.is_quiet()).collect();
                        list.extend(kept_moves);
                    }
                }
                let scanned = pick_next_settling(&mut fresh, next, &mut PickMemo::default(), &mut settle);
                let before = memo;
                let picked = pick_next_settling(&mut kept, next, &mut memo, &mut settle);
                assert_eq!(scanned.map(|entry| entry.mv), picked.map(|entry| entry.mv), "round {round}, pick {next}");
                let order = |list: &[ScoredMove]| list.iter().map(|entry| entry.mv).collect::<Vec<_>>();
                assert_eq!(order(&fresh), order(&kept), "round {round}, pick {next}");
                if picked.is_none() {
                    break;
                }
                picks += 1;
                // Handed out at the remembered score: no scan was needed.
                remembered += usize::from(picked.is_some_and(|entry| Some(entry.score()) == before.best_score));
                next += 1;
            }
        }
        assert!(remembered * 3 > picks, "only {remembered} of {picks} picks at the remembered score");
    }
}
