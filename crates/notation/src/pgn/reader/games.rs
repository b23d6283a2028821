//! A game from its first byte: where it starts, its tag section and movetext in turn.

use super::*;

impl<R: Read> PgnReader<R> {
    /// Skips what lies between games; returns where the next game starts.
    pub(super) fn begin(&mut self) -> io::Result<Option<Origin>> {
        self.fill()?;
        if !self.bom_checked {
            self.bom_checked = true;
            if self.base == 0 && self.pos == 0 && self.buf[..self.end].starts_with(BOM) {
                self.pos = BOM.len();
                self.line_start = BOM.len() as u64;
                self.base_line_start = self.line_start;
            }
        }
        self.skip_space()?;
        match (self.peek(), self.deferred.take()) {
            (Some(_), deferred) => {
                self.deferred = deferred;
                Ok(Some(self.origin()))
            }
            (None, Some(err)) => Err(err),
            (None, None) => Ok(None),
        }
    }

    pub(super) fn game<V: Visitor>(&mut self, visitor: &mut V) -> Result<Option<V::Output>, Stop> {
        let Some(start) = self.begin()? else {
            return Ok(None);
        };
        self.game_at(start, visitor).map(Some)
    }

    /// Reads the game that starts at the cursor, `start`.
    #[inline(always)]
    pub(super) fn game_at<V: Visitor>(
        &mut self,
        start: Origin,
        visitor: &mut V,
    ) -> Result<V::Output, Stop> {
        if visitor.begin_game(start).0 {
            self.skip_tags()?;
            self.skip_movetext(false)?;
            return Ok(visitor.end_game());
        }
        if let Err(err) = self.tags(visitor)? {
            self.skip_tags()?;
            self.skip_movetext(false)?;
            return Err(Stop::Syntax(err, start));
        }
        if visitor.begin_movetext().0 {
            if let Err(err) = self.skip_chosen_movetext()? {
                return Err(Stop::Syntax(err, start));
            }
            return Ok(visitor.end_game());
        }
        if let Err(err) = self.movetext(visitor)? {
            self.skip_movetext(false)?;
            return Err(Stop::Syntax(err, start));
        }
        Ok(visitor.end_game())
    }

    // white-space = *(SP / HTAB / line-end / escape-line)
    // escape-line = "%" rest-of-line     ("%" first on its line)
    pub(super) fn skip_space(&mut self) -> io::Result<()> {
        loop {
            self.fill()?;
            match self.peek() {
                Some(b' ' | b'\t') => self.pos += 1,
                Some(b'\n' | b'\r') => self.eat_line_end(),
                Some(b'%') if self.at_line_start() => self.skip_line()?,
                _ => return Ok(()),
            }
        }
    }

    /// Skips to the end of the line (leaving the line end).
    pub(super) fn skip_line(&mut self) -> io::Result<()> {
        loop {
            if let Some(n) = rest_of_line(&self.buf[self.pos..self.end]) {
                self.pos += n;
                return Ok(());
            }
            self.pos = self.end;
            if self.eof {
                return Ok(());
            }
            self.refill()?;
        }
    }

    // tag-section = *(tag-pair white-space)
}
