//! `tabia table`'s own work: its outputs claimed before a game is read, the workers' batches
//! (each a [`PieceEncoding`] beside its [`Sink`]) and a row's problems as diagnostics.

use std::path::{Path, PathBuf};

use tabia_notation::pgn::RawGame;
use tabia_table::{Encoded, Encoder, Partition, PieceEncoding, RowProblem, TableOptions};

use crate::{
    output::{self, Existing, Policy},
    parallel::{Sink, Work},
    report::Diagnostic,
};

/// Claims the games table `out` and the moves table next to it (when there is one) before a
/// game is read: never an input, never a table there already unless `--force` or
/// `--append` (a partitioned table only); with `--force`, a partitioned table's part files go.
pub(crate) fn claim_outputs(
    out: &Path,
    options: TableOptions,
    policy: Policy,
    inputs: &[PathBuf],
) -> anyhow::Result<()> {
    let mut outs = vec![out.to_path_buf()];
    if options.moves && !options.columns.nested {
        outs.push(tabia_table::moves_path(out));
    }
    for out in &outs {
        if options.partition == Partition::None {
            if policy.existing == Existing::Append {
                anyhow::bail!(
                    "--append adds part files to a partitioned table (--partition): a table \
                     file can only be replaced (--force)"
                );
            }
            let policy = Policy {
                can_append: false,
                ..policy
            };
            output::claim_file(out, policy, inputs)?;
        } else {
            output::claim_folder(out, policy, inputs)?;
            if policy.existing == Existing::Overwrite {
                tabia_table::remove_parts(out, options.format)?;
            }
        }
    }
    Ok(())
}

/// The work of `tabia table` on the workers: each game read into its batch's
/// [`PieceEncoding`], its problems reported; the batch encoded when it is finished.
pub(crate) struct Encode<'a> {
    encoder: &'a Encoder,
    /// The input's name.
    name: &'a str,
    /// How many bytes of PGN make a piece.
    piece: usize,
    /// How many bytes of PGN make a batch.
    batch: usize,
}

impl<'a> Encode<'a> {
    /// The work of encoding input `name` in batches of `batch` bytes of PGN.
    pub(crate) fn new(encoder: &'a Encoder, name: &'a str, batch: usize) -> Encode<'a> {
        Encode {
            encoder,
            name,
            piece: piece_bytes(encoder.options(), batch),
            batch,
        }
    }
}

impl Work<&RawGame> for Encode<'_> {
    type Batch = (Sink, Option<PieceEncoding>);
    type Done = (Sink, anyhow::Result<Encoded>);

    fn item(&self, (sink, batch): &mut Self::Batch, number: u64, raw: &RawGame) {
        let batch = batch.get_or_insert_with(|| self.encoder.start_pieces(self.piece, self.batch));
        let record = batch.read(self.name, raw, number);
        for problem in &record.errors {
            sink.error(&diagnostic(self.name, number, problem));
        }
        for problem in &record.warnings {
            sink.warning(&diagnostic(self.name, number, problem));
        }
    }

    /// The rest of the batch's columns, encoded (Parquet pages or CSV lines); a batch of no
    /// games is an empty one.
    fn finish(&self, (sink, batch): Self::Batch) -> Self::Done {
        let encoded = match batch {
            None => self.encoder.start().finish(),
            Some(batch) => batch.finish(),
        };
        (sink, encoded.map_err(Into::into))
    }
}

/// How many bytes of a batch of `batch` bytes are read before they are encoded
/// ([`TableOptions::piece_bytes_for`]); half of it when `TABIA_BATCH_BYTES` asks for small
/// batches (the tests, so that their batches are read in pieces too).
fn piece_bytes(options: &TableOptions, batch: usize) -> usize {
    if crate::parallel::batch_bytes_asked().is_some() {
        (batch / 2).max(1)
    } else {
        options.piece_bytes_for(batch)
    }
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
