//! Drives the real `prunelab` binary through stdin/stdout as a GUI would.
//!
//! Every read waits at most `READ_TIMEOUT`, only so that a hung engine fails
//! the test instead of hanging it; nothing here asserts on speed. Moves the
//! engine prints are checked against this file's own standard-UCI rendering
//! of the legal moves (castling as the king's two-square move), independent
//! of the engine's conversion code.

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use prunelab::cozy_chess::{Board, File, Move, Piece, Square};

const READ_TIMEOUT: Duration = Duration::from_secs(120);
const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// Only O-O mates: after Rf1+ instead, the black king escapes to g2.
const WHITE_CASTLES_SHORT_TO_MATE: &str = "8/8/8/8/8/2N1Pk1P/3P3P/4K2R w K - 0 1";
/// Only O-O-O mates: after Rd8+ instead, the white king escapes to c7.
const BLACK_CASTLES_LONG_TO_MATE: &str = "r3k3/1p3p2/1p1Kp1n1/8/8/8/8/8 b q - 0 1";

/// A running engine with a thread feeding its output lines into a channel.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything sent and received, for failure messages.
    transcript: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        Engine::spawn(Command::new(env!("CARGO_BIN_EXE_prunelab")))
    }

    /// The engine with its address space limited (`ulimit -v`, in KiB).
    fn start_with_address_space_kib(limit: u64) -> Engine {
        let mut command = Command::new("sh");
        command.args(["-c", "ulimit -v \"$1\" && exec \"$0\"", env!("CARGO_BIN_EXE_prunelab"), &limit.to_string()]);
        Engine::spawn(command)
    }

    fn spawn(mut command: Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start prunelab");
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine { child, stdin, lines, transcript: Vec::new() }
    }

    fn send(&mut self, command: &str) {
        self.transcript.push(format!("> {command}"));
        let stdin = self.stdin.as_mut().expect("stdin already closed");
        writeln!(stdin, "{command}").and_then(|()| stdin.flush()).expect("write to prunelab");
    }

    /// The next output line; fails on a hang or on end of output.
    fn next_line(&mut self) -> String {
        match self.lines.recv_timeout(READ_TIMEOUT) {
            Ok(line) => {
                self.transcript.push(format!("< {line}"));
                line
            }
            Err(RecvTimeoutError::Timeout) => {
                panic!("no output within {READ_TIMEOUT:?}:\n{}", self.transcript())
            }
            Err(RecvTimeoutError::Disconnected) => {
                panic!("prunelab closed its output:\n{}", self.transcript())
            }
        }
    }

    /// Lines up to the first one for which `is_last` holds; that line is last.
    fn read_until(&mut self, is_last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.next_line();
            let done = is_last(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Sends `isready` and returns what came before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(|line| line == "readyok");
        lines.pop();
        lines
    }

    /// Waits for `bestmove`; returns the lines before it and the move text.
    fn bestmove(&mut self) -> (Vec<String>, String) {
        let mut lines = self.read_until(|line| line.starts_with("bestmove"));
        let last = lines.pop().unwrap();
        let words: Vec<&str> = last.split_whitespace().collect();
        assert!(matches!(words.len(), 2 | 4) && (words.len() == 2 || words[2] == "ponder"), "malformed '{last}'");
        (lines, words[1].to_string())
    }

    /// `go <args>`, then the bestmove, checked to be legal on `board`.
    fn go_legal(&mut self, args: &str, board: &Board) -> (Vec<String>, String) {
        self.send(&format!("go {args}"));
        let (infos, best) = self.bestmove();
        assert!(find_move(board, &best).is_some(), "illegal bestmove {best} in {board}:\n{}", self.transcript());
        (infos, best)
    }

    /// The engine's current position, read with `d`.
    fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.sync();
        let fen = lines.iter().find_map(|line| line.strip_prefix("Fen: "));
        fen.unwrap_or_else(|| panic!("no Fen line in {lines:?}")).to_string()
    }

    fn transcript(&self) -> String {
        self.transcript.join("\n")
    }

    /// Closes stdin and returns all remaining output once the engine exits.
    fn close_and_drain(&mut self) -> Vec<String> {
        self.stdin = None;
        let mut rest = Vec::new();
        loop {
            match self.lines.recv_timeout(READ_TIMEOUT) {
                Ok(line) => rest.push(line),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {
                    panic!("prunelab did not exit:\n{}", self.transcript())
                }
            }
        }
        let status = self.child.wait().expect("wait for prunelab");
        assert!(status.success(), "exit status {status}");
        rest
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // A failed test may leave the engine searching: do not leave it behind.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Every legal move in standard UCI notation, castling as `e1g1`/`e1c1`.
fn legal_moves(board: &Board) -> Vec<(String, Move)> {
    let mut moves = Vec::new();
    board.generate_moves(|piece_moves| {
        for mv in piece_moves {
            let is_castling = piece_moves.piece == Piece::King && board.colors(board.side_to_move()).has(mv.to);
            let text = if is_castling {
                let file = if mv.to.file() > mv.from.file() { File::G } else { File::C };
                format!("{}{}", mv.from, Square::new(file, mv.from.rank()))
            } else {
                mv.to_string()
            };
            moves.push((text, mv));
        }
        false
    });
    moves
}

fn find_move(board: &Board, text: &str) -> Option<Move> {
    legal_moves(board).into_iter().find(|(candidate, _)| candidate == text).map(|(_, mv)| mv)
}

fn board_after(fen: &str, moves: &[&str]) -> Board {
    let mut board = Board::from_fen(fen, false).unwrap();
    for text in moves {
        let mv = find_move(&board, text).unwrap_or_else(|| panic!("{text} is not legal in {board}"));
        board.play_unchecked(mv);
    }
    board
}

/// The moves that checkmate at once, in standard notation.
fn mating_moves(board: &Board) -> Vec<String> {
    legal_moves(board)
        .into_iter()
        .filter(|(_, mv)| {
            let mut after = board.clone();
            after.play_unchecked(*mv);
            !after.checkers().is_empty() && !after.generate_moves(|_| true)
        })
        .map(|(text, _)| text)
        .collect()
}

/// The words of an `info` line after `key` (up to the next known key).
fn info_field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|word| *word == key)?;
    words.get(at + 1).copied()
}

