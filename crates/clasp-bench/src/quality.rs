//! Grasp quality: the epsilon quality (and, separately, the volume quality) of point-contact
//! grasps of Clasp's mug with 4, 8, 12 and 20 contacts at well-spread vertices, and of real
//! auto-grasps (Clasp's hand on its mug; GraspIt's Barrett on GraspIt's mug when the model
//! library is there). Each is timed over many repetitions (median and p99), and every repetition
//! must give bit-identical numbers: a difference fails the run, as a wrong collision answer does.
//! Target: epsilon of a 20-contact grasp under 1 ms.

use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use clasp_core::{
    BodyId, BodyKind, ContactOptions, Element, Pose, Quality, Robot, World, WrenchSpaceKind,
    contact_frame,
    quality::{self, Wrench},
    soft::pyramid_edges,
};
use clasp_io::{Disk, load_body, load_world};
use nalgebra::{Point3, Unit, Vector3};
use serde_json::{Value, json};

use crate::{
    check::Checks,
    timing::{format_ns, percentile},
};
use clasp_core::RobotId;

/// The target for the epsilon of a 20-contact grasp.
const TARGET: Duration = Duration::from_millis(1);
/// Contact counts of the synthetic grasps; the last is the one the target is about.
const CONTACTS: [usize; 4] = [4, 8, 12, 20];
const FRICTION: f64 = 0.5;
const EDGES: usize = 8;

/// Repetitions of each timing.
struct Reps {
    epsilon: usize,
    volume: usize,
}

/// Times every grasp and prints a table; records each determinism check in `checks`.
pub fn run(quick: bool, library: Option<&Path>, checks: &mut Checks) -> Value {
    let reps = if quick {
        Reps {
            epsilon: 200,
            volume: 20,
        }
    } else {
        Reps {
            epsilon: 1000,
            volume: 100,
        }
    };
    println!(
        "\ngrasp quality: point contacts (μ {FRICTION}, {EDGES} friction edges), L1 wrench space; \
         epsilon {} times, volume {} times each",
        reps.epsilon, reps.volume
    );
    println!(
        "  {:<38} {:>8} {:>4} {:>10} {:>10} {:>10} {:>11} {:>10} {:>10}",
        "grasp", "contacts", "FC", "epsilon", "p50", "p99", "volume", "p50", "p99"
    );
    let mut rows = Vec::new();
    let mut target = None;
    match spread_contacts(&models().join("objects/clasp_mug.xml")) {
        Ok(mug) => {
            for count in CONTACTS {
                let name = format!("clasp_mug, {count} spread vertices");
                let row = measure(&name, &mug[..count], &reps, checks);
                if count == 20 {
                    target = Some((row.epsilon_p50, row.epsilon_p99));
                }
                rows.push(row);
            }
        }
        Err(e) => println!("  cannot build the mug's contacts: {e}"),
    }
    match clasp_hand_grasp() {
        Ok(wrenches) => rows.push(measure(
            "ClaspHand auto-grasp, default world",
            &wrenches,
            &reps,
            checks,
        )),
        Err(e) => println!("  ClaspHand auto-grasp: {e}"),
    }
    match library {
        Some(dir) => match barrett_grasp(dir) {
            Ok(wrenches) => rows.push(measure(
                "Barrett auto-grasp, GraspIt's mug",
                &wrenches,
                &reps,
                checks,
            )),
            Err(e) => println!("  Barrett auto-grasp: {e}"),
        },
        None => println!(
            "  Barrett auto-grasp on GraspIt's mug: skipped, GraspIt's model library not found"
        ),
    }
    let limit = TARGET.as_nanos() as f64;
    let met = target.map(|(p50, _)| p50 < limit);
    match target {
        Some((p50, p99)) => println!(
            "  target: epsilon of a 20-contact grasp under {}: median {} {}; p99 {} {}",
            format_ns(limit),
            format_ns(p50),
            if p50 < limit { "met" } else { "NOT met" },
            format_ns(p99),
            if p99 < limit {
                "under it too"
            } else {
                "over it"
            },
        ),
        None => println!("  target: no 20-contact grasp was measured"),
    }
    json!({
        "friction": FRICTION,
        "friction_edges": EDGES,
        "wrench_space": WrenchSpaceKind::L1.name(),
        "epsilon_repetitions": reps.epsilon,
        "volume_repetitions": reps.volume,
        "grasps": rows.iter().map(Row::json).collect::<Vec<_>>(),
        "target_ns": TARGET.as_nanos() as f64,
        "target_met": met,
        "target_met_at_p99": target.map(|(_, p99)| p99 < limit),
    })
}

