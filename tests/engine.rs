//! The engine's integration tests, one binary with a module per theme: each
//! test binary is linked on its own, and CI's test build spent its time
//! linking them. Cargo builds only the test targets Cargo.toml names
//! (`autotests = false`); `tests/trace.rs` is its own binary, since only a
//! `trace` build has its tests.

mod common;

mod catalogue;
mod cli;
mod epd;
mod features;
mod fuzz;
mod guards;
mod matrix;
mod perft;
mod position;
mod profiles;
mod readme;
mod san;
mod search;
mod see;
mod uci;

/// A file of tests/ that is no module here and no test target of its own
/// would never be compiled: cargo looks for no test files by itself.
#[test]
fn every_test_file_is_compiled() {
    let tests = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    assert_eq!(test_support::uncompiled_test_files(&tests, "engine.rs", &["trace.rs"]), Vec::<String>::new());
}
