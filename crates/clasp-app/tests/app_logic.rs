//! App logic without GPU or window, driven by pointer and keyboard input on the default scene
//! (ClaspHand beside a mug): selecting, the camera, body and joint draggers that stop at contact,
//! Toggle Collision and undo.

mod common;

use bevy::input::{
    ButtonState,
    mouse::{MouseScrollUnit, MouseWheel},
    touch::TouchPhase,
};
use bevy::{
    picking::pointer::{PointerAction, PointerButton},
    prelude::*,
};
use clasp_app::{camera::OrbitCamera, dragger};
use clasp_core::{BodyId, Element, RobotId};
use common::*;

/// A point low on the mug's outer wall, on the side that faces the default camera: the fingers
/// pass in front of the mug's middle.
const ON_MUG_WALL: Vec3 = Vec3::new(0.0, -39.5, 25.0);

#[test]
fn clicking_the_mug_selects_it_and_clicking_empty_space_clears() {
    let mut app = headless_app();
    let mug = BodyId::Free(0);
    let (on_mug, viewport) = screen_position(&mut app, ON_MUG_WALL);
    assert!(
        viewport.contains(on_mug),
        "the mug is in view: {on_mug} in {viewport:?}"
    );

    click(&mut app, on_mug);
    assert_eq!(selection(&app), vec![mug]);

    // The top right corner of the 3D view shows only the background.
    let empty = Vec2::new(viewport.max.x - 10.0, viewport.min.y + 10.0);
    click(&mut app, empty);
    assert_eq!(selection(&app), Vec::<BodyId>::new());
}

#[test]
fn clicking_a_finger_selects_that_link() {
    let mut app = headless_app();
    let link = BodyId::Link {
        robot: RobotId::from_index(0),
        chain: 2,
        link: 0,
    };
    let center = body_center(&app, link);
    let (on_link, _) = screen_position(&mut app, center);
    click(&mut app, on_link);
    assert_eq!(selection(&app), vec![link]);
}

#[test]
fn a_drag_is_not_a_click() {
    let mut app = headless_app();
    let (on_mug, _) = screen_position(&mut app, ON_MUG_WALL);
    send(&mut app, on_mug, PointerAction::Move { delta: Vec2::ZERO });
    send(&mut app, on_mug, PointerAction::Move { delta: Vec2::ZERO });
    send(
        &mut app,
        on_mug,
        PointerAction::Press(PointerButton::Primary),
    );
    let moved = on_mug + Vec2::new(3.0, 5.0);
    send(
        &mut app,
        moved,
        PointerAction::Move {
            delta: Vec2::new(3.0, 5.0),
        },
    );
    send(
        &mut app,
        moved,
        PointerAction::Release(PointerButton::Primary),
    );
    assert_eq!(selection(&app), Vec::<BodyId>::new());
}

fn orbit(app: &mut App) -> OrbitCamera {
    let world = app.world_mut();
    *world.query::<&OrbitCamera>().single(world).unwrap()
}

/// Two lines of the mouse wheel, away from the user.
fn wheel_up(app: &mut App) {
    let window = primary_window(app);
    app.world_mut().write_message(MouseWheel {
        unit: MouseScrollUnit::Line,
        x: 0.0,
        y: 2.0,
        window,
        phase: TouchPhase::Moved,
    });
    app.update();
}

#[test]
fn left_drag_orbits_middle_drag_pans_and_the_wheel_zooms() {
    let mut app = headless_app();
    let start = Vec2::new(600.0, 500.0);
    let before = orbit(&mut app);

    mouse_move(&mut app, start, Vec2::ZERO);
    mouse_button(&mut app, MouseButton::Left, ButtonState::Pressed);
    mouse_move(&mut app, start + Vec2::new(40.0, 0.0), Vec2::new(40.0, 0.0));
    mouse_move(&mut app, start + Vec2::new(80.0, 0.0), Vec2::new(40.0, 0.0));
    mouse_button(&mut app, MouseButton::Left, ButtonState::Released);
    let orbited = orbit(&mut app);
    assert!(
        orbited.yaw < before.yaw,
        "dragging right turns the view: {before:?} -> {orbited:?}"
    );
    assert_eq!(
        (orbited.focus, orbited.distance),
        (before.focus, before.distance)
    );

    mouse_button(&mut app, MouseButton::Middle, ButtonState::Pressed);
    mouse_move(
        &mut app,
        start + Vec2::new(80.0, 40.0),
        Vec2::new(0.0, 40.0),
    );
    mouse_button(&mut app, MouseButton::Middle, ButtonState::Released);
    let panned = orbit(&mut app);
    assert_ne!(panned.focus, orbited.focus, "a middle drag pans");
    assert_eq!(panned.yaw, orbited.yaw);

    wheel_up(&mut app);
    let zoomed = orbit(&mut app);
    assert!(zoomed.distance < panned.distance, "the wheel zooms in");

    // Over a panel, the wheel and a drag belong to the panel: the view stays.
    let over_inspector = Vec2::new(1200.0, 600.0);
    mouse_move(&mut app, over_inspector, over_inspector - start);
    wheel_up(&mut app);
    mouse_button(&mut app, MouseButton::Left, ButtonState::Pressed);
    mouse_move(
        &mut app,
        over_inspector - Vec2::new(80.0, 0.0),
        Vec2::new(-80.0, 0.0),
    );
    mouse_button(&mut app, MouseButton::Left, ButtonState::Released);
    assert_eq!(orbit(&mut app), zoomed, "the view did not move");

    // The camera moved, so nothing was selected by the drags.
    assert_eq!(selection(&app), Vec::<BodyId>::new());
}

const MUG: BodyId = BodyId::Free(0);
const PALM: BodyId = BodyId::Palm {
    robot: RobotId::from_index(0),
};

fn hold_shift(app: &mut App, held: bool) {
    let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    if held {
        keys.press(KeyCode::ShiftLeft);
    } else {
        keys.release(KeyCode::ShiftLeft);
    }
}

