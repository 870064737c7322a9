//! What a verdict does differently when a side is another engine (a
//! `uci:PATH` side, or a variant of `lab/other-engines/`):
//!
//! - a **sanity match** of a few dozen games, at fixed nodes where both
//!   engines stop at `go nodes`, else on a fast clock. A search from
//!   `ucinewgame` never meets a bug that lives in what a game carries
//!   from move to move (SeaJay's c61adff stored the root in its table and
//!   played illegal moves from it in games), so the verdict opens with the
//!   match's illegal moves, crashes and time losses, its **findings**;
//! - the **tactical suites**, searched at fixed nodes, are left out with
//!   the reason when an engine does not stop at `go nodes`;
//! - **no prediction from prunelab's atlas**: its calibration is
//!   prunelab's games beside prunelab's fast measures, and says nothing of
//!   another engine's search. A pair of one engine's variants reads that
//!   engine's own calibration (`atlas/<engine>/`, `lab atlas --engine`);
//!   without one the page says so and names the command that builds it.

use std::fmt::Write;
use std::path::Path;

use anyhow::{anyhow, Result};
use clap::Args;
use games::matches::{self, MatchArgs, MatchSummary};
use games::results::runs_of;
use serde::Serialize;

use crate::engines::{abilities, participant};
use crate::lab::outside;
use crate::lab::{Lab, Pair, Side};
use crate::verdicts::ab::sections::{ATLAS, FINDINGS};
use crate::verdicts::atlas::entries;
use crate::verdicts::atlas::fast_measures::{self, FastMeasures, MeasuredAt};
use crate::verdicts::calibration::{self, Source};
use crate::verdicts::verdict::TacticsOutcome;

/// Games of the sanity match when `--sanity-games` is not given: a few
/// dozen, minutes at a fast clock.
pub const DEFAULT_SANITY_GAMES: u64 = 40;
/// Its time control where both engines stop at `go nodes`.
pub const SANITY_NODES: &str = "N=10000";
/// Its time control where one does not: a fast clock.
pub const SANITY_CLOCK: &str = "2+0.02";

#[derive(Args, Clone, Debug, Serialize)]
pub struct SanityOptions {
    /// Games of the sanity match a verdict on another engine plays first (0: none); its illegal moves, crashes
    /// and time losses open the page.
    #[arg(long, default_value_t = DEFAULT_SANITY_GAMES, value_name = "N")]
    pub sanity_games: u64,
    /// The sanity match's time control; default: N=10000 where both engines stop at `go nodes`, else 2+0.02.
    #[arg(long, value_name = "TC")]
    pub sanity_tc: Option<String>,
}

/// Whether a side is another engine: no variant of this repository.
fn is_other(side: Side) -> bool {
    side.external.is_some()
}

/// Whether the pair has another engine on either side.
pub fn involves_other_engine(pair: Pair) -> bool {
    is_other(pair.reference) || is_other(pair.subject)
}

/// The first of `names` that is another engine and does not stop at `go
/// nodes`, as the reason a page gives for what it leaves out; `None` when
/// every one can be searched at fixed nodes (ours always can).
pub fn fixed_nodes_refusal(lab: &Lab, names: &[String]) -> Result<Option<String>> {
    for name in names {
        if !Side::of(lab, name).is_ok_and(is_other) {
            continue;
        }
        let launch = participant::launch(lab, name)?;
        if let Some(why) = abilities::go_nodes_refusal(&launch, name)? {
            return Ok(Some(why));
        }
    }
    Ok(None)
}

/// A tactical suite left out for `why`, as the page shows one.
pub fn unmeasured_tactics(suite: &str, nodes: u64, first: Option<usize>, why: &str) -> TacticsOutcome {
    TacticsOutcome {
        suite: suite.to_string(),
        limit: format!("nodes {nodes}"),
        first,
        result: Err(format!("{why}, and the suite is searched at fixed nodes")),
    }
}

/// The sanity match, played or why not.
pub struct Sanity {
    pub tc: String,
    pub games: u64,
    pub outcome: Result<MatchSummary, String>,
}

impl Sanity {
    /// What `summary.json` keeps: the time control, the games, each
    /// engine's illegal moves, crashes, time losses and protocol errors,
    /// and the match's folder; or why it was not played.
    pub fn json(&self) -> serde_json::Value {
        match &self.outcome {
            Ok(summary) => serde_json::json!({
                "tc": self.tc,
                "games": summary.games,
                "failures": summary.engines.iter().map(|engine| serde_json::json!({
                    "engine": engine.name,
                    "illegal_moves": engine.failures.illegal_moves,
                    "crashes": engine.failures.crashes,
                    "time_losses": engine.failures.time_losses,
                    "protocol_errors": engine.failures.protocol_errors,
                })).collect::<Vec<_>>(),
                "run": summary.run_dir,
            }),
            Err(why) => serde_json::json!({"tc": self.tc, "not_played": why}),
        }
    }
}

