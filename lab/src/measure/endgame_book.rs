//! `lab endgame-book`: a book of endgames for games that claim something of
//! the endgame (plan 000's R3: "better endgame performance", "test on
//! endgame positions specifically").
//!
//! No public endgame book comes with the repository, so one is drawn from
//! the openings it has: each opening of the source book, in its order, is
//! played forward by the lab's own build of the engine (the baseline
//! search) at a fixed number of nodes per move, from `ucinewgame`, until
//! the position is an endgame by the plans' measure (game phase at most 4:
//! knight and bishop 1, rook 2, queen 4, the stage where R3's endgame margin
//! acts). That position is kept when the side to move is not in check and a
//! search of it scores within `--max-score`, so games from it are not decided
//! before they start; the colour-reversed pairs of a match cancel what bias
//! is left. One position per opening keeps the positions as varied as the
//! openings. A fixed-node search is deterministic, so the same source, nodes
//! and engine code give the same file.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use anyhow::{bail, Context, Result};
use cozy_chess::Board;
use games::matches::book::{position_key, Book};
use prunelab::position::{game_phase, insufficient_material, legal_moves, Position, Stage};
use prunelab::search::{SearchLimits, Searcher};

use crate::lab::Lab;

/// A game that has not reached an endgame after this many plies is left.
const MAX_PLIES: usize = 300;

/// `lab endgame-book`'s arguments.
#[derive(clap::Args, Debug)]
pub struct EndgameBookArgs {
    /// The book whose openings are played forward (EPD or FEN lines).
    pub source: PathBuf,
    /// How many endgames to keep.
    #[arg(long, default_value_t = 500, value_name = "N")]
    pub positions: usize,
    /// Nodes per move of the games, and of the search that scores the endgame.
    #[arg(long, default_value_t = 5000, value_name = "N")]
    pub nodes: u64,
    /// Keep an endgame only if its search scores within this many centipawns.
    #[arg(long, default_value_t = 300, value_name = "CP")]
    pub max_score: i32,
    /// The file to write (one FEN a line, in the source's order).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// What became of one opening.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Outcome {
    /// The endgame reached, as a six-field FEN.
    Kept(String),
    /// Reached, but in check or scored beyond the bound.
    Unbalanced,
    /// The game ended, or went on too long, before an endgame.
    NoEndgame,
}

/// Plays `board` forward until an endgame, with a fresh search state.
fn endgame_from(searcher: &mut Searcher, board: Board, nodes: u64, max_score: i32) -> Outcome {
    let limits = SearchLimits { nodes: Some(nodes), ..Default::default() };
    let stop = AtomicBool::new(false);
    let mut position = Position::from_board(board);
    searcher.new_game();
    for _ in 0..MAX_PLIES {
        let board = position.board().clone();
        if legal_moves(&board).is_empty()
            || position.is_repetition()
            || position.is_fifty_move_draw()
            || insufficient_material(&board)
        {
            return Outcome::NoEndgame;
        }
        let result = searcher.search(&position, &limits, &stop, &mut |_| {});
        if Stage::of(game_phase(&board)) == Stage::Endgame {
            let quiet = board.checkers().is_empty();
            return if quiet && result.score.abs() <= max_score {
                Outcome::Kept(format!("{board}"))
            } else {
                Outcome::Unbalanced
            };
        }
        let Some(best) = result.best_move else { return Outcome::NoEndgame };
        if position.play_move(best).is_err() {
            return Outcome::NoEndgame;
        }
    }
    Outcome::NoEndgame
}

/// The first `count` distinct endgames reached from `openings`, in their order.
fn endgames(
    openings: impl Iterator<Item = Board>,
    count: usize,
    nodes: u64,
    max_score: i32,
) -> (Vec<String>, [usize; 3]) {
    let mut searcher = Searcher::new(16);
    let mut kept = Vec::new();
    let mut seen = HashSet::new();
    // Openings that gave an endgame, an unbalanced one, none.
    let mut tally = [0; 3];
    for board in openings {
        if kept.len() == count {
            break;
        }
        match endgame_from(&mut searcher, board, nodes, max_score) {
            Outcome::Kept(fen) => {
                if seen.insert(position_key(&fen)) {
                    kept.push(fen);
                    tally[0] += 1;
                }
            }
            Outcome::Unbalanced => tally[1] += 1,
            Outcome::NoEndgame => tally[2] += 1,
        }
    }
    (kept, tally)
}

