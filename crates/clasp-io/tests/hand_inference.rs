//! What Clasp works out of a hand from its kinematics alone (`Robot::infer_hand`: where the
//! palm faces, which way each DOF closes, which it leaves alone), against GraspIt's own answers:
//! GraspIt's hands written out as MJCF (nothing of their GraspIt files carried over but the
//! kinematics and the meshes) and read back. And what the URDF readers take from the file: a
//! link's `<inertial>` and a joint's `<limit effort>`.

use std::path::Path;

use clasp_core::{DofRole, Robot, World};
use clasp_io::{Disk, load_any_robot, load_robot, load_urdf, save_mjcf};

/// GraspIt's approach direction and each DOF's Auto Grasp velocity, and the same hand
/// written as MJCF and read back with the inference alone.
fn graspit_and_inferred(file: &str) -> Option<(Robot, Robot)> {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        println!("skipped: GraspIt's model library is not there");
        return None;
    };
    let hand = load_robot(&Disk, &models.join("robots").join(file)).unwrap();
    let folder = std::env::temp_dir().join(format!(
        "clasp-inference-{}-{}",
        std::process::id(),
        hand.name
    ));
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("hand.xml");
    save_mjcf(&World::new(Vec::new(), vec![hand.clone()]), &path).unwrap();
    let back = load_any_robot(&Disk, &path).unwrap();
    Some((hand, back))
}

/// The angle between GraspIt's approach (the palm's z where the file gives none, as GraspIt
/// does) and the inferred one, both in the palm's frame, degrees.
fn approach_angle(graspit: &Robot, inferred: &Robot) -> f64 {
    let theirs = graspit
        .approach
        .as_ref()
        .map_or(nalgebra::Vector3::z(), |a| a.direction.into_inner());
    let ours = inferred.approach.as_ref().unwrap().direction.into_inner();
    theirs.angle(&ours).to_degrees()
}

/// DOFs whose inferred Auto Grasp velocity has another sign than GraspIt's (0 for one left
/// alone), as (DOF, GraspIt's, inferred).
fn sense_mismatches(graspit: &Robot, inferred: &Robot) -> Vec<(usize, f64, f64)> {
    assert_eq!(graspit.dofs.len(), inferred.dofs.len());
    graspit
        .dofs
        .iter()
        .zip(&inferred.dofs)
        .enumerate()
        .filter(|(_, (g, i))| sign(g.default_velocity) != sign(i.default_velocity))
        .map(|(d, (g, i))| (d, g.default_velocity, i.default_velocity))
        .collect()
}

/// −1, 0 or +1.
fn sign(velocity: f64) -> i8 {
    match velocity {
        v if v > 0.0 => 1,
        v if v < 0.0 => -1,
        _ => 0,
    }
}

/// A GraspIt hand read back with the inference alone: its approach within 10° of GraspIt's,
/// and no more than `known_wrong` DOFs closing otherwise than GraspIt's do.
fn check_against_graspit(file: &str, known_wrong: usize) {
    let Some((graspit, inferred)) = graspit_and_inferred(file) else {
        return;
    };
    let angle = approach_angle(&graspit, &inferred);
    let wrong = sense_mismatches(&graspit, &inferred);
    println!("{file}: approach {angle:.1}° from GraspIt's; DOFs unlike GraspIt's: {wrong:?}");
    assert!(angle <= 10.0, "{file}: {angle}°");
    assert!(wrong.len() <= known_wrong, "{file}: {wrong:?}");
}

#[test]
fn the_barrett_and_the_schunk_are_inferred_as_graspit_describes_them() {
    check_against_graspit("Barrett/Barrett.xml", 0);
    check_against_graspit("Schunk/Schunk.xml", 0);
}

/// The human and Shadow hands: the approach within 10° of GraspIt's, and the DOFs that do
/// not yet close as GraspIt's do (thumb and wrist joints), as measured: issue 53 asks for
/// every one, and these are reported as not met.
#[test]
fn the_human_and_shadow_hands_face_graspit_s_way() {
    check_against_graspit("HumanHand/HumanHand20DOF.xml", 2);
    check_against_graspit("ShadowHand/ShadowHand.xml", 3);
}

fn hand(file: &str) -> Option<Robot> {
    let hands = clasp_io::fixtures::field_hands()?;
    Some(load_urdf(&Disk, &hands.join(file)).unwrap())
}

