//! Files in, games out, on all cores, in input order.
//!
//! `tabia-stream` is the machinery under every `tabia` subcommand that reads games, for library
//! users who want to read a 30 GB lichess dump on all cores without copying it:
//!
//! 1. **Open** an input: [`Input::open`] (a path), [`Input::stdin`], [`Input::from_reader`]
//!    (anything that reads), or [`Source`] for the command-line convention (`-` is standard
//!    input). zstd, gzip, bzip2 and xz are recognised by their magic bytes whatever the name,
//!    concatenated frames and members included ([`Compression`], [`decompress`]); a zip
//!    archive is a source per PGN entry ([`Source::from_args`]).
//! 2. **Split** it into items: [`SplitGames`] gives each PGN game as raw bytes with its byte offset
//!    and line ([`RawGame`], from `tabia-notation`'s splitter; no chess rules here), [`TextLines`]
//!    gives lines for FEN and EPD files.
//! 3. **Process** the items on N workers and receive the results in input order: one
//!    abstraction, [`Work`] (what a worker does with each item of a batch and with the batch),
//!    run by [`Pipeline::run`] over any items or [`Pipeline::run_games`] over the games of a
//!    PGN input that the workers split themselves; [`fold`] makes a `Work` of a closure, and
//!    [`Pipeline::map`] gives one result per item.
//!    Memory is bounded whatever the input size: at most `2 × jobs + 2` batches of about
//!    [`BATCH_BYTES`] exist at once.
//! 4. **Or read a part** of one large uncompressed file, for a cluster that gives each machine
//!    a byte range: [`ranges`] plans them, [`Span::locate`] finds the games that start in one
//!    (each game is in exactly one range, with its number and line in the file), and
//!    [`Pipeline::run_games_from`] reads them.
//!
//! Counting the games of each result in a (possibly compressed) PGN file on all cores:
//!
//! ```
//! use std::collections::BTreeMap;
//!
//! use tabia_stream::{Pipeline, RawGame, Source, fold};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     // A command-line tool would take `std::env::args()`; `-` is standard input.
//!     let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/pgn/ok/sample.pgn");
//!     let input = Source::from(std::path::Path::new(file)).open()?;
//!     let name = input.name().to_owned();
//!
//!     let mut results: BTreeMap<String, u64> = BTreeMap::new();
//!     let outcome = Pipeline::new() // one worker per core
//!         .run(
//!             input.games(),
//!             // On a worker: parse each game of the batch, count its result.
//!             &fold(|counts: &mut BTreeMap<String, u64>, _number, game: &RawGame| {
//!                 let result = match game.parse() {
//!                     Ok(game) => game.result.as_str().to_owned(),
//!                     Err(_) => "unreadable".to_owned(),
//!                 };
//!                 *counts.entry(result).or_default() += 1;
//!             }),
//!             // On this thread, batch after batch in input order.
//!             |counts, _numbers| {
//!                 for (result, n) in counts {
//!                     *results.entry(result).or_default() += n;
//!                 }
//!                 Ok::<(), std::convert::Infallible>(())
//!             },
//!         )?;
//!     if let Some(err) = outcome.input_error {
//!         eprintln!("{err}"); // e.g. `games.pgn.zst: read error`: a cut-off file
//!     }
//!     println!("{name}: {} games", outcome.items);
//!     for (result, n) in &results {
//!         println!("{result:>8} {n}");
//!     }
//!     assert_eq!(results.values().sum::<u64>(), outcome.items);
//!     Ok(())
//! }
//! ```

#![deny(missing_docs)]

mod archive;
mod chunk;
mod compression;
mod error;
mod input;
mod pipeline;
mod range;
mod split;
mod work;
mod zstd_frames;

pub use archive::ZipEntry;
pub use chunk::Visited;
pub use compression::{Compression, decompress, decompress_with};
pub use error::{InputError, InputErrorKind};
pub use input::{BytesRead, Input, Source, expand_folders};
pub use pipeline::{BATCH_BYTES, Pipeline, Processed, Weigh};
pub use range::{Span, ranges};
pub use split::{SplitGames, TextLine, TextLines};
/// A game as raw bytes with where it starts: the item [`SplitGames`] gives.
pub use tabia_notation::pgn::{Origin, RawGame};
pub use work::{Bytes, Finish, Fold, OnRawGames, Work, fold};
