//! `tabia stats`: what is in the files — games, plies, results, dates, variants, time controls,
//! ratings, players, events, ECO codes, annotations, and lichess's accuracy by rating band when
//! the moves carry evaluations — as aligned text or one JSON object.
//!
//! `tabia-stats` does the counting: each worker counts the games of its batches in a `Stats`
//! of its own, and the parts are merged in input order, so the figures are the same for any
//! `-j`. With `-j 1` the input is read in one pass on this thread (the visitor runs on the
//! reader: no splitting into raw games first). Bad games and warnings are reported on standard
//! error like everywhere else.

use std::time::Instant;

use tabia_notation::pgn::{PgnReader, ReadError, Warning};
use tabia_stats::{FactsVisitor, Stats};
use tabia_stream::Visited;

use crate::{
    cli::{InputFiles, RunArgs, Status},
    input::Source,
    output::OutputArg,
    parallel::{Sink, fold},
    report::Diagnostic,
    session::Session,
};

/// Arguments of `tabia stats` (its examples are in `cli.rs`).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) input: InputFiles,
    /// One JSON object instead of the text (its fields: docs/schema.md).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    pub(crate) run: RunArgs,
    #[command(flatten)]
    out: OutputArg,
}

/// Runs `tabia stats`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let started = Instant::now();
    let mut session = Session::to_output(&args.run, &args.out, &args.input.files, "games")?;
    let mut total = Stats::new();
    for source in Source::from_args(&args.input.files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        if session.jobs() == 1 {
            session.one_pass(input, |reader, pass| {
                let mut reader = PgnReader::new(reader);
                let mut sink = Sink::default();
                for number in 1.. {
                    match total.read_game(&mut reader) {
                        Ok(Some(warnings)) => report(&mut sink, &name, number, warnings),
                        Ok(None) => break,
                        Err(ReadError::Io(err)) => return Err(err),
                        Err(err) => sink.error(&Diagnostic::from_game_error(&name, number, &err)),
                    }
                    pass.done(&mut sink)?;
                }
                Ok(())
            })?;
            continue;
        }
        // Each worker reads the games of its piece of the input in place.
        let work = fold(
            |sink: &mut Sink, part: &mut Stats, number, game: Visited<'_, _>| match part
                .add_visited(&game)
            {
                Ok(warnings) => report(sink, &name, number, warnings),
                Err(err) => sink.error(&Diagnostic::from_game_error(&name, number, err)),
            },
        );
        session.visit(input, FactsVisitor::default, &work, |part| {
            total.merge(part);
            Ok(())
        })?;
    }
    let report = total.report(Some(started.elapsed()));
    let out = session.out();
    if args.json {
        serde_json::to_writer(&mut *out, &report)?;
        out.write_all(b"\n")?;
    } else {
        write!(out, "{report}")?;
    }
    Ok(session.finish()?)
}

/// `FILE:LINE:COL: game N: warning: …` for each warning of a game.
fn report(sink: &mut Sink, name: &str, number: u64, warnings: &[Warning]) {
    for warning in warnings {
        let at = warning.at;
        sink.warning(
            &Diagnostic::new(name, warning.to_string())
                .at(at.line, at.column)
                .game(number)
                .level(warning.kind.level()),
        );
    }
}
