//! The position layer: a cozy-chess `Board` plus the game history needed for
//! repetition detection, FEN/EPD parsing with clear errors, UCI move
//! conversion (cozy-chess writes castling as king-takes-rook), and the draw
//! and material helpers the search needs.
//!
//! FEN policy: input that cannot describe a legal position is refused with a
//! message naming the problem. Input that is wrong in a way with one obvious
//! repair is repaired and the repair is reported as a warning:
//! - a castling right whose king or rook is not on its original square is dropped;
//! - an en-passant square that no double pawn push can explain is dropped;
//! - a halfmove clock above 100 is clamped to 100 (cozy-chess stores at most 100);
//! - a fullmove number of 0 becomes 1, one above 65535 becomes 65535.
//!
//! An en-passant square that is consistent but allows no legal capture is
//! dropped silently: many FEN writers always print it, and keeping it would
//! give the same position two hashes. Castling rights are read as `KQkq` only
//! (prunelab plays standard chess, so no Shredder or X-FEN file letters).

use cozy_chess::{
    get_between_rays, get_bishop_moves, get_bishop_rays, get_king_moves, get_knight_moves, get_line_rays,
    get_pawn_attacks, get_rook_moves, get_rook_rays, BitBoard, Board, BoardBuilder, CastleRights, Color, File, Move,
    Piece, Rank, Square,
};

pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Plies without capture or pawn move after which the fifty-move rule applies.
pub const FIFTY_MOVE_PLIES: u8 = 100;

/// A board and the hashes of every earlier position of the game.
#[derive(Clone, Debug)]
pub struct Position {
    board: Board,
    /// Zobrist hashes of the positions before the current one, oldest first.
    history: Vec<u64>,
}

impl Position {
    pub fn startpos() -> Self {
        Position::from_board(Board::default())
    }

    /// A position with no history: the board is taken as the start of the game.
    pub fn from_board(board: Board) -> Self {
        Position { board, history: Vec::new() }
    }

    /// Parses a 6-field FEN or a 4-field EPD position; repairs are accepted silently.
    pub fn from_fen(fen: &str) -> Result<Self, String> {
        Self::from_fen_with_warnings(fen).map(|(position, _)| position)
    }

    /// Like [`Position::from_fen`], also returning the repairs made (see the module doc).
    pub fn from_fen_with_warnings(fen: &str) -> Result<(Self, Vec<String>), String> {
        let (board, warnings) = parse_fen(fen)?;
        Ok((Position::from_board(board), warnings))
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Hashes of the positions before the current one, oldest first.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// Plays a move in cozy-chess encoding (castling is king-takes-rook).
    /// The position is unchanged when the move is illegal.
    pub fn play_move(&mut self, mv: Move) -> Result<(), String> {
        if !self.board.is_legal(mv) {
            return Err(format!("illegal move {mv} (cozy-chess encoding) in {}", self.board));
        }
        self.history.push(self.board.hash());
        self.board.play_unchecked(mv);
        Ok(())
    }

    /// Plays a move given in UCI notation (`e1g1` for castling; `e1h1` is accepted too).
    /// The position is unchanged on error.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, String> {
        let mv = move_from_uci(&self.board, text)?;
        self.history.push(self.board.hash());
        self.board.play_unchecked(mv);
        Ok(mv)
    }

    /// Whether the current position occurred before since the last irreversible move.
    pub fn is_repetition(&self) -> bool {
        is_repetition(&self.history, self.board.hash(), self.board.halfmove_clock())
    }

    /// Whether the game is drawn by the fifty-move rule (see [`is_fifty_move_draw`]).
    pub fn is_fifty_move_draw(&self) -> bool {
        is_fifty_move_draw(&self.board)
    }
}

/// Whether `hash` (the current position) appears in `history` (oldest first,
/// the last entry being the position just before the current one) within the
/// last `halfmove_clock` plies. Only positions with the same side to move are
/// compared, and nothing before the last capture or pawn move can repeat.
///
/// One occurrence is enough: a search treats a repetition inside its own tree
/// as a draw. cozy-chess hashes the en-passant file after every double push,
/// even when no capture is possible, so a position right after such a push is
/// not matched with the same placement later; the rule's window starts there
/// anyway, so at most that one occurrence is missed.
pub fn is_repetition(history: &[u64], hash: u64, halfmove_clock: u8) -> bool {
    let window = history.len().min(halfmove_clock as usize);
    // `plies_back` 2, 4, ...: history[len - plies_back] had the same side to move.
    (2..=window).step_by(2).any(|plies_back| history[history.len() - plies_back] == hash)
}

