//! Where a plan's searches spend their time, share by share of a state (issue 55, item 3):
//! what a planner that is to go faster must know first.

use std::time::Instant;

/// Seconds the searches spent on each share of their states, summed over the searches (on
/// many threads, more than the run's wall time).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StateShares {
    /// Placing the hand: its palm and DOFs set, its links' and virtual contacts' poses found.
    pub placement: f64,
    /// Checking the placed hand against the object, obstacles and its own links.
    pub collision: f64,
    /// The virtual contacts' closest points on the object (and the contact energy's sum).
    pub distances: f64,
    /// The rest of the energy: the potential quality's wrenches and hull, or closing the hand
    /// for the auto-grasp energies.
    pub quality: f64,
    /// The search itself: drawing neighbours, the accept test, keeping the best states.
    pub search: f64,
}

impl StateShares {
    /// All the searches' time.
    pub fn total(&self) -> f64 {
        self.placement + self.collision + self.distances + self.quality + self.search
    }

    /// Each share's name and seconds, in the order of a state.
    pub fn named(&self) -> [(&'static str, f64); 5] {
        [
            ("placement", self.placement),
            ("collision", self.collision),
            ("distances", self.distances),
            ("quality", self.quality),
            ("search", self.search),
        ]
    }

    /// `other`'s time added to this.
    pub fn add(&mut self, other: &StateShares) {
        self.placement += other.placement;
        self.collision += other.collision;
        self.distances += other.distances;
        self.quality += other.quality;
        self.search += other.search;
    }

    /// A search that took `seconds` in all: what the timed shares leave is the search's own.
    pub(super) fn close(&mut self, seconds: f64) {
        let timed = self.placement + self.collision + self.distances + self.quality;
        self.search = (seconds - timed).max(0.0);
    }
}

/// Runs `work`, adding its time to `share` (a clock read costs tens of nanoseconds, against
/// tens of microseconds a state).
pub(super) fn timed<T>(share: &mut f64, work: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let result = work();
    *share += started.elapsed().as_secs_f64();
    result
}
