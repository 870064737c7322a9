//! `lab match` end to end: real games between prunelab binaries, and fake
//! engines that crash or play illegal moves, whose failures must be counted
//! by name. Nothing here asserts on timing: the games' contents vary, their
//! bookkeeping does not.
//!
//! The PGN is checked by code that did not write it: pgn-reader reads it and
//! shakmaty, another move generator than the engine's, replays every move.

use std::fs;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pgn_reader::{Outcome, RawTag, Reader, SanPlus, Skip, Visitor};
use serde_json::Value;
use shakmaty::fen::Fen;
use shakmaty::zobrist::{Zobrist64, ZobristHash};
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, KnownOutcome, Position};

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
    lab_with_data(args, None)
}

/// `lab` with `PRUNELAB_DATA` set to `data`, or unset: the tests never read
/// a data folder the environment happens to name.
fn lab_with_data(args: &[&str], data: Option<&Path>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_lab"));
    command
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("CARGO_TARGET_DIR", target_dir())
        // The quicker profile the other lab tests build with (see Cargo.toml's
        // `labtest`), so this test shares their builds, not a release one.
        .env("PRUNELAB_BUILD_PROFILE", "labtest")
        .env("PRUNELAB_BUILD_SLOTS", "1");
    match data {
        Some(folder) => command.env("PRUNELAB_DATA", folder),
        None => command.env_remove("PRUNELAB_DATA"),
    };
    command.output().expect("run lab")
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

/// One game of a PGN file, read by pgn-reader and replayed by shakmaty.
#[derive(Debug)]
struct CheckedGame {
    tags: Vec<(String, String)>,
    /// The SAN moves, as written.
    moves: Vec<String>,
    /// The result that ends the movetext.
    outcome: Option<Outcome>,
    /// The position after the last move.
    end: Chess,
    /// How often `end` occurred in the game, itself included (same pieces,
    /// side to move, castling rights and legal en-passant captures).
    end_occurrences: usize,
}

impl CheckedGame {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(tag, _)| tag == name).map(|(_, value)| value.as_str())
    }
}

/// A game while pgn-reader reads it: its tags, then its position as shakmaty
/// plays the moves.
struct GameInProgress {
    tags: Vec<(String, String)>,
    position: Chess,
    moves: Vec<String>,
    /// The position before the first move and after each move.
    hashes: Vec<Zobrist64>,
    outcome: Option<Outcome>,
}

fn position_hash(position: &Chess) -> Zobrist64 {
    position.zobrist_hash(EnPassantMode::Legal)
}

/// Replays each game from its `FEN` when `SetUp` is 1, else from the start
/// position; the first move shakmaty finds illegal or ambiguous, or that is
/// not written as shakmaty writes it (check and mate signs included), ends
/// the game with an error.
struct Replay;

impl Visitor for Replay {
    type Tags = Vec<(String, String)>;
    type Movetext = GameInProgress;
    type Output = Result<CheckedGame, String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        tags.push((String::from_utf8_lossy(name).into_owned(), value.decode_utf8_lossy().into_owned()));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let value = |name: &str| tags.iter().find(|(tag, _)| tag == name).map(|(_, value)| value.as_str());
        let position = match (value("SetUp"), value("FEN")) {
            (None, None) => Chess::default(),
            (Some("1"), Some(fen)) => {
                let parsed = Fen::from_ascii(fen.as_bytes()).map_err(|error| error.to_string()).and_then(|fen| {
                    fen.into_position::<Chess>(CastlingMode::Standard).map_err(|error| error.to_string())
                });
                match parsed {
                    Ok(position) => position,
                    Err(error) => return ControlFlow::Break(Err(format!("FEN {fen}: {error}"))),
                }
            }
            (setup, fen) => {
                return ControlFlow::Break(Err(format!("SetUp {setup:?} without FEN {fen:?}, or the reverse")))
            }
        };
        let hashes = vec![position_hash(&position)];
        ControlFlow::Continue(GameInProgress { tags, position, moves: Vec::new(), hashes, outcome: None })
    }

    fn san(&mut self, game: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        let written = san_plus.to_string();
        let mv = match san_plus.san.to_move(&game.position) {
            Ok(mv) => mv,
            Err(error) => return ControlFlow::Break(Err(format!("move {}: {written}: {error}", game.moves.len() + 1))),
        };
        let as_shakmaty_writes_it = SanPlus::from_move(game.position.clone(), mv).to_string();
        if written != as_shakmaty_writes_it {
            return ControlFlow::Break(Err(format!("{written} is {as_shakmaty_writes_it} in SAN")));
        }
        game.position.play_unchecked(mv);
        game.hashes.push(position_hash(&game.position));
        game.moves.push(written);
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _game: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Break(Err("the runner writes no variations".to_string()))
    }

    fn outcome(&mut self, game: &mut Self::Movetext, outcome: Outcome) -> ControlFlow<Self::Output> {
        game.outcome = Some(outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: Self::Movetext) -> Self::Output {
        let last = *game.hashes.last().expect("the start position is hashed");
        let end_occurrences = game.hashes.iter().filter(|&&hash| hash == last).count();
        Ok(CheckedGame {
            tags: game.tags,
            moves: game.moves,
            outcome: game.outcome,
            end: game.position,
            end_occurrences,
        })
    }
}

