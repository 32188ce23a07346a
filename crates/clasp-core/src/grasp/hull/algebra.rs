//! The hull's linear algebra, on points padded to six coordinates: dot products, the span of
//! a set of points, determinants and null vectors.

/// The most coordinates a point may have (a wrench has six).
pub const MAX_DIM: usize = 6;

pub(super) type Coords = [f64; MAX_DIM];

pub(super) fn pad(p: &[f64]) -> Coords {
    let mut c = [0.0; MAX_DIM];
    c[..p.len()].copy_from_slice(p);
    c
}

pub(super) fn dot(a: &Coords, b: &Coords) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

pub(super) fn sub(a: &Coords, b: &Coords) -> Coords {
    std::array::from_fn(|i| a[i] - b[i])
}

/// How many dimensions the points span (0 for a single point), greedily by Gram–Schmidt.
pub(super) fn affine_rank(points: &[Coords], dim: usize, tolerance: f64) -> usize {
    simplex(points, dim, tolerance).len().saturating_sub(1)
}

/// Up to `dim + 1` affinely independent points, each the farthest from the span of those
/// before: a well-shaped starting simplex. Fewer when the points are flat.
pub(super) fn simplex(points: &[Coords], dim: usize, tolerance: f64) -> Vec<usize> {
    let Some(first) = (0..points.len()).min_by(|&a, &b| points[a][0].total_cmp(&points[b][0]))
    else {
        return Vec::new();
    };
    let mut chosen = vec![first];
    // Each point's way from the first less its projections on the basis so far, projected
    // once more each time the basis grows (modified Gram–Schmidt, a pass a point a round).
    let mut residuals: Vec<Coords> = points.iter().map(|p| sub(p, &points[first])).collect();
    while chosen.len() <= dim {
        let (best, squared) = residuals
            .iter()
            .enumerate()
            .map(|(i, r)| (i, dot(r, r)))
            .fold((0, -1.0), |m, c| if c.1 > m.1 { c } else { m });
        let length = squared.sqrt();
        if length <= tolerance {
            break;
        }
        let basis: Coords = std::array::from_fn(|i| residuals[best][i] / length);
        for r in &mut residuals {
            let along = dot(r, &basis);
            r.iter_mut().zip(&basis).for_each(|(x, y)| *x -= along * y);
        }
        chosen.push(best);
    }
    chosen
}

/// The determinant of the leading `k × k` block, by elimination with partial pivoting.
pub(super) fn determinant(mut m: [Coords; MAX_DIM], k: usize) -> f64 {
    let mut det = 1.0;
    for col in 0..k {
        let pivot = (col..k)
            .max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))
            .unwrap_or(col);
        if m[pivot][col] == 0.0 {
            return 0.0;
        }
        if pivot != col {
            m.swap(pivot, col);
            det = -det;
        }
        det *= m[col][col];
        let pivot_row = m[col];
        for row in m.iter_mut().take(k).skip(col + 1) {
            let factor = row[col] / pivot_row[col];
            row.iter_mut()
                .zip(&pivot_row)
                .take(k)
                .skip(col + 1)
                .for_each(|(x, p)| *x -= factor * p);
        }
    }
    det
}

/// The vector orthogonal to the first `dim − 1` rows of `rows` (which it overwrites), by
/// elimination with full pivoting; `None` when the rows are dependent.
pub(super) fn null_vector(rows: &mut [Coords; MAX_DIM], dim: usize) -> Option<Coords> {
    let count = dim - 1;
    let mut pivot_column = [0; MAX_DIM];
    let mut used = [false; MAX_DIM];
    for r in 0..count {
        let (mut best_row, mut best_column, mut best) = (r, 0, 0.0);
        for (i, row) in rows.iter().enumerate().take(count).skip(r) {
            for (c, x) in row.iter().enumerate().take(dim) {
                if !used[c] && x.abs() > best {
                    (best_row, best_column, best) = (i, c, x.abs());
                }
            }
        }
        if best == 0.0 {
            return None;
        }
        rows.swap(r, best_row);
        used[best_column] = true;
        pivot_column[r] = best_column;
        let pivot_row = rows[r];
        for row in rows.iter_mut().take(count).skip(r + 1) {
            let factor = row[best_column] / pivot_row[best_column];
            row.iter_mut()
                .zip(&pivot_row)
                .for_each(|(x, p)| *x -= factor * p);
            row[best_column] = 0.0;
        }
    }
    let free = (0..dim).find(|&c| !used[c])?;
    let mut normal = [0.0; MAX_DIM];
    normal[free] = 1.0;
    for r in (0..count).rev() {
        let c = pivot_column[r];
        let rest: f64 = (0..dim)
            .filter(|&k| k != c)
            .map(|k| rows[r][k] * normal[k])
            .sum();
        normal[c] = -rest / rows[r][c];
    }
    Some(normal)
}
