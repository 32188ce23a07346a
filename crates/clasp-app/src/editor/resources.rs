//! The editor's resources: the world the user works on ([`Document`]), the [`Selection`], the
//! [`Log`], the [`ViewSettings`], what the camera should frame next ([`FrameRequest`]) and the
//! camera the user left ([`ShownCamera`]). They change only through the requests in
//! `super::requests` and the modules beside it.

use std::path::PathBuf;

use bevy::prelude::Resource;
use clasp_core::{
    BodyId, Camera, ContactOptions, Element, Quality, RobotId, World, WrenchSpaceKind,
};
use nalgebra::Point3;

/// The world the user works on, where it came from, and what it tells of the grasp. Systems
/// read it freely; it changes only through [`Editor`]'s requests, so the history, the log and
/// the views stay in step.
///
/// [`Editor`]: super::requests::Editor
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
    pub(super) fn refresh_quality(&mut self, with_volume: bool) {
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
    pub fn robot(&self) -> Option<RobotId> {
        match self.elements().as_slice() {
            [Element::Robot(r)] => Some(*r),
            _ => None,
        }
    }

    /// What the user picked, in the order picked: a free body, a whole robot (every body of it
    /// selected, as an import or a double-click leaves it), or a robot's body picked alone.
    pub fn items(&self, world: &World) -> Vec<Picked> {
        let mut items: Vec<Picked> = Vec::new();
        for &id in &self.0 {
            let item = match id.element() {
                Element::Robot(r) if whole_element(world, &self.0, id.element()) => {
                    Picked::Robot(r)
                }
                _ => Picked::Body(id),
            };
            if !items.contains(&item) {
                items.push(item);
            }
        }
        items
    }
}

/// One thing the user picked (see [`Selection::items`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Picked {
    Body(BodyId),
    Robot(RobotId),
}

impl Picked {
    /// The bodies it stands for.
    pub fn bodies(self, world: &World) -> Vec<BodyId> {
        match self {
            Picked::Body(id) => vec![id],
            Picked::Robot(r) => world.element_bodies(Element::Robot(r)),
        }
    }

    /// A whole element: a free body, or a robot.
    pub fn element(element: Element) -> Self {
        match element {
            Element::Body(i) => Picked::Body(BodyId::Free(i)),
            Element::Robot(r) => Picked::Robot(r),
        }
    }

    /// "clasp_mug", "robot allegro_hand".
    pub fn describe(self, world: &World) -> String {
        match self {
            Picked::Body(id) => world.body(id).map_or("?".into(), |b| b.name.clone()),
            Picked::Robot(r) => format!(
                "robot {}",
                world.robot(r).map_or("?", |robot| robot.name.as_str())
            ),
        }
    }
}

/// Whether every body of `element` is among `selected`.
pub fn whole_element(world: &World, selected: &[BodyId], element: Element) -> bool {
    world
        .element_bodies(element)
        .iter()
        .all(|b| selected.contains(b))
}

/// The log panel's lines, oldest first, and the error the status bar shows.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct Log {
    pub entries: Vec<LogEntry>,
    /// The entry of the error the status bar shows: the last one, until the world changes
    /// after it (an edit, an undo, another world), when it is no longer true.
    pub standing_error: Option<usize>,
}

impl std::ops::Deref for Log {
    type Target = [LogEntry];
    fn deref(&self) -> &[LogEntry] {
        &self.entries
    }
}

impl Log {
    /// Adds a line; an error stands in the status bar from now on.
    pub fn push(&mut self, entry: LogEntry) {
        if entry.error {
            self.standing_error = Some(self.entries.len());
        }
        self.entries.push(entry);
    }

    /// The error the status bar shows, if one still stands.
    pub fn standing_error(&self) -> Option<&LogEntry> {
        self.entries.get(self.standing_error?)
    }

    /// Forgets every line.
    pub fn clear(&mut self) {
        *self = Log::default();
    }
}

/// A line of the log panel; errors also show as a notification.
#[derive(Debug, Clone, PartialEq)]
pub struct LogEntry {
    pub error: bool,
    pub text: String,
    /// When it was said: the wall clock, "13:42:07" (UTC).
    pub at: String,
}

impl LogEntry {
    /// A line said now.
    pub fn new(error: bool, text: impl Into<String>) -> Self {
        let seconds = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Self {
            error,
            text: text.into(),
            at: clock_time(seconds),
        }
    }
}

/// "13:42:07": the time of day (UTC) `seconds` after 1970 began.
pub fn clock_time(seconds: u64) -> String {
    let of_day = seconds % 86_400;
    format!(
        "{:02}:{:02}:{:02}",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60
    )
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
    /// Where each hand's palm faces (GraspIt's approach direction, or what Clasp worked out
    /// of a URDF or MJCF hand's kinematics), as an arrow from the palm.
    pub approach_shown: bool,
    /// Height of a friction cone marker, mm (GraspIt's `Body::CONE_HEIGHT`).
    pub cone_height: f64,
    /// Each contact's force of the last step, as an arrow beside its cone.
    pub forces_shown: bool,
    /// The selected body's height, speed and energy over simulated time.
    pub plot_shown: bool,
    pub help_shown: bool,
    /// The planner window (Grasp → Plan).
    pub planner_shown: bool,
    /// Frames a second and frame times in the status bar.
    pub frame_rate_shown: bool,
}

impl Default for ViewSettings {
    fn default() -> Self {
        Self {
            wireframe: false,
            transparent: false,
            contacts_shown: true,
            virtual_contacts_shown: false,
            approach_shown: false,
            cone_height: 20.0,
            forces_shown: true,
            plot_shown: false,
            help_shown: false,
            planner_shown: false,
            frame_rate_shown: false,
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
