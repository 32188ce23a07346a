//! Draggers, as in GraspIt: on the selected body or robot, three axis arrows and three plane
//! squares translate it and three rings rotate it, and dragging the selected body itself moves
//! it in the view plane. On a selected robot link, a disc for each revolute DOF of its chain and
//! an arrow for each prismatic one. Every drag step is a request to the core, which moves the
//! body (or the joints) toward where the pointer says and stops it at contact; while a drag is
//! held at contact the dragger turns magenta and the status bar says what it touches.

use bevy::{ecs::system::SystemParam, picking::hover::HoverMap, prelude::*, window::PrimaryWindow};
use clasp_core::{Element, JointKind, Pose, RobotId, World};
use nalgebra::{Point3, Translation3, Unit, UnitQuaternion, Vector3};

pub mod handles;

pub use handles::*;
// Named, so that it wins over the Bevy prelude's asset `Handle`.
pub use handles::Handle;

use crate::{
    camera::PointerGesture,
    convert,
    editor::{requests::Editor, resources::Document, resources::Selection},
    overlay::HandleGizmos,
    scene::BodyView,
    systems::ClaspSystems,
};

const AXIS_COLORS: [Color; 3] = [
    Color::srgb(0.95, 0.25, 0.2),
    Color::srgb(0.3, 0.85, 0.3),
    Color::srgb(0.25, 0.45, 1.0),
];
const ACTIVE: Color = Color::srgb(1.0, 0.9, 0.2);
/// The dragger's colour while its drag is held at contact.
pub const AT_CONTACT: Color = Color::srgb(1.0, 0.2, 0.85);
const JOINT: Color = Color::srgb(0.2, 0.85, 0.9);

pub struct DraggerPlugin;

impl Plugin for DraggerPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ActiveDrag>()
            .add_systems(
                Update,
                (start_drag, continue_drag, finish_drag)
                    .chain()
                    .in_set(ClaspSystems::Drags),
            )
            .add_systems(Update, draw_draggers.in_set(ClaspSystems::View));
    }
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
    mut editor: Editor,
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
    let (world, selection) = (&editor.doc.world, &editor.selection[..]);
    let body = body_dragger(world, selection, min_dragger_size(view));
    let joints = joint_draggers(world, selection);
    let handle = handle_under(view, cursor, body.as_ref(), &joints).or_else(|| {
        // A press on a selected body drags it in the view plane.
        let on_selected = hover
            .values()
            .flat_map(|hits| hits.keys())
            .any(|&entity| views.get(entity).is_ok_and(|v| selection.contains(&v.0)));
        (on_selected && body.is_some()).then_some(Handle::Free)
    });
    let Some(handle) = handle else {
        return;
    };
    let Some(drag) = new_drag(world, view, handle, body, &joints, ray, cursor) else {
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
    world: &World,
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
                start_value: *world.robot(robot)?.dof_values().get(dof)?,
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
            start_pose: element_pose(world, body.element)?,
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
        robot: RobotId,
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
    mut editor: Editor,
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
    mut editor: Editor,
) {
    if active.0.is_some() && !buttons.pressed(MouseButton::Left) {
        active.0 = None;
        editor.end_drag();
    }
}

fn draw_draggers(
    document: Res<Document>,
    selection: Res<Selection>,
    active: Res<ActiveDrag>,
    camera: ViewCamera,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut gizmos: Gizmos<HandleGizmos>,
) {
    let Ok(view) = camera.single() else {
        return;
    };
    let body = body_dragger(&document.world, &selection, min_dragger_size(view));
    let joints = joint_draggers(&document.world, &selection);
    let held = active.0.as_ref().map(|d| d.handle);
    let hovered = match (held, cursor_position(&windows)) {
        (None, Some(cursor)) => handle_under(view, cursor, body.as_ref(), &joints),
        _ => None,
    };
    let at_contact = held.is_some() && document.touching.is_some();
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
