//! `lab clocks PGN...`: how close each engine came to losing on time.
//!
//! Each side's clock is rebuilt from the PGN's move times (the
//! `{score/depth 0.123s}` comments that fastchess, cutechess and `lab match`
//! write), from the `TimeControl` tag: the clock starts at the base time,
//! each timed move takes its time off and adds the increment, and a
//! `moves/` period adds the base again after that many moves. A move
//! without a time (a book move) costs nothing. Per engine it reports the
//! games lost on time (`Termination "time forfeit"`), the moves started
//! with less than a threshold on the clock, and the lowest clock of its
//! median game: an engine that lives on its increment, with its clock near
//! zero, flags as soon as a busy machine stalls it, even if it lost no game
//! this time.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;

use crate::matches::clock::{ClockControl, TimeControl};
use crate::pgn_games::read_raw_games;

#[derive(Args, Debug)]
pub struct ClocksArgs {
    /// PGN files (fastchess, cutechess or `lab match` output, with move times).
    #[arg(required = true)]
    pub pgn: Vec<PathBuf>,
    /// The threshold in seconds; by default six increments of each game's
    /// time control (0.3 s at 5+0.05), or 6% of its base time without one.
    #[arg(long, value_name = "SECONDS")]
    pub below: Option<f64>,
}

/// One game as the clocks need it.
#[derive(Debug, Default, PartialEq)]
struct Game {
    tags: BTreeMap<String, String>,
    /// The time of each move in order, `None` for a move without one.
    move_times_ms: Vec<Option<u64>>,
}

/// What one engine's clock did over its games.
#[derive(Debug, Default, PartialEq)]
struct ClockRecord {
    games: u64,
    timed_moves: u64,
    time_losses: u64,
    /// Moves started with less than the threshold on the clock.
    moves_below: u64,
    /// The lowest clock (ms) at the start of a move, per game; a clock can
    /// go below zero only in a game lost on time.
    lowest_per_game: Vec<i64>,
}

impl ClockRecord {
    /// The lowest clock of the median game, in ms.
    fn median_lowest(&self) -> Option<i64> {
        let mut lowest = self.lowest_per_game.clone();
        lowest.sort_unstable();
        lowest.get(lowest.len() / 2).copied()
    }
}

pub fn command(args: &ClocksArgs) -> Result<()> {
    if let Some(below) = args.below {
        if !below.is_finite() || below < 0.0 {
            bail!("--below {below}: expected a number of seconds, 0 or more");
        }
    }
    let mut games = Vec::new();
    for path in &args.pgn {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        let read = parse_games(&text).with_context(|| format!("{}: broken PGN", path.display()))?;
        if read.is_empty() {
            bail!("{}: no games in it", path.display());
        }
        games.extend(read);
    }
    let below_ms = args.below.map(|seconds| (seconds * 1000.0).round() as u64);
    let (records, skipped) = clock_records(&games, below_ms);
    if records.is_empty() {
        bail!("no game has a TimeControl tag and move times: nothing to rebuild the clocks from");
    }
    print!("{}", render(&records, below_ms, games.len(), skipped));
    Ok(())
}

