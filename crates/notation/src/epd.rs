//! Extended Position Description (PGN standard §16.2): the first four FEN fields, then
//! operations `opcode operand…;`.
//!
//! Operations are kept in order, known or not, and written back canonically: the fields, then
//! each operation as ` opcode operand…;` (strings quoted, `"` and `\` escaped). Typed accessors
//! read the common opcodes; they fail with [`ErrorKind::InvalidOperandType`] (or
//! [`ErrorKind::InvalidSan`]) when an operand has the wrong form, the span pointing into the
//! canonical text, which the error carries as its source.
//!
//! ```
//! use tabia_notation::{epd::{Epd, Operand}, san::SanPlus};
//!
//! let epd: Epd = r#"1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id "BK.01";"#.parse()?;
//! assert_eq!(epd.id()?, Some("BK.01"));
//! assert_eq!(epd.best_moves()?, Some(vec!["Qd1+".parse::<SanPlus>()?]));
//! assert_eq!(epd.operations[0].operands, [Operand::Symbol("Qd1+".into())]);
//! assert_eq!(
//!     epd.to_string(),
//!     r#"1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id "BK.01";"#
//! );
//! # Ok::<(), tabia_notation::Error>(())
//! ```

use std::{fmt, ops::Range, str::FromStr};

use crate::{
    Color, Error, ErrorKind, Square,
    fen::{self, Board, Castling, Checks, Fen, ParseMode, Pockets},
    san::SanPlus,
    syntax::{self, PResult, fail},
    types::{color, decimal},
};

/// One operand of an operation.
///
/// Parsing decides the variant from the text: a quoted string is a `String`; an optional sign
/// and digits that fit an `i64` are an `Integer`; digits with a decimal point are a `Float`
/// (its text kept as written); anything else (SAN moves, ECO codes, names) is a `Symbol`.
/// Bytes of a string or symbol that are not UTF-8 are read as Latin-1 (one character each).
/// A `Symbol` built by hand must be non-empty and contain no white space, `;` or `"` to be
/// written back as the same operand.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Operand {
    /// An unquoted token such as `Nf3` or `B20`.
    Symbol(String),
    /// An integer such as `-35`.
    Integer(i64),
    /// A number with a decimal point, its text as written, such as `0.25`.
    Float(String),
    /// A quoted string, unescaped.
    String(String),
}

impl Operand {
    /// The text of a `String` or `Symbol` operand.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Operand::String(s) | Operand::Symbol(s) => Some(s),
            _ => None,
        }
    }

    /// The value of an `Integer` operand.
    pub fn as_integer(&self) -> Option<i64> {
        match self {
            Operand::Integer(n) => Some(*n),
            _ => None,
        }
    }
}

impl From<SanPlus> for Operand {
    /// A move as a symbol, as in `bm Nf3;`.
    fn from(mv: SanPlus) -> Operand {
        Operand::Symbol(mv.to_string())
    }
}

impl From<i64> for Operand {
    fn from(n: i64) -> Operand {
        Operand::Integer(n)
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Symbol(s) | Operand::Float(s) => f.write_str(s),
            Operand::Integer(n) => write!(f, "{n}"),
            Operand::String(s) => {
                f.write_str("\"")?;
                for c in s.chars() {
                    if c == '"' || c == '\\' {
                        f.write_str("\\")?;
                    }
                    write!(f, "{c}")?;
                }
                f.write_str("\"")
            }
        }
    }
}

/// An operation: an opcode and its operands, `bm Nf3 Nc3;`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Operation {
    /// The opcode: a letter, then letters, digits or `_`.
    pub opcode: String,
    /// The operands, in order.
    pub operands: Vec<Operand>,
}

impl Operation {
    /// An operation of `opcode` with `operands`.
    pub fn new(opcode: impl Into<String>, operands: Vec<Operand>) -> Operation {
        Operation {
            opcode: opcode.into(),
            operands,
        }
    }
}

impl fmt::Display for Operation {
    /// The canonical form `opcode operand…;`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.opcode)?;
        for operand in &self.operands {
            write!(f, " {operand}")?;
        }
        f.write_str(";")
    }
}

