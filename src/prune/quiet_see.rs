//! SEE pruning of quiet moves: near the horizon, a quiet move that puts its
//! piece where the opponent wins material by exchange is skipped without a
//! search.
//!
//! Also called: "SEE pruning" (Ethereal's `SEEPruningDepth` with its quiet
//! margin `SEEQuietMargin`), Stockfish's quiet-move `see_ge` test in its
//! move loop. The book's "Adding a technique" (docs/adding-a-technique.md)
//! walks through this file.
//!
//! Phases, side by side:
//! - `see-quiet` (Ethereal's SEE pruning of quiets): a quiet move (neither
//!   a capture nor a promotion) that gives no check and is not the TT move,
//!   at a non-PV node not in check, of depth ≤ 9 (`SeeQuietMaxDepth`), after
//!   the first move, is skipped when its SEE is below −64·depth
//!   (`SeeQuietMargin` per ply). Where it departs from Ethereal: non-PV
//!   only and never in check or for the TT move (Ethereal prunes at every
//!   node type, the TT move aside, and adjusts the margin by history).
//!
//! Telemetry: `see_quiet: att=X cut=Y cut%=Z.Z% sq_b=[d1-3,d4-6,d7-9]`: an
//! attempt is a move that met every condition but the SEE test.
//!
//! Measured: full-without-quiet_see is no ablation: no feature of quiet_see is in full.

use crate::context::Context;
use crate::search::{Candidate, Node, NodeType};
use crate::see::see_ge;
use crate::techniques::{Hooks, Technique, TechniqueCounters, TechniqueSet, Techniques};
use crate::trace::TraceKind;
use crate::tune::Tunable;
use crate::{counters, features, tunables};

/// Whether quiet moves are SEE-pruned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuietSee {
    /// `see-quiet`
    pub enabled: bool,
}

features! {
    QuietSee {
        enabled: "see-quiet" [] "Ethereal (SEE pruning of quiets)"
            => "prune quiet moves with SEE below -64 * depth at depth <= 9";
    }
}

counters! {
    /// `see_quiet:` telemetry.
    pub struct QuietSeeCounters {
        /// Moves that met every condition but the SEE test, and pruned.
        pub attempts: u64,
        pub cutoffs: u64,
        /// Cutoffs at depths 1-3, 4-6, 7-9.
        pub by_depth: [u64; 3],
    }
}

tunables! {
    /// Prune at this depth and below.
    SEE_QUIET_MAX_DEPTH: 9, 1, 12, 1;
    /// A move's SEE must reach −(this × depth) not to be pruned.
    SEE_QUIET_MARGIN: 64, 0, 200, 8;
}

impl Hooks for QuietSee {
    fn prunes_move<T: TechniqueSet, NT: NodeType>(
        cx: &mut Context<'_, '_, T, Self>,
        node: &Node,
        candidate: &Candidate,
    ) -> bool {
        if !T::TECHNIQUES.quiet_see.enabled
            || NT::PV
            || node.in_check
            || node.depth > SEE_QUIET_MAX_DEPTH.get()
            || !candidate.quiet
            || candidate.gives_check
            || candidate.is_tt_move
        {
            return false;
        }
        let counters = cx.counters();
        counters.attempts += 1;
        if see_ge(node.board, candidate.mv, -SEE_QUIET_MARGIN.get() * node.depth) {
            return false;
        }
        counters.cutoffs += 1;
        counters.by_depth[((node.depth - 1) / 3).clamp(0, 2) as usize] += 1;
        if cx.traces_move(node.ply, candidate.mv) {
            let detail = format!("SEE below -{} x depth {}", SEE_QUIET_MARGIN.get(), node.depth);
            cx.trace(node.ply, node.depth, TraceKind::MoveSkipped, "see-quiet", detail);
        }
        true
    }
}

impl Technique for QuietSee {
    const NAME: &'static str = "quiet_see";
    type Counters = QuietSeeCounters;

    fn of(set: &Techniques) -> &Self {
        &set.quiet_see
    }

    fn counters(all: &TechniqueCounters) -> &QuietSeeCounters {
        &all.quiet_see
    }

    fn counters_mut(all: &mut TechniqueCounters) -> &mut QuietSeeCounters {
        &mut all.quiet_see
    }

    fn report(&self, counters: &QuietSeeCounters) -> Vec<String> {
        if !self.enabled {
            return Vec::new();
        }
        vec![format!(
            "see_quiet: {} sq_b={}",
            crate::stats::rate(counters.attempts, counters.cutoffs),
            crate::stats::buckets(&counters.by_depth)
        )]
    }

    fn snapshot_counters(counters: &QuietSeeCounters) -> Vec<(&'static str, u64, u64)> {
        vec![("see_quiet", counters.attempts, counters.cutoffs)]
    }

    fn tunable_list() -> &'static [&'static Tunable] {
        TUNABLES
    }
}
