//! The `trace` feature: a traced search visits exactly the nodes an
//! untraced one does, on the variant matrix's positions, and records what
//! it decided along the traced line. Run with `--features trace` (ci/test.sh
//! does); without the feature this file has no tests.
#![cfg(feature = "trace")]

use std::path::Path;

use prunelab::matrix::{load_suite, search_as, SearchFn, HASH_MB, SUITE_PATH};
use prunelab::search::{SearchLimits, SearchResult, Searcher};
use prunelab::trace::TraceKind;

include!(concat!(env!("OUT_DIR"), "/variant_sets.rs"));

/// The variants these tests search, by name: only their searches are
/// compiled (the whole list, `VARIANT_SEARCHES`, would compile every one).
macro_rules! searches {
    ($($name:tt),*) => { [$(($name, search_as::<variant_set!($name)> as SearchFn)),*] };
}
const SEARCHES: [(&str, SearchFn); 5] = searches!["baseline", "full", "futility-node", "lmp-skip-quiets", "razor-r3"];

fn search(
    variant: &str,
    pos: &prunelab::position::Position,
    line: Option<Vec<prunelab::cozy_chess::Move>>,
) -> SearchResult {
    let search = SEARCHES.iter().find(|(name, _)| *name == variant).unwrap().1;
    let mut searcher = Searcher::new(HASH_MB);
    searcher.new_game();
    if let Some(line) = line {
        searcher.set_trace_line(line);
    }
    search(&mut searcher, pos, &SearchLimits { depth: Some(10), ..Default::default() })
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
            let traced = search(variant, pos, Some(line_of(&reference)));
            assert_eq!(
                (traced.nodes, traced.best_move, traced.score, &traced.stats),
                (plain.nodes, plain.best_move, plain.score, &plain.stats),
                "{variant} {id}: tracing changed the search"
            );
            for event in &traced.trace {
                assert!(event.ply <= 2 && (1..=10).contains(&event.iteration), "{variant} {id}: {event}");
            }
            // The root is on every line: each iteration searched or cut it.
            assert!(traced.trace.iter().any(|event| event.ply == 0), "{variant} {id}: nothing at the root");
            events += traced.trace.len();
        }
    }
    assert!(events > 100, "{events} events");
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
    assert_eq!(prunelab::search::uci_score(reference.score), "mate 2");
    let line = line_of(&reference);
    let traced = search("futility-node", &pos, Some(line));
    let cut = traced
        .trace
        .iter()
        .find(|event| event.kind == TraceKind::NodePruned && event.feature == "futility-node")
        .unwrap_or_else(|| panic!("no futility-node cut on the line: {:#?}", traced.trace));
    assert_eq!((cut.technique, cut.ply), ("futility", 2));
    assert!(cut.detail.starts_with("node futility at depth ") && cut.detail.contains("<= alpha"), "{cut}");
}
