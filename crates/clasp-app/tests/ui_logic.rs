//! The interface's logic without GPU or window: keyboard shortcuts, undo and redo, deleting,
//! the help, auto grasp, files chosen in a dialog or dropped on the window, and the Toggle
//! Collision button's label.

mod common;

use std::path::{Path, PathBuf};

use bevy::{input::keyboard::Key, prelude::*, window::FileDragAndDrop};
use clasp_app::{
    camera::OrbitCamera,
    dialog::{
        DialogPurpose, FileDialogs,
        unsaved::{Answer, Leaving},
    },
    editor::ImportKind,
    scene::BodyView,
    ui::{UiState, collision_button_label},
};
use clasp_core::{BodyId, Element, Material, Pose, RobotId};
use common::*;

/// A fresh folder for one test's files.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clasp-ui-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const CTRL: &[KeyCode] = &[KeyCode::ControlLeft];
const CTRL_SHIFT: &[KeyCode] = &[KeyCode::ControlLeft, KeyCode::ShiftLeft];

const MUG: BodyId = BodyId::Free(0);

fn mug_pose(app: &App) -> Pose {
    world(app).body(MUG).unwrap().pose()
}

fn body_views(app: &mut App) -> Vec<BodyId> {
    let world = app.world_mut();
    let mut ids: Vec<BodyId> = world
        .query::<&BodyView>()
        .iter(world)
        .map(|v| v.0)
        .collect();
    ids.sort();
    ids
}

#[test]
fn ctrl_z_puts_a_moved_mug_back_exactly_and_ctrl_shift_z_moves_it_again() {
    let mut app = headless_app();
    let before = mug_pose(&app);
    let target = Pose::translation(0.0, 0.0, 40.0) * before;
    let outcome = edit(&mut app, |e| e.move_element(Element::Body(0), target));
    assert!(outcome.is_some());
    let moved = mug_pose(&app);
    assert_ne!(moved, before, "the mug moved");
    assert!(moved.translation.z > before.translation.z);
    assert_eq!(history(&app).can_undo(), Some("move"));

    press_key(&mut app, CTRL, KeyCode::KeyZ);
    assert_eq!(mug_pose(&app), before, "undone exactly");
    assert_eq!(history(&app).can_redo(), Some("move"));

    press_key(&mut app, CTRL_SHIFT, KeyCode::KeyZ);
    assert_eq!(mug_pose(&app), moved, "redone exactly");

    // Ctrl+Y redoes too.
    press_key(&mut app, CTRL, KeyCode::KeyZ);
    assert_eq!(mug_pose(&app), before);
    press_key(&mut app, CTRL, KeyCode::KeyY);
    assert_eq!(mug_pose(&app), moved);

    // Without Ctrl, Z is no shortcut.
    press_key(&mut app, &[], KeyCode::KeyZ);
    assert_eq!(mug_pose(&app), moved);
}

#[test]
fn delete_removes_the_selected_mug_and_ctrl_z_brings_it_and_its_view_back() {
    let mut app = headless_app();
    let all = body_views(&mut app);
    assert_eq!(all.len(), 11, "mug, table, palm and eight links");
    assert!(all.contains(&MUG));
    let pose = mug_pose(&app);

    // Nothing selected: Delete deletes nothing.
    press_key(&mut app, &[], KeyCode::Delete);
    assert_eq!(
        world(&app).free_bodies().count(),
        2,
        "the mug and its table"
    );

    edit(&mut app, |e| e.click_body(MUG, false));
    press_key(&mut app, &[], KeyCode::Delete);
    assert!(
        world(&app)
            .free_bodies()
            .all(|(_, b)| b.name != "clasp_mug"),
        "the mug is gone"
    );
    assert_eq!(world(&app).free_bodies().count(), 1, "the table stays");
    assert!(selection(&app).is_empty());
    let left = body_views(&mut app);
    assert_eq!(left.len(), 10);
    assert!(!left.contains(&MUG), "its view went with it");

    press_key(&mut app, CTRL, KeyCode::KeyZ);
    assert_eq!(world(&app).free_bodies().count(), 2);
    assert_eq!(world(&app).free_body(0).unwrap().name, "clasp_mug");
    assert_eq!(mug_pose(&app), pose);
    assert_eq!(body_views(&mut app), all, "its view is shown again");
}

#[test]
fn f1_shows_and_hides_the_help() {
    let mut app = headless_app();
    assert!(!view_settings(&app).help_shown);
    press_key(&mut app, &[], KeyCode::F1);
    assert!(view_settings(&app).help_shown);
    press_key(&mut app, &[], KeyCode::F1);
    assert!(!view_settings(&app).help_shown);
}

#[test]
fn ctrl_g_closes_the_hand_and_ctrl_shift_g_opens_it() {
    let mut app = headless_app();
    let open = world(&app)
        .robot(RobotId::from_index(0))
        .unwrap()
        .dof_values()
        .to_vec();
    press_key(&mut app, CTRL, KeyCode::KeyG);
    let closed = world(&app)
        .robot(RobotId::from_index(0))
        .unwrap()
        .dof_values()
        .to_vec();
    assert_ne!(closed, open, "the fingers moved");
    assert_eq!(history(&app).can_undo(), Some("auto grasp"));
    assert!(
        !world(&app).contacts().is_empty(),
        "the closed hand touches the mug"
    );
    // The contacts panel shows RaiSim's fields: on the mug's side, its index, the pair's index
    // in the link's list, object A, depth and triangles.
    let shown = world(&app);
    let listed = clasp_app::ui::listed_contacts(shown);
    assert!(!listed.is_empty());
    let name = |id| shown.body(id).map_or("?", |b| b.name.as_str());
    for c in &listed {
        let cells = clasp_app::ui::contact_cells(c, &name);
        assert_eq!(cells.len(), clasp_app::ui::CONTACT_COLUMNS.len());
        assert_eq!(cells[1], c.index.to_string());
        assert_eq!(
            cells[3],
            c.pair_index.unwrap().to_string(),
            "the links are dynamic"
        );
        assert_eq!(cells[4], "A", "the mug is object A");
        assert_eq!(cells[7], format!("{:.3}", -c.separation));
        assert_eq!(cells[8], format!("{} / {}", c.triangle, c.other_triangle));
    }

    press_key(&mut app, CTRL_SHIFT, KeyCode::KeyG);
    let reopened = world(&app)
        .robot(RobotId::from_index(0))
        .unwrap()
        .dof_values()
        .to_vec();
    assert_ne!(reopened, closed);
    assert_eq!(history(&app).can_undo(), Some("auto open"));
    // Each finger DOF is back at or below where it started: opening goes the other way.
    for (d, (now, before)) in reopened.iter().zip(&open).enumerate().skip(1) {
        assert!(now <= &(before + 1e-9), "DOF {d}: {now} > {before}");
    }
}

