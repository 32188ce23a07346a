//! Mass properties: mass, centre of gravity and inertia, from a body file or from its mesh.
//!
//! A closed mesh is integrated as a solid of uniform density (signed tetrahedra from a reference
//! point); an open mesh has no inside, so it is integrated as a thin shell of uniform area
//! density and the result is flagged as an estimate.

use clasp_collide::TriMesh;
use nalgebra::{Matrix3, Point3, Vector3};

/// Density used when a file gives no mass: water, 1 g/cm³, in g/mm³.
pub const DEFAULT_DENSITY: f64 = 1.0e-3;

/// GraspIt's mass for a body whose file gives none; used when the mesh has no volume.
pub const DEFAULT_MASS: f64 = 300.0;

/// Mass properties of a rigid body, in its own frame.
#[derive(Debug, Clone, PartialEq)]
pub struct MassProperties {
    /// Grams.
    pub mass: f64,
    /// Centre of gravity, millimetres, body frame.
    pub cog: Point3<f64>,
    /// Inertia tensor about the centre of gravity per unit mass (mm²), body axes: multiply by
    /// `mass` for g·mm². GraspIt stores it per unit mass so a new mass needs no new tensor.
    pub inertia: Matrix3<f64>,
    /// True when something was computed from a mesh that is not closed, so only as a thin
    /// shell: loaders warn about it.
    pub open_mesh_estimate: bool,
    /// What was done to a file's inertia the dynamics could not turn with (GraspIt's flask
    /// gives one that is not symmetric, its gun one of zeros): its symmetric part used, or the
    /// mesh's instead. Loaders warn with it, naming the file's line.
    pub inertia_repair: Option<String>,
}

/// What a file says; `None` fields are computed from the mesh.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct GivenMass {
    pub mass: Option<f64>,
    pub cog: Option<Point3<f64>>,
    pub inertia: Option<Matrix3<f64>>,
}

/// Mass, first and second moments of a mesh taken as a uniform solid or shell.
#[derive(Debug, Clone, Copy)]
struct Moments {
    /// Volume (solid) or area (shell).
    measure: f64,
    centroid: Point3<f64>,
    /// Inertia about the centroid, per unit mass.
    inertia: Matrix3<f64>,
}

impl MassProperties {
    /// Point masses with inertias of their own as one body: each part as (grams, its centre
    /// in mm, its inertia about that centre in g·mm², the body's axes), summed about their
    /// common centre (parallel axes). `None` where they weigh nothing.
    pub fn of_parts(parts: &[(f64, Point3<f64>, Matrix3<f64>)]) -> Option<Self> {
        let mass: f64 = parts.iter().map(|p| p.0).sum();
        if mass.is_nan() || mass <= 0.0 {
            return None;
        }
        let cog = parts.iter().map(|p| p.1.coords * p.0).sum::<Vector3<f64>>() / mass;
        let mut inertia = Matrix3::zeros();
        for (m, centre, about_own) in parts {
            let d = centre.coords - cog;
            inertia +=
                about_own + (Matrix3::identity() * d.norm_squared() - d * d.transpose()) * *m;
        }
        Some(MassProperties {
            mass,
            cog: Point3::from(cog),
            inertia: inertia / mass,
            open_mesh_estimate: false,
            inertia_repair: None,
        })
    }

    /// Completes what a file gives with what the mesh implies.
    /// A file's inertia that the dynamics could not turn with is repaired first (its
    /// symmetric part, else the mesh's), and the repair said in `inertia_repair`.
    pub fn complete(mesh: &TriMesh, given: GivenMass) -> Self {
        let (inertia, inertia_repair) = match given.inertia {
            Some(inertia) => repaired_inertia(inertia),
            None => (None, None),
        };
        let mut completed = Self::complete_given(mesh, GivenMass { inertia, ..given });
        completed.inertia_repair = inertia_repair;
        completed
    }

    fn complete_given(mesh: &TriMesh, given: GivenMass) -> Self {
        if let (Some(mass), Some(cog), Some(inertia)) = (given.mass, given.cog, given.inertia) {
            return Self {
                mass,
                cog,
                inertia,
                open_mesh_estimate: false,
                inertia_repair: None,
            };
        }
        if mesh.is_empty() {
            // Nothing to integrate: GraspIt's defaults (unit inertia per unit mass).
            return Self {
                mass: given.mass.unwrap_or(DEFAULT_MASS),
                cog: given.cog.unwrap_or_else(Point3::origin),
                inertia: given.inertia.unwrap_or_else(Matrix3::identity),
                open_mesh_estimate: true,
                inertia_repair: None,
            };
        }
        let solid = if mesh.is_closed() {
            solid_moments(mesh)
        } else {
            None
        };
        let moments = solid.unwrap_or_else(|| shell_moments(mesh));
        let mass = given.mass.unwrap_or(match solid {
            Some(s) => s.measure * DEFAULT_DENSITY,
            None => DEFAULT_MASS,
        });
        let cog = given.cog.unwrap_or(moments.centroid);
        let inertia = given
            .inertia
            .unwrap_or_else(|| shifted(moments.inertia, moments.centroid - cog));
        Self {
            mass,
            cog,
            inertia,
            open_mesh_estimate: solid.is_none(),
            inertia_repair: None,
        }
    }
}

