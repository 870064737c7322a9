//! Static exchange evaluation (SEE): the material balance of the capture
//! sequence on one square when both sides always recapture with their least
//! valuable attacker and may stop whenever continuing would lose material.
//!
//! `see_ge` is Stockfish's threshold form of the swap algorithm (it answers
//! "is the exchange worth at least `threshold`?" with early exits);
//! `see_value` is the classic swap list that returns the exact value. Both
//! model the exchange the same way, so `see_ge(b, m, t) == (see_value(b, m) >= t)`:
//! - sliders behind a capturer join in as it leaves (x-rays are found by
//!   recomputing slider attacks on the emptied board);
//! - pins are ignored: a pinned piece recaptures like any other, as in most engines;
//! - a king recaptures only when the other side has no attacker left;
//! - only the move itself promotes (it gains queen-minus-pawn for a queen
//!   promotion, and the promoted piece is what can be recaptured); a pawn
//!   recapturing onto the last rank is counted as a pawn;
//! - en passant captures a pawn; castling (king takes own rook in cozy-chess)
//!   captures nothing and is worth 0.

use cozy_chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_line_rays, get_pawn_attacks, get_rook_moves, get_rook_rays,
    BitBoard, Board, Color, Move, Piece, Square,
};

use crate::position::is_castling;

/// Piece values for exchanges, indexed by `Piece as usize`
/// (pawn, knight, bishop, rook, queen, king).
pub const SEE_PIECE_VALUES: [i32; 6] = crate::eval::PIECE_VALUES;

/// The king's worth as a recapturable piece inside the swap: more than any
/// exchange can win back, so losing it is never the better line.
const KING_SWAP_VALUE: i32 = 20_000;

/// Exchanges cannot exceed this in magnitude; thresholds are clamped to it so
/// the swap arithmetic cannot overflow.
const THRESHOLD_LIMIT: i32 = 1 << 20;

/// Value of `piece` when it stands on the exchange square and can be taken.
fn swap_value(piece: Piece) -> i32 {
    match piece {
        Piece::King => KING_SWAP_VALUE,
        other => SEE_PIECE_VALUES[other as usize],
    }
}

/// The piece `mv` removes from the board: the occupant of the target square,
/// a pawn for en passant, nothing for quiet moves and castling.
pub fn captured_piece(board: &Board, mv: Move) -> Option<Piece> {
    // Bitboard tests first: most moves land on an empty square, and
    // `piece_on` scans all six piece sets.
    let mover = board.color_on(mv.from)?;
    if board.colors(!mover).has(mv.to) {
        board.piece_on(mv.to)
    } else if is_en_passant(board, mv) {
        Some(Piece::Pawn)
    } else {
        None
    }
}

/// A pawn moving diagonally to an empty square captures en passant.
fn is_en_passant(board: &Board, mv: Move) -> bool {
    board.pieces(Piece::Pawn).has(mv.from) && mv.from.file() != mv.to.file() && !board.occupied().has(mv.to)
}

/// Material the move itself wins: the captured piece plus the promotion gain.
fn immediate_gain(board: &Board, mv: Move) -> i32 {
    captured_piece(board, mv).map_or(0, |piece| SEE_PIECE_VALUES[piece as usize]) + promotion_gain(mv)
}

/// What a promotion adds: the new piece in place of the pawn.
fn promotion_gain(mv: Move) -> i32 {
    mv.promotion.map_or(0, |piece| SEE_PIECE_VALUES[piece as usize] - SEE_PIECE_VALUES[Piece::Pawn as usize])
}

/// Everything that attacks `square` given the occupancy `occupied`, both colours.
fn attackers_to(board: &Board, square: Square, occupied: BitBoard) -> BitBoard {
    let diagonal_sliders = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let straight_sliders = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    (get_pawn_attacks(square, Color::Black) & board.colored_pieces(Color::White, Piece::Pawn))
        | (get_pawn_attacks(square, Color::White) & board.colored_pieces(Color::Black, Piece::Pawn))
        | (get_knight_moves(square) & board.pieces(Piece::Knight))
        | (get_king_moves(square) & board.pieces(Piece::King))
        | (get_bishop_moves(square, occupied) & diagonal_sliders)
        | (get_rook_moves(square, occupied) & straight_sliders)
}

/// The starting state of an exchange on `mv.to` after `mv` was played:
/// the occupancy without the mover (and an en-passant victim) and all attackers.
fn exchange_start(board: &Board, mv: Move) -> (BitBoard, BitBoard) {
    let mut occupied = board.occupied() & !mv.from.bitboard();
    if is_en_passant(board, mv) {
        let victim = Square::new(mv.to.file(), mv.from.rank());
        occupied &= !victim.bitboard();
    }
    (occupied, attackers_to(board, mv.to, occupied))
}

/// The least valuable piece among `attackers` (non-empty), and where it is.
fn least_valuable_attacker(board: &Board, attackers: BitBoard) -> (Piece, Square) {
    for piece in Piece::ALL {
        if let Some(square) = (attackers & board.pieces(piece)).next_square() {
            return (piece, square);
        }
    }
    unreachable!("least_valuable_attacker called with no attackers")
}

