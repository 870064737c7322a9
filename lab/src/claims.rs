//! A plan's claims about a variant set against what the lab measured: each
//! reads **holds**, **does not hold** or **not measured (why)**.

use std::fmt;

use prunelab::variants::{Claim, Variant};

use crate::telemetry::Telemetry;

/// What a claim came to.
#[derive(Clone, Debug, PartialEq)]
pub enum Judgement {
    /// Holds; what was measured.
    Holds(String),
    /// Does not hold; what was measured.
    DoesNotHold(String),
    /// Why it could not be judged.
    NotMeasured(String),
}

impl Judgement {
    pub fn word(&self) -> &'static str {
        match self {
            Judgement::Holds(_) => "holds",
            Judgement::DoesNotHold(_) => "does not hold",
            Judgement::NotMeasured(_) => "not measured",
        }
    }
}

impl fmt::Display for Judgement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Judgement::Holds(measured) => write!(f, "**holds** ({measured})"),
            Judgement::DoesNotHold(measured) => write!(f, "**does not hold** ({measured})"),
            Judgement::NotMeasured(why) => write!(f, "**not measured** ({why})"),
        }
    }
}

/// A node change against the parent: the point estimate and, when known,
/// its 95% interval, in percent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeChange {
    pub percent: f64,
    pub interval: Option<(f64, f64)>,
}

impl fmt::Display for NodeChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:+.1}%", self.percent)?;
        if let Some((low, high)) = self.interval {
            write!(f, ", 95% interval {low:+.1}% to {high:+.1}%")?;
        }
        Ok(())
    }
}

/// Solve counts on a suite: the parent's and the variant's, of `positions`.
#[derive(Clone, Debug, PartialEq)]
pub struct Solved {
    pub suite: String,
    pub parent: usize,
    pub variant: usize,
    pub positions: usize,
}

/// What a run measured for a variant, as its claims need it.
#[derive(Clone, Debug, Default)]
pub struct Evidence<'a> {
    /// The variant the run measured it against; claims are against the
    /// parent, so the node change counts only when this is the parent.
    pub reference: Option<&'a str>,
    /// The node change against `reference`, and on what (the suite and depth).
    pub node_change: Option<(NodeChange, String)>,
    /// The variant's telemetry over the suite.
    pub telemetry: Option<&'a Telemetry>,
    /// Solve counts of the variant and `reference` on tactical suites.
    pub solved: Vec<Solved>,
}

fn within(value: f64, low: f64, high: f64) -> bool {
    value >= low && value <= high
}

/// Judges one claim of `variant` on `evidence`.
pub fn judge(variant: &Variant, claim: &Claim, evidence: &Evidence) -> Judgement {
    let parent = variant.file.extends.as_deref();
    let against_parent = parent.is_some() && evidence.reference == parent;
    let not_against_parent = || {
        Judgement::NotMeasured(match (parent, evidence.reference) {
            (None, _) => "the variant has no parent to measure it against".to_string(),
            (Some(parent), Some(reference)) => {
                format!("claimed against `{parent}`, measured against `{reference}`: run `lab ab {}`", variant.name())
            }
            (Some(parent), None) => format!("claimed against `{parent}`: run `lab ab {}`", variant.name()),
        })
    };
    match claim {
        Claim::NodeChange { .. } | Claim::NodeDirection(_) => {
            if !against_parent {
                return not_against_parent();
            }
            let Some((change, on)) = &evidence.node_change else {
                return Judgement::NotMeasured("no node counts in this run".to_string());
            };
            let measured = format!("{change} on {on}");
            let holds = match claim {
                Claim::NodeChange { low, high } => within(change.percent, *low, *high),
                Claim::NodeDirection(direction) => direction.holds_for(change.percent),
                _ => unreachable!("a node claim"),
            };
            if holds {
                Judgement::Holds(measured)
            } else {
                Judgement::DoesNotHold(measured)
            }
        }
        Claim::Rate { line, key, low, high } => {
            let Some(telemetry) = evidence.telemetry else {
                return Judgement::NotMeasured("no telemetry in this run".to_string());
            };
            let name = claim.key();
            match telemetry.rate(&name) {
                None => Judgement::NotMeasured(format!("the engine printed no `{line}:` line with `{key}`")),
                Some(rate) if within(rate, *low, *high) => Judgement::Holds(format!("{rate:.1}%")),
                Some(rate) => Judgement::DoesNotHold(format!("{rate:.1}%")),
            }
        }
        Claim::SolvedNotBelowParent { suite } => {
            if !against_parent {
                return not_against_parent();
            }
            match evidence.solved.iter().find(|solved| &solved.suite == suite) {
                None => {
                    Judgement::NotMeasured(format!("no {suite} run in this verdict: run `lab tactics --suite {suite}`"))
                }
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
    use prunelab::variants::{resolve, Direction, VariantFile};

    fn variant(claims: Vec<Claim>) -> Variant {
        let file = |name: &str, extends: Option<&str>, claims: Vec<Claim>| VariantFile {
            name: name.into(),
            description: String::new(),
            extends: extends.map(Into::into),
            features: if extends.is_some() { vec!["lmp".into()] } else { Vec::new() },
            source: String::new(),
            sprt: None,
            claims,
            witness: None,
        };
        let variants = resolve(vec![file("parent", None, Vec::new()), file("child", Some("parent"), claims)]).unwrap();
        variants.into_iter().find(|variant| variant.name() == "child").unwrap()
    }

    #[test]
    fn node_claims_hold_only_against_the_parent() {
        let claim = Claim::NodeChange { low: -5.0, high: -3.0 };
        let child = variant(vec![claim.clone()]);
        let change = NodeChange { percent: -4.0, interval: Some((-6.0, -2.0)) };
        let mut evidence =
            Evidence { reference: Some("parent"), node_change: Some((change, "seeds".into())), ..Default::default() };
        assert_eq!(judge(&child, &claim, &evidence).word(), "holds");
        evidence.node_change.as_mut().unwrap().0.percent = -1.0;
        assert_eq!(judge(&child, &claim, &evidence).word(), "does not hold");
        evidence.reference = Some("baseline");
        let verdict = judge(&child, &claim, &evidence);
        assert_eq!(verdict.word(), "not measured");
        assert!(verdict.to_string().contains("lab ab child"), "{verdict}");
        let direction = Claim::NodeDirection(Direction::More);
        evidence.reference = Some("parent");
        assert_eq!(judge(&child, &direction, &evidence).word(), "does not hold");
    }

    #[test]
    fn solved_claims_compare_with_the_parent() {
        let claim = Claim::SolvedNotBelowParent { suite: "zugzwang".into() };
        let child = variant(vec![claim.clone()]);
        let solved = |variant| Solved { suite: "zugzwang".into(), parent: 20, variant, positions: 30 };
        let evidence = Evidence { reference: Some("parent"), solved: vec![solved(20)], ..Default::default() };
        assert_eq!(judge(&child, &claim, &evidence).word(), "holds");
        let evidence = Evidence { reference: Some("parent"), solved: vec![solved(19)], ..Default::default() };
        assert_eq!(judge(&child, &claim, &evidence).word(), "does not hold");
        let evidence = Evidence { reference: Some("parent"), ..Default::default() };
        assert!(judge(&child, &claim, &evidence).to_string().contains("no zugzwang run"));
    }
}
