//! Errors as Python exceptions: [`GameError`] carries file, line, column and game number.

use pyo3::{exceptions::PyValueError, prelude::*};

pyo3::create_exception!(
    tabia,
    GameError,
    PyValueError,
    "A game that could not be read or replayed, or an input that could not be opened or read \
     to its end. Attributes: `file` (the input's name), `number` (the game's number in it, \
     from 1, or None), `line` and `column` (1-based, or None), `kind` (\"syntax\", \"replay\", \
     \"input\", \"io\" or \"table\") and `message` (what went wrong, without the place)."
);

/// `error` as a `tabia.GameError` with its attributes set.
pub(crate) fn game_error(py: Python<'_>, error: &tabia::GameError) -> PyErr {
    let err = GameError::new_err(error.to_string());
    if let Err(failed) = set_attributes(err.value(py), error) {
        return failed;
    }
    err
}

fn set_attributes(
    value: &Bound<'_, pyo3::exceptions::PyBaseException>,
    error: &tabia::GameError,
) -> PyResult<()> {
    let (line, column) = error.location().unzip();
    value.setattr("file", error.input())?;
    value.setattr("number", error.number())?;
    value.setattr("line", line)?;
    value.setattr("column", column)?;
    value.setattr("kind", kind(error))?;
    value.setattr("message", message(error))?;
    Ok(())
}

/// The name of the error's kind.
fn kind(error: &tabia::GameError) -> &'static str {
    match error.kind() {
        tabia::GameErrorKind::Syntax(_) => "syntax",
        tabia::GameErrorKind::Replay(_) => "replay",
        tabia::GameErrorKind::Input(_) => "input",
        tabia::GameErrorKind::Io(_) => "io",
        _ => "table",
    }
}

/// What went wrong, without the input, game and place the message starts with.
fn message(error: &tabia::GameError) -> String {
    match error.kind() {
        tabia::GameErrorKind::Syntax(e) => e.brief().to_string(),
        tabia::GameErrorKind::Replay(e) => e.to_string(),
        tabia::GameErrorKind::Io(e) => format!("read error: {e}"),
        _ => error.to_string(),
    }
}
