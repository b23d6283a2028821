//! Tables read at run time: pgn-extract's `eco.pgn`, Scid's `.eco` and lichess-style TSV.
//!
//! Every format is a list of entries, each an ECO code, a name and the moves from the
//! starting position; the moves are PGN movetext read by the PGN reader of
//! `tabia-notation` and replayed by `tabia-position`. When several entries reach the same
//! position, the first one in the file names it (as pgn-extract does for a position reached
//! by another move order), except in a TSV, where the last one does (as lichess's
//! `OpeningDb` does: its map by position keeps the last row).

use std::path::Path;

use tabia_notation::{
    Error, ErrorKind,
    pgn::{Origin, PgnReader, RawTag, ReadError, SanPlus, Skip, Visitor},
};

use crate::{
    LoadError, LoadErrorKind, Table,
    table::{Builder, Entry},
};

/// The text formats of opening tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TableFormat {
    /// PGN games with `ECO`, `Opening`, `Variation` and `SubVariation` tags, like pgn-extract's
    /// `eco.pgn`. The name is `Opening: Variation, SubVariation`.
    Pgn,
    /// Scid's `.eco`: `B90a "Sicilian: Najdorf" 1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3
    /// a6 *`, an entry possibly running over several lines, `#` comments. The ECO code is the
    /// first three characters of the extended code.
    Scid,
    /// Tab-separated values with the columns `eco`, `name` and `pgn` (as lichess
    /// chess-openings publishes them) and maybe `extended`, in any order, named by a header
    /// line; `#` starts a comment line. Names in the lichess style
    /// ([`Opening::set_tags`](crate::Opening::set_tags)). The embedded tables' text is in this
    /// format.
    Tsv,
}

impl TableFormat {
    /// The format a file's extension says (`.pgn`, `.eco`, `.tsv`), else what its content
    /// looks like: a `[` tag first is PGN, a header line with tabs is TSV, else Scid.
    ///
    /// ```
    /// use std::path::Path;
    /// use tabia_eco::TableFormat;
    ///
    /// assert_eq!(TableFormat::detect(Some(Path::new("eco.pgn")), b""), TableFormat::Pgn);
    /// assert_eq!(TableFormat::detect(None, b"eco\tname\tpgn\n"), TableFormat::Tsv);
    /// assert_eq!(TableFormat::detect(None, b"# Scid\nA00 \"Start\" *\n"), TableFormat::Scid);
    /// ```
    pub fn detect(path: Option<&Path>, bytes: &[u8]) -> TableFormat {
        let ext = path
            .and_then(Path::extension)
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("pgn") => return TableFormat::Pgn,
            Some("eco") => return TableFormat::Scid,
            Some("tsv") => return TableFormat::Tsv,
            _ => {}
        }
        let first = bytes
            .split(|&b| b == b'\n')
            .map(|l| l.trim_ascii())
            .find(|l| !l.is_empty() && !l.starts_with(b"#"))
            .unwrap_or(b"");
        if first.starts_with(b"[") || first.starts_with(b"{") {
            TableFormat::Pgn
        } else if first.contains(&b'\t') {
            TableFormat::Tsv
        } else {
            TableFormat::Scid
        }
    }
}

impl Table {
    /// Reads a table in `format` (see [`TableFormat::detect`]).
    ///
    /// ```
    /// use tabia_eco::{TableFormat, Table, position::Position};
    ///
    /// let tsv = "eco\tname\tpgn\nC20\tKing's Pawn Game\t1. e4 e5\nC40\tKing's Knight Opening\t1. e4 e5 2. Nf3\n";
    /// let table = Table::from_bytes(tsv.as_bytes(), TableFormat::Tsv)?;
    /// assert_eq!(table.len(), 2);
    /// let pos = Position::new().after("e4")?.after("e5")?;
    /// assert_eq!(table.lookup(&pos.key()).map(|o| o.name()), Some("King's Pawn Game"));
    ///
    /// let bad = "eco\tname\tpgn\nC20\tKing's Pawn Game\t1. e4 e5 2. Ke3\n";
    /// let err = Table::from_bytes(bad.as_bytes(), TableFormat::Tsv).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "line 2: ply 3: illegal move `Ke3`: no white king can go to e3"
    /// );
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The first entry that cannot be read or replayed, with its line.
    pub fn from_bytes(bytes: &[u8], format: TableFormat) -> Result<Table, LoadError> {
        let tsv = format == TableFormat::Tsv;
        let mut builder = Builder::new(bytes.len() / 48, tsv, tsv);
        match format {
            TableFormat::Pgn => read_pgn(bytes, &mut builder)?,
            TableFormat::Scid => read_scid(bytes, &mut builder)?,
            TableFormat::Tsv => read_tsv(bytes, &mut builder)?,
        }
        Ok(builder.finish())
    }
}

