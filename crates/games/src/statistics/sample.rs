//! Counts as an empirical distribution over per-game scores, the form both
//! the LLR and the Elo estimates work on.

/// What an empty bin counts as: fishtest's and fastchess's regularization.
const EMPTY_BIN: f64 = 1e-3;

/// How many games one sample (one count of a bin) stands for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum GamesPerSample {
    One,
    Two,
}

impl GamesPerSample {
    pub(super) fn games(self) -> f64 {
        match self {
            GamesPerSample::One => 1.0,
            GamesPerSample::Two => 2.0,
        }
    }
}

/// Observed outcomes as an empirical distribution: bin `i` of `n` bins is a
/// score of `i / (n - 1)` per game (the pair's average, for pairs).
pub(super) struct Sample {
    /// The per-game score of each bin.
    pub(super) scores: Vec<f64>,
    /// The observed frequency of each bin, summing to 1.
    pub(super) frequencies: Vec<f64>,
    /// The number of samples, empty bins' share included.
    pub(super) size: f64,
}

impl Sample {
    /// The sample with empty bins counted as [`EMPTY_BIN`] samples
    /// (fishtest's `results_to_pdf`), as the LLR needs.
    pub(super) fn regularized(counts: &[u64]) -> Sample {
        Sample::weighted(counts.iter().map(|&count| if count == 0 { EMPTY_BIN } else { count as f64 }).collect())
    }

    /// The sample as observed (fastchess's Elo), or regularized if all of it
    /// falls in one bin, where it would have no variance to divide by.
    pub(super) fn for_estimates(counts: &[u64]) -> Sample {
        if counts.iter().filter(|&&count| count > 0).count() > 1 {
            Sample::weighted(counts.iter().map(|&count| count as f64).collect())
        } else {
            Sample::regularized(counts)
        }
    }

    fn weighted(weights: Vec<f64>) -> Sample {
        let bins = weights.len();
        let size: f64 = weights.iter().sum();
        let last = (bins - 1) as f64;
        Sample {
            scores: (0..bins).map(|i| i as f64 / last).collect(),
            frequencies: weights.iter().map(|weight| weight / size).collect(),
            size,
        }
    }

    /// `size * Σ p̂ᵢ ln(p1ᵢ / p0ᵢ)`: the log-likelihood ratio of the sample
    /// under distribution `p1` against `p0`.
    pub(super) fn log_likelihood_ratio(&self, p0: &[f64], p1: &[f64]) -> f64 {
        self.size * self.frequencies.iter().zip(p0.iter().zip(p1)).map(|(f, (a, b))| f * (b.ln() - a.ln())).sum::<f64>()
    }
}

/// Mean and variance of the scores under `probabilities`.
pub(super) fn mean_and_variance(scores: &[f64], probabilities: &[f64]) -> (f64, f64) {
    let mean: f64 = scores.iter().zip(probabilities).map(|(a, p)| a * p).sum();
    let variance = scores.iter().zip(probabilities).map(|(a, p)| p * (a - mean) * (a - mean)).sum();
    (mean, variance)
}
