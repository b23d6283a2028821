//! `tabia table`: games (and their moves) as Parquet or CSV tables, through `tabia-table`.
//!
//! The workers read each game (parse, replay, opening by position) into Arrow columns, a piece
//! of a batch at a time, and encode each piece into the batch's row groups while its columns
//! are still in the caches; this thread writes the batches in input order. A game that cannot
//! be read is reported (`FILE:LINE:COL: game N: message`) and still gets its row, with its
//! error in the `errors` column.

use std::path::PathBuf;

use anyhow::Context as _;
use tabia_notation::pgn::RawGame;
use tabia_table::{
    Columns, Encoded, Encoder, Encoding, FileFormat, Partition, RowProblem, Rows, TableOptions,
    TableWriter,
};

use crate::{
    cli::{RunArgs, Status},
    input::Source,
    output::{self, Existing, ExistingArgs},
    parallel::{Sink, Work},
    report::Diagnostic,
    session::Session,
};

/// Arguments of `tabia table` (its examples are in `cli.rs`).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// PGN files, or folders of them (none, or `-`: standard input); compressed files and zip
    /// archives are recognised.
    #[arg(value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
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
        None if args.output.extension().is_some_and(|e| e == "csv") => FileFormat::Csv,
        None => FileFormat::Parquet,
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
        ..TableOptions::default()
    };
    // Both tables' outputs are claimed before a game is read (never an input, never a
    // table there already unless --force or --append).
    let policy = args.existing.policy();
    let mut outs = vec![args.output.clone()];
    if args.moves && !args.nested {
        outs.push(tabia_table::moves_path(&args.output));
    }
    for out in &outs {
        if partition == Partition::None {
            if policy.existing == Existing::Append {
                anyhow::bail!(
                    "--append adds part files to a partitioned table (--partition): a table \
                     file can only be replaced (--force)"
                );
            }
            let policy = output::Policy {
                can_append: false,
                ..policy
            };
            output::claim_file(out, policy, &args.files)?;
        } else {
            output::claim_folder(out, policy, &args.files)?;
            if policy.existing == Existing::Overwrite {
                tabia_table::remove_parts(out, format)?;
            }
        }
    }
    let mut writer = TableWriter::create(&args.output, options)?;
    let encoder = writer.encoder().clone();
    let mut session = Session::new(&args.run, "games");
    for source in Source::from_args(&args.files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        // Batches by the input's size (row groups grow with it), a piece of them at a time.
        session.prefer_batch_bytes(options.batch_bytes_for(input.text_size(), session.jobs()));
        let piece = piece_bytes(options.piece_bytes, session.batch_bytes());
        // The columns' room: for a piece, or a whole batch when it is read as one.
        let room = piece.min(session.batch_bytes());
        let work = Encode {
            encoder: &encoder,
            name: &input.name.clone(),
            options,
            piece,
            room,
        };
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

/// The work of `tabia table` on the workers: each game read into the batch's columns, which
/// are encoded a piece at a time; the batch's last piece encoded when it is finished.
struct Encode<'a> {
    encoder: &'a Encoder,
    /// The input's name.
    name: &'a str,
    options: TableOptions,
    /// How many bytes of PGN make a piece.
    piece: usize,
    /// The room the columns of a piece take from the start.
    room: usize,
}

impl Work<&RawGame> for Encode<'_> {
    type Batch = (Sink, Option<Batch>);
    type Done = (Sink, anyhow::Result<Encoded>);

    fn item(&self, (sink, batch): &mut Self::Batch, number: u64, raw: &RawGame) {
        let batch = batch.get_or_insert_with(|| Batch::new(self.encoder.start()));
        let rows = batch.rows.get_or_insert_with(|| piece_rows(self.room));
        let record = rows.read(self.name, raw, number, self.options.read_options());
        for problem in &record.errors {
            sink.error(&diagnostic(self.name, number, problem));
        }
        for problem in &record.warnings {
            sink.warning(&diagnostic(self.name, number, problem));
        }
        batch.bytes += raw.bytes.len();
        if batch.bytes >= self.piece {
            batch.encode_piece(self.options);
        }
    }

    /// The rest of the batch's columns, encoded (Parquet pages or CSV lines); a batch of no
    /// games is an empty one.
    fn finish(&self, (sink, batch): Self::Batch) -> Self::Done {
        let encoded = match batch {
            None => self.encoder.start().finish().map_err(Into::into),
            Some(mut batch) => {
                batch.encode_piece(self.options);
                match batch.error {
                    Some(err) => Err(err),
                    None => batch.encoding.finish().map_err(Into::into),
                }
            }
        };
        (sink, encoded)
    }
}

/// A worker's batch: the row groups it is encoding, and the games read since its last piece.
struct Batch {
    encoding: Encoding,
    /// The games read since the last piece (made when the first comes: the room a piece
    /// takes is not taken while the last piece is encoded, nor for a batch's last few games).
    rows: Option<Rows>,
    /// The bytes of PGN read into `rows`.
    bytes: usize,
    /// The first error of encoding a piece (the rest of the batch is then not encoded).
    error: Option<anyhow::Error>,
}

impl Batch {
    fn new(encoding: Encoding) -> Batch {
        Batch {
            encoding,
            rows: None,
            bytes: 0,
            error: None,
        }
    }

    /// Encodes the games read since the last piece into the batch's row groups.
    fn encode_piece(&mut self, options: TableOptions) {
        let Some(rows) = self.rows.take() else {
            return;
        };
        self.bytes = 0;
        if self.error.is_some() || rows.is_empty() {
            return;
        }
        let pushed = rows
            .finish(options.columns, options.moves)
            .map_err(anyhow::Error::from)
            .and_then(|tables| Ok(self.encoding.push(&tables)?));
        if let Err(err) = pushed {
            self.error = Some(err);
        }
    }
}

/// How many bytes of a batch of `batch` bytes are read before they are encoded: `piece`; no
/// limit when the batch is not larger (it is encoded whole at its end, as one piece); half of
/// it when `TABIA_BATCH_BYTES` asks for small batches (the tests, so that their batches are
/// read in pieces too).
fn piece_bytes(piece: usize, batch: usize) -> usize {
    if crate::parallel::batch_bytes_asked().is_some() {
        (batch / 2).max(1)
    } else if batch <= piece {
        usize::MAX
    } else {
        piece
    }
}

/// Room from the start for the rows of `bytes` of PGN: no copies as the columns grow.
fn piece_rows(bytes: usize) -> Rows {
    Rows::with_capacity(bytes >> 10, bytes >> 3)
}

/// `FILE:LINE:COL: game N: message` for a problem of a game.
fn diagnostic(name: &str, number: u64, problem: &RowProblem) -> Diagnostic {
    let mut diagnostic = Diagnostic::new(name, problem.message.clone()).game(number);
    if let Some(level) = problem.level {
        diagnostic = diagnostic.level(level);
    }
    match (problem.line, problem.column) {
        (Some(line), Some(column)) => diagnostic.at(line, column),
        _ => diagnostic,
    }
}
