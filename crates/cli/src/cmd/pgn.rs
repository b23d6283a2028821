//! `tabia pgn`: re-emit games in PGN export format, or only check them.
//!
//! In export format (no `--json`, no output form option) each worker reads its piece of the
//! input once with the [`Exporter`](tabia_position::Exporter) (through [`Exporting`]): each
//! game is checked ([`check_game`]'s checks: legal moves) and written, repaired where its
//! warnings say, as it is read, with no tree; its warnings are reported (what was read
//! leniently, a result that contradicts the board), and `--strict` reports them as errors and
//! drops the game. A game whose NAGs or comments the export puts elsewhere than the text is
//! parsed and written from its tree, as every game is for `--json` and the other output forms
//! (the input split into raw games, each parsed on any worker with its absolute line numbers).
//!
//! `--check` builds no game tree: [`Checker`] makes the same checks, with the same warnings,
//! while the reader reads the game, on the workers; with one job the reader thread checks the
//! input as it reads it ([`check_reader`]: nothing to split and hand over).

use std::{io::Write as _, mem, path::PathBuf};

use tabia_collect::Form;
use tabia_notation::pgn::{Game, RawGame};
use tabia_position::{CheckError, Checked, Checker, Level, check_reader};
use tabia_stream::Visited;

use crate::{
    cli::{RunArgs, Status},
    form::FormArgs,
    input::{Exported, Exporting, Source},
    output::OutputArg,
    parallel::{Sink, Weigh, each},
    record,
    report::Diagnostic,
    session::Session,
};

/// Arguments of `tabia pgn` (its examples are in `cli.rs`).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// PGN files, or folders of them (none, or `-`: standard input); compressed files and zip
    /// archives are recognised.
    #[arg(value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
    /// Only check the games: write nothing on standard output, report each bad game on
    /// standard error and end with the summary.
    #[arg(long)]
    pub(crate) check: bool,
    /// One JSON object per game (NDJSON): tags, mainline moves, result and the game in the
    /// output form (moves in its notation, without what it strips, with what it adds); a bad
    /// game gets an `error` object.
    #[arg(long, conflicts_with = "check")]
    pub(crate) json: bool,
    /// Treat warnings as errors: a game with a warning is reported as bad and not written
    /// (notes, such as a missing check mark, are not warnings: see --strict-notes).
    #[arg(long)]
    pub(crate) strict: bool,
    /// As --strict, and notes are errors too: a game written in any way but the standard's
    /// (a missing `#`, a lowercase piece letter) is bad.
    #[arg(long)]
    pub(crate) strict_notes: bool,
    #[command(flatten)]
    pub(crate) run: RunArgs,
    #[command(flatten)]
    pub(crate) out: OutputArg,
    #[command(flatten)]
    pub(crate) form: FormArgs,
}

