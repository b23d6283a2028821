//! [`Index`]: an index opened to read: explorer answers, the games of a position, a game's
//! PGN, a player's view.

use std::{
    collections::{BTreeMap, HashMap},
    path::{Path, PathBuf},
};

use redb::{ReadOnlyDatabase, ReadOnlyTable, ReadableDatabase};
use serde::Serialize;
use tabia_eco::Table;
use tabia_position::{
    Position,
    shakmaty::{Color, Move},
};

use crate::{
    Explorer, ExplorerMove, Filter, GameInfo, GameSummary, HistoryMonth, IndexError, Month,
    OpeningName, Player, PlayerExplorer, PlayerMove, PosKey, Request,
    bucket::{View, split, width},
    entry::{Entry, Occurrence, Ref},
    game::{Outcome, ungroup},
    key::{NO_MOVE, decode_move, uci},
    store::{
        self, BLOCK, BLOCKS, INFOS, META, Meta, PLAYERS, POSITIONS, decode_block, decode_ids,
        player_key,
    },
};

/// How much of an answer to give: lichess's `moves`, `topGames`, `recentGames`, `history`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Moves listed (lichess: 12).
    pub moves: usize,
    /// Best rated games listed (lichess: 4 in `/lichess`, 15 in `/masters`).
    pub top_games: usize,
    /// Most recent games listed (lichess: 4).
    pub recent_games: usize,
    /// The results month by month ([`Explorer::history`], lichess's `history=true`): the
    /// months with a game.
    pub history: bool,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            moves: 12,
            top_games: 4,
            recent_games: 4,
            history: false,
        }
    }
}

/// What `tabia index info` tells of an index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IndexInfo {
    /// The index's folder.
    pub path: PathBuf,
    /// The format of its values.
    pub format: u32,
    /// The plies indexed of each game (`None`: all).
    pub max_ply: Option<u32>,
    /// Games.
    pub games: u64,
    /// Distinct positions.
    pub positions: u64,
    /// The size of the file, in bytes.
    pub bytes: u64,
    /// What each table holds.
    pub tables: Vec<TableSize>,
}

/// The entries and bytes of one table of the index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TableSize {
    /// `positions`, `games` (the texts, compressed), `infos`, `digests`, `players`, `meta`.
    pub name: &'static str,
    /// Entries.
    pub entries: u64,
    /// Bytes of keys and values.
    pub stored: u64,
    /// Bytes of the tree's branch pages and metadata.
    pub metadata: u64,
    /// Bytes of pages not filled.
    pub fragmented: u64,
}

fn table_size(
    name: &'static str,
    table: &impl redb::ReadableTableMetadata,
) -> Result<TableSize, IndexError> {
    let stats = table.stats()?;
    Ok(TableSize {
        name,
        entries: table.len()?,
        stored: stats.stored_bytes(),
        metadata: stats.metadata_bytes(),
        fragmented: stats.fragmented_bytes(),
    })
}

/// A page of the games that reached a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GamesPage {
    /// Games that reached the position and pass the filter, in all.
    pub total: usize,
    /// The page asked for, in the order they were indexed: id and info.
    pub games: Vec<(u32, GameInfo)>,
}

/// The figures of one move from a position as the index holds them, every game counted
/// whatever its result: what an opening tree needs of a position (`tabia tree --index`),
/// where [`Index::explore`] gives lichess's answer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MoveFigures {
    /// The move; `None` for the games that ended in the position (or whose indexed plies
    /// did).
    pub mv: Option<Move>,
    /// Games White won.
    pub white: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games Black won.
    pub black: u64,
    /// Games with an unknown result.
    pub other: u64,
    /// The sum of the rated games' ratings (each game's [`GameInfo::rating`]: the mean of
    /// the players').
    pub rating_sum: u64,
    /// The rated games.
    pub rated: u64,
    /// The first and last month of the games, of those whose year is known.
    pub months: Option<(Month, Month)>,
}

