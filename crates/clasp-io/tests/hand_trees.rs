//! Hands whose fingers branch below the root (a wrist carrying a palm of fingers, a thumb
//! base off the palm, as the Shadow's are): Clasp's hand tree model, read from URDF, put
//! every link where an independent product of the file's transforms puts it, at 100 random
//! postures; written to MJCF and read back it stands the same; Auto Grasp closes it on an
//! object between its fingers and the physics test runs on the grasp.

use std::{collections::HashMap, path::PathBuf};

use clasp_collide::shapes;
use clasp_core::{Body, BodyId, BodyKind, HoldSettings, Pose, Robot, RobotId, World};
use clasp_io::{Disk, load_any_robot, load_urdf, save_mjcf};
use clasp_random::SplitMix64;
use nalgebra::{Point3, Translation3, Unit, UnitQuaternion, Vector3};
use quick_xml::events::Event;

const POSTURES: usize = 100;

fn tree_hand_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../models/robots/ClaspTreeHand/ClaspTreeHand.urdf")
}

/// One URDF joint as the file writes it, metres and radians.
#[derive(Debug, Default, Clone)]
struct FileJoint {
    name: String,
    kind: String,
    parent: String,
    child: String,
    xyz: [f64; 3],
    rpy: [f64; 3],
    axis: [f64; 3],
    /// (joint, multiplier, offset)
    mimic: Option<(String, f64, f64)>,
}

fn numbers(text: &str) -> [f64; 3] {
    let v: Vec<f64> = text
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    [v[0], v[1], v[2]]
}

/// The file's joints, read with a plain XML reader (not Clasp's URDF reader).
fn file_joints(text: &str) -> Vec<FileJoint> {
    let mut reader = quick_xml::Reader::from_str(text);
    let mut joints = Vec::new();
    let mut current: Option<FileJoint> = None;
    loop {
        match reader.read_event().unwrap() {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) => {
                let attr = |name: &str| {
                    e.attributes()
                        .flatten()
                        .find(|a| a.key.0 == name)
                        .map(|a| a.value.into_owned())
                };
                match (e.name().0, current.as_mut()) {
                    ("joint", None) => {
                        current = Some(FileJoint {
                            name: attr("name").unwrap(),
                            kind: attr("type").unwrap(),
                            axis: [1.0, 0.0, 0.0],
                            ..FileJoint::default()
                        })
                    }
                    ("parent", Some(j)) => j.parent = attr("link").unwrap(),
                    ("child", Some(j)) => j.child = attr("link").unwrap(),
                    ("origin", Some(j)) => {
                        j.xyz = attr("xyz").map_or([0.0; 3], |t| numbers(&t));
                        j.rpy = attr("rpy").map_or([0.0; 3], |t| numbers(&t));
                    }
                    ("axis", Some(j)) => j.axis = numbers(&attr("xyz").unwrap()),
                    ("mimic", Some(j)) => {
                        let number = |n: &str, d: f64| attr(n).map_or(d, |t| t.parse().unwrap());
                        j.mimic = Some((
                            attr("joint").unwrap(),
                            number("multiplier", 1.0),
                            number("offset", 0.0),
                        ));
                    }
                    _ => {}
                }
            }
            Event::End(e) if e.name().0 == "joint" => joints.extend(current.take()),
            _ => {}
        }
    }
    joints
}

