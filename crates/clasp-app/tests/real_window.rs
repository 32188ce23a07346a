//! The real app in a real X window (Xvfb) with software Vulkan: it renders the default scene,
//! saves a screenshot, takes a real click, writes its state and exits cleanly.

mod common;

use common::urdf_moving_joints;
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
    clasp_io::fixtures::skipped(&format!(
        "{missing:?} not installed (apt-get install xvfb xauth mesa-vulkan-drivers xdotool)"
    ));
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
        // Clasp's own file browser: a test never waits on a system dialog.
        .env("CLASP_FILE_BROWSER", "1")
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
    let log = run_clasp_under_xvfb(&args, None);
    let errors: Vec<&str> = log.lines().filter(|l| l.contains("ERROR")).collect();
    assert!(
        errors.is_empty(),
        "the start-up log has errors: {errors:#?}"
    );

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
    assert!(names.contains(&"clasp_table"), "{names:?}");
    assert_eq!(
        bodies.len(),
        11,
        "mug, table, palm and eight finger links: {names:?}"
    );
    let mug = bodies.iter().find(|b| b["name"] == "clasp_mug").unwrap();
    assert_eq!(mug["kind"], "graspable");
    let dofs = state["robots"][0]["dof_values"].as_array().unwrap();
    assert_eq!(dofs.len(), 4);
}

#[test]
fn playing_the_default_scene_sets_the_mug_down_on_its_table() {
    if skip_without(&["xvfb-run"]) {
        return;
    }
    let dir = scratch_dir("play");
    let json = dir.join("state.json");
    let args = [
        "--play",
        "--exit-after",
        "5",
        "--state-out",
        json.to_str().unwrap(),
    ];
    let log = run_clasp_under_xvfb(&args, None);
    let errors: Vec<&str> = log.lines().filter(|l| l.contains("ERROR")).collect();
    assert!(errors.is_empty(), "the log has errors: {errors:#?}");
    let state = read_state(&json);
    assert_eq!(state["simulation"]["playing"], true, "{state}");
    assert!(
        state["simulation"]["time"].as_f64().unwrap() > 0.1,
        "{state}"
    );
    // It fell the 1 mm onto the table and stands there (it fell for ever before).
    let mug = mug_of(&state);
    let z = mug["position"][2].as_f64().unwrap();
    let speed = mug["speed"].as_f64().unwrap();
    assert!((z + 1.0).abs() < 0.1 && speed < 1.0, "{mug}");
}

#[test]
fn a_file_that_does_not_load_leaves_the_default_scene_open() {
    if skip_without(&["xvfb-run"]) {
        return;
    }
    let dir = scratch_dir("bad-file");
    let json = dir.join("state.json");
    let bad = dir.join("broken.xml");
    std::fs::write(
        &bad,
        "<?xml version=\"1.0\"?>\n<world>\n  <robot>\n</world>\n",
    )
    .unwrap();
    let args = [
        bad.to_str().unwrap(),
        "--exit-after",
        "1",
        "--state-out",
        json.to_str().unwrap(),
    ];
    let log = run_clasp_under_xvfb(&args, None);
    assert!(
        log.contains("broken.xml:"),
        "the error names the file: {log}"
    );
    let state = read_state(&json);
    assert_eq!(state["source"], "default scene");
    assert_eq!(state["bodies"].as_array().unwrap().len(), 11);
}

