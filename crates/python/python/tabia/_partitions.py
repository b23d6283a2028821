"""Partitions of PGN inputs for engines that read in parallel (:mod:`tabia.spark`,
:mod:`tabia.dask`): one per file, and for a large uncompressed PGN file one per byte range.

The driver only plans: it expands globs and folders and asks each uncompressed file for its
ranges (its size alone decides them). Each task then reads its partition with tabia's Rust
reader on the machine it runs on: a range owns the games that *start* in it, as reading the
whole file says, so every game is read exactly once however the file is cut, with its game
number, line and byte offset in the file (``tabia.stream::Span`` in the Rust crates).
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from typing import Iterable, Sequence

import pyarrow as pa

from . import _tabia

#: The names of the files a folder is searched for, as ``tabia`` reads folders.
PGN_SUFFIXES = (".pgn", ".pgn.gz", ".pgn.zst", ".pgn.bz2", ".pgn.xz", ".zip")


@dataclass(frozen=True)
class Partition:
    """One task's part of the input: a whole file (``start`` and ``end`` are ``None``), or
    the games that start in bytes ``start..end`` of an uncompressed file."""

    path: str
    start: int | None = None
    end: int | None = None


def _is_pgn(name: str) -> bool:
    return name.lower().endswith(PGN_SUFFIXES)


def expand(paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]) -> list[str]:
    """The files of ``paths``: each a file, a glob (``games/*.pgn.zst``, ``**`` included) or
    a folder (its PGN files and zip archives, in the folders within it too), in order.

    Raises ``FileNotFoundError`` for a glob that matches nothing or a path that does not
    exist: an input that silently gave no rows would be worse."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    files: list[str] = []
    for path in map(os.fspath, paths):
        if glob.has_magic(path):
            found = sorted(p for p in glob.glob(path, recursive=True) if os.path.isfile(p))
            if not found:
                raise FileNotFoundError(f"no file matches {path!r}")
            files.extend(found)
        elif os.path.isdir(path):
            found = sorted(
                os.path.join(root, name)
                for root, _, names in os.walk(path)
                for name in names
                if _is_pgn(name)
            )
            if not found:
                raise FileNotFoundError(f"no PGN file in the folder {path!r}")
            files.extend(found)
        elif os.path.exists(path):
            files.append(path)
        else:
            raise FileNotFoundError(f"no such file: {path!r}")
    return files


def plan(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    split_bytes: int | None = None,
) -> list[Partition]:
    """The partitions of ``paths``: one per file, and with ``split_bytes``, an uncompressed
    file larger than that in ranges of about ``split_bytes`` bytes (a compressed file cannot
    be entered in the middle and stays whole)."""
    if split_bytes is not None and split_bytes <= 0:
        raise ValueError(f"split_bytes must be positive, not {split_bytes}")
    partitions = []
    for path in expand(paths):
        ranges = _tabia.ranges(path, split_bytes) if split_bytes else []
        if len(ranges) > 1:
            partitions.extend(Partition(path, start, end) for start, end in ranges)
        else:
            partitions.append(Partition(path))
    return partitions


def project(schema: pa.Schema, columns: Sequence[str] | None, moves: bool) -> pa.Schema:
    """``schema`` with only ``columns`` (all when ``None``), in that order; a column it does
    not have is a ``ValueError`` that lists those it has."""
    if columns is None:
        return schema
    for name in columns:
        if name not in schema.names:
            raise ValueError(
                f"no column {name!r} in the {'moves' if moves else 'games'} table "
                f"(its columns: {', '.join(schema.names)})"
            )
    return pa.schema([schema.field(name) for name in columns])


def scan(
    partition: Partition,
    moves: bool = False,
    columns: Sequence[str] | None = None,
    jobs: int | None = 1,
    nested: bool = False,
    fen: bool = False,
) -> pa.RecordBatchReader:
    """The table (games, or ``moves=True`` moves) of one partition's games, as ``tabia.scan``
    gives it for a whole file; ``jobs`` cores (1 by default: the engine runs a task per
    core)."""
    from . import scan as scan_files

    columns = list(columns) if columns is not None else None
    if partition.start is None:
        return scan_files(
            partition.path, moves=moves, columns=columns, jobs=jobs, nested=nested, fen=fen
        )
    stream = _tabia.scan_range(
        partition.path,
        partition.start,
        partition.end,
        moves=moves,
        columns=columns,
        jobs=jobs,
        nested=nested,
        fen=fen,
    )
    return pa.RecordBatchReader.from_stream(stream)
