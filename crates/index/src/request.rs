//! [`Request`]: a position to explore, as lichess's explorer is asked: a `fen` (or the
//! variant's start), moves to `play` from it, the variant.

use std::fmt;

use tabia_position::{GameVariant, Position, parse_variant, shakmaty::Move};

/// A position asked for: where it starts, the moves played from there, and the position
/// they reach.
///
/// ```
/// use tabia_index::Request;
///
/// let request = Request::parse(None, Some("e2e4,e7e5,g1f3"), None)?;
/// assert_eq!(request.position.epd(Default::default()), "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq -");
/// let err = Request::parse(None, Some("e2e4,e2e4"), None).unwrap_err();
/// assert_eq!(err.to_string(), "illegal move `e2e4`: there is no piece on e2 (in play, ply 2)");
/// # Ok::<_, tabia_index::RequestError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Request {
    /// The position given (`fen`, or the variant's start).
    pub start: Position,
    /// Whether `start` is the variant's standard start (the opening is then named by the
    /// moves played, as lichess names it).
    pub from_start: bool,
    /// The moves of `play`.
    pub moves: Vec<Move>,
    /// The position asked for.
    pub position: Position,
}

/// A bad `fen`, `play` or `variant`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RequestError {
    /// Not a legal position.
    Fen(String),
    /// A move of `play` that is not legal: the move, its ply (1-based), why.
    Move(String, usize, String),
    /// Not a variant.
    Variant(String),
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestError::Fen(why) => write!(f, "bad fen: {why}"),
            RequestError::Move(_, ply, why) => write!(f, "{why} (in play, ply {ply})"),
            RequestError::Variant(name) => write!(
                f,
                "unknown variant `{name}`: expected standard, chess960, crazyhouse, antichess, atomic, horde, kingOfTheHill, racingKings or threeCheck"
            ),
        }
    }
}

impl std::error::Error for RequestError {}

impl Request {
    /// Reads lichess's parameters: `fen` (any FEN, EPD or `startpos`; the variant's start when
    /// absent), `play` (moves in UCI, or SAN, comma-separated), `variant` (lichess's keys:
    /// `standard`, `chess960`, `crazyhouse`, …; also the `Variant` tag's names).
    ///
    /// # Errors
    ///
    /// The first thing that is wrong, as [`RequestError`].
    pub fn parse(
        fen: Option<&str>,
        play: Option<&str>,
        variant: Option<&str>,
    ) -> Result<Request, RequestError> {
        let variant = match variant.map(str::trim).filter(|v| !v.is_empty()) {
            None => None,
            Some(name) => {
                Some(parse_variant(name).map_err(|_| RequestError::Variant(name.to_owned()))?)
            }
        };
        let fen = fen.map(str::trim).filter(|f| !f.is_empty());
        let start = match fen {
            None => Position::from_arg_variant("startpos", Some(variant.unwrap_or_default()))
                .map_err(|err| RequestError::Fen(err.to_string()))?,
            Some(fen) => Position::from_arg_variant(fen, variant)
                .map_err(|err| RequestError::Fen(first_line(&err.to_string())))?,
        };
        let standard = Position::from_arg_variant(
            "startpos",
            Some(variant.unwrap_or(GameVariant::from(start.variant()))),
        )
        .ok();
        let from_start = standard.is_some_and(|s| s.key() == start.key());
        let mut position = start.clone();
        let mut moves = Vec::new();
        for (i, text) in play
            .into_iter()
            .flat_map(|p| p.split([',', ' ']))
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .enumerate()
        {
            let m = position
                .parse_move(text)
                .map_err(|err| RequestError::Move(text.to_owned(), i + 1, err.to_string()))?;
            position.play_unchecked(m);
            moves.push(m);
        }
        Ok(Request {
            start,
            from_start,
            moves,
            position,
        })
    }

    /// The start position.
    pub fn start() -> Request {
        let start = Position::new();
        Request {
            position: start.clone(),
            start,
            from_start: true,
            moves: Vec::new(),
        }
    }
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or(text).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_say_what_is_wrong() {
        let cases = [
            (Some("8/8/8 w - - 0 1"), None, None),
            (None, Some("e2e4,e7e5,e1e3"), None),
            (None, None, Some("bughouse")),
            (None, Some("e4,xx"), None),
        ];
        let messages: Vec<String> = cases
            .iter()
            .map(|(f, p, v)| Request::parse(*f, *p, *v).unwrap_err().to_string())
            .collect();
        tabia_testkit::expect_file(
            std::path::Path::new(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/golden/request_errors.txt"
            )),
            &messages.join("\n"),
        );
    }

    #[test]
    fn san_and_uci_both_play() {
        let a = Request::parse(None, Some("e4,e5,Nf3"), None).expect("san");
        let b = Request::parse(None, Some("e2e4 e7e5 g1f3"), None).expect("uci");
        assert_eq!(a.position.key(), b.position.key());
        assert!(a.from_start);
        let c = Request::parse(Some("startpos"), None, Some("crazyhouse")).expect("zh");
        assert!(c.from_start);
        assert_eq!(c.position.variant(), tabia_position::Variant::Crazyhouse);
    }
}
