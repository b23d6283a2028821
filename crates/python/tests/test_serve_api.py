"""`tabia serve` read by a real client of lichess's opening explorer API: berserk (lichess's
Python client), pointed at the server with `explorer_url`."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

import serving

berserk = pytest.importorskip("berserk")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    served = serving.start(tmp_path_factory.mktemp("serve"))
    yield served
    serving.stop(served)


@pytest.fixture(scope="module")
def explorer(server):
    return berserk.Client(explorer_url=server.url).opening_explorer


def moves(answer) -> dict:
    return {m["uci"]: (m["white"], m["draws"], m["black"]) for m in answer["moves"]}


def test_lichess_from_the_start(explorer):
    answer = explorer.get_lichess_games()
    assert (answer["white"], answer["draws"], answer["black"]) == (2, 1, 2)
    assert moves(answer) == {"e2e4": (1, 1, 2), "d2d4": (1, 0, 0)}
    assert [m["san"] for m in answer["moves"]] == ["e4", "d4"]
    # Four top games at most, best rated first (the mean of the two ratings).
    assert [g["white"]["name"] for g in answer["topGames"]] == ["frank", "dave", "alice", "alice"]


def test_lichess_after_moves_with_filters(explorer):
    answer = explorer.get_lichess_games(play=["e2e4"])
    assert moves(answer) == {"e7e5": (1, 1, 1), "c7c5": (0, 0, 1)}
    assert answer["opening"] == {"eco": "B00", "name": "King's Pawn Game"}
    blitz = explorer.get_lichess_games(speeds=["blitz"])
    assert moves(blitz) == {"e2e4": (1, 0, 1)}
    rated = explorer.get_lichess_games(ratings=["2500"])
    assert moves(rated) == {"d2d4": (1, 0, 0)}
    dated = explorer.get_lichess_games(since="2021-01", until="2022-12")
    assert moves(dated) == {"e2e4": (0, 0, 2)}


def test_masters(explorer):
    answer = explorer.get_masters_games(play=["e2e4", "e7e5"], since=2000)
    assert moves(answer) == {"g1f3": (1, 0, 1)}
    everything = explorer.get_masters_games(top_games=15)
    assert len(everything["topGames"]) == 5
    pgn = explorer.get_otb_master_game(everything["topGames"][0]["id"])
    assert '[White "frank"]' in pgn and "1. d4 d5 1-0" in pgn


def test_player(explorer):
    answer = explorer.get_player_games("alice", "white")
    assert moves(answer) == {"e2e4": (1, 0, 1)}
    assert answer["queuePosition"] == 0
    black = explorer.get_player_games("alice", "black", play=["e2e4"])
    assert moves(black) == {"c7c5": (0, 0, 1)}


def test_bad_parameters_raise(explorer):
    with pytest.raises(berserk.exceptions.ResponseError) as caught:
        explorer.get_lichess_games(play=["e2e5"])
    assert caught.value.status_code == 400
    assert "e2e5" in str(caught.value)


def test_berserk_reads_what_a_plain_get_reads(server, explorer):
    with urllib.request.urlopen(server.url + "/lichess?play=e2e4,e7e5&topGames=4") as response:
        assert response.headers["Access-Control-Allow-Origin"] == "*"
        plain = json.load(response)
    assert explorer.get_lichess_games(play=["e2e4", "e7e5"], top_games=4) == plain
