//! Grasp → Test Grasp: the physics test of the grasp the current hand has on the object
//! (`World::test_grasp`: the hand squeezes, gravity pulls the object along +x, −x, +y, −y, +z,
//! −z in turn). It runs on a worker thread on a copy of the world, so the window keeps
//! drawing; the answer is listed per direction (held or not, how far the object moved and
//! turned) and logged, then played back: the directions one after another, at the speed they
//! ran, the object and the fingers moving as the test moved them and the object's path drawn
//! behind it, green where it held and red where it let go. Any edit ends the playback and puts
//! the grasp back first.

use bevy::{prelude::*, tasks::AsyncComputeTaskPool};
use clasp_core::{HOLD_PATH_INTERVAL, HoldTest, MoveError, World};

use crate::{
    commands::grasping_robot,
    convert,
    editor::{grasp_test::GraspTest, grasp_test::Playback, requests::Editor},
    systems::ClaspSystems,
};

/// Seconds the playback rests on a direction's last moment before the next one starts.
const DIRECTION_PAUSE: f64 = 0.4;

/// The axis names of the six pulls, in the test's order.
pub const DIRECTION_NAMES: [&str; 6] = ["+x", "−x", "+y", "−y", "+z", "−z"];

impl Editor<'_> {
    /// Starts the physics test of the current hand's grasp of the grasped object.
    pub fn start_grasp_test(&mut self) {
        let world = &self.doc.world;
        let (Some(robot), Some(object)) = (
            grasping_robot(world, &self.selection),
            world.grasped_object(),
        ) else {
            self.error("testing a grasp needs a hand and a graspable object");
            return;
        };
        if self.grasp_test.running() {
            return;
        }
        self.end_grasp_playback();
        let world = self.doc.world.clone();
        let settings = self.grasp_test.settings();
        let task = AsyncComputeTaskPool::get()
            .spawn(async move { world.test_grasp(robot, object, &settings) });
        self.grasp_test.begin(task, (robot, object));
        self.grasp_test.result = None;
        self.info(format!(
            "testing the grasp ({} test)…",
            self.grasp_test.preset
        ));
    }

    /// Plays the last test back from its first direction (Grasp test window → Play again).
    pub fn play_grasp_test(&mut self) {
        let Some((robot, object)) = self.grasp_test.subject else {
            return;
        };
        if self.grasp_test.result.is_none() {
            return;
        }
        self.end_grasp_playback();
        self.grasp_test.playback = Some(Playback {
            grasp: self.doc.world.clone(),
            robot,
            object,
            direction: 0,
            elapsed: 0.0,
        });
    }

    /// Ends a playback, the grasp back in the world as the test found it.
    pub fn end_grasp_playback(&mut self) {
        if let Some(playback) = self.grasp_test.playback.take() {
            self.doc.world = playback.grasp;
        }
    }

    /// Moves a playback on by `seconds`: the world shows the moment the test had reached
    /// then; after the last direction, the grasp again.
    pub fn advance_grasp_playback(&mut self, seconds: f64) {
        let GraspTest {
            playback: Some(playback),
            result: Some(test),
            ..
        } = &mut *self.grasp_test
        else {
            return;
        };
        if !next_moment(playback, test, seconds) {
            self.end_grasp_playback();
            return;
        }
        let path = &test.directions[playback.direction].path;
        let Some(frame) = path.get(playback.moment()).or(path.last()) else {
            self.end_grasp_playback();
            return;
        };
        match shown_moment(playback, frame) {
            Ok(world) => self.doc.world = world,
            Err(e) => {
                self.end_grasp_playback();
                self.error(format!("the grasp test cannot be played back: {e}"));
            }
        }
    }
}

impl Editor<'_> {
    /// A playing grasp test on the timeline: (0, its whole length, the time shown), seconds,
    /// each run's length and the rest after it laid end to end.
    pub fn grasp_playback_span(&self) -> Option<(f64, f64, f64)> {
        let (playback, test) = (
            self.grasp_test.playback.as_ref()?,
            self.grasp_test.result.as_ref()?,
        );
        let lengths: Vec<f64> = test.directions.iter().map(run_length).collect();
        let before: f64 = lengths[..playback.direction.min(lengths.len())]
            .iter()
            .sum();
        Some((0.0, lengths.iter().sum(), before + playback.elapsed))
    }

    /// Moves a grasp test's playback to `time` seconds from its start (as the slider shows).
    pub fn seek_grasp_playback(&mut self, time: f64) {
        let Some(playback) = self.grasp_test.playback.as_mut() else {
            return;
        };
        playback.direction = 0;
        playback.elapsed = 0.0;
        // The very end would end the playback: the slider's end shows the last run's last moment.
        let end = self.grasp_playback_span().map_or(0.0, |(_, end, _)| end);
        self.advance_grasp_playback(time.clamp(0.0, (end - 1e-6).max(0.0)));
    }
}

/// A run's time on the timeline: its path, then the rest on its last moment.
fn run_length(direction: &clasp_core::DirectionHold) -> f64 {
    direction.path.len().saturating_sub(1) as f64 * HOLD_PATH_INTERVAL + DIRECTION_PAUSE
}

