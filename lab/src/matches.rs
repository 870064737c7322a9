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

mod book;
mod clock;
mod game;
mod pgn;
mod rules;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use serde::{Deserialize, Serialize};

use self::book::{Book, Opening, OpeningSequence, SkippedLine};
use self::clock::TimeControl;
use self::game::{play_game, Failure, GameSettings, PlayedGame, Player};
use self::pgn::{game_to_pgn, PgnContext};
use self::rules::{DrawRule, GameResult, ResignRule, Termination};
use crate::lab::Lab;
use crate::results::{self, RunDir};
use crate::sprt_options::SprtOptions;
use crate::statistics::{self, Estimate, Pentanomial, SprtSettings, SprtStatus, Verdict, Wdl};

/// The book used when `--book` is not given, relative to the repository.
const DEFAULT_BOOK: &str = "../shared/data/books/UHO_4060_v2.epd";
/// Games when `--games` is not given: a cap for an SPRT, the run otherwise.
const DEFAULT_GAMES_WITH_SPRT: u64 = 1000;
const DEFAULT_GAMES: u64 = 100;
/// An engine that cannot be started this many times in a row stops the match.
const MAX_START_FAILURES: u32 = 3;

#[derive(Args, Clone, Debug)]
pub struct MatchArgs {
    /// The engine under test (a variant name); Elo and SPRT are from its side.
    pub engine_a: String,
    /// The reference engine (a variant name).
    pub engine_b: String,
    /// Time control `[moves/]seconds[+increment]`, e.g. 10+0.1 or 40/60+0.6.
    #[arg(long, default_value = "10+0.1", value_name = "TC")]
    pub tc: TimeControl,
    /// Opening book, EPD or FEN lines (default: ../shared/data/books/UHO_4060_v2.epd
    /// if present, else the start position).
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Games to play, in pairs (default 100; with --sprt a cap of 1000).
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,
    #[command(flatten)]
    pub sprt: SprtOptions,
    /// Games played at the same time, each with its own engine processes.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub concurrency: usize,
    /// Write the games here (default: games.pgn in the run folder).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Fixes the order of the book's openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Resign adjudication: both engines' scores beyond --resign-score for this
    /// many consecutive moves each (giving either option turns it on; default 3).
    #[arg(long, value_name = "N")]
    pub resign_movecount: Option<u32>,
    /// Resign adjudication score in centipawns (default 600).
    #[arg(long, value_name = "CP")]
    pub resign_score: Option<i32>,
    /// Draw adjudication from this move number on (giving any draw option turns
    /// it on; default 34).
    #[arg(long, value_name = "N")]
    pub draw_movenumber: Option<u32>,
    /// Draw adjudication: consecutive moves of each engine within --draw-score (default 8).
    #[arg(long, value_name = "N")]
    pub draw_movecount: Option<u32>,
    /// Draw adjudication score in centipawns (default 20).
    #[arg(long, value_name = "CP")]
    pub draw_score: Option<i32>,
    /// Each engine's hash table size in MB.
    #[arg(long, default_value_t = 16, value_name = "MB")]
    pub hash: u32,
    /// Milliseconds an engine may run past its clock before it loses on time
    /// (absorbs pipe and scheduling latency).
    #[arg(long, default_value_t = 100, value_name = "MS")]
    pub time_margin: u64,
    /// Leave the `{score/depth time}` comments out of the PGN.
    #[arg(long)]
    pub no_pgn_comments: bool,
    /// Continue a match: DIR, or the latest `match` run under the results
    /// folder. Give the same arguments as the first time; --games may grow.
    #[arg(long, num_args = 0..=1, value_name = "DIR")]
    pub resume: Option<Option<PathBuf>>,
    /// Use an already built binary for a name instead of building it: NAME=PATH
    /// (repeatable; for tests and foreign engines).
    #[arg(long = "binary", value_name = "NAME=PATH", hide = true)]
    pub binaries: Vec<String>,
}

impl MatchArgs {
    /// The defaults of `lab match A B`, for callers such as `lab ab --sprt`.
    pub fn new(engine_a: &str, engine_b: &str) -> MatchArgs {
        #[derive(clap::Parser)]
        struct Wrapper {
            #[command(flatten)]
            args: MatchArgs,
        }
        // Placeholders for the names, so a name is never read as an option.
        let mut args = <Wrapper as clap::Parser>::parse_from(["match", "a", "b"]).args;
        args.engine_a = engine_a.to_string();
        args.engine_b = engine_b.to_string();
        args
    }