/// Checks the layout of an iteration's `info` line and that its PV is legal.
fn check_info_line(line: &str, root: &Board) {
    const KEYS: [&str; 8] = ["depth", "seldepth", "score", "nodes", "nps", "hashfull", "time", "pv"];
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[0], "info", "{line}");
    let positions: Vec<usize> = KEYS.iter().map(|key| words.iter().position(|word| word == key).unwrap()).collect();
    assert!(positions.windows(2).all(|pair| pair[0] < pair[1]), "fields out of order: {line}");
    for key in ["depth", "seldepth", "nodes", "nps", "hashfull", "time"] {
        let value = info_field(line, key).unwrap();
        assert!(value.parse::<u64>().is_ok(), "{key} '{value}' in {line}");
    }
    let score = &words[positions[2] + 1..positions[3]];
    assert!(matches!(score, ["cp" | "mate", value] if value.parse::<i32>().is_ok()), "bad score in {line}");
    let mut board = root.clone();
    let pv = &words[positions[7] + 1..];
    assert!(!pv.is_empty(), "empty pv: {line}");
    for text in pv {
        let mv = find_move(&board, text).unwrap_or_else(|| panic!("pv move {text} is not legal in {board}: {line}"));
        board.play_unchecked(mv);
    }
}

/// An `info` line with its time and nps fields removed.
fn without_timing(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut kept = Vec::new();
    let mut index = 0;
    while index < words.len() {
        if matches!(words[index], "time" | "nps") {
            index += 2;
        } else {
            kept.push(words[index]);
            index += 1;
        }
    }
    kept.join(" ")
}

