//! An orbit camera around a focus point, Z up: left drag orbits, middle drag or Shift+left drag
//! pans, the wheel zooms.

use std::f32::consts::FRAC_PI_2;

use bevy::{
    input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll, MouseScrollUnit},
    prelude::*,
};
use bevy_egui::input::EguiWantsInput;

use crate::systems::ClaspSystems;

#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct OrbitCamera {
    pub focus: Vec3,
    pub distance: f32,
    /// Angle about +z from +x, radians.
    pub yaw: f32,
    /// Angle above the ground plane, radians.
    pub pitch: f32,
}

/// Pixels the pointer must travel with a button held before it counts as a drag, not a click.
pub const DRAG_THRESHOLD_PX: f32 = 4.0;
const ORBIT_RADIANS_PER_PX: f32 = 0.008;
const MIN_DISTANCE: f32 = 5.0;
/// Half of Bevy's default vertical field of view (45 degrees), which the camera keeps.
const HALF_FOV: f32 = std::f32::consts::FRAC_PI_8;
const MAX_DISTANCE: f32 = 50_000.0;

impl OrbitCamera {
    /// A view from the front left and above that shows the whole box.
    pub fn framing(bounds: Option<(nalgebra::Point3<f64>, nalgebra::Point3<f64>)>) -> Self {
        let (lo, hi) = bounds.map_or((Vec3::splat(-100.0), Vec3::splat(100.0)), |(lo, hi)| {
            (crate::convert::point(&lo), crate::convert::point(&hi))
        });
        let radius = ((hi - lo).length() / 2.0).max(10.0);
        // Far enough that the bounding sphere fits the view, with a margin.
        let distance = radius / HALF_FOV.sin() * 1.05;
        OrbitCamera {
            focus: (lo + hi) / 2.0,
            distance,
            yaw: -100f32.to_radians(),
            pitch: 25f32.to_radians(),
        }
    }

    /// The view a world was saved with. GraspIt's camera (Inventor's) looks along its −z from
    /// its position and orbits the point its focal distance ahead; the orbit camera keeps its
    /// up along +z, so a roll about the viewing direction is not kept.
    pub fn from_saved(saved: &clasp_core::Camera) -> Self {
        let forward = saved.orientation * -nalgebra::Vector3::z();
        let distance = saved.focal_distance.max(f64::from(MIN_DISTANCE));
        let focus = saved.position + forward * distance;
        let back = -forward;
        OrbitCamera {
            focus: crate::convert::point(&focus),
            distance: (distance as f32).min(MAX_DISTANCE),
            yaw: back.y.atan2(back.x) as f32,
            pitch: (back.z.clamp(-1.0, 1.0).asin() as f32)
                .clamp(-FRAC_PI_2 + 0.01, FRAC_PI_2 - 0.01),
        }
    }

    /// The view in GraspIt's terms, for a saved world.
    pub fn saved(&self) -> clasp_core::Camera {
        let transform = self.transform();
        clasp_core::Camera {
            position: crate::convert::core_point(transform.translation),
            orientation: crate::convert::core_rotation(transform.rotation),
            focal_distance: f64::from(self.distance),
        }
    }

    /// Where a framing puts the camera; a box keeps this camera's viewing direction.
    pub fn framed(&self, framing: &crate::editor::resources::Framing) -> Self {
        match framing {
            crate::editor::resources::Framing::Saved(saved) => Self::from_saved(saved),
            &crate::editor::resources::Framing::Bounds(lo, hi) => {
                let framed = Self::framing(Some((lo, hi)));
                OrbitCamera {
                    focus: framed.focus,
                    distance: framed.distance,
                    ..*self
                }
            }
        }
    }

    pub fn transform(&self) -> Transform {
        let direction = Vec3::new(
            self.pitch.cos() * self.yaw.cos(),
            self.pitch.cos() * self.yaw.sin(),
            self.pitch.sin(),
        );
        Transform::from_translation(self.focus + direction * self.distance)
            .looking_at(self.focus, Vec3::Z)
    }

    pub fn orbit(&mut self, delta_px: Vec2) {
        self.yaw -= delta_px.x * ORBIT_RADIANS_PER_PX;
        // Stop just short of the poles, where "up" would flip.
        self.pitch = (self.pitch + delta_px.y * ORBIT_RADIANS_PER_PX)
            .clamp(-FRAC_PI_2 + 0.01, FRAC_PI_2 - 0.01);
    }

