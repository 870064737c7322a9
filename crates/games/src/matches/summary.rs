//! A match's result as `summary.md` and `summary.json` give it, rewritten
//! after every game.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;

use super::clock::TimeControl;
use super::records::{FailureCounts, Tally};
use super::rules::Termination;
use crate::statistics::{self, Estimate, Pentanomial, SprtSettings, SprtStatus, Wdl};

/// One engine in the summary.
#[derive(Clone, Debug, Serialize)]
pub struct EngineSummary {
    /// The name in this match (the variant, `#1`/`#2` added when both are the same).
    pub name: String,
    /// The engine's `id name`.
    pub id_name: String,
    pub binary: PathBuf,
    pub failures: FailureCounts,
}

/// Why the match stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// Not yet: the summary is rewritten after every game, so a match that
    /// was killed keeps this one.
    Running,
    /// The SPRT accepted H0 or H1.
    Sprt,
    /// All games were played.
    Games,
    /// The time budget (`--budget`) ran out first.
    Budget,
    /// An engine could not be started again, or the results could not be written.
    Error,
}

/// A match's result, as printed and written to `summary.json`.
#[derive(Clone, Debug, Serialize)]
pub struct MatchSummary {
    pub engines: [EngineSummary; 2],
    pub tc: TimeControl,
    /// The second engine's time control where it differs (node odds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tc_b: Option<TimeControl>,
    pub book: String,
    pub book_lines_skipped: Vec<(u32, String)>,
    pub seed: u64,
    pub games: u64,
    pub games_planned: u64,
    pub pairs: u64,
    pub wdl: Wdl,
    pub penta: Pentanomial,
    /// Engine A's score in percent of the points.
    pub score_pct: Option<f64>,
    /// From the pairs (`None` before the first pair).
    pub elo: Option<Estimate>,
    pub nelo: Option<Estimate>,
    pub sprt: Option<SprtSettings>,
    pub sprt_status: Option<SprtStatus>,
    pub stop: StopReason,
    pub terminations: BTreeMap<Termination, u64>,
    pub average_plies: Option<f64>,
    pub run_dir: PathBuf,
    pub pgn: PathBuf,
}

impl MatchSummary {
    /// Copies the running totals in.
    pub fn take_totals(&mut self, tally: &Tally) {
        self.games = tally.games;
        self.pairs = tally.penta.pairs();
        self.wdl = tally.wdl;
        self.penta = tally.penta;
        self.score_pct = (tally.games > 0)
            .then(|| 100.0 * (tally.wdl.wins as f64 + 0.5 * tally.wdl.draws as f64) / tally.games as f64);
        let has_pairs = tally.penta.pairs() > 0;
        self.elo = has_pairs.then(|| statistics::elo_penta(&tally.penta));
        self.nelo = has_pairs.then(|| statistics::nelo_penta(&tally.penta));
        self.terminations = tally.terminations.clone();
        self.average_plies = (tally.games > 0).then(|| tally.plies as f64 / tally.games as f64);
        for engine in &mut self.engines {
            engine.failures = tally.failures.get(&engine.name).copied().unwrap_or_default();
        }
    }
}

/// `x` without a negative zero after rounding to `decimals`, so it never prints as `-0.0`.
fn unsigned_zero(x: f64, decimals: i32) -> f64 {
    if x.abs() < 0.5 * 10f64.powi(-decimals) {
        0.0
    } else {
        x
    }
}

fn estimate_text(estimate: Option<Estimate>) -> String {
    match estimate {
        Some(estimate) => {
            let [value, low, high] = [estimate.value, estimate.low, estimate.high].map(|x| unsigned_zero(x, 1));
            format!("{value:+.1} ± {:.1} [{low:+.1}, {high:+.1}]", estimate.error())
        }
        None => "n/a (no complete pair)".to_string(),
    }
}

/// `summary.md`, also what `lab match` prints.
pub fn summary_markdown(summary: &MatchSummary) -> String {
    let [a, b] = &summary.engines;
    let mut text = format!("# Match: {} vs {}\n\n", a.name, b.name);
    let mut row = |name: &str, value: String| text.push_str(&format!("| {name} | {value} |\n"));
    row("Engines", format!("{} (`{}`) vs {} (`{}`)", a.name, a.id_name, b.name, b.id_name));
    row(
        "Time control",
        match summary.tc_b {
            Some(tc_b) => format!("{} against {tc_b} (odds)", summary.tc),
            None => summary.tc.to_string(),
        },
    );
    row("Book", format!("{} (seed {})", summary.book, summary.seed));
    row("Games", format!("{} of {} planned ({} complete pairs)", summary.games, summary.games_planned, summary.pairs));
    row(
        &format!("W / L / D ({})", a.name),
        format!(
            "{} / {} / {}{}",
            summary.wdl.wins,
            summary.wdl.losses,
            summary.wdl.draws,
            summary.score_pct.map(|pct| format!(" ({pct:.1}%)")).unwrap_or_default()
        ),
    );
    let [ll, ld, even, wd, ww] = summary.penta.0;
    row("Pentanomial [LL, LD, DD+WL, WD, WW]", format!("[{ll}, {ld}, {even}, {wd}, {ww}]"));
    row("Elo (95%)", estimate_text(summary.elo));
    row("nElo (95%)", estimate_text(summary.nelo));
    let sprt_text = match (summary.sprt, summary.sprt_status) {
        (Some(settings), Some(status)) => format!(
            "[{}, {}] {} (alpha {}, beta {}): LLR {:.2} in ({:.2}, {:.2}), {}",
            settings.elo0,
            settings.elo1,
            settings.model,
            settings.alpha,
            settings.beta,
            unsigned_zero(status.llr, 2),
            status.lower,
            status.upper,
            status.verdict
        ),
        _ => "none".to_string(),
    };
    row("SPRT", sprt_text);
    row(
        "Stopped",
        match summary.stop {
            StopReason::Running => "not finished: running, or interrupted (--resume continues)",
            StopReason::Sprt => "SPRT verdict",
            StopReason::Games if summary.sprt.is_some() => "all games played, before an SPRT verdict",
            StopReason::Games => "all games played",
            StopReason::Budget => "the time budget ran out (--resume continues)",
            StopReason::Error => "error (see the message; --resume continues)",
        }
        .to_string(),
    );
    for engine in &summary.engines {
        row(&format!("Failures: {}", engine.name), engine.failures.to_string());
    }
    let terminations: Vec<String> =
        summary.terminations.iter().map(|(kind, count)| format!("{} {count}", kind.describe())).collect();
    row("Terminations", if terminations.is_empty() { "none".to_string() } else { terminations.join(", ") });
    row(
        "Average length",
        summary
            .average_plies
            .map(|plies| format!("{plies:.1} plies ({:.1} moves)", plies / 2.0))
            .unwrap_or("n/a".into()),
    );
    if !summary.book_lines_skipped.is_empty() {
        let lines: Vec<String> = summary.book_lines_skipped.iter().map(|(line, _)| line.to_string()).collect();
        row("Book lines skipped", lines.join(", "));
    }
    row("PGN", format!("`{}`", summary.pgn.display()));
    row("Run", format!("`{}`", summary.run_dir.display()));
    text.insert_str(text.find("| Engines").unwrap_or(0), "| | |\n|---|---|\n");
    text
}
