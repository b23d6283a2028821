//! The query string, read into typed parameters as lila-openingexplorer's `api/query.rs` does:
//! a bad value is a [`BadRequest`] whose message the client gets with a 400.
//!
//! ```text
//! query = [ pair *( "&" pair ) ]
//! pair  = name [ "=" value ]      ; percent-encoded, "+" for a space
//! ```

use std::{borrow::Cow, fmt};

use tabia_index::{Filter, FilterError, Limits, Request, RequestError};
use tabia_position::shakmaty::Color;

/// Why a request is refused with a 400.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub(crate) enum BadRequest {
    /// A bad `fen`, `play` or `variant`.
    Request(RequestError),
    /// A bad `speeds`, `ratings`, `since` or `until`.
    Filter(FilterError),
    /// A parameter that should be a count: its name and value.
    Count(&'static str, String),
    /// A `color` that is neither `white` nor `black`.
    Color(String),
    /// A parameter that should be `true` or `false`: its name and value.
    Flag(&'static str, String),
    /// A parameter that is needed: its name.
    Missing(&'static str),
    /// A query that is not UTF-8 once decoded.
    Encoding,
}

impl fmt::Display for BadRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadRequest::Request(err) => err.fmt(f),
            BadRequest::Filter(err) => err.fmt(f),
            BadRequest::Count(name, value) => {
                write!(f, "bad {name} `{value}`: expected a number from 0")
            }
            BadRequest::Color(value) => {
                write!(f, "bad color `{value}`: expected white or black")
            }
            BadRequest::Flag(name, value) => {
                write!(f, "bad {name} `{value}`: expected true or false")
            }
            BadRequest::Missing(name) => write!(f, "missing parameter {name}"),
            BadRequest::Encoding => f.write_str("the query is not UTF-8 once decoded"),
        }
    }
}

impl std::error::Error for BadRequest {}

impl From<RequestError> for BadRequest {
    fn from(err: RequestError) -> BadRequest {
        BadRequest::Request(err)
    }
}

impl From<FilterError> for BadRequest {
    fn from(err: FilterError) -> BadRequest {
        BadRequest::Filter(err)
    }
}

/// The decoded pairs of a query string.
#[derive(Debug, Default)]
pub(crate) struct Query<'a> {
    pairs: Vec<(Cow<'a, str>, Cow<'a, str>)>,
}

impl<'a> Query<'a> {
    /// Splits and decodes a query string (the part after `?`).
    pub(crate) fn parse(raw: &'a str) -> Result<Query<'a>, BadRequest> {
        let mut pairs = Vec::new();
        for pair in raw.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            pairs.push((decode(name)?, decode(value)?));
        }
        Ok(Query { pairs })
    }

    /// The first value of `name` (later ones are ignored).
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_ref())
    }

    /// A count, `default` when absent or empty, at most `cap`.
    pub(crate) fn count(
        &self,
        name: &'static str,
        default: usize,
        cap: usize,
    ) -> Result<usize, BadRequest> {
        match self.get(name).map(str::trim).filter(|v| !v.is_empty()) {
            None => Ok(default),
            Some(value) => value
                .parse::<u64>()
                .map(|n| usize::try_from(n).unwrap_or(usize::MAX).min(cap))
                .map_err(|_| BadRequest::Count(name, value.to_owned())),
        }
    }

    /// A flag, `false` when absent or empty.
    pub(crate) fn flag(&self, name: &'static str) -> Result<bool, BadRequest> {
        match self.get(name).map(str::trim).filter(|v| !v.is_empty()) {
            None | Some("false") => Ok(false),
            Some("true") => Ok(true),
            Some(value) => Err(BadRequest::Flag(name, value.to_owned())),
        }
    }

    /// `fen`, `play` and `variant`.
    pub(crate) fn request(&self) -> Result<Request, BadRequest> {
        Ok(Request::parse(
            self.get("fen"),
            self.get("play"),
            self.get("variant"),
        )?)
    }

    /// `speeds`, `ratings`, `since` and `until` (only `since` and `until` for the masters).
    pub(crate) fn filter(&self, masters: bool) -> Result<Filter, BadRequest> {
        let (speeds, ratings) = if masters {
            (None, None)
        } else {
            (self.get("speeds"), self.get("ratings"))
        };
        Ok(Filter::parse(
            speeds,
            ratings,
            self.get("since"),
            self.get("until"),
        )?)
    }

    /// `player` and `color` (lichess's personal explorer).
    pub(crate) fn player(&self) -> Result<(&str, Color), BadRequest> {
        let player = self
            .get("player")
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .ok_or(BadRequest::Missing("player"))?;
        let color = match self.get("color").map(str::trim) {
            None | Some("white") => Color::White,
            Some("black") => Color::Black,
            Some(other) => return Err(BadRequest::Color(other.to_owned())),
        };
        Ok((player, color))
    }
}

