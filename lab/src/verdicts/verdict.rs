//! One engine against a reference, as `lab ab` and `lab chain` measure it:
//! the node change (geometric mean over positions, with its interval), the
//! time to depth, the solve counts on the tactical suites, the telemetry,
//! and the variant's claims judged on them.

use std::fmt::Write;

use anyhow::Result;
use prunelab::variants::Variant;
use serde::{Deserialize, Serialize};

use crate::lab::options::HashOption;
use crate::lab::{Lab, Pair};
use crate::measure::nodes::NodesRecord;
use crate::measure::ratio::{paired_ratio, RatioEstimate};
use crate::measure::runner::RunArgs;
use crate::measure::suites::Suite;
use crate::measure::tactics::{self, TacticsArgs, TacticsRecord};
use crate::measure::telemetry::Telemetry;
use crate::measure::ttd::IDENTICAL_SEARCH;
use crate::variants::grammar::{self, Claim, Planned, Scope, ScopedClaim};
use crate::verdicts::claims::{self, ClaimStanding, Evidence, NodeChange, NodeSetting, OwnNodes, Solved};
use crate::verdicts::evidence::{GameResult, GamesSay};

/// A tactical suite's run for a verdict, or why it could not be run.
pub struct TacticsOutcome {
    pub suite: String,
    /// The limit per position, e.g. `nodes 50000`.
    pub limit: String,
    /// Only the suite's first N positions (`--tactics-first`).
    pub first: Option<usize>,
    pub result: Result<TacticsData, String>,
}

/// What a verdict reads of a tactics run.
pub struct TacticsData {
    pub suite: Suite,
    pub records: Vec<TacticsRecord>,
    pub run_dir: std::path::PathBuf,
}

impl TacticsOutcome {
    /// `subject`'s and `reference`'s solve counts, when both ran it.
    pub fn solved(&self, reference: &str, subject: &str) -> Option<Solved> {
        let data = self.result.as_ref().ok()?;
        let count = |name: &str| {
            let mine = data.records.iter().filter(|record| record.variant == name);
            (mine.clone().count() > 0).then(|| mine.filter(|record| record.solved).count())
        };
        Some(Solved {
            suite: self.suite.clone(),
            parent: count(reference)?,
            variant: count(subject)?,
            positions: data.suite.positions.len(),
            at_claim_budget: self.first.is_none() && self.limit == grammar::claim_tactics_limit(),
        })
    }
}

/// Runs one tactical suite for `variants`.
pub fn run_tactics(
    lab: &Lab,
    suite: &str,
    variants: &[String],
    nodes: u64,
    first: Option<usize>,
    run: RunArgs,
) -> Result<TacticsOutcome> {
    let tactics_args = TacticsArgs {
        variants: variants.to_vec(),
        suite: suite.to_string(),
        movetime: None,
        nodes: Some(nodes),
        depth: None,
        hash: HashOption::default(),
        first,
        run,
    };
    let limit = tactics_args.limit_text();
    lab.say(&format!("tactics: {suite} at {limit}"));
    let run = tactics::run(lab, &tactics_args)?;
    let data = TacticsData { suite: run.suite, records: run.records, run_dir: run.run_dir };
    Ok(TacticsOutcome { suite: suite.to_string(), limit, first, result: Ok(data) })
}

/// What was measured of `subject` against `reference`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Comparison {
    pub reference: String,
    pub subject: String,
    /// Where the nodes were counted: `verdict at depth 10`.
    pub node_setting: String,
    /// The same, as claims compare it (`None` in chain records kept
    /// before it was).
    #[serde(default)]
    pub counted_on: Option<NodeSetting>,
    /// Where its unscoped claims are claimed: the verdict suite at depth
    /// 10, as the lab read it when it measured (`None` in records kept
    /// before it did, or when the suite could not be read).
    #[serde(default)]
    pub claimed_on: Option<NodeSetting>,
    /// B's nodes over A's, per position: geometric mean and interval.
    pub nodes: Option<RatioEstimate>,
    /// Total nodes over the positions both finished: (reference, subject).
    pub total_nodes: (u64, u64),
    /// How many positions both finished.
    pub positions: usize,
    /// Searches that failed, either engine.
    pub failures: usize,
    /// B's time to depth over A's.
    pub time_to_depth: Option<RatioEstimate>,
    /// Whether B searched as A on every position both finished: the same
    /// nodes and best move (`false` in records kept before it was asked).
    #[serde(default)]
    pub identical_search: bool,
    pub solved: Vec<Solved>,
    /// Tactical suites that could not be run, and why.
    pub unsolved: Vec<(String, String)>,
    /// The subject's telemetry summed over the node suite.
    pub telemetry: Telemetry,
}

