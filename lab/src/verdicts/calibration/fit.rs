//! The predictor of Elo from fast measures that the calibration fits on the
//! atlas: a linear model weighted by each point's own game variance, and its
//! leave-one-out error.
//!
//! Each point's Elo is measured with its own error (its pentanomial's: an
//! SPRT stopped early has a larger one than a 1000-game match, and an
//! identical search's 1000 drawn games have almost none), and the measures leave a
//! scatter of their own that no number of games removes: variants with the
//! same node change differ in Elo. So the fit is the meta-regression's: each
//! point weighted by `1 / (v_i + τ²)`, `v_i` its Elo's variance and `τ²`
//! the scatter the measures leave, estimated by Paule and Mandel's method
//! (the `τ²` at which the weighted residuals' sum of squares equals its
//! degrees of freedom, `n − p`; 0 when the game errors explain the residuals
//! alone). With `τ² = 0` the weights are the games' alone; weighting by them
//! alone would let the identical searches' two points (a standard error of
//! 0.035 Elo: 56,000 times the weight of a 1000-game match) fix the line
//! through themselves.
//!
//! The error is measured on points the fit did not see: each point is
//! predicted by the fit on all the others (its `τ²` estimated again), and
//! the root mean square of those misses is reported. On a handful of points
//! an in-sample error flatters any model; the leave-one-out error does not,
//! and a fit that cannot beat the constant model (every variant predicted at
//! the weighted mean Elo of the others) has learnt nothing. A point far out
//! in the measure has a large leverage (`h_i = w_i a_iᵀ(AᵀWA)⁻¹a_i`): the
//! error without it says how much the fit leans on it.
//!
//! A prediction for a new variant carries its 95% prediction interval for
//! the variant's Elo at fixed nodes: `ŷ ± t(0.975, n − p) · √(q · a₀ᵀ(AᵀWA)⁻¹a₀
//! + τ²)`, `q` the weighted residuals' mean square (Knapp and Hartung's
//! factor, 1 when `τ² > 0`).

use games::statistics::student_t_quantile;

/// The least variance a point's Elo is taken to have: a standard error of
/// 0.001 Elo (no match measures finer), so a point of none keeps a finite
/// weight.
pub const MIN_VARIANCE: f64 = 1e-6;

/// A fitted linear model: `y = intercept + Σ slopes[i] · x[i]`, with the
/// scatter `τ²` the measures leave and the weights it was fitted with.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearFit {
    pub intercept: f64,
    pub slopes: Vec<f64>,
    /// `τ²`, in Elo².
    pub scatter: f64,
    pub weights: Vec<f64>,
}

impl LinearFit {
    pub fn predict(&self, x: &[f64]) -> f64 {
        self.intercept + self.slopes.iter().zip(x).map(|(slope, value)| slope * value).sum::<f64>()
    }
}

/// The points of a fit: each one's predictors (all rows as long), its Elo
/// and its Elo's variance.
#[derive(Clone, Copy, Debug)]
pub struct Points<'a> {
    pub xs: &'a [Vec<f64>],
    pub ys: &'a [f64],
    pub variances: &'a [f64],
}

impl<'a> Points<'a> {
    /// The parameters of a fit (the predictors and the intercept), when the
    /// points are enough and alike in shape.
    fn parameters(&self) -> Option<usize> {
        let predictors = self.xs.first().map_or(0, Vec::len);
        let parameters = predictors + 1;
        let count = self.xs.len();
        let shaped = self.ys.len() == count
            && self.variances.len() == count
            && count >= parameters
            && self.xs.iter().all(|row| row.len() == predictors);
        shaped.then_some(parameters)
    }

    /// The points but the `left_out`-th.
    fn without(&self, left_out: usize) -> (Vec<Vec<f64>>, Vec<f64>, Vec<f64>) {
        let kept = |index: &usize| *index != left_out;
        (
            (0..self.xs.len()).filter(kept).map(|index| self.xs[index].clone()).collect(),
            (0..self.ys.len()).filter(kept).map(|index| self.ys[index]).collect(),
            (0..self.variances.len()).filter(kept).map(|index| self.variances[index]).collect(),
        )
    }

