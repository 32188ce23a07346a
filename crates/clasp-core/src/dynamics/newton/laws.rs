//! How each term of the primal answers a velocity: a contact by Coulomb's law or its convex
//! relaxation, a torsion and a controller by a Huber cost; and the cost along one line.

use nalgebra::{DVector, Matrix2, Matrix3, Vector3};

use super::{Contact, Drive, Held, Law, Primal, Twist};

/// The cost along one line v + t·d, each term's part made once: the momentum's slope is
/// linear in t, each contact's velocity is its velocity at v plus t times its change.
pub(super) struct Line<'a> {
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
    pub(super) fn of(
        primal: &Primal,
        v: &DVector<f64>,
        direction: &DVector<f64>,
        held: &'a Held,
    ) -> Self {
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
    pub(super) fn slope(&self, primal: &Primal, t: f64) -> (f64, f64) {
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
    pub(super) fn velocity(&self, v: &DVector<f64>) -> Vector3<f64> {
        self.jacobian.times(v) + self.offset
    }

    /// The normal impulse that stops the approach `velocity` has, about the impulse `held`.
    pub(super) fn pressed(&self, velocity: &Vector3<f64>, held: &Vector3<f64>) -> f64 {
        (held.z - velocity.z / self.give).max(0.0)
    }

    /// The impulse the contact answers `velocity` with by `law` (frame coordinates, on A),
    /// and its change per unit of velocity, negated.
    pub(super) fn answer(&self, velocity: &Vector3<f64>, law: Law) -> (Vector3<f64>, Matrix3<f64>) {
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
    pub(super) fn coupling(&self, velocity: &Vector3<f64>, law: Law) -> Matrix3<f64> {
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
    pub(super) fn velocity(&self, v: &DVector<f64>) -> f64 {
        self.row.dot(v) + self.offset
    }

    /// The torsional impulse turning at `velocity` is answered with about the impulse held,
    /// within its bound, and its change per unit of velocity, negated.
    pub(super) fn answer(&self, velocity: f64, (held, limit): (f64, f64)) -> (f64, f64) {
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
    pub(super) fn answer(&self, velocity: f64) -> (f64, f64) {
        huber(
            velocity - self.target - self.centre * self.give,
            self.give,
            self.limit,
        )
    }
}
