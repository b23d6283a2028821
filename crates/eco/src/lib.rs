//! ECO classification: names the opening of a position or a game by looking its positions up in
//! an opening table, so that transpositions count.
//!
//! - [`Table`]: named positions ([`Opening`]: ECO code, Scid extended code, name, moves) indexed
//!   by the position key of `tabia-position`. Two tables come with the crate (no file, no
//!   download; [`Openings`]): lichess's, the default ([`Table::embedded`]), and Scid's
//!   ([`Table::builtin`]); [`Table::from_bytes`] reads pgn-extract's `eco.pgn`, Scid's `.eco`
//!   or a lichess-style TSV at run time ([`TableFormat`]).
//! - Position → opening: [`Table::lookup`], an exact key match (placement, side to move,
//!   castling rights, en passant only when a capture is legal; no clocks).
//! - Game → opening: [`Classifier`] replays the mainline and names the game as lichess does:
//!   by the last named position of its first [`MAX_PLIES`] plies, up to the first position with
//!   fewer than [`MIN_PIECES`] pieces ([`Classification`], [`Match`]);
//!   [`GameVisitor`] does it for the PGN reader of `tabia-notation`, [`Table::classify_game`]
//!   for a parsed game, and [`Follower`] along a replay the caller runs anyway (shown each
//!   position, it plays no move itself). [`CheckingVisitor`] also checks the game to its end
//!   in the same pass ([`Classified`]: the opening and the warnings);
//!   [`Table::set_opening_tags`] writes the opening into a game's tags ([`TagChanges`]).
//!
//! ```
//! use tabia_eco::Table;
//!
//! let table = Table::embedded();
//! let m = table.classify_moves(["c4", "e6", "d4", "Nf6", "Nc3", "Bb4", "Qc2"])?.expect("named");
//! assert_eq!(m.opening.eco(), "E32");
//! assert_eq!(m.opening.name(), "Nimzo-Indian Defense: Classical Variation");
//! assert_eq!(m.ply, 7);
//! # Ok::<_, tabia_eco::position::MoveError>(())
//! ```

#![deny(missing_docs)]

mod checked;
mod classify;
mod embedded;
mod error;
mod game;
mod layout;
mod load;
mod opening;
mod table;

pub use checked::{CheckingVisitor, Classified};
pub use classify::{Classification, Classifier, Follower, MAX_PLIES, MIN_PIECES, Match};
pub use embedded::{Openings, UnknownOpenings};
pub use error::{LoadError, LoadErrorKind};
pub use game::{ClassifyError, GameVisitor};
#[doc(hidden)]
pub use layout::compile;
pub use load::TableFormat;
pub use opening::{Opening, TagChanges};
pub use tabia_position as position;
pub use table::Table;
