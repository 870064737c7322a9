//! The fast measures (`Measure`: node change, time-to-depth ratio, WAC
//! change), where they were taken (`MeasuredAt`), the latest of each pair
//! in the local runs (`latest_comparisons`), and the atlas's,
//! `atlas/fast.jsonl` in the repository: for
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
use games::results::{read_records, runs_of_nested, RUN_FILE};
use serde::{Deserialize, Serialize};

use super::entries::{self, PairSearches};
use crate::lab::table::Table;
use crate::variants::grammar;
use crate::verdicts::chain::{self, PhaseRecord};
use crate::verdicts::verdict::Comparison;

/// Where the fast measures live, from the repository's root: beside the
/// atlas.
pub const FAST_FILE: &str = "atlas/fast.jsonl";

/// One pair's fast measures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FastEntry {
    pub variant: String,
    pub parent: String,
    /// The two searches it measured, as the atlas's lines keep them.
    #[serde(flatten)]
    pub searches: PairSearches,
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

/// The latest entry of a pair with these searches: the measures of the
/// same two searches.
pub fn find<'a>(
    entries: &'a [FastEntry],
    (variant, parent): (&str, &str),
    searches: &PairSearches,
) -> Option<&'a FastEntry> {
    entries.iter().rev().find(|entry| entry.variant == variant && entry.parent == parent && &entry.searches == searches)
}

/// The suite whose solve count is the calibration's tactics measure.
pub const TACTICS_SUITE: &str = "wac";

/// Where fast measures were taken: the node suite and depth (nodes and time
/// to depth), WAC's budget, and the hash. A measure is set beside the
/// atlas's only when it was taken where theirs were: the node change at
/// depth 8 or WAC at 50,000 nodes is another measure.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeasuredAt {
    /// The node suite's name (`verdict`).
    pub suite: String,
    pub depth: u32,
    pub tactics_nodes: u64,
    /// Only the suite's first positions, when set.
    #[serde(default)]
    pub tactics_first: Option<usize>,
    pub hash: u32,
}

impl MeasuredAt {
    /// Where the atlas's fast measures were taken, and so what its fit
    /// knows: `lab chain`'s defaults (the verdict suite at depth 10, the
    /// whole of WAC at 25,000 nodes, hash 16), which measured every line of
    /// `atlas/fast.jsonl`.
    pub fn fitted() -> MeasuredAt {
        MeasuredAt {
            suite: grammar::VERDICT_SUITE.to_string(),
            depth: 10,
            tactics_nodes: chain::DEFAULT_TACTICS_NODES,
            tactics_first: None,
            hash: 16,
        }
    }

    /// A `lab ab` or `lab chain` run's, from the arguments its run file
    /// keeps (both name them alike); `None` when they do not say.
    pub fn of_run(run: &Path) -> Option<MeasuredAt> {
        let text = std::fs::read_to_string(run.join(RUN_FILE)).ok()?;
        let run: serde_json::Value = serde_json::from_str(&text).ok()?;
        serde_json::from_value(run["args"].clone()).ok()
    }

    /// Where `measure` was taken: `verdict at depth 10, hash 16`, `wac at
    /// nodes 25000, hash 16`.
    pub fn text(&self, measure: Measure) -> String {
        match measure {
            Measure::Nodes | Measure::TimeToDepth => {
                format!("{} at depth {}, hash {}", self.suite, self.depth, self.hash)
            }
            Measure::Wac => {
                let first = self.tactics_first.map_or(String::new(), |first| format!(", first {first}"));
                format!("{TACTICS_SUITE} at nodes {}{first}, hash {}", self.tactics_nodes, self.hash)
            }
        }
    }

    /// Whether `measure` was taken where the atlas's were.
    pub fn is_fitted(&self, measure: Measure) -> bool {
        self.text(measure) == MeasuredAt::fitted().text(measure)
    }

    /// `measures`, less those not taken where the atlas's were.
    pub fn comparable(&self, measures: &FastMeasures) -> FastMeasures {
        FastMeasures {
            node_change_pct: measures.node_change_pct.filter(|_| self.is_fitted(Measure::Nodes)),
            ttd_ratio: measures.ttd_ratio.filter(|_| self.is_fitted(Measure::TimeToDepth)),
            wac_change: measures.wac_change.filter(|_| self.is_fitted(Measure::Wac)),
        }
    }
}

/// A variant's fast measures against its parent, each when measured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FastMeasures {
    /// Node change in percent (geometric mean of the per-position ratios).
    pub node_change_pct: Option<f64>,
    /// Time to depth, the variant's over its parent's.
    pub ttd_ratio: Option<f64>,
    /// WAC positions solved, the variant's less its parent's.
    pub wac_change: Option<i64>,
}

/// The measures by name, as the tables list them, and the sign each points
/// to (+1 a gain, -1 a loss, `None` no change).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    Nodes,
    TimeToDepth,
    Wac,
}

