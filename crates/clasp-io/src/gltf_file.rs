//! glTF 2.0 meshes (`.gltf` with its `.bin` buffers beside it, or binary `.glb`), read with the
//! `gltf` crate: every triangle primitive of every mesh the default scene (else the first)
//! places, each through its nodes' transforms. Units are the file's (glTF's are metres; a URDF's
//! mesh `scale` and its metres-to-millimetres apply as to any mesh). Materials and textures are
//! not read.

use std::path::Path;

use clasp_collide::TriMesh;
use gltf::{Gltf, buffer::Source, mesh::Mode};
use nalgebra::{Matrix4, Point3};

use crate::{error::LoadError, source::FileSource};

/// Reads a glTF or GLB file's placed triangles as one mesh.
pub fn parse_gltf(
    bytes: &[u8],
    file: &Path,
    source: &dyn FileSource,
) -> Result<TriMesh, LoadError> {
    let error = |message: String| LoadError::new(file, None, message);
    let gltf = Gltf::from_slice(bytes).map_err(|e| error(format!("not a glTF file: {e}")))?;
    let buffers = buffers(&gltf, file, source)?;
    let scene = gltf
        .default_scene()
        .or_else(|| gltf.scenes().next())
        .ok_or_else(|| error("the file has no scene".to_owned()))?;
    let mut mesh = Placed::default();
    for node in scene.nodes() {
        mesh.add_node(&node, Matrix4::identity(), &buffers, file)?;
    }
    TriMesh::new(mesh.vertices, mesh.triangles).map_err(|e| error(e.to_string()))
}

/// Each buffer's bytes: the GLB's own chunk, or a file beside the glTF.
fn buffers(gltf: &Gltf, file: &Path, source: &dyn FileSource) -> Result<Vec<Vec<u8>>, LoadError> {
    gltf.buffers()
        .map(|buffer| match buffer.source() {
            Source::Bin => gltf
                .blob
                .clone()
                .ok_or_else(|| LoadError::new(file, None, "the binary chunk is missing")),
            Source::Uri(uri) if uri.starts_with("data:") => Err(LoadError::new(
                file,
                None,
                "a buffer given as a data URI is not read: save the model as GLB, or with its .bin beside it",
            )),
            Source::Uri(uri) => {
                let path = file.parent().unwrap_or(Path::new("")).join(uri);
                source.read_bytes(&path).map_err(|e| {
                    LoadError::new(file, None, format!("its buffer {}: {e}", path.display()))
                })
            }
        })
        .collect()
}

/// The triangles gathered so far, in the file's root frame.
#[derive(Default)]
struct Placed {
    vertices: Vec<Point3<f64>>,
    triangles: Vec<[u32; 3]>,
}

impl Placed {
    /// A node's mesh placed by `parent` times its own transform, then its children's.
    fn add_node(
        &mut self,
        node: &gltf::Node,
        parent: Matrix4<f64>,
        buffers: &[Vec<u8>],
        file: &Path,
    ) -> Result<(), LoadError> {
        let own = Matrix4::from(node.transform().matrix()).cast::<f64>();
        let placed = parent * own;
        if let Some(mesh) = node.mesh() {
            for primitive in mesh.primitives() {
                self.add_primitive(&primitive, &placed, buffers, file)?;
            }
        }
        for child in node.children() {
            self.add_node(&child, placed, buffers, file)?;
        }
        Ok(())
    }

    fn add_primitive(
        &mut self,
        primitive: &gltf::Primitive,
        placed: &Matrix4<f64>,
        buffers: &[Vec<u8>],
        file: &Path,
    ) -> Result<(), LoadError> {
        // Points and lines have no surface; strips and fans are rare in the field's files.
        match primitive.mode() {
            Mode::Triangles => {}
            Mode::Points | Mode::Lines | Mode::LineLoop | Mode::LineStrip => return Ok(()),
            other => {
                return Err(LoadError::new(
                    file,
                    None,
                    format!(
                        "a mesh primitive drawn as {other:?} is not read (only triangle lists)"
                    ),
                ));
            }
        }
        let reader = primitive.reader(|buffer| buffers.get(buffer.index()).map(Vec::as_slice));
        let Some(positions) = reader.read_positions() else {
            return Err(LoadError::new(
                file,
                None,
                "a mesh primitive has no positions",
            ));
        };
        let first = self.vertices.len() as u32;
        let count = positions.len() as u32;
        self.vertices.extend(positions.map(|[x, y, z]| {
            placed.transform_point(&Point3::new(f64::from(x), f64::from(y), f64::from(z)))
        }));
        let indices: Vec<u32> = match reader.read_indices() {
            Some(indices) => indices.into_u32().collect(),
            None => (0..count).collect(),
        };
        if !indices.len().is_multiple_of(3) || indices.iter().any(|&i| i >= count) {
            return Err(LoadError::new(
                file,
                None,
                "a mesh primitive's indices do not make triangles of its vertices",
            ));
        }
        // A mirroring node (negative determinant) turns the surface inside out: flip it back.
        let mirrored = placed.fixed_view::<3, 3>(0, 0).determinant() < 0.0;
        self.triangles.extend(indices.chunks(3).map(|t| {
            let (a, b, c) = (t[0] + first, t[1] + first, t[2] + first);
            if mirrored { [a, c, b] } else { [a, b, c] }
        }));
        Ok(())
    }
}
