//! `lab`: from two variants to a verdict on one machine. This library is
//! the lab; the binary (`src/main.rs`) is only the command line's entry,
//! and the tests call the library wherever they do not test the command
//! line.
//!
//! `lab ab VARIANT` builds the variant's and its parent's engines, counts
//! nodes on the verdict suite, times both to depth, runs the tactical
//! suites and prints a one-page verdict; `lab chain` does it for a plan's
//! phases one after another. The other commands are their steps (`build`,
//! `nodes`, `ttd`, `tactics`, `match`), `atlas` (every variant against its
//! parent at fixed nodes), `openbench` (the same match as an
//! OpenBench test), `speed` (bench speed) and the tools (`list`, `report`,
//! `snapdiff`, `spsa`, `sprt`, `clocks`, `blunders`, `sample-book`,
//! `endgame-book`, and `blame` and `interactions`, which explain a result). Every run writes its results
//! under `lab-results/<timestamp>-<command>/` as it goes.
//!
//! The modules are grouped by role: `engines/` builds variants and runs
//! participants; `measure/` counts nodes, times to depth and solve counts;
//! `explain/` says why a result came out as it did; `verdicts/` judges
//! claims (with the atlas and its calibration) and writes the reports;
//! `play.rs` is `lab match`, the games crate's match runner between two
//! participants; `openbench/` runs OpenBench tests; `tune/` tunes a
//! variant's parameters and prints them as OpenBench SPSA input (`lab
//! spsa`); `develop/` writes a new technique's skeleton (`new-technique`)
//! and each technique's measured worth into the engine (`atlas-lines`);
//! `list.rs` and `snapdiff.rs` list the variants and the snapshots'
//! changes. `lab.rs` (the shared context), `plots.rs` (SVG plots whose
//! points carry their numbers) and `tools.rs` (git and make) serve them
//! all, and `cli.rs` is the command line: every command, and which room
//! runs it. Games between engines (engine processes, the match runner, Elo
//! and SPRT, PGN, run folders) are the games crate's (crates/games); only
//! `lab match`, the verdicts' `--sprt` and `lab tune` play them.
//! docs/lab.md, "The lab's layout", has one line per room.

pub mod cli;
pub mod develop;
pub mod engines;
pub mod explain;
pub mod lab;
pub mod list;
pub mod measure;
pub mod openbench;
pub mod play;
pub mod plots;
pub mod snapdiff;
pub mod tools;
pub mod tune;
pub mod variants;
pub mod verdicts;
