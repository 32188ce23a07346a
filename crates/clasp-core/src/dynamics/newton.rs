//! The contact problem solved on the primal by Newton's method, as MuJoCo (`mj_solNewton`) and
//! Drake's SAP solve theirs: over the velocities of everything that moves, not over one
//! impulse per contact. The step's velocities minimise
//!
//!   ℓ(v) = ½ (v − v*)ᵀ M (v − v*) + Σ contacts ℓᵢ(Jᵢ v + oᵢ) + Σ controllers ℓₘ(vₘ − targetₘ),
//!
//! v* the velocities without contact. Each contact's cost is SAP's: its impulse is the
//! projection of −R⁻¹ (its velocity) on its friction cone in R's norm, R a small share
//! ([`GIVE`]) of its Delassus block's scale, so a contact is hard to within that share
//! (a resting box sinks at 10⁻⁴ of g·dt, which the moves stop) and friction opposes the slip
//! the solve ends with (maximal dissipation). A DOF controller's impulse is held within its
//! effort the same way. ℓ is convex and piecewise quadratic, so Newton's method with an exact
//! line search finds its minimum in a few iterations: redundant contacts add terms, not
//! unknowns. Not yet: a soft contact's torsion and the kinetic friction direction the
//! sweeps hold (`solver.rs`); where the system cannot be solved the sweeps answer instead.
//! And the convex problem's known difference from Coulomb's (Anitescu's relaxation; SAP and
//! MuJoCo share it): a sliding contact leaves at μ times its slip speed, where the sweeps keep
//! it touching. Why this is measured beside the sweeps, not yet the default.

use nalgebra::{DMatrix, DVector, Matrix3, Vector3};

use super::{
    problem::{ContactProblem, Mobiles, Reach, Reaches, Row, Solution},
    solver,
};
use crate::contact::memory::SolveReport;

/// A contact's and a controller's regularization, as a share of its Delassus diagonal.
const GIVE: f64 = 1e-4;

/// Most steps of the exact line search.
const LINE_STEPS: usize = 40;

/// Solves the problem by Newton's method; by the sweeps where its system cannot be made
/// (a mass matrix that cannot be inverted).
pub(crate) fn solve(problem: &mut ContactProblem) -> Solution {
    match Primal::of(problem) {
        Some(primal) => primal.solve(problem),
        None => solver::solve(problem),
    }
}

/// Where each moving thing's velocities lie in v.
struct Layout {
    bodies: Vec<Option<usize>>,
    robots: Vec<usize>,
    size: usize,
}

impl Layout {
    /// The velocities of everything that moves, as v.
    fn velocities(&self, mobiles: &Mobiles) -> DVector<f64> {
        let mut v = DVector::zeros(self.size);
        for (body, start) in mobiles.bodies.iter().zip(&self.bodies) {
            if let Some(s) = *start {
                v.rows_mut(s, 3).copy_from(&body.linear);
                v.rows_mut(s + 3, 3).copy_from(&body.angular);
            }
        }
        for (robot, &s) in mobiles.robots.iter().zip(&self.robots) {
            v.rows_mut(s, robot.velocity.len())
                .copy_from(&robot.velocity);
        }
        v
    }

    fn of(mobiles: &Mobiles) -> Self {
        let mut size = 0;
        let mut bodies = Vec::with_capacity(mobiles.bodies.len());
        for body in &mobiles.bodies {
            // A body that answers no impulse (kinematic, pushed along) is not an unknown.
            let moves = body.inverse_mass > 0.0;
            bodies.push(moves.then_some(size));
            size += if moves { 6 } else { 0 };
        }
        let mut robots = Vec::with_capacity(mobiles.robots.len());
        for robot in &mobiles.robots {
            robots.push(size);
            size += robot.velocity.len();
        }
        Self {
            bodies,
            robots,
            size,
        }
    }
}

/// One contact of the primal: its velocity J v + offset (frame coordinates, A relative to B),
/// its regularization and friction.
struct Contact {
    jacobian: DMatrix<f64>,
    offset: Vector3<f64>,
    give: f64,
    friction: f64,
}

