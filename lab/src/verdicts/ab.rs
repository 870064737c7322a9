//! `lab ab VARIANT` (against its parent) or `lab ab A B`: the main job.
//! Build both, count nodes on the verdict suite, time both to the same
//! depth interleaved, run the tactical suites (the default one and every
//! one the variant's claims name), and print a one-page verdict that sets
//! each measurement beside the claims of the variant file; with `--sprt`, go
//! on into a match. Games decide: where any exist for the pair (this
//! match, an earlier `lab match`, an OpenBench test read by `lab openbench
//! status`), the page opens with them and says which fast measures they
//! contradict. Beside the verdict, what the atlas says such fast numbers went
//! with in games (`calibration`), or that it is too small to say.
//!
//! The verdict's steps are runs of their own (`nodes`, `ttd`, `tactics`,
//! `match`), kept inside the verdict's folder, `lab-results/<time>-ab/`.

use std::fmt::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use clap::Args;
use games::matches;
use games::results::{runs_of, RunDir};
use games::statistics::sprt::options::SprtOptions;
use prunelab::variants::Variant;
use sections::{ATLAS, CLAIMS, MATCH, NODES, RESULTS, SPRT_PLAN, TACTICS, TIME_TO_DEPTH, TITLE};
use serde::Serialize;
// The page's sections, which the book's test checks examples with.
pub use crate::verdicts::ab_sections as sections;

use crate::engines::participant;
use crate::lab::options::{GamesOption, SearchOptions, TacticsOptions};
use crate::lab::{Lab, Pair, Side};
use crate::measure::nodes::{self, percent_change, NodesArgs, NodesRun};
use crate::measure::runner::RunArgs;
use crate::measure::suites;
use crate::measure::tactics;
use crate::measure::ttd::{self, TtdArgs, TtdRun};
use crate::variants::grammar::{Planned, Scope, ScopedClaim, DEFAULT_TC};
use crate::verdicts::atlas::fast_measures::{FastMeasures, MeasuredAt};
use crate::verdicts::atlas::{entries, fast_measures};
use crate::verdicts::calibration;
use crate::verdicts::claims::ClaimStanding;
use crate::verdicts::claims::NodeSetting;
use crate::verdicts::decide;
use crate::verdicts::evidence::{self, ratio_signal, solved_signal, GameResult, GamesSay, Signal};
use crate::verdicts::other_engines::{self, Sanity, SanityOptions};
use crate::verdicts::verdict::{self, run_tactics, Comparison, Standing, TacticsOutcome};

#[derive(Args, Clone, Debug, Serialize)]
pub struct AbArgs {
    /// `VARIANT`, judged against its parent (its file's `extends`), or `A B`:
    /// B judged against A.
    #[arg(required = true, num_args = 1..=2, value_names = ["A", "B"])]
    pub variants: Vec<String>,
    #[command(flatten)]
    #[serde(flatten)]
    pub search: SearchOptions,
    #[command(flatten)]
    #[serde(flatten)]
    pub tactics: TacticsOptions,
    /// Time-to-depth rounds: each position searched this many times by each.
    #[arg(long, default_value_t = ttd::DEFAULT_ROUNDS)]
    pub ttd_rounds: usize,
    /// Engine processes at the same time for the node and solve counts
    /// (which do not depend on it; time to depth is always one at a time).
    #[arg(long, default_value_t = 2)]
    pub concurrency: usize,
    /// With `--sprt`, go on into a match that stops at the SPRT's verdict;
    /// `--sprt` alone takes the bounds of the variant file's `[sprt]`.
    #[command(flatten)]
    #[serde(flatten)]
    pub sprt: SprtOptions,
    /// The match's time control (with --sprt); default: the variant file's
    /// `[sprt]` tc, else 10+0.1; with --decide, N=10000.
    #[arg(long)]
    pub tc: Option<String>,
    #[command(flatten)]
    pub games: GamesOption,
    /// After the fast measures, decide with games: at fixed nodes (N=10000
    /// unless --tc), from the atlas's book, in pairs, an SPRT on the variant
    /// file's bounds (or --sprt's) until it decides or --budget is spent;
    /// the page opens with the decision.
    #[arg(long)]
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub decide: bool,
    /// The atlas the verdict reads, and `--decide`'s finished games at
    /// fixed nodes go to.
    #[arg(long, value_name = "FILE", default_value = entries::ATLAS_FILE)]
    #[serde(skip)]
    pub atlas: PathBuf,
    /// The time the whole command may take, fast measures included, e.g.
    /// 10m or 1h: the match starts no pair after it [default with --decide: 10m].
    #[arg(long, value_name = "DURATION", value_parser = humantime::parse_duration)]
    #[serde(skip)]
    pub budget: Option<Duration>,
    /// Continue a verdict stopped before its end (Ctrl-C, an error, the
    /// budget): DIR, or the latest `ab` run; its finished measures are kept
    /// and its match goes on. Give the same arguments as the first time.
    #[arg(long, num_args = 0..=1, value_name = "DIR", default_missing_value = "latest")]
    #[serde(skip)]
    pub resume: Option<String>,
    #[command(flatten)]
    #[serde(flatten)]
    pub sanity: SanityOptions,
}

