//! ProbCut (plan 002, phase 5).

use cozy_chess::Board;

use crate::search::{Node, NodeType, Worker};
use crate::stats::SearchStats;
use crate::techniques::{same, TechniqueSet};
use crate::tunables;

tunables! {
    PROBCUT_MARGIN = "ProbcutMargin": 100, 50, 300, 10;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbCut {
    pub enabled: bool,
}

impl ProbCut {
    pub const BASELINE: Self = ProbCut { enabled: false };

    pub const fn with(self, feature: &str) -> Self {
        if same(feature, "probcut") {
            ProbCut { enabled: true }
        } else {
            self
        }
    }

    pub const fn is_on(&self) -> bool {
        self.enabled
    }
}

impl<T: TechniqueSet> Worker<'_, T> {
    pub(crate) fn probcut<NT: NodeType>(&mut self, _board: &Board, _node: &Node) -> Option<i32> {
        None
    }
}

pub fn report(_stats: &SearchStats, _config: &ProbCut) -> Option<String> {
    None
}
