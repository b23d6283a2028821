"""tabia: chess games by the million, read on all cores.

Games (:func:`read_games`), positions (:class:`Position`) and the tables of ``tabia table``
as Arrow (:func:`read_table`, :func:`scan`) without a copy and without a Python object per
game. See docs/python.md.
"""

from __future__ import annotations

import os
from typing import Iterable, Sequence

import pyarrow as pa

from . import _tabia
from ._tabia import (
    Game,
    GameError,
    GameReader,
    Move,
    Opening,
    Position,
    PositionError,
    __version__,
    eco,
    is_valid,
    status,
)

__all__ = [
    "Game",
    "GameError",
    "GameReader",
    "Move",
    "Opening",
    "Position",
    "PositionError",
    "__version__",
    "eco",
    "is_valid",
    "read_games",
    "read_table",
    "scan",
    "schema",
    "status",
]


def _paths(paths: Iterable[str | os.PathLike[str]]) -> list[str]:
    return [os.fspath(p) for p in paths]


def read_games(
    *paths: str | os.PathLike[str],
    jobs: int | None = None,
    variations: bool = False,
    errors: str = "raise",
) -> GameReader:
    """Every game of ``paths`` (files, compressed or not, zip archives, folders) as
    :class:`Game` objects, parsed and replayed on all cores (``jobs`` workers; ``None`` is
    one per core) and given in input order, the GIL released while Rust works.

    A game that cannot be read (a syntax error, an illegal move; with ``variations=True``
    an illegal move in a variation too) or an input that cannot be opened is never dropped
    silently; ``errors`` says what becomes of it:

    - ``"raise"`` (the default): ``next()`` raises :class:`GameError`; calling ``next()``
      again goes on with the next game.
    - ``"yield"``: the :class:`GameError` is yielded in the game's place.
    - ``"collect"``: it is left out of the iteration and kept, in input order, in the
      iterator's ``errors`` list.
    """
    return _tabia.read_games(_paths(paths), jobs=jobs, variations=variations, errors=errors)


def read_table(
    *paths: str | os.PathLike[str],
    moves: bool = False,
    columns: Sequence[str] | None = None,
    jobs: int | None = None,
    nested: bool = False,
    fen: bool = False,
) -> pa.Table:
    """The games table of ``tabia table`` (``moves=True``: the moves table) of every game
    in ``paths`` (files, compressed or not, zip archives, folders), read on all cores
    (``jobs`` workers; ``None`` is one per core) in input order, as a ``pyarrow.Table``.

    Bad games are rows too, their ``errors`` column saying why. An input that cannot be
    opened or read to its end raises :class:`GameError`.
    """
    stream = _tabia.read_table(
        _paths(paths),
        moves=moves,
        columns=list(columns) if columns is not None else None,
        jobs=jobs,
        nested=nested,
        fen=fen,
    )
    return pa.table(stream)


def scan(
    *paths: str | os.PathLike[str],
    moves: bool = False,
    columns: Sequence[str] | None = None,
    jobs: int | None = None,
    nested: bool = False,
    fen: bool = False,
) -> pa.RecordBatchReader:
    """:func:`read_table` as a ``pyarrow.RecordBatchReader``: the batches are read as the
    consumer asks for them, so memory stays bounded however large the input. An input error
    ends the stream with an exception from the consumer (pyarrow raises it as an
    ``OSError``/``ArrowException`` with tabia's message)."""
    stream = _tabia.scan(
        _paths(paths),
        moves=moves,
        columns=list(columns) if columns is not None else None,
        jobs=jobs,
        nested=nested,
        fen=fen,
    )
    return pa.RecordBatchReader.from_stream(stream)


def schema(moves: bool = False, nested: bool = False, fen: bool = False) -> pa.Schema:
    """The schema of the games table (``moves=True``: the moves table), as ``tabia table``
    writes it."""
    return pa.RecordBatchReader.from_stream(
        _tabia.schema(moves=moves, nested=nested, fen=fen)
    ).schema
