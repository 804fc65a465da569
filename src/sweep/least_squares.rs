//! Weighted linear least squares for the sweep's area model (docs/report.md §8.5):
//! the normal equations, columns scaled to 1, solved by Gaussian elimination with
//! partial pivoting; a model has a handful of terms, so nothing larger is needed.

/// Solve the least-squares problem `rows` · c ≈ 1 (rows already divided by the
/// measured value) through the normal equations, columns scaled to 1.
pub fn least_squares(rows: &[Vec<f64>]) -> Option<Vec<f64>> {
    let m = rows.first()?.len();
    let scale: Vec<f64> = (0..m).map(|j| rows.iter().map(|r| r[j].abs()).fold(0.0, f64::max).max(1e-300)).collect();
    let mut a = vec![vec![0.0; m + 1]; m];
    for row in rows {
        for i in 0..m {
            for j in 0..m {
                a[i][j] += row[i] / scale[i] * row[j] / scale[j];
            }
            a[i][m] += row[i] / scale[i];
        }
    }
    for col in 0..m {
        let pivot = (col..m).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-10 * rows.len() as f64 {
            return None;
        }
        a.swap(col, pivot);
        let pivot_row = a[col].clone();
        for (_, row) in a.iter_mut().enumerate().filter(|(r, _)| *r != col) {
            let f = row[col] / pivot_row[col];
            for (value, pivot_value) in row.iter_mut().zip(&pivot_row).skip(col) {
                *value -= f * pivot_value;
            }
        }
    }
    Some((0..m).map(|i| a[i][m] / a[i][i] / scale[i]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exact_linear_law_is_recovered() {
        // y = 3·a·b + 5·log2(d) + 7 on a grid, weighted rows as fit_families makes them.
        let mut rows = Vec::new();
        for (a, b, d) in [(1.0, 1.0, 2.0), (2.0, 1.0, 8.0), (1.0, 4.0, 4.0), (3.0, 2.0, 1024.0), (4.0, 4.0, 16.0)] {
            let x = [a * b, f64::log2(d), 1.0];
            let y = 3.0 * x[0] + 5.0 * x[1] + 7.0;
            rows.push(x.iter().map(|v| v / y).collect::<Vec<_>>());
        }
        let c = least_squares(&rows).unwrap();
        assert!((c[0] - 3.0).abs() < 1e-9 && (c[1] - 5.0).abs() < 1e-9 && (c[2] - 7.0).abs() < 1e-9, "{c:?}");
        assert!(least_squares(&[vec![1.0, 2.0], vec![2.0, 4.0]]).is_none(), "dependent columns are refused");
    }
}
