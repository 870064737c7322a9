//! Futility pruning: near the horizon a quiet move can change the static
//! evaluation only by a positional amount, so when the static eval plus a
//! margin for that amount cannot reach alpha, the move is futile and is
//! skipped without a search (it still counts as a legal move, so the node is
//! never mistaken for stalemate).
//!
//! Also called: "frontier" futility pruning (depth 1, Schaeffer's original
//! form), "extended futility pruning" (Heinz: the same test one ply further
//! up, at "pre-frontier" nodes of depth 2, with a rook-sized margin; depth 3
//! is the "pre-pre-frontier", where Heinz razors instead), "parent-node
//! futility" in Stockfish's move loop (on `lmrDepth`), and in Ethereal
//! `FutilityPruningDepth`/`FutilityMargin`. Reverse futility (static null
//! move, `reverse_futility.rs`) is the mirror test against beta.
//!
//! Phases, side by side (a move is "prunable" when it is quiet — neither a
//! capture nor a promotion —, is not the node's first legal move, and the
//! side to move is not in check; a move that gives check is prunable too,
//! as in the plans, unless `futility-tactical-guards` or
//! `futility-keep-checks` is on):
//!
//! | feature | plan | depth limit | margin at depth d |
//! | --- | --- | --- | --- |
//! | `futility-2.1` | plan 002, 2.1 | d ≤ 4 | 150 + 60·d |
//! | `futility-2.2` | plan 002, 2.2 | d ≤ 4 | 130 + 75·d |
//! | `futility-2.3` | plan 002, 2.3 | d ≤ 6 | 130 + 75·d |
//! | `futility-2.4` | plan 002, 2.4 (Laser) | d ≤ 6 | 115 + 90·d |
//! | `futility-progressive` | plan 003, 1.1 | d ≤ 7 | 150·min(d, 4): 150, 300, 450, 600, 600, 600, 600 |
//! | `futility-progressive-75` | plan 003, "what worked" | d ≤ 7 | 150, 300, 450, 600, 675, 750, 825 |
//!
//! The plan's words for each: 2.1 "Add futility pruning with very
//! conservative margins ... staticEval <= alpha - 150 - 60*depth"; 2.2
//! "Adjust margins from 150+60*depth to 130+75*depth"; 2.3 "Enable futility
//! pruning up to depth 6 (from depth 4)"; 2.4 "Adjust to Laser's proven
//! formula: 115 + 90*depth".
//!
//! The 2.x phases are a chain (each implies the one before), at non-PV nodes
//! only, with 2.1's gates (`abs(alpha)` and `abs(beta)` below the mate
//! bound, as the plan's code has them): a prunable move is skipped when
//! `static_eval + margin(d) ≤ alpha`. The margin and the depth limit are
//! the tunables `FutilityBase` (50-200), `FutilityDepthMargin`
//! (50-150, the plan's 2.5 ranges) and `FutilityMaxDepth` (0-10), whose
//! defaults are the compiled phase's numbers.
//!
//! - `futility-keep-checks` (implies 2.1; not a plan phase): moves that give
//!   check are never pruned, at any phase. This repository's move-level
//!   futility had this guard until the plans were read again; the plans
//!   put it in plan 003's tactical guards only.
//!
//! - `futility-node` (plan 002, 2.1 as written): the plan's code for 2.1 read
//!   as a node-level test. Before any move is generated, a non-PV node not in
//!   check with `depth ≤ 4` returns `static_eval` when
//!   `static_eval + 150 + 60·depth ≤ alpha`, with the plan's gates: |alpha|
//!   and |beta| below the mate bound. The literal test cuts nodes whose
//!   saving reply is a capture or a quiet mate, which is what makes the
//!   comparison with the move-level reading worth having: after the quiet
//!   sacrifice 1.Qg6 in `2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w`
//!   the mating side is a queen down, so it never sees the mate in two.
//!   With a 2.x phase or the progressive table on, it uses the same margin
//!   and depth limit as the move-level test.
//! - `futility-progressive` (plan 003, 1.1: "futilityMargin = futilityBase *
//!   min(depth, 4)", "depth 1: 150, 2: 300, 3: 450, 4-7: 600 (capped)";
//!   implies 2.1): that margin replaces the 2.x formula (at every phase),
//!   and the depth limit is 7. `FutilityProgressiveBase` is futilityBase.
//! - `futility-progressive-75` (plan 003's other account of the same
//!   change, under "What Worked": "Linear growth depths 1-4 (150cp per
//!   depth), Slower growth depths 5-7 (+75cp per depth)"; implies 2.1):
//!   margins 150, 300, 450, 600, 675, 750, 825. The plan describes 1.1 both
//!   ways; this is the table this repository used first. The two readings
//!   are exclusive.
//! - `futility-effective-depth` (plan 003, phase 2: "Use (depth - reduction)
//!   for futility decisions", with "childIsPV = (isPvNode && legalMoveCount
//!   == 1)"; implies 2.1; the idea of
//!   Stockfish's `lmrDepth`): the depth limit and the margin are taken at
//!   the effective depth `max(depth − reduction, 1)`, where `reduction` is
//!   the late move reduction the move would get, so a late quiet move at a
//!   deeper node is judged as if the node were as shallow as its reduced
//!   search; the floor of 1 keeps the frontier's margin as the smallest. It is gated on
//!   the child's PV status (`candidate.child_is_pv`) instead of the node's,
//!   so later moves of a PV node may be pruned too.
//! - `futility-tactical-guards` (plan 003, "Tactical Guards
//!   Implementation": "Skip futility if move gives check", "If parent has
//!   SEE >= 0 captures, limit futility to effectiveDepth <= 2", "Never prune
//!   TT move, killers, or countermoves"; implies 2.1): the TT move, the
//!   killers and the countermove are never pruned, nor are moves giving
//!   check ("Gives-check guard"); and when the side to move has a capture with
//!   SEE ≥ 0, futility applies only at (effective) depth ≤ 2. That capture
//!   test generates the captures, so it runs only for a move that would
//!   otherwise be pruned, and its answer is cached per ply and position.
//! - `futility-victim` (plan 003, priority 2: "Extended futility with
//!   victim value. Formula: `staticEval + bestVictimValue + margin < alpha`.
//!   Enables deeper futility when no capture can save position. Expected
//!   impact: 10-15% additional pruning at depths 4-7"): at non-PV nodes of
//!   depth 4-7, a prunable quiet move is skipped when `static_eval +
//!   best_victim + margin < alpha`, where `best_victim` is the value of the
//!   most valuable enemy piece the side to move can capture (legal
//!   captures; 0 when there is none) and `margin` is the futility margin
//!   of the node's depth (plan 003's progressive 600 at depths 4-7 on the
//!   chain's end; without a move-level phase, 2.1's formula). The plan
//!   names no other margin, and in its futility section "margin" is that
//!   one. As the victim's value is never negative, the test prunes nothing
//!   the plain test at the same depth keeps on its margin alone: it acts
//!   where the plain test kept the move for another reason, chiefly the
//!   tactical guards' "limit futility to effectiveDepth <= 2" when a safe
//!   capture exists: when even the best capture cannot reach alpha, the
//!   move is pruned deeper after all ("no capture can save position"). It
//!   is independent of the 2.x chain and may be on alone.
//! - `futility-victim-100` (implies `futility-victim`; not a plan reading):
//!   the margin is a constant 100 cp (`FutilityVictimMargin`), the number
//!   this repository used before the plan was read again: about a pawn of
//!   positional gain beyond winning the piece. It is far below the
//!   futility margin it extends, so it prunes where the plain test does
//!   not: moves the plain margin keeps.
//!
//! - `futility-skip-quiets` (implies 2.1; not a plan phase: Ethereal's
//!   futility sets `skipQuiets`): once a move-level test prunes a move, the
//!   node drops every quiet move it has not picked yet, untested, as
//!   `lmp-skip-quiets` does after move-count pruning; the dropped moves
//!   count in the move numbers that follow and go to this counter. With
//!   the tactical guards (or `futility-keep-checks`) futility never prunes
//!   a check, so quiet checks stay: they are handed out where picking would
//!   have put them, with the move numbers they had, and the dropped moves
//!   before them still get the history malus of a later cutoff. The node's
//!   eval, window and safe-capture answer do not change along the list,
//!   and where quiet moves come in falling history (as on `p003-3`) the
//!   effective depth's reduction only grows, so a quiet move after a futile
//!   one is futile too: the tree is the same, only the work is saved.
//!   Where another term orders the quiet moves (`see-ordering`), a later
//!   move with better history, so a smaller reduction and a larger margin,
//!   is dropped where the test would have kept it. Ethereal differs in two
//!   ways: its futility searches the move that fired and drops only the
//!   ones after it, and it drops checks too (it has no check guard).
//!
//! Composition when several are on:
//! - the 2.x test runs first; the progressive table replaces its margin and
//!   limit, the effective depth replaces the depth it is judged at (and the
//!   PV gate), and the tactical guards restrict it;
//! - the victim test runs on moves the 2.x test kept, always at the node's
//!   own depth and always gated on the node being non-PV; of the tactical
//!   guards only the move exemptions (TT move, killers, countermove) apply
//!   to it, since it already accounts for captures through `best_victim`;
//! - the node-level test shares the margin and depth limit of the move-level
//!   test and none of its per-move refinements.
//!
//! Telemetry: `fut: att=X cut=Y cut%=Z.Z% fut_b=[d1-3,d4-6,d7-9,d10+]`,
//! then `fut_eff_b=[...]` (cutoffs by effective depth) with
//! `futility-effective-depth`, `guarded=G capture_limited=C` with the
//! tactical guards, `victim_att=A victim_cut=B phase_cut_d=[d1,...,d9,d10+]
//! victim_cut_d=[...]` with `futility-victim` (the cutoffs of each test by
//! node depth, one entry a depth: the lab's depth-scoped claims read
//! them); and
//! `fut_node: att=X cut=Y cut%=Z.Z% fut_node_b=[...] capture_kept=K` for
//! the node level; with `futility-skip-quiets`, `skipped=N` quiet moves
//! dropped unpicked.
//!
//! Measured: full-without-futility against full: -22.6 Elo [-38.3, -7.0], 1000 games at 10000 nodes a move.

