//! `tabia dedup`: keep one copy of each game, across inputs.
//!
//! Workers check and digest each game and write it in the output form (on all cores), a
//! batch's games handed on as [`Offer`]s; the ordered stage ([`Stage`], in `ops::dedup`)
//! decides in input order ([`Deduper`]) and sends each game to the output or to
//! `--duplicates`. Memory: one
//! fixed-size entry per distinct game, whatever the input size.
//!
//! In export format (no `--json`, no output form option, `--keep first`) each worker reads its
//! piece of the input once with a [`DigestExporter`], with no game tree, as `tabia pgn` does
//! with its exporter; a game whose export needs its tree, and a bad game, is parsed and read
//! from its tree, as it is for the other forms.

use std::{io, path::PathBuf};

use anyhow::bail;
use tabia_collect::{DedupBy, Deduper, DigestExporter};
use tabia_notation::pgn::RawGame;
use tabia_stream::Visited;

use crate::{
    cli::{InputFiles, RunArgs, Status},
    form::FormArgs,
    input::Source,
    ops::dedup::{Offer, Stage, Worker, rank},
    output::OutputArg,
    parallel::{Sink, fold},
    session::Session,
};

/// Arguments of `tabia dedup` (its examples are in `cli.rs`).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) input: InputFiles,
    /// The kept games: standard output, or `-o FILE` (with `--force` and `--append`, which
    /// apply to `--duplicates` too).
    #[command(flatten)]
    pub(crate) out: OutputArg,
    /// Write the duplicates to FILE, each with a `DuplicateOf` tag naming the kept game
    /// (`FILE#N`: its input and its number there).
    #[arg(long, value_name = "FILE")]
    pub(crate) duplicates: Option<PathBuf>,
    /// What makes games duplicates: `moves` (same start position and mainline moves) or
    /// `position` (same final position and number of plies; pgn-extract -D also compares the
    /// positions on the way, so it keeps transpositions apart).
    #[arg(long, value_enum, default_value = "moves")]
    pub(crate) by: By,
    /// Duplicates are games with the same position after N plies (overrides --by).
    #[arg(long, value_name = "N")]
    pub(crate) fuzzy_depth: Option<u32>,
    /// Which copy is kept: the `first`, or the `most-annotated` (most comments, NAGs and
    /// tags; written at the first copy's place; reads the inputs twice, so files only).
    #[arg(long, value_enum, default_value = "first")]
    pub(crate) keep: Keep,
    /// One JSON object per game (NDJSON), as `tabia pgn --json` writes it in the output form;
    /// the duplicates (`--duplicates`) carry `duplicate_of` (`FILE#N`); a bad game gets an
    /// `error` object in the output.
    #[arg(long)]
    pub(crate) json: bool,
    #[command(flatten)]
    pub(crate) run: RunArgs,
    #[command(flatten)]
    pub(crate) form: FormArgs,
}

/// `--by`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum By {
    /// Same start position and mainline moves.
    Moves,
    /// Same final position and ply count.
    Position,
}

/// `--keep`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Keep {
    /// The first copy in input order.
    First,
    /// The copy with the most comments, NAGs and tags.
    MostAnnotated,
}

/// Runs `tabia dedup`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let form = args.form.form()?;
    let by = match (args.fuzzy_depth, args.by) {
        (Some(n), _) => DedupBy::FuzzyDepth(n),
        (None, By::Moves) => DedupBy::Moves,
        (None, By::Position) => DedupBy::Position,
    };
    let sources = Source::from_args(&args.input.files);
    if sources.len() > usize::from(u16::MAX) {
        bail!("at most {} inputs", u16::MAX);
    }
    let most_annotated = args.keep == Keep::MostAnnotated;
    if most_annotated && sources.iter().any(|s| matches!(s, Source::Stdin)) {
        bail!("--keep most-annotated reads its inputs twice: name files, not standard input");
    }
    let json = args.json;
    let keep = match args.keep {
        Keep::First => tabia_collect::Keep::First,
        Keep::MostAnnotated => tabia_collect::Keep::MostAnnotated,
    };
    let deduper = Deduper::new(keep);
    let duplicates = args.duplicates.as_deref();
    let mut stage = Stage::open(
        &args.out,
        duplicates,
        &args.input.files,
        deduper,
        form.clone(),
        json,
    )?;
    if most_annotated {
        rank(&mut stage, &sources, &args.run, by, &form, json)?;
    }
    let mut session = Session::with_output(io::sink(), &args.run, "games");
    let kept = session.counter("kept");
    let dups = session.counter("duplicates");
    for (index, source) in sources.iter().enumerate() {
        stage.begin_input(source.name());
        let Some(input) = session.open(source) else {
            continue;
        };
        let name = input.name.clone();
        let worker = Worker {
            name: &name,
            index,
            by,
            form: &form,
            json,
        };
        let (kept_before, dups_before) = (stage.deduper.kept(), stage.deduper.duplicates());
        if form.is_export() && !json && !most_annotated {
            // Each worker checks, digests and writes the games of its piece of the input as
            // it reads them: one pass over their bytes.
            let work = fold(
                |sink: &mut Sink, entries: &mut Vec<Offer>, number, read: Visited<'_, _>| {
                    worker.streamed(sink, entries, number, read);
                },
            );
            let exporter = || DigestExporter::new(by);
            session.visit(input, exporter, &work, |entries| stage.write(entries))?;
        } else {
            let work = fold(
                |sink: &mut Sink, entries: &mut Vec<Offer>, number, raw: &RawGame| {
                    worker.game(sink, entries, number, raw, most_annotated);
                },
            );
            session.games(input, &work, |entries| stage.write(entries))?;
        }
        session.add(kept, stage.deduper.kept() - kept_before);
        session.add(dups, stage.deduper.duplicates() - dups_before);
    }
    let status = session.finish()?;
    stage.flush()?;
    Ok(status)
}
