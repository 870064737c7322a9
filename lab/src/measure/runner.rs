//! Runs many independent searches on a pool of engine processes: each job is
//! one position searched from `ucinewgame` by one variant, so the results do
//! not depend on the pool's size or the order the jobs finish in.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{bail, Result};
use clap::Args;
use games::engine::{Engine, Launch, SearchOutput};
use games::results::{self, RunDir};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::engines::participant;
use crate::lab::Lab;
use crate::measure::suites::Suite;

/// A search to a fixed depth has no clock; this only catches a hung engine.
pub const DEPTH_SEARCH_TIMEOUT: Duration = Duration::from_secs(3600);
/// A search to a node count takes seconds; this only catches a hung engine.
pub const NODES_SEARCH_TIMEOUT: Duration = Duration::from_secs(600);

/// A participant (a variant, or a UCI engine as `uci:PATH`) and how to
/// start it.
#[derive(Clone, Debug)]
pub struct Contestant {
    pub name: String,
    pub launch: Launch,
    /// Whether its telemetry is wanted: it is then sent `SearchStats` when
    /// it offers that option (every variant does; SeaJay, the plans'
    /// engine, does too).
    pub has_telemetry: bool,
}

impl Contestant {
    pub fn new(name: &str, launch: Launch) -> Contestant {
        Contestant { name: name.to_string(), launch, has_telemetry: true }
    }
}

/// One search.
#[derive(Clone, Debug)]
pub struct Job {
    pub contestant: usize,
    pub position: usize,
    pub fen: String,
    /// The `go` command, e.g. `go depth 10`.
    pub go: String,
    /// A search running longer than this is counted as a hung engine.
    pub timeout: Duration,
}

pub struct Settings {
    pub hash_mb: u32,
    pub concurrency: usize,
    /// Ask for the telemetry lines (`SearchStats`).
    pub telemetry: bool,
}

fn start(contestant: &Contestant, settings: &Settings) -> Result<Engine> {
    let mut engine = Engine::launch(&contestant.launch, &contestant.name)?;
    engine.set_option("Hash", &settings.hash_mb.to_string())?;
    if settings.telemetry && contestant.has_telemetry && engine.offers_option("SearchStats") {
        engine.set_option("SearchStats", "true")?;
    }
    Ok(engine)
}

fn search(
    engines: &mut BTreeMap<usize, Engine>,
    contestants: &[Contestant],
    job: &Job,
    settings: &Settings,
) -> Result<SearchOutput> {
    let engine = match engines.entry(job.contestant) {
        std::collections::btree_map::Entry::Occupied(entry) => entry.into_mut(),
        std::collections::btree_map::Entry::Vacant(entry) => {
            entry.insert(start(&contestants[job.contestant], settings)?)
        }
    };
    let outcome =
        engine.new_game().and_then(|()| engine.go(&format!("position fen {}", job.fen), &job.go, job.timeout));
    if outcome.is_err() {
        // A failed engine is restarted for the next job.
        engines.remove(&job.contestant);
    }
    outcome
}

/// Runs `jobs` on `settings.concurrency` workers and hands each result to
/// `on_done` on the calling thread, as it finishes. When `on_done` fails
/// (say the disk is full) no new job starts and the error is returned.
pub fn run(
    contestants: &[Contestant],
    jobs: &[Job],
    settings: &Settings,
    mut on_done: impl FnMut(&Job, Result<SearchOutput>) -> Result<()>,
) -> Result<()> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, results) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..settings.concurrency.max(1).min(jobs.len().max(1)) {
            let sender = sender.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                let mut engines = BTreeMap::new();
                while !stop.load(Ordering::SeqCst) {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    let Some(job) = jobs.get(index) else { break };
                    let outcome = search(&mut engines, contestants, job, settings);
                    if sender.send((index, outcome)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut failure = None;
        for (index, outcome) in results {
            if failure.is_some() {
                continue;
            }
            if let Err(error) = on_done(&jobs[index], outcome) {
                stop.store(true, Ordering::SeqCst);
                failure = Some(error);
            }
        }
        failure.map_or(Ok(()), Err)
    })
}

/// How a run is carried out, which does not change its results.
#[derive(Args, Clone, Debug, Default)]
pub struct RunArgs {
    /// Engine processes searching at the same time (results are identical
    /// whatever the concurrency; time and nps are measured under that load).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Continue a run: its folder, or the latest run of this command.
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = "latest")]
    pub resume: Option<String>,
}

