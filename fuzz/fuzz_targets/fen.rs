//! FEN, strict and lenient: no panic on any bytes; what parses is written canonically and
//! parses back to the same value; a prefix never claims more bytes than it was given; every
//! error can be displayed with its caret snippet.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tabia_notation::fen::{Board, Castling, Fen, ParseMode};

fuzz_target!(|data: &[u8]| {
    for mode in [ParseMode::Strict, ParseMode::Lenient] {
        let parse = match mode {
            ParseMode::Strict => Fen::from_ascii,
            ParseMode::Lenient => Fen::from_ascii_lenient,
        };
        match parse(data) {
            Ok(fen) => {
                let text = fen.to_string();
                assert_eq!(parse(text.as_bytes()).as_ref(), Ok(&fen), "{text}");
                // All six fields are written: strict FEN, but for a fullmove number of 0,
                // which only the lenient mode keeps.
                if fen.fullmoves > 0 {
                    assert_eq!(Fen::from_ascii(text.as_bytes()), Ok(fen), "{text}");
                }
            }
            Err(err) => {
                let _ = err.to_string();
            }
        }
        match Fen::prefix(data, mode) {
            Ok((fen, used)) => {
                assert!(used <= data.len());
                let text = fen.to_string();
                let again = Fen::prefix(text.as_bytes(), mode);
                assert_eq!(again, Ok((fen, text.len())), "{text}");
            }
            Err(err) => {
                let _ = err.with_source(data).to_string();
            }
        }
    }
    if let Ok(board) = Board::from_ascii(data) {
        let text = board.to_string();
        assert_eq!(Board::from_ascii(text.as_bytes()), Ok(board), "{text}");
    }
    if let Ok(castling) = Castling::from_ascii(data) {
        let text = castling.to_string();
        assert_eq!(
            Castling::from_ascii(text.as_bytes()),
            Ok(castling),
            "{text}"
        );
    }
});
