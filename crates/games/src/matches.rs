//! `lab match A B`: a built-in match runner with SPRT.
//!
//! Games are played in pairs: each opening of the book twice, colours
//! reversed, so the opening's bias cancels within the pair and the
//! pentanomial statistics apply. The runner keeps the clocks, checks every
//! move, applies the rules (and, when asked, score adjudication), and counts
//! every engine failure by engine name: a time loss, a crash, an illegal move
//! or a protocol error loses that game and is never dropped. A crashed engine
//! is started again for its next game.
//!
//! Every finished game is appended to the run's `records.jsonl` and to the
//! PGN at once, so Ctrl-C loses only the games in progress; `--resume` plays
//! the games still missing, with the same openings. The pentanomial (and so
//! the SPRT and the Elo estimates) counts complete pairs only.
//!
//! Parallel games (`--concurrency N`) each run their own pair of engine
//! processes.
//!
//! `run_match` runs a match in named steps: the arguments become a plan, the
//! book is opened, the run folder is created or resumed with its finished
//! games, both engines are started once, the missing pairs are played on the
//! game threads while the main thread records each game as it finishes, and
//! the summary is written.

mod args;
pub mod book;
pub mod clock;
pub mod game;
mod pgn;
mod recorder;
mod records;
mod rules;
mod run_folder;
mod schedule;
mod summary;
mod worker;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use indicatif::ProgressBar;

pub use self::args::MatchArgs;
use self::book::Book;
pub use self::book::{check as check_book, position_key, sample_command, SampleBookArgs};
use self::clock::{MoveBudget, TimeControl};
use self::game::{GameSettings, Player};
use self::pgn::pgn_date;
use self::recorder::Recorder;
use self::records::{FailureCounts, Tally};
use self::rules::{DrawRule, ResignRule};
use self::run_folder::{open_pgn, open_run, RunSettings};
use self::schedule::Schedule;
use self::summary::EngineSummary;
pub use self::summary::StopReason;
pub use self::summary::{summary_markdown, MatchSummary};
use self::worker::{worker, Event, WorkerContext};
use crate::engine::Launch;
use crate::results::RunDir;
use crate::session::Session;
use crate::statistics::{Pentanomial, SprtSettings, Wdl};

/// Games when `--games` is not given: a cap for an SPRT, the run otherwise.
const DEFAULT_GAMES_WITH_SPRT: u64 = 1000;
const DEFAULT_GAMES: u64 = 100;

/// What `run_match` returns.
#[derive(Clone, Debug)]
pub struct MatchOutcome {
    pub summary: MatchSummary,
    pub run_dir: PathBuf,
}

/// The path of the book a match plays: `given`, else the data folder's default.
pub fn book_path(session: &Session, given: Option<&Path>) -> Result<PathBuf> {
    book::locate(session, given)
}

/// What the arguments decide before anything runs, checked.
struct MatchPlan {
    /// The names in results and PGNs: the variants', `#1`/`#2` added when
    /// both are the same.
    names: [String; 2],
    binaries: [Launch; 2],
    sprt: Option<SprtSettings>,
    /// The second engine's time control where it differs from the first's.
    tc_b: Option<TimeControl>,
    resign: Option<ResignRule>,
    draw: Option<DrawRule>,
    /// Games are played in whole pairs.
    pairs: u64,
}

impl MatchPlan {
    fn new(
        session: &Session,
        engine_a: (&str, &Launch),
        engine_b: (&str, &Launch),
        args: &MatchArgs,
    ) -> Result<MatchPlan> {
        if args.concurrency == 0 {
            bail!("--concurrency must be at least 1");
        }
        let names = if engine_a.0 == engine_b.0 {
            [format!("{}#1", engine_a.0), format!("{}#2", engine_b.0)]
        } else {
            [engine_a.0.to_string(), engine_b.0.to_string()]
        };
        let binaries = [engine_a.1.clone(), engine_b.1.clone()];
        let sprt = args.sprt.settings()?;
        let tc_b = args.tc_b.filter(|tc_b| *tc_b != args.tc);
        if let Some(tc_b) = tc_b {
            MoveBudget::for_sides(args.tc, tc_b).map_err(|error| anyhow!("--tc-b: {error}"))?;
        }
        let (resign, draw) = args.adjudication()?;
        let requested_games =
            args.games.unwrap_or(if sprt.is_some() { DEFAULT_GAMES_WITH_SPRT } else { DEFAULT_GAMES });
        if requested_games == 0 {
            bail!("--games must be at least 1");
        }
        let pairs = requested_games.div_ceil(2);
        if requested_games % 2 == 1 {
            session.say(&format!("--games {requested_games}: playing {} games, in whole pairs", 2 * pairs));
        }
        Ok(MatchPlan { names, binaries, sprt, tc_b, resign, draw, pairs })
    }

