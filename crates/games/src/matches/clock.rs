//! Time controls and the clocks the match runner keeps for both sides.
//!
//! A time control is `[moves/]seconds[+increment]`: `10+0.1` (10 s plus
//! 0.1 s a move), `60` (sudden death), `40/60+0.6` (60 s for every 40 moves,
//! plus 0.6 s a move). The runner, not the engine, is the referee: it measures
//! each search from `go` to `bestmove` and flags an engine whose clock runs
//! out by more than the time margin.
//!
//! Or it is `N=<nodes>`, OpenBench's spelling of fixed nodes a move: every
//! search is `go nodes N` and there is no clock, so a game does not depend on
//! the machine's load or speed (with one thread, two machines play the same
//! game). A search that never answers is still caught, after
//! [`NODES_MOVE_DEADLINE`].

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use cozy_chess::Color;
use serde::{Deserialize, Serialize};

/// How long an engine may search one move at fixed nodes before the runner
/// gives up on it: far beyond any node budget the lab plays (25,000 nodes
/// take well under a second even on a loaded core), so only a hung engine
/// meets it.
pub const NODES_MOVE_DEADLINE: Duration = Duration::from_secs(60);

/// What each move of a game is given: a clock, or a number of nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum TimeControl {
    Clock(ClockControl),
    /// `N=<nodes>`: `go nodes <nodes>` every move, no clock.
    Nodes(u64),
}

/// `[moves/]seconds[+increment]`, kept in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockControl {
    /// Moves per period (`movestogo`); `None` for the whole game.
    pub moves: Option<u32>,
    pub base_ms: u64,
    pub increment_ms: u64,
}

/// Seconds with up to millisecond precision, as written on the command line.
fn parse_seconds(text: &str, what: &str) -> Result<u64, String> {
    let seconds: f64 = text.parse().map_err(|_| format!("{what} '{text}' is not a number of seconds"))?;
    if !seconds.is_finite() || seconds < 0.0 {
        return Err(format!("{what} '{text}' must be a non-negative number of seconds"));
    }
    if seconds > 1e9 {
        return Err(format!("{what} '{text}' is too long"));
    }
    Ok((seconds * 1000.0).round() as u64)
}

/// Milliseconds as the shortest decimal seconds: 10000 -> `10`, 100 -> `0.1`.
fn format_seconds(ms: u64) -> String {
    let text = format!("{}.{:03}", ms / 1000, ms % 1000);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let usage = "expected [moves/]seconds[+increment] or N=nodes, e.g. 10+0.1, 60, 40/60+0.6 or N=25000";
        let text = text.trim();
        if let Some(nodes) = text.strip_prefix("N=") {
            return match nodes.parse::<u64>() {
                Ok(nodes) if nodes > 0 => Ok(TimeControl::Nodes(nodes)),
                _ => Err(format!("time control '{text}': '{nodes}' is not a positive number of nodes; {usage}")),
            };
        }
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => {
                let moves: u32 = moves
                    .parse()
                    .map_err(|_| format!("time control '{text}': '{moves}' is not a move count; {usage}"))?;
                if moves == 0 {
                    return Err(format!("time control '{text}': the move count must be at least 1"));
                }
                (Some(moves), rest)
            }
            None => (None, text),
        };
        let (base, increment) = rest.split_once('+').unwrap_or((rest, "0"));
        let base_ms = parse_seconds(base, "base time").map_err(|error| format!("time control '{text}': {error}"))?;
        let increment_ms =
            parse_seconds(increment, "increment").map_err(|error| format!("time control '{text}': {error}"))?;
        if base_ms == 0 {
            return Err(format!("time control '{text}': the base time must be positive; {usage}"));
        }
        Ok(TimeControl::Clock(ClockControl { moves, base_ms, increment_ms }))
    }
}

impl FromStr for ClockControl {
    type Err = String;

    /// A time control that must be a clock (`lab clocks` rebuilds clocks).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.parse()? {
            TimeControl::Clock(clock) => Ok(clock),
            TimeControl::Nodes(_) => Err(format!("time control '{text}' is fixed nodes, not a clock")),
        }
    }
}

impl TimeControl {
    /// The nodes a move at fixed nodes; `None` on a clock.
    pub fn nodes(&self) -> Option<u64> {
        match self {
            TimeControl::Nodes(nodes) => Some(*nodes),
            TimeControl::Clock(_) => None,
        }
    }

    /// The PGN `TimeControl` tag: the clock, or `-` (the PGN standard's
    /// "no time control") at fixed nodes, whose count has a tag of its own.
    pub fn pgn_tag(&self) -> String {
        match self {
            TimeControl::Clock(clock) => clock.to_string(),
            TimeControl::Nodes(_) => "-".to_string(),
        }
    }
}

impl fmt::Display for TimeControl {
    /// `10+0.1`, `40/60+0.6`, `60`, or `N=25000`: what the command line takes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Clock(clock) => clock.fmt(f),
            TimeControl::Nodes(nodes) => write!(f, "N={nodes}"),
        }
    }
}

