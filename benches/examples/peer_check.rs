//! The peer of `tabia pgn --check -j 1` for whole-process timings: a pgn-reader 0.29 visitor
//! that replays every mainline move with shakmaty (from the `FEN` tag when there is one;
//! variations skipped), on one thread, and ends with `games N, errors E` on standard error
//! (exit status 1 when some game is bad).
//!
//! ```sh
//! cargo build --release -p tabia-benches --example peer_check
//! hyperfine -N 'target/release/examples/peer_check big.pgn' 'target/release/tabia pgn --check -j 1 big.pgn'
//! ```

use std::{fs::File, io, process::ExitCode};

use pgn_reader::Reader;
use tabia_benches::peer;

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
        let mut replay = peer::replayer();
        loop {
            match reader.read_game(&mut replay) {
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
