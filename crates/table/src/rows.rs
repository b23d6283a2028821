//! Rows accumulated into Arrow builders, finished into record batches.

use std::{cell::RefCell, sync::Arc};

use arrow_array::{
    Array, ArrayRef, ArrowPrimitiveType, Int32Array, Int64Array, ListArray, PrimitiveArray,
    RecordBatch, StringArray, StructArray, UInt8Array, UInt64Array,
    builder::{
        Date32Builder, Int16Builder, Int32Builder, Int64Builder, ListBuilder, MapBuilder,
        StringBuilder, Time32SecondBuilder, UInt64Builder,
    },
    types::{Int32Type, Int64Type},
};
use arrow_buffer::{ArrowNativeType, BooleanBuffer, NullBuffer, OffsetBuffer};
use arrow_schema::{ArrowError, DataType, Field, Fields};
use tabia_notation::pgn::{Eval, RawGame, Score};

use crate::{
    BoardRecord,
    board::board_columns,
    read::{Ply, Scratch, movetext_text, read_game},
    record::{GameRecord, MoveRecord, ReadOptions},
    schema::{
        Columns, LICHESS_HEAD, LICHESS_INT16, LICHESS_TAIL, OUR_TAGS, games_schema, move_fields,
        moves_schema,
    },
};

/// Where a game goes with `--partition`: its year and month (from `UTCDate`, else `Date`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PartitionKey {
    /// The year, when known.
    pub year: Option<i32>,
    /// The month (1–12), when known.
    pub month: Option<u32>,
}

/// Games (and their moves) accumulated column by column; [`Rows::finish`] makes the record
/// batches. Filled on the worker threads, one per batch of games.
///
/// ```
/// use tabia_notation::pgn::{Origin, RawGame};
/// use tabia_table::{Columns, GameRecord, ReadOptions, Rows};
///
/// let raw = RawGame { bytes: b"[WhiteElo \"1500\"]\n\n1. e4 *".to_vec(), start: Origin::default() };
/// let mut rows = Rows::default();
/// rows.push("games.pgn", &GameRecord::read(&raw, 1, ReadOptions { moves: true, ..ReadOptions::default() }));
/// let tables = rows.finish(Columns::default(), true)?;
/// assert_eq!(tables.games.num_rows(), 1);
/// assert_eq!(tables.moves.map(|m| m.num_rows()), Some(1));
/// # Ok::<_, arrow_schema::ArrowError>(())
/// ```
pub struct Rows {
    head: [StringBuilder; 7],
    int16: [Int16Builder; 4],
    utc_date: Date32Builder,
    utc_time: Time32SecondBuilder,
    tail: [StringBuilder; 4],
    movetext: StringBuilder,
    file: StringBuilder,
    game: Int64Builder,
    offset: Int64Builder,
    line: Int64Builder,
    our_tags: [StringBuilder; 4],
    ply_count: Int32Builder,
    eco: StringBuilder,
    opening: StringBuilder,
    final_zobrist: UInt64Builder,
    tags: MapBuilder<StringBuilder, StringBuilder>,
    errors: ListBuilder<StringBuilder>,
    warnings: ListBuilder<StringBuilder>,
    moves: MoveColumns,
    /// For each game, where its moves start in `moves` (and one past the last).
    move_offsets: Vec<i32>,
    partitions: Vec<PartitionKey>,
    /// The plies of the game being read by [`Rows::read`].
    scratch: RefCell<Scratch>,
    /// The last game [`Rows::read`] read; its tag pairs' strings are reused for the next.
    record: Option<GameRecord>,
    spare_tags: Vec<(String, String)>,
    /// The bytes of the game being read ([`RawGame::visit_in`]), kept from game to game.
    game_bytes: Vec<u8>,
    /// Which tags of a game have a column of their own (reused from game to game).
    used: Vec<bool>,
}

impl Default for Rows {
    fn default() -> Rows {
        Rows::with_capacity(0, 0)
    }
}

