//! The grasp planner (`--planner-only`, and part of every quick and full run): GraspIt's
//! Barrett on five objects of GraspIt's library (the mug, the flask, the glass, the phone, the
//! book), each planned with four searches on one thread and on two, side by side: annealing
//! steps a second and states evaluated a second (what GraspIt's `timeTest` counts), and the
//! time to the first force-closure grasp (the shortest run, doubling the steps from 500 a
//! search, that returns one). Checked: both thread counts give the same grasps. Then the same
//! objects on a table, with two hands (`planner_table`).

use std::collections::HashMap;
use std::path::Path;

use clasp_core::{
    BodyId, BodyKind, Element, PlanEnergy, PlanProgress, PlanSettings, Pose, RobotId, World,
};
use clasp_io::{Disk, load_body, load_robot};
use serde_json::{Value, json};

use crate::{check::Checks, options::Options};

const OBJECTS: [&str; 5] = ["mug", "flask", "glass", "phone", "book"];

pub fn run(options: &Options, checks: &mut Checks) -> Value {
    let (quick, library) = (options.quick, options.library.as_deref());
    let graspit = match options.graspit.as_deref().map(read_graspit).transpose() {
        Ok(figures) => figures,
        Err(message) => {
            checks.expect(false, || message.clone());
            None
        }
    };
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
        "\ngrasp planner, Barrett (4 searches of {steps} annealing steps, contact energy), 1 and 2 threads; \
         `grid`: one thread, the virtual contacts' distances read from the object's grid (--distance-grid):"
    );
    println!(
        "  object      steps/s 1 thr   2 thr   states/s 1 thr    2 thr     grid   first force closure 1 thr  grasps FC   grid"
    );
    let rows: Vec<Value> = OBJECTS
        .iter()
        .filter_map(|object| scene(library, object).map(|world| (object, world)))
        .map(|(object, world)| measure(object, &world, steps, checks))
        .collect();
    print_shares(&rows);
    let beside = graspit.map(|graspit| beside_graspit(&rows, &graspit));
    let on_table = crate::planner_table::run(library, quick, checks);
    json!({
        "hand": "Barrett",
        "steps_per_search": steps,
        "objects": rows,
        "graspit": beside,
        "on_table": on_table,
    })
}

/// GraspIt's figures for one object, as `graspit/planner_timing.cpp` prints them.
struct GraspItRun {
    steps_per_second: f64,
    states_per_second: f64,
    time_test_states_per_second: f64,
    /// Microseconds a state in each of Clasp's shares (GraspIt's contact energy has no
    /// quality share); absent from figures made before the plugin timed them.
    microseconds_a_state: Option<Value>,
}

/// The target: ten times GraspIt's annealing rate on one core.
const TARGET_OVER_GRASPIT: f64 = 10.0;

fn read_graspit(path: &Path) -> Result<HashMap<String, GraspItRun>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("GraspIt's figures {}: {e}", path.display()))?;
    let mut runs = HashMap::new();
    for (index, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let bad = |what: &str| format!("{}:{}: {what}", path.display(), index + 1);
        let value: Value = serde_json::from_str(line).map_err(|e| bad(&e.to_string()))?;
        let number = |key: &str| {
            value[key]
                .as_f64()
                .ok_or_else(|| bad(&format!("no number `{key}`")))
        };
        let object = value["object"].as_str().ok_or_else(|| bad("no `object`"))?;
        let per_state = 1e6 / number("states")?.max(1.0);
        let share = |key: &str| value[format!("{key}_s")].as_f64().map(|s| s * per_state);
        let shares = ["placement", "collision", "distances", "search"].map(|k| (k, share(k)));
        let microseconds_a_state = shares.iter().all(|(_, s)| s.is_some()).then(|| {
            let mut named: serde_json::Map<String, Value> = shares
                .iter()
                .map(|&(k, s)| (k.to_owned(), json!(s)))
                .collect();
            named.insert("quality".to_owned(), json!(0.0));
            Value::Object(named)
        });
        let run = GraspItRun {
            steps_per_second: number("steps_per_s")?,
            states_per_second: number("states_per_s")?,
            time_test_states_per_second: number("time_test_states_per_s")?,
            microseconds_a_state,
        };
        runs.insert(object.to_owned(), run);
    }
    Ok(runs)
}

