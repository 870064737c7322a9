//! Explaining a result: which pruning decision lost a tactic (`blame`),
//! whether techniques add up or overlap (`interactions`), and each engine's
//! blunders in a match's games, judged by a referee engine (`blunders`).

pub mod blame;
pub mod blunders;
pub mod interactions;