/// Every game of a PGN file, or what is wrong with the first bad one.
fn read_pgn(text: &str) -> Result<Vec<CheckedGame>, String> {
    let mut reader = Reader::new(text.as_bytes());
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut Replay).map_err(|error| error.to_string())? {
        games.push(game.map_err(|error| format!("game {}: {error}", games.len() + 1))?);
    }
    Ok(games)
}

/// The game's `Result` tag, the result ending its movetext and its record
/// agree, and the final position bears out how the record says it ended:
/// checkmate and stalemate where shakmaty sees them (and nowhere else), the
/// draw rules where they hold, adjudication as recorded, and a failing
/// engine's loss.
fn assert_ending_matches(game: &CheckedGame, record: &Value) {
    let result = game.tag("Result").expect("a Result tag");
    assert_eq!(game.outcome.map(|outcome| outcome.to_string()).as_deref(), Some(result), "movetext and Result tag");
    assert_eq!(result, record["result"].as_str().unwrap(), "PGN and record");
    let (end, draw) = (&game.end, KnownOutcome::Draw.to_string());
    let termination = record["termination"].as_str().unwrap();
    let (expected_result, termination_tag) = match termination {
        "checkmate" => {
            assert!(end.is_checkmate(), "not checkmate: {}", Fen::from_position(end, EnPassantMode::Legal));
            (KnownOutcome::Decisive { winner: !end.turn() }.to_string(), "normal")
        }
        "stalemate" => {
            assert!(end.is_stalemate(), "not stalemate: {}", Fen::from_position(end, EnPassantMode::Legal));
            (draw, "normal")
        }
        "insufficient_material" => {
            assert!(end.is_insufficient_material());
            (draw, "normal")
        }
        "fifty_move_rule" => {
            assert!(end.halfmoves() >= 100, "halfmove clock {}", end.halfmoves());
            (draw, "normal")
        }
        "threefold_repetition" => {
            assert!(game.end_occurrences >= 3, "the final position occurred {} times", game.end_occurrences);
            (draw, "normal")
        }
        "draw_adjudication" => (draw, "adjudication"),
        "resign_adjudication" => {
            assert_ne!(result, draw, "a resignation decides the game");
            (result.to_string(), "adjudication")
        }
        failure => {
            let loser = record["failure"]["engine"].as_str().expect("a failure names its engine");
            let winner = if game.tag("White") == Some(loser) { Color::Black } else { Color::White };
            let tag = match failure {
                "time_loss" => "time forfeit",
                "crash" => "abandoned",
                "illegal_move" | "protocol_error" => "rules infraction",
                other => panic!("unknown termination {other}"),
            };
            (KnownOutcome::Decisive { winner }.to_string(), tag)
        }
    };
    if !matches!(termination, "checkmate" | "stalemate") {
        assert!(!end.is_checkmate() && !end.is_stalemate(), "{termination}, but the game was already over");
    }
    assert_eq!(result, expected_result, "{termination}");
    assert_eq!(game.tag("Termination"), Some(termination_tag), "{termination}");
}

/// The record of the game with `game`'s `Round`.
fn record_of<'a>(records: &'a [Value], game: &CheckedGame) -> &'a Value {
    let round: u64 = game.tag("Round").unwrap().parse().unwrap();
    records.iter().find(|record| record["round"] == round).expect("a record for each game")
}

/// A PGN game with the runner's tags that matter here, then `movetext`.
fn pgn_game(result: &str, termination: &str, movetext: &str) -> String {
    format!(
        "[White \"a\"]\n[Black \"b\"]\n[Round \"1\"]\n[Result \"{result}\"]\n[Termination \"{termination}\"]\n\n\
         {movetext}\n\n"
    )
}

