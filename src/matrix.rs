//! The variant matrix's table: a technique set searches the node-count suite
//! (`ci/node-suite.epd`) to a fixed depth from `ucinewgame`, one thread, and
//! each position's nodes, best move, score and technique counters become one
//! line. The snapshot test (`tests/matrix.rs`, every variant in one build)
//! and `prunelab matrix` (the compiled set, as `ci/honesty.sh` runs it) share
//! this code, so a feature-built binary and its snapshot are comparable
//! byte for byte.

use std::fmt::Write;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use anyhow::{bail, Result};

use crate::epd::read_epd_file;
use crate::position::{move_to_uci, Position};
use crate::search::{uci_score, SearchLimits, SearchResult, Searcher};
use crate::stats::SearchStats;
use crate::techniques::TechniqueSet;

/// The suite, relative to the repository root.
pub const SUITE_PATH: &str = "ci/node-suite.epd";
/// The snapshots' search depth.
pub const DEPTH: i32 = 10;
/// The snapshots' hash size, the UCI default.
pub const HASH_MB: usize = 16;

/// A search with one technique set, as a plain function pointer so a table
/// of variants can hold them.
pub type SearchFn = fn(&mut Searcher, &Position, &SearchLimits) -> SearchResult;

/// The search with technique set `T`.
pub fn search_as<T: TechniqueSet>(searcher: &mut Searcher, pos: &Position, limits: &SearchLimits) -> SearchResult {
    searcher.search_with::<T>(pos, limits, &AtomicBool::new(false), &mut |_| {})
}

/// The techniques' counters that counted, as `name attempts/cutoffs`.
fn counters(stats: &SearchStats) -> String {
    stats
        .techniques
        .snapshot_counters()
        .into_iter()
        .filter(|(_, attempts, _)| *attempts > 0)
        .map(|(name, attempts, cutoffs)| format!("{name} {attempts}/{cutoffs}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The suite's positions with their EPD ids; any unreadable line is an error.
pub fn load_suite(path: &Path) -> Result<Vec<(String, Position)>> {
    let file = read_epd_file(path)?;
    if let Some((line, error)) = file.errors.first() {
        bail!("{}:{line}: {error}", path.display());
    }
    Ok(file
        .records
        .into_iter()
        .map(|record| (record.id.unwrap_or_default(), Position::from_board(record.board)))
        .collect())
}

/// The table's first line, naming the variant and its features (closed over
/// implications, catalogue order).
pub fn header(variant: &str, features: &[&str]) -> String {
    let features = if features.is_empty() { "none".to_string() } else { features.join(", ") };
    format!("variant {variant}: {features}")
}

/// The whole table, a snapshot's body: the header, the search settings, one
/// line per position and the total nodes.
pub fn table(
    variant: &str,
    features: &[&str],
    search: SearchFn,
    positions: &[(String, Position)],
    depth: i32,
    hash_mb: usize,
) -> String {
    let mut out = String::new();
    writeln!(out, "{}", header(variant, features)).unwrap();
    writeln!(out, "depth {depth}, Hash {hash_mb}, 1 thread, from ucinewgame").unwrap();
    writeln!(out, "{:<28} | {:>9} | {:<6} | {:<9} | counters", "position", "nodes", "best", "score").unwrap();
    let mut searcher = Searcher::new(hash_mb);
    let mut total = 0;
    for (id, pos) in positions {
        searcher.new_game();
        let result = search(&mut searcher, pos, &SearchLimits { depth: Some(depth), ..Default::default() });
        total += result.nodes;
        let best = result.best_move.map_or("none".to_string(), |mv| move_to_uci(pos.board(), mv));
        let line = format!(
            "{id:<28} | {:>9} | {best:<6} | {:<9} | {}",
            result.nodes,
            uci_score(result.score),
            counters(&result.stats)
        );
        writeln!(out, "{}", line.trim_end()).unwrap();
    }
    writeln!(out, "{:<28} | {total:>9}", "total").unwrap();
    out
}
