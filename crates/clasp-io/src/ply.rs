//! The PLY mesh format (Stanford), ASCII and binary of either byte order: a text header that
//! declares elements and their properties, then the elements' values.
//!
//! Only vertex positions and face corner lists are kept; every other element and property is
//! read past. Errors in the header and in ASCII bodies name the line; errors in binary bodies
//! name the byte offset.

use std::path::Path;

use clasp_collide::TriMesh;
use nalgebra::Point3;

use crate::{error::LoadError, line_reader::line_of, mesh_builder::MeshBuilder};

/// Parses a PLY file into a triangle mesh; polygons become triangle fans.
pub fn parse_ply(bytes: &[u8], file: &Path) -> Result<TriMesh, LoadError> {
    let header = parse_header(bytes, file)?;
    let mut body = Body {
        bytes,
        pos: header.body_start,
        format: header.format,
        file,
    };
    let mut builder = MeshBuilder::new();
    // The builder index of each vertex in file order; welding makes them differ.
    let mut vertices: Option<Vec<u32>> = None;
    for element in &header.elements {
        match element.name.as_str() {
            "vertex" => vertices = Some(read_vertices(&mut body, element, &mut builder)?),
            "face" => {
                let Some(vertices) = &vertices else {
                    return Err(LoadError::new(
                        file,
                        Some(element.line),
                        "the face element comes before the vertex element",
                    ));
                };
                read_faces(&mut body, element, vertices, &mut builder)?;
            }
            _ => skip_element(&mut body, element)?,
        }
    }
    builder.finish(file)
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Format {
    Ascii,
    Binary { big_endian: bool },
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Scalar {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    F32,
    F64,
}

impl Scalar {
    fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "char" | "int8" => Self::I8,
            "uchar" | "uint8" => Self::U8,
            "short" | "int16" => Self::I16,
            "ushort" | "uint16" => Self::U16,
            "int" | "int32" => Self::I32,
            "uint" | "uint32" => Self::U32,
            "float" | "float32" => Self::F32,
            "double" | "float64" => Self::F64,
            _ => return None,
        })
    }

    fn size(self) -> usize {
        match self {
            Self::I8 | Self::U8 => 1,
            Self::I16 | Self::U16 => 2,
            Self::I32 | Self::U32 | Self::F32 => 4,
            Self::F64 => 8,
        }
    }

    fn is_integer(self) -> bool {
        !matches!(self, Self::F32 | Self::F64)
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Property {
    Scalar(Scalar),
    List { count: Scalar, item: Scalar },
}

#[derive(Debug)]
struct Element {
    name: String,
    count: usize,
    properties: Vec<(String, Property)>,
    line: usize,
}

impl Element {
    fn property(&self, name: &str) -> Option<usize> {
        self.properties.iter().position(|(n, _)| n == name)
    }
}

struct Header {
    format: Format,
    elements: Vec<Element>,
    body_start: usize,
}

fn parse_header(bytes: &[u8], file: &Path) -> Result<Header, LoadError> {
    if bytes.is_empty() {
        return Err(LoadError::new(
            file,
            None,
            "the file is empty; a PLY file starts with \"ply\"",
        ));
    }
    let error = |line: usize, message: String| LoadError::new(file, Some(line), message);
    let mut format = None;
    let mut elements: Vec<Element> = Vec::new();
    let mut pos = 0;
    let mut number = 0;
    while pos < bytes.len() {
        number += 1;
        let end = bytes[pos..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| pos + i + 1);
        let raw = &bytes[pos..end];
        pos = end;
        let text = std::str::from_utf8(raw)
            .map_err(|_| error(number, "the header holds a byte that is not text".into()))?;
        let words: Vec<&str> = text.split_whitespace().collect();
        if number == 1 {
            if words != ["ply"] {
                return Err(error(
                    1,
                    format!("expected the \"ply\" header, found \"{}\"", text.trim()),
                ));
            }
            continue;
        }
        match words.as_slice() {
            ["format", kind, _version] => {
                format = Some(match *kind {
                    "ascii" => Format::Ascii,
                    "binary_little_endian" => Format::Binary { big_endian: false },
                    "binary_big_endian" => Format::Binary { big_endian: true },
                    other => {
                        return Err(error(
                            number,
                            format!(
                                "expected ascii, binary_little_endian or binary_big_endian, found \"{other}\""
                            ),
                        ));
                    }
                });
            }
            ["comment" | "obj_info", ..] | [] => {}
            ["element", name, count] => elements.push(Element {
                name: name.to_string(),
                count: count.parse().map_err(|_| {
                    error(
                        number,
                        format!("expected the element count as a whole number, found \"{count}\""),
                    )
                })?,
                properties: Vec::new(),
                line: number,
            }),
            ["property", ..] => {
                let (name, property) = parse_property(&words[1..])
                    .ok_or_else(|| error(number, format!(
                        "expected \"property TYPE NAME\" or \"property list COUNTTYPE ITEMTYPE NAME\", found \"{}\"",
                        text.trim()
                    )))?;
                let element = elements
                    .last_mut()
                    .ok_or_else(|| error(number, "a property comes before any element".into()))?;
                element.properties.push((name, property));
            }
            ["end_header"] => {
                let format = format.ok_or_else(|| {
                    error(number, "the header ends without a \"format\" line".into())
                })?;
                return Ok(Header {
                    format,
                    elements,
                    body_start: pos,
                });
            }
            _ => {
                return Err(error(
                    number,
                    format!(
                        "expected a header line (format, comment, element, property, end_header), found \"{}\"",
                        text.trim()
                    ),
                ));
            }
        }
    }
    Err(error(
        number,
        "the file ends inside the header, before \"end_header\"".into(),
    ))
}

fn parse_property(words: &[&str]) -> Option<(String, Property)> {
    match words {
        ["list", count, item, name] => {
            let count = Scalar::parse(count).filter(|c| c.is_integer())?;
            let item = Scalar::parse(item)?;
            Some((name.to_string(), Property::List { count, item }))
        }
        [ty, name] => Some((name.to_string(), Property::Scalar(Scalar::parse(ty)?))),
        _ => None,
    }
}

/// The values after the header, read one at a time.
struct Body<'a> {
    bytes: &'a [u8],
    pos: usize,
    format: Format,
    file: &'a Path,
}

