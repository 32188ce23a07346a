//! The timeline: the moments a run went through, kept so the slider under the view can show
//! any of them again — the simulation's recent history (a moment every 1/30 s of simulated
//! time while it plays), or an opened recording. What scrubs, plays and fills it is in
//! `crate::timeline`.

use std::{collections::VecDeque, path::PathBuf};

use bevy::prelude::Resource;
use clasp_core::{BodyId, Moment, PlaybackError, RecordedContact, Recording, World};

/// How many moments the timeline keeps: a moment every [`TIMELINE_INTERVAL`] of simulated
/// time, so the last 20 s. A moment is a copy of the world with its meshes shared (poses,
/// velocities, contacts with their friction edges, the solver's and the search's memory):
/// measured 192 kB for the default scene after half a second of play (128 contacts), so at
/// most some 115 MB for it; a scene with more contacts takes more.
pub const TIMELINE_LENGTH: usize = 600;

/// The simulated time between two moments a run keeps (a frame's moment is skipped when the
/// last one kept is nearer): 30 a second of simulated time.
pub const TIMELINE_INTERVAL: f64 = 1.0 / 30.0;

/// The moments, oldest first, and which one the world shows.
#[derive(Resource, Default)]
pub struct Timeline {
    moments: VecDeque<TimelineMoment>,
    /// The moment shown while scrubbed back; `None` at the live end.
    pub shown: Option<usize>,
    /// Where the moments came from.
    pub source: TimelineSource,
    /// An opened recording playing back by itself.
    pub replaying: bool,
    /// Where a replay stands, seconds.
    pub(crate) clock: f64,
    /// The world an opened recording began in: its moments are put into it when shown.
    recorded_world: Option<World>,
}

/// One moment of the timeline.
#[derive(Clone)]
pub struct TimelineMoment {
    /// Simulated seconds.
    pub time: f64,
    pub kept: Kept,
}

/// How a moment is kept.
#[derive(Clone)]
pub enum Kept {
    /// A run's own moment: the whole world (meshes shared), its contacts with their step's
    /// impulses, so a run goes on from it exactly.
    World(Box<World>),
    /// An opened recording's moment (poses, velocities, postures, contacts with the run's
    /// impulses: a few kB), put into the recording's world when shown, so a long recording
    /// costs no more than its file.
    Recorded(Moment),
}

/// What the timeline holds.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum TimelineSource {
    /// The simulation's own history.
    #[default]
    Simulation,
    /// A recording opened from this file.
    Recording(PathBuf),
}

impl Timeline {
    pub fn len(&self) -> usize {
        self.moments.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moments.is_empty()
    }

    pub fn moment(&self, index: usize) -> Option<&TimelineMoment> {
        self.moments.get(index)
    }

    pub fn moments(&self) -> impl Iterator<Item = &TimelineMoment> {
        self.moments.iter()
    }

    /// The first and last moments' times.
    pub fn span(&self) -> Option<(f64, f64)> {
        Some((self.moments.front()?.time, self.moments.back()?.time))
    }

    /// The world at moment `index`: a run's own copy, or the opened recording's world with the
    /// moment put in (refused, for a moment that does not fit it).
    pub fn world_at(&self, index: usize) -> Option<Result<World, PlaybackError>> {
        match &self.moments.get(index)?.kept {
            Kept::World(world) => Some(Ok((**world).clone())),
            Kept::Recorded(moment) => Some(moment.applied_to(self.recorded_world.clone()?)),
        }
    }

    /// The contacts, with the run's impulses, of the recording's moment shown; `None` for a
    /// run's own moment (its world's contacts carry their impulses) or at the live end.
    pub fn shown_recorded_contacts(&self) -> Option<&[RecordedContact]> {
        match &self.moments.get(self.shown?)?.kept {
            Kept::Recorded(moment) => Some(&moment.contacts),
            Kept::World(_) => None,
        }
    }

