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
    /// How the run keeps up with the clock.
    pub meter: RealTimeMeter,
    pub trace: Trace,
    /// The body the user drags while it plays.
    pub(crate) held: Option<Held>,
    /// Simulated seconds owed to the clock: a frame rarely lasts whole steps.
    pub(crate) owed: f64,
}

/// The wall-clock span the real-time factor is taken over, seconds.
const METER_SPAN: f64 = 1.0;

/// Simulated time against the wall clock while the world plays: the factor over the last
/// second, the frame time that limits it, and the whole run's totals.
#[derive(Debug, Default, Clone)]
pub struct RealTimeMeter {
    /// (wall-clock seconds, simulated seconds) after each frame of the last second, and the
    /// one before it.
    recent: VecDeque<(f64, f64)>,
    /// Where the run began: (wall-clock seconds, simulated seconds).
    started: Option<(f64, f64)>,
}

/// What the meter shows.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct RealTimeReading {
    /// Simulated seconds per wall-clock second over the last second.
    pub factor: f64,
    /// The median frame of the last second, milliseconds.
    pub frame_ms: f64,
    /// Wall-clock seconds since Play.
    pub run_wall_seconds: f64,
    /// Simulated seconds since Play.
    pub run_simulated_seconds: f64,
}

impl RealTimeMeter {
    /// Play pressed at `wall` (seconds of the clock) with the world at `simulated`.
    pub fn start(&mut self, wall: f64, simulated: f64) {
        self.recent.clear();
        self.recent.push_back((wall, simulated));
        self.started = Some((wall, simulated));
    }

    /// Paused: nothing to show until Play again.
    pub fn stop(&mut self) {
        self.recent.clear();
        self.started = None;
    }

    /// A frame played: the clock says `wall`, the world is at `simulated`.
    pub fn record(&mut self, wall: f64, simulated: f64) {
        if self.started.is_none() {
            self.start(wall, simulated);
            return;
        }
        self.recent.push_back((wall, simulated));
        while self.recent.len() > 2 && self.recent[1].0 <= wall - METER_SPAN {
            self.recent.pop_front();
        }
    }

    /// The figures, once a frame has played since Play.
    pub fn reading(&self) -> Option<RealTimeReading> {
        let (&(wall0, sim0), &(wall1, sim1)) = (self.recent.front()?, self.recent.back()?);
        let (start_wall, start_sim) = self.started?;
        let span = wall1 - wall0;
        if span <= 0.0 {
            return None;
        }
        let mut frames: Vec<f64> = self
            .recent
            .iter()
            .zip(self.recent.iter().skip(1))
            .map(|(a, b)| b.0 - a.0)
            .collect();
        frames.sort_by(f64::total_cmp);
        Some(RealTimeReading {
            factor: (sim1 - sim0) / span,
            frame_ms: frames[frames.len() / 2] * 1000.0,
            run_wall_seconds: wall1 - start_wall,
            run_simulated_seconds: sim1 - start_sim,
        })
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_meter_reads_simulated_time_over_the_wall_clock_of_the_last_second() {
        let mut meter = RealTimeMeter::default();
        assert_eq!(meter.reading(), None);
        meter.start(10.0, 0.0);
        // Frames of 256 ms that each advance the world 87 ms: 0.34 of real time.
        for k in 1..=20 {
            meter.record(10.0 + 0.256 * k as f64, 0.087 * k as f64);
        }
        let r = meter.reading().unwrap();
        assert!((r.factor - 0.087 / 0.256).abs() < 1e-9, "{r:?}");
        assert!((r.frame_ms - 256.0).abs() < 1e-6);
        assert!((r.run_wall_seconds - 20.0 * 0.256).abs() < 1e-9);
        assert!((r.run_simulated_seconds - 20.0 * 0.087).abs() < 1e-9);
        // Then it keeps up: within a second the factor is 1 again, the run's totals go on.
        let (wall, simulated) = (10.0 + 20.0 * 0.256, 20.0 * 0.087);
        for k in 1..=100 {
            meter.record(wall + 0.016 * k as f64, simulated + 0.016 * k as f64);
        }
        let r = meter.reading().unwrap();
        assert!((r.factor - 1.0).abs() < 1e-9, "{r:?}");
        assert!((r.frame_ms - 16.0).abs() < 1e-6);
        assert!((r.run_wall_seconds - (20.0 * 0.256 + 1.6)).abs() < 1e-9);
        meter.stop();
        assert_eq!(meter.reading(), None, "nothing shows once paused");
    }
}
