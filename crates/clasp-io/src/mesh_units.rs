//! A bare mesh file's length unit and up axis. OBJ, STL, PLY, OFF and Inventor carry neither,
//! glTF fixes both (metres, Y up); Clasp works in millimetres with Z up. What the user gives
//! wins; otherwise glTF's specification, else the mesh's size decides the unit: a graspable
//! object is millimetres to a metre across. The choice is always said ([`MeshUnits`]'s one
//! line), never made in silence.

use std::{fmt, path::Path, path::PathBuf, str::FromStr};

use clasp_collide::TriMesh;
use nalgebra::Point3;

use crate::{
    error::LoadError,
    geometry::{GeometryFormat, load_mesh_file},
    mesh_file::MeshFile,
    source::FileSource,
};

/// A length unit a mesh file's numbers may be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LengthUnit {
    Millimetres,
    Metres,
}

impl LengthUnit {
    /// Millimetres per one of this unit.
    pub fn millimetres(self) -> f64 {
        match self {
            Self::Millimetres => 1.0,
            Self::Metres => 1000.0,
        }
    }

    /// The unit's symbol, as `--units` takes it: "mm" or "m".
    pub fn symbol(self) -> &'static str {
        match self {
            Self::Millimetres => "mm",
            Self::Metres => "m",
        }
    }

    /// The unit's name in a sentence: "millimetres" or "metres".
    pub fn name(self) -> &'static str {
        match self {
            Self::Millimetres => "millimetres",
            Self::Metres => "metres",
        }
    }

    fn other(self) -> Self {
        match self {
            Self::Millimetres => Self::Metres,
            Self::Metres => Self::Millimetres,
        }
    }
}

impl FromStr for LengthUnit {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text.to_ascii_lowercase().as_str() {
            "mm" | "millimetres" | "millimeters" => Ok(Self::Millimetres),
            "m" | "metres" | "meters" => Ok(Self::Metres),
            _ => Err(format!("unknown units \"{text}\": mm or m")),
        }
    }
}

/// Which of a mesh file's axes points up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpAxis {
    /// Y up (glTF's, and many modelling tools'): turned a quarter about x so that it is Z.
    Y,
    /// Z up, as Clasp is: read as it is.
    Z,
}

impl UpAxis {
    pub fn name(self) -> &'static str {
        match self {
            Self::Y => "y",
            Self::Z => "z",
        }
    }
}

impl FromStr for UpAxis {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text.to_ascii_lowercase().as_str() {
            "y" => Ok(Self::Y),
            "z" => Ok(Self::Z),
            _ => Err(format!("unknown up axis \"{text}\": y or z")),
        }
    }
}

/// How to read a bare mesh file: its unit and its up axis where the user gave them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MeshReading {
    pub units: Option<LengthUnit>,
    pub up: Option<UpAxis>,
}

/// What settled a mesh's unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitSource {
    /// The user (`--units`, Python's `units=`, the app's import dialog).
    Given,
    /// The format's specification (glTF's metres).
    Format,
    /// The mesh's size: below [`METRES_BELOW`] across, metres; else millimetres.
    Size,
}

/// A mesh whose largest side is below this many of its own units is read as metres where
/// nothing else says (0.005 to 2 m across), else as millimetres (2 mm and more). A graspable
/// object is millimetres to a metre across, so the two readings of one file never both fit.
pub const METRES_BELOW: f64 = 2.0;

/// The sizes a hand can grasp, mm across: a mesh read outside them is warned about.
pub const GRASPABLE_ACROSS: (f64, f64) = (1.0, 10_000.0);

/// How a bare mesh file was read: what the user sees in one line (stderr, the app's log).
#[derive(Debug, Clone, PartialEq)]
pub struct MeshUnits {
    pub file: PathBuf,
    /// The largest side of its bounding box, in the file's own numbers.
    pub across: f64,
    pub unit: LengthUnit,
    pub unit_source: UnitSource,
    pub up: UpAxis,
}