// The checks above are only worth what they catch.
#[test]
fn the_pgn_checks_catch_bad_moves_and_wrong_endings() {
    let record =
        |result: &str, termination: &str| serde_json::json!({"round": 1, "result": result, "termination": termination});
    let mate = pgn_game("0-1", "normal", "1. f3 e5 2. g4 {+0.31/9 0.153s} Qh4# {Black mates} 0-1");
    let games = read_pgn(&mate).unwrap();
    assert_eq!(games[0].moves, ["f3", "e5", "g4", "Qh4#"]);
    assert_ending_matches(&games[0], &record("0-1", "checkmate"));

    let unmarked_mate = pgn_game("0-1", "normal", "1. f3 e5 2. g4 Qh4 0-1");
    assert!(read_pgn(&unmarked_mate).unwrap_err().contains("Qh4 is Qh4# in SAN"));
    let illegal = pgn_game("1-0", "normal", "1. e5 1-0");
    assert!(read_pgn(&illegal).unwrap_err().contains("move 1: e5"));

    let fails = |pgn: &str, record: Value| {
        let games = read_pgn(pgn).unwrap();
        std::panic::catch_unwind(|| assert_ending_matches(&games[0], &record)).is_err()
    };
    assert!(fails(&mate, record("0-1", "stalemate")), "mate recorded as stalemate");
    assert!(fails(&mate, record("0-1", "resign_adjudication")), "mate recorded as adjudication");
    assert!(fails(&pgn_game("0-1", "normal", "1. e4 e5 0-1"), record("0-1", "checkmate")), "no mate on the board");
    assert!(fails(&pgn_game("1-0", "normal", "1. e4 e5 0-1"), record("1-0", "resign_adjudication")), "two results");
    let draw = pgn_game("1/2-1/2", "adjudication", "1. e4 e5 1/2-1/2");
    assert!(!fails(&draw, record("1/2-1/2", "draw_adjudication")));
    assert!(fails(&draw, record("1/2-1/2", "threefold_repetition")), "no repetition on the board");
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

    let pgn = fs::read_to_string(run.join("games.pgn")).unwrap();
    let games = read_pgn(&pgn).unwrap_or_else(|error| panic!("{error}\n{pgn}"));
    assert_eq!(games.len(), 4);
    let records = records(&run);
    assert_eq!(records.len(), 4);
    for game in &games {
        let record = record_of(&records, game);
        assert_eq!(game.tag("Result").unwrap(), record["result"].as_str().unwrap());
        assert_eq!(game.tag("White").unwrap(), record["white"].as_str().unwrap());
        assert_eq!(game.moves.len() as u64, record["plies"].as_u64().unwrap());
        assert_eq!(game.tag("PlyCount"), Some(game.moves.len().to_string().as_str()));
        assert!(game.tag("FEN").is_some() && game.tag("SetUp") == Some("1"));
        assert_eq!(game.tag("TimeControl"), Some("1+0.01"));
        assert_ending_matches(game, record);
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
    let games = read_pgn(&pgn).unwrap_or_else(|error| panic!("{error}\n{pgn}"));
    assert_eq!(games.len(), 4);
    assert!(games.iter().all(|game| game.moves.is_empty()));
    for game in &games {
        assert_ending_matches(game, record_of(&records, game));
    }
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
#[cfg(unix)]
fn node_odds_give_each_engine_its_own_nodes_a_move() {
    let dir = scratch("odds");
    let book = dir.join("book.epd");
    fs::write(&book, TINY_BOOK).unwrap();
    // Each fake writes down the `go` it is sent, then loses at once.
    let [double, single] = ["double", "single"].map(|name| {
        let log = dir.join(format!("{name}.log"));
        let engine = fake_engine(
            &dir,
            &format!("{name}.sh"),
            &format!("echo \"$line\" >> {}; echo 'bestmove a1a1'", log.display()),
        );
        (engine, log)
    });
    let results = dir.join("results");
    let odds_match = |tc: &str| {
        let binaries = [double.0.display(), single.0.display()].map(|path| path.to_string());
        lab(&[
            "match",
            "double",
            "single",
            "--games",
            "4",
            "--tc",
            tc,
            "--tc-b",
            "N=10000",
            "--binary",
            &format!("double={}", binaries[0]),
            "--binary",
            &format!("single={}", binaries[1]),
            "--results",
            results.to_str().unwrap(),
            "--book",
            book.to_str().unwrap(),
            "--quiet",
        ])
    };
    let output = odds_match("N=20000");
    assert_success(&output);
    // The side to move in the opening moves first and loses at once: one `go`
    // for each engine a pair.
    for ((_, log), go) in [(&double, "go nodes 20000"), (&single, "go nodes 10000")] {
        let sent = fs::read_to_string(log).unwrap();
        assert_eq!(sent.lines().collect::<Vec<_>>(), [go, go], "{}", log.display());
    }
    let run = run_dir(&results);
    assert_eq!(summary(&run)["tc"], "N=20000");
    assert_eq!(summary(&run)["tc_b"], "N=10000");
    assert!(fs::read_to_string(run.join("summary.md"))
        .unwrap()
        .contains("| Time control | N=20000 against N=10000 (odds) |"));

    // Odds on a clock are refused before any game.
    let refused = odds_match("1+0.01");
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("--tc-b: time controls 1+0.01 and N=10000: odds are played at fixed nodes only"),
        "{stderr}"
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[cfg(unix)]
fn a_spent_budget_starts_no_pair_and_the_match_stops_with_budget() {
    let dir = scratch("budget");
    let book = dir.join("book.epd");
    fs::write(&book, TINY_BOOK).unwrap();
    assert_success(&failing_match(&dir, &book, "4", &["--quiet", "--budget", "0s"]));
    let run = run_dir(&dir.join("results"));
    let summary = summary(&run);
    assert_eq!((summary["games"].as_u64(), summary["stop"].as_str()), (Some(0), Some("budget")));
    assert!(fs::read_to_string(run.join("summary.md"))
        .unwrap()
        .contains("the time budget ran out (--resume continues)"));
    // --resume with more time plays the games.
    assert_success(&failing_match(&dir, &book, "4", &["--quiet", "--resume", "--budget", "1h"]));
    let summary = self::summary(&run);
    assert_eq!((summary["games"].as_u64(), summary["stop"].as_str()), (Some(4), Some("games")));

    let bad = failing_match(&dir, &book, "4", &["--budget", "ten minutes"]);
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("--budget <DURATION>"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
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
        (vec!["--binary", &engine, "--alpha", "0.1"], "--sprt [<ELO0> <ELO1>]"),
        (
            vec!["--binary", &engine, "--book", "/nonexistent/book.epd"],
            "cannot read the opening book /nonexistent/book.epd",
        ),
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

/// No book, no suite and no data folder is ever quietly replaced: a match
/// from the start position, or a verdict without its tactics, measures
/// less than was asked.
#[test]
fn missing_data_is_an_error_naming_the_path() {
    let dir = scratch("missing-data");
    let results = dir.join("results");
    let results = results.to_str().unwrap();
    let empty = dir.join("empty");
    fs::create_dir_all(&empty).unwrap();
    let engine = format!("baseline={}", engine());
    let run = |args: &[&str], data: Option<&Path>| {
        let mut line = args.to_vec();
        line.extend(["--results", results, "--quiet"]);
        let output = lab_with_data(&line, data);
        assert!(!output.status.success(), "{line:?} was accepted");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let stderr = run(&["match", "baseline", "baseline", "--binary", &engine], Some(&empty));
    let sample = empty.join("books").join("UHO_4060_v2-4000.epd");
    assert!(
        stderr.contains(&format!("no opening book: {}", empty.join("books").join("UHO_4060_v2.epd").display())),
        "{stderr}"
    );
    assert!(stderr.contains(&sample.display().to_string()) && stderr.contains("give --book FILE"), "{stderr}");
    let stderr = run(&["tactics", "baseline", "--suite", "wac"], Some(&empty));
    let wac = empty.join("suites").join("wac.epd");
    assert!(stderr.contains(&format!("suite `wac`: {} does not exist (PRUNELAB_DATA=", wac.display())), "{stderr}");
    let stderr = run(&["ab", "razor-r1", "--tactics", "arasan"], Some(&empty));
    assert!(stderr.contains("suite `arasan`: ") && stderr.contains("arasan21.epd does not exist"), "{stderr}");
    let nowhere = dir.join("nowhere");
    let stderr = run(&["match", "baseline", "baseline", "--binary", &engine], Some(&nowhere));
    assert!(stderr.contains(&format!("PRUNELAB_DATA={} is not a folder", nowhere.display())), "{stderr}");
    assert!(fs::read_dir(dir.join("results")).map_or(true, |mut runs| runs.next().is_none()), "a run was started");
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
    // `--sprt` alone: `lab ab` reads the variant file's bounds, which
    // probcut's file does not have; `lab match` takes no file's.
    let alone = lab(&["ab", "probcut", "--sprt", "--results", results, "--quiet"]);
    let stderr = String::from_utf8_lossy(&alone.stderr);
    assert!(stderr.contains("the variant file's [sprt], and `probcut` has none"), "{stderr}");
    let alone = lab(&["match", "baseline", "baseline", "--binary", &engine, "--sprt", "--results", results]);
    let stderr = String::from_utf8_lossy(&alone.stderr);
    assert!(stderr.contains("--sprt takes two numbers"), "{stderr}");
    assert!(!dir.join("results").exists(), "no command got as far as a run folder");
    fs::remove_dir_all(&dir).unwrap();
}
