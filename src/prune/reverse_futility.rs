//! Reverse futility pruning, also called static null move pruning (Ethereal:
//! "beta pruning"): when the static eval is so far above beta that even a
//! depth-scaled margin cannot bring it down, the node fails high without a
//! search. It returns `static_eval − margin`.
//!
//! Phases, side by side:
//! - Baseline (the plans' starting point): non-PV, not in check,
//!   0 < depth ≤ 3, |beta| below the mate bound, and only when the side to
//!   move's material balance minus beta exceeds −200; margin 120 cp × depth.
//! - `rfp-margin-90` (plan 002, 1.1: "Null Move Static Margin ... Reduce
//!   from 120cp to 90cp"): margin 90 cp × depth. The plan calls reverse
//!   futility its "null move static margin"; the feature is named for the
//!   technique it changes, as the others here are.
//! - `rfp-depth-6` (1.2a: "Increase static null move pruning from depth <=
//!   3 to depth <= 6"): depth ≤ 6.
//! - `rfp-no-material-gate` (1.2b, "Implementation Option A - Remove the
//!   check entirely"): no material-balance pre-check. It rarely changes a
//!   search: the gate refuses only nodes whose material is more than 200
//!   below beta, where a cutoff needs the eval to exceed the material by
//!   200 plus the margin. On the plan's own test position
//!   (`r1bqkb1r/pppp1ppp/2n2n2/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4`,
//!   "Should see fewer nodes with the fix") it adds 576 attempts at depth 8
//!   and no cutoff, and on seeds.epd at depth 10 none either; the plan's
//!   premise ("This PREVENTS pruning when we're ahead!") misreads the gate,
//!   which blocks only when behind. Its variant's witness is a position with
//!   compensation for material, where it acts.
//! - `rfp-material-ahead` (1.2b, "Option B - Invert the logic"): prune only
//!   when the side to move's material balance is ≥ 0. Exclusive with
//!   Option A.
//! - `rfp-simple` (1.2c, Publius): evaluate directly, gated instead on the
//!   side to move's non-pawn material being above the engine's
//!   `ZUGZWANG_THRESHOLD`; implies 1.2a and 1.2b. The plan names the
//!   constant without its value; the plans' engine used a rook and a bishop
//!   (830) for it, the default of `ReverseFutilityZugzwangLowerLimit`.
//! - 1.6: the per-ply margin is the tunable `ReverseFutilityDepthMargin`, range
//!   50-200 as 1.6's SPSA configuration has it (1.2's note says 50-300).
//! - `rfp-progressive` (plan 003, 1.2): depth ≤ 8 with the plan's margin
//!   table 85, 170, 255, 320, 375, 420, 455, 480.
//! - `rfp-progressive-formula` (plan 003, 1.2, its formula): depth ≤ 8,
//!   85·d to depth 3, then 255 + (d − 3)·42.5 (rounded down): 297, 340,
//!   382, 425, 467. The plan states both the table and the formula, and
//!   they disagree from depth 4; 85 is `ReverseFutilityProgressiveDepthMargin` (plan 003's
//!   appendix, 50-150). The two readings are exclusive.
//! - `improving-rfp` (Ethereal's `BetaMargin * MAX(0, depth - improving)`;
//!   Stockfish 12's `futility_margin(d, improving)` is 217·(d − improving),
//!   where Stockfish 9 and 10 scaled the per-ply margin instead, (175 −
//!   50·improving)·d): at an improving node the margin is the one of a ply
//!   less, and 0 at depth 1. For the per-ply margins this is the engines'
//!   formula; for the plan-003 table and formula it is the entry a ply up
//!   (320 at depth 5 instead of 375). Which depths are pruned does not
//!   change. The flag is the search's (`Node::improving`,
//!   see `lmr.rs`: Ethereal's, not improving when two plies earlier was in
//!   check). It applies to every phase of the chain above.
//!
//! Measured: full-without-reverse_futility against full: +3.1 Elo [-14.1, +20.4], 1000 games at 10000 nodes a move.

use cozy_chess::{Board, Piece};

use crate::context::Context;
use crate::eval::{material_balance, PIECE_VALUES};
use crate::score::MATE_BOUND;
use crate::search::{Node, NodeType};
use crate::techniques::{Hooks, NodeVerdict, Technique, TechniqueCounters, TechniqueSet, Techniques, COMPILED};
use crate::trace::TraceKind;
use crate::tune::Tunable;
use crate::{counters, features, tunables};

