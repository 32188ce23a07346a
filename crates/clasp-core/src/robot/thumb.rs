//! Where a grasp starts a thumb: turned to face the fingers across the grasp. A batch starts
//! the thumb's turn toward the fingers halfway closed ([`Robot::thumb_opposition`]); on a hand
//! whose thumb must first be lifted off the palm before its turn opposes the fingers (the
//! Shadow's THJ4 before its THJ5), that leaves the thumb beside the fingers, and the hand
//! closes round nothing. So the thumb's first two DOFs are searched over their ranges for
//! the posture that sets the thumb's tip most nearly opposite the fingertips across the grasp.

use nalgebra::{Point3, Unit};

use super::{
    Robot,
    inference::{DofRole, ONE_SIDED, grasp_centre, others_centre, thumb_among},
};

/// Values tried of each of the thumb's first two DOFs, ends included.
const STEPS: usize = 5;

/// How far each closing DOF is closed where the opposition is judged: the fingers curled a
/// little toward what they will hold.
const CURLED: f64 = 0.3;

/// The halfway turn leaves the thumb beside the fingers where the cosine of the angle at the
/// grasp centre between the thumb's tip and the fingertips is above this (the Shadow's 0.79);
/// hands whose halfway turn opposes keep it (the Inspire's 0.66, the Ability's 0.47, the
/// LEAP's 0.42, the Allegro's 0.36: measured on dex-urdf's hands).
const BESIDE: f64 = 0.7;

/// How much lower that cosine the searched posture must make it to be taken instead (the
/// Shadow's 0.79 to 0.11).
const OPPOSITION_GAIN: f64 = 0.3;

impl Robot {
    /// The DOF values a grasp starts the thumb at, its turn toward the fingers being DOF
    /// `opposition` ([`Robot::thumb_opposition`]): the turn halfway closed (`halfway`), or,
    /// where that leaves the thumb beside the fingers, the thumb's first two DOFs where they
    /// best oppose them (module docs).
    pub fn thumb_start(
        &self,
        roles: &[DofRole],
        opposition: usize,
        halfway: f64,
    ) -> Vec<(usize, f64)> {
        let turned = vec![(opposition, halfway)];
        let Some(judge) = OppositionJudge::new(self) else {
            return turned;
        };
        let pair = judge.thumb_dofs(self, roles);
        let [first, second] = pair[..] else {
            return turned;
        };
        let halfway_cos = judge.cosine(self, roles, &turned);
        if halfway_cos <= BESIDE {
            return turned;
        }
        let ranges = [first, second].map(|d| self.dof_limits(d));
        if ranges
            .iter()
            .any(|(lo, hi)| !(lo.is_finite() && hi.is_finite()))
        {
            return turned;
        }
        let at = |(lo, hi): (f64, f64), k: usize| lo + (hi - lo) * k as f64 / (STEPS - 1) as f64;
        let best = (0..STEPS * STEPS)
            .map(|k| {
                vec![
                    (first, at(ranges[0], k / STEPS)),
                    (second, at(ranges[1], k % STEPS)),
                ]
            })
            .map(|posture| (judge.cosine(self, roles, &posture), posture))
            .min_by(|a, b| a.0.total_cmp(&b.0));
        match best {
            Some((cos, posture)) if cos < halfway_cos - OPPOSITION_GAIN => posture,
            _ => turned,
        }
    }
}

/// What the opposition of a thumb posture is judged against: the fingers, which is the
/// thumb, and the grasp centre in front of the palm.
struct OppositionJudge {
    fingers: Vec<usize>,
    thumb: usize,
    centre: Point3<f64>,
}

impl OppositionJudge {
    fn new(hand: &Robot) -> Option<Self> {
        let fingers = hand.finger_chains();
        let tips = hand.fingertips(&fingers, &hand.dof_values);
        let thumb = thumb_among(&tips)?;
        let approach = hand.approach.as_ref()?;
        let facing = Unit::new_normalize(hand.palm.pose.rotation * approach.direction.into_inner());
        let centre = grasp_centre(hand.finger_base_centre(&fingers), facing, &tips);
        Some(Self {
            fingers,
            thumb,
            centre,
        })
    }

