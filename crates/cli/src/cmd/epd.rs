//! `tabia epd`: the EPD (or FEN) after every ply of every game's mainline (Chess::PGN::EPD's
//! `epdlist`), one per line, each game followed by a blank line.
//!
//! Games are split from the input and replayed on any worker thread; the output keeps the
//! input order. A bad game (syntax, illegal move, bad `FEN` tag) writes nothing and is reported
//! as `FILE:LINE:COL: game N: message`.

use std::path::PathBuf;

use tabia_notation::pgn::{GameError, RawGame, Reader};
use tabia_position::{EpRule, Position, replay_mainline};

use crate::{
    cli::{RunArgs, Status},
    cmd::fen::EpArg,
    input::Source,
    parallel::Sink,
    report::Diagnostic,
    session::Session,
};

/// Arguments of `tabia epd`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  tabia epd games.pgn              the EPD after every ply, a blank line after each game
  tabia epd --fen --start game.pgn the full FEN of every position, the initial one too")]
pub(crate) struct Args {
    /// PGN files (none, or `-`: standard input); compressed files are recognised.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
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
    #[command(flatten)]
    run: RunArgs,
}

/// Runs `tabia epd`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let from = match args.from.as_deref().map(Position::from_arg) {
        Some(Ok(pos)) => Some(pos),
        Some(Err(err)) => anyhow::bail!("bad --from position: {err}"),
        None => None,
    };
    let mut session = Session::new(&args.run, "games");
    for source in Source::from_args(&args.files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        session.pipeline(
            input,
            |reader| {
                Reader::new(reader)
                    .raw_games()
                    .map(|raw| raw.map_err(anyhow::Error::from))
            },
            |sink, number, raw| game(&name, args, from.as_ref(), sink, number, &raw),
        )?;
    }
    Ok(session.finish()?)
}

/// Writes the positions of one game, or reports why it is bad.
fn game(
    name: &str,
    args: &Args,
    from: Option<&Position>,
    sink: &mut Sink,
    number: u64,
    raw: &RawGame,
) {
    let game = match raw.parse() {
        Ok(game) => game,
        Err(GameError::Syntax { error, .. }) => {
            sink.error(&Diagnostic::from_error(name, &error).game(number));
            return;
        }
        Err(err) => {
            sink.error(&Diagnostic::new(name, err.to_string()).game(number));
            return;
        }
    };
    let ep = EpRule::from(args.ep);
    let mut out = Vec::with_capacity(64 * (game.mainline.moves.len() + 2));
    let write = |out: &mut Vec<u8>, pos: &Position| {
        if args.fen {
            pos.write_fen(out, ep);
        } else {
            pos.write_epd(out, ep);
        }
        out.push(b'\n');
    };
    let start = if args.start || from.is_some() {
        let start = match from {
            Some(from) => Ok(from.clone()),
            None => tabia_position::start_position(&game),
        };
        match start {
            Ok(start) => {
                if args.start {
                    write(&mut out, &start);
                }
                Some(start)
            }
            Err(err) => {
                sink.error(&diagnostic(name, number, &err));
                return;
            }
        }
    } else {
        None
    };
    match replay_mainline(&game, start, |ply| write(&mut out, ply.position)) {
        Ok(_) => {
            out.push(b'\n');
            sink.out.extend_from_slice(&out);
        }
        Err(err) => sink.error(&diagnostic(name, number, &err)),
    }
}

/// `FILE:LINE:COL: game N: message` for a game that could not be replayed.
pub(crate) fn diagnostic(name: &str, number: u64, err: &tabia_position::ReplayError) -> Diagnostic {
    let diagnostic = Diagnostic::new(name, err.to_string()).game(number);
    match err.origin() {
        Some(at) if at.line > 0 => diagnostic.at(at.line, at.column),
        _ => diagnostic,
    }
}
