//! The dynamics' state in the editor: whether it plays, the simulated time and how it keeps up
//! with the clock, the body the user holds while it plays, and the selected body's trace for
//! the plot. Play, Pause, Step and the frame's advance are in `crate::simulation`.

use std::collections::VecDeque;

use bevy::prelude::Resource;
use clasp_core::{BodyId, BodyType, Pose};

/// How many samples the plot keeps: one a frame, so about ten seconds at 60 frames a second.
pub const TRACE_LENGTH: usize = 600;

/// Play, Pause and what a run has done so far.
#[derive(Resource, Debug, Default)]
pub struct Simulation {
    pub playing: bool,
    /// Simulated seconds since the world was opened (Undo puts it back with the world).
    pub time: f64,
    /// Simulated seconds per second of the clock over the last frame played; `None` until one.
    pub real_time_factor: Option<f64>,
    pub trace: Trace,
    /// The body the user drags while it plays.
    pub(crate) held: Option<Held>,
    /// Simulated seconds owed to the clock: a frame rarely lasts whole steps.
    pub(crate) owed: f64,
}

/// A body dragged while the world plays: kinematic while held, steered to the pointer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Held {
    pub body: BodyId,
    /// Its type before the drag, given back when it ends.
    pub was: BodyType,
    /// Where the pointer wants it.
    pub target: Pose,
}

/// The selected body's height, speed and kinetic energy over simulated time.
#[derive(Debug, Default, Clone)]
pub struct Trace {
    pub body: Option<BodyId>,
    pub samples: VecDeque<Sample>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Simulated seconds.
    pub time: f64,
    /// Its centre's height (z), mm.
    pub height: f64,
    /// Its centre's speed, mm/s.
    pub speed: f64,
    /// Kinetic energy, µJ.
    pub kinetic_energy: f64,
}

impl Trace {
    /// Adds a sample of `body`; a trace of another body starts afresh.
    pub fn record(&mut self, body: BodyId, sample: Sample) {
        if self.body != Some(body) {
            self.body = Some(body);
            self.samples.clear();
        }
        if self.samples.len() == TRACE_LENGTH {
            self.samples.pop_front();
        }
        self.samples.push_back(sample);
    }
}
