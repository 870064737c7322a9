//! Games and their statistics: the match runner (`matches`), OpenBench
//! tests (`openbench`), the game results a verdict reads first
//! (`evidence`), the `lab sprt` command and the SPRT options every command
//! spells the same way (`sprt`, `sprt_options`), and the Elo and SPRT
//! arithmetic (`statistics`).

pub mod evidence;
pub mod matches;
pub mod openbench;
pub mod sprt;
pub mod sprt_options;
pub mod statistics;
