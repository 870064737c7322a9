//! prunelab: a chess engine built as a pruning laboratory.
//!
//! The engine core (position layer, evaluation, baseline search) is exact and
//! deterministic; every pruning technique the plans describe is a Cargo feature
//! layered on top of it (see `prune/`).

pub mod bench;
pub(crate) mod context;
pub mod data;
pub mod epd;
pub mod eval;
pub mod features;
pub mod matrix;
pub mod movepick;
pub mod perft;
pub(crate) mod picker;
pub mod position;
pub mod prune;
pub mod san;
pub mod score;
pub mod search;
pub mod see;
pub mod stats;
pub mod techniques;
pub mod time;
pub mod trace;
pub mod tt;
pub mod tune;
pub mod uci;
pub mod variants;

pub use cozy_chess;

// The generated variant sets name the crate `prunelab`, inside it too.
extern crate self as prunelab;
