//! `tabia table`: games (and their moves) as Parquet or CSV tables, through `tabia-table`.
//!
//! The workers read each game (parse, replay, opening by position) into Arrow columns, one set
//! per batch of games; this thread writes the batches in input order. A game that cannot be read
//! is reported (`FILE:LINE:COL: game N: message`) and still gets its row, with its error in the
//! `errors` column.

use std::path::PathBuf;

use anyhow::Context as _;
use tabia_table::{Columns, Encoded, Format, Partition, Problem, Rows, TableOptions, TableWriter};

use crate::{
    cli::{RunArgs, Status},
    input::Source,
    parallel::Sink,
    report::Diagnostic,
    session::Session,
};

/// Arguments of `tabia table` (its examples are in `cli.rs`).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// PGN files (none, or `-`: standard input); compressed files are recognised.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The games table: a file, or with --partition a folder. The moves table goes next to it
    /// (`games.parquet` → `games.moves.parquet`, `games/` → `games.moves/`).
    #[arg(short, long, value_name = "OUT")]
    output: PathBuf,
    /// The file format [default: csv when OUT ends in .csv, else parquet].
    #[arg(long, value_name = "FORMAT", value_parser = ["parquet", "csv"])]
    format: Option<String>,
    /// Also write the moves table: one row per ply of each mainline.
    #[arg(long)]
    moves: bool,
    /// The moves as a list column `moves` in the games table instead (Parquet only).
    #[arg(long)]
    nested: bool,
    /// Add the FEN after each move to the moves.
    #[arg(long)]
    fen: bool,
    /// Hive partitions from UTCDate (else Date): OUT/year=YYYY/month=MM/part-N.parquet.
    #[arg(long, value_name = "KEYS", value_parser = ["year", "year,month"])]
    partition: Option<String>,
    #[command(flatten)]
    run: RunArgs,
}

/// Runs `tabia table`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let format = match args.format.as_deref() {
        Some(format) => format.parse().map_err(anyhow::Error::msg)?,
        None if args.output.extension().is_some_and(|e| e == "csv") => Format::Csv,
        None => Format::Parquet,
    };
    let partition = match args.partition.as_deref() {
        Some(keys) => keys.parse().map_err(anyhow::Error::msg)?,
        None => Partition::None,
    };
    let options = TableOptions {
        format,
        partition,
        moves: args.moves,
        columns: Columns {
            nested: args.nested,
            fen: args.fen,
        },
        ..TableOptions::default()
    };
    let mut writer = TableWriter::create(&args.output, options)?;
    let encoder = writer.encoder().clone();
    let read = options.read_options();
    let mut session = Session::new(&args.run, "games");
    session.set_batch_bytes(options.batch_bytes);
    for source in Source::from_args(&args.files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        session.games_finish(
            input,
            |sink: &mut Sink, rows: &mut Option<Rows>, number, raw| {
                // Room for the batch's rows from the start: no copies as the columns grow.
                let rows = rows.get_or_insert_with(|| {
                    Rows::with_capacity(options.batch_bytes >> 10, options.batch_bytes >> 3)
                });
                let record = rows.read(&name, raw, number, read);
                for problem in &record.errors {
                    sink.error(&diagnostic(&name, number, problem));
                }
                for problem in &record.warnings {
                    sink.warning(&diagnostic(&name, number, problem));
                }
            },
            // On the worker: the batch's columns, encoded (Parquet pages or CSV lines).
            |rows: Option<Rows>| -> anyhow::Result<Encoded> {
                let tables = rows
                    .unwrap_or_default()
                    .finish(options.columns, options.moves)?;
                Ok(encoder.encode(&tables)?)
            },
            |encoded| {
                writer.write_encoded(encoded?)?;
                Ok(())
            },
        )?;
    }
    writer
        .finish()
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    Ok(session.finish()?)
}

/// `FILE:LINE:COL: game N: message` for a problem of a game.
fn diagnostic(name: &str, number: u64, problem: &Problem) -> Diagnostic {
    let diagnostic = Diagnostic::new(name, problem.message.clone()).game(number);
    match (problem.line, problem.column) {
        (Some(line), Some(column)) => diagnostic.at(line, column),
        _ => diagnostic,
    }
}
