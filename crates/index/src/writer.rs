//! [`IndexWriter`]: games in, one atomic commit per batch.

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    path::{Path, PathBuf},
};

use redb::{
    Database, DatabaseError, Durability, ReadableDatabase, ReadableTable, TableDefinition,
    TableHandle, WriteTransaction,
};

use crate::{
    GameInfo, IndexError, Prepared,
    bucket::{Bucket, bits40, resplit, split, width},
    entry::{Entry, Occurrence},
    game::Facts,
    key::{NO_MOVE, PosKey},
    store::{
        self, BLOCK, BLOCKS, DIGESTS, FORMAT, INFOS, META, Meta, PLAYERS, POSITIONS, decode_block,
        decode_ids, encode_block, encode_ids, player_key, read_block, write_block,
    },
};

/// How an index is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexOptions {
    /// The plies of each game's mainline that are indexed (`None`: all); lichess's explorer
    /// indexes 50.
    pub max_ply: Option<u32>,
    /// Games held in memory before they are committed (one atomic write each).
    pub batch_games: usize,
    /// Positions a bucket of the `positions` table holds on average before the buckets are
    /// split (fixed when the index is created; tests set it low to split small indexes).
    pub bucket_slots: u64,
}

impl Default for IndexOptions {
    fn default() -> IndexOptions {
        IndexOptions {
            max_ply: Some(50),
            batch_games: 100_000,
            bucket_slots: 32,
        }
    }
}

/// What became of a game given to [`IndexWriter::push`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pushed {
    /// Indexed under this id.
    Indexed(u32),
    /// The same moves from the same start as the game of this id (`tabia dedup`'s digest):
    /// not indexed again.
    Duplicate(u32),
}

/// A position of the batch: its key, its suffix in its bucket, the games that reached it.
type Keyed = (PosKey, Vec<u8>, Vec<Occurrence>);

/// The games pushed since the last commit.
#[derive(Debug, Default)]
struct Batch {
    first_id: u32,
    infos: Vec<GameInfo>,
    texts: Vec<String>,
    digests: HashMap<u128, u32>,
    /// Every position of every game of the batch (a game's repeated positions once).
    occurrences: Vec<(PosKey, Occurrence)>,
    players: HashMap<Vec<u8>, Vec<u32>>,
}

/// Writes an index: [`push`](IndexWriter::push) games (from [`prepare`](crate::prepare), on
/// any thread), [`commit`](IndexWriter::commit) them. Each commit is one atomic write: a
/// process killed mid-way leaves the index as the last commit left it, and adding the same
/// games again completes it (the games committed are found as duplicates). Other processes
/// can read the index ([`Index::open`](crate::Index::open)) while it is written; a second
/// writer is refused ([`IndexError::Busy`]).
///
/// ```
/// use tabia_index::{Index, IndexOptions, IndexWriter, Pushed, prepare};
/// use tabia_notation::pgn::RawGame;
///
/// let dir = tempfile::tempdir()?;
/// let mut writer = IndexWriter::create(dir.path(), IndexOptions::default())?;
/// for pgn in ["1. e4 e5 2. Nf3 1-0", "1. e4 c5 0-1", "1. e4 e5 2. Nf3 *"] {
///     let raw = RawGame { bytes: pgn.as_bytes().to_vec(), start: Default::default() };
///     let game = prepare(&raw, Some(50))?.expect("a game");
///     writer.push(game)?;
/// }
/// writer.commit()?;
/// assert_eq!(writer.games(), 2); // the third is a duplicate of the first
/// drop(writer);
/// let index = Index::open(dir.path())?;
/// assert_eq!(index.info()?.games, 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct IndexWriter {
    db: Database,
    path: PathBuf,
    meta: Meta,
    options: IndexOptions,
    batch: Batch,
    /// The committed games' digests, read by [`push`](IndexWriter::push): one read
    /// transaction from commit to commit (each opening one locks the file), not one a game.
    digests: Option<redb::ReadOnlyTable<u128, u32>>,
}

impl std::fmt::Debug for IndexWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IndexWriter")
            .field("path", &self.path)
            .field("meta", &self.meta)
            .finish_non_exhaustive()
    }
}

