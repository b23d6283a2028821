//! The tables of the redb file and what reading and writing them share.

use std::path::{Path, PathBuf};

use redb::{Builder, ConcurrencyMode, ReadOnlyTable, ReadableTable, TableDefinition};

use crate::{
    IndexError,
    varint::{self, Cursor},
};

/// The file of an index, in its folder.
pub(crate) const FILE: &str = "index.redb";

/// The format of the values; an index of another format is refused with a message.
pub const FORMAT: u32 = 1;

/// Games per compressed block of game texts.
pub(crate) const BLOCK: u32 = 128;

/// The bytes of a block's pieces: each a value of its own, so that pages are filled (a large
/// value takes whole pages, a power of two of them).
pub(crate) const PIECE: usize = 1000;

/// Format, options and counts.
pub(crate) const META: TableDefinition<'_, &str, &[u8]> = TableDefinition::new("meta");
/// The first bytes of a [`PosKey`](crate::PosKey) → a [`Bucket`](crate::bucket::Bucket) of
/// [`Entry`](crate::entry::Entry)s.
pub(crate) const POSITIONS: TableDefinition<'_, &[u8], &[u8]> = TableDefinition::new("positions");
/// Game id → [`GameInfo`](crate::GameInfo).
pub(crate) const INFOS: TableDefinition<'_, u32, &[u8]> = TableDefinition::new("infos");
/// Block number × 2¹⁶ + piece → a [`PIECE`] of the zstd of [`BLOCK`] games' texts.
pub(crate) const BLOCKS: TableDefinition<'_, u64, &[u8]> = TableDefinition::new("games");
/// Digest (as `tabia dedup`'s) → game id.
pub(crate) const DIGESTS: TableDefinition<'_, u128, u32> = TableDefinition::new("digests");
/// Lowercased player name, NUL, `w` or `b` → the ids of their games with that color.
pub(crate) const PLAYERS: TableDefinition<'_, &[u8], &[u8]> = TableDefinition::new("players");

pub(crate) fn file(dir: &Path) -> PathBuf {
    dir.join(FILE)
}

pub(crate) fn builder() -> Builder {
    let mut builder = Builder::new();
    builder.set_concurrency_mode(ConcurrencyMode::SingleWriter);
    builder
}

/// The key of a player's games with one color.
pub(crate) fn player_key(name: &str, white: bool) -> Vec<u8> {
    let mut key = name.trim().to_lowercase().into_bytes();
    key.push(0);
    key.push(if white { b'w' } else { b'b' });
    key
}

/// A list of ascending ids, delta-coded.
pub(crate) fn encode_ids(ids: &[u32], out: &mut Vec<u8>) {
    let mut last = 0;
    for &id in ids {
        varint::put(out, u64::from(id.saturating_sub(last)));
        last = id;
    }
}

pub(crate) fn decode_ids(bytes: &[u8]) -> Option<Vec<u32>> {
    let mut c = Cursor::new(bytes);
    let mut ids = Vec::new();
    let mut last = 0u32;
    while !c.is_empty() {
        last = last.checked_add(c.u32()?)?;
        ids.push(last);
    }
    Some(ids)
}

/// The texts of a block of games.
pub(crate) fn decode_block(bytes: &[u8]) -> Result<Vec<String>, IndexError> {
    let raw = zstd::bulk::decompress(bytes, 64 << 20)
        .map_err(|err| IndexError::Corrupt(format!("a block of games: {err}")))?;
    let mut c = Cursor::new(&raw);
    let mut texts = Vec::new();
    while !c.is_empty() {
        let text = c
            .str()
            .ok_or_else(|| IndexError::Corrupt("a block of games".to_owned()))?;
        texts.push(text.to_owned());
    }
    Ok(texts)
}

pub(crate) fn encode_block(texts: &[String]) -> Result<Vec<u8>, IndexError> {
    let mut raw = Vec::new();
    for text in texts {
        varint::put_str(&mut raw, text);
    }
    zstd::bulk::compress(&raw, 6).map_err(|err| IndexError::Storage(err.to_string()))
}

