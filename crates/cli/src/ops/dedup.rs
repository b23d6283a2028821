//! `tabia dedup`'s command-line work: the workers' entries (each game digested and written in
//! the output form, or a bad game's `--json` line, its diagnostics on the sink), the ordered
//! stage that writes what tabia-collect's [`Deduper`] decides to the output and
//! `--duplicates`, and `--keep most-annotated`'s first pass.

use std::io::{self, Write};

use tabia_collect::{DedupBy, Deduper, Digested, Digester, Form, GameCopy, Place, annotations};
use tabia_notation::pgn::RawGame;
use tabia_position::ReplayError;
use tabia_stream::Visited;

use crate::{
    check::{ReadGame, read_game},
    cli::RunArgs,
    input::Source,
    output::{self, OutputArg},
    parallel::{Sink, fold},
    record,
    report::Diagnostic,
    session::Session,
};

/// What a worker makes of one game for the ordered stage.
pub(crate) enum Offer {
    /// A good game, digested and written.
    Game(GameCopy),
    /// The `--json` line of a bad game, written to the output as it is.
    Line(Vec<u8>),
}

/// How the workers of one input make their entries.
#[derive(Clone, Copy)]
pub(crate) struct Worker<'a> {
    /// The input's name.
    pub(crate) name: &'a str,
    /// The input's index among the inputs.
    pub(crate) index: usize,
    pub(crate) by: DedupBy,
    pub(crate) form: &'a Form,
    /// `--json`.
    pub(crate) json: bool,
}

impl Worker<'_> {
    /// One game that a [`DigestExporter`](tabia_collect::DigestExporter) checked, digested
    /// and wrote as it read it, as an entry; a bad game, or one whose export needs its tree,
    /// is read from its tree ([`Worker::game`]).
    #[inline]
    pub(crate) fn streamed(
        &self,
        sink: &mut Sink,
        entries: &mut Vec<Offer>,
        number: u64,
        mut read: Visited<'_, Result<Digested, ReplayError>>,
    ) {
        if let Ok(Ok(digested)) = &mut read.output
            && let Some(copy) =
                digested.take_copy(Place::new(self.index, number), self.form.separator())
        {
            sink.replay_warnings(self.name, number, &digested.checked.warnings);
            entries.push(Offer::Game(copy));
            return;
        }
        // Read again from its tree, which says the same of a bad game.
        self.game(sink, entries, number, &read.to_raw(), false);
    }

    /// One game: parse, check, digest, write in the output form (with `score`, count its
    /// annotations), as an entry; a bad game is reported (with `--json`, also as its line).
    pub(crate) fn game(
        &self,
        sink: &mut Sink,
        entries: &mut Vec<Offer>,
        number: u64,
        raw: &RawGame,
        score: bool,
    ) {
        let (name, form, json) = (self.name, self.form, self.json);
        let mut digester = Digester::new(self.by);
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
        entries.push(Offer::Game(GameCopy {
            digest,
            at: Place::new(self.index, number),
            score,
            text: body,
            marks,
        }));
    }
}

/// The `--json` line of a bad game.
fn error_line(diagnostic: &Diagnostic) -> Offer {
    let mut line = Vec::new();
    output::json_line(&mut line, &output::ErrorRecord::new(diagnostic));
    Offer::Line(line)
}

/// The ordered stage: the decisions, the outputs.
pub(crate) struct Stage {
    pub(crate) deduper: Deduper,
    form: Form,
    json: bool,
    /// The names of the inputs so far, for the `DuplicateOf` tags.
    names: Vec<String>,
    out: Box<dyn Write>,
    duplicates: Option<Box<dyn Write>>,
}

impl Stage {
    /// Claims the output (`-o`) and `--duplicates`, before any input is read (refused when
    /// they exist already, unless `--force` or `--append`).
    pub(crate) fn open(
        out: &OutputArg,
        duplicates: Option<&std::path::Path>,
        inputs: &[std::path::PathBuf],
        deduper: Deduper,
        form: Form,
        json: bool,
    ) -> anyhow::Result<Stage> {
        let writer = out.open(inputs)?;
        let duplicates = duplicates
            .map(|path| output::claim_file(path, out.existing.policy(), inputs))
            .transpose()?
            .map(|file| Box::new(io::BufWriter::with_capacity(1 << 16, file)) as Box<dyn Write>);
        Ok(Stage {
            deduper,
            form,
            json,
            names: Vec::new(),
            out: writer,
            duplicates,
        })
    }

    /// The next input is `name`.
    pub(crate) fn begin_input(&mut self, name: String) {
        self.names.push(name);
    }

    /// The second (or only) pass: each game to the output or the duplicates, in input order.
    pub(crate) fn write(&mut self, entries: Vec<Offer>) -> anyhow::Result<()> {
        for entry in entries {
            let copy = match entry {
                Offer::Line(line) => {
                    self.out.write_all(&line)?;
                    continue;
                }
                Offer::Game(copy) => copy,
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

    /// Flushes both outputs.
    pub(crate) fn flush(&mut self) -> io::Result<()> {
        self.out.flush()?;
        if let Some(d) = &mut self.duplicates {
            d.flush()?;
        }
        Ok(())
    }
}

/// `--keep most-annotated`'s first pass: every copy of `sources` ranked by the stage's
/// deduper, quietly (the second pass reports).
pub(crate) fn rank(
    stage: &mut Stage,
    sources: &[Source],
    run: &RunArgs,
    by: DedupBy,
    form: &Form,
    json: bool,
) -> anyhow::Result<()> {
    let quiet = RunArgs {
        quiet: true,
        ..run.clone()
    };
    let mut session = Session::with_writers(io::sink(), io::sink(), &quiet, "games", false);
    for (index, source) in sources.iter().enumerate() {
        let Some(input) = session.open(source) else {
            continue;
        };
        let name = input.name.clone();
        let worker = Worker {
            name: &name,
            index,
            by,
            form,
            json,
        };
        let work = fold(
            |sink: &mut Sink, entries: &mut Vec<Offer>, number, raw: &RawGame| {
                worker.game(sink, entries, number, raw, true);
            },
        );
        session.games(input, &work, |entries| {
            for entry in entries {
                if let Offer::Game(copy) = entry {
                    stage.deduper.rank(copy);
                }
            }
            Ok(())
        })?;
    }
    session.finish()?;
    Ok(())
}
