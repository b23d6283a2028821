//! Renderings against the expected files in `fixtures/render/`: `<case>.fen` is the input,
//! `<case>.{txt,unicode.txt,svg,tex,html}` the expected ASCII, Unicode, SVG, LaTeX and HTML.
//! `TABIA_BLESS=1 cargo test -p tabia-position --test it render` rewrites the expected files.

use std::{fs, path::PathBuf};

use tabia_position::{
    EpRule, LastMove, Position, RenderFormat, RenderOptions, render,
    shakmaty::{Setup, Square, fen::Fen},
};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/render")
}

fn setup_of(case: &str) -> Setup {
    let path = fixtures().join(format!("{case}.fen"));
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.trim()
        .parse::<Fen>()
        .expect("fixture FEN")
        .into_setup()
}

/// The cases: a fixture name and the options it is rendered with.
fn cases() -> Vec<(&'static str, RenderOptions)> {
    vec![
        ("start", RenderOptions::default()),
        (
            // After 1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7.
            "ruy-lopez",
            RenderOptions {
                last_move: Some(LastMove {
                    from: Square::F8,
                    to: Square::E7,
                }),
                ..RenderOptions::default()
            },
        ),
        (
            "ruy-lopez-flipped",
            RenderOptions {
                flip: true,
                coordinates: Some(true),
                last_move: Some(LastMove {
                    from: Square::E1,
                    to: Square::G1,
                }),
                size: 256,
                standalone: true,
            },
        ),
        (
            "endgame-bare",
            RenderOptions {
                coordinates: Some(false),
                ..RenderOptions::default()
            },
        ),
    ]
}

const TEXT_FORMATS: [(RenderFormat, &str); 5] = [
    (RenderFormat::Ascii, "txt"),
    (RenderFormat::Unicode, "unicode.txt"),
    (RenderFormat::Svg, "svg"),
    (RenderFormat::Latex, "tex"),
    (RenderFormat::Html, "html"),
];

#[test]
fn text_renderings_match_expected_files() {
    for (case, options) in cases() {
        let setup = setup_of(case);
        for (format, ext) in TEXT_FORMATS {
            let actual = String::from_utf8(render(&setup, format, &options).unwrap()).unwrap();
            tabia_testkit::expect_file(&fixtures().join(format!("{case}.{ext}")), &actual);
        }
    }
}

#[test]
fn fixture_positions_are_the_games_they_name() {
    let mut pos = Position::new();
    assert_eq!(setup_of("start"), pos.setup(EpRule::Legal));
    for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"] {
        let m = pos.parse_move(san).unwrap();
        pos.play_unchecked(m);
    }
    assert_eq!(setup_of("ruy-lopez-flipped"), pos.setup(EpRule::Legal));
    let m = pos.parse_move("Be7").unwrap();
    pos.play_unchecked(m);
    assert_eq!(setup_of("ruy-lopez"), pos.setup(EpRule::Legal));
}

#[test]
fn ascii_start_position_is_the_games_chess_example() {
    // The example of Games::Chess's `to_text`, verbatim (trailing spaces included).
    let expected = [
        "r n b q k b n r",
        "p p p p p p p p",
        "  .   .   .   .",
        ".   .   .   .  ",
        "  .   .   .   .",
        ".   .   .   .  ",
        "P P P P P P P P",
        "R N B Q K B N R",
        "",
    ]
    .join("\n");
    assert_eq!(
        fs::read_to_string(fixtures().join("start.txt")).unwrap(),
        expected
    );
}

#[cfg(feature = "png")]
mod png {
    use resvg::tiny_skia::Pixmap;
    use tabia_position::render_png;

    use super::*;

    /// The RGBA colour at a pixel.
    fn pixel(pixmap: &Pixmap, x: u32, y: u32) -> [u8; 4] {
        let c = pixmap
            .pixel(x, y)
            .expect("pixel inside the image")
            .demultiply();
        [c.red(), c.green(), c.blue(), c.alpha()]
    }

    /// The centre of a point given in board units (880 across with coordinates), in pixels.
    fn at(size: u32, units_x: u32, units_y: u32) -> (u32, u32) {
        (units_x * size / 880, units_y * size / 880)
    }

    #[test]
    fn png_has_the_size_and_colours_of_the_svg() {
        let options = RenderOptions {
            size: 440,
            ..RenderOptions::default()
        };
        let png = render_png(&Setup::initial(), &options).unwrap();
        let pixmap = Pixmap::decode_png(&png).unwrap();
        assert_eq!((pixmap.width(), pixmap.height()), (440, 440));

        // Board units: 40-unit frame, then 100-unit squares from a8 in the top left.
        // e4 (light, empty): column 4, row 4.
        let (x, y) = at(440, 40 + 450, 40 + 450);
        assert_eq!(pixel(&pixmap, x, y), [0xea, 0xdc, 0xc2, 0xff]);
        // d4 (dark, empty).
        let (x, y) = at(440, 40 + 350, 40 + 450);
        assert_eq!(pixel(&pixmap, x, y), [0xa9, 0x82, 0x5f, 0xff]);
        // The frame, in the top left corner.
        assert_eq!(pixel(&pixmap, 2, 2), [0x2d, 0x2b, 0x28, 0xff]);
        // The body of the white king on e1 (a point inside its lobes), and of the black king.
        let (x, y) = at(440, 40 + 400 + 36, 40 + 700 + 55);
        assert_eq!(pixel(&pixmap, x, y), [0xfb, 0xfa, 0xf6, 0xff]);
        let (x, y) = at(440, 40 + 400 + 36, 40 + 55);
        assert_eq!(pixel(&pixmap, x, y), [0x1d, 0x1d, 0x1d, 0xff]);
    }

