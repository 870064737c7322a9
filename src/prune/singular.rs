//! Singular extension: when the TT move looks much better than every other
//! move here, the node depends on it alone, so it is searched one ply deeper.
//! "Much better" is tested by a reduced null-window search of the node with
//! the TT move left out: if nothing else reaches a margin below the TT score,
//! the move is singular.
//!
//! Also called: TT-move singular extension (Stockfish's singular extension
//! in its extensions step, Ethereal's `singularity`); the original, Deep
//! Thought's singular extensions (Anantharaman, Campbell, Hsu), was a more
//! general test of a move against its siblings.
//!
//! Phases, side by side:
//! - `singular-ext` (plan 003, priority 4: "Extend singular moves that are
//!   much better than alternatives"): the plan gives no condition or
//!   number, so they are Stockfish's. Only the TT move, not at the root, at
//!   depth ≥ 8 (`SingularMinDepth`), when the TT entry is a lower or exact
//!   bound from depth ≥ depth − 3, its score is not a mate score, and the
//!   node is not itself a singular-exclusion search. With
//!   `singular_beta = tt_score − 2·depth` (`SingularBetaMargin` per ply, the
//!   margin Stockfish has used) and
//!   `singular_depth = (depth − 1) / 2`, the node is searched again at
//!   singular_depth in the null window (singular_beta − 1, singular_beta)
//!   without the TT move; a fail low (< singular_beta) extends the TT move
//!   by one ply. Stockfish's multi-cut (returning singular_beta when it is
//!   ≥ beta) and negative extensions are left out: the plan asks for an
//!   extension only.
//!   The exclusion search keeps the node type's null-window child type, so
//!   inside a null-move verification subtree null move stays off.
//!
//! Telemetry: `singular: att=X ext=Y ext%=Z.Z% sing_b=[d8-9,d10-11,d12-13,d14+]`:
//! an attempt is an exclusion search, an extension a fail low, and the
//! buckets count extensions by depth.
//!
//! Measured: full-without-singular is no ablation: no feature of singular is in full.

use cozy_chess::Board;

use crate::context::Context;
use crate::score::MATE_BOUND;
use crate::search::{Candidate, Node, NodeType};
use crate::stats::percent;
use crate::techniques::{Hooks, Technique, TechniqueCounters, TechniqueSet, Techniques};
use crate::trace::TraceKind;
use crate::tt::{Bound, TtHit};
use crate::tune::Tunable;
use crate::{counters, features, tunables};

/// Whether singular extension is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SingularExtension {
    /// `singular-ext`
    pub enabled: bool,
}

features! {
    SingularExtension {
        enabled: "singular-ext" [] "plan 003, priority 4" => "singular extension of the TT move";
    }
}

counters! {
    /// `singular:` telemetry.
    pub struct SingularCounters {
        /// Exclusion searches, and the extensions they earned.
        pub attempts: u64,
        pub extensions: u64,
        /// Extensions at depths 8-9, 10-11, 12-13, 14+.
        pub by_depth: [u64; 4],
    }
}

tunables! {
    /// Singular extension runs at this depth and deeper.
    SINGULAR_MIN_DEPTH: 8, 4, 12, 1;
    /// singular_beta = tt_score − this × depth.
    SINGULAR_BETA_MARGIN: 2, 1, 8, 1;
}

/// The TT entry must come from a search at least depth − this deep.
pub const SINGULAR_TT_DEPTH_MARGIN: i32 = 3;
/// The plies a singular TT move is extended by.
pub const SINGULAR_EXTENSION: i32 = 1;

impl SingularExtension {
    pub const fn is_on(&self) -> bool {
        self.enabled
    }
}

/// Whether the TT entry can support a singular test at `depth`.
pub fn tt_entry_qualifies(hit: &TtHit, depth: i32) -> bool {
    matches!(hit.bound, Bound::Lower | Bound::Exact)
        && hit.depth >= depth - SINGULAR_TT_DEPTH_MARGIN
        && hit.score.abs() < MATE_BOUND
}

/// The bound the other moves must stay under for the TT move to be singular.
pub fn singular_beta(tt_score: i32, depth: i32) -> i32 {
    tt_score - SINGULAR_BETA_MARGIN.get() * depth
}

/// The depth of the exclusion search.
pub fn singular_depth(depth: i32) -> i32 {
    (depth - 1) / 2
}

/// Depth bucket for `sing_b`: d8-9, d10-11, d12-13, d14+.
fn bucket(depth: i32) -> usize {
    ((depth - 8).max(0) / 2).min(3) as usize
}

