//! Opening trees and opening books: what was played from a position in a collection of games,
//! how often and how it scored, and Polyglot `.bin` books built from it.
//!
//! - [`Tree`]: every move played from every position of the games added (up to
//!   [`TreeOptions::max_ply`]), keyed by the position key of `tabia-position`, so that
//!   transpositions merge; each move with its [`Tally`] (games, results, the average rating of
//!   the players who made it, first and last year). Trees built from parts of a collection
//!   (one per worker) are [merged](Tree::merge); a memory budget prunes rare moves and keeps
//!   every figure exact ([`Tree`] explains how). [`Trees`] grows one tree on many threads,
//!   the same tree whatever the threads, budget or not (games read in [`TreeBatch`]es).
//! - Games in: [`Tree::add_pgn_game`] (one game's PGN, as the reader splits them),
//!   [`Tree::add_pgn`] (a whole input), [`Tree::add_moves`] and [`Tree::add_sans`].
//! - Out: [`Tree::node`] (the moves of a position, most played first), [`TreeReport`] (a position
//!   and its moves, `depth` plies deep, with opening names from `tabia-eco`) as text, JSON or
//!   a self-contained HTML page ([`html_page`]).
//! - Polyglot books: [`Book`] (16-byte entries sorted by key), read with errors that name the
//!   byte offset ([`BookError`]), written, probed ([`Book::probe`]), merged, and built from a
//!   tree ([`Book::from_tree`], [`BookOptions`]); [`Book::probe_after`] probes the position
//!   that moves reach from a start ([`Probe`], shown as text or JSON; [`ProbeError`]). Moves use the Polyglot encoding
//!   ([`encode_move`], [`decode_move`]); keys are the Polyglot Zobrist hash of
//!   [`tabia_position::Position::zobrist`].

#![deny(missing_docs)]

mod encode;
mod game;
mod grow;
mod html;
mod polyglot;
mod probe;
mod report;
mod stats;
mod tree;

pub use encode::{code_text, decode_move, encode_move};
pub use game::AddGameError;
pub use grow::{TreeBatch, Trees};
pub use html::{HTML_POSITIONS, html_page};
pub use polyglot::{
    Book, BookError, BookErrorKind, BookMove, BookOptions, ENTRY_BYTES, Entry, Weight, polyglot_key,
};
pub use probe::{Probe, ProbeError};
pub use report::{Figures, MoveReport, Name, Others, TreeReport, TreeReportOptions};
pub use stats::{GameInfo, GameResult, Tally};
pub use tabia_position as position;
pub use tree::{END, MoveStats, Node, Tree, TreeOptions};
