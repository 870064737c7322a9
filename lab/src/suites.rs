//! Position suites for `lab nodes` and `lab tactics`: the named ones
//! (`seeds`, `bench`, `node-suite`, `wac`, `arasan`, `zugzwang`) or any EPD
//! file. A line that cannot be read is reported with its number and skipped.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use prunelab::epd::{parse_epd_line, read_epd_file, EpdRecord};
use prunelab::position::move_to_uci;

use crate::lab::Lab;

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

/// The shared data folder: `$PRUNELAB_DATA`, else `../shared/data` beside
/// the repository.
pub fn data_dir(lab: &Lab) -> PathBuf {
    match std::env::var_os("PRUNELAB_DATA") {
        Some(dir) => PathBuf::from(dir),
        None => lab.root.join("..").join("shared").join("data"),
    }
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
    let shared = |file: &str| data_dir(lab).join("suites").join(file);
    let named = match spec {
        "wac" => Some(shared("wac.epd")),
        "arasan" => Some(shared("arasan21.epd")),
        "zugzwang" => Some(shared("zugts.epd")),
        "node-suite" => Some(lab.root.join("ci").join("node-suite.epd")),
        _ => None,
    };
    if let Some(path) = named {
        if !path.exists() {
            bail!("suite `{spec}`: {} does not exist (set PRUNELAB_DATA to the shared data folder)", path.display());
        }
        return from_file(&path, spec);
    }
    match spec {
        "seeds" => {
            // The plans' seeds; the node suite keeps a fixed copy of them.
            let path = shared("seeds.epd");
            if path.exists() {
                return from_file(&path, spec);
            }
            let mut suite = from_file(&lab.root.join("ci").join("node-suite.epd"), spec)?;
            suite.positions.retain(|position| position.id.starts_with("seeds."));
            Ok(suite)
        }
        "bench" => {
            let positions = prunelab::bench::BENCH_POSITIONS
                .iter()
                .enumerate()
                .map(|(index, fen)| {
                    let record = parse_epd_line(fen).map_err(anyhow::Error::msg)?;
                    Ok(position_of(record, format!("bench.{}", index + 1)))
                })
                .collect::<Result<_>>()?;
            Ok(Suite { name: spec.to_string(), positions, skipped: Vec::new() })
        }
        _ => {
            let path = lab.resolve(Path::new(spec));
            if !path.is_file() {
                bail!(
                    "unknown suite `{spec}`: not a file, and not one of seeds, bench, node-suite, wac, arasan, zugzwang"
                );
            }
            let name = path.file_stem().and_then(|stem| stem.to_str()).unwrap_or("suite").to_string();
            from_file(&path, &name).with_context(|| format!("suite {}", path.display()))
        }
    }
}

impl Suite {
    /// Says which lines were skipped, once, on stderr.
    pub fn report_skipped(&self, lab: &Lab) {
        for (line, why) in &self.skipped {
            lab.say(&format!("suite {}: line {line} skipped: {why}", self.name));
        }
    }
}
