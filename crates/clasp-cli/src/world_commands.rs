//! `contacts`, `grasp` and `quality`: load a world file, find its contacts, grasp with its hand
//! or evaluate its grasp, and print the result as text or as one JSON document.

use std::{fmt::Write as _, path::Path};

use clasp_core::{
    BodyId, BodyType, Contact, ContactModel, ContactOptions, GraspContact, GraspError, MoveOutcome,
    World, WrenchSpaceKind,
};
use clasp_io::Disk;
use serde_json::{Value, json};

/// What a command prints: readable text or one JSON document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

/// A command's failure as one line on stderr, naming the file.
pub type Failure = String;

/// A contact threshold from the command line: a positive, finite number of millimetres.
pub fn parse_threshold(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of millimetres"))?;
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(format!(
            "a contact threshold must be a positive number of millimetres, not {text}"
        ))
    }
}

pub(crate) fn load(file: &Path, root: Option<&Path>) -> Result<World, Failure> {
    load_saying_warnings(file, root).map_err(|error| crate::one_line(&error))
}

/// Loads a world file; what was read with a change (a DOF a rounding outside its limits,
/// clamped) is said on stderr, a line each.
pub(crate) fn load_saying_warnings(
    file: &Path,
    root: Option<&Path>,
) -> Result<World, clasp_io::LoadError> {
    let (world, warnings) = clasp_io::load_world_with_warnings(&Disk, file, root)?;
    for warning in warnings {
        eprintln!("clasp-cli: warning: {warning}");
    }
    Ok(world)
}

/// A failure of the core on this file's world, as one line naming the file.
/// A pose as its 4×4 matrix's 16 numbers, row by row (how `batch` and `plan` print palms).
pub(crate) fn pose_row(pose: &clasp_core::Pose) -> Vec<f64> {
    let m = pose.to_homogeneous();
    (0..16).map(|k| m[(k / 4, k % 4)]).collect()
}

pub(crate) fn world_error(file: &Path, error: impl std::fmt::Display) -> Failure {
    format!("{}: {error}", file.display()).replace(['\n', '\r'], " ")
}

/// A pool of `threads` threads (0: every core) for the commands that run in parallel; a pool
/// that cannot be built is a failure about `file`.
pub(crate) fn thread_pool(threads: usize, file: &Path) -> Result<rayon::ThreadPool, Failure> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| world_error(file, e))
}

/// Every contact of the world, at the file's threshold or `threshold` (mm).
pub fn contacts(
    file: &Path,
    root: Option<&Path>,
    threshold: Option<f64>,
    format: Format,
) -> Result<String, Failure> {
    let mut world = load(file, root)?;
    if let Some(mm) = threshold {
        world
            .set_contact_threshold(mm)
            .map_err(|e| world_error(file, e))?;
    }
    let threshold = world.settings().contact_threshold;
    let contacts = physical_contacts(&world);
    Ok(match format {
        Format::Json => json!({
            "file": file.display().to_string(),
            "threshold": threshold,
            "count": contacts.len(),
            "contacts": contacts.iter().map(|c| contact_json(&world, c)).collect::<Vec<_>>(),
        })
        .to_string(),
        Format::Text => {
            let mut text = String::new();
            for contact in &contacts {
                let _ = writeln!(text, "{}", contact_line(&world, contact));
            }
            let _ = write!(
                text,
                "{} within {threshold} mm",
                count(contacts.len(), "contact")
            );
            text
        }
    })
}

