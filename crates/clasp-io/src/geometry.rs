//! Geometry files: the format is chosen by the body file's `type`, the extension, and for
//! Inventor and VRML by the header, as GraspIt chooses it.

use std::path::Path;

use clasp_collide::{MeshError, TriMesh};
use nalgebra::{Point3, Vector3};

use crate::{
    error::LoadError,
    gltf_file::parse_gltf,
    inventor::parse_inventor,
    mesh_file::MeshFile,
    obj::parse_obj,
    off::parse_off,
    ply::parse_ply,
    source::{FileSource, read_bytes, utf8_text},
    stl::parse_stl,
};

/// The geometry formats Clasp reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GeometryFormat {
    /// Inventor ASCII 1.0–2.1 and VRML 1.0/2.0, told apart by the header.
    Inventor,
    Off,
    Ply,
    Obj,
    Stl,
    /// glTF 2.0, text (`.gltf`) or binary (`.glb`).
    Gltf,
}

impl GeometryFormat {
    /// The extensions of geometry files, compared ignoring case (GraspIt ships `.IV` files).
    pub const EXTENSIONS: [&str; 9] = [
        "iv", "wrl", "off", "ply", "obj", "stl", "stlb", "gltf", "glb",
    ];

    /// Whether the extension is one of [`Self::EXTENSIONS`].
    pub fn is_geometry_file(path: &Path) -> bool {
        path.extension().is_some_and(|e| {
            Self::EXTENSIONS
                .iter()
                .any(|x| e.to_string_lossy().eq_ignore_ascii_case(x))
        })
    }

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
            "gltf" | "glb" => Self::Gltf,
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
    let bytes = read_bytes(source, path)?;
    match format {
        GeometryFormat::Off => parse_off(&utf8_text(bytes, path)?, path).map(plain),
        GeometryFormat::Inventor => parse_inventor(&bytes, path, source),
        GeometryFormat::Ply => parse_ply(&bytes, path).map(plain),
        GeometryFormat::Obj => parse_obj(&bytes, path).map(plain),
        GeometryFormat::Stl => parse_stl(&bytes, path).map(plain),
        GeometryFormat::Gltf => parse_gltf(&bytes, path, source).map(plain),
    }
}

/// The mesh scaled along each axis (a URDF's or MJCF's mesh `scale`, times the unit's); a
/// mirroring scale (an odd number of negative factors) would turn the surface inside out, so
/// its triangles are flipped back.
pub(crate) fn scaled(mesh: &TriMesh, factor: Vector3<f64>) -> Result<TriMesh, MeshError> {
    let vertices = mesh
        .vertices()
        .iter()
        .map(|v| Point3::from(v.coords.component_mul(&factor)))
        .collect();
    let mut triangles = mesh.triangles().to_vec();
    if factor.iter().filter(|&&s| s < 0.0).count() % 2 == 1 {
        triangles.iter_mut().for_each(|t| t.swap(1, 2));
    }
    TriMesh::new(vertices, triangles)
}
