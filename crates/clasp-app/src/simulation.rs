//! Play, Pause and Step: the world's dynamics in the app. While it plays, each frame advances
//! the world by the frame's time in whole steps (at most a frame's worth of the clock spent on
//! them, so the window keeps drawing: the status bar shows how far behind real time that
//! leaves it). A body dragged while it plays becomes kinematic and is steered to the pointer,
//! pushing what it meets (MuJoCo's perturbation); it gets its type back when let go. Play
//! takes an undo step, so Undo after a run puts the world back where Play found it. The run's
//! moments go onto the timeline (`crate::timeline`); Play goes on from the moment it shows.

use std::time::{Duration, Instant};

use bevy::prelude::*;
use clasp_core::{BodyId, BodyType, Element, Pose, Velocity};
use nalgebra::UnitQuaternion;

use crate::{
    editor::{requests::Editor, simulation::Held, simulation::Sample},
    systems::ClaspSystems,
};

/// The shortest and longest frame a run advances by, seconds: a stalled frame (a dialog, a
/// load) does not make the world leap.
const FRAME_RANGE: (f64, f64) = (1.0 / 240.0, 0.1);

/// The share of a frame's clock time the steps may take.
const STEPPING_SHARE: f64 = 0.8;

impl Editor<'_> {
    /// Play: the world moves under gravity from now on, one undo step for the whole run.
    pub fn play(&mut self) {
        if self.simulation.playing {
            return;
        }
        self.checkpoint("simulation");
        self.continue_timeline();
        self.simulation.playing = true;
        self.simulation.owed = 0.0;
        self.simulation.meter.stop();
    }

    /// Pause: the world stays where the run left it.
    pub fn pause(&mut self) {
        if !self.simulation.playing {
            return;
        }
        // The run's last frame is its last moment on the timeline.
        self.remember_moment();
        self.let_go();
        self.simulation.playing = false;
        self.simulation.meter.stop();
        self.refresh_quality(true);
    }

    pub fn toggle_play(&mut self) {
        match self.simulation.playing {
            true => self.pause(),
            false => self.play(),
        }
    }

    /// Step: pauses, and advances the world one time step (one undo step).
    pub fn step_once(&mut self) {
        self.pause();
        self.checkpoint("simulation step");
        self.continue_timeline();
        self.take_steps(1, None);
        self.remember_moment();
        self.refresh_quality(true);
    }

    /// A frame of a run: `frame` seconds of the clock passed since the last, and the clock
    /// reads `wall` seconds (for the real-time factor).
    pub fn advance(&mut self, frame: f64, wall: f64) {
        if !self.simulation.playing {
            return;
        }
        let frame = frame.clamp(FRAME_RANGE.0, FRAME_RANGE.1);
        self.steer_held(frame);
        let dt = self.doc.world.time_step();
        let wanted = self.simulation.owed + frame;
        let steps = (wanted / dt).floor() as usize;
        self.simulation.owed = wanted - steps as f64 * dt;
        let budget = Duration::from_secs_f64(frame * STEPPING_SHARE);
        let taken = self.take_steps(steps, Some(budget));
        if taken < steps {
            // Behind the clock: what is left is dropped, not owed, so the run never spirals.
            self.simulation.owed = 0.0;
        }
        let simulated = self.simulation.time;
        self.simulation.meter.record(wall, simulated);
        self.remember_frame();
        self.record_trace();
        self.refresh_quality(false);
    }

    /// Takes up to `steps` steps, stopping when `budget` of the clock is spent; returns how
    /// many. A step the world refuses stops the run with the world at its last good step.
    fn take_steps(&mut self, steps: usize, budget: Option<Duration>) -> usize {
        let started = Instant::now();
        for taken in 0..steps {
            if budget.is_some_and(|b| started.elapsed() > b) {
                return taken;
            }
            if let Err(e) = self.doc.world.step() {
                self.pause();
                self.error(format!("the simulation stopped: {e}"));
                return taken;
            }
            self.simulation.time += self.doc.world.time_step();
        }
        steps
    }

    /// While it plays, a drag of a free body holds it: kinematic, steered towards `target`
    /// by the frames that follow. Returns false for anything else, which moves as always.
    pub(crate) fn hold(&mut self, element: Element, target: Pose) -> bool {
        let Element::Body(i) = element else {
            return false;
        };
        let body = BodyId::Free(i);
        let Some(was) = self.doc.world.body(body).map(|b| b.body_type()) else {
            return false;
        };
        if !self.simulation.playing || was == BodyType::Static {
            return false;
        }
        match &mut self.simulation.held {
            Some(held) if held.body == body => held.target = target,
            _ => {
                self.let_go();
                if self
                    .doc
                    .world
                    .set_body_type(body, BodyType::Kinematic)
                    .is_err()
                {
                    return false;
                }
                self.simulation.held = Some(Held { body, was, target });
            }
        }
        true
    }

    /// Ends a hold: the body gets its type back and keeps the velocity it was moving with.
    pub(crate) fn let_go(&mut self) {
        if let Some(held) = self.simulation.held.take() {
            let velocity = self.doc.world.body(held.body).map(|b| b.velocity());
            let _ = self.doc.world.set_body_type(held.body, held.was);
            if let Some(v) = velocity.filter(|_| held.was == BodyType::Dynamic) {
                let _ = self.doc.world.set_velocity(held.body, v);
            }
        }
    }

    /// Gives the held body the velocity that brings it to its target in one frame.
    fn steer_held(&mut self, frame: f64) {
        let Some(held) = self.simulation.held else {
            return;
        };
        let Some(body) = self.doc.world.body(held.body) else {
            self.simulation.held = None;
            return;
        };
        let to = held.target * body.mass.cog;
        let linear = (to - body.world_cog()) / frame;
        let turn: UnitQuaternion<f64> = held.target.rotation * body.pose().rotation.inverse();
        let angular = turn.scaled_axis() / frame;
        let _ = self
            .doc
            .world
            .set_velocity(held.body, Velocity::new(linear, angular));
    }

    /// The plot's sample of the selected free body (the first one selected), after a frame.
    fn record_trace(&mut self) {
        let Some(&id) = self.selection.iter().find(|id| id.free_index().is_some()) else {
            return;
        };
        let Some(body) = self.doc.world.body(id) else {
            return;
        };
        let sample = Sample {
            time: self.simulation.time,
            height: body.world_cog().z,
            speed: body.velocity().linear.norm(),
            // Nanojoules to microjoules.
            kinetic_energy: body.kinetic_energy() * 1e-3,
        };
        self.simulation.trace.record(id, sample);
    }
}

/// Advances a playing world by the frame's time, after the drags and requests of the frame.
/// The real-time factor is read off the wall clock: the app's own clock stops short of a
/// frame longer than a quarter second.
fn advance_simulation(time: Res<Time>, wall: Res<Time<Real>>, mut editor: Editor) {
    if editor.simulation.playing {
        editor.advance(time.delta_secs_f64(), wall.elapsed_secs_f64());
    }
}

pub struct SimulationPlugin;

impl Plugin for SimulationPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            advance_simulation
                .after(ClaspSystems::Requests)
                .before(ClaspSystems::View),
        );
    }
}
