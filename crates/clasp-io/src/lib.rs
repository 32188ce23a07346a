//! Files to and from Clasp's core types: GraspIt's body, robot and world XML, and mesh files.
//!
//! Every error names the file, the line where there is one, and what was expected. Files are
//! read through a [`FileSource`], so the same loaders read from disk or from files embedded in a
//! binary.

mod body;
mod error;
mod geometry;
mod mesh_builder;
mod off;
mod robot;
mod source;
mod transform;
mod world;
mod xml;

pub use body::load_body;
pub use error::LoadError;
pub use geometry::{GeometryFormat, MeshFile, load_mesh_file};
pub use off::parse_off;
pub use robot::{load_robot, parse_dof_expression};
pub use source::{Disk, Embedded, FileSource};
pub use world::load_world;