    /// Moves the focus so that the scene follows the pointer; `view_height_px` scales pixels to mm.
    pub fn pan(&mut self, delta_px: Vec2, view_height_px: f32) {
        let transform = self.transform();
        let mm_per_px = 2.0 * self.distance * HALF_FOV.tan() / view_height_px.max(1.0);
        self.focus += (-transform.right() * delta_px.x + transform.up() * delta_px.y) * mm_per_px;
    }

    /// Positive steps zoom in.
    pub fn zoom(&mut self, steps: f32) {
        self.distance = (self.distance * (-0.12 * steps).exp()).clamp(MIN_DISTANCE, MAX_DISTANCE);
    }
}

/// Where the current press began and whether it has turned into a drag.
#[derive(Resource, Default, Debug)]
pub struct PointerGesture {
    pub press_position: Option<Vec2>,
    pub dragging: bool,
    /// A press on a panel belongs to the panel, even when the pointer then leaves it.
    pub began_on_ui: bool,
    /// A press on a dragger handle or the selected body drags that, not the camera.
    pub captured: bool,
}

pub struct OrbitCameraPlugin;

impl Plugin for OrbitCameraPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PointerGesture>().add_systems(
            Update,
            (
                track_gesture.in_set(ClaspSystems::Gestures),
                camera_gestures
                    .run_if(not(bevy_egui::input::egui_wants_any_pointer_input))
                    .in_set(ClaspSystems::Requests),
                (frame_requested, apply_orbit, remember_view)
                    .chain()
                    .in_set(ClaspSystems::View),
            ),
        );
    }
}

/// Whether the cursor is off the 3D view: over a panel (egui lays the panels out in a Ui of
/// its own, so it does not count them as areas the pointer is over) or an egui window.
fn over_ui(cursor: Option<Vec2>, egui: &EguiWantsInput, camera: Option<&Camera>) -> bool {
    let off_view = match (cursor, camera.and_then(Camera::logical_viewport_rect)) {
        (Some(cursor), Some(view)) => !view.contains(cursor),
        _ => false,
    };
    egui.wants_any_pointer_input() || off_view
}

fn track_gesture(
    buttons: Res<ButtonInput<MouseButton>>,
    windows: Query<&Window>,
    cameras: Query<&Camera, With<OrbitCamera>>,
    egui: Res<EguiWantsInput>,
    mut gesture: ResMut<PointerGesture>,
) {
    let cursor = windows.iter().find_map(Window::cursor_position);
    let any_pressed = buttons.any_pressed([MouseButton::Left, MouseButton::Middle]);
    if buttons.any_just_pressed([MouseButton::Left, MouseButton::Middle]) {
        *gesture = PointerGesture {
            press_position: cursor,
            dragging: false,
            began_on_ui: over_ui(cursor, &egui, cameras.single().ok()),
            captured: false,
        };
    } else if any_pressed
        && let (Some(start), Some(now)) = (gesture.press_position, cursor)
        && start.distance(now) > DRAG_THRESHOLD_PX
    {
        gesture.dragging = true;
    } else if !any_pressed {
        gesture.press_position = None;
    }
}

fn camera_gestures(
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    gesture: Res<PointerGesture>,
    pointer: (Query<&Window>, Res<EguiWantsInput>),
    mut cameras: Query<(&mut OrbitCamera, &Camera)>,
) {
    let Ok((mut orbit, camera)) = cameras.single_mut() else {
        return;
    };
    let (windows, egui) = pointer;
    let cursor = windows.iter().find_map(Window::cursor_position);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    let view_height = camera.logical_viewport_size().map_or(720.0, |s| s.y);
    if gesture.dragging && !gesture.began_on_ui && !gesture.captured && motion.delta != Vec2::ZERO {
        if buttons.pressed(MouseButton::Middle) || (buttons.pressed(MouseButton::Left) && shift) {
            orbit.pan(motion.delta, view_height);
        } else if buttons.pressed(MouseButton::Left) {
            orbit.orbit(motion.delta);
        }
    }
    // The wheel over a panel scrolls the panel, not the view.
    if scroll.delta.y != 0.0 && !over_ui(cursor, &egui, Some(camera)) {
        let steps = match scroll.unit {
            MouseScrollUnit::Line => scroll.delta.y,
            MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
        };
        orbit.zoom(steps);
    }
}

