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
//!    tracing A's line (`trace <A's line>`), and [`decisions::analyze`] reads
//!    its decisions on the line in every completed iteration. The
//!    traced search visits exactly the nodes the untraced one does, so this
//!    replay must play B's move after B's node count; the record says
//!    whether it did. When it did, the same build searches again, the same
//!    way, with one decision not taken (`trace <A's line> suppress
//!    razoring@2`), for each of [`replays::plan`]'s suppressions until B
//!    plays a solution, and [`judge::judge`] gives the verdict: cause
//!    (the solving replay met the decision and did not take it), not
//!    sufficient, or not a pruning loss. When it did not, or when the
//!    solving replay never met its decision, the verdict is unproven, and
//!    says why.
//!
//! Only node and depth limits are offered: a replay under a clock would not
//! search the tree it explains.

//!
//! The parts: B's decisions on A's line (`decisions`), the replays that
//! try not taking them (`replays`), the verdict they give (`judge`), the
//! engine's trace lines (`trace`) and the run's findings, counted and written
//! out (`findings`).

mod decisions;
mod findings;
mod judge;
mod replays;
mod trace;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Result};
use clap::Args;
use decisions::Analysis;
pub use findings::report_section;
use findings::summarize;
use games::engine::{Engine, SearchOutput};
use games::results::{print_summary, RunDir};
use judge::judge;
use judge::Finding;
use replays::{replay_searches, Try};
use serde::{Deserialize, Serialize};

use crate::engines::{builder, participant};
use crate::lab::options::HashOption;
use crate::lab::Lab;
use crate::lab::Pair;
use crate::measure::runner::{
    self, suite_jobs, Contestant, RunArgs, Settings, DEPTH_SEARCH_TIMEOUT, NODES_SEARCH_TIMEOUT,
};
use crate::measure::suites::{self, Suite, SuitePosition};
use crate::measure::tactics::{self, TacticsRecord};

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
    #[command(flatten)]
    pub hash: HashOption,
    #[command(flatten)]
    #[serde(skip)]
    pub run: RunArgs,
}