/// A file's inertia as the dynamics can use it, and what was done to it (GraspIt's own files
/// hold both slips): where it is not symmetric by no more than [`SLIP`] of its largest entry
/// (the flask: 47.542 typed against 0), its symmetric part; where that is singular (the gun:
/// all zeros), none, so that the mesh's is used. Anything else (a negative moment, a number
/// that is not finite, a tensor far from symmetric) is kept as written, for the dynamics to
/// refuse, naming it.
pub(crate) fn repaired_inertia(inertia: Matrix3<f64>) -> (Option<Matrix3<f64>>, Option<String>) {
    let Err(why) = check_inertia(&inertia) else {
        return (Some(inertia), None);
    };
    let finite = inertia.iter().all(|x| x.is_finite());
    let scale = inertia.amax();
    let slip = (inertia - inertia.transpose()).amax();
    if !finite || slip > SLIP * scale {
        return (Some(inertia), None);
    }
    let symmetric = (inertia + inertia.transpose()) / 2.0;
    if check_inertia(&symmetric).is_ok() {
        let said = format!("the inertia is {why}: its symmetric part is used");
        return (Some(symmetric), Some(said));
    }
    let smallest = symmetric.symmetric_eigenvalues().min();
    match smallest.abs() <= 1e-9 * scale {
        true => (
            None,
            Some(format!("the inertia is {why}: the mesh's is used instead")),
        ),
        false => (Some(inertia), None),
    }
}

/// How far from symmetric a file's inertia may be, as a share of its largest entry, for its
/// symmetric part to stand for it: a slip in one entry, not a different tensor.
const SLIP: f64 = 0.02;

/// An inertia tensor a body can turn with: finite, symmetric (to a millionth of its largest
/// entry) and positive definite; else what it is instead.
pub(crate) fn check_inertia(inertia: &Matrix3<f64>) -> Result<(), String> {
    if !inertia.iter().all(|x| x.is_finite()) {
        return Err("not finite".into());
    }
    let scale = inertia.amax();
    if (inertia - inertia.transpose()).amax() > 1e-6 * scale {
        let rows: Vec<String> = inertia
            .row_iter()
            .map(|r| format!("{} {} {}", r[0], r[1], r[2]))
            .collect();
        return Err(format!("not symmetric ({})", rows.join(", ")));
    }
    let smallest = inertia.symmetric_eigenvalues().min();
    if !(smallest > 1e-12 * scale && scale > 0.0) {
        return Err(format!(
            "not positive definite (its smallest principal moment is {smallest})"
        ));
    }
    Ok(())
}

/// Parallel-axis shift of a per-unit-mass inertia from the centroid to a point `offset` away.
fn shifted(inertia: Matrix3<f64>, offset: Vector3<f64>) -> Matrix3<f64> {
    inertia + Matrix3::identity() * offset.norm_squared() - offset * offset.transpose()
}

/// The inertia tensor of a body whose second moment ∫ x xᵀ is `second`.
fn inertia_from_second_moment(second: Matrix3<f64>) -> Matrix3<f64> {
    Matrix3::identity() * second.trace() - second
}

/// Solid moments by signed tetrahedra; `None` when the mesh encloses no volume.
fn solid_moments(mesh: &TriMesh) -> Option<Moments> {
    let reference = reference_point(mesh);
    let (mut volume, mut first, mut second) = (0.0, Vector3::zeros(), Matrix3::zeros());
    for t in 0..mesh.triangles().len() {
        let [a, b, c] = mesh.triangle_points(t).map(|p| p - reference);
        let six_volume = a.dot(&b.cross(&c));
        let sum = a + b + c;
        volume += six_volume / 6.0;
        first += sum * (six_volume / 24.0);
        // ∫ x xᵀ over a tetrahedron with one corner at the origin.
        second +=
            (a * a.transpose() + b * b.transpose() + c * c.transpose() + sum * sum.transpose())
                * (six_volume / 120.0);
    }
    let (lo, hi) = mesh.bounding_box();
    let size = (hi - lo).norm();
    if volume.abs() <= 1e-9 * size.powi(3) {
        return None;
    }
    let centroid = first / volume;
    let about_centroid = second / volume - centroid * centroid.transpose();
    Some(Moments {
        measure: volume.abs(),
        centroid: reference + centroid,
        inertia: inertia_from_second_moment(about_centroid),
    })
}

