//! The schema of the tables: one documented, versioned place.
//!
//! Every file written carries [`SCHEMA_VERSION`] under the key [`SCHEMA_VERSION_KEY`] in its
//! Parquet key-value metadata. The version changes whenever a column is added, removed,
//! renamed or retyped; readers can rely on the columns below for a given version.
//!
//! # Games table (one row per game read, bad games included)
//!
//! First the columns of the lichess Parquet dataset, with its names and types:
//!
//! | column | type | from |
//! |---|---|---|
//! | `Event`, `Site`, `White`, `Black`, `Result`, `WhiteTitle`, `BlackTitle` | utf8 | the tag of that name |
//! | `WhiteElo`, `BlackElo`, `WhiteRatingDiff`, `BlackRatingDiff` | int16 | the tag (`+6` reads as 6) |
//! | `UTCDate` | date32 | the tag, `YYYY.MM.DD` |
//! | `UTCTime` | time32\[s\] | the tag, `HH:MM:SS` |
//! | `ECO`, `Opening`, `Termination`, `TimeControl` | utf8 | the tag |
//! | `movetext` | utf8 | the movetext as it stands in the input (comments, result included) |
//!
//! then tabia's:
//!
//! | column | type | what |
//! |---|---|---|
//! | `file` | utf8 | the input's name |
//! | `game` | int64 | 1-based number of the game in its input |
//! | `offset` | int64 | byte offset of the game in the (decompressed) input |
//! | `line` | int64 | line where the game starts |
//! | `Date`, `Round`, `Variant`, `FEN` | utf8 | the tag (`FEN`: the set-up start) |
//! | `ply_count` | int32 | plies of the mainline, its rows in the moves table: for a game with an error, the plies replayed before it (0 when none) |
//! | `eco_by_position`, `opening_by_position` | utf8 | the opening named by the positions reached (tabia-eco, transpositions count) |
//! | `final_zobrist` | uint64 | Polyglot hash of the final position |
//! | `tags` | `map<utf8, utf8>` | every other tag, and the raw text of a typed tag that did not parse |
//! | `errors` | `list<utf8>` | why the game could not be read (`LINE:COL: message`); empty for a good game |
//! | `warnings` | `list<utf8>` | what looks wrong in a game that was read |
//! | `moves` | `list<struct>` | only with `nested`: the moves table's columns but `file` and `game` |
//!
//! A value that does not parse as its type (an Elo of `?`) is null, and its raw text is kept in
//! `tags`, so no tag is ever lost.
//!
//! # Moves table (one row per ply of the mainline)
//!
//! A game with an error has the plies of its mainline replayed before the error: the legal
//! moves before an illegal one (as python-chess keeps them), the whole mainline for an illegal
//! move in a variation.
//!
//! | column | type | what |
//! |---|---|---|
//! | `file`, `game` | utf8, int64 | the game's key, as in the games table |
//! | `ply` | int32 | 1 for the first move |
//! | `san`, `uci` | utf8 | the move (SAN as written, normalised; UCI) |
//! | `zobrist` | uint64 | Polyglot hash of the position after the move |
//! | `fen` | utf8 | only with `fen`: the FEN after the move (en passant by [`ReadOptions::ep`](crate::ReadOptions::ep): by default only when a capture is legal) |
//! | `clock_ms`, `emt_ms` | int64 | `[%clk]` and `[%emt]` after the move, in milliseconds |
//! | `eval_cp`, `eval_mate` | int32 | `[%eval]` after the move: centipawns, or mate in N (White's view) |
//! | `nags` | `list<uint8>` | the move's NAGs (`!` is 1) |
//! | `comment` | utf8 | the comments after the move, commands removed (null when none) |
//!
//! With `boards` (training data), the position *before* the move and the move as numbers
//! (squares 0 = a1 … 63 = h8, as in python-chess):
//!
//! | column | type | what |
//! |---|---|---|
//! | `board` | `fixed_size_list<uint64>[12]` | piece bitboards: White's pawns, knights, bishops, rooks, queens, king, then Black's |
//! | `white_to_move` | bool | the side to move |
//! | `castling` | uint64 | the rooks that may still castle, as a bitboard |
//! | `ep_square` | uint8 | the en-passant square when a capture there is legal; with [`EpRule::Always`](tabia_position::EpRule::Always) ([`ReadOptions::ep`](crate::ReadOptions::ep)) after every double push, as python-chess's `board.ep_square` |
//! | `from_square`, `to_square` | uint8 | the move as its UCI says (a drop: both the drop square; a null move: 0) |
//! | `promotion` | uint8 | the piece promoted to: 2 knight … 5 queen (6 king in antichess), 0 for none |

use std::sync::Arc;

use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef, TimeUnit};

/// The version of the schema below; written in every file's metadata.
pub const SCHEMA_VERSION: &str = "1";

/// The Parquet key-value metadata key that holds [`SCHEMA_VERSION`].
pub const SCHEMA_VERSION_KEY: &str = "schema_version";

/// The Parquet key-value metadata key that names the table: `games` or `moves`.
pub const TABLE_KEY: &str = "tabia.table";

/// Which optional columns the tables have.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Columns {
    /// The moves as a list column `moves` in the games table.
    pub nested: bool,
    /// The FEN after every move (moves table, or nested moves).
    pub fen: bool,
    /// The training columns (moves table, or nested moves): the position before each move
    /// as 12 piece bitboards and its state, the move as integers ([`BoardRecord`](crate::BoardRecord)).
    pub boards: bool,
}

/// The lichess dataset's string columns, in order, before the typed ones.
pub(crate) const LICHESS_HEAD: [&str; 7] = [
    "Event",
    "Site",
    "White",
    "Black",
    "Result",
    "WhiteTitle",
    "BlackTitle",
];
/// The lichess dataset's int16 columns.
pub(crate) const LICHESS_INT16: [&str; 4] =
    ["WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff"];
