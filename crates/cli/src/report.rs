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
//! A warning (the game was read, but what was read is a guess or contradicts itself) is the
//! same line with `warning: ` before the message; a note (the game is what was meant, only
//! written another way: a check mark, a lowercase letter) with `note: `. Neither makes the game
//! bad:
//!
//! ```text
//! games.pgn:7:1: game 2: warning: game has no result, read as `*`
//! ```
//!
//! By default ([`Warnings::Some`]) the first [`WARNINGS_LISTED`] warnings of an input are
//! listed, then one line says how many more there were; notes are only counted. `-q` lists
//! neither; `--warnings each` lists every warning and note.
//!
//! The summary names what was counted, the subcommand's own counters, how many items were bad
//! and how many warnings were given, listed or not, and how many notes when there were some:
//! `games 1000, matched 12, errors 3, warnings 5, notes 440`.

use std::{fmt, io::Write, ops::Range};

use serde::Serialize;
use tabia_notation::Located;
use tabia_position::Level;

use crate::{
    cli::Status,
    progress::{Done, Progress, Whole},
};

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
    /// For a warning, a warning or a note (`"level":"note"`); none for an error.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "serialize_level"
    )]
    pub(crate) level: Option<Level>,
}

/// A level as its name.
fn serialize_level<S: serde::Serializer>(
    level: &Option<Level>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match level {
        Some(level) => serializer.serialize_str(level.as_str()),
        None => serializer.serialize_none(),
    }
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
            level: None,
        }
    }

    /// The diagnostic of any problem with game `number` that has a place ([`Located`]: a
    /// syntax error, an illegal move, a repair, an opening or output problem): its message,
    /// and its line and column when known. Every such diagnostic is built here.
    pub(crate) fn located(
        file: &str,
        number: u64,
        problem: &(impl Located + ?Sized),
    ) -> Diagnostic {
        let diagnostic = Diagnostic::new(file, problem.message()).game(number);
        match problem.origin() {
            Some(at) if at.line > 0 => diagnostic.at(at.line, at.column),
            _ => diagnostic,
        }
    }

    /// The diagnostic of a game that could not be read: a syntax error keeps its location, a
    /// read error is its message.
    pub(crate) fn from_game_error(
        file: &str,
        number: u64,
        err: &tabia_notation::pgn::ReadError,
    ) -> Diagnostic {
        Diagnostic::located(file, number, err)
    }

    /// The diagnostic of a warning about game `number`, at its level.
    pub(crate) fn from_warning(
        file: &str,
        number: u64,
        warning: &tabia_position::ReplayWarning,
    ) -> Diagnostic {
        Diagnostic::located(file, number, warning).level(warning.level())
    }

    /// The line of this diagnostic as a warning: `FILE:LINE:COL: game N: warning: message`
    /// (`note: ` for a note).
    pub(crate) fn as_warning(&self) -> impl fmt::Display + '_ {
        Labelled {
            diagnostic: self,
            label: match self.warning_level() {
                Level::Note => "note: ",
                Level::Warning => "warning: ",
            },
        }
    }

    /// The level of this diagnostic as a warning (a warning unless it says it is a note).
    pub(crate) fn warning_level(&self) -> Level {
        self.level.unwrap_or(Level::Warning)
    }

    /// Sets the level of a warning.
    #[must_use]
    pub(crate) fn level(mut self, level: Level) -> Diagnostic {
        self.level = Some(level);
        self
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
    /// Warnings given (an item may have several; they never make it bad), listed or not.
    pub(crate) warnings: u64,
    /// Notes given (listed with `--warnings each` only).
    pub(crate) notes: u64,
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

/// How many warnings of an input are listed by default ([`Warnings::Some`]).
pub(crate) const WARNINGS_LISTED: u64 = 10;

/// How warnings and notes reach standard error (`--warnings`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Warnings {
    /// The first 10 warnings of each input a line each, then how many more; notes counted.
    #[default]
    Some,
    /// Every warning and every note a line each (`FILE:LINE:COL: game N: warning: …`,
    /// `… note: …`).
    Each,
    /// Warnings and notes counted in the summary only.
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
    /// Warnings of the current input listed, and not listed past [`WARNINGS_LISTED`].
    listed: u64,
    unlisted: u64,
    /// Over several files of known size: the run so far, which the meter shows whole.
    done: Option<Done>,
}

