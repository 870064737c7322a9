//! The UCI front end: reads commands line by line, runs each search on the
//! search thread, and writes the protocol's answers.
//!
//! The loop works over any reader and writer, so tests can drive it in
//! process as well as through the binary. Because the search runs on its own
//! thread, `isready` and `stop` are answered while it thinks.
//!
//! Each line is first read into a [`Command`] by [`Command::parse`], which
//! only reads (no search, no output, no allocation of tables), and is then
//! carried out; tests can so feed any line to the parser alone.
//!
//! Protocol choices:
//! - Bad input (an unknown command, a malformed `position` or `setoption`)
//!   is answered with `info string error: <what is wrong>` and changes
//!   nothing; a rejected `position` keeps the previous position.
//! - Every `go` is a search, as in Stockfish: a word it does not know or a
//!   parameter without a valid value is left out with an `info string
//!   warning`, and the rest is searched. It ends by itself where the line
//!   bounds it (depth, nodes, time, mate), after `stop` where it does not.
//!   `go ponder` waits for `ponderhit` (then plays on its clock) or `stop`.
//!   `searchmoves` moves that are not legal are left out with a warning;
//!   if none is legal, every move is searched.
//! - A `go` while a search is running is refused with an error: every
//!   accepted `go` gets exactly one `bestmove`, so a GUI never receives an
//!   answer it cannot match to a request.
//! - `setoption` while a search is running is refused the same way.
//! - `ucinewgame` and `quit` stop a running search first (its `bestmove` is
//!   still printed). End of input counts as `quit`.
//! - `go infinite` prints `bestmove` only after `stop`, even when the search
//!   ends earlier (on a depth bound, or mate found).
//! - Debugging extras: `d` prints the board and its FEN, `eval` the static
//!   evaluation.
//! - The variants build (`make`) has one more option, `Variant` (a combo of
//!   every variant's name): the search each later `go` runs.

use std::io::{BufRead, Read, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Instant;

use cozy_chess::{Board, Color, File, Move, Piece, Rank, Square};

use crate::eval;
use crate::features;
use crate::position::{move_from_uci, move_to_uci, shorten, Position};
use crate::score::uci_score;
use crate::search::{IterationReport, PonderHit, SearchLimits, SearchResult, Searcher};
use crate::techniques::COMPILED;
use crate::time::{limits_for, nodes_per_second, GoParams, MachineLatency};
use crate::tune::{self, Tunable};
use crate::variants::selectable::{self, Selectable};

/// The search thread's stack: the search recurses up to `MAX_PLY` deep, with
/// move lists in each frame, so the default 2 MiB is not a comfortable margin.
const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;

/// A UCI `spin` option.
struct SpinOption {
    name: &'static str,
    default: u64,
    min: u64,
    max: u64,
}

impl SpinOption {
    fn declaration(&self) -> String {
        format!("option name {} type spin default {} min {} max {}", self.name, self.default, self.min, self.max)
    }

    fn parse(&self, value: &str) -> Result<u64, String> {
        let number: i128 = value
            .parse()
            .map_err(|_| format!("setoption {}: '{}' is not a whole number", self.name, shorten(value)))?;
        if number < self.min as i128 || number > self.max as i128 {
            return Err(format!("setoption {}: {number} is out of range {}..={}", self.name, self.min, self.max));
        }
        Ok(number as u64)
    }
}

const HASH: SpinOption = SpinOption { name: "Hash", default: 16, min: 1, max: 65536 };
const THREADS: SpinOption = SpinOption { name: "Threads", default: 1, min: 1, max: 1 };
const MOVE_OVERHEAD: SpinOption = SpinOption { name: "Move Overhead", default: 10, min: 0, max: 5000 };
const SEARCH_STATS: &str = "SearchStats";
/// GUIs offer pondering only to an engine that declares it; its value
/// changes nothing here, since `go ponder` is always honoured.
const PONDER: &str = "Ponder";
const VARIANT: &str = "Variant";

/// The `id name` value: version, variant and compiled-in features, so no
/// result is ever attributed to the wrong build, e.g.
/// `prunelab 0.1.0 razor-r1 [...,razor-r1]`; the variants build names the
/// variant it searches as until `Variant` is set, and says what it is.
pub fn engine_name() -> String {
    let version = env!("CARGO_PKG_VERSION");
    match selectable::default_variant() {
        Some(variant) => format!("prunelab {version} {} (variants build, option Variant)", variant.name),
        None => format!("prunelab {version} {} [{}]", features::variant_label(), features::describe()),
    }
}

/// The longest command line read, in bytes. The longest possible game's
/// `position startpos moves ...` is under 50 KB; a longer line is refused
/// rather than held in memory however long it grows.
pub const MAX_LINE_BYTES: usize = 256 * 1024;

/// Runs the UCI loop until `quit` or the end of `input`.
pub fn run(mut input: impl BufRead, output: impl Write + Send + 'static) {
    let mut engine = Engine::new(Output::new(output));
    let mut line = Vec::new();
    loop {
        line.clear();
        // End of input or an unreadable stream: nobody is left to talk to.
        match read_line(&mut input, &mut line) {
            Ok(LineRead::End) | Err(_) => break,
            Ok(LineRead::Line) => {}
            Ok(LineRead::TooLong { ended }) => {
                engine.out.line(&format!("info string error: a line longer than {MAX_LINE_BYTES} bytes; ignored"));
                if ended {
                    break;
                }
                continue;
            }
        }
        // The clock of a `go` starts now, when its line has been read.
        let received = Instant::now();
        // Invalid UTF-8 becomes replacement characters, then an unknown command.
        if engine.execute(&String::from_utf8_lossy(&line), received) == Flow::Quit {
            break;
        }
    }
    engine.stop_search();
}

/// What [`read_line`] found.
#[derive(Debug, PartialEq, Eq)]
enum LineRead {
    /// A line of at most `MAX_LINE_BYTES` (and its end of line) is in the buffer.
    Line,
    /// The line was longer than `MAX_LINE_BYTES`: its first bytes are in the
    /// buffer, the rest was read and dropped; `ended` if the input ended in it.
    TooLong { ended: bool },
    /// The input has ended.
    End,
}

/// Reads one line into `line`, holding at most `MAX_LINE_BYTES + 1` bytes of it.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> std::io::Result<LineRead> {
    let read = Read::take(&mut *input, MAX_LINE_BYTES as u64 + 1).read_until(b'\n', line)?;
    if read == 0 {
        return Ok(LineRead::End);
    }
    if line.len() <= MAX_LINE_BYTES || line.ends_with(b"\n") {
        return Ok(LineRead::Line);
    }
    // Drop the rest of the line, a buffer at a time.
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(LineRead::TooLong { ended: true });
        }
        match buffer.iter().position(|&byte| byte == b'\n') {
            Some(end) => {
                input.consume(end + 1);
                return Ok(LineRead::TooLong { ended: false });
            }
            None => {
                let length = buffer.len();
                input.consume(length);
            }
        }
    }
}

