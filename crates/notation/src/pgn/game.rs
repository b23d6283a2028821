//! The owned game tree: tags in order, the mainline with its variations, comments, NAGs and
//! the result.

use std::{mem, str::FromStr};

use super::{Nag, Origin, Outcome, PgnReader, RawComment, RawTag, SanPlus, Skip, Visitor, Warning};
use crate::{Error, ErrorKind, decode};

/// A game: its tags in input order, its moves as a tree, and its result.
///
/// Parsing keeps everything a reader can give back (tag order, comments, NAGs, variations);
/// move numbers are not kept, the writer computes them. Equality ignores where things were in
/// the input ([`Game::start`], [`Move::at`]) and what the reader repaired ([`Game::warnings`]).
///
/// ```
/// use tabia_notation::pgn::{Game, Outcome};
///
/// let game: Game = "[White \"Kasparov\"]\n\n1. e4 {best by test} c5 (1... e5 2. Nf3) 2. Nf3 1-0"
///     .parse()?;
/// assert_eq!(game.tag("White"), Some("Kasparov"));
/// assert_eq!(game.mainline.moves.len(), 3);
/// assert_eq!(game.mainline.moves[0].comments, ["best by test"]);
/// assert_eq!(game.mainline.moves[1].variations[0].moves.len(), 2);
/// assert_eq!(game.result, Outcome::WhiteWins);
/// // The export completes the Seven Tag Roster with the standard's unknown values.
/// assert_eq!(
///     game.to_string(),
///     "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
///      [White \"Kasparov\"]\n[Black \"?\"]\n[Result \"1-0\"]\n\n\
///      1. e4 {best by test} 1... c5 (1... e5 2. Nf3) 2. Nf3 1-0"
/// );
/// # Ok::<_, tabia_notation::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Game {
    /// The tag pairs, names and values (unescaped, decoded), in input order.
    pub tags: Vec<(String, String)>,
    /// The mainline (with comments before its first move).
    pub mainline: Line,
    /// The game termination marker.
    pub result: Outcome,
    /// Where the game starts in the input (zero for a game built in code).
    pub start: Origin,
    /// What the reader repaired (a missing result, read as `*`), in input order.
    pub warnings: Vec<Warning>,
}

/// A line of play: the mainline or a variation.
///
/// Dropping, comparing and cloning trees works on an explicit stack, whatever their depth;
/// `Debug` recurses, one level per nested variation.
#[derive(Debug, Default)]
pub struct Line {
    /// Comments before the first move of the line.
    pub comments: Vec<String>,
    /// The moves, in order.
    pub moves: Vec<Move>,
}

/// A move with its annotations, and the variations that are alternatives to it.
#[derive(Debug, Clone)]
pub struct Move {
    /// The move.
    pub san: SanPlus,
    /// Its NAGs, in order (suffixes like `!?` become NAGs 1–6).
    pub nags: Vec<Nag>,
    /// Comments after the move.
    pub comments: Vec<String>,
    /// Variations: lines played instead of this move, from the position before it.
    pub variations: Vec<Line>,
    /// Where the move is in the input (zero for a move built in code).
    pub at: Origin,
}

impl Move {
    /// A move without annotations or variations.
    pub fn new(san: SanPlus) -> Move {
        Move {
            san,
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
            at: Origin::default(),
        }
    }
}

impl Move {
    /// The clock left after the move (`[%clk]` in its comments), in milliseconds.
    ///
    /// ```
    /// use tabia_notation::pgn::{Eval, Game, Score};
    ///
    /// let game: Game = "1. e4 { [%eval 0.35] [%clk 0:02:59.5] } 1-0".parse()?;
    /// let e4 = &game.mainline.moves[0];
    /// assert_eq!(e4.clock(), Some(179_500));
    /// assert_eq!(e4.eval(), Some(Eval { score: Score::Cp(35), depth: None }));
    /// assert_eq!(e4.emt(), None);
    /// # Ok::<_, tabia_notation::Error>(())
    /// ```
    pub fn clock(&self) -> Option<u64> {
        self.first(|c| c.clock())
    }

