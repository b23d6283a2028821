"""tabia: chess games by the million, read on all cores.

Games (:func:`read_games`), positions (:class:`Position`) and the tables of ``tabia table``
as Arrow (:func:`read_table`, :func:`scan`) without a copy and without a Python object per
game; a position index of collections (:class:`Index`, lichess's opening explorer); engine
analysis of whole collections (:func:`analyse`, ``tabia analyse``). See docs/python.md.
"""

from __future__ import annotations

import os
import builtins
import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

import pyarrow as pa

from . import _tabia
from ._tabia import (
    Game,
    GameError,
    GameReader,
    Index,
    Move,
    Opening,
    Position,
    PositionError,
    Tree,
    TreeMove,
    __version__,
    eco,
    is_valid,
    status,
)
# python-chess's Board vocabulary (docs/python.md, "Position is a Board").
from ._tabia import (
    BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK, SQUARE_NAMES, WHITE,
    LegalMoves, MainlineMove, Outcome, Piece, Termination, parse_square, square_name,
)

__all__ = [
    "AnalysedGames",
    "AnalysisReport",
    "Game",
    "GameError",
    "GameReader",
    "Index",
    "Move",
    "Opening",
    "Position",
    "PositionError",
    "Tree",
    "TreeMove",
    "analyse",
    "analysis_schema",
    "filter",
    "stats",
    "tree",
    "__version__",
    "eco",
    "is_valid",
    "read_games",
    "read_table",
    "read_training",
    "scan",
    "schema",
    "status",
    # python-chess's Board vocabulary
    "BISHOP", "BLACK", "KING", "KNIGHT", "PAWN", "QUEEN", "ROOK", "SQUARE_NAMES", "WHITE",
    "LegalMoves", "MainlineMove", "Outcome", "Piece", "Termination", "parse_square",
    "square_name",
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
    boards: bool = False,
) -> pa.Table:
    """The games table of ``tabia table`` (``moves=True``: the moves table) of every game
    in ``paths`` (files, compressed or not, zip archives, folders), read on all cores
    (``jobs`` workers; ``None`` is one per core) in input order, as a ``pyarrow.Table``.

    ``columns`` keeps only the columns named (in that order); ``nested=True`` puts the moves
    in a list column of the games table; ``fen=True`` adds the FEN after each move and
    ``boards=True`` the training columns (the position before each move as 12 bitboards,
    side to move, castling, en passant; the move as from/to/promotion) to the moves. The
    schema is exactly that of ``tabia table`` (docs/schema.md).

    Bad games are rows too, their ``errors`` column saying why. An input that cannot be
    opened or read to its end raises :class:`GameError`. The GIL is released while the
    games are read and Ctrl-C interrupts the read between batches.
    """
    stream = _tabia.read_table(
        _paths(paths),
        moves=moves,
        columns=list(columns) if columns is not None else None,
        jobs=jobs,
        nested=nested,
        fen=fen,
        boards=boards,
    )
    return pa.table(stream)


def scan(
    *paths: str | os.PathLike[str],
    moves: bool = False,
    columns: Sequence[str] | None = None,
    jobs: int | None = None,
    nested: bool = False,
    fen: bool = False,
    boards: bool = False,
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
        boards=boards,
    )
    return pa.RecordBatchReader.from_stream(stream)


def schema(
    moves: bool = False, nested: bool = False, fen: bool = False, boards: bool = False
) -> pa.Schema:
    """The schema of the games table (``moves=True``: the moves table), as ``tabia table``
    writes it."""
    return pa.RecordBatchReader.from_stream(
        _tabia.schema(moves=moves, nested=nested, fen=fen, boards=boards)
    ).schema