use crate::context::{Context, DropsQuiets};
use crate::score::{MATE_BOUND, NO_EVAL};
use crate::search::{Candidate, Node, NodeType};
use crate::stats::depth_bucket;
use crate::techniques::{Hooks, NodeVerdict, Technique, TechniqueCounters, TechniqueSet, Techniques, COMPILED};
use crate::trace::TraceKind;
use crate::tune::Tunable;
use crate::{counters, features, tunables};

/// Which futility features are on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Futility {
    /// `futility-2.1`
    pub phase_2_1: bool,
    /// `futility-2.2`
    pub phase_2_2: bool,
    /// `futility-2.3`
    pub phase_2_3: bool,
    /// `futility-2.4`
    pub phase_2_4: bool,
    /// `futility-node`
    pub node_level: bool,
    /// `futility-progressive`
    pub progressive: bool,
    /// `futility-progressive-75`
    pub progressive_75: bool,
    /// `futility-keep-checks`
    pub keep_checks: bool,
    /// `futility-effective-depth`
    pub effective_depth: bool,
    /// `futility-tactical-guards`
    pub tactical_guards: bool,
    /// `futility-victim`
    pub victim: bool,
    /// `futility-victim-100`
    pub victim_100: bool,
    /// `futility-skip-quiets`
    pub skip_quiets: bool,
}

