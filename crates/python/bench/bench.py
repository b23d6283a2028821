"""tabia for Python against its peers, on the same PGN in the same run (not part of pytest).

    python crates/python/bench/bench.py [PGN] [--tabia target/release/tabia] [--peer-games N]

Times are CPU seconds of the process (user + system; children for the CLI), so that a busy
machine slows every contestant alike, the median of 5 runs (python-chess: one run); wall
seconds are printed beside them. Set OPENBLAS_NUM_THREADS=1: numpy's BLAS threads, started
by the imports, otherwise spin on the other core and count as this process's CPU. Compared:

- read_table(moves=True) against python-chess + pyarrow (read_game, replay, a moves table),
  and against the CLI's `tabia table --moves` on the same file;
- iterating read_games touching headers and moves against python-chess's read_game and the
  PyPI package rust-pgn-reader-python-binding (pgn-reader's bindings) on the same work;
- walking each game's mainline for every move's UCI and clock: `game.mainline()` against
  python-chess's `game.mainline()` and the same bindings' per-game `moves_uci()` and `clocks`.

Build the wheel with its `wheel` profile (`maturin develop` or `pip install ./crates/python`)
first: a debug build is some 10x slower.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import tabia

DEFAULT = Path(__file__).resolve().parents[3] / ".." / "shared" / "corpus" / "lichess_db_1000k.pgn"


def cpu(children: bool = False) -> float:
    who = resource.RUSAGE_CHILDREN if children else resource.RUSAGE_SELF
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


RUNS = 5


def timed(label: str, f, children: bool = False, runs: int | None = None):
    """Runs f `runs` times (RUNS by default): its result and the medians of CPU and wall."""
    cpus, walls = [], []
    for _ in range(runs or RUNS):
        c0, w0 = cpu(children), time.perf_counter()
        result = f()
        cpus.append(cpu(children) - c0)
        walls.append(time.perf_counter() - w0)
    c, w = statistics.median(cpus), statistics.median(walls)
    runs_said = f" (median of {len(cpus)})" if len(cpus) > 1 else ""
    print(f"  {label:<52} cpu {c:8.3f} s   wall {w:8.3f} s{runs_said}", flush=True)
    return result, c, w


def python_chess_table(text: str, limit: int | None):
    import chess.pgn
    import chess.polyglot
    import pyarrow as pa

    cols = {k: [] for k in ("game", "ply", "san", "uci", "zobrist", "clock_ms")}
    handle = io.StringIO(text)
    number = 0
    while (game := chess.pgn.read_game(handle)) is not None:
        number += 1
        board = game.board()
        for ply, node in enumerate(game.mainline(), 1):
            move = node.move
            cols["san"].append(board.san(move))
            board.push(move)
            cols["game"].append(number)
            cols["ply"].append(ply)
            cols["uci"].append(move.uci())
            cols["zobrist"].append(chess.polyglot.zobrist_hash(board))
            clock = node.clock()
            cols["clock_ms"].append(None if clock is None else int(clock * 1000))
        if limit is not None and number >= limit:
            break
    types = {"game": pa.int64(), "ply": pa.int32(), "san": pa.string(), "uci": pa.string(),
             "zobrist": pa.uint64(), "clock_ms": pa.int64()}
    return number, pa.table({k: pa.array(v, type=types[k]) for k, v in cols.items()})


def python_chess_games(text: str, limit: int | None) -> tuple[int, int]:
    import chess.pgn

    handle = io.StringIO(text)
    games = plies = 0
    while (game := chess.pgn.read_game(handle)) is not None:
        games += 1
        _ = game.headers.get("White"), game.headers.get("Result")
        plies += sum(1 for _ in game.mainline_moves())
        if limit is not None and games >= limit:
            break
    return games, plies


def tabia_games(path: str, jobs: int) -> tuple[int, int]:
    games = plies = 0
    for game in tabia.read_games(path, jobs=jobs, errors="collect"):
        games += 1
        _ = game.headers.get("White"), game.headers.get("Result")
        plies += len(game.uci)
    return games, plies


def python_chess_mainline(text: str, limit: int | None) -> tuple[int, int]:
    import chess.pgn

    handle = io.StringIO(text)
    games = clocks = 0
    while (game := chess.pgn.read_game(handle)) is not None:
        games += 1
        for node in game.mainline():
            _ = node.move.uci()
            clocks += node.clock() is not None
        if limit is not None and games >= limit:
            break
    return games, clocks


def tabia_mainline(path: str, jobs: int) -> tuple[int, int]:
    games = clocks = 0
    for game in tabia.read_games(path, jobs=jobs, errors="collect"):
        games += 1
        for node in game.mainline():
            _ = node.uci
            clocks += node.clock is not None
    return games, clocks


def pgn_reader_split(path: str) -> list[str]:
    """The file cut into games in Python (at each blank line followed by a tag), as the users
    of pgn-reader's bindings, which take one string per game, do."""
    import re

    text = Path(path).read_text(encoding="utf-8", errors="replace")
    return [g for g in re.split(r"\n\s*\n(?=\[)", text) if g.strip()]


def pgn_reader_mainline(path: str, threads: int) -> tuple[int, int]:
    import math

    import rust_pgn_reader_python_binding as rp

    parsed = rp.parse_games_from_strings(pgn_reader_split(path), num_threads=threads)
    games = clocks = 0
    for i in range(parsed.num_games):
        game = parsed[i]
        for _uci, clock in zip(game.moves_uci(), game.clocks):
            clocks += not math.isnan(clock)
        games += 1
    return games, clocks


