//! The editor's requests on a hand's own settings (docs/hands.md): the way its palm approaches,
//! each DOF's closing sense and effort, and the file beside a URDF or MJCF hand that keeps them.

use clasp_core::{HandApproach, RobotId};

use super::requests::Editor;

impl Editor<'_> {
    /// Gives a hand a new approach (palm frame, mm), one undo step; a bad one is refused.
    pub fn set_hand_approach(&mut self, robot: RobotId, approach: HandApproach) {
        let unchanged = self
            .doc
            .world
            .robot(robot)
            .is_none_or(|r| r.approach.as_ref() == Some(&approach));
        if unchanged {
            return;
        }
        let before = self.snapshot("approach change");
        match self.doc.world.set_hand_approach(robot, approach) {
            Ok(()) => self.push_undo(before),
            Err(e) => self.error(e.to_string()),
        }
    }

    /// Changes a DOF's Auto Grasp velocity (its sign the way it closes, 0 to leave it) and its
    /// effort (Clasp's units), one undo step; a bad value is refused.
    pub fn set_dof_drive(&mut self, robot: RobotId, dof: usize, velocity: f64, effort: f64) {
        let unchanged = self
            .doc
            .world
            .robot(robot)
            .and_then(|r| r.dofs.get(dof))
            .is_none_or(|d| d.default_velocity == velocity && d.max_effort == effort);
        if unchanged {
            return;
        }
        let before = self.snapshot("DOF drive change");
        match self.doc.world.set_dof_drive(robot, dof, velocity, effort) {
            Ok(()) => self.push_undo(before),
            Err(e) => self.error(e.to_string()),
        }
    }

    /// Saves a URDF or MJCF hand's settings as they stand to `NAME.clasp.xml` beside its file,
    /// where the hand reads them the next time it loads. GraspIt's hands keep theirs in their
    /// own robot files (Save World writes them).
    pub fn save_hand_settings(&mut self, robot: RobotId) -> bool {
        let Some(hand) = self.doc.world.robot(robot) else {
            return false;
        };
        let Some(file) = hand_file(hand) else {
            self.error(format!(
                "{} is not a URDF or MJCF hand: its settings live in its own robot file",
                hand.name
            ));
            return false;
        };
        match clasp_io::write_hand_settings(hand, &file) {
            Ok(path) => {
                self.info(format!(
                    "saved {}'s settings to {}",
                    hand.name,
                    path.display()
                ));
                true
            }
            Err(e) => {
                self.error(format!("cannot save {}: {}", e.file.display(), e.message));
                false
            }
        }
    }
}

/// The URDF or MJCF file a hand was read from, where its settings file goes beside.
pub fn hand_file(hand: &clasp_core::Robot) -> Option<std::path::PathBuf> {
    let file = hand.source.as_ref()?;
    let extension = file.extension()?.to_string_lossy().to_ascii_lowercase();
    let urdf_or_mjcf = extension == "urdf" || (extension == "xml" && is_mjcf(file));
    urdf_or_mjcf.then(|| file.clone())
}

/// GraspIt's robot files are XML too; an MJCF model's root is `<mujoco>`.
fn is_mjcf(file: &std::path::Path) -> bool {
    std::fs::read_to_string(file).is_ok_and(|text| text.contains("<mujoco"))
}
