"""tabia as a PySpark (4.x) data source: PGN files, compressed or not, as a DataFrame of
games or moves with the schema of ``tabia table``.

>>> import tabia.spark
>>> spark.dataSource.register(tabia.spark.PgnDataSource)
>>> games = spark.read.format("pgn").load("games/*.pgn.zst")
>>> moves = spark.read.format("pgn").option("moves", "true").load("games/*.pgn.zst")

The driver plans the partitions (one per file; ``splitBytes`` cuts a large uncompressed file
into byte ranges) and each task reads its partition with tabia's Rust reader, handing Spark
Arrow record batches: no Python object is made per game or per move. The files must be
readable at the same path on every executor (a shared or mounted file system). See
docs/clusters.md.

Options (all strings, as Spark passes them):

``path``
    A file, a glob or a folder (what ``load`` is given); ``paths``: several (what
    ``load([f1, f2])`` gives, a JSON array; or written by hand, comma-separated).
``moves``
    ``true`` for the moves table (one row per ply), else the games table.
``columns``
    Comma-separated column names to keep (all by default).
``splitBytes``
    Cut uncompressed files larger than this many bytes into ranges of about this size.
``jobs``
    Cores each task reads with (1 by default: Spark runs a task per core).
``nested``, ``fen``
    As in ``tabia.read_table``.

Types follow the Arrow schema of ``tabia.schema()``, with what Spark lacks mapped: the
unsigned 64-bit Zobrist keys (``zobrist``, ``final_zobrist``) are ``bigint`` with the same 64
bits (negative when the top bit is set, as Java reads Polyglot keys), NAGs are ``smallint``,
and ``UTCTime`` is a ``HH:MM:SS`` string (Spark's time type is off by default).
"""

from __future__ import annotations

import json
from typing import Any, Iterator, Sequence

import pyarrow as pa
from pyspark.sql import types as T
from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition

__all__ = ["PgnDataSource", "spark_schema"]


def _spark_type(arrow: pa.DataType) -> T.DataType:
    """The Spark type that holds the values of an Arrow type of tabia's tables."""
    if pa.types.is_string(arrow) or pa.types.is_large_string(arrow):
        return T.StringType()
    if pa.types.is_int8(arrow) or pa.types.is_int16(arrow) or pa.types.is_uint8(arrow):
        return T.ShortType()
    if pa.types.is_int32(arrow) or pa.types.is_uint16(arrow):
        return T.IntegerType()
    if pa.types.is_int64(arrow) or pa.types.is_uint32(arrow) or pa.types.is_uint64(arrow):
        return T.LongType()
    if pa.types.is_boolean(arrow):
        return T.BooleanType()
    if pa.types.is_floating(arrow):
        return T.DoubleType()
    if pa.types.is_date32(arrow):
        return T.DateType()
    if pa.types.is_time(arrow):
        # Spark's TIME type is off by default (4.1+, spark.sql.timeType.enabled).
        return T.StringType()
    if pa.types.is_map(arrow):
        return T.MapType(
            _spark_type(arrow.key_type), _spark_type(arrow.item_type), arrow.item_field.nullable
        )
    if pa.types.is_list(arrow) or pa.types.is_large_list(arrow):
        return T.ArrayType(_spark_type(arrow.value_type), arrow.value_field.nullable)
    if pa.types.is_struct(arrow):
        return T.StructType(
            [T.StructField(f.name, _spark_type(f.type), f.nullable) for f in arrow]
        )
    raise TypeError(f"no Spark type for the Arrow type {arrow}")


def spark_schema(schema: pa.Schema) -> T.StructType:
    """The Spark schema of one of tabia's Arrow schemas (see the module's notes on types)."""
    return T.StructType(
        [T.StructField(f.name, _spark_type(f.type), f.nullable) for f in schema]
    )


def _conform(array: pa.Array, target: pa.DataType) -> pa.Array:
    """``array`` as Spark's Arrow type ``target``: unsigned keys keep their 64 bits, a time of
    day becomes a string where Spark has no time type."""
    if array.type == target:
        return array
    return array.cast(target, safe=False)


class _Options:
    """The options of a read, parsed once on the driver."""

    def __init__(self, options: Any) -> None:
        def flag(name: str) -> bool:
            value = str(options.get(name, "false")).strip().lower()
            if value not in ("true", "false"):
                raise ValueError(f"option {name}: true or false, not {value!r}")
            return value == "true"

        def number(name: str) -> int | None:
            value = options.get(name)
            if value is None or str(value).strip() == "":
                return None
            try:
                return int(value)
            except ValueError:
                raise ValueError(f"option {name}: a number of bytes, not {value!r}") from None

        paths = _paths_option(str(options.get("paths", "")))
        if options.get("path"):
            paths.insert(0, options["path"])
        if not paths:
            raise ValueError('no input: spark.read.format("pgn").load("games/*.pgn")')
        self.paths = paths
        self.moves = flag("moves")
        self.nested = flag("nested")
        self.fen = flag("fen")
        columns = options.get("columns")
        self.columns = (
            [c.strip() for c in columns.split(",") if c.strip()] if columns else None
        )
        self.split_bytes = number("splitBytes")
        self.jobs = number("jobs") or 1


def _paths_option(value: str) -> list[str]:
    """The ``paths`` option: the JSON array Spark makes of ``load([f1, f2])`` (names may hold
    commas and spaces), or names written by hand, comma-separated."""
    if value.lstrip().startswith("["):
        try:
            parsed = json.loads(value)
        except ValueError:
            parsed = None
        if isinstance(parsed, list) and all(isinstance(p, str) for p in parsed):
            return [p for p in parsed if p]
    return [p.strip() for p in value.split(",") if p.strip()]


class PgnDataSource(DataSource):
    """The ``pgn`` data source: register it with
    ``spark.dataSource.register(tabia.spark.PgnDataSource)``."""

    @classmethod
    def name(cls) -> str:
        return "pgn"

    def schema(self) -> T.StructType:
        import tabia

        from ._partitions import project

        o = _Options(self.options)
        schema = tabia.schema(moves=o.moves, nested=o.nested, fen=o.fen)
        return spark_schema(project(schema, o.columns, o.moves))

    def reader(self, schema: T.StructType) -> DataSourceReader:
        return _PgnReader(_Options(self.options), schema)


class _Part(InputPartition):
    """A partition as Spark ships it to an executor: a file, or a byte range of one."""

    def __init__(self, path: str, start: int | None, end: int | None) -> None:
        super().__init__((path, start, end))
        self.path, self.start, self.end = path, start, end


class _PgnReader(DataSourceReader):
    def __init__(self, options: _Options, schema: T.StructType) -> None:
        self.options = options
        self.schema = schema

    def partitions(self) -> Sequence[InputPartition]:
        from ._partitions import plan

        return [
            _Part(p.path, p.start, p.end)
            for p in plan(self.options.paths, self.options.split_bytes)
        ]

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        from pyspark.sql.pandas.types import to_arrow_schema

        from ._partitions import Partition, scan

        o = self.options
        target = to_arrow_schema(self.schema, timezone="UTC")
        part = Partition(partition.path, partition.start, partition.end)
        batches = scan(
            part,
            moves=o.moves,
            columns=self.schema.fieldNames(),
            jobs=o.jobs,
            nested=o.nested,
            fen=o.fen,
        )
        for batch in batches:
            if batch.num_rows == 0:
                continue
            arrays = [
                _conform(batch.column(i), field.type) for i, field in enumerate(target)
            ]
            yield pa.RecordBatch.from_arrays(arrays, schema=target)
