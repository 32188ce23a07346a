//! GraspIt's contact problem, kept to measure the per-contact solver against: the
//! time-stepping LCP of Anitescu and Potra (GraspIt's `dynamics.cpp` builds it and solves it
//! with Lemke's algorithm), friction as a pyramid of [`FRICTION_DIRECTIONS`] directions.
//!
//! Unknowns per contact: the normal impulse λ, the impulses β along each friction direction,
//! and γ, the slip speed. With W the Delassus matrix (the change of each contact's relative
//! velocity along each direction per unit impulse along each other) and v the relative
//! velocities before any impulse:
//! - the normal velocity after, W λ + W β + v·n, is ≥ 0, and 0 where λ > 0;
//! - each direction's velocity plus γ, W λ + W β + γ + v·d, is ≥ 0, and 0 where β > 0;
//! - μ λ − Σβ ≥ 0, and 0 where the contact slides (γ > 0).

use nalgebra::{DMatrix, DVector, Vector3};

use crate::contact::memory::SolveReport;

use super::{
    movers::Side,
    problem::{ContactProblem, Mobile, Mobiles, Row, Solution},
};

/// GraspIt's friction pyramid has 8 sides.
pub const FRICTION_DIRECTIONS: usize = 8;

/// Pivots Lemke's algorithm may take, per unknown, before it gives up.
const PIVOTS_PER_UNKNOWN: usize = 20;

/// The compliance added to W's diagonal, as a share of its largest entry.
const REGULARIZATION: f64 = 1e-6;

/// Ratios this close (relative) are tied.
const TIE: f64 = 1e-12;

/// A pivot smaller than this is taken as zero.
const PIVOT_EPSILON: f64 = 1e-12;

/// Solves the contacts as GraspIt does: each one's impulse on A in its frame and the mobiles
/// at their velocities after them, or `None` when Lemke's algorithm finds no answer
/// (GraspIt's "LCP could not be solved") or a robot takes part (this LCP is kept for free
/// bodies only). It needs no settings: Lemke's algorithm ends by itself.
pub(crate) fn solve(problem: &ContactProblem) -> Option<Solution> {
    let rows = &problem.rows;
    if !problem.mobiles.robots.is_empty() {
        return None;
    }
    let mut mobiles = problem.mobiles.clone();
    let (matrix, q) = linear_complementarity(&mobiles, rows);
    let z = lemke(&matrix, &q)?;
    let (m, k) = (rows.len(), FRICTION_DIRECTIONS);
    let impulses: Vec<Vector3<f64>> = (0..m)
        .map(|i| {
            let friction: Vector3<f64> = (0..k).map(|j| direction(j) * z[m + i * k + j]).sum();
            friction + Vector3::z() * z[i]
        })
        .collect();
    for (row, impulse) in rows.iter().zip(&impulses) {
        mobiles.apply_at(&mobiles.reaches(row), &(row.frame * impulse));
    }
    let report = SolveReport {
        sweeps: 1,
        settled: true,
        relaxed: false,
    };
    Some(Solution {
        mobiles,
        impulses,
        efforts: Vec::new(),
        report,
    })
}

/// Friction direction `j` in the contact frame.
fn direction(j: usize) -> Vector3<f64> {
    let angle = std::f64::consts::TAU * j as f64 / FRICTION_DIRECTIONS as f64;
    Vector3::new(angle.cos(), angle.sin(), 0.0)
}