/// One DOF controller of the primal.
struct Drive {
    index: usize,
    target: f64,
    limit: f64,
    give: f64,
}

/// The problem over velocities.
struct Primal {
    layout: Layout,
    mass: DMatrix<f64>,
    free: DVector<f64>,
    /// Where the iterations start: the velocities after last step's impulses (a warm start).
    start: DVector<f64>,
    contacts: Vec<Contact>,
    drives: Vec<Drive>,
}

impl Primal {
    fn of(problem: &ContactProblem) -> Option<Self> {
        let mobiles = &problem.mobiles;
        let layout = Layout::of(mobiles);
        let n = layout.size;
        let mut mass = DMatrix::zeros(n, n);
        for (body, start) in mobiles.bodies.iter().zip(&layout.bodies) {
            let Some(s) = *start else { continue };
            let inertia = body.inverse_inertia.try_inverse()?;
            for k in 0..3 {
                mass[(s + k, s + k)] = 1.0 / body.inverse_mass;
            }
            mass.view_mut((s + 3, s + 3), (3, 3)).copy_from(&inertia);
        }
        for (robot, &s) in mobiles.robots.iter().zip(&layout.robots) {
            let m = robot.inverse_mass.clone().try_inverse()?;
            let dofs = robot.velocity.len();
            mass.view_mut((s, s), (dofs, dofs)).copy_from(&m);
        }
        let free = layout.velocities(mobiles);
        let start = layout.velocities(&warm_started(problem));
        let contacts = problem
            .rows
            .iter()
            .zip(&problem.blocks)
            .map(|(row, block)| contact(mobiles, &layout, row, block))
            .collect();
        let drives = problem
            .motors
            .iter()
            .map(|motor| {
                let ease = mobiles.robots[motor.assembly].inverse_mass[(motor.dof, motor.dof)];
                Drive {
                    index: layout.robots[motor.assembly] + motor.dof,
                    target: motor.velocity,
                    limit: motor.limit,
                    give: GIVE * ease.max(1e-300),
                }
            })
            .collect();
        Some(Self {
            layout,
            mass,
            free,
            start,
            contacts,
            drives,
        })
    }

    fn solve(self, problem: &mut ContactProblem) -> Solution {
        let limits = problem.limits;
        let mut v = self.start.clone();
        let mut report = SolveReport::default();
        let momentum = (&self.mass * &self.free).amax();
        while report.sweeps < limits.max_iterations {
            let (gradient, hessian) = self.derivatives(&v);
            // Settled when what is left is a share of the momentum the solve moves: the free
            // motion's or the impulses' (a squeeze without gravity has little of the first).
            let moved = (&self.mass * (&v - &self.free)).amax();
            if gradient.amax() <= limits.tolerance * momentum.max(moved).max(1e-300) {
                report.settled = true;
                break;
            }
            report.sweeps += 1;
            let Some(cholesky) = hessian.cholesky() else {
                break;
            };
            let direction = -cholesky.solve(&gradient);
            let step = self.line_search(&v, &direction);
            if step == 0.0 {
                break; // no descent left: stalled short of the tolerance
            }
            v += direction * step;
        }
        let impulses = self.write_back(&v, problem);
        Solution { impulses, report }
    }

    /// The cost's gradient and Hessian at `v`.
    fn derivatives(&self, v: &DVector<f64>) -> (DVector<f64>, DMatrix<f64>) {
        let mut gradient = &self.mass * (v - &self.free);
        let mut hessian = self.mass.clone();
        for c in &self.contacts {
            let velocity = c.velocity(v);
            let (impulse, stiffness) = c.answer(&velocity);
            let jt = c.jacobian.transpose();
            gradient -= &jt * impulse;
            hessian += &jt * (stiffness * &c.jacobian);
        }
        for d in &self.drives {
            let (impulse, stiffness) = d.answer(v[d.index]);
            gradient[d.index] -= impulse;
            hessian[(d.index, d.index)] += stiffness;
        }
        (gradient, hessian)
    }

