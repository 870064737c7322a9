//! Internal iterative reduction: a node deep enough that the transposition
//! table should have given it a move, but did not, is searched a ply
//! shallower. Without a TT move its move ordering is poor and the node is
//! probably new to the search; the next iteration finds it again with a
//! move, at full depth.
//!
//! Also called: IIR, "Rebel's idea" (Ed Schröder's replacement for internal
//! iterative deepening, which searched such a node at a reduced depth first
//! to find a move); Ethereal's and Stockfish's "Internal Iterative
//! Reductions" step.
//!
//! Phases, side by side:
//! - `iir` (Weiss, "Internal iterative reduction based on Rebel's idea":
//!   `if (depth >= 4 && !ttMove) depth--;`): at depth ≥ 4 (`IirMinDepth`)
//!   with no legal TT move the node is searched 1 ply (`IirReduction`)
//!   shallower, at every node type, PV and non-PV, as Weiss did. This
//!   engine has no cut-node flag, so Ethereal's form (depth ≥ 7, expected
//!   cut nodes, and PV nodes in some versions) and Stockfish 15's (PV nodes
//!   by 3, cut nodes from depth 8 by 2) are not what this feature follows. Where it departs from
//!   Weiss: not at the root (whose previous iteration left its best move in
//!   the table), not in check and not in a singular-exclusion search (the
//!   node-level steps' preconditions). It runs first among the node-level
//!   steps, as in Weiss, so razoring, reverse futility, null move and
//!   ProbCut see the reduced depth, and the node's result is stored at it.
//! - `iir-pv` (implies `iir`; Weiss later: `if (pvNode && depth >= 4 &&
//!   !ttMove) depth--;`, and Stockfish reduces PV nodes without a TT move
//!   too): only PV nodes are reduced.
//!
//! Telemetry: `iir: att=X cut=Y cut%=Z.Z% iir_b=[d4-6,d7-9,d10+]`: an
//! attempt is a node that met every condition but the missing TT move, a
//! cut a node reduced; the buckets count reductions by depth.
//!
//! Measured: full-without-iir against full: -26.8 Elo [-42.5, -11.2], 1000 games at 10000 nodes a move.

use crate::context::Context;
use crate::search::{Node, NodeType};
use crate::techniques::{Hooks, NodeVerdict, Technique, TechniqueCounters, TechniqueSet, Techniques};
use crate::trace::TraceKind;
use crate::tune::Tunable;
use crate::{counters, features, tunables};

/// Which internal iterative reduction is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InternalIterativeReduction {
    /// `iir`
    pub enabled: bool,
    /// `iir-pv`
    pub pv_only: bool,
}

features! {
    InternalIterativeReduction {
        enabled: "iir" [] "Weiss (Rebel's idea)"
            => "a node of depth >= 4 without a TT move is searched a ply shallower";
        pv_only: "iir-pv" ["iir"] "Weiss (later), Stockfish" => "internal iterative reduction at PV nodes only";
    }
}

counters! {
    /// `iir:` telemetry.
    pub struct IirCounters {
        /// Nodes that met every condition but the TT move, and nodes reduced.
        pub attempts: u64,
        pub cutoffs: u64,
        /// Reductions at depths 4-6, 7-9, 10+.
        pub by_depth: [u64; 3],
    }
}

tunables! {
    /// Reduce at this depth and deeper.
    IIR_MIN_DEPTH: 4, 2, 10, 1;
    /// Plies taken off the node's depth.
    IIR_REDUCTION: 1, 1, 3, 1;
}

impl Hooks for InternalIterativeReduction {
    /// The first of steps 6-11: a node without a TT move is searched
    /// shallower.
    fn prune_node<T: TechniqueSet, NT: NodeType>(cx: &mut Context<'_, '_, T, Self>, node: &Node) -> NodeVerdict {
        let iir = T::TECHNIQUES.iir;
        if !iir.enabled || NT::ROOT || (iir.pv_only && !NT::PV) || node.depth < IIR_MIN_DEPTH.get() {
            return NodeVerdict::Continue;
        }
        debug_assert!(!node.in_check, "internal iterative reduction in check");
        let counters = cx.counters();
        counters.attempts += 1;
        if node.tt_move.is_some() {
            return NodeVerdict::Continue;
        }
        counters.cutoffs += 1;
        counters.by_depth[((node.depth - 4) / 3).clamp(0, 2) as usize] += 1;
        let reduction = IIR_REDUCTION.get();
        if cx.traces(node.ply) {
            let feature = if iir.pv_only { "iir-pv" } else { "iir" };
            let detail = format!("no TT move at depth {}: {reduction} ply shallower", node.depth);
            cx.trace(node.ply, node.depth, TraceKind::NodeReduced, feature, detail);
        }
        NodeVerdict::Reduce(reduction)
    }
}

impl Technique for InternalIterativeReduction {
    const NAME: &'static str = "iir";
    type Counters = IirCounters;

    fn of(set: &Techniques) -> &Self {
        &set.iir
    }

    fn counters(all: &TechniqueCounters) -> &IirCounters {
        &all.iir
    }

    fn counters_mut(all: &mut TechniqueCounters) -> &mut IirCounters {
        &mut all.iir
    }

    fn report(&self, counters: &IirCounters) -> Vec<String> {
        if !self.enabled {
            return Vec::new();
        }
        vec![format!(
            "iir: {} iir_b={}",
            crate::stats::rate(counters.attempts, counters.cutoffs),
            crate::stats::buckets(&counters.by_depth)
        )]
    }

    fn snapshot_counters(counters: &IirCounters) -> Vec<(&'static str, u64, u64)> {
        vec![("iir", counters.attempts, counters.cutoffs)]
    }

    fn tunable_list() -> &'static [&'static Tunable] {
        TUNABLES
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::techniques::Techniques;

    fn set(features: &[&str]) -> InternalIterativeReduction {
        Techniques::from_features(features).unwrap().iir
    }

    #[test]
    fn features_switch_their_flags_on() {
        assert_eq!(InternalIterativeReduction::BASELINE, InternalIterativeReduction { enabled: false, pv_only: false });
        assert_eq!(set(&["iir"]), InternalIterativeReduction { enabled: true, pv_only: false });
        assert_eq!(set(&["iir-pv"]), InternalIterativeReduction { enabled: true, pv_only: true });
    }

    #[test]
    fn tunables_and_report_only_when_on() {
        assert_eq!((IIR_MIN_DEPTH.get(), IIR_REDUCTION.get()), (4, 1));
        assert!(InternalIterativeReduction::BASELINE.tunables().is_empty());
        let names: Vec<&str> = set(&["iir"]).tunables().iter().map(|tunable| tunable.name()).collect();
        assert_eq!(names, ["IirMinDepth", "IirReduction"]);
        let counters = IirCounters { attempts: 4, cutoffs: 1, by_depth: [1, 0, 0] };
        assert!(InternalIterativeReduction::BASELINE.report(&counters).is_empty());
        assert_eq!(set(&["iir"]).report(&counters), ["iir: att=4 cut=1 cut%=25.0% iir_b=[1,0,0]"]);
    }
}