/// A position in Extended Position Description: four FEN fields and operations.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Epd {
    /// The piece placement.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// The castling tokens.
    pub castling: Castling,
    /// The en-passant target square.
    pub ep_square: Option<Square>,
    /// Crazyhouse: the squares of promoted pieces (`Q~`), bit `8 × rank + file` (a1 = 0).
    pub promoted: u64,
    /// Crazyhouse: the pieces in hand (`[QPpp]` or a ninth rank), when given.
    pub pockets: Option<Pockets>,
    /// Three-check: the checks each side still has to give (`3+3` after the en-passant
    /// field), when given.
    pub checks: Option<Checks>,
    /// The operations in the order given, unknown opcodes included.
    pub operations: Vec<Operation>,
}

impl Epd {
    /// The four fields of `fen`, with its clocks kept as the operations `hmvc` and `fmvn`.
    ///
    /// ```
    /// use tabia_notation::{epd::Epd, fen::Fen};
    ///
    /// let epd = Epd::from_fen(&Fen::initial());
    /// assert_eq!(
    ///     epd.to_string(),
    ///     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 0; fmvn 1;"
    /// );
    /// assert_eq!(epd.to_fen()?, Fen::initial());
    /// # Ok::<(), tabia_notation::Error>(())
    /// ```
    pub fn from_fen(fen: &Fen) -> Epd {
        let mut epd = Epd::from_fen_without_clocks(fen);
        epd.operations.push(Operation::new(
            "hmvc",
            vec![Operand::Integer(i64::from(fen.halfmoves))],
        ));
        epd.operations.push(Operation::new(
            "fmvn",
            vec![Operand::Integer(i64::from(fen.fullmoves))],
        ));
        epd
    }

    /// The four fields of `fen` and no operations (its clocks are left out).
    pub fn from_fen_without_clocks(fen: &Fen) -> Epd {
        Epd {
            board: fen.board,
            turn: fen.turn,
            castling: fen.castling,
            ep_square: fen.ep_square,
            promoted: fen.promoted,
            pockets: fen.pockets,
            checks: fen.checks,
            operations: Vec::new(),
        }
    }

    /// The FEN of the position, its clocks from `hmvc` (default 0) and `fmvn` (default 1).
    pub fn to_fen(&self) -> Result<Fen, Error> {
        Ok(Fen {
            board: self.board,
            turn: self.turn,
            castling: self.castling,
            ep_square: self.ep_square,
            halfmoves: self.hmvc()?.unwrap_or(0),
            fullmoves: self.fmvn()?.unwrap_or(1),
            promoted: self.promoted,
            pockets: self.pockets,
            checks: self.checks,
        })
    }

    /// Parses an EPD record from the start of `bytes` (it ends at a line end or the end of
    /// input); returns it and the bytes consumed (not counting white space after it).
    pub fn prefix(bytes: &[u8]) -> Result<(Epd, usize), Error> {
        syntax::run(bytes, epd)
    }

    /// Parses exactly one EPD record (white space around it is ignored). The error carries
    /// `bytes` as its source.
    pub fn from_ascii(bytes: &[u8]) -> Result<Epd, Error> {
        syntax::run_trimmed(bytes, epd)
    }

    /// Parses exactly one EPD record as [`Epd::from_ascii`] does, and also one written as
    /// perft suites write them: a FEN's two clocks after the position fields (read as `hmvc`
    /// and `fmvn`), and operations each led by a `;` rather than ended by one (`FEN ;D1 20
    /// ;D2 400`), as python-chess reads them. Says whether the record was so (a warning: its
    /// [`Display`](fmt::Display) is the standard form).
    ///
    /// ```
    /// use tabia_notation::epd::Epd;
    ///
    /// let (epd, lenient) = Epd::from_ascii_lenient(
    ///     b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400",
    /// )?;
    /// assert!(lenient);
    /// assert_eq!(
    ///     epd.to_string(),
    ///     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 0; fmvn 1; D1 20; D2 400;"
    /// );
    /// let (_, lenient) = Epd::from_ascii_lenient(b"8/8/8/8/8/8/8/K6k w - - bm Kb2;")?;
    /// assert!(!lenient);
    /// # Ok::<(), tabia_notation::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Epd::from_ascii`].
    pub fn from_ascii_lenient(bytes: &[u8]) -> Result<(Epd, bool), Error> {
        syntax::run_trimmed(bytes, |i| epd_with(i, true))
    }

    /// The first operation with `opcode`.
    pub fn operation(&self, opcode: &str) -> Option<&Operation> {
        self.operations.iter().find(|op| op.opcode == opcode)
    }

