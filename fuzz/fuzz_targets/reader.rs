//! The streaming reader on a whole file: no panic, no hang, and the same games and errors
//! whichever way the bytes arrive (all at once, or one byte per `read` into a small buffer)
//! and whichever way the games are taken (owned trees, raw bytes parsed later, skipped):
//! the counts add up, so no game is lost. Each game read exports and parses back to itself.

#![no_main]

use std::{io, ops::Range};

use libfuzzer_sys::fuzz_target;
use tabia_notation::{
    ErrorKind,
    pgn::{Game, ReadError, Origin, PgnReader},
};

/// A game, or its error as kind, span and start.
type Item = Result<Game, (ErrorKind, Range<usize>, Origin)>;

/// Gives one byte per `read` call.
struct Trickle<'a>(&'a [u8]);

impl io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((&b, rest)), Some(slot)) => {
                *slot = b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

fn item(result: Result<Game, ReadError>) -> Item {
    result.map_err(|err| match err {
        ReadError::Syntax { error, start } => (error.kind(), error.span(), start),
        other => panic!("not a syntax error: {other}"),
    })
}

fn games<R: io::Read>(reader: PgnReader<R>, limit: usize) -> Vec<Item> {
    let mut items = Vec::new();
    for result in reader.games() {
        items.push(item(result));
        assert!(items.len() <= limit, "the reader does not advance");
    }
    items
}

fn round_trip(game: &Game) {
    let text = game.to_string();
    let again = Game::from_ascii(text.as_bytes())
        .unwrap_or_else(|e| panic!("the export does not parse: {e}\n{text}"));
    // The same tree and result; the same tags, which the export puts in Seven Tag Roster order.
    assert_eq!(again.mainline, game.mainline, "{text}");
    assert_eq!(again.result, game.result, "{text}");
    assert_eq!(again, game.clone().with_roster(), "{text}");
    assert_eq!(again.to_string(), text, "export is not idempotent");
}

fuzz_target!(|data: &[u8]| {
    // Every game takes at least one byte (its result).
    let limit = data.len() + 1;
    let whole = games(PgnReader::with_capacity(4096, data), limit);
    let trickled = games(PgnReader::with_capacity(4096, Trickle(data)), limit);
    assert_eq!(whole, trickled, "depends on how the bytes arrive");

    let raw: Vec<_> = PgnReader::with_capacity(4096, data).raw_games().collect();
    assert_eq!(
        raw.len(),
        whole.len(),
        "raw games and games differ in number"
    );
    for (raw, game) in raw.into_iter().zip(&whole) {
        if let Ok(raw) = raw {
            assert_eq!(&item(raw.parse()), game, "a raw game parses differently");
        }
    }

    let mut skipper = PgnReader::with_capacity(4096, data);
    let mut skipped = 0;
    while let Ok(Some(_)) = skipper.skip_game() {
        skipped += 1;
        assert!(skipped <= limit, "skipping does not advance");
    }
    assert_eq!(
        skipped,
        whole.len(),
        "skipped and read games differ in number"
    );

    for game in whole.iter().flatten() {
        round_trip(game);
    }
});
