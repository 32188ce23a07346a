//! App logic without GPU or window: clicks on the default scene select and clear, and mouse
//! gestures move the camera.

use bevy::input::{
    ButtonState,
    mouse::{MouseButtonInput, MouseMotion, MouseScrollUnit, MouseWheel},
    touch::TouchPhase,
};
use bevy::{
    camera::NormalizedRenderTarget,
    picking::{
        mesh_picking::{MeshPickingSettings, ray_cast::RayCastVisibility},
        pointer::{Location, PointerAction, PointerButton, PointerId, PointerInput},
    },
    prelude::*,
    render::{RenderPlugin, settings::WgpuSettings},
    window::{PrimaryWindow, WindowRef},
    winit::WinitPlugin,
};
use clasp_app::{
    RunOptions, SceneWorld, camera::OrbitCamera, convert, open_scene, selection::Selection,
};
use clasp_core::BodyId;

fn headless_app() -> App {
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(RenderPlugin {
                render_creation: WgpuSettings {
                    backends: None,
                    ..default()
                }
                .into(),
                ..default()
            })
            .disable::<WinitPlugin>(),
    );
    let (scene, notices) = open_scene(&[]);
    assert!(notices.is_empty(), "{notices:?}");
    clasp_app::install(&mut app, scene, RunOptions::default(), notices);
    // Without a renderer nothing computes visibility, so ray casts must not wait for it.
    app.insert_resource(MeshPickingSettings {
        require_markers: true,
        ray_cast_visibility: RayCastVisibility::Any,
    });
    app.finish();
    app.cleanup();
    for _ in 0..5 {
        app.update();
    }
    app
}

fn send(app: &mut App, position: Vec2, action: PointerAction) {
    let window = app
        .world_mut()
        .query_filtered::<Entity, With<PrimaryWindow>>()
        .single(app.world())
        .unwrap();
    let target =
        NormalizedRenderTarget::Window(WindowRef::Primary.normalize(Some(window)).unwrap());
    app.world_mut().write_message(PointerInput::new(
        PointerId::Mouse,
        Location { target, position },
        action,
    ));
    app.update();
}

fn click(app: &mut App, position: Vec2) {
    send(app, position, PointerAction::Move { delta: Vec2::ZERO });
    send(app, position, PointerAction::Move { delta: Vec2::ZERO });
    send(app, position, PointerAction::Press(PointerButton::Primary));
    send(
        app,
        position,
        PointerAction::Release(PointerButton::Primary),
    );
}

/// The centre of a body's bounding box, in world coordinates.
fn body_center(app: &App, id: BodyId) -> Vec3 {
    let body = app.world().resource::<SceneWorld>().world.body(id).unwrap();
    let (lo, hi) = body.mesh().bounding_box();
    convert::point(&(body.pose * nalgebra::center(&lo, &hi)))
}

/// Where a world point appears in the window, in logical pixels, and the 3D view's rectangle.
fn screen_position(app: &mut App, point: Vec3) -> (Vec2, Rect) {
    let world = app.world_mut();
    let mut cameras = world.query_filtered::<(&Camera, &GlobalTransform), With<OrbitCamera>>();
    let (camera, transform) = cameras.single(world).unwrap();
    let viewport = camera.logical_viewport_rect().unwrap();
    // Bevy's "viewport" coordinates are the window's logical pixels, viewport offset included.
    let in_window = camera.world_to_viewport(transform, point).unwrap();
    (in_window, viewport)
}

/// A point low on the mug's outer wall, on the side that faces the default camera: the fingers
/// pass in front of the mug's middle.
const ON_MUG_WALL: Vec3 = Vec3::new(0.0, -39.5, 25.0);

fn selection(app: &App) -> Vec<BodyId> {
    app.world().resource::<Selection>().0.clone()
}

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
        robot: 0,
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

fn primary_window(app: &mut App) -> Entity {
    app.world_mut()
        .query_filtered::<Entity, With<PrimaryWindow>>()
        .single(app.world())
        .unwrap()
}

/// Raw mouse input, as the OS window would deliver it: the camera reads these, not picking.
fn mouse_button(app: &mut App, button: MouseButton, state: ButtonState) {
    let window = primary_window(app);
    app.world_mut().write_message(MouseButtonInput {
        button,
        state,
        window,
    });
    app.update();
}

fn mouse_move(app: &mut App, to: Vec2, delta: Vec2) {
    let window = primary_window(app);
    app.world_mut()
        .get_mut::<Window>(window)
        .unwrap()
        .set_cursor_position(Some(to));
    app.world_mut().write_message(MouseMotion { delta });
    app.update();
}

fn orbit(app: &mut App) -> OrbitCamera {
    let world = app.world_mut();
    *world.query::<&OrbitCamera>().single(world).unwrap()
}

#[test]
fn left_drag_orbits_middle_drag_pans_and_the_wheel_zooms() {
    let mut app = headless_app();
    let start = Vec2::new(1000.0, 600.0);
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

    let window = primary_window(&mut app);
    app.world_mut().write_message(MouseWheel {
        unit: MouseScrollUnit::Line,
        x: 0.0,
        y: 2.0,
        window,
        phase: TouchPhase::Moved,
    });
    app.update();
    assert!(
        orbit(&mut app).distance < panned.distance,
        "the wheel zooms in"
    );

    // The camera moved, so nothing was selected by the drags.
    assert_eq!(selection(&app), Vec::<BodyId>::new());
}
