//! What goes wrong with an engine: [`UciError`], its [`UciErrorKind`].

use std::{fmt, process::ExitStatus, time::Duration};

/// Why an engine did not give an analysis: its [`kind`](UciError::kind), which engine (its
/// command) and what it was doing (starting, or analysing which position).
///
/// Its `Display` is one sentence for a person:
///
/// ```text
/// engine `stockfish`: no answer to `uci` within 10 s
/// engine `./fake --crash`: exited (exit status: 3) while analysing 8/8/8/8/8/8/8/K6k w - - 0 1
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UciError(Box<Inner>);

/// Boxed: a `Result` with a `UciError` (or a pool's failure holding one) stays small.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Inner {
    kind: UciErrorKind,
    engine: String,
    fen: Option<String>,
}

/// What went wrong with an engine.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UciErrorKind {
    /// A program named without a path is neither on `PATH` nor in `/usr/games`.
    NotFound,
    /// The program could not be run (the operating system's reason).
    Spawn(String),
    /// The engine did not answer a command within the time allowed.
    Timeout {
        /// The command unanswered: `uci`, `isready`, `go depth 18`.
        command: String,
        /// The time it had.
        after: Duration,
    },
    /// The engine's process ended, or closed its output: its exit status when known.
    Crashed(Option<ExitStatus>),
    /// The engine answered something that is not UCI, or not true of the position: an
    /// illegal best move, no score, a malformed `info` line.
    Garbage {
        /// The line answered.
        line: String,
        /// What is wrong with it.
        reason: String,
    },
    /// An option set is not one of those the engine lists after `uci`.
    UnknownOption {
        /// The option's name as given.
        name: String,
        /// The options the engine has.
        known: Vec<String>,
    },
    /// The position to analyse is not a legal position (no engine was asked).
    Position(String),
    /// The analysis was stopped (a pool's [`stop`](crate::Pool::stop), an
    /// [`EngineHandle::stop`](crate::EngineHandle::stop)) before it ended.
    Stopped,
}

impl UciError {
    pub(crate) fn new(kind: UciErrorKind, engine: impl fmt::Display) -> UciError {
        UciError(Box::new(Inner {
            kind,
            engine: engine.to_string(),
            fen: None,
        }))
    }

    /// The error, met while analysing `fen`.
    pub(crate) fn analysing(mut self, fen: &str) -> UciError {
        self.0.fen = Some(fen.to_owned());
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> &UciErrorKind {
        &self.0.kind
    }

    /// The engine's command, as given.
    pub fn engine(&self) -> &str {
        &self.0.engine
    }

    /// The position being analysed, when it went wrong during an analysis.
    pub fn fen(&self) -> Option<&str> {
        self.0.fen.as_deref()
    }
}

impl fmt::Display for UciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "engine `{}`: ", self.engine())?;
        let doing = Doing(self.fen());
        match self.kind() {
            UciErrorKind::NotFound => f.write_str("not found on PATH or in /usr/games"),
            UciErrorKind::Spawn(reason) => write!(f, "cannot run it: {reason}"),
            UciErrorKind::Timeout { command, after } => {
                write!(f, "no answer to `{command}` within {}", Seconds(*after))?;
                if self.fen().is_some() {
                    write!(f, "{doing}")?;
                }
                Ok(())
            }
            UciErrorKind::Crashed(Some(status)) => write!(f, "exited ({status}){doing}"),
            UciErrorKind::Crashed(None) => write!(f, "closed its output{doing}"),
            UciErrorKind::Garbage { line, reason } => {
                write!(f, "answered `{line}`{doing}: {reason}")
            }
            UciErrorKind::UnknownOption { name, known } => {
                write!(f, "has no option `{name}` (it has {})", known.join(", "))
            }
            UciErrorKind::Position(reason) => {
                write!(f, "cannot analyse `{}`: {reason}", self.fen().unwrap_or(""))
            }
            UciErrorKind::Stopped => match self.fen() {
                Some(fen) => write!(f, "stopped before its analysis of {fen} ended"),
                None => f.write_str("stopped"),
            },
        }
    }
}

impl std::error::Error for UciError {}

