//! Text matching for names: case folded, accents folded, as a substring or a regular expression.

use std::fmt;

use regex::{Regex, RegexBuilder};

use crate::error::{ParseError, ParseErrorKind};

/// What the letters U+00C0 to U+017F (Latin-1 Supplement and Latin Extended-A) fold to; an empty
/// string keeps the character (`×`, `÷`). Generated once from the Unicode decompositions, with
/// the letters that do not decompose (`ß`, `æ`, `ø`, `ł`, `đ`, `þ`, `œ`, …) spelled out.
const LATIN: [&str; 192] = [
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i", // U+00C0
    "d", "n", "o", "o", "o", "o", "o", "", "o", "u", "u", "u", "u", "y", "th", "ss", // U+00D0
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i", // U+00E0
    "d", "n", "o", "o", "o", "o", "o", "", "o", "u", "u", "u", "u", "y", "th", "y", // U+00F0
    "a", "a", "a", "a", "a", "a", "c", "c", "c", "c", "c", "c", "c", "c", "d", "d", // U+0100
    "d", "d", "e", "e", "e", "e", "e", "e", "e", "e", "e", "e", "g", "g", "g", "g", // U+0110
    "g", "g", "g", "g", "h", "h", "h", "h", "i", "i", "i", "i", "i", "i", "i", "i", // U+0120
    "i", "i", "ij", "ij", "j", "j", "k", "k", "k", "l", "l", "l", "l", "l", "l",
    "l", // U+0130
    "l", "l", "l", "n", "n", "n", "n", "n", "n", "n", "n", "n", "o", "o", "o", "o", // U+0140
    "o", "o", "oe", "oe", "r", "r", "r", "r", "r", "r", "s", "s", "s", "s", "s",
    "s", // U+0150
    "s", "s", "t", "t", "t", "t", "t", "t", "u", "u", "u", "u", "u", "u", "u", "u", // U+0160
    "u", "u", "u", "u", "w", "w", "y", "y", "y", "z", "z", "z", "z", "z", "z", "s", // U+0170
];