#[test]
fn shift_click_adds_a_body_and_a_double_click_selects_the_whole_robot() {
    let mut app = headless_app();
    let (on_mug, _) = screen_position(&mut app, ON_MUG_WALL);
    let link = BodyId::Link {
        robot: RobotId::from_index(0),
        chain: 2,
        link: 0,
    };
    let center = body_center(&app, link);
    let (on_link, _) = screen_position(&mut app, center);

    click(&mut app, on_mug);
    hold_shift(&mut app, true);
    click(&mut app, on_link);
    hold_shift(&mut app, false);
    assert_eq!(selection(&app), vec![MUG, link]);
    assert_eq!(
        edit(&mut app, |e| e.selected_elements()),
        vec![Element::Body(0), Element::Robot(RobotId::from_index(0))]
    );

    // Two clicks in quick succession: picking counts the second as a double-click.
    click(&mut app, on_link);
    click(&mut app, on_link);
    let robot_bodies = world(&app).element_bodies(Element::Robot(RobotId::from_index(0)));
    assert_eq!(robot_bodies.len(), 9);
    assert_eq!(selection(&app), robot_bodies, "the whole hand");

    press_key(&mut app, &[], KeyCode::Escape);
    assert!(selection(&app).is_empty());
}

/// The smallest gap between the mug and any body of the hand, from the mug's contacts.
fn mug_gap(app: &App) -> Option<f64> {
    world(app)
        .contacts_of(MUG)
        .map(|c| c.separation)
        .reduce(f64::min)
}

fn mug_position(app: &App) -> nalgebra::Vector3<f64> {
    world(app).free_body(0).unwrap().pose().translation.vector
}

/// Selects the mug with a click, and gives where its x arrow is grabbed and a point 150 mm
/// further toward the hand (−x), in the window.
fn mug_x_arrow_toward_hand(app: &mut App) -> (Vec2, Vec2) {
    let (on_mug, _) = screen_position(app, ON_MUG_WALL);
    click(app, on_mug);
    assert_eq!(selection(app), vec![MUG]);
    let handles =
        dragger::body_dragger(world(app), &selection(app), 0.0).expect("the mug has a dragger");
    // Two thirds of the way out, where no other handle is near.
    let grab = handles.centre + (handles.axis_tip(0) - handles.centre) * 0.66;
    let far = grab - nalgebra::Vector3::x() * 150.0;
    (on_screen(app, &grab), on_screen(app, &far))
}

fn drag_mug_into_hand(app: &mut App) {
    let (from, to) = mug_x_arrow_toward_hand(app);
    left_drag(app, from, to, 15);
}

#[test]
fn dragging_the_mug_into_the_hand_stops_at_contact_and_undo_restores_it() {
    let mut app = headless_app();
    let threshold = world(&app).settings().contact_threshold;
    let camera_before = orbit(&mut app);
    let before = mug_position(&app);
    assert!(mug_gap(&app).is_none(), "the mug touches nothing at first");

    drag_mug_into_hand(&mut app);
    let after = mug_position(&app);
    let moved = after - before;
    assert!(moved.x < -1.0, "the mug moved toward the hand: {moved:?}");
    assert!(
        moved.x > -150.0 + 1e-6,
        "and stopped short of where the pointer went: {moved:?}"
    );
    assert!(
        moved.y.abs() < 1e-6 && moved.z.abs() < 1e-6,
        "along x only: {moved:?}"
    );
    let gap = mug_gap(&app).expect("contacts appear where it stopped");
    assert!(
        gap > 0.0 && gap < threshold / 2.0,
        "gap {gap} in (0, {})",
        threshold / 2.0
    );
    assert!(world(&app).overlapping_pairs().is_empty());
    assert_eq!(
        orbit(&mut app),
        camera_before,
        "the drag did not turn the camera"
    );
    assert_eq!(selection(&app), vec![MUG], "the drag kept the selection");

    // The whole drag is one step of the history.
    assert_eq!(history(&app).can_undo(), Some("move"));
    edit(&mut app, |e| e.undo());
    app.update();
    assert_eq!(mug_position(&app), before);
    assert!(mug_gap(&app).is_none());
}

#[test]
fn a_drag_held_at_contact_says_what_it_touches_and_changes_colour() {
    let mut app = headless_app();
    let (from, to) = mug_x_arrow_toward_hand(&mut app);
    press_and_move(&mut app, from, to, 15);
    let touching = doc(&app).touching.clone().expect("held at contact");
    assert!(touching.contains("clasp_mug touches"), "{touching}");
    assert!(history(&app).dragging());
    mouse_button(&mut app, MouseButton::Left, ButtonState::Released);
    assert!(doc(&app).touching.is_none(), "released");
    assert!(!history(&app).dragging());
}

#[test]
fn dragging_the_selected_body_itself_moves_it_in_the_view_plane() {
    let mut app = headless_app();
    let (on_mug, _) = screen_position(&mut app, ON_MUG_WALL);
    click(&mut app, on_mug);
    let before = mug_position(&app);
    let camera = orbit(&mut app);
    // A point of the mug with no handle near it.
    let (camera_view, transform) = view(&mut app);
    let grab = (0..200)
        .map(|k| on_mug + Vec2::new((k % 20) as f32 * 4.0 - 40.0, -((k / 20) as f32) * 6.0))
        .find(|&p| {
            dragger::handle_at(world(&app), &selection(&app), (&camera_view, &transform), p)
                .is_none()
                && hovered_body(&mut app, p) == Some(MUG)
        })
        .expect("some of the mug is clear of the handles");
    // Up the screen, away from the hand, which is to the left.
    left_drag(&mut app, grab, grab - Vec2::new(0.0, 40.0), 4);
    let moved = mug_position(&app) - before;
    assert!(moved.z > 5.0, "the mug rose: {moved:?}");
    assert_eq!(orbit(&mut app), camera);
}

#[test]
fn rotating_with_a_ring_turns_the_mug_about_its_centre() {
    let mut app = headless_app();
    let (on_mug, _) = screen_position(&mut app, ON_MUG_WALL);
    click(&mut app, on_mug);
    let handles = dragger::body_dragger(world(&app), &selection(&app), 0.0).unwrap();
    let before = world(&app).free_body(0).unwrap().pose();
    // The z ring, from a point in front of the camera a quarter turn round.
    let (from, to) = (handles.ring_point(2, -1.2), handles.ring_point(2, -0.6));
    let (from, to) = (on_screen(&mut app, &from), on_screen(&mut app, &to));
    left_drag(&mut app, from, to, 6);
    let after = world(&app).free_body(0).unwrap().pose();
    let turned = (before.rotation.inverse() * after.rotation).angle();
    assert!(turned > 0.3, "turned {turned} rad");
    let axis = (before.rotation.inverse() * after.rotation).axis().unwrap();
    assert!(axis.z.abs() > 0.999, "about z: {axis:?}");
}

