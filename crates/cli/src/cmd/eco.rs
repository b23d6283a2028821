//! `tabia eco`: name the opening of games (TSV, NDJSON, or re-emitted with tags) or of
//! positions, with an embedded table (lichess's by default, or Scid's) or one loaded at run
//! time.

use std::{borrow::Cow, fs, io::Write as _, path::PathBuf};

use anyhow::Context;
use serde::Serialize;
use tabia_eco::{
    Classification, ClassifyError, GameVisitor, Opening, Openings, Table, TableFormat, TagChanges,
};
use tabia_notation::pgn::{Both, PgnReader, RawGame, ReadError};
use tabia_position::{Checker, ParsePositionError, Position};

use crate::{
    cli::{RunArgs, Status},
    input::Source,
    output::{self, OutputArg},
    parallel::{Sink, each},
    report::Diagnostic,
    session::Session,
};

/// Arguments of `tabia eco`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// PGN files, or folders of them (none, or `-`: standard input); compressed files and zip
    /// archives are recognised.
    #[arg(value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
    /// One JSON object per game (or position) instead of TSV.
    #[arg(long, conflicts_with = "tag")]
    json: bool,
    /// Re-emit each game in PGN export format with its `ECO` and `Opening` tags added or
    /// corrected where the table names the game otherwise (with Scid's table or `--table
    /// eco.pgn`/`.eco`, also `Variation`, as pgn-extract writes them); the summary counts the
    /// tags added, changed and removed.
    #[arg(long)]
    tag: bool,
    /// Also check every game to its end as `tabia pgn --check` does, in the same pass, and
    /// report what was read leniently as warnings (without it only the opening is read, and
    /// the rest of the movetext is skipped unchecked: about 2.6 times faster). `--tag` always
    /// checks, since it writes the games repaired.
    #[arg(long)]
    check: bool,
    /// The embedded opening table: `lichess` (lichess's names, as on its games and site) or
    /// `scid` (Scid's finer table and names).
    #[arg(long, value_name = "TABLE", default_value = "lichess")]
    openings: Openings,
    /// Use this opening table instead of an embedded one: pgn-extract's `eco.pgn`, Scid's
    /// `.eco` or a TSV with columns eco, name, pgn (by extension, else by content).
    #[arg(long, value_name = "FILE", conflicts_with = "openings")]
    table: Option<PathBuf>,
    /// Name this position instead of reading games (a FEN, EPD, partial FEN or `startpos`);
    /// may be given several times.
    #[arg(long, value_name = "FEN", conflicts_with_all = ["files", "tag"])]
    position: Vec<String>,
    #[command(flatten)]
    pub(crate) run: RunArgs,
    #[command(flatten)]
    out: OutputArg,
}

/// Runs `tabia eco`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let loaded;
    let table = match &args.table {
        Some(path) => {
            let bytes =
                fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            let format = TableFormat::detect(Some(path), &bytes);
            loaded = Table::from_bytes(&bytes, format)
                .with_context(|| format!("cannot load the table {}", path.display()))?;
            &loaded
        }
        None => Table::builtin(args.openings),
    };
    if !args.position.is_empty() {
        return positions(args, table);
    }
    let mut session = Session::to_output(&args.run, &args.out, &args.files, "games")?;
    let counters = args.tag.then(|| TagCounters {
        added: session.counter("tags added"),
        changed: session.counter("changed"),
        removed: session.counter("removed"),
    });
    for source in Source::from_args(&args.files) {
        let Some(input) = session.open(&source) else {
            continue;
        };
        let name = input.name.clone();
        if let Some(counters) = counters {
            let work = each(|sink: &mut Sink, number, raw: &RawGame| {
                let changes = tag_game(&name, table, sink, number, raw);
                sink.add(counters.added, changes.added);
                sink.add(counters.changed, changes.changed);
                sink.add(counters.removed, changes.removed);
            });
            session.games(input, &work, |()| Ok(()))?;
        } else {
            // The input is split into games on the workers; each worker classifies its
            // games (and with `--check` checks them as `tabia pgn --check` does, for the
            // warnings, in the same pass), so `-j` scales.
            let check = args.check;
            if session.jobs() == 1 {
                // One pass on this thread: the classifier runs on the reader itself, no
                // splitting into raw games first.
                session.one_pass(input, |reader, pass| {
                    let mut reader = PgnReader::new(reader);
                    let mut sink = Sink::default();
                    // One visitor for all the games (each resets itself at a game's start).
                    let mut classifier = GameVisitor::new(table);
                    let mut both = Both::new(GameVisitor::new(table), Checker::new());
                    for number in 1.. {
                        let read = if check {
                            reader.read_game(&mut both).map(|g| g.map(checked_item))
                        } else {
                            reader
                                .read_game(&mut classifier)
                                .map(|g| g.map(classified_item))
                        };
                        let item = match read {
                            Ok(Some(item)) => item,
                            Ok(None) => break,
                            Err(ReadError::Io(err)) => return Err(err),
                            Err(err) => Item(Err(ItemError::Game(err))),
                        };
                        write_item(&name, args.json, &mut sink, number, &item);
                        pass.done(&mut sink)?;
                    }
                    Ok(())
                })?;
                continue;
            }
            let work = each(|sink: &mut Sink, number, raw: &RawGame| {
                let item = classify(table, raw, check);
                write_item(&name, args.json, sink, number, &item);
            });
            session.games(input, &work, |()| Ok(()))?;
        }
    }
    Ok(session.finish()?)
}