    /// The binary `--binary NAME=PATH` gives for `name`.
    fn binary_override(&self, name: &str) -> Result<Option<PathBuf>> {
        for entry in &self.binaries {
            let (key, path) = entry.split_once('=').ok_or_else(|| {
                anyhow!("--binary {entry}: expected NAME=PATH, e.g. baseline=target/release/prunelab")
            })?;
            if key == name {
                return Ok(Some(PathBuf::from(path)));
            }
        }
        Ok(None)
    }
}

/// Everything that decides a match's games, as `run.json` records it. A
/// resumed run must have the same. The number of games is not part of it:
/// pair `k` always gets the `k`-th opening, so a finished match can be
/// extended with a larger `--games`; the concurrency may differ too.
#[derive(Clone, Debug, Serialize)]
struct RunSettings {
    engine_a: String,
    engine_b: String,
    binary_a: PathBuf,
    binary_b: PathBuf,
    tc: TimeControl,
    book: String,
    sprt: Option<SprtSettings>,
    seed: u64,
    resign: Option<ResignRule>,
    draw: Option<DrawRule>,
    hash_mb: u32,
    time_margin_ms: u64,
    pgn_comments: bool,
}

/// One finished game in `records.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The pair (0-based); its openings are the same.
    pub pair: u64,
    /// 0: engine A has White; 1: engine B has White.
    pub game: u8,
    /// The PGN round: `2 * pair + game + 1`.
    pub round: u64,
    /// The book line (1-based; 0 for the start position).
    pub opening_line: u32,
    pub white: String,
    pub black: String,
    pub result: GameResult,
    pub termination: Termination,
    pub plies: u32,
    pub failure: Option<Failure>,
}

impl GameRecord {
    /// Engine A's points in this game.
    fn points_a(&self) -> f64 {
        let color = if self.game == 0 { cozy_chess::Color::White } else { cozy_chess::Color::Black };
        self.result.points_for(color)
    }
}

/// Failures of one engine, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureCounts {
    pub time_losses: u64,
    pub crashes: u64,
    pub illegal_moves: u64,
    pub protocol_errors: u64,
}

impl FailureCounts {
    fn add(&mut self, kind: Termination) {
        match kind {
            Termination::TimeLoss => self.time_losses += 1,
            Termination::Crash => self.crashes += 1,
            Termination::IllegalMove => self.illegal_moves += 1,
            _ => self.protocol_errors += 1,
        }
    }
}

fn plural(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

impl std::fmt::Display for FailureCounts {
    /// `1 time loss, 0 crashes, 0 illegal moves, 0 protocol errors`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}, {}, {}, {}",
            plural(self.time_losses, "time loss", "time losses"),
            plural(self.crashes, "crash", "crashes"),
            plural(self.illegal_moves, "illegal move", "illegal moves"),
            plural(self.protocol_errors, "protocol error", "protocol errors")
        )
    }
}

/// The running totals of a match.
#[derive(Clone, Debug, Default)]
struct Tally {
    /// All finished games, from engine A's side.
    wdl: Wdl,
    /// Complete pairs only.
    penta: Pentanomial,
    games: u64,
    plies: u64,
    /// Engine A's points in the finished games of pairs not yet complete.
    open_pairs: HashMap<u64, [Option<f64>; 2]>,
    terminations: BTreeMap<Termination, u64>,
    failures: BTreeMap<String, FailureCounts>,
}

impl Tally {
    fn new(engines: [&str; 2]) -> Tally {
        let failures = engines.iter().map(|name| (name.to_string(), FailureCounts::default())).collect();
        Tally { failures, ..Tally::default() }
    }

    /// Counts a game; true when it completes its pair.
    fn add(&mut self, record: &GameRecord) -> bool {
        let points = record.points_a();
        self.wdl.add_game(points);
        self.games += 1;
        self.plies += record.plies as u64;
        *self.terminations.entry(record.termination).or_default() += 1;
        if let Some(failure) = &record.failure {
            self.failures.entry(failure.engine.clone()).or_default().add(failure.kind);
        }
        let slots = self.open_pairs.entry(record.pair).or_default();
        slots[record.game as usize & 1] = Some(points);
        if let [Some(first), Some(second)] = *slots {
            self.open_pairs.remove(&record.pair);
            self.penta.add_pair(first, second);
            return true;
        }
        false
    }
}

/// One engine in the summary.
#[derive(Clone, Debug, Serialize)]
pub struct EngineSummary {
    /// The name in this match (the variant, `#1`/`#2` added when both are the same).
    pub name: String,
    /// The engine's `id name`.
    pub id_name: String,
    pub binary: PathBuf,
    pub failures: FailureCounts,
}

