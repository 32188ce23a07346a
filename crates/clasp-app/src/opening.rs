//! What the app opens with: the first file given (a world, or a body, robot or mesh imported
//! into an empty world), else the built-in default scene, as the editor's resources in a Bevy
//! world of their own.

use clasp_core::World;
use clasp_io::{Disk, FileKind};

use crate::{
    editor::{self, requests::edit, resources::Document, resources::Log},
    files,
};

/// A Bevy world that holds only the editor's resources, outside an app: what [`open_scene`]
/// returns and [`edit`] makes requests on.
pub type EditorWorld = bevy::ecs::world::World;

/// The scene to open, as the editor's resources in a Bevy world of their own: the first FILE
/// (a world, or a body, robot or mesh to import into an empty world), or the default scene.
/// Problems go into the log, and the default scene opens instead of nothing. [`install`](crate::plugin::install) moves
/// the resources into an app; tests and benchmarks make requests on them with [`edit`].
pub fn open_scene(files: &[std::path::PathBuf]) -> EditorWorld {
    let mut scene = editor_world(default_document());
    if let Some(first) = files.first() {
        if is_world_file(first) {
            edit(&mut scene, |editor| {
                if !editor.open_world(first) {
                    editor.error("the default scene opened instead");
                }
            });
        } else {
            let mut empty = editor_world(Document::new(World::default(), "new world", None));
            empty.insert_resource(scene.resource::<Log>().clone());
            if edit(&mut empty, |editor| {
                editor.import(first, files::import_kind_of(first))
            }) {
                scene = empty;
            } else {
                scene.insert_resource(empty.resource::<Log>().clone());
                edit(&mut scene, |editor| {
                    editor.error("the default scene opened instead")
                });
            }
        }
        for file in &files[1..] {
            edit(&mut scene, |editor| {
                editor.import(file, files::import_kind_of(file))
            });
        }
    }
    edit(&mut scene, |editor| editor.forget_history());
    scene
}

/// A Bevy world holding only an editor opened on `document`.
pub fn editor_world(document: Document) -> EditorWorld {
    let mut world = EditorWorld::new();
    editor::requests::install_editor(&mut world, document);
    world
}

fn default_document() -> Document {
    match clasp_io::default_world() {
        Ok(world) => Document::new(world, "default scene", None),
        Err(e) => {
            // Only a broken build gets here: the files are compiled in and tested.
            let mut scene = editor_world(Document::new(World::default(), "empty world", None));
            edit(&mut scene, |editor| {
                editor.error(format!("the built-in scene did not load: {e}"))
            });
            scene.remove_resource::<Document>().expect("just installed")
        }
    }
}

fn is_world_file(path: &std::path::Path) -> bool {
    FileKind::of(&Disk, path).map_or(true, FileKind::is_world)
}