/// The searches of `reference` and `subject` on each position both
/// finished, in position order: (reference's, subject's).
fn finished_pairs<'a>(
    records: &'a [NodesRecord],
    reference: &str,
    subject: &str,
) -> Vec<(&'a NodesRecord, &'a NodesRecord)> {
    records
        .iter()
        .filter(|record| record.variant == subject && record.error.is_none())
        .filter_map(|record| {
            records
                .iter()
                .find(|base| base.variant == reference && base.position == record.position && base.error.is_none())
                .map(|base| (base, record))
        })
        .collect()
}

/// Per-position node counts of `reference` and `subject` over the positions
/// both finished, in position order.
pub fn node_pairs(records: &[NodesRecord], reference: &str, subject: &str) -> Vec<(u64, u64)> {
    finished_pairs(records, reference, subject).iter().map(|(base, own)| (base.nodes, own.nodes)).collect()
}

/// Whether `subject` searched as `reference` on every position both
/// finished, at least one: the same node count and the same best move.
pub fn identical_search(records: &[NodesRecord], reference: &str, subject: &str) -> bool {
    let pairs = finished_pairs(records, reference, subject);
    !pairs.is_empty() && pairs.iter().all(|(base, own)| base.nodes == own.nodes && base.best == own.best)
}

/// What a verdict says of a switch that changes no node (docs/verdicts.md,
/// "Identical searches"); of two identical searches, `IDENTICAL_SEARCH`.
pub const CHANGES_NO_NODE: &str =
    "changes no node here: a switch that is not read, or one that acts only beyond this depth";

impl Comparison {
    /// The comparison from the runs' records.
    pub fn measure(
        reference: &str,
        subject: &str,
        (counted_on, claimed_on): (NodeSetting, Option<NodeSetting>),
        nodes: &[NodesRecord],
        time_to_depth: Option<RatioEstimate>,
        tactics: &[TacticsOutcome],
    ) -> Comparison {
        let pairs = node_pairs(nodes, reference, subject);
        let mut telemetry = Telemetry::default();
        for record in nodes.iter().filter(|record| record.variant == subject && record.error.is_none()) {
            telemetry.add(&record.telemetry);
        }
        let mut solved = Vec::new();
        let mut unsolved = Vec::new();
        for outcome in tactics {
            match (&outcome.result, outcome.solved(reference, subject)) {
                (Err(why), _) => unsolved.push((outcome.suite.clone(), why.clone())),
                (Ok(_), Some(counts)) => solved.push(counts),
                (Ok(_), None) => {}
            }
        }
        Comparison {
            reference: reference.to_string(),
            subject: subject.to_string(),
            node_setting: counted_on.to_string(),
            counted_on: Some(counted_on),
            claimed_on,
            nodes: paired_ratio(pairs.iter().map(|&(a, b)| (a as f64, b as f64))),
            total_nodes: pairs.iter().fold((0, 0), |(a, b), (base, own)| (a + base, b + own)),
            positions: pairs.len(),
            failures: nodes
                .iter()
                .filter(|record| (record.variant == reference || record.variant == subject) && record.error.is_some())
                .count(),
            time_to_depth,
            identical_search: identical_search(nodes, reference, subject),
            solved,
            unsolved,
            telemetry,
        }
    }

    /// The line a verdict names an identical search with; `None` when the
    /// searches differ.
    pub fn identical_line(&self) -> Option<String> {
        self.identical_search.then(|| {
            format!(
                "**{IDENTICAL_SEARCH}**: `{}` searches as `{}` on all {} positions ({}: the same nodes and best \
                 move). `{}` {CHANGES_NO_NODE}. Its time to depth is noise: no direction is drawn from it.",
                self.subject, self.reference, self.positions, self.node_setting, self.subject
            )
        })
    }

    /// The time to depth for tables: the ratio, and `identical search` beside
    /// it where the searches are.
    pub fn time_to_depth_text(&self) -> String {
        match (self.time_to_depth, self.identical_search) {
            (None, _) => "-".to_string(),
            (Some(ratio), false) => ratio.ratio_text(),
            (Some(ratio), true) => format!("{} ({IDENTICAL_SEARCH}: noise)", ratio.ratio_text()),
        }
    }

