//! B's pruning decisions on A's line, from B's trace, ranked with the
//! features B has and A lacks first; and, when none is to blame, what B's
//! last completed iteration shows lost the line.
//!
//! **The side the line is against.** A's line is a win for the side to move
//! at the root (the solver): its moves are at even plies, the opponent's at
//! odd plies. A decision cuts the line *against the solver* when it makes
//! the solver's side look worse than searching would:
//!
//! - a node-level prune that claims the side to move is lost (razoring,
//!   futility at node level, quiescence's coarse delta: they return at most
//!   alpha) at a solver node; one that claims the side to move is winning
//!   (reverse futility, null move, ProbCut: at least beta) at an opponent
//!   node;
//! - the line's move skipped (futility, move count, history, SEE, delta) at
//!   a solver node: the solver's winning move is not looked at (skipping
//!   the opponent's line move only leaves it other defences);
//! - any reduction of the line (a node or its move searched shallower, an
//!   LMR reduction not repeated at full depth) at any ply: the win is at
//!   the end of the line, and a shallower search may not reach it;
//! - a cutoff before the line's move, or a stand pat, at an opponent node
//!   (the opponent holds by another move, or by its static eval); quiescence
//!   not searching the solver's quiet line move; a TT cutoff whose bound
//!   says the same (an upper bound at a solver node, a lower bound at an
//!   opponent node, an exact one anywhere).
//!
//! **The decisions.** Every pruning decision on the line in B's completed
//! iterations (an unfinished iteration cannot change the move B played),
//! grouped by technique and node: a [`Decision`] is what one suppression,
//! `technique@ply`, does not take, in every iteration. A decision in the
//! solver's favour (the opponent's node judged lost) ends the line too, and
//! the opponent may then leave it for another defence, so it is read as
//! well. They are ranked: the decisions of features B has and A lacks
//! first; then those against the solver; then the nearest the root; then
//! the latest iteration.

use std::cmp::Reverse;
use std::fmt::Write;

use anyhow::Result;
use prunelab::tt::Bound;
use serde::{Deserialize, Serialize};

use super::trace::{as_line, searched_move, tt_cutoff, Kind, TraceEvent};

/// Node-level prunes that return at most alpha: the side to move is judged lost.
const FAIL_LOW_TECHNIQUES: [&str; 3] = ["razoring", "futility", "delta"];
/// Node-level prunes that return at least beta: the side to move is judged winning.
const FAIL_HIGH_TECHNIQUES: [&str; 3] = ["reverse_futility", "null_move", "probcut"];
/// The technique whose depth change is an extension, not a reduction.
const EXTENDING_TECHNIQUE: &str = "singular";
/// Whom a decision at a node works against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Against {
    SideToMove,
    OtherSide,
    Both,
    Neither,
}

/// What kind of cut an event is, when it is one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CutKind {
    Pruning,
    Lmr,
    Ordering,
    TtCutoff,
    StandPat,
    Quiescence,
}

/// The cut an event makes against the solver, if any.
fn cut_of(event: &TraceEvent) -> Result<Option<CutKind>> {
    Ok(cut_and_side(event)?.and_then(|(kind, against_solver)| against_solver.then_some(kind)))
}

/// The cut an event makes, if any, and whether it works against the solver.
fn cut_and_side(event: &TraceEvent) -> Result<Option<(CutKind, bool)>> {
    let (kind, against) = if event.is_search() {
        match event.kind {
            Kind::MoveSearched if !searched_move(event)?.full_depth() => (CutKind::Lmr, Against::Both),
            Kind::CutBefore => (CutKind::Ordering, Against::OtherSide),
            Kind::StandPat => (CutKind::StandPat, Against::OtherSide),
            Kind::MoveSkipped => (CutKind::Quiescence, Against::SideToMove),
            Kind::TtCutoff => {
                let against = match tt_cutoff(event)?.bound {
                    Bound::Lower => Against::OtherSide,
                    Bound::Upper => Against::SideToMove,
                    Bound::Exact => Against::Both,
                };
                (CutKind::TtCutoff, against)
            }
            _ => return Ok(None),
        }
    } else {
        let technique = event.technique.as_str();
        let against = match event.kind {
            Kind::NodePruned if FAIL_LOW_TECHNIQUES.contains(&technique) => Against::SideToMove,
            Kind::NodePruned if FAIL_HIGH_TECHNIQUES.contains(&technique) => Against::OtherSide,
            // A technique this list does not know yet: it cut the line, and
            // which side it judged is not known, so it counts either way.
            Kind::NodePruned => Against::Both,
            Kind::MoveSkipped => Against::SideToMove,
            Kind::NodeReduced => Against::Both,
            Kind::MoveDepth if technique == EXTENDING_TECHNIQUE => Against::Neither,
            Kind::MoveDepth => Against::Both,
            // A decision a replay did not take is followed by `not-taken`.
            _ => Against::Neither,
        };
        (CutKind::Pruning, against)
    };
    let solver_node = event.ply.is_multiple_of(2);
    let against_solver = match against {
        Against::SideToMove => solver_node,
        Against::OtherSide => !solver_node,
        Against::Both => true,
        Against::Neither => return Ok(None),
    };
    Ok(Some((kind, against_solver)))
}

