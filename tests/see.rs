//! Static exchange evaluation on hand-made positions with known results
//! (x-rays, promotions, en passant, castling, king recaptures), and the
//! threshold form checked against the exact swap-off value.

use prunelab::cozy_chess::{Board, Color, Move, Piece, Square};
use prunelab::movepick::{
    generate, pick_next, pick_next_settling, score_main, score_main_deferring_see, settle_capture, History, MoveKind,
    OrderingHints, PickMemo, ScoredMove,
};
use prunelab::position::parse_fen;
use prunelab::see::{
    attacked_by_opponent, captured_piece, quiet_see_ge_zero, see_ge, see_ge_of, see_value, SEE_PIECE_VALUES,
};

use crate::common;

fn board(fen: &str) -> Board {
    parse_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}")).0
}

fn uci(text: &str) -> Move {
    text.parse().unwrap()
}

/// Checks the exact value and that `see_ge` flips exactly at it.
fn assert_see(fen: &str, mv: &str, expected: i32) {
    let position = board(fen);
    let mv = uci(mv);
    assert!(position.is_legal(mv), "{fen}: {mv} should be legal");
    assert_eq!(see_value(&position, mv), expected, "{fen}: see_value({mv})");
    assert!(see_ge(&position, mv, expected), "{fen}: see_ge({mv}, {expected})");
    assert!(!see_ge(&position, mv, expected + 1), "{fen}: see_ge({mv}, {})", expected + 1);
}

#[test]
fn piece_values() {
    assert_eq!(SEE_PIECE_VALUES, [100, 320, 330, 500, 900, 0]);
    assert_eq!(SEE_PIECE_VALUES[Piece::Rook as usize], 500);
}

