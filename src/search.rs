//! The baseline search: iterative deepening with aspiration windows over a
//! principal variation search, a transposition table, quiescence, and the
//! baseline selectivity of `prune/` (null move, reverse futility, delta
//! pruning, late move reductions).
//!
//! `negamax` is monomorphized over the node type (Root, PV, non-PV, and a
//! null-move verification's non-PV node, `Verification`) and over the
//! technique set, so every PV-only or root-only rule and every disabled
//! technique is decided at compile time. It reads as a pipeline of numbered
//! steps in the order they run; each pruning step is a hook in its
//! technique's file under `prune/`.
//!
//! Determinism: nothing here reads the clock except to stop, nothing iterates
//! a hash map, and the node limit is checked at every node, so a search to a
//! fixed depth or node count from `new_game` gives the same nodes, move and
//! score on every run.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use cozy_chess::{BitBoard, Board, Move, Piece};

use crate::eval::evaluate;
use crate::movepick::{
    self, history_bonus, is_quiet, pick_next, CounterMoves, History, MoveKind, OrderingHints, ScoredMove,
};
use crate::position::{game_phase, insufficient_material, is_fifty_move_draw, is_repetition, CheckInfo, Position};
use crate::prune::capture_history::{CaptureHistory, CaptureHistoryTable};
use crate::prune::continuation_history::{ContinuationHistory, ContinuationHistoryTables};
use crate::prune::delta::DeltaPruning;
use crate::prune::futility::Futility;
use crate::prune::history_pruning::HistoryPruning;
use crate::prune::iir::InternalIterativeReduction;
use crate::prune::lmr::LateMoveReductions;
use crate::prune::move_count::MoveCountPruning;
use crate::prune::null_move::NullMovePruning;
use crate::prune::probcut::ProbCut;
use crate::prune::qsearch_order::QsearchOrder;
use crate::prune::quiet_see::QuietSee;
use crate::prune::razoring::Razoring;
use crate::prune::reverse_futility::ReverseFutility;
use crate::prune::see_ordering::SeeOrdering;
use crate::prune::see_pruning::SeePruning;
use crate::prune::singular::SingularExtension;
use crate::score::{DRAW, INFINITY, MATE, MATE_BOUND, MAX_PLY, NO_EVAL};
use crate::see;
use crate::stats::{CutoffKind, SearchStats};
use crate::techniques::{Compiled, Hooks, NodeVerdict, Runs, TechniqueCounters, TechniqueSet};
use crate::trace::{SearchedMove, TraceEvent, TraceKind, TraceRequest, Tracer, TtCutoff};
use crate::tt::{Bound, TranspositionTable, TtHit};

const ASPIRATION_MIN_DEPTH: i32 = 4;
const ASPIRATION_WINDOW: i32 = 25;
/// Time and the stop flag are polled every this many nodes.
const POLL_INTERVAL: u64 = 1024;

/// What bounds a search. `None` everywhere means: search until stopped.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// Do not start a new iteration after this much time.
    pub soft_time: Option<Duration>,
    /// Abort the search once this much time has passed.
    pub hard_time: Option<Duration>,
    /// When the clock started: the moment the `go` line was read, so the
    /// time the command took to reach the search counts against the
    /// limits. `None`: when the search starts.
    pub start: Option<Instant>,
    /// `go mate N`: stop once an iteration proves a mate in at most N moves.
    pub mate_moves: Option<u64>,
    /// `go searchmoves`: the root searches only these moves.
    pub root_moves: Option<Vec<Move>>,
    /// `go ponder`: no time limit applies until the `ponderhit`, and then
    /// the limits count from it.
    pub ponder: Option<Arc<PonderHit>>,
}

/// When a `go ponder` search became the engine's own: the opponent played
/// the move it pondered on, and its clock started.
#[derive(Debug, Default)]
pub struct PonderHit(OnceLock<Instant>);

impl PonderHit {
    /// `ponderhit` read at `at`; only the first one counts.
    pub fn hit(&self, at: Instant) {
        let _ = self.0.set(at);
    }

    /// When the `ponderhit` came, if it has.
    pub fn hit_at(&self) -> Option<Instant> {
        self.0.get().copied()
    }
}

impl SearchLimits {
    /// Whether `mv` may be searched at the root.
    fn allows_at_root(&self, mv: Move) -> bool {
        self.root_moves.as_ref().map_or(true, |moves| moves.contains(&mv))
    }

    /// Whether `score` is a mate as short as `go mate` asked for.
    fn mate_found(&self, score: i32) -> bool {
        self.mate_moves.is_some_and(|moves| score >= MATE_BOUND && ((MATE - score + 1) / 2) as u64 <= moves)
    }
}

/// One completed iteration, for `info` lines.
pub struct IterationReport<'a> {
    pub depth: i32,
    pub seldepth: i32,
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The table, for its fill (`hashfull`), read only by a report that
    /// prints it: a search to a fixed depth reports every iteration.
    pub tt: &'a TranspositionTable,
    /// The root board, to print the PV in UCI notation.
    pub root: &'a Board,
    pub pv: &'a [Move],
}

#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` only when the root has no legal move.
    pub best_move: Option<Move>,
    pub ponder_move: Option<Move>,
    pub score: i32,
    /// The last completed iteration.
    pub depth: i32,
    pub nodes: u64,
    pub stats: SearchStats,
    /// The decisions along the traced line (`trace` builds only).
    pub trace: Vec<TraceEvent>,
}

/// Node types as types: every `NT::PV`, `NT::ROOT` or `NT::NULL_MOVE` test
/// is a constant, and a node's children have types too, so a null-move
/// verification search runs a subtree where null move cannot be compiled in.
pub trait NodeType {
    const PV: bool;
    const ROOT: bool;
    /// Null move may be tried in this node's subtree.
    const NULL_MOVE: bool;
    /// The type of a child searched with a full window.
    type PvChild: NodeType;
    /// The type of a child searched with a null window.
    type NonPvChild: NodeType;
}

/// The node types: whether a node is searched with a full window (PV), is
/// the root, and may try null move in its subtree. Its children's types
/// follow from its own: a child is never the root, a PV node's full-window
/// child is a PV node, and a verification subtree stays one.
pub struct NodeKind<const PV: bool, const ROOT: bool, const NULL_MOVE: bool>;

