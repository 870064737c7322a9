//! `lab snapdiff [REV]`: the working tree's `snapshots/*.snap` against a
//! git revision (default `HEAD`), as the summary a snapshot review starts
//! with: one markdown row per variant that moved, total nodes before →
//! after, change, positions moved, best moves changed, positions where
//! only the score or counters changed
//! (`table_diff::diff_summary`). CI writes it to a pull request's job
//! summary, against the base branch.

use std::path::Path;

use anyhow::{Context, Result};
use clap::Args;
use prunelab::matrix::table_diff::{diff_summary, diff_tables, TableDiff};

use crate::lab::Lab;
use crate::tools::git;

/// The snapshots' folder, relative to the repository.
const SNAPSHOTS: &str = "snapshots";

#[derive(Args, Debug)]
pub struct SnapdiffArgs {
    /// The revision to compare with (a commit, branch or tag).
    #[arg(default_value = "HEAD")]
    pub rev: String,
}

/// The variant names of the `.snap` files among `paths`.
fn snapshot_names<'a>(paths: impl Iterator<Item = &'a str>) -> Vec<String> {
    paths.filter_map(|path| Path::new(path).file_name()?.to_str()?.strip_suffix(".snap").map(str::to_string)).collect()
}

/// Every snapshot of the working tree against `rev`: one diff per variant
/// that has a snapshot in either, by name.
pub fn diffs(root: &Path, rev: &str) -> Result<Vec<TableDiff>> {
    let commit = git(root, &["rev-parse", "--verify", "--quiet", &format!("{rev}^{{commit}}")])
        .with_context(|| format!("`{rev}` is not a revision of this repository"))?;
    let commit = commit.trim();
    let listed = git(root, &["ls-tree", "--name-only", commit, "--", &format!("{SNAPSHOTS}/")])?;
    let before = snapshot_names(listed.lines());
    let folder = root.join(SNAPSHOTS);
    let entries = std::fs::read_dir(&folder).with_context(|| format!("cannot read {}", folder.display()))?;
    let files: Vec<String> = entries.filter_map(|entry| entry.ok()?.file_name().to_str().map(str::to_string)).collect();
    let now = snapshot_names(files.iter().map(String::as_str));
    let mut names: Vec<&String> = before.iter().chain(&now).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .map(|name| {
            let old = if before.contains(name) {
                Some(git(root, &["show", &format!("{commit}:./{SNAPSHOTS}/{name}.snap")])?)
            } else {
                None
            };
            let new = if now.contains(name) {
                Some(std::fs::read_to_string(folder.join(format!("{name}.snap")))?)
            } else {
                None
            };
            Ok(diff_tables(name, old.as_deref(), new.as_deref()))
        })
        .collect()
}

/// The markdown: a heading naming the revision, then the summary table, or
/// a line saying that nothing moved.
pub fn markdown(rev: &str, diffs: &[TableDiff]) -> String {
    let moved = diffs.iter().filter(|diff| diff.changed()).count();
    let mut out = format!("## Snapshots against `{rev}`\n\n");
    if moved == 0 {
        out.push_str(&format!("No snapshot moved ({} variants).\n", diffs.len()));
    } else {
        out.push_str(&format!("{moved} of {} variants moved.\n\n", diffs.len()));
        out.push_str(&diff_summary(diffs));
    }
    out
}

pub fn command(lab: &Lab, args: &SnapdiffArgs) -> Result<()> {
    let diffs = diffs(&lab.root, &args.rev)?;
    if lab.global.json {
        let rows: Vec<_> = diffs
            .iter()
            .filter(|diff| diff.changed())
            .map(|diff| {
                serde_json::json!({
                    "variant": diff.variant,
                    "total_before": diff.total_before,
                    "total_after": diff.total_after,
                    "positions_moved": diff.positions_moved,
                    "best_moves_changed": diff.best_moves_changed,
                    "others_changed": diff.others_changed,
                })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        print!("{}", markdown(&args.rev, &diffs));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    use super::*;

    fn table(rows: &[(&str, u64, &str)]) -> String {
        let mut text = String::from("---\nsource: tests/matrix.rs\n---\nvariant x: none\n");
        text.push_str("position | nodes | best | score | counters\n");
        for (position, nodes, best) in rows {
            text.push_str(&format!("{position} | {nodes} | {best} | cp 0 |\n"));
        }
        let total: u64 = rows.iter().map(|(_, nodes, _)| nodes).sum();
        text.push_str(&format!("total | {total}\n"));
        text
    }

    fn run(dir: &Path, args: &[&str]) {
        let status = Command::new("git")
            .args(["-c", "user.name=lab", "-c", "user.email=lab@localhost"])
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(status.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&status.stderr));
    }

    #[test]
    fn the_working_tree_against_a_commit() {
        let dir = std::env::temp_dir().join(format!("prunelab-snapdiff-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join(SNAPSHOTS)).unwrap();
        let write = |name: &str, text: &str| std::fs::write(dir.join(SNAPSHOTS).join(name), text).unwrap();
        write("moved.snap", &table(&[("a", 100, "e2e4"), ("b", 200, "d2d4")]));
        write("same.snap", &table(&[("a", 50, "e2e4")]));
        write("gone.snap", &table(&[("a", 70, "e2e4")]));
        run(&dir, &["init", "--quiet"]);
        run(&dir, &["add", "."]);
        run(&dir, &["commit", "--quiet", "-m", "snapshots"]);
        write("moved.snap", &table(&[("a", 100, "e2e4"), ("b", 150, "c2c4")]));
        write("new.snap", &table(&[("a", 10, "e2e4")]));
        std::fs::remove_file(dir.join(SNAPSHOTS).join("gone.snap")).unwrap();

        let text = markdown("HEAD", &diffs(&dir, "HEAD").unwrap());
        assert_eq!(
            text,
            "## Snapshots against `HEAD`\n\n3 of 4 variants moved.\n\n\
             | variant | total nodes | change | positions moved | best moves changed | only score or counters changed |\n\
             |---|---:|---:|---:|---:|---:|\n\
             | gone | 70 → - | removed | 1 | 0 | 0 |\n\
             | moved | 300 → 250 | -16.7% | 1 | 1 | 0 |\n\
             | new | - → 10 | new | 1 | 0 | 0 |\n"
        );
        // Against the working tree's own state nothing moves.
        run(&dir, &["add", "-A"]);
        run(&dir, &["commit", "--quiet", "-m", "accepted"]);
        assert_eq!(
            markdown("HEAD", &diffs(&dir, "HEAD").unwrap()),
            "## Snapshots against `HEAD`\n\nNo snapshot moved (3 variants).\n"
        );
        let unknown = format!("{:#}", diffs(&dir, "no-such-branch").unwrap_err());
        assert!(unknown.contains("`no-such-branch` is not a revision of this repository"), "{unknown}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