/// Whether the fifty-move rule ends the game: 100 plies without capture or
/// pawn move, unless the last move delivered mate (mate takes precedence).
pub fn is_fifty_move_draw(board: &Board) -> bool {
    if board.halfmove_clock() < FIFTY_MOVE_PLIES {
        return false;
    }
    let is_checkmate = !board.checkers().is_empty() && !board.generate_moves(|_| true);
    !is_checkmate
}

/// Whether neither side can ever mate: no pawns, rooks or queens, and either at
/// most one minor piece on the board or only bishops, all on squares of one
/// colour (which covers KB vs KB with same-coloured bishops).
pub fn insufficient_material(board: &Board) -> bool {
    let heavy_or_pawns = board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    if !heavy_or_pawns.is_empty() {
        return false;
    }
    let knights = board.pieces(Piece::Knight);
    let bishops = board.pieces(Piece::Bishop);
    if knights.len() + bishops.len() <= 1 {
        return true;
    }
    knights.is_empty() && (bishops.is_subset(BitBoard::LIGHT_SQUARES) || bishops.is_subset(BitBoard::DARK_SQUARES))
}

/// Whether `color` has any piece other than pawns and its king (the usual
/// guard against zugzwang for null-move pruning).
pub fn non_pawn_material(board: &Board, color: Color) -> bool {
    let minors_and_majors = board.pieces(Piece::Knight)
        | board.pieces(Piece::Bishop)
        | board.pieces(Piece::Rook)
        | board.pieces(Piece::Queen);
    !(minors_and_majors & board.colors(color)).is_empty()
}

/// Game phase on the usual 0-24 scale (knight and bishop 1, rook 2, queen 4).
pub fn game_phase(board: &Board) -> i32 {
    let phase = board.pieces(Piece::Knight).len()
        + board.pieces(Piece::Bishop).len()
        + 2 * board.pieces(Piece::Rook).len()
        + 4 * board.pieces(Piece::Queen).len();
    (phase as i32).min(24)
}

/// The plans' three stages of a game on [`game_phase`]'s 0-24 scale: the
/// endgame at or below 4, the opening at or above 20 (plan 000, R3), the
/// middlegame between.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Opening,
    Middlegame,
    Endgame,
}

/// At or below this game phase, the plans' endgame.
pub const ENDGAME_PHASE: i32 = 4;
/// At or above this game phase, the plans' opening.
pub const OPENING_PHASE: i32 = 20;

impl Stage {
    pub fn of(phase: i32) -> Stage {
        if phase <= ENDGAME_PHASE {
            Stage::Endgame
        } else if phase >= OPENING_PHASE {
            Stage::Opening
        } else {
            Stage::Middlegame
        }
    }
}

/// Long garbage is cut before it is echoed back in an error message.
pub fn shorten(text: &str) -> String {
    const MAX_CHARS: usize = 40;
    if text.chars().count() <= MAX_CHARS {
        text.to_string()
    } else {
        text.chars().take(MAX_CHARS).chain("...".chars()).collect()
    }
}

/// Every legal move of `board`, in generation order.
pub fn legal_moves(board: &Board) -> Vec<Move> {
    let mut moves = Vec::new();
    board.generate_moves(|piece_moves| {
        moves.extend(piece_moves);
        false
    });
    moves
}

/// Writes a move in standard UCI notation; `board` is the position before it.
/// cozy-chess castling (king takes own rook) is printed as the king's two-square move.
pub fn move_to_uci(board: &Board, mv: Move) -> String {
    if is_castling(board, mv) {
        let king_file = if mv.to.file() > mv.from.file() { File::G } else { File::C };
        let to = Square::new(king_file, mv.from.rank());
        return Move { from: mv.from, to, promotion: None }.to_string();
    }
    mv.to_string()
}

