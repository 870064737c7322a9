//! Position suites for `lab nodes` and `lab tactics`: the named ones
//! (`seeds`, `bench`, `node-suite`, `verdict`, `startpos`, `wac`, `arasan`, `zugzwang`) or any EPD
//! file. A line that cannot be read is reported with its number and skipped.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use games::matches::position_key;
use prunelab::data;
use prunelab::epd::{parse_epd_line, read_epd_file, EpdRecord};
use prunelab::position::move_to_uci;

use crate::lab::Lab;
use crate::variants::grammar::VERDICT_SUITE;

/// One position of a suite, with its `bm`/`am` moves in UCI.
#[derive(Clone, Debug)]
pub struct SuitePosition {
    pub id: String,
    /// Full six-field FEN.
    pub fen: String,
    pub best: Vec<String>,
    pub avoid: Vec<String>,
}

pub struct Suite {
    pub name: String,
    pub positions: Vec<SuitePosition>,
    /// Lines that could not be read: (line number, why).
    pub skipped: Vec<(usize, String)>,
}

/// The data folder: `$PRUNELAB_DATA`, else the repository's `data/`.
pub fn data_dir(lab: &Lab) -> Result<PathBuf> {
    prunelab::data::folder(&lab.root)
}

fn position_of(record: EpdRecord, fallback_id: String) -> SuitePosition {
    let board = &record.board;
    let uci = |moves: &[cozy_chess::Move]| moves.iter().map(|&mv| move_to_uci(board, mv)).collect();
    SuitePosition {
        id: record.id.clone().unwrap_or(fallback_id),
        fen: record.fen.clone(),
        best: uci(&record.best_moves),
        avoid: uci(&record.avoid_moves),
    }
}

fn from_file(path: &Path, name: &str) -> Result<Suite> {
    let file = read_epd_file(path)?;
    let positions = file
        .records
        .into_iter()
        .enumerate()
        .map(|(index, record)| position_of(record, format!("{name}.{}", index + 1)))
        .collect();
    Ok(Suite { name: name.to_string(), positions, skipped: file.errors })
}

/// Loads a suite by name or path.
pub fn load(lab: &Lab, spec: &str) -> Result<Suite> {
    let in_data = |file: &str| -> Result<PathBuf> {
        let folder = data_dir(lab)?;
        let path = folder.join(file);
        if !path.is_file() {
            bail!("suite `{spec}`: {}", prunelab::data::missing(&folder, file));
        }
        Ok(path)
    };
    let path = match spec {
        "wac" => in_data(data::WAC)?,
        "arasan" => in_data(data::ARASAN)?,
        "zugzwang" => in_data(data::ZUGZWANG)?,
        "seeds" => in_data(data::SEEDS)?,
        "node-suite" => lab.root.join(prunelab::matrix::SUITE_PATH),
        "bench" => return bench_suite(),
        VERDICT_SUITE => return verdict_suite(lab),
        STARTPOS => return startpos_suite(),
        _ => {
            let path = lab.resolve(Path::new(spec));
            if !path.is_file() {
                bail!(
                    "unknown suite `{spec}`: not a file, and not one of seeds, bench, node-suite, verdict, startpos, wac, arasan, zugzwang"
                );
            }
            return from_file(&path, &name(spec)).with_context(|| format!("suite {}", path.display()));
        }
    };
    from_file(&path, spec).with_context(|| format!("suite `{spec}`"))
}

/// What a suite given as `spec` is called in tables: its own name, or a
/// file's name without folder and extension.
pub fn name(spec: &str) -> String {
    Path::new(spec).file_stem().and_then(|stem| stem.to_str()).unwrap_or("suite").to_string()
}

/// The positions the verdict suite adds to the node suite and the bench,
/// relative to the repository.
pub const VERDICT_EXTRA_PATH: &str = "data/suites/verdict-extra.epd";

/// The name of the suite of the start position alone, where plan 003
/// counts its nodes ("332k" at depth 10, to bring "<100k").
pub const STARTPOS: &str = "startpos";

