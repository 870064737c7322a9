//! Time management: the `go` command's parameters and the search limits they
//! imply.
//!
//! Everything here is plain arithmetic on milliseconds, so it is unit-tested
//! without a clock. The search gets two deadlines, both counted from the
//! moment the `go` line was read (`SearchLimits::start`):
//! - the soft limit: do not start another iteration after it (the next one
//!   would most likely not finish anyway);
//! - the hard limit: abort the iteration in progress.
//!
//! The clock keeps a **reserve** the engine never plans to spend, as
//! Stockfish, Ethereal, Toga II and SeaJay do: a few increments plus a
//! margin for the stalls of a busy machine (a descheduled process, a slow
//! pipe, a GUI that reads late). Only what lies above the reserve (and the
//! move overhead) is shared out over the moves still to play, and even the
//! hard limit never reaches into it. So the engine does not live on its
//! increment with a clock near zero, where a stall of 50 to 100 ms flags: at
//! 5+0.05 the clock settles above 0.5 s, at 1+0.01 above 0.18 s.

use std::time::{Duration, Instant};

use cozy_chess::Color;

use crate::position::shorten;
use crate::score::MAX_PLY;
use crate::search::SearchLimits;

/// Moves we assume are still to play when the clock has no `movestogo`.
/// Also the most we spread the time over when it does, so a long
/// `movestogo` does not make us play too fast.
pub const SUDDEN_DEATH_MOVES: u64 = 25;
/// Share of the increment added to each move's plan, in percent.
pub const INCREMENT_SHARE_PERCENT: u64 = 75;
/// The reserve is this many increments...
pub const RESERVE_INCREMENTS: u64 = 8;
/// ...but the increments kept are never more than this share of the
/// starting clock...
pub const RESERVE_INCREMENTS_MAX_CLOCK_PERCENT: u64 = 25;
/// ...plus this many milliseconds, for stalls the move overhead does not
/// cover.
pub const RESERVE_STALL_MS: u64 = 100;
/// The soft limit never exceeds this share of the time above the reserve...
pub const SOFT_MAX_PERCENT: u64 = 40;
/// ...plus this share of the increment, so a clock at its reserve still
/// thinks a little, and wins back the rest of the increment. A short
/// search also finishes before a busy machine's scheduler interrupts it.
pub const SOFT_MAX_INCREMENT_PERCENT: u64 = 10;
/// The hard limit is this many times the soft limit...
pub const HARD_SOFT_FACTOR: u64 = 3;
/// ...but never more than this share of the time above the reserve...
pub const HARD_MAX_PERCENT: u64 = 70;
/// ...plus this share of the increment (the increment comes back after the
/// move, so a search that runs to its hard limit dips into the reserve by
/// a quarter of an increment at most)...
pub const HARD_MAX_INCREMENT_PERCENT: u64 = 25;
/// ...and never more than this share of the clock (after overhead), for a
/// clock below its reserve.
pub const HARD_MAX_CLOCK_PERCENT: u64 = 70;
/// No limit is ever below this, so even a flagging clock gets a move.
pub const MIN_BUDGET_MS: u64 = 1;
/// No limit is ever above this (about 11.5 days), so `Instant + limit`
/// cannot overflow whatever number a GUI sends.
pub const MAX_BUDGET_MS: u64 = 1_000_000_000;

/// The parameters of one `go` command. Times are in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
    pub wtime_ms: Option<u64>,
    pub btime_ms: Option<u64>,
    pub winc_ms: Option<u64>,
    pub binc_ms: Option<u64>,
    pub movestogo: Option<u64>,
    /// `mate N`: stop once a mate in at most N moves is found.
    pub mate: Option<u64>,
    /// `searchmoves`: only these root moves, as written (checked against
    /// the position when the search starts).
    pub searchmoves: Vec<String>,
    /// `ponder`: search on the opponent's time; the clock starts at
    /// `ponderhit`, and `bestmove` waits for it or for `stop`.
    pub ponder: bool,
    /// Search until `stop`; `bestmove` is not printed before it. Also set
    /// by `depth 0`, which bounds nothing.
    pub infinite: bool,
}

/// Every word `go` knows; `searchmoves` reads moves up to the next of them.
const GO_KEYWORDS: [&str; 12] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

