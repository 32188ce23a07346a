"""Type stubs of Clasp's Rust extension module: what an editor completes and explains."""

from os import PathLike
from typing import Any, Sequence, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "World",
    "BodyId",
    "Contact",
    "MoveOutcome",
    "Quality",
    "grasp_candidates",
    "objects_in",
    "DEFAULT_CONTACT_THRESHOLD",
    "VIRTUAL_MAX_RADIUS",
    "TEST_PRESETS",
]

DEFAULT_CONTACT_THRESHOLD: float
"""Bodies closer than this (mm) are in contact unless a world says otherwise (0.1)."""
VIRTUAL_MAX_RADIUS: float
# The physics tests `test_grasp(preset=...)` runs: Clasp's own first, then the field's.
TEST_PRESETS: list[str]
"""The torque scale (mm) of a grasp on virtual contacts alone (GraspIt's 150)."""

_Path = str | PathLike[str]
_Pose = npt.ArrayLike
"""A 4x4 rigid transform: rotation and translation (mm), last row 0 0 0 1."""

@final
class BodyId:
    """One body of a world: a free body, a robot's palm, a link, or a mounted robot's mount
    piece. Equal ids name the same body; ids are hashable. A body id also names what moves
    with it: the free body, or its robot."""

    @staticmethod
    def free(index: int) -> BodyId:
        """The free body (obstacle or graspable) with this index."""
    @staticmethod
    def palm(robot: int) -> BodyId:
        """The palm of robot ``robot``."""
    @staticmethod
    def link(robot: int, chain: int, link: int) -> BodyId:
        """Link ``link`` of chain ``chain`` of robot ``robot``."""
    @staticmethod
    def mount(robot: int) -> BodyId:
        """The mount piece of robot ``robot``, mounted on another."""
    @property
    def kind(self) -> str:
        """"free", "palm", "link" or "mount"."""
    @property
    def index(self) -> int | None:
        """The free body's index, or None for a robot's body."""
    @property
    def robot(self) -> int | None:
        """The robot the body belongs to, or None for a free body."""
    @property
    def chain(self) -> int | None:
        """The chain of a link, else None."""
    @property
    def link_index(self) -> int | None:
        """The link's place in its chain, else None."""

@final
class Contact:
    """One side of a contact, seen from the body it is on (RaiSim's contact API). Points and
    normals are in world coordinates, mm."""

    @property
    def body(self) -> BodyId:
        """The body this side is on."""
    @property
    def other(self) -> BodyId:
        """The body it touches."""
    @property
    def index(self) -> int:
        """Its place in its body's list (``World.contacts_of(body)``)."""
    @property
    def pair_index(self) -> int | None:
        """The same contact's place in the other body's list; None when the other is static."""
    @property
    def is_object_a(self) -> bool:
        """True on the side of the pair's first body, object A."""
    @property
    def point(self) -> np.ndarray:
        """The point on this body, (3,)."""
    @property
    def other_point(self) -> np.ndarray:
        """The point on the other body, (3,)."""
    @property
    def normal(self) -> np.ndarray:
        """Unit normal (3,) pointing to object A, the same on both sides."""
    @property
    def inward(self) -> np.ndarray:
        """Unit normal (3,) into this body (GraspIt's)."""
    @property
    def frame(self) -> np.ndarray:
        """The contact frame (4, 4): origin at ``point``, z along ``normal``."""
    @property
    def impulse(self) -> np.ndarray:
        """The impulse (3,) the last dynamics step applied here, from B on A, in the contact
        frame (x, y tangent, z along ``normal``), g·mm/s; zeros from a contact query alone."""
    @property
    def world_impulse(self) -> np.ndarray:
        """The same impulse in world axes."""
    @property
    def inverse_inertia(self) -> np.ndarray:
        """The contact's apparent inverse inertia (3, 3) in the last step's problem, contact
        frame, 1/g (RaiSim's ``getInvInertia``); zeros from a contact query alone."""
    @property
    def index_in_contact_problem(self) -> int | None:
        """The contact's place in the last step's contact problem, else None."""
    @property
    def separation(self) -> float:
        """Distance between the two points, mm, below the world's contact threshold."""
    @property
    def depth(self) -> float:
        """How far the two bodies overlap here, mm (RaiSim's depth): minus ``separation``."""
    @property
    def triangle(self) -> int:
        """The triangle of this body the point lies on."""
    @property
    def other_triangle(self) -> int:
        """The triangle of the other body the other point lies on."""
    @property
    def is_self_collision(self) -> bool:
        """Both bodies are parts of one robot."""
    @property
    def skip(self) -> bool:
        """Set on the second side of a self-collision, so a robot's contacts count each once."""
    @property
    def local_index(self) -> int | None:
        """This body's index within its robot (0 the palm), None for a free body."""
    @property
    def body_type(self) -> str:
        """"static", "dynamic" or "kinematic"."""
    @property
    def other_type(self) -> str:
        """"static", "dynamic" or "kinematic", for the other body."""
    @property
    def static_friction(self) -> float:
        """Static (Coulomb) friction of the two materials."""
    @property
    def kinetic_friction(self) -> float:
        """Kinetic friction of the two materials."""
    @property
    def model(self) -> str:
        """"point", "soft", or "point_fallback" (a soft body whose surface could not be fitted)."""
    @property
    def soft(self) -> dict[str, Any] | None:
        """A soft contact's ``semi_axes``, ``indentation``, ``torsion_radius`` (mm),
        ``relative_radii`` and ``merged``; a fallback's ``fallback`` reason; else None."""
    @property
    def friction_edges(self) -> np.ndarray:
        """The friction cone's (or soft ellipsoid's) edges (K, 6), in this side's inward frame."""

