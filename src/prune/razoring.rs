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
use crate::position::game_phase;
use crate::search::{Node, NodeType, Worker, MATE_BOUND};
use crate::stats::{SearchStats, Technique};
use crate::techniques::{same, TechniqueSet};
use crate::tt::Bound;
use crate::tunables;
use crate::tune::Tunable;

/// Two razoring styles in one build: a compile error naming both.
macro_rules! exclusive_styles {
    ($first:literal $(, $rest:literal)*) => {
        $(
            #[cfg(all(feature = $first, feature = $rest))]
            compile_error!(concat!("razoring styles are exclusive: `", $first, "` and `", $rest, "` are both enabled"));
        )*
        exclusive_styles!($($rest),*);
    };
    () => {};
}
exclusive_styles!(
    "razor-r1",
    "razor-plan-4.1",
    "razor-sf",
    "razor-heinz",
    "razor-hyatt",
    "razor-strelka",
    "razor-crafty"
);

/// The features that start a style, in the order of `exclusive_styles!`.
const STYLE_FEATURES: [&str; 7] =
    ["razor-r1", "razor-plan-4.1", "razor-sf", "razor-heinz", "razor-hyatt", "razor-strelka", "razor-crafty"];

tunables! {
    list CHAIN_TUNABLES;
    RAZOR_MARGIN_1 = "RazorMargin1": 300, 100, 600, 20;
    RAZOR_MARGIN_2 = "RazorMargin2": 500, 200, 900, 20;
    RAZOR_TACTICAL_BONUS = "RazorTacticalBonus": 150, 0, 400, 10;
    RAZOR_ENDGAME_BONUS = "RazorEndgameBonus": 100, 0, 300, 10;
    RAZOR_OPENING_REDUCTION = "RazorOpeningReduction": 50, 0, 200, 10;
}
tunables! { list PLAN_TUNABLES; RAZOR_PLAN_MARGIN = "RazorPlanMargin": 300, 100, 600, 20; }
tunables! {
    list STOCKFISH_TUNABLES;
    RAZOR_SF_BASE = "RazorSfBase": 512, 200, 900, 20;
    RAZOR_SF_DEPTH_MARGIN = "RazorSfDepthMargin": 293, 100, 500, 10;
}
tunables! { list HEINZ_TUNABLES; RAZOR_HEINZ_MARGIN = "RazorHeinzMargin": 900, 500, 1300, 25; }
tunables! { list HYATT_TUNABLES; RAZOR_HYATT_MARGIN = "RazorHyattMargin": 300, 100, 600, 20; }
tunables! {
    list STRELKA_TUNABLES;
    RAZOR_STRELKA_MARGIN_1 = "RazorStrelkaMargin1": 125, 50, 300, 10;
    RAZOR_STRELKA_MARGIN_2 = "RazorStrelkaMargin2": 175, 50, 400, 10;
}
tunables! { list CRAFTY_TUNABLES; RAZOR_CRAFTY_MARGIN = "RazorCraftyMargin": 50, 0, 200, 10; }

/// At or below this game phase, the plans' endgame; at or above the other,
/// their opening.
pub const ENDGAME_PHASE: i32 = 4;
pub const OPENING_PHASE: i32 = 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Razoring {
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

/// What razoring decided for a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RazorVerdict {
    Continue,
    Prune(i32),
    /// Search the node this many plies shallower.
    Reduce(i32),
}

impl Razoring {
    pub const BASELINE: Self = Razoring::Off;

    pub const fn with(self, feature: &str) -> Self {
        let next = if same(feature, "razor-r1") {
            Razoring::R1
        } else if same(feature, "razor-r2") {
            Razoring::R2
        } else if same(feature, "razor-r3") {
            Razoring::R3
        } else if same(feature, "razor-plan-4.1") {
            Razoring::Plan41
        } else if same(feature, "razor-sf") {
            Razoring::Stockfish
        } else if same(feature, "razor-heinz") {
            Razoring::Heinz
        } else if same(feature, "razor-hyatt") {
            Razoring::Hyatt
        } else if same(feature, "razor-strelka") {
            Razoring::Strelka
        } else if same(feature, "razor-crafty") {
            Razoring::Crafty
        } else {
            return self;
        };
        // Within the R chain the later phase wins, whatever the order.
        match (self, next) {
            (Razoring::R3, Razoring::R1 | Razoring::R2) | (Razoring::R2, Razoring::R1) => self,
            _ => next,
        }
    }