    /// The weights at scatter `scatter`.
    fn weights(&self, scatter: f64) -> Vec<f64> {
        self.variances.iter().map(|variance| 1.0 / (variance.max(MIN_VARIANCE) + scatter)).collect()
    }

    /// The weighted least-squares coefficients at these weights.
    fn coefficients(&self, weights: &[f64]) -> Option<Vec<f64>> {
        let mut normal = normal_matrix(self.xs, weights);
        for (i, row) in normal.iter_mut().enumerate() {
            row.push(self.xs.iter().zip(self.ys).zip(weights).map(|((x, y), w)| w * with_intercept(x)[i] * y).sum());
        }
        solve(normal)
    }

    /// The weighted residuals' sum of squares, `Σ w_i r_i²`, at these weights.
    fn weighted_squares(&self, weights: &[f64]) -> Option<f64> {
        let coefficients = self.coefficients(weights)?;
        let residual = |x: &Vec<f64>, y: f64| y - dot(&coefficients, &with_intercept(x));
        Some(self.xs.iter().zip(self.ys).zip(weights).map(|((x, y), w)| w * residual(x, *y).powi(2)).sum())
    }

    /// Paule and Mandel's `τ²`: the root of `Σ w_i(τ²) r_i(τ²)² = n − p`
    /// (the left side falls as `τ²` grows), by bisection; 0 when the game
    /// variances alone leave the sum at or below `n − p`.
    fn scatter(&self, parameters: usize) -> Option<f64> {
        let freedom = (self.xs.len() - parameters) as f64;
        let excess = |scatter: f64| Some(self.weighted_squares(&self.weights(scatter))? - freedom);
        if freedom == 0.0 || excess(0.0)? <= 0.0 {
            return Some(0.0);
        }
        let spread = self.ys.iter().map(|y| y * y).sum::<f64>().max(1.0);
        let mut high = spread;
        while excess(high)? > 0.0 {
            high *= 2.0;
        }
        let mut low = 0.0;
        for _ in 0..100 {
            let middle = (low + high) / 2.0;
            if excess(middle)? > 0.0 {
                low = middle;
            } else {
                high = middle;
            }
        }
        Some((low + high) / 2.0)
    }
}

/// The weighted fit of the points (the module's head); `None` when they
/// cannot determine it (fewer than the parameters, or predictors that do
/// not vary independently).
pub fn fit(points: Points) -> Option<LinearFit> {
    let parameters = points.parameters()?;
    let scatter = points.scatter(parameters)?;
    let weights = points.weights(scatter);
    let coefficients = points.coefficients(&weights)?;
    Some(LinearFit { intercept: coefficients[0], slopes: coefficients[1..].to_vec(), scatter, weights })
}

/// A prediction of a new point with its 95% prediction interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// The fit's prediction at `x` with its 95% prediction interval (the
/// module's head). `None` when the fit cannot be made or leaves no degree
/// of freedom.
pub fn prediction_interval(points: Points, x: &[f64]) -> Option<Prediction> {
    let parameters = points.parameters()?;
    let fit = fit(points)?;
    let freedom = points.xs.len().checked_sub(parameters).filter(|freedom| *freedom > 0)?;
    let factor = points.weighted_squares(&fit.weights)? / freedom as f64;
    let spread = factor * quadratic_form(points.xs, &fit.weights, &with_intercept(x))? + fit.scatter;
    let value = fit.predict(x);
    let half_width = student_t_quantile(freedom as u64) * spread.sqrt();
    Some(Prediction { value, low: value - half_width, high: value + half_width })
}

/// Each point's leverage in the fit, `h_i = w_i a_iᵀ(AᵀWA)⁻¹a_i`.
pub fn leverages(points: Points) -> Option<Vec<f64>> {
    let fit = fit(points)?;
    points
        .xs
        .iter()
        .zip(&fit.weights)
        .map(|(x, weight)| Some(weight * quadratic_form(points.xs, &fit.weights, &with_intercept(x))?))
        .collect()
}

/// `aᵀ(AᵀWA)⁻¹a`, by solving `(AᵀWA) v = a`.
fn quadratic_form(xs: &[Vec<f64>], weights: &[f64], point: &[f64]) -> Option<f64> {
    let mut system = normal_matrix(xs, weights);
    for (row, value) in system.iter_mut().zip(point) {
        row.push(*value);
    }
    Some(dot(&solve(system)?, point))
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(a, b)| a * b).sum()
}

