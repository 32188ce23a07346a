//! Draggers, as in GraspIt: on the selected body or robot, three axis arrows and three plane
//! squares translate it and three rings rotate it, and dragging the selected body itself moves
//! it in the view plane. On a selected robot link, a disc for each revolute DOF of its chain and
//! an arrow for each prismatic one. Every drag step is a request to the core, which moves the
//! body (or the joints) toward where the pointer says and stops it at contact; while a drag is
//! held at contact the dragger turns magenta and the status bar says what it touches.

use bevy::{ecs::system::SystemParam, picking::hover::HoverMap, prelude::*, window::PrimaryWindow};
use clasp_core::{BodyId, Element, JointKind, Pose};
use nalgebra::{Point3, Translation3, Unit, UnitQuaternion, Vector3};

use crate::{
    camera::{GestureTracking, OrbitCamera, PointerGesture},
    convert,
    editor::{Editor, bounds_of},
    scene::BodyView,
};

/// How close (logical pixels) the pointer must come to a handle to grab it.
pub const GRAB_PX: f32 = 8.0;
const AXIS_COLORS: [Color; 3] = [
    Color::srgb(0.95, 0.25, 0.2),
    Color::srgb(0.3, 0.85, 0.3),
    Color::srgb(0.25, 0.45, 1.0),
];
const ACTIVE: Color = Color::srgb(1.0, 0.9, 0.2);
/// The dragger's colour while its drag is held at contact.
pub const AT_CONTACT: Color = Color::srgb(1.0, 0.2, 0.85);
const JOINT: Color = Color::srgb(0.2, 0.85, 0.9);
const RING_SEGMENTS: usize = 48;

/// Runs after the press is classified and before the camera reads it.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct DraggerInput;

pub struct DraggerPlugin;

impl Plugin for DraggerPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ActiveDrag>()
            .add_systems(
                Update,
                (start_drag, continue_drag, finish_drag)
                    .chain()
                    .in_set(DraggerInput)
                    .after(GestureTracking),
            )
            .add_systems(Update, draw_draggers.after(DraggerInput));
    }
}

/// One grabbable part of a dragger.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Handle {
    /// Translate along world axis i.
    Axis(usize),
    /// Translate in the plane normal to world axis i.
    Plane(usize),
    /// Rotate about world axis i through the dragger's centre.
    Ring(usize),
    /// Translate in the view plane: the selected body itself.
    Free,
    /// Turn or slide one DOF of a robot.
    Joint { robot: usize, dof: usize },
}

/// The translate and rotate handles round the selected element, in world coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyDragger {
    pub element: Element,
    pub centre: Point3<f64>,
    /// Length of an axis arrow, mm.
    pub size: f64,
}

impl BodyDragger {
    pub fn axis_tip(&self, i: usize) -> Point3<f64> {
        self.centre + unit(i) * self.size
    }

    /// The corners of plane handle i (normal to axis i).
    pub fn plane_corners(&self, i: usize) -> [Point3<f64>; 4] {
        let (a, b) = (unit((i + 1) % 3), unit((i + 2) % 3));
        let (near, far) = (0.25 * self.size, 0.45 * self.size);
        [(near, near), (far, near), (far, far), (near, far)]
            .map(|(s, t)| self.centre + a * s + b * t)
    }

    pub fn plane_centre(&self, i: usize) -> Point3<f64> {
        let c = self.plane_corners(i);
        nalgebra::center(&c[0], &c[2])
    }

    pub fn ring_radius(&self) -> f64 {
        0.8 * self.size
    }

    /// A point on ring i at `angle` from its first tangent.
    pub fn ring_point(&self, i: usize, angle: f64) -> Point3<f64> {
        let (a, b) = (unit((i + 1) % 3), unit((i + 2) % 3));
        self.centre + (a * angle.cos() + b * angle.sin()) * self.ring_radius()
    }
}

/// The handle of one DOF: where its first joint turns or slides.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointDragger {
    pub robot: usize,
    pub dof: usize,
    pub kind: JointKind,
    pub origin: Point3<f64>,
    pub axis: Unit<Vector3<f64>>,
    /// Disc radius or arrow length, mm (the robot file's `draggerScale`).
    pub size: f64,
    /// The joint's value per unit of DOF.
    pub ratio: f64,
}