    /// The evidence the claims of `subject` are judged on.
    pub fn evidence(&self) -> Evidence<'_> {
        Evidence {
            reference: Some(self.reference.as_str()),
            node_change: self.nodes.map(|ratio| (NodeChange::from_ratio(&ratio), self.node_setting.clone())),
            own_nodes: self.counted_on.clone().map(|setting| OwnNodes {
                total: self.total_nodes.1,
                positions: self.positions,
                setting,
            }),
            telemetry: Some(&self.telemetry),
            claimed_on: self.claimed_on.clone().map(Ok),
            solved: self.solved.clone(),
            unsolved: self.unsolved.clone(),
            games: &[],
        }
    }

    /// Every claim of `variant` with its judgement, in the order the variant keeps them.
    /// A claim scoped to other positions, depths, nodes or a chain span
    /// than this comparison's is left to `lab report`, which finds the runs
    /// of its scope.
    pub fn judgements(&self, variant: &Variant) -> Vec<(ScopedClaim, ClaimStanding)> {
        self.judgements_with_games(variant, &[])
    }

    /// [`Self::judgements`], with the games of the pair for a games claim
    /// (on any book, or on its own).
    pub fn judgements_with_games(&self, variant: &Variant, games: &[GameResult]) -> Vec<(ScopedClaim, ClaimStanding)> {
        let evidence = Evidence { games, ..self.evidence() };
        variant
            .plan()
            .claims
            .iter()
            .map(|claim| {
                let games_claim = matches!(claim.claim, Claim::Games(_));
                let judgement = if claim.scope == Scope::default() || games_claim {
                    claims::judge(variant, claim, &evidence)
                } else {
                    ClaimStanding::NotMeasured(format!(
                        "scoped{}: `lab report` judges it on the runs of its scope",
                        claim.scope.text()
                    ))
                };
                (claim.clone(), judgement)
            })
            .collect()
    }
}

/// What a verdict comes to for a script: `lab ab`'s and `lab chain`'s exit
/// status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// No claim ruled out and no games against it: each claim holds, is
    /// undecided or was not measured.
    Stands,
    /// A claim does not hold, or the games say a loss or no gain (an SPRT
    /// accepted H0, or the Elo interval lies below 0).
    Contradicted,
}

/// The exit status of a contradicted verdict: not 1 (an error) nor 2 (a
/// bad command line, as clap exits).
pub const CONTRADICTED_EXIT_STATUS: u8 = 3;

impl Standing {
    /// The standing of claims so judged and games that say `games_say`.
    pub fn of(judgements: &[(ScopedClaim, ClaimStanding)], games_say: Option<GamesSay>) -> Standing {
        let ruled_out = judgements.iter().any(|(_, judgement)| matches!(judgement, ClaimStanding::DoesNotHold(_)));
        let games_against = games_say.is_some_and(GamesSay::is_against);
        if ruled_out || games_against {
            Standing::Contradicted
        } else {
            Standing::Stands
        }
    }

    /// The worse of two standings: a chain is contradicted when one phase is.
    pub fn and(self, other: Standing) -> Standing {
        if self == Standing::Contradicted {
            self
        } else {
            other
        }
    }

    pub fn exit_code(self) -> std::process::ExitCode {
        match self {
            Standing::Stands => std::process::ExitCode::SUCCESS,
            Standing::Contradicted => std::process::ExitCode::from(CONTRADICTED_EXIT_STATUS),
        }
    }
}

/// The tactical suites `variant`'s claims name.
pub fn claimed_suites(variant: &Variant) -> Vec<String> {
    variant
        .plan()
        .claims
        .iter()
        .filter_map(|claim| match &claim.claim {
            Claim::SolvedNotBelowParent { suite } => Some(suite.clone()),
            _ => None,
        })
        .collect()
}