#[test]
fn a_joint_drag_turns_its_dof_and_stops_at_contact() {
    let mut app = headless_app();
    // Bring the open hand up to the mug, so that closing a finger meets it.
    {
        edit(&mut app, |editor| {
            editor.auto_grasp(RobotId::from_index(0), false);
            editor.approach(RobotId::from_index(0), 200.0);
        });
    }
    app.update();
    // The first link in sight, fingertips first.
    let links: Vec<BodyId> = world(&app)
        .element_bodies(Element::Robot(RobotId::from_index(0)))
        .into_iter()
        .filter(|id| matches!(id, BodyId::Link { .. }))
        .rev()
        .collect();
    let (link, on_link) = links
        .into_iter()
        .find_map(|id| Some((id, visible_point(&mut app, id)?)))
        .expect("a link in sight");
    click(&mut app, on_link);
    assert_eq!(selection(&app), vec![link]);
    let joints = dragger::joint_draggers(world(&app), &selection(&app));
    assert!(
        !joints.is_empty(),
        "a disc or an arrow for each DOF of the chain"
    );
    let disc = *joints
        .iter()
        .find(|j| {
            j.kind == clasp_core::JointKind::Revolute
                && world(&app).robot(RobotId::from_index(0)).unwrap().dofs[j.dof].default_velocity
                    != 0.0
        })
        .expect("a finger DOF that closes");
    let dof = disc.dof;
    let value = |app: &App| {
        world(app)
            .robot(RobotId::from_index(0))
            .unwrap()
            .dof_values()[dof]
    };
    let before = value(&app);
    let (lo, hi) = world(&app)
        .robot(RobotId::from_index(0))
        .unwrap()
        .dof_limits(dof);
    let closing = world(&app).robot(RobotId::from_index(0)).unwrap().dofs[dof]
        .default_velocity
        .signum();
    // Grab the rim and sweep it 150 degrees the closing way, in steps.
    let start = 0.3;
    let sweep = closing * disc.ratio.signum() * 150f64.to_radians();
    let rim: Vec<Vec2> = (0..=20)
        .map(|k| disc.grab_point(start + sweep * k as f64 / 20.0))
        .map(|p| on_screen(&mut app, &p))
        .collect();
    pointer_to(&mut app, rim[0]);
    pointer_to(&mut app, rim[0]);
    mouse_button(&mut app, MouseButton::Left, ButtonState::Pressed);
    for &p in &rim[1..] {
        pointer_to(&mut app, p);
    }
    mouse_button(&mut app, MouseButton::Left, ButtonState::Released);
    let after = value(&app);
    assert!(
        (after - before) * closing > 0.05,
        "the finger closed: {before} -> {after}"
    );
    assert!(
        after >= lo - 1e-9 && after <= hi + 1e-9,
        "within its limits"
    );
    let world = world(&app);
    let finger_touches = world
        .contacts()
        .iter()
        .any(|c| c.body.robot() == Some(RobotId::from_index(0)) && c.other == MUG);
    let at_limit = (after - lo).abs() < 1e-6 || (after - hi).abs() < 1e-6;
    assert!(
        finger_touches && !at_limit,
        "it stopped at the mug, not at a limit ({after} in [{lo}, {hi}])"
    );
    assert!(world.overlapping_pairs().is_empty());
    assert_eq!(history(&app).can_undo(), Some("joint drag"));
}

#[test]
fn toggle_collision_follows_the_selection() {
    let mut app = headless_app();
    let (on_mug, _) = screen_position(&mut app, ON_MUG_WALL);
    let finger = BodyId::Link {
        robot: RobotId::from_index(0),
        chain: 2,
        link: 0,
    };
    let center = body_center(&app, finger);
    let (on_finger, _) = screen_position(&mut app, center);
    let switches = |app: &App| world(app).switches().clone();

    // Nothing selected: the whole world.
    assert!(edit(&mut app, |e| e.collisions_on()));
    assert!(!edit(&mut app, |e| e.toggle_collisions()));
    assert!(!switches(&app).world_on());
    assert!(world(&app).checked_pairs().is_empty());
    assert!(edit(&mut app, |e| e.toggle_collisions()));
    assert!(switches(&app).world_on());

    // One element (the mug): it against everything.
    click(&mut app, on_mug);
    assert!(!edit(&mut app, |e| e.toggle_collisions()));
    assert!(!switches(&app).body_on(MUG));
    assert!(switches(&app).world_on());
    assert!(!edit(&mut app, |e| e.collisions_on()));
    edit(&mut app, |e| e.toggle_collisions());

    // Two picked (the mug and one link of the hand, clicked alone): that pair only, the link
    // and not its hand.
    hold_shift(&mut app, true);
    click(&mut app, on_finger);
    hold_shift(&mut app, false);
    assert_eq!(selection(&app), vec![MUG, finger]);
    assert!(!edit(&mut app, |e| e.toggle_collisions()));
    let s = switches(&app);
    assert!(!s.pair_on(MUG, finger) && s.pair_on(MUG, PALM));
    assert!(s.body_on(MUG) && s.body_on(finger) && s.world_on());
    assert!(!edit(&mut app, |e| e.collisions_on()));
    assert!(edit(&mut app, |e| e.toggle_collisions()));

    // The mug and the whole hand (a double-click picks the robot): that pair only.
    edit(&mut app, |e| {
        e.select_robot_of(finger);
        e.click_body(MUG, true);
    });
    assert!(!edit(&mut app, |e| e.toggle_collisions()));
    let s = switches(&app);
    assert!(!s.pair_on(MUG, PALM) && !s.pair_on(MUG, finger));
    assert!(s.body_on(MUG) && s.body_on(PALM) && s.world_on());
    assert!(!edit(&mut app, |e| e.collisions_on()));
    // With the pair off, the mug passes into the hand.
    click(&mut app, on_mug);
    assert!(
        edit(&mut app, |e| e.collisions_on()),
        "the mug alone is still on"
    );
    let pose = nalgebra::Isometry3::translation(-60.0, 0.0, 80.0);
    edit(&mut app, |e| e.move_element(Element::Body(0), pose));
    assert_eq!(
        mug_position(&app),
        pose.translation.vector,
        "nothing stopped it"
    );

    // Switching the pair back on while they pass into each other is refused, and said. (The mug
    // now hides the finger: the robot is picked by the editor, as the body list does.)
    edit(&mut app, |e| {
        e.select_robot_of(finger);
        e.click_body(MUG, true);
    });
    assert!(!edit(&mut app, |e| e.toggle_collisions()));
    assert!(!world(&app).switches().pair_on(MUG, PALM));
    let error = log(&app).last().unwrap().clone();
    assert!(
        error.error && error.text.contains("move them apart first"),
        "{error:?}"
    );

    // Undo brings the mug back, then the pair's switch as it was.
    edit(&mut app, |e| e.undo());
    edit(&mut app, |e| e.undo());
    assert!(switches(&app).pair_on(MUG, PALM));
    assert_eq!(mug_position(&app), nalgebra::Vector3::zeros());
}

