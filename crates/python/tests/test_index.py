"""tabia.Index: a position index of the fixtures, held to python-chess replaying the same
games and to the CLI's `tabia index query --json`."""

from __future__ import annotations

import io
import json
import os
import subprocess
from collections import defaultdict
from pathlib import Path

import chess
import chess.pgn
import chess.polyglot
import pytest

import tabia

from conftest import FIXTURES

FILES = sorted((FIXTURES / "ok").glob("*.pgn"))
PLIES = 50
LINES = [[], ["e2e4"], ["e2e4", "e7e5"], ["d2d4"], ["e2e4", "e7e5", "g1f3"]]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, dict]:
    path = tmp_path_factory.mktemp("index") / "fixtures"
    summary = tabia.Index.build(path, FILES, jobs=1)
    return path, summary


@pytest.fixture(scope="module")
def index(built) -> tabia.Index:
    return tabia.Index(built[0])


class _TagResult(chess.pgn.GameBuilder):
    """A game whose result is its `Result` tag alone, as the index reads it (python-chess
    otherwise takes the movetext's result when the tag is missing)."""

    def visit_result(self, result: str) -> None:
        pass


def _fixture_games() -> list[chess.pgn.Game]:
    """The games of the fixtures that python-chess reads (it refuses some that tabia reads
    and repairs: `0-0` castling, a move number out of place)."""
    games = []
    for path in FILES:
        data = path.read_bytes()
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("latin-1")  # as tabia reads a file that is not UTF-8
        stream = io.StringIO(text)
        while (game := chess.pgn.read_game(stream, Visitor=_TagResult)) is not None:
            # python-chess makes an empty game of what follows the last game of some files.
            if not game.errors and game.next() is not None:
                games.append(game)
    return games


def _indexed(index: tabia.Index) -> list[tuple[chess.pgn.Game, dict]]:
    """Every game of the index: its PGN read by python-chess, and its record."""
    games: list[tuple[chess.pgn.Game, dict]] = []
    records: dict[int, dict] = {}
    id = 0
    while len(games) < len(index):
        id += 1
        assert id < 10 * len(index) + 10, "ids of every game"
        if (pgn := index.pgn(id)) is None:
            continue
        game = chess.pgn.read_game(io.StringIO(pgn))
        assert not game.errors, pgn
        if id not in records:
            records.update((r["id"], r) for r in index.games(fen=game.board().fen(), limit=1000))
        games.append((game, records[id]))
    return games


def _replayed_counts(games) -> dict[int, dict[str, list[int]]]:
    """For each position (its Zobrist hash) of the first 50 plies of every game: the moves
    played from it with white wins, draws and black wins (a game counted once a position,
    at its first visit)."""
    counts: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    for game, record in games:
        column = {"1-0": 0, "1/2-1/2": 1, "0-1": 2}.get(record["result"])
        board = game.board()
        visited = set()
        for ply, move in enumerate(game.mainline_moves()):
            if ply >= PLIES:
                break
            key = chess.polyglot.zobrist_hash(board)
            if key not in visited:
                visited.add(key)
                tally = counts[key][move.uci()]
                if column is not None:
                    tally[column] += 1
            board.push(move)
    return counts


def test_build_summary(built):
    _, summary = built
    assert summary["read"] == summary["indexed"] + summary["duplicates"] + summary["bad"]
    assert (summary["indexed"], summary["duplicates"], summary["bad"]) == (13, 7, 1)
    assert summary["errors"] == [
        f"{FIXTURES / 'ok' / 'move-numbers.pgn'}:1:55: game 1: illegal move 5... O-O (ply 10): "
        "cannot castle kingside: a piece stands between king and rook"
    ]


