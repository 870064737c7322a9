//! Null move pruning: give the opponent a free move; if a reduced search
//! still fails high, the node is very likely to fail high too.
//!
//! Phases, side by side:
//! - Baseline (the plans' starting point): non-PV nodes, not in check, not
//!   straight after another null move, static eval ≥ beta, and the side to
//!   move has a piece other than pawns and king (zugzwang is then rare).
//!   R = 2, a ply more from depth 6 and another from depth 12, and no eval
//!   term: plan 003 (2.3) proposes "R=3 base instead of R=2" and "eval-based
//!   R adjustment" as changes, so the starting engine had neither; the depth
//!   steps are the starting engine's (SeaJay's published search of that
//!   time), which the plans do not state. A null-move mate is returned as
//!   beta, as the engine the plans describe did before and after 1.4.
//! - Plan 003, 2.3, "Null Move Refinement": "Test R=3 base instead of R=2
//!   for stronger reduction", "Add eval-based R adjustment". The plan gives
//!   no formula, so both readings are features (exclusive):
//!   - `nmp-r3-steps` (the text as written): the base goes from 2 to 3 and
//!     the baseline's depth steps stay (R = 3, 4 from depth 6, 5 from depth
//!     12), plus one ply when the static eval exceeds beta by more than
//!     200 cp (`NullMoveEvalMargin`): the eval term SeaJay, the plans'
//!     engine, added the day after the plan (`nullMoveEvalMargin = 200`,
//!     `staticEval - beta > margin`: `nullMoveReduction++`).
//!   - `nmp-r3-eval` (Stockfish's shape, and this repository's baseline
//!     until the baseline was read from plan 003): R = 3, a ply more per
//!     four plies of depth, and up to three more the further the static
//!     eval is above beta (a ply per 200 cp). It drops the depth steps, so
//!     R is a ply larger than the text's at depths 4-5 and 8-15 (before the
//!     eval term).
//! - `nmp-verify-12` (plan 002, 1.4: "Verification search at reduced depth",
//!   `negamax(board, depth - nullMoveReduction - 1, ply, beta - 1, beta,
//!   ..., false)`): a fail-high at depth ≥ 12 is verified by a null-window,
//!   non-PV search of the node itself at depth − R − 1, an ordinary search
//!   in which null move stays allowed (the call's last argument is the
//!   node's PV flag). If the verification fails low the node is searched
//!   normally; otherwise the null score is returned (beta for a mate score).
//! - `nmp-verify-10` (1.5): the same from depth 10.
//! - `nmp-mate-searched` (1.4's code as written; implies `nmp-verify-12`):
//!   the snippet returns the null score only when it is not a mate score
//!   (`if (std::abs(nullScore.value()) < MATE_BOUND - MAX_PLY) return
//!   nullScore;`) and has no `else`, so a fail-high with a mate score falls
//!   through to the normal search, verified or not. Its engine returned
//!   beta there, before 1.4 and after; `nmp-verify-12` keeps that.
//!
//!   Neither acts in the plans' depth-10 measurements: from a depth-10
//!   root, the only node of depth 10 is the root itself (a PV node), and
//!   deeper nodes exist only through check extensions, so p002-1.4 searches
//!   exactly as p002-1.3 on the seeds and p002-1.5 almost so. Their
//!   variants' witnesses are depth-11 and depth-13 searches, where they act.
//! - `nmp-verify-no-null` (the other reading of 1.4, after Stockfish's
//!   verification and this repository's until the plan was read again):
//!   the verification subtree searches without null move. Its node type is
//!   `Verification`, whose `NULL_MOVE` is false, so this is a compile-time
//!   fact.
//!
//! Telemetry: `null: att=X cut=Y cut%=Z.Z%`, where `cut` counts the null
//! searches that failed high, before any verification, as plan 002's 1.4
//! code (`info.nullMoveStats.cutoffs++` first) and SeaJay count it (plan
//! 003's "null cut% > 35%" is this rate); with verification `verify=V
//! verify_fail=F` (the nodes pruned are `cut - verify_fail`, less the
//! mates searched), with `nmp-mate-searched` `mate_searched=M`.
//!
//! Measured: full-without-null_move against full: +4.2 Elo [-12.9, +21.2], 1000 games at 10000 nodes a move.

use cozy_chess::Board;

