//! The `duckdb-check` task: the Parquet that `tabia table` writes, opened by a real engine.
//!
//! `cargo xtask duckdb-check [--tabia PATH]` needs python3 with the `duckdb` package
//! (`pip install duckdb`). It writes the fixtures' games (lichess games with clocks and
//! evaluations, Chess960 and set-up starts, bad games) with `tabia table --moves`, once to one
//! file and once hive-partitioned, and queries them with DuckDB: row counts against tabia's
//! summary (`games N, errors E`), the moves against the games' ply counts, typed values (Elo,
//! date, time, clock, evaluation), the `schema_version` metadata and the partition columns.

use std::{fs, path::PathBuf, process::Command};

use anyhow::{Context, bail};

/// The queries, run by python3 with duckdb: `argv[1]` the single file, `argv[2]` the
/// partitioned folder, `argv[3]` and `argv[4]` the games and errors tabia counted.
const QUERIES: &str = r#"
import sys, duckdb
single, folder, games, errors = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
moves = single.replace('.parquet', '.moves.parquet')
q = lambda sql: duckdb.sql(sql).fetchall()
def check(what, got, want):
    print(f"{what}: {got}")
    if got != want:
        sys.exit(f"duckdb-check: {what}: {got!r}, expected {want!r}")
check("games", q(f"SELECT count(*) FROM '{single}'")[0][0], games)
check("games with errors", q(f"SELECT count(*) FROM '{single}' WHERE len(errors) > 0")[0][0], errors)
check("moves = sum of ply_count", q(f"SELECT count(*) FROM '{moves}'")[0][0],
      q(f"SELECT sum(ply_count) FROM '{single}'")[0][0])
check("alice's game", q(f"SELECT WhiteElo, BlackRatingDiff, UTCDate::VARCHAR, UTCTime::VARCHAR, ply_count "
                        f"FROM '{single}' WHERE White = 'alice'"),
      [(1850, -6, '2024-01-15', '12:34:56', 7)])
check("a tag that did not parse", q(f"SELECT WhiteElo, tags['WhiteElo'] FROM '{single}' WHERE White = 'carol'"),
      [(None, '?')])
check("clock and evaluation of 2. Qh5", q(f"SELECT clock_ms, eval_cp, uci FROM '{moves}' WHERE game = 1 AND ply = 3"),
      [(178300, -50, 'd1h5')])
check("mate scores", q(f"SELECT count(*) FROM '{moves}' WHERE eval_mate IS NOT NULL")[0][0], 2)
check("schema_version", q(f"SELECT decode(value) FROM parquet_kv_metadata('{single}') "
                          f"WHERE decode(key) = 'schema_version'"), [('1',)])
check("partitioned games", q(f"SELECT count(*) FROM read_parquet('{folder}/*/*/*.parquet', hive_partitioning = true)")[0][0], games)
check("January 2024", q(f"SELECT count(*) FROM read_parquet('{folder}/*/*/*.parquet', hive_partitioning = true) "
                        f"WHERE year = 2024 AND month = 1")[0][0], 1)
check("openings", q(f"SELECT count(*) > 0 FROM '{single}' WHERE opening_by_position IS NOT NULL")[0][0], True)
print("duckdb-check: ok")
"#;

/// Runs the task.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let root = crate::project_root();
    let mut tabia: Option<PathBuf> = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--tabia" => tabia = Some(rest.next().context("--tabia PATH")?.into()),
            other => {
                bail!("unknown option {other}\nusage: cargo xtask duckdb-check [--tabia PATH]")
            }
        }
    }
    let tabia = match tabia {
        Some(path) => path,
        None => {
            let status = Command::new("cargo")
                .args(["build", "-q", "-p", "tabia-cli"])
                .current_dir(&root)
                .status()?;
            if !status.success() {
                bail!("cargo build failed");
            }
            root.join("target/debug/tabia")
        }
    };
    let dir = root.join("target/duckdb-check");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir)?;
    let mut pgn = Vec::new();
    for file in [
        "pgn/ok/clocks-evals.pgn",
        "position/ok/chess960-and-setup.pgn",
        "pgn/err/garbage.pgn",
        "position/err/illegal.pgn",
    ] {
        pgn.extend(fs::read(root.join("fixtures").join(file))?);
        pgn.extend(b"\n\n");
    }
    let input = dir.join("fixtures.pgn");
    fs::write(&input, pgn)?;
    let single = dir.join("games.parquet");
    let folder = dir.join("games");
    let mut counts = None;
    for (out, partition) in [(&single, None), (&folder, Some("year,month"))] {
        let mut cmd = Command::new(&tabia);
        cmd.args(["table", "--moves", "-o"]).arg(out).arg(&input);
        if let Some(keys) = partition {
            cmd.args(["--partition", keys]);
        }
        let output = cmd
            .output()
            .with_context(|| format!("running {}", tabia.display()))?;
        let stderr = String::from_utf8_lossy(&output.stderr);
        if output.status.code() != Some(1) {
            bail!(
                "tabia table: status {:?}, expected 1 (bad games)\n{stderr}",
                output.status
            );
        }
        counts = Some(summary(&stderr).context("no summary line")?);
    }
    let (games, errors) = counts.context("no run")?;
    let status = Command::new("python3")
        .arg("-c")
        .arg(QUERIES)
        .arg(&single)
        .arg(&folder)
        .arg(games.to_string())
        .arg(errors.to_string())
        .status()
        .context("running python3 (with the duckdb package)")?;
    if !status.success() {
        bail!("the DuckDB queries failed");
    }
    Ok(())
}

/// `games N, errors E` from tabia's summary line.
fn summary(stderr: &str) -> Option<(u64, u64)> {
    let line = stderr.lines().rev().find(|l| l.starts_with("games "))?;
    let number = |key: &str| -> Option<u64> {
        line.split(", ")
            .find_map(|part| part.strip_prefix(key))
            .and_then(|n| n.trim().parse().ok())
    };
    Some((number("games ")?, number("errors ")?))
}
