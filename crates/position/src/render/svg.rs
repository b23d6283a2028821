//! The SVG board: squares, our own piece drawings, coordinates drawn as paths.
//!
//! The image is laid out in board units: a square is 100 units, the board 800, and with
//! coordinates a 40-unit frame surrounds it (rank digits on the left, file letters below).
//! Nothing is text: labels are stroked paths, so any rasteriser draws the same picture without
//! fonts.

use std::fmt::Write as _;

use shakmaty::{Color, File, Piece, Rank, Role, Setup};

use super::{RenderOptions, display_file, display_rank, display_square};

/// Side of a square in board units.
const SQUARE: u32 = 100;
/// Width of the frame holding the coordinates, in board units.
const MARGIN: u32 = 40;
/// Height of a Crazyhouse pocket strip (above and below the board), in board units.
pub(super) const POCKET: u32 = 60;
/// Largest side of a piece in a pocket strip, in board units.
const POCKET_PIECE: u32 = 50;

/// Colour of the light squares.
pub(super) const LIGHT: &str = "#eadcc2";
/// Colour of the dark squares.
pub(super) const DARK: &str = "#a9825f";
/// Colour of a light square of the last move.
pub(super) const LAST_LIGHT: &str = "#efdc83";
/// Colour of a dark square of the last move.
pub(super) const LAST_DARK: &str = "#c8a94a";
/// Colour of the frame around the board.
pub(super) const FRAME: &str = "#2d2b28";
/// Colour of the coordinates on the frame.
pub(super) const LABEL: &str = "#e9e2d3";
/// Colour of the Crazyhouse pocket strips.
pub(super) const POCKET_FILL: &str = "#d6cdbb";
/// Outline of every piece, and body of the black ones.
const INK: &str = "#1d1d1d";
/// Body of the white pieces.
const PAPER: &str = "#fbfaf6";
/// Inner lines of the black pieces.
const BLACK_DETAIL: &str = "#d9d6cf";

