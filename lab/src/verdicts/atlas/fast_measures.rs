//! The atlas's fast measures, `atlas/fast.jsonl` in the repository: for
//! each variant of the atlas, its node change, time-to-depth ratio and WAC
//! change against its parent, as a `lab ab` or `lab chain` run measured
//! them, kept by `lab atlas --keep-fast`.
//!
//! The calibration sets these beside the games. They are kept in the
//! repository, not only in `lab-results/`, because a fresh clone has no
//! runs: without them `lab report` and `lab ab` would calibrate against
//! nothing. A line keeps both feature sets, so it is used only while the
//! variant and its parent search as they did; and where it came from (the
//! run, its settings, the commit it was kept at).

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::entries;
use crate::verdicts::calibration::{FastMeasures, MeasuredAt};

/// Where the fast measures live, from the repository's root: beside the
/// atlas.
pub const FAST_FILE: &str = "atlas/fast.jsonl";

/// One pair's fast measures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FastEntry {
    pub variant: String,
    pub parent: String,
    /// Every feature the variant compiles in, sorted.
    pub features: Vec<String>,
    /// Every feature its parent compiles in, sorted.
    pub parent_features: Vec<String>,
    #[serde(flatten)]
    pub fast: FastMeasures,
    /// Where the nodes were counted (`verdict at depth 10`).
    pub node_setting: String,
    /// Where the run measured: the node suite and depth, the tactics
    /// budget and the hash. Lines kept before it was written down all came
    /// from `lab chain` at its defaults, which are these.
    #[serde(default = "MeasuredAt::fitted")]
    pub measured_at: MeasuredAt,
    /// The 95% interval of the node change, in percent.
    pub node_change_interval: Option<(f64, f64)>,
    /// The 95% interval of the time-to-depth ratio.
    pub ttd_interval: Option<(f64, f64)>,
    /// WAC positions solved by the variant and its parent, of how many.
    pub wac_solved: Option<(usize, usize, usize)>,
    /// The run it was measured in, by its folder's name (`20261127T021500Z-chain`).
    pub source: String,
    /// The commit it was kept at (12 hex digits, `+dirty` as in the atlas).
    pub commit: String,
}

/// The fast measures' file beside an atlas file (`atlas/fast.jsonl` beside
/// `atlas/atlas.jsonl`).
pub fn beside(atlas_file: &Path) -> PathBuf {
    atlas_file.with_file_name("fast.jsonl")
}

/// The file's entries, in the order they were kept.
pub fn read(path: &Path) -> Vec<FastEntry> {
    entries::read_lines(path)
}

/// Appends one pair's measures.
pub fn append(path: &Path, entry: &FastEntry) -> Result<()> {
    entries::append(path, entry)
}

/// The latest entry of a pair whose feature sets are these: the measures of
/// the same two searches.
pub fn find<'a>(
    entries: &'a [FastEntry],
    (variant, parent): (&str, &str),
    (features, parent_features): (&[String], &[String]),
) -> Option<&'a FastEntry> {
    entries.iter().rev().find(|entry| {
        entry.variant == variant
            && entry.parent == parent
            && entry.features == features
            && entry.parent_features == parent_features
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(variant: &str, features: &[&str], nodes: f64) -> FastEntry {
        FastEntry {
            variant: variant.into(),
            parent: "baseline".into(),
            features: features.iter().map(|feature| feature.to_string()).collect(),
            parent_features: Vec::new(),
            fast: FastMeasures { node_change_pct: Some(nodes), ttd_ratio: Some(0.95), wac_change: Some(-2) },
            node_setting: "verdict at depth 10".into(),
            measured_at: MeasuredAt::fitted(),
            node_change_interval: Some((nodes - 3.0, nodes + 3.0)),
            ttd_interval: None,
            wac_solved: Some((221, 223, 300)),
            source: "20261127T021500Z-chain".into(),
            commit: "8d702d1e0c33".into(),
        }
    }

    #[test]
    fn a_pair_is_found_only_with_the_same_searches_and_the_latest_wins() {
        let dir = std::env::temp_dir().join(format!("prunelab-fast-measures-{}", std::process::id()));
        let path = dir.join("fast.jsonl");
        let _ = std::fs::remove_dir_all(&dir);
        append(&path, &entry("lmp", &["lmp"], -10.0)).unwrap();
        append(&path, &entry("lmp", &["lmp"], -12.0)).unwrap();
        append(&path, &entry("lmp", &["lmp", "lmp-history"], -20.0)).unwrap();
        // A torn last line (a crash while writing) is passed over.
        std::fs::write(&path, std::fs::read_to_string(&path).unwrap() + "{\"variant\":\"lm").unwrap();
        let kept = read(&path);
        assert_eq!(kept.len(), 3);
        let lmp = ["lmp".to_string()];
        let found = find(&kept, ("lmp", "baseline"), (&lmp, &[])).unwrap();
        assert_eq!(found.fast.node_change_pct, Some(-12.0));
        assert_eq!(find(&kept, ("lmp", "p003-3"), (&lmp, &[])), None);
        assert_eq!(find(&kept, ("lmp", "baseline"), (&["lmp-history".to_string()], &[])), None);
        // The line reads back as it was written, measures at the top level.
        let line = std::fs::read_to_string(&path).unwrap().lines().next().unwrap().to_string();
        assert!(line.contains("\"node_change_pct\":-10.0,\"ttd_ratio\":0.95,\"wac_change\":-2"), "{line}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