#[test]
fn three_selected_elements_are_each_switched_against_everything() {
    let mut app = headless_app();
    // Import two more objects so there are three elements to pick.
    let dir = std::env::temp_dir().join(format!("clasp-three-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cube = dir.join("cube.off");
    std::fs::write(
        &cube,
        "OFF\n8 12 0\n0 0 0\n10 0 0\n10 10 0\n0 10 0\n0 0 10\n10 0 10\n10 10 10\n0 10 10\n\
         3 0 2 1\n3 0 3 2\n3 4 5 6\n3 4 6 7\n3 0 1 5\n3 0 5 4\n3 1 2 6\n3 1 6 5\n3 2 3 7\n3 2 7 6\n3 3 0 4\n3 3 4 7\n",
    )
    .unwrap();
    assert!(edit(&mut app, |e| e
        .import(&cube, clasp_app::editor::ImportKind::Object)));
    assert!(edit(&mut app, |e| e
        .import(&cube, clasp_app::editor::ImportKind::Obstacle)));
    // View All, so that all three are in sight.
    press_key(&mut app, &[], KeyCode::KeyF);
    let ids = [MUG, BodyId::Free(1), BodyId::Free(2)];
    for (k, &id) in ids.iter().enumerate() {
        let on_body = visible_point(&mut app, id).expect("in sight");
        hold_shift(&mut app, k > 0);
        click(&mut app, on_body);
    }
    hold_shift(&mut app, false);
    assert_eq!(selection(&app), ids.to_vec());
    assert!(!edit(&mut app, |e| e.toggle_collisions()));
    for id in ids {
        assert!(!world(&app).switches().body_on(id));
    }
    assert!(world(&app).switches().body_on(PALM));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn each_contact_gets_a_cone_of_its_friction_and_a_new_material_changes_it() {
    let mut app = headless_app();
    edit(&mut app, |e| e.auto_grasp(RobotId::from_index(0), true));
    app.update();
    let cone_slopes = |app: &App| -> Vec<f64> {
        let geometry = markers(app);
        let per_cone = clasp_app::markers::CONE_SIDES + 2;
        (0..geometry.cones)
            .map(|k| {
                let p =
                    |i: usize| bevy::math::Vec3::from_array(geometry.positions[k * per_cone + i]);
                let (apex, rim, centre) = (p(0), p(1), p(per_cone - 1));
                f64::from(rim.distance(centre) / apex.distance(centre))
            })
            .collect()
    };
    let marked: Vec<f64> = world(&app)
        .contacts_of(MUG)
        .map(|c| c.static_friction)
        .collect();
    let slopes = cone_slopes(&app);
    assert!(!marked.is_empty(), "the closed hand touches the mug");
    assert_eq!(
        slopes.len(),
        marked.len(),
        "one cone per contact, on the mug's side"
    );
    for (slope, mu) in slopes.iter().zip(&marked) {
        assert!(
            (slope - mu).abs() < 1e-4,
            "tan(half-angle) {slope} = μ {mu}"
        );
    }

    edit(&mut app, |e| {
        e.set_material(MUG, clasp_core::Material::Rubber)
    });
    app.update();
    let rubber: Vec<f64> = world(&app)
        .contacts_of(MUG)
        .map(|c| c.static_friction)
        .collect();
    assert!(
        rubber.iter().zip(&marked).all(|(r, m)| r > m),
        "rubber grips better: {rubber:?}"
    );
    let wider = cone_slopes(&app);
    for (slope, mu) in wider.iter().zip(&rubber) {
        assert!((slope - mu).abs() < 1e-4);
    }
    assert_eq!(history(&app).can_undo(), Some("material change"));
}

/// A body's mask edited in the app: the contacts follow at once, and the next move passes
/// through what it no longer meets; undo brings the mask back.
#[test]
fn a_mask_that_leaves_out_the_hands_group_lets_the_hand_pass_through_the_mug() {
    use clasp_core::{CollisionGroups, Pose, group_bit};
    let mut app = headless_app();
    let hand = Element::Robot(RobotId::from_index(0));
    let palm = world(&app).robot(RobotId::from_index(0)).unwrap().pose();
    // Toward the mug and well past its centre: stopped at contact.
    let through = Pose::translation(120.0, 0.0, 0.0) * palm;
    let stopped = edit(&mut app, |e| e.move_element(hand, through)).unwrap();
    assert!(!stopped.completed, "the mug stops the hand: {stopped:?}");
    assert!(world(&app).contacts_of(MUG).next().is_some());
    edit(&mut app, |e| e.undo());

    // The mug keeps group 1 but meets only the static group: not the hand (group 1).
    let aloof = CollisionGroups::new(1, group_bit(63)).unwrap();
    edit(&mut app, |e| e.set_collision_groups(MUG, aloof));
    app.update();
    assert_eq!(world(&app).body(MUG).unwrap().groups(), aloof);
    let passed = edit(&mut app, |e| e.move_element(hand, through)).unwrap();
    assert!(passed.completed, "nothing stops the hand now: {passed:?}");
    assert!(world(&app).contacts_of(MUG).next().is_none());

    // Undo the move, then the mask: the mug meets the hand again.
    edit(&mut app, |e| e.undo());
    edit(&mut app, |e| e.undo());
    assert_eq!(
        world(&app).body(MUG).unwrap().groups(),
        CollisionGroups::MOVABLE
    );
}

/// Soft fingertips (models/worlds/soft_fingertips.xml): closed on the mug, their contacts are
/// soft and drawn as fitted patches; the rigid links' contacts stay cones.
#[test]
fn soft_fingertips_contacts_are_drawn_as_patches() {
    let mut app = headless_app();
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../models/worlds/soft_fingertips.xml");
    assert!(edit(&mut app, |e| e.open_world(&file)));
    app.update();
    assert_eq!(markers(&app).patches, 0, "nothing touches yet");
    edit(&mut app, |e| e.auto_grasp(RobotId::from_index(0), true));
    app.update();
    let soft: Vec<_> = world(&app)
        .contacts_of(MUG)
        .filter(|c| matches!(c.model, clasp_core::ContactModel::Soft(_)))
        .collect();
    assert!(!soft.is_empty(), "the fingertips touch the mug softly");
    let geometry = markers(&app);
    assert_eq!(
        geometry.patches,
        2 * soft.len(),
        "two fitted surfaces per soft contact"
    );
    let cones = world(&app)
        .contacts_of(MUG)
        .filter(|c| !matches!(c.model, clasp_core::ContactModel::Soft(_)))
        .count();
    assert_eq!(geometry.cones, cones, "the other contacts keep their cones");
}

/// RaiSim's four spheres in the app: only sphere0 and sphere1 meet (one cone each), and
/// sphere3, which meets nothing, is dragged down through sphere2 untouched.
#[test]
fn raisims_four_spheres_meet_in_the_app_as_documented() {
    use clasp_core::Pose;
    let mut app = headless_app();
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../models/worlds/raisim_four_spheres.xml");
    assert!(edit(&mut app, |e| e.open_world(&file)));
    app.update();
    let sphere = BodyId::Free;
    let pairs: std::collections::BTreeSet<_> = world(&app)
        .contacts()
        .iter()
        .map(|c| (c.body.min(c.other), c.body.max(c.other)))
        .collect();
    assert_eq!(
        pairs.into_iter().collect::<Vec<_>>(),
        [(sphere(0), sphere(1))]
    );
    let cones = markers(&app).cones;
    assert_eq!(cones, world(&app).contacts_of(sphere(0)).count());
    let below = Pose::translation(0.0, 0.0, 70.05);
    let outcome = edit(&mut app, |e| e.move_element(Element::Body(3), below)).unwrap();
    assert!(outcome.completed, "sphere3 meets nothing: {outcome:?}");
}

/// View → Virtual contacts shows a hand's virtual contacts where its bodies are: the Barrett of
/// GraspIt's library has 19, each on the surface of the body that carries it, and they follow
/// the hand when it moves.
#[test]
fn a_hand_s_virtual_contacts_are_shown_on_its_bodies() {
    let Some(library) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    let mut app = headless_app();
    let barrett = library.join("robots/Barrett/Barrett.xml");
    assert!(edit(&mut app, |e| e
        .import(&barrett, clasp_app::editor::ImportKind::Robot)));
    edit(&mut app, |e| e.view.virtual_contacts_shown = true);
    app.update();
    let points = clasp_app::markers::virtual_contact_points(world(&app));
    assert_eq!(points.len(), 19);
    let robot = world(&app).robot(RobotId::from_index(1)).unwrap();
    let contacts = &robot.virtual_contacts.as_ref().unwrap().contacts;
    for ((point, normal), contact) in points.iter().zip(contacts) {
        let body = robot.body(contact.body).unwrap();
        let (lo, hi) = body.mesh().bounding_box();
        let local = body.pose().inverse() * point;
        let inside = (0..3).all(|i| local[i] >= lo[i] - 1.0 && local[i] <= hi[i] + 1.0);
        assert!(inside, "{} at {local} outside {lo}..{hi}", body.name);
        assert!((normal.norm() - 1.0).abs() < 1e-9);
    }
    // The hand moves: its contacts go with it.
    let shift = clasp_core::Pose::translation(0.0, 0.0, 100.0) * robot.pose();
    edit(&mut app, |e| {
        e.move_element(Element::Robot(RobotId::from_index(1)), shift)
    });
    let moved = clasp_app::markers::virtual_contact_points(world(&app));
    assert!((moved[0].0 - points[0].0 - nalgebra::Vector3::z() * 100.0).norm() < 1e-6);
}

/// A URDF hand imported into the app shows where its palm faces, worked out of its kinematics:
/// the tree hand's fingers curl toward its palm's -y, and the arrow turns with the hand.
#[test]
fn an_imported_urdf_hand_shows_its_approach() {
    let mut app = headless_app();
    let hand = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../models/robots/ClaspTreeHand/ClaspTreeHand.urdf");
    assert!(edit(&mut app, |e| e
        .import(&hand, clasp_app::editor::ImportKind::Robot)));
    edit(&mut app, |e| e.view.approach_shown = true);
    app.update();
    let robot = RobotId::from_index(1);
    let arrows = clasp_app::markers::approach_arrows(world(&app));
    // The default scene's hand and the tree hand.
    assert_eq!(arrows.len(), 2);
    let palm = world(&app).robot(robot).unwrap().pose();
    let facing = palm.rotation * -nalgebra::Vector3::y();
    assert!(
        (arrows[1].1 - facing).norm() < 1e-6,
        "{:?} {facing}",
        arrows[1].1
    );
    // Turned half a radian about the palm's own x.
    let turned = palm * clasp_core::Pose::rotation(nalgebra::Vector3::x() * 0.5);
    edit(&mut app, |e| e.move_element(Element::Robot(robot), turned));
    let after = clasp_app::markers::approach_arrows(world(&app));
    let facing = world(&app).robot(robot).unwrap().pose().rotation * -nalgebra::Vector3::y();
    assert!((after[1].1 - facing).norm() < 1e-6);
    assert!(
        (after[1].1 - arrows[1].1).norm() > 0.1,
        "the arrow turned with the hand"
    );
}

/// A world file of Clasp's box standing on another, turned flat into a table, 30 mm above it.
fn box_over_a_table() -> std::path::PathBuf {
    let folder = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("box_over_a_table");
    std::fs::create_dir_all(&folder).unwrap();
    let file = folder.join("box_over_a_table.xml");
    let world = "<world>\
        <obstacle><filename>models/objects/clasp_box.xml</filename>\
        <transform><translation>0 0 -80</translation></transform></obstacle>\
        <graspableBody><filename>models/objects/clasp_box.xml</filename>\
        <transform><translation>0 0 30</translation></transform></graspableBody></world>";
    std::fs::write(&file, world).unwrap();
    file
}

/// The headless app on `box_over_a_table`, each frame 20 ms of the clock.
fn box_over_a_table_app() -> App {
    let mut app = headless_app();
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_millis(20),
    ));
    let file = box_over_a_table();
    assert!(edit(&mut app, |editor| editor.open_world(&file)));
    app
}

fn simulation(app: &App) -> &clasp_app::editor::Simulation {
    app.world().resource::<clasp_app::editor::Simulation>()
}

/// Runs frames of `frame` seconds until the simulated time reaches `seconds`.
fn play_until(app: &mut App, seconds: f64) {
    for _ in 0..5000 {
        if simulation(app).time >= seconds {
            return;
        }
        app.update();
    }
    panic!("the simulation reached only {} s", simulation(app).time);
}

#[test]
fn play_drops_a_box_onto_the_table_with_its_forces_shown_and_undo_puts_it_back() {
    let mut app = box_over_a_table_app();
    let falling = BodyId::Free(1);
    let start = world(&app).body(falling).unwrap().pose();
    press_key(&mut app, &[], KeyCode::Space);
    assert!(simulation(&app).playing);
    assert_eq!(history(&app).can_undo(), Some("simulation"));
    play_until(&mut app, 1.5);
    let body = world(&app).body(falling).unwrap();
    let z = body.pose().translation.vector.z;
    assert!(z.abs() < 0.2, "the box rests on the table top, at {z} mm");
    assert!(body.velocity().linear.norm() < 5.0, "{:?}", body.velocity());
    assert!(view_settings(&app).forces_shown);
    let arrows = markers(&app).force_arrows;
    assert!(!arrows.is_empty(), "the table's push is drawn");
    for (tail, tip) in &arrows {
        assert!(
            tip.z > tail.z,
            "the table pushes the box up: {tail} → {tip}"
        );
    }
    let status = edit(&mut app, |editor| {
        clasp_app::ui::simulation_summary(&editor.simulation)
    });
    assert!(status.is_some_and(|s| s.starts_with('▶')));

    press_key(&mut app, &[], KeyCode::Space);
    assert!(!simulation(&app).playing);
    press_key(&mut app, &[KeyCode::ControlLeft], KeyCode::KeyZ);
    assert_eq!(world(&app).body(falling).unwrap().pose(), start);
    assert_eq!(simulation(&app).time, 0.0);

    // → steps once: the box falls by ½ g dt² from rest.
    press_key(&mut app, &[], KeyCode::ArrowRight);
    let dt = world(&app).time_step();
    let fallen = start.translation.vector.z
        - world(&app)
            .body(falling)
            .unwrap()
            .pose()
            .translation
            .vector
            .z;
    assert!((fallen - 0.5 * 9810.0 * dt * dt).abs() < 1e-9, "{fallen}");
    assert!(!simulation(&app).playing);
}

#[test]
fn a_body_dragged_while_playing_is_held_and_pushes() {
    let mut app = box_over_a_table_app();
    let held = BodyId::Free(1);
    edit(&mut app, |editor| editor.play());
    play_until(&mut app, 0.5);
    // Lift it 40 mm: held, it goes there, gravity or no.
    let target =
        world(&app).body(held).unwrap().pose() * clasp_core::Pose::translation(0.0, 0.0, 40.0);
    edit(&mut app, |editor| {
        editor.begin_drag("move");
        assert!(editor.drag_element_to(Element::Body(1), target).is_none());
    });
    assert_eq!(
        world(&app).body(held).unwrap().body_type(),
        clasp_core::BodyType::Kinematic
    );
    play_until(&mut app, 1.0);
    let z = world(&app).body(held).unwrap().pose().translation.vector.z;
    assert!((z - 40.0).abs() < 0.5, "held at {z} mm");
    edit(&mut app, |editor| editor.end_drag());
    assert_eq!(
        world(&app).body(held).unwrap().body_type(),
        clasp_core::BodyType::Dynamic
    );
    play_until(&mut app, 2.0);
    let z = world(&app).body(held).unwrap().pose().translation.vector.z;
    assert!(
        z.abs() < 0.2,
        "let go, it falls back onto the table: {z} mm"
    );
}

/// Grasp → Test Grasp (Ctrl+T), waited for: its answer.
fn run_grasp_test(app: &mut App) -> clasp_core::HoldTest {
    app.world_mut()
        .resource_mut::<clasp_app::editor::GraspTest>()
        .wait = true;
    press_key(app, &[KeyCode::ControlLeft], KeyCode::KeyT);
    for _ in 0..3 {
        app.update();
    }
    app.world()
        .resource::<clasp_app::editor::GraspTest>()
        .result
        .clone()
        .expect("the test ran")
}

#[test]
fn test_grasp_pulls_the_mug_six_ways_and_shows_each_answer() {
    let mut app = headless_app();
    press_key(&mut app, &[KeyCode::ControlLeft], KeyCode::KeyG);
    let test = run_grasp_test(&mut app);
    assert_eq!(test.directions.len(), 6);
    assert!(
        test.held,
        "ClaspHand's Auto Grasp of its mug holds: {test:?}"
    );
    assert!(test.directions.iter().all(|d| d.path.len() > 10));
    let lines: Vec<&str> = log(&app).iter().map(|e| e.text.as_str()).collect();
    assert!(
        lines.iter().any(|l| l.starts_with("+x: moved ")),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"the grasp holds in all six directions"),
        "{lines:?}"
    );
    // The world itself is where the grasp left it: the test ran on a copy.
    assert_eq!(
        world(&app).body(BodyId::Free(0)).unwrap().velocity(),
        clasp_core::Velocity::ZERO
    );
}

