//! What is in a PGN collection, at scan speed.
//!
//! `tabia-stats` counts what a demanding user asks of a file of games before doing anything
//! with it: games, errors and warnings, plies (min, median, max, mean), results, the date range,
//! variants, time controls in lichess's categories ([`Speed`]), the rating range and mean, the
//! number of distinct players, the most frequent events and ECO codes, how many games have
//! comments, variations, clocks and evaluations, and, for the games with an `[%eval]` after
//! every move, lichess's accuracy, average centipawn loss and mistakes by rating band
//! ([`Accuracy`]).
//!
//! It reads the syntax only (no chess rules, no legality check), with tabia-notation's visitor:
//! each game's facts are gathered in a [`GameFacts`] (tags looked at by name, variations skipped
//! unread, comments scanned for `[%clk` and `[%eval`, each move's score kept), then added to
//! a [`Stats`] — an accumulator that merges, so that workers each count their part and the
//! figures are those of a sequential run. [`Stats::report`] gives the [`Report`]: aligned text
//! by `Display`, JSON by `Serialize`.
//!
//! [`lichess`] holds lichess's formulas over a game's evaluations (win percentage, move and
//! game accuracy, average centipawn loss, advice), which need no rules: only the scores and
//! whose move each was.
//!
//! ```
//! use tabia_stats::Stats;
//! use tabia_stream::{Input, Pipeline};
//!
//! let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/pgn/ok/sample.pgn");
//! // On all cores (a file of any size, compressed or not), or `Stats::from_reader` on this one.
//! let stats = Stats::from_input(Input::open(file)?, &Pipeline::new())?;
//! let report = stats.report(None);
//! assert_eq!(report.games, report.read + report.errors);
//! print!("{report}");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod accuracy;
mod facts;
mod hash;
pub mod lichess;
mod report;
mod stats;
mod tags;

pub use facts::{FactsVisitor, GameFacts};
pub use report::{
    Accuracy, Annotations, Band, Count, Dates, Judgements, Plies, Ratings, Report, Results, TOP,
    TimeControls, Timing,
};
pub use stats::Stats;
pub use tags::{Speed, date, estimate, rating};
