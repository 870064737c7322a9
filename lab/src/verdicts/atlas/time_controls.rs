//! The matches at a time control, `atlas/time-controls.toml` in the
//! repository: each recorded match of one search against another (`lab
//! match` at 2+0.02, 8+0.08, ...), transcribed from the prose of the variant
//! files with both sides' whole feature sets, so the atlas can play the same
//! two searches at fixed nodes (`lab atlas --time-controls`, `--pair`) and
//! `lab report` can set the two Elos side by side: how far the atlas's unit,
//! games at fixed nodes, carries to games on a clock.
//!
//! A TOML file rather than JSON lines: people write it, from prose, and its
//! comments say how. A record matches an atlas result by the two feature
//! sets alone, whatever either is called; the nodes, book and commit of the
//! atlas's games are shown beside it.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use games::statistics::{fixed, Pentanomial, SprtSettings, Wdl};
use serde::Deserialize;

use super::entries::AtlasEntry;
use super::text::{self, interval_text};

/// Where the matches at a time control live, from the repository's root.
pub const TIME_CONTROLS_FILE: &str = "atlas/time-controls.toml";

/// The node count the report's "not played" commands name: the atlas's own
/// (docs/lab/atlas.md, "The node count"), so both tables speak of the same
/// games.
pub const SUGGESTED_NODES: u64 = 10_000;

/// The time-control file beside an atlas file.
pub fn beside(atlas_file: &Path) -> PathBuf {
    atlas_file.with_file_name("time-controls.toml")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TimeControlFile {
    #[serde(rename = "match", default)]
    matches: Vec<TimeControlMatch>,
}

/// One recorded match at a time control: `variant` played first, so its Elo
/// is its gain over `parent`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControlMatch {
    pub variant: String,
    pub parent: String,
    /// Every feature the variant's search compiled in, sorted, in today's
    /// catalogue names.
    pub features: Vec<String>,
    /// Every feature the parent's search compiled in, sorted.
    pub parent_features: Vec<String>,
    /// The time control as `lab match --tc` spells it (`2+0.02`).
    pub tc: String,
    pub games: u64,
    /// Wins, losses and draws of the variant, where written down.
    pub wdl: Option<Wdl>,
    /// The game pairs' pentanomial, where written down.
    pub penta: Option<Pentanomial>,
    /// Logistic Elo with its 95% interval.
    pub elo: WrittenEstimate,
    pub nelo: Option<WrittenEstimate>,
    /// The match's SPRT, its LLR and how it ended; none for a match of a
    /// fixed number of games (all three or none: `check`).
    pub sprt: Option<SprtSettings>,
    pub llr: Option<f64>,
    pub outcome: Option<SprtOutcome>,
    /// When the match ended (`2026-11-25`).
    pub date: String,
    /// The commits the binaries were built from (two when two sittings were
    /// pooled); none when not written down.
    pub commits: Vec<String>,
    /// The seeds of the book's order, where written down.
    #[serde(default)]
    pub book_seeds: Vec<u64>,
    /// The file the numbers are quoted from, from the repository's root.
    pub quoted_from: String,
    /// The passages of that file the numbers come from, verbatim (comment
    /// lines joined by one space).
    pub quote: Vec<String>,
    /// What games at fixed nodes cannot repeat: a search that a name builds
    /// differently since, a commit not written down.
    pub note: Option<String>,
}

/// An estimate as a match printed it: the value with its "±", its interval,
/// or both.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenEstimate {
    pub value: f64,
    pub error: Option<f64>,
    pub interval: Option<(f64, f64)>,
}

impl WrittenEstimate {
    /// The "±": as written, else half the interval's width.
    pub fn error(&self) -> Option<f64> {
        self.error.or(self.interval.map(|(low, high)| (high - low) / 2.0))
    }

    /// The 95% interval: as written, else the value ± the error.
    pub fn interval(&self) -> Option<(f64, f64)> {
        self.interval.or(self.error.map(|error| (self.value - error, self.value + error)))
    }