/// Runs `tabia pgn`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let form = args.form.form()?;
    let mut session = Session::to_output(&args.run, &args.out, &args.files, "games")?;
    for source in Source::from_args(&args.files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        if args.check && session.jobs() == 1 {
            let work = each(|sink: &mut Sink, number, verdict: &Verdict| {
                checked(&name, args, sink, number, &verdict.result);
            });
            session.items(input, checked_games, &work, |()| Ok(()))?;
        } else if args.check {
            // Each worker checks the games of its piece of the input as it reads them.
            let work = each(|sink: &mut Sink, number, game: Visited<'_, _>| {
                let result = match game.output {
                    Ok(Ok(done)) => Ok(done),
                    Ok(Err(err)) => Err(CheckError::Rules(err)),
                    Err(err) => Err(CheckError::Syntax(err)),
                };
                checked(&name, args, sink, number, &result);
            });
            session.visit(input, Checker::new, &work, |()| Ok(()))?;
        } else if form.is_export() && !args.json {
            // Each worker checks and writes the games of its piece of the input as it reads
            // them: one pass over their bytes.
            let work = each(|sink: &mut Sink, number, game: Visited<'_, _>| {
                exported(&name, args, &form, sink, number, game);
            });
            session.visit(input, Exporting::default, &work, |()| Ok(()))?;
        } else {
            let work = each(|sink: &mut Sink, number, raw: &RawGame| {
                game(&name, args, &form, sink, number, raw);
            });
            session.games(input, &work, |()| Ok(()))?;
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

/// Reports what `--check` found in a game: its error, or its warnings (errors with
/// `--strict`), as [`game`] does for the game tree.
fn checked(
    name: &str,
    args: &Args,
    sink: &mut Sink,
    number: u64,
    result: &Result<Checked, CheckError>,
) {
    let done = match result {
        Ok(done) => done,
        // A syntax error or a broken rule, where it is.
        Err(err) => {
            sink.error(&Diagnostic::located(name, number, err));
            return;
        }
    };
    let warnings: Vec<Diagnostic> = done
        .warnings
        .iter()
        .map(|warning| Diagnostic::from_warning(name, number, warning))
        .collect();
    report_warnings(args, sink, &warnings);
}

/// Writes one game that the [`Exporting`] visitor checked and wrote as it read it, or reports
/// it; a game whose export needs its tree is parsed and written from it.
fn exported(
    name: &str,
    args: &Args,
    form: &Form,
    sink: &mut Sink,
    number: u64,
    game: Visited<'_, Exported>,
) {
    match game.output {
        Err(err) => sink.reject(&Diagnostic::from_game_error(name, number, &err), false),
        Ok((Err(err), _)) => sink.reject(&Diagnostic::located(name, number, &err), false),
        Ok((Ok(checked), Some(text))) => {
            let warnings: Vec<Diagnostic> = checked
                .warnings
                .iter()
                .map(|warning| Diagnostic::from_warning(name, number, warning))
                .collect();
            if report_warnings(args, sink, &warnings) {
                sink.out.extend_from_slice(&text);
                sink.out.extend_from_slice(b"\n\n");
            }
        }
        Ok((Ok(_), None)) => self::game(name, args, form, sink, number, &game.to_raw()),
    }
}

/// Parses, checks and writes one game.
fn game(name: &str, args: &Args, form: &Form, sink: &mut Sink, number: u64, raw: &RawGame) {
    let mut game = match crate::input::parse_game(raw) {
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
    if !report_warnings(args, sink, &warnings) {
        return;
    }
    if args.json {
        if let Err(err) = record::game_json(&mut sink.out, name, number, game, form, &warnings) {
            sink.reject(&Diagnostic::located(name, number, &err), true);
        }
    } else if args.check {
        crate::input::give_back(game);
    } else if form.is_export() {
        // Writing to a Vec cannot fail.
        let _ = write!(sink.out, "{game}\n\n");
        crate::input::give_back(game);
    } else if let Err(err) = form.write(game, &mut sink.out) {
        sink.reject(&Diagnostic::located(name, number, &err), false);
    }
}

/// Reports the warnings and notes of a game that was read; with `--strict` its warnings are
/// errors (with `--strict-notes`, its notes too) and the game is bad: then `false`, the game
/// is not to be written.
fn report_warnings(args: &Args, sink: &mut Sink, warnings: &[Diagnostic]) -> bool {
    let strict = |warning: &&Diagnostic| {
        args.strict_notes || (args.strict && warning.warning_level() == Level::Warning)
    };
    let mut errors = warnings.iter().filter(strict);
    if let Some(first) = errors.next() {
        // In input order, as without `--strict`; the JSON error record names the first.
        sink.reject(first, args.json);
        for warning in errors {
            sink.error(warning);
        }
        return false;
    }
    for warning in warnings {
        sink.warning(warning);
    }
    true
}

/// Checks of a well-formed game beyond its syntax: legality (every move of the mainline and
/// of the variations, from the `FEN` tag's position), which makes the game bad when it fails;
/// and the warnings (what was read leniently, a result that contradicts a mate on the board),
/// which do not: the game is repaired where they say ([`tabia_position::repair_game`]).
fn check_game(name: &str, number: u64, game: &mut Game) -> Result<Vec<Diagnostic>, Diagnostic> {
    let checked =
        tabia_position::repair_game(game).map_err(|err| Diagnostic::located(name, number, &err))?;
    Ok(checked
        .warnings
        .iter()
        .map(|warning| Diagnostic::from_warning(name, number, warning))
        .collect())
}
