//! What a program does with a [`Query`]'s [`Verdict`]s to select games as `tabia filter`
//! does: [`Selection`] (the query, inverted or not, and the game numbers asked for) decides
//! which games are selected; [`Query::mark`] marks where a selected game matched,
//! [`MatchRecord`] describes it; [`TagsSeen`] tells a tag no game has ([`MissingTag`]) from one
//! no game matched; [`Criterion::parse_list`] reads criteria one a line ([`CriteriaError`]).

use std::{
    fmt,
    sync::atomic::{AtomicU64, Ordering},
};

use serde::Serialize;
use tabia_notation::{
    Located,
    pgn::{Game, Origin},
};

use crate::{
    criterion::Criterion,
    error::ParseError,
    matcher::{Hit, Verdict},
    query::Query,
    range::GameNumbers,
    tag::close_tag_name,
};

/// Which games a [`Query`] selects: those that match it (or, inverted, those that do not),
/// among the game numbers asked for (all by default).
///
/// ```
/// use tabia_notation::pgn::PgnReader;
/// use tabia_select::{Criterion, Matcher, Options, Query, Selection};
///
/// let query = Query::new(vec![Criterion::Result("1-0".parse()?)], Options::default());
/// let selection = Selection::new(query).games(Some("2".parse()?));
/// let pgn = b"[Result \"1-0\"]\n\n1. e4 1-0\n\n[Result \"1-0\"]\n\n1. d4 1-0\n";
/// let mut reader = PgnReader::new(&pgn[..]);
/// let mut matcher = Matcher::new(selection.query());
/// let first = reader.read_game(&mut matcher)?.expect("a game")?;
/// let second = reader.read_game(&mut matcher)?.expect("a game")?;
/// assert!(!selection.selects(1, &first)); // it matches, but is not game 2
/// assert!(selection.selects(2, &second));
/// assert!(!selection.invert(true).selects(2, &second));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Selection {
    query: Query,
    invert: bool,
    games: Option<GameNumbers>,
}

impl Selection {
    /// The games that match `query`, whatever their numbers.
    pub fn new(query: Query) -> Selection {
        Selection {
            query,
            invert: false,
            games: None,
        }
    }

    /// Selects the games that are not selected without `invert` instead.
    #[must_use]
    pub fn invert(mut self, invert: bool) -> Selection {
        self.invert = invert;
        self
    }

    /// Selects only among the games with these numbers in their input (numbered from 1);
    /// `None`: every game.
    #[must_use]
    pub fn games(mut self, games: Option<GameNumbers>) -> Selection {
        self.games = games;
        self
    }

    /// The query.
    pub fn query(&self) -> &Query {
        &self.query
    }

    /// Whether the selection is inverted.
    pub fn is_inverted(&self) -> bool {
        self.invert
    }

    /// Whether game `number` (from 1) of its input, whose verdict is `verdict`, is selected:
    /// it matches and has one of the numbers asked for, or, inverted, it does not.
    pub fn selects(&self, number: u64, verdict: &Verdict) -> bool {
        let numbered = self.games.as_ref().is_none_or(|g| g.contains(number));
        (verdict.matched && numbered) != self.invert
    }

    /// Where a selected game matched: the verdict's hit, none when the selection is inverted
    /// (a game selected for not matching matched nowhere).
    pub fn hit<'v>(&self, verdict: &'v Verdict) -> Option<&'v Hit> {
        verdict.hit.as_ref().filter(|_| !self.invert)
    }
}

