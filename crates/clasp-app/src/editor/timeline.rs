//! The timeline: the moments a run went through, kept so the slider under the view can show
//! any of them again — the simulation's recent history (a moment a frame while it plays), or
//! an opened recording. What scrubs, plays and fills it is in `crate::timeline`.

use std::{collections::VecDeque, path::PathBuf};

use bevy::prelude::Resource;
use clasp_core::World;

/// How many moments the timeline keeps: one a frame, so the last 20 s at 60 frames a second.
/// A moment is a copy of the world with its geometry shared (poses, velocities, contacts and
/// the solver's memory): about 20 kB for the default scene, so at most some 25 MB.
pub const TIMELINE_LENGTH: usize = 1200;

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
        self.moments.push_back(TimelineMoment { time, world });
    }

    /// Drops every moment after `time`: a run goes on from there (the future dropped, as an
    /// edit after Undo drops the redo steps).
    pub(crate) fn drop_after(&mut self, time: f64) {
        while self.moments.back().is_some_and(|m| m.time > time) {
            self.moments.pop_back();
        }
        self.shown = None;
    }

    /// Starts afresh with `moments` from `source`.
    pub(crate) fn replace(&mut self, source: TimelineSource, moments: Vec<TimelineMoment>) {
        self.moments = moments.into();
        self.source = source;
        self.shown = None;
        self.replaying = false;
    }
}
