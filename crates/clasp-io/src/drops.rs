//! The drop harness: each object of GraspIt's model library dropped from seeded random turns
//! onto GraspIt's table, and how each drop ended, judged by means independent of the engine:
//! rest by the pose over time and the speed both, interpenetration by the brute-force
//! reference engine, energy against what the drop released. The test samples it; the example
//! `drop_library` runs it all (`cargo run --release -p clasp-io --example drop_library`).

use std::path::{Path, PathBuf};

use clasp_collide::shapes;
use clasp_core::{Body, BodyId, BodyKind, Pose, World};
use clasp_random::SplitMix64;
use nalgebra::{Translation3, UnitQuaternion, Vector3};

use crate::{body::load_body, fixtures::interpenetrating, source::Disk};

/// Where GraspIt's table stands in GraspIt's own worlds (its `fullTransform`).
const TABLE_AT: [f64; 3] = [0.0, -559.1, 515.938];
/// Simulated time a pose must stay still, with the speed above [`FROZEN_SPEED`], to be frozen.
const FROZEN_SECONDS: f64 = 0.1;
/// A speed (mm/s, the fastest point) a body cannot have while its pose stays still.
const FROZEN_SPEED: f64 = 5.0;
/// A body at rest moves its fastest point slower than this (mm/s)...
const REST_SPEED: f64 = 1.0;
/// ...and its pose by less than this (mm) over the last [`FROZEN_SECONDS`].
const REST_TRAVEL: f64 = 0.1;
/// How often (simulated seconds) the brute-force judge looks for interpenetration.
const OVERLAP_EVERY: f64 = 0.5;

/// One drop: which object, turned how, released how high above the table's top.
#[derive(Debug, Clone)]
pub struct Drop {
    pub object: String,
    pub turn: UnitQuaternion<f64>,
    /// The object's lowest point above the table's top, mm.
    pub height: f64,
}

/// How a drop ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Still, and slower than 1 mm/s, at the end.
    Rest,
    /// Still moving at the end, and its pose moving as its velocity says (a round body
    /// rolling, say).
    Moving,
    /// Its pose still for 0.1 s while its velocity said it moved faster than 5 mm/s.
    Frozen { at: f64 },
    /// Kinetic plus potential energy above what the drop released.
    GainedEnergy { at: f64, excess: f64 },
    /// The brute-force judge found it inside the table.
    Interpenetrating { at: f64 },
    /// A step refused or failed.
    Failed(String),
}

/// What happened in one drop.
#[derive(Debug, Clone)]
pub struct Ending {
    pub verdict: Verdict,
    /// The fastest point's speed at the end, mm/s.
    pub speed: f64,
    /// How far its fastest point travelled in the last 0.1 s, mm.
    pub travel: f64,
    /// The most its kinetic plus potential energy rose above what it had at release, as a share
    /// of that (the potential measured from the world's origin).
    pub energy_excess: f64,
    /// The steps taken, how many of their contact solves ran out of iterations unsettled,
    /// and how many Newton's method solved on the convex relaxation (sliding contacts that
    /// jam).
    pub steps: usize,
    pub unsettled_steps: usize,
    pub relaxed_steps: usize,
}

/// Every object of the library that loads (searched under `objects/`, sorted by path), by
/// its path from the library's root; what does not load is left out.
pub fn library_objects(models: &Path) -> Vec<(String, Body)> {
    let mut files = Vec::new();
    collect_xml(&models.join("objects"), &mut files);
    files.sort();
    files
        .into_iter()
        .filter_map(|file| {
            let body = load_body(&Disk, &file, BodyKind::Graspable).ok()?;
            let name = file.strip_prefix(models).unwrap_or(&file);
            Some((name.display().to_string(), body))
        })
        .collect()
}

fn collect_xml(folder: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_xml(&path, files);
        } else if path.extension().is_some_and(|e| e == "xml") {
            files.push(path);
        }
    }
}

/// GraspIt's table where GraspIt's worlds put it.
pub fn graspit_table(models: &Path) -> Option<Body> {
    let table = load_body(
        &Disk,
        &models.join("obstacles/table.xml"),
        BodyKind::Obstacle,
    )
    .ok()?;
    Some(table.at(Pose::from_parts(
        TABLE_AT.into(),
        UnitQuaternion::identity(),
    )))
}

