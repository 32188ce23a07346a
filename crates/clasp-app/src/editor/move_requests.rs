//! The editor's move requests: drags of an element, a DOF or an eigengrasp, whole moves as one
//! undo step, Auto Grasp and Auto Open, planned grasps and the approach to contact.

use clasp_core::{Element, MoveOutcome, Pose, RobotId, World};
use nalgebra::Vector3;

use super::requests::Editor;

impl Editor<'_> {
    /// Starts a drag: the moves until [`Editor::end_drag`] undo as one step.
    pub fn begin_drag(&mut self, what: &str) {
        if self.history.drag_start.is_none() {
            self.history.drag_start = Some(self.snapshot(what));
        }
    }

    /// Ends a drag; it goes into the history if it changed anything.
    pub fn end_drag(&mut self) {
        if self.simulation.held.is_some() {
            self.let_go();
        }
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

    /// One step of a drag: moves an element toward `pose`, stopping at contact; a hand an arm
    /// carries is moved by its arm. While the world plays, a free body is held instead and
    /// pushes what it meets (`crate::simulation`).
    pub fn drag_element_to(&mut self, element: Element, pose: Pose) -> Option<MoveOutcome> {
        if self.hold(element, pose) {
            return None;
        }
        let outcome = match element {
            Element::Robot(hand) if self.doc.world.carrier(hand).is_some() => {
                self.doc.world.move_hand_to(hand, pose)
            }
            _ => self.doc.world.move_to(element, pose),
        };
        self.after_move(outcome)
    }

    /// One step of a joint drag or a slider: moves DOF `dof` of `robot` toward `value` (clamped
    /// to its limits); coupled joints follow; each chain stops at contact.
    pub fn drag_dof(&mut self, robot: RobotId, dof: usize, value: f64) -> Option<MoveOutcome> {
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
    pub fn drag_eigen(&mut self, robot: RobotId, amplitudes: &[f64]) -> Option<MoveOutcome> {
        let outcome = self.doc.world.move_eigen_amplitudes(robot, amplitudes);
        self.after_move(outcome)
    }

    /// A whole eigengrasp change as one undo step: a typed amplitude.
    pub fn set_eigen(&mut self, robot: RobotId, amplitudes: &[f64]) -> Option<MoveOutcome> {
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
    pub fn set_dof(&mut self, robot: RobotId, dof: usize, value: f64) -> Option<MoveOutcome> {
        self.begin_drag("DOF change");
        let outcome = self.drag_dof(robot, dof, value);
        self.end_drag();
        outcome
    }

    /// Auto Grasp (closing) or Auto Open of a robot: every finger until contact or its limit.
    /// An Auto Grasp with the nearest object behind the palm says so: the fingers close the
    /// way the palm faces, away from it.
    pub fn auto_grasp(&mut self, robot: RobotId, closing: bool) {
        if closing && let Some(warning) = object_behind_palm(&self.doc.world, robot) {
            self.error(warning);
        }
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
    pub fn put_planned(&mut self, robot: RobotId, grasp: &clasp_core::GraspTrial) {
        self.begin_drag("planned grasp");
        match self.doc.world.put_grasp(robot, grasp) {
            Ok(()) => self.refresh_quality(true),
            Err(e) => self.error(format!("the planned grasp could not be put in place: {e}")),
        }
        self.end_drag();
    }

    /// Moves a robot along its approach direction until it touches something, at most
    /// `distance` mm (GraspIt's first half of the G key).
    pub fn approach(&mut self, robot: RobotId, distance: f64) {
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

/// "clasp_mug lies behind the palm of allegro_hand: …", where the graspable body nearest the
/// palm has its centre behind the palm's approach plane (GraspIt's approach direction, or the
/// one Clasp inferred): the fingers close the way the palm faces, away from it.
pub fn object_behind_palm(world: &clasp_core::World, robot: RobotId) -> Option<String> {
    let hand = world.robot(robot)?;
    let approach = hand.approach.as_ref()?;
    let palm = hand.pose();
    let (from, facing) = (
        palm * approach.reference,
        palm.rotation * approach.direction.into_inner(),
    );
    let (_, nearest) = world
        .free_bodies()
        .filter(|(_, b)| b.kind == clasp_core::BodyKind::Graspable)
        .map(|(_, b)| ((b.world_cog() - from).norm(), b))
        .min_by(|a, b| a.0.total_cmp(&b.0))?;
    let ahead = (nearest.world_cog() - from).dot(&facing);
    (ahead < 0.0).then(|| {
        format!(
            "{} lies behind the palm of {} ({:.0} mm): Auto Grasp closes the fingers the way the \
             palm faces; turn the hand to face it (View → Approach and closing draws which way)",
            nearest.name, hand.name, -ahead
        )
    })
}
