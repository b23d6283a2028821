//! Renderings of a position: ASCII and Unicode diagrams, SVG and PNG images, LaTeX and HTML.
//!
//! Every renderer reads a [`shakmaty::Setup`] (piece placement and side to move; the LaTeX
//! form also writes its FEN) and one [`RenderOptions`]. Each has its own function
//! ([`render_ascii`], [`render_unicode`], [`render_svg`], [`render_png`], [`render_latex`],
//! [`render_html`]) and [`render`] picks one by [`RenderFormat`], for callers such as the CLI.

mod html;
mod latex;
#[cfg(feature = "png")]
mod png;
mod svg;
mod text;

use std::{error::Error as StdError, fmt, str::FromStr};

use shakmaty::{CastlingMode, File, Move, Rank, Setup, Square, uci::UciMove};

#[cfg(feature = "png")]
pub use self::png::render_png;
pub use self::{
    html::render_html,
    latex::render_latex,
    svg::{render_svg, svg_height, svg_width},
    text::{render_ascii, render_unicode},
};

/// How a rendering looks. Each format uses the options that make sense for it and ignores the
/// others (the ASCII and Unicode diagrams have no last-move highlight and no pixel size).
///
/// ```
/// use tabia_position::RenderOptions;
///
/// let options = RenderOptions {
///     flip: true,
///     ..RenderOptions::default()
/// };
/// assert_eq!(options.size, 400);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RenderOptions {
    /// Draw the board from Black's side: h1 in the top left corner, a8 in the bottom right.
    pub flip: bool,
    /// Draw rank digits and file letters. `None` takes the format's own default: off for
    /// ASCII (which then is exactly Games::Chess's `to_text`), on for every other format.
    pub coordinates: Option<bool>,
    /// The squares of the last move, highlighted in SVG, PNG, LaTeX and HTML.
    pub last_move: Option<LastMove>,
    /// Width and height of the SVG and PNG image in pixels (the PNG accepts
    /// [`RenderOptions::MIN_SIZE`]..=[`RenderOptions::MAX_SIZE`]); with Crazyhouse pockets
    /// the width, the height growing in proportion ([`svg_height`]).
    pub size: u32,
    /// A complete document instead of a fragment: a LaTeX document of class `standalone`, or
    /// an HTML page.
    pub standalone: bool,
}

impl RenderOptions {
    /// The smallest PNG size in pixels.
    pub const MIN_SIZE: u32 = 16;
    /// The largest PNG size in pixels.
    pub const MAX_SIZE: u32 = 4096;

    /// Whether coordinates are drawn, given the format's default.
    fn coordinates_or(&self, default: bool) -> bool {
        self.coordinates.unwrap_or(default)
    }
}

impl Default for RenderOptions {
    fn default() -> RenderOptions {
        RenderOptions {
            flip: false,
            coordinates: None,
            last_move: None,
            size: 400,
            standalone: false,
        }
    }
}

/// The two squares of a move to highlight: where the piece came from and where it went.
///
/// For castling the king's squares are used (`e1g1`), as UCI writes standard castling.
///
/// ```
/// use tabia_position::{
///     LastMove,
///     shakmaty::{Chess, Position, Square, san::San},
/// };
///
/// let pos = Chess::default();
/// let m = "Nf3".parse::<San>()?.to_move(&pos)?;
/// assert_eq!(
///     LastMove::from(&m),
///     LastMove {
///         from: Square::G1,
///         to: Square::F3
///     }
/// );
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LastMove {
    /// The square the piece left.
    pub from: Square,
    /// The square the piece reached.
    pub to: Square,
}

