//! Building and running engines: a variant's binary (`builder`), a UCI
//! engine process and its handshake (`engine`), variants of other engines
//! (`external`), what takes part in a run, a
//! variant or any `uci:` engine (`participant`), the pool that runs
//! searches on them (`runner`), and the UCI options a participant carries
//! (`uci_options`).

pub mod builder;
pub mod engine;
pub mod external;
pub mod participant;
pub mod runner;
pub mod uci_options;
