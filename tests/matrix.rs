//! The variant matrix: every variant of `variants/` searches the node-count
//! suite (`data/suites/node-suite.epd`) to depth 10 from `ucinewgame`, Hash 16, one
//! thread, and the table of nodes, best move, score and technique counters
//! is an insta snapshot, `snapshots/<variant>.snap`. Any change in search
//! behaviour shows up as a snapshot diff; with `CI=true` a missing or
//! changed snapshot fails and nothing is written. Accept a reviewed change
//! with `cargo insta review` (or `INSTA_UPDATE=always cargo test --release
//! --test engine -- matrix::` and read the git diff).
//!
//! All variants run in one build, the variants build `make` builds
//! (`crates/test-support`): build.rs turns each variant into a
//! technique-set type (`$OUT_DIR/variant_sets.rs`), and that binary carries
//! every variant's search, compiled once for this test, the lab's tests and
//! `ci/bench-signature.sh`. The table is `prunelab::matrix::table`, which
//! `prunelab matrix --variant NAME` prints, so `ci/honesty.sh` can check a
//! feature-built binary against these snapshots.

use std::path::{Path, PathBuf};
use std::process::Command;

use prunelab::matrix::{DEPTH, HASH_MB, SUITE_PATH};

// The lab's snapshot diff (`lab snapdiff`).
use prunelab::matrix::table_diff::{diff_summary, diff_tables};
use prunelab::variants::{self, Value, Variant};

include!(concat!(env!("OUT_DIR"), "/variant_sets.rs"));

// The telemetry lines of two variants' searches, compiled into this binary.
mod telemetry;

/// The variants build, built once for every test of this binary.
fn variants_build() -> PathBuf {
    let target_dir = Path::new(env!("CARGO_BIN_EXE_prunelab")).parent().unwrap().parent().unwrap();
    test_support::variants_build_in(target_dir)
}

