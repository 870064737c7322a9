//! The position layer: FEN parsing (refusals, repairs, normalization), UCI
//! move conversion, game history and the draw and material helpers.

use prunelab::cozy_chess::{Board, Color, Move, Square};
use prunelab::position::{
    game_phase, insufficient_material, is_castling, is_fifty_move_draw, is_repetition, move_from_uci, move_to_uci,
    non_pawn_material, parse_fen, Position, STARTPOS_FEN,
};

fn board(fen: &str) -> Board {
    parse_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}")).0
}

fn fen_error(fen: &str) -> String {
    match parse_fen(fen) {
        Ok((board, _)) => panic!("{fen} should be refused, parsed as {board}"),
        Err(error) => error,
    }
}

/// Asserts the refusal message mentions every word in `words` (case-insensitive).
fn assert_refused(fen: &str, words: &[&str]) {
    let error = fen_error(fen).to_lowercase();
    for word in words {
        assert!(error.contains(word), "error for {fen:?} should mention {word:?}: {error}");
    }
}

fn uci(text: &str) -> Move {
    text.parse().unwrap()
}

// ---- FEN parsing -------------------------------------------------------

#[test]
fn startpos_fen_parses_to_the_default_board() {
    let (parsed, warnings) = parse_fen(STARTPOS_FEN).unwrap();
    assert_eq!(parsed, Board::default());
    assert!(warnings.is_empty());
    assert_eq!(Position::startpos().board(), &parsed);
    assert_eq!(Position::from_fen(STARTPOS_FEN).unwrap().board(), &parsed);
}

#[test]
fn four_field_fen_gets_default_clocks() {
    let (parsed, warnings) = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").unwrap();
    assert_eq!(parsed.to_string(), STARTPOS_FEN);
    assert!(warnings.is_empty());
}

#[test]
fn extra_whitespace_is_tolerated() {
    let parsed = board("  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w\tKQkq -  0 1 \n");
    assert_eq!(parsed, Board::default());
}

#[test]
fn clocks_are_kept() {
    let parsed = board("4k3/8/8/8/8/8/8/4K2R w K - 37 42");
    assert_eq!(parsed.halfmove_clock(), 37);
    assert_eq!(parsed.fullmove_number(), 42);
}

#[test]
fn empty_board_is_refused() {
    assert_refused("8/8/8/8/8/8/8/8 w - - 0 1", &["empty"]);
}

#[test]
fn empty_and_wrong_field_counts_are_refused() {
    assert_refused("", &["empty"]);
    assert_refused("   ", &["empty"]);
    assert_refused("4k3/8/8/8/8/8/8/4K3 w", &["2 fields"]);
    assert_refused("4k3/8/8/8/8/8/8/4K3 w - - 0", &["5 fields"]);
    assert_refused("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", &["7 fields"]);
}

#[test]
fn missing_or_extra_kings_are_refused() {
    assert_refused("8/8/8/8/8/8/8/4K3 w - - 0 1", &["black", "no king"]);
    assert_refused("4k3/8/8/8/8/8/8/8 b - - 0 1", &["white", "no king"]);
    assert_refused("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", &["white", "2 kings"]);
    assert_refused("k1k5/8/8/8/8/8/8/4K3 w - - 0 1", &["black", "2 kings"]);
}

#[test]
fn pawns_on_first_or_last_rank_are_refused() {
    assert_refused("3Pk3/8/8/8/8/8/8/4K3 w - - 0 1", &["pawn", "d8", "first or last rank"]);
    assert_refused("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", &["black pawn", "a1"]);
}

#[test]
fn bad_side_to_move_is_refused() {
    assert_refused("4k3/8/8/8/8/8/8/4K3 x - - 0 1", &["side to move", "'x'"]);
    assert_refused("4k3/8/8/8/8/8/8/4K3 W - - 0 1", &["side to move"]);
    assert_refused("4k3/8/8/8/8/8/8/4K3 white - - 0 1", &["side to move"]);
}

