//! `lab match` end to end: real games between prunelab binaries, and fake
//! engines that crash or play illegal moves, whose failures must be counted
//! by name. Nothing here asserts on timing: the games' contents vary, their
//! bookkeeping does not.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use prunelab::cozy_chess::{Board, GameStatus};
use prunelab::position::parse_fen;
use prunelab::san::parse_san;
use serde_json::Value;

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("prunelab-lab-match-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// The target folder holding this test's binaries; the lab's variant
/// builds go under it, as in `tests/lab.rs`, so the two share them.
fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_lab")).parent().unwrap().parent().unwrap().to_path_buf()
}

/// Runs `lab` in the repository (it looks for `variants/` there).
fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("CARGO_TARGET_DIR", target_dir())
        .output()
        .expect("run lab")
}

/// The baseline engine, built once by `lab build` (the engine is another
/// crate, so cargo gives this test no path to its binary).
fn engine() -> &'static str {
    static ENGINE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ENGINE.get_or_init(|| {
        assert_success(&lab(&["build", "baseline", "--quiet"]));
        target_dir().join("lab").join("baseline").join("prunelab").to_string_lossy().into_owned()
    })
}

fn assert_success(output: &Output) {
    assert!(
        output.status.success(),
        "lab failed\nstdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The only run folder under `results`.
fn run_dir(results: &Path) -> PathBuf {
    let runs: Vec<PathBuf> = fs::read_dir(results).unwrap().map(|entry| entry.unwrap().path()).collect();
    assert_eq!(runs.len(), 1, "{runs:?}");
    runs[0].clone()
}

fn records(run: &Path) -> Vec<Value> {
    fs::read_to_string(run.join("records.jsonl"))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn summary(run: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(run.join("summary.json")).unwrap()).unwrap()
}

/// One PGN game: its tags and its SAN moves.
struct PgnGame {
    tags: Vec<(String, String)>,
    moves: Vec<String>,
}

impl PgnGame {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(tag, _)| tag == name).map(|(_, value)| value.as_str())
    }
}

