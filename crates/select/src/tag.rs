//! [`TagCriterion`]: `NAME OP VALUE` on any tag, numbers as numbers, dates as dates.

use std::{cmp::Ordering, fmt, str::FromStr};

use regex::Regex;

use crate::{
    date::PgnDate,
    error::{ParseError, ParseErrorKind},
    text,
};

/// A comparison operator of a [`TagCriterion`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TagOp {
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `~`: the value matches a regular expression.
    Match,
    /// `!~`: the value does not match a regular expression.
    NotMatch,
}

impl TagOp {
    /// The operators, longest first (the order to try them in).
    const ALL: [(&'static str, TagOp); 8] = [
        ("!=", TagOp::Ne),
        ("<=", TagOp::Le),
        (">=", TagOp::Ge),
        ("!~", TagOp::NotMatch),
        ("=", TagOp::Eq),
        ("<", TagOp::Lt),
        (">", TagOp::Gt),
        ("~", TagOp::Match),
    ];

    /// The operator's text.
    pub fn as_str(self) -> &'static str {
        TagOp::ALL
            .iter()
            .find(|(_, op)| *op == self)
            .map_or("=", |(text, _)| text)
    }

    fn accepts(self, ordering: Ordering) -> bool {
        match self {
            TagOp::Eq => ordering == Ordering::Equal,
            TagOp::Ne => ordering != Ordering::Equal,
            TagOp::Lt => ordering == Ordering::Less,
            TagOp::Le => ordering != Ordering::Greater,
            TagOp::Gt => ordering == Ordering::Greater,
            TagOp::Ge => ordering != Ordering::Less,
            TagOp::Match | TagOp::NotMatch => false,
        }
    }
}

impl fmt::Display for TagOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How the values of a tag compare.
#[derive(Debug, Clone)]
enum Value {
    /// `~` and `!~`.
    Regex(Regex),
    /// `Date`, `UTCDate`, `EventDate`: as dates with unknown parts.
    Date(PgnDate),
    /// `TimeControl` against a number: by the base time in seconds.
    BaseTime(f64),
    /// A number: compared as numbers when the tag's value is one.
    Number(f64),
    /// Anything else: compared as text.
    Text,
}

/// A criterion on one tag: `NAME OP VALUE`, with `OP` one of `= != < <= > >= ~ !~`.
///
/// - Dates (`Date`, `UTCDate`, `EventDate`) compare as dates with unknown parts: `Date>=2020`
///   holds for `2020.??.??` and `2021.03.01`, not for `2019.12.31` nor `????.??.??`; `=` holds
///   when the date is within the value (`Date=2020.05` for `2020.05.17`).
/// - `TimeControl` against a number compares base times in seconds (`600+5` is 600,
///   `40/7200:3600` is 7200).
/// - A number compares as a number with a tag whose value is a number (`WhiteElo>=2700`).
/// - `~` and `!~` match a regular expression (the `regex` crate's syntax) anywhere in the value.
/// - Anything else compares as text, exactly.
///
/// A missing tag (or a value that cannot be compared, such as `?` for a number) fails every
/// comparison but `!=` and `!~`, which it passes.
///
/// ```
/// use tabia_select::TagCriterion;
///
/// let c: TagCriterion = "Date >= 2020".parse()?;
/// assert!(c.matches(Some("2020.??.??")));
/// assert!(!c.matches(Some("2019.12.31")));
/// assert!(!c.matches(None));
/// assert_eq!(c.to_string(), "Date>=2020");
/// let c: TagCriterion = "Event~(?i)olympiad".parse()?;
/// assert!(c.matches(Some("44th Chess Olympiad")));
/// let c: TagCriterion = "TimeControl<600".parse()?;
/// assert!(c.matches(Some("180+2")) && !c.matches(Some("600+5")) && !c.matches(Some("-")));
/// # Ok::<_, tabia_select::ParseError>(())
/// ```
#[derive(Debug, Clone)]
pub struct TagCriterion {
    name: String,
    op: TagOp,
    value: String,
    compare: Value,
}

impl TagCriterion {
    /// The tag's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The operator.
    pub fn op(&self) -> TagOp {
        self.op
    }