    /// The time the move took (`[%emt]` in its comments), in milliseconds.
    pub fn emt(&self) -> Option<u64> {
        self.first(|c| c.emt())
    }

    /// The evaluation after the move (`[%eval]` in its comments).
    pub fn eval(&self) -> Option<super::Eval> {
        self.first(|c| c.eval())
    }

    /// The first value `get` finds in the comments after the move.
    fn first<T>(&self, get: impl Fn(&super::Comment<'_>) -> Option<T>) -> Option<T> {
        self.comments
            .iter()
            .filter(|c| c.contains("[%"))
            .find_map(|c| get(&super::Comment::parse(c)))
    }
}

impl Drop for Line {
    /// Drops nested variations from an explicit stack: a tree nested a million deep does not
    /// overflow the call stack.
    fn drop(&mut self) {
        let mut stack: Vec<Line> = Vec::new();
        for m in &mut self.moves {
            stack.append(&mut m.variations);
        }
        while let Some(mut line) = stack.pop() {
            for m in &mut line.moves {
                stack.append(&mut m.variations);
            }
        }
    }
}

impl Clone for Line {
    /// Clones nested variations from an explicit stack, like `Drop`.
    fn clone(&self) -> Line {
        /// A line being cloned: its source, its copy so far, and the next variation to copy
        /// (variation `v` of move `m`).
        struct Frame<'a> {
            src: &'a Line,
            out: Line,
            m: usize,
            v: usize,
        }
        fn begin(src: &Line) -> Frame<'_> {
            let moves = src.moves.iter().map(|m| Move {
                san: m.san,
                nags: m.nags.clone(),
                comments: m.comments.clone(),
                variations: Vec::with_capacity(m.variations.len()),
                at: m.at,
            });
            Frame {
                src,
                out: Line {
                    comments: src.comments.clone(),
                    moves: moves.collect(),
                },
                m: 0,
                v: 0,
            }
        }
        let mut stack = vec![begin(self)];
        while let Some(top) = stack.last_mut() {
            let src = top.src;
            let next = loop {
                let Some(m) = src.moves.get(top.m) else {
                    break None;
                };
                if let Some(variation) = m.variations.get(top.v) {
                    top.v += 1;
                    break Some(variation);
                }
                top.m += 1;
                top.v = 0;
            };
            if let Some(variation) = next {
                stack.push(begin(variation));
                continue;
            }
            let Some(done) = stack.pop() else { break };
            match stack.last_mut() {
                Some(parent) => {
                    if let Some(m) = parent.out.moves.get_mut(parent.m) {
                        m.variations.push(done.out);
                    }
                }
                None => return done.out,
            }
        }
        Line::default()
    }
}

impl Move {
    /// Equal but for the variations, whose number only is compared.
    fn shallow_eq(&self, other: &Move) -> bool {
        self.san == other.san
            && self.nags == other.nags
            && self.comments == other.comments
            && self.variations.len() == other.variations.len()
    }
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.shallow_eq(other)
            && self
                .variations
                .iter()
                .zip(&other.variations)
                .all(|(a, b)| a == b)
    }
}

impl PartialEq for Line {
    /// Compares two trees from an explicit stack: no recursion however deep they nest.
    fn eq(&self, other: &Line) -> bool {
        let mut stack = vec![(self, other)];
        while let Some((a, b)) = stack.pop() {
            if a.comments != b.comments || a.moves.len() != b.moves.len() {
                return false;
            }
            for (x, y) in a.moves.iter().zip(&b.moves) {
                if !x.shallow_eq(y) {
                    return false;
                }
                stack.extend(x.variations.iter().zip(&y.variations));
            }
        }
        true
    }
}

impl Eq for Line {}

impl Eq for Move {}

impl PartialEq for Game {
    fn eq(&self, other: &Game) -> bool {
        self.tags == other.tags && self.mainline == other.mainline && self.result == other.result
    }
}

impl Eq for Game {}

