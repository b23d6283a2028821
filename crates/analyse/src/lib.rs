//! Engine analysis of game collections, as lichess analyses a game: any UCI engine, many at
//! once, each position analysed once and kept in a cache, and lichess's figures of the
//! result — `[%eval]`s, advice (`?!`, `?`, `??` with the better move) and accuracy.
//!
//! - [`Limit`] and [`Settings`] say what an engine is asked; [`Analysis`] is what it answers
//!   of one position ([`Line`]s with an [`EngineScore`], the best move).
//! - [`Cache`] keeps every analysis made, keyed by position and settings, in a redb file.
//! - [`lichess`]'s formulas: win percentage, move and game accuracy, average centipawn loss,
//!   advice.

mod analysis;
mod cache;
mod game;
pub mod lichess;

pub use analysis::{Analysis, EngineScore, Limit, Line, ParseScoreError, Settings};
pub use cache::{CACHE_FORMAT, Cache, CacheError};
pub use game::{AnnotateOptions, GameFigures, Plan, PlanError, PlanPosition, Selection};