impl LastMove {
    /// The last move of a UCI move; `None` for a null move. A drop (`Q@f7`) highlights only its
    /// target square (`from` and `to` are the same).
    ///
    /// ```
    /// use tabia_position::{LastMove, shakmaty::{Square, uci::UciMove}};
    ///
    /// let uci: UciMove = "e2e4".parse()?;
    /// assert_eq!(LastMove::from_uci(&uci), Some(LastMove { from: Square::E2, to: Square::E4 }));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_uci(uci: &UciMove) -> Option<LastMove> {
        match *uci {
            UciMove::Normal { from, to, .. } => Some(LastMove { from, to }),
            UciMove::Put { to, .. } => Some(LastMove { from: to, to }),
            UciMove::Null => None,
        }
    }

    /// Whether a square is one of the two highlighted squares.
    fn contains(self, square: Square) -> bool {
        self.from == square || self.to == square
    }
}

impl From<Move> for LastMove {
    fn from(m: Move) -> LastMove {
        match UciMove::from_move(m, CastlingMode::Standard) {
            UciMove::Normal { from, to, .. } => LastMove { from, to },
            _ => LastMove {
                from: m.from().unwrap_or(m.to()),
                to: m.to(),
            },
        }
    }
}

impl From<&Move> for LastMove {
    fn from(m: &Move) -> LastMove {
        LastMove::from(*m)
    }
}

/// A rendering format, for callers that choose it at run time.
///
/// ```
/// use tabia_position::RenderFormat;
///
/// let format: RenderFormat = "svg".parse()?;
/// assert_eq!(format, RenderFormat::Svg);
/// assert_eq!(format.to_string(), "svg");
/// assert!(!format.is_binary());
/// # Ok::<_, tabia_position::ParseRenderFormatError>(())
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RenderFormat {
    /// ASCII diagram ([`render_ascii`]).
    Ascii,
    /// Unicode figurine diagram ([`render_unicode`]).
    Unicode,
    /// SVG image ([`render_svg`]).
    Svg,
    /// PNG image ([`render_png`]; needs the `png` feature).
    Png,
    /// LaTeX for the `chessboard`/`xskak` packages ([`render_latex`]).
    Latex,
    /// Self-contained HTML ([`render_html`]).
    Html,
}

impl RenderFormat {
    /// Every format, in the order of the names.
    pub const ALL: [RenderFormat; 6] = [
        RenderFormat::Ascii,
        RenderFormat::Unicode,
        RenderFormat::Svg,
        RenderFormat::Png,
        RenderFormat::Latex,
        RenderFormat::Html,
    ];

    /// The lowercase name (`ascii`, `unicode`, `svg`, `png`, `latex`, `html`).
    pub const fn name(self) -> &'static str {
        match self {
            RenderFormat::Ascii => "ascii",
            RenderFormat::Unicode => "unicode",
            RenderFormat::Svg => "svg",
            RenderFormat::Png => "png",
            RenderFormat::Latex => "latex",
            RenderFormat::Html => "html",
        }
    }

    /// Whether the output is binary (PNG) rather than UTF-8 text.
    pub const fn is_binary(self) -> bool {
        matches!(self, RenderFormat::Png)
    }
}

impl fmt::Display for RenderFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A format name that [`RenderFormat`] does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseRenderFormatError {
    name: String,
}

impl fmt::Display for ParseRenderFormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown rendering format `{}` (expected one of ",
            self.name
        )?;
        for (i, format) in RenderFormat::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(format.name())?;
        }
        f.write_str(")")
    }
}

impl StdError for ParseRenderFormatError {}

impl FromStr for RenderFormat {
    type Err = ParseRenderFormatError;

    fn from_str(s: &str) -> Result<RenderFormat, ParseRenderFormatError> {
        RenderFormat::ALL
            .into_iter()
            .find(|format| format.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| ParseRenderFormatError { name: s.to_owned() })
    }
}

/// Why a rendering failed.
#[non_exhaustive]
#[derive(Debug)]
pub enum RenderError {
    /// The PNG size is outside [`RenderOptions::MIN_SIZE`]..=[`RenderOptions::MAX_SIZE`].
    InvalidSize(u32),
    /// PNG output was asked for, but the crate was built without its `png` feature.
    PngDisabled,
    /// The rasteriser could not draw or encode the image (a bug: our SVG should always draw).
    Rasterise(Box<dyn StdError + Send + Sync>),
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::InvalidSize(size) => write!(
                f,
                "invalid image size {size} (expected {} to {} pixels)",
                RenderOptions::MIN_SIZE,
                RenderOptions::MAX_SIZE
            ),
            RenderError::PngDisabled => {
                f.write_str("PNG output is not available (built without the `png` feature)")
            }
            RenderError::Rasterise(err) => write!(f, "cannot rasterise the board: {err}"),
        }
    }
}

