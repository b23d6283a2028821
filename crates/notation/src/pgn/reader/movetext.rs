//! The movetext: moves (SAN, figurines, long algebraic), move numbers, NAGs and glyphs, comments, variations, results, and the lenient readings of each.

use super::*;

impl<R: Read> PgnReader<R> {
    pub(super) fn movetext<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> io::Result<Result<(), Error>> {
        let mut depth: u64 = 0;
        let mut has_move = false;
        loop {
            self.fill()?;
            let data = &self.buf[self.pos..self.end];
            let Some(&b) = data.first() else {
                return Ok(self.no_result(depth, visitor));
            };
            match b {
                // Dots standing alone belong to a move number (`3. ... a6`).
                b' ' | b'\t' | b'.' => self.pos += 1,
                b'\n' | b'\r' => self.eat_line_end(),
                // A move; `@` starts a pawn drop (Crazyhouse: `@e4`).
                b'a'..=b'z' | b'A'..=b'Z' | b'-' | b'@'
                    if b != b'@' || data.get(1).is_some_and(|b| matches!(b, b'a'..=b'h')) =>
                {
                    if let Err(err) = self.san(visitor) {
                        return Ok(Err(err));
                    }
                    has_move = true;
                    if depth == 0 && visitor.skip_rest().0 {
                        return self.skip_chosen_movetext();
                    }
                    // A comment after a move, as in `{ [%clk 0:03:00] }`, read at once.
                    self.one_line_comment(visitor);
                }
                b'0'..=b'9' | b'*' => {
                    // The common case first: a move number such as `12.` or `12...`.
                    let digits = data
                        .iter()
                        .position(|b| !b.is_ascii_digit())
                        .unwrap_or(data.len());
                    if digits > 0 && data.get(digits) == Some(&b'.') {
                        let dots = data[digits..]
                            .iter()
                            .position(|&b| b != b'.')
                            .unwrap_or(data.len() - digits);
                        let n = digits + dots;
                        self.pos += n + usize::from(data.get(n) == Some(&b' '));
                        // A move nearly always follows its number: read it at once rather than
                        // through the dispatch above.
                        self.fill()?;
                        if self.peek().is_some_and(|b| {
                            matches!(b, b'a'..=b'h' | b'N' | b'B' | b'R' | b'Q' | b'K' | b'O')
                        }) {
                            if let Err(err) = self.san(visitor) {
                                return Ok(Err(err));
                            }
                            has_move = true;
                            if depth == 0 && visitor.skip_rest().0 {
                                return self.skip_chosen_movetext();
                            }
                            self.one_line_comment(visitor);
                        }
                        continue;
                    }
                    if let Ok((rest, outcome)) = result(data) {
                        if depth > 0 {
                            let n = data.len() - rest.len();
                            let err = self.error_here(ErrorKind::UnclosedVariation, self.pos, n);
                            return Ok(Err(err.with_expected("`)` before the result")));
                        }
                        self.pos += data.len() - rest.len();
                        if let Err(err) = self.trailing_comments(visitor)? {
                            return Ok(Err(err));
                        }
                        visitor.outcome(outcome);
                        return Ok(Ok(()));
                    }
                    if b == b'*' {
                        let len = token_len(data).clamp(1, LOOKAHEAD);
                        let err = self.error_here(ErrorKind::UnexpectedToken, self.pos, len);
                        return Ok(Err(err));
                    }
                    if b == b'0' && data.get(1) == Some(&b'-') {
                        if let Err(err) = self.san(visitor) {
                            return Ok(Err(err));
                        }
                        has_move = true;
                        if depth == 0 && visitor.skip_rest().0 {
                            return self.skip_chosen_movetext();
                        }
                        continue;
                    }
                    if let Some(n) = typographic_result(data) {
                        self.typographic_result(visitor, n);
                        continue;
                    }
                    match move_number(data) {
                        Ok((rest, ())) => {
                            self.pos +=
                                data.len() - rest.len() + usize::from(rest.first() == Some(&b' '));
                        }
                        Err(nom::Err::Error(err) | nom::Err::Failure(err)) => {
                            return Ok(Err(self.rule_error(err, self.pos, data.len())));
                        }
                        Err(nom::Err::Incomplete(_)) => {
                            return Ok(Err(self.error_here(
                                ErrorKind::InvalidMoveNumber,
                                self.pos,
                                1,
                            )));
                        }
                    }
                }
                b'{' => {
                    if self.one_line_comment(visitor) {
                        continue;
                    }
                    // Over several lines, or longer than what is buffered.
                    match brace_body(&self.buf[self.pos + 1..self.end]) {
                        Some(n) => {
                            let (from, to) = (self.pos + 1, self.pos + 1 + n);
                            visitor.comment(RawComment(&self.buf[from..to]));
                            if let Some(k) = tag_pair_after_blank_line(&self.buf[from..to], 0) {
                                let opened = self.origin();
                                self.warn_tag_pair_in_comment(visitor, opened, from, from + k);
                            }
                            self.count_lines(from, to);
                            self.pos = to + 1;
                        }
                        None => {
                            if let Err(err) = self.long_comment(visitor, true)? {
                                return Ok(Err(err));
                            }
                        }
                    }
                }
                b';' => match rest_of_line(&data[1..]) {
                    Some(n) => {
                        visitor.comment(RawComment(&self.buf[self.pos + 1..self.pos + 1 + n]));
                        self.pos += 1 + n;
                    }
                    None => {
                        if let Err(err) = self.long_comment(visitor, false)? {
                            return Ok(Err(err));
                        }
                    }
                },
                b'(' => {
                    if !has_move {
                        return Ok(Err(self.error_here(
                            ErrorKind::VariationWithoutMove,
                            self.pos,
                            1,
                        )));
                    }
                    self.pos += 1;
                    depth += 1;
                    if visitor.begin_variation().0 {
                        if self.skip_movetext(true)? {
                            depth -= 1;
                        }
                    } else {
                        has_move = false;
                    }
                }
                b')' => {
                    if depth == 0 {
                        return Ok(Err(self.error_here(
                            ErrorKind::UnmatchedCloseParen,
                            self.pos,
                            1,
                        )));
                    }
                    depth -= 1;
                    has_move = true;
                    self.pos += 1;
                    visitor.end_variation();
                }
                b'$' | b'!' | b'?' => {
                    let parsed = if b == b'$' { nag(data) } else { suffix(data) };
                    match parsed {
                        Ok((rest, nag)) if !has_move => {
                            // A game's (or a variation's) annotation, as python-chess reads
                            // it: no move to hang it on, so it is dropped, and said.
                            visitor.warning(Warning {
                                kind: WarningKind::NagBeforeMove { nag },
                                at: self.origin(),
                            });
                            self.pos += data.len() - rest.len();
                        }
                        Ok((rest, nag)) => {
                            self.pos += data.len() - rest.len();
                            visitor.nag(nag);
                        }
                        Err(nom::Err::Error(err) | nom::Err::Failure(err)) => {
                            return Ok(Err(self.rule_error(err, self.pos, data.len())));
                        }
                        Err(nom::Err::Incomplete(_)) => {
                            return Ok(Err(self.error_here(ErrorKind::InvalidNag, self.pos, 1)));
                        }
                    }
                }
                b'%' if self.at_line_start() => self.skip_line()?,
                b'[' => return Ok(self.no_result(depth, visitor)),
                b'}' => {
                    return Ok(Err(self.error_here(
                        ErrorKind::UnexpectedCloseBrace,
                        self.pos,
                        1,
                    )));
                }
                // A move in figurine notation (`♘f3`), as web pages write them.
                0xE2 if data.starts_with(&[0xE2, 0x99]) => {
                    if let Err(err) = self.figurine_san(visitor) {
                        return Ok(Err(err));
                    }
                    has_move = true;
                    if depth == 0 && visitor.skip_rest().0 {
                        return self.skip_chosen_movetext();
                    }
                }
                _ => {
                    // `½-½`, a result PGN does not have.
                    if let Some(n) = typographic_result(data) {
                        self.typographic_result(visitor, n);
                        continue;
                    }
                    // `+/-`, `=`, `±`: an evaluation symbol written as text, after a move.
                    if has_move && let Some((nag, n)) = text_glyph(data) {
                        self.text_glyph(visitor, nag, n);
                        continue;
                    }
                    let len = token_len(data).clamp(1, LOOKAHEAD);
                    return Ok(Err(self.error_here(
                        ErrorKind::UnexpectedToken,
                        self.pos,
                        len,
                    )));
                }
            }
        }
    }

