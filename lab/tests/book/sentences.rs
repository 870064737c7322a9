//! The book reads in short sentences, as fastchess's README (about 12
//! words a sentence) and criterion's guide (16 to 20) do: over README.md
//! and every page of docs/, the mean is at most 18 words a sentence, and at
//! most 3% of sentences run past 40 words (issue 57).
//!
//! How a page is counted:
//! - Left out: fenced code blocks (three or more backticks or tildes),
//!   table rows (lines starting with `|`), headings (`#`), HTML comments,
//!   link definitions (`[name]: target`) and images. docs/SUMMARY.md, the
//!   table of contents, is not prose and is left out whole.
//! - What is left falls into units: a paragraph, or one list item (its
//!   marker, `-`, `*`, `+`, `1.` or `1)`, dropped). A blank line, a left-out
//!   line or the next list marker ends a unit. A quote's `>` is dropped.
//! - A link counts as its text (`[text](target)` is `text`).
//! - A unit splits into sentences after each word that ends in `.`, `!` or
//!   `?` (closing `)`, `"`, `'`, `*` or `_` after it allowed), except `e.g.`,
//!   `i.e.`, `vs.` and `cf.`; its end ends its last sentence. Inside a code
//!   span (between backticks) nothing ends a sentence.
//! - A word is a run of non-space characters with at least one letter or
//!   digit, code spans' words included; `—`, `±` or `=` alone is no word.
//!
//! Each file is held to the bound on its own, so the whole is too. The
//! files in [`NOT_YET`] are not yet held to it: each carries its numbers
//! when it was listed, and may not get worse. A listed file that meets the
//! bound must leave the list; a file may never join it. To see the
//! numbers: `cargo test -p lab --profile ci --test lab book::sentences --
//! --nocapture`.

/// At most this many words a sentence on average, in each file.
const MEAN_AT_MOST: f64 = 18.0;
/// A sentence of more words than this is long.
const LONG: usize = 40;
/// At most this share of a file's sentences may be long, in percent.
const LONG_SHARE_AT_MOST: f64 = 3.0;

/// The files not yet held to the bound, each with the most it may reach:
/// its mean words a sentence, and its share of long sentences in percent,
/// when it was listed (rounded up to one decimal). Only ever take a file
/// off.
const NOT_YET: &[(&str, f64, f64)] = &[];

/// A file's (or the whole book's) sentences: how many, their words, and
/// how many are long.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counts {
    pub sentences: usize,
    pub words: usize,
    pub long: usize,
}

impl Counts {
    fn of(lengths: &[usize]) -> Counts {
        Counts {
            sentences: lengths.len(),
            words: lengths.iter().sum(),
            long: lengths.iter().filter(|&&words| words > LONG).count(),
        }
    }

    fn add(&mut self, other: Counts) {
        self.sentences += other.sentences;
        self.words += other.words;
        self.long += other.long;
    }

    /// Mean words a sentence (0 for no sentence).
    pub fn mean(&self) -> f64 {
        if self.sentences == 0 {
            0.0
        } else {
            self.words as f64 / self.sentences as f64
        }
    }

    /// The share of long sentences, in percent.
    pub fn long_share(&self) -> f64 {
        if self.sentences == 0 {
            0.0
        } else {
            100.0 * self.long as f64 / self.sentences as f64
        }
    }

    fn within_bound(&self) -> bool {
        self.mean() <= MEAN_AT_MOST && self.long_share() <= LONG_SHARE_AT_MOST
    }
}

/// A page's prose units: its paragraphs and list items, each as one line,
/// what is not prose left out (see the module's comment).
pub fn prose_units(page: &str) -> Vec<String> {
    let mut units = Vec::new();
    let mut unit: Vec<&str> = Vec::new();
    let mut flush = |unit: &mut Vec<&str>| {
        if !unit.is_empty() {
            units.push(unit.join(" "));
            unit.clear();
        }
    };
    // Inside a fence: its character and its length.
    let mut fence: Option<(char, usize)> = None;
    let mut in_comment = false;
    for line in page.lines() {
        let mut text = line.trim();
        if let Some(mark) = text.chars().next().filter(|c| *c == '`' || *c == '~') {
            let count = text.chars().take_while(|c| *c == mark).count();
            if count >= 3 {
                match fence {
                    None => {
                        flush(&mut unit);
                        fence = Some((mark, count));
                        continue;
                    }
                    Some((open, at_least)) if open == mark && count >= at_least && text[count..].trim().is_empty() => {
                        fence = None;
                        continue;
                    }
                    Some(_) => {}
                }
            }
        }
        if fence.is_some() {
            continue;
        }
        if in_comment {
            in_comment = !text.contains("-->");
            continue;
        }
        if text.starts_with("<!--") {
            flush(&mut unit);
            in_comment = !text.contains("-->");
            continue;
        }
        if text.is_empty() || text.starts_with('#') || text.starts_with('|') || is_link_definition(text) {
            flush(&mut unit);
            continue;
        }
        while let Some(rest) = text.strip_prefix('>') {
            text = rest.trim_start();
        }
        if let Some(item) = list_item(text) {
            flush(&mut unit);
            text = item;
        }
        if !text.is_empty() {
            unit.push(text);
        }
    }
    flush(&mut unit);
    units
}

