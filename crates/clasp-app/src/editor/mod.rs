//! The app's state and every request a user makes of it: the world, the selection, the undo
//! history and the log. No Bevy systems live here; they turn pointer and keyboard input into
//! these requests and show the result (design: input → request → core → ECS view).

use std::path::{Path, PathBuf};

use bevy::prelude::Resource;
use clasp_core::{
    BodyId, CollisionGroups, ContactOptions, Element, Material, MoveOutcome, Pose, Quality, World,
    WrenchSpaceKind,
};
use nalgebra::{Point3, Vector3};

pub use crate::files::ImportKind;
use crate::files::{self, Loaded};

mod file_requests;
mod history;

/// How many steps Undo can go back.
const HISTORY_LIMIT: usize = 100;

/// Everything the user works on. Systems read `world` freely but change it only through the
/// methods here, so that the history, the log and the views stay in step.
#[derive(Resource)]
pub struct Editor {
    pub world: World,
    /// What is open: "default scene" or the world file's path.
    pub source: String,
    /// Where Save writes; `None` until the world was opened from or saved to a file.
    pub path: Option<PathBuf>,
    /// The selected bodies in the order they were picked. A robot's link stands for its robot
    /// when moving or toggling collisions.
    pub selection: Vec<BodyId>,
    pub log: Vec<LogEntry>,
    /// Files opened or saved, newest first.
    pub recent: Vec<PathBuf>,
    pub view: ViewSettings,
    /// Bumped whenever bodies come or go: the ECS views are spawned again.
    pub structure_revision: u64,
    /// Bumped whenever anything in the world changes: poses, materials, contacts.
    pub revision: u64,
    /// A box the camera should frame next (after an import or View All).
    pub frame_request: Option<(Point3<f64>, Point3<f64>)>,
    /// Whether the element being dragged is held at contact, and by what.
    pub touching: Option<String>,
    pub quality: QualityReport,
    history: History,
    /// The world as it was when the current drag began.
    drag_start: Option<Snapshot>,
}

/// A line of the log panel; errors also show as a notification.
#[derive(Debug, Clone, PartialEq)]
pub struct LogEntry {
    pub error: bool,
    pub text: String,
}

/// How the scene is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct ViewSettings {
    pub wireframe: bool,
    pub transparent: bool,
    pub contacts_shown: bool,
    /// Height of a friction cone marker, mm (GraspIt's `Body::CONE_HEIGHT`).
    pub cone_height: f64,
    pub help_shown: bool,
}

impl Default for ViewSettings {
    fn default() -> Self {
        Self {
            wireframe: false,
            transparent: false,
            contacts_shown: true,
            cone_height: 20.0,
            help_shown: false,
        }
    }
}

/// The grasp quality of the first robot on the first graspable body, as last computed.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum QualityReport {
    /// No robot or no graspable body.
    #[default]
    NoGrasp,
    Computed(Quality),
    /// The grasp could not be evaluated, and why.
    Failed(String),
}

/// A state Undo returns to.
#[derive(Clone)]
struct Snapshot {
    world: World,
    selection: Vec<BodyId>,
    what: String,
}

#[derive(Default)]
struct History {
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
}

impl Editor {
    pub fn new(world: World, source: impl Into<String>, path: Option<PathBuf>) -> Self {
        let mut editor = Self {
            world,
            source: source.into(),
            path,
            selection: Vec::new(),
            log: Vec::new(),
            recent: Vec::new(),
            view: ViewSettings::default(),
            structure_revision: 0,
            revision: 0,
            frame_request: None,
            touching: None,
            quality: QualityReport::NoGrasp,
            history: History::default(),
            drag_start: None,
        };
        editor.refresh_quality(true);
        editor
    }

    pub fn info(&mut self, text: impl Into<String>) {
        self.log.push(LogEntry {
            error: false,
            text: text.into(),
        });
    }

    pub fn error(&mut self, text: impl Into<String>) {
        self.log.push(LogEntry {
            error: true,
            text: text.into(),
        });
    }

    // ---- selection ----

    /// Click: selects only `id`. Shift-click (`add`): adds it, or takes it out if it was in.
    pub fn click_body(&mut self, id: BodyId, add: bool) {
        if self.world.body(id).is_none() {
            return;
        }
        if !add {
            self.selection = vec![id];
        } else if let Some(at) = self.selection.iter().position(|&s| s == id) {
            self.selection.remove(at);
        } else {
            self.selection.push(id);
        }
    }

    /// Double-click on a robot's body: selects the whole robot (palm and every link).
    pub fn select_robot_of(&mut self, id: BodyId) {
        match id.robot() {
            Some(robot) => self.selection = self.world.element_bodies(Element::Robot(robot)),
            None => self.click_body(id, false),
        }
    }

    pub fn clear_selection(&mut self) {
        self.selection.clear();
    }

    /// The selected elements, each once, in the order they were first picked.
    pub fn selected_elements(&self) -> Vec<Element> {
        let mut elements: Vec<Element> = Vec::new();
        for id in &self.selection {
            let element = id.element();
            if !elements.contains(&element) {
                elements.push(element);
            }
        }
        elements
    }

    /// The robot the selection is on, if it is on exactly one robot's bodies.
    pub fn selected_robot(&self) -> Option<usize> {
        match self.selected_elements().as_slice() {
            [Element::Robot(r)] => Some(*r),
            _ => None,
        }
    }

    // ---- collisions ----