    /// The step along `direction` that minimises the cost (convex along it): Newton's method
    /// on its slope, kept within a bracket by bisection.
    fn line_search(&self, v: &DVector<f64>, direction: &DVector<f64>) -> f64 {
        let line = Line::of(self, v, direction);
        let (start, _) = line.slope(self, 0.0);
        if start >= 0.0 {
            return 0.0;
        }
        if line.slope(self, 1.0).0 <= 0.0 {
            return 1.0;
        }
        let (mut low, mut high, mut t) = (0.0, 1.0, 1.0);
        for _ in 0..LINE_STEPS {
            let (slope, curvature) = line.slope(self, t);
            if slope.abs() <= 1e-12 * start.abs() {
                break;
            }
            if slope > 0.0 {
                high = t;
            } else {
                low = t;
            }
            let newton = t - slope / curvature;
            t = match newton > low && newton < high && curvature > 0.0 {
                true => newton,
                false => 0.5 * (low + high),
            };
        }
        t
    }

    /// Gives the mobiles the velocities `v` and the motors their efforts; returns each
    /// contact's impulse on A in its frame.
    fn write_back(&self, v: &DVector<f64>, problem: &mut ContactProblem) -> Vec<Vector3<f64>> {
        let mobiles = &mut problem.mobiles;
        for (body, start) in mobiles.bodies.iter_mut().zip(&self.layout.bodies) {
            if let Some(s) = *start {
                body.linear = v.fixed_rows::<3>(s).into_owned();
                body.angular = v.fixed_rows::<3>(s + 3).into_owned();
            }
        }
        for (robot, &s) in mobiles.robots.iter_mut().zip(&self.layout.robots) {
            let dofs = robot.velocity.len();
            robot.velocity = v.rows(s, dofs).into_owned();
        }
        for (motor, d) in problem.motors.iter_mut().zip(&self.drives) {
            motor.effort = d.answer(v[d.index]).0;
        }
        self.contacts
            .iter()
            .map(|c| c.answer(&c.velocity(v)).0)
            .collect()
    }
}

/// The cost along one line v + t·d, each term's part made once: the momentum's slope is
/// linear in t, each contact's velocity is its velocity at v plus t times its change.
struct Line {
    /// dᵀ M (v − v*) and dᵀ M d.
    momentum: (f64, f64),
    /// Each contact's velocity at v and its change along d.
    contacts: Vec<(Vector3<f64>, Vector3<f64>)>,
    /// Each controller's DOF velocity at v and its change along d.
    drives: Vec<(f64, f64)>,
}

impl Line {
    fn of(primal: &Primal, v: &DVector<f64>, direction: &DVector<f64>) -> Self {
        let moved = &primal.mass * direction;
        let along = |c: &Contact| Vector3::from_iterator((&c.jacobian * direction).iter().copied());
        Self {
            momentum: (moved.dot(&(v - &primal.free)), moved.dot(direction)),
            contacts: primal
                .contacts
                .iter()
                .map(|c| (c.velocity(v), along(c)))
                .collect(),
            drives: primal
                .drives
                .iter()
                .map(|d| (v[d.index], direction[d.index]))
                .collect(),
        }
    }

    /// The cost's slope at `t` along the line, and its curvature.
    fn slope(&self, primal: &Primal, t: f64) -> (f64, f64) {
        let (mut slope, mut curvature) = (self.momentum.0 + t * self.momentum.1, self.momentum.1);
        for (c, (at, along)) in primal.contacts.iter().zip(&self.contacts) {
            let (impulse, stiffness) = c.answer(&(at + along * t));
            slope -= along.dot(&impulse);
            curvature += along.dot(&(stiffness * along));
        }
        for (d, (at, along)) in primal.drives.iter().zip(&self.drives) {
            let (impulse, stiffness) = d.answer(at + along * t);
            slope -= along * impulse;
            curvature += along * along * stiffness;
        }
        (slope, curvature)
    }
}

impl Contact {
    fn velocity(&self, v: &DVector<f64>) -> Vector3<f64> {
        Vector3::from_iterator((&self.jacobian * v).iter().copied()) + self.offset
    }

