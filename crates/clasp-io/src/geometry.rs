//! Geometry files: the format is chosen by the body file's `type`, the extension, and for
//! Inventor and VRML by the header, as GraspIt chooses it.

use std::path::Path;

use clasp_collide::TriMesh;

use crate::{FileSource, LoadError, off::parse_off};

/// A geometry file's triangles and, where the file gives one, its display colour.
#[derive(Debug, Clone)]
pub struct MeshFile {
    pub mesh: TriMesh,
    /// The first diffuse colour the file gives (linear RGB in 0..1).
    pub color: Option<[f32; 3]>,
}

/// The geometry formats Clasp reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GeometryFormat {
    /// Inventor ASCII 1.0–2.1 and VRML 1.0/2.0, told apart by the header.
    Inventor,
    Off,
    Ply,
    Obj,
    Stl,
}

impl GeometryFormat {
    /// The format of a file: a body file's `type` attribute where it names OFF or PLY, else the
    /// extension, else Inventor (GraspIt's default, which also covers `.wrl`).
    pub fn of(path: &Path, type_attribute: Option<&str>) -> Self {
        match type_attribute.map(str::to_ascii_lowercase).as_deref() {
            Some("off") => return Self::Off,
            Some("ply") => return Self::Ply,
            _ => {}
        }
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        match extension.as_str() {
            "off" => Self::Off,
            "ply" => Self::Ply,
            "obj" => Self::Obj,
            "stl" | "stlb" => Self::Stl,
            _ => Self::Inventor,
        }
    }
}

/// Reads one geometry file; a missing file is an error naming its path.
pub fn load_mesh_file(
    source: &dyn FileSource,
    path: &Path,
    format: GeometryFormat,
) -> Result<MeshFile, LoadError> {
    if !source.is_file(path) {
        return Err(LoadError::new(
            path,
            None,
            "missing geometry file: it does not exist",
        ));
    }
    let plain = |mesh: TriMesh| MeshFile { mesh, color: None };
    let text = || {
        source
            .read_to_string(path)
            .map_err(|e| LoadError::new(path, None, format!("cannot read the file: {e}")))
    };
    match format {
        GeometryFormat::Off => parse_off(&text()?, path).map(plain),
        GeometryFormat::Inventor => {
            let bytes = source
                .read_bytes(path)
                .map_err(|e| LoadError::new(path, None, format!("cannot read the file: {e}")))?;
            crate::inventor::parse_inventor(&bytes, path, source)
        }
        GeometryFormat::Ply | GeometryFormat::Obj | GeometryFormat::Stl => {
            let bytes = source
                .read_bytes(path)
                .map_err(|e| LoadError::new(path, None, format!("cannot read the file: {e}")))?;
            let parse = match format {
                GeometryFormat::Ply => crate::ply::parse_ply,
                GeometryFormat::Obj => crate::obj::parse_obj,
                _ => crate::stl::parse_stl,
            };
            parse(&bytes, path).map(plain)
        }
    }
}
