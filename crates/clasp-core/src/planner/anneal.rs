//! GraspIt's simulated annealing (`SimAnn`, its default parameters): a temperature that falls
//! as T(k) = T0 · exp(−c · k^(1/d)), neighbours drawn with a spread that shrinks with it, and
//! a worse state accepted with probability exp(ERR_ADJ · (E_old − E_new) / T).

use clasp_random::SplitMix64;

/// GraspIt's `ANNEAL_DEFAULT`: the neighbour and acceptance schedules (c = 7, d = 8), the
/// starting temperature and step, and the acceptance scale.
pub const YC: f64 = 7.0;
pub const HC: f64 = 7.0;
pub const YDIMS: f64 = 8.0;
pub const HDIMS: f64 = 8.0;
pub const NBR_ADJ: f64 = 1.0;
pub const ERR_ADJ: f64 = 1.0e-6;
pub const DEF_T0: f64 = 1.0e6;
/// The step the schedule starts at: GraspIt starts cool, not at k = 0.
pub const DEF_K0: u64 = 30_000;
/// How many neighbours one step may try before giving up on finding a legal one.
pub const ATTEMPTS: usize = 11;

/// The temperature at step `k` of a schedule with constant `c` over `dims` dimensions.
pub fn temperature(k: u64, c: f64, dims: f64) -> f64 {
    DEF_T0 * (-c * (k as f64).powf(1.0 / dims)).exp()
}

/// A variable of the search: its range, the largest jump a neighbour makes, and whether it
/// wraps round (an angle).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Variable {
    pub min: f64,
    pub max: f64,
    pub jump: f64,
    pub circular: bool,
}

impl Variable {
    /// A neighbour of `value` at temperature `t`: a step of y · jump, y in [−1, 1] drawn so
    /// that it is near 0 when cold (GraspIt's `neighborDistribution`); redrawn until inside the
    /// range, or wrapped for an angle. After 100 draws outside it stays where it was.
    pub fn neighbour(&self, value: f64, t: f64, random: &mut SplitMix64) -> f64 {
        for _ in 0..100 {
            let u = random.unit();
            let v = (2.0 * u - 1.0).abs();
            let mut y = t * ((1.0 + 1.0 / t).powf(v) - 1.0);
            if u < 0.5 {
                y = -y;
            }
            let mut next = value + y * self.jump;
            if self.circular {
                let range = self.max - self.min;
                if next > self.max {
                    next -= range;
                } else if next < self.min {
                    next += range;
                }
            }
            if (self.min..=self.max).contains(&next) {
                return next;
            }
        }
        value
    }
}

/// The energy below which the step `k` from energy `now` moves: GraspIt moves to a lower
/// energy always and to a higher one with probability exp(ERR_ADJ · (now − next) / T_h(k)),
/// that is when next < now − T_h(k) · ln(u) / ERR_ADJ for a uniform u. Drawn before the
/// neighbour is scored, so that scoring may stop as soon as it knows the energy is not below.
pub fn acceptance_bound(now: f64, k: u64, random: &mut SplitMix64) -> f64 {
    let t = temperature(k, HC, HDIMS);
    now - t * random.unit().ln() / ERR_ADJ
}

/// The neighbour temperature at step `k`.
pub fn neighbour_temperature(k: u64) -> f64 {
    temperature(k, YC, YDIMS) * NBR_ADJ
}
