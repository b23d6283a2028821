//! Text diagrams: ASCII in the style of Games::Chess's `to_text`, and Unicode figurines.

use shakmaty::{Color, Piece, Role, Setup, Square};

use super::{RenderOptions, display_file, display_rank, row_squares};

/// An ASCII diagram in the style of Games::Chess's `to_text`: one line per rank, squares
/// separated by a space, pieces as FEN letters, empty dark squares `.` and empty light squares
/// a space. With coordinates (off by default) each rank starts with its digit and a last line
/// names the files. `flip` turns the board; the last move is not shown.
///
/// ```
/// use tabia_position::{RenderOptions, render_ascii, shakmaty::Setup};
///
/// let text = render_ascii(&Setup::initial(), &RenderOptions::default());
/// assert_eq!(
///     text,
///     "r n b q k b n r\n\
///      p p p p p p p p\n  \
///      .   .   .   .\n\
///      .   .   .   .  \n  \
///      .   .   .   .\n\
///      .   .   .   .  \n\
///      P P P P P P P P\n\
///      R N B Q K B N R\n"
/// );
/// ```
pub fn render_ascii(setup: &Setup, options: &RenderOptions) -> String {
    diagram(
        setup,
        options,
        options.coordinates_or(false),
        |square, piece| match piece {
            Some(piece) => piece.char(),
            None if square.is_dark() => '.',
            None => ' ',
        },
    )
}

/// A Unicode diagram with figurines (♔♕♖♗♘♙ for White, ♚♛♜♝♞♟ for Black), empty dark
/// squares `·` and empty light squares a space, with rank and file labels unless
/// `coordinates` is `Some(false)`. `flip` turns the board; the last move is not shown.
///
/// ```
/// use tabia_position::{RenderOptions, render_unicode, shakmaty::Setup};
///
/// let text = render_unicode(&Setup::initial(), &RenderOptions::default());
/// assert!(text.starts_with("8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜\n"));
/// assert!(text.ends_with("1 ♖ ♘ ♗ ♕ ♔ ♗ ♘ ♖\n  a b c d e f g h\n"));
/// ```
pub fn render_unicode(setup: &Setup, options: &RenderOptions) -> String {
    diagram(
        setup,
        options,
        options.coordinates_or(true),
        |square, piece| match piece {
            Some(piece) => figurine(piece),
            None if square.is_dark() => '·',
            None => ' ',
        },
    )
}

/// The Unicode chess symbol of a piece.
pub(super) fn figurine(piece: Piece) -> char {
    match (piece.color, piece.role) {
        (Color::White, Role::King) => '♔',
        (Color::White, Role::Queen) => '♕',
        (Color::White, Role::Rook) => '♖',
        (Color::White, Role::Bishop) => '♗',
        (Color::White, Role::Knight) => '♘',
        (Color::White, Role::Pawn) => '♙',
        (Color::Black, Role::King) => '♚',
        (Color::Black, Role::Queen) => '♛',
        (Color::Black, Role::Rook) => '♜',
        (Color::Black, Role::Bishop) => '♝',
        (Color::Black, Role::Knight) => '♞',
        (Color::Black, Role::Pawn) => '♟',
    }
}

/// Eight lines of eight cells separated by spaces, each cell drawn by `cell`; with
/// coordinates, a rank digit and a space before each line and a line of file letters below.
fn diagram(
    setup: &Setup,
    options: &RenderOptions,
    coordinates: bool,
    cell: impl Fn(Square, Option<Piece>) -> char,
) -> String {
    let mut out = String::with_capacity(if coordinates { 256 } else { 160 });
    // Crazyhouse: the pocket of the side drawn at the top above the board, the other's below.
    let (top, bottom) = if options.flip {
        (Color::White, Color::Black)
    } else {
        (Color::Black, Color::White)
    };
    pocket_line(&mut out, setup, top, &cell);
    for row in 0..8 {
        if coordinates {
            out.push(display_rank(row, options.flip).char());
            out.push(' ');
        }
        for (col, square) in row_squares(row, options.flip).enumerate() {
            if col > 0 {
                out.push(' ');
            }
            out.push(cell(square, setup.board.piece_at(square)));
        }
        out.push('\n');
    }
    if coordinates {
        out.push(' ');
        for col in 0..8 {
            out.push(' ');
            out.push(display_file(col, options.flip).char());
        }
        out.push('\n');
    }
    pocket_line(&mut out, setup, bottom, &cell);
    out
}

/// `[q p p]`: the pieces in `color`'s Crazyhouse pocket, queens first, each drawn by `cell`
/// (`[]` when empty); nothing when the position has no pockets.
fn pocket_line(
    out: &mut String,
    setup: &Setup,
    color: Color,
    cell: &impl Fn(Square, Option<Piece>) -> char,
) {
    let Some(pockets) = &setup.pockets else {
        return;
    };
    out.push('[');
    let mut first = true;
    for role in Role::ALL.into_iter().rev() {
        for _ in 0..*pockets.get(color).get(role) {
            if !first {
                out.push(' ');
            }
            first = false;
            out.push(cell(Square::A1, Some(role.of(color))));
        }
    }
    out.push_str("]\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(fen: &str) -> Setup {
        fen.parse::<shakmaty::fen::Fen>().unwrap().into_setup()
    }

    #[test]
    fn ascii_start_position_is_games_chess_to_text() {
        let expected = "r n b q k b n r\n\
                        p p p p p p p p\n\
                        \x20 .   .   .   .\n\
                        .   .   .   .  \n\
                        \x20 .   .   .   .\n\
                        .   .   .   .  \n\
                        P P P P P P P P\n\
                        R N B Q K B N R\n";
        assert_eq!(
            render_ascii(&Setup::initial(), &RenderOptions::default()),
            expected
        );
    }

    #[test]
    fn ascii_with_coordinates_and_flip() {
        let options = RenderOptions {
            flip: true,
            coordinates: Some(true),
            ..RenderOptions::default()
        };
        let text = render_ascii(&setup("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"), &options);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 9);
        // Flipped: rank 1 on top, read from h1 to a1.
        assert_eq!(lines[0], "1   .   K   .   R");
        assert_eq!(lines[7], "8 .   . k .   .  ");
        assert_eq!(lines[8], "  h g f e d c b a");
    }

    #[test]
    fn unicode_without_coordinates() {
        let options = RenderOptions {
            coordinates: Some(false),
            ..RenderOptions::default()
        };
        let text = render_unicode(&setup("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), &options);
        assert_eq!(text.lines().next(), Some("  ·   · ♚ ·   ·"));
        assert_eq!(text.lines().count(), 8);
    }

    #[test]
    fn crazyhouse_pockets_above_and_below() {
        let zh = "rnb1kbnr/ppp1pppp/8/8/8/2N5/RPPP1PPP/2BQKBNR[QPpp] b Kkq - 0 4";
        let text = render_ascii(&setup(zh), &RenderOptions::default());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 10);
        assert_eq!(lines[0], "[p p]");
        assert_eq!(lines[9], "[Q P]");
        let flipped = RenderOptions {
            flip: true,
            ..RenderOptions::default()
        };
        let text = render_unicode(&setup(zh), &flipped);
        assert!(text.starts_with("[♕ ♙]\n"), "{text}");
        assert!(text.ends_with("[♟ ♟]\n"), "{text}");
    }

    #[test]
    fn every_figurine_is_distinct() {
        let mut seen = std::collections::HashSet::new();
        for color in Color::ALL {
            for role in Role::ALL {
                assert!(seen.insert(figurine(Piece { color, role })));
            }
        }
    }
}
