//! Convex hulls in 2 to 6 dimensions, by quickhull with simplicial facets: what a grasp wrench
//! space is made of (graspit-spec §8).
//!
//! GraspIt asks qhull for `QJ`: the input is joggled at random, so the same grasp gives slightly
//! different numbers from run to run. Here the joggle is a fixed pseudo-random pattern 1e-7 of
//! the points' size: it puts degenerate inputs (each contact's friction edges lie in one plane;
//! contacts on a sphere are symmetric) into general position, and the same points always give
//! the same hull. Should a facet come out degenerate, or round-off bend the hull, the build
//! starts again with a larger joggle. (A joggle much below 1e-7 is too small: round-off in the
//! planes of the slivers it makes, about 1e-16 / joggle, then outgrows the joggle itself.)

use clasp_random::SplitMix64;
use std::{
    cmp::Ordering,
    collections::{BinaryHeap, HashMap},
};

/// The most coordinates a point may have (a wrench has six).
pub const MAX_DIM: usize = 6;

/// Joggle amplitudes tried in turn, relative to the largest coordinate.
const JOGGLES: [f64; 3] = [1e-7, 1e-5, 1e-3];
/// Points closer than this (relative) to the span of the others do not add a dimension.
const RANK_TOLERANCE: f64 = 1e-9;

type Coords = [f64; MAX_DIM];

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

/// One face of the hull: a simplex of `dim` input points and its supporting hyperplane.
#[derive(Debug, Clone, PartialEq)]
pub struct Facet {
    /// Indices of the input points at its corners (the first `dim` entries are used).
    pub vertices: [usize; MAX_DIM],
    /// Unit outward normal (zero beyond `dim`).
    pub normal: Coords,
    /// qhull's convention: `normal · x + offset` is ≤ 0 inside; −offset is the signed distance
    /// of the origin from the plane, positive when the origin is inside.
    pub offset: f64,
}

impl Facet {
    /// Signed distance of `p` from the facet's plane, positive outside.
    pub fn distance(&self, p: &[f64]) -> f64 {
        self.normal.iter().zip(p).map(|(n, x)| n * x).sum::<f64>() + self.offset
    }
}

/// The convex hull of a set of points that spans every dimension.
#[derive(Debug, Clone, PartialEq)]
pub struct Hull {
    dim: usize,
    facets: Vec<Facet>,
    volume: f64,
}

impl Hull {
    /// The hull of `points`, each of `dim` coordinates.
    pub fn new(dim: usize, points: &[&[f64]]) -> Result<Hull, HullError> {
        with_joggle(dim, points, |builder| {
            builder.run()?;
            Some(builder.finish())
        })
    }

    pub fn dim(&self) -> usize {
        self.dim
    }

    pub fn facets(&self) -> &[Facet] {
        &self.facets
    }

    /// The hull's `dim`-dimensional volume.
    pub fn volume(&self) -> f64 {
        self.volume
    }

    /// The indices of the input points that are corners of the hull, ascending.
    pub fn vertices(&self) -> Vec<usize> {
        let mut all: Vec<usize> = self
            .facets
            .iter()
            .flat_map(|f| f.vertices[..self.dim].iter().copied())
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }

    /// The smallest signed distance from the origin to a facet's plane: the radius of the
    /// largest origin-centred ball inside the hull when positive; ≤ 0 when the origin is not
    /// strictly inside.
    pub fn origin_depth(&self) -> f64 {
        self.facets
            .iter()
            .map(|f| -f.offset)
            .fold(f64::INFINITY, f64::min)
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

fn pad(p: &[f64]) -> Coords {
    let mut c = [0.0; MAX_DIM];
    c[..p.len()].copy_from_slice(p);
    c
}

fn dot(a: &Coords, b: &Coords) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn sub(a: &Coords, b: &Coords) -> Coords {
    std::array::from_fn(|i| a[i] - b[i])
}

/// How many dimensions the points span (0 for a single point), greedily by Gram–Schmidt.
fn affine_rank(points: &[Coords], dim: usize, tolerance: f64) -> usize {
    simplex(points, dim, tolerance).len().saturating_sub(1)
}

/// Up to `dim + 1` affinely independent points, each the farthest from the span of those
/// before: a well-shaped starting simplex. Fewer when the points are flat.
fn simplex(points: &[Coords], dim: usize, tolerance: f64) -> Vec<usize> {
    let Some(first) = (0..points.len()).min_by(|&a, &b| points[a][0].total_cmp(&points[b][0]))
    else {
        return Vec::new();
    };
    let mut chosen = vec![first];
    let mut basis: Vec<Coords> = Vec::new();
    while chosen.len() <= dim {
        let residual = |p: &Coords| {
            let mut r = sub(p, &points[first]);
            for b in &basis {
                let along = dot(&r, b);
                r.iter_mut().zip(b).for_each(|(x, y)| *x -= along * y);
            }
            r
        };
        let (best, length) = points
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let r = residual(p);
                (i, dot(&r, &r).sqrt())
            })
            .fold((0, -1.0), |m, c| if c.1 > m.1 { c } else { m });
        if length <= tolerance {
            break;
        }
        let r = residual(&points[best]);
        basis.push(std::array::from_fn(|i| r[i] / length));
        chosen.push(best);
    }
    chosen
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

/// The determinant of the leading `k × k` block, by elimination with partial pivoting.
fn determinant(mut m: [Coords; MAX_DIM], k: usize) -> f64 {
    let mut det = 1.0;
    for col in 0..k {
        let pivot = (col..k)
            .max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))
            .unwrap_or(col);
        if m[pivot][col] == 0.0 {
            return 0.0;
        }
        if pivot != col {
            m.swap(pivot, col);
            det = -det;
        }
        det *= m[col][col];
        let pivot_row = m[col];
        for row in m.iter_mut().take(k).skip(col + 1) {
            let factor = row[col] / pivot_row[col];
            row.iter_mut()
                .zip(&pivot_row)
                .take(k)
                .skip(col + 1)
                .for_each(|(x, p)| *x -= factor * p);
        }
    }
    det
}

/// The vector orthogonal to the first `dim − 1` rows of `rows` (which it overwrites), by
/// elimination with full pivoting; `None` when the rows are dependent.
fn null_vector(rows: &mut [Coords; MAX_DIM], dim: usize) -> Option<Coords> {
    let count = dim - 1;
    let mut pivot_column = [0; MAX_DIM];
    let mut used = [false; MAX_DIM];
    for r in 0..count {
        let (mut best_row, mut best_column, mut best) = (r, 0, 0.0);
        for (i, row) in rows.iter().enumerate().take(count).skip(r) {
            for (c, x) in row.iter().enumerate().take(dim) {
                if !used[c] && x.abs() > best {
                    (best_row, best_column, best) = (i, c, x.abs());
                }
            }
        }
        if best == 0.0 {
            return None;
        }
        rows.swap(r, best_row);
        used[best_column] = true;
        pivot_column[r] = best_column;
        let pivot_row = rows[r];
        for row in rows.iter_mut().take(count).skip(r + 1) {
            let factor = row[best_column] / pivot_row[best_column];
            row.iter_mut()
                .zip(&pivot_row)
                .for_each(|(x, p)| *x -= factor * p);
            row[best_column] = 0.0;
        }
    }
    let free = (0..dim).find(|&c| !used[c])?;
    let mut normal = [0.0; MAX_DIM];
    normal[free] = 1.0;
    for r in (0..count).rev() {
        let c = pivot_column[r];
        let rest: f64 = (0..dim)
            .filter(|&k| k != c)
            .map(|k| rows[r][k] * normal[k])
            .sum();
        normal[c] = -rest / rows[r][c];
    }
    Some(normal)
}

