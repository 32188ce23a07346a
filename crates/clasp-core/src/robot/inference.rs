//! What a hand file from outside GraspIt (URDF, MJCF) does not say, worked out from the hand's
//! kinematics: where the palm faces (GraspIt's approach direction) and, for each DOF, which way
//! it closes a grasp, or that Auto Grasp leaves it alone (a spread, or a wrist that carries
//! several fingers).
//!
//! How: each DOF is nudged where the hand stands and the fingertips' velocities read off the
//! forward kinematics. A finger's flexing joints can turn far one way (closing) and little the
//! other (over-extension); a spread turns about as far both ways, and mirrored fingers spread
//! in opposite senses. So the sum over DOFs and fingertips of each tip velocity weighed by how
//! much further its DOF can go forward than back points where the fingers close: the side the
//! palm faces. Where no DOF turns (a parallel gripper's jaws slide), or the fingers close into
//! each other from a ring round the palm's axis (a three-finger claw), the palm faces its
//! fingertips. A DOF then closes where it moves its fingertips toward a grasp centre in front of
//! the palm, and spreads where it moves them across that line.

use nalgebra::{Point3, Unit, Vector3};

use super::{HandApproach, Robot, dof::DofKind};

/// What a DOF does in a grasp, as worked out from the kinematics.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DofRole {
    /// Closes the hand when it moves the way of `sense` (+1 or −1): Auto Grasp drives it.
    Closes { sense: f64 },
    /// Moves fingertips across the grasp rather than into it (abduction, a spread): Auto
    /// Grasp leaves it where it is.
    Spreads,
    /// Carries several fingers (a wrist): Auto Grasp leaves it where it is.
    Carries,
}

impl DofRole {
    /// "close+", "close-", "spread" or "wrist": how `clasp-cli inspect` and Python say it.
    pub fn name(self) -> &'static str {
        match self {
            DofRole::Closes { sense } if sense > 0.0 => "close+",
            DofRole::Closes { .. } => "close-",
            DofRole::Spreads => "spread",
            DofRole::Carries => "wrist",
        }
    }

    /// The DOF's Auto Grasp velocity: its closing sense, or 0 for one left alone.
    pub fn default_velocity(self) -> f64 {
        match self {
            DofRole::Closes { sense } => sense,
            DofRole::Spreads | DofRole::Carries => 0.0,
        }
    }
}

/// A hand's approach direction and its DOFs' roles, as the kinematics give them.
#[derive(Debug, Clone, PartialEq)]
pub struct HandInference {
    /// In the palm's frame: the reference point on the palm's face, and the way it faces.
    pub approach: HandApproach,
    /// One per DOF.
    pub roles: Vec<DofRole>,
    /// What the kinematics could not settle, and what was chosen, a sentence each (for
    /// `clasp-cli inspect` and the settings file it writes: docs/hands.md).
    pub doubts: Vec<String>,
}

/// A DOF's share of the fingertips' motion below this fraction toward the grasp centre makes
/// it a spread: a flexing joint of a straight finger moves its tip at 45° to that line
/// (cos 45° ≈ 0.71), a spread across it (≈ 0).
const CLOSING_SHARE: f64 = 0.4;

/// A DOF that can go further one way than the other by this share of its range is one-sided,
/// as flexing joints are (−20° to 90°, say); spreads turn about as far each way (±20°).
pub(super) const ONE_SIDED: f64 = 0.1;

/// A thumb's tip lies at least this many times further from the other fingertips than any
/// other finger's tip does (the Inspire 2.2, the Allegro 1.8, GraspIt's human hand 2.1; the
/// Schunk's three fingers alike, 1.0).
const THUMB_APART: f64 = 1.5;

/// The fingertips' weighed closing motions must add up to at least this share of their
/// lengths to say where the palm faces: a hand's fingers curl the same way (the Shadow's,
/// 0.8 and more), a claw's ringed fingers curl into each other and cancel (the D'Claw's, 0).
const AGREEING: f64 = 0.25;

/// Tip speeds below this (mm per rad or per mm: a micrometre a radian) count as none.
const STILL: f64 = 1e-3;

/// One DOF's fingertip velocities where the hand stands, one per finger, world axes.
struct DofMotion {
    tips: Vec<Vector3<f64>>,
    /// How much further the DOF can go up than down from where it stands (a turn at most
    /// each way), in its own unit.
    forward_bias: f64,
    /// Its range from end to end (a turn at most each way from where it stands).
    range: f64,
    revolute: bool,
    carries: bool,
}

