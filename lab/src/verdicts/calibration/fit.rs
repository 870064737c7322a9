//! Ordinary least squares and its leave-one-out error: the predictor of Elo
//! from fast measures that the calibration table fits on the atlas.
//!
//! The error is measured on points the fit did not see: each point is
//! predicted by the fit on all the others, and the root mean square of those
//! misses is reported. On a handful of points an in-sample error flatters any
//! model; the leave-one-out error does not, and a fit that cannot beat the
//! constant model (every variant predicted at the mean Elo of the others)
//! has learnt nothing.
//!
//! A prediction for a new variant carries its prediction interval, the
//! range its Elo falls in with 95% probability under the linear model.

use games::statistics::student_t_quantile;

/// A fitted linear model: `y = intercept + Σ slopes[i] · x[i]`.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearFit {
    pub intercept: f64,
    pub slopes: Vec<f64>,
}

impl LinearFit {
    pub fn predict(&self, x: &[f64]) -> f64 {
        self.intercept + self.slopes.iter().zip(x).map(|(slope, value)| slope * value).sum::<f64>()
    }
}

/// The least-squares fit of `ys` on `xs` (each row one point's predictors,
/// all rows as long), with an intercept; `None` when the points cannot
/// determine it (fewer than the parameters, or predictors that do not vary
/// independently).
pub fn least_squares(xs: &[Vec<f64>], ys: &[f64]) -> Option<LinearFit> {
    parameters(xs, ys)?;
    // The normal equations (AᵀA) β = Aᵀy, A's rows [1, x...].
    let mut normal = normal_matrix(xs);
    for (i, row) in normal.iter_mut().enumerate() {
        row.push(xs.iter().zip(ys).map(|(x, y)| with_intercept(x)[i] * y).sum());
    }
    let solution = solve(normal)?;
    Some(LinearFit { intercept: solution[0], slopes: solution[1..].to_vec() })
}

/// A prediction of a new point with its 95% prediction interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// The least-squares prediction at `x` with its 95% prediction interval,
/// the range a new point's `y` falls in: ŷ ± t(0.975, n − p) · s ·
/// √(1 + a₀ᵀ(AᵀA)⁻¹a₀), where a₀ = [1, x...], p the parameters and s² the
/// residuals' sum of squares over n − p. With one predictor the root is the
/// textbook √(1 + 1/n + (x − x̄)²/Sxx). `None` when the fit cannot be made
/// or leaves no degree of freedom for s.
pub fn prediction_interval(xs: &[Vec<f64>], ys: &[f64], x: &[f64]) -> Option<Prediction> {
    let parameters = parameters(xs, ys)?;
    let fit = least_squares(xs, ys)?;
    let freedom = xs.len().checked_sub(parameters).filter(|freedom| *freedom > 0)?;
    let squares: f64 = xs.iter().zip(ys).map(|(row, y)| (y - fit.predict(row)).powi(2)).sum();
    let variance = squares / freedom as f64;
    // (AᵀA)⁻¹a₀ by solving (AᵀA) v = a₀.
    let point = with_intercept(x);
    let mut system = normal_matrix(xs);
    for (row, value) in system.iter_mut().zip(&point) {
        row.push(*value);
    }
    let leverage: f64 = solve(system)?.iter().zip(&point).map(|(v, a)| v * a).sum();
    let value = fit.predict(x);
    let half_width = student_t_quantile(freedom as u64) * (variance * (1.0 + leverage)).sqrt();
    Some(Prediction { value, low: value - half_width, high: value + half_width })
}

/// The parameters of a fit of `ys` on `xs` (the predictors and the
/// intercept), when the points are enough and alike in shape.
fn parameters(xs: &[Vec<f64>], ys: &[f64]) -> Option<usize> {
    let predictors = xs.first().map_or(0, Vec::len);
    let parameters = predictors + 1;
    let shaped = xs.len() == ys.len() && xs.len() >= parameters && xs.iter().all(|row| row.len() == predictors);
    shaped.then_some(parameters)
}

