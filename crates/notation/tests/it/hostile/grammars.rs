//! Hostile inputs for the FEN, EPD and SAN grammars.

use tabia_notation::{
    ErrorKind,
    epd::{Epd, Operand},
    fen::Fen,
    san::{self, SanPlus, Uci},
};

use super::{MB, assert_linear, measuring};

// --- FEN -------------------------------------------------------------------------------------

#[test]
fn fen_with_megabytes_of_trailing_garbage_fails_in_linear_time() {
    let _guard = measuring();
    let input = |n: usize| {
        let mut s = b"8/8/8/4k3/8/8/8/4K3 w - - 0 1 ".to_vec();
        s.resize(s.len() + n, b'x');
        s
    };
    let inputs = [input(MB), input(8 * MB)];
    let [_, cost] = assert_linear(
        "FEN with trailing input",
        |n| {
            let bytes = &inputs[usize::from(n > MB)];
            let err = Fen::from_ascii(bytes).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::TrailingInput);
            err
        },
        MB,
    );
    // The error holds the offending line for its snippet (decoded), nothing more.
    assert!(cost.peak < 4 * 8 * MB, "peak {} bytes", cost.peak);
}

#[test]
fn fen_huge_numbers_and_runs_are_errors() {
    let _guard = measuring();
    let long_clock = format!("8/8/8/4k3/8/8/8/4K3 w - - {} 1", "9".repeat(MB));
    let err = Fen::from_ascii(long_clock.as_bytes()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidHalfmoveClock);
    let many_ranks = "8/".repeat(100_000);
    let err = Fen::from_ascii_lenient(many_ranks.as_bytes()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidRankCount);
    let long_rank = format!("{}/8/8/8/8/8/8/8", "1".repeat(MB));
    assert!(Fen::from_ascii_lenient(long_rank.as_bytes()).is_err());
}

#[test]
fn fen_nul_bytes_and_invalid_utf8_are_positioned_errors() {
    let _guard = measuring();
    let err = Fen::from_ascii(b"8/8/8/4k3/8/8/8/4K3 w \0 - 0 1").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidCastling);
    assert_eq!(
        err.to_string(),
        "invalid castling field (expected castling rights such as `KQkq`, `HAha` or `-`) at \
         line 1, column 23\n  | 8/8/8/4k3/8/8/8/4K3 w \0 - 0 1\n  |                       ^"
    );
    let err = Fen::from_ascii(b"8/8/8/4k3/8/8/8/4K3 \xff - - 0 1").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidColor);
    // Not UTF-8: the line is shown as Latin-1, one column per byte.
    assert_eq!(err.column(), Some(21));
    assert!(err.to_string().contains("4K3 \u{ff} - -"), "{err}");
}

#[test]
fn fen_every_cut_of_a_valid_fen_is_a_value_or_an_error() {
    let _guard = measuring();
    let full = b"r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    for end in 0..full.len() {
        let cut = &full[..end];
        if let Ok(fen) = Fen::from_ascii_lenient(cut) {
            let text = fen.to_string();
            assert_eq!(Fen::from_ascii(text.as_bytes()), Ok(fen));
        }
        if let Err(err) = Fen::from_ascii(cut) {
            assert!(err.span().end <= cut.len().max(1), "{err:?}");
        }
    }
}

// --- EPD -------------------------------------------------------------------------------------

fn epd_with_string(n: usize) -> Vec<u8> {
    let mut s = b"8/8/8/4k3/8/8/8/4K3 w - - c0 \"".to_vec();
    s.extend(std::iter::repeat_n(b"ab\\\"".iter().copied(), n / 4).flatten());
    s.extend_from_slice(b"\";");
    s
}

fn epd_with_operations(n: usize) -> Vec<u8> {
    let mut s = b"8/8/8/4k3/8/8/8/4K3 w - -".to_vec();
    for k in 0..n {
        s.extend_from_slice(format!(" x{k} {k} e4 \"s\";").as_bytes());
    }
    s
}

