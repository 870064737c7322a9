//! `lab atlas-lines`: each technique's measured worth, written where a
//! reader of the engine meets the technique, from the atlas
//! (`atlas/atlas.jsonl`). A technique's worth is its ablation: `full`
//! without the technique's features (`full-without-<technique>`, see
//! `crate::variants::ablations`) against `full`, at fixed nodes a move.
//! One generated line per technique says its Elo with the 95% interval, the
//! games and the node budget, as Ethereal writes "Step 9 (~93 elo)":
//!
//! - in the technique's file, `src/prune/<technique>.rs`, at the end of its
//!   doc comment: `//! Measured: full-without-iir against full: ...`;
//! - in `src/search.rs`, after the comment of the step that names the file:
//!   `// Measured: full-without-iir against full: ...`.
//!
//! `lab atlas-lines` writes them (after `lab atlas` adds or replaces a
//! result, as the atlas's latest result per pair is the one written);
//! `--check` only says which differ, and the lab's tests fail while any
//! does.

use std::path::Path;

use anyhow::{bail, Context, Result};
use clap::Args;
use games::statistics::fixed;
use prunelab::prune::TECHNIQUE_NAMES;

use crate::lab::Lab;
use crate::variants::ablations;
use crate::verdicts::atlas::entries::{self, AtlasEntry, ATLAS_FILE};

#[derive(Args, Debug)]
pub struct AtlasLinesArgs {
    /// Write nothing: list the files whose lines differ from the atlas, and
    /// fail if any does.
    #[arg(long)]
    pub check: bool,
}

/// The variant the lines measure each technique's worth in.
const BASE: &str = "full";

/// What every generated line starts with, after its comment marker.
const MARK: &str = "Measured: ";

/// `lab atlas-lines`.
pub fn command(lab: &Lab, args: &AtlasLinesArgs) -> Result<()> {
    let atlas = entries::read(&lab.root.join(ATLAS_FILE));
    let full = lab.variant(BASE)?;
    let edits = edits(&lab.root, &atlas, &ablations::techniques(&full.features))?;
    if args.check {
        if edits.is_empty() {
            println!("atlas-lines: every technique's line agrees with {ATLAS_FILE}");
            return Ok(());
        }
        let files: Vec<String> = edits.iter().map(|(path, _)| path.clone()).collect();
        bail!(
            "atlas-lines: these files' lines differ from {ATLAS_FILE}: {} (run `cargo lab atlas-lines`)",
            files.join(", ")
        );
    }
    for (path, text) in &edits {
        std::fs::write(lab.root.join(path), text).with_context(|| format!("cannot write {path}"))?;
        println!("atlas-lines: wrote {path}");
    }
    if edits.is_empty() {
        println!("atlas-lines: every technique's line already agrees with {ATLAS_FILE}");
    }
    Ok(())
}

/// A technique's line, without its comment marker; `in_full`: the
/// techniques `full` compiles in.
pub fn line(technique: &str, atlas: &[AtlasEntry], in_full: &[&str]) -> String {
    let variant = format!("{BASE}-without-{technique}");
    if !in_full.contains(&technique) {
        return format!("{MARK}{variant} is no ablation: no feature of {technique} is in {BASE}.");
    }
    let latest = entries::latest_per_variant(atlas);
    let Some(entry) = latest.into_iter().find(|entry| entry.variant == variant && entry.parent == BASE) else {
        return format!("{MARK}{variant} is not in the atlas yet (`lab atlas --ablate {BASE}`).");
    };
    let budget = format!("{} games at {} nodes a move", entry.games, entry.key.nodes);
    let measure = match entry.elo {
        _ if entry.is_identical() => format!("{} searches as {BASE} from every opening", entry.variant),
        Some(elo) => format!("{} Elo [{}, {}], {budget}", signed(elo.value), signed(elo.low), signed(elo.high)),
        None => format!("no Elo, {budget}"),
    };
    let stop = match entry.stop.as_str() {
        "games" | "identical" => String::new(),
        "sprt" => ", stopped by its SPRT".to_string(),
        other => format!(", stopped: {other}"),
    };
    format!("{MARK}{variant} against {BASE}: {measure}{stop}.")
}

fn signed(value: f64) -> String {
    let text = fixed(value, 1);
    if text.starts_with('-') {
        text
    } else {
        format!("+{text}")
    }
}