def test_the_index_holds_the_games_python_chess_reads(index):
    indexed = {
        (game.board().fen(), tuple(m.uci() for m in game.mainline_moves())): record
        for game, record in _indexed(index)
    }
    seen = set()
    for game in _fixture_games():
        key = (game.board().fen(), tuple(m.uci() for m in game.mainline_moves()))
        assert key in indexed, game.headers
        if key not in seen:
            # The first copy is the one kept: its tags are the record's.
            seen.add(key)
            record = indexed[key]
            # Without a Result tag python-chess says `*`, where tabia's export (and so the
            # index) takes the result written after the moves.
            if game.headers["Result"] != "*":
                assert record["result"] == game.headers["Result"], game.headers
            assert (record["white"] or "?") == game.headers["White"], game.headers


def test_explore_agrees_with_python_chess(index):
    games = _indexed(index)
    counts = _replayed_counts(games)
    for line in LINES:
        board = chess.Board()
        for uci in line:
            board.push_uci(uci)
        answer = index.explore(play=line, moves=100)
        expected = counts.get(chess.polyglot.zobrist_hash(board), {})
        got = {m["uci"]: [m["white"], m["draws"], m["black"]] for m in answer["moves"]}
        assert got == dict(expected), line
        assert [answer["white"], answer["draws"], answer["black"]] == [
            sum(c[i] for c in expected.values()) for i in range(3)
        ]
        # The SAN is python-chess's.
        for m in answer["moves"]:
            assert m["san"] == board.san(chess.Move.from_uci(m["uci"]))
    from_start = [g for g, _ in games if g.board() == chess.Board()]
    assert index.explore()["games"] == len(from_start)


def test_explore_answers_in_lichess_shape(index):
    answer = index.explore(play="e2e4,e7e5", moves=1, top_games=1, recent_games=2)
    assert list(answer) == [
        "white",
        "draws",
        "black",
        "moves",
        "topGames",
        "recentGames",
        "opening",
        "games",
    ]
    assert answer["opening"] == {"eco": "C20", "name": "King's Pawn Game"}
    assert len(answer["moves"]) == 1 and len(answer["topGames"]) <= 1
    assert list(answer["moves"][0]) == [
        "uci",
        "san",
        "averageRating",
        "white",
        "draws",
        "black",
        "game",
    ]
    assert len(answer["recentGames"]) == 2
    # The same position asked by FEN, by SAN moves, by a list of UCI moves.
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    by_fen = index.explore(fen=fen)
    assert by_fen["moves"] == index.explore(play=["e4", "e5"])["moves"]
    assert by_fen["moves"] == index.explore(play=["e2e4", "e7e5"])["moves"]


def test_filters(index):
    everything = index.explore()
    blitz = index.explore(speeds=["blitz"])
    assert 0 < blitz["games"] < everything["games"]
    assert index.explore(speeds="blitz") == blitz
    assert index.explore(ratings=[1800, 2000])["games"] <= everything["games"]
    assert index.explore(since="2024", until="2024-12")["games"] < everything["games"]
    assert index.explore(since="3000")["games"] == 0


@pytest.mark.skipif(not os.environ.get("TABIA_BIN"), reason="TABIA_BIN names the CLI")
def test_explore_is_the_cli_json(built, index):
    binary = os.environ["TABIA_BIN"]
    for line in LINES:
        args = [binary, "index", "query", str(built[0]), "--json"]
        if line:
            args += ["--play", ",".join(line)]
        out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
        assert index.explore(play=line) == json.loads(out), line
        out = subprocess.run(args + ["--history"], check=True, capture_output=True, text=True)
        answer = index.explore(play=line, history=True)
        assert answer == json.loads(out.stdout), line
        # The months hold the games that played on (those of a known month).
        played = sum(m["white"] + m["draws"] + m["black"] for m in answer["history"])
        assert played <= answer["white"] + answer["draws"] + answer["black"]