/// The pair a verdict is about, resolved: the reference and the variant under test.
pub fn pair<'a>(lab: &'a Lab, names: &[String]) -> Result<Pair<'a>> {
    match names {
        [variant] => {
            let subject = Side::of(lab, variant)?;
            let Some(parent) = &subject.variant.file.extends else {
                bail!("`{variant}` has no parent to measure it against: give two variants, `lab ab A {variant}`")
            };
            Ok(Pair { reference: Side::of(lab, parent)?, subject })
        }
        [a, b] => Pair::of(lab, a, b),
        _ => bail!("lab ab takes one variant (against its parent) or two (B against A)"),
    }
}

/// The match `--sprt` or `--decide` asks for: its options with bounds,
/// time control, hash and book. `--sprt` plays the variant file's
/// `[sprt]` (its tc and hash, where the command line gives none);
/// `--decide` plays the atlas's games (decide::plan).
pub(crate) struct MatchPlan {
    pub sprt: SprtOptions,
    pub tc: String,
    pub hash: u32,
    /// The book, where it is not `lab match`'s default.
    pub book: Option<PathBuf>,
    /// Whether the page opens with the decision, and the games go to the
    /// atlas (`--decide`).
    pub decides: bool,
}

fn match_plan(lab: &Lab, args: &AbArgs, pair: Pair) -> Result<Option<MatchPlan>> {
    if args.decide {
        return decide::plan(lab, args, pair).map(Some);
    }
    let variant = pair.subject.variant;
    let plan = variant.plan().sprt;
    let plan = plan.as_ref();
    let sprt = args.sprt.with_plan_bounds(plan.map(|plan| plan.bounds), variant.name())?;
    if sprt.settings()?.is_none() {
        return Ok(None);
    }
    let tc = args.tc.clone().or_else(|| plan.map(|plan| plan.tc.clone())).unwrap_or_else(|| DEFAULT_TC.to_string());
    let hash = plan.and_then(|plan| plan.hash_mb).unwrap_or(args.search.hash.mb);
    Ok(Some(MatchPlan { sprt, tc, hash, book: None, decides: false }))
}

/// The tactical suites to run: the default one, then those the variant's
/// claims name (only against its parent: elsewhere the claims do not apply).
fn tactics_suites(args: &AbArgs, pair: Pair) -> Vec<String> {
    let mut suites: Vec<String> = Vec::new();
    if args.tactics.suite != "none" {
        suites.push(args.tactics.suite.clone());
    }
    if pair.against_parent() {
        for suite in verdict::claimed_suites(pair.subject.variant) {
            if !suites.contains(&suite) {
                suites.push(suite);
            }
        }
    }
    suites
}

/// What the verdict measured, for the page.
struct Measurements {
    nodes: NodesRun,
    ttd: TtdRun,
    tactics: Vec<TacticsOutcome>,
    comparison: Comparison,
}

