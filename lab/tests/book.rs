//! The book's page for each lab command (`docs/lab/<command>.md`) and the
//! command's `--help` agree on its flags: every flag the help lists is
//! named on the page, and every `--flag` the page names is in the help.
//! Example output on a page sits in fences marked `text` (four backticks
//! where the output holds a fence of three), which this test
//! does not read (output may quote other commands), and a code span or a
//! command line that runs another program (`cargo build --release`, `lab
//! ab --sprt`) names that program's flags; everything else on the page,
//! usage blocks and prose, is read.

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
