//! The answers of the most asked positions, kept: an explorer answer for a position many games
//! reached adds thousands of figures (the start position of a million games: about 3 ms of a
//! worker), and a page, a program or many users ask the same few positions over and over.
//!
//! An answer is kept with the index's [generation](tabia_index::Index::generation), and served
//! only while the index is still at it: after an `index add` beside the server, the next
//! request computes afresh. The generation is read before the answer is computed: an answer
//! that saw a later commit is kept under a generation already past, and never served.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

/// Answers taking at least this long are kept; cheaper ones are computed each time (most
/// positions: one game's entry, tens of microseconds).
const WORTH: Duration = Duration::from_micros(200);

/// Answers kept at most; when full the cache starts again (the hot ones come back at once).
const CAPACITY: usize = 4096;

/// An answer's body and the generation it holds at, by route and query.
type Kept = HashMap<String, (u64, Arc<[u8]>)>;

/// Kept answers by route and query.
#[derive(Debug, Default)]
pub(crate) struct Answers {
    kept: Mutex<Kept>,
}

impl Answers {
    /// The answer kept for `key` at `generation`, else `compute`'s (kept if it took long and
    /// succeeded).
    pub(crate) fn get_or<E>(
        &self,
        key: &str,
        generation: u64,
        compute: impl FnOnce() -> Result<Vec<u8>, E>,
    ) -> Result<Arc<[u8]>, E> {
        if let Some((at, body)) = self.lock().get(key)
            && *at == generation
        {
            return Ok(Arc::clone(body));
        }
        let start = Instant::now();
        let body: Arc<[u8]> = compute()?.into();
        if start.elapsed() >= WORTH {
            let mut kept = self.lock();
            if kept.len() >= CAPACITY {
                kept.clear();
            }
            kept.insert(key.to_owned(), (generation, Arc::clone(&body)));
        }
        Ok(body)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        // A thread that panicked while holding it left a map that is still whole.
        self.kept
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow(body: &str) -> Result<Vec<u8>, ()> {
        std::thread::sleep(WORTH);
        Ok(body.as_bytes().to_vec())
    }

    #[test]
    fn a_kept_answer_is_served_until_the_generation_changes() {
        let answers = Answers::default();
        assert_eq!(
            &*answers.get_or("/lichess?", 1, || slow("a")).unwrap(),
            b"a"
        );
        // Kept: not computed again at the same generation.
        let again = answers.get_or("/lichess?", 1, || -> Result<Vec<u8>, ()> {
            panic!("computed")
        });
        assert_eq!(&*again.unwrap(), b"a");
        // Another generation: computed afresh.
        assert_eq!(
            &*answers.get_or("/lichess?", 2, || slow("b")).unwrap(),
            b"b"
        );
        assert_eq!(
            &*answers.get_or("/lichess?", 2, || slow("c")).unwrap(),
            b"b"
        );
    }

    #[test]
    fn cheap_answers_and_errors_are_not_kept() {
        let answers = Answers::default();
        let cheap = || Ok::<_, ()>(b"x".to_vec());
        answers.get_or("k", 1, cheap).unwrap();
        assert_eq!(&*answers.get_or("k", 1, || slow("y")).unwrap(), b"y");
        assert_eq!(
            answers.get_or("e", 1, || Err::<Vec<u8>, _>("bad")),
            Err("bad")
        );
        assert_eq!(&*answers.get_or("e", 1, || slow("z")).unwrap(), b"z");
    }

    #[test]
    fn the_cache_stays_bounded() {
        let answers = Answers::default();
        for i in 0..CAPACITY + 10 {
            answers.get_or(&i.to_string(), 1, || slow("v")).unwrap();
        }
        assert!(answers.lock().len() <= CAPACITY);
    }
}