/// Why the match stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The SPRT accepted H0 or H1.
    Sprt,
    /// All games were played.
    Games,
    /// An engine could not be started again, or the results could not be written.
    Error,
}

/// A match's result, as printed and written to `summary.json`.
#[derive(Clone, Debug, Serialize)]
pub struct MatchSummary {
    pub engines: [EngineSummary; 2],
    pub tc: TimeControl,
    pub book: String,
    pub book_lines_skipped: Vec<(u32, String)>,
    pub seed: u64,
    pub games: u64,
    pub games_planned: u64,
    pub pairs: u64,
    pub wdl: Wdl,
    pub penta: Pentanomial,
    /// Engine A's score in percent of the points.
    pub score_pct: Option<f64>,
    /// From the pairs (`None` before the first pair).
    pub elo: Option<Estimate>,
    pub nelo: Option<Estimate>,
    pub sprt: Option<SprtSettings>,
    pub sprt_status: Option<SprtStatus>,
    pub stop: StopReason,
    pub terminations: BTreeMap<Termination, u64>,
    pub average_plies: Option<f64>,
    pub run_dir: PathBuf,
    pub pgn: PathBuf,
}

/// What `run_match` returns.
#[derive(Clone, Debug)]
pub struct MatchOutcome {
    pub summary: MatchSummary,
    pub run_dir: PathBuf,
}

/// `lab match A B`.
pub fn command(lab: &Lab, args: &MatchArgs) -> Result<()> {
    let binary_a = engine_binary(lab, args, &args.engine_a)?;
    let binary_b =
        if args.engine_b == args.engine_a { binary_a.clone() } else { engine_binary(lab, args, &args.engine_b)? };
    let outcome = run_match(lab, (&args.engine_a, &binary_a), (&args.engine_b, &binary_b), args)?;
    lab.say(&format!("results: {}", outcome.run_dir.display()));
    if lab.global.json {
        println!("{}", serde_json::to_string_pretty(&outcome.summary)?);
    } else {
        print!("{}", summary_markdown(&outcome.summary));
    }
    Ok(())
}

/// The binary for `name`: `--binary NAME=PATH`, else the variant's build.
fn engine_binary(lab: &Lab, args: &MatchArgs, name: &str) -> Result<PathBuf> {
    match args.binary_override(name)? {
        Some(path) => {
            let path = lab.resolve(&path);
            if !path.is_file() {
                bail!("--binary {name}={}: no such file", path.display());
            }
            Ok(path)
        }
        None => crate::builder::ensure_built(lab, name),
    }
}

/// The opening book `args` asks for, and a line saying which it is.
fn open_book(lab: &Lab, args: &MatchArgs) -> Result<(Book, String)> {
    if let Some(path) = &args.book {
        let book = Book::read(&lab.resolve(path))?;
        let note = format!("book: {} ({})", book.source, plural(book.len() as u64, "line", "lines"));
        return Ok((book, note));
    }
    let default = lab.root.join(DEFAULT_BOOK);
    if default.is_file() {
        // `.../main/../shared/...` reads better without the `..`.
        let default = std::fs::canonicalize(&default).unwrap_or(default);
        let book = Book::read(&default)?;
        let note = format!("book: {} ({} lines; the default)", book.source, book.len());
        Ok((book, note))
    } else {
        let note = format!("book: none ({} not found), every game starts from the start position", default.display());
        Ok((Book::start_position(), note))
    }
}

/// Adjudication rules from the options; a rule is on when any of its options is given.
fn adjudication(args: &MatchArgs) -> Result<(Option<ResignRule>, Option<DrawRule>)> {
    let resign = (args.resign_movecount.is_some() || args.resign_score.is_some())
        .then(|| ResignRule { movecount: args.resign_movecount.unwrap_or(3), score: args.resign_score.unwrap_or(600) });
    let draw =
        (args.draw_movenumber.is_some() || args.draw_movecount.is_some() || args.draw_score.is_some()).then(|| {
            DrawRule {
                movenumber: args.draw_movenumber.unwrap_or(34),
                movecount: args.draw_movecount.unwrap_or(8),
                score: args.draw_score.unwrap_or(20),
            }
        });
    if resign.is_some_and(|rule| rule.movecount == 0 || rule.score <= 0) {
        bail!("--resign-movecount must be at least 1 and --resign-score positive");
    }
    if draw.is_some_and(|rule| rule.movecount == 0 || rule.score < 0) {
        bail!("--draw-movecount must be at least 1 and --draw-score not negative");
    }
    Ok((resign, draw))
}