/// B's decisions of one technique against the solver at one node of A's
/// line, in its completed iterations: what one replay suppressing
/// `technique@ply` does not take.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// The technique's file, as the engine names it (`razoring`).
    pub technique: String,
    /// The features that decided, in the order they first did.
    pub features: Vec<String>,
    /// The node: the line's first `ply` moves lead to it.
    pub ply: usize,
    /// The completed iterations in which it cut the line.
    pub iterations: Vec<u32>,
    /// One of its features is B's and not A's.
    pub differs: bool,
    /// It works against the solver (see the module's notes); otherwise in
    /// its favour (the opponent's node judged lost, or won for the solver,
    /// or the opponent's line move skipped), which still ends the line.
    pub against_solver: bool,
    /// Its first cut in the latest of those iterations, as traced.
    #[serde(with = "as_line")]
    pub event: TraceEvent,
    /// Later iterations (completed or not) that searched the line past the
    /// node at full depth, with no pruning decision against the solver at
    /// or above its ply.
    pub searched_past_later: Vec<u32>,
}

impl Decision {
    /// The suppression that does not take it: the technique at its node.
    pub fn at_node(&self) -> String {
        format!("{}@{}", self.technique, self.ply)
    }

    /// `razoring `razor-r1` node-pruned at ply 2, depth 1, iteration 5 (it
    /// cut the line in iterations 2-5): razor d1: ...`.
    pub fn text(&self, completed_depth: u32) -> String {
        let event = &self.event;
        let mut out = format!(
            "{} {} {} at ply {}, depth {}, iteration {}",
            self.technique,
            self.features.iter().map(|feature| format!("`{feature}`")).collect::<Vec<_>>().join(", "),
            event.kind.name(),
            self.ply,
            event.depth,
            event.iteration
        );
        if self.iterations.len() > 1 {
            write!(out, " (it cut the line in iterations {})", ranges(&self.iterations)).unwrap();
        }
        write!(out, ": {}", event.detail).unwrap();
        if !self.against_solver {
            out.push_str("; in favour of the side that solves");
        }
        if !self.differs {
            out.push_str("; A has this feature too");
        }
        if let Some(later) = self.searched_past_later_text(completed_depth) {
            write!(out, "; {later}").unwrap();
        }
        out
    }

    /// `B searched past it later, in iteration 10 (unfinished)`, when it did.
    pub fn searched_past_later_text(&self, completed_depth: u32) -> Option<String> {
        if self.searched_past_later.is_empty() {
            return None;
        }
        let iterations: Vec<String> =
            self.searched_past_later
                .iter()
                .map(|&iteration| {
                    if iteration > completed_depth {
                        format!("{iteration} (unfinished)")
                    } else {
                        iteration.to_string()
                    }
                })
                .collect();
        let plural = if iterations.len() > 1 { "s" } else { "" };
        Some(format!("B searched past it later, in iteration{plural} {}", iterations.join(", ")))
    }
}

/// `2-5, 7`: ascending numbers as ranges.
pub(super) fn ranges(numbers: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut index = 0;
    while index < numbers.len() {
        let start = numbers[index];
        while index + 1 < numbers.len() && numbers[index + 1] == numbers[index] + 1 {
            index += 1;
        }
        let end = numbers[index];
        parts.push(if end > start { format!("{start}-{end}") } else { start.to_string() });
        index += 1;
    }
    parts.join(", ")
}

/// What B's last completed iteration shows lost the line, when no pruning
/// decision is to blame (or besides them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "kebab-case")]
pub enum Reason {
    /// The line's move was searched with a late move reduction and not
    /// again at full depth.
    Lmr,
    /// The opponent's node cut off before the line's move.
    Ordering,
    /// A TT cutoff against the solver.
    TtCutoff,
    /// Quiescence stood pat at an opponent node.
    StandPat,
    /// Quiescence does not search the solver's quiet line move.
    Quiescence,
    /// B's last completed iteration is shallower than the one in which A's
    /// solution appeared.
    Budget,
    /// B searched the line without a cut against it.
    SearchedFully { solution_score: Option<i32> },
    /// B completed no iteration.
    NoIteration,
}

impl Reason {
    /// The name counts are kept under.
    pub fn name(&self) -> &'static str {
        match self {
            Reason::Lmr => "LMR",
            Reason::Ordering => "ordering",
            Reason::TtCutoff => "TT cutoff",
            Reason::StandPat => "stand pat",
            Reason::Quiescence => "quiescence",
            Reason::Budget => "budget",
            Reason::SearchedFully { .. } => "searched fully",
            Reason::NoIteration => "no iteration",
        }
    }
}

