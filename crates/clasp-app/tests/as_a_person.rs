//! The app as a person finds it, without GPU or window: errors that leave the status bar when
//! the world changes, collision switches shown where they live, a URDF hand picked as a robot
//! with its joints' names, the unsaved-edits question only once the new world is ready, quick
//! clicks, the Auto Grasp warning and the honest real-time factor.

mod common;

use std::path::Path;

use bevy::{
    input::{ButtonState, mouse::MouseButtonInput},
    prelude::*,
    window::WindowEvent,
};
use clasp_app::{
    dialog::{DialogPurpose, FileDialogs, unsaved::Leaving},
    editor::{Picked, collision_state::collision_lines},
    ui::status_shown,
};
use clasp_core::{BodyId, Element, Pose, RobotId};
use common::*;

const MUG: BodyId = BodyId::Free(0);
const HAND: RobotId = RobotId::from_index(0);
const FINGER: BodyId = BodyId::Link {
    robot: HAND,
    chain: 2,
    link: 0,
};

fn default_world_file() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/worlds/default.xml")
}

/// What the status bar says now.
fn status(app: &App) -> clasp_app::ui::StatusShown {
    let world = app.world();
    status_shown(
        world.resource::<Document>(),
        world.resource::<Selection>(),
        world.resource::<clasp_app::editor::Simulation>(),
        world.resource::<Log>(),
    )
}

/// The mug moved into the hand with the world's collisions off, then switched back on: refused.
fn refuse_a_toggle(app: &mut App) {
    edit(app, |e| {
        e.clear_selection();
        e.toggle_collisions();
    });
    let into_hand = Pose::translation(-60.0, 0.0, 80.0);
    edit(app, |e| e.move_element(Element::Body(0), into_hand));
    assert!(!edit(app, |e| e.toggle_collisions()), "refused");
}

#[test]
fn an_error_stands_until_the_world_changes_and_the_log_keeps_it_with_its_time() {
    let mut app = headless_app();
    assert_eq!(status(&app).error, None);
    refuse_a_toggle(&mut app);
    let standing = status(&app)
        .error
        .expect("the refusal stands in the status bar");
    assert!(standing.contains("pass into each other"), "{standing}");
    // Looking elsewhere does not make it untrue.
    edit(&mut app, |e| e.click_body(MUG, false));
    app.update();
    assert_eq!(status(&app).error.as_deref(), Some(standing.as_str()));

    // Another world: the error was about the one before.
    assert!(edit(&mut app, |e| e.open_world(&default_world_file())));
    app.update();
    assert_eq!(status(&app).error, None, "{:?}", log(&app));
    let kept = log(&app)
        .iter()
        .find(|e| e.error && e.text == standing)
        .expect("the log keeps every message");
    let at: Vec<&str> = kept.at.split(':').collect();
    assert!(
        at.len() == 3 && at.iter().all(|p| p.len() == 2 && p.parse::<u32>().is_ok()),
        "a clock time, HH:MM:SS: {}",
        kept.at
    );

    // Undo takes it away too.
    refuse_a_toggle(&mut app);
    assert!(status(&app).error.is_some());
    edit(&mut app, |e| e.undo());
    assert_eq!(status(&app).error, None);
}

