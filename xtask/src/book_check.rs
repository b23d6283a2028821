//! The `book-check` task: tabia's Polyglot books against the real readers and writers.
//!
//! `cargo xtask book-check [PGN] [--max-ply N] [--positions N] [--tabia PATH]` (PGN: default
//! `../shared/corpus/twic1599_1000k.pgn`, else `fixtures/book/games.pgn`) needs python3 with
//! `chess` (`pip install chess`) and, for the second and third checks, `/usr/games/polyglot`
//! (Debian package `polyglot`). `--tabia PATH` uses that binary instead of a release build.
//! The games used are those of PGN that polyglot can read (legal, from the standard start),
//! written to `target/book-check/games.pgn`:
//!
//! 1. A book built by `tabia book build` is read by python-chess's `chess.polyglot`: every
//!    entry (key, move, weight, learn) is the same as `tabia book dump` gives, and for a
//!    sample of the games' positions `find_all` gives the same moves and weights as
//!    `tabia book probe`.
//! 2. A book made by `polyglot make-book` from the same games is read by tabia: the same
//!    entries as python-chess reads, and the same probe results.
//! 3. The two books built from the same games with the same settings (score weights, at
//!    least 3 games, `--max-ply` plies) are compared entry by entry; the differences are
//!    printed and classified.

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use anyhow::{Context, bail};

const POLYGLOT: &str = "/usr/games/polyglot";

/// Runs the task.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let root = crate::project_root();
    let mut pgn: Option<PathBuf> = None;
    let mut max_ply = 30u32;
    let mut positions = 400usize;
    let mut tabia: Option<PathBuf> = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--max-ply" => max_ply = rest.next().context("--max-ply N")?.parse()?,
            "--positions" => positions = rest.next().context("--positions N")?.parse()?,
            "--tabia" => tabia = Some(PathBuf::from(rest.next().context("--tabia PATH")?)),
            other if !other.starts_with('-') => pgn = Some(PathBuf::from(other)),
            other => bail!(
                "unknown option {other}\nusage: cargo xtask book-check [PGN] [--max-ply N] [--positions N]"
            ),
        }
    }
    let pgn = pgn.unwrap_or_else(|| {
        let corpus = root.join("../shared/corpus/twic1599_1000k.pgn");
        if corpus.exists() {
            corpus
        } else {
            root.join("fixtures/book/games.pgn")
        }
    });
    let tabia = match tabia {
        Some(path) => path,
        None => {
            let status = Command::new("cargo")
                .args(["build", "--release", "-q", "-p", "tabia-cli"])
                .current_dir(&root)
                .status()?;
            if !status.success() {
                bail!("cargo build failed");
            }
            root.join("target/release/tabia")
        }
    };
    let dir = root.join("target/book-check");
    fs::create_dir_all(&dir)?;
    let pgn = clean_games(&pgn, &dir.join("games.pgn"))?;
    let script = dir.join("check.py");
    fs::write(&script, SCRIPT)?;

    let tabia_bin = dir.join("tabia.bin");
    run_tabia(
        &tabia,
        &[
            "book",
            "build",
            "-q",
            "--min-games",
            "1",
            "--max-ply",
            &max_ply.to_string(),
            "--weight",
            "score",
        ],
        &pgn,
        &tabia_bin,
    )?;
    let tabia_min3 = dir.join("tabia-min3.bin");
    run_tabia(
        &tabia,
        &[
            "book",
            "build",
            "-q",
            "--min-games",
            "3",
            "--max-ply",
            &max_ply.to_string(),
            "--weight",
            "score",
        ],
        &pgn,
        &tabia_min3,
    )?;
    let mut python = Command::new("python3");
    python
        .arg(&script)
        .arg(&tabia)
        .arg(&pgn)
        .arg(&tabia_bin)
        .arg(max_ply.to_string())
        .arg(positions.to_string());
    if Path::new(POLYGLOT).exists() {
        let poly_bin = dir.join("polyglot.bin");
        let status = Command::new(POLYGLOT)
            .args(["make-book", "-pgn"])
            .arg(&pgn)
            .arg("-bin")
            .arg(&poly_bin)
            .args(["-max-ply", &max_ply.to_string(), "-min-game", "3"])
            .current_dir(&dir)
            .status()
            .context("running polyglot make-book")?;
        if !status.success() {
            bail!("polyglot make-book failed");
        }
        python.arg(&poly_bin).arg(&tabia_min3);
    } else {
        eprintln!(
            "book-check: {POLYGLOT} not found: checks 2 and 3 skipped (apt install polyglot)"
        );
    }
    let status = python.status().context("running python3")?;
    if !status.success() {
        bail!("book-check failed");
    }
    Ok(())
}

/// The games of `pgn` that polyglot can read, written to `out`: legal ones from the standard
/// start (polyglot ignores `FEN` tags and stops at the first illegal move).
fn clean_games(pgn: &Path, out: &Path) -> anyhow::Result<PathBuf> {
    let bytes = fs::read(pgn).with_context(|| format!("reading {}", pgn.display()))?;
    let mut kept = Vec::with_capacity(bytes.len());
    let (mut games, mut left_out) = (0u64, 0u64);
    for raw in tabia_notation::pgn::PgnReader::new(&bytes[..]).raw_games() {
        let Ok(raw) = raw else {
            left_out += 1;
            continue;
        };
        let legal = raw.parse().ok().filter(|game| {
            !game
                .tags
                .iter()
                .any(|(name, _)| name == "FEN" || name == "Variant")
                && tabia_position::check_game(game).is_ok()
        });
        if legal.is_some() {
            games += 1;
            kept.extend_from_slice(&raw.bytes);
            kept.extend_from_slice(b"\n\n");
        } else {
            left_out += 1;
        }
    }
    fs::write(out, kept)?;
    println!(
        "{games} games from the standard start, all legal ({left_out} left out): {}",
        out.display()
    );
    Ok(out.to_path_buf())
}

