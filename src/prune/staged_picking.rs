//! Staged move picking: the TT move is searched before the node generates
//! its moves, so a node whose TT move cuts never generates nor scores any;
//! the captures come before the quiet moves are generated, so a node that
//! cuts on a capture never generates nor scores its quiet moves.
//!
//! Also called: the move picker's stages (Stockfish's `MAIN_TT`,
//! `CAPTURE_INIT`, `QUIET_INIT`; Ethereal's `STAGE_TABLE`,
//! `STAGE_GENERATE_NOISY`, `STAGE_GENERATE_QUIET`).
//!
//! Phases:
//! - Baseline: every move is generated and scored (SEE of each capture,
//!   history of each quiet move) before the first one, the TT move, is
//!   picked.
//! - `staged-tt-move` (Stockfish, Ethereal): the TT move (legal, and not a
//!   singular search's excluded move) is searched first on its own; only
//!   when it does not cut are the moves generated, scored and picked as the
//!   baseline does, the TT move among them as the move already picked. The
//!   order is the baseline's, but the quiet moves are scored after the TT
//!   move's search, with the histories that search (and a singular search
//!   of the TT move) left: so the tree changes a little, which is why this
//!   is a feature and not a speed-up of the baseline.
//!
//! - `staged-captures` (Stockfish, Ethereal: the capture stages before
//!   the quiet ones): a node generates and scores its captures and
//!   promotions (and holds its TT move, whatever it is) first; its quiet
//!   moves are generated, scored and ordered only once every move scored
//!   above them is picked, so a node that cuts on a capture never makes
//!   them. The order is the baseline's up to ties: every capture or
//!   promotion scores above every quiet move but the TT move, or below all
//!   of them (`movepick::QUIET_SCORE_TOP`). But the quiet moves are scored
//!   after the captures' searches have updated the histories, and quiet
//!   moves of equal score come in generation order, where an unstaged list
//!   has them as the earlier picks' swaps left them: so the tree changes.
//!   A killer or countermove that is not a move here is counted as rejected
//!   (the `illegal:` line) only when the quiet moves come.
//!
//! - `staged-skip` (Stockfish's `skip_quiet_moves`, Ethereal's `skipQuiets`
//!   in its picker; implies `lmp-skip-quiets`): how a node serves a request
//!   to skip its quiet moves not yet picked (`lmp-skip-quiets`,
//!   `futility-skip-quiets`). Without it the node keeps its tree exact: the
//!   dropped moves are passed over where picking would have handed them
//!   out, counted one by one as the loop passes them, so a check the
//!   request keeps comes with the move number and the history malus it
//!   would have had; that takes picking (and settling) every quiet move up
//!   to the last dropped one. With it the node removes the dropped moves
//!   from its list at once, as Stockfish's and Ethereal's pickers just stop
//!   handing quiet moves out: the kept checks come next, by their own
//!   scores, each with the move number it would have had right after the
//!   pruned move, and the dropped moves count as moves from the first move
//!   after them (a bad capture or under-promotion), so those keep the
//!   reductions they had; a later cutoff's history malus reaches none of
//!   the dropped moves. Where it departs from them: their `moveCount` never
//!   sees a skipped move; here the dropped moves count, as with the two
//!   skip features alone. Ethereal drops the checks too; here the request
//!   says whether they stay. (Counting the dropped moves before the kept
//!   checks was measured too: each check then carried every dropped move
//!   in its move number, late move pruning cut it, and WAC lost 15
//!   positions; see `variants/staged-skip.toml`.)
//!
//! Telemetry: `staged: att=X cut=Y cut%=Z.Z%`: an attempt is a node that
//! tried its TT move before generating, a cut one that never generated.
//! `staged_cap: att=X cut=Y cut%=Z.Z%`: an attempt is a node that generated
//! its captures first, a cut one that never generated its quiet moves.
//! `staged_skip: drops=X removed=Y kept=Z`: the requests served at once,
//! the quiet moves they removed, and the checks they kept.
//!
//! Measured: full-without-staged_picking against full: -4.2 Elo [-21.2, +12.9], 1000 games at 10000 nodes a move.

use cozy_chess::Move;

use crate::context::Context;
use crate::movepick::{self, ScoredMove};
use crate::search::Node;
use crate::stats::rate;
use crate::techniques::{Technique, TechniqueCounters, TechniqueSet, Techniques};
use crate::{counters, features};

/// Whether the TT move is searched before the moves are generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StagedPicking {
    /// `staged-tt-move`
    pub tt_move_stage: bool,
    /// `staged-captures`
    pub capture_stage: bool,
    /// `staged-skip`
    pub skip_at_once: bool,
}

