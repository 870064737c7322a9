//! The atlas file, `atlas/atlas.jsonl` in the repository: one JSON line per
//! variant played against its parent at fixed nodes, appended when its match
//! is over, read by `lab atlas` (a result at the same settings is not played
//! again), `lab report` (the atlas and calibration tables) and `lab ab`
//! (what the atlas says of a verdict's fast numbers).
//!
//! A line is keyed by what decides its games and does not depend on the
//! commit ([`AtlasKey`]): the variant's and its parent's feature sets, the
//! nodes a move, the book (its file name and a hash of its text), the
//! opening order's seed and the hash size. Games at fixed nodes are the same
//! on any machine, so a result stays valid across commits that leave both
//! feature sets' searches alone; the commit it was played at is kept beside
//! it, to trace it.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::games::statistics::{Estimate, Pentanomial, SprtSettings, SprtStatus, Verdict, Wdl};

/// Where the atlas lives, from the repository's root.
pub const ATLAS_FILE: &str = "atlas/atlas.jsonl";

/// The settings that decide an atlas result, none of them the commit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AtlasKey {
    /// Every feature the variant compiles in, sorted.
    pub features: Vec<String>,
    /// Every feature its parent compiles in, sorted.
    pub parent_features: Vec<String>,
    /// Nodes a move (`go nodes N`).
    pub nodes: u64,
    /// The book's file name, e.g. `UHO_4060_v2-4000.epd`.
    pub book: String,
    /// FNV-1a of the book's bytes, in hex: the same name with other openings
    /// is another book.
    pub book_hash: String,
    /// The seed of the openings' order.
    pub seed: u64,
    pub hash_mb: u32,
}

/// One finished match of the atlas: the variant (first engine) against its
/// parent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AtlasEntry {
    pub variant: String,
    pub parent: String,
    #[serde(flatten)]
    pub key: AtlasKey,
    pub games: u64,
    pub wdl: Wdl,
    pub penta: Pentanomial,
    pub elo: Option<Estimate>,
    pub nelo: Option<Estimate>,
    pub sprt: Option<SprtSettings>,
    pub sprt_status: Option<SprtStatus>,
    /// Why the match stopped: `sprt` (a verdict) or `games` (the cap).
    pub stop: String,
    /// Games lost on time, crashes, illegal moves and protocol errors, both
    /// sides: a game at fixed nodes should have none.
    pub failures: u64,
    /// The commit the engines were built from (12 hex digits), `+dirty`
    /// when a tracked file outside `atlas/`, `lab/` and the README differed
    /// from it.
    pub commit: String,
    /// When the match ended (`20261126T235900Z`).
    pub finished: String,
    /// Wall time of the sitting that finished the match, in seconds (a
    /// resumed match's earlier sittings are not in it).
    pub wall_seconds: u64,
}

impl AtlasEntry {
    /// The sign of the result when the games decide it: +1 when the Elo
    /// interval lies above 0 or an SPRT for a gain accepted H1, -1 when the
    /// interval lies below 0; `None` otherwise (an SPRT's "no gain" is no
    /// sign: it leaves the loss undecided).
    pub fn decided_sign(&self) -> Option<i8> {
        let gain_accepted = self
            .sprt
            .zip(self.sprt_status)
            .is_some_and(|(settings, status)| status.verdict == Verdict::AcceptH1 && settings.elo0 >= 0.0);
        match self.elo {
            _ if gain_accepted => Some(1),
            Some(elo) if elo.low > 0.0 => Some(1),
            Some(elo) if elo.high < 0.0 => Some(-1),
            _ => None,
        }
    }
}

