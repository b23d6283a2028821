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
//! - [`Analyser`] asks each position once: from the [`Cache`] (a redb file keyed by position
//!   and settings), from this run's request of it, or from the pool.
//! - [`Plan`] is what a game needs analysed (the moves judged: [`Selection`]) and writes the
//!   analyses back into it ([`Plan::annotate`]: `[%eval]`, advice, accuracy tags).
//! - [`Analyser::request_game`] asks for a game's positions and returns at once
//!   ([`GameRequest`]); its [`GameAnalysis`] writes them into the game or gives them as
//!   [`Evaluation`]s (White's scores, one a position: `tabia analyse --json`'s lines);
//!   [`Analyser::annotate_game`] does it all for one game.
//! - [`lichess`]'s formulas: win percentage, move and game accuracy, average centipawn loss,
//!   advice. They live in tabia-stats (`tabia_stats::lichess`, re-exported here), which needs
//!   them without the rules.
//!
//! ```
//! use tabia_analyse::lichess::{Judgement, advice};
//! use tabia_notation::{Color, pgn::Score};
//!
//! // Black's move took White from -0.71 to +5.28.
//! let blunder = advice(Color::Black, Score::Cp(-71), Score::Cp(528)).unwrap();
//! assert_eq!(blunder.judgement, Judgement::Blunder);
//! ```

#![deny(missing_docs)]

mod analyser;
mod analysis;
mod answer;
mod cache;
mod game;
mod pool;
mod uci;

pub use analyser::{Analyser, AnalyserReport, PlanAnswers, PlanTickets, Ticket};
pub use analysis::{Analysis, EngineScore, Limit, Line, ParseScoreError, Settings};
pub use answer::{Evaluation, EvaluationLine, GameAnalysis, GameRequest, Unanalysed};
pub use cache::{CACHE_FORMAT, Cache, CacheError};
pub use game::{
    AnnotateOptions, GameFigures, ParsePliesError, Plan, PlanError, PlanPosition, Selection,
    parse_plies,
};
pub use pool::{EngineReport, Failure, Job, Pool, PoolReport, PoolSpec};
pub use tabia_stats::lichess;
pub use uci::{
    Bound, Engine, EngineCommand, EngineHandle, Info, ParseEngineCommandError, ParseInfoError,
    UciError, UciErrorKind,
};
