//! Opening and importing files in the background: a world of large scanned meshes takes
//! seconds to read and to build its bounding-volume trees, so the file loads on a worker
//! thread while the window keeps drawing and answering; the panel shows what is loading and
//! for how long, and Cancel forgets it. What loaded is applied through the editor, as one
//! undo step, in the frame after it finished.

use std::path::{Path, PathBuf};

use bevy::{
    prelude::*,
    tasks::{AsyncComputeTaskPool, Task, block_on, poll_once},
};
use clasp_core::World;
use clasp_io::{LoadError, LoadWarning, MeshReading};

use crate::{
    editor::requests::Editor,
    files::ImportKind,
    files::{self, Loaded, is_recording, load_recording_file},
};

/// What a file is loaded for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadPurpose {
    OpenWorld,
    /// An import, a bare mesh read as the dialog's units and up axis say.
    Import(ImportKind, MeshReading),
}

/// The files being loaded, oldest first; they are applied in that order.
#[derive(Resource, Default)]
pub struct Loads {
    jobs: Vec<Load>,
    /// Wait for each load in the frame after it started: tests that replay a seed frame by
    /// frame need every load to end on the same frame each run.
    pub wait: bool,
}

struct Load {
    purpose: LoadPurpose,
    path: PathBuf,
    /// When it started, on the app's clock, seconds.
    started: f64,
    task: Task<FileContents>,
}

/// A world read and checked, waiting for the unsaved-edits question to be answered before it
/// takes the place of the one open.
pub struct ReadyWorld {
    path: PathBuf,
    contents: FileContents,
}

impl ReadyWorld {
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Puts it in place of the world open.
    pub(super) fn open(self, editor: &mut Editor) {
        apply(editor, &self.path, self.contents);
    }
}

/// What a loaded file holds, or why it did not load.
enum FileContents {
    World(Result<Box<(World, Vec<LoadWarning>)>, LoadError>),
    Recording(Result<Box<(World, clasp_core::Recording)>, LoadError>),
    Import(Result<Loaded, LoadError>),
}

impl Loads {
    /// Starts loading `path` on a worker thread.
    pub fn start(&mut self, purpose: LoadPurpose, path: PathBuf, now: f64) {
        let file = path.clone();
        let task = AsyncComputeTaskPool::get().spawn(async move {
            match purpose {
                LoadPurpose::OpenWorld if is_recording(&file) => {
                    FileContents::Recording(load_recording_file(&file).map(Box::new))
                }
                LoadPurpose::OpenWorld => {
                    FileContents::World(files::load_world_file(&file).map(Box::new))
                }
                LoadPurpose::Import(kind, reading) => {
                    FileContents::Import(files::load_import(&file, kind, reading))
                }
            }
        });
        self.jobs.push(Load {
            purpose,
            path,
            started: now,
            task,
        });
    }

    /// Whether nothing is loading.
    pub fn is_idle(&self) -> bool {
        self.jobs.is_empty()
    }

    /// Each file loading, what for, and how many seconds it has been loading.
    pub fn in_progress(&self, now: f64) -> impl Iterator<Item = (&Path, LoadPurpose, f64)> {
        self.jobs
            .iter()
            .map(move |job| (job.path.as_path(), job.purpose, now - job.started))
    }

    /// Forgets every load: what they read is dropped when their threads finish.
    pub fn cancel(&mut self) -> Vec<PathBuf> {
        self.jobs.drain(..).map(|job| job.path).collect()
    }
}

/// Applies the loads that finished, oldest first; a later one waits for an earlier one, so
/// files chosen one after another arrive in that order. A world that loaded waits for the
/// unsaved-edits question where the one open has edits (`unsaved`): the question comes only
/// once the new world is ready, and a file that does not load never asks it.
pub(super) fn finish_loads(
    mut loads: ResMut<Loads>,
    mut prompt: ResMut<super::unsaved::UnsavedPrompt>,
    mut editor: Editor,
) {
    if loads.is_idle() {
        return;
    }
    let wait = loads.wait;
    while let Some(first) = loads.jobs.first_mut() {
        let contents = if wait {
            Some(block_on(&mut first.task))
        } else {
            block_on(poll_once(&mut first.task))
        };
        let Some(contents) = contents else {
            return;
        };
        let job = loads.jobs.remove(0);
        let replaces_world = match &contents {
            FileContents::World(loaded) => loaded.is_ok(),
            FileContents::Recording(loaded) => loaded.is_ok(),
            FileContents::Import(_) => false,
        };
        if replaces_world && editor.has_unsaved_edits() {
            prompt.ask(ReadyWorld {
                path: job.path,
                contents,
            });
            continue;
        }
        apply(&mut editor, &job.path, contents);
    }
}

fn apply(editor: &mut Editor, path: &Path, contents: FileContents) {
    match contents {
        FileContents::World(world) => editor.open_loaded_world(path, world.map(|w| *w)),
        FileContents::Recording(loaded) => editor.open_loaded_recording(path, loaded.map(|r| *r)),
        FileContents::Import(loaded) => editor.import_loaded(path, loaded),
    };
}
