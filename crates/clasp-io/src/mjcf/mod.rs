//! MuJoCo's MJCF both ways: [`write::save_mjcf`] writes a world as MuJoCo 4 loads it, and
//! [`read::read_mjcf`] reads MJCF hands and objects into a world (the world loader calls it for a
//! file whose root is `<mujoco>`).

mod couplings;
mod document;
mod frames;
pub(crate) mod read;
mod shapes;
pub(crate) mod write;

/// MuJoCo's lengths are metres; Clasp's millimetres.
const MM_PER_M: f64 = 1000.0;
