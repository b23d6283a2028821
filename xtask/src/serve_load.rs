//! The `serve-load` task: `tabia serve` under load, over loopback only.
//!
//! `cargo xtask serve-load [--tabia PATH] [--seconds N] [--connections N] [--index DIR | PGN...]` (default:
//! the two 1 MB files of `../shared/corpus`) builds an index of the PGN files in
//! `target/serve-load/index` (`tabia index build`), starts `tabia serve` on a free port of 127.0.0.1, walks the
//! explorer from the start (the 4 most played moves of each position, 3 plies deep) for the
//! positions to ask about, and runs `wrk -t2 -cN -dS --latency` (Debian package `wrk`) with a
//! script that asks `/lichess` about them in turn. It prints wrk's report and one line: requests
//! per second and the 99th percentile of latency (the target on 2 cores: 5,000 requests/s, p99
//! at most 20 ms).

use std::{
    fs,
    io::{BufRead, BufReader, Read, Write},
    net::TcpStream,
    path::PathBuf,
    process::{Command, Stdio},
};

use anyhow::{Context, bail};

/// Runs the task.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let root = crate::project_root();
    let mut tabia = None;
    let mut seconds = 10u32;
    let mut connections = 32u32;
    let mut files = Vec::new();
    let mut given = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--tabia" => tabia = Some(PathBuf::from(args.next().context("--tabia PATH")?)),
            "--seconds" => seconds = args.next().context("--seconds N")?.parse()?,
            "--connections" => connections = args.next().context("--connections N")?.parse()?,
            "--index" => given = Some(PathBuf::from(args.next().context("--index DIR")?)),
            file => files.push(PathBuf::from(file)),
        }
    }
    if files.is_empty() {
        let corpus = root.join("../shared/corpus");
        files = ["lichess_db_1000k.pgn", "twic1599_1000k.pgn"]
            .iter()
            .map(|f| corpus.join(f))
            .collect();
    }
    let tabia = match tabia {
        Some(path) => path,
        None => {
            let status = Command::new("cargo")
                .args([
                    "build",
                    "--release",
                    "-q",
                    "-p",
                    "tabia-cli",
                    "--no-default-features",
                ])
                .current_dir(&root)
                .status()?;
            if !status.success() {
                bail!("cargo build failed");
            }
            root.join("target/release/tabia")
        }
    };
    let dir = root.join("target/serve-load");
    fs::create_dir_all(&dir)?;
    let index = match given {
        // An index built beforehand (the million games of `synth-games`): asked, not rebuilt.
        Some(index) => index,
        None => {
            let index = dir.join("index");
            let _ = fs::remove_dir_all(&index);
            let built = Command::new(&tabia)
                .args(["index", "build", "-q", "-o"])
                .arg(&index)
                .args(&files)
                .status()?;
            if !built.success() {
                bail!("tabia index build failed");
            }
            index
        }
    };
    let mut server = Command::new(&tabia)
        .args(["serve", "--port", "0"])
        .arg(&index)
        .stderr(Stdio::piped())
        .spawn()
        .context("tabia serve")?;
    let result = (|| {
        let mut line = String::new();
        BufReader::new(server.stderr.as_mut().context("stderr")?).read_line(&mut line)?;
        eprint!("{line}");
        let url = line
            .trim()
            .rsplit(' ')
            .next()
            .filter(|u| u.starts_with("http://127.0.0.1:"))
            .with_context(|| format!("tabia serve said {line:?}"))?
            .to_owned();
        let paths = positions(&url)?;
        eprintln!("serve-load: {} positions asked in turn", paths.len());
        let script = dir.join("paths.lua");
        fs::write(&script, lua(&paths))?;
        let out = Command::new("wrk")
            .args([
                "-t2",
                &format!("-c{connections}"),
                &format!("-d{seconds}s"),
                "--latency",
                "-s",
            ])
            .arg(&script)
            .arg(&url)
            .output()
            .context("wrk (Debian package `wrk`)")?;
        let report = String::from_utf8_lossy(&out.stdout);
        print!("{report}");
        let rate = report
            .lines()
            .find_map(|l| l.strip_prefix("Requests/sec:"))
            .map(str::trim)
            .unwrap_or("?");
        let p99 = report
            .lines()
            .find_map(|l| l.trim().strip_prefix("99%"))
            .map(str::trim)
            .unwrap_or("?");
        println!("serve-load: {rate} requests/s, p99 {p99} ({connections} connections)");
        anyhow::Ok(())
    })();
    let _ = server.kill();
    let _ = server.wait();
    result
}

/// The `/lichess` paths of the positions 0 to 3 plies deep along the 4 most played moves.
fn positions(url: &str) -> anyhow::Result<Vec<String>> {
    let addr = url.trim_start_matches("http://");
    let mut paths = Vec::new();
    let mut frontier = vec![String::new()];
    for _ in 0..4 {
        let mut next = Vec::new();
        for play in frontier {
            let path = format!("/lichess?play={play}");
            let answer = get(addr, &path)?;
            paths.push(path);
            let moves = answer["moves"].as_array().cloned().unwrap_or_default();
            for m in moves.iter().take(4) {
                let uci = m["uci"].as_str().context("uci")?;
                next.push(if play.is_empty() {
                    uci.to_owned()
                } else {
                    format!("{play},{uci}")
                });
            }
        }
        frontier = next;
    }
    Ok(paths)
}

fn get(addr: &str, path: &str) -> anyhow::Result<serde_json::Value> {
    let mut stream = TcpStream::connect(addr)?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )?;
    let mut text = String::new();
    stream.read_to_string(&mut text)?;
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    Ok(serde_json::from_str(body)?)
}

fn lua(paths: &[String]) -> String {
    let list: Vec<String> = paths.iter().map(|p| format!("  {p:?},")).collect();
    format!(
        "paths = {{\n{}\n}}\ncounter = 0\nrequest = function()\n  counter = counter + 1\n  \
         return wrk.format(\"GET\", paths[(counter % #paths) + 1])\nend\n",
        list.join("\n")
    )
}
