//! The games of PGN files: as they are spelt, for `lab clocks`, and
//! replayed move by move, for `lab blunders`.
//!
//! The `pgn-reader` crate reads the PGN syntax (tags and their escapes,
//! comments, NAGs, variations, which are skipped); the engine crate's SAN
//! reader then replays each main-line move on the board, so a move that is
//! not legal is an error naming the file, the game and the move. Each move
//! keeps what its first comment says: `book` (fastchess and cutechess mark
//! the opening's moves so), and the depth of `{+0.31/12 0.123s}`, the
//! comment `lab match`, fastchess and cutechess write after an engine move.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use cozy_chess::{Board, Color, Move};
use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use prunelab::position::{move_to_uci, parse_fen, STARTPOS_FEN};
use prunelab::san::{move_to_san, parse_san};

/// One game, replayed.
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// The file as given on the command line.
    pub file: PathBuf,
    /// 1 for the file's first game.
    pub number: usize,
    pub white: String,
    pub black: String,
    /// The `TimeControl` tag (`10+0.1`), when there is one.
    pub time_control: Option<String>,
    /// The position before the first move, as a full FEN.
    pub start_fen: String,
    pub moves: Vec<PgnMove>,
}

/// One main-line move and the position it was played in.
#[derive(Clone, Debug)]
pub struct PgnMove {
    /// The position before the move.
    pub board: Board,
    pub mv: Move,
    pub uci: String,
    /// As the lab writes SAN (the PGN's own spelling may differ: `0-0`, `Ng1f3`).
    pub san: String,
    /// The move's first comment was `book`: not the engine's choice.
    pub book: bool,
    /// The search depth its comment reports (`+0.31/12`), if any.
    pub depth: Option<u32>,
}

impl PgnGame {
    /// `games.pgn#3`: the game's identity in records and messages.
    pub fn key(&self) -> String {
        format!("{}#{}", self.file.display(), self.number)
    }