impl DofMotion {
    /// Whether the DOF can go further one way than the other by [`ONE_SIDED`] of its range,
    /// as flexing joints can.
    fn one_sided(&self) -> bool {
        self.forward_bias.abs() >= ONE_SIDED * self.range
    }
}

impl Robot {
    /// The hand's approach direction and each DOF's role, worked out from its kinematics
    /// where it stands (see the module's docs).
    pub fn infer_hand(&self) -> HandInference {
        let fingers = self.finger_chains();
        let tips = self.fingertips(&fingers, &self.dof_values);
        let motions: Vec<DofMotion> = (0..self.dofs.len())
            .map(|dof| self.dof_motion(&self.dof_values, dof, &fingers, &tips))
            .collect();
        let base = self.finger_base(&fingers);
        let palm_centre = base.0 * bounding_centre(base.1);
        let mut doubts = Vec::new();
        let facing = facing(&motions, &tips, palm_centre, &mut doubts);
        let centre = grasp_centre(palm_centre, facing, &tips);
        let roles: Vec<DofRole> = motions
            .iter()
            .map(|motion| role(motion, &tips, &centre))
            .collect();
        for (d, (motion, role)) in motions.iter().zip(&roles).enumerate() {
            if let (DofRole::Closes { sense }, false) = (role, motion.one_sided()) {
                doubts.push(format!(
                    "DOF {d} ({}) turns about as far each way: it is taken to close as it {}, \
                     which moves its fingertips toward the grasp",
                    self.dofs[d].name,
                    if *sense > 0.0 { "rises" } else { "falls" }
                ));
            }
        }
        if fingers.is_empty() {
            doubts.push("no chain ends in a fingertip: nothing closes".to_owned());
        }
        let half_closed = self.fingertips(&fingers, &self.half_closed(&roles));
        let grip = centroid(half_closed.iter()).unwrap_or(centre);
        HandInference {
            approach: self.approach_on_palm(facing, grip, base),
            roles,
            doubts,
        }
    }

    /// Sets what [`Robot::infer_hand`] works out: the approach direction, each DOF's Auto Grasp
    /// velocity, and where the file gives none, virtual contacts and eigengrasps for the
    /// planner ([`Robot::infer_virtual_contacts`], [`Robot::infer_eigen_grasps`]).
    pub fn apply_inference(&mut self, inferred: &HandInference) {
        self.approach = Some(inferred.approach.clone());
        for (d, role) in inferred.roles.iter().enumerate() {
            self.dofs[d].default_velocity = role.default_velocity();
            // A DOF that curls several joints of a finger (mimic joints, an underactuated
            // finger) wraps round what it meets, as GraspIt's breakaway DOFs do: a stopped
            // joint stays while the others close on.
            let joints = self.dof_joints(d).len();
            if matches!(role, DofRole::Closes { .. })
                && joints > 1
                && self.dofs[d].kind == DofKind::Rigid
            {
                self.dofs[d].kind = DofKind::Breakaway;
            }
        }
        // After the velocities: the eigengrasps turn the thumb that closes toward the fingers.
        if self.virtual_contacts.is_none() {
            self.virtual_contacts = Some(self.infer_virtual_contacts(inferred));
        }
        if self.eigen_grasps.is_none() {
            self.eigen_grasps = Some(self.infer_eigen_grasps(inferred));
        }
    }

    /// Puts each sliding DOF that closes (a parallel gripper's jaw) at the end of its range it
    /// closes from, and makes that its default: for files that say nothing of where a hand
    /// starts (URDF's zero is often the jaws shut).
    pub fn open_sliding_jaws(&mut self, inferred: &HandInference) {
        let mut values = self.dof_values.clone();
        for (d, role) in inferred.roles.iter().enumerate() {
            if let (DofRole::Closes { sense }, false) = (role, self.dof_is_revolute(d)) {
                let (lo, hi) = self.dof_limits(d);
                let open = if *sense > 0.0 { lo } else { hi };
                if open.is_finite() {
                    self.dofs[d].default_value = open;
                    values[d] = open;
                }
            }
        }
        self.dof_values = self.within_limits(&values);
        self.place_links();
    }

    /// The chains that end in a fingertip: those with links and no branch on their last
    /// joint.
    pub(super) fn finger_chains(&self) -> Vec<usize> {
        (0..self.chains.len())
            .filter(|&c| {
                let chain = &self.chains[c];
                let last = chain.joints.len().checked_sub(1);
                let branched = self.chains.iter().any(|other| {
                    other
                        .parent
                        .is_some_and(|p| Some(p.joint) == last && p.chain == c)
                });
                !chain.links.is_empty() && !branched
            })
            .collect()
    }