/// Sliders that attack `target` through the square a capturer just left.
fn revealed_attackers(board: &Board, target: Square, occupied: BitBoard, capturer: Piece) -> BitBoard {
    let diagonal_sliders = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let straight_sliders = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    let mut revealed = BitBoard::EMPTY;
    if matches!(capturer, Piece::Pawn | Piece::Bishop | Piece::Queen | Piece::King) {
        revealed |= get_bishop_moves(target, occupied) & diagonal_sliders;
    }
    if matches!(capturer, Piece::Rook | Piece::Queen | Piece::King) {
        revealed |= get_rook_moves(target, occupied) & straight_sliders;
    }
    revealed & occupied
}

/// A quiet move of a piece (not a pawn, not the king) to a square an enemy
/// pawn attacks: the commonest losing move that SEE ordering and pruning
/// test, answered without computing the attackers.
fn guarded_by_enemy_pawn(board: &Board, mv: Move, mover: Piece) -> bool {
    let us = board.side_to_move();
    !matches!(mover, Piece::Pawn | Piece::King)
        && mv.promotion.is_none()
        && !board.occupied().has(mv.to)
        && !(get_pawn_attacks(mv.to, us) & board.colored_pieces(!us, Piece::Pawn)).is_empty()
}

/// The most such a move can gain: the pawn takes the piece, the piece's
/// side takes the pawn back, and the pawn's side may stop there.
fn pawn_guard_bound(mover: Piece) -> i32 {
    SEE_PIECE_VALUES[Piece::Pawn as usize] - swap_value(mover)
}

/// Whether the exchange started by `mv` gains at least `threshold` for the
/// side to move (Stockfish's `see_ge`).
pub fn see_ge(board: &Board, mv: Move, threshold: i32) -> bool {
    let Some(mover) = board.piece_on(mv.from) else {
        return 0 >= threshold.clamp(-THRESHOLD_LIMIT, THRESHOLD_LIMIT);
    };
    see_ge_of(board, mv, mover, captured_piece(board, mv), threshold)
}

/// [`see_ge`] for a legal move whose moving piece and captured piece (a
/// pawn for en passant, none for castling) the caller knows already, as a
/// generated move does: the exchange without looking them up again.
pub fn see_ge_of(board: &Board, mv: Move, mover: Piece, captured: Option<Piece>, threshold: i32) -> bool {
    debug_assert_eq!(board.piece_on(mv.from), Some(mover), "{mv}");
    debug_assert_eq!(captured_piece(board, mv), captured, "{mv}");
    let threshold = threshold.clamp(-THRESHOLD_LIMIT, THRESHOLD_LIMIT);
    if mover == Piece::King && board.colors(board.side_to_move()).has(mv.to) {
        return 0 >= threshold; // castling
    }
    // `balance` is the surplus, over what it needs, of the side that would make
    // the next capture if that capture ended the exchange. The root side needs
    // the threshold; the other side needs the root side to fall below it.
    let captured_value = captured.map_or(0, |piece| SEE_PIECE_VALUES[piece as usize]);
    let mut balance = captured_value + promotion_gain(mv) - threshold;
    if balance < 0 {
        return false; // even unanswered, the move falls short
    }
    balance = swap_value(mv.promotion.unwrap_or(mover)) - balance;
    if balance <= 0 {
        return true; // even losing the moved piece for nothing keeps the threshold
    }
    if guarded_by_enemy_pawn(board, mv, mover) && threshold > pawn_guard_bound(mover) {
        return false; // the pawn takes, and the other side may stop after any recapture
    }

    let target = mv.to;
    let (mut occupied, mut attackers) = exchange_start(board, mv);
    let mut side = board.side_to_move();
    // Whether the root side reaches the threshold if the exchange stops here.
    let mut root_wins = true;
    loop {
        side = !side;
        attackers &= occupied;
        let side_attackers = attackers & board.colors(side);
        if side_attackers.is_empty() {
            break;
        }
        let (capturer, from) = least_valuable_attacker(board, side_attackers);
        root_wins = !root_wins;
        occupied &= !from.bitboard();
        attackers |= revealed_attackers(board, target, occupied, capturer);
        if capturer == Piece::King {
            // The king may only take when nothing can take it back; otherwise
            // this capture is illegal and the previous outcome stands.
            let defenders = attackers & occupied & board.colors(!side);
            return if defenders.is_empty() { root_wins } else { !root_wins };
        }
        balance = swap_value(capturer) - balance;
        // The side that would answer gives up if answering cannot turn the
        // outcome: the root side needs a surplus of at least 0, the other
        // side at least 1 (a tie leaves the root side at its threshold).
        if balance < i32::from(root_wins) {
            break;
        }
    }
    root_wins
}

