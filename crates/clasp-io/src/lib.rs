//! Files to and from Clasp's core types: GraspIt's body, robot and world XML, and mesh files.
//!
//! Every error names the file, the line where there is one, and what was expected. Files are
//! read through a [`FileSource`], so the same loaders read from disk or from files embedded in a
//! binary.

mod any;
mod body;
mod body_edits;
mod chain_tree;
pub mod drops;
mod error;
pub mod fixtures;
mod folder;
mod geometry;
mod gltf_file;
mod groups;
mod hand_settings;
mod inventor;
mod kind;
mod line_reader;
mod mesh_builder;
mod mesh_file;
mod mesh_units;
mod mjcf;
mod moment_numbers;
mod obj;
mod off;
mod ply;
mod primitives;
mod recording;
mod robot;
mod robot_file;
mod rrd;
mod si_units;
mod source;
mod stl;
mod transform;
mod urdf;
mod virtual_contacts;
mod world;
mod xml;

pub use any::{DEFAULT_WORLD, default_scene_files, default_world, load_any_body};
pub use body::load_body;
pub use error::{LoadError, LoadWarning, SaveError};
pub use folder::{FolderObject, objects_in_folder};
pub use geometry::{GeometryFormat, load_mesh_file};
pub use groups::{mask_text, parse_group, parse_mask};
pub use hand_settings::{
    hand_settings_path, hand_settings_xml, save_hand_settings, write_hand_settings,
};
pub use inventor::parse_inventor;
pub use kind::FileKind;
pub use mesh_file::MeshFile;
pub use mesh_units::{
    GRASPABLE_ACROSS, LengthUnit, METRES_BELOW, MeshReading, MeshUnits, UnitSource, UpAxis,
    read_mesh,
};
pub use mjcf::write::save_mjcf;
pub use moment_numbers::pose_numbers;
pub use obj::parse_obj;
pub use off::parse_off;
pub use ply::parse_ply;
pub use recording::{
    RecordingKind, load_recording, recording_kind, recording_world_path, save_any_recording,
    save_recording,
};
pub use robot::{chain::parse_dof_expression, load_robot};
pub use robot_file::load_any_robot;
pub use rrd::{check_rrd_python, rrd_python, save_rrd};
pub use si_units::{effort_from_si, effort_to_si};
pub use source::{Disk, Embedded, FileSource};
pub use stl::parse_stl;
pub use urdf::load_urdf;
pub use virtual_contacts::load_virtual_contacts;
pub use world::{
    dof_stream::DOF_ROUNDING,
    load::{graspit_root_or_env, load_world, load_world_with_warnings, repaired_inertia_warning},
    save::save_world,
};
