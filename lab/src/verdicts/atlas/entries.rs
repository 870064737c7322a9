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
//!
//! Another engine's lines are in a file of its own beside this one
//! (`atlas/<engine>/atlas.jsonl`, [`engine_file`]), never in prunelab's:
//! their key names the engine and each side's build and options
//! ([`EngineSides`]), and the clock where a side does not stop at `go
//! nodes` (`tc`, its `nodes` then 0).

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use games::statistics::{Estimate, Pentanomial, SprtSettings, SprtStatus, Wdl};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::verdicts::decision::{Games, GamesSay, SprtEnd};

/// Where the atlas lives, from the repository's root.
pub const ATLAS_FILE: &str = "atlas/atlas.jsonl";

/// The settings that decide an atlas result, none of them the commit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AtlasKey {
    /// The searches its games are played between, their fields first in
    /// the line.
    #[serde(flatten)]
    pub searches: PairSearches,
    /// Nodes a move (`go nodes N`); 0, and left out of the line, for games
    /// on a clock.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub nodes: u64,
    /// The clock (`2+0.02`) of another engine's games where a side does
    /// not stop at `go nodes`; prunelab's lines have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<String>,
    /// The book's file name, e.g. `UHO_4060_v2-4000.epd`.
    pub book: String,
    /// FNV-1a of the book's bytes, in hex: the same name with other openings
    /// is another book.
    pub book_hash: String,
    /// The seed of the openings' order.
    pub seed: u64,
    pub hash_mb: u32,
}

fn is_zero(nodes: &u64) -> bool {
    *nodes == 0
}

impl AtlasKey {
    /// The games' time control as `lab match` writes it: `N=10000`, or the
    /// clock `2+0.02`.
    pub fn time_control(&self) -> String {
        self.tc.clone().unwrap_or_else(|| format!("N={}", self.nodes))
    }
}

/// A pair's two searches as the atlas's files name them: each side's
/// sorted features and tunable values, or another engine's builds and
/// options. Two pairs with the same searches play the same games. The
/// atlas's lines and the fast measures' hold its fields in their own
/// (flattened).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairSearches {
    /// Another engine's two sides; none for prunelab's variants, whose
    /// lines are written as before other engines had atlases.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<EngineSides>,
    /// Every feature the variant compiles in, sorted.
    pub features: Vec<String>,
    /// Every feature its parent compiles in, sorted.
    pub parent_features: Vec<String>,
    /// The variant's tunable values as `$PRUNELAB_TUNABLES` takes them
    /// (`NAME=value,...`), its build's constants; left out of the line when
    /// it has none, so the lines written before tuned variants read and are
    /// written back as they were.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub tunables: String,
    /// Its parent's tunable values, likewise.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub parent_tunables: String,
}

impl PairSearches {
    /// The searches of a line's fields: features, then tunable values,
    /// each the variant's then its parent's.
    pub fn of(features: [&[String]; 2], tunables: [&str; 2]) -> PairSearches {
        PairSearches {
            engine: None,
            features: features[0].to_vec(),
            parent_features: features[1].to_vec(),
            tunables: tunables[0].to_string(),
            parent_tunables: tunables[1].to_string(),
        }
    }
}

/// Another engine's pair as its atlas keys it: the engine, and what each
/// side runs. The features of such a line are empty: the engine is no
/// build of prunelab's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineSides {
    /// The engine's name, as its variant files give it (`seajay`).
    pub name: String,
    pub variant: EngineSide,
    pub parent: EngineSide,
}

/// One side of another engine's pair: the binary, by the commit and build
/// command it was built with or by its bytes where a path gave it, and the
/// UCI options it runs with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineSide {
    /// The engine's commit, built by the lab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The command that built it (`make EXE={out}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<String>,
    /// A binary given by path (`--engine-path`): FNV-1a of its bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub binary: Option<String>,
    /// Its options, `Name=value` in the order they are set, comma-joined.
    pub options: String,
}