/// Whether `mv` is castling in cozy-chess encoding: the king takes its own rook.
pub fn is_castling(board: &Board, mv: Move) -> bool {
    let us = board.colors(board.side_to_move());
    board.colored_pieces(board.side_to_move(), Piece::King).has(mv.from) && (us & board.pieces(Piece::Rook)).has(mv.to)
}

/// What makes a move of the side to move give check, computed once per node
/// so each move's answer is a few bit tests (Stockfish's `CheckInfo`).
pub struct CheckInfo {
    their_king: Square,
    /// By piece: the squares from which that piece of ours attacks their king.
    check_squares: [BitBoard; 6],
    /// Our pieces that alone block a line from one of our sliders to their
    /// king: moving one off that line gives a discovered check.
    discoverers: BitBoard,
}

impl CheckInfo {
    pub fn new(board: &Board) -> Self {
        let us = board.side_to_move();
        let their_king = board.king(!us);
        let occupied = board.occupied();
        let ours = board.colors(us);
        let diagonal = get_bishop_moves(their_king, occupied);
        let straight = get_rook_moves(their_king, occupied);
        let check_squares = [
            get_pawn_attacks(their_king, !us),
            get_knight_moves(their_king),
            diagonal,
            straight,
            diagonal | straight,
            BitBoard::EMPTY,
        ];
        let snipers = (get_bishop_rays(their_king) & ours & (board.pieces(Piece::Bishop) | board.pieces(Piece::Queen)))
            | (get_rook_rays(their_king) & ours & (board.pieces(Piece::Rook) | board.pieces(Piece::Queen)));
        let mut discoverers = BitBoard::EMPTY;
        for sniper in snipers {
            let between = get_between_rays(sniper, their_king) & occupied;
            if between.len() == 1 {
                discoverers |= between & ours;
            }
        }
        CheckInfo { their_king, check_squares, discoverers }
    }

    /// Whether the legal move `mv` of `piece` gives check; the same answer as
    /// [`gives_check`], which it leaves the rare moves to (castling,
    /// promotions and en passant).
    #[inline]
    pub fn gives_check(&self, board: &Board, mv: Move, piece: Piece) -> bool {
        let special = mv.promotion.is_some()
            || (piece == Piece::King && board.colors(board.side_to_move()).has(mv.to))
            || (piece == Piece::Pawn && mv.from.file() != mv.to.file() && !board.occupied().has(mv.to));
        if special {
            return gives_check(board, mv);
        }
        self.check_squares[piece as usize].has(mv.to)
            || (self.discoverers.has(mv.from) && !get_line_rays(mv.from, self.their_king).has(mv.to))
    }
}

/// Whether the legal move `mv` gives check, decided without playing it, so
/// the search can prune a move before paying for making it. The same answer
/// as playing the move and asking for checkers (a test holds the two equal
/// over whole perft trees).
pub fn gives_check(board: &Board, mv: Move) -> bool {
    let us = board.side_to_move();
    let their_king = board.king(!us);
    let occupied = board.occupied();
    let ours = board.colors(us);
    let diagonal = ours & (board.pieces(Piece::Bishop) | board.pieces(Piece::Queen));
    let straight = ours & (board.pieces(Piece::Rook) | board.pieces(Piece::Queen));

    // Castling: only the rook, on its new square, can give check.
    if is_castling(board, mv) {
        let rank = mv.from.rank();
        let (king_file, rook_file) =
            if mv.from.file() < mv.to.file() { (File::G, File::F) } else { (File::C, File::D) };
        let (king_to, rook_to) = (Square::new(king_file, rank), Square::new(rook_file, rank));
        let after = (occupied ^ mv.from.bitboard() ^ mv.to.bitboard()) | king_to.bitboard() | rook_to.bitboard();
        return get_rook_moves(their_king, after).has(rook_to);
    }

    let Some(mover) = board.piece_on(mv.from) else { return false };
    let lands_as = mv.promotion.unwrap_or(mover);
    let mut after = (occupied & !mv.from.bitboard()) | mv.to.bitboard();
    if mover == Piece::Pawn && mv.from.file() != mv.to.file() && !occupied.has(mv.to) {
        // En passant also empties the captured pawn's square.
        after &= !Square::new(mv.to.file(), mv.from.rank()).bitboard();
    }
    // Direct check by a knight or pawn; sliders are counted below with the
    // discovered checks, on the board after the move.
    let direct = match lands_as {
        Piece::Knight => get_knight_moves(mv.to).has(their_king),
        Piece::Pawn => get_pawn_attacks(mv.to, us).has(their_king),
        _ => false,
    };
    let moved = |sliders: BitBoard, kinds: [Piece; 2]| {
        let sliders = sliders & !mv.from.bitboard();
        if kinds.contains(&lands_as) {
            sliders | mv.to.bitboard()
        } else {
            sliders
        }
    };
    direct
        || !(get_bishop_moves(their_king, after) & moved(diagonal, [Piece::Bishop, Piece::Queen])).is_empty()
        || !(get_rook_moves(their_king, after) & moved(straight, [Piece::Rook, Piece::Queen])).is_empty()
}

