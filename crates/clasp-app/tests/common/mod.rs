//! What the app tests share: a headless app on the default scene (no window, no GPU) and
//! pointer input as a window would deliver it.

#![allow(dead_code)]

use bevy::input::{
    ButtonState,
    keyboard::{Key, KeyboardInput, NativeKey},
    mouse::{MouseButtonInput, MouseMotion},
};
use bevy::{
    camera::NormalizedRenderTarget,
    picking::{
        mesh_picking::{MeshPickingSettings, ray_cast::RayCastVisibility},
        pointer::{Location, PointerAction, PointerButton, PointerId, PointerInput},
    },
    prelude::*,
    render::{RenderPlugin, settings::WgpuSettings},
    time::TimeUpdateStrategy,
    window::{CursorMoved, PrimaryWindow, WindowEvent, WindowRef},
    winit::WinitPlugin,
};
pub use clasp_app::{
    Document, Editor, Log,
    editor::{History, LogEntry, Selection, ViewSettings},
};
use clasp_app::{RunOptions, camera::OrbitCamera, convert, open_scene};
use clasp_core::BodyId;
use std::time::Duration;

pub fn headless_app() -> App {
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
    let scene = open_scene(&[]);
    let log = scene.resource::<Log>();
    assert!(
        log.iter().all(|e| !e.error),
        "the default scene opens cleanly: {:?}",
        log.entries
    );
    clasp_app::install(&mut app, scene, RunOptions::default());
    // Without a renderer nothing computes visibility, so ray casts must not wait for it.
    app.insert_resource(MeshPickingSettings {
        require_markers: true,
        ray_cast_visibility: RayCastVisibility::Any,
    });
    // Each frame advances the clock by the same 16 ms: egui counts a press and release as a
    // click only within its click time, and a debug build on a loaded machine can take longer
    // than that over one frame.
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        16,
    )));
    // A test never waits on a system file dialog.
    app.world_mut()
        .resource_mut::<clasp_app::dialog::FileDialogs>()
        .use_browser = true;
    app.finish();
    app.cleanup();
    for _ in 0..5 {
        app.update();
    }
    app
}

