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
//! Without an interval (one position) the estimate alone decides.
//!
//! A claim is judged on its scope ([`grammar::Scope`]): the suite
//! and depth it names, only the main-search nodes at the depths or below
//! the moves it names, and against the variant a chain span starts from
//! instead of the parent.

use std::fmt;

pub mod grammar;

use prunelab::variants::Variant;

use self::grammar::{Claim, Direction, GamesClaim, Scope, ScopedClaim, SIMILAR_NODES_PCT};

use crate::games::evidence::{GameResult, GamesSay};
use crate::measure::nodes::ITERATIONS;
use crate::measure::ratio::signed_percent;
use crate::measure::telemetry::Telemetry;

/// What a claim came to.
#[derive(Clone, Debug, PartialEq)]
pub enum Judgement {
    /// Holds; what was measured.
    Holds(String),
    /// Does not hold; what was measured.
    DoesNotHold(String),
    /// The measurement neither supports nor rules out the claim; what was measured.
    Undecided(String),
    /// Why it could not be judged.
    NotMeasured(String),
}

impl Judgement {
    pub fn word(&self) -> &'static str {
        match self {
            Judgement::Holds(_) => "holds",
            Judgement::DoesNotHold(_) => "does not hold",
            Judgement::Undecided(_) => "undecided",
            Judgement::NotMeasured(_) => "not measured",
        }
    }
}

impl fmt::Display for Judgement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Judgement::Holds(measured) => write!(f, "**holds** ({measured})"),
            Judgement::DoesNotHold(measured) => write!(f, "**does not hold** ({measured})"),
            Judgement::Undecided(measured) => write!(f, "**undecided** ({measured})"),
            Judgement::NotMeasured(why) => write!(f, "**not measured** ({why})"),
        }
    }
}

/// A node change against the parent: the point estimate (the geometric
/// mean over positions) and, when known, its 95% interval, in percent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeChange {
    pub percent: f64,
    pub interval: Option<(f64, f64)>,
}

impl NodeChange {
    pub fn from_ratio(ratio: &crate::measure::ratio::RatioEstimate) -> NodeChange {
        NodeChange { percent: ratio.percent(), interval: ratio.percent_interval() }
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

/// The range of node changes, in percent, that a node claim allows.
fn claimed_range(claim: &Claim) -> (f64, f64) {
    match claim {
        Claim::NodeChange { low, high } => (*low, *high),
        Claim::NodeDirection(Direction::Fewer) => (f64::NEG_INFINITY, 0.0),
        Claim::NodeDirection(Direction::More) => (0.0, f64::INFINITY),
        Claim::NodeDirection(Direction::Similar) => (-SIMILAR_NODES_PCT, SIMILAR_NODES_PCT),
        Claim::NodeDirection(Direction::Same) => (0.0, 0.0),
        _ => unreachable!("only node claims have a range of node changes"),
    }
}

/// A node claim on a measured change, with its uncertainty: it holds when
/// the whole 95% interval lies in the claimed range, does not hold when the
/// whole interval misses it, and is undecided when the interval reaches
/// over an edge of the range (more positions would decide). Without an
/// interval the estimate alone decides.
fn judge_node_change(claim: &Claim, change: &NodeChange, on: &str) -> Judgement {
    let measured = format!("{change} on {on}");
    if let Claim::NodeDirection(Direction::Same) = claim {
        // The same tree: no position moved, so neither does the interval.
        // A tree that changed anywhere is not the same tree, whatever the mean.
        let same = change.percent == 0.0 && change.interval.is_none_or(|interval| interval == (0.0, 0.0));
        return if same { Judgement::Holds(measured) } else { Judgement::DoesNotHold(measured) };
    }
    let (low, high) = claimed_range(claim);
    // `fewer` and `more` exclude 0 itself: an interval that ends at 0 does
    // not reach them.
    let claimed = |value: f64| match claim {
        Claim::NodeDirection(direction @ (Direction::Fewer | Direction::More)) => direction.holds_for(value),
        _ => within(value, low, high),
    };
    let (interval_low, interval_high) = change.interval.unwrap_or((change.percent, change.percent));
    // Every claimed range is an interval, so both ends in it put all of it in.
    if claimed(interval_low) && claimed(interval_high) {
        return Judgement::Holds(measured);
    }
    let reaches = match claim {
        Claim::NodeDirection(Direction::Fewer) => interval_low < 0.0,
        Claim::NodeDirection(Direction::More) => interval_high > 0.0,
        _ => interval_high >= low && interval_low <= high,
    };
    if reaches {
        Judgement::Undecided(format!(
            "{measured}: the interval reaches over the claim's edge; more positions would decide"
        ))
    } else {
        Judgement::DoesNotHold(measured)
    }
}

/// Solve counts on a suite: the parent's and the variant's, of `positions`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Solved {
    pub suite: String,
    pub parent: usize,
    pub variant: usize,
    pub positions: usize,
}

/// Where node counts were taken: the suite (its name) and the depth.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NodeSetting {
    pub suite: String,
    pub depth: u32,
}

