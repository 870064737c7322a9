//! A UCI engine as a child process: handshake, options, searches with a
//! deadline, and the `info` lines parsed. Every failure says which engine
//! failed and how (it exited, it stopped answering, it broke the protocol),
//! so a match can count it by name instead of losing the game silently.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context, Result};

use crate::uci_options::{self, OptionSpec, Setting};

/// How long an engine may take to answer `uci` or `isready`.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Why an engine stopped taking part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineFailure {
    /// The process ended (crash, panic, killed).
    Exited,
    /// No answer before the deadline.
    Timeout,
    /// An answer that is not UCI (for example a `bestmove` without a move).
    Protocol(String),
}

impl std::fmt::Display for EngineFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineFailure::Exited => write!(f, "the engine process exited"),
            EngineFailure::Timeout => write!(f, "the engine stopped answering"),
            EngineFailure::Protocol(what) => write!(f, "protocol error: {what}"),
        }
    }
}

impl std::error::Error for EngineFailure {}

/// A score as UCI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Score {
    Cp(i32),
    Mate(i32),
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(moves) => write!(f, "mate {moves}"),
        }
    }
}

impl Score {
    /// White-or-black-independent centipawn value for adjudication; mates are
    /// far beyond any material score.
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(moves) if moves > 0 => 100_000 - moves,
            Score::Mate(moves) => -100_000 - moves,
        }
    }
}

/// One `info` line with a depth (the lines a search reports per iteration).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    /// `None` when the line gave no `nodes`.
    pub nodes: Option<u64>,
    pub time_ms: u64,
    pub nps: u64,
    pub score: Option<Score>,
    pub pv: Vec<String>,
}

impl Info {
    /// Parses `info ...` with a `depth`; other info lines give `None`.
    pub fn parse(line: &str) -> Option<Info> {
        let mut words = line.split_whitespace();
        if words.next() != Some("info") {
            return None;
        }
        let mut info = Info::default();
        let mut has_depth = false;
        let mut first = true;
        while let Some(word) = words.next() {
            // `info string ...` is text, not a report. UCI makes `string`
            // take the rest of any line, but some engines (SeaJay) put a
            // `string` note amid a report and its `nodes` and `pv` after it:
            // there the note's words are passed over like unknown tokens.
            if word == "string" && std::mem::take(&mut first) {
                return None;
            }
            first = false;
            match word {
                "depth" => {
                    info.depth = words.next()?.parse().ok()?;
                    has_depth = true;
                }
                "seldepth" => info.seldepth = words.next()?.parse().ok()?,
                "nodes" => info.nodes = Some(words.next()?.parse().ok()?),
                "time" => info.time_ms = words.next()?.parse().ok()?,
                "nps" => info.nps = words.next()?.parse().ok()?,
                "score" => {
                    let kind = words.next()?;
                    let value: i32 = words.next()?.parse().ok()?;
                    info.score = match kind {
                        "cp" => Some(Score::Cp(value)),
                        "mate" => Some(Score::Mate(value)),
                        _ => None,
                    };
                }
                "pv" => {
                    info.pv = words.by_ref().map(str::to_string).collect();
                }
                _ => {}
            }
        }
        has_depth.then_some(info)
    }
}

/// How to start an engine: its binary, and the UCI options set after the
/// handshake (a `uci:PATH@Name=value` participant's, or a variant of another
/// engine's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Launch {
    pub binary: PathBuf,
    pub settings: Vec<Setting>,
}

impl From<PathBuf> for Launch {
    fn from(binary: PathBuf) -> Launch {
        Launch { binary, settings: Vec::new() }
    }
}

impl From<&Path> for Launch {
    fn from(binary: &Path) -> Launch {
        Launch::from(binary.to_path_buf())
    }
}

/// What one `go` produced.
#[derive(Clone, Debug, Default)]
pub struct SearchOutput {
    pub bestmove: String,
    pub ponder: Option<String>,
    /// Every `info ... depth ...` line, in order.
    pub infos: Vec<Info>,
    /// Every `info string` text (without the prefix), in order.
    pub strings: Vec<String>,
    /// Wall time from sending `go` to reading `bestmove`.
    pub elapsed: Duration,
    /// The engine process's CPU time (all its threads) over the same span,
    /// where the system gives another process's CPU time (Linux).
    pub cpu: Option<Duration>,
    /// Whether the engine had `SearchStats` on: its `info string`s then
    /// carry telemetry in the plans' formats.
    pub search_stats: bool,
}

impl SearchOutput {
    /// The last iteration's report (the one with the most nodes).
    pub fn last_info(&self) -> Option<&Info> {
        self.infos.last()
    }

    /// The score of the last report that has one.
    pub fn score(&self) -> Option<Score> {
        self.infos.iter().rev().find_map(|info| info.score)
    }
}