    /// The timeline as a recording and the world it began in; refused when its moments are
    /// not all of one world (bodies came or went between them).
    pub fn recording(&self) -> Result<(World, Recording), String> {
        let start = match (&self.recorded_world, self.moments.front()) {
            (Some(world), _) => world.clone(),
            (
                None,
                Some(TimelineMoment {
                    kept: Kept::World(world),
                    ..
                }),
            ) => (**world).clone(),
            _ => return Err("there is nothing to record yet: press Play first".into()),
        };
        let shape = Shape::of(&start);
        let mut recording = Recording::default();
        for m in &self.moments {
            let moment = match &m.kept {
                Kept::World(world) if Shape::of(world) != shape => {
                    return Err(format!(
                        "bodies came or went at {:.3} s of the timeline: a recording is of one world (play again to record this one)",
                        m.time
                    ));
                }
                Kept::World(world) => Moment::of(world, m.time),
                Kept::Recorded(moment) => moment.clone(),
            };
            recording.moments.push(moment);
        }
        Ok((start, recording))
    }

    /// Whether a run's moments are of `world`'s bodies and robots (none of them came or went).
    pub fn is_of(&self, world: &World) -> bool {
        match (&self.recorded_world, self.moments.back()) {
            (Some(start), _) => Shape::of(start) == Shape::of(world),
            (
                None,
                Some(TimelineMoment {
                    kept: Kept::World(last),
                    ..
                }),
            ) => Shape::of(last) == Shape::of(world),
            _ => true,
        }
    }

    /// The moment shown at `time`: the last at or before it (the first before them all).
    pub fn index_at(&self, time: f64) -> Option<usize> {
        if self.moments.is_empty() {
            return None;
        }
        let after = self.moments.partition_point(|m| m.time <= time);
        Some(after.saturating_sub(1))
    }

    /// Adds a moment at the live end; the oldest go while the timeline is full (an opened
    /// recording may hold more, until a run goes on from it).
    pub(crate) fn push(&mut self, time: f64, world: World) {
        while self.moments.len() >= TIMELINE_LENGTH {
            self.moments.pop_front();
        }
        self.moments.push_back(TimelineMoment {
            time,
            kept: Kept::World(Box::new(world)),
        });
    }

    /// Drops every moment after `time`: a run goes on from there (the future dropped, as an
    /// edit after Undo drops the redo steps).
    pub(crate) fn drop_after(&mut self, time: f64) {
        while self.moments.back().is_some_and(|m| m.time > time) {
            self.moments.pop_back();
        }
        self.shown = None;
    }

    /// Starts afresh, empty, for the simulation's history.
    pub(crate) fn clear(&mut self) {
        *self = Timeline::default();
    }

    /// Holds an opened recording: its moments, put into `world` (where it began) when shown;
    /// the first is shown.
    pub(crate) fn open(&mut self, path: PathBuf, world: World, recording: Recording) {
        self.moments = recording
            .moments
            .into_iter()
            .map(|moment| TimelineMoment {
                time: moment.time,
                kept: Kept::Recorded(moment),
            })
            .collect();
        self.source = TimelineSource::Recording(path);
        self.recorded_world = Some(world);
        self.shown = Some(0);
        self.replaying = false;
    }
}

/// What a moment must share with its timeline's others: the bodies and each robot's DOFs.
#[derive(PartialEq)]
struct Shape {
    bodies: Vec<BodyId>,
    dofs: Vec<usize>,
}

impl Shape {
    fn of(world: &World) -> Shape {
        Shape {
            bodies: world.body_ids(),
            dofs: world.robots().map(|(_, r)| r.dof_values().len()).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_timeline_keeps_its_last_moments_and_drops_a_future() {
        let mut timeline = Timeline::default();
        for k in 0..=TIMELINE_LENGTH {
            timeline.push(k as f64, World::default());
        }
        assert_eq!(timeline.len(), TIMELINE_LENGTH, "bounded: the oldest went");
        assert_eq!(timeline.span(), Some((1.0, TIMELINE_LENGTH as f64)));
        assert_eq!(
            timeline.index_at(0.5),
            Some(0),
            "before them all: the first"
        );
        assert_eq!(timeline.index_at(10.9), Some(9));
        timeline.shown = Some(9);
        timeline.drop_after(10.0);
        assert_eq!((timeline.len(), timeline.shown), (10, None));
    }
}