/// Approaches (when asked) and auto-grasps with the robot chosen (by default the world's first
/// hand), then reports its DOF values and the world's contacts.
pub fn grasp(
    file: &Path,
    root: Option<&Path>,
    robot: Option<&str>,
    approach: bool,
    format: Format,
) -> Result<String, Failure> {
    let mut world = load(file, root)?;
    let robot = pick_robot(&world, file, robot)?;
    let approached = approach
        .then(|| approach_hand(&mut world, file, robot))
        .transpose()?;
    let grasped = close_hand(&mut world, file, robot)?;
    let dofs = world.robot(robot).unwrap().dof_values().to_vec();
    let contacts = physical_contacts(&world);
    Ok(match format {
        Format::Json => json!({
            "file": file.display().to_string(),
            "robot": world.robot(robot).unwrap().name,
            "approach": approached.as_ref().map(|a| approach_json(&world, a)),
            "dof_values": dofs,
            "stopped_by": pairs_json(&world, &grasped.stopped_by),
            "blocked_by_overlap": grasped.blocked_by_overlap,
            "threshold": world.settings().contact_threshold,
            "count": contacts.len(),
            "contacts": contacts.iter().map(|c| contact_json(&world, c)).collect::<Vec<_>>(),
        })
        .to_string(),
        Format::Text => {
            let mut text = moves_text(&world, approached.as_ref(), Some(&grasped));
            let values: Vec<String> = dofs.iter().map(|v| format!("{v:.6}")).collect();
            let _ = writeln!(text, "DOF values (rad or mm): {}", values.join(" "));
            for contact in &contacts {
                let _ = writeln!(text, "{}", contact_line(&world, contact));
            }
            let _ = write!(text, "{}", count(contacts.len(), "contact"));
            text
        }
    })
}

/// The quality measure `quality` reports besides force closure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Metric {
    /// The radius of the largest ball round the origin inside the wrench space.
    Epsilon,
    /// Epsilon and the wrench space's 6D volume (builds the whole hull: slower).
    Volume,
}

impl Metric {
    fn name(self) -> &'static str {
        match self {
            Metric::Epsilon => "epsilon",
            Metric::Volume => "volume",
        }
    }
}

/// What `quality` evaluates: which robot, which measure, in which wrench space, after which
/// moves.
#[derive(Debug, Clone)]
pub struct QualityRequest {
    /// A robot's index or name; `None` for the world's first hand.
    pub robot: Option<String>,
    pub metric: Metric,
    pub wrench_space: WrenchSpaceKind,
    pub approach: bool,
    pub auto: bool,
    /// Score the hand's virtual contacts instead of its contacts on the object.
    pub on_virtual: bool,
}

/// Approaches and auto-grasps when asked, as `grasp` does, then evaluates the grasp of the
/// world's grasped object by the robot: its contacts and its quality.
pub fn quality(
    file: &Path,
    root: Option<&Path>,
    request: &QualityRequest,
    format: Format,
) -> Result<String, Failure> {
    let mut world = load(file, root)?;
    let robot = pick_robot(&world, file, request.robot.as_deref())?;
    if request.on_virtual {
        return virtual_quality(&world, file, robot, request, format);
    }
    let object = world
        .grasped_object()
        .ok_or_else(|| world_error(file, GraspError::NoObject))?;
    let approached = request
        .approach
        .then(|| approach_hand(&mut world, file, robot))
        .transpose()?;
    let grasped = request
        .auto
        .then(|| close_hand(&mut world, file, robot))
        .transpose()?;
    let grasp = world
        .grasp(robot, object, &ContactOptions::default())
        .map_err(|e| world_error(file, e))?;
    let quality = match request.metric {
        Metric::Epsilon => grasp.quality(request.wrench_space),
        Metric::Volume => grasp.quality_with_volume(request.wrench_space),
    }
    .map_err(|e| world_error(file, e))?;
    Ok(match format {
        Format::Json => json!({
            "file": file.display().to_string(),
            "robot": world.robot(robot).unwrap().name,
            "robot_index": robot,
            "object": body_json(&world, object),
            "approach": approached.as_ref().map(|a| approach_json(&world, a)),
            "auto_grasp": grasped.as_ref().map(|g| json!({
                "stopped_by": pairs_json(&world, &g.stopped_by),
                "blocked_by_overlap": g.blocked_by_overlap,
            })),
            "wrench_space": quality.wrench_space.name(),
            "metric": request.metric.name(),
            "force_closure": quality.force_closure,
            "epsilon": quality.epsilon,
            "volume": quality.volume,
            "cog": [grasp.cog.x, grasp.cog.y, grasp.cog.z],
            "max_radius": grasp.max_radius,
            "wrenches": quality.wrenches,
            "contacts": grasp.contacts.iter().map(|c| grasp_contact_json(&world, c)).collect::<Vec<_>>(),
        })
        .to_string(),
        Format::Text => {
            let mut text = moves_text(&world, approached.as_ref(), grasped.as_ref());
            let _ = writeln!(
                text,
                "{} grasped by {} (robot {robot}): {}",
                body_name(&world, object),
                world.robot(robot).unwrap().name,
                count(grasp.contacts.len(), "contact")
            );
            for contact in &grasp.contacts {
                let _ = writeln!(text, "{}", grasp_contact_line(&world, contact));
            }
            let _ = writeln!(text, "{quality}");
            let _ = write!(
                text,
                "force-closure: {}",
                if quality.force_closure { "yes" } else { "no" }
            );
            text
        }
    })
}

