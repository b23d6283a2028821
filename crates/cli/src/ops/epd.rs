//! `tabia epd`'s own work: a game's lines (or `--json` objects) written into its batch's
//! [`Sink`] through tabia-position's [`EpdLines`], and what went wrong reported.

use tabia_notation::pgn::{Move, RawGame};
use tabia_position::{CheckError, EpdLines, Position};

use crate::{
    output::{self, JsonEval},
    parallel::Sink,
    report::Diagnostic,
};

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

/// Writes the lines of one game, replayed as the reader reads it (no game tree is built), or
/// reports why it is bad: the fast path of the plain EPD/FEN output.
pub(crate) fn streamed(name: &str, lines: &EpdLines, sink: &mut Sink, number: u64, raw: &RawGame) {
    match lines.write_game(raw, &mut sink.out) {
        Ok(Some(replayed)) => {
            sink.replay_warnings(name, number, &replayed.warnings);
        }
        Ok(None) => {}
        Err(CheckError::Syntax(err)) => {
            sink.error(&Diagnostic::from_game_error(name, number, &err))
        }
        Err(err) => sink.error(&Diagnostic::located(name, number, &err)),
    }
}

/// Writes the positions of one game from its tree (for `--json` and `--from`): its lines, or
/// with `--json` an object per position; or reports why it is bad.
pub(crate) fn replayed(
    name: &str,
    lines: &EpdLines,
    json: bool,
    from: Option<&Position>,
    sink: &mut Sink,
    number: u64,
    raw: &RawGame,
) {
    let game = match raw.parse() {
        Ok(game) => game,
        Err(err) => {
            sink.reject(&Diagnostic::from_game_error(name, number, &err), json);
            return;
        }
    };
    let mut out = Vec::with_capacity(64 * (game.mainline.moves.len() + 2));
    let mut write = Writer {
        file: name,
        game: number,
        lines,
        json,
        text: Vec::new(),
    };
    let replayed = lines.replay(&game, from, |pos, ply, mv| {
        write.position(&mut out, pos, ply, mv.filter(|_| json));
    });
    match replayed {
        Ok(replayed) => {
            let warnings = sink.replay_warnings(name, number, &replayed.warnings);
            if !json {
                out.push(b'\n');
            } else if !warnings.is_empty() {
                with_warnings(&mut out, &warnings);
            }
            sink.out.extend_from_slice(&out);
        }
        Err(err) => sink.reject(&Diagnostic::located(name, number, &err), json),
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
    lines: &'a EpdLines,
    json: bool,
    /// The EPD or FEN of a `--json` line, reused from one position to the next.
    text: Vec<u8>,
}

impl Writer<'_> {
    /// Writes one position: its line of EPD (or FEN), or with `--json` its object.
    /// `mv` is the move that led here (with `--json` only).
    fn position(&mut self, out: &mut Vec<u8>, pos: &Position, ply: u32, mv: Option<&Move>) {
        if !self.json {
            self.lines.write(out, pos);
            out.push(b'\n');
            return;
        }
        let mut text = std::mem::take(&mut self.text);
        text.clear();
        self.lines.write(&mut text, pos);
        let text_str = String::from_utf8_lossy(&text);
        let record = Record {
            file: self.file,
            game: self.game,
            ply,
            san: mv.map(|m| m.san.to_string()),
            epd: (!self.lines.fen).then_some(&*text_str),
            fen: self.lines.fen.then_some(&*text_str),
            clock: mv.and_then(Move::clock),
            eval: mv.and_then(Move::eval).map(JsonEval::from),
        };
        output::json_line(out, &record);
        drop(text_str);
        self.text = text;
    }
}
