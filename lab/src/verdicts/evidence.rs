//! Game results as evidence: what games say of a variant against a
//! reference, from wherever they were played (a `lab match` run, the match
//! of `lab ab --sprt`, or an OpenBench test read back by `lab openbench
//! status`), and where that contradicts the fast measures (nodes, time to
//! depth, tactics). Games decide: `lab ab` and `lab report` print them first.

use std::fmt::Write;
use std::path::Path;

use games::results::{read_records, runs_of_nested};
use games::statistics::{elo_penta, format_estimate, format_penta, nelo_penta, Estimate, Pentanomial, SprtState, Wdl};
use games::statistics::{Model, SprtSettings, SprtStatus};
use serde::{Deserialize, Serialize};

use crate::lab::table::Table;
use crate::measure::ratio::RatioEstimate;
pub use crate::verdicts::decision::GamesSay;
use crate::verdicts::decision::{Decision, Games, SprtEnd, Tally};
use verdict_page::GAMES;

/// The run folders `lab openbench status` writes.
pub const STATUS_COMMAND: &str = "openbench-status";

/// An SPRT as it stood when the result was read.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtReading {
    pub elo0: f64,
    pub elo1: f64,
    pub llr: f64,
    /// Wald's bounds of the LLR.
    pub lower: f64,
    pub upper: f64,
}

impl SprtReading {
    pub fn verdict(&self) -> SprtState {
        SprtState::of(self.llr, self.lower, self.upper)
    }

    /// `SPRT [0, 5] LLR 1.20 (-2.94, 2.94): continue`.
    pub fn text(&self) -> String {
        format!(
            "SPRT [{}, {}] LLR {:.2} ({:.2}, {:.2}): {}",
            self.elo0,
            self.elo1,
            self.llr,
            self.lower,
            self.upper,
            self.verdict()
        )
    }
}

/// Games of `subject` against `reference`, counted from `subject`'s view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    pub subject: String,
    pub reference: String,
    /// Where the games were played: `lab match, <run folder>` or
    /// `OpenBench test 3, http://.../test/3/`.
    pub source: String,
    /// When the result was taken (`20261125T140000Z`): the latest wins.
    pub taken: String,
    pub tc: String,
    /// The opening book the games were played from, as the runner named it
    /// (a path for `lab match`, a file name for OpenBench); `None` in
    /// records kept before books were.
    #[serde(default)]
    pub book: Option<String>,
    pub wdl: Wdl,
    pub penta: Pentanomial,
    pub sprt: Option<SprtReading>,
    /// Whether the games are over (an SPRT verdict, the games played, a
    /// test stopped), or still running or stopped before their end: such
    /// games decide nothing.
    pub finished: bool,
    /// Games lost on time and crashes, either side.
    pub time_losses: u64,
    pub crashes: u64,
}

impl GameResult {
    pub fn elo(&self) -> Option<Estimate> {
        (self.penta.pairs() > 0).then(|| elo_penta(&self.penta))
    }

    pub fn games(&self) -> u64 {
        self.wdl.wins + self.wdl.draws + self.wdl.losses
    }

    /// Elo and nElo from the pairs, as `14.5 ± 30.1` (`n/a` before the first pair).
    pub fn elo_texts(&self) -> (String, String) {
        let pairs = self.penta.pairs();
        (format_estimate(&elo_penta(&self.penta), pairs), format_estimate(&nelo_penta(&self.penta), pairs))
    }

    /// The games as the one rule of what games decide reads them
    /// ([`decision`](crate::verdicts::decision)). A result does not keep its
    /// SPRT's model: its bounds are read as normalized Elo (the lab's and
    /// OpenBench's default), which only the p-value depends on.
    pub fn evidence(&self) -> Games {
        Games {
            finished: self.finished,
            penta: self.penta,
            sprt: self.sprt.map(|sprt| SprtEnd {
                elo0: sprt.elo0,
                elo1: sprt.elo1,
                model: Model::Normalized,
                lower: sprt.lower,
                upper: sprt.upper,
                verdict: sprt.verdict(),
            }),
        }
    }