impl StdError for RenderError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match self {
            RenderError::Rasterise(err) => Some(err.as_ref()),
            _ => None,
        }
    }
}

/// Renders a position in the chosen format: UTF-8 text for every format but PNG.
///
/// # Errors
///
/// Only PNG output can fail: see [`render_png`].
///
/// ```
/// use tabia_position::{RenderFormat, RenderOptions, render, shakmaty::Setup};
///
/// let out = render(&Setup::initial(), RenderFormat::Latex, &RenderOptions::default())?;
/// assert!(out.starts_with(b"\\chessboard[setfen="));
/// # Ok::<_, tabia_position::RenderError>(())
/// ```
pub fn render(
    setup: &Setup,
    format: RenderFormat,
    options: &RenderOptions,
) -> Result<Vec<u8>, RenderError> {
    Ok(match format {
        RenderFormat::Ascii => render_ascii(setup, options).into_bytes(),
        RenderFormat::Unicode => render_unicode(setup, options).into_bytes(),
        RenderFormat::Svg => render_svg(setup, options).into_bytes(),
        RenderFormat::Latex => render_latex(setup, options).into_bytes(),
        RenderFormat::Html => render_html(setup, options).into_bytes(),
        #[cfg(feature = "png")]
        RenderFormat::Png => render_png(setup, options)?,
        #[cfg(not(feature = "png"))]
        RenderFormat::Png => return Err(RenderError::PngDisabled),
    })
}

/// The setup to draw for a position argument (`startpos`, a full or partial FEN, an EPD, as
/// [`Editor::from_arg`](crate::Editor::from_arg) reads it), for [`render`]: any placement,
/// legal or not (a composed diagram needs no kings). With a `variant`, `startpos` is the
/// variant's start, and a Crazyhouse position without pockets gets empty ones (so that they
/// are drawn).
///
/// ```
/// use tabia_position::{diagram_setup, parse_variant, shakmaty::Setup};
///
/// assert_eq!(diagram_setup("startpos", None)?, Setup::initial());
/// assert_eq!(diagram_setup("8/8/8/8/8/8/8/8", None)?.board.occupied().count(), 0);
/// let zh = diagram_setup("startpos", Some(parse_variant("crazyhouse")?))?;
/// assert!(zh.pockets.is_some());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// The syntax error of a text that is no position, as [`Editor::from_arg`](crate::Editor::from_arg)'s.
pub fn diagram_setup(
    text: &str,
    variant: Option<crate::GameVariant>,
) -> Result<Setup, tabia_notation::Error> {
    if let Some(variant) = variant
        && text.trim() == "startpos"
    {
        return Ok(crate::Position::new_variant(variant.variant).setup(crate::EpRule::Always));
    }
    let mut setup = crate::Editor::from_arg(text)?.setup();
    if variant.is_some_and(|v| v.variant == crate::Variant::Crazyhouse) && setup.pockets.is_none() {
        setup.pockets = Some(Default::default());
    }
    Ok(setup)
}

/// The squares of one displayed row, left to right, as drawn with `flip`; row 0 is the top.
fn row_squares(row: u32, flip: bool) -> impl Iterator<Item = Square> {
    (0..8u32).map(move |col| display_square(row, col, flip))
}

/// The square shown in a row (0 = top) and column (0 = left).
fn display_square(row: u32, col: u32, flip: bool) -> Square {
    let (file, rank) = if flip { (7 - col, row) } else { (col, 7 - row) };
    Square::from_coords(File::new(file), Rank::new(rank))
}

