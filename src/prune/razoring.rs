//! Razoring: near the horizon, when the static eval is far below alpha, ask
//! quiescence whether anything can save the node; if not, fail low at once
//! (or, in the older styles, search one ply shallower).
//!
//! Also called: "dropping into quiescence" (Hyatt, Romstad), "limited
//! razoring" (Heinz's depth-3 form). Styles, side by side; they are
//! exclusive, and the R chain (R1 ⊂ R2 ⊂ R3) counts as one style.
//!
//! Plan 000 ("Razoring Implementation Plan"):
//! - `razor-r1` (R1, "Basic Razoring"): non-PV, not in check, depth ≤ 2,
//!   |alpha| below the mate bound; margin 300 at depth 1, 500 at depth 2;
//!   when `staticEval + razorMargin <= alpha`, `qScore = quiescence(alpha,
//!   alpha + 1)`; when `qScore <= alpha`, return it. The cut is stored as
//!   the plan's "TT Interaction" says: no move (the table keeps the move it
//!   has), the qsearch score, the current depth, an upper bound.
//! - `razor-r2` (R2, "Tactical Awareness", its `razorMargin += 150`
//!   reading): +150 (`RazorTacticalBonus`) to the margin when the side to
//!   move has a capture with SEE ≥ 0.
//! - `razor-r2-skip` (R2, its other reading: `!hasTacticalMoves` in the
//!   razoring condition): no razoring at all when such a capture exists.
//!   The plan gives both ("... OR: use stronger margin if tactical") and
//!   its margin strategy says "+150 cp or skip".
//! - `razor-r3` (R3, "Phase-Aware Margins", on R2's margin reading): +100
//!   (`RazorEndgameBonus`) at game phase ≤ 4, −50 (`RazorOpeningReduction`)
//!   at phase ≥ 20. The plan's margin strategy numbers these two the other
//!   way round ("Phase 2: Phase-Adjusted", "Phase 3: Tactical Guards");
//!   the features follow the R names of its implementation phases. Its
//!   "if many checks available: skip razoring" guard has no R phase and no
//!   number, and is not implemented.
//!
//! Plan 002 and plan 003:
//! - `razor-plan-4.1` (plan 002, 4.1): non-PV, not in check, depth ≤ 2,
//!   `staticEval + 300 < alpha` (strict), `quiescence(alpha, beta)`,
//!   return it when `<= alpha`. No mate-bound gate: the plan has none.
//! - `razor-p003` (plan 003, 3.1): non-PV, not in check, depth ≤ 2, margin
//!   300·depth, `staticEval + razorMargin < alpha`: return
//!   `quiescence(alpha, beta)` whatever it says ("Drop to quiescence").
//!
//! The chessprogramming page's published styles (plan 001):
//! - `razor-sf` (Stockfish 2022): `eval < alpha − 512 − 293·depth²` at any
//!   depth: `value = qsearch<NonPV>(alpha − 1, alpha)`; return it when
//!   `value < alpha` and it is not a mate score. Stockfish razors PV nodes
//!   too, and so does this; never the root, where this engine must have a
//!   move to play.
//! - `razor-heinz` (Heinz, limited razoring): `!extend && depth ==
//!   PRE_PRE_FRONTIER && mat_balance + razor_margin <= alpha &&
//!   opposing_pieces > 3` continues at depth 2. The margin is a queen (900);
//!   "opposing pieces" are the opponent's pieces other than pawns and king.
//!   `extend` is live: a node in check (the check extension) is never
//!   razored, and a node reached by an extended move (a singular extension)
//!   is not either. Any node but the root, as the page's code has no
//!   node-type test.
//! - `razor-hyatt` (Hyatt/Romstad, dropping into q-search): at null-window
//!   nodes, depth ≤ 3, `Evaluate + razor_margin < beta` (three pawns):
//!   `value = QuiesceChecks(alpha, beta)`, a quiescence whose first ply also
//!   tries the quiet moves that give check, as Crafty's does; return it when
//!   `value < beta`.
//! - `razor-strelka` (Strelka 2.0, fail-hard): `value = eval + 125`; when
//!   `value < beta`: at depth 1 return `max(qsearch, value)`; otherwise
//!   `value += 175`, and at depth ≤ 3 with `value < beta`, return
//!   `max(qsearch, value)` when `qsearch < beta`. Null-window qsearch at
//!   beta, at non-PV nodes (Strelka's zero-window search).
//! - `razor-crafty` (Crafty 15.17): decided per move, on the child: at a
//!   node of depth 2 not in check, a move that is not extended (it gives no
//!   check; the singular extension never runs at depth 2) is searched one
//!   ply shallower when `-Evaluate(child) + 50 < alpha`. Any node but the
//!   root (Crafty's root search is another function).
//! - `razor-crafty-node` (the reading this repository had): the same test on
//!   the node's own static eval, once per node, at non-PV nodes.
//!
//! Telemetry (plan 000): `razor: att=X cut=Y cut%=Z.Z% razor_b=[d1,d2]`. An
//! attempt is a node that reaches the razoring decision (for the R chain:
//! non-PV, not in check, depth 1-2, alpha not a mate score; for the other
//! styles, their node conditions before the margin test; for Crafty's, a
//! move evaluated), a cut is a razoring (a pruned node, or a reduction for
//! Heinz and Crafty), and `razor_b` counts cuts by depth (four buckets,
//! d1-d4+, for the styles that razor deeper). Then R2's `tactical=` (the
//! plan's razorTacticalSkips, "10-20% of razor attempts": attempts where
//! the side to move has a capture of SEE >= 0. Plan 000's R2 code computes
//! `hasTacticalMoves` for every node that may razor, before the margin
//! test, and SeaJay counts its `skips(tact=)` there too, so the count does
//! not depend on the margin; under the skip reading each is a node not
//! razored, under the margin reading a node whose margin grew) with
//! `tactical%=` of attempts and `guard_kept=` (razorings the guard
//! prevented: nodes the margin without it would have razored), R3's
//! `phase=` (razorPhaseAdjustments: attempts whose margin the phase
//! changed), and last `probes=` (quiescence probes) with `confirm%=` (cuts
//! per probe).
//!
//! Measured: full-without-razoring against full: -5.2 Elo [-20.9, +10.4], 1000 games at 10000 nodes a move.