features! {
    StagedPicking {
        tt_move_stage: "staged-tt-move" [] "Stockfish, Ethereal (staged move picker, TT stage)" => "the TT move searched before the moves are generated; the rest scored after its search";
        capture_stage: "staged-captures" [] "Stockfish, Ethereal (staged move picker, capture stage)"
            => "captures and promotions generated and picked before the quiet moves are generated and scored";
        skip_at_once: "staged-skip" ["lmp-skip-quiets"] "Stockfish (skip_quiet_moves), Ethereal (skipQuiets)"
            => "a node that skips its quiet moves removes them at once; they count as moves after the checks it keeps";
    }
}

counters! {
    /// `staged:` telemetry.
    pub struct StagedPickingCounters {
        /// Nodes that tried the TT move before generating, and of those the
        /// ones it cut.
        pub attempts: u64,
        pub cutoffs: u64,
        /// Nodes that generated their captures first, and of those the ones
        /// that cut before generating their quiet moves.
        pub capture_stage: u64,
        pub quiets_spared: u64,
        /// `staged-skip`: requests served at once, the quiet moves they
        /// removed, and the checks they kept.
        pub skip_drops: u64,
        pub skip_removed: u64,
        pub skip_kept: u64,
    }
}

/// The picker's stages: `picker.rs` calls each by name where it hands the
/// moves out.
impl StagedPicking {
    /// The move loop: the move a node searches before generating any, if any.
    pub(crate) fn tt_move_stage<T: TechniqueSet>(tt_move: Option<Move>, excluded_move: Option<Move>) -> Option<Move> {
        if !T::TECHNIQUES.staged_picking.tt_move_stage {
            return None;
        }
        tt_move.filter(|&mv| Some(mv) != excluded_move)
    }

    /// The move loop (`staged-captures`): whether the node's moves come in
    /// stages; if so, generates them in `moves` (its captures and
    /// promotions, and its TT move whatever it is) and its quiet moves
    /// aside, for `take_quiets`.
    pub(crate) fn capture_stage<T: TechniqueSet>(
        cx: &mut Context<'_, '_, T, Self>,
        node: &Node,
        moves: &mut Vec<ScoredMove>,
    ) -> bool {
        if !T::TECHNIQUES.staged_picking.capture_stage {
            return false;
        }
        movepick::generate_split(node.board, moves, cx.quiet_list(node.ply));
        if let Some(mv) = node.tt_move.filter(|&mv| movepick::is_quiet(node.board, mv)) {
            moves.push(ScoredMove::tt_move(node.board, mv));
        }
        true
    }

    /// The move loop (`staged-captures`): appends the quiet moves set aside,
    /// but the TT move, which the list holds already.
    pub(crate) fn take_quiets<T: TechniqueSet>(
        cx: &mut Context<'_, '_, T, Self>,
        node: &Node,
        moves: &mut Vec<ScoredMove>,
    ) {
        let tt_move = node.tt_move.filter(|&mv| movepick::is_quiet(node.board, mv));
        moves.extend(cx.quiet_list(node.ply).iter().filter(|entry| Some(entry.mv) != tt_move));
    }

    /// `staged-skip`, once a node has served a request to drop its quiet
    /// moves at once: the quiet moves it removed and the checks it kept.
    pub(crate) fn count_skip<T: TechniqueSet>(cx: &mut Context<'_, '_, T, Self>, removed: usize, kept: usize) {
        let counters = cx.counters();
        counters.skip_drops += 1;
        counters.skip_removed += removed as u64;
        counters.skip_kept += kept as u64;
    }

    /// After the move loop: whether the staged TT move spared the node its
    /// move generation, and whether a staged node cut before its quiet
    /// moves were generated.
    pub(crate) fn count_stages<T: TechniqueSet>(
        cx: &mut Context<'_, '_, T, Self>,
        staged: bool,
        generated: bool,
        quiet_stage_reached: bool,
    ) {
        let counters = cx.counters();
        if staged {
            counters.attempts += 1;
            counters.cutoffs += u64::from(!generated);
        }
        if T::TECHNIQUES.staged_picking.capture_stage && generated {
            counters.capture_stage += 1;
            counters.quiets_spared += u64::from(!quiet_stage_reached);
        }
    }
}

impl Technique for StagedPicking {
    const NAME: &'static str = "staged_picking";
    type Counters = StagedPickingCounters;

    fn of(set: &Techniques) -> &Self {
        &set.staged_picking
    }

