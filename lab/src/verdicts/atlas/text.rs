//! The atlas as text: one line per finished match (what `lab atlas` says as
//! it goes), the table `lab report` prints, and a run's summary.

use std::fmt::Write;
use std::path::Path;

use games::statistics::{fixed, format_penta, Estimate};

use super::entries::{self, AtlasEntry};
use super::Phase;
use crate::lab::table::Table;
use crate::verdicts::decision::GamesSay;

/// `+12.3 ± 8.1 [+4.2, +20.4]`, or `n/a` before a pair.
pub fn estimate_text(estimate: Option<Estimate>) -> String {
    match estimate {
        Some(estimate) => interval_text(estimate.value, estimate.error(), (estimate.low, estimate.high)),
        None => "n/a".to_string(),
    }
}

/// `+12.3 ± 8.1 [+4.2, +20.4]`: a value, the "±" printed beside it and its
/// interval, as `lab match` prints them.
pub fn interval_text(value: f64, error: f64, (low, high): (f64, f64)) -> String {
    let signed = |x: f64| {
        let text = fixed(x, 1);
        if text.starts_with('-') {
            text
        } else {
            format!("+{text}")
        }
    };
    format!("{} ± {} [{}, {}]", signed(value), fixed(error, 1), signed(low), signed(high))
}

/// The SPRT's bounds, LLR and verdict, or `-`.
fn sprt_text(entry: &AtlasEntry) -> String {
    match (entry.sprt, entry.sprt_status) {
        (Some(settings), Some(status)) => {
            format!("[{}, {}] LLR {}: {}", settings.elo0, settings.elo1, fixed(status.llr, 2), status.verdict)
        }
        _ => "-".to_string(),
    }
}

/// What the games decide: `won`, `lost`, `no gain`, `no loss` or
/// `undecided` (see [`AtlasEntry::decision`]); `identical search` for a
/// pair that played no game.
pub fn decided_text(entry: &AtlasEntry) -> &'static str {
    match entry.decision() {
        GamesSay::Undecided if entry.is_identical() => "identical search",
        decision => decision.outcome(),
    }
}

/// What an entry's games came to: its pentanomial, Elo and nElo with their
/// intervals, its SPRT and what the games decide.
fn outcome_cells(entry: &AtlasEntry) -> [String; 5] {
    [
        format_penta(&entry.penta),
        estimate_text(entry.elo),
        estimate_text(entry.nelo),
        sprt_text(entry),
        decided_text(entry).to_string(),
    ]
}

/// One line: `razor-r1 against p003-3 at N=10000: 1000 games, W 300 L 280 D 420, ...`.
pub fn entry_line(entry: &AtlasEntry) -> String {
    if entry.is_identical() {
        return format!(
            "{} against {} at {}: identical search from every opening, 0 games",
            entry.variant,
            entry.parent,
            entry.key.time_control()
        );
    }
    let [penta, elo, nelo, sprt, decided] = outcome_cells(entry);
    format!(
        "{} against {} at {}: {} games, W {} L {} D {}, penta {penta}, Elo {elo}, nElo {nelo}, SPRT {sprt}: {decided}",
        entry.variant,
        entry.parent,
        entry.key.time_control(),
        entry.games,
        entry.wdl.wins,
        entry.wdl.losses,
        entry.wdl.draws,
    )
}

/// The atlas's table: each entry's settings, counts, Elo and nElo with
/// their 95% intervals, SPRT and what the games decide.
pub fn atlas_table(entries: &[&AtlasEntry]) -> String {
    let mut table = Table::new()
        .left("variant")
        .left("parent")
        .right("nodes or clock")
        .left("book")
        .right("games")
        .left("W / L / D")
        .left("pentanomial")
        .left("Elo (95%)")
        .left("nElo (95%)")
        .left("SPRT")
        .left("games decide")
        .right("failures")
        .left("commit")
        .right("wall");
    for entry in entries {
        let counts = [
            entry.variant.clone(),
            entry.parent.clone(),
            entry.key.tc.clone().unwrap_or_else(|| entry.key.nodes.to_string()),
            entry.key.book.clone(),
            entry.games.to_string(),
            format!("{} / {} / {}", entry.wdl.wins, entry.wdl.losses, entry.wdl.draws),
        ];
        let run = [entry.failures.to_string(), entry.commit.clone(), format!("{} s", entry.wall_seconds)];
        table.push(counts.into_iter().chain(outcome_cells(entry)).chain(run));
    }
    table.to_string()
}

/// A run's summary: the phases it names with their results at its time
/// controls (`N=10000`, or another engine's clock), and, while some have
/// none, that the atlas is partial.
pub fn run_summary(phases: &[Phase], atlas: &[AtlasEntry], time_controls: &[String], path: &Path) -> String {
    let latest = entries::latest_per_variant(atlas);
    let found: Vec<&AtlasEntry> = phases
        .iter()
        .filter_map(|phase| {
            atlas.iter().rev().find(|entry| {
                (&entry.variant, &entry.parent) == (&phase.variant, &phase.parent)
                    && time_controls.contains(&entry.key.time_control())
            })
        })
        .collect();
    let missing: Vec<&str> = phases
        .iter()
        .filter(|phase| !found.iter().any(|entry| (&entry.variant, &entry.parent) == (&phase.variant, &phase.parent)))
        .map(|phase| phase.variant.as_str())
        .collect();
    let words: Vec<String> = time_controls
        .iter()
        .map(|tc| match tc.strip_prefix("N=") {
            Some(nodes) => format!("{nodes} nodes a move"),
            None => format!("the clock {tc}"),
        })
        .collect();
    let mut out = format!("# Atlas at {}\n\n", words.join(" or "));
    writeln!(
        out,
        "{} of {} phase(s) have a result in `{}` ({} variant(s) in the atlas in all).\n",
        found.len(),
        phases.len(),
        path.display(),
        latest.len()
    )
    .unwrap();
    out.push_str(&atlas_table(&found));
    if !missing.is_empty() {
        writeln!(out, "\n**Partial**: no result yet for {}.", missing.join(", ")).unwrap();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdicts::atlas::entries::tests::entry;

    #[test]
    fn a_line_and_a_table_row_per_entry() {
        let won = entry("razor-r1", (60, 20, 20), [2, 8, 20, 12, 8]);
        let line = entry_line(&won);
        assert!(
            line.starts_with("razor-r1 against parent at N=10000: 100 games, W 60 L 20 D 20, penta [2, 8, 20, 12, 8]"),
            "{line}"
        );
        assert!(line.ends_with("SPRT -: won"), "{line}");
        let table = atlas_table(&[&won]);
        assert!(table
            .lines()
            .nth(2)
            .unwrap()
            .starts_with("| razor-r1 | parent | 10000 | book.epd | 100 | 60 / 20 / 20 |"));
        let phases = [Phase::of_variants("razor-r1", "parent"), Phase::of_variants("razor-r2", "razor-r1")];
        let summary = run_summary(&phases, &[won], &["N=10000".to_string()], Path::new("atlas/atlas.jsonl"));
        assert!(summary.starts_with("# Atlas at 10000 nodes a move\n"), "{summary}");
        assert!(summary.contains("1 of 2 phase(s) have a result"), "{summary}");
        assert!(summary.ends_with("**Partial**: no result yet for razor-r2.\n"), "{summary}");
    }
}
