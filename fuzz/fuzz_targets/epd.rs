//! EPD: no panic on any bytes; what parses is written canonically, parses back to the same
//! value, and the canonical form is a fixed point; the typed accessors never panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tabia_notation::epd::Epd;

fuzz_target!(|data: &[u8]| {
    match Epd::from_ascii(data) {
        Ok(epd) => {
            let text = epd.to_string();
            let again = Epd::from_ascii(text.as_bytes());
            assert_eq!(again.as_ref(), Ok(&epd), "{text}");
            assert_eq!(again.map(|e| e.to_string()).as_deref(), Ok(text.as_str()));
            let _ = epd.to_fen();
            let _ = epd.id();
            let _ = epd.best_moves();
            let _ = epd.avoid_moves();
            let _ = epd.predicted_move();
            let _ = epd.supplied_move();
            let _ = epd.principal_variation();
            let _ = (0..10).map(|n| epd.comment(n).is_ok()).count();
            let _ = epd.centipawn_eval();
            let _ = (epd.acd(), epd.acn(), epd.acs(), epd.direct_mate());
            let _ = (epd.hmvc(), epd.fmvn(), epd.eco(), epd.nic(), epd.noop());
        }
        Err(err) => {
            let _ = err.to_string();
        }
    }
    match Epd::prefix(data) {
        Ok((epd, used)) => {
            assert!(used <= data.len());
            let text = epd.to_string();
            assert_eq!(
                Epd::from_ascii(text.as_bytes()).as_ref(),
                Ok(&epd),
                "{text}"
            );
        }
        Err(err) => {
            let _ = err.with_source(data).to_string();
        }
    }
});
