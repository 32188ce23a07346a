//! The contact problem solved on the primal by Newton's method, as MuJoCo (`mj_solNewton`) and
//! Drake's SAP and TAMSI solve theirs: over the velocities of everything that moves, not over
//! one impulse per contact, so redundant contacts add terms, not unknowns. The step's
//! velocities make the gradient of
//!
//!   ℓ(v) = ½ (v − v*)ᵀ M (v − v*) + Σ contacts ℓᵢ(Jᵢ v + oᵢ) + Σ controllers ℓₘ(vₘ − targetₘ)
//!
//! vanish, v* the velocities without contact. Each contact's term is regularized by R, a small
//! share ([`GIVE`]) of its Delassus block's scale, about an impulse it is centred on: its last
//! step's to start with, then, once the solve settles, the one it answers there, and the solve
//! goes on ([`RECENTRES`] times; a proximal point: a contact that keeps its impulse keeps
//! still exactly, so a resting body does not sink, and iterated it tends to hard contact:
//! a squeeze whose impulses grow no longer creeps closed). Coulomb's law: the
//! normal impulse stops the approach; friction is held within the disk of μ × the normal
//! impulse and, sliding, opposes the slip the step ends with (maximal dissipation); a soft
//! contact's torsion within μ × its radius × the normal impulse. A DOF controller's impulse is
//! held within its effort the same way.
//!
//! With each friction's bound held, ℓ is convex and piecewise quadratic: a Newton step with an
//! exact line search always descends on it, and the bounds then follow the normal impulses
//! (TAMSI's lag). Newton's step with the bounds following too (a Jacobian that is not
//! symmetric) is taken where it shrinks the gradient, and near the answer ends the solve in
//! a step or two. Sliding contacts that jam can leave Coulomb's law with no answer, or many;
//! after [`STALLED`] iterations without progress the solve relaxes to the convex problem of
//! Anitescu (SAP's and MuJoCo's), friction in its cone, which always has one (a sliding
//! contact there also pushes its sides apart, at μ × its slip speed), and says so ([`SolveReport::relaxed`]). Where the
//! system cannot be made (a mass matrix that cannot be inverted) the sweeps answer instead.
//!
//! [`SolveReport::relaxed`]: crate::contact::memory::SolveReport::relaxed

mod laws;
mod primal;

use nalgebra::{DMatrix, DVector, Matrix3, Vector3};

use super::{
    problem::{ContactProblem, Mobiles, Solution},
    solver,
    sparse::SparseColumns,
};
use crate::{contact::memory::SolveReport, world::settings::SolverSettings};
use laws::Line;

/// A contact's and a controller's regularization, as a share of its Delassus diagonal.
const GIVE: f64 = 1e-4;

/// The iterations Coulomb's law may go without halving the gradient before the solve relaxes
/// it to the convex problem, which always has one answer (sliding contacts that jam have none
/// or many under Coulomb's, and the lag goes round in a circle). Progress, not a count, so a
/// tighter tolerance does not relax more steps.
const STALLED: usize = 10;

/// How many times a settled solve is centred again on the impulses it answers.
const RECENTRES: usize = 1;

/// Most steps of the exact line search.
const LINE_STEPS: usize = 40;

