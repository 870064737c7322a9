//! Every parser of outside input, fed like a fuzzer: FENs, UCI command lines
//! (and whole UCI sessions through the loop), EPD lines and files, and
//! variant files. Each must answer with a value or an error saying why, and
//! never panic or hang.
//!
//! Each parser gets `RANDOM_CASES` random strings over its format's alphabet
//! (both token soup and input shaped like the format, so validation is
//! reached past the first field) and `MUTATED_CASES` mutations of valid
//! inputs: bit flips, byte changes, inserted tokens, deletions, duplicated
//! and spliced fragments, truncation. The valid inputs are the repository's
//! perft file, suites and opening book sample (`data/`), valid UCI lines,
//! and `variants/*.toml`.
//!
//! Runs are deterministic: the seed is fixed unless `PRUNELAB_FUZZ_SEED`
//! names another, and `PRUNELAB_FUZZ_SCALE` multiplies every case count for
//! longer local runs. Nothing is written to `proptest-regressions/`: a
//! failure prints the shrunk input, which then belongs in a regression test.

use std::io::{BufRead, BufReader, Cursor, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, Index};
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use prunelab::cozy_chess::{Board, Move};
use prunelab::data;
use prunelab::epd::{parse_epd_line, read_epd_file};
use prunelab::position::{legal_moves, move_to_uci, parse_fen, Position};
use prunelab::time::GoParams;
use prunelab::uci::{run, Command, OptionSetting};
use prunelab::variants::{parse_table, resolve, Value};

use crate::common;

const VARIANTS_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/variants");

/// Random inputs per parser per run.
const RANDOM_CASES: u32 = 100_000;
/// Mutated valid inputs per parser per run.
const MUTATED_CASES: u32 = 150_000;
/// Whole sessions through the UCI loop; each may run a few depth-1 searches.
const SESSION_CASES: u32 = 2_000;
/// Broken EPD files through the file reader; each is a file on disk.
const EPD_FILE_CASES: u32 = 2_000;
/// Positions taken from the head of the opening book sample.
const BOOK_LINES: usize = 200;
/// The most edits one mutation makes.
const MAX_EDITS: usize = 6;
/// The longest fragment one edit deletes, duplicates or splices.
const MAX_FRAGMENT: u8 = 64;
/// A parser that finishes no input for this long is taken to hang.
const HANG_LIMIT: Duration = Duration::from_secs(20);
/// The `Hash` a session may set: the fuzzer checks the loop, not the allocator.
const SESSION_MAX_HASH_MB: u64 = 16;
const DEFAULT_SEED: u64 = 0x7072_756e_656c_6162;

fn seed() -> u64 {
    match std::env::var("PRUNELAB_FUZZ_SEED") {
        Ok(text) => text.trim().parse().unwrap_or_else(|_| panic!("PRUNELAB_FUZZ_SEED '{text}' is not a u64")),
        Err(_) => DEFAULT_SEED,
    }
}

fn scale() -> u32 {
    match std::env::var("PRUNELAB_FUZZ_SCALE") {
        Ok(text) => {
            text.trim().parse().unwrap_or_else(|_| panic!("PRUNELAB_FUZZ_SCALE '{text}' is not a whole number"))
        }
        Err(_) => 1,
    }
}

/// The proptest configuration of one target: its own fixed seed, no
/// regression files, and shrinking bounded so a failing run still ends.
fn config(target: &str, cases: u32) -> Config {
    // FNV-1a of the name: each target draws its own inputs from the one seed.
    let target_hash = target
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3));
    Config {
        cases: cases.saturating_mul(scale()),
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(seed() ^ target_hash),
        max_shrink_time: 60_000,
        ..Config::default()
    }
}

/// Runs `property` on `cases` inputs drawn from `inputs()` on a thread of
/// its own, so that a hang fails the test with the input it is stuck on
/// instead of hanging it.
fn fuzz<S, P>(target: &'static str, cases: u32, inputs: impl FnOnce() -> S + Send + 'static, property: P)
where
    S: Strategy,
    S::Value: Clone + Send + 'static,
    P: Fn(&S::Value) -> Result<(), TestCaseError> + Send + 'static,
{
    let finished = Arc::new(AtomicU64::new(0));
    let current: Arc<Mutex<Option<S::Value>>> = Arc::new(Mutex::new(None));
    let (report, outcome) = mpsc::channel();
    let worker = {
        let (finished, current) = (Arc::clone(&finished), Arc::clone(&current));
        move || {
            let mut runner = TestRunner::new(config(target, cases));
            let result = runner.run(&inputs(), |input| {
                *current.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(input.clone());
                let verdict = property(&input);
                finished.fetch_add(1, Ordering::Relaxed);
                verdict
            });
            let _ = report.send(result.map_err(|failure| failure.to_string()));
        }
    };
    let thread = thread::Builder::new().name(target.to_string()).spawn(worker).expect("start the fuzzing thread");

    let (mut seen, mut since) = (0, Instant::now());
    loop {
        match outcome.recv_timeout(Duration::from_millis(200)) {
            Ok(Ok(())) => {
                let ran = finished.load(Ordering::Relaxed);
                let wanted = u64::from(cases.saturating_mul(scale()));
                assert!(ran >= wanted, "{target}: only {ran} of {wanted} inputs ran");
                eprintln!("{target}: {ran} inputs");
                return;
            }
            Ok(Err(failure)) => panic!("{target} (seed {}): {failure}", seed()),
            // The thread panicked outside a test case (building the
            // inputs: an unreadable corpus file, say): its own message.
            Err(RecvTimeoutError::Disconnected) => match thread.join() {
                Err(payload) => panic!("{target}: {}", panic_message(payload.as_ref())),
                Ok(()) => panic!("{target}: the fuzzing thread ended without a result"),
            },
            Err(RecvTimeoutError::Timeout) => {
                let now = finished.load(Ordering::Relaxed);
                if now != seen {
                    (seen, since) = (now, Instant::now());
                } else if since.elapsed() > HANG_LIMIT {
                    let stuck = current.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone();
                    panic!("{target}: no input finished for {HANG_LIMIT:?} after {seen}; stuck on {stuck:?}");
                }
            }
        }
    }
}

