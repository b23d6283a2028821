//! `tabia pgn`: re-emit games in PGN export format, or only check them.
//!
//! In export format (no `--json`, no output form option) each worker reads its piece of the
//! input once with the [`Exporter`](tabia_position::Exporter) (as [`Exporting`]): each
//! game is checked ([`check_game`](tabia_position::check_game)'s checks: legal moves) and
//! written, repaired where its warnings say, as it is read, with no tree; its warnings are
//! reported (what was read leniently, a result that contradicts the board), and `--strict`
//! reports them as errors and drops the game. A game whose NAGs or comments the export puts
//! elsewhere than the text is parsed and written from its tree, as every game is for `--json`
//! and the other output forms (the input split into raw games, each parsed on any worker with
//! its absolute line numbers).
//!
//! `--check` builds no game tree: [`Checker`] makes the same checks, with the same warnings,
//! while the reader reads the game, on the workers; with one job the reader thread checks the
//! input as it reads it ([`check_reader`](tabia_position::check_reader): nothing to split
//! and hand over). Writing and reporting each game is `ops::pgn`'s.

use tabia_notation::pgn::RawGame;
use tabia_position::{Checker, Exporting};
use tabia_stream::Visited;

use crate::{
    cli::{InputFiles, RunArgs, Status},
    form::FormArgs,
    input::Source,
    ops::pgn::{GameOutput, Verdict, checked_games},
    output::OutputArg,
    parallel::{Sink, each},
    session::Session,
};

/// Arguments of `tabia pgn` (its examples are in `cli.rs`).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) input: InputFiles,
    /// Only check the games: write nothing on standard output, report each bad game on
    /// standard error and end with the summary.
    #[arg(long)]
    pub(crate) check: bool,
    /// One JSON object per game (NDJSON): tags, mainline moves, result and the game in the
    /// output form (moves in its notation, without what it strips, with what it adds); a bad
    /// game gets an `error` object.
    #[arg(long, conflicts_with = "check")]
    pub(crate) json: bool,
    /// Treat warnings as errors: a game with a warning is reported as bad and not written
    /// (notes, such as a missing check mark, are not warnings: see --strict-notes).
    #[arg(long)]
    pub(crate) strict: bool,
    /// As --strict, and notes are errors too: a game written in any way but the standard's
    /// (a missing `#`, a lowercase piece letter) is bad.
    #[arg(long)]
    pub(crate) strict_notes: bool,
    #[command(flatten)]
    pub(crate) run: RunArgs,
    #[command(flatten)]
    pub(crate) out: OutputArg,
    #[command(flatten)]
    pub(crate) form: FormArgs,
}

/// Runs `tabia pgn`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let form = args.form.form()?;
    let mut session = Session::to_output(&args.run, &args.out, &args.input.files, "games")?;
    for source in Source::from_args(&args.input.files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        let games = GameOutput {
            name: &name,
            form: &form,
            json: args.json,
            check: args.check,
            strict: args.strict,
            strict_notes: args.strict_notes,
        };
        if args.check && session.jobs() == 1 {
            let work = each(|sink: &mut Sink, number, verdict: &Verdict| {
                games.checked(sink, number, &verdict.result);
            });
            session.items(input, checked_games, &work, |()| Ok(()))?;
        } else if args.check {
            // Each worker checks the games of its piece of the input as it reads them.
            let work = each(|sink: &mut Sink, number, game: Visited<'_, _>| {
                games.visited(sink, number, game);
            });
            session.visit(input, Checker::new, &work, |()| Ok(()))?;
        } else if form.is_export() && !args.json {
            // Each worker checks and writes the games of its piece of the input as it reads
            // them: one pass over their bytes.
            let work = each(|sink: &mut Sink, number, game: Visited<'_, _>| {
                games.exported(sink, number, game);
            });
            session.visit(input, Exporting::default, &work, |()| Ok(()))?;
        } else {
            let work = each(|sink: &mut Sink, number, raw: &RawGame| {
                games.game(sink, number, raw);
            });
            session.games(input, &work, |()| Ok(()))?;
        }
    }
    Ok(session.finish()?)
}
