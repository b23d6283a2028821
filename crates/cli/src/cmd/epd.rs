//! `tabia epd`: the EPD (or FEN) after every ply of every game's mainline (Chess::PGN::EPD's
//! `epdlist`), one per line, each game followed by a blank line.
//!
//! Games are split from the input and replayed on any worker thread; the output keeps the
//! input order. The plain output replays each game as the reader reads it (no game tree; the
//! variations are skipped unread, so a syntax error inside a variation is not reported);
//! `--json` and `--from` build the game tree. A bad game (syntax, illegal move, bad `FEN` tag) writes nothing and is reported
//! as `FILE:LINE:COL: game N: message`; what was read leniently is reported as a warning, and
//! with `--json` carried in a `warnings` array on the game's first object.

use std::path::PathBuf;

use tabia_notation::pgn::{Move, PgnReader, RawGame};
use tabia_position::{EpRule, MainlineReplayer, Position, replay_mainline};

use crate::{
    cli::{RunArgs, Status},
    cmd::fen::EpArg,
    input::Source,
    output::{self, JsonEval, OutputArg},
    parallel::{Sink, each},
    report::Diagnostic,
    session::Session,
};

/// Arguments of `tabia epd` (its examples are in `cli.rs`).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// PGN files, or folders of them (none, or `-`: standard input); compressed files and zip
    /// archives are recognised.
    #[arg(value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
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

/// One `--json` line (`docs/schema.md`).
#[derive(Debug, serde::Serialize)]
struct Record<'a> {
    file: &'a str,
    game: u64,
    ply: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    san: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    epd: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fen: Option<&'a str>,
    /// The clock left after the move that led here (`[%clk]`), in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    clock: Option<u64>,
    /// The evaluation after the move that led here (`[%eval]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    eval: Option<JsonEval>,
}

/// Runs `tabia epd`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let from = match args.from.as_deref().map(Position::from_arg) {
        Some(Ok(pos)) => Some(pos),
        Some(Err(err)) => anyhow::bail!("bad --from position: {err}"),
        None => None,
    };
    let mut session = Session::to_output(&args.run, &args.out, &args.files, "games")?;
    for source in Source::from_args(&args.files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        let work = each(|sink: &mut Sink, number, raw: &RawGame| {
            if from.is_none() && !args.json {
                game_streamed(&name, args, sink, number, raw);
            } else {
                game(&name, args, from.as_ref(), sink, number, raw);
            }
        });
        session.games(input, &work, |()| Ok(()))?;
    }
    Ok(session.finish()?)
}

