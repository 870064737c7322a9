//! Singular extension (plan 003).

use cozy_chess::Board;

use crate::search::{Node, NodeType, Worker};
use crate::stats::SearchStats;
use crate::techniques::{same, TechniqueSet};
use crate::tunables;

tunables! {
    SINGULAR_MIN_DEPTH = "SingularMinDepth": 8, 4, 12, 1;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SingularExtension {
    pub enabled: bool,
}

impl SingularExtension {
    pub const BASELINE: Self = SingularExtension { enabled: false };

    pub const fn with(self, feature: &str) -> Self {
        if same(feature, "singular-ext") {
            SingularExtension { enabled: true }
        } else {
            self
        }
    }

    pub const fn is_on(&self) -> bool {
        self.enabled
    }
}

impl<T: TechniqueSet> Worker<'_, T> {
    pub(crate) fn singular_extension<NT: NodeType>(
        &mut self,
        _board: &Board,
        _node: &Node,
        _candidate: &crate::search::Candidate,
    ) -> i32 {
        0
    }
}

pub fn report(_stats: &SearchStats, _config: &SingularExtension) -> Option<String> {
    None
}