/// The LCP's matrix and vector: w = M z + q, unknowns ordered λ (m), β (m·k), γ (m).
fn linear_complementarity(mobiles: &Mobiles, rows: &[Row]) -> (DMatrix<f64>, DVector<f64>) {
    let (m, k) = (rows.len(), FRICTION_DIRECTIONS);
    let n = m * (k + 2);
    let beta = |i: usize, j: usize| m + i * k + j;
    let gamma = |i: usize| m + m * k + i;
    // Each unknown's direction, world frame, at its contact (γ has none).
    let mut axes: Vec<(usize, Vector3<f64>)> = (0..m)
        .map(|i| (i, rows[i].frame.column(2).into()))
        .collect();
    for (i, row) in rows.iter().enumerate() {
        axes.extend((0..k).map(|j| (i, row.frame * direction(j))));
    }
    let mut matrix = DMatrix::zeros(n, n);
    for (r, &(a, along_a)) in axes.iter().enumerate() {
        for (c, &(b, along_b)) in axes.iter().enumerate() {
            matrix[(r, c)] = coupling(&mobiles.bodies, (&rows[a], &along_a), (&rows[b], &along_b));
        }
    }
    // Four corners of a box on a table are redundant: W is singular, and Lemke's algorithm
    // cycles on it. A touch of compliance on the diagonal (as GraspIt's and ODE's CFM) makes
    // each contact's answer unique.
    let largest = (0..m * (k + 1)).map(|i| matrix[(i, i)]).fold(0.0, f64::max);
    for i in 0..m * (k + 1) {
        matrix[(i, i)] += REGULARIZATION * largest;
    }
    let mut q = DVector::zeros(n);
    for (i, row) in rows.iter().enumerate() {
        let velocity = mobiles.relative_velocity_at(&mobiles.reaches(row));
        q[i] = velocity.dot(&row.frame.column(2));
        for j in 0..k {
            q[beta(i, j)] = velocity.dot(&(row.frame * direction(j)));
            matrix[(beta(i, j), gamma(i))] = 1.0;
            matrix[(gamma(i), beta(i, j))] = -1.0;
        }
        matrix[(gamma(i), i)] = row.friction;
    }
    (matrix, q)
}

/// How fast contact `a`'s relative velocity along `along_a` changes per unit impulse at
/// contact `b` along `along_b` (on A, its opposite on B), through the bodies they share.
fn coupling(
    mobiles: &[Mobile],
    (a, along_a): (&Row, &Vector3<f64>),
    (b, along_b): (&Row, &Vector3<f64>),
) -> f64 {
    let sides = |row: &Row| {
        [(row.a, row.lever_a, 1.0), (row.b, row.lever_b, -1.0)]
            .into_iter()
            .filter_map(|(side, lever, sign)| match side? {
                Side::Body(i) => Some((i, lever, sign)),
                Side::Link { .. } => None,
            })
            .collect::<Vec<_>>()
    };
    let mut total = 0.0;
    for (body_a, lever_a, sign_a) in sides(a) {
        for &(body_b, lever_b, sign_b) in sides(b).iter().filter(|s| s.0 == body_a) {
            let mobile = &mobiles[body_b];
            let impulse = along_b * sign_b;
            let change = impulse * mobile.inverse_mass
                + (mobile.inverse_inertia * lever_b.cross(&impulse)).cross(&lever_a);
            total += sign_a * along_a.dot(&change);
        }
    }
    total
}

/// Lemke's complementary pivoting on w = M z + q, w, z ≥ 0, w·z = 0, with the covering
/// vector of ones; `None` when it runs out of pivots or meets a ray.
fn lemke(matrix: &DMatrix<f64>, q: &DVector<f64>) -> Option<DVector<f64>> {
    let n = q.len();
    if q.iter().all(|&x| x >= 0.0) {
        return Some(DVector::zeros(n));
    }
    // Columns: w (n), z (n), z0, right-hand side. The rows hold w − M z − e z0 = q.
    let (z0, rhs) = (2 * n, 2 * n + 1);
    let mut tableau = DMatrix::zeros(n, 2 * n + 2);
    for r in 0..n {
        tableau[(r, r)] = 1.0;
        for c in 0..n {
            tableau[(r, n + c)] = -matrix[(r, c)];
        }
        tableau[(r, z0)] = -1.0;
        tableau[(r, rhs)] = q[r];
    }
    let mut basis: Vec<usize> = (0..n).collect();
    let first = (0..n).min_by(|&a, &b| q[a].total_cmp(&q[b]))?;
    pivot(&mut tableau, first, z0);
    let mut leaving = basis[first];
    basis[first] = z0;
    for _ in 0..PIVOTS_PER_UNKNOWN * n {
        // The complement of what just left enters.
        let entering = if leaving < n {
            leaving + n
        } else {
            leaving - n
        };
        let row = ratio_test(&tableau, &basis, entering, z0)?;
        pivot(&mut tableau, row, entering);
        leaving = basis[row];
        basis[row] = entering;
        if leaving == z0 {
            let mut z = DVector::zeros(n);
            for (r, &variable) in basis.iter().enumerate() {
                if (n..2 * n).contains(&variable) {
                    z[variable - n] = tableau[(r, rhs)].max(0.0);
                }
            }
            return Some(z);
        }
    }
    None
}

