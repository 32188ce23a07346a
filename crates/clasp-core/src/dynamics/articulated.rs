//! A robot in the dynamics: its DOFs are its generalized coordinates. Where its links are and
//! how they answer a push come from its kinematics: each link's Jacobian (how its centre and
//! its turning follow each DOF's velocity) from its joints' axes and origins
//! ([`Robot::link_jacobians`]), the mass matrix M = Σ m Jᵥᵀ Jᵥ + Jωᵀ I Jω over the links, and
//! a contact on a link moves the DOFs by M⁻¹ Jᵀ λ, where J maps the DOFs' velocities to the
//! contact point's (RaiSim's contact Jacobian; its apparent inverse inertia there is
//! J M⁻¹ Jᵀ). Coupled joints follow their DOFs at their ratios; a joint held in breakaway
//! does not follow. The palm is the base: fixed,
//! kinematic (carrying every link with its velocity), or free — then the base's velocity
//! (linear at the palm's origin, angular about it) is six more generalized coordinates after
//! the DOFs, with their columns in every body's Jacobian, the palm's too. Leaving out the
//! velocity-dependent forces would let a free hand's centre of gravity wander as its fingers
//! swing (the Jacobians change under the velocities); so a free base starts each step with the
//! velocity that gives the whole hand the momentum, linear and angular, it ended the last step
//! with — what no internal force can change.
//! An arm and the hand it carries are one articulated body (an [`Assembly`]): the arm's DOFs
//! and the hand's together are its coordinates, and the hand's bodies follow the arm's DOFs as
//! one rigid piece with the arm's chain end, so the hand's weight and its contacts load the
//! arm's joints and the fingers' reactions turn the arm.
//! Velocity-dependent forces (Coriolis, centrifugal, gyroscopic) are left out: hands move slowly.

use nalgebra::{DMatrix, DVector, Matrix3, Matrix3xX, MatrixXx3, Point3, Vector3};

use super::movers::{Assembly, Member};
use crate::{
    body::{Body, velocity::Velocity},
    robot::{Robot, jacobian::LinkJacobian},
};

/// Inertia added to every DOF, as a share of the largest the links give (a motor's rotor;
/// GraspIt's DOFs have none): keeps M invertible where a DOF moves no mass.
const ARMATURE: f64 = 1e-3;

/// A point of a link, ready for a solve's sweeps: how its velocity follows the DOFs (its
/// Jacobian J) and how the DOFs answer an impulse there (M⁻¹ Jᵀ), both made once a solve
/// rather than at every sweep.
#[derive(Debug, Clone)]
pub(crate) struct LinkPoint {
    link: usize,
    lever: Vector3<f64>,
    jacobian: Matrix3xX<f64>,
    answer: MatrixXx3<f64>,
}

impl LinkPoint {
    /// How the point's velocity follows the DOFs (world axes, one column a DOF).
    pub fn jacobian(&self) -> &Matrix3xX<f64> {
        &self.jacobian
    }
}

/// A robot as the solver moves it.
#[derive(Debug, Clone)]
pub(crate) struct Articulated {
    /// Per body, in the assembly's order (member by member: links chain by chain, palm, mount
    /// piece). The bottom robot's palm no DOF moves; a free base moves it.
    pub links: Vec<LinkJacobian>,
    /// Each of those bodies' centre of gravity, world mm.
    centres: Vec<Point3<f64>>,
    /// The palm's origin, about which the base turns, and how the base moves.
    origin: Point3<f64>,
    base: Velocity,
    pub inverse_mass: DMatrix<f64>,
    /// The DOFs' velocities so far.
    pub velocity: DVector<f64>,
    /// Their velocities at the step's start, before gravity's share.
    start: DVector<f64>,
    /// The DOFs' count, where a free base's six coordinates start; `None` for a base that does
    /// not answer forces.
    free_base: Option<usize>,
    /// The mass matrix, kept for a free base's momentum.
    mass: DMatrix<f64>,
}