features! {
    Futility {
        phase_2_1: "futility-2.1" [] "plan 002, 2.1" => "move-level futility, margin 150 + 60 d, depth <= 4";
        phase_2_2: "futility-2.2" ["futility-2.1"] "plan 002, 2.2" => "futility margin 130 + 75 d";
        phase_2_3: "futility-2.3" ["futility-2.2"] "plan 002, 2.3" => "futility up to depth 6";
        phase_2_4: "futility-2.4" ["futility-2.3"] "plan 002, 2.4 (Laser)" => "futility margin 115 + 90 d";
        node_level: "futility-node" [] "plan 002, 2.1 as written"
            => "node-level futility: return static eval when eval + 150 + 60 d <= alpha";
        progressive: "futility-progressive" ["futility-2.1"] "plan 003, 1.1" => "futility to depth 7, margin 150 min(d, 4)";
        progressive_75: "futility-progressive-75" ["futility-2.1"] "plan 003, 1.1 (what-worked reading)"
            => "futility to depth 7 with margins 150..600, then +75 a ply to 825";
        keep_checks: "futility-keep-checks" ["futility-2.1"] "this repository's guard (not a plan phase)"
            => "move-level futility never prunes a move that gives check";
        effective_depth: "futility-effective-depth" ["futility-2.1"] "plan 003, phase 2"
            => "futility on depth minus the LMR reduction, gated on the child's PV status";
        tactical_guards: "futility-tactical-guards" ["futility-2.1"] "plan 003"
            => "no futility for checks, TT move, killers, countermove; depth <= 2 with a good capture";
        victim: "futility-victim" [] "plan 003, priority 2"
            => "extended futility at depths 4-7: eval + best capturable victim + the futility margin < alpha";
        victim_100: "futility-victim-100" ["futility-victim"] "this repository's margin (not a plan reading)"
            => "victim futility with a margin of 100 cp instead of the futility margin";
        skip_quiets: "futility-skip-quiets" ["futility-2.1"] "Ethereal (skipQuiets after futility)"
            => "once move-level futility prunes a move, the node's remaining quiet moves are dropped unpicked";
    }
    exclusive "readings of plan 003's 1.1": ["futility-progressive", "futility-progressive-75"];
}

counters! {
    /// `fut:` and `fut_node:` telemetry.
    pub struct FutilityCounters {
        /// Moves the move-level tests judged, and pruned.
        pub attempts: u64,
        pub cutoffs: u64,
        /// Move-level cutoffs by node depth: d1-3, d4-6, d7-9, d10+.
        pub by_depth: [u64; 4],
        /// Move-level cutoffs by the depth they were judged at.
        pub by_effective_depth: [u64; 4],
        /// `futility-victim`: moves it judged, and pruned.
        pub victim_attempts: u64,
        pub victim_cutoffs: u64,
        /// `futility-victim`: cutoffs by node depth 1, 2, ..., 9, 10+, of
        /// the phase test and of the victim test (its "additional pruning
        /// at depths 4-7" is the one over the other there).
        pub phase_by_node_depth: [u64; 10],
        pub victim_by_node_depth: [u64; 10],
        /// Tactical guards: TT moves, killers and countermoves kept.
        pub guarded: u64,
        /// Tactical guards: moves kept because a safe capture limits the depth.
        pub capture_limited: u64,
        /// `futility-skip-quiets`: quiet moves dropped unpicked.
        pub skipped: u64,
        /// `futility-node`: nodes judged, pruned, and pruned by depth.
        pub node_attempts: u64,
        pub node_cutoffs: u64,
        pub node_by_depth: [u64; 4],
    }
}

tunables! {
    /// The margin's constant part (2.1: 150, 2.2 and 2.3: 130, 2.4: 115).
    FUTILITY_BASE: COMPILED.futility.margin_base(), 50, 200, 5;
    /// The margin's part per ply of depth (2.1: 60, 2.2 and 2.3: 75, 2.4: 90).
    FUTILITY_DEPTH_MARGIN: COMPILED.futility.depth_margin(), 50, 150, 5;
    /// Futility applies at or below this depth (2.1, 2.2: 4; 2.3, 2.4: 6;
    /// progressive: 7).
    FUTILITY_MAX_DEPTH: COMPILED.futility.phase_max_depth(), 0, 10, 1;
    /// `futility-progressive`: futilityBase, the margin per ply up to depth 4.
    FUTILITY_PROGRESSIVE_BASE: 150, 50, 300, 10;
    /// `futility-victim-100`: the margin beyond the best capturable victim.
    FUTILITY_VICTIM_MARGIN: 100, 0, 400, 10;
}

/// Plan 003 (1.1): progressive futility's depth limit, and the depth its
/// margin stops growing at (`min(depth, 4)`).
pub const PROGRESSIVE_MAX_DEPTH: i32 = 7;
pub const PROGRESSIVE_CAP_DEPTH: i32 = 4;

/// `futility-victim` applies at node depths in this range.
pub const VICTIM_MIN_DEPTH: i32 = 4;
pub const VICTIM_MAX_DEPTH: i32 = 7;

/// `futility-tactical-guards`: with a capture of SEE ≥ 0 available,
/// futility applies only at or below this (effective) depth.
pub const SAFE_CAPTURE_MAX_DEPTH: i32 = 2;

/// The plan 002 phases' numbers: (margin base, margin per ply, depth limit),
/// indexed by `move_phase` (0, off, carries 2.1's numbers so the tunables'
/// defaults stay meaningful).
const PHASES: [(i32, i32, i32); 5] = [(150, 60, 4), (150, 60, 4), (130, 75, 4), (130, 75, 6), (115, 90, 6)];