/// What a panic said: its message, when it is text.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    match (payload.downcast_ref::<&str>(), payload.downcast_ref::<String>()) {
        (Some(text), _) => text.to_string(),
        (_, Some(text)) => text.clone(),
        _ => "a panic without a message".to_string(),
    }
}

#[test]
fn a_failure_outside_a_test_case_is_reported_with_its_message() {
    let outcome = thread::spawn(|| {
        fuzz("broken-corpus", 1, || -> proptest::strategy::Just<u8> { panic!("cannot open corpus.epd") }, |_| Ok(()))
    })
    .join();
    let message = panic_message(outcome.expect_err("the harness fails").as_ref());
    assert_eq!(message, "broken-corpus: cannot open corpus.epd");
}

// ---------------------------------------------------------------- mutation

/// One change a mutation makes; positions are taken modulo the length.
#[derive(Clone, Debug)]
enum Edit {
    FlipBit {
        at: Index,
        bit: u8,
    },
    SetByte {
        at: Index,
        byte: u8,
    },
    InsertToken {
        at: Index,
        token: Index,
    },
    Delete {
        at: Index,
        len: u8,
    },
    Duplicate {
        from: Index,
        len: u8,
        to: Index,
    },
    /// A fragment of another corpus input.
    Splice {
        donor: Index,
        from: Index,
        len: u8,
        to: Index,
    },
    Truncate {
        at: Index,
    },
}

fn edit() -> impl Strategy<Value = Edit> {
    let len = 1..=MAX_FRAGMENT;
    prop_oneof![
        1 => (any::<Index>(), 0..8u8).prop_map(|(at, bit)| Edit::FlipBit { at, bit }),
        1 => (any::<Index>(), any::<u8>()).prop_map(|(at, byte)| Edit::SetByte { at, byte }),
        2 => (any::<Index>(), any::<Index>()).prop_map(|(at, token)| Edit::InsertToken { at, token }),
        1 => (any::<Index>(), len.clone()).prop_map(|(at, len)| Edit::Delete { at, len }),
        1 => (any::<Index>(), len.clone(), any::<Index>())
            .prop_map(|(from, len, to)| Edit::Duplicate { from, len, to }),
        1 => (any::<Index>(), any::<Index>(), len, any::<Index>())
            .prop_map(|(donor, from, len, to)| Edit::Splice { donor, from, len, to }),
        1 => any::<Index>().prop_map(|at| Edit::Truncate { at }),
    ]
}

/// Up to `len` bytes of `bytes` from a position `from` picks.
fn fragment(bytes: &[u8], from: &Index, len: u8) -> Vec<u8> {
    if bytes.is_empty() {
        return Vec::new();
    }
    let start = from.index(bytes.len());
    bytes[start..bytes.len().min(start + len as usize)].to_vec()
}

/// `base` changed by each edit in turn; `corpus` gives spliced fragments,
/// `tokens` inserted ones.
fn mutate(base: &str, edits: &[Edit], corpus: &[String], tokens: &[&str]) -> Vec<u8> {
    let mut bytes = base.as_bytes().to_vec();
    for edit in edits {
        // Insertion points run from 0 to the length, inclusive.
        let gap = |at: &Index, bytes: &Vec<u8>| at.index(bytes.len() + 1);
        match edit {
            Edit::FlipBit { at, bit } if !bytes.is_empty() => {
                let at = at.index(bytes.len());
                bytes[at] ^= 1 << bit;
            }
            Edit::SetByte { at, byte } if !bytes.is_empty() => {
                let at = at.index(bytes.len());
                bytes[at] = *byte;
            }
            Edit::InsertToken { at, token } => {
                let at = gap(at, &bytes);
                bytes.splice(at..at, tokens[token.index(tokens.len())].bytes());
            }
            Edit::Delete { at, len } if !bytes.is_empty() => {
                let at = at.index(bytes.len());
                bytes.drain(at..bytes.len().min(at + *len as usize));
            }
            Edit::Duplicate { from, len, to } => {
                let piece = fragment(&bytes, from, *len);
                let to = gap(to, &bytes);
                bytes.splice(to..to, piece);
            }
            Edit::Splice { donor, from, len, to } => {
                let piece = fragment(corpus[donor.index(corpus.len())].as_bytes(), from, *len);
                let to = gap(to, &bytes);
                bytes.splice(to..to, piece);
            }
            Edit::Truncate { at } => bytes.truncate(gap(at, &bytes)),
            _ => {}
        }
    }
    bytes
}

/// Mutations of the inputs of `corpus`, as raw bytes (invalid UTF-8 included).
fn mutated_bytes(corpus: Vec<String>, tokens: &'static [&'static str]) -> impl Strategy<Value = Vec<u8>> {
    assert!(!corpus.is_empty(), "an empty corpus");
    let corpus = Arc::new(corpus);
    (any::<Index>(), vec(edit(), 1..=MAX_EDITS))
        .prop_map(move |(base, edits)| mutate(&corpus[base.index(corpus.len())], &edits, &corpus, tokens))
}