/// FNV-1a, 64 bits, in hex: a book's identity that needs no dependency.
pub fn fnv1a_hex(bytes: &[u8]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in bytes {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// The atlas's entries, in the order they were played; none when the file
/// does not exist.
pub fn read(path: &Path) -> Vec<AtlasEntry> {
    read_lines(path)
}

/// The lines of a JSON-lines file of the atlas, in order; none when the file
/// does not exist. A line that does not read (a torn write) is passed over.
pub fn read_lines<T: DeserializeOwned>(path: &Path) -> Vec<T> {
    let Ok(text) = std::fs::read_to_string(path) else { return Vec::new() };
    text.lines().filter_map(|line| serde_json::from_str(line).ok()).collect()
}

/// Appends one line (a finished match, a pair's fast measures), flushed at
/// once.
pub fn append(path: &Path, entry: &impl Serialize) -> Result<()> {
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
    }
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open the atlas {}", path.display()))?;
    let mut line = serde_json::to_string(entry)?;
    line.push('\n');
    file.write_all(line.as_bytes())?;
    file.sync_data()?;
    Ok(())
}

/// The entry at `key`, if the atlas has one (the latest, if several).
pub fn find<'a>(entries: &'a [AtlasEntry], key: &AtlasKey) -> Option<&'a AtlasEntry> {
    entries.iter().rev().find(|entry| &entry.key == key)
}

/// The latest entry of each variant against each parent, in the atlas's
/// order: what the report and the calibration read (the latest settings of
/// a pair win; a variant of a time-control pair may also have a result
/// against another side than its parent).
pub fn latest_per_variant(entries: &[AtlasEntry]) -> Vec<&AtlasEntry> {
    let mut latest: Vec<&AtlasEntry> = Vec::new();
    for entry in entries {
        match latest.iter_mut().find(|seen| (&seen.variant, &seen.parent) == (&entry.variant, &entry.parent)) {
            Some(seen) => *seen = entry,
            None => latest.push(entry),
        }
    }
    latest
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// An entry of `variant` with these counts, for tests.
    pub fn entry(variant: &str, wdl: (u64, u64, u64), penta: [u64; 5]) -> AtlasEntry {
        let penta = Pentanomial(penta);
        AtlasEntry {
            variant: variant.into(),
            parent: "parent".into(),
            key: AtlasKey {
                features: vec![variant.into()],
                parent_features: Vec::new(),
                nodes: 10_000,
                book: "book.epd".into(),
                book_hash: "0".into(),
                seed: 1,
                hash_mb: 16,
            },
            games: wdl.0 + wdl.1 + wdl.2,
            wdl: Wdl { wins: wdl.0, losses: wdl.1, draws: wdl.2 },
            penta,
            elo: Some(crate::games::statistics::elo_penta(&penta)),
            nelo: Some(crate::games::statistics::nelo_penta(&penta)),
            sprt: None,
            sprt_status: None,
            stop: "games".into(),
            failures: 0,
            commit: "0123456789ab".into(),
            finished: "20261126T000000Z".into(),
            wall_seconds: 1,
        }
    }

    #[test]
    fn the_atlas_appends_reads_and_finds_by_settings() {
        let dir = std::env::temp_dir().join(format!("prunelab-atlas-entries-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("atlas").join("atlas.jsonl");
        assert!(read(&path).is_empty());
        let won = entry("a", (60, 20, 20), [2, 8, 20, 12, 8]);
        append(&path, &won).unwrap();
        append(&path, &entry("b", (20, 60, 20), [8, 12, 20, 8, 2])).unwrap();
        let entries = read(&path);
        assert_eq!(entries, [won.clone(), entry("b", (20, 60, 20), [8, 12, 20, 8, 2])]);
        assert_eq!(find(&entries, &won.key).map(|e| e.variant.as_str()), Some("a"));
        let other_nodes = AtlasKey { nodes: 25_000, ..won.key.clone() };
        assert!(find(&entries, &other_nodes).is_none());
        assert_eq!(entries[0].decided_sign(), Some(1));
        assert_eq!(entries[1].decided_sign(), Some(-1));
        assert_eq!(entry("even", (10, 10, 80), [5, 10, 20, 10, 5]).decided_sign(), None);
        // FNV-1a's published vector for "a".
        assert_eq!(fnv1a_hex(b"a"), "af63dc4c8601ec8c");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