/// The `--resume` folder, if resuming.
fn resume_dir(lab: &Lab, args: &MatchArgs) -> Result<Option<PathBuf>> {
    match &args.resume {
        None => Ok(None),
        Some(Some(dir)) => Ok(Some(lab.resolve(dir))),
        Some(None) => {
            let root = lab.results_root();
            let latest = results::runs_of(&root, "match").pop();
            latest.map(Some).ok_or_else(|| anyhow!("--resume: no match run under {} to continue", root.display()))
        }
    }
}

/// Which games are left: pair `k` gets the `k`-th opening of the seeded
/// order, so a resumed run skips the games it has and keeps the openings.
struct Schedule {
    openings: OpeningSequence,
    next_pair: u64,
    pairs: u64,
    finished: HashSet<(u64, u8)>,
}

/// A pair's games still to play.
struct Job {
    pair: u64,
    opening: Opening,
    games: Vec<u8>,
}

impl Schedule {
    fn next_job(&mut self) -> Result<Option<(Job, Vec<SkippedLine>)>> {
        let mut skipped = Vec::new();
        while self.next_pair < self.pairs {
            let pair = self.next_pair;
            self.next_pair += 1;
            let (opening, broken) = self.openings.next_opening()?;
            skipped.extend(broken);
            let games: Vec<u8> = (0..2).filter(|game| !self.finished.contains(&(pair, *game))).collect();
            if !games.is_empty() {
                return Ok(Some((Job { pair, opening, games }, skipped)));
            }
        }
        Ok(None)
    }
}

/// What the game threads tell the main thread.
enum Event {
    Game(Box<GameRecord>, String),
    Note(String),
    Skipped(SkippedLine),
    Fatal(anyhow::Error),
}

/// Shared by the game threads.
struct WorkerContext<'a> {
    schedule: &'a Mutex<Schedule>,
    settings: &'a GameSettings,
    stop: &'a AtomicBool,
    event: &'a str,
    date: &'a str,
    comments: bool,
}

/// A game thread: takes pairs from the schedule until none is left or the
/// match stops, with its own two engine processes.
fn worker(mut players: [Player; 2], context: &WorkerContext, events: Sender<Event>) {
    let mut start_failures = [0u32; 2];
    loop {
        if context.stop.load(Ordering::Relaxed) {
            return;
        }
        let next = context
            .schedule
            .lock()
            .map_err(|_| anyhow!("a game thread panicked"))
            .and_then(|mut schedule| schedule.next_job());
        let job = match next {
            Ok(Some((job, skipped))) => {
                for line in skipped {
                    let _ = events.send(Event::Skipped(line));
                }
                job
            }
            Ok(None) => return,
            Err(error) => {
                let _ = events.send(Event::Fatal(error));
                return;
            }
        };
        for &game in &job.games {
            if context.stop.load(Ordering::Relaxed) {
                return;
            }
            for (player, failures) in players.iter_mut().zip(&mut start_failures) {
                match player.start() {
                    Ok(_) => *failures = 0,
                    Err(error) => {
                        *failures += 1;
                        if *failures >= MAX_START_FAILURES {
                            let error = error.context(format!(
                                "{} failed to start {MAX_START_FAILURES} times in a row",
                                player.name
                            ));
                            let _ = events.send(Event::Fatal(error));
                            return;
                        }
                    }
                }
            }
            let [a, b] = &mut players;
            let seats = if game == 0 { [a, b] } else { [b, a] };
            let Some(played) = play_game(seats, &job.opening, context.settings, context.stop) else { return };
            let round = 2 * job.pair + game as u64 + 1;
            if let Some(failure) = &played.failure {
                let discarded = players.iter().any(|player| player.name == failure.engine && !player.is_running());
                let restart = if discarded { "; restarting it" } else { "" };
                let _ = events.send(Event::Note(format!("game {round}: {}{restart}", failure.detail)));
            }
            let pgn = game_to_pgn(
                &played,
                &PgnContext {
                    event: context.event,
                    date: context.date,
                    round,
                    tc: context.settings.tc,
                    comments: context.comments,
                },
            );
            let record = record_of(&played, job.pair, game, round);
            if events.send(Event::Game(Box::new(record), pgn)).is_err() {
                return;
            }
        }
    }
}

fn record_of(played: &PlayedGame, pair: u64, game: u8, round: u64) -> GameRecord {
    GameRecord {
        pair,
        game,
        round,
        opening_line: played.opening.line,
        white: played.white.clone(),
        black: played.black.clone(),
        result: played.result,
        termination: played.termination,
        plies: played.moves.len() as u32,
        failure: played.failure.clone(),
    }
}

