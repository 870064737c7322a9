//! Static evaluation: tapered material plus piece-square tables, in integer
//! centipawns from the side to move's point of view.
//!
//! The values are PeSTO's (Ronald Friederich, published on the Chess
//! Programming Wiki). Evaluation is not what this lab studies, so it stays
//! small, fast and fixed: every pruning feature is measured against the same
//! static eval.

use cozy_chess::{Board, Color, Piece, Square};

use crate::position::game_phase;

/// Bonus for having the move, in middlegame and endgame.
const TEMPO_BONUS: i32 = 10;

/// Plain material values for gates such as the static-null-move material
/// check and delta pruning (not the tapered values used by `evaluate`).
pub const PIECE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

const MG_MATERIAL: [i32; 6] = [82, 337, 365, 477, 1025, 0];
const EG_MATERIAL: [i32; 6] = [94, 281, 297, 512, 936, 0];

// Tables are written as a board is drawn: the first row is rank 8, a8 to h8,
// from White's point of view.
#[rustfmt::skip]
const MG_PST: [[i32; 64]; 6] = [
    [ // pawn
          0,   0,   0,   0,   0,   0,  0,   0,
         98, 134,  61,  95,  68, 126, 34, -11,
         -6,   7,  26,  31,  65,  56, 25, -20,
        -14,  13,   6,  21,  23,  12, 17, -23,
        -27,  -2,  -5,  12,  17,   6, 10, -25,
        -26,  -4,  -4, -10,   3,   3, 33, -12,
        -35,  -1, -20, -23, -15,  24, 38, -22,
          0,   0,   0,   0,   0,   0,  0,   0,
    ],
    [ // knight
        -167, -89, -34, -49,  61, -97, -15, -107,
         -73, -41,  72,  36,  23,  62,   7,  -17,
         -47,  60,  37,  65,  84, 129,  73,   44,
          -9,  17,  19,  53,  37,  69,  18,   22,
         -13,   4,  16,  13,  28,  19,  21,   -8,
         -23,  -9,  12,  10,  19,  17,  25,  -16,
         -29, -53, -12,  -3,  -1,  18, -14,  -19,
        -105, -21, -58, -33, -17, -28, -19,  -23,
    ],
    [ // bishop
        -29,   4, -82, -37, -25, -42,   7,  -8,
        -26,  16, -18, -13,  30,  59,  18, -47,
        -16,  37,  43,  40,  35,  50,  37,  -2,
         -4,   5,  19,  50,  37,  37,   7,  -2,
         -6,  13,  13,  26,  34,  12,  10,   4,
          0,  15,  15,  15,  14,  27,  18,  10,
          4,  15,  16,   0,   7,  21,  33,   1,
        -33,  -3, -14, -21, -13, -12, -39, -21,
    ],
    [ // rook
         32,  42,  32,  51, 63,  9,  31,  43,
         27,  32,  58,  62, 80, 67,  26,  44,
         -5,  19,  26,  36, 17, 45,  61,  16,
        -24, -11,   7,  26, 24, 35,  -8, -20,
        -36, -26, -12,  -1,  9, -7,   6, -23,
        -45, -25, -16, -17,  3,  0,  -5, -33,
        -44, -16, -20,  -9, -1, 11,  -6, -71,
        -19, -13,   1,  17, 16,  7, -37, -26,
    ],
    [ // queen
        -28,   0,  29,  12,  59,  44,  43,  45,
        -24, -39,  -5,   1, -16,  57,  28,  54,
        -13, -17,   7,   8,  29,  56,  47,  57,
        -27, -27, -16, -16,  -1,  17,  -2,   1,
         -9, -26,  -9, -10,  -2,  -4,   3,  -3,
        -14,   2, -11,  -2,  -5,   2,  14,   5,
        -35,  -8,  11,   2,   8,  15,  -3,   1,
         -1, -18,  -9,  10, -15, -25, -31, -50,
    ],
    [ // king
        -65,  23,  16, -15, -56, -34,   2,  13,
         29,  -1, -20,  -7,  -8,  -4, -38, -29,
         -9,  24,   2, -16, -20,   6,  22, -22,
        -17, -20, -12, -27, -30, -25, -14, -36,
        -49,  -1, -27, -39, -46, -44, -33, -51,
        -14, -14, -22, -46, -44, -30, -15, -27,
          1,   7,  -8, -64, -43, -16,   9,   8,
        -15,  36,  12, -54,   8, -28,  24,  14,
    ],
];

