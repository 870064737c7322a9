//! What a match keeps of its games: one record per finished game, as
//! `records.jsonl` stores it, and the running totals the statistics and the
//! summary are made from.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::game::{Failure, PlayedGame};
use super::rules::{GameResult, Termination};
use crate::statistics::{Pentanomial, Wdl};
use crate::wording::plural;

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

/// The record of a game just played.
pub fn record_of(played: &PlayedGame, pair: u64, game: u8, round: u64) -> GameRecord {
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

/// Failures of one engine, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureCounts {
    pub time_losses: u64,
    pub crashes: u64,
    pub illegal_moves: u64,
    pub protocol_errors: u64,
}

impl FailureCounts {
    /// Every failure, of any kind.
    pub fn total(&self) -> u64 {
        self.time_losses + self.crashes + self.illegal_moves + self.protocol_errors
    }

    fn add(&mut self, kind: Termination) {
        match kind {
            Termination::TimeLoss => self.time_losses += 1,
            Termination::Crash => self.crashes += 1,
            Termination::IllegalMove => self.illegal_moves += 1,
            _ => self.protocol_errors += 1,
        }
    }
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
pub struct Tally {
    /// All finished games, from engine A's side.
    pub wdl: Wdl,
    /// Complete pairs only.
    pub penta: Pentanomial,
    pub games: u64,
    pub plies: u64,
    /// Engine A's points in the finished games of pairs not yet complete.
    open_pairs: HashMap<u64, [Option<f64>; 2]>,
    pub terminations: BTreeMap<Termination, u64>,
    pub failures: BTreeMap<String, FailureCounts>,
}

impl Tally {
    pub fn new(engines: [&str; 2]) -> Tally {
        let failures = engines.iter().map(|name| (name.to_string(), FailureCounts::default())).collect();
        Tally { failures, ..Tally::default() }
    }

    /// The totals of games already played, as a resumed run starts with.
    pub fn of(engines: [&str; 2], records: &[GameRecord]) -> Tally {
        let mut tally = Tally::new(engines);
        for record in records {
            tally.add(record);
        }
        tally
    }

    /// Counts a game; true when it completes its pair.
    pub fn add(&mut self, record: &GameRecord) -> bool {
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
}