/// `[name]: target`.
fn is_link_definition(line: &str) -> bool {
    line.starts_with('[') && line.find("]: ").is_some_and(|at| !line[..at].contains(']'))
}

/// A list item's text without its marker (`-`, `*`, `+`, `1.`, `1)`).
fn list_item(line: &str) -> Option<&str> {
    let digits = line.chars().take_while(|c| c.is_ascii_digit()).count();
    let marker = if digits > 0 {
        match line[digits..].chars().next() {
            Some('.' | ')') => digits + 1,
            _ => return None,
        }
    } else if line.starts_with(['-', '*', '+']) {
        1
    } else {
        return None;
    };
    let rest = &line[marker..];
    rest.starts_with([' ', '\t']).then(|| rest.trim_start())
}

/// `text` with each image dropped and each link replaced by its text.
fn without_link_targets(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let image = rest[..open].ends_with('!');
        out.push_str(&rest[..open - usize::from(image)]);
        let after = &rest[open + 1..];
        // The link's text, then `(target)` or `[name]`.
        let target = after.find("](").map(|at| (at, ')')).or_else(|| after.find("][").map(|at| (at, ']')));
        match target {
            Some((close, end)) if !after[..close].contains('[') => match after[close + 2..].find(end) {
                Some(length) => {
                    if !image {
                        out.push_str(&after[..close]);
                    }
                    rest = &after[close + 2 + length + 1..];
                }
                None => {
                    out.push('[');
                    rest = after;
                }
            },
            _ => {
                out.push('[');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Abbreviations whose full stop does not end a sentence.
const ABBREVIATIONS: [&str; 4] = ["e.g.", "i.e.", "vs.", "cf."];

/// The words of each sentence of a unit (see the module's comment).
pub fn sentence_lengths(unit: &str) -> Vec<usize> {
    let text = without_link_targets(unit);
    let mut lengths = Vec::new();
    let mut words = 0;
    for (index, part) in text.split('`').enumerate() {
        let in_code = index % 2 == 1;
        for word in part.split_whitespace() {
            if word.chars().any(char::is_alphanumeric) {
                words += 1;
            }
            if in_code {
                continue;
            }
            let bare = word.trim_end_matches([')', '"', '\'', '*', '_', '”', '’']);
            let ends = bare.ends_with(['.', '!', '?'])
                && !ABBREVIATIONS.iter().any(|abbreviation| bare.to_lowercase().ends_with(abbreviation));
            if ends && words > 0 {
                lengths.push(words);
                words = 0;
            }
        }
    }
    if words > 0 {
        lengths.push(words);
    }
    lengths
}

/// A page's counts.
pub fn counts(page: &str) -> Counts {
    let lengths: Vec<usize> = prose_units(page).iter().flat_map(|unit| sentence_lengths(unit)).collect();
    Counts::of(&lengths)
}

fn row(name: &str, counts: Counts, note: &str) -> String {
    format!(
        "{name:<36} {:>5} {:>6} {:>7.1} {:>6.1}%  {note}",
        counts.sentences,
        counts.words,
        counts.mean(),
        counts.long_share()
    )
}

#[test]
fn the_books_sentences_are_short() {
    // README and the book, but the table of contents.
    let pages: Vec<(String, String)> =
        super::front_page_and_book().into_iter().filter(|(name, _)| name != "docs/SUMMARY.md").collect();
    let mut table = vec![format!("{:<36} {:>5} {:>6} {:>7} {:>7}", "file", "sent.", "words", "mean", "> 40")];
    let mut problems = Vec::new();
    let mut whole = Counts::default();
    for (name, text) in &pages {
        let counts = counts(text);
        whole.add(counts);
        let listed = NOT_YET.iter().find(|(file, _, _)| file == name);
        let note = match listed {
            None if counts.within_bound() => "",
            None => {
                problems.push(format!(
                    "{name}: {:.1} words a sentence, {:.1}% over {LONG}: at most {MEAN_AT_MOST} and \
                     {LONG_SHARE_AT_MOST}% (split its long sentences; move asides into lists or tables)",
                    counts.mean(),
                    counts.long_share()
                ));
                "over the bound"
            }
            Some(_) if counts.within_bound() => {
                problems.push(format!("{name} meets the bound now: take it off NOT_YET"));
                "meets the bound: take it off NOT_YET"
            }
            Some(&(_, mean, share)) => {
                // The listed numbers are rounded up to one decimal.
                if counts.mean() > mean + 1e-9 || counts.long_share() > share + 1e-9 {
                    problems.push(format!(
                        "{name}: {:.1} words a sentence, {:.1}% over {LONG}: worse than when it was listed \
                         ({mean:.1}, {share:.1}%)",
                        counts.mean(),
                        counts.long_share()
                    ));
                }
                "not yet held to the bound"
            }
        };
        table.push(row(name, counts, note));
    }
    table.push(row("all", whole, ""));
    for (file, _, _) in NOT_YET {
        if !pages.iter().any(|(name, _)| name == file) {
            problems.push(format!("{file} is in NOT_YET but is not a page of the book"));
        }
    }
    println!("{}", table.join("\n"));
    assert!(problems.is_empty(), "{}\n\n{}", problems.join("\n"), table.join("\n"));
}

#[test]
fn a_page_is_counted_as_the_module_says() {
    let page = "# A heading of many words that are not counted at all\n\
                \n\
                The first sentence has six words. The second, e.g. this\n\
                one, runs across two lines!\n\
                \n\
                - A list item ends a sentence\n\
                - [A link's text](https://example.org/a.b.c) counts, its target not\n\
                1. `cargo lab ab razor-r1 --sprt.` is five words — and then six more.\n\
                \n\
                | a table | of words. |\n\
                | --- | --- |\n\
                \n\
                ```sh\n\
                a code block. Of words.\n\
                ```\n\
                <!-- a comment. -->\n\
                > A quote, ![an image](x.png) left out.\n\
                [name]: https://example.org\n";
    let units = prose_units(page);
    assert_eq!(
        units,
        [
            "The first sentence has six words. The second, e.g. this one, runs across two lines!",
            "A list item ends a sentence",
            "[A link's text](https://example.org/a.b.c) counts, its target not",
            "`cargo lab ab razor-r1 --sprt.` is five words — and then six more.",
            "A quote, ![an image](x.png) left out.",
        ]
    );
    let lengths: Vec<Vec<usize>> = units.iter().map(|unit| sentence_lengths(unit)).collect();
    assert_eq!(lengths, [vec![6, 9], vec![6], vec![7], vec![12], vec![4]]);
    let counts = counts(page);
    assert_eq!(counts, Counts { sentences: 6, words: 44, long: 0 });
    assert!((counts.mean() - 44.0 / 6.0).abs() < 1e-9);
}

#[test]
fn a_long_sentence_is_one_of_more_than_forty_words() {
    let words = |n: usize| vec!["word"; n].join(" ") + ".";
    let page = format!("{} {}\n\n{}\n", words(40), words(41), words(3));
    assert_eq!(counts(&page), Counts { sentences: 3, words: 84, long: 1 });
    assert!((counts(&page).long_share() - 100.0 / 3.0).abs() < 1e-9);
    // A fence of four backticks holds one of three; a tilde fence closes
    // only with tildes; an unclosed fence runs to the page's end.
    let fenced = "````\n```\nnot. prose.\n```\n````\nOne.\n~~~\n```\nnot.\n~~~\nTwo words.\n```\nnever. counted.\n";
    assert_eq!(prose_units(fenced), ["One.", "Two words."]);
    // No sentence, no mean.
    assert_eq!(counts("# Only a heading\n").mean(), 0.0);
    // A bracket that is no link stays; `3.5` and `a.b` end nothing.
    assert_eq!(sentence_lengths("[sic] a 3.5 and a.b then. End"), [6, 1]);
}
