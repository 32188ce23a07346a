//! A step's contact problem, as every solver takes it: what moves ([`Mobiles`]: free bodies
//! and robots' articulated assemblies, each answering an impulse with a change of velocity),
//! the contacts between them ([`Row`]: two sides, a frame, friction, a torsion radius) and the
//! DOF controllers ([`Motor`]). MuJoCo's `efc_*` rows, Drake's `SapContactProblem`. The
//! Gauss–Seidel sweeps (`solver.rs`) and the LCP (`lcp.rs`) solve it; the step builds it.

use nalgebra::{Matrix3, Vector2, Vector3};

use super::{
    articulated::{Articulated, LinkPoint},
    movers::Side,
};
#[cfg(doc)]
use crate::world::settings::SolverSettings;
use crate::{contact::memory::SolveReport, ids::RobotId};

/// One solve's problem: what moves, the contacts with their Delassus blocks
/// ([`delassus_blocks`]) and the impulses to start from (each on A in its frame), and the DOF
/// controllers, each starting from its last effort. A solver reads it and changes nothing
/// of it: how hard it tries is its settings' ([`SolverSettings`]), passed beside.
#[derive(Debug, Clone, Default)]
pub(crate) struct ContactProblem {
    pub mobiles: Mobiles,
    pub rows: Vec<Row>,
    pub blocks: Vec<Matrix3<f64>>,
    pub initial: Vec<Vector3<f64>>,
    pub motors: Vec<Motor>,
}

/// What a solver gives back: what moves, at its velocities after the impulses; each
/// contact's impulse on A in its frame (x, y tangent, z normal); each controller's
/// generalized impulse (in the problem's order of motors); and how the solve went.
#[derive(Debug, Clone)]
pub(crate) struct Solution {
    pub mobiles: Mobiles,
    pub impulses: Vec<Vector3<f64>>,
    pub efforts: Vec<f64>,
    pub report: SolveReport,
}

/// One moving free body of the problem: how it answers an impulse, and its velocity so far.
#[derive(Debug, Clone)]
pub(crate) struct Mobile {
    pub inverse_mass: f64,
    /// World axes, about the centre of gravity, 1/(g·mm²).
    pub inverse_inertia: Matrix3<f64>,
    pub linear: Vector3<f64>,
    pub angular: Vector3<f64>,
}

impl Mobile {
    /// The change of velocity of the point at `r` (from the centre) per unit impulse there.
    fn response(&self, r: &Vector3<f64>) -> Matrix3<f64> {
        let cross = r.cross_matrix();
        Matrix3::identity() * self.inverse_mass - cross * self.inverse_inertia * cross
    }

    fn apply(&mut self, impulse: &Vector3<f64>, r: &Vector3<f64>) {
        self.linear += impulse * self.inverse_mass;
        self.angular += self.inverse_inertia * r.cross(impulse);
    }

    fn point_velocity(&self, r: &Vector3<f64>) -> Vector3<f64> {
        self.linear + self.angular.cross(r)
    }
}

/// One side of a row as the sweeps reach it: a free body at a lever from its centre, or a
/// link's point made ready ([`LinkPoint`]).
#[derive(Debug, Clone)]
pub(super) enum Reach {
    Body { index: usize, lever: Vector3<f64> },
    Link { assembly: usize, point: LinkPoint },
}

/// Both sides of a row, made ready for the sweeps (`None` for a side that does not move).
pub(super) type Reaches = [Option<Reach>; 2];

/// Everything that moves in a step's problem.
#[derive(Debug, Clone, Default)]
pub(crate) struct Mobiles {
    pub bodies: Vec<Mobile>,
    pub robots: Vec<Articulated>,
}

impl Mobiles {
    fn reach(&self, side: Option<Side>, lever: &Vector3<f64>) -> Option<Reach> {
        Some(match side? {
            Side::Body(index) => Reach::Body {
                index,
                lever: *lever,
            },
            Side::Link { assembly, link } => Reach::Link {
                assembly,
                point: self.robots[assembly].link_point(link, lever),
            },
        })
    }

    pub(super) fn reaches(&self, row: &Row) -> Reaches {
        [
            self.reach(row.a, &row.lever_a),
            self.reach(row.b, &row.lever_b),
        ]
    }

    fn velocity_at(&self, reach: &Reach) -> Vector3<f64> {
        match reach {
            Reach::Body { index, lever } => self.bodies[*index].point_velocity(lever),
            Reach::Link { assembly, point } => self.robots[*assembly].velocity_at(point),
        }
    }

    fn push_at(&mut self, reach: &Reach, impulse: &Vector3<f64>) {
        match reach {
            Reach::Body { index, lever } => self.bodies[*index].apply(impulse, lever),
            Reach::Link { assembly, point } => self.robots[*assembly].push_at(point, impulse),
        }
    }

    /// The velocity of A's point relative to B's (world axes), the row's sides made ready.
    pub(super) fn relative_velocity_at(&self, [a, b]: &Reaches) -> Vector3<f64> {
        let of = |side: &Option<Reach>| {
            side.as_ref()
                .map_or(Vector3::zeros(), |s| self.velocity_at(s))
        };
        of(a) - of(b)
    }

