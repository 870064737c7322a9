//! Building and running engines: a variant's binary (`builder`), variants
//! of other engines (`external`), what takes part in a run, a variant or
//! any `uci:` engine (`participant`), and the pool that runs searches on
//! them (`runner`). An engine process and its UCI options are the games
//! crate's (`games::engine`, `games::uci_options`).

pub mod builder;
pub mod external;
pub mod participant;
pub mod runner;
