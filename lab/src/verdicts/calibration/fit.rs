//! Ordinary least squares and its leave-one-out error: the predictor of Elo
//! from fast measures that the calibration table fits on the atlas.
//!
//! The error is measured on points the fit did not see: each point is
//! predicted by the fit on all the others, and the root mean square of those
//! misses is reported. On a handful of points an in-sample error flatters any
//! model; the leave-one-out error does not, and a fit that cannot beat the
//! constant model (every variant predicted at the mean Elo of the others)
//! has learnt nothing.

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
    let predictors = xs.first().map_or(0, Vec::len);
    let parameters = predictors + 1;
    if xs.len() != ys.len() || xs.len() < parameters || xs.iter().any(|row| row.len() != predictors) {
        return None;
    }
    // The normal equations (AᵀA) β = Aᵀy, A's rows [1, x...].
    let mut normal = vec![vec![0.0; parameters + 1]; parameters];
    for (row, &y) in xs.iter().zip(ys) {
        let a: Vec<f64> = std::iter::once(1.0).chain(row.iter().copied()).collect();
        for i in 0..parameters {
            for j in 0..parameters {
                normal[i][j] += a[i] * a[j];
            }
            normal[i][parameters] += a[i] * y;
        }
    }
    let solution = solve(normal)?;
    Some(LinearFit { intercept: solution[0], slopes: solution[1..].to_vec() })
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

/// The root mean square of the leave-one-out misses: each point predicted by
/// the fit on the others. `None` when some fit cannot be made.
pub fn leave_one_out_rmse(xs: &[Vec<f64>], ys: &[f64]) -> Option<f64> {
    if xs.len() != ys.len() || xs.is_empty() {
        return None;
    }
    let mut squares = 0.0;
    for left_out in 0..xs.len() {
        let others = |index: &usize| *index != left_out;
        let train_x: Vec<Vec<f64>> = (0..xs.len()).filter(others).map(|index| xs[index].clone()).collect();
        let train_y: Vec<f64> = (0..ys.len()).filter(others).map(|index| ys[index]).collect();
        let fit = least_squares(&train_x, &train_y)?;
        let miss = fit.predict(&xs[left_out]) - ys[left_out];
        squares += miss * miss;
    }
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

    #[test]
    fn too_few_or_degenerate_points_fit_nothing() {
        assert_eq!(least_squares(&[vec![1.0]], &[2.0]), None);
        // x never varies: the slope is not determined.
        assert_eq!(least_squares(&[vec![1.0], vec![1.0], vec![1.0]], &[1.0, 2.0, 3.0]), None);
        assert_eq!(leave_one_out_rmse(&[vec![1.0], vec![2.0]], &[1.0, 2.0]), None);
    }
}