/// Every square the side not to move attacks, the board as it stands: once
/// per node, it answers most quiet moves' SEE without an exchange
/// (`quiet_see_ge_zero`).
pub fn attacked_by_opponent(board: &Board) -> BitBoard {
    let them = !board.side_to_move();
    let occupied = board.occupied();
    let theirs = |piece| board.colored_pieces(them, piece);
    let mut attacked = get_king_moves(theirs(Piece::King).next_square().expect("a king on the board"));
    for square in theirs(Piece::Pawn) {
        attacked |= get_pawn_attacks(square, them);
    }
    for square in theirs(Piece::Knight) {
        attacked |= get_knight_moves(square);
    }
    for square in theirs(Piece::Bishop) | theirs(Piece::Queen) {
        attacked |= get_bishop_moves(square, occupied);
    }
    for square in theirs(Piece::Rook) | theirs(Piece::Queen) {
        attacked |= get_rook_moves(square, occupied);
    }
    attacked
}

/// `see_ge(board, mv, 0)` for a quiet move (neither a capture nor a
/// promotion), given `attacked = attacked_by_opponent(board)`: a piece that
/// goes where no enemy piece attacks it, and where none can through the
/// square it leaves, loses nothing. Any other move gets the full exchange.
pub fn quiet_see_ge_zero(board: &Board, mv: Move, mover: Piece, attacked: BitBoard) -> bool {
    debug_assert!(captured_piece(board, mv).is_none() && mv.promotion.is_none(), "{mv} is not quiet");
    if !attacked.has(mv.to) {
        // Leaving `from` can open a line to `to` only for a slider of
        // theirs on the line through both squares.
        let straight = get_rook_rays(mv.to).has(mv.from);
        let line_sliders = if straight {
            board.pieces(Piece::Rook) | board.pieces(Piece::Queen)
        } else {
            board.pieces(Piece::Bishop) | board.pieces(Piece::Queen)
        } & board.colors(!board.side_to_move())
            & get_line_rays(mv.from, mv.to);
        if line_sliders.is_empty() {
            return true;
        }
        let opened = board.occupied() & !mv.from.bitboard();
        let line_attacks = if straight { get_rook_moves(mv.to, opened) } else { get_bishop_moves(mv.to, opened) };
        if (line_attacks & line_sliders).is_empty() {
            return true;
        }
    }
    see_ge_of(board, mv, mover, None, 0)
}

/// The exact value of the exchange started by `mv` for the side to move
/// (classic swap list with minimax back-up).
pub fn see_value(board: &Board, mv: Move) -> i32 {
    let Some(mover) = board.piece_on(mv.from) else {
        return 0;
    };
    if is_castling(board, mv) {
        return 0;
    }
    // gains[d]: value for the side making capture d if the exchange stops after it.
    let mut gains = [0i32; 40];
    gains[0] = immediate_gain(board, mv);
    let mut victim_value = swap_value(mv.promotion.unwrap_or(mover));

    let target = mv.to;
    let (mut occupied, mut attackers) = exchange_start(board, mv);
    let mut side = board.side_to_move();
    let mut depth = 0;
    loop {
        side = !side;
        attackers &= occupied;
        let side_attackers = attackers & board.colors(side);
        if side_attackers.is_empty() || depth + 1 >= gains.len() {
            break;
        }
        let (capturer, from) = least_valuable_attacker(board, side_attackers);
        occupied &= !from.bitboard();
        attackers |= revealed_attackers(board, target, occupied, capturer);
        if capturer == Piece::King && !(attackers & occupied & board.colors(!side)).is_empty() {
            break; // the king cannot take a defended piece
        }
        depth += 1;
        gains[depth] = victim_value - gains[depth - 1];
        victim_value = swap_value(capturer);
    }
    // Each side may decline to continue: keep the better of stopping and going on.
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

/// The squares a capture can land on: the enemy pieces and, for pawns, the
/// en-passant square.
pub fn capture_targets(board: &Board) -> BitBoard {
    let mut targets = board.colors(!board.side_to_move());
    if let Some(file) = board.en_passant() {
        targets |= Square::new(file, cozy_chess::Rank::Sixth.relative_to(board.side_to_move())).bitboard();
    }
    targets
}

/// Whether the side to move has a legal capture that does not lose material
/// (SEE ≥ 0). Stops at the first one; allocates nothing.
pub fn has_safe_capture(board: &Board) -> bool {
    let targets = capture_targets(board);
    let mut found = false;
    board.generate_moves(|mut moves| {
        moves.to &= targets;
        let mover = moves.piece;
        for mv in moves {
            let captured = captured_piece(board, mv);
            if captured.is_some() && see_ge_of(board, mv, mover, captured, 0) {
                found = true;
                return true;
            }
        }
        false
    });
    found
}

/// The value of the most valuable enemy piece the side to move can capture
/// (legally), 0 when it can capture nothing. En passant captures a pawn.
pub fn best_victim_value(board: &Board) -> i32 {
    let targets = capture_targets(board);
    let queen = SEE_PIECE_VALUES[Piece::Queen as usize];
    let mut best = 0;
    board.generate_moves(|mut moves| {
        moves.to &= targets;
        for mv in moves {
            if let Some(victim) = captured_piece(board, mv) {
                best = best.max(SEE_PIECE_VALUES[victim as usize]);
            }
        }
        best >= queen
    });
    best
}
