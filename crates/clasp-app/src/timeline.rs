//! The timeline under the view: while the world plays, its moments are kept, one every 1/30 s
//! of simulated time (the resource and its bound are in `editor::timeline`); the slider scrubs back and forth through
//! them, the bodies, cones and force arrows drawn as they were, the plot's cursor following;
//! Play goes on from the moment shown, the moments after it dropped. A grasp test's playback
//! and an opened recording use the same slider. File → Save Recording As keeps the timeline as
//! a recording; File → Open World opens one (`.clasprec`).

use std::path::Path;

use bevy::prelude::*;
use clasp_core::{Moment, Recording, World};
use clasp_io::LoadError;

use crate::{
    editor::{Editor, TIMELINE_INTERVAL, TimelineMoment, TimelineSource},
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
    pub(crate) fn continue_timeline(&mut self) {
        let time = self.simulation.time;
        if self.timeline.source != TimelineSource::Simulation {
            self.timeline
                .replace(TimelineSource::Simulation, Vec::new());
        }
        self.timeline.replaying = false;
        self.timeline.drop_after(time);
        self.simulation.trace.samples.retain(|s| s.time <= time);
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
        loaded: Result<Vec<TimelineMoment>, LoadError>,
    ) -> bool {
        let moments = match loaded {
            Ok(moments) if !moments.is_empty() => moments,
            Ok(_) => {
                self.error(format!(
                    "{}: the recording has no moments (the scene is unchanged)",
                    path.display()
                ));
                return false;
            }
            Err(e) => {
                self.error(format!("{e} (the scene is unchanged)"));
                return false;
            }
        };
        self.checkpoint("open recording");
        let (count, span) = (
            moments.len(),
            moments[moments.len() - 1].time - moments[0].time,
        );
        self.doc.world = moments[0].world.clone();
        self.simulation.time = moments[0].time;
        self.simulation.trace = Default::default();
        self.doc.source = path.display().to_string();
        // Save writes a world: where to is asked, never over the recording.
        self.doc.path = None;
        self.selection.0.clear();
        self.timeline
            .replace(TimelineSource::Recording(path.to_path_buf()), moments);
        // Its first moment is shown, with the forces it recorded.
        self.timeline.shown = Some(0);
        self.remember(path);
        self.info(format!(
            "opened the recording {} ({count} moments, {span:.2} s): the slider under the view plays it",
            path.display()
        ));
        self.framing.0 = crate::editor::Framing::opening(&self.doc.world);
        self.structure_changed();
        true
    }

    /// Saves the timeline as a recording: `.clasprec` (the app opens it; its world beside it)
    /// or `.rrd` (rerun's viewer, through its Python SDK).
    pub fn save_recording(&mut self, path: &Path) -> bool {
        let Some(first) = self.timeline.moment(0) else {
            self.error("there is nothing to record yet: press Play first");
            return false;
        };
        let start = first.world.clone();
        let recording = Recording {
            moments: self
                .timeline
                .moments()
                .map(|m| Moment::of(&m.world, m.time))
                .collect(),
        };
        let root = clasp_io::graspit_root_or_env(None);
        match clasp_io::save_any_recording(
            &recording,
            &start,
            path,
            root.as_deref(),
            &clasp_io::rrd_python(),
        ) {
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

    /// Puts the world at the timeline's moment `index`, for looking at.
    fn show_moment(&mut self, index: usize) {
        let Some(moment) = self.timeline.moment(index) else {
            return;
        };
        let (time, world) = (moment.time, moment.world.clone());
        self.doc.world = world;
        self.simulation.time = time;
        self.timeline.shown = Some(index);
        self.doc.touching = None;
        let world = &self.doc.world;
        self.selection.0.retain(|&id| world.body(id).is_some());
        // Epsilon alone (a millisecond): a slider dragged shows a moment a frame.
        self.refresh_quality(false);
    }
}

/// Reads a `.clasprec` recording: each moment put into its world.
pub fn load_recording_file(path: &Path) -> Result<Vec<TimelineMoment>, LoadError> {
    let root = clasp_io::graspit_root_or_env(None);
    let (world, recording) = clasp_io::load_recording(&clasp_io::Disk, path, root.as_deref())?;
    recording
        .moments
        .iter()
        .enumerate()
        .map(|(k, moment)| {
            let mut placed: World = world.clone();
            moment
                .apply_to(&mut placed)
                .map_err(|e| LoadError::new(path, None, format!("moment {k}: {e}")))?;
            Ok(TimelineMoment {
                time: moment.time,
                world: placed,
                recorded: moment.contacts.clone(),
            })
        })
        .collect()
}

/// Whether a file is a recording (opened onto the timeline) rather than a world.
pub fn is_recording(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "clasprec")
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
