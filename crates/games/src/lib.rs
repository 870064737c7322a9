//! Games between UCI engines, fastchess's scope: an engine process and its
//! UCI handshake (`engine`, with the options it is given in
//! `uci_options`), the match runner with its clocks, rules, book and PGN
//! (`matches`), the Elo and SPRT arithmetic with `lab sprt` (`statistics`),
//! the games of PGN files (`pgn_games`) and each side's clock rebuilt from
//! their move times (`pgn_clocks`).
//!
//! What a run stands on serves them all: the run folders results are
//! written to as they come (`results`), the signals that stop a run with
//! every engine killed and every finished result kept (`interrupt`), where
//! a command runs and how it talks (`session`), and words the messages
//! share (`wording`). Which engines play, and what a result means for a
//! claim, is the lab's: this crate knows engines only as binaries.

pub mod engine;
pub mod interrupt;
pub mod matches;
pub mod options;
pub mod pgn_clocks;
pub mod pgn_games;
pub mod results;
pub mod session;
pub mod statistics;
pub mod uci_options;
pub mod wording;
