//! What goes to standard error: one diagnostic per bad game or position, the progress meter,
//! and the summary at the end; and the exit status they add up to.
//!
//! A diagnostic is one line, `FILE:LINE:COL: game N: message` (the parts that are unknown are
//! left out), so that editors and `grep` can use it:
//!
//! ```text
//! games.pgn:1042:17: game 57: invalid SAN move `Qxx4` (expected a target square such as `f3`)
//! ```
//!
//! A warning (the game was read, something was repaired or looks wrong) is the same line with
//! `warning: ` before the message; it never makes the game bad:
//!
//! ```text
//! games.pgn:7:1: game 2: warning: game has no result, read as `*`
//! ```
//!
//! The summary names what was counted, the subcommand's own counters, how many items were bad
//! and how many warnings were given: `games 1000, matched 12, errors 3, warnings 5`.

use std::{fmt, io::Write};

use serde::Serialize;

use crate::{cli::Status, progress::Progress};

/// One problem with one game or position, with where it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Diagnostic {
    /// The input's name (`<stdin>` for standard input).
    pub(crate) file: String,
    /// 1-based line, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) line: Option<u64>,
    /// 1-based column in characters, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) column: Option<u64>,
    /// 1-based number of the game (or position) in its input, when the input has several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) game: Option<u64>,
    /// What is wrong, without the location.
    pub(crate) message: String,
}

impl Diagnostic {
    /// A diagnostic with only a message; add the rest with the `at`/`game` builders.
    pub(crate) fn new(file: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            file: file.to_owned(),
            line: None,
            column: None,
            game: None,
            message: message.into(),
        }
    }

    /// The diagnostic of a syntax error: its message with the text found where the error is
    /// (the line is not shown), and its line and column when the error has a location (errors
    /// read from a game keep the absolute line of the input).
    pub(crate) fn from_error(file: &str, err: &tabia_notation::Error) -> Diagnostic {
        Diagnostic {
            line: err.line(),
            column: err.column(),
            ..Diagnostic::new(file, err.brief())
        }
    }

    /// The diagnostic of a game that could not be read: a syntax error keeps its location, a
    /// read error is its message.
    pub(crate) fn from_game_error(
        file: &str,
        number: u64,
        err: &tabia_notation::pgn::ReadError,
    ) -> Diagnostic {
        let diagnostic = match err.syntax() {
            Some(error) => Diagnostic::from_error(file, error),
            None => Diagnostic::new(file, err.to_string()),
        };
        diagnostic.game(number)
    }

    /// The diagnostic of a warning about game `number`: its message, and its line and column
    /// when known.
    pub(crate) fn from_warning(
        file: &str,
        number: u64,
        warning: &tabia_position::ReplayWarning,
    ) -> Diagnostic {
        let diagnostic = Diagnostic::new(file, warning.to_string()).game(number);
        match warning.origin() {
            Some(at) if at.line > 0 => diagnostic.at(at.line, at.column),
            _ => diagnostic,
        }
    }

    /// The line of this diagnostic as a warning: `FILE:LINE:COL: game N: warning: message`.
    pub(crate) fn as_warning(&self) -> impl fmt::Display + '_ {
        Labelled {
            diagnostic: self,
            label: "warning: ",
        }
    }

    /// Sets the line and column.
    #[must_use]
    pub(crate) fn at(mut self, line: u64, column: u64) -> Diagnostic {
        self.line = Some(line);
        self.column = Some(column);
        self
    }

    /// Sets the number of the game (or position) in its input.
    #[must_use]
    pub(crate) fn game(mut self, number: u64) -> Diagnostic {
        self.game = Some(number);
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Labelled {
            diagnostic: self,
            label: "",
        }
        .fmt(f)
    }
}

/// A diagnostic's line with a label (`warning: `) before its message.
struct Labelled<'a> {
    diagnostic: &'a Diagnostic,
    label: &'static str,
}

impl fmt::Display for Labelled<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.diagnostic;
        f.write_str(&d.file)?;
        if let Some(line) = d.line {
            write!(f, ":{line}")?;
            if let Some(column) = d.column {
                write!(f, ":{column}")?;
            }
        }
        if let Some(game) = d.game {
            write!(f, ": game {game}")?;
        }
        write!(f, ": {}{}", self.label, d.message)
    }
}

/// How many items (games, positions) a run saw, and how it went.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Items processed.
    pub(crate) items: u64,
    /// The subcommand's own counters (`matched`, `kept`, …), in the order they were declared.
    pub(crate) counters: Vec<(&'static str, u64)>,
    /// Items with at least one error.
    pub(crate) bad: u64,
    /// Warnings given (an item may have several; they never make it bad).
    pub(crate) warnings: u64,
    /// Inputs that could not be opened or read to the end.
    pub(crate) failed_inputs: u64,
}

impl Tally {
    /// The exit status: 2 if an input failed, else 1 if an item was bad, else 0.
    pub(crate) fn status(&self) -> Status {
        if self.failed_inputs > 0 {
            Status::Failure
        } else if self.bad > 0 {
            Status::SomeBad
        } else {
            Status::Success
        }
    }
}