/// Parses a UCI move (`e2e4`, `e7e8q`, castling as `e1g1` or as king-takes-rook
/// `e1h1`) and checks that it is legal on `board`.
pub fn move_from_uci(board: &Board, text: &str) -> Result<Move, String> {
    let mv = parse_uci_syntax(text)?;
    let mv = standard_castling_to_cozy(board, mv);
    if board.is_legal(mv) {
        return Ok(mv);
    }
    Err(explain_illegal_uci(board, text, mv))
}

/// Reads `from`, `to` and an optional promotion letter, without looking at a board.
fn parse_uci_syntax(text: &str) -> Result<Move, String> {
    let bytes = text.as_bytes();
    if !(bytes.len() == 4 || bytes.len() == 5) || !text.is_ascii() {
        return Err(format!(
            "malformed UCI move '{text}': expected from and to squares plus an optional promotion piece, like e2e4 or e7e8q"
        ));
    }
    let square = |at: usize| -> Result<Square, String> {
        text[at..at + 2]
            .parse::<Square>()
            .map_err(|_| format!("malformed UCI move '{}': '{}' is not a square", shorten(text), &text[at..at + 2]))
    };
    let from = square(0)?;
    let to = square(2)?;
    let promotion = match bytes.get(4) {
        None => None,
        Some(b'q' | b'Q') => Some(Piece::Queen),
        Some(b'r' | b'R') => Some(Piece::Rook),
        Some(b'b' | b'B') => Some(Piece::Bishop),
        Some(b'n' | b'N') => Some(Piece::Knight),
        Some(&other) => {
            return Err(format!(
                "malformed UCI move '{}': promotion piece '{}' is not one of q, r, b, n",
                shorten(text),
                other as char
            ))
        }
    };
    if from == to {
        return Err(format!("malformed UCI move '{text}': from and to squares are the same"));
    }
    Ok(Move { from, to, promotion })
}

/// Turns the standard king move `e1g1`/`e1c1` into cozy-chess's king-takes-rook
/// when the side to move still has that castling right; anything else is kept.
fn standard_castling_to_cozy(board: &Board, mv: Move) -> Move {
    let color = board.side_to_move();
    let back_rank = Rank::First.relative_to(color);
    if mv.from != board.king(color)
        || mv.from != Square::new(File::E, back_rank)
        || mv.to.rank() != back_rank
        || mv.promotion.is_some()
    {
        return mv;
    }
    let rights = board.castle_rights(color);
    let rook_file = match mv.to.file() {
        File::G => rights.short,
        File::C => rights.long,
        _ => None,
    };
    match rook_file {
        Some(file) => Move { to: Square::new(file, back_rank), ..mv },
        None => mv,
    }
}

