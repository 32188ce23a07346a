//! The editor's file requests: open a world, import bodies and robots beside the scene, save.

use std::path::Path;

use clasp_core::{BodyId, Pose, World};
use clasp_io::{LoadError, LoadWarning};

use super::requests::Editor;
use super::resources::Framing;
use crate::files::{self, ImportKind, Loaded};

impl Editor<'_> {
    /// Opens a world file in place of the current one; a file that does not load changes
    /// nothing and is reported.
    pub fn open_world(&mut self, path: &Path) -> bool {
        if files::is_recording(path) {
            return self.open_loaded_recording(path, files::load_recording_file(path));
        }
        self.open_loaded_world(path, files::load_world_file(path))
    }

    /// Puts a world read from `path` (on a worker thread, say) in place of the current one, or
    /// reports why it did not load.
    pub fn open_loaded_world(
        &mut self,
        path: &Path,
        loaded: Result<(World, Vec<LoadWarning>), LoadError>,
    ) -> bool {
        match loaded {
            Ok((world, warnings)) => {
                for warning in warnings {
                    self.info(format!("warning: {warning}"));
                }
                self.checkpoint("open world");
                self.mark_saved();
                self.doc.world = world;
                self.simulation.time = 0.0;
                self.timeline.clear();
                self.doc.source = path.display().to_string();
                self.doc.path = Some(path.to_path_buf());
                self.selection.0.clear();
                self.remember(path);
                self.info(format!("opened {}", path.display()));
                self.framing.0 = Framing::opening(&self.doc.world);
                self.structure_changed();
                true
            }
            Err(e) => {
                self.error(format!("{e} (the scene is unchanged)"));
                false
            }
        }
    }

    /// Imports a body, an obstacle or a robot (GraspIt XML, URDF or a mesh file, its units and
    /// up axis decided as the file and its size say), beside the bodies already there; the
    /// camera frames it. A bad file changes nothing.
    pub fn import(&mut self, path: &Path, kind: ImportKind) -> bool {
        let reading = clasp_io::MeshReading::default();
        self.import_loaded(path, files::load_import(path, kind, reading))
    }

    /// Adds what was read from `path` beside the scene, or reports why it did not load.
    pub fn import_loaded(&mut self, path: &Path, loaded: Result<Loaded, LoadError>) -> bool {
        let loaded = match loaded {
            Ok(loaded) => loaded,
            Err(e) => {
                self.error(format!("{e} (the scene is unchanged)"));
                return false;
            }
        };
        self.checkpoint("import");
        let offset = files::place_beside(&self.doc.world, &loaded);
        let id = match loaded {
            Loaded::Body(body, units) => {
                if let Some(units) = units {
                    self.say_mesh_units(&units);
                }
                let pose = body.pose();
                let shift = Pose::from_parts(offset.into(), nalgebra::UnitQuaternion::identity());
                self.doc.world.add_body(body.at(shift * pose))
            }
            Loaded::Robot(mut robot) => {
                let pose = robot.pose();
                robot.set_pose(
                    Pose::from_parts(offset.into(), nalgebra::UnitQuaternion::identity()) * pose,
                );
                let r = self.doc.world.add_robot(*robot);
                BodyId::Palm { robot: r }
            }
        };
        self.selection.0 = match id {
            BodyId::Free(_) => vec![id],
            _ => self.doc.world.element_bodies(id.element()),
        };
        self.framing.0 = self
            .doc
            .world
            .bounding_box_of(&self.selection.0)
            .map(|(lo, hi)| Framing::Bounds(lo, hi));
        self.remember(path);
        self.info(format!("imported {}", path.display()));
        self.structure_changed();
        true
    }

    /// Says in the log how a bare mesh was read; as an error where no hand could grasp it at
    /// that size, so that it is seen.
    fn say_mesh_units(&mut self, units: &clasp_io::MeshUnits) {
        match units.graspable_size() {
            true => self.info(units.to_string()),
            false => self.error(format!("{units}: import it again with its units set")),
        }
    }

    /// Saves the world to `path` (Save As), or to where it came from (Save).
    pub fn save(&mut self, path: Option<&Path>) -> bool {
        let Some(path) = path
            .map(Path::to_path_buf)
            .or_else(|| self.doc.path.clone())
        else {
            self.error("this world has no file yet: use Save World As");
            return false;
        };
        let root = clasp_io::graspit_root_or_env(None);
        // The file keeps the view the user left, as GraspIt's does.
        if self.shown_camera.0.is_some() && self.doc.world.camera != self.shown_camera.0 {
            self.doc.world.camera = self.shown_camera.0;
        }
        match clasp_io::save_world(&self.doc.world, &path, root.as_deref()) {
            Ok(()) => {
                self.mark_saved();
                self.doc.source = path.display().to_string();
                self.info(format!("saved {}", path.display()));
                self.remember(&path);
                self.doc.path = Some(path);
                true
            }
            Err(e) => {
                self.error(format!("cannot save {}: {}", e.file.display(), e.message));
                false
            }
        }
    }

    pub(crate) fn remember(&mut self, path: &Path) {
        self.doc.recent.retain(|p| p != path);
        self.doc.recent.insert(0, path.to_path_buf());
        self.doc.recent.truncate(10);
    }
}
