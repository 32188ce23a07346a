//! Which pairs of bodies are checked for collision: switches for the world, a body and a pair;
//! collision groups and masks; and domains, which let parallel evaluations share one scene.

use std::collections::HashSet;

/// Names a body registered with a [`CollisionFilter`], in the order bodies were added.
pub type BodyIndex = usize;

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

/// The collision settings of one body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyFilter {
    /// The per-body switch: off, the body passes through everything.
    pub enabled: bool,
    /// The one group (0..=63) the body belongs to.
    pub group: u8,
    /// The groups the body may collide with.
    pub mask: u64,
    /// 0 collides with every domain; two different non-zero domains never collide.
    pub domain: u32,
}

impl BodyFilter {
    /// A body that moves: group 1, colliding with every group.
    pub const MOVABLE: BodyFilter = BodyFilter {
        enabled: true,
        group: MOVABLE_GROUP,
        mask: ALL_GROUPS,
        domain: 0,
    };
    /// A body that never moves: group 63, colliding with every group.
    pub const STATIC: BodyFilter = BodyFilter {
        enabled: true,
        group: STATIC_GROUP,
        mask: ALL_GROUPS,
        domain: 0,
    };
}

/// A setting the filter refuses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FilterError {
    #[error("collision group {0} does not exist (groups are 0 to 63)")]
    NoSuchGroup(u8),
    #[error("no body {0} is registered with the collision filter")]
    NoSuchBody(BodyIndex),
}

/// Decides, for every pair of bodies, whether it is checked for collision and contact.
#[derive(Debug, Clone)]
pub struct CollisionFilter {
    world_enabled: bool,
    bodies: Vec<BodyFilter>,
    /// Pairs switched off, each stored with the smaller index first.
    disabled_pairs: HashSet<(BodyIndex, BodyIndex)>,
}

impl Default for CollisionFilter {
    fn default() -> Self {
        Self {
            world_enabled: true,
            bodies: Vec::new(),
            disabled_pairs: HashSet::new(),
        }
    }
}

fn ordered(a: BodyIndex, b: BodyIndex) -> (BodyIndex, BodyIndex) {
    (a.min(b), a.max(b))
}

impl CollisionFilter {
    /// Registers a body and returns its index.
    pub fn add_body(&mut self, settings: BodyFilter) -> Result<BodyIndex, FilterError> {
        check_group(settings.group)?;
        self.bodies.push(settings);
        Ok(self.bodies.len() - 1)
    }

    pub fn body(&self, body: BodyIndex) -> Result<&BodyFilter, FilterError> {
        self.bodies.get(body).ok_or(FilterError::NoSuchBody(body))
    }

    fn body_mut(&mut self, body: BodyIndex) -> Result<&mut BodyFilter, FilterError> {
        self.bodies
            .get_mut(body)
            .ok_or(FilterError::NoSuchBody(body))
    }

    pub fn world_enabled(&self) -> bool {
        self.world_enabled
    }

    /// The world switch: off, nothing collides with anything.
    pub fn set_world_enabled(&mut self, enabled: bool) {
        self.world_enabled = enabled;
    }

    pub fn set_body_enabled(&mut self, body: BodyIndex, enabled: bool) -> Result<(), FilterError> {
        self.body_mut(body)?.enabled = enabled;
        Ok(())
    }

    /// The pair switch: off, these two pass through each other and collide with all else as before.
    pub fn set_pair_enabled(
        &mut self,
        a: BodyIndex,
        b: BodyIndex,
        enabled: bool,
    ) -> Result<(), FilterError> {
        self.body(a)?;
        self.body(b)?;
        if enabled {
            self.disabled_pairs.remove(&ordered(a, b));
        } else {
            self.disabled_pairs.insert(ordered(a, b));
        }
        Ok(())
    }

    pub fn pair_enabled(&self, a: BodyIndex, b: BodyIndex) -> bool {
        !self.disabled_pairs.contains(&ordered(a, b))
    }

    pub fn set_groups(&mut self, body: BodyIndex, group: u8, mask: u64) -> Result<(), FilterError> {
        check_group(group)?;
        let settings = self.body_mut(body)?;
        settings.group = group;
        settings.mask = mask;
        Ok(())
    }

    pub fn set_domain(&mut self, body: BodyIndex, domain: u32) -> Result<(), FilterError> {
        self.body_mut(body)?.domain = domain;
        Ok(())
    }

    /// Whether a pair is checked at all: every switch on, each body's mask holding the other's
    /// group, and domains compatible. A body is never checked against itself.
    pub fn should_check(&self, a: BodyIndex, b: BodyIndex) -> bool {
        let (Some(fa), Some(fb)) = (self.bodies.get(a), self.bodies.get(b)) else {
            return false;
        };
        a != b
            && self.world_enabled
            && fa.enabled
            && fb.enabled
            && self.pair_enabled(a, b)
            && fa.mask & group_bit(fb.group) != 0
            && fb.mask & group_bit(fa.group) != 0
            && (fa.domain == 0 || fb.domain == 0 || fa.domain == fb.domain)
    }

    /// Whether an evaluation running in `domain` checks a pair: domain 0 sees every pair; another
    /// domain sees only pairs with one of its own bodies, so parallel evaluations in different
    /// domains never repeat the shared scene's pairs among themselves.
    pub fn should_check_in(&self, domain: u32, a: BodyIndex, b: BodyIndex) -> bool {
        let in_domain = |i: BodyIndex| self.bodies.get(i).is_some_and(|f| f.domain == domain);
        self.should_check(a, b) && (domain == 0 || in_domain(a) || in_domain(b))
    }

