//! Selecting bodies: a click picks a body, Shift-click adds it (or takes it out), a double-click
//! on a robot's body picks the whole robot, and a click on empty space or Esc clears.

use bevy::{ecs::system::SystemParam, picking::events::Click, prelude::*};
use clasp_core::BodyId;

use crate::{
    camera::{DRAG_THRESHOLD_PX, PointerGesture},
    convert,
    editor::{requests::Editor, resources::Document, resources::Picked, resources::Selection},
    overlay::HandleGizmos,
    scene::{BaseColor, BodyView},
    systems::ClaspSystems,
};

pub struct SelectionPlugin;

impl Plugin for SelectionPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            (
                select_on_click.in_set(ClaspSystems::Requests),
                (highlight_selected, outline_selected)
                    .chain()
                    .in_set(ClaspSystems::View),
            ),
        );
    }
}

/// The picking messages a click is made of, and the app's clock they are timed by.
#[derive(SystemParam)]
struct PickMessages<'w, 's> {
    presses: MessageReader<'w, 's, Pointer<Press>>,
    clicks: MessageReader<'w, 's, Pointer<Click>>,
    time: Res<'w, Time>,
}

/// Two clicks on one body this close together (seconds) are a double-click.
const DOUBLE_CLICK_SECONDS: f64 = 0.45;

/// Where the last press began, and the last click on a body and when.
#[derive(Default)]
struct ClickMemory {
    press_at: Option<Vec2>,
    /// The body last clicked, when, and how many clicks on it came in a row.
    last_click: Option<(BodyId, f64, u32)>,
}

/// A press that travelled further than a click is an orbit, a pan or a drag, and selects
/// nothing. Double-clicks are counted here on the app's clock, not by picking's wall clock:
/// a slow frame must not turn two clicks into a double-click, nor a double-click into two.
fn select_on_click(
    picks: PickMessages,
    mut memory: Local<ClickMemory>,
    keys: Res<ButtonInput<KeyCode>>,
    gesture: Res<PointerGesture>,
    bodies: Query<&BodyView>,
    windows: Query<(), With<Window>>,
    mut editor: Editor,
) {
    let PickMessages {
        mut presses,
        mut clicks,
        time,
    } = picks;
    for press in presses.read() {
        if press.button == PointerButton::Primary {
            memory.press_at = Some(press.pointer_location.position);
        }
    }
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    let now = time.elapsed_secs_f64();
    for click in clicks.read() {
        if click.button != PointerButton::Primary {
            continue;
        }
        let moved = memory
            .press_at
            .is_some_and(|p| p.distance(click.pointer_location.position) > DRAG_THRESHOLD_PX);
        // A press on a dragger handle belongs to the dragger, and one on a panel to the panel
        // (picking sees the window under a panel: the click would clear the selection before
        // the panel's button acted on it), even without a move.
        if moved || gesture.captured || gesture.began_on_ui {
            continue;
        }
        if let Ok(&BodyView(id)) = bodies.get(click.entity) {
            let in_a_row = match memory.last_click {
                Some((last, at, count)) if last == id && now - at <= DOUBLE_CLICK_SECONDS => {
                    count + 1
                }
                _ => 1,
            };
            memory.last_click = Some((id, now, in_a_row));
            if in_a_row >= 2 {
                editor.select_robot_of(id);
            } else {
                editor.click_body(id, shift);
            }
        } else if windows.contains(click.entity) && !shift {
            // Nothing but the window under the pointer: empty space.
            editor.clear_selection();
        }
    }
}

/// Selected bodies glow orange; the others show their own colour (see-through in the
/// transparent view). Looks only when the selection or a body's colour changed.
fn highlight_selected(
    selection: Res<Selection>,
    recoloured: Query<(), Changed<BaseColor>>,
    bodies: Query<(&BodyView, &BaseColor, &MeshMaterial3d<StandardMaterial>)>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    if !selection.is_changed() && recoloured.is_empty() {
        return;
    }
    for (view, base, handle) in &bodies {
        let selected = selection.contains(&view.0);
        let (color, emissive) = if selected {
            (base.0.mix(&SELECTED, 0.5), LinearRgba::rgb(0.35, 0.15, 0.0))
        } else {
            (base.0, LinearRgba::BLACK)
        };
        let alpha_mode = if color.alpha() < 1.0 {
            AlphaMode::Blend
        } else {
            AlphaMode::Opaque
        };
        // Only a real change touches the asset: a touched material is sent to the GPU again.
        let unchanged = materials.get(&handle.0).is_none_or(|m| {
            m.base_color == color && m.emissive == emissive && m.alpha_mode == alpha_mode
        });
        if unchanged {
            continue;
        }
        if let Some(mut material) = materials.get_mut(&handle.0) {
            material.base_color = color;
            material.emissive = emissive;
            material.alpha_mode = alpha_mode;
        }
    }
}

pub const SELECTED: Color = Color::srgb(1.0, 0.55, 0.1);

/// A box round each thing picked, drawn over everything, like GraspIt's selection overlay:
/// round each body picked alone, and round a whole robot once.
fn outline_selected(
    document: Res<Document>,
    selection: Res<Selection>,
    mut gizmos: Gizmos<HandleGizmos>,
) {
    let world = &document.world;
    for item in selection.items(world) {
        match item {
            Picked::Body(id) => {
                let Some(body) = world.body(id) else {
                    continue;
                };
                let (lo, hi) = body.mesh().bounding_box();
                gizmos.cube(
                    convert::transform(&body.pose()) * box_between(&lo, &hi),
                    SELECTED,
                );
            }
            Picked::Robot(_) => {
                if let Some((lo, hi)) = world.bounding_box_of(&item.bodies(world)) {
                    gizmos.cube(box_between(&lo, &hi), SELECTED);
                }
            }
        }
    }
}

/// The transform that makes Bevy's unit cube the box from `lo` to `hi`.
fn box_between(lo: &nalgebra::Point3<f64>, hi: &nalgebra::Point3<f64>) -> Transform {
    let (lo, hi) = (convert::point(lo), convert::point(hi));
    Transform::from_translation((lo + hi) / 2.0).with_scale((hi - lo).max(Vec3::splat(0.5)))
}