impl GoParams {
    /// Reads the words after `go`, as Stockfish does: whatever the line says,
    /// it is a search that will answer with `bestmove`. A word `go` does not
    /// know, or a parameter without a valid value, is left out, with a
    /// warning saying so (the second value). A repeated parameter keeps its
    /// last value.
    ///
    /// Clock values may be negative (some GUIs send that once a clock has run
    /// out) and are read as 0; `nodes`, `movestogo` and `mate` must be at
    /// least 1; `depth 0` bounds nothing, so the search waits for `stop`.
    pub fn parse(args: &[&str]) -> (GoParams, Vec<String>) {
        let mut params = GoParams::default();
        let mut warnings = Vec::new();
        let mut words = args.iter().copied().peekable();
        while let Some(keyword) = words.next() {
            // A value is never a keyword: `go depth wtime 10` keeps the clock.
            let value = match words.peek() {
                Some(next) if !GO_KEYWORDS.contains(next) => Some(*next),
                _ => None,
            };
            let read = match keyword {
                "infinite" => {
                    params.infinite = true;
                    continue;
                }
                "ponder" => {
                    params.ponder = true;
                    continue;
                }
                "searchmoves" => {
                    while let Some(mv) = words.next_if(|word| !GO_KEYWORDS.contains(word)) {
                        params.searchmoves.push(mv.to_string());
                    }
                    if params.searchmoves.is_empty() {
                        warnings.push("go searchmoves: no move given; searching every move".to_string());
                    }
                    continue;
                }
                "depth" => parse_depth(value).map(|depth| match depth {
                    0 => params.infinite = true,
                    depth => params.depth = Some(depth.min(MAX_PLY as u64) as i32),
                }),
                "nodes" => parse_count(value).map(|count| params.nodes = Some(count)),
                "movestogo" => parse_count(value).map(|count| params.movestogo = Some(count)),
                "mate" => parse_count(value).map(|moves| params.mate = Some(moves)),
                "movetime" => parse_clock(value).map(|ms| params.movetime_ms = Some(ms)),
                "wtime" => parse_clock(value).map(|ms| params.wtime_ms = Some(ms)),
                "btime" => parse_clock(value).map(|ms| params.btime_ms = Some(ms)),
                "winc" => parse_clock(value).map(|ms| params.winc_ms = Some(ms)),
                "binc" => parse_clock(value).map(|ms| params.binc_ms = Some(ms)),
                other => {
                    warnings.push(format!("go: unknown word '{}' ignored", shorten(other)));
                    continue;
                }
            };
            if value.is_some() {
                words.next();
            }
            if let Err(problem) = read {
                warnings.push(format!("go {keyword}: {problem}; ignored"));
            }
        }
        (params, warnings)
    }

    /// `(time, increment)` of `side`'s clock in milliseconds, if it has one.
    pub fn clock(&self, side: Color) -> Option<(u64, u64)> {
        let (time, increment) = match side {
            Color::White => (self.wtime_ms, self.winc_ms),
            Color::Black => (self.btime_ms, self.binc_ms),
        };
        time.map(|time| (time, increment.unwrap_or(0)))
    }

    /// The clock `side` plays on: its own, or, when the GUI gave only the
    /// other side's, that one (a clock that bounds the search, rather than
    /// none).
    pub fn clock_to_play_on(&self, side: Color) -> Option<(u64, u64)> {
        self.clock(side).or_else(|| self.clock(!side))
    }

    /// Whether the search waits for `stop` (or `ponderhit`) before it prints
    /// `bestmove`, even when it ends by itself.
    pub fn waits_for_stop(&self) -> bool {
        self.infinite || self.ponder
    }
}

/// A depth: a whole number, 0 included (no bound).
fn parse_depth(value: Option<&str>) -> Result<u64, String> {
    let text = value.ok_or("missing value")?;
    match text.parse::<u64>() {
        Ok(depth) => Ok(depth),
        Err(_) if text.parse::<i128>().is_ok() => Err(format!("must be at least 0, got {text}")),
        Err(_) => Err(format!("'{}' is not a whole number in range", shorten(text))),
    }
}

/// A count that must be a whole number of at least 1.
fn parse_count(value: Option<&str>) -> Result<u64, String> {
    let text = value.ok_or("missing value")?;
    match text.parse::<u64>() {
        Ok(0) => Err("must be at least 1, got 0".to_string()),
        Ok(count) => Ok(count),
        Err(_) if text.parse::<i128>().is_ok_and(|n| n < 0) => Err(format!("must be at least 1, got {text}")),
        Err(_) => Err(format!("'{}' is not a whole number in range", shorten(text))),
    }
}

/// A clock value in milliseconds; negative values are read as 0.
fn parse_clock(value: Option<&str>) -> Result<u64, String> {
    let text = value.ok_or("missing value")?;
    match text.parse::<i64>() {
        Ok(ms) => Ok(ms.max(0) as u64),
        Err(_) => Err(format!("'{}' is not a whole number of milliseconds in range", shorten(text))),
    }
}

