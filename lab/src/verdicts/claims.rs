//! A plan's claims about a variant set against what the lab measured: each
//! reads **holds**, **does not hold**, **undecided** or **not measured (why)**.
//!
//! A node claim is judged on the geometric mean of the per-position node
//! ratios against the parent and its 95% interval (`crate::measure::ratio`), the
//! claim read as a range of changes (`fewer` is below 0, `more` above 0,
//! `similar` within ±2%):
//! - **holds**: the estimate lies in the claimed range;
//! - **does not hold**: the estimate lies outside it and so does the whole
//!   interval (the measurement rules the claim out);
//! - **undecided**: the estimate lies outside the range but the interval
//!   reaches into it: the claim is neither supported nor ruled out, and
//!   more positions would decide.
//!
//! A node change, a rate or a count per iteration on fewer than
//! [`MIN_POSITIONS`] positions neither holds nor fails: it is undecided.
//!
//! A claim is judged only on its scope ([`grammar::Scope`]): the suite
//! (known by its positions, not its file's name) and depth it names, else
//! the verdict suite at depth 10; only the main-search nodes at the depths
//! or below the moves it names; against the variant a chain span starts
//! from instead of the parent; a games claim on games at its time control.
//! Counts taken elsewhere make it **not measured**, naming the command that
//! measures it.

use std::fmt;

use games::matches::clock::TimeControl;
use prunelab::variants::Variant;

use crate::lab::Lab;
use crate::measure::nodes::ITERATIONS;
use crate::measure::ratio::signed_percent;
use crate::measure::suites::{self, Suite, SuiteContent};
use crate::measure::telemetry::Telemetry;
use crate::variants::grammar::{self, Claim, Direction, GamesClaim, Planned, Scope, ScopedClaim, SIMILAR_NODES_PCT};
use crate::verdicts::evidence::{GameResult, GamesSay};

/// What a claim came to.
#[derive(Clone, Debug, PartialEq)]
pub enum ClaimStanding {
    /// Holds; what was measured.
    Holds(String),
    /// Does not hold; what was measured.
    DoesNotHold(String),
    /// The measurement neither supports nor rules out the claim; what was measured.
    Undecided(String),
    /// Why it could not be judged.
    NotMeasured(String),
}

impl ClaimStanding {
    pub fn word(&self) -> &'static str {
        match self {
            ClaimStanding::Holds(_) => "holds",
            ClaimStanding::DoesNotHold(_) => "does not hold",
            ClaimStanding::Undecided(_) => "undecided",
            ClaimStanding::NotMeasured(_) => "not measured",
        }
    }

    /// What was measured, or why nothing was.
    pub fn detail(&self) -> &str {
        match self {
            ClaimStanding::Holds(measured)
            | ClaimStanding::DoesNotHold(measured)
            | ClaimStanding::Undecided(measured) => measured,
            ClaimStanding::NotMeasured(why) => why,
        }
    }
}

impl fmt::Display for ClaimStanding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClaimStanding::Holds(measured) => write!(f, "**holds** ({measured})"),
            ClaimStanding::DoesNotHold(measured) => write!(f, "**does not hold** ({measured})"),
            ClaimStanding::Undecided(measured) => write!(f, "**undecided** ({measured})"),
            ClaimStanding::NotMeasured(why) => write!(f, "**not measured** ({why})"),
        }
    }
}

/// A node change against the parent: the point estimate (the geometric
/// mean over positions) and, when known, its 95% interval, in percent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeChange {
    pub percent: f64,
    pub interval: Option<(f64, f64)>,
    /// How many positions it is over.
    pub positions: usize,
}

impl NodeChange {
    pub fn from_ratio(ratio: &crate::measure::ratio::RatioEstimate) -> NodeChange {
        NodeChange { percent: ratio.percent(), interval: ratio.percent_interval(), positions: ratio.positions }
    }
}

impl fmt::Display for NodeChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", signed_percent(self.percent))?;
        if let Some((low, high)) = self.interval {
            write!(f, " (95%: {} to {})", signed_percent(low), signed_percent(high))?;
        }
        Ok(())
    }
}

/// The range of node changes, in percent, that a node claim allows;
/// `None` for a claim of another kind.
pub fn claimed_range(claim: &Claim) -> Option<(f64, f64)> {
    Some(match claim {
        Claim::NodeChange { low, high } => (*low, *high),
        Claim::NodeDirection(Direction::Fewer) => (f64::NEG_INFINITY, 0.0),
        Claim::NodeDirection(Direction::More) => (0.0, f64::INFINITY),
        Claim::NodeDirection(Direction::Similar) => (-SIMILAR_NODES_PCT, SIMILAR_NODES_PCT),
        Claim::NodeDirection(Direction::Same) => (0.0, 0.0),
        _ => return None,
    })
}

/// A node claim on a measured change, with its uncertainty: it holds when
/// the whole 95% interval lies in the claimed range, does not hold when the
/// whole interval misses it, and is undecided when the interval reaches
/// over an edge of the range (more positions would decide). Without an
/// interval the estimate alone decides.
fn judge_node_change(claim: &Claim, change: &NodeChange, on: &str) -> ClaimStanding {
    let measured = format!("{change} on {on}");
    if let Claim::NodeDirection(Direction::Same) = claim {
        // The same tree: no position moved, so neither does the interval.
        // A tree that changed anywhere is not the same tree, whatever the mean.
        let same = change.percent == 0.0 && change.interval.is_none_or(|interval| interval == (0.0, 0.0));
        return if same { ClaimStanding::Holds(measured) } else { ClaimStanding::DoesNotHold(measured) };
    }
    let (low, high) = claimed_range(claim).expect("only node claims have a range of node changes");
    // `fewer` and `more` exclude 0 itself: an interval that ends at 0 does
    // not reach them.
    let claimed = |value: f64| match claim {
        Claim::NodeDirection(direction @ (Direction::Fewer | Direction::More)) => direction.holds_for(value),
        _ => within(value, low, high),
    };
    let (interval_low, interval_high) = change.interval.unwrap_or((change.percent, change.percent));
    // Every claimed range is an interval, so both ends in it put all of it in.
    if claimed(interval_low) && claimed(interval_high) {
        return ClaimStanding::Holds(measured);
    }
    let reaches = match claim {
        Claim::NodeDirection(Direction::Fewer) => interval_low < 0.0,
        Claim::NodeDirection(Direction::More) => interval_high > 0.0,
        _ => interval_high >= low && interval_low <= high,
    };
    if reaches {
        ClaimStanding::Undecided(format!(
            "{measured}: the interval reaches over the claim's edge; more positions would decide"
        ))
    } else {
        ClaimStanding::DoesNotHold(measured)
    }
}