    /// Every pair checked in `domain`, smaller index first.
    pub fn pairs_in(&self, domain: u32) -> Vec<(BodyIndex, BodyIndex)> {
        let n = self.bodies.len();
        (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .filter(|&(a, b)| self.should_check_in(domain, a, b))
            .collect()
    }
}

fn check_group(group: u8) -> Result<(), FilterError> {
    if group > 63 {
        return Err(FilterError::NoSuchGroup(group));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(group: u8, mask: u64) -> BodyFilter {
        BodyFilter {
            group,
            mask,
            ..BodyFilter::MOVABLE
        }
    }

    /// The example of RaiSim's documentation, "Collision Group and Mask".
    #[test]
    fn raisims_four_spheres() {
        let mut filter = CollisionFilter::default();
        let s0 = filter
            .add_body(with(0, group_bit(0) | group_bit(1)))
            .unwrap();
        let s1 = filter
            .add_body(with(1, group_bit(0) | group_bit(1)))
            .unwrap();
        let s2 = filter.add_body(with(2, group_bit(1))).unwrap();
        let s3 = filter.add_body(with(3, ALL_GROUPS)).unwrap();
        assert!(filter.should_check(s0, s1));
        assert!(
            !filter.should_check(s1, s2),
            "sphere2 may hit group 1, but sphere1's mask lacks group 2"
        );
        assert!(!filter.should_check(s0, s2));
        for other in [s0, s1, s2] {
            assert!(
                !filter.should_check(s3, other),
                "nobody's mask holds group 3"
            );
            assert!(!filter.should_check(other, s3));
        }
        assert_eq!(filter.pairs_in(0), vec![(s0, s1)]);
    }

    #[test]
    fn defaults_let_movable_and_static_bodies_collide() {
        let mut filter = CollisionFilter::default();
        let hand = filter.add_body(BodyFilter::MOVABLE).unwrap();
        let mug = filter.add_body(BodyFilter::MOVABLE).unwrap();
        let table = filter.add_body(BodyFilter::STATIC).unwrap();
        assert_eq!(
            filter.pairs_in(0),
            vec![(hand, mug), (hand, table), (mug, table)]
        );
        assert!(!filter.should_check(hand, hand));
    }

    #[test]
    fn world_body_and_pair_switches() {
        let mut filter = CollisionFilter::default();
        let [a, b, c] = [0, 1, 2].map(|_| filter.add_body(BodyFilter::MOVABLE).unwrap());

        filter.set_pair_enabled(b, a, false).unwrap();
        assert_eq!(
            filter.pairs_in(0),
            vec![(a, c), (b, c)],
            "only the pair is off"
        );
        filter.set_pair_enabled(a, b, true).unwrap();
        assert_eq!(filter.pairs_in(0).len(), 3);

        filter.set_body_enabled(c, false).unwrap();
        assert_eq!(
            filter.pairs_in(0),
            vec![(a, b)],
            "a body off passes through everything"
        );
        filter.set_body_enabled(c, true).unwrap();

        filter.set_world_enabled(false);
        assert!(filter.pairs_in(0).is_empty());
        filter.set_world_enabled(true);
        assert_eq!(
            filter.pairs_in(0).len(),
            3,
            "switching back restores every pair"
        );
    }

    #[test]
    fn domains_share_domain_zero_and_never_meet() {
        let mut filter = CollisionFilter::default();
        let scene = filter.add_body(BodyFilter::STATIC).unwrap();
        let hand1 = filter
            .add_body(BodyFilter {
                domain: 1,
                ..BodyFilter::MOVABLE
            })
            .unwrap();
        let hand2 = filter
            .add_body(BodyFilter {
                domain: 2,
                ..BodyFilter::MOVABLE
            })
            .unwrap();
        let other_scene = filter.add_body(BodyFilter::MOVABLE).unwrap();
        assert!(filter.should_check(scene, hand1));
        assert!(filter.should_check(scene, hand2));
        assert!(
            !filter.should_check(hand1, hand2),
            "different non-zero domains never collide"
        );
        // Each evaluation sees its own hand against the shared scene, and nothing else.
        assert_eq!(
            filter.pairs_in(1),
            vec![(scene, hand1), (hand1, other_scene)]
        );
        assert_eq!(
            filter.pairs_in(2),
            vec![(scene, hand2), (hand2, other_scene)]
        );
        assert_eq!(filter.pairs_in(0).len(), 5);
    }

    #[test]
    fn bad_settings_are_refused_and_change_nothing() {
        let mut filter = CollisionFilter::default();
        assert_eq!(
            filter.add_body(with(64, ALL_GROUPS)),
            Err(FilterError::NoSuchGroup(64))
        );
        let a = filter.add_body(BodyFilter::MOVABLE).unwrap();
        assert_eq!(
            filter.set_groups(a, 70, 0),
            Err(FilterError::NoSuchGroup(70))
        );
        assert_eq!(*filter.body(a).unwrap(), BodyFilter::MOVABLE);
        assert_eq!(
            filter.set_pair_enabled(a, 5, false),
            Err(FilterError::NoSuchBody(5))
        );
        assert_eq!(
            filter.set_body_enabled(9, false),
            Err(FilterError::NoSuchBody(9))
        );
        assert!(!filter.should_check(a, 9));
    }
}
