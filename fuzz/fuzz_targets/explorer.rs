//! The explorer's query parameters (`fen`, `play`, `variant`, `speeds`, `ratings`, `since`,
//! `until`), as `tabia serve` and `tabia index query` read them: any text in any field. No
//! panic; an error writes its message; a filter that reads writes back (`Display`) to
//! parameters that read to the same filter.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tabia_index::{Filter, Request};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut fields = text.split('\n');
    let mut next = || fields.next().filter(|f| !f.is_empty());
    let (fen, play, variant) = (next(), next(), next());
    let (speeds, ratings, since, until) = (next(), next(), next(), next());
    match Request::parse(fen, play, variant) {
        Ok(request) => assert_eq!(request.moves.len(), {
            let mut position = request.start.clone();
            for &m in &request.moves {
                assert!(position.legal_moves().contains(&m));
                position.play_unchecked(m);
            }
            request.moves.len()
        }),
        Err(err) => assert!(!err.to_string().is_empty()),
    }
    match Filter::parse(speeds, ratings, since, until) {
        Ok(filter) => {
            let written = filter.to_string();
            let get = |name: &str| {
                written
                    .split('&')
                    .find_map(|part| part.strip_prefix(name).and_then(|v| v.strip_prefix('=')))
            };
            let again = Filter::parse(get("speeds"), get("ratings"), get("since"), get("until"))
                .unwrap_or_else(|err| panic!("{written:?} does not read: {err}"));
            assert_eq!(again, filter, "{written}");
        }
        Err(err) => assert!(!err.to_string().is_empty()),
    }
});
