//! The `dedup-memory` task: measures the memory `tabia dedup` holds per distinct game.
//!
//! `cargo xtask dedup-memory [--games N]` (default 10,000,000) records N distinct digests in
//! a [`Seen`] table, as `tabia dedup` does for N distinct games, and prints the growth of the
//! process's resident memory (`VmRSS` in `/proc/self/status`) and the table's own estimate,
//! in bytes per game.

use anyhow::{Context, bail};
use tabia_collect::{Digest, Place, Seen};

/// Runs the task.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let mut games: u64 = 10_000_000;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--games" => games = it.next().context("--games N")?.parse()?,
            other => bail!("unknown argument `{other}`"),
        }
    }
    let before = rss()?;
    let mut seen = Seen::default();
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        // splitmix64: distinct, well spread digests.
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    for game in 1..=games {
        let digest = Digest([next(), next()]);
        seen.first(digest, Place { input: 0, game });
    }
    let after = rss()?;
    let per = |bytes: u64| bytes as f64 / games as f64;
    println!(
        "{games} distinct games: resident memory +{} MB ({:.1} bytes a game); table estimate \
         {} MB ({:.1} bytes a game); entry {} bytes",
        (after - before) >> 20,
        per(after - before),
        seen.heap_bytes() >> 20,
        per(seen.heap_bytes() as u64),
        Seen::BYTES_PER_GAME
    );
    Ok(())
}

/// The resident memory of this process, in bytes.
fn rss() -> anyhow::Result<u64> {
    let status = std::fs::read_to_string("/proc/self/status")?;
    let kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .context("no VmRSS in /proc/self/status")?;
    Ok(kb.parse::<u64>()? * 1024)
}