impl<const PV: bool, const ROOT: bool, const NULL_MOVE: bool> NodeType for NodeKind<PV, ROOT, NULL_MOVE> {
    const PV: bool = PV;
    const ROOT: bool = ROOT;
    const NULL_MOVE: bool = NULL_MOVE;
    type PvChild = NodeKind<PV, false, NULL_MOVE>;
    type NonPvChild = NodeKind<false, false, NULL_MOVE>;
}

pub type Root = NodeKind<true, true, true>;
pub type Pv = NodeKind<true, false, true>;
pub type NonPv = NodeKind<false, false, true>;
/// A null-window node in a null-move verification subtree.
pub type Verification = NodeKind<false, false, false>;

/// What persists between searches of one game: the table and the histories
/// (the catalogue's among them: a technique's table is read only by a
/// search that runs the technique).
pub struct Searcher {
    tt: TranspositionTable,
    history: Box<History>,
    counter_moves: Box<CounterMoves>,
    capture_history: Box<CaptureHistoryTable>,
    continuation_history: ContinuationHistoryTables,
    tracer: Tracer,
}

impl Searcher {
    pub fn new(hash_mb: usize) -> Self {
        Searcher {
            tt: TranspositionTable::new(hash_mb),
            history: History::new(),
            counter_moves: CounterMoves::new(),
            capture_history: CaptureHistoryTable::new(),
            continuation_history: ContinuationHistoryTables::new(),
            tracer: Tracer::new(),
        }
    }

    /// Traces the request's line (moves from the root) in the next
    /// searches, not taking its suppressed decisions: a `trace` build
    /// records the decisions along it in `SearchResult::trace`.
    pub fn set_trace(&mut self, request: TraceRequest) {
        self.tracer.set(request);
    }

    /// Resizes (and so clears) the transposition table.
    /// Fails, keeping the table it has, when the memory cannot be had.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), String> {
        self.tt = TranspositionTable::try_new(mb)?;
        Ok(())
    }

    /// `ucinewgame`: clears the transposition table and every history.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.history = History::new();
        self.counter_moves = CounterMoves::new();
        self.capture_history = CaptureHistoryTable::new();
        self.continuation_history.clear();
    }

    /// Searches with the technique set compiled into this binary.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_iteration: &mut dyn FnMut(&IterationReport),
    ) -> SearchResult {
        self.search_with::<Compiled>(pos, limits, stop, on_iteration)
    }

    /// Searches with the technique set `T`; the variant matrix runs every
    /// variant's set in one build this way.
    pub fn search_with<T: TechniqueSet>(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_iteration: &mut dyn FnMut(&IterationReport),
    ) -> SearchResult {
        let () = T::TUNED_SEARCHABLE;
        crate::tune::select_variant_values(T::TUNED);
        self.tt.new_search();
        self.continuation_history.prepare::<T>();
        let mut hash_path = Vec::with_capacity(pos.history().len() + MAX_PLY + 1);
        hash_path.extend_from_slice(pos.history());
        let mut worker = Worker::<T> {
            tt: &mut self.tt,
            history: &mut self.history,
            counter_moves: &mut self.counter_moves,
            capture_history: &mut self.capture_history,
            continuation_history: &mut self.continuation_history,
            tracer: &mut self.tracer,
            limits,
            stop,
            started: limits.start.unwrap_or_else(Instant::now),
            aborted: false,
            stack: vec![PlyState::default(); MAX_PLY + 2],
            hash_path,
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            move_lists: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            quiet_lists: (0..=MAX_PLY)
                .map(|_| if T::TECHNIQUES.staged_picking.capture_stage { Vec::with_capacity(64) } else { Vec::new() })
                .collect(),
            seldepth: 0,
            stats: SearchStats::default(),
            techniques: PhantomData,
        };
        worker.iterative_deepening(pos.board(), on_iteration)
    }
}

/// Per-ply search state.
#[derive(Clone, Copy)]
pub(crate) struct PlyState {
    pub static_eval: i32,
    /// The move played from this ply (`None` for a null move).
    pub current_move: Option<Move>,
    /// That move's number in the node's move loop (0 for a null move or a
    /// probcut capture): the nodes below it are counted by it.
    pub move_number: usize,
    /// The plies that move was extended by (step 12b; 0 for a null move).
    pub extension: i32,
    pub moved_piece: Option<Piece>,
    /// This node was reached by a null move.
    pub null_move_played: bool,
    /// The move a singular-extension search leaves out.
    pub excluded_move: Option<Move>,
    /// Whether the side to move has a capture with SEE ≥ 0, once asked.
    pub safe_capture: Option<bool>,
    /// The most valuable enemy piece the side to move can take, once asked.
    pub best_victim: Option<i32>,
    /// The squares the opponent attacks, once asked.
    pub attacked_by_opponent: Option<BitBoard>,
    pub killers: [Option<Move>; 2],
    /// A move-pruning hook asks the node to drop its quiet moves not yet
    /// picked (`lmp-skip-quiets`, `futility-skip-quiets`); the move loop
    /// does so and clears it.
    pub skip_quiets: Option<QuietDrop>,
}

/// Who asked a node to drop its quiet moves not yet picked: the feature a
/// trace names, and the counter the dropped moves are added to. The hook
/// that pruned the move asks, so with two such features on, each drop is
/// credited to the one whose pruning caused it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct QuietDrop {
    /// The technique's file, as traces name it (`move_count`).
    pub technique: &'static str,
    pub feature: &'static str,
    /// Moves that give check stay: the technique never prunes them.
    pub keeps_checks: bool,
    pub dropped: fn(&mut TechniqueCounters) -> &mut u64,
}

impl Default for PlyState {
    fn default() -> Self {
        PlyState {
            static_eval: NO_EVAL,
            current_move: None,
            move_number: 0,
            extension: 0,
            moved_piece: None,
            null_move_played: false,
            excluded_move: None,
            safe_capture: None,
            best_victim: None,
            attacked_by_opponent: None,
            killers: [None; 2],
            skip_quiets: None,
        }
    }
}

/// What the pruning hooks know about the node they run in: its position,
/// and what the search has found out about it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<'a> {
    pub board: &'a Board,
    pub depth: i32,
    pub alpha: i32,
    pub beta: i32,
    pub ply: usize,
    pub in_check: bool,
    /// `NO_EVAL` in check.
    pub static_eval: i32,
    /// The static eval is known and above the one two plies earlier, which
    /// is known too (plan 002, 3.1).
    pub improving: bool,
    /// The node's depth was extended: it is in check (the check
    /// extension), or the move that led to it was extended (step 12b).
    pub extended: bool,
    pub tt_hit: Option<TtHit>,
    /// The TT move, when legal here.
    pub tt_move: Option<Move>,
    pub killers: [Option<Move>; 2],
    pub counter_move: Option<Move>,
    pub hash: u64,
}