/// The rank shown in a row (0 = top).
fn display_rank(row: u32, flip: bool) -> Rank {
    Rank::new(if flip { row } else { 7 - row })
}

/// The file shown in a column (0 = left).
fn display_file(col: u32, flip: bool) -> File {
    File::new(if flip { 7 - col } else { col })
}

/// The FEN of a setup for the LaTeX and HTML renderings. A setup that FEN cannot hold exactly
/// (castling rights off the back rank, Crazyhouse pockets) keeps what FEN can say.
fn fen_of(setup: &Setup) -> String {
    shakmaty::fen::Fen::try_from(setup.clone())
        .unwrap_or_else(|lossy| lossy.ignore())
        .to_string()
}

#[cfg(test)]
mod tests {
    use shakmaty::{Chess, FromSetup, san::San};

    use super::*;

    #[test]
    fn format_names_round_trip() {
        for format in RenderFormat::ALL {
            assert_eq!(format.name().parse::<RenderFormat>(), Ok(format));
            assert_eq!(format.to_string(), format.name());
        }
        assert_eq!("SVG".parse::<RenderFormat>(), Ok(RenderFormat::Svg));
        assert_eq!(
            "gif".parse::<RenderFormat>().unwrap_err().to_string(),
            "unknown rendering format `gif` (expected one of ascii, unicode, svg, png, latex, html)"
        );
    }

    #[test]
    fn display_squares_follow_flip() {
        assert_eq!(display_square(0, 0, false), Square::A8);
        assert_eq!(display_square(7, 7, false), Square::H1);
        assert_eq!(display_square(0, 0, true), Square::H1);
        assert_eq!(display_square(7, 7, true), Square::A8);
        assert_eq!(display_rank(0, true), Rank::First);
        assert_eq!(display_file(0, true), File::H);
        let top: Vec<_> = row_squares(0, false).collect();
        assert_eq!(top.first(), Some(&Square::A8));
        assert_eq!(top.last(), Some(&Square::H8));
    }

    #[test]
    fn last_move_of_castling_is_the_king_move() {
        let pos = Chess::from_setup(
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
                .parse::<shakmaty::fen::Fen>()
                .unwrap()
                .into_setup(),
            CastlingMode::Standard,
        )
        .unwrap();
        let m = "O-O-O".parse::<San>().unwrap().to_move(&pos).unwrap();
        assert_eq!(
            LastMove::from(&m),
            LastMove {
                from: Square::E1,
                to: Square::C1
            }
        );
        assert!(LastMove::from(&m).contains(Square::C1));
        assert!(!LastMove::from(&m).contains(Square::A1));
    }

    #[test]
    fn diagrams_of_position_arguments() {
        assert_eq!(diagram_setup("startpos", None).unwrap(), Setup::initial());
        assert_eq!(
            diagram_setup(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                None
            )
            .unwrap(),
            Setup::initial()
        );
        assert!(diagram_setup("rnbqkbnr/ppp", None).is_err());
        // Illegal positions are drawn too.
        let empty = diagram_setup("8/8/8/8/8/8/8/8", None).unwrap();
        assert_eq!(empty.board.occupied().count(), 0);
        let zh = crate::parse_variant("crazyhouse").unwrap();
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(
            diagram_setup(fen, Some(zh)).unwrap().pockets,
            Some(Default::default())
        );
        let horde = crate::parse_variant("horde").unwrap();
        assert_eq!(
            diagram_setup("startpos", Some(horde)).unwrap().pockets,
            None
        );
    }

    #[test]
    fn last_move_from_uci() {
        let drop: UciMove = "Q@f7".parse().unwrap();
        assert_eq!(
            LastMove::from_uci(&drop),
            Some(LastMove {
                from: Square::F7,
                to: Square::F7
            })
        );
        assert_eq!(LastMove::from_uci(&UciMove::Null), None);
    }

    #[test]
    fn png_size_error_message() {
        assert_eq!(
            RenderError::InvalidSize(5).to_string(),
            "invalid image size 5 (expected 16 to 4096 pixels)"
        );
    }
}
