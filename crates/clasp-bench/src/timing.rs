//! Side-by-side timing: our call and parry's, in both argument orders, interleaved pose by pose
//! and round by round, each batch long enough (≥ 20 µs) for the clock to be honest.

use std::time::{Duration, Instant};

use nalgebra::Isometry3;

/// Median nanoseconds per call.
pub struct Timed {
    pub ours: f64,
    /// parry in its faster argument order.
    pub parry: Option<f64>,
    /// parry with the link first, and with the object first.
    pub parry_orders: Option<(f64, f64)>,
}

impl Timed {
    /// How many times faster we are than parry.
    pub fn ratio(&self) -> Option<f64> {
        self.parry.map(|p| p / self.ours)
    }
}

const BATCH: Duration = Duration::from_micros(20);

/// How many calls make a batch of at least [`BATCH`].
fn repetitions(call: &mut dyn FnMut()) -> usize {
    let start = Instant::now();
    call();
    let once = start.elapsed();
    (BATCH.as_nanos() / once.as_nanos().max(1)).clamp(1, 10_000) as usize
}

fn batch(call: &mut dyn FnMut(), reps: usize) -> f64 {
    let start = Instant::now();
    for _ in 0..reps {
        call();
    }
    start.elapsed().as_nanos() as f64 / reps as f64
}

/// Times `ours` and `parry` (`bool`: object first) on every pose, for about `budget`.
pub fn time_calls(
    poses: &[Isometry3<f64>],
    budget: Duration,
    ours: impl Fn(&Isometry3<f64>),
    parry: Option<impl Fn(&Isometry3<f64>, bool)>,
) -> Timed {
    let reps: Vec<[usize; 3]> = poses
        .iter()
        .map(|p| {
            let parry_reps = |flip: bool| match &parry {
                Some(f) => repetitions(&mut || f(p, flip)),
                None => 0,
            };
            [
                repetitions(&mut || ours(p)),
                parry_reps(false),
                parry_reps(true),
            ]
        })
        .collect();
    let mut samples: [Vec<f64>; 3] = Default::default();
    let start = Instant::now();
    let mut rounds = 0;
    while rounds < 3 || (start.elapsed() < budget && rounds < 200) {
        for (p, r) in poses.iter().zip(&reps) {
            samples[0].push(batch(&mut || ours(p), r[0]));
            if let Some(f) = &parry {
                samples[1].push(batch(&mut || f(p, false), r[1]));
                samples[2].push(batch(&mut || f(p, true), r[2]));
            }
        }
        rounds += 1;
    }
    let orders = parry
        .as_ref()
        .map(|_| (median(&samples[1]), median(&samples[2])));
    Timed {
        ours: median(&samples[0]),
        parry: orders.map(|(a, b)| a.min(b)),
        parry_orders: orders,
    }
}

pub fn median(values: &[f64]) -> f64 {
    percentile(values, 0.5)
}

/// The value below which `fraction` of `values` lie (nearest rank).
pub fn percentile(values: &[f64], fraction: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let rank = ((sorted.len() as f64 * fraction).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// Nanoseconds as a reader takes them: ns, us or ms.
pub fn format_ns(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} us", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}