    pub const fn is_on(&self) -> bool {
        !matches!(self, Razoring::Off)
    }

    /// The tunables of this style (R1 uses the chain's first two, R2 three).
    pub fn tunables(&self) -> &'static [&'static Tunable] {
        match self {
            Razoring::Off => &[],
            Razoring::R1 => &CHAIN_TUNABLES[..2],
            Razoring::R2 => &CHAIN_TUNABLES[..3],
            Razoring::R3 => CHAIN_TUNABLES,
            Razoring::Plan41 => PLAN_TUNABLES,
            Razoring::Stockfish => STOCKFISH_TUNABLES,
            Razoring::Heinz => HEINZ_TUNABLES,
            Razoring::Hyatt => HYATT_TUNABLES,
            Razoring::Strelka => STRELKA_TUNABLES,
            Razoring::Crafty => CRAFTY_TUNABLES,
        }
    }

    /// Refuses two razoring styles in one feature list, naming both.
    pub fn check_exclusive(features: &[&str]) -> Result<(), String> {
        let styles: Vec<&str> = STYLE_FEATURES.iter().copied().filter(|style| features.contains(style)).collect();
        match styles.as_slice() {
            [first, second, ..] => {
                Err(format!("razoring styles are exclusive: `{first}` and `{second}` are both enabled"))
            }
            _ => Ok(()),
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
        if phase <= ENDGAME_PHASE {
            RAZOR_ENDGAME_BONUS.get()
        } else if phase >= OPENING_PHASE {
            -RAZOR_OPENING_REDUCTION.get()
        } else {
            0
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

/// Depth bucket for `razor_b`: d1, d2, d3, d4+.
fn bucket(depth: i32) -> usize {
    (depth.clamp(1, 4) - 1) as usize
}

impl<T: TechniqueSet> Worker<'_, T> {
    /// Step 6: razoring. Runs after the TT probe and static eval, before
    /// move generation; the caller has excluded check.
    pub(crate) fn razoring<NT: NodeType>(&mut self, board: &Board, node: &Node) -> RazorVerdict {
        let style = T::TECHNIQUES.razoring;
        if NT::PV || !style.is_on() {
            return RazorVerdict::Continue;
        }
        debug_assert!(!node.in_check, "razoring in check");
        let (depth, alpha, beta, eval, ply) = (node.depth, node.alpha, node.beta, node.static_eval, node.ply);
        match style {
            Razoring::Off => RazorVerdict::Continue,
            Razoring::R1 | Razoring::R2 | Razoring::R3 => {
                if depth > 2 || alpha.abs() >= MATE_BOUND {
                    return RazorVerdict::Continue;
                }
                let mut margin = Razoring::chain_margin(depth);
                if style == Razoring::R3 {
                    let adjustment = Razoring::phase_adjustment(game_phase(board));
                    if adjustment != 0 {
                        margin += adjustment;
                        self.stats.technique(Technique::Razoring).extra[1] += 1;
                    }
                }
                if eval + margin > alpha {
                    return RazorVerdict::Continue;
                }
                // The tactical guard only matters when the node would razor.
                if style != Razoring::R1 && self.has_safe_capture(board, ply) {
                    margin += RAZOR_TACTICAL_BONUS.get();
                    self.stats.technique(Technique::Razoring).extra[0] += 1;
                    if eval + margin > alpha {
                        return RazorVerdict::Continue;
                    }
                }
                self.stats.technique(Technique::Razoring).attempts += 1;
                let score = self.qsearch::<NT>(board, alpha, alpha + 1, ply);
                if self.aborted || score > alpha {
                    return RazorVerdict::Continue;
                }
                self.tt.store(node.hash, node.tt_move, score, eval, depth, Bound::Upper, ply);
                self.count_razor_cut(depth);
                RazorVerdict::Prune(score)
            }
            Razoring::Plan41 => {
                if depth > 2 || alpha.abs() >= MATE_BOUND || eval + RAZOR_PLAN_MARGIN.get() > alpha {
                    return RazorVerdict::Continue;
                }
                self.stats.technique(Technique::Razoring).attempts += 1;
                let score = self.qsearch::<NT>(board, alpha, beta, ply);
                if self.aborted || score > alpha {
                    return RazorVerdict::Continue;
                }
                self.count_razor_cut(depth);
                RazorVerdict::Prune(score)
            }
            Razoring::Stockfish => {
                if eval >= alpha - Razoring::stockfish_margin(depth) {
                    return RazorVerdict::Continue;
                }
                self.stats.technique(Technique::Razoring).attempts += 1;
                let score = self.qsearch::<NT>(board, alpha - 1, alpha, ply);
                if self.aborted || score >= alpha || score.abs() >= MATE_BOUND {
                    return RazorVerdict::Continue;
                }
                self.count_razor_cut(depth);
                RazorVerdict::Prune(score)
            }
            Razoring::Heinz => {
                let material = material_balance(board, board.side_to_move());
                if depth != 3
                    || node.extended
                    || material + RAZOR_HEINZ_MARGIN.get() > alpha
                    || opponent_piece_count(board) <= 3
                {
                    return RazorVerdict::Continue;
                }
                self.stats.technique(Technique::Razoring).attempts += 1;
                self.count_razor_cut(depth);
                RazorVerdict::Reduce(1)
            }
            Razoring::Hyatt => {
                if depth > 3 || eval + RAZOR_HYATT_MARGIN.get() >= beta {
                    return RazorVerdict::Continue;
                }
                self.stats.technique(Technique::Razoring).attempts += 1;
                let score = self.qsearch::<NT>(board, alpha, beta, ply);
                if self.aborted || score >= beta {
                    return RazorVerdict::Continue;
                }
                self.count_razor_cut(depth);
                RazorVerdict::Prune(score)
            }
            Razoring::Strelka => {
                let mut value = eval + RAZOR_STRELKA_MARGIN_1.get();
                if value >= beta || depth > 3 {
                    return RazorVerdict::Continue;
                }
                if depth == 1 {
                    self.stats.technique(Technique::Razoring).attempts += 1;
                    let score = self.qsearch::<NT>(board, beta - 1, beta, ply);
                    if self.aborted {
                        return RazorVerdict::Continue;
                    }
                    self.count_razor_cut(depth);
                    return RazorVerdict::Prune(score.max(value));
                }
                value += RAZOR_STRELKA_MARGIN_2.get();
                if value >= beta {
                    return RazorVerdict::Continue;
                }
                self.stats.technique(Technique::Razoring).attempts += 1;
                let score = self.qsearch::<NT>(board, beta - 1, beta, ply);
                if self.aborted || score >= beta {
                    return RazorVerdict::Continue;
                }
                self.count_razor_cut(depth);
                RazorVerdict::Prune(score.max(value))
            }
            Razoring::Crafty => {
                if depth != 2 || node.extended || eval + RAZOR_CRAFTY_MARGIN.get() >= alpha {
                    return RazorVerdict::Continue;
                }
                self.stats.technique(Technique::Razoring).attempts += 1;
                self.count_razor_cut(depth);
                RazorVerdict::Reduce(1)
            }
        }
    }

    fn count_razor_cut(&mut self, depth: i32) {
        let counters = self.stats.technique(Technique::Razoring);
        counters.cutoffs += 1;
        counters.buckets[bucket(depth)] += 1;
    }
}

/// `razor: att=X cut=Y cut%=Z.Z% razor_b=[d1,d2] tactical=T phase=P`.
pub fn report(stats: &SearchStats, config: &Razoring) -> Option<String> {
    if !config.is_on() {
        return None;
    }
    let counters = stats.counters(Technique::Razoring);
    let buckets = match config {
        Razoring::R1 | Razoring::R2 | Razoring::R3 | Razoring::Plan41 => 2,
        _ => 4,
    };
    let mut line = format!("razor: {} razor_b={}", counters.rate(), counters.buckets(buckets));
    if matches!(config, Razoring::R2 | Razoring::R3) {
        line.push_str(&format!(" tactical={}", counters.extra[0]));
    }
    if *config == Razoring::R3 {
        line.push_str(&format!(" phase={}", counters.extra[1]));
    }
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::techniques::Techniques;

    fn style(features: &[&str]) -> Razoring {
        Techniques::from_features(features).unwrap().razoring
    }

    #[test]
    fn the_r_chain_is_one_style_whatever_the_order() {
        assert_eq!(style(&["razor-r1"]), Razoring::R1);
        assert_eq!(style(&["razor-r2"]), Razoring::R2);
        assert_eq!(style(&["razor-r3"]), Razoring::R3);
        assert_eq!(Razoring::Off.with("razor-r3").with("razor-r1"), Razoring::R3);
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
