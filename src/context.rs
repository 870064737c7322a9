//! What a technique's hook may read and do: [`Context`], the one door
//! between a file under `src/prune/` and the search.
//!
//! A hook is handed what it judges (a [`Node`], a [`Candidate`], a
//! [`QNode`](crate::search::QNode) or a [`Cutoff`](crate::search::Cutoff):
//! the position and what the search knows of it) and a `Context` of its own
//! technique, through which it:
//! - counts in its own counters (no other technique's);
//! - reads the search's stack (an entry per ply: the moves that led here,
//!   the static evals, the excluded move);
//! - asks the facts the search computes once per node (a safe capture, the
//!   best victim, the squares the opponent attacks);
//! - traces its decisions for `lab blame`, under its own name;
//! - stores a result in the transposition table;
//! - runs the searches a technique is made of (null move's and its
//!   verification, ProbCut's, a singular search, razoring's quiescence),
//!   the stack and the repetition path kept as the search keeps them;
//! - reads and updates its own tables (the capture and continuation
//!   histories, staged picking's quiet moves).
//!
//! It never hands out the [`Worker`]: the principal variation, the limits,
//! the move loop's lists and the other techniques' counters and tables are
//! the search's. Every method is a plain call on the worker, inlined: the
//! door costs nothing at run time.

use std::marker::PhantomData;

use cozy_chess::{BitBoard, Board, Move};

use crate::movepick::ScoredMove;
use crate::prune::capture_history::{CaptureHistory, CaptureHistoryTable};
use crate::prune::continuation_history::{ContinuationHistory, ContinuationHistoryTables};
use crate::prune::staged_picking::StagedPicking;
use crate::search::{Node, NodeType, PlyState, QuietDrop, Worker};
use crate::techniques::{Technique, TechniqueCounters, TechniqueSet};
use crate::trace::TraceKind;
use crate::tt::Bound;

/// Technique `H`'s door to a search with technique set `T`, for one call of
/// one of its hooks.
pub(crate) struct Context<'s, 'w, T: TechniqueSet, H: Technique> {
    worker: &'s mut Worker<'w, T>,
    technique: PhantomData<H>,
}

impl<'w, T: TechniqueSet> Worker<'w, T> {
    /// Technique `H`'s context, for one call of its hook.
    #[inline(always)]
    pub(crate) fn context<H: Technique>(&mut self) -> Context<'_, 'w, T, H> {
        Context { worker: self, technique: PhantomData }
    }
}

impl<T: TechniqueSet, H: Technique> Context<'_, '_, T, H> {
    /// The technique's counters in this search.
    #[inline(always)]
    pub fn counters(&mut self) -> &mut H::Counters {
        H::counters_mut(&mut self.worker.stats.techniques)
    }

    /// Whether the search has stopped (a limit, or `stop`): what a search
    /// returns since means nothing, and the hook decides nothing on it.
    #[inline(always)]
    pub fn aborted(&self) -> bool {
        self.worker.aborted
    }

    /// The search's stack entry of the node at `ply` (the node's own, or
    /// an ancestor's).
    #[inline(always)]
    pub fn entry(&self, ply: usize) -> &PlyState {
        &self.worker.stack[ply]
    }

    /// Whether the side to move has a capture that does not lose material
    /// (computed once per node).
    #[inline(always)]
    pub fn has_safe_capture(&mut self, node: &Node) -> bool {
        self.worker.has_safe_capture(node)
    }

    /// The most valuable enemy piece the side to move can capture (computed
    /// once per node).
    #[inline(always)]
    pub fn best_victim_value(&mut self, node: &Node) -> i32 {
        self.worker.best_victim_value(node)
    }

    /// The squares the opponent attacks (computed once per node).
    #[inline(always)]
    pub fn attacked_by_opponent(&mut self, node: &Node) -> BitBoard {
        self.worker.attacked_by_opponent(node)
    }

    /// Stores a result of the node in the transposition table: its move
    /// (`None` keeps the move the table has), score, depth and bound.
    #[inline(always)]
    pub fn store(&mut self, node: &Node, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        self.worker.tt.store(node.hash, mv, score, node.static_eval, depth, bound, node.ply);
    }

    /// Whether the node at `ply` lies on the traced line (`trace` builds
    /// only: otherwise a constant `false`).
    #[inline(always)]
    pub fn traces(&self, ply: usize) -> bool {
        self.worker.traces(ply)
    }

    /// Whether `mv`, at the node at `ply`, is the traced line's next move.
    #[inline(always)]
    pub fn traces_move(&self, ply: usize, mv: Move) -> bool {
        self.worker.traces_move(ply, mv)
    }

    /// Records the technique's decision at the node at `ply`, under its
    /// name (callers check `traces` or `traces_move`).
    pub fn trace(&mut self, ply: usize, depth: i32, kind: TraceKind, feature: &'static str, detail: String) {
        self.worker.trace(ply, depth, kind, H::NAME, feature, detail);
    }

