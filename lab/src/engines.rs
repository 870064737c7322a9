//! Building and running engines: a variant's binary (`builder`), a UCI
//! engine process and its handshake (`engine`), what takes part in a run, a
//! variant or any `uci:` engine (`participant`), and the pool that runs
//! searches on them (`runner`).

pub mod builder;
pub mod engine;
pub mod participant;
pub mod runner;