/// The row whose variable leaves when `entering` enters: the smallest ratio, ties broken
/// lexicographically on the rows of the basis's inverse (the w columns), which keeps Lemke's
/// algorithm from cycling on degenerate contacts (a box's coplanar corners); z0 first among
/// equals, since it ends the search. `None` for a ray.
fn ratio_test(
    tableau: &DMatrix<f64>,
    basis: &[usize],
    entering: usize,
    z0: usize,
) -> Option<usize> {
    let (n, rhs) = (tableau.nrows(), tableau.ncols() - 1);
    let candidates: Vec<usize> = (0..n)
        .filter(|&r| tableau[(r, entering)] > PIVOT_EPSILON)
        .collect();
    let ratio = |r: usize, column: usize| tableau[(r, column)] / tableau[(r, entering)];
    let mut tied = candidates;
    for column in std::iter::once(rhs).chain(0..n) {
        let least = tied
            .iter()
            .map(|&r| ratio(r, column))
            .fold(f64::INFINITY, f64::min);
        let scale = least.abs().max(1.0);
        tied.retain(|&r| ratio(r, column) <= least + TIE * scale);
        if let Some(&r) = tied.iter().find(|&&r| basis[r] == z0) {
            return Some(r);
        }
        if tied.len() <= 1 {
            break;
        }
    }
    tied.first().copied()
}

fn pivot(tableau: &mut DMatrix<f64>, row: usize, column: usize) {
    let scale = tableau[(row, column)];
    let pivot_row = tableau.row(row) / scale;
    tableau.set_row(row, &pivot_row);
    for r in 0..tableau.nrows() {
        if r != row {
            let factor = tableau[(r, column)];
            if factor != 0.0 {
                let update = &pivot_row * factor;
                let mut target = tableau.row_mut(r);
                target -= update;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Matrix3;

    fn block_on_ground(velocity: Vector3<f64>) -> (Mobiles, Vec<Row>) {
        let mobile = Mobile {
            inverse_mass: 1.0,
            inverse_inertia: Matrix3::zeros(),
            linear: velocity,
            angular: Vector3::zeros(),
        };
        let row = Row {
            a: Some(Side::Body(0)),
            b: None,
            lever_a: Vector3::zeros(),
            lever_b: Vector3::zeros(),
            frame: Matrix3::identity(),
            friction: 0.5,
            slip: None,
            torsion_radius: None,
        };
        (
            Mobiles {
                bodies: vec![mobile],
                robots: Vec::new(),
            },
            vec![row],
        )
    }

    /// The LCP's answer to one problem: the mobiles after it, and the first contact's impulse.
    fn solved((mobiles, rows): (Mobiles, Vec<Row>)) -> (Mobiles, Vector3<f64>) {
        let problem = ContactProblem {
            mobiles,
            rows,
            ..ContactProblem::default()
        };
        let solution = solve(&problem).unwrap();
        (solution.mobiles, solution.impulses[0])
    }

    #[test]
    fn lemke_stops_a_slow_block_and_lets_a_fast_one_slide_on_the_pyramid() {
        // Within the compliance added to W's diagonal (1e-6 of it).
        let close = |x: f64, y: f64| (x - y).abs() < 1e-5;
        let (mobiles, impulse) = solved(block_on_ground(Vector3::new(1.0, 0.0, -4.0)));
        assert!(
            mobiles.bodies[0].linear.norm() < 1e-5,
            "it sticks: {impulse}"
        );
        let (mobiles, impulse) = solved(block_on_ground(Vector3::new(10.0, 0.0, -4.0)));
        assert!(close(impulse.z, 4.0) && close(impulse.x, -2.0), "{impulse}");
        assert!(close(mobiles.bodies[0].linear.x, 8.0) && close(mobiles.bodies[0].linear.z, 0.0));
    }

    #[test]
    fn a_rising_block_is_let_go() {
        let (mobiles, impulse) = solved(block_on_ground(Vector3::new(0.0, 0.0, 3.0)));
        assert_eq!(impulse, Vector3::zeros());
        assert_eq!(mobiles.bodies[0].linear.z, 3.0);
    }
}