impl IndexWriter {
    /// Creates an index in `dir` (made if missing; refused when it holds an index already).
    ///
    /// # Errors
    ///
    /// [`IndexError::Exists`], or an error of the file system or storage.
    pub fn create(dir: &Path, options: IndexOptions) -> Result<IndexWriter, IndexError> {
        let file = store::file(dir);
        if file.exists() {
            return Err(IndexError::Exists(dir.to_owned()));
        }
        std::fs::create_dir_all(dir).map_err(|err| IndexError::Io(dir.to_owned(), err))?;
        let db = store::builder()
            .create(&file)
            .map_err(|err| busy(err, dir))?;
        let meta = Meta {
            format: FORMAT,
            max_ply: options.max_ply,
            next_id: 1,
            games: 0,
            positions: 0,
            bucket_bits: 0,
            bucket_slots: options.bucket_slots.max(1),
        };
        let txn = db.begin_write()?;
        {
            meta.write(&mut txn.open_table(META)?)?;
            txn.open_table(POSITIONS)?;
            txn.open_table(INFOS)?;
            txn.open_table(BLOCKS)?;
            txn.open_table(DIGESTS)?;
            txn.open_table(PLAYERS)?;
        }
        txn.commit()?;
        Ok(IndexWriter::with(db, dir, meta, options))
    }

    /// Opens the index in `dir` to add games (its `max_ply` is the one it was built with).
    ///
    /// # Errors
    ///
    /// [`IndexError::Missing`], [`IndexError::Busy`], [`IndexError::Version`], or an error of
    /// the storage.
    pub fn open(dir: &Path, batch_games: usize) -> Result<IndexWriter, IndexError> {
        let file = store::file(dir);
        if !file.exists() {
            return Err(IndexError::Missing(dir.to_owned()));
        }
        let db = store::builder().open(&file).map_err(|err| busy(err, dir))?;
        let meta = {
            let txn = db.begin_read()?;
            let table = txn
                .open_table(META)
                .map_err(|_| IndexError::Missing(dir.to_owned()))?;
            Meta::read(&table, dir)?
        };
        let options = IndexOptions {
            max_ply: meta.max_ply,
            batch_games,
            bucket_slots: meta.bucket_slots,
        };
        Ok(IndexWriter::with(db, dir, meta, options))
    }

    fn with(db: Database, dir: &Path, meta: Meta, options: IndexOptions) -> IndexWriter {
        IndexWriter {
            db,
            path: dir.to_owned(),
            batch: Batch {
                first_id: meta.next_id,
                ..Batch::default()
            },
            meta,
            options,
            digests: None,
        }
    }

    /// The options the index is built with.
    pub fn options(&self) -> IndexOptions {
        self.options
    }

    /// Games in the index, committed or not.
    pub fn games(&self) -> u64 {
        self.meta.games + self.batch.infos.len() as u64
    }

    /// Games pushed and not committed yet.
    pub fn pending(&self) -> usize {
        self.batch.infos.len()
    }

    /// Whether the batch is full ([`IndexOptions::batch_games`]): time to commit.
    pub fn is_full(&self) -> bool {
        self.pending() >= self.options.batch_games.max(1)
    }

    /// Adds a game to the batch, or finds it a duplicate of one in the index or the batch.
    ///
    /// # Errors
    ///
    /// An error of the storage (looking the digest up).
    pub fn push(&mut self, game: Prepared) -> Result<Pushed, IndexError> {
        let digest = (u128::from(game.digest.0[0]) << 64) | u128::from(game.digest.0[1]);
        if let Some(&id) = self.batch.digests.get(&digest) {
            return Ok(Pushed::Duplicate(id));
        }
        if self.meta.games > 0 {
            let table = match self.digests.take() {
                Some(table) => table,
                None => self.db.begin_read()?.open_table(DIGESTS)?,
            };
            let found = table.get(digest)?.map(|id| id.value());
            self.digests = Some(table);
            if let Some(id) = found {
                return Ok(Pushed::Duplicate(id));
            }
        }
        let id = self.batch.first_id + self.batch.infos.len() as u32;
        self.batch.digests.insert(digest, id);
        let moves = &game.info.moves;
        let mut seen = HashSet::new();
        for (ply, key) in game.keys.iter().enumerate() {
            // A position repeated within a game counts the game once, with its first move.
            if !seen.insert(*key) {
                continue;
            }
            let mv = moves.get(ply).copied().unwrap_or(NO_MOVE);
            self.batch.occurrences.push((
                *key,
                Occurrence {
                    game: id,
                    mv,
                    ply: ply as u32,
                },
            ));
        }
        for (name, white) in [(&game.info.white, true), (&game.info.black, false)] {
            if !name.trim().is_empty() && name.as_str() != "?" {
                self.batch
                    .players
                    .entry(player_key(name, white))
                    .or_default()
                    .push(id);
            }
        }
        self.batch.infos.push(game.info);
        self.batch.texts.push(game.text);
        Ok(Pushed::Indexed(id))
    }

