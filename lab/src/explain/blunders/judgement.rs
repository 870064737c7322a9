//! Lichess's judgement of a move, from a referee's scores of the position
//! before it and the position after it.
//!
//! As lila (lichess's server) computes it: a score is capped at ±1000 cp
//! (`Cp.CEILING`), a mate is the cap with the mate's sign (`WinPercent.
//! fromMate`), and the mover's winning chances are `2 / (1 + exp(-0.00368208
//! · cp)) - 1`, from -1 (lost) to +1 (won). A move that drops them by at
//! least 0.3 is a blunder, 0.2 a mistake, 0.1 an inaccuracy. The centipawn
//! loss is lila's `AccuracyCP`: the drop of the capped score, 0 when the
//! score rose. Lila also judges a move that creates or loses a forced mate
//! by separate rules (`MateAdvice`: a blunder unless the other score was
//! beyond 700 or 999 cp); here a mate is only the largest score, as the
//! issue that asked for this command defines it, so a lost mate with +8 left
//! is no blunder.

use games::engine::Score;
use serde::{Deserialize, Serialize};

/// The largest score, in centipawns: lila's `Cp.CEILING`.
pub const CP_CAP: i32 = 1000;

/// The slope of lila's winning chances (lila pull request 11148).
const WINNING_CHANCES_SLOPE: f64 = 0.00368208;

/// The drops in winning chances, for the mover, that make a move a
/// blunder, a mistake or an inaccuracy.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Thresholds {
    pub blunder: f64,
    pub mistake: f64,
    pub inaccuracy: f64,
}

impl Default for Thresholds {
    /// Lichess's.
    fn default() -> Thresholds {
        Thresholds { blunder: 0.3, mistake: 0.2, inaccuracy: 0.1 }
    }
}

/// How far a move fell short, worst first (Lichess's words).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MoveError {
    Blunder,
    Mistake,
    Inaccuracy,
}

/// A score from the side to move's point of view, capped: a mate is the
/// cap, `mate 0` (the side to move is mated) the cap against it.
pub fn capped_cp(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp.clamp(-CP_CAP, CP_CAP),
        Score::Mate(moves) if moves > 0 => CP_CAP,
        Score::Mate(_) => -CP_CAP,
    }
}

/// From -1 (lost) to +1 (won).
pub fn winning_chances(cp: i32) -> f64 {
    2.0 / (1.0 + (-WINNING_CHANCES_SLOPE * f64::from(cp)).exp()) - 1.0
}

/// One move, judged.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JudgedMove {
    /// The capped scores before and after the move, both for the mover.
    pub cp_before: i32,
    pub cp_after: i32,
    /// The capped score lost, 0 when it rose.
    pub cp_loss: i32,
    /// The winning chances lost (negative when they rose).
    pub chances_lost: f64,
    pub judgement: Option<MoveError>,
}