impl JointDragger {
    /// A point on the disc's rim at `angle`, or the arrow's tip.
    pub fn grab_point(&self, angle: f64) -> Point3<f64> {
        match self.kind {
            JointKind::Revolute => {
                let (u, v) = perpendiculars(&self.axis);
                self.origin + (u * angle.cos() + v * angle.sin()) * self.size
            }
            JointKind::Prismatic => self.origin + self.axis.into_inner() * self.size,
        }
    }
}

fn unit(i: usize) -> Vector3<f64> {
    crate::editor::axis(i)
}

/// Two unit vectors perpendicular to `axis` and to each other.
pub fn perpendiculars(axis: &Vector3<f64>) -> (Vector3<f64>, Vector3<f64>) {
    let helper = if axis.x.abs() < 0.9 {
        Vector3::x()
    } else {
        Vector3::y()
    };
    let u = axis.cross(&helper).normalize();
    (u, axis.cross(&u))
}

/// The body dragger of the selection, if a free body or a whole robot (or its palm) is selected:
/// it sits on the last selected element. A lone link gets joint draggers instead.
pub fn body_dragger(editor: &Editor, min_size: f64) -> Option<BodyDragger> {
    let &last = editor.selection.last()?;
    if matches!(last, BodyId::Link { .. }) && !whole_robot_selected(editor, last) {
        return None;
    }
    let element = last.element();
    let ids = editor.world.element_bodies(element);
    let (lo, hi) = bounds_of(&editor.world, &ids)?;
    let half_diagonal = (hi - lo).norm() / 2.0;
    Some(BodyDragger {
        element,
        centre: nalgebra::center(&lo, &hi),
        size: (0.75 * half_diagonal).max(min_size),
    })
}

fn whole_robot_selected(editor: &Editor, id: BodyId) -> bool {
    editor
        .world
        .element_bodies(id.element())
        .iter()
        .all(|b| editor.selection.contains(b))
}

/// The joint draggers of a lone selected link: one per DOF of its chain.
pub fn joint_draggers(editor: &Editor) -> Vec<JointDragger> {
    let Some(&BodyId::Link { robot, chain, .. }) = editor.selection.last() else {
        return Vec::new();
    };
    if whole_robot_selected(editor, BodyId::Palm { robot }) {
        return Vec::new();
    }
    let Some(r) = editor.world.robot(robot) else {
        return Vec::new();
    };
    let axes = r.joint_axes(chain);
    let mut draggers: Vec<JointDragger> = Vec::new();
    for (joint, (origin, axis)) in r.chains()[chain].joints.iter().zip(axes) {
        let dof = joint.coupling.dof;
        if draggers.iter().any(|d| d.dof == dof) || joint.coupling.ratio == 0.0 {
            continue;
        }
        draggers.push(JointDragger {
            robot,
            dof,
            kind: joint.kind,
            origin,
            axis,
            size: r
                .dofs
                .get(dof)
                .map_or(20.0, |d| d.dragger_scale.clamp(5.0, 200.0)),
            ratio: joint.coupling.ratio,
        });
    }
    draggers
}

/// The drag in progress.
#[derive(Resource, Default, Debug)]
pub struct ActiveDrag(pub Option<Drag>);

#[derive(Debug, Clone)]
pub struct Drag {
    pub handle: Handle,
    /// What the drag moves, and where it began.
    dragged: Dragged,
    /// The dragger's centre (or the joint's origin) and the axis or plane normal it uses.
    centre: Point3<f64>,
    axis: Vector3<f64>,
    /// Where the pointer's ray met the handle's line or plane when the drag began.
    start_hit: Point3<f64>,
    last_cursor: Vec2,
}

/// What a drag moves.
#[derive(Debug, Clone)]
enum Dragged {
    /// A free body or a robot (by its palm), from this pose.
    Element { element: Element, start_pose: Pose },
    /// A DOF (the one its `Handle::Joint` names), from this value: `ratio` joint units per DOF
    /// unit, turning (a disc) or sliding (an arrow).
    Dof {
        start_value: f64,
        ratio: f64,
        slides: bool,
    },
}

type ViewCamera<'w, 's> =
    Query<'w, 's, (&'static Camera, &'static GlobalTransform), With<OrbitCamera>>;

/// The 3D view's camera and where it stands.
pub type View<'a> = (&'a Camera, &'a GlobalTransform);

fn cursor_ray(view: View, cursor: Vec2) -> Option<(Point3<f64>, Vector3<f64>)> {
    let (camera, transform) = view;
    let ray = camera.viewport_to_world(transform, cursor).ok()?;
    Some((
        convert::core_point(ray.origin),
        convert::core_vector(*ray.direction),
    ))
}