    /// `+34.0 ± 11.9 [+22.1, +45.9]`, as the atlas's Elo is written.
    pub fn text(&self) -> String {
        match (self.error(), self.interval()) {
            (Some(error), Some(interval)) => interval_text(self.value, error, interval),
            _ => format!("{:+.1}", self.value),
        }
    }
}

/// How the match's SPRT ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SprtOutcome {
    H1Accepted,
    H0Accepted,
    /// Stopped before a verdict.
    Undecided,
}

impl SprtOutcome {
    fn text(self) -> &'static str {
        match self {
            SprtOutcome::H1Accepted => "H1 accepted",
            SprtOutcome::H0Accepted => "H0 accepted",
            SprtOutcome::Undecided => "undecided",
        }
    }
}

impl TimeControlMatch {
    /// `full-old against p003-3 at 2+0.02 (1598 games, 2026-11-23)`.
    pub fn label(&self) -> String {
        format!("{} against {} at {} ({} games, {})", self.variant, self.parent, self.tc, self.games, self.date)
    }

    /// The command that plays the record's two searches at fixed nodes.
    pub fn play_command(&self) -> String {
        format!("lab atlas --pair {}..{} --nodes {SUGGESTED_NODES}", self.variant, self.parent)
    }

    /// Whether `entry` is a result of the same two searches.
    pub fn matches(&self, entry: &AtlasEntry) -> bool {
        entry.key.searches.features == self.features && entry.key.searches.parent_features == self.parent_features
    }

    /// A record the atlas could not play or the report would misread is an
    /// error naming it: each feature set must be the catalogue's (sorted,
    /// closed under implications, no two exclusive features), the two must
    /// differ, and the counts and Elo must be whole.
    pub fn check(&self) -> Result<()> {
        let label = self.label();
        for (side, features) in [(&self.variant, &self.features), (&self.parent, &self.parent_features)] {
            let names: Vec<&str> = features.iter().map(String::as_str).collect();
            let mut resolved = prunelab::features::resolve(&names)
                .map_err(|error| anyhow::anyhow!("{label}: the features of `{side}`: {error}"))?;
            resolved.sort_unstable();
            if resolved != names {
                bail!(
                    "{label}: the features of `{side}` must be the whole set, sorted, as the atlas keys it: [{}]",
                    resolved.join(", ")
                );
            }
        }
        if self.features == self.parent_features {
            bail!("{label}: both sides have the same features, so no game at fixed nodes can tell them apart");
        }
        if let Some(wdl) = self.wdl {
            if wdl.wins + wdl.losses + wdl.draws != self.games {
                bail!("{label}: W {} L {} D {} are not its {} games", wdl.wins, wdl.losses, wdl.draws, self.games);
            }
        }
        if let Some(penta) = self.penta {
            if 2 * penta.0.iter().sum::<u64>() > self.games {
                bail!("{label}: the pentanomial counts more pairs than its {} games hold", self.games);
            }
        }
        match self.elo.interval() {
            Some((low, high)) if low <= self.elo.value && self.elo.value <= high => {}
            _ => bail!("{label}: its Elo needs an error or a 95% interval around its value"),
        }
        if self.quote.is_empty() {
            bail!("{label}: no passage of {} is quoted", self.quoted_from);
        }
        if [self.sprt.is_some(), self.llr.is_some(), self.outcome.is_some()]
            .iter()
            .any(|given| *given != self.sprt.is_some())
        {
            bail!("{label}: an SPRT needs `sprt`, `llr` and `outcome`, and a match without one has none of them");
        }
        Ok(())
    }
}

/// The file's matches, each checked; none when the file does not exist.
pub fn read(path: &Path) -> Result<Vec<TimeControlMatch>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(error).with_context(|| format!("cannot read {}", path.display())),
    };
    let file: TimeControlFile = toml::from_str(&text).with_context(|| format!("{} does not read", path.display()))?;
    for record in &file.matches {
        record.check().with_context(|| format!("in {}", path.display()))?;
    }
    Ok(file.matches)
}