/// The most specific reason an (already well-formed) UCI move is illegal.
fn explain_illegal_uci(board: &Board, text: &str, mv: Move) -> String {
    let color = board.side_to_move();
    let side = color_name(color);
    let Some(piece) = board.piece_on(mv.from) else {
        return format!("illegal move {text}: no piece on {}", mv.from);
    };
    if board.color_on(mv.from) != Some(color) {
        return format!("illegal move {text}: the piece on {} is not {side}'s, and {side} is to move", mv.from);
    }
    if piece == Piece::Pawn {
        let reaches_last_rank = mv.to.rank() == Rank::Eighth.relative_to(color);
        if reaches_last_rank && mv.promotion.is_none() {
            return format!("illegal move {text}: a pawn reaching the last rank must name its promotion piece");
        }
        if !reaches_last_rank && mv.promotion.is_some() {
            return format!("illegal move {text}: a pawn promotes only on the last rank");
        }
    }
    if mv.promotion.is_some() && piece != Piece::Pawn {
        return format!("illegal move {text}: only a pawn can promote");
    }
    let file_distance = (mv.from.file() as i32 - mv.to.file() as i32).abs();
    let two_square_king_step = mv.from.rank() == mv.to.rank() && file_distance == 2;
    if piece == Piece::King && (two_square_king_step || is_castling(board, mv)) {
        return format!(
            "illegal move {text}: {side} cannot castle that way here (right lost, path blocked or attacked)"
        );
    }
    if !board.checkers().is_empty() {
        return format!("illegal move {text}: {side} is in check and this move does not resolve it");
    }
    format!("illegal move {text} in {board}")
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// Parses a FEN (6 fields) or EPD position (4 fields, clocks default to `0 1`).
/// Returns the board and the repairs made (see the module doc); refuses with a
/// message naming the problem anything that is not a legal chess position.
pub fn parse_fen(fen: &str) -> Result<(Board, Vec<String>), String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let (placement, side, castling, en_passant, clocks) = match fields.as_slice() {
        [] => return Err("empty FEN: no fields at all".to_string()),
        [p, s, c, e] => (*p, *s, *c, *e, None),
        [p, s, c, e, half, full] => (*p, *s, *c, *e, Some((*half, *full))),
        other => {
            return Err(format!(
                "FEN has {} fields; expected 6 (placement, side to move, castling, en passant, halfmove clock, fullmove number) or 4 without the clocks",
                other.len()
            ))
        }
    };

    let mut warnings = Vec::new();
    let mut builder = BoardBuilder::empty();
    builder.board = parse_placement(placement)?;
    check_material(&builder)?;
    builder.side_to_move = match side {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(format!("bad side to move '{}': expected 'w' or 'b'", shorten(other))),
    };
    check_side_not_to_move_is_safe(&builder)?;
    builder.castle_rights = parse_castling(&builder, castling, &mut warnings)?;
    let en_passant_square = parse_en_passant(&builder, en_passant, &mut warnings)?;
    if let Some((halfmove, fullmove)) = clocks {
        builder.halfmove_clock = parse_halfmove_clock(halfmove, &mut warnings)?;
        builder.fullmove_number = parse_fullmove_number(fullmove, &mut warnings)?;
    }

    let board = builder.build().map_err(|error| format!("invalid position (cozy-chess: {error})"))?;
    // cozy-chess's builder accepts any number of checkers (its FEN reader does not).
    if board.checkers().len() > 2 {
        let checkers: Vec<String> = board.checkers().into_iter().map(|square| square.to_string()).collect();
        return Err(format!(
            "{} king is in check from {} pieces ({}); no move gives more than a double check",
            color_name(board.side_to_move()),
            checkers.len(),
            checkers.join(" ")
        ));
    }
    let board = match en_passant_square {
        Some(square) => with_en_passant(&builder, board, square, &mut warnings),
        None => board,
    };
    Ok((board, warnings))
}

type Placement = [Option<(Piece, Color)>; Square::NUM];

/// The piece placement field: 8 ranks from the 8th down, separated by `/`.
fn parse_placement(field: &str) -> Result<Placement, String> {
    let rows: Vec<&str> = field.split('/').collect();
    if rows.len() != 8 {
        return Err(format!(
            "bad board field '{}': it has {} ranks separated by '/'; expected 8",
            shorten(field),
            rows.len()
        ));
    }
    let mut placement: Placement = [None; Square::NUM];
    for (row_index, row) in rows.iter().enumerate() {
        let rank = Rank::index(7 - row_index);
        let rank_name = 8 - row_index;
        let mut files = 0usize;
        for c in row.chars() {
            if let Some(empty) = c.to_digit(10) {
                if !(1..=8).contains(&empty) {
                    return Err(format!("bad board field: digit '{c}' in rank {rank_name}; empty runs are 1 to 8"));
                }
                files += empty as usize;
                continue;
            }
            let piece = Piece::try_from(c.to_ascii_lowercase())
                .map_err(|_| format!("bad board field: unexpected character '{c}' in rank {rank_name}"))?;
            let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
            if files < 8 {
                placement[Square::new(File::index(files), rank) as usize] = Some((piece, color));
            }
            files += 1;
        }
        if files != 8 {
            return Err(format!(
                "bad board field: rank {rank_name} ('{}') covers {files} files; expected 8",
                shorten(row)
            ));
        }
    }
    Ok(placement)
}