/// How warnings reach standard error (`--warnings`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Warnings {
    /// A line each (`FILE:LINE:COL: game N: warning: …`).
    #[default]
    Each,
    /// Counted in the summary only.
    Count,
}

/// The writer of standard error for one run: diagnostics, progress and the summary, drawn so
/// that the progress line never mixes with a diagnostic.
///
/// Errors writing to standard error are ignored: there is nowhere left to report them.
pub(crate) struct Reporter<'a> {
    err: Box<dyn Write + 'a>,
    progress: Progress,
    quiet: bool,
    warnings: Warnings,
    noun: &'static str,
}

impl<'a> Reporter<'a> {
    /// A reporter writing to `err`; `noun` names what is counted (`"games"`); `quiet` leaves
    /// out the summary (diagnostics are always written).
    pub(crate) fn new(err: impl Write + 'a, noun: &'static str, quiet: bool) -> Reporter<'a> {
        Reporter {
            err: Box::new(err),
            progress: Progress::disabled(),
            quiet,
            warnings: Warnings::Each,
            noun,
        }
    }

    /// The reporter, writing warnings as `warnings` says.
    pub(crate) fn with_warnings(mut self, warnings: Warnings) -> Reporter<'a> {
        self.warnings = warnings;
        self
    }

    /// Whether warnings are written a line each (else they are only counted).
    pub(crate) fn writes_warnings(&self) -> bool {
        self.warnings == Warnings::Each
    }

    /// What is counted (`"games"`).
    pub(crate) fn noun(&self) -> &'static str {
        self.noun
    }

    /// Replaces the progress meter (one per input), erasing the old one's line.
    pub(crate) fn set_progress(&mut self, progress: Progress) {
        self.clear_progress();
        self.progress = progress;
    }

    /// Writes diagnostics that are already formatted, one per line (with the progress line
    /// erased meanwhile).
    pub(crate) fn write_raw(&mut self, text: &[u8]) {
        if text.is_empty() {
            return;
        }
        let err = &mut self.err;
        self.progress.suspend(|| {
            let _ = err.write_all(text);
            let _ = err.flush();
        });
    }

    /// Writes one diagnostic.
    pub(crate) fn diagnostic(&mut self, diagnostic: &Diagnostic) {
        self.write_raw(format!("{diagnostic}\n").as_bytes());
    }

    /// Writes an error that is not about one game: an input that cannot be read.
    pub(crate) fn error(&mut self, err: &anyhow::Error) {
        self.write_raw(format!("tabia: {err:#}\n").as_bytes());
    }

    /// Shows that `items` of the current input are done (rate-limited).
    pub(crate) fn tick(&mut self, items: u64) {
        self.progress.update(items);
    }

    /// Erases the progress line for good, if one is shown.
    pub(crate) fn clear_progress(&mut self) {
        self.progress.clear();
    }

    /// Ends the run: erases the progress line, writes the summary (unless quiet) and gives the
    /// exit status.
    pub(crate) fn finish(&mut self, tally: &Tally) -> Status {
        self.clear_progress();
        if !self.quiet {
            let _ = writeln!(self.err, "{}", summary(self.noun, tally));
        }
        let _ = self.err.flush();
        tally.status()
    }
}

/// The summary line: `games 12, errors 1, warnings 0`, with the subcommand's counters after
/// the item count (`games 12, matched 3, errors 1, warnings 0`) and `, unreadable inputs N`
/// when some inputs failed.
pub(crate) fn summary(noun: &str, tally: &Tally) -> String {
    let mut line = format!("{noun} {}", tally.items);
    for (name, count) in &tally.counters {
        line += &format!(", {name} {count}");
    }
    line += &format!(", errors {}, warnings {}", tally.bad, tally.warnings);
    if tally.failed_inputs > 0 {
        line += &format!(", unreadable inputs {}", tally.failed_inputs);
    }
    line
}

#[cfg(test)]
mod tests {
    use tabia_notation::{Error, ErrorKind};

    use super::*;

    #[test]
    fn diagnostic_line_has_every_known_part() {
        let d = Diagnostic::new("g.pgn", "invalid NAG").at(12, 5).game(3);
        assert_eq!(d.to_string(), "g.pgn:12:5: game 3: invalid NAG");
        let d = Diagnostic::new("<stdin>", "bad").game(7);
        assert_eq!(d.to_string(), "<stdin>: game 7: bad");
        let d = Diagnostic::new("p.epd", "bad").at(2, 1);
        assert_eq!(d.to_string(), "p.epd:2:1: bad");
        let d = Diagnostic::new("g.pgn", "no result").at(9, 1).game(2);
        assert_eq!(
            d.as_warning().to_string(),
            "g.pgn:9:1: game 2: warning: no result"
        );
    }

