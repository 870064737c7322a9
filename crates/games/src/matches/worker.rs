//! A game thread: it takes pairs from the schedule and plays them with its
//! own two engine processes, and tells the main thread what happened.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::anyhow;
use cozy_chess::Color;

use super::book::SkippedLine;
use super::game::{play_game, GameSettings, Player};
use super::pgn::{game_to_pgn, PgnContext};
use super::records::{record_of, GameRecord};
use super::schedule::Schedule;

/// An engine that cannot be started this many times in a row stops the match.
const MAX_START_FAILURES: u32 = 3;

/// What the game threads tell the main thread.
pub enum Event {
    /// A finished game: its record and its PGN.
    Game(Box<GameRecord>, String),
    /// A line for the user, such as an engine failure and its restart.
    Note(String),
    /// A book line that is not a position.
    Skipped(SkippedLine),
    /// The game thread cannot go on; the match stops.
    Fatal(anyhow::Error),
}

/// Shared by the game threads.
pub struct WorkerContext<'a> {
    pub schedule: &'a Mutex<Schedule>,
    pub settings: &'a GameSettings,
    /// Set when the match stops: the threads take no further game.
    pub stop: &'a AtomicBool,
    /// When the time budget runs out: the threads take no further pair
    /// after it, and finish the one they play.
    pub deadline: Option<Instant>,
    /// The PGN `Event` and `Date`.
    pub event: &'a str,
    pub date: &'a str,
    /// Whether the PGN has `{score/depth time}` comments.
    pub comments: bool,
}

/// A game thread: takes pairs from the schedule until none is left or the
/// match stops, with its own two engine processes.
pub fn worker(mut players: [Player; 2], context: &WorkerContext, events: Sender<Event>) {
    let mut start_failures = [0u32; 2];
    loop {
        let budget_spent = context.deadline.is_some_and(|deadline| Instant::now() >= deadline);
        if context.stop.load(Ordering::Relaxed) || budget_spent {
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
            let (seats, first_engine_plays) = if game == 0 { ([a, b], Color::White) } else { ([b, a], Color::Black) };
            let seat_tcs = context.settings.seat_tcs(first_engine_plays);
            let Some(played) = play_game(seats, seat_tcs, &job.opening, context.settings, context.stop) else {
                return;
            };
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
