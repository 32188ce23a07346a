//! Save keeps every edit: each property of a body loaded from a file, changed through the
//! world, is in the saved world and reads back equal; what was not changed is not written, so
//! the world still reads its body files for it.

use std::path::{Path, PathBuf};

use clasp_core::{
    BodyId, BodyType, CollisionGroups, MassProperties, Material, Velocity, World, group_bit,
};
use clasp_io::{Disk, load_world, save_world};
use nalgebra::{Matrix3, Point3, Vector3};

/// The default scene, read from the repository's files (not the embedded copy), so its bodies
/// name files that Save can read again.
fn default_world() -> World {
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    load_world(&Disk, &models.join("worlds/default.xml"), None).unwrap()
}

/// The mug, a graspable body loaded from `models/objects/clasp_mug.xml`.
const MUG: BodyId = BodyId::Free(0);

/// Saves `world` in a fresh folder and loads it again; returns the file's text and the world.
fn save_and_load(world: &World, name: &str) -> (String, World) {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("clasp-edits-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("world.xml");
    save_world(world, &file, None).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let loaded = load_world(&Disk, &file, None).unwrap();
    std::fs::remove_dir_all(dir).unwrap();
    (text, loaded)
}

fn mug(world: &World) -> &clasp_core::Body {
    world.body(MUG).unwrap()
}

#[test]
fn an_unedited_world_writes_only_its_body_files() {
    let (text, loaded) = save_and_load(&default_world(), "none");
    for tag in [
        "<material>",
        "<mass>",
        "<cog>",
        "<inertia_matrix>",
        "<youngs>",
        "<name>",
    ] {
        assert!(
            !text.contains(tag),
            "{tag} written for an unedited body:\n{text}"
        );
    }
    assert_eq!(mug(&loaded).mass, mug(&default_world()).mass);
}

#[test]
fn a_changed_material_is_saved() {
    let mut world = default_world();
    assert_ne!(mug(&world).material, Material::Rubber);
    world.set_material(MUG, Material::Rubber).unwrap();
    let (text, loaded) = save_and_load(&world, "material");
    assert!(text.contains("<material>rubber</material>"), "{text}");
    assert_eq!(mug(&loaded).material, Material::Rubber);
    // What was not changed still comes from the body file.
    assert_eq!(mug(&loaded).mass, mug(&world).mass);
}

#[test]
fn a_material_changed_back_to_generic_is_saved() {
    let mut world = default_world();
    assert_ne!(mug(&world).material, Material::Generic);
    world.set_material(MUG, Material::Generic).unwrap();
    let (_, loaded) = save_and_load(&world, "generic");
    assert_eq!(mug(&loaded).material, Material::Generic);
}

/// The mug's mass properties with one part changed.
fn with_mass(world: &mut World, change: impl FnOnce(&mut MassProperties)) -> MassProperties {
    let mut mass = mug(world).mass.clone();
    change(&mut mass);
    world.set_mass_properties(MUG, mass.clone()).unwrap();
    mass
}

#[test]
fn a_changed_mass_is_saved() {
    let mut world = default_world();
    let before = mug(&world).mass.clone();
    let mass = with_mass(&mut world, |m| m.mass = 123.456_789_012_345);
    let (text, loaded) = save_and_load(&world, "mass");
    assert!(text.contains("<mass>123.456789012345</mass>"), "{text}");
    assert!(
        !text.contains("<cog>") && !text.contains("<inertia_matrix>"),
        "{text}"
    );
    assert_eq!(mug(&loaded).mass.mass, mass.mass);
    assert_eq!(
        (mug(&loaded).mass.cog, mug(&loaded).mass.inertia),
        (before.cog, before.inertia)
    );
}

#[test]
fn a_changed_centre_of_gravity_is_saved() {
    let mut world = default_world();
    let mass = with_mass(&mut world, |m| m.cog = Point3::new(1.0 / 3.0, -2.5, 40.125));
    let (_, loaded) = save_and_load(&world, "cog");
    assert_eq!(mug(&loaded).mass.cog, mass.cog);
    assert_eq!(mug(&loaded).mass.mass, mass.mass);
}

#[test]
fn a_changed_inertia_is_saved_row_by_row() {
    let mut world = default_world();
    // Six different numbers, so a write that mixed up two entries would read back different
    // (a tensor that is not symmetric is repaired on reading).
    let inertia = Matrix3::new(
        900.0,
        1.5,
        -0.75,
        1.5,
        800.0,
        0.25,
        -0.75,
        0.25,
        700.0 / 3.0,
    );
    let mass = with_mass(&mut world, |m| m.inertia = inertia);
    let (_, loaded) = save_and_load(&world, "inertia");
    assert_eq!(mug(&loaded).mass.inertia, mass.inertia);
}

#[test]
fn a_youngs_modulus_given_is_saved() {
    let mut world = default_world();
    assert_eq!(mug(&world).youngs, None);
    world.set_youngs(MUG, Some(2.5e6)).unwrap();
    let (_, soft) = save_and_load(&world, "soft");
    assert_eq!(mug(&soft).youngs, Some(2.5e6));
}

#[test]
fn a_soft_body_made_rigid_stays_rigid() {
    // A body file that makes the mug soft, in a world of its own.
    let dir = std::env::temp_dir().join(format!("clasp-edits-rigid-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mesh = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/objects/clasp_mug.off");
    let body = format!(
        "<root><youngs>3e6</youngs><geometryFile>{}</geometryFile></root>",
        mesh.canonicalize().unwrap().display()
    );
    std::fs::write(dir.join("soft_mug.xml"), body).unwrap();
    let world_file = dir.join("soft.xml");
    let world = "<world><graspableBody><filename>soft_mug.xml</filename></graspableBody></world>";
    std::fs::write(&world_file, world).unwrap();
    let mut world = load_world(&Disk, &world_file, None).unwrap();
    assert_eq!(mug(&world).youngs, Some(3e6));

    world.set_youngs(MUG, None).unwrap();
    let (text, rigid) = save_and_load(&world, "made-rigid");
    assert!(text.contains("<youngs>rigid</youngs>"), "{text}");
    assert_eq!(mug(&rigid).youngs, None);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_changed_name_is_saved() {
    let mut world = default_world();
    world
        .set_body_name(MUG, "Grandma's <mug> & saucer")
        .unwrap();
    let (_, loaded) = save_and_load(&world, "name");
    assert_eq!(mug(&loaded).name, "Grandma's <mug> & saucer");
}

#[test]
fn a_changed_body_type_and_velocity_are_saved() {
    let mut world = default_world();
    world.set_body_type(MUG, BodyType::Kinematic).unwrap();
    let velocity = Velocity::new(Vector3::new(1.0, -2.0, 0.5), Vector3::new(0.0, 0.1, 0.0));
    world.set_velocity(MUG, velocity).unwrap();
    let (_, loaded) = save_and_load(&world, "motion");
    assert_eq!(mug(&loaded).body_type(), BodyType::Kinematic);
    assert_eq!(mug(&loaded).velocity(), velocity);
}

#[test]
fn changed_collision_groups_are_saved() {
    let mut world = default_world();
    let groups = CollisionGroups::new(5, !group_bit(2)).unwrap();
    world.set_collision_groups(MUG, groups).unwrap();
    let (_, loaded) = save_and_load(&world, "groups");
    assert_eq!(mug(&loaded).groups(), groups);
}

#[test]
fn edits_in_a_world_are_refused_when_they_are_not_numbers_a_body_can_have() {
    let mut world = default_world();
    let mut bad = mug(&world).mass.clone();
    bad.mass = -1.0;
    assert!(world.set_mass_properties(MUG, bad).is_err());
    let mut bad = mug(&world).mass.clone();
    bad.cog.x = f64::NAN;
    assert!(world.set_mass_properties(MUG, bad).is_err());
    assert!(world.set_youngs(MUG, Some(0.0)).is_err());
    assert!(world.set_youngs(MUG, Some(f64::INFINITY)).is_err());
    assert_eq!(mug(&world).mass, mug(&default_world()).mass);
    assert_eq!(mug(&world).youngs, None);
}

#[test]
fn a_robot_bodys_material_and_mass_are_saved() {
    let mut world = default_world();
    let robot = clasp_core::RobotId::from_index(0);
    let finger = BodyId::Link {
        robot,
        chain: 1,
        link: 2,
    };
    let palm = BodyId::Palm { robot };
    world.set_material(finger, Material::Stone).unwrap();
    let mut mass = world.body(palm).unwrap().mass.clone();
    mass.mass *= 1.5;
    world.set_mass_properties(palm, mass.clone()).unwrap();
    let (text, loaded) = save_and_load(&world, "robot");
    assert!(
        text.contains("<bodyEdits chain=\"1\" link=\"2\">"),
        "{text}"
    );
    assert_eq!(loaded.body(finger).unwrap().material, Material::Stone);
    assert_eq!(loaded.body(palm).unwrap().mass, mass);
    // The other links still read their files.
    let other = BodyId::Link {
        robot,
        chain: 0,
        link: 2,
    };
    assert_eq!(
        loaded.body(other).unwrap().material,
        world.body(other).unwrap().material
    );
    assert_eq!(text.matches("<bodyEdits").count(), 2, "{text}");
}
