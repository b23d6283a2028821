//! One engine process spoken to over UCI, on std threads: [`EngineCommand`] says how to run
//! it, [`Engine`] starts it and analyses positions one at a time, [`EngineHandle`] stops or
//! kills it from another thread. Every wait for the engine has a deadline.
//!
//! The engine's output is read by a thread of its own that sends its lines on a channel, so
//! that waiting for an answer is `recv_timeout`: no polling, and a hung engine is noticed.

mod error;
mod info;
mod search;

use std::{
    fmt,
    io::{self, BufRead, BufReader, Write},
    path::Path,
    process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio},
    str::FromStr,
    sync::{
        Arc, Mutex, MutexGuard, PoisonError,
        mpsc::{self, Receiver, RecvTimeoutError},
    },
    thread,
    time::{Duration, Instant},
};

use self::search::Search;
pub use self::{
    error::{UciError, UciErrorKind},
    info::{Bound, Info, ParseInfoError},
};
use crate::analysis::{Analysis, Limit};

/// How long an engine has to answer `stop` once its time is up, at most: then it is killed.
const STOP_GRACE: Duration = Duration::from_secs(1);

/// How long an engine has to exit after `quit`, or to be seen exiting after it closed its
/// output, before it is killed.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// The folder Debian installs chess engines in, outside `PATH` for most users: a program
/// named without a path is looked for there when it is not on `PATH`.
const GAMES: &str = "/usr/games";

/// How to run an engine: a program (a path, or a name looked up on `PATH`, then in
/// `/usr/games`) and its arguments.
///
/// It reads as a command line split on white space (no quoting), and displays as one:
///
/// ```
/// use tabia_analyse::EngineCommand;
///
/// let command: EngineCommand = "lc0  --weights=t1.pb.gz".parse()?;
/// assert_eq!(command.program(), "lc0");
/// assert_eq!(command.args(), ["--weights=t1.pb.gz"]);
/// assert_eq!(command.to_string(), "lc0 --weights=t1.pb.gz");
/// assert!("  ".parse::<EngineCommand>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EngineCommand {
    program: String,
    args: Vec<String>,
}

impl EngineCommand {
    /// The command running `program` with no arguments (which may contain white space: the
    /// command then does not read back from its `Display`).
    pub fn new(program: impl Into<String>) -> EngineCommand {
        EngineCommand {
            program: program.into(),
            args: Vec::new(),
        }
    }

    /// The command with one more argument.
    #[must_use]
    pub fn arg(mut self, arg: impl Into<String>) -> EngineCommand {
        self.args.push(arg.into());
        self
    }

    /// The program: a path, or a name.
    pub fn program(&self) -> &str {
        &self.program
    }

    /// The arguments.
    pub fn args(&self) -> &[String] {
        &self.args
    }

    /// Runs the program with its stdin and stdout piped (stderr discarded), in a process
    /// group of its own on Unix: a Ctrl-C in the terminal reaches tabia, which quits its
    /// engines itself.
    fn spawn(&self) -> Result<Child, UciError> {
        let spawn = |program: &Path| {
            let mut command = Command::new(program);
            command
                .args(&self.args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null());
            #[cfg(unix)]
            std::os::unix::process::CommandExt::process_group(&mut command, 0);
            command.spawn()
        };
        let program = Path::new(&self.program);
        let lone_name = program.components().count() == 1 && !program.is_absolute();
        let result = match spawn(program) {
            Err(err) if err.kind() == io::ErrorKind::NotFound && lone_name => {
                spawn(&Path::new(GAMES).join(program))
            }
            result => result,
        };
        result.map_err(|err| {
            let kind = if err.kind() == io::ErrorKind::NotFound && lone_name {
                UciErrorKind::NotFound
            } else {
                UciErrorKind::Spawn(err.to_string())
            };
            UciError::new(kind, self)
        })
    }
}

/// Why a command line names no program: it is empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseEngineCommandError;

impl fmt::Display for ParseEngineCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an engine command needs a program")
    }
}

impl std::error::Error for ParseEngineCommandError {}

impl FromStr for EngineCommand {
    type Err = ParseEngineCommandError;