impl Articulated {
    /// An assembly where it stands (`robots`: its members' robots, in its order) with
    /// gravity's share of a step (`added`, mm/s) added to its bodies; `None` when they have no
    /// mass to move.
    pub fn of(robots: &[&Robot], assembly: &Assembly, added: Vector3<f64>) -> Option<Self> {
        let root = robots.first()?;
        let dofs = assembly.dofs();
        let free = root.has_free_base();
        let (mut bodies, mut links) = (Vec::new(), Vec::new());
        for (robot, member) in robots.iter().zip(&assembly.members) {
            let own = member_jacobians(robot, member, dofs);
            let first = bodies.len();
            bodies.extend(member_bodies(robot));
            links.extend(own);
            if let Some(on) = member.carried_on {
                // The carrier's DOFs (and all below it) move the member as one rigid piece with
                // the carrier's chain end.
                let (carrier, at) = (links[on].clone(), bodies[on].world_cog());
                for k in first..bodies.len() {
                    carry(&mut links[k], &carrier, &(bodies[k].world_cog() - at));
                }
            }
        }
        let centres: Vec<Point3<f64>> = bodies.iter().map(|b| b.world_cog()).collect();
        let origin = Point3::from(root.palm().pose().translation.vector);
        if free {
            for (link, centre) in links.iter_mut().zip(&centres) {
                add_base_columns(link, &(centre - origin));
            }
        }
        let n = dofs + if free { 6 } else { 0 };
        let mut mass = DMatrix::zeros(n, n);
        let mut gravity = DVector::zeros(n);
        for (link, body) in links.iter().zip(&bodies) {
            let m = body.mass.mass;
            if !(m.is_finite() && m > 0.0) {
                continue;
            }
            // A body no coordinate moves (a fixed base's palm) adds nothing.
            mass += link.linear.transpose() * &link.linear * m
                + link.angular.transpose() * body.world_inertia() * &link.angular;
            gravity += link.linear.transpose() * (added * m);
        }
        let largest = mass.diagonal().max();
        if !(largest.is_finite() && largest > 0.0) {
            return None;
        }
        for i in 0..dofs {
            mass[(i, i)] += ARMATURE * largest;
        }
        let inverse_mass = mass.clone().try_inverse()?;
        let base = root.base_velocity();
        let mut start = DVector::zeros(n);
        for (robot, member) in robots.iter().zip(&assembly.members) {
            start
                .rows_mut(member.first_dof, member.dofs)
                .copy_from_slice(&robot.dof_velocities()[..member.dofs]);
        }
        if free {
            let (linear, angular) = match root.base_momentum {
                Some(momentum) => keeping(&mass, &start, dofs, &origin, momentum)?,
                None => (base.linear, base.angular),
            };
            start.fixed_rows_mut::<3>(dofs).copy_from(&linear);
            start.fixed_rows_mut::<3>(dofs + 3).copy_from(&angular);
        }
        let velocity = &start + &inverse_mass * gravity;
        Some(Self {
            links,
            centres,
            origin,
            // A free base's motion is in the coordinates; nothing carries the links besides.
            base: if free { Velocity::ZERO } else { base },
            inverse_mass,
            velocity,
            start,
            free_base: free.then_some(dofs),
            mass,
        })
    }

    /// A free base's hand's momentum now: linear, and angular about the world's origin.
    pub fn free_base_momentum(&self) -> Option<(Vector3<f64>, Vector3<f64>)> {
        let at = self.free_base?;
        let h = &self.mass * &self.velocity;
        let linear: Vector3<f64> = h.fixed_rows::<3>(at).into_owned();
        let about_palm: Vector3<f64> = h.fixed_rows::<3>(at + 3).into_owned();
        Some((linear, about_palm + self.origin.coords.cross(&linear)))
    }