impl MoveFigures {
    /// Every game that played the move (or ended).
    pub fn games(&self) -> u64 {
        self.white + self.draws + self.black + self.other
    }

    /// The mean rating of the rated games (0 when none is).
    pub fn average_rating(&self) -> u32 {
        self.rating_sum.checked_div(self.rated).unwrap_or(0) as u32
    }

    fn add(&mut self, outcome: Outcome, rating: Option<u16>, month: Option<Month>, n: u64) {
        match outcome {
            Outcome::WhiteWins => self.white += n,
            Outcome::Draw => self.draws += n,
            Outcome::BlackWins => self.black += n,
            Outcome::Unknown => self.other += n,
        }
        if let Some(r) = rating {
            self.rating_sum += u64::from(r);
            self.rated += 1;
        }
        if let Some(m) = month {
            self.months = Some(match self.months {
                None => (m, m),
                Some((first, last)) => (first.min(m), last.max(m)),
            });
        }
    }
}

/// An index opened to read. Any number of processes may read an index while one writes it;
/// each call sees the index as its last commit left it.
///
/// ```
/// use tabia_index::{Filter, Index, IndexOptions, Limits, Request};
///
/// let dir = tempfile::tempdir()?;
/// let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/pgn/ok/sample.pgn");
/// Index::build(dir.path(), &[file.into()], IndexOptions::default(), 1)?;
/// let index = Index::open(dir.path())?;
/// let answer = index.explore(&Request::start(), &Filter::default(), Limits::default())?;
/// assert_eq!(answer.games, 1);
/// assert_eq!(answer.moves.len(), 1);
/// let pgn = index.pgn(1)?.expect("game 1");
/// assert!(pgn.starts_with("[Event "));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Index {
    db: ReadOnlyDatabase,
    path: PathBuf,
    meta: Meta,
}

impl std::fmt::Debug for Index {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Index")
            .field("path", &self.path)
            .field("meta", &self.meta)
            .finish_non_exhaustive()
    }
}

impl Index {
    /// Opens the index in `dir` to read.
    ///
    /// # Errors
    ///
    /// [`IndexError::Missing`], [`IndexError::Version`], or an error of the storage.
    pub fn open(dir: &Path) -> Result<Index, IndexError> {
        let file = store::file(dir);
        if !file.exists() {
            return Err(IndexError::Missing(dir.to_owned()));
        }
        let db = match store::builder().open_read_only(&file) {
            Ok(db) => db,
            // A writer killed mid-way leaves a file to recover: opening it to write recovers
            // it (its last commit), when no other writer has it.
            Err(redb::DatabaseError::RepairAborted | redb::DatabaseError::Storage(_)) => {
                drop(store::builder().open(&file)?);
                store::builder().open_read_only(&file)?
            }
            Err(err) => return Err(err.into()),
        };
        let meta = {
            let txn = db.begin_read()?;
            let table = txn
                .open_table(META)
                .map_err(|_| IndexError::Missing(dir.to_owned()))?;
            store::read_meta(&table, dir)?
        };
        Ok(Index {
            db,
            path: dir.to_owned(),
            meta,
        })
    }

    /// The plies indexed of each game (`None`: all).
    pub fn max_ply(&self) -> Option<u32> {
        self.meta.max_ply
    }

    /// Which commit the index is at: it changes with every commit that adds a game (an `add`
    /// or a build's batch), so an answer computed at one generation holds until it changes
    /// (`tabia serve` keeps the answers of the most asked positions so).
    ///
    /// ```
    /// use tabia_index::{Index, IndexOptions};
    ///
    /// let dir = tempfile::tempdir()?;
    /// let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/pgn/ok/sample.pgn");
    /// let files = [std::path::PathBuf::from(file)];
    /// Index::build(dir.path(), &files, IndexOptions::default(), 1)?;
    /// let before = Index::open(dir.path())?.generation()?;
    /// let more = tempfile::NamedTempFile::new()?;
    /// std::fs::write(more.path(), "1. h4 h5 2. a4 a5 *\n")?;
    /// Index::add(dir.path(), &[more.path().to_owned()], 1)?;
    /// assert_ne!(Index::open(dir.path())?.generation()?, before);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// An error of the storage.
    pub fn generation(&self) -> Result<u64, IndexError> {
        let txn = self.db.begin_read()?;
        let meta = store::read_meta(&txn.open_table(META)?, &self.path)?;
        Ok(u64::from(meta.next_id))
    }

