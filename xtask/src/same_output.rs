//! `cargo xtask same-output [--base BIN] [--jobs] [--new BIN] [--corpus DIR] [--keep DIR]`:
//! every output of every command of two `tabia` binaries on the corpus, byte for byte. For
//! refactors that must change nothing a user sees (issue 29): build the binary of the commit
//! before, then run this against the binary of the change. With `--jobs` (issue 41), each
//! command of the new binary also runs with `-j 1`, `-j 2` and `-j 4`, the three outputs
//! compared: every command gives the same bytes on any number of cores (`--base` is then
//! optional).
//!
//! Each command of [`COMMANDS`] runs on each corpus file (compressed files are decompressed
//! first, so that both binaries read the same bytes) with both binaries, standard output,
//! standard error and the files written compared. Two things are put aside, as they differ
//! between any two runs: `tabia stats --json`'s `time` field, and the output paths that
//! messages name (each binary writes into a folder of its own).

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use anyhow::{Context, bail};

/// The jobs of the `--jobs` pass: one, and more than the two cores of a small machine.
const JOBS: [&str; 3] = ["1", "2", "4"];

/// The commands, as arguments before the input file; `{out}` is the binary's output folder
/// and `{name}` the input's stem. A command that names the input (`{in}`) gets it there
/// only, not at the end; `&&` runs the next command after it in the same folder (to probe
/// the book a command wrote, say), the outputs of both compared.
const COMMANDS: &[&[&str]] = &[
    &["pgn"],
    &["pgn", "-j", "1"],
    &["pgn", "--check"],
    &["pgn", "--check", "-j", "1"],
    &["pgn", "--check", "--strict"],
    &["pgn", "--strict-notes"],
    &["pgn", "--json"],
    &["pgn", "--json", "--strict"],
    &["pgn", "--notation", "uci"],
    &["pgn", "--notation", "lan", "--add", "final-fen,eco"],
    &["epd"],
    &["epd", "-j", "1"],
    &["epd", "--fen", "--start", "--ep", "legal"],
    &["epd", "--json"],
    &["epd", "--json", "--fen", "--start"],
    &["epd", "--from", "startpos", "--start"],
    &["eco"],
    &["eco", "--tag"],
    &["stats", "--json"],
    &["filter", "--tag", "Result=1-0"],
    &[
        "filter",
        "--position",
        "rnbqk2r/pppp1ppp/4pn2/8/1bPP4/2N5/PP2PPPP/R1BQKBNR w KQkq -",
    ],
    &["eco", "--json"],
    &["eco", "--check"],
    &["eco", "--check", "--json"],
    &["eco", "-j", "1"],
    &["eco", "-j", "1", "--check", "--json"],
    &["eco", "--openings", "scid", "--json"],
    &["eco", "--openings", "scid", "--tag"],
    &["eco", "--tag", "-j", "1"],
    &[
        "eco",
        "--position",
        "startpos",
        "--position",
        "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R b KQkq -",
        "--position",
        "no position",
        "--position",
        "8/8/8/8/8/8/8/K6k w - -",
        "&&",
        "eco",
        "--json",
        "--position",
        "startpos",
        "--position",
        "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R b KQkq -",
        "--position",
        "no position",
        "&&",
        "eco",
        "--openings",
        "scid",
        "--position",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -",
        "&&",
        "eco",
        "--table",
        "{in}",
        "--position",
        "startpos",
    ],
    &["dedup"],
    &["dedup", "-j", "1"],
    &["dedup", "--json"],
    &["dedup", "--duplicates", "{out}/{name}.dups", "{in}", "{in}"],
    &[
        "dedup",
        "--json",
        "--duplicates",
        "{out}/{name}.dups",
        "{in}",
        "{in}",
    ],
    &[
        "dedup",
        "--by",
        "position",
        "--duplicates",
        "{out}/{name}.dups",
    ],
    &[
        "dedup",
        "--fuzzy-depth",
        "12",
        "--duplicates",
        "{out}/{name}.dups",
    ],
    &[
        "dedup",
        "--keep",
        "most-annotated",
        "--duplicates",
        "{out}/{name}.dups",
        "{in}",
        "{in}",
    ],
    &[
        "dedup",
        "--keep",
        "most-annotated",
        "--json",
        "{in}",
        "{in}",
    ],
    &[
        "dedup",
        "--notation",
        "uci",
        "--strip",
        "comments",
        "--duplicates",
        "{out}/{name}.dups",
    ],
    &[
        "dedup",
        "--line-length",
        "0",
        "--duplicates",
        "{out}/{name}.dups",
        "{in}",
        "{in}",
    ],
    &["dedup", "-o", "{out}/{name}.pgn"],
    &["tree"],
    &["table", "--format", "csv", "-o", "{out}/{name}.csv"],
    &["table", "--moves", "--fen", "-o", "{out}/{name}.csv"],
    &[
        "table",
        "--moves",
        "--boards",
        "-j",
        "1",
        "-o",
        "{out}/{name}.csv",
    ],
    &["table", "--moves", "-o", "{out}/{name}.parquet"],
    &["table", "--nested", "--fen", "-o", "{out}/{name}.parquet"],
    &[
        "table",
        "--moves",
        "--partition",
        "year",
        "--format",
        "csv",
        "-o",
        "{out}/{name}",
    ],
    &["book", "build", "-o", "{out}/{name}.bin"],
    &[
        "book",
        "build",
        "--min-games",
        "1",
        "--max-ply",
        "12",
        "-o",
        "{out}/{name}.bin",
        "{in}",
        "&&",
        "book",
        "probe",
        "{out}/{name}.bin",
        "startpos",
        "&&",
        "book",
        "probe",
        "--json",
        "{out}/{name}.bin",
        "startpos",
        "e4",
        "c5",
        "&&",
        "book",
        "probe",
        "{out}/{name}.bin",
        "startpos",
        "e4",
        "e4",
        "&&",
        "book",
        "probe",
        "{out}/{name}.bin",
        "8/8/8/8/8/8/8/K6k w - -",
        "&&",
        "book",
        "probe",
        "{out}/{name}.bin",
        "no position",
        "&&",
        "book",
        "dump",
        "{out}/{name}.bin",
        "&&",
        "book",
        "dump",
        "--json",
        "{out}/{name}.bin",
        "&&",
        "book",
        "merge",
        "{out}/{name}.bin",
        "{out}/{name}.bin",
        "-o",
        "{out}/{name}.merged.bin",
        "&&",
        "book",
        "dump",
        "{in}",
    ],
    &[
        "book",
        "build",
        "--only",
        "white",
        "--weight",
        "score",
        "--max-nodes",
        "2000",
        "-o",
        "{out}/{name}.bin",
    ],
    &[
        "book",
        "build",
        "--only",
        "black",
        "--weight",
        "wins",
        "-o",
        "{out}/{name}.bin",
    ],
    &["split", "--games", "1000", "-o", "{out}/{name}.split"],
    &["split", "--by", "eco", "-o", "{out}/{name}.eco"],
    // The flags of `filter` whose work moved out of its command file (selection, marking,
    // match records, missing tags, each way of writing, one job and several).
    &["filter", "--json", "--tag", "Result=1-0"],
    &[
        "filter",
        "--json",
        "--moves",
        "1. e4 c5 2. Nf3",
        "--notation",
        "uci",
    ],
    &["filter", "--invert", "--tag", "Result=1-0"],
    &["filter", "--invert", "--game", "3,10-40", "-j", "1"],
    &["filter", "--invert", "--game", "3,10-40", "-j", "2"],
    &["filter", "--game", "3,10-40", "--result", "1-0"],
    &["filter", "--player", "Carlsen"],
    &["filter", "--white", "~^A", "--black", "~^[A-M]"],
    &["filter", "--eco", "B90-B99", "--eco", "C4"],
    &["filter", "--eco", "B9", "--eco-by-position", "--json"],
    &["filter", "--mark", "--moves", "1. d4 Nf6 2. c4"],
    &[
        "filter",
        "--mark",
        "--position",
        "startpos",
        "--variations",
        "--ply-range",
        "0..0",
    ],
    &["filter", "--raw", "--result", "0-1", "--elo", "2400.."],
    &[
        "filter", "--limit", "7", "--elo", "2500", "--date", "2020..",
    ],
    &[
        "filter",
        "-j",
        "1",
        "--tag",
        "Whiteelo>2500",
        "--tag",
        "Event~a",
    ],
    &["filter", "--tag", "Whiteelo>2500", "--tag", "BlackElo>2500"],
    &[
        "filter",
        "--fen-pattern-either",
        "7R/*/*/*/*/*/*/*",
        "--to-move",
        "w",
    ],
    &[
        "filter",
        "--material",
        "RP R",
        "--material-as-written",
        "R RP",
    ],
    &["filter", "--piece-count", "4..6", "--to-move", "b"],
    &["filter", "--checkmate", "--plies", "20..80"],
    &["filter", "--stalemate", "--json"],
    &["filter", "--underpromotion"],
    &["filter", "--repetition", "--no-tags"],
    &["filter", "--insufficient"],
    &["filter", "--fifty"],
    &["filter", "--has-variations", "--lower-rated-won"],
    &[
        "filter",
        "--has-clocks",
        "--commented",
        "--strip",
        "comments",
        "--json",
    ],
    &[
        "filter",
        "--zobrist",
        "463b96181691fc9c",
        "--higher-rated-won",
    ],
    &[
        "split",
        "--by",
        "eco",
        "--eco-by-position",
        "--json",
        "-o",
        "{out}/{name}.ecopos",
    ],
    &[
        "split",
        "--by",
        "year",
        "--compress",
        "gz",
        "-o",
        "{out}/{name}.year",
    ],
    &[
        "split",
        "--by",
        "month",
        "--drop-errors",
        "-o",
        "{out}/{name}.month",
    ],
    &[
        "split",
        "--by",
        "white",
        "--max-open",
        "3",
        "-o",
        "{out}/{name}.white",
    ],
    &[
        "split",
        "--by",
        "tag:Round",
        "--notation",
        "lan",
        "-o",
        "{out}/{name}.round",
    ],
    &[
        "split",
        "--games",
        "700",
        "--json",
        "-o",
        "{out}/{name}.json",
    ],
    &[
        "split",
        "--by",
        "event",
        "--compress",
        "zst",
        "-o",
        "{out}/{name}.event",
    ],
];