/// The search limits for `go` with `side_to_move` to play.
///
/// `infinite` (and `depth 0`) drops all time limits (depth, nodes and mate
/// still apply). A `movetime` takes precedence over the clocks. A clock
/// given only for the other side is played on as ours. The limits count
/// from `received`, the moment the `go` line was read; each move on a clock
/// costs `move_cost_ms` beyond the engine's own time (see [`clock_budget`]),
/// and `starting_clock_ms` is the largest clock the side has had this game
/// (it bounds the reserve). `ponder` and `searchmoves` are the caller's: the
/// one needs the `ponderhit`, the other the position.
pub fn limits_for(
    go: &GoParams,
    side_to_move: Color,
    move_cost_ms: u64,
    starting_clock_ms: u64,
    received: Instant,
) -> SearchLimits {
    let mut limits = SearchLimits {
        depth: go.depth,
        nodes: go.nodes,
        mate_moves: go.mate,
        start: Some(received),
        ..SearchLimits::default()
    };
    if go.infinite {
        return limits;
    }
    let budget = if let Some(movetime) = go.movetime_ms {
        let spend = movetime.saturating_sub(move_cost_ms);
        Some((spend, spend))
    } else {
        go.clock_to_play_on(side_to_move).map(|(time, increment)| {
            let clock = GameClock { time_ms: time, increment_ms: increment, starting_ms: starting_clock_ms.max(time) };
            clock_budget(clock, go.movestogo, move_cost_ms)
        })
    };
    if let Some((soft_ms, hard_ms)) = budget {
        let clamp = |ms: u64| Duration::from_millis(ms.clamp(MIN_BUDGET_MS, MAX_BUDGET_MS));
        limits.soft_time = Some(clamp(soft_ms));
        limits.hard_time = Some(clamp(hard_ms));
    }
    limits
}

/// A side's clock when a move starts, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClock {
    pub time_ms: u64,
    pub increment_ms: u64,
    /// The clock the game started with (the largest seen): the reserve's
    /// increments never keep more than a share of it.
    pub starting_ms: u64,
}

impl GameClock {
    /// A clock whose game started with `time_ms`.
    pub fn starting(time_ms: u64, increment_ms: u64) -> GameClock {
        GameClock { time_ms, increment_ms, starting_ms: time_ms }
    }
}

/// The part of the clock the engine keeps and never plans to spend, in
/// milliseconds: the increments (at most a share of the starting clock,
/// or at 10+5 eight increments would be four times the clock and the
/// opening would be played on a tenth of the increment), the stall margin,
/// and what each of the `moves_left` moves costs beyond its increment (a
/// move that costs `move_cost_ms` of the clock however fast the engine
/// answers).
pub fn reserve(clock: GameClock, move_cost_ms: u64, moves_left: u64) -> u64 {
    let increments = clock
        .increment_ms
        .saturating_mul(RESERVE_INCREMENTS)
        .min(percent_of(clock.starting_ms, RESERVE_INCREMENTS_MAX_CLOCK_PERCENT));
    let unpaid_cost = move_cost_ms.saturating_sub(clock.increment_ms).saturating_mul(moves_left);
    increments.saturating_add(RESERVE_STALL_MS).saturating_add(unpaid_cost)
}

/// `(soft, hard)` in milliseconds for a move on `clock`, when each move
/// costs `move_cost_ms` of it beyond the engine's own thinking (the `Move
/// Overhead` setting, or the latency measured, if more).
///
/// The move's cost and the reserve come off the clock first; the plan is
/// an even share of what is left over the moves still to play, plus most of
/// the increment. The caps keep one move from eating that share when little
/// is left: a clock near its reserve spends a tenth of the increment, so
/// the clock climbs back, and even the hard limit leaves the reserve (less
/// a quarter of an increment, which the move then wins back).
pub fn clock_budget(clock: GameClock, movestogo: Option<u64>, move_cost_ms: u64) -> (u64, u64) {
    let increment_ms = clock.increment_ms;
    let available = clock.time_ms.saturating_sub(move_cost_ms);
    let moves_left = movestogo.map_or(SUDDEN_DEATH_MOVES, |moves| moves.clamp(1, SUDDEN_DEATH_MOVES));
    let spendable = available.saturating_sub(reserve(clock, move_cost_ms, moves_left));
    let planned = (spendable / moves_left).saturating_add(percent_of(increment_ms, INCREMENT_SHARE_PERCENT));
    let soft_cap =
        percent_of(spendable, SOFT_MAX_PERCENT).saturating_add(percent_of(increment_ms, SOFT_MAX_INCREMENT_PERCENT));
    let hard_cap = percent_of(spendable, HARD_MAX_PERCENT)
        .saturating_add(percent_of(increment_ms, HARD_MAX_INCREMENT_PERCENT))
        .min(percent_of(available, HARD_MAX_CLOCK_PERCENT));
    let soft = planned.min(soft_cap).max(MIN_BUDGET_MS);
    let hard = soft.saturating_mul(HARD_SOFT_FACTOR).min(hard_cap).max(MIN_BUDGET_MS);
    (soft.min(hard), hard)
}