/// `per_object` drops of each object, each from a random turn and 20–80 mm high, seeded.
pub fn random_drops(objects: &[(String, Body)], per_object: usize, seed: u64) -> Vec<Drop> {
    let mut random = SplitMix64::new(seed);
    let mut drops = Vec::new();
    for (name, _) in objects {
        for _ in 0..per_object {
            let mut coordinate = || random.range(-1.0, 1.0);
            let axis = Vector3::new(coordinate(), coordinate(), coordinate());
            let angle = random.range(0.0, std::f64::consts::PI);
            drops.push(Drop {
                object: name.clone(),
                turn: UnitQuaternion::from_scaled_axis(axis.normalize() * angle),
                height: random.range(20.0, 80.0),
            });
        }
    }
    drops
}

/// A 600 × 600 × 20 mm table whose top is the plane z = 0: what the mug drops and the dynamics
/// benchmark drop GraspIt's mug onto.
pub fn plain_table() -> Body {
    let top = shapes::cuboid([-300.0, -300.0, -20.0], [300.0, 300.0, 0.0]);
    Body::from_mesh("table", BodyKind::Obstacle, top)
}

/// `count` turns about random axes by random angles below π, seeded.
pub fn random_turns(count: usize, seed: u64) -> Vec<UnitQuaternion<f64>> {
    let mut random = SplitMix64::new(seed);
    (0..count)
        .map(|_| {
            let mut coordinate = || random.range(-1.0, 1.0);
            let axis = Vector3::new(coordinate(), coordinate(), coordinate());
            UnitQuaternion::from_scaled_axis(
                axis.normalize() * random.range(0.0, std::f64::consts::PI),
            )
        })
        .collect()
}

/// `body` turned by `turn` about its origin, the origin over z's axis and its lowest point
/// `height` above the plane z = 0; `None` for a body with no triangles.
pub fn turned_above_floor(body: &Body, turn: UnitQuaternion<f64>, height: f64) -> Option<Body> {
    let turned = body
        .clone()
        .at(Pose::from_parts(Translation3::identity(), turn));
    let (lo, _) = clasp_core::bounding_box([&turned])?;
    Some(turned.at(Pose::from_parts(
        Translation3::new(0.0, 0.0, height - lo.z),
        turn,
    )))
}

/// A 400 × 400 × 20 mm table (its top the plane z = 0) with five 20 mm boxes stacked on it,
/// 0.02 mm apart: the dynamics benchmark's stack.
pub fn box_stack() -> World {
    let table = shapes::cuboid([-200.0, -200.0, -20.0], [200.0, 200.0, 0.0]);
    let mut bodies = vec![Body::from_mesh("table", BodyKind::Obstacle, table)];
    for level in 0..5 {
        let z = 10.0 + level as f64 * 20.03 + 0.02;
        let cube = shapes::cuboid([-10.0; 3], [10.0; 3]);
        bodies.push(
            Body::from_mesh("box", BodyKind::Graspable, cube).at(Pose::translation(0.0, 0.0, z)),
        );
    }
    World::new(bodies, vec![])
}

/// The world of one drop: the table, and the object turned, its lowest point `height` above
/// the table's top, over the table's middle.
pub fn drop_world(table: &Body, object: &Body, drop: &Drop) -> Option<World> {
    let (table_lo, table_hi) = clasp_core::bounding_box([table])?;
    let turned = object
        .clone()
        .at(Pose::from_parts(Translation3::identity(), drop.turn));
    let (lo, hi) = clasp_core::bounding_box([&turned])?;
    let middle =
        |axis: usize| 0.5 * (table_lo[axis] + table_hi[axis]) - 0.5 * (lo[axis] + hi[axis]);
    let at = Translation3::new(middle(0), middle(1), table_hi.z + drop.height - lo.z);
    let object = object.clone().at(Pose::from_parts(at, drop.turn));
    Some(World::new(vec![table.clone(), object], vec![]))
}