    /// Writes the batch in one atomic, durable commit.
    ///
    /// # Errors
    ///
    /// An error of the storage; the index is then as the last commit left it.
    pub fn commit(&mut self) -> Result<(), IndexError> {
        // The next batch reads the digests this commit writes; and compaction needs no
        // reader holding old pages.
        self.digests = None;
        if self.batch.infos.is_empty() {
            return Ok(());
        }
        let batch = std::mem::take(&mut self.batch);
        let mut txn = self.db.begin_write()?;
        txn.set_durability(Durability::Immediate)?;
        let mut meta = self.meta;
        {
            let mut infos = txn.open_table(INFOS)?;
            let mut buf = Vec::new();
            for (i, info) in batch.infos.iter().enumerate() {
                buf.clear();
                info.encode(&mut buf);
                infos.insert(batch.first_id + i as u32, &buf[..])?;
            }
            write_blocks(&mut txn.open_table(BLOCKS)?, batch.first_id, &batch.texts)?;
            let mut digests = txn.open_table(DIGESTS)?;
            for (&digest, &id) in &batch.digests {
                digests.insert(digest, id)?;
            }
            let mut players = txn.open_table(PLAYERS)?;
            let mut names: Vec<_> = batch.players.iter().collect();
            names.sort_unstable();
            for (key, ids) in names {
                let mut all = match players.get(&key[..])? {
                    Some(old) => decode_ids(old.value())
                        .ok_or_else(|| IndexError::Corrupt("a player's games".to_owned()))?,
                    None => Vec::new(),
                };
                all.extend_from_slice(ids);
                buf.clear();
                encode_ids(&all, &mut buf);
                players.insert(&key[..], &buf[..])?;
            }
            let info_of = |id: u32, infos: &redb::Table<'_, u32, &[u8]>| -> Option<GameInfo> {
                if let Some(info) = id
                    .checked_sub(batch.first_id)
                    .and_then(|i| batch.infos.get(i as usize))
                {
                    return Some(info.clone());
                }
                let bytes = infos.get(id).ok()??;
                GameInfo::decode(bytes.value())
            };
            // The batch's games' facts, once each (not once a position).
            let batch_facts: Vec<Facts> = batch.infos.iter().map(GameInfo::facts).collect();
            let facts = |id: u32, infos: &redb::Table<'_, u32, &[u8]>| -> Option<Facts> {
                if let Some(facts) = id
                    .checked_sub(batch.first_id)
                    .and_then(|i| batch_facts.get(i as usize))
                {
                    return Some(*facts);
                }
                let bytes = infos.get(id).ok()??;
                GameInfo::decode(bytes.value()).map(|info| info.facts())
            };
            let corrupt = || IndexError::Corrupt("the positions of a bucket".to_owned());
            // Buckets for the positions there will be (at most every key of the batch new),
            // split before the batch goes in: a bucket never holds more than its share, and
            // inserting into it stays cheap.
            let mut occurrences = batch.occurrences;
            // By bucket and suffix, then position, then game: a position's games in a run,
            // in the order they came.
            occurrences.sort_unstable_by_key(|(key, o)| (bits40(key), *key, o.game));
            let distinct = occurrences.chunk_by(|a, b| a.0 == b.0).count() as u64;
            let upper = meta.positions + distinct;
            while upper > meta.bucket_slots.saturating_mul(1 << meta.bucket_bits)
                && meta.bucket_bits < 32
            {
                split_buckets(&txn, meta.bucket_bits as u32)?;
                meta.bucket_bits += 1;
            }
            let mut positions = txn.open_table(POSITIONS)?;
            let bits = meta.bucket_bits as u32;
            let width = width(bits);
            let mut runs = occurrences.chunk_by(|a, b| a.0 == b.0).peekable();
            while let Some(first) = runs.peek() {
                let (bucket_key, _) = split(&first[0].0, bits);
                let mut items: Vec<Keyed> = Vec::new();
                while let Some(run) = runs.next_if(|run| split(&run[0].0, bits).0 == bucket_key) {
                    let (_, suffix) = split(&run[0].0, bits);
                    items.push((run[0].0, suffix, run.iter().map(|(_, o)| *o).collect()));
                }
                let mut bucket = match positions.get(&bucket_key[..])? {
                    Some(bytes) => Bucket::decode(bytes.value(), width).ok_or_else(corrupt)?,
                    None => Bucket::default(),
                };
                for (key, suffix, occurrences) in items {
                    let suffix = &suffix[..];
                    // The slot of this position: a slot of the same suffix whose game
                    // reaches it (another is a position that shares 40 bits of key).
                    let mut found = None;
                    for i in bucket.find(suffix) {
                        let mut entry =
                            Entry::decode(&bucket.slots[i].1, true).ok_or_else(corrupt)?;
                        let (witness, ply) = entry.witness();
                        let info = info_of(witness, &infos).ok_or_else(corrupt)?;
                        if info.reaches_at(ply, &key) {
                            entry.set_move(info.move_at(ply as usize));
                            found = Some((i, entry));
                            break;
                        }
                    }
                    let (slot, old) = match found {
                        Some((i, entry)) => (Some(i), Some(entry)),
                        None => (None, None),
                    };
                    let merged = Entry::merge(old, &occurrences, |id| facts(id, &infos))
                        .ok_or_else(|| IndexError::Corrupt("a game's facts".to_owned()))?;
                    buf.clear();
                    merged.encode(&mut buf);
                    match slot {
                        Some(i) => bucket.slots[i].1 = buf.clone(),
                        None => {
                            meta.positions += 1;
                            bucket.insert(suffix, buf.clone());
                        }
                    }
                }
                buf.clear();
                bucket.encode(&mut buf);
                positions.insert(&bucket_key[..], &buf[..])?;
            }
            meta.games += batch.infos.len() as u64;
            meta.next_id = batch.first_id + batch.infos.len() as u32;
            meta.write(&mut txn.open_table(META)?)?;
        }
        txn.commit()?;
        self.meta = meta;
        self.batch.first_id = meta.next_id;
        Ok(())
    }
}