/// The lichess dataset's string columns after `UTCTime`.
pub(crate) const LICHESS_TAIL: [&str; 4] = ["ECO", "Opening", "Termination", "TimeControl"];
/// tabia's tag columns.
pub(crate) const OUR_TAGS: [&str; 4] = ["Date", "Round", "Variant", "FEN"];

fn utf8(name: &str) -> Field {
    Field::new(name, DataType::Utf8, true)
}

/// `list<utf8>` as Arrow's list builder makes it.
pub(crate) fn string_list() -> DataType {
    DataType::List(Arc::new(Field::new("item", DataType::Utf8, true)))
}

/// `map<utf8, utf8>` as Arrow's map builder makes it.
pub(crate) fn string_map() -> DataType {
    let entries = Fields::from(vec![
        Field::new("key", DataType::Utf8, false),
        Field::new("value", DataType::Utf8, true),
    ]);
    DataType::Map(
        Arc::new(Field::new("entries", DataType::Struct(entries), false)),
        false,
    )
}

/// The columns of one move, without the game key: the moves table after `file` and `game`,
/// and the struct of the nested `moves` column.
pub(crate) fn move_fields(columns: Columns) -> Vec<Field> {
    let mut fields = vec![
        Field::new("ply", DataType::Int32, false),
        Field::new("san", DataType::Utf8, false),
        Field::new("uci", DataType::Utf8, false),
        Field::new("zobrist", DataType::UInt64, false),
    ];
    if columns.fen {
        fields.push(Field::new("fen", DataType::Utf8, false));
    }
    fields.extend([
        Field::new("clock_ms", DataType::Int64, true),
        Field::new("emt_ms", DataType::Int64, true),
        Field::new("eval_cp", DataType::Int32, true),
        Field::new("eval_mate", DataType::Int32, true),
        Field::new(
            "nags",
            DataType::List(Arc::new(Field::new("item", DataType::UInt8, true))),
            false,
        ),
        utf8("comment"),
    ]);
    if columns.boards {
        fields.extend([
            Field::new(
                "board",
                DataType::FixedSizeList(Arc::new(Field::new("item", DataType::UInt64, false)), 12),
                false,
            ),
            Field::new("white_to_move", DataType::Boolean, false),
            Field::new("castling", DataType::UInt64, false),
            Field::new("ep_square", DataType::UInt8, true),
            Field::new("from_square", DataType::UInt8, false),
            Field::new("to_square", DataType::UInt8, false),
            Field::new("promotion", DataType::UInt8, false),
        ]);
    }
    fields
}

/// The nested `moves` column's type.
pub(crate) fn nested_moves(columns: Columns) -> DataType {
    DataType::List(Arc::new(Field::new(
        "item",
        DataType::Struct(Fields::from(move_fields(columns))),
        true,
    )))
}

/// The schema of the games table.
///
/// ```
/// use tabia_table::{Columns, games_schema};
///
/// let schema = games_schema(Columns::default());
/// assert_eq!(schema.field(0).name(), "Event");
/// assert_eq!(schema.field_with_name("WhiteElo")?.data_type().to_string(), "Int16");
/// assert!(schema.field_with_name("moves").is_err());
/// assert!(games_schema(Columns { nested: true, ..Columns::default() }).field_with_name("moves").is_ok());
/// # Ok::<_, arrow_schema::ArrowError>(())
/// ```
pub fn games_schema(columns: Columns) -> SchemaRef {
    let mut fields: Vec<Field> = LICHESS_HEAD.iter().map(|n| utf8(n)).collect();
    fields.extend(
        LICHESS_INT16
            .iter()
            .map(|n| Field::new(*n, DataType::Int16, true)),
    );
    fields.push(Field::new("UTCDate", DataType::Date32, true));
    fields.push(Field::new(
        "UTCTime",
        DataType::Time32(TimeUnit::Second),
        true,
    ));
    fields.extend(LICHESS_TAIL.iter().map(|n| utf8(n)));
    fields.push(utf8("movetext"));
    fields.extend([
        Field::new("file", DataType::Utf8, false),
        Field::new("game", DataType::Int64, false),
        Field::new("offset", DataType::Int64, false),
        Field::new("line", DataType::Int64, false),
    ]);
    fields.extend(OUR_TAGS.iter().map(|n| utf8(n)));
    fields.extend([
        Field::new("ply_count", DataType::Int32, true),
        utf8("eco_by_position"),
        utf8("opening_by_position"),
        Field::new("final_zobrist", DataType::UInt64, true),
        Field::new("tags", string_map(), false),
        Field::new("errors", string_list(), false),
        Field::new("warnings", string_list(), false),
    ]);
    if columns.nested {
        fields.push(Field::new("moves", nested_moves(columns), false));
    }
    Arc::new(Schema::new(fields))
}

/// The schema of the moves table.
///
/// ```
/// use tabia_table::{Columns, moves_schema};
///
/// let names: Vec<String> = moves_schema(Columns::default())
///     .fields()
///     .iter()
///     .map(|f| f.name().clone())
///     .collect();
/// assert_eq!(names, ["file", "game", "ply", "san", "uci", "zobrist", "clock_ms", "emt_ms",
///                    "eval_cp", "eval_mate", "nags", "comment"]);
/// ```
pub fn moves_schema(columns: Columns) -> SchemaRef {
    let mut fields = vec![
        Field::new("file", DataType::Utf8, false),
        Field::new("game", DataType::Int64, false),
    ];
    fields.extend(move_fields(columns));
    Arc::new(Schema::new(fields))
}