impl Hooks for SingularExtension {
    /// Extensions: the plies the move is extended by (0 but for a singular TT
    /// move). Searches the node itself, so the caller must set the ply's
    /// current move afterwards and check `aborted`.
    fn extend_move<T: TechniqueSet, NT: NodeType>(
        cx: &mut Context<'_, '_, T, Self>,
        node: &Node,
        candidate: &Candidate,
        _child: &Board,
    ) -> i32 {
        if !T::TECHNIQUES.singular.is_on() || NT::ROOT || !candidate.is_tt_move {
            return 0;
        }
        let (depth, ply) = (node.depth, node.ply);
        if depth < SINGULAR_MIN_DEPTH.get() || cx.entry(ply).excluded_move.is_some() {
            return 0;
        }
        let Some(hit) = node.tt_hit.filter(|hit| tt_entry_qualifies(hit, depth)) else {
            return 0;
        };
        debug_assert_eq!(node.tt_move, Some(candidate.mv), "singular test of a move that is not the TT move");
        let beta = singular_beta(hit.score, depth);
        cx.counters().attempts += 1;
        let score = cx.excluding(ply, candidate.mv, |cx| {
            cx.search::<NT::NonPvChild>(node.board, singular_depth(depth), beta - 1, beta, ply)
        });
        if cx.aborted() || score >= beta {
            return 0;
        }
        let counters = cx.counters();
        counters.extensions += 1;
        counters.by_depth[bucket(depth)] += 1;
        if cx.traces_move(ply, candidate.mv) {
            let detail =
                format!("singular: the others stay below {beta} at depth {}: one ply deeper", singular_depth(depth));
            cx.trace(ply, depth, TraceKind::MoveDepth, "singular-ext", detail);
        }
        SINGULAR_EXTENSION
    }
}

impl Technique for SingularExtension {
    const NAME: &'static str = "singular";
    type Counters = SingularCounters;

    fn of(set: &Techniques) -> &Self {
        &set.singular
    }

    fn counters(all: &TechniqueCounters) -> &SingularCounters {
        &all.singular
    }

    fn counters_mut(all: &mut TechniqueCounters) -> &mut SingularCounters {
        &mut all.singular
    }

    /// `singular: att=X ext=Y ext%=Z.Z% sing_b=[d8-9,d10-11,d12-13,d14+]`.
    fn report(&self, counters: &SingularCounters) -> Vec<String> {
        if !self.is_on() {
            return Vec::new();
        }
        vec![format!(
            "singular: att={} ext={} ext%={}% sing_b={}",
            counters.attempts,
            counters.extensions,
            percent(counters.extensions, counters.attempts),
            crate::stats::buckets(&counters.by_depth)
        )]
    }

    fn snapshot_counters(counters: &SingularCounters) -> Vec<(&'static str, u64, u64)> {
        vec![("singular", counters.attempts, counters.extensions)]
    }

    fn tunable_list() -> &'static [&'static Tunable] {
        TUNABLES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(bound: Bound, depth: i32, score: i32) -> TtHit {
        TtHit { mv: None, score, static_eval: 0, depth, bound }
    }

    #[test]
    fn plan_numbers() {
        assert_eq!(SINGULAR_MIN_DEPTH.get(), 8);
        assert_eq!(SINGULAR_BETA_MARGIN.get(), 2);
        assert_eq!(SINGULAR_EXTENSION, 1);
        assert_eq!(singular_beta(50, 8), 34);
        assert_eq!(singular_beta(-20, 11), -42);
        assert_eq!([8, 9, 10, 11, 15].map(singular_depth), [3, 4, 4, 5, 7]);
        assert_eq!([8, 9, 10, 13, 14, 40].map(bucket), [0, 0, 1, 2, 3, 3]);
    }

    #[test]
    fn tt_entry_must_be_a_deep_enough_lower_or_exact_bound() {
        assert!(tt_entry_qualifies(&hit(Bound::Lower, 5, 30), 8));
        assert!(tt_entry_qualifies(&hit(Bound::Exact, 9, 30), 8));
        assert!(!tt_entry_qualifies(&hit(Bound::Upper, 9, 30), 8));
        assert!(!tt_entry_qualifies(&hit(Bound::Lower, 4, 30), 8));
        assert!(!tt_entry_qualifies(&hit(Bound::Exact, 9, MATE_BOUND), 8));
        assert!(!tt_entry_qualifies(&hit(Bound::Exact, 9, -MATE_BOUND), 8));
    }

    #[test]
    fn report_only_when_on() {
        let counters = SingularCounters { attempts: 8, extensions: 2, by_depth: [0, 2, 0, 0] };
        assert!(SingularExtension::BASELINE.report(&counters).is_empty());
        assert_eq!(
            SingularExtension { enabled: true }.report(&counters),
            ["singular: att=8 ext=2 ext%=25.0% sing_b=[0,2,0,0]"]
        );
    }
}