    /// The value compared with.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// Whether a game whose tag has `value` (`None`: the game has no such tag) matches.
    pub fn matches(&self, value: Option<&str>) -> bool {
        let Some(value) = value else {
            return matches!(self.op, TagOp::Ne | TagOp::NotMatch);
        };
        let ordering = match &self.compare {
            Value::Regex(regex) => return regex.is_match(value) == (self.op == TagOp::Match),
            Value::Date(date) => compare_dates(value, *date, self.op),
            Value::BaseTime(base) => base_time(value).and_then(|v| v.partial_cmp(base)),
            Value::Number(number) => match value.trim().parse::<f64>() {
                Ok(v) => v.partial_cmp(number),
                Err(_) if matches!(self.op, TagOp::Eq | TagOp::Ne) => {
                    Some(value.cmp(self.value.as_str()))
                }
                Err(_) => None,
            },
            Value::Text => Some(value.cmp(self.value.as_str())),
        };
        match ordering {
            Some(ordering) => self.op.accepts(ordering),
            // Cannot be compared: like a missing tag.
            None => self.op == TagOp::Ne,
        }
    }
}

/// Dates compare by the days they may be: `Some(Equal)` when the tag's days are all within the
/// criterion's, `Less`/`Greater` when all before/after; for `<=` and `>=` the days must be
/// before the end / after the start.
fn compare_dates(value: &str, criterion: PgnDate, op: TagOp) -> Option<Ordering> {
    let (first, last) = PgnDate::from_tag(value)?.interval()?;
    let (from, to) = criterion.interval()?;
    Some(match op {
        TagOp::Le => {
            if last <= to {
                Ordering::Less
            } else {
                Ordering::Greater
            }
        }
        TagOp::Ge => {
            if first >= from {
                Ordering::Greater
            } else {
                Ordering::Less
            }
        }
        _ => {
            if first >= from && last <= to {
                Ordering::Equal
            } else if last < from {
                Ordering::Less
            } else if first > to {
                Ordering::Greater
            } else {
                // Overlapping without being within: neither equal nor ordered.
                return if op == TagOp::Ne {
                    Some(Ordering::Less)
                } else {
                    None
                };
            }
        }
    })
}

/// The base time of a `TimeControl` value, in seconds: `600+5` → 600, `40/7200:3600` → 7200,
/// `*180` (sandclock) → 180; `?` and `-` have none.
pub(crate) fn base_time(value: &str) -> Option<f64> {
    let first = value.trim().split(':').next()?;
    let period = first.rsplit('/').next()?;
    let base = period.trim_start_matches('*').split('+').next()?;
    base.parse::<f64>().ok()
}

fn is_date_tag(name: &str) -> bool {
    matches!(name, "Date" | "UTCDate" | "EventDate")
}

impl FromStr for TagCriterion {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<TagCriterion, ParseError> {
        let err = |kind, start: usize, end: usize| ParseError::new("tag", kind, text, start..end);
        let lead = text.len() - text.trim_start().len();
        let name_end = text[lead..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(text.len(), |i| lead + i);
        if name_end == lead {
            let end = text[lead..]
                .chars()
                .next()
                .map_or(lead, |c| lead + c.len_utf8());
            return Err(err(ParseErrorKind::TagName, lead, end));
        }
        let name = &text[lead..name_end];
        let op_start = name_end + (text[name_end..].len() - text[name_end..].trim_start().len());
        let rest = &text[op_start..];
        let Some((op_text, op)) = TagOp::ALL.iter().find(|(t, _)| rest.starts_with(t)) else {
            let end = rest
                .chars()
                .next()
                .map_or(op_start, |c| op_start + c.len_utf8());
            return Err(err(ParseErrorKind::Operator, op_start, end));
        };
        let value_start = op_start + op_text.len();
        let raw = text[value_start..].trim();
        let value_offset =
            value_start + (text[value_start..].len() - text[value_start..].trim_start().len());
        // A value may be quoted, as in a PGN tag pair.
        let (value, value_offset) = match raw.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
            Some(inner) => (inner, value_offset + 1),
            None => {
                // `==`, `<>`, `=>`: a bare value that starts with an operator's character is a
                // mistyped operator far more often than a value (which can be quoted).
                let extra = raw.len() - raw.trim_start_matches(OPERATOR_CHARS).len();
                if extra > 0 {
                    let end = value_offset + extra;
                    return Err(err(ParseErrorKind::UnknownOperator, op_start, end));
                }
                (raw, value_offset)
            }
        };
        let value_span = value_offset..value_offset + value.len();
        let compare = match op {
            TagOp::Match | TagOp::NotMatch => Value::Regex(
                text::regex(value, false)
                    .map_err(|r| err(ParseErrorKind::Regex(r), value_span.start, value_span.end))?,
            ),
            _ if is_date_tag(name) && !value.is_empty() => match value.parse::<PgnDate>() {
                Ok(date) if date.interval().is_some() => Value::Date(date),
                _ if matches!(op, TagOp::Eq | TagOp::Ne) => Value::Text,
                _ => return Err(err(ParseErrorKind::Date, value_span.start, value_span.end)),
            },
            _ if name == "TimeControl" && base_time(value).is_some() && !value.contains('+') => {
                Value::BaseTime(base_time(value).unwrap_or_default())
            }
            _ => match value.parse::<f64>() {
                Ok(number) if number.is_finite() => Value::Number(number),
                _ => Value::Text,
            },
        };
        Ok(TagCriterion {
            name: name.to_owned(),
            op: *op,
            value: value.to_owned(),
            compare,
        })
    }
}