/// The PGN `Date` of today.
fn pgn_date() -> String {
    let format = time::macros::format_description!("[year].[month].[day]");
    time::OffsetDateTime::now_utc().format(&format).unwrap_or_else(|_| "????.??.??".to_string())
}

/// The main thread's side of a match: saves each finished game at once,
/// keeps the totals and the summary files, and says when the SPRT is done.
struct Recorder {
    run: RunDir,
    pgn: File,
    tally: Tally,
    summary: MatchSummary,
    /// The SPRT's state when it first reached a verdict: a game that ends in
    /// the moment the others are abandoned is kept, but does not reopen the test.
    verdict: Option<SprtStatus>,
}

impl Recorder {
    fn sprt_status(&self) -> Option<SprtStatus> {
        let penta = &self.tally.penta;
        let current = self.summary.sprt.map(|settings| settings.on_pairs(penta));
        self.verdict.or(current)
    }

    /// Whether the SPRT has a verdict.
    fn concluded(&self) -> bool {
        self.verdict.is_some()
    }

    fn check_verdict(&mut self) {
        if let Some(status) = self.sprt_status().filter(|status| status.verdict != Verdict::Continue) {
            self.verdict.get_or_insert(status);
        }
    }

    /// Saves a finished game (record, PGN, summary); returns the running line
    /// when the game completes its pair.
    fn save(&mut self, record: &GameRecord, pgn: &str) -> Result<Option<String>> {
        self.run.append(record)?;
        self.pgn.write_all(pgn.as_bytes())?;
        let completes_pair = self.tally.add(record);
        if completes_pair {
            self.check_verdict();
        }
        let line = completes_pair
            .then(|| statistics::running_line(&self.tally.wdl, &self.tally.penta, self.summary.sprt.as_ref()));
        self.write_summary()?;
        Ok(line)
    }

    /// Copies the totals into the summary and writes it.
    fn write_summary(&mut self) -> Result<()> {
        let (tally, summary) = (&self.tally, &mut self.summary);
        summary.games = tally.games;
        summary.pairs = tally.penta.pairs();
        summary.wdl = tally.wdl;
        summary.penta = tally.penta;
        summary.score_pct = (tally.games > 0)
            .then(|| 100.0 * (tally.wdl.wins as f64 + 0.5 * tally.wdl.draws as f64) / tally.games as f64);
        let has_pairs = tally.penta.pairs() > 0;
        summary.elo = has_pairs.then(|| statistics::elo_penta(&tally.penta));
        summary.nelo = has_pairs.then(|| statistics::nelo_penta(&tally.penta));
        summary.terminations = tally.terminations.clone();
        summary.average_plies = (tally.games > 0).then(|| tally.plies as f64 / tally.games as f64);
        for engine in &mut summary.engines {
            engine.failures = tally.failures.get(&engine.name).copied().unwrap_or_default();
        }
        self.summary.sprt_status = self.sprt_status();
        self.run.write_summary(&summary_markdown(&self.summary), &self.summary)
    }
}