/// An SVG image of the board: light and dark squares, the pieces, the last move highlighted,
/// rank and file labels on a frame with a disc in the colour of the side to move beside its
/// back rank (unless `coordinates` is `Some(false)`), turned with `flip`. `size` sets the width and height in pixels; the `viewBox` keeps it scalable.
///
/// A Crazyhouse position (a setup with pockets) gets a strip above the board with the pocket
/// of the side drawn at the top (Black's, White's with `flip`) and one below with the other's:
/// each piece in hand drawn once, queens first, smaller than on the board; an empty pocket
/// is an empty strip. The image is then taller than wide ([`svg_height`] units for
/// [`svg_width`]), and `size` sets its width.
///
/// The piece drawings are this project's own. Labels are paths, not text, so the image needs
/// no fonts and [`render_png`](crate::render_png) draws it exactly.
///
/// ```
/// use tabia_position::{RenderOptions, render_svg, shakmaty::Setup};
///
/// let svg = render_svg(&Setup::initial(), &RenderOptions::default());
/// assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
/// assert!(svg.contains("viewBox=\"0 0 880 880\""));
/// assert!(!svg.contains("<text"));
/// ```
pub fn render_svg(setup: &Setup, options: &RenderOptions) -> String {
    let coordinates = options.coordinates_or(true);
    let margin = if coordinates { MARGIN } else { 0 };
    let extent = svg_width(options);
    let height = svg_height(setup, options);
    let mut svg = String::with_capacity(16 * 1024);

    // Writing to a String cannot fail: the results of `write!` are ignored below.
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
         width=\"{size}\" height=\"{pixels}\" viewBox=\"0 0 {extent} {height}\">",
        size = options.size,
        pixels = pixel_height(setup, options)
    );

    // Piece drawings, each once, in a fixed order.
    svg.push_str("<defs>\n");
    for color in Color::ALL {
        for role in Role::ALL {
            let piece = Piece { color, role };
            let in_pocket = setup
                .pockets
                .as_ref()
                .is_some_and(|p| *p.get(color).get(role) > 0);
            if setup.board.by_piece(piece).any() || in_pocket {
                write_piece_def(&mut svg, piece);
            }
        }
    }
    svg.push_str("</defs>\n");

    // Crazyhouse: the pockets on strips above and below, the board between them.
    if let Some(pockets) = &setup.pockets {
        let (top, bottom) = if options.flip {
            (Color::White, Color::Black)
        } else {
            (Color::Black, Color::White)
        };
        for (color, y) in [(top, 0), (bottom, POCKET + extent)] {
            let _ = writeln!(
                svg,
                "<rect y=\"{y}\" width=\"{extent}\" height=\"{POCKET}\" fill=\"{POCKET_FILL}\"/>"
            );
            let pieces: Vec<Piece> = Role::ALL
                .into_iter()
                .rev()
                .flat_map(|role| {
                    let n = *pockets.get(color).get(role);
                    std::iter::repeat_n(Piece { color, role }, usize::from(n))
                })
                .collect();
            let count = u32::try_from(pieces.len()).unwrap_or(u32::MAX).max(1);
            let side = POCKET_PIECE.min((extent - 2 * POCKET_PAD) / count);
            for (i, piece) in (0u32..).zip(pieces) {
                let x = POCKET_PAD + i * side;
                let top = y + (POCKET - side) / 2;
                let _ = writeln!(
                    svg,
                    "<use xlink:href=\"#{id}\" transform=\"translate({x} {top}) scale({scale})\"/>",
                    id = piece_id(piece),
                    scale = f64::from(side) / f64::from(SQUARE)
                );
            }
        }
        let _ = writeln!(svg, "<g transform=\"translate(0 {POCKET})\">");
    }

    if coordinates {
        let _ = writeln!(
            svg,
            "<rect width=\"{extent}\" height=\"{extent}\" fill=\"{FRAME}\"/>"
        );
    }
    let _ = writeln!(
        svg,
        "<rect x=\"{margin}\" y=\"{margin}\" width=\"{board}\" height=\"{board}\" fill=\"{LIGHT}\"/>",
        board = 8 * SQUARE
    );

    // All dark squares as one path.
    let _ = write!(svg, "<path fill=\"{DARK}\" d=\"");
    for row in 0..8 {
        for col in 0..8 {
            if display_square(row, col, options.flip).is_dark() {
                let (x, y) = (margin + col * SQUARE, margin + row * SQUARE);
                let _ = write!(svg, "M{x} {y}h{SQUARE}v{SQUARE}h-{SQUARE}z");
            }
        }
    }
    svg.push_str("\"/>\n");

    if let Some(last_move) = options.last_move {
        for row in 0..8 {
            for col in 0..8 {
                let square = display_square(row, col, options.flip);
                if last_move.contains(square) {
                    let fill = if square.is_dark() {
                        LAST_DARK
                    } else {
                        LAST_LIGHT
                    };
                    let (x, y) = (margin + col * SQUARE, margin + row * SQUARE);
                    let _ = writeln!(
                        svg,
                        "<rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{fill}\"/>"
                    );
                }
            }
        }
    }

    if coordinates {
        let _ = writeln!(
            svg,
            "<g fill=\"none\" stroke=\"{LABEL}\" stroke-width=\"1.15\" stroke-linecap=\"round\" stroke-linejoin=\"round\">"
        );
        for row in 0..8 {
            let glyph = rank_glyph(display_rank(row, options.flip));
            let (x, y) = (
                (MARGIN - GLYPH_SCALE * GLYPH_WIDTH) / 2,
                margin + row * SQUARE + (SQUARE - GLYPH_SCALE * GLYPH_HEIGHT) / 2,
            );
            let _ = writeln!(
                svg,
                "<path transform=\"translate({x} {y}) scale({GLYPH_SCALE})\" d=\"{glyph}\"/>"
            );
        }
        for col in 0..8 {
            let glyph = file_glyph(display_file(col, options.flip));
            let (x, y) = (
                margin + col * SQUARE + (SQUARE - GLYPH_SCALE * GLYPH_WIDTH) / 2,
                margin + 8 * SQUARE + (MARGIN - GLYPH_SCALE * GLYPH_HEIGHT) / 2,
            );
            let _ = writeln!(
                svg,
                "<path transform=\"translate({x} {y}) scale({GLYPH_SCALE})\" d=\"{glyph}\"/>"
            );
        }
        svg.push_str("</g>\n");

        // The side to move: a disc in its colour on the frame, level with its own back rank.
        let at_bottom = (setup.turn == Color::White) != options.flip;
        let y = if at_bottom {
            margin + 8 * SQUARE - SQUARE / 2
        } else {
            margin + SQUARE / 2
        };
        let (fill, stroke) = match setup.turn {
            Color::White => (PAPER, INK),
            Color::Black => (INK, LABEL),
        };
        let _ = writeln!(
            svg,
            "<circle cx=\"{x}\" cy=\"{y}\" r=\"11\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"2\"/>",
            x = margin + 8 * SQUARE + MARGIN / 2
        );
    }

    for row in 0..8 {
        for col in 0..8 {
            if let Some(piece) = setup.board.piece_at(display_square(row, col, options.flip)) {
                let (x, y) = (margin + col * SQUARE, margin + row * SQUARE);
                let _ = writeln!(
                    svg,
                    "<use xlink:href=\"#{id}\" x=\"{x}\" y=\"{y}\"/>",
                    id = piece_id(piece)
                );
            }
        }
    }

    if setup.pockets.is_some() {
        svg.push_str("</g>\n");
    }
    svg.push_str("</svg>\n");
    svg
}

