//! `tabia dedup`: keep one copy of each game, across inputs.
//!
//! Workers check and digest each game and write it in the output form (on all cores), a
//! batch's games handed on as [`Entry`]s; the ordered stage decides in input order
//! ([`Deduper`]) and sends each game to the output or to `--duplicates`. Memory: one
//! fixed-size entry per distinct game, whatever the input size.
//!
//! In export format (no `--json`, no output form option, `--keep first`) each worker reads its
//! piece of the input once with a [`DigestExporter`], with no game tree, as `tabia pgn` does
//! with its exporter; a game whose export needs its tree, and a bad game, is parsed and read
//! from its tree, as it is for the other forms.

use std::{
    io::{self, Write},
    path::PathBuf,
};

use anyhow::bail;
use tabia_collect::{
    DedupBy, Deduper, DigestExporter, Digested, Digester, Form, GameCopy, Place, annotations,
};
use tabia_notation::pgn::RawGame;
use tabia_position::ReplayError;
use tabia_stream::Visited;

use crate::{
    check::{ReadGame, read_game},
    cli::{RunArgs, Status},
    form::FormArgs,
    input::Source,
    output::{self, OutputArg},
    parallel::{Sink, fold},
    record,
    report::Diagnostic,
    session::Session,
};

/// Arguments of `tabia dedup` (its examples are in `cli.rs`).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// PGN files, or folders of them (none, or `-`: standard input); compressed files and zip
    /// archives are recognised.
    #[arg(value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
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

/// What a worker makes of one game for the ordered stage.
enum Entry {
    /// A good game, digested and written.
    Game(GameCopy),
    /// The `--json` line of a bad game, written to the output as it is.
    Line(Vec<u8>),
}

/// The ordered stage: the decisions, the outputs.
struct Stage {
    deduper: Deduper,
    form: Form,
    json: bool,
    names: Vec<String>,
    out: Box<dyn Write>,
    duplicates: Option<Box<dyn Write>>,
}

impl Stage {
    /// The second (or only) pass: each game to the output or the duplicates, in input order.
    fn write(&mut self, entries: Vec<Entry>) -> anyhow::Result<()> {
        for entry in entries {
            let copy = match entry {
                Entry::Line(line) => {
                    self.out.write_all(&line)?;
                    continue;
                }
                Entry::Game(copy) => copy,
            };
            let decided = self.deduper.decide(copy)?;
            if let Some(text) = decided.kept {
                self.out.write_all(&text)?;
            }
            if let (Some(duplicate), Some(out)) = (decided.duplicate, &mut self.duplicates) {
                let name = self
                    .names
                    .get(usize::from(duplicate.of.input))
                    .map_or("?", String::as_str);
                let value = format!("{name}#{}", duplicate.of.game);
                let tag = if self.json {
                    format!(",\"duplicate_of\":{}", serde_json::to_string(&value)?)
                } else {
                    self.form.tag_text("DuplicateOf", &value)
                };
                duplicate.write_tagged(out, tag.as_bytes())?;
            }
        }
        Ok(())
    }
}

/// Runs `tabia dedup`.
pub(crate) fn run(args: &Args) -> anyhow::Result<Status> {
    let form = args.form.form()?;
    let by = match (args.fuzzy_depth, args.by) {
        (Some(n), _) => DedupBy::FuzzyDepth(n),
        (None, By::Moves) => DedupBy::Moves,
        (None, By::Position) => DedupBy::Position,
    };
    let sources = Source::from_args(&args.files);
    if sources.len() > usize::from(u16::MAX) {
        bail!("at most {} inputs", u16::MAX);
    }
    let most_annotated = args.keep == Keep::MostAnnotated;
    if most_annotated && sources.iter().any(|s| matches!(s, Source::Stdin)) {
        bail!("--keep most-annotated reads its inputs twice: name files, not standard input");
    }
    // Both outputs are claimed before any input is read (refused when they exist already,
    // unless --force or --append).
    let out = args.out.open(&args.files)?;
    let duplicates = args
        .duplicates
        .as_deref()
        .map(|path| output::claim_file(path, args.out.existing.policy(), &args.files))
        .transpose()?
        .map(|file| Box::new(io::BufWriter::with_capacity(1 << 16, file)) as Box<dyn Write>);
    let json = args.json;
    let keep = match args.keep {
        Keep::First => tabia_collect::Keep::First,
        Keep::MostAnnotated => tabia_collect::Keep::MostAnnotated,
    };
    let mut stage = Stage {
        deduper: Deduper::new(keep),
        form: form.clone(),
        json,
        names: Vec::new(),
        out,
        duplicates,
    };
    if most_annotated {
        let quiet = RunArgs {
            quiet: true,
            ..args.run.clone()
        };
        let mut session = Session::with_writers(io::sink(), io::sink(), &quiet, "games", false);
        for (index, source) in sources.iter().enumerate() {
            let Some(input) = session.open(source) else {
                continue;
            };
            let name = input.name.clone();
            let work = fold(
                |sink: &mut Sink, entries: &mut Vec<Entry>, number, raw: &RawGame| {
                    game(
                        &name, index, by, &form, json, sink, entries, number, raw, true,
                    );
                },
            );
            session.games(input, &work, |entries| {
                for entry in entries {
                    if let Entry::Game(copy) = entry {
                        stage.deduper.rank(copy);
                    }
                }
                Ok(())
            })?;
        }
        session.finish()?;
    }
    let mut session = Session::with_output(io::sink(), &args.run, "games");
    let kept = session.counter("kept");
    let dups = session.counter("duplicates");
    for (index, source) in sources.iter().enumerate() {
        stage.names.push(source.name());
        let Some(input) = session.open(source) else {
            continue;
        };
        let name = input.name.clone();
        let (kept_before, dups_before) = (stage.deduper.kept(), stage.deduper.duplicates());
        if form.is_export() && !json && !most_annotated {
            // Each worker checks, digests and writes the games of its piece of the input as
            // it reads them: one pass over their bytes.
            let work = fold(
                |sink: &mut Sink, entries: &mut Vec<Entry>, number, read: Visited<'_, _>| {
                    streamed(&name, index, by, &form, sink, entries, number, read);
                },
            );
            let exporter = || DigestExporter::new(by);
            session.visit(input, exporter, &work, |entries| stage.write(entries))?;
        } else {
            let work = fold(
                |sink: &mut Sink, entries: &mut Vec<Entry>, number, raw: &RawGame| {
                    game(
                        &name,
                        index,
                        by,
                        &form,
                        json,
                        sink,
                        entries,
                        number,
                        raw,
                        most_annotated,
                    );
                },
            );
            session.games(input, &work, |entries| stage.write(entries))?;
        }
        session.add(kept, stage.deduper.kept() - kept_before);
        session.add(dups, stage.deduper.duplicates() - dups_before);
    }
    let status = session.finish()?;
    stage.out.flush()?;
    if let Some(d) = &mut stage.duplicates {
        d.flush()?;
    }
    Ok(status)
}