fn startpos_suite() -> Result<Suite> {
    let record = parse_epd_line(prunelab::position::STARTPOS_FEN).map_err(anyhow::Error::msg)?;
    Ok(Suite {
        name: STARTPOS.to_string(),
        positions: vec![position_of(record, STARTPOS.to_string())],
        skipped: Vec::new(),
    })
}

/// `prunelab bench`'s 48 positions, as `bench.1` ... `bench.48`.
fn bench_suite() -> Result<Suite> {
    let positions = prunelab::bench::BENCH_POSITIONS
        .iter()
        .enumerate()
        .map(|(index, fen)| {
            let record = parse_epd_line(fen).map_err(anyhow::Error::msg)?;
            Ok(position_of(record, format!("bench.{}", index + 1)))
        })
        .collect::<Result<_>>()?;
    Ok(Suite { name: "bench".to_string(), positions, skipped: Vec::new() })
}

/// What a suite holds, as claims compare it: a hash of its positions
/// (`position_key`s, sorted, each once), so a suite is known by its
/// positions and not by its file's name, and how many there are.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SuiteContent {
    pub hash: String,
    pub positions: usize,
}

impl SuiteContent {
    /// The content of the positions given as FENs.
    pub fn of_fens<'a>(fens: impl IntoIterator<Item = &'a str>) -> SuiteContent {
        let mut keys: Vec<String> = fens.into_iter().map(position_key).collect();
        keys.sort();
        keys.dedup();
        // FNV-1a: stable across builds and Rust versions, unlike std's hasher,
        // as a hash kept in result files must be.
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in keys.iter().flat_map(|key| key.bytes().chain(std::iter::once(b'\n'))) {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
        SuiteContent { hash: format!("{hash:016x}"), positions: keys.len() }
    }
}

impl Suite {
    pub fn content(&self) -> SuiteContent {
        SuiteContent::of_fens(self.positions.iter().map(|position| position.fen.as_str()))
    }
}

/// The verdicts' node suite, from the repository alone: the node-count
/// suite (`data/suites/node-suite.epd`: the seeds, openings, tactics, endgames),
/// then the bench positions it does not hold, then the chessprogramming
/// wiki's perft positions 2-6 (`data/suites/verdict-extra.epd`). Each
/// position is there once: the node suite and the bench share 23, and a
/// position counted twice would weigh twice in the geometric mean and
/// narrow its interval with no new evidence.
fn verdict_suite(lab: &Lab) -> Result<Suite> {
    let mut suite = from_file(&lab.root.join(prunelab::matrix::SUITE_PATH), VERDICT_SUITE)?;
    let extra = from_file(&lab.root.join(VERDICT_EXTRA_PATH), VERDICT_SUITE)?;
    let more = bench_suite()?.positions.into_iter().chain(extra.positions);
    for position in more {
        let key = position_key(&position.fen);
        if !suite.positions.iter().any(|known| position_key(&known.fen) == key) {
            suite.positions.push(position);
        }
    }
    suite.skipped.extend(extra.skipped);
    Ok(suite)
}

/// Refuses a search depth no engine can be asked for.
pub fn check_depth(depth: u32) -> Result<()> {
    if depth == 0 || depth > 64 {
        bail!("--depth must be between 1 and 64");
    }
    Ok(())
}

/// Loads `spec` for a run over all its positions (or the first `first`):
/// says which lines were skipped, and refuses a suite left empty.
pub fn load_for_run(lab: &Lab, spec: &str, first: Option<usize>) -> Result<Suite> {
    let mut suite = load(lab, spec)?;
    suite.report_skipped(lab);
    if let Some(first) = first {
        suite.positions.truncate(first);
    }
    if suite.positions.is_empty() {
        bail!("suite `{}` has no positions", suite.name);
    }
    Ok(suite)
}