impl Body<'_> {
    fn value(&mut self, ty: Scalar, what: &str) -> Result<f64, LoadError> {
        match self.format {
            Format::Ascii => self.ascii_value(ty, what),
            Format::Binary { big_endian } => self.binary_value(ty, big_endian, what),
        }
    }

    fn ascii_value(&mut self, ty: Scalar, what: &str) -> Result<f64, LoadError> {
        let rest = &self.bytes[self.pos..];
        let Some(start) = rest.iter().position(|b| !b.is_ascii_whitespace()) else {
            self.pos = self.bytes.len();
            return Err(self.error(format!("the file ends before {what}")));
        };
        let len = rest[start..]
            .iter()
            .position(|b| b.is_ascii_whitespace())
            .unwrap_or(rest.len() - start);
        self.pos += start + len;
        let token = &rest[start..start + len];
        let parsed = std::str::from_utf8(token).ok().and_then(|t| {
            if ty.is_integer() {
                t.parse::<i64>().ok().map(|v| v as f64)
            } else {
                t.parse::<f64>().ok()
            }
        });
        parsed.ok_or_else(|| {
            let kind = if ty.is_integer() {
                "a whole number"
            } else {
                "a number"
            };
            self.error(format!(
                "expected {kind} for {what}, found \"{}\"",
                String::from_utf8_lossy(token)
            ))
        })
    }

    fn binary_value(&mut self, ty: Scalar, big_endian: bool, what: &str) -> Result<f64, LoadError> {
        let size = ty.size();
        let Some(raw) = self.bytes.get(self.pos..self.pos + size) else {
            return Err(self.error(format!("the file ends before {what}")));
        };
        self.pos += size;
        let mut b = [0u8; 8];
        b[..size].copy_from_slice(raw);
        if big_endian {
            b[..size].reverse();
        }
        // Little-endian from here on.
        Ok(match ty {
            Scalar::I8 => f64::from(b[0] as i8),
            Scalar::U8 => f64::from(b[0]),
            Scalar::I16 => f64::from(i16::from_le_bytes([b[0], b[1]])),
            Scalar::U16 => f64::from(u16::from_le_bytes([b[0], b[1]])),
            Scalar::I32 => f64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            Scalar::U32 => f64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            Scalar::F32 => f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            Scalar::F64 => f64::from_le_bytes(b),
        })
    }

    /// An error at the current place: the line of the last value in ASCII, the byte offset in
    /// binary.
    fn error(&self, message: String) -> LoadError {
        match self.format {
            Format::Ascii => LoadError::new(
                self.file,
                Some(line_of(self.bytes, self.pos.saturating_sub(1))),
                message,
            ),
            Format::Binary { .. } => LoadError::new(
                self.file,
                None,
                format!("{message} (binary data, byte {})", self.pos),
            ),
        }
    }

    /// A list's length: a whole number, not negative.
    fn list_length(&mut self, ty: Scalar, what: &str) -> Result<usize, LoadError> {
        let n = self.value(ty, what)?;
        if n < 0.0 {
            return Err(self.error(format!("expected a list length for {what}, found {n}")));
        }
        Ok(n as usize)
    }

    /// Reads one property's value(s); a scalar's value is returned, a list is read past.
    fn skip_property(&mut self, property: &Property, what: &str) -> Result<(), LoadError> {
        match *property {
            Property::Scalar(ty) => {
                self.value(ty, what)?;
            }
            Property::List { count, item } => {
                // Each item reads input, so a huge length ends at the end of the file.
                for _ in 0..self.list_length(count, what)? {
                    self.value(item, what)?;
                }
            }
        }
        Ok(())
    }
}

