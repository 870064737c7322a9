//! Move-count pruning (being written).

use crate::search::{Candidate, Node, NodeType, Worker};
use crate::stats::SearchStats;
use crate::techniques::{same, TechniqueSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveCountPruning {
    pub enabled: bool,
    pub history_bonus: bool,
    pub keep_countermove: bool,
    pub depth_10: bool,
}

impl MoveCountPruning {
    pub const BASELINE: Self =
        MoveCountPruning { enabled: false, history_bonus: false, keep_countermove: false, depth_10: false };

    pub const fn with(self, feature: &str) -> Self {
        let mut next = self;
        if same(feature, "lmp") {
            next.enabled = true;
        } else if same(feature, "lmp-history") {
            next.history_bonus = true;
        } else if same(feature, "lmp-countermove") {
            next.keep_countermove = true;
        } else if same(feature, "lmp-depth-10") {
            next.depth_10 = true;
        }
        next
    }

    pub const fn is_on(&self) -> bool {
        self.enabled
    }
}

crate::tunables! {}

impl<T: TechniqueSet> Worker<'_, T> {
    pub(crate) fn move_count_prunes<NT: NodeType>(&mut self, _node: &Node, _candidate: &Candidate) -> bool {
        false
    }
}

pub fn report(_stats: &SearchStats, _config: &MoveCountPruning) -> Option<String> {
    None
}
