"""tabia: chess games by the million, read on all cores.

Games (:func:`read_games`), positions (:class:`Position`) and the tables of ``tabia table``
as Arrow (:func:`read_table`, :func:`scan`) without a copy and without a Python object per
game; a position index of collections (:class:`Index`, lichess's opening explorer); engine
analysis of whole collections (:func:`analyse`, ``tabia analyse``). See docs/python.md.
"""

from __future__ import annotations

import builtins as _builtins
import json as _json
import os as _os
from typing import TYPE_CHECKING
from collections.abc import Mapping as _Mapping
from dataclasses import dataclass as _dataclass, field as _field

import pyarrow as _pa

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

if TYPE_CHECKING:
    from typing import IO, Any, Iterable, Mapping, Sequence, Union

    import numpy
    import pyarrow as pa

    #: What the entry points read: a path, PGN text, an open file, or a list of them.
    Inputs = Union[str, bytes, "_os.PathLike[str]", IO[bytes], IO[str], Iterable["Inputs"]]

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
    "read_game",
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


def _is_text(value: str) -> bool:
    """A ``str`` is PGN text, not a path, when it holds a newline or starts with a tag."""
    return "\n" in value or value.lstrip().startswith("[")


def _inputs(args: Iterable[Inputs]) -> list[str | tuple[str, bytes]]:
    """The inputs of the entry points: each a path (``str``, ``os.PathLike``), PGN text
    (``bytes``; a ``str`` holding a newline or starting with ``[``), an open file (binary or
    text: its bytes are read from where it is, a text file's ``str`` encoded UTF-8), or a list,
    tuple or other iterable of them. Paths go to Rust as strings, the rest as
    ``(name, bytes)``."""
    out: list[str | tuple[str, bytes]] = []
    for arg in args:
        if isinstance(arg, str):
            out.append(("<string>", arg.encode()) if _is_text(arg) else arg)
        elif isinstance(arg, (bytes, bytearray, memoryview)):
            out.append(("<bytes>", bytes(arg)))
        elif isinstance(arg, _os.PathLike):
            out.append(_os.fspath(arg))
        elif hasattr(arg, "read"):
            data = arg.read()
            if isinstance(data, str):
                data = data.encode()
            name = getattr(arg, "name", None)
            out.append((name if isinstance(name, str) else "<file>", bytes(data)))
        elif hasattr(arg, "__iter__"):
            out.extend(_inputs(arg))
        else:
            raise TypeError(
                f"an input is a path, PGN text, an open file or a list of them, not "
                f"{type(arg).__name__}"
            )
    return out


def _jobs(jobs: int | None) -> int | None:
    """``jobs`` checked: ``None`` (or 0) is one worker per core."""
    if jobs is not None and jobs < 0:
        raise ValueError(
            f"jobs={jobs}: expected a number of workers (1 or more), or None for one per core"
        )
    return jobs


def _cut(errors: str, value: Any, found: list[GameError], attribute: str) -> Any:
    """What a table entry point gives for ``errors`` when inputs could not be read to their
    end: ``"raise"`` raises the first error, the partial value as its ``attribute`` and every
    error as its ``errors``; ``"warn"`` warns of each and gives the value; ``"collect"`` gives
    ``(value, errors)``."""
    if errors not in ("raise", "warn", "collect"):
        raise ValueError(f'errors={errors!r}: expected "raise", "warn" or "collect"')
    if errors == "collect":
        return value, found
    if found and errors == "raise":
        error = found[0]
        setattr(error, attribute, value)
        error.errors = found
        raise error
    if found:
        import warnings

        for error in found:
            warnings.warn(str(error), RuntimeWarning, stacklevel=3)
    return value


def read_game(pgn: str | bytes | IO[bytes] | IO[str]) -> Game | None:
    """One game, as python-chess's ``chess.pgn.read_game``: the first game of PGN text
    (``str`` or ``bytes``), or the next game of an open file (binary or text), the file left
    just after it so that the next call reads the game after; ``None`` when there is none
    left. A game that cannot be read raises :class:`GameError` (python-chess keeps what it
    could and logs the error)."""
    if isinstance(pgn, (str, bytes, bytearray, memoryview)):
        data = pgn.encode() if isinstance(pgn, str) else bytes(pgn)
        name = "<string>"
    else:
        data = _next_game_text(pgn)
        name = getattr(pgn, "name", None)
        name = name if isinstance(name, str) else "<file>"
    for game in _tabia.read_games([(name, data)], jobs=1, errors="raise"):
        return game
    return None


