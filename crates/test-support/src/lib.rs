//! What the engine's and the lab's tests share (a dev-dependency of both):
//! the variants build every variant is searched with, the lab's stand-in
//! OpenBench server.

pub mod stand_in;
mod variants_build;

pub use variants_build::variants_build_in;
