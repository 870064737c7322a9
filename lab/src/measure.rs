//! Measuring: node counts (`nodes`), time to depth (`ttd`), solve counts
//! (`tactics`), bench speed (`speed`), the pool that runs a suite's
//! searches on the engines (`runner`), the engines' telemetry lines
//! (`telemetry`), the position suites (`suites`) with the endgame book made
//! from an opening book (`endgame_book`) and the ratio of two measures with
//! its interval (`ratio`).

pub mod endgame_book;
pub mod nodes;
pub mod ratio;
pub mod runner;
pub mod speed;
pub mod suites;
pub mod tactics;
pub mod telemetry;
pub mod ttd;