impl IndexWriter {
    /// Commits the batch, then gives the file's free pages back to the file system (redb's
    /// compaction): a built index is a third smaller. Compaction is skipped, not an error,
    /// when another process is reading the index.
    ///
    /// # Errors
    ///
    /// An error of the storage while committing.
    pub fn finish(mut self) -> Result<(), IndexError> {
        self.commit()?;
        self.rewrite_in_order()?;
        // Compaction needs no reader holding old pages: another process's read is no error.
        while let Ok(true) = self.db.compact() {}
        Ok(())
    }

    /// Writes the tables whose keys come in no order (positions, digests, players) again, in
    /// key order, in one atomic commit: B-tree pages filled by random inserts are left
    /// part-empty (a third of the positions' pages in a million-game build), pages filled in
    /// order are full.
    fn rewrite_in_order(&mut self) -> Result<(), IndexError> {
        let mut txn = self.db.begin_write()?;
        txn.set_durability(Durability::Immediate)?;
        for table in [POSITIONS, PLAYERS] {
            let name = format!("{}.sorted", table.name());
            let sorted = TableDefinition::<&[u8], &[u8]>::new(&name);
            {
                let old = txn.open_table(table)?;
                let mut new = txn.open_table(sorted)?;
                for item in old.iter()? {
                    let (key, value) = item?;
                    new.insert(key.value(), value.value())?;
                }
            }
            txn.delete_table(table)?;
            txn.rename_table(sorted, table)?;
        }
        let name = format!("{}.sorted", DIGESTS.name());
        let sorted = TableDefinition::<u128, u32>::new(&name);
        {
            let old = txn.open_table(DIGESTS)?;
            let mut new = txn.open_table(sorted)?;
            for item in old.iter()? {
                let (key, value) = item?;
                new.insert(key.value(), value.value())?;
            }
        }
        txn.delete_table(DIGESTS)?;
        txn.rename_table(sorted, DIGESTS)?;
        txn.commit()?;
        Ok(())
    }
}

