//! Wavefront OBJ meshes, read with tobj; every object and group is merged into one mesh.
//!
//! tobj's errors carry no line number, so the text is handed to it one line at a time
//! ([`LineReader`]) and the line it was reading when it failed is the error's line. tobj checks
//! face indices only when an object ends, so for those errors (and for non-finite positions,
//! which tobj accepts) the offending line is found by a second look at the text.

use std::path::Path;

use clasp_collide::TriMesh;
use nalgebra::Point3;

use crate::{error::LoadError, line_reader::LineReader, mesh_builder::MeshBuilder};

/// Parses OBJ text into a triangle mesh; polygons become triangle fans, points and lines are
/// ignored, and material libraries are not read.
pub fn parse_obj(bytes: &[u8], file: &Path) -> Result<TriMesh, LoadError> {
    let options = tobj::LoadOptions {
        single_index: false,
        triangulate: false,
        ignore_points: true,
        ignore_lines: true,
    };
    let mut reader = LineReader::new(bytes);
    let loaded = tobj::load_obj_buf(&mut reader, &options, |_| {
        Err(tobj::LoadError::OpenFileFailed)
    });
    let (models, _materials) = loaded.map_err(|e| {
        let line = match e {
            tobj::LoadError::FaceVertexOutOfBounds
            | tobj::LoadError::FaceTexCoordOutOfBounds
            | tobj::LoadError::FaceNormalOutOfBounds => {
                bad_face_line(bytes, reader.line()).unwrap_or(reader.line())
            }
            _ => reader.line(),
        };
        LoadError::new(file, Some(line), describe(&e))
    })?;
    let mut builder = MeshBuilder::new();
    for model in &models {
        let mesh = &model.mesh;
        let mut corners = Vec::with_capacity(mesh.positions.len() / 3);
        for p in mesh.positions.chunks_exact(3) {
            if !p.iter().all(|c| c.is_finite()) {
                // tobj keeps only the used positions, renumbered; find the line in the text.
                let line = nonfinite_vertex_line(bytes).unwrap_or(reader.line());
                return Err(LoadError::new(
                    file,
                    Some(line),
                    "the vertex has a coordinate that is not a finite number",
                ));
            }
            corners.push(builder.vertex(Point3::new(p[0], p[1], p[2])));
        }
        add_faces(&mut builder, mesh, &corners);
    }
    builder.finish(file)
}

/// Adds a model's faces; `face_arities` is empty when every face is a triangle.
fn add_faces(builder: &mut MeshBuilder, mesh: &tobj::Mesh, corners: &[u32]) {
    let mut polygon = Vec::new();
    let mut start = 0;
    let arities = mesh.face_arities.iter().map(|&a| a as usize);
    let arities: Box<dyn Iterator<Item = usize>> = if mesh.face_arities.is_empty() {
        Box::new(std::iter::repeat_n(3, mesh.indices.len() / 3))
    } else {
        Box::new(arities)
    };
    for arity in arities {
        let Some(face) = mesh.indices.get(start..start + arity) else {
            break;
        };
        start += arity;
        polygon.clear();
        polygon.extend(face.iter().filter_map(|&i| corners.get(i as usize)));
        builder.polygon(&polygon);
    }
}

fn describe(e: &tobj::LoadError) -> String {
    use tobj::LoadError as E;
    match e {
        E::ReadError => "the line is not UTF-8 text".into(),
        E::PositionParseError => "expected a vertex \"v x y z [w]\" of numbers".into(),
        E::ScalingByZeroError => "the vertex's w is zero".into(),
        E::ColorParseError => "expected \"v x y z\", \"v x y z w\" or \"v x y z r g b\"".into(),
        E::NormalParseError => "expected a normal \"vn x y z\" of numbers".into(),
        E::TexcoordParseError => "expected a texture coordinate \"vt u v\" of numbers".into(),
        E::FaceParseError => "expected a face \"f v1 v2 v3 ...\" of vertex numbers".into(),
        E::FaceVertexOutOfBounds => "the face refers to a vertex that does not exist".into(),
        E::FaceTexCoordOutOfBounds => {
            "the face refers to a texture coordinate that does not exist".into()
        }
        E::FaceNormalOutOfBounds => "the face refers to a normal that does not exist".into(),
        other => format!("malformed OBJ: {other}"),
    }
}

