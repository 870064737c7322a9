//! The move loop's picker: hands a node's moves out in the search's order.
//!
//! The baseline generates and scores every move before the first pick and
//! hands them out best first (`movepick::pick_next_settling`, settling a
//! deferred term when a move comes up). The staged features of
//! `prune/staged_picking.rs` split that in stages: the TT move alone before
//! any generation (`staged-tt-move`), the captures and promotions before the
//! quiet moves are scored (`staged-captures`). And a node whose move
//! pruning asks to skip its quiet moves (`lmp-skip-quiets`,
//! `futility-skip-quiets`) drops them here.
//!
//! The picker owns the node's move list (the ply's reusable list, taken for
//! the node and given back by `finish_picking` or `abandon_picking`) and
//! where the node is in it; the stages' decisions are the technique's.

use cozy_chess::Move;

use crate::movepick::{self, pick_next_settling, OrderingHints, PickMemo, ScoredMove};
use crate::position::CheckInfo;
use crate::prune::staged_picking::StagedPicking;
use crate::search::{Node, NodeType, QuietDrop, Worker};
use crate::techniques::TechniqueSet;
use crate::trace::TraceKind;

/// Where a node is in handing out its moves.
pub(crate) struct MovePicker {
    /// The node's moves: those handed out first, in the order they were.
    moves: Vec<ScoredMove>,
    /// The TT move searched before any generation (`staged-tt-move`).
    staged_tt_move: Option<Move>,
    /// Whether the moves (or, staged, the captures) are generated.
    generated: bool,
    /// `staged-captures`: the quiet moves are still to come, once no move
    /// left scores above them.
    quiets_pending: bool,
    quiet_stage_reached: bool,
    /// Moves handed out so far, excluded and dropped ones included.
    picked: usize,
    /// Moves before this index are in picking order already (a staged TT
    /// move, or a drop that kept some quiet moves sorted them).
    in_order_until: usize,
    memo: PickMemo,
    /// `staged-skip`: quiet moves a skip removed, to be counted as moves
    /// once the checks it kept are handed out (`counted_before`).
    removed_uncounted: usize,
    /// What `counted_before` hands the loop with the move just picked.
    removed_counted: usize,
}

impl MovePicker {
    /// Every move handed out so far, the last one included.
    pub fn picked_moves(&self) -> &[ScoredMove] {
        &self.moves[..self.picked]
    }

    /// The moves handed out before the last one (pruned ones included).
    pub fn tried_before(&self) -> &[ScoredMove] {
        &self.moves[..self.picked.saturating_sub(1)]
    }

    /// How many moves removed by a skip count before the move just picked:
    /// none while the checks the skip kept are handed out, all of them with
    /// the first move after those (`staged-skip`).
    pub fn counted_before(&mut self) -> usize {
        std::mem::take(&mut self.removed_counted)
    }
}

/// What a node dropping its quiet moves knows of itself.
#[derive(Clone, Copy)]
struct QuietDropSite<'a> {
    check_info: &'a CheckInfo,
    excluded_move: Option<Move>,
}