/// A facet by the origin's depth below it, nearest first out of a max-heap.
struct Nearest(f64, u32);

impl Ord for Nearest {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.total_cmp(&self.0).then(other.1.cmp(&self.1))
    }
}

impl PartialOrd for Nearest {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Nearest {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Nearest {}

/// A facet while the hull grows.
struct Face {
    vertices: [u32; MAX_DIM],
    /// `neighbours[j]` shares every vertex but `vertices[j]`.
    neighbours: [u32; MAX_DIM],
    normal: Coords,
    offset: f64,
    /// Points above this facet and no facet made before it.
    outside: Vec<u32>,
    alive: bool,
    visible_stamp: u32,
}

struct Builder<'a> {
    dim: usize,
    points: &'a [Coords],
    faces: Vec<Face>,
    interior: Coords,
    /// A point counts as outside a facet only this far above it.
    tolerance: f64,
    stamp: u32,
    /// The ridges of a cone not yet paired, kept to reuse its allocation.
    open_ridges: HashMap<[u32; MAX_DIM], (u32, usize)>,
}

impl<'a> Builder<'a> {
    fn new(dim: usize, points: &'a [Coords], tolerance: f64) -> Self {
        Builder {
            dim,
            points,
            faces: Vec::new(),
            interior: [0.0; MAX_DIM],
            tolerance,
            stamp: 0,
            open_ridges: HashMap::new(),
        }
    }

    /// Grows the hull; `None` if a facet came out degenerate.
    fn run(&mut self) -> Option<()> {
        let start = self.start()?;
        let mut in_start = vec![false; self.points.len()];
        start.iter().for_each(|&s| in_start[s] = true);
        let candidates: Vec<u32> = (0..self.points.len() as u32)
            .filter(|&i| !in_start[i as usize])
            .collect();
        let first_faces: Vec<u32> = (0..self.faces.len() as u32).collect();
        self.assign(&candidates, &first_faces);
        let mut next = 0;
        while next < self.faces.len() {
            if self.faces[next].alive && !self.faces[next].outside.is_empty() {
                self.add_farthest_point(next)?;
            }
            next += 1;
        }
        Some(())
    }

    /// The expanding-polytope search of [`origin_depth`].
    fn depth_search(&mut self) -> Option<f64> {
        self.start()?;
        let mut nearest: BinaryHeap<Nearest> = (0..self.faces.len() as u32)
            .map(|f| Nearest(-self.faces[f as usize].offset, f))
            .collect();
        loop {
            let Nearest(depth, face) = nearest.pop()?;
            if !self.faces[face as usize].alive {
                continue;
            }
            let (apex, height) = (0..self.points.len() as u32)
                .map(|p| (p, self.distance(face, p)))
                .fold((0, f64::NEG_INFINITY), |m, c| if c.1 > m.1 { c } else { m });
            if height <= self.tolerance {
                return Some(depth);
            }
            let visible = self.visible_from(face, apex);
            let cone = self.build_cone(&visible, apex)?;
            for &v in &visible {
                self.faces[v as usize].alive = false;
            }
            nearest.extend(
                cone.iter()
                    .map(|&f| Nearest(-self.faces[f as usize].offset, f)),
            );
        }
    }

    /// The starting simplex's facets, round its centroid; its corners.
    fn start(&mut self) -> Option<Vec<usize>> {
        let start = simplex(self.points, self.dim, 0.0);
        if start.len() != self.dim + 1 {
            return None;
        }
        for &s in &start {
            let p = self.points[s];
            self.interior
                .iter_mut()
                .zip(p)
                .for_each(|(c, x)| *c += x / start.len() as f64);
        }
        for omitted in 0..start.len() {
            let mut vertices = [0; MAX_DIM];
            let mut neighbours = [0; MAX_DIM];
            let others = (0..start.len()).filter(|&k| k != omitted);
            for (slot, k) in others.enumerate() {
                vertices[slot] = start[k] as u32;
                neighbours[slot] = k as u32;
            }
            self.push_face(vertices, neighbours)?;
        }
        Some(start)
    }