    /// Each finger's tip (its last link's box centre), world, were the DOFs at `values`.
    pub(super) fn fingertips(&self, fingers: &[usize], values: &[f64]) -> Vec<Point3<f64>> {
        let poses = self.link_poses_at(values);
        fingers
            .iter()
            .map(|&c| {
                let last = self.chains[c].links.len() - 1;
                let pose = poses[self.link_jacobian_index(c, last)];
                pose * bounding_centre(&self.chains[c].links[last].body)
            })
            .collect()
    }

    fn dof_motion(
        &self,
        values: &[f64],
        dof: usize,
        fingers: &[usize],
        tips: &[Point3<f64>],
    ) -> DofMotion {
        let (moved, step) = self.nudged(values, dof);
        let tips_moved = self.fingertips(fingers, &moved);
        let (lo, hi) = self.dof_limits(dof);
        let turn = std::f64::consts::PI;
        let revolute = self.dof_is_revolute(dof);
        let span = if revolute { turn } else { f64::INFINITY };
        let up = (hi - values[dof]).min(span);
        let down = (values[dof] - lo).min(span);
        DofMotion {
            tips: tips_moved
                .iter()
                .zip(tips)
                .map(|(after, before)| (after - before) / step)
                .collect(),
            forward_bias: if up.is_finite() && down.is_finite() {
                up - down
            } else {
                0.0
            },
            range: up + down,
            revolute,
            carries: self.dof_carries_fingers(dof, fingers),
        }
    }

    /// The DOF that turns a thumb to face the fingers, where the hand has one: the first DOF
    /// of the thumb (the finger whose tip lies at least 1.5 times further from the other tips
    /// than any other finger's does), when it closes and turns the thumb about the hand's
    /// length (palm to fingers) more than about any other axis. The Inspire's and Ability's
    /// thumb yaw, the Allegro's and LEAP's first thumb joint; GraspIt's human hand leaves this
    /// DOF out of Auto Grasp. A hand whose fingers close from a flat palm with the thumb
    /// beside them closes on nothing, so a batch starts the thumb turned halfway
    /// ([`crate::draw_aims`]).
    pub fn thumb_opposition(&self) -> Option<usize> {
        let fingers = self.finger_chains();
        let tips = self.fingertips(&fingers, &self.dof_values);
        let first = thumb_among(&tips)?;
        let thumb = fingers[first];
        let dof = self.chains[thumb].joints.first()?.coupling.dof;
        if self.dofs[dof].default_velocity == 0.0 {
            return None;
        }
        let approach = self.approach.as_ref()?;
        let facing = self.palm.pose.rotation * approach.direction.into_inner();
        let palm_centre = self.palm.pose * bounding_centre(&self.palm);
        let along = others_centre(&tips, first) - palm_centre;
        let length = Unit::try_new(along - facing * along.dot(&facing), STILL)?;
        let across = facing.cross(&length);
        let last = self.chains[thumb].links.len().checked_sub(1)?;
        let jacobian = &self.link_jacobians()[self.link_jacobian_index(thumb, last)];
        let axis: Vector3<f64> = jacobian.angular.column(dof).into();
        let about_length = axis.dot(&length).abs();
        (about_length > axis.dot(&facing).abs() && about_length > axis.dot(&across).abs())
            .then_some(dof)
    }

    /// How many fingers a DOF moves: one for a finger's own abduction, two for the Barrett's
    /// spread (a joint in each of two fingers), all of them for a wrist.
    pub(crate) fn fingers_moved_by(&self, dof: usize) -> usize {
        let joints = self.dof_joints(dof);
        let fingers = self.finger_chains();
        let moved = fingers.iter().filter(|&&f| {
            let moving = self.joints_moving_chain(f);
            joints.iter().any(|joint| moving.contains(joint))
        });
        moved.count()
    }

    /// Whether a DOF drives a joint that carries every finger, of two or more (a wrist). One
    /// that carries some (the Schunk SVH's thumb opposition, whose joint also curls the palm
    /// under the ring and little fingers) moves them as a finger's joint does.
    fn dof_carries_fingers(&self, dof: usize, fingers: &[usize]) -> bool {
        fingers.len() > 1
            && self.dof_joints(dof).into_iter().any(|joint| {
                fingers
                    .iter()
                    .all(|&f| self.joints_moving_chain(f).contains(&joint))
            })
    }