    /// The impulse the contact answers `velocity` with (frame coordinates, on A) and its
    /// change per unit of velocity, negated: SAP's projection on the friction cone in the
    /// norm of the regularization, here the same along every axis.
    fn answer(&self, velocity: &Vector3<f64>) -> (Vector3<f64>, Matrix3<f64>) {
        let r = self.give;
        let y = -velocity / r;
        let mu = self.friction;
        let tangential = y.xy().norm();
        if tangential <= mu * y.z {
            return (y, Matrix3::identity() / r); // sticking
        }
        if mu * tangential <= -y.z {
            return (Vector3::zeros(), Matrix3::zeros()); // separating
        }
        // Sliding: on the cone's surface.
        let normal = (y.z + mu * tangential) / (1.0 + mu * mu);
        let direction = y.xy() / tangential;
        let impulse = Vector3::new(mu * normal * direction.x, mu * normal * direction.y, normal);
        // The projection's Jacobian (symmetric), over r.
        let t = Vector3::new(direction.x, direction.y, 0.0);
        let n = Vector3::z();
        let along = (t * mu + n) / (1.0 + mu * mu).sqrt();
        let mut jacobian = along * along.transpose();
        let across = Matrix3::identity() - t * t.transpose() - n * n.transpose();
        jacobian += across * (mu * normal / tangential);
        (impulse, jacobian / r)
    }
}

impl Drive {
    /// The controller's generalized impulse at DOF velocity `velocity`, and its change per
    /// unit of velocity, negated.
    fn answer(&self, velocity: f64) -> (f64, f64) {
        let wanted = -(velocity - self.target) / self.give;
        match wanted.abs() < self.limit {
            true => (wanted, 1.0 / self.give),
            false => (self.limit.copysign(wanted), 0.0),
        }
    }
}

/// The problem's mobiles after the impulses it starts from (each contact's and controller's
/// last step).
fn warm_started(problem: &ContactProblem) -> Mobiles {
    let mut mobiles = problem.mobiles.clone();
    let reaches: Vec<Reaches> = problem.rows.iter().map(|r| mobiles.reaches(r)).collect();
    mobiles.warm_start(&problem.rows, &reaches, &problem.initial, &problem.motors);
    mobiles
}

/// A row as the primal sees it: its Jacobian over v and the velocity it has without v (a
/// kinematic side's, a base's), both in the row's frame.
fn contact(mobiles: &Mobiles, layout: &Layout, row: &Row, block: &Matrix3<f64>) -> Contact {
    let n = layout.size;
    let reaches: Reaches = mobiles.reaches(row);
    let mut jacobian = DMatrix::zeros(3, n);
    let mut offset = Vector3::zeros();
    for (reach, sign) in reaches.iter().zip([1.0, -1.0]) {
        let Some(reach) = reach else { continue };
        let frame_t = row.frame.transpose();
        match reach {
            Reach::Body { index, lever } => match layout.bodies[*index] {
                Some(s) => {
                    // A point's velocity: v + ω × r = v − [r]× ω.
                    let linear = frame_t * sign;
                    let angular = frame_t * (-lever.cross_matrix()) * sign;
                    for i in 0..3 {
                        for k in 0..3 {
                            jacobian[(i, s + k)] += linear[(i, k)];
                            jacobian[(i, s + 3 + k)] += angular[(i, k)];
                        }
                    }
                }
                None => {
                    let body = &mobiles.bodies[*index];
                    offset += frame_t * (body.linear + body.angular.cross(lever)) * sign;
                }
            },
            Reach::Link { assembly, point } => {
                let robot = &mobiles.robots[*assembly];
                let s = layout.robots[*assembly];
                let own = point.jacobian();
                let carried = robot.velocity_at(point) - own * &robot.velocity;
                offset += frame_t * carried * sign;
                let part = frame_t * own * sign;
                let mut view = jacobian.view_mut((0, s), (3, part.ncols()));
                view += &part;
            }
        }
    }
    Contact {
        jacobian,
        offset,
        give: GIVE * (block.trace() / 3.0).max(1e-300),
        friction: row.friction,
    }
}