    /// What the result says, by the one rule.
    pub fn says(&self) -> GamesSay {
        self.evidence().says()
    }

    /// The result from the other side's view. Its SPRT is mirrored: the
    /// other side's test of H0 `elo0` against H1 `elo1` is this side's of
    /// H0 `-elo1` against H1 `-elo0`, with the LLR and its bounds negated,
    /// so an accepted gain of the other side reads as this side's loss.
    pub fn reversed(&self) -> GameResult {
        let [ll, ld, even, wd, ww] = self.penta.0;
        GameResult {
            subject: self.reference.clone(),
            reference: self.subject.clone(),
            wdl: Wdl { wins: self.wdl.losses, draws: self.wdl.draws, losses: self.wdl.wins },
            penta: Pentanomial([ww, wd, even, ld, ll]),
            sprt: self.sprt.map(|sprt| SprtReading {
                elo0: negated(sprt.elo1),
                elo1: negated(sprt.elo0),
                llr: negated(sprt.llr),
                lower: negated(sprt.upper),
                upper: negated(sprt.lower),
            }),
            ..self.clone()
        }
    }

    /// One line: games, W/L/D, pentanomial, Elo and nElo, the SPRT and the
    /// failures, then where the games were played.
    pub fn line(&self) -> String {
        let (elo, nelo) = self.elo_texts();
        let sprt = self.sprt.map_or(String::new(), |sprt| format!("; {}", sprt.text()));
        format!(
            "{} games at {} ({}): W {} L {} D {}, penta {}, Elo {}, nElo {}{sprt}; {} time loss(es), {} crash(es); {}",
            self.games(),
            self.tc,
            if self.finished { "finished" } else { "running" },
            self.wdl.wins,
            self.wdl.losses,
            self.wdl.draws,
            format_penta(&self.penta),
            elo,
            nelo,
            self.time_losses,
            self.crashes,
            self.source
        )
    }
}

/// `-x`, but 0 for 0: a mirrored bound of 0 prints as `0`, not `-0`.
fn negated(x: f64) -> f64 {
    0.0 - x
}

/// Which way a fast measure points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Points {
    Gain,
    Loss,
}

/// A fast measure and the way it points, e.g. `time to depth x0.91` → gain.
#[derive(Clone, Debug, PartialEq)]
pub struct Signal {
    pub measure: String,
    pub points: Points,
}

/// A ratio B/A where less is better (nodes, time to depth) as a signal,
/// when its interval leaves out 1.
pub fn ratio_signal(measure: String, ratio: &RatioEstimate) -> Option<Signal> {
    let (low, high) = ratio.interval?;
    if high < 1.0 {
        Some(Signal { measure, points: Points::Gain })
    } else if low > 1.0 {
        Some(Signal { measure, points: Points::Loss })
    } else {
        None
    }
}

/// A tactical suite's solve counts, B's against A's, as a signal.
pub fn solved_signal(suite: &str, reference: usize, subject: usize) -> Option<Signal> {
    let measure = format!("{suite} {:+} solved", subject as i64 - reference as i64);
    match subject.cmp(&reference) {
        std::cmp::Ordering::Greater => Some(Signal { measure, points: Points::Gain }),
        std::cmp::Ordering::Less => Some(Signal { measure, points: Points::Loss }),
        std::cmp::Ordering::Equal => None,
    }
}

/// The fast measures the games contradict: those pointing to a gain when the
/// games say a loss or no gain, those pointing to a loss when they say a gain.
pub fn contradicted(says: GamesSay, signals: &[Signal]) -> Vec<&Signal> {
    signals
        .iter()
        .filter(|signal| match says {
            _ if says.is_against() => signal.points == Points::Gain,
            GamesSay::Gain => signal.points == Points::Loss,
            _ => false,
        })
        .collect()
}