/// Folds `text` for comparison: lower case, accents removed (`É` → `e`, `ß` → `ss`, `ł` → `l`),
/// combining marks dropped.
///
/// ```
/// assert_eq!(tabia_select::fold("Anand, Viswanathan"), "anand, viswanathan");
/// assert_eq!(tabia_select::fold("Ljubojević"), "ljubojevic");
/// assert_eq!(tabia_select::fold("Gelfand, Boris"), tabia_select::fold("GELFAND, BORIS"));
/// assert_eq!(tabia_select::fold("Łukasz Straße"), "lukasz strasse");
/// ```
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else if ('\u{C0}'..='\u{17F}').contains(&c) {
            match LATIN[c as usize - 0xC0] {
                "" => out.push(c),
                folded => out.push_str(folded),
            }
        } else if ('\u{300}'..='\u{36F}').contains(&c) {
            // A combining mark of a decomposed letter.
        } else {
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// A name pattern: a folded substring, or with a leading `~` a regular expression matched
/// case-insensitively against the folded name (the expression is folded too).
///
/// ```
/// use tabia_select::NamePattern;
///
/// let carlsen: NamePattern = "carlsen".parse()?;
/// assert!(carlsen.is_match("Carlsen, Magnus"));
/// let regex: NamePattern = "~^(kasparov|karpov),".parse()?;
/// assert!(regex.is_match("Karpov, Anatoly"));
/// assert!(!regex.is_match("Karpova, Nadezhda"));
/// assert_eq!(regex.to_string(), "~^(kasparov|karpov),");
/// # Ok::<_, tabia_select::ParseError>(())
/// ```
#[derive(Debug, Clone)]
pub struct NamePattern {
    text: String,
    kind: NameKind,
}

#[derive(Debug, Clone)]
enum NameKind {
    /// The folded needle, searched for with a searcher built once.
    Substring(Box<memchr::memmem::Finder<'static>>),
    Regex(Regex),
}

impl NamePattern {
    /// Whether `name` matches.
    pub fn is_match(&self, name: &str) -> bool {
        // Most names are short and ASCII: folded on the stack, where folding is lowering.
        const SHORT: usize = 64;
        if name.len() <= SHORT && name.is_ascii() {
            let mut folded = [0u8; SHORT];
            let folded = &mut folded[..name.len()];
            folded.copy_from_slice(name.as_bytes());
            folded.make_ascii_lowercase();
            return match &self.kind {
                NameKind::Substring(needle) => needle.find(folded).is_some(),
                // ASCII lowered is UTF-8.
                NameKind::Regex(regex) => std::str::from_utf8(folded)
                    .map(|folded| regex.is_match(folded))
                    .unwrap_or(false),
            };
        }
        self.is_match_folded(&fold(name))
    }

    /// Whether `name`, already [`fold`]ed, matches.
    fn is_match_folded(&self, folded: &str) -> bool {
        match &self.kind {
            NameKind::Substring(needle) => needle.find(folded.as_bytes()).is_some(),
            NameKind::Regex(regex) => regex.is_match(folded),
        }
    }
}

impl std::str::FromStr for NamePattern {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<NamePattern, ParseError> {
        let kind = if let Some(expr) = text.strip_prefix('~') {
            NameKind::Regex(regex(expr, true).map_err(|reason| {
                ParseError::new("player", ParseErrorKind::Regex(reason), text, 1..text.len())
            })?)
        } else if text.trim().is_empty() {
            return Err(ParseError::new(
                "player",
                ParseErrorKind::Empty,
                text,
                0..text.len(),
            ));
        } else {
            NameKind::Substring(Box::new(
                memchr::memmem::Finder::new(&fold(text)).into_owned(),
            ))
        };
        Ok(NamePattern {
            text: text.to_owned(),
            kind,
        })
    }
}

impl fmt::Display for NamePattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Compiles a regular expression; `folded` folds it and matches case-insensitively. The error
/// is the `regex` crate's message, on one line.
pub(crate) fn regex(expr: &str, folded: bool) -> Result<Regex, String> {
    let expr = if folded { fold(expr) } else { expr.to_owned() };
    RegexBuilder::new(&expr)
        .case_insensitive(folded)
        .size_limit(1 << 20)
        .build()
        .map_err(|err| match err {
            regex::Error::Syntax(text) => text
                .lines()
                .last()
                .unwrap_or("syntax error")
                .trim_start_matches("error: ")
                .to_owned(),
            other => other.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_latin_letters() {
        assert_eq!(fold("ÀÉÎÕÜÇÑ åøæ"), "aeioucn aoae");
        assert_eq!(fold("Nepomniachtchi"), "nepomniachtchi");
        assert_eq!(fold("Ivanchuk × Карпов"), "ivanchuk × карпов");
        // Decomposed: e + combining acute.
        assert_eq!(fold("Jose\u{301}"), "jose");
    }

    #[test]
    fn substring_and_regex() {
        let p: NamePattern = "ljubojevic".parse().unwrap();
        assert!(p.is_match("Ljubojević, Ljubomir"));
        let p: NamePattern = "Ljubojević".parse().unwrap();
        assert!(p.is_match("LJUBOJEVIC"));
        let p: NamePattern = "~^Anand".parse().unwrap();
        assert!(p.is_match("ANAND, V"));
        assert!(!p.is_match("Viswanathan Anand"));
    }

    proptest::proptest! {
        /// A name matches on the short path (ASCII folded on the stack) as folded in full, for
        /// substrings and expressions, names short and long, ASCII or not.
        #[test]
        fn the_short_path_matches_as_folding_does(
            name in "[a-zA-Z ,.\\-ÉéŁł]{0,80}",
            needle in "[a-zA-Z][a-zA-Z ]{0,3}",
        ) {
            for pattern in [needle.clone(), format!("~{needle}"), format!("~^{needle}")] {
                let pattern: NamePattern = pattern.parse().unwrap();
                proptest::prop_assert_eq!(
                    pattern.is_match(&name),
                    pattern.is_match_folded(&fold(&name)),
                    "{} in {:?}", pattern, name
                );
            }
        }
    }

    #[test]
    fn bad_patterns_name_the_bad_part() {
        let mut messages = crate::golden::Messages::default();
        messages.push("~(carlsen".parse::<NamePattern>().unwrap_err());
        messages.push("  ".parse::<NamePattern>().unwrap_err());
        messages.check("text-bad_patterns_name_the_bad_part");
    }
}