fn to_screen(view: View, p: &Point3<f64>) -> Option<Vec2> {
    let (camera, transform) = view;
    camera
        .world_to_viewport(transform, crate::convert::point(p))
        .ok()
}

/// Pixel distance from `cursor` to the projected segment a–b.
fn segment_px(view: View, cursor: Vec2, a: &Point3<f64>, b: &Point3<f64>) -> f32 {
    let (Some(a), Some(b)) = (to_screen(view, a), to_screen(view, b)) else {
        return f32::INFINITY;
    };
    let ab = b - a;
    let t = ((cursor - a).dot(ab) / ab.length_squared().max(1e-6)).clamp(0.0, 1.0);
    cursor.distance(a + ab * t)
}

fn polyline_px(view: View, cursor: Vec2, points: &[Point3<f64>]) -> f32 {
    points
        .windows(2)
        .map(|w| segment_px(view, cursor, &w[0], &w[1]))
        .fold(f32::INFINITY, f32::min)
}

fn inside_polygon(view: View, cursor: Vec2, corners: &[Point3<f64>]) -> bool {
    let Some(points) = corners
        .iter()
        .map(|c| to_screen(view, c))
        .collect::<Option<Vec<Vec2>>>()
    else {
        return false;
    };
    // Same side of every edge: the projected square is convex.
    let sides: Vec<f32> = (0..points.len())
        .map(|k| {
            let (a, b) = (points[k], points[(k + 1) % points.len()]);
            (b - a).perp_dot(cursor - a)
        })
        .collect();
    sides.iter().all(|&s| s > 0.0) || sides.iter().all(|&s| s < 0.0)
}

fn ring_points(centre: &Point3<f64>, axis: &Vector3<f64>, radius: f64) -> Vec<Point3<f64>> {
    let (u, v) = perpendiculars(axis);
    (0..=RING_SEGMENTS)
        .map(|k| {
            let angle = std::f64::consts::TAU * k as f64 / RING_SEGMENTS as f64;
            centre + (u * angle.cos() + v * angle.sin()) * radius
        })
        .collect()
}

/// The handle of the selection's draggers under the cursor, if any.
pub fn handle_at(editor: &Editor, view: View, cursor: Vec2) -> Option<Handle> {
    let body = body_dragger(editor, min_dragger_size(view));
    handle_under(view, cursor, body.as_ref(), &joint_draggers(editor))
}

/// The handle under the cursor, nearest first: joint handles, axes, rings, then plane squares.
fn handle_under(
    view: View,
    cursor: Vec2,
    body: Option<&BodyDragger>,
    joints: &[JointDragger],
) -> Option<Handle> {
    let mut candidates: Vec<(f32, Handle)> = Vec::new();
    for j in joints {
        let px = match j.kind {
            JointKind::Revolute => {
                polyline_px(view, cursor, &ring_points(&j.origin, &j.axis, j.size))
            }
            JointKind::Prismatic => segment_px(view, cursor, &j.origin, &j.grab_point(0.0)),
        };
        let handle = Handle::Joint {
            robot: j.robot,
            dof: j.dof,
        };
        candidates.push((px, handle));
    }
    if let Some(d) = body {
        for i in 0..3 {
            let axis = segment_px(view, cursor, &d.centre, &d.axis_tip(i));
            candidates.push((axis, Handle::Axis(i)));
            let ring = ring_points(&d.centre, &unit(i), d.ring_radius());
            candidates.push((polyline_px(view, cursor, &ring) + 0.5, Handle::Ring(i)));
        }
    }
    let nearest = candidates
        .into_iter()
        .filter(|(px, _)| *px <= GRAB_PX)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, handle)| handle);
    // The plane squares count only where no line is near enough.
    nearest.or_else(|| {
        let d = body?;
        (0..3)
            .find(|&i| inside_polygon(view, cursor, &d.plane_corners(i)))
            .map(Handle::Plane)
    })
}

/// Where the ray meets the plane through `point` with normal `normal`.
fn ray_plane(
    (origin, direction): (Point3<f64>, Vector3<f64>),
    point: &Point3<f64>,
    normal: &Vector3<f64>,
) -> Option<Point3<f64>> {
    let along = direction.dot(normal);
    if along.abs() < 1e-6 {
        return None;
    }
    let t = (point - origin).dot(normal) / along;
    (t > 0.0).then(|| origin + direction * t)
}

