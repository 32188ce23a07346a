//! `clasp.World`: a world of free bodies and robots, with every request the Rust `World`
//! answers. Bodies are named by `clasp.BodyId`, robots by index; a body id also names what a
//! user moves with it (a free body, or its robot). This file holds the world, what is in it and
//! what is added to it; its moves (`moves.rs`), its collisions and contacts (`collisions.rs`)
//! and its grasps (`grasps.rs`) are further `#[pymethods]` blocks of the same class.

use std::{collections::HashMap, path::PathBuf};

use clasp_core::{Body, BodyId, BodyKind, Material, RobotId, TriMesh, World};
use clasp_io::Disk;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::{exceptions::PyValueError, prelude::*};

use crate::{
    convert,
    errors::{load_error, move_error, save_error},
    ids::PyBodyId,
};

/// A hand's approach as Python gets it: (reference point, direction), the palm's frame.
type Approach = ([f64; 3], [f64; 3]);

/// A simulated world: free bodies (obstacles and graspable objects) and robots, the collision
/// rules, and the contacts, kept true after every change. Units are mm, radians and grams.

#[pyclass(name = "World", module = "clasp")]
pub struct PyWorld {
    pub world: World,
    /// What was read with a change when the world was loaded (a DOF a rounding outside its
    /// limits, clamped), each naming its file and line.
    warnings: Vec<String>,
    /// The unit each body read from a bare mesh file was read in ("m" or "mm").
    units: HashMap<BodyId, &'static str>,
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

impl PyWorld {
    fn of(world: World) -> Self {
        Self {
            world,
            warnings: Vec::new(),
            units: HashMap::new(),
        }
    }

    pub fn body(&self, id: PyBodyId) -> PyResult<&Body> {
        self.world
            .body(id.0)
            .ok_or_else(|| move_error(clasp_core::MoveError::NoSuchBody(id.0)))
    }

    pub fn robot(&self, robot: RobotId) -> PyResult<&clasp_core::Robot> {
        self.world.find_robot(robot).map_err(move_error)
    }

    /// The robot asked for, else the world's current hand.
    pub fn hand(&self, robot: Option<usize>) -> PyResult<RobotId> {
        match robot.map(RobotId::from_index) {
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
            units: HashMap::new(),
        })
    }

    /// Saves the world as a GraspIt world file (bodies built in code go inline, with their
    /// meshes beside the file).
    #[pyo3(signature = (path, graspit_root=None))]
    fn save(&self, py: Python<'_>, path: PathBuf, graspit_root: Option<PathBuf>) -> PyResult<()> {
        let world = &self.world;
        py.detach(|| clasp_io::save_world(world, &path, graspit_root.as_deref()))
            .map_err(save_error)
    }

    /// Saves the world as MuJoCo's MJCF (what `clasp-cli export --mjcf` writes: SI units, the
    /// meshes as OBJ files in `<stem>_meshes/` beside it, a keyframe `clasp` where it stands).
    /// `World.load` reads MJCF back. Returns what was changed to make the world MuJoCo's, a
    /// line each (an inertia no solid has, made physical).
    fn save_mjcf(&self, py: Python<'_>, path: PathBuf) -> PyResult<Vec<String>> {
        let world = &self.world;
        py.detach(|| clasp_io::save_mjcf(world, &path))
            .map_err(save_error)
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
            units: self.units.clone(),
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
        self.world.robots().map(|(r, _)| r.index()).collect()
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
        Ok(self.robot(RobotId::from_index(robot))?.name.clone())
    }

