//! Games and their statistics: the match runner (`matches`), the atlas of
//! every variant against its parent at fixed nodes (`atlas`), each side's
//! clock rebuilt from a PGN's move times (`clocks`), each engine's
//! blunders judged by a referee engine (`blunders`), OpenBench tests
//! (`openbench`), the game results a verdict reads first (`evidence`), the
//! `lab sprt` command and the SPRT options every command spells the same
//! way (`sprt`, `sprt_options`), and the Elo and SPRT arithmetic
//! (`statistics`).

pub mod atlas;
pub mod blunders;
pub mod clocks;
pub mod evidence;
pub mod matches;
pub mod openbench;
pub mod sprt;
pub mod sprt_options;
pub mod statistics;
