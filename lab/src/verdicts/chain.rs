//! `lab chain NAME` or `lab chain FIRST LAST`: a plan's phases, one after
//! another, each variant against its parent, as the plans' phase table:
//! phase, features added, node change and time to depth (each with its 95%
//! interval), tactics, and every claim's verdict; with `--sprt`, a match per
//! phase with that phase's own bounds, time control and hash (from its
//! variant file), optionally stopping at the first phase whose SPRT fails
//! (`--stop-on-fail`, the plans' "STOP and wait" rule).
//!
//! A chain follows `extends` from LAST back to FIRST. Node and solve counts
//! are deterministic, so each variant is counted once for the whole chain
//! (one `nodes` run, one `tactics` run per suite) and every phase reads its
//! pair from them. Time to depth is one interleaved `ttd` run of the whole
//! chain, each variant searched right beside its parent, so each is timed
//! once per round rather than twice. Matches are per phase. Every step is a
//! run of its own inside the chain's folder, and the chain's
//! `records.jsonl` holds one line per finished phase, so `--resume`
//! continues where a chain stopped: finished phases are kept, a step in
//! progress is resumed. `--stop-on-fail` plays no match after a failed one;
//! the measurements, made before the matches, stay in the table.
//!
//! `--beside uci:PATH` (or a variant) sets another engine beside the chain's
//! last variant: counted in the same runs, timed against it, no claims, and
//! its telemetry in the plans' formats (when it offers `SearchStats`) set
//! beside the last variant's, counter by counter.
//!
//! A chain of another engine's variants (`lab/other-engines/<folder>/`, such as
//! SeaJay's `seajay-p002`) runs the same way, each phase's UCI options in
//! the `adds` column and its telemetry in a table of its own. With
//! `--ours`, the prunelab variants its files mirror (`mirrors`) are counted
//! in the same node run, and a second table sets each phase's node change
//! in the other engine beside prunelab's, each with its interval: whether
//! they agree in sign and whether the intervals overlap.

use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use clap::Args;
use games::matches::{self, MatchArgs};
use games::results::runs_of;
use games::statistics::sprt::options::SprtOptions;
use games::statistics::{SprtState, SprtStatus};
use prunelab::variants::{self, Variant};
use serde::{Deserialize, Serialize};

use crate::engines::participant;
use crate::lab::options::{GamesOption, SearchOptions, TacticsOptions};
use crate::lab::table::Table;
use crate::lab::{Lab, Side};
use crate::measure::nodes::{self, NodesArgs, NodesRecord};
use crate::measure::ratio::RatioEstimate;
use crate::measure::runner::RunArgs;
use crate::measure::suites;
use crate::measure::ttd::{self, TtdArgs, TtdRun};
use crate::variants::grammar::{Claim, Planned};
use crate::verdicts::claims::NodeSetting;
use crate::verdicts::decision::GamesSay;
use crate::verdicts::evidence;
use crate::verdicts::other_engines;
use crate::verdicts::verdict::{self, run_tactics, Comparison, Standing, TacticsOutcome};

/// The plans' chains by name: (name, first, last, what).
pub const CHAINS: [(&str, &str, &str, &str); 4] = [
    ("p002", "baseline", "p002-4.1", "plan 002, phases 1.1 to 4.1, from the baseline"),
    ("p003", "p002-3.3", "p003-3", "plan 003's phases on plan 002's 3.3"),
    ("razor", "p003-3", "razor-r3", "plan 000's razoring R1 to R3 on plan 003's end"),
    ("seajay-p002", "seajay-p002-before", "seajay-p002-4.1", "plan 002's phases in SeaJay, by its UCI options"),
];

#[derive(Args, Clone, Debug, Serialize)]
// Half `lab ab`'s tactics nodes, so a 15-phase chain stays within minutes;
// and games only with --sprt.
#[command(mut_arg("tactics_nodes", |arg| arg.default_value(DEFAULT_TACTICS_NODES_TEXT)))]
#[command(mut_arg("games", |arg| arg.requires("sprt")))]
pub struct ChainArgs {
    /// A chain's name (p002, p003, razor), or FIRST LAST: the variants from
    /// FIRST to LAST along LAST's `extends`.
    #[arg(required = true, num_args = 1..=2, value_names = ["NAME|FIRST", "LAST"])]
    pub chain: Vec<String>,
    #[command(flatten)]
    #[serde(flatten)]
    pub search: SearchOptions,
    #[command(flatten)]
    #[serde(flatten)]
    pub tactics: TacticsOptions,
    /// Time-to-depth rounds (each variant searched this many times a position).
    #[arg(long, default_value_t = DEFAULT_TTD_ROUNDS)]
    pub ttd_rounds: usize,
    /// Engine processes at the same time for the counts and the matches
    /// (time to depth is always one search at a time).
    #[arg(long, default_value_t = 2)]
    pub concurrency: usize,
    /// Other engines beside the chain's last variant (`uci:PATH` or a variant).
    #[arg(long, value_name = "ENGINE")]
    pub beside: Vec<String>,
    /// For a chain of another engine's variants: count the prunelab variants
    /// its files mirror (`mirrors`) too, and set each phase's node change
    /// beside prunelab's.
    #[arg(long)]
    pub ours: bool,
    /// A match per phase with its variant file's `[sprt]` (bounds, tc, hash).
    #[arg(long)]
    pub sprt: bool,
    /// With --sprt, play no further phase after one whose games say a loss or no gain.
    #[arg(long, requires = "sprt")]
    pub stop_on_fail: bool,
    #[command(flatten)]
    pub games: GamesOption,
    /// Continue a chain run: its folder, or the latest `chain` run.
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = "latest")]
    #[serde(skip)]
    pub resume: Option<String>,
}