pub fn send(app: &mut App, position: Vec2, action: PointerAction) {
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

pub fn click(app: &mut App, position: Vec2) {
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
pub fn body_center(app: &App, id: BodyId) -> Vec3 {
    let body = world(app).body(id).unwrap();
    let (lo, hi) = body.mesh().bounding_box();
    convert::point(&(body.pose() * nalgebra::center(&lo, &hi)))
}

/// Where a world point appears in the window, in logical pixels, and the 3D view's rectangle.
pub fn screen_position(app: &mut App, point: Vec3) -> (Vec2, Rect) {
    let world = app.world_mut();
    let mut cameras = world.query_filtered::<(&Camera, &GlobalTransform), With<OrbitCamera>>();
    let (camera, transform) = cameras.single(world).unwrap();
    let viewport = camera.logical_viewport_rect().unwrap();
    // Bevy's "viewport" coordinates are the window's logical pixels, viewport offset included.
    let in_window = camera.world_to_viewport(transform, point).unwrap();
    (in_window, viewport)
}

pub fn primary_window(app: &mut App) -> Entity {
    app.world_mut()
        .query_filtered::<Entity, With<PrimaryWindow>>()
        .single(app.world())
        .unwrap()
}

/// Raw mouse input, as the OS window would deliver it: the camera reads these, not picking.
pub fn mouse_button(app: &mut App, button: MouseButton, state: ButtonState) {
    let window = primary_window(app);
    app.world_mut().write_message(MouseButtonInput {
        button,
        state,
        window,
    });
    let at = app
        .world()
        .get::<Window>(window)
        .and_then(Window::cursor_position);
    let pointer_button = match button {
        MouseButton::Left => Some(PointerButton::Primary),
        MouseButton::Middle => Some(PointerButton::Middle),
        MouseButton::Right => Some(PointerButton::Secondary),
        _ => None,
    };
    match (at, pointer_button) {
        (Some(at), Some(b)) => {
            let action = match state {
                ButtonState::Pressed => PointerAction::Press(b),
                ButtonState::Released => PointerAction::Release(b),
            };
            send(app, at, action);
        }
        _ => {
            app.update();
        }
    }
}

pub fn mouse_move(app: &mut App, to: Vec2, delta: Vec2) {
    let window = primary_window(app);
    app.world_mut()
        .get_mut::<Window>(window)
        .unwrap()
        .set_cursor_position(Some(to));
    app.world_mut().write_message(MouseMotion { delta });
    app.update();
}

pub fn selection(app: &App) -> Vec<BodyId> {
    app.world().resource::<Selection>().0.clone()
}

pub fn doc(app: &App) -> &Document {
    app.world().resource::<Document>()
}

pub fn world(app: &App) -> &clasp_core::World {
    &doc(app).world
}

pub fn log(app: &App) -> &[LogEntry] {
    app.world().resource::<Log>()
}

pub fn view_settings(app: &App) -> &ViewSettings {
    app.world().resource::<ViewSettings>()
}

/// The contact markers the app's world and view settings call for.
pub fn markers(app: &App) -> clasp_app::markers::MarkerGeometry {
    clasp_app::markers::marker_geometry(world(app), view_settings(app).cone_height)
}

pub fn history(app: &App) -> &History {
    app.world().resource::<History>()
}

/// Runs frames until every file being opened or imported has loaded and been applied.
pub fn finish_loads(app: &mut App) {
    let started = std::time::Instant::now();
    while !app.world().resource::<clasp_app::dialog::Loads>().is_idle() {
        assert!(
            started.elapsed().as_secs() < 60,
            "a load is still running after a minute"
        );
        app.update();
    }
}

/// Makes requests of the app's editor, as a panel or a shortcut would.
pub fn edit<T>(app: &mut App, request: impl FnOnce(&mut Editor) -> T) -> T {
    clasp_app::edit(app.world_mut(), request)
}

/// Moves the real pointer (cursor and picking) to `to`, in logical window pixels.
pub fn pointer_to(app: &mut App, to: Vec2) {
    let window = primary_window(app);
    let from = app
        .world()
        .get::<Window>(window)
        .and_then(Window::cursor_position)
        .unwrap_or(to);
    app.world_mut()
        .get_mut::<Window>(window)
        .unwrap()
        .set_cursor_position(Some(to));
    app.world_mut().write_message(CursorMoved {
        window,
        position: to,
        delta: Some(to - from),
    });
    app.world_mut()
        .write_message(MouseMotion { delta: to - from });
    // Without winit nothing turns window events into picking input: send that too.
    send(app, to, PointerAction::Move { delta: to - from });
}

/// Presses the left button at `from` and moves to `to` in `steps` steps, holding it.
pub fn press_and_move(app: &mut App, from: Vec2, to: Vec2, steps: usize) {
    pointer_to(app, from);
    pointer_to(app, from);
    mouse_button(app, MouseButton::Left, ButtonState::Pressed);
    for k in 1..=steps {
        pointer_to(app, from.lerp(to, k as f32 / steps as f32));
    }
}

/// Presses the left button at `from`, moves to `to` in `steps` steps, and releases it.
pub fn left_drag(app: &mut App, from: Vec2, to: Vec2, steps: usize) {
    press_and_move(app, from, to, steps);
    mouse_button(app, MouseButton::Left, ButtonState::Released);
}

/// Where a world point (nalgebra, mm) appears in the window.
pub fn on_screen(app: &mut App, p: &nalgebra::Point3<f64>) -> Vec2 {
    screen_position(app, convert::point(p)).0
}

/// A key going down or up, as the OS window would deliver it.
pub fn key(app: &mut App, key_code: KeyCode, state: ButtonState) {
    let window = primary_window(app);
    app.world_mut().write_message(KeyboardInput {
        key_code,
        logical_key: Key::Unidentified(NativeKey::Unidentified),
        state,
        text: None,
        repeat: false,
        window,
    });
    app.update();
}

/// A key pressed and released, with `modifiers` held round it.
pub fn press_key(app: &mut App, modifiers: &[KeyCode], key_code: KeyCode) {
    for &m in modifiers {
        key(app, m, ButtonState::Pressed);
    }
    key(app, key_code, ButtonState::Pressed);
    key(app, key_code, ButtonState::Released);
    for &m in modifiers {
        key(app, m, ButtonState::Released);
    }
}

/// The view camera, for the dragger's own hit tests.
pub fn view(app: &mut App) -> (Camera, GlobalTransform) {
    let world = app.world_mut();
    let mut cameras = world.query_filtered::<(&Camera, &GlobalTransform), With<OrbitCamera>>();
    let (camera, transform) = cameras.single(world).unwrap();
    (camera.clone(), *transform)
}

/// The body under the pointer at `p`, as picking sees it.
pub fn hovered_body(app: &mut App, p: Vec2) -> Option<BodyId> {
    pointer_to(app, p);
    pointer_to(app, p);
    let hover = app.world().resource::<bevy::picking::hover::HoverMap>();
    let entities: Vec<Entity> = hover.values().flat_map(|h| h.keys().copied()).collect();
    entities.into_iter().find_map(|e| {
        app.world()
            .get::<clasp_app::scene::BodyView>(e)
            .map(|v| v.0)
    })
}

/// A point of the window where picking sees body `id` in front: one of its vertices, drawn a
/// little toward its centre, that nothing hides.
pub fn visible_point(app: &mut App, id: BodyId) -> Option<Vec2> {
    let body = world(app).body(id).unwrap().clone();
    let (lo, hi) = body.mesh().bounding_box();
    let centre = nalgebra::center(&lo, &hi);
    let step = (body.mesh().vertices().len() / 60).max(1);
    for v in body.mesh().vertices().iter().step_by(step) {
        let inside = body.pose() * (centre + (v - centre) * 0.8);
        let p = on_screen(app, &inside);
        if hovered_body(app, p) == Some(id) {
            return Some(p);
        }
    }
    None
}

/// Delivers window input as bevy_winit does, then runs a frame: each event as its own message
/// (Bevy's input and the camera read those) and as a `WindowEvent` (egui and picking read
/// those). `common`'s pointer helpers send picking input directly and no `WindowEvent`, so egui
/// would never see the pointer or the keys.
pub fn deliver(app: &mut App, events: Vec<WindowEvent>) {
    for event in events {
        match event.clone() {
            WindowEvent::CursorMoved(e) => {
                app.world_mut().write_message(e);
            }
            WindowEvent::MouseMotion(e) => {
                app.world_mut().write_message(e);
            }
            WindowEvent::MouseButtonInput(e) => {
                app.world_mut().write_message(e);
            }
            WindowEvent::MouseWheel(e) => {
                app.world_mut().write_message(e);
            }
            WindowEvent::KeyboardInput(e) => {
                app.world_mut().write_message(e);
            }
            other => panic!("the monkey does not send {other:?}"),
        }
        app.world_mut().write_message(event);
    }
    app.update();
}

/// The pointer moves to `to` (logical window pixels).
pub fn pointer_move(app: &mut App, to: Vec2) {
    let window = primary_window(app);
    let mut w = app.world_mut().get_mut::<Window>(window).unwrap();
    let from = w.cursor_position().unwrap_or(to);
    w.set_cursor_position(Some(to));
    deliver(
        app,
        vec![
            WindowEvent::CursorMoved(CursorMoved {
                window,
                position: to,
                delta: Some(to - from),
            }),
            WindowEvent::MouseMotion(MouseMotion { delta: to - from }),
        ],
    );
}

pub fn button_event(app: &mut App, button: MouseButton, state: ButtonState) {
    let window = primary_window(app);
    deliver(
        app,
        vec![WindowEvent::MouseButtonInput(MouseButtonInput {
            button,
            state,
            window,
        })],
    );
}

/// The left button pressed and let go at a window position, as a person clicks a widget.
pub fn click_widget(app: &mut App, at: Vec2) {
    pointer_move(app, at);
    button_event(app, MouseButton::Left, ButtonState::Pressed);
    button_event(app, MouseButton::Left, ButtonState::Released);
}

/// Text typed on the keyboard, a key per character, into whatever has the keyboard.
pub fn type_text(app: &mut App, text: &str) {
    let window = primary_window(app);
    for c in text.chars() {
        let s = c.to_string();
        for state in [ButtonState::Pressed, ButtonState::Released] {
            let input = KeyboardInput {
                key_code: KeyCode::KeyA,
                logical_key: Key::Character(s.as_str().into()),
                state,
                text: (state == ButtonState::Pressed).then(|| s.as_str().into()),
                repeat: false,
                window,
            };
            deliver(app, vec![WindowEvent::KeyboardInput(input)]);
        }
    }
}

/// A named key (Enter, say) pressed and let go, as a window delivers it.
pub fn press_named(app: &mut App, key_code: KeyCode, logical_key: Key) {
    let window = primary_window(app);
    for state in [ButtonState::Pressed, ButtonState::Released] {
        let input = KeyboardInput {
            key_code,
            logical_key: logical_key.clone(),
            state,
            text: None,
            repeat: false,
            window,
        };
        deliver(app, vec![WindowEvent::KeyboardInput(input)]);
    }
}

/// Answers the question the app asks before unsaved edits would be lost, as its buttons do;
/// true when the app would then close.
pub fn answer_unsaved(app: &mut App, answer: clasp_app::dialog::unsaved::Answer) -> bool {
    use bevy::ecs::system::RunSystemOnce;
    use clasp_app::dialog::{FileDialogs, unsaved::UnsavedPrompt};
    app.world_mut()
        .run_system_once(
            move |mut prompt: ResMut<UnsavedPrompt>,
                  mut dialogs: ResMut<FileDialogs>,
                  mut editor: Editor| {
                prompt.answer(answer, &mut editor, &mut dialogs)
            },
        )
        .unwrap()
}

/// What the app is asking about unsaved edits, if anything.
pub fn unsaved_question(app: &App) -> Option<clasp_app::dialog::unsaved::Leaving> {
    app.world()
        .resource::<clasp_app::dialog::unsaved::UnsavedPrompt>()
        .pending
        .clone()
}

/// The names a URDF file gives its moving (not fixed) joints, read from its text, sorted: what a
/// hand's DOF labels must be, found without the loader that makes them.
pub fn urdf_moving_joints(urdf: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(urdf).unwrap();
    let mut joints: Vec<String> = text
        .lines()
        .filter(|l| l.contains("<joint ") && !l.contains("\"fixed\""))
        .filter_map(|l| {
            l.split("name=\"")
                .nth(1)?
                .split('"')
                .next()
                .map(String::from)
        })
        .collect();
    joints.sort();
    joints
}