/// Whether the loop goes on after a command.
#[derive(Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// A command line read into what it asks for; nothing has been carried out.
#[derive(Debug)]
pub enum Command {
    Uci,
    IsReady,
    /// `debug on|off`: accepted, and changes nothing.
    Debug(bool),
    SetOption(OptionSetting),
    UciNewGame,
    /// The position with every move played, and the FEN's repair warnings.
    Position {
        position: Position,
        warnings: Vec<String>,
    },
    /// A search, and what of its line was left out.
    Go {
        params: GoParams,
        warnings: Vec<String>,
    },
    /// The opponent played the move the engine ponders on.
    PonderHit,
    Stop,
    Quit,
    /// `d`: print the board.
    Display,
    /// `eval`: print the static evaluation.
    Eval,
    /// `trace [moves...] [suppress technique[@ply]...]`: record the
    /// search's decisions along this line from the current position, not
    /// taking the suppressed ones (a `trace` build; none: stop tracing).
    Trace(Vec<String>),
}

/// A `setoption` whose name and value are known to be valid.
#[derive(Debug)]
pub enum OptionSetting {
    HashMb(u64),
    /// Only one thread is supported, so the one valid value changes nothing.
    Threads,
    MoveOverheadMs(u64),
    SearchStats(bool),
    /// Accepted and kept by the GUI; `go ponder` works either way.
    Ponder,
    /// The variants build's search for every later `go`.
    Variant(&'static Selectable),
    /// A tuning build's tunable; its range is checked when it is set.
    Tunable(&'static Tunable, i32),
}

impl Command {
    /// Reads one command line; `Ok(None)` for a blank line. Bad input is an
    /// error saying what is wrong, ready to be printed after `info string error: `.
    pub fn parse(line: &str) -> Result<Option<Command>, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.split_first() {
            None => Ok(None),
            Some((&name, args)) => Command::from_words(name, args).map(Some),
        }
    }

    /// The command `name` with its arguments `args`.
    fn from_words(name: &str, args: &[&str]) -> Result<Command, String> {
        let command = match name {
            "uci" => Command::Uci,
            "isready" => Command::IsReady,
            "debug" => match args {
                ["on"] => Command::Debug(true),
                ["off"] => Command::Debug(false),
                _ => return Err("debug: expected 'on' or 'off'".to_string()),
            },
            "setoption" => Command::SetOption(parse_option_setting(args)?),
            "ucinewgame" => Command::UciNewGame,
            "position" => {
                let (position, warnings) = parse_position(args)?;
                Command::Position { position, warnings }
            }
            "go" => {
                let (params, warnings) = GoParams::parse(args);
                Command::Go { params, warnings }
            }
            "ponderhit" => Command::PonderHit,
            "stop" => Command::Stop,
            "quit" => Command::Quit,
            "d" => Command::Display,
            "eval" => Command::Eval,
            "trace" => Command::Trace(args.iter().map(|word| word.to_string()).collect()),
            other => return Err(format!("unknown command '{}'", shorten(other))),
        };
        Ok(command)
    }
}

/// The output, shared by the command loop and the search thread; every line
/// is written and flushed whole under the lock.
#[derive(Clone)]
struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    fn new(writer: impl Write + Send + 'static) -> Self {
        Output(Arc::new(Mutex::new(Box::new(writer))))
    }

