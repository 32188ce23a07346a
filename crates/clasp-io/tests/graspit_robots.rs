//! GraspIt's own robot files load with every field, and the Barrett hand's links sit where its
//! Denavit–Hartenberg parameters put them (graspit-spec §7.1).
//!
//! These tests need GraspIt's model library in `../shared/graspit-models`; without it they say
//! so and pass. Its link geometry is Inventor, so they also need the Inventor reader.

use std::{f64::consts::PI, path::PathBuf};

use clasp_core::{DofKind, Robot};
use clasp_io::{Disk, load_robot};
use nalgebra::{Matrix4, Point3, Vector3};

fn robot_file(relative: &str) -> Option<PathBuf> {
    Some(
        clasp_io::fixtures::graspit_models()?
            .join("robots")
            .join(relative),
    )
}

fn load(relative: &str) -> Option<Robot> {
    let path = robot_file(relative)?;
    Some(load_robot(&Disk, &path).unwrap_or_else(|e| panic!("{e}")))
}

/// The textbook Denavit–Hartenberg matrix `Rz(θ) Tz(d) Tx(a) Rx(α)`, written out entry by
/// entry so the test does not share the loader's composition of poses.
fn dh(theta: f64, d: f64, a: f64, alpha: f64) -> Matrix4<f64> {
    let (st, ct, sa, ca) = (theta.sin(), theta.cos(), alpha.sin(), alpha.cos());
    Matrix4::new(
        ct,
        -st * ca,
        st * sa,
        a * ct, //
        st,
        ct * ca,
        -ct * sa,
        a * st, //
        0.0,
        sa,
        ca,
        d, //
        0.0,
        0.0,
        0.0,
        1.0,
    )
}

fn translation(x: f64, y: f64, z: f64) -> Matrix4<f64> {
    Matrix4::new_translation(&Vector3::new(x, y, z))
}

fn rotation(axis: Vector3<f64>, degrees: f64) -> Matrix4<f64> {
    Matrix4::from_scaled_axis(axis * degrees.to_radians())
}

/// Each Barrett link's frame in the palm frame, from Barrett.xml's numbers copied by hand:
/// chain transforms, then per joint θ = d + offset (degrees), a (mm), α (degrees).
fn barrett_frames(d: [f64; 4]) -> Vec<Vec<Matrix4<f64>>> {
    let (y, z) = (Vector3::y(), Vector3::z());
    let deg = f64::to_radians;
    let third = 0.333333333;
    let finger = |base: Matrix4<f64>, spread_alpha: f64, flex: f64| {
        let j1 = base * dh(d[0] + deg(90.0), 0.0, 50.0, deg(spread_alpha));
        let j2 = j1 * dh(flex + deg(5.0), 0.0, 70.0, 0.0);
        let j3 = j2 * dh(third * flex + deg(40.0), 0.0, 55.0, 0.0);
        vec![j1, j2, j3]
    };
    let thumb_base = translation(0.0, -50.0, -1.0) * rotation(y, -90.0) * rotation(z, -90.0);
    let t2 = thumb_base * dh(d[3] + deg(5.0), 0.0, 70.0, 0.0);
    let t3 = t2 * dh(third * d[3] + deg(40.0), 0.0, 55.0, 0.0);
    vec![
        finger(
            translation(25.0, 0.0, -1.0) * rotation(y, 180.0),
            -90.0,
            d[1],
        ),
        finger(translation(-25.0, 0.0, -1.0), 90.0, d[2]),
        vec![t2, t3],
    ]
}

fn assert_links_at(robot: &Robot, want: &[Vec<Matrix4<f64>>]) {
    for (c, (chain, frames)) in robot.chains().iter().zip(want).enumerate() {
        assert_eq!(chain.links.len(), frames.len());
        for (l, (link, frame)) in chain.links.iter().zip(frames).enumerate() {
            let got = link.body.pose().to_homogeneous();
            // Rotation entries are unitless; 1e-9 of them moves points 100 mm away by 1e-7 mm.
            let error = (got - frame).abs().max();
            assert!(error < 1e-9, "chain {c} link {l}: got {got}, want {frame}");
        }
    }
}

fn origins(robot: &Robot, chain: usize) -> Vec<Point3<f64>> {
    robot.chains()[chain]
        .links
        .iter()
        .map(|l| l.body.pose() * Point3::origin())
        .collect()
}

fn assert_near(got: &[Point3<f64>], want: &[[f64; 3]]) {
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert!((g - Point3::from(*w)).norm() < 1e-3, "got {g}, want {w:?}");
    }
}

