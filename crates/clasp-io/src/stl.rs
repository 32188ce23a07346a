//! STL meshes, ASCII and binary, read with stl_io.
//!
//! Binary files whose 80-byte header starts with "solid" are common (GraspIt's Schunk hand has
//! them) and stl_io would take them for ASCII, so the format is chosen here: binary when the
//! size matches the triangle count in the header, or when the file does not start with "solid".
//! stl_io's errors carry no line number, so ASCII text is handed to it one line at a time
//! ([`LineReader`]) and the line it was reading when it failed is the error's line.

use std::{borrow::Cow, path::Path};

use clasp_collide::TriMesh;
use nalgebra::Point3;
use stl_io::TriangleIterator;

use crate::{error::LoadError, line_reader::LineReader, mesh_builder::MeshBuilder};

/// Parses an STL file, ASCII or binary, into a triangle mesh.
pub fn parse_stl(bytes: &[u8], file: &Path) -> Result<TriMesh, LoadError> {
    if bytes.is_empty() {
        return Err(LoadError::new(file, None, "the file is empty"));
    }
    if is_binary(bytes) {
        parse_binary(bytes, file)
    } else {
        parse_ascii(bytes, file)
    }
}

/// Whether a file is binary STL: its size is 84 bytes plus 50 per triangle the header counts,
/// or it does not start with "solid" as ASCII STL does.
pub(crate) fn is_binary(bytes: &[u8]) -> bool {
    let sized = bytes.get(80..84).is_some_and(|count| {
        let count = u32::from_le_bytes([count[0], count[1], count[2], count[3]]);
        84 + 50 * u64::from(count) == bytes.len() as u64
    });
    sized || !bytes.starts_with(b"solid")
}