/// The clock records by engine name, and how many games could not be read
/// (no `TimeControl` with a base time, or no move times).
fn clock_records(games: &[Game], below_ms: Option<u64>) -> (BTreeMap<String, ClockRecord>, usize) {
    let mut records: BTreeMap<String, ClockRecord> = BTreeMap::new();
    let mut skipped = 0;
    for game in games {
        // A game at fixed nodes (`-`) or without the tag has no clock to rebuild.
        let Some(TimeControl::Clock(tc)) = game.tags.get("TimeControl").and_then(|text| text.parse().ok()) else {
            skipped += 1;
            continue;
        };
        if game.move_times_ms.iter().all(Option::is_none) {
            skipped += 1;
            continue;
        }
        let threshold = below_ms.unwrap_or(default_threshold_ms(tc));
        let white = game.tags.get("White").cloned().unwrap_or_else(|| "?".to_string());
        let black = game.tags.get("Black").cloned().unwrap_or_else(|| "?".to_string());
        let black_first = game.tags.get("FEN").and_then(|fen| fen.split_whitespace().nth(1)) == Some("b");
        let movers = if black_first { [black.clone(), white.clone()] } else { [white.clone(), black.clone()] };
        let mut clocks = [tc.base_ms as i64; 2];
        let mut lowest = clocks;
        let mut moves_made = [0u32; 2];
        for (ply, time) in game.move_times_ms.iter().enumerate() {
            let side = ply % 2;
            let record = records.entry(movers[side].clone()).or_default();
            let Some(time) = time else { continue };
            record.timed_moves += 1;
            if clocks[side] < threshold as i64 {
                record.moves_below += 1;
            }
            lowest[side] = lowest[side].min(clocks[side]);
            clocks[side] += tc.increment_ms as i64 - *time as i64;
            moves_made[side] += 1;
            if tc.moves.is_some_and(|period| moves_made[side] % period == 0) {
                clocks[side] += tc.base_ms as i64;
            }
        }
        for side in 0..2 {
            let record = records.entry(movers[side].clone()).or_default();
            record.games += 1;
            record.lowest_per_game.push(lowest[side]);
        }
        let lost_on_time = game.tags.get("Termination").is_some_and(|text| text.eq_ignore_ascii_case("time forfeit"));
        let loser = match game.tags.get("Result").map(String::as_str) {
            Some("1-0") => Some(&black),
            Some("0-1") => Some(&white),
            _ => None,
        };
        if let (true, Some(loser)) = (lost_on_time, loser) {
            records.entry(loser.clone()).or_default().time_losses += 1;
        }
    }
    (records, skipped)
}

/// Six increments, or 6% of the base time without one: the clock below
/// which a stall of a busy machine (50 to 100 ms at fast time controls)
/// is a real threat.
fn default_threshold_ms(tc: ClockControl) -> u64 {
    if tc.increment_ms > 0 {
        6 * tc.increment_ms
    } else {
        tc.base_ms * 6 / 100
    }
}

fn seconds(ms: i64) -> String {
    format!("{:.3} s", ms as f64 / 1000.0)
}

fn render(records: &BTreeMap<String, ClockRecord>, below_ms: Option<u64>, games: usize, skipped: usize) -> String {
    let threshold = match below_ms {
        Some(ms) => seconds(ms as i64),
        None => "six increments (6% of the base without one)".to_string(),
    };
    let mut text = String::new();
    let _ =
        writeln!(text, "Clocks rebuilt from the move times of {} game(s); threshold: {threshold}.", games - skipped);
    if skipped > 0 {
        let _ = writeln!(text, "{skipped} game(s) skipped: no TimeControl tag with a base time, or no move times.");
    }
    let _ = writeln!(text);
    let _ = writeln!(
        text,
        "| engine | games | timed moves | time losses | moves started below the threshold | lowest clock, median game | lowest clock |"
    );
    let _ = writeln!(text, "| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (name, record) in records {
        let share = 100.0 * record.moves_below as f64 / record.timed_moves.max(1) as f64;
        let lowest = record.lowest_per_game.iter().min().copied();
        let _ = writeln!(
            text,
            "| {name} | {} | {} | {} | {} ({share:.1}%) | {} | {} |",
            record.games,
            record.timed_moves,
            record.time_losses,
            record.moves_below,
            record.median_lowest().map_or("-".to_string(), seconds),
            lowest.map_or("-".to_string(), seconds),
        );
    }
    text
}

/// The games of a PGN text: their tags and the time of each move, read
/// from the first comment after it that has one (`{+0.31/12 0.123s}`; none
/// in `{book}`). The `pgn-reader` crate reads the syntax, as for `lab
/// blunders`, but the moves are not replayed: a clock needs only their
/// times.
fn parse_games(text: &str) -> Result<Vec<Game>> {
    let games = read_raw_games(text.as_bytes())?;
    Ok(games
        .into_iter()
        .map(|raw| Game {
            tags: raw.tags,
            move_times_ms: raw
                .moves
                .iter()
                .map(|(_, comments)| comments.iter().find_map(|comment| comment_time_ms(comment)))
                .collect(),
        })
        .collect())
}