use cozy_chess::{Board, Piece};

use crate::context::Context;
use crate::eval::{evaluate, material_balance};
use crate::position::{game_phase, Stage};
use crate::score::MATE_BOUND;
use crate::search::{Candidate, Node, NodeType};
use crate::stats::{percent, rate};
use crate::techniques::{Hooks, NodeVerdict, Technique, TechniqueCounters, TechniqueSet, Techniques};
use crate::trace::TraceKind;
use crate::tt::Bound;
use crate::tune::Tunable;
use crate::{counters, features, tunables};

/// Which razoring features are on; [`Razoring::style`] is what runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Razoring {
    /// `razor-r1`
    pub r1: bool,
    /// `razor-r2`
    pub r2: bool,
    /// `razor-r2-skip`
    pub r2_skip: bool,
    /// `razor-r3`
    pub r3: bool,
    /// `razor-plan-4.1`
    pub plan_4_1: bool,
    /// `razor-p003`
    pub plan_003: bool,
    /// `razor-sf`
    pub stockfish: bool,
    /// `razor-heinz`
    pub heinz: bool,
    /// `razor-hyatt`
    pub hyatt: bool,
    /// `razor-strelka`
    pub strelka: bool,
    /// `razor-crafty`
    pub crafty: bool,
    /// `razor-crafty-node`
    pub crafty_node: bool,
}

