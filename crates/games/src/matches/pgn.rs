//! Games as PGN: the seven-tag roster, `SetUp`/`FEN` for book starts, the
//! time control, the termination (the standard tag plus a final comment that
//! names the engine when one failed), and SAN moves with optional
//! `{score/depth time}` comments from the mover's point of view.

use prunelab::san::move_to_san;

use super::clock::TimeControl;
use super::game::PlayedGame;
use crate::engine::Score;

/// What a game's PGN needs beyond the game.
pub struct PgnContext<'a> {
    pub event: &'a str,
    /// `YYYY.MM.DD`.
    pub date: &'a str,
    pub round: u64,
    pub tc: TimeControl,
    /// Whether moves carry `{score/depth time}` comments.
    pub comments: bool,
}

/// The PGN `Date` of today.
pub fn pgn_date() -> String {
    let format = time::macros::format_description!("[year].[month].[day]");
    time::OffsetDateTime::now_utc().format(&format).unwrap_or_else(|_| "????.??.??".to_string())
}

/// PGN export lines are at most 80 characters.
const LINE_WIDTH: usize = 80;

/// A tag value with `\` and `"` escaped.
fn tag(name: &str, value: &str) -> String {
    format!("[{name} \"{}\"]\n", value.replace('\\', "\\\\").replace('"', "\\\""))
}

/// `+0.31`, `-M3`: pawns or moves to mate, signed, for move comments.
fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{}{:.2}", if cp < 0 { "-" } else { "+" }, cp.unsigned_abs() as f64 / 100.0),
        Score::Mate(moves) => format!("{}M{}", if moves < 0 { "-" } else { "+" }, moves.unsigned_abs()),
    }
}

