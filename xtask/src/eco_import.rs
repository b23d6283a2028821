//! The `eco-import` task: generates the tables tabia-eco embeds, each as a text and its
//! compiled index (`crates/eco/data/{lichess,scid}.{tsv,bin}`), from `../shared/eco`:
//!
//! - `lichess`, the default: the lichess chess-openings TSVs `lichess/a.tsv` … `e.tsv` (CC0),
//!   every row in the files' order, its moves replayed and written again in SAN. Where two
//!   rows reach the same position the later one names it, as lichess's `OpeningDb` (a map by
//!   position built from the rows in that order) does; none do today. Each row gets Scid's
//!   extended code for its line when Scid's table names the line (by the classifier's rule)
//!   under the same ECO code.
//! - `scid`: Scid's `scid.eco`, every entry replayed, the first to reach a position naming it.
//!
//! The index is what `tabia_eco::compile` makes of the text (the layout is in
//! `crates/eco/src/layout.rs`). The output depends only on the sources and on tabia-eco.
//!
//! `--check` regenerates in memory and fails if a committed file differs; it skips (with a
//! message, successfully) when the sources are absent.

use std::{collections::HashMap, fmt::Write as _, fs, path::Path};

use anyhow::{Context, bail};
use tabia_eco::{Table, TableFormat};
use tabia_position::{Position, PositionKey};

/// Where the generated files go, relative to the repository root.
const DATA: &str = "crates/eco/data";

/// The lichess sources, relative to the shared folder.
const LICHESS: [&str; 5] = [
    "eco/lichess/a.tsv",
    "eco/lichess/b.tsv",
    "eco/lichess/c.tsv",
    "eco/lichess/d.tsv",
    "eco/lichess/e.tsv",
];

/// Scid's table, relative to the shared folder.
const SCID: &str = "eco/scid.eco";

/// The header row of the generated text (`layout::HEADER_ROW` in tabia-eco).
const HEADER_ROW: &str = "eco\textended\tname\tpgn";

/// One opening of a generated table.
struct Row {
    eco: String,
    extended: Option<String>,
    name: String,
    sans: Vec<String>,
}

/// Runs the task.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let mut check = false;
    for arg in args {
        match arg.as_str() {
            "--check" => check = true,
            other => bail!("eco-import: unknown argument `{other}` (expected --check)"),
        }
    }
    let root = crate::project_root();
    let shared = root.join("..").join("shared");
    let sources = LICHESS.iter().chain([&SCID]).map(|s| shared.join(s));
    if let Some(missing) = sources.into_iter().find(|p| !p.is_file()) {
        if check {
            eprintln!(
                "eco-import --check: skipped, source {} is absent",
                missing.display()
            );
            return Ok(());
        }
        bail!("source {} is absent", missing.display());
    }

    let scid_rows = scid(&shared.join(SCID))?;
    let scid_text = write_text(
        &scid_rows,
        "Scid's scid.eco (Scid's names and extended codes), every entry replayed; the first\n\
         # entry to reach a position names it.",
    );
    let scid_table = Table::from_bytes(scid_text.as_bytes(), TableFormat::Tsv)
        .context("the generated Scid text does not load")?;
    let lichess_rows = lichess(&shared, &scid_table)?;
    let lichess_text = write_text(
        &lichess_rows,
        "the lichess chess-openings TSVs a.tsv ... e.tsv (CC0), in their order; the extended\n\
         # code is Scid's for the row's line when Scid names it under the same ECO code.",
    );

    let mut stale = Vec::new();
    for (table, text) in [("lichess", lichess_text), ("scid", scid_text)] {
        let index = tabia_eco::compile(&text)
            .map_err(|e| anyhow::anyhow!("the generated {table} text does not compile: {e}"))?;
        for (ext, bytes) in [("tsv", text.into_bytes()), ("bin", index)] {
            let path = root.join(DATA).join(format!("{table}.{ext}"));
            let name = format!("{DATA}/{table}.{ext}");
            if check {
                let committed = fs::read(&path).unwrap_or_default();
                if committed != bytes {
                    stale.push(name);
                }
            } else {
                fs::write(&path, &bytes)
                    .with_context(|| format!("cannot write {}", path.display()))?;
                eprintln!("eco-import: wrote {name} ({} bytes)", bytes.len());
            }
        }
    }
    if !stale.is_empty() {
        bail!(
            "{} differ from what the sources produce: run `cargo xtask eco-import`",
            stale.join(", ")
        );
    }
    if check {
        eprintln!("eco-import --check: {DATA} is up to date");
    }
    Ok(())
}