    fn from_str(s: &str) -> Result<EngineCommand, ParseEngineCommandError> {
        let mut words = s.split_whitespace().map(str::to_owned);
        let program = words.next().ok_or(ParseEngineCommandError)?;
        Ok(EngineCommand {
            program,
            args: words.collect(),
        })
    }
}

impl fmt::Display for EngineCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.program)?;
        for arg in &self.args {
            write!(f, " {arg}")?;
        }
        Ok(())
    }
}

/// A running UCI engine, ready for [`analyse`](Engine::analyse). Dropping it kills the
/// process; [`quit`](Engine::quit) asks it to leave first.
///
/// ```no_run
/// use std::time::Duration;
///
/// use tabia_analyse::{Engine, EngineScore, Limit};
///
/// let options = [("Threads".to_owned(), "1".to_owned()), ("Hash".to_owned(), "16".to_owned())];
/// let mut engine = Engine::start(&"stockfish".parse()?, &options, Duration::from_secs(10))?;
/// let limit = Limit { depth: Some(10), ..Limit::default() };
/// let fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
/// let analysis = engine.analyse(fen, false, &limit, 1, Duration::from_secs(10))?;
/// assert_eq!(analysis.best.as_deref(), Some("a1a8"));
/// assert_eq!(analysis.score(), Some(EngineScore::Mate(1)));
/// engine.quit();
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Engine {
    command: EngineCommand,
    name: String,
    control: Arc<Control>,
    lines: Receiver<String>,
    /// What `UCI_Chess960` and `MultiPV` are set to now.
    chess960: bool,
    multipv: u32,
}

/// The parts of an engine other threads may touch: its input (to send `stop`) and its
/// process (to kill it).
#[derive(Debug)]
struct Control {
    input: Mutex<Input>,
    child: Mutex<Child>,
}

#[derive(Debug)]
struct Input {
    stdin: ChildStdin,
    /// Between `go` and `bestmove`.
    searching: bool,
    /// [`EngineHandle::stop`] was called: no more searches.
    stopped: bool,
}

/// What a wait for the engine's next line ended with.
enum Heard {
    Line(String),
    Timeout,
    /// The engine closed its output: it exited or crashed.
    Eof,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // The data behind these locks stays consistent at every point a thread may panic.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Engine {
    /// Starts the engine: runs `command`, sends `uci` and waits for `uciok` (reading its `id
    /// name` and the options it has), sets each of `options` with `setoption`, then waits
    /// for `readyok`. Each wait has `timeout`.
    ///
    /// # Errors
    ///
    /// [`UciError`]: the program cannot be run, does not answer in time, exits, or has no
    /// option of a name given.
    pub fn start(
        command: &EngineCommand,
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<Engine, UciError> {
        let mut child = command.spawn()?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(UciError::new(
                UciErrorKind::Spawn("no pipes".into()),
                command,
            ));
        };
        let lines = read_lines(stdout);
        let mut engine = Engine {
            command: command.clone(),
            name: String::new(),
            control: Arc::new(Control {
                input: Mutex::new(Input {
                    stdin,
                    searching: false,
                    stopped: false,
                }),
                child: Mutex::new(child),
            }),
            lines,
            chess960: false,
            multipv: 1,
        };
        engine.send("uci", None)?;
        let deadline = Instant::now() + timeout;
        let mut known = Vec::new();
        loop {
            let line = engine.line(deadline, "uci", timeout, None)?;
            let mut words = line.split_whitespace();
            match (words.next(), words.next()) {
                (Some("uciok"), _) => break,
                (Some("id"), Some("name")) => engine.name = words.collect::<Vec<_>>().join(" "),
                (Some("option"), Some("name")) => {
                    let name: Vec<&str> = words.take_while(|word| *word != "type").collect();
                    known.push(name.join(" "));
                }
                _ => {}
            }
        }
        if engine.name.is_empty() {
            engine.name = command.to_string();
        }
        for (name, value) in options {
            if !known.is_empty() && !known.iter().any(|k| k.eq_ignore_ascii_case(name)) {
                let kind = UciErrorKind::UnknownOption {
                    name: name.clone(),
                    known,
                };
                return Err(UciError::new(kind, command));
            }
            engine.send(&format!("setoption name {name} value {value}"), None)?;
            if name.eq_ignore_ascii_case("MultiPV") {
                engine.multipv = value.trim().parse().unwrap_or(engine.multipv);
            } else if name.eq_ignore_ascii_case("UCI_Chess960") {
                engine.chess960 = value.trim().eq_ignore_ascii_case("true");
            }
        }
        engine.ready(Instant::now() + timeout, timeout, None)?;
        Ok(engine)
    }

