//! Chess games by the million, one dependency.
//!
//! Read every game of files — PGN, compressed (zstd, gzip, bzip2, xz) or in zip archives,
//! folders of them — on all cores, in input order, with one call; then take what the layers
//! below give: positions, openings, selections, tables, trees, books, statistics.
//!
//! ```
//! # let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/pgn/ok/sample.pgn");
//! for game in tabia::read([file]) {
//!     let game = game?; // a bad game or a truncated file is an `Err` here
//!     let opening = tabia::opening(&game);
//!     let plies = tabia::Replay::new(&game).count();
//!     println!("{} {plies}", opening.map_or("?", |o| o.eco()));
//! }
//! # Ok::<(), tabia::GameError>(())
//! ```
//!
//! | to get | call |
//! |---|---|
//! | games, parsed on all cores | [`read`], [`Reader::games`] |
//! | anything per game, on all cores | [`Reader::map`] |
//! | the moves and positions of a game | [`Replay`] (an iterator; [`Played::epd`], [`Played::uci`]) |
//! | the EPD or FEN of every ply, one a line | [`position::EpdLines`] |
//! | its opening | [`opening`] ([`eco::Table`] for another table) |
//! | the games that match criteria | [`Reader::select`] with a [`select::Query`]; [`Reader::select_map`] |
//! | selecting, marking, recording as `tabia filter` does | [`select::Selection`], [`select::Query::mark`], [`select::MatchRecord`] |
//! | a collection split into files | [`collect::Splitter`] over [`collect::Files`] |
//! | a diagram of a position | [`position::diagram_setup`], [`position::render`] |
//! | statistics of a collection | [`Reader::stats`] |
//! | its opening and warnings, as it is read | [`eco::CheckingVisitor`] ([`eco::Classified`]) |
//! | an opening tree, a Polyglot book | [`Reader::tree`], [`book::Book::from_tree`] |
//! | a book's moves where moves lead | [`book::Book::probe_after`] ([`book::Probe`]) |
//! | Arrow record batches (feature `table`) | [`Reader::table`] |
//! | a position index: explorer answers, the games of a position | [`index::Index::build`], [`index::Index::explore`], [`index::Index::games`] |
//! | engine analysis: evals, advice, accuracy, each position once | [`analyse::Pool`], [`analyse::Analyser`], [`analyse::Plan::annotate`] |
//! | every game of files analysed, as `tabia analyse` does | [`Reader::analyse`], [`Reader::analyse_map`] ([`Analysed`]) |
//!
//! The layers are re-exported as modules: [`notation`] (FEN, EPD, SAN, PGN syntax),
//! [`position`] (rules, replay, keys, rendering), [`eco`], [`select`], [`stream`] (inputs and
//! the ordered parallel pipeline), [`book`], [`collect`] (forms, dedup, split), [`stats`],
//! [`index`] (the position index and explorer), [`analyse`] (UCI engines, the cache of
//! analyses, lichess's accuracy and advice) and [`table`].

#![deny(missing_docs)]

mod error;
mod reader;

pub use error::{GameError, GameErrorKind};
pub use reader::{Analysed, Gathered, InputArg, Item, Mapped, Reader, read};
pub use tabia_notation::pgn::Game;
pub use tabia_position::{Played, Position, Replay};
#[cfg(feature = "table")]
pub use tabia_table as table;
pub use {
    tabia_analyse as analyse, tabia_book as book, tabia_collect as collect, tabia_eco as eco,
    tabia_index as index, tabia_notation as notation, tabia_position as position,
    tabia_select as select, tabia_stats as stats, tabia_stream as stream,
};

/// The opening of `game` by the embedded table: the deepest named position its mainline
/// reaches, transpositions included; `None` when it reaches none (or cannot be replayed).
///
/// ```
/// let game: tabia::Game = "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *".parse()?;
/// let opening = tabia::opening(&game).expect("a Najdorf");
/// assert_eq!(opening.eco(), "B90");
/// # Ok::<_, tabia::notation::Error>(())
/// ```
pub fn opening(game: &Game) -> Option<&'static eco::Opening> {
    let table = eco::Table::embedded();
    table.classify_game(game).ok()?.matched().map(|m| m.opening)
}
