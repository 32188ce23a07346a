//! Selecting bodies: a click on a body selects it, a click on empty space or Esc clears.

use bevy::{picking::events::Click, prelude::*};
use clasp_core::BodyId;

use crate::{
    camera::DRAG_THRESHOLD_PX,
    scene::{BaseColor, BodyView, SceneWorld},
};

/// The selected bodies, in the order they were picked.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct Selection(pub Vec<BodyId>);

impl Selection {
    pub fn contains(&self, id: BodyId) -> bool {
        self.0.contains(&id)
    }

    pub fn select_only(&mut self, id: BodyId) {
        self.0 = vec![id];
    }
}

pub struct SelectionPlugin;

impl Plugin for SelectionPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Selection>().add_systems(
            Update,
            (
                select_on_click,
                clear_on_escape.run_if(not(bevy_egui::input::egui_wants_any_keyboard_input)),
                highlight_selected.run_if(resource_changed::<Selection>),
                outline_selected,
            )
                .chain(),
        );
    }
}

/// A press that travelled further than a click is an orbit or pan, and selects nothing.
fn select_on_click(
    mut presses: MessageReader<Pointer<Press>>,
    mut clicks: MessageReader<Pointer<Click>>,
    mut press_at: Local<Option<Vec2>>,
    bodies: Query<&BodyView>,
    windows: Query<(), With<Window>>,
    mut selection: ResMut<Selection>,
) {
    for press in presses.read() {
        if press.button == PointerButton::Primary {
            *press_at = Some(press.pointer_location.position);
        }
    }
    for click in clicks.read() {
        if click.button != PointerButton::Primary {
            continue;
        }
        let moved = press_at
            .is_some_and(|p| p.distance(click.pointer_location.position) > DRAG_THRESHOLD_PX);
        if moved {
            continue;
        }
        if let Ok(BodyView(id)) = bodies.get(click.entity) {
            selection.select_only(*id);
        } else if windows.contains(click.entity) {
            // Nothing but the window under the pointer: empty space.
            selection.0.clear();
        }
    }
}

fn clear_on_escape(keys: Res<ButtonInput<KeyCode>>, mut selection: ResMut<Selection>) {
    if keys.just_pressed(KeyCode::Escape) && !selection.0.is_empty() {
        selection.0.clear();
    }
}

/// Selected bodies glow orange; the others show their own colour.
fn highlight_selected(
    selection: Res<Selection>,
    bodies: Query<(&BodyView, &BaseColor, &MeshMaterial3d<StandardMaterial>)>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    for (view, base, material) in &bodies {
        let Some(mut material) = materials.get_mut(&material.0) else {
            continue;
        };
        let selected = selection.contains(view.0);
        material.base_color = if selected {
            base.0.mix(&SELECTED, 0.5)
        } else {
            base.0
        };
        material.emissive = if selected {
            LinearRgba::rgb(0.35, 0.15, 0.0)
        } else {
            LinearRgba::BLACK
        };
    }
}

const SELECTED: Color = Color::srgb(1.0, 0.55, 0.1);

/// A box round each selected body, drawn over everything, like GraspIt's selection overlay.
fn outline_selected(selection: Res<Selection>, scene: Res<SceneWorld>, mut gizmos: Gizmos) {
    for &id in &selection.0 {
        let Some(body) = scene.world.body(id) else {
            continue;
        };
        let (lo, hi) = body.mesh().bounding_box();
        let (lo, hi) = (crate::convert::point(&lo), crate::convert::point(&hi));
        let pose = crate::convert::transform(&body.pose);
        let local = Transform::from_translation((lo + hi) / 2.0)
            .with_scale((hi - lo).max(Vec3::splat(0.5)));
        gizmos.cube(pose * local, SELECTED);
    }
}