/// The Grasp test window's test can be the field's: GraspGen's runs once (its hold and tugs),
/// and the squeeze is logged.
#[test]
fn test_grasp_runs_the_chosen_preset() {
    let mut app = headless_app();
    press_key(&mut app, &[KeyCode::ControlLeft], KeyCode::KeyG);
    {
        let mut test = app
            .world_mut()
            .resource_mut::<clasp_app::editor::GraspTest>();
        assert_eq!(test.preset, "clasp", "Clasp's own test is the default");
        test.preset = "graspgen";
    }
    let test = run_grasp_test(&mut app);
    assert_eq!(test.directions.len(), 1, "GraspGen's test is one run");
    let lines: Vec<&str> = log(&app).iter().map(|e| e.text.as_str()).collect();
    assert!(
        lines.iter().any(|l| l.starts_with("squeeze: ")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("hold and tugs: moved ")),
        "{lines:?}"
    );
}

#[test]
fn test_grasp_plays_the_directions_back_and_puts_the_grasp_back() {
    let mut app = headless_app();
    press_key(&mut app, &[KeyCode::ControlLeft], KeyCode::KeyG);
    let mug = BodyId::Free(0);
    let (grasp_pose, grasp_dofs) = {
        let w = world(&app);
        let hand = w.find_robot(clasp_core::RobotId::from_index(0)).unwrap();
        (w.body(mug).unwrap().pose(), hand.dof_values().to_vec())
    };
    let shown = |app: &App| {
        let w = world(app);
        let hand = w.find_robot(clasp_core::RobotId::from_index(0)).unwrap();
        (w.body(mug).unwrap().pose(), hand.dof_values().to_vec())
    };
    let playing = |app: &App| {
        app.world()
            .resource::<clasp_app::editor::GraspTest>()
            .playback
            .as_ref()
            .map(|p| p.direction)
    };
    app.world_mut()
        .resource_mut::<clasp_app::editor::GraspTest>()
        .wait = true;
    press_key(&mut app, &[KeyCode::ControlLeft], KeyCode::KeyT);
    app.update();
    assert_eq!(playing(&app), Some(0), "the answer plays back at once");
    // The squeeze closes the fingers further: the world shows them where the test had them.
    edit(&mut app, |editor| editor.advance_grasp_playback(0.08));
    let (_, dofs) = shown(&app);
    assert_ne!(dofs, grasp_dofs, "the fingers move as the test moved them");
    // One direction after another (a direction that rests ends early, so its length is the
    // test's to say: the clock moves on in small steps), then the grasp again, exactly.
    for _ in 0..1000 {
        if playing(&app) != Some(0) {
            break;
        }
        edit(&mut app, |editor| editor.advance_grasp_playback(0.01));
    }
    assert_eq!(playing(&app), Some(1));
    // The playback is on the timeline: scrubbed back into the first run, the fingers stand
    // where the test had them then.
    let position = edit(&mut app, |editor| editor.timeline_position()).unwrap();
    assert!(
        position.0 == 0.0 && position.2 > 0.0 && position.1 > position.2,
        "{position:?}"
    );
    edit(&mut app, |editor| editor.scrub_to(0.05));
    assert_eq!(playing(&app), Some(0));
    let frame = {
        let test = app.world().resource::<clasp_app::editor::GraspTest>();
        test.result.as_ref().unwrap().directions[0].path[5].clone()
    };
    let (object, dofs) = shown(&app);
    assert_eq!(object, frame.object);
    let hand = world(&app)
        .find_robot(clasp_core::RobotId::from_index(0))
        .unwrap();
    assert_eq!(dofs, hand.within_limits(&frame.dofs));
    edit(&mut app, |editor| editor.advance_grasp_playback(60.0));
    assert_eq!(playing(&app), None);
    assert_eq!(shown(&app), (grasp_pose, grasp_dofs.clone()));
    // An edit while it plays puts the grasp back before it is made (and undone to).
    edit(&mut app, |editor| {
        editor.play_grasp_test();
        editor.advance_grasp_playback(0.3);
        editor.play();
        editor.pause();
    });
    assert_eq!(playing(&app), None);
    assert_eq!(shown(&app), (grasp_pose, grasp_dofs));
}