    /// The index's counts, as its last commit left them.
    ///
    /// # Errors
    ///
    /// An error of the storage.
    pub fn info(&self) -> Result<IndexInfo, IndexError> {
        let txn = self.db.begin_read()?;
        let meta = store::read_meta(&txn.open_table(META)?, &self.path)?;
        let bytes = std::fs::metadata(store::file(&self.path))
            .map_err(|err| IndexError::Io(self.path.clone(), err))?
            .len();
        let tables = vec![
            table_size("positions", &txn.open_table(POSITIONS)?)?,
            table_size("games", &txn.open_table(BLOCKS)?)?,
            table_size("infos", &txn.open_table(INFOS)?)?,
            table_size("digests", &txn.open_table(store::DIGESTS)?)?,
            table_size("players", &txn.open_table(PLAYERS)?)?,
        ];
        Ok(IndexInfo {
            path: self.path.clone(),
            format: meta.format,
            max_ply: meta.max_ply,
            games: meta.games,
            positions: meta.positions,
            bytes,
            tables,
        })
    }

    /// What the index keeps of game `id`.
    ///
    /// # Errors
    ///
    /// An error of the storage, or a damaged value.
    pub fn game_info(&self, id: u32) -> Result<Option<GameInfo>, IndexError> {
        let txn = self.db.begin_read()?;
        let infos = txn.open_table(INFOS)?;
        load_info(&infos, id)
    }

    /// Game `id` in the export form, as `tabia pgn` writes it.
    ///
    /// # Errors
    ///
    /// An error of the storage, or a damaged block.
    pub fn pgn(&self, id: u32) -> Result<Option<String>, IndexError> {
        let txn = self.db.begin_read()?;
        let blocks = txn.open_table(BLOCKS)?;
        let Some(bytes) = store::read_block(&blocks, id / BLOCK)? else {
            return Ok(None);
        };
        let texts = decode_block(&bytes)?;
        Ok(texts
            .into_iter()
            .nth((id % BLOCK) as usize)
            .filter(|t| !t.is_empty()))
    }

    /// Games `ids` in the export form, in that order; each block of games is decompressed
    /// once (the games of a page are often in the same blocks).
    ///
    /// # Errors
    ///
    /// An error of the storage, or a damaged block.
    pub fn pgns(&self, ids: &[u32]) -> Result<Vec<Option<String>>, IndexError> {
        let txn = self.db.begin_read()?;
        let blocks = txn.open_table(BLOCKS)?;
        let mut cache: HashMap<u32, Vec<String>> = HashMap::new();
        let mut out = Vec::with_capacity(ids.len());
        for &id in ids {
            let block = id / BLOCK;
            if let std::collections::hash_map::Entry::Vacant(slot) = cache.entry(block) {
                let texts = match store::read_block(&blocks, block)? {
                    Some(bytes) => decode_block(&bytes)?,
                    None => Vec::new(),
                };
                slot.insert(texts);
            }
            out.push(
                cache
                    .get(&block)
                    .and_then(|texts| texts.get((id % BLOCK) as usize))
                    .filter(|t| !t.is_empty())
                    .cloned(),
            );
        }
        Ok(out)
    }

