//! The training columns of the moves table ([`Columns::boards`](crate::Columns)): the
//! position before each move as 12 piece bitboards and its state, and the move played as
//! integers, so that a model's input is a column away (no text to parse per move).

use std::sync::Arc;

use arrow_array::{ArrayRef, BooleanArray, FixedSizeListArray, UInt8Array, UInt64Array};
use arrow_schema::{ArrowError, DataType, Field};
use tabia_position::{
    EpRule, Position,
    shakmaty::{CastlingMode, Color, Move, Piece, Role, uci::UciMove},
};

/// A position and the move played from it, as numbers (squares: 0 is a1, 63 is h8, as in
/// python-chess and shakmaty).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BoardRecord {
    /// The piece bitboards (bit 0 is a1): White's pawns, knights, bishops, rooks, queens,
    /// king, then Black's in the same order.
    pub bitboards: [u64; 12],
    /// Whether White is to move.
    pub white_to_move: bool,
    /// The rooks that may still castle, as a bitboard (python-chess's `castling_rights`).
    pub castling: u64,
    /// The en-passant square, by the rule [`BoardRecord::position`] was given (by default
    /// [`EpRule::Legal`]: when an en-passant capture is legal).
    pub ep_square: Option<u8>,
    /// The square the move leaves (the drop square for a drop, 0 for a null move).
    pub from_square: u8,
    /// The square the move goes to, as its UCI says (`e1g1`: g1 in standard chess).
    pub to_square: u8,
    /// The piece promoted to (python-chess's piece types: 2 knight … 5 queen, 6 king), 0
    /// for none.
    pub promotion: u8,
}

impl BoardRecord {
    /// The state of `pos` (the position before the move), the move not yet set; its
    /// en-passant square by the rule `ep`.
    ///
    /// ```
    /// use tabia_position::{EpRule, Position};
    /// use tabia_table::BoardRecord;
    ///
    /// let start = BoardRecord::position(&Position::new(), EpRule::Legal);
    /// assert_eq!(start.bitboards[0], 0xff00); // White's pawns on the second rank
    /// assert_eq!(start.bitboards[11], 1 << 60); // Black's king on e8
    /// assert!(start.white_to_move);
    /// assert_eq!(start.castling, 0x8100_0000_0000_0081);
    /// assert_eq!(start.ep_square, None);
    ///
    /// // After 1. e4 no black pawn can take en passant: e3 (square 20) by python-chess's rule only.
    /// let e4 = Position::new().after("e4").unwrap();
    /// assert_eq!(BoardRecord::position(&e4, EpRule::Legal).ep_square, None);
    /// assert_eq!(BoardRecord::position(&e4, EpRule::Always).ep_square, Some(20));
    /// ```
    pub fn position(pos: &Position, ep: EpRule) -> BoardRecord {
        let setup = pos.setup(ep);
        let board = &setup.board;
        let mut bitboards = [0; 12];
        for (i, (color, role)) in [Color::White, Color::Black]
            .into_iter()
            // The bitboards' order: pawn, knight, bishop, rook, queen, king (shakmaty's `Role::ALL`).
            .flat_map(|color| Role::ALL.into_iter().map(move |role| (color, role)))
            .enumerate()
        {
            bitboards[i] = board.by_piece(Piece { color, role }).0;
        }
        BoardRecord {
            bitboards,
            white_to_move: setup.turn == Color::White,
            castling: setup.castling_rights.0,
            ep_square: setup.ep_square.map(|sq| sq as u8),
            ..BoardRecord::default()
        }
    }

    /// Sets the move played (`None`: a null move), as UCI writes it in `mode`.
    pub fn with_move(mut self, mv: Option<&Move>, mode: CastlingMode) -> BoardRecord {
        let (from, to, promotion) = match mv.map(|m| m.to_uci(mode)) {
            Some(UciMove::Normal {
                from,
                to,
                promotion,
            }) => (from as u8, to as u8, promotion.map_or(0, |r| r as u8)),
            Some(UciMove::Put { to, .. }) => (to as u8, to as u8, 0),
            Some(UciMove::Null) | None => (0, 0, 0),
        };
        self.from_square = from;
        self.to_square = to;
        self.promotion = promotion;
        self
    }
}

/// The training columns of `len` moves from their boards (all of them, or none when they
/// were not read: then zeros).
pub(crate) fn board_columns(
    mut boards: Vec<BoardRecord>,
    len: usize,
) -> Result<Vec<ArrayRef>, ArrowError> {
    if boards.is_empty() {
        boards = vec![BoardRecord::default(); len];
    }
    if boards.len() != len {
        return Err(ArrowError::InvalidArgumentError(format!(
            "{} boards for {len} moves",
            boards.len()
        )));
    }
    let bitboards: Vec<u64> = boards.iter().flat_map(|b| b.bitboards).collect();
    let item = Arc::new(Field::new("item", DataType::UInt64, false));
    let board = FixedSizeListArray::try_new(
        item,
        12,
        Arc::new(UInt64Array::new(bitboards.into(), None)),
        None,
    )?;
    let ep: UInt8Array = boards.iter().map(|b| b.ep_square).collect();
    let bytes = |f: fn(&BoardRecord) -> u8| -> ArrayRef {
        Arc::new(UInt8Array::from_iter_values(boards.iter().map(f)))
    };
    Ok(vec![
        Arc::new(board),
        Arc::new(BooleanArray::from_iter(
            boards.iter().map(|b| Some(b.white_to_move)),
        )),
        Arc::new(UInt64Array::from_iter_values(
            boards.iter().map(|b| b.castling),
        )),
        Arc::new(ep),
        bytes(|b| b.from_square),
        bytes(|b| b.to_square),
        bytes(|b| b.promotion),
    ])
}