def _next_game_text(handle: Any) -> bytes:
    """The lines of the next game of an open file: blank lines skipped, its tags, its
    movetext up to the line that ends it (a result marker at its end, or the blank line
    before the next game's tags); the file is left after them."""
    lines: list[bytes] = []
    in_movetext = False
    blank = False
    while True:
        seekable = getattr(handle, "seekable", None)
        at = handle.tell() if seekable is not None and seekable() else None
        line = handle.readline()
        if not line:
            break
        if isinstance(line, str):
            line = line.encode()
        stripped = line.strip()
        if not lines and not stripped:
            continue
        if in_movetext and blank and stripped.startswith(b"[") and at is not None:
            handle.seek(at)
            break
        lines.append(line)
        blank = not stripped
        if stripped and not stripped.startswith(b"[") and not stripped.startswith(b"%"):
            in_movetext = True
            if stripped.split()[-1] in (b"1-0", b"0-1", b"1/2-1/2", b"*"):
                break
    return b"".join(lines)


def read_games(
    *inputs: Inputs,
    jobs: int | None = None,
    variations: bool = False,
    errors: str = "raise",
) -> GameReader:
    """Every game of ``inputs`` (files, compressed or not, zip archives, folders; PGN text;
    open files; lists of them: see *Inputs* in docs/python.md) as :class:`Game` objects, parsed and replayed on all cores (``jobs`` workers; ``None`` is
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
    return _tabia.read_games(
        _inputs(inputs), jobs=_jobs(jobs), variations=variations, errors=errors
    )


def read_table(
    *inputs: Inputs,
    moves: bool = False,
    columns: Sequence[str] | None = None,
    jobs: int | None = None,
    nested: bool = False,
    fen: bool = False,
    boards: bool = False,
    errors: str = "raise",
    en_passant: str = "legal",
) -> pa.Table:
    """The games table of ``tabia table`` (``moves=True``: the moves table) of every game
    in ``inputs`` (as for :func:`read_games`), read on all cores
    (``jobs`` workers; ``None`` is one per core) in input order, as a ``pyarrow.Table``.

    ``columns`` keeps only the columns named (in that order); ``nested=True`` puts the moves
    in a list column of the games table; ``fen=True`` adds the FEN after each move and
    ``boards=True`` the training columns (the position before each move as 12 bitboards,
    side to move, castling, en passant; the move as from/to/promotion) to the moves. The
    schema is exactly that of ``tabia table`` (docs/schema.md).

    ``en_passant`` is which en-passant square the moves' ``fen`` and ``ep_square`` give, as
    python-chess's ``board.fen(en_passant=...)``: ``"legal"`` (the default) only when an
    en-passant capture is legal; ``"fen"`` after every double push (python-chess's
    ``board.ep_square``); ``"xfen"`` when an enemy pawn stands beside the pushed one
    (``tabia table --ep legal|always|pseudo``).

    Bad games are rows too, their ``errors`` column saying why. An input that cannot be
    opened or read to its end (a file cut in the middle) does not lose what was read: the
    other inputs are read all the same, the games before the cut are rows, and ``errors``
    says how the table comes back:

    - ``"raise"`` (the default): :class:`GameError` (the first input's), with the table of
      what was read as its ``table`` attribute and every input's error as its ``errors``.
    - ``"warn"``: the table, and a ``RuntimeWarning`` for each input.
    - ``"collect"``: a pair ``(table, errors)``, ``errors`` the list of :class:`GameError`
      (empty when every input was read whole).

    The GIL is released while the games are read and Ctrl-C interrupts the read between
    batches.
    """
    stream, found = _tabia.read_table(
        _inputs(inputs),
        moves=moves,
        columns=list(columns) if columns is not None else None,
        jobs=_jobs(jobs),
        nested=nested,
        fen=fen,
        boards=boards,
        en_passant=en_passant,
    )
    return _cut(errors, _pa.table(stream), found, "table")


def scan(
    *inputs: Inputs,
    moves: bool = False,
    columns: Sequence[str] | None = None,
    jobs: int | None = None,
    nested: bool = False,
    fen: bool = False,
    boards: bool = False,
    en_passant: str = "legal",
) -> pa.RecordBatchReader:
    """:func:`read_table` as a ``pyarrow.RecordBatchReader``: the batches are read as the
    consumer asks for them, so memory stays bounded however large the input. An input error
    ends the stream with an exception from the consumer (pyarrow raises it as an
    ``OSError``/``ArrowException`` with tabia's message)."""
    stream = _tabia.scan(
        _inputs(inputs),
        moves=moves,
        columns=list(columns) if columns is not None else None,
        jobs=_jobs(jobs),
        nested=nested,
        fen=fen,
        boards=boards,
        en_passant=en_passant,
    )
    return _pa.RecordBatchReader.from_stream(stream)


def schema(
    moves: bool = False, nested: bool = False, fen: bool = False, boards: bool = False
) -> pa.Schema:
    """The schema of the games table (``moves=True``: the moves table), as ``tabia table``
    writes it."""
    return _pa.RecordBatchReader.from_stream(
        _tabia.schema(moves=moves, nested=nested, fen=fen, boards=boards)
    ).schema


def read_training(
    *inputs: Inputs,
    jobs: int | None = None,
    errors: str = "raise",
    en_passant: str = "legal",
) -> dict[str, numpy.ndarray]:
    """The mainline moves of every game of ``inputs`` as numpy arrays a model eats, read on
    all cores without a Python object per move: ``board`` (n × 12 uint64 piece bitboards
    of the position before the move: White's P, N, B, R, Q, K then Black's; bit 0 is a1),
    ``white_to_move`` (bool), ``castling`` (uint64 bitboard of the rooks that may castle),
    ``ep_square`` (int16, -1 for none), ``from_square``, ``to_square``, ``promotion``
    (uint8; promotion as python-chess's piece types, 0 for none), ``game`` (int64, the
    game's number in its file) and ``ply`` (int32). A game that cannot be read keeps the
    moves replayed before its error (the legal moves before an illegal one, as python-chess
    keeps them): see :func:`read_table`'s ``errors`` column for it. ``errors`` is as for
    :func:`read_table` (the arrays of what was read are the exception's ``arrays`` with
    ``"raise"``).

    ``ep_square`` is the square only when an en-passant capture is legal there (as position
    keys); ``en_passant="fen"`` gives python-chess's ``board.ep_square`` instead (after every
    double push), ``"xfen"`` the square when an enemy pawn stands beside the pushed one."""
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
    table, found = read_table(
        *inputs,
        moves=True,
        boards=True,
        columns=names,
        jobs=jobs,
        errors="collect",
        en_passant=en_passant,
    )
    arrays: dict[str, np.ndarray] = {}
    for name in names:
        column = table.column(name).combine_chunks()
        if name == "board":
            arrays[name] = column.flatten().to_numpy().reshape(-1, 12)
        elif name == "ep_square":
            arrays[name] = column.cast(_pa.int16()).fill_null(-1).to_numpy()
        elif name == "white_to_move":
            arrays[name] = column.to_numpy(zero_copy_only=False)
        else:
            arrays[name] = column.to_numpy()
    return _cut(errors, arrays, found, "arrays")


def filter(  # noqa: A001 - tabia's name for it, as the command's
    *inputs: Inputs,
    criteria: Iterable[str] = (),
    jobs: int | None = None,
    errors: str = "raise",
    variations: bool = False,
    eco_by_position: bool = False,
    ply_range: str | None = None,
    to_move: str | None = None,
    **options: Any,
) -> GameReader:
    """The games of ``inputs`` that match criteria, with the criteria language of
    ``tabia filter`` (docs/commands/filter.md), as :class:`Game` objects in input order.

    Criteria are keyword arguments named as the command's options (``-`` as ``_``):
    ``white="Carlsen"``, ``elo="2500..2700"``, ``eco="B90-B99"``, ``position=FEN``,
    ``moves="e4 c5"``, ``fen_pattern="..."``, ``checkmate=True`` (a feature: ``True`` asks
    for it); a list or tuple of values is their alternatives. ``criteria`` takes the same as
    strings written as on the command line: ``["--tag Date>=2020", "--white=Carlsen",
    "--checkmate"]`` (``--NAME VALUE`` or ``--NAME=VALUE``, the dashes optional).
    Different criteria must all hold, the values of one criterion are alternatives (as in
    the command). ``errors`` is as for :func:`read_games`.
    """
    if isinstance(criteria, _builtins.str):
        criteria = [criteria]
    pairs: list[tuple[str, str | None]] = []
    for name, value in options.items():
        values = value if isinstance(value, (list, tuple)) else [value]
        for v in values:
            if v is True:
                pairs.append((name, None))
            elif v is not False and v is not None:
                pairs.append((name, _builtins.str(v)))
    return _tabia.filter(
        _inputs(inputs),
        [_builtins.str(text) for text in criteria],
        pairs,
        jobs=_jobs(jobs),
        errors=errors,
        variations=variations,
        eco_by_position=eco_by_position,
        ply_range=ply_range,
        to_move=to_move,
    )


def stats(*inputs: Inputs, jobs: int | None = None) -> dict[str, Any]:
    """The statistics of a collection (games, plies, results, dates, time controls, ratings,
    players, events, ECO codes, annotations) as ``tabia stats --json`` gives them, and
    ``input_errors``: the inputs that could not be opened or read to their end, with why.
    The games of an input cut in the middle are counted up to the cut: ``input_errors`` is
    how to know the figures miss the rest."""
    return _json.loads(_tabia.stats(_inputs(inputs), jobs=_jobs(jobs)))


def tree(*inputs: Inputs, max_ply: int = 30, jobs: int | None = None) -> Tree:
    """The opening tree of the games (``max_ply`` plies of each): ``tree.moves(position)``
    gives the moves played from a position with their counts and scores; transpositions
    merge. Games left out are in ``tree.errors``."""
    return _tabia.tree(_inputs(inputs), max_ply=max_ply, jobs=_jobs(jobs))


# --- Engine analysis ---------------------------------------------------------------------

#: The key of the report in the schema metadata of :func:`analyse`'s table.
_REPORT_KEY = b"tabia.analysis"


@_dataclass(frozen=True)
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
    warnings: list[str] = _field(default_factory=list)

    @classmethod
    def of(cls, result: "AnalysedGames | pa.Table") -> "AnalysisReport":
        """The report of a result of :func:`analyse`: its games' ``report``, or the one in
        its table's schema metadata (kept when the table is written to Parquet)."""
        if isinstance(result, AnalysedGames):
            return result.report
        metadata = result.schema.metadata or {}
        if _REPORT_KEY not in metadata:
            raise ValueError("this table has no report of tabia.analyse in its metadata")
        return cls(**_json.loads(metadata[_REPORT_KEY]))


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
    return _pa.RecordBatchReader.from_stream(_tabia.analysis_schema()).schema


def _plies(plies: str | int | tuple[int | None, int | None] | range | None) -> str | None:
    if plies is None or isinstance(plies, str):
        return plies
    if isinstance(plies, int):
        return _builtins.str(plies)
    if isinstance(plies, range):
        if plies.step != 1 or len(plies) == 0:
            raise ValueError(f"plies={plies!r}: give a range of plies with step 1")
        return f"{plies.start}-{plies.stop - 1}"
    first, last = plies
    return f"{'' if first is None else first}-{'' if last is None else last}"


def _option_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return _builtins.str(value)


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
    if isinstance(paths, (str, _os.PathLike)):
        paths = [paths]
    if options is None:
        pairs: list[tuple[str, str]] = []
    else:
        items = options.items() if isinstance(options, _Mapping) else options
        pairs = [(_builtins.str(name), _option_value(value)) for name, value in items]
    if isinstance(side, bool):  # python-chess's colours: True is White
        side = "white" if side else "black"
    value, report, errors = _tabia.analyse(
        [_os.fspath(path) for path in paths],
        engine,
        depth=depth,
        nodes=nodes,
        movetime=movetime,
        multipv=multipv,
        options=pairs,
        jobs=_jobs(jobs),
        cache=_os.fspath(cache) if cache is not None else None,
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
        table = _pa.table(value)
        metadata = dict(table.schema.metadata or {})
        metadata[_REPORT_KEY] = _json.dumps(report).encode()
        return table.replace_schema_metadata(metadata)
    return AnalysedGames(value, summary, errors)


# Names of the module's own machinery, not of its API.
del annotations, TYPE_CHECKING
