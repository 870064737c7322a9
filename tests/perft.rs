//! Perft against published leaf counts: the shared suite (Ethereal's
//! standard.epd) and the six positions of the chessprogramming perft page.

use prunelab::cozy_chess::{Board, Move};
use prunelab::perft::{divide, perft};
use prunelab::position::parse_fen;

use crate::common;

/// Deepest counts run per suite position, to keep the suite within seconds.
const MAX_SUITE_NODES: u64 = 10_000_000;

/// One suite line: a FEN and its listed (depth, leaf count) pairs.
struct SuiteEntry {
    line: usize,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn load_suite() -> Vec<SuiteEntry> {
    let text = common::data_text(prunelab::data::PERFT);
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|part| {
                    let (depth, nodes) = part.trim().split_once(' ').expect("`;Dn count` entry");
                    let depth = depth.strip_prefix('D').expect("depth starts with D").parse().unwrap();
                    (depth, nodes.trim().parse().unwrap())
                })
                .collect();
            SuiteEntry { line: index + 1, fen, counts }
        })
        .collect()
}

/// The deepest listed count within the budget; a position whose every count
/// exceeds it is checked at its shallowest listed depth instead.
fn chosen_count(entry: &SuiteEntry) -> (u32, u64) {
    let affordable = entry.counts.iter().filter(|(_, nodes)| *nodes <= MAX_SUITE_NODES);
    affordable
        .max_by_key(|(depth, _)| *depth)
        .or_else(|| entry.counts.iter().min_by_key(|(depth, _)| *depth))
        .copied()
        .unwrap_or_else(|| panic!("suite line {} lists no depth", entry.line))
}

fn board(fen: &str) -> Board {
    parse_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}")).0
}

/// Runs every `stride`-th suite entry starting at `first`, so the suite splits
/// over the test harness's threads.
fn check_suite_part(first: usize, stride: usize) {
    let suite = load_suite();
    assert_eq!(suite.len(), 128, "standard.epd should hold 128 positions");
    let mut failures = Vec::new();
    for entry in suite.iter().skip(first).step_by(stride) {
        let (depth, expected) = chosen_count(entry);
        let found = perft(&board(&entry.fen), depth);
        if found != expected {
            failures
                .push(format!("line {}: {} depth {depth}: expected {expected}, found {found}", entry.line, entry.fen));
        }
    }
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
}

#[test]
fn standard_suite_even_lines() {
    check_suite_part(0, 2);
}

#[test]
fn standard_suite_odd_lines() {
    check_suite_part(1, 2);
}

#[test]
fn suite_is_read_fully() {
    let suite = load_suite();
    assert!(suite.iter().all(|entry| !entry.counts.is_empty()));
    // The one position with no count under the budget is run at depth 5.
    let over_budget: Vec<_> = suite
        .iter()
        .filter(|entry| entry.counts.iter().all(|(_, nodes)| *nodes > MAX_SUITE_NODES))
        .map(chosen_count)
        .collect();
    assert_eq!(over_budget, vec![(5, 11_139_762)]);
}

/// Checks every depth from 1 up to the listed ones.
fn check_counts(fen: &str, counts: &[u64]) {
    let board = board(fen);
    for (index, &expected) in counts.iter().enumerate() {
        let depth = index as u32 + 1;
        assert_eq!(perft(&board, depth), expected, "{fen} depth {depth}");
    }
}

