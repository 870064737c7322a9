//! Ctrl-C (SIGINT), SIGTERM and a closed terminal (SIGHUP) stop a lab
//! command cleanly: every engine it started is killed, every result it
//! finished stays on disk whole, and it says how to continue.
//!
//! The handler of the three signals only writes the signal's number to a
//! pipe; a thread of its own reads it there and does the rest, outside the
//! handler. (Blocking the signals and `sigwait`ing instead would pass the
//! blocked mask on to every engine, cargo and git the lab starts.) On a
//! signal that thread lets no engine start, gives the results finished a
//! moment ago a quarter of a second to reach the disk, waits for the
//! records being written ([`writing`]: a game's record and its PGN are
//! one), lets no new one start, kills every engine's process group, prints
//! where the results are and exits with 128 + the signal's number (130
//! for SIGINT, 143 for SIGTERM, 129 for SIGHUP). Nothing half-measured is recorded: a
//! game or search in progress is simply not there, and `--resume` plays it.
//!
//! Each engine runs in a process group of its own ([`spawn`]), so the
//! terminal's Ctrl-C reaches the lab alone, never an engine in the middle
//! of a game the lab would then count as a crash; and killing the group
//! kills what an engine started itself (a script's `sleep`, a wrapper's
//! child).

use std::cell::Cell;
use std::collections::BTreeSet;
use std::io;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// The signals that stop the lab.
const STOPPING_SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// Set once a signal came: no engine starts.
static STOPPING: AtomicBool = AtomicBool::new(false);
/// Set a moment later: no record starts.
static CLOSED: AtomicBool = AtomicBool::new(false);
/// How long results finished before the signal have to reach the disk: a
/// game's record crosses a channel to the thread that writes it. Every
/// engine still runs meanwhile, so whatever is recorded is a true result.
const GRACE: Duration = Duration::from_millis(250);
/// Threads inside [`writing`] now.
static WRITERS: AtomicUsize = AtomicUsize::new(0);
/// The process group of every engine running now (its leader's pid).
static ENGINES: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());
/// The command's run folder: the first one it made or resumed.
static RUN: OnceLock<PathBuf> = OnceLock::new();
/// Whether the command takes `--resume`.
static RESUMABLE: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// How deep this thread is in nested [`writing`] sections.
    static WRITING_DEPTH: Cell<usize> = const { Cell::new(0) };
}

/// The pipe's writing end, through which the handler passes a signal on.
static SIGNAL_PIPE: AtomicI32 = AtomicI32::new(-1);

/// Handles the stopping signals and starts the thread that acts on them.
/// Called first in `main`. `resumable`: whether the command takes
/// `--resume`, which the last words then name.
pub fn install(resumable: bool) {
    RESUMABLE.store(resumable, Ordering::SeqCst);
    let mut ends = [0 as libc::c_int; 2];
    // SAFETY: `ends` has room for the two descriptors pipe2 writes.
    let piped = unsafe { libc::pipe2(ends.as_mut_ptr(), libc::O_CLOEXEC) };
    assert_eq!(piped, 0, "cannot make the signal pipe");
    let [reading, writing] = ends;
    SIGNAL_PIPE.store(writing, Ordering::SeqCst);
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || loop {
            let mut signal = 0u8;
            // SAFETY: one byte is read into `signal`.
            let read = unsafe { libc::read(reading, (&mut signal as *mut u8).cast(), 1) };
            if read == 1 {
                stop(libc::c_int::from(signal));
            }
        })
        .expect("cannot start the thread that acts on signals");
    for signal in STOPPING_SIGNALS {
        // SAFETY: the action is fully initialized; the handler only writes
        // to a pipe, which is async-signal-safe. SA_RESTART: the other
        // threads' reads and writes go on as if no signal had come.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = pass_on as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            assert_eq!(libc::sigaction(signal, &action, std::ptr::null_mut()), 0, "cannot handle signal {signal}");
        }
    }
}

/// The signal handler: the signal's number down the pipe, nothing else.
/// A handled signal is reset to its default in a program the lab starts,
/// so engines, cargo and git keep their own reactions to it.
extern "C" fn pass_on(signal: libc::c_int) {
    let byte = signal as u8;
    // SAFETY: write is async-signal-safe; a failed write loses nothing the
    // next signal would not repeat.
    unsafe { libc::write(SIGNAL_PIPE.load(Ordering::SeqCst), (&byte as *const u8).cast(), 1) };
}

