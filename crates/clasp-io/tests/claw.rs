//! A three-finger claw (its fingers ringed round the palm's axis and pointing along it, each
//! with two knuckles that turn as far each way, as the D'Claw's): nothing in its joints says
//! where its palm faces, so it faces the fingertips and the inference says it was not sure; a
//! batch
//! starts its first knuckles turned out, so what it grasps comes between the fingers.

use clasp_core::{DofRole, draw_aims};
use clasp_io::{Disk, load_urdf};

/// Three fingers at 120°, 40 mm from the axis, each two 40 mm links on knuckles of ±90°.
fn claw_urdf() -> String {
    let link = |name: &str, size: &str, z: f64| {
        format!(
            "<link name=\"{name}\"><collision><origin xyz=\"0 0 {z}\"/><geometry><box size=\"{size}\"/></geometry></collision>\
             <inertial><mass value=\"0.02\"/><inertia ixx=\"1e-6\" ixy=\"0\" ixz=\"0\" iyy=\"1e-6\" iyz=\"0\" izz=\"1e-6\"/></inertial></link>\n"
        )
    };
    let joint = |name: &str, parent: &str, child: &str, xyz: String, yaw: f64| {
        format!(
            "<joint name=\"{name}\" type=\"revolute\"><parent link=\"{parent}\"/><child link=\"{child}\"/>\
             <origin xyz=\"{xyz}\" rpy=\"0 0 {yaw}\"/><axis xyz=\"0 1 0\"/><limit lower=\"-1.57\" upper=\"1.57\" effort=\"1\" velocity=\"1\"/></joint>\n"
        )
    };
    let mut urdf = String::from("<robot name=\"claw\">\n");
    urdf += &link("base", "0.1 0.1 0.02", 0.0);
    for k in 0..3 {
        let angle = std::f64::consts::TAU * k as f64 / 3.0;
        let (x, y) = (0.04 * angle.cos(), 0.04 * angle.sin());
        urdf += &link(&format!("f{k}_1"), "0.012 0.012 0.04", 0.02);
        urdf += &link(&format!("f{k}_2"), "0.012 0.012 0.04", 0.02);
        urdf += &joint(
            &format!("f{k}_0"),
            "base",
            &format!("f{k}_1"),
            format!("{x} {y} 0.01"),
            angle,
        );
        urdf += &joint(
            &format!("f{k}_1"),
            &format!("f{k}_1"),
            &format!("f{k}_2"),
            "0 0 0.04".into(),
            0.0,
        );
    }
    urdf + "</robot>\n"
}

#[test]
fn a_claw_faces_its_fingertips_says_it_was_not_sure_and_starts_its_knuckles_opened() {
    let dir = std::env::temp_dir().join(format!("clasp-claw-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("claw.urdf");
    std::fs::write(&file, claw_urdf()).unwrap();
    let claw = load_urdf(&Disk, &file).unwrap();
    let inferred = claw.infer_hand();
    // The palm faces the fingertips (+z), not behind itself.
    let facing = claw.pose().rotation * inferred.approach.direction.into_inner();
    assert!(facing.z > 0.99, "{facing}");
    assert!(
        inferred
            .doubts
            .iter()
            .any(|d| d.contains("the palm is taken to face its fingertips")),
        "{:?}",
        inferred.doubts
    );
    // Every knuckle closes, and says it was not sure which way.
    assert!(
        inferred
            .roles
            .iter()
            .all(|r| matches!(r, DofRole::Closes { .. })),
        "{:?}",
        inferred.roles
    );
    assert_eq!(
        inferred
            .doubts
            .iter()
            .filter(|d| d.contains("turns about as far each way"))
            .count(),
        6
    );
    // A batch starts each finger's first knuckle turned out by 30 % of the way to its end.
    let aims = draw_aims(&claw, 4, 0);
    for first in [0, 2, 4] {
        let DofRole::Closes { sense } = inferred.roles[first] else {
            unreachable!()
        };
        let expected = -sense * 0.3 * 1.57;
        assert!(
            aims.iter().all(|a| (a.dofs[first] - expected).abs() < 1e-9),
            "{first}: {:?}",
            aims[0].dofs
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