    /// The robot's palm pose, 4×4.
    fn robot_pose<'py>(
        &self,
        py: Python<'py>,
        robot: usize,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        Ok(convert::pose_array(
            py,
            &self.robot(RobotId::from_index(robot))?.pose(),
        ))
    }

    /// The robot's DOF values (radians or mm).
    fn dof_values<'py>(
        &self,
        py: Python<'py>,
        robot: usize,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(self
            .robot(RobotId::from_index(robot))?
            .dof_values()
            .to_vec()
            .into_pyarray(py))
    }

    /// Each DOF's limits, (D, 2): min and max.
    fn dof_limits<'py>(
        &self,
        py: Python<'py>,
        robot: usize,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let r = self.robot(RobotId::from_index(robot))?;
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
        let amplitudes = self
            .robot(RobotId::from_index(robot))?
            .eigen_amplitudes()
            .map_err(move_error)?;
        Ok(amplitudes.into_pyarray(py))
    }

    /// Where the hand's palm faces (GraspIt's approach direction), in the palm's frame:
    /// (reference point in mm, unit direction), or None for a robot whose file gives none and
    /// that was not read from URDF or MJCF.
    fn hand_approach(&self, robot: usize) -> PyResult<Option<Approach>> {
        let r = self.robot(RobotId::from_index(robot))?;
        Ok(r.approach.as_ref().map(|a| {
            let (p, d) = (a.reference, a.direction);
            ([p.x, p.y, p.z], [d.x, d.y, d.z])
        }))
    }

    /// The hand's settings file as it stands (the approach, each DOF's Auto Grasp velocity,
    /// effort and kind, the material: what Clasp worked out included), the text
    /// `NAME.clasp.xml` beside a URDF or MJCF holds (docs/hands.md): a file to start editing.
    fn hand_settings(&self, robot: usize) -> PyResult<String> {
        let r = self.robot(RobotId::from_index(robot))?;
        Ok(clasp_io::hand_settings_xml(r))
    }

    /// Each DOF's name: its joint's (URDF, MJCF), or for GraspIt's files the joints it drives
    /// ("chain 0 joint 1, chain 0 joint 2").
    fn dof_names(&self, robot: usize) -> PyResult<Vec<String>> {
        let r = self.robot(RobotId::from_index(robot))?;
        Ok(r.dofs.iter().map(|d| d.name.clone()).collect())
    }

    /// What the hand's kinematics say each DOF does in a grasp, whatever its file says:
    /// "close+" or "close-" (closes as it rises or falls), "spread" or "wrist" (Auto Grasp
    /// leaves it alone).
    fn dof_roles(&self, robot: usize) -> PyResult<Vec<&'static str>> {
        let r = self.robot(RobotId::from_index(robot))?;
        Ok(r.infer_hand()
            .roles
            .iter()
            .map(|role| role.name())
            .collect())
    }

    // ---- Adding and removing ----

    /// Adds a body from a GraspIt body file or a mesh file (OBJ, STL, OFF, PLY, Inventor,
    /// VRML, glTF), as "graspable" or "obstacle", at `pose` (4×4; default: where the file puts
    /// it). A bare mesh's numbers are in `units` ("m" or "mm"; default: glTF's metres, else
    /// decided by its size) with `up` ("y" or "z"; default: y for glTF, else z) pointing up;
    /// how it was read is said on stderr, one line, and `body_units` tells it later.
    #[pyo3(signature = (path, kind="graspable", pose=None, units=None, up=None))]
    fn add_body(
        &mut self,
        py: Python<'_>,
        path: PathBuf,
        kind: &str,
        pose: Option<&Bound<'_, PyAny>>,
        units: Option<&str>,
        up: Option<&str>,
    ) -> PyResult<PyBodyId> {
        let kind = body_kind(kind)?;
        let reading = clasp_io::MeshReading {
            units: units
                .map(str::parse)
                .transpose()
                .map_err(PyValueError::new_err)?,
            up: up
                .map(str::parse)
                .transpose()
                .map_err(PyValueError::new_err)?,
        };
        let (mut body, read) = py
            .detach(|| clasp_io::load_any_body(&Disk, &path, kind, reading))
            .map_err(load_error)?;
        if let Some(pose) = pose {
            body = body.at(convert::pose(pose)?);
        }
        let id = self.world.add_body(body);
        if let Some(read) = read {
            let sys = py.import("sys")?;
            sys.getattr("stderr")?
                .call_method1("write", (format!("clasp: {read}\n"),))?;
            self.units.insert(id, read.unit.symbol());
        }
        Ok(PyBodyId(id))
    }

    /// The unit a body read from a bare mesh file was read in: "m" or "mm" (its numbers,
    /// now mm in the world); None for a body from a GraspIt body file or built in code.
    fn body_units(&self, id: PyBodyId) -> PyResult<Option<&'static str>> {
        self.body(id)?;
        Ok(self.units.get(&id.0).copied())
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
    fn add_robot(
        &mut self,
        py: Python<'_>,
        path: PathBuf,
        pose: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<usize> {
        let mut robot = py
            .detach(|| clasp_io::load_any_robot(&Disk, &path))
            .map_err(load_error)?;
        if let Some(pose) = pose {
            robot.set_pose(convert::pose(pose)?);
        }
        Ok(self.world.add_robot(robot).index())
    }

    /// Removes a free body, or the robot whose body `id` names.
    fn remove(&mut self, id: PyBodyId) -> PyResult<()> {
        self.world
            .remove_element(id.element())
            .map_err(move_error)?;
        self.units.remove(&id.0);
        Ok(())
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

/// A folder's objects as `(name, file)` pairs, and a line for each folder without a mesh.
type FolderObjects = (Vec<(String, String)>, Vec<String>);

/// The objects of a folder, as `clasp-cli batch DIR/` finds them: each mesh or GraspIt body
/// file in it, and each folder in it holding meshes (named by the folder; its shallowest mesh,
/// an OBJ first). Returns `(objects, problems)`: `(name, file)` pairs by name, and a line for
/// each folder that holds no mesh. A folder that cannot be read raises `LoadError`.
#[pyfunction]
pub fn objects_in(folder: PathBuf) -> PyResult<FolderObjects> {
    let listed = clasp_io::objects_in_folder(&folder).map_err(load_error)?;
    let (mut objects, mut problems) = (Vec::new(), Vec::new());
    for object in listed {
        match object {
            Ok(o) => objects.push((o.name, o.file.display().to_string())),
            Err(e) => problems.push(e.to_string()),
        }
    }
    Ok((objects, problems))
}