    fn line(&self, text: &str) {
        // A poisoned lock only means another writer panicked mid-line; the
        // writer itself is still usable.
        let mut writer = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // If the GUI has closed our output there is nobody to tell; the end of
        // input follows and ends the loop.
        let _ = writeln!(writer, "{text}").and_then(|()| writer.flush());
    }
}

/// Option values the loop keeps between searches.
struct Options {
    hash_mb: u64,
    move_overhead_ms: u64,
    search_stats: bool,
    /// The variants build's chosen variant; `None` in a build of one feature
    /// set, which searches with its compiled set.
    variant: Option<&'static Selectable>,
}

/// A search running on the search thread.
struct ActiveSearch {
    stop: Arc<AtomicBool>,
    /// When the `go` line was read (the `ponderhit`, for a ponder search
    /// that became ours).
    received: Instant,
    /// A `go ponder` search: its `ponderhit`.
    ponder: Option<Arc<PonderHit>>,
    /// The side to move's clock and increment (ms), if the search is on one.
    clock: Option<(Color, u64, u64)>,
    /// Set just before `bestmove` is written: from then on the search is over
    /// for the GUI, even if the thread has not quite handed the searcher back.
    answered: Arc<AtomicBool>,
}

/// The search thread, started once and kept: a `go` hands it a job and the
/// searcher through a channel, and it hands the searcher back when the job
/// is done. No thread is created between `go` and the search's first node
/// (on a busy machine a new thread can wait a scheduling period to run).
struct SearchThread {
    jobs: mpsc::Sender<(SearchJob, Searcher)>,
    /// The searcher handed back, and when `bestmove` was written.
    finished: mpsc::Receiver<(Searcher, Instant)>,
    handle: JoinHandle<()>,
}

impl SearchThread {
    fn start() -> std::io::Result<SearchThread> {
        let (jobs, queue) = mpsc::channel::<(SearchJob, Searcher)>();
        let (done, finished) = mpsc::channel();
        let handle =
            thread::Builder::new().name("search".to_string()).stack_size(SEARCH_STACK_BYTES).spawn(move || {
                for (job, mut searcher) in queue {
                    let answered = job.run(&mut searcher);
                    if done.send((searcher, answered)).is_err() {
                        break;
                    }
                }
            })?;
        Ok(SearchThread { jobs, finished, handle })
    }
}

struct Engine {
    out: Output,
    position: Position,
    options: Options,
    /// `None` while the search thread has it.
    searcher: Option<Searcher>,
    search: Option<ActiveSearch>,
    /// Started by the first `go`.
    search_thread: Option<SearchThread>,
    /// What a move on a clock costs beyond the engine's own time.
    latency: MachineLatency,
    /// The largest clock each side has had this game (White, Black), in
    /// milliseconds: the reserve keeps a share of it at most.
    starting_clocks: [u64; 2],
}

impl Engine {
    fn new(out: Output) -> Self {
        Engine {
            out,
            position: Position::startpos(),
            options: Options {
                hash_mb: HASH.default,
                move_overhead_ms: MOVE_OVERHEAD.default,
                search_stats: false,
                variant: selectable::default_variant(),
            },
            searcher: Some(Searcher::new(HASH.default as usize)),
            search: None,
            search_thread: None,
            latency: MachineLatency::default(),
            starting_clocks: [0; 2],
        }
    }

