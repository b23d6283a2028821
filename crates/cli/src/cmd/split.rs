//! `tabia split`: write the games into files of N games each, or one file per key (ECO,
//! year, month, event, player, any tag).
//!
//! Workers parse, check, key and format each game (on all cores); the ordered stage
//! ([`crate::frames`]) writes them, in input order, through a cache of open files
//! ([`Files`]). Games in error go to `DIR/errors.pgn` as they were read.

use std::{cell::RefCell, io, num::NonZeroU64, path::PathBuf};

use clap::ArgGroup;
use tabia_collect::{Compression, Files, Form, SplitBy, UNKNOWN_STEM, eco::Table, file_stem};
use tabia_notation::pgn::RawGame;

use crate::{
    check::{ReadGame, read_game},
    cli::{RunArgs, Status},
    form::FormArgs,
    frames::{self, Frames},
    input::Source,
    output::{self, ExistingArgs},
    parallel::Sink,
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

fn parse_by(s: &str) -> Result<SplitBy, String> {
    s.parse()
}

/// Frame kinds.
const GOOD: u8 = 0;
const GOOD_WITHOUT_KEY: u8 = 1;
const BAD: u8 = 2;

/// The ordered stage.
struct Stage {
    files: Files,
    per_file: Option<u64>,
    drop_errors: bool,
    json: bool,
    written: u64,
}

impl Stage {
    fn frame(&mut self, header: &[u8], body: &[u8]) -> io::Result<()> {
        let Some((&kind, key)) = header.split_first() else {
            return Err(io::Error::other("empty split frame"));
        };
        if kind == BAD {
            if self.drop_errors {
                return Ok(());
            }
            self.files.write("errors", body)?;
            if self.json {
                return Ok(());
            }
            if !body.ends_with(b"\n") {
                self.files.write("errors", b"\n")?;
            }
            return self.files.write("errors", b"\n");
        }
        let stem = match self.per_file {
            Some(n) => format!("part-{:05}", self.written / n + 1),
            None if kind == GOOD_WITHOUT_KEY => UNKNOWN_STEM.to_owned(),
            None => file_stem(&String::from_utf8_lossy(key)),
        };
        self.written += 1;
        self.files.write(&stem, body)
    }
}

/// Runs `tabia split`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let form = args.form.form()?;
    let compression = match args.compress {
        None => Compression::None,
        Some(Compress::Zst) => Compression::Zstd,
        Some(Compress::Gz) => Compression::Gzip,
    };
    let policy = args.existing.policy();
    output::claim_folder(&args.output, policy, &args.files)?;
    let existing = policy.existing;
    let files = if args.json {
        Files::ndjson(&args.output, compression, existing, args.max_open)?
    } else {
        Files::new(&args.output, compression, existing, args.max_open)?
    };
    let stage = RefCell::new(Stage {
        files,
        per_file: args.games.map(NonZeroU64::get),
        drop_errors: args.drop_errors,
        json: args.json,
        written: 0,
    });
    let table = args.eco_by_position.then(Table::embedded);
    let frames = Frames::new(|h: &[u8], b: &[u8]| stage.borrow_mut().frame(h, b));
    let mut session = Session::with_output(frames, &args.run, "games");
    let written = session.counter("written");
    for source in Source::from_args(&args.files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        session.games(input, |sink, number, raw| {
            game(&name, args, table, &form, sink, number, raw);
        })?;
        session.add(written, std::mem::take(&mut stage.borrow_mut().written));
    }
    let count = session.counter("files");
    session.add(count, stage.borrow().files.count() as u64);
    let status = session.finish()?;
    stage.into_inner().files.finish()?;
    Ok(status)
}

/// One game: parse, check, key, write in the output form, as one frame.
fn game(
    name: &str,
    args: &Args,
    table: Option<&Table>,
    form: &Form,
    sink: &mut Sink,
    number: u64,
    raw: &RawGame,
) {
    let bad = |sink: &mut Sink, diagnostic: &Diagnostic| {
        if args.json {
            let mut line = Vec::new();
            output::json_line(&mut line, &output::ErrorRecord::new(diagnostic));
            frames::push(&mut sink.out, &[BAD], &line);
        } else {
            frames::push(&mut sink.out, &[BAD], &raw.bytes);
        }
    };
    let ReadGame { game, warnings, .. } = match read_game(name, number, raw, sink, |_| {}) {
        Ok(read) => read,
        Err(diagnostic) => return bad(sink, &diagnostic),
    };
    let by = args.by.as_ref();
    let key = by.and_then(|by| by.key(&game, table));
    let mut header = vec![if key.is_some() || by.is_none() {
        GOOD
    } else {
        GOOD_WITHOUT_KEY
    }];
    header.extend_from_slice(key.unwrap_or_default().as_bytes());
    let mut body = Vec::new();
    let written = if args.json {
        record::game_json(&mut body, name, number, game, form, &warnings)
    } else {
        form.write(game, &mut body)
    };
    if let Err(err) = written {
        let diagnostic = crate::cmd::pgn::form_error(name, number, &err);
        sink.error(&diagnostic);
        return bad(sink, &diagnostic);
    }
    frames::push(&mut sink.out, &header, &body);
}
