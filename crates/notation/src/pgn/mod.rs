//! Portable Game Notation: a streaming reader, a visitor, an owned game tree and a writer.
//!
//! - [`PgnReader`] reads games one at a time from any [`std::io::Read`]: into a [`Visitor`]
//!   ([`PgnReader::read_game`], no allocation on the way), as owned [`Game`] trees
//!   ([`PgnReader::games`]), or as raw bytes to be parsed later, on other threads
//!   ([`PgnReader::read_raw_game`], [`RawGame::parse`]).
//! - [`Game`] is the tree: tags in order, the mainline with its variations, comments before
//!   and after moves, NAGs, result. Its `Display` writes the PGN export format.
//!
//! ```
//! use tabia_notation::pgn::{PgnReader, Visitor, SanPlus, Origin};
//!
//! /// Counts the moves of each game, variations included.
//! struct Count(usize);
//!
//! impl Visitor for Count {
//!     type Output = usize;
//!     fn san(&mut self, _san: SanPlus, _at: Origin) {
//!         self.0 += 1;
//!     }
//!     fn end_game(&mut self) -> usize {
//!         std::mem::take(&mut self.0)
//!     }
//! }
//!
//! let pgn = b"[Event \"x\"]\n\n1. e4 e5 (1... c5) 2. Nf3 1-0\n";
//! let mut reader = PgnReader::new(&pgn[..]);
//! assert_eq!(reader.read_game(&mut Count(0))?, Some(4));
//! assert_eq!(reader.read_game(&mut Count(0))?, None);
//! # Ok::<_, tabia_notation::pgn::ReadError>(())
//! ```
//!
//! # What is read
//!
//! Tag pairs (`\"` and `\\` escapes in values), move numbers (`12.`, `12...`), SAN, NAGs
//! (`$n`, and the suffixes `! ? !! ?? !? ?!` as NAGs 1–6), `{}` and `;` comments, variations
//! nested to any depth (an explicit counter, no recursion), results, `%` escape lines (skipped,
//! as the standard says), a byte order mark, `\n`, `\r\n` and `\r` line ends. Bytes that are not
//! UTF-8 are decoded as Latin-1. Games need no blank line between them and need no tags. A game
//! ends with its result; a `[` before the result starts the next game (and the first one is
//! reported as having no result).
//!
//! # Errors
//!
//! A bad game is reported as [`ReadError::Syntax`]: an [`Error`](crate::Error) with its kind,
//! byte span (absolute in the input), line, column and a caret snippet. The reader then skips
//! to the end of that game (its result, or the `[` of the next one) and goes on. No input makes
//! it panic; time is linear in the input size.
//!
//! # Memory
//!
//! The reader holds one buffer ([`DEFAULT_CAPACITY`] bytes unless told otherwise, see
//! [`PgnReader::with_capacity`]) whatever the size of the input. A tag pair must fit in half the
//! buffer (a longer one is reported as an error); a comment longer than the buffer goes to the
//! visitor in pieces ([`Visitor::partial_comment`]); skipping never buffers. The owned [`Game`]
//! tree holds what it stores, and [`RawGame`] holds the game's bytes.

mod command;
mod comment;
mod edit;
mod game;
mod movetext;
mod reader;
mod rule;
mod tag;
mod variant;
mod visitor;
mod warning;
mod writer;

pub use crate::{Nag, san::SanPlus};
pub use command::{
    Arrow, Command, CommandKind, Comment, CommentPart, CommentParts, Eval, MarkColor, Score,
    SquareMark, UnknownCommandKind, strip_commands,
};
pub use comment::RawComment;
pub use edit::Strip;
pub use game::{Game, Line, Move};
pub use movetext::Outcome;
pub use reader::{Cut, DEFAULT_CAPACITY, Games, Origin, PgnReader, RawGame, RawGames, ReadError};
pub use tag::{RawTag, push_tag};
pub use variant::variant_name;
pub use visitor::{Both, Skip, Visitor};
pub use warning::{Level, Warning, WarningKind};
pub use writer::{MoveText, MovetextWriter, SanText, WriteOptions, write_export_tags};