    /// Applies the impulses a solve starts from: each row's `initial` (on A, in its frame)
    /// through its sides made ready, then each controller's effort within its limit.
    pub(super) fn warm_start(
        &mut self,
        rows: &[Row],
        reaches: &[Reaches],
        initial: &[Vector3<f64>],
        motors: &[Motor],
    ) {
        for ((row, reach), impulse) in rows.iter().zip(reaches).zip(initial) {
            if *impulse != Vector3::zeros() {
                self.apply_at(reach, &(row.frame * impulse));
            }
        }
        for motor in motors {
            let effort = motor.effort.clamp(-motor.limit, motor.limit);
            self.robots[motor.assembly].push_dof(motor.dof, effort);
        }
    }

    /// Pushes A's side with `impulse` (world axes) and B's with its opposite.
    pub(super) fn apply_at(&mut self, [a, b]: &Reaches, impulse: &Vector3<f64>) {
        if let Some(a) = a {
            self.push_at(a, impulse);
        }
        if let Some(b) = b {
            self.push_at(b, &-impulse);
        }
    }

    pub(super) fn response(&self, side: Side, r: &Vector3<f64>) -> Matrix3<f64> {
        match side {
            Side::Body(i) => self.bodies[i].response(r),
            Side::Link { assembly, link } => self.robots[assembly].response(link, r),
        }
    }

    /// How fast the side turns, world axes.
    pub(super) fn spin(&self, side: Side) -> Vector3<f64> {
        match side {
            Side::Body(i) => self.bodies[i].angular,
            Side::Link { assembly, link } => self.robots[assembly].spin(link),
        }
    }

    /// How fast its turning about `axis` answers a unit angular impulse about it.
    pub(super) fn turn_ease(&self, side: Side, axis: &Vector3<f64>) -> f64 {
        match side {
            Side::Body(i) => axis.dot(&(self.bodies[i].inverse_inertia * axis)),
            Side::Link { assembly, link } => self.robots[assembly].turn_ease(link, axis),
        }
    }

    /// Turns the side with an angular impulse (world axes).
    pub(super) fn twist(&mut self, side: Side, angular: &Vector3<f64>) {
        match side {
            Side::Body(i) => {
                let body = &mut self.bodies[i];
                body.angular += body.inverse_inertia * angular;
            }
            Side::Link { assembly, link } => self.robots[assembly].twist(link, angular),
        }
    }
}

/// One contact of the problem: its two sides (`None` for a body that does not move), the
/// levers from each side's centre, the contact frame and the friction.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    pub a: Option<Side>,
    pub b: Option<Side>,
    pub lever_a: Vector3<f64>,
    pub lever_b: Vector3<f64>,
    /// Columns: tangent x, tangent y, normal (pointing to A).
    pub frame: Matrix3<f64>,
    pub friction: f64,
    /// The direction it slid in at the step's start (unit, tangent x and y), where it slid
    /// faster than [`crate::contact::KINETIC_SPEED`]: kinetic friction opposes it.
    pub slip: Option<Vector2<f64>>,
    /// A soft contact's torsion radius (mm): it resists turning about its normal with a
    /// torsional impulse up to μ · radius · the normal impulse (the torsion axis of its 4-D
    /// wrench space). `None` for a point contact, which does not.
    pub torsion_radius: Option<f64>,
}

/// A DOF's controller: it pushes the DOF towards `velocity` with a generalized impulse of at
/// most `limit` (its effort times the step) either way.
#[derive(Debug, Clone)]
pub(crate) struct Motor {
    /// The assembly, and the DOF among its generalized coordinates.
    pub assembly: usize,
    pub dof: usize,
    /// The robot and its DOF it drives.
    pub drives: (RobotId, usize),
    pub velocity: f64,
    pub limit: f64,
    /// Its generalized impulse where the solve starts it: the one it applied last step, as
    /// the contacts start from theirs (what it applies is the solution's).
    pub effort: f64,
}

/// Each contact's block of the Delassus matrix in its frame ([`delassus_block`]).
pub(crate) fn delassus_blocks(mobiles: &Mobiles, rows: &[Row]) -> Vec<Matrix3<f64>> {
    rows.iter()
        .map(|row| delassus_block(mobiles, row))
        .collect()
}

/// The contact's block of the Delassus matrix in its frame: relative velocity per impulse.
/// Two links of one robot answer together: the coupling through the robot counts twice.
fn delassus_block(mobiles: &Mobiles, row: &Row) -> Matrix3<f64> {
    let mut world = Matrix3::zeros();
    if let Some(a) = row.a {
        world += mobiles.response(a, &row.lever_a);
    }
    if let Some(b) = row.b {
        world += mobiles.response(b, &row.lever_b);
    }
    if let (
        Some(Side::Link { assembly, link }),
        Some(Side::Link {
            assembly: other,
            link: other_link,
        }),
    ) = (row.a, row.b)
        && assembly == other
    {
        let r = &mobiles.robots[assembly];
        let cross = r.cross_response((link, &row.lever_a), (other_link, &row.lever_b));
        world -= cross + cross.transpose();
    }
    row.frame.transpose() * world * row.frame
}
