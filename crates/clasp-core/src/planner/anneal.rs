//! GraspIt's simulated annealing (`SimAnn`, its default parameters): a temperature that falls
//! as T(k) = T0 · exp(−c · k^(1/d)), neighbours drawn with a spread that shrinks with it, and
//! a worse state accepted with probability exp(ERR_ADJ · (E_old − E_new) / T).

use clasp_random::SplitMix64;

/// The annealing's parameters, GraspIt's `SimAnn` ones by name; the default is GraspIt's
/// `ANNEAL_DEFAULT`. Temperatures fall as T(k) = t0 · exp(−c · k^(1/d)): the neighbours'
/// spread by (`yc`, `ydims`), scaled by `nbr_adj`; the acceptance by (`hc`, `hdims`), a worse
/// state accepted with probability exp(`err_adj` · (E_old − E_new) / T).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Annealing {
    pub yc: f64,
    pub hc: f64,
    pub ydims: f64,
    pub hdims: f64,
    pub nbr_adj: f64,
    pub err_adj: f64,
    pub t0: f64,
    /// The step the schedule starts at: GraspIt starts cool, not at k = 0.
    pub k0: u64,
    /// How many neighbours one step may try before giving up on finding a legal one.
    pub attempts: usize,
}

impl Default for Annealing {
    fn default() -> Self {
        Self {
            yc: 7.0,
            hc: 7.0,
            ydims: 8.0,
            hdims: 8.0,
            nbr_adj: 1.0,
            err_adj: 1.0e-6,
            t0: 1.0e6,
            k0: 30_000,
            attempts: 11,
        }
    }
}

impl Annealing {
    /// GraspIt's `ANNEAL_STRICT`, meant for its strict auto-grasp energy (a guided planner's
    /// children): a short, cool schedule.
    pub fn strict() -> Self {
        Self {
            yc: 0.72,
            hc: 0.22,
            ydims: 2.0,
            hdims: 2.0,
            nbr_adj: 1.0,
            err_adj: 1.0,
            t0: 10.0,
            k0: 0,
            ..Self::default()
        }
    }

    /// The names [`Annealing::set`] takes, in order.
    pub const NAMES: [&'static str; 9] = [
        "yc", "hc", "ydims", "hdims", "nbr_adj", "err_adj", "t0", "k0", "attempts",
    ];

    /// Sets the parameter `name` to `value`; refused, changing nothing, for a name not in
    /// [`Annealing::NAMES`] or a value that is not a finite positive number (a whole one for
    /// `k0` and `attempts`; `k0` may be zero).
    pub fn set(&mut self, name: &str, value: f64) -> Result<(), String> {
        let whole = value.fract() == 0.0 && (0.0..1e15).contains(&value);
        let fine = value.is_finite() && value > 0.0;
        let refused = || format!("annealing parameter {name} cannot be {value}");
        match name {
            "k0" if whole => self.k0 = value as u64,
            "attempts" if whole && fine => self.attempts = value as usize,
            "k0" | "attempts" => return Err(refused()),
            _ if !fine => return Err(refused()),
            "yc" => self.yc = value,
            "hc" => self.hc = value,
            "ydims" => self.ydims = value,
            "hdims" => self.hdims = value,
            "nbr_adj" => self.nbr_adj = value,
            "err_adj" => self.err_adj = value,
            "t0" => self.t0 = value,
            _ => {
                return Err(format!(
                    "no annealing parameter {name}: the parameters are {}",
                    Self::NAMES.join(", ")
                ));
            }
        }
        Ok(())
    }

    /// The temperature at step `k` of a schedule with constant `c` over `dims` dimensions.
    fn temperature(&self, k: u64, c: f64, dims: f64) -> f64 {
        self.t0 * (-c * (k as f64).powf(1.0 / dims)).exp()
    }

    /// The energy below which the step `k` from energy `now` moves: a lower energy always and
    /// a higher one with probability exp(err_adj · (now − next) / T_h(k)), that is when
    /// next < now − T_h(k) · ln(u) / err_adj for a uniform u. Drawn before the neighbour is
    /// scored, so that scoring may stop as soon as it knows the energy is not below.
    pub fn acceptance_bound(&self, now: f64, k: u64, random: &mut SplitMix64) -> f64 {
        let t = self.temperature(k, self.hc, self.hdims);
        now - t * random.unit().ln() / self.err_adj
    }

    /// The neighbour temperature at step `k`.
    pub fn neighbour_temperature(&self, k: u64) -> f64 {
        self.temperature(k, self.yc, self.ydims) * self.nbr_adj
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_is_set_by_its_name_and_bad_values_change_nothing() {
        let mut annealing = Annealing::default();
        for (k, name) in Annealing::NAMES.iter().enumerate() {
            annealing.set(name, 2.0 + k as f64).unwrap();
        }
        let set = Annealing {
            yc: 2.0,
            hc: 3.0,
            ydims: 4.0,
            hdims: 5.0,
            nbr_adj: 6.0,
            err_adj: 7.0,
            t0: 8.0,
            k0: 9,
            attempts: 10,
        };
        assert_eq!(annealing, set);
        for (name, value) in [
            ("t0", f64::NAN),
            ("t0", -1.0),
            ("yc", 0.0),
            ("k0", 1.5),
            ("k0", -1.0),
            ("attempts", 0.0),
        ] {
            let refused = annealing.set(name, value).unwrap_err();
            assert!(refused.contains(name), "{refused}");
        }
        annealing.set("k0", 0.0).unwrap();
        assert_eq!(annealing.k0, 0);
        let unknown = annealing.set("cooling", 1.0).unwrap_err();
        assert!(unknown.contains("yc, hc"), "{unknown}");
        assert_eq!(Annealing { k0: 9, ..annealing }, set);
    }

    #[test]
    fn graspits_default_schedule_cools_from_t0() {
        let annealing = Annealing::default();
        let hot = annealing.neighbour_temperature(0);
        assert_eq!(hot, annealing.t0);
        let later = annealing.neighbour_temperature(annealing.k0);
        assert!(later < hot && later > 0.0);
        let cooler = Annealing {
            yc: 14.0,
            ..annealing
        };
        assert!(cooler.neighbour_temperature(annealing.k0) < later);
    }
}
