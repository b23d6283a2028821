//! `tabia eco`'s command-line work: loading `--table`, reading a game into what is written of
//! it (a [`Verdict`]), writing its TSV or `--json` line or its diagnostics, `--tag`'s games and
//! counters, and `--position`'s lines. The classification is tabia-eco's
//! ([`GameVisitor`], [`CheckingVisitor`], [`Table::set_opening_tags`]).

use std::{borrow::Cow, fs, io, io::Write as _, path::Path};

use anyhow::Context;
use serde::Serialize;
use tabia_eco::{
    CheckingVisitor, Classification, Classified, ClassifyError, GameVisitor, Opening, Table,
    TableFormat, TagChanges,
};
use tabia_notation::pgn::{PgnReader, RawGame, ReadError};
use tabia_position::ParsePositionError;

use crate::{
    output,
    parallel::{Counter, Sink},
    report::Diagnostic,
    session::Session,
};

/// Loads `--table FILE` (its format by extension, else by content).
pub(crate) fn load_table(path: &Path) -> anyhow::Result<Table> {
    let bytes = fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let format = TableFormat::detect(Some(path), &bytes);
    Table::from_bytes(&bytes, format)
        .with_context(|| format!("cannot load the table {}", path.display()))
}

/// What is written of one game: its classification and warnings, or why it is bad.
pub(crate) type Verdict<'t> = Result<Classified<'t>, BadGame>;

/// Why a game has no classification.
pub(crate) enum BadGame {
    /// It cannot be read.
    Game(ReadError),
    /// A move of its opening is illegal.
    Classify(ClassifyError),
}

/// The verdict on a game read by one of the classifying visitors.
fn verdict<'t, C: Into<Classified<'t>>>(
    read: Result<Result<C, ClassifyError>, ReadError>,
) -> Verdict<'t> {
    match read {
        Ok(class) => class.map(Into::into).map_err(BadGame::Classify),
        Err(err) => Err(BadGame::Game(err)),
    }
}

/// Classifies one game; with `check`, also checks it to its end for its warnings
/// ([`CheckingVisitor`]). Without it, the movetext after the opening is skipped unread.
pub(crate) fn classify<'t>(table: &'t Table, raw: &RawGame, check: bool) -> Verdict<'t> {
    if check {
        verdict(crate::input::visit(raw, &mut CheckingVisitor::new(table)))
    } else {
        verdict(crate::input::visit(raw, &mut GameVisitor::new(table)))
    }
}

/// The games of one input read in one pass on this thread, the classifier running on the
/// reader itself (one visitor for all the games: each resets itself at a game's start).
pub(crate) struct OnePass<'t> {
    classifier: GameVisitor<'t>,
    checking: CheckingVisitor<'t>,
    check: bool,
}

impl<'t> OnePass<'t> {
    /// Visitors classifying with `table`, checking each game to its end with `check`.
    pub(crate) fn new(table: &'t Table, check: bool) -> OnePass<'t> {
        OnePass {
            classifier: GameVisitor::new(table),
            checking: CheckingVisitor::new(table),
            check,
        }
    }

    /// The next game's verdict (`None` at the end of the input).
    ///
    /// # Errors
    ///
    /// The input cannot be read.
    pub(crate) fn read<R: io::Read>(
        &mut self,
        reader: &mut PgnReader<R>,
    ) -> io::Result<Option<Verdict<'t>>> {
        let read = if self.check {
            reader
                .read_game(&mut self.checking)
                .map(|g| g.map(|class| verdict(Ok(class))))
        } else {
            reader
                .read_game(&mut self.classifier)
                .map(|g| g.map(|class| verdict(Ok(class))))
        };
        match read {
            Ok(verdict) => Ok(verdict),
            Err(ReadError::Io(err)) => Err(err),
            Err(err) => Ok(Some(Err(BadGame::Game(err)))),
        }
    }
}

/// Writes one game's line, or reports why it is bad (with `--json`, also as its line).
pub(crate) fn write_verdict(
    name: &str,
    json: bool,
    sink: &mut Sink,
    number: u64,
    verdict: &Verdict<'_>,
) {
    match verdict {
        Ok(Classified { class, warnings }) => {
            let warnings = sink.replay_warnings(name, number, warnings);
            write_game(&mut sink.out, name, json, number, *class, &warnings);
        }
        Err(BadGame::Game(err)) => {
            sink.reject(&Diagnostic::from_game_error(name, number, err), json);
        }
        Err(BadGame::Classify(err)) => sink.reject(&Diagnostic::located(name, number, err), json),
    }
}

/// One `--json` line (`docs/schema.md`): fields that do not apply are left out.
#[derive(Debug, Serialize)]
struct Record<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<&'a str>,
    /// `named`, `unnamed`, `non-standard start` or `chess960`.
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    eco: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    extended: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ply: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<&'a str>,
    #[serde(skip_serializing_if = "<[Diagnostic]>::is_empty")]
    warnings: &'a [Diagnostic],
}

