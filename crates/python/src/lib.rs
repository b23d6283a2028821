//! tabia for Python: the extension module `tabia._tabia` under the package `tabia`
//! (`python/tabia`). Thin bindings over the [`tabia`] facade: every entry point here calls
//! one of the facade's, turns its values into Python ones and its errors into Python
//! exceptions, and releases the GIL while Rust works.

mod analyse;
mod board;
mod collection;
mod convert;
mod eco;
mod error;
mod games;
mod index;
mod inputs;
mod interned;
mod position;
mod table;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
fn _tabia(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("GameError", m.py().get_type::<error::GameError>())?;
    m.add(
        "PositionError",
        m.py().get_type::<position::PositionError>(),
    )?;
    m.add_class::<table::TableStream>()?;
    m.add_class::<games::GameReader>()?;
    m.add_class::<games::Game>()?;
    m.add_class::<games::Move>()?;
    m.add_class::<position::Position>()?;
    board::register(m)?;
    m.add_class::<eco::Opening>()?;
    m.add_function(wrap_pyfunction!(games::read_games, m)?)?;
    m.add_function(wrap_pyfunction!(position::status, m)?)?;
    m.add_function(wrap_pyfunction!(position::is_valid, m)?)?;
    m.add_function(wrap_pyfunction!(eco::eco, m)?)?;
    m.add_class::<index::Index>()?;
    m.add_class::<collection::Tree>()?;
    m.add_class::<collection::TreeMove>()?;
    m.add_function(wrap_pyfunction!(collection::filter, m)?)?;
    m.add_function(wrap_pyfunction!(collection::stats, m)?)?;
    m.add_function(wrap_pyfunction!(collection::tree, m)?)?;
    m.add_function(wrap_pyfunction!(table::read_table, m)?)?;
    m.add_function(wrap_pyfunction!(table::scan, m)?)?;
    m.add_function(wrap_pyfunction!(table::schema, m)?)?;
    m.add_function(wrap_pyfunction!(table::ranges, m)?)?;
    m.add_function(wrap_pyfunction!(table::scan_range, m)?)?;
    m.add_function(wrap_pyfunction!(analyse::analyse, m)?)?;
    m.add_function(wrap_pyfunction!(analyse::analysis_schema, m)?)?;
    Ok(())
}