/// Judges a move from the referee's score `before` it (the mover to move)
/// and `after` it (the opponent to move).
pub fn judge(before: Score, after: Score, thresholds: &Thresholds) -> JudgedMove {
    let cp_before = capped_cp(before);
    let cp_after = -capped_cp(after);
    let chances_lost = winning_chances(cp_before) - winning_chances(cp_after);
    let judgement = if chances_lost >= thresholds.blunder {
        Some(MoveError::Blunder)
    } else if chances_lost >= thresholds.mistake {
        Some(MoveError::Mistake)
    } else if chances_lost >= thresholds.inaccuracy {
        Some(MoveError::Inaccuracy)
    } else {
        None
    };
    JudgedMove { cp_before, cp_after, cp_loss: (cp_before - cp_after).max(0), chances_lost, judgement }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(before: Score, after: Score) -> Option<MoveError> {
        judge(before, after, &Thresholds::default()).judgement
    }

    #[test]
    fn winning_chances_are_lila_s() {
        assert_eq!(winning_chances(0), 0.0);
        // 2 / (1 + e^-3.68208) - 1, by python's math.exp.
        assert!((winning_chances(1000) - 0.950_894_9).abs() < 1e-7, "{}", winning_chances(1000));
        assert!((winning_chances(-300) + winning_chances(300)).abs() < 1e-12);
        assert_eq!(capped_cp(Score::Cp(2500)), 1000);
        assert_eq!(capped_cp(Score::Cp(-1001)), -1000);
        assert_eq!(capped_cp(Score::Mate(3)), 1000);
        assert_eq!(capped_cp(Score::Mate(-1)), -1000);
        assert_eq!(capped_cp(Score::Mate(0)), -1000);
    }

    /// From level, a drop of d in winning chances takes the mover to
    /// -ln((1 + d) / (1 - d)) / 0.00368208 cp: -54.5 (0.1), -110.1 (0.2),
    /// -168.1 (0.3). Each threshold is pinned one centipawn either side.
    #[test]
    fn each_threshold_is_pinned_from_a_level_position() {
        let level = Score::Cp(0);
        // The opponent's score after the move is the mover's, negated.
        assert_eq!(judged(level, Score::Cp(54)), None);
        assert_eq!(judged(level, Score::Cp(55)), Some(MoveError::Inaccuracy));
        assert_eq!(judged(level, Score::Cp(110)), Some(MoveError::Inaccuracy));
        assert_eq!(judged(level, Score::Cp(111)), Some(MoveError::Mistake));
        assert_eq!(judged(level, Score::Cp(168)), Some(MoveError::Mistake));
        assert_eq!(judged(level, Score::Cp(169)), Some(MoveError::Blunder));
        let move_169 = judge(level, Score::Cp(169), &Thresholds::default());
        assert_eq!((move_169.cp_before, move_169.cp_after, move_169.cp_loss), (0, -169, 169));
    }

    #[test]
    fn a_winning_side_can_lose_much_before_it_counts() {
        // +8 to +6 is a drop of 0.098 in winning chances: nothing; +5 to
        // +3 (0.224) is a mistake.
        assert_eq!(judged(Score::Cp(800), Score::Cp(-600)), None);
        assert_eq!(judged(Score::Cp(500), Score::Cp(-300)), Some(MoveError::Mistake));
        // The cap: +25 to +10 is no loss at all, but the cp loss is 0 too.
        let capped = judge(Score::Cp(2500), Score::Cp(-1000), &Thresholds::default());
        assert_eq!((capped.cp_loss, capped.judgement), (0, None));
        // A better score after the move is no loss.
        assert_eq!(judge(Score::Cp(0), Score::Cp(-50), &Thresholds::default()).cp_loss, 0);
    }

    #[test]
    fn mates_are_the_largest_score() {
        // Mate in 3 given away for +2: 0.951 to 0.352 (a drop of 0.598).
        assert_eq!(judged(Score::Mate(3), Score::Cp(-200)), Some(MoveError::Blunder));
        // Mate in 3 given away for +6: 0.951 to 0.802 (0.149), an inaccuracy.
        assert_eq!(judged(Score::Mate(3), Score::Cp(-600)), Some(MoveError::Inaccuracy));
        // Mate in 5 to mate in 2 (the opponent is mated in 2): no loss.
        assert_eq!(judged(Score::Mate(5), Score::Mate(-2)), None);
        // Level into a forced mate against the mover: a blunder.
        assert_eq!(judged(Score::Cp(0), Score::Mate(4)), Some(MoveError::Blunder));
        // Already mated in 2, mated in 1 now: lost either way.
        assert_eq!(judged(Score::Mate(-2), Score::Mate(1)), None);
        // Checkmate delivered: the opponent is mated (mate 0) after the move.
        let mating = judge(Score::Mate(1), Score::Mate(0), &Thresholds::default());
        assert_eq!((mating.cp_after, mating.judgement), (1000, None));
    }

    #[test]
    fn thresholds_are_options() {
        let strict = Thresholds { blunder: 0.2, mistake: 0.1, inaccuracy: 0.05 };
        assert_eq!(judge(Score::Cp(0), Score::Cp(111), &strict).judgement, Some(MoveError::Blunder));
        assert_eq!(judge(Score::Cp(0), Score::Cp(30), &strict).judgement, Some(MoveError::Inaccuracy));
    }
}
