//! Skipping: finding the end of a game (or of its tags, or of a variation) without parsing it.

use super::*;

impl<R: Read> PgnReader<R> {
    /// Skips tag pairs: each to its `]` outside the quoted value, or to the end of its line.
    pub(super) fn skip_tags(&mut self) -> io::Result<()> {
        loop {
            self.skip_space()?;
            if self.peek() != Some(b'[') {
                return Ok(());
            }
            self.pos += 1;
            let mut quoted = false;
            'pair: loop {
                let data = &self.buf[self.pos..self.end];
                let mut i = 0;
                while let Some(&b) = data.get(i) {
                    match b {
                        b'\n' | b'\r' => {
                            self.pos += i;
                            break 'pair;
                        }
                        b'"' => quoted = !quoted,
                        b'\\' if quoted => match data.get(i + 1) {
                            Some(b'"' | b'\\') => i += 1,
                            Some(_) => {}
                            None if self.eof => {}
                            None => break,
                        },
                        b']' if !quoted => {
                            self.pos += i + 1;
                            break 'pair;
                        }
                        _ => {}
                    }
                    i += 1;
                }
                self.pos += i;
                if self.eof {
                    break;
                }
                self.refill()?;
            }
        }
    }

    /// Skips movetext up to the end of the game (its result, consumed; the `[` of the next
    /// game; or the end of the input) and returns `false`; or, when `variation`, up to the `)`
    /// that closes the variation just opened (consumed; returns `true`), stopping without it
    /// at a result, a `[` or the end of the input.
    pub(super) fn skip_movetext(&mut self, variation: bool) -> io::Result<bool> {
        if !variation {
            self.skip_to_game_end()?;
            return Ok(false);
        }
        self.skip_tokens(variation)
    }

    /// [`PgnReader::skip_movetext`] to the end of the game, at `memchr` speed: the movetext is not
    /// cut into tokens, only searched for the bytes that can change where the game ends (`{`,
    /// `;`, `%`, `[`, and the `-` or `*` that a result has). The cursor always rests on a token
    /// boundary, so that a result is recognised exactly as the token-by-token skip
    /// ([`PgnReader::skip_tokens`]) recognises it; parentheses do not matter here.
    pub(super) fn skip_to_game_end(&mut self) -> io::Result<()> {
        loop {
            self.fill()?;
            let to = self.chunk_end();
            let data = &self.buf[self.pos..to];
            if data.is_empty() {
                // The input ended, or only the `\r` of a `\r\n` cut by the buffer is left.
                if self.eof && self.pos >= self.end {
                    return Ok(());
                }
                self.refill()?;
                continue;
            }
            // Comments and tokens that are no result, passed in one sweep with their lines
            // counted at once; what is left to decide (a result, a `[`, a `;` or `%`, something
            // cut by the end of the buffer) is decided below.
            let passed = pass_plain_movetext(data);
            if passed > 0 {
                self.count_lines(self.pos, self.pos + passed);
                self.pos += passed;
                continue;
            }
            let Some(i) = find_movetext_stop(data) else {
                // Nothing here: move on to the last token boundary, keeping a token cut by
                // the end of the buffer for after the refill.
                let keep = data
                    .iter()
                    .rposition(|&b| is_token_end(b))
                    .map_or(0, |k| k + 1);
                if keep == 0 && !self.eof {
                    // A token as long as everything buffered: no result (as in
                    // `skip_tokens`); skip all of it.
                    return self.skip_tokens(false).map(|_| ());
                }
                let at = if self.eof { to } else { self.pos + keep };
                self.count_lines(self.pos, at);
                self.pos = at;
                if self.eof && self.pos >= self.end {
                    return Ok(());
                }
                self.refill()?;
                continue;
            };
            let at = self.pos + i;
            match self.buf[at] {
                b'{' => {
                    self.count_lines(self.pos, at);
                    self.pos = at;
                    self.skip_brace_comment()?;
                }
                b';' => {
                    self.count_lines(self.pos, at);
                    self.pos = at;
                    self.skip_line()?;
                }
                b'%' => {
                    self.count_lines(self.pos, at);
                    self.pos = at;
                    if self.at_line_start() {
                        self.skip_line()?;
                    } else {
                        self.pos = at + 1;
                        self.pass_token()?;
                    }
                }
                b'[' => {
                    self.count_lines(self.pos, at);
                    self.pos = at;
                    return Ok(());
                }
                _ => {
                    // `-` or `*`: the token around it may be a result.
                    let start = self.buf[self.pos..at]
                        .iter()
                        .rposition(|&b| is_token_end(b))
                        .map_or(self.pos, |k| self.pos + k + 1);
                    self.count_lines(self.pos, start);
                    self.pos = start;
                    let data = &self.buf[start..self.end];
                    let n = token_len(data);
                    if n < data.len() || self.eof {
                        if is_result_token(&data[..n]) {
                            self.pos += n;
                            self.skip_trailing_comments()?;
                            return Ok(());
                        }
                        self.pos += n;
                    } else {
                        // Cut by the end of the buffer: read on and look at it again.
                        self.refill()?;
                        let data = &self.buf[self.pos..self.end];
                        let n = token_len(data);
                        if n >= data.len() && !self.eof {
                            // As long as what is buffered: not a result (`skip_tokens`).
                            return self.skip_tokens(false).map(|_| ());
                        }
                    }
                }
            }
        }
    }

    /// Moves the cursor past the rest of the token it is in (no line ends in a token).
    pub(super) fn pass_token(&mut self) -> io::Result<()> {
        loop {
            let data = &self.buf[self.pos..self.end];
            let n = token_len(data);
            self.pos += n;
            if n < data.len() || self.eof {
                return Ok(());
            }
            self.refill()?;
        }
    }

    /// Skips movetext token by token (see [`PgnReader::skip_movetext`]); the general form, which
    /// also keeps count of parentheses, for skipping a variation.
    pub(super) fn skip_tokens(&mut self, variation: bool) -> io::Result<bool> {
        let mut depth: u64 = 0;
        loop {
            self.fill()?;
            let data = &self.buf[self.pos..self.end];
            let Some(&b) = data.first() else {
                return Ok(false);
            };
            match b {
                b' ' | b'\t' => self.pos += 1,
                b'\n' | b'\r' => self.eat_line_end(),
                b'{' => self.skip_brace_comment()?,
                b';' => self.skip_line()?,
                b'%' if self.at_line_start() => self.skip_line()?,
                b'[' => return Ok(false),
                b'(' => {
                    depth += 1;
                    self.pos += 1;
                }
                b')' => {
                    self.pos += 1;
                    match depth.checked_sub(1) {
                        Some(d) => depth = d,
                        None if variation => return Ok(true),
                        None => {}
                    }
                }
                _ => {
                    // A `}` out of place is a token of its own.
                    let n = token_len(data).max(1);
                    if n < data.len() || self.eof {
                        if is_result_token(&data[..n]) {
                            if !variation {
                                self.pos += n;
                                self.skip_trailing_comments()?;
                            }
                            return Ok(false);
                        }
                        self.pos += n;
                    } else {
                        // A token longer than the lookahead: no result; skip all of it.
                        self.pos = self.end;
                        loop {
                            self.refill()?;
                            let data = &self.buf[self.pos..self.end];
                            let n = token_len(data);
                            self.pos += n;
                            if n < data.len() || self.eof {
                                break;
                            }
                        }
                    }
                }
            }
        }
    }
}