def test_games_and_their_pgn(index):
    by_moves = {tuple(m.uci() for m in g.mainline_moves()): r for g, r in _indexed(index)}
    page = index.games(play=["e2e4"])
    assert len(page) == index.explore(play=["e2e4"])["games"]
    assert list(page[0]) == [
        "id",
        "white",
        "black",
        "white_elo",
        "black_elo",
        "result",
        "date",
        "event",
        "site",
        "speed",
        "plies",
    ]
    for record in page:
        pgn = index.pgn(record["id"])
        game = chess.pgn.read_game(io.StringIO(pgn))
        moves = tuple(m.uci() for m in game.mainline_moves())
        assert moves[0] == "e2e4"
        assert len(moves) == record["plies"]
        assert by_moves[moves] == record
        assert game.headers["White"] == (record["white"] or "?")
    assert [g["id"] for g in index.games(play="e2e4", offset=1, limit=2)] == [
        g["id"] for g in page[1:3]
    ]
    assert index.pgn(10_000) is None


def test_player_info_len(index, built):
    answer = index.player("Fischer, Robert J.", "white")
    assert [m["san"] for m in answer["moves"]] == ["e4"]
    assert answer["recentGames"][0]["white"]["name"] == "Fischer, Robert J."
    assert index.player("Fischer, Robert J.", "black")["moves"] == []
    info = index.info()
    assert (info["games"], info["max_ply"], info["path"]) == (13, PLIES, str(built[0]))
    assert len(index) == 13
    assert repr(index) == f"<tabia.Index {built[0]} of 13 games>"


def test_add_and_merge(tmp_path, index):
    half = len(FILES) // 2
    first, second = tmp_path / "first", tmp_path / "second"
    tabia.Index.build(first, FILES[:half])
    tabia.Index.build(second, FILES[half])  # one path, not a list
    added = tabia.Index(second).add(FILES[half + 1 :])
    assert added["read"] == added["indexed"] + added["duplicates"] + added["bad"]
    merged = tabia.Index.merge([first, second], tmp_path / "merged")
    assert merged["indexed"] == len(index)
    whole = tabia.Index(tmp_path / "merged")
    for line in LINES:
        a, b = whole.explore(play=line, moves=100), index.explore(play=line, moves=100)
        assert a["games"] == b["games"], line
        assert [m["uci"] for m in a["moves"]] == [m["uci"] for m in b["moves"]], line


def test_merge_keeps_the_results(tmp_path, index):
    half = len(FILES) // 2
    tabia.Index.build(tmp_path / "first", FILES[:half])
    tabia.Index.build(tmp_path / "second", FILES[half:])
    tabia.Index.merge([tmp_path / "first", tmp_path / "second"], tmp_path / "merged")
    merged = tabia.Index(tmp_path / "merged").explore()
    whole = index.explore()
    assert [merged[k] for k in ("white", "draws", "black")] == [
        whole[k] for k in ("white", "draws", "black")
    ]


def test_errors(tmp_path, built, index):
    with pytest.raises(FileNotFoundError) as missing:
        tabia.Index(tmp_path)
    assert str(missing.value) == (
        f"{tmp_path} is not a tabia index (no index.redb): "
        f"build one with `tabia index build FILES -o {tmp_path}`"
    )
    with pytest.raises(FileExistsError, match="holds an index already"):
        tabia.Index.build(built[0], FILES)
    (tmp_path / "index.redb").write_bytes(b"not an index" * 100)
    with pytest.raises(ValueError):
        tabia.Index(tmp_path)
    with pytest.raises(ValueError) as illegal:
        index.explore(play="e2e4,e2e4")
    assert str(illegal.value) == "illegal move `e2e4`: there is no piece on e2 (in play, ply 2)"
    with pytest.raises(ValueError, match="^unknown speed `fast`: expected ultraBullet"):
        index.explore(speeds=["blitz", "fast"])
    with pytest.raises(ValueError, match="^bad month `2024-13`"):
        index.games(since="2024-13")
    with pytest.raises(ValueError, match="^unknown variant `shogi`"):
        index.explore(variant="shogi")
    with pytest.raises(ValueError, match="^bad fen: "):
        index.explore(fen="8/8/8/8 w")
    with pytest.raises(ValueError, match='expected "white" or "black"'):
        index.player("x", "red")
