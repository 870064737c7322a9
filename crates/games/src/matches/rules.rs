//! How a game ends: by the rules of chess, by score adjudication, or by an
//! engine failing.
//!
//! The rules are checked after every move, in this order: checkmate (it beats
//! the fifty-move rule), stalemate, insufficient material, the fifty-move
//! rule, threefold repetition. The runner applies the fifty-move and
//! repetition rules itself, as GUIs and match tools do, instead of waiting for
//! a claim.
//!
//! Score adjudication follows the engines' own scores and is off unless asked
//! for: resign when both engines agree that one side is lost (the score, seen
//! from White, at least `score` centipawns for the same side over `movecount`
//! consecutive moves of each engine; a mate score counts as beyond any score),
//! and draw from move `movenumber` on, when both engines report centipawn
//! scores within `score` of zero over `movecount` consecutive moves of each
//! engine. A capture or pawn move restarts the draw count: the position is
//! still changing. A move without a score restarts both counts.

use cozy_chess::{Board, Color};
use prunelab::position::insufficient_material;
use serde::{Deserialize, Serialize};

use crate::engine::Score;

/// A game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameResult {
    #[serde(rename = "1-0")]
    WhiteWins,
    #[serde(rename = "0-1")]
    BlackWins,
    #[serde(rename = "1/2-1/2")]
    Draw,
}

impl GameResult {
    /// The side that lost when `color` loses.
    pub fn loss_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::BlackWins,
            Color::Black => GameResult::WhiteWins,
        }
    }

    /// The points `color` scored.
    pub fn points_for(self, color: Color) -> f64 {
        match (self, color) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 1.0,
            _ => 0.0,
        }
    }

    /// `1-0`, `0-1`, `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    FiftyMoveRule,
    ThreefoldRepetition,
    ResignAdjudication,
    DrawAdjudication,
    /// An engine's flag fell.
    TimeLoss,
    /// An engine process exited or could not be started.
    Crash,
    /// An engine played a move that is malformed or illegal in the position.
    IllegalMove,
    /// An engine broke the protocol or stopped answering outside a search.
    ProtocolError,
}

impl Termination {
    /// Words for summaries.
    pub fn describe(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::FiftyMoveRule => "fifty-move rule",
            Termination::ThreefoldRepetition => "threefold repetition",
            Termination::ResignAdjudication => "resign adjudication",
            Termination::DrawAdjudication => "draw adjudication",
            Termination::TimeLoss => "time loss",
            Termination::Crash => "crash",
            Termination::IllegalMove => "illegal move",
            Termination::ProtocolError => "protocol error",
        }
    }

    /// The PGN `Termination` tag's standard value.
    pub fn pgn_tag(self) -> &'static str {
        match self {
            Termination::ResignAdjudication | Termination::DrawAdjudication => "adjudication",
            Termination::TimeLoss => "time forfeit",
            Termination::Crash => "abandoned",
            Termination::IllegalMove | Termination::ProtocolError => "rules infraction",
            _ => "normal",
        }
    }
}

/// The end of the game by the rules, if `board` (reached after `history`,
/// the game's earlier positions, oldest first) ends it.
pub fn rules_verdict(board: &Board, history: &[Board]) -> Option<(GameResult, Termination)> {
    let has_moves = board.generate_moves(|_| true);
    if !has_moves {
        return Some(if board.checkers().is_empty() {
            (GameResult::Draw, Termination::Stalemate)
        } else {
            (GameResult::loss_for(board.side_to_move()), Termination::Checkmate)
        });
    }
    if insufficient_material(board) {
        return Some((GameResult::Draw, Termination::InsufficientMaterial));
    }
    if board.halfmove_clock() >= prunelab::position::FIFTY_MOVE_PLIES {
        return Some((GameResult::Draw, Termination::FiftyMoveRule));
    }
    if is_threefold_repetition(board, history) {
        return Some((GameResult::Draw, Termination::ThreefoldRepetition));
    }
    None
}

/// Whether `board` occurred at least twice before. Only positions since the
/// last capture or pawn move, with the same side to move, can repeat; they are
/// compared the FIDE way (`same_position`: an en-passant square counts only
/// when the capture is legal), so a double push that allows no capture does
/// not hide a repetition.
pub fn is_threefold_repetition(board: &Board, history: &[Board]) -> bool {
    let window = history.len().min(board.halfmove_clock() as usize);
    let earlier = (2..=window).step_by(2).map(|plies_back| &history[history.len() - plies_back]);
    earlier.filter(|earlier| earlier.same_position(board)).count() >= 2
}

