//! EPD reading: every line of the shared test suites, operation syntax
//! (quotes, missing `;`, clocks), move lists, and per-line error reporting.

use std::path::{Path, PathBuf};

use prunelab::cozy_chess::{Board, Move};
use prunelab::epd::{parse_epd_line, read_epd_file, EpdFile};

use crate::common;

fn suite(name: &str) -> EpdFile {
    let path = common::data_path(&format!("suites/{name}"));
    let file = read_epd_file(&path).unwrap_or_else(|error| panic!("cannot read {}: {error:#}", path.display()));
    assert!(file.errors.is_empty(), "{name}: {:?}", file.errors);
    file
}

fn uci(text: &str) -> Move {
    text.parse().unwrap()
}

fn assert_unique_ids(file: &EpdFile, name: &str) {
    let mut ids: Vec<&str> =
        file.records.iter().map(|r| r.id.as_deref().expect("every suite line has an id")).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), file.records.len(), "{name}: duplicate ids");
}

#[test]
fn win_at_chess_reads_completely() {
    let wac = suite("wac.epd");
    assert_eq!(wac.records.len(), 300);
    assert_unique_ids(&wac, "wac.epd");
    assert!(wac.records.iter().all(|r| !r.best_moves.is_empty() && r.avoid_moves.is_empty()));

    let first = &wac.records[0];
    assert_eq!(first.id.as_deref(), Some("WAC.001"));
    assert_eq!(first.best_moves, vec![uci("g3g6")]);
    assert_eq!(first.fen, "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
    assert_eq!(first.ops, vec![("bm".to_string(), "Qg6".to_string()), ("id".to_string(), "WAC.001".to_string())]);

    // Several moves, with check suffixes.
    let wac031 = wac.records.iter().find(|r| r.id.as_deref() == Some("WAC.031")).unwrap();
    assert_eq!(wac031.best_moves.len(), 4);
    let wac004 = wac.records.iter().find(|r| r.id.as_deref() == Some("WAC.004")).unwrap();
    assert_eq!(wac004.best_moves, vec![uci("h6h7")]);
}

#[test]
fn arasan_reads_completely() {
    let arasan = suite("arasan21.epd");
    assert_eq!(arasan.records.len(), 200);
    assert_unique_ids(&arasan, "arasan21.epd");
    assert!(arasan.records.iter().all(|r| !r.best_moves.is_empty()));
    // Comments keep their non-ASCII names.
    let record = arasan.records.iter().find(|r| r.id.as_deref() == Some("arasan21.56")).unwrap();
    assert!(record.op("c0").unwrap().contains("Santamaría"));
    let two_moves = arasan.records.iter().find(|r| r.id.as_deref() == Some("arasan21.17")).unwrap();
    assert_eq!(two_moves.best_moves.len(), 2);
}

#[test]
fn zugzwang_suite_reads_completely() {
    let zugts = suite("zugts.epd");
    assert_eq!(zugts.records.len(), 30);
    assert_unique_ids(&zugts, "zugts.epd");
    assert!(zugts.records.iter().all(|r| !r.best_moves.is_empty()));
    // The free text after the last `;` becomes a final operation.
    let first = &zugts.records[0];
    assert_eq!(first.id.as_deref(), Some("ZPTS.01"));
    assert_eq!(first.op("CCC"), Some("post 27.4.2004 by Gerd Isenberg"));
    assert!(first.trailing_text.is_none());
    // Free text that cannot be an operation is kept apart.
    let twenty_nine = zugts.records.iter().find(|r| r.id.as_deref() == Some("ZPTS.29")).unwrap();
    assert_eq!(twenty_nine.trailing_text.as_deref(), Some("1 Kb2! Kg8 2 Ka1!!, draw"));
    assert_eq!(twenty_nine.best_moves, vec![uci("c3b2")]);
    let thirteen = zugts.records.iter().find(|r| r.id.as_deref() == Some("ZPTS.13")).unwrap();
    assert_eq!(thirteen.best_moves.len(), 5);
}

#[test]
fn seeds_read_completely() {
    let seeds = suite("seeds.epd");
    assert_eq!(seeds.records.len(), 10);
    assert_unique_ids(&seeds, "seeds.epd");
    assert!(seeds.records.iter().all(|r| r.best_moves.is_empty() && r.avoid_moves.is_empty()));
    let startpos = &seeds.records[0];
    assert_eq!(startpos.id.as_deref(), Some("seeds.startpos"));
    assert_eq!(startpos.board, Board::default());
    // An `am` inside a quoted comment is not an operation.
    let italian = seeds.records.iter().find(|r| r.id.as_deref() == Some("seeds.italian")).unwrap();
    assert!(italian.avoid_moves.is_empty());
    assert!(italian.op("c0").unwrap().contains("am Nf6"));
}

#[test]
fn best_and_avoid_moves_in_san() {
    let record = parse_epd_line("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - bm O-O Ra8+; am O-O-O Kd1; id \"castles\";").unwrap();
    assert_eq!(record.best_moves, vec![uci("e1h1"), uci("a1a8")]);
    assert_eq!(record.avoid_moves, vec![uci("e1a1"), uci("e1d1")]);
    assert_eq!(record.id.as_deref(), Some("castles"));
    assert!(record.warnings.is_empty());
}

#[test]
fn quoted_operands_may_hold_semicolons() {
    let record = parse_epd_line("4k3/8/8/8/8/8/8/4K3 w - - c0 \"one; two\"; id \"x;y\";").unwrap();
    assert_eq!(record.op("c0"), Some("one; two"));
    assert_eq!(record.id.as_deref(), Some("x;y"));
}

#[test]
fn clocks_after_the_position_or_as_operations() {
    let with_clocks = parse_epd_line("4k3/8/8/8/8/8/8/4K3 w - - 12 40 id \"clocks\";").unwrap();
    assert_eq!(with_clocks.fen, "4k3/8/8/8/8/8/8/4K3 w - - 12 40");
    assert_eq!(with_clocks.id.as_deref(), Some("clocks"));
    let with_ops = parse_epd_line("4k3/8/8/8/8/8/8/4K3 b - - hmvc 7; fmvn 33;").unwrap();
    assert_eq!(with_ops.fen, "4k3/8/8/8/8/8/8/4K3 b - - 7 33");
    let bare = parse_epd_line("4k3/8/8/8/8/8/8/4K3 w - -").unwrap();
    assert_eq!(bare.fen, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(bare.ops.is_empty() && bare.id.is_none());
}

#[test]
fn repairs_are_reported_as_warnings() {
    let record = parse_epd_line("4k3/8/8/8/8/8/8/4K3 w KQ - id \"no rooks\";").unwrap();
    assert_eq!(record.warnings.len(), 2);
    assert_eq!(record.fen, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

#[test]
fn broken_lines_are_errors_that_say_why() {
    for (line, words) in [
        ("", "empty"),
        ("4k3/8/8/8/8/8/8/4K3 w -", "3 position fields"),
        ("8/8/8/8/8/8/8/8 w - - id \"empty\";", "empty"),
        ("4k3/8/8/8/8/8/8/4K3 w - - bm Qxh7;", "bm move 'Qxh7'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4 Nf6;", "bm move 'Nf6'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - am e9;", "am move 'e9'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm;", "bm operation has no move"),
        ("4k3/8/8/8/8/8/8/4K3 w - - c0 \"unterminated;", "unterminated"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 1bad operand;", "bad opcode '1bad'"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 1bad operand; id \"x\";", "bad opcode '1bad'"),
        ("4k3/8/8/8/8/8/8/4K3 w - - id \"a\"; \"quoted\" opcode;", "bad opcode"),
    ] {
        let error = parse_epd_line(line).expect_err(line);
        assert!(error.contains(words), "{line:?}: {error}");
    }
}

/// A file in the system temp folder, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, contents: &str) -> Self {
        let path = std::env::temp_dir().join(format!("prunelab-{}-{name}", std::process::id()));
        std::fs::write(&path, contents).unwrap();
        TempFile(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn file_reader_skips_and_reports_broken_lines() {
    let contents = "\
# a comment line
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id \"good.1\";

8/8/8/8/8/8/8/8 w - - id \"empty board\";
   # an indented comment
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm Qh5; id \"bad bm\";
4k3/8/8/8/8/8/8/4K2R w K - bm O-O; id \"good.2\"
";
    let file = TempFile::new("mixed.epd", contents);
    let read = read_epd_file(&file.0).unwrap();
    let ids: Vec<_> = read.records.iter().map(|r| r.id.as_deref().unwrap()).collect();
    assert_eq!(ids, ["good.1", "good.2"]);
    let error_lines: Vec<usize> = read.errors.iter().map(|(line, _)| *line).collect();
    assert_eq!(error_lines, [4, 6]);
    assert!(read.errors[0].1.contains("empty"), "{:?}", read.errors);
    assert!(read.errors[1].1.contains("Qh5"), "{:?}", read.errors);
}

#[test]
fn missing_file_is_an_error() {
    let error = read_epd_file(Path::new("/nonexistent/prunelab/suite.epd")).unwrap_err();
    assert!(format!("{error:#}").contains("/nonexistent/prunelab/suite.epd"));
}

#[test]
fn garbage_lines_never_panic() {
    let good = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - bm O-O; id \"x\"; c0 \"a;b\";";
    for end in 0..=good.len() {
        let _ = parse_epd_line(&good[..end]);
    }
    for index in 0..good.len() {
        for replacement in [';', '"', ' ', 'x', '0'] {
            let mut corrupted = good.as_bytes().to_vec();
            corrupted[index] = replacement as u8;
            let _ = parse_epd_line(&String::from_utf8(corrupted).unwrap());
        }
    }
    for line in ["\"", ";", ";;;;", "\"\"\"", "💥 💥 💥 💥 💥", "a b c d e f g h", "- - - - bm"] {
        assert!(parse_epd_line(line).is_err(), "{line:?}");
    }
}