fn measure(lab: &Lab, args: &AbArgs, pair: Pair) -> Result<Measurements> {
    let (a, b) = pair.names();
    let engines = vec![a.to_string(), b.to_string()];
    // A resumed verdict continues each step it began (`lab` is nested in
    // the verdict's folder); the others start.
    let begun = |command: &str| {
        args.resume
            .as_ref()
            .and_then(|_| runs_of(&lab.results_root(), command).pop())
            .map(|run| run.display().to_string())
    };
    let counting = RunArgs { concurrency: args.concurrency, resume: begun("nodes") };
    participant::launches(lab, &engines)?;
    lab.say(&format!("nodes: {} at depth {}", args.search.suite, args.search.depth));
    let nodes_args =
        NodesArgs { variants: engines.clone(), search: args.search.clone(), first: None, run: counting.clone() };
    let nodes = nodes::run(lab, &nodes_args)?;
    lab.say(&format!("time to depth {}: {} round(s), interleaved", args.search.depth, args.ttd_rounds));
    let ttd_args = TtdArgs {
        engines: engines.clone(),
        search: args.search.clone(),
        rounds: args.ttd_rounds,
        first: None,
        clock: ttd::Clock::default(),
        resume: begun("ttd"),
    };
    let ttd = ttd::run(lab, &ttd_args)?;
    let refusal = other_engines::fixed_nodes_refusal(lab, &engines)?;
    // Each suite is a run of its own: a resumed verdict continues the one
    // of the same suite.
    let tactics = tactics_suites(args, pair)
        .iter()
        .map(|suite| match &refusal {
            Some(why) => Ok(other_engines::unmeasured_tactics(suite, args.tactics.nodes, args.tactics.first, why)),
            None => {
                let run = RunArgs { resume: begun_tactics(lab, args, suite), ..counting.clone() };
                run_tactics(lab, suite, &engines, args.tactics.nodes, args.tactics.first, run)
            }
        })
        .collect::<Result<Vec<_>>>()?;
    let settings =
        (NodeSetting::of(&nodes.suite, args.search.depth), NodeSetting::claimed(lab, &Scope::default()).ok());
    let comparison = Comparison::measure(a, b, settings, &nodes.records, ttd.estimate(a, b), &tactics);
    Ok(Measurements { nodes, ttd, tactics, comparison })
}

/// The verdict's first lines: what is compared with what, and (with
/// `--decide`) what the games decided.
fn heading(out: &mut String, pair: Pair, identical: Option<String>, decision: Option<&str>) {
    let (a, b) = pair.names();
    let relation = if pair.against_parent() { "its parent" } else { "" };
    let decided = decision.map_or(String::new(), |word| format!(": {word}"));
    writeln!(out, "{TITLE}{b} against {relation}{}{a}{decided}\n", if relation.is_empty() { "" } else { " " }).unwrap();
    if let Some(line) = verdict::distance_line(pair) {
        writeln!(out, "{line}\n").unwrap();
    }
    if let Some(line) = identical {
        writeln!(out, "{line}\n").unwrap();
    }
    for Side { variant, external } in [pair.reference, pair.subject] {
        let adds = match external {
            Some(external) => external.heading_words(),
            None => {
                let adds = variant.adds().join(" ");
                let adds = if adds.is_empty() { "none".to_string() } else { adds };
                format!("adds {adds}; {} features in all", variant.features.len())
            }
        };
        writeln!(
            out,
            "- `{}`: {} (extends `{}`, {adds}; source: {})",
            variant.name(),
            variant.file.description,
            variant.file.extends.as_deref().unwrap_or("-"),
            variant.file.source
        )
        .unwrap();
    }
}

/// The verdict in one table: nodes and time to depth first.
fn summary_table(out: &mut String, args: &AbArgs, m: &Measurements, judgements: &[(ScopedClaim, ClaimStanding)]) {
    let c = &m.comparison;
    let claim_of = |keys: &[&str]| {
        let found: Vec<String> = judgements
            .iter()
            .filter(|(claim, _)| keys.iter().any(|key| claim.key() == *key))
            .map(|(claim, judgement)| format!("{}: {}", claim.text(), judgement.word()))
            .collect();
        if found.is_empty() {
            "-".to_string()
        } else {
            found.join("; ")
        }
    };
    writeln!(out, "\n| measure | {} | {} | change (95% interval) | claim |", c.reference, c.subject).unwrap();
    writeln!(out, "|---|---:|---:|---|---|").unwrap();
    writeln!(
        out,
        "| nodes, {}, geometric mean over positions | {} | {} | {} | {} |",
        c.node_setting,
        c.total_nodes.0,
        c.total_nodes.1,
        c.nodes.map_or("-".to_string(), |ratio| ratio.percent_text()),
        claim_of(&[crate::variants::grammar::NODES_PCT, crate::variants::grammar::NODES])
    )
    .unwrap();
    let (time_a, time_b) = ttd_totals(&m.ttd);
    writeln!(
        out,
        "| time to depth {}, {} round(s) interleaved | {time_a:.2} s | {time_b:.2} s | {} | - |",
        args.search.depth,
        args.ttd_rounds,
        c.time_to_depth_text()
    )
    .unwrap();
    for outcome in &m.tactics {
        let key = format!("{}.solved", outcome.suite);
        match c.solved.iter().find(|solved| solved.suite == outcome.suite) {
            Some(solved) => writeln!(
                out,
                "| solved, {} at {} | {}/{} | {}/{} | {} | {} |",
                outcome.suite,
                outcome.limit,
                solved.parent,
                solved.positions,
                solved.variant,
                solved.positions,
                verdict::solved_change(solved),
                claim_of(&[key.as_str()])
            )
            .unwrap(),
            None => {
                writeln!(out, "| solved, {} | - | - | not measured | {} |", outcome.suite, claim_of(&[key.as_str()]))
                    .unwrap()
            }
        }
    }
}

