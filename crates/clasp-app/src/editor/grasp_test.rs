//! The physics test of the grasp in the editor: the run in progress on a worker thread and
//! its answer, shown until closed. What starts, finishes and draws it is in
//! `crate::grasp_test`.

use bevy::{
    prelude::*,
    tasks::{Task, block_on, poll_once},
};
use clasp_core::{BodyId, HoldTest, MoveError, RobotId, World};

/// Grasp → Test Grasp: the run and what it found.
#[derive(Resource)]
pub struct GraspTest {
    job: Option<Task<Result<HoldTest, MoveError>>>,
    /// The last test's answer, drawn and listed until closed.
    pub result: Option<HoldTest>,
    /// Wait for a run in the frame after it started (tests).
    pub wait: bool,
    /// The hand and the object of the run in progress.
    pub subject: Option<(RobotId, BodyId)>,
    /// The answer being played back in the window, one direction after another.
    pub playback: Option<Playback>,
    /// Which test runs: one of [`clasp_core::PRESETS`] (Clasp's own first, the default).
    pub preset: &'static str,
}

/// A test played back: the world shows the hand and the object as the test moved them, while
/// the grasp itself waits here to be put back.
pub struct Playback {
    /// The world as the grasp left it: shown again when the playback ends.
    pub grasp: World,
    pub robot: RobotId,
    pub object: BodyId,
    /// The direction playing (0..6, the test's order) and seconds into it.
    pub direction: usize,
    pub elapsed: f64,
}

impl Playback {
    /// The moment of the playing direction's path reached (past its end during the pause).
    pub fn moment(&self) -> usize {
        (self.elapsed / clasp_core::HOLD_PATH_INTERVAL) as usize
    }
}

impl Default for GraspTest {
    fn default() -> Self {
        Self {
            job: None,
            result: None,
            wait: false,
            subject: None,
            playback: None,
            preset: clasp_core::PRESETS[0],
        }
    }
}

impl GraspTest {
    /// The settings of the chosen test.
    pub fn settings(&self) -> clasp_core::HoldSettings {
        clasp_core::HoldSettings::preset(self.preset).unwrap_or_default()
    }

    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    pub fn begin(&mut self, task: Task<Result<HoldTest, MoveError>>, subject: (RobotId, BodyId)) {
        self.job = Some(task);
        self.subject = Some(subject);
    }

    /// The run's answer once it has ended, else None.
    pub fn take_finished(&mut self) -> Option<Result<HoldTest, MoveError>> {
        let job = self.job.as_mut()?;
        let result = match self.wait {
            true => Some(block_on(job)),
            false => block_on(poll_once(job)),
        }?;
        self.job = None;
        Some(result)
    }
}