    /// A free base's velocity after the solve (linear at the palm's origin, angular); `None`
    /// for a base that does not answer forces.
    pub fn free_base_velocity(&self) -> Option<Velocity> {
        let at = self.free_base?;
        Some(Velocity::new(
            self.velocity.fixed_rows::<3>(at).into_owned(),
            self.velocity.fixed_rows::<3>(at + 3).into_owned(),
        ))
    }

    /// How the velocity of the point `r` from link `link`'s centre follows the DOFs' (3 × n).
    fn point_jacobian(&self, link: usize, r: &Vector3<f64>) -> Matrix3xX<f64> {
        self.links[link].at_point(r)
    }

    /// The change of that point's velocity per unit impulse there (world axes).
    pub fn response(&self, link: usize, r: &Vector3<f64>) -> Matrix3<f64> {
        let j = self.point_jacobian(link, r);
        &j * &self.inverse_mass * j.transpose()
    }

    /// How two points' velocity changes per unit impulse at another point, both on this robot
    /// (rows: the first point's velocity; columns: the impulse at the second).
    pub fn cross_response(
        &self,
        (link, r): (usize, &Vector3<f64>),
        (other_link, other_r): (usize, &Vector3<f64>),
    ) -> Matrix3<f64> {
        let (j, k) = (
            self.point_jacobian(link, r),
            self.point_jacobian(other_link, other_r),
        );
        &j * &self.inverse_mass * k.transpose()
    }

    /// The point's velocity at the step's start.
    pub fn start_point_velocity(&self, link: usize, r: &Vector3<f64>) -> Vector3<f64> {
        self.point_jacobian(link, r) * &self.start + self.carried(link, r)
    }

    /// The velocity the moving base gives the point `r` from link `link`'s centre.
    fn carried(&self, link: usize, r: &Vector3<f64>) -> Vector3<f64> {
        let point = self.centres[link] + r;
        self.base.at(&(point - self.origin))
    }

    /// The point `lever` from link `link`'s centre, ready for many sweeps.
    pub fn link_point(&self, link: usize, lever: &Vector3<f64>) -> LinkPoint {
        let jacobian = self.point_jacobian(link, lever);
        let answer = &self.inverse_mass * jacobian.transpose();
        LinkPoint {
            link,
            lever: *lever,
            jacobian,
            answer,
        }
    }

    /// The velocity of a point made ready (world axes).
    ///
    /// It is its Jacobian (`LinkPoint::jacobian`) times the DOFs' velocities, plus what a
    /// moving base carries it by.
    pub fn velocity_at(&self, point: &LinkPoint) -> Vector3<f64> {
        &point.jacobian * &self.velocity + self.carried(point.link, &point.lever)
    }

    /// Pushes a point made ready with `impulse` (world axes): the DOFs change by M⁻¹ Jᵀ
    /// impulse.
    pub fn push_at(&mut self, point: &LinkPoint, impulse: &Vector3<f64>) {
        self.velocity.gemv(1.0, &point.answer, impulse, 1.0);
    }

    /// How fast link `link` turns, world axes.
    pub fn spin(&self, link: usize) -> Vector3<f64> {
        &self.links[link].angular * &self.velocity + self.base.angular
    }

    /// How fast its turning about `axis` answers a unit angular impulse about it.
    pub fn turn_ease(&self, link: usize, axis: &Vector3<f64>) -> f64 {
        let along = self.links[link].angular.transpose() * axis;
        along.dot(&(&self.inverse_mass * &along))
    }

    /// Turns link `link` with an angular impulse (world axes).
    pub fn twist(&mut self, link: usize, angular: &Vector3<f64>) {
        let along = self.links[link].angular.transpose() * angular;
        self.velocity += &self.inverse_mass * along;
    }

    /// Pushes DOF `dof` with a generalized impulse (a torque or force times the step).
    pub fn push_dof(&mut self, dof: usize, impulse: f64) {
        self.velocity += self.inverse_mass.column(dof) * impulse;
    }
}