/// A move the engine played on a clock, to compare with the next clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ClockedMove {
    side: Color,
    clock_ms: u64,
    increment_ms: u64,
    /// From reading `go` to writing `bestmove`, as the engine measured it.
    used_ms: u64,
}

/// What a move costs the clock beyond the engine's own thinking, measured.
///
/// The GUI charges a move from sending `go` to reading `bestmove`; the
/// engine sees only from reading `go` to writing `bestmove`. On a busy
/// machine the difference (the processes waiting to run) can be tens of
/// milliseconds a move, more than a fast time control's increment. The next
/// `go` on the same side tells it: the clock the engine expected (the last
/// clock, less its own time, plus the increment) less the clock it is
/// given. The estimate follows a rise at once and a fall slowly (a quarter
/// of the way each move), and starts afresh with each game.
#[derive(Clone, Debug, Default)]
pub struct MachineLatency {
    last_move: Option<ClockedMove>,
    estimate_ms: u64,
}

impl MachineLatency {
    /// A loss larger than this is not latency (a new game without
    /// `ucinewgame`, a GUI that changed the clock) and is ignored.
    pub const MAX_MS: u64 = 1_000;

    /// The latency a move is expected to cost, in milliseconds.
    pub fn estimate_ms(&self) -> u64 {
        self.estimate_ms
    }

    /// A `go` gives `side` a clock of `clock_ms` (`None`: no clock, which
    /// breaks the chain of moves to compare).
    pub fn observe(&mut self, side: Color, clock_ms: Option<u64>) {
        let last = self.last_move.take();
        let (Some(last), Some(clock_ms)) = (last, clock_ms) else {
            return;
        };
        if last.side != side {
            return;
        }
        let expected = (last.clock_ms + last.increment_ms).saturating_sub(last.used_ms);
        let lost = expected.saturating_sub(clock_ms);
        if clock_ms > expected || lost > Self::MAX_MS {
            return;
        }
        self.estimate_ms = lost.max((3 * self.estimate_ms + lost) / 4);
    }

    /// The engine played a move for `side` on a clock of `clock_ms`, using
    /// `used_ms` by its own measure.
    pub fn played(&mut self, side: Color, clock_ms: u64, increment_ms: u64, used_ms: u64) {
        self.last_move = Some(ClockedMove { side, clock_ms, increment_ms, used_ms });
    }

    /// `ucinewgame`: the next clock is not comparable with the last, and the
    /// estimate starts afresh (the machine's load may have changed between
    /// games; a new stall is followed at once anyway).
    pub fn new_game(&mut self) {
        *self = MachineLatency::default();
    }
}

/// `percent` percent of `value`, rounded down, without overflow.
fn percent_of(value: u64, percent: u64) -> u64 {
    (value as u128 * percent as u128 / 100) as u64
}