impl Futility {
    /// Move-level phase of plan 002: 0 off, 1..=4 for 2.1..2.4.
    pub const fn move_phase(&self) -> usize {
        if self.phase_2_4 {
            4
        } else if self.phase_2_3 {
            3
        } else if self.phase_2_2 {
            2
        } else if self.phase_2_1 {
            1
        } else {
            0
        }
    }

    /// The phase's margin base (the plan number, before any tuning).
    pub const fn margin_base(&self) -> i32 {
        PHASES[self.move_phase()].0
    }

    /// The phase's margin per ply.
    pub const fn depth_margin(&self) -> i32 {
        PHASES[self.move_phase()].1
    }

    /// Either reading of plan 003's progressive margins.
    pub const fn is_progressive(&self) -> bool {
        self.progressive || self.progressive_75
    }

    /// The phase's depth limit: 7 with progressive margins.
    pub const fn phase_max_depth(&self) -> i32 {
        if self.is_progressive() {
            PROGRESSIVE_MAX_DEPTH
        } else {
            PHASES[self.move_phase()].2
        }
    }

    /// The feature whose margin and depth the move-level test uses.
    pub const fn phase_feature(&self) -> &'static str {
        if self.progressive {
            "futility-progressive"
        } else if self.progressive_75 {
            "futility-progressive-75"
        } else {
            match self.move_phase() {
                4 => "futility-2.4",
                3 => "futility-2.3",
                2 => "futility-2.2",
                _ => "futility-2.1",
            }
        }
    }

    /// Whether moves that give check are never pruned.
    pub const fn keeps_checks(&self) -> bool {
        self.tactical_guards || self.keep_checks
    }

    /// Whether any move-level test (the 2.x chain or the victim test) is on.
    pub const fn move_level(&self) -> bool {
        self.move_phase() > 0 || self.victim
    }

    /// The futility margin at `depth` (1-based).
    pub fn margin(&self, depth: i32) -> i32 {
        let base = FUTILITY_PROGRESSIVE_BASE.get();
        let capped = depth.clamp(1, PROGRESSIVE_CAP_DEPTH);
        if self.progressive {
            base * capped
        } else if self.progressive_75 {
            // Half the base per ply beyond the cap: 675, 750, 825.
            base * capped + base / 2 * (depth - PROGRESSIVE_CAP_DEPTH).max(0)
        } else {
            FUTILITY_BASE.value_or(self.margin_base()) + FUTILITY_DEPTH_MARGIN.value_or(self.depth_margin()) * depth
        }
    }

    /// Futility applies at or below this depth.
    pub fn max_depth(&self) -> i32 {
        FUTILITY_MAX_DEPTH.value_or(self.phase_max_depth())
    }

    /// The depth the move-level test judges a move at: the node's depth, or
    /// with `futility-effective-depth` the depth minus the move's late move
    /// reduction, never below 1.
    pub fn judged_depth(&self, depth: i32, reduction: i32) -> i32 {
        if self.effective_depth {
            (depth - reduction).max(1)
        } else {
            depth
        }
    }

    /// The futility test itself: the eval plus the margin cannot reach alpha.
    pub fn is_futile(&self, static_eval: i32, alpha: i32, depth: i32) -> bool {
        static_eval + self.margin(depth) <= alpha
    }

    /// Plan 002's 2.1 gates: no mate score on either side of the window.
    pub fn window_allows(alpha: i32, beta: i32) -> bool {
        alpha.abs() < MATE_BOUND && beta.abs() < MATE_BOUND
    }

    /// Whether the node-level test may run (the caller excludes check and PV).
    pub fn node_applies(&self, depth: i32, alpha: i32, beta: i32) -> bool {
        self.node_level && depth <= self.max_depth() && Futility::window_allows(alpha, beta)
    }

    /// `futility-victim`'s margin at node depth `depth`: the move-level
    /// futility margin there, or 100 cp with `futility-victim-100`.
    pub fn victim_margin(&self, depth: i32) -> i32 {
        if self.victim_100 {
            FUTILITY_VICTIM_MARGIN.get()
        } else {
            self.margin(depth)
        }
    }

    /// `futility-victim`'s test at node depth `depth`, given the best
    /// capturable victim's value.
    pub fn victim_is_futile(&self, static_eval: i32, best_victim: i32, alpha: i32, depth: i32) -> bool {
        static_eval + best_victim + self.victim_margin(depth) < alpha
    }
}

/// Which move-level test pruned a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    Phase,
    Victim,
}

impl Hooks for Futility {
    /// The node futility step (`futility-node`), the plan's literal code:
    /// the node is pruned when its static eval and a margin stay at alpha.
    fn prune_node<T: TechniqueSet, NT: NodeType>(cx: &mut Context<'_, '_, T, Self>, node: &Node) -> NodeVerdict {
        let futility = T::TECHNIQUES.futility;
        if NT::PV || !futility.node_level {
            return NodeVerdict::Continue;
        }
        debug_assert!(!node.in_check && node.static_eval != NO_EVAL, "node futility in check");
        if !futility.node_applies(node.depth, node.alpha, node.beta) {
            return NodeVerdict::Continue;
        }
        cx.counters().node_attempts += 1;
        if !futility.is_futile(node.static_eval, node.alpha, node.depth) {
            return NodeVerdict::Continue;
        }
        debug_assert!(!NT::PV && node.alpha.abs() < MATE_BOUND);
        let counters = cx.counters();
        counters.node_cutoffs += 1;
        counters.node_by_depth[depth_bucket(node.depth)] += 1;
        if cx.traces(node.ply) {
            let detail = format!(
                "node futility at depth {}: eval {} + margin {} <= alpha {}: returns the eval",
                node.depth,
                node.static_eval,
                futility.margin(node.depth),
                node.alpha
            );
            cx.trace(node.ply, node.depth, TraceKind::NodePruned, "futility-node", detail);
        }
        NodeVerdict::Prune(node.static_eval)
    }

