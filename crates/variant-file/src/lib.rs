//! A variant file (`variants/*.toml`) as a value tree: what the build
//! script (`crates/engine-build`), the engine (`prunelab::variants`), the
//! lab (other engines' variants) and the tests share.
//!
//! The build script is the one reader of `variants/*.toml` (feature `toml`:
//! [`read`]); it writes each file's [`Value`] into the library as code
//! ([`Value::to_code`]), where `prunelab::variants::load` validates and
//! resolves them. The lab reads the variants of other engines with the same
//! reader, and its claim grammar reads the sections the engine keeps as
//! written.

mod source;
#[cfg(feature = "toml")]
mod toml_reader;

pub use source::{folder_digest, Source, Value};
#[cfg(feature = "toml")]
pub use toml_reader::read;
