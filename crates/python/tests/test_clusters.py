"""tabia.spark and tabia.dask run for real: Spark in local[2] mode and Dask on a LocalCluster of
two worker processes, over several files (some zstd-compressed) and one large file read in
byte ranges; their rows are those of tabia.read_table of the same files."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pytest

import tabia
from tabia import _partitions

from conftest import FIXTURES

SPLIT = 2000
# The byte ranges the Spark and Dask readers are tested with: SPLIT, a smaller size and a larger
# one drawn at random (seeded: the same on every run), so that the cuts fall elsewhere in the
# games (in tags, in movetext, in comments). The large file is some 29 kB.
_rng = random.Random(41)
SPLITS = [SPLIT, _rng.randrange(400, 1_500), _rng.randrange(3_000, 15_000)]


def _zstd(data: bytes) -> bytes:
    try:
        import zstandard
    except ImportError:
        zstd = shutil.which("zstd")
        assert zstd, "compressing the fixtures needs the zstandard module or the zstd program"
        return subprocess.run([zstd, "-q", "-c"], input=data, capture_output=True, check=True).stdout
    return zstandard.ZstdCompressor().compress(data)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    """Four files of the fixtures (two zstd-compressed, one with bad games) and one large file
    of them all, repeated, that splits into many ranges."""
    root = tmp_path_factory.mktemp("games")
    ok = sorted((FIXTURES / "ok").glob("*.pgn"))
    err = sorted((FIXTURES / "err").glob("*.pgn"))
    text = lambda paths: b"\n\n".join(p.read_bytes() for p in paths) + b"\n\n"
    (root / "a.pgn").write_bytes(text(ok[: len(ok) // 2]))
    (root / "b.pgn.zst").write_bytes(_zstd(text(ok[len(ok) // 2 :])))
    (root / "c.pgn").write_bytes(text(err))
    (root / "d.pgn.zst").write_bytes(_zstd(text(ok + err)))
    (root / "large.pgn").write_bytes(text(ok + err) * 8)
    return root


def _files(root: Path) -> list[str]:
    return _partitions.expand(str(root / "*.pgn*"))


def _sorted(table: pa.Table, moves: bool) -> pa.Table:
    keys = [("file", "ascending"), ("game", "ascending")]
    if moves:
        keys.append(("ply", "ascending"))
    return table.sort_by(keys)


def test_the_plan_cuts_only_uncompressed_files(inputs):
    parts = _partitions.plan(str(inputs / "*.pgn*"), split_bytes=SPLIT)
    by_file: dict[str, list] = {}
    for part in parts:
        by_file.setdefault(os.path.basename(part.path), []).append(part)
    size = (inputs / "large.pgn").stat().st_size
    assert len(by_file["large.pgn"]) == -(-size // SPLIT) > 8
    assert [p.start for p in by_file["b.pgn.zst"]] == [None]
    assert [p.start for p in by_file["d.pgn.zst"]] == [None]
    with pytest.raises(FileNotFoundError, match="no file matches"):
        _partitions.plan(str(inputs / "*.nothing"))


@pytest.mark.parametrize("moves", [False, True])
def test_ranges_of_a_large_file_read_its_games_once(inputs, moves):
    large = str(inputs / "large.pgn")
    whole = tabia.read_table(large, moves=moves)
    parts = _partitions.plan(large, split_bytes=SPLIT)
    assert len(parts) > 8
    pieces = pa.concat_tables(
        _partitions.scan(part, moves=moves).read_all() for part in parts
    )
    # In order, range after range: the same rows, numbers and lines as the whole file.
    assert pieces.equals(whole)



@pytest.mark.parametrize("seed", range(4))
def test_any_cut_and_any_jobs_give_the_same_rows(inputs, seed):
    # Random cut points (a plan's byte size) and job counts: the rows' content, not only their
    # number, is the whole file's read on one job.
    rng = random.Random(seed)
    large = str(inputs / "large.pgn")
    whole = tabia.read_table(large, moves=True, jobs=1)
    assert tabia.read_table(large, moves=True, jobs=rng.choice([2, 3, 4])).equals(whole)
    parts = _partitions.plan(large, split_bytes=rng.randrange(300, 40_000))
    pieces = pa.concat_tables(_partitions.scan(part, moves=True).read_all() for part in parts)
    assert pieces.equals(whole)

# --- Spark ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def spark():
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Spark needs a Java 17 runtime (Debian: openjdk-17-jre-headless)")
    from pyspark.sql import SparkSession

    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("tabia-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    import tabia.spark

    session.dataSource.register(tabia.spark.PgnDataSource)
    yield session
    session.stop()


def _as_spark(table: pa.Table, schema) -> pa.Table:
    """``table`` with Spark's types (see tabia.spark), to compare with what Spark gives."""
    from pyspark.sql.pandas.types import to_arrow_schema

    from tabia.spark import _conform

    target = to_arrow_schema(schema, timezone="UTC")
    arrays = [_conform(table.column(f.name).combine_chunks(), f.type) for f in target]
    return pa.Table.from_arrays(arrays, schema=target)