#[test]
fn handshake_names_the_build_and_lists_the_options() {
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.read_until(|line| line == "uciok");
    // The default build ci/test.sh runs: the baseline, no feature.
    assert_eq!(lines[0], format!("id name prunelab {} baseline [none]", env!("CARGO_PKG_VERSION")));
    assert!(lines[1].starts_with("id author "));
    for option in [
        "option name Hash type spin default 16 min 1 max 65536",
        "option name Threads type spin default 1 min 1 max 1",
        "option name Move Overhead type spin default 10 min 0 max 5000",
        "option name Ponder type check default false",
        "option name SearchStats type check default false",
    ] {
        assert!(lines.iter().any(|line| line == option), "missing '{option}'");
    }
    assert!(engine.sync().is_empty());
}

#[test]
fn plays_a_whole_game_with_every_kind_of_limit() {
    let mut engine = Engine::start();
    engine.send("uci");
    engine.read_until(|line| line == "uciok");
    engine.send("ucinewgame");
    let limits = [
        "depth 3",
        "nodes 3000",
        "movetime 20",
        "wtime 3000 btime 3000 winc 30 binc 30",
        "wtime 500 btime 500 movestogo 3",
    ];
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..60 {
        let move_list: Vec<&str> = moves.iter().map(String::as_str).collect();
        let board = board_after(STARTPOS_FEN, &move_list);
        if !board.generate_moves(|_| true) || board.halfmove_clock() >= 100 {
            break;
        }
        if moves.is_empty() {
            engine.send("position startpos");
        } else {
            engine.send(&format!("position startpos moves {}", move_list.join(" ")));
        }
        let (infos, best) = engine.go_legal(limits[ply % limits.len()], &board);
        for line in infos.iter().filter(|line| line.contains(" pv ")) {
            check_info_line(line, &board);
        }
        moves.push(best);
    }
    assert!(moves.len() >= 10, "the game ended after {} plies", moves.len());
    let move_list: Vec<&str> = moves.iter().map(String::as_str).collect();
    engine.send(&format!("position startpos moves {}", move_list.join(" ")));
    let expected = board_after(STARTPOS_FEN, &move_list).to_string();
    assert_eq!(engine.fen(), expected);
}

#[test]
fn depth_search_reports_every_iteration() {
    let mut engine = Engine::start();
    let root = board_after(STARTPOS_FEN, &["d2d4", "g8f6"]);
    engine.send("position startpos moves d2d4 g8f6");
    let (infos, _) = engine.go_legal("depth 5", &root);
    let depths: Vec<u64> = infos
        .iter()
        .filter(|line| line.starts_with("info depth"))
        .map(|line| {
            check_info_line(line, &root);
            info_field(line, "depth").unwrap().parse().unwrap()
        })
        .collect();
    assert_eq!(depths, [1, 2, 3, 4, 5]);
}

#[test]
fn go_nodes_gives_a_legal_move() {
    let mut engine = Engine::start();
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    engine.send(&format!("position fen {fen}"));
    let (infos, _) = engine.go_legal("nodes 5000", &Board::from_fen(fen, false).unwrap());
    for line in infos.iter().filter(|line| line.starts_with("info depth")) {
        let nodes: u64 = info_field(line, "nodes").unwrap().parse().unwrap();
        assert!(nodes <= 5000, "{line}");
    }
}

#[test]
fn infinite_search_answers_isready_and_waits_for_stop() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    // The depth bound ends the search at once, but `bestmove` must still wait.
    engine.send("go infinite depth 1");
    for _ in 0..3 {
        let before = engine.sync();
        assert!(!before.iter().any(|line| line.starts_with("bestmove")), "{}", engine.transcript());
    }
    assert_eq!(engine.fen(), STARTPOS_FEN);
    engine.send("stop");
    let (_, best) = engine.bestmove();
    assert!(find_move(&Board::default(), &best).is_some());
    // Exactly one bestmove per go.
    assert!(!engine.sync().iter().any(|line| line.starts_with("bestmove")));
}