    /// The engine's name, as its `id name` says (`Stockfish 15.1`); its command if it gave
    /// none.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The command the engine was started with.
    pub fn command(&self) -> &EngineCommand {
        &self.command
    }

    /// A handle to stop or kill the engine from another thread.
    pub fn handle(&self) -> EngineHandle {
        EngineHandle {
            control: Arc::clone(&self.control),
        }
    }

    /// Analyses the position `fen` (in Chess960 when `chess960`: `UCI_Chess960` is set when it
    /// changes, as `MultiPV` is to `multipv`): `ucinewgame` (the answer does not depend on
    /// the positions analysed before), `isready`, `position fen`, then the `go` of `limit`,
    /// reading `info` lines until `bestmove`.
    ///
    /// The analysis is the deepest iteration the engine finished with all its `multipv`
    /// lines (for each, its last exact score, else its last line), each line's moves up to
    /// the first illegal one; the last `seldepth` and `nodes` said; the best move, `None`
    /// when the engine says `bestmove (none)` for a position without legal moves.
    ///
    /// When `timeout` (for the whole analysis) passes, the engine is sent `stop` and has one
    /// second more (or `timeout`, if shorter) to answer, else it is killed.
    ///
    /// # Errors
    ///
    /// [`UciError`] of kind [`Position`](UciErrorKind::Position) when `fen` is not a legal
    /// position, [`Timeout`](UciErrorKind::Timeout), [`Crashed`](UciErrorKind::Crashed), or
    /// [`Garbage`](UciErrorKind::Garbage) when the engine's answer is not UCI or not true of
    /// the position (an illegal best move, no score for a position with legal moves);
    /// [`Stopped`](UciErrorKind::Stopped) after [`EngineHandle::stop`].
    pub fn analyse(
        &mut self,
        fen: &str,
        chess960: bool,
        limit: &Limit,
        multipv: u32,
        timeout: Duration,
    ) -> Result<Analysis, UciError> {
        let deadline = Instant::now() + timeout;
        let mut search = Search::new(fen, multipv)
            .map_err(|reason| self.error(UciErrorKind::Position(reason), Some(fen)))?;
        if lock(&self.control.input).stopped {
            return Err(self.error(UciErrorKind::Stopped, Some(fen)));
        }
        if chess960 != self.chess960 {
            self.send(
                &format!("setoption name UCI_Chess960 value {chess960}"),
                Some(fen),
            )?;
            self.chess960 = chess960;
        }
        let multipv = multipv.max(1);
        if multipv != self.multipv {
            self.send(
                &format!("setoption name MultiPV value {multipv}"),
                Some(fen),
            )?;
            self.multipv = multipv;
        }
        self.send("ucinewgame", Some(fen))?;
        self.ready(deadline, timeout, Some(fen))?;

        // A strict FEN has no line break: it cannot smuggle a command in.
        let go = limit.to_string();
        {
            let mut input = lock(&self.control.input);
            if input.stopped {
                drop(input);
                return Err(self.error(UciErrorKind::Stopped, Some(fen)));
            }
            let sent = write!(input.stdin, "position fen {fen}\n{go}\n")
                .and_then(|()| input.stdin.flush());
            if sent.is_err() {
                drop(input);
                return Err(self.crashed(Some(fen)));
            }
            input.searching = true;
        }
        let mut garbage = None;
        let best = loop {
            let line = match self.heard(deadline) {
                Heard::Line(line) => line,
                Heard::Eof => return Err(self.crashed(Some(fen))),
                Heard::Timeout => return Err(self.overtime(&go, timeout, fen)),
            };
            match line.split_whitespace().next() {
                Some("info") => match line.parse::<Info>() {
                    Ok(info) => search.info(info),
                    Err(err) => {
                        garbage.get_or_insert((line, err.reason));
                    }
                },
                Some("bestmove") => break line,
                // UCI: unknown commands are ignored.
                _ => {}
            }
        };
        let stopped = {
            let mut input = lock(&self.control.input);
            input.searching = false;
            input.stopped
        };
        if stopped {
            return Err(self.error(UciErrorKind::Stopped, Some(fen)));
        }
        if let Some((line, reason)) = garbage {
            return Err(self.error(UciErrorKind::Garbage { line, reason }, Some(fen)));
        }
        let best_move = match best.split_whitespace().nth(1) {
            None => {
                let reason = "no move after `bestmove`".to_owned();
                return Err(self.error(UciErrorKind::Garbage { line: best, reason }, Some(fen)));
            }
            Some("(none)" | "0000") => None,
            Some(m) => Some(m),
        };
        search
            .finish(best_move)
            .map_err(|reason| self.error(UciErrorKind::Garbage { line: best, reason }, Some(fen)))
    }