impl Rows {
    /// Rows with room for `games` games and `moves` moves, so that the columns are not
    /// copied as they grow (more are fine). [`Rows::default`] starts with no room.
    pub fn with_capacity(games: usize, moves: usize) -> Rows {
        // Room that is not used costs address space only: pages are mapped when first
        // written. Tag values are short; the `tags` map has a few entries a game.
        let text = |per_game: usize| StringBuilder::with_capacity(games, games * per_game);
        Rows {
            head: std::array::from_fn(|_| text(32)),
            int16: std::array::from_fn(|_| Int16Builder::with_capacity(games)),
            utc_date: Date32Builder::with_capacity(games),
            utc_time: Time32SecondBuilder::with_capacity(games),
            tail: std::array::from_fn(|_| text(32)),
            movetext: StringBuilder::with_capacity(games, games * 1024),
            file: text(32),
            game: Int64Builder::with_capacity(games),
            offset: Int64Builder::with_capacity(games),
            line: Int64Builder::with_capacity(games),
            our_tags: std::array::from_fn(|_| text(16)),
            ply_count: Int32Builder::with_capacity(games),
            eco: text(4),
            opening: text(48),
            final_zobrist: UInt64Builder::with_capacity(games),
            tags: MapBuilder::new(None, text(8 * 16), text(8 * 24)),
            errors: ListBuilder::new(text(8)),
            warnings: ListBuilder::new(text(8)),
            moves: MoveColumns::with_capacity(moves),
            move_offsets: Vec::with_capacity(games + 1),
            partitions: Vec::new(),
            scratch: RefCell::new(Scratch::default()),
            record: None,
            spare_tags: Vec::new(),
            game_bytes: Vec::new(),
            used: Vec::new(),
        }
        .started()
    }

    fn started(mut self) -> Rows {
        self.move_offsets.push(0);
        self
    }
}

/// The moves table's columns, kept as plain vectors and made into arrays at the end: a
/// move is a few stores, where the Arrow builders cost a call (and its checks) per value.
struct MoveColumns {
    /// The `file` column as runs: each file and how many moves in a row come from it (every
    /// move of a batch usually does). Copying a path into a builder for every move cost more
    /// than anything else done per move.
    file: Vec<(String, usize)>,
    game: Vec<i64>,
    ply: Vec<i32>,
    san: Strings,
    uci: Strings,
    zobrist: Vec<u64>,
    fen: StringBuilder,
    clock_ms: Nullable<i64>,
    emt_ms: Nullable<i64>,
    eval_cp: Nullable<i32>,
    eval_mate: Nullable<i32>,
    /// The NAGs of all moves, and where each move's start (and the last ends).
    nags: Vec<u8>,
    nag_offsets: Vec<i32>,
    comment: StringBuilder,
    /// The training columns' values ([`Columns::boards`]), one per move when read.
    boards: Vec<BoardRecord>,
    len: usize,
}

impl MoveColumns {
    /// Columns with room for `n` moves (more are fine: they grow).
    fn with_capacity(n: usize) -> MoveColumns {
        let mut nag_offsets = Vec::with_capacity(n + 1);
        nag_offsets.push(0);
        MoveColumns {
            file: Vec::new(),
            game: Vec::with_capacity(n),
            ply: Vec::with_capacity(n),
            san: Strings::with_capacity(n, n * 5),
            uci: Strings::with_capacity(n, n * 4),
            zobrist: Vec::with_capacity(n),
            fen: StringBuilder::new(),
            clock_ms: Nullable::with_capacity(n),
            emt_ms: Nullable::with_capacity(n),
            eval_cp: Nullable::with_capacity(n),
            eval_mate: Nullable::with_capacity(n),
            nags: Vec::new(),
            nag_offsets,
            comment: StringBuilder::with_capacity(n, n),
            boards: Vec::new(),
            len: 0,
        }
    }
}

/// A string column being filled: the text of all values and where each ends.
struct Strings {
    text: String,
    offsets: Vec<i32>,
}

impl Strings {
    fn with_capacity(values: usize, bytes: usize) -> Strings {
        let mut offsets = Vec::with_capacity(values + 1);
        offsets.push(0);
        Strings {
            text: String::with_capacity(bytes),
            offsets,
        }
    }