/// The compressed bytes of block `block`, from its pieces.
pub(crate) fn read_block(
    table: &impl ReadableTable<u64, &'static [u8]>,
    block: u32,
) -> Result<Option<Vec<u8>>, IndexError> {
    let first = u64::from(block) << 16;
    let mut bytes = Vec::new();
    for piece in table.range(first..first + (1 << 16))? {
        bytes.extend_from_slice(piece?.1.value());
    }
    Ok((!bytes.is_empty()).then_some(bytes))
}

/// Writes block `block` as pieces (replacing the pieces it had).
pub(crate) fn write_block(
    table: &mut redb::Table<'_, u64, &[u8]>,
    block: u32,
    bytes: &[u8],
) -> Result<(), IndexError> {
    let first = u64::from(block) << 16;
    let old: Vec<u64> = table
        .range(first..first + (1 << 16))?
        .map(|item| item.map(|(k, _)| k.value()))
        .collect::<Result<_, _>>()?;
    for key in old {
        table.remove(key)?;
    }
    for (i, piece) in bytes.chunks(PIECE).enumerate() {
        table.insert(first + i as u64, piece)?;
    }
    Ok(())
}

/// The counts and options kept in the meta table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Meta {
    pub(crate) format: u32,
    pub(crate) max_ply: Option<u32>,
    pub(crate) next_id: u32,
    pub(crate) games: u64,
    pub(crate) positions: u64,
    /// The bits of a key that name its bucket (see `bucket`).
    pub(crate) bucket_bits: u64,
    /// Positions a bucket holds on average before the buckets are split.
    pub(crate) bucket_slots: u64,
}

impl Meta {
    pub(crate) fn read(
        table: &impl ReadableTable<&'static str, &'static [u8]>,
        path: &Path,
    ) -> Result<Meta, IndexError> {
        let get = |name: &str| -> Result<Option<u64>, IndexError> {
            Ok(table.get(name)?.and_then(|v| {
                let bytes: [u8; 8] = v.value().try_into().ok()?;
                Some(u64::from_le_bytes(bytes))
            }))
        };
        let format = get("format")?.ok_or_else(|| IndexError::Missing(path.to_owned()))? as u32;
        if format != u64::from(FORMAT) as u32 {
            return Err(IndexError::Version {
                path: path.to_owned(),
                found: format,
                expected: FORMAT,
            });
        }
        let corrupt = || IndexError::Corrupt("the meta table".to_owned());
        let max_ply = get("max_ply")?.ok_or_else(corrupt)?;
        Ok(Meta {
            format,
            max_ply: (max_ply != u64::MAX).then_some(max_ply as u32),
            next_id: get("next_id")?.ok_or_else(corrupt)? as u32,
            games: get("games")?.ok_or_else(corrupt)?,
            positions: get("positions")?.ok_or_else(corrupt)?,
            bucket_bits: get("bucket_bits")?.ok_or_else(corrupt)?,
            bucket_slots: get("bucket_slots")?.ok_or_else(corrupt)?,
        })
    }

    pub(crate) fn write(&self, table: &mut redb::Table<'_, &str, &[u8]>) -> Result<(), IndexError> {
        let fields = [
            ("format", u64::from(self.format)),
            ("max_ply", self.max_ply.map_or(u64::MAX, u64::from)),
            ("next_id", u64::from(self.next_id)),
            ("games", self.games),
            ("positions", self.positions),
            ("bucket_bits", self.bucket_bits),
            ("bucket_slots", self.bucket_slots),
        ];
        for (name, value) in fields {
            table.insert(name, &value.to_le_bytes()[..])?;
        }
        Ok(())
    }
}

/// The meta of a table opened read-only.
pub(crate) fn read_meta(
    table: &ReadOnlyTable<&'static str, &'static [u8]>,
    path: &Path,
) -> Result<Meta, IndexError> {
    Meta::read(table, path)
}