impl Suite {
    /// Says which lines were skipped, once, on stderr.
    pub fn report_skipped(&self, lab: &Lab) {
        for (line, why) in &self.skipped {
            lab.say(&format!("suite {}: line {line} skipped: {why}", self.name));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lab() -> Lab {
        Lab::for_tests()
    }

    #[test]
    fn the_verdict_suite_has_each_position_once_and_no_shared_data() {
        let suite = load(&lab(), VERDICT_SUITE).unwrap();
        assert!(suite.skipped.is_empty(), "{:?}", suite.skipped);
        // 24 of the node suite, 25 bench positions it lacks, 5 perft positions.
        assert_eq!(suite.positions.len(), 54);
        let mut keys: Vec<String> = suite.positions.iter().map(|position| position_key(&position.fen)).collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), 54, "a position is in the suite twice");
        let ids: Vec<&str> = suite.positions.iter().map(|position| position.id.as_str()).collect();
        assert_eq!(ids[0], "seeds.startpos");
        let from_bench = |id: &&&str| id.strip_prefix("bench.").is_some_and(|number| number.parse::<usize>().is_ok());
        assert_eq!(ids.iter().filter(from_bench).count(), 25);
        assert_eq!(ids[53], "cpw.position-6");
        // The book's "Reading verdicts and blame" gives these counts.
        let readme = std::fs::read_to_string(lab().root.join("docs/verdicts.md")).unwrap();
        let prose = readme.split_whitespace().collect::<Vec<_>>().join(" ");
        let node_suite = load(&lab(), "node-suite").unwrap().positions.len();
        let extra = ids.iter().filter(|id| id.starts_with("cpw.")).count();
        for said in [
            format!("the {node_suite} positions of `data/suites/node-suite.epd`"),
            format!("the {} bench positions it does not already hold", ids.iter().filter(from_bench).count()),
            format!(
                "perft positions 2-{} (`data/suites/verdict-extra.epd`): {} positions, each once",
                extra + 1,
                ids.len()
            ),
        ] {
            assert!(prose.contains(&said), "docs/verdicts.md no longer says `{said}`");
        }
        assert_eq!(position_key("8/8/8/8/8/8/8/K1k5 w - - 12 40"), "8/8/8/8/8/8/8/K1k5 w - -");
    }

    #[test]
    fn a_suite_is_known_by_its_positions_not_its_name() {
        let lab = lab();
        let verdict = load(&lab, VERDICT_SUITE).unwrap().content();
        assert_eq!(verdict.positions, 54);
        assert_eq!(load_for_run(&lab, VERDICT_SUITE, None).unwrap().content(), verdict);
        assert_ne!(load_for_run(&lab, VERDICT_SUITE, Some(10)).unwrap().content(), verdict);
        // The same positions in another order, with other move counters and
        // ids, under any name: the same suite.
        let fens: Vec<String> = load(&lab, VERDICT_SUITE).unwrap().positions.iter().map(|p| p.fen.clone()).collect();
        let renumbered: Vec<String> = fens.iter().rev().map(|fen| format!("{} 7 70", position_key(fen))).collect();
        assert_eq!(SuiteContent::of_fens(renumbered.iter().map(String::as_str)), verdict);
        assert_ne!(load(&lab, "seeds").unwrap().content(), verdict);
        assert_eq!(load(&lab, STARTPOS).unwrap().content().positions, 1);
    }

    #[test]
    fn outside_the_repository_every_named_suite_loads_from_the_data_built_in() {
        let home = std::env::temp_dir().join(format!("prunelab-suites-outside-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&home);
        crate::lab::outside::unpack_data(&home).unwrap();
        let mut outside = lab();
        (outside.root, outside.in_repository) = (home.clone(), false);
        let inside = lab();
        for name in ["seeds", "node-suite", VERDICT_SUITE, "wac", "arasan", "zugzwang", "bench", STARTPOS] {
            let (theirs, ours) = (load(&outside, name).unwrap(), load(&inside, name).unwrap());
            assert_eq!(theirs.content(), ours.content(), "{name}");
        }
        std::fs::remove_dir_all(&home).unwrap();
    }

    #[test]
    fn startpos_is_the_start_position_alone() {
        let suite = load(&lab(), STARTPOS).unwrap();
        let fens: Vec<&str> = suite.positions.iter().map(|position| position.fen.as_str()).collect();
        assert_eq!(fens, ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]);
        assert_eq!(suite.positions[0].id, "startpos");
    }
}
