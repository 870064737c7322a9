//! Games and their statistics: the match runner (`matches`), each side's
//! clock rebuilt from a PGN's move times (`clocks`), the `lab sprt`
//! command and the SPRT options every command spells the same way
//! (`sprt`, `sprt_options`), and the Elo and SPRT arithmetic (`statistics`).

pub mod clocks;
pub mod matches;
pub mod sprt;
pub mod sprt_options;
pub mod statistics;