/// The characters of the operators: a bare value may not start with one.
const OPERATOR_CHARS: &[char] = &['=', '!', '<', '>', '~'];

impl fmt::Display for TagCriterion {
    /// `NAME OP VALUE`, the value in quotes when it would not read back bare: with white space
    /// at an end, quoted itself (`Event="x"` is the value `x`; `"x"` is written `""x""`), or
    /// starting with an operator's character (`Event="=x"`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = &self.value;
        let quoted = value.len() >= 2 && value.starts_with('"') && value.ends_with('"');
        if quoted || value.trim() != value || value.starts_with(OPERATOR_CHARS) {
            write!(f, "{}{}\"{value}\"", self.name, self.op)
        } else {
            write!(f, "{}{}{value}", self.name, self.op)
        }
    }
}

/// Tag names found in real collections (the Seven Tag Roster, the standard's other tags,
/// lichess's, chess.com's, TWIC's), for [`close_tag_name`].
const KNOWN_TAGS: &[&str] = &[
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "WhiteElo",
    "BlackElo",
    "WhiteTitle",
    "BlackTitle",
    "WhiteFideId",
    "BlackFideId",
    "WhiteTeam",
    "BlackTeam",
    "WhiteRatingDiff",
    "BlackRatingDiff",
    "WhiteType",
    "BlackType",
    "WhiteUSCF",
    "BlackUSCF",
    "EventDate",
    "EventType",
    "EventRounds",
    "EventCountry",
    "EventCategory",
    "Section",
    "Stage",
    "Board",
    "Opening",
    "Variation",
    "SubVariation",
    "ECO",
    "NIC",
    "Time",
    "UTCDate",
    "UTCTime",
    "TimeControl",
    "SetUp",
    "FEN",
    "Termination",
    "Annotator",
    "Mode",
    "PlyCount",
    "Variant",
    "SourceDate",
    "Source",
    "Link",
    "Timezone",
    "StartTime",
    "EndTime",
    "EndDate",
    "CurrentPosition",
];