/// Prints and returns GraspIt's figures beside ours (one thread each), with the ratios.
fn beside_graspit(rows: &[Value], graspit: &HashMap<String, GraspItRun>) -> Value {
    println!(
        "\n  beside GraspIt's planner (one thread each; target ≥ {TARGET_OVER_GRASPIT}× GraspIt):"
    );
    println!(
        "  object      steps/s GraspIt    Clasp   ratio   states/s GraspIt    Clasp   ratio     grid   ratio   GraspIt timeTest states/s"
    );
    let compared: Vec<Value> = rows
        .iter()
        .filter_map(|row| {
            let object = row["object"].as_str()?;
            let theirs = graspit.get(object)?;
            let steps = row["steps_per_second"][0].as_f64()?;
            let states = row["states_per_second"][0].as_f64()?;
            let grid = row["distance_grid"]["states_per_second"].as_f64()?;
            let (step_ratio, state_ratio, grid_ratio) = (
                steps / theirs.steps_per_second,
                states / theirs.states_per_second,
                grid / theirs.states_per_second,
            );
            println!(
                "  {object:<10} {:>15.0} {steps:>8.0} {step_ratio:>6.1}×  {:>15.0} {states:>8.0} {state_ratio:>6.1}× {grid:>8.0} {grid_ratio:>6.1}×  {:>24.0}",
                theirs.steps_per_second,
                theirs.states_per_second,
                theirs.time_test_states_per_second
            );
            Some(json!({
                "object": object,
                "graspit_steps_per_second": theirs.steps_per_second,
                "graspit_states_per_second": theirs.states_per_second,
                "graspit_time_test_states_per_second": theirs.time_test_states_per_second,
                "steps_ratio": step_ratio,
                "states_ratio": state_ratio,
                "distance_grid_states_ratio": grid_ratio,
                "target_met": state_ratio >= TARGET_OVER_GRASPIT,
                "graspit_microseconds_a_state": theirs.microseconds_a_state,
            }))
        })
        .collect();
    let theirs: Vec<Value> = compared
        .iter()
        .filter(|c| c["graspit_microseconds_a_state"].is_object())
        .map(|c| json!({"object": c["object"], "microseconds_a_state": c["graspit_microseconds_a_state"]}))
        .collect();
    if !theirs.is_empty() {
        println!("\n  GraspIt's states, the same shares:");
        print_share_rows(&theirs);
    }
    let met = compared.iter().filter(|c| c["target_met"] == true).count();
    println!(
        "  target ≥ {TARGET_OVER_GRASPIT}× GraspIt's states a second: met on {met} of {} objects",
        compared.len()
    );
    Value::Array(compared)
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
        .set_pose(
            Element::Robot(RobotId::from_index(0)),
            Pose::translation(0.0, 0.0, 2000.0),
        )
        .ok()?;
    Some(world)
}

