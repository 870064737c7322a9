//! `lab blunders` end to end, with a stand-in referee: a shell script that
//! scores each position from a table by the number of moves played to it,
//! so every judgement, the table printed, the EPD written and a resume are
//! exact, whatever the machine.

use crate::common;

use std::path::{Path, PathBuf};

use common::{executable, lab, records, run_folder, scratch, stdout};

/// A real game: Morphy against the Duke of Brunswick and Count Isouard,
/// Paris 1858 (the "Opera game"), 33 moves, ending in mate. From the lab's
/// folder, where the tests run.
const OPERA_GAME: &str = "tests/data/opera-game.pgn";

/// The stand-in's scores of the Opera game, by moves played: the side to
/// move's score and, where a blunder is played, the referee's move. For
/// White, the scores are +0.30, ... (a plausible course, not Stockfish's):
/// 3...Bg4 (+0.55 to +1.20) and 4...Bxf3 (+1.10 to +2.00) are
/// inaccuracies, 7...Qe7 (+2.30 to +4.20), 9. Bg5 (+4.30 to +2.50) and
/// 9...b5 (+2.50 to +4.20) mistakes, 14. Rd1 (+6.00 to +1.50) and 14...Qe6
/// (+1.50 to +9.00) blunders; from 15...Nxd7 White mates. The position
/// after 17. Rd8# is scored by the rules, not asked.
const OPERA_SCORES: &str = "\
0 cp 30
1 cp -30
2 cp 35
3 cp -30
4 cp 60
5 cp -55
6 cp 120
7 cp -110
8 cp 200
9 cp -190
10 cp 200
11 cp -190
12 cp 230
13 cp -230
14 cp 420
15 cp -410
16 cp 430
17 cp -250
18 cp 420
19 cp -420
20 cp 440
21 cp -430
22 cp 450
23 cp -600
24 cp 600
25 cp -600
26 cp 600 b5d7
27 cp -150 e7b4
28 cp 900
29 cp -800
30 mate 2
31 mate -1
32 mate 1
";

/// A UCI stand-in that answers `go` from `table` (`plies kind value [best]`)
/// and logs the plies it was asked; with `die_at`, it exits when first asked
/// that ply (a marker file makes it do so once).
fn referee(dir: &Path, table: &str, die_at: Option<usize>) -> PathBuf {
    std::fs::write(dir.join("table.txt"), table).unwrap();
    let die = die_at.map_or(String::new(), |ply| {
        format!("if [ \"$plies\" = {ply} ] && [ ! -e \"$dir/died\" ]; then touch \"$dir/died\"; exit 3; fi;")
    });
    let script = dir.join("referee.sh");
    executable(
        &script,
        &format!(
            "#!/bin/sh\ndir='{}'\nwhile read -r line; do case \"$line\" in\n\
             uci) echo 'id name Stand-in referee'; echo 'option name Hash type spin default 16 min 1 max 64'; echo uciok;;\n\
             isready) echo readyok;;\n\
             position*) plies=$(echo \"$line\" | awk '{{n=0; for (i=1;i<=NF;i++) if ($i==\"moves\") n=NF-i; print n}}');;\n\
             go*) {die} echo \"$plies\" >> \"$dir/asked.txt\"; set -- $(awk -v p=\"$plies\" '$1==p {{print $2, $3, $4}}' \"$dir/table.txt\");\n\
             echo \"info depth 3 score $1 $2 nodes 100 pv ${{3:-0000}}\"; echo \"bestmove ${{3:-0000}}\";;\n\
             quit) exit 0;;\n\
             esac; done\n",
            dir.display()
        ),
    );
    script
}

fn asked(dir: &Path) -> Vec<usize> {
    std::fs::read_to_string(dir.join("asked.txt"))
        .unwrap_or_default()
        .lines()
        .map(|line| line.parse().unwrap())
        .collect()
}