/// Time-to-depth rounds and tactics nodes when not given: plan 002's
/// fifteen phases at depth 10 run in under 10 minutes on two cores.
pub const DEFAULT_TTD_ROUNDS: usize = 3;
pub const DEFAULT_TACTICS_NODES: u64 = 25_000;
const DEFAULT_TACTICS_NODES_TEXT: &str = "25000";

/// The variants from `first` to `last` along `last`'s parents, `first` first.
pub fn resolve(variants: &[Variant], first: &str, last: &str) -> Result<Vec<String>> {
    variants::find(variants, first)?;
    variants::find(variants, last)?;
    let ancestry = variants::ancestry(variants, last);
    let Some(end) = ancestry.iter().position(|name| *name == first) else {
        bail!("`{first}` is not an ancestor of `{last}`: `{last}` extends {}", ancestry[1..].join(" → "))
    };
    if end == 0 {
        bail!("a chain needs two variants: FIRST and LAST are both `{first}`");
    }
    Ok(ancestry[..=end].iter().rev().map(|name| name.to_string()).collect())
}

/// The chain the command line names: a chain's name, or FIRST LAST.
pub fn resolve_args(variants: &[Variant], chain: &[String]) -> Result<Vec<String>> {
    match chain {
        [name] => {
            let Some((_, first, last, _)) = CHAINS.iter().find(|(chain, ..)| chain == name) else {
                let names: Vec<&str> = CHAINS.iter().map(|(name, ..)| *name).collect();
                bail!("unknown chain `{name}`: the chains are {}; or give FIRST LAST", names.join(", "))
            };
            resolve(variants, first, last)
        }
        [first, last] => resolve(variants, first, last),
        _ => bail!("lab chain takes a chain's name or FIRST LAST"),
    }
}

/// The chain, resolved once where the command starts: its phases, first
/// first, and the variants among the engines beside its end.
pub struct Chain<'a> {
    pub names: Vec<String>,
    phases: Vec<Side<'a>>,
    beside: Vec<Side<'a>>,
}

impl<'a> Chain<'a> {
    /// The chain `names` names (a variant each), with `beside` next to its end.
    pub fn of(lab: &'a Lab, names: Vec<String>, beside: &[String]) -> Result<Chain<'a>> {
        let phases = names.iter().map(|name| Side::of(lab, name)).collect::<Result<_>>()?;
        // An engine beside may be `uci:PATH`, which is no variant.
        let beside = beside.iter().filter_map(|name| Side::of(lab, name).ok()).collect();
        Ok(Chain { names, phases, beside })
    }

    /// The variant of a record's phase or engine beside, where it has one.
    fn side(&self, record: &PhaseRecord) -> Option<Side<'a>> {
        let sides = if record.beside { &self.beside } else { &self.phases };
        sides.iter().find(|side| side.name() == record.phase).copied()
    }

    /// The variant of a phase's record.
    fn phase(&self, record: &PhaseRecord) -> Result<Side<'a>> {
        self.side(record).ok_or_else(|| anyhow!("`{}` is no phase of this chain", record.phase))
    }
}

/// A phase's match, as the table shows it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PhaseMatch {
    /// `[0, 5] at 10+0.1, Hash 8` or why none was played.
    pub plan: String,
    /// `H1 accepted (LLR 2.96) after 1234 games, nElo +3.1 ± 2.0`, or `-`.
    pub result: String,
    /// Whether the games say a loss or no gain (by the lab's one rule,
    /// `decision`): the plans' "STOP".
    pub failed: bool,
    pub run_dir: Option<PathBuf>,
    /// What the games say, by the one rule; `None` with no match, and in
    /// records kept before it was (whose `failed` was an accepted H0).
    #[serde(default)]
    pub says: Option<GamesSay>,
}

impl PhaseMatch {
    /// What its games say; a record kept before the rule, by its `failed`
    /// (an accepted H0: no gain).
    fn games_say(&self) -> Option<GamesSay> {
        self.says.or(self.failed.then_some(GamesSay::NoGain))
    }
}

/// One finished phase (or an engine beside the chain), as the chain's
/// `records.jsonl` keeps it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PhaseRecord {
    /// The variant, or the engine set beside the chain.
    pub phase: String,
    /// Its parent, or the chain's last variant for an engine beside it.
    pub parent: String,
    pub beside: bool,
    /// The features the phase's file adds.
    pub adds: Vec<String>,
    pub comparison: Comparison,
    pub ttd_run: PathBuf,
    pub sprt: Option<PhaseMatch>,
    /// With `--ours`: prunelab's pair for the same plan phase, measured in
    /// the same node run (nodes and telemetry only).
    #[serde(default)]
    pub ours: Option<Comparison>,
}

/// Prunelab's pair for a phase of another engine's chain: the variants
/// that the phase's file and its parent's name in `mirrors`.
fn mirrored_pair((parent, phase): (Side, Side)) -> Option<(String, String)> {
    let mirror = |side: Side| side.external.and_then(|external| external.mirrors.clone());
    Some((mirror(parent)?, mirror(phase)?)).filter(|(ours_parent, ours)| ours_parent != ours)
}

