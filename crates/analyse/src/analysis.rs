//! What an engine says of a position: [`EngineScore`], [`Line`], [`Analysis`]; and what it is
//! asked: [`Limit`], [`Settings`].

use std::{fmt, str::FromStr};

use serde::{Deserialize, Serialize};
use tabia_notation::pgn::Score;
use tabia_position::shakmaty::Color;

/// An engine's score of a position from the side to move's point of view, as UCI gives it
/// (`score cp 35`, `score mate -3`).
///
/// Its `Display` and `FromStr` are UCI's words:
///
/// ```
/// use tabia_analyse::EngineScore;
/// use tabia_position::shakmaty::Color;
///
/// let score: EngineScore = "cp -35".parse()?;
/// assert_eq!(score, EngineScore::Cp(-35));
/// assert_eq!(score.to_string(), "cp -35");
/// // White's point of view, as `[%eval]` writes it: Black to move is 35 centipawns worse.
/// assert_eq!(score.white(Color::Black), tabia_notation::pgn::Score::Cp(35));
/// assert_eq!("mate -3".parse::<EngineScore>()?, EngineScore::Mate(-3));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineScore {
    /// Centipawns, the side to move's advantage when positive.
    Cp(i32),
    /// Mate in so many moves: positive when the side to move mates, negative when it is
    /// mated, 0 when it is checkmated now.
    Mate(i32),
}

impl EngineScore {
    /// The score from White's point of view, when `turn` is to move (the `[%eval]` of a
    /// comment).
    pub fn white(self, turn: Color) -> Score {
        let sign = if turn == Color::White { 1 } else { -1 };
        match self {
            EngineScore::Cp(cp) => Score::Cp(sign * cp),
            // Mate 0 (checkmated) is a loss for the side to move: `#-0` has no sign, so
            // lichess writes the mated side's loss as mate 0 either way.
            EngineScore::Mate(n) => Score::Mate(sign * n),
        }
    }

    /// The score from the side to move's point of view, given White's.
    pub fn from_white(score: Score, turn: Color) -> EngineScore {
        let sign = if turn == Color::White { 1 } else { -1 };
        match score {
            Score::Cp(cp) => EngineScore::Cp(sign * cp),
            Score::Mate(n) => EngineScore::Mate(sign * n),
        }
    }
}

impl fmt::Display for EngineScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineScore::Cp(cp) => write!(f, "cp {cp}"),
            EngineScore::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Why a score's words are not UCI's `cp N` or `mate N`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseScoreError(pub String);

impl fmt::Display for ParseScoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a score (`cp N` or `mate N`)", self.0)
    }
}

impl std::error::Error for ParseScoreError {}

impl FromStr for EngineScore {
    type Err = ParseScoreError;

    fn from_str(s: &str) -> Result<EngineScore, ParseScoreError> {
        let err = || ParseScoreError(s.to_owned());
        let mut words = s.split_ascii_whitespace();
        let (kind, value) = (words.next().ok_or_else(err)?, words.next().ok_or_else(err)?);
        if words.next().is_some() {
            return Err(err());
        }
        let value: i32 = value.parse().map_err(|_| err())?;
        match kind {
            "cp" => Ok(EngineScore::Cp(value)),
            "mate" => Ok(EngineScore::Mate(value)),
            _ => Err(err()),
        }
    }
}

/// One principal variation of an analysis: its score and moves (UCI), best first in
/// [`Analysis::lines`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    /// The score at the end of the search, the side to move's.
    pub score: EngineScore,
    /// The moves, in UCI (`e2e4`, `e1g1`), from the position analysed.
    pub pv: Vec<String>,
}

/// What an engine said of one position: the lines of its deepest complete iteration and its
/// best move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Analysis {
    /// The depth reached.
    pub depth: u32,
    /// The selective depth, when the engine gave it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seldepth: Option<u32>,
    /// The nodes searched.
    pub nodes: u64,
    /// The principal variations, best first (one unless `MultiPV` was set). A position with
    /// no legal move has one line without moves, the engine's score of it (Stockfish says
    /// `mate 0` of a checkmate, `cp 0` of a stalemate), or none if it gave no score.
    pub lines: Vec<Line>,
    /// The best move (UCI), `None` when the engine answered `bestmove (none)`: a checkmate or
    /// stalemate.
    pub best: Option<String>,
}

impl Analysis {
    /// The score of the best line (the side to move's), if there is a line.
    pub fn score(&self) -> Option<EngineScore> {
        self.lines.first().map(|line| line.score)
    }
}

