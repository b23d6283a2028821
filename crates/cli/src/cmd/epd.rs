//! `tabia epd`: the EPD (or FEN) after every ply of every game's mainline (Chess::PGN::EPD's
//! `epdlist`), one per line, each game followed by a blank line.
//!
//! Games are split from the input and replayed on any worker thread; the output keeps the
//! input order. The plain output replays each game as the reader reads it (no game tree; the
//! variations are skipped unread, so a syntax error inside a variation is not reported);
//! `--json` and `--from` build the game tree. A bad game (syntax, illegal move, bad `FEN` tag) writes nothing and is reported
//! as `FILE:LINE:COL: game N: message`; what was read leniently is reported as a warning, and
//! with `--json` carried in a `warnings` array on the game's first object. tabia-position's
//! [`EpdLines`] writes the lines; the `--json` objects and the diagnostics are in `ops::epd`.

use tabia_notation::pgn::RawGame;
use tabia_position::{EpdLines, Position};

use crate::{
    cli::{EpArg, InputFiles, RunArgs, Status},
    input::Source,
    ops::epd,
    output::OutputArg,
    parallel::{Sink, each},
    session::Session,
};

/// Arguments of `tabia epd` (its examples are in `cli.rs`).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) input: InputFiles,
    /// Print full FEN (with the clocks) instead of EPD.
    #[arg(long)]
    fen: bool,
    /// Also print the initial position of each game.
    #[arg(long)]
    start: bool,
    /// Replay every game from this position instead of the one its tags give (Chess::PGN::EPD's
    /// `epdset`): a FEN, a partial FEN, an EPD or `startpos`.
    #[arg(long, value_name = "POSITION")]
    from: Option<String>,
    /// Which en-passant square to write.
    #[arg(long, value_enum, default_value_t = EpArg::Always)]
    ep: EpArg,
    /// One JSON object per position (NDJSON): game, ply, the move that led there, the EPD (or
    /// FEN); a bad game gets an `error` object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    pub(crate) run: RunArgs,
    #[command(flatten)]
    out: OutputArg,
}

/// Runs `tabia epd`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let from = match args.from.as_deref().map(Position::from_arg) {
        Some(Ok(pos)) => Some(pos),
        Some(Err(err)) => anyhow::bail!("bad --from position: {err}"),
        None => None,
    };
    let lines = EpdLines {
        fen: args.fen,
        ep: args.ep.into(),
        start: args.start,
    };
    let mut session = Session::to_output(&args.run, &args.out, &args.input.files, "games")?;
    for source in Source::from_args(&args.input.files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        let work = each(|sink: &mut Sink, number, raw: &RawGame| {
            if from.is_none() && !args.json {
                epd::streamed(&name, &lines, sink, number, raw);
            } else {
                epd::replayed(&name, &lines, args.json, from.as_ref(), sink, number, raw);
            }
        });
        session.games(input, &work, |()| Ok(()))?;
    }
    Ok(session.finish()?)
}
