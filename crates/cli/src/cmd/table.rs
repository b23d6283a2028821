//! `tabia table`: games (and their moves) as Parquet or CSV tables, through `tabia-table`.
//!
//! The workers read each game (parse, replay, opening by position) into Arrow columns, a piece
//! of a batch at a time, and encode each piece into the batch's row groups while its columns
//! are still in the caches; this thread writes the batches in input order. A game that cannot
//! be read is reported (`FILE:LINE:COL: game N: message`) and still gets its row, with its
//! error in the `errors` column. The workers' batches and the diagnostics are in
//! `ops::table`.

use std::path::PathBuf;

use anyhow::Context as _;
use tabia_table::{Columns, FileFormat, Partition, TableOptions, TableWriter};

use crate::{
    cli::{EpArg, InputFiles, RunArgs, Status},
    input::Source,
    ops::table::{Encode, claim_outputs},
    output::ExistingArgs,
    session::Session,
};

/// Arguments of `tabia table` (its examples are in `cli.rs`).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) input: InputFiles,
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
    /// Add the training columns to the moves: the position before each move as 12 piece
    /// bitboards, side to move, castling and en passant, and the move as from/to/promotion.
    #[arg(long)]
    boards: bool,
    /// Which en-passant square the moves' `fen` and `ep_square` give: `legal` (a capture is
    /// legal there, as position keys and lichess), `always` (after every double push, as the
    /// FEN standard and python-chess's `board.ep_square`) or `pseudo` (an enemy pawn stands
    /// beside the pushed one).
    #[arg(long, value_enum, value_name = "RULE", default_value_t = EpArg::Legal)]
    ep: EpArg,
    /// Hive partitions from UTCDate (else Date): OUT/year=YYYY/month=MM/part-N.parquet.
    #[arg(long, value_name = "KEYS", value_parser = ["year", "year,month"])]
    partition: Option<String>,
    /// With --partition, the games of a part file before a partition's next games start the
    /// next part (the moves' part files are cut with them). Parts are cut between batches (2 to
    /// 32 MiB of PGN), so a part holds N games or more, and a small input one part.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1_000_000,
        requires = "partition",
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    part_games: u64,
    /// OUT that exists already and is not empty is refused, unless --force (replace the
    /// table; with --partition, its part files) or, with --partition, --append (add part
    /// files beside the earlier run's).
    #[command(flatten)]
    existing: ExistingArgs,
    #[command(flatten)]
    pub(crate) run: RunArgs,
}

/// Runs `tabia table`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let format = match args.format.as_deref() {
        Some(format) => format.parse().map_err(anyhow::Error::msg)?,
        None => FileFormat::for_path(&args.output),
    };
    let partition = match args.partition.as_deref() {
        Some(keys) => keys.parse().map_err(anyhow::Error::msg)?,
        None => Partition::None,
    };
    let options = TableOptions {
        format,
        partition,
        part_games: args.part_games,
        moves: args.moves,
        columns: Columns {
            nested: args.nested,
            fen: args.fen,
            boards: args.boards,
        },
        ep: args.ep.into(),
        ..TableOptions::default()
    };
    claim_outputs(
        &args.output,
        options,
        args.existing.policy(),
        &args.input.files,
    )?;
    let mut writer = TableWriter::create(&args.output, options)?;
    let encoder = writer.encoder().clone();
    let mut session = Session::new(&args.run, "games");
    for source in Source::from_args(&args.input.files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        // Batches by the input's size (row groups grow with it), a piece of them at a time.
        session.prefer_batch_bytes(options.batch_bytes_for(input.text_size(), session.jobs()));
        let name = input.name.clone();
        let work = Encode::new(&encoder, &name, session.batch_bytes());
        session.games(input, &work, |encoded| {
            writer.write_encoded(encoded?)?;
            Ok(())
        })?;
    }
    writer
        .finish()
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    Ok(session.finish()?)
}
