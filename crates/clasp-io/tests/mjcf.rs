//! MuJoCo's MJCF read into worlds: Clasp's own three-finger model (default classes from an
//! include, every orientation MJCF writes, couplings, primitives, a free cube), worlds written
//! by `save_mjcf` read back where they stood, and bad files named by file and line.
//! (Forward kinematics against MuJoCo's own is checked in pytest, where MuJoCo is.)

use std::path::{Path, PathBuf};

use clasp_core::{BodyKind, JointKind, Pose, Robot, RobotId, World};
use clasp_io::{Disk, Embedded, FileKind, default_world, load_any_robot, load_world, save_mjcf};
use nalgebra::{UnitQuaternion, Vector3};

fn models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models")
}

fn three_finger() -> PathBuf {
    models().join("robots/ClaspMJCF/three_finger.xml")
}

fn first_robot(world: &World) -> &Robot {
    world.robot(RobotId::from_index(0)).unwrap()
}

#[test]
fn the_three_finger_model_reads_as_a_hand_a_cube_and_a_floor() {
    assert_eq!(FileKind::of(&Disk, &three_finger()), Ok(FileKind::Mjcf));
    let world = load_world(&Disk, &three_finger(), None).unwrap();
    let hand = first_robot(&world);
    assert_eq!(hand.name, "clasp_three_finger");
    // f2_tip follows f2_bend: six joints, five DOFs.
    assert_eq!(hand.dofs.len(), 5);
    let joints: Vec<usize> = hand.chains().iter().map(|c| c.joints.len()).collect();
    assert_eq!(joints, vec![3, 2, 1]);
    let names: Vec<&str> = hand.bodies().map(|b| b.name.as_str()).collect();
    assert_eq!(
        names,
        ["palm", "f1_base", "f1_tip", "f2_base", "f2_tip", "thumb"]
    );
    // The palm is its box: the drawn-only sphere is left out.
    let (lo, hi) = hand.palm().mesh().bounding_box();
    assert!(((hi - lo) - Vector3::new(80.0, 80.0, 20.0)).norm() < 1e-9);
    // eulerseq zyx turns about z, then the turned y, then the turned x; degrees.
    let want = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 10f64.to_radians())
        * UnitQuaternion::from_axis_angle(&Vector3::y_axis(), 20f64.to_radians())
        * UnitQuaternion::from_axis_angle(&Vector3::x_axis(), 30f64.to_radians());
    assert!(hand.palm().pose().rotation.angle_to(&want) < 1e-12);
    assert!((hand.palm().pose().translation.vector - Vector3::new(0.0, 0.0, 100.0)).norm() < 1e-9);

    // Limits in radians and millimetres; the spread class's axis and range.
    let spread = &hand.chains()[0].joints[0];
    assert!((spread.max - 30f64.to_radians()).abs() < 1e-12);
    let slide = &hand.chains()[2].joints[0];
    assert_eq!(slide.kind, JointKind::Prismatic);
    assert_eq!((slide.min, slide.max), (-10.0, 20.0));
    // q(f2_tip) = 0.1 + 0.5 q(f2_bend), radians whatever the compiler's angle unit.
    let coupled = &hand.chains()[1].joints[1];
    assert_eq!((coupled.coupling.dof, coupled.coupling.ratio), (3, 0.5));
    assert!((coupled.coupling.offset - 0.1).abs() < 1e-12);
    // f1_tip's ref of 10°: MuJoCo's qpos0 puts the DOF there and turns by q − ref.
    assert!((hand.dof_values()[2] - 10f64.to_radians()).abs() < 1e-12);
    // A DOF without a ref starts at 0, not −0 (the app would show "-0°").
    assert!(hand.dof_values()[0] == 0.0 && hand.dof_values()[0].is_sign_positive());
    // Actuators: kp and forcerange in Clasp's units (g·mm²/s² per N·m; g·mm/s² per N).
    assert_eq!(hand.dofs[0].kp, 5.0e9);
    assert_eq!(hand.dofs[0].max_effort, 1.0e9);
    assert_eq!(hand.dofs[1].max_effort, 0.5e9);
    assert_eq!(hand.dofs[4].max_effort, 20.0e6);

    let free: Vec<_> = world.free_bodies().map(|(_, b)| b).collect();
    assert_eq!(free.len(), 2);
    assert_eq!(
        (free[0].name.as_str(), free[0].kind),
        ("floor", BodyKind::Obstacle)
    );
    // A world geom's body stands where the geom does: the floor's surface at its pos, z = −0.2 m,
    // a 10 mm slab under it.
    assert!((free[0].pose().translation.vector - Vector3::new(0.0, 0.0, -200.0)).norm() < 1e-9);
    let (lo, hi) = free[0].mesh().bounding_box();
    assert_eq!((lo.z, hi.z, hi.x), (-10.0, 0.0, 300.0));
    let cube = free[1];
    assert_eq!(
        (cube.name.as_str(), cube.kind),
        ("cube", BodyKind::Graspable)
    );
    assert!((cube.mass.mass - 100.0).abs() < 1e-9);
    assert!((cube.mass.cog.z - 1.0).abs() < 1e-12);
    // 2e-5 kg·m² is 2e4 g·mm², per gram of 100 g.
    assert!((cube.mass.inertia[(0, 0)] - 200.0).abs() < 1e-9);
    assert!(cube.mesh().is_closed());
    assert_eq!(world.time_step(), 0.001);
}