@pytest.mark.parametrize("split", SPLITS)
@pytest.mark.parametrize("moves", [False, True])
def test_spark_reads_the_rows_of_read_table(spark, inputs, moves, split):
    # Whatever the byte ranges, the rows (their content) are those of read_table on one job.
    df = (
        spark.read.format("pgn")
        .option("moves", str(moves).lower())
        .option("splitBytes", str(split))
        .load(str(inputs / "*.pgn*"))
    )
    plan = _partitions.plan(str(inputs / "*.pgn*"), split_bytes=split)
    assert df.rdd.getNumPartitions() == len(plan) > 4
    got = _sorted(df.toArrow(), moves)
    whole = tabia.read_table(*_files(inputs), moves=moves, jobs=1)
    expected = _sorted(_as_spark(whole, df.schema), moves)
    assert got.num_rows == expected.num_rows > 0
    assert got.equals(expected)


def test_spark_columns_types_and_queries(spark, inputs):
    df = (
        spark.read.format("pgn")
        .option("columns", "file,game,White,UTCDate,final_zobrist,errors")
        .load(str(inputs / "a.pgn"))
    )
    assert df.columns == ["file", "game", "White", "UTCDate", "final_zobrist", "errors"]
    assert dict(df.dtypes)["final_zobrist"] == "bigint"
    assert dict(df.dtypes)["UTCDate"] == "date"
    # The 64 bits of the Polyglot key, as Java reads it.
    expected = tabia.read_table(inputs / "a.pgn", columns=["final_zobrist"]).column(0)
    signed = pc.cast(expected, pa.int64(), safe=False).to_pylist()
    assert [r.final_zobrist for r in df.orderBy("game").collect()] == signed
    with pytest.raises(Exception, match="no column 'Nope' in the games table"):
        spark.read.format("pgn").option("columns", "Nope").load(str(inputs / "a.pgn")).schema


def test_spark_dates_and_times(spark):
    df = (
        spark.read.format("pgn")
        .option("columns", "UTCDate,UTCTime")
        .load(str(FIXTURES / "ok" / "clocks-evals.pgn"))
    )
    assert dict(df.dtypes) == {"UTCDate": "date", "UTCTime": "string"}
    expected = tabia.read_table(FIXTURES / "ok" / "clocks-evals.pgn", columns=["UTCDate", "UTCTime"])
    rows = [(r.UTCDate, r.UTCTime) for r in df.collect()]
    dates = expected.column("UTCDate").to_pylist()
    times = [t.strftime("%H:%M:%S") for t in expected.column("UTCTime").to_pylist()]
    assert rows == list(zip(dates, times))


def test_spark_reads_a_list_of_files_named_with_spaces_and_commas(spark, inputs, tmp_path):
    # load([f1, f2]) hands the data source a JSON array of the names (issue 40 §4).
    files = [tmp_path / "games, one.pgn", tmp_path / "games, two.pgn.zst"]
    shutil.copy(inputs / "a.pgn", files[0])
    shutil.copy(inputs / "b.pgn.zst", files[1])
    df = spark.read.format("pgn").load([str(f) for f in files])
    got = _sorted(df.toArrow(), False)
    expected = _sorted(_as_spark(tabia.read_table(files), df.schema), False)
    assert got.num_rows == expected.num_rows > 0
    assert got.equals(expected)


def test_spark_paths_option():
    from tabia.spark import _paths_option

    assert _paths_option('["a b.pgn", "c,d.pgn"]') == ["a b.pgn", "c,d.pgn"]
    assert _paths_option("a.pgn, b.pgn") == ["a.pgn", "b.pgn"]
    assert _paths_option("") == []


