//! The app's state and every request a user makes of it. The state is five resources that
//! change at different rates — the world ([`Document`]), the [`Selection`], the undo
//! [`History`], the [`ViewSettings`] and the [`Log`] — so Bevy's change detection tells each
//! view what to redraw. [`Editor`] borrows them together for a request; a request marks changed
//! only what it changes. No Bevy systems live here; they turn pointer and keyboard input into
//! these requests and show the result (design: input → request → core → ECS view).

use std::path::{Path, PathBuf};

use bevy::{
    ecs::system::{SystemParam, SystemState},
    prelude::{Res, ResMut, Resource},
};
use clasp_core::{
    BodyId, Camera, CollisionGroups, ContactOptions, Element, Material, MoveOutcome, Pose, Quality,
    World, WrenchSpaceKind,
};
use nalgebra::{Point3, Vector3};

pub use crate::files::ImportKind;
use crate::files::{self, Loaded};
pub use history::History;
use history::Snapshot;
pub use plans::Planning;

mod file_requests;
mod history;
mod plans;

/// The world the user works on, where it came from, and what it tells of the grasp. Systems
/// read it freely; it changes only through [`Editor`]'s requests, so the history, the log and
/// the views stay in step.
#[derive(Resource)]
pub struct Document {
    pub world: World,
    /// What is open: "default scene" or the world file's path.
    pub source: String,
    /// Where Save writes; `None` until the world was opened from or saved to a file.
    pub path: Option<PathBuf>,
    /// Files opened or saved, newest first.
    pub recent: Vec<PathBuf>,
    /// Whether the element being dragged is held at contact, and by what.
    pub touching: Option<String>,
    pub quality: QualityReport,
}

impl Document {
    pub fn new(world: World, source: impl Into<String>, path: Option<PathBuf>) -> Self {
        let mut document = Self {
            world,
            source: source.into(),
            path,
            recent: Vec::new(),
            touching: None,
            quality: QualityReport::NoGrasp,
        };
        document.refresh_quality(true);
        document
    }

    /// The name of a body, or "?" for one that is gone.
    pub fn body_name(&self, id: BodyId) -> &str {
        self.world.body(id).map_or("?", |b| b.name.as_str())
    }

    /// Evaluates the grasp again: with the hull's volume (tens of milliseconds) only when
    /// asked, epsilon (about a millisecond) always.
    fn refresh_quality(&mut self, with_volume: bool) {
        let (Some(object), Some(robot)) = (self.world.grasped_object(), self.world.current_hand())
        else {
            self.quality = QualityReport::NoGrasp;
            return;
        };
        let grasp = match self.world.grasp(robot, object, &ContactOptions::default()) {
            Ok(grasp) => grasp,
            Err(e) => {
                self.quality = QualityReport::Failed(e.to_string());
                return;
            }
        };
        let quality = if with_volume {
            grasp.quality_with_volume(WrenchSpaceKind::L1)
        } else {
            grasp.quality(WrenchSpaceKind::L1)
        };
        self.quality = match quality {
            Ok(q) => QualityReport::Computed(q),
            Err(e) => QualityReport::Failed(e.to_string()),
        };
    }
}

/// The selected bodies in the order they were picked. A robot's link stands for its robot
/// when moving or toggling collisions.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct Selection(pub Vec<BodyId>);

impl std::ops::Deref for Selection {
    type Target = [BodyId];
    fn deref(&self) -> &[BodyId] {
        &self.0
    }
}

impl Selection {
    /// The selected elements, each once, in the order they were first picked.
    pub fn elements(&self) -> Vec<Element> {
        let mut elements: Vec<Element> = Vec::new();
        for id in &self.0 {
            let element = id.element();
            if !elements.contains(&element) {
                elements.push(element);
            }
        }
        elements
    }

    /// The robot the selection is on, if it is on exactly one robot's bodies.
    pub fn robot(&self) -> Option<usize> {
        match self.elements().as_slice() {
            [Element::Robot(r)] => Some(*r),
            _ => None,
        }
    }
}

/// The log panel's lines, oldest first.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct Log(pub Vec<LogEntry>);

impl std::ops::Deref for Log {
    type Target = [LogEntry];
    fn deref(&self) -> &[LogEntry] {
        &self.0
    }
}

