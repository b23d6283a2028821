//! `tabia pgn`'s own work: each game written into its batch's [`Sink`] (export format, an
//! output form, or a `--json` object) or only checked, and its problems reported, `--strict`
//! making warnings errors; the games checked on the reader thread for `--check` with one job.

use std::{io::Write as _, mem};

use tabia_collect::Form;
use tabia_notation::pgn::{Game, RawGame};
use tabia_position::{
    CheckError, Checked, ExportedGame, Level, ReplayError, ReplayWarning, check_reader,
};
use tabia_stream::Visited;

use crate::{
    input,
    parallel::{Sink, Weigh},
    record,
    report::Diagnostic,
};

/// How the games of one input are written and reported: the command's options.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GameOutput<'a> {
    /// The input's name.
    pub(crate) name: &'a str,
    /// The output form.
    pub(crate) form: &'a Form,
    /// `--json`: one object per game.
    pub(crate) json: bool,
    /// `--check`: nothing written.
    pub(crate) check: bool,
    /// `--strict`: warnings are errors.
    pub(crate) strict: bool,
    /// `--strict-notes`: warnings and notes are errors.
    pub(crate) strict_notes: bool,
}

impl GameOutput<'_> {
    /// Reports what `--check` found in a game: its error, or its warnings (errors with
    /// `--strict`), as [`GameOutput::game`] does for the game tree.
    pub(crate) fn checked(
        &self,
        sink: &mut Sink,
        number: u64,
        result: &Result<Checked, CheckError>,
    ) {
        let done = match result {
            Ok(done) => done,
            // A syntax error or a broken rule, where it is.
            Err(err) => {
                sink.error(&Diagnostic::located(self.name, number, err));
                return;
            }
        };
        let warnings = self.warnings(number, &done.warnings);
        self.report_warnings(sink, &warnings);
    }

    /// [`GameOutput::checked`] for a game that a worker's
    /// [`Checker`](tabia_position::Checker) checked as it read it.
    pub(crate) fn visited(
        &self,
        sink: &mut Sink,
        number: u64,
        game: Visited<'_, Result<Checked, ReplayError>>,
    ) {
        let result = match game.output {
            Ok(Ok(done)) => Ok(done),
            Ok(Err(err)) => Err(CheckError::Rules(err)),
            Err(err) => Err(CheckError::Syntax(err)),
        };
        self.checked(sink, number, &result);
    }

    /// Writes one game that the [`Exporting`](tabia_position::Exporting) visitor checked and
    /// wrote as it read it, or reports it; a game whose export needs its tree is parsed and
    /// written from it.
    pub(crate) fn exported(&self, sink: &mut Sink, number: u64, game: Visited<'_, ExportedGame>) {
        match game.output {
            Err(err) => sink.reject(&Diagnostic::from_game_error(self.name, number, &err), false),
            Ok(ExportedGame {
                verdict: Err(err), ..
            }) => {
                sink.reject(&Diagnostic::located(self.name, number, &err), false);
            }
            Ok(ExportedGame {
                verdict: Ok(checked),
                text: Some(text),
            }) => {
                let warnings = self.warnings(number, &checked.warnings);
                if self.report_warnings(sink, &warnings) {
                    sink.out.extend_from_slice(&text);
                    sink.out.extend_from_slice(b"\n\n");
                }
            }
            Ok(ExportedGame { text: None, .. }) => self.game(sink, number, &game.to_raw()),
        }
    }

    /// Parses, checks and writes one game.
    pub(crate) fn game(&self, sink: &mut Sink, number: u64, raw: &RawGame) {
        let (name, json) = (self.name, self.json);
        let mut game = match input::parse_game(raw) {
            Ok(game) => game,
            Err(err) => {
                sink.reject(&Diagnostic::from_game_error(name, number, &err), json);
                return;
            }
        };
        let warnings = match self.check_game(number, &mut game) {
            Ok(warnings) => warnings,
            Err(diagnostic) => {
                sink.reject(&diagnostic, json);
                return;
            }
        };
        if !self.report_warnings(sink, &warnings) {
            return;
        }
        if json {
            let form = self.form;
            if let Err(err) = record::game_json(&mut sink.out, name, number, game, form, &warnings)
            {
                sink.reject(&Diagnostic::located(name, number, &err), true);
            }
        } else if self.check {
            input::give_back(game);
        } else if self.form.is_export() {
            // Writing to a Vec cannot fail.
            let _ = write!(sink.out, "{game}\n\n");
            input::give_back(game);
        } else if let Err(err) = self.form.write(game, &mut sink.out) {
            sink.reject(&Diagnostic::located(name, number, &err), false);
        }
    }

    /// The diagnostics of the warnings of a game that was read.
    fn warnings(&self, number: u64, warnings: &[ReplayWarning]) -> Vec<Diagnostic> {
        warnings
            .iter()
            .map(|warning| Diagnostic::from_warning(self.name, number, warning))
            .collect()
    }

    /// Reports the warnings and notes of a game that was read; with `--strict` its warnings
    /// are errors (with `--strict-notes`, its notes too) and the game is bad: then `false`,
    /// the game is not to be written.
    fn report_warnings(&self, sink: &mut Sink, warnings: &[Diagnostic]) -> bool {
        let strict = |warning: &&Diagnostic| {
            self.strict_notes || (self.strict && warning.warning_level() == Level::Warning)
        };
        let mut errors = warnings.iter().filter(strict);
        if let Some(first) = errors.next() {
            // In input order, as without `--strict`; the JSON error record names the first.
            sink.reject(first, self.json);
            for warning in errors {
                sink.error(warning);
            }
            return false;
        }
        for warning in warnings {
            sink.warning(warning);
        }
        true
    }

    /// Checks of a well-formed game beyond its syntax: legality (every move of the mainline
    /// and of the variations, from the `FEN` tag's position), which makes the game bad when it
    /// fails; and the warnings (what was read leniently, a result that contradicts a mate on
    /// the board), which do not: the game is repaired where they say
    /// ([`tabia_position::repair_game`]).
    fn check_game(&self, number: u64, game: &mut Game) -> Result<Vec<Diagnostic>, Diagnostic> {
        let checked = tabia_position::repair_game(game)
            .map_err(|err| Diagnostic::located(self.name, number, &err))?;
        Ok(self.warnings(number, &checked.warnings))
    }
}

/// One game checked on the reader thread, and how many bytes it took (its weight in a batch).
pub(crate) struct Verdict {
    pub(crate) result: Result<Checked, CheckError>,
    bytes: usize,
}

impl Weigh for Verdict {
    fn weight(&self) -> usize {
        self.bytes + mem::size_of::<Verdict>()
    }
}

/// The games of an input checked as they are read.
pub(crate) fn checked_games(
    reader: Box<dyn std::io::BufRead + Send>,
) -> impl Iterator<Item = anyhow::Result<Verdict>> + Send {
    let mut games = check_reader(reader);
    let mut offset = 0;
    std::iter::from_fn(move || {
        let next = games.next()?;
        let end = games.reader().offset();
        let bytes = usize::try_from(end - offset).unwrap_or(usize::MAX);
        offset = end;
        Some(match next {
            Ok(result) => Ok(Verdict { result, bytes }),
            Err(err) => Err(anyhow::Error::new(err).context("read error")),
        })
    })
}