/// Plays the sanity match of `pair` (B first, so its Elo is B's gain) in
/// `sanity/` of `lab`'s results folder (the verdict's), continuing the one
/// there (`--resume`), when a side is another engine and games are
/// asked for. A match that cannot be played is a finding, not an error:
/// the fast measures stand without it.
pub fn play_sanity(
    lab: &Lab,
    options: &SanityOptions,
    pair: Pair,
    (concurrency, hash_mb): (usize, u32),
) -> Result<Option<Sanity>> {
    if !involves_other_engine(pair) || options.sanity_games == 0 {
        return Ok(None);
    }
    let (a, b) = pair.names();
    let names = [a.to_string(), b.to_string()];
    let tc = match &options.sanity_tc {
        Some(tc) => tc.clone(),
        None if fixed_nodes_refusal(lab, &names)?.is_none() => SANITY_NODES.to_string(),
        None => SANITY_CLOCK.to_string(),
    };
    let mut settings = MatchArgs::new(b, a);
    settings.tc = tc.parse().map_err(|error| anyhow!("--sanity-tc {tc}: {error}"))?;
    settings.games = Some(options.sanity_games);
    settings.concurrency = concurrency;
    settings.hash.mb = hash_mb;
    // In a folder of its own, where a resumed verdict continues it.
    let folder = lab.results_root().join("sanity");
    settings.resume = runs_of(&folder, "match").pop().map(Some);
    lab.say(&format!("sanity match: {b} vs {a}, {} games at {tc}", options.sanity_games));
    let (launch_b, launch_a) = (participant::launch(lab, b)?, participant::launch(lab, a)?);
    let outcome = matches::run_match(&lab.nested(&folder).session(), (b, &launch_b), (a, &launch_a), &settings)
        .map(|outcome| outcome.summary)
        .map_err(|error| format!("{error:#}"));
    Ok(Some(Sanity { tc, games: options.sanity_games, outcome }))
}

/// The page's first section: what the sanity match found.
pub fn findings_section(sanity: &Sanity) -> String {
    let mut out = String::new();
    writeln!(out, "{FINDINGS}the sanity match, {} games at {}\n", sanity.games, sanity.tc).unwrap();
    let summary = match &sanity.outcome {
        Ok(summary) => summary,
        Err(why) => {
            writeln!(out, "- **not played**: {why}").unwrap();
            return out;
        }
    };
    let mut clean = Vec::new();
    for engine in &summary.engines {
        let failures = &engine.failures;
        let counts = [
            (failures.illegal_moves, "illegal move"),
            (failures.crashes, "crash"),
            (failures.time_losses, "time loss"),
            (failures.protocol_errors, "protocol error"),
        ];
        let found: Vec<String> =
            counts.iter().filter(|(count, _)| *count > 0).map(|(count, what)| plural(*count, what)).collect();
        let broken = failures.illegal_moves + failures.crashes + failures.protocol_errors > 0;
        let meaning = match broken {
            true => "a broken engine, whatever the fast measures say",
            // A clock is wall time: a loaded machine eats it too.
            false => "its time management, or a machine too loaded for this clock",
        };
        if found.is_empty() {
            clean.push(format!("`{}`", engine.name));
        } else {
            writeln!(
                out,
                "- **`{}`: {}** in {} games, each a lost game: {meaning}",
                engine.name,
                found.join(", "),
                summary.games
            )
            .unwrap();
        }
    }
    if !clean.is_empty() {
        writeln!(out, "- {}: no illegal move, crash, time loss or protocol error", clean.join(" and ")).unwrap();
    }
    let elo = summary
        .elo
        .map_or("-".to_string(), |elo| format!("{:+.0} (95%: {:+.0} to {:+.0})", elo.value, elo.low, elo.high));
    writeln!(
        out,
        "- `{}` against `{}`: W/L/D {}/{}/{}, Elo {elo}; games: {}",
        summary.engines[0].name,
        summary.engines[1].name,
        summary.wdl.wins,
        summary.wdl.losses,
        summary.wdl.draws,
        summary.run_dir.display()
    )
    .unwrap();
    out
}

/// `3 illegal moves`, `1 crash`.
fn plural(count: u64, what: &str) -> String {
    match (count, what) {
        (1, _) => format!("1 {what}"),
        (_, "crash") => format!("{count} crashes"),
        (_, "time loss") => format!("{count} time losses"),
        _ => format!("{count} {what}s"),
    }
}