    fn games(&self) -> u64 {
        2 * self.pairs
    }
}

/// Plays a match of `engine_a` against `engine_b` (name and binary each) as
/// `settings` says, in a new run folder or the one `--resume` names.
pub fn run_match(
    session: &Session,
    engine_a: (&str, &Launch),
    engine_b: (&str, &Launch),
    settings: &MatchArgs,
) -> Result<MatchOutcome> {
    let plan = MatchPlan::new(session, engine_a, engine_b, settings)?;
    let (book, book_note) = book::open(session, settings.book.as_deref())?;
    session.say(&book_note);
    let (run, done) = open_run(session, settings, &RunSettings::new(&plan, &book, settings))?;
    let (pgn_path, pgn) = open_pgn(session, settings, &run)?;
    let (first_players, id_names) = start_engines(&plan, settings.hash.mb)?;
    let summary = first_summary(&plan, settings, &book, &id_names, &run, pgn_path);
    let tally = Tally::of([&plan.names[0], &plan.names[1]], &done);
    let mut recorder = Recorder::new(run, pgn, tally, summary);
    let schedule = Schedule::new(book.sequence(settings.seed), plan.pairs, &done);
    let failure = play_games(session, &plan, settings, &id_names, schedule, first_players, &mut recorder);
    finish(recorder, failure, settings)
}

/// Starts both engines once before anything else, so a binary that does not
/// speak UCI is an error now, not a match of lost games. The players go to
/// the first game thread; their `id name`s to the summary.
fn start_engines(plan: &MatchPlan, hash_mb: u32) -> Result<([Player; 2], [String; 2])> {
    let mut players = [0, 1].map(|side| Player::new(&plan.names[side], &plan.binaries[side], hash_mb));
    let mut id_names = [String::new(), String::new()];
    for (player, id_name) in players.iter_mut().zip(&mut id_names) {
        let name = player.name.clone();
        player.start().with_context(|| format!("cannot start engine {name}"))?;
        *id_name = player.id_name().unwrap_or_default().to_string();
    }
    Ok((players, id_names))
}

/// The summary before any game of this session: the totals are filled in as
/// games are recorded (a resumed run's at the first write).
fn first_summary(
    plan: &MatchPlan,
    settings: &MatchArgs,
    book: &Book,
    id_names: &[String; 2],
    run: &RunDir,
    pgn: PathBuf,
) -> MatchSummary {
    MatchSummary {
        engines: [0, 1].map(|side| EngineSummary {
            name: plan.names[side].clone(),
            id_name: id_names[side].clone(),
            binary: plan.binaries[side].binary.clone(),
            failures: FailureCounts::default(),
        }),
        tc: settings.tc,
        tc_b: plan.tc_b,
        book: book.source.clone(),
        book_lines_skipped: Vec::new(),
        seed: settings.seed,
        games: 0,
        games_planned: plan.games(),
        pairs: 0,
        wdl: Wdl::default(),
        penta: Pentanomial::default(),
        score_pct: None,
        elo: None,
        nelo: None,
        sprt: plan.sprt,
        sprt_status: None,
        stop: StopReason::Running,
        terminations: BTreeMap::new(),
        average_plies: None,
        run_dir: run.path().to_path_buf(),
        pgn,
    }
}