/// The point of the line (point, axis) closest to the ray.
fn ray_line(
    (origin, direction): (Point3<f64>, Vector3<f64>),
    point: &Point3<f64>,
    axis: &Vector3<f64>,
) -> Option<Point3<f64>> {
    let w = point - origin;
    let (a, b, c) = (
        axis.dot(axis),
        axis.dot(&direction),
        direction.dot(&direction),
    );
    let (d, e) = (axis.dot(&w), direction.dot(&w));
    let denominator = a * c - b * b;
    // A line seen end-on cannot be dragged along.
    if denominator.abs() < 1e-9 * a * c {
        return None;
    }
    let s = (b * e - c * d) / denominator;
    Some(point + axis * s)
}

/// The signed angle from `a` to `b` about `axis`, both taken round `centre`.
fn angle_about(centre: &Point3<f64>, axis: &Vector3<f64>, a: &Point3<f64>, b: &Point3<f64>) -> f64 {
    let (u, v) = (a - centre, b - centre);
    let (u, v) = (u - axis * u.dot(axis), v - axis * v.dot(axis));
    u.cross(&v).dot(axis).atan2(u.dot(&v))
}

fn element_pose(editor: &Editor, element: Element) -> Option<Pose> {
    match element {
        Element::Body(i) => editor.world.free_body(i).map(|b| b.pose()),
        Element::Robot(r) => editor.world.robot(r).map(|r| r.pose()),
    }
}

fn cursor_position(windows: &Query<&Window, With<PrimaryWindow>>) -> Option<Vec2> {
    windows.single().ok()?.cursor_position()
}

fn min_dragger_size((_, transform): View) -> f64 {
    min_size_for_camera_at(transform.translation())
}

/// The smallest dragger, mm, for a camera this far from the origin: handles stay big enough to
/// grab however far the view is zoomed out.
pub fn min_size_for_camera_at(camera: Vec3) -> f64 {
    (0.06 * camera.length() as f64).max(5.0)
}

/// Where the pointer is and what lies under it, as a drag's start reads it.
#[derive(SystemParam)]
struct PointerView<'w, 's> {
    buttons: Res<'w, ButtonInput<MouseButton>>,
    windows: Query<'w, 's, &'static Window, With<PrimaryWindow>>,
    camera: ViewCamera<'w, 's>,
    hover: Res<'w, HoverMap>,
    views: Query<'w, 's, &'static BodyView>,
}

fn start_drag(
    pointer: PointerView,
    mut gesture: ResMut<PointerGesture>,
    mut active: ResMut<ActiveDrag>,
    mut editor: ResMut<Editor>,
) {
    let PointerView {
        buttons,
        windows,
        camera,
        hover,
        views,
    } = pointer;
    if !buttons.just_pressed(MouseButton::Left) || gesture.began_on_ui || active.0.is_some() {
        return;
    }
    let (Some(cursor), Ok(view)) = (cursor_position(&windows), camera.single()) else {
        return;
    };
    let Some(ray) = cursor_ray(view, cursor) else {
        return;
    };
    let body = body_dragger(&editor, min_dragger_size(view));
    let joints = joint_draggers(&editor);
    let handle = handle_under(view, cursor, body.as_ref(), &joints).or_else(|| {
        // A press on a selected body drags it in the view plane.
        let on_selected = hover.values().flat_map(|hits| hits.keys()).any(|&entity| {
            views
                .get(entity)
                .is_ok_and(|v| editor.selection.contains(&v.0))
        });
        (on_selected && body.is_some()).then_some(Handle::Free)
    });
    let Some(handle) = handle else {
        return;
    };
    let Some(drag) = new_drag(&editor, view, handle, body, &joints, ray, cursor) else {
        return;
    };
    gesture.captured = true;
    editor.begin_drag(match handle {
        Handle::Joint { .. } => "joint drag",
        Handle::Ring(_) => "rotation",
        _ => "move",
    });
    active.0 = Some(drag);
}

