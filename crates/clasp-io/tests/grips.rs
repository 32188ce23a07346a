//! Grips one can solve on paper (issue 43): Clasp's parallel-jaw gripper
//! (models/robots/ClaspGripper) holds Clasp's box by two opposed jaws, each pressing with
//! F = 0.8 × its effort = 10 N. Each test prints the analytic figure beside Clasp's.
//! (a) Gravity across the grip: held while m·g ≤ 2μF.
//! (b) The centre of gravity off the grip axis by d: point contacts hold no torque about the
//!     axis, so the box turns for any d; soft contacts hold while m·g·d ≤ 2μ·r·F, r the torsion
//!     radius of their patches.
//! (c) Pulled along the grip axis (a force on the box alone): held while the pull stays within
//!     the effort of the jaw it is pulled against, F; the other jaw follows to its target.

use std::path::{Path, PathBuf};

use clasp_core::{BodyId, BodyKind, BodyType, EARTH_GRAVITY, Material, RobotId, World};
use clasp_io::{Disk, load_body, load_robot};
use nalgebra::{Point3, Vector3};

fn models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models")
}

/// What each jaw presses with: 0.8 of its 12.5 N effort, g·mm/s².
const JAW_FORCE: f64 = 0.8 * 1.25e7;
/// How far past the box's face each jaw's target lies, mm.
const SQUEEZE: f64 = 2.0;
const HAND: RobotId = RobotId::from_index(0);
const BOX: BodyId = BodyId::Free(0);

/// The gripper (soft jaws or not) holding Clasp's 50 × 40 × 80 mm box across its 50 mm width,
/// centred on the grip axis (x, at z = 60) but for its centre of gravity moved by `offset`;
/// the box of `mass` grams and `material`. The jaws close to the box, then press for 0.1 s
/// without gravity.
fn gripped(soft: bool, mass: f64, material: Material, offset: Vector3<f64>) -> World {
    let mut world = open_round_box(soft, |body| {
        body.mass.mass = mass;
        body.mass.cog = Point3::new(0.0, 0.0, 40.0) + offset;
        body.material = material;
    });
    world.auto_grasp(HAND).unwrap();
    let reached = world.find_robot(HAND).unwrap().dof_values().to_vec();
    assert!(
        reached.iter().all(|d| (d - 67.0).abs() < 0.5),
        "the jaws meet the box's faces at 67 mm: {reached:?}"
    );
    let targets: Vec<f64> = reached.iter().map(|d| d + SQUEEZE).collect();
    world.drive_robot(HAND, &targets).unwrap();
    world.set_gravity(Vector3::zeros()).unwrap();
    world.simulate(0.1).unwrap();
    world
}

/// The gripper (soft jaws or not), open, round Clasp's box centred on its grip axis (z = 60)
/// and standing clear of its palm; the box as `change` leaves it.
fn open_round_box(soft: bool, change: impl FnOnce(&mut clasp_core::Body)) -> World {
    let file = match soft {
        true => "robots/ClaspGripper/ClaspGripperSoft.xml",
        false => "robots/ClaspGripper/ClaspGripper.xml",
    };
    let gripper = load_robot(&Disk, &models().join(file)).unwrap();
    let mut body = load_body(
        &Disk,
        &models().join("objects/clasp_box.xml"),
        BodyKind::Graspable,
    )
    .unwrap();
    change(&mut body);
    let mut world = World::new(vec![body.of_type(BodyType::Dynamic)], vec![gripper]);
    world
        .set_pose(
            clasp_core::Element::Body(0),
            clasp_core::Pose::translation(0.0, 0.0, 20.0),
        )
        .unwrap();
    world
}

/// How far the box's centre of gravity moves (mm) and how far it turns (rad) in `seconds`
/// under `gravity`.
fn pulled(world: &mut World, gravity: Vector3<f64>, seconds: f64) -> (f64, f64) {
    let start = world.body(BOX).unwrap();
    let (centre, turn) = (start.world_cog(), start.pose().rotation);
    world.set_gravity(gravity).unwrap();
    world.simulate(seconds).unwrap();
    let end = world.body(BOX).unwrap();
    (
        (end.world_cog() - centre).norm(),
        end.pose().rotation.angle_to(&turn),
    )
}

/// Held: the box's centre moved less than 5 mm in half a second (one that slips keeps
/// sliding: 5 mm is reached in 32 ms at g).
fn holds(world: &mut World, gravity: Vector3<f64>) -> bool {
    pulled(world, gravity, 0.5).0 < 5.0
}

/// The sweep's factors of the analytic figure: 0.90, 0.92, ..., 1.10.
fn sweep() -> impl Iterator<Item = f64> {
    (0..=10).map(|k| 0.90 + 0.02 * k as f64)
}

/// The largest of `values` for which `held` says yes, and the answers in order.
fn largest_held(values: &[f64], held: impl Fn(f64) -> bool) -> (f64, Vec<bool>) {
    let answers: Vec<bool> = values.iter().map(|&v| held(v)).collect();
    let largest = values
        .iter()
        .zip(&answers)
        .filter(|(_, h)| **h)
        .map(|(v, _)| *v)
        .fold(0.0, f64::max);
    (largest, answers)
}

