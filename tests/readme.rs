//! README and the book (`docs/`) show what the code has, so they cannot
//! drift.
//!
//! Their generated blocks (between `<!-- NAME: ... -->` and `<!-- end of
//! NAME -->`, each in whichever file of README.md and docs/ holds it) are
//! what the code produces now: the catalogue (`prunelab features --all`),
//! the snapshot example (razor-r1's snapshot), the variant file example
//! (`variants/razor-r1.toml`) and the margin example (CI's table for
//! raising R1's margin). `bash ci/readme-figures.sh` rewrites them, each in
//! its own file (`PRUNELAB_README=write` makes this test write instead of
//! compare); the margin example needs a search with another margin, so
//! only `bash ci/readme-figures.sh --tune` (a `tune` build) rewrites it,
//! and without `tune` this test checks its variants and its totals before.
//!
//! Their figures in prose (compiler versions, the honesty rotation, bench
//! and suite sizes, the variants table, the data files) are checked
//! against the code wherever they are said; a failure names the figure,
//! the file and what the code says. Every relative link between README
//! and the book leads to a file, and an anchor to a heading of it.

use std::path::Path;

use prunelab::matrix::snapshot_body;

// The lab's snapshot diff (`lab snapdiff`, CI's table).
use prunelab::matrix::table_diff::diff_tables;
use prunelab::variants::{self, Variant};

use crate::common;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(path: &str) -> String {
    let path = Path::new(ROOT).join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()))
}

/// The front page and the book: README.md, then every Markdown file under
/// docs/ in path order, as paths from the repository's root.
fn book_files() -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|entry| entry.unwrap().path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|extension| extension == "md") {
                out.push(path.strip_prefix(ROOT).unwrap().to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut files = vec!["README.md".to_string()];
    walk(&Path::new(ROOT).join("docs"), &mut files);
    files
}

/// Each file's text with every run of white space one space, so a figure
/// is found wherever the prose wraps.
fn prose() -> Vec<(String, String)> {
    book_files()
        .into_iter()
        .map(|file| (read(&file).split_whitespace().collect::<Vec<_>>().join(" "), file))
        .map(|(text, file)| (file, text))
        .collect()
}

/// The text of `figure` in `text`, between `before` and `after`.
fn figure<'a>(text: &'a str, before: &str, after: &str) -> &'a str {
    let start = text.find(before).unwrap_or_else(|| panic!("no longer says `{before}`")) + before.len();
    let end = text[start..].find(after).unwrap_or_else(|| panic!("no `{after}` after `{before}`"));
    &text[start..start + end]
}

/// The figure between `before` and `after` wherever README and the book
/// say it (at least once), each place with its file: a figure said twice is
/// checked twice.
fn said(prose: &[(String, String)], before: &str, after: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (file, text) in prose {
        let mut from = 0;
        while let Some(at) = text[from..].find(before) {
            let start = from + at + before.len();
            let end = text[start..].find(after).unwrap_or_else(|| panic!("{file}: no `{after}` after `{before}`"));
            found.push((file.clone(), text[start..start + end].to_string()));
            from = start;
        }
    }
    assert!(!found.is_empty(), "neither README nor docs/ says `{before}` any more");
    found
}

/// Asserts that every place that says the figure says `expected`.
fn assert_said(prose: &[(String, String)], before: &str, after: &str, expected: &str, why: &str) {
    for (file, text) in said(prose, before, after) {
        assert_eq!(text, expected, "{file}: `{before}...`: {why}");
    }
}

/// The body of generated block `name` in `text`, if `text` holds it: the
/// lines after its opening comment, up to its end comment.
fn block_range(text: &str, name: &str) -> Option<std::ops::Range<usize>> {
    let open = format!("<!-- {name}:");
    let begin = text.find(&open)?;
    let body = begin + text[begin..].find('\n').unwrap() + 1;
    let end = text[body..]
        .find(&format!("<!-- end of {name} -->"))
        .unwrap_or_else(|| panic!("the block `{name}` has no end"));
    Some(body..body + end)
}

/// The file of README and the book that holds generated block `name`;
/// exactly one must.
fn block_file(name: &str) -> String {
    let holders: Vec<String> =
        book_files().into_iter().filter(|file| block_range(&read(file), name).is_some()).collect();
    match holders.as_slice() {
        [file] => file.clone(),
        [] => panic!("neither README nor docs/ marks a block `<!-- {name}:`"),
        _ => panic!("the block `{name}` is in {holders:?}: it belongs in one file"),
    }
}

