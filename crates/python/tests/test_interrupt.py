"""The GIL is released while Rust reads, and Ctrl-C stops a long read."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import tabia


def big_file(tmp_path: Path, sample: Path, copies: int) -> Path:
    path = tmp_path / "big.pgn"
    path.write_bytes(sample.read_bytes() * copies)
    return path


def test_python_runs_while_rust_reads(tmp_path: Path, sample: Path):
    path = big_file(tmp_path, sample, 1000)
    ticks = 0
    done = threading.Event()

    def tick():
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    thread = threading.Thread(target=tick)
    thread.start()
    start = time.perf_counter()
    table = tabia.read_table(path, moves=True, jobs=1)
    elapsed = time.perf_counter() - start
    done.set()
    thread.join()
    assert table.num_rows == 85 * 1000
    # The other thread ran all along: about one tick a millisecond (a quarter of that, on a
    # busy machine), where a held GIL would have let it run only between batches.
    assert ticks > elapsed * 1000 / 4, (ticks, elapsed)


def test_ctrl_c_stops_a_long_read(tmp_path: Path, sample: Path):
    path = big_file(tmp_path, sample, 20000)
    script = textwrap.dedent(
        f"""
        import sys, time, tabia
        print("reading", flush=True)
        try:
            for kind in ("table", "games"):
                if kind == "table":
                    tabia.read_table({str(path)!r}, moves=True, jobs=1)
                else:
                    for game in tabia.read_games({str(path)!r}, jobs=1):
                        pass
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(3)
        print("finished", flush=True)
        """
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "reading\n"
    time.sleep(0.5)
    child.send_signal(signal.SIGINT)
    start = time.perf_counter()
    out, _ = child.communicate(timeout=60)
    assert (child.returncode, out) == (3, "interrupted\n")
    assert time.perf_counter() - start < 10