impl Measure {
    pub const ALL: [Measure; 3] = [Measure::Nodes, Measure::TimeToDepth, Measure::Wac];

    pub fn name(self) -> &'static str {
        match self {
            Measure::Nodes => "node change",
            Measure::TimeToDepth => "time-to-depth ratio",
            Measure::Wac => "WAC change",
        }
    }

    /// The measure as a number for the fit: percent for nodes and time to
    /// depth, positions for WAC.
    pub fn value(self, fast: &FastMeasures) -> Option<f64> {
        match self {
            Measure::Nodes => fast.node_change_pct,
            Measure::TimeToDepth => fast.ttd_ratio.map(|ratio| (ratio - 1.0) * 100.0),
            Measure::Wac => fast.wac_change.map(|change| change as f64),
        }
    }

    /// The way it points: fewer nodes, less time or more solved is a gain.
    pub fn points(self, fast: &FastMeasures) -> Option<i8> {
        let value = self.value(fast)?;
        let gain_when_negative = !matches!(self, Measure::Wac);
        match value.partial_cmp(&0.0)? {
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Less => Some(if gain_when_negative { 1 } else { -1 }),
            std::cmp::Ordering::Greater => Some(if gain_when_negative { -1 } else { 1 }),
        }
    }

    /// What a variant whose measure points to a gain did: `searched fewer
    /// nodes`.
    pub fn gain_deed(self) -> &'static str {
        match self {
            Measure::Nodes => "searched fewer nodes",
            Measure::TimeToDepth => "reached the depth faster",
            Measure::Wac => "solved more WAC positions",
        }
    }

    /// `-12.3%`, `x0.912`, `+3`.
    pub fn text(self, fast: &FastMeasures) -> String {
        match self {
            Measure::Nodes => fast.node_change_pct.map_or("-".into(), |pct| format!("{pct:+.1}%")),
            Measure::TimeToDepth => fast.ttd_ratio.map_or("-".into(), |ratio| format!("x{ratio:.3}")),
            Measure::Wac => fast.wac_change.map_or("-".into(), |change| format!("{change:+}")),
        }
    }
}

impl FastMeasures {
    pub fn of(comparison: &Comparison) -> FastMeasures {
        FastMeasures {
            node_change_pct: comparison.nodes.map(|ratio| ratio.percent()),
            ttd_ratio: comparison.time_to_depth.map(|ratio| ratio.ratio),
            wac_change: comparison
                .solved
                .iter()
                .find(|solved| solved.suite == TACTICS_SUITE)
                .map(|solved| solved.variant as i64 - solved.parent as i64),
        }
    }

    pub fn is_empty(&self) -> bool {
        Measure::ALL.iter().all(|measure| measure.value(self).is_none())
    }
}

/// A `lab ab` run's summary, as much as its fast measures need.
#[derive(Deserialize)]
struct AbSummary {
    a: String,
    b: String,
    comparison: Comparison,
}

/// A comparison measured by a local run.
#[derive(Clone, Debug)]
pub struct LocalComparison {
    /// The run's folder name (`20261127T021500Z-chain`).
    pub run: String,
    /// Where the run measured, if its arguments say.
    pub measured_at: Option<MeasuredAt>,
    pub comparison: Comparison,
}

/// The latest comparison of each (reference, subject) pair under
/// `results`, with the run it came from: `lab ab` verdicts and `lab chain`
/// phases, the newest run winning.
pub fn latest_comparisons(results: &Path) -> Vec<LocalComparison> {
    let mut runs: Vec<(String, Option<MeasuredAt>, Vec<Comparison>)> = Vec::new();
    for run in runs_of_nested(results, "ab") {
        let summary = std::fs::read_to_string(run.join("summary.json")).ok();
        if let Some(summary) = summary.and_then(|text| serde_json::from_str::<AbSummary>(&text).ok()) {
            let mut comparison = summary.comparison;
            (comparison.reference, comparison.subject) = (summary.a, summary.b);
            runs.push((folder_name(&run), MeasuredAt::of_run(&run), vec![comparison]));
        }
    }
    for run in runs_of_nested(results, "chain") {
        let phases = read_records::<PhaseRecord>(&run);
        let comparisons = phases.into_iter().filter(|phase| !phase.beside).map(|phase| phase.comparison).collect();
        runs.push((folder_name(&run), MeasuredAt::of_run(&run), comparisons));
    }
    // Timestamped names: sorted, the latest comes last and wins.
    runs.sort_by(|a, b| a.0.cmp(&b.0));
    let mut latest: Vec<LocalComparison> = Vec::new();
    for (run, measured_at, comparisons) in runs {
        for comparison in comparisons {
            latest.retain(|seen| {
                (&seen.comparison.reference, &seen.comparison.subject) != (&comparison.reference, &comparison.subject)
            });
            latest.push(LocalComparison { run: run.clone(), measured_at: measured_at.clone(), comparison });
        }
    }
    latest
}