/// One game in PGN, ending with a blank line.
pub fn game_to_pgn(game: &PlayedGame, context: &PgnContext) -> String {
    let result = game.result.pgn();
    let mut text = String::new();
    text.push_str(&tag("Event", context.event));
    text.push_str(&tag("Site", "prunelab lab"));
    text.push_str(&tag("Date", context.date));
    text.push_str(&tag("Round", &context.round.to_string()));
    text.push_str(&tag("White", &game.white));
    text.push_str(&tag("Black", &game.black));
    text.push_str(&tag("Result", result));
    if !game.opening.is_start_position() {
        text.push_str(&tag("SetUp", "1"));
        text.push_str(&tag("FEN", &game.opening.fen));
    }
    text.push_str(&tag("TimeControl", &context.tc.pgn_tag()));
    // A supplemental tag, as the PGN standard allows: what `-` leaves out.
    if let Some(nodes) = context.tc.nodes() {
        text.push_str(&tag("Nodes", &nodes.to_string()));
    }
    text.push_str(&tag("Termination", game.termination.pgn_tag()));
    text.push_str(&tag("PlyCount", &game.moves.len().to_string()));
    text.push('\n');

    let mut tokens: Vec<String> = Vec::new();
    let mut board = game.opening.board.clone();
    // A black move needs its number after the start and after a comment.
    let mut needs_number = true;
    for played in &game.moves {
        let number = board.fullmove_number();
        let white_to_move = board.side_to_move() == cozy_chess::Color::White;
        if white_to_move {
            tokens.push(format!("{number}."));
        } else if needs_number {
            tokens.push(format!("{number}..."));
        }
        tokens.push(move_to_san(&board, played.mv));
        board.play_unchecked(played.mv);
        needs_number = false;
        if context.comments {
            let mut comment = String::new();
            if let Some(score) = played.score {
                comment.push_str(&score_text(score));
                if let Some(depth) = played.depth {
                    comment.push_str(&format!("/{depth}"));
                }
                comment.push(' ');
            }
            comment.push_str(&format!("{:.3}s", played.elapsed.as_secs_f64()));
            tokens.push(format!("{{{comment}}}"));
            needs_number = true;
        }
    }
    tokens.push(format!("{{{}}}", game.ending().replace('}', ")")));
    tokens.push(result.to_string());

    let mut line = String::new();
    for token in tokens.iter().flat_map(|token| token.split(' ')) {
        if !line.is_empty() && line.len() + 1 + token.len() > LINE_WIDTH {
            text.push_str(&line);
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(token);
    }
    text.push_str(&line);
    text.push_str("\n\n");
    text
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use prunelab::position::move_from_uci;
    use prunelab::san::parse_san;

    use super::*;
    use crate::matches::book::Opening;
    use crate::matches::game::{Failure, PlayedMove};
    use crate::matches::rules::{GameResult, Termination};

    fn game_from(fen: &str, moves: &str) -> PlayedGame {
        let board = prunelab::position::parse_fen(fen).unwrap().0;
        let opening = Opening { line: 12, fen: board.to_string(), board: board.clone() };
        let mut current = board;
        let mut played = Vec::new();
        for (index, text) in moves.split_whitespace().enumerate() {
            let mv = move_from_uci(&current, text).unwrap();
            current.play_unchecked(mv);
            let score = (index % 2 == 0).then_some(Score::Cp(31 - index as i32 * 40));
            played.push(PlayedMove { mv, score, depth: Some(9), elapsed: Duration::from_millis(153) });
        }
        PlayedGame {
            opening,
            white: "razor-r1".into(),
            black: "baseline \"quoted\"".into(),
            moves: played,
            result: GameResult::BlackWins,
            termination: Termination::Checkmate,
            failure: None,
        }
    }

    fn context(comments: bool) -> PgnContext<'static> {
        PgnContext { event: "lab match", date: "2026.11.22", round: 3, tc: "10+0.1".parse().unwrap(), comments }
    }

    /// The tags and the SAN moves of one PGN game, comments and numbers dropped.
    fn parse(pgn: &str) -> (Vec<(String, String)>, Vec<String>) {
        let mut tags = Vec::new();
        let mut movetext = String::new();
        for line in pgn.lines() {
            if let Some(inner) = line.strip_prefix('[').and_then(|line| line.strip_suffix(']')) {
                let (name, value) = inner.split_once(' ').unwrap();
                let value = value.strip_prefix('"').and_then(|value| value.strip_suffix('"')).unwrap();
                tags.push((name.to_string(), value.replace("\\\"", "\"")));
            } else {
                movetext.push_str(line);
                movetext.push(' ');
            }
        }
        let mut moves = Vec::new();
        let mut in_comment = false;
        for word in movetext.split_whitespace() {
            if in_comment || word.starts_with('{') {
                in_comment = !word.ends_with('}');
                continue;
            }
            if word.ends_with('.') || ["1-0", "0-1", "1/2-1/2", "*"].contains(&word) {
                continue;
            }
            moves.push(word.to_string());
        }
        (tags, moves)
    }

    #[test]
    fn a_short_game_is_legal_san_with_the_right_headers() {
        for comments in [false, true] {
            let game = game_from(prunelab::position::STARTPOS_FEN, "f2f3 e7e5 g2g4 d8h4");
            let pgn = game_to_pgn(&game, &context(comments));
            assert!(pgn.lines().all(|line| line.len() <= LINE_WIDTH), "{pgn}");
            let (tags, moves) = parse(&pgn);
            let names: Vec<&str> = tags.iter().map(|(name, _)| name.as_str()).collect();
            assert_eq!(
                names,
                [
                    "Event",
                    "Site",
                    "Date",
                    "Round",
                    "White",
                    "Black",
                    "Result",
                    "TimeControl",
                    "Termination",
                    "PlyCount"
                ]
            );
            let value = |name: &str| tags.iter().find(|(tag, _)| tag == name).unwrap().1.clone();
            assert_eq!(value("Black"), "baseline \"quoted\"");
            assert_eq!(value("Result"), "0-1");
            assert_eq!(value("Round"), "3");
            assert_eq!(value("TimeControl"), "10+0.1");
            assert_eq!(moves, ["f3", "e5", "g4", "Qh4#"]);
            assert!(pgn.contains("{Black mates} 0-1"), "{pgn}");
            if comments {
                assert!(pgn.contains("1. f3 {+0.31/9 0.153s} 1... e5 {0.153s} 2. g4 {-0.49/9 0.153s}"), "{pgn}");
            } else {
                assert!(pgn.contains("1. f3 e5 2. g4 Qh4#"), "{pgn}");
            }
        }
    }

    #[test]
    fn book_starts_have_setup_and_fen_and_replay_from_them() {
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 2";
        let mut game = game_from(fen, "g8f6 f1c4 f8c5 e1g1 e8g8 d2d4 c5d4 f3d4 c6d4 d1d4");
        game.result = GameResult::WhiteWins;
        game.termination = Termination::TimeLoss;
        game.failure = Some(Failure {
            engine: "baseline".into(),
            kind: Termination::TimeLoss,
            detail: "baseline loses on time: 130 ms used with 20 ms on the clock".into(),
        });
        let pgn = game_to_pgn(&game, &context(true));
        let (tags, moves) = parse(&pgn);
        let value = |name: &str| tags.iter().find(|(tag, _)| tag == name).unwrap().1.clone();
        assert_eq!(value("SetUp"), "1");
        assert_eq!(value("FEN"), fen);
        assert_eq!(value("Termination"), "time forfeit");
        assert_eq!(value("PlyCount"), "10");
        let one_line = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(one_line.contains("2... Nf6"), "black starts with its move number: {pgn}");
        assert!(one_line.contains("{baseline loses on time: 130 ms used with 20 ms on the clock} 1-0"), "{pgn}");
        // Replay the SAN from the FEN with the library's SAN reader.
        let mut board = prunelab::position::parse_fen(&value("FEN")).unwrap().0;
        for san in &moves {
            let mv = parse_san(&board, san).unwrap_or_else(|error| panic!("{san}: {error}\n{pgn}"));
            board.play(mv);
        }
        assert_eq!(moves[3], "O-O");
        assert_eq!(board, {
            let mut expected = game.opening.board.clone();
            game.moves.iter().for_each(|played| expected.play(played.mv));
            expected
        });
    }
}
