//! GraspIt world XML: obstacles, graspable bodies and robots, each from a file (or, for bodies,
//! inline) and placed; robots mounted on robots; the saved camera. Loading and saving.

pub(crate) mod dof_stream;
pub(crate) mod load;
mod paths;
mod robot_bodies;
pub(crate) mod save;
#[cfg(test)]
mod tests;