/// Solve counts on a suite: the parent's and the variant's, of `positions`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Solved {
    pub suite: String,
    pub parent: usize,
    pub variant: usize,
    pub positions: usize,
    /// Counted where a solved claim is judged: the whole suite at the
    /// claim's budget (false in records kept before the lab asked).
    #[serde(default)]
    pub at_claim_budget: bool,
}

/// Where node counts were taken: the suite (its name and what it holds)
/// and the depth.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NodeSetting {
    pub suite: String,
    pub depth: u32,
    /// The suite's positions (`None` in records kept before the lab
    /// compared suites by them).
    #[serde(default)]
    pub content: Option<SuiteContent>,
}

impl NodeSetting {
    /// `suite` searched to `depth`.
    pub fn of(suite: &Suite, depth: u32) -> NodeSetting {
        NodeSetting { suite: suites::name(&suite.name), depth, content: Some(suite.content()) }
    }

    /// The suite and depth `scope` claims: its own, else the verdict suite
    /// at depth 10, as the lab reads that suite now.
    pub fn claimed(lab: &Lab, scope: &Scope) -> Result<NodeSetting, String> {
        let spec = scope.suite.as_deref().unwrap_or(grammar::VERDICT_SUITE);
        let suite = suites::load(lab, spec).map_err(|error| format!("{error:#}"))?;
        Ok(NodeSetting { suite: suites::name(spec), ..NodeSetting::of(&suite, scope.search_depth()) })
    }

    /// Whether counts taken here measure a claim on `claimed`: the same
    /// depth and the same positions, whatever the suites' names.
    pub fn measures(&self, claimed: &NodeSetting) -> bool {
        self.depth == claimed.depth && self.content.is_some() && self.content == claimed.content
    }
}

impl fmt::Display for NodeSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at depth {}", self.suite, self.depth)
    }
}

/// The positions a claim on a sample of positions (a node change, a rate,
/// a count per iteration) needs to hold or to fail: with fewer, an
/// interval over them means little, and one position has none.
pub const MIN_POSITIONS: usize = 8;

/// The variant's own node counts on a suite: their sum, over how many
/// positions, and where (the suite and depth).
#[derive(Clone, Debug, PartialEq)]
pub struct OwnNodes {
    pub total: u64,
    pub positions: usize,
    pub setting: NodeSetting,
}

/// What a run measured for a variant, as its claims need it.
#[derive(Clone, Debug, Default)]
pub struct Evidence<'a> {
    /// The variant the run measured it against; claims are against the
    /// parent, so the node change counts only when this is the parent.
    pub reference: Option<&'a str>,
    /// The node change against `reference`, and on what (the suite and depth).
    pub node_change: Option<(NodeChange, String)>,
    /// The variant's own node counts over the suite: where they were taken
    /// and over how many positions, which the node, telemetry and count
    /// claims need.
    pub own_nodes: Option<OwnNodes>,
    /// The variant's telemetry over the suite.
    pub telemetry: Option<&'a Telemetry>,
    /// Where the claim is claimed ([`NodeSetting::claimed`]), or why its
    /// suite could not be read; `None`: not known, so no node, telemetry or
    /// count claim is judged.
    pub claimed_on: Option<Result<NodeSetting, String>>,
    /// Solve counts of the variant and `reference` on tactical suites.
    pub solved: Vec<Solved>,
    /// Tactical suites that could not be run, and why (say a missing file).
    pub unsolved: Vec<(String, String)>,
    /// Games of the variant against its parent, most games first.
    pub games: &'a [GameResult],
}

/// The `lab nodes` options that measure on `scope`'s suite and depth.
fn scope_options(scope: &Scope) -> String {
    let mut options = String::new();
    if let Some(suite) = &scope.suite {
        options.push_str(&format!(" --suite {suite}"));
    }
    if let Some(depth) = scope.depth {
        options.push_str(&format!(" --depth {depth}"));
    }
    options
}

/// The time control a games claim's games are at: its scope's, else the
/// variant's `[sprt]` tc, else the match's default.
fn games_tc(variant: &Variant, scope: &Scope) -> Result<TimeControl, String> {
    let plan_tc = variant.plan().sprt.map(|plan| plan.tc);
    let tc = scope.tc.clone().or(plan_tc).unwrap_or_else(|| grammar::DEFAULT_TC.to_string());
    tc.parse().map_err(|error| format!("the claim's time control: {error}"))
}

/// A judgement on `positions` positions: one that holds or fails on fewer
/// than [`MIN_POSITIONS`] is undecided instead.
fn on_enough_positions(judgement: ClaimStanding, positions: usize) -> ClaimStanding {
    match judgement {
        ClaimStanding::Holds(measured) | ClaimStanding::DoesNotHold(measured) if positions < MIN_POSITIONS => {
            ClaimStanding::Undecided(format!(
                "{measured}: {positions} position{}, fewer than the {MIN_POSITIONS} a claim needs to hold or fail",
                if positions == 1 { "" } else { "s" }
            ))
        }
        judgement => judgement,
    }
}

fn within(value: f64, low: f64, high: f64) -> bool {
    value >= low && value <= high
}