impl<T: TechniqueSet> Worker<'_, T> {
    /// The picker of a node: its TT move alone (`staged-tt-move`), or its
    /// moves generated and scored.
    #[inline(always)]
    pub(crate) fn start_picking<NT: NodeType>(&mut self, node: &Node, excluded_move: Option<Move>) -> MovePicker {
        let mut moves = std::mem::take(&mut self.move_lists[node.ply]);
        let staged_tt_move = StagedPicking::tt_move_stage::<T>(node.tt_move, excluded_move);
        let mut quiets_pending = false;
        match staged_tt_move {
            Some(mv) => {
                moves.clear();
                moves.push(ScoredMove::tt_move(node.board, mv));
            }
            None => quiets_pending = self.generate_and_order::<NT>(node, &mut moves),
        }
        MovePicker {
            moves,
            staged_tt_move,
            generated: staged_tt_move.is_none(),
            quiets_pending,
            quiet_stage_reached: false,
            picked: 0,
            in_order_until: usize::from(staged_tt_move.is_some()),
            memo: PickMemo::default(),
            removed_uncounted: 0,
            removed_counted: 0,
        }
    }

    /// The next move, generating a stage when it is due; `None` when every
    /// move is handed out.
    #[inline(always)]
    pub(crate) fn next_move<NT: NodeType>(&mut self, picker: &mut MovePicker, node: &Node) -> Option<ScoredMove> {
        if !picker.generated && picker.picked >= picker.in_order_until {
            // The staged TT move did not cut. It is the best move of the
            // list: picking it again puts every move where an unstaged node
            // has it after its first pick.
            picker.generated = true;
            picker.quiets_pending = self.generate_and_order::<NT>(node, &mut picker.moves);
            let again = pick_next_settling(&mut picker.moves, 0, &mut picker.memo, &mut |_| {});
            debug_assert_eq!(again.map(|entry| entry.mv), picker.staged_tt_move, "the TT move is picked first");
        }
        if picker.quiets_pending && !self.scores_above_quiets::<NT>(picker, node) {
            // Every move scored above the quiet moves is picked.
            self.start_quiet_stage::<NT>(picker, node);
        }
        let entry = if picker.picked < picker.in_order_until {
            picker.moves.get(picker.picked).copied()
        } else {
            let MovePicker { moves, picked, memo, .. } = picker;
            pick_next_settling(moves, *picked, memo, &mut |entry| self.settle::<NT>(node, entry))
        }?;
        picker.picked += 1;
        if T::TECHNIQUES.staged_picking.skip_at_once && !entry.is_quiet() {
            picker.removed_counted += std::mem::take(&mut picker.removed_uncounted);
        }
        Some(entry)
    }

    /// After a move whose pruning asked the node to skip its quiet moves
    /// (`request`): drops those not picked yet. Returns how many of them
    /// count as moves of the node now (see `drop_quiet_moves`).
    pub(crate) fn skip_quiet_moves<NT: NodeType>(
        &mut self,
        picker: &mut MovePicker,
        node: &Node,
        check_info: &CheckInfo,
        excluded_move: Option<Move>,
        request: QuietDrop,
    ) -> usize {
        // Dropped before they came, they still count as moves.
        self.start_quiet_stage::<NT>(picker, node);
        self.drop_quiet_moves::<NT>(picker, node, QuietDropSite { check_info, excluded_move }, request)
    }

    /// The node's move loop is over: its list goes back to the ply, and the
    /// stages' telemetry counts what they spared.
    pub(crate) fn finish_picking(&mut self, picker: MovePicker, ply: usize) {
        let (staged, generated, quiet_stage_reached) =
            (picker.staged_tt_move.is_some(), picker.generated, picker.quiet_stage_reached);
        self.move_lists[ply] = picker.moves;
        StagedPicking::count_stages(&mut self.context(), staged, generated, quiet_stage_reached);
    }

    /// The search stopped in the node's move loop: its list goes back to
    /// the ply, and nothing is counted.
    pub(crate) fn abandon_picking(&mut self, picker: MovePicker, ply: usize) {
        self.move_lists[ply] = picker.moves;
    }

    /// The move loop: every legal move, scored (`score_main_deferring_see`) and
    /// ordered by the techniques' hooks. With `staged-captures`, only the
    /// captures, the promotions and the TT move, and `true`: the quiet
    /// moves are due later (`append_quiets`).
    fn generate_and_order<NT: NodeType>(&mut self, node: &Node, moves: &mut Vec<ScoredMove>) -> bool {
        if StagedPicking::capture_stage(&mut self.context(), node, moves) {
            // The killers and the countermove are looked for among the
            // quiet moves, when they come.
            let hints = OrderingHints { tt_move: node.tt_move, ..OrderingHints::default() };
            movepick::score_main_deferring_see(node.board, moves, &hints, self.history);
            self.order_moves::<NT>(node, moves);
            return true;
        }
        movepick::generate(node.board, false, moves);
        let hints = OrderingHints { tt_move: node.tt_move, killers: node.killers, counter_move: node.counter_move };
        self.stats.rejected_hints += movepick::score_main_deferring_see(node.board, moves, &hints, self.history);
        self.order_moves::<NT>(node, moves);
        false
    }

    /// `staged-captures`: whether the next move of the first stage's list,
    /// its score settled, scores above every quiet move: then the quiet
    /// moves are not due yet.
    fn scores_above_quiets<NT: NodeType>(&mut self, picker: &mut MovePicker, node: &Node) -> bool {
        if picker.picked < picker.in_order_until {
            return true; // the staged TT move, handed out in place
        }
        let MovePicker { moves, picked, memo, .. } = picker;
        let next = movepick::settle_best(moves, *picked, memo, &mut |entry| self.settle::<NT>(node, entry));
        next.is_some_and(|index| moves[index].score() > movepick::QUIET_SCORE_TOP)
    }

    /// The move loop: completes the score of `entry`, the best remaining move,
    /// before it is picked: a capture's SEE, or a technique's deferred term.
    #[inline]
    fn settle<NT: NodeType>(&mut self, node: &Node, entry: &mut ScoredMove) {
        if !movepick::settle_capture(node.board, entry) {
            self.settle_move::<NT>(node, entry);
        }
    }

    /// The move loop, `staged-captures`: the quiet moves, if still pending, are
    /// appended to the list, and the next scan finds them.
    fn start_quiet_stage<NT: NodeType>(&mut self, picker: &mut MovePicker, node: &Node) {
        if std::mem::take(&mut picker.quiets_pending) {
            picker.quiet_stage_reached = true;
            self.append_quiets::<NT>(node, &mut picker.moves);
            picker.memo = PickMemo::default();
        }
    }

    /// The move loop, `staged-captures`: appends the quiet moves to a list of
    /// captures and promotions whose moves above them are all picked, scored
    /// and ordered as `generate_and_order` would have.
    fn append_quiets<NT: NodeType>(&mut self, node: &Node, moves: &mut Vec<ScoredMove>) {
        let first_quiet = moves.len();
        StagedPicking::take_quiets(&mut self.context(), node, moves);
        let hints = OrderingHints { tt_move: node.tt_move, killers: node.killers, counter_move: node.counter_move };
        let rejected = movepick::score_main(node.board, &mut moves[first_quiet..], &hints, self.history);
        // A killer may be a capture here: it is in the first stage's moves.
        let in_first_stage = [hints.killers[0], hints.killers[1], hints.counter_move]
            .into_iter()
            .flatten()
            .filter(|&hint| moves[..first_quiet].iter().any(|entry| entry.mv == hint))
            .count() as u64;
        self.stats.rejected_hints += rejected - in_first_stage;
        self.order_moves::<NT>(node, &mut moves[first_quiet..]);
    }

    /// After a pruned move whose hook asked for it (`request`): drops the
    /// quiet moves the picker has not handed out, but for the checks of a
    /// request that keeps them, and credits them to the technique that
    /// asked. Where no quiet move stays, they are removed, and the number
    /// returned is how many count as legal moves of the node (all but a
    /// singular search's excluded move), and every later pick scans again.
    /// Otherwise they are marked in place and counted as the loop passes
    /// them, and `in_order_until` is where the moves stop being in picking
    /// order. With `staged-skip` they are removed at once and count after
    /// the kept checks (`MovePicker::counted_before`).
    fn drop_quiet_moves<NT: NodeType>(
        &mut self,
        picker: &mut MovePicker,
        node: &Node,
        site: QuietDropSite,
        request: QuietDrop,
    ) -> usize {
        let QuietDropSite { check_info, excluded_move } = site;
        let MovePicker { moves, in_order_until, removed_uncounted, picked, .. } = picker;
        let picked = *picked;
        let kept =
            |entry: &ScoredMove| request.keeps_checks && check_info.gives_check(node.board, entry.mv, entry.piece);
        // A move an earlier request marked is that request's.
        let dropped = |entry: &ScoredMove| entry.is_quiet() && !entry.is_dropped() && !kept(entry);
        let dropped_excluded = excluded_move
            .is_some_and(|excluded| moves[picked..].iter().any(|entry| entry.mv == excluded && dropped(entry)));
        if let Some(line_move) = self.traces(node.ply).then(|| self.traced_move(node.ply)).flatten() {
            if moves[picked..].iter().any(|entry| entry.mv == line_move && dropped(entry)) {
                let detail = format!(
                    "{} dropped unpicked: move {} was pruned at depth {}",
                    crate::position::move_to_uci(node.board, line_move),
                    picked,
                    node.depth
                );
                self.trace(node.ply, node.depth, TraceKind::MoveSkipped, request.technique, request.feature, detail);
                // A replay that does not take the drop leaves every move.
                if self.overrules(request.technique, node.ply) {
                    return 0;
                }
            }
        }
        if T::TECHNIQUES.staged_picking.skip_at_once {
            // Removed at once and counted at once; what stays keeps its order.
            let before = moves.len();
            movepick::remove_from(moves, picked, dropped);
            let removed = before - moves.len();
            let kept_checks = moves[picked..].iter().filter(|entry| entry.is_quiet()).count();
            *in_order_until = (*in_order_until).min(picked);
            let counted = removed - usize::from(dropped_excluded);
            *(request.dropped)(&mut self.stats.techniques) += counted as u64;
            StagedPicking::count_skip(&mut self.context(), removed, kept_checks);
            // Counted after the kept checks: each keeps the move number it
            // would have had right after the pruned move.
            *removed_uncounted += counted;
            return 0;
        }
        let quiet_move_stays = moves[picked..].iter().any(|entry| entry.is_quiet() && !dropped(entry));
        let (credited, counted_now) = if quiet_move_stays {
            let stays = |entry: &ScoredMove| entry.is_dropped() || kept(entry);
            let (marked, end) =
                movepick::mark_dropped_quiets(moves, picked, stays, |entry| self.settle::<NT>(node, entry));
            *in_order_until = (*in_order_until).max(end);
            (marked - usize::from(dropped_excluded), 0)
        } else {
            *in_order_until = 0;
            let counted = movepick::drop_quiets(moves, picked) - usize::from(dropped_excluded);
            (counted, counted)
        };
        *(request.dropped)(&mut self.stats.techniques) += credited as u64;
        counted_now
    }
}
