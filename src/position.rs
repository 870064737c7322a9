//! The position layer: a cozy-chess `Board` plus the game history needed for
//! repetition detection, FEN/EPD parsing with clear errors, and UCI move
//! conversion (cozy-chess writes castling as king-takes-rook).

use cozy_chess::{Board, Move};

pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A board and the hashes of every earlier position of the game.
#[derive(Clone, Debug)]
pub struct Position {
    board: Board,
    /// Zobrist hashes of the positions before the current one, oldest first.
    history: Vec<u64>,
}

impl Position {
    pub fn startpos() -> Self {
        Position { board: Board::default(), history: Vec::new() }
    }

    pub fn from_fen(fen: &str) -> Result<Self, String> {
        let board = Board::from_fen(fen, false).map_err(|e| e.to_string())?;
        Ok(Position { board, history: Vec::new() })
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Hashes of the positions before the current one, oldest first.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// Plays a move given in standard UCI notation (`e1g1` for castling).
    pub fn play_uci(&mut self, text: &str) -> Result<Move, String> {
        let mv = cozy_chess::util::parse_uci_move(&self.board, text).map_err(|e| e.to_string())?;
        if !self.board.is_legal(mv) {
            return Err(format!("illegal move {text}"));
        }
        self.history.push(self.board.hash());
        self.board.play_unchecked(mv);
        Ok(mv)
    }
}

/// Writes a move in standard UCI notation; `board` is the position before it.
pub fn move_to_uci(board: &Board, mv: Move) -> String {
    cozy_chess::util::display_uci_move(board, mv).to_string()
}

/// Game phase on the usual 0-24 scale (knight and bishop 1, rook 2, queen 4).
pub fn game_phase(board: &Board) -> i32 {
    use cozy_chess::Piece;
    let phase = board.pieces(Piece::Knight).len()
        + board.pieces(Piece::Bishop).len()
        + 2 * board.pieces(Piece::Rook).len()
        + 4 * board.pieces(Piece::Queen).len();
    (phase as i32).min(24)
}
