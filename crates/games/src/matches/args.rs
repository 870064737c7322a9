//! `lab match`'s arguments, and what they decide on their own: the
//! adjudication rules and the binary given for a name.

use std::path::PathBuf;

use anyhow::{anyhow, bail, Result};
use clap::Args;

use super::clock::TimeControl;
use super::rules::{DrawRule, ResignRule};
use crate::options::HashOption;
use crate::statistics::sprt::options::SprtOptions;

#[derive(Args, Clone, Debug)]
pub struct MatchArgs {
    /// The engine under test (a variant name, or `uci:PATH` for any UCI
    /// engine); Elo and SPRT are from its side.
    pub engine_a: String,
    /// The reference engine (a variant name or `uci:PATH`).
    pub engine_b: String,
    /// Time control `[moves/]seconds[+increment]`, e.g. 10+0.1 or 40/60+0.6,
    /// or fixed nodes a move, `N=25000` (`go nodes 25000`, no clock).
    #[arg(long, default_value = "10+0.1", value_name = "TC")]
    pub tc: TimeControl,
    /// The second engine's time control, for node odds: `N=<nodes>` beside a
    /// `--tc` of fixed nodes (default: --tc).
    #[arg(long, value_name = "TC")]
    pub tc_b: Option<TimeControl>,
    /// Opening book, EPD or FEN lines (default: the data folder's
    /// books/UHO_4060_v2.epd if it has one, else data/books/UHO_4060_v2-4000.epd).
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Games to play, in pairs (default 100; with --sprt a cap of 1000).
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,
    #[command(flatten)]
    pub sprt: SprtOptions,
    /// Start no pair after this long, e.g. 10m, 90s or 1h30m; the pairs in
    /// progress finish (the match stops with `budget`).
    #[arg(long, value_name = "DURATION", value_parser = humantime::parse_duration)]
    pub budget: Option<std::time::Duration>,
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
    #[command(flatten)]
    pub hash: HashOption,
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
    pub fn binary_override(&self, name: &str) -> Result<Option<PathBuf>> {
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

    /// Adjudication rules from the options; a rule is on when any of its options is given.
    pub fn adjudication(&self) -> Result<(Option<ResignRule>, Option<DrawRule>)> {
        let resign = (self.resign_movecount.is_some() || self.resign_score.is_some()).then(|| ResignRule {
            movecount: self.resign_movecount.unwrap_or(3),
            score: self.resign_score.unwrap_or(600),
        });
        let draw =
            (self.draw_movenumber.is_some() || self.draw_movecount.is_some() || self.draw_score.is_some()).then(|| {
                DrawRule {
                    movenumber: self.draw_movenumber.unwrap_or(34),
                    movecount: self.draw_movecount.unwrap_or(8),
                    score: self.draw_score.unwrap_or(20),
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn match_args_defaults_and_overrides() {
        let args = MatchArgs::new("razor-r1", "baseline");
        assert_eq!(args.tc.to_string(), "10+0.1");
        assert_eq!((args.concurrency, args.seed, args.hash.mb, args.time_margin), (1, 1, 16, 100));
        assert_eq!(args.adjudication().unwrap(), (None, None));
        assert!(args.sprt.settings().unwrap().is_none());
        let mut args = args;
        args.resign_score = Some(500);
        args.draw_movecount = Some(4);
        args.sprt.bounds = Some(vec![0.0, 5.0]);
        args.binaries = vec!["baseline=/bin/engine".into(), "bad".into()];
        let (resign, draw) = args.adjudication().unwrap();
        assert_eq!(resign, Some(ResignRule { movecount: 3, score: 500 }));
        assert_eq!(draw, Some(DrawRule { movenumber: 34, movecount: 4, score: 20 }));
        assert_eq!(args.sprt.settings().unwrap().unwrap().elo1, 5.0);
        args.sprt.bounds = Some(vec![5.0, 0.0]);
        assert!(args.sprt.settings().is_err());
        assert_eq!(args.binary_override("baseline").unwrap(), Some(PathBuf::from("/bin/engine")));
        assert!(args.binary_override("other").is_err(), "the malformed entry is reported");
    }
}
