//! `prunelab bench`: a fixed set of positions, each searched to a fixed depth
//! from a fresh game, giving one node count that identifies the search's
//! behaviour and a speed figure.
//!
//! The node count is the signature OpenBench checks: any change to what the
//! search does changes it, a pure speed-up does not. The last line is exactly
//! `Bench: <nodes> nodes <nps> nps`, the format OpenBench parses.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::position::{move_to_uci, Position};
use crate::score::uci_score;
use crate::search::{SearchLimits, Searcher};
use crate::stats::SearchStats;
use crate::techniques::Compiled;
use crate::time::nodes_per_second;
use crate::variants::selectable::Selectable;

/// Depth of `prunelab bench` without an argument: about 3 s of baseline
/// search in release on a 2-core machine.
pub const DEFAULT_BENCH_DEPTH: i32 = 9;

/// Hash size for bench, the UCI default, so bench matches a fresh engine.
pub const BENCH_HASH_MB: usize = 16;

/// The bench positions, as 6-field FENs: openings (the start position, the
/// 8-move and UHO books), the pruning plans' seed positions, tactical
/// middlegames (WAC, Arasan 2021) and endgames (zugzwang suite and others).
pub const BENCH_POSITIONS: [&str; 48] = [
    // Openings.
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rn2kb1r/pp3ppp/2p1pn2/3p3b/8/1P1P1NPP/PBPqPPB1/RN2K2R w KQkq - 0 9",
    "rn1qkb1r/pp2npp1/4p1bp/2ppP3/3P2PP/2P5/PP1NBP2/R1BQK1NR w KQkq - 0 9",
    "r1bq1r1k/1pp2ppp/p1np1n2/2b1p3/4P3/1BPP1N2/PP1N1PPP/R1BQ1RK1 w - - 2 9",
    "r1bqk2r/1pp1bppp/p1p5/2n1N3/8/8/PPPP1PPP/RNBQR1K1 w kq - 1 9",
    "rn1qkb1r/4pp1p/p1p2np1/1pPp4/3P4/2N1PP1P/PP3P2/R1BQKB1R w KQkq - 0 9",
    "r1b1k1nr/pppp1p2/2nb1q1p/4p1p1/2BPP3/2P2N2/P4PPP/RNBQ1R1K w kq - 0 1",
    "rnq1k2r/pp2pp1p/2p1bnpb/3p4/2PP4/1QN1PN2/PP1B1PPP/R3KB1R w KQkq - 0 1",
    "2kr3r/ppp1qppp/2nbbn2/8/3P4/2NBB3/PPPQ1PPP/R3K1NR w KQ - 0 1",
    "r1bq1rk1/pp3pbp/n1pp1np1/4p3/2PPP1P1/2N1BP2/PP1Q3P/R3KBNR w KQ - 0 1",
    "rnq2rk1/pp2bppp/2pp1n2/4p3/2PPP1b1/2N3P1/PP2NPBP/R1BQ1RK1 w - - 0 1",
    // The pruning plans' seed positions.
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1",
    "r1b1k2r/pp4pp/3Bpp2/3p4/6q1/8/PQ3PPP/1R2R1K1 w kq - 0 1",
    "8/5p2/2R2Pk1/5r1p/5P1P/5KP1/8/8 b - - 0 1",
    "2r3k1/1q1nbppp/r3p3/3pP3/p1pP4/P1Q2N2/1PRN1PPP/2R3K1 b - - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 1",
    "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1",
    "r1b1kb1r/pp1n1ppp/2p1p3/8/3PP3/2N2N2/PPP2PPP/R1BQKB1R b KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 0 1",
    // Tactical middlegames: Win At Chess.
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
    "1r1r2k1/4pp1p/2p1b1p1/p3R3/RqBP4/4P3/1PQ2PPP/6K1 b - - 0 1",
    "6k1/6p1/p7/3Pn3/5p2/4rBqP/P4RP1/5QK1 b - - 0 1",
    "r2q3r/ppp2k2/4nbp1/5Q1p/2P1NB2/8/PP3P1P/3RR1K1 w - - 0 1",
    "6k1/2pb1r1p/3p1PpQ/p1nPp3/1q2P3/2N2P2/PrB5/2K3RR w - - 0 1",
    "6rk/1pp2Qrp/3p1B2/1pb1p2R/3n1q2/3P4/PPP3PP/R6K w - - 0 1",
    "2r3k1/q4ppp/p3p3/pnNp4/2rP4/2P2P2/4R1PP/2R1Q1K1 b - - 0 1",
    "3r2k1/p1rn1p1p/1p2pp2/6q1/3PQNP1/5P2/P1P4R/R5K1 w - - 0 1",
    "r4rk1/5ppp/p3q1n1/2p2NQ1/4n3/P3P3/1B3PPP/1R3RK1 w - - 0 1",
    "r2qkb1r/pppb2pp/2np1n2/5pN1/2BQP3/2N5/PPP2PPP/R1B1K2R w KQkq - 0 1",
    // Tactical middlegames: Arasan 2021.
    "3q1r1k/1b3ppp/p1n5/1p1pPB2/2rP4/P6N/1P2Q1PP/R4RK1 w - - 0 1",
    "rnb3k1/p3qpr1/2p1p3/2NP3p/1pP3p1/3BQ3/P4PP1/4RRK1 w - - 0 1",
    "8/8/Q4p1k/6p1/4pNqn/PP2P1P1/3r1P2/2R3K1 b - - 0 1",
    "r3kb1r/1b1n2p1/p3Nn1p/3Pp3/1p4PP/3QBP2/qPP5/2KR1B1R w kq - 0 1",
    "2r1rnk1/1p2pp1p/p1np2p1/q4PP1/3NP2Q/4B2R/PPP4P/3R3K w - - 0 1",
    "r4nk1/2pq1ppp/3p4/p3pNPQ/4P3/2PP1RP1/Pr3PK1/7R w - - 0 1",
    "r3nrk1/1pqbbppp/p2pp3/2n1P3/5P2/2NBBNQ1/PPP3PP/R4RK1 w - - 0 1",
    // Endgames.
    "8/2p1k3/3p3p/2PP1pp1/1P1K1P2/6P1/8/8 w - - 0 1",
    "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 1",
    "8/8/1p1r1k2/p1pPN1p1/P3KnP1/1P6/8/3R4 b - - 0 1",
    "8/6B1/p5p1/Pp4kp/1P5r/5P1Q/4q1PK/8 w - - 0 1",
    "8/3p1p2/5Ppp/K2R2bk/4pPrr/6Pp/4B2P/3N4 w - - 0 1",
    "4B3/8/p7/k2N4/7p/K6p/PP5P/2q5 w - - 0 1",
    "3k4/8/4K3/2R5/8/8/8/8 w - - 0 1",
    "8/3k4/8/8/3PK3/8/8/8 w - - 0 1",
    "2k5/8/1K1P4/8/8/8/8/8 w - - 0 1",
    "8/5b2/p2k4/1p1p1p1p/1P1K1P1P/2P1PB2/8/8 w - - 0 1",
    "8/1p5k/1P1p4/3p4/3Pp2p/2K1P2p/7P/8 w - - 0 1",
];

