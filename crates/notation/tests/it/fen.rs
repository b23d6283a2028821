//! FEN: fixtures, round trips and properties.

use proptest::prelude::*;
use tabia_notation::{
    Color, Piece, Role, Square,
    fen::{Board, Castling, CastlingToken, Checks, Fen, Pockets},
};

use crate::{expect_file, fixtures};

/// Each line of `ok/*.fen` parses (leniently if the file name starts with `lenient`) and is
/// written in the canonical form recorded in `*.out`; the output parses back to the same value.
#[test]
fn ok_fixtures() {
    for path in fixtures("fen", "ok", "fen") {
        let lenient = path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("lenient");
        let text = std::fs::read_to_string(&path).unwrap();
        let mut out = String::new();
        let parse = if lenient {
            Fen::from_ascii_lenient
        } else {
            Fen::from_ascii
        };
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let fen = parse(line.as_bytes()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let written = fen.to_string();
            assert_eq!(parse(written.as_bytes()).as_ref(), Ok(&fen), "{written}");
            out.push_str(&written);
            out.push('\n');
        }
        expect_file(&path, "out", &out);
    }
}

/// Each `err/*.fen` fails to parse with the message recorded in `*.err`.
#[test]
fn err_fixtures() {
    for path in fixtures("fen", "err", "fen") {
        let text = std::fs::read(&path).unwrap();
        let err = Fen::from_ascii(&text).expect_err(&path.display().to_string());
        expect_file(&path, "err", &format!("{err}\n"));
    }
}

fn piece() -> impl Strategy<Value = Option<Piece>> {
    prop_oneof![
        3 => Just(None),
        1 => (any::<bool>(), 0..6usize).prop_map(|(white, role)| Some(Piece {
            color: Color::from_white(white),
            role: Role::ALL[role],
        })),
    ]
}

fn board() -> impl Strategy<Value = Board> {
    proptest::collection::vec(piece(), 64).prop_map(|pieces| {
        let mut board = Board::empty();
        for (square, piece) in Square::all().zip(pieces) {
            board.set(square, piece);
        }
        board
    })
}

fn castling() -> impl Strategy<Value = Castling> {
    let token = prop_oneof![
        Just(CastlingToken::KingSide),
        Just(CastlingToken::QueenSide),
        (0u8..8).prop_map(CastlingToken::File),
    ];
    proptest::collection::vec((any::<bool>(), token), 0..6).prop_map(|tokens| {
        let mut castling = Castling::none();
        for (white, token) in tokens {
            castling.push(Color::from_white(white), token);
        }
        castling
    })
}

pub(crate) fn square() -> impl Strategy<Value = Square> {
    (0u8..64).prop_map(|i| Square::new(i).expect("index below 64"))
}

/// Crazyhouse pockets of up to 20 pieces.
fn pockets() -> impl Strategy<Value = Pockets> {
    proptest::collection::vec((any::<bool>(), 0..6usize), 0..20).prop_map(|pieces| {
        let mut pockets = Pockets::default();
        for (white, role) in pieces {
            let (color, role) = (Color::from_white(white), Role::ALL[role]);
            pockets.set(color, role, pockets.get(color, role) + 1);
        }
        pockets
    })
}

/// Three-check counters.
fn checks() -> impl Strategy<Value = Checks> {
    (0u8..=3, 0u8..=3).prop_map(|(white, black)| Checks { white, black })
}

pub(crate) fn fen() -> impl Strategy<Value = Fen> {
    (
        board(),
        any::<bool>(),
        castling(),
        proptest::option::of(square()),
        any::<u32>(),
        1..=u32::MAX,
        any::<u64>(),
        proptest::option::of(pockets()),
        proptest::option::of(checks()),
    )
        .prop_map(
            |(board, white, castling, ep_square, halfmoves, fullmoves, marks, pockets, checks)| {
                // Only a piece can be marked promoted.
                let occupied = board
                    .pieces()
                    .fold(0u64, |bb, (sq, _)| bb | 1 << sq.index());
                Fen {
                    board,
                    turn: Color::from_white(white),
                    castling,
                    ep_square,
                    halfmoves,
                    fullmoves,
                    promoted: marks & occupied,
                    pockets,
                    checks,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn write_then_parse_is_identity(fen in fen()) {
        let text = fen.to_string();
        prop_assert_eq!(text.parse::<Fen>(), Ok(fen));
        prop_assert_eq!(Fen::from_ascii_lenient(text.as_bytes()), Ok(fen));
    }

    #[test]
    fn parse_write_parse_on_near_fens(text in "[1-8pnbrqkPNBRQK/]{8,30}( [wb]( [KQkqA-Ha-h-]{1,3}( (-|[a-h][1-8])( [0-9]{1,3}( [0-9]{1,3})?)?)?)?)?") {
        // Whatever parses leniently is written canonically and parses back to itself.
        if let Ok(fen) = Fen::from_ascii_lenient(text.as_bytes()) {
            let written = fen.to_string();
            prop_assert_eq!(Fen::from_ascii_lenient(written.as_bytes()), Ok(fen));
        }
    }

    #[test]
    fn never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
        let _ = Fen::from_ascii(&bytes);
        let _ = Fen::from_ascii_lenient(&bytes);
    }
}