/// What a phase adds to its parent: the features and tunable values of
/// ours, the UCI options of another engine's variant.
fn adds(phase: Side) -> Vec<String> {
    match phase.external {
        Some(external) => external.own.iter().map(ToString::to_string).collect(),
        None => phase.variant.adds(),
    }
}

/// The latest run of `command` in `dir`, to continue it: a step's run
/// folder when the chain was stopped during or after it.
fn resume_in(dir: &Path, command: &str) -> Option<String> {
    runs_of(dir, command).pop().map(|path| path.to_string_lossy().into_owned())
}

/// The tactical suites to run and for whom: the default suite for every
/// engine, each suite a phase claims for that phase and its parent.
fn tactics_plan(args: &ChainArgs, chain: &Chain, everyone: &[String]) -> Vec<(String, Vec<String>)> {
    let mut plan: Vec<(String, Vec<String>)> = Vec::new();
    if args.tactics.suite != "none" {
        plan.push((args.tactics.suite.clone(), everyone.to_vec()));
    }
    for pair in chain.phases.windows(2) {
        for suite in verdict::claimed_suites(pair[1].variant) {
            if suite == args.tactics.suite {
                continue;
            }
            let index = match plan.iter().position(|(name, _)| *name == suite) {
                Some(index) => index,
                None => {
                    plan.push((suite, Vec::new()));
                    plan.len() - 1
                }
            };
            for side in pair {
                if !plan[index].1.iter().any(|name| name == side.name()) {
                    plan[index].1.push(side.name().to_string());
                }
            }
        }
    }
    // Chain order within each suite, the parent first.
    for (_, names) in &mut plan {
        names.sort_by_key(|name| everyone.iter().position(|other| other == name));
    }
    plan
}

/// The measurements every phase reads: nodes of every engine, tactics per
/// suite, the chain's time to depth.
struct Counts {
    setting: NodeSetting,
    /// Where the phases' unscoped claims are claimed.
    claimed_on: Option<NodeSetting>,
    nodes: Vec<NodesRecord>,
    tactics: Vec<TacticsOutcome>,
    ttd: TtdRun,
}

fn count(lab: &Lab, args: &ChainArgs, chain: &Chain, folder: &Path) -> Result<Counts> {
    let everyone: Vec<String> = chain.names.iter().chain(&args.beside).cloned().collect();
    // Prunelab's mirrored phases are counted, not timed or solved.
    let mut counted = everyone.clone();
    if args.ours {
        for pair in chain.phases.windows(2) {
            for name in mirrored_pair((pair[0], pair[1])).into_iter().flat_map(|(a, b)| [a, b]) {
                if !counted.contains(&name) {
                    counted.push(name);
                }
            }
        }
    }
    participant::launches(lab, &counted)?;
    lab.say(&format!("nodes: {} engine(s) on {} at depth {}", counted.len(), args.search.suite, args.search.depth));
    let nodes_dir = folder.join("nodes");
    let nodes_args = NodesArgs {
        variants: counted,
        search: args.search.clone(),
        first: None,
        run: RunArgs { concurrency: args.concurrency, resume: resume_in(&nodes_dir, "nodes") },
    };
    let nodes_run = nodes::run(&lab.nested(&nodes_dir), &nodes_args)?;
    let mut tactics = Vec::new();
    for (suite, names) in tactics_plan(args, chain, &everyone) {
        if let Some(why) = other_engines::fixed_nodes_refusal(lab, &names)? {
            tactics.push(other_engines::unmeasured_tactics(&suite, args.tactics.nodes, args.tactics.first, &why));
            continue;
        }
        let dir = folder.join(format!("tactics-{suite}"));
        let run = RunArgs { concurrency: args.concurrency, resume: resume_in(&dir, "tactics") };
        tactics.push(run_tactics(&lab.nested(&dir), &suite, &names, args.tactics.nodes, args.tactics.first, run)?);
    }
    lab.say(&format!("time to depth: {} round(s), each engine beside its neighbours", args.ttd_rounds));
    let ttd_dir = folder.join("ttd");
    let ttd_args = TtdArgs {
        engines: everyone,
        search: args.search.clone(),
        rounds: args.ttd_rounds,
        first: None,
        clock: ttd::Clock::default(),
        resume: resume_in(&ttd_dir, "ttd"),
    };
    let ttd = ttd::run(&lab.nested(&ttd_dir), &ttd_args)?;
    let setting = NodeSetting::of(&nodes_run.suite, args.search.depth);
    let claimed_on = NodeSetting::claimed(lab, &Default::default()).ok();
    Ok(Counts { setting, claimed_on, nodes: nodes_run.records, tactics, ttd })
}

/// The SPRT's state in words: `H1 accepted (LLR 2.96)`.
fn sprt_text(status: Option<SprtStatus>) -> String {
    status.map_or("no SPRT".to_string(), |status| {
        let word = match status.verdict {
            SprtState::AcceptH1 => "H1 accepted",
            SprtState::AcceptH0 => "H0 accepted",
            SprtState::Continue => "undecided",
        };
        format!("{word} (LLR {:.2})", status.llr)
    })
}