/// The atlas's latest result of the record's two searches, at any node
/// count and book.
pub fn fixed_nodes_result<'a>(record: &TimeControlMatch, atlas: &'a [AtlasEntry]) -> Option<&'a AtlasEntry> {
    atlas.iter().rev().find(|entry| record.matches(entry))
}

/// +1, -1, or `None` for an Elo that prints as 0.0 (at fixed nodes, a phase
/// that does not change the search; an even score's Elo is a rounding error
/// away from 0).
fn sign(value: f64) -> Option<i8> {
    let printed = (value * 10.0).round();
    match printed.partial_cmp(&0.0)? {
        std::cmp::Ordering::Greater => Some(1),
        std::cmp::Ordering::Less => Some(-1),
        std::cmp::Ordering::Equal => None,
    }
}

/// How one record compares with its atlas result: same sign, overlapping
/// intervals (`None` where a side has no sign or no interval).
fn agreement(record: &TimeControlMatch, entry: &AtlasEntry) -> (Option<bool>, Option<bool>) {
    let Some(elo) = entry.elo else { return (None, None) };
    let same_sign = sign(record.elo.value).zip(sign(elo.value)).map(|(a, b)| a == b);
    let overlap = record.elo.interval().map(|(low, high)| low <= elo.high && elo.low <= high);
    (same_sign, overlap)
}

fn yes_no(answer: Option<bool>, missing: &str) -> String {
    match answer {
        Some(true) => "yes".into(),
        Some(false) => "no".into(),
        None => missing.into(),
    }
}