/// Plays a match of `engine_a` against `engine_b` (name and binary each) as
/// `settings` says, in a new run folder or the one `--resume` names.
pub fn run_match(
    lab: &Lab,
    engine_a: (&str, &Path),
    engine_b: (&str, &Path),
    settings: &MatchArgs,
) -> Result<MatchOutcome> {
    if settings.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    // The same variant on both sides still needs two names in results and PGNs.
    let names = if engine_a.0 == engine_b.0 {
        [format!("{}#1", engine_a.0), format!("{}#2", engine_b.0)]
    } else {
        [engine_a.0.to_string(), engine_b.0.to_string()]
    };
    let binaries = [engine_a.1.to_path_buf(), engine_b.1.to_path_buf()];
    let sprt = settings.sprt.settings()?;
    let (resign, draw) = adjudication(settings)?;
    let requested_games =
        settings.games.unwrap_or(if sprt.is_some() { DEFAULT_GAMES_WITH_SPRT } else { DEFAULT_GAMES });
    if requested_games == 0 {
        bail!("--games must be at least 1");
    }
    let pairs = requested_games.div_ceil(2);
    if requested_games % 2 == 1 {
        lab.say(&format!("--games {requested_games}: playing {} games, in whole pairs", 2 * pairs));
    }
    let (book, book_note) = open_book(lab, settings)?;
    lab.say(&book_note);

    let run_settings = RunSettings {
        engine_a: names[0].clone(),
        engine_b: names[1].clone(),
        binary_a: binaries[0].clone(),
        binary_b: binaries[1].clone(),
        tc: settings.tc,
        book: book.source.clone(),
        sprt,
        seed: settings.seed,
        resign,
        draw,
        hash_mb: settings.hash,
        time_margin_ms: settings.time_margin,
        pgn_comments: !settings.no_pgn_comments,
    };
    let (run, done): (RunDir, Vec<GameRecord>) = match resume_dir(lab, settings)? {
        Some(dir) => {
            let (run, done) = RunDir::resume(&dir, "match", &run_settings)?;
            lab.say(&format!("resuming {}: {} games already played", dir.display(), done.len()));
            (run, done)
        }
        None => (RunDir::create(&lab.results_root(), "match", &run_settings)?, Vec::new()),
    };
    let pgn_path = match &settings.pgn {
        Some(path) => lab.resolve(path),
        None => run.file("games.pgn"),
    };
    let pgn = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&pgn_path)
        .with_context(|| format!("cannot open {}", pgn_path.display()))?;

    // Start both engines once before anything else: a binary that does not
    // speak UCI is an error now, not a match of lost games.
    let mut first_players = [0, 1].map(|side| Player::new(&names[side], &binaries[side], settings.hash));
    let mut id_names = [String::new(), String::new()];
    for (player, id_name) in first_players.iter_mut().zip(&mut id_names) {
        let name = player.name.clone();
        player.start().with_context(|| format!("cannot start engine {name}"))?;
        *id_name = player.id_name().unwrap_or_default().to_string();
    }

    let mut tally = Tally::new([&names[0], &names[1]]);
    let mut finished = HashSet::new();
    for record in &done {
        tally.add(record);
        finished.insert((record.pair, record.game));
    }
    let summary = MatchSummary {
        engines: [0, 1].map(|side| EngineSummary {
            name: names[side].clone(),
            id_name: id_names[side].clone(),
            binary: binaries[side].clone(),
            failures: FailureCounts::default(),
        }),
        tc: settings.tc,
        book: book.source.clone(),
        book_lines_skipped: Vec::new(),
        seed: settings.seed,
        games: 0,
        games_planned: 2 * pairs,
        pairs: 0,
        wdl: Wdl::default(),
        penta: Pentanomial::default(),
        score_pct: None,
        elo: None,
        nelo: None,
        sprt,
        sprt_status: None,
        stop: StopReason::Games,
        terminations: BTreeMap::new(),
        average_plies: None,
        run_dir: run.path().to_path_buf(),
        pgn: pgn_path,
    };
    let mut recorder = Recorder { run, pgn, tally, summary, verdict: None };
    recorder.check_verdict();

    let stop = AtomicBool::new(recorder.concluded());
    let schedule = Mutex::new(Schedule { openings: book.sequence(settings.seed), next_pair: 0, pairs, finished });
    let game_settings =
        GameSettings { tc: settings.tc, time_margin: Duration::from_millis(settings.time_margin), resign, draw };
    let event = format!("lab match {} vs {}", names[0], names[1]);
    let date = pgn_date();
    let context = WorkerContext {
        schedule: &schedule,
        settings: &game_settings,
        stop: &stop,
        event: &event,
        date: &date,
        comments: !settings.no_pgn_comments,
    };
    let bar = lab.progress(2 * pairs, if sprt.is_some() { "games (SPRT may stop)" } else { "games" });
    bar.set_position(recorder.tally.games.min(2 * pairs));
    // Lines go above the bar while it shows.
    let say = |text: &str| {
        if bar.is_hidden() {
            lab.say(text);
        } else {
            bar.println(text);
        }
    };
    let sprt_text =
        sprt.map(|s| format!(" at most, SPRT [{}, {}] {} alpha {} beta {}", s.elo0, s.elo1, s.model, s.alpha, s.beta));
    say(&format!(
        "{} ({}) vs {} ({}), tc {}, {} games{}, concurrency {}",
        names[0],
        id_names[0],
        names[1],
        id_names[1],
        settings.tc,
        2 * pairs,
        sprt_text.unwrap_or_default(),
        settings.concurrency
    ));

    let mut failure: Option<anyhow::Error> = None;
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        let mut first_players = Some(first_players);
        for _ in 0..settings.concurrency {
            let players = first_players
                .take()
                .unwrap_or_else(|| [0, 1].map(|side| Player::new(&names[side], &binaries[side], settings.hash)));
            let events = sender.clone();
            let context = &context;
            scope.spawn(move || worker(players, context, events));
        }
        drop(sender);
        // Runs until every game thread has ended.
        for event in receiver {
            match event {
                Event::Note(text) => say(&text),
                Event::Skipped(line) => {
                    say(&format!("book line {} skipped: {}", line.line, line.error));
                    recorder.summary.book_lines_skipped.push((line.line, line.error));
                }
                Event::Fatal(error) => {
                    stop.store(true, Ordering::Relaxed);
                    failure.get_or_insert(error);
                }
                Event::Game(record, pgn) => {
                    bar.inc(1);
                    match recorder.save(&record, &pgn) {
                        Ok(running_line) => running_line.iter().for_each(|line| say(line)),
                        Err(error) => {
                            stop.store(true, Ordering::Relaxed);
                            failure.get_or_insert(error.context(format!("cannot save game {}", record.round)));
                        }
                    }
                    if recorder.concluded() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
    });
    bar.finish_and_clear();

    recorder.summary.stop = if failure.is_some() {
        StopReason::Error
    } else if recorder.concluded() {
        StopReason::Sprt
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

/// `x` without a negative zero after rounding to `decimals`, so it never prints as `-0.0`.
fn unsigned_zero(x: f64, decimals: i32) -> f64 {
    if x.abs() < 0.5 * 10f64.powi(-decimals) {
        0.0
    } else {
        x
    }
}

fn estimate_text(estimate: Option<Estimate>) -> String {
    match estimate {
        Some(estimate) => {
            let [value, low, high] = [estimate.value, estimate.low, estimate.high].map(|x| unsigned_zero(x, 1));
            format!("{value:+.1} ± {:.1} [{low:+.1}, {high:+.1}]", estimate.error())
        }
        None => "n/a (no complete pair)".to_string(),
    }
}

/// `summary.md`, also what `lab match` prints.
pub fn summary_markdown(summary: &MatchSummary) -> String {
    let [a, b] = &summary.engines;
    let mut text = format!("# Match: {} vs {}\n\n", a.name, b.name);
    let mut row = |name: &str, value: String| text.push_str(&format!("| {name} | {value} |\n"));
    row("Engines", format!("{} (`{}`) vs {} (`{}`)", a.name, a.id_name, b.name, b.id_name));
    row("Time control", summary.tc.to_string());
    row("Book", format!("{} (seed {})", summary.book, summary.seed));
    row("Games", format!("{} of {} planned ({} complete pairs)", summary.games, summary.games_planned, summary.pairs));
    row(
        &format!("W / L / D ({})", a.name),
        format!(
            "{} / {} / {}{}",
            summary.wdl.wins,
            summary.wdl.losses,
            summary.wdl.draws,
            summary.score_pct.map(|pct| format!(" ({pct:.1}%)")).unwrap_or_default()
        ),
    );
    let [ll, ld, even, wd, ww] = summary.penta.0;
    row("Pentanomial [LL, LD, DD+WL, WD, WW]", format!("[{ll}, {ld}, {even}, {wd}, {ww}]"));
    row("Elo (95%)", estimate_text(summary.elo));
    row("nElo (95%)", estimate_text(summary.nelo));
    let sprt_text = match (summary.sprt, summary.sprt_status) {
        (Some(settings), Some(status)) => format!(
            "[{}, {}] {} (alpha {}, beta {}): LLR {:.2} in ({:.2}, {:.2}), {}",
            settings.elo0,
            settings.elo1,
            settings.model,
            settings.alpha,
            settings.beta,
            unsigned_zero(status.llr, 2),
            status.lower,
            status.upper,
            status.verdict
        ),
        _ => "none".to_string(),
    };
    row("SPRT", sprt_text);
    row(
        "Stopped",
        match summary.stop {
            StopReason::Sprt => "SPRT verdict",
            StopReason::Games if summary.sprt.is_some() => "all games played, before an SPRT verdict",
            StopReason::Games => "all games played",
            StopReason::Error => "error (see the message; --resume continues)",
        }
        .to_string(),
    );
    for engine in &summary.engines {
        row(&format!("Failures: {}", engine.name), engine.failures.to_string());
    }
    let terminations: Vec<String> =
        summary.terminations.iter().map(|(kind, count)| format!("{} {count}", kind.describe())).collect();
    row("Terminations", if terminations.is_empty() { "none".to_string() } else { terminations.join(", ") });
    row(
        "Average length",
        summary
            .average_plies
            .map(|plies| format!("{plies:.1} plies ({:.1} moves)", plies / 2.0))
            .unwrap_or("n/a".into()),
    );
    if !summary.book_lines_skipped.is_empty() {
        let lines: Vec<String> = summary.book_lines_skipped.iter().map(|(line, _)| line.to_string()).collect();
        row("Book lines skipped", lines.join(", "));
    }
    row("PGN", format!("`{}`", summary.pgn.display()));
    row("Run", format!("`{}`", summary.run_dir.display()));
    text.insert_str(text.find("| Engines").unwrap_or(0), "| | |\n|---|---|\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(pair: u64, game: u8, result: GameResult, failure: Option<(&str, Termination)>) -> GameRecord {
        let (white, black) = if game == 0 { ("a", "b") } else { ("b", "a") };
        GameRecord {
            pair,
            game,
            round: 2 * pair + game as u64 + 1,
            opening_line: 7,
            white: white.into(),
            black: black.into(),
            result,
            termination: failure.map_or(Termination::Checkmate, |(_, kind)| kind),
            plies: 40,
            failure: failure.map(|(engine, kind)| Failure { engine: engine.into(), kind, detail: String::new() }),
        }
    }

    #[test]
    fn the_pentanomial_counts_complete_pairs_from_engine_a_side() {
        use GameResult::*;
        let mut tally = Tally::new(["a", "b"]);
        // Pair 0: A wins with White, draws with Black: WD.
        assert!(!tally.add(&record(0, 0, WhiteWins, None)));
        assert!(tally.add(&record(0, 1, Draw, None)));
        // Pair 1: A loses with White (on time), wins with Black: WL, counted with DD.
        assert!(!tally.add(&record(1, 0, BlackWins, Some(("a", Termination::TimeLoss)))));
        // Pair 2 finishes its second game first.
        assert!(!tally.add(&record(2, 1, WhiteWins, Some(("b", Termination::Crash)))));
        assert!(tally.add(&record(1, 1, BlackWins, None)));
        // Pair 3: only one game so far: in the W/D/L, not in the pentanomial.
        assert!(!tally.add(&record(3, 0, WhiteWins, None)));
        assert_eq!(tally.penta, Pentanomial([0, 0, 1, 1, 0]));
        assert_eq!(tally.wdl, Wdl { wins: 3, draws: 1, losses: 2 });
        assert!(tally.add(&record(2, 0, BlackWins, None)));
        assert_eq!(tally.penta, Pentanomial([1, 0, 1, 1, 0]));
        assert_eq!(tally.failures["a"], FailureCounts { time_losses: 1, ..FailureCounts::default() });
        assert_eq!(tally.failures["b"], FailureCounts { crashes: 1, ..FailureCounts::default() });
        assert_eq!(tally.failures["b"].to_string(), "0 time losses, 1 crash, 0 illegal moves, 0 protocol errors");
        assert_eq!(tally.terminations[&Termination::Checkmate], 5);
        assert_eq!(tally.games, 7);
    }

    #[test]
    fn game_records_survive_json() {
        let original = record(4, 1, GameResult::Draw, Some(("b", Termination::IllegalMove)));
        let line = serde_json::to_string(&original).unwrap();
        assert!(line.contains("\"result\":\"1/2-1/2\"") && line.contains("\"illegal_move\""), "{line}");
        assert_eq!(serde_json::from_str::<GameRecord>(&line).unwrap(), original);
    }

    #[test]
    fn match_args_defaults_and_overrides() {
        let args = MatchArgs::new("razor-r1", "baseline");
        assert_eq!(args.tc.to_string(), "10+0.1");
        assert_eq!((args.concurrency, args.seed, args.hash, args.time_margin), (1, 1, 16, 100));
        assert_eq!(adjudication(&args).unwrap(), (None, None));
        assert!(args.sprt.settings().unwrap().is_none());
        let mut args = args;
        args.resign_score = Some(500);
        args.draw_movecount = Some(4);
        args.sprt.bounds = Some(vec![0.0, 5.0]);
        args.binaries = vec!["baseline=/bin/engine".into(), "bad".into()];
        let (resign, draw) = adjudication(&args).unwrap();
        assert_eq!(resign, Some(ResignRule { movecount: 3, score: 500 }));
        assert_eq!(draw, Some(DrawRule { movenumber: 34, movecount: 4, score: 20 }));
        assert_eq!(args.sprt.settings().unwrap().unwrap().elo1, 5.0);
        args.sprt.bounds = Some(vec![5.0, 0.0]);
        assert!(args.sprt.settings().is_err());
        assert_eq!(args.binary_override("baseline").unwrap(), Some(PathBuf::from("/bin/engine")));
        assert!(args.binary_override("other").is_err(), "the malformed entry is reported");
    }
}
