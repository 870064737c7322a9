//! `lab blame A B`: for each position A solves and B does not, the pruning
//! decisions of B's search on A's line, those of the features B adds
//! first, and counterfactual replays that prove or refute them.
//!
//! The run has two stages, each writing its records as they finish:
//!
//! 1. **Solve**: A and B search every position with the same limit, from
//!    `ucinewgame`, as `lab tactics` does (its records, plus the line of
//!    each search: the principal variation of its last completed
//!    iteration, which begins with the move played).
//! 2. **Blame**: for each position A solves and B does not, B built with
//!    its features plus `trace` searches again under the same limit,
//!    tracing A's line (`trace <A's line>`), and [`verdict::analyze`] reads
//!    its decisions on the line in every completed iteration. The
//!    traced search visits exactly the nodes the untraced one does, so this
//!    replay must play B's move after B's node count; the record says
//!    whether it did. When it did, the same build searches again, the same
//!    way, with one decision not taken (`trace <A's line> suppress
//!    razoring@2`), for each of [`verdict::plan`]'s suppressions until B
//!    plays a solution, and [`verdict::judge`] gives the verdict: cause
//!    (the solving replay met the decision and did not take it), not
//!    sufficient, or not a pruning loss. When it did not, or when the
//!    solving replay never met its decision, the verdict is unproven, and
//!    says why.
//!
//! Only node and depth limits are offered: a replay under a clock would not
//! search the tree it explains.

mod trace;
mod verdict;

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Result};
use clap::Args;
use serde::{Deserialize, Serialize};

use crate::engines::builder;
use crate::engines::engine::{Engine, SearchOutput};
use crate::engines::runner::{self, Contestant, Job, RunArgs, Settings};
use crate::lab::Lab;
use crate::measure::suites::{self, Suite};
use crate::measure::tactics::{self, TacticsRecord};
use crate::results::{read_run, runs_of, RunDir};

use verdict::{Analysis, Try, Unproven, Verdict};

#[derive(Args, Clone, Debug, Serialize)]
pub struct BlameArgs {
    /// The variant that solves: its line is traced.
    pub a: String,
    /// The variant that does not: its search is replayed along A's line.
    pub b: String,
    /// `wac`, `arasan`, `zugzwang`, another named suite, or an EPD file with `bm`/`am`.
    #[arg(long, default_value = "wac")]
    pub suite: String,
    /// Search this many nodes per position (the default: 100000).
    #[arg(long, value_name = "N", group = "limit")]
    pub nodes: Option<u64>,
    /// Search to this depth per position.
    #[arg(long, value_name = "D", group = "limit")]
    pub depth: Option<u32>,
    /// Blame this position (its `id`) only, whenever A solves it.
    #[arg(long, value_name = "ID")]
    pub position: Option<String>,
    /// Hash size in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: u32,
    #[command(flatten)]
    #[serde(skip)]
    pub run: RunArgs,
}

impl BlameArgs {
    /// The `go` command both variants and the replay search with, and how
    /// long before an engine counts as hung.
    fn go(&self) -> (String, Duration) {
        match self.depth {
            Some(depth) => (format!("go depth {depth}"), Duration::from_secs(3600)),
            None => (format!("go nodes {}", self.nodes.unwrap_or(tactics::DEFAULT_NODES)), Duration::from_secs(600)),
        }
    }

    fn limit_text(&self) -> String {
        self.go().0.trim_start_matches("go ").to_string()
    }
}

/// One variant's search of one position: the tactics record and its line.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SolveRecord {
    pub tactics: TacticsRecord,
    /// The principal variation of the last completed iteration (UCI).
    pub line: Vec<String>,
    /// The last completed iteration.
    pub completed_depth: u32,
    /// The depth of the report from which the move stayed a solution.
    pub solution_depth: Option<u32>,
}

/// B's replays of one position along A's line, and the verdict.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PositionBlame {
    pub position: usize,
    pub id: String,
    pub fen: String,
    /// A's line, traced.
    pub line: Vec<String>,
    pub a_played: String,
    pub b_played: String,
    /// B's nodes in the solve stage (0 in records kept before it was).
    #[serde(default)]
    pub b_nodes: u64,
    pub b_solved: bool,
    /// What the traced replay (nothing suppressed) played and after how
    /// many nodes.
    pub replay_played: String,
    pub replay_nodes: u64,
    /// Whether the replay played B's move after B's node count.
    pub replay_matches: bool,
    /// B's trace along A's line, read: its decisions, ranked.
    pub analysis: Option<Analysis>,
    /// The counterfactual replays, in the order tried.
    pub tries: Vec<Try>,
    pub verdict: Option<Verdict>,
    /// The replay's trace lines, as the engine printed them.
    pub trace: Vec<String>,
    pub error: Option<String>,
}

/// A line of `records.jsonl`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "stage", rename_all = "kebab-case")]
pub enum BlameRecord {
    Solve(SolveRecord),
    Blame(Box<PositionBlame>),
}