#[test]
fn the_allegro_closes_its_fingers_and_thumb_and_leaves_its_spreads() {
    let Some(allegro) = hand("allegro_hand/allegro_hand_right.urdf") else {
        return;
    };
    let roles = allegro.infer_hand().roles;
    // Four joints a finger, the first of each finger a spread; the thumb's first two turn it
    // across the palm and then twist it, its last two curl it.
    for finger in 0..3 {
        assert_eq!(roles[4 * finger], DofRole::Spreads, "{roles:?}");
        for joint in 1..4 {
            assert_eq!(
                roles[4 * finger + joint],
                DofRole::Closes { sense: 1.0 },
                "{roles:?}"
            );
        }
    }
    assert_eq!(roles[12], DofRole::Closes { sense: 1.0 }, "{roles:?}");
    assert_eq!(roles[14], DofRole::Closes { sense: 1.0 }, "{roles:?}");
    assert_eq!(roles[15], DofRole::Closes { sense: 1.0 }, "{roles:?}");
    // The Allegro's palm faces its base frame's +x.
    let facing = allegro.approach.as_ref().unwrap().direction;
    assert!(facing.x > 0.95, "{facing:?}");
}

#[test]
fn a_parallel_gripper_closes_its_jaws_and_starts_open() {
    let Some(panda) = hand("panda_gripper/panda_gripper_glb.urdf") else {
        return;
    };
    // The Panda's finger joint opens as it grows (0 to 40 mm): it closes downward.
    assert_eq!(panda.dofs[0].default_velocity, -1.0);
    assert_eq!(panda.dof_values(), &[40.0]);
    let facing = panda.approach.as_ref().unwrap().direction;
    assert!(
        facing.z > 0.99,
        "the jaws point along the palm's z: {facing:?}"
    );
}

#[test]
fn a_urdf_link_weighs_what_its_inertial_says_and_a_dof_has_its_effort() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../models/robots/ClaspTreeHand/ClaspTreeHand.urdf");
    let hand = load_urdf(&Disk, &file).unwrap();
    // The palm link's box: 0.09 × 0.025 × 0.095 m at 1100 kg/m³ is 0.23513 kg (rounded to
    // five places in the file), centred 57.5 mm up its z.
    let palm = hand.chains()[0]
        .links
        .iter()
        .find(|l| l.body.name == "palm")
        .unwrap();
    assert!(
        (palm.body.mass.mass - 235.13).abs() < 1e-9,
        "{}",
        palm.body.mass.mass
    );
    assert!((palm.body.mass.cog - nalgebra::Point3::new(0.0, 0.0, 57.5)).norm() < 1e-9);
    // 1e-6 kg·m² about each axis is 1000 g·mm²; per unit mass as Clasp keeps it.
    let inertia = palm.body.mass.inertia * palm.body.mass.mass;
    assert!((inertia[(0, 0)] - 1000.0).abs() < 1e-6, "{inertia}");
    // effort="1.0" N·m on every joint: GraspIt's 1e9 N·mm·1e6.
    assert!(hand.dofs.iter().all(|d| d.max_effort == 1e9));
}

/// The tree hand copied into a folder of its own, with `settings` as its `.clasp.xml`.
fn tree_hand_with(settings: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("clasp-settings-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../models/robots/ClaspTreeHand/ClaspTreeHand.urdf");
    let urdf = dir.join("ClaspTreeHand.urdf");
    std::fs::copy(file, &urdf).unwrap();
    std::fs::write(clasp_io::hand_settings_path(&urdf), settings).unwrap();
    urdf
}

#[test]
fn a_settings_file_beside_the_hand_sets_what_is_otherwise_inferred() {
    let urdf = tree_hand_with(
        r#"<claspHand>
  <approach><reference>0 -20 60</reference><direction>0 0 1</direction></approach>
  <dof index="0" velocity="1" effort="2.5" kind="b"/>
  <dof index="3" velocity="0"/>
  <material>rubber</material>
</claspHand>"#,
        "good",
    );
    let hand = load_urdf(&Disk, &urdf).unwrap();
    let approach = hand.approach.as_ref().unwrap();
    assert_eq!(approach.direction.into_inner(), nalgebra::Vector3::z());
    assert_eq!(approach.reference, nalgebra::Point3::new(0.0, -20.0, 60.0));
    assert_eq!(
        hand.dofs[0].default_velocity, 1.0,
        "a wrist closes, as asked"
    );
    assert_eq!(hand.dofs[0].max_effort, 2.5e9);
    assert_eq!(hand.dofs[0].kind, clasp_core::DofKind::Breakaway);
    assert_eq!(hand.dofs[3].default_velocity, 0.0);
    // What the file leaves alone stays inferred.
    assert_eq!(hand.dofs[4].default_velocity, 1.0);
    assert!(
        hand.bodies()
            .all(|b| b.material == clasp_core::Material::Rubber)
    );
}