    /// Carries out one command line, read at `received`.
    fn execute(&mut self, line: &str, received: Instant) -> Flow {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&name, args)) = words.split_first() else {
            return Flow::Continue;
        };
        self.collect_finished_search();
        let outcome = match self.refusal_while_searching(name) {
            Some(refusal) => Err(refusal),
            None => Command::from_words(name, args).and_then(|command| self.carry_out(command, received)),
        };
        outcome.unwrap_or_else(|message| {
            self.out.line(&format!("info string error: {message}"));
            Flow::Continue
        })
    }

    /// `go` and `setoption` during a search are refused before they are
    /// read, so the answer does not depend on what they say.
    fn refusal_while_searching(&self, name: &str) -> Option<String> {
        if !self.is_searching() {
            return None;
        }
        match name {
            "go" => Some("go: already searching; send stop first".to_string()),
            "setoption" => Some("setoption: not allowed while searching; send stop first".to_string()),
            "trace" => Some("trace: not allowed while searching; send stop first".to_string()),
            _ => None,
        }
    }

    fn carry_out(&mut self, command: Command, received: Instant) -> Result<Flow, String> {
        match command {
            Command::Uci => self.print_identity(),
            Command::IsReady => self.out.line("readyok"),
            Command::Debug(_) => {}
            Command::SetOption(setting) => self.set_option(setting)?,
            Command::UciNewGame => {
                self.stop_search();
                self.searcher_mut().new_game();
                self.latency.new_game();
                self.starting_clocks = [0; 2];
            }
            Command::Position { position, warnings } => {
                for warning in warnings {
                    self.out.line(&format!("info string warning: {warning}"));
                }
                self.position = position;
            }
            Command::Go { params, warnings } => {
                for warning in warnings {
                    self.out.line(&format!("info string warning: {warning}"));
                }
                self.go(&params, received)?
            }
            Command::PonderHit => self.ponder_hit(received)?,
            Command::Stop => self.stop_search(),
            Command::Quit => return Ok(Flow::Quit),
            Command::Display => self.display(),
            Command::Eval => {
                let score = eval::evaluate(self.position.board());
                self.out.line(&format!("info string eval: {score} cp (side to move)"));
            }
            Command::Trace(words) => self.set_trace(&words)?,
        }
        Ok(Flow::Continue)
    }

    fn print_identity(&self) {
        self.out.line(&format!("id name {}", engine_name()));
        self.out.line("id author the prunelab authors");
        for spin in [&HASH, &THREADS, &MOVE_OVERHEAD] {
            self.out.line(&spin.declaration());
        }
        self.out.line(&format!("option name {PONDER} type check default false"));
        self.out.line(&format!("option name {SEARCH_STATS} type check default false"));
        if let Some(default) = selectable::default_variant() {
            let choices: Vec<String> =
                selectable::all().iter().map(|variant| format!("var {}", variant.name)).collect();
            self.out.line(&format!("option name {VARIANT} type combo default {} {}", default.name, choices.join(" ")));
        }
        // A tuning build exposes the compiled techniques' tunables.
        if tune::TUNING {
            for tunable in tune::compiled_tunables() {
                self.out.line(&tunable.uci_option());
            }
        }
        self.out.line("uciok");
    }

    /// The searcher, which is home whenever no search runs.
    fn searcher_mut(&mut self) -> &mut Searcher {
        let hash_mb = self.options.hash_mb as usize;
        self.searcher.get_or_insert_with(|| Searcher::new(hash_mb))
    }

    fn is_searching(&self) -> bool {
        self.search.is_some()
    }

    /// Takes the searcher back from a search that has printed its `bestmove`,
    /// so a `go` sent right after it is not refused as "already searching".
    fn collect_finished_search(&mut self) {
        if self.search.as_ref().is_some_and(|search| search.answered.load(Ordering::SeqCst)) {
            self.stop_search();
        }
    }

    /// Stops the running search, if any, and waits for its `bestmove`.
    fn stop_search(&mut self) {
        let Some(search) = self.search.take() else {
            return;
        };
        search.stop.store(true, Ordering::SeqCst);
        let Some(search_thread) = &self.search_thread else {
            return;
        };
        // Wakes an infinite search that finished early and waits for `stop`.
        search_thread.handle.thread().unpark();
        // The thread catches the search's panics, so it can end only if
        // printing itself panicked; start afresh then.
        match search_thread.finished.recv() {
            Ok((searcher, answered)) => {
                self.searcher = Some(searcher);
                if let Some((side, clock_ms, increment_ms)) = search.clock {
                    let used_ms = answered.saturating_duration_since(search.received).as_millis() as u64;
                    self.latency.played(side, clock_ms, increment_ms, used_ms);
                }
            }
            Err(_) => {
                self.search_thread = None;
                self.searcher = Some(Searcher::new(self.options.hash_mb as usize));
            }
        }
    }

    fn set_option(&mut self, setting: OptionSetting) -> Result<(), String> {
        match setting {
            OptionSetting::HashMb(mb) => {
                let kept = self.options.hash_mb;
                self.searcher_mut()
                    .set_hash(mb as usize)
                    .map_err(|error| format!("setoption Hash: {error}; keeping {kept} MiB"))?;
                self.options.hash_mb = mb;
            }
            OptionSetting::Threads => {}
            OptionSetting::MoveOverheadMs(ms) => self.options.move_overhead_ms = ms,
            OptionSetting::SearchStats(on) => self.options.search_stats = on,
            OptionSetting::Ponder => {}
            OptionSetting::Variant(variant) => self.options.variant = Some(variant),
            OptionSetting::Tunable(tunable, value) => {
                tunable.set(value).map_err(|error| format!("setoption {error}"))?
            }
        }
        Ok(())
    }

    /// `trace`: the moves from the current position, each legal in turn,
    /// and the decisions on their line a replay does not take.
    fn set_trace(&mut self, words: &[String]) -> Result<(), String> {
        if !crate::trace::TRACING {
            return Err("trace: this build has no `trace` feature (build with --features trace)".to_string());
        }
        let request = crate::trace::TraceRequest::parse(&self.position, words)?;
        self.searcher_mut().set_trace(request);
        Ok(())
    }

    fn go(&mut self, params: &GoParams, received: Instant) -> Result<(), String> {
        let side_to_move = self.position.board().side_to_move();
        let on_clock = !params.infinite && params.movetime_ms.is_none();
        // Only the side's own clock tells the latency; the other side's,
        // played on when the GUI sent no other, does not.
        let clock = params.clock(side_to_move).filter(|_| on_clock);
        self.latency.observe(side_to_move, clock.map(|(time, _)| time));
        let starting_clock = &mut self.starting_clocks[side_to_move as usize];
        if let Some((time, _)) = params.clock_to_play_on(side_to_move) {
            *starting_clock = (*starting_clock).max(time);
        }
        let move_cost_ms = self.options.move_overhead_ms.max(self.latency.estimate_ms());
        let mut limits = limits_for(params, side_to_move, move_cost_ms, *starting_clock, received);
        limits.root_moves = self.root_moves(&params.searchmoves);
        limits.ponder = params.ponder.then(|| Arc::new(PonderHit::default()));
        let ponder = limits.ponder.clone();
        let job = SearchJob {
            position: self.position.clone(),
            limits,
            infinite: params.infinite,
            print_stats: self.options.search_stats,
            variant: self.options.variant,
            hash_mb: self.options.hash_mb as usize,
            out: self.out.clone(),
            stop: Arc::new(AtomicBool::new(false)),
            answered: Arc::new(AtomicBool::new(false)),
        };
        let stop = Arc::clone(&job.stop);
        let answered = Arc::clone(&job.answered);
        let hash_mb = job.hash_mb;
        let mut work = (job, self.searcher.take().unwrap_or_else(|| Searcher::new(hash_mb)));
        // A thread that has ended (see `stop_search`) is replaced once.
        for _ in 0..2 {
            let search_thread = match self.search_thread.take() {
                Some(search_thread) => search_thread,
                None => match SearchThread::start() {
                    Ok(search_thread) => search_thread,
                    Err(error) => {
                        self.searcher = Some(work.1);
                        return Err(format!("go: could not start the search thread: {error}"));
                    }
                },
            };
            match search_thread.jobs.send(work) {
                Ok(()) => {
                    self.search_thread = Some(search_thread);
                    let clock = clock.map(|(time, increment)| (side_to_move, time, increment));
                    self.search = Some(ActiveSearch { stop, received, ponder, clock, answered });
                    return Ok(());
                }
                Err(mpsc::SendError(returned)) => work = returned,
            }
        }
        self.searcher = Some(work.1);
        Err("go: the search thread could not be started".to_string())
    }

    /// The root moves of `go searchmoves`: the legal ones of `moves`, each
    /// one left out said so; `None` (every move) when none is given or legal.
    fn root_moves(&self, moves: &[String]) -> Option<Vec<Move>> {
        if moves.is_empty() {
            return None;
        }
        let board = self.position.board();
        let mut legal = Vec::new();
        for text in moves {
            match move_from_uci(board, text) {
                Ok(mv) if !legal.contains(&mv) => legal.push(mv),
                Ok(_) => {}
                Err(error) => {
                    self.out.line(&format!("info string warning: go searchmoves '{}': {error}; ignored", shorten(text)))
                }
            }
        }
        if legal.is_empty() {
            self.out.line("info string warning: go searchmoves: no legal move given; searching every move");
            return None;
        }
        Some(legal)
    }

    /// `ponderhit`: the ponder search becomes the engine's own, on its
    /// clock from now; one already finished answers at once.
    fn ponder_hit(&mut self, received: Instant) -> Result<(), String> {
        let Some(search) = self.search.as_mut() else {
            return Err("ponderhit: no search is running".to_string());
        };
        let Some(ponder) = &search.ponder else {
            return Err("ponderhit: the search running is not pondering".to_string());
        };
        ponder.hit(received);
        search.received = received;
        if let Some(search_thread) = &self.search_thread {
            search_thread.handle.thread().unpark();
        }
        Ok(())
    }

    /// `d`: the board, its FEN and what is going on in it.
    fn display(&self) {
        let board = self.position.board();
        let border = "  +-----------------+";
        self.out.line(border);
        for rank in Rank::ALL.iter().rev() {
            let squares: Vec<String> =
                File::ALL.iter().map(|&file| piece_letter(board, Square::new(file, *rank)).to_string()).collect();
            self.out.line(&format!("{} | {} |", *rank as usize + 1, squares.join(" ")));
        }
        self.out.line(border);
        self.out.line("    a b c d e f g h");
        self.out.line(&format!("Fen: {board}"));
        self.out.line(&format!("Key: {:016x}", board.hash()));
        let checkers: Vec<String> = board.checkers().into_iter().map(|square| square.to_string()).collect();
        self.out.line(&format!("Checkers: {}", checkers.join(" ")));
    }
}