/// A `lab match` run's summary, as much of it as a game result needs.
#[derive(Deserialize)]
struct MatchSummaryFile {
    engines: [MatchEngine; 2],
    tc: String,
    #[serde(default)]
    book: Option<String>,
    wdl: Wdl,
    penta: Pentanomial,
    sprt: Option<SprtSettings>,
    sprt_status: Option<SprtStatus>,
    stop: String,
}

#[derive(Deserialize)]
struct MatchEngine {
    name: String,
    failures: MatchFailures,
}

#[derive(Deserialize)]
struct MatchFailures {
    time_losses: u64,
    crashes: u64,
}

/// The game result of one `lab match` run folder, from the first engine's
/// view. Finished means played to its end: the SPRT's verdict or every
/// game; a match killed (`running`) or stopped by an error is not.
pub fn match_result(run: &Path) -> Option<GameResult> {
    let text = std::fs::read_to_string(run.join("summary.json")).ok()?;
    let summary: MatchSummaryFile = serde_json::from_str(&text).ok()?;
    let [a, b] = &summary.engines;
    let sprt = summary.sprt.zip(summary.sprt_status).map(|(settings, status)| SprtReading {
        elo0: settings.elo0,
        elo1: settings.elo1,
        llr: status.llr,
        lower: status.lower,
        upper: status.upper,
    });
    let failures = |engine: &MatchEngine| (engine.failures.time_losses, engine.failures.crashes);
    let ((a_time, a_crash), (b_time, b_crash)) = (failures(a), failures(b));
    let taken = run.file_name()?.to_str()?.split('-').next()?.to_string();
    Some(GameResult {
        subject: a.name.clone(),
        reference: b.name.clone(),
        source: format!("lab match, {}", run.display()),
        taken,
        tc: summary.tc,
        book: summary.book,
        wdl: summary.wdl,
        penta: summary.penta,
        sprt,
        finished: matches!(summary.stop.as_str(), "sprt" | "games"),
        time_losses: a_time + b_time,
        crashes: a_crash + b_crash,
    })
}

/// Every game result of `subject` against `reference` under `results`:
/// the latest local match (either colour order; `lab ab --sprt`'s among
/// them) and the latest reading of each OpenBench test, most games first.
pub fn game_results(results: &Path, subject: &str, reference: &str) -> Vec<GameResult> {
    let mut found = Vec::new();
    let local = runs_of_nested(results, "match")
        .iter()
        .filter_map(|run| match_result(run))
        .filter_map(|result| match (result.subject.as_str(), result.reference.as_str()) {
            (a, b) if a == subject && b == reference => Some(result),
            (a, b) if a == reference && b == subject => Some(result.reversed()),
            _ => None,
        })
        .max_by(|a, b| a.taken.cmp(&b.taken));
    found.extend(local);
    let mut tests: Vec<GameResult> = Vec::new();
    for run in games::results::runs_of(results, STATUS_COMMAND) {
        for result in read_records::<GameResult>(&run) {
            if result.subject != subject || result.reference != reference {
                continue;
            }
            match tests.iter_mut().find(|seen| seen.source == result.source) {
                Some(seen) if seen.taken <= result.taken => *seen = result,
                Some(_) => {}
                None => tests.push(result),
            }
        }
    }
    found.extend(tests);
    found.sort_by(|a, b| b.games().cmp(&a.games()).then_with(|| b.taken.cmp(&a.taken)));
    found
}

/// The games section a verdict opens with: every game result, what the
/// games say, and the fast measures they contradict; `None` without games.
pub fn games_section(results: &[GameResult], signals: &[Signal]) -> Option<String> {
    games_section_deciding(results, results.first()?, "the largest result", signals)
}