/// Space before the first piece of a pocket strip, in board units.
const POCKET_PAD: u32 = 10;

/// The width of [`render_svg`]'s image in board units: 800, 880 with coordinates.
pub fn svg_width(options: &RenderOptions) -> u32 {
    let margin = if options.coordinates_or(true) {
        MARGIN
    } else {
        0
    };
    8 * SQUARE + 2 * margin
}

/// The height of [`render_svg`]'s image in board units: its width, and two pocket strips of
/// 60 more for a Crazyhouse position.
///
/// ```
/// use tabia_position::{RenderOptions, shakmaty::fen::Fen, svg_height, svg_width};
///
/// let options = RenderOptions::default();
/// let zh = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1".parse::<Fen>()?;
/// assert_eq!((svg_width(&options), svg_height(&zh.into_setup(), &options)), (880, 1000));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn svg_height(setup: &Setup, options: &RenderOptions) -> u32 {
    svg_width(options)
        + if setup.pockets.is_some() {
            2 * POCKET
        } else {
            0
        }
}

/// The height in pixels of an image `options.size` pixels wide: the same for a square board,
/// in proportion with pockets.
pub(super) fn pixel_height(setup: &Setup, options: &RenderOptions) -> u32 {
    let (w, h) = (svg_width(options), svg_height(setup, options));
    ((u64::from(options.size) * u64::from(h) + u64::from(w) / 2) / u64::from(w)) as u32
}

/// The id of a piece drawing in `<defs>`: `w` or `b`, then the uppercase role letter.
fn piece_id(piece: Piece) -> String {
    format!("{}{}", piece.color.char(), piece.role.upper_char())
}

