//! The finding the replays give on one position (its `verdict` in the pages).
//!
//! The first replay in which B plays a solution makes the verdict
//! [`Finding::Cause`] when it met the decision and did not take it (a
//! `not-taken` event), else [`Finding::Unproven`]; when none does,
//! [`Finding::NotSufficient`].
//! Every verdict rests on the replay suppressing nothing being B's search
//! (B's move after B's node count): when it is not, the verdict is
//! [`Finding::Unproven`] and no decision is tried. When B made no pruning
//! decision against the line, the verdict is [`Finding::NotAPruningLoss`],
//! with the reason that can be seen in B's last completed iteration: B's
//! budget ended before the depth at which A's solution appeared; else the
//! non-pruning cut nearest the root (LMR, ordering, a TT cutoff, stand pat,
//! quiescence); else B searched the line without a cut against it, and
//! what B preferred lies off the line.

use serde::{Deserialize, Serialize};

use super::decisions::Analysis;
use super::replays::Try;

/// What the replays prove.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Finding {
    /// B solves the position once the solving try's decision is not taken,
    /// and the replay suppressing nothing searched as B did.
    Cause,
    /// B still fails with each of the tries' decisions not taken.
    NotSufficient,
    /// No decision of B's cut the line: ordering, reductions or the budget did.
    NotAPruningLoss,
    /// The replays do not prove what they seem to, and why.
    Unproven(Unproven),
}

/// Why the replays prove nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unproven {
    /// The replay suppressing nothing did not play B's move after B's node
    /// count: its trace is not known to be B's search, so neither its
    /// decisions nor replays that depart from it say anything of B.
    ReplayDiffers,
    /// A replay solved the position, but never met the decision it
    /// suppresses (not taken 0 times): something else changed its search.
    NotTaken,
}

impl Finding {
    pub fn name(self) -> &'static str {
        match self {
            Finding::Cause => "cause",
            Finding::NotSufficient => "not sufficient",
            Finding::NotAPruningLoss => "not a pruning loss",
            Finding::Unproven(_) => "unproven",
        }
    }
}

/// The verdict of the replays tried on the decisions of `analysis`, when
/// the replay suppressing nothing searched as B did (`reproduced`) or not.
pub fn judge(analysis: &Analysis, tries: &[Try], reproduced: bool) -> Finding {
    if !reproduced {
        return Finding::Unproven(Unproven::ReplayDiffers);
    }
    if analysis.decisions.is_empty() {
        return Finding::NotAPruningLoss;
    }
    match tries.iter().find(|tried| tried.solved) {
        Some(solving) if solving.not_taken == 0 => Finding::Unproven(Unproven::NotTaken),
        Some(_) => Finding::Cause,
        None => Finding::NotSufficient,
    }
}