/// Every file whose lines differ from the atlas, with its new text, read
/// from `root`.
pub fn edits(root: &Path, atlas: &[AtlasEntry], in_full: &[&str]) -> Result<Vec<(String, String)>> {
    let read = |path: &str| std::fs::read_to_string(root.join(path)).with_context(|| format!("cannot read {path}"));
    let mut edits = Vec::new();
    let search_path = "src/search.rs";
    let mut search = read(search_path)?;
    for technique in TECHNIQUE_NAMES {
        let line = line(technique, atlas, in_full);
        let path = format!("src/prune/{technique}.rs");
        let text = read(&path)?;
        let written = with_header_line(&text, technique, &line).with_context(|| path.clone())?;
        if written != text {
            edits.push((path, written));
        }
        search = with_step_line(&search, technique, &line).with_context(|| search_path.to_string())?;
    }
    if search != read(search_path)? {
        edits.push((search_path.to_string(), search));
    }
    Ok(edits)
}

/// Whether a comment's text (after its marker) is the technique's line.
fn is_line_of(comment: &str, technique: &str) -> bool {
    comment.strip_prefix(MARK).is_some_and(|rest| rest.starts_with(&format!("{BASE}-without-{technique} ")))
}

/// The technique's file with its line as the last paragraph of its doc
/// comment (`//!`), replacing the line it had.
fn with_header_line(text: &str, technique: &str, line: &str) -> Result<String> {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let doc_end = lines.iter().position(|l| !l.starts_with("//!")).unwrap_or(lines.len());
    if doc_end == 0 {
        bail!("no doc comment (`//!`) to write the measured line in");
    }
    let new = format!("//! {line}");
    match lines[..doc_end].iter().position(|l| l.strip_prefix("//! ").is_some_and(|c| is_line_of(c, technique))) {
        Some(at) => lines[at] = new,
        None => {
            lines.insert(doc_end, new);
            lines.insert(doc_end, "//!".to_string());
        }
    }
    Ok(lines.join("\n") + "\n")
}