/// Runs the task.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let root = crate::project_root();
    let mut corpus = root.join("../shared/corpus");
    let mut base = None;
    let mut new = root.join("target/release/tabia");
    let mut keep = None;
    let mut jobs = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--base" => base = Some(PathBuf::from(it.next().context("--base BIN")?)),
            "--new" => new = it.next().context("--new BIN")?.into(),
            "--corpus" => corpus = it.next().context("--corpus DIR")?.into(),
            "--keep" => keep = Some(PathBuf::from(it.next().context("--keep DIR")?)),
            "--jobs" => jobs = true,
            other => bail!("unknown argument `{other}`"),
        }
    }
    if base.is_none() && !jobs {
        bail!("--base BIN (the tabia binary to compare with), --jobs, or both");
    }
    let dir = keep.unwrap_or_else(|| {
        std::env::temp_dir().join(format!("tabia-same-output-{}", std::process::id()))
    });
    let inputs = decompressed(&corpus, &dir.join("in"))?;
    let mut differ = Vec::new();
    let mut runs = 0;
    for input in &inputs {
        let name = input.file_stem().map(|s| s.to_string_lossy().into_owned());
        let name = name.unwrap_or_default();
        for (k, command) in COMMANDS.iter().enumerate() {
            let line = format!("tabia {} {}", command.join(" "), input.display());
            if let Some(base) = &base {
                let outputs = [("base", base), ("new", &new)].map(|(side, bin)| {
                    let out = dir.join(side).join(format!("{name}.{k}"));
                    run_one(bin, command, input, &out, &name)
                });
                let [old, now] = outputs;
                runs += 1;
                if old? != now? {
                    differ.push(line.clone());
                }
            }
            if jobs {
                let mut outputs = JOBS.iter().map(|n| {
                    let out = dir.join(format!("j{n}")).join(format!("{name}.{k}"));
                    run_one(&new, &with_jobs(command, n), input, &out, &name)
                });
                let first = outputs.next().context("no jobs")??;
                for (n, output) in JOBS.iter().skip(1).zip(outputs) {
                    runs += 1;
                    if output? != first {
                        differ.push(format!("{line}: -j {n} and -j {}", JOBS[0]));
                    }
                }
            }
        }
    }
    println!(
        "{runs} comparisons ({} commands × {} inputs) in {}",
        COMMANDS.len(),
        inputs.len(),
        dir.display()
    );
    if differ.is_empty() {
        println!("every output the same");
        return Ok(());
    }
    for line in &differ {
        println!("DIFFERENT: {line}");
    }
    bail!("{} of {runs} runs differ", differ.len())
}