    /// Passes a result written with `½` or a typographic dash (`n` bytes), with a warning: it
    /// does not end the game (a reader that skips movetext could not tell it from text), whose
    /// result then comes from its `Result` tag.
    #[cold]
    #[inline(never)]
    pub(super) fn typographic_result<V: Visitor>(&mut self, visitor: &mut V, n: usize) {
        visitor.warning(Warning {
            kind: WarningKind::TypographicResult,
            at: self.origin(),
        });
        self.pos += n;
    }

    /// An evaluation symbol written as text at the cursor, `n` bytes (see [`text_glyph`]):
    /// read as its NAG, with a warning.
    #[cold]
    #[inline(never)]
    pub(super) fn text_glyph<V: Visitor>(&mut self, visitor: &mut V, nag: Nag, n: usize) {
        visitor.nag(nag);
        visitor.warning(Warning {
            kind: WarningKind::TextGlyph { nag },
            at: self.origin(),
        });
        self.pos += n;
    }

    /// A move whose pieces are figurines (`♘f3`, `e8=♕`, `♙e4`): read as the move in letters,
    /// with a warning; anything else there is an unexpected token.
    #[cold]
    #[inline(never)]
    pub(super) fn figurine_san<V: Visitor>(&mut self, visitor: &mut V) -> Result<(), Error> {
        let data = &self.buf[self.pos..self.end];
        // What is always buffered of it: a longer token is no move anyway.
        let token = &data[..token_len(data).min(LOOKAHEAD)];
        // The move in letters, and for each of its bytes where it ends in the text.
        let (mut letters, mut ends) = (Vec::with_capacity(token.len()), Vec::new());
        let mut i = 0;
        while i < token.len() {
            match figurine(&token[i..]) {
                Some(letter) => {
                    i += 3;
                    letters.extend(letter);
                    ends.extend(letter.map(|_| i));
                }
                None => {
                    i += 1;
                    letters.push(token[i - 1]);
                    ends.push(i);
                }
            }
        }
        let read = san_token(&letters).filter(|&(_, n)| move_ends(&letters, n));
        let Some((san, n)) = read.filter(|&(_, n)| n > 0) else {
            let len = token.len().clamp(1, LOOKAHEAD);
            return Err(self.error_here(ErrorKind::UnexpectedToken, self.pos, len));
        };
        let at = self.origin();
        visitor.san(san, at);
        visitor.warning(Warning {
            kind: WarningKind::FigurineMove,
            at,
        });
        self.pos += ends[n - 1];
        Ok(())
    }

