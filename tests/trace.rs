//! The `trace` feature: a traced search visits exactly the nodes an
//! untraced one does, on the variant matrix's positions, and records what
//! it decided along the traced line. Run with `--features trace` (ci/test.sh
//! does); without the feature this file has no tests.
#![cfg(feature = "trace")]

use std::path::Path;

use prunelab::matrix::{load_suite, search_as, snapshot_body, table, SearchFn, DEPTH, HASH_MB, SUITE_PATH};
use prunelab::prune::TECHNIQUE_NAMES;
use prunelab::search::{SearchLimits, SearchResult, Searcher};
use prunelab::trace::{Suppression, TraceKind, TraceRequest};

include!(concat!(env!("OUT_DIR"), "/variant_sets.rs"));

/// The variants these tests search, by name: only their searches are
/// compiled (the whole list, `VARIANT_SEARCHES`, would compile every one).
macro_rules! searches {
    ($($name:tt),*) => { [$(($name, search_as::<variant_set!($name)> as SearchFn)),*] };
}
const SEARCHES: [(&str, SearchFn); 6] =
    searches!["baseline", "full", "futility-node", "lmp-skip-quiets", "razor-r2", "razor-r3"];

fn search(variant: &str, pos: &prunelab::position::Position, request: Option<TraceRequest>) -> SearchResult {
    search_within(&SearchLimits { depth: Some(10), ..Default::default() }, variant, pos, request)
}

/// A search from a new game under `limits`, tracing what `request` asks.
fn search_within(
    limits: &SearchLimits,
    variant: &str,
    pos: &prunelab::position::Position,
    request: Option<TraceRequest>,
) -> SearchResult {
    let search = SEARCHES.iter().find(|(name, _)| *name == variant).unwrap().1;
    let mut searcher = Searcher::new(HASH_MB);
    searcher.new_game();
    if let Some(request) = request {
        searcher.set_trace(request);
    }
    search(&mut searcher, pos, limits)
}

/// Traces `line`, suppressing nothing.
fn tracing(line: Vec<prunelab::cozy_chess::Move>) -> Option<TraceRequest> {
    Some(TraceRequest { line, suppressions: Vec::new() })
}

/// A search's line: its best move and the reply it expects.
fn line_of(result: &SearchResult) -> Vec<prunelab::cozy_chess::Move> {
    result.best_move.into_iter().chain(result.ponder_move).collect()
}

#[test]
fn a_traced_search_visits_exactly_the_untraced_nodes() {
    let positions = load_suite(&Path::new(env!("CARGO_MANIFEST_DIR")).join(SUITE_PATH)).unwrap();
    let mut events = 0;
    for variant in ["razor-r3", "full", "lmp-skip-quiets"] {
        for (id, pos) in &positions {
            let plain = search(variant, pos, None);
            assert!(plain.trace.is_empty(), "{variant} {id}: events without a line");
            // The baseline's line: what a blame of `variant` against it traces.
            let reference = search("baseline", pos, None);
            let traced = search(variant, pos, tracing(line_of(&reference)));
            assert_eq!(
                (traced.nodes, traced.best_move, traced.score, &traced.stats),
                (plain.nodes, plain.best_move, plain.score, &plain.stats),
                "{variant} {id}: tracing changed the search"
            );
            for event in &traced.trace {
                assert!(event.ply <= 2 && (1..=10).contains(&event.iteration), "{variant} {id}: {event}");
                // The names a replay suppresses by are the names traces give.
                assert!(
                    event.is_search() || TECHNIQUE_NAMES.contains(&event.technique.as_str()),
                    "{variant} {id}: {event}"
                );
                assert_eq!(event.to_string().parse::<prunelab::trace::TraceEvent>().as_ref(), Ok(event));
            }
            // The root is on every line: each iteration searched or cut it.
            assert!(traced.trace.iter().any(|event| event.ply == 0), "{variant} {id}: nothing at the root");
            events += traced.trace.len();
        }
    }
    // The count of this suite, variants and depth: a trace that lost or
    // gained events would change it.
    assert_eq!(events, 1988, "events traced");
}

