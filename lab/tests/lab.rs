//! End to end: the `lab` binary on small inputs. It builds variants for
//! real (in the target folder this test was built in, so cargo reuses the
//! dependencies), runs their engines, and its numbers must be the engine's
//! own: node counts equal a direct library search.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;

use prunelab::position::{move_to_uci, Position};
use prunelab::search::{SearchLimits, Searcher};

mod common;

// The lab's other integration tests, one module per theme, in this one
// binary: each test binary is linked on its own. Cargo finds no test files
// by itself (`autotests = false`): `every_test_file_is_compiled` below.
mod book;
mod lab_aa;
mod lab_atlas;
mod lab_blunders;
mod lab_explain;
mod lab_interrupt;
mod lab_match;
mod lab_openbench;
mod lab_other_engines;
mod lab_telemetry;
mod lab_tune;
mod lab_uci_options;
mod layout;

use common::{executable, lab, lab_command, lab_command_saying, records, run_folder, scratch, stdout, target_dir};

const TWO_POSITIONS: &str = "\
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - id \"open-game\";
8/8/1p1r1k2/p1pPN1p1/P3KnP1/1P6/8/3R4 b - - id \"zugzwang-endgame\";
";

/// The first three positions of Win At Chess, as the chain test's `wac`
/// suite: a test of its own data, whatever is beside the repository.
const THREE_WAC_POSITIONS: &str = "\
2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";
8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - bm Rxb2; id \"WAC.002\";
5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - bm Rg3; id \"WAC.003\";
";

#[test]
fn nodes_compares_two_variants_with_the_engines_own_counts() {
    let dir = scratch("nodes");
    let suite = dir.join("two.epd");
    std::fs::write(&suite, TWO_POSITIONS).unwrap();
    let results = dir.join("results");
    let suite_arg = suite.to_str().unwrap();
    let text = stdout(&lab(&["nodes", "baseline", "razor-r1", "--suite", suite_arg, "--depth", "5"], &results));
    assert!(
        text.contains("## open-game") && text.contains("## zugzwang-endgame") && text.contains("## Totals"),
        "{text}"
    );

    let run = run_folder(&results, "nodes");
    let found = records(&run);
    assert_eq!(found.len(), 4);
    // The baseline's counts are the library's: same search, same settings.
    for (index, fen) in [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1",
        "8/8/1p1r1k2/p1pPN1p1/P3KnP1/1P6/8/3R4 b - - 0 1",
    ]
    .iter()
    .enumerate()
    {
        let position = Position::from_fen(fen).unwrap();
        let mut searcher = Searcher::new(16);
        searcher.new_game();
        let limits = SearchLimits { depth: Some(5), ..Default::default() };
        let result = searcher.search(&position, &limits, &AtomicBool::new(false), &mut |_| {});
        let record = found.iter().find(|r| r["variant"] == "baseline" && r["position"] == index).unwrap();
        assert_eq!(record["nodes"], result.nodes, "{record}");
        assert_eq!(record["best"], move_to_uci(position.board(), result.best_move.unwrap()));
        assert!(record["error"].is_null());
    }
    let razor = found.iter().find(|r| r["variant"] == "razor-r1").unwrap();
    assert!(razor["telemetry"]["counts"]["razor.att"].is_u64(), "{razor}");

    // Twice the engines, the same results; and a resumed run keeps what it had.
    let again = dir.join("again");
    stdout(&lab(
        &["nodes", "baseline", "razor-r1", "--suite", suite_arg, "--depth", "5", "--concurrency", "2"],
        &again,
    ));
    let parallel = records(&run_folder(&again, "nodes"));
    let key = |r: &serde_json::Value| (r["variant"].to_string(), r["position"].to_string());
    for record in &found {
        let twin = parallel.iter().find(|other| key(other) == key(record)).unwrap();
        for field in ["nodes", "best", "score", "telemetry"] {
            assert_eq!(record[field], twin[field], "{field} differs with --concurrency 2");
        }
    }
    let first_line = std::fs::read_to_string(run.join("records.jsonl")).unwrap().lines().next().unwrap().to_string();
    std::fs::write(run.join("records.jsonl"), format!("{first_line}\n{{\"torn")).unwrap();
    stdout(&lab(
        &["nodes", "baseline", "razor-r1", "--suite", suite_arg, "--depth", "5", "--resume", run.to_str().unwrap()],
        &results,
    ));
    let resumed = records(&run);
    assert_eq!(resumed.len(), 4);
    assert_eq!(resumed[0], serde_json::from_str::<serde_json::Value>(&first_line).unwrap());
    let refused = lab(
        &["nodes", "baseline", "razor-r1", "--suite", suite_arg, "--depth", "6", "--resume", run.to_str().unwrap()],
        &results,
    );
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("other arguments"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tactics_counts_best_and_avoid_moves_and_skips_broken_lines() {
    let dir = scratch("tactics");
    let suite = dir.join("three.epd");
    std::fs::write(
        &suite,
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id \"back-rank\";\n\
         this is not a position\n\
         r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - bm Qxf7#; id \"scholar\";\n\
         rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - am Ke2; id \"avoid\";\n",
    )
    .unwrap();
    let results = dir.join("results");
    let output =
        lab_command_saying(&["tactics", "baseline", "--suite", suite.to_str().unwrap(), "--nodes", "20000"], &results)
            .output()
            .unwrap();
    let text = stdout(&output);
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("line 2 skipped"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(text.contains("| baseline | 3/3 | 2/2 | 1/1 |"), "{text}");
    let found = records(&run_folder(&results, "tactics"));
    assert_eq!(found.len(), 3);
    assert!(found.iter().all(|record| record["solved"] == true && record["solution_nodes"].is_u64()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_gets_a_clear_error() {
    let dir = scratch("errors");
    let unknown = lab(&["nodes", "baseline", "razor-r9"], &dir);
    assert!(!unknown.status.success());
    let message = String::from_utf8_lossy(&unknown.stderr);
    assert!(message.contains("unknown variant `razor-r9`") && message.contains("razor-r1"), "{message}");
    let missing = lab(&["tactics", "baseline", "--suite", "/no/such/suite.epd"], &dir);
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("unknown suite"),
        "{}",
        String::from_utf8_lossy(&missing.stderr)
    );
    let listed = stdout(&lab(&["list"], &dir));
    assert!(
        listed.contains("| razor-r1 | p003-3 | razor-r1 | plan 000, R1 | -5% to -3% nodes at depth 10;"),
        "{listed}"
    );
    // A tuned variant adds its tunable values, not `-`.
    let tuned = listed.lines().find(|line| line.starts_with("| p002-1.6 ")).unwrap();
    assert_eq!(
        tuned.split('|').map(str::trim).take(5).collect::<Vec<_>>(),
        ["", "p002-1.6", "p002-1.5", "ReverseFutilityDepthMargin=93", "plan 002, phase 1.6"],
        "{tuned}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A UCI engine in a few lines of shell: every search reports depth 1 and
/// 4242 nodes and plays e2e4. Enough to take part beside a variant.
const FAKE_ENGINE: &str = "#!/bin/sh
while read -r line; do
  case \"$line\" in
    uci) echo 'id name Fake Engine 1'; echo 'option name Hash type spin default 16 min 1 max 64'; echo uciok;;
    isready) echo readyok;;
    go*) echo 'info string NNUE: not telemetry=1'; echo 'info depth 1 seldepth 1 score cp 7 nodes 4242 time 3 pv e2e4'; echo 'bestmove e2e4';;
    quit) exit 0;;
  esac
done
";

/// [`FAKE_ENGINE`] without `nodes` in its report.
const NODELESS_ENGINE: &str = "#!/bin/sh
while read -r line; do
  case \"$line\" in
    uci) echo 'id name Nodeless 1'; echo uciok;;
    isready) echo readyok;;
    go*) echo 'info depth 1 seldepth 1 score cp 7 time 3 pv e2e4'; echo 'bestmove e2e4';;
    quit) exit 0;;
  esac