features! {
    Razoring {
        r1: "razor-r1" [] "plan 000 R1" => "razoring at depth <= 2, margins 300/500, null-window qsearch";
        r2: "razor-r2" ["razor-r1"] "plan 000 R2" => "razoring tactical guard: +150 with a capture of SEE >= 0";
        r2_skip: "razor-r2-skip" ["razor-r1"] "plan 000 R2 (skip reading)"
            => "razoring tactical guard: no razoring with a capture of SEE >= 0";
        r3: "razor-r3" ["razor-r2"] "plan 000 R3" => "phase-aware razoring margins";
        plan_4_1: "razor-plan-4.1" [] "plan 002, 4.1" => "razoring when eval + 300 < alpha at depth <= 2, full-window qsearch";
        plan_003: "razor-p003" [] "plan 003, 3.1" => "razoring when eval + 300 d < alpha at depth <= 2, returning qsearch";
        stockfish: "razor-sf" [] "Stockfish 2022" => "razoring at any depth when eval < alpha - 512 - 293 d^2";
        heinz: "razor-heinz" [] "Heinz, limited razoring" => "depth 3 reduced to 2 when material + margin <= alpha";
        hyatt: "razor-hyatt" [] "Hyatt/Romstad" => "drop into a qsearch with checks at depth <= 3 when eval + 300 < beta";
        strelka: "razor-strelka" [] "Strelka 2.0" => "fail-hard razoring at depths 1-3 with max(q, value)";
        crafty: "razor-crafty" [] "Crafty 15.17" => "at depth 2, a move whose child eval + 50 < alpha goes one ply shallower";
        crafty_node: "razor-crafty-node" [] "Crafty 15.17 (node-level reading)"
            => "at depth 2, the node goes one ply shallower when its eval + 50 < alpha";
    }
    // The R chain (R1 within R2 within R3) counts as one style.
    exclusive "razoring styles": [
        "razor-r1", "razor-plan-4.1", "razor-p003", "razor-sf", "razor-heinz", "razor-hyatt", "razor-strelka",
        "razor-crafty", "razor-crafty-node"
    ];
    exclusive "readings of plan 000's R2": ["razor-r2", "razor-r2-skip"];
}

counters! {
    /// `razor:` telemetry, in plan 000's meanings.
    pub struct RazorCounters {
        /// Nodes (or Crafty's moves) that reached the razoring decision.
        pub attempts: u64,
        /// Razorings: pruned nodes, or reductions.
        pub cutoffs: u64,
        /// Razorings at depths 1, 2, 3 and 4+.
        pub by_depth: [u64; 4],
        /// R2: attempts with a capture of SEE >= 0 (the plan's
        /// razorTacticalSkips, counted as its code does: before the margin).
        pub tactical_skips: u64,
        /// R2: razorings the tactical guard prevented.
        pub guard_kept: u64,
        /// R3: attempts whose margin the game phase changed.
        pub phase_adjustments: u64,
        /// Quiescence searches asked whether to razor.
        pub probes: u64,
    }
}

tunables! {
    list CHAIN_TUNABLES;
    RAZOR_MARGIN_1: 300, 100, 800, 20;
    RAZOR_MARGIN_2: 500, 200, 1200, 20;
    RAZOR_TACTICAL_BONUS: 150, 0, 400, 10;
    RAZOR_ENDGAME_BONUS: 100, 0, 300, 10;
    RAZOR_OPENING_REDUCTION: 50, 0, 200, 10;
}
tunables! { list PLAN_TUNABLES; RAZOR_PLAN_MARGIN: 300, 100, 600, 20; }
tunables! { list PLAN_003_TUNABLES; RAZOR_P003_DEPTH_MARGIN: 300, 100, 600, 20; }
tunables! {
    list STOCKFISH_TUNABLES;
    RAZOR_SF_BASE: 512, 200, 900, 20;
    RAZOR_SF_DEPTH_MARGIN: 293, 100, 500, 10;
}
tunables! { list HEINZ_TUNABLES; RAZOR_HEINZ_MARGIN: 900, 500, 1300, 25; }
tunables! { list HYATT_TUNABLES; RAZOR_HYATT_MARGIN: 300, 100, 600, 20; }
tunables! {
    list STRELKA_TUNABLES;
    RAZOR_STRELKA_MARGIN_1: 125, 50, 300, 10;
    RAZOR_STRELKA_MARGIN_2: 175, 50, 400, 10;
}
tunables! { list CRAFTY_TUNABLES; RAZOR_CRAFTY_MARGIN: 50, 0, 200, 10; }