def pgn_reader_games(path: str, threads: int) -> tuple[int, int]:
    """The same work with pgn-reader's bindings, which take one string per game: the file is
    cut into games in Python first (at each blank line followed by a tag), as its users do."""
    import rust_pgn_reader_python_binding as rp

    parsed = rp.parse_games_from_strings(pgn_reader_split(path), num_threads=threads)
    games = plies = 0
    for i in range(parsed.num_games):
        game = parsed[i]
        headers = game.headers
        _ = headers.get("White"), headers.get("Result")
        plies += len(game.moves_uci())
        games += 1
    return games, plies


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("pgn", nargs="?", default=str(DEFAULT))
    parser.add_argument("--tabia", default=None, help="the tabia binary for the CLI comparison")
    parser.add_argument("--peer-games", type=int, default=None,
                        help="python-chess reads only the first N games (rates are per game)")
    args = parser.parse_args()
    path = args.pgn
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    size = len(text.encode())
    games = tabia.read_table(path).num_rows
    print(f"{path}: {size / 1e6:.1f} MB, {games} games; tabia {tabia.__version__}")

    print("read_table(moves=True) against python-chess + pyarrow, one core")
    (table, c_tabia, _) = timed("tabia.read_table(moves=True, jobs=1)",
                                 lambda: tabia.read_table(path, moves=True, jobs=1))
    (_, c_two, w_two) = timed("tabia.read_table(moves=True, jobs=2)",
                               lambda: tabia.read_table(path, moves=True, jobs=2))
    ((n_peer, _), c_peer, _) = timed(f"python-chess + pyarrow ({args.peer_games or 'all'} games)",
                                     lambda: python_chess_table(text, args.peer_games), runs=1)
    per_game = (c_peer / n_peer) / (c_tabia / games)
    print(f"  => tabia {per_game:.0f}x python-chess + pyarrow per core "
          f"({table.num_rows} moves)")

    if args.tabia:
        print("read_table against the CLI's tabia table --moves (same jobs)")
        out = Path(tempfile.mkdtemp()) / "g.parquet"
        for jobs in (1, 2):
            (_, c_cli, w_cli) = timed(
                f"tabia table --moves -j {jobs}",
                lambda: subprocess.run([args.tabia, "table", "--moves", "-q", "-j", str(jobs),
                                        path, "-o", str(out), "--force"], check=True),
                children=True)
            (_, c_py, w_py) = timed(f"tabia.read_table(moves=True, jobs={jobs})",
                                    lambda: tabia.read_table(path, moves=True, jobs=jobs))
            print(f"  => read_table / CLI: cpu {c_py / c_cli:.2f}x, wall {w_py / w_cli:.2f}x")

    print("iterating games, touching headers and moves")
    ((n, p), c_ours, _) = timed("tabia.read_games(jobs=1)", lambda: tabia_games(path, 1))
    timed("tabia.read_games(jobs=2)", lambda: tabia_games(path, 2))
    ((n_peer, _), c_peer, _) = timed(f"python-chess read_game ({args.peer_games or 'all'} games)",
                                     lambda: python_chess_games(text, args.peer_games), runs=1)
    print(f"  => tabia {(c_peer / n_peer) / (c_ours / n):.0f}x python-chess read_game per core")
    try:
        import rust_pgn_reader_python_binding  # noqa: F401
    except ImportError:
        print("  (rust-pgn-reader-python-binding not installed)")
    else:
        ((n_rp, p_rp), c_rp, _) = timed("rust-pgn-reader-python-binding (1 thread)",
                                        lambda: pgn_reader_games(path, 1))
        timed("rust-pgn-reader-python-binding (2 threads)", lambda: pgn_reader_games(path, 2))
        print(f"  => tabia {(c_rp / n_rp) / (c_ours / n):.2f}x rust-pgn-reader-python-binding "
              f"per core ({n_rp} games, {p_rp} plies; tabia {n}, {p})")

    print("walking the mainline: each move's UCI and clock")
    ((n, k), c_ours, _) = timed("tabia read_games + mainline() (jobs=1)",
                                lambda: tabia_mainline(path, 1))
    timed("tabia read_games + mainline() (jobs=2)", lambda: tabia_mainline(path, 2))
    ((n_peer, _), c_peer, _) = timed(
        f"python-chess read_game + mainline() ({args.peer_games or 'all'} games)",
        lambda: python_chess_mainline(text, args.peer_games), runs=1)
    print(f"  => tabia {(c_peer / n_peer) / (c_ours / n):.0f}x python-chess per core")
    try:
        import rust_pgn_reader_python_binding  # noqa: F401
    except ImportError:
        pass
    else:
        ((n_rp, k_rp), c_rp, _) = timed("rust-pgn-reader-python-binding (1 thread)",
                                        lambda: pgn_reader_mainline(path, 1))
        timed("rust-pgn-reader-python-binding (2 threads)", lambda: pgn_reader_mainline(path, 2))
        print(f"  => tabia {(c_rp / n_rp) / (c_ours / n):.2f}x rust-pgn-reader-python-binding "
              f"per core ({n_rp} games, {k_rp} clocks; tabia {n}, {k})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
