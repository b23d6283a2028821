//! UCI's `info` line, typed: [`Info`] and its score's [`Bound`].

use std::{fmt, str::FromStr};

use tabia_position::shakmaty::uci::UciMove;

use crate::analysis::EngineScore;

/// Whether an `info` line's score is exact or only a bound: an engine that runs out of its
/// aspiration window says `lowerbound` (the score is at least this) or `upperbound` (at most).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Bound {
    /// No bound given: the score is the search's result.
    #[default]
    Exact,
    /// `lowerbound`: the true score is at least this.
    Lower,
    /// `upperbound`: the true score is at most this.
    Upper,
}

/// An engine's `info` line, the fields tabia reads: search depth, score, nodes, the
/// principal variation, or a free `string`. Other fields (`hashfull`, `tbhits`, `currmove`,
/// `wdl`, …) are skipped when parsing, as are fields UCI does not know, as UCI asks.
///
/// ```
/// use tabia_analyse::{Bound, EngineScore, Info};
///
/// let info: Info = "info depth 12 seldepth 17 multipv 1 score cp 31 upperbound nodes 48211 \
///                   nps 802683 hashfull 12 tbhits 0 time 60 pv e2e4 e7e5 g1f3".parse()?;
/// assert_eq!(info.depth, Some(12));
/// assert_eq!(info.score, Some(EngineScore::Cp(31)));
/// assert_eq!(info.bound, Bound::Upper);
/// assert_eq!(info.pv.len(), 3);
/// assert_eq!(
///     info.to_string(),
///     "info depth 12 seldepth 17 multipv 1 score cp 31 upperbound nodes 48211 nps 802683 \
///      time 60 pv e2e4 e7e5 g1f3"
/// );
/// let note: Info = "info string NNUE evaluation enabled".parse()?;
/// assert_eq!(note.string.as_deref(), Some("NNUE evaluation enabled"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Info {
    /// `depth`: plies searched.
    pub depth: Option<u32>,
    /// `seldepth`: the selective depth.
    pub seldepth: Option<u32>,
    /// `multipv`: which principal variation this is, from 1.
    pub multipv: Option<u32>,
    /// `score`: the side to move's.
    pub score: Option<EngineScore>,
    /// Whether the score is exact or a bound; [`Bound::Exact`] when there is no score.
    pub bound: Bound,
    /// `nodes`: nodes searched so far.
    pub nodes: Option<u64>,
    /// `nps`: nodes per second.
    pub nps: Option<u64>,
    /// `time`: milliseconds searched so far.
    pub time: Option<u64>,
    /// `pv`: the principal variation, in UCI. Not checked for legality here.
    pub pv: Vec<UciMove>,
    /// `string`: the rest of the line, free text for a person.
    pub string: Option<String>,
}

/// Why a line is not a UCI `info` line: the line and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseInfoError {
    /// The line.
    pub line: String,
    /// What was wrong, for a person (`depth needs a number`).
    pub reason: String,
}

impl fmt::Display for ParseInfoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not an info line: {}", self.line, self.reason)
    }
}

impl std::error::Error for ParseInfoError {}

impl FromStr for Info {
    type Err = ParseInfoError;

