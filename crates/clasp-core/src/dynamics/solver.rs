//! The contact problem of one step, RaiSim's way (Hwangbo, Lee and Hutter 2018): a sweep over
//! the contacts, each solved on its own with the others held, until the impulses settle. Each
//! contact's 3×3 block of the Delassus matrix (its apparent inverse inertia, RaiSim's
//! `getInvInertia`) maps an impulse there to the change of the relative velocity there. A
//! contact asks for the impulse that stops its relative motion (the hard contact: no approach,
//! no slip); one that would pull is let go. One whose answer lies beyond its friction cone
//! slides: the normal impulse stops its approach, the friction on the cone's edge opposes the
//! slip it has (so the sweeps reach maximal dissipation). RaiSim finds that sliding answer
//! exactly, within the contact, by bisection on the cone; Clasp did so first, and measured
//! that a box's four corners on a slope near the static limit then pass the load round and
//! never settle (the box crept at 2 mm/s where it should stay): this split of normal and
//! friction settles.
//!
//! What moves: free bodies ([`Mobile`]) and robots driven by their DOF controllers
//! ([`Articulated`]); each DOF's controller is a [`Motor`] swept with the contacts, pushing
//! its DOF towards a velocity with no more than its effort allows.

use nalgebra::{Matrix3, Vector2, Vector3};

use super::{
    articulated::Articulated,
    movers::Side,
    problem::{ContactProblem, Mobiles, Motor, Reaches, Row, Solution},
};
use crate::{contact::memory::SolveReport, world::settings::SolverSettings};

/// Solves the problem by sweeps from its initial impulses (a warm start), until they settle to
/// the settings' tolerance or their iterations are spent.
pub(crate) fn solve(problem: &ContactProblem, limits: &SolverSettings) -> Solution {
    let ContactProblem {
        rows,
        blocks,
        initial,
        motors,
        ..
    } = problem;
    let mut mobiles = problem.mobiles.clone();
    let settled = limits.tolerance;
    let reaches: Vec<Reaches> = rows.iter().map(|row| mobiles.reaches(row)).collect();
    // Sweeps start from `initial` and the motors' efforts (a warm start), already applied.
    let mut efforts: Vec<f64> = motors
        .iter()
        .map(|m| m.effort.clamp(-m.limit, m.limit))
        .collect();
    mobiles.warm_start(rows, &reaches, initial, motors);
    let mut impulses = initial.clone();
    let mut torsions = vec![0.0; rows.len()];
    // A contact that slid at the step's start slides until its own impulse can stop it; from
    // then on it sticks, for the rest of the solve.
    let mut sticking: Vec<bool> = rows.iter().map(|r| r.slip.is_none()).collect();
    let mut report = SolveReport::default();
    while report.sweeps < limits.max_iterations {
        report.sweeps += 1;
        let (mut largest, mut change) = (0.0f64, 0.0f64);
        // The controllers' impulses settle by their own measure (torques, not forces).
        let mut motors_settled = true;
        for (motor, effort) in motors.iter().zip(&mut efforts) {
            let pushed = drive(&mut mobiles.robots[motor.assembly], motor, effort);
            motors_settled &= pushed <= settled * motor.limit.max(1e-12);
        }
        for (k, row) in rows.iter().enumerate() {
            if let Some(radius) = row.torsion_radius {
                let limit = row.friction * radius * impulses[k].z;
                let turned = resist_torsion(&mut mobiles, row, &mut torsions[k], limit);
                change = change.max(turned / radius);
            }
            let velocity = row.frame.transpose() * mobiles.relative_velocity_at(&reaches[k]);
            let old = impulses[k];
            let slip = if sticking[k] { None } else { row.slip };
            let (new, stuck) = solve_one(&blocks[k], &velocity, &old, row.friction, slip);
            sticking[k] |= stuck;
            let delta = new - old;
            if delta != Vector3::zeros() {
                mobiles.apply_at(&reaches[k], &(row.frame * delta));
            }
            impulses[k] = new;
            largest = largest.max(new.norm());
            change = change.max(delta.norm());
        }
        if motors_settled && change <= settled * largest.max(1e-12) {
            report.settled = true;
            break;
        }
    }
    Solution {
        mobiles,
        impulses,
        efforts,
        report,
    }
}