/// The acceptance's first step, with Transparency off: a real click selects the mug, and its
/// red arrow, whose grab point lies inside the mug, is drawn over it where the pointer can see it.
#[test]
fn a_real_click_on_the_mug_selects_it_and_its_handles_show_over_it() {
    if skip_without(&["xvfb-run", "xdotool"]) {
        return;
    }
    let dir = scratch_dir("real-click");
    let shots = shots_dir();
    let (json, png) = (dir.join("state.json"), shots.join("handles.png"));
    // Wait for the window and let it render, then move and click at once: the move, the press
    // and the release reach the app within one frame, as a quick click does. The point is on
    // the mug's wall below the thumb in the default view of a 1280x800 window.
    let driver = "xdotool search --sync --name '^Clasp$' >/dev/null; sleep 3.5; \
                  xdotool mousemove 680 520 click 1";
    let args = [
        "--exit-after",
        "12",
        "--state-out",
        json.to_str().unwrap(),
        "--screenshot",
        png.to_str().unwrap(),
    ];
    run_clasp_under_xvfb(&args, Some(driver));
    let state = read_state(&json);
    assert_eq!(state["selection"], serde_json::json!(["clasp_mug"]));
    assert_eq!(state["selected"], serde_json::json!(["clasp_mug"]));
    let inside = grab_point_of_red_arrow(&state);
    let scene = clasp_app::open_scene(&[]);
    let mug = scene
        .resource::<clasp_app::Document>()
        .world
        .body(clasp_core::BodyId::Free(0));
    let (lo, hi) = mug.unwrap().mesh().bounding_box();
    assert!(
        (0..3).all(|i| inside[i] > lo[i] && inside[i] < hi[i]),
        "the grab point {inside} lies inside the mug's box"
    );
    let at = window_point(&state, &inside);
    assert!(
        reddish_near(&png, at),
        "the red arrow shows over the mug at {at:?} (docs/images/handles.png)"
    );
}

/// Where the screenshots for the docs go: `target/real-window/`.
fn shots_dir() -> PathBuf {
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/real-window");
    std::fs::create_dir_all(&shots).unwrap();
    shots
}

/// Two thirds of the way along the mug's red (x) arrow, for the camera of a run's state.
fn grab_point_of_red_arrow(state: &serde_json::Value) -> nalgebra::Point3<f64> {
    let scene = clasp_app::open_scene(&[]);
    let camera: Vec<f32> = state["view"]["camera_position"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap() as f32)
        .collect();
    let min_size =
        clasp_app::dragger::min_size_for_camera_at(bevy::math::Vec3::from_slice(&camera));
    let handles = clasp_app::dragger::body_dragger(
        &scene.resource::<clasp_app::Document>().world,
        &[clasp_core::BodyId::Free(0)],
        min_size,
    )
    .unwrap();
    handles.centre + (handles.axis_tip(0) - handles.centre) * 0.66
}

/// Whether a pixel within 3 px of `at` is the red of an x handle (the mug is peach, the table
/// orange: both far greener).
fn reddish_near(png: &Path, (x, y): (i32, i32)) -> bool {
    let image = image::open(png).unwrap().to_rgb8();
    (-3..=3).any(|dx| {
        (-3..=3).any(|dy| {
            let [r, g, b] = image.get_pixel((x + dx) as u32, (y + dy) as u32).0;
            r > 180 && g < 110 && b < 110
        })
    })
}

/// Where a world point (mm) appears in the window, from the view a run wrote to its state.
fn window_point(state: &serde_json::Value, p: &nalgebra::Point3<f64>) -> (i32, i32) {
    let view = &state["view"];
    let m: Vec<f32> = view["world_to_clip"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap() as f32)
        .collect();
    let clip = bevy::math::Mat4::from_cols_slice(&m)
        * bevy::math::Vec4::new(p.x as f32, p.y as f32, p.z as f32, 1.0);
    let ndc = clip / clip.w;
    let r: Vec<f32> = view["viewport"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap() as f32)
        .collect();
    let x = r[0] + (ndc.x + 1.0) / 2.0 * (r[2] - r[0]);
    let y = r[1] + (1.0 - ndc.y) / 2.0 * (r[3] - r[1]);
    (x.round() as i32, y.round() as i32)
}

