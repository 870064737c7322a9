//! The variant matrix: every variant of `variants/` searches the node-count
//! suite (`ci/node-suite.epd`) to depth 10 from `ucinewgame`, Hash 16, one
//! thread, and the table of nodes, best move, score and technique counters
//! is an insta snapshot, `snapshots/<variant>.snap`. Any change in search
//! behaviour shows up as a snapshot diff; with `CI=true` a missing or
//! changed snapshot fails and nothing is written. Accept a reviewed change
//! with `cargo insta review` (or `INSTA_UPDATE=always cargo test --release
//! --test matrix` and read the git diff).
//!
//! All variants run in this one build: build.rs turns each variant into a
//! technique-set type (`$OUT_DIR/variant_sets.rs`).

use std::fmt::Write;
use std::sync::atomic::AtomicBool;

use prunelab::epd::read_epd_file;
use prunelab::position::{move_to_uci, Position};
use prunelab::search::{uci_score, SearchLimits, SearchResult, Searcher};
use prunelab::stats::{SearchStats, Technique};
use prunelab::techniques::TechniqueSet;
use prunelab::variants::{self, Variant};

const SUITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/ci/node-suite.epd");
const DEPTH: i32 = 10;
const HASH_MB: usize = 16;

type SearchFn = fn(&mut Searcher, &Position, &SearchLimits) -> SearchResult;

fn search_as<T: TechniqueSet>(searcher: &mut Searcher, pos: &Position, limits: &SearchLimits) -> SearchResult {
    searcher.search_with::<T>(pos, limits, &AtomicBool::new(false), &mut |_| {})
}

include!(concat!(env!("OUT_DIR"), "/variant_sets.rs"));

/// Catalogue technique counters as `name attempts/cutoffs`.
const COUNTER_NAMES: [(Technique, &str); 10] = [
    (Technique::Razoring, "razor"),
    (Technique::Futility, "fut"),
    (Technique::FutilityNode, "fut_node"),
    (Technique::MoveCount, "mcp"),
    (Technique::SeePruning, "see_qs"),
    (Technique::ProbCut, "probcut"),
    (Technique::HistoryPruning, "hist"),
    (Technique::Singular, "singular"),
    (Technique::DeltaEnhanced, "delta_enh"),
    (Technique::NullVerification, "nmp_verify"),
];

fn counters(stats: &SearchStats) -> String {
    COUNTER_NAMES
        .iter()
        .filter(|(technique, _)| stats.counters(*technique).attempts > 0)
        .map(|(technique, name)| {
            let counters = stats.counters(*technique);
            format!("{name} {}/{}", counters.attempts, counters.cutoffs)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn suite() -> Vec<(String, Position)> {
    let file = read_epd_file(std::path::Path::new(SUITE)).expect("ci/node-suite.epd is readable");
    assert!(file.errors.is_empty(), "{:?}", file.errors);
    file.records.into_iter().map(|record| (record.id.unwrap_or_default(), Position::from_board(record.board))).collect()
}

/// The snapshot: one line per position, so a diff reads as a table.
fn table(variant: &Variant, search: SearchFn, positions: &[(String, Position)]) -> String {
    let mut out = String::new();
    let features = if variant.features.is_empty() { "none".to_string() } else { variant.features.join(", ") };
    writeln!(out, "variant {}: {}", variant.name(), features).unwrap();
    writeln!(out, "depth {DEPTH}, Hash {HASH_MB}, 1 thread, from ucinewgame").unwrap();
    writeln!(out, "{:<28} | {:>9} | {:<6} | {:<9} | counters", "position", "nodes", "best", "score").unwrap();
    let mut searcher = Searcher::new(HASH_MB);
    let mut total = 0;
    for (id, pos) in positions {
        searcher.new_game();
        let result = search(&mut searcher, pos, &SearchLimits { depth: Some(DEPTH), ..Default::default() });
        total += result.nodes;
        let best = result.best_move.map_or("none".to_string(), |mv| move_to_uci(pos.board(), mv));
        let line = format!(
            "{id:<28} | {:>9} | {best:<6} | {:<9} | {}",
            result.nodes,
            uci_score(result.score),
            counters(&result.stats)
        );
        writeln!(out, "{}", line.trim_end()).unwrap();
    }
    writeln!(out, "{:<28} | {total:>9}", "total").unwrap();
    out
}

#[test]
fn every_variant_has_a_search_and_a_snapshot() {
    let variants = variants::load().expect("variants load");
    let names: Vec<&str> = variants.iter().map(Variant::name).collect();
    let generated: Vec<&str> = VARIANT_SEARCHES.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, generated, "build.rs and variants::load disagree");
}

#[test]
fn matrix_snapshots() {
    let variants = variants::load().expect("variants load");
    let positions = suite();
    // Two workers: every table is independent and deterministic.
    let tables: Vec<(String, String)> = std::thread::scope(|scope| {
        let chunks: Vec<Vec<&Variant>> =
            (0..2).map(|worker| variants.iter().skip(worker).step_by(2).collect()).collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                let positions = &positions;
                scope.spawn(move || {
                    chunk
                        .into_iter()
                        .map(|variant| {
                            let search = VARIANT_SEARCHES
                                .iter()
                                .find(|(name, _)| *name == variant.name())
                                .map(|(_, search)| *search)
                                .expect("a generated search for every variant");
                            (variant.name().to_string(), table(variant, search, positions))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut tables: Vec<_> = handles.into_iter().flat_map(|handle| handle.join().unwrap()).collect();
        tables.sort();
        tables
    });

    // Check every snapshot before failing, so one run shows every diff.
    let mut failed = Vec::new();
    for (name, table) in &tables {
        let outcome = std::panic::catch_unwind(|| {
            insta::with_settings!({
                snapshot_path => "../snapshots",
                prepend_module_to_snapshot => false,
                omit_expression => true,
            }, {
                insta::assert_snapshot!(name.as_str(), table);
            });
        });
        if outcome.is_err() {
            failed.push(name.clone());
        }
    }
    assert!(failed.is_empty(), "snapshots differ or are missing for: {}", failed.join(", "));
}
