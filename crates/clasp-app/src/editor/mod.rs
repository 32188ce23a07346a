//! The app's state and every request a user makes of it. The state is resources that change
//! at different rates — the world ([`Document`]), the [`Selection`], the undo [`History`], the
//! [`ViewSettings`], the [`Log`], the planner's and the dynamics' state — so Bevy's change detection tells each
//! view what to redraw. [`Editor`] borrows them together for a request; a request marks changed
//! only what it changes. No Bevy systems live here; they turn pointer and keyboard input into
//! these requests and show the result (design: input → request → core → ECS view).
//!
//! The resources are defined in `resources`, `history`, `plans`, `simulation` and `timeline`; the [`Editor`] and its
//! requests in `requests`, `move_requests`, `history_requests` and `file_requests`.

pub use crate::files::ImportKind;
pub use grasp_test::{GraspTest, Playback};
pub use history::History;
pub use move_requests::axis;
pub use plans::Planning;
pub use requests::{Editor, edit, install_editor, move_editor};
pub use resources::{
    Document, FrameRequest, Framing, Log, LogEntry, Picked, QualityReport, Selection, ShownCamera,
    ViewSettings,
};
pub use simulation::{Sample, Simulation, TRACE_LENGTH, Trace};
pub use timeline::{
    Kept, TIMELINE_INTERVAL, TIMELINE_LENGTH, Timeline, TimelineMoment, TimelineSource,
};

pub mod collision_state;
pub mod file_requests;
pub mod grasp_test;
pub mod hand_requests;
pub mod history;
pub mod history_requests;
pub mod move_requests;
pub mod plans;
pub mod requests;
pub mod resources;
pub mod simulation;
pub mod timeline;