/// B's trace along A's line, read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Analysis {
    /// B's pruning decisions against the line, ranked.
    pub decisions: Vec<Decision>,
    /// What the last completed iteration shows, besides them.
    #[serde(flatten)]
    pub reason: Reason,
    /// The reason's event: the nearest non-pruning cut, when there is one.
    #[serde(with = "as_line::optional")]
    pub reason_event: Option<TraceEvent>,
    /// B's last completed iteration.
    pub completed_depth: u32,
    /// The depth of A's report from which its move stayed the solution.
    pub solution_depth: Option<u32>,
}

/// Reads B's trace. `line` is A's line (UCI moves from the root), `events`
/// B's trace along it in search order, `completed_depth` B's last completed
/// iteration, `solution_depth` the depth from which A's move stayed the
/// solution, and `a_features` A's features (with what they imply).
pub fn analyze(
    events: &[TraceEvent],
    line: &[String],
    completed_depth: u32,
    solution_depth: Option<u32>,
    a_features: &[&str],
) -> Result<Analysis> {
    let cuts: Vec<Option<CutKind>> = events.iter().map(cut_of).collect::<Result<_>>()?;
    let mut decisions: Vec<Decision> = Vec::new();
    for event in events {
        let Some((CutKind::Pruning, against_solver)) = cut_and_side(event)? else { continue };
        if event.iteration > completed_depth {
            continue;
        }
        let found =
            decisions.iter_mut().find(|decision| decision.technique == event.technique && decision.ply == event.ply);
        match found {
            Some(decision) => {
                decision.against_solver |= against_solver;
                if !decision.features.contains(&event.feature) {
                    decision.features.push(event.feature.clone());
                }
                if decision.iterations.last() != Some(&event.iteration) {
                    decision.iterations.push(event.iteration);
                    decision.event = event.clone();
                }
            }
            None => decisions.push(Decision {
                technique: event.technique.clone(),
                features: vec![event.feature.clone()],
                ply: event.ply,
                iterations: vec![event.iteration],
                differs: false,
                against_solver,
                event: event.clone(),
                searched_past_later: Vec::new(),
            }),
        }
    }
    for decision in &mut decisions {
        decision.differs =
            decision.features.iter().any(|feature| feature != "baseline" && !a_features.contains(&feature.as_str()));
        decision.searched_past_later = searched_past_later(events, &cuts, line, decision)?;
    }
    // A stable sort: at equal keys, the first decided comes first.
    decisions.sort_by_key(|decision| {
        (!decision.differs, !decision.against_solver, decision.ply, Reverse(decision.event.iteration))
    });

    let (reason, reason_event) = reason(events, &cuts, completed_depth, solution_depth)?;
    Ok(Analysis { decisions, reason, reason_event, completed_depth, solution_depth })
}

/// The reason the last completed iteration shows (see the module's notes).
fn reason(
    events: &[TraceEvent],
    cuts: &[Option<CutKind>],
    completed_depth: u32,
    solution_depth: Option<u32>,
) -> Result<(Reason, Option<TraceEvent>)> {
    if completed_depth == 0 {
        return Ok((Reason::NoIteration, None));
    }
    let last: Vec<usize> = (0..events.len()).filter(|&index| events[index].iteration == completed_depth).collect();
    let nearest = last
        .iter()
        .copied()
        .filter(|&index| cuts[index].is_some_and(|cut| cut != CutKind::Pruning))
        .min_by_key(|&index| (events[index].ply, index));
    let event = nearest.map(|index| events[index].clone());
    if solution_depth.is_some_and(|depth| completed_depth < depth) {
        return Ok((Reason::Budget, event));
    }
    let Some(index) = nearest else {
        let solution_score = last
            .iter()
            .rev()
            .find(|&&index| events[index].ply == 0 && events[index].kind == Kind::MoveSearched)
            .map(|&index| searched_move(&events[index]).map(|searched| searched.score))
            .transpose()?;
        return Ok((Reason::SearchedFully { solution_score }, None));
    };
    let reason = match cuts[index].expect("a reason is a cut") {
        CutKind::Lmr => Reason::Lmr,
        CutKind::Ordering => Reason::Ordering,
        CutKind::TtCutoff => Reason::TtCutoff,
        CutKind::StandPat => Reason::StandPat,
        CutKind::Quiescence => Reason::Quiescence,
        CutKind::Pruning => unreachable!("pruning decisions are filtered out"),
    };
    Ok((reason, event))
}