#[test]
fn unbounded_infinite_search_stops_on_request() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4");
    engine.send("go infinite");
    assert!(!engine.sync().iter().any(|line| line.starts_with("bestmove")));
    engine.send("stop");
    let (_, best) = engine.bestmove();
    assert!(find_move(&board_after(STARTPOS_FEN, &["e2e4"]), &best).is_some());
    // `stop` with nothing running is harmless.
    engine.send("stop");
    assert!(engine.sync().is_empty());
}

#[test]
fn go_during_a_search_is_refused() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go infinite");
    engine.send("go depth 1");
    let before = engine.sync();
    assert!(before.iter().any(|line| line.starts_with("info string error: go: already searching")), "{before:?}");
    assert!(!before.iter().any(|line| line.starts_with("bestmove")));
    engine.send("stop");
    engine.bestmove();
    assert!(!engine.sync().iter().any(|line| line.starts_with("bestmove")));
}

/// Every `go` a GUI may send is a search that ends in one legal `bestmove`:
/// by itself where the line bounds it, after `stop` where it does not. A
/// word that is not understood is left out with a warning.
#[test]
fn every_go_is_answered_with_a_legal_bestmove() {
    let mut engine = Engine::start();
    let root = board_after(STARTPOS_FEN, &["e2e4"]);
    engine.send("position startpos moves e2e4");
    for (args, warnings) in [
        ("depth 2 banana", vec!["info string warning: go: unknown word 'banana' ignored"]),
        (
            "depth five nodes 2000",
            vec!["info string warning: go depth: 'five' is not a whole number in range; ignored"],
        ),
        ("nodes 0 depth 2", vec!["info string warning: go nodes: must be at least 1, got 0; ignored"]),
        ("movestogo 0 movetime 20", vec!["info string warning: go movestogo: must be at least 1, got 0; ignored"]),
        (
            "wtime abc movetime 20",
            vec!["info string warning: go wtime: 'abc' is not a whole number of milliseconds in range; ignored"],
        ),
        // Black to move with only White's clock: played on it, so bounded.
        ("wtime 1000 winc 10", vec![]),
        ("mate 1 depth 3", vec![]),
    ] {
        let (infos, _) = engine.go_legal(args, &root);
        let said: Vec<&String> = infos.iter().filter(|line| line.starts_with("info string")).collect();
        assert_eq!(said, warnings, "go {args}");
    }
    // Unbounded lines search until `stop`, answering `isready` meanwhile.
    for args in ["", "depth 0", "depth -5", "nodes", "banana", "infinite", "searchmoves"] {
        engine.send(&format!("go {args}"));
        assert!(!engine.sync().iter().any(|line| line.starts_with("bestmove")), "go {args}:\n{}", engine.transcript());
        engine.send("stop");
        let (_, best) = engine.bestmove();
        assert!(find_move(&root, &best).is_some(), "go {args}: {best}");
    }
}

#[test]
fn searchmoves_restricts_the_root_and_leaves_out_illegal_moves() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    let (infos, best) = engine.go_legal("searchmoves a2a3 h2h3 depth 4", &Board::default());
    assert!(["a2a3", "h2h3"].contains(&best.as_str()), "{best}");
    for line in infos.iter().filter(|line| line.contains(" pv ")) {
        let first = line.split(" pv ").nth(1).unwrap().split_whitespace().next().unwrap();
        assert!(["a2a3", "h2h3"].contains(&first), "{line}");
    }
    let (infos, best) = engine.go_legal("searchmoves e2e5 b1c3 zz depth 3", &Board::default());
    assert_eq!(best, "b1c3");
    let warnings: Vec<&String> = infos.iter().filter(|line| line.starts_with("info string")).collect();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].starts_with("info string warning: go searchmoves 'e2e5': "), "{warnings:?}");
    assert!(warnings[1].starts_with("info string warning: go searchmoves 'zz': "), "{warnings:?}");
    // No legal move given: every move is searched, and it says so.
    let (infos, _) = engine.go_legal("searchmoves e7e5 depth 2", &Board::default());
    assert!(
        infos.contains(&"info string warning: go searchmoves: no legal move given; searching every move".to_string())
    );
}