    /// Ends the value written to `text` since the last one.
    #[inline]
    fn end_value(&mut self) {
        self.offsets
            .push(i32::try_from(self.text.len()).unwrap_or(i32::MAX));
    }

    fn finish(&mut self) -> Result<StringArray, ArrowError> {
        let offsets = std::mem::replace(&mut self.offsets, vec![0]);
        let text = std::mem::take(&mut self.text);
        StringArray::try_new(
            OffsetBuffer::new(offsets.into()),
            text.into_bytes().into(),
            None,
        )
    }
}

/// Which values of a column are valid (not null), 64 a word in Arrow's bit order (value `i`
/// is bit `i % 64`).
struct Validity {
    words: Vec<u64>,
    len: usize,
    nulls: usize,
}

impl Validity {
    fn with_capacity(n: usize) -> Validity {
        Validity {
            words: Vec::with_capacity(n / 64 + 1),
            len: 0,
            nulls: 0,
        }
    }

    #[inline]
    fn push(&mut self, valid: bool) {
        let i = self.len;
        if i.is_multiple_of(64) {
            self.words.push(0);
        }
        if let (Some(word), true) = (self.words.last_mut(), valid) {
            *word |= 1 << (i % 64);
        }
        self.nulls += usize::from(!valid);
        self.len += 1;
    }

    /// The null buffer, if any value is null.
    fn finish(&mut self) -> Option<NullBuffer> {
        let words: Vec<u64> = self.words.drain(..).map(u64::to_le).collect();
        let len = std::mem::take(&mut self.len);
        let nulls = std::mem::take(&mut self.nulls);
        (nulls > 0).then(|| NullBuffer::new(BooleanBuffer::new(words.into(), 0, len)))
    }
}

/// A column of numbers that may be null being filled.
struct Nullable<T> {
    values: Vec<T>,
    valid: Validity,
}

impl<T: ArrowNativeType> Nullable<T> {
    fn with_capacity(n: usize) -> Nullable<T> {
        Nullable {
            values: Vec::with_capacity(n),
            valid: Validity::with_capacity(n),
        }
    }

    #[inline]
    fn push(&mut self, value: Option<T>) {
        self.valid.push(value.is_some());
        self.values.push(value.unwrap_or_default());
    }

    fn finish<P: ArrowPrimitiveType<Native = T>>(&mut self) -> PrimitiveArray<P> {
        let values = std::mem::take(&mut self.values);
        PrimitiveArray::new(values.into(), self.valid.finish())
    }
}

/// The record batches of one [`Rows`].
#[derive(Debug, Clone)]
pub struct Tables {
    /// The games table (with the nested `moves` column when asked).
    pub games: RecordBatch,
    /// The moves table, when asked (and not nested).
    pub moves: Option<RecordBatch>,
    /// The partition of each game.
    pub partitions: Vec<PartitionKey>,
    /// For each game, where its moves start in `moves` (and one past the last).
    pub move_offsets: Vec<i32>,
}

impl Rows {
    /// The number of games.
    pub fn len(&self) -> usize {
        self.partitions.len()
    }

    /// Whether there are no games.
    pub fn is_empty(&self) -> bool {
        self.partitions.is_empty()
    }

