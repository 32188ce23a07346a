//! The inspector's Collisions section in words: the world's switch, the switch of each thing
//! picked (a body, a robot, a robot's link and its robot), and every pair switched off that
//! holds one of them. The panel shows these lines and the state file records them.

use clasp_core::{BodyId, Element, World};

use super::resources::{Picked, Selection};

/// The lines of the Collisions section for `selection`; with nothing picked, the world's
/// switch and every pair switched off.
pub fn collision_lines(world: &World, selection: &Selection) -> Vec<String> {
    let switches = world.switches();
    let on_off = |on: bool| if on { "on" } else { "off" };
    let mut lines = vec![format!("world: {}", on_off(switches.world_on()))];
    let items = selection.items(world);
    for &item in &items {
        let bodies = item.bodies(world);
        let on = bodies.iter().any(|&b| switches.body_on(b));
        lines.push(format!("{}: {}", item.describe(world), on_off(on)));
        // A link picked alone: its robot's switch too.
        if let Picked::Body(id) = item
            && let Some(robot) = id.robot()
        {
            let robot_bodies = world.element_bodies(Element::Robot(robot));
            let robot_on = robot_bodies.iter().any(|&b| switches.body_on(b));
            let whose = Picked::Robot(robot).describe(world);
            lines.push(format!("{whose}: {}", on_off(robot_on)));
        }
    }
    let picked: Vec<BodyId> = items.iter().flat_map(|i| i.bodies(world)).collect();
    for pair in pairs_off(world) {
        let holds_picked = picked.is_empty()
            || pair
                .bodies_a
                .iter()
                .chain(&pair.bodies_b)
                .any(|b| picked.contains(b));
        if holds_picked {
            lines.push(format!("off: {} × {}", pair.a, pair.b));
        }
    }
    lines
}

/// A pair switched off, each side a body or a whole element (a robot every one of whose bodies
/// is switched off against the other side).
struct PairOff {
    a: String,
    b: String,
    bodies_a: Vec<BodyId>,
    bodies_b: Vec<BodyId>,
}

/// The pairs switched off, a robot's bodies gathered where the whole robot is off against a
/// body (or another robot).
fn pairs_off(world: &World) -> Vec<PairOff> {
    let switches = world.switches();
    let name = |id: BodyId| world.body(id).map_or("?".into(), |b| b.name.clone());
    let mut gathered: Vec<PairOff> = Vec::new();
    let mut pairs: Vec<(BodyId, BodyId)> = switches.pairs_off().collect();
    // Whole elements first: each pair of elements whose bodies are all off with each other.
    let elements = |id: BodyId| id.element();
    let mut element_pairs: Vec<(Element, Element)> = Vec::new();
    for &(a, b) in &pairs {
        let key = (elements(a), elements(b));
        if key.0 != key.1 && !element_pairs.contains(&key) {
            element_pairs.push(key);
        }
    }
    for (ea, eb) in element_pairs {
        let (bodies_a, bodies_b) = (world.element_bodies(ea), world.element_bodies(eb));
        let whole = bodies_a
            .iter()
            .all(|&a| bodies_b.iter().all(|&b| !switches.pair_on(a, b)));
        if !whole || (bodies_a.len() == 1 && bodies_b.len() == 1) {
            continue;
        }
        pairs.retain(|&(a, b)| !(bodies_a.contains(&a) && bodies_b.contains(&b)));
        gathered.push(PairOff {
            a: element_name(world, ea),
            b: element_name(world, eb),
            bodies_a,
            bodies_b,
        });
    }
    gathered.extend(pairs.into_iter().map(|(a, b)| PairOff {
        a: name(a),
        b: name(b),
        bodies_a: vec![a],
        bodies_b: vec![b],
    }));
    gathered
}

fn element_name(world: &World, element: Element) -> String {
    match element {
        Element::Robot(r) => Picked::Robot(r).describe(world),
        Element::Body(i) => world.free_body(i).map_or("?".into(), |b| b.name.clone()),
    }
}
