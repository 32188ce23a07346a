//! The real app in a real X window (Xvfb) with software Vulkan: it renders the default scene,
//! saves a screenshot, takes a real click, writes its state and exits cleanly.

use std::{
    collections::HashSet,
    path::{Path, PathBuf},
    process::Command,
    sync::Mutex,
};

fn have(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// True (after saying so) when a program the test needs is missing; CI must have them all.
fn skip_without(programs: &[&str]) -> bool {
    let missing: Vec<&str> = programs.iter().copied().filter(|p| !have(p)).collect();
    if missing.is_empty() {
        return false;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must have {missing:?} (.ci/run installs them)"
    );
    eprintln!(
        "SKIPPED: {missing:?} not installed (apt-get install xvfb xauth mesa-vulkan-drivers xdotool)"
    );
    true
}

/// A fresh folder for this run's files.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clasp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `clasp ARGS` in a fresh X server and returns what it logged, failing unless it exits
/// with 0. `driver`, if given, is a shell script run beside the app to move and click the
/// real pointer.
fn run_clasp_under_xvfb(args: &[&str], driver: Option<&str>) -> String {
    // One X server at a time: `xvfb-run -a` can pick the same free display for two servers
    // started together, and two software renderers on two cores only slow each other down.
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    let _turn = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let clasp = std::iter::once(env!("CARGO_BIN_EXE_clasp"))
        .chain(args.iter().copied())
        .map(|a| format!("'{a}'"))
        .collect::<Vec<_>>()
        .join(" ");
    let script = format!("{clasp} & app=$!; {}; wait $app", driver.unwrap_or("true"));
    // `timeout` ends a hung app so the test fails instead of waiting forever.
    let output = Command::new("timeout")
        .args(["300", "xvfb-run", "-a", "-s", "-screen 0 1280x800x24"])
        .args(["sh", "-c", &script])
        .env("WGPU_BACKEND", "vulkan")
        .output()
        .expect("timeout and xvfb-run start");
    let log = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        output.status.success(),
        "clasp exited with {}:\n{log}",
        output.status
    );
    log
}

fn read_state(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn distinct_colours(png: &Path) -> usize {
    let image = image::open(png).unwrap().to_rgb8();
    assert_eq!(image.dimensions(), (1280, 800), "the window's size");
    image.pixels().map(|p| p.0).collect::<HashSet<_>>().len()
}

#[test]
fn the_default_scene_renders_in_a_real_window() {
    if skip_without(&["xvfb-run"]) {
        return;
    }
    let dir = scratch_dir("real-window");
    let (png, json) = (dir.join("shot.png"), dir.join("state.json"));
    let (png_arg, json_arg) = (png.to_str().unwrap(), json.to_str().unwrap());
    let args = [
        "--screenshot",
        png_arg,
        "--exit-after",
        "3",
        "--state-out",
        json_arg,
    ];
    run_clasp_under_xvfb(&args, None);

    let colours = distinct_colours(&png);
    assert!(
        colours > 100,
        "a lit scene has many shades, found {colours} colours"
    );

    let state = read_state(&json);
    let bodies = state["bodies"].as_array().unwrap();
    let names: Vec<&str> = bodies.iter().map(|b| b["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"clasp_mug"), "{names:?}");
    assert!(names.contains(&"ClaspHandBase"), "{names:?}");
    assert_eq!(
        bodies.len(),
        10,
        "mug, palm and eight finger links: {names:?}"
    );
    let mug = bodies.iter().find(|b| b["name"] == "clasp_mug").unwrap();
    assert_eq!(mug["kind"], "graspable");
    let dofs = state["robots"][0]["dof_values"].as_array().unwrap();
    assert_eq!(dofs.len(), 4);
}

#[test]
fn a_file_that_is_not_a_world_leaves_the_default_scene_open() {
    if skip_without(&["xvfb-run"]) {
        return;
    }
    let dir = scratch_dir("not-a-world");
    let json = dir.join("state.json");
    let robot =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/robots/ClaspHand/ClaspHand.xml");
    let args = [
        robot.to_str().unwrap(),
        "--exit-after",
        "1",
        "--state-out",
        json.to_str().unwrap(),
    ];
    let log = run_clasp_under_xvfb(&args, None);
    assert!(
        log.contains("ClaspHand.xml:") && log.contains("not a GraspIt world file"),
        "{log}"
    );
    assert_eq!(read_state(&json)["source"], "default scene");
}

#[test]
fn a_real_click_on_the_mug_selects_it() {
    if skip_without(&["xvfb-run", "xdotool"]) {
        return;
    }
    let dir = scratch_dir("real-click");
    let json = dir.join("state.json");
    // Wait for the window, let it render, then move, let the hover catch up, and click. The
    // point is on the mug's wall below the thumb in the default view of a 1280x800 window.
    let driver = "xdotool search --sync --name '^Clasp$' >/dev/null; sleep 2; \
                  xdotool mousemove 830 500; sleep 1.5; xdotool click 1";
    let args = ["--exit-after", "12", "--state-out", json.to_str().unwrap()];
    run_clasp_under_xvfb(&args, Some(driver));
    assert_eq!(
        read_state(&json)["selection"],
        serde_json::json!(["clasp_mug"])
    );
}