/// One grasp's figures.
struct Row {
    name: String,
    contacts: usize,
    wrenches: usize,
    quality: Option<Quality>,
    epsilon_p50: f64,
    epsilon_p99: f64,
    volume_p50: f64,
    volume_p99: f64,
    deterministic: bool,
}

impl Row {
    fn json(&self) -> Value {
        let q = self.quality.as_ref();
        json!({
            "grasp": self.name,
            "contacts": self.contacts,
            "wrenches": self.wrenches,
            "force_closure": q.map(|q| q.force_closure),
            "epsilon": q.and_then(|q| q.epsilon),
            "volume": q.and_then(|q| q.volume),
            "epsilon_p50_ns": self.epsilon_p50,
            "epsilon_p99_ns": self.epsilon_p99,
            "volume_p50_ns": self.volume_p50,
            "volume_p99_ns": self.volume_p99,
            "deterministic": self.deterministic,
        })
    }
}

/// Times epsilon alone, then epsilon with the volume, and checks that every repetition of each
/// gives the first one's numbers to the bit.
fn measure(name: &str, contacts: &[Vec<Wrench>], reps: &Reps, checks: &mut Checks) -> Row {
    let kind = WrenchSpaceKind::L1;
    let (epsilon, epsilon_times, epsilon_same) =
        repeat(reps.epsilon, || quality::quality(contacts, kind, false));
    let (volume, volume_times, volume_same) =
        repeat(reps.volume, || quality::quality(contacts, kind, true));
    let deterministic = epsilon_same && volume_same;
    checks.expect(deterministic, || {
        format!("grasp quality of {name}: repetitions gave different numbers")
    });
    // The two must agree on epsilon too: the volume's hull is built separately.
    let agree = match (&epsilon, &volume) {
        (Ok(e), Ok(v)) => bits(e.epsilon) == bits(v.epsilon),
        (Err(a), Err(b)) => a == b,
        _ => false,
    };
    checks.expect(agree, || {
        format!("grasp quality of {name}: epsilon differs with and without the volume")
    });
    let quality = match volume {
        Ok(q) => Some(q),
        Err(e) => {
            println!("  {name}: {e}");
            None
        }
    };
    let row = Row {
        name: name.to_owned(),
        contacts: contacts.len(),
        wrenches: contacts.iter().map(Vec::len).sum(),
        quality,
        epsilon_p50: percentile(&epsilon_times, 0.5),
        epsilon_p99: percentile(&epsilon_times, 0.99),
        volume_p50: percentile(&volume_times, 0.5),
        volume_p99: percentile(&volume_times, 0.99),
        deterministic,
    };
    let q = row.quality.as_ref();
    println!(
        "  {:<38} {:>8} {:>4} {:>10} {:>10} {:>10} {:>11} {:>10} {:>10}{}",
        row.name,
        row.contacts,
        q.map_or("?", |q| if q.force_closure { "yes" } else { "no" }),
        q.and_then(|q| q.epsilon)
            .map_or("-".into(), |e| format!("{e:.6}")),
        format_ns(row.epsilon_p50),
        format_ns(row.epsilon_p99),
        q.and_then(|q| q.volume)
            .map_or("-".into(), |v| format!("{v:.4e}")),
        format_ns(row.volume_p50),
        format_ns(row.volume_p99),
        if deterministic {
            ""
        } else {
            "  NOT DETERMINISTIC"
        }
    );
    row
}

/// Runs `evaluate` `count` times: its first answer, each run's nanoseconds, and whether every
/// answer equals the first to the bit.
fn repeat<E: PartialEq>(
    count: usize,
    evaluate: impl Fn() -> Result<Quality, E>,
) -> (Result<Quality, E>, Vec<f64>, bool) {
    let mut times = Vec::with_capacity(count);
    let mut first = None;
    let mut same = true;
    for _ in 0..count.max(1) {
        let start = Instant::now();
        let answer = std::hint::black_box(evaluate());
        times.push(start.elapsed().as_nanos() as f64);
        match &first {
            None => first = Some(answer),
            Some(first) => same &= identical(first, &answer),
        }
    }
    (first.expect("at least one run"), times, same)
}

fn identical<E: PartialEq>(a: &Result<Quality, E>, b: &Result<Quality, E>) -> bool {
    match (a, b) {
        (Ok(a), Ok(b)) => {
            a.force_closure == b.force_closure
                && bits(a.epsilon) == bits(b.epsilon)
                && bits(a.volume) == bits(b.volume)
                && (a.contacts, a.wrenches) == (b.contacts, b.wrenches)
        }
        (Err(a), Err(b)) => a == b,
        _ => false,
    }
}