/// A MuJoCo model given as the first FILE (or dropped, or opened) opens as the world: the hand,
/// the cube and the floor, with nothing in the log.
#[test]
fn a_mujoco_model_given_first_opens_as_the_world() {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../models/robots/ClaspMJCF/three_finger.xml");
    let scene = clasp_app::open_scene(std::slice::from_ref(&file));
    let log = scene.resource::<Log>();
    assert!(log.iter().all(|e| !e.error), "{:?}", log.entries);
    let world = &scene.resource::<Document>().world;
    assert_eq!(
        world.robot(RobotId::from_index(0)).unwrap().name,
        "clasp_three_finger"
    );
    assert_eq!(world.free_bodies().count(), 2);
    assert_eq!(
        clasp_app::dialog::purpose_for_file(&file),
        clasp_app::dialog::DialogPurpose::OpenWorld
    );
}

/// Every body's pose.
fn poses(world: &clasp_core::World) -> Vec<clasp_core::Pose> {
    world
        .body_ids()
        .into_iter()
        .map(|id| world.body(id).unwrap().pose())
        .collect()
}

fn assert_same_poses(a: &[clasp_core::Pose], b: &[clasp_core::Pose], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}");
    for (x, y) in a.iter().zip(b) {
        let moved = (x.translation.vector - y.translation.vector).norm();
        let turned = x.rotation.angle_to(&y.rotation);
        assert!(moved < 1e-9 && turned < 1e-9, "{what}: {x} vs {y}");
    }
}