@final
class MoveOutcome:
    """How a move ended (read-only)."""

    @property
    def completed(self) -> bool:
        """The move reached its target."""
    @property
    def stopped_by(self) -> list[tuple[BodyId, BodyId]]:
        """The pairs that stopped it, the mover's body first."""
    @property
    def blocked_by_overlap(self) -> bool:
        """It stopped because it would have deepened an existing overlap."""

@final
class Quality:
    """A grasp's quality (read-only)."""

    @property
    def force_closure(self) -> bool:
        """The contacts can resist any wrench."""
    @property
    def epsilon(self) -> float | None:
        """The Ferrari–Canny epsilon; None when not force-closure."""
    @property
    def volume(self) -> float | None:
        """The wrench space's 6D volume, when asked for."""
    @property
    def wrench_space(self) -> str:
        """"l1" or "linf"."""
    @property
    def contacts(self) -> int: ...
    @property
    def wrenches(self) -> int: ...

@final
class World:
    """A simulated world: free bodies and robots, the collision rules, and the contacts, kept
    true after every change. Units are mm, radians and grams."""

    def __init__(self) -> None:
        """An empty world."""
    @staticmethod
    def default_scene() -> World:
        """The built-in default scene: Clasp's three-fingered hand beside a mug."""
    @staticmethod
    def load(path: _Path, graspit_root: _Path | None = None) -> World:
        """Loads a GraspIt world file (``<filename>``s resolve against ``graspit_root``, default
        ``$GRASPIT``, then the world's folder and those above it) or a MuJoCo MJCF model (its
        hands, objects and obstacles). Raises ``LoadError`` with the file and line."""
    def save(self, path: _Path, graspit_root: _Path | None = None) -> None:
        """Saves the world as a GraspIt world file; raises ``SaveError`` naming the file."""
    def save_mjcf(self, path: _Path) -> list[str]:
        """Saves the world as MuJoCo's MJCF (SI units, meshes as OBJ in ``<stem>_meshes/``,
        keyframe ``clasp`` where it stands); ``World.load`` reads MJCF back. Returns what was
        changed to make it MuJoCo's (an inertia no solid has, made physical), a line each."""
    @property
    def warnings(self) -> list[str]:
        """What loading read with a change (a DOF a rounding outside its limits, clamped)."""
    def copy(self) -> World:
        """A copy sharing every mesh and tree: moves in either leave the other as it was."""
    def __copy__(self) -> World: ...
    def __deepcopy__(self, _memo: Any) -> World: ...
    @property
    def bodies(self) -> list[BodyId]:
        """The free bodies, in the order added."""
    @property
    def body_ids(self) -> list[BodyId]:
        """Every body: free bodies, then each robot's palm, links and mount piece."""
    @property
    def robots(self) -> list[int]:
        """The robots' indices."""
    def body_name(self, id: BodyId) -> str: ...
    def body_kind(self, id: BodyId) -> str:
        """"graspable", "obstacle", "palm" or "link"."""
    def body_pose(self, id: BodyId) -> np.ndarray:
        """The body's pose, (4, 4)."""
    def body_mesh(self, id: BodyId) -> tuple[np.ndarray, np.ndarray]:
        """The mesh in the body's frame: vertices (N, 3) float64, faces (M, 3) int64."""
    def body_material(self, id: BodyId) -> str: ...
    def set_body_name(self, id: BodyId, name: str) -> None:
        """Renames a body (what saved files and the app call it)."""
    def set_material(self, id: BodyId, material: str) -> None:
        """Changes a body's material (``"glass"``, ``"rubber"``, … or ``"generic"``)."""
    def body_mass(self, id: BodyId) -> float:
        """The body's mass, g."""
    def body_centre(self, id: BodyId) -> np.ndarray:
        """The body's centre of gravity (3,), mm, in its own frame."""
    def body_inertia(self, id: BodyId) -> np.ndarray:
        """The inertia (3, 3) about the centre, body axes, per unit mass (mm²), as a GraspIt body
        file gives it: times ``body_mass`` for g·mm²."""
    def set_mass(
        self,
        id: BodyId,
        mass: float | None = None,
        centre: npt.ArrayLike | None = None,
        inertia: npt.ArrayLike | None = None,
    ) -> None:
        """Changes what is given of the mass (g), centre (mm) and inertia per unit mass (mm²)."""
    def body_youngs(self, id: BodyId) -> float | None:
        """The body's Young's modulus in Pa (a soft body), or None (a rigid one)."""
    def set_youngs(self, id: BodyId, youngs: float | None) -> None:
        """Makes a body soft (Young's modulus in Pa) or rigid (None); its contacts are found again."""
    def robot_name(self, robot: int) -> str: ...
    def robot_pose(self, robot: int) -> np.ndarray:
        """The robot's palm pose, (4, 4)."""
    def dof_values(self, robot: int) -> np.ndarray:
        """The robot's DOF values (radians or mm)."""
    def dof_limits(self, robot: int) -> np.ndarray:
        """Each DOF's min and max, (D, 2)."""
    def eigen_amplitudes(self, robot: int) -> np.ndarray:
        """The robot's eigengrasp amplitudes for its posture."""
    def hand_approach(
        self, robot: int
    ) -> tuple[tuple[float, float, float], tuple[float, float, float]] | None:
        """Where the palm faces, in the palm's frame: (reference point in mm, unit direction);
        worked out from the kinematics for a hand read from URDF or MJCF."""
    def hand_settings(self, robot: int) -> str:
        """The hand's settings file as it stands (the approach, each DOF's Auto Grasp velocity,
        effort and kind, the material: what Clasp worked out included), the text
        ``NAME.clasp.xml`` beside a URDF or MJCF holds (docs/hands.md): a file to start
        editing."""
    def dof_names(self, robot: int) -> list[str]:
        """Each DOF's name: its joint's (URDF, MJCF), or the joints it drives (GraspIt)."""
    def dof_roles(self, robot: int) -> list[str]:
        """What the kinematics say each DOF does: "close+", "close-", "spread" or "wrist"."""
    def add_body(
        self,
        path: _Path,
        kind: str = "graspable",
        pose: _Pose | None = None,
        units: str | None = None,
        up: str | None = None,
    ) -> BodyId:
        """Adds a body from a GraspIt body file or a mesh file (OBJ, STL, OFF, PLY, Inventor,
        VRML, glTF) as "graspable" or "obstacle", at ``pose``. A bare mesh is in ``units``
        ("m" or "mm"; default glTF's metres, else decided by its size) with ``up`` ("y" or "z")
        up; how it was read is said on stderr."""
    def body_units(self, id: BodyId) -> str | None:
        """The unit ("m" or "mm") a body from a bare mesh file was read in; None otherwise."""
    def add_mesh(
        self,
        vertices: npt.ArrayLike,
        faces: npt.ArrayLike,
        name: str = "mesh",
        kind: str = "graspable",
        pose: _Pose | None = None,
        material: str | None = None,
    ) -> BodyId:
        """Adds a body made of a mesh: vertices (N, 3) mm, faces (M, 3) vertex indices (a
        ``trimesh.Trimesh``'s ``vertices`` and ``faces`` go straight in)."""
    def add_robot(self, path: _Path, pose: _Pose | None = None) -> int:
        """Adds a robot from a GraspIt robot file or a URDF; returns its index."""
    def remove(self, id: BodyId) -> None:
        """Removes a free body, or the robot whose body ``id`` names."""
    def set_pose(self, id: BodyId, pose: _Pose) -> None:
        """Puts a body (or its robot, by the palm) at ``pose`` without checking collisions."""
    def move_to(self, id: BodyId, pose: _Pose) -> MoveOutcome:
        """Moves a body (or its robot, by the palm) toward ``pose``, stopping at contact."""
    def place_hand(self, pose: _Pose, robot: int | None = None) -> None:
        """Puts the hand's palm at ``pose`` without checking collisions; a hand an arm carries
        is put there by its arm (inverse kinematics; out of reach raises MoveError)."""
    def move_hand(self, pose: _Pose, robot: int | None = None) -> MoveOutcome:
        """Moves the hand's palm along the straight path to ``pose``, stopping at contact; a
        hand an arm carries is moved by its arm (a path it cannot follow raises MoveError)."""
    def set_dofs(self, robot: int, values: Sequence[float]) -> None:
        """Sets DOFs without checking collisions; values outside the limits raise MoveError."""
    def move_dofs(self, robot: int, values: Sequence[float]) -> MoveOutcome:
        """Moves DOFs toward ``values``; each chain stops at its first contact."""
    def move_eigen(self, robot: int, amplitudes: Sequence[float]) -> MoveOutcome:
        """Moves DOFs to the posture with these eigengrasp amplitudes, stopping at contact."""
    def auto_grasp(self, robot: int | None = None) -> MoveOutcome:
        """Closes every finger (default: of the current hand) until it touches or reaches its
        limit."""
    def auto_open(self, robot: int | None = None) -> MoveOutcome:
        """Opens every finger the same way."""
    def aim(
        self,
        direction: Sequence[float],
        roll: float = 0.0,
        robot: int | None = None,
        object: BodyId | None = None,
    ) -> float:
        """Puts the hand where a grasp candidate with this aim starts it: pointed at the
        object's centre from ``direction``, turned ``roll`` about that line, clear of the
        object. Returns how far a candidate may approach from there (mm)."""
    def approach(self, distance: float = 500.0, robot: int | None = None) -> MoveOutcome:
        """Moves the hand along its approach direction until it touches, at most ``distance``
        mm; if it meets nothing it stays where it was. A hand an arm carries is moved by its
        arm, as far as the arm can follow."""
    @property
    def current_hand(self) -> int | None:
        """The robot that grasps when none is named: the one chosen, else the first hand."""
    @current_hand.setter
    def current_hand(self, robot: int) -> None: ...
    @property
    def grasped_object(self) -> BodyId | None:
        """The first graspable body."""
    @property
    def gravity(self) -> np.ndarray:
        """The acceleration of gravity (3,), mm/s² (default 9,810 along −z)."""
    @gravity.setter
    def gravity(self, gravity: npt.ArrayLike) -> None: ...
    @property
    def time_step(self) -> float:
        """Seconds a dynamics step advances (default 0.001)."""
    @time_step.setter
    def time_step(self, seconds: float) -> None: ...
    @property
    def contact_solver(self) -> str:
        """How a step solves its contacts: ``"newton"`` (the default: Newton's method under
        Coulomb's law), ``"sweeps"`` (one contact at a time, RaiSim's) or ``"lcp"``
        (GraspIt's)."""
    @contact_solver.setter
    def contact_solver(self, name: str) -> None: ...
    def velocity(self, id: BodyId) -> tuple[np.ndarray, np.ndarray]:
        """A body's velocity: its centre of gravity's (3,), mm/s, and its angular one (3,),
        rad/s, world axes."""
    def set_velocity(self, id: BodyId, linear: npt.ArrayLike, angular: npt.ArrayLike | None = None) -> None:
        """Gives a dynamic or kinematic free body a velocity; raises ``MoveError`` for anything else."""
    def body_type(self, id: BodyId) -> str:
        """``"static"``, ``"dynamic"`` or ``"kinematic"``."""
    def set_body_type(self, id: BodyId, body_type: str) -> None:
        """Makes a free body static, dynamic or kinematic (moved by its velocity, pushing)."""
    def drive_robot(self, robot: int, targets: Sequence[float]) -> None:
        """Puts a robot in the dynamics: its DOF controllers drive it towards ``targets`` with at
        most 0.8 of each DOF's effort; its palm stays where it is."""
    def set_free_base(self, robot: int, free: bool = True) -> None:
        """Frees a driven robot's base (its palm moves by the forces on the hand), or fixes it
        again where it stands; a hand carried by an arm raises ``MoveError``."""
    def has_free_base(self, robot: int) -> bool:
        """Whether a robot's base is free."""
    def release_robot(self, robot: int) -> None:
        """Takes a robot out of the dynamics: it stays where it is and stops."""
    def dof_velocities(self, robot: int) -> np.ndarray:
        """A robot's DOF velocities (rad/s or mm/s): zero unless driven."""
    def lift_grasp(
        self,
        robot: int | None = None,
        object: BodyId | None = None,
        height: float = 100.0,
        speed: float = 100.0,
        max_displacement: float = 20.0,
        max_rotation: float = 15.0,
    ) -> dict[str, Any]:
        """GraspIt's lift: the palm rises ``height`` mm under gravity; ``held`` when the object
        followed it, with ``raised``, ``slipped`` (mm) and ``turned`` (degrees)."""
    def dynamic_auto_grasp(self, robot: int | None = None, max_seconds: float = 2.0) -> float:
        """GraspIt's dynamic Auto Grasp: the fingers close under their controllers until the
        contact forces balance them; returns the seconds it took."""
    def test_grasp(
        self,
        robot: int | None = None,
        object: BodyId | None = None,
        seconds: float | None = None,
        squeeze: float | None = None,
        max_displacement: float | None = None,
        max_rotation: float | None = None,
        preset: str | None = None,
        record: _Path | None = None,
    ) -> dict[str, Any]:
        """The physics test of a grasp: the hand squeezes, gravity pulls the object along +x,
        -x, +y, -y, +z, -z in turn (0.5 s each, the squeeze 0.2 rad, held within 20 mm and
        15°). ``preset`` names the test: ``"clasp"`` (the default) or the field's as Clasp
        reproduces them, ``"dexgraspnet"``, ``"bodex"``, ``"graspgen"`` (docs/presets.md); a
        figure given replaces the preset's. After the squeeze: ``dof_efforts`` and
        ``effort_limits`` (per DOF, N·mm or N), ``squeeze_force`` (the normal force on the
        object, N), ``fingers_on_object``, ``fingers_on_palm`` and ``fingers_on_fingers`` (per
        finger). ``held`` (every run), and per run ``displacement``
        (mm), ``rotation`` (degrees), ``speed`` (the object's at the end, mm/s), ``rested``
        (at rest by pose and speed), ``direction_held`` (never for an object whose pose stood
        still while its velocity said it moved), ``steps`` and ``unsettled_steps`` (the steps
        that made each answer, and those whose contact solve ran out of sweeps before it
        settled: such an answer depends on where the solves started), ``sweeps_median`` and
        ``sweeps_p99`` (the sweeps those solves took). ``record`` (a path)
        keeps the runs one after another, a moment every 0.01 s: ``.clasprec`` (Clasp's app)
        or ``.rrd`` (rerun's viewer, through ``rerun-sdk``)."""
    def robot_contacts(self, robot: int) -> list[Contact]:
        """A robot's contacts as one list over its palm, links and mount, seen from the robot."""
    def step(self) -> None:
        """Advances the world one time step: free graspable bodies fall, slide and rest on the
        world's contacts. The world's contacts are then the step's contact problem (found at
        its start, as RaiSim's and MuJoCo's are), each with the impulse the solver applied
        there, its inverse inertia and its place in the problem; a move afterwards finds them
        again, with no impulse."""
    def simulate(
        self,
        seconds: float,
        resolve_overlaps: bool = False,
        record: _Path | None = None,
    ) -> int:
        """Steps for ``seconds`` of simulated time; returns the steps taken. Ctrl-C raises
        ``KeyboardInterrupt`` with the world at its last whole step; bodies that start inside
        one another raise ``MoveError`` naming them, unless ``resolve_overlaps`` separates
        them first. A time step is 1e-6 to 0.1 s; a run of over 1,000,000 steps is refused.
        ``record`` (a path) keeps the run, a moment every 0.01 s: ``.clasprec`` for Clasp's
        app (its world written beside it as ``.clasprec.xml``), ``.rrd`` for rerun's viewer
        (needs ``pip install rerun-sdk``); another kind raises ``ValueError`` before the run."""
    def render(
        self,
        camera: _Pose | None = None,
        width: int = 640,
        height: int = 480,
        look_from: Sequence[float] | None = None,
        fov: float = 45.0,
    ) -> dict[str, Any]:
        """Renders the world headless (no window: Vulkan on a GPU, or Mesa's software Vulkan).
        The camera: ``camera`` (4×4 camera-to-world pose, OpenCV axes: x right, y down, z
        forward, mm), or ``look_from`` (a direction to frame the grasped object from), else the
        world's saved camera or a view of it all; ``fov`` is vertical, degrees. Returns ``rgb``
        (H, W, 3) uint8, ``depth`` (H, W) float32 (mm along the view axis, inf where nothing is
        seen), ``segmentation`` (H, W) int32 (index into ``bodies``, -1 where no body is),
        ``bodies``, ``intrinsics`` (3×3 K) and ``camera`` (4×4). Bad sizes (0 or over 16384), a
        camera inside a body or with a NaN pose raise ``ValueError``."""
    def point_cloud(
        self,
        camera: _Pose | None = None,
        width: int = 640,
        height: int = 480,
        look_from: Sequence[float] | None = None,
        fov: float = 45.0,
        frame: str = "world",
    ) -> dict[str, Any]:
        """The points the depth of a render (as ``render`` takes its camera) stands for, one per
        pixel that sees a body: ``points`` (N, 3) mm in ``frame`` ("world" or "camera", OpenCV
        axes), ``segmentation`` (N,) the body's index in ``bodies``, ``pixels`` (N, 2) column and
        row, with ``intrinsics`` and ``camera``."""
    def render_video(
        self,
        path: _Path,
        seconds: float,
        width: int = 640,
        height: int = 480,
        fps: int = 30,
        camera: Any | None = None,
        look_from: Sequence[float] | None = None,
        fov: float = 45.0,
    ) -> int:
        """Simulates ``seconds`` and draws the run as a video: ``.gif`` (Clasp's own encoder)
        or ``.mp4``, ``.webm``, ``.mkv``, ``.mov`` (through the ffmpeg program), ``fps`` frames
        a second of simulated time, the camera as ``render`` takes it. Returns the frames
        written; the world is left where the run ended."""
    def resolve_overlaps(self) -> list[tuple[BodyId, BodyId, list[float]]]:
        """Moves each dynamic body inside another the shortest way out; returns (moved, the
        body it was in, the move in mm) for each."""
    def collisions_on(self, selection: Sequence[BodyId] = ...) -> bool:
        """Toggle Collision's state for a selection (none: the world; two: the pair)."""
    def toggle_collisions(self, selection: Sequence[BodyId] = ...) -> bool:
        """Toggle Collision with GraspIt's rules; returns the new state."""
    def set_collision_groups(self, id: BodyId, group: int, mask: int) -> None:
        """RaiSim's groups and masks: two bodies meet only when each one's mask holds the
        other's group (0 to 63). A mask of -1 holds every group, as RaiSim writes it."""
    def collision_groups(self, id: BodyId) -> tuple[int, int]: ...
    def checked_pairs(self) -> list[tuple[BodyId, BodyId]]: ...
    def overlapping_pairs(self) -> list[tuple[BodyId, BodyId]]: ...
    @property
    def contact_threshold(self) -> float:
        """Bodies closer than this (mm) are in contact (default 0.1)."""
    @contact_threshold.setter
    def contact_threshold(self, threshold: float) -> None:
        """A positive number of mm, else ValueError; contacts are found again."""
    @property
    def graspit_contacts(self) -> bool:
        """GraspIt's contacts: its threshold (0.2 mm) and its own pruning, quirks included,
        for contacts and qualities that must match GraspIt's. Off by default."""
    @graspit_contacts.setter
    def graspit_contacts(self, on: bool) -> None:
        """On or off (Clasp's 0.1 mm and pruning); contacts are found again."""
    def contacts(self) -> list[Contact]:
        """Both sides of every contact, sorted by body."""
    def contacts_of(self, id: BodyId) -> list[Contact]:
        """The contacts on one body, each seen from it (MoveError if there is no such body)."""
    def contact_arrays(self, body: BodyId | None = None) -> dict[str, np.ndarray]:
        """Contacts as arrays: point, other_point, normal, impulse (contact frame), world_impulse
        (N, 3; the impulses the last step applied); separation, static_friction,
        kinetic_friction (N,); body, other (N, 4) ints (kind, index or robot, chain, link)."""
    def grasp_quality(
        self,
        robot: int | None = None,
        object: BodyId | None = None,
        metric: str = "epsilon",
        gws: str = "l1",
    ) -> Quality:
        """The quality of the grasp as the contacts stand ("epsilon" or "volume"; "l1" or
        "linf")."""
    def virtual_quality(self, robot: int | None = None, metric: str = "epsilon", gws: str = "l1") -> Quality:
        """The quality of the hand's virtual contacts where they stand (GraspIt's planner's)."""
    def grasp_batch(
        self,
        candidates: dict[str, npt.ArrayLike],
        robot: int | None = None,
        object: BodyId | None = None,
        metric: str = "epsilon",
        gws: str = "l1",
        threads: int | None = None,
        test: bool = False,
        test_seconds: float | None = None,
        test_preset: str | None = None,
        test_record: Sequence[_Path | None] | None = None,
    ) -> dict[str, np.ndarray]:
        """Tries many grasps in parallel, each on a clone of the hand in its own domain (with
        ``test``, each grasp's physics test too, ``test_preset`` naming which: ``held`` (N,),
        ``hold_displacement`` and ``hold_rotation`` (N, R: a column per run, six but for
        GraspGen's one), mm and degrees, ``squeeze_force`` (N,; N) and ``fingers_on_object``
        (N, fingers); ``test_record``, a path or None per candidate, keeps each test's runs as
        a recording there: ``.clasprec`` or ``.rrd``).
        ``candidates`` holds aims (direction (N, 3), roll (N,), dofs (N, D), as
        ``grasp_candidates`` draws them) or explicit starts (palm (N, 4, 4), dofs, approach
        (N,), optionally through (N,) bool); a candidate whose DOFs do not fit the hand is a
        ValueError naming it. Runs on ``threads`` threads (None: every core). Returns palm
        (N, 4, 4), dofs (N, D), contacts, force_closure, epsilon, volume (NaN when not force-closure, or, for the volume, with
        ``metric="epsilon"``), seconds (N,); for a hand an arm carries, reachable (N,): whether
        its arm holds the hand there with arm and hand in nothing. Each grasp is what it would
        be alone."""

    def plan(
        self,
        steps: int = 10_000,
        grasps: int = 10,
        energy: str = "mixed",
        seed: int = 0,
        searches: int = 4,
        robot: int | None = None,
        object: BodyId | None = None,
        threads: int | None = None,
        test: bool = False,
        preset: str | None = None,
        annealing: dict[str, float] | None = None,
        guided: int | None = None,
        distance_grid: bool = False,
    ) -> dict[str, Any]:
        """(``distance_grid``: the virtual contacts' distances read from a grid of the
        object's closest points instead of asked of the collision engine state by state,
        GraspIt's way: faster on curved objects, other search paths; collisions and closing
        are exact either way.) (``shares``: where the
        searches' time went, seconds each: placement, collision, distances, quality, search.)
        (``annealing`` sets the annealing's parameters by GraspIt's names: yc, hc, ydims,
        hdims, nbr_adj, err_adj, t0, k0, attempts; ValueError for an unknown name or a bad
        value.) (``guided``: GraspIt's guided planner, that many of the best states each seeding
        a child search of 200 steps scored by closing the hand.) (With ``test``, or a
        ``preset`` naming the test as ``test_grasp`` does, each grasp the planner closes is
        put through the physics test: it closes states until ``grasps`` distinct ones hold,
        or none are left, and returns those that hold first, with ``held``,
        ``hold_displacement`` and ``hold_rotation`` as grasp_batch gives them, ``closed`` and
        ``tested`` (the grasps closed and tested), ``why_short_of_held``: why fewer held
        than asked, or None; a grasp that failed with the object still in the hand is tried
        again where its squeeze settled it: ``settled`` (N,) marks those grasps, and
        ``settled_tested`` counts the tries.) GraspIt's EigenGrasp planner: ``searches`` seeded annealing searches of ``steps``
        steps over the hand's pose and eigengrasp amplitudes, scored on its virtual contacts
        ("mixed", the default: searches taking "contact" and "contact-quality" in turn, or all
        "contact-quality" where a table or an arm lies within the hand's length of the object;
        or one of those, or "quality") or by closing the hand ("autograsp": slow), the best
        states closed and scored; a hand an arm carries searches only where the arm might
        reach. Returns the best
        ``grasps`` as ``grasp_batch`` does (palm, dofs, contacts, force_closure, epsilon,
        volume) with each one's energy, and the run's search_energies (the energy each search
        took), refined (a plan short of its grasps once every kept state is closed refines its
        first five by child searches that close the hand, GraspIt's guided planner's way:
        how many), steps, evaluations, seconds and
        search_seconds; ``why_empty`` says why it found no grasp (None where it found one).
        A hand an arm carries keeps only the grasps its arm reaches. The same seed gives the
        same grasps. A parallel gripper plans as the field's gripper pipelines do: antipodal
        candidates, each closed and put through the physics test, until ``grasps`` distinct
        ones hold (or ten rounds are spent); its grasps always come with ``held`` and the
        test's figures, and each one's energy is the most its object moved (mm)."""

def objects_in(folder: _Path) -> tuple[list[tuple[str, str]], list[str]]:
    """The objects of a folder (each mesh or body file, each folder of meshes), as
    ``(name, file)`` pairs, and a line for each folder that holds no mesh."""

def grasp_candidates(
    world: World,
    count: int,
    seed: int = 0,
    robot: int | None = None,
    object: BodyId | None = None,
) -> dict[str, np.ndarray]:
    """``count`` candidates round the object, drawn from ``seed``: the aims direction (N, 3),
    roll (N,), dofs (N, D), and where they start the hand, palm (N, 4, 4), approach (N,) and
    through (N,); what ``World.grasp_batch`` takes. A parallel gripper's are antipodal pairs
    on the object, given by their starts alone (through: the approach goes all the way). The
    same seed gives the same candidates."""
