//! What a drag can grab and where the pointer meets it: the selected body's arrows, squares
//! and rings, a lone link's joint discs and arrows, and the geometry that hit-tests them in
//! window pixels and follows the pointer's ray.

use bevy::{prelude::*, window::PrimaryWindow};
use clasp_core::{BodyId, Element, JointKind, Pose, RobotId, World};
use nalgebra::{Point3, Unit, Vector3};

use crate::{camera::OrbitCamera, convert};

/// How close (logical pixels) the pointer must come to a handle to grab it.
pub const GRAB_PX: f32 = 8.0;
/// The segments of a ring handle's hit-testing polygon.
const RING_SEGMENTS: usize = 48;

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
    Joint { robot: RobotId, dof: usize },
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
    pub robot: RobotId,
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

pub(super) fn unit(i: usize) -> Vector3<f64> {
    crate::editor::move_requests::axis(i)
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
/// it sits on the last selected element. A hand an arm carries is dragged by its palm, the arm
/// following (inverse kinematics), unless the selection holds the arm too: then the dragger
/// moves the whole assembly. A lone link gets joint draggers instead.
pub fn body_dragger(world: &World, selection: &[BodyId], min_size: f64) -> Option<BodyDragger> {
    let &last = selection.last()?;
    if matches!(last, BodyId::Link { .. }) && !whole_robot_selected(world, selection, last) {
        return None;
    }
    let element = match last.element() {
        Element::Robot(hand) if !carrier_selected(world, selection, hand) => Element::Robot(hand),
        element => world.assembly_of(element),
    };
    let ids = world.element_bodies(element);
    let (lo, hi) = world.bounding_box_of(&ids)?;
    let half_diagonal = (hi - lo).norm() / 2.0;
    Some(BodyDragger {
        element,
        centre: nalgebra::center(&lo, &hi),
        size: (0.75 * half_diagonal).max(min_size),
    })
}

/// Whether the selection holds a body of the arm carrying `robot` (none for a robot nothing
/// carries: it moves as itself).
fn carrier_selected(world: &World, selection: &[BodyId], robot: RobotId) -> bool {
    world
        .carrier(robot)
        .is_some_and(|c| selection.iter().any(|b| b.robot() == Some(c.parent_robot)))
}

pub(super) fn whole_robot_selected(world: &World, selection: &[BodyId], id: BodyId) -> bool {
    crate::editor::resources::whole_element(world, selection, id.element())
}

/// The joint draggers of a lone selected link: one per DOF of its chain.
pub fn joint_draggers(world: &World, selection: &[BodyId]) -> Vec<JointDragger> {
    let Some(&BodyId::Link { robot, chain, .. }) = selection.last() else {
        return Vec::new();
    };
    if whole_robot_selected(world, selection, BodyId::Palm { robot }) {
        return Vec::new();
    }
    let Some(r) = world.robot(robot) else {
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

pub(super) type ViewCamera<'w, 's> =
    Query<'w, 's, (&'static Camera, &'static GlobalTransform), With<OrbitCamera>>;

/// The 3D view's camera and where it stands.
pub type View<'a> = (&'a Camera, &'a GlobalTransform);

pub(super) fn cursor_ray(view: View, cursor: Vec2) -> Option<(Point3<f64>, Vector3<f64>)> {
    let (camera, transform) = view;
    let ray = camera.viewport_to_world(transform, cursor).ok()?;
    Some((
        convert::core_point(ray.origin),
        convert::core_vector(*ray.direction),
    ))
}

pub(super) fn to_screen(view: View, p: &Point3<f64>) -> Option<Vec2> {
    let (camera, transform) = view;
    camera
        .world_to_viewport(transform, crate::convert::point(p))
        .ok()
}

/// Pixel distance from `cursor` to the projected segment a–b.
pub(super) fn segment_px(view: View, cursor: Vec2, a: &Point3<f64>, b: &Point3<f64>) -> f32 {
    let (Some(a), Some(b)) = (to_screen(view, a), to_screen(view, b)) else {
        return f32::INFINITY;
    };
    let ab = b - a;
    let t = ((cursor - a).dot(ab) / ab.length_squared().max(1e-6)).clamp(0.0, 1.0);
    cursor.distance(a + ab * t)
}

pub(super) fn polyline_px(view: View, cursor: Vec2, points: &[Point3<f64>]) -> f32 {
    points
        .windows(2)
        .map(|w| segment_px(view, cursor, &w[0], &w[1]))
        .fold(f32::INFINITY, f32::min)
}

pub(super) fn inside_polygon(view: View, cursor: Vec2, corners: &[Point3<f64>]) -> bool {
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

pub(super) fn ring_points(
    centre: &Point3<f64>,
    axis: &Vector3<f64>,
    radius: f64,
) -> Vec<Point3<f64>> {
    let (u, v) = perpendiculars(axis);
    (0..=RING_SEGMENTS)
        .map(|k| {
            let angle = std::f64::consts::TAU * k as f64 / RING_SEGMENTS as f64;
            centre + (u * angle.cos() + v * angle.sin()) * radius
        })
        .collect()
}

/// The handle of the selection's draggers under the cursor, if any.
pub fn handle_at(world: &World, selection: &[BodyId], view: View, cursor: Vec2) -> Option<Handle> {
    let body = body_dragger(world, selection, min_dragger_size(view));
    handle_under(
        view,
        cursor,
        body.as_ref(),
        &joint_draggers(world, selection),
    )
}

/// The handle under the cursor, nearest first: joint handles, axes, rings, then plane squares.
pub(super) fn handle_under(
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
pub(super) fn ray_plane(
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
pub(super) fn ray_line(
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
pub(super) fn angle_about(
    centre: &Point3<f64>,
    axis: &Vector3<f64>,
    a: &Point3<f64>,
    b: &Point3<f64>,
) -> f64 {
    let (u, v) = (a - centre, b - centre);
    let (u, v) = (u - axis * u.dot(axis), v - axis * v.dot(axis));
    u.cross(&v).dot(axis).atan2(u.dot(&v))
}

pub(super) fn element_pose(world: &World, element: Element) -> Option<Pose> {
    match element {
        Element::Body(i) => world.free_body(i).map(|b| b.pose()),
        Element::Robot(r) => world.robot(r).map(|r| r.pose()),
    }
}

pub(super) fn cursor_position(windows: &Query<&Window, With<PrimaryWindow>>) -> Option<Vec2> {
    windows.single().ok()?.cursor_position()
}

pub(super) fn min_dragger_size((_, transform): View) -> f64 {
    min_size_for_camera_at(transform.translation())
}

/// The smallest dragger, mm, for a camera this far from the origin: handles stay big enough to
/// grab however far the view is zoomed out.
pub fn min_size_for_camera_at(camera: Vec3) -> f64 {
    (0.06 * camera.length() as f64).max(5.0)
}