/// A running UCI engine.
pub struct Engine {
    name: String,
    path: PathBuf,
    id_name: String,
    /// The options the engine offered in its handshake (`option name X type ...`).
    options: Vec<OptionSpec>,
    /// Whether `SearchStats` was set to true.
    search_stats: bool,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    /// Starts `path`, performs the `uci` handshake, and names the engine
    /// `name` in every error.
    pub fn start(path: &Path, name: &str) -> Result<Engine> {
        let mut command = Command::new(path);
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        let mut child = crate::interrupt::spawn(&mut command)
            .with_context(|| format!("{name}: cannot start {}", path.display()))?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            name: name.to_string(),
            path: path.to_path_buf(),
            id_name: String::new(),
            options: Vec::new(),
            search_stats: false,
            child,
            stdin,
            lines,
        };
        engine.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let line = engine.read_line(deadline)?;
            if let Some(id) = line.strip_prefix("id name ") {
                engine.id_name = id.trim().to_string();
            } else if let Some(option) = OptionSpec::parse(&line) {
                engine.options.push(option);
            } else if line.trim() == "uciok" {
                break;
            }
        }
        Ok(engine)
    }

    /// Starts `launch.binary` as [`Engine::start`] does, then sets its
    /// options once all of them are checked against the engine's offer.
    pub fn launch(launch: &Launch, name: &str) -> Result<Engine> {
        let mut engine = Engine::start(&launch.binary, name)?;
        engine.apply(&launch.settings)?;
        Ok(engine)
    }

    /// Sets `settings` once all of them are checked against the options
    /// the engine offered.
    pub fn apply(&mut self, settings: &[Setting]) -> Result<()> {
        for setting in uci_options::check(&self.name, &self.options, settings)? {
            self.set_option(&setting.name, &setting.value)?;
        }
        Ok(())
    }

    /// The engine's own `id name`.
    pub fn id_name(&self) -> &str {
        &self.id_name
    }

    /// The options the engine offered in its handshake.
    pub fn options(&self) -> &[OptionSpec] {
        &self.options
    }

    /// Whether the engine offered the option `name` (UCI option names are
    /// case-insensitive).
    pub fn offers_option(&self, name: &str) -> bool {
        self.options.iter().any(|option| option.name.eq_ignore_ascii_case(name))
    }

    /// Sends one command line.
    pub fn send(&mut self, command: &str) -> Result<()> {
        writeln!(self.stdin, "{command}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| self.failure(EngineFailure::Exited, command))
    }

    fn failure(&self, failure: EngineFailure, doing: &str) -> anyhow::Error {
        anyhow!(failure).context(format!("engine {} ({}) during `{doing}`", self.name, self.path.display()))
    }

    fn read_line(&mut self, deadline: Instant) -> Result<String> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(self.failure(EngineFailure::Timeout, "reading")),
            Err(RecvTimeoutError::Disconnected) => Err(self.failure(EngineFailure::Exited, "reading")),
        }
    }

    /// `isready`, waiting for `readyok`; `info string` lines before it (for
    /// example errors about an option) are returned.
    pub fn sync(&mut self) -> Result<Vec<String>> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let mut strings = Vec::new();
        loop {
            let line = self.read_line(deadline)?;
            if line.trim() == "readyok" {
                return Ok(strings);
            }
            if let Some(text) = line.strip_prefix("info string ") {
                strings.push(text.to_string());
            }
        }
    }

    /// Sets an option and fails if the engine reports an error about it.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<()> {
        self.send(&format!("setoption name {name} value {value}"))?;
        let strings = self.sync()?;
        if let Some(error) = strings.iter().find(|text| text.starts_with("error")) {
            return Err(self.failure(EngineFailure::Protocol(error.clone()), &format!("setoption {name}")));
        }
        if name.eq_ignore_ascii_case("SearchStats") {
            self.search_stats = value == "true";
        }
        Ok(())
    }

    /// `ucinewgame` and wait until the engine is ready.
    pub fn new_game(&mut self) -> Result<()> {
        self.send("ucinewgame")?;
        self.sync().map(drop)
    }

    /// Sends `position` and `go`, and collects everything until `bestmove`.
    /// A search that runs past `timeout` is an [`EngineFailure::Timeout`].
    pub fn go(&mut self, position: &str, go: &str, timeout: Duration) -> Result<SearchOutput> {
        self.send(position)?;
        let cpu_before = self.cpu_time();
        let started = Instant::now();
        self.send(go)?;
        let deadline = started + timeout;
        let mut output = SearchOutput { search_stats: self.search_stats, ..SearchOutput::default() };
        loop {
            let line = self.read_line(deadline)?;
            if let Some(text) = line.strip_prefix("info string ") {
                output.strings.push(text.to_string());
            } else if let Some(info) = Info::parse(&line) {
                output.infos.push(info);
            } else if let Some(rest) = line.strip_prefix("bestmove") {
                output.elapsed = started.elapsed();
                output.cpu = self.cpu_time().zip(cpu_before).map(|(after, before)| after.saturating_sub(before));
                let mut words = rest.split_whitespace();
                output.bestmove = words
                    .next()
                    .ok_or_else(|| self.failure(EngineFailure::Protocol("`bestmove` without a move".into()), go))?
                    .to_string();
                if words.next() == Some("ponder") {
                    output.ponder = words.next().map(str::to_string);
                }
                return Ok(output);
            }
        }
    }
}