/// A line of the log panel; errors also show as a notification.
#[derive(Debug, Clone, PartialEq)]
pub struct LogEntry {
    pub error: bool,
    pub text: String,
}

/// How the scene is drawn.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct ViewSettings {
    pub wireframe: bool,
    pub transparent: bool,
    pub contacts_shown: bool,
    /// The hands' virtual contacts (from their `<virtualContacts>` files), as points with
    /// their normals.
    pub virtual_contacts_shown: bool,
    /// Height of a friction cone marker, mm (GraspIt's `Body::CONE_HEIGHT`).
    pub cone_height: f64,
    pub help_shown: bool,
    /// The planner window (Grasp → Plan).
    pub planner_shown: bool,
}

impl Default for ViewSettings {
    fn default() -> Self {
        Self {
            wireframe: false,
            transparent: false,
            contacts_shown: true,
            virtual_contacts_shown: false,
            cone_height: 20.0,
            help_shown: false,
            planner_shown: false,
        }
    }
}

/// What the camera should show next: set by an import, an opened world or View All.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct FrameRequest(pub Option<Framing>);

/// A view for the camera to take.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Framing {
    /// The whole of a box, world mm, keeping the viewing direction.
    Bounds(Point3<f64>, Point3<f64>),
    /// The viewpoint a world file was saved with.
    Saved(Camera),
}

impl Framing {
    /// How a world opens: as it was saved, else framed on its robots and graspable bodies (a
    /// floor or a table that dwarfs them is left to the edges), else on everything.
    pub fn opening(world: &World) -> Option<Framing> {
        if let Some(camera) = world.camera {
            return Some(Framing::Saved(camera));
        }
        let subjects: Vec<BodyId> = world
            .body_ids()
            .into_iter()
            .filter(|&id| {
                world
                    .body(id)
                    .is_some_and(|b| b.kind != clasp_core::BodyKind::Obstacle)
            })
            .collect();
        let (lo, hi) = world
            .bounding_box_of(&subjects)
            .or_else(|| world.bounding_box())?;
        Some(Framing::Bounds(lo, hi))
    }
}

/// The camera as the user last left it, in GraspIt's terms, for Save World to write.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct ShownCamera(pub Option<Camera>);

/// The grasp quality of the current hand on the first graspable body, as last computed.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum QualityReport {
    /// No robot or no graspable body.
    #[default]
    NoGrasp,
    Computed(Quality),
    /// The grasp could not be evaluated, and why.
    Failed(String),
}

/// Every resource a request may change, borrowed together. Systems that only look take
/// `Res<Document>`, `Res<Selection>` and the others instead, so they mark nothing changed.
#[derive(SystemParam)]
pub struct Editor<'w> {
    pub doc: ResMut<'w, Document>,
    pub selection: ResMut<'w, Selection>,
    pub log: ResMut<'w, Log>,
    pub view: ResMut<'w, ViewSettings>,
    pub framing: ResMut<'w, FrameRequest>,
    history: ResMut<'w, History>,
    shown_camera: Res<'w, ShownCamera>,
    /// The grasp planner's settings, run and findings (Grasp → Plan).
    pub planning: ResMut<'w, Planning>,
}

/// Puts an editor opened on `document` into a Bevy world: the document and empty others.
pub fn install_editor(world: &mut bevy::ecs::world::World, document: Document) {
    world.insert_resource(document);
    world.init_resource::<Selection>();
    world.init_resource::<Log>();
    world.init_resource::<ViewSettings>();
    world.init_resource::<FrameRequest>();
    world.init_resource::<Planning>();
    world.init_resource::<History>();
    world.init_resource::<ShownCamera>();
}

/// Moves the editor's resources from one Bevy world into another.
pub fn move_editor(from: &mut bevy::ecs::world::World, to: &mut bevy::ecs::world::World) {
    fn carry<R: Resource>(from: &mut bevy::ecs::world::World, to: &mut bevy::ecs::world::World) {
        if let Some(resource) = from.remove_resource::<R>() {
            to.insert_resource(resource);
        }
    }
    carry::<Document>(from, to);
    carry::<Selection>(from, to);
    carry::<Log>(from, to);
    carry::<ViewSettings>(from, to);
    carry::<FrameRequest>(from, to);
    carry::<History>(from, to);
    carry::<ShownCamera>(from, to);
}

