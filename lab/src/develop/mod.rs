//! Tools for developing the engine itself: `new-technique` writes the
//! skeleton of a technique (its file, registry lines, Cargo feature, variant
//! and the row of the book's variants table), which `ci/check-technique.sh`
//! then checks and measures; `atlas-lines` writes each technique's measured
//! worth from the atlas into its file and its step of `src/search.rs`.

pub mod atlas_lines;
pub mod new_technique;
