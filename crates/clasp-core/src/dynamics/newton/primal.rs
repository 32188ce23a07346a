//! The primal built from a contact problem: its mass matrix, each row as a contact over the
//! velocities, each controller as a drive.

use nalgebra::{DMatrix, DVector, Matrix3, Vector3};

use super::{Contact, Drive, GIVE, Layout, Primal, Twist};
use crate::dynamics::{
    movers::Side,
    problem::{ContactProblem, Mobiles, Reach, Reaches, Row},
    sparse::SparseColumns,
};

impl Primal {
    pub(super) fn of(problem: &ContactProblem) -> Option<Self> {
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