/// The razoring that runs: one style at most (the features are exclusive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Off,
    R1,
    R2,
    R2Skip,
    R3,
    Plan41,
    Plan003,
    Stockfish,
    Heinz,
    Hyatt,
    Strelka,
    Crafty,
    CraftyNode,
}

impl Razoring {
    /// The style these features select: within the R chain the latest phase.
    pub const fn style(&self) -> Style {
        if self.r3 {
            Style::R3
        } else if self.r2 {
            Style::R2
        } else if self.r2_skip {
            Style::R2Skip
        } else if self.r1 {
            Style::R1
        } else if self.plan_4_1 {
            Style::Plan41
        } else if self.plan_003 {
            Style::Plan003
        } else if self.stockfish {
            Style::Stockfish
        } else if self.heinz {
            Style::Heinz
        } else if self.hyatt {
            Style::Hyatt
        } else if self.strelka {
            Style::Strelka
        } else if self.crafty {
            Style::Crafty
        } else if self.crafty_node {
            Style::CraftyNode
        } else {
            Style::Off
        }
    }

    /// The R chain's base margin at depth 1 or 2.
    pub fn chain_margin(depth: i32) -> i32 {
        if depth <= 1 {
            RAZOR_MARGIN_1.get()
        } else {
            RAZOR_MARGIN_2.get()
        }
    }

    /// R3's phase adjustment.
    pub fn phase_adjustment(phase: i32) -> i32 {
        match Stage::of(phase) {
            Stage::Endgame => RAZOR_ENDGAME_BONUS.get(),
            Stage::Opening => -RAZOR_OPENING_REDUCTION.get(),
            Stage::Middlegame => 0,
        }
    }

    /// Stockfish's margin: `512 + 293·d²`.
    pub fn stockfish_margin(depth: i32) -> i32 {
        RAZOR_SF_BASE.get() + RAZOR_SF_DEPTH_MARGIN.get() * depth * depth
    }
}

impl Style {
    /// The feature that selects the style.
    pub const fn feature(self) -> &'static str {
        match self {
            Style::Off => "baseline",
            Style::R1 => "razor-r1",
            Style::R2 => "razor-r2",
            Style::R2Skip => "razor-r2-skip",
            Style::R3 => "razor-r3",
            Style::Plan41 => "razor-plan-4.1",
            Style::Plan003 => "razor-p003",
            Style::Stockfish => "razor-sf",
            Style::Heinz => "razor-heinz",
            Style::Hyatt => "razor-hyatt",
            Style::Strelka => "razor-strelka",
            Style::Crafty => "razor-crafty",
            Style::CraftyNode => "razor-crafty-node",
        }
    }

    /// The test the style makes at `node`, with its numbers, for traces.
    fn test(self, node: &Node) -> String {
        let (board, depth, alpha, beta, eval) = (node.board, node.depth, node.alpha, node.beta, node.static_eval);
        match self {
            Style::R1 | Style::R2 | Style::R2Skip | Style::R3 => {
                let mut margin = Razoring::chain_margin(depth);
                if self == Style::R3 {
                    margin += Razoring::phase_adjustment(game_phase(board));
                }
                format!("razor d{depth}: eval {eval} + margin {margin} <= alpha {alpha}; qsearch(alpha, alpha + 1) <= alpha")
            }
            Style::Plan41 => {
                format!("razor d{depth}: eval {eval} + {} < alpha {alpha}; qsearch <= alpha", RAZOR_PLAN_MARGIN.get())
            }
            Style::Plan003 => {
                format!("razor d{depth}: eval {eval} + {} < alpha {alpha}", RAZOR_P003_DEPTH_MARGIN.get() * depth)
            }
            Style::Stockfish => format!(
                "razor d{depth}: eval {eval} < alpha {alpha} - {}; qsearch(alpha - 1, alpha) < alpha",
                Razoring::stockfish_margin(depth)
            ),
            Style::Heinz => format!(
                "limited razor d3: material {} + {} <= alpha {alpha}",
                material_balance(board, board.side_to_move()),
                RAZOR_HEINZ_MARGIN.get()
            ),
            Style::Hyatt => {
                format!(
                    "razor d{depth}: eval {eval} + {} < beta {beta}; qsearch with checks < beta",
                    RAZOR_HYATT_MARGIN.get()
                )
            }
            Style::Strelka => format!("strelka razor d{depth}: eval {eval} + margins < beta {beta}"),
            Style::CraftyNode => {
                format!("crafty razor d2: eval {eval} + {} < alpha {alpha}", RAZOR_CRAFTY_MARGIN.get())
            }
            Style::Crafty | Style::Off => String::new(),
        }
    }

    /// Whether the style razors PV nodes too (never the root).
    const fn razors_pv_nodes(self) -> bool {
        matches!(self, Style::Stockfish | Style::Heinz | Style::Crafty)
    }
}