/// A line diff of `old` to `new`, for a failure message.
fn line_diff(file: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new).unified_diff().header(file, "the code now").to_string()
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
    use prunelab::matrix::table_diff::diff_summary;
    use prunelab::matrix::{load_suite, table, DEPTH, HASH_MB, SUITE_PATH};
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
    {
        let file = block_file("margin example");
        let text = read(&file);
        if let Err(why) = margin_example_holds(&text[block_range(&text, "margin example").unwrap()]) {
            stale.push(format!("{file}: the margin example is stale ({why}): run `bash ci/readme-figures.sh --tune`"));
        }
    }
    for (name, body) in blocks {
        let file = block_file(name);
        let mut text = read(&file);
        let range = block_range(&text, name).unwrap();
        if text[range.clone()] == body {
            continue;
        }
        if writing() {
            text.replace_range(range, &body);
            std::fs::write(Path::new(ROOT).join(&file), &text).unwrap();
        } else {
            let diff = line_diff(&file, &text[range], &body);
            stale.push(format!("{file}: its {name} is stale: run `bash ci/readme-figures.sh`\n{diff}"));
        }
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
    let lab = rust_version("lab/Cargo.toml");
    assert_said(&prose, "Rust toolchain (cargo ≥ ", " for the lab", &lab, "lab/Cargo.toml's rust-version");
    let engine = rust_version("Cargo.toml");
    assert_said(&prose, "the engine alone builds with ", ")", &engine, "Cargo.toml's rust-version");
    let openbench = read("ci/openbench/prunelab.json");
    let compilers = figure(&openbench, "\"compilers\" : [\"cargo>=", "\"");
    assert_said(&prose, "`Engines/` folder: cargo ≥ ", ",", compilers, "ci/openbench/prunelab.json");
    // OpenBench's workers build the engine: they need its Rust.
    assert_eq!(compilers, engine, "ci/openbench/prunelab.json's compilers against Cargo.toml's rust-version");
}

#[test]
fn readme_honesty_rotation_is_honesty_shs() {
    let script = read("ci/honesty.sh");
    let per_run: usize = figure(&script, "per_run=${HONESTY_PER_RUN:-", "}").parse().unwrap();
    let variants = load_variants().len();
    assert_said(
        &prose(),
        "In `ci/test.sh` it checks ",
        " consecutive commits cover them all",
        &format!("{per_run} variants chosen by the commit count, so {}", variants.div_ceil(per_run)),
        &format!("{variants} variants, {per_run} a run: run `bash ci/readme-figures.sh`"),
    );
}

#[test]
fn readme_bench_and_suite_sizes_are_the_codes() {
    use prunelab::bench::{BENCH_HASH_MB, BENCH_POSITIONS, DEFAULT_BENCH_DEPTH};
    use prunelab::matrix::{load_suite, DEPTH, HASH_MB, SUITE_PATH};
    let prose = prose();
    assert_said(
        &prose,
        "| `prunelab bench [depth] [--stats] [--variant NAME]` | ",
        " from `ucinewgame`",
        &format!("{} positions", BENCH_POSITIONS.len()),
        "prunelab::bench::BENCH_POSITIONS",
    );
    assert_said(
        &prose,
        "`prunelab bench` searches ",
        "; its last line",
        &format!("{} positions to depth {DEFAULT_BENCH_DEPTH} with Hash {BENCH_HASH_MB}", BENCH_POSITIONS.len()),
        "prunelab::bench",
    );
    let suite = load_suite(&Path::new(ROOT).join(SUITE_PATH)).unwrap();
    assert_said(
        &prose,
        "searches every variant on the node-count suite (",
        " from `ucinewgame`",
        &format!(
            "`{SUITE_PATH}`: seeds.epd plus openings, tactics and endgames, {} positions) to depth {DEPTH}",
            suite.len()
        ),
        "prunelab::matrix",
    );
    assert_said(&prose, "to depth 10 from `ucinewgame`, Hash ", ", one thread", &HASH_MB.to_string(), "HASH_MB");
}