/// Takes the view the editor asks for: a box framed from the same direction (an import, View
/// All), or a world's saved camera.
fn frame_requested(
    mut request: ResMut<crate::editor::resources::FrameRequest>,
    mut cameras: Query<&mut OrbitCamera>,
) {
    // Reading first leaves the request unchanged on the frames that ask for nothing.
    let Some(framing) = request.0 else {
        return;
    };
    request.0 = None;
    for mut orbit in &mut cameras {
        *orbit = orbit.framed(&framing);
    }
}

/// Keeps the view, in GraspIt's terms, where Save World finds it.
fn remember_view(
    cameras: Query<&OrbitCamera, Changed<OrbitCamera>>,
    mut shown: ResMut<crate::editor::resources::ShownCamera>,
) {
    if let Ok(orbit) = cameras.single() {
        shown.0 = Some(orbit.saved());
    }
}

fn apply_orbit(mut cameras: Query<(&OrbitCamera, &mut Transform), Changed<OrbitCamera>>) {
    for (orbit, mut transform) in &mut cameras {
        *transform = orbit.transform();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framing_looks_at_the_centre_from_far_enough() {
        let lo = nalgebra::Point3::new(-100.0, -50.0, 0.0);
        let hi = nalgebra::Point3::new(100.0, 50.0, 100.0);
        let orbit = OrbitCamera::framing(Some((lo, hi)));
        assert_eq!(orbit.focus, Vec3::new(0.0, 0.0, 50.0));
        let radius = Vec3::new(200.0, 100.0, 100.0).length() / 2.0;
        assert!(orbit.distance > radius * 2.0, "{}", orbit.distance);
        let t = orbit.transform();
        assert!((t.forward().dot((orbit.focus - t.translation).normalize()) - 1.0).abs() < 1e-5);
        assert!(
            t.translation.z > orbit.focus.z,
            "the default view is from above"
        );
    }

    #[test]
    fn a_saved_view_comes_back_as_it_was_saved() {
        let orbit = OrbitCamera {
            focus: Vec3::new(10.0, -20.0, 30.0),
            distance: 400.0,
            yaw: 0.7,
            pitch: 0.3,
        };
        let saved = orbit.saved();
        assert!((saved.focal_distance - 400.0).abs() < 1e-9);
        let back = OrbitCamera::from_saved(&saved);
        assert!(back.focus.distance(orbit.focus) < 1e-2, "{back:?}");
        assert!((back.distance - orbit.distance).abs() < 1e-3);
        assert!((back.yaw - orbit.yaw).abs() < 1e-5 && (back.pitch - orbit.pitch).abs() < 1e-5);
        // GraspIt's camera looks along its −z: one 500 mm up the y axis, turned to look back
        // at the origin, orbits the origin.
        let looking_down_y = nalgebra::UnitQuaternion::from_axis_angle(
            &nalgebra::Vector3::x_axis(),
            std::f64::consts::FRAC_PI_2,
        );
        let graspit = clasp_core::Camera {
            position: nalgebra::Point3::new(0.0, -500.0, 0.0),
            orientation: looking_down_y,
            focal_distance: 500.0,
        };
        let orbit = OrbitCamera::from_saved(&graspit);
        assert!(orbit.focus.length() < 1e-3, "{orbit:?}");
        assert!(
            orbit
                .transform()
                .translation
                .distance(Vec3::new(0.0, -500.0, 0.0))
                < 1e-2
        );
    }

    #[test]
    fn orbit_keeps_distance_and_stops_short_of_the_pole() {
        let mut orbit = OrbitCamera::framing(None);
        orbit.orbit(Vec2::new(50.0, 10_000.0));
        assert!(orbit.pitch < FRAC_PI_2);
        let t = orbit.transform();
        assert!((t.translation.distance(orbit.focus) - orbit.distance).abs() < 1e-2);
    }

    #[test]
    fn zoom_and_pan_move_as_the_gesture_says() {
        let mut orbit = OrbitCamera::framing(None);
        let before = orbit;
        orbit.zoom(1.0);
        assert!(orbit.distance < before.distance);
        orbit.zoom(-1000.0);
        assert_eq!(orbit.distance, MAX_DISTANCE);
        let mut panned = before;
        panned.pan(Vec2::new(100.0, 0.0), 720.0);
        // Dragging right moves the focus left in the view, so the scene follows the pointer.
        let right = before.transform().right();
        assert!((panned.focus - before.focus).dot(*right) < 0.0);
    }
}
