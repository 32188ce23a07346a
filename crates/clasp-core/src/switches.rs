//! Which pairs of bodies collide: GraspIt's switches for the world, an element and a pair, and
//! the Toggle Collision button's rules (graspit-spec §3, gui-notes §1.6).

use std::collections::BTreeSet;

use crate::BodyId;

/// What a user selects and moves as one: a free body, or a whole robot (palm and links).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Element {
    Body(usize),
    Robot(usize),
}

/// The collision switches a user sets. Robots' own rules (links of one chain, a file's
/// `disableCollision`) live with the robots, not here.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CollisionSwitches {
    world_off: bool,
    bodies_off: BTreeSet<BodyId>,
    /// Each pair stored with the smaller id first.
    pairs_off: BTreeSet<(BodyId, BodyId)>,
}

fn ordered(a: BodyId, b: BodyId) -> (BodyId, BodyId) {
    (a.min(b), a.max(b))
}

impl CollisionSwitches {
    /// Whether the switches let the two bodies collide.
    pub fn allow(&self, a: BodyId, b: BodyId) -> bool {
        !self.world_off
            && !self.bodies_off.contains(&a)
            && !self.bodies_off.contains(&b)
            && !self.pairs_off.contains(&ordered(a, b))
    }

    pub fn world_on(&self) -> bool {
        !self.world_off
    }

    pub fn set_world(&mut self, on: bool) {
        self.world_off = !on;
    }

    pub fn body_on(&self, body: BodyId) -> bool {
        !self.bodies_off.contains(&body)
    }

    pub fn set_body(&mut self, body: BodyId, on: bool) {
        if on {
            self.bodies_off.remove(&body);
        } else {
            self.bodies_off.insert(body);
        }
    }

    pub fn pair_on(&self, a: BodyId, b: BodyId) -> bool {
        !self.pairs_off.contains(&ordered(a, b))
    }

    pub fn set_pair(&mut self, a: BodyId, b: BodyId, on: bool) {
        if on {
            self.pairs_off.remove(&ordered(a, b));
        } else {
            self.pairs_off.insert(ordered(a, b));
        }
    }

    /// Renames or forgets the bodies the switches name, after bodies were removed from a world:
    /// `rename` gives a body's new id, or `None` for a removed one.
    pub fn rename(&mut self, rename: impl Fn(BodyId) -> Option<BodyId>) {
        self.bodies_off = self.bodies_off.iter().filter_map(|&b| rename(b)).collect();
        self.pairs_off = self
            .pairs_off
            .iter()
            .filter_map(|&(a, b)| Some(ordered(rename(a)?, rename(b)?)))
            .collect();
    }

    /// The button's state for a selection, given each element's bodies: the world switch for
    /// nothing; for two elements, on unless every pair between them is off; otherwise on unless
    /// every selected element is off.
    pub fn selection_on(&self, selection: &[Vec<BodyId>]) -> bool {
        match selection {
            [] => self.world_on(),
            [first, second] => !cross_pairs(first, second).all(|(a, b)| !self.pair_on(a, b)),
            elements => !elements
                .iter()
                .all(|bodies| bodies.iter().all(|&b| !self.body_on(b))),
        }
    }

    /// Toggle Collision: sets the switches the selection names to the opposite of the button's
    /// state, and returns the new state.
    pub fn toggle(&mut self, selection: &[Vec<BodyId>]) -> bool {
        let on = !self.selection_on(selection);
        match selection {
            [] => self.set_world(on),
            [first, second] => {
                for (a, b) in cross_pairs(first, second) {
                    self.set_pair(a, b, on);
                }
            }
            elements => {
                for &body in elements.iter().flatten() {
                    self.set_body(body, on);
                }
            }
        }
        on
    }
}

fn cross_pairs<'a>(
    first: &'a [BodyId],
    second: &'a [BodyId],
) -> impl Iterator<Item = (BodyId, BodyId)> + 'a {
    first
        .iter()
        .flat_map(move |&a| second.iter().map(move |&b| (a, b)))
        .filter(|(a, b)| a != b)
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: BodyId = BodyId::Free(0);
    const B: BodyId = BodyId::Free(1);
    const C: BodyId = BodyId::Free(2);

    #[test]
    fn switches_combine_world_body_and_pair() {
        let mut s = CollisionSwitches::default();
        assert!(s.allow(A, B));
        s.set_pair(B, A, false);
        assert!(!s.allow(A, B) && s.allow(A, C));
        s.set_pair(A, B, true);
        s.set_body(C, false);
        assert!(s.allow(A, B) && !s.allow(A, C) && !s.allow(C, B));
        s.set_world(false);
        assert!(!s.allow(A, B));
    }
}