/// `world` stepped on by whole steps to `time`, apart from the app.
fn simulated_to(world: &clasp_core::World, time: f64) -> clasp_core::World {
    let mut world = world.clone();
    let steps = (time / world.time_step()).round() as usize;
    for _ in 0..steps {
        world.step().unwrap();
    }
    world
}

fn timeline(app: &App) -> &clasp_app::editor::Timeline {
    app.world().resource::<clasp_app::editor::Timeline>()
}

#[test]
fn the_timeline_scrubs_back_to_where_the_run_was_and_play_goes_on_from_there() {
    let mut app = box_over_a_table_app();
    let start = world(&app).clone();
    press_key(&mut app, &[], KeyCode::Space);
    play_until(&mut app, 1.0);
    press_key(&mut app, &[], KeyCode::Space);
    let (first, last) = timeline(&app).span().unwrap();
    assert!(first == 0.0 && last >= 1.0, "{first}..{last}");
    let position = edit(&mut app, |editor| editor.timeline_position());
    assert_eq!(
        position.map(|(_, _, now)| now),
        Some(last),
        "the bar shows the live end"
    );
    assert_eq!(
        last,
        simulation(&app).time,
        "the pause kept the run's last frame"
    );
    let live = poses(world(&app));

    // Back to 0.5 s: the bodies stand where the simulation had them then.
    edit(&mut app, |editor| editor.scrub_to(0.5));
    let shown = simulation(&app).time;
    assert!(
        shown <= 0.5 && shown > 0.45,
        "the frame's moment at or before 0.5 s: {shown}"
    );
    let then = poses(world(&app));
    assert_same_poses(
        &then,
        &poses(&simulated_to(&start, shown)),
        "at the moment shown",
    );
    assert_ne!(then, poses(&start), "the box had fallen");
    // The plot's cursor follows (it shows while a moment is scrubbed to).
    assert!(timeline(&app).shown.is_some());

    // Play goes on from there, the later moments dropped; Undo goes back to the moment.
    press_key(&mut app, &[], KeyCode::Space);
    play_until(&mut app, shown + 0.1);
    press_key(&mut app, &[], KeyCode::Space);
    let (_, last) = timeline(&app).span().unwrap();
    assert!(
        last < shown + 0.2,
        "the old future is gone: the timeline ends at {last}"
    );
    assert_same_poses(
        &poses(world(&app)),
        &poses(&simulated_to(&start, last)),
        "the run from the moment shown is the same run",
    );
    press_key(&mut app, &[KeyCode::ControlLeft], KeyCode::KeyZ);
    assert_same_poses(&poses(world(&app)), &then, "Undo");
    assert_eq!(simulation(&app).time, shown);
    // Scrubbing away from the live end was an undo step of its own.
    press_key(&mut app, &[KeyCode::ControlLeft], KeyCode::KeyZ);
    assert_same_poses(&poses(world(&app)), &live, "Undo the scrub");
}