/// What the lab does on a stopping signal; never returns.
fn stop(signal: libc::c_int) -> ! {
    STOPPING.store(true, Ordering::SeqCst);
    std::thread::sleep(GRACE);
    CLOSED.store(true, Ordering::SeqCst);
    // A record being written is finished first; none starts now.
    while WRITERS.load(Ordering::SeqCst) > 0 {
        std::thread::sleep(Duration::from_millis(1));
    }
    // Held to the end: an engine being started now is registered before
    // this lock is had, or never starts.
    let engines = ENGINES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    for &group in engines.iter() {
        kill_process_group(group);
    }
    eprintln!("\n{}", last_words(signal_name(signal), RUN.get().map(PathBuf::as_path)));
    std::process::exit(128 + signal)
}

fn signal_name(signal: libc::c_int) -> &'static str {
    match signal {
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        _ => "SIGHUP",
    }
}

/// What the lab says as it stops.
fn last_words(signal: &str, run: Option<&Path>) -> String {
    let stopped = format!("lab: stopped by {signal}: every engine it started is stopped");
    match run {
        None => format!("{stopped}; nothing was recorded yet"),
        Some(run) if RESUMABLE.load(Ordering::SeqCst) => format!(
            "{stopped}, and every finished result is kept in {run}; the same command with `--resume {run}` \
             continues it",
            run = run.display()
        ),
        Some(run) => format!(
            "{stopped}, and every finished measurement is kept under {}; this command has no --resume: run it \
             again to measure anew",
            run.display()
        ),
    }
}

/// Notes the command's run folder, the first one made or resumed (a
/// command's steps make theirs inside it, or after it).
pub fn note_run(path: &Path) {
    let _ = RUN.set(path.to_path_buf());
}

/// A section that writes a result; while one runs, a signal waits for it.
#[must_use = "the section ends when the guard is dropped"]
pub struct Writing(());

/// Enters a section that writes a result (sections nest). Once a signal
/// came and its grace passed, no section starts: the thread waits for the
/// lab to exit.
pub fn writing() -> Writing {
    WRITING_DEPTH.with(|depth| {
        if depth.get() == 0 {
            // Counted before the flag is read: the stopping thread either
            // sees this writer, or this writer sees the flag.
            WRITERS.fetch_add(1, Ordering::SeqCst);
            if CLOSED.load(Ordering::SeqCst) {
                WRITERS.fetch_sub(1, Ordering::SeqCst);
                wait_for_exit();
            }
        }
        depth.set(depth.get() + 1);
    });
    Writing(())
}

impl Drop for Writing {
    fn drop(&mut self) {
        WRITING_DEPTH.with(|depth| {
            depth.set(depth.get() - 1);
            if depth.get() == 0 {
                WRITERS.fetch_sub(1, Ordering::SeqCst);
            }
        });
    }
}

fn wait_for_exit() -> ! {
    loop {
        std::thread::park();
    }
}

/// Spawns an engine in a process group of its own, registered so that a
/// stopping signal kills it and whatever it started. Call [`forget`] once
/// the process has been waited for.
pub fn spawn(command: &mut Command) -> io::Result<Child> {
    let mut engines = ENGINES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if STOPPING.load(Ordering::SeqCst) {
        drop(engines);
        wait_for_exit();
    }
    let child = command.process_group(0).spawn()?;
    engines.insert(child.id());
    Ok(child)
}

/// Kills a process [`spawn`] started, and every process in its group,
/// before it is waited for.
pub fn kill_group(child: &Child) {
    kill_process_group(child.id());
}

fn kill_process_group(group: u32) {
    // SAFETY: kill has no memory effects; a group gone already is ESRCH.
    unsafe { libc::kill(-(group as libc::pid_t), libc::SIGKILL) };
}

/// Takes a process [`spawn`] started off the list, once it was waited for.
pub fn forget(child: &Child) {
    ENGINES.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).remove(&child.id());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_words_say_where_the_results_are_and_how_to_continue() {
        let run = Path::new("lab-results/20261128T060000Z-match");
        assert_eq!(
            last_words("SIGINT", None),
            "lab: stopped by SIGINT: every engine it started is stopped; nothing was recorded yet"
        );
        RESUMABLE.store(true, Ordering::SeqCst);
        assert_eq!(
            last_words("SIGTERM", Some(run)),
            "lab: stopped by SIGTERM: every engine it started is stopped, and every finished result is kept in \
             lab-results/20261128T060000Z-match; the same command with `--resume \
             lab-results/20261128T060000Z-match` continues it"
        );
        RESUMABLE.store(false, Ordering::SeqCst);
        assert_eq!(
            last_words("SIGHUP", Some(run)),
            "lab: stopped by SIGHUP: every engine it started is stopped, and every finished measurement is kept \
             under lab-results/20261128T060000Z-match; this command has no --resume: run it again to measure anew"
        );
    }
}