/// `H1 accepted (LLR 2.96) after 1234 games, nElo +3.1 [+1.0, +5.2]`.
fn match_result(summary: &matches::MatchSummary) -> String {
    let nelo = summary
        .nelo
        .map_or(String::new(), |nelo| format!(", nElo {:+.1} [{:+.1}, {:+.1}]", nelo.value, nelo.low, nelo.high));
    format!("{} after {} games{nelo}", sprt_text(summary.sprt_status), summary.games)
}

/// The phase's match with its file's `[sprt]`, in the phase's folder.
fn play_phase_match(lab: &Lab, args: &ChainArgs, variant: &Variant, parent: &str, folder: &Path) -> Result<PhaseMatch> {
    let Some(plan) = &variant.plan().sprt else {
        return Ok(PhaseMatch {
            plan: "no [sprt] in its file".into(),
            result: "-".into(),
            failed: false,
            run_dir: None,
            says: None,
        });
    };
    let hash = plan.hash_mb.unwrap_or(args.search.hash.mb);
    let plan_text = format!("[{}, {}] at {}, Hash {hash}", plan.bounds.0, plan.bounds.1, plan.tc);
    lab.say(&format!("match: {} vs {parent}, SPRT {plan_text}", variant.name()));
    let mut settings = MatchArgs::new(variant.name(), parent);
    settings.tc = plan.tc.parse().map_err(|error| anyhow!("{}: sprt.tc {}: {error}", variant.name(), plan.tc))?;
    settings.sprt = SprtOptions { bounds: Some(vec![plan.bounds.0, plan.bounds.1]), ..MatchArgs::new("a", "b").sprt };
    settings.games = Some(args.games.limit);
    settings.hash.mb = hash;
    settings.concurrency = args.concurrency;
    settings.resume = resume_in(folder, "match").map(|dir| Some(PathBuf::from(dir)));
    let binaries = [participant::launch(lab, variant.name())?, participant::launch(lab, parent)?];
    let outcome = matches::run_match(
        &lab.nested(folder).session(),
        (variant.name(), &binaries[0]),
        (parent, &binaries[1]),
        &settings,
    )?;
    // What the games say, read back from the run as `lab ab` reads a match.
    let says = evidence::match_result(&outcome.run_dir).map_or(GamesSay::Undecided, |games| games.says());
    let result = format!("{}: {}", match_result(&outcome.summary), says.words());
    Ok(PhaseMatch {
        plan: plan_text,
        result,
        failed: says.is_against(),
        run_dir: Some(outcome.run_dir),
        says: Some(says),
    })
}

impl Counts {
    /// Where the nodes were counted and where the claims are claimed.
    fn settings(&self) -> (NodeSetting, Option<NodeSetting>) {
        (self.setting.clone(), self.claimed_on.clone())
    }
}

/// `subject` against `reference`, from the chain's measurements.
fn compare(counts: &Counts, (reference, subject): (&str, &str)) -> Comparison {
    let ttd = counts.ttd.estimate(reference, subject);
    Comparison::measure(reference, subject, counts.settings(), &counts.nodes, ttd, &counts.tactics)
}

/// A folder name from an engine's name (`uci:/usr/games/x` has slashes).
fn folder_name(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '.' { c } else { '_' }).collect()
}

/// The phases not yet recorded, in order, then the engines beside.
fn run_phases(
    lab: &Lab,
    args: &ChainArgs,
    chain: &Chain,
    counts: &Counts,
    run_dir: &mut games::results::RunDir,
    records: &mut Vec<PhaseRecord>,
) -> Result<Option<String>> {
    let folder = run_dir.path().to_path_buf();
    let mut stopped_at =
        records.iter().find(|record| record.sprt.as_ref().is_some_and(|m| m.failed)).map(|r| r.phase.clone());
    for pair in chain.phases.windows(2) {
        let (parent, phase) = (pair[0].name(), pair[1].name());
        if records.iter().any(|record| record.phase == phase && !record.beside) {
            continue;
        }
        if args.stop_on_fail && stopped_at.is_some() {
            break;
        }
        let variant = pair[1].variant;
        let phase_folder = folder.join(folder_name(phase));
        let comparison = compare(counts, (parent, phase));
        let sprt = if args.sprt { Some(play_phase_match(lab, args, variant, parent, &phase_folder)?) } else { None };
        if sprt.as_ref().is_some_and(|m| m.failed) && stopped_at.is_none() {
            stopped_at = Some(phase.to_string());
        }
        let ours = mirrored_pair((pair[0], pair[1])).filter(|_| args.ours).map(|(ours_parent, ours)| {
            Comparison::measure(&ours_parent, &ours, counts.settings(), &counts.nodes, None, &[])
        });
        let record = PhaseRecord {
            phase: phase.to_string(),
            parent: parent.to_string(),
            beside: false,
            adds: adds(pair[1]),
            comparison,
            ttd_run: counts.ttd.run_dir.clone(),
            sprt,
            ours,
        };
        run_dir.append(&record)?;
        records.push(record);
    }
    let last = chain.names.last().expect("a chain has two variants");
    for engine in &args.beside {
        if records.iter().any(|record| &record.phase == engine && record.beside) {
            continue;
        }
        let record = PhaseRecord {
            phase: engine.clone(),
            parent: last.clone(),
            beside: true,
            adds: Vec::new(),
            comparison: compare(counts, (last, engine)),
            ttd_run: counts.ttd.run_dir.clone(),
            sprt: None,
            ours: None,
        };
        run_dir.append(&record)?;
        records.push(record);
    }
    Ok(stopped_at.filter(|_| args.stop_on_fail))
}