    /// The explorer's answer for a position: the moves played from it with their results, the
    /// best rated and most recent games, the opening, counting the games `filter` admits.
    ///
    /// # Errors
    ///
    /// An error of the storage, or a damaged value.
    pub fn explore(
        &self,
        request: &Request,
        filter: &Filter,
        limits: Limits,
    ) -> Result<Explorer, IndexError> {
        let txn = self.db.begin_read()?;
        let positions = txn.open_table(POSITIONS)?;
        let infos = txn.open_table(INFOS)?;
        let meta = store::read_meta(&txn.open_table(META)?, &self.path)?;
        let key = PosKey::of(&request.position);
        let entry = find(&positions, &infos, &meta, &key, false)?;
        let mut moves: HashMap<u16, MoveFigures> = HashMap::new();
        let mut refs: Vec<Ref> = Vec::new();
        let mut games = 0;
        // White's wins, draws and Black's wins by month code, for `history`.
        let mut months: BTreeMap<u16, [u64; 3]> = BTreeMap::new();
        match entry {
            None => {}
            Some(Entry::One(Occurrence { game, mv, .. })) => {
                if let Some(info) = load_info(&infos, game)?
                    && filter.admits(info.speed, info.band(), info.month())
                {
                    let facts = info.facts();
                    games += 1;
                    if mv != NO_MOVE {
                        let month = months.entry(facts.month).or_default();
                        match info.outcome {
                            Outcome::WhiteWins => month[0] += 1,
                            Outcome::Draw => month[1] += 1,
                            Outcome::BlackWins => month[2] += 1,
                            Outcome::Unknown => {}
                        }
                    }
                    moves
                        .entry(mv)
                        .or_default()
                        .add(info.outcome, facts.rating, None, 1);
                    refs.push(Ref {
                        month: facts.month,
                        group: facts.group,
                        game,
                        rating: facts.rating.unwrap_or(0),
                        mv,
                    });
                }
            }
            Some(Entry::Many(many)) => {
                for cell in &many.cells {
                    if admits(filter, cell.month, cell.group) {
                        games += cell.games();
                        if cell.mv != NO_MOVE {
                            let month = months.entry(cell.month).or_default();
                            month[0] += u64::from(cell.white);
                            month[1] += u64::from(cell.draws);
                            month[2] += u64::from(cell.black);
                        }
                        let tally = moves.entry(cell.mv).or_default();
                        tally.white += u64::from(cell.white);
                        tally.draws += u64::from(cell.draws);
                        tally.black += u64::from(cell.black);
                        tally.other += u64::from(cell.other);
                        tally.rating_sum += cell.rating_sum;
                        tally.rated += u64::from(cell.rated);
                    }
                }
                refs.extend(
                    many.refs
                        .iter()
                        .filter(|r| admits(filter, r.month, r.group))
                        .copied(),
                );
            }
        }
        let pos = &request.position;
        let mut listed: Vec<(u16, MoveFigures)> =
            moves.into_iter().filter(|(mv, _)| *mv != NO_MOVE).collect();
        listed.sort_by(|a, b| b.1.games().cmp(&a.1.games()).then(a.0.cmp(&b.0)));
        let (mut white, mut draws, mut black) = (0, 0, 0);
        let mut out_moves = Vec::new();
        for (mv, tally) in &listed {
            white += tally.white;
            draws += tally.draws;
            black += tally.black;
            if out_moves.len() >= limits.moves {
                continue;
            }
            let Some(m) = decode_move(pos, *mv) else {
                continue;
            };
            let game = match (tally.games(), refs.iter().find(|r| r.mv == *mv)) {
                (1, Some(r)) => summary(&infos, pos, r)?,
                _ => None,
            };
            out_moves.push(ExplorerMove {
                uci: uci(pos, m),
                san: pos.san(m).to_string(),
                average_rating: tally.average_rating(),
                white: tally.white,
                draws: tally.draws,
                black: tally.black,
                game,
            });
        }
        let top = first_by_key(&refs, limits.top_games, |r| {
            (std::cmp::Reverse(r.rating), std::cmp::Reverse(r.game))
        });
        let top_games = summaries(&infos, pos, top.iter())?;
        let recent = first_by_key(&refs, limits.recent_games, |r| std::cmp::Reverse(r.game));
        let recent_games = summaries(&infos, pos, recent.iter())?;
        Ok(Explorer {
            white,
            draws,
            black,
            moves: out_moves,
            top_games,
            recent_games,
            opening: opening(request),
            games,
            history: limits.history.then(|| history(&months)),
        })
    }

