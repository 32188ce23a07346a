//! The [`Editor`] system param, which borrows the editor's resources together, and its requests
//! on the log, the selection, collisions and bodies. Moves, undo and files have their own
//! modules beside this one.

use bevy::{
    ecs::system::{SystemParam, SystemState},
    prelude::{Res, ResMut, Resource},
};
use clasp_core::{BodyId, CollisionGroups, Element, Material, RobotId};

use super::grasp_test::GraspTest;
use super::history::History;
use super::plans::Planning;
use super::resources::{
    Document, FrameRequest, Log, LogEntry, Selection, ShownCamera, ViewSettings,
};
use super::simulation::Simulation;
use super::timeline::Timeline;

/// Every resource a request may change, borrowed together. Systems that only look take
/// `Res<Document>`, `Res<Selection>` and the others instead, so they mark nothing changed.
#[derive(SystemParam)]
pub struct Editor<'w> {
    pub doc: ResMut<'w, Document>,
    pub selection: ResMut<'w, Selection>,
    pub log: ResMut<'w, Log>,
    pub view: ResMut<'w, ViewSettings>,
    pub framing: ResMut<'w, FrameRequest>,
    pub(super) history: ResMut<'w, History>,
    pub(super) shown_camera: Res<'w, ShownCamera>,
    /// The grasp planner's settings, run and findings (Grasp → Plan).
    pub planning: ResMut<'w, Planning>,
    /// Play, Pause and the run so far.
    pub simulation: ResMut<'w, Simulation>,
    /// Grasp → Test Grasp's run and answer.
    pub grasp_test: ResMut<'w, GraspTest>,
    /// The moments a run went through, for the slider under the view.
    pub timeline: ResMut<'w, Timeline>,
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
    world.init_resource::<Simulation>();
    world.init_resource::<GraspTest>();
    world.init_resource::<Timeline>();
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
    carry::<Simulation>(from, to);
    carry::<GraspTest>(from, to);
    carry::<Timeline>(from, to);
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
        self.log.push(LogEntry::new(false, text));
    }

    /// Says what went wrong: in the log, as a notification, and in the status bar until the
    /// world changes.
    pub fn error(&mut self, text: impl Into<String>) {
        self.log.push(LogEntry::new(true, text));
    }

    /// The world changed (an edit, an undo, another world): the error the status bar showed
    /// was about the world before, and leaves it. The log keeps it.
    pub(crate) fn world_changed(&mut self) {
        // Looked at first: only a real change marks the log changed for the panels.
        if self.log.standing_error.is_some() {
            self.log.standing_error = None;
        }
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
    pub fn selected_robot(&self) -> Option<RobotId> {
        self.selection.robot()
    }

    // ---- collisions ----

    /// The Toggle Collision button's state for the current selection.
    pub fn collisions_on(&self) -> bool {
        self.doc.world.collisions_on_for(&self.picked_bodies())
    }

    /// The bodies of each thing picked (see [`Selection::items`]).
    fn picked_bodies(&self) -> Vec<Vec<BodyId>> {
        let world = &self.doc.world;
        self.selection
            .items(world)
            .into_iter()
            .map(|item| item.bodies(world))
            .collect()
    }

    /// What Toggle Collision switches for the current selection, in words: "the world", "the
    /// pair clasp_mug and clasp_table", "clasp_mug against everything".
    pub fn collision_target(&self) -> String {
        let world = &self.doc.world;
        let items = self.selection.items(world);
        match items.as_slice() {
            [] => "the world".into(),
            [one] => format!("{} against everything", one.describe(world)),
            [a, b] => format!("the pair {} and {}", a.describe(world), b.describe(world)),
            many => format!("each of {} selected against everything", many.len()),
        }
    }

    /// Toggle Collision: nothing selected → the world; two picked → that pair; one or three
    /// or more → each against everything. A robot's link picked alone is that link, a whole
    /// robot picked (a double-click, an import) the robot. Contacts are found again at once.
    pub fn toggle_collisions(&mut self) -> bool {
        let groups = self.picked_bodies();
        let what = self.collision_target();
        let before = self.snapshot("toggle collisions");
        let on = self.doc.world.toggle_collisions_for(&groups);
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
    pub fn choose_hand(&mut self, robot: RobotId) {
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
        let before = self.snapshot("threshold change");
        match self.doc.world.set_contact_threshold(threshold) {
            Ok(()) => {
                self.push_undo(before);
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
    pub(crate) fn refresh_quality(&mut self, with_volume: bool) {
        let with_volume = with_volume && !self.dragging();
        self.doc.refresh_quality(with_volume);
    }
}
