//! The variant matrix's table: a technique set searches the node-count suite
//! (`data/suites/node-suite.epd`) to a fixed depth from `ucinewgame`, one thread, and
//! each position's nodes, best move, score and technique counters become one
//! line. The snapshot test (`tests/matrix.rs`, every variant in one build)
//! and `prunelab matrix` (the compiled set, as `ci/honesty.sh` runs it) share
//! this code, so a feature-built binary and its snapshot are comparable
//! byte for byte.

pub mod table_diff;

use std::fmt::Write;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use anyhow::{bail, Result};

use crate::epd::read_epd_file;
use crate::position::{move_to_uci, Position};
use crate::score::uci_score;
use crate::search::{SearchLimits, SearchResult, Searcher};
use crate::stats::SearchStats;
use crate::techniques::TechniqueSet;

/// The suite, relative to the repository root.
pub const SUITE_PATH: &str = "data/suites/node-suite.epd";
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
    search: impl Fn(&mut Searcher, &Position, &SearchLimits) -> SearchResult,
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

/// The body of a snapshot file: what follows insta's `---` ... `---` header
/// (the whole text when it has none).
pub fn snapshot_body(text: &str) -> &str {
    match text.strip_prefix("---\n").and_then(|rest| rest.split_once("\n---\n")) {
        Some((_, body)) => body,
        None => text,
    }
}

/// Searches every position of the node-count suite to `depth` with sets
/// `A` and `B`, each from a new game, for tests that compare two sets'
/// trees: (position id, `A`'s result, `B`'s result).
#[cfg(test)]
pub(crate) fn suite_with_both<A: TechniqueSet, B: TechniqueSet>(
    depth: i32,
) -> Vec<(String, SearchResult, SearchResult)> {
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join(SUITE_PATH);
    let positions = load_suite(&suite).expect("the node-count suite loads");
    let run = |search: SearchFn, pos: &Position| {
        let mut searcher = Searcher::new(16);
        searcher.new_game();
        search(&mut searcher, pos, &SearchLimits { depth: Some(depth), ..Default::default() })
    };
    positions.into_iter().map(|(id, pos)| (id, run(search_as::<A>, &pos), run(search_as::<B>, &pos))).collect()
}