/// `command` run with `jobs` jobs: an `-j` it has takes that value, and the part that reads the
/// input (the first of the `&&` chain) gets one if it has none.
fn with_jobs<'a>(command: &[&'a str], jobs: &'a str) -> Vec<&'a str> {
    let mut with = Vec::with_capacity(command.len() + 2);
    let mut first = true;
    let mut has = false;
    let mut after_j = false;
    for &arg in command {
        if arg == "&&" {
            if first && !has {
                with.extend(["-j", jobs]);
            }
            first = false;
        }
        if after_j {
            with.push(jobs);
            after_j = false;
            continue;
        }
        if arg == "-j" {
            has |= first;
            after_j = true;
        }
        with.push(arg);
    }
    if first && !has {
        with.extend(["-j", jobs]);
    }
    with
}

/// The corpus files, compressed ones decompressed into `dir` by `zstd -d`.
fn decompressed(corpus: &Path, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    fs::create_dir_all(dir)?;
    let mut files: Vec<PathBuf> = fs::read_dir(corpus)
        .with_context(|| format!("cannot read {}", corpus.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    files.sort();
    let mut inputs = Vec::new();
    for file in files {
        let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
        let name = name.unwrap_or_default();
        if let Some(stem) = name.strip_suffix(".zst") {
            let out = dir.join(stem);
            let status = Command::new("zstd")
                .args(["-dqf"])
                .arg(&file)
                .arg("-o")
                .arg(&out)
                .status()
                .context("zstd (Debian package zstd) decompresses the corpus")?;
            if !status.success() {
                bail!("zstd -d {} failed", file.display());
            }
            inputs.push(out);
        } else if name.ends_with(".pgn") {
            inputs.push(file);
        }
    }
    Ok(inputs)
}

/// What one command gave: its status, standard output and error, and the files it wrote
/// into `out`, each normalised (see the module docs).
fn run_one(
    bin: &Path,
    command: &[&str],
    input: &Path,
    out: &Path,
    name: &str,
) -> anyhow::Result<Vec<u8>> {
    if out.exists() {
        fs::remove_dir_all(out)?;
    }
    fs::create_dir_all(out)?;
    let folder = out.display().to_string();
    let named = command.iter().any(|a| a.contains("{in}"));
    let input_text = input.display().to_string();
    let args: Vec<String> = command
        .iter()
        .map(|a| {
            a.replace("{out}", &folder)
                .replace("{name}", name)
                .replace("{in}", &input_text)
        })
        .collect();
    let mut seen = Vec::new();
    for part in args.split(|a| a == "&&") {
        let mut run = Command::new(bin);
        run.args(part);
        if !named {
            run.arg(input);
        }
        let done = run
            .output()
            .with_context(|| format!("running {}", bin.display()))?;
        seen.extend(format!("status {:?}\n", done.status.code()).into_bytes());
        seen.extend(normalise(&done.stdout, &folder));
        seen.extend(b"\n--stderr--\n");
        seen.extend(normalise(&done.stderr, &folder));
    }
    let mut written: Vec<PathBuf> = Vec::new();
    collect_files(out, &mut written)?;
    written.sort();
    for file in written {
        let relative = file
            .strip_prefix(out)
            .unwrap_or(&file)
            .display()
            .to_string();
        seen.extend(format!("\n--file {relative}--\n").into_bytes());
        seen.extend(fs::read(&file)?);
    }
    Ok(seen)
}

fn collect_files(dir: &Path, files: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_files(&path, files)?;
        } else {
            files.push(path);
        }
    }
    Ok(())
}

/// `text` with the output folder's name and `stats --json`'s `time` object put aside.
fn normalise(text: &[u8], folder: &str) -> Vec<u8> {
    let text = String::from_utf8_lossy(text).replace(folder, "{out}");
    let text = match text.find(",\"time\":{") {
        Some(at) => {
            let end = text[at..].find('}').map_or(text.len(), |e| at + e + 1);
            format!("{}{}", &text[..at], &text[end..])
        }
        None => text,
    };
    text.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_jobs_sets_the_jobs_of_the_part_that_reads() {
        assert_eq!(with_jobs(&["pgn"], "4"), ["pgn", "-j", "4"]);
        assert_eq!(with_jobs(&["pgn", "-j", "1"], "2"), ["pgn", "-j", "2"]);
        assert_eq!(
            with_jobs(&["book", "build", "{in}", "&&", "book", "dump", "x"], "2"),
            [
                "book", "build", "{in}", "-j", "2", "&&", "book", "dump", "x"
            ]
        );
    }
}