/// The opponent's pieces other than pawns and king.
fn opponent_piece_count(board: &Board) -> u32 {
    let theirs = board.colors(!board.side_to_move());
    (theirs & !(board.pieces(Piece::Pawn) | board.pieces(Piece::King))).len()
}

impl Hooks for Razoring {
    /// The razoring step (step 7), every style but `razor-crafty`: the node
    /// is pruned or reduced when its eval falls far below the window.
    fn prune_node<T: TechniqueSet, NT: NodeType>(cx: &mut Context<'_, '_, T, Self>, node: &Node) -> NodeVerdict {
        let style = T::TECHNIQUES.razoring.style();
        if style == Style::Off || NT::ROOT || (NT::PV && !style.razors_pv_nodes()) {
            return NodeVerdict::Continue;
        }
        debug_assert!(!node.in_check, "razoring in check");
        let (board, depth, alpha, beta, eval, ply) =
            (node.board, node.depth, node.alpha, node.beta, node.static_eval, node.ply);
        let verdict = match style {
            Style::Off | Style::Crafty => NodeVerdict::Continue,
            Style::R1 | Style::R2 | Style::R2Skip | Style::R3 => {
                if depth > 2 || alpha.abs() >= MATE_BOUND {
                    return NodeVerdict::Continue;
                }
                cx.counters().attempts += 1;
                let mut margin = Razoring::chain_margin(depth);
                if style == Style::R3 {
                    let adjustment = Razoring::phase_adjustment(game_phase(board));
                    if adjustment != 0 {
                        margin += adjustment;
                        cx.counters().phase_adjustments += 1;
                    }
                }
                // Plan 000's R2 code asks for the capture before the margin
                // test, at every node that may razor: that is what its
                // razorTacticalSkips counts.
                let tactical = style != Style::R1 && cx.has_safe_capture(node);
                if tactical {
                    cx.counters().tactical_skips += 1;
                }
                if eval + margin > alpha {
                    return NodeVerdict::Continue;
                }
                if tactical && (style == Style::R2Skip || eval + margin + RAZOR_TACTICAL_BONUS.get() > alpha) {
                    cx.counters().guard_kept += 1;
                    return NodeVerdict::Continue;
                }
                let score = razor_probe::<T, NT>(cx, board, alpha, alpha + 1, ply);
                if cx.aborted() || score > alpha {
                    return NodeVerdict::Continue;
                }
                // No move: the table keeps the move it has.
                cx.store(node, None, score, depth, Bound::Upper);
                count_razoring(cx, depth);
                NodeVerdict::Prune(score)
            }
            Style::Plan41 => {
                if depth > 2 {
                    return NodeVerdict::Continue;
                }
                cx.counters().attempts += 1;
                if eval + RAZOR_PLAN_MARGIN.get() >= alpha {
                    return NodeVerdict::Continue;
                }
                let score = razor_probe::<T, NT>(cx, board, alpha, beta, ply);
                if cx.aborted() || score > alpha {
                    return NodeVerdict::Continue;
                }
                count_razoring(cx, depth);
                NodeVerdict::Prune(score)
            }
            Style::Plan003 => {
                if depth > 2 {
                    return NodeVerdict::Continue;
                }
                cx.counters().attempts += 1;
                if eval + RAZOR_P003_DEPTH_MARGIN.get() * depth >= alpha {
                    return NodeVerdict::Continue;
                }
                let score = razor_probe::<T, NT>(cx, board, alpha, beta, ply);
                if cx.aborted() {
                    return NodeVerdict::Continue;
                }
                count_razoring(cx, depth);
                NodeVerdict::Prune(score)
            }
            Style::Stockfish => {
                cx.counters().attempts += 1;
                if eval >= alpha - Razoring::stockfish_margin(depth) {
                    return NodeVerdict::Continue;
                }
                let score = razor_probe::<T, NT::NonPvChild>(cx, board, alpha - 1, alpha, ply);
                if cx.aborted() || score >= alpha || score.abs() >= MATE_BOUND {
                    return NodeVerdict::Continue;
                }
                count_razoring(cx, depth);
                NodeVerdict::Prune(score)
            }
            Style::Heinz => {
                if depth != 3 || node.extended {
                    return NodeVerdict::Continue;
                }
                cx.counters().attempts += 1;
                let material = material_balance(board, board.side_to_move());
                if material + RAZOR_HEINZ_MARGIN.get() > alpha || opponent_piece_count(board) <= 3 {
                    return NodeVerdict::Continue;
                }
                count_razoring(cx, depth);
                NodeVerdict::Reduce(1)
            }
            Style::Hyatt => {
                if depth > 3 {
                    return NodeVerdict::Continue;
                }
                cx.counters().attempts += 1;
                if eval + RAZOR_HYATT_MARGIN.get() >= beta {
                    return NodeVerdict::Continue;
                }
                cx.counters().probes += 1;
                let score = cx.qsearch_with_checks::<NT>(board, alpha, beta, ply);
                if cx.aborted() || score >= beta {
                    return NodeVerdict::Continue;
                }
                count_razoring(cx, depth);
                NodeVerdict::Prune(score)
            }
            Style::Strelka => {
                if depth > 3 {
                    return NodeVerdict::Continue;
                }
                cx.counters().attempts += 1;
                let mut value = eval + RAZOR_STRELKA_MARGIN_1.get();
                if value >= beta {
                    return NodeVerdict::Continue;
                }
                if depth > 1 {
                    value += RAZOR_STRELKA_MARGIN_2.get();
                    if value >= beta {
                        return NodeVerdict::Continue;
                    }
                }
                let score = razor_probe::<T, NT>(cx, board, beta - 1, beta, ply);
                // At depth 1 the probe's score is taken whatever it is.
                if cx.aborted() || (depth > 1 && score >= beta) {
                    return NodeVerdict::Continue;
                }
                count_razoring(cx, depth);
                NodeVerdict::Prune(score.max(value))
            }
            Style::CraftyNode => {
                if depth != 2 || node.extended {
                    return NodeVerdict::Continue;
                }
                cx.counters().attempts += 1;
                if eval + RAZOR_CRAFTY_MARGIN.get() >= alpha {
                    return NodeVerdict::Continue;
                }
                count_razoring(cx, depth);
                NodeVerdict::Reduce(1)
            }
        };
        // Every test that fails returns above: a razored node is traced here.
        if verdict != NodeVerdict::Continue && cx.traces(ply) {
            let (kind, outcome) = match verdict {
                NodeVerdict::Prune(score) => (TraceKind::NodePruned, format!("returns {score}")),
                _ => (TraceKind::NodeReduced, "one ply shallower".to_string()),
            };
            let detail = format!("{}: {outcome}", style.test(node));
            cx.trace(ply, depth, kind, style.feature(), detail);
        }
        verdict
    }