impl MeshUnits {
    /// The largest side as read, in mm.
    pub fn across_mm(&self) -> f64 {
        self.across * self.unit.millimetres()
    }

    /// Whether a hand could grasp something this size ([`GRASPABLE_ACROSS`]).
    pub fn graspable_size(&self) -> bool {
        let (lo, hi) = GRASPABLE_ACROSS;
        (lo..=hi).contains(&self.across_mm())
    }
}

impl fmt::Display for MeshUnits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.file.file_name().unwrap_or(self.file.as_os_str());
        write!(
            f,
            "{}: {} across, read as {} ({})",
            name.to_string_lossy(),
            significant(self.across),
            self.unit.name(),
            millimetres_text(self.across_mm())
        )?;
        match self.unit_source {
            UnitSource::Given => write!(f, ", as asked")?,
            UnitSource::Format => write!(f, ", as glTF is")?,
            UnitSource::Size => write!(
                f,
                "; pass --units {} if it is not",
                self.unit.other().symbol()
            )?,
        }
        if self.up == UpAxis::Y {
            write!(f, "; Y up, turned to Z up")?;
        }
        if !self.graspable_size() {
            let (lo, hi) = GRASPABLE_ACROSS;
            write!(
                f,
                "; warning: no hand grasps an object {} across (graspable: {} to {})",
                millimetres_text(self.across_mm()),
                millimetres_text(lo),
                millimetres_text(hi)
            )?;
        }
        Ok(())
    }
}

/// A number to three significant figures, without trailing zeros.
fn significant(value: f64) -> String {
    if value == 0.0 || !value.is_finite() {
        return format!("{value}");
    }
    let decimals = (2 - value.abs().log10().floor() as i32).max(0) as usize;
    let text = format!("{value:.decimals$}");
    match text.contains('.') {
        true => text.trim_end_matches('0').trim_end_matches('.').to_owned(),
        false => text,
    }
}

/// A length in mm, said in m from a metre up.
fn millimetres_text(mm: f64) -> String {
    match mm >= 1000.0 {
        true => format!("{} m", significant(mm / 1000.0)),
        false => format!("{} mm", significant(mm)),
    }
}

/// Reads a bare mesh file in Clasp's units (mm, Z up), as `reading` and the file decide, with
/// what was decided. An empty or degenerate mesh is refused, as the format readers refuse it.
pub fn read_mesh(
    source: &dyn FileSource,
    path: &Path,
    reading: MeshReading,
) -> Result<(MeshFile, MeshUnits), LoadError> {
    let format = GeometryFormat::of(path, None);
    let file = load_mesh_file(source, path, format)?;
    let across = largest_side(&file.mesh);
    let gltf = format == GeometryFormat::Gltf;
    let (unit, unit_source) = match (reading.units, gltf) {
        (Some(unit), _) => (unit, UnitSource::Given),
        (None, true) => (LengthUnit::Metres, UnitSource::Format),
        (None, false) if across < METRES_BELOW => (LengthUnit::Metres, UnitSource::Size),
        (None, false) => (LengthUnit::Millimetres, UnitSource::Size),
    };
    let up = reading
        .up
        .unwrap_or(if gltf { UpAxis::Y } else { UpAxis::Z });
    let mesh = in_clasp_frame(&file.mesh, unit, up).map_err(|e| LoadError::new(path, None, e))?;
    let units = MeshUnits {
        file: path.to_path_buf(),
        across,
        unit,
        unit_source,
        up,
    };
    Ok((MeshFile { mesh, ..file }, units))
}

/// The largest side of the mesh's bounding box.
fn largest_side(mesh: &TriMesh) -> f64 {
    let (lo, hi) = mesh.bounding_box();
    (hi - lo).max()
}

