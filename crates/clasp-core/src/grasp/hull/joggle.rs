//! Building a hull, or finding only the origin's depth in it: the points checked, then joggled
//! into general position for quickhull, with a larger joggle while the build fails.

use clasp_random::SplitMix64;

use super::{
    algebra::{Coords, MAX_DIM, affine_rank, pad},
    polytope::Hull,
    quickhull::Builder,
};

/// Joggle amplitudes tried in turn, relative to the largest coordinate.
const JOGGLES: [f64; 3] = [1e-7, 1e-5, 1e-3];
/// Points closer than this (relative) to the span of the others do not add a dimension.
const RANK_TOLERANCE: f64 = 1e-9;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum HullError {
    #[error("a convex hull needs points of 2 to {MAX_DIM} coordinates, not {0}")]
    Dimension(usize),
    #[error("a point has a coordinate that is not a finite number")]
    NonFinite,
    #[error("the points span only {rank} of {dim} dimensions, so their hull has no volume")]
    Flat { rank: usize, dim: usize },
    #[error("the hull could not be built: the points are too close to degenerate")]
    Degenerate,
}

impl Hull {
    /// The hull of `points`, each of `dim` coordinates.
    pub fn new(dim: usize, points: &[&[f64]]) -> Result<Hull, HullError> {
        with_joggle(dim, points, |builder| {
            builder.run()?;
            Some(builder.finish())
        })
    }
}

/// The signed depth of the origin in the hull of `points`: the radius of the largest
/// origin-centred ball inside it when positive (the epsilon quality of a wrench space), ≤ 0
/// when the origin is not strictly inside.
///
/// Found without the whole hull, by expanding a polytope inside it (the expanding polytope
/// algorithm of penetration depth): the facet nearest the origin is pushed out to the farthest
/// point beyond it until no point lies beyond; that facet's plane then supports the hull, and
/// the polytope, inside the hull, is at least as deep everywhere else. Only the facets near the
/// origin are ever refined, so a 20-contact grasp costs a small part of its full hull.
pub fn origin_depth(dim: usize, points: &[&[f64]]) -> Result<f64, HullError> {
    with_joggle(dim, points, |builder| builder.depth_search())
}

/// Validates the points, checks they span `dim` dimensions, and runs `task` on them joggled,
/// with larger joggles while it fails or leaves the polytope bent.
fn with_joggle<T>(
    dim: usize,
    points: &[&[f64]],
    task: impl Fn(&mut Builder) -> Option<T>,
) -> Result<T, HullError> {
    if !(2..=MAX_DIM).contains(&dim) || points.iter().any(|p| p.len() != dim) {
        return Err(HullError::Dimension(dim));
    }
    let padded: Vec<Coords> = points.iter().map(|p| pad(p)).collect();
    if padded.iter().flatten().any(|x| !x.is_finite()) {
        return Err(HullError::NonFinite);
    }
    let scale = padded.iter().flatten().fold(0.0_f64, |m, x| m.max(x.abs()));
    let rank = affine_rank(&padded, dim, RANK_TOLERANCE * scale);
    if rank < dim {
        return Err(HullError::Flat { rank, dim });
    }
    for (attempt, amplitude) in JOGGLES.iter().enumerate() {
        let jogged = joggle(&padded, dim, amplitude * scale, attempt as u64);
        let mut builder = Builder::new(dim, &jogged, amplitude * scale * 1e-3);
        // Round-off bends the hull by about 1e-16 / amplitude where slivers meet; a bend
        // smaller than the joggle itself changes nothing the joggle did not.
        if let Some(result) = task(&mut builder)
            && builder.is_convex(10.0 * amplitude * scale)
        {
            return Ok(result);
        }
    }
    Err(HullError::Degenerate)
}