done
";

#[test]
fn a_search_without_a_node_count_fails_naming_the_engine_and_position() {
    let dir = scratch("nodeless");
    let suite = dir.join("two.epd");
    std::fs::write(&suite, TWO_POSITIONS).unwrap();
    let engine = dir.join("nodeless");
    executable(&engine, NODELESS_ENGINE);
    let spec = format!("uci:{}", engine.display());
    let results = dir.join("results");
    let text = stdout(&lab(&["nodes", &spec, "--suite", suite.to_str().unwrap(), "--depth", "3"], &results));
    let failed = format!(
        "| {spec} | failed: `{spec}` gave no node count for position open-game \
         (r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1): its last `info depth 1` line has no \
         `nodes`, then `bestmove e2e4` |"
    );
    assert!(text.contains(&failed), "{text}");
    let found = records(&run_folder(&results, "nodes"));
    assert_eq!(found.len(), 2);
    assert!(found.iter().all(|record| record["error"].as_str().unwrap().contains("gave no node count")));
    // No count, no total: not 0 nodes.
    let summary = summary(&results, "nodes");
    assert_eq!(summary["totals"][0]["failures"], 2);
    assert_eq!(summary["totals"][0]["positions"], 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_uci_engine_takes_part_beside_a_variant_and_bad_ones_are_named() {
    let dir = scratch("uci");
    let suite = dir.join("two.epd");
    std::fs::write(&suite, TWO_POSITIONS).unwrap();
    let engine = dir.join("fake-engine");
    executable(&engine, FAKE_ENGINE);
    let results = dir.join("results");
    let fake = format!("uci:{}", engine.display());
    let suite_arg = suite.to_str().unwrap();
    let text = stdout(&lab(&["nodes", "baseline", &fake, "--suite", suite_arg, "--depth", "3"], &results));
    assert!(text.contains(&format!("| {fake} | 4242 |")), "{text}");
    let found = records(&run_folder(&results, "nodes"));
    let fake_records: Vec<_> = found.iter().filter(|record| record["variant"] == fake.as_str()).collect();
    assert_eq!(fake_records.len(), 2);
    for record in fake_records {
        assert_eq!(record["nodes"], 4242);
        assert_eq!(record["best"], "e2e4");
        // Its `info string`s are not read as prunelab's telemetry.
        assert_eq!(record["telemetry"]["counts"], serde_json::json!({}));
    }

    let missing = lab(&["nodes", "baseline", "uci:/no/such/engine", "--suite", suite_arg], &results);
    let message = String::from_utf8_lossy(&missing.stderr);
    assert!(!missing.status.success());
    assert!(message.contains("`uci:/no/such/engine`: /no/such/engine is not a file"), "{message}");
    let not_uci = dir.join("not-an-engine");
    executable(&not_uci, "#!/bin/sh\necho 'this is not chess'\n");
    let spec = format!("uci:{}", not_uci.display());
    let refused = lab(&["nodes", &spec, "--suite", suite_arg, "--depth", "3"], &results);
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(message.contains(&format!("`{spec}` failed the UCI handshake")), "{message}");
    assert!(message.contains("the engine process exited"), "{message}");
    // A match refuses it before any game.
    let refused = lab(&["match", "baseline", &spec, "--games", "2"], &results);
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(message.contains(&format!("`{spec}` failed the UCI handshake")), "{message}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The summary.json of the only run of `command` under `results`.
fn summary(results: &Path, command: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(run_folder(results, command).join("summary.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The only run folder of `command` anywhere under `folder`.
fn nested_run(folder: &Path, command: &str) -> PathBuf {
    let mut found = Vec::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.file_name().unwrap().to_str().unwrap().ends_with(&format!("-{command}")) {
                    found.push(path.clone());
                }
                pending.push(path);
            }
        }
    }
    assert_eq!(found.len(), 1, "{found:?}");
    found.remove(0)
}

/// The geometric mean of B's nodes over A's, position by position, from a
/// nodes run's records: what the verdict must report.
fn geometric_mean_ratio(records: &[serde_json::Value], a: &str, b: &str) -> f64 {
    let nodes = |variant: &str, position: u64| {
        records
            .iter()
            .find(|r| r["variant"] == variant && r["position"] == position)
            .map(|r| r["nodes"].as_f64().unwrap())
            .unwrap()
    };
    let positions: Vec<u64> =
        records.iter().filter(|r| r["variant"] == a).map(|r| r["position"].as_u64().unwrap()).collect();
    let mean_log = positions.iter().map(|&p| (nodes(b, p) / nodes(a, p)).ln()).sum::<f64>() / positions.len() as f64;
    mean_log.exp()
}

#[test]
fn ab_judges_a_variant_against_its_parent_and_says_how_far_two_variants_are() {
    let dir = scratch("ab");
    let suite = dir.join("two.epd");
    std::fs::write(&suite, TWO_POSITIONS).unwrap();
    let suite_arg = suite.to_str().unwrap();
    let results = dir.join("results");
    let small = ["--suite", suite_arg, "--depth", "6", "--ttd-rounds", "2", "--tactics", "none"];
    let page = stdout(&lab(&[&["ab", "razor-r1"][..], &small].concat(), &results));
    assert!(page.starts_with("# Verdict: razor-r1 against its parent p003-3\n"), "{page}");
    assert!(!page.contains("is not a child"), "{page}");
    assert!(page.contains("| measure | p003-3 | razor-r1 | change (95% interval) | claim |"), "{page}");
    assert!(page.contains("| time to depth 6, 2 round(s) interleaved |"), "{page}");
    // Every claim of razor-r1 judged; the node claim on the geometric mean.
    for claim in
        ["-5% to -3% nodes at depth 10 → **", "pvs re% between 0% and 7% → **", "razor cut% between 5% and 10% → **"]
    {
        assert!(page.contains(claim), "{claim} is not judged in\n{page}");
    }
    assert!(
        page.contains("- `variants/razor-r1.toml`: bounds [0, 5] (normalized Elo), tc 10+0.1, Hash 8 MiB"),
        "{page}"
    );
    let verdict = summary(&results, "ab");
    let ab_folder = run_folder(&results, "ab");
    let nodes = records(&nested_run(&ab_folder, "nodes"));
    assert_eq!(nodes.len(), 4);
    let expected = geometric_mean_ratio(&nodes, "p003-3", "razor-r1");
    let reported = verdict["comparison"]["nodes"]["ratio"].as_f64().unwrap();
    assert!((reported - expected).abs() < 1e-12, "{reported} against {expected}");
    let ttd = records(&nested_run(&ab_folder, "ttd"));
    assert_eq!(ttd.len(), 4, "two rounds of two positions");
    assert!(ttd.iter().all(|r| r["times_us"].as_array().unwrap().iter().all(|t| t.as_u64().unwrap() > 0)));
    // The timed searches are the counted ones: same depth, same nodes.
    for record in &ttd {
        let position = &record["position"];
        for (index, variant) in ["p003-3", "razor-r1"].iter().enumerate() {
            let counted = nodes.iter().find(|r| r["variant"] == *variant && r["position"] == *position).unwrap();
            assert_eq!(record["nodes"][index], counted["nodes"], "{variant} at {position}");
        }
    }
    assert!(verdict["comparison"]["time_to_depth"]["ratio"].as_f64().unwrap() > 0.0);

    // The report finds the verdict's runs inside its folder and judges the
    // same claims the same way.
    let report = stdout(&lab(&["report"], &results));
    assert!(report.contains("| razor-r1 | p003-3 | two, 6 | 2 | "), "{report}");
    for claim in verdict["claims"].as_array().unwrap() {
        let row = format!("| razor-r1 | plan 000, R1 | {} |", claim["text"].as_str().unwrap());
        let line = report.lines().find(|line| line.starts_with(&row)).unwrap_or_else(|| panic!("{row} in\n{report}"));
        assert!(line.ends_with(&format!("| {} |", claim["verdict"].as_str().unwrap())), "{line} against {claim}");
    }

    // Two variants that are not parent and child: the first line says how far.
    let far = dir.join("far");
    let page = stdout(&lab(&[&["ab", "baseline", "razor-r1"][..], &small].concat(), &far));
    let second_paragraph = page.split("\n\n").nth(1).unwrap();
    assert!(
        second_paragraph.starts_with(
            "**`razor-r1` is not a child of `baseline`** (its parent is `p003-3`): 20 features lie between them: +"
        ),
        "{page}"
    );
    // Its claims are against its parent, not the baseline.
    assert!(page.contains("claimed against `p003-3`, measured against `baseline`: run `lab ab razor-r1`"), "{page}");
    let orphan = lab(&["ab", "baseline"], &far);
    assert!(String::from_utf8_lossy(&orphan.stderr).contains("`baseline` has no parent"));
    assert_eq!(orphan.status.code(), Some(1), "an error exits 1");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ab_judges_claims_only_on_their_suite_and_depth() {
    let dir = scratch("ab-scope");
    let small = ["--ttd-rounds", "1", "--tactics", "none"];
    let elsewhere = |on: &str| {
        format!("(measured on {on}, claimed on verdict at depth 10: run `lab ab razor-r1 --suite verdict --depth 10`)")
    };
    // One position at the claims' depth: no claim holds or fails, and the
    // verdict stands.
    let startpos = dir.join("startpos");
    let output = lab(&[&["ab", "razor-r1", "--suite", "startpos"][..], &small].concat(), &startpos);
    let page = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{page}");
    for claim in ["-5% to -3% nodes at depth 10", "razor cut% between 5% and 10%", "pvs re% between 0% and 7%"] {
        let line = format!("- {claim} → **not measured** {}", elsewhere("startpos at depth 10"));
        assert!(page.contains(&line), "no `{line}` in\n{page}");
    }
    // A file called verdict.epd is not the verdict suite.
    let named = dir.join("verdict.epd");
    std::fs::write(&named, TWO_POSITIONS).unwrap();
    let results = dir.join("named");
    let args = [&["ab", "razor-r1", "--suite", named.to_str().unwrap(), "--depth", "10"][..], &small].concat();
    let output = lab(&args, &results);
    let page = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{page}");
    let line = format!("- -5% to -3% nodes at depth 10 → **not measured** {}", elsewhere("verdict at depth 10"));
    assert!(page.contains(&line), "no `{line}` in\n{page}");
    assert_eq!(summary(&results, "ab")["claims"][0]["verdict"], "not measured");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ab_decide_plays_games_at_fixed_nodes_until_they_decide_and_the_atlas_keeps_them() {
    let dir = scratch("ab-decide");
    let suite = dir.join("two.epd");
    std::fs::write(&suite, TWO_POSITIONS).unwrap();
    let atlas = dir.join("atlas.jsonl");
    // p002-2.1 (futility) gains about 50 Elo at fixed nodes (the atlas's
    // line); a non-regression SPRT with bounds this wide decides in a few
    // pairs. One game at a time, so the pairs end in order and the
    // SPRT stops where it would on any machine.
    let args = |extra: &[&str]| -> Vec<String> {
        let common = [
            "ab",
            "p002-2.1",
            "--decide",
            "--tc",
            "N=2000",
            "--sprt",
            "-400",
            "0",
            "--suite",
            suite.to_str().unwrap(),
            "--depth",
            "2",
            "--ttd-rounds",
            "1",
            "--tactics",
            "none",
            // The claims' suite (wac), its first position only.
            "--tactics-first",
            "1",
            "--concurrency",
            "1",
            "--atlas",
            atlas.to_str().unwrap(),
        ];
        common.iter().chain(extra).map(|arg| arg.to_string()).collect()
    };
    // The exit status is the claims' (a claim of p002-2.1 at depth 2 may
    // not hold): 0 or 3, never an error.
    let run = |extra: &[&str]| {
        let args = args(extra);
        let output = lab(&args.iter().map(String::as_str).collect::<Vec<_>>(), &dir.join("results"));
        assert!(matches!(output.status.code(), Some(0 | 3)), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stdout).into_owned()
    };

    // A budget spent by the fast measures: no game, undecided, and the way on.
    let page = run(&["--budget", "0s"]);
    let first = page.lines().next().unwrap();
    assert_eq!(first, "# Verdict: p002-2.1 against its parent p002-1.5: undecided after 0 games");
    assert!(
        page.contains("## Decision\n\n**undecided after 0 games**: 0 games (0 pairs) at N=2000: Elo n/a"),
        "{page}"
    );
    assert!(page.contains("An SPRT needs games to say how many more, were the Elo what these games say."), "{page}");
    assert!(
        page.contains(
            "`cargo lab ab p002-2.1 --decide --resume --budget 30m` plays on here; `cargo lab openbench p002-2.1 --tc \
             N=2000 --server URL` plays them on OpenBench."
        ),
        "{page}"
    );
    assert!(page.contains("These games are not in the atlas yet"), "{page}");
    assert!(!atlas.exists());

    // --resume keeps the fast measures and plays on, to the SPRT's decision.
    let page = run(&["--resume", "--budget", "1h"]);
    assert!(page.starts_with("# Verdict: p002-2.1 against its parent p002-1.5: no regression\n"), "{page}");
    assert!(page.contains("## Decision\n\n**no regression**: "), "{page}");
    assert!(page.contains(": H1 accepted."), "{page}");
    let ab = run_folder(&dir.join("results"), "ab");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(nested_run(&ab, "match").join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["stop"], "sprt");
    // One nodes run, kept from the first sitting.
    nested_run(&ab, "nodes");
    // The games are the atlas's line of p002-2.1 at N=2000.
    let lines: Vec<serde_json::Value> =
        std::fs::read_to_string(&atlas).unwrap().lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(lines.len(), 1);
    let line = &lines[0];
    assert_eq!(
        (&line["variant"], &line["parent"], &line["nodes"]),
        (&"p002-2.1".into(), &"p002-1.5".into(), &2000.into())
    );
    assert_eq!((&line["games"], &line["penta"], &line["stop"]), (&summary["games"], &summary["penta"], &"sprt".into()));
    assert_eq!(line["book"], "UHO_4060_v2-4000.epd");
    assert!(page.contains(&format!("These games are a line of the atlas now (`{}`).", atlas.display())), "{page}");
    // The clock estimate needs a doubling of nodes the scratch atlas lacks.
    assert!(
        page.contains(
            "No estimate on the clock: the atlas has no doubling of nodes at N=2000 (`cargo lab atlas --node-odds \
             full --nodes 2000` measures it)."
        ),
        "{page}"
    );

    std::fs::remove_dir_all(&dir).unwrap();
}

/// An OpenBench test of `subject` against `reference` from `book`, read
/// back by `lab openbench status`: 1640 games whose Elo interval lies below
/// 0, its SPRT [0, 5] at `llr` (H0 accepted below -2.94).
fn openbench_result(results: &Path, (subject, reference, book): (&str, &str, &str), llr: f64, finished: bool) {
    let run = results.join("20261126T000000Z-openbench-status");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::write(run.join("run.json"), "{}").unwrap();
    let record = serde_json::json!({
        "subject": subject, "reference": reference, "source": "OpenBench test 7, https://bench.example/test/7/",
        "taken": "20261126T000000Z", "tc": "10+0.1", "book": book,
        "wdl": {"wins": 400, "draws": 600, "losses": 640}, "penta": [100, 250, 350, 100, 20],
        "sprt": {"elo0": 0.0, "elo1": 5.0, "llr": llr, "lower": -2.94, "upper": 2.94},
        "finished": finished, "time_losses": 0, "crashes": 0,
    });
    std::fs::write(run.join("records.jsonl"), format!("{record}\n")).unwrap();
}

#[test]
fn ab_exits_3_when_a_claim_or_the_games_are_against_the_variant_and_0_while_they_are_undecided() {
    let dir = scratch("ab-exit");
    let suite = dir.join("two.epd");
    std::fs::write(&suite, TWO_POSITIONS).unwrap();
    let small = ["--suite", suite.to_str().unwrap(), "--depth", "2", "--ttd-rounds", "1", "--tactics", "none"];
    // razor-r1's claims are against its parent, so against the baseline
    // only the games can stand against it.
    let against_baseline = [&["ab", "baseline", "razor-r1"][..], &small].concat();
    let games_against_baseline = ("razor-r1", "baseline", "UHO_4060_v2.epd");

    // The SPRT accepted H0: no gain, against the variant's plan.
    let lost = dir.join("lost");
    openbench_result(&lost, games_against_baseline, -3.0, true);
    let output = lab(&against_baseline, &lost);
    let page = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(3), "{page}");
    assert!(page.contains("The games (1640 of them, the largest result) say **no gain**."), "{page}");
    let verdict = summary(&lost, "ab");
    assert_eq!(
        (&verdict["games_say"], &verdict["contradicted"]),
        (&serde_json::json!("no gain"), &serde_json::json!(true))
    );

    // Still running, the same games decide nothing, though their interval
    // lies below 0: the verdict stands.
    let running = dir.join("running");
    openbench_result(&running, games_against_baseline, 1.0, false);
    let output = lab(&against_baseline, &running);
    let page = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{page}");
    assert!(page.contains("say **nothing decided yet**."), "{page}");
    assert_eq!(summary(&running, "ab")["contradicted"], false);

    // razor-r3 claims a gain in games from the endgame book against its
    // parent: such games that accepted H0 make the claim not hold, on the
    // page and in summary.json alike.
    let claimed = dir.join("claimed");
    openbench_result(&claimed, ("razor-r3", "razor-r2", "endgames-500.epd"), -3.0, true);
    let output = lab(&[&["ab", "razor-r3"][..], &small, &["--tactics-first", "1"]].concat(), &claimed);
    let page = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(3), "{page}");
    let games_claim =
        "- games against the parent show a gain from the openings of endgames-500.epd → **does not hold** (";
    assert!(page.contains(games_claim), "{page}");
    let verdict = summary(&claimed, "ab");
    let games = verdict["claims"].as_array().unwrap().iter().find(|claim| claim["claim"] == "games").unwrap();
    assert_eq!(games["verdict"], "does not hold");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn chain_runs_each_phase_against_its_parent_counting_each_variant_once() {
    let dir = scratch("chain");
    let suite = dir.join("two.epd");
    std::fs::write(&suite, TWO_POSITIONS).unwrap();
    let engine = dir.join("fake-engine");
    executable(&engine, FAKE_ENGINE);
    let fake = format!("uci:{}", engine.display());
    let results = dir.join("results");
    let data = dir.join("data");
    std::fs::create_dir_all(data.join("suites")).unwrap();
    std::fs::write(data.join("suites").join("wac.epd"), THREE_WAC_POSITIONS).unwrap();
    // The named suites (`wac`) from the test's own data folder, not what is beside the repository.
    let lab = |args: &[&str], results: &Path| {
        lab_command(args, results).env("PRUNELAB_DATA", &data).output().expect("lab runs")
    };
    let args = [
        "chain",
        "p003-3",
        "razor-r2",
        "--suite",
        suite.to_str().unwrap(),
        "--depth",
        "6",
        "--ttd-rounds",
        "2",
        "--tactics",
        "wac",
        "--tactics-first",
        "3",
        "--tactics-nodes",
        "5000",
        "--beside",
        &fake,
    ];
    let page = stdout(&lab(&args, &results));
    assert!(page.starts_with("# lab chain: p003-3 → razor-r1 → razor-r2 (2 phases)\n"), "{page}");
    // The phase table, before the telemetry table beside it.
    let phases = page.split("\n### ").next().unwrap();
    let rows: Vec<&str> =
        phases.lines().filter(|line| line.starts_with("| razor-") || line.starts_with("| uci:")).collect();
    assert_eq!(rows.len(), 3, "{page}");
    assert!(rows[0].starts_with("| razor-r1 | razor-r1 | "), "{}", rows[0]);
    assert!(rows[1].starts_with("| razor-r2 | razor-r2 | "), "{}", rows[1]);
    assert!(rows[1].contains("nodes: ") && rows[1].contains("razor.tactical%: ") && rows[1].contains("wac.solved: "));
    assert!(rows[2].starts_with(&format!("| {fake} (beside razor-r2) | - | ")), "{}", rows[2]);
    assert!(page.contains("### razor-r2 (plan 000, R2), against razor-r1"), "{page}");

    // Each engine counted once: 4 engines on 2 positions; one timing run of all four.
    let chain = run_folder(&results, "chain");
    let nodes = records(&nested_run(&chain, "nodes"));
    assert_eq!(nodes.len(), 8);
    let ttd = records(&nested_run(&chain, "ttd"));
    assert_eq!(ttd.len(), 4, "two rounds of two positions");
    assert!(ttd.iter().all(|record| record["times_us"].as_array().unwrap().len() == 4));
    let tactics = records(&nested_run(&chain, "tactics"));
    assert_eq!(tactics.len(), 12, "three wac positions for four engines");
    let phases = records(&chain);
    assert_eq!(phases.len(), 3);
    let expected = geometric_mean_ratio(&nodes, "razor-r1", "razor-r2");
    let reported = phases[1]["comparison"]["nodes"]["ratio"].as_f64().unwrap();
    assert!((reported - expected).abs() < 1e-12, "{reported} against {expected}");
    assert_eq!(phases[2]["comparison"]["total_nodes"][1], 8484, "the fake engine's 4242 nodes on two positions");

    // Resumed: nothing is searched again, and the table is the same.
    let resumed = stdout(&lab(&[&args[..], &["--resume"]].concat(), &results));
    let table = |text: &str| text.lines().filter(|line| line.starts_with('|')).collect::<Vec<_>>().join("\n");
    assert_eq!(table(&resumed), table(&page));
    assert_eq!(records(&nested_run(&chain, "nodes")).len(), 8);
    assert_eq!(records(&chain).len(), 3);
    let mut deeper = args.to_vec();
    deeper[6] = "7";
    let refused = lab(&[&deeper[..], &["--resume"]].concat(), &results);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("other arguments"));

    // The atlas keeps the phases' fast measures, once; a phase no run
    // measured is named, not invented.
    let atlas = dir.join("atlas").join("atlas.jsonl");
    let keep = ["atlas", "razor-r1", "razor-r2", "razor-r3", "--keep-fast", "--atlas", atlas.to_str().unwrap()];
    let kept = stdout(&lab(&keep, &results));
    assert!(kept.contains("Not measured under ") && kept.ends_with(": razor-r3\n"), "{kept}");
    let lines = |file: &Path| -> Vec<serde_json::Value> {
        let text = std::fs::read_to_string(file).unwrap();
        text.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
    };
    let fast = lines(&dir.join("atlas").join("fast.jsonl"));
    assert_eq!(fast.len(), 2, "{kept}");
    assert_eq!((fast[1]["variant"].as_str(), fast[1]["parent"].as_str()), (Some("razor-r2"), Some("razor-r1")));
    let kept_change = fast[1]["node_change_pct"].as_f64().unwrap();
    assert!((kept_change - (expected - 1.0) * 100.0).abs() < 1e-9, "{kept_change} against {expected}");
    assert_eq!(fast[1]["wac_solved"][2], 3, "three wac positions");
    assert!(fast[1]["source"].as_str().unwrap().ends_with("-chain"), "{}", fast[1]);
    let again = stdout(&lab(&keep, &results));
    assert_eq!(again.matches("| kept already |").count(), 2, "{again}");
    assert_eq!(lines(&dir.join("atlas").join("fast.jsonl")).len(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

// The library's snapdiff, not the binary: the page and the error are what
// `lab snapdiff` prints.
#[test]
fn snapdiff_reads_the_repositorys_snapshots_and_refuses_an_unknown_revision() {
    use lab::snapdiff;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = snapdiff::markdown("HEAD", &snapdiff::diffs(&root, "HEAD").unwrap());
    assert!(text.starts_with("## Snapshots against `HEAD`\n\n"), "{text}");
    let unknown = snapdiff::diffs(&root, "no-such-revision");
    assert!(unknown.is_err());
    let message = format!("{:#}", unknown.unwrap_err());
    assert!(message.contains("`no-such-revision` is not a revision of this repository"), "{message}");
}

#[test]
fn speed_runs_each_variants_bench_in_alternating_order_with_the_engines_own_counts() {
    let dir = scratch("speed");
    let results = dir.join("results");
    let args = ["speed", "baseline", "razor-r1", "--rounds", "2", "--depth", "2"];
    let page = stdout(&lab(&args, &results));
    let run = run_folder(&results, "speed");
    let found = records(&run);
    // In the order they ran: round 0 as given, round 1 reversed.
    let order: Vec<(u64, u64)> =
        found.iter().map(|r| (r["round"].as_u64().unwrap(), r["engine"].as_u64().unwrap())).collect();
    assert_eq!(order, [(0, 0), (0, 1), (1, 1), (1, 0)]);
    let mut bench_nodes = Vec::new();
    for (index, variant) in ["baseline", "razor-r1"].into_iter().enumerate() {
        let runs: Vec<&serde_json::Value> = found.iter().filter(|r| r["engine"] == index).collect();
        for record in &runs {
            assert_eq!(record["variant"], variant);
            assert!(record["error"].is_null(), "{record}");
            assert!(record["nps"].as_u64().unwrap() > 0 && record["wall_us"].as_u64().unwrap() > 0, "{record}");
            // The process's CPU time, at most its wall time (one thread).
            let cpu = record["cpu_us"].as_u64().unwrap();
            assert!(cpu > 0 && cpu <= record["wall_us"].as_u64().unwrap(), "{record}");
        }
        assert_eq!(runs[0]["nodes"], runs[1]["nodes"], "{variant}: the two rounds searched different nodes");
        // The variant's own `Bench:` line, read here without the lab.
        let binary = target_dir().join("lab").join(variant).join("prunelab");
        let output = Command::new(&binary).args(["bench", "2", "--stats"]).output().unwrap();
        let text = String::from_utf8(output.stdout).unwrap();
        let last = text.lines().last().unwrap();
        let nodes: u64 = last.strip_prefix("Bench: ").unwrap().split(' ').next().unwrap().parse().unwrap();
        assert_eq!(runs[0]["nodes"], nodes, "{variant}: {last}");
        // Its quiescence nodes, from its own counters line.
        let counters = text.lines().find(|line| line.starts_with("nodes: total=")).unwrap();
        let qnodes: u64 = counters.split(" qs=").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        assert!(qnodes > 0 && qnodes < nodes, "{counters}");
        assert_eq!(runs[0]["qnodes"], qnodes, "{variant}: {counters}");
        assert_eq!(runs[1]["qnodes"], qnodes, "{variant}: {counters}");
        bench_nodes.push(nodes);
    }
    // The baseline's bench is the library's, and razor-r1 searches another tree.
    let library = prunelab::bench::run_bench(2, false, &mut std::io::sink());
    assert_eq!(bench_nodes[0], library.nodes);
    assert_ne!(bench_nodes[0], bench_nodes[1]);

    assert!(
        page.starts_with("# lab speed: baseline | razor-r1, `prunelab bench 2`, 2 round(s) alternating\n"),
        "{page}"
    );
    assert!(page.contains(&format!("| baseline | {} | ", bench_nodes[0])), "{page}");
    assert!(page.contains(&format!("| razor-r1 | {} | ", bench_nodes[1])), "{page}");
    assert!(page.contains("- nps, razor-r1 over baseline: x") && page.contains(", 2 rounds)\n"), "{page}");
    assert!(page.contains("| variant | bench nodes | quiescence nodes | nps (median) |"), "{page}");
    assert!(page.contains("- nps of main-search nodes only, razor-r1 over baseline: x"), "{page}");
    assert!(!page.contains("not deterministic") && !page.contains("failed"), "{page}");
    assert!(page.contains("cargo profile `labtest` (PRUNELAB_BUILD_PROFILE): its times measure nothing"), "{page}");
    // The ratio is the geometric mean of the two rounds' ratios.
    let nps = |round: u64, engine: u64| {
        let record = found.iter().find(|r| r["round"] == round && r["engine"] == engine).unwrap();
        record["nps"].as_f64().unwrap()
    };
    let expected = (nps(0, 1) / nps(0, 0) * nps(1, 1) / nps(1, 0)).sqrt();
    let ratio = &summary(&results, "speed")["ratios"][0];
    assert_eq!(ratio["rounds"], 2);
    assert!((ratio["nps_ratio"].as_f64().unwrap() - expected).abs() < 1e-12, "{ratio} against {expected}");
    // Counting main-search nodes only scales it by the two node mixes.
    let main_share = |engine: u64| {
        let record = found.iter().find(|r| r["engine"] == engine).unwrap();
        1.0 - record["qnodes"].as_f64().unwrap() / record["nodes"].as_f64().unwrap()
    };
    let main = expected * main_share(1) / main_share(0);
    assert!((ratio["main_search_nps_ratio"].as_f64().unwrap() - main).abs() < 1e-9, "{ratio} against {main}");
    // Nodes per CPU second, round by round, likewise.
    let per_cpu = |round: u64, engine: u64| {
        let record = found.iter().find(|r| r["round"] == round && r["engine"] == engine).unwrap();
        record["nodes"].as_f64().unwrap() / record["cpu_us"].as_f64().unwrap()
    };
    let cpu = (per_cpu(0, 1) / per_cpu(0, 0) * per_cpu(1, 1) / per_cpu(1, 0)).sqrt();
    assert!((ratio["cpu_nps_ratio"].as_f64().unwrap() - cpu).abs() < 1e-12, "{ratio} against {cpu}");
    assert!(page.contains("- nodes per CPU second, razor-r1 over baseline: x"), "{page}");

    // Resumed: nothing runs again.
    stdout(&lab(&[&args[..], &["--resume"]].concat(), &results));
    assert_eq!(records(&run), found);
    // A UCI engine is refused before anything is built.
    let refused = lab(&["speed", "baseline", "uci:/usr/games/stockfish"], &results);
    assert!(!refused.status.success());
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(
        message.contains(
            "`uci:/usr/games/stockfish`: bench speed is measured with prunelab's own `bench` command, so only \
             variants can be compared"
        ),
        "{message}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `ci/check-technique.sh`, copied into a repository of its own with a
/// stand-in `cargo` whose `lab ab` exits with `verdict` and judges the
/// variant's claim `claim` (in its summary.json, as `lab ab` writes it):
/// the script's exit status and what it printed.
fn check_technique(dir: &Path, verdict: i32, claim: &str) -> std::process::Output {
    let repo = dir.join(format!("repo-{verdict}-{}", claim.replace(' ', "-")));
    for folder in ["ci", "src/prune", "variants", "snapshots", "docs"] {
        std::fs::create_dir_all(repo.join(folder)).unwrap();
    }
    for script in ["check-technique.sh", "background.sh"] {
        std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("../ci").join(script), repo.join("ci").join(script))
            .unwrap();
    }
    std::fs::write(repo.join("ci/readme-figures.sh"), "exit 0\n").unwrap();
    std::fs::write(repo.join("ci/make-build.sh"), "exit 0\n").unwrap();
    std::fs::write(repo.join("src/prune/demo.rs"), "//! A demo technique.\n").unwrap();
    std::fs::write(repo.join("variants/demo.toml"), "name = \"demo\"\n\n[expect]\nnodes = \"fewer\"\n").unwrap();
    std::fs::write(repo.join("snapshots/demo.snap"), "demo\n").unwrap();
    std::fs::write(repo.join("docs/variants.md"), "| `demo` | a demo |\n").unwrap();
    let git = |args: &[&str]| {
        let status = std::process::Command::new("git")
            .args(["-c", "user.name=lab", "-c", "user.email=lab@example.com"])
            .args(args)
            .current_dir(&repo)
            .output()
            .unwrap()
            .status;
        assert!(status.success(), "git {args:?}");
    };
    git(&["init", "--quiet"]);
    git(&["add", "."]);
    git(&["commit", "--quiet", "-m", "demo"]);
    let bin = repo.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let verdict_dir = repo.join("lab-results/20261128T000000Z-ab");
    std::fs::create_dir_all(&verdict_dir).unwrap();
    std::fs::write(
        verdict_dir.join("summary.json"),
        format!("{{\n  \"claims\": [\n    {{\n      \"claim\": \"nodes\",\n      \"verdict\": \"{claim}\"\n    }}\n  ]\n}}\n"),
    )
    .unwrap();
    executable(
        &bin.join("cargo"),
        &format!(
            "#!/bin/sh\ncase \"$*\" in *\"lab ab\"*) echo \"the verdict page\"; \
             echo \"verdict: lab-results/20261128T000000Z-ab/summary.md\" >&2; exit {verdict};; esac\nexit 0\n"
        ),
    );
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    std::process::Command::new("bash")
        .arg(repo.join("ci/check-technique.sh"))
        .arg("demo")
        .env("PATH", path)
        .output()
        .unwrap()
}

#[test]
fn check_technique_fails_when_lab_ab_says_the_technique_is_contradicted() {
    let dir = scratch("check-technique");
    let stands = check_technique(&dir, 0, "undecided");
    assert!(stands.status.success(), "{}", String::from_utf8_lossy(&stands.stderr));
    assert!(String::from_utf8_lossy(&stands.stdout).contains("check-technique: demo passed every check"));

    let contradicted = check_technique(&dir, 3, "does not hold");
    let (out, err) = (String::from_utf8_lossy(&contradicted.stdout), String::from_utf8_lossy(&contradicted.stderr));
    assert_eq!(contradicted.status.code(), Some(1), "{out}{err}");
    assert!(out.contains("the verdict page") && !out.contains("passed every check"), "{out}");
    assert!(
        err.contains(
            "check-technique: demo's verdict contradicts it: a claim does not hold or its games are against it (above)"
        ),
        "{err}"
    );

    // An error of `lab ab` is the script's error.
    let failed = check_technique(&dir, 1, "undecided");
    assert_eq!(failed.status.code(), Some(1));
    assert!(!String::from_utf8_lossy(&failed.stderr).contains("contradicts"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_ablation_is_measured_by_name_and_its_fast_measures_kept() {
    let dir = scratch("ablation");
    let suite = dir.join("two.epd");
    std::fs::write(&suite, TWO_POSITIONS).unwrap();
    let results = dir.join("results");
    let small = ["--suite", suite.to_str().unwrap(), "--depth", "4", "--ttd-rounds", "1", "--tactics", "none"];
    // No variant file: the lab makes `full` without razoring, its parent `full`.
    let page = stdout(&lab(&[&["ab", "full-without-razoring"][..], &small].concat(), &results));
    assert!(page.starts_with("# Verdict: full-without-razoring against its parent full\n"), "{page}");
    let nodes = records(&nested_run(&run_folder(&results, "ab"), "nodes"));
    assert_eq!(nodes.len(), 4, "two positions, two searches");
    // Its fast measures are kept for its feature set; the other ablations
    // were not measured, and are named.
    let atlas = dir.join("atlas").join("atlas.jsonl");
    let keep = ["atlas", "--ablate", "full", "--keep-fast", "--atlas", atlas.to_str().unwrap()];
    let kept = stdout(&lab(&keep, &results));
    assert!(kept.contains("| full-without-razoring | full | "), "{kept}");
    assert!(kept.contains("Not measured under ") && kept.contains("full-without-futility"), "{kept}");
    let text = std::fs::read_to_string(dir.join("atlas").join("fast.jsonl")).unwrap();
    let fast: Vec<serde_json::Value> = text.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(fast.len(), 1, "{kept}");
    assert_eq!(fast[0]["variant"], "full-without-razoring");
    let features = fast[0]["features"].as_array().unwrap();
    assert!(!features.iter().any(|feature| feature.as_str().unwrap().starts_with("razor")), "{features:?}");
    assert!(fast[0]["parent_features"].as_array().unwrap().contains(&serde_json::Value::from("razor-r1")));
    assert_eq!(
        (fast[0]["measured_at"]["depth"].as_u64(), fast[0]["measured_at"]["hash"].as_u64()),
        (Some(4), Some(16))
    );
    // From a results folder without its run, the kept ablation is named as
    // kept before, not as unmeasured.
    let elsewhere = stdout(&lab(&keep, &dir.join("other-results")));
    assert!(elsewhere.contains("Kept before, from runs not under ") && elsewhere.contains(": full-without-razoring\n"));
    assert!(!elsewhere.contains(", full-without-razoring") && !elsewhere.contains(": full-without-razoring,"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_technique_fails_when_no_claim_was_judged_at_its_scope() {
    let dir = scratch("check-technique-unjudged");
    let unjudged = check_technique(&dir, 0, "not measured");
    let (out, err) = (String::from_utf8_lossy(&unjudged.stdout), String::from_utf8_lossy(&unjudged.stderr));
    assert_eq!(unjudged.status.code(), Some(1), "{out}{err}");
    assert!(out.contains("the verdict page") && !out.contains("passed every check"), "{out}");
    assert!(
        err.contains(
            "check-technique: demo's verdict judged no claim at its scope: every claim is \"not measured\" \
             (lab-results/20261128T000000Z-ab/summary.json); run `lab ab demo` on the claims' suite and depth \
             (the verdict suite at depth 10 unless a claim names its own)"
        ),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A file of lab/tests/ that is no module here would never be compiled:
/// cargo looks for no test files by itself.
#[test]
fn every_test_file_is_compiled() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    assert_eq!(test_support::uncompiled_test_files(&tests, "lab.rs", &[]), Vec::<String>::new());
}
