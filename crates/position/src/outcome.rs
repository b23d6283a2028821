//! How a game stands: over (checkmate, stalemate, dead position, 75-move rule, fivefold
//! repetition) or drawable on a claim (50-move rule, threefold repetition).

use std::fmt;

use shakmaty::{Color, Outcome, variant::Variant};

use crate::position::{Position, with_pos};

/// Why the game is over, or may be declared drawn.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is checkmated.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can mate.
    InsufficientMaterial,
    /// 150 plies without a capture or pawn move: drawn without a claim.
    SeventyFiveMoveRule,
    /// The same position a fifth time: drawn without a claim.
    FivefoldRepetition,
    /// 100 plies without a capture or pawn move: a draw may be claimed.
    FiftyMoveRule,
    /// The game ended by a rule of its variant: a king on the hill, a third check, an
    /// explosion, a king across the finish line, the horde or all pieces gone, …
    VariantEnd {
        /// The variant.
        variant: Variant,
        /// The winner; `None` for a draw (two kings finishing the race together).
        winner: Option<Color>,
    },
    /// The same position a third time: a draw may be claimed.
    ThreefoldRepetition,
}

impl Termination {
    /// Whether the game is over without anyone claiming it (all but the 50-move rule and
    /// threefold repetition).
    pub fn is_automatic(self) -> bool {
        !matches!(
            self,
            Termination::FiftyMoveRule | Termination::ThreefoldRepetition
        )
    }

    /// The result it gives: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(self) -> &'static str {
        match self {
            Termination::Checkmate {
                winner: Color::White,
            } => "1-0",
            Termination::Checkmate {
                winner: Color::Black,
            } => "0-1",
            Termination::VariantEnd {
                winner: Some(winner),
                ..
            } => winner.fold_wb("1-0", "0-1"),
            _ => "1/2-1/2",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Termination::VariantEnd { variant, winner } = *self {
            let name = crate::variant::display_name(variant);
            return match winner {
                Some(winner) => write!(
                    f,
                    "a {} win by the rules of {name}",
                    winner.fold_wb("white", "black")
                ),
                None => write!(f, "a draw by the rules of {name}"),
            };
        }
        f.write_str(match self {
            Termination::VariantEnd { .. } => "variant end",
            Termination::Checkmate {
                winner: Color::White,
            } => "white mates",
            Termination::Checkmate {
                winner: Color::Black,
            } => "black mates",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::SeventyFiveMoveRule => "75-move rule",
            Termination::FivefoldRepetition => "fivefold repetition",
            Termination::FiftyMoveRule => "50-move rule (draw may be claimed)",
            Termination::ThreefoldRepetition => "threefold repetition (draw may be claimed)",
        })
    }
}

/// The Polyglot hashes of the positions of a line, to detect repetitions.
#[derive(Debug, Clone, Default)]
pub struct History {
    hashes: Vec<u64>,
}

impl History {
    /// An empty history.
    pub fn new() -> History {
        History::default()
    }

    /// Records the position reached (its [`Position::zobrist`]).
    pub fn push(&mut self, hash: u64) {
        self.hashes.push(hash);
    }

    /// Forgets everything (e.g. at the start of a game).
    pub fn clear(&mut self) {
        self.hashes.clear();
    }

    /// How many times the last recorded position occurred among the last `halfmoves + 1`
    /// positions (the ones a repetition can reach back to), itself included.
    pub fn repetitions(&self, halfmoves: u32) -> usize {
        let Some((&last, earlier)) = self.hashes.split_last() else {
            return 0;
        };
        let reach = (halfmoves as usize).min(earlier.len());
        1 + earlier[earlier.len() - reach..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|&&h| h == last)
            .count()
    }
}

