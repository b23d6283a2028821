//! `tabia pgn`: re-emit games in PGN export format, or only check them.
//!
//! The input is split into raw games by the notation crate's splitter, and each game is parsed
//! (on any worker thread) with its absolute line numbers. A game that parses is replayed
//! ([`check_game`]: legal moves, a result that agrees with the board), then written out.
//!
//! `--check` builds no game tree: [`Checker`] makes the same checks while the reader reads the
//! game, on the workers; with one job the reader thread checks the input as it reads it
//! ([`check_reader`]: nothing to split and hand over).

use std::{io::Write as _, mem, path::PathBuf};

use serde::Serialize;
use tabia_notation::pgn::{Game, RawGame};
use tabia_position::{CheckError, Checked, Checker, ReplayError, check_reader};

use crate::{
    cli::{RunArgs, Status},
    input::{Source, raw_games},
    output,
    parallel::{Sink, Weigh},
    report::Diagnostic,
    session::Session,
};

/// Arguments of `tabia pgn` (its examples are in `cli.rs`).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// PGN files (none, or `-`: standard input); compressed files are recognised.
    #[arg(value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
    /// Only check the games: write nothing on standard output, report each bad game on
    /// standard error and end with the summary.
    #[arg(long)]
    pub(crate) check: bool,
    /// One JSON object per game (NDJSON): tags, mainline moves, result and the game in export
    /// format; a bad game gets an `error` object.
    #[arg(long, conflicts_with = "check")]
    pub(crate) json: bool,
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
        if args.check && session.jobs() == 1 {
            session.pipeline(input, checked_games, |sink, number, checked| {
                if let Err(err) = &checked.result {
                    sink.error(&check_diagnostic(&name, number, err));
                }
            })?;
        } else if args.check {
            session.pipeline(input, raw_games, |sink, number, raw| {
                let mut checker = Checker::new();
                let result = match raw.read(&mut checker) {
                    Ok(Ok(_)) => return,
                    Ok(Err(err)) => CheckError::Rules(err),
                    Err(err) => CheckError::Syntax(err),
                };
                sink.error(&check_diagnostic(&name, number, &result));
            })?;
        } else {
            session.pipeline(input, raw_games, |sink, number, raw| {
                game(&name, args, sink, number, raw);
            })?;
        }
    }
    Ok(session.finish()?)
}

/// One game checked on the reader thread, and how many bytes it took (its weight in a batch).
struct Verdict {
    result: Result<Checked, CheckError>,
    bytes: usize,
}

impl Weigh for Verdict {
    fn weight(&self) -> usize {
        self.bytes + mem::size_of::<Verdict>()
    }
}

/// The games of an input checked as they are read.
fn checked_games(
    reader: Box<dyn std::io::BufRead + Send>,
) -> impl Iterator<Item = anyhow::Result<Verdict>> + Send {
    let mut games = check_reader(reader);
    let mut offset = 0;
    std::iter::from_fn(move || {
        let next = games.next()?;
        let end = games.reader().offset();
        let bytes = usize::try_from(end - offset).unwrap_or(usize::MAX);
        offset = end;
        Some(match next {
            Ok(result) => Ok(Verdict { result, bytes }),
            Err(err) => Err(anyhow::Error::new(err).context("read error")),
        })
    })
}

/// The diagnostic of a game that `--check` finds bad.
fn check_diagnostic(name: &str, number: u64, err: &CheckError) -> Diagnostic {
    match err {
        CheckError::Syntax(err) => Diagnostic::from_game_error(name, number, err),
        CheckError::Rules(err) => replay_diagnostic(name, number, err),
        // A kind added later: its message, where it is.
        other => {
            let diagnostic = Diagnostic::new(name, other.to_string()).game(number);
            match other.origin() {
                Some(at) => diagnostic.at(at.line, at.column),
                None => diagnostic,
            }
        }
    }
}

/// Parses, checks and writes one game.
fn game(name: &str, args: &Args, sink: &mut Sink, number: u64, raw: &RawGame) {
    let game = match raw.parse() {
        Ok(game) => game,
        Err(err) => {
            sink.reject(&Diagnostic::from_game_error(name, number, &err), args.json);
            return;
        }
    };
    if let Err(diagnostic) = check_game(name, number, &game) {
        sink.reject(&diagnostic, args.json);
    } else if args.json {
        output::json_line(&mut sink.out, &Record::new(name, number, &game));
    } else if !args.check {
        // Writing to a Vec cannot fail.
        let _ = write!(sink.out, "{game}\n\n");
    }
}

/// One `--json` line (README, "JSON output").
#[derive(Debug, Serialize)]
struct Record<'a> {
    file: &'a str,
    game: u64,
    line: u64,
    tags: &'a [(String, String)],
    moves: Vec<String>,
    result: &'static str,
    pgn: String,
}

impl<'a> Record<'a> {
    fn new(file: &'a str, number: u64, game: &'a Game) -> Record<'a> {
        Record {
            file,
            game: number,
            line: game.start.line,
            tags: &game.tags,
            moves: game
                .mainline
                .moves
                .iter()
                .map(|m| m.san.to_string())
                .collect(),
            result: game.result.as_str(),
            pgn: game.to_string(),
        }
    }
}

/// Checks of a well-formed game beyond its syntax: legality (every move of the mainline and
/// of the variations, from the `FEN` tag's position) and a result that agrees with a mate or
/// automatic draw on the board. A problem makes the game bad: it is then not written.
fn check_game(name: &str, number: u64, game: &Game) -> Result<(), Diagnostic> {
    tabia_position::check_game(game).map_err(|err| replay_diagnostic(name, number, &err))?;
    Ok(())
}

/// The diagnostic of a game that breaks a rule.
fn replay_diagnostic(name: &str, number: u64, err: &ReplayError) -> Diagnostic {
    let diagnostic = Diagnostic::new(name, err.to_string()).game(number);
    match err.origin() {
        Some(at) => diagnostic.at(at.line, at.column),
        None => diagnostic,
    }
}
