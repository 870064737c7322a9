//! README shows what the code has, so it cannot drift.
//!
//! Its generated blocks (between `<!-- NAME: ... -->` and `<!-- end of NAME
//! -->`) are what the code produces now: the catalogue (`prunelab features
//! --all`), the snapshot example (razor-r1's snapshot), the variant file
//! example (`variants/razor-r1.toml`) and the margin example (CI's table for
//! raising R1's margin). `bash ci/readme-figures.sh` rewrites them
//! (`PRUNELAB_README=write` makes this test write instead of compare); the
//! margin example needs a search with another margin, so only
//! `bash ci/readme-figures.sh --tune` (a `tune` build) rewrites it, and
//! without `tune` this test checks its variants and its totals before.
//!
//! Its figures in prose (compiler versions, the honesty rotation, bench and
//! suite sizes, the variants table, the data files) are checked against the
//! code; a failure names the figure and what the code says.

use std::path::Path;

use prunelab::matrix::{diff_tables, snapshot_body};
use prunelab::variants::{self, Variant};

mod common;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(path: &str) -> String {
    let path = Path::new(ROOT).join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()))
}

/// README's text with every run of white space one space, so a figure is
/// found wherever the prose wraps.
fn prose() -> String {
    read("README.md").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text of `figure` in README's prose, between `before` and `after`.
fn figure<'a>(prose: &'a str, before: &str, after: &str) -> &'a str {
    let start = prose.find(before).unwrap_or_else(|| panic!("README no longer says `{before}`")) + before.len();
    let end = prose[start..].find(after).unwrap_or_else(|| panic!("README: no `{after}` after `{before}`"));
    &prose[start..start + end]
}

/// The body of generated block `name`: the lines after its opening
/// comment, up to its end comment.
fn block_range(readme: &str, name: &str) -> std::ops::Range<usize> {
    let open = format!("<!-- {name}:");
    let begin = readme.find(&open).unwrap_or_else(|| panic!("README marks no block `{open}`"));
    let body = begin + readme[begin..].find('\n').unwrap() + 1;
    let end = readme[body..]
        .find(&format!("<!-- end of {name} -->"))
        .unwrap_or_else(|| panic!("README does not end its block `{name}`"));
    body..body + end
}

/// A line diff of `old` to `new`, for a failure message.
fn line_diff(old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new).unified_diff().header("README.md", "the code now").to_string()
}

fn writing() -> bool {
    std::env::var("PRUNELAB_README").is_ok_and(|value| value == "write")
}

fn load_variants() -> Vec<Variant> {
    variants::load().expect("the variants load")
}

// ---------------------------------------------------------------- blocks

fn catalogue() -> String {
    let output =
        std::process::Command::new(env!("CARGO_BIN_EXE_prunelab")).args(["features", "--all"]).output().unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap()
}

/// The variant the examples show.
const EXAMPLE_VARIANT: &str = "razor-r1";

/// razor-r1's snapshot: its column header and its first position.
fn snapshot_example() -> String {
    let snapshot = read(&format!("snapshots/{EXAMPLE_VARIANT}.snap"));
    let lines: Vec<&str> = snapshot_body(&snapshot).lines().collect();
    let header = lines.iter().position(|line| line.starts_with("position ")).expect("a column header");
    format!("```\n{}\n{}\n```\n", lines[header], lines[header + 1])
}

fn variant_example() -> String {
    format!("```toml\n{}```\n", read(&format!("variants/{EXAMPLE_VARIANT}.toml")))
}

/// The feature the margin example changes, and the change: its tunable
/// `RAZOR_MARGIN_1` (300) raised to this.
const MARGIN_FEATURE: &str = "razor-r1";
#[cfg(feature = "tune")]
const MARGIN_VALUE: i32 = 320;

/// The variants whose features include the margin's feature.
fn margin_variants() -> Vec<Variant> {
    load_variants().into_iter().filter(|variant| variant.features.contains(&MARGIN_FEATURE)).collect()
}

