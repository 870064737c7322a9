//! Razoring: near the horizon, when the static eval is far below alpha, ask
//! quiescence whether anything can save the node; if not, fail low at once
//! (or, in the older styles, search one ply shallower).
//!
//! Also called: "dropping into quiescence" (Hyatt, Romstad), "limited
//! razoring" (Heinz's depth-3 form). Styles, side by side; they are
//! exclusive, and the R chain (R1 ⊂ R2 ⊂ R3) counts as one style:
//! - `razor-r1` (plan 000, R1): non-PV, not in check, depth ≤ 2, |alpha|
//!   below the mate bound; margin 300 at depth 1 and 500 at depth 2. When
//!   `static_eval + margin ≤ alpha`, `q = qsearch(alpha, alpha + 1)`; if
//!   `q ≤ alpha`, store an upper bound at the current depth and return `q`.
//! - `razor-r2` (R2): tactical guard, +150 (`RazorTacticalBonus`) to the
//!   margin when the side to move has a capture with SEE ≥ 0.
//! - `razor-r3` (R3): phase-aware, +100 (`RazorEndgameBonus`) at game phase
//!   ≤ 4, −50 (`RazorOpeningReduction`) at phase ≥ 20.
//! - `razor-plan-4.1` (plan 002, 4.1): margin 300 at depth ≤ 2, full-window
//!   qsearch, return its score when ≤ alpha.
//! - `razor-sf` (Stockfish 2022): any depth, `eval < alpha − 512 − 293·d²`,
//!   `v = qsearch(alpha − 1, alpha)`, return `v` if `v < alpha` and not mate.
//! - `razor-heinz` (Heinz, limited razoring): at depth 3 without extension,
//!   when material balance + a queen (900) ≤ alpha and the opponent has more
//!   than 3 pieces besides pawns and king, continue at depth 2.
//! - `razor-hyatt` (Hyatt/Romstad): depth ≤ 3, null window, `eval + 300 <
//!   beta`: `v = qsearch`, return `v` if `v < beta`.
//! - `razor-strelka` (Strelka 2.0, fail-hard): `value = eval + 125`; at depth
//!   1 with `value < beta` return `max(qsearch, value)`; else `value += 175`
//!   and at depth ≤ 3 with `value < beta`, if `qsearch < beta` return
//!   `max(qsearch, value)`.
//! - `razor-crafty` (Crafty 15.17): depth 2, no extension, `eval + 50 <
//!   alpha`: one ply less.

use cozy_chess::{Board, Piece};

use crate::eval::material_balance;
use crate::position::{game_phase, Stage};
use crate::search::{Node, NodeType, Worker, MATE_BOUND};
use crate::techniques::{Hooks, NodeVerdict, Technique, TechniqueSet};
use crate::tt::Bound;
use crate::tune::Tunable;
use crate::{counters, technique, tunables};

technique! {
    /// Which razoring features are on; [`Razoring::style`] is what runs.
    pub struct Razoring {
        r1: "razor-r1" [] "plan 000 R1" => "razoring at depth <= 2, margins 300/500, null-window qsearch";
        r2: "razor-r2" ["razor-r1"] "plan 000 R2" => "razoring tactical guard: +150 with a capture of SEE >= 0";
        r3: "razor-r3" ["razor-r2"] "plan 000 R3" => "phase-aware razoring margins";
        plan_4_1: "razor-plan-4.1" [] "plan 002, 4.1" => "razoring margin 300 at depth <= 2, full-window qsearch";
        stockfish: "razor-sf" [] "Stockfish 2022" => "razoring at any depth when eval < alpha - 512 - 293 d^2";
        heinz: "razor-heinz" [] "Heinz, limited razoring" => "depth 3 reduced to 2 when material + margin <= alpha";
        hyatt: "razor-hyatt" [] "Hyatt/Romstad" => "drop into qsearch at depth <= 3 when eval + 300 < beta";
        strelka: "razor-strelka" [] "Strelka 2.0" => "fail-hard razoring at depths 1-3 with max(q, value)";
        crafty: "razor-crafty" [] "Crafty 15.17" => "reduce one more ply at depth 2 when value + 50 < alpha";
    }
    // The R chain (R1 within R2 within R3) counts as one style.
    exclusive "razoring styles": [
        "razor-r1", "razor-plan-4.1", "razor-sf", "razor-heinz", "razor-hyatt", "razor-strelka", "razor-crafty"
    ];
}

counters! {
    /// `razor:` telemetry.
    pub struct RazorCounters {
        /// Nodes that reached the qsearch probe (or the reduction).
        pub attempts: u64,
        pub cutoffs: u64,
        /// Cutoffs at depths 1, 2, 3 and 4+.
        pub by_depth: [u64; 4],
        /// R2: margins raised by the tactical guard.
        pub tactical: u64,
        /// R3: margins adjusted for the game phase.
        pub phase: u64,
    }
}