#[rustfmt::skip]
const EG_PST: [[i32; 64]; 6] = [
    [ // pawn
          0,   0,   0,   0,   0,   0,   0,   0,
        178, 173, 158, 134, 147, 132, 165, 187,
         94, 100,  85,  67,  56,  53,  82,  84,
         32,  24,  13,   5,  -2,   4,  17,  17,
         13,   9,  -3,  -7,  -7,  -8,   3,  -1,
          4,   7,  -6,   1,   0,  -5,  -1,  -8,
         13,   8,   8,  10,  13,   0,   2,  -7,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    [ // knight
        -58, -38, -13, -28, -31, -27, -63, -99,
        -25,  -8, -25,  -2,  -9, -25, -24, -52,
        -24, -20,  10,   9,  -1,  -9, -19, -41,
        -17,   3,  22,  22,  22,  11,   8, -18,
        -18,  -6,  16,  25,  16,  17,   4, -18,
        -23,  -3,  -1,  15,  10,  -3, -20, -22,
        -42, -20, -10,  -5,  -2, -20, -23, -44,
        -29, -51, -23, -15, -22, -18, -50, -64,
    ],
    [ // bishop
        -14, -21, -11,  -8, -7,  -9, -17, -24,
         -8,  -4,   7, -12, -3, -13,  -4, -14,
          2,  -8,   0,  -1, -2,   6,   0,   4,
         -3,   9,  12,   9, 14,  10,   3,   2,
         -6,   3,  13,  19,  7,  10,  -3,  -9,
        -12,  -3,   8,  10, 13,   3,  -7, -15,
        -14, -18,  -7,  -1,  4,  -9, -15, -27,
        -23,  -9, -23,  -5, -9, -16,  -5, -17,
    ],
    [ // rook
        13, 10, 18, 15, 12,  12,   8,   5,
        11, 13, 13, 11, -3,   3,   8,   3,
         7,  7,  7,  5,  4,  -3,  -5,  -3,
         4,  3, 13,  1,  2,   1,  -1,   2,
         3,  5,  8,  4, -5,  -6,  -8, -11,
        -4,  0, -5, -1, -7, -12,  -8, -16,
        -6, -6,  0,  2, -9,  -9, -11,  -3,
        -9,  2,  3, -1, -5, -13,   4, -20,
    ],
    [ // queen
         -9,  22,  22,  27,  27,  19,  10,  20,
        -17,  20,  32,  41,  58,  25,  30,   0,
        -20,   6,   9,  49,  47,  35,  19,   9,
          3,  22,  24,  45,  57,  40,  57,  36,
        -18,  28,  19,  47,  31,  34,  39,  23,
        -16, -27,  15,   6,   9,  17,  10,   5,
        -22, -23, -30, -16, -16, -23, -36, -32,
        -33, -28, -22, -43,  -5, -32, -20, -41,
    ],
    [ // king
        -74, -35, -18, -18, -11,  15,   4, -17,
        -12,  17,  14,  17,  17,  38,  23,  11,
         10,  17,  23,  15,  20,  45,  44,  13,
         -8,  22,  24,  27,  26,  33,  26,   3,
        -18,  -4,  21,  24,  27,  23,   9, -11,
        -19,  -3,  11,  21,  23,  16,   7,  -9,
        -27, -11,   4,  13,  14,   4,  -5, -17,
        -53, -34, -21, -11, -28, -14, -24, -43,
    ],
];

/// Material plus square value, `[color][piece][square]` with a1 = 0, built at
/// compile time so the evaluation is one table load per piece.
struct Tables {
    mg: [[[i32; 64]; 6]; 2],
    eg: [[[i32; 64]; 6]; 2],
}

const TABLES: Tables = build_tables();

const fn build_tables() -> Tables {
    let mut tables = Tables { mg: [[[0; 64]; 6]; 2], eg: [[[0; 64]; 6]; 2] };
    let mut piece = 0;
    while piece < 6 {
        let mut square = 0;
        while square < 64 {
            // The written tables start at a8, so White flips the rank (a1 = 0
            // reads row 8) and Black reads them as they stand.
            let white_index = square ^ 56;
            tables.mg[0][piece][square] = MG_MATERIAL[piece] + MG_PST[piece][white_index];
            tables.eg[0][piece][square] = EG_MATERIAL[piece] + EG_PST[piece][white_index];
            tables.mg[1][piece][square] = MG_MATERIAL[piece] + MG_PST[piece][square];
            tables.eg[1][piece][square] = EG_MATERIAL[piece] + EG_PST[piece][square];
            square += 1;
        }
        piece += 1;
    }
    tables
}

/// The static evaluation from the side to move's point of view.
pub fn evaluate(board: &Board) -> i32 {
    let mut mg = [0i32; 2];
    let mut eg = [0i32; 2];
    for color in Color::ALL {
        let ours = board.colors(color);
        for piece in Piece::ALL {
            for square in ours & board.pieces(piece) {
                mg[color as usize] += TABLES.mg[color as usize][piece as usize][square as usize];
                eg[color as usize] += TABLES.eg[color as usize][piece as usize][square as usize];
            }
        }
    }
    let us = board.side_to_move() as usize;
    let them = 1 - us;
    let mg_score = mg[us] - mg[them] + TEMPO_BONUS;
    let eg_score = eg[us] - eg[them] + TEMPO_BONUS;
    let phase = game_phase(board);
    (mg_score * phase + eg_score * (24 - phase)) / 24
}

/// Plain material of `color` minus that of its opponent, in centipawns.
pub fn material_balance(board: &Board, color: Color) -> i32 {
    let mut balance = 0;
    for piece in Piece::ALL {
        let ours = board.colored_pieces(color, piece).len() as i32;
        let theirs = board.colored_pieces(!color, piece).len() as i32;
        balance += PIECE_VALUES[piece as usize] * (ours - theirs);
    }
    balance
}

/// The value of the piece on `square`, or 0 when it is empty.
pub fn piece_value_on(board: &Board, square: Square) -> i32 {
    board.piece_on(square).map_or(0, |piece| PIECE_VALUES[piece as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mirrored(fen: &str) -> Board {
        // Flip ranks and swap colours, so the evaluation must be the same.
        let fields: Vec<&str> = fen.split(' ').collect();
        let ranks: Vec<String> = fields[0]
            .split('/')
            .rev()
            .map(|rank| {
                rank.chars()
                    .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
                    .collect()
            })
            .collect();
        let side = if fields[1] == "w" { "b" } else { "w" };
        Board::from_fen(&format!("{} {} - - 0 1", ranks.join("/"), side), false).unwrap()
    }

    #[test]
    fn start_position_is_worth_the_tempo() {
        assert_eq!(evaluate(&Board::default()), TEMPO_BONUS);
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        for fen in [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w - - 4 4",
            "8/2k5/3p4/p2P1p2/P2P1P2/8/3K4/8 b - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
        ] {
            let board = Board::from_fen(fen, false).unwrap();
            assert_eq!(evaluate(&board), evaluate(&mirrored(fen)), "{fen}");
        }
    }

    #[test]
    fn material_balance_counts_plain_values() {
        let board = Board::from_fen("4k3/8/8/8/8/8/8/QR2K3 w - - 0 1", false).unwrap();
        assert_eq!(material_balance(&board, Color::White), 1400);
        assert_eq!(material_balance(&board, Color::Black), -1400);
    }
}
