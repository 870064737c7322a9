//! Standard Algebraic Notation (SAN), read and written on top of the legal
//! move generator.
//!
//! Writing follows the standard exactly: piece letter, the minimal
//! disambiguation (file, else rank, else square), `x` for captures, `=Q` for
//! promotions, `O-O`/`O-O-O`, and `+`/`#`. Reading is tolerant where the intent
//! is clear: any trailing mix of `+ # ! ?`, `0-0` for `O-O`, `x` optional (and
//! not checked), `e8Q` or `e8=q` for `e8=Q`, and over-disambiguated forms such
//! as `Ng1f3` or `e2e4`. Illegal or ambiguous SAN is an error naming the problem.

use cozy_chess::{BitBoard, Board, Color, File, Move, Piece, Rank, Square};

use crate::position::{is_castling, move_to_uci};

/// Writes `mv` in SAN; `board` is the position before it. A move that is not
/// legal on `board` has no SAN and is written in UCI notation instead.
pub fn move_to_san(board: &Board, mv: Move) -> String {
    if !board.is_legal(mv) {
        return move_to_uci(board, mv);
    }
    let mut san = if is_castling(board, mv) {
        if mv.to.file() > mv.from.file() { "O-O" } else { "O-O-O" }.to_string()
    } else {
        piece_move_san(board, mv)
    };
    let mut after = board.clone();
    after.play_unchecked(mv);
    if !after.checkers().is_empty() {
        let has_reply = after.generate_moves(|_| true);
        san.push(if has_reply { '+' } else { '#' });
    }
    san
}

/// SAN of a legal, non-castling move, without check suffix.
fn piece_move_san(board: &Board, mv: Move) -> String {
    // Legal move: there is a piece on `from`.
    let piece = board.piece_on(mv.from).unwrap_or(Piece::Pawn);
    let is_capture = board.piece_on(mv.to).is_some() || piece == Piece::Pawn && mv.from.file() != mv.to.file();
    let mut san = String::new();
    if piece == Piece::Pawn {
        if is_capture {
            san.push(char::from(mv.from.file()));
        }
    } else {
        san.push(piece_letter(piece));
        san.push_str(&disambiguation(board, mv, piece));
    }
    if is_capture {
        san.push('x');
    }
    san.push_str(&mv.to.to_string());
    if let Some(promotion) = mv.promotion {
        san.push('=');
        san.push(piece_letter(promotion));
    }
    san
}

/// The shortest origin hint telling `mv` apart from other legal moves of the
/// same piece type to the same square: nothing, the file, the rank, or both.
fn disambiguation(board: &Board, mv: Move, piece: Piece) -> String {
    let rivals: Vec<Square> = legal_moves_for(board, piece, BitBoard::FULL)
        .into_iter()
        .filter(|other| other.to == mv.to && other.from != mv.from)
        .map(|other| other.from)
        .collect();
    if rivals.is_empty() {
        String::new()
    } else if rivals.iter().all(|sq| sq.file() != mv.from.file()) {
        char::from(mv.from.file()).to_string()
    } else if rivals.iter().all(|sq| sq.rank() != mv.from.rank()) {
        char::from(mv.from.rank()).to_string()
    } else {
        mv.from.to_string()
    }
}

/// Legal non-castling moves of the side to move's `piece`s standing on `origins`.
fn legal_moves_for(board: &Board, piece: Piece, origins: BitBoard) -> Vec<Move> {
    let mut moves = Vec::new();
    let movers = board.colored_pieces(board.side_to_move(), piece) & origins;
    board.generate_moves_for(movers, |piece_moves| {
        moves.extend(piece_moves.into_iter().filter(|&mv| !is_castling(board, mv)));
        false
    });
    moves
}

fn piece_letter(piece: Piece) -> char {
    char::from(piece).to_ascii_uppercase()
}