    fn distance(&self, face: u32, point: u32) -> f64 {
        let f = &self.faces[face as usize];
        dot(&f.normal, &self.points[point as usize]) + f.offset
    }

    /// Adds a facet through `vertices`, oriented away from the interior point.
    fn push_face(&mut self, vertices: [u32; MAX_DIM], neighbours: [u32; MAX_DIM]) -> Option<u32> {
        let (normal, offset) = self.plane(&vertices)?;
        self.faces.push(Face {
            vertices,
            neighbours,
            normal,
            offset,
            outside: Vec::new(),
            alive: true,
            visible_stamp: 0,
        });
        Some(self.faces.len() as u32 - 1)
    }

    /// The unit normal and offset of the plane through `dim` points, oriented outward; `None`
    /// if they do not span a hyperplane.
    fn plane(&self, vertices: &[u32; MAX_DIM]) -> Option<(Coords, f64)> {
        let d = self.dim;
        let origin = self.points[vertices[0] as usize];
        let mut edges = [[0.0; MAX_DIM]; MAX_DIM];
        for (row, v) in vertices[1..d].iter().enumerate() {
            edges[row] = sub(&self.points[*v as usize], &origin);
        }
        let mut normal = null_vector(&mut edges, d)?;
        let length = dot(&normal, &normal).sqrt();
        if !(length.is_finite() && length > 0.0) {
            return None;
        }
        normal.iter_mut().for_each(|x| *x /= length);
        let mut offset = -dot(&normal, &origin);
        let interior_side = dot(&normal, &self.interior) + offset;
        if interior_side == 0.0 {
            return None;
        }
        if interior_side > 0.0 {
            normal.iter_mut().for_each(|x| *x = -*x);
            offset = -offset;
        }
        Some((normal, offset))
    }

    /// Gives each point to the first of `faces` it lies outside; points inside every one are
    /// inside the hull for good.
    fn assign(&mut self, points: &[u32], faces: &[u32]) {
        for &p in points {
            if let Some(&f) = faces
                .iter()
                .find(|&&f| self.distance(f, p) > self.tolerance)
            {
                self.faces[f as usize].outside.push(p);
            }
        }
    }

    /// Quickhull's step: the farthest point above `face` becomes a vertex; every facet it
    /// sees is replaced by a cone from it to their horizon.
    fn add_farthest_point(&mut self, face: usize) -> Option<()> {
        let height = |p: u32| self.distance(face as u32, p);
        let apex = (self.faces[face].outside.iter().copied())
            .max_by(|&a, &b| height(a).total_cmp(&height(b)).then(b.cmp(&a)))?;
        let visible = self.visible_from(face as u32, apex);
        let cone = self.build_cone(&visible, apex)?;
        let mut orphans = Vec::new();
        for &v in &visible {
            let f = &mut self.faces[v as usize];
            f.alive = false;
            orphans.extend(
                std::mem::take(&mut f.outside)
                    .into_iter()
                    .filter(|&p| p != apex),
            );
        }
        self.assign(&orphans, &cone);
        Some(())
    }

    /// The facets `apex` lies strictly above, reached from `start` across shared ridges.
    fn visible_from(&mut self, start: u32, apex: u32) -> Vec<u32> {
        self.stamp += 1;
        let stamp = self.stamp;
        self.faces[start as usize].visible_stamp = stamp;
        let mut visible = vec![start];
        let mut next = 0;
        while next < visible.len() {
            let f = visible[next] as usize;
            next += 1;
            for j in 0..self.dim {
                let n = self.faces[f].neighbours[j];
                if self.faces[n as usize].visible_stamp != stamp && self.distance(n, apex) > 0.0 {
                    self.faces[n as usize].visible_stamp = stamp;
                    visible.push(n);
                }
            }
        }
        visible
    }