    // san-token = san [suffix] token-end      (the suffix is read as its own token)
    #[inline(always)]
    pub(super) fn san<V: Visitor>(&mut self, visitor: &mut V) -> Result<(), Error> {
        let data = &self.buf[self.pos..self.end];
        if let Some((san, n)) = san_token(data)
            && move_ends(data, n)
        {
            let at = self.origin();
            // The space after the move, if any, saves a turn of the movetext loop.
            self.pos += n + usize::from(data.get(n) == Some(&b' '));
            visitor.san(san, at);
            return Ok(());
        }
        self.long_san(visitor)
    }

    /// A move that is not SAN: given by its squares (UCI `e2e4`, long algebraic `Ng1-f3`),
    /// read as [`San::Long`](crate::san::San::Long); anything else is an invalid SAN move.
    #[cold]
    #[inline(never)]
    pub(super) fn long_san<V: Visitor>(&mut self, visitor: &mut V) -> Result<(), Error> {
        let data = &self.buf[self.pos..self.end];
        if let Ok((rest, san)) = crate::san::long_plus(data) {
            let n = data.len() - rest.len();
            if move_ends(data, n) {
                let at = self.origin();
                self.pos += n;
                visitor.san(san, at);
                return Ok(());
            }
        }
        // `-+`, `N`: an evaluation symbol (or a novelty) written as text.
        if let Some((nag, n)) = text_glyph(data) {
            self.text_glyph(visitor, nag, n);
            return Ok(());
        }
        // `O-O+/-`, `Nf3±`: an evaluation symbol glued to its move.
        if let Some((san, k, nag, n)) = glued_glyph(&data[..token_len(data).min(LOOKAHEAD)]) {
            let at = self.origin();
            self.pos += k;
            visitor.san(san, at);
            self.text_glyph(visitor, nag, n);
            return Ok(());
        }
        // `Pe4`: a pawn move with its letter.
        if let [b'P', rest @ ..] = data
            && let Some((san, n)) = san_token(rest)
            && matches!(
                san.san,
                crate::san::San::Normal {
                    role: crate::Role::Pawn,
                    ..
                }
            )
            && move_ends(rest, n)
        {
            let at = self.origin();
            self.pos += 1 + n;
            visitor.san(san, at);
            visitor.warning(Warning {
                kind: WarningKind::PawnLetter,
                at,
            });
            return Ok(());
        }
        // `nf3`, `bc4`, `o-o`: a piece letter in lowercase.
        if let Some((san, n)) = lowercase_san(data) {
            let at = self.origin();
            self.pos += n;
            visitor.san(san, at);
            visitor.warning(Warning {
                kind: WarningKind::LowercasePiece,
                at,
            });
            return Ok(());
        }
        // `bxa8=♕`: a figurine after the first byte (in the bytes that are always buffered).
        if data[..token_len(data).min(LOOKAHEAD)]
            .windows(2)
            .any(|w| w == [0xE2, 0x99])
        {
            return self.figurine_san(visitor);
        }
        // `exd6 e.p.` or `exd6e.p.`: an en-passant mark, which SAN does not have.
        let (san, n) = match san_token(data) {
            Some((san, n)) => (Some(san), n),
            None => (None, 0),
        };
        if let Some(mark) = en_passant_mark(&data[n..])
            && data.get(n + mark).is_none_or(|&b| is_token_end(b))
        {
            let at = self.origin();
            if let Some(san) = san {
                visitor.san(san, at);
            }
            let mark_at = Origin {
                offset: at.offset + n as u64,
                column: at.column + n as u64,
                ..at
            };
            visitor.warning(Warning {
                kind: WarningKind::EnPassantMark,
                at: mark_at,
            });
            self.pos += n + mark;
            return Ok(());
        }
        let len = token_len(data).clamp(1, LOOKAHEAD);
        Err(self.error_here(ErrorKind::InvalidSan, self.pos, len))
    }

