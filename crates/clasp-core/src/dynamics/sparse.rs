//! A contact's Jacobian over the velocities of everything that moves, kept by its columns that
//! are not zero. A hand is a tree: a fingertip's contact moves its own finger's DOFs, the
//! palm's base and the object, not the other fingers' DOFs, so most of a dense 3 × n row block
//! is zeros. Products with it then cost by the DOFs a contact moves, not by the island's size
//! squared, and make nothing on the heap (MuJoCo keeps its Jacobians sparse by the tree for the
//! same reason).

use nalgebra::{DMatrix, DVector, Matrix3, Vector3};

/// A 3 × n matrix by its non-zero columns, in ascending order.
#[derive(Debug, Clone, Default)]
pub(super) struct SparseColumns {
    indices: Vec<usize>,
    columns: Vec<Vector3<f64>>,
}

impl SparseColumns {
    /// The non-zero columns of `dense` (3 × n).
    pub fn of(dense: &DMatrix<f64>) -> Self {
        let mut sparse = Self::default();
        for (k, column) in dense.column_iter().enumerate() {
            let column = Vector3::new(column[0], column[1], column[2]);
            if column != Vector3::zeros() {
                sparse.indices.push(k);
                sparse.columns.push(column);
            }
        }
        sparse
    }

    /// J x.
    pub fn times(&self, x: &DVector<f64>) -> Vector3<f64> {
        let mut sum = Vector3::zeros();
        for (&k, column) in self.indices.iter().zip(&self.columns) {
            sum += column * x[k];
        }
        sum
    }

    /// `out` −= Jᵀ y, and `sizes` += |Jᵀ y| entry by entry.
    pub fn subtract_transposed(
        &self,
        y: &Vector3<f64>,
        out: &mut DVector<f64>,
        sizes: &mut DVector<f64>,
    ) {
        for (&k, column) in self.indices.iter().zip(&self.columns) {
            let pushed = column.dot(y);
            out[k] -= pushed;
            sizes[k] += pushed.abs();
        }
    }

    /// `out` += Jᵀ K J, for a 3 × 3 `k`.
    pub fn add_sandwich(&self, k: &Matrix3<f64>, out: &mut DMatrix<f64>) {
        for (&b, column_b) in self.indices.iter().zip(&self.columns) {
            let kb = k * column_b;
            for (&a, column_a) in self.indices.iter().zip(&self.columns) {
                out[(a, b)] += column_a.dot(&kb);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3 × 7 matrix with two zero columns, and the dense products it must give.
    fn dense() -> DMatrix<f64> {
        DMatrix::from_fn(3, 7, |i, j| match j {
            1 | 4 => 0.0,
            _ => (1 + i * 7 + j) as f64 * if (i + j) % 2 == 0 { 1.0 } else { -0.5 },
        })
    }

    #[test]
    fn sparse_products_are_the_dense_ones() {
        let j = dense();
        let sparse = SparseColumns::of(&j);
        assert_eq!(sparse.indices, vec![0, 2, 3, 5, 6]);
        let x = DVector::from_fn(7, |i, _| 0.3 * i as f64 - 1.0);
        let jx = &j * &x;
        assert!((sparse.times(&x) - Vector3::new(jx[0], jx[1], jx[2])).norm() < 1e-12);
        let y = Vector3::new(0.5, -2.0, 1.5);
        let (mut out, mut sizes) = (DVector::from_element(7, 1.0), DVector::zeros(7));
        sparse.subtract_transposed(&y, &mut out, &mut sizes);
        let pushed = j.transpose() * y;
        assert!((out - (DVector::from_element(7, 1.0) - &pushed)).norm() < 1e-12);
        assert!((sizes - pushed.abs()).norm() < 1e-12);
        let k = Matrix3::new(2.0, 0.1, 0.0, 0.1, 3.0, -0.2, 0.0, -0.2, 1.0);
        let mut sandwich = DMatrix::identity(7, 7);
        sparse.add_sandwich(&k, &mut sandwich);
        let expected = DMatrix::identity(7, 7) + j.transpose() * k * &j;
        assert!((sandwich - expected).norm() < 1e-10);
    }
}
