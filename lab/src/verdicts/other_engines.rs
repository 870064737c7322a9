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
//!   another engine's search.

use std::fmt::Write;

use anyhow::{anyhow, Result};
use clap::Args;
use games::matches::{self, MatchArgs, MatchSummary};
use games::results::runs_of;
use serde::Serialize;

use crate::engines::{abilities, participant};
use crate::lab::{Lab, Pair, Side};
use crate::verdicts::ab::sections::{ATLAS, FINDINGS};
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

/// The atlas's section of a verdict with another engine: no prediction,
/// and why.
pub fn atlas_section(pair: Pair) -> Option<String> {
    if !involves_other_engine(pair) {
        return None;
    }
    let engines: Vec<String> = [pair.reference, pair.subject]
        .iter()
        .filter_map(|side| side.external)
        .map(|external| format!("`{}`", external.engine))
        .fold(Vec::new(), |mut engines, engine| {
            if !engines.contains(&engine) {
                engines.push(engine);
            }
            engines
        });
    Some(format!(
        "{ATLAS}\n\nNo prediction: the atlas (`atlas/atlas.jsonl`) and its calibration are prunelab's games beside \
         prunelab's fast measures, and say nothing of the search of {}. Only games of the engine itself predict its \
         Elo: the sanity match above, or a match of this pair (`--sprt`).\n",
        engines.join(" and ")
    ))
}

#[cfg(test)]
mod tests {
    use test_support::script;

    use super::*;

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
        // A pair with another engine predicts nothing from prunelab's atlas.
        let pair = Pair::of(&lab, "p003-3", &searching).unwrap();
        assert!(involves_other_engine(pair));
        let section = atlas_section(pair).unwrap();
        assert!(
            section.contains(&format!("say nothing of the search of `{}`", searching.trim_start_matches("uci:"))),
            "{section}"
        );
        assert_eq!(atlas_section(Pair::of(&lab, "p003-3", "razor-r1").unwrap()), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