    /// Replaces the first operation with the same opcode, or appends `operation`.
    pub fn set(&mut self, operation: Operation) {
        match self
            .operations
            .iter_mut()
            .find(|op| op.opcode == operation.opcode)
        {
            Some(slot) => *slot = operation,
            None => self.operations.push(operation),
        }
    }

    /// Removes every operation with `opcode`; returns how many there were.
    pub fn remove(&mut self, opcode: &str) -> usize {
        let before = self.operations.len();
        self.operations.retain(|op| op.opcode != opcode);
        before - self.operations.len()
    }

    /// `id`: the position's identifier.
    pub fn id(&self) -> Result<Option<&str>, Error> {
        self.text("id")
    }

    /// `bm`: the best moves.
    pub fn best_moves(&self) -> Result<Option<Vec<SanPlus>>, Error> {
        self.moves("bm")
    }

    /// `am`: the moves to avoid.
    pub fn avoid_moves(&self) -> Result<Option<Vec<SanPlus>>, Error> {
        self.moves("am")
    }

    /// `pm`: the predicted move.
    pub fn predicted_move(&self) -> Result<Option<SanPlus>, Error> {
        self.one_move("pm")
    }

    /// `sm`: the supplied move.
    pub fn supplied_move(&self) -> Result<Option<SanPlus>, Error> {
        self.one_move("sm")
    }

    /// `pv`: the predicted variation.
    pub fn principal_variation(&self) -> Result<Option<Vec<SanPlus>>, Error> {
        self.moves("pv")
    }

    /// `c0` to `c9`: comment `n` (`None` for `n` above 9).
    ///
    /// ```
    /// use tabia_notation::epd::Epd;
    ///
    /// let epd: Epd = r#"8/8/8/8/8/8/8/K6k w - - c0 "say \"hi\""; c1 plain;"#.parse()?;
    /// assert_eq!(epd.comment(0)?, Some(r#"say "hi""#));
    /// assert_eq!(epd.comment(1)?, Some("plain"));
    /// assert_eq!(epd.comment(2)?, None);
    /// # Ok::<(), tabia_notation::Error>(())
    /// ```
    pub fn comment(&self, n: u8) -> Result<Option<&str>, Error> {
        const OPCODES: [&str; 10] = ["c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"];
        match OPCODES.get(usize::from(n)) {
            Some(opcode) => self.text(opcode),
            None => Ok(None),
        }
    }

    /// `ce`: the centipawn evaluation, from the side to move's point of view.
    pub fn centipawn_eval(&self) -> Result<Option<i64>, Error> {
        self.integer("ce", i64::MIN, i64::MAX)
    }

    /// `acd`: the analysis count depth, in plies.
    pub fn acd(&self) -> Result<Option<u64>, Error> {
        self.unsigned("acd")
    }

    /// `acn`: the analysis count of nodes.
    pub fn acn(&self) -> Result<Option<u64>, Error> {
        self.unsigned("acn")
    }

    /// `acs`: the analysis count of seconds.
    pub fn acs(&self) -> Result<Option<u64>, Error> {
        self.unsigned("acs")
    }

    /// `dm`: direct mate in this many moves.
    pub fn direct_mate(&self) -> Result<Option<u64>, Error> {
        self.unsigned("dm")
    }

    /// `hmvc`: the halfmove clock.
    pub fn hmvc(&self) -> Result<Option<u32>, Error> {
        let n = self.integer("hmvc", 0, i64::from(u32::MAX))?;
        Ok(n.and_then(|n| u32::try_from(n).ok()))
    }

    /// `fmvn`: the fullmove number.
    pub fn fmvn(&self) -> Result<Option<u32>, Error> {
        let n = self.integer("fmvn", 0, i64::from(u32::MAX))?;
        Ok(n.and_then(|n| u32::try_from(n).ok()))
    }

    /// `eco`: the ECO opening code.
    pub fn eco(&self) -> Result<Option<&str>, Error> {
        self.text("eco")
    }

    /// `nic`: the New In Chess opening code.
    pub fn nic(&self) -> Result<Option<&str>, Error> {
        self.text("nic")
    }

    /// `noop`: the operands of the no-operation, which carries data no one interprets.
    pub fn noop(&self) -> Option<&[Operand]> {
        self.operation("noop").map(|op| op.operands.as_slice())
    }

