//! [`GameError`]: why a game, or an input, gave no game.

use std::{fmt, sync::Arc};

use tabia_notation::pgn::Origin;

/// Why a game could not be read, or an input not read to its end: what went wrong
/// ([`GameErrorKind`]), in which input, which game and where.
///
/// Displayed as one line, `FILE:LINE:COL: game N: message`, as the `tabia` command line
/// reports it.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let file = dir.path().join("games.pgn");
/// std::fs::write(&file, "1. e4 e5 1-0\n\n1. d4 Zz9 0-1\n\n1. c4 e5 2. Ke3 *\n\n1. Nf3 *\n")?;
/// let errors: Vec<String> =
///     tabia::read([&file]).filter_map(Result::err).map(|e| e.to_string()).collect();
/// let name = file.display();
/// assert_eq!(errors, [format!("{name}:3:7: game 2: invalid SAN move `Zz9`")]);
///
/// // Replaying is the caller's: its errors say where too.
/// let games: Vec<_> = tabia::read([&file]).filter_map(Result::ok).collect();
/// let illegal = tabia::Replay::new(&games[1]).find_map(Result::err).expect("an illegal move");
/// let error = tabia::GameError::replay(&file.display().to_string(), 3, illegal);
/// assert_eq!(error.to_string(), format!("{name}:5:13: game 3: illegal move 2. Ke3 (ply 3): no white king can go to e3"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct GameError {
    input: Arc<str>,
    number: Option<u64>,
    kind: GameErrorKind,
}

/// What went wrong.
#[derive(Debug)]
#[non_exhaustive]
pub enum GameErrorKind {
    /// The game's text is not PGN: the reader went on with the next game.
    Syntax(tabia_notation::Error),
    /// A move of the game is illegal, or its start position is bad.
    Replay(tabia_position::ReplayError),
    /// The input could not be opened, or not read to its end (a truncated download, a
    /// damaged archive): no game after this one comes from it.
    Input(tabia_stream::InputError),
    /// The bytes of a game could not be read.
    Io(std::io::Error),
    /// A batch of rows could not be made into Arrow arrays (a bug: please report it).
    #[cfg(feature = "table")]
    Table(tabia_table::arrow_schema::ArrowError),
}

impl GameError {
    pub(crate) fn new(input: Arc<str>, number: Option<u64>, kind: GameErrorKind) -> GameError {
        GameError {
            input,
            number,
            kind,
        }
    }

    /// The error of replaying game `number` of `input` (for the games of [`read`](crate::read)
    /// the caller replays: [`Item::input`](crate::Item::input) and
    /// [`Item::number`](crate::Item::number) say which).
    pub fn replay(input: &str, number: u64, error: tabia_position::ReplayError) -> GameError {
        GameError::new(input.into(), Some(number), GameErrorKind::Replay(error))
    }

    /// The input's name (`ARCHIVE/ENTRY` for an entry of a zip archive).
    pub fn input(&self) -> &str {
        &self.input
    }

    /// The game's number in its input, from 1; `None` for an input that could not be opened.
    pub fn number(&self) -> Option<u64> {
        self.number
    }

    /// What went wrong.
    pub fn kind(&self) -> &GameErrorKind {
        &self.kind
    }

    /// The 1-based line and column of the error in its input, when known.
    pub fn location(&self) -> Option<(u64, u64)> {
        match &self.kind {
            GameErrorKind::Syntax(error) => error.line().zip(error.column()),
            GameErrorKind::Replay(error) => error
                .origin()
                .filter(|at| at.line > 0)
                .map(|Origin { line, column, .. }| (line, column)),
            _ => None,
        }
    }

    /// Whether no game comes after this error from its input.
    pub fn ends_input(&self) -> bool {
        matches!(self.kind, GameErrorKind::Input(_))
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            // A read error names its input (and line) itself.
            GameErrorKind::Input(error) => {
                // An error of opening names its input; one of reading may not.
                let text = error.to_string();
                if !text.contains(&*self.input) {
                    write!(f, "{}: ", self.input)?;
                }
                f.write_str(&text)?;
                return match std::error::Error::source(error) {
                    Some(source) => write!(f, ": {source}"),
                    None => Ok(()),
                };
            }
            _ => f.write_str(&self.input)?,
        }
        if let Some((line, column)) = self.location() {
            write!(f, ":{line}:{column}")?;
        }
        if let Some(number) = self.number {
            write!(f, ": game {number}")?;
        }
        match &self.kind {
            GameErrorKind::Syntax(error) => write!(f, ": {}", error.brief()),
            GameErrorKind::Replay(error) => write!(f, ": {error}"),
            GameErrorKind::Io(error) => write!(f, ": read error: {error}"),
            #[cfg(feature = "table")]
            GameErrorKind::Table(error) => write!(f, ": {error}"),
            GameErrorKind::Input(_) => Ok(()),
        }
    }
}

impl std::error::Error for GameError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            GameErrorKind::Syntax(error) => Some(error),
            GameErrorKind::Replay(error) => Some(error),
            GameErrorKind::Input(error) => Some(error),
            GameErrorKind::Io(error) => Some(error),
            #[cfg(feature = "table")]
            GameErrorKind::Table(error) => Some(error),
        }
    }
}
