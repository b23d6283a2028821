//! `cargo xtask filter-diff [--tabia PATH] [--pgn-extract PATH] [FILE...]`: `tabia filter`
//! against pgn-extract over the corpus (`../shared/corpus` unless files are given), for a set
//! of criteria of each kind: the games each selects, by game number, and where they differ.
//!
//! Each input is first copied with a `[GameNo "N"]` tag added to every game (N its number in
//! the input), so that both tools' outputs name the games the same way. Differences are
//! printed (the first game numbers of each side) for the report to explain; the task fails
//! only when a tool cannot be run.

use std::{
    collections::BTreeSet,
    fs,
    io::Read as _,
    path::{Path, PathBuf},
    process::Command,
};

use anyhow::{Context as _, bail};
use tabia_notation::pgn::PgnReader;

/// One criterion, as tabia and pgn-extract write it. `{tags}`, `{vars}` and `{ends}` in the
/// pgn-extract arguments stand for a file with the given text (a tag file for `-t`, a
/// variations file for `-x`, a material file for `-z`).
struct Case {
    name: &'static str,
    tabia: &'static [&'static str],
    pgn_extract: &'static [&'static str],
    file: Option<&'static str>,
}

const CASES: &[Case] = &[
    Case {
        name: "result 1-0",
        tabia: &["--result", "1-0"],
        pgn_extract: &["-Tr1-0"],
        file: None,
    },
    Case {
        name: "result draw",
        tabia: &["--result", "1/2-1/2"],
        pgn_extract: &["-Tr1/2-1/2"],
        file: None,
    },
    Case {
        name: "WhiteElo >= 2500",
        tabia: &["--tag", "WhiteElo>=2500"],
        pgn_extract: &["-t{file}"],
        file: Some("WhiteElo >= \"2500\"\n"),
    },
    Case {
        name: "Date < 2000",
        tabia: &["--tag", "Date<2000"],
        pgn_extract: &["-t{file}"],
        file: Some("Date < \"2000\"\n"),
    },
    Case {
        name: "eco B9 (prefix)",
        tabia: &["--eco", "B9"],
        pgn_extract: &["-TeB9"],
        file: None,
    },
    Case {
        name: "eco C42",
        tabia: &["--eco", "C42"],
        pgn_extract: &["-TeC42"],
        file: None,
    },
    Case {
        name: "white Carlsen (prefix)",
        tabia: &["--tag", "White~^Carlsen"],
        pgn_extract: &["-TwCarlsen"],
        file: None,
    },
    Case {
        name: "player Anand (prefix)",
        tabia: &["--player", "~^anand"],
        pgn_extract: &["-TpAnand"],
        file: None,
    },
    Case {
        name: "position: Nimzo-Indian",
        tabia: &[
            "--position",
            "rnbqk2r/pppp1ppp/4pn2/8/1bPP4/2N5/PP2PPPP/R1BQKBNR w KQkq -",
        ],
        pgn_extract: &["-x{file}"],
        file: Some("d4 Nf6 c4 e6 Nc3 Bb4\n"),
    },
    Case {
        name: "position: Sicilian 2.Nf3 d6",
        tabia: &[
            "--position",
            "rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -",
        ],
        pgn_extract: &["-x{file}"],
        file: Some("e4 c5 Nf3 d6\n"),
    },
    Case {
        name: "position: FEN tag (castling ignored by pgn-extract)",
        tabia: &[
            "--position",
            "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R",
        ],
        pgn_extract: &["-t{file}"],
        file: Some("FEN \"r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3\"\n"),
    },
    Case {
        name: "zobrist: after 1. e4",
        tabia: &["--zobrist", "823c9b50fd114196"],
        pgn_extract: &["-H823c9b50fd114196"],
        file: None,
    },
    Case {
        name: "fen pattern: d4+e4 pawns",
        tabia: &["--fen-pattern", "*/*/*/*/???PP???/*/*/*"],
        pgn_extract: &["-Tf*/*/*/*/???PP???/*/*/*"],
        file: None,
    },
    Case {
        name: "fen pattern: castled kingside, fianchetto",
        tabia: &["--fen-pattern", "*/*/*/*/*/6P1/*PBP/*RK1"],
        pgn_extract: &["-Tf*/*/*/*/*/6P1/*PBP/*RK1"],
        file: None,
    },
    Case {
        name: "material: R vs R",
        tabia: &["--material", "R R"],
        pgn_extract: &["-z{file}"],
        file: Some("r r\n"),
    },
    Case {
        name: "material: RP* vs R P*",
        tabia: &["--material", "RP* RP*"],
        pgn_extract: &["-z{file}"],
        file: Some("rp* rp*\n"),
    },
    Case {
        name: "material: queen endings",
        tabia: &["--material", "QP* QP*"],
        pgn_extract: &["-z{file}"],
        file: Some("qp* qp*\n"),
    },
    Case {
        name: "checkmate",
        tabia: &["--checkmate"],
        pgn_extract: &["-M"],
        file: None,
    },
    Case {
        name: "stalemate",
        tabia: &["--stalemate"],
        pgn_extract: &["--stalemate"],
        file: None,
    },
    Case {
        name: "repetition",
        tabia: &["--repetition"],
        pgn_extract: &["--repetition"],
        file: None,
    },
    Case {
        name: "fifty",
        tabia: &["--fifty"],
        pgn_extract: &["--fifty"],
        file: None,
    },
    Case {
        name: "underpromotion",
        tabia: &["--underpromotion"],
        pgn_extract: &["--underpromotion"],
        file: None,
    },
    Case {
        name: "plies 80",
        tabia: &["--plies", "80"],
        pgn_extract: &["-p80"],
        file: None,
    },
    Case {
        name: "plies >= 150",
        tabia: &["--plies", "150.."],
        pgn_extract: &["-pl150"],
        file: None,
    },
];

