//! Search correctness: mates found with the right distance (checked against
//! a brute-force prover), draws scored 0, the root rules, and determinism.

use std::sync::atomic::AtomicBool;

use cozy_chess::Board;
use prunelab::position::{legal_moves, Position};
use prunelab::score::{uci_score, MATE};
use prunelab::search::{SearchLimits, SearchResult, Searcher};

fn search(pos: &Position, limits: SearchLimits) -> SearchResult {
    let mut searcher = Searcher::new(16);
    searcher.new_game();
    searcher.search(pos, &limits, &AtomicBool::new(false), &mut |_| {})
}

fn search_fen(fen: &str, depth: i32) -> SearchResult {
    search(&Position::from_fen(fen).unwrap(), SearchLimits { depth: Some(depth), ..Default::default() })
}

/// Brute force: can the side to move force mate within `moves` of its moves?
fn forces_mate(board: &Board, moves: u32) -> bool {
    if moves == 0 {
        return false;
    }
    legal_moves(board).into_iter().any(|mv| {
        let mut after = board.clone();
        after.play_unchecked(mv);
        let replies = legal_moves(&after);
        if replies.is_empty() {
            return !after.checkers().is_empty();
        }
        moves > 1
            && replies.into_iter().all(|reply| {
                let mut next = after.clone();
                next.play_unchecked(reply);
                forces_mate(&next, moves - 1)
            })
    })
}

fn assert_mate_in(fen: &str, moves: u32, depth: i32) {
    let board = Board::from_fen(fen, false).unwrap();
    assert!(forces_mate(&board, moves), "the prover finds no mate in {moves}: {fen}");
    assert!(!forces_mate(&board, moves - 1), "the prover finds a faster mate: {fen}");
    let result = search_fen(fen, depth);
    assert_eq!(uci_score(result.score), format!("mate {moves}"), "{fen}");
    assert_eq!(result.score, MATE - (2 * moves as i32 - 1));
    // The engine's move must itself keep a forced mate in the remaining moves.
    let mut after = board.clone();
    after.play(result.best_move.unwrap());
    let replies = legal_moves(&after);
    assert!(replies.iter().all(|&reply| {
        let mut next = after.clone();
        next.play_unchecked(reply);
        forces_mate(&next, moves - 1)
    }));
}

#[test]
fn mate_in_one() {
    assert_mate_in("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1, 4);
}

#[test]
fn mates_in_two() {
    assert_mate_in("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", 2, 6);
    assert_mate_in("5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1", 2, 6);
    assert_mate_in("7k/pp4np/2p3p1/3pN1q1/3P4/Q7/1r3rPP/2R2RK1 w - - 0 1", 2, 6);
}

#[test]
fn mates_in_three() {
    assert_mate_in("k4r2/1R4pb/1pQp1n1p/3P4/5p1P/3P2P1/r1q1R2K/8 w - - 0 1", 3, 8);
    assert_mate_in("r3k2r/pbp2pp1/3b1n2/1p6/3P3p/1B2N1Pq/PP1PQP1P/R1B2RK1 b kq - 0 1", 3, 8);
}

#[test]
fn a_mated_side_sees_its_own_mate() {
    // After 1. Rd8+ the defender is mated next move: mate −1 from its view.
    let result = search_fen("3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", 4);
    assert_eq!(result.best_move, None);
    assert_eq!(result.score, -MATE);
    // Black's only move, Kg8, walks into Ra8#.
    let result = search_fen("7k/R7/6K1/8/8/8/8/8 b - - 0 1", 5);
    assert_eq!(uci_score(result.score), "mate -1", "{result:?}");
}

#[test]
fn stalemate_scores_zero_and_has_no_move() {
    let result = search_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 5);
    assert_eq!(result.best_move, None);
    assert_eq!(result.score, 0);
}

#[test]
fn stalemating_is_scored_as_a_draw() {
    // Black's only legal move loses the queen... no: White to move, every
    // queen move but the stalemating one keeps the win; the search must not
    // think Qg6 (stalemate) wins.
    let result = search_fen("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1", 6);
    assert_ne!(result.best_move.unwrap().to_string(), "g1g6");
    assert!(result.score > 500);
}

#[test]
fn repetition_is_scored_as_a_draw() {
    // King against king and queen: lost, unless the game history lets the
    // king step back into a position that has already occurred.
    let lost = "7k/8/8/8/8/8/8/KQ6 b - - 0 1";
    let fresh = search_fen(lost, 8);
    assert!(fresh.score < -500, "{fresh:?}");
    let mut pos = Position::from_fen(lost).unwrap();
    for mv in ["h8g8", "b1c1", "g8h8", "c1b1", "h8g8", "b1c1", "g8h8", "c1b1"] {
        pos.play_uci(mv).unwrap();
    }
    let result = search(&pos, SearchLimits { depth: Some(8), ..Default::default() });
    assert_eq!(result.score, 0, "{result:?}");
    assert_eq!(result.best_move.unwrap().to_string(), "h8g8");
}

#[test]
fn fifty_move_rule_is_a_draw() {
    // Rook up, but the halfmove clock runs out after one more quiet move.
    let result = search_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", 5);
    assert_eq!(result.score, 0, "{result:?}");
}

#[test]
fn insufficient_material_is_a_draw() {
    let result = search_fen("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", 6);
    assert_eq!(result.score, 0);
}

#[test]
fn best_move_is_set_even_when_the_first_iteration_is_cut() {
    let pos = Position::startpos();
    let result = search(&pos, SearchLimits { nodes: Some(1), ..Default::default() });
    assert!(pos.board().is_legal(result.best_move.unwrap()));
    let stop = AtomicBool::new(true);
    let result = Searcher::new(1).search(&pos, &SearchLimits::default(), &stop, &mut |_| {});
    assert!(pos.board().is_legal(result.best_move.unwrap()));
}

#[test]
fn node_limit_is_exact_and_repeatable() {
    let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    let limits = SearchLimits { nodes: Some(50_000), ..Default::default() };
    let first = search(&pos, limits.clone());
    let second = search(&pos, limits);
    assert_eq!(first.nodes, 50_000);
    assert_eq!(
        (first.nodes, first.best_move, first.score, first.depth),
        (second.nodes, second.best_move, second.score, second.depth)
    );
    assert_eq!(first.stats, second.stats);
}

#[test]
fn fixed_depth_search_is_deterministic_after_new_game() {
    let pos = Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4").unwrap();
    let mut searcher = Searcher::new(16);
    let mut runs = Vec::new();
    for _ in 0..2 {
        searcher.new_game();
        let mut lines = Vec::new();
        let result = searcher.search(
            &pos,
            &SearchLimits { depth: Some(9), ..Default::default() },
            &AtomicBool::new(false),
            &mut |report| {
                lines.push((report.depth, report.score, report.nodes, report.pv.to_vec()));
            },
        );
        runs.push((lines, result.best_move, result.nodes, result.stats));
    }
    assert_eq!(runs[0], runs[1]);
}

#[test]
fn root_in_check_searches_evasions() {
    let result = search_fen("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", 6);
    assert_eq!(result.best_move.unwrap().to_string(), "e1d2");
}