/// One part of a piece drawing, in the 100-unit square of the piece.
enum Part {
    /// A closed shape: filled with the piece's body colour, outlined in ink.
    Shape(&'static str),
    /// An inner line: ink on white pieces, light on black ones.
    Line(&'static str),
    /// A small filled mark (an eye): ink on white pieces, light on black ones.
    Mark(&'static str),
}

/// The plinth every piece stands on.
const PLINTH: &str = "M24 87H76V81Q76 76 71 76H29Q24 76 24 81Z";

/// The drawing of each role, back to front.
fn parts(role: Role) -> &'static [Part] {
    use Part::{Line, Mark, Shape};
    match role {
        Role::Pawn => &[
            Shape("M34 76C36 64 41 56 45 50H55C59 56 64 64 66 76Z"),
            Shape("M27 87H73V82Q73 76 67 76H33Q27 76 27 82Z"),
            Shape("M37 49Q37 44 43 44H57Q63 44 63 49Q63 54 57 54H43Q37 54 37 49Z"),
            Shape("M38 31A12 12 0 1 1 62 31A12 12 0 1 1 38 31Z"),
            Line("M42 54H58"),
            Line("M36 76H64"),
        ],
        Role::Knight => &[
            Shape(
                "M33 76C35 64 41 58 47 52C40 56 34 61 29 60C24 59 19 56 20 51C21 47 26 44 32 38\
                 C37 32 42 26 46 21L50 11L56 19C68 24 77 38 77 52C77 62 75 70 74 76Z",
            ),
            Shape(PLINTH),
            Line("M57 21C67 29 71 42 70 62"),
            Line("M37 76H71"),
            Mark("M39.5 31A2.6 2.6 0 1 1 44.7 31A2.6 2.6 0 1 1 39.5 31Z"),
            Mark("M23.6 51A1.6 1.6 0 1 1 26.8 51A1.6 1.6 0 1 1 23.6 51Z"),
        ],
        Role::Bishop => &[
            Shape("M40 63L35 76H65L60 63Z"),
            Shape(PLINTH),
            Shape("M35 56H65Q67 62 62 63H38Q33 62 35 56Z"),
            Shape("M50 18C62 28 68 42 62 56H38C32 42 38 28 50 18Z"),
            Shape("M45 13A5 5 0 1 1 55 13A5 5 0 1 1 45 13Z"),
            Line("M55 31L46 42"),
            Line("M38 56H62"),
            Line("M40 63H60"),
            Line("M38 76H62"),
        ],
        Role::Rook => &[
            Shape("M33 40H67L65 70H35Z"),
            Shape("M28 20H37V27H45V20H55V27H63V20H72V34L67 40H33L28 34Z"),
            Shape("M31 70H69V76H31Z"),
            Shape(PLINTH),
            Line("M31 34H69"),
            Line("M36 40H64"),
            Line("M35 70H65"),
            Line("M31 76H69"),
        ],
        Role::Queen => &[
            Shape("M30 68L22 30L35 50L36 24L45 48L50 20L55 48L64 24L65 50L78 30L70 68Z"),
            Shape("M18 28A4 4 0 1 1 26 28A4 4 0 1 1 18 28Z"),
            Shape("M32 22A4 4 0 1 1 40 22A4 4 0 1 1 32 22Z"),
            Shape("M46 18A4 4 0 1 1 54 18A4 4 0 1 1 46 18Z"),
            Shape("M60 22A4 4 0 1 1 68 22A4 4 0 1 1 60 22Z"),
            Shape("M74 28A4 4 0 1 1 82 28A4 4 0 1 1 74 28Z"),
            Shape("M29 68H71V76H29Z"),
            Shape(PLINTH),
            Line("M32 61H68"),
            Line("M32 68H68"),
            Line("M31 76H69"),
        ],
        Role::King => &[
            Shape("M47 8H53V14H59V20H53V27H47V20H41V14H47Z"),
            Shape(
                "M29 68C18 54 22 38 36 38C43 38 48 43 50 48C52 43 57 38 64 38C78 38 82 54 71 68Z",
            ),
            Shape("M50 48C45 41 45 32 50 27C55 32 55 41 50 48Z"),
            Shape("M29 68H71V76H29Z"),
            Shape(PLINTH),
            Line("M32 61H68"),
            Line("M32 68H68"),
            Line("M31 76H69"),
        ],
    }
}

/// Writes the `<g id=…>` drawing of a piece.
fn write_piece_def(svg: &mut String, piece: Piece) {
    write_piece(svg, piece, Some(&piece_id(piece)));
}

/// Writes the drawing of a piece in its 100-unit square: a `<g>` (with the `id` given), the
/// one drawing the SVG and PNG boards and the HTML board's squares use.
pub(super) fn write_piece(svg: &mut String, piece: Piece, id: Option<&str>) {
    let (body, detail) = match piece.color {
        Color::White => (PAPER, INK),
        Color::Black => (INK, BLACK_DETAIL),
    };
    let id = id.map_or_else(String::new, |id| format!(" id=\"{id}\""));
    let _ = writeln!(
        svg,
        "<g{id} stroke=\"{INK}\" stroke-width=\"3\" stroke-linecap=\"round\" stroke-linejoin=\"round\">",
    );
    for part in parts(piece.role) {
        let _ = match part {
            Part::Shape(d) => writeln!(svg, "<path fill=\"{body}\" d=\"{d}\"/>"),
            Part::Line(d) => writeln!(svg, "<path fill=\"none\" stroke=\"{detail}\" d=\"{d}\"/>"),
            Part::Mark(d) => writeln!(svg, "<path fill=\"{detail}\" stroke=\"none\" d=\"{d}\"/>"),
        };
    }
    svg.push_str("</g>\n");
}

/// Width of a coordinate glyph in glyph units.
const GLYPH_WIDTH: u32 = 6;
/// Height of a coordinate glyph (cap and ascender height; `g` descends below) in glyph units.
const GLYPH_HEIGHT: u32 = 10;
/// Board units per glyph unit.
const GLYPH_SCALE: u32 = 2;

/// The stroked path of a rank digit, in a 6 × 10 box (baseline at 10).
fn rank_glyph(rank: Rank) -> &'static str {
    match rank {
        Rank::First => "M1.2 2.2L3.6 0V10M1.2 10H6",
        Rank::Second => "M0.4 2.6Q0.4 0 3 0Q5.6 0 5.6 2.6Q5.6 4.5 3 6.6L0.3 10H5.8",
        Rank::Third => {
            "M0.4 1.2Q1.4 0 3 0Q5.5 0 5.5 2.5Q5.5 4.8 2.4 4.8Q5.8 4.8 5.8 7.4Q5.8 10 3 10Q1.2 10 0.3 8.8"
        }
        Rank::Fourth => "M4.4 10V0L0.2 7H6",
        Rank::Fifth => {
            "M5.5 0H1.1L0.6 4.4Q1.6 3.6 3 3.6Q5.8 3.6 5.8 6.8Q5.8 10 2.8 10Q1.2 10 0.3 9"
        }
        Rank::Sixth => {
            "M5.1 0.7Q4.2 0 3 0Q0.2 0 0.2 5.4V6.8Q0.2 10 3 10Q5.8 10 5.8 6.8Q5.8 3.8 3 3.8Q0.8 3.8 0.2 6"
        }
        Rank::Seventh => "M0.2 0H5.8L2.2 10",
        Rank::Eighth => {
            "M0.7 2.4A2.3 2.4 0 1 1 5.3 2.4A2.3 2.4 0 1 1 0.7 2.4ZM0.2 7.3A2.8 2.7 0 1 0 5.8 7.3A2.8 2.7 0 1 0 0.2 7.3Z"
        }
    }
}

/// The stroked path of a file letter, in a 6 × 10 box (x-height 4 to 10; `g` descends to 13.5).
fn file_glyph(file: File) -> &'static str {
    match file {
        File::A => "M5 4.2V10M5 7A2.5 3 0 0 0 0 7A2.5 3 0 0 0 5 7",
        File::B => "M0.5 0V10M0.5 7A2.5 3 0 0 1 5.5 7A2.5 3 0 0 1 0.5 7",
        File::C => "M5.2 5A2.8 3 0 1 0 5.2 9",
        File::D => "M5.5 0V10M5.5 7A2.5 3 0 0 0 0.5 7A2.5 3 0 0 0 5.5 7",
        File::E => "M0.3 7H5.5A2.6 3 0 1 0 4.8 9",
        File::F => "M5.2 0.8Q4.4 0 3.4 0Q2 0 2 2V10M0.4 4.4H4.6",
        File::G => {
            "M5 4.2V11Q5 13.5 2.6 13.5Q1.1 13.5 0.4 12.4M5 7A2.5 3 0 0 0 0 7A2.5 3 0 0 0 5 7"
        }
        File::H => "M0.5 0V10M0.5 6.6Q0.5 4 3 4Q5.5 4 5.5 6.6V10",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_used_pieces_are_defined() {
        let setup = "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_setup();
        let svg = render_svg(&setup, &RenderOptions::default());
        assert_eq!(svg.matches("<g id=").count(), 3);
        assert!(svg.contains("<g id=\"wK\""));
        assert!(svg.contains("<g id=\"wR\""));
        assert!(svg.contains("<g id=\"bK\""));
        assert_eq!(svg.matches("<use ").count(), 3);
    }

    #[test]
    fn no_coordinates_means_no_frame() {
        let options = RenderOptions {
            coordinates: Some(false),
            size: 123,
            ..RenderOptions::default()
        };
        let svg = render_svg(&Setup::initial(), &options);
        assert!(svg.contains("width=\"123\" height=\"123\" viewBox=\"0 0 800 800\""));
        assert!(!svg.contains(FRAME));
        assert!(!svg.contains("scale("));
    }

    #[test]
    fn thirty_two_dark_squares() {
        let svg = render_svg(&Setup::empty(), &RenderOptions::default());
        assert_eq!(svg.matches("h100v100h-100z").count(), 32);
        assert_eq!(svg.matches("<use ").count(), 0);
    }

    fn crazyhouse(fen: &str) -> Setup {
        fen.parse::<shakmaty::fen::Fen>().unwrap().into_setup()
    }

    #[test]
    fn crazyhouse_pockets_on_strips_above_and_below() {
        // White holds a queen and a knight, Black two pawns; the black queen is only in hand
        // nowhere: her drawing is not defined, the white queen's is (on the board and in hand).
        let setup =
            crazyhouse("r1b1kbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[QNpp] w KQkq - 0 4");
        let svg = render_svg(&setup, &RenderOptions::default());
        assert!(svg.contains("width=\"400\" height=\"455\" viewBox=\"0 0 880 1000\""));
        let pockets = format!(
            "<rect y=\"0\" width=\"880\" height=\"60\" fill=\"{POCKET_FILL}\"/>\n\
             <use xlink:href=\"#bP\" transform=\"translate(10 5) scale(0.5)\"/>\n\
             <use xlink:href=\"#bP\" transform=\"translate(60 5) scale(0.5)\"/>\n\
             <rect y=\"940\" width=\"880\" height=\"60\" fill=\"{POCKET_FILL}\"/>\n\
             <use xlink:href=\"#wQ\" transform=\"translate(10 945) scale(0.5)\"/>\n\
             <use xlink:href=\"#wN\" transform=\"translate(60 945) scale(0.5)\"/>\n\
             <g transform=\"translate(0 60)\">\n"
        );
        assert!(svg.contains(&pockets), "{svg}");
        assert!(svg.ends_with("</g>\n</svg>\n"));
        assert!(!svg.contains("id=\"bQ\""));
        // Flipped, White's pocket is on top; an empty pocket is an empty strip.
        let setup = crazyhouse("4k3/8/8/8/8/8/8/4K3[Q] b - - 0 1");
        let flipped = RenderOptions {
            flip: true,
            coordinates: Some(false),
            size: 800,
            ..RenderOptions::default()
        };
        let svg = render_svg(&setup, &flipped);
        assert!(svg.contains("width=\"800\" height=\"920\" viewBox=\"0 0 800 920\""));
        assert!(svg.contains(&format!(
            "<rect y=\"0\" width=\"800\" height=\"60\" fill=\"{POCKET_FILL}\"/>\n\
             <use xlink:href=\"#wQ\" transform=\"translate(10 5) scale(0.5)\"/>\n\
             <rect y=\"860\" width=\"800\" height=\"60\" fill=\"{POCKET_FILL}\"/>\n\
             <g transform=\"translate(0 60)\">\n"
        )));
        // Many pieces in hand get smaller to fit the strip.
        let setup = crazyhouse("4k3/8/8/8/8/8/8/4K3[PPPPPPPPPPPPPPPPPPPP] w - - 0 1");
        let svg = render_svg(&setup, &RenderOptions::default());
        assert_eq!(svg.matches("scale(0.43)").count(), 20, "{svg}");
        assert!(svg.contains("translate(827 948) scale(0.43)"));
        // No pockets, no strips.
        assert!(!render_svg(&Setup::initial(), &RenderOptions::default()).contains(POCKET_FILL));
    }
}
