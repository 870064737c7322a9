//! `lab atlas` end to end on a stand-in engine (a shell script, nothing is
//! built): the fixed-nodes match path sends `go nodes N`, a finished phase
//! is a line of the atlas file, a phase the atlas has at the same settings
//! is not played again, and `--resume` continues a phase's match with the
//! games it is missing. Every game ends at the first move, so the test is
//! cheap; nothing here depends on timing.

use std::fs;
use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::common;

use common::{executable, records, scratch};

/// Two openings, White to move in both.
const TINY_BOOK: &str = "\
rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3
";

/// A UCI stand-in that logs every `go` to `log`, answers `go nodes 500`
/// with `info string <says>` and an illegal move (so its game ends at once)
/// and exits on any other `go` (a crash, which the records would show).
/// Stand-ins that say different things search differently.
fn stand_in(dir: &Path, log: &Path, says: &str) -> String {
    let path = dir.join(format!("stand-in-{says}.sh"));
    executable(
        &path,
        &format!(
            "#!/bin/sh\n\
             while read -r line; do\n\
               case \"$line\" in\n\
                 uci) echo 'id name stand-in'; echo uciok ;;\n\
                 isready) echo readyok ;;\n\
                 go*) echo \"$line\" >> '{}'\n\
                      if [ \"$line\" = 'go nodes 500' ]; then echo 'info string {says}'; echo 'bestmove a1a1'; \
             else exit 3; fi ;;\n\
                 quit) exit 0 ;;\n\
               esac\n\
             done\n",
            log.display()
        ),
    );
    path.display().to_string()
}

/// `lab atlas VARIANTS --nodes 500 --games 4` on stand-ins that search
/// differently, into `dir`'s atlas file and results folder.
fn atlas(dir: &Path, variants: &[&str], extra: &[&str]) -> Output {
    atlas_on(dir, variants, extra, |name| name.to_string())
}

