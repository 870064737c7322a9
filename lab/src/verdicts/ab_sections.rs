//! The sections of `lab ab`'s page, in the order it writes them. The page's
//! writers take every heading from here and check the page they wrote
//! against the list ([`check`], in builds with debug assertions); the
//! book's test (`lab/tests/book.rs`) checks each example verdict of README
//! and docs/ with the same function, so an example cannot lack a section
//! the command prints, or show one it does not.

/// How often a section is on the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Times {
    /// On every page.
    Always,
    /// On some pages only (another engine's sanity match, games on disk, `--sprt`).
    AtMostOnce,
    /// Once for each tactical suite run: none with `--tactics none`.
    PerSuite,
}

/// A section: its heading's fixed words (what follows names the run), and
/// how often the page has it.
#[derive(Clone, Copy, Debug)]
pub struct Section {
    pub heading: &'static str,
    pub times: Times,
}

pub const TITLE: &str = "# Verdict: ";
/// What the sanity match of a verdict on another engine found: illegal
/// moves, crashes, time losses.
pub const FINDINGS: &str = "## Findings: ";
/// What the games of `--decide` decided, first.
pub const DECISION: &str = "## Decision";
/// The games on disk for the pair, written by `games::evidence`.
pub const GAMES: &str = "## Games: ";
pub const ATLAS: &str = "## What the atlas says of these numbers";
pub const CLAIMS: &str = "## Claims of ";
pub const SPRT_PLAN: &str = "## SPRT plan";
pub const NODES: &str = "## Nodes: ";
pub const TIME_TO_DEPTH: &str = "## Time to depth ";
pub const TACTICS: &str = "## Tactics: ";
pub const RESULTS: &str = "## Results";
/// The match `--sprt` played.
pub const MATCH: &str = "## Match: ";

/// The page's sections, in order.
pub const SECTIONS: [Section; 12] = [
    Section { heading: TITLE, times: Times::Always },
    Section { heading: FINDINGS, times: Times::AtMostOnce },
    Section { heading: DECISION, times: Times::AtMostOnce },
    Section { heading: GAMES, times: Times::AtMostOnce },
    Section { heading: ATLAS, times: Times::Always },
    Section { heading: CLAIMS, times: Times::Always },
    Section { heading: SPRT_PLAN, times: Times::Always },
    Section { heading: NODES, times: Times::Always },
    Section { heading: TIME_TO_DEPTH, times: Times::Always },
    Section { heading: TACTICS, times: Times::PerSuite },
    Section { heading: RESULTS, times: Times::Always },
    Section { heading: MATCH, times: Times::AtMostOnce },
];

/// Whether `page`'s headings (its lines that start with `#`, up to the
/// match's section, which holds `lab match`'s page with headings of its
/// own) are the sections of [`SECTIONS`], in order and as often as each
/// may be; the error names the first heading out of place or the section
/// missing.
pub fn check(page: &str) -> Result<(), String> {
    let mut headings: Vec<&str> = page.lines().filter(|line| line.starts_with('#')).collect();
    if let Some(played) = headings.iter().position(|heading| heading.starts_with(MATCH)) {
        headings.truncate(played + 1);
    }
    let mut at = 0;
    for section in SECTIONS {
        let mut count = 0;
        while headings.get(at).is_some_and(|heading| heading.starts_with(section.heading)) {
            at += 1;
            count += 1;
        }
        match (section.times, count) {
            (Times::Always, 1) | (Times::AtMostOnce, 0 | 1) | (Times::PerSuite, _) => {}
            (Times::Always, 0) => return Err(format!("no section `{}...`", section.heading)),
            (_, count) => return Err(format!("the section `{}...` {count} times", section.heading)),
        }
    }
    match headings.get(at) {
        Some(heading) => Err(format!("`{heading}` is not a section of `lab ab`'s page, or not in its place")),
        None => Ok(()),
    }
}