/// `prunelab matrix` of the variants build searching as `variant`: the
/// table of `suite` to `depth`, Hash 16.
fn matrix_table(binary: &Path, variant: &str, suite: &Path, depth: i32) -> String {
    let output = Command::new(binary)
        .args(["matrix", "--variant", variant, "--depth", &depth.to_string(), "--hash", &HASH_MB.to_string()])
        .arg("--suite")
        .arg(suite)
        .output()
        .expect("the variants build runs");
    assert!(
        output.status.success(),
        "{} matrix --variant {variant} failed: {}",
        binary.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("the table is UTF-8")
}

#[test]
fn every_variant_has_a_search_and_a_snapshot() {
    let variants = variants::load().expect("variants load");
    let names: Vec<&str> = variants.iter().map(Variant::name).collect();
    // build.rs's generated searches, as the variants build lists them.
    let output = Command::new(variants_build()).args(["features", "--json"]).output().expect("the variants build runs");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("`features --json` prints JSON");
    let selectable: Vec<&str> = report["selectable"]
        .as_array()
        .expect("a list of variants")
        .iter()
        .map(|name| name.as_str().unwrap())
        .collect();
    assert_eq!(names, selectable, "build.rs and variants::load disagree");
    // ci/honesty.sh and the Makefile find a variant by its file name.
    for name in names {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants").join(format!("{name}.toml"));
        assert!(file.exists(), "variant `{name}` must live in variants/{name}.toml");
    }
}

/// The baseline's feature set built as the lab builds a variant with
/// `[tunables]`: `$PRUNELAB_TUNABLES` set, in the variants build's folder
/// (so its dependencies are built once), the binary copied out. Returns
/// it, or cargo's error output.
fn build_with_tunables(tunables: &str) -> Result<PathBuf, String> {
    let target_dir = Path::new(env!("CARGO_BIN_EXE_prunelab")).parent().unwrap().parent().unwrap();
    let cargo_dir = target_dir.join("variants-build");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["build", "--profile", "ci-variants", "--bin", "prunelab"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("CARGO_TARGET_DIR", &cargo_dir)
        .env("PRUNELAB_TUNABLES", tunables)
        .output()
        .expect("cargo runs");
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    let binary = cargo_dir.join(format!("prunelab-tuned-{}", std::process::id()));
    std::fs::copy(cargo_dir.join("ci-variants").join("prunelab"), &binary).unwrap();
    Ok(binary)
}

/// `prunelab bench DEPTH`'s node total.
fn bench_nodes(binary: &Path, depth: i32) -> u64 {
    let output = Command::new(binary).args(["bench", &depth.to_string()]).output().expect("the binary runs");
    let text = String::from_utf8_lossy(&output.stdout);
    let line = text.lines().find(|line| line.starts_with("Bench: ")).unwrap_or_else(|| panic!("no Bench line: {text}"));
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// A tunable value given to a build is a constant of its search: the
/// baseline's features with `ReverseFutilityDepthMargin=100` (the
/// baseline's is 120) search other nodes than the baseline, report the
/// value and name no variant (none has it). A value outside the tunable's
/// range, or a malformed variable, does not build.
#[test]
fn a_tunable_value_built_in_changes_the_search() {
    let tuned = build_with_tunables("ReverseFutilityDepthMargin=100").expect("the build succeeds");
    assert_eq!(bench_nodes(&variants_build(), 6), 999_092, "the baseline's bench at depth 6");
    assert_eq!(bench_nodes(&tuned, 6), 966_930, "a margin of 100 cp a ply prunes more: fewer nodes");
    let report = Command::new(&tuned).args(["features", "--json"]).output().unwrap();
    let report: serde_json::Value = serde_json::from_slice(&report.stdout).unwrap();
    assert_eq!(report["tunables"], serde_json::json!({ "ReverseFutilityDepthMargin": 100 }));
    assert_eq!(report["variants"], serde_json::json!([]));
    std::fs::remove_file(&tuned).unwrap();
    let out_of_range = build_with_tunables("REVERSE_FUTILITY_DEPTH_MARGIN=201").unwrap_err();
    assert!(
        out_of_range.contains("a value in $PRUNELAB_TUNABLES is outside its tunable's min..=max"),
        "{out_of_range}"
    );
    let malformed = build_with_tunables("ReverseFutilityDepthMargin").unwrap_err();
    assert!(malformed.contains("PRUNELAB_TUNABLES: `ReverseFutilityDepthMargin` is not NAME=value"), "{malformed}");
}

#[test]
fn matrix_snapshots() {
    let variants = variants::load().expect("variants load");
    let binary = variants_build();
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join(SUITE_PATH);
    // Two workers: every table is independent and deterministic.
    let tables: Vec<(String, String)> = std::thread::scope(|scope| {
        let chunks: Vec<Vec<&Variant>> =
            (0..2).map(|worker| variants.iter().skip(worker).step_by(2).collect()).collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                let (binary, suite) = (&binary, &suite);
                scope.spawn(move || {
                    chunk
                        .into_iter()
                        .map(|variant| {
                            let table = matrix_table(binary, variant.name(), suite, DEPTH);
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

/// The nodes of `variant`'s search of `fen` to `depth` from a new game,
/// Hash 16: the variants build's matrix of that one position.
fn search_nodes(binary: &Path, variant: &str, fen: &str, depth: i32) -> u64 {
    let suite = std::env::temp_dir().join(format!("prunelab-witness-{variant}-{}.epd", std::process::id()));
    std::fs::write(&suite, format!("{fen} id \"witness\";\n")).unwrap();
    let table = matrix_table(binary, variant, &suite, depth);
    std::fs::remove_file(&suite).unwrap();
    let row =
        table.lines().find(|line| line.starts_with("witness ")).unwrap_or_else(|| panic!("no witness row in {table}"));
    row.split('|').nth(1).unwrap().trim().parse().unwrap_or_else(|_| panic!("no node count in `{row}`"))
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
        // A variant that adds nothing to its parent, no feature and no tunable value, is its parent's alias.
        let adds_nothing = variant.file.features.is_empty() && variant.file.tunables.is_empty();
        let (Some(parent), false) = (&variant.file.extends, adds_nothing) else { continue };
        let diff = diff_tables(variant.name(), table_of(parent), table_of(variant.name()));
        if lab_entry(variant, "expect", "nodes") == Some(&Value::String("same".into())) {
            assert_eq!(
                diff.positions_moved,
                0,
                "{} claims the same tree as {parent}, but its node counts differ",
                variant.name()
            );
        } else if let Some((fen, depth)) = witness(variant) {
            let binary = variants_build();
            let (with, without) =
                (search_nodes(&binary, variant.name(), fen, depth), search_nodes(&binary, parent, fen, depth));
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
