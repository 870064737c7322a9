//! Opening books: one position per line, as EPD or FEN (the four position
//! fields are enough; clocks and EPD operations after them are allowed).
//!
//! The file is read once and only split into lines; a line is parsed when a
//! game needs it, so a 242k-line book costs one read, not 242k parses. A line
//! that is not a legal position is skipped and reported with its line number.
//! The order is a shuffle of the lines fixed by the seed: pair `k` of a run
//! always gets the same opening, which is what lets `--resume` continue with
//! the next ones.
//!
//! Without `--book`, a match plays the data folder's UHO_4060_v2: the full
//! book where the folder has it (`$PRUNELAB_DATA`), else the repository's
//! fixed sample of 4000 of its positions (`data/books/`, drawn by `lab
//! sample-book`). No book is an error: a match from one opening measures
//! almost nothing.

use std::collections::HashSet;
use std::ops::Range;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use cozy_chess::Board;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::session::Session;
use crate::wording::plural;

/// A game's starting position.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The book line it came from (1-based).
    pub line: u32,
    /// A full 6-field FEN.
    pub fen: String,
    pub board: Board,
}

impl Opening {
    pub fn is_start_position(&self) -> bool {
        self.board == Board::default()
    }

    /// The UCI `position` command that sets it up.
    pub fn position_command(&self) -> String {
        if self.is_start_position() {
            "position startpos".to_string()
        } else {
            format!("position fen {}", self.fen)
        }
    }
}

/// A line of the book that is not a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkippedLine {
    pub line: u32,
    pub error: String,
}

/// The candidate lines of a book file.
pub struct Book {
    /// The file's path.
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

    /// How many candidate lines it has.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Parses candidate `index` (below `len()`).
    fn opening(&self, index: usize) -> Result<Opening, SkippedLine> {
        let (line, range) = &self.lines[index];
        let text = self.text[range.clone()].trim();
        match prunelab::epd::parse_epd_line(text) {
            Ok(record) => Ok(Opening { line: *line, fen: record.fen, board: record.board }),
            Err(error) => Err(SkippedLine { line: *line, error }),
        }
    }

    /// The readable positions in the file's order (lines that are not
    /// positions are passed over).
    pub fn boards(&self) -> impl Iterator<Item = Board> + '_ {
        (0..self.len()).filter_map(|index| self.opening(index).ok().map(|opening| opening.board))
    }

    /// The openings in the order `seed` fixes, cycling through the book.
    pub fn sequence(self, seed: u64) -> OpeningSequence {
        let mut order: Vec<u32> = (0..self.len() as u32).collect();
        order.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
        OpeningSequence { book: self, order, cursor: 0, broken: HashSet::new() }
    }
}

/// The book a match plays, and a line saying which it is: `given` (a path
/// on the command line), else the data folder's default.
pub fn open(session: &Session, given: Option<&Path>) -> Result<(Book, String)> {
    let book = Book::read(&locate(session, given)?)?;
    let default = if given.is_none() { "; the default" } else { "" };
    let note = format!("book: {} ({}{default})", book.source, plural(book.len() as u64, "line", "lines"));
    Ok((book, note))
}

/// Fails now, before any engine is built, if the book a match would play
/// cannot be opened.
pub fn check(session: &Session, given: Option<&Path>) -> Result<()> {
    let path = locate(session, given)?;
    std::fs::File::open(&path).with_context(|| {
        format!("cannot read the opening book {} (give --book a readable EPD or FEN file)", path.display())
    })?;
    Ok(())
}

/// The path of `given`, else of the data folder's default book.
pub fn locate(session: &Session, given: Option<&Path>) -> Result<PathBuf> {
    match given {
        Some(path) => Ok(session.resolve(path)),
        None => default_book(&prunelab::data::folder(&session.root)?),
    }
}

