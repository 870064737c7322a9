//! Verdicts and reports: a variant against its parent (`ab`, its page's
//! sections in `ab_sections`), a plan's phases in a row (`chain`), the
//! claims of the variant files and how they are judged (`claims`,
//! `verdict`; their grammar is `crate::variants::grammar`), the game
//! results a verdict reads first (`evidence`) and what they decide
//! (`decision`; `decide`, the games of `lab ab --decide`), the atlas of
//! every variant against its parent at fixed nodes (`atlas`), how far the
//! fast measures agree with the atlas's games (`calibration`), and the
//! report of every variant (`report`) with plan 002's own success criteria
//! (`plan_criteria`). A verdict with another engine on a side plays a
//! sanity match first and predicts nothing from prunelab's atlas
//! (`other_engines`).

pub mod ab;
pub mod ab_sections;
pub mod atlas;
pub mod calibration;
pub mod chain;
pub mod claims;
pub mod decide;
pub mod decision;
pub mod evidence;
pub mod other_engines;
pub mod plan_criteria;
pub mod report;
pub mod verdict;