/// Everything a search thread needs, moved into it.
struct SearchJob {
    position: Position,
    limits: SearchLimits,
    /// `go infinite`: hold `bestmove` back until `stop`.
    infinite: bool,
    print_stats: bool,
    variant: Option<&'static Selectable>,
    hash_mb: usize,
    out: Output,
    stop: Arc<AtomicBool>,
    answered: Arc<AtomicBool>,
}

impl SearchJob {
    /// Whether the search, ended, still waits to write `bestmove`: an
    /// infinite one until `stop`, a ponder one until `ponderhit` or `stop`.
    fn holds_bestmove(&self) -> bool {
        let pondering = self.limits.ponder.as_ref().is_some_and(|ponder| ponder.hit_at().is_none());
        (self.infinite || pondering) && !self.stop.load(Ordering::SeqCst)
    }

    /// Searches and writes `bestmove`; returns when it was written.
    fn run(self, searcher: &mut Searcher) -> Instant {
        let root = self.position.board();
        let out = &self.out;
        let searched = panic::catch_unwind(AssertUnwindSafe(|| {
            let on_iteration = &mut |report: &IterationReport| out.line(&info_line(report));
            match self.variant {
                Some(variant) => (variant.search)(searcher, &self.position, &self.limits, &self.stop, on_iteration),
                None => searcher.search(&self.position, &self.limits, &self.stop, on_iteration),
            }
        }));
        let result = match searched {
            Ok(result) => Some(result),
            Err(payload) => {
                // The engine goes on: report, start a fresh searcher, and still
                // answer with a legal move so the game is not lost on a hang.
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|text| text.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                out.line(&format!("info string error: the search panicked: {message}"));
                *searcher = Searcher::new(self.hash_mb);
                None
            }
        };
        while self.holds_bestmove() {
            // `stop_search` sets the flag (`ponder_hit` marks the hit), then
            // unparks this thread.
            thread::park();
        }
        let bestmove = match result {
            Some(result) => {
                if result.best_move.is_none() {
                    let score = if root.checkers().is_empty() { "cp 0" } else { "mate 0" };
                    out.line(&format!("info depth 0 score {score}"));
                }
                if self.print_stats {
                    let techniques = self.variant.map_or(&COMPILED, |variant| &variant.techniques);
                    for line in result.stats.report_lines_for(techniques) {
                        out.line(&format!("info string {line}"));
                    }
                }
                for event in &result.trace {
                    out.line(&format!("info string trace {event}"));
                }
                bestmove_line(root, &result)
            }
            None => {
                let fallback = first_legal_move(root).map_or("0000".to_string(), |mv| move_to_uci(root, mv));
                format!("bestmove {fallback}")
            }
        };
        self.answered.store(true, Ordering::SeqCst);
        out.line(&bestmove);
        Instant::now()
    }
}