    /// Every move played from `position` (by the games that reached it within the indexed
    /// plies, by any move order, counted once each as on their first visit) and the games
    /// that ended there, with their figures, counting the games `filter` admits; most played
    /// first, ties in the order of their codes.
    ///
    /// ```
    /// use tabia_index::{Filter, Index, IndexOptions};
    /// use tabia_position::Position;
    ///
    /// let dir = tempfile::tempdir()?;
    /// let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/pgn/ok/sample.pgn");
    /// Index::build(dir.path(), &[file.into()], IndexOptions::default(), 1)?;
    /// let index = Index::open(dir.path())?;
    /// let start = Position::new();
    /// let moves = index.moves(&start, &Filter::default())?;
    /// assert_eq!(moves.len(), 1);
    /// assert_eq!(moves[0].mv.map(|m| start.san(m).to_string()).as_deref(), Some("e4"));
    /// assert_eq!(moves[0].games(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// An error of the storage, or a damaged value.
    pub fn moves(
        &self,
        position: &Position,
        filter: &Filter,
    ) -> Result<Vec<MoveFigures>, IndexError> {
        let txn = self.db.begin_read()?;
        let positions = txn.open_table(POSITIONS)?;
        let infos = txn.open_table(INFOS)?;
        let meta = store::read_meta(&txn.open_table(META)?, &self.path)?;
        let key = PosKey::of(position);
        let mut moves: HashMap<u16, MoveFigures> = HashMap::new();
        match find(&positions, &infos, &meta, &key, false)? {
            None => {}
            Some(entry) => match entry {
                Entry::One(Occurrence { game, mv, .. }) => {
                    if let Some(info) = load_info(&infos, game)?
                        && filter.admits(info.speed, info.band(), info.month())
                    {
                        moves.entry(mv).or_default().add(
                            info.outcome,
                            info.rating(),
                            info.month(),
                            1,
                        );
                    }
                }
                Entry::Many(many) => {
                    for cell in many
                        .cells
                        .iter()
                        .filter(|c| admits(filter, c.month, c.group))
                    {
                        let figures = moves.entry(cell.mv).or_default();
                        figures.white += u64::from(cell.white);
                        figures.draws += u64::from(cell.draws);
                        figures.black += u64::from(cell.black);
                        figures.other += u64::from(cell.other);
                        figures.rating_sum += cell.rating_sum;
                        figures.rated += u64::from(cell.rated);
                        // A cell's rated games are counted above: add its month alone.
                        figures.add(Outcome::Unknown, None, Month::from_code(cell.month), 0);
                    }
                }
            },
        }
        let mut listed: Vec<(u16, MoveFigures)> = moves
            .into_iter()
            .filter_map(|(code, mut figures)| {
                if code != NO_MOVE {
                    figures.mv = Some(decode_move(position, code)?);
                }
                Some((code, figures))
            })
            .collect();
        listed.sort_by(|a, b| b.1.games().cmp(&a.1.games()).then(a.0.cmp(&b.0)));
        Ok(listed.into_iter().map(|(_, figures)| figures).collect())
    }