/// Moves the playback's clock on by `seconds`, into the next direction (after a pause on the
/// last moment of this one) where this one has ended; false after the last direction.
fn next_moment(playback: &mut Playback, test: &HoldTest, seconds: f64) -> bool {
    playback.elapsed += seconds;
    while let Some(direction) = test.directions.get(playback.direction) {
        let length = run_length(direction);
        if playback.elapsed < length {
            return true;
        }
        playback.elapsed -= length;
        playback.direction += 1;
    }
    false
}

/// The grasp's world with the object and the hand's DOFs where the test had them.
fn shown_moment(playback: &Playback, frame: &clasp_core::HoldFrame) -> Result<World, MoveError> {
    let mut world = playback.grasp.clone();
    world.place_hold_frame(playback.robot, playback.object, frame)?;
    Ok(world)
}

/// What each run of a test is called: its pull's axis, or GraspGen's hold and tugs.
fn run_names(test: &HoldTest) -> Vec<&'static str> {
    match test.directions.len() {
        6 => DIRECTION_NAMES.to_vec(),
        n => vec!["hold and tugs"; n],
    }
}

/// How the hand pressed after the squeeze: "squeeze: 1.20 N on the object; fingers 0, 1 on
/// it; finger 2 only on fingers 0".
pub fn squeeze_line(test: &HoldTest) -> String {
    let squeeze = &test.squeeze;
    let mut line = format!(
        "squeeze: {:.2} N on the object",
        squeeze.normal_force * 1e-6
    );
    let on: Vec<String> = (0..squeeze.fingers.len())
        .filter(|&f| squeeze.fingers[f].on_object)
        .map(|f| f.to_string())
        .collect();
    if !on.is_empty() {
        line.push_str(&format!("; fingers {} on it", on.join(", ")));
    }
    for (chain, finger) in squeeze.fingers.iter().enumerate() {
        if !finger.on_object && !finger.on_fingers.is_empty() {
            let others: Vec<String> = finger.on_fingers.iter().map(|f| f.to_string()).collect();
            line.push_str(&format!(
                "; finger {chain} only on fingers {}",
                others.join(", ")
            ));
        }
    }
    line
}

/// One line per run: "+x: moved 3.20 mm, turned 4.10°: held".
pub fn direction_lines(test: &HoldTest) -> Vec<String> {
    test.directions
        .iter()
        .zip(run_names(test))
        .map(|(d, name)| {
            format!(
                "{name}: moved {:.2} mm, turned {:.2}°: {}",
                d.displacement,
                d.rotation.to_degrees(),
                if d.held { "held" } else { "let go" }
            )
        })
        .collect()
}

/// Takes a finished test's answer into the log and onto the screen.
fn finish_grasp_test(mut editor: Editor) {
    if !editor.grasp_test.running() {
        return;
    }
    let Some(result) = editor.grasp_test.take_finished() else {
        return;
    };
    match result {
        Ok(test) => {
            editor.info(squeeze_line(&test));
            for line in direction_lines(&test) {
                editor.info(line);
            }
            let failed = test.directions.iter().filter(|d| !d.held).count();
            let runs = test.directions.len();
            editor.info(match (failed, runs) {
                (0, 6) => "the grasp holds in all six directions".to_owned(),
                (0, _) => "the grasp holds".to_owned(),
                (n, 6) => format!("the grasp lets go in {n} of six directions"),
                _ => "the grasp lets go".to_owned(),
            });
            editor.grasp_test.result = Some(test);
            editor.play_grasp_test();
        }
        Err(e) => editor.error(format!("the grasp test failed: {e}")),
    }
}

/// Moves a playback on by the frame's time.
fn play_back(mut editor: Editor, time: Res<Time>) {
    if editor.grasp_test.playback.is_some() {
        editor.advance_grasp_playback(time.delta_secs_f64());
    }
}

/// Each direction's path of the object's centre, green where it held and red where it let go:
/// while a playback runs, the directions played so far and the current one up to its moment.
fn draw_paths(test: Res<GraspTest>, mut gizmos: Gizmos) {
    let Some(result) = &test.result else {
        return;
    };
    for (index, direction) in result.directions.iter().enumerate() {
        let shown = match &test.playback {
            None => direction.path.len(),
            Some(p) if index < p.direction => direction.path.len(),
            Some(p) if index == p.direction => p.moment() + 1,
            Some(_) => 0,
        };
        let color = match direction.held {
            true => Color::srgb(0.1, 0.8, 0.2),
            false => Color::srgb(0.9, 0.15, 0.1),
        };
        let path = direction.path.iter().take(shown);
        gizmos.linestrip(path.map(|frame| convert::point(&frame.centre)), color);
    }
}

pub struct GraspTestPlugin;

impl Plugin for GraspTestPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            (finish_grasp_test, play_back)
                .chain()
                .in_set(ClaspSystems::Requests),
        )
        .add_systems(Update, draw_paths.in_set(ClaspSystems::View));
    }
}
