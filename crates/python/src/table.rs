//! `read_table`, `scan`: the tables of `tabia table` handed to Arrow consumers through the
//! Arrow C stream interface (`__arrow_c_stream__`, a PyCapsule named `arrow_array_stream`
//! holding arrow's own `FFI_ArrowArrayStream`): the record batches are not copied, and no
//! Python object is made per game or per move.

use std::{
    ffi::CStr,
    path::PathBuf,
    sync::{Arc, Mutex},
};

use arrow_array::{RecordBatch, RecordBatchReader, ffi_stream::FFI_ArrowArrayStream};
use pyo3::{exceptions::PyValueError, prelude::*, types::PyCapsule};
use tabia::{
    position::EpRule,
    table::{
        Columns, ReadOptions, Tables,
        arrow_schema::{ArrowError, SchemaRef},
        games_schema, moves_schema,
    },
};

use crate::{error::game_error, position::ep_rule};

const STREAM: &CStr = c"arrow_array_stream";

/// Which table and which columns of it.
#[derive(Debug, Clone)]
struct Shape {
    /// The moves table rather than the games table.
    moves: bool,
    columns: Columns,
    /// The schema handed out, after projection.
    schema: SchemaRef,
    /// The indices of the projected columns, or `None` for all.
    projection: Option<Vec<usize>>,
    /// The en-passant rule of the moves' `fen` and `ep_square` (`EpRule::Legal` unless
    /// [`Shape::en_passant`] says otherwise).
    ep: EpRule,
}

impl Shape {
    fn new(
        moves: bool,
        nested: bool,
        fen: bool,
        boards: bool,
        names: Option<Vec<String>>,
    ) -> PyResult<Shape> {
        if moves && nested {
            return Err(PyValueError::new_err(
                "moves=True and nested=True ask for two shapes of the moves: choose one",
            ));
        }
        let columns = Columns {
            nested,
            fen,
            boards,
        };
        let full = if moves {
            moves_schema(columns)
        } else {
            games_schema(columns)
        };
        let projection = match names {
            None => None,
            Some(names) => Some(
                names
                    .iter()
                    .map(|name| {
                        full.index_of(name).map_err(|_| {
                            let known: Vec<&str> =
                                full.fields().iter().map(|f| f.name().as_str()).collect();
                            PyValueError::new_err(format!(
                                "no column {name:?} in the {} table (its columns: {})",
                                if moves { "moves" } else { "games" },
                                known.join(", ")
                            ))
                        })
                    })
                    .collect::<PyResult<Vec<usize>>>()?,
            ),
        };
        let schema = match &projection {
            Some(indices) => Arc::new(full.project(indices).map_err(value_error)?),
            None => full,
        };
        Ok(Shape {
            moves,
            columns,
            schema,
            projection,
            ep: EpRule::Legal,
        })
    }

    /// This shape with the en-passant rule of python-chess's `en_passant=` (`"legal"`,
    /// `"fen"`, `"xfen"`).
    fn en_passant(mut self, en_passant: &str) -> PyResult<Shape> {
        self.ep = ep_rule(en_passant)?;
        Ok(self)
    }

    /// The batch of this shape out of the tables of one batch of games.
    fn batch(&self, tables: Tables) -> Result<RecordBatch, ArrowError> {
        let batch = if self.moves {
            tables
                .moves
                .ok_or_else(|| ArrowError::InvalidArgumentError("no moves table".into()))?
        } else {
            tables.games
        };
        match &self.projection {
            Some(indices) => batch.project(indices),
            None => Ok(batch),
        }
    }

    fn read_options(&self) -> ReadOptions {
        ReadOptions {
            moves: self.moves || self.columns.nested,
            fen: self.columns.fen,
            boards: self.columns.boards,
            ep: self.ep,
        }
    }
}

fn value_error(error: ArrowError) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// A stream of record batches that pyarrow, Polars and DuckDB read through
/// `__arrow_c_stream__`; read once.
#[pyclass(module = "tabia", name = "TableStream")]
pub(crate) struct TableStream {
    schema: SchemaRef,
    // A mutex only to be `Sync`, as a Python object must: it is taken once.
    batches: Mutex<Option<BoxedBatches>>,
}

pub(crate) type BoxedBatches = Box<dyn Iterator<Item = Result<RecordBatch, ArrowError>> + Send>;

impl TableStream {
    pub(crate) fn new(schema: SchemaRef, batches: BoxedBatches) -> TableStream {
        TableStream {
            schema,
            batches: Mutex::new(Some(batches)),
        }
    }
}

/// The iterator of a [`TableStream`] as arrow's reader.
struct Batches {
    schema: SchemaRef,
    batches: BoxedBatches,
}

impl Iterator for Batches {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.batches.next()
    }
}

impl RecordBatchReader for Batches {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

#[pymethods]
impl TableStream {
    /// The Arrow C stream interface: a PyCapsule `arrow_array_stream`. The stream can be
    /// taken once.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        // The schema is the tables' own: a requested one is a hint we may ignore.
        let _ = requested_schema;
        let taken = self.batches.lock().map(|mut b| b.take()).unwrap_or(None);
        let batches = taken.ok_or_else(|| {
            PyValueError::new_err(
                "this tabia table stream was already read (streams are read once)",
            )
        })?;
        let reader = Batches {
            schema: self.schema.clone(),
            batches,
        };
        let stream = FFI_ArrowArrayStream::new(Box::new(reader));
        PyCapsule::new_with_value(py, stream, STREAM)
    }

