//! The tabia position engine: chess rules over [`shakmaty`].
//!
//! Turns the syntax of `tabia-notation` into positions and moves: positions from FEN and EPD,
//! legal SAN and UCI moves, replay of games into the FEN or EPD of every ply, validation that
//! explains each problem, board editing, position keys and renderings.

#![deny(missing_docs)]

pub use shakmaty;
pub use tabia_notation as notation;

mod render;

#[cfg(feature = "png")]
pub use render::render_png;
pub use render::{
    Format, LastMove, ParseFormatError, RenderError, RenderOptions, render, render_ascii,
    render_html, render_latex, render_svg, render_unicode,
};