/// A DOF's controller updated: its accumulated impulse moves towards the one that brings the
/// DOF to the motor's velocity, within its limit (`effort`: its impulse so far); returns the
/// change.
fn drive(robot: &mut Articulated, motor: &Motor, effort: &mut f64) -> f64 {
    let ease = robot.inverse_mass[(motor.dof, motor.dof)];
    if ease.is_nan() || ease <= 0.0 {
        return 0.0;
    }
    let wanted = (motor.velocity - robot.velocity[motor.dof]) / ease;
    let new = (*effort + wanted).clamp(-motor.limit, motor.limit);
    let delta = new - *effort;
    *effort = new;
    robot.push_dof(motor.dof, delta);
    delta.abs()
}

/// A soft contact's torsional impulse (about its normal, on A) updated to stop the two sides
/// turning against each other about the normal, held within ±`limit`; returns the change.
fn resist_torsion(mobiles: &mut Mobiles, row: &Row, torsion: &mut f64, limit: f64) -> f64 {
    let normal: Vector3<f64> = row.frame.column(2).into();
    let spin = |side: Option<Side>| side.map_or(Vector3::zeros(), |s| mobiles.spin(s));
    let turning = (spin(row.a) - spin(row.b)).dot(&normal);
    let ease = |side: Option<Side>| side.map_or(0.0, |s| mobiles.turn_ease(s, &normal));
    let stiffness = ease(row.a) + ease(row.b);
    if stiffness <= 0.0 {
        return 0.0;
    }
    let new = (*torsion - turning / stiffness).clamp(-limit.max(0.0), limit.max(0.0));
    let delta = new - *torsion;
    *torsion = new;
    for (side, sign) in [(row.a, 1.0), (row.b, -1.0)] {
        if let Some(side) = side {
            mobiles.twist(side, &(normal * (delta * sign)));
        }
    }
    delta.abs()
}

/// One contact solved with every other held: `velocity` is its relative velocity now (frame
/// coordinates) under the impulse `old`; the answer is its new total impulse.
fn solve_one(
    block: &Matrix3<f64>,
    velocity: &Vector3<f64>,
    old: &Vector3<f64>,
    mu: f64,
    slip: Option<Vector2<f64>>,
) -> (Vector3<f64>, bool) {
    // The velocity this contact would have without its own impulse.
    let free = velocity - block * old;
    if free.z >= 0.0 {
        return (Vector3::zeros(), false); // separating: no pull
    }
    let Some(inverse) = block.try_inverse() else {
        return (*old, false);
    };
    let stick = -(inverse * free);
    let tangential = stick.xy().norm();
    if stick.z >= 0.0 && tangential <= mu * stick.z {
        return (stick, true);
    }
    (slide(block, velocity, old, mu, slip), false)
}

/// Sliding, or a contact whose exact answer pulls: the normal impulse that stops the approach
/// by itself, then the tangential impulse that stops the slip, cut to the cone's disk (the
/// sequential impulses of Box2D and Bullet, within one contact). Unlike the exact answer on the
/// cone's surface (the slip direction depends on the impulse through the block), its sweeps
/// settle: contacts near their cones' edges, as a box's corners on a slope are, cannot
/// hand the load round in a circle.
fn slide(
    block: &Matrix3<f64>,
    velocity: &Vector3<f64>,
    old: &Vector3<f64>,
    mu: f64,
    slip: Option<Vector2<f64>>,
) -> Vector3<f64> {
    let normal = (old.z - velocity.z / block[(2, 2)]).max(0.0);
    let after = velocity + block.column(2) * (normal - old.z);
    let Some(tangential_inverse) = block.fixed_view::<2, 2>(0, 0).into_owned().try_inverse() else {
        return Vector3::new(0.0, 0.0, normal);
    };
    let limit = mu * normal;
    let mut tangential = old.xy() - tangential_inverse * after.xy();
    if tangential.norm() > limit {
        // On the disk's edge: a contact that slid at the step's start slides on against that
        // slip (kinetic friction along the sliding direction, as a step of it does; against
        // the slip left by the other contacts' impulses instead, a block sliding to a stop
        // over five contacts turned its friction round each sweep and crept on, spinning, at
        // 2 mm/s); else in the direction of the impulse that would stop it.
        if let Some(kinetic) = slip.and_then(|d| slide_along(block, velocity, old, mu, d)) {
            return kinetic;
        }
        tangential *= limit / tangential.norm();
    }
    Vector3::new(tangential.x, tangential.y, normal)
}