/// `lab endgame-book`: the endgames, written to `--out`.
pub fn command(lab: &Lab, args: &EndgameBookArgs) -> Result<()> {
    let book = Book::read(&lab.resolve(&args.source))?;
    let (kept, [_, unbalanced, none]) = endgames(book.boards(), args.positions, args.nodes, args.max_score);
    if kept.len() < args.positions {
        bail!(
            "{} gave {} endgames, fewer than the {} asked ({unbalanced} unbalanced or in check, {none} with no \
             endgame in {MAX_PLIES} plies): ask fewer, or give a larger book",
            book.source,
            kept.len(),
            args.positions
        );
    }
    let out = lab.resolve(&args.out);
    std::fs::write(&out, kept.join("\n") + "\n").with_context(|| format!("cannot write {}", out.display()))?;
    lab.say(&format!(
        "{}: {} endgames from the first {} openings of {} ({} nodes a move, within {} cp; {unbalanced} unbalanced \
         or in check, {none} with no endgame in {MAX_PLIES} plies)",
        out.display(),
        kept.len(),
        kept.len() + unbalanced + none,
        book.source,
        args.nodes,
        args.max_score
    ));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        fen.parse().unwrap()
    }

    #[test]
    fn an_endgame_is_kept_as_it_is_and_a_lost_one_is_not() {
        let mut searcher = Searcher::new(1);
        // Rook and pawns each: phase 4, balanced.
        let rooks = "8/5pk1/6p1/8/8/6P1/r4PK1/4R3 w - - 0 40";
        assert_eq!(endgame_from(&mut searcher, board(rooks), 2000, 300), Outcome::Kept(rooks.to_string()));
        // A queen against a bare king is decided.
        let decided = "8/8/8/4k3/8/8/3QK3/8 w - - 0 1";
        assert_eq!(endgame_from(&mut searcher, board(decided), 2000, 300), Outcome::Unbalanced);
        // No legal move: the game is over before it reaches anything.
        let mated = "R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1";
        assert_eq!(endgame_from(&mut searcher, board(mated), 2000, 300), Outcome::NoEndgame);
    }

    #[test]
    fn razor_r3_claims_games_on_the_repositorys_endgame_book() {
        use crate::variants::grammar::Planned;
        let lab = Lab::for_tests();
        let variant = lab.variant("razor-r3").unwrap();
        let plan = variant.plan();
        let books: Vec<&str> = plan.claims.iter().filter_map(|claim| claim.scope.book.as_deref()).collect();
        let path = format!("{}/{}", prunelab::data::DIR, prunelab::data::ENDGAMES);
        assert_eq!(books, [path.as_str()]);
        let book = Book::read(&lab.root.join(&path)).unwrap();
        assert_eq!(book.len(), 500);
        let mut endgames = 0;
        for board in book.boards() {
            assert!(game_phase(&board) <= 4 && board.checkers().is_empty(), "{board}");
            endgames += 1;
        }
        assert_eq!(endgames, 500);
    }

    #[test]
    fn openings_are_played_into_endgames_the_same_way_every_time() {
        // Middlegames a few trades from the endgame.
        let openings = [
            board("r3r1k1/pp3ppp/2n5/8/8/2N5/PP3PPP/R3R1K1 w - - 0 20"),
            board("3rr1k1/pp3ppp/8/2b5/2B5/8/PP3PPP/3RR1K1 w - - 0 20"),
        ];
        let (first, tally) = endgames(openings.iter().cloned(), 2, 1000, 1000);
        let (again, _) = endgames(openings.iter().cloned(), 2, 1000, 1000);
        assert_eq!(first, again);
        assert_eq!(tally, [2, 0, 0]);
        // The baseline's games, as `lab endgame-book` plays them in any build.
        assert_eq!(
            first,
            ["8/pp1R1pk1/6p1/8/P5pP/1r6/6P1/6K1 w - - 0 42", "6k1/6p1/1p6/p4B1P/P3K3/1Pb5/3R2P1/8 b - - 0 53"]
        );
        for fen in &first {
            let endgame = board(fen);
            assert!(game_phase(&endgame) <= 4, "{fen}");
            assert!(endgame.checkers().is_empty(), "{fen}");
        }
    }
}
