//! ProbCut: at a deep non-PV node, a good capture whose reduced-depth search
//! beats beta by a margin would very probably beat beta at full depth too, so
//! the node fails high on the shallow result.
//!
//! Also called: "probabilistic cutoff" (Buro's ProbCut, from Othello; chess
//! engines use the simplified form below: one margin, one reduced depth,
//! no statistics), Stockfish's ProbCut step.
//!
//! Phases, side by side:
//! - `probcut` (plan 003, 3.2: "Cut nodes where shallow search predicts
//!   fail-high"; plan 002's phase 5.1, "Shallow search to predict deep
//!   failures", has no more detail): non-PV, not in check, not in a
//!   singular-exclusion search (both excluded by the caller), depth ≥ 5,
//!   |beta| below the mate bound; the node itself is searched at depth − 4
//!   with beta raised by 100 (the plan's `negamax(depth - 4, -beta -
//!   probcutMargin, -beta)`, read from the node's side: the window (beta,
//!   beta + 100)); a score ≥ beta + 100 is returned. No move is made and no
//!   capture chosen: that is the plan's whole description.
//! - `probcut-sf` (Stockfish's ProbCut, this repository's `probcut` until
//!   the plan was read again): the same node conditions. With
//!   `rbeta = beta + 100` (`ProbcutMargin`), every capture (and queen
//!   promotion, as in Stockfish's capture stage) in MVV-LVA order with
//!   `SEE ≥ rbeta − static_eval` is played and first checked by a null-window
//!   quiescence search around rbeta from the child's view
//!   (`−qsearch(−rbeta, −rbeta + 1)`); only when that is ≥ rbeta does a
//!   null-window search at depth − 4 (`ProbcutReduction`: the child's
//!   depth, as Stockfish's `depth − 4`) confirm it. When both are ≥ rbeta
//!   the node returns that score. Like Stockfish, the cut is stored in the
//!   transposition table as a lower bound at depth − 3 with the capture as
//!   its move. Stockfish's extra gate (skip when a TT entry of depth ≥
//!   depth − 3 already scores below rbeta) is left out.
//!
//! Telemetry: `probcut: att=X cut=Y cut%=Z.Z% moves=M deep=D
//! pc_b=[d5-6,d7-8,d9-10,d11+]`: an attempt is a node that met the node
//! conditions, `moves` counts captures played (`probcut-sf`), `deep` the
//! depth − 4 searches, and the buckets count cutoffs by depth.
//!
//! Measured: full-without-probcut is no ablation: no feature of probcut is in full.

use crate::context::Context;
use crate::movepick::{self, pick_next, ScoredMove};
use crate::score::MATE_BOUND;
use crate::search::{Node, NodeType};
use crate::see::see_ge;
use crate::techniques::{Hooks, NodeVerdict, Technique, TechniqueCounters, TechniqueSet, Techniques};
use crate::trace::TraceKind;
use crate::tt::Bound;
use crate::tune::Tunable;
use crate::{counters, features, tunables};

/// Which ProbCut is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbCut {
    /// `probcut`
    pub plan: bool,
    /// `probcut-sf`
    pub stockfish: bool,
}

features! {
    ProbCut {
        plan: "probcut" [] "plan 003, 3.2 (plan 002, 5.1)"
            => "a depth - 4 search of the node beating beta + 100 cuts it";
        stockfish: "probcut-sf" [] "Stockfish"
            => "captures with SEE >= rbeta - eval cut when qsearch and a depth - 4 search beat beta + 100";
    }
    exclusive "ProbCut styles": ["probcut", "probcut-sf"];
}

counters! {
    /// `probcut:` telemetry.
    pub struct ProbCutCounters {
        /// Nodes that met the node conditions, and nodes cut.
        pub attempts: u64,
        pub cutoffs: u64,
        /// Cutoffs at depths 5-6, 7-8, 9-10, 11+.
        pub by_depth: [u64; 4],
        /// Captures played.
        pub moves: u64,
        /// Depth − 4 searches their quiescence result earned.
        pub deep_searches: u64,
    }
}