    /// Comments that follow the result before a blank line (`0-1 ; {Game Nr. 1 …}`, as engine
    /// GUIs write them, on the result's line or the next ones) belong to the game, not to a
    /// next one: they go to the visitor before the outcome.
    pub(super) fn trailing_comments<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> io::Result<Result<(), Error>> {
        while let Some(b) = self.next_trailing_comment()? {
            if let Err(err) = self.long_comment(visitor, b == b'{')? {
                return Ok(Err(err));
            }
        }
        Ok(Ok(()))
    }

    /// If a comment opener (`{` or `;`) follows after spaces and at most one line end, moves
    /// to it and gives it; otherwise moves nowhere. Looks no further than the lookahead, so
    /// that the answer does not depend on how the input arrives.
    pub(super) fn next_trailing_comment(&mut self) -> io::Result<Option<u8>> {
        self.fill()?;
        let data = &self.buf[self.pos..self.end];
        let blanks = |from: usize| {
            from + data
                .get(from..)
                .unwrap_or_default()
                .iter()
                .take_while(|&&b| b == b' ' || b == b'\t')
                .count()
        };
        let at_end = blanks(0);
        let line_end = match data.get(at_end..) {
            Some([b'\r', b'\n', ..]) => 2,
            Some([b'\n' | b'\r', ..]) => 1,
            _ => 0,
        };
        let next = if line_end > 0 {
            blanks(at_end + line_end)
        } else {
            at_end
        };
        let opener = match data.get(next) {
            Some(&b @ (b'{' | b';')) if next < LOOKAHEAD => b,
            _ => return Ok(None),
        };
        self.pos += at_end;
        if line_end > 0 {
            self.eat_line_end();
            self.pos += next - at_end - line_end;
        }
        Ok(Some(opener))
    }