fn new_drag(
    editor: &Editor,
    view: View,
    handle: Handle,
    body: Option<BodyDragger>,
    joints: &[JointDragger],
    ray: (Point3<f64>, Vector3<f64>),
    cursor: Vec2,
) -> Option<Drag> {
    if let Handle::Joint { robot, dof } = handle {
        let joint = joints.iter().find(|j| j.robot == robot && j.dof == dof)?;
        let axis = joint.axis.into_inner();
        let start_hit = match joint.kind {
            JointKind::Revolute => ray_plane(ray, &joint.origin, &axis)?,
            JointKind::Prismatic => ray_line(ray, &joint.origin, &axis)?,
        };
        return Some(Drag {
            handle,
            dragged: Dragged::Dof {
                start_value: *editor.world.robot(robot)?.dof_values().get(dof)?,
                ratio: joint.ratio,
                slides: joint.kind == JointKind::Prismatic,
            },
            centre: joint.origin,
            axis,
            start_hit,
            last_cursor: cursor,
        });
    }
    let body = body?;
    let (axis, start_hit) = match handle {
        Handle::Axis(i) => (unit(i), ray_line(ray, &body.centre, &unit(i))?),
        Handle::Plane(i) | Handle::Ring(i) => (unit(i), ray_plane(ray, &body.centre, &unit(i))?),
        Handle::Free => {
            let normal = convert::core_vector(*view.1.forward());
            (normal, ray_plane(ray, &body.centre, &normal)?)
        }
        Handle::Joint { .. } => return None,
    };
    Some(Drag {
        handle,
        dragged: Dragged::Element {
            element: body.element,
            start_pose: element_pose(editor, body.element)?,
        },
        centre: body.centre,
        axis,
        start_hit,
        last_cursor: cursor,
    })
}

/// Where the drag asks the element to be, for the pointer's ray now.
enum Target {
    Pose(Pose),
    Dof {
        robot: usize,
        dof: usize,
        value: f64,
    },
}

fn drag_target(drag: &Drag, ray: (Point3<f64>, Vector3<f64>)) -> Option<Target> {
    match (&drag.dragged, drag.handle) {
        (&Dragged::Element { start_pose, .. }, handle) => {
            element_target(drag, handle, start_pose, ray).map(Target::Pose)
        }
        (
            &Dragged::Dof {
                start_value,
                ratio,
                slides,
            },
            Handle::Joint { robot, dof },
        ) => {
            let change = if slides {
                let hit = ray_line(ray, &drag.centre, &drag.axis)?;
                (hit - drag.start_hit).dot(&drag.axis)
            } else {
                let hit = ray_plane(ray, &drag.centre, &drag.axis)?;
                angle_about(&drag.centre, &drag.axis, &drag.start_hit, &hit)
            };
            Some(Target::Dof {
                robot,
                dof,
                value: start_value + change / ratio,
            })
        }
        (Dragged::Dof { .. }, _) => None,
    }
}

/// Where a body or robot dragged by `handle` from `start_pose` goes for the pointer's ray.
fn element_target(
    drag: &Drag,
    handle: Handle,
    start_pose: Pose,
    ray: (Point3<f64>, Vector3<f64>),
) -> Option<Pose> {
    let shifted = |delta: Vector3<f64>| {
        Pose::from_parts(Translation3::from(delta), UnitQuaternion::identity()) * start_pose
    };
    match handle {
        Handle::Axis(_) => {
            let hit = ray_line(ray, &drag.centre, &drag.axis)?;
            Some(shifted(hit - drag.start_hit))
        }
        Handle::Plane(_) | Handle::Free => {
            let hit = ray_plane(ray, &drag.centre, &drag.axis)?;
            Some(shifted(hit - drag.start_hit))
        }
        Handle::Ring(_) => {
            let hit = ray_plane(ray, &drag.centre, &drag.axis)?;
            let angle = angle_about(&drag.centre, &drag.axis, &drag.start_hit, &hit);
            let about_centre = Pose::from_parts(
                Translation3::from(drag.centre.coords),
                UnitQuaternion::identity(),
            );
            let turn = UnitQuaternion::from_axis_angle(&Unit::new_normalize(drag.axis), angle);
            Some(
                about_centre
                    * Pose::from_parts(Translation3::identity(), turn)
                    * about_centre.inverse()
                    * start_pose,
            )
        }
        Handle::Joint { .. } => None,
    }
}

fn continue_drag(
    buttons: Res<ButtonInput<MouseButton>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    camera: ViewCamera,
    mut active: ResMut<ActiveDrag>,
    mut editor: ResMut<Editor>,
) {
    let Some(drag) = active.0.as_mut() else {
        return;
    };
    if !buttons.pressed(MouseButton::Left) {
        return;
    }
    let Some(cursor) = cursor_position(&windows) else {
        return;
    };
    if cursor == drag.last_cursor {
        return;
    }
    drag.last_cursor = cursor;
    let Ok(view) = camera.single() else {
        return;
    };
    let Some(target) = cursor_ray(view, cursor).and_then(|ray| drag_target(drag, ray)) else {
        return;
    };
    match (target, &drag.dragged) {
        (Target::Pose(pose), &Dragged::Element { element, .. }) => {
            editor.drag_element_to(element, pose);
        }
        (Target::Dof { robot, dof, value }, _) => {
            editor.drag_dof(robot, dof, value);
        }
        (Target::Pose(_), Dragged::Dof { .. }) => {}
    }
}

