//! `clasp.World`: a world of free bodies and robots, with every request the Rust `World`
//! answers. Bodies are named by `clasp.BodyId`, robots by index; a body id also names what a
//! user moves with it (a free body, or its robot).

use std::path::PathBuf;

use clasp_core::{
    Body, BodyId, BodyKind, CollisionGroups, ContactOptions, Element, Material, MoveOutcome,
    Quality, TriMesh, World, WrenchSpaceKind,
};
use clasp_io::Disk;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::{exceptions::PyValueError, prelude::*, types::PyDict};

use crate::{
    batch,
    contact::{PyContact, contact_arrays},
    convert,
    errors::{load_error, move_error, quality_error, save_error},
    ids::PyBodyId,
};

/// A simulated world: free bodies (obstacles and graspable objects) and robots, the collision
/// rules, and the contacts, kept true after every change. Units are mm, radians and grams.
#[pyclass(name = "World", module = "clasp")]
pub struct PyWorld {
    pub world: World,
    /// What was read with a change when the world was loaded (a DOF a rounding outside its
    /// limits, clamped), each naming its file and line.
    warnings: Vec<String>,
}

/// How a move ended: whether it reached its target, the pairs that stopped it (the mover's
/// body first), and whether it stopped because it would have deepened an overlap.
#[pyclass(name = "MoveOutcome", module = "clasp", frozen, get_all)]
pub struct PyMoveOutcome {
    pub completed: bool,
    pub stopped_by: Vec<(PyBodyId, PyBodyId)>,
    pub blocked_by_overlap: bool,
}

#[pymethods]
impl PyMoveOutcome {
    fn __repr__(&self) -> String {
        format!(
            "MoveOutcome(completed={}, stopped_by={:?}, blocked_by_overlap={})",
            self.completed,
            self.stopped_by
                .iter()
                .map(|(a, b)| (a.0, b.0))
                .collect::<Vec<_>>(),
            self.blocked_by_overlap
        )
    }
}

impl From<MoveOutcome> for PyMoveOutcome {
    fn from(outcome: MoveOutcome) -> Self {
        Self {
            completed: outcome.completed,
            stopped_by: outcome
                .stopped_by
                .into_iter()
                .map(|(a, b)| (PyBodyId(a), PyBodyId(b)))
                .collect(),
            blocked_by_overlap: outcome.blocked_by_overlap,
        }
    }
}

/// A grasp's quality: force closure, the Ferrari–Canny epsilon (None when not force-closure),
/// the wrench space's volume (None unless asked for), the wrench space ("l1" or "linf"), and
/// how many contacts and wrenches made it.
#[pyclass(name = "Quality", module = "clasp", frozen, get_all)]
pub struct PyQuality {
    pub force_closure: bool,
    pub epsilon: Option<f64>,
    pub volume: Option<f64>,
    pub wrench_space: &'static str,
    pub contacts: usize,
    pub wrenches: usize,
}

#[pymethods]
impl PyQuality {
    fn __repr__(&self) -> String {
        let number = |x: Option<f64>| x.map_or("None".to_owned(), |x| format!("{x}"));
        format!(
            "Quality(force_closure={}, epsilon={}, volume={}, wrench_space='{}')",
            python_bool(self.force_closure),
            number(self.epsilon),
            number(self.volume),
            self.wrench_space
        )
    }
}

impl From<Quality> for PyQuality {
    fn from(q: Quality) -> Self {
        Self {
            force_closure: q.force_closure,
            epsilon: q.epsilon,
            volume: q.volume,
            wrench_space: q.wrench_space.name(),
            contacts: q.contacts,
            wrenches: q.wrenches,
        }
    }
}

/// A mesh as numpy arrays: vertices (N, 3) and faces (M, 3).
type MeshArrays<'py> = (Bound<'py, PyArray2<f64>>, Bound<'py, PyArray2<i64>>);

/// "graspable" or "obstacle".
fn body_kind(kind: &str) -> PyResult<BodyKind> {
    match kind {
        "graspable" => Ok(BodyKind::Graspable),
        "obstacle" => Ok(BodyKind::Obstacle),
        other => Err(PyValueError::new_err(format!(
            "a body's kind is \"graspable\" or \"obstacle\", not {other:?}"
        ))),
    }
}

