//! Clasp's own models in `models/` load from disk, are closed meshes, and the hand is built right.

use std::path::{Path, PathBuf};

use clasp_core::{BodyId, BodyKind, Material, RobotId, TriMesh};
use clasp_io::{Disk, load_body, load_robot, load_urdf, load_world};
use nalgebra::Point3;

fn models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models")
}

/// A closed, consistently wound mesh (`TriMesh::is_closed`) with no triangle dropped.
fn assert_closed(mesh: &TriMesh, what: &str) {
    assert!(
        mesh.is_closed(),
        "{what} has open or inconsistently wound edges"
    );
    assert_eq!(
        mesh.dropped_degenerate(),
        0,
        "{what} has degenerate triangles"
    );
}

#[test]
fn objects_are_closed_meshes_with_their_materials() {
    for (name, material) in [
        ("clasp_mug", Material::Glass),
        ("clasp_sphere", Material::Rubber),
        ("clasp_box", Material::Wood),
    ] {
        let path = models().join(format!("objects/{name}.xml"));
        let body = load_body(&Disk, &path, BodyKind::Graspable).unwrap();
        assert_eq!(body.material, material, "{name}");
        assert!(
            body.mass.mass > 0.0 && !body.mass.open_mesh_estimate,
            "{name}"
        );
        assert_closed(body.mesh(), name);
        let (lo, _) = body.mesh().bounding_box();
        assert!(
            lo.z.abs() < 1e-9 || name == "clasp_sphere",
            "{name} stands on z = 0"
        );
    }
}

#[test]
fn the_hand_has_four_dofs_three_chains_and_closed_links() {
    let robot = load_robot(&Disk, &models().join("robots/ClaspHand/ClaspHand.xml")).unwrap();
    assert_eq!(robot.name, "ClaspHand");
    assert_eq!(robot.dofs.len(), 4);
    assert_eq!(
        robot
            .chains()
            .iter()
            .map(|c| c.links.len())
            .collect::<Vec<_>>(),
        vec![3, 3, 2]
    );
    for body in robot.bodies() {
        assert_closed(body.mesh(), &body.name);
    }
    assert_eq!(
        robot.chains()[2].links[1].body.name,
        "ClaspHand_chain2_link1"
    );
    let approach = robot.approach.as_ref().unwrap();
    assert_eq!(approach.direction.into_inner(), nalgebra::Vector3::z());
    // Spread 0..90 degrees, flexion 0..100 degrees (the distal joint allows 2 x 50).
    let (lo, hi) = robot.dof_limits(0);
    assert!(lo.abs() < 1e-12 && (hi - 90f64.to_radians()).abs() < 1e-12);
    let (lo, hi) = robot.dof_limits(1);
    assert!(lo.abs() < 1e-12 && (hi - 100f64.to_radians()).abs() < 1e-12);
}

#[test]
fn the_urdf_hand_puts_every_link_where_the_graspit_hand_does() {
    let hand = models().join("robots/ClaspHand");
    let mut graspit = load_robot(&Disk, &hand.join("ClaspHand.xml")).unwrap();
    let mut urdf = load_urdf(&Disk, &hand.join("ClaspHand.urdf")).unwrap();
    assert_eq!(urdf.name, "ClaspHand");
    assert_eq!(urdf.dofs.len(), graspit.dofs.len());
    for dof in 0..graspit.dofs.len() {
        let (a, b) = (graspit.dof_limits(dof), urdf.dof_limits(dof));
        assert!(
            (a.0 - b.0).abs() < 1e-12 && (a.1 - b.1).abs() < 1e-12,
            "DOF {dof}: {a:?} vs {b:?}"
        );
    }
    let shape = |r: &clasp_core::Robot| {
        r.chains()
            .iter()
            .map(|c| (c.joints.len(), c.links.len()))
            .collect::<Vec<_>>()
    };
    assert_eq!(shape(&urdf), shape(&graspit));
    assert_eq!(
        urdf.palm().mesh().vertices(),
        graspit.palm().mesh().vertices()
    );
    // Closed, spread, flexed, and everything at once, each finger differently.
    for values in [
        [0.0, 0.0, 0.0, 0.0],
        [1.2, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.5, 1.5],
        [0.7, 1.7, 0.3, 0.9],
        // The largest values the limits allow: 90 degrees of spread, 100 of flexion.
        [
            90f64.to_radians(),
            100f64.to_radians(),
            100f64.to_radians(),
            100f64.to_radians(),
        ],
    ] {
        graspit.set_dof_values(&values).unwrap();
        urdf.set_dof_values(&values).unwrap();
        for (c, (a, b)) in graspit.chains().iter().zip(urdf.chains()).enumerate() {
            for (l, (a, b)) in a.links.iter().zip(&b.links).enumerate() {
                assert_eq!(
                    a.body.mesh().vertices(),
                    b.body.mesh().vertices(),
                    "chain {c} link {l}"
                );
                // Every vertex, so both position and orientation agree.
                for v in a.body.mesh().vertices() {
                    let (p, q) = (a.body.pose() * v, b.body.pose() * v);
                    assert!(
                        (p - q).norm() < 1e-6,
                        "{values:?} chain {c} link {l}: {p} vs {q}"
                    );
                }
                let origin =
                    (a.body.pose() * Point3::origin() - b.body.pose() * Point3::origin()).norm();
                assert!(
                    origin < 1e-6,
                    "{values:?} chain {c} link {l}: {origin} mm apart"
                );
            }
        }
    }
}