impl Query {
    /// Marks where `game` matched (`hit`, from its [`Verdict`]): a `MatchPly` tag with the
    /// ply (replacing one the game had) and a `{match: CRITERION}` comment after the move
    /// there (before the line's first move at its start). A hit on tags alone has no ply and
    /// marks nothing.
    ///
    /// ```
    /// use tabia_notation::pgn::{Game, PgnReader};
    /// use tabia_select::{Criterion, Matcher, Options, Query};
    ///
    /// let query = Query::new(vec![Criterion::Moves("1. e4 e5".parse()?)], Options::default());
    /// let pgn = "1. e4 e5 2. Nf3 *";
    /// let verdict = PgnReader::new(pgn.as_bytes()).read_game(&mut Matcher::new(&query))?.expect("a game")?;
    /// let mut game: Game = pgn.parse()?;
    /// query.mark(&mut game, verdict.hit.as_ref().expect("a match"));
    /// assert_eq!(game.tags, [("MatchPly".to_owned(), "2".to_owned())]);
    /// assert_eq!(game.mainline.moves[1].comments, ["match: --moves 1. e4 e5"]);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn mark(&self, game: &mut Game, hit: &Hit) {
        let Some(ply) = hit.ply else {
            return;
        };
        game.tags.retain(|(name, _)| name != "MatchPly");
        game.tags.push(("MatchPly".to_owned(), ply.to_string()));
        let comment = format!("match: {}", self.criteria[hit.criterion]);
        let mut line = &mut game.mainline;
        for &(m, v) in &hit.path {
            let Some(next) = line
                .moves
                .get_mut(m as usize)
                .and_then(|mv| mv.variations.get_mut(v as usize))
            else {
                return;
            };
            line = next;
        }
        match (hit.index as usize).checked_sub(1) {
            None => line.comments.push(comment),
            Some(i) => {
                if let Some(mv) = line.moves.get_mut(i) {
                    mv.comments.push(comment);
                }
            }
        }
    }
}

/// Where a game matched, for a record of it (`tabia filter --json`'s `match` object):
/// the criterion as written, the ply and FEN there for a criterion on positions or moves,
/// and whether it was in a variation. Serialised, the absent parts are left out.
///
/// ```
/// use tabia_select::{Hit, MatchRecord, Options, Query};
///
/// let query = Query::new(vec!["player Carlsen".parse()?], Options::default());
/// let hit = Hit { criterion: 0, ply: None, fen: None, path: Vec::new(), index: 0 };
/// let record = MatchRecord::new(&query, &hit);
/// assert_eq!(record.criterion, "--player Carlsen");
/// assert!(!record.variation);
/// # Ok::<_, tabia_select::ParseError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MatchRecord {
    /// The criterion that decided the match, as [`Criterion`]'s `Display` writes it.
    pub criterion: String,
    /// The ply (0 is the start position), for criteria on positions and moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<u32>,
    /// The FEN of the position there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// The match is in a variation, not the mainline.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub variation: bool,
}

impl MatchRecord {
    /// The record of `hit`, a hit of `query`.
    pub fn new(query: &Query, hit: &Hit) -> MatchRecord {
        MatchRecord {
            criterion: query.criteria[hit.criterion].to_string(),
            ply: hit.ply,
            fen: hit.fen.clone(),
            variation: !hit.path.is_empty(),
        }
    }
}

/// Which of a query's tags the games read so far have (shared between threads): a misspelt
/// tag name (`--tag Whiteelo>2500`) matches nothing, which looks like a selection that found
/// nothing; [`TagsSeen::missing`] tells it apart.
///
/// ```
/// use tabia_notation::pgn::PgnReader;
/// use tabia_select::{Matcher, Options, Query, TagsSeen};
///
/// let query = Query::new(vec!["tag Whiteelo>2500".parse()?], Options::default());
/// let seen = TagsSeen::new();
/// let pgn = b"[WhiteElo \"2700\"]\n\n1. e4 *\n";
/// let verdict = PgnReader::new(&pgn[..]).read_game(&mut Matcher::new(&query))?.expect("a game")?;
/// seen.add(&verdict);
/// let missing = seen.missing(&query);
/// assert_eq!(missing[0].to_string(), "no game has a tag Whiteelo (did you mean WhiteElo?)");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct TagsSeen(AtomicU64);

/// Bit 63 of [`TagsSeen`]: a game was read.
const READ: u64 = 1 << 63;

impl TagsSeen {
    /// None yet, and no game read.
    pub fn new() -> TagsSeen {
        TagsSeen::default()
    }