impl Game {
    /// The value of the first tag named `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets the first tag named `name` to `value` (added at the end if the game has none), or
    /// with `None` removes every tag of that name.
    ///
    /// ```
    /// use tabia_notation::pgn::Game;
    ///
    /// let mut game: Game = "[ECO \"A00\"]\n\n*".parse()?;
    /// game.set_tag("ECO", Some("B20"));
    /// game.set_tag("PlyCount", Some("0"));
    /// assert_eq!(game.tag("ECO"), Some("B20"));
    /// game.set_tag("ECO", None);
    /// assert_eq!(game.tags, [("PlyCount".to_owned(), "0".to_owned())]);
    /// # Ok::<_, tabia_notation::Error>(())
    /// ```
    pub fn set_tag(&mut self, name: &str, value: Option<&str>) {
        match (self.tags.iter().position(|(n, _)| n == name), value) {
            (Some(i), Some(v)) => v.clone_into(&mut self.tags[i].1),
            (None, Some(v)) => self.tags.push((name.to_owned(), v.to_owned())),
            (_, None) => self.tags.retain(|(n, _)| n != name),
        }
    }

    /// Removes the commands of the given kinds from every comment of the game, variations
    /// included ([`strip_commands`](super::strip_commands)); a comment left empty is dropped.
    ///
    /// ```
    /// use tabia_notation::pgn::{CommandKind, Game};
    ///
    /// let mut game: Game = "1. e4 { [%clk 0:03:00] } (1. d4 { [%eval 0.2] ok }) 1-0".parse()?;
    /// game.strip_commands(&[CommandKind::Clock, CommandKind::Eval]);
    /// assert!(game.mainline.moves[0].comments.is_empty());
    /// assert_eq!(game.mainline.moves[0].variations[0].moves[0].comments, [" ok "]);
    /// # Ok::<_, tabia_notation::Error>(())
    /// ```
    pub fn strip_commands(&mut self, kinds: &[super::CommandKind]) {
        self.edit_comments(|comments| {
            for comment in comments.iter_mut() {
                if comment.contains("[%") {
                    *comment = super::strip_commands(comment, kinds);
                }
            }
            comments.retain(|c| !c.is_empty());
        });
    }

    /// Calls `edit` on the comments of every place of the game that holds some (before a
    /// line's first move, after each move), variations included, on an explicit stack.
    ///
    /// The export writes the line ends of a comment as spaces, and breaks a comment longer
    /// than its lines at spaces: a game read back from it compares with the game written once
    /// the line ends of both are spaces.
    ///
    /// ```
    /// use tabia_notation::pgn::{Game, WriteOptions};
    ///
    /// let game: Game = "1. e4 { a comment longer than the line is broken at a space } *".parse()?;
    /// let narrow = WriteOptions { line_length: 40, ..WriteOptions::default() };
    /// let text = game.write(&narrow, &mut tabia_notation::pgn::SanText);
    /// let mut again: Game = text.parse()?;
    /// assert_ne!(again.mainline, game.mainline);
    /// again.edit_comments(|comments| {
    ///     comments.iter_mut().for_each(|c| *c = c.replace(['\n', '\r'], " "));
    /// });
    /// assert_eq!(again.mainline, game.mainline);
    /// # Ok::<_, tabia_notation::Error>(())
    /// ```
    pub fn edit_comments(&mut self, mut edit: impl FnMut(&mut Vec<String>)) {
        let mut stack = vec![&mut self.mainline];
        while let Some(line) = stack.pop() {
            edit(&mut line.comments);
            for m in &mut line.moves {
                edit(&mut m.comments);
                stack.extend(m.variations.iter_mut());
            }
        }
    }

    /// Parses the first game in `bytes`; returns it and how many bytes it took (up to the end
    /// of its result).
    pub fn prefix(bytes: &[u8]) -> Result<(Game, usize), Error> {
        let mut reader = PgnReader::new(bytes);
        match reader.read_game(&mut GameBuilder::default()) {
            Ok(Some(game)) => Ok((game, reader.offset() as usize)),
            Ok(None) => Err(
                Error::new(ErrorKind::UnexpectedEof, bytes.len()..bytes.len())
                    .with_expected("a game")
                    .with_source(bytes),
            ),
            Err(super::ReadError::Syntax { error, .. }) => Err(error),
            Err(super::ReadError::Io(_)) => Err(Error::new(ErrorKind::Io, 0..0)),
        }
    }