/// What the move-loop hooks know about the move about to be searched.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidate {
    pub mv: Move,
    pub kind: MoveKind,
    /// Neither a capture nor a promotion.
    pub quiet: bool,
    pub gives_check: bool,
    /// 1-based, counting every legal move so far, pruned ones included.
    pub move_number: usize,
    pub history: i32,
    pub is_tt_move: bool,
    pub is_killer: bool,
    pub is_counter_move: bool,
    /// The late move reduction this move would get.
    pub reduction: i32,
    /// The child is searched as a PV node (a PV node's first move).
    pub child_is_pv: bool,
}

/// What the quiescence hooks know about the node they run in (not in
/// check): its position, its stand pat, the window's lower bound so far,
/// and the game phase (24 in the opening, 0 in a pawn ending).
#[derive(Clone, Copy, Debug)]
pub(crate) struct QNode<'a> {
    pub board: &'a Board,
    pub ply: usize,
    pub stand_pat: i32,
    pub alpha: i32,
    pub phase: i32,
}

/// A beta cutoff in the main search, which the histories learn from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cutoff<'a> {
    /// The node's position.
    pub board: &'a Board,
    pub ply: usize,
    pub depth: i32,
    /// The move that cut.
    pub cut: &'a ScoredMove,
    /// The moves picked before it, pruned ones included (as the butterfly
    /// history counts them).
    pub tried_before: &'a [ScoredMove],
}

/// One search in progress, monomorphized over its technique set.
pub(crate) struct Worker<'a, T: TechniqueSet> {
    pub tt: &'a mut TranspositionTable,
    pub history: &'a mut History,
    pub counter_moves: &'a mut CounterMoves,
    pub capture_history: &'a mut CaptureHistoryTable,
    pub continuation_history: &'a mut ContinuationHistoryTables,
    pub tracer: &'a mut Tracer,
    pub limits: &'a SearchLimits,
    pub stop: &'a AtomicBool,
    pub started: Instant,
    pub aborted: bool,
    pub stack: Vec<PlyState>,
    /// Hashes of the game's positions and of every ancestor of the current
    /// node, for repetition detection.
    pub hash_path: Vec<u64>,
    /// Triangular principal variation table.
    pub pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pub pv_len: [usize; MAX_PLY + 1],
    /// One reusable move list per ply, so the search never allocates.
    pub move_lists: Vec<Vec<ScoredMove>>,
    /// A staged node's quiet moves, until it needs them (`staged-captures`).
    pub quiet_lists: Vec<Vec<ScoredMove>>,
    pub seldepth: usize,
    pub stats: SearchStats,
    pub techniques: PhantomData<T>,
}

