//! What a grasp's squeeze did: each DOF's effort against its limit, the normal force on the
//! object, and what each finger touches.

use crate::{
    dynamics::robots::EFFORT_SHARE,
    ids::{BodyId, RobotId},
    world::{World, domain::Domain, error::MoveError},
};

/// How the hand pressed at the end of the squeeze: what its controllers gave, what reached
/// the object, and where each finger touched.
#[derive(Debug, Clone, PartialEq)]
pub struct Squeeze {
    /// Each DOF's controller effort over the squeeze's last step: torque (g·mm²/s²) for a
    /// revolute DOF, force (g·mm/s²) for a prismatic one — 10⁻⁶ N·mm and 10⁻⁶ N, GraspIt's
    /// `maxEffort` units. A finger stopped by what it touches presses at its limit.
    pub dof_efforts: Vec<f64>,
    /// The most each controller gives: `EFFORT_SHARE` of the DOF's `maxEffort`.
    pub effort_limits: Vec<f64>,
    /// The sum of the normal forces the hand presses the object with, g·mm/s².
    pub normal_force: f64,
    /// Each finger (chain) of the hand, in order.
    pub fingers: Vec<FingerTouch>,
}

/// Where one finger touched at the end of the squeeze.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FingerTouch {
    /// Whether one of its links touches the object.
    pub on_object: bool,
    /// The other fingers (chains) it touches: a finger that touches only those closed onto
    /// the hand, not the object.
    pub on_fingers: Vec<usize>,
    /// Whether it touches the palm.
    pub on_palm: bool,
}

impl Squeeze {
    /// How the hand `hand` presses `object` in `domain` after a step.
    pub(super) fn of(
        domain: &Domain<'_>,
        hand: RobotId,
        object: BodyId,
    ) -> Result<Self, MoveError> {
        let robot = domain.robot(hand).ok_or(MoveError::NoSuchRobot(hand))?;
        let effort_limits = robot
            .dofs
            .iter()
            .map(|d| EFFORT_SHARE * d.max_effort)
            .collect();
        let dt = domain.time_step();
        let normal_force = domain
            .contacts_of(object)
            .filter(|c| c.other.robot() == Some(hand))
            .map(|c| c.impulse.z.abs() / dt)
            .sum();
        Ok(Self {
            dof_efforts: domain.dof_efforts(hand)?,
            effort_limits,
            normal_force,
            fingers: fingers_touching(domain, hand, object)?,
        })
    }
}

/// Where each finger (chain) of the hand `hand` touches in `domain`: `object`, the other
/// fingers, the palm.
pub(super) fn fingers_touching(
    domain: &Domain<'_>,
    hand: RobotId,
    object: BodyId,
) -> Result<Vec<FingerTouch>, MoveError> {
    let robot = domain.robot(hand).ok_or(MoveError::NoSuchRobot(hand))?;
    let mut fingers = vec![
        FingerTouch {
            on_object: false,
            on_fingers: Vec::new(),
            on_palm: false,
        };
        robot.chains().len()
    ];
    for c in domain.robot_contacts(hand) {
        let BodyId::Link { chain, .. } = c.body else {
            continue;
        };
        let finger = &mut fingers[chain];
        match c.other {
            other if other == object => finger.on_object = true,
            BodyId::Link {
                robot,
                chain: other,
                ..
            } if robot == hand && other != chain && !finger.on_fingers.contains(&other) => {
                finger.on_fingers.push(other);
            }
            BodyId::Palm { robot } if robot == hand => finger.on_palm = true,
            _ => {}
        }
    }
    fingers
        .iter_mut()
        .for_each(|f| f.on_fingers.sort_unstable());
    Ok(fingers)
}

/// The DOF targets that move each closing DOF's contacts on `object` `distance` mm into it
/// (DexGraspNet's push toward the contact normals): a DOF moves its contact points toward
/// the object at a rate (mm per unit of the DOF) its links' Jacobians give; its target lies
/// `distance` over the fastest of its contacts' rates past where it stands, within its
/// limits. A closing DOF with no contact on the object squeezes by `fallback` (rad or mm).
pub(super) fn targets_moving_contacts<E: clasp_collide::CollisionEngine>(
    world: &World<E>,
    hand: RobotId,
    object: BodyId,
    distance: f64,
    fallback: f64,
) -> Result<Vec<f64>, MoveError> {
    let robot = world.find_robot(hand)?;
    let jacobians = robot.link_jacobians();
    let mut rates = vec![0.0_f64; robot.dofs.len()];
    for c in world.contacts_of(object) {
        let BodyId::Link {
            robot: r,
            chain,
            link,
        } = c.other
        else {
            continue;
        };
        let Some(body) = world.body(c.other).filter(|_| r == hand) else {
            continue;
        };
        let jacobian = &jacobians[robot.link_jacobian_index(chain, link)];
        let moves = jacobian.at_point(&(c.other_point - body.world_cog()));
        // Into the object: the way the link pushes it.
        let into = c.inward().into_inner();
        for (dof, rate) in rates.iter_mut().enumerate() {
            let closing = robot.dofs[dof].default_velocity.signum();
            *rate = rate.max(closing * moves.column(dof).dot(&into));
        }
    }
    Ok(robot.squeezed_by(|dof| match rates[dof] {
        rate if rate > 1e-9 => distance / rate,
        _ => fallback,
    }))
}