use crate::context::Context;
use crate::position::non_pawn_material;
use crate::score::MATE_BOUND;
use crate::search::{Node, NodeType, Verification};
use crate::techniques::{Hooks, NodeVerdict, Technique, TechniqueCounters, TechniqueSet, Techniques, COMPILED};
use crate::trace::TraceKind;
use crate::tune::Tunable;
use crate::{counters, features, tunables};

/// Which null-move features are on (null move itself is always on: it is
/// part of the baseline).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NullMovePruning {
    /// `nmp-r3-eval`
    pub r3_eval: bool,
    /// `nmp-r3-steps`
    pub r3_steps: bool,
    /// `nmp-verify-12`
    pub verify_12: bool,
    /// `nmp-verify-10`
    pub verify_10: bool,
    /// `nmp-verify-no-null`
    pub no_null_verification: bool,
    /// `nmp-mate-searched`
    pub mate_searched: bool,
}

features! {
    NullMovePruning {
        r3_eval: "nmp-r3-eval" [] "plan 003, 2.3 (Stockfish's shape)"
            => "null-move R = 3 + depth/4 + up to 3 for eval above beta (R = 2 before)";
        r3_steps: "nmp-r3-steps" [] "plan 003, 2.3 (as written, with its engine's eval term)"
            => "null-move R = 3, a ply more from depths 6 and 12, and one when eval exceeds beta by 200";
        // Verification needs a non-PV node of depth 10 or 12: deeper roots.
        verify_12: "nmp-verify-12" [] "plan 002, 1.4" => "verify null-move fail-highs at depth >= 12",
            witness "4B3/8/p7/k2N4/7p/K6p/PP5P/2q5 w - - 0 1" depth 13;
        verify_10: "nmp-verify-10" ["nmp-verify-12"] "plan 002, 1.5" => "verify null-move fail-highs at depth >= 10",
            witness "4B3/8/p7/k2N4/7p/K6p/PP5P/2q5 w - - 0 1" depth 11;
        no_null_verification: "nmp-verify-no-null" ["nmp-verify-12"] "plan 002, 1.4 (null-free reading)"
            => "the verification subtree searches without null move",
            witness "4B3/8/p7/k2N4/7p/K6p/PP5P/2q5 w - - 0 1" depth 13;
        // A null-move mate needs a side that mates whatever the other does.
        mate_searched: "nmp-mate-searched" ["nmp-verify-12"] "plan 002, 1.4 (its code as written)"
            => "a null-move fail-high with a mate score prunes nothing: the node is searched",
            witness "8/8/8/4k3/8/8/8/4K2Q w - - 0 1" depth 10;
    }
    exclusive "readings of plan 003's 2.3": ["nmp-r3-eval", "nmp-r3-steps"];
}

counters! {
    /// `null:` telemetry.
    pub struct NullMoveCounters {
        /// Null moves searched, and those that failed high (the plans'
        /// `cut`, counted before any verification, as plan 002's 1.4 code
        /// and SeaJay count it).
        pub attempts: u64,
        pub cutoffs: u64,
        /// Verification searches, and those that failed low.
        pub verifications: u64,
        pub verify_fails: u64,
        /// `nmp-mate-searched`: fail-highs with a mate score, searched.
        pub mates_searched: u64,
    }
}

tunables! {
    NULL_MOVE_MIN_DEPTH: 3, 1, 6, 1;
    /// R before any depth or eval term (2; 3 with `nmp-r3-eval`).
    NULL_MOVE_BASE_REDUCTION: COMPILED.null_move.base_reduction(), 1, 5, 1;
    /// `nmp-r3-eval`: plies of depth per extra ply of reduction.
    NULL_MOVE_DEPTH_DIVISOR: 4, 2, 8, 1;
    /// `nmp-r3-eval`: centipawns of eval above beta per extra ply of reduction.
    NULL_MOVE_EVAL_DIVISOR: 200, 50, 400, 25;
    /// `nmp-r3-steps`: one ply more when the eval exceeds beta by more than this.
    NULL_MOVE_EVAL_MARGIN: 200, 50, 400, 25;
}

/// The most plies the eval margin adds to R.
const NULL_MOVE_MAX_EVAL_REDUCTION: i32 = 3;

impl NullMovePruning {
    /// Verify fail-highs at this depth and deeper; 0 means never.
    pub const fn verify_min_depth(&self) -> i32 {
        if self.verify_10 {
            10
        } else if self.verify_12 {
            12
        } else {
            0
        }
    }

