//! The timeline under the view: while the world plays, its moments are kept, one every 1/30 s
//! of simulated time (the resource and its bound are in `editor::timeline`); the slider scrubs back and forth through
//! them, the bodies, cones and force arrows drawn as they were, the plot's cursor following;
//! Play goes on from the moment shown, the moments after it dropped. A grasp test's playback
//! and an opened recording use the same slider. File → Save Recording As keeps the timeline as
//! a recording; File → Open World opens one (`.clasprec`).

use std::path::Path;

use bevy::prelude::*;
use clasp_core::{Recording, World};
use clasp_io::LoadError;

use crate::{
    editor::{requests::Editor, timeline::TIMELINE_INTERVAL},
    systems::ClaspSystems,
};

impl Editor<'_> {
    /// Shows the moment at `time`: the last kept at or before it. A run pauses first; during
    /// a grasp test's playback, the playback moves there instead.
    pub fn scrub_to(&mut self, time: f64) {
        if self.grasp_test.playback.is_some() {
            self.seek_grasp_playback(time);
            return;
        }
        let Some(index) = self.timeline.index_at(time) else {
            return;
        };
        if self.simulation.playing {
            self.pause();
        }
        // Leaving the live end is one undo step: Undo brings back the world as it was there
        // (with any edit made since the run).
        if self.timeline.shown.is_none() {
            self.checkpoint("timeline");
        }
        self.show_moment(index);
    }

    /// The slider's range and where it stands: (first, last, shown) seconds.
    pub fn timeline_position(&self) -> Option<(f64, f64, f64)> {
        if let Some(span) = self.grasp_playback_span() {
            return Some(span);
        }
        let (first, last) = self.timeline.span()?;
        Some((first, last, self.simulation.time.clamp(first, last)))
    }

    /// Plays an opened recording back from the moment shown (from its start when at its end),
    /// or stops it.
    pub fn toggle_replay(&mut self) {
        if self.timeline.replaying {
            self.timeline.replaying = false;
            return;
        }
        let Some((first, last)) = self.timeline.span() else {
            return;
        };
        if self.simulation.time >= last {
            self.show_moment(0);
        }
        self.timeline.clock = self.simulation.time.max(first);
        self.timeline.replaying = true;
    }

    /// Moves a replay on by `seconds` of the clock; it stops at the last moment.
    pub fn advance_replay(&mut self, seconds: f64) {
        let Some((_, last)) = self.timeline.span() else {
            self.timeline.replaying = false;
            return;
        };
        self.timeline.clock += seconds;
        let clock = self.timeline.clock.min(last);
        if let Some(index) = self.timeline.index_at(clock) {
            self.show_moment(index);
        }
        self.timeline.replaying = clock < last;
    }

    /// A run goes on from the moment the world shows: the moments after it are dropped (as
    /// the plot's samples are), and the world as it stands is the timeline's latest moment.
    /// A world whose bodies came or went since starts a timeline afresh.
    pub(crate) fn continue_timeline(&mut self) {
        let time = self.simulation.time;
        if !self.timeline.is_of(&self.doc.world) {
            self.timeline.clear();
        }
        self.timeline.replaying = false;
        self.simulation.trace.samples.retain(|s| s.time <= time);
        // Keeping this moment drops those after it.
        self.remember_moment();
    }

    /// Keeps a frame's moment of a run, when the last one kept is at least
    /// [`TIMELINE_INTERVAL`] of simulated time before it.
    pub(crate) fn remember_frame(&mut self) {
        let last = self.timeline.span().map(|(_, last)| last);
        if last.is_none_or(|last| self.simulation.time - last >= TIMELINE_INTERVAL - 1e-9) {
            self.remember_moment();
        }
    }

    /// Keeps the world as it stands now in the timeline; a moment kept at the same time (the
    /// world edited since, or Play pressed again) is replaced.
    pub(crate) fn remember_moment(&mut self) {
        let time = self.simulation.time;
        self.timeline
            .drop_after(time - f64::EPSILON * time.abs().max(1.0));
        self.timeline.push(time, self.doc.world.clone());
    }

    /// Opens a recording read from `path` (on a worker thread, say): its world at its first
    /// moment, every moment on the timeline; or reports why it did not load.
    pub fn open_loaded_recording(
        &mut self,
        path: &Path,
        loaded: Result<(World, Recording), LoadError>,
    ) -> bool {
        let (world, recording) = match loaded.and_then(|r| ends_fit_their_world(path, r)) {
            Ok(loaded) => loaded,
            Err(e) => {
                self.error(format!("{e} (the scene is unchanged)"));
                return false;
            }
        };
        self.pause();
        self.checkpoint("open recording");
        // What a recording opens is as its file holds it: nothing of the user's to lose yet.
        self.mark_saved();
        let (count, span) = (recording.moments.len(), recording.duration());
        let first = recording.moments[0].time;
        self.timeline.open(path.to_path_buf(), world, recording);
        let Some(Ok(shown)) = self.timeline.world_at(0) else {
            return false;
        };
        self.doc.world = shown;
        self.simulation.time = first;
        self.simulation.trace = Default::default();
        self.doc.source = path.display().to_string();
        // Save writes a world: where to is asked, never over the recording.
        self.doc.path = None;
        self.selection.0.clear();
        self.remember(path);
        self.info(format!(
            "opened the recording {} ({count} moments, {span:.2} s): the slider under the view plays it",
            path.display()
        ));
        self.framing.0 = crate::editor::resources::Framing::opening(&self.doc.world);
        self.structure_changed();
        true
    }

    /// Saves the timeline as a recording: `.clasprec` (the app opens it; its world beside it)
    /// or `.rrd` (rerun's viewer, through its Python SDK).
    pub fn save_recording(&mut self, path: &Path) -> bool {
        let (start, recording) = match self.timeline.recording() {
            Ok(recording) => recording,
            Err(why) => {
                self.error(format!("cannot save {}: {why}", path.display()));
                return false;
            }
        };
        let root = clasp_io::graspit_root_or_env(None);
        let python = clasp_io::rrd_python();
        match clasp_io::save_any_recording(&recording, &start, path, root.as_deref(), &python) {
            Ok(()) => {
                self.info(format!(
                    "saved the timeline's {} moments to {}",
                    recording.moments.len(),
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

    /// Puts the world at the timeline's moment `index`, for looking at; a recorded moment that
    /// does not fit its world is reported and shows nothing.
    fn show_moment(&mut self, index: usize) {
        let Some(time) = self.timeline.moment(index).map(|m| m.time) else {
            return;
        };
        let world = match self.timeline.world_at(index) {
            Some(Ok(world)) => world,
            Some(Err(e)) => {
                self.timeline.replaying = false;
                self.error(format!(
                    "the recording's moment at {time:.3} s cannot be shown: {e}"
                ));
                return;
            }
            None => return,
        };
        self.doc.world = world;
        self.simulation.time = time;
        self.timeline.shown = Some(index);
        self.doc.touching = None;
        self.forget_gone_bodies();
        // Epsilon alone (a millisecond): a slider dragged shows a moment a frame.
        self.refresh_quality(false);
    }
}

/// A recording with moments, its first and last put into its world as a check (the others are
/// put in when shown, and one that does not fit is reported then).
fn ends_fit_their_world(
    path: &Path,
    (world, recording): (World, Recording),
) -> Result<(World, Recording), LoadError> {
    let fail = |message: String| LoadError::new(path, None, message);
    let (Some(first), Some(last)) = (recording.moments.first(), recording.moments.last()) else {
        return Err(fail("the recording has no moments".into()));
    };
    for moment in [first, last] {
        moment.applied_to(world.clone()).map_err(|e| {
            fail(format!(
                "its moment at {} s does not fit its world: {e}",
                moment.time
            ))
        })?;
    }
    Ok((world, recording))
}

/// Moves a replay on by the frame's time.
fn replay(mut editor: Editor, time: Res<Time>) {
    if editor.timeline.replaying {
        editor.advance_replay(time.delta_secs_f64());
    }
}

pub struct TimelinePlugin;

impl Plugin for TimelinePlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, replay.in_set(ClaspSystems::Requests));
    }
}