    /// The games that reached the position of `request` (by any move order, within the
    /// indexed plies) and that `filter` admits, in the order they were indexed: `limit` of
    /// them from `offset`.
    ///
    /// # Errors
    ///
    /// An error of the storage, or a damaged value.
    pub fn games(
        &self,
        position: &Position,
        filter: &Filter,
        offset: usize,
        limit: usize,
    ) -> Result<GamesPage, IndexError> {
        let txn = self.db.begin_read()?;
        let positions = txn.open_table(POSITIONS)?;
        let infos = txn.open_table(INFOS)?;
        let meta = store::read_meta(&txn.open_table(META)?, &self.path)?;
        let key = PosKey::of(position);
        let ids = match find(&positions, &infos, &meta, &key, true)? {
            None => Vec::new(),
            Some(Entry::One(o)) => vec![o.game],
            Some(Entry::Many(many)) => many.games,
        };
        if filter.is_all() {
            let mut games = Vec::new();
            for &id in ids.iter().skip(offset).take(limit) {
                if let Some(info) = load_info(&infos, id)? {
                    games.push((id, info));
                }
            }
            return Ok(GamesPage {
                total: ids.len(),
                games,
            });
        }
        let mut total = 0;
        let mut games = Vec::new();
        for id in ids {
            let Some(info) = load_info(&infos, id)? else {
                continue;
            };
            if filter.admits(info.speed, info.band(), info.month()) {
                if total >= offset && games.len() < limit {
                    games.push((id, info));
                }
                total += 1;
            }
        }
        Ok(GamesPage { total, games })
    }

    /// What `player` played with `color` from the position of `request` and how they scored
    /// (lichess's personal explorer): their games are replayed, so that the answer needs no
    /// index of its own.
    ///
    /// # Errors
    ///
    /// An error of the storage, or a damaged value.
    pub fn player(
        &self,
        player: &str,
        color: Color,
        request: &Request,
        filter: &Filter,
        limits: Limits,
    ) -> Result<PlayerExplorer, IndexError> {
        let txn = self.db.begin_read()?;
        let players = txn.open_table(PLAYERS)?;
        let infos = txn.open_table(INFOS)?;
        let ids = match players.get(&player_key(player, color == Color::White)[..])? {
            Some(bytes) => decode_ids(bytes.value())
                .ok_or_else(|| IndexError::Corrupt("a player's games".to_owned()))?,
            None => Vec::new(),
        };
        let target = request.position.key();
        let mut moves: HashMap<u16, (MoveFigures, i64, u64)> = HashMap::new();
        let mut reached: Vec<Ref> = Vec::new();
        for id in ids {
            let Some(info) = load_info(&infos, id)? else {
                continue;
            };
            if !filter.admits(info.speed, info.band(), info.month()) {
                continue;
            }
            let Some(mv) = next_move(&info, &target) else {
                continue;
            };
            let facts = info.facts();
            reached.push(Ref {
                month: facts.month,
                group: facts.group,
                game: id,
                rating: facts.rating.unwrap_or(0),
                mv,
            });
            if mv == NO_MOVE {
                continue;
            }
            let entry = moves.entry(mv).or_default();
            entry.0.add(info.outcome, info.elo(!color), None, 1);
            let score = match (info.outcome, color) {
                (Outcome::WhiteWins, Color::White) | (Outcome::BlackWins, Color::Black) => 1,
                (Outcome::WhiteWins, Color::Black) | (Outcome::BlackWins, Color::White) => -1,
                _ => 0,
            };
            if info.outcome != Outcome::Unknown {
                entry.1 += score;
                entry.2 += 1;
            }
        }
        let pos = &request.position;
        let mut listed: Vec<_> = moves.into_iter().collect();
        listed.sort_by(|a, b| b.1.0.games().cmp(&a.1.0.games()).then(a.0.cmp(&b.0)));
        let (mut white, mut draws, mut black) = (0, 0, 0);
        let mut out = Vec::new();
        for (mv, (tally, score, decided)) in &listed {
            white += tally.white;
            draws += tally.draws;
            black += tally.black;
            if out.len() >= limits.moves {
                continue;
            }
            let Some(m) = decode_move(pos, *mv) else {
                continue;
            };
            let opponents = tally.average_rating();
            let performance = if *decided == 0 {
                0
            } else {
                opponents as i32 + (400 * *score / *decided as i64) as i32
            };
            let game = match (tally.games(), reached.iter().find(|r| r.mv == *mv)) {
                (1, Some(r)) => summary(&infos, pos, r)?,
                _ => None,
            };
            out.push(PlayerMove {
                uci: uci(pos, m),
                san: pos.san(m).to_string(),
                average_opponent_rating: opponents,
                performance,
                white: tally.white,
                draws: tally.draws,
                black: tally.black,
                game,
            });
        }
        let recent = first_by_key(&reached, limits.recent_games, |r| std::cmp::Reverse(r.game));
        let recent_games = summaries(&infos, pos, recent.iter())?;
        Ok(PlayerExplorer {
            white,
            draws,
            black,
            moves: out,
            recent_games,
            opening: opening(request),
            queue_position: 0,
        })
    }

