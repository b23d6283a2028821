"""read_table and scan: the tables of `tabia table` through the Arrow C stream interface."""

from __future__ import annotations

import pyarrow as pa

import tabia


def test_read_table_games_of_the_sample(sample):
    table = tabia.read_table(sample)
    assert isinstance(table, pa.Table)
    assert table.num_rows == 1
    row = table.to_pylist()[0]
    assert row["White"] == "Fischer, Robert J."
    assert row["ply_count"] == 85
    assert row["errors"] == []
    assert table.schema == tabia.schema()


def test_read_table_moves_with_columns(sample):
    moves = tabia.read_table(sample, moves=True, columns=["ply", "san", "uci"])
    assert moves.schema.names == ["ply", "san", "uci"]
    assert moves.num_rows == 85
    assert moves.slice(0, 2).to_pylist() == [
        {"ply": 1, "san": "e4", "uci": "e2e4"},
        {"ply": 2, "san": "e5", "uci": "e7e5"},
    ]


def test_scan_streams_the_same_rows(ok_dir):
    reader = tabia.scan(ok_dir, moves=True)
    assert isinstance(reader, pa.RecordBatchReader)
    assert reader.read_all().num_rows == tabia.read_table(ok_dir, moves=True).num_rows