#[test]
fn f_frames_the_whole_world() {
    let mut app = headless_app();
    let look_away = |app: &mut App| {
        let world = app.world_mut();
        let mut orbit = world.query::<&mut OrbitCamera>().single_mut(world).unwrap();
        orbit.distance *= 10.0;
        orbit.focus += Vec3::new(500.0, 0.0, 0.0);
    };
    let orbit = |app: &mut App| {
        let world = app.world_mut();
        *world.query::<&OrbitCamera>().single(world).unwrap()
    };
    // The opening view frames the hand and the mug; F frames everything, the table too.
    look_away(&mut app);
    press_key(&mut app, &[], KeyCode::KeyF);
    let framed = orbit(&mut app);
    let (lo, hi) = world(&app).bounding_box().unwrap();
    let centre = (lo + hi.coords) / 2.0;
    let centre = Vec3::new(centre.x as f32, centre.y as f32, centre.z as f32);
    assert!(
        framed.focus.distance(centre) < 1e-3,
        "{framed:?} vs {centre}"
    );
    // And again, from wherever the view went.
    look_away(&mut app);
    press_key(&mut app, &[], KeyCode::KeyF);
    let again = orbit(&mut app);
    assert!(
        (again.distance - framed.distance).abs() < 1e-3,
        "{again:?} vs {framed:?}"
    );
    assert!(again.focus.distance(framed.focus) < 1e-3);
}