#[test]
fn barrett_loads_with_its_dofs_chains_eigengrasps_and_approach() {
    let Some(robot) = load("Barrett/Barrett.xml") else {
        return;
    };
    assert_eq!(robot.name, "Barrett");
    assert_eq!(robot.robot_type.as_deref(), Some("Barrett"));
    assert_eq!(robot.db_name.as_deref(), Some("Barrett"));
    assert_eq!(robot.dofs.len(), 4);
    assert_eq!(robot.chains().len(), 3);
    assert_eq!(robot.bodies().count() - 1, 8, "links besides the palm");
    assert_eq!(robot.palm().mesh().triangles().len(), 268);
    assert_eq!(robot.dofs[0].kind, DofKind::Rigid);
    assert_eq!(
        (robot.dofs[0].max_effort, robot.dofs[0].kp, robot.dofs[0].kd),
        (5.0e10, 1.0e11, 1.0e7)
    );
    for (dof, effort) in robot.dofs[1..].iter().zip([2.5e9, 2.5e9, 5.0e9]) {
        assert_eq!(dof.kind, DofKind::Breakaway);
        assert_eq!((dof.max_effort, dof.dragger_scale), (effort, 20.0));
        assert_eq!(dof.breakaway_torque, 0.5);
    }
    let joint = &robot.chains()[0].joints[0];
    assert_eq!(joint.dynamics.viscous_friction, 5.0e7);
    let eigen = robot
        .eigen_grasps
        .as_ref()
        .expect("Barrett has eigengrasps");
    assert_eq!((eigen.dimensions, eigen.grasps.len()), (4, 2));
    assert_eq!(eigen.grasps[0].eigenvalue, 0.51);
    assert_eq!(eigen.grasps[0].values, vec![1.0, 0.0, 0.0, 0.0]);
    assert_eq!(eigen.grasps[1].values, vec![0.0, 1.0, 1.0, 1.0]);
    assert_eq!(
        eigen.origin.as_ref().unwrap().values,
        vec![1.13, 0.79, 0.79, 0.79]
    );
    let approach = robot
        .approach
        .as_ref()
        .expect("Barrett has an approach direction");
    assert_eq!(approach.reference, Point3::origin());
    assert_eq!(approach.direction.into_inner(), Vector3::z());
}

#[test]
fn barrett_links_sit_where_the_dh_parameters_put_them() {
    let Some(mut robot) = load("Barrett/Barrett.xml") else {
        return;
    };
    for d in [
        [0.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 1.0, 1.0],
        [PI / 2.0, 0.0, 0.0, 0.0],
        [0.7, 0.3, 1.9, 2.4],
    ] {
        robot.set_dof_values(&d).unwrap();
        assert_links_at(&robot, &barrett_frames(d));
    }
}

#[test]
fn barrett_links_match_the_spec_figures() {
    let Some(mut robot) = load("Barrett/Barrett.xml") else {
        return;
    };
    let finger = [
        [25.0, 50.0, -1.0],
        [25.0, 119.734, 5.101],
        [25.0, 158.625, 43.992],
    ];
    let mirrored = finger.map(|[x, y, z]| [-x, y, z]);
    assert_near(&origins(&robot, 0), &finger);
    assert_near(&origins(&robot, 1), &mirrored);
    assert_near(
        &origins(&robot, 2),
        &[[0.0, -119.734, 5.101], [0.0, -158.625, 43.992]],
    );
    robot.set_dof_values(&[0.0, 1.0, 1.0, 1.0]).unwrap();
    assert_near(
        &origins(&robot, 0),
        &[
            [25.0, 50.0, -1.0],
            [25.0, 82.544, 60.975],
            [25.0, 53.893, 107.923],
        ],
    );
    assert_near(
        &origins(&robot, 2),
        &[[0.0, -82.544, 60.975], [0.0, -53.893, 107.923]],
    );
    robot.set_dof_values(&[PI / 2.0, 0.0, 0.0, 0.0]).unwrap();
    let spread = [
        [75.0, 0.0, -1.0],
        [144.734, 0.0, 5.101],
        [183.625, 0.0, 43.992],
    ];
    assert_near(&origins(&robot, 0), &spread);
    assert_near(&origins(&robot, 1), &spread.map(|[x, y, z]| [-x, y, z]));
}

#[test]
fn barrett_bh8_280_reads_the_minus_offset() {
    let Some(robot) = load("BarrettBH8_280/BarrettBH8_280.xml") else {
        return;
    };
    assert_eq!((robot.dofs.len(), robot.chains().len()), (4, 3));
    // `<theta>d1-2.46</theta>`: GraspIt reads offset 0 there; the file means -2.46 degrees.
    let coupling = robot.chains()[0].joints[1].coupling;
    assert_eq!((coupling.dof, coupling.ratio), (1, 1.0));
    assert!((coupling.offset - (-2.46f64).to_radians()).abs() < 1e-15);
}

#[test]
fn mcgrip_with_double_dashes_in_comments_loads() {
    let Some(robot) = load("McHand/McGrip.xml") else {
        return;
    };
    assert_eq!(robot.robot_type.as_deref(), Some("McGrip"));
    assert_eq!((robot.dofs.len(), robot.chains().len()), (6, 2));
}
