//! Build slots: the cargo target folders the lab builds engines in at the
//! same time, so a command's engines (`lab ab`'s two) compile on two cores.
//! An engine's library and its fat-LTO link each keep one core busy, and
//! cargo builds one feature set at a time in a folder.
//!
//! Slot 0 is `target/lab/cargo` (which `ci/honesty.sh` shares for
//! release builds), slot k
//! `target/lab/cargo-k`; each has its own lock. A slot compiles the
//! dependencies once and keeps every feature set it has built (cargo's
//! fingerprints), so a build goes back to the slot that made it: each slot
//! lists what it built in `lab-builds`. A build no slot lists goes to the
//! slot with the fewest of its command's builds, the first on a tie, so a
//! command places its builds alike each time.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// At most this many slots: each compiles the dependencies and keeps its own
/// copy of what it builds, and a command seldom builds more engines at once.
const MAX_SLOTS: usize = 4;

/// The file in a slot listing what the slot has built.
const RECORD: &str = "lab-builds";

/// Sets the number of slots (1 to [`MAX_SLOTS`]): the lab's tests take one,
/// since each slot compiles the dependencies again.
pub const SLOTS_VARIABLE: &str = "PRUNELAB_BUILD_SLOTS";

/// One slot per core, at most [`MAX_SLOTS`], unless [`SLOTS_VARIABLE`] says
/// how many.
pub fn count() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    slots_for(std::env::var(SLOTS_VARIABLE).ok().as_deref(), cores)
}

/// The slots for the variable's value and the cores: a value that is no
/// whole number counts as unset.
fn slots_for(value: Option<&str>, cores: usize) -> usize {
    value.and_then(|value| value.trim().parse::<usize>().ok()).unwrap_or(cores).clamp(1, MAX_SLOTS)
}

/// Slot `slot`'s cargo target folder under `lab_dir` (`target/lab`).
pub fn folder(lab_dir: &Path, slot: usize) -> PathBuf {
    match slot {
        0 => lab_dir.join("cargo"),
        slot => lab_dir.join(format!("cargo-{slot}")),
    }
}

/// Which slot each key (a build's profile, features and tunables: see
/// `Build::key`) was last built in, the first slot listing it.
pub fn recorded(folders: &[PathBuf]) -> BTreeMap<String, usize> {
    let mut built = BTreeMap::new();
    for (slot, folder) in folders.iter().enumerate() {
        for key in std::fs::read_to_string(folder.join(RECORD)).unwrap_or_default().lines() {
            built.entry(key.to_string()).or_insert(slot);
        }
    }
    built
}

/// Lists `key` in `folder`'s record, in place of the builds cargo has just
/// replaced: the same key up to its last tab (profile and features) with
/// other tunables, which rebuild the same artefacts. Called with the slot's
/// lock held; the record is replaced whole, so a reader never sees half.
pub fn record(folder: &Path, key: &str) -> Result<()> {
    let path = folder.join(RECORD);
    let artefacts = |line: &str| line.rsplit_once('\t').map(|(artefacts, _)| artefacts.to_string());
    let replaced = artefacts(key);
    let mut lines: Vec<String> = std::fs::read_to_string(&path)
        .unwrap_or_default()
        .lines()
        .filter(|line| *line != key && (replaced.is_none() || artefacts(line) != replaced))
        .map(str::to_string)
        .collect();
    lines.push(key.to_string());
    let temporary = path.with_extension(format!("tmp-{}", std::process::id()));
    std::fs::write(&temporary, lines.join("\n") + "\n")
        .and_then(|()| std::fs::rename(&temporary, &path))
        .with_context(|| format!("cannot write {}", path.display()))
}

/// The slot of each of a command's builds, by key: the slot that built it
/// (of `recorded`), else the one with the fewest of these builds so far;
/// one key always to one slot.
pub fn plan(keys: &[String], recorded: &BTreeMap<String, usize>, slots: usize) -> Vec<usize> {
    let mut chosen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut load = vec![0; slots];
    // First the builds a slot has made, so the new ones spread around them.
    for key in keys {
        if let Some(&slot) = recorded.get(key).filter(|&&slot| slot < slots) {
            if chosen.insert(key, slot).is_none() {
                load[slot] += 1;
            }
        }
    }
    keys.iter()
        .map(|key| {
            *chosen.entry(key).or_insert_with(|| {
                let slot = (0..slots).min_by_key(|&slot| load[slot]).expect("at least one slot");
                load[slot] += 1;
                slot
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_sets_the_slots_within_their_bounds() {
        assert_eq!(slots_for(None, 2), 2);
        assert_eq!(slots_for(None, 16), MAX_SLOTS);
        assert_eq!(slots_for(Some("1"), 2), 1);
        assert_eq!(slots_for(Some(" 3 "), 2), 3);
        assert_eq!(slots_for(Some("0"), 2), 1);
        assert_eq!(slots_for(Some("9"), 2), MAX_SLOTS);
        assert_eq!(slots_for(Some("two"), 2), 2);
        assert_eq!(slots_for(Some(""), 1), 1);
    }

    fn keys(names: &[&str]) -> Vec<String> {
        names.iter().map(|name| name.to_string()).collect()
    }

    #[test]
    fn builds_spread_over_the_slots_and_go_back_to_the_slot_that_made_them() {
        let none = BTreeMap::new();
        assert_eq!(plan(&keys(&["a", "b"]), &none, 2), [0, 1]);
        assert_eq!(plan(&keys(&["a", "b", "c"]), &none, 2), [0, 1, 0]);
        assert_eq!(plan(&keys(&["a", "b"]), &none, 1), [0, 0]);
        // One key, one slot: cargo builds it once.
        assert_eq!(plan(&keys(&["a", "b", "a"]), &none, 2), [0, 1, 0]);
        // `b` was built in slot 0: it goes back there, `a` beside it.
        let b_in_0 = BTreeMap::from([("b".to_string(), 0)]);
        assert_eq!(plan(&keys(&["a", "b"]), &b_in_0, 2), [1, 0]);
        // A slot this machine does not have is forgotten.
        let b_in_3 = BTreeMap::from([("b".to_string(), 3)]);
        assert_eq!(plan(&keys(&["a", "b"]), &b_in_3, 2), [0, 1]);
    }

    #[test]
    fn a_slot_records_its_builds_and_forgets_those_cargo_replaced() {
        let dir = std::env::temp_dir().join(format!("prunelab-slots-{}", std::process::id()));
        let folders = [folder(&dir, 0), folder(&dir, 1)];
        for folder in &folders {
            std::fs::create_dir_all(folder).unwrap();
        }
        assert_eq!(folders[1], dir.join("cargo-1"));
        record(&folders[0], "release\tlmp\t").unwrap();
        record(&folders[0], "release\tlmp,razor-r1\t").unwrap();
        record(&folders[1], "release\tlmp\t").unwrap();
        // Other tunables rebuild the same artefacts: the old values go.
        record(&folders[0], "release\tlmp,razor-r1\tRAZOR_MARGIN=300").unwrap();
        record(&folders[0], "release\tlmp\t").unwrap();
        assert_eq!(
            std::fs::read_to_string(folders[0].join(RECORD)).unwrap(),
            "release\tlmp,razor-r1\tRAZOR_MARGIN=300\nrelease\tlmp\t\n"
        );
        let built = recorded(&folders);
        assert_eq!(built.get("release\tlmp\t"), Some(&0));
        assert_eq!(built.get("release\tlmp,razor-r1\tRAZOR_MARGIN=300"), Some(&0));
        assert_eq!(built.get("release\tlmp,razor-r1\t"), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
