//! A robot's bodies by position (palm, links, mount piece), and which pairs of them are
//! checked against each other for collision.

use clasp_collide::{CollisionEngine, FastEngine, Placed};

use super::{CollisionRule, Robot, chain::Chain};
use crate::{body::Body, ids::RobotBody};

impl Robot {
    pub fn palm(&self) -> &Body {
        &self.palm
    }

    pub fn chains(&self) -> &[Chain] {
        &self.chains
    }

    /// Every body of the robot: the palm, then each chain's links in order, then the mount.
    pub fn bodies(&self) -> impl Iterator<Item = &Body> {
        std::iter::once(&self.palm)
            .chain(
                self.chains
                    .iter()
                    .flat_map(|c| c.links.iter().map(|l| &l.body)),
            )
            .chain(&self.mount)
    }

    /// Every body of the robot by position: the palm, then each chain's links in order, then
    /// the mount piece if it has one.
    pub fn parts(&self) -> Vec<RobotBody> {
        let links = self.chains.iter().enumerate().flat_map(|(chain, c)| {
            (0..c.links.len()).map(move |link| RobotBody::Link { chain, link })
        });
        let mount = self.mount.as_ref().map(|_| RobotBody::Mount);
        std::iter::once(RobotBody::Palm)
            .chain(links)
            .chain(mount)
            .collect()
    }

    pub fn body(&self, which: RobotBody) -> Option<&Body> {
        match which {
            RobotBody::Palm => Some(&self.palm),
            RobotBody::Link { chain, link } => {
                self.chains.get(chain)?.links.get(link).map(|l| &l.body)
            }
            RobotBody::Mount => self.mount.as_ref(),
        }
    }

    pub(crate) fn body_mut(&mut self, which: RobotBody) -> Option<&mut Body> {
        match which {
            RobotBody::Palm => Some(&mut self.palm),
            RobotBody::Link { chain, link } => self
                .chains
                .get_mut(chain)?
                .links
                .get_mut(link)
                .map(|l| &mut l.body),
            RobotBody::Mount => self.mount.as_mut(),
        }
    }

    /// The mount piece joining the robot to the one carrying it, if it has one.
    pub fn mount(&self) -> Option<&Body> {
        self.mount.as_ref()
    }

    /// Fixes a mount piece to the palm (or takes it away): done by the world when it mounts
    /// the robot on another.
    pub(crate) fn set_mount(&mut self, mount: Option<Body>) {
        self.mount = mount;
        self.place_links();
    }

    /// The body's position in [`Robot::parts`] order.
    pub fn local_index(&self, which: RobotBody) -> Option<usize> {
        self.parts().iter().position(|&p| p == which)
    }

    /// Collision exceptions the file asks for, beyond GraspIt's automatic ones.
    pub fn collision_rules(&self) -> &[CollisionRule] {
        &self.collision_rules
    }

    /// The same robot with these collision exceptions: for robots not yet in a world.
    pub fn with_collision_rules(mut self, rules: Vec<CollisionRule>) -> Self {
        self.collision_rules = rules;
        self
    }

    /// Pairs of its own bodies that interpenetrate at the pose it was built in, and so never
    /// collide with each other.
    pub fn overlapping_at_start(&self) -> &[(RobotBody, RobotBody)] {
        &self.overlapping_at_start
    }

    /// Puts one of its bodies in collision groups: for robots not yet in a world (a world's
    /// robots change groups through [`crate::World::set_collision_groups`]). False if the
    /// robot has no such body.
    pub fn set_body_groups(
        &mut self,
        which: RobotBody,
        groups: clasp_collide::CollisionGroups,
    ) -> bool {
        self.body_mut(which).map(|b| b.groups = groups).is_some()
    }

    /// Changes what one of its bodies is made of (its public fields: name, material, mass,
    /// Young's modulus, …): for robots not yet in a world, as a world file's edits of a body
    /// file (a world's robots change through the world's setters, which keep contacts true).
    /// `None` if the robot has no such body.
    pub fn edit_body<T>(
        &mut self,
        which: RobotBody,
        edit: impl FnOnce(&mut Body) -> T,
    ) -> Option<T> {
        self.body_mut(which).map(edit)
    }

    /// Whether the robot's file lets this body collide at all (`collisionRule="Off"` does not).
    pub fn collides(&self, which: RobotBody) -> bool {
        !self.collision_rules.contains(&CollisionRule::Off(which))
    }

    /// Whether two of the robot's own bodies are checked against each other: never within one
    /// chain, nor the palm against a chain's first link (GraspIt's automatic rules), nor a pair
    /// the file or the start pose rules out.
    pub fn self_pair_checked(&self, a: RobotBody, b: RobotBody) -> bool {
        let listed = |(x, y): &(RobotBody, RobotBody)| (*x, *y) == (a, b) || (*x, *y) == (b, a);
        self.chains_allow(a, b)
            && self.collides(a)
            && self.collides(b)
            && !self.collision_rules.iter().any(|rule| match rule {
                CollisionRule::Pair(x, y) => listed(&(*x, *y)),
                CollisionRule::Off(_) => false,
            })
            && !self.overlapping_at_start.iter().any(listed)
    }

    /// GraspIt's automatic rules: no two links of one chain meet, nor a chain's first link
    /// the body it starts on (the palm, or for a branch its parent joint's link), nor the
    /// mount piece the palm it is fixed to.
    fn chains_allow(&self, a: RobotBody, b: RobotBody) -> bool {
        use RobotBody::{Link, Mount, Palm};
        match (a, b) {
            (Palm, Palm) | (Mount, Mount) | (Palm, Mount) | (Mount, Palm) => false,
            (Mount, Link { .. }) | (Link { .. }, Mount) => true,
            (Palm, Link { chain, link }) | (Link { chain, link }, Palm) => {
                link != 0 || self.chains[chain].parent.is_some()
            }
            (
                Link {
                    chain: c1,
                    link: l1,
                },
                Link {
                    chain: c2,
                    link: l2,
                },
            ) => c1 != c2 && !self.starts_on(c1, l1, c2, l2) && !self.starts_on(c2, l2, c1, l1),
        }
    }

    /// Whether link `link` of chain `chain` is the first of a branch that starts on link
    /// `on_link` of chain `on_chain` (the last link carried by the joint it starts on).
    fn starts_on(&self, chain: usize, link: usize, on_chain: usize, on_link: usize) -> bool {
        let Some(parent) = self.chains[chain].parent else {
            return false;
        };
        let carrier = self.chains[on_chain]
            .links
            .iter()
            .rposition(|l| l.frame.is_some_and(|f| f <= parent.joint));
        link == 0 && parent.chain == on_chain && carrier == Some(on_link)
    }

    /// The pairs of its own bodies that would be checked by the chain rules but interpenetrate.
    pub(super) fn find_own_overlaps(&self) -> Vec<(RobotBody, RobotBody)> {
        let parts = self.parts();
        let mut found = Vec::new();
        for (i, &a) in parts.iter().enumerate() {
            for &b in &parts[i + 1..] {
                if self.chains_allow(a, b) && self.pair_collides(a, b) {
                    found.push((a, b));
                }
            }
        }
        found
    }

    fn pair_collides(&self, a: RobotBody, b: RobotBody) -> bool {
        let (Some(a), Some(b)) = (self.body(a), self.body(b)) else {
            return false;
        };
        FastEngine.collide(
            Placed::new(&a.geometry, a.pose),
            Placed::new(&b.geometry, b.pose),
        )
    }
}