/// How much of an answer each route gives: the defaults and caps of lichess's explorer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Defaults {
    pub(crate) top_games: (usize, usize),
    pub(crate) recent_games: (usize, usize),
}

/// The most moves listed (lichess's explorer has no cap; every legal move is at most 218).
const MAX_MOVES: usize = 256;

impl Defaults {
    /// `/masters`: 15 top games (at most 15), no recent games unless asked (at most 15).
    pub(crate) const MASTERS: Defaults = Defaults {
        top_games: (15, 15),
        recent_games: (0, 15),
    };
    /// `/lichess`: 4 top games and 4 recent games (at most 4 each, as lichess).
    pub(crate) const LICHESS: Defaults = Defaults {
        top_games: (4, 4),
        recent_games: (4, 4),
    };
    /// `/player`: 8 recent games (at most 15).
    pub(crate) const PLAYER: Defaults = Defaults {
        top_games: (0, 0),
        recent_games: (8, 15),
    };

    /// `moves`, `topGames`, `recentGames`.
    pub(crate) fn limits(self, query: &Query<'_>) -> Result<Limits, BadRequest> {
        Ok(Limits {
            moves: query.count("moves", 12, MAX_MOVES)?,
            top_games: query.count("topGames", self.top_games.0, self.top_games.1)?,
            recent_games: query.count("recentGames", self.recent_games.0, self.recent_games.1)?,
            history: query.flag("history")?,
        })
    }
}

/// Percent-decoding, `+` for a space; borrowed when there is nothing to decode.
fn decode(text: &str) -> Result<Cow<'_, str>, BadRequest> {
    if !text.bytes().any(|b| b == b'%' || b == b'+') {
        return Ok(Cow::Borrowed(text));
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes.get(i + 1..i + 3).and_then(|h| {
                    std::str::from_utf8(h)
                        .ok()
                        .and_then(|h| u8::from_str_radix(h, 16).ok())
                });
                match hex {
                    Some(byte) => {
                        out.push(byte);
                        i += 2;
                    }
                    // A lone `%` is kept, as browsers do.
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out)
        .map(Cow::Owned)
        .map_err(|_| BadRequest::Encoding)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_decoded() {
        let query = Query::parse("fen=rnbqkbnr%2Fpppppppp+w&play=e2e4,e7e5&moves=&x&y=%zz%")
            .expect("query");
        assert_eq!(query.get("fen"), Some("rnbqkbnr/pppppppp w"));
        assert_eq!(query.get("play"), Some("e2e4,e7e5"));
        assert_eq!(query.get("x"), Some(""));
        assert_eq!(query.get("y"), Some("%zz%"));
        assert_eq!(query.count("moves", 12, 256), Ok(12));
        assert!(Query::parse("fen=%ff").is_err());
    }

    #[test]
    fn flags_are_true_or_false() {
        let query = Query::parse("history=true&a=false&b=&c=yes").expect("query");
        assert_eq!(query.flag("history").ok(), Some(true));
        assert_eq!(query.flag("a").ok(), Some(false));
        assert_eq!(query.flag("b").ok(), Some(false));
        assert_eq!(query.flag("none").ok(), Some(false));
        assert_eq!(
            query.flag("c").map_err(|e| e.to_string()),
            Err("bad c `yes`: expected true or false".to_owned())
        );
    }

    #[test]
    fn counts_are_capped_and_checked() {
        let query =
            Query::parse("moves=99999999999999999999&topGames=7&recentGames=-1").expect("query");
        assert!(query.count("moves", 12, 256).is_err());
        let query = Query::parse("moves=9999999999&topGames=7").expect("query");
        let limits = Defaults::LICHESS.limits(&query).expect("limits");
        assert_eq!(
            (limits.moves, limits.top_games, limits.recent_games),
            (256, 4, 4)
        );
        let limits = Defaults::MASTERS.limits(&query).expect("limits");
        assert_eq!((limits.top_games, limits.recent_games), (7, 0));
    }
}
