//! One game read for the tables: its tags, movetext, replay and moves, or why it could not be
//! read.

use std::fmt;

use tabia_eco::{Opening, Table};
use tabia_notation::{
    decode,
    pgn::{Comment, Eval, Game, GameError, Origin, RawGame, RawTag, Reader, Skip, Visitor},
};
use tabia_position::{EpRule, ReplayError, Termination, Warning, WarningKind, replay_mainline};

/// What to read of each game beyond the games table's columns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Keep a [`MoveRecord`] per ply of the mainline.
    pub moves: bool,
    /// With `moves`: the FEN after each move.
    pub fen: bool,
}

/// A game read for the tables. A game that cannot be read still gives a record: its tags (as
/// far as they read), its movetext and the error, so that every game read has its row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// 1-based number of the game in its input.
    pub number: u64,
    /// Where the game starts in the input.
    pub start: Origin,
    /// The tag pairs, in input order, values unescaped and decoded.
    pub tags: Vec<(String, String)>,
    /// The movetext as it stands in the input, trimmed; `None` when the game has none.
    pub movetext: Option<String>,
    /// Plies of the mainline, when it replays.
    pub plies: Option<u32>,
    /// The opening named by the positions the game reached (standard start only).
    pub opening: Option<&'static Opening>,
    /// Polyglot hash of the final position, when the mainline replays.
    pub final_zobrist: Option<u64>,
    /// Why the game could not be read or replayed (at most one).
    pub errors: Vec<Problem>,
    /// What looks wrong in a game that was read.
    pub warnings: Vec<Problem>,
    /// The plies of the mainline (with [`ReadOptions::moves`], for a game that replays).
    pub moves: Vec<MoveRecord>,
}

/// One ply of a game's mainline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRecord {
    /// 1 for the first move.
    pub ply: u32,
    /// The move in SAN, as written (normalised).
    pub san: String,
    /// The move in UCI (`0000` for a null move).
    pub uci: String,
    /// Polyglot hash of the position after the move.
    pub zobrist: u64,
    /// The FEN after the move (with [`ReadOptions::fen`]).
    pub fen: Option<String>,
    /// `[%clk]` after the move, in milliseconds.
    pub clock_ms: Option<u64>,
    /// `[%emt]` after the move, in milliseconds.
    pub emt_ms: Option<u64>,
    /// `[%eval]` after the move.
    pub eval: Option<Eval>,
    /// The move's NAGs.
    pub nags: Vec<u8>,
    /// The comments after the move, commands removed, joined by a space; `None` when empty.
    pub comment: Option<String>,
}