/// One game that a [`DigestExporter`] checked, digested and wrote as it read it, as an entry
/// for the stage; a bad game, or one whose export needs its tree, is read from its tree.
#[allow(clippy::too_many_arguments)]
fn streamed(
    name: &str,
    index: usize,
    by: DedupBy,
    form: &Form,
    sink: &mut Sink,
    entries: &mut Vec<Entry>,
    number: u64,
    read: Visited<'_, Result<Digested, ReplayError>>,
) {
    let Ok(Ok(Digested {
        checked,
        digest,
        text: Some(mut text),
        tags_len,
        ..
    })) = read.output
    else {
        // Read again from its tree, which says the same of a bad game.
        game(
            name,
            index,
            by,
            form,
            false,
            sink,
            entries,
            number,
            &read.to_raw(),
            false,
        );
        return;
    };
    for warning in &checked.warnings {
        sink.warning(&Diagnostic::from_warning(name, number, warning));
    }
    text.extend_from_slice(form.separator().as_bytes());
    entries.push(Entry::Game(GameCopy {
        digest,
        at: place(index, number),
        score: 0,
        text,
        // A duplicate's tag goes after the last tag, as `Form::write_marked` puts it.
        marks: vec![tags_len],
    }));
}

/// Where game `number` of input `index` is.
fn place(index: usize, number: u64) -> Place {
    Place {
        input: u16::try_from(index).unwrap_or(u16::MAX),
        game: number,
    }
}

/// One game: parse, check, digest, write in the output form, as an entry for the stage.
#[allow(clippy::too_many_arguments)]
fn game(
    name: &str,
    index: usize,
    by: DedupBy,
    form: &Form,
    json: bool,
    sink: &mut Sink,
    entries: &mut Vec<Entry>,
    number: u64,
    raw: &RawGame,
    score: bool,
) {
    let mut digester = Digester::new(by);
    let ReadGame {
        game,
        replayed,
        warnings,
    } = match read_game(name, number, raw, sink, |ply| digester.ply(ply)) {
        Ok(read) => read,
        Err(diagnostic) => {
            if json {
                entries.push(error_line(&diagnostic));
            }
            return;
        }
    };
    let digest = digester.finish(&replayed);
    let score = if score { annotations(&game) } else { 0 };
    let mut body = Vec::new();
    let mut marks = Vec::new();
    let written = if json {
        record::game_lines::<()>(
            &mut body, &mut marks, name, number, game, form, &warnings, None,
        )
    } else {
        form.write_marked(game, &mut body, &mut marks)
    };
    if let Err(err) = written {
        let diagnostic = Diagnostic::located(name, number, &err);
        sink.error(&diagnostic);
        if json {
            entries.push(error_line(&diagnostic));
        }
        return;
    }
    entries.push(Entry::Game(GameCopy {
        digest,
        at: place(index, number),
        score,
        text: body,
        marks,
    }));
}

/// The `--json` line of a bad game.
fn error_line(diagnostic: &Diagnostic) -> Entry {
    let mut line = Vec::new();
    output::json_line(&mut line, &output::ErrorRecord::new(diagnostic));
    Entry::Line(line)
}