    /// Reads game `number` of input `file` (see [`GameRecord::read`]) straight into the
    /// columns: its moves go to the moves columns and its movetext to its column without being
    /// kept in between. Gives the game's record, without its moves and its movetext (for its
    /// errors and warnings).
    ///
    /// ```
    /// use tabia_notation::pgn::{Origin, RawGame};
    /// use tabia_table::{Columns, ReadOptions, Rows};
    ///
    /// let raw = RawGame { bytes: b"1. e4 { [%clk 0:03:00] } e5 *".to_vec(), start: Origin::default() };
    /// let mut rows = Rows::default();
    /// let record = rows.read("games.pgn", &raw, 1, ReadOptions { moves: true, ..ReadOptions::default() });
    /// assert_eq!((record.plies, record.moves.len()), (Some(2), 0));
    /// let moves = rows.finish(Columns::default(), true)?.moves.expect("moves");
    /// assert_eq!(moves.num_rows(), 2);
    /// # Ok::<_, arrow_schema::ArrowError>(())
    /// ```
    pub fn read(
        &mut self,
        file: &str,
        raw: &RawGame,
        number: u64,
        options: ReadOptions,
    ) -> &GameRecord {
        if let Some(last) = self.record.take() {
            self.spare_tags.extend(last.tags);
        }
        let record = read_game(
            raw,
            number,
            options,
            &self.scratch,
            &mut self.spare_tags,
            &mut self.game_bytes,
        );
        self.push_game(file, &record, movetext_text(&raw.bytes).as_deref());
        if options.moves {
            let scratch = self.scratch.get_mut();
            self.moves.push_file(file, scratch.plies.len());
            for (p, ply) in scratch.plies.iter().zip(1..) {
                self.moves.push_ply(number, p, ply, scratch);
            }
        }
        self.end_game(&record);
        self.record.insert(record)
    }

    /// Adds a game (and its moves) read from input `file`.
    pub fn push(&mut self, file: &str, record: &GameRecord) {
        self.push_game(file, record, record.movetext.as_deref());
        self.moves.push_file(file, record.moves.len());
        for m in &record.moves {
            self.moves.push(record.number, m);
        }
        self.end_game(record);
    }

    /// Ends the rows of a game: where its moves end, its partition.
    fn end_game(&mut self, record: &GameRecord) {
        self.move_offsets
            .push(i32::try_from(self.moves.len).unwrap_or(i32::MAX));
        self.partitions.push(partition_key(record));
    }

    /// Adds the games table's row of a game, whose movetext is `movetext`.
    fn push_game(&mut self, file: &str, record: &GameRecord, movetext: Option<&str>) {
        // The tags that have a column: the first of each name, when it reads as its type.
        let mut used = std::mem::take(&mut self.used);
        used.clear();
        used.resize(record.tags.len(), false);
        let first = |name: &str| -> (Option<usize>, Option<&str>) {
            match record.tags.iter().position(|(n, _)| n == name) {
                Some(i) => (Some(i), Some(record.tags[i].1.as_str())),
                None => (None, None),
            }
        };
        let mut take = |name: &str, parsed: bool| -> Option<&str> {
            let (i, value) = first(name);
            if let (Some(i), true) = (i, parsed) {
                used[i] = true;
            }
            value
        };
        for (builder, name) in self.head.iter_mut().zip(LICHESS_HEAD) {
            builder.append_option(take(name, true));
        }
        for (builder, name) in self.int16.iter_mut().zip(LICHESS_INT16) {
            let raw = record.tag(name);
            let value = raw.and_then(parse_i16);
            builder.append_option(value);
            take(name, value.is_some());
        }
        let raw = record.tag("UTCDate");
        let date = raw.and_then(parse_date);
        self.utc_date.append_option(date);
        take("UTCDate", date.is_some());
        let raw = record.tag("UTCTime");
        let time = raw.and_then(parse_time);
        self.utc_time.append_option(time);
        take("UTCTime", time.is_some());
        for (builder, name) in self.tail.iter_mut().zip(LICHESS_TAIL) {
            builder.append_option(take(name, true));
        }
        self.movetext.append_option(movetext);
        self.file.append_value(file);
        self.game.append_value(to_i64(record.number));
        self.offset.append_value(to_i64(record.start.offset));
        self.line.append_value(to_i64(record.start.line));
        for (builder, name) in self.our_tags.iter_mut().zip(OUR_TAGS) {
            builder.append_option(take(name, true));
        }
        self.ply_count
            .append_option(record.plies.and_then(|p| i32::try_from(p).ok()));
        self.eco.append_option(record.opening.map(|o| o.eco()));
        self.opening.append_option(record.opening.map(|o| o.name()));
        self.final_zobrist.append_option(record.final_zobrist);
        for ((name, value), used) in record.tags.iter().zip(&used) {
            if !used {
                self.tags.keys().append_value(name);
                self.tags.values().append_value(value);
            }
        }
        self.used = used;
        // Cannot fail: keys and values were appended in pairs.
        let _ = self.tags.append(true);
        for problem in &record.errors {
            self.errors.values().append_value(problem.to_string());
        }
        self.errors.append(true);
        for problem in &record.warnings {
            self.warnings.values().append_value(problem.to_string());
        }
        self.warnings.append(true);
    }