    /// The feature that sets R.
    pub const fn feature(&self) -> &'static str {
        if self.r3_eval {
            "nmp-r3-eval"
        } else if self.r3_steps {
            "nmp-r3-steps"
        } else {
            "baseline"
        }
    }

    /// The feature that sets the verification.
    pub const fn verify_feature(&self) -> &'static str {
        if self.no_null_verification {
            "nmp-verify-no-null"
        } else if self.verify_10 {
            "nmp-verify-10"
        } else {
            "nmp-verify-12"
        }
    }

    pub const fn verifies(&self) -> bool {
        self.verify_min_depth() > 0
    }
}

/// Whether the node may try a null move (PV nodes, check and a preceding
/// null move are excluded by the caller).
pub fn null_move_applies(board: &Board, depth: i32, static_eval: i32, beta: i32) -> bool {
    depth >= NULL_MOVE_MIN_DEPTH.get() && static_eval >= beta && non_pawn_material(board, board.side_to_move())
}

impl NullMovePruning {
    /// R before any depth or eval term.
    pub const fn base_reduction(&self) -> i32 {
        if self.r3_eval || self.r3_steps {
            3
        } else {
            2
        }
    }

    /// The depth reduction R; the null move is searched at `depth − R − 1`.
    pub fn reduction(&self, depth: i32, static_eval: i32, beta: i32) -> i32 {
        let base = NULL_MOVE_BASE_REDUCTION.value_or(self.base_reduction());
        if self.r3_eval {
            return base
                + depth / NULL_MOVE_DEPTH_DIVISOR.get()
                + ((static_eval - beta) / NULL_MOVE_EVAL_DIVISOR.get()).min(NULL_MOVE_MAX_EVAL_REDUCTION);
        }
        let steps = base + i32::from(depth >= 6) + i32::from(depth >= 12);
        if self.r3_steps {
            steps + i32::from(static_eval - beta > NULL_MOVE_EVAL_MARGIN.get())
        } else {
            steps
        }
    }
}

impl Hooks for NullMovePruning {
    /// The null move step: the node is pruned when the side to move, passing,
    /// still reaches beta.
    fn prune_node<T: TechniqueSet, NT: NodeType>(cx: &mut Context<'_, '_, T, Self>, node: &Node) -> NodeVerdict {
        if NT::PV
            || !NT::NULL_MOVE
            || cx.entry(node.ply).null_move_played
            || !null_move_applies(node.board, node.depth, node.static_eval, node.beta)
        {
            return NodeVerdict::Continue;
        }
        let Some(mut null_board) = node.board.null_move() else {
            return NodeVerdict::Continue;
        };
        // Nothing before a null move can repeat a position after it.
        null_board.set_halfmove_clock(0);
        let (depth, beta, ply) = (node.depth, node.beta, node.ply);
        cx.counters().attempts += 1;
        let reduction = T::TECHNIQUES.null_move.reduction(depth, node.static_eval, beta);
        let score = cx.after_move(node, None, |cx| {
            -cx.search::<NT::NonPvChild>(&null_board, depth - reduction - 1, -beta, -beta + 1, ply + 1)
        });
        if cx.aborted() || score < beta {
            return NodeVerdict::Continue;
        }
        // Plan 002's 1.4 code counts the cutoff here, before verification.
        cx.counters().cutoffs += 1;

        let verify_min_depth = T::TECHNIQUES.null_move.verify_min_depth();
        if verify_min_depth > 0 && depth >= verify_min_depth {
            cx.counters().verifications += 1;
            let verify_depth = depth - reduction - 1;
            let verified = if T::TECHNIQUES.null_move.no_null_verification {
                cx.search::<Verification>(node.board, verify_depth, beta - 1, beta, ply)
            } else {
                cx.search::<NT::NonPvChild>(node.board, verify_depth, beta - 1, beta, ply)
            };
            if cx.aborted() {
                return NodeVerdict::Continue;
            }
            if verified < beta {
                cx.counters().verify_fails += 1;
                return NodeVerdict::Continue;
            }
        }
        let mate = score >= MATE_BOUND;
        if mate && T::TECHNIQUES.null_move.mate_searched {
            cx.counters().mates_searched += 1;
            return NodeVerdict::Continue;
        }
        if cx.traces(ply) {
            let null_move = T::TECHNIQUES.null_move;
            let verified =
                if null_move.verifies() && depth >= null_move.verify_min_depth() { ", verified" } else { "" };
            let feature = if verified.is_empty() { null_move.feature() } else { null_move.verify_feature() };
            let detail = format!("null move at depth {depth}, R {reduction}: score {score} >= beta {beta}{verified}");
            cx.trace(ply, depth, TraceKind::NodePruned, feature, detail);
        }
        // A null-move mate is not a proven mate.
        NodeVerdict::Prune(if mate { beta } else { score })
    }
}