/// Splits a PGN file into games (tags, then movetext without comments,
/// move numbers and the result).
fn read_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut tags = Vec::new();
    let mut movetext = String::new();
    let mut flush = |tags: &mut Vec<(String, String)>, movetext: &mut String| {
        if tags.is_empty() {
            return;
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
        games.push(PgnGame { tags: std::mem::take(tags), moves });
        movetext.clear();
    };
    for line in text.lines() {
        if let Some(inner) = line.strip_prefix('[').and_then(|line| line.strip_suffix(']')) {
            if !movetext.trim().is_empty() {
                flush(&mut tags, &mut movetext);
            }
            let (name, value) = inner.split_once(' ').unwrap();
            tags.push((name.to_string(), value.trim_matches('"').to_string()));
        } else {
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    flush(&mut tags, &mut movetext);
    games
}

/// Replays a game's SAN from its start; panics on an illegal move.
fn replay(game: &PgnGame) -> Board {
    let mut board = match game.tag("FEN") {
        Some(fen) => parse_fen(fen).unwrap().0,
        None => Board::default(),
    };
    for san in &game.moves {
        let mv = parse_san(&board, san).unwrap_or_else(|error| panic!("{san}: {error}"));
        board.play(mv);
    }
    board
}

const TINY_BOOK: &str = "\
# two openings, one as a 4-field EPD line, one as a full FEN
rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3
";

#[test]
fn a_short_match_between_prunelab_binaries_adds_up() {
    let dir = scratch("real");
    let book = dir.join("book.epd");
    fs::write(&book, TINY_BOOK).unwrap();
    let results = dir.join("results");
    let engine = engine();
    let output = lab(&[
        "match",
        "baseline",
        "razor-r1",
        "--games",
        "4",
        "--tc",
        "1+0.01",
        "--concurrency",
        "2",
        "--binary",
        &format!("baseline={engine}"),
        "--binary",
        &format!("razor-r1={engine}"),
        "--results",
        results.to_str().unwrap(),
        "--book",
        book.to_str().unwrap(),
        // Adjudication keeps the test short (and runs it end to end).
        "--resign-movecount",
        "3",
        "--resign-score",
        "500",
        "--draw-movenumber",
        "20",
        "--draw-movecount",
        "4",
        "--draw-score",
        "10",
        "--quiet",
    ]);
    assert_success(&output);
    let run = run_dir(&results);

    let games = read_pgn(&fs::read_to_string(run.join("games.pgn")).unwrap());
    assert_eq!(games.len(), 4);
    let records = records(&run);
    assert_eq!(records.len(), 4);
    for game in &games {
        let board = replay(game);
        let round: u64 = game.tag("Round").unwrap().parse().unwrap();
        let record = records.iter().find(|record| record["round"] == round).expect("a record for each game");
        assert_eq!(game.tag("Result").unwrap(), record["result"].as_str().unwrap());
        assert_eq!(game.tag("White").unwrap(), record["white"].as_str().unwrap());
        assert_eq!(game.moves.len() as u64, record["plies"].as_u64().unwrap());
        assert!(game.tag("FEN").is_some() && game.tag("SetUp") == Some("1"));
        assert_eq!(game.tag("TimeControl"), Some("1+0.01"));
        match record["termination"].as_str().unwrap() {
            "checkmate" => assert_eq!(board.status(), GameStatus::Won),
            "stalemate" => assert_eq!(board.status(), GameStatus::Drawn),
            _ => {}
        }
    }
    // Each pair plays one opening with both colour assignments.
    for pair in 0..2 {
        let games: Vec<&Value> = records.iter().filter(|record| record["pair"] == pair).collect();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0]["opening_line"], games[1]["opening_line"]);
        assert_eq!(games[0]["white"], games[1]["black"]);
    }

    let summary = summary(&run);
    let wdl = &summary["wdl"];
    let total = ["wins", "draws", "losses"].iter().map(|key| wdl[key].as_u64().unwrap()).sum::<u64>();
    assert_eq!(total, 4);
    let penta: Vec<u64> = summary["penta"].as_array().unwrap().iter().map(|count| count.as_u64().unwrap()).collect();
    assert_eq!(penta.iter().sum::<u64>(), 2);
    // The pentanomial agrees with the W/D/L: its half-points are the points.
    let half_points: u64 = penta.iter().enumerate().map(|(index, count)| index as u64 * count).sum();
    assert_eq!(half_points, 2 * wdl["wins"].as_u64().unwrap() + wdl["draws"].as_u64().unwrap());
    assert_eq!(summary["games"], 4);
    assert_eq!(summary["engines"][0]["name"], "baseline");
    assert!(summary["engines"][0]["id_name"].as_str().unwrap().starts_with("prunelab"));
    assert!(fs::read_to_string(run.join("summary.md")).unwrap().contains("Pentanomial"));
    // Quiet: the summary on stdout, nothing on stderr.
    assert!(String::from_utf8_lossy(&output.stdout).contains("# Match: baseline vs razor-r1"));
    assert!(output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
    fs::remove_dir_all(&dir).unwrap();
}

/// A UCI "engine" in shell that answers the handshake and then, on `go`,
/// runs `on_go`.
fn fake_engine(dir: &Path, name: &str, on_go: &str) -> PathBuf {
    let path = dir.join(name);
    let script = format!(
        "#!/bin/sh\n\
         while read -r line; do\n\
           case \"$line\" in\n\
             uci) echo \"id name fake {name}\"; echo uciok ;;\n\
             isready) echo readyok ;;\n\
             go*) {on_go} ;;\n\
             quit) exit 0 ;;\n\
           esac\n\
         done\n"
    );
    fs::write(&path, script).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

/// `games` games between an engine that plays `a1a1` and one that exits on `go`.
fn failing_match(dir: &Path, book: &Path, games: &str, extra: &[&str]) -> Output {
    let illegal = fake_engine(dir, "illegal.sh", "echo 'bestmove a1a1'");
    let crasher = fake_engine(dir, "crasher.sh", "exit 3");
    let results = dir.join("results");
    let mut args = vec![
        "match".to_string(),
        "illegal".into(),
        "crasher".into(),
        "--games".into(),
        games.into(),
        "--tc".into(),
        "1+0.01".into(),
        "--binary".into(),
        format!("illegal={}", illegal.display()),
        "--binary".into(),
        format!("crasher={}", crasher.display()),
        "--results".into(),
        results.display().to_string(),
        "--book".into(),
        book.display().to_string(),
    ];
    args.extend(extra.iter().map(|arg| arg.to_string()));
    lab(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
#[cfg(unix)]
fn crashes_and_illegal_moves_lose_and_are_counted_by_name() {
    let dir = scratch("failures");
    let book = dir.join("book.epd");
    // One readable opening and a broken line: the order must reach both.
    fs::write(&book, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3\nnot a position at all\n").unwrap();
    let output = failing_match(&dir, &book, "4", &[]);
    assert_success(&output);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("book line 2 skipped"), "{stderr}");
    assert!(stderr.contains("illegal plays an illegal move"), "{stderr}");
    assert!(stderr.contains("crasher failed"), "{stderr}");
    let run = run_dir(&dir.join("results"));

    // The book position has Black to move: the engine with Black moves first
    // and loses at once, every game.
    let records = records(&run);
    assert_eq!(records.len(), 4);
    for record in &records {
        let black = record["black"].as_str().unwrap();
        assert_eq!(record["result"], "1-0");
        assert_eq!(record["failure"]["engine"], black);
        let kind = if black == "illegal" { "illegal_move" } else { "crash" };
        assert_eq!(record["termination"], kind);
        assert_eq!(record["plies"], 0);
    }
    let summary = summary(&run);
    assert_eq!(summary["engines"][0]["name"], "illegal");
    assert_eq!(summary["engines"][0]["id_name"], "fake illegal.sh");
    assert_eq!(summary["engines"][0]["failures"]["illegal_moves"], 2);
    assert_eq!(summary["engines"][1]["failures"]["crashes"], 2, "the crashed engine was restarted and crashed again");
    assert_eq!(summary["engines"][1]["failures"]["illegal_moves"], 0);
    assert_eq!(summary["wdl"], serde_json::json!({"wins": 2, "draws": 0, "losses": 2}));
    assert_eq!(summary["penta"], serde_json::json!([0, 0, 2, 0, 0]));
    assert_eq!(summary["book_lines_skipped"][0][0], 2);
    let markdown = fs::read_to_string(run.join("summary.md")).unwrap();
    assert!(markdown.contains("| Failures: crasher | 0 time losses, 2 crashes, 0 illegal moves, 0 protocol errors |"));

    let pgn = fs::read_to_string(run.join("games.pgn")).unwrap();
    let games = read_pgn(&pgn);
    assert_eq!(games.len(), 4);
    assert!(games.iter().all(|game| game.moves.is_empty()));
    assert!(pgn.contains("[Termination \"rules infraction\"]") && pgn.contains("[Termination \"abandoned\"]"));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[cfg(unix)]
fn an_engine_that_never_moves_loses_on_time_and_is_restarted() {
    let dir = scratch("silent");
    let book = dir.join("book.epd");
    fs::write(&book, TINY_BOOK).unwrap();
    let silent = fake_engine(&dir, "silent.sh", ":");
    let results = dir.join("results");
    let output = lab(&[
        "match",
        "silent",
        "baseline",
        "--games",
        "2",
        "--tc",
        "0.2",
        "--time-margin",
        "50",
        "--binary",
        &format!("silent={}", silent.display()),
        "--binary",
        &format!("baseline={}", engine()),
        "--results",
        results.to_str().unwrap(),
        "--book",
        book.to_str().unwrap(),
    ]);
    assert_success(&output);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("silent loses on time: no move within 250 ms; restarting it"), "{stderr}");
    let summary = summary(&run_dir(&results));
    assert_eq!(summary["engines"][0]["failures"]["time_losses"], 2);
    assert_eq!(summary["wdl"]["losses"], 2);
    assert_eq!(summary["terminations"]["time_loss"], 2);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[cfg(unix)]
fn resume_plays_only_the_missing_games_with_the_same_openings() {
    let dir = scratch("resume");
    let book = dir.join("book.epd");
    fs::write(&book, TINY_BOOK).unwrap();
    assert_success(&failing_match(&dir, &book, "4", &["--quiet"]));
    let run = run_dir(&dir.join("results"));
    let complete = records(&run);

    // As if interrupted after two games.
    let text = fs::read_to_string(run.join("records.jsonl")).unwrap();
    let first_two: String = text.lines().take(2).map(|line| format!("{line}\n")).collect();
    fs::write(run.join("records.jsonl"), first_two).unwrap();

    // Other arguments are refused.
    let refused = failing_match(&dir, &book, "4", &["--quiet", "--seed", "9", "--resume", run.to_str().unwrap()]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("other arguments"));

    let output = failing_match(&dir, &book, "4", &["--resume"]);
    assert_success(&output);
    assert!(String::from_utf8_lossy(&output.stderr).contains("2 games already played"));
    let resumed = records(&run);
    assert_eq!(resumed.len(), 4);
    // The same games, openings and results (failure details name temporary paths).
    let games = |records: &[Value]| {
        let mut games: Vec<String> = records
            .iter()
            .map(|record| {
                let fields = ["pair", "game", "opening_line", "white", "result", "termination"];
                fields.map(|field| record[field].to_string()).join(" ")
            })
            .collect();
        games.sort();
        games
    };
    assert_eq!(games(&resumed), games(&complete));
    assert_eq!(summary(&run)["games"], 4);

    // A finished match grows with a larger --games: the next openings follow.
    assert_success(&failing_match(&dir, &book, "6", &["--quiet", "--resume"]));
    let extended = records(&run);
    assert_eq!(extended.len(), 6);
    assert_eq!(games(&extended[..4]), games(&complete));
    assert_eq!(extended[4]["pair"], 2);
    assert_eq!(summary(&run)["games_planned"], 6);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_arguments_are_clear_errors() {
    let dir = scratch("errors");
    let results = dir.join("results");
    let results = results.to_str().unwrap();
    let engine = format!("baseline={}", engine());
    for (args, message) in [
        (vec!["--tc", "0+1"], "base time must be positive"),
        (vec!["--binary", &engine, "--sprt", "5", "0"], "ELO0 must be below ELO1"),
        (vec!["--binary", &engine, "--sprt", "0", "5", "--alpha", "0.7"], "--alpha 0.7: expected a probability"),
        (vec!["--binary", &engine, "--sprt", "0", "5", "--beta", "0"], "--beta 0: expected a probability"),
        // A rate without a test would be silently ignored.
        (vec!["--binary", &engine, "--alpha", "0.1"], "--sprt <ELO0> <ELO1>"),
        (vec!["--binary", &engine, "--book", "/nonexistent/book.epd"], "cannot read the opening book"),
        (vec!["--binary", "baseline=/nonexistent/engine"], "no such file"),
        (vec!["--binary", "baseline"], "expected NAME=PATH"),
    ] {
        let mut full = vec!["match", "baseline", "baseline", "--results", results, "--quiet"];
        full.extend(args);
        let output = lab(&full);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{full:?} was accepted");
        assert!(stderr.contains(message), "{full:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// `lab match`, `lab ab` and `lab sprt` take the same SPRT options and
/// check them the same way (`lab ab` before its long steps).
#[test]
fn every_command_spells_the_sprt_the_same() {
    let dir = scratch("sprt-options");
    let results = dir.join("results");
    let results = results.to_str().unwrap();
    let mut line = vec!["sprt", "--penta", "3,40,100,45,2", "--json"];
    line.extend(["--sprt", "-1.75", "0.25", "--alpha", "0.05", "--beta", "0.1", "--model", "logistic"]);
    let output = lab(&line);
    assert_success(&output);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!((report["elo0"].as_f64(), report["elo1"].as_f64()), (Some(-1.75), Some(0.25)));
    assert_eq!((report["beta"].as_f64(), report["model"].as_str()), (Some(0.1), Some("logistic")));

    let engine = format!("baseline={}", engine());
    let commands: [&[&str]; 3] = [
        &["sprt", "--penta", "3,40,100,45,2"],
        &["ab", "baseline", "razor-r1"],
        &["match", "baseline", "baseline", "--binary", &engine],
    ];
    for command in commands {
        let mut line = command.to_vec();
        line.extend(["--sprt", "5", "0", "--results", results, "--quiet"]);
        let output = lab(&line);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{line:?} was accepted");
        assert!(stderr.contains("--sprt 5 0: ELO0 must be below ELO1"), "{line:?}: {stderr}");
    }
    assert!(!dir.join("results").exists(), "no command got as far as a run folder");
    fs::remove_dir_all(&dir).unwrap();
}