fn bits(value: Option<f64>) -> Option<u64> {
    value.map(f64::to_bits)
}

fn models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models")
}

/// Point contacts at the body's vertices, spread by farthest-point sampling from the vertex
/// farthest from the centre of gravity, each pushing along the mesh's inward normal there (the
/// area-weighted mean of its triangles' normals, reversed); torques about the centre of gravity
/// over the largest radius. Every prefix of the result is itself well spread.
fn spread_contacts(body_file: &Path) -> Result<Vec<Vec<Wrench>>, String> {
    let body = load_body(&Disk, body_file, BodyKind::Graspable).map_err(|e| e.to_string())?;
    let mesh = body.mesh();
    let vertices = mesh.vertices();
    let mut normals = vec![Vector3::zeros(); vertices.len()];
    for triangle in mesh.triangles() {
        let [a, b, c] = triangle.map(|i| vertices[i as usize]);
        let area = (b - a).cross(&(c - a));
        for &i in triangle {
            normals[i as usize] += area;
        }
    }
    let candidates: Vec<(Point3<f64>, Unit<Vector3<f64>>)> = vertices
        .iter()
        .zip(&normals)
        .filter_map(|(p, n)| Unit::try_new(-n, 1e-12).map(|inward| (*p, inward)))
        .collect();
    let count = CONTACTS[CONTACTS.len() - 1];
    if candidates.len() < count {
        return Err(format!("only {} usable vertices", candidates.len()));
    }
    let cog = body.mass.cog;
    let max_radius = body.geometry().farthest_vertex_distance(&cog);
    let edges = pyramid_edges(EDGES);
    let mut nearest: Vec<f64> = candidates.iter().map(|(p, _)| (p - cog).norm()).collect();
    let mut chosen = Vec::with_capacity(count);
    for _ in 0..count {
        // The first strict maximum: ties go to the lower index, so the choice is fixed.
        let (pick, _) = nearest
            .iter()
            .enumerate()
            .fold((0, f64::NEG_INFINITY), |best, (i, &d)| {
                if d > best.1 { (i, d) } else { best }
            });
        let (point, inward) = candidates[pick];
        chosen.push(quality::contact_wrenches(
            &contact_frame(point, inward),
            &edges,
            FRICTION,
            &cog,
            max_radius,
        ));
        for (d, (p, _)) in nearest.iter_mut().zip(&candidates) {
            *d = d.min((p - point).norm());
        }
    }
    Ok(chosen)
}

/// The wrenches of the default world's grasp: Clasp's hand approaches its mug and closes.
fn clasp_hand_grasp() -> Result<Vec<Vec<Wrench>>, String> {
    let mut world = load_world(&Disk, &models().join("worlds/default.xml"), None)
        .map_err(|e| format!("cannot load the default world: {e}"))?;
    approach_and_grasp(&mut world, 300.0)
}

/// The wrenches of GraspIt's Barrett auto-grasping GraspIt's mug: the mug centred on the
/// origin, the hand 200 mm away along -x with its approach direction along +x and its fingers
/// spread 60° (the scene of clasp-io's grasp tests).
fn barrett_grasp(library: &Path) -> Result<Vec<Vec<Wrench>>, String> {
    let mut world = crate::grasps::barrett_world(library)?;
    let facing = facing_origin(world.robot(RobotId::from_index(0)).unwrap(), 200.0);
    world
        .set_pose(Element::Robot(RobotId::from_index(0)), facing)
        .map_err(|e| e.to_string())?;
    approach_and_grasp(&mut world, 400.0)
}

/// Robot 0 approaches (at most `distance` mm) and closes; the wrenches of its grasp.
fn approach_and_grasp(world: &mut World, distance: f64) -> Result<Vec<Vec<Wrench>>, String> {
    world
        .approach_to_contact(RobotId::from_index(0), distance)
        .map_err(|e| e.to_string())?;
    world
        .auto_grasp(RobotId::from_index(0))
        .map_err(|e| e.to_string())?;
    let object = world.grasped_object().unwrap_or(BodyId::Free(0));
    let grasp = world
        .grasp(RobotId::from_index(0), object, &ContactOptions::default())
        .map_err(|e| e.to_string())?;
    if grasp.contacts.is_empty() {
        return Err("the hand does not touch the object".into());
    }
    Ok(grasp.wrenches())
}

/// The palm pose that puts the approach direction's reference point `distance` mm from the
/// origin along -x, pointing along +x.
fn facing_origin(hand: &Robot, distance: f64) -> Pose {
    hand.pose_aiming_at(Point3::origin(), Vector3::x_axis(), distance, 0.0)
}
