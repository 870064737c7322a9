//! Measuring: node counts (`nodes`), time to depth (`ttd`), solve counts
//! (`tactics`), bench speed (`speed`), the engines' telemetry lines
//! (`telemetry`), the position suites (`suites`) and the ratio of two
//! measures with its bootstrap interval (`ratio`).

pub mod nodes;
pub mod ratio;
pub mod speed;
pub mod suites;
pub mod tactics;
pub mod telemetry;
pub mod ttd;