fn read_vertices(
    body: &mut Body,
    element: &Element,
    builder: &mut MeshBuilder,
) -> Result<Vec<u32>, LoadError> {
    let mut slots = [0usize; 3];
    for (slot, axis) in slots.iter_mut().zip(["x", "y", "z"]) {
        *slot = element
            .property(axis)
            .filter(|&i| matches!(element.properties[i].1, Property::Scalar(_)))
            .ok_or_else(|| {
                LoadError::new(
                    body.file,
                    Some(element.line),
                    format!("the vertex element has no number property \"{axis}\""),
                )
            })?;
    }
    let mut indices = Vec::new();
    for v in 0..element.count {
        let what = format!("vertex {v}");
        let mut xyz = [0.0; 3];
        for (p, (_, property)) in element.properties.iter().enumerate() {
            match (slots.iter().position(|&s| s == p), property) {
                (Some(axis), Property::Scalar(ty)) => {
                    xyz[axis] = body.value(*ty, &what)?;
                    if !xyz[axis].is_finite() {
                        return Err(body.error(format!(
                            "{what} has a coordinate that is not a finite number"
                        )));
                    }
                }
                _ => body.skip_property(property, &what)?,
            }
        }
        indices.push(builder.vertex(Point3::from(xyz)));
    }
    Ok(indices)
}

fn read_faces(
    body: &mut Body,
    element: &Element,
    vertices: &[u32],
    builder: &mut MeshBuilder,
) -> Result<(), LoadError> {
    let list = element
        .property("vertex_indices")
        .or_else(|| element.property("vertex_index"))
        .filter(|&i| matches!(element.properties[i].1, Property::List { .. }))
        .ok_or_else(|| {
            LoadError::new(
                body.file,
                Some(element.line),
                "the face element has no list property \"vertex_indices\" or \"vertex_index\"",
            )
        })?;
    let mut corners = Vec::new();
    for f in 0..element.count {
        let what = format!("face {f}");
        for (p, (_, property)) in element.properties.iter().enumerate() {
            match property {
                Property::List { count, item } if p == list => {
                    corners.clear();
                    for _ in 0..body.list_length(*count, &what)? {
                        let index = body.value(*item, &what)?;
                        let corner = vertices
                            .get(index as usize)
                            .filter(|_| index >= 0.0 && index.fract() == 0.0)
                            .ok_or_else(|| {
                                body.error(format!(
                                    "{what} refers to vertex {index}, but there are {} vertices",
                                    vertices.len()
                                ))
                            })?;
                        corners.push(*corner);
                    }
                    builder.polygon(&corners);
                }
                _ => body.skip_property(property, &what)?,
            }
        }
    }
    Ok(())
}