/// The base velocity that gives the hand `momentum` (linear, angular about the world's origin)
/// with its DOFs at the velocities `start` holds: M_bb (v, ω) = h_b − M_bd q̇_d, where h_b is
/// the momentum about the palm's origin.
fn keeping(
    mass: &DMatrix<f64>,
    start: &DVector<f64>,
    dofs: usize,
    origin: &Point3<f64>,
    (linear, angular): (Vector3<f64>, Vector3<f64>),
) -> Option<(Vector3<f64>, Vector3<f64>)> {
    let mut wanted = nalgebra::Vector6::zeros();
    wanted.fixed_rows_mut::<3>(0).copy_from(&linear);
    wanted
        .fixed_rows_mut::<3>(3)
        .copy_from(&(angular - origin.coords.cross(&linear)));
    let coupling = mass.view((dofs, 0), (6, dofs)) * start.rows(0, dofs);
    let base: nalgebra::Matrix6<f64> = mass.fixed_view::<6, 6>(dofs, dofs).into_owned();
    let v = base.lu().solve(&(wanted - coupling))?;
    Some((
        v.fixed_rows::<3>(0).into_owned(),
        v.fixed_rows::<3>(3).into_owned(),
    ))
}

/// Six more columns for a free base: its linear velocity moves every centre alike, and its
/// turning about the palm's origin moves the centre `offset` from there by ω × offset.
fn add_base_columns(link: &mut LinkJacobian, offset: &Vector3<f64>) {
    let dofs = link.linear.ncols();
    let mut linear = Matrix3xX::zeros(dofs + 6);
    let mut angular = Matrix3xX::zeros(dofs + 6);
    linear.columns_mut(0, dofs).copy_from(&link.linear);
    angular.columns_mut(0, dofs).copy_from(&link.angular);
    linear
        .fixed_columns_mut::<3>(dofs)
        .copy_from(&Matrix3::identity());
    linear
        .fixed_columns_mut::<3>(dofs + 3)
        .copy_from(&(-offset.cross_matrix()));
    angular
        .fixed_columns_mut::<3>(dofs + 3)
        .copy_from(&Matrix3::identity());
    *link = LinkJacobian { linear, angular };
}

/// A member's bodies in the assembly's order: its links chain by chain, its palm, its mount
/// piece if it has one.
fn member_bodies(robot: &Robot) -> impl Iterator<Item = &Body> {
    robot
        .chains()
        .iter()
        .flat_map(|c| c.links.iter().map(|l| &l.body))
        .chain(std::iter::once(robot.palm()))
        .chain(robot.mount())
}

/// The Jacobians of a member's bodies by its own DOFs (its columns among the assembly's `dofs`;
/// none for a member not driven): its palm and mount piece stay as its DOFs move.
fn member_jacobians(robot: &Robot, member: &Member, dofs: usize) -> Vec<LinkJacobian> {
    let mut all = vec![LinkJacobian::zeros(dofs); member_bodies(robot).count()];
    if member.dofs > 0 {
        // The links come first, chain by chain, as the robot lists them.
        for (into, own) in all.iter_mut().zip(robot.link_jacobians()) {
            into.linear
                .columns_mut(member.first_dof, member.dofs)
                .copy_from(&own.linear);
            into.angular
                .columns_mut(member.first_dof, member.dofs)
                .copy_from(&own.angular);
        }
    }
    all
}

/// Adds to a body's Jacobian the motion it has riding rigidly on another body (`carrier`'s
/// Jacobian), `offset` from that one's centre: the carrier's turning, and its centre's
/// velocity plus the turning across the offset.
fn carry(link: &mut LinkJacobian, carrier: &LinkJacobian, offset: &Vector3<f64>) {
    link.linear += &carrier.linear - offset.cross_matrix() * &carrier.angular;
    link.angular += &carrier.angular;
}
