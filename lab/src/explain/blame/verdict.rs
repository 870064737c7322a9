//! The blame: from B's trace along A's line, the first decision that cut
//! the line, or, when no pruning decision did, the reason that can be seen.
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
//! **The first decision.** In B's last completed iteration (the one its
//! move came from), the pruning decision against the solver nearest the
//! root (smallest ply; at the same ply, the first in search order). A TT
//! cutoff hides the search that stored its bound, so when the iteration
//! has no pruning decision, each TT cutoff against the solver, nearest the
//! root first, is followed back to that search (the latest traced search
//! of the same node at the stored depth) and its decisions are read the
//! same way, through further TT cutoffs if need be.
//!
//! **When nothing pruned it**, in this order: B's budget ended before the
//! depth at which A's solution appeared; else the non-pruning reason
//! nearest the root (LMR, ordering, a TT cutoff, stand pat, quiescence);
//! else B searched the line without a cut against it, and what B preferred
//! lies off the line.

use std::fmt::Write;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::trace::{searched_move, tt_cutoff, Bound, Kind, TraceEvent};

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
            _ => Against::Neither,
        };
        (CutKind::Pruning, against)
    };
    let solver_node = event.ply.is_multiple_of(2);
    let against_solver = match against {
        Against::SideToMove => solver_node,
        Against::OtherSide => !solver_node,
        Against::Both => true,
        Against::Neither => false,
    };
    Ok(against_solver.then_some(kind))
}

/// Why B's search did not keep A's line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "cause", rename_all = "kebab-case")]
pub enum Cause {
    /// A pruning technique cut the line: `event` is its decision.
    Pruned { technique: String, feature: String },
    /// Not pruned: the line's move was searched with a late move reduction
    /// and not again at full depth.
    Lmr,
    /// Not pruned: the opponent's node cut off before the line's move.
    Ordering,
    /// Not pruned: a TT cutoff whose search could not be followed.
    TtCutoff,
    /// Not pruned: quiescence stood pat at an opponent node.
    StandPat,
    /// Not pruned: quiescence does not search the solver's quiet line move.
    Quiescence,
    /// Not pruned: B's last completed iteration is shallower than the one
    /// in which A's solution appeared; `event` is the nearest reason seen.
    Budget,
    /// Not pruned: B searched the line without a cut against it.
    SearchedFully { solution_score: Option<i32> },
    /// B completed no iteration.
    NoIteration,
}

impl Cause {
    /// The name counts are kept under: the technique, or the reason.
    pub fn reason(&self) -> &'static str {
        match self {
            Cause::Pruned { .. } => "pruned",
            Cause::Lmr => "LMR",
            Cause::Ordering => "ordering",
            Cause::TtCutoff => "TT cutoff",
            Cause::StandPat => "stand pat",
            Cause::Quiescence => "quiescence",
            Cause::Budget => "budget",
            Cause::SearchedFully { .. } => "searched fully",
            Cause::NoIteration => "no iteration",
        }
    }
}

/// The blame of one position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    #[serde(flatten)]
    pub cause: Cause,
    /// The deciding event: the pruning decision or the reason's event.
    pub event: Option<TraceEvent>,
    /// The TT cutoffs the decision was reached through, in the order followed.
    pub via: Vec<TraceEvent>,
    /// For a pruning decision: the later iterations (after the decision's
    /// own) that searched the line past it, at full depth and with no
    /// pruning decision against the solver at or above its ply.
    pub searched_past_later: Vec<u32>,
    /// B's last completed iteration.
    pub completed_depth: u32,
    /// The depth of A's report from which its move stayed the solution.
    pub solution_depth: Option<u32>,
}

/// A pruning decision found, with the TT cutoffs it was reached through.
struct Found {
    index: usize,
    via: Vec<usize>,
}