/// The margin example: CI's table (`diff_summary`) for the margin raised,
/// each variant's table searched again in this `tune` build.
#[cfg(feature = "tune")]
fn margin_example() -> String {
    mod sets {
        include!(concat!(env!("OUT_DIR"), "/variant_sets.rs"));
    }
    use prunelab::matrix::{diff_summary, load_suite, table, DEPTH, HASH_MB, SUITE_PATH};
    prunelab::prune::razoring::RAZOR_MARGIN_1.set(MARGIN_VALUE).unwrap();
    let positions = load_suite(&Path::new(ROOT).join(SUITE_PATH)).unwrap();
    let diffs: Vec<_> = margin_variants()
        .iter()
        .map(|variant| {
            let search = sets::VARIANT_SEARCHES.iter().find(|(name, _)| *name == variant.name()).unwrap().1;
            let after = table(variant.name(), &variant.features, search, &positions, DEPTH, HASH_MB);
            let before = read(&format!("snapshots/{}.snap", variant.name()));
            diff_tables(variant.name(), Some(&before), Some(&after))
        })
        .collect();
    diff_summary(&diffs)
}

/// Without `tune`: README's margin table names the variants whose
/// features include the feature, and its totals before are their
/// snapshots' totals.
#[cfg(not(feature = "tune"))]
fn margin_example_holds(body: &str) -> Result<(), String> {
    let rows: Vec<Vec<&str>> = body
        .lines()
        .filter(|line| line.starts_with("| ") && !line.starts_with("| variant "))
        .map(|line| line.trim_matches('|').split('|').map(str::trim).collect())
        .collect();
    let named: Vec<&str> = rows.iter().map(|row| row[0]).collect();
    let expected: Vec<String> = margin_variants().iter().map(|variant| variant.name().to_string()).collect();
    if named != expected {
        return Err(format!("its variants are {named:?}; the variants with `{MARGIN_FEATURE}` are {expected:?}"));
    }
    for row in rows {
        let snapshot = read(&format!("snapshots/{}.snap", row[0]));
        let total = diff_tables(row[0], Some(&snapshot), None).total_before.unwrap();
        let before = row[1].split(" → ").next().unwrap();
        if before != total.to_string() {
            return Err(format!("{} had {before} nodes; its snapshot has {total} now", row[0]));
        }
    }
    Ok(())
}

#[test]
fn readme_generated_blocks_are_what_the_code_produces() {
    let mut readme = read("README.md");
    let mut stale = Vec::new();
    #[cfg_attr(not(feature = "tune"), allow(unused_mut))]
    let mut blocks = vec![
        ("catalogue", catalogue()),
        ("snapshot example", snapshot_example()),
        ("variant example", variant_example()),
    ];
    #[cfg(feature = "tune")]
    blocks.push(("margin example", margin_example()));
    #[cfg(not(feature = "tune"))]
    if let Err(why) = margin_example_holds(&readme[block_range(&readme, "margin example")]) {
        stale.push(format!("the margin example is stale ({why}): run `bash ci/readme-figures.sh --tune`"));
    }
    for (name, body) in blocks {
        let range = block_range(&readme, name);
        if readme[range.clone()] == body {
            continue;
        }
        if writing() {
            readme.replace_range(range, &body);
        } else {
            let diff = line_diff(&readme[range], &body);
            stale.push(format!("README's {name} is stale: run `bash ci/readme-figures.sh`\n{diff}"));
        }
    }
    if writing() {
        std::fs::write(Path::new(ROOT).join("README.md"), &readme).unwrap();
    }
    assert!(stale.is_empty(), "{}", stale.join("\n"));
}

// ---------------------------------------------------------------- figures

fn rust_version(manifest: &str) -> String {
    let table: toml::Table = read(manifest).parse().unwrap();
    table["package"]["rust-version"].as_str().unwrap().to_string()
}

#[test]
fn readme_compiler_versions_are_the_manifests() {
    let prose = prose();
    assert_eq!(figure(&prose, "Rust toolchain (cargo ≥ ", " for the lab"), rust_version("lab/Cargo.toml"));
    assert_eq!(figure(&prose, "the engine alone builds with ", ")"), rust_version("Cargo.toml"));
    let openbench = read("ci/openbench/prunelab.json");
    let compilers = figure(&openbench, "\"compilers\" : [\"cargo>=", "\"");
    assert_eq!(figure(&prose, "`Engines/` folder: cargo ≥ ", ","), compilers, "ci/openbench/prunelab.json");
}

