//! `tabia split`: write the games into files of N games each, or one file per key (ECO,
//! year, month, event, player, any tag).
//!
//! Workers parse, check, key and format each game (on all cores), a batch's games handed on
//! as [`Entry`]s; the ordered stage writes them, in input order, through a cache of open
//! files ([`Files`]). Games in error go to `DIR/errors.pgn` as they were read.

use std::{io, num::NonZeroU64, path::PathBuf};

use clap::ArgGroup;
use tabia_collect::{FileCompression, Files, Form, SplitBy, UNKNOWN_STEM, eco::Table, file_stem};
use tabia_notation::pgn::RawGame;

use crate::{
    check::{ReadGame, read_game},
    cli::{RunArgs, Status},
    form::FormArgs,
    input::Source,
    output::{self, ExistingArgs},
    parallel::{Sink, fold},
    record,
    report::Diagnostic,
    session::Session,
};

/// Arguments of `tabia split` (its examples are in `cli.rs`).
#[derive(Debug, clap::Args)]
#[command(group(ArgGroup::new("mode").required(true).args(["games", "by"])))]
pub(crate) struct Args {
    /// PGN files, or folders of them (none, or `-`: standard input); compressed files and zip
    /// archives are recognised.
    #[arg(value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
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

/// What a worker makes of one game for the ordered stage.
enum Entry {
    /// A good game's text, with its key (`None`: it has none, with `--by`).
    Good { key: Option<String>, text: Vec<u8> },
    /// A bad game, as it was read (or its `--json` error line).
    Bad(Vec<u8>),
}

/// The ordered stage.
struct Stage {
    files: Files,
    per_file: Option<u64>,
    drop_errors: bool,
    json: bool,
    written: u64,
}

impl Stage {
    /// Writes each game of a batch to its file, in input order.
    fn write(&mut self, entries: Vec<Entry>) -> io::Result<()> {
        for entry in entries {
            match entry {
                Entry::Bad(_) if self.drop_errors => {}
                Entry::Bad(text) => {
                    self.files.write("errors", &text)?;
                    if !self.json {
                        if !text.ends_with(b"\n") {
                            self.files.write("errors", b"\n")?;
                        }
                        self.files.write("errors", b"\n")?;
                    }
                }
                Entry::Good { key, text } => {
                    let stem = match (self.per_file, key) {
                        (Some(n), _) => format!("part-{:05}", self.written / n + 1),
                        (None, None) => UNKNOWN_STEM.to_owned(),
                        (None, Some(key)) => file_stem(&key),
                    };
                    self.written += 1;
                    self.files.write(&stem, &text)?;
                }
            }
        }
        Ok(())
    }
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
    output::claim_folder(&args.output, policy, &args.files)?;
    let existing = policy.existing;
    let files = if args.json {
        Files::ndjson(&args.output, compression, existing, args.max_open)?
    } else {
        Files::new(&args.output, compression, existing, args.max_open)?
    };
    let mut stage = Stage {
        files,
        per_file: args.games.map(NonZeroU64::get),
        drop_errors: args.drop_errors,
        json: args.json,
        written: 0,
    };
    let table = args.eco_by_position.then(Table::embedded);
    let mut session = Session::with_output(io::sink(), &args.run, "games");
    let written = session.counter("written");
    for source in Source::from_args(&args.files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        let work = fold(
            |sink: &mut Sink, entries: &mut Vec<Entry>, number, raw: &RawGame| {
                entries.push(game(&name, args, table, &form, sink, number, raw));
            },
        );
        session.games(input, &work, |entries| Ok(stage.write(entries)?))?;
        session.add(written, std::mem::take(&mut stage.written));
    }
    let count = session.counter("files");
    session.add(count, stage.files.count() as u64);
    let status = session.finish()?;
    stage.files.finish()?;
    Ok(status)
}

/// One game: parse, check, key, write in the output form, as an entry for the stage.
fn game(
    name: &str,
    args: &Args,
    table: Option<&Table>,
    form: &Form,
    sink: &mut Sink,
    number: u64,
    raw: &RawGame,
) -> Entry {
    let bad = |diagnostic: &Diagnostic| {
        if args.json {
            let mut line = Vec::new();
            output::json_line(&mut line, &output::ErrorRecord::new(diagnostic));
            Entry::Bad(line)
        } else {
            Entry::Bad(raw.bytes.clone())
        }
    };
    let ReadGame { game, warnings, .. } = match read_game(name, number, raw, sink, |_| {}) {
        Ok(read) => read,
        Err(diagnostic) => return bad(&diagnostic),
    };
    // Without --by (N games a file) a game needs no key.
    let key = match args.by.as_ref() {
        Some(by) => by.key(&game, table),
        None => Some(String::new()),
    };
    let mut body = Vec::new();
    let written = if args.json {
        record::game_json(&mut body, name, number, game, form, &warnings)
    } else {
        form.write(game, &mut body)
    };
    if let Err(err) = written {
        let diagnostic = Diagnostic::located(name, number, &err);
        sink.error(&diagnostic);
        return bad(&diagnostic);
    }
    Entry::Good { key, text: body }
}
