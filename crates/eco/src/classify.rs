//! [`Classifier`]: the deepest named position along a game's mainline, with an early exit.

use tabia_notation::san::SanPlus;
use tabia_position::{MoveError, Position, shakmaty::Move};

use crate::{Opening, Table};

/// How many consecutive plies a game may stay off the table's lines before the classifier
/// stops: a game that leaves the lines can still transpose back into them a few moves later
/// (1.Nf3 Nf6 2.c4 g6 3.Nc3 Bg7 4.e4 d6 5.d4 reaches the King's Indian by a move order no
/// line follows). Measured against `pgn-extract -e` on master games, 10 plies keep the ECO codes
/// in agreement (99.9%) while a game is replayed for about 20 plies on average.
pub const OFF_LINE_PLIES: usize = 10;

/// A named position reached by a game: the opening and the ply (0 = the starting position,
/// 1 = after White's first move, …) at which the game reached it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match<'t> {
    /// The opening the table gives for the position.
    pub opening: &'t Opening,
    /// The ply after which the game stood in that position.
    pub ply: usize,
}

/// What a game's opening is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Classification<'t> {
    /// The deepest named position the game reached.
    Named(Match<'t>),
    /// The game starts from the standard position but reaches no named position.
    Unnamed,
    /// The game starts from a set-up position (a `FEN` tag other than the standard start):
    /// not classified.
    NonStandardStart,
    /// The game is Chess960 (a `Variant` tag): not classified.
    Chess960,
}

impl<'t> Classification<'t> {
    /// The match, when the game is named.
    pub fn matched(self) -> Option<Match<'t>> {
        match self {
            Classification::Named(m) => Some(m),
            _ => None,
        }
    }

    /// Why the game is not named, in words (`None` when it is named).
    pub fn reason(self) -> Option<&'static str> {
        match self {
            Classification::Named(_) => None,
            Classification::Unnamed => Some("no named position reached"),
            Classification::NonStandardStart => Some("unclassified: non-standard start"),
            Classification::Chess960 => Some("unclassified: Chess960"),
        }
    }
}

/// Replays a game's mainline from the starting position and remembers the deepest named
/// position it reaches, stopping as soon as the game cannot reach the table any more.
///
/// The rule, after each ply `p` (and at the start, `p = 0`):
///
/// 1. if the position's key names an opening, that opening at ply `p` becomes the match (a
///    later named position replaces an earlier one, so the result is the *last* named position
///    of the game, which is also the deepest);
/// 2. if the key lies on a line of the table (named, or on the way to a named position), the
///    game is *on a line*; otherwise it is *off the lines*;
/// 3. the classifier stops when the game has been off the lines for more than
///    [`OFF_LINE_PLIES`] consecutive plies, or when `p` reaches the table's longest line plus
///    [`OFF_LINE_PLIES`]: the moves after that are not read.
///
/// ```
/// use tabia_eco::Table;
///
/// let table = Table::embedded();
/// let mut c = table.classifier();
/// for san in ["d4", "Nf6", "c4", "e6", "Nc3", "Bb4"] {
///     assert!(c.play_text(san)?);
/// }
/// let m = c.found().expect("named");
/// assert_eq!((m.opening.eco(), m.opening.name(), m.ply), ("E20", "Nimzo-Indian Defense", 6));
/// # Ok::<_, tabia_eco::position::MoveError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Classifier<'t> {
    follower: Follower<'t>,
    position: Position,
}

impl<'t> Classifier<'t> {
    /// A classifier at the starting position.
    pub fn new(table: &'t Table) -> Classifier<'t> {
        Classifier {
            follower: Follower::new(table),
            position: Position::new(),
        }
    }

    /// The current position (where the next move is played).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The number of plies played.
    pub fn ply(&self) -> usize {
        self.follower.ply()
    }

    /// Whether the classifier has stopped: further moves are ignored.
    pub fn is_done(&self) -> bool {
        self.follower.is_done()
    }

    /// The deepest named position so far.
    pub fn found(&self) -> Option<Match<'t>> {
        self.follower.found()
    }

    /// Plays `m`, a legal move of [`Classifier::position`]. Returns whether the classifier wants
    /// more moves (`false` once it has stopped; the move is then ignored).
    pub fn play(&mut self, m: Move) -> bool {
        if self.follower.is_done() {
            return false;
        }
        self.position.play_unchecked(m);
        self.follower.follow(&self.position)
    }

    /// Plays a move given as text (SAN or UCI); see [`Classifier::play`].
    ///
    /// # Errors
    ///
    /// The move is not legal in the current position (and the classifier has not stopped).
    pub fn play_text(&mut self, text: &str) -> Result<bool, MoveError> {
        if self.follower.is_done() {
            return Ok(false);
        }
        let m = self.position.parse_move(text)?;
        Ok(self.play(m))
    }

    /// Plays a SAN move from a PGN reader, read leniently as the checker reads it (a wrong
    /// capture mark, a bishop's lowercase `b`: [`Position::resolve_lenient`]); see
    /// [`Classifier::play`].
    ///
    /// # Errors
    ///
    /// The move is not legal in the current position (and the classifier has not stopped).
    pub fn play_san(&mut self, san: SanPlus) -> Result<bool, MoveError> {
        if self.follower.is_done() {
            return Ok(false);
        }
        let m = self.position.resolve_lenient(san.san)?;
        Ok(self.play(m))
    }
}

