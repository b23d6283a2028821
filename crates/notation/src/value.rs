//! [`UnknownValue`]: the error of an option's value that is none of the words it takes.

use std::fmt;

/// A word that is none of the values a setting takes: the error of the `FromStr` of the
/// toolkit's option types (`DedupBy`, `SplitBy`, `EpRule`, table formats, …), with what was
/// given and what would have been read.
///
/// ```
/// use tabia_notation::UnknownValue;
///
/// let err = UnknownValue::new("format", "xls", "parquet or csv");
/// assert_eq!(err.to_string(), "unknown format `xls` (expected parquet or csv)");
/// assert_eq!((err.what(), err.value(), err.expected()), ("format", "xls", "parquet or csv"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownValue {
    what: &'static str,
    value: String,
    expected: &'static str,
}

impl UnknownValue {
    /// `value`, given for `what`, which takes `expected`.
    pub fn new(what: &'static str, value: &str, expected: &'static str) -> UnknownValue {
        UnknownValue {
            what,
            value: value.to_owned(),
            expected,
        }
    }

    /// What the value was for (`format`, `split key`).
    pub fn what(&self) -> &'static str {
        self.what
    }

    /// The value given.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// The values taken, in words.
    pub fn expected(&self) -> &'static str {
        self.expected
    }
}

impl fmt::Display for UnknownValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} `{}` (expected {})",
            self.what, self.value, self.expected
        )
    }
}

impl std::error::Error for UnknownValue {}
