//! Delta pruning in quiescence: skip a capture that could not raise alpha
//! even if the captured piece came for free with a safety margin.
//!
//! Baseline: skip when stand pat + captured value + 200 < alpha, never in the
//! endgame (game phase ≤ 4, the plans' endgame definition), never for
//! promotions and never in check.

pub const DELTA_MARGIN: i32 = 200;
/// At or below this game phase the position counts as an endgame.
pub const ENDGAME_PHASE: i32 = 4;

pub fn delta_prunes(stand_pat: i32, captured_value: i32, alpha: i32, phase: i32) -> bool {
    phase > ENDGAME_PHASE && stand_pat + captured_value + DELTA_MARGIN < alpha
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prunes_hopeless_captures_outside_the_endgame() {
        assert!(delta_prunes(0, 100, 301, 24));
        assert!(!delta_prunes(0, 100, 300, 24));
        assert!(!delta_prunes(0, 100, 301, ENDGAME_PHASE));
    }
}
