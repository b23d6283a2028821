//! A position index of game collections: what was played from a position, how it scored,
//! which games reached it, answered in milliseconds without reading the games again — the
//! data of lichess's opening explorer, for any PGN collection.
//!
//! - **Build** an index of PGN files on all cores ([`Index::build`]), add next month's games
//!   ([`Index::add`]: a game already there is a duplicate, not counted twice), join indexes
//!   built apart ([`Index::merge`]); or drive the writer yourself: [`prepare`] games on any
//!   thread, [`IndexWriter::push`] them, [`IndexWriter::commit`].
//! - **Ask** it ([`Index::open`]): [`Index::explore`] gives lichess's explorer answer for a
//!   position ([`Explorer`]: moves with their results and mean rating, the best rated and most
//!   recent games, the opening), filtered by speed, rating band and month ([`Filter`]);
//!   [`Index::games`] every game that reached a position, by any move order;
//!   [`Index::player`] one player's view (lichess's personal explorer); [`Index::pgn`] a game.
//!
//! Positions are keyed by the position itself ([`PosKey`], 96 bits), so move orders meet. The
//! index is one [redb](https://docs.rs/redb) file (`index.redb` in its folder): each commit
//! is atomic, a killed writer leaves the last commit, and other processes read while one
//! writes. `docs/index.md` has the layout, the choice of storage engine and the figures.
//!
//! ```
//! use tabia_index::{Filter, Index, IndexOptions, Limits, Request};
//!
//! let dir = tempfile::tempdir()?;
//! let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/pgn/ok/sample.pgn");
//! let summary = Index::build(dir.path(), &[file.into()], IndexOptions::default(), 0)?;
//! assert_eq!((summary.read, summary.indexed), (1, 1));
//!
//! let index = Index::open(dir.path())?;
//! let request = Request::parse(None, Some("e2e4"), None)?;
//! let answer = index.explore(&request, &Filter::default(), Limits::default())?;
//! assert_eq!(answer.opening.map(|o| o.name).as_deref(), Some("King's Pawn Game"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod answer;
mod bucket;
mod build;
mod entry;
mod error;
mod filter;
mod game;
mod index;
mod key;
mod request;
mod store;
mod varint;
mod writer;

pub use answer::{
    Explorer, ExplorerMove, GameRecord, GameSummary, HistoryMonth, OpeningName, Player,
    PlayerExplorer, PlayerMove,
};
pub use build::Summary;
pub use error::IndexError;
pub use filter::{Filter, FilterError, Month, RatingBand, Speed};
pub use game::{GameInfo, Outcome, PrepareError, Prepared, prepare};
pub use index::{GamesPage, Index, IndexInfo, Limits, MoveFigures, TableSize};
pub use key::PosKey;
pub use request::{Request, RequestError};
pub use store::FORMAT;
pub use writer::{IndexOptions, IndexWriter, Pushed};

#[cfg(test)]
mod tests;
