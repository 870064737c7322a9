//! Opening books: one position per line, as EPD or FEN (the four position
//! fields are enough; clocks and EPD operations after them are allowed).
//!
//! The file is read once and only split into lines; a line is parsed when a
//! game needs it, so a 242k-line book costs one read, not 242k parses. A line
//! that is not a legal position is skipped and reported with its line number.
//! The order is a shuffle of the lines fixed by the seed: pair `k` of a run
//! always gets the same opening, which is what lets `--resume` continue with
//! the next ones.

use std::collections::HashSet;
use std::ops::Range;
use std::path::Path;

use anyhow::{bail, Context, Result};
use cozy_chess::Board;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A game's starting position.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The book line it came from (1-based); 0 for the standard start position.
    pub line: u32,
    /// A full 6-field FEN.
    pub fen: String,
    pub board: Board,
}

impl Opening {
    pub fn start_position() -> Opening {
        let board = Board::default();
        Opening { line: 0, fen: board.to_string(), board }
    }

    pub fn is_start_position(&self) -> bool {
        self.board == Board::default()
    }
}

/// A line of the book that is not a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkippedLine {
    pub line: u32,
    pub error: String,
}

/// The candidate lines of a book file (or the start position alone).
pub struct Book {
    /// The file's path, or `start position`.
    pub source: String,
    text: String,
    /// Byte ranges of the lines that are not blank or `#` comments, with
    /// their 1-based line numbers.
    lines: Vec<(u32, Range<usize>)>,
}

impl Book {
    pub fn read(path: &Path) -> Result<Book> {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read the opening book {}", path.display()))?;
        let book = Book::from_text(&path.display().to_string(), String::from_utf8_lossy(&bytes).into_owned());
        if book.lines.is_empty() {
            bail!("the opening book {} has no positions", path.display());
        }
        Ok(book)
    }

    /// A book of the lines of `text`; `source` names it in messages.
    pub fn from_text(source: &str, text: String) -> Book {
        let mut lines = Vec::new();
        let mut start = 0;
        for (index, line) in text.split_inclusive('\n').enumerate() {
            let range = start..start + line.len();
            start = range.end;
            let trimmed = line.trim();
            if !trimmed.is_empty() && !trimmed.starts_with('#') {
                lines.push((index as u32 + 1, range));
            }
        }
        Book { source: source.to_string(), text, lines }
    }

    /// No book: every game starts from the standard position.
    pub fn start_position() -> Book {
        Book { source: "start position".to_string(), text: String::new(), lines: Vec::new() }
    }

    /// How many candidate lines it has (1 for the start position).
    pub fn len(&self) -> usize {
        self.lines.len().max(1)
    }

    /// Parses candidate `index`.
    fn opening(&self, index: usize) -> Result<Opening, SkippedLine> {
        let Some((line, range)) = self.lines.get(index) else {
            return Ok(Opening::start_position());
        };
        let text = self.text[range.clone()].trim();
        match prunelab::epd::parse_epd_line(text) {
            Ok(record) => Ok(Opening { line: *line, fen: record.fen, board: record.board }),
            Err(error) => Err(SkippedLine { line: *line, error }),
        }
    }

    /// The openings in the order `seed` fixes, cycling through the book.
    pub fn sequence(self, seed: u64) -> OpeningSequence {
        let mut order: Vec<u32> = (0..self.len() as u32).collect();
        order.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
        OpeningSequence { book: self, order, cursor: 0, broken: HashSet::new() }
    }
}

/// Hands out openings one by one in the seeded order.
pub struct OpeningSequence {
    book: Book,
    order: Vec<u32>,
    /// How many entries of `order` (counting repeats) were used.
    cursor: usize,
    /// Candidates known not to parse.
    broken: HashSet<u32>,
}

impl OpeningSequence {
    /// The next readable opening, and the lines found broken on the way
    /// (each reported once). Fails when no line of the book is readable.
    pub fn next_opening(&mut self) -> Result<(Opening, Vec<SkippedLine>)> {
        let mut skipped = Vec::new();
        loop {
            if self.broken.len() == self.order.len() {
                bail!("no line of the opening book {} is a readable position", self.book.source);
            }
            let index = self.order[self.cursor % self.order.len()];
            self.cursor += 1;
            if self.broken.contains(&index) {
                continue;
            }
            match self.book.opening(index as usize) {
                Ok(opening) => return Ok((opening, skipped)),
                Err(line) => {
                    self.broken.insert(index);
                    skipped.push(line);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOOK: &str = "\
# a comment, then a blank line

rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3
rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2
this is not a position
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - c0 \"open game\";
";

    fn all_openings(sequence: &mut OpeningSequence, count: usize) -> (Vec<Opening>, Vec<SkippedLine>) {
        let mut openings = Vec::new();
        let mut skipped = Vec::new();
        for _ in 0..count {
            let (opening, broken) = sequence.next_opening().unwrap();
            openings.push(opening);
            skipped.extend(broken);
        }
        (openings, skipped)
    }

    #[test]
    fn reads_four_field_fens_and_skips_a_broken_line_by_number() {
        let book = Book::from_text("test.epd", BOOK.to_string());
        assert_eq!(book.len(), 4);
        let mut sequence = book.sequence(7);
        let (openings, skipped) = all_openings(&mut sequence, 6);
        assert_eq!(skipped.len(), 1, "reported once, even when the order wraps around");
        assert_eq!(skipped[0].line, 5);
        assert!(skipped[0].error.contains("bad position"), "{}", skipped[0].error);
        let mut lines: Vec<u32> = openings[..3].iter().map(|opening| opening.line).collect();
        lines.sort_unstable();
        assert_eq!(lines, [3, 4, 6], "one pass visits every readable line once");
        assert_eq!(openings[3].line, openings[0].line, "then the same order again");
        let after_e4 = openings.iter().find(|opening| opening.line == 3).unwrap();
        assert_eq!(after_e4.fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        let sicilian = openings.iter().find(|opening| opening.line == 4).unwrap();
        assert_eq!(sicilian.board.fullmove_number(), 2);
    }

    #[test]
    fn the_seed_fixes_the_order() {
        let order = |seed| {
            let mut sequence = Book::from_text("t", BOOK.to_string()).sequence(seed);
            all_openings(&mut sequence, 3).0.iter().map(|opening| opening.line).collect::<Vec<_>>()
        };
        assert_eq!(order(1), order(1));
        assert!((0..20).any(|seed| order(seed) != order(1)), "different seeds, different orders");
    }

    #[test]
    fn a_book_without_positions_is_an_error_not_a_hang() {
        let mut sequence = Book::from_text("bad.epd", "nonsense\nmore nonsense\n".to_string()).sequence(0);
        let error = sequence.next_opening().unwrap_err().to_string();
        assert!(error.contains("bad.epd"), "{error}");
    }

    #[test]
    fn no_book_means_the_start_position() {
        let mut sequence = Book::start_position().sequence(3);
        let (opening, skipped) = sequence.next_opening().unwrap();
        assert!(opening.is_start_position() && skipped.is_empty());
        assert_eq!(opening.line, 0);
    }
}