    /// Makes the record batches: the games table (with the nested `moves` column when
    /// `columns.nested`) and, with `moves` (and not nested), the moves table.
    ///
    /// # Errors
    ///
    /// Only if the columns do not agree with the schema, which would be a bug.
    pub fn finish(mut self, columns: Columns, moves: bool) -> Result<Tables, ArrowError> {
        let mut arrays: Vec<ArrayRef> = Vec::with_capacity(40);
        for builder in &mut self.head {
            arrays.push(Arc::new(builder.finish()));
        }
        for builder in &mut self.int16 {
            arrays.push(Arc::new(builder.finish()));
        }
        arrays.push(Arc::new(self.utc_date.finish()));
        arrays.push(Arc::new(self.utc_time.finish()));
        for builder in &mut self.tail {
            arrays.push(Arc::new(builder.finish()));
        }
        arrays.push(Arc::new(self.movetext.finish()));
        arrays.push(Arc::new(self.file.finish()));
        arrays.push(Arc::new(self.game.finish()));
        arrays.push(Arc::new(self.offset.finish()));
        arrays.push(Arc::new(self.line.finish()));
        for builder in &mut self.our_tags {
            arrays.push(Arc::new(builder.finish()));
        }
        arrays.push(Arc::new(self.ply_count.finish()));
        arrays.push(Arc::new(self.eco.finish()));
        arrays.push(Arc::new(self.opening.finish()));
        arrays.push(Arc::new(self.final_zobrist.finish()));
        arrays.push(Arc::new(self.tags.finish()));
        arrays.push(Arc::new(self.errors.finish()));
        arrays.push(Arc::new(self.warnings.finish()));
        let (key, per_move) = self.moves.finish(columns)?;
        let mut moves_batch = None;
        if columns.nested {
            let fields = Fields::from(move_fields(columns));
            let values = StructArray::try_new(fields.clone(), per_move, None)?;
            let item = Arc::new(Field::new(
                "item",
                arrow_schema::DataType::Struct(fields),
                true,
            ));
            let offsets = OffsetBuffer::new(self.move_offsets.clone().into());
            arrays.push(Arc::new(ListArray::try_new(
                item,
                offsets,
                Arc::new(values),
                None,
            )?));
        } else if moves {
            let mut all = key;
            all.extend(per_move);
            moves_batch = Some(RecordBatch::try_new(moves_schema(columns), all)?);
        }
        let games = RecordBatch::try_new(games_schema(columns), arrays)?;
        Ok(Tables {
            games,
            moves: moves_batch,
            partitions: self.partitions,
            move_offsets: self.move_offsets,
        })
    }
}

impl MoveColumns {
    /// Notes that the next `moves` moves come from input `file`.
    fn push_file(&mut self, file: &str, moves: usize) {
        match self.file.last_mut() {
            Some((last, n)) if last == file => *n += moves,
            _ if moves == 0 => {}
            _ => self.file.push((file.to_owned(), moves)),
        }
    }

    /// The `file` column, from its runs: each path repeated in bulk.
    fn finish_file(&mut self) -> Result<ArrayRef, ArrowError> {
        let runs: Vec<StringArray> = self
            .file
            .drain(..)
            .map(|(file, n)| StringArray::new_repeated(file, n))
            .collect();
        match runs.as_slice() {
            [] => Ok(Arc::new(StringArray::new_null(0))),
            [one] => Ok(Arc::new(one.clone())),
            _ => {
                let runs: Vec<&dyn Array> = runs.iter().map(|r| r as &dyn Array).collect();
                arrow_select::concat::concat(&runs)
            }
        }
    }