#[test]
fn a_link_picked_alone_switches_that_link_and_the_inspector_lists_the_pair() {
    let mut app = headless_app();
    edit(&mut app, |e| {
        e.click_body(MUG, false);
        e.click_body(FINGER, true);
    });
    let finger_name = doc(&app).body_name(FINGER).to_owned();
    let target = edit(&mut app, |e| e.collision_target());
    assert_eq!(target, format!("the pair clasp_mug and {finger_name}"));
    assert!(!edit(&mut app, |e| e.toggle_collisions()));
    let switches = world(&app).switches().clone();
    let palm = BodyId::Palm { robot: HAND };
    assert!(!switches.pair_on(MUG, FINGER) && switches.pair_on(MUG, palm));

    let pair = format!("off: clasp_mug × {finger_name}");
    let lines = collision_lines(world(&app), app.world().resource::<Selection>());
    assert!(lines.contains(&pair), "{lines:?}");
    // The mug alone: its own switch, and the pair it is in.
    edit(&mut app, |e| e.click_body(MUG, false));
    let lines = collision_lines(world(&app), app.world().resource::<Selection>());
    assert_eq!(lines, ["world: on", "clasp_mug: on", pair.as_str()]);
    // The link alone: its switch and its robot's.
    edit(&mut app, |e| e.click_body(FINGER, false));
    let lines = collision_lines(world(&app), app.world().resource::<Selection>());
    let hand = world(&app).robot(HAND).unwrap().name.clone();
    assert_eq!(lines[1], format!("{finger_name}: on"));
    assert_eq!(lines[2], format!("robot {hand}: on"));
    assert!(lines.contains(&pair));

    // The whole hand against the mug reads as one pair of the robot.
    edit(&mut app, |e| {
        e.undo();
        e.select_robot_of(FINGER);
        e.click_body(MUG, true);
        e.toggle_collisions();
        e.clear_selection();
    });
    let lines = collision_lines(world(&app), app.world().resource::<Selection>());
    assert_eq!(
        lines,
        [
            "world: on".to_owned(),
            format!("off: clasp_mug × robot {hand}")
        ]
    );
    // The state file records the section as the inspector shows it.
    let state = clasp_app::capture::state_dump(doc(&app), app.world().resource::<Selection>());
    assert_eq!(state.inspector_collisions, lines);
}

#[test]
fn an_imported_urdf_hand_is_picked_as_a_robot_and_its_sliders_read_its_joints() {
    let Some(hands) = clasp_io::fixtures::field_hands() else {
        clasp_io::fixtures::skipped("../shared/hands is not here");
        return;
    };
    let urdf = hands.join("allegro_hand/allegro_hand_right.urdf");
    let mut app = headless_app();
    assert!(edit(&mut app, |e| e
        .import(&urdf, clasp_app::editor::ImportKind::Robot)));
    app.update();
    let robot = RobotId::from_index(1);
    let items = app.world().resource::<Selection>().items(world(&app));
    assert_eq!(items, [Picked::Robot(robot)]);
    let name = world(&app).robot(robot).unwrap().name.clone();
    assert_eq!(status(&app).selection, format!("Selected: robot {name}"));

    let state = clasp_app::capture::state_dump(doc(&app), app.world().resource::<Selection>());
    assert_eq!(state.selected, [format!("robot {name}")]);
    // The URDF's moving joints, by the names its file gives them.
    let joints = urdf_moving_joints(&urdf);
    let mut labels = state.robots[1].dof_labels.clone();
    assert_eq!(labels.len(), 16);
    labels.sort();
    assert_eq!(labels, joints);
}

