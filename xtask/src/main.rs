//! Contributor tasks for tabia, run as `cargo xtask <task>`; one module per task.
//!
//! Tasks:
//! - `eco-import [--check]`: generate the embedded ECO tables (lichess, Scid) and their indexes from the tables in
//!   `../shared/eco` (with `--check`, fail if the committed table differs).
//! - `eco-diff [--tabia PATH] [--pgn FILE]`: the openings of `tabia eco` against python-chess
//!   applying lichess's rule, lichess's own tags, and `pgn-extract -e` (issue 31).
//! - `fuzz [TARGET] [--seconds N]`: run the cargo-fuzz targets.
//! - `filter-diff [--tabia PATH] [FILE...]`: `tabia filter` against pgn-extract over the corpus,
//!   the games each selects for criteria of every kind (not in `cargo test`: needs pgn-extract).
//! - `dist`: write shell completions and the man page of `tabia` to `target/dist`.
//! - `extract-diff [--corpus DIR]`: differential checks of dedup, UCI/LAN output and split
//!   against pgn-extract on the benchmark corpus.
//! - `dedup-memory [--games N]`: the memory `tabia dedup` holds per distinct game.
//! - `variant-games [--check]`: random legal games of every lichess variant from python-chess
//!   into `fixtures/variants` (with `--check`, fail if the committed ones differ).
//! - `variant-diff [--games N] [--seed S] [--tabia PATH]`: the final position of every random
//!   variant game, tabia against python-chess.
//! - `book-check [PGN]`: tabia's Polyglot books against python-chess and `polyglot`.
//! - `chess-diff [--tabia PATH] [FILE...]`: the final position of every game, tabia against
//!   python-chess, on `../shared/corpus` (issue 10).
//! - `compare [FILE] [--runs N] [--no-build] [--skip-memory]`: tabia against pgn-reader +
//!   shakmaty, pgn-extract and python-chess on the same file, whole processes, a ratio table
//!   (issue 9).
//! - `tree-html-check [PGN]`: the `tabia tree --html` page in headless Chromium, screenshots.
//! - `duckdb-check [--tabia PATH]`: the Parquet of `tabia table` queried with DuckDB.
//! - `table-bench [PGN]`: `tabia table` against python-chess + pyarrow on a 1 MB slice.
//! - `same-output [--base BIN] [--jobs] [--new BIN]`: every output of every command of two
//!   binaries on the corpus, byte for byte (for refactors that must change nothing a user
//!   sees); with `--jobs`, of the new binary on 1, 2 and 4 jobs.
//! - `serve-load [--tabia PATH] [--seconds N] [--connections N] [--index DIR | PGN...]`: `tabia serve`
//!   on an index of the corpus (or DIR) under `wrk` over loopback: requests/s and p99 latency.
//! - `timed`: the hostile-input tests that assert linear time, in release, one at a time.
//! - `index-diff [--tabia PATH] [--positions N] [--seed S] [FILE...]`: `tabia index query` and
//!   `index games` against `tabia tree` and `filter --position` on random positions of the corpus.
//! - `synth-games --games N [--seed S] -o FILE [FILE...]`: N plausible random games continuing the
//!   openings of the corpus games, for the index's figures at a million games.
//! - `analyse-bench [--tabia PATH] [--depth N | --nodes N] [--games N] [FILE...]`: `tabia
//!   analyse` on 1 and N engines, against a python-chess script with one engine per core, and
//!   a second run from the cache (issue 39's targets).

mod analyse_bench;
mod book_check;
mod chess_diff;
mod compare;
mod dedup_memory;
mod dist;
mod duckdb_check;
mod eco_diff;
mod eco_import;
mod extract_diff;
mod filter_diff;
mod fuzz;
mod index_diff;
mod same_output;
mod serve_load;
mod synth_games;
mod table_bench;
mod timed;
mod tree_html_check;
mod variant_games;

