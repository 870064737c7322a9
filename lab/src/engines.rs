//! Building and starting engines: a variant's binary (`builder`), another
//! engine at a commit (`commits`), and what takes part in a run, a variant
//! or any `uci:` engine (`participant`). An
//! engine process and its UCI options are the games crate's
//! (`games::engine`, `games::uci_options`); the pool that runs a suite's
//! searches on them is `crate::measure::runner`.

pub mod abilities;
pub mod builder;
pub mod commits;
pub mod participant;
