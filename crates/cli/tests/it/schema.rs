//! NDJSON outputs checked against the schema documented in `docs/schema.md`.

use serde_json::Value;

/// The type of a JSON field in the documented schema.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Kind {
    Str,
    /// A non-negative integer.
    Uint,
    /// An integer.
    Int,
    Bool,
    /// An array of strings.
    Strs,
    /// An array of `[name, value]` string pairs.
    Pairs,
    /// An error object: `file`, `message`, optional `line`, `column`, `game`.
    Error,
    /// An array of non-negative integers and nulls.
    OptUints,
    /// An evaluation: `{"cp": n}` or `{"mate": n}`, optional `"depth"`.
    Eval,
    /// An array of evaluations and nulls.
    OptEvals,
}

/// A field of an object: its name, type, and whether it must be present.
pub(crate) type Field = (&'static str, Kind, bool);

/// Parses NDJSON: every line one JSON object.
pub(crate) fn ndjson(stdout: &[u8]) -> Vec<Value> {
    let text = std::str::from_utf8(stdout).expect("NDJSON is UTF-8");
    text.lines()
        .map(|line| {
            let value: Value =
                serde_json::from_str(line).unwrap_or_else(|err| panic!("not JSON ({err}): {line}"));
            assert!(value.is_object(), "not an object: {line}");
            value
        })
        .collect()
}

/// Checks an object against a schema: every required field present, every field of the right
/// type, no field that the schema does not document.
pub(crate) fn check(value: &Value, schema: &[Field]) {
    let object = value.as_object().expect("an object");
    for (name, kind, required) in schema {
        match object.get(*name) {
            None => assert!(!required, "missing `{name}` in {value}"),
            Some(field) => assert!(is_kind(field, *kind), "`{name}` is not {kind:?} in {value}"),
        }
    }
    for name in object.keys() {
        assert!(
            schema.iter().any(|(n, _, _)| n == name),
            "undocumented field `{name}` in {value}"
        );
    }
}

fn is_kind(value: &Value, kind: Kind) -> bool {
    match kind {
        Kind::Str => value.is_string(),
        Kind::Uint => value.is_u64(),
        Kind::Int => value.is_i64(),
        Kind::Bool => value.is_boolean(),
        Kind::Strs => value
            .as_array()
            .is_some_and(|a| a.iter().all(Value::is_string)),
        Kind::Pairs => value.as_array().is_some_and(|a| {
            a.iter().all(|p| {
                p.as_array()
                    .is_some_and(|p| p.len() == 2 && p.iter().all(Value::is_string))
            })
        }),
        Kind::Error => {
            check(value, ERROR);
            true
        }
        Kind::OptUints => value
            .as_array()
            .is_some_and(|a| a.iter().all(|v| v.is_null() || v.is_u64())),
        Kind::Eval => {
            check(value, EVAL);
            value.get("cp").is_some() != value.get("mate").is_some()
        }
        Kind::OptEvals => value
            .as_array()
            .is_some_and(|a| a.iter().all(|v| v.is_null() || is_kind(v, Kind::Eval))),
    }
}

/// The error object of every `--json` output (`docs/schema.md`).
pub(crate) const ERROR: &[Field] = &[
    ("file", Kind::Str, true),
    ("line", Kind::Uint, false),
    ("column", Kind::Uint, false),
    ("game", Kind::Uint, false),
    ("message", Kind::Str, true),
];

/// An evaluation (`[%eval]`) in `pgn --json` and `epd --json`.
pub(crate) const EVAL: &[Field] = &[
    ("cp", Kind::Int, false),
    ("mate", Kind::Int, false),
    ("depth", Kind::Uint, false),
];

/// `tabia pgn --json` (`docs/schema.md`).
pub(crate) const PGN: &[Field] = &[
    ("file", Kind::Str, true),
    ("game", Kind::Uint, true),
    ("line", Kind::Uint, true),
    ("tags", Kind::Pairs, true),
    ("moves", Kind::Strs, true),
    ("clocks", Kind::OptUints, true),
    ("emts", Kind::OptUints, true),
    ("evals", Kind::OptEvals, true),
    ("result", Kind::Str, true),
    ("pgn", Kind::Str, true),
];

/// The line of a game or position that could not be processed.
pub(crate) const REJECTED: &[Field] = &[
    ("file", Kind::Str, true),
    ("game", Kind::Uint, false),
    ("error", Kind::Error, true),
];

/// Checks every line of an NDJSON output: a line with `error` against [`REJECTED`], the
/// others against `schema`; gives the lines.
pub(crate) fn check_all(stdout: &[u8], schema: &[Field]) -> Vec<Value> {
    let lines = ndjson(stdout);
    for line in &lines {
        if line.get("error").is_some() {
            check(line, REJECTED);
        } else {
            check(line, schema);
        }
    }
    lines
}

/// `tabia epd --json` (EPD, or FEN with `--fen`).
pub(crate) const EPD: &[Field] = &[
    ("file", Kind::Str, true),
    ("game", Kind::Uint, true),
    ("ply", Kind::Uint, true),
    ("san", Kind::Str, false),
    ("epd", Kind::Str, false),
    ("fen", Kind::Str, false),
    ("clock", Kind::Uint, false),
    ("eval", Kind::Eval, false),
];

/// `tabia eco --json` of games.
pub(crate) const ECO: &[Field] = &[
    ("file", Kind::Str, true),
    ("game", Kind::Uint, true),
    ("status", Kind::Str, true),
    ("eco", Kind::Str, false),
    ("extended", Kind::Str, false),
    ("name", Kind::Str, false),
    ("ply", Kind::Uint, false),
    ("moves", Kind::Str, false),
];

/// `tabia eco --json --position`.
pub(crate) const ECO_POSITION: &[Field] = &[
    ("position", Kind::Str, true),
    ("status", Kind::Str, true),
    ("eco", Kind::Str, false),
    ("extended", Kind::Str, false),
    ("name", Kind::Str, false),
    ("ply", Kind::Uint, false),
    ("moves", Kind::Str, false),
];

/// `tabia fen --json`.
pub(crate) const FEN: &[Field] = &[
    ("position", Kind::Str, true),
    ("fen", Kind::Str, true),
    ("epd", Kind::Str, true),
    ("key", Kind::Str, true),
    ("zobrist", Kind::Str, true),
];

/// `tabia validate --json` (`file` and `line` for positions read from files).
pub(crate) const VALIDATE: &[Field] = &[
    ("file", Kind::Str, false),
    ("line", Kind::Uint, false),
    ("position", Kind::Str, true),
    ("valid", Kind::Bool, true),
    ("problems", Kind::Strs, true),
];