#[test]
fn bad_rank_and_file_counts_are_refused() {
    assert_refused("4k3/8/8/8/8/8/4K3 w - - 0 1", &["7 ranks", "expected 8"]);
    assert_refused("4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", &["9 ranks"]);
    assert_refused("4k4/8/8/8/8/8/8/4K3 w - - 0 1", &["rank 8", "9 files"]);
    assert_refused("4k3/8/8/8/7/8/8/4K3 w - - 0 1", &["rank 4", "7 files"]);
    assert_refused("4k3/8/8/8/8/8/8/4K3R w - - 0 1", &["rank 1", "9 files"]);
    assert_refused("4k3/8/8/8/8/8/8/4K2X w - - 0 1", &["unexpected character 'x'"]);
    assert_refused("4k3/8/8/9/8/8/8/4K3 w - - 0 1", &["digit '9'"]);
    assert_refused("4k3/8/8/08/8/8/8/4K3 w - - 0 1", &["digit '0'"]);
}

#[test]
fn bad_castling_field_is_refused() {
    assert_refused("r3k2r/8/8/8/8/8/8/R3K2R w KQkx - 0 1", &["castling", "'x'"]);
    assert_refused("r3k2r/8/8/8/8/8/8/R3K2R w KKq - 0 1", &["castling", "twice"]);
    assert_refused("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", &["castling"]);
}

#[test]
fn too_many_pieces_are_refused() {
    assert_refused("4k3/8/8/8/8/QQQQQQQQ/PPPPPPPP/NNNNKNNN w - - 0 1", &["too many pieces", "white", "24"]);
    assert_refused("4k3/pppp4/pppp4/p7/8/8/8/4K3 w - - 0 1", &["too many pieces", "black", "9 pawns"]);
}

#[test]
fn side_not_to_move_in_check_is_refused() {
    // White to move but the black king is attacked by the white rook.
    assert_refused("4k3/8/8/8/8/8/8/4RK2 w - - 0 1", &["side not to move is in check", "e8", "e1"]);
    assert_refused("4k3/8/8/8/8/8/3p4/4K3 b - - 0 1", &["in check", "white king"]);
    assert_refused("8/8/8/8/8/8/8/3Kk3 b - - 0 1", &["in check"]);
    // The same placement with the checked side to move is fine.
    assert!(parse_fen("4k3/8/8/8/8/8/8/4RK2 b - - 0 1").is_ok());
}

#[test]
fn triple_check_is_refused() {
    assert_refused("4r2k/8/3n1n2/8/4K3/8/8/8 w - - 0 1", &["white king", "3 pieces", "d6 f6 e8", "double check"]);
    // Found by tests/fuzz.rs: the white king on d3 is attacked from b2, e5 and h3.
    assert_refused("NnNNNNNN/PPPPPPPp/pppppppn/nP2n3/6n1/3K3r/1n6/3k4 w - - 0 0", &["3 pieces", "b2 h3 e5"]);
    // A double check is a position chess can reach.
    assert!(parse_fen("4r2k/8/5n2/8/4K3/8/8/8 w - - 0 1").is_ok());
}

#[test]
fn bad_en_passant_and_clock_text_are_refused() {
    assert_refused("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", &["en passant", "e9"]);
    assert_refused("4k3/8/8/8/8/8/8/4K3 w - 1 0 1", &["en passant"]);
    assert_refused("4k3/8/8/8/8/8/8/4K3 w - - x 1", &["halfmove clock"]);
    assert_refused("4k3/8/8/8/8/8/8/4K3 w - - -3 1", &["halfmove clock"]);
    assert_refused("4k3/8/8/8/8/8/8/4K3 w - - 0 one", &["fullmove number"]);
}