/// `quality --virtual`: the quality of the hand's virtual contacts where they stand.
fn virtual_quality(
    world: &World,
    file: &Path,
    robot: usize,
    request: &QualityRequest,
    format: Format,
) -> Result<String, Failure> {
    let hand = world.robot(robot).unwrap();
    let contacts = hand.virtual_contacts_placed().len();
    if contacts == 0 {
        let why = format!("robot {robot} ({}) has no virtual contacts", hand.name);
        return Err(world_error(file, why));
    }
    let with_volume = request.metric == Metric::Volume;
    let quality = hand
        .virtual_quality(request.wrench_space, with_volume)
        .map_err(|e| world_error(file, e))?;
    Ok(match format {
        Format::Json => json!({
            "file": file.display().to_string(),
            "robot": hand.name,
            "robot_index": robot,
            "virtual_contacts": contacts,
            "wrench_space": quality.wrench_space.name(),
            "metric": request.metric.name(),
            "force_closure": quality.force_closure,
            "epsilon": quality.epsilon,
            "volume": quality.volume,
            "max_radius": clasp_core::VIRTUAL_MAX_RADIUS,
            "wrenches": quality.wrenches,
        })
        .to_string(),
        Format::Text => format!(
            "{} (robot {robot}) on {}: {quality}\nforce-closure: {}",
            hand.name,
            count(contacts, "virtual contact"),
            if quality.force_closure { "yes" } else { "no" }
        ),
    })
}

/// The robot `--robot` names, by index (0 is the first) or by name; without it, the world's
/// current hand: its first robot that is a hand (GraspIt's `getCurrentHand`), so an arm that
/// carries a hand is passed over.
pub(crate) fn pick_robot(
    world: &World,
    file: &Path,
    choice: Option<&str>,
) -> Result<usize, Failure> {
    let names = || {
        let names: Vec<String> = world
            .robots()
            .map(|(i, r)| format!("{i} {}", r.name))
            .collect();
        if names.is_empty() {
            "it has no robot".to_string()
        } else {
            format!("its robots: {}", names.join(", "))
        }
    };
    let Some(choice) = choice else {
        return world.current_hand().ok_or_else(|| {
            world_error(
                file,
                format!("the world has no hand to grasp with ({})", names()),
            )
        });
    };
    let by_index = choice
        .parse::<usize>()
        .ok()
        .filter(|&i| world.robot(i).is_some());
    let by_name = || {
        world
            .robots()
            .find(|(_, r)| r.name == choice)
            .map(|(i, _)| i)
    };
    by_index.or_else(by_name).ok_or_else(|| {
        world_error(
            file,
            format!("the world has no robot \"{choice}\" ({})", names()),
        )
    })
}

/// `--approach`: moves the robot along its approach direction until it touches something, at
/// most the world's bounding-box diagonal. Returns what stopped it and that distance.
fn approach_hand(
    world: &mut World,
    file: &Path,
    robot: usize,
) -> Result<(MoveOutcome, f64), Failure> {
    let distance = world
        .bounding_box()
        .map_or(0.0, |(lo, hi)| (hi - lo).norm());
    let outcome = world
        .approach_to_contact(robot, distance)
        .map_err(|e| world_error(file, e))?;
    Ok((outcome, distance))
}

/// `--auto`: closes every finger of the robot until it touches something or reaches its limit.
fn close_hand(world: &mut World, file: &Path, robot: usize) -> Result<MoveOutcome, Failure> {
    world.auto_grasp(robot).map_err(|e| world_error(file, e))
}