fn fingertip(robot: &clasp_core::Robot, chain: usize) -> Point3<f64> {
    let link = robot.chains()[chain].links.last().unwrap();
    link.body.pose() * Point3::origin()
}

#[test]
fn the_two_fingers_mirror_each_other_and_close_toward_the_thumb() {
    let mut robot = load_robot(&Disk, &models().join("robots/ClaspHand/ClaspHand.xml")).unwrap();
    for spread in [0.0, 0.5, 1.2] {
        robot.set_dof_values(&[spread, 0.4, 0.4, 0.4]).unwrap();
        let (a, b) = (fingertip(&robot, 0), fingertip(&robot, 1));
        assert!(
            (a.x + b.x).abs() < 1e-9 && (a.y - b.y).abs() < 1e-9 && (a.z - b.z).abs() < 1e-9,
            "{a} vs {b}"
        );
    }
    // Open, the fingertips stand above the palm; closing moves each toward the other side.
    robot.set_dof_values(&[0.0, 0.0, 0.0, 0.0]).unwrap();
    let (finger_open, thumb_open) = (fingertip(&robot, 0), fingertip(&robot, 2));
    assert!(
        finger_open.z > 50.0 && thumb_open.z > 50.0,
        "{finger_open} {thumb_open}"
    );
    robot.set_dof_values(&[0.0, 1.5, 1.5, 1.5]).unwrap();
    let (finger_closed, thumb_closed) = (fingertip(&robot, 0), fingertip(&robot, 2));
    assert!(
        finger_closed.y < finger_open.y - 30.0,
        "{finger_open} -> {finger_closed}"
    );
    assert!(
        thumb_closed.y > thumb_open.y + 30.0,
        "{thumb_open} -> {thumb_closed}"
    );
}

#[test]
fn the_default_world_places_the_hand_beside_the_mug() {
    let world = load_world(&Disk, &models().join("worlds/default.xml"), None).unwrap();
    // The mug, standing 1 mm above the table's top.
    assert_eq!(world.free_bodies().count(), 2);
    let (mug, table) = (world.free_body(0).unwrap(), world.free_body(1).unwrap());
    let (mug_bottom, table_top) = (
        clasp_core::bounding_box([mug]).unwrap().0.z,
        clasp_core::bounding_box([table]).unwrap().1.z,
    );
    assert!(
        (mug_bottom - table_top - 1.0).abs() < 1e-9,
        "{mug_bottom} {table_top}"
    );
    let robot = world.robot(RobotId::from_index(0)).unwrap();
    assert_eq!(robot.dof_values(), &[0.0, 0.2, 0.2, 0.2]);
    // The palm faces the mug: its approach direction (+z) points along world +x.
    let approach = robot.pose() * nalgebra::Vector3::z();
    assert!(
        (approach - nalgebra::Vector3::x()).norm() < 1e-9,
        "{approach}"
    );
    // The palm's box ends before the mug's does: they do not overlap along the approach.
    let palm_max_x = robot
        .palm()
        .mesh()
        .vertices()
        .iter()
        .map(|v| (robot.palm().pose() * v).x)
        .fold(f64::MIN, f64::max);
    let mug = world.body(BodyId::Free(0)).unwrap();
    let mug_min_x = mug
        .mesh()
        .vertices()
        .iter()
        .map(|v| (mug.pose() * v).x)
        .fold(f64::MAX, f64::min);
    assert!(
        palm_max_x < mug_min_x,
        "palm reaches x = {palm_max_x}, mug starts at {mug_min_x}"
    );
}

#[test]
fn a_missing_file_in_a_world_lists_the_places_tried() {
    let dir = std::env::temp_dir().join(format!("clasp-io-missing-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let world = dir.join("w.xml");
    std::fs::write(&world, "<world>\n<graspableBody><filename>models/objects/nothing.xml</filename></graspableBody>\n</world>\n").unwrap();
    let err = load_world(&Disk, &world, Some(Path::new("/graspit-root"))).unwrap_err();
    assert_eq!(err.line, Some(2), "{err}");
    assert!(
        err.message
            .contains("/graspit-root/models/objects/nothing.xml"),
        "{err}"
    );
    assert!(
        err.message
            .contains(&dir.join("models/objects/nothing.xml").display().to_string()),
        "{err}"
    );
}

#[test]
fn the_gripper_has_two_prismatic_jaws_of_closed_meshes_and_its_soft_twin_soft_jaws() {
    for (file, soft) in [("ClaspGripper.xml", false), ("ClaspGripperSoft.xml", true)] {
        let path = models().join("robots/ClaspGripper").join(file);
        let robot = load_robot(&Disk, &path).unwrap();
        assert_eq!(robot.dofs.len(), 2, "{file}");
        assert_eq!(robot.chains().len(), 2, "{file}");
        for dof in 0..2 {
            assert!(!robot.dof_is_revolute(dof), "{file}: DOF {dof} slides");
            assert_eq!(robot.dof_limits(dof), (0.0, 90.0), "{file}");
            assert_eq!(robot.dofs[dof].max_effort, 1.25e7, "{file}: 12.5 N");
        }
        for body in robot.bodies() {
            assert_closed(body.mesh(), &body.name);
        }
        let jaws_soft = robot
            .chains()
            .iter()
            .all(|c| c.links[0].body.youngs.is_some());
        assert_eq!(jaws_soft, soft, "{file}");
    }
}
