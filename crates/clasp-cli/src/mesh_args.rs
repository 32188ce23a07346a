//! How a command reads a bare mesh file (OBJ, STL, PLY, OFF, Inventor, glTF): its unit and up
//! axis where the user gives them; the choice made is said on stderr, one line a file.

use clap::Args;
use clasp_io::{LengthUnit, MeshReading, MeshUnits, UpAxis};

/// `--units` and `--up`, for every command that reads a mesh.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct MeshArgs {
    /// The unit of a bare mesh's numbers: m or mm. Default: glTF's metres; for the formats
    /// that carry no unit, metres where the mesh is under 2 across, else millimetres (said on
    /// stderr). A GraspIt body file's mesh is in its own units (mm, times its geometryScaling).
    #[arg(long, value_name = "m|mm")]
    pub units: Option<LengthUnit>,
    /// Which of a bare mesh's axes points up: y (turned to Clasp's z) or z. Default: y for
    /// glTF (its specification), else z.
    #[arg(long, value_name = "y|z")]
    pub up: Option<UpAxis>,
}

impl MeshArgs {
    pub fn reading(self) -> MeshReading {
        MeshReading {
            units: self.units,
            up: self.up,
        }
    }
}

/// The line that says how a mesh was read.
pub fn units_line(units: &MeshUnits) -> String {
    format!("clasp-cli: {units}")
}