impl fmt::Display for ClockControl {
    /// The PGN `TimeControl` form: `10+0.1`, `40/60+0.6`, `60`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        write!(f, "{}", format_seconds(self.base_ms))?;
        if self.increment_ms > 0 {
            write!(f, "+{}", format_seconds(self.increment_ms))?;
        }
        Ok(())
    }
}

impl TryFrom<String> for TimeControl {
    type Error = String;
    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

impl From<TimeControl> for String {
    fn from(tc: TimeControl) -> String {
        tc.to_string()
    }
}

/// What the runner gives each move of one game, and how it judges the time
/// taken: both sides' clocks, or a fixed number of nodes a side (the same,
/// or node odds) and no clock.
#[derive(Clone, Debug)]
pub enum MoveBudget {
    Clocks(Clocks),
    /// Nodes a move, indexed by `Color`.
    Nodes([u64; 2]),
}

impl MoveBudget {
    pub fn new(tc: TimeControl) -> MoveBudget {
        MoveBudget::for_sides(tc, tc).expect("one time control for both sides")
    }

    /// The budget of a game whose White plays at `white` and Black at
    /// `black`: one clock for both, or nodes a side. Odds on a clock are not
    /// played (its `go` would have to tell each side the other's clock).
    pub fn for_sides(white: TimeControl, black: TimeControl) -> Result<MoveBudget, String> {
        match (white, black) {
            (TimeControl::Clock(clock), TimeControl::Clock(other)) if clock == other => {
                Ok(MoveBudget::Clocks(Clocks::new(clock)))
            }
            (TimeControl::Nodes(white), TimeControl::Nodes(black)) => Ok(MoveBudget::Nodes([white, black])),
            _ => Err(format!(
                "time controls {white} and {black}: odds are played at fixed nodes only, N=<nodes> for both"
            )),
        }
    }

    /// The `go` command for `color` to move.
    pub fn go_command(&self, color: Color) -> String {
        match self {
            MoveBudget::Clocks(clocks) => clocks.go_command(color),
            MoveBudget::Nodes(nodes) => format!("go nodes {}", nodes[color as usize]),
        }
    }

    /// How long the runner waits for `color`'s `bestmove`.
    pub fn deadline(&self, color: Color, margin: Duration) -> Duration {
        match self {
            MoveBudget::Clocks(clocks) => clocks.deadline(color, margin),
            MoveBudget::Nodes(_) => NODES_MOVE_DEADLINE,
        }
    }

    /// What `color` had on its clock before this move (`None` at fixed nodes).
    pub fn remaining(&self, color: Color) -> Option<Duration> {
        match self {
            MoveBudget::Clocks(clocks) => Some(clocks.remaining(color)),
            MoveBudget::Nodes(_) => None,
        }
    }

    /// Charges a search to `color`'s clock; at fixed nodes time is not judged.
    pub fn charge(&mut self, color: Color, elapsed: Duration, margin: Duration) -> ClockVerdict {
        match self {
            MoveBudget::Clocks(clocks) => clocks.charge(color, elapsed, margin),
            MoveBudget::Nodes(_) => ClockVerdict::InTime,
        }
    }
}

/// Both sides' clocks during one game.
#[derive(Clone, Debug)]
pub struct Clocks {
    tc: ClockControl,
    /// Milliseconds left, indexed by `Color`.
    remaining_ms: [u64; 2],
    /// Moves each side has made in this game.
    moves_made: [u32; 2],
}

/// How one move went on the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockVerdict {
    InTime,
    /// The search took longer than the clock plus the margin.
    Flagged,
}

impl Clocks {
    pub fn new(tc: ClockControl) -> Clocks {
        Clocks { tc, remaining_ms: [tc.base_ms; 2], moves_made: [0; 2] }
    }

    pub fn remaining(&self, color: Color) -> Duration {
        Duration::from_millis(self.remaining_ms[color as usize])
    }

    /// The `go` command for `color` to move.
    pub fn go_command(&self, color: Color) -> String {
        let [white, black] = self.remaining_ms;
        let increment = self.tc.increment_ms;
        let mut go = format!("go wtime {white} btime {black} winc {increment} binc {increment}");
        if let Some(moves) = self.tc.moves {
            let to_go = moves - self.moves_made[color as usize] % moves;
            go.push_str(&format!(" movestogo {to_go}"));
        }
        go
    }

    /// How long the runner waits for `color`'s `bestmove` before flagging it.
    pub fn deadline(&self, color: Color, margin: Duration) -> Duration {
        self.remaining(color) + margin
    }