/// `lab report`'s section: each match at a time control beside the atlas's
/// games for the same two feature sets, a line counting agreements, and the
/// records' notes. `file` names the time-control file in its text.
pub fn section(records: &[TimeControlMatch], atlas: &[AtlasEntry], file: &str) -> String {
    let mut out = String::from("## Time controls beside fixed nodes\n\n");
    if records.is_empty() {
        writeln!(out, "`{file}` has no match at a time control yet.").unwrap();
        return out;
    }
    writeln!(
        out,
        "Each match at a time control in `{file}` (transcribed from the variant files) beside the atlas's games at \
         fixed nodes of the same two feature sets: logistic Elo with its 95% interval at each, whether the two \
         point the same way, and whether their intervals overlap.\n"
    )
    .unwrap();
    out.push_str(
        "| variant | parent | time control | Elo at the time control (95%) | SPRT | fixed nodes | Elo at fixed nodes \
         (95%) | same sign | intervals overlap |\n|---|---|---|---|---|---|---|---|---|\n",
    );
    let (mut played, mut same_sign, mut overlapping) = (0, 0, 0);
    for record in records {
        let sprt = match (record.sprt, record.llr, record.outcome) {
            (Some(sprt), Some(llr), Some(outcome)) => {
                format!("[{}, {}] LLR {}: {}", sprt.elo0, sprt.elo1, fixed(llr, 2), outcome.text())
            }
            _ => "none".to_string(),
        };
        let fixed_nodes = match fixed_nodes_result(record, atlas) {
            Some(entry) => {
                played += 1;
                let (sign_agrees, overlap) = agreement(record, entry);
                same_sign += usize::from(sign_agrees == Some(true));
                overlapping += usize::from(overlap == Some(true));
                format!(
                    "N={}, {} games | {} | {} | {}",
                    entry.key.nodes,
                    entry.games,
                    if entry.is_identical() { "identical search".to_string() } else { text::estimate_text(entry.elo) },
                    yes_no(sign_agrees, "no sign"),
                    yes_no(overlap, "-")
                )
            }
            None => format!("not played: `{}` | - | - | -", record.play_command()),
        };
        writeln!(
            out,
            "| {} | {} | {}, {} games | {} | {sprt} | {fixed_nodes} |",
            record.variant,
            record.parent,
            record.tc,
            record.games,
            record.elo.text()
        )
        .unwrap();
    }
    writeln!(
        out,
        "\nOf {} match(es) at a time control, {played} have games at fixed nodes of the same two searches: \
         {same_sign} agree in sign, {overlapping} have overlapping 95% intervals; {} not played yet.",
        records.len(),
        records.len() - played
    )
    .unwrap();
    let notes: Vec<&TimeControlMatch> = records.iter().filter(|record| record.note.is_some()).collect();
    if !notes.is_empty() {
        out.push_str("\nWhat the games at fixed nodes cannot repeat (each match's note):\n\n");
        for record in notes {
            let commits = match record.commits.is_empty() {
                true => "binaries' commit not written down".to_string(),
                false => format!("binaries of {}", record.commits.join(" and ")),
            };
            writeln!(out, "- {}, {commits}: {}.", record.label(), record.note.as_deref().unwrap_or_default()).unwrap();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use games::statistics::Model;

    use super::*;
    use crate::verdicts::atlas::entries::tests::entry;

    /// A match at 2+0.02 of `variant` (features [variant]) against
    /// `parent` (no features), at `elo` ± 10.
    fn record(variant: &str, elo: f64) -> TimeControlMatch {
        TimeControlMatch {
            variant: variant.into(),
            parent: "parent".into(),
            features: vec![variant.into()],
            parent_features: Vec::new(),
            tc: "2+0.02".into(),
            games: 100,
            wdl: None,
            penta: None,
            elo: WrittenEstimate { value: elo, error: Some(10.0), interval: None },
            nelo: None,
            sprt: Some(SprtSettings { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05, model: Model::Normalized }),
            llr: Some(1.5),
            outcome: Some(SprtOutcome::Undecided),
            date: "2026-11-25".into(),
            commits: vec!["0123456".into()],
            book_seeds: Vec::new(),
            quoted_from: "variants/full.toml".into(),
            quote: vec!["a passage".into()],
            note: None,
        }
    }

    #[test]
    fn the_table_sets_each_match_beside_the_atlas_result_of_the_same_two_feature_sets() {
        // Atlas: a won (its interval above 0), b lost, c even.
        let won = entry("a", (60, 20, 20), [2, 8, 20, 12, 8]);
        let lost = entry("b", (20, 60, 20), [8, 12, 20, 8, 2]);
        let even = entry("c", (10, 10, 80), [5, 10, 20, 10, 5]);
        let atlas = [won, lost, even];
        let mut records = vec![record("a", 20.0), record("b", 30.0), record("c", 5.0), record("d", -4.0)];
        records[0].elo = WrittenEstimate { value: 20.0, error: Some(11.9), interval: Some((8.0, 31.9)) };
        records[0].outcome = Some(SprtOutcome::H1Accepted);
        records[0].llr = Some(2.96);
        // The same name, another search: not the atlas's `c`.
        let mut other_search = record("c", 5.0);
        other_search.features = vec!["c".into(), "x".into()];
        records.push(other_search);
        records[1].note = Some("its binaries searched otherwise".into());

        let text = section(&records, &atlas, "tc.toml");
        let rows: Vec<&str> = text.lines().filter(|line| line.starts_with("| ")).skip(1).collect();
        assert_eq!(
            rows,
            [
                "| a | parent | 2+0.02, 100 games | +20.0 ± 11.9 [+8.0, +31.9] | [0, 5] LLR 2.96: H1 accepted | \
                 N=10000, 100 games | +56.1 ± 52.2 [+5.1, +109.5] | yes | yes |",
                "| b | parent | 2+0.02, 100 games | +30.0 ± 10.0 [+20.0, +40.0] | [0, 5] LLR 1.50: undecided | \
                 N=10000, 100 games | -56.1 ± 52.2 [-109.5, -5.1] | no | no |",
                "| c | parent | 2+0.02, 100 games | +5.0 ± 10.0 [-5.0, +15.0] | [0, 5] LLR 1.50: undecided | \
                 N=10000, 100 games | +0.0 ± 53.2 [-53.2, +53.2] | no sign | yes |",
                "| d | parent | 2+0.02, 100 games | -4.0 ± 10.0 [-14.0, +6.0] | [0, 5] LLR 1.50: undecided | not \
                 played: `lab atlas --pair d..parent --nodes 10000` | - | - | - |",
                "| c | parent | 2+0.02, 100 games | +5.0 ± 10.0 [-5.0, +15.0] | [0, 5] LLR 1.50: undecided | not \
                 played: `lab atlas --pair c..parent --nodes 10000` | - | - | - |",
            ]
        );
        assert!(
            text.contains(
                "\nOf 5 match(es) at a time control, 3 have games at fixed nodes of the same two searches: 1 agree in \
                 sign, 2 have overlapping 95% intervals; 2 not played yet.\n"
            ),
            "{text}"
        );
        assert!(
            text.ends_with(
                "- b against parent at 2+0.02 (100 games, 2026-11-25), binaries of 0123456: its binaries searched \
                 otherwise.\n"
            ),
            "{text}"
        );
        assert_eq!(
            section(&[], &atlas, "tc.toml"),
            "## Time controls beside fixed nodes\n\n`tc.toml` has no match at a time control yet.\n"
        );
    }

    #[test]
    fn a_record_matches_the_atlas_by_both_feature_sets_only() {
        let mut played = entry("full", (60, 20, 20), [2, 8, 20, 12, 8]);
        played.variant = "another-name".into();
        let record = record("full", 10.0);
        assert_eq!(fixed_nodes_result(&record, std::slice::from_ref(&played)), Some(&played));
        let mut other_parent = played.clone();
        other_parent.key.searches.parent_features = vec!["razor-r1".into()];
        assert_eq!(fixed_nodes_result(&record, &[other_parent]), None);
        let mut other_variant = played.clone();
        other_variant.key.searches.features = vec!["full".into(), "iir".into()];
        assert_eq!(fixed_nodes_result(&record, &[other_variant]), None);
    }

    #[test]
    fn a_record_must_name_whole_catalogue_feature_sets() {
        let mut bad = record("iir", 1.0);
        assert!(bad.check().is_ok());
        bad.features = vec!["iir-pv".into()];
        let error = bad.check().unwrap_err().to_string();
        assert!(
            error.ends_with("the features of `iir` must be the whole set, sorted, as the atlas keys it: [iir, iir-pv]"),
            "{error}"
        );
        bad.features = vec!["no-such-feature".into()];
        assert!(bad.check().unwrap_err().to_string().contains("unknown feature 'no-such-feature'"));
        bad.features = Vec::new();
        assert!(bad.check().unwrap_err().to_string().contains("both sides have the same features"));
        let mut uneven = record("iir", 1.0);
        uneven.wdl = Some(Wdl { wins: 50, losses: 20, draws: 20 });
        assert_eq!(
            uneven.check().unwrap_err().to_string(),
            "iir against parent at 2+0.02 (100 games, 2026-11-25): W 50 L 20 D 20 are not its 100 games"
        );
    }

    /// The repository's comments as one line: each comment line's text, `#`
    /// and indentation taken off, joined by one space.
    /// A variant file's comments, or a page's whole text (a match the lab
    /// played for docs/measured/), with its lines joined by one space.
    fn comment_text(path: &Path) -> String {
        let text = std::fs::read_to_string(path).unwrap();
        let lines: Vec<&str> = match path.extension().and_then(|extension| extension.to_str()) {
            Some("md") => text.lines().map(str::trim).collect(),
            _ => text.lines().filter_map(|line| line.trim_start().strip_prefix('#')).map(str::trim).collect(),
        };
        lines.join(" ").split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// Every number of a record as its source prints it.
    fn written_numbers(record: &TimeControlMatch) -> Vec<String> {
        let mut numbers = vec![format!("{} games", record.games), record.tc.clone()];
        numbers.extend(record.llr.map(|llr| format!("LLR {llr:.2}")));
        numbers.push(record.date.clone());
        numbers.extend(record.commits.iter().cloned());
        if let Some(wdl) = record.wdl {
            numbers.push(format!("+{} -{} ={}", wdl.wins, wdl.losses, wdl.draws));
        }
        if let Some(penta) = record.penta {
            numbers.push(format!("{:?}", penta.0));
        }
        for (name, estimate) in [("Elo", Some(record.elo)), ("nElo", record.nelo)] {
            let Some(estimate) = estimate else { continue };
            let mut text = format!("{name} {:+.1}", estimate.value);
            if let Some(error) = estimate.error {
                write!(text, " +- {error:.1}").unwrap();
            }
            if let Some((low, high)) = estimate.interval {
                write!(text, " [{low:+.1}, {high:+.1}]").unwrap();
            }
            numbers.push(text);
        }
        numbers.extend(record.sprt.map(|sprt| format!("SPRT [{}, {}] normalized", sprt.elo0, sprt.elo1)));
        numbers.extend(record.book_seeds.iter().map(|seed| format!("seed {seed}")));
        numbers
    }

    #[test]
    fn every_record_of_the_repository_is_what_its_variant_file_says() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let records = read(&root.join(TIME_CONTROLS_FILE)).unwrap();
        assert_eq!(records.len(), 14);
        for record in &records {
            let comments = comment_text(&root.join(&record.quoted_from));
            for passage in &record.quote {
                assert!(
                    comments.contains(passage.as_str()),
                    "{}: not in {}: {passage}",
                    record.label(),
                    record.quoted_from
                );
            }
            for number in written_numbers(record) {
                assert!(
                    record.quote.iter().any(|passage| passage.contains(&number)),
                    "{}: `{number}` is in no quoted passage",
                    record.label()
                );
            }
            if let Some(sprt) = record.sprt {
                assert_eq!(sprt.model, Model::Normalized);
                assert_eq!((sprt.alpha, sprt.beta), (0.05, 0.05));
            }
        }
        // Today's `full` is the full of the match that gave it iir.
        let lab = crate::lab::Lab::for_tests();
        let mut full: Vec<&str> = lab.variant("full").unwrap().features.clone();
        full.sort_unstable();
        assert_eq!(records[0].features, full);
    }

    // Every SPRT the repository stores, replayed: each atlas line's LLR and
    // verdict, and each time-control record's LLR (as written, to 0.01), are
    // what today's LLR gives its counts. A solver that stopped on a pole of
    // the secular equation stored LLRs of ±30 (full-without-move_count,
    // H0 at 180 games where fishtest's LLR was -1.16; replayed in 3e3c2e0's
    // session: H0 at 484 games).
    #[test]
    fn every_stored_sprt_is_what_its_counts_give() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let atlas = super::super::entries::read(&root.join(super::super::entries::ATLAS_FILE));
        let mut checked = 0;
        for entry in &atlas {
            let (Some(settings), Some(stored)) = (entry.sprt, entry.sprt_status) else { continue };
            let replayed = settings.on_pairs(&entry.penta);
            assert!(
                (replayed.llr - stored.llr).abs() < 1e-6,
                "{}: LLR {} stored, {} replayed",
                entry.variant,
                stored.llr,
                replayed.llr
            );
            assert_eq!(replayed.verdict, stored.verdict, "{}", entry.variant);
            let stopped_by_sprt = entry.stop == "sprt";
            assert_eq!(stopped_by_sprt, stored.verdict != games::statistics::SprtState::Continue, "{}", entry.variant);
            checked += 1;
        }
        assert!(checked >= 30, "{checked} atlas lines with an SPRT");
        for record in read(&root.join(TIME_CONTROLS_FILE)).unwrap() {
            // A record with W/D/L only was an SPRT on pairs whose
            // pentanomial was not written down (its trinomial LLR differs by
            // a few hundredths): it cannot be replayed.
            let (Some(penta), Some(sprt), Some(llr)) = (record.penta, record.sprt, record.llr) else { continue };
            let replayed = sprt.on_pairs(&penta);
            assert!(
                (replayed.llr - llr).abs() <= 0.0051,
                "{}: LLR {} written, {} replayed",
                record.label(),
                llr,
                replayed.llr
            );
        }
    }
}
