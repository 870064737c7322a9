//! Explaining a result: which pruning decision lost a tactic (`blame`), and
//! whether techniques add up or overlap (`interactions`).

pub mod blame;
pub mod interactions;