/// One bench position's outcome.
#[derive(Clone, Debug)]
pub struct BenchResult {
    pub fen: &'static str,
    pub nodes: u64,
    /// Best move in UCI notation, `0000` when there is none.
    pub best_move: String,
    pub score: i32,
    pub elapsed: Duration,
}

/// The whole bench: total nodes, speed, and each position's result.
#[derive(Clone, Debug)]
pub struct BenchSummary {
    pub nodes: u64,
    pub nps: u64,
    pub elapsed: Duration,
    pub positions: Vec<BenchResult>,
    /// The search counters summed over every position.
    pub stats: SearchStats,
}

/// Searches every bench position to `depth`, each from a fresh game with the
/// default hash, printing one line per position, the summed search counters
/// when `with_stats`, and the `Bench:` line last.
///
/// Write errors are ignored: the output is a report, and a closed pipe (as in
/// `prunelab bench | head`) must not change what is measured.
pub fn run_bench(depth: i32, with_stats: bool, out: &mut impl Write) -> BenchSummary {
    run_bench_as(&Selectable::of::<Compiled>("compiled"), depth, with_stats, out)
}

/// [`run_bench`] with a variant's search.
pub fn run_bench_as(variant: &Selectable, depth: i32, with_stats: bool, out: &mut impl Write) -> BenchSummary {
    let mut searcher = Searcher::new(BENCH_HASH_MB);
    let limits = SearchLimits { depth: Some(depth), ..SearchLimits::default() };
    let stop = AtomicBool::new(false);
    let mut positions = Vec::with_capacity(BENCH_POSITIONS.len());
    let mut stats = SearchStats::default();

    for (index, &fen) in BENCH_POSITIONS.iter().enumerate() {
        // The list is checked by a unit test, so this only fails if that test does.
        let position = Position::from_fen(fen).unwrap_or_else(|error| panic!("bench FEN {fen}: {error}"));
        searcher.new_game();
        let started = Instant::now();
        let result = (variant.search)(&mut searcher, &position, &limits, &stop, &mut |_| {});
        let elapsed = started.elapsed();
        let best_move = result.best_move.map_or_else(|| "0000".to_string(), |mv| move_to_uci(position.board(), mv));
        let _ = writeln!(
            out,
            "{:>2}/{} nodes {:>10} bestmove {:<5} score {:<9} fen {fen}",
            index + 1,
            BENCH_POSITIONS.len(),
            result.nodes,
            best_move,
            uci_score(result.score),
        );
        stats.add(&result.stats);
        positions.push(BenchResult { fen, nodes: result.nodes, best_move, score: result.score, elapsed });
    }

    let nodes = positions.iter().map(|result| result.nodes).sum();
    let elapsed = positions.iter().map(|result| result.elapsed).sum();
    let nps = nodes_per_second(nodes, elapsed);
    if with_stats {
        for line in stats.report_lines_for(&variant.techniques) {
            let _ = writeln!(out, "{line}");
        }
    }
    let _ = writeln!(out, "Bench: {nodes} nodes {nps} nps");
    let _ = out.flush();
    BenchSummary { nodes, nps, elapsed, positions, stats }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn positions_are_legal_canonical_and_distinct() {
        let mut seen = HashSet::new();
        for fen in BENCH_POSITIONS {
            let (position, warnings) =
                Position::from_fen_with_warnings(fen).unwrap_or_else(|error| panic!("{fen}: {error}"));
            assert!(warnings.is_empty(), "{fen}: {warnings:?}");
            // Written exactly as cozy-chess writes it back: 6 fields, no
            // en-passant square that allows no capture.
            assert_eq!(position.board().to_string(), fen);
            assert!(position.board().generate_moves(|_| true), "{fen} has no legal move");
            assert!(seen.insert(fen), "{fen} is listed twice");
        }
    }

    #[test]
    fn bench_reports_every_position_and_ends_with_the_bench_line() {
        let mut output = Vec::new();
        let summary = run_bench(1, true, &mut output);
        let text = String::from_utf8(output).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(summary.positions.len(), BENCH_POSITIONS.len());
        assert_eq!(summary.nodes, summary.positions.iter().map(|result| result.nodes).sum::<u64>());
        assert_eq!(*lines.last().unwrap(), format!("Bench: {} nodes {} nps", summary.nodes, summary.nps));
        for (line, result) in lines.iter().zip(&summary.positions) {
            assert!(line.ends_with(&format!("fen {}", result.fen)), "{line}");
            assert!(line.contains(&format!("bestmove {} ", result.best_move)), "{line}");
            // Every bench position has a legal move, so the search names a legal one.
            let mut position = Position::from_fen(result.fen).unwrap();
            assert!(position.play_uci(&result.best_move).is_ok(), "{line}");
        }
        let stats_lines = summary.stats.report_lines_for(&crate::techniques::COMPILED);
        assert_eq!(lines.len(), BENCH_POSITIONS.len() + stats_lines.len() + 1);
        assert_eq!(lines[BENCH_POSITIONS.len()..lines.len() - 1], stats_lines[..]);
    }
}