/// The tag name close to `name`, a name no game had: a known name that differs only in case
/// (`Whiteelo` → `WhiteElo`), else one at most two edits away (`WhitElo`), else one of
/// `seen` that differs only in case.
///
/// ```
/// use tabia_select::close_tag_name;
///
/// assert_eq!(close_tag_name("Whiteelo", &[]), Some("WhiteElo"));
/// assert_eq!(close_tag_name("TimeControll", &[]), Some("TimeControl"));
/// assert_eq!(close_tag_name("Opnening", &[]), Some("Opening"));
/// assert_eq!(close_tag_name("Flavour", &[]), None);
/// assert_eq!(close_tag_name("myclub", &["MyClub"]), Some("MyClub"));
/// ```
pub fn close_tag_name<'a>(name: &str, seen: &[&'a str]) -> Option<&'a str> {
    let known = || KNOWN_TAGS.iter().copied();
    if let Some(same) = known()
        .chain(seen.iter().copied())
        .find(|k| k.eq_ignore_ascii_case(name) && *k != name)
    {
        return Some(same);
    }
    let limit = if name.len() > 4 { 2 } else { 1 };
    known()
        .map(|k| {
            (
                edits(&name.to_ascii_lowercase(), &k.to_ascii_lowercase()),
                k,
            )
        })
        .filter(|&(d, _)| d > 0 && d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

/// The edit distance of `a` and `b` (insertions, deletions, substitutions, and swaps of two
/// neighbours count one each): the optimal string alignment distance.
fn edits(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(text: &str) -> TagCriterion {
        text.parse().unwrap()
    }

    /// Found by the `criteria` fuzz target: a quoted value lost its quotes each time it was
    /// written and read again.
    #[test]
    fn values_write_back_to_themselves() {
        for (text, value, written) in [
            ("Event=x", "x", "Event=x"),
            ("Event=\"x\"", "x", "Event=x"),
            ("Event=\"\"x\"\"", "\"x\"", "Event=\"\"x\"\""),
            ("Event~\"\"\"", "\"", "Event~\""),
            ("Event=\" x \"", " x ", "Event=\" x \""),
        ] {
            let criterion = tag(text);
            assert_eq!(criterion.value, value, "{text}");
            assert_eq!(criterion.to_string(), written, "{text}");
            assert_eq!(tag(written).value, value, "{text}");
        }
    }

    #[test]
    fn operators_on_text_numbers_dates() {
        assert!(tag("White=Carlsen, Magnus").matches(Some("Carlsen, Magnus")));
        assert!(!tag("White=Carlsen").matches(Some("Carlsen, Magnus")));
        assert!(tag("White!=Carlsen").matches(None));
        assert!(tag("WhiteElo>2700").matches(Some("2701")));
        assert!(!tag("WhiteElo>2700").matches(Some("2700")));
        assert!(!tag("WhiteElo>2700").matches(Some("?")));
        assert!(tag("WhiteElo<=2700").matches(Some("2700")));
        assert!(tag("Round=3").matches(Some("3.0")));
        assert!(tag("Round!=3").matches(Some("4")));
        assert!(tag("Date=2020.05").matches(Some("2020.05.17")));
        assert!(!tag("Date=2020.05").matches(Some("2020.??.??")));
        assert!(tag("Date<2020").matches(Some("2019.??.??")));
        assert!(!tag("Date<2020").matches(Some("????.??.??")));
        assert!(tag("Date<=2020.05").matches(Some("2020.05.31")));
        assert!(tag("Date>2020").matches(Some("2021.01.01")));
        assert!(tag("Date!=2020").matches(Some("2021.01.01")));
        assert!(tag("Date!=2020").matches(None));
        assert!(tag("Date=????.??.??").matches(Some("????.??.??")));
        assert!(tag("TimeControl>=600").matches(Some("40/7200:3600")));
        assert!(tag("TimeControl=600+5").matches(Some("600+5")));
        assert!(!tag("TimeControl=600+5").matches(Some("600+0")));
        assert!(tag("Event~^Tata").matches(Some("Tata Steel Masters")));
        assert!(tag("Event!~^Tata").matches(Some("Wijk aan Zee")));
        assert!(tag("Event!~^Tata").matches(None));
        assert!(!tag("Event~^Tata").matches(None));
        assert!(tag("Site = \"Wijk aan Zee NED\"").matches(Some("Wijk aan Zee NED")));
    }

    #[test]
    fn base_times() {
        assert_eq!(base_time("600+5"), Some(600.0));
        assert_eq!(base_time("40/7200:3600"), Some(7200.0));
        assert_eq!(base_time("*180"), Some(180.0));
        assert_eq!(base_time("-"), None);
        assert_eq!(base_time("?"), None);
    }

    #[test]
    fn round_trip() {
        for text in [
            "White=Carlsen, Magnus",
            "Date>=2020",
            "Event~^Tata",
            "WhiteElo<2000",
            "Annotator!=",
        ] {
            assert_eq!(tag(text).to_string(), text);
        }
    }

    #[test]
    fn bad_criteria_name_the_bad_part() {
        let mut messages = crate::golden::Messages::default();
        messages.push("White Kasparov".parse::<TagCriterion>().unwrap_err());
        messages.push("=Kasparov".parse::<TagCriterion>().unwrap_err());
        messages.push("Event~(Tata".parse::<TagCriterion>().unwrap_err());
        messages.push("Date>=last year".parse::<TagCriterion>().unwrap_err());
        messages.push("WhiteElo==2500".parse::<TagCriterion>().unwrap_err());
        messages.push("WhiteElo <> 2500".parse::<TagCriterion>().unwrap_err());
        for mistyped in [
            "WhiteElo=>2500",
            "WhiteElo = =2500",
            "Event!==x",
            "Event~=x",
        ] {
            let err = mistyped.parse::<TagCriterion>().unwrap_err();
            assert_eq!(err.kind(), &ParseErrorKind::UnknownOperator, "{mistyped}");
        }
        messages.check("tag-bad_criteria_name_the_bad_part");
    }

    #[test]
    fn values_that_start_like_operators_are_quoted() {
        let criterion = tag("Event=\"=x\"");
        assert_eq!((criterion.op(), criterion.value()), (TagOp::Eq, "=x"));
        assert_eq!(criterion.to_string(), "Event=\"=x\"");
        assert!(criterion.matches(Some("=x")));
        assert!(tag("Round~\"<1\"").matches(Some("<1")));
    }
}
