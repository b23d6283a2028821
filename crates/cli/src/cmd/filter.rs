//! `tabia filter`: the games that match criteria on their tags, players, ratings, openings,
//! positions, board patterns, material and moves (the library is `tabia-select`).
//!
//! Each game is matched by a [`Matcher`] as it is read: tag criteria decide before the
//! movetext (skipped unread when they decide), position criteria replay the moves, and a game
//! is read no further once decided. Every game is matched in the one pass that reads it,
//! keeping the bytes of the selected ones only: with one job or with `--limit` (so that reading
//! stops right after the N-th match) on the one thread, with several jobs by each worker on the
//! games of its piece of the input. A selected game is then checked like `tabia pgn` checks it
//! and written, in export format by the [`Exporter`](tabia_position::Exporter) as it is read
//! again, else from its tree (other output forms, `--json`, `--mark`) — or written as it was
//! read with `--raw` (`ops::filter`). The criteria are `CriteriaArgs`, which make the
//! [`Selection`](tabia_select::Selection).

use std::num::NonZeroU64;

use tabia_select::{Matcher, TagsSeen};
use tabia_stream::Visited;

use crate::{
    cli::{InputFiles, RunArgs, Status},
    criteria::CriteriaArgs,
    form::FormArgs,
    input::Source,
    ops::filter::{Context, Matched, Writing, matched_on_reader},
    output::OutputArg,
    parallel::{Sink, each},
    session::Session,
};

/// The pieces of input the workers take, 1 MiB: a query that its tags decide spends most of
/// its time finding where each game ends, and every piece costs a hand-over between threads
/// (with the pipeline's 256 KiB, a tag query that writes nothing took 10% longer on 100 MB on
/// two cores). Memory stays bounded: `2 × jobs + 2` pieces and their output at a time.
const BATCH_BYTES: usize = 1 << 20;

/// Arguments of `tabia filter` (its examples are in `cli.rs`; the criteria: [`CriteriaArgs`]).
#[derive(Debug, clap::Args)]
#[command(next_help_heading = "Criteria on tags")]
pub(crate) struct Args {
    #[command(flatten, next_help_heading = "Input and progress")]
    pub(crate) input: InputFiles,
    #[command(flatten)]
    criteria: CriteriaArgs,
    /// Stop after N matches (and stop reading).
    #[arg(long, value_name = "N", help_heading = "Output")]
    limit: Option<NonZeroU64>,
    /// Add a {match: CRITERION} comment after the move where the game matched, and a MatchPly
    /// tag.
    #[arg(long, conflicts_with = "invert", help_heading = "Output")]
    mark: bool,
    /// One JSON object per game (NDJSON): as `tabia pgn --json` (in the output form), plus a
    /// `match` object.
    #[arg(long, help_heading = "Output")]
    json: bool,
    /// Write each selected game byte for byte as it was read instead of in export format: the
    /// fastest output, as the game is neither parsed again nor checked (moves the criteria did
    /// not replay are not looked at).
    #[arg(long, conflicts_with_all = ["json", "mark"], help_heading = "Output")]
    raw: bool,
    #[command(flatten, next_help_heading = "Output")]
    out: OutputArg,
    #[command(flatten, next_help_heading = "Input and progress")]
    pub(crate) run: RunArgs,
    #[command(flatten)]
    form: FormArgs,
}

/// Runs `tabia filter`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let selection = args.criteria.selection()?;
    let form = args.form.form()?;
    if args.raw && !form.is_export() {
        anyhow::bail!("--raw writes the games as they were read: it takes no output form option");
    }
    let mut session = Session::to_output(&args.run, &args.out, &args.input.files, "games")?;
    session.prefer_batch_bytes(BATCH_BYTES);
    let matched = session.counter("matched");
    let mut left = args.limit.map(NonZeroU64::get);
    let on_reader = session.jobs() == 1 || left.is_some();
    let tags_seen = TagsSeen::new();
    let writing = Writing {
        raw: args.raw,
        json: args.json,
        mark: args.mark,
    };
    for source in Source::from_args(&args.input.files) {
        if left == Some(0) {
            break;
        }
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        let ctx = Context {
            name: &name,
            selection: &selection,
            form: &form,
            writing,
            matched,
            tags_seen: &tags_seen,
        };
        if on_reader {
            let work = each(|sink: &mut Sink, number, item: &_| ctx.read(sink, number, item));
            session.items(
                input,
                |reader| matched_on_reader(reader, &selection, left.as_mut()),
                &work,
                |()| Ok(()),
            )?;
        } else {
            // Each worker matches the games of its piece of the input as it reads them: the
            // movetext of a game that its tags rule out is skipped, never copied.
            let work = each(|sink: &mut Sink, number, game: Visited<'_, Matched>| {
                ctx.visited(sink, number, game);
            });
            session.visit(
                input,
                || Matcher::new(selection.query()),
                &work,
                |()| Ok(()),
            )?;
        }
    }
    if !args.run.quiet {
        session.out().flush()?;
        for missing in tags_seen.missing(selection.query()) {
            eprintln!("tabia: {missing}");
        }
    }
    Ok(session.finish()?)
}