/// A fixed pseudo-random displacement of every coordinate by at most `amplitude`.
fn joggle(points: &[Coords], dim: usize, amplitude: f64, seed: u64) -> Vec<Coords> {
    let mut random =
        SplitMix64::new(0x9E37_79B9_7F4A_7C15_u64 ^ seed.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let mut next = move || random.range(-1.0, 1.0);
    points
        .iter()
        .map(|p| {
            let mut q = *p;
            q[..dim].iter_mut().for_each(|x| *x += amplitude * next());
            q
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A reproducible stream of numbers in [−1, 1) for test inputs.
    pub(crate) fn uniform(seed: u64) -> impl FnMut() -> f64 {
        let mut random = SplitMix64::new(seed);
        move || random.range(-1.0, 1.0)
    }

    fn hull(dim: usize, points: &[Vec<f64>]) -> Result<Hull, HullError> {
        let rows: Vec<&[f64]> = points.iter().map(|p| p.as_slice()).collect();
        Hull::new(dim, &rows)
    }

    /// The 2^d corners of the cube [−1, 1]^d, plus its centre and points inside.
    fn cube(dim: usize) -> Vec<Vec<f64>> {
        let mut points: Vec<Vec<f64>> = (0..1usize << dim)
            .map(|bits| {
                (0..dim)
                    .map(|k| if bits >> k & 1 == 1 { 1.0 } else { -1.0 })
                    .collect()
            })
            .collect();
        points.push(vec![0.0; dim]);
        points.push((0..dim).map(|k| 0.1 * k as f64).collect());
        points
    }

    #[test]
    fn a_cube_has_its_volume_and_every_face_one_away_from_the_centre() {
        for dim in 2..=MAX_DIM {
            let h = hull(dim, &cube(dim)).unwrap();
            let expected = 2f64.powi(dim as i32);
            assert!(
                (h.volume() / expected - 1.0).abs() < 1e-5,
                "dim {dim}: {}",
                h.volume()
            );
            assert!((h.origin_depth() - 1.0).abs() < 1e-5, "dim {dim}");
            assert_eq!(h.vertices().len(), 1 << dim, "dim {dim}: the corners only");
            // Each of the 2d faces is tiled by facets (joggling may add flat slivers along
            // the cube's ridges, which tilt but lie no nearer the centre).
            for k in 0..2 * dim {
                let axis = k / 2;
                let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
                let on_face = h
                    .facets()
                    .iter()
                    .any(|f| (f.normal[axis] - sign).abs() < 1e-5);
                assert!(on_face, "dim {dim}: no facet on face {k}");
            }
        }
    }

    #[test]
    fn a_simplex_volume_matches_the_formula() {
        // The corner simplex of the unit cube has volume 1/d!.
        for dim in 2..=MAX_DIM {
            let mut points = vec![vec![0.0; dim]];
            for k in 0..dim {
                let mut e = vec![0.0; dim];
                e[k] = 1.0;
                points.push(e);
            }
            let h = hull(dim, &points).unwrap();
            let factorial: f64 = (1..=dim).map(|k| k as f64).product();
            assert!((h.volume() * factorial - 1.0).abs() < 1e-5);
            assert_eq!(h.facets().len(), dim + 1);
            assert!(h.origin_depth().abs() < 1e-5, "the origin is a corner");
        }
    }

    #[test]
    fn random_points_lie_inside_every_facet_and_corners_are_extreme() {
        let mut rand = uniform(7);
        for dim in 2..=MAX_DIM {
            let points: Vec<Vec<f64>> = (0..120)
                .map(|_| (0..dim).map(|_| rand()).collect())
                .collect();
            let h = hull(dim, &points).unwrap();
            for f in h.facets() {
                for p in &points {
                    assert!(f.distance(p) < 1e-5, "dim {dim}: a point outside a facet");
                }
            }
            // Every vertex is a corner: some facet through it; every other point is not.
            let corners = h.vertices();
            assert!(corners.len() > dim);
            assert!(h.volume() > 0.0 && h.volume() < 2f64.powi(dim as i32));
        }
    }

    #[test]
    fn the_same_points_give_the_same_hull() {
        let points = cube(4);
        assert_eq!(hull(4, &points).unwrap(), hull(4, &points).unwrap());
    }

    #[test]
    fn flat_and_bad_inputs_are_refused() {
        let square_in_3d: Vec<Vec<f64>> = cube(2)
            .into_iter()
            .map(|mut p| {
                p.push(0.0);
                p
            })
            .collect();
        assert_eq!(
            hull(3, &square_in_3d),
            Err(HullError::Flat { rank: 2, dim: 3 })
        );
        assert_eq!(
            hull(3, &[vec![1.0, 2.0, 3.0]]),
            Err(HullError::Flat { rank: 0, dim: 3 })
        );
        assert_eq!(hull(3, &[]), Err(HullError::Flat { rank: 0, dim: 3 }));
        assert_eq!(hull(1, &[vec![1.0]]), Err(HullError::Dimension(1)));
        assert_eq!(hull(7, &[vec![1.0; 7]]), Err(HullError::Dimension(7)));
        let mut nan = cube(3);
        nan[2][1] = f64::NAN;
        assert_eq!(hull(3, &nan), Err(HullError::NonFinite));
    }

    #[test]
    fn repeated_points_and_many_coplanar_ones_do_not_break_it() {
        // A 3D grid of 5^3 points: most lie on faces, edges and corners of the cube.
        let mut points = Vec::new();
        for i in 0..5 {
            for j in 0..5 {
                for k in 0..5 {
                    let p = vec![i as f64 - 2.0, j as f64 - 2.0, k as f64 - 2.0];
                    points.push(p.clone());
                    points.push(p);
                }
            }
        }
        let h = hull(3, &points).unwrap();
        assert!((h.volume() - 64.0).abs() < 1e-3);
        assert!((h.origin_depth() - 2.0).abs() < 1e-5);
    }
}