/// Refuses placements no game can reach: kings, pawn ranks, piece counts.
fn check_material(builder: &BoardBuilder) -> Result<(), String> {
    if builder.board.iter().all(Option::is_none) {
        return Err("the board is empty: each side needs a king".to_string());
    }
    for color in Color::ALL {
        let name = color_name(color);
        let count = |wanted: Piece| builder.board.iter().filter(|slot| **slot == Some((wanted, color))).count();
        match count(Piece::King) {
            0 => return Err(format!("{name} has no king")),
            1 => {}
            kings => return Err(format!("{name} has {kings} kings; exactly one is required")),
        }
        let pieces = builder.board.iter().flatten().filter(|(_, c)| *c == color).count();
        if pieces > 16 {
            return Err(format!("too many pieces: {name} has {pieces}, at most 16 are possible"));
        }
        let pawns = count(Piece::Pawn);
        if pawns > 8 {
            return Err(format!("too many pieces: {name} has {pawns} pawns, at most 8 are possible"));
        }
    }
    for square in Rank::First.bitboard() | Rank::Eighth.bitboard() {
        if let Some((Piece::Pawn, color)) = builder.square(square) {
            return Err(format!(
                "{} pawn on {square}: pawns cannot stand on the first or last rank",
                color_name(color)
            ));
        }
    }
    Ok(())
}

/// The side that just moved cannot have left its own king in check.
fn check_side_not_to_move_is_safe(builder: &BoardBuilder) -> Result<(), String> {
    let mover = builder.side_to_move;
    let waiting = !mover;
    let Some(king) = Square::ALL.into_iter().find(|&sq| builder.square(sq) == Some((Piece::King, waiting))) else {
        return Ok(()); // check_material already refused this
    };
    let occupied = Square::ALL
        .into_iter()
        .filter(|&sq| builder.square(sq).is_some())
        .fold(BitBoard::EMPTY, |bb, sq| bb | sq.bitboard());
    let attackers_of = |piece: Piece| match piece {
        Piece::Pawn => get_pawn_attacks(king, waiting),
        Piece::Knight => get_knight_moves(king),
        Piece::Bishop => get_bishop_moves(king, occupied),
        Piece::Rook => get_rook_moves(king, occupied),
        Piece::Queen => get_bishop_moves(king, occupied) | get_rook_moves(king, occupied),
        Piece::King => get_king_moves(king),
    };
    for attacker in Square::ALL {
        if let Some((piece, color)) = builder.square(attacker) {
            if color == mover && attackers_of(piece).has(attacker) {
                return Err(format!(
                    "the side not to move is in check: {} king on {king} is attacked from {attacker}, but {} is to move",
                    color_name(waiting),
                    color_name(mover)
                ));
            }
        }
    }
    Ok(())
}

/// `-` or letters from `KQkq`, each at most once. A right whose king or rook
/// has left its original square is dropped with a warning.
fn parse_castling(
    builder: &BoardBuilder,
    field: &str,
    warnings: &mut Vec<String>,
) -> Result<[CastleRights; Color::NUM], String> {
    let mut rights = [CastleRights::EMPTY; Color::NUM];
    if field == "-" {
        return Ok(rights);
    }
    let mut seen = String::new();
    for letter in field.chars() {
        let (color, rook_file) = match letter {
            'K' => (Color::White, File::H),
            'Q' => (Color::White, File::A),
            'k' => (Color::Black, File::H),
            'q' => (Color::Black, File::A),
            _ => {
                return Err(format!(
                    "bad castling field '{}': '{letter}' is not one of K, Q, k, q (use '-' for none)",
                    shorten(field)
                ))
            }
        };
        if seen.contains(letter) {
            return Err(format!("bad castling field '{}': '{letter}' appears twice", shorten(field)));
        }
        seen.push(letter);

        let back_rank = Rank::First.relative_to(color);
        let king_square = Square::new(File::E, back_rank);
        let rook_square = Square::new(rook_file, back_rank);
        if builder.square(king_square) != Some((Piece::King, color)) {
            warnings.push(format!("castling right '{letter}' dropped: no {} king on {king_square}", color_name(color)));
        } else if builder.square(rook_square) != Some((Piece::Rook, color)) {
            warnings.push(format!("castling right '{letter}' dropped: no {} rook on {rook_square}", color_name(color)));
        } else if rook_file == File::H {
            rights[color as usize].short = Some(rook_file);
        } else {
            rights[color as usize].long = Some(rook_file);
        }
    }
    Ok(rights)
}