tunables! {
    list CHAIN_TUNABLES;
    RAZOR_MARGIN_1: 300, 100, 600, 20;
    RAZOR_MARGIN_2: 500, 200, 900, 20;
    RAZOR_TACTICAL_BONUS: 150, 0, 400, 10;
    RAZOR_ENDGAME_BONUS: 100, 0, 300, 10;
    RAZOR_OPENING_REDUCTION: 50, 0, 200, 10;
}
tunables! { list PLAN_TUNABLES; RAZOR_PLAN_MARGIN: 300, 100, 600, 20; }
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
    R3,
    Plan41,
    Stockfish,
    Heinz,
    Hyatt,
    Strelka,
    Crafty,
}

impl Razoring {
    /// The style these features select: within the R chain the latest phase.
    pub const fn style(&self) -> Style {
        if self.r3 {
            Style::R3
        } else if self.r2 {
            Style::R2
        } else if self.r1 {
            Style::R1
        } else if self.plan_4_1 {
            Style::Plan41
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

/// The opponent's pieces other than pawns and king.
fn opponent_piece_count(board: &Board) -> u32 {
    let theirs = board.colors(!board.side_to_move());
    (theirs & !(board.pieces(Piece::Pawn) | board.pieces(Piece::King))).len()
}

impl Hooks for Razoring {
    fn prune_node<T: TechniqueSet, NT: NodeType>(worker: &mut Worker<'_, T>, board: &Board, node: &Node) -> NodeVerdict {
        worker.razoring::<NT>(board, node)
    }
}

impl Technique for Razoring {
    type Counters = RazorCounters;

    /// `razor: att=X cut=Y cut%=Z.Z% razor_b=[d1,d2] tactical=T phase=P`.
    fn report(&self, counters: &RazorCounters) -> Vec<String> {
        let style = self.style();
        if style == Style::Off {
            return Vec::new();
        }
        let buckets = match style {
            Style::R1 | Style::R2 | Style::R3 | Style::Plan41 => 2,
            _ => 4,
        };
        let mut line = format!(
            "razor: {} razor_b={}",
            crate::stats::rate(counters.attempts, counters.cutoffs),
            crate::stats::buckets(&counters.by_depth[..buckets])
        );
        if matches!(style, Style::R2 | Style::R3) {
            line.push_str(&format!(" tactical={}", counters.tactical));
        }
        if style == Style::R3 {
            line.push_str(&format!(" phase={}", counters.phase));
        }
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
            Style::R2 => &CHAIN_TUNABLES[..3],
            Style::R3 => CHAIN_TUNABLES,
            Style::Plan41 => PLAN_TUNABLES,
            Style::Stockfish => STOCKFISH_TUNABLES,
            Style::Heinz => HEINZ_TUNABLES,
            Style::Hyatt => HYATT_TUNABLES,
            Style::Strelka => STRELKA_TUNABLES,
            Style::Crafty => CRAFTY_TUNABLES,
        };
        list.to_vec()
    }
}

/// Depth bucket for `razor_b`: d1, d2, d3, d4+.
fn bucket(depth: i32) -> usize {
    (depth.clamp(1, 4) - 1) as usize
}

impl<T: TechniqueSet> Worker<'_, T> {
    /// Step 6: razoring. Runs after the TT probe and static eval, before
    /// move generation; the caller has excluded check.
    pub(crate) fn razoring<NT: NodeType>(&mut self, board: &Board, node: &Node) -> NodeVerdict {
        let style = T::TECHNIQUES.razoring.style();
        if NT::PV || style == Style::Off {
            return NodeVerdict::Continue;
        }
        debug_assert!(!node.in_check, "razoring in check");
        let (depth, alpha, beta, eval, ply) = (node.depth, node.alpha, node.beta, node.static_eval, node.ply);
        match style {
            Style::Off => NodeVerdict::Continue,
            Style::R1 | Style::R2 | Style::R3 => {
                if depth > 2 || alpha.abs() >= MATE_BOUND {
                    return NodeVerdict::Continue;
                }
                let mut margin = Razoring::chain_margin(depth);
                if style == Style::R3 {
                    let adjustment = Razoring::phase_adjustment(game_phase(board));
                    if adjustment != 0 {
                        margin += adjustment;
                        self.stats.techniques.razoring.phase += 1;
                    }
                }
                if eval + margin > alpha {
                    return NodeVerdict::Continue;
                }
                // The tactical guard only matters when the node would razor.
                if style != Style::R1 && self.has_safe_capture(board, ply) {
                    margin += RAZOR_TACTICAL_BONUS.get();
                    self.stats.techniques.razoring.tactical += 1;
                    if eval + margin > alpha {
                        return NodeVerdict::Continue;
                    }
                }
                self.stats.techniques.razoring.attempts += 1;
                let score = self.qsearch::<NT>(board, alpha, alpha + 1, ply);
                if self.aborted || score > alpha {
                    return NodeVerdict::Continue;
                }
                self.tt.store(node.hash, node.tt_move, score, eval, depth, Bound::Upper, ply);
                self.count_razor_cut(depth);
                NodeVerdict::Prune(score)
            }
            Style::Plan41 => {
                if depth > 2 || alpha.abs() >= MATE_BOUND || eval + RAZOR_PLAN_MARGIN.get() > alpha {
                    return NodeVerdict::Continue;
                }
                self.stats.techniques.razoring.attempts += 1;
                let score = self.qsearch::<NT>(board, alpha, beta, ply);
                if self.aborted || score > alpha {
                    return NodeVerdict::Continue;
                }
                self.count_razor_cut(depth);
                NodeVerdict::Prune(score)
            }
            Style::Stockfish => {
                if eval >= alpha - Razoring::stockfish_margin(depth) {
                    return NodeVerdict::Continue;
                }
                self.stats.techniques.razoring.attempts += 1;
                let score = self.qsearch::<NT>(board, alpha - 1, alpha, ply);
                if self.aborted || score >= alpha || score.abs() >= MATE_BOUND {
                    return NodeVerdict::Continue;
                }
                self.count_razor_cut(depth);
                NodeVerdict::Prune(score)
            }
            Style::Heinz => {
                let material = material_balance(board, board.side_to_move());
                if depth != 3
                    || node.extended
                    || material + RAZOR_HEINZ_MARGIN.get() > alpha
                    || opponent_piece_count(board) <= 3
                {
                    return NodeVerdict::Continue;
                }
                self.stats.techniques.razoring.attempts += 1;
                self.count_razor_cut(depth);
                NodeVerdict::Reduce(1)
            }
            Style::Hyatt => {
                if depth > 3 || eval + RAZOR_HYATT_MARGIN.get() >= beta {
                    return NodeVerdict::Continue;
                }
                self.stats.techniques.razoring.attempts += 1;
                let score = self.qsearch::<NT>(board, alpha, beta, ply);
                if self.aborted || score >= beta {
                    return NodeVerdict::Continue;
                }
                self.count_razor_cut(depth);
                NodeVerdict::Prune(score)
            }
            Style::Strelka => {
                let mut value = eval + RAZOR_STRELKA_MARGIN_1.get();
                if value >= beta || depth > 3 {
                    return NodeVerdict::Continue;
                }
                if depth == 1 {
                    self.stats.techniques.razoring.attempts += 1;
                    let score = self.qsearch::<NT>(board, beta - 1, beta, ply);
                    if self.aborted {
                        return NodeVerdict::Continue;
                    }
                    self.count_razor_cut(depth);
                    return NodeVerdict::Prune(score.max(value));
                }
                value += RAZOR_STRELKA_MARGIN_2.get();
                if value >= beta {
                    return NodeVerdict::Continue;
                }
                self.stats.techniques.razoring.attempts += 1;
                let score = self.qsearch::<NT>(board, beta - 1, beta, ply);
                if self.aborted || score >= beta {
                    return NodeVerdict::Continue;
                }
                self.count_razor_cut(depth);
                NodeVerdict::Prune(score.max(value))
            }
            Style::Crafty => {
                if depth != 2 || node.extended || eval + RAZOR_CRAFTY_MARGIN.get() >= alpha {
                    return NodeVerdict::Continue;
                }
                self.stats.techniques.razoring.attempts += 1;
                self.count_razor_cut(depth);
                NodeVerdict::Reduce(1)
            }
        }
    }

    fn count_razor_cut(&mut self, depth: i32) {
        let counters = &mut self.stats.techniques.razoring;
        counters.cutoffs += 1;
        counters.by_depth[bucket(depth)] += 1;
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
        assert_eq!(style(&["razor-r3"]), Style::R3);
        assert_eq!(style(&["razor-sf"]), Style::Stockfish);
        assert_eq!(Razoring::BASELINE.with("razor-r3").with("razor-r1").style(), Style::R3);
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
    }

    #[test]
    fn two_styles_are_refused_by_name() {
        let error = Techniques::from_features(&["razor-hyatt", "razor-crafty"]).unwrap_err();
        assert!(error.contains("razor-hyatt") && error.contains("razor-crafty"), "{error}");
        assert!(Techniques::from_features(&["razor-r3", "razor-r1"]).is_ok());
    }
}
