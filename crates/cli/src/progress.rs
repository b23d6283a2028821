//! The progress meter: one line on standard error, drawn by `indicatif` at most ten times a
//! second, only when standard error is a terminal (and `--quiet` was not given), erased at the
//! end of each input and while a diagnostic is written.
//!
//! ```text
//! games.pgn.zst: 12.4 MiB of 96.0 MiB (13%), 41 230 games, 52 310 games/s, ETA 9s
//! ```
//!
//! Bytes are those read from the file itself (compressed bytes for a compressed file), so that
//! the percentage and the ETA compare like with like; for standard input, or any input of
//! unknown size, there is no percentage and no ETA.
//!
//! Over several files (a folder, `twic*.pgn.zst`) the line is about the whole run ([`Whole`]):
//! the bytes of every file, the games of every file, one percentage and one ETA, with the
//! file being read and its place among them:
//!
//! ```text
//! twic/twic1599.pgn (12 of 40): 80.1 MiB of 250.0 MiB (32%), 410 230 games, 52 310 games/s, ETA 3m
//! ```

use std::{
    path::{Path, PathBuf},
    time::Instant,
};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Gives the bytes read so far.
pub(crate) type BytesRead = Box<dyn Fn() -> u64 + Send>;

/// Gives what a command adds to the line after the items (`52 310 positions analysed`).
pub(crate) type ProgressExtra = std::sync::Arc<dyn Fn() -> String + Send + Sync>;

/// How often the line may be redrawn, per second.
const HZ: u8 = 10;

/// The line when the size of the input is known.
const WITH_SIZE: &str =
    "{prefix}: {binary_bytes} of {binary_total_bytes} ({percent}%), {msg}, ETA {eta}";
/// The line when it is not.
const WITHOUT_SIZE: &str = "{prefix}: {binary_bytes}, {msg}";

/// The files of a whole run, when their sizes are known before it starts: their number and
/// the sum of their sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Whole {
    /// The sum of the files' sizes, in bytes.
    pub(crate) bytes: u64,
    /// How many files.
    pub(crate) inputs: usize,
}

impl Whole {
    /// The run over `files` when there are several and each is a file whose size is known:
    /// not standard input, not a zip archive (whose entries are the inputs).
    pub(crate) fn of(files: &[PathBuf]) -> Option<Whole> {
        if files.len() < 2 {
            return None;
        }
        let mut bytes = 0;
        for file in files {
            let zip = file
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("zip"));
            let meta = std::fs::metadata(Path::new(file)).ok()?;
            if file.as_os_str() == "-" || zip || !meta.is_file() {
                return None;
            }
            bytes += meta.len();
        }
        Some(Whole {
            bytes,
            inputs: files.len(),
        })
    }
}

/// Where a run over several files is: what the inputs before the current one gave.
#[derive(Debug)]
pub(crate) struct Done {
    whole: Whole,
    /// Inputs begun.
    begun: usize,
    bytes: u64,
    items: u64,
    start: Instant,
}

impl Done {
    /// A run over `whole`, starting now.
    pub(crate) fn new(whole: Whole) -> Done {
        Done {
            whole,
            begun: 0,
            bytes: 0,
            items: 0,
            start: Instant::now(),
        }
    }
}

/// The progress of one input.
pub(crate) struct Progress {
    bar: Option<ProgressBar>,
    noun: &'static str,
    read: BytesRead,
    start: Instant,
    /// The input's size, when known.
    size: Option<u64>,
    /// The items of this input done so far.
    items: u64,
    /// The bytes and items of the inputs before this one, when the line is about the whole run.
    before: (u64, u64),
    /// What the command adds after the items.
    extra: Option<ProgressExtra>,
}

