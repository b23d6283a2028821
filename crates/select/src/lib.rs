//! Game selection: which games of a collection match criteria on their tags, players,
//! ratings, openings, the positions they reach, board patterns, material and moves.
//!
//! - Criteria are small types read from text (`FromStr`, with [`ParseError`]s that name the
//!   bad part) and written back (`Display`): [`TagCriterion`] (`Date>=2020`), [`NamePattern`]
//!   (players, accents and case folded), [`ResultCriterion`], [`EloRange`], [`DateRange`],
//!   [`Bounds`], [`VariantName`], [`EcoRange`], [`PositionTarget`], [`Zobrist`],
//!   [`MoveSequence`], [`FenPattern`] (pgn-extract's FENPattern syntax), [`Material`]
//!   (pgn-extract's material descriptions) and game [`Feature`]s; [`Criterion`] holds any one.
//! - [`Query`]: criteria combined — the same kind with OR, different kinds with AND — with
//!   [`Options`] (search variations, a ply range, a side to move, ECO by position).
//! - [`Matcher`]: a PGN [`Visitor`](tabia_notation::pgn::Visitor) that decides each game as the
//!   reader reads it, reading no more than it must: tag criteria before the movetext (skipped
//!   unread when they decide), position criteria while replaying, with incremental Polyglot
//!   hashes and an early stop once the target can no longer be reached. It gives a [`Verdict`]
//!   with the [`Hit`] that decided it (criterion, ply, FEN, place in the game tree).
//! - Selecting as `tabia filter` does: [`Selection`] (a query, inverted or not, among some
//!   game numbers) says which verdicts select their game; [`Query::mark`] marks where a game
//!   matched (a `MatchPly` tag, a `{match: …}` comment) and [`MatchRecord`] describes it (it
//!   serialises with serde); [`TagsSeen`] names the tags of `tag` criteria that no game had
//!   ([`MissingTag`], with a close name); [`Criterion::parse_list`] reads criteria one a line
//!   (a criteria file), its [`CriteriaError`] placed as every error is
//!   ([`Located`](tabia_notation::Located)).
//!
//! ```
//! use tabia_notation::pgn::PgnReader;
//! use tabia_select::{Criterion, Matcher, Options, Query};
//!
//! let query = Query::new(
//!     vec![
//!         Criterion::Player(tabia_select::Side::Either, "carlsen".parse()?),
//!         Criterion::Moves("1. d4 Nf6".parse()?),
//!     ],
//!     Options::default(),
//! );
//! let pgn = "[White \"Carlsen, Magnus\"]\n[Black \"Caruana, Fabiano\"]\n\n1. d4 Nf6 2. c4 e6 1/2-1/2\n";
//! let verdict = PgnReader::new(pgn.as_bytes()).read_game(&mut Matcher::new(&query))?.expect("a game")?;
//! assert!(verdict.matched);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod board;
mod criterion;
mod date;
mod error;
mod header;
mod matcher;
mod material;
mod pattern;
mod position;
mod query;
mod range;
mod selection;
mod tag;
mod text;

pub use criterion::{Criterion, Feature, Side};
pub use date::{DateRange, PgnDate};
pub use error::{ParseError, ParseErrorKind};
pub use header::{EcoRange, EloRange, ResultCriterion, VariantName};
pub use matcher::{Hit, Matcher, Verdict};
pub use material::Material;
pub use pattern::FenPattern;
pub use position::{MoveSequence, PositionTarget, Zobrist};
pub use query::{Options, Query};
pub use range::{Bounds, GameNumbers};
pub use selection::{CriteriaError, MatchRecord, MissingTag, Selection, TagsSeen};
pub use tabia_eco as eco;
pub use tag::{TagCriterion, TagOp, close_tag_name};
pub use text::{NamePattern, fold};

/// The error messages the unit tests snapshot, against `tests/messages/<name>.txt`.
#[cfg(test)]
mod golden {
    use std::fmt::Display;

    /// Messages collected in order, each checked as one golden file.
    #[derive(Default)]
    pub(crate) struct Messages(Vec<String>);

    impl Messages {
        pub(crate) fn push(&mut self, message: impl Display) {
            self.0.push(message.to_string());
        }

        /// Compares the messages (a blank line between two) with
        /// `tests/messages/<name>.txt` (`TABIA_BLESS=1` writes it).
        pub(crate) fn check(&self, name: &str) {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/messages")
                .join(format!("{name}.txt"));
            tabia_testkit::expect_file(&path, &format!("{}\n", self.0.join("\n\n")));
        }
    }
}