    /// Move pruning: whether futility skips this move.
    fn prunes_move<T: TechniqueSet, NT: NodeType>(
        cx: &mut Context<'_, '_, T, Self>,
        node: &Node,
        candidate: &Candidate,
    ) -> bool {
        let futility = T::TECHNIQUES.futility;
        if !futility.move_level() {
            return false;
        }
        debug_assert!(!NT::ROOT, "futility at the root");
        // Plan 002's preconditions, common to every move-level test.
        if node.in_check || !candidate.quiet || candidate.move_number <= 1 {
            return false;
        }
        // The PV status the 2.x test is gated on: the node's, or with the
        // effective depth the child's.
        let gated_pv = if futility.effective_depth { candidate.child_is_pv } else { NT::PV };
        let judged_depth = futility.judged_depth(node.depth, candidate.reduction);
        let phase_applies = futility.move_phase() > 0
            && !gated_pv
            && judged_depth <= futility.max_depth()
            && Futility::window_allows(node.alpha, node.beta);
        let victim_applies = futility.victim && !NT::PV && (VICTIM_MIN_DEPTH..=VICTIM_MAX_DEPTH).contains(&node.depth);
        if !phase_applies && !victim_applies {
            return false;
        }
        let guarded_move = candidate.is_tt_move || candidate.is_killer || candidate.is_counter_move;
        if futility.tactical_guards && (guarded_move || candidate.gives_check) {
            cx.counters().guarded += 1;
            return false;
        }
        if futility.keep_checks && candidate.gives_check {
            return false;
        }
        debug_assert!(node.static_eval != NO_EVAL, "futility without a static eval");
        cx.counters().attempts += 1;

        let mut pruned_by = None;
        if phase_applies && futility.is_futile(node.static_eval, node.alpha, judged_depth) {
            if futility.tactical_guards && judged_depth > SAFE_CAPTURE_MAX_DEPTH && cx.has_safe_capture(node) {
                cx.counters().capture_limited += 1;
            } else {
                pruned_by = Some(Rule::Phase);
            }
        }
        if pruned_by.is_none() && victim_applies {
            cx.counters().victim_attempts += 1;
            // The victim's value is never negative: no capture can help
            // when the eval and the margin alone reach alpha.
            if futility.victim_is_futile(node.static_eval, 0, node.alpha, node.depth)
                && futility.victim_is_futile(node.static_eval, cx.best_victim_value(node), node.alpha, node.depth)
            {
                pruned_by = Some(Rule::Victim);
            }
        }
        let Some(rule) = pruned_by else {
            return false;
        };

        debug_assert!(!node.in_check && candidate.quiet && candidate.move_number > 1);
        let bucket_depth = match rule {
            Rule::Phase => {
                debug_assert!(futility.effective_depth || !NT::PV, "parent-gated futility at a PV node");
                judged_depth
            }
            Rule::Victim => {
                debug_assert!(!NT::PV, "victim futility at a PV node");
                node.depth
            }
        };
        let counters = cx.counters();
        counters.cutoffs += 1;
        counters.by_depth[depth_bucket(node.depth)] += 1;
        counters.by_effective_depth[depth_bucket(bucket_depth)] += 1;
        let node_depth = (node.depth.clamp(1, 10) - 1) as usize;
        match rule {
            Rule::Phase => counters.phase_by_node_depth[node_depth] += 1,
            Rule::Victim => {
                counters.victim_cutoffs += 1;
                counters.victim_by_node_depth[node_depth] += 1;
            }
        }
        if futility.skip_quiets {
            let keeps_checks = futility.tactical_guards || futility.keep_checks;
            cx.drop_quiet_moves(node, "futility-skip-quiets", keeps_checks);
        }
        if cx.traces_move(node.ply, candidate.mv) {
            let (feature, detail) = match rule {
                Rule::Phase => (
                    futility.phase_feature(),
                    format!(
                        "futility at depth {judged_depth}: eval {} + margin {} <= alpha {}",
                        node.static_eval,
                        futility.margin(judged_depth),
                        node.alpha
                    ),
                ),
                Rule::Victim => (
                    if futility.victim_100 { "futility-victim-100" } else { "futility-victim" },
                    format!(
                        "victim futility at depth {}: eval {} + best victim {} + {} < alpha {}",
                        node.depth,
                        node.static_eval,
                        cx.best_victim_value(node),
                        futility.victim_margin(node.depth),
                        node.alpha
                    ),
                ),
            };
            cx.trace(node.ply, node.depth, TraceKind::MoveSkipped, feature, detail);
        }
        true
    }
}

/// The quiet moves a node drops after this technique pruned a move count
/// as its `skipped`.
impl DropsQuiets for Futility {
    fn dropped(counters: &mut FutilityCounters) -> &mut u64 {
        &mut counters.skipped
    }
}

impl Technique for Futility {
    const NAME: &'static str = "futility";
    type Counters = FutilityCounters;

    fn of(set: &Techniques) -> &Self {
        &set.futility
    }

    fn counters(all: &TechniqueCounters) -> &FutilityCounters {
        &all.futility
    }

    fn counters_mut(all: &mut TechniqueCounters) -> &mut FutilityCounters {
        &mut all.futility
    }