#[test]
fn useless_en_passant_square_is_dropped_silently() {
    // After 1.e4 no black pawn can take en passant.
    let (parsed, warnings) = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    assert_eq!(parsed.en_passant(), None);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(parsed.to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
}

#[test]
fn usable_en_passant_square_is_kept() {
    let parsed = board("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    assert_eq!(parsed.en_passant(), Some(Square::F6.file()));
    assert!(parsed.is_legal(uci("e5f6")));
}

#[test]
fn en_passant_square_with_only_a_pinned_capturer_is_dropped() {
    // The e5 pawn is pinned against the king on a5 by the rook on h5 once d5 goes.
    let parsed = board("4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1");
    assert_eq!(parsed.en_passant(), None);
}

#[test]
fn impossible_en_passant_square_is_dropped_with_a_warning() {
    // No black pawn on d5 can just have come from d7.
    let (parsed, warnings) = parse_fen("4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1").unwrap();
    assert_eq!(parsed.en_passant(), None);
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].contains("en passant square d6 dropped"), "{warnings:?}");

    // Wrong rank for the side to move.
    let (_, warnings) = parse_fen("4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1").unwrap();
    assert!(warnings[0].contains("rank 6"), "{warnings:?}");

    // The knight's check cannot follow a double pawn push.
    let (parsed, warnings) = parse_fen("4k3/8/5N2/8/2pP4/8/8/4K3 b - d3 0 1").unwrap();
    assert_eq!(parsed.en_passant(), None);
    assert!(warnings[0].contains("inconsistent"), "{warnings:?}");
}

#[test]
fn castling_rights_without_king_or_rook_are_dropped_with_warnings() {
    let (parsed, warnings) = parse_fen("r3k3/8/8/8/8/8/8/R4K1R w KQq - 0 1").unwrap();
    assert_eq!(parsed.to_string(), "r3k3/8/8/8/8/8/8/R4K1R w q - 0 1");
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings.iter().all(|w| w.contains("no white king on e1")));

    let (parsed, warnings) = parse_fen("r3k3/8/8/8/8/8/8/4K3 w kq - 0 1").unwrap();
    assert_eq!(parsed.castle_rights(Color::Black).long, Some(Square::A8.file()));
    assert_eq!(parsed.castle_rights(Color::Black).short, None);
    assert_eq!(warnings, vec!["castling right 'k' dropped: no black rook on h8".to_string()]);
}

#[test]
fn out_of_range_clocks_are_repaired_with_warnings() {
    let (parsed, warnings) = parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 150 0").unwrap();
    assert_eq!(parsed.halfmove_clock(), 100);
    assert_eq!(parsed.fullmove_number(), 1);
    assert_eq!(warnings.len(), 2, "{warnings:?}");

    let (parsed, warnings) = parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999999999999999").unwrap();
    assert_eq!(parsed.fullmove_number(), u16::MAX);
    assert_eq!(warnings.len(), 1);
}

#[test]
fn from_fen_with_warnings_reports_repairs() {
    let (position, warnings) = Position::from_fen_with_warnings("4k3/8/8/8/8/8/8/4K3 w K - 0 1").unwrap();
    assert_eq!(position.board().castle_rights(Color::White).short, None);
    assert_eq!(warnings.len(), 1);
    assert!(position.history().is_empty());
}