    /// The index of the first operation with `opcode` and its single operand.
    fn single(&self, opcode: &str) -> Result<Option<(usize, &Operand)>, Error> {
        let Some(index) = self.operations.iter().position(|op| op.opcode == opcode) else {
            return Ok(None);
        };
        let operands = self
            .operations
            .get(index)
            .map(|op| op.operands.as_slice())
            .unwrap_or_default();
        match operands {
            [operand] => Ok(Some((index, operand))),
            [] => Err(self.type_error(index, None, "exactly one operand")),
            _ => Err(self.type_error(index, Some(1), "exactly one operand")),
        }
    }

    fn text(&self, opcode: &str) -> Result<Option<&str>, Error> {
        match self.single(opcode)? {
            None => Ok(None),
            Some((i, operand)) => match operand.as_text() {
                Some(text) => Ok(Some(text)),
                None => Err(self.type_error(i, Some(0), "a string")),
            },
        }
    }

    fn integer(&self, opcode: &str, min: i64, max: i64) -> Result<Option<i64>, Error> {
        match self.single(opcode)? {
            None => Ok(None),
            Some((i, operand)) => match operand.as_integer() {
                Some(n) if (min..=max).contains(&n) => Ok(Some(n)),
                _ if min == 0 => Err(self.type_error(i, Some(0), "a non-negative integer")),
                _ => Err(self.type_error(i, Some(0), "an integer")),
            },
        }
    }

    fn unsigned(&self, opcode: &str) -> Result<Option<u64>, Error> {
        let n = self.integer(opcode, 0, i64::MAX)?;
        Ok(n.and_then(|n| u64::try_from(n).ok()))
    }

    fn one_move(&self, opcode: &str) -> Result<Option<SanPlus>, Error> {
        match self.single(opcode)? {
            None => Ok(None),
            Some((i, operand)) => self.san(i, 0, operand).map(Some),
        }
    }

    fn moves(&self, opcode: &str) -> Result<Option<Vec<SanPlus>>, Error> {
        let Some(index) = self.operations.iter().position(|op| op.opcode == opcode) else {
            return Ok(None);
        };
        let operands = self
            .operations
            .get(index)
            .map(|op| op.operands.as_slice())
            .unwrap_or_default();
        operands
            .iter()
            .enumerate()
            .map(|(j, operand)| self.san(index, j, operand))
            .collect::<Result<Vec<_>, Error>>()
            .map(Some)
    }

    fn san(&self, op: usize, index: usize, operand: &Operand) -> Result<SanPlus, Error> {
        match operand {
            Operand::Symbol(s) => SanPlus::from_ascii(s.as_bytes()).map_err(|e| {
                let (text, span) = self.locate(op, Some(index));
                Error::new(ErrorKind::InvalidSan, span)
                    .with_expected(e.expected().unwrap_or("a SAN move and nothing after it"))
                    .with_source(text.as_bytes())
            }),
            _ => Err(self.type_error(op, Some(index), "a SAN move")),
        }
    }

    /// An [`ErrorKind::InvalidOperandType`] error on operand `index` of operation `op` (or on
    /// its opcode), located in the canonical text.
    fn type_error(&self, op: usize, index: Option<usize>, expected: &'static str) -> Error {
        let (text, span) = self.locate(op, index);
        Error::new(ErrorKind::InvalidOperandType, span)
            .with_expected(expected)
            .with_source(text.as_bytes())
    }

    /// The canonical text and the span in it of operand `index` of operation `op` (or of the
    /// opcode).
    fn locate(&self, op: usize, index: Option<usize>) -> (String, Range<usize>) {
        let text = self.to_string();
        let mut at = self.fields_len();
        let mut span = 0..0;
        for (k, operation) in self.operations.iter().enumerate() {
            at += 1;
            if k == op && index.is_none() {
                span = at..at + operation.opcode.len();
                break;
            }
            at += operation.opcode.len();
            for (j, operand) in operation.operands.iter().enumerate() {
                let len = operand.to_string().len();
                at += 1;
                if k == op && Some(j) == index {
                    span = at..at + len;
                }
                at += len;
            }
            if k == op {
                break;
            }
            at += 1;
        }
        (text, span)
    }

    /// The length of the four fields as written.
    fn fields_len(&self) -> usize {
        let ep = if self.ep_square.is_some() { 2 } else { 1 };
        let castling = self.castling.len().max(1);
        let promoted = self.promoted.count_ones() as usize;
        let pockets = self.pockets.map_or(0, |p| p.len() + 2);
        let checks = if self.checks.is_some() { 4 } else { 0 };
        self.board.to_string().len() + promoted + pockets + 1 + 1 + 1 + castling + 1 + ep + checks
    }
}

