//! Engine analysis of game collections, as lichess analyses a game: any UCI engine, many at
//! once, each position analysed once and kept in a cache, and lichess's figures of the
//! result — `[%eval]`s, advice (`?!`, `?`, `??` with the better move) and accuracy.
//!
//! - [`Limit`] and [`Settings`] say what an engine is asked; [`Analysis`] is what it answers
//!   of one position ([`Line`]s with an [`EngineScore`], the best move).
//! - [`Engine`] runs one UCI engine ([`EngineCommand`]) and analyses one position at a time,
//!   with a deadline on every answer; [`Info`] is its `info` line, typed.
//! - [`Pool`] runs N engines on N threads over one queue of [`Job`]s, restarting an engine that
//!   crashes, hangs or answers garbage and trying the position again ([`PoolSpec`]).
//! - `lichess`'s formulas: win percentage, move and game accuracy, average centipawn loss,
//!   advice.

mod analysis;
mod pool;
mod uci;

pub use analysis::{Analysis, EngineScore, Limit, Line, ParseScoreError, Settings};
pub use pool::{EngineReport, Failure, Job, Pool, PoolReport, PoolSpec};
pub use uci::{
    Bound, Engine, EngineCommand, EngineHandle, Info, ParseEngineCommandError, ParseInfoError,
    UciError, UciErrorKind,
};
