//! What a run is asked to do: the command line (`Options`), and the sizes and budgets of a
//! quick or a full run (`Plan`).

use std::time::Duration;

use clasp_collide::TriMesh;

use crate::{library, scenes};

pub(crate) struct Options {
    pub(crate) quick: bool,
    pub(crate) json: Option<String>,
    pub(crate) build_only: bool,
    pub(crate) library: Option<std::path::PathBuf>,
    pub(crate) library_only: bool,
    pub(crate) grasps_only: bool,
    pub(crate) quality_only: bool,
    pub(crate) planner_only: bool,
    /// GraspIt's planner figures (`graspit/compare.sh`) to put beside ours.
    pub(crate) graspit: Option<std::path::PathBuf>,
    /// Overrides the plan's number of grasps.
    pub(crate) grasps: Option<usize>,
    pub(crate) app_frame: bool,
    pub(crate) export: Option<std::path::PathBuf>,
    pub(crate) dynamics: bool,
    pub(crate) grasp_test: bool,
    pub(crate) field_hands: bool,
    pub(crate) render: bool,
}

/// The options the command line gives.
pub(crate) fn parse() -> Result<Options, String> {
    let mut options = Options {
        quick: true,
        json: None,
        build_only: false,
        library: library::default_dir(),
        library_only: false,
        grasps_only: false,
        quality_only: false,
        planner_only: false,
        graspit: None,
        grasps: None,
        app_frame: false,
        export: None,
        dynamics: false,
        grasp_test: false,
        field_hands: false,
        render: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => options.quick = true,
            "--full" => options.quick = false,
            "--build-only" => options.build_only = true,
            "--json" => options.json = Some(args.next().ok_or("--json needs a path")?),
            "--library" => {
                options.library = Some(args.next().ok_or("--library needs a folder")?.into())
            }
            "--library-only" => options.library_only = true,
            "--grasps-only" => options.grasps_only = true,
            "--planner-only" => options.planner_only = true,
            "--graspit" => {
                options.graspit = Some(args.next().ok_or("--graspit needs a file")?.into())
            }
            "--quality-only" => options.quality_only = true,
            "--app-frame" => options.app_frame = true,
            "--dynamics" => options.dynamics = true,
            "--grasp-test" => options.grasp_test = true,
            "--field-hands" => options.field_hands = true,
            "--render" => options.render = true,
            "--export" => {
                options.export = Some(args.next().ok_or("--export needs a folder")?.into())
            }
            "--grasps" => {
                let count = args.next().ok_or("--grasps needs a count")?;
                options.grasps = Some(count.parse().map_err(|_| format!("bad count {count}"))?)
            }
            "--help" | "-h" => {
                println!(
                    "clasp-bench [--quick|--full] [--build-only] [--json PATH] [--library DIR] [--library-only] [--grasps-only] [--grasps N] [--quality-only] [--planner-only] [--graspit FILE] [--app-frame] [--dynamics] [--grasp-test] [--field-hands] [--render] [--export DIR]"
                );
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other}; try --help")),
        }
    }
    Ok(options)
}

/// Settings of one run.
pub(crate) struct Plan {
    pub(crate) sizes: &'static [usize],
    pub(crate) sites: usize,
    /// Sizes up to this are checked against the reference engine.
    pub(crate) check_up_to: usize,
    pub(crate) cell_budget: Duration,
    pub(crate) frames: usize,
    pub(crate) hand_object_size: usize,
    /// Grasps evaluated on one thread and on two.
    pub(crate) grasps: usize,
    pub(crate) build_sizes: &'static [usize],
    pub(crate) link: TriMesh,
}

impl Plan {
    pub(crate) fn new(quick: bool) -> Self {
        if quick {
            Plan {
                sizes: &[1_000, 10_000],
                sites: 2,
                check_up_to: 10_000,
                cell_budget: Duration::from_millis(40),
                frames: 50,
                hand_object_size: 10_000,
                grasps: 200,
                build_sizes: &[10_000],
                link: clasp_collide::shapes::capsule(9.0, 30.0, 24),
            }
        } else {
            Plan {
                sizes: &[1_000, 10_000, 100_000, 1_000_000],
                sites: 8,
                check_up_to: 10_000,
                cell_budget: Duration::from_millis(600),
                frames: 1000,
                hand_object_size: 100_000,
                grasps: 1000,
                build_sizes: &[100_000, 1_000_000],
                link: scenes::finger_link(),
            }
        }
    }
}