/// `info depth .. seldepth .. score .. nodes .. nps .. hashfull .. time .. pv ..`
pub fn info_line(report: &IterationReport) -> String {
    let mut line = format!(
        "info depth {} seldepth {} score {} nodes {} nps {} hashfull {} time {}",
        report.depth,
        report.seldepth,
        uci_score(report.score),
        report.nodes,
        nodes_per_second(report.nodes, report.elapsed),
        report.tt.hashfull(),
        report.elapsed.as_millis(),
    );
    let pv = pv_to_uci(report.root, report.pv);
    if !pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&pv.join(" "));
    }
    line
}

/// The PV in standard UCI notation (castling as `e1g1`), replayed on a copy
/// of the root so each move is written against its own position. Stops at
/// the first move that is not legal where it stands, rather than print nonsense.
pub fn pv_to_uci(root: &Board, pv: &[Move]) -> Vec<String> {
    let mut board = root.clone();
    let mut moves = Vec::with_capacity(pv.len());
    for &mv in pv {
        if !board.is_legal(mv) {
            break;
        }
        moves.push(move_to_uci(&board, mv));
        board.play_unchecked(mv);
    }
    moves
}

/// `bestmove X [ponder Y]`, `bestmove 0000` when the root has no legal move.
pub fn bestmove_line(root: &Board, result: &SearchResult) -> String {
    let Some(best) = result.best_move else {
        return "bestmove 0000".to_string();
    };
    let mut line = format!("bestmove {}", move_to_uci(root, best));
    if let Some(ponder) = result.ponder_move {
        let mut after = root.clone();
        if after.try_play(best).is_ok() && after.is_legal(ponder) {
            line.push_str(&format!(" ponder {}", move_to_uci(&after, ponder)));
        }
    }
    line
}

fn first_legal_move(board: &Board) -> Option<Move> {
    let mut first = None;
    board.generate_moves(|moves| {
        first = moves.into_iter().next();
        first.is_some()
    });
    first
}

/// `setoption name <name> [value <value>]`: the option and its checked
/// value; names are case-insensitive.
fn parse_option_setting(args: &[&str]) -> Result<OptionSetting, String> {
    let (name, value) = parse_setoption(args)?;
    let value = value.as_deref();
    let need_value = |option: &str| value.ok_or_else(|| format!("setoption {option}: missing value"));
    let setting = match name.to_ascii_lowercase().as_str() {
        "hash" => OptionSetting::HashMb(HASH.parse(need_value(HASH.name)?)?),
        "threads" => {
            THREADS.parse(need_value(THREADS.name)?)?;
            OptionSetting::Threads
        }
        "move overhead" => OptionSetting::MoveOverheadMs(MOVE_OVERHEAD.parse(need_value(MOVE_OVERHEAD.name)?)?),
        "searchstats" => OptionSetting::SearchStats(parse_check(SEARCH_STATS, need_value(SEARCH_STATS)?)?),
        "ponder" => {
            parse_check(PONDER, need_value(PONDER)?)?;
            OptionSetting::Ponder
        }
        "variant" => OptionSetting::Variant(
            selectable::find(need_value(VARIANT)?).map_err(|error| format!("setoption {VARIANT}: {error}"))?,
        ),
        _ => match tune::find(&name).filter(|_| tune::TUNING) {
            Some(tunable) => {
                let text = need_value(tunable.name())?;
                let number: i32 = text
                    .parse()
                    .map_err(|_| format!("setoption {}: '{}' is not a whole number", tunable.name(), shorten(text)))?;
                OptionSetting::Tunable(tunable, number)
            }
            None => return Err(format!("setoption: unknown option '{}'", shorten(&name))),
        },
    };
    Ok(setting)
}

/// A `check` option's value: `true` or `false`, in any case.
fn parse_check(option: &str, text: &str) -> Result<bool, String> {
    match text.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("setoption {option}: '{}' is not true or false", shorten(text))),
    }
}

