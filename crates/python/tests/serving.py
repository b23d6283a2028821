"""Starting `tabia serve` for the tests of its API and page: an index of a few games the test
writes (their figures known), the server on a free port, stopped at the end."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from conftest import ROOT

# Five games whose figures the tests know: moves, results, ratings, speeds, dates.
GAMES = [
    ("alice", "bob", 2000, 1900, "180+0", "2020.01.05", "1-0", "1. e4 e5 2. Nf3"),
    ("carol", "alice", 1500, 1500, "600+0", "2021.03.01", "0-1", "1. e4 c5"),
    ("dave", "erin", 2400, 2500, None, "1999.05.05", "1/2-1/2", "1. e4 e5 2. Bc4"),
    ("frank", "gina", 2600, 2600, None, "2010.02.02", "1-0", "1. d4 d5"),
    ("alice", "carol", 1800, 1700, "300+0", "2022.07.07", "0-1", "1. e4 e5 2. Nf3 Nc6"),
]


def pgn() -> str:
    out = []
    for i, (white, black, welo, belo, tc, date, result, moves) in enumerate(GAMES):
        tags = [("Event", f"Test {i + 1}"), ("Site", "?"), ("Date", date), ("Round", "?"),
                ("White", white), ("Black", black), ("Result", result),
                ("WhiteElo", str(welo)), ("BlackElo", str(belo))]
        if tc:
            tags.append(("TimeControl", tc))
        out.append("\n".join(f'[{k} "{v}"]' for k, v in tags) + f"\n\n{moves} {result}\n")
    return "\n".join(out)


def binary() -> str | None:
    """The `tabia` binary: $TABIA_BIN, else one built in the workspace, else on PATH."""
    for candidate in (
        os.environ.get("TABIA_BIN"),
        str(ROOT / "target" / "debug" / "tabia"),
        str(ROOT / "target" / "release" / "tabia"),
        shutil.which("tabia"),
    ):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def build_index(tabia: str, folder: Path, files: list[Path]) -> None:
    """`tabia index build FILES -o FOLDER`."""
    shutil.rmtree(folder, ignore_errors=True)
    subprocess.run([tabia, "index", "build", "-q", "-o", str(folder), *map(str, files)],
                   check=True, capture_output=True)


class Server:
    def __init__(self, process: subprocess.Popen, url: str):
        self.process = process
        self.url = url


def start(tmp: Path) -> Server:
    tabia = binary()
    if tabia is None:
        if os.environ.get("CI") == "true":
            raise AssertionError("CI runs these tests with the CLI built: set TABIA_BIN")
        pytest.skip("no tabia binary built")
    games = tmp / "games.pgn"
    games.write_text(pgn())
    folder = tmp / "games.idx"
    build_index(tabia, folder, [games])
    process = subprocess.Popen([tabia, "serve", "--port", "0", str(folder)],
                               stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    line = process.stderr.readline()
    found = re.search(r"on (http://127\.0\.0\.1:\d+)$", line.strip())
    if not found:
        process.kill()
        raise AssertionError(f"tabia serve said {line!r}")
    assert "(5 games)" in line, line
    return Server(process, found.group(1))


def stop(server: Server) -> None:
    server.process.kill()
    server.process.wait(timeout=10)
    time.sleep(0)
