//! `tabia-fake-uci`: a UCI engine that knows no chess, for the pool's tests. It answers every
//! `go` with one fixed line and best move, and misbehaves as its arguments say:
//!
//! ```text
//! tabia-fake-uci [--name NAME] [--move UCI] [--pv "UCI ..."] [--score "cp 13"]
//!                [--crash-after N] [--crash-on TEXT] [--hang-after N] [--garbage-after N]
//!                [--slow MS] [--no-uciok] [--state DIR --fail-start-from K] [--log FILE]
//! ```
//!
//! - `--crash-after N`: exits with status 3 in the middle of its search of position N + 1
//!   (`--crash-on TEXT`: of each position whose `position` command holds TEXT).
//! - `--hang-after N`: after N positions, never answers `go` and ignores `stop`.
//! - `--garbage-after N`: after N positions, answers `bestmove zz99`.
//! - `--slow MS`: searches MS milliseconds, deaf to `stop` meanwhile.
//! - `--no-uciok`: never says `uciok`.
//! - `--state DIR --fail-start-from K`: each start takes the next number in DIR (from 0);
//!   starts numbered K and later exit at once with status 2.
//! - `--log FILE`: appends every command received to FILE.

use std::{
    fs::OpenOptions,
    io::{self, BufRead, Write},
    path::{Path, PathBuf},
    process, thread,
    time::Duration,
};

#[derive(Default)]
struct Behaviour {
    name: String,
    best: String,
    pv: Option<String>,
    score: String,
    crash_after: Option<u64>,
    crash_on: Option<String>,
    hang_after: Option<u64>,
    garbage_after: Option<u64>,
    slow: Option<u64>,
    no_uciok: bool,
    state: Option<PathBuf>,
    fail_start_from: Option<u64>,
    log: Option<PathBuf>,
}

fn main() {
    let behaviour = match arguments() {
        Ok(behaviour) => behaviour,
        Err(message) => {
            eprintln!("tabia-fake-uci: {message}");
            process::exit(64);
        }
    };
    if let (Some(state), Some(from)) = (&behaviour.state, behaviour.fail_start_from)
        && start_number(state) >= from
    {
        process::exit(2);
    }
    let mut analysed = 0;
    let mut position = String::new();
    let mut log = match &behaviour.log {
        Some(path) => match OpenOptions::new().create(true).append(true).open(path) {
            Ok(file) => Some(file),
            Err(err) => {
                eprintln!("tabia-fake-uci: {}: {err}", path.display());
                process::exit(64);
            }
        },
        None => None,
    };
    for line in io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if let Some(log) = &mut log {
            let _ = writeln!(log, "{line}");
        }
        let command = line.split_whitespace().next().unwrap_or("");
        match command {
            "uci" => {
                println!("id name {}", behaviour.name);
                println!("id author tabia");
                println!("option name Hash type spin default 16 min 1 max 1024");
                println!("option name Threads type spin default 1 min 1 max 64");
                println!("option name MultiPV type spin default 1 min 1 max 500");
                println!("option name UCI_Chess960 type check default false");
                println!("option name Move Overhead type spin default 10 min 0 max 5000");
                if !behaviour.no_uciok {
                    println!("uciok");
                }
            }
            "isready" => println!("readyok"),
            "position" => position = line.clone(),
            "go" => {
                go(&behaviour, analysed, &position);
                analysed += 1;
            }
            "quit" => break,
            // `ucinewgame`, `setoption`, `stop` (the search is over already), the unknown.
            _ => {}
        }
    }
}

fn go(behaviour: &Behaviour, analysed: u64, position: &str) {
    let after = |n: Option<u64>| n.is_some_and(|n| analysed >= n);
    let crash_on = behaviour
        .crash_on
        .as_ref()
        .is_some_and(|text| position.contains(text.as_str()));
    if after(behaviour.crash_after) || crash_on {
        println!("info depth 1 seldepth 1 score cp 0 nodes 1");
        process::exit(3);
    }
    if after(behaviour.hang_after) {
        loop {
            thread::sleep(Duration::from_secs(3600));
        }
    }
    if let Some(ms) = behaviour.slow {
        thread::sleep(Duration::from_millis(ms));
    }
    if after(behaviour.garbage_after) {
        println!("bestmove zz99");
        return;
    }
    let pv = behaviour.pv.as_deref().unwrap_or(&behaviour.best);
    println!("info string fake search");
    println!(
        "info depth 1 seldepth 1 multipv 1 score {} nodes 20 nps 20000 time 1 pv {pv}",
        behaviour.score
    );
    println!("bestmove {}", behaviour.best);
}

/// The number of this start: the first `start.N` that this process creates in `dir`.
fn start_number(dir: &Path) -> u64 {
    (0..)
        .find(|n| {
            OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(dir.join(format!("start.{n}")))
                .is_ok()
        })
        .unwrap_or(0)
}

fn arguments() -> Result<Behaviour, String> {
    let mut behaviour = Behaviour {
        name: "Fake UCI".to_owned(),
        best: "e2e4".to_owned(),
        score: "cp 13".to_owned(),
        ..Behaviour::default()
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--no-uciok" {
            behaviour.no_uciok = true;
            continue;
        }
        let value = args.next().ok_or_else(|| format!("{arg} needs a value"))?;
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("{arg} needs a number"))
        };
        match arg.as_str() {
            "--name" => behaviour.name = value,
            "--move" => behaviour.best = value,
            "--pv" => behaviour.pv = Some(value),
            "--score" => behaviour.score = value,
            "--crash-after" => behaviour.crash_after = Some(number()?),
            "--crash-on" => behaviour.crash_on = Some(value),
            "--hang-after" => behaviour.hang_after = Some(number()?),
            "--garbage-after" => behaviour.garbage_after = Some(number()?),
            "--slow" => behaviour.slow = Some(number()?),
            "--state" => behaviour.state = Some(PathBuf::from(value)),
            "--fail-start-from" => behaviour.fail_start_from = Some(number()?),
            "--log" => behaviour.log = Some(PathBuf::from(value)),
            _ => return Err(format!("unknown argument {arg}")),
        }
    }
    Ok(behaviour)
}