/// A constructed cause: node-level futility (plan 002's 2.1 read as
/// written) cuts the node after 1.Qg6 fxg6 of this mate in two (the quiet
/// queen sacrifice taken), where the mating side is a queen down; the
/// baseline finds the mate. The trace names the technique, the feature and
/// the numbers.
#[test]
fn a_pruned_line_names_its_technique_feature_and_numbers() {
    let pos =
        prunelab::position::Position::from_fen("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1").unwrap();
    let reference = search("baseline", &pos, None);
    assert_eq!(prunelab::score::uci_score(reference.score), "mate 2");
    let line = line_of(&reference);
    let traced = search("futility-node", &pos, tracing(line));
    let cut = traced
        .trace
        .iter()
        .find(|event| event.kind == TraceKind::NodePruned && event.feature == "futility-node")
        .unwrap_or_else(|| panic!("no futility-node cut on the line: {:#?}", traced.trace));
    assert_eq!((cut.technique.as_str(), cut.ply), ("futility", 2));
    assert!(cut.detail.starts_with("node futility at depth ") && cut.detail.contains("<= alpha"), "{cut}");
}

/// The queen sacrifice's position and the baseline's mating line: the
/// queen sacrificed, taken, and the bishop's check.
fn queen_sacrifice() -> (prunelab::position::Position, Vec<prunelab::cozy_chess::Move>) {
    let pos =
        prunelab::position::Position::from_fen("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1").unwrap();
    let mut after = pos.clone();
    let line: Vec<_> = ["g3g6", "f7g6", "c2g6"].iter().map(|text| after.play_uci(text).unwrap()).collect();
    assert_eq!(line_of(&search("baseline", &pos, None)), line[..2]);
    (pos, line)
}

fn suppressing(line: &[prunelab::cozy_chess::Move], suppressions: &[&str]) -> Option<TraceRequest> {
    let suppressions = suppressions.iter().map(|text| text.parse::<Suppression>().unwrap()).collect();
    Some(TraceRequest { line: line.to_vec(), suppressions })
}

/// A replay that suppresses nothing, or only techniques that never decide
/// on the line, searches exactly the untraced tree: the suppression is the
/// only thing a replay changes.
#[test]
fn a_replay_with_nothing_suppressed_visits_exactly_the_untraced_nodes() {
    let (pos, line) = queen_sacrifice();
    let plain = search("futility-node", &pos, None);
    for suppressions in [&[][..], &["probcut", "singular@2", "razoring"][..]] {
        let replay = search("futility-node", &pos, suppressing(&line, suppressions));
        assert_eq!(
            (replay.nodes, replay.best_move, replay.score, &replay.stats),
            (plain.nodes, plain.best_move, plain.score, &plain.stats),
            "suppressing {suppressions:?}"
        );
        assert!(replay.trace.iter().all(|event| event.kind != TraceKind::NotTaken), "{suppressions:?}");
    }
}

/// A replay as `lab blame` makes one: razor-r2 (the book's blame example's B)
/// tracing the baseline's line, suppressing nothing.
fn replay_of_razor_r2(
    searcher: &mut Searcher,
    pos: &prunelab::position::Position,
    limits: &SearchLimits,
) -> SearchResult {
    let line = line_of(&search_within(limits, "baseline", pos, None));
    searcher.set_trace(TraceRequest { line, suppressions: Vec::new() });
    let replay = search_as::<variant_set!("razor-r2")>(searcher, pos, limits);
    assert!(!replay.trace.is_empty(), "the replay traced nothing");
    replay
}

/// B's nodes are those of B's own build, without `trace`: its snapshot,
/// which `tests/matrix.rs` takes and `ci/honesty.sh` checks against the
/// feature build. A replay suppressing nothing gives the same table, line
/// for line (nodes, best move, score, counters).
#[test]
fn a_replay_suppressing_nothing_gives_the_untraced_build_s_snapshot() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let positions = load_suite(&root.join(SUITE_PATH)).unwrap();
    let replayed = table("razor-r2", &[], replay_of_razor_r2, &positions, DEPTH, HASH_MB);
    let snapshot = std::fs::read_to_string(root.join("snapshots/razor-r2.snap")).unwrap();
    // The first line names the features, which this table is not given.
    let rows = |table: &str| table.lines().skip(1).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(rows(&replayed), rows(snapshot_body(&snapshot)));
}