/// `--resign-movecount` and `--resign-score`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResignRule {
    pub movecount: u32,
    pub score: i32,
}

/// `--draw-movenumber`, `--draw-movecount` and `--draw-score`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRule {
    pub movenumber: u32,
    pub movecount: u32,
    pub score: i32,
}

/// Score adjudication over one game (see the module doc).
#[derive(Clone, Debug, Default)]
pub struct ScoreAdjudicator {
    resign: Option<ResignRule>,
    draw: Option<DrawRule>,
    /// Consecutive plies whose score says White wins, resp. Black wins.
    white_winning_plies: u32,
    black_winning_plies: u32,
    /// Consecutive plies with a drawish score.
    drawish_plies: u32,
}

impl ScoreAdjudicator {
    pub fn new(resign: Option<ResignRule>, draw: Option<DrawRule>) -> ScoreAdjudicator {
        ScoreAdjudicator { resign, draw, ..ScoreAdjudicator::default() }
    }

    /// Takes the score the engine of `mover` reported for its move, the move's
    /// number (`fullmove_number` before it), and the board after it.
    pub fn update(
        &mut self,
        mover: Color,
        score: Option<Score>,
        move_number: u32,
        after: &Board,
    ) -> Option<(GameResult, Termination)> {
        let Some(score) = score else {
            *self = ScoreAdjudicator::new(self.resign, self.draw);
            return None;
        };
        if let Some(rule) = self.resign {
            // Both engines must agree, so the score is counted from White's side.
            let for_white = if mover == Color::White { score.centipawns() } else { -score.centipawns() };
            if for_white >= rule.score {
                self.white_winning_plies += 1;
                self.black_winning_plies = 0;
            } else if for_white <= -rule.score {
                self.black_winning_plies += 1;
                self.white_winning_plies = 0;
            } else {
                self.white_winning_plies = 0;
                self.black_winning_plies = 0;
            }
            let needed = 2 * rule.movecount;
            if self.white_winning_plies >= needed {
                return Some((GameResult::WhiteWins, Termination::ResignAdjudication));
            }
            if self.black_winning_plies >= needed {
                return Some((GameResult::BlackWins, Termination::ResignAdjudication));
            }
        }
        if let Some(rule) = self.draw {
            if after.halfmove_clock() == 0 {
                self.drawish_plies = 0;
            }
            let drawish = matches!(score, Score::Cp(cp) if cp.abs() <= rule.score);
            if move_number >= rule.movenumber && drawish {
                self.drawish_plies += 1;
            } else {
                self.drawish_plies = 0;
            }
            if self.drawish_plies >= 2 * rule.movecount {
                return Some((GameResult::Draw, Termination::DrawAdjudication));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use prunelab::position::move_from_uci;

    use super::*;

    fn board(fen: &str) -> Board {
        prunelab::position::parse_fen(fen).unwrap().0
    }

    /// Plays `moves` (UCI) from `fen`; returns the final board and the ones before it.
    fn play(fen: &str, moves: &str) -> (Board, Vec<Board>) {
        let mut current = board(fen);
        let mut history = Vec::new();
        for text in moves.split_whitespace() {
            let mv = move_from_uci(&current, text).unwrap();
            history.push(current.clone());
            current.play_unchecked(mv);
        }
        (current, history)
    }

    #[test]
    fn checkmate_and_stalemate_end_the_game() {
        // Fool's mate.
        let (mated, history) = play(prunelab::position::STARTPOS_FEN, "f2f3 e7e5 g2g4 d8h4");
        assert_eq!(rules_verdict(&mated, &history), Some((GameResult::BlackWins, Termination::Checkmate)));
        let stalemate = board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        assert_eq!(rules_verdict(&stalemate, &[]), Some((GameResult::Draw, Termination::Stalemate)));
        assert_eq!(rules_verdict(&board(prunelab::position::STARTPOS_FEN), &[]), None);
    }

    #[test]
    fn mate_on_the_hundredth_ply_beats_the_fifty_move_rule() {
        let mated = board("7k/6Q1/6K1/8/8/8/8/8 b - - 100 80");
        assert_eq!(rules_verdict(&mated, &[]), Some((GameResult::WhiteWins, Termination::Checkmate)));
        let fifty = board("7k/8/6K1/8/8/8/8/R7 b - - 100 80");
        assert_eq!(rules_verdict(&fifty, &[]), Some((GameResult::Draw, Termination::FiftyMoveRule)));
        let ninety_nine = board("7k/8/6K1/8/8/8/8/R7 b - - 99 80");
        assert_eq!(rules_verdict(&ninety_nine, &[]), None);
    }

    #[test]
    fn insufficient_material_is_a_draw() {
        for fen in
            ["8/8/4k3/8/8/3K4/8/8 w - - 0 1", "8/8/4k3/8/8/3KN3/8/8 w - - 0 1", "8/8/4kb2/8/8/3KB3/8/8 w - - 0 1"]
        {
            assert_eq!(
                rules_verdict(&board(fen), &[]),
                Some((GameResult::Draw, Termination::InsufficientMaterial)),
                "{fen}"
            );
        }
        // Bishops on squares of both colours can still mate.
        assert_eq!(rules_verdict(&board("8/8/4k1b1/8/8/3KB3/8/8 w - - 0 1"), &[]), None);
    }

    #[test]
    fn threefold_repetition_needs_the_third_occurrence() {
        let shuffle = "g1f3 g8f6 f3g1 f6g8";
        let (twice, history) = play(prunelab::position::STARTPOS_FEN, shuffle);
        assert_eq!(rules_verdict(&twice, &history), None);
        let (thrice, history) = play(prunelab::position::STARTPOS_FEN, &format!("{shuffle} {shuffle}"));
        assert_eq!(rules_verdict(&thrice, &history), Some((GameResult::Draw, Termination::ThreefoldRepetition)));
    }

    #[test]
    fn an_en_passant_square_without_a_capture_does_not_hide_a_repetition() {
        // After 1. e4 the hash includes the e3 file, but no black pawn can take:
        // the position after 1. e4 is the same as after the knights return.
        let moves = "e2e4 g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g8 f3g1";
        let (board_now, history) = play(prunelab::position::STARTPOS_FEN, moves);
        assert!(is_threefold_repetition(&board_now, &history));
    }

    #[test]
    fn resign_needs_both_engines_to_agree_for_movecount_moves_each() {
        let rule = ResignRule { movecount: 2, score: 600 };
        let mut adjudicator = ScoreAdjudicator::new(Some(rule), None);
        let after = board(prunelab::position::STARTPOS_FEN);
        // White's engine says +7, Black's engine says -7 (its own view): agreement.
        assert_eq!(adjudicator.update(Color::White, Some(Score::Cp(700)), 30, &after), None);
        assert_eq!(adjudicator.update(Color::Black, Some(Score::Cp(-700)), 30, &after), None);
        assert_eq!(adjudicator.update(Color::White, Some(Score::Mate(3)), 31, &after), None);
        // Black's engine disagrees: the count starts over.
        assert_eq!(adjudicator.update(Color::Black, Some(Score::Cp(-100)), 31, &after), None);
        for (mover, score) in [(Color::White, 650), (Color::Black, -650), (Color::White, 650)] {
            assert_eq!(adjudicator.update(mover, Some(Score::Cp(score)), 32, &after), None);
        }
        assert_eq!(
            adjudicator.update(Color::Black, Some(Score::Cp(-650)), 33, &after),
            Some((GameResult::WhiteWins, Termination::ResignAdjudication))
        );
    }

    #[test]
    fn draw_adjudication_waits_for_the_move_number_and_quiet_moves() {
        let rule = DrawRule { movenumber: 40, movecount: 2, score: 10 };
        let mut adjudicator = ScoreAdjudicator::new(None, Some(rule));
        let quiet = board("7k/8/6K1/8/8/8/8/R7 b - - 5 80");
        let capture = board("7k/8/6K1/8/8/8/8/R7 b - - 0 80");
        for _ in 0..4 {
            assert_eq!(adjudicator.update(Color::White, Some(Score::Cp(0)), 39, &quiet), None);
        }
        for _ in 0..3 {
            assert_eq!(adjudicator.update(Color::White, Some(Score::Cp(5)), 40, &quiet), None);
        }
        // A capture restarts the count (the capture itself counts as the first ply).
        assert_eq!(adjudicator.update(Color::White, Some(Score::Cp(5)), 41, &capture), None);
        for _ in 0..2 {
            assert_eq!(adjudicator.update(Color::White, Some(Score::Cp(-5)), 41, &quiet), None);
        }
        assert_eq!(
            adjudicator.update(Color::White, Some(Score::Cp(0)), 42, &quiet),
            Some((GameResult::Draw, Termination::DrawAdjudication))
        );
        // Mate scores are never drawish.
        let mut adjudicator = ScoreAdjudicator::new(None, Some(rule));
        for _ in 0..8 {
            assert_eq!(adjudicator.update(Color::White, Some(Score::Mate(0)), 50, &quiet), None);
        }
    }
}
