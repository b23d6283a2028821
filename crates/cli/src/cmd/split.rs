//! `tabia split`: write the games into files of N games each, or one file per key (ECO,
//! year, month, event, player, any tag).
//!
//! Workers parse, check, key and format each game (on all cores, `ops::split`), a batch's
//! games handed on as [`Entry`]s; the ordered stage writes them, in input order, with
//! `tabia-collect`'s [`Splitter`] through a cache of open files ([`Files`]). Games in error
//! go to `DIR/errors.pgn` as they were read.

use std::{io, num::NonZeroU64, path::PathBuf};

use clap::ArgGroup;
use tabia_collect::{FileCompression, Files, SplitBy, Splitter, eco::Table};
use tabia_notation::pgn::RawGame;

use crate::{
    cli::{InputFiles, RunArgs, Status},
    form::FormArgs,
    input::Source,
    ops::split::{self, Entry, Keying},
    output::{self, ExistingArgs},
    parallel::{Sink, fold},
    session::Session,
};

/// Arguments of `tabia split` (its examples are in `cli.rs`).
#[derive(Debug, clap::Args)]
#[command(group(ArgGroup::new("mode").required(true).args(["games", "by"])))]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) input: InputFiles,
    /// The folder to write to (created if needed).
    #[arg(short, long, value_name = "DIR", required = true)]
    pub(crate) output: PathBuf,
    /// N games a file: part-00001.pgn, part-00002.pgn, …
    #[arg(long, value_name = "N")]
    pub(crate) games: Option<NonZeroU64>,
    /// One file per key: eco, year, month (YYYY-MM), event, white, black, or tag:NAME.
    #[arg(long, value_name = "KEY", value_parser = parse_by)]
    pub(crate) by: Option<SplitBy>,
    /// With --by eco: the ECO code of the opening by position (the embedded table), not the
    /// ECO tag.
    #[arg(long, requires = "by")]
    pub(crate) eco_by_position: bool,
    /// Compress the files: zst (.pgn.zst) or gz (.pgn.gz).
    #[arg(long, value_name = "FORMAT", value_enum)]
    pub(crate) compress: Option<Compress>,
    /// A folder that is not empty is refused, unless --append (add to the files there) or
    /// --force (overwrite each file this run writes; the others are left alone).
    #[command(flatten)]
    pub(crate) existing: ExistingArgs,
    /// Do not write games in error to DIR/errors.pgn (they are still reported).
    #[arg(long)]
    pub(crate) drop_errors: bool,
    /// Write NDJSON files (`KEY.ndjson`): one JSON object per game, as `tabia pgn --json`
    /// writes it in the output form; games in error get an `error` object in
    /// `errors.ndjson`.
    #[arg(long)]
    pub(crate) json: bool,
    /// At most N files open at once (the least recently written is closed, and reopened to
    /// append when needed).
    #[arg(long, value_name = "N", default_value_t = 128)]
    pub(crate) max_open: usize,
    #[command(flatten)]
    pub(crate) run: RunArgs,
    #[command(flatten)]
    pub(crate) form: FormArgs,
}

/// `--compress`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Compress {
    /// zstd.
    Zst,
    /// gzip.
    Gz,
}

fn parse_by(s: &str) -> Result<SplitBy, tabia_collect::notation::UnknownValue> {
    s.parse()
}

/// Runs `tabia split`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let form = args.form.form()?;
    let compression = match args.compress {
        None => FileCompression::None,
        Some(Compress::Zst) => FileCompression::Zstd,
        Some(Compress::Gz) => FileCompression::Gzip,
    };
    let policy = args.existing.policy();
    output::claim_folder(&args.output, policy, &args.input.files)?;
    let existing = policy.existing;
    let files = if args.json {
        Files::ndjson(&args.output, compression, existing, args.max_open)?
    } else {
        Files::new(&args.output, compression, existing, args.max_open)?
    };
    let mut splitter = Splitter::new(files, args.games).drop_errors(args.drop_errors);
    let table = args.eco_by_position.then(Table::embedded);
    let keying = Keying {
        by: args.by.as_ref(),
        table,
        form: &form,
        json: args.json,
    };
    let mut session = Session::with_output(io::sink(), &args.run, "games");
    let written = session.counter("written");
    for source in Source::from_args(&args.input.files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        let work = fold(
            |sink: &mut Sink, entries: &mut Vec<Entry>, number, raw: &RawGame| {
                entries.push(split::entry(&name, keying, sink, number, raw));
            },
        );
        let before = splitter.games();
        session.games(input, &work, |entries| {
            Ok(split::write(&mut splitter, entries)?)
        })?;
        session.add(written, splitter.games() - before);
    }
    let count = session.counter("files");
    session.add(count, splitter.files().count() as u64);
    let status = session.finish()?;
    splitter.finish()?;
    Ok(status)
}