    /// The engine that played the move at `ply` (0 is the first move).
    pub fn mover(&self, ply: usize) -> &str {
        match self.moves[ply].board.side_to_move() {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The position after the last move.
    pub fn final_board(&self) -> Board {
        let Some(last) = self.moves.last() else {
            return parse_fen(&self.start_fen).expect("the start position was read").0;
        };
        let mut board = last.board.clone();
        board.play_unchecked(last.mv);
        board
    }

    /// `position fen ... moves ...` for the position after `plies` moves:
    /// the referee gets the game's history, so it sees repetitions as the
    /// players did.
    pub fn uci_position(&self, plies: usize) -> String {
        let mut text = format!("position fen {}", self.start_fen);
        if plies > 0 {
            text.push_str(" moves");
            for played in &self.moves[..plies] {
                text.push(' ');
                text.push_str(&played.uci);
            }
        }
        text
    }
}

/// Every game of `path`, replayed. A file that cannot be read, holds no
/// game or has a game with an illegal move is an error.
pub fn read_pgn_file(path: &Path) -> Result<Vec<PgnGame>> {
    let text = std::fs::read(path).with_context(|| format!("cannot read PGN file {}", path.display()))?;
    let raw_games = read_raw_games(&text).with_context(|| format!("{}: broken PGN", path.display()))?;
    let mut games = Vec::new();
    for raw in raw_games {
        let number = games.len() + 1;
        games.push(replay(path, number, raw).with_context(|| format!("{}, game {number}", path.display()))?);
    }
    if games.is_empty() {
        bail!("{}: no games in it", path.display());
    }
    Ok(games)
}

/// Every game of a PGN as it spells it, its moves not checked: what
/// `lab clocks` reads, and what `read_pgn_file` replays. pgn-reader reads
/// a tag line or a comment only as long as its buffer holds (255 bytes
/// unless told), and a match runner writes an engine's `id name` into the
/// tags (prunelab's lists its features: about 600 bytes for `full`), so
/// the buffer is sized to the text's longest line and longest comment.
pub fn read_raw_games(pgn: &[u8]) -> std::io::Result<Vec<RawGame>> {
    let (longest_line, longest_comment) = longest_line_and_comment(pgn);
    let mut reader = Reader::build(pgn)
        // The line's end too, where the reader looks for the closing quote.
        .set_supported_tag_line_length(longest_line + 1)
        .set_supported_comment_length(longest_comment)
        .finish();
    let mut games = Vec::new();
    while let Some(raw) = reader.read_game(&mut RawGameReader)? {
        // Text with neither tags nor moves (a stray line) is no game.
        if !(raw.tags.is_empty() && raw.moves.is_empty()) {
            games.push(raw);
        }
    }
    Ok(games)
}

/// The length in bytes of `text`'s longest line and of its longest `{...}`
/// comment (without the braces), which may span lines.
fn longest_line_and_comment(text: &[u8]) -> (usize, usize) {
    let longest_line = text.split(|&byte| byte == b'\n').map(<[u8]>::len).max().unwrap_or(0);
    let mut longest_comment = 0;
    let mut rest = text;
    while let Some(open) = rest.iter().position(|&byte| byte == b'{') {
        let after = &rest[open + 1..];
        let length = after.iter().position(|&byte| byte == b'}').unwrap_or(after.len());
        longest_comment = longest_comment.max(length);
        rest = &after[length.min(after.len())..];
    }
    (longest_line, longest_comment)
}

/// A game as the PGN spells it, before its moves are checked.
#[derive(Default)]
pub struct RawGame {
    pub tags: BTreeMap<String, String>,
    /// Each main-line SAN with its comments.
    pub moves: Vec<(String, Vec<String>)>,
}

struct RawGameReader;

impl Visitor for RawGameReader {
    type Tags = BTreeMap<String, String>;
    type Movetext = RawGame;
    type Output = RawGame;

    fn begin_tags(&mut self) -> ControlFlow<RawGame, Self::Tags> {
        ControlFlow::Continue(BTreeMap::new())
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<RawGame> {
        tags.insert(String::from_utf8_lossy(name).into_owned(), value.decode_utf8_lossy().into_owned());
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<RawGame, RawGame> {
        ControlFlow::Continue(RawGame { tags, moves: Vec::new() })
    }

    fn san(&mut self, game: &mut RawGame, san_plus: SanPlus) -> ControlFlow<RawGame> {
        game.moves.push((san_plus.to_string(), Vec::new()));
        ControlFlow::Continue(())
    }

    fn comment(&mut self, game: &mut RawGame, comment: RawComment<'_>) -> ControlFlow<RawGame> {
        if let Some((_, comments)) = game.moves.last_mut() {
            comments.push(String::from_utf8_lossy(comment.as_bytes()).trim().to_string());
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _game: &mut RawGame) -> ControlFlow<RawGame, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, game: RawGame) -> RawGame {
        game
    }
}

fn replay(path: &Path, number: usize, raw: RawGame) -> Result<PgnGame> {
    let tag = |name: &str| raw.tags.get(name).cloned();
    let start_fen = tag("FEN").unwrap_or_else(|| STARTPOS_FEN.to_string());
    let (mut board, _) = parse_fen(&start_fen).map_err(|error| anyhow::anyhow!("its FEN tag: {error}"))?;
    let start_fen = board.to_string();
    let mut moves = Vec::new();
    for (san, comments) in raw.moves {
        let mv = parse_san(&board, &san).map_err(|error| {
            let number = board.fullmove_number();
            let dots = if board.side_to_move() == Color::White { "." } else { "..." };
            anyhow::anyhow!("move {number}{dots} {san} is not legal in {board}: {error}")
        })?;
        let first_comment = comments.first().map(String::as_str).unwrap_or("");
        moves.push(PgnMove {
            board: board.clone(),
            mv,
            uci: move_to_uci(&board, mv),
            san: move_to_san(&board, mv),
            book: first_comment.eq_ignore_ascii_case("book"),
            depth: comment_depth(first_comment),
        });
        board.play_unchecked(mv);
    }
    Ok(PgnGame {
        file: path.to_path_buf(),
        number,
        white: tag("White").unwrap_or_else(|| "?".to_string()),
        black: tag("Black").unwrap_or_else(|| "?".to_string()),
        time_control: tag("TimeControl"),
        start_fen,
        moves,
    })
}

/// The depth of an engine move's comment: its first word is
/// `score/depth`, the score in pawns (`+0.31`, `-1.20`, `0.00`) or moves
/// to mate (`+M3`, `-M2`), as `lab match`, fastchess and cutechess write.
fn comment_depth(comment: &str) -> Option<u32> {
    let first = comment.split_whitespace().next()?;
    let (score, depth) = first.split_once('/')?;
    let score = score.trim_start_matches(['+', '-']);
    let is_score = score.parse::<f64>().is_ok() || score.strip_prefix('M').is_some_and(|m| m.parse::<u32>().is_ok());
    let depth = depth.trim_end_matches(',');
    if is_score {
        depth.parse().ok()
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Vec<PgnGame>> {
        let dir = std::env::temp_dir().join(format!("prunelab-pgn-games-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{:x}.pgn", text.len() * 31 + text.bytes().map(usize::from).sum::<usize>()));
        std::fs::write(&path, text).unwrap();
        let games = read_pgn_file(&path);
        let _ = std::fs::remove_file(&path);
        games
    }

    #[test]
    fn depths_come_from_engine_comments_only() {
        assert_eq!(comment_depth("+0.31/12 0.123s"), Some(12));
        assert_eq!(comment_depth("-M3/20 1.2s"), Some(20));
        assert_eq!(comment_depth("0.00/7, draw by adjudication"), Some(7));
        assert_eq!(comment_depth("book"), None);
        assert_eq!(comment_depth("0.153s"), None);
        assert_eq!(comment_depth("White mates 1/2"), None);
    }

    #[test]
    fn games_replay_with_their_comments_tags_and_start_position() {
        let games = read(
            "[White \"a\"]\n[Black \"b \\\"q\\\"\"]\n[Round \"2\"]\n[FEN \"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\"]\n\n\
             3. Bc4 {book} Nf6 {+0.20/9 0.1s} (3... Be7 4. d4) 4. O-O {-0.25/11 0.2s} {a second comment} Bc5 $1 *\n\n\
             [White \"c\"]\n[Black \"d\"]\n\n1. e4 e5 1-0\n",
        )
        .unwrap();
        assert_eq!(games.len(), 2);
        let first = &games[0];
        assert_eq!((first.white.as_str(), first.black.as_str()), ("a", "b \"q\""));
        let sans: Vec<&str> = first.moves.iter().map(|played| played.san.as_str()).collect();
        assert_eq!(sans, ["Bc4", "Nf6", "O-O", "Bc5"]);
        assert_eq!(first.moves[2].uci, "e1g1");
        assert_eq!(first.moves.iter().map(|played| played.book).collect::<Vec<_>>(), [true, false, false, false]);
        assert_eq!(first.moves.iter().map(|played| played.depth).collect::<Vec<_>>(), [None, Some(9), Some(11), None]);
        assert_eq!((first.mover(0), first.mover(1)), ("a", "b \"q\""));
        assert_eq!(
            first.uci_position(2),
            "position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 moves f1c4 g8f6"
        );
        assert_eq!(games[1].number, 2);
        assert_eq!(games[1].uci_position(0), format!("position fen {STARTPOS_FEN}"));
    }

    #[test]
    fn tags_and_comments_of_any_length_are_read() {
        // A match runner's Event and White tags carrying a long `id name`,
        // as fastchess writes prunelab's, and long engine comments.
        let features: Vec<String> = (0..200).map(|index| format!("feature-{index}")).collect();
        let name = format!("prunelab 0.1.0 full [{}]", features.join(","));
        let comment = format!("+0.31/12 0.123s, {}", "pv ".repeat(700));
        assert!(name.len() > 2000 && comment.len() > 2000);
        // Games of varied lengths: the reader's 16 KB buffer is refilled in
        // the middle of a tag line or a comment somewhere, where a buffer
        // set for 255 bytes breaks off.
        let games: Vec<String> = (0..40)
            .map(|index| {
                format!(
                    "[Event \"Fastchess Tournament {name}\"]\n[White \"{name}\"]\n[Black \"b{}\"]\n\n\
                     1. e4 {{{}}} e5 {{+0.10/9\n0.2s}} 1/2-1/2\n\n",
                    "x".repeat(index * 37),
                    &comment[..comment.len() - index * 13]
                )
            })
            .collect();
        let text = format!("{}[White \"c\"]\n[Black \"d\"]\n\n1. d4 *\n", games.concat());
        let games = read(&text).unwrap();
        assert_eq!(games.len(), 41);
        for (index, game) in games[..40].iter().enumerate() {
            assert_eq!((game.white.as_str(), game.black.len()), (name.as_str(), 1 + index * 37));
            assert_eq!(game.moves.iter().map(|played| played.depth).collect::<Vec<_>>(), [Some(12), Some(9)]);
        }
        assert_eq!(games[40].white, "c");
        let raw = read_raw_games(text.as_bytes()).unwrap();
        assert_eq!(raw[0].tags["Event"], format!("Fastchess Tournament {name}"));
        assert_eq!(raw[0].moves[0].1, [comment.trim()]);
        assert_eq!(longest_line_and_comment(b"ab\n{x\ny}\n{}"), (2, 3));
    }

    #[test]
    fn an_illegal_move_or_an_empty_file_is_an_error() {
        let error = format!("{:#}", read("[White \"a\"]\n\n1. e4 e5 2. Ke3 *\n").unwrap_err());
        assert!(error.contains("game 1: move 2. Ke3 is not legal"), "{error}");
        let error = format!("{:#}", read("no games here, just words\n").unwrap_err());
        assert!(error.contains("no games in it"), "{error}");
        let error = format!("{:#}", read("").unwrap_err());
        assert!(error.contains("no games in it"), "{error}");
    }
}