#[test]
fn readme_honesty_rotation_is_honesty_shs() {
    let script = read("ci/honesty.sh");
    let per_run: usize = figure(&script, "per_run=${HONESTY_PER_RUN:-", "}").parse().unwrap();
    let variants = load_variants().len();
    let prose = prose();
    let said = figure(&prose, "In `ci/test.sh` it checks ", " consecutive commits cover them all");
    assert_eq!(
        said,
        format!("{per_run} variants chosen by the commit count, so {}", variants.div_ceil(per_run)),
        "{variants} variants, {per_run} a run: run `bash ci/readme-figures.sh`"
    );
}

#[test]
fn readme_bench_and_suite_sizes_are_the_codes() {
    use prunelab::bench::{BENCH_HASH_MB, BENCH_POSITIONS, DEFAULT_BENCH_DEPTH};
    use prunelab::matrix::{load_suite, DEPTH, HASH_MB, SUITE_PATH};
    let prose = prose();
    assert_eq!(
        figure(&prose, "| `prunelab bench [depth] [--stats] [--variant NAME]` | ", " from `ucinewgame`"),
        format!("{} positions", BENCH_POSITIONS.len())
    );
    assert_eq!(
        figure(&prose, "`prunelab bench` searches ", "; its last line"),
        format!("{} positions to depth {DEFAULT_BENCH_DEPTH} with Hash {BENCH_HASH_MB}", BENCH_POSITIONS.len())
    );
    let suite = load_suite(&Path::new(ROOT).join(SUITE_PATH)).unwrap();
    assert_eq!(
        figure(&prose, "searches every variant on the node-count suite (", " from `ucinewgame`"),
        format!(
            "`{SUITE_PATH}`: seeds.epd plus openings, tactics and endgames, {} positions) to depth {DEPTH}",
            suite.len()
        )
    );
    assert_eq!(figure(&prose, "to depth 10 from `ucinewgame`, Hash ", ", one thread"), HASH_MB.to_string());
}

/// Every variant is in README's variants table, named once in its first
/// column, and the table names no variant that does not exist.
#[test]
fn readme_variants_table_names_every_variant_once() {
    let readme = read("README.md");
    let start = readme.find("| variants | what |").expect("README's variants table");
    let mut named: Vec<String> = readme[start..]
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .flat_map(|line| {
            let first = line.split('|').nth(1).unwrap();
            first.split('`').skip(1).step_by(2).map(str::to_string).collect::<Vec<_>>()
        })
        .collect();
    named.sort();
    let mut names: Vec<String> = load_variants().iter().map(|variant| variant.name().to_string()).collect();
    names.sort();
    let twice: Vec<&String> = named.windows(2).filter(|pair| pair[0] == pair[1]).map(|pair| &pair[0]).collect();
    assert!(twice.is_empty(), "named twice in README's variants table: {twice:?}");
    let missing: Vec<&String> = names.iter().filter(|name| !named.contains(name)).collect();
    let unknown: Vec<&String> = named.iter().filter(|name| !names.contains(name)).collect();
    assert!(missing.is_empty(), "not in README's variants table (add a row or a name): {missing:?}");
    assert!(unknown.is_empty(), "README's variants table names what is not a variant: {unknown:?}");
}

/// data/README.md's position counts are the files'.
#[test]
fn data_readme_counts_are_the_files() {
    let readme = read("data/README.md");
    let start = readme.find("<!-- data:").expect("data/README.md marks its table");
    let end = readme.find("<!-- end of data -->").unwrap();
    let rows: Vec<&str> = readme[start..end].lines().filter(|line| line.starts_with("| `")).collect();
    assert_eq!(rows.len(), 7);
    for row in rows {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let file = cells[1].trim_matches('`');
        let positions = common::data_text(file).lines().filter(|line| !line.trim().is_empty()).count();
        assert_eq!(cells[3], positions.to_string(), "data/README.md's count for {file}");
    }
}