#[test]
fn go_mate_stops_once_the_mate_is_found() {
    let mut engine = Engine::start();
    // A back-rank mate in one.
    let fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
    engine.send(&format!("position fen {fen}"));
    let board = Board::from_fen(fen, false).unwrap();
    let (infos, best) = engine.go_legal("mate 1", &board);
    assert_eq!(best, "a1a8");
    let last = infos.iter().rfind(|line| line.starts_with("info depth")).unwrap();
    assert_eq!(info_field(last, "score"), Some("mate"), "{last}");
}

#[test]
fn ponder_waits_for_ponderhit_or_stop() {
    let mut engine = Engine::start();
    let root = board_after(STARTPOS_FEN, &["e2e4", "e7e5"]);
    engine.send("setoption name Ponder value true");
    engine.send("position startpos moves e2e4 e7e5");
    // The depth bound ends the search, but the move waits for the GUI.
    engine.send("go ponder depth 2 wtime 1000 btime 1000");
    for _ in 0..3 {
        assert!(!engine.sync().iter().any(|line| line.starts_with("bestmove")), "{}", engine.transcript());
    }
    engine.send("ponderhit");
    let (_, best) = engine.bestmove();
    assert!(find_move(&root, &best).is_some());
    // A ponder hit turns the search into one on the clock: it ends by itself.
    engine.send("go ponder wtime 300 btime 300");
    assert!(!engine.sync().iter().any(|line| line.starts_with("bestmove")), "{}", engine.transcript());
    engine.send("ponderhit");
    let (_, best) = engine.bestmove();
    assert!(find_move(&root, &best).is_some());
    // A ponder miss: `stop` answers, and the GUI sends the real position.
    engine.send("go ponder wtime 1000 btime 1000");
    engine.send("stop");
    engine.bestmove();
    assert!(engine.sync().is_empty());
    // `ponderhit` with nothing pondering says so and changes nothing.
    engine.send("ponderhit");
    assert_eq!(engine.sync(), ["info string error: ponderhit: no search is running"]);
    engine.send("go infinite");
    engine.send("ponderhit");
    // The running search may print its first `info depth` lines meanwhile.
    let strings: Vec<String> = engine.sync().into_iter().filter(|line| line.starts_with("info string")).collect();
    assert_eq!(strings, ["info string error: ponderhit: the search running is not pondering"]);
    engine.send("stop");
    engine.bestmove();
}

#[test]
fn setoption_is_refused_during_a_search() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    engine.send("setoption name Hash value 8");
    let before = engine.sync();
    assert!(before.iter().any(|line| line.starts_with("info string error: setoption: not allowed while searching")));
    engine.send("stop");
    engine.bestmove();
}

#[test]
fn ucinewgame_and_quit_stop_a_running_search() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    engine.send("ucinewgame");
    engine.bestmove();
    assert!(engine.sync().is_empty());
    engine.send("go infinite");
    engine.send("quit");
    let rest = engine.close_and_drain();
    assert!(rest.last().is_some_and(|line| line.starts_with("bestmove ")), "{rest:?}");
}

#[test]
fn end_of_input_stops_the_search_and_exits() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    let rest = engine.close_and_drain();
    assert_eq!(rest.iter().filter(|line| line.starts_with("bestmove ")).count(), 1, "{rest:?}");
}

#[test]
fn castling_is_read_and_written_in_standard_notation() {
    let mut engine = Engine::start();
    for (fen, castling) in [(WHITE_CASTLES_SHORT_TO_MATE, "e1g1"), (BLACK_CASTLES_LONG_TO_MATE, "e8c8")] {
        let board = Board::from_fen(fen, false).unwrap();
        assert_eq!(mating_moves(&board), [castling], "test premise for {fen}");
        engine.send(&format!("position fen {fen}"));
        let (infos, best) = engine.go_legal("depth 3", &board);
        assert_eq!(best, castling, "{}", engine.transcript());
        for line in infos.iter().filter(|line| line.starts_with("info depth")) {
            check_info_line(line, &board);
            assert_eq!(info_field(line, "pv"), Some(castling), "{line}");
        }
    }
    // Input: castling in standard notation, and in king-takes-rook notation too.
    let moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"];
    engine.send(&format!("position startpos moves {}", moves.join(" ")));
    let expected = board_after(STARTPOS_FEN, &moves).to_string();
    assert_eq!(engine.fen(), expected);
    engine.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1");
    assert_eq!(engine.fen(), expected);
}

