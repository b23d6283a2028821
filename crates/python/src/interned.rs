//! Python strings made once per process for the short strings that games repeat: moves in UCI
//! and SAN, tag names. A game's `uci` list then costs a reference per move, not a string
//! allocated (and freed) per move: with the GIL held, that was most of what `read_games` spent
//! on the main thread.

use std::{collections::HashMap, sync::Mutex};

use pyo3::{prelude::*, types::PyString};

/// Longer strings (tag values, comments) are made each time.
const LONGEST: usize = 16;

/// At most this many strings are kept: the moves of chess are a few thousand, but tag names
/// are the input's to choose.
const MOST: usize = 1 << 16;

type Table = HashMap<Box<str>, Py<PyString>, foldhash::fast::FixedState>;

static STRINGS: Mutex<Option<Table>> = Mutex::new(None);

/// The Python strings of `texts`, the short ones shared (see the module's documentation).
pub(crate) fn strings<'py, 'a>(
    py: Python<'py>,
    texts: impl IntoIterator<Item = &'a str>,
) -> Vec<Bound<'py, PyString>> {
    let texts = texts.into_iter();
    // `try_lock`: making a string runs no Python code, but should it ever come back here
    // (or a thread panicked with the lock), the strings are made afresh.
    let Ok(mut table) = STRINGS.try_lock() else {
        return texts.map(|text| PyString::new(py, text)).collect();
    };
    let table = table.get_or_insert_with(Table::default);
    texts
        .map(|text| {
            if text.len() > LONGEST {
                return PyString::new(py, text);
            }
            if let Some(string) = table.get(text) {
                return string.bind(py).clone();
            }
            let string = PyString::new(py, text);
            if table.len() < MOST {
                table.insert(text.into(), string.clone().unbind());
            }
            string
        })
        .collect()
}

/// The Python string of `text`, shared if short (see [`strings`]).
pub(crate) fn string<'py>(py: Python<'py>, text: &str) -> Bound<'py, PyString> {
    let mut one = strings(py, [text]);
    one.pop().unwrap_or_else(|| PyString::new(py, text))
}