    #[test]
    fn png_shows_last_move_and_flip() {
        let options = RenderOptions {
            size: 880,
            flip: true,
            last_move: Some(LastMove {
                from: Square::E2,
                to: Square::E4,
            }),
            ..RenderOptions::default()
        };
        let pixmap =
            Pixmap::decode_png(&render_png(&setup_of("start"), &options).unwrap()).unwrap();
        // Flipped: e4 is column 3, row 3; it is light, so it takes the light highlight.
        assert_eq!(pixel(&pixmap, 40 + 350, 40 + 350), [0xef, 0xdc, 0x83, 0xff]);
        // d4 (dark) is column 4, row 3 and is not highlighted.
        assert_eq!(pixel(&pixmap, 40 + 450, 40 + 350), [0xa9, 0x82, 0x5f, 0xff]);
    }

    #[test]
    fn png_is_deterministic() {
        let setup = setup_of("ruy-lopez");
        let options = RenderOptions {
            size: 200,
            ..RenderOptions::default()
        };
        let first = render_png(&setup, &options).unwrap();
        let second = render_png(&setup, &options).unwrap();
        assert_eq!(first, second);
    }
}

/// Properties over random placements (legal or not: renderings draw any board).
mod properties {
    use proptest::prelude::*;
    use tabia_position::{
        render_ascii, render_svg, render_unicode,
        shakmaty::{Board, Color, Piece, Role},
    };

    use super::*;

    fn setups() -> impl Strategy<Value = Setup> {
        let square = proptest::option::weighted(0.4, (any::<bool>(), 0..6usize));
        (proptest::collection::vec(square, 64), any::<bool>()).prop_map(|(squares, white)| {
            let mut board = Board::empty();
            for (square, piece) in Square::ALL.into_iter().zip(squares) {
                if let Some((is_white, role)) = piece {
                    let piece = Piece {
                        color: Color::from_white(is_white),
                        role: Role::ALL[role],
                    };
                    board.set_piece_at(square, piece);
                }
            }
            Setup {
                board,
                turn: Color::from_white(white),
                ..Setup::empty()
            }
        })
    }

    /// Reads a diagram back: cell `j` of line `i` is the square shown there, `empty_dark` and
    /// `empty_light` the marks of empty squares, `piece` the reading of a piece symbol.
    fn read_back(
        text: &str,
        skip: usize,
        flip: bool,
        empty: (char, char),
        piece: impl Fn(char) -> Option<Piece>,
    ) -> Board {
        let mut board = Board::empty();
        for (row, line) in text.lines().take(8).enumerate() {
            let cells: Vec<char> = line.chars().skip(skip).step_by(2).collect();
            assert_eq!(cells.len(), 8, "line {row}: {line:?}");
            for (col, cell) in cells.into_iter().enumerate() {
                let (file, rank) = if flip { (7 - col, row) } else { (col, 7 - row) };
                let square = Square::from_coords(
                    shakmaty::File::new(file as u32),
                    shakmaty::Rank::new(rank as u32),
                );
                let mark = if square.is_dark() { empty.0 } else { empty.1 };
                if cell != mark {
                    board.set_piece_at(square, piece(cell).expect("a piece symbol"));
                }
            }
        }
        board
    }

    fn figurine_piece(c: char) -> Option<Piece> {
        let (color, role) = match c {
            '♔' => (Color::White, Role::King),
            '♕' => (Color::White, Role::Queen),
            '♖' => (Color::White, Role::Rook),
            '♗' => (Color::White, Role::Bishop),
            '♘' => (Color::White, Role::Knight),
            '♙' => (Color::White, Role::Pawn),
            '♚' => (Color::Black, Role::King),
            '♛' => (Color::Black, Role::Queen),
            '♜' => (Color::Black, Role::Rook),
            '♝' => (Color::Black, Role::Bishop),
            '♞' => (Color::Black, Role::Knight),
            '♟' => (Color::Black, Role::Pawn),
            _ => return None,
        };
        Some(Piece { color, role })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        #[test]
        fn ascii_shows_every_square(setup in setups(), flip in any::<bool>()) {
            let options = RenderOptions { flip, ..RenderOptions::default() };
            let text = render_ascii(&setup, &options);
            prop_assert_eq!(text.lines().count(), 8);
            prop_assert!(text.lines().all(|line| line.len() == 15));
            prop_assert_eq!(read_back(&text, 0, flip, ('.', ' '), Piece::from_char), setup.board);
        }

        #[test]
        fn flip_turns_the_ascii_diagram(setup in setups()) {
            let plain = render_ascii(&setup, &RenderOptions::default());
            let flipped = render_ascii(&setup, &RenderOptions { flip: true, ..RenderOptions::default() });
            let turned: Vec<String> = plain.lines().rev().map(|l| l.chars().rev().collect()).collect();
            prop_assert_eq!(flipped.lines().collect::<Vec<_>>(), turned);
        }

        #[test]
        fn unicode_shows_every_square(setup in setups(), flip in any::<bool>()) {
            let options = RenderOptions { flip, ..RenderOptions::default() };
            let text = render_unicode(&setup, &options);
            prop_assert_eq!(text.lines().count(), 9);
            prop_assert_eq!(read_back(&text, 2, flip, ('·', ' '), figurine_piece), setup.board);
        }

        #[test]
        fn svg_draws_each_piece_once(setup in setups(), flip in any::<bool>()) {
            let options = RenderOptions { flip, ..RenderOptions::default() };
            let svg = render_svg(&setup, &options);
            prop_assert_eq!(svg.matches("<use ").count(), setup.board.occupied().count());
            #[cfg(feature = "png")]
            prop_assert!(resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).is_ok());
        }
    }
}