    /// `fut: att=X cut=Y cut%=Z.Z% fut_b=[d1-3,d4-6,d7-9,d10+]` plus the
    /// features' fields, when a move-level test is on; `fut_node: ...` for
    /// the node level.
    fn report(&self, counters: &FutilityCounters) -> Vec<String> {
        let mut lines = Vec::new();
        if self.move_level() {
            let mut line = format!(
                "fut: {} fut_b={}",
                crate::stats::rate(counters.attempts, counters.cutoffs),
                crate::stats::buckets(&counters.by_depth)
            );
            if self.effective_depth {
                line.push_str(&format!(" fut_eff_b={}", crate::stats::buckets(&counters.by_effective_depth)));
            }
            if self.tactical_guards {
                line.push_str(&format!(" guarded={} capture_limited={}", counters.guarded, counters.capture_limited));
            }
            if self.victim {
                line.push_str(&format!(
                    " victim_att={} victim_cut={} phase_cut_d={} victim_cut_d={}",
                    counters.victim_attempts,
                    counters.victim_cutoffs,
                    crate::stats::buckets(&counters.phase_by_node_depth),
                    crate::stats::buckets(&counters.victim_by_node_depth)
                ));
            }
            if self.skip_quiets {
                line.push_str(&format!(" skipped={}", counters.skipped));
            }
            lines.push(line);
        }
        if self.node_level {
            lines.push(format!(
                "fut_node: {} fut_node_b={}",
                crate::stats::rate(counters.node_attempts, counters.node_cutoffs),
                crate::stats::buckets(&counters.node_by_depth)
            ));
        }
        lines
    }

    fn snapshot_counters(counters: &FutilityCounters) -> Vec<(&'static str, u64, u64)> {
        vec![("fut", counters.attempts, counters.cutoffs), ("fut_node", counters.node_attempts, counters.node_cutoffs)]
    }