/// Mutations as text: invalid UTF-8 becomes replacement characters, as the
/// UCI loop and the EPD reader read it.
fn mutated(corpus: Vec<String>, tokens: &'static [&'static str]) -> impl Strategy<Value = String> {
    mutated_bytes(corpus, tokens).prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

/// Tokens drawn from `tokens`, `count` of them, run together.
fn soup(tokens: &'static [&'static str], count: std::ops::Range<usize>) -> impl Strategy<Value = String> {
    vec(select(tokens), count).prop_map(|parts| parts.concat())
}

// ---------------------------------------------------------------- corpora

/// The lines of a data file that carry a position.
fn data_lines(relative: &str, limit: usize) -> Vec<String> {
    let path = common::data_path(relative);
    let file = std::fs::File::open(&path).unwrap_or_else(|error| panic!("cannot open {}: {error}", path.display()));
    BufReader::new(file)
        .lines()
        .map(|line| line.unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display())))
        .map(|line| line.trim().to_string())
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .take(limit)
        .collect()
}

const SUITES: [&str; 4] = [data::WAC, data::ARASAN, data::ZUGZWANG, data::SEEDS];

/// Every EPD line of the suites and of the perft file (`;D1 20` operations).
fn epd_corpus() -> Vec<String> {
    SUITES.iter().chain(&[data::PERFT]).flat_map(|file| data_lines(file, usize::MAX)).collect()
}

/// The perft file's 6-field FENs, the suites' and the book's 4-field positions.
fn fen_corpus() -> Vec<String> {
    let first_fields = |line: String| line.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
    let perft = data_lines(data::PERFT, usize::MAX)
        .into_iter()
        .map(|line| line.split(';').next().unwrap_or_default().trim().to_string());
    let suites = SUITES.iter().flat_map(|file| data_lines(file, usize::MAX)).map(first_fields);
    let book = data_lines(data::BOOK_SAMPLE, BOOK_LINES)
        .into_iter()
        .map(|line| line.split(';').next().unwrap_or_default().trim().to_string());
    perft.chain(suites).chain(book).collect()
}

const UCI_LINES: &[&str] = &[
    "uci",
    "isready",
    "debug on",
    "debug off",
    "ucinewgame",
    "stop",
    "quit",
    "d",
    "eval",
    "setoption name Hash value 32",
    "setoption name hash value 1",
    "setoption name Threads value 1",
    "setoption name Move Overhead value 30",
    "setoption name SearchStats value true",
    "setoption name SearchStats value FALSE",
    "position startpos",
    "position startpos moves",
    "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1",
    "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1",
    "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1c1 e8g8",
    "position fen 8/P7/8/8/8/8/8/k6K w - - 0 1 moves a7a8q",
    "position fen 8/P7/8/8/8/8/8/k6K w - - 0 1 moves a7a8N",
    "position fen rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3 moves e5f6",
    "go depth 5",
    "go nodes 10000",
    "go movetime 100",
    "go wtime 60000 btime 60000 winc 1000 binc 1000 movestogo 40",
    "go wtime -5 btime 300",
    "go infinite",
    "go depth 3 nodes 500",
];

/// Valid UCI lines: the list above, and `position fen` with every corpus
/// FEN, alone and with its first two legal moves.
fn uci_corpus() -> Vec<String> {
    let mut lines: Vec<String> = UCI_LINES.iter().map(|line| line.to_string()).collect();
    for fen in fen_corpus() {
        let mut board: Board = match parse_fen(&fen) {
            Ok((board, _)) => board,
            Err(error) => panic!("corpus FEN '{fen}' is refused: {error}"),
        };
        let mut moves = Vec::new();
        for _ in 0..2 {
            let Some(&mv) = legal_moves(&board).first() else { break };
            moves.push(move_to_uci(&board, mv));
            board.play(mv);
        }
        lines.push(format!("position fen {fen}"));
        lines.push(format!("position fen {fen} moves {}", moves.join(" ")));
    }
    lines
}

/// The text of every `variants/*.toml`.
fn variant_corpus() -> Vec<String> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(VARIANTS_DIR)
        .expect("read variants/")
        .map(|entry| entry.expect("read variants/").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    paths.sort();
    paths.iter().map(|path| std::fs::read_to_string(path).expect("read a variant file")).collect()
}

// ---------------------------------------------------------------- FEN

#[rustfmt::skip]
const FEN_TOKENS: &[&str] = &[
    "p", "n", "b", "r", "q", "k", "P", "N", "B", "R", "Q", "K", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
    "/", "/", " ", " ", "  ", "\t", "w", "b", "-", "KQkq", "e3", "e6", "a3", "h6", "x", "100", "101", "65535",
    "65536", "18446744073709551616", "-1", "+1", "\u{e9}", "\u{2654}", "\0",
];

/// The pieces a random board square may hold (kings are placed apart, so
/// most boards have one each); a draw past the end leaves the square empty.
const SQUARE_CONTENTS: &[u8] = b"PNBRQpnbrq";
const CASTLINGS: &[&str] =
    &["-", "-", "KQkq", "KQkq", "K", "Q", "k", "q", "Kq", "KQ", "kq", "KK", "KQkqK", "x", "KQ-", "A"];
const EN_PASSANTS: &[&str] = &["-", "-", "-", "e3", "e6", "a3", "h6", "d6", "c3", "f6", "e4", "i3", "e0", "e", "-3"];
#[rustfmt::skip]
const CLOCKS: &[&str] = &[
    "0", "0", "1", "1", "50", "99", "100", "101", "255", "256", "65535", "65536", "18446744073709551615",
    "18446744073709551616", "99999999999999999999999999", "-1", "+1", "1.5", "x",
];

