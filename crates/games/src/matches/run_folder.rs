//! A match's run folder: what its `run.json` records, a new folder or the
//! one `--resume` continues with the games it already has, and the PGN file
//! the games are appended to.

use std::fs::{File, OpenOptions};
use std::path::PathBuf;

use anyhow::{anyhow, Context, Result};
use serde::Serialize;

use super::args::MatchArgs;
use super::book::Book;
use super::clock::TimeControl;
use super::records::GameRecord;
use super::rules::{DrawRule, ResignRule};
use super::MatchPlan;
use crate::results::{self, RunDir};
use crate::session::Session;
use crate::statistics::SprtSettings;

/// Everything that decides a match's games, as `run.json` records it. A
/// resumed run must have the same. The number of games is not part of it:
/// pair `k` always gets the `k`-th opening, so a finished match can be
/// extended with a larger `--games`; the concurrency may differ too.
#[derive(Clone, Debug, Serialize)]
pub struct RunSettings {
    engine_a: String,
    engine_b: String,
    binary_a: PathBuf,
    binary_b: PathBuf,
    tc: TimeControl,
    /// Left out without odds, so runs begun before odds existed resume.
    #[serde(skip_serializing_if = "Option::is_none")]
    tc_b: Option<TimeControl>,
    book: String,
    sprt: Option<SprtSettings>,
    seed: u64,
    resign: Option<ResignRule>,
    draw: Option<DrawRule>,
    hash_mb: u32,
    time_margin_ms: u64,
    pgn_comments: bool,
}

impl RunSettings {
    pub fn new(plan: &MatchPlan, book: &Book, args: &MatchArgs) -> RunSettings {
        let [engine_a, engine_b] = plan.names.clone();
        let [binary_a, binary_b] = plan.binaries.clone().map(|launch| launch.binary);
        RunSettings {
            engine_a,
            engine_b,
            binary_a,
            binary_b,
            tc: args.tc,
            tc_b: plan.tc_b,
            book: book.source.clone(),
            sprt: plan.sprt,
            seed: args.seed,
            resign: plan.resign,
            draw: plan.draw,
            hash_mb: args.hash.mb,
            time_margin_ms: args.time_margin,
            pgn_comments: !args.no_pgn_comments,
        }
    }
}

/// A new run folder, or the one `--resume` names with the games it has.
pub fn open_run(session: &Session, args: &MatchArgs, settings: &RunSettings) -> Result<(RunDir, Vec<GameRecord>)> {
    match resume_dir(session, args)? {
        Some(dir) => {
            let (run, done) = RunDir::resume(&dir, "match", settings)?;
            session.say(&format!("resuming {}: {} games already played", dir.display(), done.len()));
            Ok((run, done))
        }
        None => Ok((RunDir::create(&session.results_root.clone(), "match", settings)?, Vec::new())),
    }
}

/// The `--resume` folder, if resuming.
fn resume_dir(session: &Session, args: &MatchArgs) -> Result<Option<PathBuf>> {
    match &args.resume {
        None => Ok(None),
        Some(Some(dir)) => Ok(Some(session.resolve(dir))),
        Some(None) => {
            let root = session.results_root.clone();
            let latest = results::runs_of(&root, "match").pop();
            latest.map(Some).ok_or_else(|| anyhow!("--resume: no match run under {} to continue", root.display()))
        }
    }
}

/// The PGN file, `--pgn` or the run's `games.pgn`, opened to append.
pub fn open_pgn(session: &Session, args: &MatchArgs, run: &RunDir) -> Result<(PathBuf, File)> {
    let path = match &args.pgn {
        Some(path) => session.resolve(path),
        None => run.file("games.pgn"),
    };
    let pgn = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    Ok((path, pgn))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use clap::Parser;
    use serde_json::Value;

    use super::*;

    /// The `args` of a run.json that `lab match` wrote before the SPRT options
    /// were shared (commit 649e319), for `LINE` and `--games 2`.
    const EARLIER_RUN_ARGS: &str = r#"{
        "binary_a": "/tmp/compat/illegal.sh",
        "binary_b": "/tmp/compat/crasher.sh",
        "book": "/tmp/compat/book.epd",
        "draw": {"movecount": 4, "movenumber": 34, "score": 20},
        "engine_a": "illegal",
        "engine_b": "crasher",
        "hash_mb": 16,
        "pgn_comments": true,
        "resign": {"movecount": 3, "score": 500},
        "seed": 7,
        "sprt": {"alpha": 0.1, "beta": 0.2, "elo0": -1.5, "elo1": 4.5, "model": "Logistic"},
        "tc": "1+0.01",
        "time_margin_ms": 100
    }"#;

    const LINE: &[&str] = &[
        "illegal",
        "crasher",
        "--tc",
        "1+0.01",
        "--book",
        "/tmp/compat/book.epd",
        "--sprt",
        "-1.5",
        "4.5",
        "--alpha",
        "0.1",
        "--beta",
        "0.2",
        "--model",
        "logistic",
        "--resign-score",
        "500",
        "--draw-movecount",
        "4",
        "--seed",
        "7",
        "--games",
        "4",
    ];

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: MatchArgs,
    }

    // `--resume` refuses a run whose recorded arguments differ from the new
    // ones, so what the same command line records must not change.
    #[test]
    fn earlier_runs_record_what_the_same_arguments_record_now() {
        let args = Cli::parse_from(std::iter::once("match").chain(LINE.iter().copied())).args;
        let session =
            Session { root: PathBuf::from("."), results_root: PathBuf::from("lab-results"), quiet: true, json: false };
        let (illegal, crasher) =
            (Path::new("/tmp/compat/illegal.sh").into(), Path::new("/tmp/compat/crasher.sh").into());
        let plan = MatchPlan::new(&session, ("illegal", &illegal), ("crasher", &crasher), &args).unwrap();
        let book = Book::from_text("/tmp/compat/book.epd", String::new());
        let recorded = serde_json::to_value(RunSettings::new(&plan, &book, &args)).unwrap();
        assert_eq!(recorded, serde_json::from_str::<Value>(EARLIER_RUN_ARGS).unwrap());
    }
}