/// Collects the mainline of one game and the tags a table needs.
#[derive(Debug, Default)]
struct EntryVisitor {
    start: Origin,
    sans: Vec<String>,
    eco: Option<String>,
    opening: Option<String>,
    variation: Option<String>,
    sub_variation: Option<String>,
    set_up: bool,
}

impl Visitor for EntryVisitor {
    type Output = EntryVisitor;

    fn begin_game(&mut self, start: Origin) -> Skip {
        *self = EntryVisitor {
            start,
            ..EntryVisitor::default()
        };
        Skip(false)
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        let slot = match name {
            b"ECO" => &mut self.eco,
            b"Opening" => &mut self.opening,
            b"Variation" => &mut self.variation,
            b"SubVariation" => &mut self.sub_variation,
            b"FEN" => {
                self.set_up = true;
                return;
            }
            _ => return,
        };
        *slot = Some(value.decode().trim().to_owned());
    }

    fn san(&mut self, san: SanPlus, _at: Origin) {
        self.sans.push(san.to_string());
    }

    fn begin_variation(&mut self) -> Skip {
        Skip(true)
    }

    fn end_game(&mut self) -> EntryVisitor {
        std::mem::take(self)
    }
}

fn game_error(err: ReadError) -> LoadError {
    match err {
        ReadError::Syntax { error, start } => LoadError::new(
            error.line().unwrap_or(start.line),
            LoadErrorKind::Syntax(error),
        ),
        other => LoadError::new(0, LoadErrorKind::Io(other.to_string())),
    }
}

/// The name of a pgn-extract entry: `Opening: Variation, SubVariation`.
fn pgn_name(v: &EntryVisitor) -> String {
    let mut name = v.opening.clone().unwrap_or_default();
    for (i, part) in [&v.variation, &v.sub_variation]
        .into_iter()
        .flatten()
        .enumerate()
    {
        name.push_str(if i == 0 { ": " } else { ", " });
        name.push_str(part);
    }
    name
}

// table-pgn = { game }
// A game without an ECO tag (like the comment that opens pgn-extract's file) names nothing.
fn read_pgn(bytes: &[u8], builder: &mut Builder) -> Result<(), LoadError> {
    let mut reader = PgnReader::new(bytes);
    let mut visitor = EntryVisitor::default();
    loop {
        let game = match reader.read_game(&mut visitor) {
            Ok(Some(game)) => game,
            Ok(None) => return Ok(()),
            // A comment before the first tags (pgn-extract's file opens with one) reads as a
            // game without moves or result: it names nothing.
            Err(ReadError::Syntax { error, .. })
                if error.kind() == ErrorKind::MissingResult
                    && visitor.eco.is_none()
                    && visitor.sans.is_empty() =>
            {
                continue;
            }
            Err(err) => return Err(game_error(err)),
        };
        let Some(eco) = game.eco.clone() else {
            continue;
        };
        let line = game.start.line;
        if game.set_up {
            return Err(LoadError::new(line, LoadErrorKind::NonStandardStart));
        }
        let entry = Entry {
            eco: eco.into(),
            extended: None,
            name: pgn_name(&game).into(),
        };
        builder.add(line, &game.sans, entry)?;
    }
}

/// Reads the movetext that starts at `origin` (up to and including its result) with the PGN
/// reader; returns its moves and the absolute offset after it.
fn read_movetext(bytes: &[u8], origin: Origin) -> Result<(Vec<String>, u64), LoadError> {
    let mut reader = PgnReader::with_capacity(4096, bytes).with_origin(origin);
    let mut visitor = EntryVisitor::default();
    match reader.read_game(&mut visitor).map_err(game_error)? {
        Some(game) => Ok((game.sans, reader.offset())),
        None => Ok((Vec::new(), reader.offset())),
    }
}

/// Where `offset` is in `bytes` (the end, if it is past it): its 1-based line and column.
fn origin_at(bytes: &[u8], offset: usize, line: u64) -> Origin {
    let offset = offset.min(bytes.len());
    let line_start = bytes[..offset]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    Origin {
        offset: offset as u64,
        line,
        column: (offset - line_start) as u64 + 1,
    }
}

