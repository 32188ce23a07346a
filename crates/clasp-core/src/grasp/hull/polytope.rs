//! A built hull: its facets, each a simplex of input points on its supporting hyperplane, and
//! what they tell (volume, corners, the origin's depth).

use super::algebra::{Coords, MAX_DIM};

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
    pub(super) dim: usize,
    pub(super) facets: Vec<Facet>,
    pub(super) volume: f64,
}

impl Hull {
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