/// Judges one claim of `variant` on `evidence`: a node, telemetry or count
/// claim only on counts of its own suite and depth (`evidence.claimed_on`).
pub fn judge(variant: &Variant, scoped: &ScopedClaim, evidence: &Evidence) -> ClaimStanding {
    let claim = &scoped.claim;
    // What the claim is against: its chain span's start, or the parent.
    let parent = scoped.scope.from.as_deref().or(variant.file.extends.as_deref());
    let command = match &scoped.scope.from {
        Some(start) => format!("lab nodes {start} {}", variant.name()),
        None => format!("lab ab {}", variant.name()),
    };
    let against_parent = parent.is_some() && evidence.reference == parent;
    let not_against_parent = || {
        ClaimStanding::NotMeasured(match (parent, evidence.reference) {
            (None, _) => "the variant has no parent to measure it against".to_string(),
            (Some(parent), Some(reference)) => {
                format!("claimed against `{parent}`, measured against `{reference}`: run `{command}`")
            }
            (Some(parent), None) => format!("claimed against `{parent}`: run `{command}`"),
        })
    };
    // A node change, a rate or a count per iteration measured on other
    // positions or at another depth is not the one claimed: trees of other
    // positions and depths prune differently. `None` when the counts are of
    // the claim's own suite and depth.
    let off_scope = |own: &OwnNodes| -> Option<ClaimStanding> {
        let claimed = match &evidence.claimed_on {
            Some(Ok(claimed)) => claimed,
            Some(Err(why)) => {
                return Some(ClaimStanding::NotMeasured(format!("the claim's suite cannot be read: {why}")))
            }
            None => {
                return Some(ClaimStanding::NotMeasured(format!(
                    "measured on {}, where the claim's suite is not known: run `{command}{}`",
                    own.setting,
                    scope_options(&scoped.scope)
                )))
            }
        };
        if own.setting.measures(claimed) {
            return None;
        }
        if own.setting.content.is_none() {
            return Some(ClaimStanding::NotMeasured(format!(
                "measured on {} before the lab compared suites by their positions: run `{command}{}`",
                own.setting,
                scope_options(&scoped.scope)
            )));
        }
        let same_positions = own.setting.content == claimed.content;
        let (claimed_text, scope) = if same_positions {
            (format!("at depth {}", claimed.depth), Scope { depth: Some(claimed.depth), ..scoped.scope.clone() })
        } else {
            let suite = scoped.scope.suite.clone().unwrap_or_else(|| grammar::VERDICT_SUITE.to_string());
            (format!("on {claimed}"), Scope { suite: Some(suite), depth: Some(claimed.depth), ..scoped.scope.clone() })
        };
        Some(ClaimStanding::NotMeasured(format!(
            "measured on {}, claimed {claimed_text}: run `{command}{}`",
            own.setting,
            scope_options(&scope)
        )))
    };
    let no_counts = || {
        ClaimStanding::NotMeasured(format!(
            "no node counts of it{}: run `{command}{}`",
            scoped.scope.text(),
            scope_options(&scoped.scope)
        ))
    };
    // The variant's own counts on the claim's scope, or why there are none.
    let on_scope = || -> Result<&OwnNodes, ClaimStanding> {
        let own = evidence.own_nodes.as_ref().ok_or_else(no_counts)?;
        match off_scope(own) {
            Some(elsewhere) => Err(elsewhere),
            None => Ok(own),
        }
    };
    match claim {
        Claim::NodeChange { .. } | Claim::NodeDirection(_) => {
            if !against_parent {
                return not_against_parent();
            }
            if let Some(elsewhere) = evidence.own_nodes.as_ref().and_then(off_scope) {
                return elsewhere;
            }
            let Some((change, on)) = &evidence.node_change else {
                return ClaimStanding::NotMeasured(format!(
                    "no node counts of it and `{}`{}: run `{command}`{}",
                    parent.unwrap_or("-"),
                    scoped.scope.text(),
                    scope_options(&scoped.scope)
                ));
            };
            if let Err(elsewhere) = on_scope() {
                return elsewhere;
            }
            on_enough_positions(judge_node_change(claim, change, on), change.positions)
        }
        Claim::Rate { line, key, low, high } => {
            let own = match on_scope() {
                Ok(own) => own,
                Err(elsewhere) => return elsewhere,
            };
            let Some(telemetry) = evidence.telemetry else {
                return ClaimStanding::NotMeasured("no telemetry in this run".to_string());
            };
            let name = claim.key();
            let judgement = match telemetry.rate(&name) {
                None => ClaimStanding::NotMeasured(format!("the engine printed no `{line}:` line with `{key}`")),
                Some(rate) if within(rate, *low, *high) => ClaimStanding::Holds(format!("{rate:.1}%")),
                Some(rate) => ClaimStanding::DoesNotHold(format!("{rate:.1}%")),
            };
            on_enough_positions(judgement, own.positions)
        }
        Claim::PerIteration { line, key, low, high } => {
            let own = match on_scope() {
                Ok(own) => own,
                Err(elsewhere) => return elsewhere,
            };
            let Some(telemetry) = evidence.telemetry else {
                return ClaimStanding::NotMeasured("no telemetry in this run".to_string());
            };
            let Some(count) = telemetry.count(&format!("{line}.{key}")) else {
                return ClaimStanding::NotMeasured(format!("the engine printed no `{line}:` line with `{key}`"));
            };
            let judgement = match telemetry.count(ITERATIONS) {
                Some(iterations) if iterations > 0 => {
                    let average = count as f64 / iterations as f64;
                    let measured = format!("{average:.2}: {count} over {iterations} iterations");
                    if within(average, *low, *high) {
                        ClaimStanding::Holds(measured)
                    } else {
                        ClaimStanding::DoesNotHold(measured)
                    }
                }
                _ => ClaimStanding::NotMeasured("the run kept no iteration counts: run it again".to_string()),
            };
            on_enough_positions(judgement, own.positions)
        }
        Claim::NodesPerPosition { low, high } => {
            let Some(own) = evidence.own_nodes.as_ref().filter(|own| own.positions > 0) else {
                return ClaimStanding::NotMeasured(format!(
                    "no node counts of it{}: run `lab nodes {}{}`",
                    scoped.scope.text(),
                    variant.name(),
                    scope_options(&scoped.scope)
                ));
            };
            // A count is a count of one suite at one depth: elsewhere it
            // says nothing of the claim.
            let claimed = match &evidence.claimed_on {
                Some(Ok(claimed)) if own.setting.measures(claimed) => claimed,
                Some(Err(why)) => {
                    return ClaimStanding::NotMeasured(format!("the claim's suite cannot be read: {why}"))
                }
                claimed => {
                    let claimed_text = match claimed {
                        Some(Ok(claimed)) => format!("claimed on {claimed}"),
                        _ => "where the claim's suite is not known".to_string(),
                    };
                    return ClaimStanding::NotMeasured(format!(
                        "measured on {}, {claimed_text}: run `lab nodes {} --suite {} --depth {}`",
                        own.setting,
                        variant.name(),
                        scoped.scope.suite.as_deref().unwrap_or(grammar::VERDICT_SUITE),
                        scoped.scope.search_depth()
                    ));
                }
            };
            // Searches to a fixed depth from `ucinewgame` are exact: no
            // interval, but a count per position of a suite is of all of it.
            let mean = own.total as f64 / own.positions as f64;
            let positions =
                if own.positions == 1 { "1 position".to_string() } else { format!("{} positions", own.positions) };
            let measured = format!("{mean:.0} on {}, {positions}", own.setting);
            let whole_suite = claimed.content.as_ref().map_or(0, |content| content.positions);
            if own.positions < whole_suite {
                ClaimStanding::Undecided(format!(
                    "{measured} of {whole_suite}: a count per position needs every position of its suite"
                ))
            } else if within(mean, *low, *high) {
                ClaimStanding::Holds(measured)
            } else {
                ClaimStanding::DoesNotHold(measured)
            }
        }
        Claim::Games(claimed) => {
            let book = scoped.scope.book.as_deref().map(crate::measure::suites::name);
            let on_book = |result: &&GameResult| {
                book.as_ref()
                    .is_none_or(|book| result.book.as_deref().map(crate::measure::suites::name).as_ref() == Some(book))
            };
            // Games at another time control (or at fixed nodes, unless the
            // claim says so) are other games: Elo moves with the clock.
            let tc = games_tc(variant, &scoped.scope);
            let at_tc = |result: &&GameResult| result.tc.parse::<TimeControl>().ok().as_ref() == tc.as_ref().ok();
            // The largest result on the book and at the tc decides, as in a verdict's games.
            let Some(result) = evidence.games.iter().filter(on_book).filter(at_tc).max_by_key(|result| result.games())
            else {
                let parent = parent.unwrap_or("-");
                let book_option = scoped.scope.book.as_ref().map_or(String::new(), |book| format!(" --book {book}"));
                let (at, tc_option) = match &tc {
                    Ok(tc) if tc.to_string() == grammar::DEFAULT_TC => (format!(" at {tc}"), String::new()),
                    Ok(tc) => (format!(" at {tc}"), format!(" --tc {tc}")),
                    Err(why) => return ClaimStanding::NotMeasured(why.clone()),
                };
                return ClaimStanding::NotMeasured(format!(
                    "no games of it against `{parent}`{}{at}: run `lab match {} {parent}{book_option} --sprt 0 5{tc_option}`",
                    scoped.scope.place_text(),
                    variant.name()
                ));
            };
            let says = result.says();
            let measured = format!("{}: {}", result.line(), says.words());
            match (claimed, says) {
                (_, GamesSay::Gain) | (GamesClaim::NoLoss, GamesSay::NoLoss) => ClaimStanding::Holds(measured),
                (_, GamesSay::Loss) | (GamesClaim::Gain, GamesSay::NoGain) => ClaimStanding::DoesNotHold(measured),
                _ => ClaimStanding::Undecided(format!("{measured}; more games would decide")),
            }
        }
        Claim::SolvedNotBelowParent { suite } => {
            if !against_parent {
                return not_against_parent();
            }
            if let Some((_, why)) = evidence.unsolved.iter().find(|(name, _)| name == suite) {
                return ClaimStanding::NotMeasured(why.clone());
            }
            match evidence.solved.iter().find(|solved| &solved.suite == suite) {
                None => ClaimStanding::NotMeasured(format!(
                    "no {suite} run with it and its parent: run `lab ab {}`",
                    variant.name()
                )),
                Some(solved) => {
                    let measured = format!("{} against {} of {}", solved.variant, solved.parent, solved.positions);
                    if !solved.at_claim_budget {
                        return ClaimStanding::NotMeasured(format!(
                            "{measured} off the claim's scope: it is judged over the whole suite at {} \
                             (`lab ab`'s default --tactics-nodes, without --tactics-first)",
                            grammar::claim_tactics_limit()
                        ));
                    }
                    if solved.variant >= solved.parent {
                        ClaimStanding::Holds(measured)
                    } else {
                        ClaimStanding::DoesNotHold(measured)
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use prunelab::variants::{resolve, VariantFile};

    use super::*;

    /// A child of `parent` with the feature `lmp`: what a claim is judged
    /// for (the claim itself is `judge`'s argument).
    fn variant() -> Variant {
        let file = |name: &str, extends: Option<&str>| VariantFile {
            name: name.into(),
            description: String::new(),
            extends: extends.map(Into::into),
            features: if extends.is_some() { vec!["lmp".into()] } else { Vec::new() },
            source: String::new(),
            tunables: Vec::new(),
            sections: Vec::new(),
        };
        let variants = resolve(vec![file("parent", None), file("child", Some("parent"))]).unwrap();
        variants.into_iter().find(|variant| variant.name() == "child").unwrap()
    }

    /// `suite` at `depth`, a suite of `positions` positions known by its name.
    fn setting(suite: &str, depth: u32, positions: usize) -> NodeSetting {
        NodeSetting { suite: suite.into(), depth, content: Some(SuiteContent { hash: suite.into(), positions }) }
    }

    /// The verdict suite at depth 10, its 54 positions.
    fn verdict_at_10() -> NodeSetting {
        setting("verdict", 10, 54)
    }

    /// Counts taken at `on` over `positions` positions, for claims claimed
    /// on the verdict suite at depth 10.
    fn counted(on: NodeSetting, positions: usize) -> Evidence<'static> {
        Evidence {
            own_nodes: Some(OwnNodes { total: 1000 * positions as u64, positions, setting: on }),
            claimed_on: Some(Ok(verdict_at_10())),
            ..Default::default()
        }
    }

    #[test]
    fn node_claims_hold_only_against_the_parent() {
        let claim = Claim::NodeChange { low: -5.0, high: -3.0 };
        let child = variant();
        let change = NodeChange { percent: -4.0, interval: Some((-4.5, -3.5)), positions: 54 };
        let mut evidence = Evidence {
            reference: Some("parent"),
            node_change: Some((change, "seeds".into())),
            ..counted(verdict_at_10(), 54)
        };
        let verdict = judge(&child, &claim.clone().into(), &evidence);
        assert_eq!(verdict.to_string(), "**holds** (-4.0% (95%: -4.5% to -3.5%) on seeds)");
        evidence.reference = Some("baseline");
        let verdict = judge(&child, &claim.clone().into(), &evidence);
        assert_eq!(verdict.word(), "not measured");
        assert!(verdict.to_string().contains("lab ab child"), "{verdict}");
        // A chain span's claim is against the span's start, not the parent.
        let span = ScopedClaim { claim, scope: grammar::Scope { from: Some("baseline".into()), ..Default::default() } };
        assert_eq!(judge(&child, &span, &evidence).word(), "holds");
        evidence.reference = Some("parent");
        assert!(judge(&child, &span, &evidence).to_string().contains("lab nodes baseline child"));
    }

    /// The claim `claim` on a change of `percent` with `interval`.
    fn judged(claim: Claim, percent: f64, interval: Option<(f64, f64)>) -> &'static str {
        let child = variant();
        let change = NodeChange { percent, interval, positions: 54 };
        let evidence = Evidence {
            reference: Some("parent"),
            node_change: Some((change, "verdict".into())),
            ..counted(verdict_at_10(), 54)
        };
        judge(&child, &claim.into(), &evidence).word()
    }

    #[test]
    fn node_and_telemetry_claims_are_judged_only_on_their_suite_and_depth() {
        let child = variant();
        let telemetry = Telemetry::parse(&["razor: att=200 cut=10 cut%=5.0%".to_string()]);
        let change = |positions| NodeChange { percent: -1.0, interval: None, positions };
        let nodes_pct = ScopedClaim::from(Claim::NodeChange { low: -5.0, high: -3.0 });
        let cut = ScopedClaim::from(Claim::Rate { line: "razor".into(), key: "cut".into(), low: 5.0, high: 10.0 });
        let on = |setting: NodeSetting, positions| Evidence {
            reference: Some("parent"),
            node_change: Some((change(positions), setting.to_string())),
            telemetry: Some(&telemetry),
            ..counted(setting, positions)
        };
        // One position of another suite: neither holds nor fails.
        let startpos = on(setting("startpos", 10, 1), 1);
        let elsewhere = "measured on startpos at depth 10, claimed on verdict at depth 10: \
                         run `lab ab child --suite verdict --depth 10`";
        assert_eq!(judge(&child, &nodes_pct, &startpos).to_string(), format!("**not measured** ({elsewhere})"));
        assert_eq!(judge(&child, &cut, &startpos).to_string(), format!("**not measured** ({elsewhere})"));
        // A suite is its positions, not its file's name: another
        // `verdict.epd` is not the verdict suite.
        let named_verdict =
            NodeSetting { content: Some(SuiteContent { hash: "another".into(), positions: 54 }), ..verdict_at_10() };
        assert_eq!(
            judge(&child, &nodes_pct, &on(named_verdict, 54)).to_string(),
            "**not measured** (measured on verdict at depth 10, claimed on verdict at depth 10: \
             run `lab ab child --suite verdict --depth 10`)"
        );
        // A claim whose suite cannot be read is not measured, and says why.
        let unreadable = Evidence { claimed_on: Some(Err("no verdict.epd".into())), ..on(verdict_at_10(), 54) };
        assert_eq!(
            judge(&child, &nodes_pct, &unreadable).to_string(),
            "**not measured** (the claim's suite cannot be read: no verdict.epd)"
        );
        // On the claim's own suite and depth, the same numbers are judged.
        assert_eq!(judge(&child, &nodes_pct, &on(verdict_at_10(), 54)).word(), "does not hold");
        assert_eq!(judge(&child, &cut, &on(verdict_at_10(), 54)).to_string(), "**holds** (5.0%)");
    }

    #[test]
    fn a_claim_on_fewer_than_8_positions_neither_holds_nor_fails() {
        let child = variant();
        let telemetry = Telemetry::parse(&["razor: att=200 cut=10 cut%=5.0%".to_string()]);
        let nodes_pct = ScopedClaim::from(Claim::NodeChange { low: -5.0, high: -3.0 });
        let cut = ScopedClaim::from(Claim::Rate { line: "razor".into(), key: "cut".into(), low: 5.0, high: 10.0 });
        // Of the verdict suite's 54 positions, only `positions` were searched by both.
        let finished = |positions| {
            let change = NodeChange { percent: -1.0, interval: Some((-2.0, -0.5)), positions };
            Evidence {
                reference: Some("parent"),
                node_change: Some((change, "verdict at depth 10".into())),
                telemetry: Some(&telemetry),
                ..counted(verdict_at_10(), positions)
            }
        };
        assert_eq!(
            judge(&child, &nodes_pct, &finished(7)).to_string(),
            "**undecided** (-1.0% (95%: -2.0% to -0.5%) on verdict at depth 10: 7 positions, fewer than the 8 a \
             claim needs to hold or fail)"
        );
        assert_eq!(
            judge(&child, &cut, &finished(1)).to_string(),
            "**undecided** (5.0%: 1 position, fewer than the 8 a claim needs to hold or fail)"
        );
        assert_eq!(judge(&child, &nodes_pct, &finished(MIN_POSITIONS)).word(), "does not hold");
        assert_eq!(judge(&child, &cut, &finished(MIN_POSITIONS)).word(), "holds");
        // A count per position is of every position of its suite.
        let count = ScopedClaim::from(Claim::NodesPerPosition { low: 0.0, high: 100000.0 });
        assert_eq!(
            judge(&child, &count, &finished(53)).to_string(),
            "**undecided** (1000 on verdict at depth 10, 53 positions of 54: a count per position needs every \
             position of its suite)"
        );
    }

    #[test]
    fn the_whole_interval_decides() {
        let range = || Claim::NodeChange { low: -5.0, high: -3.0 };
        assert_eq!(judged(range(), -4.0, Some((-4.5, -3.5))), "holds");
        assert_eq!(judged(range(), -4.0, None), "holds");
        // The estimate in the range is not enough when the interval leaves it.
        assert_eq!(judged(range(), -4.0, Some((-6.0, -2.0))), "undecided");
        // The estimate misses; the interval reaches the range, or does not.
        assert_eq!(judged(range(), -1.0, Some((-3.5, 1.0))), "undecided");
        assert_eq!(judged(range(), -1.0, Some((-2.9, 1.0))), "does not hold");
        assert_eq!(judged(range(), -7.0, Some((-9.0, -5.0))), "undecided");
        assert_eq!(judged(range(), -7.0, Some((-9.0, -5.1))), "does not hold");
        assert_eq!(judged(range(), -1.0, None), "does not hold");
        let fewer = || Claim::NodeDirection(Direction::Fewer);
        assert_eq!(judged(fewer(), -3.0, Some((-5.0, -1.0))), "holds");
        assert_eq!(judged(fewer(), -0.5, Some((-2.0, 1.0))), "undecided");
        assert_eq!(judged(fewer(), 0.5, Some((-1.0, 2.0))), "undecided");
        assert_eq!(judged(fewer(), 0.5, Some((0.1, 2.0))), "does not hold");
        // An interval that ends at 0 does not reach below it.
        assert_eq!(judged(fewer(), -1.0, Some((-2.0, 0.0))), "undecided");
        // The same search: no change at all is not fewer nodes.
        assert_eq!(judged(fewer(), 0.0, Some((0.0, 0.0))), "does not hold");
        assert_eq!(judged(Claim::NodeDirection(Direction::More), 0.0, Some((0.0, 0.0))), "does not hold");
        let more = || Claim::NodeDirection(Direction::More);
        assert_eq!(judged(more(), -3.0, Some((-4.0, -2.0))), "does not hold");
        assert_eq!(judged(more(), 3.0, Some((2.0, 4.0))), "holds");
        let similar = || Claim::NodeDirection(Direction::Similar);
        assert_eq!(judged(similar(), 0.5, Some((-1.0, 1.5))), "holds");
        assert_eq!(judged(similar(), 1.9, Some((-1.0, 4.0))), "undecided");
        assert_eq!(judged(similar(), 2.5, Some((1.5, 4.0))), "undecided");
        assert_eq!(judged(similar(), 2.5, Some((2.1, 4.0))), "does not hold");
        let same = || Claim::NodeDirection(Direction::Same);
        assert_eq!(judged(same(), 0.0, Some((0.0, 0.0))), "holds");
        assert_eq!(judged(same(), 0.0, Some((-0.2, 0.3))), "does not hold");
        assert_eq!(judged(same(), 0.1, Some((-0.1, 0.3))), "does not hold");
    }

    #[test]
    fn solved_claims_compare_with_the_parent() {
        let claim = Claim::SolvedNotBelowParent { suite: "zugzwang".into() };
        let child = variant();
        let solved =
            |variant| Solved { suite: "zugzwang".into(), parent: 20, variant, positions: 30, at_claim_budget: true };
        let claim = ScopedClaim::from(claim);
        let evidence = Evidence { reference: Some("parent"), solved: vec![solved(20)], ..Default::default() };
        assert_eq!(judge(&child, &claim, &evidence).word(), "holds");
        let evidence = Evidence { reference: Some("parent"), solved: vec![solved(19)], ..Default::default() };
        assert_eq!(judge(&child, &claim, &evidence).word(), "does not hold");
        // Counted at another budget or on part of the suite: not judged.
        let elsewhere = Solved { at_claim_budget: false, ..solved(19) };
        let evidence = Evidence { reference: Some("parent"), solved: vec![elsewhere], ..Default::default() };
        assert_eq!(
            judge(&child, &claim, &evidence).to_string(),
            "**not measured** (19 against 20 of 30 off the claim's scope: it is judged over the whole suite at \
             nodes 50000 (`lab ab`'s default --tactics-nodes, without --tactics-first))"
        );
        let evidence = Evidence { reference: Some("parent"), ..Default::default() };
        assert_eq!(
            judge(&child, &claim, &evidence).to_string(),
            "**not measured** (no zugzwang run with it and its parent: run `lab ab child`)"
        );
        let missing = ("zugzwang".to_string(), "suite `zugzwang`: zugts.epd does not exist".to_string());
        let evidence = Evidence { reference: Some("parent"), unsolved: vec![missing], ..Default::default() };
        assert_eq!(
            judge(&child, &claim, &evidence).to_string(),
            "**not measured** (suite `zugzwang`: zugts.epd does not exist)"
        );
    }

    #[test]
    fn counts_per_iteration_and_per_position_are_the_variants_own() {
        let per_iteration = Claim::PerIteration { line: "asp".into(), key: "att".into(), low: 0.0, high: 2.0 };
        let child = variant();
        let per_iteration = ScopedClaim::from(per_iteration);
        let mut telemetry = Telemetry::parse(&["asp: att=25 low=4 high=3".to_string()]);
        let evidence = Evidence { telemetry: Some(&telemetry), ..counted(verdict_at_10(), 54) };
        assert_eq!(
            judge(&child, &per_iteration, &evidence).to_string(),
            "**not measured** (the run kept no iteration counts: run it again)"
        );
        telemetry.counts.insert(ITERATIONS.to_string(), 20);
        let evidence = Evidence { telemetry: Some(&telemetry), ..counted(verdict_at_10(), 54) };
        assert_eq!(judge(&child, &per_iteration, &evidence).to_string(), "**holds** (1.25: 25 over 20 iterations)");
        telemetry.counts.insert(ITERATIONS.to_string(), 10);
        let evidence = Evidence { telemetry: Some(&telemetry), ..counted(verdict_at_10(), 54) };
        assert_eq!(judge(&child, &per_iteration, &evidence).word(), "does not hold");

        let startpos = grammar::Scope { suite: Some("startpos".into()), ..Default::default() };
        let count = ScopedClaim { claim: Claim::NodesPerPosition { low: 0.0, high: 100000.0 }, scope: startpos };
        assert_eq!(
            judge(&child, &count, &Evidence::default()).to_string(),
            "**not measured** (no node counts of it on startpos: run `lab nodes child --suite startpos`)"
        );
        // Test suites of two positions (the start position alone).
        let at = |suite: &str, depth| setting(suite, depth, if suite == "startpos" { 1 } else { 2 });
        let own = |total| OwnNodes { total, positions: 1, setting: at("startpos", 10) };
        let on_startpos = Some(Ok(at("startpos", 10)));
        // Against no parent: the parent's runs are not needed.
        let evidence = Evidence { own_nodes: Some(own(47778)), claimed_on: on_startpos.clone(), ..Default::default() };
        assert_eq!(
            judge(&child, &count, &evidence).to_string(),
            "**holds** (47778 on startpos at depth 10, 1 position)"
        );
        let evidence = Evidence { own_nodes: Some(own(100001)), claimed_on: on_startpos.clone(), ..Default::default() };
        assert_eq!(judge(&child, &count, &evidence).word(), "does not hold");
        // Counted at another depth or on other positions, a count says
        // nothing of the claim; unscoped, the claim is the verdict suite's
        // at depth 10.
        let elsewhere = |suite, depth| Evidence {
            own_nodes: Some(OwnNodes { total: 5000, positions: 2, setting: at(suite, depth) }),
            claimed_on: Some(Ok(at("verdict", 10))),
            ..Default::default()
        };
        let startpos_claimed = Evidence { claimed_on: on_startpos, ..elsewhere("startpos", 8) };
        assert_eq!(
            judge(&child, &count, &startpos_claimed).to_string(),
            "**not measured** (measured on startpos at depth 8, claimed on startpos at depth 10: \
             run `lab nodes child --suite startpos --depth 10`)"
        );
        let unscoped = ScopedClaim::from(Claim::NodesPerPosition { low: 0.0, high: 100000.0 });
        assert_eq!(
            judge(&child, &unscoped, &elsewhere("seeds", 10)).to_string(),
            "**not measured** (measured on seeds at depth 10, claimed on verdict at depth 10: \
             run `lab nodes child --suite verdict --depth 10`)"
        );
        assert_eq!(judge(&child, &unscoped, &elsewhere("verdict", 10)).word(), "holds");
        // A node change at another depth is not the claimed one either.
        let fewer = ScopedClaim::from(Claim::NodeDirection(Direction::Fewer));
        let change = NodeChange { percent: -4.0, interval: Some((-4.5, -3.5)), positions: 2 };
        let evidence = Evidence {
            reference: Some("parent"),
            node_change: Some((change, "verdict at depth 6".into())),
            ..elsewhere("verdict", 6)
        };
        assert_eq!(
            judge(&child, &fewer, &evidence).to_string(),
            "**not measured** (measured on verdict at depth 6, claimed at depth 10: run `lab ab child --depth 10`)"
        );
    }

    #[test]
    fn games_claims_read_the_games_on_their_book() {
        use games::statistics::{Pentanomial, Wdl};

        use crate::verdicts::evidence::SprtReading;
        let child = variant();
        let endgames = grammar::Scope { book: Some("data/books/endgames.epd".into()), ..Default::default() };
        let gain = ScopedClaim { claim: Claim::Games(GamesClaim::Gain), scope: endgames };
        let result = |book: &str, penta: [u64; 5], llr: f64| GameResult {
            subject: "child".into(),
            reference: "parent".into(),
            source: "lab match, x".into(),
            taken: "20261126T000000Z".into(),
            tc: "10+0.1".into(),
            book: Some(book.into()),
            wdl: Wdl { wins: penta[3] + 2 * penta[4], draws: 0, losses: penta[1] + 2 * penta[0] },
            penta: Pentanomial(penta),
            sprt: Some(SprtReading { elo0: 0.0, elo1: 5.0, llr, lower: -2.94, upper: 2.94 }),
            finished: true,
            time_losses: 0,
            crashes: 0,
        };
        // Games on another book say nothing of this claim.
        let evidence =
            Evidence { games: &[result("UHO_4060_v2-4000.epd", [0, 0, 0, 50, 50], 3.0)], ..Default::default() };
        let judged = judge(&child, &gain, &evidence).to_string();
        assert!(
            judged.starts_with("**not measured** (no games of it against `parent` from the openings of endgames.epd")
        );
        assert!(judged.contains("run `lab match child parent --book data/books/endgames.epd --sprt 0 5`"), "{judged}");
        // `claim` judged on one result from the book, stored elsewhere.
        let on_book = |claim: &ScopedClaim, penta, llr| {
            let games = [result("/elsewhere/endgames.epd", penta, llr)];
            judge(&child, claim, &Evidence { games: &games, ..Default::default() }).word()
        };
        assert_eq!(on_book(&gain, [0, 0, 0, 50, 50], 3.0), "holds");
        assert_eq!(on_book(&gain, [10, 40, 100, 40, 10], -3.0), "does not hold");
        assert_eq!(on_book(&gain, [10, 40, 100, 40, 10], 0.5), "undecided");
        // Games of an SPRT still running decide nothing, however far their
        // Elo interval lies from 0.
        let mut running = result("endgames.epd", [0, 0, 0, 50, 50], 2.0);
        running.finished = false;
        let judged = judge(&child, &gain, &Evidence { games: &[running], ..Default::default() }).to_string();
        assert!(judged.starts_with("**undecided** (150 games at 10+0.1 (running)"), "{judged}");
        assert!(judged.ends_with("LLR 2.00 (-2.94, 2.94): continue; 0 time loss(es), 0 crash(es); lab match, x: nothing decided yet; more games would decide)"), "{judged}");
        let no_loss = ScopedClaim::from(Claim::Games(GamesClaim::NoLoss));
        assert_eq!(on_book(&no_loss, [0, 0, 0, 50, 50], 3.0), "holds");
    }

    #[test]
    fn games_claims_read_only_games_at_their_time_control() {
        use games::statistics::{Pentanomial, Wdl};
        let child = variant();
        // Games that show a gain, finished, with no SPRT: the interval decides.
        let gain_at = |tc: &str| GameResult {
            subject: "child".into(),
            reference: "parent".into(),
            source: format!("lab match, at {tc}"),
            taken: "20261126T000000Z".into(),
            tc: tc.into(),
            book: None,
            wdl: Wdl { wins: 200, draws: 0, losses: 0 },
            penta: Pentanomial([0, 0, 0, 0, 100]),
            sprt: None,
            finished: true,
            time_losses: 0,
            crashes: 0,
        };
        let gain = ScopedClaim::from(Claim::Games(GamesClaim::Gain));
        let judged = |claim: &ScopedClaim, games: &[GameResult]| {
            judge(&child, claim, &Evidence { games, ..Default::default() }).to_string()
        };
        // Games at fixed nodes are not the claim's, which is at 10+0.1 (the
        // variant has no `[sprt]`); nor are games at another clock.
        assert_eq!(
            judged(&gain, &[gain_at("N=10000"), gain_at("60+0.6")]),
            "**not measured** (no games of it against `parent` at 10+0.1: run `lab match child parent --sprt 0 5`)"
        );
        // OpenBench writes the same time control as 10.0+0.1.
        assert!(judged(&gain, &[gain_at("10.0+0.1")]).starts_with("**holds** (200 games at 10.0+0.1 (finished)"));
        // A claim at fixed nodes says so, and reads only those games.
        let at_nodes = ScopedClaim {
            claim: Claim::Games(GamesClaim::Gain),
            scope: grammar::Scope { tc: Some("N=10000".into()), ..Default::default() },
        };
        assert!(
            judged(&at_nodes, &[gain_at("10+0.1"), gain_at("N=10000")]).starts_with("**holds** (200 games at N=10000")
        );
        assert_eq!(
            judged(&at_nodes, &[gain_at("10+0.1")]),
            "**not measured** (no games of it against `parent` at N=10000: run `lab match child parent --sprt 0 5 \
             --tc N=10000`)"
        );
        // A match stopped before its end (killed, an error) decides nothing.
        let mut stopped = gain_at("10+0.1");
        stopped.finished = false;
        assert!(judged(&gain, &[stopped]).starts_with("**undecided** (200 games at 10+0.1 (running)"));
    }

    #[test]
    fn the_plans_rates_resolve_from_the_engines_lines() {
        // The lines as prunelab prints them (src/stats.rs, src/prune/razoring.rs).
        let lines: Vec<String> = [
            "razor: att=200 cut=10 cut%=5.0% razor_b=[4,6] tactical=30 tactical%=15.0% phase=50 probes=12 confirm%=83.3%",
            "cutoffs: total=400 tt=100 killer=50 capture=200 quiet=50 tt%=25.0%",
            "pvs: zw=1000 re=55 re%=5.5%",
        ]
        .iter()
        .map(|line| line.to_string())
        .collect();
        let telemetry = Telemetry::parse(&lines);
        let rate = |line: &str, key: &str, low: f64, high: f64| {
            let claim = Claim::Rate { line: line.into(), key: key.into(), low, high };
            let evidence = Evidence { telemetry: Some(&telemetry), ..counted(verdict_at_10(), 54) };
            judge(&variant(), &claim.into(), &evidence).to_string()
        };
        assert_eq!(rate("razor", "cut", 5.0, 10.0), "**holds** (5.0%)");
        assert_eq!(rate("razor", "tactical", 10.0, 20.0), "**holds** (15.0%)");
        assert_eq!(rate("razor", "confirm", 90.0, 100.0), "**does not hold** (83.3%)");
        assert_eq!(rate("cutoffs", "tt", 30.0, 100.0), "**does not hold** (25.0%)");
        assert_eq!(rate("pvs", "re", 0.0, 7.0), "**holds** (5.5%)");
        // The same telemetry from searches to depth 6: not the claim's depth.
        let claim = Claim::Rate { line: "pvs".into(), key: "re".into(), low: 0.0, high: 7.0 };
        let evidence = Evidence { telemetry: Some(&telemetry), ..counted(setting("verdict", 6, 54), 2) };
        assert_eq!(
            judge(&variant(), &claim.into(), &evidence).to_string(),
            "**not measured** (measured on verdict at depth 6, claimed at depth 10: run `lab ab child --depth 10`)"
        );
        assert!(rate("fut", "cut", 0.0, 7.0).contains("printed no `fut:` line"));
    }
}
