//! Quickhull with simplicial facets: the hull grown from a starting simplex by the farthest
//! point beyond each facet, or only the facets nearest the origin pushed out (the expanding
//! polytope search for the origin's depth).

use std::{cmp::Ordering, collections::BinaryHeap};

use super::{
    algebra::{Coords, MAX_DIM, determinant, dot, null_vector, simplex, sub},
    polytope::{Facet, Hull},
};

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

/// A ridge in the table that pairs a cone's facets: the facet it came from and the slot of
/// the vertex it leaves out.
#[derive(Clone, Copy)]
struct Ridge {
    hash: u64,
    face: u32,
    slot: usize,
}

impl Ridge {
    const EMPTY: Ridge = Ridge {
        hash: 0,
        face: u32::MAX,
        slot: 0,
    };
    /// What a ridge's facet becomes once paired: probes pass over it.
    const PAIRED: u32 = u32::MAX - 1;
}

pub(super) struct Builder<'a> {
    dim: usize,
    points: &'a [Coords],
    faces: Vec<Face>,
    interior: Coords,
    /// A point counts as outside a facet only this far above it.
    tolerance: f64,
    stamp: u32,
    /// The open-addressed table pairing a cone's ridges, kept to reuse its allocation.
    ridges: Vec<Ridge>,
}

impl<'a> Builder<'a> {
    pub(super) fn new(dim: usize, points: &'a [Coords], tolerance: f64) -> Self {
        Builder {
            dim,
            points,
            faces: Vec::new(),
            interior: [0.0; MAX_DIM],
            tolerance,
            stamp: 0,
            ridges: Vec::new(),
        }
    }

    /// Grows the hull; `None` if a facet came out degenerate.
    pub(super) fn run(&mut self) -> Option<()> {
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

    /// The expanding-polytope search of [`origin_depth`](super::joggle::origin_depth).
    pub(super) fn depth_search(&mut self) -> Option<f64> {
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
        self.push_face_on(vertices, neighbours, None)
    }

    /// Adds a facet through `vertices` on `plane` where one is known, else on the plane solved
    /// for from its vertices.
    fn push_face_on(
        &mut self,
        vertices: [u32; MAX_DIM],
        neighbours: [u32; MAX_DIM],
        plane: Option<(Coords, f64)>,
    ) -> Option<u32> {
        let (normal, offset) = match plane {
            Some(plane) => plane,
            None => self.plane(&vertices)?,
        };
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

    /// The plane of a cone's facet through the apex (`vertices[0]`) and a horizon ridge, from
    /// the two facets that met there (`sides`: the one the apex saw, the one beyond): both
    /// normals are square to the ridge, so the new normal is the combination of the two that
    /// is also square to the way from the ridge to the apex, found in a few products where
    /// solving for it takes an elimination. `None` where that is not to be trusted: the two
    /// facets nearly parallel, or round-off leaving a ridge vertex off the plane (the caller
    /// then solves for it).
    fn cone_plane(&self, vertices: &[u32; MAX_DIM], sides: [u32; 2]) -> Option<(Coords, f64)> {
        let d = self.dim;
        let [seen, beyond] = sides.map(|f| &self.faces[f as usize].normal);
        let apex = &self.points[vertices[0] as usize];
        let up = sub(apex, &self.points[vertices[1] as usize]);
        let (along_seen, along_beyond) = (dot(seen, &up), dot(beyond, &up));
        let mut normal = [0.0; MAX_DIM];
        for k in 0..d {
            normal[k] = along_beyond * seen[k] - along_seen * beyond[k];
        }
        let length = dot(&normal, &normal).sqrt();
        // Nearly parallel facets (or a NaN) leave too little of the combination to trust.
        if length.is_nan() || length <= 1e-3 * dot(&up, &up).sqrt() {
            return None;
        }
        normal.iter_mut().for_each(|x| *x /= length);
        let offset = -dot(&normal, apex);
        let off_plane = vertices[1..d]
            .iter()
            .map(|&v| (dot(&normal, &self.points[v as usize]) + offset).abs())
            .fold(0.0, f64::max);
        if off_plane > 1e-3 * self.tolerance {
            return None;
        }
        self.outward(normal, offset)
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
        let offset = -dot(&normal, &origin);
        self.outward(normal, offset)
    }

    /// A plane turned to face away from the interior point; `None` if that point lies on it.
    fn outward(&self, mut normal: Coords, mut offset: f64) -> Option<(Coords, f64)> {
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
                let plane = self.cone_plane(&vertices, [v, beyond]);
                let new = self.push_face_on(vertices, neighbours, plane)?;
                let back = &mut self.faces[beyond as usize];
                let slot = back.neighbours[..d].iter().position(|&n| n == v)?;
                back.neighbours[slot] = new;
                cone.push(new);
            }
        }
        self.link_cone(&cone)?;
        Some(cone)
    }