    /// Skips the rest of a game's movetext that the visitor chose not to read, as
    /// [`PgnReader::skip_movetext`] does; but a `{` comment that the input ends in is the error
    /// reading it would have given (it took every game after it in), so that what a visitor
    /// skips never changes which games are in error.
    pub(super) fn skip_chosen_movetext(&mut self) -> io::Result<Result<(), Error>> {
        self.unclosed = None;
        self.skip_movetext(false)?;
        match self.unclosed.take() {
            None => Ok(Ok(())),
            Some((at, line, line_start)) => {
                let at = usize::try_from(at).unwrap_or(usize::MAX);
                let err = Error::new(ErrorKind::UnterminatedComment, at..at.saturating_add(1));
                Ok(Err(self.locate(err, line, line_start)))
            }
        }
    }

    /// Skips the comments that follow a result, as [`PgnReader::trailing_comments`] reads them.
    pub(super) fn skip_trailing_comments(&mut self) -> io::Result<()> {
        while let Some(b) = self.next_trailing_comment()? {
            if b == b';' {
                self.skip_line()?;
                continue;
            }
            self.skip_brace_comment()?;
            if self.cut == Some(Cut::Comment) {
                self.cut = Some(Cut::TrailingComment);
            }
        }
        Ok(())
    }

    /// Skips the `{` comment at the cursor, past its `}` (or to the end of the input, where the
    /// caller finds nothing more), refilling the buffer as needed.
    pub(super) fn skip_brace_comment(&mut self) -> io::Result<()> {
        self.pos += 1;
        self.skip_comment_body()
    }

    /// Skips the inside of a `{` comment and its `}`; notes [`Cut::Comment`] when the input
    /// ends first.
    pub(super) fn skip_comment_body(&mut self) -> io::Result<()> {
        // The common comment first: short, on one line, and buffered (`{ [%clk 0:03:00] }`),
        // found a word at a time without a search to set up, and no line to count.
        let to = self.chunk_end();
        if let Some(n) = find_brace_or_line_end(&self.buf[self.pos..to], &self.comment_end)
            && self.buf[self.pos + n] == b'}'
        {
            self.pos += n + 1;
            return Ok(());
        }
        // Where the comment's `{` is (the byte before the cursor), for `unclosed`.
        let opened = (
            self.abs(self.pos).saturating_sub(1),
            self.line,
            self.line_start,
        );
        loop {
            let to = self.chunk_end();
            if let Some(n) = brace_body(&self.buf[self.pos..to]) {
                self.count_lines(self.pos, self.pos + n);
                self.pos += n + 1;
                return Ok(());
            }
            self.count_lines(self.pos, to);
            self.pos = to;
            if self.eof {
                self.cut = Some(Cut::Comment);
                self.unclosed = Some(opened);
                return Ok(());
            }
            self.refill()?;
        }
    }