impl Position {
    /// How the game stands in this position, given the history of the line that led to it
    /// (with this position last): the automatic endings first, then the claimable ones.
    ///
    /// ```
    /// use tabia_position::{History, Position, Termination};
    ///
    /// let mut pos = Position::new();
    /// for san in ["f3", "e5", "g4", "Qh4#"] {
    ///     pos = pos.after(san)?;
    /// }
    /// assert_eq!(pos.termination(&History::new()), Some(Termination::Checkmate { winner: shakmaty::Color::Black }));
    /// # use tabia_position::shakmaty;
    /// # Ok::<_, tabia_position::MoveError>(())
    /// ```
    pub fn termination(&self, history: &History) -> Option<Termination> {
        with_pos!(self, |p| self.termination_of(p, history))
    }

    /// How the game ends in this position whatever led to it, the endings that decide a
    /// result beyond doubt: a variant's own ending, checkmate, stalemate. The first thing
    /// [`Position::termination`] looks at.
    pub(crate) fn decided(&self) -> Option<Termination> {
        with_pos!(self, |p| self.decided_of(p))
    }

    fn decided_of<P: shakmaty::Position>(&self, chess: &P) -> Option<Termination> {
        if let Outcome::Known(outcome) = chess.variant_outcome() {
            return Some(Termination::VariantEnd {
                variant: self.variant(),
                winner: outcome.winner(),
            });
        }
        if chess.legal_moves().is_empty() {
            return Some(if chess.is_check() {
                Termination::Checkmate {
                    winner: !chess.turn(),
                }
            } else {
                Termination::Stalemate
            });
        }
        None
    }

    fn termination_of<P: shakmaty::Position>(
        &self,
        chess: &P,
        history: &History,
    ) -> Option<Termination> {
        let halfmoves = chess.halfmoves();
        if let Some(decided) = self.decided_of(chess) {
            return Some(decided);
        }
        if chess.is_insufficient_material() {
            return Some(Termination::InsufficientMaterial);
        }
        let repetitions = history.repetitions(halfmoves);
        if repetitions >= 5 {
            return Some(Termination::FivefoldRepetition);
        }
        if halfmoves >= 150 {
            return Some(Termination::SeventyFiveMoveRule);
        }
        if repetitions >= 3 {
            return Some(Termination::ThreefoldRepetition);
        }
        if halfmoves >= 100 {
            return Some(Termination::FiftyMoveRule);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(moves: &str) -> (Position, History) {
        let mut pos = Position::new();
        let mut history = History::new();
        history.push(pos.zobrist());
        for san in moves.split_whitespace() {
            pos = pos.after(san).expect("legal");
            history.push(pos.zobrist());
        }
        (pos, history)
    }

    #[test]
    fn repetitions_are_counted() {
        let shuffle = "Nf3 Nf6 Ng1 Ng8";
        let (pos, history) = play(shuffle);
        assert_eq!(history.repetitions(pos.halfmoves()), 2);
        assert_eq!(pos.termination(&history), None);
        let (pos, history) = play(&[shuffle; 2].join(" "));
        assert_eq!(
            pos.termination(&history),
            Some(Termination::ThreefoldRepetition)
        );
        let (pos, history) = play(&[shuffle; 4].join(" "));
        assert_eq!(
            pos.termination(&history),
            Some(Termination::FivefoldRepetition)
        );
    }

    #[test]
    fn stalemate_and_dead_positions() {
        let stale: Position = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1".parse().expect("legal");
        assert_eq!(
            stale.termination(&History::new()),
            Some(Termination::Stalemate)
        );
        let dead: Position = "8/8/4k3/8/8/3NK3/8/8 w - - 0 1".parse().expect("legal");
        assert_eq!(
            dead.termination(&History::new()),
            Some(Termination::InsufficientMaterial)
        );
        let fifty: Position = "8/8/4k3/8/8/3RK3/8/8 w - - 100 80".parse().expect("legal");
        assert_eq!(
            fifty.termination(&History::new()),
            Some(Termination::FiftyMoveRule)
        );
        let seventy: Position = "8/8/4k3/8/8/3RK3/8/8 w - - 150 80".parse().expect("legal");
        assert_eq!(
            seventy.termination(&History::new()),
            Some(Termination::SeventyFiveMoveRule)
        );
        assert_eq!(Termination::Stalemate.result(), "1/2-1/2");
    }
}
