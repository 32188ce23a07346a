//! The one rule that says whether two bodies are checked for collision and contact: the
//! switches a user sets (world, body, pair), a robot's own rules (adjacent links, the file's
//! `disableCollision` and `collisionRule`), RaiSim's groups and masks, and domains. Moves,
//! contacts and every query of the world ask here and nowhere else.

use clasp_collide::domains_meet;

use crate::{body::Body, ids::BodyId, robot::Robot};

/// The switches of a world, over its body ids.
pub type CollisionSwitches = clasp_collide::CollisionSwitches<BodyId>;

/// One body as the rule sees it: its id, the body, the robot it belongs to, and its domain.
#[derive(Clone, Copy)]
pub(crate) struct Part<'a> {
    pub id: BodyId,
    pub body: &'a Body,
    pub robot: Option<&'a Robot>,
    /// 0 for the shared world; a parallel evaluation's own bodies carry its domain.
    pub domain: u32,
}

impl<'a> Part<'a> {
    /// The body where it stands, for the engine.
    pub fn placed(&self) -> clasp_collide::Placed<'a> {
        clasp_collide::Placed::new(&self.body.geometry, self.body.pose)
    }
}

/// Whether two bodies are checked: both have triangles, the switches allow the pair, each
/// one's mask holds the other's group, their domains meet, and the robots' own rules agree.
pub(crate) fn checked<'a>(switches: &CollisionSwitches, a: Part<'a>, b: Part<'a>) -> bool {
    if a.body.mesh().is_empty()
        || b.body.mesh().is_empty()
        || !switches.allow(a.id, b.id)
        || !a.body.groups.meet(b.body.groups)
        || !domains_meet(a.domain, b.domain)
    {
        return false;
    }
    let own = |part: Part<'a>| part.robot.zip(part.id.robot_body());
    match (own(a), own(b)) {
        (Some((robot, ra)), Some((_, rb))) if a.id.robot() == b.id.robot() => {
            robot.self_pair_checked(ra, rb)
        }
        (ra, rb) => {
            ra.is_none_or(|(robot, which)| robot.collides(which))
                && rb.is_none_or(|(robot, which)| robot.collides(which))
        }
    }
}
