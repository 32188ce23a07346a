//! The thread pool the parallel commands (`batch`, `domains`, `plan`) run on.

use std::path::Path;

use crate::output::{Failure, world_error};

/// A pool of `threads` threads (0: every core) for the commands that run in parallel; a pool
/// that cannot be built is a failure about `file`.
pub(crate) fn thread_pool(threads: usize, file: &Path) -> Result<rayon::ThreadPool, Failure> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| world_error(file, e))
}
