//! `--record` and `--video` on `simulate`, `grasp --test` and `plan`: the files written read
//! back (Clasp's recording through clasp-io, the GIF through its decoder), and bad requests
//! refused before anything runs. The `.rrd` files are read back by rerun's SDK in the Python
//! tests (`crates/clasp-py/tests/test_recordings.py`).

use std::{
    fs::File,
    path::{Path, PathBuf},
    process::{Command, Output},
};

use clasp_io::{Disk, fixtures::graspit_models, load_recording};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clasp-cli"))
        .args(args)
        .current_dir(workspace())
        .env_remove("GRASPIT")
        .output()
        .unwrap()
}

fn succeeded(output: &Output) -> String {
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{said}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clasp-cli-rec-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn simulate_records_every_hundredth_of_a_second_to_a_file_the_app_reads() {
    let Some(root) = graspit_models() else { return };
    let file = scratch("simulate").join("glass.clasprec");
    let said = succeeded(&run(&[
        "simulate",
        "models/worlds/graspit_glass_on_table.xml",
        "--seconds",
        "2",
        "--record",
        text(&file),
        "--graspit-root",
        text(&root),
    ]));
    assert!(said.contains("recorded 201 moments"), "{said}");
    let (world, recording) = load_recording(&Disk, &file, None).unwrap();
    assert_eq!(recording.moments.len(), 201);
    assert!((recording.duration() - 2.0).abs() < 1e-9);
    assert_eq!(recording.moments[0].poses.len(), world.body_ids().len());
    // The glass rests on the table: each moment has its contacts, the later ones pressed.
    let last = recording.moments.last().unwrap();
    assert!(!last.contacts.is_empty() && last.contacts.iter().any(|c| c.impulse.z != 0.0));
}

/// Half a second of RaiSim's four spheres falling, drawn into `file`; what the CLI said.
fn falling_spheres_video(file: &Path, size: &str, fps: &str, more: &[&str]) -> String {
    let mut args = vec![
        "simulate",
        "models/worlds/raisim_four_spheres.xml",
        "--seconds",
        "0.5",
    ];
    args.extend(["--video", text(file), "--size", size, "--fps", fps]);
    args.extend(more);
    succeeded(&run(&args))
}

#[test]
fn a_video_of_falling_spheres_has_a_frame_for_each_thirtieth_and_they_move() {
    let file = scratch("video").join("fall.gif");
    let said = falling_spheres_video(&file, "160x120", "30", &["--camera", "400,0,0,0,0,0"]);
    assert!(
        said.contains("wrote 16 frames of 160x120 at 30 fps"),
        "{said}"
    );
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(File::open(&file).unwrap()).unwrap();
    assert_eq!((decoder.width(), decoder.height()), (160, 120));
    let (mut frames, mut hundredths) = (Vec::new(), 0);
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        hundredths += u32::from(frame.delay);
        frames.push(frame.buffer.to_vec());
    }
    // 30 fps in GIF's hundredths: 3, 4, 3, 3, 4, … — 16 frames play in 0.53 s.
    assert_eq!(hundredths, 53);
    assert_eq!(frames.len(), 16);
    // The spheres fall 1.2 m in 0.5 s: the last frame differs from the first.
    let (first, last) = (&frames[0], &frames[15]);
    let changed = first
        .chunks(4)
        .zip(last.chunks(4))
        .filter(|(a, b)| a != b)
        .count();
    assert!(changed > 100, "{changed} pixels changed");
}