    #[test]
    fn diagnostic_from_syntax_error_keeps_location_and_expectation() {
        let src = b"8/8/8/8/8/8/8/8 x - - 0 1";
        let err = Error::new(ErrorKind::InvalidColor, 16..17)
            .with_expected("`w` or `b`")
            .with_source(src);
        let d = Diagnostic::from_error("f.fen", &err).game(1);
        assert_eq!(
            d.to_string(),
            "f.fen:1:17: game 1: invalid active colour `x` (expected `w` or `b`)"
        );
        assert_eq!(
            serde_json::to_string(&d).unwrap(),
            r#"{"file":"f.fen","line":1,"column":17,"game":1,"message":"invalid active colour `x` (expected `w` or `b`)"}"#
        );
    }

    #[test]
    fn diagnostic_from_syntax_error_names_what_was_found() {
        // The line is not shown, so the message says what stands at the caret.
        let src = "[Event \"x\"]\n\n1. e4 nc3 *\n";
        let err = Error::new(ErrorKind::InvalidSan, 19..22).with_source(src.as_bytes());
        let d = Diagnostic::from_error("g.pgn", &err).game(1);
        assert_eq!(d.to_string(), "g.pgn:3:7: game 1: invalid SAN move `nc3`");
        // A long token is cut.
        let src = format!("1. {} *", "Q".repeat(40));
        let err = Error::new(ErrorKind::InvalidSan, 3..43).with_source(src.as_bytes());
        assert_eq!(
            Diagnostic::from_error("g.pgn", &err).to_string(),
            format!("g.pgn:1:4: invalid SAN move `{}…`", "Q".repeat(24))
        );
        // Past the end of the input there is nothing to name.
        let src = b"[Event \"x\"";
        let err = Error::new(ErrorKind::UnterminatedTag, 10..10)
            .with_expected("`]`")
            .with_source(src);
        assert_eq!(
            Diagnostic::from_error("g.pgn", &err).to_string(),
            "g.pgn:1:11: tag pair not closed by `]` (expected `]`)"
        );
    }

    #[test]
    fn status_from_tally() {
        let mut t = Tally::default();
        assert_eq!(t.status(), Status::Success);
        t.items = 3;
        t.bad = 1;
        assert_eq!(t.status(), Status::SomeBad);
        t.bad = 0;
        t.warnings = 2;
        assert_eq!(t.status(), Status::Success, "warnings alone are not bad");
        t.bad = 1;
        t.failed_inputs = 1;
        assert_eq!(t.status(), Status::Failure);
        t.counters = vec![("matched", 2), ("kept", 0)];
        assert_eq!(
            summary("games", &t),
            "games 3, matched 2, kept 0, errors 1, warnings 2, unreadable inputs 1"
        );
    }

    #[test]
    fn reporter_erases_progress_for_diagnostics_and_at_the_end() {
        use indicatif::{InMemoryTerm, ProgressDrawTarget};

        use std::{cell::RefCell, rc::Rc};

        /// Standard error: what is written, and what the terminal showed at each write.
        #[derive(Clone, Default)]
        struct Screen {
            term: Option<InMemoryTerm>,
            shown: Rc<RefCell<Vec<String>>>,
            bytes: Rc<RefCell<Vec<u8>>>,
        }
        impl Write for Screen {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                if let Some(term) = &self.term {
                    self.shown.borrow_mut().push(term.contents());
                }
                self.bytes.borrow_mut().extend_from_slice(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }

        let term = InMemoryTerm::new(4, 100);
        let screen = Screen {
            term: Some(term.clone()),
            ..Screen::default()
        };
        {
            let mut r = Reporter::new(screen.clone(), "games", false);
            let target = ProgressDrawTarget::term_like(Box::new(term.clone()));
            r.set_progress(Progress::with_target(
                Some(target),
                "g",
                "games",
                Box::new(|| 1),
                None,
            ));
            r.tick(1);
            assert!(term.contents().starts_with("g: 1 B, 1 games"));
            r.diagnostic(&Diagnostic::new("g", "bad").game(1));
            assert!(
                term.contents().starts_with("g: 1 B, 1 games"),
                "drawn again"
            );
            let status = r.finish(&Tally {
                items: 1,
                bad: 1,
                ..Tally::default()
            });
            assert_eq!(status, Status::SomeBad);
            assert_eq!(term.contents(), "", "erased at the end");
        }
        let shown = screen.shown.borrow();
        assert_eq!(shown.len(), 3, "{shown:?}");
        assert!(
            shown.iter().all(String::is_empty),
            "no progress line on the screen while writing: {shown:?}"
        );
        let text = String::from_utf8(screen.bytes.borrow().clone()).unwrap();
        assert_eq!(text, "g: game 1: bad\ngames 1, errors 1, warnings 0\n");
    }

    #[test]
    fn quiet_reporter_writes_diagnostics_only() {
        let mut buf = Vec::new();
        {
            let mut r = Reporter::new(&mut buf, "positions", true);
            r.diagnostic(&Diagnostic::new("p", "bad"));
            r.finish(&Tally::default());
        }
        assert_eq!(String::from_utf8(buf).unwrap(), "p: bad\n");
    }
}
