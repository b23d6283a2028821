//! EPD: fixtures, round trips and properties.

use proptest::prelude::*;
use tabia_notation::epd::{Epd, Operand, Operation};

use crate::{expect_file, fen::fen, fixtures};

/// Each line of `ok/*.epd` parses; `*.out` records its canonical form and each operation's
/// operands as typed; the canonical form parses back to the same value.
#[test]
fn ok_fixtures() {
    for path in fixtures("epd", "ok", "epd") {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut out = String::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let epd: Epd = line
                .parse()
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let written = epd.to_string();
            assert_eq!(written.parse::<Epd>().as_ref(), Ok(&epd), "{written}");
            out.push_str(&written);
            out.push('\n');
            for op in &epd.operations {
                out.push_str(&format!("  {}: {:?}\n", op.opcode, op.operands));
            }
        }
        expect_file(&path, "out", &out);
    }
}

/// Each `err/*.epd` fails to parse with the message recorded in `*.err`.
#[test]
fn err_fixtures() {
    for path in fixtures("epd", "err", "epd") {
        let text = std::fs::read(&path).unwrap();
        let err = Epd::from_ascii(&text).expect_err(&path.display().to_string());
        expect_file(&path, "err", &format!("{err}\n"));
    }
}

/// Typed access on a fixture, and its errors drawn on the canonical text.
#[test]
fn typed_access() {
    let epd: Epd = r#"r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - bm Nf5 Qd2; am Be2?; id "my.07"; c0 "fork \"idea\""; ce 0.5;"#
        .parse()
        .unwrap();
    assert_eq!(epd.id(), Ok(Some("my.07")));
    assert_eq!(epd.comment(0), Ok(Some(r#"fork "idea""#)));
    let bm: Vec<String> = epd
        .best_moves()
        .unwrap()
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(bm, ["Nf5", "Qd2"]);
    let am = epd.avoid_moves().unwrap_err();
    assert_eq!(
        am.to_string(),
        "invalid SAN move (expected a SAN move and nothing after it) at line 1, column 79\n  \
         | r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - bm Nf5 Qd2; am Be2?; id \"my.07\"; c0 \"fork \\\"idea\\\"\"; ce 0.5;\n  \
         |                                                                               ^^^^"
    );
    let ce = epd.centipawn_eval().unwrap_err();
    assert_eq!(
        ce.message(),
        "operand of the wrong type for its opcode (expected an integer)"
    );
}

fn operand() -> impl Strategy<Value = Operand> {
    prop_oneof![
        "[A-Za-z][A-Za-z0-9+#=.-]{0,6}".prop_map(Operand::Symbol),
        any::<i64>().prop_map(Operand::Integer),
        "-?[0-9]{1,4}\\.[0-9]{0,3}".prop_map(Operand::Float),
        "\\PC{0,12}".prop_map(Operand::String),
    ]
}

fn operation() -> impl Strategy<Value = Operation> {
    (
        "[a-zA-Z][a-zA-Z0-9_]{0,6}",
        proptest::collection::vec(operand(), 0..4),
    )
        .prop_map(|(opcode, operands)| Operation::new(opcode, operands))
}

fn epd() -> impl Strategy<Value = Epd> {
    (fen(), proptest::collection::vec(operation(), 0..5)).prop_map(|(fen, operations)| {
        let mut epd = Epd::from_fen_without_clocks(&fen);
        epd.operations = operations;
        epd
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn write_then_parse_is_identity(epd in epd()) {
        let text = epd.to_string();
        prop_assert_eq!(text.parse::<Epd>(), Ok(epd.clone()));
        let (again, used) = Epd::prefix(format!("{text}\nnext line").as_bytes()).unwrap();
        prop_assert_eq!((again, used), (epd, text.len()));
    }

    #[test]
    fn fen_clocks_survive(fen in fen()) {
        let epd = Epd::from_fen(&fen);
        prop_assert_eq!(epd.to_fen(), Ok(fen));
    }

    #[test]
    fn parse_write_parse(ops in r#"( ?[a-z0-9_]{1,4}( {1,2}([A-Za-z0-9+.=#-]{1,5}|"([^"\\\r\n]|\\.){0,6}"))*[ ]?;){0,4}"#) {
        let text = format!("8/8/8/8/8/8/8/K6k w - -{ops}");
        if let Ok(epd) = text.parse::<Epd>() {
            prop_assert_eq!(epd.to_string().parse::<Epd>(), Ok(epd));
        }
    }

    #[test]
    fn never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..60)) {
        let mut input = b"8/8/8/8/8/8/8/K6k w - - ".to_vec();
        input.extend(bytes);
        if let Ok(epd) = Epd::from_ascii(&input) {
            let _ = (epd.best_moves(), epd.id(), epd.to_fen(), epd.comment(3));
        }
    }
}