/// Which reverse futility features are on (the technique itself is
/// always on: it is part of the baseline).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReverseFutility {
    /// `rfp-margin-90`
    pub margin_90: bool,
    /// `rfp-depth-6`
    pub depth_6: bool,
    /// `rfp-no-material-gate`
    pub no_material_gate: bool,
    /// `rfp-simple`
    pub simple: bool,
    /// `rfp-material-ahead`
    pub material_ahead: bool,
    /// `rfp-progressive`
    pub progressive: bool,
    /// `rfp-progressive-formula`
    pub progressive_formula: bool,
    /// `improving-rfp`
    pub improving: bool,
}

features! {
    ReverseFutility {
        margin_90: "rfp-margin-90" [] "plan 002, 1.1" => "static null move margin 90 cp per ply instead of 120";
        depth_6: "rfp-depth-6" [] "plan 002, 1.2a" => "static null move up to depth 6 instead of 3";
        no_material_gate: "rfp-no-material-gate" [] "plan 002, 1.2b"
            => "no material-balance pre-check for static null move",
            witness "4k3/PPP5/8/8/8/8/5r2/1K3b2 b - - 0 1" depth 10;
        simple: "rfp-simple" ["rfp-depth-6", "rfp-no-material-gate"] "plan 002, 1.2c (Publius)"
            => "static null move gated on non-pawn material instead of the material check";
        material_ahead: "rfp-material-ahead" [] "plan 002, 1.2b (Option B)"
            => "static null move only when materially ahead or equal";
        progressive: "rfp-progressive" [] "plan 003, 1.2" => "static null move to depth 8 with the plan's margin table";
        progressive_formula: "rfp-progressive-formula" [] "plan 003, 1.2 (its formula)"
            => "static null move to depth 8 with margins 85 d, then 255 + 42.5 (d - 3)";
        improving: "improving-rfp" [] "Ethereal, Stockfish"
            => "static null move margin of one ply less when the static eval is improving";
    }
    exclusive "readings of plan 002's 1.2b": ["rfp-no-material-gate", "rfp-material-ahead"];
    exclusive "readings of plan 003's 1.2": ["rfp-progressive", "rfp-progressive-formula"];
}

counters! {
    /// `rfp:` telemetry.
    pub struct ReverseFutilityCounters {
        /// Nodes that passed the gates, and nodes pruned.
        pub attempts: u64,
        pub cutoffs: u64,
    }
}

tunables! {
    /// Centipawns of margin per ply (plan 002, phase 1.6).
    REVERSE_FUTILITY_DEPTH_MARGIN: COMPILED.reverse_futility.depth_margin(), 50, 200, 10;
    /// Material balance minus beta must exceed this (the baseline gate).
    REVERSE_FUTILITY_MATERIAL_LOWER_LIMIT: -200, -600, 0, 25;
    /// `rfp-simple`: non-pawn material of the side to move must exceed this
    /// (the plans' engine's ZUGZWANG_THRESHOLD, a rook and a bishop).
    REVERSE_FUTILITY_ZUGZWANG_LOWER_LIMIT: 830, 0, 1500, 25;
    /// `rfp-progressive-formula`: the margin per ply to depth 3 (85).
    REVERSE_FUTILITY_PROGRESSIVE_DEPTH_MARGIN: 85, 50, 150, 5;
}

/// The plan 003 (1.2) margin table for depths 1-8.
pub const PROGRESSIVE_MARGINS: [i32; 8] = [85, 170, 255, 320, 375, 420, 455, 480];