/// How long an engine searches each position: UCI's `go depth N`, `go nodes N`, `go movetime
/// MS` (any of them; the search ends at the first reached). Its `Display` is the `go`
/// command.
///
/// ```
/// use tabia_analyse::Limit;
///
/// let limit = Limit { depth: Some(12), ..Limit::default() };
/// assert_eq!(limit.to_string(), "go depth 12");
/// assert_eq!(Limit::default().to_string(), "go depth 18");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Limit {
    /// Plies of search.
    pub depth: Option<u32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Milliseconds of search.
    pub movetime: Option<u64>,
}

impl Limit {
    /// The depth searched when no limit is given: lichess's server analysis reaches about 18
    /// to 22 plies; 18 takes Stockfish a fraction of a second a position on one thread.
    pub const DEFAULT_DEPTH: u32 = 18;
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if self.depth.is_none() && self.nodes.is_none() && self.movetime.is_none() {
            return write!(f, " depth {}", Limit::DEFAULT_DEPTH);
        }
        if let Some(depth) = self.depth {
            write!(f, " depth {depth}")?;
        }
        if let Some(nodes) = self.nodes {
            write!(f, " nodes {nodes}")?;
        }
        if let Some(ms) = self.movetime {
            write!(f, " movetime {ms}")?;
        }
        Ok(())
    }
}

/// Everything that decides an engine's answer besides the position: the engine's name (its
/// `id name`), the options set, the search limit and the number of lines. Two analyses of a
/// position with equal settings are interchangeable: the cache is keyed by them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Settings {
    /// The engine's `id name` (`Stockfish 15.1`).
    pub engine: String,
    /// The options set with `setoption`, in the order given.
    pub options: Vec<(String, String)>,
    /// The search limit.
    pub limit: Limit,
    /// The number of principal variations (UCI's `MultiPV`), at least 1.
    pub multipv: u32,
}

impl Settings {
    /// The settings as one line of text, the cache's name for them: `Stockfish 15.1 | Hash=16
    /// Threads=1 | go depth 12 | multipv 1`.
    pub fn fingerprint(&self) -> String {
        let options: Vec<String> = self
            .options
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        format!(
            "{} | {} | {} | multipv {}",
            self.engine,
            options.join(" "),
            self.limit,
            self.multipv
        )
    }

    /// The `Annotator` tag `tabia analyse` writes into the games it analysed (and the Python
    /// package's `tabia.analyse`): `tabia analyse: Stockfish 15.1 (go depth 12)`.
    pub fn annotator(&self) -> String {
        format!("tabia analyse: {} ({})", self.engine, self.limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_round_trip_through_their_uci_words() {
        for score in [
            EngineScore::Cp(0),
            EngineScore::Cp(-1234),
            EngineScore::Mate(3),
            EngineScore::Mate(-1),
            EngineScore::Mate(0),
        ] {
            assert_eq!(score.to_string().parse::<EngineScore>(), Ok(score));
        }
        for bad in ["", "cp", "cp x", "mate 1 2", "pawns 3"] {
            assert_eq!(
                bad.parse::<EngineScore>().unwrap_err().to_string(),
                format!("`{bad}` is not a score (`cp N` or `mate N`)")
            );
        }
    }

    #[test]
    fn white_and_side_to_move_views_are_inverse() {
        for turn in [Color::White, Color::Black] {
            for score in [EngineScore::Cp(-40), EngineScore::Mate(2)] {
                assert_eq!(EngineScore::from_white(score.white(turn), turn), score);
            }
        }
        assert_eq!(EngineScore::Mate(2).white(Color::Black), Score::Mate(-2));
    }

    #[test]
    fn limits_are_go_commands() {
        let all = Limit {
            depth: Some(10),
            nodes: Some(5000),
            movetime: Some(100),
        };
        assert_eq!(all.to_string(), "go depth 10 nodes 5000 movetime 100");
    }

    #[test]
    fn fingerprints_name_every_setting() {
        let settings = Settings {
            engine: "Stockfish 15.1".to_owned(),
            options: vec![("Hash".into(), "16".into()), ("Threads".into(), "1".into())],
            limit: Limit {
                depth: Some(12),
                ..Limit::default()
            },
            multipv: 1,
        };
        assert_eq!(
            settings.fingerprint(),
            "Stockfish 15.1 | Hash=16 Threads=1 | go depth 12 | multipv 1"
        );
        assert_eq!(
            settings.annotator(),
            "tabia analyse: Stockfish 15.1 (go depth 12)"
        );
    }
}
