//! The replays of B's search along A's line, with the trace build: the one
//! suppressing nothing, read for B's decisions, and those that try not
//! taking them.
//!
//! **The replays** ([`plan`]): the decisions' techniques in rank order, each
//! first at its first-ranked node, then, when it cut other nodes of the
//! line too, on the whole line; at most [`MAX_TRIES`]. The first replay in
//! which B plays a solution gives the verdict (`judge`).

use std::fmt::Write;

use anyhow::{bail, Result};
use games::engine::{Engine, SearchOutput};
use serde::{Deserialize, Serialize};

use super::decisions::{analyze, Decision};
use super::trace;
use super::{BlameArgs, PositionBlame, SolveRecord};
use crate::measure::suites::Suite;
use crate::measure::tactics;

/// How many replays a position gets at most.
pub const MAX_TRIES: usize = 4;

/// What one replay does not take: a technique's decisions at a node of the
/// line (`razoring@2`) or on every node of it (`razoring`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suppressed {
    /// The words of the engine's `trace ... suppress <suppressed>`.
    pub suppressed: String,
    pub technique: String,
    /// The features of the decisions it does not take, and whether one of
    /// them is B's and not A's.
    pub features: Vec<String>,
    pub differs: bool,
}

/// The replays to try, in order (see the module's notes).
pub fn plan(decisions: &[Decision]) -> Vec<Suppressed> {
    let mut tries: Vec<Suppressed> = Vec::new();
    for decision in decisions {
        let technique = &decision.technique;
        if tries.iter().any(|tried| tried.suppressed == *technique) {
            continue; // already not taken on the whole line
        }
        tries.push(Suppressed {
            suppressed: decision.at_node(),
            technique: technique.clone(),
            features: decision.features.clone(),
            differs: decision.differs,
        });
        let same: Vec<&Decision> = decisions.iter().filter(|other| other.technique == *technique).collect();
        if same.len() > 1 {
            let mut features: Vec<String> = Vec::new();
            for feature in same.iter().flat_map(|other| &other.features) {
                if !features.contains(feature) {
                    features.push(feature.clone());
                }
            }
            let differs = same.iter().any(|other| other.differs);
            tries.push(Suppressed { suppressed: technique.clone(), technique: technique.clone(), features, differs });
        }
    }
    tries.truncate(MAX_TRIES);
    tries
}

/// One replay: B searched again, under the same limit, with one suppression.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Try {
    #[serde(flatten)]
    pub what: Suppressed,
    pub played: String,
    pub nodes: u64,
    /// Whether B's move then solves the position.
    pub solved: bool,
    /// How many times a suppressed decision came up and was not taken.
    pub not_taken: usize,
}

impl Try {
    /// `without razoring@2 (not taken 3 times): b1c1 after 50000 nodes, not a solution`.
    pub fn text(&self) -> String {
        format!(
            "without {} (not taken {} time{}): {} after {} nodes, {}",
            self.what.suppressed,
            self.not_taken,
            if self.not_taken == 1 { "" } else { "s" },
            self.played,
            self.nodes,
            if self.solved { "**a solution**" } else { "not a solution" }
        )
    }
}

/// B's search of `position` (a `position fen` command) from a new game,
/// tracing `line` and not taking `suppressed` (`razoring@2`), if any.
fn traced_search(
    engine: &mut Engine,
    args: &BlameArgs,
    position: &str,
    line: &[String],
    suppressed: Option<&str>,
) -> Result<SearchOutput> {
    let (go, timeout) = args.go();
    engine.new_game()?;
    engine.send(position)?;
    let mut command = format!("trace {}", line.join(" "));
    if let Some(suppressed) = suppressed {
        write!(command, " suppress {suppressed}").unwrap();
    }
    engine.send(&command)?;
    if let Some(error) = engine.sync()?.into_iter().find(|text| text.starts_with("error")) {
        bail!("the trace build refused `{command}`: {error}");
    }
    engine.go(position, &go, timeout)
}

/// Replays B along A's line with the trace build, reads its decisions, and
/// tries not taking them until B solves the position (`plan`).
pub(super) fn replay_searches(
    engine: &mut Engine,
    args: &BlameArgs,
    suite: &Suite,
    a_features: &[&str],
    a: &SolveRecord,
    b: &SolveRecord,
) -> PositionBlame {
    let index = a.tactics.position;
    let suite_position = &suite.positions[index];
    let mut blame = PositionBlame::before_replay(suite_position, a, b);
    let position = format!("position fen {}", suite_position.fen);
    let outcome = (|| {
        let output = traced_search(engine, args, &position, &a.line, None)?;
        let events = trace::events_of(&output.strings)?;
        let completed = output.last_info().map_or(0, |info| info.depth);
        let analysis = analyze(&events, &a.line, completed, a.solution_depth, a_features)?;
        Ok::<_, anyhow::Error>((output, events, analysis))
    })();
    let analysis = match outcome {
        Ok((output, events, analysis)) => {
            blame.replay_played = output.bestmove.clone();
            blame.replay_nodes = output.last_info().and_then(|info| info.nodes).unwrap_or(0);
            blame.replay_matches = blame.replay_played == b.tactics.played && blame.replay_nodes == b.tactics.nodes;
            blame.trace = events.iter().map(ToString::to_string).collect();
            analysis
        }
        Err(error) => {
            blame.error = Some(format!("{error:#}"));
            return blame;
        }
    };
    // A replay that is not B's search proves nothing of B: no decision is tried.
    let planned = if blame.replay_matches { plan(&analysis.decisions) } else { Vec::new() };
    for what in planned {
        match try_without(engine, args, &position, &a.line, suite, index, &what) {
            Ok(tried) => {
                let solved = tried.solved;
                blame.tries.push(tried);
                if solved {
                    break;
                }
            }
            Err(error) => {
                blame.error = Some(format!("the replay without {}: {error:#}", what.suppressed));
                blame.analysis = Some(analysis);
                return blame;
            }
        }
    }
    blame.analysis = Some(analysis);
    blame
}

/// One replay not taking `what`: the move B then plays, whether it solves
/// the position, and how often the suppressed decision came up.
fn try_without(
    engine: &mut Engine,
    args: &BlameArgs,
    position: &str,
    line: &[String],
    suite: &Suite,
    index: usize,
    what: &Suppressed,
) -> Result<Try> {
    let output = traced_search(engine, args, position, line, Some(&what.suppressed))?;
    let events = trace::events_of(&output.strings)?;
    let not_taken = events.iter().filter(|event| event.kind == trace::Kind::NotTaken).count();
    let record = tactics::record_of(&args.b, index, &suite.positions[index], Ok(output));
    Ok(Try { what: what.clone(), played: record.played, nodes: record.nodes, solved: record.solved, not_taken })
}