/// The atlas's section of a verdict with another engine, `None` for
/// prunelab's pairs: for two variants of one engine, what that engine's
/// calibration says of the verdict's fast measures `fast` (taken `at`
/// these settings), beside `prunelab_atlas` in the engine's folder, and the
/// command that builds it where it cannot predict; for any other pair, no
/// prediction and why.
pub fn atlas_section(
    lab: &Lab,
    prunelab_atlas: &Path,
    pair: Pair,
    (fast, at): (&FastMeasures, &MeasuredAt),
) -> Result<Option<String>> {
    if !involves_other_engine(pair) {
        return Ok(None);
    }
    let engine = match one_engine(lab, pair) {
        Ok(engine) => engine,
        Err(why) => return Ok(Some(format!("{ATLAS}\n\n{why}\n"))),
    };
    let atlas_file = entries::engine_file(&lab.resolve(prunelab_atlas), engine)?;
    let atlas = entries::read(&atlas_file);
    let measured = calibration::measured_pairs(&fast_measures::beside(&atlas_file), &lab.results_root());
    // The subject's own games would only confirm themselves.
    let mut rows = calibration::rows(&atlas, &measured);
    rows.retain(|row| row.variant != pair.subject.name());
    let source = Source {
        file: shown(lab, &atlas_file),
        games_at: Source::games_at(&atlas),
        builds_it: Some(format!("{} atlas --engine {engine}", command_name(lab))),
    };
    Ok(Some(calibration::verdict_section(&rows, fast, at, &source)))
}

/// `cargo lab` in the repository, `lab` outside it.
fn command_name(lab: &Lab) -> &'static str {
    if lab.in_repository {
        "cargo lab"
    } else {
        "lab"
    }
}

/// A file as a page names it: from the repository's root where it is
/// inside one, else whole (the lab's home is no folder the user is in).
fn shown(lab: &Lab, file: &Path) -> String {
    match lab.in_repository {
        true => file.strip_prefix(&lab.root).unwrap_or(file).display().to_string(),
        false => file.display().to_string(),
    }
}

/// The engine both sides are variants of; else why the pair has no
/// calibration: a `uci:` binary names no engine, and a calibration is of
/// one engine's changes.
fn one_engine<'a>(lab: &Lab, pair: Pair<'a>) -> Result<&'a str, String> {
    let sides = [pair.reference, pair.subject];
    if let Some(binary) = sides.iter().find(|side| side.external.is_some_and(|external| external.binary.is_some())) {
        let folder = match lab.in_repository {
            true => crate::variants::external::FOLDER.to_string(),
            false => format!("./{}", outside::OTHER_ENGINES),
        };
        return Err(format!(
            "No calibration: `{}` is a binary of no named engine, and a calibration is kept for an engine by its \
             name. To give it one, write its builds as variants of an engine: files in `{folder}/NAME/` with \
             `engine = \"NAME\"`, `extends` and a `commit` or `[options]` (docs/own-engine.md). Then `{} atlas \
             --engine NAME` plays them into `atlas/NAME/atlas.jsonl`, and a verdict on two of them predicts from it.",
            binary.name(),
            command_name(lab)
        ));
    }
    let engine = |side: &crate::lab::Side<'a>| side.external.map(|external| external.engine.as_str());
    match (engine(&pair.reference), engine(&pair.subject)) {
        (Some(a), Some(b)) if a == b => Ok(a),
        (a, b) => Err(format!(
            "No prediction: `{}` ({}) and `{}` ({}) are not variants of one engine, and a calibration is one \
             engine's changes against their parents. prunelab's atlas says nothing of another engine's search. \
             Only games of the pair predict its Elo: the sanity match above, or a match (`--sprt`).",
            pair.reference.name(),
            a.unwrap_or("prunelab"),
            pair.subject.name(),
            b.unwrap_or("prunelab")
        )),
    }
}

#[cfg(test)]
mod tests {
    use test_support::script;

    use super::*;
    use crate::verdicts::atlas::entries::{AtlasEntry, EngineSide, EngineSides, PairSearches};
    use crate::verdicts::atlas::fast_measures::FastEntry;

    /// A stand-in engine that answers `go nodes` with `go_nodes` (`:` for
    /// never: it searches on, as SeaJay v20251002 does).
    fn stand_in(dir: &std::path::Path, name: &str, go_nodes: &str) -> String {
        let body = format!(
            "while read -r line; do case \"$line\" in uci) echo 'id name Stand-in'; echo uciok;; \
             isready) echo readyok;; 'go nodes'*) {go_nodes};; go*) echo 'info depth 1 nodes 5'; echo 'bestmove e2e4';; \
             quit) exit 0;; esac; done"
        );
        format!("uci:{}", script(dir, name, &body).display())
    }

