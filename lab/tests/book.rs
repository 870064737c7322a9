//! The book's page for each lab command (`docs/lab/<command>.md`) and the
//! command's `--help` agree on its flags: every flag the help lists is
//! named on the page, and every `--flag` the page names is in the help.
//! Example output on a page sits in fences marked `text` (four backticks
//! where the output holds a fence of three), which this test
//! does not read (output may quote other commands), and a code span or a
//! command line that runs another program (`cargo build --release`, `lab
//! ab --sprt`) names that program's flags; everything else on the page,
//! usage blocks and prose, is read.

// The book's sentences: their length, counted (book/sentences.rs).
mod sentences;
// No command's page holds a table at several commits (book/reference_pages.rs).
mod reference_pages;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn book() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/lab")
}

/// `lab ARGS --help`'s text.
fn help(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_lab")).args(args).arg("--help").output().unwrap();
    assert!(output.status.success(), "lab {args:?} --help: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

/// The names listed under a help text's `Commands:`, `help` left out.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|line| line.trim() != "Commands:")
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// The long flags a help text lists as options (`--help` and `--version`
/// left out): the `--name`s before an option line's description.
fn help_flags(help: &str) -> BTreeSet<String> {
    help.lines()
        .map(str::trim_start)
        .filter(|line| line.starts_with('-'))
        .flat_map(|line| {
            let names = line.split("  ").next().unwrap();
            flags_in(names)
        })
        .filter(|flag| flag != "--help" && flag != "--version")
        .collect()
}

/// Every `--flag` token of `text`: `--` after a character that is not part
/// of a word, then a letter, then letters, digits and `-`.
fn flags_in(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(found) = text[at..].find("--") {
        let start = at + found;
        let before_ok = start == 0 || !(bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'-');
        let mut end = start + 2;
        while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'-') {
            end += 1;
        }
        if before_ok && end > start + 2 && bytes[start + 2].is_ascii_lowercase() {
            out.push(text[start..end].trim_end_matches('-').to_string());
        }
        at = end.max(start + 2);
    }
    out
}

/// The programs whose invocations a page may quote: a code span or a
/// line of a command block that starts with one of these is an
/// invocation, and its flags are that program's.
const PROGRAMS: [&str; 7] = ["cargo", "lab", "prunelab", "make", "git", "bash", "fastchess"];

/// The text of a page whose `--flag`s must be `command`'s: its prose, its
/// code spans and its command blocks' lines, less its example output
/// (fences marked `text`) and the invocations of other commands (`cargo
/// build --release`, `lab ab --sprt`, `prunelab bench --stats`).
fn flag_text(page: &str, command: &str) -> String {
    let own = |span: &str| {
        let words: Vec<&str> = span.split_whitespace().collect();
        let words =
            if words.first() == Some(&"cargo") && words.get(1) == Some(&"lab") { &words[1..] } else { &words[..] };
        match words.first() {
            Some(first) if PROGRAMS.contains(first) => *first == "lab" && words.get(1) == Some(&command),
            _ => true,
        }
    };
    let mut out = String::new();
    // Inside a fence: its character, its length, and whether it is output.
    // A fence opens with three or more backticks or tildes and closes with
    // at least as many of the same (four may hold lines of three).
    let mut fence: Option<(char, usize, bool)> = None;
    for line in page.lines() {
        let trimmed = line.trim_start();
        if let Some(mark) = trimmed.chars().next().filter(|c| *c == '`' || *c == '~') {
            let count = trimmed.chars().take_while(|c| *c == mark).count();
            if count >= 3 {
                let info = trimmed[count..].trim();
                match fence {
                    None => {
                        fence = Some((mark, count, info == "text"));
                        continue;
                    }
                    Some((open, at_least, _)) if open == mark && count >= at_least && info.is_empty() => {
                        fence = None;
                        continue;
                    }
                    Some(_) => {}
                }
            }
        }
        match fence.map(|(_, _, output)| output) {
            Some(true) => {}
            Some(false) => {
                if own(line) {
                    out.push_str(line);
                    out.push('\n');
                }
            }
            None => {
                for (index, part) in line.split('`').enumerate() {
                    if index % 2 == 0 || own(part) {
                        out.push_str(part);
                        out.push(' ');
                    }
                }
                out.push('\n');
            }
        }
    }
    out
}

#[test]
fn each_commands_page_names_exactly_the_flags_of_its_help() {
    let commands = subcommands(&help(&[]));
    assert!(commands.len() >= 20, "lab --help lists {commands:?}");
    let mut problems = Vec::new();
    for command in &commands {
        let path = book().join(format!("{command}.md"));
        let Ok(page) = std::fs::read_to_string(&path) else {
            problems.push(format!("`lab {command}` has no page docs/lab/{command}.md"));
            continue;
        };
        // A command's subcommands (`lab openbench status`) share its page.
        let text = help(&[command]);
        let mut flags = help_flags(&text);
        for sub in subcommands(&text) {
            flags.extend(help_flags(&help(&[command, &sub])));
        }
        let named: BTreeSet<String> = flags_in(&flag_text(&page, command))
            .into_iter()
            .filter(|flag| flag != "--help" && flag != "--version")
            .collect();
        for flag in flags.difference(&named) {
            problems.push(format!("docs/lab/{command}.md does not name `{flag}`, which `lab {command} --help` lists"));
        }
        for flag in named.difference(&flags) {
            problems.push(format!("docs/lab/{command}.md names `{flag}`, which `lab {command} --help` does not list"));
        }
    }
    // No page for a command the lab does not have.
    for entry in std::fs::read_dir(book()).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().to_string();
        if let Some(command) = name.strip_suffix(".md") {
            if !commands.iter().any(|known| known == command) {
                problems
                    .push(format!("docs/lab/{name} is the page of `lab {command}`, which `lab --help` does not list"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn another_commands_flags_are_its_own() {
    let page = "`lab ab --sprt` and `cargo build --release`; `--tc`\n```sh\ncargo lab match A B --games 4\n```\n\
                ````text\n--json\n```\n--results\n```\n````\n";
    assert_eq!(flags_in(&flag_text(page, "match")), ["--tc", "--games"]);
    assert_eq!(flags_in(&flag_text(page, "ab")), ["--sprt", "--tc"]);
}

#[test]
fn flags_are_read_as_words() {
    assert_eq!(flags_in("`--suite verdict` [--sprt [ELO0 ELO1]] | --- | a--b --x-y-"), ["--suite", "--sprt", "--x-y"]);
    assert_eq!(help_flags("  -q, --quiet  Hides\n      --tc <TC>  The clock, e.g. --tc 10+0.1\n  -h, --help\n"), {
        let expected: BTreeSet<String> = ["--quiet", "--tc"].iter().map(|flag| flag.to_string()).collect();
        expected
    });
}

// ------------------------------------------------------- example verdicts

// The sections of `lab ab`'s page, as its writers take them.
use lab::verdicts::ab_sections;

/// README and every Markdown file of the book, as (path from the
/// repository's root, text).
fn front_page_and_book() -> Vec<(String, String)> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|entry| entry.unwrap().path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|extension| extension == "md") {
                let name = path.strip_prefix(root).unwrap().to_string_lossy().to_string();
                out.push((name, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = vec![("README.md".to_string(), std::fs::read_to_string(root.join("README.md")).unwrap())];
    walk(&root.join("docs"), &root, &mut files);
    files
}

/// The example pages of `lab ab` in `text`: each fenced block whose first
/// line is a verdict's title, as its lines up to the closing fence.
fn example_verdicts(text: &str) -> Vec<String> {
    let mut examples = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let fence: String = line.trim_start().chars().take_while(|c| *c == '`' || *c == '~').collect();
        if fence.len() < 3 {
            continue;
        }
        let body: Vec<&str> = lines.by_ref().take_while(|inner| inner.trim() != fence).collect();
        if body.first().is_some_and(|first| first.starts_with(ab_sections::TITLE)) {
            examples.push(body.join("\n"));
        }
    }
    examples
}

#[test]
fn every_example_verdict_has_the_sections_lab_ab_prints() {
    let mut found = Vec::new();
    let mut problems = Vec::new();
    for (file, text) in front_page_and_book() {
        for example in example_verdicts(&text) {
            found.push(file.clone());
            if let Err(why) = ab_sections::check(&example) {
                problems.push(format!("{file}: the example verdict: {why}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    for page in ["README.md", "docs/lab/ab.md"] {
        assert!(found.iter().any(|file| file == page), "{page} has no example verdict any more (found in {found:?})");
    }
}

#[test]
fn an_example_verdict_without_a_section_or_with_a_strange_one_is_caught() {
    let page = "# Verdict: b against its parent a\n\n## What the atlas says of these numbers\n## Claims of `b` (x)\n\
                ## SPRT plan\n## Nodes: verdict at depth 10, depth 10, Hash 16\n## Time to depth 10\n\
                ## Tactics: wac, nodes 50000 per position\n## Results\n";
    assert_eq!(ab_sections::check(page), Ok(()));
    let without_atlas = page.replace("## What the atlas says of these numbers\n", "");
    assert_eq!(
        ab_sections::check(&without_atlas),
        Err("no section `## What the atlas says of these numbers...`".into())
    );
    let twice = page.replace("## SPRT plan\n", "## SPRT plan\n## SPRT plan\n");
    assert_eq!(ab_sections::check(&twice), Err("the section `## SPRT plan...` 2 times".into()));
    let strange = page.replace("## Results\n", "## Results\n## Summary\n");
    assert_eq!(
        ab_sections::check(&strange),
        Err("`## Summary` is not a section of `lab ab`'s page, or not in its place".into())
    );
    let without_tactics = page.replace("## Tactics: wac, nodes 50000 per position\n", "");
    assert_eq!(ab_sections::check(&without_tactics), Ok(()));
    // The match's own page, under its section, has headings of its own.
    let played = format!("{page}\n## Match: b against a, 10+0.1\n\n# Match: b vs a\n## Engines\n");
    assert_eq!(ab_sections::check(&played), Ok(()));
}

// ------------------------------------------------------- results files

/// The serialized fields of struct `name` in the Rust file `source`, in
/// order: a field marked `#[serde(skip)]` left out, a `#[serde(flatten)]`
/// one replaced by its own struct's fields (found in the same file, else in
/// the one file of lab/src that defines it).
fn serialized_fields(source: &Path, name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(source).unwrap_or_else(|error| panic!("{}: {error}", source.display()));
    let start = text
        .lines()
        .position(|line| {
            let line = line.trim_start().trim_start_matches("pub ").trim_start_matches("pub(crate) ");
            line.starts_with(&format!("struct {name} {{")) || line.starts_with(&format!("struct {name}<"))
        })
        .unwrap_or_else(|| panic!("{} defines no struct {name}", source.display()));
    let mut fields = Vec::new();
    let mut attributes = String::new();
    for line in text.lines().skip(start + 1).take_while(|line| !line.starts_with('}')) {
        let line = line.trim();
        if line.starts_with("#[") {
            attributes.push_str(line);
            continue;
        }
        if line.starts_with("//") || line.is_empty() {
            continue;
        }
        let declaration = line.trim_start_matches("pub(crate) ").trim_start_matches("pub ");
        let Some((field, kind)) = declaration.split_once(": ") else { continue };
        let skipped = attributes.contains("serde(skip)");
        let flattened = attributes.contains("serde(flatten)");
        attributes.clear();
        if skipped {
            continue;
        }
        if flattened {
            let inner = kind.trim_end_matches(',');
            let file =
                if text.contains(&format!("struct {inner} {{")) { source.to_path_buf() } else { defining_file(inner) };
            fields.extend(serialized_fields(&file, inner));
        } else {
            fields.push(field.to_string());
        }
    }
    fields
}

/// The one file of lab/src or crates/ that defines struct `name`.
fn defining_file(name: &str) -> PathBuf {
    fn walk(dir: &Path, name: &str, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, name, out);
            } else if std::fs::read_to_string(&path).unwrap().contains(&format!("struct {name} {{")) {
                out.push(path);
            }
        }
    }
    let mut found = Vec::new();
    let lab = Path::new(env!("CARGO_MANIFEST_DIR"));
    for dir in [lab.join("src"), lab.join("../crates")] {
        walk(&dir, name, &mut found);
    }
    assert_eq!(found.len(), 1, "struct {name} is defined in {found:?}");
    found.remove(0)
}

/// The field tables of docs/results.md: each marked `<!-- fields: FILE
/// STRUCT -->` (the struct's serialized fields) or `<!-- keys: FILE -->`
/// (keys a `json!` object of FILE writes), with the names in the first
/// column of the table under the mark, in order.
fn results_tables() -> Vec<(String, Vec<String>)> {
    let page = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/results.md")).unwrap();
    let mut tables = Vec::new();
    let mut lines = page.lines();
    while let Some(line) = lines.next() {
        let Some(mark) = line.strip_prefix("<!-- ").and_then(|rest| rest.strip_suffix(" -->")) else { continue };
        let names: Vec<String> = lines
            .by_ref()
            .take_while(|row| row.starts_with('|'))
            .skip(2)
            .flat_map(|row| {
                let cell = row.split('|').nth(1).unwrap();
                cell.split('`').skip(1).step_by(2).map(str::to_string).collect::<Vec<_>>()
            })
            .collect();
        tables.push((mark.to_string(), names));
    }
    tables
}

#[test]
fn the_results_files_fields_are_the_codes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let tables = results_tables();
    assert!(tables.len() >= 10, "docs/results.md has {} marked tables", tables.len());
    let mut problems = Vec::new();
    for (mark, documented) in &tables {
        let words: Vec<&str> = mark.split_whitespace().collect();
        match words.as_slice() {
            ["fields:", file, name] => {
                let fields = serialized_fields(&root.join(file), name);
                if *documented != fields {
                    problems.push(format!("{name}: the page lists {documented:?}, the struct has {fields:?}"));
                }
            }
            ["keys:", file] => {
                let source = std::fs::read_to_string(root.join(file))
                    .unwrap_or_else(|error| panic!("`{mark}`: {file}, from the repository root: {error}"));
                for key in documented {
                    if !source.contains(&format!("\"{key}\":")) {
                        problems.push(format!("{file} writes no key `{key}`, which the page lists"));
                    }
                }
            }
            _ => problems.push(format!("docs/results.md: `<!-- {mark} -->` is not a fields or keys mark")),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_structs_fields_leave_out_the_skipped_and_take_in_the_flattened() {
    let dir = std::env::temp_dir().join(format!("book-fields-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("sample.rs");
    std::fs::write(
        &file,
        "pub struct Outer {\n    /// A doc.\n    pub first: u32,\n    #[serde(skip)]\n    cached: u8,\n    \
         #[serde(flatten)]\n    pub inner: Inner,\n    last: Option<(f64, f64)>,\n}\n\nstruct Inner {\n    a: u8,\n    \
         pub(crate) b: u8,\n}\n",
    )
    .unwrap();
    assert_eq!(serialized_fields(&file, "Outer"), ["first", "a", "b", "last"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

// ------------------------------------------------------- the book's order

fn docs_page(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs").join(name)).unwrap()
}

/// The book reads as a guide: its parts in order, the guide's chapters
/// before the reference, the research in its own part, and the pages to
/// look things up in last.
#[test]
fn the_book_is_a_guide_then_the_reference_then_what_was_measured() {
    let summary = docs_page("SUMMARY.md");
    let at = |text: &str| summary.find(text).unwrap_or_else(|| panic!("docs/SUMMARY.md has no `{text}`"));
    let order = [
        "(introduction.md)",
        "# Guide",
        "(getting-started.md)",
        "(verdicts.md)",
        "(adding-a-technique.md)",
        "(own-engine.md)",
        "# Reference",
        "(lab.md)",
        "(lab/ab.md)",
        "(results.md)",
        "# Measured",
        "(measured/atlas.md)",
        "(measured/calibration.md)",
        "(measured/seajay.md)",
        "(measured/plan-002.md)",
        "(glossary.md)",
        "(troubleshooting.md)",
        "(changelog.md)",
    ];
    for pair in order.windows(2) {
        assert!(at(pair[0]) < at(pair[1]), "docs/SUMMARY.md: `{}` comes after `{}`", pair[0], pair[1]);
    }
}

/// The glossary defines, each under a heading of its own, the terms the
/// book used undefined (issue 49).
#[test]
fn the_glossary_defines_the_books_terms() {
    let headings: Vec<String> =
        docs_page("glossary.md").lines().filter_map(|line| line.strip_prefix("### ")).map(str::to_string).collect();
    for term in [
        "nElo",
        "Pentanomial",
        "LLR",
        "SPRT",
        "H0, H1",
        "Technique-set type",
        "Carp's vocabulary",
        "Parent",
        "Claim",
        "Verdict suite",
        "Node suite",
        "WAC",
    ] {
        assert!(headings.iter().any(|heading| heading == term), "docs/glossary.md defines no `{term}`");
    }
}