/// `224/300 (+1)` per suite the phase was measured on.
fn tactics_cell(comparison: &Comparison) -> String {
    let mut cells: Vec<String> = comparison
        .solved
        .iter()
        .map(|solved| {
            format!("{} {}/{} ({})", solved.suite, solved.variant, solved.positions, verdict::solved_change(solved))
        })
        .collect();
    cells.extend(comparison.unsolved.iter().map(|(suite, _)| format!("{suite}: not measured")));
    if cells.is_empty() {
        "-".to_string()
    } else {
        cells.join("; ")
    }
}

/// Each tactical suite no phase could be measured on, once, with why: the
/// table's cells only say `not measured`.
fn unmeasured_suites(comparisons: &[&Comparison]) -> String {
    let mut out = String::new();
    let mut named: Vec<&str> = Vec::new();
    for (suite, why) in comparisons.iter().flat_map(|comparison| &comparison.unsolved) {
        if !named.contains(&suite.as_str()) {
            named.push(suite);
            writeln!(out, "- **{suite}: not measured**: {why}").unwrap();
        }
    }
    out
}

/// The phase table, then each phase's claims in full.
fn markdown(
    lab: &Lab,
    args: &ChainArgs,
    chain: &Chain,
    records: &[PhaseRecord],
    stopped_at: Option<&str>,
    seconds: f64,
) -> Result<String> {
    let mut out = String::new();
    writeln!(out, "# lab chain: {} ({} phases)\n", chain.names.join(" → "), chain.names.len() - 1).unwrap();
    writeln!(
        out,
        "Each phase against its parent: nodes on {} at depth {} (geometric mean of per-position ratios, 95% Student's \
         t interval), time to depth ({} round(s), the chain interleaved, each variant beside its parent; CPU time, \
         geometric mean of the per-search ratios with its interval over positions and rounds), tactics at nodes {}, and every claim of the \
         phase's file.\n",
        args.search.suite, args.search.depth, args.ttd_rounds, args.tactics.nodes
    )
    .unwrap();
    let sprt_header = if args.sprt { " SPRT |" } else { "" };
    writeln!(out, "| phase | adds | nodes vs parent | time to depth | tactics | claims |{sprt_header}").unwrap();
    writeln!(out, "|---|---|---|---|---|---|{}", if args.sprt { "---|" } else { "" }).unwrap();
    for pair in chain.phases.windows(2) {
        let phase = pair[1].name();
        let Some(record) = records.iter().find(|record| record.phase == phase && !record.beside) else {
            let why =
                stopped_at.map_or("not run".to_string(), |at| format!("not run: stopped after {at}'s games failed"));
            writeln!(
                out,
                "| {phase} | {} | {why} | | | |{}",
                adds(pair[1]).join(" "),
                if args.sprt { " |" } else { "" }
            )
            .unwrap();
            continue;
        };
        let c = &record.comparison;
        let judgements = c.judgements(pair[1].variant);
        let claims: Vec<String> =
            judgements.iter().map(|(claim, judgement)| verdict::short(claim, judgement)).collect();
        let sprt_cell = record.sprt.as_ref().map_or(String::new(), |m| format!(" {}: {} |", m.plan, m.result));
        writeln!(
            out,
            "| {phase} | {} | {} | {} | {} | {} |{}",
            record.adds.join(" "),
            c.nodes.map_or("-".to_string(), |ratio| ratio.percent_text()),
            c.time_to_depth_text(),
            tactics_cell(c),
            if claims.is_empty() { "-".to_string() } else { claims.join("; ") },
            if args.sprt { sprt_cell } else { String::new() }
        )
        .unwrap();
    }
    for record in records.iter().filter(|record| record.beside) {
        let c = &record.comparison;
        writeln!(
            out,
            "| {} (beside {}) | - | {} | {} | {} | - |{}",
            record.phase,
            record.parent,
            c.nodes.map_or("-".to_string(), |ratio| ratio.percent_text()),
            c.time_to_depth_text(),
            tactics_cell(c),
            if args.sprt { " - |" } else { "" }
        )
        .unwrap();
    }
    // The engines beside the chain's end, counter by counter (`lab nodes`'s table).
    let beside: Vec<&PhaseRecord> = records.iter().filter(|record| record.beside).collect();
    if let (Some(first), Some(last)) = (beside.first(), chain.names.last()) {
        let end = records.iter().find(|record| &record.phase == last && !record.beside);
        let end_telemetry = end.map(|record| &record.comparison.telemetry);
        let mut rows: Vec<(&str, &crate::measure::telemetry::Telemetry)> = Vec::new();
        if let Some(telemetry) = end_telemetry {
            rows.push((last.as_str(), telemetry));
        }
        rows.extend(beside.iter().map(|record| (record.phase.as_str(), &record.comparison.telemetry)));
        writeln!(
            out,
            "\n### {} beside {}: the plans' telemetry on {}\n",
            first.parent,
            beside.iter().map(|record| record.phase.as_str()).collect::<Vec<_>>().join(", "),
            args.search.suite
        )
        .unwrap();
        out.push_str(&nodes::plan_telemetry_table(&rows));
    }
    let phases: Vec<&PhaseRecord> = records.iter().filter(|record| !record.beside).collect();
    if chain.phases.iter().any(|side| side.external.is_some()) && !phases.is_empty() {
        writeln!(out, "\n### The plans' telemetry, phase by phase, on {}\n", args.search.suite).unwrap();
        let rows: Vec<(&str, &crate::measure::telemetry::Telemetry)> =
            phases.iter().map(|record| (record.phase.as_str(), &record.comparison.telemetry)).collect();
        out.push_str(&nodes::plan_telemetry_table(&rows));
    }
    if phases.iter().any(|record| record.ours.is_some()) {
        out.push_str(&beside_ours(lab, chain, &phases)?);
    }
    let unmeasured = unmeasured_suites(&records.iter().map(|record| &record.comparison).collect::<Vec<_>>());
    if !unmeasured.is_empty() {
        write!(out, "\n{unmeasured}").unwrap();
    }
    writeln!(out, "\n## Claims, phase by phase\n").unwrap();
    for record in records.iter().filter(|record| !record.beside) {
        let variant = chain.phase(record)?.variant;
        writeln!(out, "### {} ({}), against {}\n", record.phase, variant.file.source, record.parent).unwrap();
        if let Some(line) = record.comparison.identical_line() {
            writeln!(out, "{line}\n").unwrap();
        }
        verdict::claims_list(&mut out, variant, &record.comparison.judgements(variant));
        writeln!(out, "- SPRT plan: {}\n", verdict::sprt_plan_line(lab, variant)).unwrap();
    }
    writeln!(out, "Wall time of this session: {seconds:.0} s.").unwrap();
    Ok(out)
}