    #[test]
    fn an_engine_that_searches_past_go_nodes_is_left_out_of_fixed_nodes_with_the_reason() {
        let dir = std::env::temp_dir().join(format!("prunelab-other-engines-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let lab = Lab::for_tests();
        let stopping = stand_in(&dir, "stops.sh", "echo 'info depth 3 nodes 10240'; echo 'bestmove e2e4'");
        let searching = stand_in(&dir, "searches.sh", ":");
        // Finishes its iteration whatever the budget, as SeaJay did in August 2025.
        let overshooting = stand_in(&dir, "overshoots.sh", "echo 'info depth 9 nodes 930000'; echo 'bestmove e2e4'");
        assert_eq!(
            fixed_nodes_refusal(&lab, std::slice::from_ref(&overshooting)).unwrap().as_deref(),
            Some(&*format!("`{overshooting}` does not stop at `go nodes 10000` (it searched 930000 nodes)"))
        );
        // Ours always stop: not asked, so not built.
        let ours = ["razor-r1".to_string(), stopping.clone()];
        assert_eq!(fixed_nodes_refusal(&lab, &ours).unwrap(), None);
        let refusal = fixed_nodes_refusal(&lab, &[stopping.clone(), searching.clone()]).unwrap();
        assert_eq!(
            refusal.as_deref(),
            Some(&*format!("`{searching}` does not stop at `go nodes 10000` (no bestmove within 1 s)"))
        );
        let outcome = unmeasured_tactics("wac", 50_000, None, refusal.as_deref().unwrap());
        assert_eq!(outcome.limit, "nodes 50000");
        assert!(outcome
            .result
            .err()
            .unwrap()
            .ends_with(" (no bestmove within 1 s), and the suite is searched at fixed nodes"));
        // A pair with a `uci:` binary has no calibration, and is told how
        // to get one; a pair of prunelab's has no section here.
        let pair = Pair::of(&lab, "p003-3", &searching).unwrap();
        assert!(involves_other_engine(pair));
        let fast = FastMeasures { node_change_pct: Some(-10.0), ttd_ratio: Some(0.9), wac_change: None };
        let at = MeasuredAt::fitted();
        let section = atlas_section(&lab, Path::new(entries::ATLAS_FILE), pair, (&fast, &at)).unwrap().unwrap();
        assert!(
            section.contains(&format!("No calibration: `{searching}` is a binary of no named engine")),
            "{section}"
        );
        assert!(section.contains("files in `lab/other-engines/NAME/` with `engine = \"NAME\"`"), "{section}");
        assert!(section.contains("Then `cargo lab atlas --engine NAME` plays them into"), "{section}");
        let ours = Pair::of(&lab, "p003-3", "razor-r1").unwrap();
        assert_eq!(atlas_section(&lab, Path::new(entries::ATLAS_FILE), ours, (&fast, &at)).unwrap(), None);
        // prunelab's variant against another engine's: no prediction.
        let mixed = Pair::of(&lab, "p003-3", "seajay-lmr").unwrap();
        let section = atlas_section(&lab, Path::new(entries::ATLAS_FILE), mixed, (&fast, &at)).unwrap().unwrap();
        assert!(
            section.contains(
                "No prediction: `p003-3` (prunelab) and `seajay-lmr` (seajay) are not variants of one engine"
            ),
            "{section}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// An engine's pair of lines at these fast measures and Elo (±16),
    /// on the clock: the atlas line and its fast measures.
    fn engine_lines(variant: &str, ttd_pct: f64, elo: f64) -> (AtlasEntry, FastEntry) {
        let side = |commit: &str| EngineSide {
            commit: Some(commit.into()),
            build: None,
            binary: None,
            options: String::new(),
        };
        let sides = EngineSides { name: "seajay".into(), variant: side(variant), parent: side("before") };
        let searches = PairSearches { engine: Some(sides), ..PairSearches::of([&[], &[]], ["", ""]) };
        let mut line = crate::verdicts::atlas::entries::tests::entry(variant, (30, 30, 40), [4, 8, 20, 8, 4]);
        line.key.searches = searches.clone();
        (line.key.nodes, line.key.tc) = (0, Some(SANITY_CLOCK.into()));
        line.elo = Some(games::statistics::Estimate { value: elo, low: elo - 16.0, high: elo + 16.0 });
        let fast = FastEntry {
            variant: variant.into(),
            parent: line.parent.clone(),
            searches,
            fast: FastMeasures { node_change_pct: None, ttd_ratio: Some(1.0 + ttd_pct / 100.0), wac_change: None },
            node_setting: "verdict at depth 10".into(),
            measured_at: MeasuredAt::fitted(),
            node_change_interval: None,
            ttd_interval: None,
            wac_solved: None,
            source: "20261207T000000Z-chain".into(),
            commit: "0123456789ab".into(),
        };
        (line, fast)
    }

    /// Eight lines of SeaJay's atlas, Elo on the time-to-depth change
    /// alone, each ±16 (equal weights): the verdict on two SeaJay variants
    /// predicts the ordinary least-squares line's value, from that atlas
    /// only; with seven lines, or none, it says too few and names the
    /// command that builds the calibration.
    #[test]
    fn a_verdict_on_one_engine_predicts_from_that_engine_s_calibration_or_names_the_command() {
        let dir = std::env::temp_dir().join(format!("prunelab-engine-calibration-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let prunelab_atlas = dir.join("atlas.jsonl");
        let seajay_atlas = entries::engine_file(&prunelab_atlas, "seajay").unwrap();
        let points = [(-10.0, 20.0), (10.0, -15.0), (-2.0, 5.0), (-20.0, 30.0), (20.0, -25.0), (-5.0, 10.0)];
        let points: Vec<(f64, f64)> = points.into_iter().chain([(2.0, 8.0), (5.0, -5.0)]).collect();
        let lab = Lab::for_tests();
        let pair = Pair::of(&lab, "seajay-before-lmr", "seajay-lmr").unwrap();
        let fast = FastMeasures { node_change_pct: None, ttd_ratio: Some(0.93), wac_change: None };
        let at = MeasuredAt::fitted();
        let section = |lab: &Lab| atlas_section(lab, &prunelab_atlas, pair, (&fast, &at)).unwrap().unwrap();
        // None yet: the count, and the command.
        let none = section(&lab);
        let shown = seajay_atlas.display();
        assert!(none.contains(&format!("The atlas (`{shown}`) has 0 variant(s)")), "{none}");
        assert!(none.contains("- no prediction of Elo: the atlas has 0 variant(s) with time-to-depth ratio, too few"));
        assert!(
            none.contains(&format!(
                "- to build its calibration: `cargo lab atlas --engine seajay` plays each of the engine's variants \
                 against its parent into `{shown}`"
            )),
            "{none}"
        );
        for (index, (x, y)) in points.iter().enumerate() {
            let (line, measures) = engine_lines(&format!("v{index}"), *x, *y);
            entries::append(&seajay_atlas, &line).unwrap();
            fast_measures::append(&fast_measures::beside(&seajay_atlas), &measures).unwrap();
            if index == 6 {
                assert!(section(&lab).contains("the atlas has 7 variant(s) with time-to-depth ratio, too few"));
            }
        }
        // prunelab's atlas beside it is untouched.
        assert!(!prunelab_atlas.exists());
        let n = points.len() as f64;
        let (mx, my) = (points.iter().map(|p| p.0).sum::<f64>() / n, points.iter().map(|p| p.1).sum::<f64>() / n);
        let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
        let slope = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum::<f64>() / sxx;
        let predicted = my + slope * (-7.0 - mx);
        let page = section(&lab);
        assert!(
            page.contains(&format!(
                "- the atlas's fit on time-to-depth ratio predicts {predicted:+.1} Elo on the clock 2+0.02 (95% \
                 prediction interval: "
            )),
            "{page}\n{predicted}"
        );
        assert!(page.contains(", 8 variants); its leave-one-out error"), "{page}");
        assert!(!page.contains("to build its calibration"), "{page}");
        // Measures taken elsewhere want measuring again, not more games.
        let at_depth_8 = MeasuredAt { depth: 8, ..MeasuredAt::fitted() };
        let elsewhere = atlas_section(&lab, &prunelab_atlas, pair, (&fast, &at_depth_8)).unwrap().unwrap();
        assert!(elsewhere.contains("- no prediction of Elo: not comparable: "), "{elsewhere}");
        assert!(!elsewhere.contains("to build its calibration"), "{elsewhere}");
        // Another engine's atlas with the same lines is not SeaJay's.
        let other = Pair::of(&lab, "p003-3", "seajay-lmr").unwrap();
        let mixed = atlas_section(&lab, &prunelab_atlas, other, (&fast, &at)).unwrap().unwrap();
        assert!(!mixed.contains("predicts"), "{mixed}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
