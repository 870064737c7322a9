//! Games and their statistics: the match runner (`matches`), the atlas of
//! every variant against its parent at fixed nodes (`atlas`), each side's
//! clock rebuilt from a PGN's move times (`pgn_clocks`), each engine's
//! blunders judged by a referee engine (`blunders`), OpenBench tests
//! (`openbench`), the game results a verdict reads first (`evidence`), the
//! games of PGN files, read with the `pgn-reader` crate (`pgn_games`), and
//! the Elo and SPRT arithmetic with the SPRT's options and the `lab sprt`
//! command (`statistics`, its SPRT all in `statistics::sprt`).

pub mod atlas;
pub mod blunders;
pub mod evidence;
pub mod matches;
pub mod openbench;
pub mod pgn_clocks;
pub mod pgn_games;
pub mod statistics;