#[test]
fn the_unsaved_edits_question_comes_only_once_the_new_world_is_ready() {
    let mut app = headless_app();
    edit(&mut app, |e| {
        e.set_material(MUG, clasp_core::Material::Wood);
    });
    let dir = std::env::temp_dir().join(format!("clasp-person-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("broken.xml");
    std::fs::write(&bad, "<world><graspableBody>\n").unwrap();
    let open = |app: &mut App, path: &Path| {
        app.world_mut()
            .resource_mut::<FileDialogs>()
            .deliver(DialogPurpose::OpenWorld, path.to_path_buf());
        app.update();
        finish_loads(app);
    };
    // A file that does not load asks nothing: it says why, and the edits stay.
    open(&mut app, &bad);
    assert_eq!(unsaved_question(&app), None);
    let error = status(&app).error.expect("the bad file is reported");
    assert!(error.contains("broken.xml"), "{error}");
    assert_eq!(
        world(&app).body(MUG).unwrap().material,
        clasp_core::Material::Wood
    );
    // A world that loads asks, and opens on Don't Save.
    open(&mut app, &default_world_file());
    assert_eq!(
        unsaved_question(&app),
        Some(Leaving::Open(default_world_file()))
    );
    assert_eq!(doc(&app).path, None, "the old world stays until the answer");
    answer_unsaved(&mut app, clasp_app::dialog::unsaved::Answer::DontSave);
    assert_eq!(
        doc(&app).path.as_deref(),
        Some(default_world_file().as_path())
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The left button pressed and let go within one frame, at `at`, the pointer having moved
/// there the frame before: as a quick click reaches a slow app.
fn quick_click(app: &mut App, at: Vec2) {
    pointer_move(app, at);
    let window = primary_window(app);
    let button = |state| {
        WindowEvent::MouseButtonInput(MouseButtonInput {
            button: MouseButton::Left,
            state,
            window,
        })
    };
    deliver(
        app,
        vec![button(ButtonState::Pressed), button(ButtonState::Released)],
    );
    app.update();
}

#[test]
fn a_press_and_release_inside_one_frame_still_select_and_end_a_drag() {
    let mut app = headless_app();
    let on_mug = visible_point(&mut app, MUG).expect("the mug is in sight");
    quick_click(&mut app, on_mug);
    assert_eq!(selection(&app), vec![MUG]);
    // On the mug's red arrow: the drag starts and ends in that frame, and nothing moved.
    let (camera, transform) = view(&mut app);
    let dragger = clasp_app::dragger::body_dragger(
        world(&app),
        &[MUG],
        clasp_app::dragger::min_size_for_camera_at(transform.translation()),
    )
    .unwrap();
    let grab = dragger.centre + (dragger.axis_tip(0) - dragger.centre) * 0.66;
    let at = camera
        .world_to_viewport(&transform, clasp_app::convert::point(&grab))
        .unwrap();
    let before = world(&app).body(MUG).unwrap().pose();
    quick_click(&mut app, at);
    assert!(
        app.world()
            .resource::<clasp_app::dragger::ActiveDrag>()
            .0
            .is_none()
    );
    assert_eq!(world(&app).body(MUG).unwrap().pose(), before);
    assert_eq!(
        selection(&app),
        vec![MUG],
        "a click on a handle keeps the selection"
    );
}

#[test]
fn auto_grasp_says_when_the_object_lies_behind_the_palm() {
    let mut app = headless_app();
    assert_eq!(
        clasp_app::editor::move_requests::object_behind_palm(world(&app), HAND),
        None,
        "the default hand faces its mug"
    );
    // Turned half a turn about the vertical through its palm, collisions off to turn freely.
    edit(&mut app, |e| {
        e.toggle_collisions();
        let palm = e.doc.world.robot(HAND).unwrap().pose();
        let turn = Pose::from_parts(
            palm.translation,
            nalgebra::UnitQuaternion::from_axis_angle(
                &nalgebra::Vector3::z_axis(),
                std::f64::consts::PI,
            ) * palm.rotation,
        );
        e.move_element(Element::Robot(HAND), turn);
        e.toggle_collisions();
        e.auto_grasp(HAND, true);
    });
    let said = log(&app)
        .iter()
        .rev()
        .find(|e| e.error)
        .map(|e| e.text.clone())
        .unwrap_or_default();
    assert!(said.starts_with("clasp_mug lies behind the palm"), "{said}");
}

#[test]
fn the_closing_arrows_point_each_fingertip_towards_the_object_between_them() {
    let app = headless_app();
    let world = world(&app);
    let arrows = clasp_app::markers::closing_arrows(world);
    let fingers = world
        .robot(HAND)
        .unwrap()
        .chains()
        .iter()
        .filter(|c| !c.links.is_empty())
        .count();
    assert_eq!(arrows.len(), fingers);
    let mug = world.body(MUG).unwrap().world_cog();
    for (tip, direction) in arrows {
        assert!((direction.norm() - 1.0).abs() < 1e-9);
        assert!(direction.dot(&(mug - tip)) > 0.0, "{tip} moves {direction}");
    }
}

#[test]
fn the_status_bar_says_when_the_run_falls_behind_the_clock() {
    let mut simulation = clasp_app::editor::Simulation::default();
    simulation.playing = true;
    simulation.time = 3.4;
    simulation.meter.start(0.0, 0.0);
    for k in 1..=8 {
        simulation.meter.record(0.256 * k as f64, 0.087 * k as f64);
    }
    assert_eq!(
        clasp_app::ui::simulation_summary(&simulation).unwrap(),
        "▶ 3.400 s (0.34× real time: the frame takes 256 ms)"
    );
    for k in 1..=100 {
        simulation
            .meter
            .record(2.048 + 0.016 * k as f64, 0.696 + 0.016 * k as f64);
    }
    assert_eq!(
        clasp_app::ui::simulation_summary(&simulation).unwrap(),
        "▶ 3.400 s (1.00× real time)"
    );
}

#[test]
fn a_urdf_hands_settings_change_in_the_inspector_and_are_saved_beside_it() {
    let Some(hands) = clasp_io::fixtures::field_hands() else {
        clasp_io::fixtures::skipped("../shared/hands is not here");
        return;
    };
    // A copy of the hand's file beside a link to its meshes: the settings are written there,
    // never into ../shared.
    let dir = std::env::temp_dir().join(format!("clasp-hand-settings-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let shipped = hands.join("allegro_hand");
    let urdf = dir.join("allegro_hand_right.urdf");
    std::fs::copy(shipped.join("allegro_hand_right.urdf"), &urdf).unwrap();
    std::os::unix::fs::symlink(shipped.join("meshes"), dir.join("meshes")).unwrap();

    let mut app = headless_app();
    assert!(edit(&mut app, |e| e
        .import(&urdf, clasp_app::editor::ImportKind::Robot)));
    let robot = RobotId::from_index(1);
    let hand = world(&app).robot(robot).unwrap().clone();
    let before = hand.dofs[3].default_velocity;
    let approach = clasp_core::HandApproach {
        reference: nalgebra::Point3::new(1.0, 2.0, 3.0),
        direction: nalgebra::Vector3::y_axis(),
    };
    edit(&mut app, |e| {
        e.set_dof_drive(robot, 3, -before, 2.0 * hand.dofs[3].max_effort);
        e.set_hand_approach(robot, approach.clone());
    });
    let changed = world(&app).robot(robot).unwrap();
    assert_eq!(changed.dofs[3].default_velocity, -before);
    assert_eq!(changed.approach.as_ref(), Some(&approach));
    // A bad effort is refused, and said.
    edit(&mut app, |e| e.set_dof_drive(robot, 3, 1.0, -1.0));
    assert!(status(&app).error.is_some());
    assert_eq!(
        world(&app).robot(robot).unwrap().dofs[3].default_velocity,
        -before
    );
    // Undo takes a change back.
    edit(&mut app, |e| e.undo());
    assert_ne!(
        world(&app).robot(robot).unwrap().approach.as_ref(),
        Some(&approach)
    );
    edit(&mut app, |e| e.redo());

    assert!(
        edit(&mut app, |e| e.save_hand_settings(robot)),
        "{:?}",
        log(&app)
    );
    let saved = dir.join("allegro_hand_right.clasp.xml");
    assert!(saved.exists());
    // The hand reads them back the next time it loads.
    let again = clasp_io::load_any_robot(&clasp_io::Disk, &urdf).unwrap();
    assert_eq!(again.dofs[3].default_velocity, -before);
    let back = again.approach.unwrap();
    assert!((back.reference - approach.reference).norm() < 1e-9);
    assert!((back.direction.into_inner() - approach.direction.into_inner()).norm() < 1e-9);
    std::fs::remove_dir_all(&dir).unwrap();
}