    /// Reads the common comment, `{...}` on one line and buffered, if the cursor is at one.
    #[inline(always)]
    pub(super) fn one_line_comment<V: Visitor>(&mut self, visitor: &mut V) -> bool {
        let data = &self.buf[self.pos..self.end];
        if data.first() != Some(&b'{') {
            return false;
        }
        match find_brace_or_line_end(&data[1..], &self.comment_end) {
            Some(n) if data[1 + n] == b'}' => {
                visitor.comment(RawComment(&data[1..1 + n]));
                // What follows saves a turn of the movetext loop: a space, or the `\n` of an
                // engine comment that ends its line.
                let after = data.get(n + 2).copied();
                self.pos += n + 2;
                if after == Some(b' ') {
                    self.pos += 1;
                } else if after == Some(b'\n') {
                    self.pos += 1;
                    self.line += 1;
                    self.line_start = self.abs(self.pos);
                }
                true
            }
            _ => false,
        }
    }

    /// Warns that the comment opened at `opened` runs into a tag pair at `buf[at]`, whose line
    /// is that of `buf[from]` (the cursor's) plus the line ends in between.
    #[cold]
    pub(super) fn warn_tag_pair_in_comment<V: Visitor>(
        &self,
        visitor: &mut V,
        opened: Origin,
        from: usize,
        at: usize,
    ) {
        let line = self.line + count_line_ends(&self.buf[from..at]);
        visitor.warning(Warning {
            kind: WarningKind::TagPairInComment { line },
            at: opened,
        });
    }

    /// A comment whose end is not buffered: hands it to the visitor in pieces.
    #[cold]
    pub(super) fn long_comment<V: Visitor>(
        &mut self,
        visitor: &mut V,
        braces: bool,
    ) -> io::Result<Result<(), Error>> {
        let (start, line, line_start) = (self.abs(self.pos), self.line, self.line_start);
        let opened = self.origin();
        // Line ends just before the piece at hand, and whether the comment was warned about.
        let (mut ended, mut warned) = (0, !braces);
        self.pos += 1;
        loop {
            let data = &self.buf[self.pos..self.end];
            let found = if braces {
                brace_body(data)
            } else {
                rest_of_line(data)
            };
            let piece = &data[..found.unwrap_or_else(|| split_point(data))];
            if !warned && let Some(k) = tag_pair_after_blank_line(piece, ended) {
                warned = true;
                self.warn_tag_pair_in_comment(visitor, opened, self.pos, self.pos + k);
            }
            ended = trailing_line_ends(&self.buf[self.pos..self.pos + piece.len()], ended);
            let data = &self.buf[self.pos..self.end];
            if let Some(n) = found {
                visitor.comment(RawComment(&data[..n]));
                self.count_lines(self.pos, self.pos + n);
                self.pos += n + usize::from(braces);
                return Ok(Ok(()));
            }
            if self.eof {
                if !braces {
                    visitor.comment(RawComment(data));
                    self.pos = self.end;
                    return Ok(Ok(()));
                }
                self.count_lines(self.pos, self.end);
                self.pos = self.end;
                let at = usize::try_from(start).unwrap_or(usize::MAX);
                let err = Error::new(ErrorKind::UnterminatedComment, at..at.saturating_add(1));
                return Ok(Err(self.locate(err, line, line_start)));
            }
            let n = split_point(data);
            visitor.partial_comment(RawComment(&data[..n]));
            self.count_lines(self.pos, self.pos + n);
            self.pos += n;
            self.refill()?;
        }
    }
}