#[test]
fn a_recording_opens_onto_the_timeline_and_scrubs_to_the_runs_moments() {
    let file = box_over_a_table();
    let start = clasp_io::load_world(&clasp_io::Disk, &file, None).unwrap();
    let mut run = start.clone();
    let mut recording = clasp_core::Recording::default();
    run.simulate_recorded(1.0, 10, &mut recording).unwrap();
    let recorded = file.with_file_name("box.clasprec");
    clasp_io::save_recording(&recording, &start, &recorded, None).unwrap();

    let mut app = box_over_a_table_app();
    assert!(edit(&mut app, |editor| editor.open_world(&recorded)));
    assert_eq!(timeline(&app).len(), 101);
    assert_same_poses(
        &poses(world(&app)),
        &poses(&start),
        "it opens at its first moment",
    );
    edit(&mut app, |editor| editor.scrub_to(0.5));
    assert!((simulation(&app).time - 0.5).abs() < 1e-9);
    assert_same_poses(
        &poses(world(&app)),
        &poses(&simulated_to(&start, 0.5)),
        "0.5 s",
    );
    assert_same_poses(
        &poses(world(&app)),
        &recording.at(0.5 + 1e-9).unwrap().poses,
        "the file's",
    );
    // The forces drawn are those the run had at that moment (the contacts found again when the
    // moment was put back carry none): the table pushes the resting box up.
    app.update();
    let arrows = app
        .world_mut()
        .query::<&clasp_app::markers::ShownMarkers>()
        .single(app.world())
        .unwrap()
        .0
        .force_arrows
        .clone();
    assert!(
        markers(&app).force_arrows.is_empty(),
        "the contacts found again carry none"
    );
    assert!(!arrows.is_empty(), "the recorded forces are drawn");
    assert!(
        arrows.iter().all(|(tail, tip)| tip.z > tail.z),
        "{arrows:?}"
    );
    // Early in the fall the box moves as the run had it move: Play would go on from there.
    edit(&mut app, |editor| editor.scrub_to(0.05));
    let falling = |w: &clasp_core::World| w.free_body(1).unwrap().velocity();
    assert_eq!(falling(world(&app)), falling(&simulated_to(&start, 0.05)));
    assert!(
        falling(world(&app)).linear.z < -100.0,
        "{:?}",
        falling(world(&app))
    );
    edit(&mut app, |editor| editor.scrub_to(0.5));
    // Played back by itself from there, to its end.
    edit(&mut app, |editor| {
        editor.toggle_replay();
        editor.advance_replay(0.2);
    });
    assert!(
        (simulation(&app).time - 0.7).abs() < 0.011,
        "{}",
        simulation(&app).time
    );
    edit(&mut app, |editor| editor.advance_replay(5.0));
    assert!(!timeline(&app).replaying);
    assert_same_poses(&poses(world(&app)), &poses(&run), "its last moment");

    // A damaged recording changes nothing and says why, naming the file.
    let broken = file.with_file_name("broken.clasprec");
    std::fs::write(&broken, "{\"clasp_recording\": 1, \"world\": ").unwrap();
    let before = poses(world(&app));
    assert!(!edit(&mut app, |editor| editor.open_world(&broken)));
    assert_same_poses(&poses(world(&app)), &before, "a bad file changes nothing");
    let last = log(&app).last().unwrap();
    assert!(
        last.error && last.text.contains("broken.clasprec"),
        "{}",
        last.text
    );
}

#[test]
fn a_run_after_bodies_came_or_went_starts_the_timeline_afresh() {
    let mut app = box_over_a_table_app();
    press_key(&mut app, &[], KeyCode::Space);
    play_until(&mut app, 0.2);
    press_key(&mut app, &[], KeyCode::Space);
    let kept = timeline(&app).len();
    assert!(kept > 3);
    // The pause kept the run's last frame.
    assert_eq!(timeline(&app).span().unwrap().1, simulation(&app).time);
    edit(&mut app, |editor| {
        editor.click_body(BodyId::Free(1), false);
        editor.delete_selection();
    });
    press_key(&mut app, &[], KeyCode::Space);
    play_until(&mut app, 0.3);
    press_key(&mut app, &[], KeyCode::Space);
    let (first, _) = timeline(&app).span().unwrap();
    assert!(
        first >= 0.2,
        "the moments of the world with the box are gone: from {first} s"
    );
    let saved = box_over_a_table().with_file_name("afresh.clasprec");
    assert!(edit(&mut app, |editor| editor.save_recording(&saved)));
    let (world, recording) = clasp_io::load_recording(&clasp_io::Disk, &saved, None).unwrap();
    assert_eq!(world.body_ids().len(), 1);
    assert!(recording.moments.iter().all(|m| m.poses.len() == 1));
}

#[test]
fn the_history_saves_as_a_recording_that_opens_again() {
    let mut app = box_over_a_table_app();
    press_key(&mut app, &[], KeyCode::Space);
    play_until(&mut app, 0.3);
    press_key(&mut app, &[], KeyCode::Space);
    let saved = box_over_a_table().with_file_name("history.clasprec");
    assert!(edit(&mut app, |editor| editor.save_recording(&saved)));
    let (_, recording) = clasp_io::load_recording(&clasp_io::Disk, &saved, None).unwrap();
    assert_eq!(recording.moments.len(), timeline(&app).len());
    for (k, moment) in recording.moments.iter().enumerate() {
        assert_eq!(moment.time, timeline(&app).moment(k).unwrap().time);
        let kept = timeline(&app).world_at(k).unwrap().unwrap();
        assert_same_poses(&moment.poses, &poses(&kept), "each moment");
    }
}
