//! Saving a world and loading it again gives the same world: bodies, names, poses, DOF values,
//! connections and camera. GraspIt's own worlds are checked in `graspit_library.rs`.

use std::path::{Path, PathBuf};

use clasp_core::{
    Body, BodyId, BodyKind, Camera, CollisionGroups, Connection, Element, Pose, RobotBody, RobotId,
    TriMesh, World, group_bit,
};
use clasp_io::{Disk, load_body, load_robot, load_world, load_world_with_warnings, save_world};
use nalgebra::{Point3, UnitQuaternion, Vector3};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fresh folder for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clasp-world-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn assert_same_pose(a: &Pose, b: &Pose, what: &str) {
    let dt = (a.translation.vector - b.translation.vector).norm();
    let dr = a.rotation.angle_to(&b.rotation);
    assert!(dt < 1e-9 && dr < 1e-9, "{what}: {a} vs {b}");
}

/// Everything a world file keeps.
fn assert_same_world(a: &World, b: &World) {
    assert_eq!(a.free_bodies().count(), b.free_bodies().count());
    for ((_, x), (_, y)) in a.free_bodies().zip(b.free_bodies()) {
        assert_eq!((&x.name, x.kind, x.material), (&y.name, y.kind, y.material));
        assert_eq!(x.groups(), y.groups(), "{}", x.name);
        assert_same_pose(&x.pose(), &y.pose(), &x.name);
        assert_eq!(x.mesh().vertices(), y.mesh().vertices(), "{}", x.name);
        assert_eq!(x.mesh().triangles(), y.mesh().triangles(), "{}", x.name);
        assert_eq!(x.mass.mass, y.mass.mass, "{}", x.name);
        assert_eq!(x.mass.cog, y.mass.cog, "{}", x.name);
        assert_eq!(x.mass.inertia, y.mass.inertia, "{}", x.name);
    }
    assert_eq!(a.robots().count(), b.robots().count());
    for ((_, x), (_, y)) in a.robots().zip(b.robots()) {
        assert_eq!(x.name, y.name);
        assert_eq!(x.dof_values(), y.dof_values(), "{}", x.name);
        assert_same_pose(&x.pose(), &y.pose(), &x.name);
        for (p, q) in x.bodies().zip(y.bodies()) {
            assert_same_pose(&p.pose(), &q.pose(), &p.name);
            assert_eq!(p.groups(), q.groups(), "{}", p.name);
        }
    }
    assert_eq!(a.connections().len(), b.connections().len());
    for (x, y) in a.connections().iter().zip(b.connections()) {
        let key = |c: &Connection| (c.parent_robot, c.parent_chain, c.child_robot);
        assert_eq!(key(x), key(y));
        let canonical = |c: &Connection| c.mount.as_ref().map(|m| m.canonicalize().unwrap());
        assert_eq!(canonical(x), canonical(y));
        assert_same_pose(&x.offset, &y.offset, "connection offset");
    }
    match (&a.camera, &b.camera) {
        (None, None) => {}
        (Some(x), Some(y)) => {
            assert!((x.position - y.position).norm() < 1e-9);
            assert!(x.orientation.angle_to(&y.orientation) < 1e-9);
            assert_eq!(x.focal_distance, y.focal_distance);
        }
        other => panic!("camera differs: {other:?}"),
    }
}