    /// Parses exactly one game (white space may follow it).
    pub fn from_ascii(bytes: &[u8]) -> Result<Game, Error> {
        let (game, n) = Game::prefix(bytes)?;
        let rest = &bytes[n..];
        if let Some(i) = rest.iter().position(|b| !b.is_ascii_whitespace()) {
            return Err(Error::new(ErrorKind::TrailingInput, n + i..bytes.len()).with_source(bytes));
        }
        Ok(game)
    }
}

impl FromStr for Game {
    type Err = Error;

    fn from_str(s: &str) -> Result<Game, Error> {
        Game::from_ascii(s.as_bytes())
    }
}

/// The visitor that builds a [`Game`]; variations on an explicit stack.
#[derive(Debug, Default)]
pub(crate) struct GameBuilder {
    game: Game,
    /// The lines being built: the mainline first, then each open variation.
    stack: Vec<Line>,
    /// The pieces of a comment longer than the reader's buffer.
    partial: Vec<u8>,
    /// What a game no longer needed leaves for the next one ([`GameBuilder::recycling`]):
    /// the tag list, the mainline's move list, its moves (their lists empty) and its strings.
    spare_tags: Vec<(String, String)>,
    spare_mainline: Vec<Move>,
    spare_moves: Vec<Move>,
    spare_strings: Vec<String>,
}

impl GameBuilder {
    /// A builder that makes its game out of the memory of `spare`: its tag list and strings,
    /// its mainline's moves and their comments, so that a game read after another costs few
    /// allocations. The game built is the one a fresh builder builds.
    pub(crate) fn recycling(mut spare: Game) -> GameBuilder {
        let mut builder = GameBuilder::default();
        let strings = &mut builder.spare_strings;
        for (name, value) in spare.tags.drain(..) {
            strings.push(name);
            strings.push(value);
        }
        strings.append(&mut spare.mainline.comments);
        for mut m in spare.mainline.moves.drain(..) {
            strings.append(&mut m.comments);
            m.nags.clear();
            m.variations.clear();
            builder.spare_moves.push(m);
        }
        builder.spare_tags = mem::take(&mut spare.tags);
        builder.spare_mainline = mem::take(&mut spare.mainline.moves);
        builder
    }

    /// A string for `text`, from the spare ones when there are.
    fn string(&mut self, text: &str) -> String {
        match self.spare_strings.pop() {
            Some(mut s) => {
                s.clear();
                s.push_str(text);
                s
            }
            None => text.to_owned(),
        }
    }

    fn line(&mut self) -> &mut Line {
        if self.stack.is_empty() {
            self.stack.push(Line::default());
        }
        let last = self.stack.len() - 1;
        &mut self.stack[last]
    }
}

impl Visitor for GameBuilder {
    type Output = Game;

    fn begin_game(&mut self, start: Origin) -> Skip {
        self.game = Game {
            start,
            tags: mem::take(&mut self.spare_tags),
            ..Game::default()
        };
        self.stack.clear();
        self.stack.push(Line {
            comments: Vec::new(),
            moves: mem::take(&mut self.spare_mainline),
        });
        self.partial.clear();
        Skip(false)
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        let name = self.string(&decode(name));
        let value = self.string(&value.decode());
        self.game.tags.push((name, value));
    }

    fn san(&mut self, san: SanPlus, at: Origin) {
        // A move of an earlier game's mainline, its lists emptied (their room kept), or new.
        let mut m = self.spare_moves.pop().unwrap_or_else(|| Move::new(san));
        m.san = san;
        m.at = at;
        self.line().moves.push(m);
    }

    fn nag(&mut self, nag: Nag) {
        if let Some(m) = self.line().moves.last_mut() {
            m.nags.push(nag);
        }
    }