def read_training(
    *paths: str | os.PathLike[str], jobs: int | None = None
) -> dict[str, "numpy.ndarray"]:
    """The mainline moves of every game in ``paths`` as numpy arrays a model eats, read on
    all cores without a Python object per move: ``board`` (n × 12 uint64 piece bitboards
    of the position before the move: White's P, N, B, R, Q, K then Black's; bit 0 is a1),
    ``white_to_move`` (bool), ``castling`` (uint64 bitboard of the rooks that may castle),
    ``ep_square`` (int16, -1 for none), ``from_square``, ``to_square``, ``promotion``
    (uint8; promotion as python-chess's piece types, 0 for none), ``game`` (int64, the
    game's number in its file) and ``ply`` (int32). Games that cannot be read have no
    moves: see :func:`read_table`'s ``errors`` column for them."""
    import numpy as np

    names = [
        "game",
        "ply",
        "board",
        "white_to_move",
        "castling",
        "ep_square",
        "from_square",
        "to_square",
        "promotion",
    ]
    table = read_table(*paths, moves=True, boards=True, columns=names, jobs=jobs)
    arrays: dict[str, np.ndarray] = {}
    for name in names:
        column = table.column(name).combine_chunks()
        if name == "board":
            arrays[name] = column.flatten().to_numpy().reshape(-1, 12)
        elif name == "ep_square":
            arrays[name] = column.cast(pa.int16()).fill_null(-1).to_numpy()
        elif name == "white_to_move":
            arrays[name] = column.to_numpy(zero_copy_only=False)
        else:
            arrays[name] = column.to_numpy()
    return arrays


def filter(  # noqa: A001 - tabia's name for it, as the command's
    *paths: str | os.PathLike[str],
    criteria: Iterable[str] = (),
    jobs: int | None = None,
    errors: str = "raise",
    variations: bool = False,
    eco_by_position: bool = False,
    ply_range: str | None = None,
    to_move: str | None = None,
    **options: Any,
) -> GameReader:
    """The games of ``paths`` that match criteria, with the criteria language of
    ``tabia filter`` (docs/commands/filter.md), as :class:`Game` objects in input order.

    Criteria are keyword arguments named as the command's options (``-`` as ``_``):
    ``white="Carlsen"``, ``elo="2500..2700"``, ``eco="B90-B99"``, ``position=FEN``,
    ``moves="e4 c5"``, ``fen_pattern="..."``, ``checkmate=True`` (a feature: ``True`` asks
    for it); a list or tuple of values is their alternatives. ``criteria`` takes the same as
    strings written as on the command line: ``["--tag Date>=2020", "--checkmate"]``.
    Different criteria must all hold, the values of one criterion are alternatives (as in
    the command). ``errors`` is as for :func:`read_games`.
    """
    pairs: list[tuple[str, str | None]] = []
    for text in criteria:
        name, _, value = text.strip().partition(" ")
        pairs.append((name, value.strip() or None))
    for name, value in options.items():
        values = value if isinstance(value, (list, tuple)) else [value]
        for v in values:
            if v is True:
                pairs.append((name, None))
            elif v is not False and v is not None:
                pairs.append((name, builtins.str(v)))
    return _tabia.filter(
        _paths(paths),
        pairs,
        jobs=jobs,
        errors=errors,
        variations=variations,
        eco_by_position=eco_by_position,
        ply_range=ply_range,
        to_move=to_move,
    )


def stats(*paths: str | os.PathLike[str], jobs: int | None = None) -> dict[str, Any]:
    """The statistics of a collection (games, plies, results, dates, time controls, ratings,
    players, events, ECO codes, annotations) as ``tabia stats --json`` gives them, and
    ``input_errors``: the inputs that could not be read, with why."""
    return json.loads(_tabia.stats(_paths(paths), jobs=jobs))


def tree(
    *paths: str | os.PathLike[str], max_ply: int = 30, jobs: int | None = None
) -> Tree:
    """The opening tree of the games (``max_ply`` plies of each): ``tree.moves(position)``
    gives the moves played from a position with their counts and scores; transpositions
    merge. Games left out are in ``tree.errors``."""
    return _tabia.tree(_paths(paths), max_ply=max_ply, jobs=jobs)


