//! The variant matrix: every variant of `variants/` searches the node-count
//! suite (`data/suites/node-suite.epd`) to depth 10 from `ucinewgame`, Hash 16, one
//! thread, and the table of nodes, best move, score and technique counters
//! is an insta snapshot, `snapshots/<variant>.snap`. Any change in search
//! behaviour shows up as a snapshot diff; with `CI=true` a missing or
//! changed snapshot fails and nothing is written. Accept a reviewed change
//! with `cargo insta review` (or `INSTA_UPDATE=always cargo test --release
//! --test matrix` and read the git diff).
//!
//! All variants run in this one build: build.rs turns each variant into a
//! technique-set type (`$OUT_DIR/variant_sets.rs`). The table itself is
//! `prunelab::matrix::table`, which `prunelab matrix` prints too, so
//! `ci/honesty.sh` can check a feature-built binary against these snapshots.

use std::path::Path;

use prunelab::matrix::{load_suite, table, DEPTH, HASH_MB, SUITE_PATH};

// The lab's snapshot diff (`lab snapdiff`), which uses only `std` and the engine.
#[path = "../lab/src/verdicts/table_diff.rs"]
#[allow(dead_code)]
mod table_diff;
use prunelab::variants::{self, Value, Variant};
use table_diff::{diff_summary, diff_tables};

include!(concat!(env!("OUT_DIR"), "/variant_sets.rs"));

// The telemetry lines of two variants' searches, which need these sets too.
#[path = "matrix/telemetry.rs"]
mod telemetry;

#[test]
fn every_variant_has_a_search_and_a_snapshot() {
    let variants = variants::load().expect("variants load");
    let names: Vec<&str> = variants.iter().map(Variant::name).collect();
    let generated: Vec<&str> = VARIANT_SEARCHES.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, generated, "build.rs and variants::load disagree");
    // ci/honesty.sh and the Makefile find a variant by its file name.
    for name in names {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants").join(format!("{name}.toml"));
        assert!(file.exists(), "variant `{name}` must live in variants/{name}.toml");
    }
}

#[test]
fn matrix_snapshots() {
    let variants = variants::load().expect("variants load");
    let positions = load_suite(&Path::new(env!("CARGO_MANIFEST_DIR")).join(SUITE_PATH)).expect("the suite loads");
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
                            let table = table(variant.name(), &variant.features, search, positions, DEPTH, HASH_MB);
                            (variant.name().to_string(), table)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut tables: Vec<_> = handles.into_iter().flat_map(|handle| handle.join().unwrap()).collect();
        tables.sort();
        tables
    });

    // A reviewer's summary first (variant, total nodes, positions moved,
    // best moves changed), then insta's diffs of each snapshot.
    let diffs: Vec<_> = tables
        .iter()
        .map(|(name, table)| {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("snapshots").join(format!("{name}.snap"));
            let before = std::fs::read_to_string(path).ok();
            diff_tables(name, before.as_deref(), Some(table))
        })
        .collect();
    if diffs.iter().any(|diff| diff.changed()) {
        eprintln!("\nThe variant matrix moved:\n\n{}", diff_summary(&diffs));
    }

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
    every_variant_acts_against_its_parent(&variants, &tables);
}

fn search_nodes(name: &str, fen: &str, depth: i32) -> u64 {
    let search = VARIANT_SEARCHES.iter().find(|(variant, _)| *variant == name).expect("a search").1;
    let mut searcher = prunelab::search::Searcher::new(HASH_MB);
    searcher.new_game();
    let limits = prunelab::search::SearchLimits { depth: Some(depth), ..Default::default() };
    search(&mut searcher, &prunelab::position::Position::from_fen(fen).unwrap(), &limits).nodes
}

/// The entry `key` of the lab's section `section` in a variant's file, as
/// written (the lab parses these sections and refuses malformed ones).
fn lab_entry<'a>(variant: &'a Variant, section: &str, key: &str) -> Option<&'a Value> {
    let (_, Value::Table(entries)) = variant.file.sections.iter().find(|(name, _)| name == section)? else {
        return None;
    };
    entries.iter().find(|(name, _)| name == key).map(|(_, value)| value)
}

/// The `[witness]` a variant's file names: a position and a depth.
fn witness(variant: &Variant) -> Option<(&str, i32)> {
    match (lab_entry(variant, "witness", "fen")?, lab_entry(variant, "witness", "depth")?) {
        (Value::String(fen), Value::Integer(depth)) => Some((fen, *depth as i32)),
        other => panic!("{}: a malformed witness {other:?}", variant.name()),
    }
}

/// Every variant that adds features searches differently from its parent:
/// on the node-count suite at depth 10, or, where that does not show it,
/// at the `[witness]` its file names. Each witness is checked too. A variant
/// that claims the same tree (`nodes = "same"`, a change of speed only)
/// must instead search exactly its parent's nodes on every position.
fn every_variant_acts_against_its_parent(variants: &[Variant], tables: &[(String, String)]) {
    let table_of = |name: &str| tables.iter().find(|(variant, _)| variant == name).map(|(_, table)| table.as_str());
    for variant in variants {
        let (Some(parent), false) = (&variant.file.extends, variant.file.features.is_empty()) else { continue };
        let diff = diff_tables(variant.name(), table_of(parent), table_of(variant.name()));
        if lab_entry(variant, "expect", "nodes") == Some(&Value::String("same".into())) {
            assert_eq!(
                diff.positions_moved,
                0,
                "{} claims the same tree as {parent}, but its node counts differ",
                variant.name()
            );
        } else if let Some((fen, depth)) = witness(variant) {
            let (with, without) = (search_nodes(variant.name(), fen, depth), search_nodes(parent, fen, depth));
            assert_ne!(with, without, "{}: its witness ({} at depth {}) shows no change", variant.name(), fen, depth);
        } else {
            assert_ne!(
                diff.total_before,
                diff.total_after,
                "{} searches exactly as {parent} on the node-count suite: give its file a [witness] where the plan says it acts",
                variant.name()
            );
        }
    }
}