    /// Adds ply `ply` (read into `scratch`) of game `game`.
    fn push_ply(&mut self, game: u64, p: &Ply, ply: u32, scratch: &Scratch) {
        self.game.push(to_i64(game));
        self.ply.push(i32::try_from(ply).unwrap_or(i32::MAX));
        // Writing to a string cannot fail.
        let _ = p.san.write_to(&mut self.san.text);
        self.san.end_value();
        p.write_uci(scratch.mode, &mut self.uci.text);
        self.uci.end_value();
        self.zobrist.push(p.zobrist);
        if !p.fen.is_empty() {
            self.fen.append_value(&scratch.text[p.fen.clone()]);
        }
        self.clock_ms
            .push(p.clock_ms.and_then(|v| i64::try_from(v).ok()));
        self.emt_ms
            .push(p.emt_ms.and_then(|v| i64::try_from(v).ok()));
        self.push_eval(p.eval);
        self.push_nags(&scratch.nags[p.nags.clone()]);
        if p.comment.is_empty() {
            self.comment.append_null();
        } else {
            self.comment.append_value(&scratch.text[p.comment.clone()]);
        }
        if let Some(board) = scratch.boards.get(ply as usize - 1) {
            self.boards.push(*board);
        }
        self.len += 1;
    }

    fn push_eval(&mut self, eval: Option<Eval>) {
        let (cp, mate) = match eval.map(|e| e.score) {
            Some(Score::Cp(cp)) => (Some(cp), None),
            Some(Score::Mate(n)) => (None, Some(n)),
            None => (None, None),
        };
        self.eval_cp.push(cp);
        self.eval_mate.push(mate);
    }

    fn push_nags(&mut self, nags: &[u8]) {
        self.nags.extend_from_slice(nags);
        self.nag_offsets
            .push(i32::try_from(self.nags.len()).unwrap_or(i32::MAX));
    }

    fn push(&mut self, game: u64, m: &MoveRecord) {
        self.game.push(to_i64(game));
        self.ply.push(i32::try_from(m.ply).unwrap_or(i32::MAX));
        self.san.text.push_str(&m.san);
        self.san.end_value();
        self.uci.text.push_str(&m.uci);
        self.uci.end_value();
        self.zobrist.push(m.zobrist);
        self.fen.append_value(m.fen.as_deref().unwrap_or(""));
        self.clock_ms
            .push(m.clock_ms.and_then(|v| i64::try_from(v).ok()));
        self.emt_ms
            .push(m.emt_ms.and_then(|v| i64::try_from(v).ok()));
        self.push_eval(m.eval);
        self.push_nags(&m.nags);
        self.comment.append_option(m.comment.as_deref());
        if let Some(board) = m.board {
            self.boards.push(board);
        }
        self.len += 1;
    }

    /// The game key columns and the per-move columns.
    fn finish(&mut self, columns: Columns) -> Result<(Vec<ArrayRef>, Vec<ArrayRef>), ArrowError> {
        let game = Int64Array::new(std::mem::take(&mut self.game).into(), None);
        let key: Vec<ArrayRef> = vec![self.finish_file()?, Arc::new(game)];
        let mut per_move: Vec<ArrayRef> = vec![
            Arc::new(Int32Array::new(std::mem::take(&mut self.ply).into(), None)),
            Arc::new(self.san.finish()?),
            Arc::new(self.uci.finish()?),
            Arc::new(UInt64Array::new(
                std::mem::take(&mut self.zobrist).into(),
                None,
            )),
        ];
        let fen = self.fen.finish();
        if columns.fen {
            per_move.push(Arc::new(fen));
        }
        let nag_offsets = std::mem::replace(&mut self.nag_offsets, vec![0]);
        let nags = ListArray::try_new(
            Arc::new(Field::new("item", DataType::UInt8, true)),
            OffsetBuffer::new(nag_offsets.into()),
            Arc::new(UInt8Array::new(std::mem::take(&mut self.nags).into(), None)),
            None,
        )?;
        per_move.extend([
            Arc::new(self.clock_ms.finish::<Int64Type>()) as ArrayRef,
            Arc::new(self.emt_ms.finish::<Int64Type>()),
            Arc::new(self.eval_cp.finish::<Int32Type>()),
            Arc::new(self.eval_mate.finish::<Int32Type>()),
            Arc::new(nags),
            Arc::new(self.comment.finish()),
        ]);
        let boards = std::mem::take(&mut self.boards);
        if columns.boards {
            per_move.extend(board_columns(boards, self.len)?);
        }
        Ok((key, per_move))
    }
}

