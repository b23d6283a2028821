//! The peer of `tabia pgn --check -j 1` for whole-process timings: a pgn-reader 0.29 visitor
//! that replays every mainline move with shakmaty (from the `FEN` tag when there is one;
//! variations skipped), on one thread, and ends with `games N, errors E` on standard error
//! (exit status 1 when some game is bad).
//!
//! ```sh
//! cargo build --release -p tabia-benches --example peer_check
//! hyperfine -N 'target/release/examples/peer_check big.pgn' 'target/release/tabia pgn --check -j 1 big.pgn'
//! ```

use std::{fs::File, io, ops::ControlFlow, process::ExitCode};

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{CastlingMode, Chess, Position as _, fen::Fen};

/// Replays the mainline; the output says whether the game is good.
struct Replay;

impl Visitor for Replay {
    type Tags = Option<Chess>;
    type Movetext = Chess;
    type Output = bool;

    fn begin_tags(&mut self) -> ControlFlow<bool, Option<Chess>> {
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        tags: &mut Option<Chess>,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<bool> {
        if name == b"FEN" {
            let pos = Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|fen| fen.into_position(CastlingMode::Chess960).ok());
            match pos {
                Some(pos) => *tags = Some(pos),
                None => return ControlFlow::Break(false),
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<bool, Chess> {
        ControlFlow::Continue(tags.unwrap_or_default())
    }

    fn san(&mut self, pos: &mut Chess, san: SanPlus) -> ControlFlow<bool> {
        match san.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(false),
        }
    }

    fn begin_variation(&mut self, _pos: &mut Chess) -> ControlFlow<bool, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, _pos: Chess) -> bool {
        true
    }
}

fn main() -> ExitCode {
    let (mut games, mut errors) = (0u64, 0u64);
    let paths: Vec<String> = std::env::args().skip(1).collect();
    let inputs: Vec<Box<dyn io::Read>> = if paths.is_empty() {
        vec![Box::new(io::stdin().lock())]
    } else {
        let mut opened: Vec<Box<dyn io::Read>> = Vec::new();
        for path in &paths {
            match File::open(path) {
                Ok(file) => opened.push(Box::new(file)),
                Err(err) => {
                    eprintln!("peer_check: cannot open {path}: {err}");
                    return ExitCode::from(2);
                }
            }
        }
        opened
    };
    for input in inputs {
        let mut reader = Reader::new(input);
        loop {
            match reader.read_game(&mut Replay) {
                Ok(Some(good)) => {
                    games += 1;
                    errors += u64::from(!good);
                }
                Ok(None) => break,
                Err(err) => {
                    eprintln!("peer_check: {err}");
                    games += 1;
                    errors += 1;
                    break;
                }
            }
        }
    }
    eprintln!("games {games}, errors {errors}");
    if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