impl<T: TechniqueSet> Worker<'_, T> {
    fn iterative_deepening(&mut self, root: &Board, on_iteration: &mut dyn FnMut(&IterationReport)) -> SearchResult {
        // The root's moves come before anything that could stop the search,
        // so a best move exists even if the first iteration is interrupted.
        let mut root_moves = Vec::new();
        movepick::generate(root, false, &mut root_moves);
        root_moves.retain(|entry| self.limits.allows_at_root(entry.mv));
        let mut result = SearchResult {
            best_move: root_moves.first().map(|m| m.mv),
            ponder_move: None,
            score: 0,
            depth: 0,
            nodes: 0,
            stats: SearchStats::default(),
            trace: Vec::new(),
        };
        if root_moves.is_empty() {
            result.score = if root.checkers().is_empty() { 0 } else { -MATE };
            return result;
        }

        let max_depth = self.limits.depth.unwrap_or(MAX_PLY as i32 - 1).clamp(1, MAX_PLY as i32 - 1);
        let mut previous_score = 0;
        for depth in 1..=max_depth {
            self.seldepth = 0;
            self.tracer.start_iteration(depth);
            let score = self.aspiration(root, depth, previous_score);
            if self.aborted {
                break;
            }
            previous_score = score;
            let pv: Vec<Move> = self.pv[0][..self.pv_len[0]].iter().flatten().copied().collect();
            result.best_move = pv.first().copied().or(result.best_move);
            result.ponder_move = pv.get(1).copied();
            result.score = score;
            result.depth = depth;
            on_iteration(&IterationReport {
                depth,
                seldepth: self.seldepth as i32,
                score,
                nodes: self.stats.nodes,
                elapsed: self.started.elapsed(),
                tt: self.tt,
                root,
                pv: &pv,
            });
            if self.limits.soft_time.is_some_and(|soft| self.clock_elapsed().is_some_and(|spent| spent >= soft))
                || self.limits.mate_found(score)
            {
                break;
            }
        }
        result.nodes = self.stats.nodes;
        result.stats = self.stats.clone();
        result.trace = self.tracer.take_events();
        result
    }

    /// A root search in a window around the previous score, widened on each
    /// fail until the score falls inside.
    fn aspiration(&mut self, root: &Board, depth: i32, previous_score: i32) -> i32 {
        if depth < ASPIRATION_MIN_DEPTH || previous_score.abs() >= MATE_BOUND {
            return self.negamax::<Root>(root, depth, -INFINITY, INFINITY, 0);
        }
        let mut delta = ASPIRATION_WINDOW;
        let mut alpha = (previous_score - delta).max(-INFINITY);
        let mut beta = (previous_score + delta).min(INFINITY);
        let (mut failed_low, mut failed_high) = (false, false);
        let score = loop {
            let score = self.negamax::<Root>(root, depth, alpha, beta, 0);
            if self.aborted {
                break score;
            }
            if score <= alpha {
                failed_low = true;
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                failed_high = true;
                beta = (score + delta).min(INFINITY);
            } else {
                break score;
            }
            // The plans' `asp: att=` counts these re-searches.
            self.stats.aspiration_researches += 1;
            delta += delta / 2;
        };
        self.stats.aspiration_fail_lows += u64::from(failed_low);
        self.stats.aspiration_fail_highs += u64::from(failed_high);
        score
    }

    /// The time spent on the engine's own clock: from the `go` (or the
    /// `ponderhit`); none while pondering, when the clock is the opponent's.
    fn clock_elapsed(&self) -> Option<Duration> {
        match &self.limits.ponder {
            None => Some(self.started.elapsed()),
            Some(ponder) => ponder.hit_at().map(|hit| hit.elapsed()),
        }
    }

    /// Polls the limits; sets `aborted` once any is reached.
    fn should_stop(&mut self) -> bool {
        if self.limits.nodes.is_some_and(|limit| self.stats.nodes >= limit) {
            self.aborted = true;
        } else if self.stats.nodes % POLL_INTERVAL == 0 {
            let out_of_time =
                self.limits.hard_time.is_some_and(|hard| self.clock_elapsed().is_some_and(|spent| spent >= hard));
            self.aborted = out_of_time || self.stop.load(Ordering::Relaxed);
        }
        self.aborted
    }

    /// A draw by repetition, the fifty-move rule or insufficient material.
    fn is_draw(&self, board: &Board) -> bool {
        is_repetition(&self.hash_path, board.hash(), board.halfmove_clock())
            || is_fifty_move_draw(board)
            || insufficient_material(board)
    }

    pub(crate) fn negamax<NT: NodeType>(
        &mut self,
        board: &Board,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        let in_check = !board.checkers().is_empty();

        // Step 1. Check extension, then drop into quiescence at the horizon.
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch::<NT>(board, alpha, beta, ply);
        }

        // Step 2. Node bookkeeping and limits. A search that has stopped visits
        // no more nodes, so a node limit is met exactly.
        if self.aborted {
            return 0;
        }
        self.stats.nodes += 1;
        let incoming_move = if ply > 0 { self.stack[ply - 1].move_number } else { 0 };
        self.stats.count_main_node(depth, incoming_move);
        self.pv_len[ply] = 0;
        self.seldepth = self.seldepth.max(ply + 1);
        if !NT::ROOT && self.should_stop() {
            return 0;
        }

        // Step 3. Draws, the ply limit, and mate-distance pruning.
        if !NT::ROOT {
            if self.is_draw(board) {
                return DRAW;
            }
            if ply >= MAX_PLY {
                return if in_check { 0 } else { evaluate(board) };
            }
            // No line from here can mate faster than a mate already found.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 4. Transposition table probe: no cutoffs at PV nodes (the root
        // among them) nor in a singular-extension search.
        let hash = board.hash();
        let excluded_move = self.stack[ply].excluded_move;
        let tt_hit = self.probe_tt(hash, ply);
        let tt_move = tt_hit.and_then(|hit| hit.mv).filter(|&mv| self.is_legal_tt_move(board, mv));
        if let (false, None, Some(hit)) = (NT::PV, excluded_move, tt_hit) {
            if hit.depth >= depth && tt_score_cuts(&hit, alpha, beta) {
                self.stats.tt_cutoffs += 1;
                if self.traces(ply) {
                    let cutoff =
                        TtCutoff { bound: hit.bound, score: hit.score, stored_depth: Some(hit.depth), alpha, beta };
                    self.trace(ply, depth, TraceKind::TtCutoff, "search", "baseline", cutoff.to_string());
                }
                return hit.score;
            }
        }

        // Step 5. Static evaluation (none in check) and whether it improves.
        let static_eval = static_eval(board, in_check, tt_hit);
        self.stack[ply].static_eval = static_eval;
        self.stack[ply].safe_capture = None;
        self.stack[ply].best_victim = None;
        self.stack[ply].attacked_by_opponent = None;
        self.stack[ply + 1].killers = [None; 2];
        let two_plies_back = if ply >= 2 { self.stack[ply - 2].static_eval } else { NO_EVAL };
        // Plan 002 (3.1): improving only when both evals are known.
        let improving = !in_check && two_plies_back != NO_EVAL && static_eval > two_plies_back;

        let mut node = Node {
            board,
            depth,
            alpha,
            beta,
            ply,
            in_check,
            static_eval,
            improving,
            extended: in_check || (ply > 0 && self.stack[ply - 1].extension > 0),
            tt_hit,
            tt_move,
            killers: self.stack[ply].killers,
            counter_move: self.counter_move(board, ply),
            hash,
        };

        // Steps 6 to 11, node-level reduction and pruning: never in check,
        // and not while searching for a singular move (the node is then not a
        // real node of the tree). Each is its technique's hook (`prune/`);
        // a reduction lowers `node.depth` for the steps after it.
        if !in_check && excluded_move.is_none() {
            // Step 6. Internal iterative reduction (iir.rs).
            // Measured: full-without-iir against full: -26.8 Elo [-42.5, -11.2], 1000 games at 10000 nodes a move.
            if let Some(score) = self.node_step::<NT, InternalIterativeReduction>(&mut node) {
                return score;
            }
            // Step 7. Razoring (razoring.rs), every style but `razor-crafty`,
            // which acts at step 12b.
            // Measured: full-without-razoring against full: -5.2 Elo [-20.9, +10.4], 1000 games at 10000 nodes a move.
            if let Some(score) = self.node_step::<NT, Razoring>(&mut node) {
                return score;
            }
            // Step 8. Futility pruning at the node (futility.rs).
            // Measured: full-without-futility against full: -22.6 Elo [-38.3, -7.0], 1000 games at 10000 nodes a move.
            if let Some(score) = self.node_step::<NT, Futility>(&mut node) {
                return score;
            }
            // Step 9. Reverse futility pruning (reverse_futility.rs).
            // Measured: full-without-reverse_futility against full: +3.1 Elo [-14.1, +20.4], 1000 games at 10000 nodes a move.
            if let Some(score) = self.node_step::<NT, ReverseFutility>(&mut node) {
                return score;
            }
            // Step 10. Null move pruning, with its verification search (null_move.rs).
            // Measured: full-without-null_move against full: +4.2 Elo [-12.9, +21.2], 1000 games at 10000 nodes a move.
            if let Some(score) = self.node_step::<NT, NullMovePruning>(&mut node) {
                return score;
            }
            // Step 11. ProbCut (probcut.rs).
            // Measured: full-without-probcut is no ablation: no feature of probcut is in full.
            if let Some(score) = self.node_step::<NT, ProbCut>(&mut node) {
                return score;
            }
            depth = node.depth;
        }

        // Step 12. The move loop: the picker hands the moves out in the
        // search's order, in stages where a staged feature is on
        // (staged_picking.rs), ordered by `order_moves` and `settle_move`
        // (capture_history.rs, continuation_history.rs, see_ordering.rs).
        // Measured: full-without-staged_picking against full: -4.2 Elo [-21.2, +12.9], 1000 games at 10000 nodes a move.
        // Measured: full-without-capture_history is no ablation: no feature of capture_history is in full.
        // Measured: full-without-continuation_history is no ablation: no feature of continuation_history is in full.
        // Measured: full-without-see_ordering against full: -48.6 Elo [-65.7, -31.8], 1000 games at 10000 nodes a move.
        let mut picker = self.start_picking::<NT>(&node, excluded_move);

        let check_info = CheckInfo::new(board);
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut legal_moves = 0;
        let mut searched_moves = 0;
        while let Some(entry) = self.next_move::<NT>(&mut picker, &node) {
            let ScoredMove { mv, kind, .. } = entry;
            if Some(mv) == excluded_move || (NT::ROOT && !self.limits.allows_at_root(mv)) {
                continue;
            }
            legal_moves += 1 + picker.counted_before();
            if entry.is_dropped() {
                continue;
            }

            let quiet = entry.is_quiet();
            let mut candidate = Candidate {
                mv,
                kind,
                quiet,
                gives_check: check_info.gives_check(board, mv, entry.piece),
                move_number: legal_moves,
                history: if quiet { self.history.get(board.side_to_move(), mv) } else { 0 },
                is_tt_move: Some(mv) == tt_move,
                is_killer: node.killers.contains(&Some(mv)),
                is_counter_move: Some(mv) == node.counter_move,
                reduction: 0,
                child_is_pv: NT::PV && searched_moves == 0,
            };
            // The late move reduction step 12c would search it with (lmr.rs).
            candidate.reduction = LateMoveReductions::reduce_move::<T, NT>(&node, &candidate);

            // Step 12a. Move pruning (futility.rs, move_count.rs,
            // history_pruning.rs, quiet_see.rs). Never at the root, never
            // before one move has been searched, and never when every move
            // so far is a forced mate against us. A technique that prunes may
            // also have the node drop its quiet moves not yet picked; they
            // count as pruned moves in the move numbers that follow.
            // Measured: full-without-move_count against full: -137.4 Elo [-163.4, -112.8], 484 games at 10000 nodes a move, stopped by its SPRT.
            // Measured: full-without-history_pruning is no ablation: no feature of history_pruning is in full.
            // Measured: full-without-quiet_see is no ablation: no feature of quiet_see is in full.
            if !NT::ROOT && searched_moves > 0 && best_score > -MATE_BOUND && self.prunes_move::<NT>(&node, &candidate)
            {
                if let Some(request) = self.stack[ply].skip_quiets.take() {
                    legal_moves += self.skip_quiet_moves::<NT>(&mut picker, &node, &check_info, excluded_move, request);
                }
                continue;
            }

            // Step 12b. Make the move (only now: a pruned move is never
            // made), then extensions: Crafty's razoring (razoring.rs,
            // `razor-crafty`: one ply less) and the singular extension
            // (singular.rs).
            // Measured: full-without-singular is no ablation: no feature of singular is in full.
            let mut child = board.clone();
            child.play_unchecked(mv);
            self.tt.prefetch(child.hash());
            debug_assert_eq!(candidate.gives_check, !child.checkers().is_empty(), "gives_check {mv} in {board}");
            let extension = self.extend_move::<NT>(&node, &candidate, &child);
            if self.aborted {
                self.abandon_picking(picker, ply);
                return 0;
            }

            // Step 12c. Search the move: late move reductions (lmr.rs) and PVS.
            // Measured: full-without-lmr against full: -15.6 Elo [-31.3, +0.0], 1000 games at 10000 nodes a move.
            self.stack[ply].current_move = Some(mv);
            self.stack[ply].move_number = legal_moves;
            self.stack[ply].extension = extension;
            self.stack[ply].moved_piece = board.piece_on(mv.from);
            self.stack[ply + 1].null_move_played = false;
            self.hash_path.push(hash);
            let new_depth = depth - 1 + extension;
            // Whether a reduced search was repeated at full depth: only a
            // trace reads it, so an untraced build folds it away.
            let mut researched_full_depth = false;
            let score = if searched_moves == 0 {
                self.search_child::<NT>(&child, new_depth, -beta, -alpha, ply)
            } else {
                let reduction = candidate.reduction.min(new_depth - 1).max(0);
                if NT::PV {
                    self.stats.pvs_zero_window += 1;
                }
                let mut score;
                if reduction > 0 {
                    score = -self.negamax::<NT::NonPvChild>(&child, new_depth - reduction, -alpha - 1, -alpha, ply + 1);
                    researched_full_depth = score > alpha && !self.aborted;
                    if researched_full_depth {
                        score = -self.negamax::<NT::NonPvChild>(&child, new_depth, -alpha - 1, -alpha, ply + 1);
                    }
                    LateMoveReductions::count_reduced_search(&mut self.context(), researched_full_depth);
                } else {
                    score = -self.negamax::<NT::NonPvChild>(&child, new_depth, -alpha - 1, -alpha, ply + 1);
                }
                // Principal variation search: a move that beats alpha inside
                // a PV window earns a full-window re-search.
                if NT::PV && score > alpha && score < beta && !self.aborted {
                    self.stats.pvs_researches += 1;
                    score = -self.negamax::<NT::PvChild>(&child, new_depth, -beta, -alpha, ply + 1);
                }
                score
            };
            self.hash_path.pop();
            searched_moves += 1;
            if self.traces_move(ply, mv) {
                let searched = SearchedMove {
                    move_number: candidate.move_number,
                    depth: new_depth,
                    reduction: if searched_moves > 1 { candidate.reduction.min(new_depth - 1).max(0) } else { 0 },
                    researched: researched_full_depth,
                    alpha,
                    beta,
                    score,
                };
                self.trace(ply, depth, TraceKind::MoveSearched, "search", "baseline", searched.to_string());
            }

            // Step 12d. Update the best move; at a beta cutoff the
            // histories learn (capture_history.rs, continuation_history.rs).
            if self.aborted {
                self.abandon_picking(picker, ply);
                return 0;
            }
            if score > best_score {
                best_score = score;
            }
            if score > alpha {
                alpha = score;
                node.alpha = alpha;
                best_move = Some(mv);
                if NT::PV {
                    self.update_pv(ply, mv);
                }
                if score >= beta {
                    let cutoff = Cutoff { board, ply, depth, cut: &entry, tried_before: picker.tried_before() };
                    self.record_cutoff(&cutoff, searched_moves == 1);
                    if self.traces(ply) {
                        self.trace_cut_before(board, ply, depth, mv, score, picker.picked_moves());
                    }
                    break;
                }
            }
        }
        self.finish_picking(picker, ply);

        // Step 13. Checkmate or stalemate (move pruning always leaves the
        // first move searched, so a node with a legal move has a score).
        if legal_moves == 0 {
            return match excluded_move {
                Some(_) => alpha,
                None if in_check => -MATE + ply as i32,
                None => DRAW,
            };
        }
        // Step 14. Store the result.
        if excluded_move.is_none() {
            let bound = Bound::of_score(best_score, original_alpha, beta);
            self.tt.store(hash, best_move, best_score, static_eval, depth, bound, ply);
        }
        best_score
    }

    /// One node-level step of `negamax`: technique `H`'s `prune_node` hook.
    /// Returns the score the node returns: the hook's, 0 once the search
    /// is aborted, or quiescence's when a reduction reaches the horizon.
    /// Otherwise a reduction lowers `node.depth`, and the later steps see
    /// the reduced depth.
    #[inline(always)]
    fn node_step<NT: NodeType, H: Hooks>(&mut self, node: &mut Node) -> Option<i32> {
        if !Runs::<T, H>::ON {
            return None;
        }
        match H::prune_node::<T, NT>(&mut self.context(), node) {
            NodeVerdict::Continue => {}
            // A `lab blame` replay may not take it (trace builds only).
            _ if self.overrules(H::NAME, node.ply) => {}
            NodeVerdict::Prune(score) => return Some(score),
            NodeVerdict::Reduce(plies) => {
                debug_assert!(plies > 0, "{} reduces by {plies} plies", H::NAME);
                node.depth -= plies;
                if node.depth <= 0 {
                    return Some(self.qsearch::<NT>(node.board, node.alpha, node.beta, node.ply));
                }
            }
        }
        if self.aborted {
            return Some(0);
        }
        None
    }

    /// Step 12 (the picker), move ordering: the history orderings before
    /// SEE ordering, which reads the scores they leave.
    #[inline(always)]
    pub(crate) fn order_moves<NT: NodeType>(&mut self, node: &Node, moves: &mut [ScoredMove]) {
        self.ordered_by::<NT, CaptureHistory>(node, moves);
        self.ordered_by::<NT, ContinuationHistory>(node, moves);
        self.ordered_by::<NT, SeeOrdering>(node, moves);
    }

    /// Technique `H`'s move ordering.
    #[inline(always)]
    fn ordered_by<NT: NodeType, H: Hooks>(&mut self, node: &Node, moves: &mut [ScoredMove]) {
        if Runs::<T, H>::ON {
            H::order_moves::<T, NT>(&mut self.context(), node, moves);
        }
    }

    /// Step 12 (the picker), a deferred ordering term: SEE ordering settles
    /// the best remaining move's score before it is picked.
    #[inline(always)]
    pub(crate) fn settle_move<NT: NodeType>(&mut self, node: &Node, entry: &mut ScoredMove) {
        if Runs::<T, SeeOrdering>::ON {
            SeeOrdering::settle_move::<T, NT>(&mut self.context(), node, entry);
        }
    }

    /// Step 12a. Move pruning: futility, move count, history and quiet SEE
    /// pruning, in this order; the first that skips the move decides.
    #[inline(always)]
    fn prunes_move<NT: NodeType>(&mut self, node: &Node, candidate: &Candidate) -> bool {
        self.move_pruned_by::<NT, Futility>(node, candidate)
            || self.move_pruned_by::<NT, MoveCountPruning>(node, candidate)
            || self.move_pruned_by::<NT, HistoryPruning>(node, candidate)
            || self.move_pruned_by::<NT, QuietSee>(node, candidate)
    }

    /// Whether technique `H` skips the move (a `lab blame` replay may not
    /// let it, trace builds only).
    #[inline(always)]
    fn move_pruned_by<NT: NodeType, H: Hooks>(&mut self, node: &Node, candidate: &Candidate) -> bool {
        if !Runs::<T, H>::ON {
            return false;
        }
        H::prunes_move::<T, NT>(&mut self.context(), node, candidate)
            && !self.overrules_move(H::NAME, node.ply, candidate.mv)
    }

    /// Step 12b. Extensions, once the move is made: Crafty's razoring
    /// (`razor-crafty`, one ply less), then the singular extension.
    #[inline(always)]
    fn extend_move<NT: NodeType>(&mut self, node: &Node, candidate: &Candidate, child: &Board) -> i32 {
        self.move_extension::<NT, Razoring>(node, candidate, child)
            + self.move_extension::<NT, SingularExtension>(node, candidate, child)
    }

    /// The plies technique `H` extends the move by (a `lab blame` replay may
    /// not let it, trace builds only); none once the search is aborted,
    /// when `negamax` drops the move.
    #[inline(always)]
    fn move_extension<NT: NodeType, H: Hooks>(&mut self, node: &Node, candidate: &Candidate, child: &Board) -> i32 {
        if !Runs::<T, H>::ON || self.aborted {
            return 0;
        }
        match H::extend_move::<T, NT>(&mut self.context(), node, candidate, child) {
            0 => 0,
            _ if self.overrules_move(H::NAME, node.ply, candidate.mv) => 0,
            plies => plies,
        }
    }

    /// Step 12d, at a beta cutoff: the capture and continuation histories
    /// learn from it.
    #[inline(always)]
    fn update_histories(&mut self, cutoff: &Cutoff) {
        if Runs::<T, CaptureHistory>::ON {
            CaptureHistory::update_histories::<T>(&mut self.context(), cutoff);
        }
        if Runs::<T, ContinuationHistory>::ON {
            ContinuationHistory::update_histories::<T>(&mut self.context(), cutoff);
        }
    }

    /// Step Q3, after stand pat: delta pruning's coarse filter; the score
    /// to return when the node is hopeless.
    #[inline(always)]
    fn prune_qnode<NT: NodeType>(&mut self, qnode: &QNode) -> Option<i32> {
        self.qnode_pruned_by::<NT, DeltaPruning>(qnode)
    }

    /// The score technique `H` ends the quiescence node with, if any (a
    /// `lab blame` replay may not let it, trace builds only).
    #[inline(always)]
    fn qnode_pruned_by<NT: NodeType, H: Hooks>(&mut self, qnode: &QNode) -> Option<i32> {
        if !Runs::<T, H>::ON {
            return None;
        }
        let score = H::prune_qnode::<T, NT>(&mut self.context(), qnode)?;
        (!self.overrules(H::NAME, qnode.ply)).then_some(score)
    }

    /// Step Q4, move ordering: the TT move first (`qsearch_order.rs`).
    #[inline(always)]
    fn order_captures<NT: NodeType>(&mut self, moves: &mut [ScoredMove], tt_move: Option<Move>) {
        if Runs::<T, QsearchOrder>::ON {
            QsearchOrder::order_captures::<T, NT>(&mut self.context(), moves, tt_move);
        }
    }

    /// Step Q4, move pruning: delta pruning, then SEE pruning; the first
    /// that skips the capture decides.
    #[inline(always)]
    fn prunes_capture<NT: NodeType>(&mut self, qnode: &QNode, entry: &ScoredMove) -> bool {
        self.capture_pruned_by::<NT, DeltaPruning>(qnode, entry)
            || self.capture_pruned_by::<NT, SeePruning>(qnode, entry)
    }

    /// Whether technique `H` skips the capture (a `lab blame` replay may not
    /// let it, trace builds only).
    #[inline(always)]
    fn capture_pruned_by<NT: NodeType, H: Hooks>(&mut self, qnode: &QNode, entry: &ScoredMove) -> bool {
        if !Runs::<T, H>::ON {
            return false;
        }
        H::prunes_capture::<T, NT>(&mut self.context(), qnode, entry)
            && !self.overrules_move(H::NAME, qnode.ply, entry.mv)
    }

    /// The first move of a node: a PV node's first child is a PV node.
    fn search_child<NT: NodeType>(&mut self, child: &Board, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        if NT::PV {
            -self.negamax::<NT::PvChild>(child, depth, alpha, beta, ply + 1)
        } else {
            -self.negamax::<NT::NonPvChild>(child, depth, alpha, beta, ply + 1)
        }
    }

    /// Whether the side to move has a capture that does not lose material,
    /// computed once per node (razoring and futility guards ask it).
    pub(crate) fn has_safe_capture(&mut self, node: &Node) -> bool {
        *self.stack[node.ply].safe_capture.get_or_insert_with(|| see::has_safe_capture(node.board))
    }

    /// The most valuable enemy piece the side to move can capture, computed
    /// once per node.
    pub(crate) fn best_victim_value(&mut self, node: &Node) -> i32 {
        *self.stack[node.ply].best_victim.get_or_insert_with(|| see::best_victim_value(node.board))
    }

    /// The squares the opponent attacks, computed once per node (SEE
    /// ordering asks it of every quiet move it tests).
    pub(crate) fn attacked_by_opponent(&mut self, node: &Node) -> BitBoard {
        *self.stack[node.ply].attacked_by_opponent.get_or_insert_with(|| see::attacked_by_opponent(node.board))
    }

    pub(crate) fn probe_tt(&mut self, hash: u64, ply: usize) -> Option<TtHit> {
        self.stats.tt_probes += 1;
        let hit = self.tt.probe(hash, ply);
        if hit.is_some() {
            self.stats.tt_hits += 1;
        }
        hit
    }

    fn is_legal_tt_move(&mut self, board: &Board, mv: Move) -> bool {
        let legal = board.is_legal(mv);
        if !legal {
            self.stats.illegal_tt_moves += 1;
        }
        legal
    }

    fn counter_move(&self, board: &Board, ply: usize) -> Option<Move> {
        let previous = &self.stack[ply.checked_sub(1)?];
        let (mv, piece) = (previous.current_move?, previous.moved_piece?);
        self.counter_moves.get(!board.side_to_move(), piece, mv.to)
    }

    /// A beta cutoff: counters, the techniques' histories, then killers,
    /// countermove and butterfly history.
    fn record_cutoff(&mut self, cutoff: &Cutoff, first_move: bool) {
        let Cutoff { board, ply, depth, cut, tried_before } = *cutoff;
        let counted_as = match cut.kind {
            MoveKind::TtMove => CutoffKind::TtMove,
            MoveKind::Killer => CutoffKind::Killer,
            MoveKind::GoodCapture | MoveKind::BadCapture => CutoffKind::Capture,
            _ if cut.is_quiet() => CutoffKind::Quiet,
            _ => CutoffKind::Capture,
        };
        self.stats.record_cutoff(counted_as, first_move);
        self.update_histories(cutoff);

        if !cut.is_quiet() {
            return;
        }
        let mv = cut.mv;
        let us = board.side_to_move();
        let killers = &mut self.stack[ply].killers;
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        if ply > 0 {
            let previous = self.stack[ply - 1];
            if let (Some(previous_move), Some(piece)) = (previous.current_move, previous.moved_piece) {
                self.counter_moves.set(!us, piece, previous_move.to, mv);
            }
        }
        let bonus = history_bonus(depth);
        self.history.update(us, mv, bonus);
        for tried in tried_before.iter().filter(|tried| tried.is_quiet()) {
            self.history.update(us, tried.mv, -bonus);
        }
    }

    /// Traces a beta cutoff at a node of the traced line that came before
    /// the line's move was picked (`tried`: the moves picked so far).
    fn trace_cut_before(&mut self, board: &Board, ply: usize, depth: i32, mv: Move, score: i32, tried: &[ScoredMove]) {
        let Some(line_move) = self.traced_move(ply) else { return };
        if tried.iter().any(|entry| entry.mv == line_move) {
            return;
        }
        let detail = format!(
            "{} cut off at move {} (score {score}) before the line's {}",
            crate::position::move_to_uci(board, mv),
            tried.len(),
            crate::position::move_to_uci(board, line_move)
        );
        self.trace(ply, depth, TraceKind::CutBefore, "search", "baseline", detail);
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1];
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = Some(mv);
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// Quiescence: stand pat, then captures and queen promotions by MVV-LVA;
    /// every evasion when in check.
    pub(crate) fn qsearch<NT: NodeType>(&mut self, board: &Board, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.quiescence::<NT, false>(board, alpha, beta, ply)
    }

    /// Quiescence whose first ply also tries the quiet moves that give check
    /// (Crafty's `QuiesceChecks`); the plies below are plain quiescence.
    pub(crate) fn qsearch_with_checks<NT: NodeType>(
        &mut self,
        board: &Board,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.quiescence::<NT, true>(board, alpha, beta, ply)
    }

    fn quiescence<NT: NodeType, const CHECKS: bool>(
        &mut self,
        board: &Board,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        // Step Q1. Bookkeeping, limits and draws.
        if self.aborted {
            return 0;
        }
        self.stats.nodes += 1;
        self.stats.qsearch_nodes += 1;
        self.pv_len[ply] = 0;
        self.seldepth = self.seldepth.max(ply + 1);
        if self.should_stop() || self.is_draw(board) {
            return 0;
        }
        let in_check = !board.checkers().is_empty();
        if ply >= MAX_PLY {
            return if in_check { 0 } else { evaluate(board) };
        }

        // Step Q2. Transposition table.
        let hash = board.hash();
        let tt_hit = self.probe_tt(hash, ply);
        if let (false, Some(hit)) = (NT::PV, tt_hit) {
            if tt_score_cuts(&hit, alpha, beta) {
                self.stats.tt_cutoffs += 1;
                if self.traces(ply) {
                    let cutoff = TtCutoff { bound: hit.bound, score: hit.score, stored_depth: None, alpha, beta };
                    self.trace(ply, 0, TraceKind::TtCutoff, "search", "baseline", cutoff.to_string());
                }
                return hit.score;
            }
        }

        // Step Q3. Stand pat, and the coarse delta filter (delta.rs).
        // Measured: full-without-delta against full: -1.4 Elo [-17.6, +14.8], 1000 games at 10000 nodes a move.
        let static_eval = static_eval(board, in_check, tt_hit);
        let original_alpha = alpha;
        let mut best_score = if in_check { -INFINITY } else { static_eval };
        if best_score >= beta {
            if self.traces(ply) {
                let detail = format!("quiescence stands pat: static eval {best_score} >= beta {beta}");
                self.trace(ply, 0, TraceKind::StandPat, "search", "baseline", detail);
            }
            return best_score;
        }
        if !in_check && self.traces(ply) {
            if let Some(line_move) = self.traced_move(ply).filter(|&mv| is_quiet(board, mv)) {
                let detail = format!(
                    "quiescence tries captures and queen promotions only: the line's quiet {} is not searched",
                    crate::position::move_to_uci(board, line_move)
                );
                self.trace(ply, 0, TraceKind::MoveSkipped, "search", "baseline", detail);
            }
        }
        alpha = alpha.max(best_score);
        let qnode = QNode { board, ply, stand_pat: static_eval, alpha, phase: game_phase(board) };
        if !in_check {
            if let Some(score) = self.prune_qnode::<NT>(&qnode) {
                return score;
            }
        }

        // Step Q4. Captures and queen promotions, or every evasion; not in
        // check, ordered (qsearch_order.rs) and pruned (delta.rs,
        // see_pruning.rs).
        // Measured: full-without-see_pruning against full: -47.2 Elo [-64.6, -30.0], 1000 games at 10000 nodes a move.
        // Measured: full-without-qsearch_order is no ablation: no feature of qsearch_order is in full.
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        movepick::generate(board, !in_check, &mut moves);
        if in_check {
            movepick::score_main(board, &mut moves, &OrderingHints::default(), self.history);
        } else {
            movepick::score_tactical(&mut moves);
            self.order_captures::<NT>(&mut moves, tt_hit.and_then(|hit| hit.mv));
            if CHECKS {
                movepick::push_quiet_checks(board, &mut moves);
            }
        }
        let mut best_move = None;
        let mut picked = 0;
        while let Some(entry) = pick_next(&mut moves, picked) {
            picked += 1;
            let mv = entry.mv;
            let is_quiet_check = entry.kind == MoveKind::Quiet;
            // The window's lower bound rises as captures beat it.
            let qnode = QNode { alpha, ..qnode };
            if !in_check && !is_quiet_check && self.prunes_capture::<NT>(&qnode, &entry) {
                continue;
            }
            let mut child = board.clone();
            child.play_unchecked(mv);
            self.tt.prefetch(child.hash());
            self.hash_path.push(hash);
            let score = -self.qsearch::<NT>(&child, -beta, -alpha, ply + 1);
            self.hash_path.pop();
            if self.aborted {
                self.move_lists[ply] = moves;
                return 0;
            }
            if score > best_score {
                best_score = score;
            }
            if score > alpha {
                alpha = score;
                best_move = Some(mv);
                if NT::PV {
                    self.update_pv(ply, mv);
                }
                if score >= beta {
                    break;
                }
            }
        }
        self.move_lists[ply] = moves;

        // Step Q5. Mate when no evasion exists; store.
        if in_check && picked == 0 {
            return -MATE + ply as i32;
        }
        let bound = Bound::of_score(best_score, original_alpha, beta);
        self.tt.store(hash, best_move, best_score, static_eval, 0, bound, ply);
        best_score
    }
}

