//! SAN reading and writing: round trips over every legal move of the perft
//! suite (and one ply deeper), known strings, tolerated variants and errors.

use prunelab::cozy_chess::{Board, Move};
use prunelab::position::{legal_moves, parse_fen};
use prunelab::san::{move_to_san, parse_san};

use crate::common;

fn board(fen: &str) -> Board {
    parse_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}")).0
}

fn uci(text: &str) -> Move {
    text.parse().unwrap()
}

fn suite_boards() -> Vec<Board> {
    let text = common::data_text(prunelab::data::PERFT);
    text.lines().filter(|line| !line.trim().is_empty()).map(|line| board(line.split(';').next().unwrap())).collect()
}

/// Every legal move prints to SAN that parses back to it, and SAN strings are
/// unique within a position. Returns how many moves were checked.
fn check_round_trips(board: &Board) -> usize {
    let moves = legal_moves(board);
    let mut seen = std::collections::HashSet::new();
    for &mv in &moves {
        let san = move_to_san(board, mv);
        assert_eq!(parse_san(board, &san), Ok(mv), "{board}: {mv} written as {san}");
        assert!(seen.insert(san.clone()), "{board}: {san} written for two moves");
    }
    moves.len()
}

#[test]
fn round_trip_every_suite_position_and_one_ply_deeper() {
    let roots = suite_boards();
    assert_eq!(roots.len(), 128, "the perft suite holds 128 positions");
    let mut checked = 0;
    for root in roots {
        checked += check_round_trips(&root);
        for mv in legal_moves(&root) {
            let mut child = root.clone();
            child.play_unchecked(mv);
            checked += check_round_trips(&child);
        }
    }
    // Mostly endgames: about 23,000 moves in all.
    assert!(checked > 20_000, "only {checked} moves checked");
}

#[test]
fn round_trip_every_wac_position_and_one_ply_deeper() {
    // Middlegames, where disambiguation and checks are common.
    let text = common::data_text(prunelab::data::WAC);
    let mut checked = 0;
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        let fen: Vec<&str> = line.split_whitespace().take(4).collect();
        let root = board(&fen.join(" "));
        checked += check_round_trips(&root);
        for mv in legal_moves(&root) {
            let mut child = root.clone();
            child.play_unchecked(mv);
            checked += check_round_trips(&child);
        }
    }
    assert!(checked > 300_000, "only {checked} moves checked");
}

#[test]
fn writes_known_san() {
    let cases = [
        // Pawn pushes and captures, en passant.
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4", "e4"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3", "Nf3"),
        ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e4d5", "exd5"),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "exd6"),
        // Disambiguation by file, by rank, by square.
        ("rnbqkb1r/pppppppp/5n2/8/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 1 2", "b1d2", "Nbd2"),
        ("rnbqkb1r/pppppppp/5n2/8/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 1 2", "f3d2", "Nfd2"),
        ("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "R1a3"),
        ("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a5a3", "R5a3"),
        ("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "a1b2", "Qa1b2"),
        ("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "a3b2", "Q3b2"),
        ("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "c1b2", "Qcb2"),
        // A pinned rival (the e3 knight) does not force disambiguation.
        ("4k3/4r3/8/8/8/2N1N3/8/4K3 w - - 0 1", "c3d5", "Nd5"),
        // Promotions, with capture and check.
        ("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8q", "e8=Q"),
        ("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8n", "e8=N"),
        ("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q", "exd8=Q+"),
        ("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8r", "e8=R+"),
        // Castling, with check.
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1", "O-O"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1a1", "O-O-O"),
        ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8a8", "O-O-O"),
        ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1a1", "O-O-O+"),
        // Check and mate.
        ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8", "Ra8+"),
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "Ra8#"),
        ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "h5f7", "Qxf7#"),
        // Black pieces use the same upper-case letters.
        ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "g8f6", "Nf6"),
    ];
    for (fen, mv, expected) in cases {
        let position = board(fen);
        assert_eq!(move_to_san(&position, uci(mv)), expected, "{fen}: {mv}");
        assert_eq!(parse_san(&position, expected), Ok(uci(mv)), "{fen}: {expected}");
    }
}

#[test]
fn illegal_moves_are_written_in_uci() {
    let start = Board::default();
    assert_eq!(move_to_san(&start, uci("e2e5")), "e2e5");
    assert_eq!(move_to_san(&start, uci("e7e5")), "e7e5");
}