    fn counters(all: &TechniqueCounters) -> &StagedPickingCounters {
        &all.staged_picking
    }

    fn counters_mut(all: &mut TechniqueCounters) -> &mut StagedPickingCounters {
        &mut all.staged_picking
    }

    fn report(&self, counters: &StagedPickingCounters) -> Vec<String> {
        let mut lines = Vec::new();
        if self.tt_move_stage {
            lines.push(format!("staged: {}", rate(counters.attempts, counters.cutoffs)));
        }
        if self.capture_stage {
            lines.push(format!("staged_cap: {}", rate(counters.capture_stage, counters.quiets_spared)));
        }
        if self.skip_at_once {
            lines.push(format!(
                "staged_skip: drops={} removed={} kept={}",
                counters.skip_drops, counters.skip_removed, counters.skip_kept
            ));
        }
        lines
    }

    fn snapshot_counters(counters: &StagedPickingCounters) -> Vec<(&'static str, u64, u64)> {
        vec![
            ("staged", counters.attempts, counters.cutoffs),
            ("staged_cap", counters.capture_stage, counters.quiets_spared),
            ("staged_skip", counters.skip_drops, counters.skip_removed),
        ]
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use cozy_chess::{Board, Color, Move, Square};

    use crate::matrix::{load_suite, search_as, SUITE_PATH};
    use crate::movepick::{self, pick_next, pick_next_settling, History, OrderingHints, PickMemo, ScoredMove};
    use crate::position::Position;
    use crate::search::{SearchLimits, SearchResult, Searcher};
    use crate::techniques::TechniqueSet;

    // The feature's set of the catalogue test, compiled once.
    use super::feature_searches::tt_move_stage as Staged;
    use crate::techniques::Baseline;
    crate::technique_set!(Pruning, ["futility-2.1", "futility-tactical-guards", "lmp", "see-ordering"]);
    crate::technique_set!(
        PruningStaged,
        ["futility-2.1", "futility-tactical-guards", "lmp", "see-ordering", "staged-tt-move"]
    );
    crate::technique_set!(
        CapturesFirst,
        ["futility-2.1", "futility-tactical-guards", "lmp", "see-ordering", "staged-captures"]
    );
    crate::technique_set!(
        BothStages,
        ["futility-2.1", "futility-tactical-guards", "lmp", "see-ordering", "staged-captures", "staged-tt-move"]
    );
    crate::technique_set!(
        SkippingInOrder,
        ["futility-2.1", "futility-tactical-guards", "futility-skip-quiets", "lmp-skip-quiets", "see-ordering"]
    );
    crate::technique_set!(
        SkippingAtOnce,
        [
            "futility-2.1",
            "futility-tactical-guards",
            "futility-skip-quiets",
            "lmp-skip-quiets",
            "see-ordering",
            "staged-skip"
        ]
    );

    fn outcome(result: &SearchResult) -> (u64, Option<cozy_chess::Move>, i32) {
        (result.nodes, result.best_move, result.score)
    }

    /// Whether no move of `board` and no reply to one gives check: then no
    /// node of a depth-2 search is extended.
    fn no_check_within_two_plies(board: &Board) -> bool {
        let mut quiet = true;
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                let gives_check = !child.checkers().is_empty();
                let reply_checks = child.generate_moves(|replies| {
                    replies.into_iter().any(|reply| {
                        let mut grandchild = child.clone();
                        grandchild.play_unchecked(reply);
                        !grandchild.checkers().is_empty()
                    })
                });
                if gives_check || reply_checks {
                    quiet = false;
                    return true;
                }
            }
            false
        });
        quiet
    }

    /// The node suite's positions and every position one move from them.
    fn suite_and_children() -> Vec<Position> {
        let suite =
            load_suite(&Path::new(env!("CARGO_MANIFEST_DIR")).join(SUITE_PATH)).expect("the node-count suite loads");
        let mut positions = Vec::new();
        for (_, pos) in suite {
            pos.board().generate_moves(|moves| {
                for mv in moves {
                    let mut child = pos.clone();
                    child.play_move(mv).expect("a legal move");
                    positions.push(child);
                }
                false
            });
            positions.push(pos);
        }
        positions
    }

    fn search<T: TechniqueSet>(pos: &Position, depth: i32) -> SearchResult {
        let mut searcher = Searcher::new(16);
        searcher.new_game();
        search_as::<T>(&mut searcher, pos, &SearchLimits { depth: Some(depth), ..Default::default() })
    }

    /// Where no node of a depth-2 search is extended, no search below a
    /// node can change a history it scores with (the TT move's subtree
    /// updates the other side's, and quiescence none): there the staged
    /// search is the unstaged one, node for node, so the staging itself
    /// (the TT move alone, then the list with it picked again) changes
    /// nothing. Elsewhere a check extension lets a node of the same side
    /// cut first, and the tree may move.
    #[test]
    fn without_extensions_the_staged_tree_to_depth_two_is_the_unstaged_one() {
        let positions: Vec<Position> =
            suite_and_children().into_iter().filter(|pos| no_check_within_two_plies(pos.board())).collect();
        assert!(positions.len() > 50, "{} positions", positions.len());
        let (mut attempts, mut cutoffs) = (0, 0);
        for pos in &positions {
            let fen = pos.board().to_string();
            assert_eq!(outcome(&search::<Staged>(pos, 2)), outcome(&search::<Baseline>(pos, 2)), "{fen}");
            let (staged, plain) = (search::<PruningStaged>(pos, 2), search::<Pruning>(pos, 2));
            assert_eq!(outcome(&staged), outcome(&plain), "{fen}");
            assert_eq!(plain.stats.techniques.staged_picking.attempts, 0, "{fen}");
            let counters = &staged.stats.techniques.staged_picking;
            assert!(counters.cutoffs <= counters.attempts, "{fen}");
            (attempts, cutoffs) = (attempts + counters.attempts, cutoffs + counters.cutoffs);
        }
        assert!(cutoffs > 100 && attempts > cutoffs, "{cutoffs} cuts of {attempts}");
    }

    /// Deeper, the quiet moves are scored with the histories the TT move's
    /// search left, and the tree moves.
    #[test]
    fn deeper_the_quiet_moves_are_scored_after_the_tt_moves_search() {
        let searches = crate::matrix::suite_with_both::<Pruning, PruningStaged>(6);
        let moved = searches.iter().filter(|(_, plain, staged)| outcome(plain) != outcome(staged)).count();
        assert!(moved * 2 > searches.len(), "{moved} of {} positions moved", searches.len());
    }

    /// The moves of a list in the order picking hands them out, with their
    /// scores.
    fn picked_in_order(list: &mut [ScoredMove], from: usize) -> Vec<(i32, Move)> {
        let mut order = Vec::new();
        while let Some(entry) = pick_next(list, from + order.len()) {
            order.push((entry.score(), entry.mv));
        }
        order
    }

    /// Runs of equal scores, each as a sorted set of moves: the order
    /// picking owes, ties aside.
    fn up_to_ties(order: &[(i32, Move)]) -> Vec<(i32, Vec<String>)> {
        let mut runs: Vec<(i32, Vec<String>)> = Vec::new();
        for &(score, mv) in order {
            match runs.last_mut() {
                Some((last, moves)) if *last == score => moves.push(mv.to_string()),
                _ => runs.push((score, vec![mv.to_string()])),
            }
        }
        for (_, moves) in &mut runs {
            moves.sort();
        }
        runs
    }

    /// The two stages hand out the unstaged list's moves in its order, up
    /// to ties: the captures and promotions above the quiet moves, then
    /// the quiet moves, then the rest. Checked with killers, a countermove
    /// and a history that gives the quiet moves distinct scores, on every
    /// position of the node suite and its children, and with each legal
    /// move as the TT move of the first few.
    #[test]
    fn the_stages_hand_out_the_unstaged_order_up_to_ties() {
        let mut history = History::new();
        for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
            for from in Square::ALL {
                for to in Square::ALL {
                    let mv = Move { from, to, promotion: None };
                    history.update(color, mv, (from as i32 * 64 + to as i32 + i as i32 * 17) % 3000 - 1500);
                }
            }
        }
        let (mut cases, mut with_first_stage) = (0, 0);
        for (index, pos) in suite_and_children().iter().enumerate() {
            let board = pos.board();
            let mut all = Vec::new();
            movepick::generate(board, false, &mut all);
            let quiet: Vec<Move> = all.iter().filter(|entry| entry.is_quiet()).map(|entry| entry.mv).collect();
            let mut tt_moves = vec![None];
            if index % 40 == 0 {
                tt_moves.extend(all.iter().map(|entry| Some(entry.mv)));
            }
            for tt_move in tt_moves {
                let hints = OrderingHints {
                    tt_move,
                    killers: [quiet.get(2).copied(), quiet.get(5).copied()],
                    counter_move: quiet.get(7).copied(),
                };
                let mut unstaged = all.clone();
                movepick::score_main(board, &mut unstaged, &hints, &history);
                let expected = picked_in_order(&mut unstaged, 0);

                let (mut staged, mut quiets) = (Vec::new(), Vec::new());
                movepick::generate_split(board, &mut staged, &mut quiets);
                if let Some(mv) = tt_move.filter(|&mv| movepick::is_quiet(board, mv)) {
                    staged.push(ScoredMove::tt_move(board, mv));
                }
                let first_hints = OrderingHints { tt_move, ..OrderingHints::default() };
                movepick::score_main_deferring_see(board, &mut staged, &first_hints, &history);
                // The first stage: picked, each capture's SEE settled when it
                // comes up, while the next move scores above the quiet moves.
                let (mut order, mut memo) = (Vec::new(), PickMemo::default());
                let mut settle = |entry: &mut ScoredMove| {
                    movepick::settle_capture(board, entry);
                };
                while movepick::settle_best(&mut staged, order.len(), &mut memo, &mut settle)
                    .is_some_and(|next| staged[next].score() > movepick::QUIET_SCORE_TOP)
                {
                    let entry = pick_next_settling(&mut staged, order.len(), &mut memo, &mut settle).expect("a move");
                    order.push((entry.score(), entry.mv));
                }
                with_first_stage += usize::from(!order.is_empty());
                let first_quiet = staged.len();
                staged.extend(quiets.iter().filter(|entry| Some(entry.mv) != tt_move));
                movepick::score_main(board, &mut staged[first_quiet..], &hints, &history);
                order.extend(picked_in_order(&mut staged, order.len()));

                assert_eq!(order.len(), expected.len(), "{board}");
                assert_eq!(up_to_ties(&order), up_to_ties(&expected), "{board} with TT move {tt_move:?}");
                cases += 1;
            }
        }
        assert!(cases > 1000 && with_first_stage > 500, "{cases} lists, {with_first_stage} with a first stage");
    }

    /// With the captures first, the TT stage spares generation and nothing
    /// else: the quiet moves are scored after the TT move's search either
    /// way, and the captures are scored by SEE, which no search changes.
    #[test]
    fn with_the_captures_first_the_tt_stage_leaves_the_tree_alone() {
        let searches = crate::matrix::suite_with_both::<CapturesFirst, BothStages>(7);
        for (id, captures_first, both) in &searches {
            assert_eq!(outcome(captures_first), outcome(both), "{id}");
            let (first, second) =
                (&captures_first.stats.techniques.staged_picking, &both.stats.techniques.staged_picking);
            assert!(first.quiets_spared > 0 && first.quiets_spared < first.capture_stage, "{id}");
            assert!(second.cutoffs > 0 && second.capture_stage < first.capture_stage, "{id}");
        }
    }

    /// The quiet moves are scored after the captures' searches, and the
    /// tree moves.
    #[test]
    fn deeper_the_quiet_moves_are_scored_after_the_captures_searches() {
        let searches = crate::matrix::suite_with_both::<Pruning, CapturesFirst>(6);
        let moved = searches.iter().filter(|(_, plain, staged)| outcome(plain) != outcome(staged)).count();
        assert!(moved * 2 > searches.len(), "{moved} of {} positions moved", searches.len());
    }

    /// `staged-skip` serves the same requests as the skip features alone,
    /// but removes the dropped moves at once: every move a request drops is
    /// removed and credited to the technique that asked, the checks the
    /// guarded futility keeps stay, and the tree moves (the kept checks come
    /// by their own scores, the malus of a later cutoff misses the dropped
    /// moves).
    #[test]
    fn skipping_at_once_removes_what_the_requests_drop_and_keeps_the_checks() {
        let searches = crate::matrix::suite_with_both::<SkippingInOrder, SkippingAtOnce>(7);
        let (mut moved, mut kept) = (0, 0);
        for (id, in_order, at_once) in &searches {
            let techniques = &at_once.stats.techniques;
            let counters = &techniques.staged_picking;
            let credited = techniques.futility.skipped + techniques.move_count.skipped;
            assert_eq!(counters.skip_removed, credited, "{id}");
            assert!(counters.skip_drops > 0 && counters.skip_removed >= counters.skip_drops, "{id}");
            assert_eq!(in_order.stats.techniques.staged_picking.skip_drops, 0, "{id}");
            moved += usize::from(outcome(in_order) != outcome(at_once));
            kept += counters.skip_kept;
        }
        assert!(kept > 0, "no check was kept");
        assert!(moved * 3 > searches.len(), "{moved} of {} positions moved", searches.len());
    }
}