/// The counterfactual, on WAC.004 (a queen sacrifice too: 1.Qxh7+ Kxh7
/// 2.hxg6+): at 20000 nodes futility-node plays no solution, because
/// node futility cuts the node after 1.Qxh7+ Kxh7 (ply 2), where the side
/// that mates is a queen down. Not taking that one decision (`futility@2`),
/// and nothing else, it plays 1.Qxh7+, as the baseline does; not taking
/// node futility at ply 1 instead (where it never decides) changes nothing.
#[test]
fn suppressing_the_decision_that_cut_the_line_finds_the_solution() {
    let pos =
        prunelab::position::Position::from_fen("r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1").unwrap();
    let mut after = pos.clone();
    let line: Vec<_> = ["h6h7", "h8h7", "h5g6"].iter().map(|text| after.play_uci(text).unwrap()).collect();
    let limits = SearchLimits { nodes: Some(20_000), ..Default::default() };
    let search = |variant: &str, request: Option<TraceRequest>| search_within(&limits, variant, &pos, request);
    assert_eq!(search("baseline", None).best_move, Some(line[0]));
    let plain = search("futility-node", None);
    assert_ne!(plain.best_move, Some(line[0]));
    let traced = search("futility-node", tracing(line.clone()));
    assert!(
        traced.trace.iter().any(|event| event.kind == TraceKind::NodePruned
            && (event.technique.as_str(), event.feature.as_str(), event.ply) == ("futility", "futility-node", 2)),
        "{:#?}",
        traced.trace
    );
    let replay = search("futility-node", suppressing(&line, &["futility@2"]));
    assert_eq!(replay.best_move, Some(line[0]));
    let not_taken: Vec<_> = replay.trace.iter().filter(|event| event.kind == TraceKind::NotTaken).collect();
    assert!(!not_taken.is_empty());
    for event in not_taken {
        assert_eq!((event.technique.as_str(), event.feature.as_str(), event.ply), ("futility", "futility-node", 2));
    }
    let elsewhere = search("futility-node", suppressing(&line, &["futility@1"]));
    assert_eq!((elsewhere.nodes, elsewhere.best_move), (plain.nodes, plain.best_move));
}

/// Every decision a trace shows can be not taken: on the matrix's
/// positions, for each technique's first decision at each node of the
/// baseline's line (node-level cuts and reductions, the line's move skipped
/// or dropped with the node's quiet moves, or its depth changed), a replay
/// suppressing `technique@ply` searches the same tree up to it, so it meets
/// that decision and records it as not taken, at that node only.
#[test]
fn every_traced_decision_can_be_not_taken() {
    let positions = load_suite(&Path::new(env!("CARGO_MANIFEST_DIR")).join(SUITE_PATH)).unwrap();
    let limits = SearchLimits { depth: Some(8), ..Default::default() };
    let mut replays = Vec::new();
    for variant in ["razor-r3", "full", "lmp-skip-quiets"] {
        for (id, pos) in &positions {
            let line = line_of(&search_within(&limits, "baseline", pos, None));
            let traced = search_within(&limits, variant, pos, tracing(line.clone()));
            let mut suppressions: Vec<(String, &str)> = Vec::new();
            for event in traced.trace.iter().filter(|event| !event.is_search()) {
                let suppression = format!("{}@{}", event.technique, event.ply);
                if !suppressions.iter().any(|(known, _)| *known == suppression) {
                    suppressions.push((suppression, &event.detail));
                }
            }
            for (suppression, detail) in suppressions {
                let replay = search_within(&limits, variant, pos, suppressing(&line, &[suppression.as_str()]));
                let not_taken: Vec<_> = replay.trace.iter().filter(|event| event.kind == TraceKind::NotTaken).collect();
                assert!(!not_taken.is_empty(), "{variant} {id}: {suppression} was never not taken");
                for event in not_taken {
                    assert_eq!(format!("{}@{}", event.technique, event.ply), suppression, "{variant} {id}: {event}");
                }
                replays.push(format!("{variant} {id} {suppression}: {detail}"));
            }
        }
    }
    // Node-level cuts, move skips and quiet drops all come up on these lines.
    for technique in ["razoring@", "move_count@", "futility@", "null_move@", "dropped unpicked"] {
        assert!(replays.iter().any(|replay| replay.contains(technique)), "no {technique} decision: {replays:#?}");
    }
}