#[test]
fn bad_input_is_reported_and_changes_nothing() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4");
    let position = board_after(STARTPOS_FEN, &["e2e4"]);
    assert_eq!(engine.fen(), position.to_string());
    let long_line = "x".repeat(100_000);
    let bad_lines = [
        "foo",
        "\u{2654}\u{2655} \u{00e9}",
        "Go depth 1",
        "position",
        "position fen",
        "position banana",
        "position startpos e2e4",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "position fen 4k3/8/8/8/8/8/8/4K2R w",
        "position startpos moves e2e4 e7e5 e1e3",
        "position startpos moves e2e4 e7e5 e4e5",
        "position startpos moves e2e4 zz",
        "position startpos moves e2e4 e7e5 e1g1",
        "position startpos moves e2e4 e7e5 e2e4",
        "position startpos moves e7e8q",
        "ponderhit",
        "setoption",
        "setoption Hash value 8",
        "setoption name",
        "setoption name Nope value 3",
        "setoption name Hash",
        "setoption name Hash value",
        "setoption name Hash value 0",
        "setoption name Hash value 65537",
        "setoption name Hash value -1",
        "setoption name Hash value abc",
        "setoption name Hash value 99999999999999999999999999999999999999999",
        "setoption name Threads value 2",
        "setoption name Move Overhead value 5001",
        "setoption name SearchStats value yes",
        "setoption name Ponder value maybe",
        "setoption name Variant",
        "setoption name Variant value razor-r1",
        "debug maybe",
        long_line.as_str(),
    ];
    for bad in bad_lines {
        let replies = engine.sync();
        assert!(replies.is_empty(), "leftover output {replies:?}");
        engine.send(bad);
        let replies = engine.sync();
        assert_eq!(replies.len(), 1, "'{bad}' gave {replies:?}");
        assert!(replies[0].starts_with("info string error: "), "'{bad}' gave {replies:?}");
        assert!(replies[0].len() < 1_000, "the error echoes too much: {}", replies[0]);
    }
    // Blank lines are ignored without a word.
    for blank in ["", "   ", "\t"] {
        engine.send(blank);
    }
    assert!(engine.sync().is_empty());
    assert_eq!(engine.fen(), position.to_string());
    engine.go_legal("depth 1", &position);
}

/// A build of one feature set has no `Variant` option: it says which binary
/// has one instead of searching as something it is not.
#[test]
fn a_build_of_one_feature_set_refuses_a_variant_and_names_the_variants_build() {
    let mut engine = Engine::start();
    engine.send("setoption name Variant value razor-r1");
    assert_eq!(
        engine.sync(),
        ["info string error: setoption Variant: this binary is one feature set (baseline), not the variants \
             build: `make` builds every variant's search into one binary"]
    );
}

/// The largest hash the option allows (64 GiB), for an engine whose address
/// space is limited to 4 GiB (`ulimit -v`, so the test does not depend on the
/// machine's memory): the engine says so, keeps its table and goes on.
#[test]
fn a_hash_the_machine_cannot_give_is_refused_and_the_engine_goes_on() {
    let mut engine = Engine::start_with_address_space_kib(4 * 1024 * 1024);
    engine.send("setoption name Hash value 65536");
    assert_eq!(
        engine.sync(),
        ["info string error: setoption Hash: cannot allocate a 65536 MiB transposition table; keeping 16 MiB"]
    );
    engine.send("setoption name Hash value 1");
    assert!(engine.sync().is_empty());
    engine.go_legal("depth 3", &Board::default());
}