/// The sums of the per-position median times, in seconds: (A's, B's).
fn ttd_totals(run: &TtdRun) -> (f64, f64) {
    let [a, b] = [&run.engines[0], &run.engines[1]];
    run.total_seconds(a, b).unwrap_or_default()
}

fn nodes_section(out: &mut String, args: &AbArgs, m: &Measurements) {
    let c = &m.comparison;
    let totals = nodes::totals(&m.nodes.records, &[c.reference.clone(), c.subject.clone()]);
    let (base, test) = (&totals[0], &totals[1]);
    writeln!(out, "\n{NODES}{}, depth {}, Hash {}\n", c.node_setting, args.search.depth, args.search.hash.mb).unwrap();
    writeln!(
        out,
        "- geometric mean of the per-position ratios: {} (the interval: Student's t over positions)",
        c.nodes.map_or("-".to_string(), |ratio| ratio.percent_text())
    )
    .unwrap();
    writeln!(
        out,
        "- total: {} → {} nodes ({})",
        c.total_nodes.0,
        c.total_nodes.1,
        test.delta_total_pct.map_or("-".to_string(), |v| format!("{v:+.1}%"))
    )
    .unwrap();
    let pairs = verdict::node_pairs(&m.nodes.records, &c.reference, &c.subject);
    let fewer = pairs.iter().filter(|(base, own)| own < base).count();
    let more = pairs.iter().filter(|(base, own)| own > base).count();
    writeln!(out, "- {} searched fewer nodes on {fewer} positions, more on {more}, of {}", c.subject, pairs.len())
        .unwrap();
    writeln!(
        out,
        "- effective branching factor (geometric mean): {} → {}",
        base.ebf_geomean.map_or("-".into(), |v| format!("{v:.2}")),
        test.ebf_geomean.map_or("-".into(), |v| format!("{v:.2}"))
    )
    .unwrap();
    if c.failures > 0 {
        writeln!(out, "- **{} search(es) failed**; see the nodes report", c.failures).unwrap();
    }
    writeln!(
        out,
        "- nps over these searches: {} → {} ({:+.1}%), {} process(es) at a time",
        base.nps,
        test.nps,
        percent_change(test.nps as f64, base.nps.max(1) as f64),
        args.concurrency
    )
    .unwrap();
}

fn ttd_section(out: &mut String, args: &AbArgs, m: &Measurements) {
    let c = &m.comparison;
    let (time_a, time_b) = ttd_totals(&m.ttd);
    writeln!(out, "\n{TIME_TO_DEPTH}{}\n", args.search.depth).unwrap();
    writeln!(
        out,
        "- {} over {}: {}; summed medians {time_a:.2} s → {time_b:.2} s",
        c.subject,
        c.reference,
        c.time_to_depth_text()
    )
    .unwrap();
    writeln!(
        out,
        "- how: the same positions to depth {}, one search at a time, A and B back to back with the order \
         alternating, {} round(s), fresh engine processes each round; each search's {} from `go` to `bestmove`; \
         the geometric mean of B/A over the searches with a seeded 95% bootstrap interval over positions and rounds",
        args.search.depth,
        args.ttd_rounds,
        m.ttd.clock.words()
    )
    .unwrap();
    let failures = m.ttd.records.iter().filter(|record| record.error.is_some()).count();
    if failures > 0 {
        writeln!(out, "- **{failures} timed pair(s) failed**; see the ttd run").unwrap();
    }
}