// epd = placement sep color sep castling sep ep-square [sep checks-remaining]
//       *(*(" " / %x09) operation)
//     ; the first operation follows a space, the others may follow their `;` directly
fn epd(i: &[u8]) -> PResult<'_, Epd> {
    let (i, (epd, _)) = epd_with(i, false)?;
    Ok((i, epd))
}

// lenient-epd = placement sep color sep castling sep ep-square [sep checks-remaining]
//               [sep integer sep integer] *(*(" " / %x09) (operation / led-operation))
// led-operation = ";" *(" " / %x09) opcode *(sep operand)   ; up to the next ";" or line end
//     ; as perft suites write them: `FEN ;D1 20 ;D2 400`
//
// With `lenient`, also says whether it read any of that.
fn epd_with(i: &[u8], lenient: bool) -> PResult<'_, (Epd, bool)> {
    let (i, placement) = fen::placement(i)?;
    let (i, ()) = fen::field_end(i, ErrorKind::InvalidPlacement, "a piece placement")?;
    let (i, turn) = required(
        i,
        "the active colour",
        color,
        ErrorKind::InvalidColor,
        "`w` or `b`",
    )?;
    let (i, castling) = required(
        i,
        "the castling field",
        fen::castling,
        ErrorKind::InvalidCastling,
        "castling rights such as `KQkq`, `HAha` or `-`",
    )?;
    let (mut i, ep_square) = required(
        i,
        "the en-passant field",
        fen::ep_square,
        ErrorKind::InvalidEnPassant,
        "a square such as `e3`, or `-`",
    )?;
    let mut checks = None;
    if let Some(field) = fen::next_field(i).filter(|f| fen::is_checks_field(f)) {
        let (rest, counters) = fen::checks_remaining(field)?;
        checks = Some(counters);
        i = rest;
    }
    let mut operations = Vec::new();
    let mut departed = false;
    if lenient && let Some((rest, clocks)) = fen_clocks(i) {
        operations.extend(clocks);
        departed = true;
        i = rest;
    }
    loop {
        let gap = i.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
        let next = i.get(gap..).unwrap_or_default();
        match next.first() {
            None | Some(b'\r' | b'\n') => break,
            Some(b';') if lenient => {
                let (rest, op) = led_operation(&next[1..])?;
                operations.push(op);
                departed = true;
                i = rest;
            }
            Some(_) => {
                let (rest, op) = operation(next)?;
                operations.push(op);
                i = rest;
            }
        }
    }
    let epd = Epd {
        board: placement.board,
        turn,
        castling,
        ep_square,
        promoted: placement.promoted,
        pockets: placement.pockets,
        checks,
        operations,
    };
    Ok((i, (epd, departed)))
}

/// A FEN's two clocks after the position fields, as the operations `hmvc` and `fmvn`, when
/// they are two integers followed by white space, a `;` or the end of the line.
fn fen_clocks(i: &[u8]) -> Option<(&[u8], [Operation; 2])> {
    let mut rest = i;
    let mut clocks = [0i64; 2];
    for clock in &mut clocks {
        let gap = rest
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        let digits = rest[gap..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if gap == 0 || digits == 0 || digits > 9 {
            return None;
        }
        *clock = std::str::from_utf8(&rest[gap..gap + digits])
            .ok()?
            .parse()
            .ok()?;
        rest = &rest[gap + digits..];
    }
    if !matches!(
        rest.first(),
        None | Some(b' ' | b'\t' | b';' | b'\r' | b'\n')
    ) {
        return None;
    }
    let [half, full] = clocks;
    Some((
        rest,
        [
            Operation::new("hmvc", vec![Operand::Integer(half)]),
            Operation::new("fmvn", vec![Operand::Integer(full)]),
        ],
    ))
}

// led-operation = ";" *(" " / %x09) opcode *(sep operand)   (after the ";")
fn led_operation(i: &[u8]) -> PResult<'_, Operation> {
    let gap = i.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
    let (i, opcode) = opcode(&i[gap..])?;
    let (at, operands) = operands(i)?;
    Ok((at, Operation { opcode, operands }))
}