/// ` while analysing FEN`, or ` while starting`.
struct Doing<'a>(Option<&'a str>);

impl fmt::Display for Doing<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(fen) => write!(f, " while analysing {fen}"),
            None => f.write_str(" while starting"),
        }
    }
}

/// A duration as a person says it: `10 s`, `250 ms`, `1.5 s`.
pub(crate) struct Seconds(pub(crate) Duration);

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.0.as_millis();
        if ms < 1000 {
            write!(f, "{ms} ms")
        } else if ms.is_multiple_of(1000) {
            write!(f, "{} s", ms / 1000)
        } else {
            write!(f, "{:.1} s", self.0.as_secs_f64())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FEN: &str = "8/8/8/8/8/8/8/K6k w - - 0 1";

    #[test]
    fn messages() {
        let timeout = |command: &str, after| UciErrorKind::Timeout {
            command: command.to_owned(),
            after,
        };
        let garbage = UciErrorKind::Garbage {
            line: "bestmove zz99".to_owned(),
            reason: "`zz99` is not a move".to_owned(),
        };
        let unknown = UciErrorKind::UnknownOption {
            name: "Thread".to_owned(),
            known: vec!["Threads".to_owned(), "Hash".to_owned()],
        };
        let errors = [
            UciError::new(UciErrorKind::NotFound, "stockfish"),
            UciError::new(
                UciErrorKind::Spawn("Permission denied (os error 13)".into()),
                "./sf",
            ),
            UciError::new(timeout("uci", Duration::from_secs(10)), "stockfish"),
            UciError::new(timeout("isready", Duration::from_millis(250)), "stockfish"),
            UciError::new(timeout("go depth 18", Duration::from_millis(1500)), "sf").analysing(FEN),
            UciError::new(UciErrorKind::Crashed(None), "./fake").analysing(FEN),
            UciError::new(UciErrorKind::Crashed(None), "./fake"),
            UciError::new(garbage, "./fake --garbage").analysing(FEN),
            UciError::new(unknown, "stockfish"),
            UciError::new(UciErrorKind::Position("illegal position: …".into()), "sf")
                .analysing("8/8 w"),
            UciError::new(UciErrorKind::Stopped, "sf").analysing(FEN),
        ];
        let messages: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            [
                "engine `stockfish`: not found on PATH or in /usr/games",
                "engine `./sf`: cannot run it: Permission denied (os error 13)",
                "engine `stockfish`: no answer to `uci` within 10 s",
                "engine `stockfish`: no answer to `isready` within 250 ms",
                "engine `sf`: no answer to `go depth 18` within 1.5 s while analysing \
                 8/8/8/8/8/8/8/K6k w - - 0 1",
                "engine `./fake`: closed its output while analysing 8/8/8/8/8/8/8/K6k w - - 0 1",
                "engine `./fake`: closed its output while starting",
                "engine `./fake --garbage`: answered `bestmove zz99` while analysing \
                 8/8/8/8/8/8/8/K6k w - - 0 1: `zz99` is not a move",
                "engine `stockfish`: has no option `Thread` (it has Threads, Hash)",
                "engine `sf`: cannot analyse `8/8 w`: illegal position: …",
                "engine `sf`: stopped before its analysis of 8/8/8/8/8/8/8/K6k w - - 0 1 ended",
            ]
        );
    }

    #[cfg(unix)]
    #[test]
    fn exit_statuses_are_the_operating_systems() {
        use std::os::unix::process::ExitStatusExt;

        let crashed = UciError::new(
            UciErrorKind::Crashed(Some(ExitStatus::from_raw(3 << 8))),
            "./fake --crash",
        )
        .analysing(FEN);
        assert_eq!(
            crashed.to_string(),
            "engine `./fake --crash`: exited (exit status: 3) while analysing \
             8/8/8/8/8/8/8/K6k w - - 0 1"
        );
        let killed = UciError::new(UciErrorKind::Crashed(Some(ExitStatus::from_raw(9))), "sf");
        assert_eq!(
            killed.to_string(),
            "engine `sf`: exited (signal: 9 (SIGKILL)) while starting"
        );
    }
}
