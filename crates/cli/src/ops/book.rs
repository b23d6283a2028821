//! `tabia book`'s command-line work: books read from and written to files (errors naming the
//! file), and `dump`'s lines. Building and probing are tabia-book's ([`Book::from_tree`],
//! [`Book::probe_after`]).

use std::{fs::File, io::Write, path::Path};

use tabia_book::{Book, ENTRY_BYTES, Probe, code_text};

use crate::output;

/// Reads a book; an unreadable or malformed one is an error naming the file (and the byte).
pub(crate) fn read_book(path: &Path) -> anyhow::Result<Book> {
    let bytes = std::fs::read(path)
        .map_err(|err| anyhow::anyhow!("cannot open {}: {err}", path.display()))?;
    Book::from_bytes(&bytes).map_err(|err| anyhow::anyhow!("{}: {err}", path.display()))
}

/// Writes `book` into `file`, the output `path` claimed at the start.
pub(crate) fn write_book(path: &Path, mut file: File, book: &Book) -> anyhow::Result<()> {
    file.write_all(&book.to_bytes())
        .and_then(|()| file.flush())
        .map_err(|err| anyhow::anyhow!("cannot write {}: {err}", path.display()))
}

/// One `--json` line of `dump`.
#[derive(serde::Serialize)]
struct DumpRecord {
    offset: u64,
    key: String,
    #[serde(rename = "move")]
    uci: String,
    code: u16,
    weight: u16,
    learn: u32,
}

/// `dump`: every entry of `book` on standard output, a line each (key, move, weight, learn;
/// or NDJSON with the entry's byte offset).
pub(crate) fn dump(book: &Book, json: bool) -> anyhow::Result<()> {
    let mut out = output::stdout();
    let mut line = Vec::with_capacity(128);
    for (i, entry) in book.entries().iter().enumerate() {
        line.clear();
        let offset = (i * ENTRY_BYTES) as u64;
        if json {
            let record = DumpRecord {
                offset,
                key: format!("{:016x}", entry.key),
                uci: code_text(entry.code),
                code: entry.code,
                weight: entry.weight,
                learn: entry.learn,
            };
            output::json_line(&mut line, &record);
        } else {
            writeln!(
                line,
                "{:016x}  {:<5}  {:>5}  {}",
                entry.key,
                code_text(entry.code),
                entry.weight,
                entry.learn
            )?;
        }
        out.write_all(&line)?;
    }
    out.flush()?;
    Ok(())
}

/// `probe`: what the book holds for the position, on standard output (text, or one JSON
/// object).
pub(crate) fn write_probe(probe: &Probe, json: bool) -> anyhow::Result<()> {
    let mut out = output::stdout();
    if json {
        serde_json::to_writer(&mut out, probe)?;
        out.write_all(b"\n")?;
    } else {
        write!(out, "{probe}")?;
    }
    out.flush()?;
    Ok(())
}
