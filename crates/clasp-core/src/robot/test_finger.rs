//! The robot the unit tests of the robot's files build: chain 0 of GraspIt's Barrett hand.

use std::f64::consts::PI;

use nalgebra::{Point3, Vector3};

use super::{
    Robot,
    chain::{Chain, Coupling, Joint, JointDynamics, JointFrame, JointKind, Link, rotation_about},
    dof::{Dof, DofKind},
};
use crate::{
    body::{BodyKind, test_bodies::triangle},
    pose::Pose,
};

pub(super) fn revolute(
    dof: usize,
    ratio: f64,
    offset_deg: f64,
    a: f64,
    alpha_deg: f64,
    max_deg: f64,
) -> Joint {
    Joint {
        kind: JointKind::Revolute,
        coupling: Coupling {
            dof,
            ratio,
            offset: offset_deg.to_radians(),
        },
        frame: JointFrame::DenavitHartenberg {
            theta: 0.0,
            d: 0.0,
            a,
            alpha: alpha_deg.to_radians(),
        },
        min: 0.0,
        max: max_deg.to_radians(),
        dynamics: JointDynamics::default(),
    }
}

/// Chain 0 of GraspIt's Barrett hand, whose link origins graspit-spec §7.1 lists.
pub(super) fn barrett_finger() -> Robot {
    let base = Pose::translation(25.0, 0.0, -1.0) * rotation_about(Vector3::y_axis(), PI);
    let joints = vec![
        revolute(0, 1.0, 90.0, 50.0, -90.0, 180.0),
        revolute(1, 1.0, 5.0, 70.0, 0.0, 144.0),
        revolute(1, 1.0 / 3.0, 40.0, 55.0, 0.0, 144.0),
    ];
    let links = (0..3)
        .map(|i| Link {
            body: triangle("link", BodyKind::Link),
            frame: Some(i),
        })
        .collect();
    let dof = |v| Dof::new(DofKind::Rigid, v, 0.0);
    Robot::new(
        "barrett".into(),
        triangle("palm", BodyKind::Palm),
        vec![dof(0.0), dof(1.0)],
        vec![Chain::from_palm(base, joints, links)],
        None,
    )
}

pub(super) fn link_origins(robot: &Robot) -> Vec<Point3<f64>> {
    robot.chains[0]
        .links
        .iter()
        .map(|l| l.body.pose * Point3::origin())
        .collect()
}
