//! The reader's buffer over its input, the origins (offset, line, column) of what it reads, and its errors.

use super::*;

impl<R: Read> PgnReader<R> {
    #[inline]
    pub(super) fn abs(&self, rel: usize) -> u64 {
        self.base + rel as u64
    }

    /// Makes sure [`LOOKAHEAD`] bytes are buffered ahead of the cursor, unless the input ends.
    #[inline(always)]
    pub(super) fn fill(&mut self) -> io::Result<()> {
        if self.pos >= self.refill_at {
            self.refill()?;
        }
        Ok(())
    }

    /// Moves what is still needed to the front of the buffer (the cursor's line, when it is
    /// short) and reads at least once more.
    #[cold]
    #[inline(never)]
    pub(super) fn refill(&mut self) -> io::Result<()> {
        let cap = self.buf.len();
        let mut keep = self.pos;
        if let Some(ls) = self.line_start.checked_sub(self.base) {
            let ls = usize::try_from(ls).unwrap_or(usize::MAX);
            if ls <= self.pos && self.pos - ls <= cap / 4 {
                keep = ls;
            }
        }
        if let Some(captured) = &mut self.capture {
            if self.capture_from < keep {
                captured.extend_from_slice(&self.buf[self.capture_from..keep]);
                self.capture_from = keep;
            }
            self.capture_from -= keep;
        }
        if keep > 0 {
            self.note_dropped(keep);
            if let Some(j) = self.buf[..keep]
                .iter()
                .rposition(|&b| b == b'\n' || b == b'\r')
            {
                self.base_line_start = self.abs(j + 1);
            }
        }
        self.buf.copy_within(keep..self.end, 0);
        self.base += keep as u64;
        self.pos -= keep;
        self.end -= keep;
        while self.end < cap && !self.eof {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(n) => {
                    self.end += n;
                    if self.end - self.pos >= LOOKAHEAD {
                        break;
                    }
                }
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => {
                    // The games the buffer holds whole before the last game start are read
                    // first (a file cut in the middle loses only the game it cut), the error
                    // is given in that game's place (see `begin`).
                    if let Some(cut) = last_game_start(&self.buf[..self.end], self.pos) {
                        self.end = cut;
                        self.eof = true;
                        self.deferred = Some(err);
                        break;
                    }
                    self.refill_at = self.end.saturating_sub(LOOKAHEAD - 1);
                    return Err(err);
                }
            }
        }
        self.refill_at = if self.eof {
            usize::MAX
        } else {
            self.end.saturating_sub(LOOKAHEAD - 1)
        };
        Ok(())
    }

    #[inline]
    pub(super) fn peek(&self) -> Option<u8> {
        self.buf[self.pos..self.end].first().copied()
    }

    #[inline]
    pub(super) fn at_line_start(&self) -> bool {
        self.abs(self.pos) == self.line_start
    }

    /// Where the cursor is.
    #[inline]
    pub(super) fn origin(&self) -> Origin {
        let offset = self.abs(self.pos);
        Origin {
            offset,
            line: self.line,
            column: offset - self.line_start + 1,
        }
    }

    /// Consumes the line end at the cursor (`\r\n` as one).
    #[inline]
    pub(super) fn eat_line_end(&mut self) {
        let b = self.buf[self.pos];
        self.pos += 1;
        if b == b'\r' && self.pos < self.end && self.buf[self.pos] == b'\n' {
            self.pos += 1;
        }
        self.line += 1;
        self.line_start = self.abs(self.pos);
    }

    /// Counts the line ends in `buf[from..to]`, which the cursor passes in one step.
    #[inline]
    pub(super) fn count_lines(&mut self, from: usize, to: usize) {
        let span = &self.buf[from..to];
        // Most spans the skip passes in one step are short and end no line (a move between
        // two comments, a comment's body): a check without branches, which the compiler does
        // eight or more bytes at a time, is cheaper than setting up a search.
        if span.len() <= 64
            && !span
                .iter()
                .fold(false, |seen, &b| seen | (b'\n'..=b'\r').contains(&b))
        {
            return;
        }
        for i in memchr::memchr2_iter(b'\n', b'\r', span) {
            let at = from + i;
            if !(self.buf[at] == b'\n' && at > 0 && self.buf[at - 1] == b'\r') {
                self.line += 1;
            }
            self.line_start = self.abs(at + 1);
        }
    }

    /// How far the cursor may pass over buffered bytes in one step without splitting `\r\n`.
    pub(super) fn chunk_end(&self) -> usize {
        if !self.eof && self.end > self.pos + 1 && self.buf[self.end - 1] == b'\r' {
            self.end - 1
        } else {
            self.end
        }
    }

    // --- errors ---

    /// An error at `buf[start..start + len]`, on the cursor's line.
    #[cold]
    pub(super) fn error_here(&self, kind: ErrorKind, start: usize, len: usize) -> Error {
        let from = usize::try_from(self.abs(start)).unwrap_or(usize::MAX);
        self.locate(
            Error::new(kind, from..from.saturating_add(len.max(1))),
            self.line,
            self.line_start,
        )
    }

    /// An error of a grammar rule that was given `buf[at..]`.
    #[cold]
    pub(super) fn rule_error(&self, err: RuleError, at: usize, input_len: usize) -> Error {
        let start = at + input_len.saturating_sub(err.rest);
        let error = self.error_here(err.kind, start, err.len.min(LOOKAHEAD));
        match err.expected {
            Some(expected) => error.with_expected(expected),
            None => error,
        }
    }

    /// Attaches line, column and snippet to `err`, which is on `line` starting at `line_start`.
    #[cold]
    pub(super) fn locate(&self, err: Error, line: u64, line_start: u64) -> Error {
        match line_start.checked_sub(self.base) {
            Some(ls) if ls <= self.end as u64 => {
                let ls = ls as usize;
                let base = usize::try_from(line_start).unwrap_or(usize::MAX);
                err.with_source_at(&self.buf[ls..self.end], base, line)
            }
            _ => {
                let column = (err.span().start as u64).saturating_sub(line_start) + 1;
                err.with_location(Location {
                    line,
                    column,
                    text: String::new(),
                    width: 1,
                })
            }
        }
    }

    /// Remembers where the last non-blank byte of `buf[..keep]`, about to leave the buffer,
    /// ends (see `dropped_end`).
    #[cold]
    pub(super) fn note_dropped(&mut self, keep: usize) {
        let Some(i) = self.buf[..keep]
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())
        else {
            return;
        };
        let token_end = i + 1;
        let lines = count_line_ends(&self.buf[token_end..self.pos]);
        let line_start = match self.buf[..token_end]
            .iter()
            .rposition(|&b| b == b'\n' || b == b'\r')
        {
            Some(j) => Some(self.abs(j + 1)),
            None if lines == 0 => Some(self.line_start),
            None => Some(self.base_line_start),
        };
        self.dropped_end = match line_start {
            Some(line_start) if lines < self.line => {
                Some((self.abs(token_end), self.line - lines, line_start))
            }
            _ => None,
        };
    }

    /// The movetext ends without a result: a warning, the game read as ending with `*`; an
    /// open variation is still an error.
    #[cold]
    pub(super) fn no_result<V: Visitor>(&self, depth: u64, visitor: &mut V) -> Result<(), Error> {
        let err = self.missing_result(depth);
        if depth > 0 {
            return Err(err);
        }
        let at = Origin {
            offset: err.span().start as u64,
            line: err.line().unwrap_or(self.line),
            column: err.column().unwrap_or(1),
        };
        visitor.warning(Warning {
            kind: WarningKind::MissingResult,
            at,
        });
        visitor.outcome(Outcome::Unknown);
        Ok(())
    }

    /// "The game has no result" (or an open variation), shown just after its last token.
    #[cold]
    pub(super) fn missing_result(&self, depth: u64) -> Error {
        let kind = if depth > 0 {
            ErrorKind::UnclosedVariation
        } else {
            ErrorKind::MissingResult
        };
        let data = &self.buf[..self.pos];
        let token_end = data
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())
            .map(|i| i + 1);
        if let Some(token_end) = token_end {
            let between = &data[token_end..];
            let lines = count_line_ends(between);
            let line_start = match data[..token_end]
                .iter()
                .rposition(|&b| b == b'\n' || b == b'\r')
            {
                Some(i) => Some(self.abs(i + 1)),
                None if lines == 0 => Some(self.line_start),
                None => Some(self.base_line_start),
            };
            if let Some(line_start) = line_start
                && lines < self.line
            {
                let at = usize::try_from(self.abs(token_end)).unwrap_or(usize::MAX);
                return self.locate(
                    Error::new(kind, at..at.saturating_add(1)),
                    self.line - lines,
                    line_start,
                );
            }
        } else if let Some((end, line, line_start)) = self.dropped_end {
            // Everything before the cursor that is still buffered is blank: the last token
            // left the buffer, so that the place does not depend on how the input arrived.
            let at = usize::try_from(end).unwrap_or(usize::MAX);
            return self.locate(Error::new(kind, at..at.saturating_add(1)), line, line_start);
        }
        self.error_here(kind, self.pos, 1)
    }
}

/// Where the last game in `buf[from..]` starts, after `from`: a `[` that starts a line after a
/// blank line or that opens `[Event `, as the pipeline's chunks are cut.
fn last_game_start(buf: &[u8], from: usize) -> Option<usize> {
    let from = from.max(1);
    memchr::memrchr_iter(b'[', buf.get(from..)?)
        .map(|i| i + from)
        .find(|&i| {
            matches!(buf[i - 1], b'\n' | b'\r')
                && (i >= 2 && matches!(&buf[i - 2..i], b"\n\n" | b"\r\r")
                    || i >= 3 && &buf[i - 3..i] == b"\n\r\n"
                    || buf[i + 1..].starts_with(b"Event "))
        })
}
