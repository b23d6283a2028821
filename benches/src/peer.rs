//! The peers of tabia's benches, in one place: pgn-reader 0.29 visitors, with shakmaty where
//! the rules are needed. The benches (`benches/benches/*.rs`) and the whole-process peer
//! (`examples/peer_check.rs`, run by `cargo xtask compare`) use them, so that every comparison
//! runs the same peer code.
//!
//! - [`Count`]: syntax only, counts every tag, move, NAG, comment, variation and result.
//! - [`Facts`]: syntax only, gathers the figures of `tabia stats` (tabia-stats' [`GameFacts`],
//!   fed by pgn-reader's events, variations skipped) into a [`Stats`].
//! - [`Replay`]: replays every mainline with shakmaty (from the `FEN` tag when there is one,
//!   variations skipped), calling a closure on every position.

use std::ops::ControlFlow;

use pgn_reader::{
    KnownOutcome, Nag, Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor, shakmaty::Color,
};
use shakmaty::{CastlingMode, Chess, Position as _, fen::Fen};
use tabia_stats::{GameFacts, Stats};

/// What [`Count`] counts.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Games.
    pub games: usize,
    /// Tag pairs.
    pub tags: usize,
    /// Moves, variations included.
    pub sans: usize,
    /// NAGs.
    pub nags: usize,
    /// Comments (pgn-reader does not give `;` comments).
    pub comments: usize,
    /// Variations.
    pub variations: usize,
    /// Termination markers.
    pub outcomes: usize,
}

/// pgn-reader's syntax-only visitor: counts every event.
#[derive(Debug, Default)]
pub struct Count(pub Counts);

impl Visitor for Count {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _: &mut (), _name: &[u8], _value: RawTag<'_>) -> ControlFlow<()> {
        self.0.tags += 1;
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _: ()) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }

    fn san(&mut self, _: &mut (), san: SanPlus) -> ControlFlow<()> {
        std::hint::black_box(san);
        self.0.sans += 1;
        ControlFlow::Continue(())
    }

    fn nag(&mut self, _: &mut (), _nag: Nag) -> ControlFlow<()> {
        self.0.nags += 1;
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _: &mut (), _comment: RawComment<'_>) -> ControlFlow<()> {
        self.0.comments += 1;
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut ()) -> ControlFlow<(), Skip> {
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, _: &mut ()) -> ControlFlow<()> {
        self.0.variations += 1;
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, _: &mut (), _outcome: Outcome) -> ControlFlow<()> {
        self.0.outcomes += 1;
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: ()) {
        self.0.games += 1;
    }
}

/// Counts the events of every game of `bytes` with [`Count`].
pub fn count(bytes: &[u8]) -> Counts {
    let mut reader = Reader::new(bytes);
    let mut visitor = Count::default();
    while let Ok(Some(())) = reader.read_game(&mut visitor) {}
    visitor.0
}

/// pgn-reader feeding tabia-stats: the figures of `tabia stats` gathered from pgn-reader's
/// events, the same work as tabia's [`GameFacts`] visitor (variations skipped, comments
/// scanned for clocks and evaluations), so that a bench compares the readers.
#[derive(Debug, Default)]
pub struct Facts {
    facts: GameFacts,
    /// The figures so far.
    pub stats: Stats,
}

impl Visitor for Facts {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        self.facts.clear();
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        self.facts.tag(name, value.as_bytes());
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _: ()) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }

    fn san(&mut self, _: &mut (), _san: SanPlus) -> ControlFlow<()> {
        self.facts.mainline_move();
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _: &mut (), comment: RawComment<'_>) -> ControlFlow<()> {
        self.facts.comment(comment.as_bytes());
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut ()) -> ControlFlow<(), Skip> {
        self.facts.variation();
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, _: &mut (), outcome: Outcome) -> ControlFlow<()> {
        self.facts.set_outcome(match outcome {
            Outcome::Known(KnownOutcome::Decisive {
                winner: Color::White,
            }) => tabia_notation::pgn::Outcome::WhiteWins,
            Outcome::Known(KnownOutcome::Decisive {
                winner: Color::Black,
            }) => tabia_notation::pgn::Outcome::BlackWins,
            Outcome::Known(KnownOutcome::Draw) => tabia_notation::pgn::Outcome::Draw,
            Outcome::Unknown => tabia_notation::pgn::Outcome::Unknown,
        });
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: ()) {
        // pgn-reader does not say where a game ends: bytes are not counted.
        self.stats.add(&self.facts, 0);
    }
}

