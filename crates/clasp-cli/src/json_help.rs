//! What each command prints with `--json`, described once: shown after its `--help` and in the
//! generated reference (docs/cli.md).

/// A contact as every command that lists contacts prints it: RaiSim's contact fields.
const CONTACT: &str = "A contact: `body` and `other` (each `id` such as \"body 0\", \"robot 0 palm\" or \
\"robot 0 chain 1 link 2\", `name`, for a robot's body `robot`, `chain`, `link`, and \
`collision_group`, `collision_mask`), `point`, `other_point` and `normal` (unit, towards \
object A) as [x, y, z] mm, `frame_rotation_wxyz`, `separation` mm and `depth` (its negative), \
`triangle`, `other_triangle`, `index` (in the body's list), `pair_index` (the same contact in \
the other body's list; null when the other is static), `local_index`, `is_object_a`, \
`body_type` and `other_type` (\"static\" or \"dynamic\"), `static_friction`, \
`kinetic_friction`, `is_self_collision`, `skip`, `model` (point, soft, or point because the \
surfaces could not be fitted), `friction_edges` (its wrench space), and from the last dynamics \
step `impulse` (from B on A, contact frame), `world_impulse`, `inverse_inertia` and \
`index_in_contact_problem` (null where no step was taken).";

pub(crate) const INSPECT: &str = "Output: one JSON document per file, one a line: `file`, \
`kind`, and what the file holds: geometry (triangles, vertices, bounding box, closedness), a \
body (material, mass, centre of gravity, inertia, Young's modulus, collision group and mask), \
a robot (DOFs, chains and links, eigengrasps with the amplitudes of its posture, virtual \
contacts) or a world (`bodies`, `robots`, `connections`, `camera`). A file that fails is one \
`file:line: reason` line on stderr, and the exit status is then 1.";

pub(crate) fn contacts() -> String {
    format!(
        "JSON: `file`, `threshold` mm, `count`, `overlapping` (pairs that interpenetrate) and \
`contacts`.\n\n{CONTACT}"
    )
}

pub(crate) const RENDER: &str = "JSON: `width`, `height`, `adapter` (the GPU or software \
renderer), `intrinsics` (`fx`, `fy`, `cx`, `cy` px; OpenCV's camera: x right, y down, z \
forward), `camera_to_world` (4x4, mm) and `bodies` (each `index` in the mask, `name` and \
`pixels`). Depth: mm along the view axis (float32 .npy, inf where nothing is seen, or a 16-bit \
PNG of whole mm, 0 there). Mask: each pixel's body index (int32 .npy, -1 for none, or a 16-bit \
PNG of index + 1).";

pub(crate) fn simulate() -> String {
    format!(
        "JSON: `file`, `seconds`, `time_step`, `steps`, `separated` (bodies first moved out of \
each other by --resolve-overlaps), `bodies` (each that moves: `index`, `name`, `body_type`, \
`pose` 4x4, `linear_velocity` mm/s, `angular_velocity` rad/s), `contacts` (the last step's \
contact problem) and `wrote` (recordings and videos).\n\n{CONTACT}"
    )
}

pub(crate) fn grasp() -> String {
    format!(
        "JSON: `file`, `robot`, `threshold`, `dof_values` (rad, or mm for a sliding joint), \
`stopped_by` (the touching pairs that stopped the fingers), `blocked_by_overlap`, `approach` \
(null without --approach, else `touched`, `max_distance`, `stopped_by`, \
`blocked_by_overlap`), `count` and `contacts` after the grasp, `test` (with --test: `held`, \
`squeeze` (the efforts, the normal force on the object, what each finger touches) and \
`directions`, each with the object's end speed, whether it came to rest, how far it moved and \
turned), `lift` (with --lift: `held`, `raised`) and `wrote`.\n\n{CONTACT}"
    )
}

pub(crate) const QUALITY: &str = "JSON: `file`, `robot`, `robot_index`, `object` (`id`, \
`name`, `collision_group`, `collision_mask`; with --virtual, `virtual_contacts` instead), \
`wrench_space`, `metric`, `force_closure`, `epsilon` (null when not force-closure), `volume` \
(null unless asked for), `max_radius` and `cog` (torques are about the centre of gravity over \
the radius), `wrenches`, `approach` and `auto_grasp` (what stopped them), and `contacts` \
(`body`, `point`, `normal`, `separation`, `friction`, `model`, `wrenches`: each fx, fy, fz, tx, \
ty, tz).";

pub(crate) const DOMAINS: &str = "JSON: `file`, `hand`, `domains`, `threads`, `seconds`, \
`identical_to_alone` (with --check) and `grasps` (each `domain`, `palm` 4x4, `dof_values`, \
`contacts` count, `force_closure`, `epsilon`, `identical_to_alone`).";

pub(crate) const PLAN: &str = "JSON: `file`, `robot`, `robot_index`, `seed`, `threads`, \
`search_energies` (the energy each search took: `mixed` chooses, by the scene), `steps`, `evaluations`, `illegal_steps`, `steps_per_second`, `evaluations_per_second`, \
`search_seconds`, `shares` (the searches' seconds summed, share by share of a state: \
`placement`, `collision`, `distances`, `quality`, `search`), `seconds`, `closed` (grasps closed), `tested`, `held` (how many held, with \
--test), `settled_tested` (failed grasps tried again where their squeeze settled them), `refined` (for a plan short of its grasps, the first kept states refined by child searches that close the hand), `unreachable` (grasps an arm cannot reach, passed over), `why_empty` and \
`why_short_of_held` (null, or why), `wrote`, and `grasps`, best first: each `palm` (16 numbers, \
row by row), `dofs`, `energy`, `contacts` count, `force_closure`, `epsilon`, `volume`, \
`breakaway`, `held`, `settled` (whether it is where another's squeeze settled) and `test` \
(the test's figures, as `grasp --test` gives them; null untested).";

pub(crate) const BATCH: &str = "JSON: `object`, `hand`, `seed`, `threads`, `grasps`, \
`seconds`, `grasps_per_second`, `held` (how many, with --test) and `results`: each `palm` (16 \
numbers, row by row), `dofs`, `contacts` count, `force_closure`, `epsilon`, `volume`, `held` \
(null untested) and `seconds`.";