/// The file of another engine's lines beside prunelab's `file` (its
/// atlas, or a file beside it): `atlas/seajay/atlas.jsonl` beside
/// `atlas/atlas.jsonl`. An engine's name is a folder's: letters, digits,
/// `-` and `_`.
pub fn engine_file(file: &Path, engine: &str) -> Result<PathBuf> {
    let plain = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if engine.is_empty() || !engine.chars().all(plain) {
        anyhow::bail!("engine `{engine}`: an atlas is kept for an engine whose name is letters, digits, - and _");
    }
    let name = file.file_name().unwrap_or_default();
    Ok(file.with_file_name(engine).join(name))
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

/// How a match ended that is no verdict: its two searches were identical
/// from every opening it would play, so it played no game (`lab atlas`
/// records the pair with 0 games).
pub const STOP_IDENTICAL: &str = "identical";

impl AtlasEntry {
    /// Whether the match was played to its end: to the SPRT's verdict or
    /// its games. One still running or stopped early (a line merged from a
    /// run that did not finish) decides nothing, nor does an identical
    /// pair's, which played no game.
    pub fn finished(&self) -> bool {
        self.games > 0 && matches!(self.stop.as_str(), "sprt" | "games")
    }

    /// The games as the one rule of what games decide reads them
    /// ([`decision`](crate::verdicts::decision)).
    pub fn evidence(&self) -> Games {
        Games {
            finished: self.finished(),
            penta: self.penta,
            sprt: self.sprt.zip(self.sprt_status).map(|(settings, status)| SprtEnd {
                elo0: settings.elo0,
                elo1: settings.elo1,
                model: settings.model,
                lower: status.lower,
                upper: status.upper,
                verdict: status.verdict,
            }),
        }
    }

    /// What the games decide, by the one rule.
    pub fn decision(&self) -> GamesSay {
        self.evidence().says()
    }

    /// Whether the pair searched identically and played no game.
    pub fn is_identical(&self) -> bool {
        self.stop == STOP_IDENTICAL
    }
}

/// A book's identity: FNV-1a in hex (`tools`, which a commit's build's
/// folder is named by too).
pub use crate::tools::fnv1a_hex;

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
    use games::statistics::SprtState;

    use super::*;

    /// An entry of `variant` with these counts, for tests.
    pub fn entry(variant: &str, wdl: (u64, u64, u64), penta: [u64; 5]) -> AtlasEntry {
        let penta = Pentanomial(penta);
        AtlasEntry {
            variant: variant.into(),
            parent: "parent".into(),
            key: AtlasKey {
                searches: PairSearches::of([&[variant.to_string()], &[]], ["", ""]),
                nodes: 10_000,
                tc: None,
                book: "book.epd".into(),
                book_hash: "0".into(),
                seed: 1,
                hash_mb: 16,
            },
            games: wdl.0 + wdl.1 + wdl.2,
            wdl: Wdl { wins: wdl.0, losses: wdl.1, draws: wdl.2 },
            penta,
            elo: Some(games::statistics::elo_penta(&penta)),
            nelo: Some(games::statistics::nelo_penta(&penta)),
            sprt: None,
            sprt_status: None,
            stop: "games".into(),
            failures: 0,
            commit: "0123456789ab".into(),
            finished: "20261126T000000Z".into(),
            wall_seconds: 1,
        }
    }

    /// An even match whose SPRT ended as `verdict` with these bounds.
    fn sprt_ended(bounds: (f64, f64), verdict: SprtState) -> AtlasEntry {
        let model = games::statistics::Model::Normalized;
        let settings = SprtSettings { elo0: bounds.0, elo1: bounds.1, alpha: 0.05, beta: 0.05, model };
        AtlasEntry {
            sprt: Some(settings),
            sprt_status: Some(SprtStatus { llr: 0.0, lower: -2.94, upper: 2.94, verdict }),
            stop: "sprt".into(),
            ..entry("sprt", (10, 10, 80), [5, 10, 20, 10, 5])
        }
    }

    #[test]
    fn an_sprt_that_concluded_decides_by_its_bounds_and_a_finished_sample_by_its_interval() {
        // An SPRT that concluded decides by its bounds, whatever its
        // interval: [0, 5] H1 a gain, H0 no gain; [-5, 0] H1 no loss, H0 a
        // loss; [2, 7] H0 no gain of 7.
        assert_eq!(sprt_ended((0.0, 5.0), SprtState::AcceptH1).decision(), GamesSay::Gain);
        assert_eq!(sprt_ended((0.0, 5.0), SprtState::AcceptH0).decision(), GamesSay::NoGain);
        assert_eq!(GamesSay::NoGain.sign(), None);
        assert_eq!(sprt_ended((-5.0, 0.0), SprtState::AcceptH1).decision(), GamesSay::NoLoss);
        assert_eq!(sprt_ended((-5.0, 0.0), SprtState::AcceptH0).decision(), GamesSay::Loss);
        assert_eq!(sprt_ended((2.0, 7.0), SprtState::AcceptH0).decision(), GamesSay::NoGain);
        let clearly_lost = entry("b", (20, 60, 20), [8, 12, 20, 8, 2]);
        let lost_by_sprt = AtlasEntry { penta: clearly_lost.penta, ..sprt_ended((0.0, 5.0), SprtState::AcceptH0) };
        assert_eq!(lost_by_sprt.decision(), GamesSay::NoGain);
        // An SPRT still undecided at its games cap: the sample of that size
        // decides by its interval (even here: undecided; lost: a loss).
        let capped = AtlasEntry { stop: "games".into(), ..sprt_ended((0.0, 5.0), SprtState::Continue) };
        assert_eq!(capped.decision(), GamesSay::Undecided);
        assert_eq!(AtlasEntry { penta: clearly_lost.penta, ..capped.clone() }.decision(), GamesSay::Loss);
        assert_eq!(clearly_lost.decision(), GamesSay::Loss);
        // A match still running or stopped early decides nothing, however
        // far its interval is from 0; nor does an identical pair.
        let won = entry("a", (60, 20, 20), [2, 8, 20, 12, 8]);
        assert_eq!(won.decision(), GamesSay::Gain);
        assert_eq!(AtlasEntry { stop: "running".into(), ..won.clone() }.decision(), GamesSay::Undecided);
        assert_eq!(AtlasEntry { stop: "stopped".into(), ..won.clone() }.decision(), GamesSay::Undecided);
        let identical = AtlasEntry { stop: STOP_IDENTICAL.into(), ..entry("same", (0, 0, 0), [0; 5]) };
        assert!(identical.is_identical());
        assert_eq!(identical.decision(), GamesSay::Undecided);
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
        assert_eq!(entries[0].decision(), GamesSay::Gain);
        assert_eq!(entries[1].decision(), GamesSay::Loss);
        assert_eq!(entry("even", (10, 10, 80), [5, 10, 20, 10, 5]).decision(), GamesSay::Undecided);
        // FNV-1a's published vector for "a".
        assert_eq!(fnv1a_hex(b"a"), "af63dc4c8601ec8c");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_key_carries_tunable_values_and_a_tuned_pair_is_not_its_untuned_siblings() {
        let untuned = entry("leaf", (40, 20, 40), [5, 10, 20, 10, 5]);
        let untuned_key = untuned.key.clone();
        let key = |tunables: &str| {
            let mut key = untuned_key.clone();
            key.searches.tunables = tunables.into();
            key
        };
        let tuned = AtlasEntry { key: key("ReverseFutilityDepthMargin=93"), ..untuned.clone() };
        // A line without tunables is written as before they were keyed; a
        // tuned one has its values after the feature sets.
        let untuned_line = serde_json::to_string(&untuned).unwrap();
        assert!(
            untuned_line.starts_with(
                "{\"variant\":\"leaf\",\"parent\":\"parent\",\"features\":[\"leaf\"],\"parent_features\":[],\"nodes\":10000,"
            ),
            "{untuned_line}"
        );
        let tuned_line = serde_json::to_string(&tuned).unwrap();
        assert!(
            tuned_line.starts_with(
                "{\"variant\":\"leaf\",\"parent\":\"parent\",\"features\":[\"leaf\"],\"parent_features\":[],\
                 \"tunables\":\"ReverseFutilityDepthMargin=93\",\"nodes\":10000,"
            ),
            "{tuned_line}"
        );
        assert_eq!(serde_json::from_str::<AtlasEntry>(&untuned_line).unwrap(), untuned);
        assert_eq!(serde_json::from_str::<AtlasEntry>(&tuned_line).unwrap(), tuned);
        // The untuned sibling's result is not the tuned pair's, nor is
        // another value's.
        let played = [untuned.clone()];
        assert!(find(&played, &tuned.key).is_none());
        assert!(find(&played, &untuned.key).is_some());
        let both = [untuned, tuned.clone()];
        assert_eq!(find(&both, &tuned.key), Some(&tuned));
        assert!(find(&both, &key("ReverseFutilityDepthMargin=94")).is_none());
        let mut parent_tuned = key("");
        parent_tuned.searches.parent_tunables = "ReverseFutilityDepthMargin=93".into();
        assert!(find(&both, &parent_tuned).is_none());
    }

    /// The lines of the repository's `file`, each read and written back:
    /// all before `until` must come back byte for byte (serde_json's
    /// reading of a float may move its last digit, so what follows is not
    /// compared).
    pub fn read_back_until<T: Serialize + DeserializeOwned>(file: &str, until: &str) -> Vec<T> {
        let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(file)).unwrap();
        let before = |line: &str| line[..line.find(until).unwrap()].to_string();
        let lines = text.lines().map(|line| {
            let entry: T = serde_json::from_str(line).unwrap();
            assert_eq!(before(&serde_json::to_string(&entry).unwrap()), before(line), "{file}");
            entry
        });
        lines.collect()
    }

    /// The variants whose searches have tunable values, with the variant's.
    pub fn tuned<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a PairSearches)>) -> Vec<(String, String)> {
        pairs
            .into_iter()
            .filter(|(_, searches)| !searches.tunables.is_empty() || !searches.parent_tunables.is_empty())
            .map(|(variant, searches)| (variant.to_string(), searches.tunables.clone()))
            .collect()
    }

    #[test]
    fn the_repositorys_atlas_keys_read_and_write_back_byte_for_byte() {
        // The key is all before the games.
        let entries: Vec<AtlasEntry> = read_back_until(ATLAS_FILE, ",\"games\":");
        let tuned = tuned(entries.iter().map(|entry| (entry.variant.as_str(), &entry.key.searches)));
        assert_eq!(tuned, [("p002-1.6".to_string(), "ReverseFutilityDepthMargin=93".to_string())]);
    }
}
