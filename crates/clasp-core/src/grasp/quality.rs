//! Contact wrenches, grasp wrench spaces and grasp quality (graspit-spec §4.2, §8).
//!
//! A contact pushes the object with a unit normal force plus friction up to μ times it; each
//! friction edge gives one wrench (force, torque about the object's centre of gravity divided by
//! the object's largest radius, so that torques weigh like forces). The grasp wrench space is the
//! hull of the union of every contact's wrenches (L1: the normal forces sum to at most 1) or of
//! their Minkowski sum (L∞: each normal force is at most 1). Its epsilon quality is the radius of
//! the largest ball round the origin inside it; its volume quality is its 6D volume.

use std::{fmt, str::FromStr};

use nalgebra::{Point3, Vector3};

use super::hull::{
    joggle::{HullError, origin_depth},
    polytope::Hull,
};
use crate::pose::Pose;

/// Force (x, y, z) then torque (x, y, z), in the object's frame.
pub type Wrench = [f64; 6];

/// Below this depth the origin counts as on the boundary: not force-closure.
const FORCE_CLOSURE_DEPTH: f64 = 1e-9;
/// The most points an L∞ wrench space may gather before its hull is taken.
const MINKOWSKI_LIMIT: usize = 10_000;

/// How contact wrenches combine into the grasp wrench space.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WrenchSpaceKind {
    /// GraspIt's "L1 Norm": the hull of the union; the sum of normal forces is at most 1.
    #[default]
    L1,
    /// GraspIt's "LInfinity Norm": the hull of the Minkowski sum; each normal force is at most 1.
    LInfinity,
}

impl WrenchSpaceKind {
    pub fn name(self) -> &'static str {
        match self {
            WrenchSpaceKind::L1 => "l1",
            WrenchSpaceKind::LInfinity => "linf",
        }
    }
}

impl FromStr for WrenchSpaceKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "l1" => Ok(WrenchSpaceKind::L1),
            "linf" | "l-inf" | "linfinity" => Ok(WrenchSpaceKind::LInfinity),
            _ => Err(format!(
                "unknown wrench space {s:?}: use l1 (union) or linf (Minkowski sum)"
            )),
        }
    }
}

/// Why a quality could not be computed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum QualityError {
    #[error("a contact wrench has a coordinate that is not a finite number")]
    NonFinite,
    #[error(
        "the L-infinity wrench space of {contacts} contacts is too large to build (more than \
         {MINKOWSKI_LIMIT} wrenches); use the L1 wrench space"
    )]
    TooLarge { contacts: usize },
    #[error("the wrench space hull could not be built: {0}")]
    Hull(HullError),
}

/// A grasp's quality in its wrench space.
#[derive(Debug, Clone, PartialEq)]
pub struct Quality {
    pub wrench_space: WrenchSpaceKind,
    /// The origin lies strictly inside the wrench space: the contacts can resist any wrench.
    pub force_closure: bool,
    /// The Ferrari–Canny epsilon, the radius of the largest origin-centred ball inside the
    /// wrench space; `None` when the grasp is not force-closure (GraspIt says −1).
    pub epsilon: Option<f64>,
    /// The wrench space's 6D volume (0 when it is flat), when asked for: it needs the whole
    /// hull, which costs far more than epsilon.
    pub volume: Option<f64>,
    pub contacts: usize,
    pub wrenches: usize,
}

impl fmt::Display for Quality {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.epsilon {
            Some(epsilon) => write!(f, "epsilon {epsilon:.6}")?,
            None => write!(f, "not force-closure")?,
        }
        if let Some(volume) = self.volume {
            write!(f, ", volume {volume:.6e}")?;
        }
        write!(
            f,
            " ({} wrench space, {} contacts)",
            self.wrench_space.name(),
            self.contacts
        )
    }
}

