//! The timeline: the moments a run went through, kept so the slider under the view can show
//! any of them again — the simulation's recent history (a moment a frame while it plays), or
//! an opened recording. What scrubs, plays and fills it is in `crate::timeline`.

use std::{collections::VecDeque, path::PathBuf};

use bevy::prelude::Resource;
use clasp_core::{RecordedContact, World};

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
}

/// One moment: the whole world as it stood then.
#[derive(Clone)]
pub struct TimelineMoment {
    /// Simulated seconds.
    pub time: f64,
    pub world: World,
    /// A recording's contacts with the impulses the run had there (the world's own contacts
    /// were found again when the moment was put back, and carry none); empty for the
    /// simulation's moments, whose world keeps its step's impulses.
    pub recorded: Vec<RecordedContact>,
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

    /// The moment shown at `time`: the last at or before it (the first before them all).
    pub fn index_at(&self, time: f64) -> Option<usize> {
        if self.moments.is_empty() {
            return None;
        }
        let after = self.moments.partition_point(|m| m.time <= time);
        Some(after.saturating_sub(1))
    }

    /// Adds a moment at the live end; the oldest goes when the timeline is full.
    pub(crate) fn push(&mut self, time: f64, world: World) {
        if self.moments.len() == TIMELINE_LENGTH {
            self.moments.pop_front();
        }
        self.moments.push_back(TimelineMoment {
            time,
            world,
            recorded: Vec::new(),
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

    /// The moment the world shows, while one is scrubbed to.
    pub fn shown_moment(&self) -> Option<&TimelineMoment> {
        self.moments.get(self.shown?)
    }

    /// Starts afresh with `moments` from `source`.
    pub(crate) fn replace(&mut self, source: TimelineSource, moments: Vec<TimelineMoment>) {
        self.moments = moments.into();
        self.source = source;
        self.shown = None;
        self.replaying = false;
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
