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

use nalgebra::{DMatrix, DVector, Matrix2, Matrix3, Vector3};

use super::{
    movers::Side,
    problem::{ContactProblem, Mobiles, Reach, Reaches, Row, Solution},
    solver,
    sparse::SparseColumns,
};
use crate::{contact::memory::SolveReport, world::settings::SolverSettings};

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
                    centre: motor.effort.clamp(-motor.limit, motor.limit),
                }
            })
            .collect();
        let inverse_mass = mass.diagonal().map(|m| 1.0 / m);
        Some(Self {
            layout,
            inverse_mass,
            mass,
            free,
            start,
            contacts,
            drives,
        })
    }

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

/// The cost along one line v + t·d, each term's part made once: the momentum's slope is
/// linear in t, each contact's velocity is its velocity at v plus t times its change.
struct Line<'a> {
    /// dᵀ M (v − v*) and dᵀ M d.
    momentum: (f64, f64),
    held: &'a Held,
    /// Each contact's velocity at v and its change along d.
    contacts: Vec<(Vector3<f64>, Vector3<f64>)>,
    /// Each contact's turning at v and its change along d (none where it does not resist).
    twists: Vec<(f64, f64)>,
    /// Each controller's DOF velocity at v and its change along d.
    drives: Vec<(f64, f64)>,
}