    /// Charges `elapsed` to `color`. A search within the margin past zero
    /// leaves the clock at zero (plus the increment), so the margin absorbs
    /// pipe and scheduling latency without becoming extra thinking time.
    pub fn charge(&mut self, color: Color, elapsed: Duration, margin: Duration) -> ClockVerdict {
        let side = color as usize;
        let elapsed_ms = elapsed.as_millis().min(u64::MAX as u128) as u64;
        if elapsed > self.remaining(color) + margin {
            self.remaining_ms[side] = 0;
            return ClockVerdict::Flagged;
        }
        self.remaining_ms[side] = self.remaining_ms[side].saturating_sub(elapsed_ms) + self.tc.increment_ms;
        self.moves_made[side] += 1;
        if let Some(moves) = self.tc.moves {
            if self.moves_made[side].is_multiple_of(moves) {
                self.remaining_ms[side] += self.tc.base_ms;
            }
        }
        ClockVerdict::InTime
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(text: &str) -> ClockControl {
        text.parse().unwrap()
    }

    #[test]
    fn fixed_nodes_send_go_nodes_and_judge_no_time() {
        let mut budget = MoveBudget::new("N=10000".parse().unwrap());
        assert_eq!(budget.go_command(Color::Black), "go nodes 10000");
        assert_eq!(budget.deadline(Color::White, Duration::ZERO), NODES_MOVE_DEADLINE);
        assert_eq!(budget.remaining(Color::White), None);
        assert_eq!(budget.charge(Color::White, Duration::from_secs(30), Duration::ZERO), ClockVerdict::InTime);
        let clocks = MoveBudget::new("1+0.1".parse().unwrap());
        assert_eq!(clocks.go_command(Color::White), "go wtime 1000 btime 1000 winc 100 binc 100");
    }

    #[test]
    fn node_odds_give_each_side_its_own_nodes_and_clocks_take_no_odds() {
        let odds = MoveBudget::for_sides("N=20000".parse().unwrap(), "N=10000".parse().unwrap()).unwrap();
        assert_eq!(odds.go_command(Color::White), "go nodes 20000");
        assert_eq!(odds.go_command(Color::Black), "go nodes 10000");
        let clocks = MoveBudget::for_sides("1+0.1".parse().unwrap(), "1+0.1".parse().unwrap()).unwrap();
        assert_eq!(clocks.go_command(Color::Black), "go wtime 1000 btime 1000 winc 100 binc 100");
        for (white, black) in [("2+0.02", "1+0.01"), ("N=10000", "1+0.01"), ("1+0.01", "N=10000")] {
            let error = MoveBudget::for_sides(white.parse().unwrap(), black.parse().unwrap()).unwrap_err();
            assert!(error.contains("odds are played at fixed nodes only"), "{error}");
        }
    }

    #[test]
    fn time_controls_parse_and_print_round_trip() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!(tc, TimeControl::Clock(ClockControl { moves: None, base_ms: 10_000, increment_ms: 100 }));
        assert_eq!(tc.to_string(), "10+0.1");
        let tc: TimeControl = "40/60+0.6".parse().unwrap();
        assert_eq!(tc, TimeControl::Clock(ClockControl { moves: Some(40), base_ms: 60_000, increment_ms: 600 }));
        assert_eq!(tc.to_string(), "40/60+0.6");
        assert_eq!("60".parse::<TimeControl>().unwrap().to_string(), "60");
        assert_eq!("1.5+0.01".parse::<TimeControl>().unwrap().to_string(), "1.5+0.01");
        let nodes: TimeControl = "N=25000".parse().unwrap();
        assert_eq!(
            (nodes, nodes.to_string(), nodes.pgn_tag()),
            (TimeControl::Nodes(25_000), "N=25000".into(), "-".into())
        );
        assert_eq!(
            "N=0".parse::<TimeControl>().unwrap_err(),
            "time control 'N=0': '0' is not a positive number of nodes; expected [moves/]seconds[+increment] or \
             N=nodes, e.g. 10+0.1, 60, 40/60+0.6 or N=25000"
        );
        for bad in ["", "+1", "0+1", "x+1", "10+y", "-1+0", "0/10", "a/10", "inf+0", "10+0.1+2", "N=", "N=1k", "N=-5"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn clocks_charge_add_increments_and_flag_beyond_the_margin() {
        let margin = Duration::from_millis(100);
        let mut clocks = Clocks::new(clock("1+0.1"));
        assert_eq!(clocks.go_command(Color::White), "go wtime 1000 btime 1000 winc 100 binc 100");
        assert_eq!(clocks.charge(Color::White, Duration::from_millis(300), margin), ClockVerdict::InTime);
        assert_eq!(clocks.remaining(Color::White), Duration::from_millis(800));
        // Over by less than the margin: in time, the clock is empty plus the increment.
        assert_eq!(clocks.charge(Color::Black, Duration::from_millis(1050), margin), ClockVerdict::InTime);
        assert_eq!(clocks.remaining(Color::Black), Duration::from_millis(100));
        assert_eq!(clocks.charge(Color::Black, Duration::from_millis(201), margin), ClockVerdict::Flagged);
    }

    #[test]
    fn repeating_controls_count_moves_to_go_and_add_the_base() {
        let margin = Duration::ZERO;
        let mut clocks = Clocks::new(clock("2/10"));
        assert!(clocks.go_command(Color::White).ends_with("movestogo 2"));
        clocks.charge(Color::White, Duration::from_secs(4), margin);
        assert!(clocks.go_command(Color::White).ends_with("movestogo 1"));
        clocks.charge(Color::White, Duration::from_secs(4), margin);
        assert_eq!(clocks.remaining(Color::White), Duration::from_secs(12));
        assert!(clocks.go_command(Color::White).ends_with("movestogo 2"));
    }
}