impl Progress {
    /// A meter for the input `name` that counts `noun`s (`"games"`) on standard error; `read`
    /// gives the bytes read so far out of `size`. A disabled meter draws nothing.
    pub(crate) fn new(
        enabled: bool,
        name: &str,
        noun: &'static str,
        read: BytesRead,
        size: Option<u64>,
    ) -> Progress {
        let target = enabled.then(|| ProgressDrawTarget::stderr_with_hz(HZ));
        Progress::with_target(target, name, noun, read, size)
    }

    /// A meter drawn on `target` (none: disabled).
    pub(crate) fn with_target(
        target: Option<ProgressDrawTarget>,
        name: &str,
        noun: &'static str,
        read: BytesRead,
        size: Option<u64>,
    ) -> Progress {
        let bar = target.map(|target| {
            let template = if size.is_some() {
                WITH_SIZE
            } else {
                WITHOUT_SIZE
            };
            // The templates are constants that parse; should one not, draw the bare line.
            let style = ProgressStyle::with_template(template)
                .unwrap_or_else(|_| ProgressStyle::default_spinner());
            ProgressBar::with_draw_target(size, target)
                .with_style(style)
                .with_prefix(name.to_owned())
                .with_message(format!("0 {noun}"))
        });
        Progress {
            bar,
            noun,
            read,
            start: Instant::now(),
            size,
            items: 0,
            before: (0, 0),
            extra: None,
        }
    }

    /// This meter with `extra`'s text after the items.
    pub(crate) fn with_extra(mut self, extra: Option<ProgressExtra>) -> Progress {
        self.extra = extra;
        self
    }

    /// Makes this meter, of the next input of a run over several files, show the whole run:
    /// `done` holds what the inputs before gave (`last`, the meter of the input before this
    /// one, is added to it).
    pub(crate) fn within(mut self, done: &mut Done, last: Option<&Progress>) -> Progress {
        if let Some(last) = last {
            done.bytes += last.size.unwrap_or(0);
            done.items += last.items;
        }
        done.begun += 1;
        self.before = (done.bytes, done.items);
        self.start = done.start;
        if let Some(bar) = &self.bar {
            let prefix = format!("{} ({} of {})", bar.prefix(), done.begun, done.whole.inputs);
            bar.set_prefix(prefix);
            bar.set_length(done.whole.bytes);
            bar.set_position(done.bytes);
            if self.size.is_none() {
                // The template without a size would not show the whole's.
                if let Ok(style) = ProgressStyle::with_template(WITH_SIZE) {
                    bar.set_style(style);
                }
            }
        }
        self
    }

    /// A meter that draws nothing.
    pub(crate) fn disabled() -> Progress {
        Progress::with_target(None, "", "items", Box::new(|| 0), None)
    }

    /// Shows that `items` are done (indicatif limits the redraws).
    pub(crate) fn update(&mut self, items: u64) {
        self.items = items;
        if let Some(bar) = &self.bar {
            bar.set_position(self.before.0 + (self.read)());
            let items = self.before.1 + items;
            bar.set_message(self.message(items, self.start.elapsed().as_secs_f64()));
        }
    }

    /// Runs `write` with the line erased, then draws it again.
    pub(crate) fn suspend<R>(&self, write: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(write),
            None => write(),
        }
    }

    /// Erases the line for good (at the end of the input).
    pub(crate) fn clear(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }

    /// The part of the line about items: `41 230 games, 52 310 games/s`.
    fn message(&self, items: u64, secs: f64) -> String {
        let mut message = format!("{} {}", thousands(items), self.noun);
        if secs > 0.0 {
            let rate = (items as f64 / secs) as u64;
            message += &format!(", {} {}/s", thousands(rate), self.noun);
        }
        if let Some(extra) = &self.extra {
            message += ", ";
            message += &extra();
        }
        message
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}