/// Thin-shell moments of the surface, uniform area density.
fn shell_moments(mesh: &TriMesh) -> Moments {
    let reference = reference_point(mesh);
    let (mut area, mut first, mut second) = (0.0, Vector3::zeros(), Matrix3::zeros());
    for t in 0..mesh.triangles().len() {
        let [a, b, c] = mesh.triangle_points(t).map(|p| p - reference);
        let triangle_area = 0.5 * (b - a).cross(&(c - a)).norm();
        let sum = a + b + c;
        area += triangle_area;
        first += sum * (triangle_area / 3.0);
        // ∫ x xᵀ over a triangle.
        second +=
            (a * a.transpose() + b * b.transpose() + c * c.transpose() + sum * sum.transpose())
                * (triangle_area / 12.0);
    }
    // A mesh always has a triangle with area (TriMesh::new refuses others).
    let centroid = first / area;
    let about_centroid = second / area - centroid * centroid.transpose();
    Moments {
        measure: area,
        centroid: reference + centroid,
        inertia: inertia_from_second_moment(about_centroid),
    }
}

/// The middle of the bounding box: integrating about it keeps far-away meshes accurate.
fn reference_point(mesh: &TriMesh) -> Point3<f64> {
    let (lo, hi) = mesh.bounding_box();
    nalgebra::center(&lo, &hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An axis-aligned box from `lo` to `hi`, outward-wound.
    fn cuboid(lo: [f64; 3], hi: [f64; 3]) -> TriMesh {
        clasp_collide::shapes::cuboid(lo, hi)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()))
    }

    #[test]
    fn a_solid_box_has_its_textbook_inertia() {
        let mesh = cuboid([10.0, 20.0, 30.0], [12.0, 24.0, 36.0]);
        let props = MassProperties::complete(&mesh, GivenMass::default());
        assert!(!props.open_mesh_estimate);
        assert!(close(props.mass, 2.0 * 4.0 * 6.0 * DEFAULT_DENSITY));
        assert!((props.cog - Point3::new(11.0, 22.0, 33.0)).norm() < 1e-9);
        let (x, y, z) = (2.0f64, 4.0f64, 6.0f64);
        let expected = [
            (y * y + z * z) / 12.0,
            (x * x + z * z) / 12.0,
            (x * x + y * y) / 12.0,
        ];
        for (axis, want) in expected.into_iter().enumerate() {
            assert!(
                close(props.inertia[(axis, axis)], want),
                "{}",
                props.inertia
            );
        }
        assert!(props.inertia[(0, 1)].abs() < 1e-9);
    }

    #[test]
    fn given_values_win_and_the_inertia_moves_to_the_given_cog() {
        let mesh = cuboid([-1.0, -1.0, -1.0], [1.0, 1.0, 1.0]);
        let given = GivenMass {
            mass: Some(50.0),
            cog: Some(Point3::new(0.0, 0.0, 1.0)),
            inertia: None,
        };
        let props = MassProperties::complete(&mesh, given);
        assert_eq!(props.mass, 50.0);
        // Side 2: I = 2/3 about the centre, plus 1 mm² about x and y for the 1 mm shift.
        assert!(close(props.inertia[(0, 0)], 2.0 / 3.0 + 1.0));
        assert!(close(props.inertia[(2, 2)], 2.0 / 3.0));
    }

    #[test]
    fn an_open_mesh_is_a_shell_and_says_so() {
        let closed = cuboid([0.0, 0.0, 0.0], [1.0, 1.0, 1.0]);
        let open =
            TriMesh::new(closed.vertices().to_vec(), closed.triangles()[2..].to_vec()).unwrap();
        let props = MassProperties::complete(&open, GivenMass::default());
        assert!(props.open_mesh_estimate);
        assert_eq!(props.mass, DEFAULT_MASS);
        assert!(props.inertia.iter().all(|v| v.is_finite()));
        assert!(props.inertia[(0, 0)] > 0.0);
        let none = MassProperties::complete(&TriMesh::empty(), GivenMass::default());
        assert_eq!(
            (none.mass, none.inertia),
            (DEFAULT_MASS, Matrix3::identity())
        );
    }
}
