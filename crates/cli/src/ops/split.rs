//! `tabia split`'s command-line work: what a worker makes of one game ([`entry`]: parsed,
//! checked and reported, keyed, written in the output form or as an NDJSON line) and the
//! ordered stage that hands each batch's entries to `tabia-collect`'s
//! [`Splitter`] ([`write()`]).

use std::io;

use tabia_collect::{Form, SplitBy, Splitter, eco::Table};
use tabia_notation::pgn::RawGame;

use crate::{
    check::{ReadGame, read_game},
    output,
    parallel::Sink,
    record,
    report::Diagnostic,
};

/// What a worker makes of one game for the ordered stage.
pub(crate) enum Entry {
    /// A good game's text, with its key (`None`: it has none, with `--by`).
    Good { key: Option<String>, text: Vec<u8> },
    /// A bad game, as it was read (or its `--json` error line).
    Bad(Vec<u8>),
}

/// How the games are keyed and written.
#[derive(Clone, Copy)]
pub(crate) struct Keying<'a> {
    /// `--by` (none: N games a file).
    pub(crate) by: Option<&'a SplitBy>,
    /// The opening table, for `--by eco --eco-by-position`.
    pub(crate) table: Option<&'a Table>,
    pub(crate) form: &'a Form,
    /// NDJSON files.
    pub(crate) json: bool,
}

/// One game of input `name`: parse, check, key, write in the output form, as an entry for the
/// stage; its warnings and errors reported in `sink`.
pub(crate) fn entry(
    name: &str,
    keying: Keying<'_>,
    sink: &mut Sink,
    number: u64,
    raw: &RawGame,
) -> Entry {
    let bad = |diagnostic: &Diagnostic| {
        if keying.json {
            let mut line = Vec::new();
            output::json_line(&mut line, &output::ErrorRecord::new(diagnostic));
            Entry::Bad(line)
        } else {
            Entry::Bad(raw.bytes.clone())
        }
    };
    let ReadGame { game, warnings, .. } = match read_game(name, number, raw, sink, |_| {}) {
        Ok(read) => read,
        Err(diagnostic) => return bad(&diagnostic),
    };
    // Without --by (N games a file) a game needs no key.
    let key = match keying.by {
        Some(by) => by.key(&game, keying.table),
        None => Some(String::new()),
    };
    let mut body = Vec::new();
    let written = if keying.json {
        record::game_json(&mut body, name, number, game, keying.form, &warnings)
    } else {
        keying.form.write(game, &mut body)
    };
    if let Err(err) = written {
        let diagnostic = Diagnostic::located(name, number, &err);
        sink.error(&diagnostic);
        return bad(&diagnostic);
    }
    Entry::Good { key, text: body }
}

/// Writes each game of a batch to its file, in input order.
pub(crate) fn write(splitter: &mut Splitter, entries: Vec<Entry>) -> io::Result<()> {
    for entry in entries {
        match entry {
            Entry::Bad(text) => splitter.write_error(&text)?,
            Entry::Good { key, text } => splitter.write_game(key.as_deref(), &text)?,
        }
    }
    Ok(())
}
