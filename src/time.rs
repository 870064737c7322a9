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
use crate::search::{SearchLimits, MAX_PLY};

/// Moves we assume are still to play when the clock has no `movestogo`.
/// Also the most we spread the time over when it does, so a long
/// `movestogo` does not make us play too fast.
pub const SUDDEN_DEATH_MOVES: u64 = 25;
/// Share of the increment added to each move's plan, in percent.
pub const INCREMENT_SHARE_PERCENT: u64 = 75;
/// The reserve is this many increments...
pub const RESERVE_INCREMENTS: u64 = 8;
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
    /// Search until `stop`; `bestmove` is not printed before it.
    pub infinite: bool,
}

impl GoParams {
    /// Parses the words after `go`. A repeated parameter keeps its last value.
    ///
    /// Clock values may be negative (some GUIs send that once a clock has run
    /// out) and are read as 0; `depth`, `nodes` and `movestogo` must be at
    /// least 1.
    pub fn parse(args: &[&str]) -> Result<GoParams, String> {
        let mut params = GoParams::default();
        let mut words = args.iter().copied();
        while let Some(keyword) = words.next() {
            let mut value = || words.next().ok_or_else(|| format!("go {keyword}: missing value"));
            match keyword {
                "infinite" => params.infinite = true,
                "depth" => {
                    let depth = parse_count(keyword, value()?)?;
                    // Anything deeper than the search can go means "no depth bound".
                    params.depth = Some(depth.min(MAX_PLY as u64) as i32);
                }
                "nodes" => params.nodes = Some(parse_count(keyword, value()?)?),
                "movestogo" => params.movestogo = Some(parse_count(keyword, value()?)?),
                "movetime" => params.movetime_ms = Some(parse_clock(keyword, value()?)?),
                "wtime" => params.wtime_ms = Some(parse_clock(keyword, value()?)?),
                "btime" => params.btime_ms = Some(parse_clock(keyword, value()?)?),
                "winc" => params.winc_ms = Some(parse_clock(keyword, value()?)?),
                "binc" => params.binc_ms = Some(parse_clock(keyword, value()?)?),
                "ponder" | "searchmoves" | "mate" => {
                    return Err(format!("go {keyword} is not supported"));
                }
                other => return Err(format!("go: unknown parameter '{}'", shorten(other))),
            }
        }
        Ok(params)
    }
}

impl GoParams {
    /// `(time, increment)` of `side`'s clock in milliseconds, if it has one.
    pub fn clock(&self, side: Color) -> Option<(u64, u64)> {
        let (time, increment) = match side {
            Color::White => (self.wtime_ms, self.winc_ms),
            Color::Black => (self.btime_ms, self.binc_ms),
        };
        time.map(|time| (time, increment.unwrap_or(0)))
    }
}

/// A count that must be a whole number of at least 1.
fn parse_count(keyword: &str, text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err(format!("go {keyword}: must be at least 1, got 0")),
        Ok(count) => Ok(count),
        Err(_) if text.parse::<i128>().is_ok_and(|n| n < 0) => {
            Err(format!("go {keyword}: must be at least 1, got {text}"))
        }
        Err(_) => Err(format!("go {keyword}: '{}' is not a whole number in range", shorten(text))),
    }
}

/// A clock value in milliseconds; negative values are read as 0.
fn parse_clock(keyword: &str, text: &str) -> Result<u64, String> {
    match text.parse::<i64>() {
        Ok(ms) => Ok(ms.max(0) as u64),
        Err(_) => Err(format!("go {keyword}: '{}' is not a whole number of milliseconds in range", shorten(text))),
    }
}

/// The search limits for `go` with `side_to_move` to play.
///
/// `infinite` drops all time limits (depth and nodes still apply). A
/// `movetime` takes precedence over the clocks. A clock given only for the
/// other side leaves this search without a time limit. The limits count
/// from `received`, the moment the `go` line was read; each move on a clock
/// costs `move_cost_ms` beyond the engine's own time (see [`clock_budget`]).
pub fn limits_for(go: &GoParams, side_to_move: Color, move_cost_ms: u64, received: Instant) -> SearchLimits {
    let mut limits =
        SearchLimits { depth: go.depth, nodes: go.nodes, start: Some(received), ..SearchLimits::default() };
    if go.infinite {
        return limits;
    }
    let budget = if let Some(movetime) = go.movetime_ms {
        let spend = movetime.saturating_sub(move_cost_ms);
        Some((spend, spend))
    } else {
        go.clock(side_to_move).map(|(time, increment)| clock_budget(time, increment, go.movestogo, move_cost_ms))
    };
    if let Some((soft_ms, hard_ms)) = budget {
        let clamp = |ms: u64| Duration::from_millis(ms.clamp(MIN_BUDGET_MS, MAX_BUDGET_MS));
        limits.soft_time = Some(clamp(soft_ms));
        limits.hard_time = Some(clamp(hard_ms));
    }
    limits
}

