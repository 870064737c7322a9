//! The variants the lab knows beyond the engine crate's own files: the
//! claims and plans a variant file states (`grammar`), the variants of
//! other engines, run by their UCI options (`external`), and ablations,
//! a variant without one of its techniques and without a file
//! (`ablations`). The lab's context (`crate::lab::Lab`) opens them all.

pub mod ablations;
pub mod external;
pub mod grammar;