fn tactics_section(out: &mut String, m: &Measurements) {
    let c = &m.comparison;
    for outcome in &m.tactics {
        writeln!(out, "\n{TACTICS}{}, {} per position\n", outcome.suite, outcome.limit).unwrap();
        let data = match &outcome.result {
            Ok(data) => data,
            Err(why) => {
                writeln!(out, "Not measured: {why}").unwrap();
                continue;
            }
        };
        let names = [c.reference.clone(), c.subject.clone()];
        let totals = tactics::totals(&data.suite, &data.records, &names);
        let (base, test) = (&totals[0], &totals[1]);
        writeln!(
            out,
            "- solved: {} → {} of {} ({:+})",
            base.solved,
            test.solved,
            test.positions,
            test.solved as i64 - base.solved as i64
        )
        .unwrap();
        let list = |ids: &[String]| if ids.is_empty() { "none".to_string() } else { ids.join(", ") };
        writeln!(out, "- only {} solves: {}", c.subject, list(&test.gained)).unwrap();
        writeln!(out, "- only {} solves: {}", c.reference, list(&test.lost)).unwrap();
        if let (Some(base_nodes), Some(test_nodes)) = (base.mean_solution_nodes, test.mean_solution_nodes) {
            writeln!(
                out,
                "- mean nodes to solution over the {} positions both solve: {base_nodes:.0} → {test_nodes:.0} ({:+.1}%)",
                test.common_solved,
                percent_change(test_nodes, base_nodes)
            )
            .unwrap();
        }
    }
}

/// The fast measures that point one way: time to depth (unless the
/// searches are identical: then it is noise), nodes, solve counts.
fn fast_signals(c: &Comparison) -> Vec<Signal> {
    let mut signals: Vec<Signal> = Vec::new();
    signals.extend(
        c.time_to_depth
            .filter(|_| !c.identical_search)
            .and_then(|ratio| ratio_signal(format!("time to depth {}", ratio.ratio_text()), &ratio)),
    );
    signals.extend(c.nodes.and_then(|ratio| ratio_signal(format!("nodes {}", ratio.percent_text()), &ratio)));
    signals.extend(c.solved.iter().filter_map(|solved| solved_signal(&solved.suite, solved.parent, solved.variant)));
    signals
}

/// What the page and `summary.json` both judge on: the pair's games and the
/// claims judged with them.
struct Judged {
    games: Vec<GameResult>,
    /// The match this command played (`--sprt`), when it played one.
    played: Option<GameResult>,
    judgements: Vec<(ScopedClaim, ClaimStanding)>,
}

impl Judged {
    fn of(lab: &Lab, c: &Comparison, variant: &Variant, played: Option<&std::path::Path>) -> Judged {
        let games = evidence::game_results(&lab.results_root(), &c.subject, &c.reference);
        // A games claim is against the parent: only the pair's own games, when A is it.
        let parent_games = if variant.file.extends.as_deref() == Some(c.reference.as_str()) { &games[..] } else { &[] };
        let judgements = c.judgements_with_games(variant, parent_games);
        let played = played.and_then(evidence::match_result);
        Judged { games, played, judgements }
    }

    fn games_say(&self) -> Option<GamesSay> {
        deciding_games(self.played.as_ref(), &self.games).map(GameResult::says)
    }

    fn standing(&self) -> Standing {
        Standing::of(&self.judgements, self.games_say())
    }
}

/// The game result that decides the verdict: the match this command
/// played, where it played one (its SPRT is what was asked for), else the
/// largest result of the pair (`on_disk`, most games first).
fn deciding_games<'a>(played: Option<&'a GameResult>, on_disk: &'a [GameResult]) -> Option<&'a GameResult> {
    played.or(on_disk.first())
}