/// An error or warning about a game: a message and, when known, where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line in the input.
    pub line: Option<u64>,
    /// 1-based column.
    pub column: Option<u64>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Problem {
    /// `LINE:COL: message`, or the message alone when the place is unknown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(line), Some(column)) => write!(f, "{line}:{column}: {}", self.message),
            (Some(line), None) => write!(f, "{line}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

impl Problem {
    fn at(message: String, at: Option<Origin>) -> Problem {
        match at {
            Some(at) if at.line > 0 => Problem {
                line: Some(at.line),
                column: Some(at.column),
                message,
            },
            _ => Problem {
                line: None,
                column: None,
                message,
            },
        }
    }

    fn from_game_error(err: &GameError) -> Problem {
        match err.syntax() {
            Some(error) => Problem {
                line: error.line(),
                column: error.column(),
                message: error.message(),
            },
            None => Problem {
                line: None,
                column: None,
                message: err.to_string(),
            },
        }
    }

    fn from_replay_error(err: &ReplayError) -> Problem {
        Problem::at(err.to_string(), err.origin())
    }

    fn from_warning(warning: &Warning) -> Problem {
        Problem::at(warning.to_string(), warning.origin())
    }
}

impl GameRecord {
    /// Reads game `number` of its input: parses it, replays its mainline, names its opening.
    ///
    /// ```
    /// use tabia_notation::pgn::{Origin, RawGame};
    /// use tabia_table::{GameRecord, ReadOptions};
    ///
    /// let raw = RawGame {
    ///     bytes: b"[White \"a\"]\n[WhiteElo \"?\"]\n\n1. e4 { [%clk 0:03:00] } e5 1-0\n".to_vec(),
    ///     start: Origin::default(),
    /// };
    /// let record = GameRecord::read(&raw, 1, ReadOptions { moves: true, fen: false });
    /// assert_eq!(record.plies, Some(2));
    /// assert_eq!(record.movetext.as_deref(), Some("1. e4 { [%clk 0:03:00] } e5 1-0"));
    /// assert_eq!(record.moves[0].uci, "e2e4");
    /// assert_eq!(record.moves[0].clock_ms, Some(180_000));
    /// assert!(record.errors.is_empty());
    /// ```
    pub fn read(raw: &RawGame, number: u64, options: ReadOptions) -> GameRecord {
        let mut record = GameRecord {
            number,
            start: raw.start,
            tags: Vec::new(),
            movetext: movetext(&raw.bytes),
            plies: None,
            opening: None,
            final_zobrist: None,
            errors: Vec::new(),
            warnings: Vec::new(),
            moves: Vec::new(),
        };
        let game = match raw.parse() {
            Ok(game) => game,
            Err(err) => {
                record.tags = tags_only(raw);
                record.errors.push(Problem::from_game_error(&err));
                return record;
            }
        };
        record.replay(&game, options);
        record.tags = game.tags;
        record
    }

    fn replay(&mut self, game: &Game, options: ReadOptions) {
        let mut moves = Vec::new();
        let replayed = replay_mainline(game, None, |ply| {
            if !options.moves {
                return;
            }
            let position = ply.position;
            let uci = match ply.mv {
                Some(m) => m.to_uci(position.castling_mode()).to_string(),
                None => "0000".to_owned(),
            };
            let node = ply.node;
            let mut clock_ms = None;
            let mut emt_ms = None;
            let mut eval = None;
            let mut comment = String::new();
            for text in &node.comments {
                let parsed = Comment::parse(text);
                clock_ms = clock_ms.or_else(|| parsed.clock());
                emt_ms = emt_ms.or_else(|| parsed.emt());
                eval = eval.or_else(|| parsed.eval());
                let text = parsed.text();
                if !text.is_empty() {
                    if !comment.is_empty() {
                        comment.push(' ');
                    }
                    comment.push_str(&text);
                }
            }
            moves.push(MoveRecord {
                ply: ply.ply,
                san: node.san.to_string(),
                uci,
                zobrist: position.zobrist(),
                fen: options.fen.then(|| position.fen(EpRule::Legal)),
                clock_ms,
                emt_ms,
                eval,
                nags: node.nags.iter().map(|n| n.0).collect(),
                comment: (!comment.is_empty()).then_some(comment),
            });
        });
        match replayed {
            Ok(replayed) => {
                self.plies = Some(replayed.plies);
                self.final_zobrist = Some(replayed.end.zobrist());
                self.moves = moves;
                if let Some(warning) = result_mismatch(game, replayed.termination) {
                    self.warnings.push(Problem::from_warning(&warning));
                }
                self.opening = Table::embedded()
                    .classify_game(game)
                    .ok()
                    .and_then(|c| c.matched())
                    .map(|m| m.opening);
            }
            Err(err) => self.errors.push(Problem::from_replay_error(&err)),
        }
    }

    /// The value of the first tag named `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A result that a mate or stalemate on the board contradicts (as `tabia pgn --check` warns).
fn result_mismatch(game: &Game, termination: Option<Termination>) -> Option<Warning> {
    let termination = termination
        .filter(|t| matches!(t, Termination::Checkmate { .. } | Termination::Stalemate))?;
    let result = game.result.as_str();
    if result == "*" || result == termination.result() {
        return None;
    }
    let at = game.mainline.moves.last().map_or(game.start, |m| m.at);
    Some(Warning::new(
        WarningKind::ResultMismatch {
            result: result.to_owned(),
            termination,
        },
        Some(at),
    ))
}

/// The tags of a game whose movetext (or a later tag) does not read: those before the error.
fn tags_only(raw: &RawGame) -> Vec<(String, String)> {
    struct Tags(Vec<(String, String)>);
    impl Visitor for Tags {
        type Output = ();
        fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
            self.0
                .push((decode(name).into_owned(), value.decode().into_owned()));
        }
        fn begin_movetext(&mut self) -> Skip {
            Skip(true)
        }
        fn end_game(&mut self) {}
    }
    let mut tags = Tags(Vec::new());
    let mut reader = Reader::with_capacity(raw.bytes.len().saturating_add(64), &raw.bytes[..]);
    let _ = reader.read_game(&mut tags);
    tags.0
}

/// The movetext of a game's bytes: everything after the tag pairs (and the blank lines and `%`
/// escape lines among them), trimmed.
fn movetext(bytes: &[u8]) -> Option<String> {
    let mut start = 0;
    while start < bytes.len() {
        let end = memchr_newline(&bytes[start..]).map_or(bytes.len(), |i| start + i + 1);
        let line = bytes[start..end].trim_ascii();
        let is_tag =
            line.first() == Some(&b'[') && line.get(1).is_some_and(u8::is_ascii_alphanumeric);
        if !(line.is_empty() || is_tag || line.first() == Some(&b'%') || line == b"\xef\xbb\xbf") {
            break;
        }
        start = end;
    }
    let text = bytes[start..].trim_ascii();
    (!text.is_empty()).then(|| decode(text).into_owned())
}

fn memchr_newline(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> RawGame {
        RawGame {
            bytes: text.as_bytes().to_vec(),
            start: Origin {
                offset: 0,
                line: 1,
                column: 1,
            },
        }
    }

    #[test]
    fn movetext_after_tags() {
        assert_eq!(
            movetext(b"[A \"1\"]\n[B \"2\"]\n\n1. e4 e5\n2. Nf3 *\n").as_deref(),
            Some("1. e4 e5\n2. Nf3 *")
        );
        assert_eq!(movetext(b"1. e4 *").as_deref(), Some("1. e4 *"));
        assert_eq!(movetext(b"[A \"1\"]\n\n").as_deref(), None);
        assert_eq!(
            movetext(b"[A \"1\"]\n{ [%clk 0:00:01]\n[%eval 1] } *").as_deref(),
            Some("{ [%clk 0:00:01]\n[%eval 1] } *")
        );
    }

    #[test]
    fn bad_games_keep_their_tags_and_error() {
        let record = GameRecord::read(
            &raw("[White \"x\"]\n[Black \"y\"]\n\n1. e4 e5 2. Ke3 *\n"),
            3,
            ReadOptions::default(),
        );
        assert_eq!(record.tag("Black"), Some("y"));
        assert_eq!(record.plies, None);
        assert_eq!(
            record.errors[0].to_string(),
            "4:13: illegal move 2. Ke3 (ply 3): no white king can go to e3"
        );
        let record = GameRecord::read(
            &raw("[White \"x\"]\n\n1. e4 e5 2. Zz9 *\n"),
            4,
            ReadOptions::default(),
        );
        assert_eq!(record.tag("White"), Some("x"));
        assert_eq!(record.errors.len(), 1);
        assert!(
            record.errors[0].to_string().starts_with("3:13: "),
            "{:?}",
            record.errors
        );
        assert_eq!(record.movetext.as_deref(), Some("1. e4 e5 2. Zz9 *"));
    }

    #[test]
    fn warnings_and_openings() {
        let record = GameRecord::read(
            &raw("[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n"),
            1,
            ReadOptions::default(),
        );
        assert!(record.errors.is_empty());
        assert_eq!(
            record.warnings[0].to_string(),
            "3:16: result 1-0 but the game ends in black mates (0-1)"
        );
        let record = GameRecord::read(
            &raw("1. e4 c5 2. Nf3 d6 *"),
            1,
            ReadOptions {
                moves: true,
                fen: true,
            },
        );
        let opening = record.opening.expect("named");
        assert_eq!(opening.eco(), "B50");
        assert_eq!(
            record.moves[3].fen.as_deref(),
            Some("rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3")
        );
        assert_eq!(record.final_zobrist, Some(record.moves[3].zobrist));
    }
}