/// The node claim of `variant`'s file, judged on `comparison`: its text and
/// `-4.1% (95%: …) (holds)`.
fn node_claim_cell(variant: &Variant, comparison: &Comparison) -> (Option<String>, String) {
    let change = comparison.nodes.map_or("-".to_string(), |ratio| ratio.percent_text());
    let node_claim = comparison
        .judgements(variant)
        .into_iter()
        .find(|(claim, _)| matches!(claim.claim, Claim::NodeChange { .. } | Claim::NodeDirection(_)));
    match node_claim {
        Some((claim, judgement)) => (Some(claim.text()), format!("{change}: {}", judgement.word())),
        None => (None, change),
    }
}

/// Whether two node changes agree: in sign (of the estimates), and whether
/// their 95% intervals overlap.
fn agreement(theirs: Option<RatioEstimate>, ours: Option<RatioEstimate>) -> (String, String) {
    let (Some(theirs), Some(ours)) = (theirs, ours) else { return ("-".into(), "-".into()) };
    let sign = |ratio: &RatioEstimate| ratio.percent().partial_cmp(&0.0);
    let same_sign = if sign(&theirs) == sign(&ours) { "yes" } else { "no" };
    let overlap = match (theirs.percent_interval(), ours.percent_interval()) {
        (Some((low_a, high_a)), Some((low_b, high_b))) => {
            if low_a <= high_b && low_b <= high_a {
                "yes"
            } else {
                "no"
            }
        }
        _ => "-",
    };
    (same_sign.into(), overlap.into())
}

/// Each phase of another engine's chain beside prunelab's same phase.
fn beside_ours(lab: &Lab, chain: &Chain, phases: &[&PhaseRecord]) -> Result<String> {
    let mut out = String::new();
    writeln!(
        out,
        "\n### Beside prunelab's phases\n\nEach phase's node change in the other engine and in prunelab (the variants \
         its file and its parent's `mirrors` name, counted in the same run), each judged on the plan's node claim as \
         its own file states it; whether the two agree in sign, and whether their 95% intervals overlap.\n"
    )
    .unwrap();
    let mut table = Table::new()
        .left("phase")
        .left("plan's claim")
        .left("theirs")
        .left("prunelab's pair")
        .left("prunelab")
        .left("same sign")
        .left("intervals overlap");
    for record in phases {
        let Some(ours) = &record.ours else {
            table.push([record.phase.as_str(), "-", "-", "no mirror", "-", "-", "-"]);
            continue;
        };
        let (their_claim, theirs) = node_claim_cell(chain.phase(record)?.variant, &record.comparison);
        let (our_claim, ours_cell) = node_claim_cell(lab.variant(&ours.subject)?, ours);
        let (same_sign, overlap) = agreement(record.comparison.nodes, ours.nodes);
        table.push([
            record.phase.clone(),
            their_claim.or(our_claim).unwrap_or_else(|| "-".into()),
            theirs,
            format!("{} → {}", ours.reference, ours.subject),
            ours_cell,
            same_sign,
            overlap,
        ]);
    }
    write!(out, "{table}").unwrap();
    Ok(out)
}

/// The chain's standing: contradicted when a phase's claim does not hold or
/// its SPRT accepted H0 (engines beside the chain claim nothing).
fn standing(chain: &Chain, records: &[PhaseRecord]) -> Result<Standing> {
    let mut standing = Standing::Stands;
    for record in records.iter().filter(|record| !record.beside) {
        let judgements = record.comparison.judgements(chain.phase(record)?.variant);
        let games_say = record.sprt.as_ref().and_then(PhaseMatch::games_say);
        standing = standing.and(Standing::of(&judgements, games_say));
    }
    Ok(standing)
}

/// Every variant a chain can follow: ours, the other engines', and the
/// ablations `names` name (`lab chain full full-without-razoring`).
fn chain_variants(lab: &Lab, names: &[String]) -> Vec<Variant> {
    let mut variants = lab.every_variant();
    variants.extend(names.iter().filter_map(|name| lab.ablation(name)).cloned());
    variants
}