    /// The thumb's first two DOFs, in its chain's order (none that carries other fingers).
    fn thumb_dofs(&self, hand: &Robot, roles: &[DofRole]) -> Vec<usize> {
        let mut dofs: Vec<usize> = Vec::new();
        for joint in &hand.chains[self.fingers[self.thumb]].joints {
            let dof = joint.coupling.dof;
            if roles.get(dof) != Some(&DofRole::Carries) && !dofs.contains(&dof) {
                dofs.push(dof);
            }
        }
        dofs.truncate(2);
        dofs
    }

    /// The DOF values the opposition is judged at: the thumb at `posture`, every other closing
    /// DOF [`CURLED`] closed.
    fn posture(&self, hand: &Robot, roles: &[DofRole], posture: &[(usize, f64)]) -> Vec<f64> {
        let mut values = hand.closed_by(roles, CURLED);
        for &(d, value) in posture {
            values[d] = value;
        }
        hand.within_limits(&values)
    }

    /// The cosine of the angle at the grasp centre between the thumb's tip and the other
    /// fingertips, the thumb at `posture` and every other closing DOF [`CURLED`] closed: −1
    /// where the thumb stands right opposite them.
    fn cosine(&self, hand: &Robot, roles: &[DofRole], posture: &[(usize, f64)]) -> f64 {
        let values = self.posture(hand, roles, posture);
        let tips = hand.fingertips(&self.fingers, &values);
        let thumb = tips[self.thumb] - self.centre;
        let fingers = others_centre(&tips, self.thumb) - self.centre;
        match thumb.norm() * fingers.norm() {
            0.0 => 1.0,
            lengths => thumb.dot(&fingers) / lengths,
        }
    }
}

/// A hand's fingertips lead its approach where they stand ahead of the fingers' base, along
/// the way the palm faces, by more than this share of their distance from it: a claw's
/// fingers point along its approach (the D'Claw's, 0.9), a hand's lie along its palm.
const CLAW_LEAD: f64 = 0.7;

/// How far a claw's fingers start opened: this share of the way from where they stand to the
/// end they open toward.
const CLAW_OPEN: f64 = 0.3;

impl Robot {
    /// Where a grasp starts a claw's fingers: a hand whose fingertips lead its approach (its
    /// fingers point the way it moves in) would meet what it grasps fingertips first and close
    /// on nothing, so each finger's first closing DOF that turns about as far each way starts
    /// turned out, opening the fingers round the object. Empty for any other hand.
    pub fn claw_start(&self, roles: &[DofRole]) -> Vec<(usize, f64)> {
        let fingers = self.finger_chains();
        let Some(approach) = self.approach.as_ref() else {
            return Vec::new();
        };
        let facing = self.palm.pose.rotation * approach.direction.into_inner();
        let base_centre = self.finger_base_centre(&fingers);
        let tips = self.fingertips(&fingers, &self.dof_values);
        let (ahead, apart) = tips.iter().fold((0.0, 0.0), |(ahead, apart), t| {
            (
                ahead + (t - base_centre).dot(&facing),
                apart + (t - base_centre).norm(),
            )
        });
        if tips.is_empty() || ahead < CLAW_LEAD * apart {
            return Vec::new();
        }
        let first_knuckle = |f: usize| {
            self.chains[f].joints.iter().find_map(|j| {
                let d = j.coupling.dof;
                match roles.get(d) {
                    Some(DofRole::Closes { sense }) if self.turns_both_ways(d) => Some((d, *sense)),
                    _ => None,
                }
            })
        };
        let open = |(d, sense): (usize, f64)| {
            let (lo, hi) = self.dof_limits(d);
            let end = if sense > 0.0 { lo } else { hi };
            let now = self.dof_values[d];
            (d, now + CLAW_OPEN * (end - now))
        };
        fingers
            .iter()
            .filter_map(|&f| first_knuckle(f))
            .map(open)
            .collect()
    }

    /// Whether DOF `d` can turn about as far each way from where it stands (within
    /// [`ONE_SIDED`] of its range), as a claw's knuckles can, unlike a finger's flexing joints.
    fn turns_both_ways(&self, d: usize) -> bool {
        let (lo, hi) = self.dof_limits(d);
        let now = self.dof_values[d];
        lo.is_finite() && hi.is_finite() && ((hi - now) - (now - lo)).abs() < ONE_SIDED * (hi - lo)
    }
}
