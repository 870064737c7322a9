//! What the engine's, the games crate's and the lab's tests share (a
//! dev-dependency of each): the variants build every variant is searched
//! with, the lab's stand-in OpenBench server, stand-ins for engine binaries
//! (`script`) and for another engine's git repository (`git`), and the
//! check that every test file is compiled.

mod git;
mod scripts;
pub mod stand_in;
mod test_files;
mod variants_build;

pub use git::git;
pub use scripts::script;
pub use test_files::uncompiled_test_files;
pub use variants_build::variants_build_in;