/// An MP4 through the ffmpeg program: ffprobe reads back its frames and size (an odd side
/// padded, as H.264's 4:2:0 needs).
#[test]
fn an_mp4_goes_through_ffmpeg_and_ffprobe_reads_it_back() {
    let has_ffmpeg = Command::new("ffprobe")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_ffmpeg {
        clasp_io::fixtures::skipped("ffmpeg is not installed (apt-get install ffmpeg)");
        return;
    }
    let file = scratch("mp4").join("fall.mp4");
    let said = falling_spheres_video(&file, "161x121", "20", &[]);
    assert!(
        said.contains("wrote 11 frames of 162x122 at 20 fps"),
        "{said}"
    );
    let probe = Command::new("ffprobe")
        .args(["-v", "error", "-count_frames", "-select_streams", "v:0"])
        .args([
            "-show_entries",
            "stream=nb_read_frames,width,height",
            "-of",
            "csv=p=0",
        ])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&probe.stdout).trim(), "162,122,11");
}

#[test]
fn grasp_test_on_the_default_scene_records_each_run() {
    let dir = scratch("grasp");
    let test = dir.join("test.clasprec");
    let world = workspace().join("models/worlds/default.xml");
    let said = succeeded(&run(&[
        "grasp",
        text(&world),
        "--auto",
        "--test",
        "--test-seconds",
        "0.2",
        "--record",
        text(&test),
    ]));
    assert!(said.contains("recorded"), "{said}");
    let (_, recording) = load_recording(&Disk, &test, None).unwrap();
    // Each direction's run, one after another, every 0.01 s (a run ends early once the
    // object has left the hand).
    assert!(recording.moments.len() > 6, "{}", recording.moments.len());
    for (k, moment) in recording.moments.iter().enumerate() {
        assert!((moment.time - k as f64 * 0.01).abs() < 1e-9);
    }
    let object = |m: &clasp_core::Moment| m.poses[0].translation.vector;
    let moved = recording
        .moments
        .iter()
        .map(|m| (object(m) - object(&recording.moments[0])).norm());
    assert!(
        moved.fold(0.0, f64::max) > 0.01,
        "the pulls move the object"
    );
}

/// The grasps `plan` finds for GraspIt's Barrett on its mug, best first, a second apart.
#[test]
fn plan_records_its_grasps_a_second_apart() {
    let Some(library) = graspit_models() else {
        return;
    };
    let dir = scratch("plan");
    let world = dir.join("w.xml");
    let text_of_world = format!(
        "<world><graspableBody><filename>{0}/objects/mug.xml</filename></graspableBody>\
         <robot><filename>{0}/robots/Barrett/Barrett.xml</filename>\
         <transform><translation>0 0 1000</translation></transform></robot></world>",
        library.display()
    );
    std::fs::write(&world, text_of_world).unwrap();
    let plan = dir.join("plan.clasprec");
    succeeded(&run(&[
        "plan",
        text(&world),
        "--steps",
        "300",
        "--grasps",
        "3",
        "--seed",
        "1",
        "--record",
        text(&plan),
    ]));
    let (_, grasps) = load_recording(&Disk, &plan, None).unwrap();
    assert!(!grasps.moments.is_empty() && grasps.moments.len() <= 3);
    for (k, moment) in grasps.moments.iter().enumerate() {
        assert_eq!(moment.time, k as f64);
    }
}

#[test]
fn unknown_recording_and_video_kinds_are_refused_before_anything_runs() {
    let dir = scratch("refused");
    let world = "models/worlds/raisim_four_spheres.xml";
    for (flag, name, fps, said) in [
        ("--record", "run.txt", None, "a recording is a .rrd file"),
        ("--video", "run.avi", None, "a video is a .gif"),
        ("--video", "fast.gif", Some("60"), "give 1 to 50"),
    ] {
        let path = dir.join(name);
        let mut args = vec!["simulate", world, "--seconds", "0.1", flag, text(&path)];
        args.extend(fps.map(|f| ["--fps", f]).into_iter().flatten());
        let output = run(&args);
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success() && error.contains(said), "{error}");
        assert!(!path.exists());
    }
    let output = run(&[
        "grasp",
        "models/worlds/default.xml",
        "--auto",
        "--record",
        text(&dir.join("g.clasprec")),
    ]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("add --test"));
}