fn measure(object: &str, world: &World, steps: u64, checks: &mut Checks) -> Value {
    // GraspIt's own energy, the one GraspIt runs beside it.
    let settings = PlanSettings {
        steps,
        energy: PlanEnergy::Contact,
        ..PlanSettings::default()
    };
    let on = |threads: usize, settings: &PlanSettings| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool");
        pool.install(|| {
            world.plan(
                RobotId::from_index(0),
                BodyId::Free(0),
                settings,
                &PlanProgress::default(),
            )
        })
    };
    let on_grid = PlanSettings {
        distance_grid: true,
        ..settings
    };
    let (Ok(one), Ok(two), Ok(grid)) = (on(1, &settings), on(2, &settings), on(1, &on_grid)) else {
        checks.expect(false, || format!("planner, {object}: the plan failed"));
        return Value::Null;
    };
    checks.expect(one.grasps == two.grasps, || {
        format!("planner, {object}: one thread and two give different grasps")
    });
    let rate = |p: &clasp_core::GraspPlan| p.steps as f64 / p.search_seconds;
    let states = |p: &clasp_core::GraspPlan| p.evaluations as f64 / p.search_seconds;
    let first = first_force_closure(&on);
    let closures = one.grasps.iter().filter(|g| g.force_closure()).count();
    let grid_closures = grid.grasps.iter().filter(|g| g.force_closure()).count();
    println!(
        "  {object:<10} {:>8.0} {:>8.0}   {:>10.0} {:>8.0} {:>8.0}   {:>26}  {:>2}/{}  {:>2}/{}",
        rate(&one),
        rate(&two),
        states(&one),
        states(&two),
        states(&grid),
        first.map_or("none".to_owned(), |(s, steps)| format!(
            "{s:.2} s ({steps} steps)"
        )),
        closures,
        one.grasps.len(),
        grid_closures,
        grid.grasps.len()
    );
    json!({
        "object": object,
        "steps_per_second": [rate(&one), rate(&two)],
        "states_per_second": [states(&one), states(&two)],
        "first_force_closure_seconds": first.map(|f| f.0),
        "first_force_closure_steps": first.map(|f| f.1),
        "force_closure_grasps": closures,
        "microseconds_a_state": state_shares(&one),
        "distance_grid": {
            "states_per_second": states(&grid),
            "force_closure_grasps": grid_closures,
            "microseconds_a_state": state_shares(&grid),
        },
    })
}

/// Where one thread's state went, each share in microseconds a state (issue 55, item 3).
fn state_shares(plan: &clasp_core::GraspPlan) -> Value {
    let per_state = 1e6 / plan.evaluations.max(1) as f64;
    plan.shares
        .named()
        .iter()
        .map(|&(name, seconds)| (name.to_owned(), json!(seconds * per_state)))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// The one-thread runs' states, share by share: microseconds a state, and the share of it.
fn print_shares(rows: &[Value]) {
    println!("\n  where a state's time goes (one thread, microseconds a state, and % of it):");
    print_share_rows(rows);
    println!("\n  the same, with the distance grid:");
    let grid: Vec<Value> = rows
        .iter()
        .map(|r| json!({"object": r["object"], "microseconds_a_state": r["distance_grid"]["microseconds_a_state"]}))
        .collect();
    print_share_rows(&grid);
}

/// A row per object of its `microseconds_a_state`, each share with its part of the whole.
fn print_share_rows(rows: &[Value]) {
    let names = clasp_core::StateShares::default()
        .named()
        .map(|(name, _)| name);
    let header: String = names.iter().map(|n| format!("{n:>16}")).collect();
    println!("  object      {header}");
    for row in rows {
        let shares = &row["microseconds_a_state"];
        let total: f64 = names.iter().filter_map(|n| shares[*n].as_f64()).sum();
        let cells: String = names
            .iter()
            .map(|n| {
                let us = shares[*n].as_f64().unwrap_or(0.0);
                format!("{us:>9.1} ({:>3.0}%)", 100.0 * us / total)
            })
            .collect();
        let object = row["object"].as_str().unwrap_or("?");
        println!("  {object:<10} {cells}");
    }
}

/// The shortest one-thread plan asking for one grasp, doubling the steps per search from 500,
/// that returns a force-closure grasp: its time (search and closing) and its steps.
fn first_force_closure(
    on: &dyn Fn(usize, &PlanSettings) -> Result<clasp_core::GraspPlan, clasp_core::MoveError>,
) -> Option<(f64, u64)> {
    let mut steps = 500;
    while steps <= 64_000 {
        let settings = PlanSettings {
            steps,
            grasps: 1,
            energy: PlanEnergy::Contact,
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