/// Makes requests of the editor in `world` outside a system: start-up, tests, benchmarks.
pub fn edit<T>(world: &mut bevy::ecs::world::World, request: impl FnOnce(&mut Editor) -> T) -> T {
    let mut state = SystemState::<Editor>::new(world);
    let mut editor = state
        .get_mut(world)
        .expect("the editor's resources are installed");
    let result = request(&mut editor);
    state.apply(world);
    result
}

impl Editor<'_> {
    pub fn info(&mut self, text: impl Into<String>) {
        self.log.0.push(LogEntry {
            error: false,
            text: text.into(),
        });
    }

    pub fn error(&mut self, text: impl Into<String>) {
        self.log.0.push(LogEntry {
            error: true,
            text: text.into(),
        });
    }

    // ---- selection ----

    /// Click: selects only `id`. Shift-click (`add`): adds it, or takes it out if it was in.
    pub fn click_body(&mut self, id: BodyId, add: bool) {
        if self.doc.world.body(id).is_none() {
            return;
        }
        if !add {
            self.selection.0 = vec![id];
        } else if let Some(at) = self.selection.iter().position(|&s| s == id) {
            self.selection.0.remove(at);
        } else {
            self.selection.0.push(id);
        }
    }

    /// Double-click on a robot's body: selects the whole robot (palm and every link), with
    /// the arm that carries it and whatever else that arm carries: what moves together.
    pub fn select_robot_of(&mut self, id: BodyId) {
        match id.robot() {
            Some(robot) => {
                let assembly = self.doc.world.assembly_of(Element::Robot(robot));
                self.selection.0 = self.doc.world.element_bodies(assembly);
            }
            None => self.click_body(id, false),
        }
    }

    pub fn clear_selection(&mut self) {
        if !self.selection.is_empty() {
            self.selection.0.clear();
        }
    }

    /// The selected elements, each once, in the order they were first picked.
    pub fn selected_elements(&self) -> Vec<Element> {
        self.selection.elements()
    }

    /// The robot the selection is on, if it is on exactly one robot's bodies.
    pub fn selected_robot(&self) -> Option<usize> {
        self.selection.robot()
    }

    // ---- collisions ----

    /// The Toggle Collision button's state for the current selection.
    pub fn collisions_on(&self) -> bool {
        self.doc.world.collisions_on(&self.selected_elements())
    }

    /// Toggle Collision: nothing selected → the world; two elements → that pair; one or three
    /// or more → each against everything. Contacts are found again at once.
    pub fn toggle_collisions(&mut self) -> bool {
        let elements = self.selected_elements();
        let before = self.snapshot("toggle collisions");
        let on = self.doc.world.toggle_collisions(&elements);
        let what = match elements.len() {
            0 => "the world".to_string(),
            2 => "the selected pair".to_string(),
            n => format!("{n} selected element{}", if n == 1 { "" } else { "s" }),
        };
        // Switching collisions back on between bodies that pass into each other would leave the
        // world in a state no move may make (GraspIt's trap): refuse, and say which.
        let overlapping = if on {
            self.doc.world.overlapping_pairs()
        } else {
            Vec::new()
        };
        if let Some(&(a, b)) = overlapping.first() {
            self.doc.world = before.world;
            let name = |id| self.doc.body_name(id);
            self.error(format!(
                "collisions stay off for {what}: {} and {} pass into each other; move them apart first",
                name(a),
                name(b)
            ));
            return false;
        }
        self.push_undo(before);
        self.info(format!(
            "collisions {} for {what}",
            if on { "on" } else { "off" }
        ));
        self.refresh_quality(true);
        on
    }

    // ---- moves ----

    /// Starts a drag: the moves until [`Editor::end_drag`] undo as one step.
    pub fn begin_drag(&mut self, what: &str) {
        if self.history.drag_start.is_none() {
            self.history.drag_start = Some(self.snapshot(what));
        }
    }

    /// Ends a drag; it goes into the history if it changed anything.
    pub fn end_drag(&mut self) {
        // Only what changes is written: an idle frame must leave every resource unchanged.
        if self.doc.touching.is_some() {
            self.doc.touching = None;
        }
        if !self.dragging() {
            return;
        }
        if let Some(start) = self.history.drag_start.take() {
            if poses_differ(&start.world, &self.doc.world) {
                self.push_undo(start);
            }
            self.refresh_quality(true);
        }
    }

    pub fn dragging(&self) -> bool {
        self.history.dragging()
    }

    /// One step of a drag: moves an element toward `pose`, stopping at contact.
    pub fn drag_element_to(&mut self, element: Element, pose: Pose) -> Option<MoveOutcome> {
        let outcome = self.doc.world.move_to(element, pose);
        self.after_move(outcome)
    }

    /// One step of a joint drag or a slider: moves DOF `dof` of `robot` toward `value` (clamped
    /// to its limits); coupled joints follow; each chain stops at contact.
    pub fn drag_dof(&mut self, robot: usize, dof: usize, value: f64) -> Option<MoveOutcome> {
        let r = self.doc.world.robot(robot)?;
        if dof >= r.dofs.len() || !value.is_finite() {
            return None;
        }
        let (lo, hi) = r.dof_limits(dof);
        let mut target = r.dof_values().to_vec();
        target[dof] = value.clamp(lo, hi);
        let outcome = self.doc.world.move_dofs_to(robot, &target);
        self.after_move(outcome)
    }

    /// One step of an eigengrasp slider's drag: moves the robot's DOFs toward the posture with
    /// these amplitudes, stopping at contact.
    pub fn drag_eigen(&mut self, robot: usize, amplitudes: &[f64]) -> Option<MoveOutcome> {
        let outcome = self.doc.world.move_eigen_amplitudes(robot, amplitudes);
        self.after_move(outcome)
    }

    /// A whole eigengrasp change as one undo step: a typed amplitude.
    pub fn set_eigen(&mut self, robot: usize, amplitudes: &[f64]) -> Option<MoveOutcome> {
        self.begin_drag("eigengrasp change");
        let outcome = self.drag_eigen(robot, amplitudes);
        self.end_drag();
        outcome
    }

    /// A whole move as one undo step: the inspector's pose fields.
    pub fn move_element(&mut self, element: Element, pose: Pose) -> Option<MoveOutcome> {
        self.begin_drag("move");
        let outcome = self.drag_element_to(element, pose);
        self.end_drag();
        outcome
    }

    /// A whole DOF change as one undo step: the DOF sliders' typed values.
    pub fn set_dof(&mut self, robot: usize, dof: usize, value: f64) -> Option<MoveOutcome> {
        self.begin_drag("DOF change");
        let outcome = self.drag_dof(robot, dof, value);
        self.end_drag();
        outcome
    }

    /// Auto Grasp (closing) or Auto Open of a robot: every finger until contact or its limit.
    pub fn auto_grasp(&mut self, robot: usize, closing: bool) {
        self.begin_drag(if closing { "auto grasp" } else { "auto open" });
        let outcome = if closing {
            self.doc.world.auto_grasp(robot)
        } else {
            self.doc.world.auto_open(robot)
        };
        self.after_move(outcome);
        self.end_drag();
    }

    /// Puts a robot where a planned grasp left it: its palm, DOFs and breakaway states, one
    /// undo step.
    pub fn put_planned(&mut self, robot: usize, grasp: &clasp_core::GraspTrial) {
        self.begin_drag("planned grasp");
        match self.doc.world.put_grasp(robot, grasp) {
            Ok(()) => self.refresh_quality(true),
            Err(e) => self.error(format!("the planned grasp could not be put in place: {e}")),
        }
        self.end_drag();
    }

    /// Moves a robot along its approach direction until it touches something, at most
    /// `distance` mm (GraspIt's first half of the G key).
    pub fn approach(&mut self, robot: usize, distance: f64) {
        self.begin_drag("approach");
        let outcome = self.doc.world.approach_to_contact(robot, distance);
        self.after_move(outcome);
        self.end_drag();
    }

    fn after_move(
        &mut self,
        outcome: Result<MoveOutcome, clasp_core::MoveError>,
    ) -> Option<MoveOutcome> {
        match outcome {
            Ok(outcome) => {
                self.doc.touching = self.describe_stop(&outcome);
                self.refresh_quality(false);
                Some(outcome)
            }
            Err(e) => {
                self.error(format!("the move was refused: {e}"));
                None
            }
        }
    }

    /// "palm touches clasp_mug", for the status bar while a drag is held at contact.
    fn describe_stop(&self, outcome: &MoveOutcome) -> Option<String> {
        if outcome.blocked_by_overlap {
            return Some("blocked: it would go deeper into a body it overlaps".into());
        }
        let name = |id| self.doc.body_name(id);
        let mut pairs: Vec<String> = outcome
            .stopped_by
            .iter()
            .map(|&(a, b)| format!("{} touches {}", name(a), name(b)))
            .collect();
        pairs.dedup();
        (!pairs.is_empty()).then(|| pairs.join(", "))
    }

    // ---- bodies ----

    /// Changes a body's material (and so the friction of its contacts).
    pub fn set_material(&mut self, id: BodyId, material: Material) {
        if self
            .doc
            .world
            .body(id)
            .is_none_or(|b| b.material == material)
        {
            return;
        }
        self.checkpoint("material change");
        if let Err(e) = self.doc.world.set_material(id, material) {
            self.error(e.to_string());
            return;
        }
        self.refresh_quality(true);
    }

    /// Gives a body a collision group and mask (RaiSim's): what it meets changes at once, and
    /// the next move passes through what it no longer meets.
    pub fn set_collision_groups(&mut self, id: BodyId, groups: CollisionGroups) {
        if self.doc.world.body(id).is_none_or(|b| b.groups() == groups) {
            return;
        }
        self.checkpoint("collision groups change");
        if let Err(e) = self.doc.world.set_collision_groups(id, groups) {
            self.error(e.to_string());
            return;
        }
        self.refresh_quality(true);
    }

    /// Chooses the robot Auto Grasp, Auto Open and the quality shown use when no robot is
    /// selected (GraspIt's current hand).
    pub fn choose_hand(&mut self, robot: usize) {
        if self.doc.world.current_hand() == Some(robot) || self.doc.world.robot(robot).is_none() {
            return;
        }
        self.checkpoint("hand choice");
        self.doc.world.set_current_hand(robot);
        let name = self
            .doc
            .world
            .robot(robot)
            .map_or("?", |r| r.name.as_str())
            .to_owned();
        self.info(format!("grasping with {name}"));
        self.refresh_quality(true);
    }

    /// Changes the contact threshold, mm; a bad value is refused with a message.
    pub fn set_contact_threshold(&mut self, threshold: f64) {
        let before = self.doc.world.clone();
        match self.doc.world.set_contact_threshold(threshold) {
            Ok(()) => {
                self.push_undo(Snapshot {
                    world: before,
                    selection: self.selection.0.clone(),
                    what: "threshold change".into(),
                });
                self.refresh_quality(true);
            }
            Err(e) => self.error(e.to_string()),
        }
    }

    /// Delete: removes the selected free bodies and robots.
    pub fn delete_selection(&mut self) {
        let elements = self.selected_elements();
        if elements.is_empty() {
            return;
        }
        self.checkpoint("delete");
        // Removing renumbers nothing: every other id stays as it was.
        for &element in &elements {
            if let Err(e) = self.doc.world.remove_element(element) {
                self.error(e.to_string());
            }
        }
        self.info(format!("deleted {} element(s)", elements.len()));
        self.selection.0.clear();
        self.structure_changed();
    }

    // ---- quality ----

    /// Evaluates the grasp again. During a drag only epsilon (about a millisecond); the
    /// volume, which can take tens of milliseconds, once the drag ends.
    fn refresh_quality(&mut self, with_volume: bool) {
        let with_volume = with_volume && !self.dragging();
        self.doc.refresh_quality(with_volume);
    }
}

/// Whether any body stands elsewhere or any DOF differs.
fn poses_differ(a: &World, b: &World) -> bool {
    let ids = a.body_ids();
    ids != b.body_ids()
        || ids.iter().any(|&id| {
            let (Some(x), Some(y)) = (a.body(id), b.body(id)) else {
                return true;
            };
            x.pose() != y.pose()
        })
}

/// A unit vector along one of the world axes.
pub fn axis(i: usize) -> Vector3<f64> {
    let mut v = Vector3::zeros();
    v[i] = 1.0;
    v
}