/// The part of the clock the engine keeps and never plans to spend, in
/// milliseconds: the increments and the stall margin, and what each of the
/// `moves_left` moves costs beyond its increment (a move that costs
/// `move_cost_ms` of the clock however fast the engine answers).
pub fn reserve(increment_ms: u64, move_cost_ms: u64, moves_left: u64) -> u64 {
    let unpaid_cost = move_cost_ms.saturating_sub(increment_ms).saturating_mul(moves_left);
    increment_ms.saturating_mul(RESERVE_INCREMENTS).saturating_add(RESERVE_STALL_MS).saturating_add(unpaid_cost)
}

/// `(soft, hard)` in milliseconds for a move with `time_ms` on our clock,
/// when each move costs `move_cost_ms` of it beyond the engine's own
/// thinking (the `Move Overhead` setting, or the latency measured, if more).
///
/// The move's cost and the reserve come off the clock first; the plan is
/// an even share of what is left over the moves still to play, plus most of
/// the increment. The caps keep one move from eating that share when little
/// is left: a clock near its reserve spends a tenth of the increment, so
/// the clock climbs back, and even the hard limit leaves the reserve (less
/// a quarter of an increment, which the move then wins back).
pub fn clock_budget(time_ms: u64, increment_ms: u64, movestogo: Option<u64>, move_cost_ms: u64) -> (u64, u64) {
    let available = time_ms.saturating_sub(move_cost_ms);
    let moves_left = movestogo.map_or(SUDDEN_DEATH_MOVES, |moves| moves.clamp(1, SUDDEN_DEATH_MOVES));
    let spendable = available.saturating_sub(reserve(increment_ms, move_cost_ms, moves_left));
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
/// of the way each move), and is kept across games: it is the machine's.
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

    /// `ucinewgame`: the next clock is not comparable with the last.
    pub fn new_game(&mut self) {
        self.last_move = None;
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

    fn parse(text: &str) -> Result<GoParams, String> {
        GoParams::parse(&text.split_whitespace().collect::<Vec<_>>())
    }

    fn ms(duration: Option<Duration>) -> Option<u64> {
        duration.map(|d| d.as_millis() as u64)
    }

    #[test]
    fn parses_every_parameter() {
        let go = parse("wtime 1000 btime 2000 winc 10 binc 20 movestogo 5 depth 7 nodes 9000").unwrap();
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
                ..GoParams::default()
            }
        );
        assert_eq!(parse("movetime 250").unwrap().movetime_ms, Some(250));
        assert!(parse("infinite").unwrap().infinite);
        assert_eq!(parse("").unwrap(), GoParams::default());
    }

    #[test]
    fn negative_clocks_read_as_zero() {
        let go = parse("wtime -15 btime 100 winc -1").unwrap();
        assert_eq!((go.wtime_ms, go.winc_ms), (Some(0), Some(0)));
    }

    #[test]
    fn depth_beyond_the_search_is_capped() {
        assert_eq!(parse("depth 100000").unwrap().depth, Some(MAX_PLY as i32));
    }

    #[test]
    fn refuses_malformed_go() {
        for bad in [
            "depth",
            "depth -5",
            "depth 0",
            "depth x",
            "nodes 0",
            "nodes 99999999999999999999999",
            "movestogo 0",
            "wtime abc",
            "wtime 99999999999999999999",
            "movetime",
            "ponder",
            "searchmoves e2e4",
            "depthx 3",
            "♔",
        ] {
            assert!(parse(bad).is_err(), "accepted 'go {bad}'");
        }
    }

    #[test]
    fn error_messages_name_the_problem() {
        assert_eq!(parse("depth -5").unwrap_err(), "go depth: must be at least 1, got -5");
        assert_eq!(parse("wtime").unwrap_err(), "go wtime: missing value");
        assert_eq!(parse("fast").unwrap_err(), "go: unknown parameter 'fast'");
    }

    #[test]
    fn sudden_death_spends_a_share_of_the_clock_above_the_reserve() {
        // 10+0.1 at the first move: (9990 - 900) / 25 + 75.
        assert_eq!(clock_budget(10_000, 100, None, 10), (438, 1314));
        // 5+0.05: (4990 - 500) / 25 + 37.
        assert_eq!(clock_budget(5_000, 50, None, 10), (216, 648));
        // 1+0.01: (990 - 180) / 25 + 7.
        assert_eq!(clock_budget(1_000, 10, None, 10), (39, 117));
    }

    #[test]
    fn the_reserve_is_eight_increments_a_stall_and_the_unpaid_cost_of_the_moves_left() {
        assert_eq!(reserve(10, 10, 25), 180);
        assert_eq!(reserve(50, 10, 25), 500);
        assert_eq!(reserve(100, 10, 25), 900);
        // Each move costs 10 ms that no increment pays: 25 of them are kept.
        assert_eq!(reserve(0, 10, 25), 350);
        // A busy machine's 30 ms a move at 1+0.01: 20 ms a move unpaid.
        assert_eq!(reserve(10, 30, 25), 680);
        assert_eq!(reserve(u64::MAX, 10, 25), u64::MAX);
        assert_eq!(reserve(0, u64::MAX, 25), u64::MAX);
    }

    #[test]
    fn a_measured_latency_makes_the_plan_wary() {
        // 1+0.01 at the first move, each move costing 30 ms: (970 - 680) / 25 + 7.
        assert_eq!(clock_budget(1_000, 10, None, 30), (18, 54));
        // 60+0: (59990 - 350) / 25.
        assert_eq!(clock_budget(60_000, 0, None, 10), (2_385, 7_155));
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
    fn latency_ignores_clocks_it_cannot_compare() {
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
        // `ucinewgame`: the next clock is not compared.
        latency.played(Color::White, 1_000, 0, 0);
        latency.new_game();
        latency.observe(Color::White, Some(500));
        assert_eq!(latency.estimate_ms(), 20);
    }

    #[test]
    fn a_clock_near_its_reserve_spends_less_than_the_increment() {
        // 5+0.05 with 550 ms left: 40 ms above the reserve.
        // soft: min(40 / 25 + 37, 16 + 5); hard: min(3 * 21, 28 + 12).
        assert_eq!(clock_budget(550, 50, None, 10), (21, 40));
        // At the reserve exactly: a tenth of the increment, hard a quarter.
        assert_eq!(clock_budget(510, 50, None, 10), (5, 12));
        // Below it (a stall took some): the same, so the clock climbs back.
        assert_eq!(clock_budget(300, 50, None, 10), (5, 12));
        // 1+0.01 with 200 ms left: 10 ms above the reserve.
        assert_eq!(clock_budget(200, 10, None, 10), (5, 9));
    }

    #[test]
    fn tiny_clocks_keep_a_margin() {
        // 20 ms left at 1+0.01: all of it is reserve.
        assert_eq!(clock_budget(20, 10, None, 10), (1, 2));
        // A large increment against a small clock thinks, within 70 % of the clock.
        assert_eq!(clock_budget(200, 1_000, None, 10), (100, 133));
        assert_eq!(clock_budget(1_000, 1_000, None, 10), (100, 250));
        // Less than the overhead left: move at once.
        assert_eq!(clock_budget(5, 0, None, 10), (1, 1));
        assert_eq!(clock_budget(0, 0, None, 0), (1, 1));
    }

    #[test]
    fn movestogo_spreads_the_time_over_the_moves_left() {
        // (60000 - 100 - 20 * 10) / 20 and three times that.
        assert_eq!(clock_budget(60_010, 0, Some(20), 10), (2_985, 8_955));
        // The last move before the time control may not use it all.
        assert_eq!(clock_budget(1_010, 0, Some(1), 10), (356, 623));
        // A long movestogo plans as sudden death does.
        assert_eq!(clock_budget(10_010, 0, Some(80), 10), clock_budget(10_010, 0, None, 10));
    }

    #[test]
    fn hard_limit_stays_under_the_clock() {
        for time in [0, 1, 7, 20, 55, 100, 999, 1_000, 10_000, 60_000, 3_600_000] {
            for increment in [0, 10, 100, 1_000, 30_000] {
                for movestogo in [None, Some(1), Some(2), Some(40)] {
                    let (soft, hard) = clock_budget(time, increment, movestogo, 10);
                    assert!(MIN_BUDGET_MS <= soft && soft <= hard);
                    let usable = time.saturating_sub(10);
                    assert!(hard <= (usable * HARD_MAX_CLOCK_PERCENT / 100).max(MIN_BUDGET_MS));
                }
            }
        }
    }

    /// Plays `moves` moves at `start`+`increment`, each spending what
    /// `spend(soft, hard)` says plus `lost` ms in transit, and returns the
    /// lowest clock seen when a move starts.
    fn lowest_clock(start: u64, increment: u64, moves: usize, lost: u64, spend: fn(u64, u64) -> u64) -> u64 {
        let overhead = 10;
        let mut clock = start;
        let mut lowest = clock;
        for _ in 0..moves {
            let (soft, hard) = clock_budget(clock, increment, None, overhead);
            let spent = spend(soft, hard) + lost;
            assert!(spent < clock, "flagged with {clock} ms left at {start}+{increment}, spending {spent}");
            clock = clock - spent + increment;
            lowest = lowest.min(clock);
        }
        lowest
    }

    #[test]
    fn never_flags_when_every_move_uses_the_hard_limit() {
        // The worst case: each search runs to its hard limit and half the
        // overhead setting is really lost in transit.
        for (start, increment) in [(1_000u64, 10u64), (5_000, 50), (10_000, 100), (20, 10)] {
            lowest_clock(start, increment, 300, 5, |_, hard| hard);
        }
    }

    #[test]
    fn the_reserve_stays_on_the_clock() {
        // A game whose moves use their soft limit settles above its reserve:
        // at 5+0.05 above 0.5 s, at 1+0.01 above 0.18 s (more than six
        // increments, and a stall of 100 ms does not flag).
        for (start, increment) in [(1_000u64, 10u64), (5_000, 50), (10_000, 100), (60_000, 600)] {
            let lowest = lowest_clock(start, increment, 300, 5, |soft, _| soft);
            let reserve = reserve(increment, 10, SUDDEN_DEATH_MOVES);
            assert!(lowest >= reserve, "{start}+{increment}: the clock fell to {lowest} ms");
        }
        // Every move running to its hard limit still keeps most of it.
        for (start, increment) in [(1_000u64, 10u64), (5_000, 50), (10_000, 100)] {
            let lowest = lowest_clock(start, increment, 300, 5, |_, hard| hard);
            let reserve = reserve(increment, 10, SUDDEN_DEATH_MOVES);
            assert!(lowest >= reserve - increment / 4, "{start}+{increment}: the clock fell to {lowest} ms");
        }
    }

    #[test]
    fn limits_follow_the_side_to_move() {
        let go = parse("wtime 10000 btime 1000 winc 100 binc 10").unwrap();
        let now = Instant::now();
        let white = limits_for(&go, Color::White, 10, now);
        let black = limits_for(&go, Color::Black, 10, now);
        assert_eq!((ms(white.soft_time), ms(white.hard_time)), (Some(438), Some(1314)));
        assert_eq!((ms(black.soft_time), ms(black.hard_time)), (Some(39), Some(117)));
        assert_eq!(white.start, Some(now));
    }

    #[test]
    fn movetime_uses_all_of_it_but_the_overhead() {
        let limits = limits_for(&parse("movetime 1000 wtime 50").unwrap(), Color::White, 10, Instant::now());
        assert_eq!((ms(limits.soft_time), ms(limits.hard_time)), (Some(990), Some(990)));
        let limits = limits_for(&parse("movetime 3").unwrap(), Color::White, 10, Instant::now());
        assert_eq!(ms(limits.hard_time), Some(MIN_BUDGET_MS));
    }

    #[test]
    fn infinite_and_bare_bounds_have_no_time_limit() {
        let now = Instant::now();
        let limits = limits_for(&parse("infinite wtime 1000 depth 4").unwrap(), Color::White, 10, now);
        assert_eq!((limits.depth, limits.soft_time, limits.hard_time), (Some(4), None, None));
        let limits = limits_for(&parse("nodes 5000").unwrap(), Color::Black, 10, now);
        assert_eq!((limits.nodes, limits.soft_time, limits.hard_time), (Some(5000), None, None));
        // Only the opponent's clock: nothing bounds our time.
        let limits = limits_for(&parse("wtime 1000").unwrap(), Color::Black, 10, now);
        assert_eq!(limits.hard_time, None);
    }

    #[test]
    fn huge_clocks_are_capped() {
        let limits = limits_for(&parse(&format!("wtime {}", i64::MAX)).unwrap(), Color::White, 10, Instant::now());
        assert_eq!(ms(limits.hard_time), Some(MAX_BUDGET_MS));
        assert_eq!(ms(limits.soft_time), Some(MAX_BUDGET_MS));
    }

    #[test]
    fn nodes_per_second_handles_an_empty_interval() {
        assert_eq!(nodes_per_second(1_000, Duration::ZERO), 0);
        assert_eq!(nodes_per_second(1_000, Duration::from_millis(500)), 2_000);
    }
}