# --- Engine analysis ---------------------------------------------------------------------

#: The key of the report in the schema metadata of :func:`analyse`'s table.
REPORT_KEY = b"tabia.analysis"


@dataclass(frozen=True)
class AnalysisReport:
    """What :func:`analyse` did: ``games`` analysed (read and given back), ``bad`` games left
    out (they could not be read or replayed), positions the engines ``analysed``, positions
    ``cached`` (the cache had them), ``repeated`` (asked again in this run: a transposition,
    an opening another game played) and ``failed`` (no analysis: each named in
    ``warnings``), engine ``restarts``, the number of ``engines``, and the ``settings`` the
    cache keys its analyses by (``Stockfish 15.1 | Hash=16 Threads=1 | go depth 12 |
    multipv 1``). A second run with the same ``cache=`` and settings analyses nothing:
    ``analysed == 0``."""

    games: int
    bad: int
    analysed: int
    cached: int
    repeated: int
    failed: int
    restarts: int
    engines: int
    settings: str
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, result: "AnalysedGames | pa.Table") -> "AnalysisReport":
        """The report of a result of :func:`analyse`: its games' ``report``, or the one in
        its table's schema metadata (kept when the table is written to Parquet)."""
        if isinstance(result, AnalysedGames):
            return result.report
        metadata = result.schema.metadata or {}
        if REPORT_KEY not in metadata:
            raise ValueError("this table has no report of tabia.analyse in its metadata")
        return cls(**json.loads(metadata[REPORT_KEY]))


class AnalysedGames(list):
    """The games :func:`analyse` gives: a list of :class:`Game` (the analysis written in:
    ``[%eval]`` after each move, lichess's advice, the accuracy tags) with the run's
    ``report`` (:class:`AnalysisReport`) and the :class:`GameError` of each game left out,
    in input order (``errors``)."""

    report: AnalysisReport
    errors: list[GameError]

    def __init__(self, games: Iterable[Game], report: AnalysisReport, errors: list[GameError]):
        super().__init__(games)
        self.report = report
        self.errors = errors


def analysis_schema() -> pa.Schema:
    """The schema of :func:`analyse`'s table (``as_table=True``), without running an engine:
    the ``meta`` of a Dask DataFrame of analyses, or a Spark schema (docs/clusters.md)."""
    return pa.RecordBatchReader.from_stream(_tabia.analysis_schema()).schema


def _plies(plies: str | int | tuple[int | None, int | None] | range | None) -> str | None:
    if plies is None or isinstance(plies, str):
        return plies
    if isinstance(plies, int):
        return builtins.str(plies)
    if isinstance(plies, range):
        if plies.step != 1 or len(plies) == 0:
            raise ValueError(f"plies={plies!r}: give a range of plies with step 1")
        return f"{plies.start}-{plies.stop - 1}"
    first, last = plies
    return f"{'' if first is None else first}-{'' if last is None else last}"


def _option_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return builtins.str(value)