    /// Asks the engine to quit and waits briefly for it to exit; kills it if it does not.
    pub fn quit(self) {
        if self.send("quit", None).is_ok() {
            // The reader sees the end of the output when the engine exits.
            let deadline = Instant::now() + EXIT_GRACE;
            while let Heard::Line(_) = self.heard(deadline) {}
        }
        // Drop kills the engine if it is still there, and reaps it.
    }

    /// Sends one command.
    fn send(&self, command: &str, fen: Option<&str>) -> Result<(), UciError> {
        let mut input = lock(&self.control.input);
        let sent = writeln!(input.stdin, "{command}").and_then(|()| input.stdin.flush());
        drop(input);
        sent.map_err(|_| self.crashed(fen))
    }

    /// Sends `isready` and waits for `readyok` until `deadline`.
    fn ready(
        &self,
        deadline: Instant,
        timeout: Duration,
        fen: Option<&str>,
    ) -> Result<(), UciError> {
        self.send("isready", fen)?;
        while self.line(deadline, "isready", timeout, fen)?.trim() != "readyok" {}
        Ok(())
    }

    /// The engine's next line before `deadline`.
    fn heard(&self, deadline: Instant) -> Heard {
        match self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(line) => Heard::Line(line),
            Err(RecvTimeoutError::Timeout) => Heard::Timeout,
            Err(RecvTimeoutError::Disconnected) => Heard::Eof,
        }
    }

    /// The engine's next line before `deadline`, in answer to `command`: an error if it does
    /// not come (the engine is then killed) or the engine exits.
    fn line(
        &self,
        deadline: Instant,
        command: &str,
        timeout: Duration,
        fen: Option<&str>,
    ) -> Result<String, UciError> {
        match self.heard(deadline) {
            Heard::Line(line) => Ok(line),
            Heard::Eof => Err(self.crashed(fen)),
            Heard::Timeout => {
                self.handle().kill();
                let kind = UciErrorKind::Timeout {
                    command: command.to_owned(),
                    after: timeout,
                };
                Err(self.error(kind, fen))
            }
        }
    }

    /// The search's time is up: `stop`, a little more time for `bestmove`, else the engine is
    /// killed. The engine stays usable when it answers.
    fn overtime(&self, go: &str, timeout: Duration, fen: &str) -> UciError {
        let kind = UciErrorKind::Timeout {
            command: go.to_owned(),
            after: timeout,
        };
        let stop = self.send("stop", Some(fen));
        let deadline = Instant::now() + timeout.min(STOP_GRACE);
        loop {
            match self.heard(deadline) {
                Heard::Line(line) if line.split_whitespace().next() == Some("bestmove") => {
                    lock(&self.control.input).searching = false;
                    break;
                }
                Heard::Line(_) => {}
                Heard::Eof => return self.crashed(Some(fen)),
                Heard::Timeout => {
                    self.handle().kill();
                    break;
                }
            }
        }
        match stop {
            Ok(()) => self.error(kind, Some(fen)),
            Err(crashed) => crashed,
        }
    }

    /// The engine closed its output or its input: why, as its exit status says (it is killed
    /// if it does not exit soon).
    fn crashed(&self, fen: Option<&str>) -> UciError {
        let deadline = Instant::now() + EXIT_GRACE;
        let status = loop {
            let exited = lock(&self.control.child).try_wait();
            match exited {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => {
                    // Only when the engine is gone already: not on the way of an analysis.
                    thread::sleep(Duration::from_millis(5));
                }
                Ok(None) | Err(_) => break kill(&mut lock(&self.control.child)),
            }
        };
        self.error(UciErrorKind::Crashed(status), fen)
    }

    fn error(&self, kind: UciErrorKind, fen: Option<&str>) -> UciError {
        let error = UciError::new(kind, &self.command);
        match fen {
            Some(fen) => error.analysing(fen),
            None => error,
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        kill(&mut lock(&self.control.child));
    }
}