/// The line a verdict opens with when B is not A's direct child: how many
/// features lie between them, and which. `None` for a direct child.
pub fn distance_line(pair: Pair) -> Option<String> {
    let (a, b) = pair.names();
    // Another engine's variants differ by options, not features.
    if pair.against_parent() || pair.reference.external.is_some() || pair.subject.external.is_some() {
        return None;
    }
    let listed = pair.feature_difference();
    let count = listed.len();
    let parent =
        pair.subject.variant.file.extends.as_deref().map_or("no parent".to_string(), |parent| format!("`{parent}`"));
    Some(format!(
        "**`{b}` is not a child of `{a}`** (its parent is {parent}): {count} feature{} lie{} between them{}{}",
        if count == 1 { "" } else { "s" },
        if count == 1 { "s" } else { "" },
        if count == 0 { "" } else { ": " },
        listed.join(" ")
    ))
}

/// A judgement in a few words, for tables.
pub fn short(claim: &ScopedClaim, judgement: &ClaimStanding) -> String {
    format!("{}: {}", claim.key(), judgement.word())
}

/// The SPRT plan of `variant` as the verdict shows it.
pub fn sprt_plan_line(lab: &Lab, variant: &Variant) -> String {
    let file = lab.variant_file(variant.name());
    match &variant.plan().sprt {
        Some(plan) => format!(
            "`{file}`: bounds [{}, {}] (normalized Elo), tc {}, Hash {}",
            plan.bounds.0,
            plan.bounds.1,
            plan.tc,
            plan.hash_mb.map_or("not set (the lab's 16 MiB)".to_string(), |mb| format!("{mb} MiB"))
        ),
        None => format!("`{file}` has no `[sprt]`"),
    }
}

/// `+1` or `-2`: a solve count's change.
pub fn solved_change(solved: &Solved) -> String {
    format!("{:+}", solved.variant as i64 - solved.parent as i64)
}

