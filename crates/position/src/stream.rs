//! [`MainlineReplayer`]: replay while the PGN reader reads, without building a game tree.

use shakmaty::{Move, Position as _};
use tabia_notation::pgn::{Origin, RawTag, SanPlus, Skip, Visitor};

use crate::{
    outcome::History,
    position::Position,
    replay::{ReplayError, ReplayErrorKind, Replayed, start_from_tags},
};

/// A PGN [`Visitor`] that replays the mainline of each game as it is read (variations are
/// skipped), honouring the `FEN` and `Variant` tags, and calls `f(position, move, ply)` after
/// every ply. Each game gives a [`Replayed`] (repetitions are not tracked on this fast path)
/// or the first [`ReplayError`].
///
/// ```
/// use tabia_notation::pgn::Reader;
/// use tabia_position::{EpRule, MainlineReplayer};
///
/// let pgn = b"1. e4 e5 (1... c5) 2. Nf3 *\n\n1. e4 e5 2. Ke3 *\n";
/// let mut epds = Vec::new();
/// let mut replayer = MainlineReplayer::new(|pos: &tabia_position::Position, _, _| epds.push(pos.epd(EpRule::Legal)));
/// let mut reader = Reader::new(&pgn[..]);
/// let first = reader.read_game(&mut replayer)?.expect("a game");
/// assert_eq!(first.map(|done| done.plies), Ok(3));
/// let second = reader.read_game(&mut replayer)?.expect("a game");
/// assert_eq!(second.unwrap_err().to_string(), "illegal move 2. Ke3 (ply 3): no white king can go to e3");
/// drop(replayer);
/// assert_eq!(epds.len(), 5);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct MainlineReplayer<F> {
    f: F,
    fen: Option<String>,
    variant: Option<String>,
    start: Origin,
    begin: Position,
    pos: Position,
    ply: u32,
    error: Option<ReplayError>,
}

impl<F: FnMut(&Position, Move, u32)> MainlineReplayer<F> {
    /// A replayer calling `f` after every ply.
    pub fn new(f: F) -> MainlineReplayer<F> {
        MainlineReplayer {
            f,
            fen: None,
            variant: None,
            start: Origin::default(),
            begin: Position::new(),
            pos: Position::new(),
            ply: 0,
            error: None,
        }
    }
}

impl<F: FnMut(&Position, Move, u32)> Visitor for MainlineReplayer<F> {
    type Output = Result<Replayed, ReplayError>;

    fn begin_game(&mut self, start: Origin) -> Skip {
        self.fen = None;
        self.variant = None;
        self.start = start;
        self.ply = 0;
        self.error = None;
        Skip(false)
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        match name {
            b"FEN" => self.fen = Some(value.decode().into_owned()),
            b"Variant" => self.variant = Some(value.decode().into_owned()),
            _ => {}
        }
    }

    fn begin_movetext(&mut self) -> Skip {
        if self.fen.is_none() && self.variant.is_none() {
            self.begin = Position::new();
        } else {
            match start_from_tags(self.fen.as_deref(), self.variant.as_deref(), self.start) {
                Ok(pos) => self.begin = pos,
                Err(err) => {
                    self.error = Some(err);
                    return Skip(true);
                }
            }
        }
        self.pos = self.begin.clone();
        Skip(false)
    }

    fn san(&mut self, san: SanPlus, at: Origin) {
        if self.error.is_some() {
            return;
        }
        self.ply += 1;
        match self.pos.resolve(san.san) {
            Ok(m) => {
                self.pos.play_unchecked(m);
                (self.f)(&self.pos, m, self.ply);
            }
            Err(error) => {
                let number = self.pos.chess().fullmoves();
                let dots = if self.pos.turn().is_white() {
                    "."
                } else {
                    "..."
                };
                self.error = Some(ReplayError::new(
                    ReplayErrorKind::IllegalMove {
                        numbered: format!("{number}{dots} {san}"),
                        ply: self.ply,
                        in_variation: false,
                        error,
                    },
                    Some(at),
                ));
            }
        }
    }

    fn begin_variation(&mut self) -> Skip {
        Skip(true)
    }

    fn end_game(&mut self) -> Result<Replayed, ReplayError> {
        if let Some(err) = self.error.take() {
            return Err(err);
        }
        let termination = self.pos.termination(&History::new());
        Ok(Replayed {
            start: self.begin.clone(),
            end: self.pos.clone(),
            plies: self.ply,
            termination,
        })
    }
}
