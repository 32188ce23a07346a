//! The OFF mesh format: a header, vertex and face counts, vertices, then polygon faces.

use std::path::Path;

use clasp_collide::TriMesh;
use nalgebra::Point3;

use crate::error::LoadError;

/// Parses OFF text into a triangle mesh; polygons become triangle fans.
pub fn parse_off(text: &str, file: &Path) -> Result<TriMesh, LoadError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.split('#').next().unwrap_or("").trim()))
        .filter(|(_, line)| !line.is_empty());
    let error = |line: usize, message: String| LoadError::new(file, Some(line), message);

    let (header_line, header) = lines.next().ok_or_else(|| {
        LoadError::new(
            file,
            None,
            "the file is empty; an OFF file starts with \"OFF\"",
        )
    })?;
    let mut header_tokens = header.split_whitespace();
    if !header_tokens.next().is_some_and(|t| t.ends_with("OFF")) {
        return Err(error(
            header_line,
            format!("expected the \"OFF\" header, found \"{header}\""),
        ));
    }
    // The counts may follow the header on its own line or sit on the next one.
    let rest: Vec<&str> = header_tokens.collect();
    let (count_line, counts) = if rest.is_empty() {
        let (n, line) = lines.next().ok_or_else(|| {
            error(
                header_line,
                "the file ends before the vertex and face counts".into(),
            )
        })?;
        (n, line.split_whitespace().collect())
    } else {
        (header_line, rest)
    };
    let count = |i: usize, what: &str| -> Result<usize, LoadError> {
        counts.get(i).and_then(|t| t.parse().ok()).ok_or_else(|| {
            error(
                count_line,
                format!("expected the {what} count as a whole number"),
            )
        })
    };
    let (vertex_count, face_count) = (count(0, "vertex")?, count(1, "face")?);
    // Where a file that ends too early ends.
    let last_line = text.lines().count().max(1);

    // The counts come from the file: reserve no more than its text can hold.
    let mut vertices = Vec::with_capacity(vertex_count.min(text.len() / 2));
    for _ in 0..vertex_count {
        let (n, line) = lines.next().ok_or_else(|| {
            LoadError::new(
                file,
                Some(last_line),
                format!(
                    "the file ends after {} of {vertex_count} vertices",
                    vertices.len()
                ),
            )
        })?;
        let xyz: Vec<f64> = line
            .split_whitespace()
            .take(3)
            .map(|t| t.parse::<f64>().ok().filter(|v| v.is_finite()))
            .collect::<Option<_>>()
            .filter(|v: &Vec<f64>| v.len() == 3)
            .ok_or_else(|| {
                error(
                    n,
                    format!("expected a vertex of three finite numbers, found \"{line}\""),
                )
            })?;
        vertices.push(Point3::new(xyz[0], xyz[1], xyz[2]));
    }

    let mut triangles = Vec::with_capacity(face_count.min(text.len()));
    for face in 0..face_count {
        let (n, line) = lines.next().ok_or_else(|| {
            LoadError::new(
                file,
                Some(last_line),
                format!("the file ends after {face} of {face_count} faces"),
            )
        })?;
        let indices = face_indices(line, vertex_count).map_err(|message| error(n, message))?;
        // A fan from the first corner; two-sided and non-convex polygons are not expected here.
        for k in 1..indices.len() - 1 {
            triangles.push([indices[0], indices[k], indices[k + 1]]);
        }
    }
    TriMesh::new(vertices, triangles).map_err(|e| LoadError::new(file, None, e.to_string()))
}

fn face_indices(line: &str, vertex_count: usize) -> Result<Vec<u32>, String> {
    let mut tokens = line.split_whitespace();
    let corners: usize = tokens
        .next()
        .and_then(|t| t.parse().ok())
        .filter(|&k| k >= 3)
        .ok_or_else(|| format!("expected a face \"k i1 .. ik\" with k >= 3, found \"{line}\""))?;
    let indices: Vec<u32> = tokens
        .take(corners)
        .map(|t| {
            t.parse::<u32>()
                .ok()
                .filter(|&i| (i as usize) < vertex_count)
        })
        .collect::<Option<_>>()
        .ok_or_else(|| {
            format!("face \"{line}\" has an index that is not a vertex number below {vertex_count}")
        })?;
    if indices.len() != corners {
        return Err(format!(
            "face \"{line}\" lists fewer than {corners} corners"
        ));
    }
    Ok(indices)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<TriMesh, LoadError> {
        parse_off(text, Path::new("m.off"))
    }

    #[test]
    fn reads_a_square_as_two_triangles() {
        let mesh =
            parse("OFF\n# a square\n4 1 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n4 0 1 2 3\n").unwrap();
        assert_eq!(mesh.vertices().len(), 4);
        assert_eq!(mesh.triangles(), &[[0, 1, 2], [0, 2, 3]]);
    }

    #[test]
    fn counts_may_share_the_header_line() {
        let mesh = parse("OFF 3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 255 0 0\n").unwrap();
        assert_eq!(mesh.triangles().len(), 1);
    }

    #[test]
    fn errors_name_the_line() {
        let err = parse("OFF\n3 1 0\n0 0 0\n1 zero 0\n0 1 0\n3 0 1 2\n").unwrap_err();
        assert_eq!(err.line, Some(4), "{err}");
        let err = parse("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n").unwrap_err();
        assert_eq!(err.line, Some(6), "{err}");
        assert!(err.to_string().starts_with("m.off:6: "), "{err}");
        let err = parse("PLY\n").unwrap_err();
        assert_eq!(err.line, Some(1));
        let err = parse("OFF\n3 2 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n").unwrap_err();
        assert!(err.message.contains("after 1 of 2 faces"), "{err}");
        assert_eq!(err.line, Some(6), "{err}");
    }
}