/// The rule of [`Classifier`] along a replay that the caller runs anyway (a reader checking
/// the game, a table writing its moves): shown each position the mainline reaches, it keeps the
/// deepest named one and says when to stop, without a position of its own to play the moves on
/// again.
///
/// ```
/// use tabia_eco::{Follower, Table};
/// use tabia_eco::position::Position;
///
/// let table = Table::embedded();
/// let mut follower = Follower::new(table);
/// let mut pos = Position::new();
/// for san in ["c4", "e6", "d4", "Nf6", "Nc3", "Bb4"] {
///     pos.play_unchecked(pos.parse_move(san)?);
///     assert!(follower.follow(&pos));
/// }
/// let m = follower.found().expect("named");
/// assert_eq!((m.opening.eco(), m.ply), ("E20", 6));
/// # Ok::<_, tabia_eco::position::MoveError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Follower<'t> {
    table: &'t Table,
    ply: usize,
    found: Option<Match<'t>>,
    off_line: usize,
    done: bool,
}

impl<'t> Follower<'t> {
    /// A follower that has looked at the starting position (ply 0).
    pub fn new(table: &'t Table) -> Follower<'t> {
        let mut follower = Follower {
            table,
            ply: 0,
            found: None,
            off_line: 0,
            done: false,
        };
        follower.look(&Position::new());
        follower
    }

    /// The number of plies followed.
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// Whether the follower has stopped: further positions are ignored.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// The deepest named position so far.
    pub fn found(&self) -> Option<Match<'t>> {
        self.found
    }

    /// Looks at `after`, the position the game's next move reached. Returns whether the
    /// follower wants more positions (`false` once it has stopped; `after` is then ignored).
    pub fn follow(&mut self, after: &Position) -> bool {
        if self.done {
            return false;
        }
        self.ply += 1;
        self.look(after);
        !self.done
    }

    fn look(&mut self, position: &Position) {
        match self.table.probe(&position.key()) {
            Some(named) => {
                if let Some(opening) = named {
                    self.found = Some(Match {
                        opening,
                        ply: self.ply,
                    });
                }
                self.off_line = 0;
            }
            None => self.off_line += 1,
        }
        self.done =
            self.off_line > OFF_LINE_PLIES || self.ply >= self.table.max_ply() + OFF_LINE_PLIES;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classify(moves: &str) -> Option<(String, usize)> {
        Table::embedded()
            .classify_moves(moves.split_whitespace())
            .expect("legal")
            .map(|m| (m.opening.eco().to_owned(), m.ply))
    }

    #[test]
    fn transpositions_get_one_name() {
        let a = classify("d4 Nf6 c4 e6");
        assert_eq!(a, classify("c4 e6 d4 Nf6"));
        assert_eq!(a, Some(("E00".to_owned(), 4)));
    }

    #[test]
    fn stops_after_leaving_the_lines() {
        // 1.a4 a5 is named; rook shuffles then leave every line at once.
        let mut c = Table::embedded().classifier();
        assert!(c.play_text("a4").expect("legal"));
        assert!(c.play_text("a5").expect("legal"));
        let named = c.found().expect("1.a4 a5 is named");
        assert_eq!(named.ply, 2);
        let shuffle = ["Ra3", "Ra6", "Rb3", "Rb6", "Ra3", "Ra6", "Rb3", "Rb6"];
        let mut played = 2;
        for san in shuffle.iter().cycle().take(40) {
            played += 1;
            if !c.play_text(san).expect("legal") {
                break;
            }
        }
        assert!(c.is_done());
        assert_eq!(played, 2 + OFF_LINE_PLIES + 1);
        // The last named position is still the answer.
        assert_eq!(c.found(), Some(named));
        // Moves after the stop are ignored, even illegal ones.
        assert_eq!(c.play_text("Kxe8"), Ok(false));
    }

    #[test]
    fn a_follower_finds_what_a_classifier_finds() {
        let table = Table::embedded();
        let games = [
            "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be2 e5",
            "a4 a5 Ra3 Ra6 Rb3 Rb6 Ra3 Ra6 Rb3 Rb6 Ra3 Ra6 Rb3 Rb6 Ra3 Ra6",
            "Nf3 Nf6 c4 g6 Nc3 Bg7 e4 d6 d4 O-O",
            "h4 h5 g4 hxg4",
        ];
        for game in games {
            let mut classifier = table.classifier();
            let mut follower = Follower::new(table);
            let mut pos = Position::new();
            for san in game.split_whitespace() {
                let m = pos.parse_move(san).expect("legal");
                pos.play_unchecked(m);
                assert_eq!(classifier.play(m), follower.follow(&pos), "{game}: {san}");
                assert_eq!(classifier.found(), follower.found(), "{game}: {san}");
                assert_eq!(classifier.ply(), follower.ply(), "{game}: {san}");
            }
        }
    }

    #[test]
    fn starting_position_is_looked_up() {
        let c = Table::embedded().classifier();
        assert_eq!(c.ply(), 0);
        assert!(!c.is_done());
    }
}