/// The first `f` line up to `last_line` with an index outside what was defined by then
/// (tobj reports such faces only where the object ends).
fn bad_face_line(bytes: &[u8], last_line: usize) -> Option<usize> {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.lines().take(last_line).collect();
    // How many v, vt and vn lines there are up to the end of the object.
    let mut totals = [0i64; 3];
    for line in &lines {
        if let Some(kind) = attribute_kind(line) {
            totals[kind] += 1;
        }
    }
    let mut seen = [0i64; 3];
    for (n, line) in lines.iter().enumerate() {
        if let Some(kind) = attribute_kind(line) {
            seen[kind] += 1;
        }
        let mut words = line.split_whitespace();
        if words.next() != Some("f") {
            continue;
        }
        let bad = words.any(|corner| {
            corner.split('/').enumerate().any(|(kind, index)| {
                let Ok(i) = index.parse::<i64>() else {
                    return false;
                };
                let total = totals.get(kind).copied().unwrap_or(0);
                let seen = seen.get(kind).copied().unwrap_or(0);
                if i > 0 {
                    i > total
                } else {
                    i == 0 || -i > seen
                }
            })
        });
        if bad {
            return Some(n + 1);
        }
    }
    None
}

/// 0 for `v`, 1 for `vt`, 2 for `vn`.
fn attribute_kind(line: &str) -> Option<usize> {
    match line.split_whitespace().next()? {
        "v" => Some(0),
        "vt" => Some(1),
        "vn" => Some(2),
        _ => None,
    }
}

/// The first `v` line whose position, divided by its `w` where it has one, is not finite.
fn nonfinite_vertex_line(bytes: &[u8]) -> Option<usize> {
    let text = String::from_utf8_lossy(bytes);
    let position = |line: &str| -> Option<[f64; 3]> {
        let numbers: Vec<f64> = line
            .split_whitespace()
            .skip(1)
            .map(|t| t.parse().ok())
            .collect::<Option<_>>()?;
        match numbers.as_slice() {
            [x, y, z, w] => Some([x / w, y / w, z / w]),
            [x, y, z, ..] => Some([*x, *y, *z]),
            _ => None,
        }
    };
    text.lines()
        .enumerate()
        .filter(|(_, line)| attribute_kind(line) == Some(0))
        .find(|(_, line)| position(line).is_some_and(|p| !p.iter().all(|c| c.is_finite())))
        .map(|(n, _)| n + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<TriMesh, LoadError> {
        parse_obj(text.as_bytes(), Path::new("m.obj"))
    }

    #[test]
    fn merges_objects_and_fans_polygons() {
        let mesh = parse(
            "# two objects\no a\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\n\
             f 1//1 2//1 3//1 4//1\no b\nv 0 0 0.5\nf -1 1 2\nl 1 2\nf 1 2\n",
        )
        .unwrap();
        // The square's fan and one triangle of b; b's first corner is a new vertex.
        assert_eq!(mesh.triangles().len(), 3);
        assert_eq!(mesh.vertices().len(), 5);
        assert_eq!(mesh.vertices()[2], Point3::new(1.0, 1.0, 0.0));
        let first_two: Vec<_> = mesh.triangles()[..2].to_vec();
        assert_eq!(first_two, vec![[0, 1, 2], [0, 2, 3]]);
    }

    #[test]
    fn errors_name_the_line() {
        let err = parse("v 0 0 0\nv 1 x 0\nv 0 1 0\nf 1 2 3\n").unwrap_err();
        assert_eq!(err.line, Some(2), "{err}");
        let err = parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\nf 1 2 3\n").unwrap_err();
        assert_eq!(err.line, Some(4), "{err}");
        assert!(err.message.contains("vertex that does not exist"), "{err}");
        let err = parse("v 0 0 0\nv 1 0 0\nv 0 1e999 0\nf 1 2 3\n").unwrap_err();
        assert_eq!(err.line, Some(3), "{err}");
        let err = parse_obj(b"v 0 0 0\nv 1 \xff 0\n", Path::new("m.obj")).unwrap_err();
        assert_eq!(err.line, Some(2), "{err}");
        let err = parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -4\n").unwrap_err();
        assert_eq!(err.line, Some(4), "{err}");
        // A file without faces is an empty mesh, as for every geometry format.
        assert!(parse("v 0 0 0\n").unwrap().triangles().is_empty());
    }
}