/// Writes the positions of one game, replayed as the reader reads it (no game tree is built),
/// or reports why it is bad: the fast path of the plain EPD/FEN output.
fn game_streamed(name: &str, args: &Args, sink: &mut Sink, number: u64, raw: &RawGame) {
    let ep = EpRule::from(args.ep);
    let mut plies = Vec::new();
    let mut replayer = MainlineReplayer::new(|pos: &Position, _, _| {
        if args.fen {
            pos.write_fen(&mut plies, ep);
        } else {
            pos.write_epd(&mut plies, ep);
        }
        plies.push(b'\n');
    });
    let capacity = raw.bytes.len().saturating_add(4096);
    let mut reader = PgnReader::with_capacity(capacity, &raw.bytes[..]).with_origin(raw.start);
    let replayed = reader.read_game(&mut replayer);
    drop(replayer);
    match replayed {
        Ok(Some(Ok(replayed))) => {
            for warning in &replayed.warnings {
                sink.warning(&Diagnostic::from_warning(name, number, warning));
            }
            if args.start {
                if args.fen {
                    replayed.start.write_fen(&mut sink.out, ep);
                } else {
                    replayed.start.write_epd(&mut sink.out, ep);
                }
                sink.out.push(b'\n');
            }
            sink.out.extend_from_slice(&plies);
            sink.out.push(b'\n');
        }
        Ok(Some(Err(err))) => sink.error(&Diagnostic::located(name, number, &err)),
        Ok(None) => {}
        Err(err) => sink.error(&Diagnostic::from_game_error(name, number, &err)),
    }
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
        Err(err) => {
            sink.reject(&Diagnostic::from_game_error(name, number, &err), args.json);
            return;
        }
    };
    let ep = EpRule::from(args.ep);
    let mut out = Vec::with_capacity(64 * (game.mainline.moves.len() + 2));
    let mut write = Writer {
        file: name,
        game: number,
        args,
        ep,
        text: Vec::new(),
    };
    let mut warnings = Vec::new();
    let start = if args.start || from.is_some() {
        let start = match from {
            Some(from) => Ok(from.clone()),
            None => tabia_position::start_position_with_warnings(&game).map(|(start, w)| {
                warnings = w;
                start
            }),
        };
        match start {
            Ok(start) => {
                if args.start {
                    write.position(&mut out, &start, 0, None);
                }
                Some(start)
            }
            Err(err) => {
                sink.reject(&Diagnostic::located(name, number, &err), args.json);
                return;
            }
        }
    } else {
        None
    };
    let replayed = replay_mainline(&game, start, |ply| {
        let mv = write.args.json.then_some(ply.node);
        write.position(&mut out, ply.position, ply.ply, mv);
    });
    match replayed {
        Ok(replayed) => {
            warnings.extend(replayed.warnings);
            let warnings: Vec<Diagnostic> = warnings
                .iter()
                .map(|warning| Diagnostic::from_warning(name, number, warning))
                .collect();
            for warning in &warnings {
                sink.warning(warning);
            }
            if !args.json {
                out.push(b'\n');
            } else if !warnings.is_empty() {
                with_warnings(&mut out, &warnings);
            }
            sink.out.extend_from_slice(&out);
        }
        Err(err) => sink.reject(&Diagnostic::located(name, number, &err), args.json),
    }
}

/// Adds the game's `warnings` array to its first `--json` object (`docs/schema.md`).
fn with_warnings(out: &mut Vec<u8>, warnings: &[Diagnostic]) {
    let Some(line_end) = out.iter().position(|&b| b == b'\n') else {
        return;
    };
    // The line is a JSON object: its last byte before the line end is its `}`.
    let mut field = b",\"warnings\":".to_vec();
    if serde_json::to_writer(&mut field, warnings).is_ok() {
        out.splice(line_end - 1..line_end - 1, field);
    }
}

/// Writes the positions of one game.
struct Writer<'a> {
    file: &'a str,
    game: u64,
    args: &'a Args,
    ep: EpRule,
    /// The EPD or FEN of a `--json` line, reused from one position to the next.
    text: Vec<u8>,
}

impl Writer<'_> {
    /// Writes one position: its line of EPD (or FEN), or with `--json` its object.
    /// `mv` is the move that led here (with `--json` only).
    fn position(&mut self, out: &mut Vec<u8>, pos: &Position, ply: u32, mv: Option<&Move>) {
        if !self.args.json {
            self.write(out, pos);
            out.push(b'\n');
            return;
        }
        let mut text = std::mem::take(&mut self.text);
        text.clear();
        self.write(&mut text, pos);
        let text_str = String::from_utf8_lossy(&text);
        let record = Record {
            file: self.file,
            game: self.game,
            ply,
            san: mv.map(|m| m.san.to_string()),
            epd: (!self.args.fen).then_some(&*text_str),
            fen: self.args.fen.then_some(&*text_str),
            clock: mv.and_then(Move::clock),
            eval: mv.and_then(Move::eval).map(JsonEval::from),
        };
        output::json_line(out, &record);
        drop(text_str);
        self.text = text;
    }

    fn write(&self, out: &mut Vec<u8>, pos: &Position) {
        if self.args.fen {
            pos.write_fen(out, self.ep);
        } else {
            pos.write_epd(out, self.ep);
        }
    }
}