/// [`games_section`], with `deciding` (one of `results`, `which` it is)
/// deciding: the match a command just played.
pub fn games_section_deciding(
    results: &[GameResult],
    deciding: &GameResult,
    which: &str,
    signals: &[Signal],
) -> Option<String> {
    let first = results.first()?;
    let mut out = String::new();
    writeln!(out, "{GAMES}{} against {} (the evidence that decides)\n", first.subject, first.reference).unwrap();
    for result in results {
        writeln!(out, "- {}", result.line()).unwrap();
    }
    let says = deciding.says();
    writeln!(out, "\nThe games ({} of them, {which}) say **{}**.", deciding.games(), says.words()).unwrap();
    let against = contradicted(says, signals);
    if !against.is_empty() {
        let measures: Vec<&str> = against.iter().map(|signal| signal.measure.as_str()).collect();
        let pointed = if against[0].points == Points::Gain { "a gain" } else { "a loss" };
        writeln!(
            out,
            "**The fast measures disagree**: {} point{} to {pointed}. Games decide.",
            measures.join(", "),
            if measures.len() == 1 { "s" } else { "" }
        )
        .unwrap();
    }
    Some(out)
}

/// `lab report`'s games table: for each variant with games against its
/// parent, the largest result, what it says and the fast measures it
/// contradicts. Each entry is one variant's results and signals; `None`
/// when no variant has games.
pub fn report_section(entries: &[(Vec<GameResult>, Vec<Signal>)]) -> Option<String> {
    let mut table = Table::new()
        .left("variant")
        .left("parent")
        .left("games")
        .left("W / L / D")
        .left("Elo")
        .left("nElo")
        .left("SPRT")
        .left("the games say")
        .left("fast measures they contradict");
    for (results, signals) in entries {
        let Some(result) = results.first() else { continue };
        let (elo, nelo) = result.elo_texts();
        let sprt = result.sprt.map_or("-".to_string(), |sprt| {
            format!("[{}, {}] LLR {:.2}: {}", sprt.elo0, sprt.elo1, sprt.llr, sprt.verdict())
        });
        let against: Vec<&str> =
            contradicted(result.says(), signals).iter().map(|signal| signal.measure.as_str()).collect();
        table.push([
            result.subject.clone(),
            result.reference.clone(),
            format!("{} at {} ({})", result.games(), result.tc, result.source),
            format!("{} / {} / {}", result.wdl.wins, result.wdl.losses, result.wdl.draws),
            elo,
            nelo,
            sprt,
            result.says().words().to_string(),
            if against.is_empty() { "-".to_string() } else { format!("**{}**", against.join(", ")) },
        ]);
    }
    if table.is_empty() {
        return None;
    }
    let decisions: Vec<Decision> =
        entries.iter().filter_map(|(results, _)| Some(results.first()?.evidence().decision())).collect();
    let mut out = String::from("## Games against the parent (the evidence that decides)\n\n");
    writeln!(
        out,
        "The largest game result of each variant against its parent: a `lab match` (or `lab ab --sprt`) run, or \
         an OpenBench test read by `lab openbench status`. Of the {} variant(s), {}.\n",
        decisions.len(),
        Tally::of(&decisions).text()
    )
    .unwrap();
    out.push_str(&table.to_string());
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(wdl: (u64, u64, u64), penta: [u64; 5], sprt: Option<SprtReading>) -> GameResult {
        GameResult {
            subject: "capture-history".into(),
            reference: "full".into(),
            source: "lab match, x".into(),
            taken: "20261125T000000Z".into(),
            tc: "10+0.1".into(),
            book: Some("data/books/UHO_4060_v2-4000.epd".into()),
            wdl: Wdl { wins: wdl.0, losses: wdl.1, draws: wdl.2 },
            penta: Pentanomial(penta),
            sprt,
            finished: true,
            time_losses: 0,
            crashes: 0,
        }
    }

    fn sprt(elo0: f64, elo1: f64, llr: f64) -> SprtReading {
        SprtReading { elo0, elo1, llr, lower: -2.94, upper: 2.94 }
    }

    #[test]
    fn the_sprt_verdict_speaks_first_then_the_elo_interval() {
        let even = [10, 20, 40, 20, 10];
        assert_eq!(result((50, 50, 100), even, Some(sprt(0.0, 5.0, 2.95))).says(), GamesSay::Gain);
        assert_eq!(result((50, 50, 100), even, Some(sprt(0.0, 5.0, -2.95))).says(), GamesSay::NoGain);
        assert_eq!(result((50, 50, 100), even, Some(sprt(-5.0, 0.0, 2.95))).says(), GamesSay::NoLoss);
        assert_eq!(result((50, 50, 100), even, Some(sprt(-5.0, 0.0, -2.95))).says(), GamesSay::Loss);
        assert_eq!(result((50, 50, 100), even, Some(sprt(0.0, 5.0, 0.3))).says(), GamesSay::Undecided);
        // An SPRT still running says nothing yet, though a fixed-sample
        // interval of its games would exclude 0: a peek is no verdict.
        let mut running = result((90, 10, 100), [0, 10, 40, 40, 10], Some(sprt(0.0, 5.0, 2.5)));
        running.finished = false;
        assert!(running.elo().unwrap().low > 0.0);
        assert_eq!(running.says(), GamesSay::Undecided);
        // The same games without an SPRT are a fixed sample: a gain once
        // all were played, and nothing while they are still going (or were
        // stopped before their end).
        assert_eq!(GameResult { sprt: None, finished: true, ..running.clone() }.says(), GamesSay::Gain);
        assert_eq!(GameResult { sprt: None, ..running.clone() }.says(), GamesSay::Undecided);
        // Played to their cap with the SPRT still undecided, they are the
        // same fixed sample: a gain.
        assert_eq!(GameResult { finished: true, ..running.clone() }.says(), GamesSay::Gain);
        // No SPRT: a clearly lost match says a loss from its Elo interval.
        assert_eq!(result((10, 90, 100), [40, 30, 20, 10, 0], None).says(), GamesSay::Loss);
        assert_eq!(result((0, 0, 0), [0; 5], None).says(), GamesSay::Undecided);
    }

    #[test]
    fn a_match_decides_only_once_it_was_played_to_its_end() {
        let dir = std::env::temp_dir().join(format!("prunelab-evidence-stopped-{}", std::process::id()));
        let said = |stop: &str| {
            let run = dir.join(format!("20261128T000000Z-match-{stop}"));
            std::fs::create_dir_all(&run).unwrap();
            let engine = |name: &str| serde_json::json!({"name": name, "failures": {"time_losses": 0, "crashes": 0}});
            // 100 pairs won both ways: an Elo interval far above 0.
            let summary = serde_json::json!({
                "engines": [engine("b"), engine("a")], "tc": "10+0.1", "book": null,
                "wdl": {"wins": 200, "draws": 0, "losses": 0}, "penta": [0, 0, 0, 0, 100],
                "sprt": null, "sprt_status": null, "stop": stop,
            });
            std::fs::write(run.join("summary.json"), summary.to_string()).unwrap();
            let result = match_result(&run).unwrap();
            (result.finished, result.says())
        };
        assert_eq!(said("games"), (true, GamesSay::Gain));
        // Killed (the summary still says running) or stopped by an error:
        // fewer games than planned, which decide nothing.
        assert_eq!(said("running"), (false, GamesSay::Undecided));
        assert_eq!(said("error"), (false, GamesSay::Undecided));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn reversing_swaps_the_sides_and_mirrors_the_pentanomial() {
        let lost = result((10, 30, 60), [20, 10, 15, 4, 1], Some(sprt(0.0, 5.0, -1.0)));
        let won = lost.reversed();
        assert_eq!((won.subject.as_str(), won.reference.as_str()), ("full", "capture-history"));
        assert_eq!(won.wdl, Wdl { wins: 30, draws: 60, losses: 10 });
        assert_eq!(won.penta, Pentanomial([1, 4, 15, 10, 20]));
        let (elo, mirrored) = (lost.elo().unwrap(), won.elo().unwrap());
        assert!((elo.value + mirrored.value).abs() < 1e-9, "{elo:?} {mirrored:?}");
        // Its SPRT was of the other side's gain: mirrored, not misread.
        assert_eq!(won.sprt, Some(SprtReading { elo0: -5.0, elo1: 0.0, llr: 1.0, lower: -2.94, upper: 2.94 }));
        // Its SPRT undecided at the games' end, the sample decides: the
        // other side's clear loss is this side's gain.
        assert_eq!(won.says(), GamesSay::Gain);
        assert_eq!(GameResult { finished: false, ..won.clone() }.says(), GamesSay::Undecided);
        let accepted = |llr| result((10, 30, 60), [20, 10, 15, 4, 1], Some(sprt(0.0, 5.0, llr))).reversed().says();
        // The other side's gain accepted is this side's loss; its H0
        // accepted (no gain of 5) is this side's no loss of 5.
        assert_eq!(accepted(3.0), GamesSay::Loss);
        assert_eq!(accepted(-3.0), GamesSay::NoLoss);
    }

    #[test]
    fn games_that_say_a_loss_contradict_the_measures_that_point_to_a_gain() {
        // capture-history on full: fewer nodes and more WAC positions, yet
        // the games lose (docs/catalogue.md: 1000 games, -18.8 ± 14.8 Elo).
        let signals = [
            Signal { measure: "nodes −13%".into(), points: Points::Gain },
            Signal { measure: "wac +2 solved".into(), points: Points::Gain },
            Signal { measure: "time to depth x1.04".into(), points: Points::Loss },
        ];
        let lost = result((200, 254, 546), [40, 132, 225, 90, 13], None);
        assert_eq!(lost.says(), GamesSay::Loss);
        let section = games_section(&[lost], &signals).unwrap();
        assert!(section.starts_with("## Games: capture-history against full (the evidence that decides)"), "{section}");
        assert!(section.contains("say **a loss**"), "{section}");
        assert!(
            section
                .contains("**The fast measures disagree**: nodes −13%, wac +2 solved point to a gain. Games decide."),
            "{section}"
        );
        // The signals come from intervals and counts.
        let faster = RatioEstimate { ratio: 0.91, interval: Some((0.88, 0.95)), positions: 54 };
        assert_eq!(ratio_signal("t".into(), &faster).map(|signal| signal.points), Some(Points::Gain));
        let unclear = RatioEstimate { ratio: 0.98, interval: Some((0.95, 1.01)), positions: 54 };
        assert_eq!(ratio_signal("t".into(), &unclear), None);
        assert_eq!(solved_signal("wac", 250, 248).unwrap().measure, "wac -2 solved");
        assert_eq!(solved_signal("wac", 250, 250), None);
        // Undecided games contradict nothing.
        let running = result((3, 3, 4), [1, 1, 1, 1, 1], Some(sprt(0.0, 5.0, 0.1)));
        assert!(!games_section(&[running], &signals).unwrap().contains("disagree"));
        assert_eq!(games_section(&[], &signals), None);
    }

    #[test]
    fn the_report_lists_each_variant_with_games_and_what_they_contradict() {
        let lost = result((200, 254, 546), [40, 132, 225, 90, 13], None);
        let signals = vec![Signal { measure: "nodes −13%".into(), points: Points::Gain }];
        let section = report_section(&[(vec![lost], signals), (Vec::new(), Vec::new())]).unwrap();
        let rows: Vec<&str> = section.lines().filter(|line| line.starts_with("| capture-history")).collect();
        assert_eq!(rows.len(), 1, "{section}");
        assert!(
            rows[0].starts_with("| capture-history | full | 1000 at 10+0.1 (lab match, x) | 200 / 254 / 546 |"),
            "{section}"
        );
        assert!(rows[0].ends_with("| - | a loss | **nodes −13%** |"), "{section}");
        // The count of decided variants, and what Holm's correction leaves
        // of it (one test, at p = 2.5e-6 by scipy: kept).
        assert!(section.contains("Of the 1 variant(s), 1 decided (1 after Holm's correction over the 1 tested)."));
        assert_eq!(report_section(&[(Vec::new(), Vec::new())]), None);
    }
}