    // info = "info" { field }
    // field = "depth" n | "seldepth" n | "multipv" n | "nodes" n | "nps" n | "time" n
    //       | "score" ("cp" | "mate") int ["lowerbound" | "upperbound"]
    //       | "pv" { move } | "string" rest-of-line | skipped-field | unknown-token
    fn from_str(line: &str) -> Result<Info, ParseInfoError> {
        let err = |reason: &str| ParseInfoError {
            line: line.to_owned(),
            reason: reason.to_owned(),
        };
        let mut tokens = Tokens::new(line);
        if tokens.next() != Some("info") {
            return Err(err("it does not start with `info`"));
        }
        let mut info = Info::default();
        while let Some(token) = tokens.next() {
            match token {
                "depth" => {
                    info.depth =
                        Some(number(&mut tokens).ok_or_else(|| err("`depth` needs a number"))?)
                }
                "seldepth" => {
                    info.seldepth =
                        Some(number(&mut tokens).ok_or_else(|| err("`seldepth` needs a number"))?);
                }
                "multipv" => {
                    info.multipv =
                        Some(number(&mut tokens).ok_or_else(|| err("`multipv` needs a number"))?);
                }
                "nodes" => {
                    info.nodes =
                        Some(number(&mut tokens).ok_or_else(|| err("`nodes` needs a number"))?)
                }
                "nps" => {
                    info.nps = Some(number(&mut tokens).ok_or_else(|| err("`nps` needs a number"))?)
                }
                "time" => {
                    info.time =
                        Some(number(&mut tokens).ok_or_else(|| err("`time` needs a number"))?)
                }
                "score" => {
                    let (kind, value) = (tokens.next(), tokens.next());
                    let score = match (kind, value.map(str::parse::<i32>)) {
                        (Some("cp"), Some(Ok(cp))) => EngineScore::Cp(cp),
                        (Some("mate"), Some(Ok(n))) => EngineScore::Mate(n),
                        _ => return Err(err("`score` needs `cp N` or `mate N`")),
                    };
                    info.score = Some(score);
                    info.bound = match tokens.peek() {
                        Some("lowerbound") => Bound::Lower,
                        Some("upperbound") => Bound::Upper,
                        _ => Bound::Exact,
                    };
                    if info.bound != Bound::Exact {
                        tokens.next();
                    }
                }
                "pv" => {
                    info.pv.clear();
                    while let Some(m) = tokens.peek().and_then(|t| t.parse::<UciMove>().ok()) {
                        info.pv.push(m);
                        tokens.next();
                    }
                }
                "string" => {
                    info.string = Some(tokens.rest().trim().to_owned());
                    break;
                }
                // Fields with one value that tabia does not keep.
                "hashfull" | "tbhits" | "sbhits" | "cpuload" | "currmovenumber" | "currmove" => {
                    tokens.next();
                }
                // Stockfish's `wdl W D L` (with `UCI_ShowWDL`).
                "wdl" => {
                    for _ in 0..3 {
                        tokens.next();
                    }
                }
                // Lines of moves, `currline` led by a CPU number.
                "refutation" | "currline" => {
                    while tokens
                        .peek()
                        .is_some_and(|t| t.parse::<UciMove>().is_ok() || t.parse::<u32>().is_ok())
                    {
                        tokens.next();
                    }
                }
                // UCI: "if the engine or the GUI receives an unknown command or token it
                // should just ignore it".
                _ => {}
            }
        }
        Ok(info)
    }
}

// n = digits
fn number<T: FromStr>(tokens: &mut Tokens<'_>) -> Option<T> {
    tokens.next()?.parse().ok()
}

/// The words of a line, split on white space, with the text after the last one taken.
struct Tokens<'a> {
    rest: &'a str,
    peeked: Option<(&'a str, &'a str)>,
}