    /// The ids of every game, in order (for merging and exporting).
    ///
    /// # Errors
    ///
    /// An error of the storage.
    pub fn ids(&self) -> Result<Vec<u32>, IndexError> {
        let txn = self.db.begin_read()?;
        let infos = txn.open_table(INFOS)?;
        let mut ids = Vec::new();
        for item in redb::ReadableTable::iter(&infos)? {
            ids.push(item?.0.value());
        }
        Ok(ids)
    }
}

/// The move a game played from the position with `target` key (its first visit), within
/// its indexed moves: `NO_MOVE` when it ended there or its indexed moves did; `None` when it
/// never reached it.
/// The first `k` refs in the order of `key`, as a stable sort would give them (ties in the
/// order of `refs`), without sorting the others: a position that many games reached keeps
/// thousands of refs, and an answer shows a few.
fn first_by_key<K: Ord>(refs: &[Ref], k: usize, key: impl Fn(&Ref) -> K) -> Vec<Ref> {
    let key = |&i: &usize| (key(&refs[i]), i);
    let mut order: Vec<usize> = (0..refs.len()).collect();
    if k == 0 {
        return Vec::new();
    }
    if order.len() > k {
        order.select_nth_unstable_by_key(k - 1, key);
        order.truncate(k);
    }
    order.sort_unstable_by_key(key);
    order.into_iter().map(|i| refs[i]).collect()
}

pub(crate) fn next_move(info: &GameInfo, target: &tabia_position::PositionKey) -> Option<u16> {
    let mut pos = info.start().ok()?;
    for (i, &code) in info.moves.iter().enumerate() {
        if pos.key() == *target {
            return Some(code);
        }
        let m = decode_move(&pos, code)?;
        pos.play_unchecked(m);
        if i + 1 == info.moves.len() && pos.key() == *target {
            return Some(NO_MOVE);
        }
    }
    (info.moves.is_empty() && pos.key() == *target).then_some(NO_MOVE)
}

/// Results by month of the games that played a move from the position (as the answer's
/// totals), the months with a game in order (lichess's `history`); games of no known month are
/// left out.
fn history(months: &BTreeMap<u16, [u64; 3]>) -> Vec<HistoryMonth> {
    months
        .iter()
        .filter_map(|(&code, &[white, draws, black])| {
            Some(HistoryMonth {
                month: Month::from_code(code)?.to_string(),
                white,
                draws,
                black,
            })
        })
        .collect()
}

fn admits(filter: &Filter, month: u16, group: u8) -> bool {
    match ungroup(group) {
        Some((speed, band)) => filter.admits(speed, band, Month::from_code(month)),
        None => false,
    }
}

/// The entry of the position of `key`: the slots of its bucket with its suffix, the one whose
/// game reaches it (the move of an [`Entry::One`] set from that game).
fn find(
    positions: &ReadOnlyTable<&'static [u8], &'static [u8]>,
    infos: &ReadOnlyTable<u32, &'static [u8]>,
    meta: &Meta,
    key: &PosKey,
    with_games: bool,
) -> Result<Option<Entry>, IndexError> {
    let corrupt = || IndexError::Corrupt("the figures of a position".to_owned());
    let bits = meta.bucket_bits as u32;
    let (bucket, suffix) = split(key, bits);
    let Some(bytes) = positions.get(&bucket[..])? else {
        return Ok(None);
    };
    let view = View::new(bytes.value(), width(bits)).ok_or_else(corrupt)?;
    for slot in view.find(&suffix).ok_or_else(corrupt)? {
        let mut entry = Entry::decode(slot, with_games).ok_or_else(corrupt)?;
        let (witness, ply) = entry.witness();
        let Some(info) = load_info(infos, witness)? else {
            continue;
        };
        if info.reaches_at(ply, key) {
            entry.set_move(info.move_at(ply as usize));
            return Ok(Some(entry));
        }
    }
    Ok(None)
}

