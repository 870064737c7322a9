//! End to end: `lab blame` and `lab interactions` build real engines (in
//! the target folder this test was built in, as `tests/lab.rs` does), run
//! them, and must name what they measured.
//!
//! The blame is checked on positions chosen for its three verdicts, with
//! node-level futility (plan 002's 2.1 read as written, the variant
//! `futility-node`: the node returns its static eval when eval + 150 + 60 d
//! <= alpha) against its parent, `p002-1.5`, at 20000 nodes. Node futility
//! cuts every node where the side to move is far behind, so a queen
//! sacrifice is its natural victim: after the queen is taken (ply 2 of the
//! solver's line) the side that wins is a queen down.
//!
//! - **cause**, WAC.004, 1.Qxh7+ Kxh7 2.hxg6+: node futility cuts the node
//!   after 1...Kxh7 in iterations 2 to 5, and with that one decision not
//!   taken (`futility@2`) futility-node plays 1.Qxh7+ (tests/trace.rs
//!   checks the same in the library's search).
//! - **not sufficient**, WAC.001, 1.Qg6: node futility cuts the node after
//!   1...fxg6 too, but the defence that refutes the sacrifice in
//!   futility-node's eyes is another (1...gxf6 and others, whose
//!   refutations it also cuts, off p002-1.5's line): not taking the cut on
//!   the line leaves the move unchanged.
//! - **not a pruning loss**, WAC.014, 1.Qxh7+: no pruning decision of
//!   futility-node's is on p002-1.5's line (1...Kf8); at ply 1 the
//!   opponent's node cuts off on 1...Kxh7 before that reply is reached (B
//!   prunes the refutation of 1...Kxh7, off the line).
//!
//! A fourth position, a back-rank mate, both solve.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use prunelab::position::Position;
use prunelab::search::{SearchLimits, Searcher};
use serde_json::Value;

use crate::common;

use common::{lab, records, run_folder, scratch, stdout};

fn summary(run: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(run.join("summary.json")).unwrap()).unwrap()
}

const SUITE: &str = "\
2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";
r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - bm Qxh7+; id \"WAC.004\";
r2rb1k1/pp1q1p1p/2n1p1p1/2bp4/5P2/PP1BPR1Q/1BPN2PP/R5K1 w - - bm Qxh7+; id \"WAC.014\";
6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id \"back-rank\";
";

