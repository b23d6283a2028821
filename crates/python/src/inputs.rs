//! The inputs of the entry points that read games: what `tabia/__init__.py` makes of the
//! paths, lists, file objects and PGN text a user hands over.

use std::path::PathBuf;

use pyo3::{
    exceptions::PyTypeError,
    prelude::*,
    types::{PyBytes, PyTuple},
};
use tabia::{InputArg, Reader};

/// A reader of `inputs`, a list whose items are each a path (`str` or `os.PathLike`) or a
/// `(name, bytes)` pair of PGN in memory, with `jobs` workers (None: one per core).
pub(crate) fn reader(inputs: &Bound<'_, PyAny>, jobs: Option<usize>) -> PyResult<Reader> {
    let mut args = Vec::new();
    for item in inputs.try_iter()? {
        let item = item?;
        if let Ok(pair) = item.cast::<PyTuple>() {
            let (name, bytes): (String, Bound<'_, PyBytes>) = pair.extract()?;
            args.push(InputArg::memory(name, bytes.as_bytes()));
        } else if let Ok(path) = item.extract::<PathBuf>() {
            args.push(InputArg::Path(path));
        } else {
            return Err(PyTypeError::new_err(format!(
                "an input is a path or a (name, bytes) pair, not {}",
                item.get_type().name()?
            )));
        }
    }
    Ok(Reader::of(args).jobs(jobs.unwrap_or(0)))
}