/// A FEN whose placement is a real 8x8 board (random pieces, most often one
/// king each) and whose other fields are drawn from plausible and broken
/// values, so inputs get past the placement into the deeper checks.
fn fen_shaped() -> impl Strategy<Value = String> {
    let placement = (vec(0..80usize, 64), proptest::option::weighted(0.9, (0..64usize, 0..64usize)));
    let ep_square = prop_oneof![select(EN_PASSANTS).prop_map(str::to_string), "[a-h][1-8]"];
    let fields = (select(vec!["w", "w", "b", "b", "W", "x", ""]), select(CASTLINGS), ep_square);
    (placement, fields, select(CLOCKS), select(CLOCKS), 0..8u8).prop_map(
        |((squares, kings), (side, castling, en_passant), halfmove, fullmove, shape)| {
            let mut board: Vec<Option<u8>> =
                squares.iter().map(|&content| SQUARE_CONTENTS.get(content).copied()).collect();
            if let Some((white, black)) = kings {
                board[white] = Some(b'K');
                board[black] = Some(b'k');
            }
            let ranks: Vec<String> = board.chunks(8).map(rank_text).collect();
            let mut fields = vec![ranks.join("/"), side.to_string(), castling.to_string(), en_passant];
            // Mostly 6 fields; sometimes the 4 of an EPD, 5, or 7.
            match shape {
                0..=4 => fields.extend([halfmove.to_string(), fullmove.to_string()]),
                5 => {}
                6 => fields.push(halfmove.to_string()),
                _ => fields.extend([halfmove.to_string(), fullmove.to_string(), "0".to_string()]),
            }
            fields.join(" ")
        },
    )
}

/// One rank in FEN: pieces by letter, runs of empty squares as a digit.
fn rank_text(squares: &[Option<u8>]) -> String {
    let mut text = String::new();
    let mut empty = 0;
    for square in squares {
        match square {
            None => empty += 1,
            Some(letter) => {
                if empty > 0 {
                    text.push_str(&empty.to_string());
                    empty = 0;
                }
                text.push(*letter as char);
            }
        }
    }
    if empty > 0 {
        text.push_str(&empty.to_string());
    }
    text
}

fn random_fen() -> impl Strategy<Value = String> {
    prop_oneof![1 => soup(FEN_TOKENS, 0..80), 2 => fen_shaped()]
}

/// A FEN is refused with a message or read into a board whose own FEN reads
/// back the same, without repairs.
fn fen_holds(text: &str) -> Result<(), TestCaseError> {
    match Position::from_fen_with_warnings(text) {
        Ok((position, warnings)) => {
            prop_assert!(warnings.iter().all(|warning| !warning.is_empty()), "an empty warning");
            let fen = position.board().to_string();
            // No move gives check with three pieces at once.
            prop_assert!(position.board().checkers().len() <= 2, "accepted with three checkers: {}", fen);
            match parse_fen(&fen) {
                Ok((again, repairs)) => {
                    prop_assert_eq!(again.to_string(), fen.clone(), "the board's FEN reads back differently");
                    prop_assert!(repairs.is_empty(), "the board's own FEN {} needs repairs: {:?}", fen, repairs);
                }
                Err(error) => {
                    return Err(TestCaseError::fail(format!("the board's own FEN {fen} is refused: {error}")))
                }
            }
        }
        Err(message) => prop_assert!(!message.is_empty(), "an empty error"),
    }
    Ok(())
}

#[test]
fn fen_parser_survives_random_text() {
    fuzz("fen-random", RANDOM_CASES, random_fen, |text| fen_holds(text));
}

#[test]
fn fen_parser_survives_mutated_fens() {
    fuzz("fen-mutated", MUTATED_CASES, || mutated(fen_corpus(), FEN_TOKENS), |text| fen_holds(text));
}

// ---------------------------------------------------------------- UCI

#[rustfmt::skip]
const UCI_COMMANDS: &[&str] = &[
    "uci", "isready", "debug", "setoption", "ucinewgame", "position", "go", "stop", "quit", "d", "eval", "Go",
    "ponderhit", "register", "", "\u{2654}",
];
#[rustfmt::skip]
const UCI_TOKENS: &[&str] = &[
    "uci", "isready", "debug", "on", "off", "setoption", "name", "value", "Hash", "hash", "Threads", "Move",
    "Overhead", "SearchStats", "true", "false", "RazorMargin1", "ucinewgame", "position", "startpos", "fen",
    "moves", "go", "depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "infinite",
    "ponder", "searchmoves", "mate", "stop", "quit", "d", "eval", "e2e4", "e7e5", "e1g1", "e1h1", "e8c8", "a7a8q",
    "a7a8k", "e2e2", "e9e4", "0000", "0", "1", "-1", "5000", "5001", "65536", "65537", "99999999999999999999999",
    "-9223372036854775809", "KQkq", "-", "w", "b", "8/8/8/8/8/8/8/8", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "\t", "\r", "\u{e9}",
];
const OPTION_NAMES: &[&str] =
    &["Hash", "hash", "HASH", "Threads", "Move Overhead", "move  overhead", "SearchStats", "RazorMargin1", "Nope", ""];
const OPTION_VALUES: &[&str] = &[
    "1", "16", "0", "65536", "65537", "-1", "30", "5000", "5001", "true", "false", "TRUE", "maybe", "", "1 2", "value",
];
#[rustfmt::skip]
const GO_KEYWORDS: &[&str] = &[
    "depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "infinite", "ponder",
    "searchmoves", "mate", "depth depth", "",
];
#[rustfmt::skip]
const NUMBERS: &[&str] = &[
    "0", "1", "3", "64", "65", "100", "-1", "-100", "18446744073709551615", "18446744073709551616",
    "9223372036854775807", "9223372036854775808", "1e3", "x", "",
];