tunables! {
    /// rbeta = beta + this.
    PROBCUT_MARGIN: 100, 50, 300, 10;
    /// ProbCut runs at this depth and deeper.
    PROBCUT_MIN_DEPTH: 5, 3, 10, 1;
    /// The confirming search runs at depth − this.
    PROBCUT_REDUCTION: 4, 2, 6, 1;
}

/// A cut is stored as a lower bound at depth − this (Stockfish).
pub const PROBCUT_TT_DEPTH_REDUCTION: i32 = 3;

impl ProbCut {
    pub const fn is_on(&self) -> bool {
        self.plan || self.stockfish
    }
}

/// The raised beta the captures must reach.
pub fn probcut_beta(beta: i32) -> i32 {
    beta + PROBCUT_MARGIN.get()
}

/// Whether a node may try ProbCut (the caller excludes check and PV nodes).
pub fn probcut_applies(depth: i32, beta: i32) -> bool {
    depth >= PROBCUT_MIN_DEPTH.get() && beta.abs() < MATE_BOUND
}

/// Depth bucket for `pc_b`: d5-6, d7-8, d9-10, d11+.
fn bucket(depth: i32) -> usize {
    ((depth - 5).max(0) / 2).min(3) as usize
}

/// Plan 003's ProbCut: the node itself, searched at depth − 4 in the
/// window (beta, rbeta); the score to return when it fails high.
fn plan_probcut<T: TechniqueSet, NT: NodeType>(
    cx: &mut Context<'_, '_, T, ProbCut>,
    node: &Node,
    rbeta: i32,
) -> NodeVerdict {
    cx.counters().deep_searches += 1;
    let reduced_depth = node.depth - PROBCUT_REDUCTION.get();
    let score = cx.search::<NT::NonPvChild>(node.board, reduced_depth, node.beta, rbeta, node.ply);
    if cx.aborted() || score < rbeta {
        return NodeVerdict::Continue;
    }
    let counters = cx.counters();
    counters.cutoffs += 1;
    counters.by_depth[bucket(node.depth)] += 1;
    if cx.traces(node.ply) {
        let detail = format!("probcut: depth {reduced_depth} search {score} >= beta {} + margin = {rbeta}", node.beta);
        cx.trace(node.ply, node.depth, TraceKind::NodePruned, "probcut", detail);
    }
    NodeVerdict::Prune(score)
}

impl Hooks for ProbCut {
    /// The ProbCut step: the node is pruned when a capture's reduced search
    /// proves it fails high.
    fn prune_node<T: TechniqueSet, NT: NodeType>(cx: &mut Context<'_, '_, T, Self>, node: &Node) -> NodeVerdict {
        if !T::TECHNIQUES.probcut.is_on() || NT::PV || !probcut_applies(node.depth, node.beta) {
            return NodeVerdict::Continue;
        }
        debug_assert!(!node.in_check, "probcut in check");
        debug_assert!(cx.entry(node.ply).excluded_move.is_none(), "probcut in a singular search");
        let (board, depth, ply) = (node.board, node.depth, node.ply);
        let rbeta = probcut_beta(node.beta);
        cx.counters().attempts += 1;
        if T::TECHNIQUES.probcut.plan {
            return plan_probcut::<T, NT>(cx, node, rbeta);
        }
        let see_threshold = rbeta - node.static_eval;

        // The move loop regenerates this ply's list afterwards, so ProbCut
        // borrows it rather than allocating.
        let result = cx.with_move_list(ply, |cx, moves| {
            movepick::generate(board, true, moves);
            movepick::score_tactical(moves);
            let mut picked = 0;
            while let Some(ScoredMove { mv, .. }) = pick_next(moves, picked) {
                picked += 1;
                if !see_ge(board, mv, see_threshold) {
                    continue;
                }
                cx.counters().moves += 1;
                let mut child = board.clone();
                child.play_unchecked(mv);
                let score = cx.after_move(node, Some(mv), |cx| {
                    let score = -cx.qsearch::<NT::NonPvChild>(&child, -rbeta, -rbeta + 1, ply + 1);
                    if score < rbeta || cx.aborted() {
                        return score;
                    }
                    cx.counters().deep_searches += 1;
                    let reduced_depth = depth - PROBCUT_REDUCTION.get();
                    -cx.search::<NT::NonPvChild>(&child, reduced_depth, -rbeta, -rbeta + 1, ply + 1)
                });
                if cx.aborted() {
                    return NodeVerdict::Continue;
                }
                if score >= rbeta {
                    cx.store(node, Some(mv), score, depth - PROBCUT_TT_DEPTH_REDUCTION, Bound::Lower);
                    let counters = cx.counters();
                    counters.cutoffs += 1;
                    counters.by_depth[bucket(depth)] += 1;
                    if cx.traces(ply) {
                        let detail = format!(
                            "probcut: capture {} searched to depth {} gives {score} >= rbeta {rbeta}",
                            crate::position::move_to_uci(board, mv),
                            depth - PROBCUT_REDUCTION.get()
                        );
                        cx.trace(ply, depth, TraceKind::NodePruned, "probcut-sf", detail);
                    }
                    return NodeVerdict::Prune(score);
                }
            }
            NodeVerdict::Continue
        });
        if cx.aborted() {
            return NodeVerdict::Continue;
        }
        result
    }
}