    fn tunable_list() -> &'static [&'static Tunable] {
        TUNABLES
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::position::Position;
    use crate::score::uci_score;
    use crate::search::{SearchLimits, SearchResult, Searcher};
    use crate::techniques::Techniques;

    fn set(features: &[&str]) -> Futility {
        Techniques::from_features(features).unwrap().futility
    }

    fn margins(config: Futility) -> Vec<i32> {
        (1..=config.max_depth()).map(|depth| config.margin(depth)).collect()
    }

    #[test]
    fn margins_follow_each_phase() {
        assert_eq!(margins(set(&["futility-2.1"])), [210, 270, 330, 390]);
        assert_eq!(margins(set(&["futility-2.2"])), [205, 280, 355, 430]);
        assert_eq!(margins(set(&["futility-2.3"])), [205, 280, 355, 430, 505, 580]);
        assert_eq!(margins(set(&["futility-2.4"])), [205, 295, 385, 475, 565, 655]);
        assert_eq!(margins(set(&["futility-progressive"])), [150, 300, 450, 600, 600, 600, 600]);
        assert_eq!(margins(set(&["futility-progressive-75"])), [150, 300, 450, 600, 675, 750, 825]);
        // The table replaces the formula at every phase.
        assert_eq!(margins(set(&["futility-2.4", "futility-progressive"])), [150, 300, 450, 600, 600, 600, 600]);
        // futility-node alone is plan 002's 2.1 code: 150 + 60·d to depth 4.
        assert_eq!(margins(set(&["futility-node"])), [210, 270, 330, 390]);
        // The victim test's margin is the futility margin at the node's
        // depth (with the progressive table, 600 at depths 4-7), or 100.
        assert_eq!([4, 7].map(|depth| set(&["futility-victim"]).victim_margin(depth)), [390, 570]);
        let progressive = set(&["futility-progressive", "futility-victim"]);
        assert_eq!([4, 5, 7].map(|depth| progressive.victim_margin(depth)), [600, 600, 600]);
        assert_eq!([4, 7].map(|depth| set(&["futility-victim-100"]).victim_margin(depth)), [100, 100]);
    }

    #[test]
    fn depth_limits_follow_each_phase() {
        let limit = |features: &[&str]| set(features).max_depth();
        assert_eq!(limit(&["futility-2.1"]), 4);
        assert_eq!(limit(&["futility-2.2"]), 4);
        assert_eq!(limit(&["futility-2.3"]), 6);
        assert_eq!(limit(&["futility-2.4"]), 6);
        assert_eq!(limit(&["futility-progressive"]), 7);
        assert_eq!(limit(&["futility-2.4", "futility-progressive"]), 7);
        assert_eq!(limit(&["futility-progressive-75"]), 7);
        assert_eq!(limit(&["futility-node"]), 4);
        assert_eq!((VICTIM_MIN_DEPTH, VICTIM_MAX_DEPTH, SAFE_CAPTURE_MAX_DEPTH), (4, 7, 2));
    }

    #[test]
    fn phases_resolve_whatever_the_order() {
        let forward = Techniques::of(&["futility-progressive", "futility-2.1", "futility-2.4"]).futility;
        let backward = Techniques::of(&["futility-2.4", "futility-2.1", "futility-progressive"]).futility;
        assert_eq!(forward, backward);
        assert_eq!(forward, set(&["futility-2.4", "futility-progressive"]));
        assert_eq!((forward.move_phase(), forward.phase_max_depth()), (4, 7));
        assert!(!Futility::BASELINE.any() && !Futility::BASELINE.move_level());
        assert!(set(&["futility-victim"]).move_level() && set(&["futility-victim"]).move_phase() == 0);
        assert!(set(&["futility-node"]).any() && !set(&["futility-node"]).move_level());
        for feature in ["futility-progressive", "futility-effective-depth", "futility-tactical-guards"] {
            assert_eq!(set(&[feature]).move_phase(), 1, "{feature} implies 2.1");
        }
    }

    #[test]
    fn futility_test_is_inclusive_and_victim_test_strict() {
        let config = set(&["futility-2.1", "futility-victim"]);
        assert!(config.is_futile(0, 210, 1));
        assert!(!config.is_futile(0, 209, 1));
        assert!(config.victim_is_futile(0, 320, 711, 4));
        assert!(!config.victim_is_futile(0, 320, 710, 4));
        let constant = set(&["futility-2.1", "futility-victim-100"]);
        assert!(constant.victim_is_futile(0, 320, 421, 4));
        assert!(!constant.victim_is_futile(0, 320, 420, 4));
    }

    #[test]
    fn effective_depth_subtracts_the_reduction_down_to_one() {
        let plain = set(&["futility-2.1"]);
        let effective = set(&["futility-effective-depth"]);
        assert_eq!(plain.judged_depth(9, 3), 9);
        assert_eq!(effective.judged_depth(9, 3), 6);
        assert_eq!(effective.judged_depth(3, 5), 1);
        assert_eq!(effective.judged_depth(4, 0), 4);
    }

    #[test]
    fn node_level_needs_depth_and_a_window_without_mate_scores() {
        let config = set(&["futility-node"]);
        assert!(config.node_applies(4, 0, 1));
        assert!(!config.node_applies(5, 0, 1));
        assert!(!config.node_applies(2, MATE_BOUND, MATE_BOUND + 1));
        assert!(!config.node_applies(2, -MATE_BOUND, 0));
        assert!(!config.node_applies(2, 0, MATE_BOUND));
        assert!(!set(&["futility-2.4"]).node_applies(1, 0, 1));
    }

    #[test]
    fn buckets_group_depths_by_three() {
        assert_eq!([1, 3, 4, 6, 7, 9, 10, 30].map(depth_bucket), [0, 0, 1, 1, 2, 2, 3, 3]);
    }

    #[test]
    fn report_lines_follow_the_plans_format() {
        let counters = FutilityCounters {
            attempts: 8,
            cutoffs: 3,
            by_depth: [2, 1, 0, 0],
            by_effective_depth: [3, 0, 0, 0],
            victim_attempts: 4,
            victim_cutoffs: 1,
            phase_by_node_depth: [2, 0, 0, 1, 0, 0, 0, 0, 0, 0],
            victim_by_node_depth: [0, 0, 0, 1, 0, 0, 0, 0, 0, 0],
            guarded: 5,
            capture_limited: 6,
            skipped: 7,
            node_attempts: 4,
            node_cutoffs: 1,
            node_by_depth: [1, 0, 0, 0],
        };
        assert!(Futility::BASELINE.report(&counters).is_empty());
        assert_eq!(set(&["futility-2.1"]).report(&counters), ["fut: att=8 cut=3 cut%=37.5% fut_b=[2,1,0,0]"]);
        assert_eq!(
            set(&["futility-effective-depth", "futility-tactical-guards", "futility-victim"]).report(&counters),
            ["fut: att=8 cut=3 cut%=37.5% fut_b=[2,1,0,0] fut_eff_b=[3,0,0,0] guarded=5 capture_limited=6 victim_att=4 \
              victim_cut=1 phase_cut_d=[2,0,0,1,0,0,0,0,0,0] victim_cut_d=[0,0,0,1,0,0,0,0,0,0]"]
        );
        assert_eq!(
            set(&["futility-node"]).report(&counters),
            ["fut_node: att=4 cut=1 cut%=25.0% fut_node_b=[1,0,0,0]"]
        );
        assert_eq!(set(&["futility-2.1", "futility-node"]).report(&counters).len(), 2);
        assert!(set(&["futility-skip-quiets"]).report(&counters)[0].ends_with(" skipped=7"));
    }

    #[test]
    fn tunables_default_to_the_compiled_phase() {
        let compiled = COMPILED.futility;
        assert_eq!(FUTILITY_BASE.default, compiled.margin_base());
        assert_eq!(FUTILITY_DEPTH_MARGIN.default, compiled.depth_margin());
        assert_eq!(FUTILITY_MAX_DEPTH.default, compiled.phase_max_depth());
        let names: Vec<&str> = TUNABLES.iter().map(|tunable| tunable.name()).collect();
        assert_eq!(
            names,
            [
                "FutilityBase",
                "FutilityDepthMargin",
                "FutilityMaxDepth",
                "FutilityProgressiveBase",
                "FutilityVictimMargin"
            ]
        );
    }

    // A feature's set is its catalogue test's (`feature_searches`), so its
    // search is compiled once. The plan's victim test, with its futility
    // margin, acts on few nodes (the catalogue test finds it on the seeds at
    // depth 10); 100 cp acts here.
    use super::feature_searches::{
        effective_depth as EffectiveDepth, node_level as NodeLevel, phase_2_1 as Phase21, phase_2_4 as Phase24,
        progressive as Progressive, skip_quiets as Phase21SkippingQuiets, tactical_guards as TacticalGuards,
        victim_100 as Victim100,
    };
    use crate::techniques::Baseline;
    crate::technique_set!(
        MoveLevel,
        [
            "futility-2.4",
            "futility-progressive",
            "futility-effective-depth",
            "futility-tactical-guards",
            "futility-victim"
        ]
    );
    crate::technique_set!(
        Family,
        [
            "futility-2.4",
            "futility-node",
            "futility-progressive",
            "futility-effective-depth",
            "futility-tactical-guards",
            "futility-victim"
        ]
    );

    fn search<T: TechniqueSet>(fen: &str, depth: i32) -> SearchResult {
        let mut searcher = Searcher::new(16);
        searcher.new_game();
        let limits = SearchLimits { depth: Some(depth), ..Default::default() };
        searcher.search_with::<T>(&Position::from_fen(fen).unwrap(), &limits, &AtomicBool::new(false), &mut |_| {})
    }

    const MIDDLEGAME: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8";

    /// The set's futility counters move, its node count differs from the
    /// baseline's, and a second search gives the same count.
    fn assert_fires<T: TechniqueSet>(moved: impl Fn(&FutilityCounters) -> u64) -> SearchResult {
        let baseline = search::<Baseline>(MIDDLEGAME, 8);
        let with = search::<T>(MIDDLEGAME, 8);
        let counters = with.stats.techniques.futility;
        assert!(moved(&counters) > 0, "{counters:?}");
        assert_ne!(with.nodes, baseline.nodes);
        assert_eq!(with.nodes, search::<T>(MIDDLEGAME, 8).nodes, "deterministic");
        with
    }

    #[test]
    fn each_variant_fires_and_changes_the_search() {
        let move_level = |counters: &FutilityCounters| counters.cutoffs;
        assert_fires::<Phase21>(move_level);
        assert_fires::<Phase24>(move_level);
        assert_fires::<NodeLevel>(|counters| counters.node_cutoffs);
        assert_fires::<Progressive>(move_level);
        let effective = assert_fires::<EffectiveDepth>(move_level).stats.techniques.futility;
        assert_eq!(effective.by_depth.iter().sum::<u64>(), effective.cutoffs);
        assert_eq!(effective.by_effective_depth.iter().sum::<u64>(), effective.cutoffs);
        assert_fires::<TacticalGuards>(|counters| counters.guarded);
        assert_fires::<Victim100>(|counters| counters.victim_cutoffs);
        assert_fires::<Family>(move_level);
    }

    /// The mates of `tests/features.rs`: quiet sacrifices and mating nets.
    const MATES: [(&str, &str); 4] = [
        ("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", "mate 2"),
        ("7k/pp4np/2p3p1/3pN1q1/3P4/Q7/1r3rPP/2R2RK1 w - - 0 1", "mate 2"),
        ("k4r2/1R4pb/1pQp1n1p/3P4/5p1P/3P2P1/r1q1R2K/8 w - - 0 1", "mate 3"),
        ("r3k2r/pbp2pp1/3b1n2/1p6/3P3p/1B2N1Pq/PP1PQP1P/R1B2RK1 b kq - 0 1", "mate 3"),
    ];

    fn assert_mates_found<T: TechniqueSet>() {
        for (fen, mate) in MATES {
            assert_eq!(uci_score(search::<T>(fen, 8).score), mate, "{fen}");
        }
    }

    #[test]
    fn mates_are_still_found_with_every_move_level_variant_on() {
        assert_mates_found::<MoveLevel>();
        assert_mates_found::<GuardedSkippingQuiets>();
    }

    crate::technique_set!(Guarded, ["futility-2.4", "futility-effective-depth", "futility-tactical-guards"]);
    crate::technique_set!(
        GuardedSkippingQuiets,
        ["futility-2.4", "futility-effective-depth", "futility-tactical-guards", "futility-skip-quiets"]
    );
    crate::technique_set!(BothSkippingQuiets, ["futility-skip-quiets", "lmp-skip-quiets"]);

    /// 2.1 alone judges every quiet move of a node against the same margin,
    /// and alpha only rises: a quiet move after a futile one is futile too.
    /// So dropping them searches the same tree, on every position of the
    /// node suite, and every move dropped is one the plain search pruned.
    #[test]
    fn skipping_quiets_after_plain_futility_searches_the_same_tree() {
        let searches = crate::matrix::suite_with_both::<Phase21, Phase21SkippingQuiets>(8);
        let mut positions_skipping = 0;
        for (id, plain, skipping) in &searches {
            let outcome = |result: &SearchResult| (result.nodes, result.best_move, result.score);
            assert_eq!(outcome(skipping), outcome(plain), "{id}");
            let (counters, plain_counters) = (&skipping.stats.techniques.futility, &plain.stats.techniques.futility);
            assert_eq!(counters.cutoffs + counters.skipped, plain_counters.cutoffs, "{id}");
            assert_eq!(counters.skipped > 0, counters.attempts < plain_counters.attempts, "{id}");
            positions_skipping += usize::from(counters.skipped > 0);
        }
        // Some endgames never have a quiet move after a futile one.
        assert!(positions_skipping * 10 >= searches.len() * 9, "{positions_skipping} of {}", searches.len());
    }

    /// With the tactical guards, futility never prunes a check, so the drop
    /// keeps the quiet checks: they come among the dropped moves, with the
    /// move numbers they had, and the tree is the same.
    #[test]
    fn skipping_quiets_after_guarded_futility_keeps_the_checks_and_the_tree() {
        let guarded = search::<Guarded>(MIDDLEGAME, 8);
        let skipping = search::<GuardedSkippingQuiets>(MIDDLEGAME, 8);
        assert!(skipping.stats.techniques.futility.skipped > 0);
        let outcome = |result: &SearchResult| (result.nodes, result.best_move, result.score);
        assert_eq!(outcome(&skipping), outcome(&guarded));
    }

    /// With both drops on, each is credited to the technique whose pruning
    /// asked for it: futility runs first, so it asks wherever it prunes, and
    /// move-count pruning where futility kept the move it prunes.
    #[test]
    fn each_drop_goes_to_the_technique_that_asked() {
        let futility_only = search::<Phase21SkippingQuiets>(MIDDLEGAME, 8).stats.techniques;
        assert_eq!(futility_only.move_count.skipped, 0);
        let both = search::<BothSkippingQuiets>(MIDDLEGAME, 8);
        let report = both.stats.report_lines_for(&BothSkippingQuiets::TECHNIQUES);
        let (futility, move_count) = (both.stats.techniques.futility, both.stats.techniques.move_count);
        assert!(futility.skipped > 0 && move_count.skipped > 0, "{report:?}");
        let reports = |prefix: &str, skipped: u64| {
            report.iter().any(|line| line.starts_with(prefix) && line.ends_with(&format!(" skipped={skipped}")))
        };
        assert!(reports("fut: ", futility.skipped));
        assert!(reports("mcp: ", move_count.skipped));
    }
}
