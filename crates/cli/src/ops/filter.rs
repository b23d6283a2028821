//! `tabia filter`'s command-line work: matching the games of an input on the reading thread
//! ([`matched_on_reader`]), and writing each selected game — as read (`--raw`), in export
//! format by the exporter as it is read again, else from its tree (other output forms,
//! `--json`, `--mark`) — or reporting it ([`Context`]). What is selected, marked and recorded
//! is `tabia-select`'s ([`Selection`], [`Query::mark`](tabia_select::Query::mark),
//! [`MatchRecord`]).

use std::{
    io::{BufRead, Write},
    mem,
};

use tabia_collect::Form;
use tabia_notation::pgn::{Origin, PgnReader, RawGame, ReadError};
use tabia_position::ReplayError;
use tabia_select::{MatchRecord, Matcher, Selection, TagsSeen, Verdict};
use tabia_stream::Visited;

use crate::{
    parallel::{Counter, Sink, Weigh},
    record,
    report::Diagnostic,
};

/// How the selected games are written.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Writing {
    /// As read (`--raw`).
    pub(crate) raw: bool,
    /// One JSON line each (`--json`).
    pub(crate) json: bool,
    /// With where they matched (`--mark`).
    pub(crate) mark: bool,
}

/// What the run shares with every worker, for one input.
pub(crate) struct Context<'a> {
    /// The input's name.
    pub(crate) name: &'a str,
    pub(crate) selection: &'a Selection,
    pub(crate) form: &'a Form,
    pub(crate) writing: Writing,
    /// The count of games written.
    pub(crate) matched: Counter,
    pub(crate) tags_seen: &'a TagsSeen,
}

/// What the matcher makes of a game it read.
pub(crate) type Matched = Result<Verdict, ReplayError>;

impl Context<'_> {
    /// Writes or reports a game a worker matched as it read it.
    pub(crate) fn visited(&self, sink: &mut Sink, number: u64, game: Visited<'_, Matched>) {
        let verdict = match game.output {
            Ok(out) => out.map_err(|err| Diagnostic::located("", 0, &err)),
            Err(err) => Err(Diagnostic::from_game_error("", 0, &err)),
        };
        self.selected(sink, number, game.bytes, game.start, verdict);
    }

    /// Writes or reports a game matched on the reading thread.
    pub(crate) fn read(&self, sink: &mut Sink, number: u64, item: &Item) {
        match (&item.raw, &item.verdict) {
            (Some(raw), verdict) => {
                self.selected(sink, number, &raw.bytes, raw.start, verdict.clone());
            }
            (None, Err(diagnostic)) => {
                let mut diagnostic = diagnostic.clone();
                diagnostic.file = self.name.to_owned();
                sink.reject(&diagnostic.game(number), self.writing.json);
            }
            (None, Ok(verdict)) => self.tags_seen.add(verdict),
        }
    }

    /// Writes a game whose verdict is known if it is selected, or reports it.
    fn selected(
        &self,
        sink: &mut Sink,
        number: u64,
        bytes: &[u8],
        start: Origin,
        verdict: Result<Verdict, Diagnostic>,
    ) {
        let Writing { raw, json, mark } = self.writing;
        let verdict = match verdict {
            Ok(verdict) => {
                self.tags_seen.add(&verdict);
                verdict
            }
            Err(mut diagnostic) => {
                diagnostic.file = self.name.to_owned();
                sink.reject(&diagnostic.game(number), json);
                return;
            }
        };
        if !self.selection.selects(number, &verdict) {
            return;
        }
        if raw {
            sink.bump(self.matched);
            sink.out.extend_from_slice(bytes);
            sink.out.extend_from_slice(b"\n\n");
            return;
        }
        let raw = RawGame {
            bytes: bytes.to_vec(),
            start,
        };
        if self.form.is_export() && !json && !mark && self.export(sink, number, &raw) {
            return;
        }
        let mut game = match crate::input::parse_game(&raw) {
            Ok(game) => game,
            Err(err) => {
                sink.reject(&Diagnostic::from_game_error(self.name, number, &err), json);
                return;
            }
        };
        // Checked and repaired as `tabia pgn` does, its warnings reported.
        let warnings: Vec<Diagnostic> = match tabia_position::repair_game(&mut game) {
            Ok(replayed) => replayed
                .warnings
                .iter()
                .map(|w| Diagnostic::from_warning(self.name, number, w))
                .collect(),
            Err(err) => {
                sink.reject(&Diagnostic::located(self.name, number, &err), json);
                return;
            }
        };
        for warning in &warnings {
            sink.warning(warning);
        }
        let query = self.selection.query();
        let hit = self.selection.hit(&verdict);
        if mark && let Some(hit) = hit {
            query.mark(&mut game, hit);
        }
        sink.bump(self.matched);
        let written = if json {
            let hit = hit.map(|hit| MatchRecord::new(query, hit));
            record::game_lines(
                &mut sink.out,
                &mut Vec::new(),
                self.name,
                number,
                game,
                self.form,
                &warnings,
                hit.as_ref(),
            )
        } else if self.form.is_export() {
            // Writing to a Vec cannot fail.
            let _ = write!(sink.out, "{game}\n\n");
            crate::input::give_back(game);
            Ok(1)
        } else {
            self.form.write(game, &mut sink.out)
        };
        if let Err(err) = written {
            sink.reject(&Diagnostic::located(self.name, number, &err), json);
        }
    }

    /// Checks and writes a selected game in export format as it is read, with no tree (the
    /// same text and diagnostics as from the tree, as `tabia pgn` does); `false` when its
    /// export needs its tree, which then writes it.
    fn export(&self, sink: &mut Sink, number: u64, raw: &RawGame) -> bool {
        crate::input::with_exporter(|exporter| {
            let checked = match crate::input::visit(raw, exporter) {
                Ok(Ok(checked)) => checked,
                Ok(Err(err)) => {
                    sink.reject(&Diagnostic::located(self.name, number, &err), false);
                    return true;
                }
                Err(err) => {
                    sink.reject(&Diagnostic::from_game_error(self.name, number, &err), false);
                    return true;
                }
            };
            let Some(text) = exporter.bytes() else {
                return false;
            };
            sink.replay_warnings(self.name, number, &checked.warnings);
            sink.bump(self.matched);
            sink.out.extend_from_slice(text);
            sink.out.extend_from_slice(b"\n\n");
            true
        })
    }
}