#[test]
fn accepted_options_are_silent_and_search_stats_come_before_bestmove() {
    let mut engine = Engine::start();
    for good in [
        "setoption name Hash value 1",
        "setoption name hash value 32",
        "setoption name Threads value 1",
        "setoption name Move Overhead value 0",
        "setoption name move overhead value 5000",
        "setoption name SearchStats value false",
        "debug off",
    ] {
        engine.send(good);
    }
    assert!(engine.sync().is_empty(), "{}", engine.transcript());

    engine.send("position startpos");
    let (infos, _) = engine.go_legal("depth 3", &Board::default());
    assert!(!infos.iter().any(|line| line.starts_with("info string")), "{infos:?}");

    engine.send("setoption name SearchStats value true");
    let (infos, _) = engine.go_legal("depth 3", &Board::default());
    let stats_at = infos.iter().position(|line| line.starts_with("info string ")).expect("no stats lines");
    assert!(infos[stats_at..].iter().all(|line| line.starts_with("info string ")), "{infos:?}");
}

#[test]
fn empty_board_is_refused_with_a_reason() {
    let mut engine = Engine::start();
    engine.send("position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    let replies = engine.sync();
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert!(replies[0].starts_with("info string error: position fen: "), "{replies:?}");
    assert_eq!(engine.fen(), STARTPOS_FEN);
}

#[test]
fn repaired_fen_is_accepted_with_a_warning() {
    let mut engine = Engine::start();
    // Castling rights without the rooks they need: dropped, with a warning.
    engine.send("position fen 4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1");
    let replies = engine.sync();
    assert!(!replies.is_empty(), "no warning");
    assert!(replies.iter().all(|line| line.starts_with("info string warning: ")), "{replies:?}");
    assert_eq!(engine.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

#[test]
fn no_legal_move_gives_bestmove_0000() {
    let mut engine = Engine::start();
    let fools_mate = ["f2f3", "e7e5", "g2g4", "d8h4"];
    engine.send(&format!("position startpos moves {}", fools_mate.join(" ")));
    engine.send("go depth 3");
    let (infos, best) = engine.bestmove();
    assert_eq!(best, "0000");
    assert_eq!(infos.last().map(String::as_str), Some("info depth 0 score mate 0"));

    engine.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    engine.send("go wtime 1000 btime 1000");
    let (infos, best) = engine.bestmove();
    assert_eq!(best, "0000");
    assert_eq!(infos.last().map(String::as_str), Some("info depth 0 score cp 0"));

    // Even with nothing to search, an infinite search waits for `stop`.
    engine.send("go infinite");
    assert!(!engine.sync().iter().any(|line| line.starts_with("bestmove")));
    engine.send("stop");
    assert_eq!(engine.bestmove().1, "0000");
}

#[test]
fn same_search_after_ucinewgame_is_identical() {
    let mut engine = Engine::start();
    let fen = "r1b1kb1r/pp1n1ppp/2p1p3/8/3PP3/2N2N2/PPP2PPP/R1BQKB1R b KQkq - 0 1";
    let root = Board::from_fen(fen, false).unwrap();
    let mut runs = Vec::new();
    for _ in 0..2 {
        engine.send("ucinewgame");
        engine.send(&format!("position fen {fen}"));
        let (infos, best) = engine.go_legal("nodes 20000", &root);
        let infos: Vec<String> = infos.iter().map(|line| without_timing(line)).collect();
        runs.push((infos, best));
    }
    assert_eq!(runs[0], runs[1]);
}

/// A line longer than the engine's bound of 256 KiB (the longest game's
/// `position` line is far shorter) is refused with an error, without being
/// held whole, and the engine goes on with the next line.
#[test]
fn a_line_longer_than_the_bound_is_refused_and_the_engine_goes_on() {
    let mut engine = Engine::start();
    engine.send(&format!("position startpos moves {}", "e2e4 ".repeat(60_000)));
    assert_eq!(engine.sync(), ["info string error: a line longer than 262144 bytes; ignored"]);
    engine.go_legal("depth 1", &Board::default());
}