// *(sep operand), up to what ends them (`;`, a line end, the end), which is left
fn operands(mut i: &[u8]) -> PResult<'_, Vec<Operand>> {
    let mut operands = Vec::new();
    loop {
        let gap = i.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
        let at = i.get(gap..).unwrap_or_default();
        match at.first() {
            None | Some(b';' | b'\r' | b'\n') => return Ok((at, operands)),
            Some(_) if gap == 0 => {
                return fail(
                    at,
                    1,
                    ErrorKind::MissingSeparator,
                    "a space before the operand",
                );
            }
            Some(_) => {
                let (rest, operand) = operand(at)?;
                operands.push(operand);
                i = rest;
            }
        }
    }
}

/// A field that must follow: see [`fen::then_field`].
fn required<'a, T>(
    i: &'a [u8],
    what: &'static str,
    rule: impl FnOnce(&'a [u8]) -> PResult<'a, T>,
    kind: ErrorKind,
    expected: &'static str,
) -> PResult<'a, T> {
    let (rest, value) = fen::then_field(i, ParseMode::Strict, what, rule, kind, expected)?;
    match value {
        Some(value) => Ok((rest, value)),
        None => fail(i, 0, ErrorKind::MissingField, what),
    }
}

// operation = opcode *(sep operand) *(" " / %x09) ";"
fn operation(i: &[u8]) -> PResult<'_, Operation> {
    let (i, opcode) = opcode(i)?;
    let (at, operands) = operands(i)?;
    match at.first() {
        Some(b';') => {
            let rest = at.get(1..).unwrap_or_default();
            Ok((rest, Operation { opcode, operands }))
        }
        _ => fail(at, 0, ErrorKind::MissingSemicolon, "`;`"),
    }
}

// opcode = ALPHA *(ALPHA / DIGIT / "_")
fn opcode(i: &[u8]) -> PResult<'_, String> {
    const EXPECTED: &str = "an opcode: a letter, then letters, digits or `_`";
    if !i.first().is_some_and(u8::is_ascii_alphabetic) {
        let len = i
            .iter()
            .position(|b| b.is_ascii_whitespace() || *b == b';')
            .unwrap_or(i.len())
            .max(1);
        return fail(i, len, ErrorKind::InvalidOpcode, EXPECTED);
    }
    let n = i
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let (name, rest) = i.split_at(n);
    match rest.first() {
        None | Some(b';') => {}
        Some(b) if b.is_ascii_whitespace() => {}
        Some(_) => return fail(rest, 1, ErrorKind::InvalidOpcode, EXPECTED),
    }
    Ok((rest, String::from_utf8_lossy(name).into_owned()))
}

// operand = string / token            ; a token is a number or a symbol
fn operand(i: &[u8]) -> PResult<'_, Operand> {
    match i.first() {
        Some(b'"') => string(i),
        _ => token(i),
    }
}

// string = DQUOTE *(escape / char) DQUOTE   ; on one line
// escape = "\" (DQUOTE / "\")
fn string(i: &[u8]) -> PResult<'_, Operand> {
    let start = i;
    let body = i.get(1..).unwrap_or_default();
    let mut bytes = Vec::new();
    let mut k = 0;
    while let Some(&b) = body.get(k) {
        match b {
            b'"' => {
                let rest = body.get(k + 1..).unwrap_or_default();
                if rest
                    .first()
                    .is_some_and(|b| !b.is_ascii_whitespace() && *b != b';')
                {
                    return fail(rest, 1, ErrorKind::MissingSeparator, "a space or `;`");
                }
                return Ok((rest, Operand::String(crate::decode(&bytes).into_owned())));
            }
            b'\\' if matches!(body.get(k + 1), Some(b'"' | b'\\')) => {
                bytes.extend(body.get(k + 1));
                k += 2;
            }
            b'\r' | b'\n' => break,
            _ => {
                bytes.push(b);
                k += 1;
            }
        }
    }
    fail(
        start,
        k + 1,
        ErrorKind::UnterminatedString,
        "a closing `\"`",
    )
}

// token = 1*(any byte but white space, ";" and DQUOTE)
// integer = ["+" / "-"] 1*DIGIT            ; fitting in 64 bits, else a symbol
// float = ["+" / "-"] (1*DIGIT "." *DIGIT / "." 1*DIGIT)
fn token(i: &[u8]) -> PResult<'_, Operand> {
    let n = i
        .iter()
        .take_while(|&&b| !b.is_ascii_whitespace() && b != b';' && b != b'"')
        .count();
    let (text, rest) = i.split_at(n);
    if rest.first() == Some(&b'"') {
        return fail(
            rest,
            1,
            ErrorKind::MissingSeparator,
            "a space before the string",
        );
    }
    Ok((rest, classify(text)))
}