/// Every claim of `variant` as a list, each with what was measured.
pub fn claims_list(out: &mut String, variant: &Variant, judgements: &[(ScopedClaim, ClaimStanding)]) {
    if judgements.is_empty() {
        writeln!(out, "- `{}` claims nothing (source: {}).", variant.name(), variant.file.source).unwrap();
    }
    for (claim, judgement) in judgements {
        writeln!(out, "- {} → {judgement}", claim.text()).unwrap();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lab() -> Lab {
        Lab::for_tests()
    }

    fn pair<'a>(lab: &'a Lab, a: &str, b: &str) -> Pair<'a> {
        Pair::of(lab, a, b).unwrap()
    }

    #[test]
    fn a_direct_child_needs_no_distance_line() {
        let lab = lab();
        assert_eq!(distance_line(pair(&lab, "p003-3", "razor-r1")), None);
        assert_eq!(
            distance_line(pair(&lab, "p003-3", "razor-r2")).unwrap(),
            "**`razor-r2` is not a child of `p003-3`** (its parent is `razor-r1`): 2 features lie between them: \
             +razor-r1 +razor-r2"
        );
        // Backwards, and sideways: what one has and the other lacks.
        assert_eq!(
            distance_line(pair(&lab, "razor-r1", "p003-3")).unwrap(),
            "**`p003-3` is not a child of `razor-r1`** (its parent is `p003-2`): 1 feature lies between them: \
             -razor-r1"
        );
        let sideways = distance_line(pair(&lab, "razor-r1", "razor-sf")).unwrap();
        assert!(sideways.ends_with("2 features lie between them: +razor-sf -razor-r1"), "{sideways}");
    }

    /// Where the nodes were counted and the claims are claimed: the
    /// verdict suite at depth 10 (here of 8 positions).
    fn verdict_at_10() -> (NodeSetting, Option<NodeSetting>) {
        let content = crate::measure::suites::SuiteContent { hash: "verdict".into(), positions: 8 };
        let setting = NodeSetting { suite: "verdict".into(), depth: 10, content: Some(content) };
        (setting.clone(), Some(setting))
    }

    fn nodes_record(variant: &str, position: usize, nodes: u64) -> NodesRecord {
        let mut telemetry = Telemetry::default();
        telemetry.counts.insert("pvs.zw".into(), 100);
        telemetry.counts.insert("pvs.re".into(), 5 * position as u64);
        NodesRecord {
            variant: variant.into(),
            position,
            id: format!("p{position}"),
            fen: String::new(),
            depth: 10,
            nodes,
            time_ms: 10,
            nps: 0,
            ebf: None,
            best: "e2e4".into(),
            score: None,
            telemetry,
            error: None,
        }
    }

    fn tactics_record(variant: &str, position: usize, solved: bool) -> TacticsRecord {
        TacticsRecord {
            variant: variant.into(),
            position,
            id: format!("t{position}"),
            played: String::new(),
            solved,
            nodes: 0,
            time_ms: 0,
            solution_nodes: None,
            solution_time_ms: None,
            error: None,
        }
    }

    #[test]
    fn a_comparison_judges_every_claim_of_the_variant() {
        let lab = lab();
        // razor-r2 claims similar nodes, razor.tactical% 10-20 and wac not below the parent.
        let variant = lab.variant("razor-r2").unwrap();
        // 1% more nodes on each of 8 positions, the fewest a node claim is judged on.
        let nodes: Vec<NodesRecord> = (0..8)
            .flat_map(|position| {
                let base = 1000 * (position as u64 + 1);
                [nodes_record("razor-r1", position, base), nodes_record("razor-r2", position, base + base / 100)]
            })
            .collect();
        let wac = |limit: &str, first: Option<usize>| TacticsOutcome {
            suite: "wac".into(),
            limit: limit.into(),
            first,
            result: Ok(TacticsData {
                suite: Suite {
                    name: "wac".into(),
                    positions: (0..2)
                        .map(|position| crate::measure::suites::SuitePosition {
                            id: format!("t{position}"),
                            fen: String::new(),
                            best: vec!["e2e4".into()],
                            avoid: Vec::new(),
                        })
                        .collect(),
                    skipped: Vec::new(),
                },
                records: vec![
                    tactics_record("razor-r1", 0, true),
                    tactics_record("razor-r1", 1, false),
                    tactics_record("razor-r2", 0, true),
                    tactics_record("razor-r2", 1, true),
                ],
                run_dir: "wac-run".into(),
            }),
        };
        let at_claim_budget = wac("nodes 50000", None);
        let comparison = Comparison::measure("razor-r1", "razor-r2", verdict_at_10(), &nodes, None, &[at_claim_budget]);
        assert_eq!(comparison.total_nodes, (36000, 36360));
        assert!((comparison.nodes.unwrap().percent() - 1.0).abs() < 1e-9);
        let solved = Solved { suite: "wac".into(), parent: 1, variant: 2, positions: 2, at_claim_budget: true };
        assert_eq!(comparison.solved, [solved.clone()]);
        let verdicts: Vec<String> =
            comparison.judgements(variant).iter().map(|(claim, judgement)| short(claim, judgement)).collect();
        assert_eq!(verdicts, ["nodes: holds", "razor.tactical%: not measured", "wac.solved: holds"]);
        // Fewer nodes, or part of the suite: the counts are shown, the claim is not judged.
        for elsewhere in [wac("nodes 1000", None), wac("nodes 50000", Some(2))] {
            let comparison = Comparison::measure("razor-r1", "razor-r2", verdict_at_10(), &nodes, None, &[elsewhere]);
            assert_eq!(comparison.solved, [Solved { at_claim_budget: false, ..solved.clone() }]);
            let judgements = comparison.judgements(variant);
            let wac = judgements.iter().find(|(claim, _)| claim.key() == "wac.solved").unwrap();
            assert_eq!(wac.1.word(), "not measured");
        }
        // A suite that could not run says why in the claim.
        let missing = TacticsOutcome {
            suite: "wac".into(),
            limit: "nodes 1000".into(),
            first: None,
            result: Err("no wac.epd".into()),
        };
        let comparison = Comparison::measure("razor-r1", "razor-r2", verdict_at_10(), &nodes, None, &[missing]);
        let judgements = comparison.judgements(variant);
        let wac = judgements.iter().find(|(claim, _)| claim.key() == "wac.solved").unwrap();
        assert_eq!(wac.1, ClaimStanding::NotMeasured("no wac.epd".into()));
    }

    #[test]
    fn the_plan_line_names_bounds_tc_and_hash() {
        let lab = lab();
        assert_eq!(
            sprt_plan_line(&lab, lab.variant("razor-r1").unwrap()),
            "`variants/razor-r1.toml`: bounds [0, 5] (normalized Elo), tc 10+0.1, Hash 8 MiB"
        );
        assert_eq!(sprt_plan_line(&lab, lab.variant("probcut").unwrap()), "`variants/probcut.toml` has no `[sprt]`");
        assert_eq!(claimed_suites(lab.variant("razor-r3").unwrap()), ["zugzwang"]);
    }
}