fn to_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// An Elo or a rating difference: `1850`, `+6`, `-6`.
fn parse_i16(text: &str) -> Option<i16> {
    let text = text.trim();
    text.strip_prefix('+').unwrap_or(text).parse().ok()
}

/// `YYYY.MM.DD` (`-` or `/` also accepted as separators) as days since 1970-01-01.
pub(crate) fn parse_date(text: &str) -> Option<i32> {
    let (y, m, d) = date_parts(text)?;
    days_from_civil(y?, m?, d?)
}

/// The year, month and day of a PGN date; `??` parts are `None`.
fn date_parts(text: &str) -> Option<(Option<i32>, Option<u32>, Option<u32>)> {
    let mut parts = text.trim().split(['.', '-', '/']);
    let y = parts.next()?;
    let m = parts.next().unwrap_or("??");
    let d = parts.next().unwrap_or("??");
    if parts.next().is_some() {
        return None;
    }
    let num = |s: &str, len: usize| -> Option<Option<u32>> {
        if s.bytes().all(|b| b == b'?') {
            Some(None)
        } else if s.len() == len && s.bytes().all(|b| b.is_ascii_digit()) {
            s.parse().ok().map(Some)
        } else {
            None
        }
    };
    let year = num(y, 4)?.and_then(|y| i32::try_from(y).ok());
    let month = num(m, 2)?.filter(|m| (1..=12).contains(m));
    let day = num(d, 2)?.filter(|d| (1..=31).contains(d));
    Some((year, month, day))
}

/// Days since 1970-01-01 of a proleptic Gregorian date, if it exists.
fn days_from_civil(y: i32, m: u32, d: u32) -> Option<i32> {
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days_in_month = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&m) || d == 0 || d > days_in_month[m as usize - 1] {
        return None;
    }
    // Howard Hinnant's days_from_civil.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = m as i32;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d as i32 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// `HH:MM:SS` as seconds since midnight.
pub(crate) fn parse_time(text: &str) -> Option<i32> {
    let mut parts = text.trim().split(':');
    let mut field = |max: i32| -> Option<i32> {
        let s = parts.next()?;
        if s.len() != 2 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok().filter(|v| *v < max)
    };
    let (h, m, s) = (field(24)?, field(60)?, field(61)?);
    if parts.next().is_some() {
        return None;
    }
    Some(h * 3600 + m * 60 + s.min(59))
}

/// The partition of a game: year and month of `UTCDate`, else of `Date`.
fn partition_key(record: &GameRecord) -> PartitionKey {
    for name in ["UTCDate", "Date"] {
        if let Some((Some(year), month, _)) = record.tag(name).and_then(date_parts) {
            return PartitionKey {
                year: Some(year),
                month,
            };
        }
    }
    PartitionKey {
        year: None,
        month: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(parse_date("1970.01.01"), Some(0));
        assert_eq!(parse_date("2024.01.15"), Some(19_737));
        assert_eq!(parse_date("2000.02.29"), Some(11_016));
        assert_eq!(parse_date("1900.02.29"), None);
        assert_eq!(parse_date("1969.12.31"), Some(-1));
        assert_eq!(parse_date("2024.??.??"), None);
        assert_eq!(parse_date("2024.13.01"), None);
        assert_eq!(parse_date("24.01.01"), None);
        assert_eq!(date_parts("2024.??.??"), Some((Some(2024), None, None)));
    }

    #[test]
    fn times_and_numbers() {
        assert_eq!(parse_time("12:34:56"), Some(45_296));
        assert_eq!(parse_time("24:00:00"), None);
        assert_eq!(parse_time("1:00:00"), None);
        assert_eq!(parse_i16("+6"), Some(6));
        assert_eq!(parse_i16("-12"), Some(-12));
        assert_eq!(parse_i16("?"), None);
        assert_eq!(parse_i16("40000"), None);
    }
}