    /// Searches the node at `ply` (`board`) to `depth` in the window, as a
    /// node of type `C`: a technique's search of its own node (null-move
    /// verification, plan 003's ProbCut, a singular search), or, inside
    /// [`after_move`](Self::after_move), of the child at `ply + 1`.
    #[inline(always)]
    pub fn search<C: NodeType>(&mut self, board: &Board, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.worker.negamax::<C>(board, depth, alpha, beta, ply)
    }

    /// Quiescence at the node at `ply` (`board`), as a node of type `C`.
    #[inline(always)]
    pub fn qsearch<C: NodeType>(&mut self, board: &Board, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.worker.qsearch::<C>(board, alpha, beta, ply)
    }

    /// Quiescence whose first ply also tries the quiet moves that give
    /// check (Crafty's `QuiesceChecks`).
    #[inline(always)]
    pub fn qsearch_with_checks<C: NodeType>(&mut self, board: &Board, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.worker.qsearch_with_checks::<C>(board, alpha, beta, ply)
    }

    /// Runs `search` (of the child, at `node.ply + 1`) with the stack and
    /// the repetition path as after `mv` from the node, `None` for a null
    /// move: the move and its piece in the node's entry (its move number 0:
    /// it is no move of the move loop), the child marked as reached by a
    /// null move or not, and the node's hash on the path; then the path and
    /// the mark as they were.
    #[inline(always)]
    pub fn after_move<R>(&mut self, node: &Node, mv: Option<Move>, search: impl FnOnce(&mut Self) -> R) -> R {
        let ply = node.ply;
        let entry = &mut self.worker.stack[ply];
        entry.current_move = mv;
        entry.move_number = 0;
        entry.moved_piece = mv.and_then(|mv| node.board.piece_on(mv.from));
        self.worker.stack[ply + 1].null_move_played = mv.is_none();
        self.worker.hash_path.push(node.hash);
        let result = search(self);
        self.worker.hash_path.pop();
        self.worker.stack[ply + 1].null_move_played = false;
        result
    }

    /// Runs `search` (of the node at `ply`, again) with `mv` left out of
    /// its moves: a singular search. The node's table entry is neither cut
    /// on nor overwritten there, and it tries no node-level pruning.
    #[inline(always)]
    pub fn excluding<R>(&mut self, ply: usize, mv: Move, search: impl FnOnce(&mut Self) -> R) -> R {
        self.worker.stack[ply].excluded_move = Some(mv);
        let result = search(self);
        self.worker.stack[ply].excluded_move = None;
        result
    }

    /// Lends `with` the reusable move list of the ply (empty or not: the
    /// move loop regenerates it), so a node-level step that generates moves
    /// allocates nothing.
    #[inline(always)]
    pub fn with_move_list<R>(&mut self, ply: usize, with: impl FnOnce(&mut Self, &mut Vec<ScoredMove>) -> R) -> R {
        let mut moves = std::mem::take(&mut self.worker.move_lists[ply]);
        let result = with(self, &mut moves);
        self.worker.move_lists[ply] = moves;
        result
    }
}

/// A technique whose move pruning may have the node drop its quiet moves
/// not yet picked (`lmp-skip-quiets`, `futility-skip-quiets`).
pub(crate) trait DropsQuiets: Technique {
    /// The counter the dropped moves are added to.
    fn dropped(counters: &mut Self::Counters) -> &mut u64;
}

impl<T: TechniqueSet, H: DropsQuiets> Context<'_, '_, T, H> {
    /// Asks the node to drop its quiet moves not yet picked (the move loop
    /// does, after the move this hook pruned), credited to this technique
    /// and traced under `feature`; checks stay when `keeps_checks`.
    #[inline(always)]
    pub fn drop_quiet_moves(&mut self, node: &Node, feature: &'static str, keeps_checks: bool) {
        self.worker.stack[node.ply].skip_quiets =
            Some(QuietDrop { technique: H::NAME, feature, keeps_checks, dropped: dropped_of::<H> });
    }
}

fn dropped_of<H: DropsQuiets>(all: &mut TechniqueCounters) -> &mut u64 {
    H::dropped(H::counters_mut(all))
}

impl<T: TechniqueSet> Context<'_, '_, T, CaptureHistory> {
    /// The capture history, which persists between the searches of a game.
    #[inline(always)]
    pub fn table(&mut self) -> &mut CaptureHistoryTable {
        self.worker.capture_history
    }
}

impl<T: TechniqueSet> Context<'_, '_, T, ContinuationHistory> {
    /// The continuation histories, which persist between the searches of a
    /// game.
    #[inline(always)]
    pub fn tables(&mut self) -> &mut ContinuationHistoryTables {
        self.worker.continuation_history
    }
}

impl<T: TechniqueSet> Context<'_, '_, T, StagedPicking> {
    /// The quiet moves a staged node at `ply` sets aside until it needs
    /// them (`staged-captures`).
    #[inline(always)]
    pub fn quiet_list(&mut self, ply: usize) -> &mut Vec<ScoredMove> {
        &mut self.worker.quiet_lists[ply]
    }
}
