//! ECO classification: names the opening of a position or a game by looking its positions up in
//! an embedded opening table, so that transpositions count.

#![deny(missing_docs)]

pub use tabia_position as position;
