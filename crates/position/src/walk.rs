//! [`Replay`]: a game's replay as an iterator of its plies, which the caller can stop early.

use shakmaty::Move;
use tabia_notation::pgn::{Game, Move as Node};

use crate::{
    position::{EpRule, Position},
    replay::{ReplayError, Replayed, Walker},
};

/// A game replayed ply by ply: an iterator of [`Played`] moves, each with the position after
/// it, in the order of the text. Only the mainline unless [`Replay::variations`] asks for
/// more. The first illegal move (or a bad start position) is the last item, an `Err`; what
/// the replay found about the whole game (its end, what was read leniently) is
/// [`Replay::finish`]'s.
///
/// ```
/// use tabia_notation::pgn::Game;
/// use tabia_position::Replay;
///
/// let game: Game = "1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 3. Bb5 a6 *".parse()?;
/// // The first three plies of the mainline, then stop: the rest is not played.
/// let sans = Replay::new(&game)
///     .take(3)
///     .map(|ply| ply.map(|ply| ply.node.san.to_string()))
///     .collect::<Result<Vec<_>, _>>()?;
/// assert_eq!(sans, ["e4", "e5", "Nf3"]);
///
/// // Every line, each ply with its depth (0 in the mainline).
/// let mut replay = Replay::new(&game).variations(true);
/// let plies: Vec<(u32, usize)> =
///     replay.by_ref().map(|ply| ply.map(|p| (p.ply, p.depth))).collect::<Result<_, _>>()?;
/// assert_eq!(plies, [(1, 0), (2, 0), (2, 1), (3, 1), (3, 0), (4, 0), (5, 0), (6, 0)]);
/// assert_eq!(replay.finish()?.plies, 6);
///
/// let bad: Game = "1. e4 e5 2. Ke3 *".parse()?;
/// let last = Replay::new(&bad).last().expect("a ply or an error");
/// assert_eq!(last.unwrap_err().to_string(), "illegal move 2. Ke3 (ply 3): no white king can go to e3");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Replay<'g> {
    game: &'g Game,
    variations: bool,
    state: State<'g>,
}

#[derive(Debug)]
enum State<'g> {
    /// Not started: the start position is read on the first call.
    Ready,
    Walking(Box<Walker<'g>>),
    /// Every ply given, or an error given.
    Done(Option<ReplayError>),
}

/// A move of a [`Replay`], with the position after it.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Played<'g> {
    /// The position after the move.
    pub position: Position,
    /// The move played; `None` for a null move (`--`).
    pub mv: Option<Move>,
    /// The move's node in the game tree (its SAN, NAGs, comments, origin).
    pub node: &'g Node,
    /// The ply number from the start position (1 is the first move).
    pub ply: u32,
    /// 0 in the mainline, 1 in its variations, 2 in theirs, …
    pub depth: usize,
}

impl Played<'_> {
    /// The move in UCI (`e2e4`, `e1g1` for castling in standard chess, `0000` for a null
    /// move).
    pub fn uci(&self) -> String {
        match &self.mv {
            Some(m) => m.to_uci(self.position.castling_mode()).to_string(),
            None => "0000".to_owned(),
        }
    }

    /// The EPD of the position after the move (en passant square when a capture is legal).
    pub fn epd(&self) -> String {
        self.position.epd(EpRule::Legal)
    }
}

impl<'g> Replay<'g> {
    /// The replay of `game`'s mainline, from the position its `FEN`/`Variant` tags give.
    pub fn new(game: &'g Game) -> Replay<'g> {
        Replay {
            game,
            variations: false,
            state: State::Ready,
        }
    }

    /// Whether the variations are played too, each after the move it replaces.
    #[must_use]
    pub fn variations(mut self, yes: bool) -> Replay<'g> {
        self.variations = yes;
        self
    }

    /// Plays what is left and gives what the replay found: start and end positions, the
    /// number of mainline plies, how the game ended, the warnings.
    ///
    /// # Errors
    ///
    /// The first illegal move, or a bad start position (again, if the iterator gave it).
    pub fn finish(mut self) -> Result<Replayed, ReplayError> {
        for ply in self.by_ref() {
            ply?;
        }
        match self.state {
            State::Walking(walker) => Ok(walker.finish().0),
            State::Done(Some(error)) => Err(error),
            State::Ready | State::Done(None) => {
                // Not reachable after the loop above: the iterator ends Walking or with an
                // error. Replay once more rather than panic.
                Walker::new(self.game, self.variations).map(|w| w.finish().0)
            }
        }
    }
}

impl<'g> Iterator for Replay<'g> {
    type Item = Result<Played<'g>, ReplayError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let State::Ready = self.state {
            self.state = match Walker::new(self.game, self.variations) {
                Ok(walker) => State::Walking(Box::new(walker)),
                Err(error) => {
                    self.state = State::Done(Some(error.clone()));
                    return Some(Err(error));
                }
            };
        }
        let State::Walking(walker) = &mut self.state else {
            return None;
        };
        match walker.step_owned() {
            Ok(Some(played)) => Some(Ok(played)),
            Ok(None) => None,
            Err(error) => {
                self.state = State::Done(Some(error.clone()));
                Some(Err(error))
            }
        }
    }
}