    fn __repr__(&self) -> String {
        format!(
            "<tabia.TableStream of {} columns>",
            self.schema.fields().len()
        )
    }
}

/// The whole table, read on all cores with the GIL released, Ctrl-C checked between
/// batches, and the `tabia.GameError` of each input that could not be opened or read to its
/// end (the games read before the end of a cut input are in the table).
#[pyfunction]
#[pyo3(signature = (inputs, moves = false, columns = None, jobs = None, nested = false, fen = false, boards = false, en_passant = "legal"))]
#[allow(clippy::too_many_arguments)] // Python keyword arguments.
pub(crate) fn read_table(
    py: Python<'_>,
    inputs: &Bound<'_, PyAny>,
    moves: bool,
    columns: Option<Vec<String>>,
    jobs: Option<usize>,
    nested: bool,
    fen: bool,
    boards: bool,
    en_passant: &str,
) -> PyResult<(TableStream, Vec<Py<PyAny>>)> {
    let shape = Shape::new(moves, nested, fen, boards, columns)?.en_passant(en_passant)?;
    let mut tables =
        crate::inputs::reader(inputs, jobs)?.table(shape.read_options(), shape.columns);
    let mut batches = Vec::new();
    let mut errors = Vec::new();
    loop {
        let next = py.detach(|| tables.next());
        py.check_signals()?;
        match next {
            None => break,
            Some(Ok(t)) => batches.push(shape.batch(t).map_err(value_error)?),
            Some(Err(error)) => errors.push(game_error(py, &error).into_value(py).into_any()),
        }
    }
    let stream = TableStream::new(shape.schema.clone(), Box::new(batches.into_iter().map(Ok)));
    Ok((stream, errors))
}

/// The table as a stream, read batch by batch as the consumer asks; an input error ends the
/// stream with an error.
#[pyfunction]
#[pyo3(signature = (inputs, moves = false, columns = None, jobs = None, nested = false, fen = false, boards = false, en_passant = "legal"))]
#[allow(clippy::too_many_arguments)] // Python keyword arguments.
pub(crate) fn scan(
    inputs: &Bound<'_, PyAny>,
    moves: bool,
    columns: Option<Vec<String>>,
    jobs: Option<usize>,
    nested: bool,
    fen: bool,
    boards: bool,
    en_passant: &str,
) -> PyResult<TableStream> {
    let shape = Shape::new(moves, nested, fen, boards, columns)?.en_passant(en_passant)?;
    let tables = crate::inputs::reader(inputs, jobs)?.table(shape.read_options(), shape.columns);
    let schema = shape.schema.clone();
    let batches = tables.map(move |tables| match tables {
        Ok(tables) => shape.batch(tables),
        Err(error) => Err(ArrowError::ExternalError(Box::new(error))),
    });
    Ok(TableStream::new(schema, Box::new(batches)))
}

/// The schema of a table, as a stream of no batches (for `pyarrow.schema`-like use).
#[pyfunction]
#[pyo3(signature = (moves = false, nested = false, fen = false, boards = false))]
pub(crate) fn schema(moves: bool, nested: bool, fen: bool, boards: bool) -> PyResult<TableStream> {
    let shape = Shape::new(moves, nested, fen, boards, None)?;
    Ok(TableStream::new(shape.schema, Box::new(std::iter::empty())))
}

/// The byte ranges of the file at `path` for reading it in parallel pieces of about
/// `target_bytes` (`tabia::stream::ranges`): `(start, end)` pairs that cover it, one for a
/// compressed file. For `tabia.spark` and `tabia.dask`, which plan their partitions with it.
#[pyfunction]
pub(crate) fn ranges(
    py: Python<'_>,
    path: PathBuf,
    target_bytes: u64,
) -> PyResult<Vec<(u64, u64)>> {
    let planned = py.detach(|| tabia::stream::ranges(&path, target_bytes));
    match planned {
        Ok(ranges) => Ok(ranges.into_iter().map(|r| (r.start, r.end)).collect()),
        Err(error) => Err(pyo3::exceptions::PyOSError::new_err(format!(
            "{error}{}",
            error.io().map(|io| format!(": {io}")).unwrap_or_default()
        ))),
    }
}

/// [`scan`] of the games that start in bytes `start..end` of the file at `path`
/// (`tabia::Reader::range`): every game of the file is in exactly one of the ranges
/// [`ranges`] plans, with its number and line in the file.
#[pyfunction]
#[pyo3(signature = (path, start, end, moves = false, columns = None, jobs = None, nested = false, fen = false, boards = false))]
#[allow(clippy::too_many_arguments)] // Python keyword arguments.
pub(crate) fn scan_range(
    path: PathBuf,
    start: u64,
    end: u64,
    moves: bool,
    columns: Option<Vec<String>>,
    jobs: Option<usize>,
    nested: bool,
    fen: bool,
    boards: bool,
) -> PyResult<TableStream> {
    let shape = Shape::new(moves, nested, fen, boards, columns)?;
    let tables = tabia::Reader::range(path, start..end)
        .jobs(jobs.unwrap_or(0))
        .table(shape.read_options(), shape.columns);
    let schema = shape.schema.clone();
    let batches = tables.map(move |tables| match tables {
        Ok(tables) => shape.batch(tables),
        Err(error) => Err(ArrowError::ExternalError(Box::new(error))),
    });
    Ok(TableStream::new(schema, Box::new(batches)))
}