impl NodeSetting {
    /// The suite and depth `scope` claims: its own, else the verdict suite
    /// at depth 10.
    pub fn claimed(scope: &Scope) -> NodeSetting {
        let suite = scope.suite.as_deref().unwrap_or(crate::measure::suites::VERDICT);
        NodeSetting { suite: crate::measure::suites::name(suite), depth: scope.search_depth() }
    }
}

impl fmt::Display for NodeSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at depth {}", self.suite, self.depth)
    }
}

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
    /// The variant's own node counts over the suite.
    pub own_nodes: Option<OwnNodes>,
    /// The variant's telemetry over the suite.
    pub telemetry: Option<&'a Telemetry>,
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

fn within(value: f64, low: f64, high: f64) -> bool {
    value >= low && value <= high
}

/// Judges one claim of `variant` on `evidence`, which was measured on the
/// claim's scope.
pub fn judge(variant: &Variant, scoped: &ScopedClaim, evidence: &Evidence) -> Judgement {
    let claim = &scoped.claim;
    // What the claim is against: its chain span's start, or the parent.
    let parent = scoped.scope.from.as_deref().or(variant.file.extends.as_deref());
    let command = match &scoped.scope.from {
        Some(start) => format!("lab nodes {start} {}", variant.name()),
        None => format!("lab ab {}", variant.name()),
    };
    let against_parent = parent.is_some() && evidence.reference == parent;
    let not_against_parent = || {
        Judgement::NotMeasured(match (parent, evidence.reference) {
            (None, _) => "the variant has no parent to measure it against".to_string(),
            (Some(parent), Some(reference)) => {
                format!("claimed against `{parent}`, measured against `{reference}`: run `{command}`")
            }
            (Some(parent), None) => format!("claimed against `{parent}`: run `{command}`"),
        })
    };
    // A node change, a rate or a count per iteration measured at another
    // depth is not the one claimed: trees of other depths prune differently.
    let at_another_depth = || {
        let depth = scoped.scope.search_depth();
        let own = evidence.own_nodes.as_ref().filter(|own| own.setting.depth != depth)?;
        let options = scope_options(&Scope { depth: Some(depth), ..scoped.scope.clone() });
        Some(Judgement::NotMeasured(format!(
            "measured on {}, claimed at depth {depth}: run `{command}{options}`",
            own.setting
        )))
    };
    match claim {
        Claim::NodeChange { .. } | Claim::NodeDirection(_) => {
            if !against_parent {
                return not_against_parent();
            }
            let Some((change, on)) = &evidence.node_change else {
                return Judgement::NotMeasured(format!(
                    "no node counts of it and `{}`{}: run `{command}`{}",
                    parent.unwrap_or("-"),
                    scoped.scope.text(),
                    scope_options(&scoped.scope)
                ));
            };
            if let Some(elsewhere) = at_another_depth() {
                return elsewhere;
            }
            judge_node_change(claim, change, on)
        }
        Claim::Rate { line, key, low, high } => {
            let Some(telemetry) = evidence.telemetry else {
                return Judgement::NotMeasured("no telemetry in this run".to_string());
            };
            if let Some(elsewhere) = at_another_depth() {
                return elsewhere;
            }
            let name = claim.key();
            match telemetry.rate(&name) {
                None => Judgement::NotMeasured(format!("the engine printed no `{line}:` line with `{key}`")),
                Some(rate) if within(rate, *low, *high) => Judgement::Holds(format!("{rate:.1}%")),
                Some(rate) => Judgement::DoesNotHold(format!("{rate:.1}%")),
            }
        }
        Claim::PerIteration { line, key, low, high } => {
            let Some(telemetry) = evidence.telemetry else {
                return Judgement::NotMeasured("no telemetry in this run".to_string());
            };
            if let Some(elsewhere) = at_another_depth() {
                return elsewhere;
            }
            let Some(count) = telemetry.count(&format!("{line}.{key}")) else {
                return Judgement::NotMeasured(format!("the engine printed no `{line}:` line with `{key}`"));
            };
            match telemetry.count(ITERATIONS) {
                Some(iterations) if iterations > 0 => {
                    let average = count as f64 / iterations as f64;
                    let measured = format!("{average:.2}: {count} over {iterations} iterations");
                    if within(average, *low, *high) {
                        Judgement::Holds(measured)
                    } else {
                        Judgement::DoesNotHold(measured)
                    }
                }
                _ => Judgement::NotMeasured("the run kept no iteration counts: run it again".to_string()),
            }
        }
        Claim::NodesPerPosition { low, high } => {
            let Some(own) = evidence.own_nodes.as_ref().filter(|own| own.positions > 0) else {
                return Judgement::NotMeasured(format!(
                    "no node counts of it{}: run `lab nodes {}{}`",
                    scoped.scope.text(),
                    variant.name(),
                    scope_options(&scoped.scope)
                ));
            };
            // A count is a count of one suite at one depth: elsewhere it
            // says nothing of the claim.
            let claimed = NodeSetting::claimed(&scoped.scope);
            if own.setting != claimed {
                return Judgement::NotMeasured(format!(
                    "measured on {}, claimed on {claimed}: run `lab nodes {} --suite {} --depth {}`",
                    own.setting,
                    variant.name(),
                    scoped.scope.suite.as_deref().unwrap_or(crate::measure::suites::VERDICT),
                    claimed.depth
                ));
            }
            // Searches to a fixed depth from `ucinewgame` are exact: no interval.
            let mean = own.total as f64 / own.positions as f64;
            let positions =
                if own.positions == 1 { "1 position".to_string() } else { format!("{} positions", own.positions) };
            let measured = format!("{mean:.0} on {}, {positions}", own.setting);
            if within(mean, *low, *high) {
                Judgement::Holds(measured)
            } else {
                Judgement::DoesNotHold(measured)
            }
        }
        Claim::Games(claimed) => {
            let book = scoped.scope.book.as_deref().map(crate::measure::suites::name);
            let on_book = |result: &&GameResult| {
                book.as_ref()
                    .is_none_or(|book| result.book.as_deref().map(crate::measure::suites::name).as_ref() == Some(book))
            };
            // The largest result on the book decides, as in a verdict's games.
            let Some(result) = evidence.games.iter().filter(on_book).max_by_key(|result| result.games()) else {
                let parent = parent.unwrap_or("-");
                let book_option = scoped.scope.book.as_ref().map_or(String::new(), |book| format!(" --book {book}"));
                return Judgement::NotMeasured(format!(
                    "no games of it against `{parent}`{}: run `lab match {} {parent}{book_option} --sprt 0 5`",
                    scoped.scope.place_text(),
                    variant.name()
                ));
            };
            let says = result.says();
            let measured = format!("{}: {}", result.line(), says.words());
            match (claimed, says) {
                (_, GamesSay::Gain) | (GamesClaim::NoLoss, GamesSay::NoLoss) => Judgement::Holds(measured),
                (_, GamesSay::Loss) | (GamesClaim::Gain, GamesSay::NoGain) => Judgement::DoesNotHold(measured),
                _ => Judgement::Undecided(format!("{measured}; more games would decide")),
            }
        }
        Claim::SolvedNotBelowParent { suite } => {
            if !against_parent {
                return not_against_parent();
            }
            if let Some((_, why)) = evidence.unsolved.iter().find(|(name, _)| name == suite) {
                return Judgement::NotMeasured(why.clone());
            }
            match evidence.solved.iter().find(|solved| &solved.suite == suite) {
                None => Judgement::NotMeasured(format!(
                    "no {suite} run with it and its parent: run `lab ab {}`",
                    variant.name()
                )),
                Some(solved) => {
                    let measured = format!("{} against {} of {}", solved.variant, solved.parent, solved.positions);
                    if solved.variant >= solved.parent {
                        Judgement::Holds(measured)
                    } else {
                        Judgement::DoesNotHold(measured)
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prunelab::variants::{resolve, VariantFile};

    /// A child of `parent` with the feature `lmp`: what a claim is judged
    /// for (the claim itself is `judge`'s argument).
    fn variant() -> Variant {
        let file = |name: &str, extends: Option<&str>| VariantFile {
            name: name.into(),
            description: String::new(),
            extends: extends.map(Into::into),
            features: if extends.is_some() { vec!["lmp".into()] } else { Vec::new() },
            source: String::new(),
            sections: Vec::new(),
        };
        let variants = resolve(vec![file("parent", None), file("child", Some("parent"))]).unwrap();
        variants.into_iter().find(|variant| variant.name() == "child").unwrap()
    }

    #[test]
    fn node_claims_hold_only_against_the_parent() {
        let claim = Claim::NodeChange { low: -5.0, high: -3.0 };
        let child = variant();
        let change = NodeChange { percent: -4.0, interval: Some((-4.5, -3.5)) };
        let mut evidence =
            Evidence { reference: Some("parent"), node_change: Some((change, "seeds".into())), ..Default::default() };
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
        let change = NodeChange { percent, interval };
        let evidence =
            Evidence { reference: Some("parent"), node_change: Some((change, "verdict".into())), ..Default::default() };
        judge(&child, &claim.into(), &evidence).word()
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
        let solved = |variant| Solved { suite: "zugzwang".into(), parent: 20, variant, positions: 30 };
        let claim = ScopedClaim::from(claim);
        let evidence = Evidence { reference: Some("parent"), solved: vec![solved(20)], ..Default::default() };
        assert_eq!(judge(&child, &claim, &evidence).word(), "holds");
        let evidence = Evidence { reference: Some("parent"), solved: vec![solved(19)], ..Default::default() };
        assert_eq!(judge(&child, &claim, &evidence).word(), "does not hold");
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
        let evidence = Evidence { telemetry: Some(&telemetry), ..Default::default() };
        assert_eq!(
            judge(&child, &per_iteration, &evidence).to_string(),
            "**not measured** (the run kept no iteration counts: run it again)"
        );
        telemetry.counts.insert(ITERATIONS.to_string(), 20);
        let evidence = Evidence { telemetry: Some(&telemetry), ..Default::default() };
        assert_eq!(judge(&child, &per_iteration, &evidence).to_string(), "**holds** (1.25: 25 over 20 iterations)");
        telemetry.counts.insert(ITERATIONS.to_string(), 10);
        let evidence = Evidence { telemetry: Some(&telemetry), ..Default::default() };
        assert_eq!(judge(&child, &per_iteration, &evidence).word(), "does not hold");

        let startpos = grammar::Scope { suite: Some("startpos".into()), ..Default::default() };
        let count = ScopedClaim { claim: Claim::NodesPerPosition { low: 0.0, high: 100000.0 }, scope: startpos };
        assert_eq!(
            judge(&child, &count, &Evidence::default()).to_string(),
            "**not measured** (no node counts of it on startpos: run `lab nodes child --suite startpos`)"
        );
        let at = |suite: &str, depth| NodeSetting { suite: suite.into(), depth };
        let own = |total| OwnNodes { total, positions: 1, setting: at("startpos", 10) };
        // Against no parent: the parent's runs are not needed.
        let evidence = Evidence { own_nodes: Some(own(47778)), ..Default::default() };
        assert_eq!(
            judge(&child, &count, &evidence).to_string(),
            "**holds** (47778 on startpos at depth 10, 1 position)"
        );
        let evidence = Evidence { own_nodes: Some(own(100001)), ..Default::default() };
        assert_eq!(judge(&child, &count, &evidence).word(), "does not hold");
        // Counted at another depth or on other positions, a count says
        // nothing of the claim; unscoped, the claim is the verdict suite's
        // at depth 10.
        let elsewhere = |suite, depth| Evidence {
            own_nodes: Some(OwnNodes { total: 5000, positions: 2, setting: at(suite, depth) }),
            ..Default::default()
        };
        assert_eq!(
            judge(&child, &count, &elsewhere("startpos", 8)).to_string(),
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
        let change = NodeChange { percent: -4.0, interval: Some((-4.5, -3.5)) };
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
        use crate::games::evidence::SprtState;
        use crate::games::statistics::{Pentanomial, Wdl};
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
            sprt: Some(SprtState { elo0: 0.0, elo1: 5.0, llr, lower: -2.94, upper: 2.94 }),
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
            let evidence = Evidence { telemetry: Some(&telemetry), ..Default::default() };
            judge(&variant(), &claim.into(), &evidence).to_string()
        };
        assert_eq!(rate("razor", "cut", 5.0, 10.0), "**holds** (5.0%)");
        assert_eq!(rate("razor", "tactical", 10.0, 20.0), "**holds** (15.0%)");
        assert_eq!(rate("razor", "confirm", 90.0, 100.0), "**does not hold** (83.3%)");
        assert_eq!(rate("cutoffs", "tt", 30.0, 100.0), "**does not hold** (25.0%)");
        assert_eq!(rate("pvs", "re", 0.0, 7.0), "**holds** (5.5%)");
        // The same telemetry from searches to depth 6: not the claim's depth.
        let claim = Claim::Rate { line: "pvs".into(), key: "re".into(), low: 0.0, high: 7.0 };
        let shallow = OwnNodes { total: 100, positions: 2, setting: NodeSetting { suite: "verdict".into(), depth: 6 } };
        let evidence = Evidence { telemetry: Some(&telemetry), own_nodes: Some(shallow), ..Default::default() };
        assert_eq!(
            judge(&variant(), &claim.into(), &evidence).to_string(),
            "**not measured** (measured on verdict at depth 6, claimed at depth 10: run `lab ab child --depth 10`)"
        );
        assert!(rate("fut", "cut", 0.0, 7.0).contains("printed no `fut:` line"));
    }
}
