//! The pruning decisions along one line: what `lab blame` reads to name the
//! decision that threw a solution away.
//!
//! A line is a sequence of moves from the root (`trace <moves>` over UCI,
//! usually another variant's principal variation). At every node the line
//! leads to, the search records what it decided there: a node pruned or
//! reduced, the line's next move skipped, extended, reduced or searched (with
//! the window and the score), a beta cutoff before the line's move came up,
//! a transposition-table cutoff, a stand pat. Each event names the technique
//! and feature and the numbers it compared.
//!
//! Tracing is the compile-time feature `trace`, read once, below: without
//! it [`TRACING`] is `false`, the tracer holds nothing, and every call site's
//! `if self.traces(..)` folds away, arguments and all. Recording never
//! changes a search decision, so a traced search visits exactly the nodes an
//! untraced one does (`tests/trace.rs` checks it on the matrix's positions).

use std::fmt;

use cozy_chess::Move;

use crate::search::{PlyState, Worker};
use crate::techniques::TechniqueSet;

/// What happened at a node of the traced line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceKind {
    /// The node returned without searching its moves.
    NodePruned,
    /// The node is searched shallower.
    NodeReduced,
    /// The line's next move was skipped without a search.
    MoveSkipped,
    /// The line's next move's depth changed (extension or reduction).
    MoveDepth,
    /// The line's next move was searched (window, depth and score).
    MoveSearched,
    /// The node cut off before its move list reached the line's move.
    CutBefore,
    /// The transposition table settled the node.
    TtCutoff,
    /// Quiescence stood pat at the node.
    StandPat,
}

impl TraceKind {
    pub const ALL: [TraceKind; 8] = [
        TraceKind::NodePruned,
        TraceKind::NodeReduced,
        TraceKind::MoveSkipped,
        TraceKind::MoveDepth,
        TraceKind::MoveSearched,
        TraceKind::CutBefore,
        TraceKind::TtCutoff,
        TraceKind::StandPat,
    ];

    /// The kind's word in a trace line, which the lab reads back.
    pub fn name(self) -> &'static str {
        match self {
            TraceKind::NodePruned => "node-pruned",
            TraceKind::NodeReduced => "node-reduced",
            TraceKind::MoveSkipped => "move-skipped",
            TraceKind::MoveDepth => "move-depth",
            TraceKind::MoveSearched => "move-searched",
            TraceKind::CutBefore => "cut-before",
            TraceKind::TtCutoff => "tt-cutoff",
            TraceKind::StandPat => "stand-pat",
        }
    }

    /// The kind a trace line names.
    pub fn from_name(name: &str) -> Option<TraceKind> {
        TraceKind::ALL.into_iter().find(|kind| kind.name() == name)
    }
}

/// One decision at a node of the traced line.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceEvent {
    /// The root iteration's depth.
    pub iteration: i32,
    /// Plies from the root: the line's first `ply` moves lead to the node.
    pub ply: usize,
    /// The node's remaining depth (0 in quiescence).
    pub depth: i32,
    pub kind: TraceKind,
    /// The technique's file (`razoring`), or `search` for the search's own.
    pub technique: &'static str,
    /// The feature that decided (`razor-r1`), or `baseline`.
    pub feature: &'static str,
    /// The numbers compared, in words.
    pub detail: String,
}

/// `iter=9 ply=3 depth=2 node-pruned razoring razor-r1 | eval -412 + 500 <= alpha -50`:
/// what `info string trace` prints and the lab parses.
impl fmt::Display for TraceEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "iter={} ply={} depth={} {} {} {} | {}",
            self.iteration,
            self.ply,
            self.depth,
            self.kind.name(),
            self.technique,
            self.feature,
            self.detail
        )
    }
}

cfg_if::cfg_if! {
    if #[cfg(feature = "trace")] {
        /// Whether this build records trace events.
        pub const TRACING: bool = true;

        /// The traced line and what the search recorded along it.
        #[derive(Clone, Debug, Default)]
        pub struct Tracer {
            line: Vec<Move>,
            events: Vec<TraceEvent>,
            iteration: i32,
        }

        impl Tracer {
            pub const fn new() -> Self {
                Tracer { line: Vec::new(), events: Vec::new(), iteration: 0 }
            }

            /// Traces `line` from the next search's root (empty: nothing).
            pub fn set_line(&mut self, line: Vec<Move>) {
                self.line = line;
            }

            pub(crate) fn start_iteration(&mut self, depth: i32) {
                self.iteration = depth;
            }

            fn iteration(&self) -> i32 {
                self.iteration
            }

            /// The line's move at `ply`, when the line goes that far.
            fn line_move(&self, ply: usize) -> Option<Move> {
                self.line.get(ply).copied()
            }

            /// Whether the moves played from the root to `ply` are the line's.
            fn follows(&self, stack: &[PlyState], ply: usize) -> bool {
                ply <= self.line.len()
                    && stack[..ply].iter().zip(&self.line).all(|(state, mv)| state.current_move == Some(*mv))
            }

            fn record(&mut self, event: TraceEvent) {
                self.events.push(event);
            }

            /// The events of the last search, in search order.
            pub fn take_events(&mut self) -> Vec<TraceEvent> {
                std::mem::take(&mut self.events)
            }
        }
    } else {
        /// Whether this build records trace events.
        pub const TRACING: bool = false;

        /// Nothing: this build has no `trace` feature.
        #[derive(Clone, Debug, Default)]
        pub struct Tracer;

        impl Tracer {
            pub const fn new() -> Self {
                Tracer
            }

            pub fn set_line(&mut self, _line: Vec<Move>) {}

            pub(crate) fn start_iteration(&mut self, _depth: i32) {}

            fn iteration(&self) -> i32 {
                0
            }

            fn line_move(&self, _ply: usize) -> Option<Move> {
                None
            }

            fn follows(&self, _stack: &[PlyState], _ply: usize) -> bool {
                false
            }

            fn record(&mut self, _event: TraceEvent) {}

            pub fn take_events(&mut self) -> Vec<TraceEvent> {
                Vec::new()
            }
        }
    }
}

impl<T: TechniqueSet> Worker<'_, T> {
    /// Whether the node at `ply` lies on the traced line.
    #[inline(always)]
    pub(crate) fn traces(&self, ply: usize) -> bool {
        TRACING && self.tracer.follows(&self.stack, ply)
    }

    /// Whether `mv`, at the node at `ply`, is the traced line's next move.
    #[inline(always)]
    pub(crate) fn traces_move(&self, ply: usize, mv: Move) -> bool {
        TRACING && self.tracer.line_move(ply) == Some(mv) && self.tracer.follows(&self.stack, ply)
    }

    /// The traced line's move at `ply`, for a node on the line.
    pub(crate) fn traced_move(&self, ply: usize) -> Option<Move> {
        self.tracer.line_move(ply)
    }

    /// Records a decision at the node at `ply` (callers check `traces`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn trace(
        &mut self,
        ply: usize,
        depth: i32,
        kind: TraceKind,
        technique: &'static str,
        feature: &'static str,
        detail: String,
    ) {
        let iteration = self.tracer.iteration();
        self.tracer.record(TraceEvent { iteration, ply, depth, kind, technique, feature, detail });
    }
}