/// What the reading thread makes of a game it matched: its verdict, and its bytes when it is
/// selected (and may have to be written).
pub(crate) struct Item {
    raw: Option<RawGame>,
    verdict: Result<Verdict, Diagnostic>,
}

impl Weigh for Item {
    fn weight(&self) -> usize {
        self.raw.as_ref().map_or(0, |raw| raw.bytes.len()) + mem::size_of::<Item>()
    }
}

/// The games of an input matched on the reading thread, each read once (the bytes of the
/// selected ones kept); ends after `left` selected games when there is a limit.
pub(crate) fn matched_on_reader<'a>(
    reader: Box<dyn BufRead + Send>,
    selection: &'a Selection,
    mut left: Option<&'a mut u64>,
) -> impl Iterator<Item = anyhow::Result<Item>> + Send + 'a {
    let mut games = PgnReader::new(reader);
    let mut matcher = Matcher::new(selection.query());
    // The number of the game read next (from 1, bad games counted), as the session numbers
    // the items: `--game N` selects by it, inverted or not.
    let mut number = 0;
    std::iter::from_fn(move || {
        if left.as_deref() == Some(&0) {
            return None;
        }
        number += 1;
        let keep = |out: &Matched| out.as_ref().is_ok_and(|v| selection.selects(number, v));
        let (out, raw) = match games.read_game_keeping(&mut matcher, keep) {
            Ok(Some(read)) => read,
            Ok(None) => return None,
            Err(ReadError::Io(io)) => {
                return Some(Err(anyhow::Error::new(io).context("read error")));
            }
            Err(other) => {
                let verdict = Err(Diagnostic::from_game_error("", 0, &other));
                return Some(Ok(Item { raw: None, verdict }));
            }
        };
        if raw.is_some()
            && let Some(left) = left.as_deref_mut()
        {
            // A selected game that turns out bad when written is reported, not counted: the
            // limit counts the games selected, which is what reading has to stop on.
            *left -= 1;
        }
        let verdict = out.map_err(|err| Diagnostic::located("", 0, &err));
        Some(Ok(Item { raw, verdict }))
    })
}
