//! Another engine's verdict, without SeaJay and without the network: two
//! `uci:` engines judged in an empty folder outside the repository; a
//! commit variant of a stand-in git repository, each commit built once
//! with the engine's own `make` and judged, then tested on OpenBench with
//! the two commits as dev and base; and a sanity match whose illegal moves
//! open the page. The engines are prunelab's variants build driven as UCI
//! engines (it honours `go nodes`, so the sanity matches are at fixed
//! nodes), and a shell stand-in that plays one move whatever the position.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common;

use common::{scratch, variants_build, VARIANTS_BUILD_VARIABLE};
use test_support::{git, script};

/// `lab` run in `folder` (outside the repository), its home `home`, its
/// results in the folder's `lab-results/`.
fn lab_in(folder: &Path, home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lab"))
        .args(args)
        .current_dir(folder)
        .env("PRUNELAB_HOME", home)
        .env_remove("PRUNELAB_DATA")
        .env_remove(VARIANTS_BUILD_VARIABLE)
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .expect("lab runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// What a successful run printed on stdout; its stderr on failure.
fn printed(output: &Output) -> String {
    assert!(output.status.success(), "lab failed: {}", text(&output.stderr));
    text(&output.stdout)
}

/// The variants build as a UCI engine searching as `variant`.
fn variant_engine(variant: &str) -> String {
    format!("uci:{}@Variant={variant}", variants_build().display())
}

/// A quick verdict: the seeds at depth 3, one time-to-depth round, no
/// tactics, a sanity match of two games.
const QUICK: [&str; 10] =
    ["--suite", "seeds", "--depth", "3", "--ttd-rounds", "1", "--tactics", "none", "--sanity-games", "2"];

#[test]
fn outside_the_repository_two_uci_engines_get_a_verdict_with_the_built_in_suites() {
    let dir = scratch("outside");
    let (folder, home) = (dir.join("empty"), dir.join("home"));
    std::fs::create_dir_all(&folder).unwrap();
    let (a, b) = (variant_engine("p003-3"), variant_engine("razor-r1"));
    let args: Vec<&str> = ["ab", a.as_str(), b.as_str(), "--quiet"].into_iter().chain(QUICK).collect();
    let page = printed(&lab_in(&folder, &home, &args));
    assert!(page.starts_with(&format!("# Verdict: {b} against {a}\n")), "{page}");
    // The sanity match opens the page, at fixed nodes: both engines stop at `go nodes`.
    let findings = page.find("## Findings: the sanity match, 2 games at N=10000").expect(&page);
    assert!(findings < page.find("## What the atlas says").unwrap(), "{page}");
    assert!(
        page.contains(&format!("- `{b}` and `{a}`: no illegal move, crash, time loss or protocol error")),
        "{page}"
    );
    // A binary names no engine: no calibration, and how to make it a variant.
    assert!(page.contains(&format!("No calibration: `{a}` is a binary of no named engine")), "{page}");
    assert!(page.contains("files in `./other-engines/NAME/`"), "{page}");
    assert!(page.contains("## Nodes: seeds at depth 3, depth 3, Hash 16"), "{page}");
    // The suites came from the binary into the home's data folder; the results are here.
    assert!(home.join("data/suites/seeds.epd").is_file());
    assert_eq!(std::fs::read_dir(folder.join("lab-results")).unwrap().count(), 1);
    // prunelab's own variants need its repository.
    let refused = lab_in(&folder, &home, &["ab", "razor-r1", "--quiet"]);
    assert!(!refused.status.success());
    assert!(
        text(&refused.stderr).contains("`p003-3`: prunelab's variants are built from its repository"),
        "{}",
        text(&refused.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A stand-in engine's repository of two commits. Each commit's `make
/// EXE=...` writes a script that answers `bench` with its own node count
/// and otherwise is the variants build searching as that commit's variant:
/// p003-3 at the first commit, razor-r1 at the second.
fn stand_in_repository(dir: &Path) -> (PathBuf, [String; 2]) {
    let repository = dir.join("engine");
    std::fs::create_dir_all(&repository).unwrap();
    git(&repository, &["init", "--quiet"]);
    let commit = |variant: &str, bench: u32| {
        let script = format!(
            "#!/bin/sh\ncase \"$1\" in bench) echo \"{bench} nodes 500000 nps\"; exit 0;; esac\n\
             {{ echo 'setoption name Variant value {variant}'; while read -r line; do echo \"$line\"; \
             [ \"$line\" = quit ] && break; done; }} | exec {}\n",
            variants_build().display()
        );
        std::fs::write(repository.join("engine.sh"), script).unwrap();
        std::fs::write(repository.join("Makefile"), "all:\n\tcp engine.sh $(EXE)\n\tchmod 755 $(EXE)\n").unwrap();
        git(&repository, &["add", "."]);
        git(&repository, &["commit", "--quiet", "-m", variant]);
        git(&repository, &["rev-parse", "HEAD"])
    };
    let first = commit("p003-3", 1000);
    let second = commit("razor-r1", 2000);
    (repository, [first, second])
}

/// The stand-in repository in `folder` and two variants of its engine in
/// `other-engines/stand-in/`: `stand-in-before` at the first commit (its
/// hash shortened, as a file may write it) and `stand-in-after` at the
/// second, `after` added to its file. Returns both commits in full.
fn commit_variants(folder: &Path, after: &str) -> [String; 2] {
    let (_, [first, second]) = stand_in_repository(folder);
    let variants = folder.join("other-engines/stand-in");
    std::fs::create_dir_all(&variants).unwrap();
    let file = |name: &str, description: &str, rest: String| {
        let text = format!(
            "name = \"{name}\"\nengine = \"stand-in\"\ndescription = \"{description}\"\nsource = \"its history\"\n{rest}"
        );
        std::fs::write(variants.join(format!("{name}.toml")), text).unwrap();
    };
    file("stand-in-before", "Before.", format!("repository = \"../../engine\"\ncommit = \"{}\"\n", &first[..10]));
    file("stand-in-after", "After.", format!("extends = \"stand-in-before\"\ncommit = \"{second}\"\n{after}"));
    [first, second]
}

#[test]
fn a_commit_variant_is_built_at_both_commits_once_and_tested_on_openbench_as_dev_and_base() {
    let dir = scratch("commit-variant");
    let (folder, home) = (dir.join("work"), dir.join("home"));
    let [first, second] = commit_variants(&folder, "[sprt]\nbounds = [0, 5]\ntc = \"10+0.1\"\nhash = 8\n");
    let args: Vec<&str> = ["ab", "stand-in-after"].into_iter().chain(QUICK).collect();
    let output = lab_in(&folder, &home, &args);
    let page = printed(&output);
    let said = text(&output.stderr);
    for commit in [&first, &second] {
        assert!(
            said.contains(&format!("building stand-in at commit {} with `make EXE={{out}}`", &commit[..8])),
            "{said}"
        );
    }
    assert!(page.starts_with("# Verdict: stand-in-after against its parent stand-in-before\n"), "{page}");
    assert!(
        page.contains(&format!(
            "- `stand-in-after`: After. (extends `stand-in-before`, adds no options; engine `stand-in` at commit {} with \
             its default options; source: its history)",
            &second[..8]
        )),
        "{page}"
    );
    assert!(page.contains("## Findings: the sanity match, 2 games at N=10000"), "{page}");
    // The engine's own calibration, which has no line yet: the count, and
    // the command that builds it.
    let atlas = home.join("atlas/stand-in/atlas.jsonl");
    assert!(page.contains(&format!("The atlas (`{}`) has 0 variant(s)", atlas.display())), "{page}");
    assert!(page.contains("- to build its calibration: `lab atlas --engine stand-in` plays each"), "{page}");
    assert!(!page.contains("predicts"), "{page}");
    // The two commits search as p003-3 and razor-r1: their nodes differ.
    assert!(!page.contains("the searches are identical"), "{page}");
    // A second run builds nothing.
    let again = lab_in(&folder, &home, &args);
    printed(&again);
    assert!(!text(&again.stderr).contains("building stand-in"), "{}", text(&again.stderr));
    // OpenBench: dev and base are the two commits, each with its own bench.
    let dry = ["openbench", "stand-in-after", "--dry-run", "--repo", "https://github.com/someone/stand-in"];
    let plan = printed(&lab_in(&folder, &home, &[&dry[..], &["--bench-runs", "1", "--quiet"]].concat()));
    for line in [
        format!("dev_branch = {second}\ndev_bench = 2000\n"),
        format!("base_branch = {first}\nbase_bench = 1000\n"),
        "dev_repo = https://github.com/someone/stand-in\n".to_string(),
        "scale_nps = 500000\n".to_string(),
    ] {
        assert!(plan.contains(&line), "{line}\n{plan}");
    }
    assert!(
        plan.starts_with(&format!("# OpenBench tests: stand-in at {} against {}\n", &second[..8], &first[..8])),
        "{plan}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn illegal_moves_in_the_sanity_match_open_the_page() {
    let dir = scratch("sanity-illegal");
    let (folder, home) = (dir.join("work"), dir.join("home"));
    std::fs::create_dir_all(&folder).unwrap();
    // Searches in no time, and plays e2e4 wherever it is.
    let one_move = script(
        &dir,
        "one-move.sh",
        "while read -r line; do case \"$line\" in uci) echo 'id name One move'; echo uciok;; \
         isready) echo readyok;; go*) echo 'info depth 1 score cp 0 nodes 20 pv e2e4'; echo 'bestmove e2e4';; \
         quit) exit 0;; esac; done",
    );
    let (a, b) = (variant_engine("p003-3"), format!("uci:{}", one_move.display()));
    let args: Vec<&str> = ["ab", a.as_str(), b.as_str(), "--quiet"].into_iter().chain(QUICK).collect();
    let output = lab_in(&folder, &home, &args);
    // The games, every one lost by an illegal move, say a loss: exit status 3.
    assert_eq!(output.status.code(), Some(3), "{}", text(&output.stderr));
    let page = text(&output.stdout);
    let findings = page.find("## Findings: the sanity match, 2 games at N=10000\n").expect(&page);
    assert!(
        page.contains(&format!(
            "- **`{b}`: 2 illegal moves** in 2 games, each a lost game: a broken engine, whatever the fast measures say"
        )),
        "{page}"
    );
    assert!(page.contains(&format!("- `{a}`: no illegal move, crash, time loss or protocol error")), "{page}");
    assert!(findings < page.find("## Games: ").unwrap_or(page.len()), "{page}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn decide_refuses_an_engine_that_ignores_go_nodes_unless_given_a_clock() {
    let dir = scratch("decide-go-nodes");
    let (folder, home) = (dir.join("work"), dir.join("home"));
    std::fs::create_dir_all(&folder).unwrap();
    // Asked for 10,000 nodes, it searches 900,000.
    let ignorer = script(
        &dir,
        "ignorer.sh",
        "while read -r line; do case \"$line\" in uci) echo 'id name Ignorer'; echo uciok;; \
         isready) echo readyok;; go*) echo 'info depth 9 score cp 0 nodes 900000 pv e2e4'; echo 'bestmove e2e4';; \
         quit) exit 0;; esac; done",
    );
    let (a, b) = (variant_engine("p003-3"), format!("uci:{}", ignorer.display()));
    let output = lab_in(&folder, &home, &["ab", a.as_str(), b.as_str(), "--decide", "--quiet"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stdout));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("--decide plays at fixed nodes (N=10000), and "), "{stderr}");
    assert!(stderr.contains(": give it a clock, e.g. --tc 2+0.02"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two openings, White to move in both.
const TINY_BOOK: &str = "\
rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3
";

/// The atlas file's lines.
fn lines_of(path: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    text.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

#[test]
fn another_engine_that_ignores_go_nodes_plays_its_atlas_on_a_clock_into_its_own_file() {
    let dir = scratch("engine-atlas-clock");
    let (folder, home) = (dir.join("work"), dir.join("home"));
    let variants = folder.join("other-engines/stand-in");
    std::fs::create_dir_all(&variants).unwrap();
    // Asked for 10,000 nodes it searches 930,000, as SeaJay did; to a
    // depth it searches 2,000 nodes, 1,000 with Fast; on a clock it plays
    // a1a1 at once, so each game ends at its first move.
    let engine = script(
        &dir,
        "ignores-go-nodes.sh",
        "nodes=2000; while read -r line; do case \"$line\" in uci) echo 'id name Stand-in'; \
         echo 'option name Fast type check default false'; echo uciok;; isready) echo readyok;; \
         'setoption name Fast value true') nodes=1000;; \
         'go nodes'*) echo 'info depth 9 nodes 930000'; echo 'bestmove e2e4';; \
         'go depth'*) echo \"info depth 10 score cp 0 nodes $nodes pv e2e4\"; echo 'bestmove e2e4';; \
         go*) echo \"$line\" >> gos.log; echo 'bestmove a1a1';; quit) exit 0;; esac; done",
    );
    let file = |name: &str, extra: &str| {
        let text = format!(
            "name = \"{name}\"\nengine = \"stand-in\"\ndescription = \"A stand-in.\"\nsource = \"a test\"\n{extra}"
        );
        std::fs::write(variants.join(format!("{name}.toml")), text).unwrap();
    };
    file("stand-in-before", "");
    file("stand-in-fast", "extends = \"stand-in-before\"\n[options]\nFast = true\n");
    std::fs::write(folder.join("book.epd"), TINY_BOOK).unwrap();
    let engine_path = format!("stand-in={}", engine.display());
    let prunelab_atlas = folder.join("atlas/atlas.jsonl").display().to_string();
    let atlas = [
        "atlas",
        "--engine",
        "stand-in",
        "--games",
        "2",
        "--book",
        "book.epd",
        "--atlas",
        &prunelab_atlas,
        "--engine-path",
        &engine_path,
    ];
    let output = lab_in(&folder, &home, &atlas);
    let said = text(&output.stderr);
    assert!(output.status.success(), "{said}");
    assert!(said.contains("does not stop at `go nodes 10000` (it searched 930000 nodes), so stand-in-fast against"));
    assert!(said.contains("atlas, phase 1 of 1: stand-in-fast against stand-in-before at 2+0.02"), "{said}");
    // The games were on the clock: no `go nodes` but the probe's.
    let gos = std::fs::read_to_string(folder.join("gos.log")).unwrap();
    assert!(gos.lines().all(|line| line.starts_with("go wtime 2000 btime 2000 winc 20 binc 20")), "{gos}");
    // Into the engine's own file, none into prunelab's.
    assert!(!folder.join("atlas/atlas.jsonl").exists());
    let lines = lines_of(&folder.join("atlas/stand-in/atlas.jsonl"));
    assert_eq!(lines.len(), 1);
    let line = &lines[0];
    assert_eq!((line["variant"].as_str(), line["parent"].as_str()), (Some("stand-in-fast"), Some("stand-in-before")));
    assert_eq!((line["tc"].as_str(), line.get("nodes"), line["games"].as_u64()), (Some("2+0.02"), None, Some(2)));
    let sides = &line["engine"];
    assert_eq!(sides["name"].as_str(), Some("stand-in"));
    // The binary given by path is named by its bytes; each side by its options.
    assert_eq!(sides["variant"]["options"].as_str(), Some("Fast=true"));
    assert_eq!(sides["parent"]["options"].as_str(), Some(""));
    assert_eq!(sides["variant"]["binary"].as_str().map(str::len), Some(16));
    assert_eq!(sides["variant"]["binary"], sides["parent"]["binary"]);
    assert!(sides["variant"].get("commit").is_none());
    let page = text(&output.stdout);
    assert!(page.starts_with("# Atlas at the clock 2+0.02\n"), "{page}");
    // The fast measures, as `lab chain` takes them, beside it: half the
    // nodes; WAC, at fixed nodes, left out.
    let fast = lines_of(&folder.join("atlas/stand-in/fast.jsonl"));
    assert_eq!(fast.len(), 1);
    assert_eq!(fast[0]["engine"], line["engine"]);
    assert!((fast[0]["node_change_pct"].as_f64().unwrap() + 50.0).abs() < 1e-9, "{}", fast[0]);
    assert_eq!(fast[0].get("wac_change"), Some(&serde_json::Value::Null));
    assert_eq!(fast[0]["measured_at"]["depth"].as_u64(), Some(10));
    // Played and measured once: a second run finds both.
    let again = text(&lab_in(&folder, &home, &atlas).stderr);
    assert!(again.contains("is in the atlas already at these settings"), "{again}");
    assert!(again.contains("are in ") && again.contains("already (from "), "{again}");
    assert_eq!(lines_of(&folder.join("atlas/stand-in/atlas.jsonl")).len(), 1);
    assert_eq!(lines_of(&folder.join("atlas/stand-in/fast.jsonl")).len(), 1);
    // One engine a run; prunelab's variants need --nodes and their repository.
    let mixed = lab_in(&folder, &home, &["atlas", "stand-in-fast", "--tc", "N=100", "--engine-path", &engine_path]);
    assert!(
        text(&mixed.stderr).contains("--tc N=100: a clock (e.g. 2+0.02); nodes are --nodes"),
        "{}",
        text(&mixed.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn another_engine_s_commits_that_stop_at_go_nodes_play_their_atlas_at_fixed_nodes() {
    let dir = scratch("engine-atlas-commits");
    let (folder, home) = (dir.join("work"), dir.join("home"));
    let [first, second] = commit_variants(&folder, "");
    std::fs::write(folder.join("book.epd"), TINY_BOOK).unwrap();
    // No --nodes: another engine's variants play at 10,000 nodes a move.
    let atlas = ["atlas", "stand-in-after", "--games", "2", "--book", "book.epd", "--no-fast", "--quiet"];
    printed(&lab_in(&folder, &home, &atlas));
    // Outside a repository the atlas is in the lab's home, beside prunelab's.
    let lines = lines_of(&home.join("atlas/stand-in/atlas.jsonl"));
    assert_eq!(lines.len(), 1);
    let line = &lines[0];
    assert_eq!((line["nodes"].as_u64(), line.get("tc"), line["games"].as_u64()), (Some(10_000), None, Some(2)));
    for (side, commit) in [("variant", &second), ("parent", &first)] {
        assert_eq!(line["engine"][side]["commit"].as_str(), Some(commit.as_str()), "{line}");
        assert_eq!(line["engine"][side]["build"].as_str(), Some("make EXE={out}"), "{line}");
    }
    assert!(!home.join("atlas/atlas.jsonl").exists());
    // `lab ab --decide`'s finished games go to the engine's atlas too.
    let decide = ["ab", "stand-in-after", "--decide", "--tc", "N=500", "--games", "2", "--sprt", "0", "5"];
    let output = lab_in(&folder, &home, &[&decide[..], &QUICK[..]].concat());
    let engine_atlas = home.join("atlas/stand-in/atlas.jsonl");
    let page = text(&output.stdout);
    let kept = format!("These games are a line of the atlas now (`{}`)", engine_atlas.display());
    assert!(page.contains(&kept), "{page}\n{}", text(&output.stderr));
    let lines = lines_of(&engine_atlas);
    assert_eq!((lines.len(), lines[1]["nodes"].as_u64()), (2, Some(500)));
    assert_eq!(lines[1]["engine"], lines[0]["engine"]);
    assert!(!home.join("atlas/atlas.jsonl").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
