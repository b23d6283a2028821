//! [`Classifier`]: the last named position along a game's mainline, by lichess's rule, with an
//! early exit.

use tabia_notation::san::SanPlus;
use tabia_position::{MoveError, Position, shakmaty::Move};

use crate::{Opening, Table, layout::reach_key};

/// How many plies of a game are looked at, as lichess does (scalachess
/// `OpeningDb.SEARCH_MAX_PLIES`): a position reached later names nothing.
pub const MAX_PLIES: usize = 40;

/// The fewest pieces a position looked at may have, as lichess (`SEARCH_MIN_PIECES`): the
/// classifier stops at the first position with fewer.
pub const MIN_PIECES: usize = 20;

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
    /// The last named position the game reached (by the rule of [`Classifier`]).
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

    /// The classification in a word or two, as `tabia eco --json` writes it in its `status`
    /// field: `named`, `unnamed`, `non-standard start` or `chess960`.
    ///
    /// ```
    /// use tabia_eco::{Classification, Table, position::notation::pgn::Game};
    ///
    /// let game: Game = "1. e4 e5 *".parse()?;
    /// assert_eq!(Table::embedded().classify_game(&game)?.status(), "named");
    /// assert_eq!(Classification::NonStandardStart.status(), "non-standard start");
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn status(self) -> &'static str {
        match self {
            Classification::Named(_) => "named",
            Classification::Unnamed => "unnamed",
            Classification::NonStandardStart => "non-standard start",
            Classification::Chess960 => "chess960",
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

/// Replays a game's mainline from the starting position and names it by the last named
/// position it reaches, as lichess names games (scalachess `OpeningDb.search`).
///
/// The rule: the positions after plies 1 to [`MAX_PLIES`] are looked at (not the starting
/// position, which Scid's table names "Start position": a game without moves is unnamed, as
/// lichess and pgn-extract leave it), up to the first that has fewer than [`MIN_PIECES`]
/// pieces (not looked at); the game is named by the last of
/// them that the table names, a position being compared by placement, side to move, castling
/// rights and en-passant square (when a capture is legal), so transpositions count.
///
/// The classifier stops when the rule has nothing more to look at, and also as soon as no
/// named position can be reached any more: every named position keeps some of the pawns on
/// their starting squares, castling rights, pawns and men, which a game cannot get back once
/// it has moved, lost or traded them. That changes no answer; it only spares replaying the
/// rest of the 40 plies.
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

    /// The last named position so far.
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
/// last named one and says when to stop, without a position of its own to play the moves on
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
    /// The last reach key looked at and whether a named position was reachable from it.
    reach: (u64, bool),
    done: bool,
}

impl<'t> Follower<'t> {
    /// A follower at the starting position (ply 0), which it does not look up.
    pub fn new(table: &'t Table) -> Follower<'t> {
        Follower {
            table,
            ply: 0,
            found: None,
            reach: (u64::MAX, true),
            done: table.is_empty(),
        }
    }

    /// The number of plies followed.
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// Whether the follower has stopped: further positions are ignored.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// The last named position so far.
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
        let board = position.board();
        if board.occupied().count() < MIN_PIECES {
            self.done = true;
            return;
        }
        let key = position.key();
        if let Some(opening) = self.table.lookup(&key) {
            self.found = Some(Match {
                opening,
                ply: self.ply,
            });
        }
        let reach = reach_key(board, key.castling_rights());
        if reach != self.reach.0 {
            self.reach = (reach, self.table.may_reach(reach));
        }
        self.done = self.ply >= MAX_PLIES || !self.reach.1;
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
        let a = classify("d4 Nf6 c4 e6 Nc3 Bb4");
        assert_eq!(a, classify("c4 e6 Nc3 Nf6 d4 Bb4"));
        assert_eq!(a, Some(("E20".to_owned(), 6)));
    }

    /// Plays `moves` (from the start) until the classifier stops; returns how many it took.
    fn played(c: &mut Classifier<'_>, moves: &[&str]) -> usize {
        let mut n = 0;
        for san in moves {
            n += 1;
            if !c.play_text(san).expect("legal") {
                break;
            }
        }
        n
    }

    #[test]
    fn looks_at_forty_plies_and_no_more() {
        // Knights out and back: every pawn home, every castling right kept, so a named
        // position stays reachable; 1.Nf3 Nf6 is named, last reached at ply 38.
        let mut c = Table::embedded().classifier();
        let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
        let moves: Vec<&str> = shuffle.iter().copied().cycle().take(60).collect();
        assert_eq!(played(&mut c, &moves), MAX_PLIES);
        assert!(c.is_done());
        let m = c.found().expect("named");
        assert_eq!(m.ply, 38);
        assert_eq!(m.opening.moves(), "1. Nf3 Nf6");
        // Moves after the stop are ignored, even illegal ones.
        assert_eq!(c.play_text("Kxe8"), Ok(false));
    }

    #[test]
    fn a_game_may_come_back_to_the_table_late() {
        // Sixteen plies of knight moves, then the Ruy Lopez: named at ply 21.
        let mut moves = ["Nf3", "Nf6", "Ng1", "Ng8"].repeat(4);
        moves.extend(["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        let m = Table::embedded()
            .classify_moves(&moves)
            .expect("legal")
            .expect("named");
        assert_eq!(
            (m.opening.eco(), m.opening.name(), m.ply),
            ("C60", "Ruy Lopez", 21)
        );
    }

    #[test]
    fn stops_once_no_named_position_can_be_reached() {
        // Every pawn two squares forward: no named position has so few pawns at home.
        let mut c = Table::embedded().classifier();
        let moves = [
            "a4", "a5", "b4", "b5", "c4", "c5", "d4", "d5", "e4", "e5", "f4", "f5", "g4", "g5",
            "h4", "h5",
        ];
        let n = played(&mut c, &moves);
        assert!(c.is_done());
        assert!(n < moves.len(), "{n}");
        // What the last positions would name is nothing: the answer is the same as replaying
        // every ply without the early exit.
        let mut all = Position::new();
        let mut last = None;
        for (ply, san) in moves.iter().enumerate() {
            all = all.after(san).expect("legal");
            if let Some(o) = Table::embedded().lookup(&all.key()) {
                last = Some((o.eco(), ply + 1));
            }
        }
        assert_eq!(c.found().map(|m| (m.opening.eco(), m.ply)), last);
    }

    #[test]
    fn stops_below_twenty_pieces() {
        let table = Table::embedded();
        let mut follower = Follower::new(table);
        let few = Position::from_arg("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1").expect("legal");
        assert!(!follower.follow(&few));
        assert!(follower.is_done());
        assert_eq!(follower.found(), None);
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
    fn the_starting_position_names_no_game() {
        let c = Table::embedded().classifier();
        assert_eq!(c.ply(), 0);
        assert!(!c.is_done());
        // Scid's table names the starting position; a game without moves is unnamed all the
        // same, as lichess and pgn-extract leave it.
        let scid = Table::builtin(crate::Openings::Scid);
        assert_eq!(
            scid.lookup(&Position::new().key()).map(Opening::name),
            Some("Start position")
        );
        assert_eq!(scid.classify_moves([""; 0]), Ok(None));
        let m = scid.classify_moves(["e4"]).expect("legal").expect("named");
        assert_eq!((m.opening.extended(), m.ply), (Some("B00a"), 1));
    }
}