/// `[1, x...]`: a row of the design matrix A.
fn with_intercept(x: &[f64]) -> Vec<f64> {
    std::iter::once(1.0).chain(x.iter().copied()).collect()
}

/// AᵀA, A's rows [1, x...].
fn normal_matrix(xs: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let parameters = xs.first().map_or(0, Vec::len) + 1;
    let mut normal = vec![vec![0.0; parameters]; parameters];
    for row in xs {
        let a = with_intercept(row);
        for i in 0..parameters {
            for j in 0..parameters {
                normal[i][j] += a[i] * a[j];
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

/// Each point's Elo as the fit on the others predicts it (leave-one-out).
/// `None` when some fit cannot be made.
pub fn leave_one_out_predictions(xs: &[Vec<f64>], ys: &[f64]) -> Option<Vec<f64>> {
    if xs.len() != ys.len() || xs.is_empty() {
        return None;
    }
    (0..xs.len())
        .map(|left_out| {
            let others = |index: &usize| *index != left_out;
            let train_x: Vec<Vec<f64>> = (0..xs.len()).filter(others).map(|index| xs[index].clone()).collect();
            let train_y: Vec<f64> = (0..ys.len()).filter(others).map(|index| ys[index]).collect();
            Some(least_squares(&train_x, &train_y)?.predict(&xs[left_out]))
        })
        .collect()
}

/// The root mean square of the leave-one-out misses: each point predicted by
/// the fit on the others. `None` when some fit cannot be made.
pub fn leave_one_out_rmse(xs: &[Vec<f64>], ys: &[f64]) -> Option<f64> {
    let predicted = leave_one_out_predictions(xs, ys)?;
    let squares: f64 = predicted.iter().zip(ys).map(|(predicted, y)| (predicted - y).powi(2)).sum();
    Some((squares / xs.len() as f64).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-9, "{a} against {b}");
    }

    /// A small constructed table, worked by hand (in fractions):
    /// x = 1, 2, 3, 4; y = 2, 4, 5, 8.
    /// Means 2.5 and 4.75; Sxy = 9.5, Sxx = 5: slope 1.9, intercept 0.
    /// Leaving out each point in turn, the fits on the other three are
    /// y = 2x - 1/3 (at x = 1 it predicts 5/3: a miss of -1/3),
    /// y = 27/14 x - 1/7 (at 2: 26/7, a miss of -2/7), y = 2x (at 3: 6, +1)
    /// and y = 3/2 x + 2/3 (at 4: 20/3, -4/3); the mean of the squared misses
    /// is 655/882, its root 0.86176005099304….
    #[test]
    fn the_fit_and_its_leave_one_out_error_on_a_small_table() {
        let xs: Vec<Vec<f64>> = [1.0, 2.0, 3.0, 4.0].iter().map(|&x| vec![x]).collect();
        let ys = [2.0, 4.0, 5.0, 8.0];
        let fit = least_squares(&xs, &ys).unwrap();
        close(fit.intercept, 0.0);
        close(fit.slopes[0], 1.9);
        close(leave_one_out_rmse(&xs, &ys).unwrap(), (655.0f64 / 882.0).sqrt());
        close(leave_one_out_rmse(&xs, &ys).unwrap(), 0.861_760_050_993_040_9);
        // Two predictors, an exact plane: the fit finds it and misses nothing.
        let plane: Vec<Vec<f64>> = vec![vec![0.0, 0.0], vec![1.0, 0.0], vec![0.0, 1.0], vec![1.0, 1.0], vec![2.0, 1.0]];
        let ys: Vec<f64> = plane.iter().map(|x| 3.0 - 2.0 * x[0] + 0.5 * x[1]).collect();
        let fit = least_squares(&plane, &ys).unwrap();
        close(fit.intercept, 3.0);
        close(fit.slopes[0], -2.0);
        close(fit.slopes[1], 0.5);
        close(leave_one_out_rmse(&plane, &ys).unwrap(), 0.0);
        // The constant model: the mean of the others.
        let none: Vec<Vec<f64>> = vec![Vec::new(); 3];
        close(least_squares(&none, &[1.0, 2.0, 6.0]).unwrap().intercept, 3.0);
        // Leaving out 6 predicts 1.5, leaving out 1 predicts 4, leaving out 2 predicts 3.5.
        close(leave_one_out_rmse(&none, &[1.0, 2.0, 6.0]).unwrap(), ((4.5f64.powi(2) + 9.0 + 2.25) / 3.0).sqrt());
    }

    /// Known answers, worked by hand. Student's t with 2 degrees of freedom
    /// has a closed form, t(0.975, 2) = 0.95 · √(2 / (1 − 0.95²)) =
    /// 4.30265272…. On the table above (y = 1.9x, residuals 0.1, 0.2, −0.7,
    /// 0.4: SSE = 0.7, s² = 0.7 / 2 = 0.35; x̄ = 2.5, Sxx = 5) at x = 5:
    /// ŷ = 9.5, and the root is √(1 + 1/4 + 2.5²/5) = √2.5, so the half-width
    /// is t · √(0.35 · 2.5) = 4.02476309…. The constant model on 1, 2, 6
    /// (mean 3, s² = (4 + 1 + 9) / 2 = 7): 3 ± t · √(7 · (1 + 1/3)).
    #[test]
    fn the_prediction_interval_is_the_textbook_one() {
        let t = 0.95 * (2.0f64 / (1.0 - 0.95 * 0.95)).sqrt();
        let xs: Vec<Vec<f64>> = [1.0, 2.0, 3.0, 4.0].iter().map(|&x| vec![x]).collect();
        let at_five = prediction_interval(&xs, &[2.0, 4.0, 5.0, 8.0], &[5.0]).unwrap();
        close(at_five.value, 9.5);
        let half = t * (0.35f64 * 2.5).sqrt();
        assert!((at_five.high - at_five.value - half).abs() < 1e-6, "{at_five:?}");
        assert!((at_five.value - at_five.low - half).abs() < 1e-6, "{at_five:?}");
        assert_eq!(format!("{:.4} {:.4}", at_five.low, at_five.high), "5.4752 13.5248");
        // At the mean of x the interval is narrowest: √(1 + 1/4).
        let at_mean = prediction_interval(&xs, &[2.0, 4.0, 5.0, 8.0], &[2.5]).unwrap();
        assert!((at_mean.high - at_mean.value - t * (0.35f64 * 1.25).sqrt()).abs() < 1e-6, "{at_mean:?}");
        let none: Vec<Vec<f64>> = vec![Vec::new(); 3];
        let constant = prediction_interval(&none, &[1.0, 2.0, 6.0], &[]).unwrap();
        close(constant.value, 3.0);
        assert!((constant.high - 3.0 - t * (7.0f64 * 4.0 / 3.0).sqrt()).abs() < 1e-6, "{constant:?}");
        // An exact plane has no residual: the interval is the point. Two
        // points for two parameters leave no degree of freedom: no interval.
        let plane: Vec<Vec<f64>> = vec![vec![0.0, 0.0], vec![1.0, 0.0], vec![0.0, 1.0], vec![1.0, 1.0], vec![2.0, 1.0]];
        let ys: Vec<f64> = plane.iter().map(|x| 3.0 - 2.0 * x[0] + 0.5 * x[1]).collect();
        let exact = prediction_interval(&plane, &ys, &[3.0, 2.0]).unwrap();
        close(exact.value, -2.0);
        assert!(exact.high - exact.low < 1e-6, "{exact:?}");
        assert_eq!(prediction_interval(&[vec![1.0], vec![2.0]], &[1.0, 3.0], &[3.0]), None);
    }

    #[test]
    fn too_few_or_degenerate_points_fit_nothing() {
        assert_eq!(least_squares(&[vec![1.0]], &[2.0]), None);
        // x never varies: the slope is not determined.
        assert_eq!(least_squares(&[vec![1.0], vec![1.0], vec![1.0]], &[1.0, 2.0, 3.0]), None);
        assert_eq!(leave_one_out_rmse(&[vec![1.0], vec![2.0]], &[1.0, 2.0]), None);
    }
}
