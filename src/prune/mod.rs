//! Selectivity: one file per technique, each opening with what it is, its
//! other names and the plan phase or engine it follows.
//!
//! The baseline techniques (null move, reverse futility, delta pruning, late
//! move reductions) are always compiled in; the pruning catalogue's features
//! change them or add to them, each decided at the top of its own file.

pub mod delta;
pub mod lmr;
pub mod null_move;
pub mod reverse_futility;
