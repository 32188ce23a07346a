//! The pieces of the one rule set that says which pairs of bodies are checked: the switches a
//! user sets (world, body, pair, with Toggle Collision's semantics), RaiSim's collision groups
//! and masks, and domains. `clasp-core` joins them with a robot's own rules in one function;
//! nothing else decides.

use std::collections::BTreeSet;

/// The bit of collision group `n` (0..=63), for building masks: `group_bit(0) | group_bit(1)`.
pub const fn group_bit(n: u8) -> u64 {
    1 << n
}

/// A mask that contains every group.
pub const ALL_GROUPS: u64 = u64::MAX;
/// The group of movable bodies by default.
pub const MOVABLE_GROUP: u8 = 1;
/// The group of static bodies by default.
pub const STATIC_GROUP: u8 = 63;

/// A body's collision group and mask, RaiSim's way: two bodies are checked only if each one's
/// mask holds the other's group (AND logic).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CollisionGroups {
    group: u8,
    mask: u64,
}

/// A group outside 0..=63.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("collision group {0} does not exist (groups are 0 to 63)")]
pub struct NoSuchGroup(pub u32);

impl CollisionGroups {
    /// A body that moves: group 1, colliding with every group (RaiSim's default).
    pub const MOVABLE: CollisionGroups = CollisionGroups {
        group: MOVABLE_GROUP,
        mask: ALL_GROUPS,
    };
    /// A body that never moves: group 63, colliding with every group (RaiSim's default).
    pub const STATIC: CollisionGroups = CollisionGroups {
        group: STATIC_GROUP,
        mask: ALL_GROUPS,
    };

    /// A group (0..=63) and the groups it may collide with.
    pub fn new(group: u32, mask: u64) -> Result<Self, NoSuchGroup> {
        match u8::try_from(group) {
            Ok(group) if group <= 63 => Ok(Self { group, mask }),
            _ => Err(NoSuchGroup(group)),
        }
    }

    /// RaiSim's default for a body that is static or not.
    pub fn default_for(is_static: bool) -> Self {
        if is_static {
            Self::STATIC
        } else {
            Self::MOVABLE
        }
    }

    pub fn group(self) -> u8 {
        self.group
    }

    pub fn mask(self) -> u64 {
        self.mask
    }

    /// Whether each mask holds the other's group.
    pub fn meet(self, other: CollisionGroups) -> bool {
        self.mask & group_bit(other.group) != 0 && other.mask & group_bit(self.group) != 0
    }
}

/// Domain 0 is shared by all; bodies of two different non-zero domains never meet.
pub fn domains_meet(a: u32, b: u32) -> bool {
    a == 0 || b == 0 || a == b
}

/// The collision switches a user sets, over any body id: the world's, each body's and each
/// pair's. Everything starts on.
#[derive(Debug, Clone, PartialEq)]
pub struct CollisionSwitches<K: Ord + Copy> {
    world_off: bool,
    bodies_off: BTreeSet<K>,
    /// Each pair stored with the smaller id first.
    pairs_off: BTreeSet<(K, K)>,
}

impl<K: Ord + Copy> Default for CollisionSwitches<K> {
    fn default() -> Self {
        Self {
            world_off: false,
            bodies_off: BTreeSet::new(),
            pairs_off: BTreeSet::new(),
        }
    }
}

fn ordered<K: Ord + Copy>(a: K, b: K) -> (K, K) {
    (a.min(b), a.max(b))
}

impl<K: Ord + Copy> CollisionSwitches<K> {
    /// Whether the switches let the two bodies collide.
    pub fn allow(&self, a: K, b: K) -> bool {
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

    pub fn body_on(&self, body: K) -> bool {
        !self.bodies_off.contains(&body)
    }

    pub fn set_body(&mut self, body: K, on: bool) {
        if on {
            self.bodies_off.remove(&body);
        } else {
            self.bodies_off.insert(body);
        }
    }

    /// Every pair switched off against each other, the smaller id first.
    pub fn pairs_off(&self) -> impl Iterator<Item = (K, K)> + '_ {
        self.pairs_off.iter().copied()
    }

    pub fn pair_on(&self, a: K, b: K) -> bool {
        !self.pairs_off.contains(&ordered(a, b))
    }

    pub fn set_pair(&mut self, a: K, b: K, on: bool) {
        if on {
            self.pairs_off.remove(&ordered(a, b));
        } else {
            self.pairs_off.insert(ordered(a, b));
        }
    }

    /// Gives stand-ins their originals' switches: each body `stand_in` maps to an id gets the
    /// original's own switch and each of its pairs' (a pair of two originals goes to their two
    /// stand-ins).
    pub fn copy_to_stand_ins(&mut self, stand_in: impl Fn(K) -> Option<K>) {
        let bodies: Vec<K> = self
            .bodies_off
            .iter()
            .filter_map(|&b| stand_in(b))
            .collect();
        self.bodies_off.extend(bodies);
        let pairs: Vec<(K, K)> = self
            .pairs_off
            .iter()
            .filter(|&&(a, b)| stand_in(a).is_some() || stand_in(b).is_some())
            .map(|&(a, b)| ordered(stand_in(a).unwrap_or(a), stand_in(b).unwrap_or(b)))
            .collect();
        self.pairs_off.extend(pairs);
    }

