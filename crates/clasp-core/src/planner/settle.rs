//! The grasp a squeeze settles into. The planner closes a hand kinematically: each finger stops
//! where it first touches, so the fingers need not press the object in balance. The physics
//! test's squeeze then shoves the object until they do, and a grasp can fail on that shove
//! alone (its bounds are measured from the grasp), though the hand ends holding the object
//! fast. Where the squeeze left the object between the fingers, the hand's posture there,
//! taken relative to the object, is a grasp of its own: the one the hand settles into. The
//! planner tries it as it tries any grasp: placed in the scene, scored, and tested whole.

use clasp_collide::CollisionEngine;

use crate::{
    grasp::{hold::HoldTest, quality::WrenchSpaceKind, trial::GraspTrial},
    ids::{BodyId, RobotId},
    world::World,
};

/// Fewer fingers than this on the object after the squeeze hold nothing worth settling into.
const SETTLING_FINGERS: usize = 2;

impl<E: CollisionEngine + Clone> World<E> {
    /// The grasp `test`'s squeeze settled `grasp` into: the hand's DOFs where the squeeze left
    /// them, its palm where it stood relative to the object then, the object where it stands
    /// in this world; its contacts and quality (L1, with volume) measured there. `None` where
    /// fewer than [`SETTLING_FINGERS`] fingers were left on the object, or where the settled
    /// hand (or the arm carrying it) cannot be placed or lands in something of the scene the
    /// test left out (the table).
    pub(super) fn settled_grasp(
        &self,
        robot: RobotId,
        object: BodyId,
        grasp: &GraspTrial,
        test: &HoldTest,
    ) -> Option<GraspTrial> {
        let fingers = test.squeeze.fingers.iter().filter(|f| f.on_object).count();
        if fingers < SETTLING_FINGERS {
            return None;
        }
        let end = &test.squeeze_end;
        let here = self.body(object)?.pose();
        // The palm never moves in the test: relative to the object it moved by the inverse of
        // the object's move.
        let palm = here * end.object.inverse() * grasp.palm;
        let mut settled = self.clone();
        // Put where the grasp was first: an arm's solver then starts near the settled palm.
        settled.put_grasp(robot, grasp).ok()?;
        settled.place_hand(robot, palm).ok()?;
        let dofs = settled.find_robot(robot).ok()?.within_limits(&end.dofs);
        settled.set_dof_values(robot, &dofs).ok()?;
        let hand = settled.assembly_bodies(settled.assembly_root(robot));
        if settled.any_overlap_with(&hand) {
            return None;
        }
        settled
            .stage
            .trial_as_it_stands(
                &settled.backdrop(),
                robot,
                object,
                Some(WrenchSpaceKind::L1),
                true,
            )
            .ok()
    }
}
