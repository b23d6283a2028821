//! `tabia pgn`: re-emit games in PGN export format, or only check them.
//!
//! The input is split into raw games by the notation crate's splitter, and each game is parsed
//! (on any worker thread) with its absolute line numbers. A game that parses is replayed
//! ([`check_game`]: legal moves, a result that agrees with the board), then written out.

use std::{io::Write as _, mem, path::PathBuf};

use tabia_notation::pgn::{Game, GameError, RawGame};

use crate::{
    cli::{RunArgs, Status},
    input::{Source, raw_games},
    parallel::{Sink, Weigh},
    report::Diagnostic,
    session::Session,
};

/// Arguments of `tabia pgn`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  tabia pgn games.pgn > clean.pgn     re-emit every game in PGN export format
  tabia pgn --check games.pgn.zst     only report bad games (FILE:LINE:COL: game N: message)")]
pub(crate) struct Args {
    /// PGN files (none, or `-`: standard input); compressed files are recognised.
    #[arg(value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
    /// Only check the games: write nothing on standard output, report each bad game on
    /// standard error and end with the summary.
    #[arg(long)]
    pub(crate) check: bool,
    #[command(flatten)]
    pub(crate) run: RunArgs,
}

/// Runs `tabia pgn`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let mut session = Session::new(&args.run, "games");
    for source in Source::from_args(&args.files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        session.pipeline(input, raw_games, |sink, number, raw| {
            game(&name, args, sink, number, &raw);
        })?;
    }
    Ok(session.finish()?)
}

impl Weigh for RawGame {
    fn weight(&self) -> usize {
        self.bytes.len() + mem::size_of::<RawGame>()
    }
}

/// Parses, checks and writes one game.
fn game(name: &str, args: &Args, sink: &mut Sink, number: u64, raw: &RawGame) {
    let game = match raw.parse() {
        Ok(game) => game,
        Err(GameError::Syntax { error, .. }) => {
            sink.error(&Diagnostic::from_error(name, &error).game(number));
            return;
        }
        Err(err) => {
            sink.error(&Diagnostic::new(name, err.to_string()).game(number));
            return;
        }
    };
    check_game(name, number, &game, sink);
    if !args.check && !sink.is_bad() {
        // Writing to a Vec cannot fail.
        let _ = write!(sink.out, "{game}\n\n");
    }
}

/// Checks of a well-formed game beyond its syntax: legality (every move of the mainline and
/// of the variations, from the `FEN` tag's position) and a result that agrees with a mate or
/// automatic draw on the board. A problem goes to `sink.error`, which makes the game bad: it
/// is then not written.
fn check_game(name: &str, number: u64, game: &Game, sink: &mut Sink) {
    if let Err(err) = tabia_position::check_game(game) {
        let mut diagnostic = Diagnostic::new(name, err.to_string()).game(number);
        if let Some(at) = err.origin() {
            diagnostic = diagnostic.at(at.line, at.column);
        }
        sink.error(&diagnostic);
    }
}