fn piece_name(piece: Piece) -> &'static str {
    match piece {
        Piece::Pawn => "pawn",
        Piece::Knight => "knight",
        Piece::Bishop => "bishop",
        Piece::Rook => "rook",
        Piece::Queen => "queen",
        Piece::King => "king",
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The parts of a non-castling SAN move.
struct PieceMoveSan {
    piece: Piece,
    from_file: Option<File>,
    from_rank: Option<Rank>,
    to: Square,
    promotion: Option<Piece>,
}

/// Reads a SAN move and finds the one legal move it denotes on `board`.
pub fn parse_san(board: &Board, text: &str) -> Result<Move, String> {
    let core = text.trim().trim_end_matches(['+', '#', '!', '?']);
    if core.is_empty() {
        return Err(format!("empty SAN move '{text}'"));
    }
    match core {
        "O-O" | "0-0" => return castling_move(board, text, true),
        "O-O-O" | "0-0-0" => return castling_move(board, text, false),
        _ => {}
    }
    let parts = split_piece_move(core)
        .ok_or_else(|| format!("malformed SAN move '{text}': expected e.g. e4, exd5, Nf3, Raxd1, e8=Q or O-O"))?;
    find_piece_move(board, text, &parts)
}

/// Splits `[piece][from file][from rank][x]square[[=]promotion]`.
fn split_piece_move(core: &str) -> Option<PieceMoveSan> {
    if !core.is_ascii() {
        return None;
    }
    let mut chars: Vec<char> = core.chars().collect();

    let mut promotion = None;
    if let Some(&last) = chars.last() {
        if let Some(piece) = promotion_piece(last) {
            // Only a letter after a rank digit (or `=`) is a promotion: `Qb` is not.
            let before = chars.len().checked_sub(2).map(|i| chars[i]);
            if matches!(before, Some('=' | '1'..='8')) {
                promotion = Some(piece);
                chars.pop();
                if chars.last() == Some(&'=') {
                    chars.pop();
                }
            }
        }
    }

    if chars.len() < 2 {
        return None;
    }
    let rank = Rank::try_from(chars.pop()?).ok()?;
    let file = File::try_from(chars.pop()?).ok()?;
    let to = Square::new(file, rank);
    if chars.last() == Some(&'x') {
        chars.pop();
    }

    let mut rest = chars.into_iter().peekable();
    let piece = match rest.next_if(|c| "NBRQK".contains(*c)) {
        Some(letter) => Piece::try_from(letter.to_ascii_lowercase()).ok()?,
        None => Piece::Pawn,
    };
    let from_file = rest.next_if(|c| ('a'..='h').contains(c)).and_then(|c| File::try_from(c).ok());
    let from_rank = rest.next_if(|c| ('1'..='8').contains(c)).and_then(|c| Rank::try_from(c).ok());
    if rest.next().is_some() {
        return None;
    }
    Some(PieceMoveSan { piece, from_file, from_rank, to, promotion })
}

fn promotion_piece(letter: char) -> Option<Piece> {
    match letter.to_ascii_uppercase() {
        'N' => Some(Piece::Knight),
        'B' => Some(Piece::Bishop),
        'R' => Some(Piece::Rook),
        'Q' => Some(Piece::Queen),
        _ => None,
    }
}

fn find_piece_move(board: &Board, text: &str, san: &PieceMoveSan) -> Result<Move, String> {
    let color = board.side_to_move();
    let side = color_name(color);
    let name = piece_name(san.piece);
    if san.promotion.is_some() && san.piece != Piece::Pawn {
        return Err(format!("illegal SAN move '{text}': only a pawn can promote"));
    }
    let reaches_last_rank = san.piece == Piece::Pawn && san.to.rank() == Rank::Eighth.relative_to(color);
    if reaches_last_rank && san.promotion.is_none() {
        return Err(format!("illegal SAN move '{text}': a pawn reaching {} must promote (e.g. {}=Q)", san.to, san.to));
    }

    let mut origins = BitBoard::FULL;
    if let Some(file) = san.from_file {
        origins &= file.bitboard();
    }
    if let Some(rank) = san.from_rank {
        origins &= rank.bitboard();
    }
    let candidates: Vec<Move> = legal_moves_for(board, san.piece, origins)
        .into_iter()
        .filter(|mv| mv.to == san.to && mv.promotion == san.promotion)
        .collect();
    match candidates.as_slice() {
        [mv] => Ok(*mv),
        [] => Err(format!("illegal SAN move '{text}': no {side} {name} can legally move to {}", san.to)),
        several => {
            let origins: Vec<String> = several.iter().map(|mv| mv.from.to_string()).collect();
            Err(format!(
                "ambiguous SAN move '{text}': {side} {name}s on {} can all move to {}",
                origins.join(" and "),
                san.to
            ))
        }
    }
}

/// The castling move (king takes own rook in cozy-chess) if it is legal.
fn castling_move(board: &Board, text: &str, kingside: bool) -> Result<Move, String> {
    let color = board.side_to_move();
    let side = color_name(color);
    let wing = if kingside { "kingside" } else { "queenside" };
    let rights = board.castle_rights(color);
    let rook_file = if kingside { rights.short } else { rights.long };
    let Some(rook_file) = rook_file else {
        return Err(format!("illegal SAN move '{text}': {side} has no {wing} castling right"));
    };
    let king = board.king(color);
    let mv = Move { from: king, to: Square::new(rook_file, king.rank()), promotion: None };
    if board.is_legal(mv) {
        Ok(mv)
    } else {
        Err(format!("illegal SAN move '{text}': {side} cannot castle {wing} now (in check, path blocked or attacked)"))
    }
}