#[cfg(test)]
mod tests {
    use arrow_array::{Array, cast::AsArray, types::UInt8Type};
    use tabia_notation::pgn::{Origin, RawGame};

    use crate::{Columns, ReadOptions, Rows};

    use super::*;

    fn moves(pgn: &str) -> arrow_array::RecordBatch {
        moves_by(pgn, EpRule::Legal)
    }

    /// The moves table of `pgn` with the training columns and the FENs, en passant by `ep`.
    fn moves_by(pgn: &str, ep: EpRule) -> arrow_array::RecordBatch {
        let raw = RawGame {
            bytes: pgn.as_bytes().to_vec(),
            start: Origin::default(),
        };
        let mut rows = Rows::default();
        let options = ReadOptions {
            moves: true,
            fen: true,
            boards: true,
            ep,
        };
        let record = rows.read("t.pgn", &raw, 1, options);
        assert!(record.errors.is_empty(), "{:?}", record.errors);
        let columns = Columns {
            boards: true,
            fen: true,
            ..Columns::default()
        };
        rows.finish(columns, true).unwrap().moves.unwrap()
    }

    /// `ep_square` and `fen` follow the rule: by default only where a capture is legal; with
    /// [`EpRule::Always`] after every double push, as python-chess's `board.ep_square`.
    #[test]
    fn en_passant_by_the_rule() {
        let pgn = "1. e4 Nf6 2. e5 d5 3. exd6 *";
        let ep = |ep| -> Vec<Option<u8>> {
            let batch = moves_by(pgn, ep);
            let column = batch.column_by_name("ep_square").unwrap();
            let column = column.as_primitive::<UInt8Type>();
            (0..column.len())
                .map(|i| column.is_valid(i).then(|| column.value(i)))
                .collect()
        };
        // Before each move: e3 (20) after 1. e4, d6 (43) after 2... d5.
        assert_eq!(ep(EpRule::Legal), [None, None, None, None, Some(43)]);
        assert_eq!(ep(EpRule::Always), [None, Some(20), None, None, Some(43)]);
        assert_eq!(ep(EpRule::PseudoLegal), ep(EpRule::Legal));
        let fen = |ep, i| -> String {
            let batch = moves_by(pgn, ep);
            let column = batch.column_by_name("fen").unwrap().as_string::<i32>();
            column.value(i).to_owned()
        };
        assert!(fen(EpRule::Legal, 0).ends_with(" b KQkq - 0 1"));
        assert!(fen(EpRule::Always, 0).ends_with(" b KQkq e3 0 1"));
    }

    fn bytes(batch: &arrow_array::RecordBatch, name: &str) -> Vec<u8> {
        let column = batch.column_by_name(name).unwrap();
        column.as_primitive::<UInt8Type>().values().to_vec()
    }

    /// Each row holds the position before its move: the start, then the position each move
    /// led to, as the replay gives it; and the move as its UCI says.
    #[test]
    fn boards_are_the_positions_before_the_moves() {
        let sans = [
            "e4", "d5", "e5", "f5", "exf6", "Nc6", "Nf3", "Bg4", "Be2", "Qd7", "O-O", "O-O-O",
        ];
        let batch = moves(&format!("{} *", sans.join(" ")));
        assert_eq!(batch.num_rows(), sans.len());
        let board = batch.column_by_name("board").unwrap().as_fixed_size_list();
        let white = batch.column_by_name("white_to_move").unwrap().as_boolean();
        let castling = batch
            .column_by_name("castling")
            .unwrap()
            .as_primitive::<arrow_array::types::UInt64Type>();
        let ep = batch
            .column_by_name("ep_square")
            .unwrap()
            .as_primitive::<UInt8Type>();
        let mut pos = Position::new();
        for (i, san) in sans.iter().enumerate() {
            let expected = BoardRecord::position(&pos, EpRule::Legal);
            let row = board.value(i);
            assert_eq!(
                row.as_primitive::<arrow_array::types::UInt64Type>()
                    .values()
                    .as_ref(),
                &expected.bitboards,
                "ply {}",
                i + 1
            );
            assert_eq!(white.value(i), i % 2 == 0);
            assert_eq!(castling.value(i), expected.castling);
            assert_eq!(ep.is_valid(i).then(|| ep.value(i)), expected.ep_square);
            pos = pos.after(san).unwrap();
        }
        // After 4... f5 White can take en passant on f6 (square 45).
        assert_eq!(ep.is_valid(4).then(|| ep.value(4)), Some(45));
        // e2e4, and castling as UCI writes it: e1g1, e8c8.
        assert_eq!(
            (
                bytes(&batch, "from_square")[0],
                bytes(&batch, "to_square")[0]
            ),
            (12, 28)
        );
        assert_eq!(
            (
                bytes(&batch, "from_square")[10],
                bytes(&batch, "to_square")[10]
            ),
            (4, 6)
        );
        assert_eq!(
            (
                bytes(&batch, "from_square")[11],
                bytes(&batch, "to_square")[11]
            ),
            (60, 58)
        );
        assert_eq!(castling.value(0), 0x8100_0000_0000_0081);
    }

    #[test]
    fn promotions_are_piece_types() {
        let batch = moves("[FEN \"8/P6k/8/8/8/8/6Kp/8 w - - 0 1\"]\n\n1. a8=N h1=Q+ *");
        assert_eq!(bytes(&batch, "promotion"), [2, 5]);
        assert_eq!(bytes(&batch, "to_square"), [56, 7]);
        // The set-up start is the first row's board: White's pawn on a7 (bit 48).
        let board = batch.column_by_name("board").unwrap().as_fixed_size_list();
        assert_eq!(
            board
                .value(0)
                .as_primitive::<arrow_array::types::UInt64Type>()
                .value(0),
            1 << 48
        );
    }
}