    /// Notes the tags a game read has ([`Verdict::tags_present`]).
    pub fn add(&self, verdict: &Verdict) {
        let bits = verdict.tags_present | READ;
        // A load first: once every tag was seen, no write to the shared line.
        if self.0.load(Ordering::Relaxed) & bits != bits {
            self.0.fetch_or(bits, Ordering::Relaxed);
        }
    }

    /// The tags of `query`'s `tag` criteria (among its first 63 tags) that no game read had,
    /// each with a close name to suggest; none when no game was read.
    pub fn missing(&self, query: &Query) -> Vec<MissingTag> {
        let seen = self.0.load(Ordering::Relaxed);
        if seen & READ == 0 {
            return Vec::new();
        }
        let names = query.tag_names();
        let present: Vec<&str> = names
            .iter()
            .enumerate()
            .filter(|&(i, _)| i < 63 && seen & 1 << i != 0)
            .map(|(_, name)| name.as_str())
            .collect();
        let mut missing = Vec::new();
        for (i, name) in names.iter().enumerate().take(63) {
            let asked = query
                .criteria()
                .iter()
                .any(|c| matches!(c, Criterion::Tag(c) if c.name() == name));
            if seen & 1 << i != 0 || !asked {
                continue;
            }
            missing.push(MissingTag {
                name: name.clone(),
                close: close_tag_name(name, &present).map(str::to_owned),
            });
        }
        missing
    }
}

/// A tag a `tag` criterion reads that no game had ([`TagsSeen::missing`]); `Display`:
/// `no game has a tag NAME (did you mean CLOSE?)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingTag {
    /// The tag's name as the criterion writes it.
    pub name: String,
    /// A known or seen tag name close to it, perhaps the one meant.
    pub close: Option<String>,
}

impl fmt::Display for MissingTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no game has a tag {}", self.name)?;
        if let Some(close) = &self.close {
            write!(f, " (did you mean {close}?)")?;
        }
        Ok(())
    }
}

impl Criterion {
    /// The criteria of a text, one a line as [`Criterion`]'s `FromStr` reads them (the
    /// leading dashes optional: `--player Carlsen` or `player Carlsen`), in order; blank lines
    /// and lines starting with `#` are skipped. A list of 200 players is one text.
    ///
    /// ```
    /// use tabia_select::Criterion;
    ///
    /// let criteria = Criterion::parse_list("# players\n--player Carlsen\n\nresult 1-0\n")?;
    /// assert_eq!(criteria.len(), 2);
    /// let err = Criterion::parse_list("player Carlsen\nelo high\n").unwrap_err();
    /// assert_eq!(err.line, 2);
    /// # Ok::<_, tabia_select::CriteriaError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`CriteriaError`]: the first line that is not a criterion, with its place.
    pub fn parse_list(text: &str) -> Result<Vec<Criterion>, CriteriaError> {
        let mut criteria = Vec::new();
        let mut start = 0;
        for (i, line) in text.split_inclusive('\n').enumerate() {
            let line_start = start;
            start += line.len();
            let line = line.strip_suffix('\n').unwrap_or(line);
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let column = line.len() - line.trim_start().len();
            match trimmed.parse::<Criterion>() {
                Ok(criterion) => criteria.push(criterion),
                Err(error) => {
                    return Err(CriteriaError {
                        line: i as u64 + 1,
                        origin: Origin {
                            offset: (line_start + column) as u64,
                            line: i as u64 + 1,
                            column: column as u64 + 1,
                        },
                        error,
                    });
                }
            }
        }
        Ok(criteria)
    }
}

/// A line of a list of criteria that is not a criterion ([`Criterion::parse_list`]): its
/// line, where it starts, and the criterion's error. `Display`: `line N: ERROR`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CriteriaError {
    /// The 1-based line.
    pub line: u64,
    origin: Origin,
    /// Why the line is not a criterion.
    pub error: ParseError,
}

impl fmt::Display for CriteriaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.error)
    }
}

impl std::error::Error for CriteriaError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

impl Located for CriteriaError {
    fn message(&self) -> String {
        format!(
            "invalid {} criterion: {}",
            self.error.what(),
            self.error.kind()
        )
    }

