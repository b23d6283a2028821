//! Builds the embedded table's index at compile time, so that a process does not replay the
//! table's lines (some forty thousand moves, several milliseconds) before it names its first
//! opening.
//!
//! From `data/openings.tsv` (the format is described in `src/embedded.rs`) it writes to
//! `OUT_DIR`:
//!
//! - `index.bin`: every position on a line of the table, in an open-addressing hash table that
//!   `src/table.rs` probes in place (see `StaticIndex` there for the layout);
//! - `openings.txt` and `openings.bin`: the named positions, in the order of the text (their
//!   strings, and where each field of each lies in them).
//!
//! It loads the table as `embedded::parse` and `table::Builder` do (the keys come from
//! `tabia-position` itself); a test holds the two to the same table.

use std::{collections::HashMap, env, fs, path::PathBuf};

use tabia_position::{Position, PositionKey, hash_of};

// The table's line format and the index's layout, as the crate reads them (what the crate
// alone uses is unused here).
#[allow(dead_code)]
#[path = "src/layout.rs"]
mod layout;

use layout::{ENTRY_BYTES, HEADER_BYTES, ON_LINE, RECORD_BYTES, movetext, tag_of};

/// A named position of the table.
struct Named {
    eco: String,
    extended: Option<String>,
    name: String,
    moves: String,
    ply: usize,
}

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("set by cargo"));
    let source = manifest.join("data/openings.tsv");
    println!("cargo:rerun-if-changed={}", source.display());
    println!("cargo:rerun-if-changed=build.rs");
    let text = fs::read_to_string(&source).expect("data/openings.tsv is readable");

    let start = Position::new();
    let mut index: HashMap<PositionKey, u32> = HashMap::new();
    index.insert(start.key(), ON_LINE);
    let mut openings: Vec<Named> = Vec::new();
    let mut max_ply = 0;
    let mut sans: Vec<&str> = Vec::new();
    let mut path: Vec<Position> = Vec::new();
    'lines: for text in text.lines() {
        let Some(Ok(line)) = layout::line(text, sans.len()) else {
            continue;
        };
        sans.truncate(line.shared);
        sans.extend(line.moves.split_ascii_whitespace());
        if line.eco.is_empty() {
            continue;
        }
        path.truncate(line.shared.min(path.len()));
        for &san in &sans[path.len()..] {
            let before = path.last().unwrap_or(&start);
            let Ok(m) = before.parse_move(san) else {
                continue 'lines;
            };
            let mut after = before.clone();
            after.play_unchecked(m);
            index.entry(after.key()).or_insert(ON_LINE);
            path.push(after);
        }
        max_ply = max_ply.max(sans.len());
        let slot = index
            .entry(path.last().unwrap_or(&start).key())
            .or_insert(ON_LINE);
        if *slot == ON_LINE {
            *slot = u32::try_from(openings.len()).expect("fewer openings than u32");
            let mut moves = String::new();
            movetext(&mut moves, sans.iter().copied());
            openings.push(Named {
                eco: line.eco.to_owned(),
                extended: line.extended.map(str::to_owned),
                name: line.name.to_owned(),
                moves,
                ply: sans.len(),
            });
        }
    }

    // The index: a power of two of slots, at most half full (a miss, the common probe once a
    // game has left the book, then looks at two slots on average), linear probing from the
    // key's `hash_of`; the tags first (small enough to stay in a core's cache), then the
    // entries.
    let slots = (index.len() * 2).next_power_of_two();
    let mut tags = vec![0u32; slots];
    let mut entries = vec![0u8; slots * ENTRY_BYTES];
    let mut keys: Vec<_> = index.into_iter().collect();
    keys.sort_unstable();
    let len = keys.len();
    for (key, value) in keys {
        let hash = hash_of(&key);
        let mut i = usize::try_from(hash).unwrap_or(usize::MAX) & (slots - 1);
        while tags[i] != 0 {
            i = (i + 1) & (slots - 1);
        }
        tags[i] = tag_of(hash);
        let entry = &mut entries[i * ENTRY_BYTES..(i + 1) * ENTRY_BYTES];
        entry[..4].copy_from_slice(&value.to_le_bytes());
        entry[4..48].copy_from_slice(&key.to_bytes());
    }
    let mut table = Vec::with_capacity(HEADER_BYTES + slots * (4 + ENTRY_BYTES));
    for n in [slots, len, max_ply, openings.len()] {
        let n = u32::try_from(n).expect("a table that fits in u32");
        table.extend_from_slice(&n.to_le_bytes());
    }
    table.resize(HEADER_BYTES, 0);
    for tag in tags {
        table.extend_from_slice(&tag.to_le_bytes());
    }
    table.extend_from_slice(&entries);
    fs::write(out.join("index.bin"), &table).expect("OUT_DIR is writable");

    // The openings: their text in one string, and a record of offsets into it for each
    // (`layout::RECORD_BYTES`). Offsets rather than a `static` slice of strings: pointers would
    // each need a relocation when any `tabia` command starts.
    let mut text = String::new();
    let mut records = Vec::with_capacity(openings.len() * RECORD_BYTES);
    for o in &openings {
        let mut starts = [0; 5];
        for (start, field) in starts.iter_mut().zip([
            o.eco.as_str(),
            o.extended.as_deref().unwrap_or(""),
            o.name.as_str(),
            o.moves.as_str(),
        ]) {
            *start = text.len();
            text.push_str(field);
        }
        starts[4] = text.len();
        for n in starts.into_iter().chain([o.ply]) {
            let n = u32::try_from(n).expect("a text that fits in u32");
            records.extend_from_slice(&n.to_le_bytes());
        }
    }
    fs::write(out.join("openings.txt"), text).expect("OUT_DIR is writable");
    fs::write(out.join("openings.bin"), records).expect("OUT_DIR is writable");
}