impl<'a> Tokens<'a> {
    fn new(line: &'a str) -> Tokens<'a> {
        Tokens {
            rest: line,
            peeked: None,
        }
    }

    /// The next word and the text after it.
    fn split(rest: &'a str) -> Option<(&'a str, &'a str)> {
        let rest = rest.trim_start();
        if rest.is_empty() {
            return None;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        Some((&rest[..end], &rest[end..]))
    }

    fn peek(&mut self) -> Option<&'a str> {
        if self.peeked.is_none() {
            self.peeked = Tokens::split(self.rest);
        }
        self.peeked.map(|(word, _)| word)
    }

    /// The text after the last word taken.
    fn rest(&self) -> &'a str {
        self.rest
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let (word, rest) = self.peeked.take().or_else(|| Tokens::split(self.rest))?;
        self.rest = rest;
        Some(word)
    }
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        if let Some(depth) = self.depth {
            write!(f, " depth {depth}")?;
        }
        if let Some(seldepth) = self.seldepth {
            write!(f, " seldepth {seldepth}")?;
        }
        if let Some(multipv) = self.multipv {
            write!(f, " multipv {multipv}")?;
        }
        if let Some(score) = self.score {
            write!(f, " score {score}")?;
            match self.bound {
                Bound::Exact => {}
                Bound::Lower => f.write_str(" lowerbound")?,
                Bound::Upper => f.write_str(" upperbound")?,
            }
        }
        if let Some(nodes) = self.nodes {
            write!(f, " nodes {nodes}")?;
        }
        if let Some(nps) = self.nps {
            write!(f, " nps {nps}")?;
        }
        if let Some(time) = self.time {
            write!(f, " time {time}")?;
        }
        if !self.pv.is_empty() {
            f.write_str(" pv")?;
            for m in &self.pv {
                write!(f, " {m}")?;
            }
        }
        if let Some(string) = &self.string {
            f.write_str(" string")?;
            if !string.is_empty() {
                write!(f, " {string}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn info(line: &str) -> Info {
        line.parse().unwrap_or_else(|err| panic!("{err}"))
    }

    #[test]
    fn stockfish_lines() {
        let line = info(
            "info depth 6 seldepth 3 multipv 1 score cp -624 nodes 460 nps 153333 hashfull 0 \
             tbhits 0 time 3 pv g7g5 a1e1 g8h8",
        );
        assert_eq!(
            line,
            Info {
                depth: Some(6),
                seldepth: Some(3),
                multipv: Some(1),
                score: Some(EngineScore::Cp(-624)),
                bound: Bound::Exact,
                nodes: Some(460),
                nps: Some(153333),
                time: Some(3),
                pv: ["g7g5", "a1e1", "g8h8"]
                    .iter()
                    .map(|m| m.parse().expect("move"))
                    .collect(),
                string: None,
            }
        );
        let mated = info("info depth 0 score mate 0");
        assert_eq!(mated.score, Some(EngineScore::Mate(0)));
        assert!(mated.pv.is_empty());
        let lower = info("info depth 20 score cp 40 lowerbound nodes 10 pv e2e4");
        assert_eq!((lower.bound, lower.pv.len()), (Bound::Lower, 1));
        let current = info("info depth 9 currmove e2e4 currmovenumber 1");
        assert_eq!((current.depth, current.score), (Some(9), None));
    }

    #[test]
    fn skipped_and_unknown_fields() {
        let line = info(
            "info depth 3 wdl 100 800 100 refutation d1h5 g6h5 currline 1 e2e4 e7e5 \
             frobnicate 7 score mate -2 pv d8h4 e1e2 h4e4",
        );
        assert_eq!(line.depth, Some(3));
        assert_eq!(line.score, Some(EngineScore::Mate(-2)));
        assert_eq!(line.pv.len(), 3);
        // A PV ends at the first word that is not a move.
        let line = info("info pv e2e4 e7e5 nodes 77");
        assert_eq!((line.pv.len(), line.nodes), (2, Some(77)));
        let line = info("info string   two  spaces kept inside  ");
        assert_eq!(line.string.as_deref(), Some("two  spaces kept inside"));
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let errors: Vec<String> = [
            "bestmove e2e4",
            "info depth x",
            "info nodes",
            "info score",
            "info score pawns 3",
            "info score cp 1.5",
        ]
        .iter()
        .map(|line| line.parse::<Info>().unwrap_err().to_string())
        .collect();
        assert_eq!(
            errors,
            [
                "`bestmove e2e4` is not an info line: it does not start with `info`",
                "`info depth x` is not an info line: `depth` needs a number",
                "`info nodes` is not an info line: `nodes` needs a number",
                "`info score` is not an info line: `score` needs `cp N` or `mate N`",
                "`info score pawns 3` is not an info line: `score` needs `cp N` or `mate N`",
                "`info score cp 1.5` is not an info line: `score` needs `cp N` or `mate N`",
            ]
        );
    }

    fn uci_move() -> impl Strategy<Value = UciMove> {
        (0u32..64, 0u32..64, prop::option::of(0usize..4)).prop_map(|(from, to, promotion)| {
            let square = |i: u32| {
                let file = char::from(b'a' + (i % 8) as u8);
                let rank = char::from(b'1' + (i / 8) as u8);
                format!("{file}{rank}")
            };
            let promotion = promotion.map_or("", |i| ["q", "r", "b", "n"][i]);
            format!("{}{}{promotion}", square(from), square(to))
                .parse()
                .expect("a UCI move")
        })
    }

    fn any_info() -> impl Strategy<Value = Info> {
        let score = prop::option::of(prop_oneof![
            any::<i32>().prop_map(EngineScore::Cp),
            (-300i32..300).prop_map(EngineScore::Mate),
        ]);
        let bound = prop_oneof![Just(Bound::Exact), Just(Bound::Lower), Just(Bound::Upper)];
        (
            (
                prop::option::of(any::<u32>()),
                prop::option::of(any::<u32>()),
                prop::option::of(1u32..500),
                score,
                bound,
            ),
            (
                prop::option::of(any::<u64>()),
                prop::option::of(any::<u64>()),
                prop::option::of(any::<u64>()),
                prop::collection::vec(uci_move(), 0..8),
                prop::option::of("[a-z0-9]{1,6}( [a-zA-Z0-9.:]{1,8}){0,5}|"),
            ),
        )
            .prop_map(
                |((depth, seldepth, multipv, score, bound), (nodes, nps, time, pv, string))| Info {
                    depth,
                    seldepth,
                    multipv,
                    bound: if score.is_some() { bound } else { Bound::Exact },
                    score,
                    nodes,
                    nps,
                    time,
                    pv,
                    string,
                },
            )
    }

    proptest! {
        #[test]
        fn info_round_trips(info in any_info()) {
            let line = info.to_string();
            prop_assert_eq!(line.parse::<Info>(), Ok(info));
        }

        #[test]
        fn any_text_after_info_parses_or_says_why(rest in "[ a-z0-9-]{0,40}") {
            let line = format!("info {rest}");
            match line.parse::<Info>() {
                Ok(info) => prop_assert!(info.to_string().starts_with("info")),
                Err(err) => prop_assert_eq!(err.line, line),
            }
        }
    }
}