/// Runs the task.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let mut tabia = crate::project_root().join("target/release/tabia");
    let mut pgn_extract = PathBuf::from("/usr/games/pgn-extract");
    let mut files = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--tabia" => tabia = PathBuf::from(it.next().context("--tabia needs a path")?),
            "--pgn-extract" => {
                pgn_extract = PathBuf::from(it.next().context("--pgn-extract needs a path")?);
            }
            other => files.push(PathBuf::from(other)),
        }
    }
    if !tabia.exists() {
        bail!(
            "{} not found: run `cargo build --release -p tabia-cli` first, or give --tabia",
            tabia.display()
        );
    }
    if files.is_empty() {
        // `../shared` beside the repository (or beside the worktrees' folder).
        let root = crate::project_root();
        let corpus = [
            root.join("../shared/corpus"),
            root.join("../../shared/corpus"),
        ]
        .into_iter()
        .find(|dir| dir.is_dir())
        .unwrap_or_else(|| root.join("../shared/corpus"));
        for entry in
            fs::read_dir(&corpus).with_context(|| format!("cannot read {}", corpus.display()))?
        {
            files.push(entry?.path());
        }
        files.sort();
    }
    let work = crate::project_root().join("target/filter-diff");
    fs::create_dir_all(&work)?;
    let mut total_same = 0;
    let mut total_cases = 0;
    for file in &files {
        let numbered = work.join(format!(
            "{}.numbered.pgn",
            file.file_name().and_then(|n| n.to_str()).unwrap_or("input")
        ));
        let games = number_games(file, &numbered)?;
        println!("== {} ({games} games)", file.display());
        println!(
            "{:<52} {:>7} {:>7} {:>7} {:>7}  differences",
            "criterion", "tabia", "pgnx", "both", "same"
        );
        for (i, case) in CASES.iter().enumerate() {
            let extra = match case.file {
                Some(text) => {
                    let path = work.join(format!("case{i}.txt"));
                    fs::write(&path, text)?;
                    Some(path)
                }
                None => None,
            };
            let ours = run_tabia(&tabia, &numbered, case.tabia)?;
            let theirs =
                run_pgn_extract(&pgn_extract, &numbered, case.pgn_extract, extra.as_deref())?;
            let both = ours.intersection(&theirs).count();
            let same = ours == theirs;
            total_cases += 1;
            total_same += usize::from(same);
            let only = |a: &BTreeSet<u64>, b: &BTreeSet<u64>| {
                a.difference(b)
                    .take(5)
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            };
            let diff = if same {
                String::new()
            } else {
                format!(
                    "tabia only: [{}] pgn-extract only: [{}]",
                    only(&ours, &theirs),
                    only(&theirs, &ours)
                )
            };
            println!(
                "{:<52} {:>7} {:>7} {:>7} {:>7}  {diff}",
                case.name,
                ours.len(),
                theirs.len(),
                both,
                if same { "yes" } else { "no" }
            );
        }
    }
    println!("{total_same} of {total_cases} selections identical");
    Ok(())
}

/// Copies `input` (decompressing zstd) with a `GameNo` tag first in every game; gives the count.
fn number_games(input: &Path, output: &Path) -> anyhow::Result<u64> {
    let mut bytes = Vec::new();
    fs::File::open(input)
        .with_context(|| format!("cannot open {}", input.display()))?
        .read_to_end(&mut bytes)?;
    if bytes.starts_with(&[0x28, 0xB5, 0x2F, 0xFD]) {
        let out = Command::new("zstd")
            .args(["-dc", &input.display().to_string()])
            .output()
            .context("zstd is needed to read .zst inputs")?;
        bytes = out.stdout;
    }
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 20);
    let mut number = 0;
    for raw in PgnReader::new(&bytes[..]).raw_games() {
        let Ok(raw) = raw else { continue };
        number += 1;
        out.extend_from_slice(format!("[GameNo \"{number}\"]\n").as_bytes());
        out.extend_from_slice(&raw.bytes);
        out.extend_from_slice(b"\n\n");
    }
    fs::write(output, out)?;
    Ok(number)
}

/// The `GameNo` values in PGN output.
fn game_numbers(pgn: &[u8]) -> BTreeSet<u64> {
    String::from_utf8_lossy(pgn)
        .lines()
        .filter_map(|line| {
            line.strip_prefix("[GameNo \"")?
                .strip_suffix("\"]")?
                .parse()
                .ok()
        })
        .collect()
}

fn run_tabia(tabia: &Path, input: &Path, args: &[&str]) -> anyhow::Result<BTreeSet<u64>> {
    let out = Command::new(tabia)
        .arg("filter")
        .arg("-q")
        .arg(input)
        .args(args)
        .output()
        .with_context(|| format!("cannot run {}", tabia.display()))?;
    if out.status.code() == Some(2) {
        bail!(
            "tabia filter {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(game_numbers(&out.stdout))
}

fn run_pgn_extract(
    pgn_extract: &Path,
    input: &Path,
    args: &[&str],
    file: Option<&Path>,
) -> anyhow::Result<BTreeSet<u64>> {
    let args: Vec<String> = args
        .iter()
        .map(|a| match file {
            Some(f) => a.replace("{file}", &f.display().to_string()),
            None => (*a).to_owned(),
        })
        .collect();
    let out = Command::new(pgn_extract)
        .arg("-s")
        .args(&args)
        .arg(input)
        .output()
        .with_context(|| format!("cannot run {}", pgn_extract.display()))?;
    Ok(game_numbers(&out.stdout))
}