fn syntax(
    bytes: &[u8],
    span: std::ops::Range<usize>,
    kind: ErrorKind,
    expected: &'static str,
) -> LoadError {
    let err = Error::new(kind, span)
        .with_expected(expected)
        .with_source(bytes);
    LoadError::new(err.line().unwrap_or(0), LoadErrorKind::Syntax(err))
}

// table-scid = { comment-line | entry }
// entry      = code white-space quoted-name white-space movetext   (movetext ends with its result)
fn read_scid(bytes: &[u8], builder: &mut Builder) -> Result<(), LoadError> {
    let mut pos = 0;
    let mut line = 1;
    loop {
        // Blank space and `#` comment lines between entries.
        while let Some(&b) = bytes.get(pos) {
            match b {
                b'\n' => {
                    line += 1;
                    pos += 1;
                }
                b'#' => {
                    pos = bytes[pos..]
                        .iter()
                        .position(|&b| b == b'\n')
                        .map_or(bytes.len(), |n| pos + n);
                }
                b if b.is_ascii_whitespace() => pos += 1,
                _ => break,
            }
        }
        if pos >= bytes.len() {
            return Ok(());
        }
        let entry_line = line;
        let (code, after_code) = scid_code(bytes, pos)?;
        let (name, after_name) = quoted_name(bytes, skip_blanks(bytes, after_code))?;
        let start = skip_blanks(bytes, after_name);
        let (sans, end) = read_movetext(&bytes[start..], origin_at(bytes, start, line))?;
        let end = usize::try_from(end).unwrap_or(bytes.len()).min(bytes.len());
        line += bytes[pos..end].iter().filter(|&&b| b == b'\n').count() as u64;
        pos = end.max(start + 1);
        let entry = Entry {
            eco: code.get(..3).unwrap_or(code).to_owned().into(),
            extended: (code.len() > 3).then(|| code.to_owned().into()),
            name: name.into(),
        };
        builder.add(entry_line, &sans, entry)?;
    }
}

fn skip_blanks(bytes: &[u8], mut pos: usize) -> usize {
    while bytes.get(pos).is_some_and(|&b| b == b' ' || b == b'\t') {
        pos += 1;
    }
    pos
}

// code = letter digit digit [lower-letter [digit]]     (A00, B90a, C44b3)
fn scid_code(bytes: &[u8], pos: usize) -> Result<(&str, usize), LoadError> {
    let end = bytes[pos..]
        .iter()
        .position(|b| b.is_ascii_whitespace())
        .map_or(bytes.len(), |n| pos + n);
    let token = &bytes[pos..end];
    let valid = matches!(token, [b'A'..=b'E', b'0'..=b'9', b'0'..=b'9', rest @ ..]
        if matches!(rest, [] | [b'a'..=b'z'] | [b'a'..=b'z', b'0'..=b'9']));
    match std::str::from_utf8(token) {
        Ok(code) if valid => Ok((code, end)),
        _ => Err(syntax(
            bytes,
            pos..end.max(pos + 1),
            ErrorKind::MissingField,
            "an ECO code such as B90 or B90a",
        )),
    }
}

// quoted-name = '"' { any byte but '"' and line end } '"'
fn quoted_name(bytes: &[u8], pos: usize) -> Result<(String, usize), LoadError> {
    if bytes.get(pos) != Some(&b'"') {
        return Err(syntax(
            bytes,
            pos..pos + 1,
            ErrorKind::MissingField,
            "a quoted name",
        ));
    }
    let body = pos + 1;
    match bytes[body..]
        .iter()
        .position(|&b| b == b'"' || b == b'\n')
        .map(|n| body + n)
    {
        Some(close) if bytes[close] == b'"' => Ok((
            tabia_notation::decode(&bytes[body..close])
                .trim()
                .to_owned(),
            close + 1,
        )),
        other => Err(syntax(
            bytes,
            pos..other.unwrap_or(bytes.len()),
            ErrorKind::UnterminatedString,
            "a closing `\"`",
        )),
    }
}