    /// Forgets the switches of bodies that are gone.
    pub fn retain(&mut self, exists: impl Fn(K) -> bool) {
        self.bodies_off.retain(|&b| exists(b));
        self.pairs_off.retain(|&(a, b)| exists(a) && exists(b));
    }

    /// The Toggle Collision button's state for a selection, given each element's bodies: the
    /// world switch for nothing; for two elements, on unless every pair between them is off;
    /// otherwise on unless every selected element is off.
    pub fn selection_on(&self, selection: &[Vec<K>]) -> bool {
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
    pub fn toggle(&mut self, selection: &[Vec<K>]) -> bool {
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

fn cross_pairs<'a, K: Ord + Copy>(
    first: &'a [K],
    second: &'a [K],
) -> impl Iterator<Item = (K, K)> + 'a {
    first
        .iter()
        .flat_map(move |&a| second.iter().map(move |&b| (a, b)))
        .filter(|(a, b)| a != b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn groups(group: u32, mask: u64) -> CollisionGroups {
        CollisionGroups::new(group, mask).unwrap()
    }

    /// The example of RaiSim's documentation, "Collision Group and Mask".
    #[test]
    fn raisims_four_spheres() {
        let s0 = groups(0, group_bit(0) | group_bit(1));
        let s1 = groups(1, group_bit(0) | group_bit(1));
        let s2 = groups(2, group_bit(1));
        let s3 = groups(3, ALL_GROUPS);
        assert!(s0.meet(s1) && s1.meet(s0));
        assert!(
            !s1.meet(s2),
            "sphere2 may hit group 1, but sphere1's mask lacks group 2"
        );
        assert!(!s0.meet(s2));
        for other in [s0, s1, s2] {
            assert!(!s3.meet(other) && !other.meet(s3), "no mask holds group 3");
        }
    }

    /// Bodies 10 and 11 stand in for 0 and 1: body 0's switch, its pair with 5, and the pair
    /// 0–1 of two originals go to the stand-ins; the rest stays as it was.
    #[test]
    fn stand_ins_take_their_originals_switches() {
        let mut switches = CollisionSwitches::<u32>::default();
        switches.set_body(0, false);
        switches.set_pair(0, 5, false);
        switches.set_pair(1, 0, false);
        switches.set_pair(5, 6, false);
        switches.copy_to_stand_ins(|b| (b < 2).then_some(b + 10));
        assert!(!switches.body_on(10) && switches.body_on(11));
        assert!(!switches.pair_on(10, 5) && !switches.pair_on(11, 10));
        assert!(switches.pair_on(11, 5) && switches.pair_on(10, 6));
        assert!(
            !switches.pair_on(0, 5) && !switches.pair_on(5, 6),
            "originals keep theirs"
        );
    }

    #[test]
    fn defaults_let_movable_and_static_bodies_collide() {
        let (movable, fixed) = (CollisionGroups::MOVABLE, CollisionGroups::STATIC);
        assert!(movable.meet(movable) && movable.meet(fixed) && fixed.meet(fixed));
        assert_eq!(CollisionGroups::default_for(true), fixed);
        assert_eq!((fixed.group(), movable.group()), (63, 1));
    }

    #[test]
    fn groups_outside_0_to_63_are_refused() {
        assert_eq!(CollisionGroups::new(64, 0), Err(NoSuchGroup(64)));
        assert_eq!(CollisionGroups::new(300, 0), Err(NoSuchGroup(300)));
        assert!(CollisionGroups::new(63, 0).is_ok());
    }

    #[test]
    fn domains_share_zero_and_never_meet_otherwise() {
        assert!(domains_meet(0, 0) && domains_meet(0, 3) && domains_meet(2, 0));
        assert!(domains_meet(4, 4));
        assert!(!domains_meet(1, 2));
    }

    #[test]
    fn switches_combine_world_body_and_pair() {
        let (a, b, c) = (0, 1, 2);
        let mut s = CollisionSwitches::default();
        assert!(s.allow(a, b));
        s.set_pair(b, a, false);
        assert!(!s.allow(a, b) && s.allow(a, c));
        s.set_pair(a, b, true);
        s.set_body(c, false);
        assert!(s.allow(a, b) && !s.allow(a, c) && !s.allow(c, b));
        s.set_world(false);
        assert!(!s.allow(a, b));
        s.set_world(true);
        s.retain(|k| k != c);
        assert!(s.allow(a, c), "a removed body's switch is forgotten");
    }

    #[test]
    fn toggle_follows_the_selection() {
        let mut s = CollisionSwitches::default();
        assert!(!s.toggle(&[]), "nothing selected: the world");
        assert!(!s.world_on());
        assert!(s.toggle(&[]));
        assert!(
            !s.toggle(&[vec![0, 1], vec![2]]),
            "two elements: their pairs"
        );
        assert!(!s.pair_on(0, 2) && !s.pair_on(1, 2) && s.pair_on(0, 1));
        assert!(!s.toggle(&[vec![3]]), "one element: its bodies");
        assert!(!s.body_on(3) && s.selection_on(&[vec![3], vec![4], vec![5]]));
    }
}