def test_spark_names_a_missing_input(spark, inputs):
    with pytest.raises(Exception, match="no file matches"):
        spark.read.format("pgn").load(str(inputs / "*.nothing")).count()


# --- Dask ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dask_client():
    from distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.mark.parametrize("split", SPLITS)
@pytest.mark.parametrize("moves", [False, True])
def test_dask_reads_the_rows_of_read_table(dask_client, inputs, moves, split):
    import pandas as pd

    import tabia.dask

    # Whatever the byte ranges, the rows (their content) are those of read_table on one job.
    frame = tabia.dask.read_pgn(str(inputs / "*.pgn*"), moves=moves, split_bytes=split)
    plan = _partitions.plan(str(inputs / "*.pgn*"), split_bytes=split)
    assert frame.npartitions == len(plan) > 4
    got = pa.Table.from_pandas(frame.compute(), preserve_index=False)
    expected = tabia.read_table(*_files(inputs), moves=moves, jobs=1)
    # The types of tabia's schema (pandas knows no non-null columns).
    assert [(f.name, f.type) for f in got.schema] == [(f.name, f.type) for f in expected.schema]
    assert _sorted(got.cast(expected.schema), moves).equals(_sorted(expected, moves))
    # The meta is the schema: a query plans without reading.
    assert list(frame.columns) == expected.schema.names
    assert isinstance(frame.dtypes["file"], pd.ArrowDtype)


def test_dask_columns(dask_client, inputs):
    import tabia.dask

    frame = tabia.dask.read_pgn(inputs / "c.pgn", columns=["game", "errors"])
    got = frame.compute()
    assert list(got.columns) == ["game", "errors"]
    assert len(got) == tabia.read_table(inputs / "c.pgn").num_rows
    assert any(len(e) for e in got["errors"])
    with pytest.raises(ValueError, match="no column 'Nope' in the moves table"):
        tabia.dask.read_pgn(inputs / "c.pgn", moves=True, columns=["Nope"])


def test_dask_analyses_partitions_of_files_as_analyse_does(dask_client, tmp_path):
    """docs/clusters.md, "Engine analysis on a cluster": `tabia.analyse` in `map_partitions`
    over partitions of files, each task with its own engine and cache file, gives the rows of
    one `tabia.analyse` of all the files."""
    import dask.dataframe as dd
    import pandas as pd

    stockfish = shutil.which("stockfish") or "/usr/games/stockfish"
    if not os.path.isfile(stockfish):
        pytest.skip("no Stockfish on PATH or in /usr/games (Debian: apt install stockfish)")
    games = tabia.read_games(FIXTURES.parent / "analyse" / "games.pgn")
    paths = []
    for game in games:
        path = tmp_path / f"game-{game.number}.pgn"
        path.write_text(game.pgn() + "\n")
        paths.append(str(path))
    caches = tmp_path / "caches"

    # The example, at depth 4 (a local function: Dask's workers get it by value).
    def analyse_partition(files: pd.DataFrame, partition_info=None) -> pd.DataFrame:
        os.makedirs(caches, exist_ok=True)
        number = partition_info["number"] if partition_info else 0
        table = tabia.analyse(
            list(files["path"]),
            engine=stockfish,
            depth=4,
            jobs=1,
            cache=os.path.join(caches, f"analysis-{number}.redb"),
            as_table=True,
        )
        return table.to_pandas(types_mapper=pd.ArrowDtype)

    files = dd.from_pandas(pd.DataFrame({"path": paths}), npartitions=2)
    meta = tabia.analysis_schema().empty_table().to_pandas(types_mapper=pd.ArrowDtype)
    evals = files.map_partitions(analyse_partition, meta=meta)
    assert evals.npartitions == 2
    expected = tabia.analyse(paths, engine=stockfish, depth=4, jobs=2, as_table=True)
    got = pa.Table.from_pandas(evals.compute(), preserve_index=False).cast(
        expected.schema.remove_metadata()
    )
    columns = ["file", "game", "ply", "fen", "depth", "cp", "mate", "best", "pv", "error"]
    keys = [("file", "ascending"), ("ply", "ascending")]
    assert got.num_rows == expected.num_rows > 250
    assert got.select(columns).sort_by(keys).equals(expected.select(columns).sort_by(keys))
    assert sorted(p.name for p in caches.iterdir()) == ["analysis-0.redb", "analysis-1.redb"]