#[test]
fn chessprogramming_start_position() {
    check_counts("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &[20, 400, 8_902, 197_281, 4_865_609]);
}

#[test]
fn chessprogramming_kiwipete() {
    check_counts(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        &[48, 2_039, 97_862, 4_085_603],
    );
}

#[test]
fn chessprogramming_position_3() {
    check_counts("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", &[14, 191, 2_812, 43_238, 674_624, 11_030_083]);
}

#[test]
fn chessprogramming_position_4_and_mirror() {
    let counts = [6, 264, 9_467, 422_333];
    check_counts("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", &counts);
    check_counts("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", &counts);
}

#[test]
fn chessprogramming_position_5() {
    check_counts("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", &[44, 1_486, 62_379, 2_103_487]);
}

#[test]
fn chessprogramming_position_6() {
    check_counts(
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        &[46, 2_079, 89_890, 3_894_594],
    );
}

#[test]
fn depth_zero_counts_the_position_itself() {
    assert_eq!(perft(&Board::default(), 0), 1);
}

#[test]
fn checkmated_and_stalemated_positions_have_no_leaves() {
    let fools_mate = board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    let stalemate = board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    for position in [fools_mate, stalemate] {
        assert_eq!(perft(&position, 1), 0);
        assert_eq!(perft(&position, 3), 0);
        assert!(divide(&position, 2).is_empty());
    }
}

#[test]
fn divide_sums_to_perft_in_a_fixed_order() {
    let kiwipete = board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let split = divide(&kiwipete, 3);
    assert_eq!(split.len(), 48);
    assert_eq!(split.iter().map(|(_, nodes)| nodes).sum::<u64>(), 97_862);

    let order_key = |mv: &Move| (mv.from as usize, mv.to as usize, mv.promotion.map(|piece| piece as usize));
    assert!(split.windows(2).all(|pair| order_key(&pair[0].0) < order_key(&pair[1].0)));
    assert_eq!(split, divide(&kiwipete, 3), "divide must be deterministic");

    // Published Kiwipete divide entries (depth 3): castling is king-takes-rook here.
    let count_of = |uci: &str| {
        let mv: Move = uci.parse().unwrap();
        split.iter().find(|(m, _)| *m == mv).map(|(_, nodes)| *nodes)
    };
    assert_eq!(count_of("e1h1"), Some(2_059));
    assert_eq!(count_of("e1a1"), Some(1_887));
    assert_eq!(count_of("e5f7"), Some(2_080));
    assert_eq!(count_of("d5e6"), Some(2_241));
}

#[test]
fn divide_at_depth_one_lists_each_move_once() {
    let split = divide(&Board::default(), 1);
    assert_eq!(split.len(), 20);
    assert!(split.iter().all(|(_, nodes)| *nodes == 1));
    assert!(divide(&Board::default(), 0).is_empty());
}

/// What kinds of checking move a walk met, so the agreement test below
/// cannot pass on trees that never exercise the hard cases.
#[derive(Default, Debug)]
struct ChecksSeen {
    all: u64,
    castling: u64,
    en_passant: u64,
    promotion: u64,
    discovered: u64,
}

fn walk_gives_check(board: &Board, depth: u32, seen: &mut ChecksSeen) {
    use prunelab::position::{gives_check, is_castling, CheckInfo};
    let check_info = CheckInfo::new(board);
    let mut moves = Vec::new();
    board.generate_moves(|piece_moves| {
        moves.extend(piece_moves);
        false
    });
    for mv in moves {
        let mut child = board.clone();
        child.play_unchecked(mv);
        let checks = !child.checkers().is_empty();
        assert_eq!(gives_check(board, mv), checks, "{board} {mv}");
        let piece = board.piece_on(mv.from).unwrap();
        assert_eq!(check_info.gives_check(board, mv, piece), checks, "CheckInfo: {board} {mv}");
        if checks {
            seen.all += 1;
            seen.castling += u64::from(is_castling(board, mv));
            seen.promotion += u64::from(mv.promotion.is_some());
            let pawn = board.pieces(prunelab::cozy_chess::Piece::Pawn).has(mv.from);
            seen.en_passant += u64::from(pawn && mv.from.file() != mv.to.file() && !board.occupied().has(mv.to));
            seen.discovered += u64::from(!child.checkers().has(mv.to));
        }
        if depth > 1 {
            walk_gives_check(&child, depth - 1, seen);
        }
    }
}

/// `gives_check` and `CheckInfo` decide without playing the move; the search prunes on them,
/// so it must agree with playing the move on every move of the suite's
/// positions three plies deep, plus positions built for the rare cases.
#[test]
fn gives_check_agrees_with_playing_the_move() {
    let mut seen = ChecksSeen::default();
    for entry in load_suite() {
        walk_gives_check(&board(&entry.fen), 3, &mut seen);
    }
    for fen in [
        // Castling gives check with the rook (both sides).
        "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
        "8/8/8/8/8/8/8/R3K2k w Q - 0 1",
        // En passant uncovers the rook on the fifth rank, and checks directly.
        "8/8/8/k2pP2R/8/8/8/7K w - d6 0 1",
        "8/2k5/8/3pP3/8/8/8/7K w - d6 0 1",
        // Promotions that check as a knight, and along the last rank.
        "8/1P1k4/8/8/8/8/8/7K w - - 0 1",
        "7k/1P6/8/8/8/8/8/K7 w - - 0 1",
    ] {
        walk_gives_check(&board(fen), 3, &mut seen);
    }
    assert!(
        seen.castling > 0 && seen.en_passant > 0 && seen.promotion > 0 && seen.discovered > 0,
        "the walk missed a kind of check: {seen:?}"
    );
}