/// "l1" or "linf".
pub fn wrench_space(name: &str) -> PyResult<WrenchSpaceKind> {
    name.parse::<WrenchSpaceKind>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// "epsilon" or "volume": whether the volume is computed too.
pub fn with_volume(metric: &str) -> PyResult<bool> {
    match metric {
        "epsilon" => Ok(false),
        "volume" => Ok(true),
        other => Err(PyValueError::new_err(format!(
            "the metric is \"epsilon\" or \"volume\", not {other:?}"
        ))),
    }
}

impl PyWorld {
    fn of(world: World) -> Self {
        Self {
            world,
            warnings: Vec::new(),
        }
    }

    fn body(&self, id: PyBodyId) -> PyResult<&Body> {
        self.world
            .body(id.0)
            .ok_or_else(|| move_error(clasp_core::MoveError::NoSuchBody(id.0)))
    }

    pub fn robot(&self, robot: usize) -> PyResult<&clasp_core::Robot> {
        self.world
            .robot(robot)
            .ok_or_else(|| move_error(clasp_core::MoveError::NoSuchRobot(robot)))
    }

    /// The robot asked for, else the world's current hand.
    pub fn hand(&self, robot: Option<usize>) -> PyResult<usize> {
        match robot {
            Some(r) => self.robot(r).map(|_| r),
            None => self
                .world
                .current_hand()
                .ok_or_else(|| move_error("the world has no robot to grasp with")),
        }
    }

    /// The body asked for, else the world's grasped object (its first graspable body).
    pub fn object(&self, object: Option<PyBodyId>) -> PyResult<BodyId> {
        match object {
            Some(id) => self.body(id).map(|_| id.0),
            None => self
                .world
                .grasped_object()
                .ok_or_else(|| move_error(clasp_core::GraspError::NoObject)),
        }
    }
}

#[pymethods]
impl PyWorld {
    /// An empty world.
    #[new]
    fn new() -> Self {
        Self::of(World::default())
    }

    /// The built-in default scene: Clasp's three-fingered hand beside a mug.
    #[staticmethod]
    fn default_scene() -> PyResult<Self> {
        clasp_io::default_world().map(Self::of).map_err(load_error)
    }

    /// Loads a GraspIt world file; `<filename>`s resolve against `graspit_root` (default
    /// `$GRASPIT`), then the world's folder and those above it. A bad file raises `LoadError`
    /// with its file and line.
    #[staticmethod]
    #[pyo3(signature = (path, graspit_root=None))]
    fn load(py: Python<'_>, path: PathBuf, graspit_root: Option<PathBuf>) -> PyResult<Self> {
        let root = clasp_io::graspit_root_or_env(graspit_root.as_deref());
        let (world, warnings) = py
            .detach(|| clasp_io::load_world_with_warnings(&Disk, &path, root.as_deref()))
            .map_err(load_error)?;
        Ok(Self {
            world,
            warnings: warnings.iter().map(ToString::to_string).collect(),
        })
    }

    /// Saves the world as a GraspIt world file (bodies built in code go inline, with their
    /// meshes beside the file).
    #[pyo3(signature = (path, graspit_root=None))]
    fn save(&self, path: PathBuf, graspit_root: Option<PathBuf>) -> PyResult<()> {
        clasp_io::save_world(&self.world, &path, graspit_root.as_deref()).map_err(save_error)
    }

    /// What loading read with a change (a DOF value a rounding outside its limits, clamped),
    /// one line each naming the file and line.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    /// A copy of the world that shares every mesh and tree with this one: moves in either
    /// leave the other as it was.
    fn copy(&self) -> Self {
        Self {
            world: self.world.clone(),
            warnings: self.warnings.clone(),
        }
    }

    fn __copy__(&self) -> Self {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.copy()
    }

    // ---- What is in the world ----

    /// The free bodies (obstacles and graspable objects), in the order added.
    #[getter]
    fn bodies(&self) -> Vec<PyBodyId> {
        self.world
            .free_bodies()
            .map(|(i, _)| PyBodyId(BodyId::Free(i)))
            .collect()
    }

    /// Every body: free bodies, then each robot's palm, links and mount piece.
    #[getter]
    fn body_ids(&self) -> Vec<PyBodyId> {
        self.world.body_ids().into_iter().map(PyBodyId).collect()
    }

    /// The robots' indices, in the order added.
    #[getter]
    fn robots(&self) -> Vec<usize> {
        self.world.robots().map(|(r, _)| r).collect()
    }

    fn body_name(&self, id: PyBodyId) -> PyResult<String> {
        Ok(self.body(id)?.name.clone())
    }

    /// "graspable", "obstacle", "palm" or "link".
    fn body_kind(&self, id: PyBodyId) -> PyResult<&'static str> {
        Ok(self.body(id)?.kind.name())
    }

    /// The body's pose, 4×4.
    fn body_pose<'py>(&self, py: Python<'py>, id: PyBodyId) -> PyResult<Bound<'py, PyArray2<f64>>> {
        Ok(convert::pose_array(py, &self.body(id)?.pose()))
    }

    /// The body's mesh in its own frame: vertices (N, 3) float64 and faces (M, 3) int64.
    fn body_mesh<'py>(&self, py: Python<'py>, id: PyBodyId) -> PyResult<MeshArrays<'py>> {
        let mesh = self.body(id)?.mesh();
        let vertices: Vec<[f64; 3]> = mesh.vertices().iter().map(|v| [v.x, v.y, v.z]).collect();
        let faces = mesh.triangles();
        let faces = numpy::ndarray::Array2::from_shape_fn((faces.len(), 3), |(t, k)| {
            i64::from(faces[t][k])
        });
        Ok((convert::rows_array(py, &vertices), faces.into_pyarray(py)))
    }

    /// The body's material name ("glass", "rubber", …).
    fn body_material(&self, id: PyBodyId) -> PyResult<&'static str> {
        Ok(self.body(id)?.material.name())
    }

    fn robot_name(&self, robot: usize) -> PyResult<String> {
        Ok(self.robot(robot)?.name.clone())
    }

    /// The robot's palm pose, 4×4.
    fn robot_pose<'py>(
        &self,
        py: Python<'py>,
        robot: usize,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        Ok(convert::pose_array(py, &self.robot(robot)?.pose()))
    }

    /// The robot's DOF values (radians or mm).
    fn dof_values<'py>(
        &self,
        py: Python<'py>,
        robot: usize,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(self.robot(robot)?.dof_values().to_vec().into_pyarray(py))
    }

    /// Each DOF's limits, (D, 2): min and max.
    fn dof_limits<'py>(
        &self,
        py: Python<'py>,
        robot: usize,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let r = self.robot(robot)?;
        let limits: Vec<[f64; 2]> = (0..r.dofs.len())
            .map(|d| {
                let (min, max) = r.dof_limits(d);
                [min, max]
            })
            .collect();
        Ok(convert::rows_array(py, &limits))
    }

    /// The robot's eigengrasp amplitudes for its posture (one per eigengrasp).
    fn eigen_amplitudes<'py>(
        &self,
        py: Python<'py>,
        robot: usize,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let amplitudes = self.robot(robot)?.eigen_amplitudes().map_err(move_error)?;
        Ok(amplitudes.into_pyarray(py))
    }

    // ---- Adding and removing ----

    /// Adds a body from a GraspIt body file or a mesh file (OBJ, STL, OFF, PLY, Inventor,
    /// VRML), as "graspable" or "obstacle", at `pose` (4×4; default: where the file puts it).
    #[pyo3(signature = (path, kind="graspable", pose=None))]
    fn add_body(
        &mut self,
        path: PathBuf,
        kind: &str,
        pose: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyBodyId> {
        let mut body =
            clasp_io::load_any_body(&Disk, &path, body_kind(kind)?).map_err(load_error)?;
        if let Some(pose) = pose {
            body = body.at(convert::pose(pose)?);
        }
        Ok(PyBodyId(self.world.add_body(body)))
    }

    /// Adds a body made of a mesh: `vertices` (N, 3) in mm and `faces` (M, 3) vertex indices
    /// (a `trimesh.Trimesh`'s `vertices` and `faces` go straight in), at `pose`.
    #[pyo3(signature = (vertices, faces, name="mesh", kind="graspable", pose=None, material=None))]
    fn add_mesh(
        &mut self,
        vertices: &Bound<'_, PyAny>,
        faces: &Bound<'_, PyAny>,
        name: &str,
        kind: &str,
        pose: Option<&Bound<'_, PyAny>>,
        material: Option<&str>,
    ) -> PyResult<PyBodyId> {
        let vertices = convert::array2::<f64>(vertices, "float64")?;
        let faces = convert::array2::<i64>(faces, "int64")?;
        let (v, f) = (vertices.as_array(), faces.as_array());
        if v.ncols() != 3 || f.ncols() != 3 {
            return Err(PyValueError::new_err(format!(
                "vertices are (N, 3) and faces (M, 3); got {:?} and {:?}",
                v.shape(),
                f.shape()
            )));
        }
        let points = v
            .rows()
            .into_iter()
            .map(|r| nalgebra::Point3::new(r[0], r[1], r[2]));
        let index = |x: i64| {
            u32::try_from(x)
                .map_err(|_| PyValueError::new_err(format!("face index {x} is not a vertex")))
        };
        let triangles = f
            .rows()
            .into_iter()
            .map(|r| Ok([index(r[0])?, index(r[1])?, index(r[2])?]))
            .collect::<PyResult<Vec<_>>>()?;
        let mesh = TriMesh::new(points.collect(), triangles)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let mut body = Body::from_mesh(name, body_kind(kind)?, mesh);
        if let Some(material) = material {
            body.material = material
                .parse::<Material>()
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
        }
        if let Some(pose) = pose {
            body = body.at(convert::pose(pose)?);
        }
        Ok(PyBodyId(self.world.add_body(body)))
    }

    /// Adds a robot from a GraspIt robot file or a URDF, at `pose` (its palm; default: the
    /// origin); returns its index.
    #[pyo3(signature = (path, pose=None))]
    fn add_robot(&mut self, path: PathBuf, pose: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
        let mut robot = clasp_io::load_any_robot(&Disk, &path).map_err(load_error)?;
        if let Some(pose) = pose {
            robot.set_pose(convert::pose(pose)?);
        }
        Ok(self.world.add_robot(robot))
    }

    /// Removes a free body, or the robot whose body `id` names.
    fn remove(&mut self, id: PyBodyId) -> PyResult<()> {
        self.world.remove_element(id.element()).map_err(move_error)
    }

    // ---- Moves ----

    /// Puts a body (or the robot it belongs to, by its palm) at `pose` without checking
    /// collisions (GraspIt's `setTran`).
    fn set_pose(&mut self, id: PyBodyId, pose: &Bound<'_, PyAny>) -> PyResult<()> {
        let pose = convert::pose(pose)?;
        self.world.set_pose(id.element(), pose).map_err(move_error)
    }

    /// Moves a body (or its robot, by the palm) toward `pose`, stopping at the first contact.
    fn move_to(
        &mut self,
        py: Python<'_>,
        id: PyBodyId,
        pose: &Bound<'_, PyAny>,
    ) -> PyResult<PyMoveOutcome> {
        let pose = convert::pose(pose)?;
        let world = &mut self.world;
        let outcome = py.detach(|| world.move_to(id.element(), pose));
        outcome.map(Into::into).map_err(move_error)
    }

    /// Sets a robot's DOFs without checking collisions; values outside the limits raise.
    fn set_dofs(&mut self, robot: usize, values: Vec<f64>) -> PyResult<()> {
        self.world
            .set_dof_values(robot, &values)
            .map_err(move_error)
    }

    /// Moves a robot's DOFs toward `values` together; each chain stops at its first contact.
    fn move_dofs(
        &mut self,
        py: Python<'_>,
        robot: usize,
        values: Vec<f64>,
    ) -> PyResult<PyMoveOutcome> {
        let world = &mut self.world;
        let outcome = py.detach(|| world.move_dofs_to(robot, &values));
        outcome.map(Into::into).map_err(move_error)
    }

    /// Moves a robot's DOFs to the posture with these eigengrasp amplitudes, stopping at
    /// contact.
    fn move_eigen(
        &mut self,
        py: Python<'_>,
        robot: usize,
        amplitudes: Vec<f64>,
    ) -> PyResult<PyMoveOutcome> {
        let world = &mut self.world;
        let outcome = py.detach(|| world.move_eigen_amplitudes(robot, &amplitudes));
        outcome.map(Into::into).map_err(move_error)
    }

    /// Closes every finger of `robot` (default: the current hand) until it touches something
    /// or reaches its limit (GraspIt's Auto Grasp).
    #[pyo3(signature = (robot=None))]
    fn auto_grasp(&mut self, py: Python<'_>, robot: Option<usize>) -> PyResult<PyMoveOutcome> {
        let robot = self.hand(robot)?;
        let world = &mut self.world;
        py.detach(|| world.auto_grasp(robot))
            .map(Into::into)
            .map_err(move_error)
    }

    /// Opens every finger the same way (GraspIt's Auto Open).
    #[pyo3(signature = (robot=None))]
    fn auto_open(&mut self, py: Python<'_>, robot: Option<usize>) -> PyResult<PyMoveOutcome> {
        let robot = self.hand(robot)?;
        let world = &mut self.world;
        py.detach(|| world.auto_open(robot))
            .map(Into::into)
            .map_err(move_error)
    }

    /// Puts `robot` (default: the current hand) where a grasp candidate with this aim starts
    /// it: pointed at the centre of `object` (default: the grasped object) from `direction`
    /// (from the hand toward the object), turned `roll` radians about that line, clear of the
    /// object (its reach plus the object's radius away). Collisions are not checked. Returns
    /// how far a candidate may approach from there (mm).
    #[pyo3(signature = (direction, roll=0.0, robot=None, object=None))]
    fn aim(
        &mut self,
        direction: Vec<f64>,
        roll: f64,
        robot: Option<usize>,
        object: Option<PyBodyId>,
    ) -> PyResult<f64> {
        let (robot, object) = (self.hand(robot)?, self.object(object)?);
        let [x, y, z] = direction[..] else {
            return Err(PyValueError::new_err("a direction has three coordinates"));
        };
        let hand = self.robot(robot)?;
        let aim = clasp_core::Aim {
            towards: convert::unit(nalgebra::Vector3::new(x, y, z))?,
            roll,
            dofs: hand.dof_values().to_vec(),
        };
        let candidates =
            clasp_core::aimed_candidates(&self.world, hand, object, &[aim]).map_err(move_error)?;
        self.world
            .set_pose(Element::Robot(robot), candidates[0].palm)
            .map_err(move_error)?;
        Ok(candidates[0].approach)
    }

    /// Moves `robot` (default: the current hand) along its approach direction until it touches
    /// something, at most `distance` mm; if it meets nothing it stays where it was.
    #[pyo3(signature = (robot=None, distance=500.0))]
    fn approach(
        &mut self,
        py: Python<'_>,
        robot: Option<usize>,
        distance: f64,
    ) -> PyResult<PyMoveOutcome> {
        let robot = self.hand(robot)?;
        let world = &mut self.world;
        py.detach(|| world.approach_to_contact(robot, distance))
            .map(Into::into)
            .map_err(move_error)
    }

    // ---- Hands and objects ----

    /// The robot that grasps when none is named: the one chosen, else the first hand.
    #[getter]
    fn current_hand(&self) -> Option<usize> {
        self.world.current_hand()
    }

    #[setter]
    fn set_current_hand(&mut self, robot: usize) -> PyResult<()> {
        self.robot(robot)?;
        self.world.set_current_hand(robot);
        Ok(())
    }

    /// The object hands grasp: the first graspable body, or None.
    #[getter]
    fn grasped_object(&self) -> Option<PyBodyId> {
        self.world.grasped_object().map(PyBodyId)
    }

    // ---- Collision switches, groups and masks ----

    /// The Toggle Collision state for a selection of bodies (each naming its free body or its
    /// robot): the world's switch for none, the pair's for two, else on unless all are off.
    #[pyo3(signature = (selection=Vec::new()))]
    fn collisions_on(&self, selection: Vec<PyBodyId>) -> bool {
        self.world.collisions_on(&elements(&selection))
    }

    /// Toggle Collision with GraspIt's rules for the selection (none: the world; two: the
    /// pair; one or three or more: each against everything). Returns the new state.
    #[pyo3(signature = (selection=Vec::new()))]
    fn toggle_collisions(&mut self, selection: Vec<PyBodyId>) -> bool {
        self.world.toggle_collisions(&elements(&selection))
    }

    /// Puts a body in collision group `group` (0 to 63) with `mask` (a bit per group it meets):
    /// two bodies are checked only when each one's mask holds the other's group (RaiSim's).
    fn set_collision_groups(&mut self, id: PyBodyId, group: u32, mask: u64) -> PyResult<()> {
        let groups =
            CollisionGroups::new(group, mask).map_err(|e| PyValueError::new_err(e.to_string()))?;
        self.world
            .set_collision_groups(id.0, groups)
            .map_err(move_error)
    }

    /// A body's collision group and mask.
    fn collision_groups(&self, id: PyBodyId) -> PyResult<(u8, u64)> {
        let groups = self.body(id)?.groups();
        Ok((groups.group(), groups.mask()))
    }

    /// Every pair of bodies the rules check.
    fn checked_pairs(&self) -> Vec<(PyBodyId, PyBodyId)> {
        pairs(self.world.checked_pairs())
    }

    /// The checked pairs that interpenetrate now.
    fn overlapping_pairs(&self) -> Vec<(PyBodyId, PyBodyId)> {
        pairs(self.world.overlapping_pairs())
    }

    // ---- Contacts ----

    /// Bodies closer than this (mm) are in contact (default 0.1).
    #[getter]
    fn contact_threshold(&self) -> f64 {
        self.world.settings().contact_threshold
    }

    #[setter(contact_threshold)]
    fn change_contact_threshold(&mut self, threshold: f64) -> PyResult<()> {
        self.world
            .set_contact_threshold(threshold)
            .map_err(move_error)
    }

    /// Both sides of every contact, sorted by body.
    fn contacts(&self) -> Vec<PyContact> {
        self.world
            .contacts()
            .iter()
            .cloned()
            .map(PyContact)
            .collect()
    }

    /// The contacts on one body, each seen from it.
    fn contacts_of(&self, id: PyBodyId) -> Vec<PyContact> {
        self.world
            .contacts_of(id.0)
            .cloned()
            .map(PyContact)
            .collect()
    }

    /// The contacts (on `body`, or all of both sides) as numpy arrays, one row each: `point`,
    /// `other_point`, `normal` (N, 3), `separation`, `static_friction`, `kinetic_friction` (N,),
    /// and `body`, `other` (N, 4) ints: kind (0 free, 1 palm, 2 link, 3 mount), index or robot,
    /// chain, link (-1 where they do not apply).
    #[pyo3(signature = (body=None))]
    fn contact_arrays<'py>(
        &self,
        py: Python<'py>,
        body: Option<PyBodyId>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let contacts: Vec<_> = match body {
            Some(id) => self.world.contacts_of(id.0).collect(),
            None => self.world.contacts().iter().collect(),
        };
        contact_arrays(py, &contacts)
    }

    // ---- Grasps ----

    /// The quality of the grasp of `object` (default: the grasped object) by `robot` (default:
    /// the current hand) as the contacts stand: `metric` "epsilon" or "volume" (epsilon and
    /// the wrench space's volume), `gws` "l1" or "linf".
    #[pyo3(signature = (robot=None, object=None, metric="epsilon", gws="l1"))]
    fn grasp_quality(
        &self,
        py: Python<'_>,
        robot: Option<usize>,
        object: Option<PyBodyId>,
        metric: &str,
        gws: &str,
    ) -> PyResult<PyQuality> {
        let (robot, object) = (self.hand(robot)?, self.object(object)?);
        let (kind, volume) = (wrench_space(gws)?, with_volume(metric)?);
        let world = &self.world;
        let quality = py.detach(|| {
            let grasp = world
                .grasp(robot, object, &ContactOptions::default())
                .map_err(|e| e.to_string())?;
            let quality = match volume {
                true => grasp.quality_with_volume(kind),
                false => grasp.quality(kind),
            };
            quality.map_err(|e| e.to_string())
        });
        quality.map(Into::into).map_err(quality_error)
    }

    /// The quality of `robot`'s virtual contacts where they stand, with no object (GraspIt's
    /// planner's): torques about the centre of the contacts, over 150 mm.
    #[pyo3(signature = (robot=None, metric="epsilon", gws="l1"))]
    fn virtual_quality(
        &self,
        robot: Option<usize>,
        metric: &str,
        gws: &str,
    ) -> PyResult<PyQuality> {
        let hand = self.robot(self.hand(robot)?)?;
        if hand.virtual_contacts_placed().is_empty() {
            return Err(quality_error(format!(
                "robot {} has no virtual contacts",
                hand.name
            )));
        }
        hand.virtual_quality(wrench_space(gws)?, with_volume(metric)?)
            .map(Into::into)
            .map_err(quality_error)
    }

    /// Tries many grasps of `robot` (default: the current hand) on `object` (default: the
    /// grasped object) at once, in parallel on the machine's cores (`threads`, default all):
    /// each candidate in a domain of its own, on a clone of the hand, started, approached,
    /// auto-grasped and scored. `candidates` holds aims — `direction` (N, 3), `roll` (N,),
    /// `dofs` (N, D), as `clasp.grasp_candidates` draws them — or explicit starts — `palm`
    /// (N, 4, 4), `dofs`, `approach` (N,). Returns numpy arrays, a row per candidate: `palm`
    /// (N, 4, 4), `dofs` (N, D), `contacts` (N,), `force_closure` (N,), `epsilon` and `volume`
    /// (N,; NaN when not force-closure or not asked), `seconds` (N,). Each grasp is what it
    /// would be alone.
    #[pyo3(signature = (candidates, robot=None, object=None, metric="volume", gws="l1", threads=None))]
    // Python's keyword arguments, each with its default: a struct would not be Python.
    #[allow(clippy::too_many_arguments)]
    fn grasp_batch<'py>(
        &self,
        py: Python<'py>,
        candidates: &Bound<'py, PyAny>,
        robot: Option<usize>,
        object: Option<PyBodyId>,
        metric: &str,
        gws: &str,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (robot, object) = (self.hand(robot)?, self.object(object)?);
        let candidates = batch::candidates_from(self, robot, object, candidates)?;
        let quality = clasp_core::BatchQuality {
            wrench_space: wrench_space(gws)?,
            volume: with_volume(metric)?,
        };
        let world = &self.world;
        let grasps = py
            .detach(|| batch::run(world, robot, object, &candidates, quality, threads))
            .map_err(move_error)?;
        batch::result_arrays(py, &grasps, self.robot(robot)?.dofs.len())
    }

    fn __repr__(&self) -> String {
        format!(
            "World({} bodies, {} robots, {} contacts)",
            self.world.free_bodies().count(),
            self.world.robots().count(),
            self.world.contacts().len()
        )
    }
}

fn python_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

fn elements(selection: &[PyBodyId]) -> Vec<Element> {
    let mut elements = Vec::new();
    for id in selection {
        let element = id.element();
        if !elements.contains(&element) {
            elements.push(element);
        }
    }
    elements
}

fn pairs(pairs: Vec<(BodyId, BodyId)>) -> Vec<(PyBodyId, PyBodyId)> {
    pairs
        .into_iter()
        .map(|(a, b)| (PyBodyId(a), PyBodyId(b)))
        .collect()
}