    fn origin(&self) -> Option<Origin> {
        Some(self.origin)
    }
}

#[cfg(test)]
mod tests {
    use tabia_notation::pgn::PgnReader;

    use super::*;
    use crate::{Matcher, Options};

    fn verdict(query: &Query, pgn: &str) -> Verdict {
        PgnReader::new(pgn.as_bytes())
            .read_game(&mut Matcher::new(query))
            .expect("read")
            .expect("a game")
            .expect("replayed")
    }

    fn query(criteria: &[&str]) -> Query {
        let criteria = criteria.iter().map(|c| c.parse().expect("a criterion"));
        Query::new(criteria.collect(), Options::default())
    }

    #[test]
    fn inverted_selections_select_the_others() {
        let selection = Selection::new(query(&["result 1-0"]));
        let won = verdict(selection.query(), "[Result \"1-0\"]\n\n1. e4 1-0\n");
        let lost = verdict(selection.query(), "[Result \"0-1\"]\n\n1. e4 0-1\n");
        assert!(selection.selects(7, &won) && !selection.selects(7, &lost));
        assert!(selection.hit(&won).is_some());
        let inverted = selection.invert(true);
        assert!(!inverted.selects(7, &won) && inverted.selects(7, &lost));
        assert_eq!(inverted.hit(&won), None);
        // Inverted with numbers: the games that are not both matched and numbered.
        let numbered = inverted.games(Some("1-3".parse().expect("numbers")));
        assert!(numbered.selects(7, &won) && !numbered.selects(2, &won));
    }

    #[test]
    fn marks_go_into_variations_and_replace_match_ply() {
        let target = "position rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq -";
        let options = Options {
            variations: true,
            ..Options::default()
        };
        let query = Query::new(vec![target.parse().expect("a criterion")], options);
        let pgn = "[MatchPly \"9\"]\n\n1. e4 (1. d4 e5 2. c3) 1... e5 *";
        let verdict = verdict(&query, pgn);
        let hit = verdict.hit.expect("a match in the variation");
        let mut game: Game = pgn.parse().expect("a game");
        query.mark(&mut game, &hit);
        assert_eq!(game.tags, [("MatchPly".to_owned(), "2".to_owned())]);
        let variation = &game.mainline.moves[0].variations[0];
        assert_eq!(
            variation.moves[1].comments,
            ["match: --position rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq -"]
        );
        assert!(MatchRecord::new(&query, &hit).variation);
    }

    #[test]
    fn a_match_at_the_start_is_marked_before_the_first_move() {
        let query = query(&["position startpos"]);
        let pgn = "1. e4 e5 *";
        let hit = verdict(&query, pgn).hit.expect("a match");
        let mut game: Game = pgn.parse().expect("a game");
        query.mark(&mut game, &hit);
        assert_eq!(game.mainline.comments, ["match: --position startpos"]);
    }

    #[test]
    fn tags_no_game_had_are_named() {
        let query = query(&["tag Whiteelo>2500", "tag Event~Tata", "player Carlsen"]);
        let seen = TagsSeen::new();
        assert!(seen.missing(&query).is_empty(), "no game read yet");
        seen.add(&verdict(
            &query,
            "[Event \"Tata\"]\n[WhiteElo \"2800\"]\n\n*\n",
        ));
        let missing: Vec<String> = seen.missing(&query).iter().map(|m| m.to_string()).collect();
        assert_eq!(
            missing,
            ["no game has a tag Whiteelo (did you mean WhiteElo?)"]
        );
    }

    #[test]
    fn list_errors_have_their_place() {
        let err = Criterion::parse_list("player Carlsen\r\n\n  elo high\n").unwrap_err();
        assert_eq!(err.line, 3);
        let at = err.origin().expect("placed");
        assert_eq!((at.offset, at.line, at.column), (19, 3, 3));
        assert_eq!(err.message(), "invalid elo criterion: expected a number");
        assert!(err.to_string().starts_with("line 3: invalid elo criterion"));
    }
}