impl<'a> Record<'a> {
    fn new(status: &'static str, opening: Option<&'a Opening>, ply: Option<usize>) -> Record<'a> {
        Record {
            file: None,
            game: None,
            position: None,
            status,
            eco: opening.map(Opening::eco),
            extended: opening.and_then(Opening::extended),
            name: opening.map(Opening::name),
            ply,
            moves: opening.map(Opening::moves),
            warnings: &[],
        }
    }
}

/// Writes one game's line: TSV (number, ECO, extended code, name, ply) or NDJSON.
fn write_game(
    out: &mut Vec<u8>,
    file: &str,
    json: bool,
    number: u64,
    class: Classification<'_>,
    warnings: &[Diagnostic],
) {
    let m = class.matched();
    let opening = m.map(|m| m.opening);
    if json {
        let record = Record {
            file: Some(file),
            game: Some(number),
            warnings,
            ..Record::new(class.status(), opening, m.map(|m| m.ply))
        };
        output::json_line(out, &record);
    } else {
        let number = number.to_string();
        let ply = m.map_or_else(|| "-".to_owned(), |m| m.ply.to_string());
        let name = opening.map_or(Cow::Borrowed(class.reason().unwrap_or("-")), |o| {
            Cow::Borrowed(o.name())
        });
        output::tsv_row(
            out,
            &[
                number.as_str(),
                opening.map_or("-", Opening::eco),
                opening.and_then(Opening::extended).unwrap_or("-"),
                &name,
                &ply,
            ],
        );
    }
}

/// The summary counters of `--tag`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TagCounters {
    added: Counter,
    changed: Counter,
    removed: Counter,
}

impl TagCounters {
    /// The counters, on `session`'s summary.
    pub(crate) fn new(session: &mut Session<'_>) -> TagCounters {
        TagCounters {
            added: session.counter("tags added"),
            changed: session.counter("changed"),
            removed: session.counter("removed"),
        }
    }

    /// Counts what was done to a game's tags.
    pub(crate) fn add(self, sink: &mut Sink, changes: TagChanges) {
        sink.add(self.added, changes.added);
        sink.add(self.changed, changes.changed);
        sink.add(self.removed, changes.removed);
    }
}

/// `--tag`: the game in export format with its opening tags set, checked and repaired as
/// `tabia pgn` does (its warnings reported); what was changed.
pub(crate) fn tag_game(
    name: &str,
    table: &Table,
    sink: &mut Sink,
    number: u64,
    raw: &RawGame,
) -> TagChanges {
    let mut game = match raw.parse() {
        Ok(game) => game,
        Err(err) => {
            sink.error(&Diagnostic::from_game_error(name, number, &err));
            return TagChanges::default();
        }
    };
    if let Ok(checked) = tabia_position::repair_game(&mut game) {
        sink.replay_warnings(name, number, &checked.warnings);
    }
    match table.set_opening_tags(&mut game) {
        Ok(changes) => {
            // Writing to a Vec cannot fail.
            let _ = write!(sink.out, "{game}\n\n");
            changes
        }
        Err(err) => {
            sink.error(&Diagnostic::located(name, number, &err));
            TagChanges::default()
        }
    }
}

/// The `--json` line of a position that cannot be read.
#[derive(Debug, Serialize)]
struct PositionError<'a> {
    position: &'a str,
    error: ErrorMessage,
}

#[derive(Debug, Serialize)]
struct ErrorMessage {
    message: String,
}

/// `--position`: reports position `number` (`text`), which cannot be read (with `--json`,
/// also as its line), and counts it bad.
pub(crate) fn bad_position(
    session: &mut Session<'_>,
    number: u64,
    text: &str,
    err: &ParsePositionError,
    json: bool,
) -> io::Result<()> {
    let label = format!("position {number}");
    session.diagnostic(&Diagnostic::new(&label, err.to_string()))?;
    if json {
        let message = match err {
            ParsePositionError::Syntax(syntax) => syntax.brief(),
            other => other.to_string(),
        };
        let mut out = Vec::new();
        output::json_line(
            &mut out,
            &PositionError {
                position: text,
                error: ErrorMessage { message },
            },
        );
        session.out().write_all(&out)?;
    }
    session.count(1, 1);
    Ok(())
}

/// `--position`: writes the line of a position (`text`) and the opening the table names it
/// (TSV: ECO, extended code, name, moves; or NDJSON), and counts it.
pub(crate) fn position_line(
    session: &mut Session<'_>,
    text: &str,
    opening: Option<&Opening>,
    json: bool,
) -> io::Result<()> {
    let mut out = Vec::new();
    if json {
        let status = if opening.is_some() {
            "named"
        } else {
            "unnamed"
        };
        let record = Record {
            position: Some(text),
            ..Record::new(status, opening, opening.map(Opening::ply))
        };
        output::json_line(&mut out, &record);
    } else {
        output::tsv_row(
            &mut out,
            &[
                opening.map_or("-", Opening::eco),
                opening.and_then(Opening::extended).unwrap_or("-"),
                opening.map_or("no named position", Opening::name),
                opening.map_or("-", Opening::moves),
            ],
        );
    }
    session.out().write_all(&out)?;
    session.count(1, 0);
    Ok(())
}