fn classify(text: &[u8]) -> Operand {
    let (negative, unsigned) = match text {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, text),
    };
    let digits = unsigned.iter().take_while(|b| b.is_ascii_digit()).count();
    let (int, frac) = unsigned.split_at(digits);
    if digits > 0 && frac.is_empty() {
        let value = decimal(int).and_then(|v| i64::try_from(v).ok());
        match value {
            Some(v) if negative => return Operand::Integer(-v),
            Some(v) => return Operand::Integer(v),
            None => {}
        }
    }
    if let [b'.', after @ ..] = frac
        && after.iter().all(u8::is_ascii_digit)
        && (digits > 0 || !after.is_empty())
    {
        return Operand::Float(crate::decode(text).into_owned());
    }
    Operand::Symbol(crate::decode(text).into_owned())
}

impl fmt::Display for Epd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fen::write_placement(f, &self.board, self.promoted, self.pockets.as_ref())?;
        write!(f, " {} {} ", self.turn, self.castling)?;
        match self.ep_square {
            Some(sq) => write!(f, "{sq}")?,
            None => f.write_str("-")?,
        }
        if let Some(checks) = self.checks {
            write!(f, " {checks}")?;
        }
        for op in &self.operations {
            write!(f, " {op}")?;
        }
        Ok(())
    }
}

impl FromStr for Epd {
    type Err = Error;