    /// The DOF values halfway from where the hand stands to where each closing DOF stops:
    /// the posture whose fingertips ring what the hand holds.
    fn half_closed(&self, roles: &[DofRole]) -> Vec<f64> {
        self.closed_by(roles, 0.5)
    }

    /// The DOF values `share` of the way from where the hand stands to where each closing DOF
    /// stops (its limit the way it closes, a turn at most).
    pub(super) fn closed_by(&self, roles: &[DofRole], share: f64) -> Vec<f64> {
        let mut values = self.dof_values.clone();
        for (d, role) in roles.iter().enumerate() {
            if let DofRole::Closes { sense } = role {
                let (lo, hi) = self.dof_limits(d);
                let end = if *sense > 0.0 { hi } else { lo };
                let span = std::f64::consts::PI;
                values[d] += share * (end - values[d]).clamp(-span, span);
            }
        }
        self.within_limits(&values)
    }

    /// The body the fingers grow from, and where it stands (world): the palm, or where a
    /// wrist stands before it (the Shadow's: the palm's body is its forearm, and two joints
    /// carry every finger), the link on the last joint that carries every finger.
    pub(super) fn finger_base(&self, fingers: &[usize]) -> (crate::Pose, &crate::body::Body) {
        let mut common: Option<Vec<(usize, usize)>> = None;
        for &f in fingers {
            let moving = self.joints_moving_chain(f);
            common = Some(match common {
                None => moving,
                Some(shared) => shared.into_iter().filter(|j| moving.contains(j)).collect(),
            });
        }
        // The joints every finger hangs from lie on one path from the palm: the last of them
        // is the deepest (its chain the most carried, then its place along the chain).
        let last = common
            .unwrap_or_default()
            .into_iter()
            .max_by_key(|&(c, j)| (self.chain_carriers(c).len(), j));
        let on_last = last.and_then(|(c, j)| {
            let links = &self.chains[c].links;
            let l = links.iter().position(|link| link.frame == Some(j))?;
            Some((
                self.link_poses_at(&self.dof_values)[self.link_jacobian_index(c, l)],
                &links[l].body,
            ))
        });
        on_last.unwrap_or((self.palm.pose, &self.palm))
    }

    /// The centre of the body the fingers grow from ([`Robot::finger_base`]), world.
    pub(super) fn finger_base_centre(&self, fingers: &[usize]) -> Point3<f64> {
        let (pose, body) = self.finger_base(fingers);
        pose * bounding_centre(body)
    }

    /// The approach in the palm's frame: facing `facing` (world), from the point of the face
    /// of the body the fingers grow from (`base`, where it stands) in line with `grip`
    /// (world), where the half-closed fingertips meet: an object the approach stops on sits
    /// between the fingers as they close.
    fn approach_on_palm(
        &self,
        facing: Unit<Vector3<f64>>,
        grip: Point3<f64>,
        (base_pose, base): (crate::Pose, &crate::body::Body),
    ) -> HandApproach {
        let direction =
            Unit::new_normalize(self.palm.pose.rotation.inverse() * facing.into_inner());
        // The base in the palm's frame: itself where it is the palm.
        let in_palm = self.palm.pose.inverse() * base_pose;
        let centre = in_palm * bounding_centre(base);
        let grip = self.palm.pose.inverse() * grip;
        let across = (grip - centre) - direction.into_inner() * (grip - centre).dot(&direction);
        let centre = centre + across;
        let face = base
            .mesh()
            .vertices()
            .iter()
            .map(|v| (in_palm * v - centre).dot(&direction))
            .fold(0.0, f64::max);
        HandApproach {
            reference: centre + direction.into_inner() * face,
            direction,
        }
    }
}

/// The way the palm faces (world): where the fingers close (module docs).
fn facing(
    motions: &[DofMotion],
    tips: &[Point3<f64>],
    palm_centre: Point3<f64>,
    doubts: &mut Vec<String>,
) -> Unit<Vector3<f64>> {
    let weighed = motions
        .iter()
        .filter(|m| m.revolute && !m.carries)
        .flat_map(|m| m.tips.iter().map(move |v| v * m.forward_bias));
    let (closing, total) = weighed.fold((Vector3::zeros(), 0.0), |(sum, total), v| {
        (sum + v, total + v.norm())
    });
    // Fingers ringed round an axis (a three-finger claw) curl toward each other: their
    // motions cancel, and the palm faces its fingertips instead.
    if closing.norm() >= AGREEING * total
        && let Some(direction) = Unit::try_new(closing, STILL)
    {
        return direction;
    }
    let turning = motions.iter().any(|m| m.revolute && !m.carries);
    match (turning, total > STILL) {
        (true, true) => doubts.push(format!(
            "the fingers close into each other (their closing motions add up to {:.0} % of \
             their lengths): the palm is taken to face its fingertips",
            100.0 * closing.norm() / total
        )),
        (true, false) => doubts.push(
            "no finger joint turns further one way than the other: the palm is taken to face \
             its fingertips"
                .to_owned(),
        ),
        // A gripper's jaws slide: its palm faces them, no doubt.
        (false, _) => {}
    }
    let tips_centre = centroid(tips.iter()).unwrap_or(palm_centre);
    Unit::try_new(tips_centre - palm_centre, STILL).unwrap_or(Vector3::z_axis())
}

