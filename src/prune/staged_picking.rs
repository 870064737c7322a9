//! Staged move picking: the TT move is searched before the node generates
//! its moves, so a node whose TT move cuts never generates nor scores any.
//!
//! Also called: the move picker's "TT stage" (Stockfish's `MAIN_TT`,
//! Ethereal's `STAGE_TABLE`), the first stage of a staged move generator.
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
//! Telemetry: `staged: att=X cut=Y cut%=Z.Z%`: an attempt is a node that
//! tried its TT move before generating, a cut one that never generated.

use cozy_chess::Move;

use crate::search::Worker;
use crate::stats::rate;
use crate::techniques::{Hooks, Technique, TechniqueSet};
use crate::tune::Tunable;
use crate::{counters, technique};

technique! {
    /// Whether the TT move is searched before the moves are generated.
    pub struct StagedPicking {
        tt_move_stage: "staged-tt-move" [] "Stockfish, Ethereal (staged move picker, TT stage)" => "the TT move searched before the moves are generated; the rest scored after its search";
    }
}

counters! {
    /// `staged:` telemetry.
    pub struct StagedPickingCounters {
        /// Nodes that tried the TT move before generating, and of those the
        /// ones it cut.
        pub attempts: u64,
        pub cutoffs: u64,
    }
}

impl Hooks for StagedPicking {}

impl<T: TechniqueSet> Worker<'_, T> {
    /// Step 11: the move a node searches before generating any, if any.
    pub(crate) fn tt_move_stage(&self, tt_move: Option<Move>, excluded_move: Option<Move>) -> Option<Move> {
        if !T::TECHNIQUES.staged_picking.tt_move_stage {
            return None;
        }
        tt_move.filter(|&mv| Some(mv) != excluded_move)
    }

    /// Step 11, after the move loop: whether the staged TT move spared the
    /// node its move generation.
    pub(crate) fn count_tt_move_stage(&mut self, staged: bool, generated: bool) {
        if staged {
            let counters = &mut self.stats.techniques.staged_picking;
            counters.attempts += 1;
            counters.cutoffs += u64::from(!generated);
        }
    }
}

impl Technique for StagedPicking {
    type Counters = StagedPickingCounters;

    fn report(&self, counters: &StagedPickingCounters) -> Vec<String> {
        if !self.tt_move_stage {
            return Vec::new();
        }
        vec![format!("staged: {}", rate(counters.attempts, counters.cutoffs))]
    }

    fn snapshot_counters(counters: &StagedPickingCounters) -> Vec<(&'static str, u64, u64)> {
        vec![("staged", counters.attempts, counters.cutoffs)]
    }

    fn tunables(&self) -> Vec<&'static Tunable> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use cozy_chess::Board;

    use crate::matrix::{load_suite, search_as, SUITE_PATH};
    use crate::position::Position;
    use crate::search::{SearchLimits, SearchResult, Searcher};
    use crate::techniques::TechniqueSet;

    crate::technique_set!(Baseline, []);
    crate::technique_set!(Staged, ["staged-tt-move"]);
    crate::technique_set!(Pruning, ["futility-2.1", "futility-tactical-guards", "lmp", "see-ordering"]);
    crate::technique_set!(PruningStaged, ["futility-2.1", "futility-tactical-guards", "lmp", "see-ordering", "staged-tt-move"]);

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
        let suite = load_suite(&Path::new(env!("CARGO_MANIFEST_DIR")).join(SUITE_PATH)).expect("the node-count suite loads");
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
}