/// A position's identity: placement, side to move, castling and en passant
/// (the move counters do not change the search).
pub fn position_key(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

/// The default book in `folder`: the full UHO_4060_v2 where the folder has
/// it, else its sample.
fn default_book(folder: &Path) -> Result<PathBuf> {
    use prunelab::data::{BOOK_FULL, BOOK_SAMPLE};
    for file in [BOOK_FULL, BOOK_SAMPLE] {
        let path = folder.join(file);
        if path.is_file() {
            return Ok(path);
        }
    }
    bail!(
        "no opening book: {} and {} do not exist; give --book FILE (EPD or FEN, a position a line), or restore the \
         repository's sample (`git checkout -- data/{BOOK_SAMPLE}`)",
        folder.join(BOOK_FULL).display(),
        folder.join(BOOK_SAMPLE).display()
    )
}

/// `lab sample-book`'s arguments.
#[derive(clap::Args, Debug)]
pub struct SampleBookArgs {
    /// The book to draw from (EPD or FEN lines).
    pub source: PathBuf,
    /// How many distinct positions to draw.
    #[arg(long, default_value_t = 4000, value_name = "N")]
    pub positions: usize,
    /// Fixes the draw: the same source, count and seed give the same sample.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The file to write (the sample's lines in the source's order).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// `lab sample-book`: a fixed, seeded sample of a book, small enough to
/// version (how `data/books/UHO_4060_v2-4000.epd` was drawn).
pub fn sample_command(session: &Session, args: &SampleBookArgs) -> Result<()> {
    let book = Book::read(&session.resolve(&args.source))?;
    let lines = book.sample(args.positions, args.seed)?;
    let out = session.resolve(&args.out);
    std::fs::write(&out, lines.join("\n") + "\n").with_context(|| format!("cannot write {}", out.display()))?;
    session.say(&format!(
        "{}: {} of the {} lines of {} (seed {})",
        out.display(),
        lines.len(),
        book.len(),
        book.source,
        args.seed
    ));
    Ok(())
}

impl Book {
    /// `count` lines drawn without replacement, each a readable position
    /// and no two the same position (placement, side, castling, en
    /// passant), in the book's order: the first `count` of the readable
    /// distinct lines shuffled by ChaCha8 from `seed`.
    pub fn sample(&self, count: usize, seed: u64) -> Result<Vec<&str>> {
        let mut seen = HashSet::new();
        let mut candidates = Vec::new();
        for (index, (_, range)) in self.lines.iter().enumerate() {
            if let Ok(opening) = self.opening(index) {
                if seen.insert(position_key(&opening.fen)) {
                    candidates.push(range.clone());
                }
            }
        }
        if candidates.len() < count {
            bail!(
                "{} holds {} distinct readable positions, fewer than the {count} asked",
                self.source,
                candidates.len()
            );
        }
        candidates.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
        candidates.truncate(count);
        candidates.sort_by_key(|range| range.start);
        Ok(candidates.into_iter().map(|range| self.text[range].trim()).collect())
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
    fn a_sample_is_fixed_by_its_seed_distinct_and_in_the_books_order() {
        // Nine lines: seven distinct readable positions (line 4 repeats line 3
        // with other clocks), a comment and a broken line.
        let text = "\
# comment
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -
rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -
rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1
not a position
rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq -
rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq -
rnbqkbnr/pppppppp/8/8/6P1/8/PPPPPP1P/RNBQKBNR b KQkq -
rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/R1BQKBNR b KQkq -
rnbqkbnr/pppppppp/8/8/1P6/8/P1PPPPPP/RNBQKBNR b KQkq -
";
        let book = Book::from_text("nine.epd", text.to_string());
        let all = book.sample(7, 5).unwrap();
        assert_eq!(all.len(), 7);
        assert!(!all.iter().any(|line| line.ends_with(" 0 1")), "the repeated position is drawn once: {all:?}");
        assert!(book.sample(8, 5).unwrap_err().to_string().contains("7 distinct readable positions, fewer than the 8"));
        let three = book.sample(3, 5).unwrap();
        assert_eq!(three, book.sample(3, 5).unwrap(), "the seed fixes the sample");
        let order: Vec<usize> = three.iter().map(|line| all.iter().position(|kept| kept == line).unwrap()).collect();
        assert!(order.windows(2).all(|pair| pair[0] < pair[1]), "in the book's order: {three:?}");
        assert!((0..20).any(|seed| book.sample(3, seed).unwrap() != three), "other seeds, other samples");
    }

    #[test]
    fn the_default_book_is_the_full_one_where_the_folder_has_it_else_the_sample() {
        let folder = std::env::temp_dir().join(format!("prunelab-books-{}", std::process::id()));
        let books = folder.join("books");
        std::fs::create_dir_all(&books).unwrap();
        let error = default_book(&folder).unwrap_err().to_string();
        assert!(error.contains(&folder.join("books/UHO_4060_v2-4000.epd").display().to_string()), "{error}");
        assert!(error.contains("give --book FILE"), "{error}");
        std::fs::write(books.join("UHO_4060_v2-4000.epd"), BOOK).unwrap();
        assert_eq!(default_book(&folder).unwrap(), books.join("UHO_4060_v2-4000.epd"));
        std::fs::write(books.join("UHO_4060_v2.epd"), BOOK).unwrap();
        assert_eq!(default_book(&folder).unwrap(), books.join("UHO_4060_v2.epd"));
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn the_repository_carries_its_default_book() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let path = default_book(&root.join(prunelab::data::DIR)).unwrap();
        assert!(path.ends_with(prunelab::data::BOOK_SAMPLE));
        let book = Book::read(&path).unwrap();
        assert_eq!(book.len(), 4000);
        // Drawing all 4000 succeeds only when every line is a readable
        // position and no position is there twice.
        let every_line: Vec<&str> = book.text.lines().collect();
        assert_eq!(book.sample(4000, 1).unwrap(), every_line);
    }
}
