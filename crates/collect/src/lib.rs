//! Keeping chess game collections clean: the output forms people convert games to, duplicate
//! detection, and splitting collections into files.
//!
//! - [`Form`]: how games are written — stripped of comments, NAGs, variations or tags; with
//!   added tags (`PlyCount`, `Zobrist`, `FinalFEN`, ECO by position); moves in SAN, long
//!   algebraic or UCI, in other piece letters or figurines; with or without move numbers and
//!   results; any line length, one game per line; variations split into games.
//!
//! It sits above `tabia-eco` (for ECO tags by position) and under the `tabia` binary, which
//! only parses arguments into these types.

#![deny(missing_docs)]

mod form;

pub use form::{Form, FormError};
pub use tabia_eco as eco;
pub use tabia_position as position;
pub use tabia_position::notation;