/// How far the box turns (rad) in half a second under gravity down.
fn turned_by_gravity(world: &mut World) -> f64 {
    pulled(world, Vector3::new(0.0, 0.0, -EARTH_GRAVITY), 0.5).1
}

/// The test's angle bound (the hold test's default, 15°).
fn max_rotation() -> f64 {
    clasp_core::HoldSettings::default().max_rotation
}

#[test]
fn gravity_across_the_grip_is_held_up_to_two_mu_f() {
    let down = Vector3::new(0.0, 0.0, -EARTH_GRAVITY);
    for (material, mu) in [(Material::Wood, 0.4), (Material::Rubber, 1.0)] {
        let analytic = 2.0 * mu * JAW_FORCE / EARTH_GRAVITY;
        let masses: Vec<f64> = sweep().map(|k| k * analytic).collect();
        let (heaviest, held) = largest_held(&masses, |m| {
            holds(&mut gripped(false, m, material, Vector3::zeros()), down)
        });
        println!("μ {mu}: heaviest held {heaviest:.0} g, 2μF/g = {analytic:.0} g; held {held:?}");
        assert!(
            (heaviest / analytic - 1.0).abs() <= 0.05,
            "μ {mu}: heaviest held {heaviest:.0} g against 2μF/g = {analytic:.0} g"
        );
    }
}

#[test]
fn an_offset_centre_turns_point_contacts_and_soft_ones_hold_to_their_torsion() {
    let (mass, mu) = (200.0, 0.4);
    // Point contacts: any offset across the axis makes a torque nothing resists.
    for d in [0.5, 2.0, 10.0] {
        let turned = turned_by_gravity(&mut gripped(false, mass, Material::Wood, Vector3::y() * d));
        println!(
            "point contacts, centre {d} mm off the axis: turned {:.1}°",
            turned.to_degrees()
        );
        assert!(
            turned > max_rotation(),
            "point contacts held a {d} mm offset"
        );
    }
    // Soft contacts: each jaw's patch resists up to μ·r·F about its normal.
    let world = gripped(true, mass, Material::Wood, Vector3::zeros());
    let radii: Vec<f64> = world
        .contacts_of(BOX)
        .map(|c| match &c.model {
            clasp_core::ContactModel::Soft(soft) => soft.area.torsion_radius,
            other => panic!("a soft jaw made a {other:?} contact"),
        })
        .collect();
    assert_eq!(radii.len(), 2, "one contact per jaw: {radii:?}");
    let limit: f64 = radii.iter().map(|r| mu * r * JAW_FORCE).sum();
    let analytic = limit / (mass * EARTH_GRAVITY);
    let offsets: Vec<f64> = sweep().map(|k| k * analytic).collect();
    let (largest, held) = largest_held(&offsets, |d| {
        turned_by_gravity(&mut gripped(true, mass, Material::Wood, Vector3::y() * d))
            < max_rotation()
    });
    println!(
        "soft contacts (torsion radii {radii:?} mm): largest offset held {largest:.2} mm, \
         Σμ·r·F/(m·g) = {analytic:.2} mm; held {held:?}"
    );
    assert!(
        (largest / analytic - 1.0).abs() <= 0.10,
        "soft contacts held {largest:.2} mm against the torsional limit's {analytic:.2} mm"
    );
}

#[test]
fn a_pull_along_the_grip_is_held_up_to_the_far_jaws_effort() {
    // The pull (an external force on the box alone, toward the jaw at +x) is taken by that
    // jaw, whose controller gives at most F; the other jaw follows to its target.
    let pulls: Vec<f64> = sweep().map(|k| k * JAW_FORCE).collect();
    let (largest, held) = largest_held(&pulls, |pull| {
        let mut world = gripped(false, 200.0, Material::Wood, Vector3::zeros());
        world.set_external_force(BOX, Vector3::x() * pull).unwrap();
        pulled(&mut world, Vector3::zeros(), 1.0).0 < 5.0
    });
    println!(
        "pulled along the grip: largest held {:.2} N, the far jaw's F = {:.2} N; held {held:?}",
        largest * 1e-6,
        JAW_FORCE * 1e-6
    );
    assert!(
        (largest / JAW_FORCE - 1.0).abs() <= 0.05,
        "held {largest} against F = {JAW_FORCE}"
    );
}

/// DexGraspNet's squeeze, 1 mm toward the contacts: each jaw's target lies 1 mm into the box
/// (a prismatic jaw moves its contact 1 mm a mm); without contacts, the plain squeeze.
#[test]
fn a_squeeze_by_distance_moves_each_jaw_its_distance_into_the_box() {
    let mut world = open_round_box(false, |_| {});
    let settings = clasp_core::HoldSettings::preset("dexgraspnet").unwrap();
    let open = world.squeeze_targets(HAND, BOX, &settings).unwrap();
    assert_eq!(
        open,
        vec![settings.squeeze; 2],
        "no contact yet: the plain squeeze"
    );
    world.auto_grasp(HAND).unwrap();
    let at = world.find_robot(HAND).unwrap().dof_values().to_vec();
    let targets = world.squeeze_targets(HAND, BOX, &settings).unwrap();
    for (target, q) in targets.iter().zip(&at) {
        assert!((target - q - 1.0).abs() < 1e-9, "{target} from {q}");
    }
}