    /// `razor-crafty`, at step 12b: Crafty's razoring, one ply less for a
    /// move whose child evaluates far below alpha at a depth-2 node.
    fn extend_move<T: TechniqueSet, NT: NodeType>(
        cx: &mut Context<'_, '_, T, Self>,
        node: &Node,
        candidate: &Candidate,
        child: &Board,
    ) -> i32 {
        if T::TECHNIQUES.razoring.style() != Style::Crafty || NT::ROOT {
            return 0;
        }
        if node.depth != 2 || node.in_check || candidate.gives_check {
            return 0;
        }
        cx.counters().attempts += 1;
        // The child's eval, from the side that made the move.
        let value = -evaluate(child);
        if value + RAZOR_CRAFTY_MARGIN.get() >= node.alpha {
            return 0;
        }
        count_razoring(cx, node.depth);
        if cx.traces_move(node.ply, candidate.mv) {
            let detail = format!(
                "crafty razor d2: child eval {value} + {} < alpha {}: one ply shallower",
                RAZOR_CRAFTY_MARGIN.get(),
                node.alpha
            );
            cx.trace(node.ply, node.depth, TraceKind::MoveDepth, "razor-crafty", detail);
        }
        -1
    }
}

/// The quiescence search that decides a razoring, counted.
fn razor_probe<T: TechniqueSet, NT: NodeType>(
    cx: &mut Context<'_, '_, T, Razoring>,
    board: &Board,
    alpha: i32,
    beta: i32,
    ply: usize,
) -> i32 {
    cx.counters().probes += 1;
    cx.qsearch::<NT>(board, alpha, beta, ply)
}