/// The same, each variant's stand-in saying `says(name)`.
fn atlas_on(dir: &Path, variants: &[&str], extra: &[&str], says: impl Fn(&str) -> String) -> Output {
    let book = dir.join("book.epd");
    fs::write(&book, TINY_BOOK).unwrap();
    let mut args: Vec<String> = vec!["atlas".into()];
    args.extend(variants.iter().map(|name| name.to_string()));
    for name in ["razor-r1", "razor-r2", "p003-3"] {
        let engine = stand_in(dir, &dir.join("go.log"), &says(name));
        args.extend(["--binary".into(), format!("{name}={engine}")]);
    }
    let paths = [("--atlas", dir.join("atlas.jsonl")), ("--book", book)];
    args.extend(paths.iter().flat_map(|(flag, path)| [flag.to_string(), path.display().to_string()]));
    args.extend(["--nodes", "500", "--games", "4"].map(String::from));
    args.extend(extra.iter().map(|arg| arg.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    common::lab_command_saying(&args, &dir.join("results")).output().unwrap()
}

fn success(output: &Output) -> String {
    assert!(output.status.success(), "lab failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn atlas_lines(dir: &Path) -> Vec<Value> {
    fs::read_to_string(dir.join("atlas.jsonl"))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// The atlas run folder under `dir/results` (there is one).
fn atlas_run(dir: &Path) -> std::path::PathBuf {
    let runs: Vec<_> = fs::read_dir(dir.join("results"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.to_string_lossy().ends_with("-atlas"))
        .collect();
    assert_eq!(runs.len(), 1, "{runs:?}");
    runs[0].clone()
}

#[test]
fn fixed_nodes_games_go_to_the_atlas_once_and_resume() {
    let dir = scratch("atlas");
    let log = dir.join("go.log");

    // 1. Two phases at fixed nodes: every search the engines got was `go nodes 500`.
    let said = success(&atlas(&dir, &["razor-r1", "razor-r2"], &[]));
    assert!(said.contains("atlas, phase 1 of 2: razor-r1 against p003-3 at N=500"), "{said}");
    let gos = fs::read_to_string(&log).unwrap();
    // Before each match, both sides search the first opening, differ
    // (their `info string`s), and the match is played.
    assert_eq!(gos.lines().count(), 12, "two searches to compare, then one a game, 4 games a phase: {gos}");
    assert!(gos.lines().all(|line| line == "go nodes 500"), "{gos}");
    let lines = atlas_lines(&dir);
    assert_eq!(lines.len(), 2);
    let first = &lines[0];
    assert_eq!((first["variant"].as_str(), first["parent"].as_str()), (Some("razor-r1"), Some("p003-3")));
    assert_eq!((first["nodes"].as_u64(), first["games"].as_u64()), (Some(500), Some(4)));
    assert_eq!(
        (first["book"].as_str(), first["seed"].as_u64(), first["hash_mb"].as_u64()),
        (Some("book.epd"), Some(1), Some(16))
    );
    assert!(first["features"].as_array().unwrap().contains(&Value::from("razor-r1")));
    assert!(!first["parent_features"].as_array().unwrap().contains(&Value::from("razor-r1")));
    // The mover plays an illegal move and loses, each colour once a pair.
    assert_eq!(first["wdl"], serde_json::json!({"wins": 2, "draws": 0, "losses": 2}));
    assert_eq!(first["penta"], serde_json::json!([0, 0, 2, 0, 0]));
    assert_eq!((first["failures"].as_u64(), first["stop"].as_str()), (Some(4), Some("games")));
    let run = atlas_run(&dir);
    let pgn = fs::read_dir(run.join("razor-r1")).unwrap().next().unwrap().unwrap().path().join("games.pgn");
    let pgn = fs::read_to_string(pgn).unwrap();
    assert!(pgn.contains("[TimeControl \"-\"]\n[Nodes \"500\"]"), "{pgn}");

    // 2. The same settings again, in a new run: nothing is played.
    fs::rename(&run, dir.join("first-run")).unwrap();
    let said = success(&atlas(&dir, &["razor-r1"], &[]));
    assert!(said.contains("razor-r1 against p003-3 is in the atlas already at these settings (4 games"), "{said}");
    assert_eq!(fs::read_to_string(&log).unwrap().lines().count(), 12);
    assert_eq!(atlas_lines(&dir).len(), 2);
    fs::remove_dir_all(atlas_run(&dir)).unwrap();
    fs::rename(dir.join("first-run"), &run).unwrap();

    // 3. As if stopped after razor-r2's second game: the phase unrecorded,
    // not in the atlas, its match holding two games.
    let phases = fs::read_to_string(run.join("records.jsonl")).unwrap();
    fs::write(run.join("records.jsonl"), format!("{}\n", phases.lines().next().unwrap())).unwrap();
    let atlas_text = fs::read_to_string(dir.join("atlas.jsonl")).unwrap();
    fs::write(dir.join("atlas.jsonl"), format!("{}\n", atlas_text.lines().next().unwrap())).unwrap();
    let r2_match = fs::read_dir(run.join("razor-r2")).unwrap().next().unwrap().unwrap().path();
    let games = fs::read_to_string(r2_match.join("records.jsonl")).unwrap();
    let first_two: String = games.lines().take(2).map(|line| format!("{line}\n")).collect();
    fs::write(r2_match.join("records.jsonl"), first_two).unwrap();

    // Other settings do not resume it.
    let refused = atlas(&dir, &["razor-r1", "razor-r2"], &["--seed", "2", "--resume"]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("other arguments"));

    let said = success(&atlas(&dir, &["razor-r1", "razor-r2"], &["--resume"]));
    assert!(said.contains("1 phase(s) finished"), "{said}");
    assert!(said.contains("2 games already played"), "{said}");
    let gos = fs::read_to_string(&log).unwrap().lines().count();
    assert_eq!(gos, 16, "the two searches compared again, and only the two missing games played");
    assert_eq!(records(&r2_match).len(), 4);
    let lines = atlas_lines(&dir);
    assert_eq!(lines.len(), 2);
    assert_eq!((lines[1]["variant"].as_str(), lines[1]["games"].as_u64()), (Some("razor-r2"), Some(4)));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_identical_pair_is_recorded_with_no_game() {
    let dir = scratch("atlas-identical");
    let log = dir.join("go.log");
    // razor-r1 and its parent print the same from every opening.
    let same = |name: &str| if name == "razor-r2" { name.to_string() } else { "same".to_string() };
    let output = atlas_on(&dir, &["razor-r1", "razor-r2"], &[], same);
    let said = success(&output);
    assert!(
        said.contains(
            "atlas: razor-r1 and p003-3 search identically at N=500 from all 2 opening(s) the match would play: \
             recorded with 0 games, not played"
        ),
        "{said}"
    );
    // Both sides searched both openings (4 games: 2 pairs); razor-r2 and
    // razor-r1 differ at the first, then play their 4 games.
    assert_eq!(fs::read_to_string(&log).unwrap().lines().count(), 4 + 2 + 4);
    let lines = atlas_lines(&dir);
    assert_eq!(lines.len(), 2);
    assert_eq!((lines[0]["variant"].as_str(), lines[0]["games"].as_u64()), (Some("razor-r1"), Some(0)));
    assert_eq!((lines[0]["stop"].as_str(), &lines[0]["elo"]), (Some("identical"), &Value::Null));
    assert_eq!((lines[1]["variant"].as_str(), lines[1]["games"].as_u64()), (Some("razor-r2"), Some(4)));
    assert!(!atlas_run(&dir).join("razor-r1").exists(), "no match was started");
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(
        printed.contains("| razor-r1 | p003-3 | 500 | book.epd | 0 | 0 / 0 / 0 | [0, 0, 0, 0, 0] | n/a | n/a | - | identical search |"),
        "{printed}"
    );
    // The atlas has it: not compared or played again.
    fs::remove_dir_all(atlas_run(&dir)).unwrap();
    let said = success(&atlas_on(&dir, &["razor-r1"], &[], same));
    assert!(said.contains("razor-r1 against p003-3 is in the atlas already at these settings (0 games"), "{said}");
    assert_eq!(fs::read_to_string(&log).unwrap().lines().count(), 10);
    fs::remove_dir_all(&dir).unwrap();
}

/// A time-control file of two matches of one pair of searches (neither a
/// variant: `iir-side` is `iir` alone, `bare` no feature) and one other.
const TIME_CONTROLS: &str = r#"
[[match]]
variant = "iir-side"
parent = "bare"
features = ["iir"]
parent_features = []
tc = "2+0.02"
games = 100
elo = { value = 12.0, error = 30.0 }
sprt = { elo0 = 0.0, elo1 = 5.0, alpha = 0.05, beta = 0.05, model = "Normalized" }
llr = 0.5
outcome = "undecided"
date = "2026-11-25"
commits = []
quoted_from = "nowhere.toml"
quote = ["a passage"]

[[match]]
variant = "iir-side"
parent = "bare"
features = ["iir"]
parent_features = []
tc = "8+0.08"
games = 50
elo = { value = -5.0, error = 40.0 }
sprt = { elo0 = 0.0, elo1 = 5.0, alpha = 0.05, beta = 0.05, model = "Normalized" }
llr = -0.1
outcome = "undecided"
date = "2026-11-25"
commits = []
quoted_from = "nowhere.toml"
quote = ["a passage"]

[[match]]
variant = "razor-side"
parent = "bare"
features = ["razor-r1"]
parent_features = []
tc = "2+0.02"
games = 100
elo = { value = 3.0, error = 30.0 }
sprt = { elo0 = 0.0, elo1 = 5.0, alpha = 0.05, beta = 0.05, model = "Normalized" }
llr = 0.1
outcome = "undecided"
date = "2026-11-25"
commits = []
quoted_from = "nowhere.toml"
quote = ["a passage"]
"#;

/// `lab atlas PAIRS --nodes 500 --games 4` on the stand-in, the time-control
/// file beside `dir`'s atlas file.
fn atlas_pairs(dir: &Path, pairs: &[&str]) -> Output {
    let book = dir.join("book.epd");
    fs::write(&book, TINY_BOOK).unwrap();
    fs::write(dir.join("time-controls.toml"), TIME_CONTROLS).unwrap();
    let mut args: Vec<String> = vec!["atlas".into()];
    args.extend(pairs.iter().map(|arg| arg.to_string()));
    for name in ["iir-side", "bare", "razor-side"] {
        let engine = stand_in(dir, &dir.join("go.log"), name);
        args.extend(["--binary".into(), format!("{name}={engine}")]);
    }
    let paths = [("--atlas", dir.join("atlas.jsonl")), ("--book", book)];
    args.extend(paths.iter().flat_map(|(flag, path)| [flag.to_string(), path.display().to_string()]));
    args.extend(["--nodes", "500", "--games", "4"].map(String::from));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    common::lab_command_saying(&args, &dir.join("results")).output().unwrap()
}

#[test]
fn a_time_control_pair_is_played_by_its_feature_sets_once() {
    let dir = scratch("atlas-pairs");
    let output = atlas_pairs(&dir, &["--pair", "iir-side..bare"]);
    let said = success(&output);
    assert!(said.contains("atlas, phase 1 of 1: iir-side against bare at N=500"), "{said}");
    let lines = atlas_lines(&dir);
    assert_eq!(lines.len(), 1);
    assert_eq!((lines[0]["variant"].as_str(), lines[0]["parent"].as_str()), (Some("iir-side"), Some("bare")));
    assert_eq!(
        (&lines[0]["features"], &lines[0]["parent_features"]),
        (&serde_json::json!(["iir"]), &serde_json::json!([]))
    );
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(
        printed.contains(
            "| iir-side | bare | 8+0.08, 50 games | -5.0 ± 40.0 [-45.0, +35.0] | [0, 5] LLR -0.10: undecided | N=500, 4 \
             games | +0.0 ± 17.0 [-17.0, +17.0] | no sign | yes |"
        ),
        "{printed}"
    );
    assert!(
        printed.contains("| razor-side | bare | 2+0.02, 100 games | +3.0 ± 30.0 [-27.0, +33.0] | [0, 5] LLR 0.10: undecided | not played: `lab atlas --pair razor-side..bare --nodes 10000` | - | - | - |"),
        "{printed}"
    );

    // Both of the pair's matches are one phase, in the atlas already.
    fs::rename(atlas_run(&dir), dir.join("first-run")).unwrap();
    let said = success(&atlas_pairs(&dir, &["--time-controls"]));
    assert!(said.contains("atlas, phase 1 of 2: iir-side against bare is in the atlas already"), "{said}");
    assert!(said.contains("atlas, phase 2 of 2: razor-side against bare at N=500"), "{said}");
    assert_eq!(atlas_lines(&dir).len(), 2);

    let unknown = atlas_pairs(&dir, &["--pair", "iir-side..razor-side"]);
    assert!(!unknown.status.success());
    let error = String::from_utf8_lossy(&unknown.stderr);
    assert!(error.contains("--pair iir-side..razor-side: no such match in"), "{error}");
    assert!(error.contains("its pairs: iir-side..bare, razor-side..bare"), "{error}");
    fs::remove_dir_all(&dir).unwrap();
}
