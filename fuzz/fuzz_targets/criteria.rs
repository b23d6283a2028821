//! Selection criteria read from text: any text read as every kind of criterion. No panic;
//! an error's message (with its caret) writes; a criterion that reads writes back
//! (`Display`) to text that reads again and writes the same (the `FromStr` + `Display`
//! round trip that `--json` and `--mark` rely on to say which criterion matched).

#![no_main]

use std::{fmt::Display, str::FromStr};

use libfuzzer_sys::fuzz_target;
use tabia_select::{
    Bounds, DateRange, EcoRange, EloRange, Feature, FenPattern, Material, MoveSequence,
    NamePattern, ParseError, PositionTarget, ResultCriterion, TagCriterion, VariantName, Zobrist,
};

/// Reads `text` as a `T`; when it reads, its text reads again and writes the same.
fn round_trip<T>(text: &str)
where
    T: FromStr<Err = ParseError> + Display,
{
    match text.parse::<T>() {
        Ok(value) => {
            let written = value.to_string();
            let again = written.parse::<T>().unwrap_or_else(|err| {
                panic!("{text:?} reads, its text {written:?} does not: {err}")
            });
            assert_eq!(again.to_string(), written, "from {text:?}");
        }
        Err(err) => {
            let message = err.to_string();
            assert!(!message.is_empty());
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    round_trip::<TagCriterion>(text);
    round_trip::<NamePattern>(text);
    round_trip::<ResultCriterion>(text);
    round_trip::<EloRange>(text);
    round_trip::<DateRange>(text);
    round_trip::<Bounds>(text);
    round_trip::<VariantName>(text);
    round_trip::<EcoRange>(text);
    round_trip::<PositionTarget>(text);
    round_trip::<Zobrist>(text);
    round_trip::<MoveSequence>(text);
    round_trip::<FenPattern>(text);
    round_trip::<Material>(text);
    round_trip::<Feature>(text);
    if let Ok(pattern) = text.parse::<FenPattern>() {
        let either = pattern.either().to_string();
        let _ = either.parse::<FenPattern>();
    }
    if let Ok(material) = text.parse::<Material>() {
        let _ = material.as_written().to_string();
    }
});