/// A razored node (or move), counted at its depth.
fn count_razoring<T: TechniqueSet>(cx: &mut Context<'_, '_, T, Razoring>, depth: i32) {
    let counters = cx.counters();
    counters.cutoffs += 1;
    counters.by_depth[(depth.clamp(1, 4) - 1) as usize] += 1;
}

impl Technique for Razoring {
    const NAME: &'static str = "razoring";
    type Counters = RazorCounters;

    fn of(set: &Techniques) -> &Self {
        &set.razoring
    }

    fn counters(all: &TechniqueCounters) -> &RazorCounters {
        &all.razoring
    }

    fn counters_mut(all: &mut TechniqueCounters) -> &mut RazorCounters {
        &mut all.razoring
    }

    fn report(&self, counters: &RazorCounters) -> Vec<String> {
        let style = self.style();
        if style == Style::Off {
            return Vec::new();
        }
        let buckets = match style {
            Style::R1 | Style::R2 | Style::R2Skip | Style::R3 | Style::Plan41 | Style::Plan003 => 2,
            _ => 4,
        };
        let mut line = format!(
            "razor: {} razor_b={}",
            rate(counters.attempts, counters.cutoffs),
            crate::stats::buckets(&counters.by_depth[..buckets])
        );
        if matches!(style, Style::R2 | Style::R2Skip | Style::R3) {
            line.push_str(&format!(
                " tactical={} tactical%={}% guard_kept={}",
                counters.tactical_skips,
                percent(counters.tactical_skips, counters.attempts),
                counters.guard_kept
            ));
        }
        if style == Style::R3 {
            line.push_str(&format!(" phase={}", counters.phase_adjustments));
        }
        line.push_str(&format!(" probes={} confirm%={}%", counters.probes, percent(counters.cutoffs, counters.probes)));
        vec![line]
    }

    fn snapshot_counters(counters: &RazorCounters) -> Vec<(&'static str, u64, u64)> {
        vec![("razor", counters.attempts, counters.cutoffs)]
    }

