//! What must stay in sight whatever stands in front of it. A dragger's handles sit at the centre
//! of the body they move, inside it; a contact's cone and force arrow often sit inside a finger.
//! Drawn with the scene's depth, they would hide (Blender and Unity draw their gizmos over the
//! bodies for the same reason). Two gizmo groups draw over everything:
//!
//! - [`HandleGizmos`]: the draggers, the selection's boxes and the hand's arrows, full colour;
//! - [`XrayGizmos`]: a dimmed copy of each contact marker, seen through the bodies in front of
//!   it, under the marker itself where nothing hides it.

use bevy::prelude::*;

/// Drawn over every body, full colour, in thick lines: what a user grabs or must see.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct HandleGizmos;

/// Drawn over every body in thin lines, dimmed: the markers a body would hide.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct XrayGizmos;

/// How much of its colour a marker keeps where it shows through a body.
pub const XRAY_ALPHA: f32 = 0.35;

/// A colour as the x-ray shows it.
pub fn dimmed(color: Color) -> Color {
    color.with_alpha(color.alpha() * XRAY_ALPHA)
}

pub struct OverlayPlugin;

impl Plugin for OverlayPlugin {
    fn build(&self, app: &mut App) {
        // A depth bias of -1 puts a line in front of everything the camera sees.
        app.insert_gizmo_config(
            HandleGizmos,
            GizmoConfig {
                depth_bias: -1.0,
                line: GizmoLineConfig {
                    width: 3.0,
                    ..default()
                },
                ..default()
            },
        )
        .insert_gizmo_config(
            XrayGizmos,
            GizmoConfig {
                depth_bias: -1.0,
                line: GizmoLineConfig {
                    width: 1.5,
                    ..default()
                },
                ..default()
            },
        );
    }
}