fn finish_drag(
    buttons: Res<ButtonInput<MouseButton>>,
    mut active: ResMut<ActiveDrag>,
    mut editor: ResMut<Editor>,
) {
    if active.0.is_some() && !buttons.pressed(MouseButton::Left) {
        active.0 = None;
        editor.end_drag();
    }
}

fn draw_draggers(
    editor: Res<Editor>,
    active: Res<ActiveDrag>,
    camera: ViewCamera,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut gizmos: Gizmos,
) {
    let Ok(view) = camera.single() else {
        return;
    };
    let body = body_dragger(&editor, min_dragger_size(view));
    let joints = joint_draggers(&editor);
    let held = active.0.as_ref().map(|d| d.handle);
    let hovered = match (held, cursor_position(&windows)) {
        (None, Some(cursor)) => handle_under(view, cursor, body.as_ref(), &joints),
        _ => None,
    };
    let at_contact = held.is_some() && editor.touching.is_some();
    let color = |handle: Handle, normal: Color| {
        if at_contact {
            AT_CONTACT
        } else if Some(handle) == held || Some(handle) == hovered {
            ACTIVE
        } else {
            normal
        }
    };
    let v = |p: &Point3<f64>| crate::convert::point(p);
    if let Some(d) = &body {
        for (i, &axis_color) in AXIS_COLORS.iter().enumerate() {
            gizmos.arrow(
                v(&d.centre),
                v(&d.axis_tip(i)),
                color(Handle::Axis(i), axis_color),
            );
            let corners = d.plane_corners(i).map(|c| v(&c));
            gizmos.linestrip(
                [corners[0], corners[1], corners[2], corners[3], corners[0]],
                color(Handle::Plane(i), axis_color.with_alpha(0.8)),
            );
            let ring = ring_points(&d.centre, &unit(i), d.ring_radius());
            gizmos.linestrip(ring.iter().map(v), color(Handle::Ring(i), axis_color));
        }
        if held == Some(Handle::Free) {
            gizmos.sphere(
                Isometry3d::from_translation(v(&d.centre)),
                2.0,
                color(Handle::Free, ACTIVE),
            );
        }
    }
    for j in &joints {
        let handle = Handle::Joint {
            robot: j.robot,
            dof: j.dof,
        };
        match j.kind {
            JointKind::Revolute => {
                let ring = ring_points(&j.origin, &j.axis, j.size);
                gizmos.linestrip(ring.iter().map(v), color(handle, JOINT));
                gizmos.line(v(&j.origin), v(&j.grab_point(0.0)), color(handle, JOINT));
            }
            JointKind::Prismatic => {
                gizmos.arrow(v(&j.origin), v(&j.grab_point(0.0)), color(handle, JOINT));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ray_meets_a_plane_and_the_nearest_point_of_a_line() {
        let ray = (Point3::new(0.0, 0.0, 10.0), Vector3::new(0.0, 0.0, -1.0));
        let hit = ray_plane(ray, &Point3::new(5.0, 5.0, 2.0), &Vector3::z()).unwrap();
        assert_eq!(hit, Point3::new(0.0, 0.0, 2.0));
        assert!(
            ray_plane(ray, &Point3::origin(), &Vector3::x()).is_none(),
            "edge-on"
        );
        let on_line = ray_line(ray, &Point3::new(-3.0, 0.0, 0.0), &Vector3::x()).unwrap();
        assert!((on_line - Point3::origin()).norm() < 1e-12);
        assert!(
            ray_line(ray, &Point3::origin(), &Vector3::z()).is_none(),
            "end-on"
        );
    }

    #[test]
    fn angles_are_signed_about_the_axis() {
        let c = Point3::origin();
        let a = Point3::new(1.0, 0.0, 0.0);
        let b = Point3::new(0.0, 2.0, 0.5);
        let angle = angle_about(&c, &Vector3::z(), &a, &b);
        assert!((angle - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        assert!((angle_about(&c, &-Vector3::z(), &a, &b) + angle).abs() < 1e-12);
    }
}