#[test]
fn garbage_input_never_panics() {
    let mut inputs: Vec<String> = [
        "",
        " ",
        "/",
        "///////",
        "8/8/8/8/8/8/8/8",
        "k",
        "K w",
        "💥",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 💥",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 999999999999999999999999 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqKQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq a9 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq é3 0 1",
        "11111111/8/8/8/8/8/8/8 w - - 0 1",
        "kK6/8/8/8/8/8/8/8 w - - 0 1",
        "Kk6/8/8/8/8/8/8/8 b - - 0 1",
        "KkKkKkKk/8/8/8/8/8/8/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 0 1",
        "\0\0\0",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN\u{0} w - - 0 1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // Every prefix and every single-character corruption of a real FEN.
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    for end in 0..=kiwipete.len() {
        inputs.push(kiwipete[..end].to_string());
    }
    for index in 0..kiwipete.len() {
        for replacement in ['/', ' ', '9', 'K', 'k', 'P', 'x', '-', '0'] {
            let mut corrupted = kiwipete.as_bytes().to_vec();
            corrupted[index] = replacement as u8;
            inputs.push(String::from_utf8(corrupted).unwrap());
        }
    }
    // Random strings over the FEN alphabet (fixed-seed xorshift, so failures reproduce).
    let alphabet: Vec<char> = "pnbrqkPNBRQK12345678/ wb-KQkqa3e6 0".chars().collect();
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    for _ in 0..20_000 {
        let mut random = String::new();
        loop {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if state % 60 == 0 {
                break;
            }
            random.push(alphabet[(state >> 32) as usize % alphabet.len()]);
        }
        inputs.push(random);
    }
    let mut accepted = 0;
    for input in &inputs {
        if let Ok((parsed, _)) = parse_fen(input) {
            accepted += 1;
            // Whatever is accepted must be a board cozy-chess can work with.
            let reparsed = board(&parsed.to_string());
            assert_eq!(reparsed, parsed, "{input:?} does not round-trip");
            let _ = prunelab::perft::perft(&parsed, 2);
        }
        let _ = Position::from_fen(input);
    }
    assert!(accepted > 0 && accepted < inputs.len());
}

// ---- UCI moves -------------------------------------------------------

const CASTLING_FEN: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";

#[test]
fn uci_castling_converts_both_ways() {
    let white = board(CASTLING_FEN);
    assert_eq!(move_from_uci(&white, "e1g1").unwrap(), uci("e1h1"));
    assert_eq!(move_from_uci(&white, "e1c1").unwrap(), uci("e1a1"));
    assert_eq!(move_to_uci(&white, uci("e1h1")), "e1g1");
    assert_eq!(move_to_uci(&white, uci("e1a1")), "e1c1");
    assert!(is_castling(&white, uci("e1h1")));
    assert!(!is_castling(&white, uci("e1f1")));

    let black = board("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    assert_eq!(move_from_uci(&black, "e8g8").unwrap(), uci("e8h8"));
    assert_eq!(move_from_uci(&black, "e8c8").unwrap(), uci("e8a8"));
    assert_eq!(move_to_uci(&black, uci("e8h8")), "e8g8");
    assert_eq!(move_to_uci(&black, uci("e8a8")), "e8c8");
}

#[test]
fn king_takes_rook_castling_is_accepted() {
    let white = board(CASTLING_FEN);
    assert_eq!(move_from_uci(&white, "e1h1").unwrap(), uci("e1h1"));
    assert_eq!(move_from_uci(&white, "e1a1").unwrap(), uci("e1a1"));
}

#[test]
fn ordinary_moves_convert_unchanged() {
    let start = Board::default();
    assert_eq!(move_from_uci(&start, "e2e4").unwrap(), uci("e2e4"));
    assert_eq!(move_from_uci(&start, "g1f3").unwrap(), uci("g1f3"));
    assert_eq!(move_to_uci(&start, uci("g1f3")), "g1f3");
    let promotion = board("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    assert_eq!(move_from_uci(&promotion, "e7e8q").unwrap(), uci("e7e8q"));
    assert_eq!(move_from_uci(&promotion, "e7e8N").unwrap(), uci("e7e8n"));
    assert_eq!(move_to_uci(&promotion, uci("e7e8n")), "e7e8n");
    // A king's one-square step next to castling squares stays a king step.
    let white = board(CASTLING_FEN);
    assert_eq!(move_from_uci(&white, "e1f1").unwrap(), uci("e1f1"));
    assert_eq!(move_to_uci(&white, uci("e1f1")), "e1f1");
}

#[test]
fn malformed_uci_is_refused() {
    let start = Board::default();
    for (text, words) in [
        ("", "malformed"),
        ("e2", "malformed"),
        ("e2e4e5", "malformed"),
        ("e9e4", "'e9' is not a square"),
        ("e2i4", "'i4' is not a square"),
        ("e7e8k", "promotion piece 'k'"),
        ("e2e2", "same"),
        ("é2e4", "malformed"),
    ] {
        let error = move_from_uci(&start, text).unwrap_err();
        assert!(error.contains(words), "{text:?}: {error}");
    }
}

#[test]
fn garbage_uci_never_panics() {
    let positions = [Board::default(), board(CASTLING_FEN), board("8/4P3/8/8/8/8/k7/4K3 w - - 0 1")];
    let alphabet = ['a', 'e', 'h', 'i', '1', '2', '7', '8', '9', 'q', 'k', 'Q', 'x', ' ', 'é', '\0'];
    for position in &positions {
        // Every string of up to three characters from the alphabet, and longer ones around real moves.
        let mut inputs = vec![String::new()];
        for _ in 0..3 {
            let longer: Vec<String> =
                inputs.iter().flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}"))).collect();
            inputs.extend(longer);
        }
        for base in ["e1g1", "e7e8q", "e2e4"] {
            for c in alphabet {
                for index in 0..=base.len() {
                    let mut text = base.to_string();
                    text.insert(index, c);
                    inputs.push(text);
                }
            }
        }
        for text in &inputs {
            if let Ok(mv) = move_from_uci(position, text) {
                assert!(position.is_legal(mv), "{text:?} accepted as illegal {mv}");
            }
        }
    }
}

#[test]
fn illegal_uci_is_refused_with_a_reason() {
    let start = Board::default();
    for (text, words) in [
        ("e3e4", "no piece on e3"),
        ("e7e5", "not white's"),
        ("e2e5", "illegal move e2e5"),
        ("e1g1", "cannot castle"),
        ("g1f3q", "only a pawn can promote"),
        ("e2e4q", "only on the last rank"),
    ] {
        let error = move_from_uci(&start, text).unwrap_err();
        assert!(error.contains(words), "{text:?}: {error}");
    }
    let promotion = board("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    assert!(move_from_uci(&promotion, "e7e8").unwrap_err().contains("promotion"));
    let in_check = board("4k3/8/8/8/8/8/4r3/R3K3 w Q - 0 1");
    assert!(move_from_uci(&in_check, "a1a2").unwrap_err().contains("in check"));
    assert!(move_from_uci(&in_check, "e1c1").unwrap_err().contains("cannot castle"));
}

#[test]
fn play_uci_and_play_move_keep_history() {
    let mut position = Position::startpos();
    let start_hash = position.board().hash();
    assert_eq!(position.play_uci("e2e4").unwrap(), uci("e2e4"));
    position.play_move(uci("e7e5")).unwrap();
    assert_eq!(position.history().len(), 2);
    assert_eq!(position.history()[0], start_hash);

    let before = position.clone();
    assert!(position.play_uci("e4e5").is_err());
    assert!(position.play_move(uci("e1e3")).is_err());
    assert_eq!(position.board(), before.board());
    assert_eq!(position.history(), before.history());
}

#[test]
fn play_uci_castles_with_standard_notation() {
    let mut position = Position::from_fen(CASTLING_FEN).unwrap();
    assert_eq!(position.play_uci("e1g1").unwrap(), uci("e1h1"));
    assert_eq!(position.board().to_string(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
}

#[test]
fn from_board_starts_without_history() {
    let position = Position::from_board(board(CASTLING_FEN));
    assert!(position.history().is_empty());
    assert_eq!(position.board().to_string(), CASTLING_FEN);
}

// ---- draws and material ---------------------------------------------------

#[test]
fn knight_shuffle_repeats_the_start_position() {
    let mut position = Position::startpos();
    assert!(!position.is_repetition());
    for (index, mv) in ["g1f3", "g8f6", "f3g1", "f6g8"].iter().enumerate() {
        position.play_uci(mv).unwrap();
        assert_eq!(position.is_repetition(), index == 3, "after {mv}");
    }
    // One more shuffle: the position after 1.Nf3 repeats too.
    position.play_uci("g1f3").unwrap();
    assert!(position.is_repetition());
}

#[test]
fn repetition_is_not_seen_across_an_irreversible_move() {
    let hash = 0xDEAD_BEEF;
    // Same side to move four plies back, but the clock says the last pawn
    // move or capture came after it.
    let history = [hash, 1, 2, 3];
    assert!(is_repetition(&history, hash, 4));
    assert!(!is_repetition(&history, hash, 3));
    // An odd distance means the other side was to move: never a repetition.
    assert!(!is_repetition(&[hash, 1, 2], hash, 100));
    assert!(!is_repetition(&[9, hash, 1, 2], hash, 100));
    assert!(!is_repetition(&[], hash, 100));
    // The clock may exceed the recorded history (game started from a FEN).
    assert!(is_repetition(&[hash, 7], hash, 100));

    let mut position = Position::startpos();
    for mv in ["g1f3", "g8f6", "f3g1", "e7e6", "g1f3", "e6e5", "f3g1", "f6g8"] {
        position.play_uci(mv).unwrap();
    }
    // Same pieces as after ...Nf6 Ng1 would be, but pawn moves intervened.
    assert!(!position.is_repetition());
}

#[test]
fn fifty_move_rule() {
    assert!(!is_fifty_move_draw(&board("4k3/8/8/8/8/8/8/4K2R w - - 99 80")));
    assert!(is_fifty_move_draw(&board("4k3/8/8/8/8/8/8/4K2R w - - 100 80")));
    // Mate delivered on the hundredth ply stands.
    assert!(!is_fifty_move_draw(&board("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80")));
    // Check alone does not.
    assert!(is_fifty_move_draw(&board("R5k1/5pp1/8/8/8/8/8/6K1 b - - 100 80")));

    let mut position = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w - - 99 80").unwrap();
    assert!(!position.is_fifty_move_draw());
    position.play_uci("h1h2").unwrap();
    assert!(position.is_fifty_move_draw());
}

#[test]
fn insufficient_material_cases() {
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KB2 w - - 0 1",
        "4kn2/8/8/8/8/8/8/4K3 w - - 0 1",
        // Bishops on f1 and c8 both stand on light squares.
        "2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1",
        "2b1k3/8/8/8/8/8/4B3/4KB2 w - - 0 1",
    ] {
        assert!(insufficient_material(&board(fen)), "{fen}");
    }
    for fen in [
        STARTPOS_FEN,
        "4k3/8/8/8/8/8/8/4KNN1 w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
        // Opposite-coloured bishops (f1 light, f8 dark) and bishop against knight can mate.
        "4kb2/8/8/8/8/8/8/4KB2 w - - 0 1",
        "4kn2/8/8/8/8/8/8/4KB2 w - - 0 1",
    ] {
        assert!(!insufficient_material(&board(fen)), "{fen}");
    }
}

#[test]
fn non_pawn_material_per_side() {
    let only_pawns = board("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1");
    assert!(!non_pawn_material(&only_pawns, Color::White));
    assert!(!non_pawn_material(&only_pawns, Color::Black));
    let white_knight = board("4k3/pppp4/8/8/8/8/PPPP4/4KN2 w - - 0 1");
    assert!(non_pawn_material(&white_knight, Color::White));
    assert!(!non_pawn_material(&white_knight, Color::Black));
    assert!(non_pawn_material(&Board::default(), Color::Black));
}

#[test]
fn game_phase_scale() {
    assert_eq!(game_phase(&Board::default()), 24);
    assert_eq!(game_phase(&board("4k3/8/8/8/8/8/8/4K3 w - - 0 1")), 0);
    assert_eq!(game_phase(&board("3qk3/8/8/8/8/8/8/R3K1N1 w - - 0 1")), 7);
    // Extra queens from promotion do not push the phase past 24.
    assert_eq!(game_phase(&board("rnbqkbnr/8/8/8/8/8/QQQQ4/RNBQKBNR w - - 0 1")), 24);
}