impl ReverseFutility {
    /// The latest feature of the technique's chain that is on.
    pub const fn feature(&self) -> &'static str {
        if self.progressive_formula {
            "rfp-progressive-formula"
        } else if self.progressive {
            "rfp-progressive"
        } else if self.simple {
            "rfp-simple"
        } else if self.material_ahead {
            "rfp-material-ahead"
        } else if self.no_material_gate {
            "rfp-no-material-gate"
        } else if self.depth_6 {
            "rfp-depth-6"
        } else if self.margin_90 {
            "rfp-margin-90"
        } else {
            "baseline"
        }
    }

    /// Centipawns of margin per ply: 120, or 90 from phase 1.1.
    pub const fn depth_margin(&self) -> i32 {
        if self.margin_90 {
            90
        } else {
            120
        }
    }

    /// The deepest depth pruned: 3, 6 from phase 1.2a, 8 with the table.
    pub const fn max_depth(&self) -> i32 {
        if self.progressive || self.progressive_formula {
            8
        } else if self.depth_6 {
            6
        } else {
            3
        }
    }

    /// The baseline's material-balance pre-check, until phase 1.2b removes
    /// it (Option A) or replaces it (Option B).
    pub const fn material_gate(&self) -> bool {
        !self.no_material_gate && !self.material_ahead
    }

    /// Phase 1.2c's non-pawn material gate.
    pub const fn zugzwang_gate(&self) -> bool {
        self.simple
    }

    /// The margin at a node of `depth`: with `improving-rfp`, an improving
    /// node's is the one of a ply less (none at depth 1).
    pub fn node_margin(&self, depth: i32, improving: bool) -> i32 {
        let depth = if self.improving && improving { depth - 1 } else { depth };
        if depth <= 0 {
            0
        } else {
            self.margin(depth)
        }
    }

    /// The margin at `depth`.
    pub fn margin(&self, depth: i32) -> i32 {
        if self.progressive {
            PROGRESSIVE_MARGINS[(depth.clamp(1, 8) - 1) as usize]
        } else if self.progressive_formula {
            let base = REVERSE_FUTILITY_PROGRESSIVE_DEPTH_MARGIN.get();
            if depth <= 3 {
                base * depth
            } else {
                base * 3 + base * (depth - 3) / 2
            }
        } else {
            REVERSE_FUTILITY_DEPTH_MARGIN.value_or(self.depth_margin()) * depth
        }
    }

    /// Whether the node may try reverse futility at all (PV nodes and check
    /// are excluded by the caller).
    pub fn applies(&self, board: &Board, depth: i32, beta: i32) -> bool {
        let us = board.side_to_move();
        depth > 0
            && depth <= self.max_depth()
            && beta.abs() < MATE_BOUND
            && (!self.material_gate()
                || material_balance(board, us) - beta > REVERSE_FUTILITY_MATERIAL_LOWER_LIMIT.get())
            && (!self.zugzwang_gate() || non_pawn_value(board) > REVERSE_FUTILITY_ZUGZWANG_LOWER_LIMIT.get())
            && (!self.material_ahead || material_balance(board, us) >= 0)
    }
}

/// The side to move's knights, bishops, rooks and queens, in centipawns.
fn non_pawn_value(board: &Board) -> i32 {
    [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen]
        .iter()
        .map(|&piece| PIECE_VALUES[piece as usize] * board.colored_pieces(board.side_to_move(), piece).len() as i32)
        .sum()
}

impl Hooks for ReverseFutility {
    /// The reverse futility step: the node is pruned when its static eval
    /// less a margin reaches beta.
    fn prune_node<T: TechniqueSet, NT: NodeType>(cx: &mut Context<'_, '_, T, Self>, node: &Node) -> NodeVerdict {
        let rfp = T::TECHNIQUES.reverse_futility;
        if NT::PV || !rfp.applies(node.board, node.depth, node.beta) {
            return NodeVerdict::Continue;
        }
        cx.counters().attempts += 1;
        let margin = rfp.node_margin(node.depth, node.improving);
        let margined = node.static_eval - margin;
        if margined < node.beta {
            return NodeVerdict::Continue;
        }
        cx.counters().cutoffs += 1;
        if cx.traces(node.ply) {
            let detail = format!(
                "static null move at depth {}: eval {} - margin {margin} >= beta {}",
                node.depth, node.static_eval, node.beta
            );
            let feature = if rfp.improving && node.improving { "improving-rfp" } else { rfp.feature() };
            cx.trace(node.ply, node.depth, TraceKind::NodePruned, feature, detail);
        }
        NodeVerdict::Prune(margined)
    }
}

impl Technique for ReverseFutility {
    const NAME: &'static str = "reverse_futility";
    type Counters = ReverseFutilityCounters;

    fn of(set: &Techniques) -> &Self {
        &set.reverse_futility
    }

    fn counters(all: &TechniqueCounters) -> &ReverseFutilityCounters {
        &all.reverse_futility
    }

    fn counters_mut(all: &mut TechniqueCounters) -> &mut ReverseFutilityCounters {
        &mut all.reverse_futility
    }
    const ALWAYS_ON: bool = true;

    /// `rfp: att=X cut=Y cut%=Z.Z%`, always (a baseline technique).
    fn report(&self, counters: &ReverseFutilityCounters) -> Vec<String> {
        vec![format!("rfp: {}", crate::stats::rate(counters.attempts, counters.cutoffs))]
    }