/// One contact's wrenches on the object: one per friction edge, for a unit normal force.
///
/// `frame` is the object-side contact frame in the object's frame (z into the object), `edges`
/// the friction edges in that frame (fx, fy, fz, τx, τy, τz; see [`crate::contact::soft`]), `friction`
/// the Coulomb coefficient. Torques are about `cog` and divided by `max_radius`.
pub fn contact_wrenches(
    frame: &Pose,
    edges: &[[f64; 6]],
    friction: f64,
    cog: &Point3<f64>,
    max_radius: f64,
) -> Vec<Wrench> {
    let axis = |v: Vector3<f64>| frame.rotation * v;
    let (tangent_x, tangent_y, normal) =
        (axis(Vector3::x()), axis(Vector3::y()), axis(Vector3::z()));
    let lever = frame.translation.vector - cog.coords;
    edges
        .iter()
        .map(|e| {
            let force = normal + friction * (e[0] * tangent_x + e[1] * tangent_y);
            let torque = (lever.cross(&force) + normal * (friction * e[5])) / max_radius;
            [force.x, force.y, force.z, torque.x, torque.y, torque.z]
        })
        .collect()
}

/// The epsilon quality and force closure of a grasp whose contacts push with `contacts` (each
/// contact's wrenches); `with_volume` also builds the whole hull for the volume quality.
pub fn quality(
    contacts: &[Vec<Wrench>],
    kind: WrenchSpaceKind,
    with_volume: bool,
) -> Result<Quality, QualityError> {
    if contacts.iter().flatten().flatten().any(|x| !x.is_finite()) {
        return Err(QualityError::NonFinite);
    }
    let points = match kind {
        WrenchSpaceKind::L1 => distinct(contacts.iter().flatten().copied().collect()),
        WrenchSpaceKind::LInfinity => minkowski_sum(contacts)?,
    };
    if !with_volume && epsilon_bound(&points) <= 0.0 {
        return Ok(Quality {
            wrench_space: kind,
            force_closure: false,
            epsilon: None,
            volume: None,
            contacts: contacts.len(),
            wrenches: contacts.iter().map(Vec::len).sum(),
        });
    }
    let depth = match origin_depth(6, &rows(&points)) {
        Ok(depth) => depth,
        // A flat wrench space leaves some wrench unresisted and has no volume.
        Err(HullError::Flat { .. }) => 0.0,
        Err(e) => return Err(QualityError::Hull(e)),
    };
    let force_closure = depth > FORCE_CLOSURE_DEPTH;
    let volume = match with_volume {
        false => None,
        true => Some(match hull(&points) {
            Ok(hull) => hull.volume(),
            Err(HullError::Flat { .. }) => 0.0,
            Err(e) => return Err(QualityError::Hull(e)),
        }),
    };
    Ok(Quality {
        wrench_space: kind,
        force_closure,
        epsilon: force_closure.then_some(depth),
        volume,
        contacts: contacts.len(),
        wrenches: contacts.iter().map(Vec::len).sum(),
    })
}

/// An upper bound on the epsilon quality of the wrenches `points`, found without their hull:
/// a ball round the origin inside the hull reaches no farther in any direction than the
/// farthest wrench does, so the least of those reaches (along each axis both ways, and
/// against the wrenches' sum) bounds its radius. At or below 0 the origin is not inside and
/// the grasp is not force-closure. Most states a planner's search scores press the object one
/// way (their contacts on one side) and are known as such here.
pub fn epsilon_bound(points: &[Wrench]) -> f64 {
    let reach = |d: &Wrench| {
        points
            .iter()
            .map(|w| w.iter().zip(d).map(|(a, b)| a * b).sum::<f64>())
            .fold(f64::NEG_INFINITY, f64::max)
    };
    let axes = (0..12).map(|k| {
        let mut d = [0.0; 6];
        d[k / 2] = if k % 2 == 0 { 1.0 } else { -1.0 };
        d
    });
    let sum = points.iter().fold([0.0; 6], |mut s, w| {
        s.iter_mut().zip(w).for_each(|(s, x)| *s += x);
        s
    });
    let length = sum.iter().map(|x| x * x).sum::<f64>().sqrt();
    // A zero sum gives no direction.
    let against_sum = (length > 0.0).then(|| sum.map(|x| -x / length));
    axes.chain(against_sum)
        .map(|d| reach(&d))
        .fold(f64::INFINITY, f64::min)
}