/// Reads B's trace. `line` is A's line (UCI moves from the root), `events`
/// B's trace along it in search order, `completed_depth` B's last completed
/// iteration and `solution_depth` the depth from which A's move stayed the
/// solution.
pub fn blame(
    events: &[TraceEvent],
    line: &[String],
    completed_depth: u32,
    solution_depth: Option<u32>,
) -> Result<Verdict> {
    let cuts: Vec<Option<CutKind>> = events.iter().map(cut_of).collect::<Result<_>>()?;
    let verdict = |cause, event: Option<usize>, via: Vec<usize>| Verdict {
        cause,
        event: event.map(|index| events[index].clone()),
        via: via.into_iter().map(|index| events[index].clone()).collect(),
        searched_past_later: Vec::new(),
        completed_depth,
        solution_depth,
    };
    if completed_depth == 0 {
        return Ok(verdict(Cause::NoIteration, None, Vec::new()));
    }
    let last: Vec<usize> = (0..events.len()).filter(|&index| events[index].iteration == completed_depth).collect();
    if let Some(found) = pruning_decision(events, &cuts, &last)? {
        let event = &events[found.index];
        let mut verdict = verdict(
            Cause::Pruned { technique: event.technique.clone(), feature: event.feature.clone() },
            Some(found.index),
            found.via,
        );
        verdict.searched_past_later = searched_past_later(events, &cuts, line, event)?;
        return Ok(verdict);
    }
    let nearest_reason =
        nearest(events, last.iter().copied().filter(|&index| cuts[index].is_some_and(|cut| cut != CutKind::Pruning)));
    if solution_depth.is_some_and(|depth| completed_depth < depth) {
        return Ok(verdict(Cause::Budget, nearest_reason, Vec::new()));
    }
    let Some(index) = nearest_reason else {
        let solution_score = last
            .iter()
            .rev()
            .find(|&&index| events[index].ply == 0 && events[index].kind == Kind::MoveSearched)
            .map(|&index| searched_move(&events[index]).map(|searched| searched.score))
            .transpose()?;
        return Ok(verdict(Cause::SearchedFully { solution_score }, None, Vec::new()));
    };
    let cause = match cuts[index].expect("a reason is a cut") {
        CutKind::Lmr => Cause::Lmr,
        CutKind::Ordering => Cause::Ordering,
        CutKind::TtCutoff => Cause::TtCutoff,
        CutKind::StandPat => Cause::StandPat,
        CutKind::Quiescence => Cause::Quiescence,
        CutKind::Pruning => unreachable!("pruning decisions were looked for first"),
    };
    Ok(verdict(cause, Some(index), Vec::new()))
}

/// Of `candidates`, the event nearest the root, the first at that ply.
fn nearest(events: &[TraceEvent], candidates: impl Iterator<Item = usize>) -> Option<usize> {
    candidates.min_by_key(|&index| (events[index].ply, index))
}

/// The pruning decision against the solver among `indices`, nearest the
/// root; failing that, one behind the TT cutoffs among them.
fn pruning_decision(events: &[TraceEvent], cuts: &[Option<CutKind>], indices: &[usize]) -> Result<Option<Found>> {
    let pruning = indices.iter().copied().filter(|&index| cuts[index] == Some(CutKind::Pruning));
    if let Some(index) = nearest(events, pruning) {
        return Ok(Some(Found { index, via: Vec::new() }));
    }
    let mut tt_cutoffs: Vec<usize> =
        indices.iter().copied().filter(|&index| cuts[index] == Some(CutKind::TtCutoff)).collect();
    tt_cutoffs.sort_by_key(|&index| (events[index].ply, index));
    for tt_index in tt_cutoffs {
        let Some(source) = stored_by(events, tt_index)? else { continue };
        // The search that stored the bound: its events back to the last
        // event above its node (the parent's, which come after a child's).
        let ply = events[tt_index].ply;
        let start = (0..source).rev().find(|&index| events[index].ply < ply).map_or(0, |index| index + 1);
        let block: Vec<usize> = (start..=source).collect();
        // Each step goes strictly back in the trace, so this ends.
        if let Some(mut found) = pruning_decision(events, cuts, &block)? {
            found.via.insert(0, tt_index);
            return Ok(Some(found));
        }
    }
    Ok(None)
}

