//! The snapshot diff: one variant's snapshot (`snapshots/<variant>.snap`,
//! the engine's `prunelab::matrix::table`) against a newer table, and the
//! summary a snapshot review starts with. `lab snapdiff` prints it for CI;
//! the engine's matrix and README tests check the snapshots with it.

use std::fmt::Write;

use super::snapshot_body;

/// One variant's snapshot against a newer table: what a reviewer reads first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableDiff {
    pub variant: String,
    /// Total nodes before and after (`None`: no snapshot, or no table now).
    pub total_before: Option<u64>,
    pub total_after: Option<u64>,
    /// Positions whose node count changed, and whose best move did.
    pub positions_moved: usize,
    pub best_moves_changed: usize,
    /// Positions with the same nodes and best move whose score or counters
    /// changed (a telemetry change that is not a search change).
    pub others_changed: usize,
}

/// A table's row: position id, nodes, best move, and the rest of the line.
type Row = (String, String, String, String);

/// A table's rows and its total.
fn table_rows(table: &str) -> (Vec<Row>, Option<u64>) {
    let mut rows = Vec::new();
    let mut total = None;
    for line in table.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        match cells.as_slice() {
            ["total", nodes, ..] => total = nodes.parse().ok(),
            [position, nodes, best, rest @ ..] if nodes.parse::<u64>().is_ok() => {
                rows.push((position.to_string(), nodes.to_string(), best.to_string(), rest.join("|")))
            }
            _ => {}
        }
    }
    (rows, total)
}

/// How `after` differs from `before` (snapshot bodies or whole files).
pub fn diff_tables(variant: &str, before: Option<&str>, after: Option<&str>) -> TableDiff {
    let (old_rows, total_before) = before.map(|text| table_rows(snapshot_body(text))).unwrap_or_default();
    let (new_rows, total_after) = after.map(|text| table_rows(snapshot_body(text))).unwrap_or_default();
    let mut positions_moved = 0;
    let mut best_moves_changed = 0;
    let mut others_changed = 0;
    for (position, nodes, best, rest) in &new_rows {
        match old_rows.iter().find(|(old_position, ..)| old_position == position) {
            Some((_, old_nodes, old_best, old_rest)) => {
                positions_moved += usize::from(old_nodes != nodes);
                best_moves_changed += usize::from(old_best != best);
                others_changed += usize::from(old_nodes == nodes && old_best == best && old_rest != rest);
            }
            None => positions_moved += 1,
        }
    }
    positions_moved +=
        old_rows.iter().filter(|(position, ..)| !new_rows.iter().any(|(new, ..)| new == position)).count();
    TableDiff {
        variant: variant.to_string(),
        total_before,
        total_after,
        positions_moved,
        best_moves_changed,
        others_changed,
    }
}

impl TableDiff {
    /// Whether anything a reviewer should see changed.
    pub fn changed(&self) -> bool {
        self.total_before != self.total_after
            || self.positions_moved > 0
            || self.best_moves_changed > 0
            || self.others_changed > 0
    }
}

/// The summary a snapshot review starts with, one markdown row per variant
/// that changed: total nodes before → after, change, positions moved, best
/// moves changed, and positions where only the score or counters changed.
pub fn diff_summary(diffs: &[TableDiff]) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "| variant | total nodes | change | positions moved | best moves changed | only score or counters changed |"
    )
    .unwrap();
    writeln!(out, "|---|---:|---:|---:|---:|---:|").unwrap();
    let nodes = |total: Option<u64>| total.map_or("-".to_string(), |total| total.to_string());
    for diff in diffs.iter().filter(|diff| diff.changed()) {
        let change = match (diff.total_before, diff.total_after) {
            (Some(before), Some(after)) if before > 0 => {
                format!("{:+.1}%", (after as f64 - before as f64) * 100.0 / before as f64)
            }
            (None, Some(_)) => "new".to_string(),
            (Some(_), None) => "removed".to_string(),
            _ => "-".to_string(),
        };
        writeln!(
            out,
            "| {} | {} → {} | {change} | {} | {} | {} |",
            diff.variant,
            nodes(diff.total_before),
            nodes(diff.total_after),
            diff.positions_moved,
            diff.best_moves_changed,
            diff.others_changed
        )
        .unwrap();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const BEFORE: &str =
        "---\nsource: tests/matrix.rs\n---\nvariant x: none\ndepth 10, Hash 16, 1 thread, from ucinewgame\n\
        position | nodes | best | score | counters\n\
        a        |   100 | e2e4 | cp 10 |\n\
        b        |   200 | d2d4 | cp 5  |\n\
        total    |   300\n";

    #[test]
    fn a_diff_counts_moved_positions_and_changed_best_moves() {
        let after = BEFORE.replace("|   200 | d2d4", "|   250 | c2c4").replace("|   300", "|   350");
        let diff = diff_tables("x", Some(BEFORE), Some(&after));
        assert_eq!(
            diff,
            TableDiff {
                variant: "x".into(),
                total_before: Some(300),
                total_after: Some(350),
                positions_moved: 1,
                best_moves_changed: 1,
                others_changed: 0
            }
        );
        let summary = diff_summary(&[diff, diff_tables("same", Some(BEFORE), Some(BEFORE))]);
        assert!(summary.contains("| x | 300 → 350 | +16.7% | 1 | 1 | 0 |"), "{summary}");
        assert!(!summary.contains("| same |"), "{summary}");
        let new = diff_tables("new", None, Some(BEFORE));
        assert!(diff_summary(&[new]).contains("| new | - → 300 | new | 2 | 0 | 0 |"));
    }

    #[test]
    fn a_counter_that_moves_alone_is_shown_too() {
        let before = BEFORE.replace("| cp 10 |", "| cp 10 | see_order 9/3");
        let after = BEFORE.replace("| cp 10 |", "| cp 10 | see_order 5/3");
        let diff = diff_tables("x", Some(&before), Some(&after));
        assert_eq!((diff.positions_moved, diff.best_moves_changed, diff.others_changed), (0, 0, 1));
        assert!(diff_summary(&[diff]).contains("| x | 300 → 300 | +0.0% | 0 | 0 | 1 |"));
    }
}
