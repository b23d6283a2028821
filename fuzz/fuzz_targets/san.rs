//! SAN, annotated SAN and UCI moves: no panic on any bytes; what parses is written and parses
//! back to the same move; prefixes never claim more bytes than given.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tabia_notation::san::{self, San, SanPlus, Uci};

fuzz_target!(|data: &[u8]| {
    if let Ok(mv) = San::from_ascii(data) {
        let text = mv.to_string();
        assert_eq!(San::from_ascii(text.as_bytes()), Ok(mv), "{text}");
    }
    if let Ok(mv) = SanPlus::from_ascii(data) {
        let text = mv.to_string();
        assert_eq!(SanPlus::from_ascii(text.as_bytes()), Ok(mv), "{text}");
    }
    match san::annotated_prefix(data) {
        Ok((mv, _nag, used)) => {
            assert!(used <= data.len());
            let text = mv.to_string();
            assert_eq!(SanPlus::from_ascii(text.as_bytes()), Ok(mv), "{text}");
        }
        Err(err) => {
            let _ = err.with_source(data).to_string();
        }
    }
    if let Ok((mv, used)) = San::prefix(data) {
        assert!(used <= data.len());
        assert_eq!(San::from_ascii(mv.to_string().as_bytes()), Ok(mv));
    }
    if let Ok(mv) = Uci::from_ascii(data) {
        let text = mv.to_string();
        assert_eq!(Uci::from_ascii(text.as_bytes()), Ok(mv), "{text}");
    }
    if let Ok((_, used)) = Uci::prefix(data) {
        assert!(used <= data.len());
    }
});