/// A move in UCI syntax over a slightly wider alphabet than squares.
fn uci_move() -> impl Strategy<Value = String> {
    "[a-i][0-9][a-h][1-9][qrbnkp]?"
}

/// `position startpos moves ...` with the moves of a random legal game, and
/// sometimes one more random move at the end.
fn random_game() -> impl Strategy<Value = String> {
    (vec(any::<Index>(), 0..60), proptest::option::of(uci_move())).prop_map(|(choices, last)| {
        let mut board = Board::default();
        let mut moves = Vec::new();
        for choice in choices {
            let legal = legal_moves(&board);
            if legal.is_empty() {
                break;
            }
            let mv: Move = legal[choice.index(legal.len())];
            moves.push(move_to_uci(&board, mv));
            board.play(mv);
        }
        moves.extend(last);
        format!("position startpos moves {}", moves.join(" "))
    })
}

fn random_uci_line() -> impl Strategy<Value = String> {
    let token_soup = vec(select(UCI_TOKENS), 0..16).prop_map(|words| words.join(" "));
    let command = (select(UCI_COMMANDS), vec(select(UCI_TOKENS), 0..6)).prop_map(|(name, args)| {
        let mut words = vec![name];
        words.extend(args);
        words.join(" ")
    });
    let position = (
        prop_oneof![Just("startpos".to_string()), fen_shaped().prop_map(|fen| format!("fen {fen}"))],
        proptest::option::of(vec(uci_move(), 0..8)),
    )
        .prop_map(|(setup, moves)| match moves {
            Some(moves) => format!("position {setup} moves {}", moves.join(" ")),
            None => format!("position {setup}"),
        });
    let go = vec((select(GO_KEYWORDS), select(NUMBERS)), 0..5).prop_map(|pairs| {
        let words: Vec<String> = pairs.iter().map(|(keyword, number)| format!("{keyword} {number}")).collect();
        format!("go {}", words.join(" "))
    });
    let setoption = (
        select(vec!["name", "name", "", "value", "Name"]),
        select(OPTION_NAMES),
        select(vec!["value", "value", "", "Value", "value value"]),
        select(OPTION_VALUES),
    )
        .prop_map(|(name, option, value, setting)| format!("setoption {name} {option} {value} {setting}"));
    prop_oneof![1 => token_soup, 1 => command, 2 => position, 1 => random_game(), 1 => go, 1 => setoption]
}

/// A line is blank (no command), a command, or refused with a message.
fn uci_line_holds(line: &str) -> Result<(), TestCaseError> {
    let blank = line.split_whitespace().next().is_none();
    match Command::parse(line) {
        Ok(None) => prop_assert!(blank, "a command line read as blank"),
        Ok(Some(command)) => {
            prop_assert!(!blank, "a blank line read as {:?}", command);
            if let Command::Position { position, .. } = command {
                let fen = position.board().to_string();
                prop_assert!(parse_fen(&fen).is_ok(), "the position's own FEN {} is refused", fen);
            }
        }
        Err(message) => prop_assert!(!message.is_empty(), "an empty error"),
    }
    Ok(())
}

#[test]
fn uci_parser_survives_random_lines() {
    fuzz("uci-random", RANDOM_CASES, random_uci_line, |line| uci_line_holds(line));
}

#[test]
fn uci_parser_survives_mutated_lines() {
    fuzz("uci-mutated", MUTATED_CASES, || mutated(uci_corpus(), UCI_TOKENS), |line| uci_line_holds(line));
}

/// A writer the session's output can be read back from.
#[derive(Clone, Default)]
struct SharedBuffer(Arc<Mutex<Vec<u8>>>);

impl Write for SharedBuffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The most a session's `go` may ask for, so 2000 sessions take seconds:
/// each bound keeps the parameter, with its real meaning, only smaller.
const SESSION_GO_BOUNDS: &[(&str, i128)] =
    &[("wtime", 30), ("btime", 30), ("winc", 3), ("binc", 3), ("movetime", 5), ("depth", 3), ("nodes", 3000)];

/// The lines a session sends for `line`: a `go` the loop would start keeps
/// its parameters (clocks, increments, `movestogo`, `movetime`, depth,
/// nodes, `infinite`), each number bounded by `SESSION_GO_BOUNDS`, and a
/// `go` that only `stop` ends (`infinite`, or no limit at all) is followed
/// by `stop`; large hash sizes become 1 MB.
fn bounded(line: &str) -> Vec<String> {
    match Command::parse(line) {
        Ok(Some(Command::Go { .. })) => {
            let mut words: Vec<String> = Vec::new();
            let mut limited = false;
            for word in line.split_whitespace() {
                let bound = words.last().and_then(|keyword| SESSION_GO_BOUNDS.iter().find(|(name, _)| name == keyword));
                match (bound, word.parse::<i128>()) {
                    (Some((_, most)), Ok(value)) => {
                        limited = true;
                        words.push(value.min(*most).to_string());
                    }
                    _ => words.push(word.to_string()),
                }
            }
            let go = words.join(" ");
            // What the engine reads of it: `depth 0`, `ponder` or a bound
            // left out as malformed leave only `stop` to end the search.
            let (params, _) = GoParams::parse(&words.iter().map(String::as_str).collect::<Vec<_>>());
            let bounded = params.depth.is_some()
                || params.nodes.is_some()
                || params.movetime_ms.is_some()
                || params.wtime_ms.is_some()
                || params.btime_ms.is_some();
            if params.waits_for_stop() || !limited || !bounded {
                vec![go, "stop".to_string()]
            } else {
                vec![go]
            }
        }
        Ok(Some(Command::SetOption(OptionSetting::HashMb(mb)))) if mb > SESSION_MAX_HASH_MB => {
            vec!["setoption name Hash value 1".to_string()]
        }
        _ => vec![line.to_string()],
    }
}