/// The verdict page, without the match: the games first, where there are any.
fn page(
    lab: &Lab,
    args: &AbArgs,
    pair: Pair,
    m: &Measurements,
    plan: Option<&MatchPlan>,
    judged: &Judged,
    decision: Option<&decide::Decision>,
    sanity: Option<&Sanity>,
) -> Result<String> {
    let c = &m.comparison;
    let variant = pair.subject.variant;
    let mut out = String::new();
    heading(&mut out, pair, c.identical_line(), decision.map(|decision| decision.word.as_str()));
    if let Some(sanity) = sanity {
        writeln!(out, "\n{}", other_engines::findings_section(sanity)).unwrap();
    }
    if let Some(decision) = decision {
        write!(out, "\n{}", decision.section).unwrap();
    }
    let section = match &judged.played {
        Some(played) => {
            evidence::games_section_deciding(&judged.games, played, "the match played here", &fast_signals(c))
        }
        None => evidence::games_section(&judged.games, &fast_signals(c)),
    };
    if let Some(section) = section {
        writeln!(out, "\n{section}").unwrap();
    }
    summary_table(&mut out, args, m, &judged.judgements);
    let measured_at = MeasuredAt {
        suite: args.search.suite.clone(),
        depth: args.search.depth,
        tactics_nodes: args.tactics.nodes,
        tactics_first: args.tactics.first,
        hash: args.search.hash.mb,
    };
    let fast = FastMeasures::of(c);
    if c.identical_search {
        writeln!(out, "\n{ATLAS}\n\nNothing: the searches are identical.").unwrap();
    } else if let Some(section) = other_engines::atlas_section(lab, &args.atlas, pair, (&fast, &measured_at))? {
        writeln!(out, "\n{section}").unwrap();
    } else {
        // The atlas's other variants: the subject's own games, if it has
        // any, would only confirm themselves.
        let atlas = entries::read(&lab.resolve(&args.atlas));
        let measured = calibration::measured_pairs(&lab.root.join(fast_measures::FAST_FILE), &lab.results_root());
        let mut rows = calibration::rows(&atlas, &measured);
        rows.retain(|row| row.variant != c.subject);
        let source = calibration::Source::prunelab();
        writeln!(out, "\n{}", calibration::verdict_section(&rows, &fast, &measured_at, &source)).unwrap();
    }
    writeln!(out, "\n{CLAIMS}`{}` ({})\n", c.subject, variant.file.source).unwrap();
    verdict::claims_list(&mut out, variant, &judged.judgements);
    writeln!(out, "\n{SPRT_PLAN}\n").unwrap();
    writeln!(out, "- {}", verdict::sprt_plan_line(lab, variant)).unwrap();
    match plan {
        Some(plan) => {
            let bounds = plan.sprt.bounds.clone().unwrap_or_default();
            let book = plan.book.as_ref().map_or(String::new(), |book| format!(", book {}", book.display()));
            writeln!(out, "- played below: [{}, {}] at {}, Hash {}{book}", bounds[0], bounds[1], plan.tc, plan.hash)
                .unwrap()
        }
        None if variant.plan().sprt.is_some() => writeln!(
            out,
            "- not played: `cargo lab ab {}{} --sprt` plays it",
            if variant.file.extends.as_deref() == Some(c.reference.as_str()) {
                String::new()
            } else {
                format!("{} ", c.reference)
            },
            c.subject
        )
        .unwrap(),
        None => writeln!(out, "- not played: add `--sprt ELO0 ELO1` to play one").unwrap(),
    }
    nodes_section(&mut out, args, m);
    ttd_section(&mut out, args, m);
    tactics_section(&mut out, m);
    writeln!(out, "\n{RESULTS}\n").unwrap();
    writeln!(out, "- nodes: {}", m.nodes.run_dir.display()).unwrap();
    writeln!(out, "- time to depth: {}", m.ttd.run_dir.display()).unwrap();
    for outcome in &m.tactics {
        if let Ok(data) = &outcome.result {
            writeln!(out, "- tactics ({}): {}", outcome.suite, data.run_dir.display()).unwrap();
        }
    }
    Ok(out)
}

/// The tactics run of `suite` a resumed verdict began, if any.
fn begun_tactics(lab: &Lab, args: &AbArgs, suite: &str) -> Option<String> {
    args.resume.as_ref()?;
    runs_of(&lab.results_root(), "tactics")
        .into_iter()
        .rev()
        .find(|run| {
            let text = std::fs::read_to_string(run.join("run.json")).unwrap_or_default();
            serde_json::from_str::<serde_json::Value>(&text).is_ok_and(|run| run["args"]["suite"] == suite)
        })
        .map(|run| run.display().to_string())
}

/// The verdict's folder: a new one, or the one `--resume` names.
fn open_run(lab: &Lab, args: &AbArgs) -> Result<RunDir> {
    let Some(which) = &args.resume else { return RunDir::create(&lab.results_root(), "ab", args) };
    let path = if which == "latest" {
        let root = lab.results_root();
        runs_of(&root, "ab").pop().ok_or_else(|| anyhow::anyhow!("--resume: no `ab` run under {}", root.display()))?
    } else {
        lab.resolve(std::path::Path::new(which))
    };
    let (run, _) = RunDir::resume::<serde_json::Value>(&path, "ab", args)?;
    lab.say(&format!("resuming {}", path.display()));
    Ok(run)
}

