"""Spark and Dask over a multi-file input: one executor/worker against two.

    python crates/python/bench/clusters.py [--corpus ../shared/corpus/lichess_db_1000k.pgn]
        [--files 8] [--repeat 8] [--runs 5] [--moves]

The corpus file is cut into ``--files`` files at game starts, each repeated ``--repeat``
times (so that a task has work worth its scheduling), in a temporary folder. Each engine
reads them all with tabia, one core per task (``jobs=1``), materialising every column:

- Spark: ``local[1]`` then ``local[2]``, ``df.write.format("noop")`` (every row, every
  column, nothing written);
- Dask: ``LocalCluster(n_workers=1)`` then ``n_workers=2``, one thread each, processes;
  ``len`` of each partition's pandas frame.

One and two alternate run by run (the machine may be shared: both see the same load), each
timed run after a warm-up run on the same session or cluster; prints the medians, the ratio
one/two, how many cores the machine had busy on average during the timed runs (every
process: with one slot Spark already keeps more than one core busy, its JVM converting
what the Python worker sends) and the load average. Needs pyspark 4, dask[distributed,dataframe] and Java 17.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path


def make_inputs(corpus: Path, files: int, repeat: int, root: Path) -> list[str]:
    text = corpus.read_bytes()
    starts = [0]
    at = 0
    step = len(text) // files
    for _ in range(files - 1):
        at = text.find(b"\n\n[Event ", max(at + 1, starts[-1] + step))
        if at < 0:
            break
        starts.append(at + 2)
    starts.append(len(text))
    paths = []
    for k, (a, b) in enumerate(zip(starts, starts[1:])):
        path = root / f"part-{k}.pgn"
        path.write_bytes((text[a:b].rstrip(b"\n") + b"\n\n") * repeat)
        paths.append(str(path))
    return paths


BUSY: dict[int, list[float]] = {}


def busy_seconds() -> float:
    """The CPU seconds the whole machine has spent busy (every process: the JVM and the
    Python workers are not this process's children), from /proc/stat; 0 elsewhere."""
    try:
        with open("/proc/stat") as stat:
            fields = stat.readline().split()[1:]
    except OSError:
        return 0.0
    ticks = [int(x) for x in fields]
    idle = ticks[3] + ticks[4]  # idle, iowait
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def timed(run, slots: int) -> float:
    run()  # warm-up: the JVM's and the workers' first task, imports, caches
    busy, start = busy_seconds(), time.perf_counter()
    run()
    wall = time.perf_counter() - start
    # How many cores were busy on average: what a second slot can still add.
    BUSY.setdefault(slots, []).append((busy_seconds() - busy) / wall)
    return wall


def spark_time(paths: list[str], slots: int, moves: bool) -> float:
    """One timed run on a fresh ``local[slots]`` session, after a warm-up run."""
    from pyspark.sql import SparkSession

    import tabia.spark

    os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = (
        SparkSession.builder.master(f"local[{slots}]")
        .appName(f"tabia-bench-{slots}")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    try:
        spark.dataSource.register(tabia.spark.PgnDataSource)
        df = (
            spark.read.format("pgn")
            .option("moves", str(moves).lower())
            .option("paths", ",".join(paths))
            .load()
        )
        assert df.rdd.getNumPartitions() == len(paths)
        return timed(lambda: df.write.format("noop").mode("overwrite").save(), slots)
    finally:
        spark.stop()


class DaskClusters:
    """A one-worker and a two-worker cluster, both kept up so that runs can alternate."""

    def __init__(self) -> None:
        from distributed import Client, LocalCluster

        self.clients = {}
        for n in (1, 2):
            cluster = LocalCluster(
                n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None
            )
            self.clients[n] = Client(cluster, set_as_default=False)

    def time(self, paths: list[str], workers: int, moves: bool) -> float:
        import tabia.dask

        client = self.clients[workers]
        frame = tabia.dask.read_pgn(paths, moves=moves)

        def run() -> int:
            # A key of its own each run: the scheduler may still hold the last run's result
            # (released a moment after `.result()`), and would hand it back in no time.
            lengths = frame.map_partitions(len, token=f"len-{uuid.uuid4()}")
            return client.compute(lengths).result().sum()

        return timed(run, workers)

    def close(self) -> None:
        for client in self.clients.values():
            cluster = client.cluster
            client.close()
            cluster.close()


def main() -> None:
    here = Path(__file__).resolve()
    default = here.parents[3].parent / "shared" / "corpus" / "lichess_db_1000k.pgn"
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=default)
    parser.add_argument("--files", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=8)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--moves", action="store_true")
    parser.add_argument("--engines", default="spark,dask")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        paths = make_inputs(args.corpus, args.files, args.repeat, Path(tmp))
        size = sum(os.path.getsize(p) for p in paths)
        table = "moves" if args.moves else "games"
        print(f"{len(paths)} files, {size / 1e6:.1f} MB, {table} table, {os.cpu_count()} cores")
        for engine in args.engines.split(","):
            clusters = DaskClusters() if engine == "dask" else None
            times: dict[int, list[float]] = {1: [], 2: []}
            try:
                # One and two alternate, so that both see the same machine (it is shared).
                for _ in range(args.runs):
                    for n in (1, 2):
                        if clusters is not None:
                            t = clusters.time(paths, n, args.moves)
                        else:
                            t = spark_time(paths, n, args.moves)
                        times[n].append(t)
            finally:
                if clusters is not None:
                    clusters.close()
            medians = {n: statistics.median(ts) for n, ts in times.items()}
            for n in (1, 2):
                runs = " ".join(f"{t:.2f}" for t in times[n])
                cores = statistics.median(BUSY.pop(n, [0.0]))
                print(
                    f"{engine} {n}: median {medians[n]:.2f} s ({runs}); "
                    f"cores busy {cores:.2f}",
                    flush=True,
                )
            print(f"{engine}: two/one speedup {medians[1] / medians[2]:.2f}x", flush=True)
            print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)

if __name__ == "__main__":
    main()