fn load_info(
    infos: &ReadOnlyTable<u32, &'static [u8]>,
    id: u32,
) -> Result<Option<GameInfo>, IndexError> {
    match infos.get(id)? {
        None => Ok(None),
        Some(bytes) => GameInfo::decode(bytes.value())
            .map(Some)
            .ok_or_else(|| IndexError::Corrupt(format!("the info of game {id}"))),
    }
}

fn summaries<'a>(
    infos: &ReadOnlyTable<u32, &'static [u8]>,
    pos: &Position,
    refs: impl Iterator<Item = &'a Ref>,
) -> Result<Vec<GameSummary>, IndexError> {
    let mut out = Vec::new();
    for r in refs {
        if let Some(summary) = summary(infos, pos, r)? {
            out.push(summary);
        }
    }
    Ok(out)
}

fn summary(
    infos: &ReadOnlyTable<u32, &'static [u8]>,
    pos: &Position,
    r: &Ref,
) -> Result<Option<GameSummary>, IndexError> {
    let Some(info) = load_info(infos, r.game)? else {
        return Ok(None);
    };
    Ok(Some(GameSummary::new(
        r.game,
        &info,
        decode_move(pos, r.mv).map(|m| uci(pos, m)),
    )))
}

impl GameSummary {
    /// The summary of game `id`, with the move it played from the position asked for.
    pub fn new(id: u32, info: &GameInfo, uci: Option<String>) -> GameSummary {
        let month = info.month();
        GameSummary {
            uci,
            id: id.to_string(),
            winner: info.outcome.winner().map(str::to_owned),
            speed: info.speed.to_string(),
            white: Player {
                name: info.white.clone(),
                rating: info.white_elo,
            },
            black: Player {
                name: info.black.clone(),
                rating: info.black_elo,
            },
            year: month.map(Month::year),
            month: month.map(|m| m.to_string()),
        }
    }
}

/// The opening of the position asked for: from the standard start, the last named position
/// of the moves played (lichess's rule); from another position, that position's name.
fn opening(request: &Request) -> Option<OpeningName> {
    let table = Table::embedded();
    let named = if request.from_start && request.start.variant() == tabia_position::Variant::Chess {
        let mut classifier = table.classifier();
        for &m in &request.moves {
            if !classifier.play(m) {
                break;
            }
        }
        classifier.found().map(|m| m.opening)
    } else {
        None
    };
    named
        .or_else(|| table.classify_position(&request.position))
        .map(|o| OpeningName {
            eco: o.eco().to_owned(),
            name: o.name().to_owned(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_by_key_is_the_head_of_a_stable_sort() {
        // Ties on purpose: few ratings, games repeated with other moves.
        let refs: Vec<Ref> = (0..500u32)
            .map(|i| Ref {
                month: 0,
                group: 0,
                game: i % 97,
                rating: (i * 7 % 5) as u16,
                mv: i as u16,
            })
            .collect();
        let key = |r: &Ref| (std::cmp::Reverse(r.rating), std::cmp::Reverse(r.game));
        let mut sorted = refs.clone();
        sorted.sort_by_key(key);
        for k in [0, 1, 4, 15, 499, 500, 600] {
            let head: Vec<Ref> = sorted.iter().take(k).copied().collect();
            assert_eq!(first_by_key(&refs, k, key), head, "k = {k}");
        }
    }
}
