"""The examples of docs/python.md and docs/clusters.md run as written (issue 40 §1).

Every ```python block of the two pages is run as a script of its own (``python block.py``: a
user's copy, with ``__main__``, ``multiprocessing`` and Spark's pickling as they would have
them) in a folder that holds the files the examples name, made of the repository's fixtures:
``lichess_db_2024-01.pgn.zst`` is the fixtures' games (a game from a FEN and one without moves
among them), ``games.pgn`` the analysis fixture's six games, ``games/`` the fixtures' folder
with its bad game. What the examples name outside that folder (``/mnt/s3/...``, a Dask
scheduler, a depth of 18 for Stockfish) is replaced by :data:`SUBSTITUTIONS`, each of which
must still be found in the pages. A block needs what it uses: Spark a Java runtime, the
analysis examples Stockfish; without them it is skipped, as test_clusters.py and
test_analyse.py skip.

A block that cannot run at all is marked in the page by a comment on the line before it,
``<!-- not run: the reason -->``; the test reads the mark and skips the block with its reason.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import tabia

from conftest import FIXTURES, ROOT

DOCS = ["python.md", "clusters.md"]
FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
NOT_RUN = re.compile(r"<!--\s*not run:\s*(.*?)\s*-->\s*$")


def _stockfish() -> str | None:
    return shutil.which("stockfish") or next(
        (p for p in ["/usr/games/stockfish"] if Path(p).is_file()), None
    )


STOCKFISH = _stockfish()

#: What the examples name that is not in the folder they run in, and what stands for it there
#: (``{work}`` is that folder). Each must occur in some block: a page that changes its example
#: changes this list too.
SUBSTITUTIONS = [
    # Files on a bucket mounted on every node, and the bucket itself.
    ("/mnt/s3/", "{work}/mnt/s3/"),
    ("s3a://my-bucket/", "{work}/s3/my-bucket/"),
    # A folder on each worker's own disk for the analysis caches.
    ("/var/tmp/tabia", "{work}/var/tmp/tabia"),
    # A Dask cluster: a scheduler of one's own, in threads of this process.
    ('Client("scheduler:8786")', "Client(processes=False, dashboard_address=None)"),
    # The depth of a real analysis, too slow for a test: the same calls, shallower.
    ("depth=18", "depth=4"),
    ("depth=12", "depth=4"),
    # Stockfish where the machine has it (Debian's is /usr/games/stockfish).
    ("/usr/games/stockfish", "{stockfish}"),
]


@dataclass(frozen=True)
class Block:
    page: str
    line: int
    code: str
    not_run: str | None

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def _blocks(page: str, text: str | None = None) -> list[Block]:
    """The ```python blocks of docs/PAGE (or of ``text``), each with its line and mark."""
    if text is None:
        text = (ROOT / "docs" / page).read_text()
    blocks = []
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        mark = NOT_RUN.search(before)
        blocks.append(Block(page, line, match.group(1), mark.group(1) if mark else None))
    return blocks


BLOCKS = [block for page in DOCS for block in _blocks(page)]


def test_the_pages_have_examples_and_every_substitution_is_used():
    assert {b.page for b in BLOCKS} == set(DOCS)
    for old, _ in SUBSTITUTIONS:
        assert any(old in b.code for b in BLOCKS), f"no example names {old!r} any more"
    for block in BLOCKS:
        assert block.not_run is None or block.not_run, f"{block.id}: a not-run mark needs a reason"


def test_a_block_marked_not_run_is_known_with_its_reason():
    text = (
        "Text.\n\n```python\nprint(1)\n```\n\n<!-- not run: needs a GPU -->\n"
        "```python\nimport cupy\n```\n\n```sh\nls\n```\n"
    )
    first, second = _blocks("page.md", text)
    assert (first.line, first.code, first.not_run) == (3, "print(1)\n", None)
    assert (second.line, second.code, second.not_run) == (8, "import cupy\n", "needs a GPU")


def _zstd(data: bytes) -> bytes:
    import zstandard

    return zstandard.ZstdCompressor().compress(data)


def _clean_games() -> bytes:
    """The games of the fixtures that read and replay (a lichess dump has no bad game), with a
    game without moves: the fixtures have games from a FEN, without tags, with comments,
    clocks and evaluations, in Latin-1, with CR line ends."""
    texts = []
    for path in sorted((FIXTURES / "ok").glob("*.pgn")):
        reader = tabia.read_games(path, errors="collect")
        games = list(reader)
        if games and not reader.errors:
            texts.append(path.read_bytes().removeprefix(b"\xef\xbb\xbf").strip())
    texts.append(b'[Event "Aborted"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n\n*')
    return b"\n\n".join(texts) + b"\n"


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    """The folder the examples run in, with the files they name."""
    work = tmp_path_factory.mktemp("docs")
    games = _zstd(_clean_games())
    (work / "lichess_db_2024-01.pgn.zst").write_bytes(games)
    (work / "2024-01.pgn.zst").write_bytes(games)
    shutil.copy(ROOT / "fixtures" / "analyse" / "games.pgn", work / "games.pgn")
    shutil.copytree(FIXTURES / "ok", work / "games", ignore=shutil.ignore_patterns("*.out", "*.warn"))
    (work / "fixtures").symlink_to(ROOT / "fixtures")
    # The lichess dumps and broadcasts of docs/clusters.md, on the "bucket".
    lichess = work / "mnt" / "s3" / "lichess"
    (lichess / "broadcasts").mkdir(parents=True)
    for month in (1, 2):
        (lichess / f"lichess_db_standard_rated_2025-{month:02}.pgn.zst").write_bytes(games)
    # A short game a month, for the engines: the analysis examples run in seconds.
    for month in range(1, 13):
        (lichess / "broadcasts" / f"2025-{month:02}.pgn").write_text(
            f'[Event "Broadcast {month}"]\n[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n'
            "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n"
        )
    return work


def _needs(block: Block) -> None:
    """Skips a block whose tools are missing, as the other tests skip."""
    if block.not_run is not None:
        pytest.skip(f"{block.id} is marked not run: {block.not_run}")
    code = block.code
    if "pyspark" in code and shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Spark needs a Java 17 runtime (Debian: openjdk-17-jre-headless)")
    if "tabia.analyse(" in code and STOCKFISH is None:
        pytest.skip("no Stockfish on PATH or in /usr/games (Debian: apt install stockfish)")
    if "dask" in code or "distributed" in code:
        pytest.importorskip("distributed")


def _script(block: Block, work: Path) -> str:
    code = block.code
    for old, new in SUBSTITUTIONS:
        code = code.replace(old, new.format(work=work, stockfish=STOCKFISH))
    return code


@pytest.mark.parametrize("block", BLOCKS, ids=[b.id for b in BLOCKS])
def test_the_example_runs(block: Block, work: Path, tmp_path: Path):
    _needs(block)
    script = tmp_path / f"{block.page.removesuffix('.md')}_{block.line}.py"
    script.write_text(_script(block, work))
    env = dict(os.environ)
    # Spark's workers run this interpreter, where tabia is installed; what spark-submit
    # would be given (the pages' `--conf`) makes a local Spark of two cores, without its web
    # page, that shuffles into two partitions rather than 200.
    env["PYSPARK_PYTHON"] = env["PYSPARK_DRIVER_PYTHON"] = sys.executable
    env["PYSPARK_SUBMIT_ARGS"] = (
        "--master local[2] --conf spark.ui.enabled=false "
        "--conf spark.sql.shuffle.partitions=2 pyspark-shell"
    )
    run = subprocess.run(
        [sys.executable, str(script)],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, (
        f"docs/{block.id}: the example failed\n--- script\n{script.read_text()}"
        f"--- stdout\n{run.stdout[-3000:]}\n--- stderr\n{run.stderr[-6000:]}"
    )
