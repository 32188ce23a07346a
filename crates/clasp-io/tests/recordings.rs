//! Recordings: a run recorded, written as Clasp's own file, read back, and a moment put into
//! the world stands exactly where the run had it; damaged files are refused, naming the file.

use std::path::{Path, PathBuf};

use clasp_core::{Pose, Recording, World};
use clasp_io::{
    Disk, fixtures::graspit_models, load_recording, load_world, recording_world_path,
    save_recording,
};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clasp-rec-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn glass_on_table(root: &Path) -> World {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../models/worlds/graspit_glass_on_table.xml");
    load_world(&Disk, &file, Some(root)).unwrap()
}

fn poses(world: &World) -> Vec<Pose> {
    world
        .body_ids()
        .into_iter()
        .map(|id| world.body(id).unwrap().pose())
        .collect()
}

fn assert_same_poses(a: &[Pose], b: &[Pose], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}");
    for (x, y) in a.iter().zip(b) {
        let dt = (x.translation.vector - y.translation.vector).norm();
        let dr = x.rotation.angle_to(&y.rotation);
        assert!(dt < 1e-9 && dr < 1e-9, "{what}: {x} vs {y}");
    }
}

/// A recorded run of GraspIt's glass falling onto its table (tipped, so it turns as it lands).
fn recorded_fall(root: &Path) -> (World, World, Recording) {
    let mut world = glass_on_table(root);
    let tipped = Pose::new([0.0, 0.0, 30.0].into(), [0.3, 0.2, 0.0].into())
        * world.free_body(1).unwrap().pose();
    world
        .set_pose(clasp_core::Element::Body(1), tipped)
        .unwrap();
    let start = world.clone();
    let mut recording = Recording::default();
    let steps = world.simulate_recorded(0.3, 10, &mut recording).unwrap();
    assert_eq!(steps, 300);
    (start, world, recording)
}

#[test]
fn a_recorded_moment_put_back_stands_where_the_run_had_it() {
    let Some(root) = graspit_models() else { return };
    let (start, end, recording) = recorded_fall(&root);
    assert_eq!(recording.moments.len(), 31, "the start and every 10th step");
    let dir = scratch("round-trip");
    let file = dir.join("fall.clasprec");
    save_recording(&recording, &start, &file, Some(&root)).unwrap();
    assert!(recording_world_path(&file).exists());
    let (mut world, read) = load_recording(&Disk, &file, None).unwrap();
    assert_eq!(read, recording, "every number read back to the bit");
    // Moment 0 is the start; the last is where the run ended.
    assert_same_poses(
        &poses(&world),
        &poses(&start),
        "the world beside the recording",
    );
    read.moments.last().unwrap().apply_to(&mut world).unwrap();
    assert_same_poses(&poses(&world), &poses(&end), "the last moment");
    // A moment halfway, against the same run stopped there: poses and velocities both.
    let mut halfway = start.clone();
    halfway.simulate(0.15).unwrap();
    read.at(0.15 + 1e-9).unwrap().apply_to(&mut world).unwrap();
    assert_same_poses(&poses(&world), &poses(&halfway), "0.15 s");
    let velocity = |w: &World| w.free_body(1).unwrap().velocity();
    assert_eq!(
        velocity(&world),
        velocity(&halfway),
        "the glass moves as it did then"
    );
    let moved = (poses(&end)[1].translation.vector - poses(&start)[1].translation.vector).norm();
    assert!(moved > 10.0, "the glass fell ({moved} mm)");
    assert!(
        recording
            .moments
            .iter()
            .any(|m| m.contacts.iter().any(|c| c.impulse.norm() > 0.0))
    );
}

#[test]
fn damaged_recordings_are_refused_naming_the_file() {
    let Some(root) = graspit_models() else { return };
    let (start, _, recording) = recorded_fall(&root);
    let dir = scratch("damaged");
    let file = dir.join("fall.clasprec");
    save_recording(&recording, &start, &file, Some(&root)).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let cases = [
        (
            "cut.clasprec",
            text[..text.len() / 2].to_string(),
            "not a Clasp recording",
        ),
        (
            "other.clasprec",
            text.replace("\"clasp_recording\":1", "\"clasp_recording\":7"),
            "format 7",
        ),
        (
            "nan.clasprec",
            text.replacen("\"time\":0.0", "\"time\":\"x\"", 1),
            "moment 0",
        ),
        (
            "world.clasprec",
            text.replacen("\"poses\":[[", "\"poses\":[[1,2,3,1,0,0,0],[", 1),
            "places 3 bodies and moves 2",
        ),
    ];
    for (name, text, said) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let error = load_recording(&Disk, &path, None).unwrap_err().to_string();
        assert!(
            error.contains(name) && error.contains(said),
            "{name}: {error}"
        );
    }
    // A world beside it with as many bodies but other ones is refused, not mapped pose by pose.
    let swapped = dir.join("swapped.clasprec");
    std::fs::write(
        &swapped,
        text.replace(
            "\"bodies\":[\"table\",\"glass\"]",
            "\"bodies\":[\"glass\",\"table\"]",
        ),
    )
    .unwrap();
    let error = load_recording(&Disk, &swapped, None)
        .unwrap_err()
        .to_string();
    assert!(error.contains("not the recorded one"), "{error}");
    // A moment of another world is refused by the world, which is left as it was.
    let mut other = glass_on_table(&root);
    let before = poses(&other);
    let mut fewer = recording.moments[0].clone();
    fewer.poses.pop();
    assert!(fewer.apply_to(&mut other).is_err());
    assert_same_poses(&poses(&other), &before, "a refused moment changes nothing");
}