impl<'a> Reporter<'a> {
    /// A reporter writing to `err`; `noun` names what is counted (`"games"`); `quiet` leaves
    /// out the summary (diagnostics are always written).
    pub(crate) fn new(err: impl Write + 'a, noun: &'static str, quiet: bool) -> Reporter<'a> {
        Reporter {
            err: Box::new(err),
            progress: Progress::disabled(),
            quiet,
            warnings: Warnings::Some,
            noun,
            listed: 0,
            unlisted: 0,
            done: None,
        }
    }

    /// The reporter of a run over the files of `whole`, when known: one meter for all of them.
    pub(crate) fn with_whole(mut self, whole: Option<Whole>) -> Reporter<'a> {
        self.done = whole.map(Done::new);
        self
    }

    /// The reporter, writing warnings as `warnings` says; when it was not given, as
    /// [`Warnings::Some`] says, or only counted when quiet (`-q`: errors only).
    pub(crate) fn with_warnings(mut self, warnings: Option<Warnings>) -> Reporter<'a> {
        self.warnings = match warnings {
            Some(warnings) => warnings,
            None if self.quiet => Warnings::Count,
            None => Warnings::Some,
        };
        self
    }

    /// Whether warnings are written at all (else they are only counted).
    pub(crate) fn writes_warnings(&self) -> bool {
        self.warnings != Warnings::Count
    }

    /// Writes the diagnostics of an item, already formatted one a line: `warnings` are where
    /// its warnings' and notes' lines are, which are written as [`Warnings`] says (the other
    /// lines, errors, always are).
    pub(crate) fn write_diagnostics(&mut self, text: &[u8], warnings: &[(Range<usize>, Level)]) {
        if self.warnings == Warnings::Each || warnings.is_empty() {
            return self.write_raw(text);
        }
        let mut from = 0;
        for (line, level) in warnings {
            self.write_raw(&text[from..line.start]);
            from = line.end;
            if self.warnings == Warnings::Some && *level == Level::Warning {
                if self.listed < WARNINGS_LISTED {
                    self.listed += 1;
                    self.write_raw(&text[line.clone()]);
                } else {
                    self.unlisted += 1;
                }
            }
        }
        self.write_raw(&text[from..]);
    }

    /// Ends an input: says how many of its warnings were not listed, if any.
    pub(crate) fn end_input(&mut self, name: &str) {
        if self.unlisted > 0 {
            let more = self.unlisted;
            let noun = if more == 1 { "warning" } else { "warnings" };
            self.write_raw(
                format!("{name}: and {more} more {noun} (--warnings each lists them)\n").as_bytes(),
            );
        }
        self.listed = 0;
        self.unlisted = 0;
    }

    /// What is counted (`"games"`).
    pub(crate) fn noun(&self) -> &'static str {
        self.noun
    }

    /// Replaces the progress meter (one per input), erasing the old one's line; over several
    /// files, the new one shows the whole run.
    pub(crate) fn set_progress(&mut self, progress: Progress) {
        self.clear_progress();
        let last = std::mem::replace(&mut self.progress, Progress::disabled());
        self.progress = match &mut self.done {
            Some(done) => progress.within(done, Some(&last)),
            None => progress,
        };
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
    if tally.notes > 0 {
        line += &format!(", notes {}", tally.notes);
    }
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
        let d = Diagnostic::located("f.fen", 1, &err);
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
        let d = Diagnostic::located("g.pgn", 1, &err);
        assert_eq!(d.to_string(), "g.pgn:3:7: game 1: invalid SAN move `nc3`");
        // A long token is cut.
        let src = format!("1. {} *", "Q".repeat(40));
        let err = Error::new(ErrorKind::InvalidSan, 3..43).with_source(src.as_bytes());
        assert_eq!(
            Diagnostic::located("g.pgn", 1, &err).to_string(),
            format!("g.pgn:1:4: game 1: invalid SAN move `{}…`", "Q".repeat(24))
        );
        // Past the end of the input there is nothing to name.
        let src = b"[Event \"x\"";
        let err = Error::new(ErrorKind::UnterminatedTag, 10..10)
            .with_expected("`]`")
            .with_source(src);
        assert_eq!(
            Diagnostic::located("g.pgn", 1, &err).to_string(),
            "g.pgn:1:11: game 1: tag pair not closed by `]` (expected `]`)"
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
    fn some_warnings_of_an_input_are_listed_and_notes_counted() {
        let lines = |reporter: &mut Reporter<'_>, file: &str| {
            for game in 1..=14 {
                let mut text = Vec::new();
                let mut warnings = Vec::new();
                let level = if game % 5 == 0 {
                    Level::Note
                } else {
                    Level::Warning
                };
                let d = Diagnostic::new(file, "w").game(game).level(level);
                writeln!(text, "{}", d.as_warning()).unwrap();
                warnings.push((0..text.len(), level));
                writeln!(text, "{}", Diagnostic::new(file, "bad").game(game)).unwrap();
                reporter.write_diagnostics(&text, &warnings);
            }
            reporter.end_input(file);
        };
        let mut buf = Vec::new();
        {
            let mut r = Reporter::new(&mut buf, "games", false).with_warnings(None);
            lines(&mut r, "a");
            lines(&mut r, "b");
            r.finish(&Tally {
                items: 28,
                bad: 28,
                warnings: 24,
                notes: 4,
                ..Tally::default()
            });
        }
        let text = String::from_utf8(buf).unwrap();
        let listed: Vec<&str> = text.lines().filter(|l| l.contains("warning:")).collect();
        assert_eq!(listed.len(), 20, "ten an input: {text}");
        assert!(!text.contains("note:"), "{text}");
        assert_eq!(text.matches(": bad").count(), 28, "every error");
        assert!(text.contains("a: game 12: warning: w\na: game 12: bad\na: game 13: bad\n"));
        assert!(text.ends_with(
            "b: game 14: bad\nb: and 2 more warnings (--warnings each lists them)\n\
             games 28, errors 28, warnings 24, notes 4\n"
        ));
        // Quiet: errors only; --warnings each: everything.
        for (quiet, warnings, shown) in [
            (true, None, 0),
            (true, Some(Warnings::Each), 14),
            (false, Some(Warnings::Each), 14),
            (false, Some(Warnings::Count), 0),
        ] {
            let mut buf = Vec::new();
            {
                let mut r = Reporter::new(&mut buf, "games", quiet).with_warnings(warnings);
                lines(&mut r, "a");
            }
            let text = String::from_utf8(buf).unwrap();
            let shown_now = text.lines().filter(|l| !l.ends_with(": bad")).count();
            assert_eq!(shown_now, shown, "{quiet} {warnings:?}: {text}");
        }
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
