//! The app frame benchmark's scenes, each a hand with an object on its approach line, and the
//! pointer scripts played on them.

use std::path::Path;

use clasp_app::{Document, EditorWorld, edit};
use clasp_collide::TriMesh;
use clasp_core::{Body, BodyId, BodyKind, Element, Pose, RobotId};
use nalgebra::{Point3, Translation3, Unit, UnitQuaternion, Vector3};

/// How far the hand starts from the object, mm.
const START_GAP: f64 = 30.0;

/// A hand (robot 0) and the object it is dragged against.
pub struct Scene {
    pub name: String,
    /// The app's editor resources, as `clasp_app::open_scene` makes them.
    pub editor: EditorWorld,
    pub object: BodyId,
    /// The object's centre, world.
    pub centre: Point3<f64>,
    /// The hand's approach direction, world.
    pub approach: Vector3<f64>,
}

/// The default scene: ClaspHand and its mug.
pub fn default_scene() -> Scene {
    let editor = clasp_app::open_scene(&[]);
    let mug = editor
        .resource::<Document>()
        .world
        .grasped_object()
        .expect("the default scene has its mug");
    place("ClaspHand, its mug", editor, mug)
}

/// The default scene with the mug deleted, as a user deletes it, and a sphere in its place.
pub fn sphere_scene(mesh: &TriMesh) -> Scene {
    let mut editor = clasp_app::open_scene(&[]);
    let name = format!("sphere_{}", mesh.triangles().len());
    let object = edit(&mut editor, |editor| {
        let mug = editor
            .doc
            .world
            .grasped_object()
            .expect("the default scene has its mug");
        editor.click_body(mug, false);
        editor.delete_selection();
        editor
            .doc
            .world
            .add_body(Body::from_mesh(&name, BodyKind::Graspable, mesh.clone()))
    });
    place(
        &format!("ClaspHand, {}-triangle sphere", mesh.triangles().len()),
        editor,
        object,
    )
}

/// GraspIt's Barrett and GraspIt's mug, fingers spread 60°.
pub fn barrett_scene(library: &Path) -> Result<Scene, String> {
    let world = crate::grasps::barrett_world(library)?;
    let editor = clasp_app::editor_world(Document::new(world, "Barrett and GraspIt's mug", None));
    Ok(place("Barrett, GraspIt's mug", editor, BodyId::Free(0)))
}

/// Puts the object on the hand's approach line, [`START_GAP`] from where the hand would first
/// touch it (a copy of the world approaches to find out).
fn place(name: &str, mut editor: EditorWorld, object: BodyId) -> Scene {
    let (centre, approach) = edit(&mut editor, |editor| {
        place_object(&mut editor.doc.world, object)
    });
    edit(&mut editor, |editor| editor.forget_history());
    Scene {
        name: name.into(),
        editor,
        object,
        centre,
        approach,
    }
}

/// Places `object` as [`place`] says; returns its centre and the hand's approach direction.
fn place_object(world: &mut clasp_core::World, object: BodyId) -> (Point3<f64>, Vector3<f64>) {
    let BodyId::Free(index) = object else {
        unreachable!("the object is a free body")
    };
    let robot = world.robot(RobotId::from_index(0)).unwrap();
    let palm = robot.pose();
    let (reference, direction) = robot
        .approach
        .as_ref()
        .map_or((Point3::origin(), Vector3::z()), |a| {
            (a.reference, a.direction.into_inner())
        });
    let (reference, approach) = (palm * reference, palm.rotation * direction);
    let body = world.free_body(index).unwrap();
    let (lo, hi) = body.mesh().bounding_box();
    let own_centre = nalgebra::center(&lo, &hi);
    let far = (hi - lo).norm() + 200.0;
    let rotation = body.pose().rotation;
    let at = |centre: Point3<f64>| {
        Pose::from_parts(
            Translation3::from(centre - rotation * own_centre.coords),
            rotation,
        )
    };
    let far_pose = at(reference + approach * far);
    world
        .set_pose(Element::Body(index), far_pose)
        .expect("a finite pose");
    let mut probe = world.clone();
    let outcome = probe
        .approach_to_contact(RobotId::from_index(0), 2.0 * far)
        .expect("the hand can approach");
    assert!(!outcome.completed, "the hand meets the object on its way");
    let travel = (probe
        .robot(RobotId::from_index(0))
        .unwrap()
        .pose()
        .translation
        .vector
        - palm.translation.vector)
        .norm();
    let centre = reference + approach * (far - travel + START_GAP);
    world
        .set_pose(Element::Body(index), at(centre))
        .expect("a finite pose");
    (centre, approach)
}