/// Appends the texts of games `first..` to their blocks (the last block of the previous
/// commit is read back and completed).
fn write_blocks(
    blocks: &mut redb::Table<'_, u64, &[u8]>,
    first: u32,
    texts: &[String],
) -> Result<(), IndexError> {
    let mut id = first;
    let mut rest = texts;
    while !rest.is_empty() {
        let block = id / BLOCK;
        let slot = id % BLOCK;
        let mut current = if slot == 0 {
            Vec::new()
        } else {
            match read_block(blocks, block)? {
                Some(bytes) => decode_block(&bytes)?,
                None => Vec::new(),
            }
        };
        // Slots of ids never given (id 0) are empty texts.
        current.resize(slot as usize, String::new());
        let take = ((BLOCK - slot) as usize).min(rest.len());
        current.extend(rest[..take].iter().cloned());
        write_block(blocks, block, &encode_block(&current)?)?;
        id += take as u32;
        rest = &rest[take..];
    }
    Ok(())
}

/// Splits every bucket of the positions table in two by the first bit of its suffixes: buckets
/// of `bits + 1` bits. One bucket at a time, in key order, into a new table that then takes
/// the old one's name (the halves of bucket `b` are `2b` and `2b + 1`: written in order, they
/// fill their pages), so that a split costs the memory of one bucket, whatever the index.
fn split_buckets(txn: &WriteTransaction, bits: u32) -> Result<(), IndexError> {
    let corrupt = || IndexError::Corrupt("the positions of a bucket".to_owned());
    let name = format!("{}.split", POSITIONS.name());
    let halves = TableDefinition::<&[u8], &[u8]>::new(&name);
    {
        let old = txn.open_table(POSITIONS)?;
        let mut new = txn.open_table(halves)?;
        let mut buf = Vec::new();
        for item in old.iter()? {
            let (key, value) = item?;
            let bucket = Bucket::decode(value.value(), width(bits)).ok_or_else(corrupt)?;
            // Slots come in suffix order, and keep it in the halves.
            let mut parts: BTreeMap<[u8; 4], Bucket> = BTreeMap::new();
            for (suffix, entry) in bucket.slots {
                let (new_key, new_suffix) =
                    resplit(key.value(), &suffix, bits).ok_or_else(corrupt)?;
                parts
                    .entry(new_key)
                    .or_default()
                    .slots
                    .push((new_suffix, entry));
            }
            for (key, bucket) in parts {
                buf.clear();
                bucket.encode(&mut buf);
                new.insert(&key[..], &buf[..])?;
            }
        }
    }
    txn.delete_table(POSITIONS)?;
    txn.rename_table(halves, POSITIONS)?;
    Ok(())
}

fn busy(err: DatabaseError, dir: &Path) -> IndexError {
    match err {
        DatabaseError::DatabaseAlreadyOpen => IndexError::Busy(dir.to_owned()),
        other => other.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Filter, Index, Limits, Request, prepare};
    use tabia_notation::pgn::RawGame;

    /// Finishing frees the pages earlier commits left, and the index answers as before.
    #[test]
    fn finish_compacts_and_keeps_every_game() {
        let dir = tempfile::tempdir().expect("tempdir");
        let options = IndexOptions {
            max_ply: Some(50),
            batch_games: 10,
            ..IndexOptions::default()
        };
        let mut writer = IndexWriter::create(dir.path(), options).expect("create");
        let openings = ["e4 e5", "d4 d5", "c4 e5", "Nf3 d5", "e4 c5"];
        for i in 0..200 {
            // 200 distinct games: an opening, knights out and back i % 20 times, an end.
            let mut text = format!("[Round \"{i}\"]\n\n{} ", openings[i / 20 % 5]);
            for _ in 0..i % 20 {
                text += "Nc3 Nc6 Nb1 Nb8 ";
            }
            text += if i < 100 { "h3 *\n" } else { "a3 *\n" };
            let raw = RawGame {
                bytes: text.into_bytes(),
                start: Default::default(),
            };
            writer
                .push(prepare(&raw, Some(50)).expect("legal").expect("a game"))
                .expect("push");
            if writer.is_full() {
                writer.commit().expect("commit");
            }
        }
        writer.commit().expect("commit");
        let size = || {
            std::fs::metadata(store::file(dir.path()))
                .expect("file")
                .len()
        };
        let before = size();
        writer.finish().expect("finish");
        assert!(size() < before, "{} >= {before}", size());
        let index = Index::open(dir.path()).expect("open");
        let answer = index
            .explore(&Request::start(), &Filter::default(), Limits::default())
            .expect("explore");
        assert_eq!(answer.games, index.info().expect("info").games);
        assert_eq!(index.ids().expect("ids").len(), 200);
    }
}