/// Plays the games `schedule` has left on `--concurrency` game threads, each
/// with its own engine processes (the first with the engines already
/// started), while this thread records every finished game. Returns the
/// error that stopped the match early, if one did.
fn play_games(
    session: &Session,
    plan: &MatchPlan,
    settings: &MatchArgs,
    id_names: &[String; 2],
    schedule: Schedule,
    first_players: [Player; 2],
    recorder: &mut Recorder,
) -> Option<anyhow::Error> {
    let started = Instant::now();
    let stop = AtomicBool::new(recorder.concluded());
    let schedule = Mutex::new(schedule);
    let game_settings = GameSettings {
        tc: settings.tc,
        tc_b: plan.tc_b.unwrap_or(settings.tc),
        time_margin: Duration::from_millis(settings.time_margin),
        resign: plan.resign,
        draw: plan.draw,
    };
    let event = format!("lab match {} vs {}", plan.names[0], plan.names[1]);
    let date = pgn_date();
    let context = WorkerContext {
        schedule: &schedule,
        settings: &game_settings,
        stop: &stop,
        deadline: settings.budget.map(|budget| started + budget),
        event: &event,
        date: &date,
        comments: !settings.no_pgn_comments,
    };
    let bar = session.progress(plan.games(), if plan.sprt.is_some() { "games (SPRT may stop)" } else { "games" });
    bar.set_position(recorder.tally.games.min(plan.games()));
    let say = |text: &str| session.say_above(&bar, text);
    say(&match_line(plan, settings, id_names));

    let mut failure: Option<anyhow::Error> = None;
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        let mut first_players = Some(first_players);
        for _ in 0..settings.concurrency {
            let players = first_players.take().unwrap_or_else(|| {
                [0, 1].map(|side| Player::new(&plan.names[side], &plan.binaries[side], settings.hash.mb))
            });
            let events = sender.clone();
            let context = &context;
            scope.spawn(move || worker(players, context, events));
        }
        drop(sender);
        // Runs until every game thread has ended.
        for event in receiver {
            if let Err(error) = record_event(event, recorder, &bar, &say) {
                stop.store(true, Ordering::Relaxed);
                failure.get_or_insert(error);
            }
            if recorder.concluded() {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    bar.finish_and_clear();
    failure
}

/// `razor-r1 (prunelab ...) vs baseline (prunelab ...), tc 10+0.1, 1000 games at most, SPRT [0, 5] ..., concurrency 2`.
fn match_line(plan: &MatchPlan, settings: &MatchArgs, id_names: &[String; 2]) -> String {
    let sprt_text = plan
        .sprt
        .map(|s| format!(" at most, SPRT [{}, {}] {} alpha {} beta {}", s.elo0, s.elo1, s.model, s.alpha, s.beta));
    let tc = match plan.tc_b {
        Some(tc_b) => format!("{} against {tc_b}", settings.tc),
        None => settings.tc.to_string(),
    };
    let budget =
        settings.budget.map_or(String::new(), |budget| format!(", a budget of {}", humantime::format_duration(budget)));
    format!(
        "{} ({}) vs {} ({}), tc {tc}, {} games{}{budget}, concurrency {}",
        plan.names[0],
        id_names[0],
        plan.names[1],
        id_names[1],
        plan.games(),
        sprt_text.unwrap_or_default(),
        settings.concurrency
    )
}

/// What a game thread reported, on the main thread: a note or a skipped book
/// line is said, a finished game saved at once (with the running line when
/// it completes a pair). An error stops the match.
fn record_event(event: Event, recorder: &mut Recorder, bar: &ProgressBar, say: &dyn Fn(&str)) -> Result<()> {
    match event {
        Event::Note(text) => say(&text),
        Event::Skipped(line) => {
            say(&format!("book line {} skipped: {}", line.line, line.error));
            recorder.summary.book_lines_skipped.push((line.line, line.error));
        }
        Event::Fatal(error) => return Err(error),
        Event::Game(record, pgn) => {
            bar.inc(1);
            let running_line =
                recorder.save(&record, &pgn).with_context(|| format!("cannot save game {}", record.round))?;
            running_line.iter().for_each(|line| say(line));
        }
    }
    Ok(())
}

/// Why the match stopped, in the summary, written a last time; an error
/// keeps its games and says how to continue.
fn finish(mut recorder: Recorder, failure: Option<anyhow::Error>, settings: &MatchArgs) -> Result<MatchOutcome> {
    recorder.summary.stop = if failure.is_some() {
        StopReason::Error
    } else if recorder.concluded() {
        StopReason::Sprt
    } else if settings.budget.is_some() && recorder.tally.games < recorder.summary.games_planned {
        StopReason::Budget
    } else {
        StopReason::Games
    };
    recorder.write_summary()?;
    if let Some(error) = failure {
        return Err(error.context(format!(
            "the match stopped after {} games; they are kept in {} (continue with --resume)",
            recorder.tally.games,
            recorder.run.path().display()
        )));
    }
    Ok(MatchOutcome { run_dir: recorder.run.path().to_path_buf(), summary: recorder.summary })
}