/// The rows of Scid's table: the openings `Table::from_bytes` loads (first entry of a position
/// wins), their moves in SAN again.
fn scid(path: &Path) -> anyhow::Result<Vec<Row>> {
    let bytes = fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let table = Table::from_bytes(&bytes, TableFormat::Scid)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let rows: Vec<Row> = table
        .openings()
        .iter()
        .map(|o| {
            let (sans, _) = replay(o.moves()).map_err(|e| anyhow::anyhow!("{}: {e}", o.name()))?;
            Ok(Row {
                eco: o.eco().to_owned(),
                extended: o.extended().map(str::to_owned),
                name: o.name().to_owned(),
                sans,
            })
        })
        .collect::<anyhow::Result<_>>()?;
    eprintln!("eco-import: scid: {} positions named", rows.len());
    Ok(rows)
}

/// The rows of the lichess TSVs, in their order, the later of two rows of a position
/// replacing the earlier one.
fn lichess(shared: &Path, scid: &Table) -> anyhow::Result<Vec<Row>> {
    let mut rows: Vec<Row> = Vec::new();
    let mut by_key: HashMap<PositionKey, usize> = HashMap::new();
    let (mut read, mut extended) = (0usize, 0usize);
    for source in LICHESS {
        let path = shared.join(source);
        let text =
            fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let mut lines = text.lines().enumerate();
        let header = lines.next().map(|(_, l)| l).unwrap_or_default();
        if header.trim() != "eco\tname\tpgn" {
            bail!(
                "{}: header `{header}`, expected eco, name, pgn",
                path.display()
            );
        }
        for (i, line) in lines {
            if line.trim().is_empty() {
                continue;
            }
            let at = || format!("{}:{}", path.display(), i + 1);
            let [eco, name, pgn] = line.split('\t').collect::<Vec<_>>()[..] else {
                bail!("{}: expected three fields", at());
            };
            read += 1;
            let (sans, key) = replay(pgn).map_err(|e| anyhow::anyhow!("{}: {e}", at()))?;
            let scid_code = scid
                .classify_moves(&sans)
                .ok()
                .flatten()
                .and_then(|m| m.opening.extended())
                .filter(|code| code.starts_with(eco))
                .map(str::to_owned);
            let row = Row {
                eco: eco.trim().to_owned(),
                extended: scid_code,
                name: name.trim().to_owned(),
                sans,
            };
            match by_key.get(&key) {
                Some(&earlier) => {
                    eprintln!(
                        "eco-import: {}: `{}` names the position of `{}`: the later row wins",
                        at(),
                        row.name,
                        rows[earlier].name
                    );
                    rows[earlier] = row;
                }
                None => {
                    by_key.insert(key, rows.len());
                    rows.push(row);
                }
            }
        }
    }
    extended += rows.iter().filter(|r| r.extended.is_some()).count();
    eprintln!(
        "eco-import: lichess: {read} rows read, {} positions named, {extended} with a Scid \
         extended code",
        rows.len()
    );
    Ok(rows)
}

/// Replays a movetext (`1. e4 e5 2. Nf3`, `1.e4 e5`) from the starting position: its moves in
/// SAN as tabia writes them, and the key of the position reached.
fn replay(movetext: &str) -> Result<(Vec<String>, PositionKey), String> {
    let mut pos = Position::new();
    let mut sans = Vec::new();
    for token in movetext.split_whitespace() {
        // A move number may be glued to its move: `2.Nf3`, `3...d5`.
        let san = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if san.is_empty() || san == "*" {
            continue;
        }
        // Read as a game's move is (Scid's table writes a capture without its `x` once).
        let m = pos
            .parse_move(san)
            .or_else(|err| {
                san.parse::<tabia_notation::san::SanPlus>()
                    .ok()
                    .and_then(|s| pos.resolve_lenient(s.san).ok())
                    .ok_or(err)
            })
            .map_err(|e| format!("moves `{movetext}`: {e}"))?;
        sans.push(pos.san(m).to_string());
        pos.play_unchecked(m);
    }
    Ok((sans, pos.key()))
}

/// Writes a table's text (the format of `crates/eco/src/layout.rs`).
fn write_text(rows: &[Row], source: &str) -> String {
    let mut out = format!(
        "# An opening table embedded in tabia-eco. Generated by `cargo xtask eco-import` from\n\
         # {source}\n\
         # Do not edit: run the task again (it also writes the compiled index next to this file).\n\
         {HEADER_ROW}\n"
    );
    let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
    for row in rows {
        let _ = write!(
            out,
            "{}\t{}\t{}\t",
            clean(&row.eco),
            row.extended
                .as_deref()
                .map_or_else(|| "-".to_owned(), clean),
            clean(&row.name)
        );
        for (i, san) in row.sans.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            if i % 2 == 0 {
                let _ = write!(out, "{}. ", i / 2 + 1);
            }
            out.push_str(san);
        }
        out.push('\n');
    }
    out
}