/// Splits `setoption` arguments into the name and the optional value; both
/// may contain spaces (`name Move Overhead value 30`).
fn parse_setoption(args: &[&str]) -> Result<(String, Option<String>), String> {
    let Some(("name", rest)) = args.split_first().map(|(first, rest)| (*first, rest)) else {
        return Err("setoption: expected 'setoption name <name> [value <value>]'".to_string());
    };
    let (name, value) = match rest.iter().position(|&word| word == "value") {
        Some(at) => (&rest[..at], Some(rest[at + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err("setoption: missing option name".to_string());
    }
    if value.as_deref() == Some("") {
        return Err(format!("setoption {}: missing value after 'value'", shorten(&name.join(" "))));
    }
    Ok((name.join(" "), value))
}

/// `position startpos|fen <fen> [moves <move>...]`, all or nothing: a bad FEN
/// or any bad move rejects the whole command. Returns the FEN's repair warnings.
pub fn parse_position(args: &[&str]) -> Result<(Position, Vec<String>), String> {
    let moves_at = args.iter().position(|&word| word == "moves");
    let (setup, moves) = match moves_at {
        Some(at) => (&args[..at], &args[at + 1..]),
        None => (args, &[][..]),
    };
    let (mut position, warnings) = match setup {
        ["startpos"] => (Position::startpos(), Vec::new()),
        ["startpos", extra, ..] => {
            return Err(format!("position startpos: unexpected '{}' (moves go after 'moves')", shorten(extra)))
        }
        ["fen"] => return Err("position fen: missing FEN".to_string()),
        ["fen", fen @ ..] => {
            Position::from_fen_with_warnings(&fen.join(" ")).map_err(|error| format!("position fen: {error}"))?
        }
        [] => return Err("position: expected 'startpos' or 'fen <fen>'".to_string()),
        [other, ..] => return Err(format!("position: expected 'startpos' or 'fen', got '{}'", shorten(other))),
    };
    for (index, text) in moves.iter().enumerate() {
        position
            .play_uci(text)
            .map_err(|error| format!("position: move {} ('{}'): {error}", index + 1, shorten(text)))?;
    }
    Ok((position, warnings))
}

/// The FEN letter of the piece on `square`, `.` when empty.
fn piece_letter(board: &Board, square: Square) -> char {
    let (Some(piece), Some(color)) = (board.piece_on(square), board.color_on(square)) else {
        return '.';
    };
    let letter = match piece {
        Piece::Pawn => 'p',
        Piece::Knight => 'n',
        Piece::Bishop => 'b',
        Piece::Rook => 'r',
        Piece::Queen => 'q',
        Piece::King => 'k',
    };
    match color {
        Color::White => letter.to_ascii_uppercase(),
        Color::Black => letter,
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    /// A writer the test can read back after `run` returns.
    #[derive(Clone, Default)]
    struct SharedBuffer(Arc<Mutex<Vec<u8>>>);

    impl Write for SharedBuffer {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Runs the loop over `script` and returns every output line.
    fn session(script: &str) -> Vec<String> {
        let buffer = SharedBuffer::default();
        run(Cursor::new(script.to_string()), buffer.clone());
        let bytes = buffer.0.lock().unwrap().clone();
        String::from_utf8(bytes).unwrap().lines().map(str::to_string).collect()
    }

    fn words(text: &str) -> Vec<&str> {
        text.split_whitespace().collect()
    }

    #[test]
    fn uci_lists_identity_and_options() {
        let lines = session("uci\n");
        assert_eq!(lines.first().unwrap(), &format!("id name {}", engine_name()));
        assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 65536".to_string()));
        assert!(lines.contains(&"option name Threads type spin default 1 min 1 max 1".to_string()));
        assert!(lines.contains(&"option name Move Overhead type spin default 10 min 0 max 5000".to_string()));
        assert!(lines.contains(&"option name SearchStats type check default false".to_string()));
        assert_eq!(lines.last().unwrap(), "uciok");
    }

    #[test]
    fn a_line_longer_than_the_bound_is_refused_and_the_loop_goes_on() {
        let refusal = format!("info string error: a line longer than {MAX_LINE_BYTES} bytes; ignored");
        let long = "x".repeat(MAX_LINE_BYTES + 1);
        assert_eq!(session(&format!("{long}\nisready\n")), [refusal.as_str(), "readyok"]);
        // Ten times the bound, then the end of input inside the line.
        assert_eq!(session(&format!("isready\n{}", "y".repeat(10 * MAX_LINE_BYTES))), ["readyok", refusal.as_str()]);
        // A line of exactly the bound is read (an unknown command here).
        let at_bound = "z".repeat(MAX_LINE_BYTES);
        let lines = session(&format!("{at_bound}\nisready\n"));
        assert!(lines[0].starts_with("info string error: unknown command 'zzz"), "{}", lines[0]);
        assert_eq!(lines[1], "readyok");
    }

    #[test]
    fn errors_do_not_stop_the_loop() {
        let lines = session("\n   \nfoo bar\n\u{2654}\nisready\n");
        assert_eq!(
            lines,
            ["info string error: unknown command 'foo'", "info string error: unknown command '\u{2654}'", "readyok"]
        );
    }

    #[test]
    fn quit_ends_the_loop() {
        assert_eq!(session("quit\nisready\n"), Vec::<String>::new());
    }

    #[test]
    fn a_rejected_position_keeps_the_previous_one() {
        let lines = session("position startpos moves e2e4\nposition startpos moves e7e5\nd\n");
        assert!(lines[0].starts_with("info string error: position: move 1 ('e7e5')"), "{}", lines[0]);
        let fen = lines.iter().find(|line| line.starts_with("Fen: ")).unwrap();
        assert_eq!(fen, "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    }

    #[test]
    fn parses_positions() {
        let (position, warnings) = parse_position(&words("startpos moves e2e4 e7e5 g1f3")).unwrap();
        assert!(warnings.is_empty());
        assert_eq!(position.history().len(), 3);
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let (position, _) = parse_position(&words(&format!("fen {fen} moves e1g1"))).unwrap();
        assert_eq!(position.board().to_string(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
        assert!(parse_position(&words("startpos moves")).is_ok());
    }

    #[test]
    fn refuses_malformed_positions() {
        for bad in [
            "",
            "fen",
            "fen 8/8/8/8/8/8/8/8 w - - 0 1",
            "fen garbage",
            "startpos e2e4",
            "startpos moves e2e5",
            "startpos moves e2e4 zz",
            "startpo",
            "moves e2e4",
        ] {
            assert!(parse_position(&words(bad)).is_err(), "accepted 'position {bad}'");
        }
    }

    #[test]
    fn reads_command_lines_without_carrying_them_out() {
        assert!(matches!(Command::parse(" \t\r\n"), Ok(None)));
        assert!(matches!(Command::parse("debug on"), Ok(Some(Command::Debug(true)))));
        assert!(matches!(
            Command::parse("setoption name move overhead value 30"),
            Ok(Some(Command::SetOption(OptionSetting::MoveOverheadMs(30))))
        ));
        assert!(matches!(
            Command::parse("go depth 3"),
            Ok(Some(Command::Go { params: GoParams { depth: Some(3), .. }, .. }))
        ));
        // Read, not started: reading a line can never hang.
        assert!(matches!(
            Command::parse("go infinite"),
            Ok(Some(Command::Go { params: GoParams { infinite: true, .. }, .. }))
        ));
        let Ok(Some(Command::Position { position, warnings })) = Command::parse("position startpos moves e2e4") else {
            panic!("position startpos moves e2e4 is refused");
        };
        assert_eq!((position.history().len(), warnings.len()), (1, 0));
        assert_eq!(
            Command::parse("setoption name Hash value 0").unwrap_err(),
            "setoption Hash: 0 is out of range 1..=65536"
        );
        assert_eq!(Command::parse("foo bar").unwrap_err(), "unknown command 'foo'");
    }

    #[test]
    fn go_and_setoption_during_a_search_are_refused_before_they_are_read() {
        let lines = session("go infinite\nsetoption name Hash value 0\ngo banana\nstop\n");
        let errors: Vec<&String> = lines.iter().filter(|line| line.starts_with("info string error")).collect();
        assert_eq!(
            errors,
            [
                "info string error: setoption: not allowed while searching; send stop first",
                "info string error: go: already searching; send stop first",
            ]
        );
        assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    }

    #[test]
    fn parses_setoption() {
        assert_eq!(
            parse_setoption(&words("name Move Overhead value 30")).unwrap(),
            ("Move Overhead".to_string(), Some("30".to_string()))
        );
        assert_eq!(parse_setoption(&words("name Clear Hash")).unwrap(), ("Clear Hash".to_string(), None));
        for bad in ["", "Hash value 3", "name", "name value 3", "name Hash value"] {
            assert!(parse_setoption(&words(bad)).is_err(), "accepted 'setoption {bad}'");
        }
    }

    #[test]
    fn setoption_checks_names_and_ranges() {
        let lines = session(
            "setoption name hash value 32\n\
             setoption name Hash value 0\n\
             setoption name Hash value 65537\n\
             setoption name Hash value lots\n\
             setoption name Threads value 2\n\
             setoption name Move Overhead value -1\n\
             setoption name SearchStats value maybe\n\
             setoption name SearchStats value TRUE\n\
             setoption name Nope value 1\n",
        );
        assert_eq!(
            lines,
            [
                "info string error: setoption Hash: 0 is out of range 1..=65536",
                "info string error: setoption Hash: 65537 is out of range 1..=65536",
                "info string error: setoption Hash: 'lots' is not a whole number",
                "info string error: setoption Threads: 2 is out of range 1..=1",
                "info string error: setoption Move Overhead: -1 is out of range 0..=5000",
                "info string error: setoption SearchStats: 'maybe' is not true or false",
                "info string error: setoption: unknown option 'Nope'",
            ]
        );
    }

    #[test]
    fn pv_is_written_with_standard_castling() {
        let board: Board = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
        let castle_short = Move { from: Square::E1, to: Square::H1, promotion: None };
        let castle_long = Move { from: Square::E8, to: Square::A8, promotion: None };
        let illegal = Move { from: Square::A1, to: Square::H8, promotion: None };
        assert_eq!(pv_to_uci(&board, &[castle_short, castle_long, illegal]), ["e1g1", "e8c8"]);
    }
}