#[test]
fn a_bad_settings_file_names_its_line() {
    for (settings, line, says) in [
        (
            "<claspHand>\n<dof index=\"99\"/>\n</claspHand>",
            2,
            "DOF 99 does not exist",
        ),
        (
            "<claspHand>\n<approach>\n<direction>0 0 0</direction></approach>\n</claspHand>",
            2,
            "zero length",
        ),
        (
            "<claspHand>\n\n<material>cheese</material>\n</claspHand>",
            3,
            "cheese",
        ),
        (
            "<claspHand>\n<dof index=\"1\" kind=\"x\"/>\n</claspHand>",
            2,
            "r (rigid)",
        ),
    ] {
        let urdf = tree_hand_with(settings, &format!("bad{line}{}", says.len()));
        let error = load_urdf(&Disk, &urdf).unwrap_err();
        assert_eq!(error.file, clasp_io::hand_settings_path(&urdf), "{error}");
        assert_eq!(error.line, Some(line), "{error}");
        assert!(error.message.contains(says), "{error}");
    }
}

/// A hand's settings written beside its URDF (what Clasp worked out, and what was changed) read
/// back to the same hand; a second write is refused, the user's file left as it was.
#[test]
fn a_hand_s_settings_written_beside_it_read_back_to_the_same_hand() {
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/robots/ClaspTreeHand");
    let folder = std::env::temp_dir().join(format!("clasp-settings-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let urdf = folder.join("ClaspTreeHand.urdf");
    std::fs::copy(models.join("ClaspTreeHand.urdf"), &urdf).unwrap();
    let mut hand = load_urdf(&Disk, &urdf).unwrap();
    // What a user changes: the approach, one DOF's sense, effort and kind, the material.
    hand.approach = Some(clasp_core::HandApproach {
        reference: nalgebra::Point3::new(1.5, -2.0, 40.0),
        direction: nalgebra::Unit::new_normalize(nalgebra::Vector3::new(0.3, 0.1, 1.0)),
    });
    hand.dofs[1].default_velocity = -0.7;
    hand.dofs[1].max_effort = 0.35e9; // 0.35 N·m
    hand.dofs[1].kind = clasp_core::DofKind::Breakaway;
    for which in hand.parts() {
        hand.edit_body(which, |b| b.material = clasp_core::Material::Rubber);
    }
    let written = clasp_io::save_hand_settings(&hand, &urdf).unwrap();
    assert_eq!(written, folder.join("ClaspTreeHand.clasp.xml"));
    let back = load_urdf(&Disk, &urdf).unwrap();
    // The direction read back is normalised again: the same to rounding.
    let (ours, theirs) = (
        hand.approach.clone().unwrap(),
        back.approach.clone().unwrap(),
    );
    assert_eq!(ours.reference, theirs.reference);
    assert!((ours.direction.into_inner() - theirs.direction.into_inner()).norm() < 1e-15);
    for (d, (ours, theirs)) in hand.dofs.iter().zip(&back.dofs).enumerate() {
        assert_eq!(ours.default_velocity, theirs.default_velocity, "DOF {d}");
        assert_eq!(ours.kind, theirs.kind, "DOF {d}");
        let relative = (ours.max_effort - theirs.max_effort).abs() / ours.max_effort;
        assert!(
            relative < 1e-12,
            "DOF {d}: {} {}",
            ours.max_effort,
            theirs.max_effort
        );
    }
    assert!(
        back.bodies()
            .all(|b| b.material == clasp_core::Material::Rubber)
    );
    let before = std::fs::read_to_string(&written).unwrap();
    let again = clasp_io::save_hand_settings(&back, &urdf).unwrap_err();
    assert!(again.message.contains("already"), "{again}");
    assert_eq!(std::fs::read_to_string(&written).unwrap(), before);
    std::fs::remove_dir_all(&folder).unwrap();
}
