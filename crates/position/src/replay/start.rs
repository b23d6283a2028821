//! Where a game starts: the `FEN` and `Variant` tags, read leniently.

use tabia_notation::pgn::{Game, Origin, RawTag};

use super::{ReplayError, ReplayErrorKind};
use crate::{
    lenient,
    position::Position,
    variant::{GameVariant, parse_variant},
    warning::ReplayWarning,
};

/// The two tags that say where a game starts, `FEN` and `Variant`, remembered as a PGN
/// visitor meets them, for every visitor that has to know (replay, classification).
///
/// ```
/// use tabia_position::StartTags;
/// use tabia_position::notation::pgn::RawTag;
///
/// let mut tags = StartTags::default();
/// tags.tag(b"White", RawTag(b"Carlsen"));
/// assert!(tags.is_default());
/// tags.tag(b"Variant", RawTag(b"Chess960"));
/// // A second tag of the same name is ignored, as by the game tree.
/// tags.tag(b"Variant", RawTag(b"Atomic"));
/// assert_eq!(tags.variant.as_deref(), Some("Chess960"));
/// assert!(!tags.is_default());
/// tags.clear();
/// assert!(tags.is_default());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StartTags {
    /// The `FEN` tag, if the game has one.
    pub fen: Option<String>,
    /// The `Variant` tag, if the game has one.
    pub variant: Option<String>,
}

impl StartTags {
    /// Forgets both tags, for the next game.
    pub fn clear(&mut self) {
        self.fen = None;
        self.variant = None;
    }

    /// Remembers the tag if it is the first `FEN` or `Variant` tag of the game (the one
    /// [`Game::tag`] gives, which the tree starts from); ignores any other.
    pub fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        match name {
            b"FEN" if self.fen.is_none() => self.fen = Some(value.decode().into_owned()),
            b"Variant" if self.variant.is_none() => {
                self.variant = Some(value.decode().into_owned());
            }
            _ => {}
        }
    }

    /// Whether neither tag was given: the game starts from the standard position.
    pub fn is_default(&self) -> bool {
        self.fen.is_none() && self.variant.is_none()
    }

    /// The position the game starts from, as [`start_position`] gives it for a parsed game.
    pub fn start(&self, at: Origin) -> Result<Position, ReplayError> {
        self.start_with_warnings(at).map(|(pos, _)| pos)
    }

    /// The position the game starts from and the warnings of the `FEN` tag's repairs, as
    /// [`start_position_with_warnings`] gives them for a parsed game.
    pub fn start_with_warnings(
        &self,
        at: Origin,
    ) -> Result<(Position, Vec<ReplayWarning>), ReplayError> {
        start_from_tags(self.fen.as_deref(), self.variant.as_deref(), at)
    }
}

/// The start position a game's tags ask for: the `FEN` tag (whether or not `SetUp` is given),
/// standard chess or Chess960 as the `Variant` tag or the castling letters say. A `FEN` tag is
/// read leniently (see [`start_position_with_warnings`], which also gives the warnings).
///
/// # Errors
///
/// [`ReplayError`] for a bad `FEN` tag or an unsupported variant.
pub fn start_position(game: &Game) -> Result<Position, ReplayError> {
    start_position_with_warnings(game).map(|(pos, _)| pos)
}

/// Like [`start_position`], with the warnings of the `FEN` tag's repairs: clocks that are not
/// counts, a fullmove number of 0, missing fields, castling rights the board cannot have, an
/// impossible en-passant square, a position no game can reach.
///
/// ```
/// use tabia_position::{EpRule, start_position_with_warnings};
/// use tabia_notation::pgn::Game;
///
/// let game: Game = "[FEN \"4k2r/8/8/8/8/8/8/R3K2R w KQkq - 1 0\"]\n\n*".parse()?;
/// let (start, warnings) = start_position_with_warnings(&game)?;
/// assert_eq!(start.fen(EpRule::Legal), "4k2r/8/8/8/8/8/8/R3K2R w KQk - 1 1");
/// let messages: Vec<String> = warnings.iter().map(ToString::to_string).collect();
/// assert_eq!(messages, [
///     "FEN tag has fullmove number 0, read as 1",
///     "FEN tag gives castling rights the board cannot have (black may castle queenside \
///      but there is no black rook on a8), read as `KQk`",
/// ]);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`ReplayError`] for a `FEN` tag with no legal position even after repair, or an
/// unsupported variant.
pub fn start_position_with_warnings(
    game: &Game,
) -> Result<(Position, Vec<ReplayWarning>), ReplayError> {
    start_from_tags(game.tag("FEN"), game.tag("Variant"), game.start)
}

/// The start position of a game from its `FEN` and `Variant` tag values, and the warnings of
/// the `FEN` tag's repairs.
pub(crate) fn start_from_tags(
    fen: Option<&str>,
    variant: Option<&str>,
    start: Origin,
) -> Result<(Position, Vec<ReplayWarning>), ReplayError> {
    let at = Some(start);
    let variant = match variant {
        Some(variant) => parse_variant(variant).map_err(|err| {
            ReplayError::new(
                ReplayErrorKind::UnsupportedVariant(err.name().to_owned()),
                at,
            )
        })?,
        None => GameVariant::STANDARD,
    };
    let Some(fen) = fen else {
        return Ok((Position::new_variant(variant.variant), Vec::new()));
    };
    lenient::start_from_fen(fen, variant, start)
}