/// A script of valid, random and mutated lines, bounded, ending with `quit`.
fn session_script() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        2 => select(UCI_LINES).prop_map(str::to_string),
        1 => random_uci_line(),
        1 => mutated(uci_corpus(), UCI_TOKENS),
    ];
    vec(line, 1..12).prop_map(|lines| {
        // Bounded line by line as the loop will read them: a mutation may
        // have put a line break inside a generated line.
        let mut script: Vec<String> = lines.join("\n").split('\n').flat_map(bounded).collect();
        script.push("quit".to_string());
        script.join("\n") + "\n"
    })
}

/// What the loop answers `go` with while a search runs.
const GO_REFUSED: &str = "info string error: go: already searching; send stop first";

/// The loop answers every `isready` it reads before `quit`, every valid `go`
/// with one `bestmove` or, while a search runs, a refusal (any `go` line is
/// refused then, before it is read), and no search panics.
/// Every `bestmove` is legal in the position its `go` searched (`0000` only
/// where there is no legal move): the `bestmove`s, in order, are those of
/// the `go`s that were not refused, each searching the position the script
/// had set when it was sent.
fn session_holds(script: &str) -> Result<(), TestCaseError> {
    let output = SharedBuffer::default();
    run(Cursor::new(script.to_string()), output.clone());
    let bytes = output.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone();
    let text = String::from_utf8_lossy(&bytes);
    let read: Vec<&str> =
        script.split('\n').take_while(|line| line.split_whitespace().next() != Some("quit")).collect();
    let isready = read.iter().filter(|line| line.split_whitespace().next() == Some("isready")).count();
    // The position each `go` searches: the last one the script set.
    let mut position = Board::default();
    let mut searched = Vec::new();
    for line in &read {
        match Command::parse(line) {
            Ok(Some(Command::Position { position: set, .. })) => position = set.board().clone(),
            Ok(Some(Command::Go { .. })) => searched.push(position.clone()),
            _ => {}
        }
    }
    let readyok = text.lines().filter(|&line| line == "readyok").count();
    let refused = text.lines().filter(|&line| line == GO_REFUSED).count();
    let bestmoves: Vec<&str> = text.lines().filter(|line| line.starts_with("bestmove")).collect();
    prop_assert_eq!(readyok, isready, "isready went unanswered:\n{}", text);
    prop_assert!(!text.contains("the search panicked"), "a search panicked:\n{}", text);
    // A `go` sent during a search is refused before it is read, valid or not.
    let go_lines = read.iter().filter(|line| line.split_whitespace().next() == Some("go")).count();
    prop_assert!(refused <= go_lines, "more refusals than go lines:\n{}", text);
    prop_assert!(bestmoves.len() <= searched.len(), "more bestmoves than searches:\n{}", text);
    prop_assert!(bestmoves.len() + refused >= searched.len(), "a go without bestmove or refusal:\n{}", text);
    let mut next = 0;
    for line in bestmoves {
        let words: Vec<&str> = line.split_whitespace().collect();
        let well_formed =
            matches!(words.as_slice(), ["bestmove", mv] | ["bestmove", mv, "ponder", _] if (4..=5).contains(&mv.len()));
        prop_assert!(well_formed, "malformed '{}'", line);
        let legal_in = |board: &Board| match words[1] {
            "0000" => legal_moves(board).is_empty(),
            mv => legal_moves(board).iter().any(|&legal| move_to_uci(board, legal) == mv),
        };
        // The earliest `go` not yet answered whose position it fits.
        match searched[next..].iter().position(legal_in) {
            Some(offset) => next += offset + 1,
            None => return Err(TestCaseError::fail(format!("'{line}' is legal in no position searched:\n{text}"))),
        }
    }
    Ok(())
}

/// How many `go`s of each kind the sessions sent: clocks, `movetime`,
/// `infinite` (each followed by `stop`).
static SESSION_GOS: [AtomicU64; 3] = [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)];