fn skip_element(body: &mut Body, element: &Element) -> Result<(), LoadError> {
    // An element without properties takes no bytes, however large its count.
    if element.properties.is_empty() {
        return Ok(());
    }
    for i in 0..element.count {
        let what = format!("{} {i}", element.name);
        for (_, property) in &element.properties {
            body.skip_property(property, &what)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(bytes: &[u8]) -> Result<TriMesh, LoadError> {
        parse_ply(bytes, Path::new("m.ply"))
    }

    const SQUARE: &str = "ply\nformat ascii 1.0\ncomment a unit square\n\
        element vertex 4\nproperty float x\nproperty float y\nproperty float z\n\
        property uchar red\nelement face 1\nproperty list uchar int vertex_indices\n\
        property int flags\nelement edge 1\nproperty int a\nproperty list uint ushort more\n\
        end_header\n0 0 0 9\n1 0 0 9\n1 1 0 9\n0 1 0 9\n4 0 1 2 3 7\n5 2 1 2\n";

    #[test]
    fn reads_ascii_and_skips_other_properties_and_elements() {
        let mesh = parse(SQUARE.as_bytes()).unwrap();
        assert_eq!(mesh.vertices().len(), 4);
        assert_eq!(mesh.vertices()[2], Point3::new(1.0, 1.0, 0.0));
        assert_eq!(mesh.triangles(), &[[0, 1, 2], [0, 2, 3]]);
    }

    /// The square as binary with a double x, a short y, a float z, and int face indices.
    fn binary(big_endian: bool) -> Vec<u8> {
        let order = if big_endian { "big" } else { "little" };
        let mut out = format!(
            "ply\nformat binary_{order}_endian 1.0\nelement vertex 4\nproperty double x\n\
             property short y\nproperty float z\nelement face 2\nproperty uchar flags\n\
             property list uchar uint vertex_index\nelement extra 3\nproperty list int char q\n\
             end_header\n"
        )
        .into_bytes();
        let mut put = |bytes: &[u8]| {
            let mut b = bytes.to_vec();
            if big_endian {
                b.reverse();
            }
            out.extend_from_slice(&b);
        };
        for (x, y) in [(0.0, 0), (1.0, 0), (1.0, 1), (0.0, 1)] {
            put(&f64::to_le_bytes(x));
            put(&i16::to_le_bytes(y));
            put(&f32::to_le_bytes(2.5));
        }
        for face in [[0u32, 1, 2], [0, 2, 3]] {
            put(&[7]);
            put(&[3]);
            for i in face {
                put(&i.to_le_bytes());
            }
        }
        for _ in 0..3 {
            put(&1i32.to_le_bytes());
            put(&[5]);
        }
        out
    }

    #[test]
    fn reads_binary_of_both_byte_orders() {
        for big_endian in [false, true] {
            let mesh = parse(&binary(big_endian)).unwrap();
            assert_eq!(mesh.vertices()[1], Point3::new(1.0, 0.0, 2.5));
            assert_eq!(mesh.triangles(), &[[0, 1, 2], [0, 2, 3]]);
        }
    }

    #[test]
    fn errors_name_the_line_or_byte() {
        let err = parse(b"ply\nformat ascii 1.0\nelement vertex x\n").unwrap_err();
        assert_eq!(err.line, Some(3), "{err}");
        let err = parse(b"PLY\n").unwrap_err();
        assert_eq!(err.line, Some(1), "{err}");
        let bad = SQUARE.replace("1 1 0 9", "1 nan 0 9");
        let err = parse(bad.as_bytes()).unwrap_err();
        assert_eq!(err.line, Some(18), "{err}");
        assert!(err.message.contains("vertex 2"), "{err}");
        let bad = SQUARE.replace("4 0 1 2 3 7", "4 0 1 2 4 7");
        let err = parse(bad.as_bytes()).unwrap_err();
        assert_eq!(err.line, Some(20), "{err}");
        assert!(err.message.contains("refers to vertex 4"), "{err}");
        let err = parse(&SQUARE.as_bytes()[..SQUARE.len() - 6]).unwrap_err();
        assert!(err.message.contains("ends before edge 0"), "{err}");
        assert_eq!(err.line, Some(21), "{err}");
        // Cut inside vertex 1's y (8 + 2 + 4 bytes per vertex).
        let whole = binary(false);
        let body = whole
            .windows(11)
            .position(|w| w == b"end_header\n")
            .unwrap()
            + 11;
        let err = parse(&whole[..body + 14 + 9]).unwrap_err();
        assert_eq!(err.line, None);
        assert!(err.message.contains("ends before vertex 1"), "{err}");
        assert!(
            err.message.contains(&format!("byte {}", body + 14 + 8)),
            "{err}"
        );
        let err =
            parse(b"ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n").unwrap_err();
        assert!(err.message.contains("end_header"), "{err}");
        assert_eq!(err.line, Some(4), "{err}");
        assert_eq!(parse(b"").unwrap_err().line, None);
    }

    #[test]
    fn huge_counts_end_at_the_end_of_the_input() {
        let text = "ply\nformat binary_little_endian 1.0\nelement nothing 4000000000\n\
                    element vertex 4000000000\nproperty float x\nproperty float y\n\
                    property float z\nend_header\n";
        let err = parse(text.as_bytes()).unwrap_err();
        assert!(err.message.contains("ends before vertex 0"), "{err}");
    }

    #[test]
    fn reads_graspits_schunk_palm() {
        let Some(root) = crate::fixtures::graspit_models() else {
            return;
        };
        let path = root.join("robots/Schunk/iv/palm.ply");
        let bytes = std::fs::read(&path).unwrap();
        let mesh = parse_ply(&bytes, &path).unwrap();
        // 1380 triangles, all with area; the 4140 unshared corners weld to 703 vertices.
        assert_eq!(mesh.triangles().len(), 1380);
        assert_eq!(mesh.dropped_degenerate(), 0);
        assert_eq!(mesh.vertices().len(), 703);
    }
}