// table-tsv = header-row { row }                  (and comment lines, `#` first)
// header-row = column-name { TAB column-name }     (among them eco, name and pgn)
// row        = cell { TAB cell }                   (the pgn cell is movetext without a result)
fn read_tsv(bytes: &[u8], builder: &mut Builder) -> Result<(), LoadError> {
    let mut columns: Option<(usize, usize, usize, Option<usize>)> = None;
    let mut header: Option<&[u8]> = None;
    let mut offset = 0;
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = i as u64 + 1;
        let row_start = offset;
        offset += raw.len() + 1;
        let row = raw.strip_suffix(b"\r").unwrap_or(raw);
        if row.trim_ascii().is_empty() || row.starts_with(b"#") {
            continue;
        }
        // The header again, as `cat a.tsv b.tsv` makes of lichess's files: no entry.
        if header.is_some_and(|header| header.trim_ascii() == row.trim_ascii()) {
            continue;
        }
        let cells: Vec<&[u8]> = row.split(|&b| b == b'\t').collect();
        let Some((eco_at, name_at, pgn_at, extended_at)) = columns else {
            header = Some(row);
            let find = |want: &str| {
                cells
                    .iter()
                    .position(|c| c.trim_ascii().eq_ignore_ascii_case(want.as_bytes()))
            };
            match (find("eco"), find("name"), find("pgn")) {
                (Some(e), Some(n), Some(p)) => columns = Some((e, n, p, find("extended"))),
                _ => {
                    return Err(syntax(
                        bytes,
                        row_start..row_start + row.len(),
                        ErrorKind::MissingField,
                        "a header line naming the columns eco, name and pgn",
                    ));
                }
            }
            continue;
        };
        let cell = |at: usize| cells.get(at).map(|c| c.trim_ascii()).unwrap_or(b"");
        let eco = tabia_notation::decode(cell(eco_at)).into_owned();
        if eco.is_empty() {
            return Err(LoadError::new(
                line,
                LoadErrorKind::MissingField("ECO code"),
            ));
        }
        let name = tabia_notation::decode(cell(name_at)).into_owned();
        let pgn_offset = cells
            .iter()
            .take(pgn_at)
            .map(|c| c.len() + 1)
            .sum::<usize>();
        let mut movetext = cell(pgn_at).to_vec();
        movetext.extend_from_slice(b" *");
        let start = row_start + pgn_offset;
        let (sans, _) = read_movetext(&movetext, origin_at(bytes, start, line))
            .map_err(|err| err.with_source(bytes))?;
        let extended = extended_at
            .map(|at| tabia_notation::decode(cell(at)).into_owned())
            .filter(|e| !e.is_empty() && e != "-");
        let entry = Entry {
            eco: eco.into(),
            extended: extended.map(Into::into),
            name: name.into(),
        };
        builder.add(line, &sans, entry)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use tabia_position::Position;

    use super::*;

    fn key(moves: &str) -> tabia_position::PositionKey {
        moves
            .split_whitespace()
            .try_fold(Position::new(), |p, m| p.after(m))
            .expect("legal")
            .key()
    }

    #[test]
    fn pgn_entries_join_opening_and_variations() {
        let pgn = b"{ comment game }\n\n[ECO \"B90\"]\n[Opening \"Sicilian\"]\n[Variation \"Najdorf\"]\n[SubVariation \"English attack\"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 *\n\n[ECO \"C20\"]\n[Opening \"King's pawn game\"]\n\n1. e4 (1. d4) e5 *\n";
        let table = Table::from_bytes(pgn, TableFormat::Pgn).unwrap();
        assert_eq!(table.len(), 2);
        let o = table
            .lookup(&key("e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be3"))
            .unwrap();
        assert_eq!(o.name(), "Sicilian: Najdorf, English attack");
        assert_eq!((o.eco(), o.extended(), o.ply()), ("B90", None, 11));
        assert!(table.lookup(&key("e4 e5")).is_some());
        assert!(
            table.lookup(&key("d4")).is_none(),
            "variations are not lines"
        );
    }

    #[test]
    fn scid_entries_span_lines_and_keep_extended_codes() {
        let eco = b"# Scid\nA00a \"Start position\"  *\nC20a \"Open Game\" 1.e4 e5 *\nC44b3 \"Long line\" 1.e4 e5\n  2.Nf3 Nc6 *\n\n# end\nC40 \"Knight\" 1.e4 e5 2.Nf3 *\n";
        let table = Table::from_bytes(eco, TableFormat::Scid).unwrap();
        let names: Vec<_> = table.openings().iter().map(ToString::to_string).collect();
        assert_eq!(
            names,
            [
                "A00a Start position",
                "C20a Open Game",
                "C44b3 Long line",
                "C40 Knight"
            ]
        );
        let long = &table.openings()[2];
        assert_eq!((long.eco(), long.ply()), ("C44", 4));
        assert_eq!(
            table.lookup(&Position::new().key()).map(|o| o.eco()),
            Some("A00")
        );
    }

    #[test]
    fn scid_errors_point_at_the_entry() {
        let err = Table::from_bytes(
            b"C20a \"Open Game\" 1.e4 e5 *\nX99 \"Bad\" 1.d4 *\n",
            TableFormat::Scid,
        )
        .unwrap_err();
        assert_eq!(err.line(), 2);
        assert_eq!(
            err.to_string(),
            "missing field (expected an ECO code such as B90 or B90a) at line 2, column 1\n  | X99 \"Bad\" 1.d4 *\n  | ^^^"
        );
        let err =
            Table::from_bytes(b"\nC20a \"Open Game 1.e4 e5 *\n", TableFormat::Scid).unwrap_err();
        assert_eq!(err.line(), 2);
        let err = Table::from_bytes(
            b"C20a \"Open\" 1.e4 e5 *\nC21 \"Gambit\" 1.e4 e5 2.d4 d5 3.Ke3 *\n",
            TableFormat::Scid,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2: ply 5: illegal move `Ke3`: no white king can go to e3"
        );
    }

    #[test]
    fn tsv_reads_columns_by_header() {
        let tsv = b"name\teco\tpgn\r\nFrench Defense\tC00\t1. e4 e6\r\n\r\nCaro-Kann Defense\tB10\t1. e4 c6\r\n";
        let table = Table::from_bytes(tsv, TableFormat::Tsv).unwrap();
        assert_eq!(table.len(), 2);
        assert_eq!(
            table.lookup(&key("e4 c6")).map(|o| (o.eco(), o.name())),
            Some(("B10", "Caro-Kann Defense"))
        );
        let err = Table::from_bytes(b"a\tb\n", TableFormat::Tsv).unwrap_err();
        assert_eq!(err.line(), 1);
        let err =
            Table::from_bytes(b"eco\tname\tpgn\n\tNo code\t1. e4\n", TableFormat::Tsv).unwrap_err();
        assert_eq!(err.to_string(), "line 2: missing ECO code");
        // A bad move is shown in its line.
        let err = Table::from_bytes(b"eco\tname\tpgn\nC20\tOpen\t1. e4 Zz9\n", TableFormat::Tsv)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid SAN move at line 2, column 16\n  | C20\tOpen\t1. e4 Zz9\n  |                ^^^"
        );
    }

    #[test]
    fn tsv_header_repeated_as_cat_makes_it_is_no_entry() {
        let tsv =
            b"eco\tname\tpgn\nB00\tKing's Pawn\t1. e4\neco\tname\tpgn\r\nC20\tKP Game\t1. e4 e5\n";
        let table = Table::from_bytes(tsv, TableFormat::Tsv).unwrap();
        assert_eq!(table.len(), 2);
        assert_eq!(
            table.lookup(&key("e4 e5")).map(|o| o.name()),
            Some("KP Game")
        );
    }

    #[test]
    fn tsv_reads_comments_and_extended_codes() {
        let tsv = b"# a comment\neco\textended\tname\tpgn\nC00\tC00a\tFrench Defense\t1. e4 e6\nB10\t-\tCaro-Kann Defense\t1. e4 c6\n";
        let table = Table::from_bytes(tsv, TableFormat::Tsv).unwrap();
        let extended: Vec<_> = table.openings().iter().map(|o| o.extended()).collect();
        assert_eq!(extended, [Some("C00a"), None]);
    }

    #[test]
    fn first_entry_of_a_position_names_it_but_in_a_tsv_the_last() {
        let tsv = b"eco\tname\tpgn\nA40\tFirst\t1. d4 e6 2. c4\nA13\tSecond\t1. c4 e6 2. d4\n";
        let table = Table::from_bytes(tsv, TableFormat::Tsv).unwrap();
        assert_eq!(table.len(), 1);
        assert_eq!(
            table.lookup(&key("c4 e6 d4")).map(|o| o.name()),
            Some("Second")
        );
        let eco = b"A40 \"First\" 1.d4 e6 2.c4 *\nA13 \"Second\" 1.c4 e6 2.d4 *\n";
        let table = Table::from_bytes(eco, TableFormat::Scid).unwrap();
        assert_eq!(
            table.lookup(&key("c4 e6 d4")).map(|o| o.name()),
            Some("First")
        );
    }
}
