//! The blame run's summary: the verdicts counted, the table of blamed
//! positions and each position in full (`summary.md`, `summary.json`), and
//! `lab report`'s section of the latest run.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use games::results::{read_records, read_run, runs_of};
use serde::{Deserialize, Serialize};

use super::decisions::ranges;
use super::judge::{Finding, Unproven};
use super::replays::MAX_TRIES;
use super::{solved_by, BlameArgs, BlameRecord, PositionBlame, SolveRecord};
use crate::lab::table::Table;
use crate::lab::Pair;
use crate::measure::suites::Suite;

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

/// The run's verdicts counted. The tables by decision, cause and reason
/// count only positions with a proven verdict: an unproven one's trace is
/// not known to be B's search (or its replay solved without meeting the
/// decision), so the decisions it names say nothing of B.
pub fn counts<'a>(blames: impl Iterator<Item = &'a PositionBlame>) -> Counts {
    let mut counts = Counts::default();
    for blame in blames {
        let (Some(verdict), Some(analysis)) = (blame.verdict, &blame.analysis) else {
            *counts.verdicts.entry("failed".to_string()).or_default() += 1;
            continue;
        };
        *counts.verdicts.entry(verdict.name().to_string()).or_default() += 1;
        if matches!(verdict, Finding::Unproven(_)) {
            continue;
        }
        let cause = blame.tries.iter().find(|tried| tried.solved).filter(|_| verdict == Finding::Cause);
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
pub(super) fn sorted<V>(map: &BTreeMap<String, V>, positions: impl Fn(&V) -> usize) -> Vec<(&String, &V)> {
    let mut rows: Vec<(&String, &V)> = map.iter().collect();
    rows.sort_by(|x, y| positions(y.1).cmp(&positions(x.1)).then(x.0.cmp(y.0)));
    rows
}

/// The decision named first, in one table cell.
pub(super) fn named_cell(blame: &PositionBlame, a: &str) -> String {
    let Some(analysis) = &blame.analysis else { return "-".to_string() };
    let Some(first) = analysis.decisions.first() else { return "none".to_string() };
    let mut out = format!(
        "{} {} at ply {}, iteration{} {}",
        technique_features(&first.technique, &first.features),
        first.event.kind.name(),
        first.ply,
        if first.iterations.len() > 1 { "s" } else { "" },
        ranges(&first.iterations)
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
pub(super) fn verdict_cell(blame: &PositionBlame, b: &str) -> String {
    if let Some(error) = &blame.error {
        return format!("failed: {error}");
    }
    let (Some(verdict), Some(analysis)) = (blame.verdict, &blame.analysis) else { return "-".to_string() };
    match verdict {
        Finding::Cause => {
            let cause = blame.tries.iter().find(|tried| tried.solved).expect("a cause is a solving replay");
            format!("**cause**: without {}, {b} plays {}", cause.what.suppressed, cause.played)
        }
        Finding::NotSufficient => {
            let tried: Vec<String> =
                blame.tries.iter().map(|tried| format!("{} ({})", tried.what.suppressed, tried.played)).collect();
            format!("**not sufficient**: without {}", tried.join(", without "))
        }
        Finding::NotAPruningLoss => {
            let at = analysis.reason_event.as_ref().map_or(String::new(), |event| format!(" at ply {}", event.ply));
            format!("**not a pruning loss**: {}{at}", analysis.reason.name())
        }
        Finding::Unproven(why) => format!("**unproven**: {}", unproven_reason(blame, why, b)),
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

pub(super) struct Summary {
    pub(super) markdown: String,
    pub(super) json: serde_json::Value,
}

/// The run's summary: the markdown page and its JSON.
pub(super) fn summarize(pair: Pair, args: &BlameArgs, suite: &Suite, records: &[BlameRecord]) -> Summary {
    let (a, b) = (&args.a, &args.b);
    let (a_solves, b_solves) = (solved_by(records, a), solved_by(records, b));
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
        args.hash.mb
    )
    .unwrap();
    match &args.position {
        Some(id) => write_position_outcome(&mut out, id, a, b, &a_solves, &b_solves),
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
        write_method(&mut out, pair);
        write_table(&mut out, &blames, a, b);
        write_counts(&mut out, &counts, a, b);
        writeln!(out, "\n## Positions").unwrap();
        for blame in &blames {
            write_position(&mut out, blame, a, b, &b_solves);
        }
    }
    Summary { markdown: out, json: summary_json(args, suite, &blames, &counts, [solved(&a_solves), solved(&b_solves)]) }
}

/// `summary.json`: the run's settings, each blamed position and the counts.
fn summary_json(
    args: &BlameArgs,
    suite: &Suite,
    blames: &[&PositionBlame],
    counts: &Counts,
    solved: [usize; 2],
) -> serde_json::Value {
    serde_json::json!({
        "a": args.a,
        "b": args.b,
        "suite": suite.name,
        "limit": args.limit_text(),
        "hash": args.hash.mb,
        "position": args.position,
        "positions": suite.positions.len(),
        "solved": { args.a.as_str(): solved[0], args.b.as_str(): solved[1] },
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
    })
}

/// How many positions a variant solved.
fn solved(records: &BTreeMap<usize, &SolveRecord>) -> usize {
    records.values().filter(|record| record.tactics.solved).count()
}

/// With `--position`: whether there is anything to blame there.
fn write_position_outcome(
    out: &mut String,
    id: &str,
    a: &str,
    b: &str,
    a_solves: &BTreeMap<usize, &SolveRecord>,
    b_solves: &BTreeMap<usize, &SolveRecord>,
) {
    let played = |records: &BTreeMap<usize, &SolveRecord>| {
        records.values().next().map(|record| (record.tactics.solved, record.tactics.played.clone()))
    };
    match (played(a_solves), played(b_solves)) {
        (Some((false, a_move)), _) => {
            writeln!(out, "{id}: {a} does not solve it (it plays {a_move}): there is no solution of {a}'s to blame.")
                .unwrap()
        }
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

/// The features that differ, and how the positions were blamed.
fn write_method(out: &mut String, pair: Pair) {
    let (a, b) = pair.names();
    let difference: Vec<String> = pair.feature_difference().iter().map(|feature| format!("`{feature}`")).collect();
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
        MAX_TRIES
    )
    .unwrap();
}

/// One row a blamed position.
fn write_table(out: &mut String, blames: &[&PositionBlame], a: &str, b: &str) {
    let mut table = Table::new()
        .left("position")
        .left(format!("{a} plays"))
        .left(format!("{b} plays"))
        .left(format!("{a}'s solution from depth / {b}'s last"))
        .left("decision named first")
        .left("verdict");
    for blame in blames {
        let depths = blame.analysis.as_ref().map_or("-".to_string(), |analysis| {
            format!(
                "{} / {}",
                analysis.solution_depth.map_or("-".to_string(), |depth| depth.to_string()),
                analysis.completed_depth
            )
        });
        table.push([
            blame.id.clone(),
            blame.a_played.clone(),
            blame.b_played.clone(),
            depths,
            named_cell(blame, a),
            verdict_cell(blame, b),
        ]);
    }
    write!(out, "{table}").unwrap();
    writeln!(
        out,
        "\n{a}'s solution from depth: the first iteration from which {a}'s move stayed the solution to the end \
         (1: from its first iteration on). {b}'s last: its last completed iteration, whose move it played."
    )
    .unwrap();
}

/// `| heading | positions |`: a count a key, the largest first.
fn count_table(heading: &str, counts: &BTreeMap<String, usize>) -> Table {
    let mut table = Table::new().left(heading).right("positions");
    for (key, count) in sorted(counts, |count| *count) {
        table.push([key.clone(), count.to_string()]);
    }
    table
}

/// The decisions named first: each with its positions and causes, and,
/// with `differs`, whether it is B's and not A's.
fn named_table(counts: &Counts, differs: Option<(&str, &str)>) -> Table {
    let mut table = Table::new().left("decision named first");
    if let Some((a, b)) = differs {
        table = table.left(format!("{b}'s and not {a}'s"));
    }
    let cause = if differs.is_some() { "cause: not taking it solves" } else { "cause" };
    let mut table = table.right("positions").right(cause);
    for (key, named) in sorted(&counts.named, |named| named.positions) {
        let mut row = vec![key.clone()];
        if differs.is_some() {
            row.push(if named.differs { "yes" } else { "no" }.to_string());
        }
        row.extend([named.positions.to_string(), named.causes.to_string()]);
        table.push(row);
    }
    table
}

/// The count tables: by verdict, by the decision named first, by cause and
/// by reason.
fn write_counts(out: &mut String, counts: &Counts, a: &str, b: &str) {
    writeln!(out, "\n## Counts\n").unwrap();
    write!(out, "{}", count_table("verdict", &counts.verdicts)).unwrap();
    if !counts.named.is_empty() {
        write!(out, "\n{}", named_table(counts, Some((a, b)))).unwrap();
    }
    for (heading, map) in
        [("cause: the decision not taken", &counts.causes), ("not a pruning loss: reason", &counts.reasons)]
    {
        if !map.is_empty() {
            write!(out, "\n{}", count_table(heading, map)).unwrap();
        }
    }
}

/// A blamed position in full: A's line, B's decisions, the replays.
fn write_position(out: &mut String, blame: &PositionBlame, a: &str, b: &str, b_solves: &BTreeMap<usize, &SolveRecord>) {
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
            writeln!(out, "- besides, its last completed iteration shows: {}", analysis.reason_text(&blame.line))
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
                solve_nodes(b_solves, blame.position)
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

fn solve_nodes(records: &BTreeMap<usize, &SolveRecord>, position: usize) -> u64 {
    records.get(&position).map_or(0, |record| record.tactics.nodes)
}

/// `lab report`'s section: the latest blame run's counts, or `None` when
/// there is none.
pub fn report_section(results: &Path) -> Option<String> {
    let run = runs_of(results, "blame").pop()?;
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("summary.json")).ok()?).ok()?;
    let started = read_run(&run).and_then(|run| run["started"].as_str().map(str::to_string)).unwrap_or_default();
    // Counted again from the records, so a run kept before the counts left
    // out unproven positions is counted as a new one would be.
    let mut blamed: BTreeMap<usize, PositionBlame> = BTreeMap::new();
    for record in read_records::<BlameRecord>(&run) {
        if let BlameRecord::Blame(blame) = record {
            blamed.insert(blame.position, *blame);
        }
    }
    let counts = counts(blamed.values());
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
        write!(out, "{}", count_table("verdict", &counts.verdicts)).ok()?;
        if !counts.named.is_empty() {
            write!(out, "\n{}", named_table(&counts, None)).ok()?;
        }
    }
    Some(out)
}