/// `[1, x...]`: a row of the design matrix A.
fn with_intercept(x: &[f64]) -> Vec<f64> {
    std::iter::once(1.0).chain(x.iter().copied()).collect()
}

/// AᵀWA, A's rows [1, x...].
fn normal_matrix(xs: &[Vec<f64>], weights: &[f64]) -> Vec<Vec<f64>> {
    let parameters = xs.first().map_or(0, Vec::len) + 1;
    let mut normal = vec![vec![0.0; parameters]; parameters];
    for (row, weight) in xs.iter().zip(weights) {
        let a = with_intercept(row);
        for i in 0..parameters {
            for j in 0..parameters {
                normal[i][j] += weight * a[i] * a[j];
            }
        }
    }
    normal
}

/// Gauss-Jordan elimination with partial pivoting on an augmented matrix;
/// `None` when it is singular.
fn solve(mut matrix: Vec<Vec<f64>>) -> Option<Vec<f64>> {
    let size = matrix.len();
    let scale = matrix.iter().flat_map(|row| row[..size].iter()).fold(0.0_f64, |max, v| max.max(v.abs()));
    for column in 0..size {
        let pivot = (column..size).max_by(|&a, &b| matrix[a][column].abs().total_cmp(&matrix[b][column].abs()))?;
        if matrix[pivot][column].abs() <= 1e-12 * scale.max(1.0) {
            return None;
        }
        matrix.swap(column, pivot);
        let pivot_row = matrix[column].clone();
        for (_, row) in matrix.iter_mut().enumerate().filter(|(index, _)| *index != column) {
            let factor = row[column] / pivot_row[column];
            for (value, pivot_value) in row.iter_mut().zip(&pivot_row).skip(column) {
                *value -= factor * pivot_value;
            }
        }
    }
    Some((0..size).map(|row| matrix[row][size] / matrix[row][row]).collect())
}

/// Each point's Elo as the fit on the others predicts it (leave-one-out,
/// `τ²` estimated again each time). `None` when some fit cannot be made.
pub fn leave_one_out_predictions(points: Points) -> Option<Vec<f64>> {
    points.parameters()?;
    (0..points.xs.len())
        .map(|left_out| {
            let (xs, ys, variances) = points.without(left_out);
            Some(fit(Points { xs: &xs, ys: &ys, variances: &variances })?.predict(&points.xs[left_out]))
        })
        .collect()
}

/// The root mean square of the leave-one-out misses, in Elo. `None` when
/// some fit cannot be made.
pub fn leave_one_out_rmse(points: Points) -> Option<f64> {
    let predicted = leave_one_out_predictions(points)?;
    let squares: f64 = predicted.iter().zip(points.ys).map(|(predicted, y)| (predicted - y).powi(2)).sum();
    Some((squares / points.xs.len() as f64).sqrt())
}