fn solve_record(variant: &str, index: usize, suite: &Suite, outcome: Result<SearchOutput>) -> SolveRecord {
    let last = outcome.as_ref().ok().and_then(|output| output.last_info().cloned()).unwrap_or_default();
    let infos = outcome.as_ref().map(|output| output.infos.clone()).unwrap_or_default();
    let record = tactics::record_of(variant, index, &suite.positions[index], outcome);
    // The report tactics took the nodes to solution from.
    let solution_depth = record
        .solution_nodes
        .and_then(|nodes| infos.iter().find(|info| info.nodes == Some(nodes)))
        .map(|info| info.depth);
    SolveRecord { tactics: record, line: last.pv, completed_depth: last.depth, solution_depth }
}

/// The positions the run searches: the suite's with `bm` or `am`, or the
/// one `--position` names.
fn positions(lab: &Lab, args: &BlameArgs) -> Result<Suite> {
    let mut suite = suites::load(lab, &args.suite)?;
    suite.report_skipped(lab);
    suite.positions.retain(|position| !position.best.is_empty() || !position.avoid.is_empty());
    if let Some(id) = &args.position {
        let Some(found) = suite.positions.iter().find(|position| &position.id == id).cloned() else {
            let ids: Vec<&str> = suite.positions.iter().take(3).map(|position| position.id.as_str()).collect();
            bail!(
                "suite `{}` has no position with bm or am whose id is `{id}` (its ids: {}, ...)",
                suite.name,
                ids.join(", ")
            );
        };
        suite.positions = vec![found];
    }
    if suite.positions.is_empty() {
        bail!("suite `{}` has no positions with bm or am", suite.name);
    }
    Ok(suite)
}

/// The solve records of `variant`, by position.
fn solved_by<'a>(records: &'a [BlameRecord], variant: &str) -> BTreeMap<usize, &'a SolveRecord> {
    records
        .iter()
        .filter_map(|record| match record {
            BlameRecord::Solve(solve) if solve.tactics.variant == variant => Some((solve.tactics.position, solve)),
            _ => None,
        })
        .collect()
}