/// `-` or a square. A square that no double push by the side that just moved
/// explains is dropped with a warning; the rest is decided by `with_en_passant`.
fn parse_en_passant(builder: &BoardBuilder, field: &str, warnings: &mut Vec<String>) -> Result<Option<Square>, String> {
    if field == "-" {
        return Ok(None);
    }
    let square: Square = field
        .parse()
        .map_err(|_| format!("bad en passant field '{}': expected a square like e3 or '-'", shorten(field)))?;
    let pusher = !builder.side_to_move;
    let expected_rank = Rank::Third.relative_to(pusher);
    if square.rank() != expected_rank {
        warnings.push(format!(
            "en passant square {square} dropped: with {} to move it must be on rank {}",
            color_name(builder.side_to_move),
            expected_rank as usize + 1
        ));
        return Ok(None);
    }
    let pushed_pawn = Square::new(square.file(), Rank::Fourth.relative_to(pusher));
    let start = Square::new(square.file(), Rank::Second.relative_to(pusher));
    if builder.square(pushed_pawn) != Some((Piece::Pawn, pusher))
        || builder.square(square).is_some()
        || builder.square(start).is_some()
    {
        warnings.push(format!(
            "en passant square {square} dropped: no {} pawn can just have moved {start}-{pushed_pawn}",
            color_name(pusher)
        ));
        return Ok(None);
    }
    Ok(Some(square))
}

/// Adds the en-passant square when some legal capture uses it; a consistent
/// square without a capture is dropped silently, an inconsistent one (cozy-chess
/// refuses it, e.g. a check the double push cannot explain) with a warning.
fn with_en_passant(builder: &BoardBuilder, board: Board, square: Square, warnings: &mut Vec<String>) -> Board {
    let mut with_square = builder.clone();
    with_square.en_passant = Some(square);
    let Ok(candidate) = with_square.build() else {
        warnings.push(format!("en passant square {square} dropped: it is inconsistent with the position"));
        return board;
    };
    let capturers = get_pawn_attacks(square, !candidate.side_to_move())
        & candidate.colored_pieces(candidate.side_to_move(), Piece::Pawn);
    let can_capture = capturers.into_iter().any(|from| candidate.is_legal(Move { from, to: square, promotion: None }));
    if can_capture {
        candidate
    } else {
        board
    }
}

fn parse_halfmove_clock(field: &str, warnings: &mut Vec<String>) -> Result<u8, String> {
    let value = parse_clock(field, "halfmove clock")?;
    if value > FIFTY_MOVE_PLIES as u64 {
        warnings.push(format!("halfmove clock {value} clamped to {FIFTY_MOVE_PLIES}"));
        return Ok(FIFTY_MOVE_PLIES);
    }
    Ok(value as u8)
}

fn parse_fullmove_number(field: &str, warnings: &mut Vec<String>) -> Result<u16, String> {
    let value = parse_clock(field, "fullmove number")?;
    if value == 0 {
        warnings.push("fullmove number 0 changed to 1".to_string());
        return Ok(1);
    }
    if value > u16::MAX as u64 {
        warnings.push(format!("fullmove number {value} clamped to {}", u16::MAX));
        return Ok(u16::MAX);
    }
    Ok(value as u16)
}

/// A non-negative decimal number; absurdly long ones saturate instead of failing.
fn parse_clock(field: &str, what: &str) -> Result<u64, String> {
    if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("bad {what} '{}': expected a non-negative whole number", shorten(field)));
    }
    Ok(field.parse::<u64>().unwrap_or(u64::MAX))
}