#[test]
fn uci_loop_survives_random_sessions() {
    fuzz("uci-session", SESSION_CASES, session_script, |script| {
        for line in script.lines().filter(|line| matches!(Command::parse(line), Ok(Some(Command::Go { .. })))) {
            let words: Vec<&str> = line.split_whitespace().collect();
            for (kind, keywords) in
                [["wtime", "btime"], ["movetime", "movetime"], ["infinite", "infinite"]].iter().enumerate()
            {
                if words.iter().any(|word| keywords.contains(word)) {
                    SESSION_GOS[kind].fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        session_holds(script)
    });
    // The target reaches what it is for (a script that never sends one
    // would fuzz nothing of it).
    let sent = SESSION_GOS.each_ref().map(|count| count.load(Ordering::Relaxed));
    eprintln!("uci-session: go with a clock {}, movetime {}, infinite then stop {}", sent[0], sent[1], sent[2]);
    assert!(sent.iter().all(|&count| count >= 100), "too few gos of a kind: {sent:?}");
}

// ---------------------------------------------------------------- EPD

const EPD_TOKENS: &[&str] = &[
    "bm", "am", "id", "c0", "hmvc", "fmvn", "D1", " ", " ", ";", ";", "\"", "\"", "e4", "Nf3", "Nbd2", "R1e1", "exd5",
    "e8=Q", "e8Q", "O-O", "O-O-O", "0-0", "+", "#", "!", "?", "x", "=", "WAC.001", "1", "0", "-", "w", "b", "KQkq",
    "/", "8", "k", "K", "\t", "\u{e9}",
];
const OPCODES: &[&str] =
    &["bm", "bm", "am", "id", "c0", "hmvc", "fmvn", "D1", "pv", "1x", "_x", "b-m", "", "bm\"", "\"id\""];
#[rustfmt::skip]
const SAN_EXTRAS: &[&str] = &[
    "O-O", "O-O-O", "0-0", "0-0-0", "O-O+", "O-O-O#", "--", "Z0", "e2e4", "\"quoted; text\"", "\"", "\"\"", "1-0",
    "1/2-1/2", "x", "=Q", "+", "99",
];

/// A SAN-like move: piece, origin hints, capture, square, promotion, suffix.
fn san_move() -> impl Strategy<Value = String> {
    let shaped = (
        select(vec!["", "", "N", "B", "R", "Q", "K", "P", "n"]),
        select(vec!["", "", "a", "h", "1", "8", "e2", "i"]),
        select(vec!["", "", "x", ":"]),
        "[a-h][1-8]",
        select(vec!["", "", "=Q", "=N", "Q", "b", "=", "=K", "=P"]),
        select(vec!["", "", "+", "#", "!", "?", "!!", "+#"]),
    )
        .prop_map(|(piece, from, capture, to, promotion, suffix)| {
            format!("{piece}{from}{capture}{to}{promotion}{suffix}")
        });
    prop_oneof![4 => shaped, 1 => select(SAN_EXTRAS).prop_map(str::to_string)]
}

fn operation() -> impl Strategy<Value = String> {
    (select(OPCODES), vec(san_move(), 0..4), select(vec![";", ";", ";", "", " ;", ";;", "; "]))
        .prop_map(|(opcode, operands, end)| format!("{opcode} {}{end}", operands.join(" ")))
}

/// An EPD line: a random or a real position, then random operations.
fn random_epd_line() -> impl Strategy<Value = String> {
    let positions = Arc::new(fen_corpus());
    let real = any::<Index>().prop_map(move |at| positions[at.index(positions.len())].clone());
    let position = prop_oneof![1 => fen_shaped(), 2 => real];
    let shaped = (position, vec(operation(), 0..5), select(vec!["", "", " free text", " 1 Kb2! draw", "\""]))
        .prop_map(|(position, operations, trailing)| format!("{position} {}{trailing}", operations.join(" ")));
    prop_oneof![1 => soup(EPD_TOKENS, 0..40), 3 => shaped]
}

/// An EPD line is refused with a message or read into a record whose FEN
/// reads back and whose moves are legal where they stand.
fn epd_line_holds(line: &str) -> Result<(), TestCaseError> {
    match parse_epd_line(line) {
        Ok(record) => {
            let board = match parse_fen(&record.fen) {
                Ok((board, _)) => board,
                Err(error) => return Err(TestCaseError::fail(format!("the record's FEN is refused: {error}"))),
            };
            prop_assert_eq!(board.to_string(), record.board.to_string());
            for mv in record.best_moves.iter().chain(&record.avoid_moves) {
                prop_assert!(record.board.is_legal(*mv), "move {} is not legal in {}", mv, record.fen);
            }
        }
        Err(message) => prop_assert!(!message.is_empty(), "an empty error"),
    }
    Ok(())
}

#[test]
fn epd_parser_survives_random_lines() {
    fuzz("epd-random", RANDOM_CASES, random_epd_line, |line| epd_line_holds(line));
}

#[test]
fn epd_parser_survives_mutated_lines() {
    fuzz("epd-mutated", MUTATED_CASES, || mutated(epd_corpus(), EPD_TOKENS), |line| epd_line_holds(line));
}

/// A file of mutated and random lines, comments and blank lines, with raw
/// bytes (invalid UTF-8 included) and either line ending.
fn epd_file() -> impl Strategy<Value = Vec<u8>> {
    let line = prop_oneof![
        3 => mutated_bytes(epd_corpus(), EPD_TOKENS),
        2 => random_epd_line().prop_map(String::into_bytes),
        1 => select(vec!["", "   ", "# a comment", "#", "\t# indented comment"])
            .prop_map(|text| text.as_bytes().to_vec()),
    ];
    (vec(line, 0..12), select(vec!["\n", "\r\n"])).prop_map(|(lines, ending)| lines.join(ending.as_bytes()))
}

/// Every line that is not blank or a comment gives a record or an error
/// naming its line.
fn epd_file_holds(bytes: &[u8], path: &Path) -> Result<(), TestCaseError> {
    std::fs::write(path, bytes)
        .map_err(|error| TestCaseError::fail(format!("cannot write {}: {error}", path.display())))?;
    let read = read_epd_file(path);
    // Removed before the next case writes it: rewriting a file in place
    // makes the file system flush it to disk, a thousand times slower.
    let _ = std::fs::remove_file(path);
    let file = match read {
        Ok(file) => file,
        Err(error) => return Err(TestCaseError::fail(format!("a readable file is refused: {error:#}"))),
    };
    let text = String::from_utf8_lossy(bytes);
    let content_lines: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim().starts_with('#'))
        .map(|(index, _)| index + 1)
        .collect();
    prop_assert_eq!(file.records.len() + file.errors.len(), content_lines.len());
    for (line_number, message) in &file.errors {
        prop_assert!(content_lines.contains(line_number), "error on line {} which has no position", line_number);
        prop_assert!(!message.is_empty(), "an empty error on line {}", line_number);
    }
    Ok(())
}

#[test]
fn epd_file_reader_survives_broken_files() {
    let dir = std::env::temp_dir().join(format!("prunelab-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create a temporary folder");
    let path = dir.join("broken.epd");
    fuzz("epd-file", EPD_FILE_CASES, epd_file, move |bytes| epd_file_holds(bytes, &path));
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------- variants

#[rustfmt::skip]
const TOML_FRAGMENTS: &[&str] = &[
    "name", "description", "extends", "features", "source", "sprt", "expect", "nodes_pct", "\"razor.cut%\"",
    "\"pvs.re%\"", "\".cut%\"", "extend", " = ", "=", " ", "\n", "\n", "[expect]", "[", "]", "[[", "]]", "{", "}",
    ",", ".", "\"", "'", "'''", "\"\"\"", "\"x\"", "\"baseline\"", "\"razor-r1\"", "\"lmp\"", "\"razor-r9\"", "1",
    "-5", "2.5", "nan", "inf", "-inf", "1e400", "0x10", "9223372036854775808", "true", "1979-05-27", "T07:32:00Z",
    "#", "\\", "\\u00e9", "\r", "\t", "\u{e9}",
];
#[rustfmt::skip]
const TOML_KEYS: &[&str] = &[
    "name", "name", "description", "extends", "features", "features", "source", "sprt", "sprt", "nodes_pct",
    "\"razor.cut%\"", "\"x.%\"", "extend", "name.first", "'literal key'", "\"\"", "expect",
];
#[rustfmt::skip]
const TOML_VALUES: &[&str] = &[
    "\"x\"", "\"baseline\"", "\"razor-r1\"", "\"\"", "[]", "[\"lmp\"]", "[\"razor-r2\", \"lmp\"]", "[\"razor-r9\"]",
    "[\"razor-sf\", \"razor-hyatt\"]", "[0.0, 5.0]", "[-5, -3]", "[5, 0]", "[nan, 1]", "[inf, -inf]", "[1, 2, 3]",
    "[1]", "[\"a\", 1]", "1", "1.5", "true", "1979-05-27", "1979-05-27T07:32:00Z", "{}", "{ nodes_pct = [1, 2] }",
    "\"\"\"multi\nline\"\"\"", "'literal'", "9223372036854775807", "[[1, 2]]", "[\n1,\n2,\n]", "\"unterminated",
];
const TOML_HEADERS: &[&str] =
    &["[expect]", "[expect]", "[expect.x]", "[[expect]]", "[name]", "# comment", "", "[features]"];

fn random_toml() -> impl Strategy<Value = String> {
    let assignment = (select(TOML_KEYS), select(TOML_VALUES)).prop_map(|(key, value)| format!("{key} = {value}"));
    let line = prop_oneof![4 => assignment, 1 => select(TOML_HEADERS).prop_map(str::to_string)];
    let shaped = vec(line, 0..10).prop_map(|lines| lines.join("\n"));
    prop_oneof![1 => soup(TOML_FRAGMENTS, 0..40), 2 => shaped]
}

/// A variant file's text goes through the build's reader, the library's
/// validation and the parent/feature resolution: each step gives a value or
/// a message.
fn variant_holds(text: &str) -> Result<(), TestCaseError> {
    // Of the TOML reader only that it returns: toml's `message()` is empty
    // for some errors (`name =`), and `variant_file::read` passes it on.
    let Ok(value): Result<Value, String> = variant_file::read(text) else {
        return Ok(());
    };
    // build.rs writes every value it read into the library as code.
    let _ = value.to_code();
    match parse_table(&value) {
        Ok(file) => {
            if let Err(error) = resolve(vec![file]) {
                prop_assert!(!error.to_string().is_empty(), "an empty resolution error");
            }
        }
        Err(error) => prop_assert!(!error.to_string().is_empty(), "an empty validation error"),
    }
    Ok(())
}

#[test]
fn variant_reader_survives_random_toml() {
    fuzz("variant-random", RANDOM_CASES, random_toml, |text| variant_holds(text));
}

#[test]
fn variant_reader_survives_mutated_files() {
    fuzz("variant-mutated", MUTATED_CASES, || mutated(variant_corpus(), TOML_FRAGMENTS), |text| variant_holds(text));
}

// ---------------------------------------------------------------- corpora

/// Mutations start from valid input: a corpus that stopped parsing (a moved
/// data file, a changed format) would leave the mutation targets testing
/// only the first error.
#[test]
fn corpora_are_valid_inputs() {
    let fens = fen_corpus();
    // data/README.md's position counts: perft 128, WAC 300, Arasan 200,
    // zugzwang 30, seeds 10, and the book's first BOOK_LINES.
    assert_eq!(fens.len(), 128 + 300 + 200 + 30 + 10 + BOOK_LINES);
    for fen in &fens {
        assert!(parse_fen(fen).is_ok(), "corpus FEN '{fen}' is refused");
    }
    for line in epd_corpus() {
        if let Err(error) = parse_epd_line(&line) {
            panic!("corpus EPD line '{line}' is refused: {error}");
        }
    }
    for line in uci_corpus() {
        assert!(matches!(Command::parse(&line), Ok(Some(_))), "corpus UCI line '{line}' is refused");
    }
    let variants = variant_corpus();
    assert_eq!(variants.len(), prunelab::variants::load().unwrap().len(), "a variant file is not in the corpus");
    for text in variants {
        let value = variant_file::read(&text).unwrap_or_else(|error| panic!("not TOML: {error}\n{text}"));
        parse_table(&value).unwrap_or_else(|error| panic!("not a variant file: {error:#}\n{text}"));
    }
}