/// Runs the chain and prints it; its standing is the exit status (docs/verdicts.md,
/// "Exit status").
pub fn command(lab: &Lab, args: &ChainArgs) -> Result<Standing> {
    let measured = measure(lab, args)?;
    if lab.global.json {
        println!("{}", std::fs::read_to_string(measured.run.join("summary.json"))?);
    } else {
        println!("{}", measured.text);
        lab.say(&format!("chain: {} ({:.0} s)", measured.run.display(), measured.seconds));
    }
    if measured.standing == Standing::Contradicted {
        lab.say(&format!(
            "chain: a phase's claim does not hold or its SPRT accepted H0 (exit status {})",
            verdict::CONTRADICTED_EXIT_STATUS
        ));
    }
    Ok(measured.standing)
}

/// A chain run, written to its folder and not printed: its page, its
/// folder, how long it took and how its claims stand.
pub struct Measured {
    pub text: String,
    pub run: PathBuf,
    pub seconds: f64,
    pub standing: Standing,
}

/// Runs the chain into its folder (`lab atlas` measures another engine's
/// phase so, where its page is not wanted).
pub fn measure(lab: &Lab, args: &ChainArgs) -> Result<Measured> {
    let started = Instant::now();
    let names = resolve_args(&chain_variants(lab, &args.chain), &args.chain)?;
    let chain = Chain::of(lab, names, &args.beside)?;
    if args.ours && !chain.phases.iter().any(|side| side.external.is_some_and(|external| external.mirrors.is_some())) {
        bail!("--ours: no phase of this chain is another engine's variant that `mirrors` one of prunelab's");
    }
    for engine in &args.beside {
        participant::check(lab, engine)?;
    }
    // A suite that cannot be read is an error before anything runs.
    let everyone: Vec<String> = chain.names.iter().chain(&args.beside).cloned().collect();
    suites::load(lab, &args.search.suite)?;
    for (suite, _) in tactics_plan(args, &chain, &everyone) {
        suites::load(lab, &suite)?;
    }
    // So is the book of the matches `--sprt` plays.
    if args.sprt {
        matches::check_book(&lab.session(), None)?;
    }
    lab.say(&format!("chain: {}", chain.names.join(" → ")));
    let (mut run_dir, mut records): (_, Vec<PhaseRecord>) =
        RunArgs { concurrency: args.concurrency, resume: args.resume.clone() }.open(lab, "chain", args)?;
    let folder = run_dir.path().to_path_buf();
    let counts = count(lab, args, &chain, &folder)?;
    let stopped_at = run_phases(lab, args, &chain, &counts, &mut run_dir, &mut records)?;
    let seconds = started.elapsed().as_secs_f64();
    let text = markdown(lab, args, &chain, &records, stopped_at.as_deref(), seconds)?;
    let phases: Vec<serde_json::Value> = records
        .iter()
        .map(|record| {
            let claims = chain.side(record).map(|side| {
                record
                    .comparison
                    .judgements(side.variant)
                    .iter()
                    .map(|(claim, judgement)| serde_json::json!({"claim": claim.key(), "verdict": judgement.word(), "detail": judgement.to_string()}))
                    .collect::<Vec<_>>()
            });
            serde_json::json!({"record": record, "claims": claims})
        })
        .collect();
    run_dir.write_summary(
        &text,
        &serde_json::json!({"chain": chain.names, "phases": phases, "stopped_at": stopped_at, "seconds": seconds}),
    )?;
    let standing = standing(&chain, &records)?;
    Ok(Measured { text, run: run_dir.path().to_path_buf(), seconds, standing })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_suite_not_measured_is_named_once_with_why() {
        let comparison = |unsolved: &[(&str, &str)]| Comparison {
            reference: "a".into(),
            subject: "b".into(),
            node_setting: String::new(),
            counted_on: None,
            claimed_on: None,
            nodes: None,
            total_nodes: (0, 0),
            positions: 0,
            failures: 0,
            time_to_depth: None,
            identical_search: false,
            solved: Vec::new(),
            unsolved: unsolved.iter().map(|&(suite, why)| (suite.to_string(), why.to_string())).collect(),
            telemetry: Default::default(),
        };
        let missing = "suite `wac`: data/suites/wac.epd cannot be read";
        let first = comparison(&[("wac", missing)]);
        let second = comparison(&[("wac", missing), ("arasan", "no such file")]);
        assert_eq!(
            unmeasured_suites(&[&first, &second]),
            format!("- **wac: not measured**: {missing}\n- **arasan: not measured**: no such file\n")
        );
        assert_eq!(unmeasured_suites(&[&comparison(&[])]), "");
    }

    #[test]
    fn the_plans_chains_follow_extends() {
        let variants = variants::load().unwrap();
        let p002 = resolve_args(&variants, &["p002".into()]).unwrap();
        assert_eq!(
            p002,
            [
                "baseline",
                "p002-1.1",
                "p002-1.2a",
                "p002-1.2b",
                "p002-1.2c",
                "p002-1.3",
                "p002-1.4",
                "p002-1.5",
                "p002-2.1",
                "p002-2.2",
                "p002-2.3",
                "p002-2.4",
                "p002-3.1",
                "p002-3.2",
                "p002-3.3",
                "p002-4.1"
            ]
        );
        assert_eq!(resolve_args(&variants, &["p003".into()]).unwrap(), ["p002-3.3", "p003-1", "p003-2", "p003-3"]);
        assert_eq!(resolve_args(&variants, &["razor".into()]).unwrap(), ["p003-3", "razor-r1", "razor-r2", "razor-r3"]);
        assert_eq!(
            resolve_args(&variants, &["razor-r1".into(), "razor-r3".into()]).unwrap(),
            ["razor-r1", "razor-r2", "razor-r3"]
        );
    }

    #[test]
    fn a_chain_ends_at_an_ablation_of_its_first_variant() {
        let lab = Lab::for_tests();
        let names = ["full".to_string(), "full-without-razoring".to_string()];
        assert_eq!(resolve_args(&chain_variants(&lab, &names), &names).unwrap(), names);
        assert!(resolve_args(&lab.every_variant(), &names).is_err(), "an ablation is no variant file");
    }

    #[test]
    fn seajays_chain_follows_its_files_and_lines_up_with_ours() {
        let lab = Lab::for_tests();
        let chain = resolve_args(&lab.every_variant(), &["seajay-p002".into()]).unwrap();
        let phases = ["1.3", "1.4", "1.5", "2.1", "2.2", "2.3", "2.4", "3.1", "3.2", "4.1"];
        let expected: Vec<String> = std::iter::once("seajay-p002-before".to_string())
            .chain(phases.iter().map(|phase| format!("seajay-p002-{phase}")))
            .collect();
        assert_eq!(chain, expected);
        let ours: Vec<(String, String)> = Chain::of(&lab, chain, &[])
            .unwrap()
            .phases
            .windows(2)
            .map(|pair| mirrored_pair((pair[0], pair[1])).unwrap())
            .collect();
        assert_eq!(ours[0], ("p002-1.2c".to_string(), "p002-1.3".to_string()));
        // SeaJay has no switch for 3.3: its 4.1 follows 3.2, and so does ours beside it.
        assert_eq!(ours[9], ("p002-3.2".to_string(), "p002-4.1".to_string()));
        let last = lab.external("seajay-p002-4.1").unwrap();
        // In name order, as the file's table is read.
        assert_eq!(
            adds(Side::of(&lab, "seajay-p002-4.1").unwrap()),
            ["RazorMargin1=300", "RazorMargin2=300", "UseRazoring=true"]
        );
        assert!(last.settings.iter().any(|setting| setting.to_string() == "FutilityBase=148"));
        assert!(lab.own_variant("seajay-p002-4.1").unwrap_err().to_string().contains("not built from this repository"));
    }

    #[test]
    fn a_chain_that_does_not_follow_extends_is_refused_by_name() {
        let variants = variants::load().unwrap();
        let error = |chain: &[&str]| {
            let chain: Vec<String> = chain.iter().map(|name| name.to_string()).collect();
            resolve_args(&variants, &chain).unwrap_err().to_string()
        };
        assert_eq!(
            error(&["razor-r3", "razor-r1"]),
            "`razor-r3` is not an ancestor of `razor-r1`: `razor-r1` extends p003-3 → p003-2 → p003-1 → p002-3.3 → \
             p002-3.2 → p002-3.1 → p002-2.4 → p002-2.3 → p002-2.2 → p002-2.1 → p002-1.5 → p002-1.4 → p002-1.3 → \
             p002-1.2c → p002-1.2b → p002-1.2a → p002-1.1 → baseline"
        );
        assert_eq!(
            error(&["p004"]),
            "unknown chain `p004`: the chains are p002, p003, razor, seajay-p002; or give FIRST LAST"
        );
        assert!(error(&["razor-r1", "razor-r1"]).contains("a chain needs two variants"));
        assert!(error(&["razor-r1", "razor-r9"]).contains("unknown variant `razor-r9`"));
    }

    #[test]
    fn a_phase_match_says_what_the_rule_says_and_an_old_record_what_its_failed_said() {
        let old: PhaseMatch = serde_json::from_str(
            r#"{"plan": "[0, 5] at 10+0.1, Hash 8", "result": "H0 accepted (LLR -2.95) after 400 games",
                "failed": true, "run_dir": null}"#,
        )
        .unwrap();
        assert_eq!((old.says, old.games_say()), (None, Some(GamesSay::NoGain)));
        let passed = PhaseMatch { failed: false, ..old.clone() };
        assert_eq!(passed.games_say(), None);
        // Played to its cap, the SPRT still going, the interval below 0.
        let lost = PhaseMatch { says: Some(GamesSay::Loss), failed: true, ..old };
        assert_eq!(lost.games_say(), Some(GamesSay::Loss));
    }

    #[test]
    fn the_sprt_is_told_in_words() {
        let status = |verdict, llr| Some(SprtStatus { llr, lower: -2.94, upper: 2.94, verdict });
        assert_eq!(sprt_text(status(SprtState::AcceptH0, -2.954)), "H0 accepted (LLR -2.95)");
        assert_eq!(sprt_text(status(SprtState::Continue, 1.0)), "undecided (LLR 1.00)");
    }

    #[test]
    fn engine_names_make_folder_names() {
        assert_eq!(folder_name("uci:/usr/games/stockfish"), "uci__usr_games_stockfish");
        assert_eq!(folder_name("p002-1.2a"), "p002-1.2a");
    }
}