/// The lines saying what the approach and the auto-grasp did, each when it ran.
fn moves_text(
    world: &World,
    approached: Option<&(MoveOutcome, f64)>,
    grasped: Option<&MoveOutcome>,
) -> String {
    let mut text = String::new();
    if let Some((outcome, distance)) = approached {
        let _ = writeln!(
            text,
            "approach: {}",
            approach_line(world, outcome, *distance)
        );
    }
    if let Some(grasped) = grasped {
        let _ = writeln!(text, "grasp: {}", grasp_line(world, grasped));
    }
    text
}

fn approach_json(world: &World, (outcome, distance): &(MoveOutcome, f64)) -> Value {
    json!({
        "touched": !outcome.completed,
        "max_distance": distance,
        "stopped_by": pairs_json(world, &outcome.stopped_by),
        "blocked_by_overlap": outcome.blocked_by_overlap,
    })
}

fn model_json(model: &ContactModel) -> Value {
    match model {
        ContactModel::Point => json!({ "kind": "point" }),
        ContactModel::PointFallback(reason) => {
            json!({ "kind": "point_fallback", "reason": reason.to_string() })
        }
        ContactModel::Soft(soft) => json!({
            "kind": "soft",
            "torsion_radius": soft.area.torsion_radius,
            "relative_radii": soft.relative_radii,
            "merged": soft.merged,
        }),
    }
}

fn model_text(model: &ContactModel) -> String {
    match model {
        ContactModel::Point => "point contact".to_owned(),
        ContactModel::PointFallback(reason) => {
            format!("point contact (not soft: {reason})").replace(['\n', '\r'], " ")
        }
        ContactModel::Soft(soft) => {
            let merged = match soft.merged {
                0 => String::new(),
                n => format!(", {} merged into it", count(n, "contact")),
            };
            format!(
                "soft contact, torsion radius {:.3} mm{merged}",
                soft.area.torsion_radius
            )
        }
    }
}

/// A grasp's contact: the hand's body touching the object, the object-side point and normal,
/// the friction its wrenches use, its model and its wrenches.
fn grasp_contact_json(world: &World, c: &GraspContact) -> Value {
    let (p, n) = (c.contact.point, c.contact.inward().into_inner());
    json!({
        "body": body_json(world, c.contact.other),
        "point": [p.x, p.y, p.z],
        "normal": [n.x, n.y, n.z],
        "separation": c.contact.separation,
        "friction": c.friction,
        "model": model_json(&c.model),
        "wrenches": c.wrenches.len(),
    })
}

fn grasp_contact_line(world: &World, c: &GraspContact) -> String {
    let p = c.contact.point;
    format!(
        "{}: point ({:.3}, {:.3}, {:.3}) mm, μ {:.3}, {}",
        body_text(world, c.contact.other),
        p.x,
        p.y,
        p.z,
        c.friction,
        model_text(&c.model)
    )
}

/// Each physical contact once: the side on the pair's first body.
fn physical_contacts(world: &World) -> Vec<&Contact> {
    world.contacts().iter().filter(|c| c.is_object_a).collect()
}

fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// A body's id as a string: `body 0`, `robot 0 palm`, `robot 0 chain 1 link 2`.
fn id_string(id: BodyId) -> String {
    match id {
        BodyId::Free(i) => format!("body {i}"),
        BodyId::Palm { robot } => format!("robot {robot} palm"),
        BodyId::Link { robot, chain, link } => {
            format!("robot {robot} chain {chain} link {link}")
        }
        BodyId::Mount { robot } => format!("robot {robot} mount"),
    }
}

fn body_name(world: &World, id: BodyId) -> String {
    world
        .body(id)
        .map_or_else(|| "?".to_owned(), |b| b.name.clone())
}

fn robot_name(world: &World, id: BodyId) -> Option<String> {
    id.robot()
        .and_then(|r| world.robot(r))
        .map(|r| r.name.clone())
}

/// A body for a reader: its name, and for a robot's body the robot, chain and link.
fn body_text(world: &World, id: BodyId) -> String {
    let name = body_name(world, id);
    let robot = robot_name(world, id).unwrap_or_default();
    match id {
        BodyId::Free(_) => name,
        BodyId::Palm { .. } => format!("{name} ({robot} palm)"),
        BodyId::Link { chain, link, .. } => format!("{name} ({robot} chain {chain} link {link})"),
        BodyId::Mount { .. } => format!("{name} ({robot} mount)"),
    }
}