#[test]
fn undefended_capture_wins_the_piece() {
    assert_see("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 320);
}

#[test]
fn rook_takes_pawn_defended_by_pawn() {
    assert_see("4k3/4p3/3p4/8/8/8/8/3RK3 w - - 0 1", "d1d6", 100 - 500);
}

#[test]
fn equal_trade() {
    // NxN, NxN: one knight each.
    assert_see("4k3/8/1n6/3n4/8/4N3/8/4K3 w - - 0 1", "e3d5", 0);
}

#[test]
fn doubled_rooks_x_ray() {
    // Rd2xd5 Rxd5 Rd1xd5: the rook behind joins in.
    assert_see("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100);
    // Without the second rook the pawn is poisoned.
    assert_see("3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5", 100 - 500);
}

#[test]
fn queen_behind_bishop_x_ray() {
    // Bxe5 dxe5 Qxe5: knight and pawn for the bishop.
    assert_see("6k1/8/3p4/4n3/8/8/1B6/Q5K1 w - - 0 1", "b2e5", 320 - 330 + 100);
    // Without the queen, black simply recaptures.
    assert_see("6k1/8/3p4/4n3/8/8/1B6/6K1 w - - 0 1", "b2e5", 320 - 330);
}

#[test]
fn x_rays_on_both_sides() {
    // Rd2xd5 Rd7xd5 Rd1xd5 Rd8xd5: black's second rook has the last word.
    assert_see("3r2k1/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100 - 500);
    // Without it white ends up a pawn ahead.
    assert_see("6k1/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100);
}

#[test]
fn least_valuable_attacker_recaptures_first() {
    // Rxd5 cxd5 Bxd5 Qxd5: black takes back with the pawn before the queen
    // (queen first, Qxd5 Bxd5 cxd5, would cost black its queen).
    assert_see("4k3/8/2pq4/3n4/8/1B6/8/3RK3 w - - 0 1", "d1d5", 320 - 500);
}

#[test]
fn side_may_stop_exchanging() {
    // QxP defended by a pawn: the queen is lost for a pawn.
    assert_see("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", 100 - 900);
    // Rxd5: Qxd5 would lose the queen to Bxd5, so black does not take back.
    assert_see("4k3/8/3q4/3n4/8/1B6/8/3RK3 w - - 0 1", "d1d5", 320);
}

#[test]
fn quiet_move_to_attacked_square_loses_the_piece() {
    assert_see("4k3/8/8/2p5/8/8/2N5/4K3 w - - 0 1", "c2d4", -320);
    assert_see("4k3/8/8/2p5/8/8/2N5/4K3 w - - 0 1", "c2e3", 0);
}

#[test]
fn promotion_counts_queen_minus_pawn() {
    assert_see("7k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", 800);
    assert_see("7k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", 220);
    // Capturing promotion: rook plus the promotion gain.
    assert_see("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q", 500 + 800);
    // The new queen is taken back: the pawn is lost.
    assert_see("r6k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", -100);
    // ... unless a rook behind the pawn wins the rook back (x-ray through the pawn's square).
    assert_see("r6k/4P3/8/8/8/8/8/4RK2 w - - 0 1", "e7e8q", 800 - 900 + 500);
}

#[test]
fn en_passant_captures_a_pawn() {
    assert_see("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100);
    // cxd6 takes back: even.
    assert_see("4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 0);
    // Removing the d5 pawn opens the d-file for the white rook: black cannot take back profitably.
    assert_see("3rk3/8/8/3pP3/8/8/8/3RK3 w - d6 0 1", "e5d6", 100);
}

#[test]
fn castling_is_worth_nothing() {
    assert_see("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1", 0);
    assert_see("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1a1", 0);
}

#[test]
fn king_recaptures_only_undefended_pieces() {
    // Kxd5 is possible: the rook is lost for a pawn.
    assert_see("8/8/4k3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", 100 - 500);
    // The b3 bishop guards d5, so the king cannot take back.
    assert_see("8/8/4k3/3p4/8/1B6/8/3RK3 w - - 0 1", "d1d5", 100);
    // The king ends the sequence: Rxd5 Rxd5 Kxd5.
    assert_see("3r3k/8/4K3/3p4/8/8/8/3R4 w - - 0 1", "d1d5", 100 - 500 + 500);
    // With the a8 bishop also guarding d5 the king never gets to take back.
    assert_see("b2r3k/8/4K3/3p4/8/8/8/3R4 w - - 0 1", "d1d5", 100 - 500);
}

#[test]
fn pinned_defenders_are_counted() {
    // The c6 knight is pinned against the king on a8 but still counts as a
    // defender of d4: pins are ignored, as documented.
    assert_see("k7/8/2n5/8/3p4/8/8/3RK2Q w - - 0 1", "d1d4", 100 - 500);
}

#[test]
fn captured_piece_names_the_victim() {
    let capture = board("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1");
    assert_eq!(captured_piece(&capture, uci("e4d5")), Some(Piece::Knight));
    assert_eq!(captured_piece(&capture, uci("e4e5")), None);
    let en_passant = board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    assert_eq!(captured_piece(&en_passant, uci("e5d6")), Some(Piece::Pawn));
    let castling = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(captured_piece(&castling, uci("e1h1")), None);
    assert_eq!(captured_piece(&castling, uci("a1a8")), Some(Piece::Rook));
}

/// The position and every position one move from it.
fn with_children(root: &Board) -> Vec<Board> {
    let mut boards = vec![root.clone()];
    root.generate_moves(|moves| {
        for mv in moves {
            let mut child = root.clone();
            child.play_unchecked(mv);
            boards.push(child);
        }
        false
    });
    boards
}

/// Every legal move of the position, its children, and a spread of thresholds.
fn check_threshold_matches_value(root: &Board) -> usize {
    let boards = with_children(root);
    let mut checked = 0;
    for position in boards {
        position.generate_moves(|moves| {
            for mv in moves {
                let value = see_value(&position, mv);
                let (mover, captured) = (moves.piece, captured_piece(&position, mv));
                for threshold in [value - 1, value, value + 1, -1000, -500, -100, 0, 1, 100, 320, 500, 1000] {
                    assert_eq!(
                        see_ge(&position, mv, threshold),
                        value >= threshold,
                        "{position}: {mv} value {value} threshold {threshold}"
                    );
                    // With the pieces known, as the search asks for a generated move.
                    assert_eq!(
                        see_ge_of(&position, mv, mover, captured, threshold),
                        value >= threshold,
                        "{position}: {mv} value {value} threshold {threshold}, pieces known"
                    );
                }
                checked += 1;
            }
            false
        });
    }
    checked
}

/// The perft suite's and Win At Chess's positions.
fn suite_fens() -> Vec<String> {
    let mut fens: Vec<String> = Vec::new();
    for file in [prunelab::data::PERFT, prunelab::data::WAC] {
        let text = common::data_text(file);
        fens.extend(text.lines().filter(|line| !line.trim().is_empty()).map(|line| {
            let fields: Vec<&str> = line.split(';').next().unwrap().split_whitespace().take(4).collect();
            fields.join(" ")
        }));
    }
    fens
}

#[test]
fn threshold_form_agrees_with_exact_value() {
    let checked: usize = suite_fens().iter().map(|fen| check_threshold_matches_value(&board(fen))).sum();
    assert!(checked > 300_000, "only {checked} moves checked");
}

/// Every quiet move of `root` and of its children: the quick answer from the
/// opponent's attacks is the full exchange's, and how many were answered
/// without one.
fn check_quiet_see(root: &Board) -> (usize, usize) {
    let boards = with_children(root);
    let (mut checked, mut unattacked) = (0, 0);
    for position in boards {
        let attacked = attacked_by_opponent(&position);
        position.generate_moves(|moves| {
            for mv in moves {
                if captured_piece(&position, mv).is_some() || mv.promotion.is_some() {
                    continue;
                }
                let expected = see_ge(&position, mv, 0);
                assert_eq!(quiet_see_ge_zero(&position, mv, moves.piece, attacked), expected, "{position}: {mv}");
                checked += 1;
                unattacked += usize::from(!attacked.has(mv.to));
            }
            false
        });
    }
    (checked, unattacked)
}

#[test]
fn quiet_moves_see_from_the_opponents_attacks_agrees_with_the_exchange() {
    // Lines the moving piece opens, to squares no enemy piece attacks
    // before the move: the rook behind the pushed pawn, the bishop behind
    // the bishop that moves along their diagonal, the queen behind the rook
    // that moves along her file. The moves off those lines keep the piece.
    let opened = [
        ("4k3/8/8/8/8/8/4P2K/4r3 w - - 0 1", "e2e4", false),
        ("4k3/8/8/8/8/8/4P2K/4r3 w - - 0 1", "e2e3", false),
        ("4k3/8/8/8/3B4/8/1b6/6K1 w - - 0 1", "d4e5", false),
        ("4k3/8/8/8/3B4/8/1b6/6K1 w - - 0 1", "d4f6", false),
        ("4k3/8/8/8/3B4/8/1b6/6K1 w - - 0 1", "d4c5", true),
        ("3qk3/8/8/8/8/3R4/8/6K1 w - - 0 1", "d3d2", false),
        ("3qk3/8/8/8/8/3R4/8/6K1 w - - 0 1", "d3h3", true),
    ];
    for (fen, text, keeps_its_piece) in opened {
        let position = board(fen);
        let mv = uci(text);
        assert!(position.is_legal(mv), "{fen}: {text}");
        let mover = position.piece_on(mv.from).expect("a piece moves");
        assert_eq!(
            quiet_see_ge_zero(&position, mv, mover, attacked_by_opponent(&position)),
            keeps_its_piece,
            "{fen}: {text}"
        );
        assert_eq!(see_ge(&position, mv, 0), keeps_its_piece, "{fen}: {text}");
    }
    let (checked, unattacked) =
        suite_fens().iter().map(|fen| check_quiet_see(&board(fen))).fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    assert!(checked > 150_000, "only {checked} quiet moves checked");
    assert!(unattacked > checked / 2, "only {unattacked} of {checked} quiet moves to unattacked squares");
}

#[test]
fn extreme_thresholds_do_not_overflow() {
    let position = board("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1");
    assert!(see_ge(&position, uci("e4d5"), i32::MIN));
    assert!(!see_ge(&position, uci("e4d5"), i32::MAX));
    // A move from an empty square is not an exchange at all.
    assert_eq!(see_value(&position, uci("a1a2")), 0);
    assert!(see_ge(&position, uci("a1a2"), 0));
}

#[test]
fn capture_facts_see_safe_captures_and_the_best_victim() {
    use prunelab::see::{best_victim_value, has_safe_capture};
    // Nxe5 wins a pawn; Qxd7+ loses the queen.
    let safe = Board::from_fen("3qk3/3p4/8/4p3/8/5N2/3Q4/4K3 w - - 0 1", false).unwrap();
    assert!(has_safe_capture(&safe));
    assert_eq!(best_victim_value(&safe), 100);
    let unsafe_only = Board::from_fen("3qk3/3p4/8/8/8/8/3Q4/4K3 w - - 0 1", false).unwrap();
    assert!(!has_safe_capture(&unsafe_only));
    // The knight attacks the rook on d4 and the queen on g5.
    let fork = Board::from_fen("4k3/8/8/6q1/3r4/5N2/8/4K3 w - - 0 1", false).unwrap();
    assert_eq!(best_victim_value(&fork), 900);
    assert!(has_safe_capture(&fork));
    assert_eq!(best_victim_value(&Board::default()), 0);
    // En passant captures a pawn.
    let en_passant = Board::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", false).unwrap();
    assert_eq!(best_victim_value(&en_passant), 100);
}

/// The main search scores a capture by MVV-LVA and leaves its SEE until the
/// capture comes up to be picked: the picks, their kinds and scores, and the
/// list's final arrangement must be those of computing every SEE first, on
/// every position of the suites and their children, with a history that
/// spreads the quiet moves and with killers, a countermove and a TT move.
#[test]
fn deferring_capture_see_hands_out_the_eager_order() {
    let mut history = History::new();
    for from in Square::ALL {
        for to in Square::ALL {
            let mv = Move { from, to, promotion: None };
            history.update(Color::White, mv, (from as i32 * 7 + to as i32 * 13) % 3000 - 1500);
            history.update(Color::Black, mv, (from as i32 * 11 + to as i32 * 5) % 3000 - 1500);
        }
    }
    let (mut lists, mut bad_captures) = (0, 0);
    for fen in suite_fens() {
        for position in with_children(&board(&fen)) {
            let mut generated = Vec::new();
            generate(&position, false, &mut generated);
            let quiet: Vec<Move> = generated.iter().filter(|entry| entry.is_quiet()).map(|entry| entry.mv).collect();
            let hints = OrderingHints {
                tt_move: generated.get(lists % 7).map(|entry| entry.mv),
                killers: [quiet.get(1).copied(), quiet.get(4).copied()],
                counter_move: quiet.get(6).copied(),
            };
            let (mut eager, mut lazy) = (generated.clone(), generated);
            assert_eq!(
                score_main(&position, &mut eager, &hints, &history),
                score_main_deferring_see(&position, &mut lazy, &hints, &history)
            );
            let mut memo = PickMemo::default();
            for next in 0..eager.len() {
                let expected = pick_next(&mut eager, next).expect("a move left");
                let picked = pick_next_settling(&mut lazy, next, &mut memo, &mut |entry| {
                    settle_capture(&position, entry);
                })
                .expect("a move left");
                let summary = |entry: ScoredMove| (entry.mv, entry.kind, entry.score());
                assert_eq!(summary(picked), summary(expected), "{position}: pick {next}");
                bad_captures += usize::from(picked.kind == MoveKind::BadCapture);
            }
            let order = |list: &[ScoredMove]| list.iter().map(|entry| entry.mv).collect::<Vec<_>>();
            assert_eq!(order(&lazy), order(&eager), "{position}");
            lists += 1;
        }
    }
    assert!(lists > 5_000 && bad_captures > 10_000, "{lists} lists, {bad_captures} bad captures");
}
