//! `tabia stats`: what is in the files — games, plies, results, dates, variants, time controls,
//! ratings, players, events, ECO codes, annotations — as aligned text or one JSON object.
//!
//! `tabia-stats` does the counting: each worker counts the games of its batches in a `Stats`
//! of its own, and the parts are merged in input order, so the figures are the same for any
//! `-j`. Bad games and warnings are reported on standard error like everywhere else.

use std::{path::PathBuf, time::Instant};

use tabia_stats::Stats;

use crate::{
    cli::{RunArgs, Status},
    input::{Source, raw_games},
    report::Diagnostic,
    session::Session,
};

/// Arguments of `tabia stats` (its examples are in `cli.rs`).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// PGN files (none, or `-`: standard input); compressed files are recognised.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// One JSON object instead of the text (shape in the README).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    run: RunArgs,
}

/// Runs `tabia stats`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let started = Instant::now();
    let mut session = Session::new(&args.run, "games");
    let mut total = Stats::new();
    for source in Source::from_args(&args.files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        session.pipeline_with(
            input,
            raw_games,
            |sink, part: &mut Stats, number, raw| match part.add_raw(raw) {
                Ok(warnings) => {
                    for warning in warnings {
                        let at = warning.at;
                        sink.warning(
                            &Diagnostic::new(&name, warning.to_string())
                                .at(at.line, at.column)
                                .game(number),
                        );
                    }
                }
                Err(err) => sink.error(&Diagnostic::from_game_error(&name, number, &err)),
            },
            |part| {
                total.merge(part);
                Ok(())
            },
        )?;
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