/// The iterations after the decision's last that searched the line past it:
/// the line's move at the decision's ply (for a node at the line's end, the
/// move into it) searched at full depth, with no pruning decision against
/// the solver at or above that ply in the iteration.
fn searched_past_later(
    events: &[TraceEvent],
    cuts: &[Option<CutKind>],
    line: &[String],
    decision: &Decision,
) -> Result<Vec<u32>> {
    let move_ply = if decision.ply < line.len() { decision.ply } else { decision.ply.saturating_sub(1) };
    let last_iteration = events.iter().map(|event| event.iteration).max().unwrap_or(0);
    let decided = decision.iterations.last().copied().unwrap_or(0);
    let mut iterations = Vec::new();
    for iteration in decided + 1..=last_iteration {
        let mut searched = false;
        let mut cut = false;
        for (event, event_cut) in events.iter().zip(cuts).filter(|(event, _)| event.iteration == iteration) {
            if event.kind == Kind::MoveSearched && event.is_search() && event.ply == move_ply {
                searched |= searched_move(event)?.full_depth();
            }
            cut |= *event_cut == Some(CutKind::Pruning) && event.ply <= decision.ply;
        }
        if searched && !cut {
            iterations.push(iteration);
        }
    }
    Ok(iterations)
}

/// The line's move at `ply`, for messages.
fn line_move(line: &[String], ply: usize) -> &str {
    line.get(ply).map_or("(past the line's end)", String::as_str)
}

/// Where an event is and what it compared: `at ply 2, depth 4, iteration 8:
/// ...`.
fn at(event: &TraceEvent) -> String {
    format!("at ply {}, depth {}, iteration {}: {}", event.ply, event.depth, event.iteration, event.detail)
}