#[test]
fn the_default_scene_saves_and_loads_unchanged() {
    let original = load_world(&Disk, &workspace().join("models/worlds/default.xml"), None).unwrap();
    let dir = scratch("default");
    let saved = dir.join("default.xml");
    save_world(&original, &saved, None).unwrap();
    let text = std::fs::read_to_string(&saved).unwrap();
    // Outside any GraspIt root the files are named relative to the saved world's folder.
    assert!(text.contains("../"), "{text}");
    assert!(text.contains("<fullTransform>("), "{text}");
    let reloaded = load_world(&Disk, &saved, None).unwrap();
    assert_same_world(&original, &reloaded);
    assert!(
        !text.contains("<dynamics>"),
        "default dynamics are not written: {text}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn gravity_and_the_time_step_survive_saving() {
    let mut world =
        load_world(&Disk, &workspace().join("models/worlds/default.xml"), None).unwrap();
    world
        .set_gravity(nalgebra::Vector3::new(0.0, 0.0, -1620.0))
        .unwrap();
    world.set_time_step(0.0005).unwrap();
    let dir = scratch("moon");
    let saved = dir.join("moon.xml");
    save_world(&world, &saved, None).unwrap();
    let reloaded = load_world(&Disk, &saved, None).unwrap();
    assert_eq!(reloaded.gravity(), world.gravity());
    assert_eq!(reloaded.time_step(), 0.0005);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_saved_grasp_loads_with_its_contacts() {
    let mut world =
        load_world(&Disk, &workspace().join("models/worlds/default.xml"), None).unwrap();
    assert!(
        world.contacts().is_empty(),
        "the default hand starts apart from the mug"
    );
    world
        .approach_to_contact(RobotId::from_index(0), 400.0)
        .unwrap();
    world.auto_grasp(RobotId::from_index(0)).unwrap();
    assert!(!world.contacts().is_empty());
    let dir = scratch("grasped");
    let saved = dir.join("grasped.xml");
    save_world(&world, &saved, None).unwrap();
    let reloaded = load_world(&Disk, &saved, None).unwrap();
    let pairs = |w: &World| {
        let mut pairs: Vec<_> = w.contacts().iter().map(|c| (c.body, c.other)).collect();
        pairs.sort();
        pairs.dedup();
        pairs
    };
    assert_eq!(
        pairs(&reloaded),
        pairs(&world),
        "the same bodies touch after loading"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// A world with every part a world file holds: obstacle, graspable body, a body built in code,
/// two robots at odd poses and DOF values, a connection with a mount, and a camera.
fn full_world() -> World {
    let models = workspace().join("models");
    let mut world = load_world(&Disk, &models.join("worlds/default.xml"), None).unwrap();
    let mut arm = load_robot(&Disk, &models.join("robots/ClaspHand/ClaspHand.xml")).unwrap();
    arm.set_dof_values(&[0.1234567890123, 0.3, 1.0 / 3.0, 0.0])
        .unwrap();
    let odd = Pose::from_parts(
        Vector3::new(1.0 / 3.0, -2e-7, 123.456789).into(),
        UnitQuaternion::from_euler_angles(0.1, -0.7, 2.9),
    );
    arm.set_pose(odd);
    let fingertip = RobotBody::Link { chain: 1, link: 1 };
    assert!(arm.set_body_groups(
        fingertip,
        CollisionGroups::new(4, group_bit(1) | group_bit(4)).unwrap()
    ));
    world.add_robot(arm);
    let mesh = TriMesh::new(
        vec![
            Point3::new(0.1, 0.2, 0.3),
            Point3::new(10.0 / 3.0, 0.0, 0.0),
            Point3::new(0.0, 1e-3, 7.0),
            Point3::new(0.0, 0.0, -2.5),
        ],
        vec![[0, 1, 2], [0, 2, 3], [0, 3, 1], [1, 3, 2]],
    )
    .unwrap();
    let mut shard = Body::from_mesh("shard & co", BodyKind::Obstacle, mesh);
    shard.youngs = Some(2.5e6);
    shard = shard
        .at(odd.inverse())
        .in_groups(CollisionGroups::new(7, group_bit(0) | group_bit(63)).unwrap());
    world.add_body(shard);
    let mount = models.join("objects/clasp_box.xml");
    let connection = Connection {
        parent_robot: RobotId::from_index(1),
        parent_chain: 2,
        child_robot: RobotId::from_index(0),
        mount: Some(mount.clone()),
        offset: Pose::translation(0.0, 0.0, 12.5),
    };
    let mount_body = load_body(&Disk, &mount, BodyKind::Link).unwrap();
    world.connect(connection, Some(mount_body)).unwrap();
    world.camera = Some(Camera {
        position: Point3::new(300.0, -200.0, 150.25),
        orientation: UnitQuaternion::from_euler_angles(0.3, 0.2, 0.1),
        focal_distance: 410.5,
    });
    world
}

#[test]
fn every_part_of_a_world_survives_saving_and_loading() {
    let original = full_world();
    let dir = scratch("full");
    let saved = dir.join("scene.xml");
    save_world(&original, &saved, None).unwrap();
    // The body built in code went inline, its mesh beside the world.
    assert!(dir.join("scene.2.off").is_file());
    let reloaded = load_world(&Disk, &saved, None).unwrap();
    assert_same_world(&original, &reloaded);
    // Body 2: the default scene's mug and table come first.
    assert_eq!(reloaded.free_body(2).unwrap().name, "shard & co");
    assert_eq!(reloaded.free_body(2).unwrap().youngs, Some(2.5e6));
    // And again: a saved world saves to the same text.
    let again = dir.join("again.xml");
    save_world(&reloaded, &again, None).unwrap();
    let strip = |p: &Path| {
        std::fs::read_to_string(p)
            .unwrap()
            .replace("again.2.off", "scene.2.off")
    };
    assert_eq!(strip(&saved), strip(&again));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn files_under_the_graspit_root_are_named_from_it() {
    let root = workspace();
    let original = full_world();
    let dir = scratch("root");
    let saved = dir.join("scene.xml");
    save_world(&original, &saved, Some(&root)).unwrap();
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(
        text.contains("<filename>models/objects/clasp_mug.xml</filename>"),
        "{text}"
    );
    assert!(text.contains("<mountFilename>models/objects/clasp_box.xml</mountFilename>"));
    // Only with the root can the loader find them.
    let err = load_world(&Disk, &saved, None).unwrap_err();
    assert!(
        err.message
            .contains("cannot find \"models/objects/clasp_mug.xml\""),
        "{err}"
    );
    let reloaded = load_world(&Disk, &saved, Some(&root)).unwrap();
    assert_same_world(&original, &reloaded);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_robot_built_in_code_cannot_be_saved_by_reference() {
    let mut world = full_world();
    let mut hand = world.robot(RobotId::from_index(0)).unwrap().clone();
    hand.source = None;
    world
        .remove_element(Element::Robot(RobotId::from_index(0)))
        .unwrap();
    world.add_robot(hand);
    let dir = scratch("nosource");
    let err = save_world(&world, &dir.join("w.xml"), None).unwrap_err();
    assert!(
        err.to_string()
            .contains("robot \"ClaspHand\" was not loaded from a file"),
        "{err}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// RaiSim's four spheres: loaded, they meet as their groups and masks say; the groups survive
/// saving and loading; changing a mask changes the contacts at once.
#[test]
fn raisims_four_spheres_load_meet_and_survive_saving() {
    let models = workspace().join("models");
    let mut world =
        load_world(&Disk, &models.join("worlds/raisim_four_spheres.xml"), None).unwrap();
    let sphere = BodyId::Free;
    assert_eq!(world.checked_pairs(), vec![(sphere(0), sphere(1))]);
    assert!(world.contacts().iter().all(|c| {
        let pair = (c.body.min(c.other), c.body.max(c.other));
        pair == (sphere(0), sphere(1))
    }));
    assert!(
        world.contacts_of(sphere(0)).next().is_some(),
        "0 and 1 touch"
    );
    assert!(
        world.contacts_of(sphere(3)).next().is_none(),
        "3 meets nothing"
    );

    let dir = scratch("spheres");
    let saved = dir.join("spheres.xml");
    save_world(&world, &saved, None).unwrap();
    let reloaded = load_world(&Disk, &saved, None).unwrap();
    assert_same_world(&world, &reloaded);
    assert_eq!(reloaded.checked_pairs(), world.checked_pairs());
    std::fs::remove_dir_all(dir).unwrap();

    // Sphere1's mask taking group 2 lets sphere1 and sphere2 meet: they touch already.
    let opened = CollisionGroups::new(1, group_bit(0) | group_bit(1) | group_bit(2)).unwrap();
    world.set_collision_groups(sphere(1), opened).unwrap();
    assert!(world.contacts_of(sphere(2)).any(|c| c.other == sphere(1)));
}

/// GraspIt writes DOF values with six significant digits, so a DOF saved at its limit can read
/// a hair outside it: 2e-6 rad out loads, clamped, with a warning naming the file and line;
/// 0.1 rad out is refused with its file and line.
#[test]
fn a_dof_value_a_rounding_outside_its_limit_is_clamped_and_one_far_outside_refused() {
    let dir = scratch("dof-rounding");
    let hand = workspace().join("models/robots/ClaspHand/ClaspHand.xml");
    let robot = load_robot(&Disk, &hand).unwrap();
    let (_, max) = robot.dof_limits(1);
    let world_with = |dof1: f64| {
        let file = dir.join(format!("w{dof1}.xml"));
        std::fs::write(
            &file,
            format!(
                "<world>\n<robot>\n<filename>{}</filename>\n<dofValues>0 {dof1} 0.2 0.2</dofValues>\n</robot>\n</world>\n",
                hand.display()
            ),
        )
        .unwrap();
        file
    };

    let near = world_with(max + 2e-6);
    let (world, warnings) = load_world_with_warnings(&Disk, &near, None).unwrap();
    assert_eq!(
        world.robot(RobotId::from_index(0)).unwrap().dof_values()[1],
        max,
        "clamped"
    );
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let warning = warnings[0].to_string();
    assert!(
        warning.starts_with(&format!("{}:4:", near.display())) && warning.contains("DOF 1"),
        "{warning}"
    );

    let far = world_with(max + 0.1);
    let error = load_world_with_warnings(&Disk, &far, None).unwrap_err();
    assert_eq!((error.file.as_path(), error.line), (far.as_path(), Some(4)));
    assert!(error.message.contains("DOF 1"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// GraspIt's current hand: the first robot that is a hand. An arm (a `Puma560`, a plain
/// `Robot`) before it is passed over; a world of arms has none.
#[test]
fn the_current_hand_is_the_first_robot_that_is_a_hand() {
    let hand = load_robot(
        &Disk,
        &workspace().join("models/robots/ClaspHand/ClaspHand.xml"),
    )
    .unwrap();
    assert!(hand.is_hand(), "ClaspHand's type is Hand");
    let mut arm = hand.clone();
    arm.robot_type = Some("Puma560".into());
    let mut plain = hand.clone();
    plain.robot_type = Some("Robot".into());
    assert!(!arm.is_hand() && !plain.is_hand());
    let mut world = World::new(Vec::new(), vec![arm.clone(), plain.clone(), hand]);
    assert_eq!(world.current_hand(), Some(RobotId::from_index(2)));
    assert!(
        world.set_current_hand(RobotId::from_index(0)),
        "any robot may be chosen"
    );
    assert_eq!(world.current_hand(), Some(RobotId::from_index(0)));
    assert!(!world.set_current_hand(RobotId::from_index(7)));
    assert_eq!(
        world.current_hand(),
        Some(RobotId::from_index(0)),
        "a robot that is not there changes nothing"
    );
    assert_eq!(
        World::new(Vec::new(), vec![arm, plain]).current_hand(),
        None
    );
}
