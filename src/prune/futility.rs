//! Futility pruning (being written).

use cozy_chess::Board;

use crate::search::{Candidate, Node, NodeType, Worker};
use crate::stats::SearchStats;
use crate::techniques::{same, TechniqueSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Futility {
    /// Move-level phase of plan 002: 0 off, 1..=4 for 2.1..2.4.
    pub move_phase: u8,
    pub node_level: bool,
    pub progressive: bool,
    pub effective_depth: bool,
    pub tactical_guards: bool,
    pub victim: bool,
}

impl Futility {
    pub const BASELINE: Self = Futility {
        move_phase: 0,
        node_level: false,
        progressive: false,
        effective_depth: false,
        tactical_guards: false,
        victim: false,
    };

    pub const fn with(self, feature: &str) -> Self {
        let mut next = self;
        let phase = if same(feature, "futility-2.1") {
            1
        } else if same(feature, "futility-2.2") {
            2
        } else if same(feature, "futility-2.3") {
            3
        } else if same(feature, "futility-2.4") {
            4
        } else {
            0
        };
        if phase > next.move_phase {
            next.move_phase = phase;
        }
        if same(feature, "futility-node") {
            next.node_level = true;
        } else if same(feature, "futility-progressive") {
            next.progressive = true;
        } else if same(feature, "futility-effective-depth") {
            next.effective_depth = true;
        } else if same(feature, "futility-tactical-guards") {
            next.tactical_guards = true;
        } else if same(feature, "futility-victim") {
            next.victim = true;
        }
        next
    }

    pub const fn is_on(&self) -> bool {
        self.move_phase > 0 || self.node_level || self.progressive || self.victim
    }
}

crate::tunables! {}

impl<T: TechniqueSet> Worker<'_, T> {
    pub(crate) fn node_futility<NT: NodeType>(&mut self, _node: &Node) -> Option<i32> {
        None
    }

    pub(crate) fn futility_prunes_move<NT: NodeType>(
        &mut self,
        _board: &Board,
        _node: &Node,
        _candidate: &Candidate,
    ) -> bool {
        false
    }
}

pub fn report(_stats: &SearchStats, _config: &Futility) -> Option<String> {
    None
}