    fn snapshot_counters(counters: &ReverseFutilityCounters) -> Vec<(&'static str, u64, u64)> {
        vec![("rfp", counters.attempts, counters.cutoffs)]
    }

    fn tunable_list() -> &'static [&'static Tunable] {
        TUNABLES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(features: &[&str]) -> ReverseFutility {
        crate::techniques::Techniques::from_features(features).unwrap().reverse_futility
    }

    #[test]
    fn margins_follow_each_phase() {
        assert_eq!([1, 2, 3].map(|d| set(&[]).margin(d)), [120, 240, 360]);
        assert_eq!([1, 2, 3].map(|d| set(&["rfp-margin-90"]).margin(d)), [90, 180, 270]);
        assert_eq!((1..=8).map(|d| set(&["rfp-progressive"]).margin(d)).collect::<Vec<_>>(), PROGRESSIVE_MARGINS);
    }

    #[test]
    fn depth_limits_follow_each_phase() {
        assert_eq!(set(&[]).max_depth(), 3);
        assert_eq!(set(&["rfp-depth-6"]).max_depth(), 6);
        assert_eq!(set(&["rfp-simple"]).max_depth(), 6);
        assert_eq!(set(&["rfp-progressive", "rfp-depth-6"]).max_depth(), 8);
    }

    #[test]
    fn material_gate_refuses_when_down_material() {
        // White is a rook down: balance −500, so beta must stay below −300.
        let board = Board::from_fen("r3k3/8/8/8/8/8/8/R3K2R w - - 0 1", false).unwrap();
        let down_a_rook = Board::from_fen("r3k3/8/8/8/8/8/8/4K3 w - - 0 1", false).unwrap();
        assert!(set(&[]).applies(&down_a_rook, 2, -301));
        assert!(!set(&[]).applies(&down_a_rook, 2, -300));
        assert!(set(&["rfp-no-material-gate"]).applies(&down_a_rook, 2, -300));
        assert!(!set(&[]).applies(&board, 4, 0));
        assert!(!set(&[]).applies(&board, 0, 0));
    }

    #[test]
    fn simple_gate_needs_more_than_a_rook_and_a_bishop() {
        let queen = Board::from_fen("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", false).unwrap();
        let rook_bishop = Board::from_fen("4k3/8/8/8/8/8/8/R2BK3 w - - 0 1", false).unwrap();
        assert!(set(&["rfp-simple"]).applies(&queen, 5, 0));
        assert!(!set(&["rfp-simple"]).applies(&rook_bishop, 5, -2000));
    }

    #[test]
    fn option_b_prunes_only_when_ahead_or_equal() {
        let down_a_pawn = Board::from_fen("4k3/pp6/8/8/8/8/P7/4K3 w - - 0 1", false).unwrap();
        let level = Board::from_fen("4k3/p7/8/8/8/8/P7/4K3 w - - 0 1", false).unwrap();
        let ahead = set(&["rfp-material-ahead"]);
        assert!(!ahead.applies(&down_a_pawn, 2, -500));
        assert!(ahead.applies(&level, 2, 400));
        // The baseline gate (balance − beta > −200) would refuse `level` at beta 400.
        assert!(!set(&[]).applies(&level, 2, 400));
    }

    #[test]
    fn improving_takes_the_margin_of_a_ply_less() {
        let improving = set(&["improving-rfp"]);
        assert_eq!([1, 2, 3].map(|d| improving.node_margin(d, true)), [0, 120, 240]);
        assert_eq!([1, 2, 3].map(|d| improving.node_margin(d, false)), [120, 240, 360]);
        assert_eq!([1, 2, 3].map(|d| set(&[]).node_margin(d, true)), [120, 240, 360]);
        assert_eq!(improving.max_depth(), 3);
        let table = set(&["rfp-progressive", "improving-rfp"]);
        assert_eq!(
            (1..=8).map(|d| table.node_margin(d, true)).collect::<Vec<_>>(),
            [0, 85, 170, 255, 320, 375, 420, 455]
        );
        assert_eq!(table.node_margin(5, false), 375);
    }

    #[test]
    fn the_formula_reading_of_plan_003s_table() {
        let formula = set(&["rfp-progressive-formula"]);
        assert_eq!((1..=8).map(|d| formula.margin(d)).collect::<Vec<_>>(), [85, 170, 255, 297, 340, 382, 425, 467]);
        assert_eq!(formula.max_depth(), 8);
    }
}