#[test]
fn the_opera_game_is_judged_and_its_blunders_are_a_suite() {
    let dir = scratch("blunders-opera");
    let script = referee(&dir, OPERA_SCORES, None);
    let spec = format!("uci:{}", script.display());
    let output = lab(&["blunders", OPERA_GAME, "--referee", &spec, "--depth", "3"], &dir.join("results"));
    let text = stdout(&output);
    assert!(text.starts_with("# lab blunders: 1 game(s) from 1 PGN file(s)\n"), "{text}");
    assert!(text.contains(&format!("Referee: Stand-in referee (`{spec}`), depth 3 a position, Hash 16 MB")), "{text}");
    // One game: no interval. White lost 790 cp over 17 moves, Black 1610
    // over 16 (the scores capped: mate is 10 pawns).
    assert!(
        text.contains("| Duke Karl / Count Isouard | 1 | 16 | 1.00, 1 | 2.00, 2 | 2.00, 2 | 100.6 | - |"),
        "{text}"
    );
    assert!(text.contains("| Paul Morphy | 1 | 17 | 1.00, 1 | 1.00, 1 | 0.00, 0 | 46.5 | - |"), "{text}");
    assert!(text.contains("2 blunder position(s) written to"), "{text}");
    assert!(text.contains("| opera-game.g1.14w | Paul Morphy | 14. Rd1 | Bxd7+ | +6.00 | +1.50 |"), "{text}");
    assert!(
        text.contains("| opera-game.g1.14b | Duke Karl / Count Isouard | 14... Qe6 | Qb4 | -1.50 | -9.00 |"),
        "{text}"
    );
    // Every position but the mate was asked once.
    assert_eq!(asked(&dir), (0..33).collect::<Vec<_>>());

    let run = run_folder(&dir.join("results"), "blunders");
    assert_eq!(records(&run).len(), 33);
    let epd = std::fs::read_to_string(run.join("blunders.epd")).unwrap();
    assert_eq!(
        epd,
        "4kb1r/p2rqppp/5n2/1B2p1B1/4P3/1Q6/PPP2PPP/2K4R w k - bm Bxd7+; am Rd1; hmvc 0; fmvn 14; \
         id \"opera-game.g1.14w\"; c0 \"14. Rd1 by Paul Morphy in tests/data/opera-game.pgn#1: +6.00 to +1.50 for \
         the mover, referee Stand-in referee depth 3\";\n\
         4kb1r/p2rqppp/5n2/1B2p1B1/4P3/1Q6/PPP2PPP/2KR4 b k - bm Qb4; am Qe6; hmvc 1; fmvn 14; \
         id \"opera-game.g1.14b\"; c0 \"14... Qe6 by Duke Karl / Count Isouard in tests/data/opera-game.pgn#1: \
         -1.50 to -9.00 for the mover, referee Stand-in referee depth 3\";\n"
    );
    // The suite reads back as `lab tactics` and `lab blame` read suites.
    let suite = prunelab::epd::read_epd_file(&run.join("blunders.epd")).unwrap();
    assert!(suite.errors.is_empty(), "{:?}", suite.errors);
    let ids: Vec<Option<&str>> = suite.records.iter().map(|record| record.id.as_deref()).collect();
    assert_eq!(ids, [Some("opera-game.g1.14w"), Some("opera-game.g1.14b")]);
    assert!(suite.records.iter().all(|record| record.best_moves.len() == 1 && record.avoid_moves.len() == 1));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn thresholds_are_options_and_are_printed() {
    let dir = scratch("blunders-thresholds");
    let script = referee(&dir, OPERA_SCORES, None);
    let spec = format!("uci:{}", script.display());
    // Mistakes from 0.15, blunders from 0.25: 3...Bg4 (0.117) stays an
    // inaccuracy, 4...Bxf3 (0.153) becomes a mistake, 7...Qe7 (0.249) stays
    // one, 9...b5 (0.2185) too, and 9. Bg5 (0.229) stays a mistake.
    let args = ["blunders", OPERA_GAME, "--referee", &spec, "--mistake", "0.15", "--blunder", "0.25"];
    let text = stdout(&lab(&args, &dir.join("results")));
    assert!(text.contains("0.25 or more a blunder, 0.15 a mistake, 0.1 an inaccuracy"), "{text}");
    assert!(text.contains("| Duke Karl / Count Isouard | 1 | 16 | 1.00, 1 | 3.00, 3 | 1.00, 1 |"), "{text}");
    let error = lab(&["blunders", OPERA_GAME, "--referee", &spec, "--mistake", "0.4"], &dir.join("results"));
    assert!(!error.status.success());
    assert!(String::from_utf8_lossy(&error.stderr).contains("expected 0 < inaccuracy <= mistake <= blunder"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_run_the_referee_broke_off_resumes_with_every_score_kept() {
    let dir = scratch("blunders-resume");
    let script = referee(&dir, OPERA_SCORES, Some(10));
    let spec = format!("uci:{}", script.display());
    let results = dir.join("results");
    let args = ["blunders", OPERA_GAME, "--referee", &spec, "--nodes", "1000"];
    let failed = lab(&args, &results);
    assert!(!failed.status.success());
    let error = String::from_utf8_lossy(&failed.stderr);
    assert!(error.contains("the referee on tests/data/opera-game.pgn#1 after 10 moves"), "{error}");
    assert!(error.contains("--resume"), "{error}");
    let run = run_folder(&results, "blunders");
    assert_eq!(records(&run).len(), 10);

    // Other arguments are refused; the same ones go on from ply 10.
    let other = lab(&["blunders", OPERA_GAME, "--referee", &spec, "--nodes", "2000", "--resume"], &results);
    assert!(!other.status.success());
    let resumed = stdout(&lab(&[&args[..], &["--resume"]].concat(), &results));
    assert!(resumed.contains("| Paul Morphy | 1 | 17 | 1.00, 1 | 1.00, 1 | 0.00, 0 | 46.5 | - |"), "{resumed}");
    assert_eq!(records(&run).len(), 33);
    // Each position asked once: the referee died before answering ply 10.
    assert_eq!(asked(&dir), (0..33).collect::<Vec<_>>());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn games_are_the_unit_of_the_interval_and_book_moves_are_not_judged() {
    let dir = scratch("blunders-two-games");
    // Two short games by the same pair; the first moves are book moves.
    // Game 1: 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6?? 4. Qxf7#; game 2: 1. d4 d5
    // 2. c4 e6, nothing happens. The stand-in scores by moves played, the
    // same in both games: 5 moves in is level, 6 moves in White is winning.
    let pgn = dir.join("two.pgn");
    std::fs::write(
        &pgn,
        "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[TimeControl \"2+0.02\"]\n\n1. e4 {book} e5 {book} 2. Qh5 {+0.10/9 0.1s} \
         Nc6 {-0.10/8 0.1s} 3. Bc4 {+0.20/10 0.1s} Nf6 {-0.10/7 0.1s} 4. Qxf7# {+M1/11 0.1s} 1-0\n\n\
         [White \"b\"]\n[Black \"a\"]\n[Result \"*\"]\n[TimeControl \"1+0.01\"]\n\n1. d4 {book} d5 {book} 2. c4 {0.00/12 0.1s} e6 {-0.10/6 0.1s} *\n",
    )
    .unwrap();
    let table = "0 cp 0\n1 cp 0\n2 cp 0\n3 cp 0\n4 cp 0\n5 cp 0\n6 mate 1 h5f7\n";
    let script = referee(&dir, table, None);
    let spec = format!("uci:{}", script.display());
    let text = stdout(&lab(&["blunders", pgn.to_str().unwrap(), "--referee", &spec], &dir.join("results")));
    assert!(text.starts_with("# lab blunders: 2 game(s) from 1 PGN file(s), at 1+0.01, 2+0.02\n"), "{text}");
    // b blundered once in two games: 0.50, and the bootstrap over the two
    // games gives 0 (both resampled games the second) to 1.
    // Its cp loss: 1000 (capped) over its 3 judged moves.
    assert!(text.contains("| b | 2 | 3 | 0.50 (0.00 to 1.00), 1 | 0.00 (0.00 to 0.00), 0 |"), "{text}");
    // b's depths: 8 and 7 in game 1, 12 in game 2; a's: 9, 10, 11 and 6.
    assert!(text.contains("| 333.3 | 9.0 |"), "{text}");
    assert!(text.contains("| a | 2 | 4 | 0.00 (0.00 to 0.00), 0 |"), "{text}");
    assert!(text.contains("| 0.0 | 9.0 |"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = scratch("blunders-errors");
    let script = referee(&dir, OPERA_SCORES, None);
    let spec = format!("uci:{}", script.display());
    let results = dir.join("results");
    let error_of = |args: &[&str]| {
        let output = lab(args, &results);
        assert!(!output.status.success(), "{args:?} succeeded");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let missing = error_of(&["blunders", "no-such.pgn", "--referee", &spec]);
    assert!(missing.contains("cannot read PGN file") && missing.contains("no-such.pgn"), "{missing}");
    let broken = dir.join("broken.pgn");
    std::fs::write(&broken, "[White \"a\"]\n[Black \"b\"]\n\n1. e4 e5 2. Ke3 *\n").unwrap();
    let illegal = error_of(&["blunders", broken.to_str().unwrap(), "--referee", &spec]);
    assert!(illegal.contains("game 1: move 2. Ke3 is not legal"), "{illegal}");
    let quitter = dir.join("quitter.sh");
    executable(&quitter, "#!/bin/sh\necho 'usage: quitter FILE'\nexit 2\n");
    let handshake = error_of(&["blunders", OPERA_GAME, "--referee", &format!("uci:{}", quitter.display())]);
    assert!(handshake.contains("failed the UCI handshake"), "{handshake}");
    // Nothing was run, so no run folder was left behind.
    assert!(!results.exists() || std::fs::read_dir(&results).unwrap().next().is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A real fastchess PGN: 20 games of `full` (its `id name` of 519
/// characters in fastchess's `EngineWhiteName`/`EngineBlackName` tags)
/// against Stockfish 15.1, made by fastchess 74deac23 with `-engine
/// cmd=target/lab/full/prunelab -engine cmd=/usr/games/stockfish
/// name=stockfish nodes=500 -each proto=uci tc=inf nodes=2000 -rounds 10
/// -games 2 -repeat -openings file=data/books/UHO_4060_v2-4000.epd
/// format=epd order=random -pgnout file=...`.
const FASTCHESS_PGN: &str = "tests/data/fastchess-full-vs-stockfish.pgn";

#[test]
fn a_fastchess_pgn_with_long_tag_lines_is_read_whole() {
    let dir = scratch("blunders-fastchess");
    // A referee that finds every position even: what is checked is the reading.
    let even = dir.join("even.sh");
    executable(
        &even,
        "#!/bin/sh\nwhile read -r line; do case \"$line\" in\n\
         uci) echo 'id name Even referee'; echo uciok;;\n\
         isready) echo readyok;;\n\
         go*) echo 'info depth 1 score cp 0 nodes 1 pv 0000'; echo 'bestmove 0000';;\n\
         quit) exit 0;;\n\
         esac; done\n",
    );
    let spec = format!("uci:{}", even.display());
    let output = lab(&["blunders", FASTCHESS_PGN, "--referee", &spec, "--depth", "1", "--json"], &dir.join("results"));
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let engines: Vec<(&str, u64, u64)> = report["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|engine| {
            (engine["engine"].as_str().unwrap(), engine["games"].as_u64().unwrap(), engine["moves"].as_u64().unwrap())
        })
        .collect();
    assert_eq!(engines, [("prunelab", 20, 848), ("stockfish", 20, 858)]);
    let longest = std::fs::read_to_string(FASTCHESS_PGN).unwrap().lines().map(str::len).max().unwrap();
    assert!(longest > 500, "the file's longest line has {longest} bytes");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The Stockfish of the machine, when there is one.
fn stockfish() -> Option<PathBuf> {
    ["/usr/games/stockfish", "/usr/bin/stockfish", "/usr/local/bin/stockfish"]
        .iter()
        .map(PathBuf::from)
        .find(|path| path.is_file())
}

/// Whether `python3` can import python-chess.
fn python_chess() -> bool {
    std::process::Command::new("python3")
        .args(["-c", "import chess.engine, chess.pgn"])
        .output()
        .is_ok_and(|output| output.status.success())
}

/// `lab blunders` with Stockfish as referee counts what an independent
/// script (python-chess, `tests/data/count_blunders.py`, no code shared)
/// counts by the same definition, on the Opera game. It needs Stockfish
/// and python-chess, which CI does not install.
#[test]
#[ignore = "needs Stockfish and python-chess (apt-get install stockfish; pip install chess): cargo test -p lab --test lab -- --ignored an_independent_count_with_stockfish_agrees"]
fn an_independent_count_with_stockfish_agrees() {
    let stockfish = stockfish().expect("Stockfish on PATH or in /usr/games (apt-get install stockfish)");
    assert!(python_chess(), "python3 cannot import python-chess (pip install chess)");
    let independent = std::process::Command::new("python3")
        .args(["tests/data/count_blunders.py", OPERA_GAME, "10"])
        .arg(&stockfish)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(independent.status.success(), "{}", String::from_utf8_lossy(&independent.stderr));
    let independent: serde_json::Value = serde_json::from_slice(&independent.stdout).unwrap();

    let dir = scratch("blunders-stockfish");
    let referee = format!("uci:{}", stockfish.display());
    let output = lab(&["blunders", OPERA_GAME, "--referee", &referee, "--depth", "10", "--json"], &dir.join("results"));
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let engines = report["engines"].as_array().unwrap();
    assert_eq!(engines.len(), 2);
    for engine in engines {
        let name = engine["engine"].as_str().unwrap();
        let theirs = &independent[name];
        assert_eq!(engine["moves"], theirs["moves"], "{name}");
        for judgement in ["blunders", "mistakes", "inaccuracies"] {
            assert_eq!(engine[judgement]["total"], theirs[judgement], "{name}'s {judgement}");
        }
        // The script rounds to a tenth; the lab keeps every digit.
        let (acpl, their_acpl) = (engine["acpl"].as_f64().unwrap(), theirs["acpl"].as_f64().unwrap());
        assert!((acpl - their_acpl).abs() <= 0.05 + 1e-9, "{name}'s ACPL: {acpl} against {their_acpl}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