/// The mesh in mm and, from Y up, turned a quarter about x: (x, y, z) to (x, −z, y).
fn in_clasp_frame(mesh: &TriMesh, unit: LengthUnit, up: UpAxis) -> Result<TriMesh, String> {
    let in_mm = |x: f64| match unit {
        LengthUnit::Millimetres => x,
        LengthUnit::Metres => metres_to_mm(x),
    };
    let vertices = mesh
        .vertices()
        .iter()
        .map(|v| {
            let [x, y, z] = [v.x, v.y, v.z].map(in_mm);
            match up {
                UpAxis::Z => Point3::new(x, y, z),
                UpAxis::Y => Point3::new(x, -z, y),
            }
        })
        .collect();
    TriMesh::new(vertices, mesh.triangles().to_vec()).map_err(|e| e.to_string())
}

/// Metres in mm by moving the decimal point of the number's shortest decimal form: a file's
/// decimal in metres (0.035, 2.1e-18) then becomes the very double the same decimal in mm (35,
/// 2.1e-15) parses to, where × 1000 can leave its last bit off (35.000000000000004). So one
/// object written in either unit as decimals (OBJ, ASCII PLY, OFF) grasps alike, to the bit.
/// Single-precision files (STL, glTF) cannot: their numbers in metres and in mm round apart.
fn metres_to_mm(metres: f64) -> f64 {
    let text = format!("{metres:e}");
    let shifted = text.split_once('e').and_then(|(digits, exponent)| {
        let exponent: i32 = exponent.parse().ok()?;
        format!("{digits}e{}", exponent + 3).parse().ok()
    });
    shifted.unwrap_or(metres * 1e3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Embedded;
    use nalgebra::Vector3;

    /// A box `w` × `d` × `h` in the file's own numbers, as OBJ.
    fn box_obj(w: f64, d: f64, h: f64) -> String {
        let mut text = String::new();
        for (x, y, z) in [
            (0, 0, 0),
            (1, 0, 0),
            (1, 1, 0),
            (0, 1, 0),
            (0, 0, 1),
            (1, 0, 1),
            (1, 1, 1),
            (0, 1, 1),
        ] {
            text += &format!("v {} {} {}\n", w * x as f64, d * y as f64, h * z as f64);
        }
        for f in [
            "1 3 2", "1 4 3", "5 6 7", "5 7 8", "1 2 6", "1 6 5", "2 3 7", "2 7 6", "3 4 8",
            "3 8 7", "4 1 5", "4 5 8",
        ] {
            text += &format!("f {f}\n");
        }
        text
    }

    fn read(name: &str, text: &str, reading: MeshReading) -> (MeshFile, MeshUnits) {
        let leak = |s: &str| -> &'static str { Box::leak(s.to_owned().into_boxed_str()) };
        let files = Embedded::new([(leak(name), leak(text))]);
        read_mesh(&files, Path::new(name), reading).unwrap()
    }

    fn extent(mesh: &TriMesh) -> Vector3<f64> {
        let (lo, hi) = mesh.bounding_box();
        hi - lo
    }

    #[test]
    fn a_can_in_metres_and_in_millimetres_reads_the_same_size() {
        let (metres, said) = read(
            "can.obj",
            &box_obj(0.07, 0.07, 0.12),
            MeshReading::default(),
        );
        assert_eq!(
            (said.unit, said.unit_source),
            (LengthUnit::Metres, UnitSource::Size)
        );
        assert_eq!(
            said.to_string(),
            "can.obj: 0.12 across, read as metres (120 mm); pass --units mm if it is not"
        );
        let (mm, said) = read(
            "can.obj",
            &box_obj(70.0, 70.0, 120.0),
            MeshReading::default(),
        );
        assert_eq!(said.unit, LengthUnit::Millimetres);
        assert!(
            said.to_string().ends_with("pass --units m if it is not"),
            "{said}"
        );
        assert!((extent(&metres.mesh) - extent(&mm.mesh)).norm() < 1e-9);
        assert!((extent(&mm.mesh) - Vector3::new(70.0, 70.0, 120.0)).norm() < 1e-9);
    }

    #[test]
    fn a_decimal_mesh_in_metres_reads_to_the_very_numbers_of_its_millimetre_twin() {
        // The same decimals in both files: 6 places in mm, 9 in metres.
        let corners = |decimals: usize, scale: f64| {
            (0..24)
                .map(|k| {
                    let a = f64::from(k) * std::f64::consts::TAU / 24.0;
                    let z = if k % 2 == 0 { 0.0 } else { 120.0 };
                    let [x, y, z] = [35.0 * a.cos(), 35.0 * a.sin(), z]
                        .map(|c| format!("{:.decimals$}", (c * 1e6).round() / 1e6 * scale));
                    format!("v {x} {y} {z}\n")
                })
                .collect::<String>()
                + "f 1 2 3\nf 3 4 5\nf 5 6 7\nf 7 8 9\n"
        };
        let (metres, _) = read("m.obj", &corners(9, 1e-3), MeshReading::default());
        let (mm, _) = read("mm.obj", &corners(6, 1.0), MeshReading::default());
        assert_eq!(metres.mesh.vertices(), mm.mesh.vertices());
    }

    #[test]
    fn the_units_given_win_and_a_size_no_hand_grasps_is_warned_about() {
        let given = MeshReading {
            units: Some(LengthUnit::Millimetres),
            up: None,
        };
        let (mesh, said) = read("can.obj", &box_obj(0.07, 0.07, 0.12), given);
        assert!((extent(&mesh.mesh).z - 0.12).abs() < 1e-12);
        assert!(!said.graspable_size());
        assert_eq!(
            said.to_string(),
            "can.obj: 0.12 across, read as millimetres (0.12 mm), as asked; warning: no hand \
             grasps an object 0.12 mm across (graspable: 1 mm to 10 m)"
        );
    }

    #[test]
    fn y_up_is_turned_to_z_up() {
        let up_y = MeshReading {
            units: Some(LengthUnit::Millimetres),
            up: Some(UpAxis::Y),
        };
        // Tall along y in the file: tall along z once read.
        let (mesh, said) = read("tall.obj", &box_obj(10.0, 50.0, 20.0), up_y);
        assert!((extent(&mesh.mesh) - Vector3::new(10.0, 20.0, 50.0)).norm() < 1e-9);
        assert!(said.to_string().contains("Y up, turned to Z up"), "{said}");
        // A turn keeps the surface outward: the volume stays positive.
        let (plain, _) = read(
            "tall.obj",
            &box_obj(10.0, 50.0, 20.0),
            MeshReading::default(),
        );
        let volume = |m: &TriMesh| -> f64 {
            let v = m.vertices();
            let t = m.triangles().iter();
            t.map(|&[a, b, c]| {
                let [a, b, c] = [a, b, c].map(|i| v[i as usize].coords);
                a.dot(&b.cross(&c)) / 6.0
            })
            .sum()
        };
        assert!((volume(&mesh.mesh) - volume(&plain.mesh)).abs() < 1e-6);
        assert!(volume(&mesh.mesh) > 0.0);
    }

    #[test]
    fn units_and_axes_parse_by_symbol_or_name() {
        assert_eq!("m".parse(), Ok(LengthUnit::Metres));
        assert_eq!("Millimetres".parse(), Ok(LengthUnit::Millimetres));
        assert_eq!("y".parse(), Ok(UpAxis::Y));
        assert!(
            "inch"
                .parse::<LengthUnit>()
                .unwrap_err()
                .contains("mm or m")
        );
        assert!("x".parse::<UpAxis>().is_err());
        assert_eq!(significant(0.1234), "0.123");
        assert_eq!(significant(120.0), "120");
        assert_eq!(millimetres_text(1500.0), "1.5 m");
        assert_eq!(metres_to_mm(0.035), 35.0);
        assert_eq!(metres_to_mm(0.0346410162), 34.6410162);
        assert_eq!(metres_to_mm(-2.1431331e-18), -2.1431331e-15);
        assert_eq!(metres_to_mm(0.0), 0.0);
    }
}
