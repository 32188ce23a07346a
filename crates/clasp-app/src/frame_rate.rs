//! The frame counter (View → Frame rate): frames a second and frame-time percentiles over the
//! last frames, shown in the status bar on demand and written to the state file, so the app's
//! speed can be measured on any machine (`--exit-after` with `--state-out`).

use std::collections::VecDeque;

use bevy::prelude::*;
use serde::Serialize;

/// Frames the figures are taken over.
const KEPT: usize = 1000;

/// Frames left out at the start: the first frames build pipelines and upload meshes.
const WARM_UP: u64 = 30;

/// The last frames' times.
#[derive(Resource, Debug, Default)]
pub struct FrameTimes {
    recent: VecDeque<f64>,
    frames: u64,
}

/// What the counter shows and writes.
#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
pub struct FrameRate {
    pub frames_per_second: f64,
    pub median_ms: f64,
    pub p99_ms: f64,
    /// How many frames the figures are over.
    pub frames: usize,
}

impl FrameTimes {
    /// Counts a frame that took `seconds`.
    pub fn record(&mut self, seconds: f64) {
        self.frames += 1;
        if self.frames <= WARM_UP || !(seconds.is_finite() && seconds > 0.0) {
            return;
        }
        if self.recent.len() == KEPT {
            self.recent.pop_front();
        }
        self.recent.push_back(seconds);
    }

    /// The figures over the frames kept, once there are any.
    pub fn rate(&self) -> Option<FrameRate> {
        if self.recent.is_empty() {
            return None;
        }
        let mut sorted: Vec<f64> = self.recent.iter().copied().collect();
        sorted.sort_by(f64::total_cmp);
        let at = |fraction: f64| sorted[((sorted.len() - 1) as f64 * fraction).round() as usize];
        let total: f64 = sorted.iter().sum();
        Some(FrameRate {
            frames_per_second: sorted.len() as f64 / total,
            median_ms: at(0.5) * 1000.0,
            p99_ms: at(0.99) * 1000.0,
            frames: sorted.len(),
        })
    }
}

impl FrameRate {
    /// "143 fps · 6.9 ms median · 9.8 ms p99".
    pub fn summary(&self) -> String {
        format!(
            "{:.0} fps · {:.1} ms median · {:.1} ms p99",
            self.frames_per_second, self.median_ms, self.p99_ms
        )
    }
}

fn count_frame(mut times: ResMut<FrameTimes>, time: Res<Time<Real>>) {
    times.record(time.delta_secs_f64());
}

pub struct FrameRatePlugin;

impl Plugin for FrameRatePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<FrameTimes>()
            .add_systems(First, count_frame);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_leaves_out_the_warm_up_and_takes_percentiles() {
        let mut times = FrameTimes::default();
        for _ in 0..WARM_UP {
            times.record(1.0);
        }
        assert_eq!(times.rate(), None, "warm-up frames are not counted");
        // Two slow frames in a hundred: the 99th percentile is slow, the median is not.
        for k in 0..100 {
            times.record(if k >= 98 { 0.1 } else { 0.01 });
        }
        let rate = times.rate().unwrap();
        assert_eq!(rate.frames, 100);
        assert!((rate.median_ms - 10.0).abs() < 1e-9);
        assert!((rate.p99_ms - 100.0).abs() < 1e-9, "{rate:?}");
        assert!((rate.frames_per_second - 100.0 / 1.18).abs() < 1e-9);
        for _ in 0..2 * KEPT {
            times.record(0.004);
        }
        let rate = times.rate().unwrap();
        assert_eq!(rate.frames, KEPT, "only the last frames count");
        assert!((rate.frames_per_second - 250.0).abs() < 1e-6);
    }
}