impl BlameArgs {
    /// The `go` command both variants and the replay search with, and how
    /// long before an engine counts as hung.
    fn go(&self) -> (String, Duration) {
        match self.depth {
            Some(depth) => (format!("go depth {depth}"), DEPTH_SEARCH_TIMEOUT),
            None => (format!("go nodes {}", self.nodes.unwrap_or(tactics::DEFAULT_NODES)), NODES_SEARCH_TIMEOUT),
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
    pub verdict: Option<Finding>,
    /// The replay's trace lines, as the engine printed them.
    pub trace: Vec<String>,
    pub error: Option<String>,
}

impl PositionBlame {
    /// The blame of A's solve and B's of one position, before any replay.
    fn before_replay(suite_position: &SuitePosition, a: &SolveRecord, b: &SolveRecord) -> PositionBlame {
        PositionBlame {
            position: a.tactics.position,
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
        }
    }
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

impl PositionBlame {
    /// The blame with the verdict its replays (`replays`) give when every
    /// one of them ran (`judge`).
    fn judged(mut self) -> PositionBlame {
        if let (None, Some(analysis)) = (&self.error, &self.analysis) {
            self.verdict = Some(judge(analysis, &self.tries, self.replay_matches));
        }
        self
    }
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

/// A finished blame run.
pub struct BlameRun {
    pub run_dir: PathBuf,
}

pub fn run(lab: &Lab, args: &BlameArgs) -> Result<BlameRun> {
    let pair = Pair::of(lab, &args.a, &args.b)?;
    if let Some(depth) = args.depth {
        suites::check_depth(depth)?;
    }
    let suite = positions(lab, args)?;
    let (run_dir, records): (RunDir, Vec<BlameRecord>) = args.run.open(lab, "blame", args)?;
    let mut blaming = Blaming { lab, args, pair, suite, run_dir, records };
    blaming.solve_stage()?;
    blaming.blame_stage()?;
    let summary = summarize(pair, args, &blaming.suite, &blaming.records);
    blaming.run_dir.write_summary(&summary.markdown, &summary.json)?;
    Ok(BlameRun { run_dir: blaming.run_dir.path().to_path_buf() })
}

/// A blame run under way: what its two stages work with.
struct Blaming<'a> {
    lab: &'a Lab,
    args: &'a BlameArgs,
    pair: Pair<'a>,
    suite: Suite,
    run_dir: RunDir,
    records: Vec<BlameRecord>,
}

impl Blaming<'_> {
    /// Stage 1: A and B on every position not searched yet, as `lab tactics`
    /// searches them.
    fn solve_stage(&mut self) -> Result<()> {
        let Blaming { lab, args, suite, run_dir, records, .. } = self;
        let (lab, args, suite) = (*lab, *args, &*suite);
        let variants = [args.a.clone(), args.b.clone()];
        let launches = participant::launches(lab, &variants)?;
        let contestants: Vec<Contestant> =
            variants.iter().zip(launches).map(|(name, launch)| Contestant::new(name, launch)).collect();
        let (go, timeout) = args.go();
        let jobs = suite_jobs(suite, &contestants, &go, timeout, |position, name| {
            solved_by(records, name).contains_key(&position)
        });
        let settings = Settings { hash_mb: args.hash.mb, concurrency: args.run.concurrency, telemetry: false };
        let bar = lab.progress(jobs.len() as u64, &format!("blame: solve {}", suite.name));
        runner::run(&contestants, &jobs, &settings, |job, outcome| {
            let record = solve_record(&contestants[job.contestant].name, job.position, suite, outcome);
            if let Some(error) = &record.tactics.error {
                bar.suspend(|| lab.say(&format!("{}: {error}", record.tactics.id)));
            }
            let record = BlameRecord::Solve(record);
            run_dir.keep(records, record)?;
            bar.inc(1);
            Ok(())
        })?;
        bar.finish_and_clear();
        Ok(())
    }

    /// Stage 2: B's replays along A's line, for each position to blame not
    /// blamed yet.
    fn blame_stage(&mut self) -> Result<()> {
        let Blaming { lab, args, pair, suite, run_dir, records } = self;
        let (lab, args, suite) = (*lab, *args, &*suite);
        let done: Vec<usize> = records
            .iter()
            .filter_map(|record| match record {
                BlameRecord::Blame(blame) => Some(blame.position),
                BlameRecord::Solve(_) => None,
            })
            .collect();
        let pending: Vec<usize> =
            to_blame(args, records).into_iter().filter(|position| !done.contains(position)).collect();
        if pending.is_empty() {
            return Ok(());
        }
        lab.say(&format!("building {} with trace", args.b));
        let traced = builder::ensure_built_with(lab, &args.b, &["trace"])?;
        let start = || -> Result<Engine> {
            let mut engine = Engine::start(&traced, &format!("{}+trace", args.b))?;
            engine.set_option("Hash", &args.hash.mb.to_string())?;
            Ok(engine)
        };
        let mut engine = start()?;
        let a_features = pair.reference.variant.features.clone();
        let (a_records, b_records) = (solved_by(records, &args.a), solved_by(records, &args.b));
        let bar = lab.progress(pending.len() as u64, "blame: replay");
        let mut blames = Vec::new();
        for &position in &pending {
            let blame =
                replay_searches(&mut engine, args, suite, &a_features, a_records[&position], b_records[&position])
                    .judged();
            if let Some(error) = &blame.error {
                bar.suspend(|| lab.say(&format!("{}: {error}", blame.id)));
                // A failed engine is started again for the next position.
                engine = start()?;
            }
            let record = BlameRecord::Blame(Box::new(blame));
            run_dir.keep(&mut blames, record)?;
            bar.inc(1);
        }
        bar.finish_and_clear();
        records.extend(blames);
        Ok(())
    }
}

pub fn command(lab: &Lab, args: &BlameArgs) -> Result<()> {
    let run = run(lab, args)?;
    print_summary(&lab.session(), &run.run_dir)
}

#[cfg(test)]
mod tests {
    use super::decisions::{Decision, Reason};
    use super::findings::{counts, named_cell, sorted, verdict_cell, NamedCount};
    use super::judge::Unproven;
    use super::replays::plan;
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
        let tries: Vec<Try> = plan(&analysis.decisions)
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
            verdict: Some(judge(&analysis, &tries, true)),
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
        test_support::script(
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
            hash: HashOption::default(),
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
        let blame = replay_searches(&mut engine, &args, &suite, &[], &a, &b).judged();
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
        assert_eq!(cause.verdict, Some(Finding::Cause));
        assert_eq!(verdict_cell(&cause, "b"), "**cause**: without razoring@0, b plays a1a8");

        // The same replay after 777 nodes is not B's search: nothing is
        // tried, and the verdict says why.
        let differs = replayed(&trace_build(&dir, "differs.sh", 777, true));
        assert!(!differs.replay_matches);
        assert!(differs.tries.is_empty());
        assert_eq!(differs.verdict, Some(Finding::Unproven(Unproven::ReplayDiffers)));
        assert_eq!(
            verdict_cell(&differs, "b"),
            "**unproven**: the replay suppressing nothing played d2d4 after 777 nodes, b d2d4 after 900: \
             its trace is not b's search"
        );

        // A replay that solves it without meeting the decision proves
        // nothing of the decision.
        let never_met = replayed(&trace_build(&dir, "never-met.sh", 900, false));
        assert_eq!(never_met.verdict, Some(Finding::Unproven(Unproven::NotTaken)));
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
    fn only_proven_verdicts_count_by_the_decision_named_first() {
        let dir = std::env::temp_dir().join(format!("prunelab-blame-proven-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let cause = replayed(&trace_build(&dir, "reproduces.sh", 900, true));
        let differs = replayed(&trace_build(&dir, "differs.sh", 777, true));
        let never_met = replayed(&trace_build(&dir, "never-met.sh", 900, false));
        // Each trace names razoring at the root first; only the cause's is proven.
        for blame in [&cause, &differs, &never_met] {
            assert_eq!(blame.analysis.as_ref().unwrap().decisions[0].technique, "razoring");
        }
        let all = counts([&cause, &differs, &never_met].into_iter());
        assert_eq!(
            all.named,
            BTreeMap::from([("razoring `razor-r1`".into(), NamedCount { positions: 1, differs: true, causes: 1 })])
        );
        // Unproven alone: the verdict is counted, no decision is.
        let unproven = counts([&differs, &never_met].into_iter());
        assert_eq!(unproven.verdicts, BTreeMap::from([("unproven".into(), 2)]));
        assert!(unproven.named.is_empty() && unproven.causes.is_empty() && unproven.reasons.is_empty(), "{unproven:?}");
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