#[test]
fn epd_megabyte_string_operand_is_kept_in_linear_time() {
    let _guard = measuring();
    let inputs = [epd_with_string(MB / 2), epd_with_string(4 * MB)];
    let [_, cost] = assert_linear(
        "EPD string operand",
        |n| {
            let bytes = &inputs[usize::from(n > MB)];
            let epd = Epd::from_ascii(bytes).unwrap();
            // Nothing lost: every escaped quote is there.
            let Operand::String(s) = &epd.operations[0].operands[0] else {
                panic!("not a string");
            };
            assert_eq!(s.len(), n / 4 * 3);
            epd
        },
        MB / 2,
    );
    // The operand (3 MB) and the record: a small multiple of the input, no blow-up.
    assert!(cost.peak < 16 * MB, "peak {} bytes", cost.peak);
    let epd = Epd::from_ascii(&inputs[0]).unwrap();
    assert_eq!(epd.to_string().as_bytes(), &inputs[0][..]);
}

#[test]
fn epd_hundred_thousand_operations_in_linear_time() {
    let _guard = measuring();
    let inputs = [epd_with_operations(12_500), epd_with_operations(100_000)];
    assert_linear(
        "EPD operations",
        |n| {
            let epd = Epd::from_ascii(&inputs[usize::from(n == 100_000)]).unwrap();
            assert_eq!(epd.operations.len(), n);
            // The typed accessors look at the first operation of an opcode: a lookup of an
            // absent opcode walks all of them once, not once per operation.
            assert_eq!(epd.id(), Ok(None));
            epd
        },
        12_500,
    );
    let epd = Epd::from_ascii(&inputs[0]).unwrap();
    assert_eq!(epd.to_string().as_bytes(), &inputs[0][..]);
}

#[test]
fn epd_cut_off_string_nul_and_invalid_utf8() {
    let _guard = measuring();
    let mut cut = epd_with_string(MB);
    cut.truncate(cut.len() - 2);
    let err = Epd::from_ascii(&cut).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnterminatedString);
    // A string that is not UTF-8 is read as Latin-1, like every other text of a PGN file:
    // each byte is kept as one character, and the canonical form is a fixed point.
    let epd = Epd::from_ascii(b"8/8/8/4k3/8/8/8/4K3 w - - id \"\xff\xfe\";").unwrap();
    assert_eq!(epd.id(), Ok(Some("\u{ff}\u{fe}")));
    let written = epd.to_string();
    assert_eq!(
        Epd::from_ascii(written.as_bytes()).map(|e| e.to_string()),
        Ok(written)
    );
    // A NUL is an ordinary byte of a symbol operand: kept and written back as given.
    let epd = Epd::from_ascii(b"8/8/8/4k3/8/8/8/4K3 w - - id a\0b;").unwrap();
    assert_eq!(epd.operations[0].operands, [Operand::Symbol("a\0b".into())]);
    assert!(epd.to_string().ends_with("id a\0b;"));
}

// --- SAN and UCI -----------------------------------------------------------------------------

#[test]
fn san_garbage_and_long_tokens_are_errors() {
    let _guard = measuring();
    let long = "N".repeat(MB);
    assert_eq!(
        SanPlus::from_ascii(long.as_bytes()).unwrap_err().kind(),
        ErrorKind::InvalidSan
    );
    let long_move = format!("e4{}", "+".repeat(MB));
    assert!(SanPlus::from_ascii(long_move.as_bytes()).is_err());
    for bad in [
        &b"\0"[..],
        b"\xff\xfe",
        b"e\xc3",
        b"Qa9",
        b"exd",
        b"",
        b"O-",
    ] {
        assert!(SanPlus::from_ascii(bad).is_err(), "{bad:?}");
        assert!(san::annotated_prefix(bad).is_err(), "{bad:?}");
        assert!(Uci::from_ascii(bad).is_err(), "{bad:?}");
    }
    // A prefix stops where the move stops: the rest is left for the caller.
    let (mv, nag, used) = san::annotated_prefix(b"O-O-O-O").unwrap();
    assert_eq!((mv.to_string().as_str(), nag, used), ("O-O-O", None, 5));
}