/// Solves the problem by Newton's method; by the sweeps where its system cannot be made
/// (a mass matrix that cannot be inverted).
pub(crate) fn solve(problem: &ContactProblem, limits: &SolverSettings) -> Solution {
    match Primal::of(problem) {
        Some(primal) => primal.solve(problem, limits),
        None => solver::solve(problem, limits),
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
/// its regularization and friction, and a soft contact's torsion.
struct Contact {
    jacobian: SparseColumns,
    offset: Vector3<f64>,
    give: f64,
    friction: f64,
    twist: Option<Twist>,
}

/// A soft contact's turning about its normal, A relative to B: `row · v + offset`; it is
/// resisted up to friction × `radius` × the normal impulse.
struct Twist {
    row: DVector<f64>,
    offset: f64,
    give: f64,
    radius: f64,
}

/// One DOF controller of the primal.
struct Drive {
    index: usize,
    target: f64,
    limit: f64,
    give: f64,
    /// Its last step's impulse, which its cost is centred on as a contact's is: a DOF that
    /// keeps its effort keeps its velocity exactly.
    centre: f64,
}

/// The problem over velocities.
struct Primal {
    layout: Layout,
    mass: DMatrix<f64>,
    /// The mass matrix's inverse diagonal, to weigh a gradient by.
    inverse_mass: DVector<f64>,
    free: DVector<f64>,
    /// Where the iterations start: the velocities after last step's impulses (a warm start).
    start: DVector<f64>,
    contacts: Vec<Contact>,
    drives: Vec<Drive>,
}

impl Primal {
    fn solve(self, problem: &ContactProblem, limits: &SolverSettings) -> Solution {
        let momentum = (&self.mass * &self.free).amax();
        let mut report = SolveReport::default();
        let mut v = self.start.clone();
        // The bounds the last lagged step used: the next one moves them half way to the
        // normal impulses found, which ends the circles a full move can go round in.
        let mut lagged = Held::of(problem);
        // The smallest gradient so far: a step that follows the bounds is taken only below
        // it, so the two kinds of step cannot take turns in a circle either.
        let mut best = f64::INFINITY;
        // The last gradient size the solve halved, and the iterations since.
        let (mut mark, mut since) = (f64::INFINITY, 0);
        // An accepted full step's iterate, already made where the next iteration stands.
        let mut taken: Option<Iterate> = None;
        let mut recentres = 0;
        let at = loop {
            let at = taken
                .take()
                .unwrap_or_else(|| Iterate::of(&self, std::mem::take(&mut v), lagged.clone()));
            let size = self.size(&at.gradient);
            best = best.min(size);
            (mark, since) = if size < 0.5 * mark {
                (size, 0)
            } else {
                (mark, since + 1)
            };
            if self.settled(&at, limits.tolerance, momentum) {
                // Settled about the centres: centred again on the answer, the solve goes on
                // where that unsettles it, RECENTRES times at most.
                let next = match recentres < RECENTRES {
                    true => self.recentred(&at, limits.tolerance, momentum),
                    false => None,
                };
                let Some(next) = next else {
                    report.settled = true;
                    break at;
                };
                recentres += 1;
                lagged = next.held.clone();
                taken = Some(next);
                (best, mark, since) = (f64::INFINITY, f64::INFINITY, 0);
                continue;
            }
            if report.sweeps == limits.max_iterations {
                break at;
            }
            report.sweeps += 1;
            if since >= STALLED && !lagged.relaxed {
                lagged.relaxed = true; // Coulomb's law has no answer it can find: relax it
                report.relaxed = true;
                (best, mark, since) = (f64::INFINITY, f64::INFINITY, 0);
                v = at.v;
                continue;
            }
            if let Some(next) = self.exact_step(&at, best) {
                lagged = next.held.clone();
                taken = Some(next);
                continue;
            }
            lagged.halfway(&at.held);
            match self.lagged_step(&at.v, &lagged) {
                Some(next) => v = next,
                None => break at, // no descent left: stalled short of the tolerance
            }
        };
        let Iterate { v, held, .. } = at;
        let impulses = self
            .contacts
            .iter()
            .enumerate()
            .map(|(k, c)| c.answer(&c.velocity(&v), held.law(k)).0)
            .collect();
        Solution {
            mobiles: self.moved(&v, &problem.mobiles),
            impulses,
            efforts: self.drives.iter().map(|d| d.answer(v[d.index]).0).collect(),
            report,
        }
    }

    /// Whether what is left of the gradient at `at` is a share `tolerance` of the momentum
    /// the solve moves: the free motion's, or the largest the contacts and controllers push
    /// with (a squeeze without gravity has little of the first, and its fingers' pushes
    /// cancel on the object to within their rounding).
    fn settled(&self, at: &Iterate, tolerance: f64, momentum: f64) -> bool {
        at.gradient.amax() <= tolerance * momentum.max(at.pushes)
    }

    /// The iterate at `at`'s velocities with each contact's cost centred on the impulse it
    /// answers there, where that leaves it unsettled; `None` where it does not. A contact
    /// regularized about its centre gives by R times its impulse's change: a squeeze whose
    /// impulses grow every step left its fingertips approaching the object at 0.05-0.14
    /// mm/s, and the gap closed over tens of steps until the moves, which never pass into
    /// anything, stopped a lifting palm. Iterated this proximal point is hard contact: each
    /// pass leaves about R/(R + G) (10⁻⁴) of the last pass's approach.
    fn recentred(&self, at: &Iterate, tolerance: f64, momentum: f64) -> Option<Iterate> {
        let mut held = at.held.clone();
        for (k, c) in self.contacts.iter().enumerate() {
            held.contacts[k] = c.answer(&c.velocity(&at.v), at.held.law(k)).0;
        }
        let next = Iterate::of(self, at.v.clone(), held);
        (!self.settled(&next, tolerance, momentum)).then_some(next)
    }

    /// Newton's step on the gradient with each friction's bound following its normal
    /// impulse (a Jacobian that is not symmetric), where it takes the gradient's size below
    /// `best`: near the answer it gets there in a step or two.
    fn exact_step(&self, at: &Iterate, best: f64) -> Option<Iterate> {
        let jacobian = &at.hessian + self.coupling(&at.v, &at.held);
        let direction = -jacobian.lu().solve(&at.gradient)?;
        let next = Iterate::of(self, &at.v + direction, at.held.clone());
        (self.size(&next.gradient) < 0.9 * best).then_some(next)
    }

    /// Newton's step with the bounds held, along which the cost is convex: an exact line
    /// search on it always descends. The new velocities.
    fn lagged_step(&self, v: &DVector<f64>, held: &Held) -> Option<DVector<f64>> {
        let (gradient, hessian) = self.derivatives(v, held);
        let direction = -hessian.cholesky()?.solve(&gradient);
        let step = self.line_search(v, &direction, held);
        (step > 0.0).then(|| v + direction * step)
    }

    /// A gradient's size in the mass matrix's inverse (an energy: the DOFs' units do not
    /// weigh in).
    fn size(&self, gradient: &DVector<f64>) -> f64 {
        self.inverse_mass
            .dot(&gradient.component_mul(gradient))
            .sqrt()
    }

    /// How each sliding contact's friction changes with its normal velocity, through its
    /// bound (negated): what the lagged Hessian leaves out.
    fn coupling(&self, v: &DVector<f64>, held: &Held) -> DMatrix<f64> {
        let mut coupling = DMatrix::zeros(self.layout.size, self.layout.size);
        for (k, c) in self.contacts.iter().enumerate() {
            let block = c.coupling(&c.velocity(v), held.law(k));
            if block != Matrix3::zeros() {
                c.jacobian.add_sandwich(&block, &mut coupling);
            }
        }
        coupling
    }

    /// The cost's gradient and Hessian at `v`, about the impulses `held`.
    fn derivatives(&self, v: &DVector<f64>, held: &Held) -> (DVector<f64>, DMatrix<f64>) {
        let (gradient, hessian, _) = self.derivatives_and_pushes(v, held);
        (gradient, hessian)
    }

    /// The cost's gradient and Hessian at `v`, about the impulses `held`, and the largest
    /// momentum the impulses there move any one coordinate by, each term's size added (what
    /// the gradient is rounded against: `settled`).
    fn derivatives_and_pushes(
        &self,
        v: &DVector<f64>,
        held: &Held,
    ) -> (DVector<f64>, DMatrix<f64>, f64) {
        let mut gradient = &self.mass * (v - &self.free);
        let mut pushes = gradient.abs();
        let mut hessian = self.mass.clone();
        for (k, c) in self.contacts.iter().enumerate() {
            let (impulse, stiffness) = c.answer(&c.velocity(v), held.law(k));
            c.jacobian
                .subtract_transposed(&impulse, &mut gradient, &mut pushes);
            c.jacobian.add_sandwich(&stiffness, &mut hessian);
            if let Some(twist) = &c.twist {
                let (impulse, stiffness) = twist.answer(twist.velocity(v), held.twist(c, k));
                gradient.axpy(-impulse, &twist.row, 1.0);
                hessian.ger(stiffness, &twist.row, &twist.row, 1.0);
            }
        }
        for d in &self.drives {
            let (impulse, stiffness) = d.answer(v[d.index]);
            gradient[d.index] -= impulse;
            pushes[d.index] += impulse.abs();
            hessian[(d.index, d.index)] += stiffness;
        }
        (gradient, hessian, pushes.amax().max(1e-300))
    }

    /// The step along `direction` that minimises the cost (convex along it): Newton's method
    /// on its slope, kept within a bracket by bisection.
    fn line_search(&self, v: &DVector<f64>, direction: &DVector<f64>, held: &Held) -> f64 {
        let line = Line::of(self, v, direction, held);
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

    /// The problem's mobiles at the velocities `v`.
    fn moved(&self, v: &DVector<f64>, mobiles: &Mobiles) -> Mobiles {
        let mut mobiles = mobiles.clone();
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
        mobiles
    }
}

/// Where the iterations stand: the velocities, the bounds at them, and the cost's gradient
/// and (lagged) Hessian there.
struct Iterate {
    v: DVector<f64>,
    held: Held,
    gradient: DVector<f64>,
    hessian: DMatrix<f64>,
    /// The largest momentum the impulses here move any one coordinate by.
    pushes: f64,
}

impl Iterate {
    fn of(primal: &Primal, v: DVector<f64>, mut held: Held) -> Self {
        held.bound(primal, &v);
        let (gradient, hessian, pushes) = primal.derivatives_and_pushes(&v, &held);
        Self {
            v,
            held,
            gradient,
            hessian,
            pushes,
        }
    }
}

/// What each contact's cost is centred on and bounded by. Its centre is the impulse it had
/// last step (a soft contact's torsion is centred on none): where a contact keeps its impulse, it keeps
/// still exactly, and its regularization gives only as its impulse changes. Its friction's
/// bound is its normal impulse, held along each line and then moved to the normal impulse
/// found (a fixed point, as Drake's TAMSI lags its normal forces).
#[derive(Clone)]
struct Held {
    contacts: Vec<Vector3<f64>>,
    bounds: Vec<f64>,
    /// Whether the contacts answer by the convex relaxation instead of Coulomb's law.
    relaxed: bool,
}

/// How one contact answers in a solve: about its centre, its friction within the disk of
/// its bound (Coulomb's law) or, without one, within its cone (the convex relaxation).
#[derive(Clone, Copy)]
struct Law {
    centre: Vector3<f64>,
    bound: Option<f64>,
}

impl Held {
    /// Last step's impulses (a warm start), each bound its normal impulse.
    fn of(problem: &ContactProblem) -> Self {
        let n = problem.rows.len();
        let mut contacts = problem.initial.clone();
        contacts.resize(n, Vector3::zeros());
        let bounds = contacts.iter().map(|i| i.z.max(0.0)).collect();
        Self {
            contacts,
            bounds,
            relaxed: false,
        }
    }

    fn law(&self, k: usize) -> Law {
        Law {
            centre: self.contacts[k],
            bound: (!self.relaxed).then_some(self.bounds[k]),
        }
    }

    /// Moves each bound half way to `other`'s.
    fn halfway(&mut self, other: &Held) {
        for (b, o) in self.bounds.iter_mut().zip(&other.bounds) {
            *b = 0.5 * (*b + o);
        }
    }

    /// Moves each bound to the normal impulse `v` is answered with.
    fn bound(&mut self, primal: &Primal, v: &DVector<f64>) {
        for (k, c) in primal.contacts.iter().enumerate() {
            self.bounds[k] = c.pressed(&c.velocity(v), &self.contacts[k]);
        }
    }

    /// The soft contact `k`'s torsional centre and its bound, friction × radius × the
    /// normal impulse.
    fn twist(&self, c: &Contact, k: usize) -> (f64, f64) {
        let radius = c.twist.as_ref().map_or(0.0, |t| t.radius);
        (0.0, c.friction * radius * self.bounds[k])
    }
}