    /// The style's tunables (R1 reads the chain's first two, R2 three).
    fn tunables(&self) -> Vec<&'static Tunable> {
        let list: &[&'static Tunable] = match self.style() {
            Style::Off => &[],
            Style::R1 => &CHAIN_TUNABLES[..2],
            Style::R2 | Style::R2Skip => &CHAIN_TUNABLES[..3],
            Style::R3 => CHAIN_TUNABLES,
            Style::Plan41 => PLAN_TUNABLES,
            Style::Plan003 => PLAN_003_TUNABLES,
            Style::Stockfish => STOCKFISH_TUNABLES,
            Style::Heinz => HEINZ_TUNABLES,
            Style::Hyatt => HYATT_TUNABLES,
            Style::Strelka => STRELKA_TUNABLES,
            Style::Crafty | Style::CraftyNode => CRAFTY_TUNABLES,
        };
        list.to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::techniques::Techniques;

    fn style(features: &[&str]) -> Style {
        Techniques::from_features(features).unwrap().razoring.style()
    }

    #[test]
    fn the_r_chain_is_one_style_whatever_the_order() {
        assert_eq!(style(&["razor-r1"]), Style::R1);
        assert_eq!(style(&["razor-r2"]), Style::R2);
        assert_eq!(style(&["razor-r2-skip"]), Style::R2Skip);
        assert_eq!(style(&["razor-r3"]), Style::R3);
        assert_eq!(style(&["razor-sf"]), Style::Stockfish);
        assert_eq!(Techniques::of(&["razor-r3", "razor-r1"]).razoring.style(), Style::R3);
    }

    #[test]
    fn plan_margins() {
        assert_eq!((Razoring::chain_margin(1), Razoring::chain_margin(2)), (300, 500));
        assert_eq!(RAZOR_TACTICAL_BONUS.get(), 150);
        assert_eq!(
            [Razoring::phase_adjustment(4), Razoring::phase_adjustment(12), Razoring::phase_adjustment(20)],
            [100, 0, -50]
        );
        assert_eq!([1, 2, 3].map(Razoring::stockfish_margin), [805, 1684, 3149]);
        // Plan 000's UCI ranges.
        assert_eq!(
            (RAZOR_MARGIN_1.min, RAZOR_MARGIN_1.max, RAZOR_MARGIN_2.min, RAZOR_MARGIN_2.max),
            (100, 800, 200, 1200)
        );
    }

    #[test]
    fn two_styles_or_two_r2_readings_are_refused_by_name() {
        let error = Techniques::from_features(&["razor-hyatt", "razor-crafty"]).unwrap_err();
        assert!(error.contains("razor-hyatt") && error.contains("razor-crafty"), "{error}");
        let error = Techniques::from_features(&["razor-r3", "razor-r2-skip"]).unwrap_err();
        assert!(error.contains("readings of plan 000's R2"), "{error}");
        assert!(Techniques::from_features(&["razor-r3", "razor-r1"]).is_ok());
    }

    #[test]
    fn report_keeps_the_plans_keys_first() {
        let counters = RazorCounters {
            attempts: 200,
            cutoffs: 10,
            by_depth: [4, 6, 0, 0],
            tactical_skips: 30,
            guard_kept: 7,
            phase_adjustments: 50,
            probes: 12,
        };
        assert!(Razoring::BASELINE.report(&counters).is_empty());
        assert_eq!(
            Techniques::of(&["razor-r3"]).razoring.report(&counters),
            ["razor: att=200 cut=10 cut%=5.0% razor_b=[4,6] tactical=30 tactical%=15.0% guard_kept=7 phase=50 probes=12 confirm%=83.3%"]
        );
        assert_eq!(
            Techniques::of(&["razor-sf"]).razoring.report(&counters)[0],
            "razor: att=200 cut=10 cut%=5.0% razor_b=[4,6,0,0] probes=12 confirm%=83.3%"
        );
    }
}
