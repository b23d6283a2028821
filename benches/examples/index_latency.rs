//! Warm query latency of a position index (tabia-index): the index opened once, then each
//! position of a list asked in turn, in one process; prints p50, p90, p99 and the maximum of
//! each kind of call (docs/performance.md, "Position index").
//!
//! - `explore`: [`Index::explore`], lichess's explorer answer (12 moves, 4 top and 4 recent
//!   games), unfiltered;
//! - `games+pgn`: what `tabia index games` does for its first page: [`Index::games`] (100 games)
//!   and the text of each ([`Index::pgn`]), for the positions reached by 1 to 10,000 games.
//!
//! ```sh
//! cargo build --release -p tabia-benches --example index_latency
//! tabia epd --ep legal FILE | shuf -n 1000 > positions.epd
//! target/release/examples/index_latency DIR positions.epd
//! ```

use std::{
    fs,
    process::ExitCode,
    time::{Duration, Instant},
};

use tabia_index::{Filter, Index, Limits, Request};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, list] = &args[..] else {
        eprintln!("usage: index_latency INDEX_DIR POSITIONS.epd");
        return ExitCode::from(2);
    };
    match run(dir, list) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("index_latency: {err}");
            ExitCode::FAILURE
        }
    }
}

fn run(dir: &str, list: &str) -> Result<(), Box<dyn std::error::Error>> {
    let index = Index::open(dir.as_ref())?;
    let requests = fs::read_to_string(list)?
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|epd| Request::parse(Some(epd), None, None))
        .collect::<Result<Vec<_>, _>>()?;
    let filter = Filter::default();
    // One pass to warm the page cache and redb's, untimed.
    for request in &requests {
        index.explore(request, &filter, Limits::default())?;
    }
    let mut explore = Vec::with_capacity(requests.len());
    let mut games = Vec::new();
    let mut reached = Vec::with_capacity(requests.len());
    for request in &requests {
        let start = Instant::now();
        let answer = index.explore(request, &filter, Limits::default())?;
        explore.push(start.elapsed());
        reached.push(answer.games);
    }
    let mut most = 0;
    for (request, &n) in requests.iter().zip(&reached) {
        if !(1..=10_000).contains(&n) {
            continue;
        }
        let start = Instant::now();
        let page = index.games(&request.position, &filter, 0, 100)?;
        for (id, _) in &page.games {
            std::hint::black_box(index.pgn(*id)?);
        }
        games.push(start.elapsed());
        most = most.max(page.total);
    }
    println!(
        "positions {}, reached by a median {} games",
        requests.len(),
        median(&reached)
    );
    report("explore", &mut explore);
    report(
        &format!("games+pgn (100 a page; positions of 1 to 10,000 games, at most {most})"),
        &mut games,
    );
    Ok(())
}

fn median(values: &[u64]) -> u64 {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted.get(sorted.len() / 2).copied().unwrap_or(0)
}

fn report(name: &str, times: &mut [Duration]) {
    if times.is_empty() {
        println!("{name}: no calls");
        return;
    }
    times.sort_unstable();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{name}: calls {}, p50 {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        times.len(),
        ms(at(0.5)),
        ms(at(0.9)),
        ms(at(0.99)),
        ms(at(1.0))
    );
}