fn body_json(world: &World, id: BodyId) -> Value {
    let mut value = json!({ "id": id_string(id), "name": body_name(world, id) });
    if let Some(body) = world.body(id) {
        crate::summary::extend(&mut value, crate::summary::groups(body));
    }
    if let Some(robot) = robot_name(world, id) {
        value["robot"] = json!(robot);
    }
    if let BodyId::Link { chain, link, .. } = id {
        value["chain"] = json!(chain);
        value["link"] = json!(link);
    }
    value
}

fn type_name(kind: BodyType) -> &'static str {
    match kind {
        BodyType::Static => "static",
        BodyType::Dynamic => "dynamic",
    }
}

/// Every field of RaiSim's contact API, as the side on `c.body` sees it.
fn contact_json(world: &World, c: &Contact) -> Value {
    let n = c.normal.into_inner();
    let q = c.frame.rotation.quaternion();
    json!({
        "body": body_json(world, c.body),
        "other": body_json(world, c.other),
        "index": c.index,
        "pair_index": c.pair_index,
        "is_object_a": c.is_object_a,
        "point": [c.point.x, c.point.y, c.point.z],
        "other_point": [c.other_point.x, c.other_point.y, c.other_point.z],
        "normal": [n.x, n.y, n.z],
        "frame_rotation_wxyz": [q.w, q.i, q.j, q.k],
        "separation": c.separation,
        "depth": c.depth(),
        "triangle": c.triangle,
        "other_triangle": c.other_triangle,
        "local_index": c.local_index,
        "body_type": type_name(c.body_type),
        "other_type": type_name(c.other_type),
        "static_friction": c.static_friction,
        "kinetic_friction": c.kinetic_friction,
        "is_self_collision": c.is_self_collision,
        "skip": c.skip,
        "model": model_json(&c.model),
        "friction_edges": c.friction_edges,
    })
}

fn contact_line(world: &World, c: &Contact) -> String {
    let n = c.normal.into_inner();
    let p = c.point;
    let mut line = format!(
        "{} | {}: point ({:.3}, {:.3}, {:.3}) mm, normal ({:.4}, {:.4}, {:.4}), separation {:.4} mm, \
         μ static {:.3} kinetic {:.3}",
        body_text(world, c.body),
        body_text(world, c.other),
        p.x,
        p.y,
        p.z,
        n.x,
        n.y,
        n.z,
        c.separation,
        c.static_friction,
        c.kinetic_friction,
    );
    if c.is_self_collision {
        line.push_str(", self-collision");
    }
    line
}

fn pairs_json(world: &World, pairs: &[(BodyId, BodyId)]) -> Vec<Value> {
    pairs
        .iter()
        .map(|&(a, b)| json!([body_json(world, a), body_json(world, b)]))
        .collect()
}

fn pairs_text(world: &World, pairs: &[(BodyId, BodyId)]) -> String {
    pairs
        .iter()
        .map(|&(a, b)| format!("{} on {}", body_text(world, a), body_text(world, b)))
        .collect::<Vec<_>>()
        .join("; ")
}

fn approach_line(world: &World, outcome: &MoveOutcome, distance: f64) -> String {
    if outcome.completed {
        format!("touched nothing within {distance:.1} mm, so the hand went back")
    } else if outcome.stopped_by.is_empty() {
        "stopped without a touching pair".to_owned()
    } else {
        let overlap = if outcome.blocked_by_overlap {
            " (an overlap would have deepened)"
        } else {
            ""
        };
        format!(
            "touched: {}{overlap}",
            pairs_text(world, &outcome.stopped_by)
        )
    }
}

fn grasp_line(world: &World, outcome: &MoveOutcome) -> String {
    if outcome.stopped_by.is_empty() {
        "every finger reached its limit without touching anything".to_owned()
    } else {
        let overlap = if outcome.blocked_by_overlap {
            " (an overlap would have deepened)"
        } else {
            ""
        };
        format!(
            "stopped by {}{overlap}",
            pairs_text(world, &outcome.stopped_by)
        )
    }
}