impl<'a> Line<'a> {
    fn of(primal: &Primal, v: &DVector<f64>, direction: &DVector<f64>, held: &'a Held) -> Self {
        let moved = &primal.mass * direction;
        let along = |c: &Contact| c.jacobian.times(direction);
        let twist = |c: &Contact| {
            c.twist
                .as_ref()
                .map_or((0.0, 0.0), |t| (t.velocity(v), t.row.dot(direction)))
        };
        Self {
            momentum: (moved.dot(&(v - &primal.free)), moved.dot(direction)),
            held,
            contacts: primal
                .contacts
                .iter()
                .map(|c| (c.velocity(v), along(c)))
                .collect(),
            twists: primal.contacts.iter().map(twist).collect(),
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
        for (k, (c, (at, along))) in primal.contacts.iter().zip(&self.contacts).enumerate() {
            let (impulse, stiffness) = c.answer(&(at + along * t), self.held.law(k));
            slope -= along.dot(&impulse);
            curvature += along.dot(&(stiffness * along));
            if let Some(twist) = &c.twist {
                let (at, along) = self.twists[k];
                let (impulse, stiffness) = twist.answer(at + along * t, self.held.twist(c, k));
                slope -= along * impulse;
                curvature += along * along * stiffness;
            }
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
        self.jacobian.times(v) + self.offset
    }

    /// The normal impulse that stops the approach `velocity` has, about the impulse `held`.
    fn pressed(&self, velocity: &Vector3<f64>, held: &Vector3<f64>) -> f64 {
        (held.z - velocity.z / self.give).max(0.0)
    }

    /// The impulse the contact answers `velocity` with by `law` (frame coordinates, on A),
    /// and its change per unit of velocity, negated.
    fn answer(&self, velocity: &Vector3<f64>, law: Law) -> (Vector3<f64>, Matrix3<f64>) {
        match law.bound {
            Some(bound) => self.coulomb(velocity, &law.centre, bound),
            None => self.cone(velocity, &law.centre),
        }
    }

    /// Coulomb's law: the normal impulse is what stops the approach; the friction is held
    /// within the disk of friction × `bound` and, sliding, opposes the slip it ends with.
    fn coulomb(
        &self,
        velocity: &Vector3<f64>,
        centre: &Vector3<f64>,
        bound: f64,
    ) -> (Vector3<f64>, Matrix3<f64>) {
        let r = self.give;
        let mut stiffness = Matrix3::zeros();
        let normal = self.pressed(velocity, centre);
        if normal > 0.0 {
            stiffness[(2, 2)] = 1.0 / r;
        }
        let wanted = centre.xy() - velocity.xy() / r;
        let (size, limit) = (wanted.norm(), self.friction * bound);
        let friction = if size <= limit {
            if limit > 0.0 {
                stiffness
                    .fixed_view_mut::<2, 2>(0, 0)
                    .fill_diagonal(1.0 / r);
            }
            wanted
        } else {
            // Sliding: on the disk's edge, opposing the slip; it gives only across the slip.
            let direction = wanted / size;
            let across = Matrix2::identity() - direction * direction.transpose();
            stiffness
                .fixed_view_mut::<2, 2>(0, 0)
                .copy_from(&(across * (limit / (size * r))));
            direction * limit
        };
        (Vector3::new(friction.x, friction.y, normal), stiffness)
    }

    /// The convex relaxation (Anitescu's; SAP's and MuJoCo's): the projection on the
    /// friction cone, in which a sliding contact also pushes its sides apart, at friction ×
    /// its slip speed.
    fn cone(&self, velocity: &Vector3<f64>, centre: &Vector3<f64>) -> (Vector3<f64>, Matrix3<f64>) {
        let r = self.give;
        let y = centre - velocity / r;
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

impl Contact {
    /// How a sliding contact's friction changes with its normal velocity through its bound,
    /// negated (zero where it sticks, or does not press).
    fn coupling(&self, velocity: &Vector3<f64>, law: Law) -> Matrix3<f64> {
        let mut coupling = Matrix3::zeros();
        let Some(bound) = law.bound else {
            return coupling;
        };
        let wanted = law.centre.xy() - velocity.xy() / self.give;
        let size = wanted.norm();
        if self.pressed(velocity, &law.centre) > 0.0 && size > self.friction * bound {
            let direction = wanted * (self.friction / (size * self.give));
            coupling[(0, 2)] = direction.x;
            coupling[(1, 2)] = direction.y;
        }
        coupling
    }
}

impl Twist {
    fn velocity(&self, v: &DVector<f64>) -> f64 {
        self.row.dot(v) + self.offset
    }

    /// The torsional impulse turning at `velocity` is answered with about the impulse held,
    /// within its bound, and its change per unit of velocity, negated.
    fn answer(&self, velocity: f64, (held, limit): (f64, f64)) -> (f64, f64) {
        huber(velocity - held * self.give, self.give, limit)
    }
}

/// The impulse a term regularized by `give` answers `velocity` with, held within ±`limit`,
/// and its change per unit of velocity, negated (a Huber cost's slope and curvature).
fn huber(velocity: f64, give: f64, limit: f64) -> (f64, f64) {
    let wanted = -velocity / give;
    match wanted.abs() < limit {
        true => (wanted, 1.0 / give),
        false => (limit.copysign(wanted), 0.0),
    }
}

impl Drive {
    /// The controller's generalized impulse at DOF velocity `velocity`, and its change per
    /// unit of velocity, negated.
    fn answer(&self, velocity: f64) -> (f64, f64) {
        huber(
            velocity - self.target - self.centre * self.give,
            self.give,
            self.limit,
        )
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
        jacobian: SparseColumns::of(&jacobian),
        offset,
        give: GIVE * (block.trace() / 3.0).max(1e-300),
        friction: row.friction,
        twist: row
            .torsion_radius
            .map(|radius| twist(mobiles, layout, row, radius)),
    }
}

/// A soft contact's turning about its normal as the primal sees it.
fn twist(mobiles: &Mobiles, layout: &Layout, row: &Row, radius: f64) -> Twist {
    let normal: Vector3<f64> = row.frame.column(2).into();
    let mut twist = Twist {
        row: DVector::zeros(layout.size),
        offset: 0.0,
        give: 0.0,
        radius,
    };
    for (side, sign) in [(row.a, 1.0), (row.b, -1.0)] {
        let Some(side) = side else { continue };
        twist.give += mobiles.turn_ease(side, &normal);
        match side {
            Side::Body(index) => match layout.bodies[index] {
                Some(s) => twist.row.rows_mut(s + 3, 3).axpy(sign, &normal, 1.0),
                None => twist.offset += sign * normal.dot(&mobiles.bodies[index].angular),
            },
            Side::Link { assembly, link } => {
                let robot = &mobiles.robots[assembly];
                let turns = robot.links[link].angular.transpose() * normal;
                let own = turns.dot(&robot.velocity);
                twist.offset += sign * (normal.dot(&robot.spin(link)) - own);
                let s = layout.robots[assembly];
                twist.row.rows_mut(s, turns.len()).axpy(sign, &turns, 1.0);
            }
        }
    }
    twist.give = GIVE * twist.give.max(1e-300);
    twist
}
