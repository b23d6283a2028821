//! The peer of `tabia stats -j 1` for whole-process timings: pgn-reader 0.29 feeding the same
//! figures (tabia-stats' `GameFacts` and `Stats`, `benches/src/peer.rs`), on one thread; prints
//! the figures as `tabia stats` does (without `bytes`, which pgn-reader does not give).
//!
//! ```sh
//! cargo build --release -p tabia-benches --example peer_stats
//! target/release/examples/peer_stats big.pgn
//! ```

use std::{fs::File, io, process::ExitCode};

use pgn_reader::Reader;
use tabia_benches::peer::Facts;

fn main() -> ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    let mut visitor = Facts::default();
    let inputs: Vec<Box<dyn io::Read>> = if paths.is_empty() {
        vec![Box::new(io::stdin().lock())]
    } else {
        let mut opened: Vec<Box<dyn io::Read>> = Vec::new();
        for path in &paths {
            match File::open(path) {
                Ok(file) => opened.push(Box::new(file)),
                Err(err) => {
                    eprintln!("peer_stats: cannot open {path}: {err}");
                    return ExitCode::from(2);
                }
            }
        }
        opened
    };
    for input in inputs {
        let mut reader = Reader::new(input);
        loop {
            match reader.read_game(&mut visitor) {
                Ok(Some(())) => {}
                Ok(None) => break,
                Err(err) => {
                    eprintln!("peer_stats: {err}");
                    return ExitCode::from(2);
                }
            }
        }
    }
    print!("{}", visitor.stats.report(None));
    ExitCode::SUCCESS
}