/// The figures of `tabia stats` for `bytes`, read by pgn-reader.
pub fn stats(bytes: &[u8]) -> Stats {
    let mut reader = Reader::new(bytes);
    let mut visitor = Facts::default();
    while let Ok(Some(())) = reader.read_game(&mut visitor) {}
    visitor.stats
}

/// Replays every mainline with shakmaty, from the `FEN` tag when there is one (variations
/// skipped), calling `on_position` on the start position and after every move; a game is bad
/// (`end_game` gives `false`) when its FEN or a move cannot be played.
pub struct Replay<F> {
    /// Mainline moves played, over all games.
    pub plies: u64,
    on_position: F,
}

impl<F: FnMut(&Chess)> Replay<F> {
    /// A replay calling `on_position` on every position.
    pub fn new(on_position: F) -> Replay<F> {
        Replay {
            plies: 0,
            on_position,
        }
    }
}

/// A replay that looks at no position.
pub fn replayer() -> Replay<fn(&Chess)> {
    Replay::new(|_| {})
}

impl<F: FnMut(&Chess)> Visitor for Replay<F> {
    type Tags = Option<Chess>;
    type Movetext = Option<Chess>;
    type Output = bool;

    fn begin_tags(&mut self) -> ControlFlow<bool, Option<Chess>> {
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        tags: &mut Option<Chess>,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<bool> {
        if name == b"FEN" {
            let pos = Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|fen| fen.into_position(CastlingMode::Chess960).ok());
            match pos {
                Some(pos) => *tags = Some(pos),
                None => return ControlFlow::Break(false),
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<bool, Option<Chess>> {
        let pos = tags.unwrap_or_default();
        (self.on_position)(&pos);
        ControlFlow::Continue(Some(pos))
    }

    fn san(&mut self, pos: &mut Option<Chess>, san: SanPlus) -> ControlFlow<bool> {
        let Some(chess) = pos else {
            return ControlFlow::Break(false);
        };
        match san.san.to_move(chess) {
            Ok(m) => {
                chess.play_unchecked(m);
                self.plies += 1;
                (self.on_position)(chess);
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(false),
        }
    }

    fn begin_variation(&mut self, _pos: &mut Option<Chess>) -> ControlFlow<bool, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, _pos: Option<Chess>) -> bool {
        true
    }
}

/// Replays every game of `bytes`: (good games, mainline plies, bad games).
pub fn replay(bytes: &[u8]) -> (u64, u64, u64) {
    let mut visitor = replayer();
    let mut reader = Reader::new(bytes);
    let (mut games, mut bad) = (0, 0);
    while let Ok(Some(ok)) = reader.read_game(&mut visitor) {
        if ok {
            games += 1;
        } else {
            bad += 1;
        }
    }
    (games, visitor.plies, bad)
}

/// The tags [`DecisiveBetween`] reads.
#[derive(Debug, Default)]
pub struct Seen {
    result: Option<Color>,
    white: u32,
    black: u32,
}

/// Selects the decisive games between players rated at least `.0`, from the tags alone (the
/// movetext is skipped): the peer of `tabia filter --result decisive --elo N`.
#[derive(Debug, Default)]
pub struct DecisiveBetween(pub u32);

impl Visitor for DecisiveBetween {
    type Tags = Seen;
    type Movetext = ();
    type Output = bool;

    fn begin_tags(&mut self) -> ControlFlow<bool, Seen> {
        ControlFlow::Continue(Seen::default())
    }

    fn tag(&mut self, seen: &mut Seen, name: &[u8], value: RawTag<'_>) -> ControlFlow<bool> {
        let number = || {
            std::str::from_utf8(value.as_bytes())
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        };
        match name {
            b"Result" => {
                seen.result = match value.as_bytes() {
                    b"1-0" => Some(Color::White),
                    b"0-1" => Some(Color::Black),
                    _ => None,
                }
            }
            b"WhiteElo" => seen.white = number(),
            b"BlackElo" => seen.black = number(),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, seen: Seen) -> ControlFlow<bool, ()> {
        ControlFlow::Break(seen.result.is_some() && seen.white >= self.0 && seen.black >= self.0)
    }

    fn end_game(&mut self, _movetext: ()) -> bool {
        false
    }
}

/// (games, selected games) of [`DecisiveBetween`] over `bytes`.
pub fn decisive_between(min_elo: u32, bytes: &[u8]) -> (u64, u64) {
    let mut reader = Reader::new(bytes);
    let mut visitor = DecisiveBetween(min_elo);
    let (mut games, mut matched) = (0, 0);
    while let Ok(Some(found)) = reader.read_game(&mut visitor) {
        games += 1;
        matched += u64::from(found);
    }
    (games, matched)
}
