//! What the engine's and the lab's tests share (a dev-dependency of both):
//! the variants build every variant is searched with, the lab's stand-in
//! OpenBench server, and the check that every test file is compiled.

pub mod stand_in;
mod test_files;
mod variants_build;

pub use test_files::uncompiled_test_files;
pub use variants_build::variants_build_in;
