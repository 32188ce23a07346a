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
    // A thing is on unless every body of it is switched off.
    let line = |item: Picked| {
        let on = item.bodies(world).iter().any(|&b| switches.body_on(b));
        format!("{}: {}", item.describe(world), on_off(on))
    };
    let mut lines = vec![format!("world: {}", on_off(switches.world_on()))];
    let items = selection.items(world);
    for &item in &items {
        lines.push(line(item));
        // A link picked alone: its robot's switch too.
        if let Picked::Body(id) = item
            && let Some(robot) = id.robot()
        {
            lines.push(line(Picked::Robot(robot)));
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
    let mut gathered: Vec<PairOff> = Vec::new();
    let mut pairs: Vec<(BodyId, BodyId)> = switches.pairs_off().collect();
    // Whole elements first: each pair of elements whose bodies are all off with each other.
    let mut element_pairs: Vec<(Element, Element)> = Vec::new();
    for &(a, b) in &pairs {
        let key = (a.element(), b.element());
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
            a: Picked::element(ea).describe(world),
            b: Picked::element(eb).describe(world),
            bodies_a,
            bodies_b,
        });
    }
    gathered.extend(pairs.into_iter().map(|(a, b)| PairOff {
        a: Picked::Body(a).describe(world),
        b: Picked::Body(b).describe(world),
        bodies_a: vec![a],
        bodies_b: vec![b],
    }));
    gathered
}