/// Each link's pose in the root's frame (mm), the joints at `dofs` (one per joint that is
/// movable and mimics none, in file order): the product of each joint's origin (xyz, then
/// roll-pitch-yaw as URDF composes them) and its turn or slide, root to leaf.
fn reference_poses(joints: &[FileJoint], dofs: &[f64]) -> HashMap<String, Pose> {
    let mut value: HashMap<&str, f64> = HashMap::new();
    let driving = joints
        .iter()
        .filter(|j| j.kind != "fixed" && j.mimic.is_none());
    for (joint, &q) in driving.zip(dofs) {
        value.insert(&joint.name, q);
    }
    for joint in joints {
        if let Some((of, multiplier, offset)) = &joint.mimic {
            value.insert(&joint.name, multiplier * value[of.as_str()] + offset);
        }
    }
    let mut poses: HashMap<String, Pose> = HashMap::new();
    let root = joints
        .iter()
        .find(|j| !joints.iter().any(|k| k.child == j.parent))
        .unwrap();
    poses.insert(root.parent.clone(), Pose::identity());
    while poses.len() <= joints.len() {
        for joint in joints {
            if poses.contains_key(&joint.child) || !poses.contains_key(&joint.parent) {
                continue;
            }
            let [x, y, z] = joint.xyz.map(|v| v * 1000.0);
            let [r, p, w] = joint.rpy;
            let turn = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), w)
                * UnitQuaternion::from_axis_angle(&Vector3::y_axis(), p)
                * UnitQuaternion::from_axis_angle(&Vector3::x_axis(), r);
            let origin = Pose::from_parts(Translation3::new(x, y, z), turn);
            let axis = Unit::new_normalize(Vector3::from(joint.axis));
            let q = value.get(joint.name.as_str()).copied().unwrap_or(0.0);
            let motion = match joint.kind.as_str() {
                "prismatic" => Pose::from_parts(
                    Translation3::from(axis.into_inner() * q * 1000.0),
                    UnitQuaternion::identity(),
                ),
                "fixed" => Pose::identity(),
                _ => Pose::from_parts(
                    Translation3::identity(),
                    UnitQuaternion::from_axis_angle(&axis, q),
                ),
            };
            let pose = poses[&joint.parent] * origin * motion;
            poses.insert(joint.child.clone(), pose);
        }
    }
    poses
}

/// How far apart two poses put points on a 100 mm cube round their origins (mm).
fn apart(a: &Pose, b: &Pose) -> f64 {
    let corners = (0..8).map(|k| {
        Point3::new(
            if k & 1 == 0 { 0.0 } else { 100.0 },
            if k & 2 == 0 { 0.0 } else { 100.0 },
            if k & 4 == 0 { 0.0 } else { 100.0 },
        )
    });
    corners.map(|c| (a * c - b * c).norm()).fold(0.0, f64::max)
}

fn random_posture(robot: &Robot, random: &mut SplitMix64) -> Vec<f64> {
    (0..robot.dofs.len())
        .map(|dof| {
            let (lo, hi) = robot.dof_limits(dof);
            random.range(lo, hi)
        })
        .collect()
}

/// Each link body's pose by its name, relative to the palm.
fn link_poses(robot: &Robot) -> HashMap<String, Pose> {
    let palm = robot.pose().inverse();
    robot
        .chains()
        .iter()
        .flat_map(|c| &c.links)
        .map(|l| (l.body.name.clone(), palm * l.body.pose()))
        .collect()
}

#[test]
fn a_branching_hand_puts_every_link_where_the_file_s_transforms_do() {
    let file = tree_hand_file();
    let joints = file_joints(&std::fs::read_to_string(&file).unwrap());
    let mut hand = load_urdf(&Disk, &file).unwrap();
    // The wrist chain carries the palm and goes on into the first finger; the other three
    // fingers (the little one on its metacarpal) and the thumb branch off the palm's joint.
    assert_eq!(hand.chains().len(), 5);
    assert!(hand.chains()[1..].iter().all(|c| c.parent.is_some()));
    assert_eq!(hand.dofs.len(), 23, "24 joints, one of them mimics");
    hand.set_pose(Pose::translation(40.0, -25.0, 300.0));
    let mut random = SplitMix64::new(1);
    let mut worst: f64 = 0.0;
    for _ in 0..POSTURES {
        let values = random_posture(&hand, &mut random);
        hand.set_dof_values(&values).unwrap();
        let want = reference_poses(&joints, &values);
        let got = link_poses(&hand);
        assert_eq!(got.len(), 24, "every moving link has a body");
        for (name, pose) in &got {
            worst = worst.max(apart(pose, &want[name]));
        }
    }
    println!("worst distance from the reference: {worst:.2e} mm");
    assert!(worst < 1e-6, "{worst} mm");
}