/// Kills `child` if it still runs and reaps it: its exit status.
fn kill(child: &mut Child) -> Option<ExitStatus> {
    let _ = child.kill();
    child.wait().ok()
}

/// Reads the engine's output on a thread of its own: its lines (without the line break,
/// bytes that are not UTF-8 replaced) on a channel that closes when the output ends.
fn read_lines(stdout: ChildStdout) -> Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    let read = move || {
        let mut stdout = BufReader::new(stdout);
        let mut buf = Vec::with_capacity(256);
        loop {
            buf.clear();
            match stdout.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf);
                    let line = line.trim_end_matches(['\n', '\r']).to_owned();
                    if sender.send(line).is_err() {
                        break;
                    }
                }
            }
        }
    };
    // Without a thread the engine cannot be read: the channel then closes at once and the
    // engine counts as crashed.
    let _ = thread::Builder::new()
        .name("uci-reader".to_owned())
        .spawn(read);
    receiver
}

/// Stops or kills an [`Engine`] from another thread (a Ctrl-C handler, a pool's
/// [`stop`](crate::Pool::stop)).
#[derive(Debug, Clone)]
pub struct EngineHandle {
    control: Arc<Control>,
}

impl EngineHandle {
    /// Stops the engine: a search running is sent `stop` and its
    /// [`analyse`](Engine::analyse) returns [`Stopped`](UciErrorKind::Stopped), as does every
    /// later one. The engine itself stays up, to [`quit`](Engine::quit).
    pub fn stop(&self) {
        let mut input = lock(&self.control.input);
        input.stopped = true;
        if input.searching {
            // An engine that cannot be written to has gone: its reader says so.
            let _ = writeln!(input.stdin, "stop").and_then(|()| input.stdin.flush());
        }
    }

    /// Kills the engine's process: an analysis waiting for it ends with
    /// [`Crashed`](UciErrorKind::Crashed).
    pub fn kill(&self) {
        let _ = lock(&self.control.child).kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_round_trip() {
        for line in [
            "stockfish",
            "/usr/games/stockfish",
            "lc0 --weights=a.pb --threads=2",
        ] {
            let command: EngineCommand = line.parse().expect("a command");
            assert_eq!(command.to_string(), line);
        }
        let built = EngineCommand::new("./fake").arg("--move").arg("e2e4");
        assert_eq!(built.to_string().parse(), Ok(built));
        assert_eq!(
            "".parse::<EngineCommand>().unwrap_err().to_string(),
            "an engine command needs a program"
        );
    }

    #[test]
    fn programs_that_cannot_run() {
        let timeout = Duration::from_secs(1);
        let start = |line: &str| {
            let command = line.parse().expect("a command");
            Engine::start(&command, &[], timeout)
                .expect_err("no engine")
                .to_string()
        };
        assert_eq!(
            start("tabia-no-such-engine --x"),
            "engine `tabia-no-such-engine --x`: not found on PATH or in /usr/games"
        );
        assert_eq!(
            start("./tabia/no/such/engine"),
            "engine `./tabia/no/such/engine`: cannot run it: No such file or directory (os error 2)"
        );
    }
}