/// A contact sliding along `direction` (tangent x, y): friction μ·n against it, and the normal
/// impulse n that stops the approach with that friction applied too (through the block, the
/// friction of a body sliding past its lever changes its normal velocity: solved apart, a big
/// plane sliding on a table was left sinking at 13 mm/s at a contact). `None` where the
/// friction would pull the contact in faster than the normal impulse pushes it out.
fn slide_along(
    block: &Matrix3<f64>,
    velocity: &Vector3<f64>,
    old: &Vector3<f64>,
    mu: f64,
    direction: Vector2<f64>,
) -> Option<Vector3<f64>> {
    let coupling = block[(2, 0)] * direction.x + block[(2, 1)] * direction.y;
    let ease = block[(2, 2)] - mu * coupling;
    if ease <= 1e-12 * block[(2, 2)] {
        return None;
    }
    let pushed = block[(2, 2)] * old.z + block[(2, 0)] * old.x + block[(2, 1)] * old.y;
    let normal = ((pushed - velocity.z) / ease).max(0.0);
    let friction = -direction * (mu * normal);
    Some(Vector3::new(friction.x, friction.y, normal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamics::problem::{Mobile, delassus_blocks};

    /// Solves as a step does: the blocks first, then the sweeps, or Newton's method on the
    /// primal (`newton`).
    fn solve_with(bodies: &mut Vec<Mobile>, rows: &[Row], newton: bool) -> Vec<Vector3<f64>> {
        let mobiles = Mobiles {
            bodies: std::mem::take(bodies),
            robots: Vec::new(),
        };
        let blocks = delassus_blocks(&mobiles, rows);
        let problem = ContactProblem {
            mobiles,
            rows: rows.to_vec(),
            blocks,
            initial: vec![Vector3::zeros(); rows.len()],
            motors: Vec::new(),
        };
        let limits = SolverSettings::default();
        let solution = match newton {
            true => crate::dynamics::newton::solve(&problem, &limits),
            false => solve(&problem, &limits),
        };
        assert!(solution.report.settled, "{:?}", solution.report);
        *bodies = solution.mobiles.bodies;
        solution.impulses
    }

    fn solve_all(bodies: &mut Vec<Mobile>, rows: &[Row]) -> Vec<Vector3<f64>> {
        solve_with(bodies, rows, false)
    }

    fn ball(mass: f64, velocity: Vector3<f64>) -> Mobile {
        Mobile {
            inverse_mass: 1.0 / mass,
            inverse_inertia: Matrix3::identity() / (0.4 * mass * 100.0),
            linear: velocity,
            angular: Vector3::zeros(),
        }
    }

    fn on_ground(lever: Vector3<f64>, friction: f64) -> Row {
        Row {
            a: Some(Side::Body(0)),
            b: None,
            lever_a: lever,
            lever_b: Vector3::zeros(),
            frame: Matrix3::identity(),
            friction,
            slip: None,
            torsion_radius: None,
        }
    }

    #[test]
    fn a_falling_ball_stops_on_the_ground_with_its_momentum_as_the_impulse() {
        let mut mobiles = vec![ball(2.0, Vector3::new(0.0, 0.0, -30.0))];
        let impulses = solve_all(
            &mut mobiles,
            &[on_ground(Vector3::new(0.0, 0.0, -10.0), 0.5)],
        );
        assert!((impulses[0].z - 60.0).abs() < 1e-9, "{impulses:?}");
        assert!(mobiles[0].linear.norm() < 1e-9);
    }

    #[test]
    fn a_rising_ball_is_let_go() {
        let mut mobiles = vec![ball(2.0, Vector3::new(0.0, 0.0, 5.0))];
        let impulses = solve_all(
            &mut mobiles,
            &[on_ground(Vector3::new(0.0, 0.0, -10.0), 0.5)],
        );
        assert_eq!(impulses[0], Vector3::zeros());
        assert_eq!(mobiles[0].linear.z, 5.0);
    }

    #[test]
    fn a_fast_slide_stays_on_the_cone_and_a_slow_one_sticks() {
        // A block (no lever: it cannot tip) hitting the ground at a slant.
        let block = |v: Vector3<f64>| Mobile {
            inverse_inertia: Matrix3::zeros(),
            ..ball(1.0, v)
        };
        let row = on_ground(Vector3::zeros(), 0.5);
        let mut fast = vec![block(Vector3::new(10.0, 0.0, -4.0))];
        let impulse = solve_all(&mut fast, std::slice::from_ref(&row))[0];
        assert!(
            (impulse.z - 4.0).abs() < 1e-6 && (impulse.x + 2.0).abs() < 1e-6,
            "{impulse}"
        );
        assert!((fast[0].linear.x - 8.0).abs() < 1e-6 && fast[0].linear.z.abs() < 1e-6);
        let mut slow = vec![block(Vector3::new(1.0, 0.0, -4.0))];
        let impulse = solve_all(&mut slow, &[row])[0];
        assert!(slow[0].linear.norm() < 1e-9, "{impulse}: it sticks");
    }

    /// Newton's method on the primal gives the sweeps' answers, each contact hard to within
    /// its regularization (10⁻⁴ of its Delassus scale): impulses within 10⁻³ of them.
    #[test]
    fn newtons_method_stops_the_ball_lets_the_rising_one_go_and_slides_on_the_cone() {
        let close = |a: Vector3<f64>, b: Vector3<f64>| (a - b).norm() <= 1e-3 * b.norm().max(1.0);
        let lever = Vector3::new(0.0, 0.0, -10.0);
        let mut falling = vec![ball(2.0, Vector3::new(0.0, 0.0, -30.0))];
        let impulse = solve_with(&mut falling, &[on_ground(lever, 0.5)], true)[0];
        assert!(close(impulse, Vector3::new(0.0, 0.0, 60.0)), "{impulse}");
        assert!(falling[0].linear.norm() < 0.01, "{:?}", falling[0].linear);
        let mut rising = vec![ball(2.0, Vector3::new(0.0, 0.0, 5.0))];
        let impulse = solve_with(&mut rising, &[on_ground(lever, 0.5)], true)[0];
        assert_eq!(impulse, Vector3::zeros());
        assert_eq!(rising[0].linear.z, 5.0);
        // At no lever, fast: friction on the cone's edge against the slip, and the contact
        // stays touching (Coulomb's law, not the convex relaxation, where it would leave at
        // μ times its slip speed): the sweeps' answer.
        let row = on_ground(Vector3::zeros(), 0.5);
        let mut fast = vec![ball(1.0, Vector3::new(10.0, 0.0, -4.0))];
        let impulse = solve_with(&mut fast, std::slice::from_ref(&row), true)[0];
        assert!(close(impulse, Vector3::new(-2.0, 0.0, 4.0)), "{impulse}");
        assert!(
            (impulse.x + 0.5 * impulse.z).abs() < 1e-6 * impulse.z,
            "{impulse}"
        );
        let after = fast[0].linear;
        assert!(
            (after.x - 8.0).abs() < 1e-2 && after.z.abs() < 1e-2,
            "{after:?}"
        );
        let mut slow = vec![ball(1.0, Vector3::new(1.0, 0.0, -4.0))];
        let impulse = solve_with(&mut slow, &[row], true)[0];
        assert!(close(impulse, Vector3::new(-1.0, 0.0, 4.0)), "{impulse}");
        assert!(
            slow[0].linear.norm() < 1e-2,
            "it sticks: {:?}",
            slow[0].linear
        );
    }
}