/// The summary counters of `--tag`.
#[derive(Debug, Clone, Copy)]
struct TagCounters {
    added: crate::parallel::Counter,
    changed: crate::parallel::Counter,
    removed: crate::parallel::Counter,
}

/// What a worker makes of one game: its classification and its warnings (what was read
/// leniently, a result the board contradicts), or why it is bad.
struct Item<'t>(Result<(Classification<'t>, Vec<tabia_position::ReplayWarning>), ItemError>);

enum ItemError {
    Game(ReadError),
    Classify(ClassifyError),
}

/// Classifies one game; with `check`, also checks it as `tabia pgn --check` does for its
/// warnings (a rule broken after the opening is not the classification's business: that game
/// has no warnings). Without it, the movetext after the opening is skipped unread.
fn classify<'t>(table: &'t Table, raw: &RawGame, check: bool) -> Item<'t> {
    let read = if check {
        crate::input::visit(raw, &mut Both::new(GameVisitor::new(table), Checker::new()))
            .map(checked_item)
    } else {
        crate::input::visit(raw, &mut GameVisitor::new(table)).map(classified_item)
    };
    read.unwrap_or_else(|err| Item(Err(ItemError::Game(err))))
}

/// The item of a game read by the classifier alone.
fn classified_item(class: Result<Classification<'_>, ClassifyError>) -> Item<'_> {
    Item(
        class
            .map(|class| (class, Vec::new()))
            .map_err(ItemError::Classify),
    )
}

/// The item of a game read by the classifier and the checker.
fn checked_item<'t>(
    (class, checked): (
        Result<Classification<'t>, ClassifyError>,
        Result<tabia_position::Checked, tabia_position::ReplayError>,
    ),
) -> Item<'t> {
    let warnings = checked.map(|c| c.warnings).unwrap_or_default();
    Item(
        class
            .map(|class| (class, warnings))
            .map_err(ItemError::Classify),
    )
}

/// Writes one game's line, or reports why it is bad (with `--json`, also as its line).
fn write_item(name: &str, json: bool, sink: &mut Sink, number: u64, item: &Item<'_>) {
    match &item.0 {
        Ok((class, warnings)) => {
            let warnings: Vec<Diagnostic> = warnings
                .iter()
                .map(|w| Diagnostic::from_warning(name, number, w))
                .collect();
            for warning in &warnings {
                sink.warning(warning);
            }
            write_game(&mut sink.out, name, json, number, *class, &warnings);
        }
        Err(ItemError::Game(err)) => {
            sink.reject(&Diagnostic::from_game_error(name, number, err), json);
        }
        Err(ItemError::Classify(err)) => sink.reject(&Diagnostic::located(name, number, err), json),
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

fn status(class: Classification<'_>) -> &'static str {
    match class {
        Classification::Named(_) => "named",
        Classification::Unnamed => "unnamed",
        Classification::NonStandardStart => "non-standard start",
        Classification::Chess960 => "chess960",
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
            ..Record::new(status(class), opening, m.map(|m| m.ply))
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

/// `--tag`: the game in export format with its opening tags set; what was changed.
fn tag_game(name: &str, table: &Table, sink: &mut Sink, number: u64, raw: &RawGame) -> TagChanges {
    let mut game = match raw.parse() {
        Ok(game) => game,
        Err(err) => {
            sink.error(&Diagnostic::from_game_error(name, number, &err));
            return TagChanges::default();
        }
    };
    // Checked and repaired as `tabia pgn` does, its warnings reported.
    if let Ok(checked) = tabia_position::repair_game(&mut game) {
        for warning in &checked.warnings {
            sink.warning(&Diagnostic::from_warning(name, number, warning));
        }
    }
    match table.classify_game(&game) {
        Ok(class) => {
            let changes = class
                .matched()
                .map(|m| m.opening.set_tags(&mut game))
                .unwrap_or_default();
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

/// `--position`: names each position given.
fn positions(args: &Args, table: &Table) -> anyhow::Result<Status> {
    let mut session = Session::to_output(&args.run, &args.out, &args.files, "positions")?;
    for (i, text) in args.position.iter().enumerate() {
        let number = i as u64 + 1;
        let pos = match Position::from_arg(text) {
            Ok(pos) => pos,
            Err(err) => {
                let label = format!("position {number}");
                session.diagnostic(&Diagnostic::new(&label, err.to_string()))?;
                if args.json {
                    let message = match &err {
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
                continue;
            }
        };
        let opening = table.classify_position(&pos);
        let mut out = Vec::new();
        if args.json {
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
    }
    Ok(session.finish_without_summary()?)
}