#[test]
fn blame_gives_each_verdict_and_proves_the_cause_by_a_replay() {
    let dir = scratch("blame");
    let suite = dir.join("sacrifices.epd");
    std::fs::write(&suite, SUITE).unwrap();
    let suite_arg = suite.to_str().unwrap();
    let results = dir.join("results");
    let args = ["blame", "p002-1.5", "futility-node", "--suite", suite_arg, "--nodes", "20000"];
    let text = stdout(&lab(&args, &results));
    assert!(
        text.contains("| WAC.004 | h6h7 | h6g5 |")
            && text.contains("**cause**: without futility@2, futility-node plays h6h7")
            && text.contains("**not sufficient**: without futility@2 (e5c6), without delta@2 (e5c6)")
            && text.contains("**not a pruning loss**: ordering at ply 1"),
        "{text}"
    );
    assert!(!text.contains("| back-rank |"), "both solve the back-rank mate: {text}");

    let run = run_folder(&results, "blame");
    let found = summary(&run);
    assert_eq!(found["solved"]["p002-1.5"], 4);
    assert_eq!(found["solved"]["futility-node"], 1);
    let blames = found["blames"].as_array().unwrap();
    let ids: Vec<&str> = blames.iter().map(|blame| blame["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["WAC.001", "WAC.004", "WAC.014"]);
    for blame in blames {
        assert_eq!(blame["replay_matches"], true, "the traced replay must search as futility-node did: {blame}");
        assert_eq!(blame["error"], Value::Null, "{blame}");
    }
    let verdicts: Vec<&str> = blames.iter().map(|blame| blame["verdict"].as_str().unwrap()).collect();
    assert_eq!(verdicts, ["not-sufficient", "cause", "not-a-pruning-loss"]);

    // The cause: node futility's cut after 1.Qxh7+ Kxh7, the feature
    // futility-node has and its parent lacks, named first; not taken, B
    // plays the solution.
    let cause = &blames[1];
    let first = &cause["analysis"]["decisions"][0];
    assert_eq!(
        (&first["technique"], &first["features"], &first["ply"], &first["differs"]),
        (&Value::from("futility"), &serde_json::json!(["futility-node"]), &Value::from(2), &Value::from(true)),
        "{first}"
    );
    assert_eq!(first["iterations"], serde_json::json!([2, 3, 4, 5]));
    let event = first["event"].as_str().unwrap();
    assert!(
        event.starts_with(
            "iter=5 ply=2 depth=4 node-pruned futility futility-node | node futility at depth 4: eval -890 + margin"
        ),
        "{event}"
    );
    let tries = cause["tries"].as_array().unwrap();
    assert_eq!(tries.len(), 1);
    assert_eq!(
        (&tries[0]["suppressed"], &tries[0]["played"], &tries[0]["solved"]),
        (&Value::from("futility@2"), &Value::from("h6h7"), &Value::from(true))
    );
    assert!(tries[0]["not_taken"].as_u64().unwrap() >= 1);

    // Not sufficient: the same kind of cut, and both of the line's decisions
    // not taken, one at a time, leave B's move.
    let not_sufficient = &blames[0];
    let decisions = not_sufficient["analysis"]["decisions"].as_array().unwrap();
    let named: Vec<(&Value, &Value, &Value)> =
        decisions.iter().map(|decision| (&decision["technique"], &decision["ply"], &decision["differs"])).collect();
    assert_eq!(
        named,
        [
            (&Value::from("futility"), &Value::from(2), &Value::from(true)),
            (&Value::from("delta"), &Value::from(2), &Value::from(false))
        ]
    );
    let tries = not_sufficient["tries"].as_array().unwrap();
    let tried: Vec<(&str, &str, bool)> = tries
        .iter()
        .map(|tried| {
            (
                tried["suppressed"].as_str().unwrap(),
                tried["played"].as_str().unwrap(),
                tried["solved"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(tried, [("futility@2", "e5c6", false), ("delta@2", "e5c6", false)]);

    // Not a pruning loss: no decision, no replay, the reason and where.
    let not_pruned = &blames[2];
    assert_eq!(not_pruned["analysis"]["decisions"], serde_json::json!([]));
    assert_eq!(not_pruned["tries"], serde_json::json!([]));
    assert_eq!(not_pruned["analysis"]["reason"], "ordering");
    let reason = not_pruned["analysis"]["reason_event"].as_str().unwrap();
    assert!(reason.contains(" ply=1 ") && reason.contains("cut-before search baseline | g8h7 cut off"), "{reason}");

    assert_eq!(
        found["counts"]["verdicts"],
        serde_json::json!({"cause": 1, "not a pruning loss": 1, "not sufficient": 1})
    );
    assert_eq!(found["counts"]["named"]["futility `futility-node`"]["positions"], 2);
    assert_eq!(found["counts"]["causes"]["futility `futility-node`"], 1);
    assert_eq!(found["counts"]["reasons"]["ordering"], 1);

    // Records: both variants' solve records, then the blames with their traces.
    let lines = records(&run);
    assert_eq!(lines.iter().filter(|record| record["stage"] == "solve").count(), 8);
    let blame_record = lines.iter().find(|record| record["stage"] == "blame" && record["id"] == "WAC.004").unwrap();
    assert!(blame_record["trace"]
        .as_array()
        .unwrap()
        .iter()
        .any(|line| line.as_str().unwrap().starts_with("iter=2 ply=2 depth=")));

    // Resumed, nothing is searched again and the verdicts stand.
    stdout(&lab(&[&args[..], &["--resume", run.to_str().unwrap()]].concat(), &results));
    assert_eq!(records(&run).len(), lines.len());
    assert_eq!(summary(&run)["blames"], found["blames"]);

    // One position by its id gives the same verdict; one both solve is
    // one sentence.
    let single = dir.join("single");
    stdout(&lab(&[&args[..], &["--position", "WAC.004"]].concat(), &single));
    let single_summary = summary(&run_folder(&single, "blame"));
    assert_eq!(single_summary["blames"][0]["verdict"], "cause");
    assert_eq!(single_summary["blames"][0]["tries"], cause["tries"]);
    let both = dir.join("both");
    let text = stdout(&lab(&[&args[..], &["--position", "back-rank"]].concat(), &both));
    assert_eq!(
        text.trim(),
        "# lab blame: futility-node against p002-1.5, sacrifices at nodes 20000 per position, Hash 16\n\n\
         back-rank: p002-1.5 and futility-node both solve it (p002-1.5 plays a1a8, futility-node a1a8): there is nothing to blame."
    );
    let unknown = lab(&[&args[..], &["--position", "no-such-id"]].concat(), &single);
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("no position with bm or am whose id is `no-such-id`"));

    // lab report carries the latest blame.
    let report = stdout(&lab(&["report"], &results));
    assert!(
        report.contains("## Blame")
            && report.contains("| cause | 1 |")
            && report.contains("| futility `futility-node` | 2 | 1 |"),
        "{report}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

// The interactions' base, `p003-3`: its features (`prunelab variant-features
// p003-3`), searched by the library.
prunelab::technique_set!(
    P003Phase3,
    [
        "futility-2.4",
        "futility-progressive",
        "futility-effective-depth",
        "futility-tactical-guards",
        "rfp-margin-90",
        "rfp-simple",
        "rfp-progressive",
        "nmp-verify-10",
        "lmp-history",
        "lmp-countermove",
        "delta-enhanced",
        "see-prune-conservative"
    ]
);

/// The nodes of `p003-3`'s search of `fen` to `depth` in the library, from a
/// new game.
fn library_nodes(fen: &str, depth: i32) -> u64 {
    let position = Position::from_fen(fen).unwrap();
    let mut searcher = Searcher::new(16);
    searcher.new_game();
    let limits = SearchLimits { depth: Some(depth), ..Default::default() };
    searcher.search_with::<P003Phase3>(&position, &limits, &AtomicBool::new(false), &mut |_| {}).nodes
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
        "p003-3",
        "--suite",
        suite.to_str().unwrap(),
        "--depth",
        "6",
    ];
    let output = lab(&args, &results);
    let text = stdout(&output);
    // The base and the singles are variants (`razor-r1` is `p003-3` with
    // razor-r1): the variants build searches them; only the pairs are built.
    let said = String::from_utf8_lossy(&output.stderr);
    for variant in ["p003-3", "razor-r1", "razor-sf", "probcut"] {
        assert!(said.contains(&format!("`{variant}` is searched by the variants build")), "{said}");
    }
    assert!(text.contains("- `razor-r1` + `razor-sf`: ") && text.contains("exclusive"), "{text}");

    let run = run_folder(&results, "interactions");
    let lines = records(&run);
    // The base, three singles, two pairs; two positions each.
    assert_eq!(lines.len(), 12);
    assert!(lines.iter().all(|record| record["error"].is_null()), "{lines:?}");
    for (position, fen) in fens.iter().enumerate() {
        let base = lines.iter().find(|record| record["set"] == "p003-3" && record["position"] == position).unwrap();
        assert_eq!(base["nodes"], library_nodes(fen, 6), "{base}");
    }
    let total = |set: &str| -> f64 {
        lines.iter().filter(|record| record["set"] == set).map(|record| record["nodes"].as_u64().unwrap()).sum::<u64>()
            as f64
    };
    let ratio = |set: &str| total(set) / total("p003-3");
    // Each feature acts on these positions at depth 6, or the test shows nothing.
    for single in ["p003-3+razor-r1", "p003-3+razor-sf", "p003-3+probcut"] {
        assert_ne!(total(single), total("p003-3"), "{single} changes no search");
    }
    let found = summary(&run);
    let pairs = found["analysis"]["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 2);
    for (pair, set, first, second) in [
        (&pairs[0], "p003-3+razor-r1+probcut", "p003-3+razor-r1", "p003-3+probcut"),
        (&pairs[1], "p003-3+razor-sf+probcut", "p003-3+razor-sf", "p003-3+probcut"),
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
