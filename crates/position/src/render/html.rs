//! Self-contained HTML: a table with inline styles whose pieces are the SVG board's drawings.

use std::fmt::Write as _;

use shakmaty::{Color, Piece, Role, Setup};

use super::{
    RenderOptions, display_file, display_rank, fen_of,
    latex::role_name,
    row_squares,
    svg::{DARK, FRAME, LAST_DARK, LAST_LIGHT, LIGHT, POCKET_FILL, write_piece},
};

/// Style of the table.
const TABLE_STYLE: &str = "border-collapse:collapse;border-spacing:0";
/// Style of a square (its background colour is added).
const SQUARE_STYLE: &str = "width:48px;height:48px;padding:0;text-align:center;\
     vertical-align:middle;line-height:0";
/// Style of a rank or file label.
const LABEL_STYLE: &str = "padding:0 6px;font:bold 14px sans-serif;color:#555;text-align:center";
/// Style of a Crazyhouse pocket row (its pieces, drawn small).
const POCKET_STYLE: &str = "height:34px;padding:0 6px;text-align:left;line-height:0";
/// Style of the caption naming the side to move.
const CAPTION_STYLE: &str = "caption-side:bottom;padding-top:6px;font:14px sans-serif;color:#333";

/// Self-contained HTML showing the board: a `<table>` whose pieces are the drawings of
/// [`render_svg`](crate::render_svg) as inline SVG (no font decides how they look: white
/// pieces are white on every square), and whose styles are all inline (no stylesheet, no
/// image files, no script), with rank and file labels unless
/// `coordinates` is `Some(false)`, the last move highlighted, a caption naming the side to move
/// and the FEN as the table's accessible label. With `standalone` the table is wrapped in a
/// complete UTF-8 page.
///
/// A Crazyhouse position (a setup with pockets) gets a row above the board with the pieces in
/// the pocket of the side drawn at the top (Black's, White's with `flip`), queens first, and
/// one below with the other's, each titled (`Black's pocket: q p p`, `White's pocket: empty`).
///
/// ```
/// use tabia_position::{RenderOptions, render_html, shakmaty::Setup};
///
/// let html = render_html(&Setup::initial(), &RenderOptions::default());
/// assert!(html.starts_with("<table "));
/// assert_eq!(html.matches("<svg ").count(), 32);
/// assert!(html.contains("aria-label=\"black king\""));
/// assert!(html.contains("<caption style=\"caption-side:bottom;"));
/// ```
pub fn render_html(setup: &Setup, options: &RenderOptions) -> String {
    let coordinates = options.coordinates_or(true);
    let fen = escape(&fen_of(setup));
    let mut html = String::with_capacity(12 * 1024);

    if options.standalone {
        let _ = write!(
            html,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <title>{fen}</title>\n</head>\n<body>\n"
        );
    }

    // Writing to a String cannot fail: the results of `write!` are ignored.
    let _ = writeln!(
        html,
        "<table style=\"{TABLE_STYLE};border:3px solid {FRAME}\" aria-label=\"{fen}\">"
    );
    let mover = match setup.turn {
        Color::White => "White to move",
        Color::Black => "Black to move",
    };
    let _ = writeln!(html, "<caption style=\"{CAPTION_STYLE}\">{mover}</caption>");
    let (top, bottom) = if options.flip {
        (Color::White, Color::Black)
    } else {
        (Color::Black, Color::White)
    };
    let columns = if coordinates { 9 } else { 8 };
    pocket_row(&mut html, setup, top, columns);
    for row in 0..8 {
        html.push_str("<tr>");
        if coordinates {
            let _ = write!(
                html,
                "<th style=\"{LABEL_STYLE}\">{}</th>",
                display_rank(row, options.flip).char()
            );
        }
        for square in row_squares(row, options.flip) {
            let last = options.last_move.is_some_and(|m| m.contains(square));
            let background = match (square.is_dark(), last) {
                (false, false) => LIGHT,
                (true, false) => DARK,
                (false, true) => LAST_LIGHT,
                (true, true) => LAST_DARK,
            };
            let _ = write!(
                html,
                "<td style=\"{SQUARE_STYLE};background:{background}\" title=\"{square}\">"
            );
            if let Some(piece) = setup.board.piece_at(square) {
                piece_svg(&mut html, piece, 44);
            }
            html.push_str("</td>");
        }
        html.push_str("</tr>\n");
    }
    if coordinates {
        html.push_str("<tr><th></th>");
        for col in 0..8 {
            let _ = write!(
                html,
                "<th style=\"{LABEL_STYLE};padding:4px 0\">{}</th>",
                display_file(col, options.flip).char()
            );
        }
        html.push_str("</tr>\n");
    }
    pocket_row(&mut html, setup, bottom, columns);
    html.push_str("</table>\n");

    if options.standalone {
        html.push_str("</body>\n</html>\n");
    }
    html
}