impl Analysis {
    /// The reason in words: `reduced by LMR, the line's g8g5 not re-searched
    /// at full depth, at ply 2, depth 7, iteration 9: ...`.
    pub fn reason_text(&self, line: &[String]) -> String {
        let event = self.reason_event.as_ref();
        let nearest = |event: &TraceEvent| {
            let what = match cut_of(event).ok().flatten() {
                Some(CutKind::Lmr) => {
                    format!("reduced by LMR, the line's {} not re-searched at full depth,", line_move(line, event.ply))
                }
                Some(CutKind::Ordering) => "ordering (a cutoff before the line's move)".to_string(),
                Some(CutKind::TtCutoff) => "TT cutoff".to_string(),
                Some(CutKind::StandPat) => "stand pat".to_string(),
                Some(CutKind::Quiescence) => {
                    format!("quiescence does not search the quiet line move {}", line_move(line, event.ply))
                }
                Some(CutKind::Pruning) | None => {
                    format!("{} `{}` {}", event.technique, event.feature, event.kind.name())
                }
            };
            format!("{what} {}", at(event))
        };
        match (&self.reason, event) {
            (Reason::Budget, _) => {
                let mut out = format!(
                    "budget: B's last completed iteration, {}, is shallower than depth {}, from which A's move stayed the solution",
                    self.completed_depth,
                    self.solution_depth.unwrap_or_default()
                );
                if let Some(event) = event {
                    write!(out, "; the nearest cut on the line there: {}", nearest(event)).unwrap();
                }
                out
            }
            (Reason::SearchedFully { solution_score }, _) => {
                let mut out =
                    format!("B searched A's line in iteration {} without a cut against it", self.completed_depth);
                if let Some(score) = solution_score {
                    write!(out, " and scored {} at {score}", line_move(line, 0)).unwrap();
                }
                out.push_str("; what B preferred lies off the line");
                out
            }
            (Reason::NoIteration, _) => "B completed no iteration".to_string(),
            (_, Some(event)) => nearest(event),
            (reason, None) => format!("{}: no event recorded", reason.name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::judge::{judge, Finding, Unproven};
    use super::super::replays::{plan, Try};
    use super::*;

    fn events(lines: &str) -> Vec<TraceEvent> {
        lines.lines().filter(|line| !line.trim().is_empty()).map(|line| line.parse().unwrap()).collect()
    }

    fn line(moves: &str) -> Vec<String> {
        moves.split_whitespace().map(str::to_string).collect()
    }

    /// futility-node on 2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w,
    /// `go depth 7`, tracing the baseline's mate in two: iterations 5 to 7
    /// as the engine printed them.
    const QUEEN_SACRIFICE: &str = "
iter=5 ply=0 depth=5 cut-before search baseline | e5c6 cut off at move 1 (score -165) before the line's g3g6
iter=5 ply=0 depth=5 cut-before search baseline | e5g6 cut off at move 2 (score 515) before the line's g3g6
iter=5 ply=2 depth=1 node-pruned futility futility-node | node futility at depth 1: eval -1129 + margin 210 <= alpha -150: returns the eval
iter=5 ply=1 depth=2 move-searched search baseline | move 1 searched to depth 1 (first reduced by 0), window (149, 150): score 1129
iter=5 ply=0 depth=5 move-searched search baseline | move 37 searched to depth 4 (first reduced by 2), window (-150, 552): score -1129
iter=5 ply=1 depth=2 tt-cutoff search baseline | Lower bound 1129 from depth 2 (window 149, 150)
iter=5 ply=0 depth=5 move-searched search baseline | move 38 searched to depth 4 (first reduced by 2), window (-150, 680): score -1129
iter=6 ply=0 depth=6 cut-before search baseline | e5g6 cut off at move 2 (score 515) before the line's g3g6
iter=6 ply=2 depth=2 node-pruned futility futility-node | node futility at depth 2: eval -1129 + margin 270 <= alpha -175: returns the eval
iter=6 ply=1 depth=3 move-searched search baseline | move 1 searched to depth 2 (first reduced by 0), window (174, 175): score 1129
iter=6 ply=0 depth=6 move-searched search baseline | move 37 searched to depth 5 (first reduced by 2), window (-175, 540): score -1129
iter=6 ply=1 depth=3 tt-cutoff search baseline | Lower bound 1129 from depth 3 (window 174, 175)
iter=6 ply=0 depth=6 move-searched search baseline | move 20 searched to depth 5 (first reduced by 2), window (-175, 662): score -1129
iter=6 ply=0 depth=6 cut-before search baseline | e5g6 cut off at move 3 (score 515) before the line's g3g6
iter=6 ply=2 depth=3 node-pruned futility futility-node | node futility at depth 3: eval -1129 + margin 330 <= alpha -204: returns the eval
iter=6 ply=1 depth=4 move-searched search baseline | move 1 searched to depth 3 (first reduced by 0), window (203, 204): score 1129
iter=6 ply=0 depth=6 move-searched search baseline | move 16 searched to depth 5 (first reduced by 1), window (-204, 597): score -1129
iter=7 ply=0 depth=7 cut-before search baseline | f6h5 cut off at move 4 (score -179) before the line's g3g6
iter=7 ply=1 depth=4 tt-cutoff search baseline | Lower bound 1129 from depth 4 (window 106, 107)
iter=7 ply=0 depth=7 move-searched search baseline | move 32 searched to depth 6 (first reduced by 2), window (-107, 149): score -1129
";

    /// p002-1.5's features: the parent, which has no node futility.
    const PARENT: &[&str] = &["futility-2.1"];

    #[test]
    fn decisions_of_every_completed_iteration_are_read_and_grouped_by_node() {
        let trace = events(QUEEN_SACRIFICE);
        let line = line("g3g6 f7g6 c2g6");
        // Iteration 7 meets only the TT's bound at ply 1: the cuts at ply 2
        // of iterations 5 and 6 are still read.
        let analysis = analyze(&trace, &line, 7, Some(3), PARENT).unwrap();
        assert_eq!(analysis.decisions.len(), 1);
        let decision = &analysis.decisions[0];
        assert_eq!((decision.technique.as_str(), decision.ply), ("futility", 2));
        assert_eq!(
            (decision.features.clone(), decision.iterations.clone()),
            (vec!["futility-node".into()], vec![5, 6])
        );
        assert!(decision.differs);
        // The first cut of the latest iteration.
        assert_eq!((decision.event.iteration, decision.event.depth), (6, 2));
        assert_eq!(decision.searched_past_later, Vec::<u32>::new());
        assert_eq!(
            decision.text(7),
            "futility `futility-node` node-pruned at ply 2, depth 2, iteration 6 (it cut the line in iterations 5-6): \
             node futility at depth 2: eval -1129 + margin 270 <= alpha -175: returns the eval"
        );
        // Read with A having the feature, the same decision says so.
        let analysis = analyze(&trace, &line, 7, Some(3), &["futility-node"]).unwrap();
        assert!(!analysis.decisions[0].differs);
        assert!(analysis.decisions[0].text(7).ends_with("; A has this feature too"));
        // An iteration that did not complete cannot change B's move: its
        // decisions are not read.
        assert!(analyze(&trace, &line, 4, Some(3), PARENT).unwrap().decisions.is_empty());
    }

    #[test]
    fn the_features_b_adds_come_first_then_the_nearest_to_the_root() {
        let trace = events(
            "iter=3 ply=2 depth=2 move-skipped move_count lmp | move 20 > limit 14 at depth 2
             iter=4 ply=4 depth=1 node-pruned razoring razor-r1 | razor d1: eval -700 + margin 300 <= alpha -200; qsearch(alpha, alpha + 1) <= alpha: returns -650
             iter=5 ply=2 depth=2 node-pruned razoring razor-r1 | razor d2: eval -700 + margin 500 <= alpha -150; qsearch(alpha, alpha + 1) <= alpha: returns -650
             iter=5 ply=4 depth=1 node-pruned razoring razor-r1 | razor d1: eval -710 + margin 300 <= alpha -200; qsearch(alpha, alpha + 1) <= alpha: returns -650
             iter=6 ply=0 depth=3 node-reduced iir iir | no TT move at depth 6: one ply shallower",
        );
        let analysis = analyze(&trace, &line("a2a3 a7a6 b2b3 b7b6 c2c3"), 6, Some(6), &["lmp"]).unwrap();
        let order: Vec<(String, bool, Vec<u32>)> = analysis
            .decisions
            .iter()
            .map(|decision| (decision.at_node(), decision.differs, decision.iterations.clone()))
            .collect();
        assert_eq!(
            order,
            [
                ("iir@0".to_string(), true, vec![6]),
                ("razoring@2".to_string(), true, vec![5]),
                ("razoring@4".to_string(), true, vec![4, 5]),
                ("move_count@2".to_string(), false, vec![3]),
            ]
        );
        // Each technique at its first node, then on the whole line when it
        // cut other nodes too; four replays at most.
        let tries: Vec<String> = plan(&analysis.decisions).into_iter().map(|tried| tried.suppressed).collect();
        assert_eq!(tries, ["iir@0", "razoring@2", "razoring", "move_count@2"]);
        let without_iir = &analysis.decisions[1..];
        let planned = plan(without_iir);
        assert_eq!(
            planned.iter().map(|tried| tried.suppressed.as_str()).collect::<Vec<_>>(),
            ["razoring@2", "razoring", "move_count@2"]
        );
        assert_eq!((planned[2].features.clone(), planned[2].differs), (vec!["lmp".to_string()], false));
    }

    #[test]
    fn the_verdict_follows_the_replays() {
        let trace = events(QUEEN_SACRIFICE);
        let analysis = analyze(&trace, &line("g3g6 f7g6 c2g6"), 7, Some(3), PARENT).unwrap();
        let planned = plan(&analysis.decisions);
        assert_eq!(planned.len(), 1);
        let tried = |solved| Try { what: planned[0].clone(), played: "g3g6".into(), nodes: 9, solved, not_taken: 3 };
        assert_eq!(judge(&analysis, &[tried(true)], true), Finding::Cause);
        assert_eq!(judge(&analysis, &[tried(false)], true), Finding::NotSufficient);
        // A cause needs the replay suppressing nothing to be B's search...
        let unproven = Finding::Unproven(Unproven::ReplayDiffers);
        assert_eq!(judge(&analysis, &[tried(true)], false), unproven);
        assert_eq!(judge(&analysis, &[tried(false)], false), unproven);
        // ... and the solving replay to have met the decision it suppresses.
        let never_met = Try { not_taken: 0, ..tried(true) };
        assert_eq!(judge(&analysis, &[tried(false), never_met], true), Finding::Unproven(Unproven::NotTaken));
        assert_eq!(unproven.name(), "unproven");
        assert_eq!(serde_json::to_value(unproven).unwrap(), serde_json::json!({"unproven": "replay-differs"}));
        assert_eq!(tried(true).text(), "without futility@2 (not taken 3 times): g3g6 after 9 nodes, **a solution**");
        let ordering =
            events("iter=5 ply=1 depth=4 cut-before search baseline | f7f6 cut off at move 1 (score 40) before the line's f7g6");
        let nothing = analyze(&ordering, &line("g3g6 f7g6 c2g6"), 5, Some(3), PARENT).unwrap();
        assert_eq!(judge(&nothing, &[], true), Finding::NotAPruningLoss);
        assert_eq!(judge(&nothing, &[], false), Finding::Unproven(Unproven::ReplayDiffers));
        assert_eq!(nothing.reason, Reason::Ordering);
    }

    #[test]
    fn a_later_iteration_that_searches_past_the_cut_is_named_unfinished_or_not() {
        let mut trace = events(QUEEN_SACRIFICE);
        trace.extend(events(
            "iter=8 ply=2 depth=5 move-searched search baseline | move 3 searched to depth 4 (first reduced by 1, then re-searched at full depth), window (-107, -106): score 31996",
        ));
        let line = line("g3g6 f7g6 c2g6");
        let analysis = analyze(&trace, &line, 7, Some(3), PARENT).unwrap();
        let decision = &analysis.decisions[0];
        assert_eq!(decision.searched_past_later, [8]);
        assert!(
            decision.text(7).ends_with("; B searched past it later, in iteration 8 (unfinished)"),
            "{}",
            decision.text(7)
        );
        assert_eq!(decision.searched_past_later_text(8).unwrap(), "B searched past it later, in iteration 8");
    }

    /// razor-r2 on WAC.023 at 50000 nodes, tracing p003-3's line: move
    /// count pruning skips the solver's quiet e1e2 at ply 2 in iteration 9.
    #[test]
    fn a_skipped_solver_move_works_against_the_solver_and_the_opponents_for_it() {
        let trace = events(
            "iter=9 ply=3 depth=5 move-skipped move_count lmp | move 20 > limit 14 at depth 5 (not improving)
             iter=9 ply=2 depth=7 move-skipped move_count lmp | move 32 > limit 30 at depth 7 (not improving)
             iter=9 ply=1 depth=8 move-searched search baseline | move 1 searched to depth 7 (first reduced by 0), window (-91, -90): score -85
             iter=9 ply=0 depth=9 move-searched search baseline | move 3 searched to depth 8 (first reduced by 0), window (90, 115): score 85",
        );
        let line = line("g2g4 f5c2 e1e2 c2e2");
        let analysis = analyze(&trace, &line, 9, Some(10), &["lmp"]).unwrap();
        assert_eq!(
            (analysis.decisions[0].at_node(), analysis.decisions[0].against_solver),
            ("move_count@2".into(), true)
        );
        // The opponent's move skipped at ply 3 leaves it other defences: a
        // decision in the solver's favour, ranked after the one against it.
        assert_eq!(analysis.decisions.len(), 2);
        let opponents = &analysis.decisions[1];
        assert_eq!((opponents.at_node(), opponents.against_solver), ("move_count@3".into(), false));
        assert!(opponents.text(9).contains("; in favour of the side that solves; A has this feature too"));
        // Alone, it is against no one, and the budget explains the loss.
        let analysis = analyze(&trace[..1], &line, 9, Some(10), &["lmp"]).unwrap();
        assert_eq!((analysis.reason.clone(), analysis.reason_event.clone()), (Reason::Budget, None));
    }

    #[test]
    fn fail_high_prunes_count_at_opponent_nodes_and_fail_low_ones_at_the_solvers() {
        let trace = events(
            "iter=4 ply=1 depth=2 node-pruned razoring razor-r1 | razor d2: eval -700 + margin 500 <= alpha -200; qsearch(alpha, alpha + 1) <= alpha: returns -650
             iter=4 ply=3 depth=1 node-pruned null_move baseline | null move at depth 1, R 2: score 400 >= beta 120
             iter=4 ply=2 depth=2 node-pruned reverse_futility rfp-simple | static null move at depth 2: eval 600 - margin 180 >= beta 50",
        );
        // Razoring at ply 1 judged the opponent lost, and reverse futility at
        // ply 2 the solver winning: both for the solver. Null move at ply 3
        // judged the opponent winning.
        let read = |a_features: &[&str]| {
            let analysis = analyze(&trace, &line("a2a3 a7a6 b2b3 b7b6"), 4, Some(4), a_features).unwrap();
            analysis
                .decisions
                .iter()
                .map(|decision| (decision.at_node(), decision.differs, decision.against_solver))
                .collect::<Vec<_>>()
        };
        let decisions = |list: &[(&str, bool, bool)]| {
            list.iter().map(|&(node, differs, against)| (node.to_string(), differs, against)).collect::<Vec<_>>()
        };
        // When A has both features, the one against the solver comes first.
        assert_eq!(
            read(&["razor-r1", "rfp-simple"]),
            decisions(&[
                ("null_move@3", false, true),
                ("razoring@1", false, false),
                ("reverse_futility@2", false, false)
            ])
        );
        // The features A lacks come first, whichever side they help.
        assert_eq!(
            read(&["rfp-simple"]),
            decisions(&[
                ("razoring@1", true, false),
                ("null_move@3", false, true),
                ("reverse_futility@2", false, false)
            ])
        );
    }

    #[test]
    fn reductions_count_at_any_ply_and_extensions_and_decisions_not_taken_never() {
        let trace = events(
            "iter=5 ply=1 depth=3 move-depth singular singular-ext | singular: the others stay below 80 at depth 1: one ply deeper
             iter=5 ply=3 depth=2 move-depth razoring razor-crafty | crafty razor d2: child eval -300 + 50 < alpha -100: one ply shallower
             iter=5 ply=3 depth=2 not-taken razoring razor-crafty | the decision above is not taken: this replay suppresses razoring here",
        );
        let analysis = analyze(&trace, &line("a2a3 a7a6 b2b3 b7b6"), 5, Some(5), &[]).unwrap();
        assert_eq!(analysis.decisions.len(), 1);
        assert_eq!(analysis.decisions[0].at_node(), "razoring@3");
        assert_eq!(analysis.decisions[0].iterations, [5]);
    }

    /// razor-r2 on WAC.066 at 50000 nodes: no pruning decision; the solver's
    /// line move at ply 2 was searched with an LMR reduction of 3 and failed
    /// low, nearer the root than the TT cutoff at ply 3.
    #[test]
    fn without_a_pruning_decision_the_nearest_reason_is_named() {
        let trace = events(
            "iter=9 ply=3 depth=3 tt-cutoff search baseline | Lower bound -95 from depth 3 (window -118, -117)
             iter=9 ply=2 depth=7 move-searched search baseline | move 14 searched to depth 6 (first reduced by 3), window (117, 118): score 95
             iter=9 ply=1 depth=8 move-searched search baseline | move 1 searched to depth 7 (first reduced by 0), window (-118, -117): score -116
             iter=9 ply=0 depth=9 move-searched search baseline | move 2 searched to depth 8 (first reduced by 0), window (117, 139): score 116",
        );
        let line = line("c7e5 f3e5 g8g5 e5c6");
        let analysis = analyze(&trace, &line, 9, Some(9), &[]).unwrap();
        assert!(analysis.decisions.is_empty());
        assert_eq!(analysis.reason, Reason::Lmr);
        assert_eq!(analysis.reason_event.as_ref().unwrap().ply, 2);
        assert!(analysis
            .reason_text(&line)
            .starts_with("reduced by LMR, the line's g8g5 not re-searched at full depth, at ply 2, depth 7"));
        // The same search re-searched at full depth: the TT cutoff at ply 3
        // is the reason left.
        let mut researched = trace.clone();
        researched[1].detail =
            "move 14 searched to depth 6 (first reduced by 3, then re-searched at full depth), window (117, 118): score 95".into();
        let analysis = analyze(&researched, &line, 9, Some(9), &[]).unwrap();
        assert_eq!(analysis.reason, Reason::TtCutoff);
        assert_eq!(analysis.reason_event.unwrap().ply, 3);
    }

    #[test]
    fn ordering_stand_pat_and_quiescence_count_on_their_own_side_only() {
        let line = line("a2a3 a7a6 b2b3 b7b6");
        let reason = |text: &str| analyze(&events(text), &line, 3, Some(3), &[]).unwrap().reason;
        assert_eq!(reason("iter=3 ply=1 depth=2 cut-before search baseline | h7h6 cut off at move 1 (score 40) before the line's a7a6"), Reason::Ordering);
        assert_eq!(
            reason("iter=3 ply=3 depth=0 stand-pat search baseline | quiescence stands pat: static eval 30 >= beta 20"),
            Reason::StandPat
        );
        assert_eq!(
            reason("iter=3 ply=2 depth=0 move-skipped search baseline | quiescence tries captures and queen promotions only: the line's quiet b2b3 is not searched"),
            Reason::Quiescence
        );
        // The same decisions at the other side's nodes help the solver.
        let fully = Reason::SearchedFully { solution_score: None };
        assert_eq!(reason("iter=3 ply=2 depth=2 cut-before search baseline | h2h3 cut off at move 1 (score 40) before the line's b2b3"), fully);
        assert_eq!(
            reason("iter=3 ply=2 depth=0 stand-pat search baseline | quiescence stands pat: static eval 30 >= beta 20"),
            fully
        );
        assert_eq!(
            reason("iter=3 ply=2 depth=1 tt-cutoff search baseline | Lower bound 50 from depth 1 (window 10, 11)"),
            fully
        );
        assert_eq!(
            reason("iter=3 ply=2 depth=1 tt-cutoff search baseline | Upper bound 5 from depth 1 (window 10, 11)"),
            Reason::TtCutoff
        );
    }

    #[test]
    fn a_line_searched_without_a_cut_says_so_with_the_score() {
        let trace = events(
            "iter=4 ply=1 depth=3 move-searched search baseline | move 1 searched to depth 2 (first reduced by 0), window (-66, -65): score -33
             iter=4 ply=0 depth=4 move-searched search baseline | move 6 searched to depth 3 (first reduced by 0), window (65, 99): score 33",
        );
        let line = line("g2g4 f5c2");
        let analysis = analyze(&trace, &line, 4, Some(4), &[]).unwrap();
        assert_eq!(analysis.reason, Reason::SearchedFully { solution_score: Some(33) });
        assert_eq!(
            analysis.reason_text(&line),
            "B searched A's line in iteration 4 without a cut against it and scored g2g4 at 33; what B preferred lies off the line"
        );
        assert_eq!(analyze(&trace, &line, 0, Some(4), &[]).unwrap().reason, Reason::NoIteration);
    }

    #[test]
    fn analyses_and_tries_keep_their_fields_in_json() {
        let trace = events(QUEEN_SACRIFICE);
        let analysis = analyze(&trace, &line("g3g6 f7g6 c2g6"), 7, Some(3), PARENT).unwrap();
        let json = serde_json::to_value(&analysis).unwrap();
        assert_eq!(json["decisions"][0]["technique"], "futility");
        assert_eq!(json["decisions"][0]["event"], trace[8].to_string());
        // Iteration 7 searched 1.Qg6 reduced at the root.
        assert_eq!(json["reason"], "lmr");
        assert_eq!(json["reason_event"], trace[19].to_string());
        let back: Analysis = serde_json::from_value(json).unwrap();
        assert_eq!(back, analysis);
        let tried = Try {
            what: plan(&analysis.decisions)[0].clone(),
            played: "g3g6".into(),
            nodes: 9,
            solved: true,
            not_taken: 2,
        };
        let json = serde_json::to_value(&tried).unwrap();
        assert_eq!(
            (&json["suppressed"], &json["solved"]),
            (&serde_json::json!("futility@2"), &serde_json::json!(true))
        );
        assert_eq!(serde_json::from_value::<Try>(json).unwrap(), tried);
        assert_eq!(serde_json::to_value(Finding::NotAPruningLoss).unwrap(), "not-a-pruning-loss");
    }
}