    /// The Toggle Collision button's state for the current selection.
    pub fn collisions_on(&self) -> bool {
        self.world.collisions_on(&self.selected_elements())
    }

    /// Toggle Collision: nothing selected → the world; two elements → that pair; one or three
    /// or more → each against everything. Contacts are found again at once.
    pub fn toggle_collisions(&mut self) -> bool {
        let elements = self.selected_elements();
        let before = self.snapshot("toggle collisions");
        let on = self.world.toggle_collisions(&elements);
        let what = match elements.len() {
            0 => "the world".to_string(),
            2 => "the selected pair".to_string(),
            n => format!("{n} selected element{}", if n == 1 { "" } else { "s" }),
        };
        // Switching collisions back on between bodies that pass into each other would leave the
        // world in a state no move may make (GraspIt's trap): refuse, and say which.
        let overlapping = if on {
            self.world.overlapping_pairs()
        } else {
            Vec::new()
        };
        if let Some(&(a, b)) = overlapping.first() {
            self.world = before.world;
            let name = |id| self.world.body(id).map_or("?", |b| b.name.as_str());
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
        self.changed();
        self.refresh_quality(true);
        on
    }

    // ---- moves ----

    /// Starts a drag: the moves until [`Editor::end_drag`] undo as one step.
    pub fn begin_drag(&mut self, what: &str) {
        if self.drag_start.is_none() {
            self.drag_start = Some(self.snapshot(what));
        }
    }

    /// Ends a drag; it goes into the history if it changed anything.
    pub fn end_drag(&mut self) {
        self.touching = None;
        if let Some(start) = self.drag_start.take() {
            if poses_differ(&start.world, &self.world) {
                self.push_undo(start);
            }
            self.refresh_quality(true);
        }
    }

    pub fn dragging(&self) -> bool {
        self.drag_start.is_some()
    }

    /// One step of a drag: moves an element toward `pose`, stopping at contact.
    pub fn drag_element_to(&mut self, element: Element, pose: Pose) -> Option<MoveOutcome> {
        let outcome = self.world.move_to(element, pose);
        self.after_move(outcome)
    }

    /// One step of a joint drag or a slider: moves DOF `dof` of `robot` toward `value` (clamped
    /// to its limits); coupled joints follow; each chain stops at contact.
    pub fn drag_dof(&mut self, robot: usize, dof: usize, value: f64) -> Option<MoveOutcome> {
        let r = self.world.robot(robot)?;
        if dof >= r.dofs.len() || !value.is_finite() {
            return None;
        }
        let (lo, hi) = r.dof_limits(dof);
        let mut target = r.dof_values().to_vec();
        target[dof] = value.clamp(lo, hi);
        let outcome = self.world.move_dofs_to(robot, &target);
        self.after_move(outcome)
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
            self.world.auto_grasp(robot)
        } else {
            self.world.auto_open(robot)
        };
        self.after_move(outcome);
        self.end_drag();
    }

    /// Moves a robot along its approach direction until it touches something, at most
    /// `distance` mm (GraspIt's first half of the G key).
    pub fn approach(&mut self, robot: usize, distance: f64) {
        self.begin_drag("approach");
        let outcome = self.world.approach_to_contact(robot, distance);
        self.after_move(outcome);
        self.end_drag();
    }

    fn after_move(
        &mut self,
        outcome: Result<MoveOutcome, clasp_core::MoveError>,
    ) -> Option<MoveOutcome> {
        match outcome {
            Ok(outcome) => {
                self.touching = self.describe_stop(&outcome);
                self.changed();
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
        let name = |id| self.world.body(id).map_or("?", |b| b.name.as_str());
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
        if self.world.body(id).is_none_or(|b| b.material == material) {
            return;
        }
        self.checkpoint("material change");
        if let Err(e) = self.world.set_material(id, material) {
            self.error(e.to_string());
            return;
        }
        self.changed();
        self.refresh_quality(true);
    }

    /// Gives a body a collision group and mask (RaiSim's): what it meets changes at once, and
    /// the next move passes through what it no longer meets.
    pub fn set_collision_groups(&mut self, id: BodyId, groups: CollisionGroups) {
        if self.world.body(id).is_none_or(|b| b.groups() == groups) {
            return;
        }
        self.checkpoint("collision groups change");
        if let Err(e) = self.world.set_collision_groups(id, groups) {
            self.error(e.to_string());
            return;
        }
        self.changed();
        self.refresh_quality(true);
    }

    /// Changes the contact threshold, mm; a bad value is refused with a message.
    pub fn set_contact_threshold(&mut self, threshold: f64) {
        let before = self.world.clone();
        match self.world.set_contact_threshold(threshold) {
            Ok(()) => {
                self.push_undo(Snapshot {
                    world: before,
                    selection: self.selection.clone(),
                    what: "threshold change".into(),
                });
                self.changed();
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
            if let Err(e) = self.world.remove_element(element) {
                self.error(e.to_string());
            }
        }
        self.info(format!("deleted {} element(s)", elements.len()));
        self.selection.clear();
        self.structure_changed();
    }

    // ---- quality ----

    /// Evaluates the grasp again. During a drag only epsilon (about a millisecond); the
    /// volume, which can take tens of milliseconds, once the drag ends.
    fn refresh_quality(&mut self, with_volume: bool) {
        let first_robot = self.world.robots().next().map(|(r, _)| r);
        let (Some(object), Some(robot)) = (self.world.grasped_object(), first_robot) else {
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
        let with_volume = with_volume && !self.dragging();
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
