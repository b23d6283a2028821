//! `tabia pgn`: re-emit games in PGN export format, or only check them.
//!
//! The input is split into raw games by the notation crate's splitter, and each game is parsed
//! (on any worker thread) with its absolute line numbers. A game that parses is replayed
//! ([`check_game`]: legal moves), its warnings are reported (what was read leniently, a result
//! that contradicts the board), then it is written out, repaired where the warnings say;
//! `--strict` reports warnings as errors and drops the game.

use std::{io::Write as _, path::PathBuf};

use serde::Serialize;
use tabia_collect::Form;
use tabia_notation::pgn::{Game, Move, RawGame};

use crate::{
    cli::{RunArgs, Status},
    form::FormArgs,
    input::{Source, raw_games},
    output::{self, JsonEval},
    parallel::Sink,
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
    /// Treat warnings as errors: a game with a warning is reported as bad and not written.
    #[arg(long)]
    pub(crate) strict: bool,
    #[command(flatten)]
    pub(crate) run: RunArgs,
    #[command(flatten)]
    pub(crate) form: FormArgs,
}

/// Runs `tabia pgn`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let form = args.form.form()?;
    let mut session = Session::new(&args.run, "games");
    for source in Source::from_args(&args.files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        session.pipeline(input, raw_games, |sink, number, raw| {
            game(&name, args, &form, sink, number, raw);
        })?;
    }
    Ok(session.finish()?)
}

/// Parses, checks and writes one game.
fn game(name: &str, args: &Args, form: &Form, sink: &mut Sink, number: u64, raw: &RawGame) {
    let mut game = match raw.parse() {
        Ok(game) => game,
        Err(err) => {
            sink.reject(&Diagnostic::from_game_error(name, number, &err), args.json);
            return;
        }
    };
    let warnings = match check_game(name, number, &mut game) {
        Ok(warnings) => warnings,
        Err(diagnostic) => {
            sink.reject(&diagnostic, args.json);
            return;
        }
    };
    if args.strict && !warnings.is_empty() {
        for warning in &warnings[1..] {
            sink.error(warning);
        }
        sink.reject(&warnings[0], args.json);
        return;
    }
    for warning in &warnings {
        sink.warning(warning);
    }
    if args.json {
        output::json_line(&mut sink.out, &Record::new(name, number, &game, &warnings));
    } else if args.check {
    } else if form.is_export() {
        // Writing to a Vec cannot fail.
        let _ = write!(sink.out, "{game}\n\n");
    } else if let Err(err) = form.write(game, &mut sink.out) {
        sink.reject(&form_error(name, number, &err), false);
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
    clocks: Vec<Option<u64>>,
    emts: Vec<Option<u64>>,
    evals: Vec<Option<JsonEval>>,
    result: &'static str,
    pgn: String,
    #[serde(skip_serializing_if = "<[Diagnostic]>::is_empty")]
    warnings: &'a [Diagnostic],
}

impl<'a> Record<'a> {
    fn new(file: &'a str, number: u64, game: &'a Game, warnings: &'a [Diagnostic]) -> Record<'a> {
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
            clocks: game.mainline.moves.iter().map(Move::clock).collect(),
            emts: game.mainline.moves.iter().map(Move::emt).collect(),
            evals: game
                .mainline
                .moves
                .iter()
                .map(|m| m.eval().map(JsonEval::from))
                .collect(),
            result: game.result.as_str(),
            pgn: game.to_string(),
            warnings,
        }
    }
}

/// A game that could not be written in the output form (only a game whose moves are not
/// legal, which the check before has already turned away).
pub(crate) fn form_error(name: &str, number: u64, err: &tabia_collect::FormError) -> Diagnostic {
    let diagnostic = Diagnostic::new(name, err.to_string()).game(number);
    match err.origin() {
        Some(at) => diagnostic.at(at.line, at.column),
        None => diagnostic,
    }
}

/// Checks of a well-formed game beyond its syntax: legality (every move of the mainline and
/// of the variations, from the `FEN` tag's position), which makes the game bad when it fails;
/// and the warnings (what was read leniently, a result that contradicts a mate on the board),
/// which do not: the game is repaired where they say ([`tabia_position::repair_game`]).
fn check_game(name: &str, number: u64, game: &mut Game) -> Result<Vec<Diagnostic>, Diagnostic> {
    let checked = tabia_position::repair_game(game).map_err(|err| {
        let diagnostic = Diagnostic::new(name, err.to_string()).game(number);
        match err.origin() {
            Some(at) => diagnostic.at(at.line, at.column),
            None => diagnostic,
        }
    })?;
    Ok(checked
        .warnings
        .iter()
        .map(|warning| Diagnostic::from_warning(name, number, warning))
        .collect())
}