/// `src/search.rs` with the technique's line after the comment of the first
/// step (`// Step ...`) that names its file, replacing the line it had.
fn with_step_line(text: &str, technique: &str, line: &str) -> Result<String> {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let comment = |l: &str| l.trim_start().strip_prefix("// ").map(str::to_string);
    if let Some(at) = lines.iter().position(|l| comment(l).is_some_and(|c| is_line_of(&c, technique))) {
        let indent = &lines[at][..lines[at].len() - lines[at].trim_start().len()];
        lines[at] = format!("{indent}// {line}");
        return Ok(lines.join("\n") + "\n");
    }
    let file = format!("{technique}.rs");
    // The step comments: blocks of `//` lines whose first says `// Step `.
    let mut at = 0;
    while at < lines.len() {
        if !lines[at].trim_start().starts_with("// Step ") {
            at += 1;
            continue;
        }
        let mut end = at + 1;
        while end < lines.len()
            && lines[end].trim_start().starts_with("//")
            && !lines[end].trim_start().starts_with("///")
        {
            end += 1;
        }
        if lines[at..end].iter().any(|l| l.contains(&file)) {
            let indent = lines[at][..lines[at].len() - lines[at].trim_start().len()].to_string();
            lines.insert(end, format!("{indent}// {line}"));
            return Ok(lines.join("\n") + "\n");
        }
        at = end;
    }
    bail!("no step comment (`// Step ...`) names {file}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdicts::atlas::entries::tests::entry;

    fn ablation(technique: &str, wdl: (u64, u64, u64), penta: [u64; 5]) -> AtlasEntry {
        let mut ablation = entry(&format!("full-without-{technique}"), wdl, penta);
        ablation.parent = "full".into();
        ablation
    }

    /// The repository's files say what its atlas says: each technique's
    /// line, in its file and at its step, is the one `lab atlas-lines`
    /// writes. After a new atlas result, run `cargo lab atlas-lines`.
    #[test]
    fn every_technique_shows_its_atlas_line() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let atlas = entries::read(&root.join(ATLAS_FILE));
        assert!(!atlas.is_empty());
        let lab = Lab::for_tests();
        let in_full = ablations::techniques(&lab.variant(BASE).unwrap().features);
        let differ: Vec<String> = edits(&root, &atlas, &in_full).unwrap().into_iter().map(|(path, _)| path).collect();
        assert!(differ.is_empty(), "{differ:?}: the atlas lines differ from {ATLAS_FILE}: run `cargo lab atlas-lines`");
        // Every technique file carries its line, and search.rs one per technique.
        let search = std::fs::read_to_string(root.join("src/search.rs")).unwrap();
        for technique in TECHNIQUE_NAMES {
            let file = std::fs::read_to_string(root.join(format!("src/prune/{technique}.rs"))).unwrap();
            let line = line(technique, &atlas, &in_full);
            assert!(file.contains(&format!("\n//! {line}\n")), "src/prune/{technique}.rs");
            assert_eq!(search.matches(&format!("// {line}\n")).count(), 1, "src/search.rs: {technique}");
        }
    }

    /// A line reads the latest result of the ablation against `full`, its
    /// Elo with the interval, games and nodes; another parent's result or
    /// none says so.
    #[test]
    fn a_line_says_the_latest_result_against_full() {
        let older = ablation("iir", (300, 400, 300), [50, 150, 200, 80, 20]);
        let newer = ablation("iir", (310, 390, 300), [40, 160, 200, 80, 20]);
        let mut elsewhere = ablation("razoring", (400, 300, 300), [20, 80, 200, 150, 50]);
        elsewhere.parent = "p003-3".into();
        let atlas = vec![older, newer.clone(), elsewhere];
        let in_full = ["iir", "razoring", "move_count"];
        let line = |technique: &str, atlas: &[AtlasEntry]| line(technique, atlas, &in_full);
        let elo = newer.elo.unwrap();
        assert_eq!(
            line("iir", &atlas),
            format!(
                "Measured: full-without-iir against full: {} Elo [{}, {}], 1000 games at 10000 nodes a move.",
                signed(elo.value),
                signed(elo.low),
                signed(elo.high)
            )
        );
        assert!(elo.value < 0.0 && line("iir", &atlas).contains(": -"), "{}", line("iir", &atlas));
        assert_eq!(
            line("razoring", &atlas),
            "Measured: full-without-razoring is not in the atlas yet (`lab atlas --ablate full`)."
        );
        assert_eq!(
            line("probcut", &atlas),
            "Measured: full-without-probcut is no ablation: no feature of probcut is in full."
        );
        let mut stopped = ablation("move_count", (20, 150, 10), [60, 20, 10, 0, 0]);
        stopped.stop = "sprt".into();
        assert!(line("move_count", &[stopped]).ends_with("180 games at 10000 nodes a move, stopped by its SPRT."));
    }

    /// The lines go where the module doc says, replace the line they had,
    /// and a file without the place is refused.
    #[test]
    fn lines_go_at_the_header_and_the_step() {
        let file = "//! Razoring.\n//!\n//! Telemetry: x.\n\nuse a;\n";
        let line =
            "Measured: full-without-razoring against full: -5.2 Elo [-20.9, +10.4], 1000 games at 10000 nodes a move.";
        let written = with_header_line(file, "razoring", line).unwrap();
        assert_eq!(written, format!("//! Razoring.\n//!\n//! Telemetry: x.\n//!\n//! {line}\n\nuse a;\n"));
        let other = line.replace("-5.2", "-6.0");
        assert_eq!(with_header_line(&written, "razoring", &other).unwrap(), written.replace("-5.2", "-6.0"));
        assert!(with_header_line("use a;\n", "razoring", line).is_err());

        let search = "fn negamax() {\n        let x = 1;\n        // Step 7. Razoring (razoring.rs), every style but\n        // one.\n        if razor {}\n        // Step 8. Futility (futility.rs).\n}\n";
        let written = with_step_line(search, "razoring", line).unwrap();
        assert_eq!(written, search.replace("        // one.\n", &format!("        // one.\n        // {line}\n")));
        assert_eq!(with_step_line(&written, "razoring", &other).unwrap(), written.replace("-5.2", "-6.0"));
        // A line of another technique is not this one's.
        assert!(!is_line_of("Measured: full-without-see_ordering against full", "see"));
        assert!(with_step_line(search, "probcut", line).is_err());
    }
}