/// `1234567` → `1 234 567` (a thin, locale-neutral grouping).
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use indicatif::InMemoryTerm;

    use super::*;

    fn meter(term: &InMemoryTerm, read: u64, size: Option<u64>) -> Progress {
        let target = ProgressDrawTarget::term_like(Box::new(term.clone()));
        Progress::with_target(Some(target), "g.pgn", "games", Box::new(move || read), size)
    }

    #[test]
    fn line_with_known_size_has_percentage_and_eta() {
        let term = InMemoryTerm::new(4, 120);
        let mut p = meter(&term, 25 << 20, Some(100 << 20));
        p.update(50_000);
        let line = term.contents();
        assert!(
            line.starts_with("g.pgn: 25.00 MiB of 100.00 MiB (25%), 50 000 games, "),
            "{line}"
        );
        assert!(line.contains(" games/s, ETA "), "{line}");
    }

    #[test]
    fn line_of_unknown_size_has_no_eta() {
        let term = InMemoryTerm::new(4, 120);
        let mut p = meter(&term, 512, None);
        p.update(3);
        let line = term.contents();
        assert!(line.starts_with("g.pgn: 512 B, 3 games, "), "{line}");
        assert!(!line.contains("ETA"), "{line}");
    }

    #[test]
    fn the_line_is_erased_for_diagnostics_and_at_the_end() {
        let term = InMemoryTerm::new(4, 120);
        let mut p = meter(&term, 10, Some(100));
        p.update(1);
        assert!(term.contents().starts_with("g.pgn: 10 B of 100 B (10%)"));
        let during = p.suspend(|| term.contents());
        assert_eq!(during, "", "erased while a diagnostic is written");
        assert!(!term.contents().is_empty(), "drawn again after it");
        p.clear();
        assert_eq!(term.contents(), "");
        p.update(2);
        assert_eq!(term.contents(), "", "nothing after the end");
    }

    #[test]
    fn over_several_files_the_line_is_about_the_whole_run() {
        let term = InMemoryTerm::new(4, 120);
        let mut done = Done::new(Whole {
            bytes: 400,
            inputs: 3,
        });
        let target = || Some(ProgressDrawTarget::term_like(Box::new(term.clone())));
        let mut first =
            Progress::with_target(target(), "a.pgn", "games", Box::new(|| 60), Some(100))
                .within(&mut done, None);
        first.update(7);
        assert!(
            term.contents()
                .starts_with("a.pgn (1 of 3): 60 B of 400 B (15%), 7 games, "),
            "{}",
            term.contents()
        );
        first.clear();
        let mut second =
            Progress::with_target(target(), "b.pgn.zst", "games", Box::new(|| 100), Some(200))
                .within(&mut done, Some(&first));
        second.update(5);
        assert!(
            term.contents()
                .starts_with("b.pgn.zst (2 of 3): 200 B of 400 B (50%), 12 games, "),
            "{}",
            term.contents()
        );
        assert!(term.contents().contains(", ETA "));
    }

    #[test]
    fn a_whole_run_is_several_files_of_known_size() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.pgn"), dir.path().join("b.pgn"));
        std::fs::write(&a, "1. e4 *\n").unwrap();
        std::fs::write(&b, "1. d4 d5 *\n").unwrap();
        assert_eq!(
            Whole::of(&[a.clone(), b.clone()]),
            Some(Whole {
                bytes: 19,
                inputs: 2
            })
        );
        assert_eq!(Whole::of(std::slice::from_ref(&a)), None);
        assert_eq!(Whole::of(&[a.clone(), PathBuf::from("-")]), None);
        assert_eq!(Whole::of(&[a, dir.path().join("c.zip")]), None);
    }

    #[test]
    fn disabled_meter_is_silent() {
        let mut p = Progress::disabled();
        p.update(1);
        assert_eq!(p.suspend(|| 7), 7);
        p.clear();
    }

    #[test]
    fn message_and_units() {
        let p = Progress::disabled();
        assert_eq!(p.message(3, 0.0), "3 items");
        assert_eq!(p.message(50_000, 2.0), "50 000 items, 25 000 items/s");
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(1_234_567), "1 234 567");
        assert_eq!(thousands(123_456), "123 456");
    }
}