/// The latest traced search, before the TT cutoff at `tt_index`, of the
/// same node at the depth the entry was stored with (quiescence entries:
/// depth 0).
fn stored_by(events: &[TraceEvent], tt_index: usize) -> Result<Option<usize>> {
    let cutoff = &events[tt_index];
    let stored_depth = tt_cutoff(cutoff)?.stored_depth.unwrap_or(0);
    Ok((0..tt_index).rev().find(|&index| {
        let event = &events[index];
        event.ply == cutoff.ply && event.depth == stored_depth && event.kind != Kind::TtCutoff
    }))
}

/// The iterations after the decision's own that searched the line past it:
/// the line's move at the decision's ply (for a node at the line's end, the
/// move into it) searched at full depth, with no pruning decision against
/// the solver at or above that ply in the iteration.
fn searched_past_later(
    events: &[TraceEvent],
    cuts: &[Option<CutKind>],
    line: &[String],
    decision: &TraceEvent,
) -> Result<Vec<u32>> {
    let move_ply = if decision.ply < line.len() { decision.ply } else { decision.ply.saturating_sub(1) };
    let last_iteration = events.iter().map(|event| event.iteration).max().unwrap_or(0);
    let mut iterations = Vec::new();
    for iteration in decision.iteration + 1..=last_iteration {
        let indices = (0..events.len()).filter(|&index| events[index].iteration == iteration);
        let mut searched = false;
        let mut cut = false;
        for index in indices {
            let event = &events[index];
            if event.kind == Kind::MoveSearched && event.is_search() && event.ply == move_ply {
                searched |= searched_move(event)?.full_depth();
            }
            cut |= cuts[index] == Some(CutKind::Pruning) && event.ply <= decision.ply;
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
/// node futility at depth 4: ...`.
fn at(event: &TraceEvent) -> String {
    format!("at ply {}, depth {}, iteration {}: {}", event.ply, event.depth, event.iteration, event.detail)
}

/// A cut in words (a non-pruning reason without `not pruned: `).
fn reason_text(cut: CutKind, event: &TraceEvent, line: &[String]) -> String {
    match cut {
        CutKind::Lmr => format!(
            "reduced by LMR, the line's {} not re-searched at full depth, {}",
            line_move(line, event.ply),
            at(event)
        ),
        CutKind::Ordering => format!("ordering (a cutoff before the line's move) {}", at(event)),
        CutKind::TtCutoff => format!("TT cutoff {}", at(event)),
        CutKind::StandPat => format!("stand pat {}", at(event)),
        CutKind::Quiescence => {
            format!("quiescence does not search the quiet line move {} {}", line_move(line, event.ply), at(event))
        }
        CutKind::Pruning => format!("{} `{}` {} {}", event.technique, event.feature, event.kind.name(), at(event)),
    }
}

impl Verdict {
    /// One paragraph: the cause, where, the numbers, and what came later.
    pub fn text(&self, line: &[String]) -> String {
        let mut out = String::new();
        let reason = |event: &TraceEvent| cut_of(event).ok().flatten().map(|cut| reason_text(cut, event, line));
        match (&self.cause, &self.event) {
            (Cause::Pruned { .. }, Some(event)) => {
                out.push_str(&reason_text(CutKind::Pruning, event, line));
                if !self.via.is_empty() {
                    let via: Vec<String> = self
                        .via
                        .iter()
                        .map(|tt| format!("ply {} in iteration {} ({})", tt.ply, tt.iteration, tt.detail))
                        .collect();
                    write!(out, "; reached through the TT cutoff at {}", via.join(", then ")).unwrap();
                }
                let moved =
                    line_move(line, if event.ply < line.len() { event.ply } else { event.ply.saturating_sub(1) });
                match self.searched_past_later.as_slice() {
                    [] => write!(out, "; B never searched the line past it later").unwrap(),
                    later => {
                        let list: Vec<String> = later
                            .iter()
                            .map(|&iteration| {
                                let unfinished = if iteration > self.completed_depth { " (unfinished)" } else { "" };
                                format!("{iteration}{unfinished}")
                            })
                            .collect();
                        write!(
                            out,
                            "; B searched past it ({moved} at full depth) later, in iteration {}",
                            list.join(", ")
                        )
                        .unwrap()
                    }
                }
            }
            (Cause::Budget, event) => {
                write!(
                    out,
                    "not pruned: B's budget ended before depth {}: its last completed iteration is {}",
                    self.solution_depth.unwrap_or_default(),
                    self.completed_depth
                )
                .unwrap();
                if let Some(text) = event.as_ref().and_then(reason) {
                    write!(out, "; the nearest reason on the line there: {text}").unwrap();
                }
            }
            (Cause::SearchedFully { solution_score }, _) => {
                write!(
                    out,
                    "not pruned: B searched A's line in iteration {} without a cut against it",
                    self.completed_depth
                )
                .unwrap();
                if let Some(score) = solution_score {
                    write!(out, " and scored {} at {score}", line_move(line, 0)).unwrap();
                }
                write!(out, "; what B preferred lies off the line").unwrap();
            }
            (Cause::NoIteration, _) => write!(out, "B completed no iteration").unwrap(),
            (cause, Some(event)) => match reason(event) {
                Some(text) => write!(out, "not pruned: {text}").unwrap(),
                None => write!(out, "{}: {}", cause.reason(), at(event)).unwrap(),
            },
            (cause, None) => write!(out, "{}: no event recorded", cause.reason()).unwrap(),
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(lines: &str) -> Vec<TraceEvent> {
        lines.lines().filter(|line| !line.trim().is_empty()).map(|line| TraceEvent::parse(line).unwrap()).collect()
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

    #[test]
    fn a_pruning_decision_in_the_last_iteration_is_the_blame() {
        let trace = events(QUEEN_SACRIFICE);
        let line = line("g3g6 f7g6 c2g6");
        let verdict = blame(&trace, &line, 6, Some(3)).unwrap();
        assert_eq!(verdict.cause, Cause::Pruned { technique: "futility".into(), feature: "futility-node".into() });
        let event = verdict.event.as_ref().unwrap();
        // The first of iteration 6's three cuts at ply 2, in search order.
        assert_eq!((event.iteration, event.ply, event.depth), (6, 2, 2));
        assert!(verdict.via.is_empty());
        // Iteration 7 meets the TT's bound at ply 1 and never reaches c2g6.
        assert_eq!(verdict.searched_past_later, Vec::<u32>::new());
        assert_eq!(
            verdict.text(&line),
            "futility `futility-node` node-pruned at ply 2, depth 2, iteration 6: node futility at depth 2: \
             eval -1129 + margin 270 <= alpha -175: returns the eval; B never searched the line past it later"
        );
    }

    #[test]
    fn a_tt_cutoff_is_followed_back_to_the_search_that_stored_its_bound() {
        let trace = events(QUEEN_SACRIFICE);
        let line = line("g3g6 f7g6 c2g6");
        // Iteration 7 has no pruning decision: only the TT's lower bound at
        // ply 1, from depth 4, stored by iteration 6's last search of the node.
        let verdict = blame(&trace, &line, 7, Some(3)).unwrap();
        assert_eq!(verdict.cause, Cause::Pruned { technique: "futility".into(), feature: "futility-node".into() });
        let event = verdict.event.as_ref().unwrap();
        assert_eq!((event.iteration, event.ply, event.depth), (6, 2, 3));
        assert_eq!(verdict.via.len(), 1);
        assert_eq!((verdict.via[0].iteration, verdict.via[0].ply), (7, 1));
        assert!(
            verdict.text(&line).contains("reached through the TT cutoff at ply 1 in iteration 7"),
            "{}",
            verdict.text(&line)
        );
    }

    #[test]
    fn a_later_iteration_that_searches_past_the_cut_is_named() {
        let mut trace = events(QUEEN_SACRIFICE);
        trace.extend(events(
            "iter=8 ply=2 depth=5 move-searched search baseline | move 3 searched to depth 4 (first reduced by 1, then re-searched at full depth), window (-107, -106): score 31996",
        ));
        // Iteration 7 (complete) never got past the TT cutoff; iteration 8
        // (unfinished) searched c2g6 at full depth.
        let verdict = blame(&trace, &line("g3g6 f7g6 c2g6"), 7, Some(3)).unwrap();
        assert_eq!(verdict.searched_past_later, [8]);
        let text = verdict.text(&line("g3g6 f7g6 c2g6"));
        assert!(
            text.ends_with("; B searched past it (c2g6 at full depth) later, in iteration 8 (unfinished)"),
            "{text}"
        );
    }

    /// razor-r2 on WAC.023 at 50000 nodes, tracing p003-3's line: move
    /// count pruning skips the solver's quiet e1e2 at ply 2 in iteration 9.
    #[test]
    fn a_skipped_solver_move_is_blamed_and_the_opponents_are_not() {
        let trace = events(
            "iter=9 ply=3 depth=5 move-skipped move_count lmp | move 20 > limit 14 at depth 5 (not improving)
             iter=9 ply=2 depth=7 move-skipped move_count lmp | move 32 > limit 30 at depth 7 (not improving)
             iter=9 ply=1 depth=8 move-searched search baseline | move 1 searched to depth 7 (first reduced by 0), window (-91, -90): score -85
             iter=9 ply=0 depth=9 move-searched search baseline | move 3 searched to depth 8 (first reduced by 0), window (90, 115): score 85",
        );
        let line = line("g2g4 f5c2 e1e2 c2e2");
        let verdict = blame(&trace, &line, 9, Some(10)).unwrap();
        assert_eq!(verdict.cause, Cause::Pruned { technique: "move_count".into(), feature: "lmp".into() });
        assert_eq!(verdict.event.as_ref().unwrap().ply, 2);
        // The opponent's move skipped at ply 3 would leave it other defences
        // only: alone, it blames nothing, and the budget explains the loss.
        let verdict = blame(&trace[..1], &line, 9, Some(10)).unwrap();
        assert_eq!(verdict.cause, Cause::Budget);
        assert_eq!(verdict.event, None);
    }

    #[test]
    fn fail_high_prunes_count_at_opponent_nodes_and_fail_low_ones_at_the_solvers() {
        let trace = events(
            "iter=4 ply=1 depth=2 node-pruned razoring razor-r1 | razor d2: eval -700 + margin 500 <= alpha -200; qsearch(alpha, alpha + 1) <= alpha: returns -650
             iter=4 ply=3 depth=1 node-pruned null_move baseline | null move at depth 1, R 2: score 400 >= beta 120
             iter=4 ply=2 depth=2 node-pruned reverse_futility rfp-simple | static null move at depth 2: eval 600 - margin 180 >= beta 50",
        );
        let verdict = blame(&trace, &line("a2a3 a7a6 b2b3 b7b6"), 4, Some(4)).unwrap();
        // Razoring at ply 1 judged the opponent lost, and reverse futility at
        // ply 2 the solver winning: both for the solver. Null move at ply 3
        // judged the opponent winning.
        assert_eq!(verdict.cause, Cause::Pruned { technique: "null_move".into(), feature: "baseline".into() });
        assert_eq!(verdict.event.unwrap().ply, 3);
    }

    #[test]
    fn reductions_count_at_any_ply_and_extensions_never() {
        let trace = events(
            "iter=5 ply=1 depth=3 move-depth singular singular-ext | singular: the others stay below 80 at depth 1: one ply deeper
             iter=5 ply=3 depth=2 move-depth razoring razor-crafty | crafty razor d2: child eval -300 + 50 < alpha -100: one ply shallower",
        );
        let verdict = blame(&trace, &line("a2a3 a7a6 b2b3 b7b6"), 5, Some(5)).unwrap();
        assert_eq!(verdict.cause, Cause::Pruned { technique: "razoring".into(), feature: "razor-crafty".into() });
        assert_eq!(verdict.event.unwrap().ply, 3);
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
        let verdict = blame(&trace, &line, 9, Some(9)).unwrap();
        assert_eq!(verdict.cause, Cause::Lmr);
        assert_eq!(verdict.event.as_ref().unwrap().ply, 2);
        assert!(verdict.text(&line).starts_with(
            "not pruned: reduced by LMR, the line's g8g5 not re-searched at full depth, at ply 2, depth 7"
        ));
        // The same search re-searched at full depth: the TT cutoff at ply 3
        // is the reason left; its bound's search is not in the trace.
        let mut researched = trace.clone();
        researched[1].detail =
            "move 14 searched to depth 6 (first reduced by 3, then re-searched at full depth), window (117, 118): score 95".into();
        let verdict = blame(&researched, &line, 9, Some(9)).unwrap();
        assert_eq!(verdict.cause, Cause::TtCutoff);
        assert_eq!(verdict.event.unwrap().ply, 3);
    }

    #[test]
    fn ordering_stand_pat_and_quiescence_count_on_their_own_side_only() {
        let line = line("a2a3 a7a6 b2b3 b7b6");
        let reason = |text: &str| blame(&events(text), &line, 3, Some(3)).unwrap().cause;
        assert_eq!(reason("iter=3 ply=1 depth=2 cut-before search baseline | h7h6 cut off at move 1 (score 40) before the line's a7a6"), Cause::Ordering);
        assert_eq!(
            reason("iter=3 ply=3 depth=0 stand-pat search baseline | quiescence stands pat: static eval 30 >= beta 20"),
            Cause::StandPat
        );
        assert_eq!(
            reason("iter=3 ply=2 depth=0 move-skipped search baseline | quiescence tries captures and queen promotions only: the line's quiet b2b3 is not searched"),
            Cause::Quiescence
        );
        // The same decisions at the other side's nodes help the solver.
        let fully = Cause::SearchedFully { solution_score: None };
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
            Cause::TtCutoff
        );
    }

    #[test]
    fn a_line_searched_without_a_cut_says_so_with_the_score() {
        let trace = events(
            "iter=4 ply=1 depth=3 move-searched search baseline | move 1 searched to depth 2 (first reduced by 0), window (-66, -65): score -33
             iter=4 ply=0 depth=4 move-searched search baseline | move 6 searched to depth 3 (first reduced by 0), window (65, 99): score 33",
        );
        let line = line("g2g4 f5c2");
        let verdict = blame(&trace, &line, 4, Some(4)).unwrap();
        assert_eq!(verdict.cause, Cause::SearchedFully { solution_score: Some(33) });
        assert_eq!(
            verdict.text(&line),
            "not pruned: B searched A's line in iteration 4 without a cut against it and scored g2g4 at 33; what B preferred lies off the line"
        );
        assert_eq!(blame(&trace, &line, 0, Some(4)).unwrap().cause, Cause::NoIteration);
    }

    #[test]
    fn verdicts_keep_their_cause_in_json() {
        let trace = events(QUEEN_SACRIFICE);
        let verdict = blame(&trace, &line("g3g6 f7g6 c2g6"), 6, Some(3)).unwrap();
        let json = serde_json::to_value(&verdict).unwrap();
        assert_eq!(json["cause"], "pruned");
        assert_eq!(json["technique"], "futility");
        assert_eq!(json["feature"], "futility-node");
        assert_eq!(json["event"]["kind"], "node-pruned");
        let back: Verdict = serde_json::from_value(json).unwrap();
        assert_eq!(back, verdict);
    }
}