#[test]
fn a_malformed_file_chosen_for_import_changes_nothing_and_is_reported() {
    let mut app = headless_app();
    let dir = scratch_dir("bad-import");
    let bad = dir.join("broken_cup.off");
    std::fs::write(&bad, "OFF\n8 12 0\n0 0 0\n1 0 0\n").unwrap();
    let poses = |app: &App| -> Vec<Pose> {
        let world = world(app);
        world
            .body_ids()
            .iter()
            .map(|&id| world.body(id).unwrap().pose())
            .collect()
    };
    let before = poses(&app);
    let log_before = log(&app).len();

    app.world_mut()
        .resource_mut::<FileDialogs>()
        .deliver(DialogPurpose::Import(ImportKind::Object), bad.clone());
    app.update();
    finish_loads(&mut app);

    assert_eq!(poses(&app), before, "no body came, went or moved");
    assert_eq!(
        world(&app).free_bodies().count(),
        2,
        "the mug and its table"
    );
    assert_eq!(history(&app).can_undo(), None, "nothing to undo");
    let new: Vec<_> = log(&app)[log_before..].to_vec();
    let error = new.iter().find(|e| e.error).expect("an error is logged");
    assert!(
        error.text.contains("broken_cup.off"),
        "the error names the file: {}",
        error.text
    );
    assert_eq!(body_views(&mut app).len(), 11, "nothing added");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A 20 mm cube, faces wound outward.
const CUBE_OFF: &str = "OFF\n8 12 0\n\
    -10 -10 -10\n10 -10 -10\n10 10 -10\n-10 10 -10\n\
    -10 -10 10\n10 -10 10\n10 10 10\n-10 10 10\n\
    3 0 3 2\n3 0 2 1\n3 4 5 6\n3 4 6 7\n3 0 1 5\n3 0 5 4\n\
    3 1 2 6\n3 1 6 5\n3 2 3 7\n3 2 7 6\n3 3 0 4\n3 3 4 7\n";

fn drop_file(app: &mut App, path: &Path) {
    let window = primary_window(app);
    app.world_mut().write_message(FileDragAndDrop::DroppedFile {
        window,
        path_buf: path.to_path_buf(),
    });
    app.update();
    finish_loads(app);
}

/// A file loads on a worker thread: the frame that took it leaves the scene as it was and
/// shows what is loading; a cancelled load changes nothing; a load left
/// to finish arrives as one undo step.
#[test]
fn a_file_loads_in_the_background_with_progress_and_can_be_cancelled() {
    use clasp_app::dialog::{LoadPurpose, Loads};
    let mut app = headless_app();
    let dir = scratch_dir("background");
    let cube = dir.join("cube.off");
    std::fs::write(&cube, CUBE_OFF).unwrap();
    let import_cube = |app: &mut App| {
        app.world_mut()
            .resource_mut::<FileDialogs>()
            .deliver(DialogPurpose::Import(ImportKind::Object), cube.clone());
        app.update();
        let loading: Vec<_> = app
            .world()
            .resource::<Loads>()
            .in_progress(0.0)
            .map(|(path, purpose, _)| (path.to_path_buf(), purpose))
            .collect();
        assert_eq!(
            loading,
            [(
                cube.clone(),
                LoadPurpose::Import(ImportKind::Object, Default::default())
            )],
            "the import is under way"
        );
        assert_eq!(world(app).free_bodies().count(), 2, "nothing arrived yet");
        assert_eq!(history(app).can_undo(), None);
    };
    import_cube(&mut app);
    let cancelled = app.world_mut().resource_mut::<Loads>().cancel();
    assert_eq!(cancelled, std::slice::from_ref(&cube));
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(
        world(&app).free_bodies().count(),
        2,
        "a cancelled load adds nothing"
    );
    assert_eq!(history(&app).can_undo(), None);

    import_cube(&mut app);
    finish_loads(&mut app);
    assert_eq!(world(&app).free_bodies().count(), 3, "the cube arrived");
    assert_eq!(history(&app).can_undo(), Some("import"));
    assert_eq!(body_views(&mut app).len(), 12);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_dropped_mesh_is_imported_and_a_dropped_world_opens() {
    let mut app = headless_app();
    let dir = scratch_dir("drop");
    let cube = dir.join("cube.off");
    std::fs::write(&cube, CUBE_OFF).unwrap();

    drop_file(&mut app, &cube);
    let world = world(&app);
    assert_eq!(world.free_bodies().count(), 3, "{:?}", log(&app));
    assert_eq!(world.free_body(2).unwrap().name, "cube");
    assert_eq!(selection(&app), vec![BodyId::Free(2)]);
    assert_eq!(body_views(&mut app).len(), 12);

    let world_file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/worlds/default.xml");
    drop_file(&mut app, &world_file);
    // The import is an edit not saved: the app asks first, and the scene stays meanwhile.
    assert_eq!(
        unsaved_question(&app),
        Some(Leaving::Open(world_file.clone()))
    );
    assert_eq!(common::world(&app).free_bodies().count(), 3);
    answer_unsaved(&mut app, Answer::DontSave);
    finish_loads(&mut app);
    let doc = doc(&app);
    assert_eq!(doc.path.as_deref(), Some(world_file.as_path()));
    assert_eq!(
        doc.world.free_bodies().count(),
        2,
        "the world replaced the scene"
    );
    assert_eq!(doc.world.robots().count(), 1);
    assert_eq!(doc.recent.first(), Some(&world_file));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn save_without_a_file_asks_for_one_and_save_as_writes_it() {
    let mut app = headless_app();
    assert_eq!(doc(&app).path, None);
    press_key(&mut app, CTRL, KeyCode::KeyS);
    let dialogs = app.world().resource::<FileDialogs>();
    assert_eq!(dialogs.browser_purpose(), Some(DialogPurpose::SaveAs));
    let browser = dialogs.browser().unwrap();
    assert_eq!(
        browser.dir,
        std::env::current_dir().unwrap().canonicalize().unwrap()
    );

    // The browser's Save hands over the name; a bare name is saved as .xml.
    let dir = scratch_dir("save-as");
    let mut dialogs = app.world_mut().resource_mut::<FileDialogs>();
    let browser = dialogs.browser_mut().unwrap();
    browser.enter(&dir);
    browser.file_name = "my_grasp".into();
    let chosen = browser.confirm().unwrap();
    dialogs.deliver(DialogPurpose::SaveAs, chosen);
    app.update();
    let saved = dir.canonicalize().unwrap().join("my_grasp.xml");
    assert!(saved.is_file(), "{:?}", log(&app));
    assert_eq!(doc(&app).path.as_deref(), Some(saved.as_path()));
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(text.contains("<graspableBody>") && text.contains("<robot>"));

    // Ctrl+O opens the browser for a world, listing the file just saved.
    press_key(&mut app, CTRL, KeyCode::KeyO);
    let dialogs = app.world().resource::<FileDialogs>();
    assert_eq!(dialogs.browser_purpose(), Some(DialogPurpose::OpenWorld));
    let listed: Vec<&str> = dialogs
        .browser()
        .unwrap()
        .entries
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(listed, ["my_grasp.xml"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_collision_button_reads_on_or_off_for_the_selection() {
    let mut app = headless_app();
    assert_eq!(
        edit(&mut app, |e| collision_button_label(e)),
        "Collisions ON"
    );
    // Nothing selected: the whole world.
    assert!(!edit(&mut app, |e| e.toggle_collisions()));
    assert_eq!(
        edit(&mut app, |e| collision_button_label(e)),
        "Collisions OFF"
    );
    assert!(!world(&app).switches().world_on());
    assert!(edit(&mut app, |e| e.toggle_collisions()));
    assert_eq!(
        edit(&mut app, |e| collision_button_label(e)),
        "Collisions ON"
    );

    // One body: that body against everything; the world stays on.
    edit(&mut app, |e| e.click_body(MUG, false));
    assert_eq!(
        edit(&mut app, |e| collision_button_label(e)),
        "Collisions ON"
    );
    edit(&mut app, |e| e.toggle_collisions());
    assert_eq!(
        edit(&mut app, |e| collision_button_label(e)),
        "Collisions OFF"
    );
    assert!(!world(&app).switches().body_on(MUG));
    edit(&mut app, |e| e.clear_selection());
    assert_eq!(
        edit(&mut app, |e| collision_button_label(e)),
        "Collisions ON"
    );

    // Undo brings the mug's switch back.
    press_key(&mut app, CTRL, KeyCode::KeyZ);
    assert!(world(&app).switches().body_on(MUG));
}

#[test]
fn frames_without_input_change_nothing_whatever_the_inspector_shows() {
    let mut app = headless_app();
    let link = BodyId::Link {
        robot: RobotId::from_index(0),
        chain: 1,
        link: 1,
    };
    // Nothing selected (the robot's DOF sliders show), a link (its palm's pose fields), the
    // mug (its pose, material and contacts), after the hand has closed on it.
    press_key(&mut app, CTRL, KeyCode::KeyG);
    app.update();
    // Bevy's change ticks of what the scene and the markers are redrawn from.
    let changed = |app: &mut App| {
        let markers = app
            .world_mut()
            .query::<Ref<clasp_app::markers::ShownMarkers>>()
            .single(app.world())
            .unwrap()
            .last_changed();
        let world = app.world();
        [
            world.resource_ref::<Document>().last_changed(),
            world.resource_ref::<ViewSettings>().last_changed(),
            world.resource_ref::<Log>().last_changed(),
            markers,
        ]
    };
    let before = changed(&mut app);
    let dofs = world(&app)
        .robot(RobotId::from_index(0))
        .unwrap()
        .dof_values()
        .to_vec();
    let pose = mug_pose(&app);
    for selection in [vec![], vec![link], vec![MUG]] {
        app.world_mut().resource_mut::<Selection>().0 = selection;
        for _ in 0..5 {
            app.update();
        }
    }
    assert_eq!(
        changed(&mut app),
        before,
        "the panels changed neither the world, the view settings, the log nor the markers"
    );
    assert_eq!(
        world(&app)
            .robot(RobotId::from_index(0))
            .unwrap()
            .dof_values(),
        dofs.as_slice()
    );
    assert_eq!(world(&app).body(MUG).unwrap().pose(), pose);
    assert_eq!(history(&app).can_undo(), Some("auto grasp"));
    assert!(!history(&app).dragging());
}

#[test]
fn an_error_shows_as_a_notification_and_information_does_not() {
    let mut app = headless_app();
    edit(&mut app, |e| {
        e.select_robot_of(BodyId::Palm {
            robot: RobotId::from_index(0),
        })
    });
    press_key(&mut app, &[], KeyCode::Delete);
    assert!(world(&app).robots().next().is_none());
    assert!(
        app.world().resource::<UiState>().toasts.active.is_empty(),
        "\"deleted\" is only logged"
    );
    // With no robot left, Ctrl+G has nothing to grasp with.
    press_key(&mut app, CTRL, KeyCode::KeyG);
    let toasts = &app.world().resource::<UiState>().toasts.active;
    assert_eq!(toasts.len(), 1, "{toasts:?}");
    assert!(toasts[0].text.contains("no robot"), "{}", toasts[0].text);
    let last = log(&app).last().unwrap();
    assert!(last.error && last.text == toasts[0].text);
}

/// The design card's own example: Import Object on the toolbar, the in-app file browser, a
/// GraspIt body XML typed into its path field and Enter; the box arrives beside the scene,
/// touching nothing, with its file's material.
#[test]
fn a_body_xml_imported_through_the_file_browser_arrives_beside_the_scene() {
    let mut app = headless_app();
    let (_, scene_max) = world(&app).bounding_box().unwrap();
    let button = app
        .world()
        .resource::<clasp_app::capture::ControlPositions>()
        .import_object
        .expect("the toolbar drew Import Object");
    click_widget(&mut app, Vec2::from(button));
    // egui lays a new window out over its first frames.
    for _ in 0..3 {
        app.update();
    }
    let field = {
        let dialogs = app.world().resource::<FileDialogs>();
        assert_eq!(
            dialogs.browser_purpose(),
            Some(DialogPurpose::Import(ImportKind::Object)),
            "the press opened the browser"
        );
        dialogs
            .browser()
            .unwrap()
            .path_field
            .expect("the path field was drawn")
    };
    click_widget(&mut app, Vec2::new(field.center().x, field.center().y));
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../models/objects/clasp_box.xml")
        .canonicalize()
        .unwrap();
    // The field holds the folder it opened in: rub it out and type the file's path.
    let shown = app
        .world()
        .resource::<FileDialogs>()
        .browser()
        .map_or(0, |b| b.path_text.chars().count());
    for _ in 0..shown {
        press_named(&mut app, KeyCode::Backspace, Key::Backspace);
    }
    type_text(&mut app, file.to_str().unwrap());
    press_named(&mut app, KeyCode::Enter, Key::Enter);
    app.update();
    finish_loads(&mut app);
    if let Some(b) = app.world().resource::<FileDialogs>().browser() {
        panic!(
            "the browser is still open: text {:?}, problem {:?}",
            b.path_text, b.problem
        );
    }
    let world = world(&app);
    let (id, body) = world
        .free_bodies()
        .find(|(_, b)| b.name == "clasp_box")
        .expect("the box was imported");
    assert_eq!(
        body.material,
        clasp_core::Material::Wood,
        "its file's material"
    );
    let lowest_x = body
        .mesh()
        .vertices()
        .iter()
        .map(|v| (body.pose() * v).x)
        .fold(f64::INFINITY, f64::min);
    assert!(
        lowest_x > scene_max.x,
        "beside the scene: {lowest_x} > {}",
        scene_max.x
    );
    assert!(
        world.contacts_of(BodyId::Free(id)).next().is_none(),
        "touching nothing"
    );
    assert_eq!(history(&app).can_undo(), Some("import"));
}

/// The contact threshold, typed into the View menu's field: at 20 mm the hand and the mug of
/// the default scene are in contact and the markers show it; a bad value is refused with a
/// message and changes nothing; undo brings the old threshold and contacts back.
#[test]
fn the_contact_threshold_changes_the_contacts_and_their_markers() {
    let mut app = headless_app();
    assert!(
        world(&app).contacts().is_empty(),
        "nothing touches at 0.1 mm"
    );
    let controls = |app: &App| {
        app.world()
            .resource::<clasp_app::capture::ControlPositions>()
            .clone()
    };
    let menu = controls(&app).view_menu.expect("the menu bar drew View");
    assert_eq!(controls(&app).contact_threshold, None, "the menu is closed");
    click_widget(&mut app, Vec2::from(menu));
    app.update();
    let field = controls(&app)
        .contact_threshold
        .expect("the open View menu drew the threshold field");
    // A click (no drag) turns the field into text, all of it selected.
    click_widget(&mut app, Vec2::from(field));
    app.update();
    type_text(&mut app, "20");
    press_named(&mut app, KeyCode::Enter, Key::Enter);
    app.update();
    assert_eq!(
        world(&app).settings().contact_threshold,
        20.0,
        "{:?}",
        log(&app)
    );
    assert!(!world(&app).contacts().is_empty());
    assert_eq!(history(&app).can_undo(), Some("threshold change"));
    let shown = app
        .world_mut()
        .query::<&clasp_app::markers::ShownMarkers>()
        .single(app.world())
        .unwrap()
        .0
        .cones;
    assert!(shown > 0, "the new contacts are marked");
    assert_eq!(shown, markers(&app).cones);
    let logged = log(&app).len();
    edit(&mut app, |e| e.set_contact_threshold(-1.0));
    assert_eq!(world(&app).settings().contact_threshold, 20.0);
    assert!(
        log(&app)[logged..].iter().any(|e| e.error),
        "the refusal is reported"
    );
    edit(&mut app, |e| e.undo());
    app.update();
    assert_eq!(world(&app).settings().contact_threshold, 0.1);
    assert!(world(&app).contacts().is_empty());
}

/// A click on a panel belongs to the panel: picking also sees the window under it, and must not
/// take that for a click on empty space. The body list selects with a click; Toggle Collision,
/// pressed with the mug and a finger link selected, switches that pair only; the Log button
/// leaves the selection as it was.
#[test]
fn clicks_on_the_panels_act_on_the_selection_without_clearing_it() {
    let mut app = headless_app();
    let link = BodyId::Link {
        robot: RobotId::from_index(0),
        chain: 0,
        link: 2,
    };
    // The mug's row in the body list (its last row: the hand's bodies come first).
    click_widget(&mut app, Vec2::new(42.0, 331.0));
    app.update();
    assert_eq!(selection(&app), [MUG], "picked in the body list");
    edit(&mut app, |e| e.click_body(link, true));
    let toggle = app
        .world()
        .resource::<clasp_app::capture::ControlPositions>()
        .toggle_collision
        .expect("the toolbar drew Toggle Collision");
    click_widget(&mut app, Vec2::from(toggle));
    app.update();
    assert_eq!(selection(&app), [MUG, link], "the press kept the selection");
    let switches = world(&app).switches();
    assert!(switches.world_on(), "the world's collisions stay on");
    assert!(!switches.pair_on(MUG, link), "the selected pair is off");
    let height = app
        .world_mut()
        .query::<&Window>()
        .single(app.world())
        .unwrap()
        .height();
    click_widget(&mut app, Vec2::new(31.0, height - 11.0));
    app.update();
    assert!(
        app.world().resource::<UiState>().log_open,
        "the Log button opened the log"
    );
    assert_eq!(selection(&app), [MUG, link]);
}

/// A quick Ctrl+G on a slow frame: Ctrl pressed, G pressed and both let go before the frame
/// runs. The chord still counts as Ctrl+G.
#[test]
fn a_chord_that_arrives_whole_in_one_frame_still_counts() {
    let mut app = headless_app();
    let window = primary_window(&mut app);
    let key = |key_code, state| {
        bevy::window::WindowEvent::KeyboardInput(bevy::input::keyboard::KeyboardInput {
            key_code,
            logical_key: Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified),
            state,
            text: None,
            repeat: false,
            window,
        })
    };
    use bevy::input::ButtonState::{Pressed, Released};
    deliver(
        &mut app,
        vec![
            key(KeyCode::ControlLeft, Pressed),
            key(KeyCode::KeyG, Pressed),
            key(KeyCode::KeyG, Released),
            key(KeyCode::ControlLeft, Released),
        ],
    );
    app.update();
    assert_eq!(history(&app).can_undo(), Some("auto grasp"));
}

/// A world opens as it was saved: its `<camera>` is the view; Save World As writes the view the
/// user left. A world without a camera is framed on its robots and graspable bodies, not on a
/// floor that dwarfs them.
#[test]
fn a_world_opens_with_its_saved_camera_and_saves_the_view_left() {
    use clasp_app::editor::Framing;
    let mut app = headless_app();
    let dir = scratch_dir("camera");
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let default = std::fs::read_to_string(models.join("worlds/default.xml")).unwrap();
    // GraspIt's camera, 400 mm out along −y, turned to look along +y at the origin.
    let with_camera = default
        .replace("models/", &format!("{}/", models.display()))
        .replace(
            "</world>",
            "<camera><position>0 -400 0</position><orientation>0.7071068 0 0 0.7071068</orientation>\
             <focalDistance>400</focalDistance></camera></world>",
        );
    let file = dir.join("with_camera.xml");
    std::fs::write(&file, with_camera).unwrap();
    let orbit = |app: &mut App| {
        let world = app.world_mut();
        *world.query::<&OrbitCamera>().single(world).unwrap()
    };
    assert!(edit(&mut app, |e| e.open_world(&file)));
    app.update();
    let opened = orbit(&mut app);
    assert!(
        opened.focus.length() < 0.01,
        "it orbits the origin: {opened:?}"
    );
    let eye = opened.transform().translation;
    assert!(
        eye.distance(Vec3::new(0.0, -400.0, 0.0)) < 0.01,
        "from where it was saved: {eye}"
    );

    // The user turns the view; Save World As writes that view.
    {
        let world = app.world_mut();
        let mut camera = world.query::<&mut OrbitCamera>().single_mut(world).unwrap();
        camera.yaw += 0.5;
        camera.pitch = 0.4;
    }
    app.update();
    let left = orbit(&mut app);
    let saved = dir.join("saved.xml");
    assert!(edit(&mut app, |e| e.save(Some(&saved))));
    let reloaded = clasp_io::load_world(&clasp_io::Disk, &saved, None).unwrap();
    let camera = reloaded.camera.expect("the view was saved");
    let back = OrbitCamera::from_saved(&camera);
    assert!(back.focus.distance(left.focus) < 0.01 && (back.distance - left.distance).abs() < 0.01);
    assert!((back.yaw - left.yaw).abs() < 1e-4 && (back.pitch - left.pitch).abs() < 1e-4);

    // No camera, a floor forty times the mug: the view is framed on the hand and the mug (the
    // scene's table left to the edges too).
    let mut world = reloaded.clone();
    world.camera = None;
    let mug = world.free_body(0).unwrap().clone();
    let big: Vec<_> = mug.mesh().vertices().iter().map(|v| v * 40.0).collect();
    let floor = clasp_core::TriMesh::new(big, mug.mesh().triangles().to_vec()).unwrap();
    let not_obstacles: Vec<BodyId> = world
        .body_ids()
        .into_iter()
        .filter(|&id| world.body(id).unwrap().kind != clasp_core::BodyKind::Obstacle)
        .collect();
    let subjects = world.bounding_box_of(&not_obstacles).unwrap();
    world.add_body(clasp_core::Body::from_mesh(
        "floor",
        clasp_core::BodyKind::Obstacle,
        floor,
    ));
    assert_eq!(
        Framing::opening(&world),
        Some(Framing::Bounds(subjects.0, subjects.1))
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// With two hands, the Grasp panel's choice says which one Ctrl+G closes when no robot is
/// selected; the choice is one undo step.
#[test]
fn ctrl_g_closes_the_hand_chosen_to_grasp_with() {
    let mut app = headless_app();
    let hand =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/robots/ClaspHand/ClaspHand.xml");
    assert!(edit(&mut app, |e| e.import(&hand, ImportKind::Robot)));
    edit(&mut app, |e| e.clear_selection());
    assert_eq!(
        world(&app).current_hand(),
        Some(RobotId::from_index(0)),
        "the first hand"
    );
    edit(&mut app, |e| e.choose_hand(RobotId::from_index(1)));
    assert_eq!(world(&app).current_hand(), Some(RobotId::from_index(1)));
    assert_eq!(history(&app).can_undo(), Some("hand choice"));
    let before: Vec<Vec<f64>> = world(&app)
        .robots()
        .map(|(_, r)| r.dof_values().to_vec())
        .collect();
    press_key(&mut app, CTRL, KeyCode::KeyG);
    let after: Vec<Vec<f64>> = world(&app)
        .robots()
        .map(|(_, r)| r.dof_values().to_vec())
        .collect();
    assert_eq!(after[0], before[0], "the first hand stays open");
    assert_ne!(after[1], before[1], "the chosen one closed");
    edit(&mut app, |e| e.undo());
    edit(&mut app, |e| e.undo());
    assert_eq!(world(&app).current_hand(), Some(RobotId::from_index(0)));
}

/// The eigengrasp amplitudes as the robot section's sliders set them: ClaspHand has no
/// eigengrasp file, so one eigengrasp per DOF; a change is one undo step and reads back.
#[test]
fn an_eigengrasp_amplitude_moves_the_fingers_as_one_undo_step() {
    let mut app = headless_app();
    let before = world(&app)
        .robot(RobotId::from_index(0))
        .unwrap()
        .dof_values()
        .to_vec();
    let mut amplitudes = world(&app)
        .robot(RobotId::from_index(0))
        .unwrap()
        .eigen_amplitudes()
        .unwrap();
    amplitudes[0] += 0.1;
    edit(&mut app, |e| {
        e.set_eigen(RobotId::from_index(0), &amplitudes)
    });
    let after = world(&app)
        .robot(RobotId::from_index(0))
        .unwrap()
        .dof_values()
        .to_vec();
    assert!(
        (after[0] - before[0] - 0.1).abs() < 1e-9,
        "{before:?} -> {after:?}"
    );
    assert_eq!(&after[1..], &before[1..], "the other DOFs stay");
    assert_eq!(history(&app).can_undo(), Some("eigengrasp change"));
    edit(&mut app, |e| e.undo());
    assert_eq!(
        world(&app)
            .robot(RobotId::from_index(0))
            .unwrap()
            .dof_values(),
        before.as_slice()
    );
}

/// GraspIt's arm-and-hand world written in `dir`: the Barrett on its mount piece at the end of
/// the Puma 560, the arm's DOFs at `arm_dofs`.
fn arm_and_hand_world(dir: &Path, models: &Path, arm_dofs: &str) -> PathBuf {
    let file = dir.join("arm_and_hand.xml");
    let m = models.display();
    let world_text = format!(
        "<world>\
         <robot><filename>{m}/robots/Puma560/Puma560.xml</filename>\
         <dofValues>{arm_dofs}</dofValues></robot>\
         <robot><filename>{m}/robots/Barrett/Barrett.xml</filename></robot>\
         <connection><parentRobot>0</parentRobot><parentChain>0</parentChain>\
         <childRobot>1</childRobot>\
         <mountFilename>{m}/robots/Barrett/iv/barrettmount.xml</mountFilename>\
         <transform><translation>0 0 175</translation></transform></connection>\
         </world>"
    );
    std::fs::write(&file, world_text).unwrap();
    file
}

/// The arm-and-hand world ([`arm_and_hand_world`]).
/// A double-click on the hand selects the whole assembly, its body dragger sits on the arm,
/// moving the arm carries the hand, and Ctrl+G closes the hand and leaves the arm.
#[test]
fn a_hand_mounted_on_an_arm_moves_with_it_and_grasps_alone() {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    let dir = scratch_dir("arm");
    let file = arm_and_hand_world(&dir, &models, "0 0 -1.5707963 0 -1.5707963 0");
    let mut app = headless_app();
    assert!(edit(&mut app, |e| e.open_world(&file)));
    app.update();
    let (arm, hand) = (
        BodyId::Palm {
            robot: RobotId::from_index(0),
        },
        BodyId::Palm {
            robot: RobotId::from_index(1),
        },
    );
    assert!(
        world(&app)
            .body(BodyId::Mount {
                robot: RobotId::from_index(1)
            })
            .is_some()
    );

    let on_hand = visible_point(&mut app, hand).expect("the hand's palm is in view");
    click(&mut app, on_hand);
    click(&mut app, on_hand);
    let selected = selection(&app);
    assert!(
        selected.contains(&arm) && selected.contains(&hand),
        "a double-click selects arm and hand: {selected:?}"
    );
    let dragger = clasp_app::dragger::body_dragger(world(&app), &selected, 1.0).unwrap();
    assert_eq!(
        dragger.element,
        Element::Robot(RobotId::from_index(0)),
        "the dragger moves the arm"
    );

    let palm = |app: &App| {
        world(app)
            .robot(RobotId::from_index(1))
            .unwrap()
            .pose()
            .translation
            .vector
    };
    let before = palm(&app);
    let up = Pose::translation(0.0, 0.0, 50.0)
        * world(&app).robot(RobotId::from_index(0)).unwrap().pose();
    edit(&mut app, |e| {
        e.move_element(Element::Robot(RobotId::from_index(0)), up)
    });
    let rise = palm(&app) - before;
    assert!(
        (rise.z - 50.0).abs() < 1e-6 && rise.xy().norm() < 1e-6,
        "{rise}"
    );

    let arm_dofs = world(&app)
        .robot(RobotId::from_index(0))
        .unwrap()
        .dof_values()
        .to_vec();
    edit(&mut app, |e| e.clear_selection());
    press_key(&mut app, CTRL, KeyCode::KeyG);
    assert_eq!(
        world(&app)
            .robot(RobotId::from_index(0))
            .unwrap()
            .dof_values(),
        arm_dofs.as_slice()
    );
    assert!(
        world(&app)
            .robot(RobotId::from_index(1))
            .unwrap()
            .dof_values()[1]
            > 1.0,
        "the hand closed"
    );
}

/// The same arm with its elbow bent: a click on the hand's palm puts the body dragger on the
/// hand, and moving it moves the arm's DOFs (inverse kinematics) so that the palm goes where it
/// is asked, the hand's own DOFs untouched; one undo step puts the arm back.
#[test]
fn dragging_a_mounted_hand_by_its_palm_drives_its_arm() {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    let dir = scratch_dir("arm-ik");
    let file = arm_and_hand_world(&dir, &models, "0.0357 0.5758 -2.7318 0 -0.9856 0.0357");
    let mut app = headless_app();
    assert!(edit(&mut app, |e| e.open_world(&file)));
    app.update();
    let (arm, hand) = (RobotId::from_index(0), RobotId::from_index(1));
    let on_hand = visible_point(&mut app, BodyId::Palm { robot: hand }).expect("palm in view");
    click(&mut app, on_hand);
    assert_eq!(selection(&app), vec![BodyId::Palm { robot: hand }]);
    let dragger = clasp_app::dragger::body_dragger(world(&app), &selection(&app), 1.0).unwrap();
    assert_eq!(
        dragger.element,
        Element::Robot(hand),
        "the dragger moves the hand"
    );

    let dofs = |app: &App, r| world(app).robot(r).unwrap().dof_values().to_vec();
    let (arm_before, hand_before) = (dofs(&app, arm), dofs(&app, hand));
    let palm = world(&app).robot(hand).unwrap().pose();
    let target = Pose::translation(30.0, -20.0, 40.0) * palm;
    edit(&mut app, |e| e.move_element(Element::Robot(hand), target));
    let reached = world(&app).robot(hand).unwrap().pose();
    let off = (reached.translation.vector - target.translation.vector).norm();
    assert!(off < 1e-3, "the palm is {off} mm from where it was dragged");
    assert!(reached.rotation.angle_to(&target.rotation) < 1e-5);
    assert_ne!(dofs(&app, arm), arm_before, "the arm moved");
    assert_eq!(dofs(&app, hand), hand_before, "the fingers did not");

    assert_eq!(history(&app).can_undo(), Some("move"));
    edit(&mut app, |e| e.undo());
    app.update();
    assert_eq!(dofs(&app, arm), arm_before);
}

/// Grasp → Plan on GraspIt's Barrett and mug, by keyboard and pointer: Ctrl+P opens the
/// planner, a click on Plan runs it on a worker thread while frames go on, the grasps found are
/// listed (force-closure first); "." and "," step through them and a click on a row puts the
/// hand there, each one undo step; Stop ends a run early.
#[test]
fn the_planner_is_driven_by_keyboard_and_pointer_and_steps_through_its_grasps() {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    let dir = scratch_dir("plan");
    let file = dir.join("barrett_mug.xml");
    let world_text = format!(
        "<world><graspableBody><filename>{0}/objects/mug.xml</filename></graspableBody>\
         <robot><filename>{0}/robots/Barrett/Barrett.xml</filename>\
         <transform><translation>0 0 1000</translation></transform></robot></world>",
        models.display()
    );
    std::fs::write(&file, world_text).unwrap();
    let mut app = headless_app();
    assert!(edit(&mut app, |e| e.open_world(&file)));
    app.update();
    press_key(&mut app, CTRL, KeyCode::KeyP);
    assert!(
        view_settings(&app).planner_shown,
        "Ctrl+P opens the planner"
    );
    edit(&mut app, |e| e.planning.settings.steps = 1_500);
    app.update();
    let controls = |app: &App| {
        app.world()
            .resource::<clasp_app::capture::ControlPositions>()
            .clone()
    };
    let plan = controls(&app).plan_button.expect("the planner drew Plan");
    click_widget(&mut app, Vec2::from(plan));
    let running = |app: &mut App| edit(app, |e| e.planning.running());
    // Frames go on until the run ends, within `frames` of them.
    let until_done = |app: &mut App, frames: usize, what: &str| {
        for _ in 0..frames {
            if !running(app) {
                return;
            }
            app.update();
        }
        panic!("{what} never ended");
    };
    assert!(running(&mut app), "the click started a plan");
    until_done(&mut app, 10_000, "the plan");
    let found = edit(&mut app, |e| e.planning.found.clone());
    assert!(found.len() >= 5, "{} grasps", found.len());
    assert!(found[0].force_closure());
    app.update();
    let rows = controls(&app).planned_grasps;
    assert_eq!(rows.len(), found.len(), "a row per grasp");

    // "." puts the hand at the first grasp, again at the second; "," back at the first.
    let palm = |app: &App| world(app).robot(RobotId::from_index(0)).unwrap().pose();
    press_key(&mut app, &[], KeyCode::Period);
    assert_eq!(palm(&app), found[0].grasp.palm);
    press_key(&mut app, &[], KeyCode::Period);
    assert_eq!(palm(&app), found[1].grasp.palm);
    let robot = world(&app).robot(RobotId::from_index(0)).unwrap().clone();
    assert_eq!(robot.dof_values(), found[1].grasp.dof_values.as_slice());
    press_key(&mut app, &[], KeyCode::Comma);
    assert_eq!(palm(&app), found[0].grasp.palm);
    // A click on the third row puts the hand there, one undo step.
    click_widget(&mut app, Vec2::from(rows[2]));
    app.update();
    assert_eq!(palm(&app), found[2].grasp.palm);
    assert_eq!(history(&app).can_undo(), Some("planned grasp"));
    assert!(!world(&app).contacts().is_empty(), "the hand holds the mug");
    edit(&mut app, |e| e.undo());
    assert_eq!(palm(&app), found[0].grasp.palm);

    // Stop ends a run early.
    click_widget(&mut app, Vec2::from(plan));
    assert!(running(&mut app));
    edit(&mut app, |e| e.planning.stop());
    until_done(&mut app, 10_000, "the stopped plan");
    assert!(
        log(&app)
            .iter()
            .filter(|l| l.text.starts_with("planned"))
            .count()
            == 2
    );

    // With the test asked for, the plan tests each grasp it closes until those asked for
    // hold, and says so.
    edit(&mut app, |e| {
        e.planning.settings.test = Some(clasp_core::HoldSettings::default());
        e.planning.settings.grasps = 2;
    });
    click_widget(&mut app, Vec2::from(plan));
    until_done(&mut app, 100_000, "the tested plan");
    let found = edit(&mut app, |e| e.planning.found.clone());
    assert_eq!(found.len(), 2);
    assert!(found.iter().all(|g| g.held() == Some(true)));
    let said = log(&app);
    assert!(said.iter().any(|l| l.text.contains("2 held")), "{said:?}");
    // A click on a tested grasp's row plays its test back, the grasp back in place after.
    app.update();
    let rows = controls(&app).planned_grasps;
    click_widget(&mut app, Vec2::from(rows[1]));
    app.update();
    let playing = edit(&mut app, |e| {
        (
            e.grasp_test.playback.is_some(),
            e.grasp_test.result.as_ref().map(|t| t.held),
        )
    });
    assert_eq!(playing, (true, Some(true)), "the second grasp's test plays");
    edit(&mut app, |e| e.end_grasp_playback());
    assert_eq!(palm(&app), found[1].grasp.palm);
}

/// A plan with nowhere legal to go (GraspIt's mug sealed inside a solid block) ends, and the
/// log says why it found nothing.
#[test]
fn a_plan_that_finds_nothing_says_why() {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    let dir = scratch_dir("plan-sealed");
    let corners: String = (0..8)
        .map(|k| {
            let side = |bit: usize| if k & bit == 0 { -3000 } else { 3000 };
            format!("{} {} {}\n", side(1), side(2), side(4))
        })
        .collect();
    let faces = "3 0 2 3\n3 0 3 1\n3 4 5 7\n3 4 7 6\n3 0 1 5\n3 0 5 4\n\
                 3 2 6 7\n3 2 7 3\n3 0 4 6\n3 0 6 2\n3 1 3 7\n3 1 7 5\n";
    std::fs::write(
        dir.join("block.off"),
        format!("OFF\n8 12 0\n{corners}{faces}"),
    )
    .unwrap();
    std::fs::write(
        dir.join("block.xml"),
        "<root><material>wood</material><geometryFile type=\"off\">block.off</geometryFile></root>",
    )
    .unwrap();
    let file = dir.join("sealed.xml");
    let world_text = format!(
        "<world><graspableBody><filename>{0}/objects/mug.xml</filename></graspableBody>\
         <obstacle><filename>{1}/block.xml</filename></obstacle>\
         <robot><filename>{0}/robots/Barrett/Barrett.xml</filename></robot></world>",
        models.display(),
        dir.display()
    );
    std::fs::write(&file, world_text).unwrap();
    let mut app = headless_app();
    assert!(edit(&mut app, |e| e.open_world(&file)));
    app.update();
    edit(&mut app, |e| {
        e.planning.settings.steps = 10;
        e.start_plan(0.0);
    });
    let mut frames = 0;
    while edit(&mut app, |e| e.planning.running()) {
        app.update();
        frames += 1;
        assert!(frames < 10_000, "the plan never ended");
    }
    let said = log(&app).iter().any(|l| {
        l.error
            && l.text
                .starts_with("the planner found no grasp: no legal state")
    });
    assert!(
        said,
        "{:?}",
        log(&app).iter().map(|l| &l.text).collect::<Vec<_>>()
    );
}

/// The repository's default world, read from its files (Save can then refer to them).
fn default_world_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../models/worlds/default.xml")
        .canonicalize()
        .unwrap()
}

#[test]
fn a_material_edited_in_the_app_is_saved_and_found_on_reopening() {
    let mut app = headless_app();
    assert!(edit(&mut app, |e| e.open_world(&default_world_file())));
    assert_ne!(world(&app).body(MUG).unwrap().material, Material::Rubber);
    edit(&mut app, |e| e.set_material(MUG, Material::Rubber));

    let dir = scratch_dir("material");
    let saved = dir.join("rubber_mug.xml");
    let mut dialogs = app.world_mut().resource_mut::<FileDialogs>();
    dialogs.deliver(DialogPurpose::SaveAs, saved.clone());
    app.update();
    assert!(
        !edit(&mut app, |e| e.has_unsaved_edits()),
        "{:?}",
        log(&app)
    );

    // Another world in between, then the saved one again.
    assert!(edit(&mut app, |e| e.open_world(&default_world_file())));
    assert_ne!(world(&app).body(MUG).unwrap().material, Material::Rubber);
    let mut dialogs = app.world_mut().resource_mut::<FileDialogs>();
    dialogs.deliver(DialogPurpose::OpenWorld, saved.clone());
    app.update();
    finish_loads(&mut app);
    assert_eq!(doc(&app).path.as_deref(), Some(saved.as_path()));
    assert_eq!(world(&app).body(MUG).unwrap().material, Material::Rubber);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unsaved_edits_are_asked_about_before_another_world_opens_or_the_app_closes() {
    let mut app = headless_app();
    let world_file = default_world_file();
    assert!(
        !edit(&mut app, |e| e.has_unsaved_edits()),
        "the scene it opened with"
    );

    // An edit, undone, is no edit; done again, it is.
    edit(&mut app, |e| e.set_material(MUG, Material::Wood));
    assert!(edit(&mut app, |e| e.has_unsaved_edits()));
    edit(&mut app, |e| e.undo());
    assert!(!edit(&mut app, |e| e.has_unsaved_edits()));
    edit(&mut app, |e| e.redo());
    assert!(edit(&mut app, |e| e.has_unsaved_edits()));

    // Open World asks; Cancel keeps the world and its edit.
    let open = |app: &mut App| {
        let mut dialogs = app.world_mut().resource_mut::<FileDialogs>();
        dialogs.deliver(DialogPurpose::OpenWorld, world_file.clone());
        app.update();
        finish_loads(app);
    };
    open(&mut app);
    assert_eq!(
        unsaved_question(&app),
        Some(Leaving::Open(world_file.clone()))
    );
    assert!(!answer_unsaved(&mut app, Answer::Cancel));
    finish_loads(&mut app);
    assert_eq!(unsaved_question(&app), None);
    assert_eq!(doc(&app).path, None);
    assert_eq!(world(&app).body(MUG).unwrap().material, Material::Wood);

    // Save, where the world has no file yet, asks for one and stays.
    open(&mut app);
    assert!(!answer_unsaved(&mut app, Answer::Save));
    app.update();
    let dialogs = app.world().resource::<FileDialogs>();
    assert_eq!(dialogs.browser_purpose(), Some(DialogPurpose::SaveAs));
    assert_eq!(world(&app).body(MUG).unwrap().material, Material::Wood);

    // Don't Save opens the other world, which has nothing unsaved.
    open(&mut app);
    assert!(!answer_unsaved(&mut app, Answer::DontSave));
    finish_loads(&mut app);
    assert_eq!(doc(&app).path.as_deref(), Some(world_file.as_path()));
    assert_ne!(world(&app).body(MUG).unwrap().material, Material::Wood);
    assert!(!edit(&mut app, |e| e.has_unsaved_edits()));

    // A world with nothing unsaved opens without a question.
    open(&mut app);
    assert_eq!(unsaved_question(&app), None);
    assert!(log(&app).iter().any(|e| e.text.starts_with("opened")));

    // The window's close button asks too; Save writes the edit to the world's file, then closes.
    let dir = scratch_dir("close");
    let copy = dir.join("copy.xml");
    edit(&mut app, |e| e.save(Some(&copy)));
    edit(&mut app, |e| e.set_material(MUG, Material::Stone));
    let window = primary_window(&mut app);
    app.world_mut()
        .write_message(bevy::window::WindowCloseRequested { window });
    app.update();
    assert_eq!(unsaved_question(&app), Some(Leaving::Quit));
    assert!(answer_unsaved(&mut app, Answer::Save), "{:?}", log(&app));
    assert!(
        std::fs::read_to_string(&copy)
            .unwrap()
            .contains("<material>stone</material>")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