#[test]
fn an_mjcf_hand_loads_as_a_robot() {
    let hand = load_any_robot(&Disk, &three_finger()).unwrap();
    assert_eq!(hand.dofs.len(), 5);
}

/// Every body of the world, in order, with its pose.
fn poses(world: &World) -> Vec<(String, Pose)> {
    let mut all: Vec<(String, Pose)> = world
        .free_bodies()
        .map(|(_, b)| (b.name.clone(), b.pose()))
        .collect();
    for (_, robot) in world.robots() {
        all.extend(robot.bodies().map(|b| (b.name.clone(), b.pose())));
    }
    all
}

fn assert_same_poses(before: &World, after: &World) {
    let (a, b) = (poses(before), poses(after));
    assert_eq!(a.len(), b.len(), "{a:?}\n{b:?}");
    for ((name, p), (_, q)) in a.iter().zip(&b) {
        let moved = (p.translation.vector - q.translation.vector).norm();
        assert!(moved < 1e-6, "{name} moved {moved} mm");
        assert!(p.rotation.angle_to(&q.rotation) < 1e-9, "{name} turned");
    }
}

/// `world` written by `save_mjcf` in a folder of its own, and what `read` makes of the file.
fn saved_as_mjcf<T>(world: &World, name: &str, read: impl FnOnce(&Path) -> T) -> T {
    let folder = std::env::temp_dir().join(format!("clasp_mjcf_{}_{name}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join(format!("{name}.xml"));
    save_mjcf(world, &path).unwrap();
    let answer = read(&path);
    std::fs::remove_dir_all(&folder).ok();
    answer
}

fn round_trip(world: &World, name: &str) -> World {
    saved_as_mjcf(world, name, |path| load_world(&Disk, path, None).unwrap())
}

/// GraspIt's Barrett alone in a world at the DOF values `dofs`, or `None` (said) without
/// GraspIt's models.
fn graspits_barrett(dofs: &[f64]) -> Option<World> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/graspit-models");
    let barrett = root.join("robots/Barrett/Barrett.xml");
    if !barrett.exists() {
        eprintln!("skipped: GraspIt's models are not at {}", root.display());
        return None;
    }
    let mut world = World::new(Vec::new(), vec![load_any_robot(&Disk, &barrett).unwrap()]);
    world.set_dof_values(RobotId::from_index(0), dofs).unwrap();
    Some(world)
}

#[test]
fn a_world_written_as_mjcf_reads_back_where_it_stood() {
    let mut world = default_world().unwrap();
    let hand = RobotId::from_index(0);
    let count = first_robot(&world).dofs.len();
    let values: Vec<f64> = (0..count)
        .map(|d| {
            let (lo, hi) = first_robot(&world).dof_limits(d);
            lo + 0.37 * (hi - lo)
        })
        .collect();
    world.set_dof_values(hand, &values).unwrap();
    let read = round_trip(&world, "default");
    assert_same_poses(&world, &read);
    assert_eq!(first_robot(&read).dofs.len(), count);
    let cube = read.free_bodies().next().unwrap().1;
    assert!((cube.mass.mass - world.free_body(0).unwrap().mass.mass).abs() < 1e-9);
}

#[test]
fn graspits_barrett_written_as_mjcf_reads_back_where_it_stood() {
    let Some(world) = graspits_barrett(&[0.4, 1.1, 0.7, 1.5]) else {
        return;
    };
    let read = round_trip(&world, "barrett");
    assert_same_poses(&world, &read);
    // Coupled joints come back as couplings, so the DOFs are the Barrett's four.
    assert_eq!(first_robot(&read).dofs.len(), 4);
}

/// The `ctrl` list of the keyframe `save_mjcf` writes for `world`.
fn keyframe_controls(world: &World, name: &str) -> Vec<f64> {
    let text = saved_as_mjcf(world, name, |path| std::fs::read_to_string(path).unwrap());
    let key = text
        .lines()
        .find(|l| l.contains("<key "))
        .expect("a keyframe");
    let list = key
        .split("ctrl=\"")
        .nth(1)
        .expect("the keyframe's controls");
    let list = &list[..list.find('"').unwrap()];
    list.split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect()
}

#[test]
fn the_keyframe_drives_each_actuator_where_its_dof_stands_or_is_driven_to() {
    let Some(mut world) = graspits_barrett(&[0.4, 1.1, 0.7, 1.5]) else {
        return;
    };
    let hand = RobotId::from_index(0);
    // Each DOF's actuator is on its first joint, which moves by its ratio times the DOF.
    let first_ratios: Vec<f64> = (0..4)
        .map(|d| {
            let robot = first_robot(&world);
            let joints = robot.chains().iter().flat_map(|c| &c.joints);
            joints
                .filter(|j| j.coupling.dof == d)
                .map(|j| j.coupling.ratio)
                .next()
                .unwrap()
        })
        .collect();
    let at = |dofs: [f64; 4]| -> Vec<f64> {
        dofs.iter().zip(&first_ratios).map(|(q, r)| q * r).collect()
    };
    let close = |a: &[f64], b: &[f64]| {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
    };
    // Undriven, the hand holds where it stands.
    let standing = keyframe_controls(&world, "standing");
    assert!(close(&standing, &at([0.4, 1.1, 0.7, 1.5])), "{standing:?}");
    // Driven, each actuator goes on to its DOF's target.
    world.drive_robot(hand, &[0.5, 1.3, 0.9, 1.6]).unwrap();
    let driven = keyframe_controls(&world, "driven");
    assert!(close(&driven, &at([0.5, 1.3, 0.9, 1.6])), "{driven:?}");
}

/// In-memory files: (path, text).
type Files = &'static [(&'static str, &'static str)];

/// An error reading `main.xml` among `files`.
fn error_of(files: &[(&'static str, &'static str)]) -> clasp_io::LoadError {
    let source = Embedded::new(files.iter().copied());
    match load_world(&source, Path::new("m/main.xml"), None) {
        Ok(_) => panic!("{files:?} loaded"),
        Err(e) => e,
    }
}

const HAND_START: &str = "<mujoco>\n<worldbody>\n<body name=\"palm\">\n<geom size=\"0.01\"/>\n";
const HAND_END: &str = "</body>\n</worldbody>\n</mujoco>\n";

#[test]
fn bad_mjcf_is_named_by_file_and_line() {
    let cases: &[(Files, &str, usize, &str)] = &[
        (
            &[("m/main.xml", "<mujoco>\n<worldbody>\n<body>\n</worldbody>")],
            "m/main.xml",
            4,
            "malformed XML",
        ),
        (
            &[(
                "m/main.xml",
                "<mujoco>\n<asset>\n<mesh file=\"gone.stl\"/>\n</asset>\n<worldbody>\n<geom type=\"mesh\" mesh=\"gone\"/>\n</worldbody>\n</mujoco>",
            )],
            "m/main.xml",
            3,
            "missing mesh file m/gone.stl",
        ),
        (
            &[(
                "m/main.xml",
                "<mujoco>\n<worldbody>\n<body name=\"palm\">\n<geom size=\"0.01\"/>\n<body>\n<joint type=\"ball\"/>\n<geom size=\"0.01\"/>\n</body>\n</body>\n</worldbody>\n</mujoco>",
            )],
            "m/main.xml",
            6,
            "a ball joint",
        ),
        (
            &[(
                "m/main.xml",
                "<mujoco>\n<worldbody>\n<geom class=\"nope\" size=\"1\"/>\n</worldbody>\n</mujoco>",
            )],
            "m/main.xml",
            3,
            "default class \"nope\"",
        ),
        (
            &[
                (
                    "m/main.xml",
                    "<mujoco>\n<include file=\"a.xml\"/>\n</mujoco>",
                ),
                (
                    "m/a.xml",
                    "<mujoco>\n\n<include file=\"main.xml\"/>\n</mujoco>",
                ),
            ],
            "m/a.xml",
            3,
            "loops",
        ),
        (
            &[
                (
                    "m/main.xml",
                    "<mujoco>\n<include file=\"a.xml\"/>\n</mujoco>",
                ),
                (
                    "m/a.xml",
                    "<mujoco>\n<worldbody>\n<geom type=\"hfield\" size=\"1 1 1 1\"/>\n</worldbody>\n</mujoco>",
                ),
            ],
            "m/a.xml",
            3,
            "geom type \"hfield\"",
        ),
        (
            &[(
                "m/main.xml",
                "<mujoco>\n<worldbody>\n<body name=\"palm\">\n<geom size=\"0.01\"/>\n<body name=\"a\">\n<joint name=\"j\"/>\n<geom size=\"0.01\"/>\n</body>\n</body>\n</worldbody>\n<equality>\n<connect body1=\"a\" body2=\"palm\" anchor=\"0 0 0\"/>\n</equality>\n</mujoco>",
            )],
            "m/main.xml",
            12,
            "closes a loop",
        ),
        (
            &[(
                "m/main.xml",
                "<mujoco>\n<worldbody>\n<body>\n<body>\n<freejoint/>\n<geom size=\"1\"/>\n</body>\n</body>\n</worldbody>\n</mujoco>",
            )],
            "m/main.xml",
            5,
            "free joint in a body inside another",
        ),
        (
            &[(
                "m/main.xml",
                "<mujoco>\n<worldbody>\n<body quat=\"0 0 0 0\">\n<geom size=\"1\"/>\n</body>\n</worldbody>\n</mujoco>",
            )],
            "m/main.xml",
            3,
            "quat has zero length",
        ),
        (
            &[(
                "m/main.xml",
                "<mujoco>\n<worldbody>\n<body>\n<freejoint/>\n<geom size=\"1\"/>\n</body>\n</worldbody>\n<keyframe>\n<key name=\"clasp\" qpos=\"0 0 0 1 0 0\"/>\n</keyframe>\n</mujoco>",
            )],
            "m/main.xml",
            9,
            "has 6 qpos values; the model has 7",
        ),
        (
            &[(
                "m/main.xml",
                "<mujoco>\n<worldbody>\n<geom size=\"NaN\"/>\n</worldbody>\n</mujoco>",
            )],
            "m/main.xml",
            3,
            "not a list of finite numbers",
        ),
    ];
    for (files, file, line, message) in cases {
        let error = error_of(files);
        assert_eq!(error.file, Path::new(file), "{error}");
        assert_eq!(error.line, Some(*line), "{error}");
        assert!(error.message.contains(message), "{error}");
    }
}

/// A body with two moving children starts a branch on its joint, as in URDF; the DOFs follow
/// the body tree's order (MuJoCo's qpos).
#[test]
fn a_branching_mjcf_hand_loads_as_a_tree() {
    let branching = format!(
        "{HAND_START}<body name=\"a\">\n<joint name=\"ja\"/>\n<geom size=\"0.01\"/>\n<body name=\"b\"><joint name=\"jb\"/><geom size=\"0.01\"/></body>\n<body name=\"c\" pos=\"0 0.03 0\"><joint name=\"jc\"/><geom size=\"0.01\"/></body>\n</body>\n{HAND_END}"
    );
    let text: &'static str = Box::leak(branching.into_boxed_str());
    let source = Embedded::new([("m/main.xml", text)]);
    let world = load_world(&source, Path::new("m/main.xml"), None).unwrap();
    let hand = first_robot(&world);
    assert_eq!(hand.chains().len(), 2);
    assert_eq!(
        hand.chains()[1].parent,
        Some(clasp_core::ChainParent { chain: 0, joint: 0 })
    );
    assert_eq!(hand.dofs.len(), 3);
}