/// The row of `color`'s Crazyhouse pocket, one cell across the table; nothing without
/// pockets.
fn pocket_row(html: &mut String, setup: &Setup, color: Color, columns: u32) {
    let Some(pockets) = &setup.pockets else {
        return;
    };
    let mut letters = String::new();
    let mut pieces = String::new();
    for role in Role::ALL.into_iter().rev() {
        for _ in 0..*pockets.get(color).get(role) {
            letters.push(' ');
            letters.push(role.char());
            piece_svg(&mut pieces, Piece { color, role }, 30);
        }
    }
    if letters.is_empty() {
        letters.push_str(" empty");
    }
    let _ = writeln!(
        html,
        "<tr><td colspan=\"{columns}\" style=\"{POCKET_STYLE};background:{POCKET_FILL}\" \
         title=\"{color:?}'s pocket:{letters}\">{pieces}</td></tr>"
    );
}

/// A piece as an inline SVG image `size` pixels square, named for screen readers.
fn piece_svg(html: &mut String, piece: Piece, size: u32) {
    let color = match piece.color {
        Color::White => "white",
        Color::Black => "black",
    };
    let _ = write!(
        html,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 100 100\" width=\"{size}\" \
         height=\"{size}\" role=\"img\" aria-label=\"{color} {role}\">",
        role = role_name(piece.role)
    );
    let mut group = String::new();
    write_piece(&mut group, piece, None);
    // One line per cell: the drawing's own line ends are left out.
    html.push_str(&group.replace('\n', ""));
    html.push_str("</svg>");
}

/// Escapes text for HTML content and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use shakmaty::Square;

    use super::*;
    use crate::LastMove;

    fn pieces(pieces: &[Piece], size: u32) -> String {
        let mut html = String::new();
        for &piece in pieces {
            piece_svg(&mut html, piece, size);
        }
        html
    }

    #[test]
    fn pieces_are_the_svg_drawings_not_font_glyphs() {
        let html = render_html(&Setup::initial(), &RenderOptions::default());
        // No figurine from a font: none of U+2654..U+265F.
        assert!(!html.chars().any(|c| ('\u{2654}'..='\u{265F}').contains(&c)));
        assert_eq!(html.matches("<svg ").count(), 32);
        // White pieces have white bodies: the SVG board's paper colour, drawn on any square.
        let king = pieces(
            &[Piece {
                color: Color::White,
                role: Role::King,
            }],
            44,
        );
        assert!(king.contains("fill=\"#fbfaf6\""), "{king}");
        let mut svg = String::new();
        write_piece(
            &mut svg,
            Piece {
                color: Color::White,
                role: Role::King,
            },
            None,
        );
        assert!(king.contains(&svg.replace('\n', "")));
        assert!(html.contains(&format!("title=\"e1\">{king}</td>")));
    }

    #[test]
    fn escape_special_characters() {
        assert_eq!(escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
    }

    #[test]
    fn standalone_page_with_last_move() {
        let options = RenderOptions {
            standalone: true,
            coordinates: Some(false),
            last_move: Some(LastMove {
                from: Square::E2,
                to: Square::E4,
            }),
            ..RenderOptions::default()
        };
        let html = render_html(&Setup::initial(), &options);
        assert!(html.starts_with("<!DOCTYPE html>\n"));
        assert!(html.ends_with("</table>\n</body>\n</html>\n"));
        assert!(!html.contains("<th"));
        assert_eq!(html.matches("<td ").count(), 64);
        // e2 is light, e4 is light.
        assert_eq!(html.matches(LAST_LIGHT).count(), 2);
        assert_eq!(html.matches(LAST_DARK).count(), 0);
    }

    #[test]
    fn crazyhouse_pockets_above_and_below() {
        let setup = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[QNpp] w KQkq - 0 4"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_setup();
        let html = render_html(&setup, &RenderOptions::default());
        let rows: Vec<&str> = html.lines().filter(|l| l.starts_with("<tr>")).collect();
        assert_eq!(rows.len(), 11);
        assert_eq!(
            rows[0],
            format!(
                "<tr><td colspan=\"9\" style=\"{POCKET_STYLE};background:{POCKET_FILL}\" \
                 title=\"Black's pocket: p p\">{}</td></tr>",
                pieces(
                    &[Piece {
                        color: Color::Black,
                        role: Role::Pawn
                    }; 2],
                    30
                )
            )
        );
        assert_eq!(
            rows[10],
            format!(
                "<tr><td colspan=\"9\" style=\"{POCKET_STYLE};background:{POCKET_FILL}\" \
                 title=\"White's pocket: q n\">{}</td></tr>",
                pieces(
                    &[
                        Piece {
                            color: Color::White,
                            role: Role::Queen
                        },
                        Piece {
                            color: Color::White,
                            role: Role::Knight
                        }
                    ],
                    30
                )
            )
        );
        assert!(html.contains(
            "aria-label=\"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[NQpp] w KQkq - 0 4\""
        ));
        let mut empty = setup;
        empty.pockets = Some(Default::default());
        let flipped = render_html(
            &empty,
            &RenderOptions {
                flip: true,
                coordinates: Some(false),
                ..RenderOptions::default()
            },
        );
        assert!(flipped.contains("colspan=\"8\""));
        let pockets: Vec<&str> = flipped.lines().filter(|l| l.contains("pocket")).collect();
        assert_eq!(pockets.len(), 2);
        assert!(pockets[0].ends_with("title=\"White's pocket: empty\"></td></tr>"));
        assert!(pockets[1].ends_with("title=\"Black's pocket: empty\"></td></tr>"));
        assert!(!render_html(&Setup::initial(), &RenderOptions::default()).contains("pocket"));
    }
}
