//! The command line as clap reads it: each subcommand and its flags, with the help each
//! flag shows.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use clasp_core::{PlanSettings, WrenchSpaceKind};

use crate::{
    contacts::parse_threshold,
    flag_values::{annealing, numbers, parse_wrench_space, picture_size},
    json_help,
    mesh_args::MeshArgs,
    quality::Metric,
    record::Playback,
    stepping::SteppingArgs,
};

#[derive(Parser)]
#[command(name = "clasp-cli", version, about = "Clasp's command-line tool")]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Print one JSON summary per file on stdout; each failure is one line on stderr.
    #[command(after_long_help = json_help::INSPECT)]
    Inspect {
        /// Geometry (.iv .wrl .off .ply .obj .stl .stlb .gltf .glb), GraspIt body, robot or
        /// world XML, URDF, MJCF.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// How a bare mesh is read.
        #[command(flatten)]
        mesh: MeshArgs,
        /// Show a progress bar on stderr.
        #[arg(long)]
        progress: bool,
        /// For a URDF or MJCF hand, also write its settings as Clasp has them (the approach,
        /// each DOF's sense, effort and kind, the material: what it worked out from the
        /// kinematics included) to NAME.clasp.xml beside it, to edit (docs/hands.md); refused
        /// where that file is there already.
        #[arg(long)]
        write_settings: bool,
        /// Where the file names inside world files resolve first (default: $GRASPIT).
        #[arg(long, value_name = "DIR")]
        graspit_root: Option<PathBuf>,
    },
    /// Print every contact of a world (each once), one line each and a count, or one JSON
    /// document.
    #[command(after_long_help = json_help::contacts())]
    Contacts {
        /// A GraspIt world file.
        world: PathBuf,
        /// Bodies closer than this many millimetres are in contact (default 0.1).
        #[arg(long, value_name = "MM", allow_negative_numbers = true,
              value_parser = parse_threshold)]
        threshold: Option<f64>,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
        /// Where the file names inside world files resolve first (default: $GRASPIT).
        #[arg(long, value_name = "DIR")]
        graspit_root: Option<PathBuf>,
    },
    /// Write a world in another simulator's format: MuJoCo's MJCF (SI units; meshes as OBJ in
    /// a folder beside; joints, couplings as equality constraints, a position actuator per DOF).
    Export {
        /// A GraspIt world file.
        world: PathBuf,
        /// The MJCF file to write.
        #[arg(long, value_name = "OUT.xml")]
        mjcf: PathBuf,
        /// Where the file names inside world files resolve first (default: $GRASPIT).
        #[arg(long, value_name = "DIR")]
        graspit_root: Option<PathBuf>,
    },
    /// Render a world headless (no window, no X server: Vulkan on a GPU, or Mesa's software
    /// Vulkan): the colour image as PNG, and on request its depth (mm along the view axis) and
    /// body mask; prints the camera's intrinsics and each body's index in the mask.
    #[command(after_long_help = json_help::RENDER)]
    Render {
        /// A world file (GraspIt XML, MJCF, URDF).
        world: PathBuf,
        /// The colour image to write (PNG).
        #[arg(long, value_name = "RGB.png")]
        out: PathBuf,
        /// The depth image to write: 16-bit PNG of whole millimetres (0 where nothing is
        /// seen), or float32 .npy in mm (inf there).
        #[arg(long, value_name = "FILE")]
        depth: Option<PathBuf>,
        /// The body mask to write: 16-bit PNG of each pixel's body index + 1 (0 where none
        /// is), or int32 .npy of the index (−1 there).
        #[arg(long, value_name = "FILE")]
        mask: Option<PathBuf>,
        /// Image size (default 640x480).
        #[arg(long, value_name = "WxH", value_parser = picture_size, default_value = "640x480")]
        size: (u32, u32),
        /// The camera at EX,EY,EZ looking at TX,TY,TZ (mm, z up). Default: the world's saved
        /// camera, else a view of the whole world.
        #[arg(long, value_name = "EX,EY,EZ,TX,TY,TZ", value_parser = numbers::<6>, allow_hyphen_values = true)]
        camera: Option<[f64; 6]>,
        /// Look at the world's object from direction DX,DY,DZ, framing it.
        #[arg(long, value_name = "DX,DY,DZ", value_parser = numbers::<3>, allow_hyphen_values = true, conflicts_with = "camera")]
        look_from: Option<[f64; 3]>,
        /// Vertical field of view in degrees (default 45).
        #[arg(long, value_name = "DEG")]
        fov: Option<f64>,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
        /// Where the file names inside world files resolve first (default: $GRASPIT).
        #[arg(long, value_name = "DIR")]
        graspit_root: Option<PathBuf>,
    },
    /// Step a world's dynamics: its free graspable bodies fall, slide and rest under gravity on
    /// its contacts; print where each ended and its velocity, and every contact with the
    /// impulse of the last step (text, or one JSON document).
    #[command(after_long_help = json_help::simulate())]
    Simulate {
        /// A GraspIt world file.
        world: PathBuf,
        /// Seconds of simulated time.
        #[arg(long, value_name = "S")]
        seconds: f64,
        #[command(flatten)]
        stepping: SteppingArgs,
        /// Bodies that start inside one another are refused, the pairs named; with this, each
        /// dynamic body in another is first moved the shortest way out, and the moves listed.
        #[arg(long)]
        resolve_overlaps: bool,
        #[command(flatten)]
        playback: Playback,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
        /// Where the file names inside world files resolve first (default: $GRASPIT).
        #[arg(long, value_name = "DIR")]
        graspit_root: Option<PathBuf>,
    },
    /// Grasp with the world's first hand (or the robot `--robot` names): optionally approach
    /// until it touches something, then close every finger; print the DOF values and the
    /// contacts.
    #[command(after_long_help = json_help::grasp())]
    Grasp {
        /// A GraspIt world file with at least one robot.
        world: PathBuf,
        /// Which robot grasps: its index (0 is the first) or its name. Default: the world's
        /// first hand (an arm carrying it is passed over).
        #[arg(long, value_name = "INDEX|NAME")]
        robot: Option<String>,
        /// First move the hand along its approach direction until it touches something (at
        /// most the world's bounding-box diagonal; if it meets nothing it goes back).
        #[arg(long)]
        approach: bool,
        /// Close every finger until it touches something or reaches its limit (GraspIt's Auto
        /// Grasp). Required: it is the only grasp supported so far.
        #[arg(long)]
        auto: bool,
        /// Then the physics test of the grasp: the hand squeezes and gravity pulls the world's
        /// object along each axis direction in turn; held when it moves at most 20 mm and turns
        /// at most 15° in every one.
        #[arg(long)]
        test: bool,
        /// Seconds gravity pulls along each direction in the test (default: the preset's).
        #[arg(long, value_name = "S", requires = "test")]
        test_seconds: Option<f64>,
        /// Which test: Clasp's own (`clasp`, the default; `clasp-2ms` at 2 ms a step), or the
        /// field's as Clasp reproduces them — `dexgraspnet`, `bodex`, `graspgen`
        /// (docs/presets.md says what of each).
        #[arg(long, value_name = "NAME", requires = "test", value_parser = clap::builder::PossibleValuesParser::new(clasp_core::PRESETS))]
        preset: Option<String>,
        /// Then GraspIt's lift: the palm rises MM millimetres (at 100 mm/s) under gravity;
        /// held when the object follows it (within 20 mm and 15° of the palm).
        #[arg(long, value_name = "MM")]
        lift: Option<f64>,
        /// With --test: the test's runs one after another, every 0.01 s of each.
        #[command(flatten)]
        playback: Playback,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
        /// Where the file names inside world files resolve first (default: $GRASPIT).
        #[arg(long, value_name = "DIR")]
        graspit_root: Option<PathBuf>,
    },
    /// Evaluate a robot's grasp of the world's object (its first graspable body): optionally
    /// approach and auto-grasp as `grasp` does, then print each contact, the grasp's quality
    /// and whether it is force-closure.
    #[command(after_long_help = json_help::QUALITY)]
    Quality {
        /// A GraspIt world file with a robot and a graspable body.
        world: PathBuf,
        /// What to measure besides force closure: epsilon (the largest ball round the origin
        /// inside the wrench space), or volume (epsilon and the wrench space's 6D volume;
        /// slower).
        #[arg(long, value_enum, default_value_t = Metric::Epsilon)]
        metric: Metric,
        /// The grasp wrench space: l1 (the hull of every contact's wrenches; the normal forces
        /// sum to at most 1) or linf (their Minkowski sum; each normal force at most 1).
        #[arg(long, value_name = "l1|linf", default_value = "l1",
              value_parser = parse_wrench_space)]
        gws: WrenchSpaceKind,
        /// First move the hand along its approach direction until it touches something, as
        /// `grasp --approach` does.
        #[arg(long)]
        approach: bool,
        /// Close every finger until it touches something or reaches its limit, as
        /// `grasp --auto` does.
        #[arg(long)]
        auto: bool,
        /// Score the hand's virtual contacts as they stand instead of its contacts on the
        /// object, as GraspIt's planner does (torques about the centre of the contacts, over
        /// 150 mm); the world needs no object.
        #[arg(long = "virtual")]
        on_virtual: bool,
        /// Bodies closer than this many millimetres are in contact (default 0.1; GraspIt's
        /// contact search uses 0.2).
        #[arg(long, value_name = "MM", allow_negative_numbers = true,
              value_parser = parse_threshold)]
        threshold: Option<f64>,
        /// GraspIt's contacts: its threshold (0.2 mm, unless --threshold says otherwise), search
        /// order, pruning and soft contacts, quirks included, for numbers that must match
        /// GraspIt's.
        #[arg(long)]
        graspit: bool,
        /// Which robot grasps: its index (0 is the first) or its name. Default: the world's
        /// first hand (an arm carrying it is passed over).
        #[arg(long, value_name = "INDEX|NAME")]
        robot: Option<String>,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
        /// Where the file names inside world files resolve first (default: $GRASPIT).
        #[arg(long, value_name = "DIR")]
        graspit_root: Option<PathBuf>,
    },
    /// GraspIt's multi-threaded grasp evaluation: the world's bodies are shared (domain 0);
    /// each of N domains holds its own copy of the hand, aimed at the world's object from its
    /// own side, approaches and auto-grasps; the domains run in parallel. Prints each grasp.
    #[command(after_long_help = json_help::DOMAINS)]
    Domains {
        /// A GraspIt world file with a graspable body (a table and a glass, say).
        world: PathBuf,
        /// The hand: a GraspIt robot file, loaded once and cloned into every domain.
        #[arg(long, value_name = "ROBOT.xml")]
        hand: PathBuf,
        /// How many domains (grasps).
        #[arg(long, value_name = "N", default_value_t = 8)]
        count: usize,
        /// How many threads run them (default: every core).
        #[arg(long, value_name = "T", default_value_t = 0)]
        threads: usize,
        /// Run each grasp again alone and check that it gives the same answer.
        #[arg(long)]
        check: bool,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
        /// Where the file names inside world files resolve first (default: $GRASPIT).
        #[arg(long, value_name = "DIR")]
        graspit_root: Option<PathBuf>,
    },
    /// GraspIt's EigenGrasp planner: simulated annealing over the hand's pose round the
    /// world's object and its eigengrasp amplitudes, scored on the hand's virtual contacts, in
    /// independent seeded searches; the best states closed and scored. Prints the grasps found,
    /// best first, and the steps per second. A parallel gripper's grasps are antipodal
    /// candidates instead, each closed and put through the physics test, until enough hold.
    #[command(after_long_help = json_help::PLAN)]
    Plan {
        /// A GraspIt world file with a hand (with virtual contacts, or a parallel gripper) and
        /// a graspable body.
        world: PathBuf,
        /// Annealing steps of each of the four searches.
        #[arg(long, value_name = "N", default_value_t = PlanSettings::default().steps)]
        steps: u64,
        /// How many grasps to keep.
        #[arg(long, value_name = "K", default_value_t = PlanSettings::default().grasps)]
        grasps: usize,
        /// mixed (the searches take contact and contact-quality in turn), contact-quality
        /// (GraspIt's contact energy plus 30 × its potential quality: contacts near the object
        /// that could press against each other), contact (GraspIt's contact energy), quality
        /// (potential quality) or autograsp (auto-grasp quality: every state closed and scored;
        /// slow, for short searches).
        #[arg(
            long,
            value_name = "mixed|contact-quality|contact|quality|autograsp",
            default_value = "mixed"
        )]
        energy: clasp_core::PlanEnergy,
        /// Where the searches are drawn from: the same seed gives the same grasps.
        #[arg(long, value_name = "S", default_value_t = 0)]
        seed: u64,
        /// How many threads run the searches (default: every core).
        #[arg(long, value_name = "T", default_value_t = 0)]
        threads: usize,
        /// Which robot plans: its index or name. Default: the world's first hand.
        #[arg(long, value_name = "INDEX|NAME")]
        robot: Option<String>,
        /// For a hand an arm carries, also keep grasps its arm cannot reach (or reaches only
        /// with the arm in something); by default only those the arm reaches are kept.
        #[arg(long)]
        any_reach: bool,
        /// Read the virtual contacts' distances to the object from a grid of its closest points
        /// (within about 1 mm; near the surface, exact) instead of asking for them state by
        /// state, as GraspIt does: about a fifth faster on curved objects, but the searches take
        /// other paths (on the Allegro, fewer grasps held). Collisions are exact either way.
        #[arg(long)]
        distance_grid: bool,
        /// The annealing's parameters, GraspIt's names: yc, hc, ydims, hdims, nbr_adj, err_adj,
        /// t0, k0, attempts (default: GraspIt's ANNEAL_DEFAULT), e.g. --anneal t0=1e5,k0=0.
        #[arg(long, value_name = "NAME=VALUE,...", value_parser = annealing)]
        anneal: Option<clasp_core::Annealing>,
        /// GraspIt's guided planner: after the searches, their N best states (default 20) each
        /// seed a child search of 200 steps scored by closing the hand.
        #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "20")]
        guided: Option<usize>,
        /// Put each grasp the planner closes through the physics test: it closes states until
        /// it has the grasps asked for that hold (or none are left), and returns those that
        /// hold first, each with its test's figures. A grasp that fails with the object still
        /// in the hand is tried again where its squeeze settled it ("settled" in the JSON). A
        /// parallel gripper's grasps always are tested.
        #[arg(long)]
        test: bool,
        /// Which test: Clasp's own (`clasp`, the default), or the field's as Clasp reproduces
        /// them (docs/presets.md); implies --test.
        #[arg(long, value_name = "NAME", value_parser = clap::builder::PossibleValuesParser::new(clasp_core::PRESETS))]
        preset: Option<String>,
        /// Also write each grasp found as a GraspIt world, the hand where the grasp left it:
        /// DIR/grasp-0.xml (the best), DIR/grasp-1.xml, …
        #[arg(long, value_name = "DIR")]
        save: Option<PathBuf>,
        /// The grasps found, best first, a second apart, as one recording or video.
        #[command(flatten)]
        playback: Playback,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
        /// Where the file names inside world files resolve first (default: $GRASPIT).
        #[arg(long, value_name = "DIR")]
        graspit_root: Option<PathBuf>,
    },
    /// A grasp dataset's batch: N grasp candidates of a hand round an object, drawn from a
    /// seed (approach direction, roll, spread; for a parallel gripper, antipodal pairs on the
    /// object's surface), tried in parallel, each on a clone of the hand in its own domain
    /// (approach, auto-grasp, epsilon and volume, and the physics test where asked). The same grasps as
    /// Python's `clasp.dataset` draws for that object, hand and seed, to the bit.
    #[command(after_long_help = json_help::BATCH)]
    Batch {
        /// The object: a GraspIt body file or a mesh file; or a folder of objects (each mesh
        /// or body file in it, and each folder in it holding meshes: its shallowest mesh, an
        /// OBJ first), each batched in turn from its own seed (S × 1000003 + its place, as
        /// Python's clasp.dataset draws them) with a progress bar; with --json, one document a
        /// line, each with "object_name".
        object: PathBuf,
        /// How a bare mesh is read.
        #[command(flatten)]
        mesh: MeshArgs,
        /// The hand: a GraspIt robot file or a URDF.
        #[arg(long, value_name = "ROBOT")]
        hand: PathBuf,
        /// How many grasps.
        #[arg(long, value_name = "N", default_value_t = 100)]
        grasps: usize,
        /// Where the candidates are drawn from.
        #[arg(long, value_name = "S", default_value_t = 0)]
        seed: u64,
        /// How many threads run them (default: every core).
        #[arg(long, value_name = "T", default_value_t = 0)]
        threads: usize,
        /// Also label each grasp by the physics test (held or not). A parallel gripper's
        /// grasps always are: two jaws are never force closure.
        #[arg(long)]
        test: bool,
        /// Which test labels them: Clasp's own (`clasp`, the default), or the field's as Clasp
        /// reproduces them (docs/presets.md); implies --test.
        #[arg(long, value_name = "NAME", value_parser = clap::builder::PossibleValuesParser::new(clasp_core::PRESETS))]
        preset: Option<String>,
        /// How the test's dynamics steps (the labels should not depend on it).
        #[command(flatten)]
        stepping: SteppingArgs,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
    },
}