fn mug_of(state: &serde_json::Value) -> &serde_json::Value {
    state["bodies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "clasp_mug")
        .unwrap()
}

/// The acceptance run: in a real window, click the mug, drag its x arrow into the hand, clear
/// the selection and press Toggle Collision. The mug stops at contact; the world's collisions go
/// off. Screenshots before and after go to `target/real-window/` for the user guide.
#[test]
fn a_real_mouse_drags_the_mug_into_the_hand_and_toggles_collisions() {
    if skip_without(&["xvfb-run", "xdotool"]) {
        return;
    }
    let dir = scratch_dir("real-drag");
    let shots = shots_dir();
    let (before_png, after_png) = (shots.join("before.png"), shots.join("after.png"));
    let (first, during, last) = (
        dir.join("first.json"),
        dir.join("state.json"),
        dir.join("after-drag.json"),
    );

    // A first run, untouched, shows the scene and says where its camera looks from.
    let args = [
        "--screenshot",
        before_png.to_str().unwrap(),
        "--exit-after",
        "3",
        "--state-out",
        first.to_str().unwrap(),
    ];
    run_clasp_under_xvfb(&args, None);
    let state = read_state(&first);
    let start = mug_of(&state)["position"].clone();

    // Where to click and drag, worked out as the app does: the mug's dragger for this camera.
    let grab = grab_point_of_red_arrow(&state);
    let (mx, my) = window_point(&state, &nalgebra::Point3::new(0.0, -39.5, 25.0));
    let (gx, gy) = window_point(&state, &grab);
    let steps: Vec<(i32, i32)> = (1..=20)
        .map(|k| grab - nalgebra::Vector3::x() * (7.5 * k as f64))
        .map(|p| window_point(&state, &p))
        .collect();
    let toggle = state["ui"]["toggle_collision"].as_array().unwrap();
    let (tx, ty) = (toggle[0].as_f64().unwrap(), toggle[1].as_f64().unwrap());

    let moves: String = steps
        .iter()
        .map(|(x, y)| format!("xdotool mousemove {x} {y}; sleep 0.15; "))
        .collect();
    let driver = format!(
        // Without a window manager nothing gives the window the keyboard: focus it.
        "W=$(xdotool search --sync --name '^Clasp$' | head -1); sleep 3; xdotool windowfocus $W; \
         xdotool mousemove {mx} {my}; sleep 1; xdotool click 1; sleep 1; \
         xdotool mousemove {gx} {gy}; sleep 1; xdotool mousedown 1; sleep 0.3; {moves}\
         xdotool mouseup 1; sleep 1.5; cp {during} {last}; \
         xdotool key Escape; sleep 0.5; xdotool mousemove {tx} {ty}; sleep 1; xdotool click 1; sleep 1",
        during = during.display(),
        last = last.display(),
    );
    let args = [
        "--screenshot",
        after_png.to_str().unwrap(),
        "--exit-after",
        "30",
        "--state-out",
        during.to_str().unwrap(),
    ];
    run_clasp_under_xvfb(&args, Some(&driver));

    // Right after the drag: the mug moved toward the hand and stopped touching it.
    let dragged = read_state(&last);
    let (x0, x1) = (
        start[0].as_f64().unwrap(),
        mug_of(&dragged)["position"][0].as_f64().unwrap(),
    );
    assert!(x1 < x0 - 1.0, "the mug moved toward the hand: {x0} -> {x1}");
    assert!(
        x1 > x0 - 150.0,
        "and stopped before the pointer's end: {x1}"
    );
    let gaps: Vec<f64> = dragged["contacts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["body"] == "clasp_mug")
        .map(|c| c["separation"].as_f64().unwrap())
        .collect();
    assert!(!gaps.is_empty(), "contacts where the mug stopped");
    let gap = gaps.iter().copied().fold(f64::INFINITY, f64::min);
    assert!(
        gap > 0.0 && gap < 0.05,
        "a gap under half the 0.1 mm threshold: {gap}"
    );
    assert_eq!(dragged["selection"], serde_json::json!(["clasp_mug"]));

    // After Toggle Collision with nothing selected: the whole world's collisions are off.
    let end = read_state(&during);
    assert_eq!(end["selection"], serde_json::json!([]));
    assert_eq!(end["collisions"]["world_on"], false);
    assert_eq!(mug_of(&end)["position"], mug_of(&dragged)["position"]);
    assert!(distinct_colours(&before_png) > 100 && distinct_colours(&after_png) > 100);
}

/// Reads a number out of a state's JSON.
fn number(value: &serde_json::Value) -> f64 {
    value
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {value}"))
}

/// `--play`: the real-time factor is the simulated time over the wall clock. Copies of the
/// state taken seconds apart say when each was written (the system clock: a stopwatch) and where
/// the run stood. The meter's clock is the stopwatch's, and its factor (the last second's) is the
/// simulated time over the stopwatch's time of the last seconds, once the mug has come to rest.
#[test]
fn the_real_time_factor_is_simulated_time_over_the_wall_clock() {
    if skip_without(&["xvfb-run"]) {
        return;
    }
    let dir = scratch_dir("real-time");
    let live = dir.join("state.json");
    let copy = |name: &str| dir.join(name);
    let driver = format!(
        "xdotool search --sync --name '^Clasp$' >/dev/null 2>&1 || sleep 3; sleep 5; \
         cp {live} {early}; sleep 5; cp {live} {middle}; sleep 2.5; cp {live} {late}",
        live = live.display(),
        early = copy("early.json").display(),
        middle = copy("middle.json").display(),
        late = copy("late.json").display()
    );
    let args = [
        "--play",
        "--exit-after",
        "15",
        "--state-out",
        live.to_str().unwrap(),
    ];
    run_clasp_under_xvfb(&args, Some(&driver));
    let (a, m, b) = (
        read_state(&copy("early.json")),
        read_state(&copy("middle.json")),
        read_state(&copy("late.json")),
    );
    let between = |x: &serde_json::Value, y: &serde_json::Value| {
        let stopwatch = number(&y["written_at_unix"]) - number(&x["written_at_unix"]);
        let simulated = number(&y["simulation"]["time"]) - number(&x["simulation"]["time"]);
        let metered = number(&y["simulation"]["meter"]["run_wall_seconds"])
            - number(&x["simulation"]["meter"]["run_wall_seconds"]);
        (stopwatch, simulated, metered)
    };
    let (stopwatch, _, metered) = between(&a, &b);
    assert!(stopwatch > 4.0, "the copies are seconds apart: {stopwatch}");
    assert!(
        (metered - stopwatch).abs() < 0.05 * stopwatch,
        "the meter's clock is the wall's: {metered} s against {stopwatch} s"
    );
    let (stopwatch, simulated, _) = between(&m, &b);
    let watched = simulated / stopwatch;
    let factor = number(&b["simulation"]["real_time_factor"]);
    eprintln!("real-time factor {factor:.3}, the stopwatch's {watched:.3} (debug build)");
    assert!(
        (factor - watched).abs() < 0.1 * watched,
        "the factor is what the stopwatch sees: {factor:.3} against {watched:.3}"
    );
    // The status bar says what holds it back, in the meter's own figures.
    let meter = &b["simulation"]["meter"];
    let said = b["status_bar"]["simulation"].as_str().unwrap();
    if factor < 0.95 {
        let frame = number(&meter["frame_ms"]);
        assert!(
            said.contains(&format!(
                "{factor:.2}× real time: the frame takes {frame:.0} ms"
            )),
            "{said}"
        );
    } else {
        assert!(said.contains("× real time)"), "{said}");
    }
}

/// A URDF hand opened from the command line: the robot is what is picked, and its sliders
/// read the URDF's joint names.
#[test]
fn a_urdf_hand_is_picked_as_a_robot_with_its_joints_named() {
    if skip_without(&["xvfb-run"]) {
        return;
    }
    let Some(hands) = clasp_io::fixtures::field_hands() else {
        clasp_io::fixtures::skipped("../shared/hands is not here");
        return;
    };
    let urdf = hands.join("allegro_hand/allegro_hand_right.urdf");
    let dir = scratch_dir("urdf-hand");
    let json = dir.join("state.json");
    let args = [
        urdf.to_str().unwrap(),
        "--exit-after",
        "5",
        "--state-out",
        json.to_str().unwrap(),
    ];
    run_clasp_under_xvfb(&args, None);
    let state = read_state(&json);
    let robot = &state["robots"][0];
    let name = robot["name"].as_str().unwrap();
    assert_eq!(
        state["selected"],
        serde_json::json!([format!("robot {name}")])
    );
    let joints = urdf_moving_joints(&urdf);
    let mut labels: Vec<String> = robot["dof_labels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_owned())
        .collect();
    labels.sort();
    assert_eq!(labels, joints);
}

/// A refused Toggle Collision stands in the status bar while it is true, saved or not, and
/// leaves it when File → Open (Ctrl+O, a path typed into Clasp's browser) opens another world.
#[test]
fn a_refused_toggle_leaves_the_status_bar_when_another_world_opens() {
    if skip_without(&["xvfb-run", "xdotool"]) {
        return;
    }
    let dir = scratch_dir("error-clears");
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let models = models.canonicalize().unwrap();
    // The default scene with its mug sunk into the table.
    let sunk = dir.join("sunk.xml");
    std::fs::write(
        &sunk,
        format!(
            "<world><graspableBody><filename>{m}/objects/clasp_mug.xml</filename>\
             <transform><translation>0 0 -20</translation></transform></graspableBody>\
             <obstacle><filename>{m}/obstacles/clasp_table.xml</filename>\
             <transform><translation>0 0 -1</translation></transform></obstacle></world>",
            m = models.display()
        ),
    )
    .unwrap();
    let other = models.join("worlds/default.xml");
    let (first, refused, end) = (
        dir.join("first.json"),
        dir.join("refused.json"),
        dir.join("state.json"),
    );
    let sunk_arg = sunk.to_str().unwrap();
    let args = [
        sunk_arg,
        "--exit-after",
        "3",
        "--state-out",
        first.to_str().unwrap(),
    ];
    run_clasp_under_xvfb(&args, None);
    let toggle = read_state(&first)["ui"]["toggle_collision"].clone();
    let (tx, ty) = (number(&toggle[0]), number(&toggle[1]));
    let driver = format!(
        "W=$(xdotool search --sync --name '^Clasp$' | head -1); sleep 3; xdotool windowfocus $W; \
         xdotool mousemove {tx} {ty}; sleep 1; xdotool click 1; sleep 1.5; xdotool click 1; sleep 1.5; \
         xdotool key ctrl+s; sleep 1.5; cp {end} {refused}; \
         xdotool key ctrl+o; sleep 2; xdotool type --delay 20 '{other}'; \
         sleep 0.5; xdotool key Return; sleep 4",
        end = end.display(),
        refused = refused.display(),
        other = other.display(),
    );
    let args = [
        sunk_arg,
        "--exit-after",
        "40",
        "--state-out",
        end.to_str().unwrap(),
    ];
    run_clasp_under_xvfb(&args, Some(&driver));
    let refused = read_state(&refused);
    let error = refused["status_bar"]["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("pass into each other"),
        "{:#?}",
        refused["status_bar"]
    );
    let end = read_state(&end);
    assert_eq!(end["source"], other.display().to_string());
    assert_eq!(
        end["status_bar"]["error"],
        serde_json::Value::Null,
        "{:#?}",
        end["status_bar"]
    );
}

/// A pair switched off with a real pointer (a finger, then the mug Shift-clicked, then Toggle
/// Collision) is listed in the inspector's Collisions section; View → Approach and closing draws
/// the hand's arrows. Screenshots of both go to `target/real-window/` for the docs.
#[test]
fn a_pair_switched_off_shows_in_the_inspector_and_the_hands_arrows_on_request() {
    if skip_without(&["xvfb-run", "xdotool"]) {
        return;
    }
    let dir = scratch_dir("pair-off");
    let shots = shots_dir();
    let (first, end) = (dir.join("first.json"), dir.join("state.json"));
    let args = ["--exit-after", "3", "--state-out", first.to_str().unwrap()];
    run_clasp_under_xvfb(&args, None);
    let state = read_state(&first);
    let scene = clasp_app::open_scene(&[]);
    let world = &scene.resource::<clasp_app::Document>().world;
    let finger = clasp_core::BodyId::Link {
        robot: clasp_core::RobotId::from_index(0),
        chain: 2,
        link: 0,
    };
    let link = world.body(finger).unwrap();
    let (lo, hi) = link.mesh().bounding_box();
    let (fx, fy) = window_point(&state, &(link.pose() * nalgebra::center(&lo, &hi)));
    let (mx, my) = window_point(&state, &nalgebra::Point3::new(0.0, -39.5, 25.0));
    let toggle = &state["ui"]["toggle_collision"];
    let (tx, ty) = (number(&toggle[0]), number(&toggle[1]));
    let menu = &state["ui"]["view_menu"];
    let (vx, vy) = (number(&menu[0]), number(&menu[1]));
    let pair_png = shots.join("collisions-section.png");
    let driver = format!(
        "W=$(xdotool search --sync --name '^Clasp$' | head -1); sleep 3; xdotool windowfocus $W; \
         xdotool mousemove {fx} {fy}; sleep 1; xdotool click 1; sleep 1; \
         xdotool keydown shift; xdotool mousemove {mx} {my}; sleep 1; xdotool click 1; sleep 1; \
         xdotool keyup shift; xdotool mousemove {tx} {ty}; sleep 1; xdotool click 1; sleep 2"
    );
    let args = [
        "--exit-after",
        "16",
        "--state-out",
        end.to_str().unwrap(),
        "--screenshot",
        pair_png.to_str().unwrap(),
    ];
    run_clasp_under_xvfb(&args, Some(&driver));
    let pair = read_state(&end);
    let finger_name = link.name.clone();
    assert_eq!(
        pair["selection"],
        serde_json::json!([finger_name.clone(), "clasp_mug"])
    );
    let lines = pair["inspector_collisions"].as_array().unwrap();
    let off = format!("off: clasp_mug × {finger_name}");
    assert!(
        lines.iter().any(|l| l == &serde_json::json!(off)),
        "{lines:?}"
    );

    // View → Approach and closing, pressed where the open menu says its checkbox is.
    let read_toggle = format!(
        "python3 -c \"import json; p = json.load(open('{end}'))['ui']['approach_toggle']; \
         print(int(p[0]), int(p[1]))\"",
        end = end.display()
    );
    let driver = format!(
        "W=$(xdotool search --sync --name '^Clasp$' | head -1); sleep 3; xdotool windowfocus $W; \
         xdotool mousemove {vx} {vy}; sleep 1; xdotool click 1; sleep 2; \
         xdotool mousemove $({read_toggle}); sleep 1; xdotool click 1; sleep 1; \
         xdotool key Escape; sleep 2"
    );
    let arrows_png = shots.join("approach-arrows.png");
    let args = [
        "--exit-after",
        "14",
        "--state-out",
        end.to_str().unwrap(),
        "--screenshot",
        arrows_png.to_str().unwrap(),
    ];
    run_clasp_under_xvfb(&args, Some(&driver));
    assert_eq!(read_state(&end)["shown"]["approach_and_closing"], true);
}

/// `--offscreen`: the app's own frame drawn into an image with no window system at all (no
/// DISPLAY), its figures printed and its last frame saved: the panels and the scene in it.
#[test]
fn the_app_draws_offscreen_without_a_window_system_and_prints_its_frame_rate() {
    if !Path::new("/usr/share/vulkan/icd.d").exists() {
        clasp_io::fixtures::skipped("no Vulkan driver (apt-get install mesa-vulkan-drivers)");
        return;
    }
    let dir = scratch_dir("offscreen");
    let png = dir.join("last.png");
    let output = Command::new(env!("CARGO_BIN_EXE_clasp"))
        .args(["--offscreen", "40", "--size", "480x320", "--screenshot"])
        .arg(&png)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let figures = said
        .lines()
        .find(|l| l.starts_with("offscreen 480x320: "))
        .unwrap_or_default();
    assert!(
        figures.contains(" fps · ") && figures.contains(" ms p99 over 10 frames"),
        "{said}"
    );
    let image = image::open(&png).unwrap().to_rgb8();
    assert_eq!(image.dimensions(), (480, 320));
    let colours = image.pixels().map(|p| p.0).collect::<HashSet<_>>().len();
    assert!(
        colours > 50,
        "the panels and the scene are drawn: {colours} colours"
    );
}