fn run_tabia(tabia: &Path, args: &[&str], pgn: &Path, out: &Path) -> anyhow::Result<()> {
    let status = Command::new(tabia)
        .args(args)
        .arg(pgn)
        .arg("-o")
        .arg(out)
        .status()?;
    // Status 1: some games were bad (reported); the book is still written.
    if status.code().is_none_or(|code| code > 1) {
        bail!("tabia {args:?} failed");
    }
    Ok(())
}

/// The python-chess side of the checks.
const SCRIPT: &str = r#"
import collections, json, subprocess, sys
import chess, chess.pgn, chess.polyglot

tabia, pgn_path, tabia_bin, max_ply, sample = sys.argv[1:6]
max_ply, sample = int(max_ply), int(sample)
poly_bin = sys.argv[6] if len(sys.argv) > 6 else None
tabia_min3 = sys.argv[7] if len(sys.argv) > 7 else None
failures = 0

def fail(message):
    global failures
    failures += 1
    if failures <= 20:
        print("MISMATCH:", message)

def raw_entries(path):
    with chess.polyglot.open_reader(path) as reader:
        return [(e.key, e.raw_move, e.weight, e.learn) for e in (reader[i] for i in range(len(reader)))]

def tabia_dump(path):
    out = subprocess.run([tabia, "book", "dump", "--json", path], capture_output=True, text=True, check=True).stdout
    return [(int(r["key"], 16), r["code"], r["weight"], r["learn"]) for r in map(json.loads, out.splitlines())]

def tabia_probe(path, fen):
    out = subprocess.run([tabia, "book", "probe", "--json", path, fen], capture_output=True, text=True, check=True).stdout
    r = json.loads(out)
    return int(r["key"], 16), sorted((m["uci"], m["weight"]) for m in r["moves"])

def python_probe(path, board):
    with chess.polyglot.open_reader(path) as reader:
        return chess.polyglot.zobrist_hash(board), sorted((e.move.uci(), e.weight) for e in reader.find_all(board, minimum_weight=0))

# The positions of the games (first max_ply plies), a sample of them spread over the file.
positions, seen = [], set()
with open(pgn_path, encoding="utf-8", errors="replace") as f:
    while True:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        board = game.board()
        for ply, move in enumerate(game.mainline_moves()):
            if ply >= max_ply:
                break
            fen = board.fen()
            if board.epd() not in seen:
                seen.add(board.epd())
                positions.append(fen)
            board.push(move)
step = max(1, len(positions) // sample)
sampled = positions[::step][:sample]

def compare_book(name, path):
    py, tb = raw_entries(path), tabia_dump(path)
    if py != tb:
        fail(f"{name}: entries differ ({len(py)} by python-chess, {len(tb)} by tabia)")
        for i, (a, b) in enumerate(zip(py, tb)):
            if a != b:
                fail(f"{name}: entry {i}: python-chess {a}, tabia {b}")
                break
    probed = nonempty = 0
    for fen in sampled:
        board = chess.Board(fen)
        tkey, tmoves = tabia_probe(path, fen)
        pkey, pmoves = python_probe(path, board)
        probed += 1
        nonempty += bool(pmoves)
        if tkey != pkey:
            fail(f"{name}: key of {fen}: tabia {tkey:016x}, python-chess {pkey:016x}")
        if tmoves != pmoves:
            fail(f"{name}: {fen}: tabia {tmoves}, python-chess {pmoves}")
    print(f"{name}: {len(py)} entries read alike by python-chess and tabia; {probed} positions probed ({nonempty} in the book), same moves and weights")

compare_book("tabia book build", tabia_bin)
if poly_bin:
    compare_book("polyglot make-book", poly_bin)

    # The two books from the same games: score weights, at least 3 games, max_ply plies.
    a = collections.defaultdict(dict)
    for key, move, weight, learn in raw_entries(tabia_min3):
        a[key][move] = weight
    b = collections.defaultdict(dict)
    for key, move, weight, learn in raw_entries(poly_bin):
        b[key][move] = weight
    only_tabia = sum(len(m) for k, m in a.items() if k not in b)
    only_poly = sum(len(m) for k, m in b.items() if k not in a)
    both = [k for k in a if k in b]
    same_moves = sum(1 for k in both if set(a[k]) == set(b[k]))
    same_weights = sum(1 for k in both if a[k] == b[k])
    proportional = 0
    for k in both:
        if set(a[k]) == set(b[k]) and a[k] != b[k]:
            ka = sorted(a[k].items()); kb = sorted(b[k].items())
            if all(x[1] * kb[0][1] == y[1] * ka[0][1] for x, y in zip(ka, kb)):
                proportional += 1
    print(f"tabia vs polyglot (score, min 3 games, {max_ply} plies): {sum(map(len, a.values()))} vs {sum(map(len, b.values()))} entries; "
          f"{len(a)} vs {len(b)} positions; {len(both)} positions in both, {same_moves} with the same moves, "
          f"{same_weights} with the same weights ({proportional} more proportional); "
          f"{only_tabia} entries in positions only tabia has, {only_poly} in positions only polyglot has")
    shown = 0
    for k in both:
        if a[k] != b[k] and shown < 5:
            shown += 1
            print(f"  key {k:016x}: tabia {sorted(a[k].items())}, polyglot {sorted(b[k].items())}")

if failures:
    print(f"book-check: {failures} mismatches")
    sys.exit(1)
print("book-check: ok")
"#;
