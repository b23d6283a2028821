//! The tabia position engine: chess rules over [`shakmaty`].
//!
//! Turns the syntax of `tabia-notation` into positions and moves: positions from FEN and EPD,
//! legal SAN and UCI moves, replay of games into the FEN or EPD of every ply, validation that
//! explains each problem, board editing, position keys and renderings.
//!
//! Main types:
//!
//! - [`Position`]: a legal position (standard or Chess960) with its FEN/EPD writers, the
//!   en-passant rule chosen by the caller ([`EpRule`]), moves from text with explained errors
//!   ([`MoveError`]) and canonical SAN out.
//! - [`PositionKey`]: the compact position key (placement, side, castling, en passant only when
//!   a capture is legal; no clocks), usable as a `HashMap` key, with its string form; and
//!   [`Position::zobrist`], the 64-bit Polyglot hash.
//! - [`Editor`]: a board that may be illegal, edited square by square, and [`Problem`]: every
//!   reason why it is not a legal position, each with a message.
//! - Game replay over the PGN tree of `tabia-notation`: [`replay()`] (mainline and every
//!   variation), [`replay_mainline`], [`check_game`] (legality, and a result that agrees with a
//!   mate on the board), [`epdlist`]; [`MainlineReplayer`] replays while the reader reads;
//!   [`EpdLines`] writes the EPD (or FEN) of every ply, one a line, either way.
//!   Errors ([`ReplayError`]: the game cannot be read) name the move, its ply and its line and
//!   column; warnings ([`ReplayWarning`], in [`Replayed::warnings`]: the game was read, something was
//!   repaired or looks wrong) likewise.
//! - [`Checker`]: the checks of [`check_game`] made while the reader reads (a stack of
//!   positions for the variations, no game tree), and [`check_reader`]: every game of an
//!   input checked so, what `tabia pgn --check` runs; [`Exporter`]: the same checks, and the
//!   game written in export format as it is read (what `tabia pgn` writes, with no tree);
//!   [`Exporting`]: the same, the text handed over with the verdict ([`ExportedGame`]).
//! - [`Termination`]: checkmate, stalemate, insufficient material, the 50- and 75-move rules,
//!   threefold and fivefold repetition ([`History`]); [`MoveStack`]: a position with the moves
//!   that led to it, for `pop`, repetitions and the draws that may be claimed, by python-chess's
//!   rules for its `Board`.
//!
//! Position arguments ([`Position::from_arg`], [`Editor::from_arg`]) are a full FEN, a partial
//! FEN, an EPD or `startpos`; standard chess or Chess960 as the castling letters (or a
//! `Variant` tag) say. An argument that names positions to look for ([`PositionArg`]) may be
//! a bare placement: every position with it, either side to move, any castling rights.
//!
//! ```
//! use tabia_position::{EpRule, Position};
//!
//! let mut pos = Position::new();
//! let m = pos.parse_move("e4")?;
//! pos.play_unchecked(m);
//! assert_eq!(pos.fen(EpRule::Always), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
//! assert_eq!(pos.key().to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -");
//! # Ok::<_, tabia_position::MoveError>(())
//! ```

#![deny(missing_docs)]

mod arg;
mod check;
mod convert;
mod edit;
mod error;
mod export;
mod exporting;
mod form;
mod hasher;
mod key;
mod lenient;
mod moves;
mod outcome;
mod parse;
mod plies;
mod position;
mod replay;
mod square;
mod stack;
mod stream;
mod validate;
mod variant;
mod walk;
mod warning;
mod write;

pub use arg::PositionArg;
pub use check::{
    CheckError, Checked, CheckedGames, Checker, Mainline, check_reader, unsupported_variant,
};
pub use convert::variant_mode;
pub use edit::Editor;
pub use export::Exporter;
pub use exporting::{ExportedGame, Exporting};
pub use form::{MoveWriter, Notation, ParseNotationError, ReplayTags};
pub use hasher::{BuildKeyHasher, KeyHasher, hash_of};
pub use key::PositionKey;
pub use moves::{MoveError, MoveErrorKind};
pub use outcome::{History, Termination};
pub use parse::ParsePositionError;
pub use plies::EpdLines;
pub use position::{EpRule, Position, SetupError, ZobristTracker};
pub use replay::{
    Ply, ReplayError, ReplayErrorKind, Replayed, StartTags, check_game, epdlist, repair_game,
    repair_game_with, replay, replay_mainline, start_position, start_position_with_warnings,
};
pub use shakmaty;
pub use shakmaty::variant::Variant;
pub use square::{algebraic_to_xy, xy_to_algebraic, xy_to_square};
pub use stack::MoveStack;
pub use stream::MainlineReplayer;
pub use tabia_notation as notation;
pub use tabia_notation::pgn::Level;
pub use validate::{Problem, validate};
pub use variant::{GameVariant, UnknownVariant, parse_variant};
pub use walk::{Played, Replay};
pub use warning::{ReplayWarning, ReplayWarningKind};

// Renderings: ASCII, Unicode, SVG, PNG, LaTeX, HTML.
mod render;

#[cfg(feature = "png")]
pub use render::render_png;
pub use render::{
    LastMove, ParseRenderFormatError, RenderError, RenderFormat, RenderOptions, diagram_setup,
    render, render_ascii, render_html, render_latex, render_svg, render_unicode, svg_height,
    svg_width,
};
