"""tabia for Dask: PGN files, compressed or not, as a Dask DataFrame of games or moves with
the schema of ``tabia table`` (pandas columns backed by Arrow: ``pd.ArrowDtype``).

>>> import tabia.dask
>>> games = tabia.dask.read_pgn("games/*.pgn.zst")
>>> games.groupby("ECO").size().compute()

The client plans the partitions (one per file; ``split_bytes`` cuts a large uncompressed
file into byte ranges) and each worker reads its partitions with tabia's Rust reader. The
files must be readable at the same path on every worker. See docs/clusters.md.
"""

from __future__ import annotations

import os
from typing import Iterable, Sequence

import dask.dataframe as dd
import pandas as pd
import pyarrow as pa

from ._partitions import Partition, plan, project, scan

__all__ = ["read_pgn"]


def _frame(table: pa.Table | pa.Schema) -> pd.DataFrame:
    if isinstance(table, pa.Schema):
        table = table.empty_table()
    return table.to_pandas(types_mapper=pd.ArrowDtype)


def _read(
    partition: Partition,
    moves: bool,
    columns: Sequence[str] | None,
    jobs: int | None,
    nested: bool,
    fen: bool,
) -> pd.DataFrame:
    reader = scan(partition, moves=moves, columns=columns, jobs=jobs, nested=nested, fen=fen)
    return _frame(reader.read_all())


def read_pgn(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    moves: bool = False,
    split_bytes: int | None = None,
    columns: Sequence[str] | None = None,
    jobs: int | None = 1,
    nested: bool = False,
    fen: bool = False,
) -> dd.DataFrame:
    """The games table (``moves=True``: the moves table) of ``paths`` (files, globs,
    folders) as a Dask DataFrame, one partition per file, and with ``split_bytes`` one per
    range of about that many bytes of an uncompressed file. Each partition is read on a
    worker with ``jobs`` cores (1 by default: Dask runs a task per thread). Rows are those of
    ``tabia.read_table`` of the same files; bad games are rows with their ``errors``."""
    import tabia

    columns = list(columns) if columns is not None else None
    schema = project(tabia.schema(moves=moves, nested=nested, fen=fen), columns, moves)
    return dd.from_map(
        _read,
        plan(paths, split_bytes),
        moves=moves,
        columns=columns,
        jobs=jobs,
        nested=nested,
        fen=fen,
        meta=_frame(schema),
        label="read-pgn",
        enforce_metadata=False,
    )
