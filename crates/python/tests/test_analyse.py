"""tabia.analyse: engine analysis of whole collections (issue 39), held to python-chess driving
the same Stockfish position by position, and to the CLI's `tabia analyse` byte for byte.

The reference: with one thread, a fixed hash and `ucinewgame` before each position, Stockfish
at a fixed depth gives the same result whatever was analysed before. python-chess sends
`ucinewgame` when `game=` changes, so a fresh `object()` per position makes its answers those
of an engine that saw nothing else: tabia's, through `tabia.analyse` and through the CLI's
`--json`, must be the same score (White's view) and best move for every position. Skipped
where there is no Stockfish.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import chess
import chess.engine
import chess.pgn
import pyarrow as pa
import pytest

import tabia

from conftest import ROOT

GAMES = ROOT / "fixtures" / "analyse" / "games.pgn"
DEPTH = 8


def _stockfish() -> str | None:
    return shutil.which("stockfish") or next(
        (p for p in ["/usr/games/stockfish"] if Path(p).is_file()), None
    )


STOCKFISH = _stockfish()
pytestmark = pytest.mark.skipif(
    STOCKFISH is None, reason="no Stockfish on PATH or in /usr/games (Debian: apt install stockfish)"
)


def _cli() -> str:
    """The `tabia` binary: $TABIA_BIN, else one built in the workspace."""
    for candidate in (os.environ.get("TABIA_BIN"), str(ROOT / "target" / "debug" / "tabia")):
        if candidate and Path(candidate).is_file():
            return candidate
    if os.environ.get("CI") == "true":
        raise AssertionError("CI runs these tests with the CLI built: set TABIA_BIN")
    pytest.skip("no tabia binary built (TABIA_BIN names the CLI)")


def _run_cli(*args: str) -> str:
    done = subprocess.run(
        [_cli(), "analyse", str(GAMES), "--engine", STOCKFISH, *args],
        check=False,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _score(cp: int | None, mate: int | None) -> tuple[str, int]:
    return ("mate", mate) if mate is not None else ("cp", cp)


@pytest.fixture(scope="module")
def table() -> pa.Table:
    return tabia.analyse(GAMES, engine=STOCKFISH, depth=DEPTH, jobs=2, as_table=True)


@pytest.fixture(scope="module")
def reference(table: pa.Table) -> dict[str, tuple[tuple[str, int], str]]:
    """python-chess's answer for every distinct position tabia analysed: its score (White's
    view) and best move, one engine, `ucinewgame` before each position."""
    answers = {}
    with chess.engine.SimpleEngine.popen_uci(STOCKFISH) as engine:
        engine.configure({"Threads": 1, "Hash": 16})
        for fen in dict.fromkeys(table.column("fen").to_pylist()):
            info = engine.analyse(chess.Board(fen), chess.engine.Limit(depth=DEPTH), game=object())
            score = info["score"].white()
            answers[fen] = (_score(score.score(), score.mate()), info["pv"][0].uci())
    return answers


def _compare(rows: list[dict], reference: dict) -> int:
    """Every row's score and best move against python-chess's; the positions compared."""
    seen = set()
    differences = []
    for row in rows:
        assert row["depth"] == DEPTH, row
        got = (_score(row.get("cp"), row.get("mate")), row.get("best"))
        if got != reference[row["fen"]]:
            differences.append((row["fen"], got, reference[row["fen"]]))
        seen.add(row["fen"])
    assert differences == []
    assert seen == set(reference)
    return len(seen)


def test_the_table_gives_python_chess_answers(table, reference):
    rows = table.to_pylist()
    assert {r["file"] for r in rows} == {str(GAMES)}
    assert sorted({r["game"] for r in rows}) == [1, 2, 3, 4, 5, 6]
    assert all(r["error"] is None and r["lines"] is None for r in rows)
    # Every distinct position of the six games (those with a legal move), each analysed once.
    assert _compare(rows, reference) == len(reference) > 250
    report = tabia.AnalysisReport.of(table)
    assert (report.games, report.bad, report.failed) == (6, 0, 0)
    assert report.analysed == len(reference)
    assert report.analysed + report.repeated == table.num_rows
    assert report.settings == f"Stockfish 15.1 | Hash=16 Threads=1 | go depth {DEPTH} | multipv 1"


def test_the_cli_json_gives_python_chess_answers(reference):
    records = [json.loads(line) for line in _run_cli("--depth", str(DEPTH), "--no-cache", "--json").splitlines()]
    assert _compare(records, reference) == len(reference)


def test_the_games_are_the_cli_output():
    games = tabia.analyse(GAMES, engine=STOCKFISH, depth=6, jobs=2)
    assert isinstance(games, tabia.AnalysedGames) and len(games) == 6
    assert games.errors == [] and games.report.analysed > 250
    cli = _run_cli("--depth", "6", "--no-cache")
    assert "".join(game.pgn() + "\n\n" for game in games) == cli
    # The games are read back as `read_games` reads them: the new tags, the evals.
    first = games[0]
    assert first.headers["Annotator"] == "tabia analyse: Stockfish 15.1 (go depth 6)"
    assert {"WhiteAccuracy", "WhiteACPL", "BlackBlunders"} <= set(first.headers)
    assert (first.file, first.number, first.line) == (str(GAMES), 1, 1)
    assert len(first.evals) == len(first.san) and first.warnings == []


def test_python_chess_reads_the_evals_of_the_table():
    games = tabia.analyse(GAMES, engine=STOCKFISH, depth=6, jobs=2)
    rows = tabia.analyse(GAMES, engine=STOCKFISH, depth=6, jobs=1, as_table=True).to_pylist()
    by_position = {(r["game"], r["ply"]): _score(r["cp"], r["mate"]) for r in rows}
    compared = 0
    for number, game in enumerate(games, 1):
        node = chess.pgn.read_game(io.StringIO(game.pgn()))
        ply = 0
        while node.variations:
            node = node.variation(0)
            ply += 1
            if not any(node.board().legal_moves):
                assert node.eval() is None  # a mate: no position left to score, no [%eval]
                continue
            score = node.eval().white()
            assert _score(score.score(), score.mate()) == by_position[(number, ply)]
            compared += 1
    assert compared > 250


@pytest.mark.parametrize(
    "options, args",
    [
        (
            dict(depth=6, side="black", plies="10-30", variations=True),
            ["--depth", "6", "--side", "black", "--plies", "10-30", "--variations"],
        ),
        (dict(depth=6, player="anderssen, adolf", multipv=2), ["--depth", "6", "--player", "anderssen, adolf", "--multipv", "2"]),
        (dict(nodes=2000, options={"Hash": 8}), ["--nodes", "2000", "--option", "Hash=8"]),
    ],
)
def test_selections_and_options_are_the_clis(options, args):
    games = tabia.analyse(GAMES, engine=STOCKFISH, jobs=2, **options)
    assert "".join(game.pgn() + "\n\n" for game in games) == _run_cli("--no-cache", *args)


def test_a_second_run_with_the_cache_analyses_nothing(tmp_path):
    cache = tmp_path / "analysis.redb"
    first = tabia.analyse(GAMES, engine=STOCKFISH, depth=5, jobs=2, cache=cache)
    assert first.report.analysed > 250 and first.report.cached == 0
    second = tabia.analyse(GAMES, engine=STOCKFISH, depth=5, jobs=2, cache=cache)
    assert second.report.analysed == 0
    # Every position asked, repeated ones too, is the cache's now.
    assert second.report.cached == first.report.analysed + first.report.repeated
    assert [g.pgn() for g in second] == [g.pgn() for g in first]
    # The CLI reads the same cache: nothing to analyse either.
    done = subprocess.run(
        [_cli(), "analyse", str(GAMES), "--engine", STOCKFISH, "--depth", "5", "--cache", str(cache), "-j", "2"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "positions analysed 0," in done.stderr.splitlines()[-1]
    assert done.stdout == "".join(g.pgn() + "\n\n" for g in first)


def test_bad_games_and_variants_are_reported(tmp_path):
    path = tmp_path / "mixed.pgn"
    path.write_text(
        '[Variant "Crazyhouse"]\n\n1. e4 e5 *\n\n'
        "1. e4 e5 2. Ke3 *\n\n"
        "1. f3 e5 2. g4 Qh4# 0-1\n"
    )
    games = tabia.analyse(path, engine=STOCKFISH, depth=4, jobs=1)
    assert [g.number for g in games] == [1, 3]
    assert [e.number for e in games.errors] == [2]
    assert games.errors[0].kind == "replay" and "Ke3" in games.errors[0].message
    assert games[0].warnings == ["not analysed: Crazyhouse is not standard chess or Chess960"]
    assert "[%eval" not in games[0].pgn() and "[%eval" in games[1].pgn()
    report = games.report
    assert (report.games, report.bad) == (2, 1)
    assert report.warnings == [f"{path}: game 1: not analysed: Crazyhouse is not standard chess or Chess960"]
    table = tabia.analyse(path, engine=STOCKFISH, depth=4, jobs=1, as_table=True)
    bad = table.filter(pa.compute.is_valid(table.column("error"))).to_pylist()
    assert [(r["game"], r["ply"]) for r in bad] == [(2, None)]
    assert "Ke3" in bad[0]["error"]
    # The mate: its positions with moves only (the last has none to analyse).
    assert table.filter(pa.compute.equal(table.column("game"), 3)).column("ply").to_pylist() == [0, 1, 2, 3]


def test_errors_are_python_exceptions_with_the_librarys_messages(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"engine `no-such-engine-here`: not found on PATH or in /usr/games"):
        tabia.analyse(GAMES, engine="no-such-engine-here", depth=1)
    with pytest.raises(ValueError, match=r"has no option `Hashh` \(it has .*Hash"):
        tabia.analyse(GAMES, engine=STOCKFISH, depth=1, options={"Hashh": 8}, jobs=1)
    with pytest.raises(ValueError, match=r"plies `9-2`: give plies as A-B, A- or -B"):
        tabia.analyse(GAMES, engine=STOCKFISH, plies="9-2")
    with pytest.raises(ValueError, match=r'side="red": expected "white" or "black"'):
        tabia.analyse(GAMES, engine=STOCKFISH, side="red")
    not_a_cache = tmp_path / "cache.redb"
    not_a_cache.write_text("not a cache")
    with pytest.raises(OSError, match=str(not_a_cache)):
        tabia.analyse(GAMES, engine=STOCKFISH, depth=1, jobs=1, cache=not_a_cache)


def test_plies_sides_and_engines_have_python_forms():
    columns = ["game", "ply", "fen", "cp", "mate", "best"]
    as_text = tabia.analyse(GAMES, engine=STOCKFISH, depth=4, jobs=2, plies="5-9", side="white", as_table=True)
    for plies in [(5, 9), range(5, 10)]:
        table = tabia.analyse(
            [str(GAMES)], engine=[STOCKFISH], depth=4, jobs=2, plies=plies, side=chess.WHITE, as_table=True
        )
        assert table.select(columns).equals(as_text.select(columns))
    # White's moves of plies 5 to 9: the positions before and after plies 5, 7 and 9.
    assert sorted(set(as_text.column("ply").to_pylist())) == [4, 5, 6, 7, 8, 9]


def test_ctrl_c_stops_the_engines(tmp_path):
    path = tmp_path / "many.pgn"
    path.write_bytes(GAMES.read_bytes() * 20)
    cache = tmp_path / "cache.redb"
    script = textwrap.dedent(
        f"""
        import os, signal, sys, time, tabia

        # Python turns SIGINT into KeyboardInterrupt only if it was not ignored at its start,
        # and a shell's background job (`cmd &`) starts with it ignored: as a terminal would.
        signal.signal(signal.SIGINT, signal.default_int_handler)

        def engines():
            # Stockfish processes this one started (Linux: /proc), still running.
            found = []
            for pid in filter(str.isdigit, os.listdir("/proc")):
                try:
                    stat = open(f"/proc/{{pid}}/stat").read()
                except OSError:
                    continue
                if "(stockfish)" in stat and int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid():
                    found.append(pid)
            return found

        print("analysing", flush=True)
        try:
            tabia.analyse({str(path)!r}, engine={STOCKFISH!r}, depth=30, jobs=2, cache={str(cache)!r})
        except KeyboardInterrupt:
            print("interrupted", len(engines()), flush=True)
            sys.exit(3)
        print("finished", flush=True)
        """
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "analysing\n"
    time.sleep(3)
    child.send_signal(signal.SIGINT)
    start = time.perf_counter()
    out, _ = child.communicate(timeout=60)
    assert (child.returncode, out) == (3, "interrupted 0\n")
    assert time.perf_counter() - start < 10
    # The cache was let go of: another process opens it.
    report = tabia.analyse(GAMES, engine=STOCKFISH, depth=1, jobs=1, cache=cache, plies="1").report
    assert (report.games, report.failed) == (6, 0)