impl Technique for ProbCut {
    const NAME: &'static str = "probcut";
    type Counters = ProbCutCounters;

    fn of(set: &Techniques) -> &Self {
        &set.probcut
    }

    fn counters(all: &TechniqueCounters) -> &ProbCutCounters {
        &all.probcut
    }

    fn counters_mut(all: &mut TechniqueCounters) -> &mut ProbCutCounters {
        &mut all.probcut
    }

    /// `probcut: att=X cut=Y cut%=Z.Z% moves=M deep=D pc_b=[d5-6,d7-8,d9-10,d11+]`.
    fn report(&self, counters: &ProbCutCounters) -> Vec<String> {
        if !self.is_on() {
            return Vec::new();
        }
        vec![format!(
            "probcut: {} moves={} deep={} pc_b={}",
            crate::stats::rate(counters.attempts, counters.cutoffs),
            counters.moves,
            counters.deep_searches,
            crate::stats::buckets(&counters.by_depth)
        )]
    }

    fn snapshot_counters(counters: &ProbCutCounters) -> Vec<(&'static str, u64, u64)> {
        vec![("probcut", counters.attempts, counters.cutoffs)]
    }

    fn tunable_list() -> &'static [&'static Tunable] {
        TUNABLES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_numbers() {
        assert_eq!(PROBCUT_MARGIN.get(), 100);
        assert_eq!(PROBCUT_MIN_DEPTH.get(), 5);
        assert_eq!(PROBCUT_REDUCTION.get(), 4);
        assert_eq!(PROBCUT_TT_DEPTH_REDUCTION, 3);
        assert_eq!(probcut_beta(40), 140);
        assert_eq!(probcut_beta(-250), -150);
    }

    #[test]
    fn applies_from_depth_5_outside_mate_scores() {
        assert!(!probcut_applies(4, 0));
        assert!(probcut_applies(5, 0));
        assert!(probcut_applies(12, MATE_BOUND - 1));
        assert!(!probcut_applies(12, MATE_BOUND));
        assert!(!probcut_applies(12, -MATE_BOUND));
    }

    #[test]
    fn buckets_pair_depths() {
        assert_eq!([5, 6, 7, 8, 9, 10, 11, 30].map(bucket), [0, 0, 1, 1, 2, 2, 3, 3]);
    }

    #[test]
    fn report_only_when_on() {
        assert!(ProbCut::BASELINE.report(&ProbCutCounters::default()).is_empty());
        let lines = ProbCut::BASELINE.with("probcut").report(&ProbCutCounters::default());
        assert_eq!(lines, ["probcut: att=0 cut=0 cut%=0.0% moves=0 deep=0 pc_b=[0,0,0,0]"]);
    }
}