/// Runs a drop world (the object is free body 1) for `seconds` and judges how it ends.
pub fn judge(mut world: World, seconds: f64) -> Ending {
    let id = BodyId::Free(1);
    let Some(object) = world.body(id) else {
        return failed("the drop world has no object");
    };
    let radius = object.geometry().bounding_ball().1;
    let dt = world.time_step();
    let energy = |w: &World| {
        w.body(id)
            .map_or(0.0, |b| mechanical_energy(b, w.gravity()))
    };
    let released = energy(&world);
    let scale = released.abs().max(1e-9);
    let window = (FROZEN_SECONDS / dt).round().max(1.0) as usize;
    let overlap_every = (OVERLAP_EVERY / dt).round().max(1.0) as usize;
    let steps = (seconds / dt).round() as usize;
    let (mut still_steps, mut excess) = (0usize, 0.0f64);
    let mut recent = std::collections::VecDeque::with_capacity(window);
    for step in 1..=steps {
        let before = world.body(id).map(|b| b.pose());
        if let Err(e) = world.step() {
            return failed(&e.to_string());
        }
        let at = step as f64 * dt;
        let (Some(body), Some(before)) = (world.body(id), before) else {
            return failed("the object is gone");
        };
        let speed = body.fastest_point_speed();
        let moved = travel(&before, &body.pose(), body, radius);
        // Still: moved less than a tenth of what its speed says, at a speed it cannot hide.
        let still = speed > FROZEN_SPEED && moved < 0.1 * speed * dt;
        still_steps = if still { still_steps + 1 } else { 0 };
        if still_steps >= window {
            return Ending {
                verdict: Verdict::Frozen { at },
                ..summary(&world, speed, &recent, excess)
            };
        }
        if recent.len() == window {
            recent.pop_front();
        }
        recent.push_back(moved);
        let over = (energy(&world) - released) / scale;
        excess = excess.max(over);
        // Integration may round a little either way; a gain is a thousandth of the energy at
        // release (for a drop onto GraspIt's table, about what half a millimetre of height is).
        if over > 1e-3 {
            return Ending {
                verdict: Verdict::GainedEnergy { at, excess: over },
                ..summary(&world, speed, &recent, excess)
            };
        }
        if (step % overlap_every == 0 || step == steps) && !interpenetrating(&world).is_empty() {
            return Ending {
                verdict: Verdict::Interpenetrating { at },
                ..summary(&world, speed, &recent, excess)
            };
        }
    }
    let speed = world.body(id).map_or(0.0, |b| b.fastest_point_speed());
    let mut ending = summary(&world, speed, &recent, excess);
    ending.verdict = match speed < REST_SPEED && ending.travel < REST_TRAVEL {
        true => Verdict::Rest,
        false => Verdict::Moving,
    };
    ending
}

fn failed(why: &str) -> Ending {
    Ending {
        verdict: Verdict::Failed(why.to_string()),
        speed: f64::NAN,
        travel: f64::NAN,
        energy_excess: f64::NAN,
        steps: 0,
        unsettled_steps: 0,
        relaxed_steps: 0,
    }
}

fn summary(
    world: &World,
    speed: f64,
    recent: &std::collections::VecDeque<f64>,
    excess: f64,
) -> Ending {
    let solves = world.solver_stats();
    Ending {
        verdict: Verdict::Moving,
        speed,
        travel: recent.iter().sum(),
        energy_excess: excess,
        steps: solves.steps,
        unsettled_steps: solves.unsettled,
        relaxed_steps: solves.relaxed,
    }
}

/// Kinetic plus potential energy (g·mm²/s²), the potential from the centre of gravity.
pub fn mechanical_energy(body: &Body, gravity: Vector3<f64>) -> f64 {
    body.kinetic_energy() - body.mass.mass * gravity.dot(&body.world_cog().coords)
}

/// How far the body's points moved between two poses, at most (mm).
fn travel(before: &Pose, after: &Pose, body: &Body, radius: f64) -> f64 {
    let (centre, _) = body.geometry().bounding_ball();
    let shift = (after * centre - before * centre).norm();
    shift + (after.rotation * before.rotation.inverse()).angle() * radius
}