impl Technique for NullMovePruning {
    const NAME: &'static str = "null_move";
    type Counters = NullMoveCounters;

    fn of(set: &Techniques) -> &Self {
        &set.null_move
    }

    fn counters(all: &TechniqueCounters) -> &NullMoveCounters {
        &all.null_move
    }

    fn counters_mut(all: &mut TechniqueCounters) -> &mut NullMoveCounters {
        &mut all.null_move
    }
    const ALWAYS_ON: bool = true;

    /// `null: att=X cut=Y cut%=Z.Z%`, always (a baseline technique); with
    /// verification, then `verify=V verify_fail=F`; with
    /// `nmp-mate-searched`, `mate_searched=M`. A node pruned is a `cut`
    /// that neither failed verification nor was searched for its mate.
    fn report(&self, counters: &NullMoveCounters) -> Vec<String> {
        let mut line = format!("null: {}", crate::stats::rate(counters.attempts, counters.cutoffs));
        if self.verifies() {
            line.push_str(&format!(" verify={} verify_fail={}", counters.verifications, counters.verify_fails));
        }
        if self.mate_searched {
            line.push_str(&format!(" mate_searched={}", counters.mates_searched));
        }
        vec![line]
    }

    /// `null` null moves / fail-highs; `null_verify` verifications / the
    /// fail-highs they confirmed.
    fn snapshot_counters(counters: &NullMoveCounters) -> Vec<(&'static str, u64, u64)> {
        vec![
            ("null", counters.attempts, counters.cutoffs),
            ("null_verify", counters.verifications, counters.verifications - counters.verify_fails),
        ]
    }

    fn tunable_list() -> &'static [&'static Tunable] {
        TUNABLES
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::techniques::Techniques;

    #[test]
    fn reduction_grows_with_depth_and_eval_margin() {
        let baseline = NullMovePruning::BASELINE;
        assert_eq!([3, 5, 6, 11, 12, 20].map(|depth| baseline.reduction(depth, 900, 0)), [2, 2, 3, 3, 4, 4]);
        let r3_eval = NullMovePruning::BASELINE.with("nmp-r3-eval");
        assert_eq!(r3_eval.reduction(3, 0, 0), 3);
        assert_eq!(r3_eval.reduction(8, 0, 0), 5);
        assert_eq!(r3_eval.reduction(8, 450, 0), 7);
        assert_eq!(r3_eval.reduction(8, 5000, 0), 8);
        // The plan's reading: the baseline's steps a ply higher, and one
        // more above beta + 200 (strictly, as SeaJay's `>`).
        let r3_steps = NullMovePruning::BASELINE.with("nmp-r3-steps");
        assert_eq!([3, 5, 6, 11, 12, 20].map(|depth| r3_steps.reduction(depth, 0, 0)), [3, 3, 4, 4, 5, 5]);
        assert_eq!([199, 200, 201, 5000].map(|eval| r3_steps.reduction(8, eval, 0)), [4, 4, 5, 5]);
    }

    #[test]
    fn pawn_endings_never_try_a_null_move() {
        let pawns_only = Board::from_fen("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1", false).unwrap();
        assert!(!null_move_applies(&pawns_only, 6, 100, 0));
        let with_knight = Board::from_fen("4k3/4p3/8/8/8/8/4P3/4KN2 w - - 0 1", false).unwrap();
        assert!(null_move_applies(&with_knight, 6, 100, 0));
        assert!(!null_move_applies(&with_knight, 2, 100, 0));
        assert!(!null_move_applies(&with_knight, 6, -1, 0));
    }

    #[test]
    fn verification_depths_follow_the_plan() {
        let depth = |features: &[&str]| Techniques::from_features(features).unwrap().null_move.verify_min_depth();
        assert_eq!(depth(&[]), 0);
        assert_eq!(depth(&["nmp-verify-12"]), 12);
        assert_eq!(depth(&["nmp-verify-10"]), 10);
    }
}
