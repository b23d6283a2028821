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

use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Gives the bytes read so far.
pub(crate) type BytesRead = Box<dyn Fn() -> u64 + Send>;

/// How often the line may be redrawn, per second.
const HZ: u8 = 10;

/// The line when the size of the input is known.
const WITH_SIZE: &str =
    "{prefix}: {binary_bytes} of {binary_total_bytes} ({percent}%), {msg}, ETA {eta}";
/// The line when it is not.
const WITHOUT_SIZE: &str = "{prefix}: {binary_bytes}, {msg}";

/// The progress of one input.
pub(crate) struct Progress {
    bar: Option<ProgressBar>,
    noun: &'static str,
    read: BytesRead,
    start: Instant,
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
        }
    }

    /// A meter that draws nothing.
    pub(crate) fn disabled() -> Progress {
        Progress::with_target(None, "", "items", Box::new(|| 0), None)
    }

    /// Shows that `items` are done (indicatif limits the redraws).
    pub(crate) fn update(&mut self, items: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position((self.read)());
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