    /// Each ridge through the apex is shared by exactly two new facets: pair them up, in an
    /// open-addressed table keyed by a hash of the ridge's vertices that their order does not
    /// change (no sorting, no allocation once the table has grown).
    fn link_cone(&mut self, cone: &[u32]) -> Option<()> {
        let d = self.dim;
        let size = (2 * cone.len() * (d - 1)).next_power_of_two();
        let mut table = std::mem::take(&mut self.ridges);
        table.clear();
        table.resize(size, Ridge::EMPTY);
        for &f in cone {
            for slot in 1..d {
                let hash = self.ridge_hash(f, slot);
                let mut at = hash as usize & (size - 1);
                loop {
                    let entry = table[at];
                    if entry.face == Ridge::EMPTY.face {
                        table[at] = Ridge {
                            hash,
                            face: f,
                            slot,
                        };
                        break;
                    }
                    if entry.face != Ridge::PAIRED
                        && entry.hash == hash
                        && self.same_ridge((f, slot), (entry.face, entry.slot))
                    {
                        self.faces[f as usize].neighbours[slot] = entry.face;
                        self.faces[entry.face as usize].neighbours[entry.slot] = f;
                        table[at].face = Ridge::PAIRED;
                        break;
                    }
                    at = (at + 1) & (size - 1);
                }
            }
        }
        let paired = table
            .iter()
            .all(|r| r.face == Ridge::EMPTY.face || r.face == Ridge::PAIRED);
        self.ridges = table;
        paired.then_some(())
    }

    /// A hash of facet `face`'s vertices but the one in `slot`, the same in any order.
    fn ridge_hash(&self, face: u32, slot: usize) -> u64 {
        let vertices = &self.faces[face as usize].vertices[..self.dim];
        vertices
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != slot)
            .map(|(_, &v)| {
                (u64::from(v) + 1)
                    .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    .rotate_left(29)
            })
            .fold(0, u64::wrapping_add)
    }

    /// Whether two facets' ridges (each leaving out the vertex in its slot) are the same.
    fn same_ridge(&self, (a, a_slot): (u32, usize), (b, b_slot): (u32, usize)) -> bool {
        let d = self.dim;
        let (a, b) = (&self.faces[a as usize], &self.faces[b as usize]);
        (0..d)
            .filter(|&k| k != a_slot)
            .all(|k| (0..d).any(|m| m != b_slot && b.vertices[m] == a.vertices[k]))
    }

    /// Round-off can leave a hull bent where slivers meet, or worse: every facet's neighbours
    /// must lie on or below its plane (a closed surface convex at every ridge is convex).
    pub(super) fn is_convex(&self, tolerance: f64) -> bool {
        let d = self.dim;
        self.faces
            .iter()
            .enumerate()
            .filter(|(_, f)| f.alive)
            .all(|(i, f)| {
                f.neighbours[..d].iter().all(|&n| {
                    let other = &self.faces[n as usize];
                    // The neighbour's vertex off this facet is the one facing back across
                    // the shared ridge.
                    let back = other.neighbours[..d].iter().position(|&m| m == i as u32);
                    other.alive
                        && back.is_some_and(|m| {
                            self.distance(i as u32, other.vertices[m]) <= tolerance
                        })
                })
            })
    }

    pub(super) fn finish(&self) -> Hull {
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