/// Runs the verdict and prints it; its standing is the exit status
/// (docs/verdicts.md, "Exit status").
pub fn command(lab: &Lab, args: &AbArgs) -> Result<Standing> {
    let started = Instant::now();
    let pair = pair(lab, &args.variants)?;
    let (a, b) = pair.names();
    let variant = pair.subject.variant;
    // A bad --sprt is an error now, not after the node counts and tactics.
    let plan = match_plan(lab, args, pair)?;
    if let Some(plan) = &plan {
        matches::check_book(&lab.session(), plan.book.as_deref())?;
    }
    // So is a suite that cannot be read.
    for suite in std::iter::once(args.search.suite.clone()).chain(tactics_suites(args, pair)) {
        suites::load(lab, &suite)?;
    }
    let run_dir = open_run(lab, args)?;
    let steps = lab.nested(run_dir.path());
    let measurements = measure(&steps, args, pair)?;
    let sanity = other_engines::play_sanity(&steps, &args.sanity, pair, (args.concurrency, args.search.hash.mb))?;
    let mut played = None;
    if let Some(plan) = &plan {
        let bounds = plan.sprt.bounds.clone().unwrap_or_default();
        lab.say(&format!("match: {b} vs {a} at {} with SPRT [{}, {}]", plan.tc, bounds[0], bounds[1]));
        let budget = args.budget.or(plan.decides.then_some(decide::DEFAULT_BUDGET));
        let left = budget.map(|budget| budget.saturating_sub(started.elapsed()));
        played = Some(play_match(&steps, args, (a, b), plan, left)?);
    }
    // After the match, so the page opens with its games.
    let judged =
        Judged::of(lab, &measurements.comparison, variant, played.as_ref().map(|played| played.run_dir.as_path()));
    let standing = judged.standing();
    let decision = match (&plan, &played) {
        (Some(plan), Some(played)) if plan.decides => Some(decide::settle(lab, args, pair, plan, played)?),
        _ => None,
    };
    let mut text = page(lab, args, pair, &measurements, plan.as_ref(), &judged, decision.as_ref(), sanity.as_ref())?;
    let mut match_dir = None;
    if let (Some(plan), Some(played)) = (&plan, played) {
        writeln!(text, "\n{MATCH}{b} against {a}, {}\n\n{}", plan.tc, played.text).unwrap();
        match_dir = Some(played.run_dir);
    }
    debug_assert_eq!(sections::check(&text), Ok(()), "the page's sections are not sections::SECTIONS:\n{text}");
    run_dir.write_summary(
        &text,
        &serde_json::json!({
            "a": a,
            "b": b,
            "comparison": measurements.comparison,
            "claims": judged.judgements.iter().map(|(claim, judgement)| {
                serde_json::json!({"claim": claim.key(), "text": claim.text(), "verdict": judgement.word(), "detail": judgement.to_string()})
            }).collect::<Vec<_>>(),
            "games_say": judged.games_say().map(GamesSay::words),
            "contradicted": standing == Standing::Contradicted,
            "nodes_run": measurements.nodes.run_dir,
            "ttd_run": measurements.ttd.run_dir,
            "match_run": match_dir,
            "sanity": sanity.as_ref().map(other_engines::Sanity::json),
        }),
    )?;
    if lab.global.json {
        println!("{}", std::fs::read_to_string(run_dir.path().join("summary.json"))?);
    } else {
        println!("{text}");
        lab.say(&format!("verdict: {}", run_dir.path().join("summary.md").display()));
    }
    if standing == Standing::Contradicted {
        lab.say(&format!(
            "{b}: a claim does not hold or the games are against it (exit status {})",
            verdict::CONTRADICTED_EXIT_STATUS
        ));
    }
    Ok(standing)
}

/// The match a verdict played: its page, folder and summary, the commit
/// its engines were built from and how long this sitting took.
pub(crate) struct Played {
    pub text: String,
    pub run_dir: PathBuf,
    pub summary: matches::MatchSummary,
    pub commit: String,
    pub wall_seconds: u64,
}

