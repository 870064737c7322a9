//! History pruning (plan 003).

use crate::search::{Node, NodeType, Worker};
use crate::stats::SearchStats;
use crate::techniques::{same, TechniqueSet};
use crate::tunables;

tunables! {
    HISTORY_PRUNING_THRESHOLD = "HistoryPruningThreshold": 1024, 128, 8192, 128;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryPruning {
    pub enabled: bool,
}

impl HistoryPruning {
    pub const BASELINE: Self = HistoryPruning { enabled: false };

    pub const fn with(self, feature: &str) -> Self {
        if same(feature, "history-pruning") {
            HistoryPruning { enabled: true }
        } else {
            self
        }
    }

    pub const fn is_on(&self) -> bool {
        self.enabled
    }
}

impl<T: TechniqueSet> Worker<'_, T> {
    pub(crate) fn history_prunes<NT: NodeType>(&mut self, _node: &Node, _candidate: &crate::search::Candidate) -> bool {
        false
    }
}

pub fn report(_stats: &SearchStats, _config: &HistoryPruning) -> Option<String> {
    None
}