/// The node's static eval: none in check, the TT's when it has one.
fn static_eval(board: &Board, in_check: bool, tt_hit: Option<TtHit>) -> i32 {
    if in_check {
        NO_EVAL
    } else {
        tt_hit.map_or_else(|| evaluate(board), |hit| hit.static_eval)
    }
}

/// Whether a TT score settles the node for the window `alpha..beta`.
fn tt_score_cuts(hit: &TtHit, alpha: i32, beta: i32) -> bool {
    match hit.bound {
        Bound::Exact => true,
        Bound::Lower => hit.score >= beta,
        Bound::Upper => hit.score <= alpha,
    }
}

#[cfg(test)]
mod tests {
    use std::any::TypeId;

    use super::*;

    /// Each node type's flags and its children's types: the table the four
    /// types were written out as, one `impl` each.
    #[test]
    fn node_types_and_their_children() {
        fn row<NT: NodeType + 'static>() -> (bool, bool, bool, TypeId, TypeId) {
            (NT::PV, NT::ROOT, NT::NULL_MOVE, TypeId::of::<NT::PvChild>(), TypeId::of::<NT::NonPvChild>())
        }
        let (pv, non_pv, verification) = (TypeId::of::<Pv>(), TypeId::of::<NonPv>(), TypeId::of::<Verification>());
        assert_eq!(row::<Root>(), (true, true, true, pv, non_pv));
        assert_eq!(row::<Pv>(), (true, false, true, pv, non_pv));
        assert_eq!(row::<NonPv>(), (false, false, true, non_pv, non_pv));
        assert_eq!(row::<Verification>(), (false, false, false, verification, verification));
    }
}