fn parse_binary(bytes: &[u8], file: &Path) -> Result<TriMesh, LoadError> {
    // The header is free text; without "solid" at its start stl_io reads the file as binary.
    let mut copy = Cow::Borrowed(bytes);
    if bytes.starts_with(b"solid") {
        copy.to_mut()[0] = b'S';
    }
    let mut cursor = std::io::Cursor::new(copy.as_ref());
    let triangles = stl_io::create_stl_reader(&mut cursor).map_err(|e| {
        LoadError::new(
            file,
            None,
            format!("expected a binary STL header of 84 bytes: {e}"),
        )
    })?;
    let count = bytes
        .get(80..84)
        .map_or(0, |c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    let builder = build(triangles).map_err(|(t, e)| {
        let message = match e {
            Some(e) => format!("the binary STL file ends in triangle {t} of {count}: {e}"),
            None => format!("binary triangle {t} has a coordinate that is not a finite number"),
        };
        LoadError::new(file, None, message)
    })?;
    builder.finish(file)
}

fn parse_ascii(bytes: &[u8], file: &Path) -> Result<TriMesh, LoadError> {
    // stl_io wants "solid NAME"; a nameless "solid" line is common, so give it a space (which
    // adds no line).
    let mut copy = Cow::Borrowed(bytes);
    if bytes.get(5).is_some_and(|&b| b != b' ') || bytes.len() == 5 {
        copy = Cow::Owned([b"solid ", &bytes[5..]].concat());
    }
    let mut reader = LineReader::new(&copy);
    let triangles = stl_io::create_stl_reader(&mut reader)
        .map_err(|e| LoadError::new(file, Some(1), format!("malformed ASCII STL: {e}")))?;
    let built = build(triangles);
    // The triangles, which borrowed the reader, are gone: its place is the failing line.
    let builder = built.map_err(|(t, e)| {
        let message = match e {
            Some(e) => format!("malformed ASCII STL in facet {t}: {e}"),
            None => format!("facet {t} has a coordinate that is not a finite number"),
        };
        LoadError::new(file, Some(reader.line()), message)
    })?;
    builder.finish(file)
}

/// Adds every triangle; a failure is the triangle's number with stl_io's error, or with none
/// when a coordinate is not finite.
fn build<'a>(
    triangles: Box<dyn TriangleIterator<Item = std::io::Result<stl_io::Triangle>> + 'a>,
) -> Result<MeshBuilder, (usize, Option<std::io::Error>)> {
    let mut builder = MeshBuilder::new();
    for (t, triangle) in triangles.enumerate() {
        let triangle = triangle.map_err(|e| (t, Some(e)))?;
        let mut corners = [0; 3];
        for (corner, v) in corners.iter_mut().zip(triangle.vertices) {
            let [x, y, z] = [v[0], v[1], v[2]].map(f64::from);
            if !(x.is_finite() && y.is_finite() && z.is_finite()) {
                return Err((t, None));
            }
            *corner = builder.vertex(Point3::new(x, y, z));
        }
        builder.triangle(corners);
    }
    Ok(builder)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(bytes: &[u8]) -> Result<TriMesh, LoadError> {
        parse_stl(bytes, Path::new("m.stl"))
    }

    const SQUARE: &str = "solid\n\
        facet normal 0 0 1\n outer loop\n  vertex 0 0 0\n  vertex 1 0 0\n  vertex 1 1 0\n endloop\nendfacet\n\
        facet normal 0 0 1\n outer loop\n  vertex 0 0 0\n  vertex 1 1 0\n  vertex 0 1 0.5\n endloop\nendfacet\n\
        endsolid\n";

    /// Binary STL with the given header start and triangles.
    fn binary(header: &[u8], triangles: &[[[f32; 3]; 3]]) -> Vec<u8> {
        let mut out = header.to_vec();
        out.resize(80, b' ');
        out.extend_from_slice(&(triangles.len() as u32).to_le_bytes());
        for triangle in triangles {
            out.extend_from_slice(&[0u8; 12]);
            for c in triangle.iter().flatten() {
                out.extend_from_slice(&c.to_le_bytes());
            }
            out.extend_from_slice(&[0, 0]);
        }
        out
    }

    #[test]
    fn reads_ascii_with_a_nameless_solid() {
        let mesh = parse(SQUARE.as_bytes()).unwrap();
        assert_eq!(mesh.vertices().len(), 4);
        assert_eq!(mesh.triangles(), &[[0, 1, 2], [0, 2, 3]]);
        assert_eq!(mesh.vertices()[3], Point3::new(0.0, 1.0, 0.5));
    }

    #[test]
    fn reads_binary_even_when_the_header_says_solid() {
        let triangles = [[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0]]];
        for header in [&b"solid PalmSimple"[..], b"made by hand"] {
            let mesh = parse(&binary(header, &triangles)).unwrap();
            assert_eq!(mesh.triangles(), &[[0, 1, 2]]);
            assert_eq!(mesh.vertices()[2], Point3::new(1.0, 1.0, 0.0));
        }
    }

    #[test]
    fn errors_name_the_line_or_triangle() {
        let err = parse(SQUARE.replace("vertex 1 0 0", "vertex 1 0").as_bytes()).unwrap_err();
        assert_eq!(err.line, Some(5), "{err}");
        let err = parse(SQUARE.replace("0 1 0.5", "0 1 1e99").as_bytes()).unwrap_err();
        assert_eq!(err.line, Some(13), "{err}");
        let err = parse(SQUARE.replace("endsolid\n", "").as_bytes()).unwrap_err();
        assert_eq!(err.line, Some(15), "{err}");
        let bad = [[[0.0, 0.0, 0.0], [f32::NAN, 0.0, 0.0], [1.0, 1.0, 0.0]]];
        let err = parse(&binary(b"x", &bad)).unwrap_err();
        assert!(err.message.contains("triangle 0"), "{err}");
        let mut cut = binary(b"x", &[[[0.0; 3]; 3]; 2]);
        cut.truncate(120);
        let err = parse(&cut).unwrap_err();
        assert!(err.message.contains("ends in triangle 0 of 2"), "{err}");
        assert_eq!(parse(b"").unwrap_err().line, None);
    }

    #[test]
    fn reads_graspits_schunk_files() {
        let Some(root) = crate::fixtures::graspit_models() else {
            return;
        };
        let folder = root.join("robots/Schunk/iv");
        let read = |name: &str| {
            let path = folder.join(name);
            parse_stl(&std::fs::read(&path).unwrap(), &path).unwrap()
        };
        // Both kinds are binary; the .stl headers of palm and knuckle start with "solid". The
        // .stlb files are a different export with a few triangles fewer.
        for (name, triangles) in [
            ("palm.stl", 1380),
            ("palm.stlb", 1369),
            ("knuckle.stl", 916),
            ("knuckle.stlb", 909),
            ("finger.stl", 406),
            ("finger.stlb", 406),
            ("finger_tip.stl", 426),
            ("finger_tip.stlb", 425),
        ] {
            assert_eq!(read(name).triangles().len(), triangles, "{name}");
        }
        // The palm in STL and in PLY is the same welded mesh.
        let ply_path = folder.join("palm.ply");
        let ply = crate::ply::parse_ply(&std::fs::read(&ply_path).unwrap(), &ply_path).unwrap();
        assert_eq!(read("palm.stl").vertices().len(), ply.vertices().len());
    }

    #[test]
    fn load_mesh_file_reads_ply_obj_and_stl() {
        use crate::{
            geometry::{GeometryFormat, load_mesh_file},
            source::Embedded,
        };
        let files = Embedded::new([
            (
                "g/square.ply",
                "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n4 0 1 2 3\n",
            ),
            (
                "g/square.obj",
                "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n",
            ),
            ("g/square.stl", SQUARE),
        ]);
        for name in ["square.ply", "square.obj", "square.stl"] {
            let path = Path::new("g").join(name);
            let file = load_mesh_file(&files, &path, GeometryFormat::of(&path, None)).unwrap();
            assert_eq!(file.mesh.triangles().len(), 2, "{name}");
            assert_eq!(file.mesh.vertices().len(), 4, "{name}");
        }
    }
}
