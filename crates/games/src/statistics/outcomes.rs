//! The counts of a match's results, from the first engine's view: game pairs
//! (the pentanomial) and single games (W/D/L).

use serde::{Deserialize, Serialize};

/// Game-pair outcomes from the first engine's view, indexed by its points in
/// the pair in half-points: `[LL, LD, DD+WL, WD, WW]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Adds one pair: the first engine's points (0, 0.5 or 1) in each game.
    ///
    /// # Panics
    /// If a game's points are not 0, 0.5 or 1: that is a bug in the caller.
    pub fn add_pair(&mut self, first_game: f64, second_game: f64) {
        assert!(
            is_game_points(first_game) && is_game_points(second_game),
            "a game scores 0, 0.5 or 1, not {first_game} and {second_game}"
        );
        let half_points = (2.0 * (first_game + second_game)).round() as usize;
        self.0[half_points] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    pub fn games(&self) -> u64 {
        2 * self.pairs()
    }
}

fn is_game_points(points: f64) -> bool {
    points == 0.0 || points == 0.5 || points == 1.0
}

/// Wins, draws and losses from the first engine's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    /// Adds one game: the first engine's points (0, 0.5 or 1).
    ///
    /// # Panics
    /// If the points are not 0, 0.5 or 1.
    pub fn add_game(&mut self, points: f64) {
        assert!(is_game_points(points), "a game scores 0, 0.5 or 1, not {points}");
        if points == 1.0 {
            self.wins += 1;
        } else if points == 0.5 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The counts in score order, `[L, D, W]`, as the statistics want them.
    pub(super) fn by_score(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statistics::test_support::*;

    #[test]
    fn pairs_land_in_their_half_point_bin() {
        let mut counts = Pentanomial::default();
        counts.add_pair(0.0, 0.0);
        counts.add_pair(0.5, 0.0);
        counts.add_pair(0.0, 0.5);
        counts.add_pair(1.0, 0.0);
        counts.add_pair(0.5, 0.5);
        counts.add_pair(0.5, 1.0);
        counts.add_pair(1.0, 1.0);
        assert_eq!(counts, penta([1, 2, 2, 1, 1]));
        assert_eq!((counts.pairs(), counts.games()), (7, 14));
        let mut games = Wdl::default();
        for points in [1.0, 0.5, 0.0, 1.0] {
            games.add_game(points);
        }
        assert_eq!(games, wdl(2, 1, 1));
    }

    #[test]
    #[should_panic(expected = "a game scores 0, 0.5 or 1")]
    fn a_pair_with_impossible_points_panics() {
        Pentanomial::default().add_pair(0.75, 0.0);
    }
}