impl RunArgs {
    /// Opens the run folder: a fresh one, or the one to resume with its
    /// finished records.
    pub fn open<R: serde::de::DeserializeOwned>(
        &self,
        lab: &Lab,
        command: &str,
        args: &impl Serialize,
    ) -> Result<(RunDir, Vec<R>)> {
        match self.resume.as_deref() {
            None => Ok((RunDir::create(&lab.results_root(), command, args)?, Vec::new())),
            Some(which) => {
                let path = if which == "latest" {
                    match results::runs_of(&lab.results_root(), command).pop() {
                        Some(path) => path,
                        None => bail!("--resume: no `{command}` run under {}", lab.results_root().display()),
                    }
                } else {
                    lab.resolve(std::path::Path::new(which))
                };
                let (run, done) = RunDir::resume(&path, command, args)?;
                lab.say(&format!("resuming {} ({} results kept)", path.display(), done.len()));
                Ok((run, done))
            }
        }
    }
}

/// Each contestant's search of each position of `suite` that `done`
/// (position, contestant's name) does not have yet, position-major, so the
/// first positions' tables fill first.
pub fn suite_jobs(
    suite: &Suite,
    contestants: &[Contestant],
    go: &str,
    timeout: Duration,
    done: impl Fn(usize, &str) -> bool,
) -> Vec<Job> {
    (0..suite.positions.len())
        .flat_map(|position| (0..contestants.len()).map(move |contestant| (position, contestant)))
        .filter(|&(position, contestant)| !done(position, &contestants[contestant].name))
        .map(|(position, contestant)| Job {
            contestant,
            position,
            fen: suite.positions[position].fen.clone(),
            go: go.to_string(),
            timeout,
        })
        .collect()
}

/// A result of one variant on one suite position, as `records.jsonl` keeps it.
pub trait SuiteRecord: Serialize + DeserializeOwned {
    fn variant(&self) -> &str;
    fn position(&self) -> usize;
    fn id(&self) -> &str;
    fn error(&self) -> Option<&str>;
}

/// `SuiteRecord` for a record whose fields `variant`, `position`, `id` and
/// `error` say it.
macro_rules! impl_suite_record {
    ($record:ty) => {
        impl $crate::measure::runner::SuiteRecord for $record {
            fn variant(&self) -> &str {
                &self.variant
            }
            fn position(&self) -> usize {
                self.position
            }
            fn id(&self) -> &str {
                &self.id
            }
            fn error(&self) -> Option<&str> {
                self.error.as_deref()
            }
        }
    };
}
pub(crate) use impl_suite_record;

/// A finished run of every variant on a suite: its records, and where it
/// is (its summary with them).
pub struct SuiteRun<R> {
    pub suite: Suite,
    pub records: Vec<R>,
    pub run_dir: PathBuf,
}

/// What `lab nodes` and `lab tactics` search: every variant on every
/// position of `suite` with the same `go` command.
pub struct SuiteSearch<'a> {
    /// The command's name, which names its run folders.
    pub command: &'a str,
    pub variants: &'a [String],
    pub suite: &'a Suite,
    pub go: String,
    pub timeout: Duration,
    pub settings: Settings,
}

/// Builds the variants (and checks the UCI engines), opens (or resumes) the run folder, searches every
/// position and variant without a result yet, and appends each result the
/// moment it is in. Returns the folder and every record, position by
/// position in the order of `variants`.
pub fn run_suite<R: SuiteRecord>(
    lab: &Lab,
    run_args: &RunArgs,
    args: &impl Serialize,
    search: &SuiteSearch,
    record_of: impl Fn(&str, usize, Result<SearchOutput>) -> R,
) -> Result<(RunDir, Vec<R>)> {
    let launches = participant::launches(lab, search.variants)?;
    let contestants: Vec<Contestant> =
        search.variants.iter().zip(launches).map(|(name, launch)| Contestant::new(name, launch)).collect();
    let (mut run_dir, mut records): (RunDir, Vec<R>) = run_args.open(lab, search.command, args)?;
    let jobs = suite_jobs(search.suite, &contestants, &search.go, search.timeout, |position, name| {
        records.iter().any(|record| record.position() == position && record.variant() == name)
    });
    let bar = lab.progress(jobs.len() as u64, &format!("{} {}", search.command, search.suite.name));
    run(&contestants, &jobs, &search.settings, |job, outcome| {
        let record = record_of(&contestants[job.contestant].name, job.position, outcome);
        if let Some(error) = record.error() {
            bar.suspend(|| lab.say(&format!("{}: {error}", record.id())));
        }
        run_dir.keep(&mut records, record)?;
        bar.inc(1);
        Ok(())
    })?;
    bar.finish_and_clear();
    let order = |variant: &str| search.variants.iter().position(|name| name == variant).unwrap_or(usize::MAX);
    records.sort_by_key(|record| (record.position(), order(record.variant())));
    Ok((run_dir, records))
}