    fn partial_comment(&mut self, comment: RawComment<'_>) {
        self.partial.extend_from_slice(comment.as_bytes());
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        let text = if self.partial.is_empty() {
            self.string(&comment.decode())
        } else {
            self.partial.extend_from_slice(comment.as_bytes());
            let text = decode(&self.partial).into_owned();
            self.partial.clear();
            text
        };
        let line = self.line();
        match line.moves.last_mut() {
            Some(m) => m.comments.push(text),
            None => line.comments.push(text),
        }
    }

    fn begin_variation(&mut self) -> Skip {
        self.stack.push(Line::default());
        Skip(false)
    }

    fn end_variation(&mut self) {
        if self.stack.len() > 1
            && let Some(variation) = self.stack.pop()
            && let Some(m) = self.line().moves.last_mut()
        {
            m.variations.push(variation);
        }
    }

    fn outcome(&mut self, outcome: Outcome) {
        self.game.result = outcome;
    }

    fn warning(&mut self, warning: Warning) {
        self.game.warnings.push(warning);
    }

    fn end_game(&mut self) -> Game {
        let mut game = mem::take(&mut self.game);
        if let Some(mainline) = self.stack.drain(..).next() {
            game.mainline = mainline;
        }
        game
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_shape() {
        let game: Game =
            "{start} 1. e4 $1 {a} (1. d4 {b} (1. c4) 1... d5) 1... e5 ( {pre} 1... c5 ) *"
                .parse()
                .unwrap();
        assert_eq!(game.mainline.comments, ["start"]);
        let e4 = &game.mainline.moves[0];
        assert_eq!(e4.nags, [Nag(1)]);
        assert_eq!(e4.comments, ["a"]);
        assert_eq!(e4.variations.len(), 1);
        let d4 = &e4.variations[0].moves[0];
        assert_eq!(d4.comments, ["b"]);
        assert_eq!(d4.variations[0].moves.len(), 1);
        assert_eq!(e4.variations[0].moves.len(), 2);
        let e5 = &game.mainline.moves[1];
        assert_eq!(e5.variations[0].comments, ["pre"]);
        assert_eq!(game.result, Outcome::Unknown);
        assert_eq!(e5.at.column, 55);
    }

    #[test]
    fn clone_and_eq_walk_deep_trees_without_recursion() {
        let game: Game = "1. e4 (1. d4 {b} (1. c4 $2) 1... d5) 1... e5 (1... c5 2. Nf3) *"
            .parse()
            .unwrap();
        let copy = game.clone();
        assert_eq!(copy, game);
        assert_eq!(copy.to_string(), game.to_string());
        assert_eq!(copy.mainline.moves[0].variations[0].moves[0].at.column, 11);
        let mut other = game.clone();
        other.mainline.moves[0].variations[0].moves[0].variations[0].moves[0]
            .nags
            .clear();
        assert_ne!(other, game);
        // Deep enough to overflow a test thread's stack if walked by recursion.
        let depth = 100_000;
        let text = format!("1. e4 {}{} *", "(1. d4 ".repeat(depth), ")".repeat(depth));
        let deep: Game = text.parse().unwrap();
        let copy = deep.clone();
        assert!(copy == deep);
        let mut line = &copy.mainline;
        let mut found = 0;
        while let Some(variation) = line.moves.first().and_then(|m| m.variations.first()) {
            line = variation;
            found += 1;
        }
        assert_eq!(found, depth);
    }

    #[test]
    fn trailing_input_is_an_error() {
        let err = "1. e4 * 2. d4".parse::<Game>().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TrailingInput);
        assert_eq!(err.column(), Some(9));
        let err = "   ".parse::<Game>().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
    }

    #[test]
    fn prefix_counts_bytes() {
        let (game, n) = Game::prefix(b"1. e4 1-0\n\n1. d4 0-1").unwrap();
        assert_eq!(n, 9);
        assert_eq!(game.result, Outcome::WhiteWins);
    }
}
