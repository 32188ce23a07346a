//! The grasp planner (`--planner-only`, and part of every quick and full run): GraspIt's
//! Barrett on five objects of GraspIt's library (the mug, the flask, the glass, the phone, the
//! book), each planned with four searches on one thread and on two, side by side: annealing
//! steps a second and states evaluated a second (what GraspIt's `timeTest` counts), and the
//! time to the first force-closure grasp (the shortest run, doubling the steps from 500 a
//! search, that returns one). Checked: both thread counts give the same grasps.

use std::path::Path;

use clasp_core::{BodyId, BodyKind, Element, PlanProgress, PlanSettings, Pose, World};
use clasp_io::{Disk, load_body, load_robot};
use serde_json::{Value, json};

use crate::check::Checks;

const OBJECTS: [&str; 5] = ["mug", "flask", "glass", "phone", "book"];

pub fn run(quick: bool, library: Option<&Path>, checks: &mut Checks) -> Value {
    let Some(library) = library else {
        println!("\ngrasp planner skipped: GraspIt's model library not found");
        return Value::Null;
    };
    let steps = if quick {
        2_500
    } else {
        PlanSettings::default().steps
    };
    println!(
        "\ngrasp planner, Barrett (4 searches of {steps} annealing steps, contact energy), 1 and 2 threads:"
    );
    println!(
        "  object      steps/s 1 thr   2 thr   states/s 1 thr    2 thr   first force closure 1 thr  grasps FC"
    );
    let rows: Vec<Value> = OBJECTS
        .iter()
        .filter_map(|object| scene(library, object).map(|world| (object, world)))
        .map(|(object, world)| measure(object, &world, steps, checks))
        .collect();
    json!({ "hand": "Barrett", "steps_per_search": steps, "objects": rows })
}

fn scene(library: &Path, object: &str) -> Option<World> {
    let body = load_body(
        &Disk,
        &library.join(format!("objects/{object}.xml")),
        BodyKind::Graspable,
    )
    .ok()?;
    let hand = load_robot(&Disk, &library.join("robots/Barrett/Barrett.xml")).ok()?;
    let mut world = World::new(vec![body], vec![hand]);
    world
        .set_pose(Element::Robot(0), Pose::translation(0.0, 0.0, 2000.0))
        .ok()?;
    Some(world)
}

fn measure(object: &str, world: &World, steps: u64, checks: &mut Checks) -> Value {
    let settings = PlanSettings {
        steps,
        ..PlanSettings::default()
    };
    let on = |threads: usize, settings: &PlanSettings| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool");
        pool.install(|| world.plan(0, BodyId::Free(0), settings, &PlanProgress::default()))
    };
    let (Ok(one), Ok(two)) = (on(1, &settings), on(2, &settings)) else {
        checks.expect(false, || format!("planner, {object}: the plan failed"));
        return Value::Null;
    };
    checks.expect(one.grasps == two.grasps, || {
        format!("planner, {object}: one thread and two give different grasps")
    });
    let rate = |p: &clasp_core::Plan| p.steps as f64 / p.search_seconds;
    let states = |p: &clasp_core::Plan| p.evaluations as f64 / p.search_seconds;
    let first = first_force_closure(&on);
    let closures = one.grasps.iter().filter(|g| g.force_closure()).count();
    println!(
        "  {object:<10} {:>8.0} {:>8.0}   {:>10.0} {:>8.0}   {:>26}  {:>2}/{}",
        rate(&one),
        rate(&two),
        states(&one),
        states(&two),
        first.map_or("none".to_owned(), |(s, steps)| format!(
            "{s:.2} s ({steps} steps)"
        )),
        closures,
        one.grasps.len()
    );
    json!({
        "object": object,
        "steps_per_second": [rate(&one), rate(&two)],
        "states_per_second": [states(&one), states(&two)],
        "first_force_closure_seconds": first.map(|f| f.0),
        "first_force_closure_steps": first.map(|f| f.1),
        "force_closure_grasps": closures,
    })
}

/// The shortest one-thread run, doubling the steps per search from 500, that returns a
/// force-closure grasp: its time and its steps.
fn first_force_closure(
    on: &dyn Fn(usize, &PlanSettings) -> Result<clasp_core::Plan, clasp_core::MoveError>,
) -> Option<(f64, u64)> {
    let mut steps = 500;
    while steps <= 64_000 {
        let settings = PlanSettings {
            steps,
            ..PlanSettings::default()
        };
        let plan = on(1, &settings).ok()?;
        if plan.grasps.iter().any(|g| g.force_closure()) {
            return Some((plan.seconds, plan.steps));
        }
        steps *= 2;
    }
    None
}