/// Nodes per second, 0 for an empty interval.
pub fn nodes_per_second(nodes: u64, elapsed: Duration) -> u64 {
    let micros = elapsed.as_micros();
    if micros == 0 {
        return 0;
    }
    (nodes as u128 * 1_000_000 / micros).min(u64::MAX as u128) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (GoParams, Vec<String>) {
        GoParams::parse(&text.split_whitespace().collect::<Vec<_>>())
    }

    /// The parameters of a `go` line that must read without a warning.
    fn clean(text: &str) -> GoParams {
        let (params, warnings) = parse(text);
        assert!(warnings.is_empty(), "go {text}: {warnings:?}");
        params
    }

    fn ms(duration: Option<Duration>) -> Option<u64> {
        duration.map(|d| d.as_millis() as u64)
    }

    /// The budget of a game's first move, with `time_ms` on the clock.
    fn first_move(time_ms: u64, increment_ms: u64, movestogo: Option<u64>, move_cost_ms: u64) -> (u64, u64) {
        clock_budget(GameClock::starting(time_ms, increment_ms), movestogo, move_cost_ms)
    }

    /// A clock of `time_ms` in a game that started with far more.
    fn late_in_a_long_game(time_ms: u64, increment_ms: u64) -> GameClock {
        GameClock { time_ms, increment_ms, starting_ms: 3_600_000 }
    }

    #[test]
    fn parses_every_parameter() {
        let go = clean("wtime 1000 btime 2000 winc 10 binc 20 movestogo 5 depth 7 nodes 9000 mate 3");
        assert_eq!(
            go,
            GoParams {
                depth: Some(7),
                nodes: Some(9000),
                wtime_ms: Some(1000),
                btime_ms: Some(2000),
                winc_ms: Some(10),
                binc_ms: Some(20),
                movestogo: Some(5),
                mate: Some(3),
                ..GoParams::default()
            }
        );
        assert_eq!(clean("movetime 250").movetime_ms, Some(250));
        assert!(clean("infinite").infinite);
        assert_eq!(clean(""), GoParams::default());
        let go = clean("ponder wtime 100 btime 100");
        assert!(go.ponder && go.waits_for_stop());
        assert_eq!(go.wtime_ms, Some(100));
    }

    #[test]
    fn searchmoves_reads_moves_up_to_the_next_keyword() {
        let go = clean("searchmoves e2e4 d2d4 g1f3 depth 5");
        assert_eq!((go.searchmoves.join(" "), go.depth), ("e2e4 d2d4 g1f3".to_string(), Some(5)));
        assert_eq!(clean("depth 2 searchmoves a2a3").searchmoves, ["a2a3"]);
        // Words that are not moves are the root's to refuse, with the position.
        assert_eq!(clean("searchmoves e2e4 zz").searchmoves, ["e2e4", "zz"]);
    }

    #[test]
    fn negative_clocks_read_as_zero() {
        let go = clean("wtime -15 btime 100 winc -1");
        assert_eq!((go.wtime_ms, go.winc_ms), (Some(0), Some(0)));
    }

    #[test]
    fn depth_beyond_the_search_is_capped_and_depth_0_bounds_nothing() {
        assert_eq!(clean("depth 100000").depth, Some(MAX_PLY as i32));
        let go = clean("depth 0");
        assert_eq!((go.depth, go.infinite), (None, true));
    }

    #[test]
    fn a_malformed_parameter_is_left_out_and_the_rest_searched() {
        for (line, warning, searched) in [
            ("depth", "go depth: missing value; ignored", ""),
            ("depth -5", "go depth: must be at least 0, got -5; ignored", ""),
            ("depth x nodes 5", "go depth: 'x' is not a whole number in range; ignored", "nodes 5"),
            ("depth wtime 100", "go depth: missing value; ignored", "wtime 100"),
            ("nodes 0", "go nodes: must be at least 1, got 0; ignored", ""),
            (
                "nodes 99999999999999999999999",
                "go nodes: '99999999999999999999999' is not a whole number in range; ignored",
                "",
            ),
            ("mate 0 depth 3", "go mate: must be at least 1, got 0; ignored", "depth 3"),
            ("movestogo 0", "go movestogo: must be at least 1, got 0; ignored", ""),
            (
                "wtime abc btime 10",
                "go wtime: 'abc' is not a whole number of milliseconds in range; ignored",
                "btime 10",
            ),
            (
                "wtime 99999999999999999999",
                "go wtime: '99999999999999999999' is not a whole number of milliseconds in range; ignored",
                "",
            ),
            ("movetime", "go movetime: missing value; ignored", ""),
            ("depthx", "go: unknown word 'depthx' ignored", ""),
            ("fast depth 2", "go: unknown word 'fast' ignored", "depth 2"),
            ("♔", "go: unknown word '♔' ignored", ""),
            ("searchmoves", "go searchmoves: no move given; searching every move", ""),
        ] {
            let (params, warnings) = parse(line);
            assert_eq!(warnings, [warning], "go {line}");
            assert_eq!(params, clean(searched), "go {line}");
        }
        // A bare number after an unknown word is a word of its own.
        assert_eq!(parse("perft 3").1, ["go: unknown word 'perft' ignored", "go: unknown word '3' ignored"]);
    }

    #[test]
    fn sudden_death_spends_a_share_of_the_clock_above_the_reserve() {
        // 10+0.1 at the first move: (9990 - 900) / 25 + 75.
        assert_eq!(first_move(10_000, 100, None, 10), (438, 1314));
        // 5+0.05: (4990 - 500) / 25 + 37.
        assert_eq!(first_move(5_000, 50, None, 10), (216, 648));
        // 1+0.01: (990 - 180) / 25 + 7.
        assert_eq!(first_move(1_000, 10, None, 10), (39, 117));
    }

    #[test]
    fn the_reserve_is_eight_increments_a_stall_and_the_unpaid_cost_of_the_moves_left() {
        let clock = |increment| GameClock::starting(60_000, increment);
        assert_eq!(reserve(clock(10), 10, 25), 180);
        assert_eq!(reserve(clock(50), 10, 25), 500);
        assert_eq!(reserve(clock(100), 10, 25), 900);
        // Each move costs 10 ms that no increment pays: 25 of them are kept.
        assert_eq!(reserve(clock(0), 10, 25), 350);
        // A busy machine's 30 ms a move at 1+0.01: 20 ms a move unpaid.
        assert_eq!(reserve(GameClock::starting(1_000, 10), 30, 25), 680);
        assert_eq!(reserve(clock(0), u64::MAX, 25), u64::MAX);
    }

    #[test]
    fn the_reserve_keeps_at_most_a_quarter_of_the_starting_clock_in_increments() {
        // 10+5: eight increments would be 40 s, four times the clock.
        assert_eq!(reserve(GameClock::starting(10_000, 5_000), 10, 25), 2_500 + 100);
        // The share is of the starting clock, not of what is left.
        let later = GameClock { time_ms: 4_000, increment_ms: 5_000, starting_ms: 10_000 };
        assert_eq!(reserve(later, 10, 25), 2_600);
        assert_eq!(reserve(GameClock::starting(1_000, u64::MAX), 10, 25), 350);
        // Where eight increments are less, the cap changes nothing.
        assert_eq!(reserve(GameClock::starting(1_000, 10), 10, 25), 180);
        assert_eq!(reserve(GameClock::starting(5_000, 50), 10, 25), 500);
    }

    #[test]
    fn a_measured_latency_makes_the_plan_wary() {
        // 1+0.01 at the first move, each move costing 30 ms: (970 - 680) / 25 + 7.
        assert_eq!(first_move(1_000, 10, None, 30), (18, 54));
        // 60+0: (59990 - 350) / 25.
        assert_eq!(first_move(60_000, 0, None, 10), (2_385, 7_155));
    }

    #[test]
    fn latency_is_the_clock_lost_beyond_the_engine_s_own_time() {
        let mut latency = MachineLatency::default();
        // Given 1000 ms, used 40, increment 10: expects 970; given 950.
        latency.played(Color::White, 1_000, 10, 40);
        latency.observe(Color::White, Some(950));
        assert_eq!(latency.estimate_ms(), 20);
        // A rise is followed at once...
        latency.played(Color::White, 950, 10, 10);
        latency.observe(Color::White, Some(890));
        assert_eq!(latency.estimate_ms(), 60);
        // ...a fall a quarter of the way a move: (3 * 60 + 0) / 4.
        latency.played(Color::White, 890, 10, 10);
        latency.observe(Color::White, Some(890));
        assert_eq!(latency.estimate_ms(), 45);
    }

    #[test]
    fn latency_ignores_clocks_it_cannot_compare_and_starts_afresh_each_game() {
        let mut latency = MachineLatency::default();
        latency.played(Color::White, 1_000, 10, 40);
        latency.observe(Color::White, Some(950));
        assert_eq!(latency.estimate_ms(), 20);
        for (side, clock) in [
            // The other side's clock.
            (Color::Black, Some(100)),
            // No clock (a `go depth`).
            (Color::White, None),
            // More than expected (a new game, a refill).
            (Color::White, Some(60_000)),
            // A loss too large to be latency.
            (Color::White, Some(10)),
        ] {
            latency.played(Color::White, 5_000, 0, 100);
            latency.observe(side, clock);
            assert_eq!(latency.estimate_ms(), 20, "{side:?} {clock:?}");
        }
        // `ucinewgame`: the estimate starts again from nothing, and the next
        // clock is not compared with the last game's.
        latency.played(Color::White, 1_000, 0, 0);
        latency.new_game();
        assert_eq!(latency.estimate_ms(), 0);
        latency.observe(Color::White, Some(500));
        assert_eq!(latency.estimate_ms(), 0);
    }

    #[test]
    fn a_clock_near_its_reserve_spends_less_than_the_increment() {
        // 5+0.05 with 550 ms left: 40 ms above the reserve.
        // soft: min(40 / 25 + 37, 16 + 5); hard: min(3 * 21, 28 + 12).
        assert_eq!(clock_budget(late_in_a_long_game(550, 50), None, 10), (21, 40));
        // At the reserve exactly: a tenth of the increment, hard a quarter.
        assert_eq!(clock_budget(late_in_a_long_game(510, 50), None, 10), (5, 12));
        // Below it (a stall took some): the same, so the clock climbs back.
        assert_eq!(clock_budget(late_in_a_long_game(300, 50), None, 10), (5, 12));
        // 1+0.01 with 200 ms left: 10 ms above the reserve.
        assert_eq!(clock_budget(late_in_a_long_game(200, 10), None, 10), (5, 9));
    }

    #[test]
    fn tiny_clocks_keep_a_margin() {
        // 20 ms left at 1+0.01: all of it is reserve.
        assert_eq!(clock_budget(late_in_a_long_game(20, 10), None, 10), (1, 2));
        // A large increment against a small clock thinks, within 70 % of the clock.
        assert_eq!(clock_budget(late_in_a_long_game(200, 1_000), None, 10), (100, 133));
        assert_eq!(clock_budget(late_in_a_long_game(1_000, 1_000), None, 10), (100, 250));
        // The same clocks at a game's first move keep a quarter of it.
        assert_eq!(first_move(200, 1_000, None, 10), (116, 133));
        assert_eq!(first_move(1_000, 1_000, None, 10), (356, 693));
        // Less than the overhead left: move at once.
        assert_eq!(first_move(5, 0, None, 10), (1, 1));
        assert_eq!(first_move(0, 0, None, 0), (1, 1));
    }

    #[test]
    fn movestogo_spreads_the_time_over_the_moves_left() {
        // (60000 - 100 - 20 * 10) / 20 and three times that.
        assert_eq!(first_move(60_010, 0, Some(20), 10), (2_985, 8_955));
        // The last move before the time control may not use it all.
        assert_eq!(first_move(1_010, 0, Some(1), 10), (356, 623));
        // A long movestogo plans as sudden death does.
        assert_eq!(first_move(10_010, 0, Some(80), 10), first_move(10_010, 0, None, 10));
    }

    #[test]
    fn hard_limit_stays_under_the_clock() {
        for time in [0, 1, 7, 20, 55, 100, 999, 1_000, 10_000, 60_000, 3_600_000] {
            for increment in [0, 10, 100, 1_000, 30_000] {
                for movestogo in [None, Some(1), Some(2), Some(40)] {
                    for starting_ms in [time, 3_600_000] {
                        let clock = GameClock { time_ms: time, increment_ms: increment, starting_ms };
                        let (soft, hard) = clock_budget(clock, movestogo, 10);
                        assert!(MIN_BUDGET_MS <= soft && soft <= hard);
                        let usable = time.saturating_sub(10);
                        assert!(hard <= (usable * HARD_MAX_CLOCK_PERCENT / 100).max(MIN_BUDGET_MS));
                    }
                }
            }
        }
    }

    /// One move of a simulated game: the clock when it started, what the
    /// move was planned to cost, and its soft limit.
    #[derive(Debug, PartialEq, Eq)]
    struct PlannedMove {
        clock_ms: u64,
        cost_ms: u64,
        soft_ms: u64,
    }

    /// Plays `moves` moves of one side at `start`+`increment` as the UCI loop
    /// plans them (the latency measured from the clocks, `Move Overhead`
    /// 10), each spending what `spend(soft, hard)` says, and losing
    /// `transit(move)` ms between its `bestmove` and the next `go`.
    fn play_game(
        start: u64,
        increment: u64,
        moves: usize,
        spend: fn(u64, u64) -> u64,
        transit: impl Fn(usize) -> u64,
    ) -> Vec<PlannedMove> {
        let overhead = 10;
        let mut latency = MachineLatency::default();
        let mut clock = start;
        let mut played = Vec::new();
        for number in 0..moves {
            latency.observe(Color::White, Some(clock));
            let cost_ms = latency.estimate_ms().max(overhead);
            let game_clock = GameClock { time_ms: clock, increment_ms: increment, starting_ms: start };
            let (soft_ms, hard_ms) = clock_budget(game_clock, None, cost_ms);
            let used = spend(soft_ms, hard_ms);
            latency.played(Color::White, clock, increment, used);
            played.push(PlannedMove { clock_ms: clock, cost_ms, soft_ms });
            let spent = used + transit(number);
            assert!(spent < clock, "flagged with {clock} ms left at {start}+{increment}, spending {spent}");
            clock = clock - spent + increment;
        }
        played
    }

    fn soft(soft: u64, _: u64) -> u64 {
        soft
    }

    /// The lowest clock a move of the game started with.
    fn lowest_clock(game: &[PlannedMove]) -> u64 {
        game.iter().map(|played| played.clock_ms).min().unwrap()
    }

    #[test]
    fn never_flags_when_every_move_uses_the_hard_limit() {
        // The worst case: each search runs to its hard limit and half the
        // overhead setting is really lost in transit.
        for (start, increment) in [(1_000u64, 10u64), (5_000, 50), (10_000, 100), (20, 10), (10_000, 5_000)] {
            play_game(start, increment, 300, |_, hard| hard, |_| 5);
        }
    }

    #[test]
    fn the_reserve_stays_on_the_clock() {
        // A game whose moves use their soft limit settles above its reserve:
        // at 5+0.05 above 0.5 s, at 1+0.01 above 0.18 s (more than six
        // increments, and a stall of 100 ms does not flag).
        for (start, increment) in [(1_000u64, 10u64), (5_000, 50), (10_000, 100), (60_000, 600)] {
            let lowest = lowest_clock(&play_game(start, increment, 300, soft, |_| 5));
            let reserve = reserve(GameClock::starting(start, increment), 10, SUDDEN_DEATH_MOVES);
            assert!(lowest >= reserve, "{start}+{increment}: the clock fell to {lowest} ms");
        }
        // Every move running to its hard limit still keeps most of it.
        for (start, increment) in [(1_000u64, 10u64), (5_000, 50), (10_000, 100)] {
            let lowest = lowest_clock(&play_game(start, increment, 300, |_, hard| hard, |_| 5));
            let reserve = reserve(GameClock::starting(start, increment), 10, SUDDEN_DEATH_MOVES);
            assert!(lowest >= reserve - increment / 4, "{start}+{increment}: the clock fell to {lowest} ms");
        }
    }

    #[test]
    fn at_10_plus_5_the_opening_spends_more_than_half_the_increment() {
        let game = play_game(10_000, 5_000, 20, soft, |_| 5);
        let plans: Vec<u64> = game.iter().map(|played| played.soft_ms).collect();
        assert!(plans.iter().all(|&plan| plan >= 2_500), "{plans:?}");
        // The first move: (9990 - 2600) / 25 + 3750, capped at 40 % of 7390 + 500.
        assert_eq!(plans[0], 3_456);
    }

    #[test]
    fn a_stall_of_400_ms_is_paid_back_within_seven_moves() {
        // 5+0.05, every move on its soft limit and 5 ms in transit, but the
        // 30th move's answer reaches the GUI 400 ms late.
        let game = play_game(5_000, 50, 45, soft, |number| if number == 29 { 400 } else { 5 });
        let after: Vec<(u64, u64, u64)> =
            game[29..].iter().map(|played| (played.clock_ms, played.cost_ms, played.soft_ms)).collect();
        // (clock, cost a move is planned with, soft limit): the stall is
        // measured at once, the moves spend a tenth of the increment until
        // the clock has won back 240 ms and the estimate has fallen, then
        // the game goes on as before, the estimate fading a quarter a move.
        #[rustfmt::skip]
        let expected = [
            (2030, 10, 97),
            (1583, 400, 5), (1623, 301, 5), (1663, 227, 5), (1703, 171, 5), (1743, 129, 5), (1783, 98, 5),
            (1823, 74, 62), (1806, 56, 81), (1770, 43, 86), (1729, 33, 84), (1690, 26, 83), (1652, 20, 82),
            (1615, 16, 80), (1580, 13, 79), (1546, 11, 78),
        ];
        assert_eq!(after, expected);
    }

    #[test]
    fn limits_follow_the_side_to_move() {
        let go = clean("wtime 10000 btime 1000 winc 100 binc 10");
        let now = Instant::now();
        let white = limits_for(&go, Color::White, 10, 10_000, now);
        let black = limits_for(&go, Color::Black, 10, 1_000, now);
        assert_eq!((ms(white.soft_time), ms(white.hard_time)), (Some(438), Some(1314)));
        assert_eq!((ms(black.soft_time), ms(black.hard_time)), (Some(39), Some(117)));
        assert_eq!(white.start, Some(now));
    }

    #[test]
    fn movetime_uses_all_of_it_but_the_overhead() {
        let limits = limits_for(&clean("movetime 1000 wtime 50"), Color::White, 10, 50, Instant::now());
        assert_eq!((ms(limits.soft_time), ms(limits.hard_time)), (Some(990), Some(990)));
        let limits = limits_for(&clean("movetime 3"), Color::White, 10, 0, Instant::now());
        assert_eq!(ms(limits.hard_time), Some(MIN_BUDGET_MS));
    }

    #[test]
    fn infinite_and_bare_bounds_have_no_time_limit() {
        let now = Instant::now();
        let limits = limits_for(&clean("infinite wtime 1000 depth 4"), Color::White, 10, 1_000, now);
        assert_eq!((limits.depth, limits.soft_time, limits.hard_time), (Some(4), None, None));
        let limits = limits_for(&clean("nodes 5000"), Color::Black, 10, 0, now);
        assert_eq!((limits.nodes, limits.soft_time, limits.hard_time), (Some(5000), None, None));
        let limits = limits_for(&clean("mate 2"), Color::Black, 10, 0, now);
        assert_eq!((limits.mate_moves, limits.hard_time), (Some(2), None));
    }

    #[test]
    fn only_the_other_side_s_clock_is_played_on_as_ours() {
        let now = Instant::now();
        let limits = limits_for(&clean("btime 1000 binc 10"), Color::White, 10, 0, now);
        assert_eq!((ms(limits.soft_time), ms(limits.hard_time)), (Some(39), Some(117)));
    }

    #[test]
    fn huge_clocks_are_capped() {
        let limits = limits_for(&clean(&format!("wtime {}", i64::MAX)), Color::White, 10, 0, Instant::now());
        assert_eq!(ms(limits.hard_time), Some(MAX_BUDGET_MS));
        assert_eq!(ms(limits.soft_time), Some(MAX_BUDGET_MS));
    }

    #[test]
    fn nodes_per_second_handles_an_empty_interval() {
        assert_eq!(nodes_per_second(1_000, Duration::ZERO), 0);
        assert_eq!(nodes_per_second(1_000, Duration::from_millis(500)), 2_000);
    }
}