/// A DOF's role: closing where its fingertips move toward `centre`, by the sense they do, or
/// else, for a one-sided DOF, toward the other fingertips (a thumb curling to meet the
/// fingers); a spread moves a finger across both, or turns as far each way.
fn role(motion: &DofMotion, tips: &[Point3<f64>], centre: &Point3<f64>) -> DofRole {
    if motion.carries {
        return DofRole::Carries;
    }
    let speed: f64 = motion.tips.iter().map(|v| v.norm()).sum();
    if speed < STILL {
        return DofRole::Spreads;
    }
    let toward = |target: &dyn Fn(usize) -> Point3<f64>| -> f64 {
        motion
            .tips
            .iter()
            .zip(tips)
            .enumerate()
            .filter(|(_, (v, _))| v.norm() > STILL)
            .filter_map(|(t, (v, tip))| {
                Some(v.dot(&Unit::try_new(target(t) - tip, STILL)?.into_inner()))
            })
            .sum()
    };
    let to_centre = toward(&|_| *centre);
    if to_centre.abs() >= CLOSING_SHARE * speed {
        return DofRole::Closes {
            sense: to_centre.signum(),
        };
    }
    let to_others = toward(&|t| others_centre(tips, t));
    match motion.one_sided() && to_others.abs() >= CLOSING_SHARE * speed {
        true => DofRole::Closes {
            sense: to_others.signum(),
        },
        false => DofRole::Spreads,
    }
}

/// The grasp centre: in front of the palm (facing `facing` from `palm_centre`), as far as the
/// fingertips reach from it on average.
pub(super) fn grasp_centre(
    palm_centre: Point3<f64>,
    facing: Unit<Vector3<f64>>,
    tips: &[Point3<f64>],
) -> Point3<f64> {
    let reach =
        tips.iter().map(|t| (t - palm_centre).norm()).sum::<f64>() / tips.len().max(1) as f64;
    palm_centre + facing.into_inner() * reach
}

/// Which of the fingertips is a thumb's: the one lying at least [`THUMB_APART`] times further
/// from the others than any other does, of three fingers or more.
pub(super) fn thumb_among(tips: &[Point3<f64>]) -> Option<usize> {
    if tips.len() < 3 {
        return None;
    }
    let apart: Vec<f64> = (0..tips.len())
        .map(|t| (tips[t] - others_centre(tips, t)).norm())
        .collect();
    let mut order: Vec<usize> = (0..tips.len()).collect();
    order.sort_by(|&a, &b| apart[b].total_cmp(&apart[a]));
    let (first, second) = (order[0], order[1]);
    (apart[first] >= THUMB_APART * apart[second]).then_some(first)
}

/// The centre of every fingertip but `t` (`t`'s own where it is the only one).
pub(super) fn others_centre(tips: &[Point3<f64>], t: usize) -> Point3<f64> {
    let others = tips
        .iter()
        .enumerate()
        .filter(|&(k, _)| k != t)
        .map(|(_, p)| p);
    centroid(others).unwrap_or(tips[t])
}

/// The mean of some points; `None` for none.
fn centroid<'a>(points: impl Iterator<Item = &'a Point3<f64>>) -> Option<Point3<f64>> {
    let (sum, count) = points.fold((Vector3::zeros(), 0), |(sum, n), p| (sum + p.coords, n + 1));
    (count > 0).then(|| Point3::from(sum / f64::from(count)))
}

/// The centre of a body's bounding box, in its own frame (its origin where it has no mesh).
fn bounding_centre(body: &crate::body::Body) -> Point3<f64> {
    if body.mesh().is_empty() {
        return Point3::origin();
    }
    let (lo, hi) = body.mesh().bounding_box();
    nalgebra::center(&lo, &hi)
}