def analyse(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    engine: str | Sequence[str] = "stockfish",
    depth: int | None = None,
    nodes: int | None = None,
    movetime: int | None = None,
    multipv: int = 1,
    options: Mapping[str, Any] | Iterable[tuple[str, Any]] | None = None,
    jobs: int | None = None,
    cache: str | os.PathLike[str] | None = None,
    plies: str | int | tuple[int | None, int | None] | range | None = None,
    side: str | bool | None = None,
    player: str | None = None,
    overwrite: bool = False,
    variations: bool = False,
    as_table: bool = False,
    *,
    timeout: float = 120.0,
    retries: int = 2,
) -> AnalysedGames | pa.Table:
    """Every game of ``paths`` (a file or folder, or a list of them: what :func:`read_games`
    reads) analysed by a UCI engine as ``tabia analyse`` analyses them: ``jobs`` engines
    (``None``: one per core), each position once (transpositions and shared openings are
    asked once per run; with ``cache=`` a file, once for good: a second run analyses only
    what is new), with ``ucinewgame`` before each position and, unless ``options`` say
    otherwise, ``Threads=1`` and ``Hash=16``, so that a position's result does not depend on
    what was analysed before it.

    - ``engine``: a command line (``"stockfish"``, ``"/opt/lc0 --weights=t1.pb.gz"``; a name
      alone is looked for on ``PATH`` and in ``/usr/games``) or a list of the program and
      its arguments.
    - ``depth``, ``nodes``, ``movetime`` (milliseconds): the search of each position (the
      first reached ends it; none given: depth 18). ``multipv``: lines per position.
    - ``options``: UCI options set on each engine, a dict (``{"Hash": 64}``) or pairs.
    - ``plies`` (``"10-40"``, ``(10, None)``, ``range(10, 41)``), ``side`` (``"white"`` or
      ``"black"``), ``player`` (the ``White`` or ``Black`` tag, any case): which moves are
      judged; the positions before and after each are analysed. ``overwrite``: analyse
      moves that carry an ``[%eval]`` already and replace it (otherwise it is kept and
      used). ``variations``: add the engine's line to each inaccuracy, mistake and blunder.

    Returns an :class:`AnalysedGames`: a list of :class:`Game`, each with the analysis
    written in (``game.pgn()`` is the text ``tabia analyse`` writes, ``game.evals`` the
    evaluations), with ``report`` (an :class:`AnalysisReport`) and ``errors`` (the
    :class:`GameError` of each game left out). With ``as_table=True``, a ``pyarrow.Table``
    of evaluations instead, one row per position analysed (``tabia analyse --json``'s
    records): ``file``, ``game``, ``ply`` (0: the start, then the ply after which the
    position arose), ``fen``, ``depth``, ``seldepth``, ``nodes``, ``cp`` or ``mate``
    (White's view), ``best`` and ``pv`` (UCI, space-separated), ``lines`` (with
    ``multipv`` above 1: each line's ``cp``, ``mate`` and ``pv``) and ``error`` (a position
    the engine failed on, or a game left out: its other columns are null); its report is
    ``AnalysisReport.of(table)``.

    The engines run with the GIL released. Ctrl-C (``KeyboardInterrupt``) stops them: the
    cache keeps every position analysed, so the same call goes on where it stopped. An
    engine that is not found raises ``FileNotFoundError``, an option it does not have
    ``ValueError``, an engine that does not start ``TimeoutError``, ``ChildProcessError``
    or ``OSError``; a cache in use by another process ``OSError`` (one process per cache
    file), each with ``tabia analyse``'s message.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    if options is None:
        pairs: list[tuple[str, str]] = []
    else:
        items = options.items() if isinstance(options, Mapping) else options
        pairs = [(builtins.str(name), _option_value(value)) for name, value in items]
    if isinstance(side, bool):  # python-chess's colours: True is White
        side = "white" if side else "black"
    value, report, errors = _tabia.analyse(
        _paths(paths),
        engine,
        depth=depth,
        nodes=nodes,
        movetime=movetime,
        multipv=multipv,
        options=pairs,
        jobs=jobs,
        cache=os.fspath(cache) if cache is not None else None,
        plies=_plies(plies),
        side=side,
        player=player,
        overwrite=overwrite,
        variations=variations,
        as_table=as_table,
        timeout=timeout,
        retries=retries,
    )
    summary = AnalysisReport(**report)
    if as_table:
        table = pa.table(value)
        metadata = dict(table.schema.metadata or {})
        metadata[REPORT_KEY] = json.dumps(report).encode()
        return table.replace_schema_metadata(metadata)
    return AnalysedGames(value, summary, errors)