use std::{
    env,
    path::{Path, PathBuf},
    process::ExitCode,
};

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let Some((task, rest)) = args.split_first() else {
        eprintln!("{}", usage());
        return ExitCode::from(2);
    };
    let result = match task.as_str() {
        "eco-import" => eco_import::run(rest),
        "eco-diff" => eco_diff::run(rest),
        "fuzz" => fuzz::run(rest),
        "dist" => dist::run(rest),
        "extract-diff" => extract_diff::run(rest),
        "dedup-memory" => dedup_memory::run(rest),
        "filter-diff" => filter_diff::run(rest),
        "variant-games" => variant_games::run_games(rest),
        "variant-diff" => variant_games::run_diff(rest),
        "book-check" => book_check::run(rest),
        "chess-diff" => chess_diff::run(rest),
        "compare" => compare::run(rest),
        "tree-html-check" => tree_html_check::run(rest),
        "duckdb-check" => duckdb_check::run(rest),
        "table-bench" => table_bench::run(rest),
        "timed" => timed::run(rest),
        "same-output" => same_output::run(rest),
        "serve-load" => serve_load::run(rest),
        "index-diff" => index_diff::run(rest),
        "synth-games" => synth_games::run(rest),
        "analyse-bench" => analyse_bench::run(rest),
        "help" | "--help" | "-h" => {
            println!("{}", usage());
            Ok(())
        }
        other => Err(anyhow::anyhow!("unknown task `{other}`\n{}", usage())),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("xtask: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn usage() -> &'static str {
    "usage: cargo xtask <task>\n\n\
     tasks:\n  \
       eco-import [--check]        generate crates/eco/data from ../shared/eco\n  \
       eco-diff [--tabia PATH]     tabia eco against python-chess, lichess's tags, pgn-extract\n  \
       fuzz [TARGET] [--seconds N] run cargo-fuzz targets\n  \
       filter-diff [FILE...]       tabia filter against pgn-extract over ../shared/corpus\n  \
       dist                        write completions and man page to target/dist\n  \
       extract-diff [--corpus DIR] dedup, --notation uci|lan, split against pgn-extract\n  \
       dedup-memory [--games N]    bytes a distinct game in tabia dedup's table\n  \
       variant-games [--check]     random variant games from python-chess into fixtures/variants\n  \
       variant-diff [--games N]    final positions of variant games: tabia against python-chess\n  \
       book-check [PGN]            Polyglot books against python-chess and polyglot\n  \
       chess-diff [FILE...]        final positions of real games: tabia against python-chess\n  \
       compare [FILE] [--runs N]   tabia against pgn-reader, pgn-extract, python-chess: ratios\n  \
       tree-html-check [PGN]       the tree page in headless Chromium: screenshots\n  \
       duckdb-check [--tabia PATH] the Parquet of tabia table queried with DuckDB\n  \
       table-bench [PGN]           tabia table against python-chess + pyarrow, 1 MB slice\n  \
       timed                       the linear-time tests of hostile inputs, in release\n  \
       same-output --base BIN      every output of every command of two binaries on the corpus\n  \
       same-output --jobs          every output of every command on 1, 2 and 4 jobs\n  \
       serve-load [--tabia PATH]   tabia serve under wrk over loopback: requests/s, p99 latency\n  \
       index-diff [--positions N]  tabia index query/games against tree and filter --position\n  \
       synth-games --games N -o F  random games continuing the corpus's openings, for the index\n  \
       analyse-bench [--depth N]   tabia analyse against a python-chess script, one engine per core"
}

/// The `tabia` binary a task runs: `given` (its `--tabia PATH`), or the release build of
/// tabia-cli, built first.
pub(crate) fn tabia_binary(given: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    if let Some(path) = given {
        return Ok(path);
    }
    let root = project_root();
    let status = std::process::Command::new(env!("CARGO"))
        .args(["build", "--release", "-q", "-p", "tabia-cli"])
        .current_dir(&root)
        .status()?;
    if !status.success() {
        anyhow::bail!("cargo build failed");
    }
    Ok(root.join("target/release/tabia"))
}

/// The standard output of python3 running `script` (given on its standard input) with `args`;
/// python-chess is what the scripts import.
pub(crate) fn python_output(
    script: &str,
    args: &[&std::ffi::OsStr],
) -> anyhow::Result<std::process::Output> {
    use std::{io::Write as _, process::Stdio};

    let mut child = std::process::Command::new("python3")
        .arg("-")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| {
            anyhow::anyhow!(
                "cannot run python3 (the task needs python3 with `pip install chess`): {e}"
            )
        })?;
    child
        .stdin
        .take()
        .ok_or_else(|| anyhow::anyhow!("python3 standard input"))?
        .write_all(script.as_bytes())?;
    Ok(child.wait_with_output()?)
}

/// The workspace root (the parent of this crate's folder).
pub(crate) fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// A small seeded random generator (splitmix64): the tasks that draw samples repeat them from
/// their `--seed`, with no dependency for it.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A number in `lo..=hi`.
    pub(crate) fn between(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }
}