/// The point of largest leverage (its index and leverage) and the
/// leave-one-out error of the points without it.
pub fn without_largest_leverage(points: Points) -> Option<(usize, f64, Option<f64>)> {
    let leverages = leverages(points)?;
    // The first of equals, as the rows are ordered.
    let (index, leverage) =
        leverages.iter().copied().enumerate().reduce(|most, next| if next.1 > most.1 { next } else { most })?;
    let (xs, ys, variances) = points.without(index);
    Some((index, leverage, leave_one_out_rmse(Points { xs: &xs, ys: &ys, variances: &variances })))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-9, "{a} against {b}");
    }

    fn points<'a>(xs: &'a [Vec<f64>], ys: &'a [f64], variances: &'a [f64]) -> Points<'a> {
        Points { xs, ys, variances }
    }

    /// A small constructed table, worked by hand (in fractions):
    /// x = 1, 2, 3, 4; y = 2, 4, 5, 8, each of the same variance, so every
    /// weight is the same and the fit is ordinary least squares.
    /// Means 2.5 and 4.75; Sxy = 9.5, Sxx = 5: slope 1.9, intercept 0.
    /// Leaving out each point in turn, the fits on the other three are
    /// y = 2x - 1/3 (at x = 1 it predicts 5/3: a miss of -1/3),
    /// y = 27/14 x - 1/7 (at 2: 26/7, a miss of -2/7), y = 2x (at 3: 6, +1)
    /// and y = 3/2 x + 2/3 (at 4: 20/3, -4/3); the mean of the squared misses
    /// is 655/882, its root 0.86176005099304….
    #[test]
    fn equal_variances_fit_by_ordinary_least_squares() {
        let xs: Vec<Vec<f64>> = [1.0, 2.0, 3.0, 4.0].iter().map(|&x| vec![x]).collect();
        let (ys, variances) = ([2.0, 4.0, 5.0, 8.0], [0.1; 4]);
        let table = points(&xs, &ys, &variances);
        let line = fit(table).unwrap();
        close(line.intercept, 0.0);
        close(line.slopes[0], 1.9);
        close(leave_one_out_rmse(table).unwrap(), (655.0f64 / 882.0).sqrt());
        close(leave_one_out_rmse(table).unwrap(), 0.861_760_050_993_040_9);
        // Two predictors, an exact plane: the fit finds it and misses nothing.
        let plane: Vec<Vec<f64>> = vec![vec![0.0, 0.0], vec![1.0, 0.0], vec![0.0, 1.0], vec![1.0, 1.0], vec![2.0, 1.0]];
        let ys: Vec<f64> = plane.iter().map(|x| 3.0 - 2.0 * x[0] + 0.5 * x[1]).collect();
        let exact = points(&plane, &ys, &[1.0; 5]);
        let line = fit(exact).unwrap();
        close(line.intercept, 3.0);
        close(line.slopes[0], -2.0);
        close(line.slopes[1], 0.5);
        close(line.scatter, 0.0);
        close(leave_one_out_rmse(exact).unwrap(), 0.0);
        // The constant model: the mean of the others.
        let none: Vec<Vec<f64>> = vec![Vec::new(); 3];
        let constant = points(&none, &[1.0, 2.0, 6.0], &[1.0; 3]);
        close(fit(constant).unwrap().intercept, 3.0);
        // Leaving out 6 predicts 1.5, leaving out 1 predicts 4, leaving out 2 predicts 3.5.
        close(leave_one_out_rmse(constant).unwrap(), ((4.5f64.powi(2) + 9.0 + 2.25) / 3.0).sqrt());
    }

    /// Worked by hand. Student's t with 2 degrees of freedom has a closed
    /// form, t(0.975, 2) = 0.95 · √(2 / (1 − 0.95²)) = 4.30265272…. On the
    /// table above (y = 1.9x, residuals 0.1, 0.2, −0.7, 0.4: SSE = 0.7, s² =
    /// 0.35; x̄ = 2.5, Sxx = 5) with each point's variance v = 0.1, Paule and
    /// Mandel's τ² is s² − v = 0.25 (every weight 1/0.35 makes the weighted
    /// sum of squares 2, the degrees of freedom), and Knapp and Hartung's
    /// factor is 1. At x = 5, ŷ = 9.5 and a₀ᵀ(AᵀA)⁻¹a₀ = 1/4 + 2.5²/5 = 1.5,
    /// so the interval's variance is 0.35 · 1.5 + 0.25 = 0.775: the
    /// textbook interval of a new observation, s²(1 + 1.5) = 0.875, less the
    /// game variance v (the prediction is of the variant's Elo, not of
    /// another match's). With v = 1, above s², the games explain the
    /// residuals: τ² = 0, the factor 0.35, and the variance 0.35 · 1.5.
    #[test]
    fn the_prediction_interval_is_the_variants_elos() {
        let t = 0.95 * (2.0f64 / (1.0 - 0.95 * 0.95)).sqrt();
        let xs: Vec<Vec<f64>> = [1.0, 2.0, 3.0, 4.0].iter().map(|&x| vec![x]).collect();
        let ys = [2.0, 4.0, 5.0, 8.0];
        let noisy = points(&xs, &ys, &[0.1; 4]);
        assert!((fit(noisy).unwrap().scatter - 0.25).abs() < 1e-9);
        let at_five = prediction_interval(noisy, &[5.0]).unwrap();
        close(at_five.value, 9.5);
        assert!((at_five.high - at_five.value - t * 0.775f64.sqrt()).abs() < 1e-9, "{at_five:?}");
        assert!((at_five.value - at_five.low - t * 0.775f64.sqrt()).abs() < 1e-9, "{at_five:?}");
        let explained = points(&xs, &ys, &[1.0; 4]);
        assert_eq!(fit(explained).unwrap().scatter, 0.0);
        let at_five = prediction_interval(explained, &[5.0]).unwrap();
        assert!((at_five.high - at_five.value - t * (0.35f64 * 1.5).sqrt()).abs() < 1e-9, "{at_five:?}");
        // Two points for two parameters leave no degree of freedom: no interval.
        assert_eq!(prediction_interval(points(&[vec![1.0], vec![2.0]], &[1.0, 3.0], &[1.0; 2]), &[3.0]), None);
    }

    /// The calibration's node-change points as the atlas held them when this
    /// was written (x: node change %, y: Elo, the Elo's standard error from
    /// its pentanomial, rounded to 6 decimals): 33 variants.
    const ATLAS_NODES: [(&str, f64, f64, f64); 33] = [
        ("razor-r1", -2.665655, -2.432089, 8.249457),
        ("razor-r2", 2.127746, 10.426196, 8.874674),
        ("razor-r3", -1.267533, -9.730740, 8.455316),
        ("p003-1", -1.251845, 17.386278, 8.255797),
        ("p003-2", -4.726841, 12.513089, 8.365702),
        ("p003-3", 2.586777, 1.042310, 8.538195),
        ("p002-1.1", -2.232657, 4.864416, 8.092892),
        ("p002-1.2a", -5.793477, 7.297220, 6.886411),
        ("p002-1.2b", -0.010169, -0.000000, 0.491349),
        ("p002-1.2c", 4.280690, 2.084639, 4.661647),
        ("p002-1.3", -10.724157, 50.735749, 8.501879),
        ("p002-1.4", 0.000000, -0.000000, 0.034743),
        ("p002-1.5", 0.000017, -0.000000, 0.034743),
        ("p002-2.1", -32.762006, 88.230623, 10.938473),
        ("p002-2.2", 0.735904, 17.386278, 7.924978),
        ("p002-2.3", -2.771195, 0.694872, 6.040067),
        ("p002-2.4", 0.388152, 1.389750, 7.324942),
        ("p002-3.1", -49.531679, 72.161620, 9.384746),
        ("p002-3.2", -1.577435, -3.821946, 8.115814),
        ("p002-3.3", 3.296126, -0.000000, 8.474190),
        ("p002-4.1", -4.934725, -2.432089, 8.953429),
        ("full-without-iir", 34.263849, -26.805601, 7.968886),
        ("full-without-razoring", 2.552724, -5.211925, 7.994836),
        ("full-without-futility", 9.458997, -22.615199, 7.981308),
        ("full-without-reverse_futility", 17.077641, 3.127005, 8.789428),
        ("full-without-null_move", 14.577459, 4.169427, 8.699067),
        ("full-without-staged_picking", -1.580723, -4.169427, 8.699067),
        ("full-without-see_ordering", 3.570400, -48.608229, 8.658969),
        ("full-without-move_count", 90.482655, -151.811141, 21.850588),
        ("full-without-lmr", 24.191198, -15.645168, 7.981946),
        ("full-without-delta", -1.499336, -1.389750, 8.271652),
        ("full-without-see_pruning", 13.897831, -47.191902, 8.823254),
        ("p002-1.6", 0.474129, -3.821946, 7.780718),
    ];

    /// Every number against an independent computation (numpy 2.4, scipy
    /// 1.17 and statsmodels 0.14, a script run once, its values here): the
    /// Paule–Mandel τ² by bisection in numpy, and statsmodels'
    /// `combine_effects(y, v, method_re="pm")` for the constant model
    /// (τ² 1172.0636320232); the coefficients as statsmodels'
    /// `WLS(y, A, weights=1/(v + τ²))` gives them (its scale 1.0000000000:
    /// Knapp–Hartung's factor); the leave-one-out errors and leverages in
    /// numpy; the prediction as `WLS.cov_params()` and `t.ppf(0.975, 31)`
    /// make it.
    #[test]
    fn the_atlas_fit_matches_numpy_and_statsmodels() {
        let xs: Vec<Vec<f64>> = ATLAS_NODES.iter().map(|(_, x, ..)| vec![*x]).collect();
        let ys: Vec<f64> = ATLAS_NODES.iter().map(|(_, _, y, _)| *y).collect();
        let variances: Vec<f64> = ATLAS_NODES.iter().map(|(.., error)| error * error).collect();
        let near = |ours: f64, theirs: f64| {
            assert!((ours - theirs).abs() < 1e-6 * theirs.abs().max(1.0), "{ours} against {theirs}")
        };
        let nodes = points(&xs, &ys, &variances);
        let line = fit(nodes).unwrap();
        near(line.scatter, 210.909_680_211_0);
        near(line.intercept, 3.171_632_432_3);
        near(line.slopes[0], -1.532_652_353_6);
        near(leave_one_out_rmse(nodes).unwrap(), 18.052_792_813_3);
        let (index, leverage, without) = without_largest_leverage(nodes).unwrap();
        assert_eq!(ATLAS_NODES[index].0, "full-without-move_count");
        near(leverage, 0.357_235_620_9);
        near(without.unwrap(), 18.099_773_824_4);
        let predicted = prediction_interval(nodes, &[-20.0]).unwrap();
        near(predicted.value, 33.824_679_504_1);
        near(predicted.high - predicted.value, 31.156_044_707_8);
        // The constant model.
        let none: Vec<Vec<f64>> = vec![Vec::new(); ys.len()];
        let constant = points(&none, &ys, &variances);
        let mean = fit(constant).unwrap();
        near(mean.scatter, 1_172.063_632_023_2);
        near(mean.intercept, -0.569_385_079_6);
        near(leave_one_out_rmse(constant).unwrap(), 38.225_553_700_1);
        let (index, leverage, without) = without_largest_leverage(constant).unwrap();
        assert_eq!(ATLAS_NODES[index].0, "p002-1.4");
        near(leverage, 0.032_134_961_9);
        near(without.unwrap(), 38.856_712_864_8);
        near(prediction_interval(constant, &[]).unwrap().high - mean.intercept, 70.846_869_392_3);
    }

    #[test]
    fn the_edges_one_point_points_alike_and_no_variance() {
        // One point: the constant model is the point, with nothing left to
        // test it on or to give an interval; no line.
        let empty = [vec![]];
        let one = points(&empty, &[5.0], &[4.0]);
        close(fit(one).unwrap().intercept, 5.0);
        assert_eq!(leave_one_out_rmse(one), None);
        assert_eq!(prediction_interval(one, &[]), None);
        assert_eq!(fit(points(&[vec![1.0]], &[2.0], &[1.0])), None);
        // x never varies: the slope is not determined.
        let ones = [vec![1.0], vec![1.0], vec![1.0]];
        let same_x = points(&ones, &[1.0, 2.0, 3.0], &[1.0; 3]);
        assert_eq!(fit(same_x), None);
        assert_eq!(leverages(same_x), None);
        // Every point alike: no scatter, no miss.
        let steps = [vec![1.0], vec![2.0], vec![3.0]];
        let alike = points(&steps, &[4.0; 3], &[2.0; 3]);
        let line = fit(alike).unwrap();
        assert_eq!((line.scatter, line.slopes[0]), (0.0, 0.0));
        close(leave_one_out_rmse(alike).unwrap(), 0.0);
        // A point of no variance keeps a finite weight (1 / MIN_VARIANCE);
        // where the others' errors explain the residuals the line all but
        // passes through it, and its leverage is all but 1.
        let xs = [vec![0.0], vec![1.0], vec![2.0], vec![3.0]];
        let certain = points(&xs, &[0.0, 1.2, 1.8, 3.1], &[0.0, 1.0, 1.0, 1.0]);
        let line = fit(certain).unwrap();
        assert_eq!(line.scatter, 0.0);
        assert!(line.intercept.abs() < 1e-5, "{line:?}");
        assert!((leverages(certain).unwrap()[0] - 1.0).abs() < 1e-5);
        assert_eq!(fit(points(&[vec![1.0], vec![2.0]], &[1.0], &[1.0])), None);
    }
}