/// The SPRT match of `--sprt` or `--decide`, with B as the first engine,
/// so its Elo is B's gain over A; it starts no pair once `budget` is
/// spent. A match the verdict began (`--resume`) goes on.
fn play_match(
    lab: &Lab,
    args: &AbArgs,
    (a, b): (&str, &str),
    plan: &MatchPlan,
    budget: Option<Duration>,
) -> Result<Played> {
    let mut settings = matches::MatchArgs::new(b, a);
    settings.tc = plan.tc.parse().map_err(|error| anyhow::anyhow!("--tc {}: {error}", plan.tc))?;
    settings.games = Some(args.games.limit);
    settings.sprt = plan.sprt.clone();
    settings.concurrency = args.concurrency;
    settings.hash.mb = plan.hash;
    settings.book = plan.book.clone();
    settings.budget = budget;
    settings.resume = args.resume.as_ref().and_then(|_| runs_of(&lab.results_root(), "match").pop()).map(Some);
    let (binary_b, binary_a) = (participant::launch(lab, b)?, participant::launch(lab, a)?);
    let commit = crate::tools::commit(&lab.root);
    let started = Instant::now();
    let outcome = matches::run_match(&lab.session(), (b, &binary_b), (a, &binary_a), &settings)?;
    let text = format!("{}\nGames and PGN: {}", matches::summary_markdown(&outcome.summary), outcome.run_dir.display());
    let wall_seconds = started.elapsed().as_secs();
    Ok(Played { text, run_dir: outcome.run_dir, summary: outcome.summary, commit, wall_seconds })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lab() -> Lab {
        Lab::for_tests()
    }

    #[test]
    fn the_heading_names_the_tunable_values_a_variant_adds() {
        let lab = lab();
        let mut out = String::new();
        heading(&mut out, pair(&lab, &["p002-1.6".to_string()]).unwrap(), None, None);
        let tuned = out.lines().find(|line| line.starts_with("- `p002-1.6`")).unwrap();
        assert_eq!(
            tuned,
            "- `p002-1.6`: Plan 002 chain: SPSA tuning of the static null-move margin, 93 cp a ply as tuned \
             (a leaf of p002-1.5). (extends `p002-1.5`, adds ReverseFutilityDepthMargin=93; 7 features in all; \
             source: plan 002, phase 1.6)"
        );
        let parent = out.lines().find(|line| line.starts_with("- `p002-1.5`")).unwrap();
        assert!(parent.contains("(extends `p002-1.4`, adds nmp-verify-10; 7 features in all;"), "{parent}");
    }

    #[test]
    fn the_match_just_played_decides_the_exit_status() {
        use games::statistics::{Pentanomial, Wdl};

        use crate::verdicts::evidence::SprtReading;
        let result = |games: u64, llr: f64, finished: bool| GameResult {
            subject: "razor-r1".into(),
            reference: "p003-3".into(),
            source: format!("{games} games"),
            taken: "20261128T000000Z".into(),
            tc: "10+0.1".into(),
            book: None,
            wdl: Wdl { wins: games / 2, draws: 0, losses: games / 2 },
            penta: Pentanomial([0, games / 4, 0, games / 4, 0]),
            sprt: Some(SprtReading { elo0: 0.0, elo1: 5.0, llr, lower: -2.94, upper: 2.94 }),
            finished,
            time_losses: 0,
            crashes: 0,
        };
        // `--sprt` just accepted H0 on 400 games; an OpenBench test of 1640
        // games is still running beside it.
        let played = result(400, -3.0, true);
        let on_disk = [result(1640, 2.0, false), played.clone()];
        let deciding = deciding_games(Some(&played), &on_disk).unwrap();
        assert_eq!(deciding.source, "400 games");
        let standing = Standing::of(&[], Some(deciding.says()));
        assert_eq!(standing, Standing::Contradicted);
        assert_eq!(standing.exit_code(), std::process::ExitCode::from(3));
        // Without a match of its own, the largest result decides; still
        // running, it decides nothing.
        assert_eq!(Standing::of(&[], deciding_games(None, &on_disk).map(GameResult::says)), Standing::Stands);
    }

    #[test]
    fn one_variant_is_judged_against_its_parent() {
        let lab = lab();
        assert_eq!(pair(&lab, &["razor-r1".into()]).unwrap().names(), ("p003-3", "razor-r1"));
        assert_eq!(pair(&lab, &["baseline".into(), "razor-r2".into()]).unwrap().names(), ("baseline", "razor-r2"));
        let orphan = pair(&lab, &["baseline".into()]).unwrap_err().to_string();
        assert!(orphan.contains("`baseline` has no parent"), "{orphan}");
        assert!(pair(&lab, &["razor-r9".into()]).unwrap_err().to_string().contains("unknown variant `razor-r9`"));
    }
}
