//! The tag section: tag pairs by the common shape or by the rule, and what a tag line holds that is not one.

use super::*;

impl<R: Read> PgnReader<R> {
    pub(super) fn tags<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Result<(), Error>> {
        // Whether the game was warned that its tags go on after a blank line.
        let mut warned = false;
        loop {
            self.fill()?;
            if self.peek() != Some(b'[') {
                return Ok(Ok(()));
            }
            // The common shape, `[Name "value"]`, at once; the rule takes the rest.
            if let Some((pair, n)) = plain_tag_pair(&self.buf[self.pos..self.end])
                .filter(|&(_, n)| n <= self.tag_line_limit && plain_tags_on())
            {
                visitor.tag(pair.name, RawTag(pair.value));
                self.pos += n;
            } else if let Err(err) = self.tag_pair_by_rule(visitor)? {
                return Ok(Err(err));
            }
            // The common case, `]\n[`, without the general white-space loop.
            if self.buf[self.pos..self.end].starts_with(b"\n[") {
                self.pos += 1;
                self.line += 1;
                self.line_start = self.abs(self.pos);
                continue;
            }
            let (line, from) = (self.line, self.abs(self.pos));
            self.skip_space()?;
            if self.line >= line + 2
                && self.peek() == Some(b'[')
                && !warned
                && self.blank_line_since(from)
            {
                warned = true;
                visitor.warning(Warning {
                    kind: WarningKind::TagsAfterBlankLine,
                    at: self.origin(),
                });
            }
        }
    }

    /// Whether the white space from offset `from` to the cursor ends with a blank line (see
    /// [`trailing_line_ends`]); when it is no longer buffered, whether it ended two lines.
    #[cold]
    pub(super) fn blank_line_since(&self, from: u64) -> bool {
        match from.checked_sub(self.base) {
            Some(start) => {
                let start = usize::try_from(start).unwrap_or(usize::MAX).min(self.pos);
                trailing_line_ends(&self.buf[start..self.pos], 0) >= 2
            }
            None => true,
        }
    }

    /// Reads the tag pair at the cursor with the rule, out of line so that the common path
    /// through [`PgnReader::tags`] stays small.
    #[cold]
    #[inline(never)]
    pub(super) fn tag_pair_by_rule<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> io::Result<Result<(), Error>> {
        // A tag pair never spans lines: the rule runs once the line end (or the end of the
        // input) is buffered, so that what it says does not depend on how the bytes arrive.
        // Until then the buffer grows as needed, up to a line of `TAG_LINE_LIMIT` bytes.
        let max = self.tag_line_limit;
        // A pair buffered whole is read at once (its line end need not be buffered yet).
        let data = &self.buf[self.pos..self.end];
        if let Ok((rest, pair)) = tag_pair(&data[..data.len().min(max)]) {
            self.warn_unescaped(&pair, visitor);
            visitor.tag(pair.name, RawTag(pair.value));
            self.pos += data.len().min(max) - rest.len();
            return Ok(Ok(()));
        }
        let mut scanned = 0;
        loop {
            let data = &self.buf[self.pos..self.end];
            let limit = data.len().min(max);
            let line_end = rest_of_line(&data[scanned.min(limit)..limit]).map(|n| scanned + n);
            scanned = limit;
            if line_end.is_none() && data.len() >= max {
                return Ok(self.long_tag_line(visitor, max));
            }
            if line_end.is_some() || self.eof {
                // The line and its line end, however much is buffered after it.
                let data = line_end.map_or(data, |n| &data[..=n]);
                return Ok(match tag_pair(data) {
                    Ok((rest, pair)) => {
                        self.warn_unescaped(&pair, visitor);
                        visitor.tag(pair.name, RawTag(pair.value));
                        self.pos += data.len() - rest.len();
                        Ok(())
                    }
                    Err(nom::Err::Error(err) | nom::Err::Failure(err)) => {
                        Err(self.rule_error(err, self.pos, data.len()))
                    }
                    Err(nom::Err::Incomplete(_)) => {
                        Err(self.error_here(ErrorKind::UnterminatedTag, self.pos, 1))
                    }
                });
            }
            if data.len() >= self.buf.len() / 2 {
                // Room for the rest of the line (the cursor's bytes are kept by a refill).
                let grown = (self.buf.len() * 2).min(2 * max + LOOKAHEAD);
                self.buf.resize(grown, 0);
            }
            self.refill()?;
        }
    }

    /// The warning of a tag value read with quotes inside it, at the cursor (its `[`).
    pub(super) fn warn_unescaped<V: Visitor>(
        &self,
        pair: &crate::pgn::tag::TagPair<'_>,
        visitor: &mut V,
    ) {
        if pair.unescaped_quotes {
            visitor.warning(Warning {
                kind: WarningKind::UnescapedQuote,
                at: self.origin(),
            });
        }
    }

    /// A tag pair at the cursor on a line with no line end in its first `max` bytes: the pair
    /// if it lies in them, else an error that it is too long (the rule's error on bytes cut
    /// short would blame the cut).
    #[cold]
    pub(super) fn long_tag_line<V: Visitor>(
        &mut self,
        visitor: &mut V,
        max: usize,
    ) -> Result<(), Error> {
        let window = &self.buf[self.pos..self.pos + max];
        if let Ok((rest, pair)) = tag_pair(window) {
            self.warn_unescaped(&pair, visitor);
            visitor.tag(pair.name, RawTag(pair.value));
            self.pos += max - rest.len();
            return Ok(());
        }
        Err(self
            .error_here(ErrorKind::InvalidTag, self.pos, 1)
            .with_expected("a tag pair on a shorter line (1 MiB, or half the reader's buffer)"))
    }

    // movetext = *(white-space / move-number / "." / san / nag / suffix / comment / "(" / ")")
    //            result
}
