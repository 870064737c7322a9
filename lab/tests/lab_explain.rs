//! End to end: `lab blame` and `lab interactions` build real engines (in
//! the target folder this test was built in, as `tests/lab.rs` does), run
//! them, and must name what they measured.
//!
//! The blame is checked on a cause constructed for it: node-level futility
//! (plan 002's 2.1 read as written, the variant `futility-node`) returns
//! the static eval when eval + 150 + 60 d <= alpha. In this mate in two the
//! solution is a quiet queen sacrifice, 1.Qg6; after 1...fxg6 the side that
//! mates is a queen down (static eval -1129), so at ply 2 no margin of node
//! futility comes near alpha: the node must be cut, and the mate with it.
//! Its parent, `p002-1.5`, finds the mate at depth 8; `futility-node` does
//! not.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use prunelab::position::Position;
use prunelab::search::{SearchLimits, Searcher};
use serde_json::Value;

mod common;

use common::{lab, records, run_folder, scratch, stdout};

fn summary(run: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(run.join("summary.json")).unwrap()).unwrap()
}

const QUEEN_SACRIFICE: &str = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - -";

#[test]
fn blame_names_the_constructed_cause() {
    let dir = scratch("blame");
    let suite = dir.join("mate.epd");
    std::fs::write(
        &suite,
        format!(
            "{QUEEN_SACRIFICE} bm Qg6; id \"queen-sacrifice\";\n\
             6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id \"back-rank\";\n"
        ),
    )
    .unwrap();
    let suite_arg = suite.to_str().unwrap();
    let results = dir.join("results");
    let args = ["blame", "p002-1.5", "futility-node", "--suite", suite_arg, "--depth", "8"];
    let text = stdout(&lab(&args, &results));
    assert!(text.contains("| queen-sacrifice | g3g6 |"), "{text}");
    assert!(!text.contains("| back-rank |"), "both solve the back-rank mate: {text}");

    let run = run_folder(&results, "blame");
    let found = summary(&run);
    assert_eq!(found["solved"]["p002-1.5"], 2);
    assert_eq!(found["solved"]["futility-node"], 1);
    let blames = found["blames"].as_array().unwrap();
    assert_eq!(blames.len(), 1);
    let blame = &blames[0];
    assert_eq!(blame["id"], "queen-sacrifice");
    assert_eq!(blame["line"][0], "g3g6");
    assert_eq!(blame["replay_matches"], true, "the traced replay must search as futility-node did: {blame}");
    let verdict = &blame["verdict"];
    assert_eq!(
        (&verdict["cause"], &verdict["technique"], &verdict["feature"]),
        (&Value::from("pruned"), &Value::from("futility"), &Value::from("futility-node")),
        "{verdict}"
    );
    // In the last iteration the line ends in a TT cutoff at ply 1 (the
    // opponent's node after 1.Qg6 fails high on a bound of +1129); the
    // blame follows it back to the search that stored it, in iteration 7,
    // where node futility cut ply 2.
    let event = &verdict["event"];
    assert_eq!(
        (&event["kind"], &event["ply"], &event["iteration"]),
        (&Value::from("node-pruned"), &Value::from(2), &Value::from(7))
    );
    let via = verdict["via"].as_array().unwrap();
    assert_eq!(via.len(), 1, "{verdict}");
    assert_eq!(
        (&via[0]["kind"], &via[0]["ply"], &via[0]["iteration"]),
        (&Value::from("tt-cutoff"), &Value::from(1), &Value::from(8))
    );
    // The numbers compared: a queen down, no margin reaches alpha.
    let detail = event["detail"].as_str().unwrap();
    assert!(detail.starts_with("node futility at depth ") && detail.contains("eval -1129 + margin"), "{detail}");
    assert_eq!(verdict["completed_depth"], 8);
    assert_eq!(verdict["searched_past_later"], Value::Array(Vec::new()));
    assert_eq!(found["counts"]["technique"]["futility"], 1);
    assert_eq!(found["counts"]["feature"]["futility futility-node"], 1);

    // Records: both variants' solve records, then the blame with its trace.
    let lines = records(&run);
    assert_eq!(lines.iter().filter(|record| record["stage"] == "solve").count(), 4);
    let blame_record = lines.iter().find(|record| record["stage"] == "blame").unwrap();
    assert!(blame_record["trace"]
        .as_array()
        .unwrap()
        .iter()
        .any(|line| line.as_str().unwrap().starts_with("iter=7 ply=2 depth=3 node-pruned futility futility-node")));

    // Resumed, nothing is searched again and the verdict stands.
    stdout(&lab(&[&args[..], &["--resume", run.to_str().unwrap()]].concat(), &results));
    assert_eq!(records(&run).len(), lines.len());
    assert_eq!(summary(&run)["blames"], found["blames"]);

    // One position by its id gives the same verdict.
    let single = dir.join("single");
    stdout(&lab(&[&args[..], &["--position", "queen-sacrifice"]].concat(), &single));
    let single_summary = summary(&run_folder(&single, "blame"));
    assert_eq!(single_summary["blames"][0]["verdict"], *verdict);
    let unknown = lab(&[&args[..], &["--position", "no-such-id"]].concat(), &single);
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("no position with bm or am whose id is `no-such-id`"));

    // lab report carries the latest blame.
    let report = stdout(&lab(&["report"], &results));
    assert!(report.contains("## Blame") && report.contains("| futility `futility-node` | 1 |"), "{report}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The library's own search, to the same depth from a new game: the default
/// build is the baseline, the base of the interactions test.
fn library_nodes(fen: &str, depth: i32) -> u64 {
    let position = Position::from_fen(fen).unwrap();
    let mut searcher = Searcher::new(16);
    searcher.new_game();
    let limits = SearchLimits { depth: Some(depth), ..Default::default() };
    searcher.search(&position, &limits, &AtomicBool::new(false), &mut |_| {}).nodes
}

#[test]
fn interactions_measure_singles_and_pairs_and_skip_exclusive_pairs() {
    let dir = scratch("interactions");
    let suite = dir.join("two.epd");
    // Two of the node-count suite's positions, where each feature acts at depth 6.
    let fens = [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1",
        "r1b1k2r/pp4pp/3Bpp2/3p4/6q1/8/PQ3PPP/1R2R1K1 w kq - 0 1",
    ];
    std::fs::write(&suite, format!("{}\n{}\n", fens[0], fens[1])).unwrap();
    let results = dir.join("results");
    let args = [
        "interactions",
        "razor-r1",
        "razor-sf",
        "probcut",
        "--on",
        "baseline",
        "--suite",
        suite.to_str().unwrap(),
        "--depth",
        "6",
    ];
    let text = stdout(&lab(&args, &results));
    assert!(text.contains("- `razor-r1` + `razor-sf`: ") && text.contains("exclusive"), "{text}");

    let run = run_folder(&results, "interactions");
    let lines = records(&run);
    // The base, three singles, two pairs; two positions each.
    assert_eq!(lines.len(), 12);
    assert!(lines.iter().all(|record| record["error"].is_null()), "{lines:?}");
    for (position, fen) in fens.iter().enumerate() {
        let base = lines.iter().find(|record| record["set"] == "baseline" && record["position"] == position).unwrap();
        assert_eq!(base["nodes"], library_nodes(fen, 6), "{base}");
    }
    let total = |set: &str| -> f64 {
        lines.iter().filter(|record| record["set"] == set).map(|record| record["nodes"].as_u64().unwrap()).sum::<u64>()
            as f64
    };
    let ratio = |set: &str| total(set) / total("baseline");
    // Each feature acts on these positions at depth 6, or the test shows nothing.
    for single in ["baseline+razor-r1", "baseline+razor-sf", "baseline+probcut"] {
        assert_ne!(total(single), total("baseline"), "{single} changes no search");
    }
    let found = summary(&run);
    let pairs = found["analysis"]["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 2);
    for (pair, set, first, second) in [
        (&pairs[0], "baseline+razor-r1+probcut", "baseline+razor-r1", "baseline+probcut"),
        (&pairs[1], "baseline+razor-sf+probcut", "baseline+razor-sf", "baseline+probcut"),
    ] {
        let expected = ratio(set) / (ratio(first) * ratio(second)) - 1.0;
        assert!((pair["interaction"].as_f64().unwrap() - expected).abs() < 1e-12, "{pair} against {expected}");
    }
    assert_eq!(found["skipped"][0]["pair"], serde_json::json!(["razor-r1", "razor-sf"]));
    let svg = std::fs::read_to_string(run.join("interactions.svg")).unwrap();
    for text in ["razor-r1", "razor-sf", "probcut", "skipped", "alone "] {
        assert!(svg.contains(text), "the heat map lacks {text}");
    }

    // Resumed, nothing is searched again.
    stdout(&lab(&[&args[..], &["--resume", run.to_str().unwrap()]].concat(), &results));
    assert_eq!(records(&run).len(), 12);
    let report = stdout(&lab(&["report"], &results));
    assert!(report.contains("## Feature interactions") && report.contains("/interactions.svg)"), "{report}");
    std::fs::remove_dir_all(&dir).unwrap();
}