fn hull(points: &[Wrench]) -> Result<Hull, HullError> {
    Hull::new(6, &rows(points))
}

/// The wrenches as the hull's rows of coordinates.
fn rows(points: &[Wrench]) -> Vec<&[f64]> {
    points.iter().map(|p| p.as_slice()).collect()
}

/// The points without exact repeats (a frictionless contact's edges all give one wrench), in a
/// fixed order.
fn distinct(mut points: Vec<Wrench>) -> Vec<Wrench> {
    points.sort_by(|a, b| {
        a.iter()
            .zip(b)
            .map(|(x, y)| x.total_cmp(y))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    points.dedup();
    points
}

/// The corners of the Minkowski sum of every contact's wrenches together with the origin (a
/// contact may push or not): summed one contact at a time, keeping only the hull's corners of
/// each partial sum, which is exact because a sum's corners are sums of corners.
fn minkowski_sum(contacts: &[Vec<Wrench>]) -> Result<Vec<Wrench>, QualityError> {
    let mut sum: Vec<Wrench> = vec![[0.0; 6]];
    for wrenches in contacts {
        let mut next = sum.clone();
        for s in &sum {
            next.extend(
                wrenches
                    .iter()
                    .map(|w| std::array::from_fn(|i| s[i] + w[i])),
            );
        }
        if next.len() > MINKOWSKI_LIMIT {
            return Err(QualityError::TooLarge {
                contacts: contacts.len(),
            });
        }
        let next = distinct(next);
        sum = match hull(&next) {
            Ok(hull) => hull.vertices().into_iter().map(|i| next[i]).collect(),
            // Until the partial sum spans all six dimensions every point is kept.
            Err(HullError::Flat { .. }) => next,
            Err(e) => return Err(QualityError::Hull(e)),
        };
    }
    Ok(sum)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::{contact_frame, soft::friction::pyramid_edges};
    use nalgebra::Unit;

    const RADIUS: f64 = 20.0;

    /// The wrenches of point contacts on a sphere of `RADIUS` round the origin, at the given
    /// outward directions.
    fn sphere_grasp(directions: &[Vector3<f64>], friction: f64, edges: usize) -> Vec<Vec<Wrench>> {
        directions
            .iter()
            .map(|d| {
                let outward = d.normalize();
                let point = Point3::from(outward * RADIUS);
                let frame = contact_frame(point, Unit::new_unchecked(-outward));
                contact_wrenches(
                    &frame,
                    &pyramid_edges(edges),
                    friction,
                    &Point3::origin(),
                    RADIUS,
                )
            })
            .collect()
    }

    fn equator(count: usize) -> Vec<Vector3<f64>> {
        (0..count)
            .map(|k| {
                let angle = std::f64::consts::TAU * k as f64 / count as f64;
                Vector3::new(angle.cos(), angle.sin(), 0.0)
            })
            .collect()
    }

    fn tetrahedron() -> Vec<Vector3<f64>> {
        vec![
            Vector3::new(1.0, 1.0, 1.0),
            Vector3::new(1.0, -1.0, -1.0),
            Vector3::new(-1.0, 1.0, -1.0),
            Vector3::new(-1.0, -1.0, 1.0),
        ]
    }

    fn epsilon(contacts: &[Vec<Wrench>]) -> Option<f64> {
        quality(contacts, WrenchSpaceKind::L1, false)
            .unwrap()
            .epsilon
    }

    /// The radius of the largest origin-centred ball inside the hull of `points`, from every
    /// hyperplane through six of them that has all the points on one side: slow, obviously
    /// right, and independent of the quickhull (planes from an SVD, every subset tried).
    fn brute_force_epsilon(points: &[Wrench]) -> f64 {
        use nalgebra::{Matrix6, Vector6};
        let n = points.len();
        let mut best = f64::INFINITY;
        let mut pick: [usize; 6] = std::array::from_fn(|i| i);
        loop {
            let base = Vector6::from(points[pick[0]]);
            let mut m = Matrix6::zeros();
            for (row, &i) in pick[1..].iter().enumerate() {
                m.set_row(row, &(Vector6::from(points[i]) - base).transpose());
            }
            let svd = m.svd(false, true);
            let rank = svd.singular_values.iter().filter(|s| **s > 1e-9).count();
            if rank == 5 {
                let (smallest, _) = svd.singular_values.argmin();
                let normal: Vector6<f64> = svd.v_t.unwrap().row(smallest).transpose();
                let offset = normal.dot(&base);
                let side = |p: &Wrench| normal.dot(&Vector6::from(*p)) - offset;
                if points.iter().all(|p| side(p) <= 1e-9) {
                    best = best.min(offset);
                } else if points.iter().all(|p| side(p) >= -1e-9) {
                    best = best.min(-offset);
                }
            }
            // The next 6-subset in lexicographic order.
            let Some(k) = (0..6).rev().find(|&k| pick[k] < n - 6 + k) else {
                return best;
            };
            pick[k] += 1;
            for j in k + 1..6 {
                pick[j] = pick[j - 1] + 1;
            }
        }
    }

    #[test]
    fn two_opposing_point_contacts_cannot_resist_a_twist_about_their_line() {
        let grasp = sphere_grasp(&[Vector3::x(), -Vector3::x()], 1.0, 8);
        let q = quality(&grasp, WrenchSpaceKind::L1, true).unwrap();
        assert!(!q.force_closure);
        assert_eq!(q.epsilon, None);
        assert_eq!(
            q.volume,
            Some(0.0),
            "no torque about x: a flat wrench space"
        );
        assert!(q.to_string().starts_with("not force-closure"));
    }

    #[test]
    fn frictionless_fingers_are_not_force_closure() {
        for count in [2, 3, 4] {
            let grasp = sphere_grasp(&equator(count), 0.0, 8);
            assert_eq!(epsilon(&grasp), None, "{count} frictionless fingers");
        }
        assert_eq!(epsilon(&sphere_grasp(&tetrahedron(), 0.0, 8)), None);
    }

    #[test]
    fn three_and_four_fingers_with_friction_match_the_brute_force_epsilon() {
        // Few edges keep the oracle's C(n, 6) planes affordable.
        for (directions, friction, edges) in [
            (equator(3), 0.5, 8),
            (equator(4), 0.3, 4),
            (tetrahedron(), 0.4, 4),
            (tetrahedron(), 1.0, 6),
        ] {
            let grasp = sphere_grasp(&directions, friction, edges);
            let found = epsilon(&grasp).expect("force-closure");
            let points = distinct(grasp.concat());
            let expected = brute_force_epsilon(&points);
            assert!(
                (found - expected).abs() < 1e-6,
                "{} fingers, μ {friction}: {found} vs {expected}",
                directions.len()
            );
        }
    }

    /// The epsilon of true (circular) friction cones on the sphere, from their closed-form
    /// support function h(a, b) = max over contacts of n·a + μ|P(a) + n × b| (P projects onto
    /// the tangent plane), minimised over unit directions by sampling and local descent. It is
    /// an upper bound of the true minimum, tight to round-off once the descent converges.
    fn circular_cone_epsilon(directions: &[Vector3<f64>], friction: f64) -> f64 {
        let normals: Vec<Vector3<f64>> = directions.iter().map(|d| -d.normalize()).collect();
        let support = |u: &nalgebra::Vector6<f64>| {
            let u = u.normalize();
            let (a, b) = (
                u.fixed_rows::<3>(0).into_owned(),
                u.fixed_rows::<3>(3).into_owned(),
            );
            normals
                .iter()
                .map(|n| {
                    let tangential = a - n * n.dot(&a) + n.cross(&b);
                    n.dot(&a) + friction * tangential.norm()
                })
                .fold(f64::NEG_INFINITY, f64::max)
        };
        let mut rand = crate::grasp::hull::joggle::tests::uniform(12345);
        let mut starts: Vec<(f64, nalgebra::Vector6<f64>)> = (0..20_000)
            .map(|_| {
                let u = nalgebra::Vector6::from_fn(|_, _| rand());
                (support(&u), u)
            })
            .collect();
        starts.sort_by(|x, y| x.0.total_cmp(&y.0));
        let mut best = f64::INFINITY;
        for (mut value, mut u) in starts.into_iter().take(20) {
            // A random pattern search: the step shrinks only after ten misses in a row, so
            // that a lucky or unlucky stream of draws does not decide where it stops.
            let (mut step, mut misses) = (0.1, 0);
            while step > 1e-9 {
                let trial = u + nalgebra::Vector6::from_fn(|_, _| rand() * step);
                let v = support(&trial);
                if v < value {
                    (value, u, misses) = (v, trial.normalize(), 0);
                } else if misses == 9 {
                    (step, misses) = (step * 0.7, 0);
                } else {
                    misses += 1;
                }
            }
            best = best.min(value);
        }
        best
    }

    #[test]
    fn fine_pyramids_bracket_the_epsilon_of_true_friction_cones() {
        // An m-edge pyramid of μ lies inside the circular cone of μ, and the pyramid of
        // μ / cos(π/m) contains it: the cone's epsilon lies between theirs, a bracket that
        // must close as m grows. The cone's closed-form support function, minimised by
        // sampling, is an upper bound of its epsilon: it must not fall below the bracket.
        let m = 64;
        let widen = 1.0 / (std::f64::consts::PI / m as f64).cos();
        for (directions, friction) in [(equator(3), 0.5), (tetrahedron(), 0.4), (equator(4), 1.0)] {
            let lower = epsilon(&sphere_grasp(&directions, friction, m)).unwrap();
            let upper = epsilon(&sphere_grasp(&directions, friction * widen, m)).unwrap();
            assert!(lower < upper && upper < 1.005 * lower, "[{lower}, {upper}]");
            let sampled = circular_cone_epsilon(&directions, friction);
            assert!(sampled >= lower - 1e-6, "sampled {sampled} below {lower}");
            let coarse = epsilon(&sphere_grasp(&directions, friction, 8)).unwrap();
            assert!(
                coarse < lower,
                "8 edges lose some of the cone: {coarse} vs {lower}"
            );
        }
        // Two opposing fingers: a twist about their line meets h = 0, whatever μ.
        let twist = circular_cone_epsilon(&[Vector3::x(), -Vector3::x()], 0.8);
        assert!(twist < 1e-6, "{twist}");
    }

    /// Grasps of 3, 4, 5 and 6 point contacts at random on the sphere, `each` of every count,
    /// with random friction, drawn from `seed`.
    fn random_grasps(seed: u64, each: usize) -> Vec<(usize, Vec<Vec<Wrench>>)> {
        let mut rand = crate::grasp::hull::joggle::tests::uniform(seed);
        let mut grasps = Vec::new();
        for count in [3, 4, 5, 6] {
            for _ in 0..each {
                let directions: Vec<Vector3<f64>> = (0..count)
                    .map(|_| Vector3::new(rand(), rand(), rand()))
                    .collect();
                grasps.push((count, sphere_grasp(&directions, 0.2 + rand().abs(), 8)));
            }
        }
        grasps
    }

    #[test]
    fn the_depth_search_agrees_with_the_whole_hull() {
        let mut closures = 0;
        for (count, grasp) in random_grasps(5, 4) {
            let q = quality(&grasp, WrenchSpaceKind::L1, false).unwrap();
            let whole = hull(&distinct(grasp.concat())).unwrap().origin_depth();
            assert_eq!(
                q.force_closure,
                whole > FORCE_CLOSURE_DEPTH,
                "{count} contacts"
            );
            if let Some(epsilon) = q.epsilon {
                closures += 1;
                assert!((epsilon - whole).abs() < 1e-5, "{epsilon} vs {whole}");
            }
        }
        assert!(
            closures >= 4,
            "too few force-closure grasps to compare: {closures}"
        );
    }

    #[test]
    fn the_bound_found_without_the_hull_is_never_below_the_epsilon() {
        let mut closures = 0;
        for (_, grasp) in random_grasps(7, 6) {
            let whole = hull(&distinct(grasp.concat())).unwrap().origin_depth();
            let bound = epsilon_bound(&grasp.concat());
            assert!(bound >= whole - 1e-9, "{bound} < {whole}");
            closures += usize::from(whole > FORCE_CLOSURE_DEPTH);
        }
        assert!(closures >= 4, "too few force-closure grasps: {closures}");
    }

    #[test]
    fn fingers_all_on_one_side_are_known_not_force_closure_without_the_hull() {
        // Three fingers on the +x half, pressing towards -x: nothing pushes the object +x.
        let directions = [
            Vector3::new(1.0, 0.3, 0.0),
            Vector3::new(1.0, -0.3, 0.2),
            Vector3::new(1.0, 0.0, -0.4),
        ];
        let grasp = sphere_grasp(&directions, 0.3, 8);
        assert!(epsilon_bound(&grasp.concat()) <= 0.0);
        assert_eq!(epsilon(&grasp), None);
    }

    #[test]
    fn epsilon_grows_with_friction() {
        let mut last = 0.0;
        for friction in [0.1, 0.2, 0.4, 0.7, 1.0] {
            let e = epsilon(&sphere_grasp(&tetrahedron(), friction, 8)).unwrap();
            assert!(e > last, "μ {friction}: {e} ≤ {last}");
            last = e;
        }
    }

    #[test]
    fn the_same_grasp_gives_the_same_numbers() {
        let grasp = sphere_grasp(&equator(3), 0.5, 8);
        let first = quality(&grasp, WrenchSpaceKind::L1, true).unwrap();
        for _ in 0..3 {
            assert_eq!(quality(&grasp, WrenchSpaceKind::L1, true).unwrap(), first);
        }
    }

    #[test]
    fn the_l_infinity_space_contains_the_l1_space() {
        let grasp = sphere_grasp(&equator(3), 0.5, 4);
        let l1 = quality(&grasp, WrenchSpaceKind::L1, true).unwrap();
        let linf = quality(&grasp, WrenchSpaceKind::LInfinity, true).unwrap();
        assert!(linf.force_closure);
        assert!(linf.epsilon.unwrap() > l1.epsilon.unwrap());
        assert!(linf.volume > l1.volume);
        // With one contact the two spaces are one cone and its base: the same hull.
        let single = sphere_grasp(&[Vector3::x()], 0.5, 8);
        let a = quality(&single, WrenchSpaceKind::L1, true).unwrap();
        let b = quality(&single, WrenchSpaceKind::LInfinity, true).unwrap();
        assert_eq!((a.force_closure, b.force_closure), (false, false));
    }

    #[test]
    fn bad_wrenches_are_refused() {
        let mut grasp = sphere_grasp(&equator(3), 0.5, 8);
        grasp[1][2][4] = f64::NAN;
        assert_eq!(
            quality(&grasp, WrenchSpaceKind::L1, false),
            Err(QualityError::NonFinite)
        );
        assert_eq!("L1".parse(), Ok(WrenchSpaceKind::L1));
        assert_eq!("linf".parse(), Ok(WrenchSpaceKind::LInfinity));
        assert!("l2".parse::<WrenchSpaceKind>().is_err());
    }

    #[test]
    fn an_empty_grasp_is_not_force_closure() {
        let q = quality(&[], WrenchSpaceKind::L1, true).unwrap();
        assert!(!q.force_closure);
        assert_eq!(q.volume, Some(0.0));
    }
}