/// The positions to blame: A solved them (without error) and B did not.
fn to_blame(args: &BlameArgs, records: &[BlameRecord]) -> Vec<usize> {
    let (a, b) = (solved_by(records, &args.a), solved_by(records, &args.b));
    a.iter()
        .filter(|(_, record)| record.tactics.solved && record.tactics.error.is_none())
        .filter(|(position, _)| {
            b.get(position).is_some_and(|record| record.tactics.error.is_none() && !record.tactics.solved)
        })
        .map(|(&position, _)| position)
        .collect()
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
/// tries not taking them until B solves the position (`verdict::plan`).
fn replay(
    engine: &mut Engine,
    args: &BlameArgs,
    suite: &Suite,
    a_features: &[&str],
    a: &SolveRecord,
    b: &SolveRecord,
) -> PositionBlame {
    let index = a.tactics.position;
    let suite_position = &suite.positions[index];
    let mut blame = PositionBlame {
        position: index,
        id: suite_position.id.clone(),
        fen: suite_position.fen.clone(),
        line: a.line.clone(),
        a_played: a.tactics.played.clone(),
        b_played: b.tactics.played.clone(),
        b_nodes: b.tactics.nodes,
        b_solved: b.tactics.solved,
        replay_played: String::new(),
        replay_nodes: 0,
        replay_matches: false,
        analysis: None,
        tries: Vec::new(),
        verdict: None,
        trace: Vec::new(),
        error: None,
    };
    let position = format!("position fen {}", suite_position.fen);
    let outcome = (|| {
        let output = traced_search(engine, args, &position, &a.line, None)?;
        let events = trace::events_of(&output.strings)?;
        let completed = output.last_info().map_or(0, |info| info.depth);
        let analysis = verdict::analyze(&events, &a.line, completed, a.solution_depth, a_features)?;
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
    let planned = if blame.replay_matches { verdict::plan(&analysis.decisions) } else { Vec::new() };
    for what in planned {
        let outcome = (|| {
            let output = traced_search(engine, args, &position, &a.line, Some(&what.suppressed))?;
            let events = trace::events_of(&output.strings)?;
            let not_taken = events.iter().filter(|event| event.kind == trace::Kind::NotTaken).count();
            let record = tactics::record_of(&args.b, index, suite_position, Ok(output));
            Ok::<_, anyhow::Error>(Try {
                what: what.clone(),
                played: record.played,
                nodes: record.nodes,
                solved: record.solved,
                not_taken,
            })
        })();
        match outcome {
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
    blame.verdict = Some(verdict::judge(&analysis, &blame.tries, blame.replay_matches));
    blame.analysis = Some(analysis);
    blame
}

/// A technique and its features, as tables show them: ``razoring `razor-r1`, `razor-r2` ``.
fn technique_features(technique: &str, features: &[String]) -> String {
    let features: Vec<String> = features.iter().map(|feature| format!("`{feature}`")).collect();
    format!("{technique} {}", features.join(", "))
}

/// Positions by the decision named first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamedCount {
    pub positions: usize,
    /// The decision's features include one B has and A lacks.
    pub differs: bool,
    /// Positions where not taking this technique's decisions solved it.
    pub causes: usize,
}

/// The run's verdicts, counted.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Counts {
    /// Verdict (`cause`, `not sufficient`, `not a pruning loss`, `failed`)
    /// → positions.
    pub verdicts: BTreeMap<String, usize>,
    /// The decision named first (technique and features) → positions.
    pub named: BTreeMap<String, NamedCount>,
    /// The decision whose suppression solved it (technique and features) →
    /// positions.
    pub causes: BTreeMap<String, usize>,
    /// Not a pruning loss: the reason → positions.
    pub reasons: BTreeMap<String, usize>,
}

pub fn counts<'a>(blames: impl Iterator<Item = &'a PositionBlame>) -> Counts {
    let mut counts = Counts::default();
    for blame in blames {
        let (Some(verdict), Some(analysis)) = (blame.verdict, &blame.analysis) else {
            *counts.verdicts.entry("failed".to_string()).or_default() += 1;
            continue;
        };
        *counts.verdicts.entry(verdict.name().to_string()).or_default() += 1;
        let cause = blame.tries.iter().find(|tried| tried.solved).filter(|_| verdict == Verdict::Cause);
        if let Some(cause) = cause {
            *counts.causes.entry(technique_features(&cause.what.technique, &cause.what.features)).or_default() += 1;
        }
        match analysis.decisions.first() {
            Some(first) => {
                let named = counts.named.entry(technique_features(&first.technique, &first.features)).or_default();
                named.positions += 1;
                named.differs |= first.differs;
                named.causes += usize::from(cause.is_some_and(|cause| cause.what.technique == first.technique));
            }
            None => *counts.reasons.entry(analysis.reason.name().to_string()).or_default() += 1,
        }
    }
    counts
}

/// Count tables, most positions first.
fn sorted<V>(map: &BTreeMap<String, V>, positions: impl Fn(&V) -> usize) -> Vec<(&String, &V)> {
    let mut rows: Vec<(&String, &V)> = map.iter().collect();
    rows.sort_by(|x, y| positions(y.1).cmp(&positions(x.1)).then(x.0.cmp(y.0)));
    rows
}

/// The decision named first, in one table cell.
fn named_cell(blame: &PositionBlame, a: &str) -> String {
    let Some(analysis) = &blame.analysis else { return "-".to_string() };
    let Some(first) = analysis.decisions.first() else { return "none".to_string() };
    let mut out = format!(
        "{} {} at ply {}, iteration{} {}",
        technique_features(&first.technique, &first.features),
        first.event.kind.name(),
        first.ply,
        if first.iterations.len() > 1 { "s" } else { "" },
        verdict::ranges(&first.iterations)
    );
    if !first.against_solver {
        out.push_str(", in the solver's favour");
    }
    if !first.differs {
        write!(out, " (in {a} too)").unwrap();
    }
    if let Some(later) = first.searched_past_later_text(analysis.completed_depth) {
        write!(out, "; {later}").unwrap();
    }
    out
}

/// The verdict in one table cell.
fn verdict_cell(blame: &PositionBlame, b: &str) -> String {
    if let Some(error) = &blame.error {
        return format!("failed: {error}");
    }
    let (Some(verdict), Some(analysis)) = (blame.verdict, &blame.analysis) else { return "-".to_string() };
    match verdict {
        Verdict::Cause => {
            let cause = blame.tries.iter().find(|tried| tried.solved).expect("a cause is a solving replay");
            format!("**cause**: without {}, {b} plays {}", cause.what.suppressed, cause.played)
        }
        Verdict::NotSufficient => {
            let tried: Vec<String> =
                blame.tries.iter().map(|tried| format!("{} ({})", tried.what.suppressed, tried.played)).collect();
            format!("**not sufficient**: without {}", tried.join(", without "))
        }
        Verdict::NotAPruningLoss => {
            let at = analysis.reason_event.as_ref().map_or(String::new(), |event| format!(" at ply {}", event.ply));
            format!("**not a pruning loss**: {}{at}", analysis.reason.name())
        }
        Verdict::Unproven(why) => format!("**unproven**: {}", unproven_reason(blame, why, b)),
    }
}

/// Why a verdict is unproven, with what was measured.
fn unproven_reason(blame: &PositionBlame, why: Unproven, b: &str) -> String {
    match why {
        Unproven::ReplayDiffers => format!(
            "the replay suppressing nothing played {} after {} nodes, {b} {} after {}: its trace is not {b}'s search",
            blame.replay_played, blame.replay_nodes, blame.b_played, blame.b_nodes
        ),
        Unproven::NotTaken => {
            let solving = blame.tries.iter().find(|tried| tried.solved).expect("unproven: a solving replay");
            format!(
                "without {}, {b} plays {}, but that replay never met the decision (not taken 0 times)",
                solving.what.suppressed, solving.played
            )
        }
    }
}

struct Summary {
    markdown: String,
    json: serde_json::Value,
}

/// The features one variant has and the other lacks, as `+x` / `-y`.
fn feature_difference(lab: &Lab, a: &str, b: &str) -> Vec<String> {
    let features = |name: &str| lab.variant(name).map(|variant| variant.features.clone()).unwrap_or_default();
    let (a_features, b_features) = (features(a), features(b));
    let added =
        b_features.iter().filter(|feature| !a_features.contains(feature)).map(|feature| format!("`+{feature}`"));
    let removed =
        a_features.iter().filter(|feature| !b_features.contains(feature)).map(|feature| format!("`-{feature}`"));
    added.chain(removed).collect()
}

fn summarize(lab: &Lab, args: &BlameArgs, suite: &Suite, records: &[BlameRecord]) -> Summary {
    let (a, b) = (&args.a, &args.b);
    let (a_solves, b_solves) = (solved_by(records, a), solved_by(records, b));
    let solved = |map: &BTreeMap<usize, &SolveRecord>| map.values().filter(|record| record.tactics.solved).count();
    let mut blames: Vec<&PositionBlame> = records
        .iter()
        .filter_map(|record| match record {
            BlameRecord::Blame(blame) => Some(blame.as_ref()),
            BlameRecord::Solve(_) => None,
        })
        .collect();
    blames.sort_by_key(|blame| blame.position);
    let counts = counts(blames.iter().copied());

    let mut out = String::new();
    writeln!(
        out,
        "# lab blame: {b} against {a}, {} at {} per position, Hash {}\n",
        suite.name,
        args.limit_text(),
        args.hash
    )
    .unwrap();
    match &args.position {
        Some(id) => {
            let played = |records: &BTreeMap<usize, &SolveRecord>| {
                records.values().next().map(|record| (record.tactics.solved, record.tactics.played.clone()))
            };
            match (played(&a_solves), played(&b_solves)) {
                (Some((false, a_move)), _) => writeln!(
                    out,
                    "{id}: {a} does not solve it (it plays {a_move}): there is no solution of {a}'s to blame."
                )
                .unwrap(),
                (Some((true, a_move)), Some((true, b_move))) => writeln!(
                    out,
                    "{id}: {a} and {b} both solve it ({a} plays {a_move}, {b} {b_move}): there is nothing to blame."
                )
                .unwrap(),
                (Some((true, a_move)), Some((false, b_move))) => {
                    writeln!(out, "{id}: {a} solves it ({a_move}), {b} does not ({b_move}).").unwrap()
                }
                _ => writeln!(out, "{id}: a search failed (see the records).").unwrap(),
            }
        }
        None => writeln!(
            out,
            "{a} solves {} of {}, {b} {}; {} solved by {a} and not by {b}.",
            solved(&a_solves),
            suite.positions.len(),
            solved(&b_solves),
            blames.len()
        )
        .unwrap(),
    }
    if !blames.is_empty() {
        let difference = feature_difference(lab, a, b);
        let difference = if difference.is_empty() { "none".to_string() } else { difference.join(", ") };
        writeln!(
            out,
            "\nThe features {b} has and {a} lacks (`+`), and the reverse (`-`): {difference}.\n\n\
             Each position is searched again by {b} built with `trace`, under the same limit, following {a}'s line \
             (the principal variation of its last completed iteration). {b}'s pruning decisions on that line, in \
             every completed iteration, are ranked: those of the features {b} has and {a} lacks first, then those \
             against the side that solves, then the nearest the root. Then {b} is searched again with the first one not taken (its technique at that node; \
             then, if it cut other nodes too, on the whole line; then the next technique's; {} replays at most). \
             **cause**: {b} then solves it, and that replay met the decision and did not take it; **not \
             sufficient**: it solves it in none of the replays; **not a pruning loss**: no decision of {b}'s cut the \
             line, and the reason named is what its last completed iteration shows; **unproven**: the replay \
             suppressing nothing did not play {b}'s move after {b}'s node count (then no decision is tried), or the \
             replay that solved it never met its decision (docs/verdicts.md, \"Reading a blame\").\n",
            verdict::MAX_TRIES
        )
        .unwrap();
        writeln!(
            out,
            "| position | {a} plays | {b} plays | {a}'s solution from depth / {b}'s last | decision named first | verdict |"
        )
        .unwrap();
        writeln!(out, "|---|---|---|---|---|---|").unwrap();
        for blame in &blames {
            let depths = blame.analysis.as_ref().map_or("-".to_string(), |analysis| {
                format!(
                    "{} / {}",
                    analysis.solution_depth.map_or("-".to_string(), |depth| depth.to_string()),
                    analysis.completed_depth
                )
            });
            writeln!(
                out,
                "| {} | {} | {} | {depths} | {} | {} |",
                blame.id,
                blame.a_played,
                blame.b_played,
                named_cell(blame, a),
                verdict_cell(blame, b)
            )
            .unwrap();
        }
        writeln!(
            out,
            "\n{a}'s solution from depth: the first iteration from which {a}'s move stayed the solution to the end \
             (1: from its first iteration on). {b}'s last: its last completed iteration, whose move it played."
        )
        .unwrap();

        writeln!(out, "\n## Counts\n").unwrap();
        writeln!(out, "| verdict | positions |\n|---|---:|").unwrap();
        for (verdict, count) in sorted(&counts.verdicts, |count| *count) {
            writeln!(out, "| {verdict} | {count} |").unwrap();
        }
        if !counts.named.is_empty() {
            writeln!(
                out,
                "\n| decision named first | {b}'s and not {a}'s | positions | cause: not taking it solves |\n|---|---|---:|---:|"
            )
            .unwrap();
            for (key, named) in sorted(&counts.named, |named| named.positions) {
                let differs = if named.differs { "yes" } else { "no" };
                writeln!(out, "| {key} | {differs} | {} | {} |", named.positions, named.causes).unwrap();
            }
        }
        if !counts.causes.is_empty() {
            writeln!(out, "\n| cause: the decision not taken | positions |\n|---|---:|").unwrap();
            for (key, count) in sorted(&counts.causes, |count| *count) {
                writeln!(out, "| {key} | {count} |").unwrap();
            }
        }
        if !counts.reasons.is_empty() {
            writeln!(out, "\n| not a pruning loss: reason | positions |\n|---|---:|").unwrap();
            for (reason, count) in sorted(&counts.reasons, |count| *count) {
                writeln!(out, "| {reason} | {count} |").unwrap();
            }
        }

        writeln!(out, "\n## Positions").unwrap();
        for blame in &blames {
            writeln!(out, "\n### {}\n\n`{}`\n", blame.id, blame.fen).unwrap();
            writeln!(out, "- {a}'s line: {}", blame.line.join(" ")).unwrap();
            if let Some(analysis) = &blame.analysis {
                if analysis.decisions.is_empty() {
                    writeln!(out, "- no pruning decision of {b}'s cut the line; {}", analysis.reason_text(&blame.line))
                        .unwrap();
                } else {
                    writeln!(out, "- {b}'s decisions on the line, ranked:").unwrap();
                    for (rank, decision) in analysis.decisions.iter().enumerate() {
                        writeln!(out, "  {}. {}", rank + 1, decision.text(analysis.completed_depth)).unwrap();
                    }
                    writeln!(
                        out,
                        "- besides, its last completed iteration shows: {}",
                        analysis.reason_text(&blame.line)
                    )
                    .unwrap();
                }
            }
            for tried in &blame.tries {
                writeln!(out, "- replayed {}", tried.text()).unwrap();
            }
            if blame.verdict.is_some() {
                writeln!(out, "- verdict: {}", verdict_cell(blame, b)).unwrap();
            }
            if let Some(error) = &blame.error {
                writeln!(out, "- the replay failed: {error}").unwrap();
            }
            if !blame.replay_played.is_empty() {
                let agreement = if blame.replay_matches {
                    format!("as {b} did")
                } else {
                    format!(
                        "**not as {b} did ({} after {} nodes): the trace may not explain its search**",
                        blame.b_played,
                        solve_nodes(&b_solves, blame.position)
                    )
                };
                writeln!(
                    out,
                    "- the traced replay, nothing suppressed, played {} after {} nodes, {agreement}; {} trace events",
                    blame.replay_played,
                    blame.replay_nodes,
                    blame.trace.len()
                )
                .unwrap();
            }
        }
    }
    let json = serde_json::json!({
        "a": a,
        "b": b,
        "suite": suite.name,
        "limit": args.limit_text(),
        "hash": args.hash,
        "position": args.position,
        "positions": suite.positions.len(),
        "solved": { a.as_str(): solved(&a_solves), b.as_str(): solved(&b_solves) },
        "blames": blames.iter().map(|blame| serde_json::json!({
            "id": blame.id,
            "fen": blame.fen,
            "line": blame.line,
            "a_played": blame.a_played,
            "b_played": blame.b_played,
            "replay_matches": blame.replay_matches,
            "analysis": blame.analysis,
            "tries": blame.tries,
            "verdict": blame.verdict,
            "error": blame.error,
        })).collect::<Vec<_>>(),
        "counts": counts,
    });
    Summary { markdown: out, json }
}

fn solve_nodes(records: &BTreeMap<usize, &SolveRecord>, position: usize) -> u64 {
    records.get(&position).map_or(0, |record| record.tactics.nodes)
}

/// A finished blame run.
pub struct BlameRun {
    pub markdown: String,
    pub run_dir: std::path::PathBuf,
}

pub fn run(lab: &Lab, args: &BlameArgs) -> Result<BlameRun> {
    lab.variant(&args.a)?;
    lab.variant(&args.b)?;
    if let Some(depth) = args.depth {
        suites::check_depth(depth)?;
    }
    let suite = positions(lab, args)?;
    let variants = [args.a.clone(), args.b.clone()];
    let binaries = builder::build_all(lab, &variants)?;
    let contestants: Vec<Contestant> = variants
        .iter()
        .zip(binaries)
        .map(|(name, binary)| Contestant { name: name.clone(), launch: binary.into(), has_telemetry: true })
        .collect();
    let (mut run_dir, mut records): (RunDir, Vec<BlameRecord>) = args.run.open(lab, "blame", args)?;

    // Stage 1: A and B on every position, as `lab tactics` searches them.
    let (go, timeout) = args.go();
    let jobs: Vec<Job> = (0..suite.positions.len())
        .flat_map(|position| (0..contestants.len()).map(move |contestant| (position, contestant)))
        .filter(|&(position, contestant)| !solved_by(&records, &contestants[contestant].name).contains_key(&position))
        .map(|(position, contestant)| Job {
            contestant,
            position,
            fen: suite.positions[position].fen.clone(),
            go: go.clone(),
            timeout,
        })
        .collect();
    let settings = Settings { hash_mb: args.hash, concurrency: args.run.concurrency, telemetry: false };
    let bar = lab.progress(jobs.len() as u64, &format!("blame: solve {}", suite.name));
    runner::run(&contestants, &jobs, &settings, |job, outcome| {
        let record = solve_record(&contestants[job.contestant].name, job.position, &suite, outcome);
        if let Some(error) = &record.tactics.error {
            bar.suspend(|| lab.say(&format!("{}: {error}", record.tactics.id)));
        }
        let record = BlameRecord::Solve(record);
        run_dir.append(&record)?;
        records.push(record);
        bar.inc(1);
        Ok(())
    })?;
    bar.finish_and_clear();

    // Stage 2: B's replay along A's line, for each position to blame.
    let done: Vec<usize> = records
        .iter()
        .filter_map(|record| match record {
            BlameRecord::Blame(blame) => Some(blame.position),
            BlameRecord::Solve(_) => None,
        })
        .collect();
    let pending: Vec<usize> =
        to_blame(args, &records).into_iter().filter(|position| !done.contains(position)).collect();
    if !pending.is_empty() {
        lab.say(&format!("building {} with trace", args.b));
        let traced = builder::ensure_built_with(lab, &args.b, &["trace"])?;
        let mut engine = Engine::start(&traced, &format!("{}+trace", args.b))?;
        engine.set_option("Hash", &args.hash.to_string())?;
        let a_features = lab.variant(&args.a)?.features.clone();
        let (a_records, b_records) = (solved_by(&records, &args.a), solved_by(&records, &args.b));
        let bar = lab.progress(pending.len() as u64, "blame: replay");
        let mut blames = Vec::new();
        for &position in &pending {
            let blame = replay(&mut engine, args, &suite, &a_features, a_records[&position], b_records[&position]);
            if let Some(error) = &blame.error {
                bar.suspend(|| lab.say(&format!("{}: {error}", blame.id)));
                // A failed engine is started again for the next position.
                engine = Engine::start(&traced, &format!("{}+trace", args.b))?;
                engine.set_option("Hash", &args.hash.to_string())?;
            }
            let record = BlameRecord::Blame(Box::new(blame));
            run_dir.append(&record)?;
            blames.push(record);
            bar.inc(1);
        }
        bar.finish_and_clear();
        records.extend(blames);
    }
    let summary = summarize(lab, args, &suite, &records);
    run_dir.write_summary(&summary.markdown, &summary.json)?;
    Ok(BlameRun { markdown: summary.markdown, run_dir: run_dir.path().to_path_buf() })
}

pub fn command(lab: &Lab, args: &BlameArgs) -> Result<()> {
    let run = run(lab, args)?;
    if lab.global.json {
        println!("{}", std::fs::read_to_string(run.run_dir.join("summary.json"))?);
    } else {
        println!("{}", run.markdown);
        lab.say(&format!("results: {}", run.run_dir.display()));
    }
    Ok(())
}

/// `lab report`'s section: the latest blame run's counts, or `None` when
/// there is none.
pub fn report_section(results: &Path) -> Option<String> {
    let run = runs_of(results, "blame").pop()?;
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("summary.json")).ok()?).ok()?;
    let started = read_run(&run).and_then(|run| run["started"].as_str().map(str::to_string)).unwrap_or_default();
    let counts: Counts = serde_json::from_value(summary["counts"].clone()).ok()?;
    let text = |key: &str| summary[key].as_str().unwrap_or("?").to_string();
    let blames = summary["blames"].as_array().map_or(0, Vec::len);
    let mut out = String::new();
    writeln!(
        out,
        "## Blame\n\nThe latest `lab blame` ({started}, `{}`): {} against {}, {} at {}: {blames} position(s) {} solves and {} does not.\n",
        run.file_name().map_or(String::new(), |name| name.to_string_lossy().into_owned()),
        text("b"),
        text("a"),
        text("suite"),
        text("limit"),
        text("a"),
        text("b")
    )
    .ok()?;
    if blames > 0 {
        writeln!(out, "| verdict | positions |\n|---|---:|").ok()?;
        for (verdict, count) in sorted(&counts.verdicts, |count| *count) {
            writeln!(out, "| {verdict} | {count} |").ok()?;
        }
        if !counts.named.is_empty() {
            writeln!(out, "\n| decision named first | positions | cause |\n|---|---:|---:|").ok()?;
            for (key, named) in sorted(&counts.named, |named| named.positions) {
                writeln!(out, "| {key} | {} | {} |", named.positions, named.causes).ok()?;
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::verdict::{Decision, Reason};
    use super::*;

    fn event(line: &str) -> trace::TraceEvent {
        line.parse().unwrap()
    }

    /// A blame of `verdict`, whose first decision is `technique`'s
    /// (`feature`, B's alone when `differs`), solved by not taking `cause`.
    fn blame_with(first: Option<(&str, &str, bool)>, cause: Option<&str>, reason: Reason) -> PositionBlame {
        let decisions: Vec<Decision> = first
            .into_iter()
            .map(|(technique, feature, differs)| Decision {
                technique: technique.into(),
                features: vec![feature.into()],
                ply: 2,
                iterations: vec![3, 4],
                differs,
                against_solver: true,
                event: event(&format!("iter=4 ply=2 depth=1 node-pruned {technique} {feature} | d")),
                searched_past_later: Vec::new(),
            })
            .collect();
        let analysis = Analysis { decisions, reason, reason_event: None, completed_depth: 5, solution_depth: Some(5) };
        let tries: Vec<Try> = verdict::plan(&analysis.decisions)
            .into_iter()
            .map(|what| {
                let solved = cause == Some(what.technique.as_str());
                Try { what, played: "d2d4".into(), nodes: 10, solved, not_taken: 1 }
            })
            .collect();
        PositionBlame {
            position: 0,
            id: "x".into(),
            fen: String::new(),
            line: vec!["e2e4".into()],
            a_played: "e2e4".into(),
            b_played: "d2d4".into(),
            b_nodes: 10,
            b_solved: false,
            replay_played: "d2d4".into(),
            replay_nodes: 10,
            replay_matches: true,
            verdict: Some(verdict::judge(&analysis, &tries, true)),
            analysis: Some(analysis),
            tries,
            trace: Vec::new(),
            error: None,
        }
    }

    #[test]
    fn counts_go_by_verdict_by_the_decision_named_first_and_by_cause() {
        let blames = [
            blame_with(Some(("razoring", "razor-r1", true)), Some("razoring"), Reason::Lmr),
            blame_with(Some(("razoring", "razor-r1", true)), None, Reason::Lmr),
            blame_with(Some(("razoring", "razor-r2", true)), Some("razoring"), Reason::Lmr),
            blame_with(Some(("move_count", "lmp", false)), Some("move_count"), Reason::Ordering),
            blame_with(None, None, Reason::Lmr),
            blame_with(None, None, Reason::Budget),
            blame_with(None, None, Reason::Lmr),
        ];
        let counts = counts(blames.iter());
        assert_eq!(
            counts.verdicts,
            BTreeMap::from([("cause".into(), 3), ("not a pruning loss".into(), 3), ("not sufficient".into(), 1)])
        );
        assert_eq!(
            counts.named,
            BTreeMap::from([
                ("move_count `lmp`".into(), NamedCount { positions: 1, differs: false, causes: 1 }),
                ("razoring `razor-r1`".into(), NamedCount { positions: 2, differs: true, causes: 1 }),
                ("razoring `razor-r2`".into(), NamedCount { positions: 1, differs: true, causes: 1 }),
            ])
        );
        assert_eq!(
            counts.causes,
            BTreeMap::from([
                ("move_count `lmp`".into(), 1),
                ("razoring `razor-r1`".into(), 1),
                ("razoring `razor-r2`".into(), 1)
            ])
        );
        assert_eq!(counts.reasons, BTreeMap::from([("LMR".into(), 2), ("budget".into(), 1)]));
        assert_eq!(sorted(&counts.verdicts, |count| *count)[0], (&"cause".to_string(), &3));
        assert_eq!(verdict_cell(&blames[0], "b"), "**cause**: without razoring@2, b plays d2d4");
        assert_eq!(verdict_cell(&blames[1], "b"), "**not sufficient**: without razoring@2 (d2d4)");
        assert_eq!(verdict_cell(&blames[4], "b"), "**not a pruning loss**: LMR");
        assert_eq!(named_cell(&blames[3], "a"), "move_count `lmp` node-pruned at ply 2, iterations 3-4 (in a too)");
        assert_eq!(named_cell(&blames[4], "a"), "none");
    }

    /// A stand-in for B's trace build on a back-rank mate (a1a8 solves it):
    /// it plays B's d2d4 after `nodes` nodes, razoring having cut the root
    /// in iteration 1; a replay that suppresses anything plays a1a8, and
    /// says it met the decision and did not take it only when `met`.
    fn trace_build(dir: &std::path::Path, name: &str, nodes: u64, met: bool) -> std::path::PathBuf {
        let decision = "echo 'info string trace iter=1 ply=0 depth=1 node-pruned razoring razor-r1 | razor d1: \
                        eval -700 + margin 300 <= alpha -200; qsearch(alpha, alpha + 1) <= alpha: returns -650'";
        let not_taken = if met {
            "echo 'info string trace iter=1 ply=0 depth=1 not-taken razoring razor-r1 | the decision above is not \
             taken: this replay suppresses razoring here'"
        } else {
            "true"
        };
        crate::test_scripts::script(
            dir,
            name,
            &format!(
                "suppressing=no
while read line; do
  case \"$line\" in
    uci) echo 'id name stand-in'; echo uciok;;
    isready) echo readyok;;
    'trace '*suppress*) suppressing=yes;;
    'trace '*) suppressing=no;;
    go*) if [ $suppressing = yes ]; then {decision}; {not_taken}; echo 'info depth 1 score cp 900 nodes {nodes} pv a1a8'; echo 'bestmove a1a8';
         else {decision}; echo 'info depth 1 score cp 5 nodes {nodes} pv d2d4'; echo 'bestmove d2d4'; fi;;
    quit) exit 0;;
  esac
done"
            ),
        )
    }

    /// B's position blamed with `engine` as its trace build: B played d2d4
    /// after 900 nodes, A a1a8.
    fn replayed(engine: &std::path::Path) -> PositionBlame {
        let position = crate::measure::suites::SuitePosition {
            id: "back-rank".into(),
            fen: "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1".into(),
            best: vec!["a1a8".into()],
            avoid: Vec::new(),
        };
        let suite = Suite { name: "mates".into(), positions: vec![position], skipped: Vec::new() };
        let args = BlameArgs {
            a: "a".into(),
            b: "b".into(),
            suite: "mates".into(),
            nodes: Some(900),
            depth: None,
            position: None,
            hash: 16,
            run: RunArgs { concurrency: 1, resume: None },
        };
        let solve = |variant: &str, played: &str, solved: bool, nodes: u64| SolveRecord {
            tactics: TacticsRecord {
                variant: variant.into(),
                position: 0,
                id: "back-rank".into(),
                played: played.into(),
                solved,
                nodes,
                time_ms: 1,
                solution_nodes: solved.then_some(nodes),
                solution_time_ms: solved.then_some(1),
                error: None,
            },
            line: vec![played.into()],
            completed_depth: 1,
            solution_depth: solved.then_some(1),
        };
        let mut engine = Engine::start(engine, "b+trace").unwrap();
        let (a, b) = (solve("a", "a1a8", true, 400), solve("b", "d2d4", false, 900));
        let blame = replay(&mut engine, &args, &suite, &[], &a, &b);
        assert_eq!(blame.error, None);
        blame
    }

    #[test]
    fn a_cause_is_proven_only_by_a_replay_of_bs_search_that_meets_the_decision() {
        let dir = std::env::temp_dir().join(format!("prunelab-blame-replay-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();

        // The replay suppressing nothing plays B's move after B's nodes, and
        // not taking razoring at the root, met there, solves it: a cause.
        let cause = replayed(&trace_build(&dir, "reproduces.sh", 900, true));
        assert!(cause.replay_matches);
        assert_eq!(cause.tries.iter().map(|tried| tried.not_taken).collect::<Vec<_>>(), [1]);
        assert_eq!(cause.verdict, Some(Verdict::Cause));
        assert_eq!(verdict_cell(&cause, "b"), "**cause**: without razoring@0, b plays a1a8");

        // The same replay after 777 nodes is not B's search: nothing is
        // tried, and the verdict says why.
        let differs = replayed(&trace_build(&dir, "differs.sh", 777, true));
        assert!(!differs.replay_matches);
        assert!(differs.tries.is_empty());
        assert_eq!(differs.verdict, Some(Verdict::Unproven(Unproven::ReplayDiffers)));
        assert_eq!(
            verdict_cell(&differs, "b"),
            "**unproven**: the replay suppressing nothing played d2d4 after 777 nodes, b d2d4 after 900: \
             its trace is not b's search"
        );

        // A replay that solves it without meeting the decision proves
        // nothing of the decision.
        let never_met = replayed(&trace_build(&dir, "never-met.sh", 900, false));
        assert_eq!(never_met.verdict, Some(Verdict::Unproven(Unproven::NotTaken)));
        assert_eq!(
            verdict_cell(&never_met, "b"),
            "**unproven**: without razoring@0, b plays a1a8, but that replay never met the decision \
             (not taken 0 times)"
        );
        let counts = counts([&cause, &differs, &never_met].into_iter());
        assert_eq!(counts.verdicts, BTreeMap::from([("cause".into(), 1), ("unproven".into(), 2)]));
        assert_eq!(counts.causes, BTreeMap::from([("razoring `razor-r1`".into(), 1)]));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn records_of_both_stages_read_back() {
        let solve = BlameRecord::Solve(SolveRecord {
            tactics: TacticsRecord {
                variant: "a".into(),
                position: 3,
                id: "WAC.004".into(),
                played: "h6h1".into(),
                solved: true,
                nodes: 900,
                time_ms: 1,
                solution_nodes: Some(400),
                solution_time_ms: Some(1),
                error: None,
            },
            line: vec!["h6h1".into(), "g1h1".into()],
            completed_depth: 7,
            solution_depth: Some(4),
        });
        let blame = BlameRecord::Blame(Box::new(blame_with(Some(("razoring", "razor-r1", true)), None, Reason::Lmr)));
        for record in [solve, blame] {
            let line = serde_json::to_string(&record).unwrap();
            let back: BlameRecord = serde_json::from_str(&line).unwrap();
            assert_eq!(serde_json::to_string(&back).unwrap(), line);
        }
    }
}