    fn from_str(s: &str) -> Result<Epd, Error> {
        Epd::from_ascii(s.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KINGS: &str = "8/8/8/8/8/8/8/K6k w - -";

    fn epd_of(ops: &str) -> Epd {
        format!("{KINGS} {ops}").parse().unwrap()
    }

    #[test]
    fn opcode_rule() {
        assert_eq!(opcode(b"bm e4;"), Ok((&b" e4;"[..], "bm".to_string())));
        assert_eq!(opcode(b"c0;"), Ok((&b";"[..], "c0".to_string())));
        assert_eq!(opcode(b"my_op2 x"), Ok((&b" x"[..], "my_op2".to_string())));
        assert!(opcode(b"0bm").is_err());
        assert!(opcode(b"b-m e4;").is_err());
    }

    #[test]
    fn token_rule_classifies() {
        let cases = [
            ("42", Operand::Integer(42)),
            ("-35", Operand::Integer(-35)),
            ("+7", Operand::Integer(7)),
            ("0.25", Operand::Float("0.25".into())),
            ("-.5", Operand::Float("-.5".into())),
            ("3.", Operand::Float("3.".into())),
            ("Nf3", Operand::Symbol("Nf3".into())),
            ("1-0", Operand::Symbol("1-0".into())),
            ("-", Operand::Symbol("-".into())),
            (
                "99999999999999999999",
                Operand::Symbol("99999999999999999999".into()),
            ),
            (".", Operand::Symbol(".".into())),
        ];
        for (text, want) in cases {
            assert_eq!(token(text.as_bytes()), Ok((&b""[..], want)), "{text}");
        }
        assert_eq!(token(b"e4;"), Ok((&b";"[..], Operand::Symbol("e4".into()))));
        assert!(token(b"e4\"x\"").is_err());
    }

    #[test]
    fn string_rule_unescapes() {
        assert_eq!(
            string(br#""a \"b\" \\ c\n";"#),
            Ok((&b";"[..], Operand::String(r#"a "b" \ c\n"#.into())))
        );
        assert!(string(b"\"open").is_err());
        assert!(string(b"\"x\"y").is_err());
    }

    #[test]
    fn operation_rule() {
        let (rest, op) = operation(b"bm Nf3 e4 ; id \"x\";").unwrap();
        assert_eq!(rest, b" id \"x\";");
        assert_eq!(op.opcode, "bm");
        assert_eq!(op.operands.len(), 2);
        assert_eq!(operation(b"noop;").unwrap().1.operands, []);
        let missing = operation(b"bm e4").unwrap_err();
        assert!(matches!(missing, nom::Err::Error(f) if f.kind == ErrorKind::MissingSemicolon));
    }

    #[test]
    fn unknown_opcodes_are_kept_in_order() {
        let epd = epd_of(r#"zz 1; bm e4; aa "x"; zz 2;"#);
        let names: Vec<_> = epd.operations.iter().map(|op| op.opcode.as_str()).collect();
        assert_eq!(names, ["zz", "bm", "aa", "zz"]);
        assert_eq!(
            epd.to_string(),
            format!(r#"{KINGS} zz 1; bm e4; aa "x"; zz 2;"#)
        );
    }

    #[test]
    fn typed_accessors() {
        let epd = epd_of(
            r#"acd 12; acn 1000; acs 3; am Qxb2 Nf3; ce -35; dm 4; eco B20; nic SI.01; hmvc 3; fmvn 20; pm e4+; pv e4 e5 Nf3; sm d4; noop 1 x "y";"#,
        );
        assert_eq!(epd.acd(), Ok(Some(12)));
        assert_eq!(epd.acn(), Ok(Some(1000)));
        assert_eq!(epd.acs(), Ok(Some(3)));
        assert_eq!(epd.avoid_moves().unwrap().unwrap().len(), 2);
        assert_eq!(epd.centipawn_eval(), Ok(Some(-35)));
        assert_eq!(epd.direct_mate(), Ok(Some(4)));
        assert_eq!(epd.eco(), Ok(Some("B20")));
        assert_eq!(epd.nic(), Ok(Some("SI.01")));
        assert_eq!((epd.hmvc(), epd.fmvn()), (Ok(Some(3)), Ok(Some(20))));
        assert_eq!(epd.predicted_move().unwrap().unwrap().to_string(), "e4+");
        assert_eq!(epd.principal_variation().unwrap().unwrap().len(), 3);
        assert_eq!(epd.supplied_move().unwrap().unwrap().to_string(), "d4");
        assert_eq!(epd.noop().map(<[Operand]>::len), Some(3));
        assert_eq!(epd.best_moves(), Ok(None));
        assert_eq!(epd.id(), Ok(None));
        let fen = epd.to_fen().unwrap();
        assert_eq!((fen.halfmoves, fen.fullmoves), (3, 20));
    }

    #[test]
    fn typed_errors_point_into_canonical_text() {
        let epd = epd_of("ce  high ;  acd -1; bm e4 Qxx;");
        let err = epd.centipawn_eval().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidOperandType);
        assert_eq!(
            err.to_string(),
            "operand of the wrong type for its opcode (expected an integer) at line 1, column 28\n  \
             | 8/8/8/8/8/8/8/K6k w - - ce high; acd -1; bm e4 Qxx;\n  \
             |                            ^^^^"
        );
        assert_eq!(epd.acd().unwrap_err().span(), 37..39);
        let bm = epd.best_moves().unwrap_err();
        assert_eq!((bm.kind(), bm.span()), (ErrorKind::InvalidSan, 47..50));
        let none = epd_of("id;");
        assert_eq!(none.id().unwrap_err().span(), 24..26);
        let two = epd_of("id a b;");
        assert_eq!(two.id().unwrap_err().span(), 29..30);
    }

    #[test]
    fn set_and_remove() {
        let mut epd = epd_of("bm e4; id x; bm d4;");
        epd.set(Operation::new("id", vec![Operand::String("y".into())]));
        epd.set(Operation::new("c0", vec![Operand::String("z".into())]));
        assert_eq!(epd.remove("bm"), 2);
        assert_eq!(epd.to_string(), format!(r#"{KINGS} id "y"; c0 "z";"#));
    }

    #[test]
    fn field_errors() {
        let cases = [
            ("8/8/8/8/8/8/8/K6k w -", ErrorKind::MissingField),
            ("8/8/8/8/8/8/8/K6k w - - 0 1", ErrorKind::InvalidOpcode),
            ("8/8/8/8/8/8/8/K6k w - - bm e4", ErrorKind::MissingSemicolon),
            (
                "8/8/8/8/8/8/8/K6k w - - id \"x",
                ErrorKind::UnterminatedString,
            ),
            (
                "8/8/8/8/8/8/8/K6k w - - id \"x\"\"y\";",
                ErrorKind::MissingSeparator,
            ),
            (
                "8/8/8/8/8/8/8/K6k w - - bm e4;\nid x;",
                ErrorKind::TrailingInput,
            ),
        ];
        for (text, kind) in cases {
            assert_eq!(
                Epd::from_ascii(text.as_bytes()).unwrap_err().kind(),
                kind,
                "{text}"
            );
        }
    }

    #[test]
    fn prefix_stops_at_line_end() {
        let (epd, used) = Epd::prefix(b"8/8/8/8/8/8/8/K6k w - - bm e4; \r\nnext").unwrap();
        assert_eq!((epd.operations.len(), used), (1, 30));
    }
}