    /// New facets from `apex` to each horizon ridge, linked to the facets beyond the horizon
    /// and to each other.
    fn build_cone(&mut self, visible: &[u32], apex: u32) -> Option<Vec<u32>> {
        let d = self.dim;
        let stamp = self.stamp;
        let mut cone = Vec::new();
        for &v in visible {
            for j in 0..d {
                let beyond = self.faces[v as usize].neighbours[j];
                if self.faces[beyond as usize].visible_stamp == stamp {
                    continue;
                }
                let mut vertices = [0; MAX_DIM];
                vertices[0] = apex;
                let ridge = (0..d).filter(|&k| k != j);
                for (slot, k) in ridge.enumerate() {
                    vertices[slot + 1] = self.faces[v as usize].vertices[k];
                }
                let mut neighbours = [u32::MAX; MAX_DIM];
                neighbours[0] = beyond;
                let new = self.push_face(vertices, neighbours)?;
                let back = &mut self.faces[beyond as usize];
                let slot = back.neighbours[..d].iter().position(|&n| n == v)?;
                back.neighbours[slot] = new;
                cone.push(new);
            }
        }
        self.link_cone(&cone)?;
        Some(cone)
    }

    /// Each ridge through the apex is shared by exactly two new facets: pair them up.
    fn link_cone(&mut self, cone: &[u32]) -> Option<()> {
        let d = self.dim;
        let mut open = std::mem::take(&mut self.open_ridges);
        open.clear();
        for &f in cone {
            for slot in 1..d {
                let mut key = [u32::MAX; MAX_DIM];
                let ridge = (0..d).filter(|&k| k != slot);
                for (i, k) in ridge.enumerate() {
                    key[i] = self.faces[f as usize].vertices[k];
                }
                key[..d - 1].sort_unstable();
                match open.remove(&key) {
                    Some((other, other_slot)) => {
                        self.faces[f as usize].neighbours[slot] = other;
                        self.faces[other as usize].neighbours[other_slot] = f;
                    }
                    None => {
                        open.insert(key, (f, slot));
                    }
                }
            }
        }
        let paired = open.is_empty();
        self.open_ridges = open;
        paired.then_some(())
    }

    /// Round-off can leave a hull bent where slivers meet, or worse: every facet's neighbours
    /// must lie on or below its plane (a closed surface convex at every ridge is convex).
    fn is_convex(&self, tolerance: f64) -> bool {
        let d = self.dim;
        self.faces
            .iter()
            .enumerate()
            .filter(|(_, f)| f.alive)
            .all(|(i, f)| {
                f.neighbours[..d].iter().all(|&n| {
                    let other = &self.faces[n as usize];
                    let apex = other.vertices[..d]
                        .iter()
                        .find(|v| !f.vertices[..d].contains(v));
                    other.alive && apex.is_some_and(|&v| self.distance(i as u32, v) <= tolerance)
                })
            })
    }

    fn finish(&self) -> Hull {
        let d = self.dim;
        let mut volume = 0.0;
        let mut facets = Vec::new();
        for face in self.faces.iter().filter(|f| f.alive) {
            let mut edges = [[0.0; MAX_DIM]; MAX_DIM];
            for (row, &v) in face.vertices[..d].iter().enumerate() {
                edges[row] = sub(&self.points[v as usize], &self.interior);
            }
            volume += determinant(edges, d).abs();
            facets.push(Facet {
                vertices: std::array::from_fn(|i| face.vertices[i] as usize),
                normal: face.normal,
                offset: face.offset,
            });
        }
        let factorial: f64 = (1..=d).map(|k| k as f64).product();
        Hull {
            dim: d,
            facets,
            volume: volume / factorial,
        }
    }
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