#[test]
fn reads_tolerated_variants() {
    let start = Board::default();
    for text in
        ["Nf3", "Nf3+", "Nf3#", "Nf3!", "Nf3?", "Nf3!?", "Nf3+!!", "Nf3?!", " Nf3 ", "Ngf3", "N1f3", "Ng1f3", "Nxf3"]
    {
        assert_eq!(parse_san(&start, text), Ok(uci("g1f3")), "{text}");
    }
    for text in ["e4", "e2e4", "e4!"] {
        assert_eq!(parse_san(&start, text), Ok(uci("e2e4")), "{text}");
    }

    let promotion = board("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1");
    for text in ["exd8=Q", "exd8Q", "exd8=q", "exd8q", "ed8=Q", "exd8=Q+", "exd8=Q#!"] {
        assert_eq!(parse_san(&promotion, text), Ok(uci("e7d8q")), "{text}");
    }
    assert_eq!(parse_san(&promotion, "e8N"), Ok(uci("e7e8n")));
    assert_eq!(parse_san(&promotion, "e8=b"), Ok(uci("e7e8b")));

    let castling = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for (text, mv) in [("O-O", "e1h1"), ("0-0", "e1h1"), ("O-O+", "e1h1"), ("O-O-O", "e1a1"), ("0-0-0", "e1a1")] {
        assert_eq!(parse_san(&castling, text), Ok(uci(mv)), "{text}");
    }
    // A king step next to the castling squares is still a king step.
    assert_eq!(parse_san(&castling, "Kf1"), Ok(uci("e1f1")));

    let en_passant = board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    assert_eq!(parse_san(&en_passant, "exd6"), Ok(uci("e5d6")));
    assert_eq!(parse_san(&en_passant, "ed6"), Ok(uci("e5d6")));
}

/// Asserts `text` is refused on `fen` and the message contains `words`.
fn assert_refused(fen: &str, text: &str, words: &str) {
    match parse_san(&board(fen), text) {
        Ok(mv) => panic!("{text:?} should be refused on {fen}, parsed as {mv}"),
        Err(error) => assert!(error.contains(words), "{text:?} on {fen}: {error}"),
    }
}

#[test]
fn refuses_illegal_and_ambiguous_san() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_refused(start, "Nf6", "no white knight can legally move to f6");
    assert_refused(start, "e5", "no white pawn");
    assert_refused(start, "Ke2", "no white king");
    assert_refused(start, "O-O", "cannot castle kingside");
    assert_refused("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "O-O", "no kingside castling right");
    assert_refused("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "O-O-O", "no queenside castling right");

    let two_knights = "rnbqkb1r/pppppppp/5n2/8/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 1 2";
    assert_refused(two_knights, "Nd2", "ambiguous");
    assert_refused(two_knights, "Nd2", "b1 and f3");
    let three_queens = "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1";
    assert_refused(three_queens, "Qb2", "ambiguous");
    assert_refused(three_queens, "Qab2", "ambiguous");
    assert_refused(three_queens, "Q1b2", "ambiguous");

    let promotion = "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1";
    assert_refused(promotion, "e8", "must promote");
    assert_refused(promotion, "exd8", "must promote");
    assert_refused(promotion, "e8=K", "malformed");
    assert_refused(promotion, "Ke2=Q", "only a pawn can promote");
    assert_refused(start, "e4=Q", "no white pawn");
}

#[test]
fn refuses_malformed_san_without_panicking() {
    let start = Board::default();
    for text in [
        "", " ", "+", "!?", "x", "N", "Nf", "Nf9", "Ni3", "nf3", "NN f3", "Nf3 e5", "O-O-O-O", "o-o", "00", "e", "4",
        "Pe4", "Kxx", "=Q", "e8==Q", "é4", "Nf3♞", "♞f3", "\u{0}", "Qh4xe1xx", "Nf3x",
    ] {
        let error = parse_san(&start, text).expect_err(text);
        assert!(!error.is_empty());
    }
    // Every prefix and single-character corruption of a long SAN string.
    let long = "Qa1xb2=Q+!?";
    for end in 0..=long.len() {
        let _ = parse_san(&start, &long[..end]);
    }
    for index in 0..long.len() {
        for replacement in ['x', '=', '1', 'a', 'O', '-', '+', 'K'] {
            let mut corrupted = long.as_bytes().to_vec();
            corrupted[index] = replacement as u8;
            let _ = parse_san(&start, &String::from_utf8(corrupted).unwrap());
        }
    }
}