/// The pointer's path for the hand drag, as palm poses: frames 0–149 approach at 0.4 mm a frame
/// (60 mm, twice the gap), 150–299 press on 0.1 mm a frame, 300–449 slide round the object
/// from where the press left the hand (0.4° a frame about an axis across the approach through
/// the object's centre), 450–599 roll 10° about the line from the centre along the approach.
pub struct HandScript {
    start: Pose,
    approach: Vector3<f64>,
    across: Unit<Vector3<f64>>,
    centre: Point3<f64>,
    /// Where the hand stood after the press: the slide starts from there.
    pressed: Option<Pose>,
}

impl HandScript {
    pub fn new(scene: &Scene) -> Self {
        HandScript {
            start: scene
                .editor
                .resource::<Document>()
                .world
                .robot(RobotId::from_index(0))
                .unwrap()
                .pose(),
            approach: scene.approach,
            across: across(&scene.approach),
            centre: scene.centre,
            pressed: None,
        }
    }

    pub fn target(&mut self, f: usize, now: Pose) -> Pose {
        let along = |mm: f64| Translation3::from(self.approach * mm);
        let about = |axis: Unit<Vector3<f64>>, angle: f64| {
            let c = Translation3::from(self.centre.coords);
            c * UnitQuaternion::from_axis_angle(&axis, angle) * c.inverse()
        };
        match f {
            0..150 => along(0.4 * f as f64) * self.start,
            150..300 => along(60.0 + 0.1 * (f - 150) as f64) * self.start,
            _ => {
                let pressed = *self.pressed.get_or_insert(now);
                let angle = 0.4f64.to_radians() * (f.min(449) - 299) as f64;
                let slide = about(self.across, angle);
                let slid = slide * pressed;
                if f < 450 {
                    return slid;
                }
                let approach = Unit::new_normalize(slide.rotation * self.approach);
                let roll = 10f64.to_radians() * (f - 449) as f64 / 150.0;
                about(approach, roll) * slid
            }
        }
    }
}

/// A unit vector across `v`.
fn across(v: &Vector3<f64>) -> Unit<Vector3<f64>> {
    let helper = if v.x.abs() < 0.9 {
        Vector3::x()
    } else {
        Vector3::z()
    };
    Unit::new_normalize(v.cross(&helper))
}

/// For the DOF drag: the hand brought up to touch the object, and the first DOF that, closed
/// all the way, would meet it, with the value it closes to.
pub fn dof_to_drag(scene: &mut Scene) -> (usize, f64, f64) {
    let object = scene.object;
    edit(&mut scene.editor, |editor| {
        editor.approach(RobotId::from_index(0), 2.0 * START_GAP);
        editor.forget_history();
    });
    let world = &scene.editor.resource::<Document>().world;
    let robot = world.robot(RobotId::from_index(0)).unwrap();
    let closing = |dof: usize| {
        let (lo, hi) = robot.dof_limits(dof);
        if robot.dofs[dof].default_velocity >= 0.0 {
            hi
        } else {
            lo
        }
    };
    let dof = (0..robot.dofs.len())
        .filter(|&d| robot.dofs[d].default_velocity != 0.0)
        .find(|&d| {
            let mut probe = world.clone();
            let mut target = probe
                .robot(RobotId::from_index(0))
                .unwrap()
                .dof_values()
                .to_vec();
            target[d] = closing(d);
            probe
                .move_dofs_to(RobotId::from_index(0), &target)
                .is_ok_and(|o| o.stopped_by.iter().any(|&(_, b)| b == object))
        })
        .unwrap_or(1);
    (dof, robot.dof_values()[dof], closing(dof))
}