/// The move time of a comment: its last word of the form `0.123s`.
fn comment_time_ms(comment: &str) -> Option<u64> {
    comment.split_whitespace().rev().find_map(|word| {
        let seconds: f64 = word.strip_suffix('s')?.parse().ok()?;
        (seconds.is_finite() && seconds >= 0.0).then(|| (seconds * 1000.0).round() as u64)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two games as fastchess writes them: the first from a FEN with black
    /// to move, the second lost on time by white.
    const PGN: &str = r#"[Event "Fastchess Tournament"]
[White "new"]
[Black "old"]
[Result "1/2-1/2"]
[SetUp "1"]
[FEN "r1bq1rk1/1pp2pbp/2np1np1/p3p3/2P5/2NPP1P1/PP2NPBP/R1BQ1RK1 b - - 0 9"]
[Termination "adjudication"]
[TimeControl "1+0.1"]

9... h6 {-0.17/13 0.500s} 10. d5 {+0.15/15 0.400s} Ne7 {-0.21/16 0.300s}
11. e4 {+0.28/15 0.300s} (11. e3 {a variation 9.999s}) Bd7 {-0.28/14 0.250s} 1/2-1/2

[Event "Fastchess Tournament"]
[White "old"]
[Black "new"]
[Result "0-1"]
[Termination "time forfeit"]
[TimeControl "1+0.1"]

1. e4 {book} e5 {book} 2. Nf3 {+0.30/10 1.050s} Nc6 {-0.20/9 0.100s} 0-1
"#;

    #[test]
    fn reads_tags_and_move_times() {
        let games = parse_games(PGN).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tags["FEN"].split_whitespace().nth(1), Some("b"));
        assert_eq!(games[0].move_times_ms, [Some(500), Some(400), Some(300), Some(300), Some(250)]);
        assert_eq!(games[1].move_times_ms, [None, None, Some(1050), Some(100)]);
        assert_eq!(games[1].tags["Termination"], "time forfeit");
    }

    #[test]
    fn rebuilds_each_side_s_clock() {
        let (records, skipped) = clock_records(&parse_games(PGN).unwrap(), Some(700));
        assert_eq!(skipped, 0);
        // Game 1: black ("old") moves first; its clock starts its moves at
        // 1000, 600 and 400 ms, "new"'s (white) at 1000 and 700. Game 2:
        // the book moves cost nothing, then "old" flags at 1000 + 100 - 1050.
        assert_eq!(
            records["old"],
            ClockRecord { games: 2, timed_moves: 4, time_losses: 1, moves_below: 2, lowest_per_game: vec![400, 1000] }
        );
        assert_eq!(
            records["new"],
            ClockRecord { games: 2, timed_moves: 3, time_losses: 0, moves_below: 0, lowest_per_game: vec![700, 1000] }
        );
        assert_eq!(records["old"].median_lowest(), Some(1000));
    }

    #[test]
    fn default_threshold_is_six_increments() {
        assert_eq!(default_threshold_ms("5+0.05".parse().unwrap()), 300);
        assert_eq!(default_threshold_ms("1+0.01".parse().unwrap()), 60);
        assert_eq!(default_threshold_ms("60".parse().unwrap()), 3600);
    }

    #[test]
    fn a_moves_period_refills_the_clock() {
        let pgn = "[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n[TimeControl \"2/1\"]\n\n\
                   1. e4 {0.9s} e5 {0.1s} 2. Nf3 {0.05s} Nc6 {0.1s} 3. Bc4 {0.5s} *\n";
        let (records, _) = clock_records(&parse_games(pgn).unwrap(), Some(0));
        // a starts its moves at 1000, 100 and (50 + 1000 after its second
        // move) 1050 ms.
        assert_eq!(records["a"].lowest_per_game, [100]);
        assert_eq!(records["b"].lowest_per_game, [900]);
    }

    #[test]
    fn games_without_a_time_control_or_times_are_skipped() {
        let pgn = "[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 {0.1s} *\n\n\
                   [White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n[TimeControl \"1\"]\n\n1. e4 e5 *\n";
        let (records, skipped) = clock_records(&parse_games(pgn).unwrap(), None);
        assert!(records.is_empty());
        assert_eq!(skipped, 2);
    }

    #[test]
    fn the_table_names_every_engine() {
        let (records, skipped) = clock_records(&parse_games(PGN).unwrap(), Some(700));
        let text = render(&records, Some(700), 2, skipped);
        assert!(text.starts_with("Clocks rebuilt from the move times of 2 game(s); threshold: 0.700 s.\n"), "{text}");
        assert!(text.contains("| new | 2 | 3 | 0 | 0 (0.0%) | 1.000 s | 0.700 s |"), "{text}");
        assert!(text.contains("| old | 2 | 4 | 1 | 2 (50.0%) | 1.000 s | 0.400 s |"), "{text}");
    }
}