fn folder_name(run: &Path) -> String {
    run.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default()
}

/// A table of pairs and their fast measures, for more columns after them.
pub fn fast_measures_table() -> Table {
    Table::new().left("variant").left("parent").right("node change").right("time to depth").right("WAC change")
}

/// A row's first cells in [`fast_measures_table`]: the pair and its measures.
pub fn fast_measure_cells(variant: &str, parent: &str, fast: &FastMeasures) -> [String; 5] {
    let [nodes, ttd, wac] = [Measure::Nodes, Measure::TimeToDepth, Measure::Wac].map(|measure| measure.text(fast));
    [variant.to_string(), parent.to_string(), nodes, ttd, wac]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(variant: &str, features: &[&str], nodes: f64) -> FastEntry {
        let features: Vec<String> = features.iter().map(|feature| feature.to_string()).collect();
        FastEntry {
            variant: variant.into(),
            parent: "baseline".into(),
            searches: searches(&features, ""),
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
        let found = find(&kept, ("lmp", "baseline"), &searches(&lmp, "")).unwrap();
        assert_eq!(found.fast.node_change_pct, Some(-12.0));
        assert_eq!(find(&kept, ("lmp", "p003-3"), &searches(&lmp, "")), None);
        assert_eq!(find(&kept, ("lmp", "baseline"), &searches(&["lmp-history".to_string()], "")), None);
        // The line reads back as it was written, measures at the top level.
        let line = std::fs::read_to_string(&path).unwrap().lines().next().unwrap().to_string();
        assert!(line.contains("\"node_change_pct\":-10.0,\"ttd_ratio\":0.95,\"wac_change\":-2"), "{line}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A pair's searches with these features and no parent features, the
    /// variant's tunable values `tunables`.
    fn searches(features: &[String], tunables: &str) -> PairSearches {
        PairSearches::of([features, &[]], [tunables, ""])
    }

    #[test]
    fn a_tuned_pair_has_measures_of_its_own_and_old_lines_read_as_untuned() {
        let untuned = entry("lmp", &["lmp"], -10.0);
        let tuned = FastEntry {
            variant: "lmp-tuned".into(),
            searches: searches(&["lmp".to_string()], "LmpBase=4"),
            ..entry("lmp", &["lmp"], -11.0)
        };
        // The untuned line is written as before tuned variants, the tuned
        // one with its values after the feature sets.
        let untuned_line = serde_json::to_string(&untuned).unwrap();
        assert!(untuned_line.starts_with(
            "{\"variant\":\"lmp\",\"parent\":\"baseline\",\"features\":[\"lmp\"],\"parent_features\":[],\"node_change_pct\""
        ), "{untuned_line}");
        let tuned_line = serde_json::to_string(&tuned).unwrap();
        assert!(tuned_line.starts_with(
            "{\"variant\":\"lmp-tuned\",\"parent\":\"baseline\",\"features\":[\"lmp\"],\"parent_features\":[],\"tunables\":\"LmpBase=4\",\"node_change_pct\""
        ), "{tuned_line}");
        let read_back: FastEntry = serde_json::from_str(&untuned_line).unwrap();
        assert_eq!(read_back, untuned);
        assert_eq!(serde_json::from_str::<FastEntry>(&tuned_line).unwrap(), tuned);
        // A second tuned leaf of the same parent, named like the first
        // (a renamed file), is not taken as measured.
        let kept = [untuned, tuned];
        let lmp = ["lmp".to_string()];
        assert_eq!(
            find(&kept, ("lmp-tuned", "baseline"), &searches(&lmp, "LmpBase=4")).unwrap().fast.node_change_pct,
            Some(-11.0)
        );
        assert_eq!(find(&kept, ("lmp-tuned", "baseline"), &searches(&lmp, "LmpBase=5")), None);
        assert_eq!(find(&kept, ("lmp-tuned", "baseline"), &searches(&lmp, "")), None);
        assert_eq!(find(&kept, ("lmp", "baseline"), &searches(&lmp, "")).unwrap().fast.node_change_pct, Some(-10.0));
    }

    /// The repository's lines name both searches as they did before the
    /// atlas's key and these lines shared `PairSearches`: all up to the
    /// measures is written back byte for byte.
    #[test]
    fn the_repositorys_fast_lines_write_their_searches_back_byte_for_byte() {
        let entries: Vec<FastEntry> = entries::tests::read_back_until(FAST_FILE, ",\"node_change_pct\":");
        let tuned = entries::tests::tuned(entries.iter().map(|entry| (entry.variant.as_str(), &entry.searches)));
        assert_eq!(tuned, [("p002-1.6".to_string(), "ReverseFutilityDepthMargin=93".to_string())]);
    }
}