/// Every variant is in the book's variants table, named once in its first
/// column, and the table names no variant that does not exist.
#[test]
fn readme_variants_table_names_every_variant_once() {
    let holders: Vec<String> =
        book_files().into_iter().filter(|file| read(file).contains("| variants | what |")).collect();
    assert_eq!(holders.len(), 1, "the variants table (`| variants | what |`) is in {holders:?}: one file must hold it");
    let file = &holders[0];
    let text = read(file);
    let start = text.find("| variants | what |").unwrap();
    let mut named: Vec<String> = text[start..]
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
    assert!(twice.is_empty(), "named twice in {file}'s variants table: {twice:?}");
    let missing: Vec<&String> = names.iter().filter(|name| !named.contains(name)).collect();
    let unknown: Vec<&String> = named.iter().filter(|name| !names.contains(name)).collect();
    assert!(missing.is_empty(), "not in {file}'s variants table (add a row or a name): {missing:?}");
    assert!(unknown.is_empty(), "{file}'s variants table names what is not a variant: {unknown:?}");
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

// ---------------------------------------------------------------- links

/// The anchor GitHub and mdBook give a heading: lower case, letters,
/// digits, `-` and `_` kept, each space a `-`, the rest dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Fenced code blocks, followed line by line: a fence opens with three or
/// more backticks or tildes, and closes with a line of at least as many of
/// the same character (so a block marked with four may hold lines of three).
#[derive(Default)]
struct Fences {
    open: Option<(char, usize)>,
}

impl Fences {
    /// Whether `line` is code: inside a fenced block, or one of its fences.
    fn is_code(&mut self, line: &str) -> bool {
        let trimmed = line.trim_start();
        if let Some(mark) = trimmed.chars().next().filter(|c| *c == '`' || *c == '~') {
            let count = trimmed.chars().take_while(|c| *c == mark).count();
            if count >= 3 {
                match self.open {
                    None => {
                        self.open = Some((mark, count));
                        return true;
                    }
                    Some((open, at_least))
                        if open == mark && count >= at_least && trimmed[count..].trim().is_empty() =>
                    {
                        self.open = None;
                        return true;
                    }
                    Some(_) => {}
                }
            }
        }
        self.open.is_some()
    }
}

/// The lines of `text` outside fenced code blocks.
fn outside_fences(text: &str) -> Vec<&str> {
    let mut fences = Fences::default();
    text.lines().filter(|line| !fences.is_code(line)).collect()
}

/// The anchors of a Markdown file's headings (a repeated heading's later
/// anchors get `-1`, `-2`, ... as on GitHub and in mdBook).
fn anchors(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in outside_fences(text) {
        let Some(heading) = line.strip_prefix('#') else { continue };
        let heading = heading.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        let base = anchor(heading);
        let mut name = base.clone();
        let mut n = 0;
        while out.contains(&name) {
            n += 1;
            name = format!("{base}-{n}");
        }
        out.push(name);
    }
    out
}

/// The targets of the inline links `[text](target)` of a line, code spans
/// left out.
fn link_targets(line: &str) -> Vec<String> {
    let line: String = line.split('`').step_by(2).collect::<Vec<_>>().join("");
    let mut out = Vec::new();
    let mut rest = line.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else { break };
        let target = after[..end].split_whitespace().next().unwrap_or("").to_string();
        out.push(target);
        rest = &after[end..];
    }
    out
}

/// Every relative link of README and the book leads to a file or folder of
/// the repository, and an anchor (`file.md#x`, `#x`) to a heading of that
/// Markdown file.
#[test]
fn readme_and_book_links_resolve() {
    let mut dead = Vec::new();
    for file in book_files() {
        let text = read(&file);
        let dir = Path::new(&file).parent().unwrap().to_path_buf();
        let mut fences = Fences::default();
        for (number, line) in text.lines().enumerate() {
            if fences.is_code(line) {
                continue;
            }
            for target in link_targets(line) {
                if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (path, fragment) = match target.split_once('#') {
                    Some((path, fragment)) => (path, Some(fragment)),
                    None => (target.as_str(), None),
                };
                let linked = if path.is_empty() { Path::new(&file).to_path_buf() } else { dir.join(path) };
                let on_disk = Path::new(ROOT).join(&linked);
                if !on_disk.exists() {
                    dead.push(format!("{file}:{}: `{target}`: no {}", number + 1, linked.display()));
                    continue;
                }
                if let Some(fragment) = fragment {
                    if on_disk.extension().is_some_and(|extension| extension == "md")
                        && !anchors(&std::fs::read_to_string(&on_disk).unwrap()).iter().any(|a| a == fragment)
                    {
                        dead.push(format!(
                            "{file}:{}: `{target}`: no heading `#{fragment}` in {}",
                            number + 1,
                            linked.display()
                        ));
                    }
                }
            }
        }
    }
    assert!(dead.is_empty(), "dead links:\n{}", dead.join("\n"));
}

/// The book's table of contents lists every chapter under docs/, and the
/// front page links to it.
#[test]
fn the_book_lists_every_chapter() {
    let summary = read("docs/SUMMARY.md");
    let listed: Vec<String> = summary.lines().flat_map(link_targets).collect();
    for file in book_files().iter().filter(|file| file.starts_with("docs/") && *file != "docs/SUMMARY.md") {
        let chapter = file.strip_prefix("docs/").unwrap();
        assert!(listed.iter().any(|target| target == chapter), "docs/SUMMARY.md does not list {chapter}");
    }
    assert!(read("README.md").contains("](docs/SUMMARY.md)"), "README links to the book's docs/SUMMARY.md");
}