/// The tree hand in a world with a box between its fingers, in front of its palm.
fn hand_and_box(hand: Robot) -> World {
    let block = Body::from_mesh(
        "block",
        BodyKind::Graspable,
        shapes::cuboid([-25.0, -60.0, 130.0], [25.0, -15.0, 175.0]),
    );
    World::new(vec![block], vec![hand])
}

#[test]
fn a_branching_hand_written_to_mjcf_stands_the_same_when_read_back() {
    let mut hand = load_urdf(&Disk, &tree_hand_file()).unwrap();
    let folder = tempfile_folder("tree-mjcf");
    let path = folder.join("tree.xml");
    let mut random = SplitMix64::new(2);
    let mut worst: f64 = 0.0;
    // The posture goes through the keyframe, whose values follow MuJoCo's body tree, where a
    // branch's joints come in the middle of the chain it starts on.
    for _ in 0..10 {
        let values = random_posture(&hand, &mut random);
        hand.set_dof_values(&values).unwrap();
        save_mjcf(&hand_and_box(hand.clone()), &path).unwrap();
        let back = load_any_robot(&Disk, &path).unwrap();
        assert_eq!(back.dofs.len(), hand.dofs.len());
        let want = link_poses(&hand);
        let got = link_poses(&back);
        assert_eq!(got.len(), want.len());
        for (name, pose) in got {
            // The MJCF names a link after its robot.
            let own = name.trim_start_matches("robot0_");
            worst = worst.max(apart(&pose, &want[own]));
        }
    }
    println!("MJCF read back: worst {worst:.2e} mm");
    assert!(worst < 1e-6, "{worst} mm");
}

#[test]
fn auto_grasp_closes_a_branching_hand_on_a_block_and_the_grasp_is_tested() {
    let mut world = hand_and_box(load_urdf(&Disk, &tree_hand_file()).unwrap());
    let (hand, block) = (RobotId::from_index(0), BodyId::Free(0));
    let outcome = world.auto_grasp(hand).unwrap();
    assert!(!outcome.completed, "the fingers stop on the block");
    let touching: Vec<_> = world
        .contacts_of(block)
        .filter(|c| c.other.robot() == Some(hand))
        .collect();
    assert!(touching.len() >= 2, "{} contacts", touching.len());
    assert!(world.overlapping_pairs().is_empty());
    let test = world
        .test_grasp(hand, block, &HoldSettings::default())
        .unwrap();
    assert!(!test.directions.is_empty());
}

fn tempfile_folder(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("clasp-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

/// A batch's candidates leave a hand tree's wrist where it stands (its approach is the palm's
/// there), and its fingers' abductions too (drawn, neighbouring fingers turn into each other).
#[test]
fn batch_candidates_keep_the_wrist_and_the_abductions_where_they_stand() {
    let hand = load_urdf(&Disk, &tree_hand_file()).unwrap();
    let aims = clasp_core::draw_aims(&hand, 20, 3);
    let at_rest = |d: usize| aims.iter().all(|a| a.dofs[d] == hand.dof_values()[d]);
    assert!(at_rest(0) && at_rest(1), "the two wrist DOFs move");
    assert!(at_rest(2), "the first finger's abduction moves");
    let rolls: Vec<f64> = aims.iter().map(|a| a.roll).collect();
    assert!(rolls.windows(2).all(|w| w[0] != w[1]), "{rolls:?}");
}

/// A hand tree's palm is its forearm (the root link), and its wrist carries every finger: the
/// approach aims through the face of the link the fingers grow from (the palm box, 25 mm
/// thick), not the forearm's (35 mm), and toward the side the fingers close to.
#[test]
fn the_approach_aims_through_the_palm_the_fingers_grow_from_not_the_forearm() {
    let hand = load_urdf(&Disk, &tree_hand_file()).unwrap();
    let approach = hand.approach.clone().unwrap();
    let facing = approach.direction.into_inner();
    assert!(facing.y.abs() > 0.99, "{facing}");
    let face = approach.reference.coords.dot(&facing);
    assert!(
        (face - 12.5).abs() < 0.01,
        "the face {face} mm out, not the palm's 12.5"
    );
}
