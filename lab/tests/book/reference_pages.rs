//! A command's page under docs/lab/ says what the command does, its
//! options and one example (issue 57). Research and history belong in the
//! book's *Measured* part or the changelog: so no table on such a page
//! names more than one commit, as a table of measurements at several
//! commits would. One commit in a table is an example's output (`lab
//! atlas`'s table names the commit it was built from).

use std::collections::BTreeSet;

/// The commits a line names: each word of 7 to 40 hex digits, with at least
/// one digit and one letter (so `1291500` is a number and `decade` a
/// word), as its first seven, lower case. A word is a run of letters and
/// digits.
fn commits_named(line: &str) -> BTreeSet<String> {
    line.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| {
            (7..=40).contains(&word.len())
                && word.chars().all(|c| c.is_ascii_hexdigit())
                && word.chars().any(|c| c.is_ascii_digit())
                && word.chars().any(|c| c.is_ascii_alphabetic())
        })
        .map(|word| word[..7].to_ascii_lowercase())
        .collect()
}

/// Each table of a page (a run of lines starting with `|`, in a code
/// block or not) that names more than one commit: its first line's number
/// and the commits.
fn tables_of_several_commits(page: &str) -> Vec<(usize, BTreeSet<String>)> {
    let mut found = Vec::new();
    let mut table: Option<(usize, BTreeSet<String>)> = None;
    for (number, line) in page.lines().enumerate() {
        if line.trim_start().starts_with('|') {
            let (_, commits) = table.get_or_insert_with(|| (number + 1, BTreeSet::new()));
            commits.extend(commits_named(line));
        } else if let Some((first, commits)) = table.take() {
            if commits.len() > 1 {
                found.push((first, commits));
            }
        }
    }
    found.extend(table.filter(|(_, commits)| commits.len() > 1));
    found
}

#[test]
fn no_reference_page_holds_a_table_at_several_commits() {
    let mut problems = Vec::new();
    for (name, text) in super::front_page_and_book() {
        if !name.starts_with("docs/lab/") {
            continue;
        }
        for (line, commits) in tables_of_several_commits(&text) {
            let commits: Vec<String> = commits.into_iter().collect();
            problems.push(format!(
                "{name}:{line}: a table names the commits {}: measurements at several commits belong in \
                 docs/measured/ (or the changelog), with a link from the page",
                commits.join(", ")
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_table_of_several_commits_is_found() {
    // Numbers and words of hex letters are no commits; a short and a full
    // hash of one commit are one; `+dirty` and a binary's upper case name
    // their commit.
    assert!(commits_named("| p003-3 | 1291500 | decade | faced |").is_empty());
    assert_eq!(
        commits_named("| 304ab85a5697+dirty | 304ab85 | prunelab-E4E36126 |"),
        BTreeSet::from(["304ab85".to_string(), "e4e3612".to_string()])
    );
    // The longest hash counts, a 41st digit makes it no hash.
    assert_eq!(commits_named(&"a1".repeat(20)).len(), 1);
    assert!(commits_named(&format!("{}3", "a1".repeat(20))).is_empty());
    assert!(commits_named("abc123").is_empty());

    let one = "| run | commit |\n|---|---|\n| a | 304ab85 |\n| b | 304ab85a5697 |\n";
    assert!(tables_of_several_commits(one).is_empty());
    // Two commits in one table fail, also at the page's end and in a code
    // block; two tables of one commit each do not.
    let two = format!("Text 1a2b3c4.\n\n{one}| c | 9ffa66c |");
    assert_eq!(tables_of_several_commits(&two), [(3, BTreeSet::from(["304ab85".to_string(), "9ffa66c".to_string()]))]);
    let fenced = format!("```\n| x | 9ffa66c |\n| y | 47b1a88 |\n```\n\n{one}");
    assert_eq!(tables_of_several_commits(&fenced).len(), 1);
    let apart = format!("{one}\n| c | 9ffa66c |\n");
    assert!(tables_of_several_commits(&apart).is_empty());
}