impl Engine {
    /// The CPU time the engine process has used so far, all threads.
    fn cpu_time(&self) -> Option<Duration> {
        process_cpu_time(self.child.id())
    }
}

/// Waits for `child` to exit and returns its status with the CPU time it
/// used, user and system (`wait4`'s resource usage; none elsewhere).
#[cfg(target_os = "linux")]
pub fn wait_with_cpu_time(
    child: &mut std::process::Child,
) -> (std::io::Result<std::process::ExitStatus>, Option<Duration>) {
    use std::os::unix::process::ExitStatusExt;
    let mut status: libc::c_int = 0;
    // SAFETY: `usage` is plain data that wait4 fills; the pid is our own
    // child's, not waited for yet, and `child` is never waited for after.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    if waited < 0 {
        return (Err(std::io::Error::last_os_error()), None);
    }
    let time = |value: libc::timeval| Duration::new(value.tv_sec as u64, value.tv_usec as u32 * 1000);
    (Ok(std::process::ExitStatus::from_raw(status)), Some(time(usage.ru_utime) + time(usage.ru_stime)))
}

#[cfg(not(target_os = "linux"))]
pub fn wait_with_cpu_time(
    child: &mut std::process::Child,
) -> (std::io::Result<std::process::ExitStatus>, Option<Duration>) {
    (child.wait(), None)
}

/// The CPU time process `pid` has used so far, all its threads: its CPU-time
/// clock (`clock_getcpuclockid`), which counts only while it runs, so a
/// search's CPU time does not grow when the machine runs other work beside it.
#[cfg(target_os = "linux")]
pub fn process_cpu_time(pid: u32) -> Option<Duration> {
    let mut clock: libc::clockid_t = 0;
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: both calls only write the out-parameters given to them.
    unsafe {
        if libc::clock_getcpuclockid(pid as libc::pid_t, &mut clock) != 0 || libc::clock_gettime(clock, &mut now) != 0 {
            return None;
        }
    }
    Some(Duration::new(now.tv_sec as u64, now.tv_nsec as u32))
}

/// No other process's CPU time here: time to depth falls back to wall time.
#[cfg(not(target_os = "linux"))]
pub fn process_cpu_time(_pid: u32) -> Option<Duration> {
    None
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Ask politely, then make sure: a lab run never leaves engines behind.
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_millis(500);
        let mut exited = false;
        while !exited && Instant::now() < deadline {
            exited = !matches!(self.child.try_wait(), Ok(None));
            if !exited {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        if !exited {
            crate::interrupt::kill_group(&self.child);
            let _ = self.child.wait();
        }
        crate::interrupt::forget(&self.child);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_parse() {
        let info =
            Info::parse("info depth 7 seldepth 12 multipv 1 score mate -3 nodes 1234 nps 99 time 12 pv e2e4 e7e5")
                .unwrap();
        assert_eq!(info.depth, 7);
        assert_eq!(info.seldepth, 12);
        assert_eq!(info.score, Some(Score::Mate(-3)));
        assert_eq!(info.nodes, Some(1234));
        // A report without `nodes` says so, rather than 0.
        assert_eq!(Info::parse("info depth 2 score cp 5 pv e2e4").unwrap().nodes, None);
        assert_eq!(info.time_ms, 12);
        assert_eq!(info.pv, ["e2e4", "e7e5"]);
        assert_eq!(Info::parse("info string depth 3"), None);
        // SeaJay's reports carry `string` notes amid their fields.
        let seajay = Info::parse(
            "info depth 5 seldepth 7 score cp 36 string fail-low(2) bound [-116,64] string unstable ebf 6.31 \
             nodes 2047 nps 2047000 time 0 moveeff 88.66 tthits 85.34 hashfull 0 pv b1c3 b8c6",
        )
        .unwrap();
        assert_eq!((seajay.depth, seajay.nodes, seajay.score), (5, Some(2047), Some(Score::Cp(36))));
        assert_eq!(seajay.pv, ["b1c3", "b8c6"]);
        assert_eq!(Info::parse("info nodes 3"), None);
        assert_eq!(Info::parse("info depth x"), None);
    }
}
