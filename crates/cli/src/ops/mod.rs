//! The work of the commands that is the command line's own (diagnostics, outputs, sinks), kept
//! out of `cmd`, as cargo keeps `ops` apart from its `commands`: a file in `cmd` maps arguments
//! to library calls and these functions, and results to output. What a library user would want
//! lives in the library crates instead.

pub(crate) mod analyse;
pub(crate) mod book;
pub(crate) mod dedup;
pub(crate) mod eco;
pub(crate) mod epd;
pub(crate) mod filter;
pub(crate) mod index;
pub(crate) mod pgn;
pub(crate) mod show;
pub(crate) mod split;
#[cfg(feature = "table")]
pub(crate) mod table;
