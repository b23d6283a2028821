"""read_games against python-chess, the real peer: for every game python-chess reads without
error in the repository's fixtures, the same headers, SAN, UCI and final position."""

from __future__ import annotations

import io
import pickle
import re
from pathlib import Path

import chess
import chess.pgn
import pytest

import tabia

from conftest import ROOT

FIXTURES = sorted(
    p
    for p in (ROOT / "fixtures").rglob("*.pgn")
    if "variants" not in p.parts  # python-chess reads variants only with their own classes
)


# Tags where the readers differ, and why: python-chess reads two tag pairs on one line as
# one (the first's value swallows the second); of a repeated tag (a game whose tags follow
# those of a game with no movetext) python-chess keeps the last, tabia the first, as its
# tables do.
PEER_MISREADS = {
    ("tag-escapes.pgn", "Round"),
    ("tag-escapes.pgn", "Date"),
    ("lenient.pgn", "Event"),
    ("lenient.pgn", "White"),
}


def peer_games(path: Path) -> list[chess.pgn.Game]:
    text = path.read_bytes().decode("utf-8", errors="replace")
    if "\r" in text and "\n" not in text:
        pytest.skip("python-chess does not read old Mac line ends (CR only)")
    handle = io.StringIO(text)
    games = []
    while (game := chess.pgn.read_game(handle)) is not None:
        games.append(game)
    return games


def test_the_fixture_corpus_is_there():
    assert len(FIXTURES) >= 30


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: str(p.relative_to(ROOT)))
def test_games_match_python_chess(path: Path):
    ours = list(tabia.read_games(path, errors="yield", jobs=2))
    theirs = peer_games(path)
    good = [g for g in ours if isinstance(g, tabia.Game)]
    # Every item is a game or an error with its place: nothing is dropped.
    assert all(isinstance(g, (tabia.Game, tabia.GameError)) for g in ours)
    if len(ours) != len(theirs):
        pytest.skip(f"the readers split {path.name} differently: {len(ours)} / {len(theirs)}")
    compared = 0
    for game, peer in zip(ours, theirs):
        if not isinstance(game, tabia.Game) or peer.errors:
            continue
        board = peer.board()
        sans, ucis = [], []
        for move in peer.mainline_moves():
            sans.append(board.san(move))
            ucis.append(move.uci())
            board.push(move)
        where = f"{path}: game {game.number}"
        assert game.uci == ucis, where
        assert game.san == sans, where
        assert game.end_board().epd() == board.epd(en_passant="legal"), where
        assert game.board().epd() == peer.board().epd(en_passant="legal"), where
        if not game.warnings and "Variant" not in game.headers:
            # python-chess and shakmaty (lichess) differ on the halfmove clock after a drop.
            assert game.end_board().fen() == board.fen(), where
        for name, value in game.headers.items():
            theirs = peer.headers.get(name)
            if (path.name, name) in PEER_MISREADS:
                continue
            if theirs is None or "\ufffd" in theirs:
                # python-chess reads text as UTF-8 only; tabia decodes Latin-1 too.
                assert "\ufffd" in (theirs or "\ufffd"), f"{where}: {name}"
                continue
            # python-chess keeps the escapes of a tag value (\" and \\) in it.
            theirs = theirs.replace('\\"', '"').replace("\\\\", "\\")
            assert theirs == value, f"{where}: {name}"
        compared += 1
    assert compared > 0 or not good


def _rest_of_line_comments(text: bytes) -> bool:
    """Whether movetext holds a `;` comment (outside braces and tag pairs)."""
    text = re.sub(rb"\{[^}]*\}", b"", text)
    return any(b";" in line for line in text.splitlines() if not line.lstrip().startswith(b"["))


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: str(p.relative_to(ROOT)))
def test_comments_match_python_chess(path: Path):
    """A move's ``comment`` is python-chess's ``node.comment`` (issue 40 §6): each comment
    without the space padding it inside its braces, several joined by a space; ``comments``
    are the same, one by one, and ``intro_comments`` joined are the game's ``comment``.
    python-chess reads the file as a user opens it: in text mode (line ends read as `\n`)."""
    ours = list(tabia.read_games(path, errors="yield", jobs=2))
    with open(path, encoding="utf-8", errors="replace") as handle:
        theirs = []
        while (peer := chess.pgn.read_game(handle)) is not None:
            theirs.append(peer)
    if len(ours) != len(theirs):
        pytest.skip(f"the readers split {path.name} differently: {len(ours)} / {len(theirs)}")
    data = path.read_bytes()
    # Where each game's text ends: where the next game starts (a bad game has no offset).
    ends = [len(data)] * len(ours)
    for i in range(len(ours) - 2, -1, -1):
        following = ours[i + 1]
        ends[i] = following.offset if isinstance(following, tabia.Game) else ends[i + 1]
    compared = 0
    for i, (game, peer) in enumerate(zip(ours, theirs)):
        if not isinstance(game, tabia.Game) or peer.errors:
            continue
        if _rest_of_line_comments(data[game.offset : ends[i]]):
            continue  # python-chess drops the comments that run from `;` to the line's end.
        peer_comments = [node.comment for node in peer.mainline()]
        if any("\ufffd" in c for c in peer_comments + [peer.comment]):
            continue  # python-chess reads text as UTF-8 only; tabia decodes Latin-1 too.
        where = f"{path}: game {game.number}"
        moves = game.mainline()
        assert [m.comment for m in moves] == peer_comments, where
        assert [" ".join(m.comments) for m in moves] == peer_comments, where
        assert [m.comments for m in moves] == game.comments, where
        assert " ".join(game.intro_comments) == peer.comment, where
        compared += 1
    if not compared:
        pytest.skip(f"no game of {path.name} that both read alike")


def test_the_comments_of_the_fixtures_are_compared():
    # The fixtures hold comments python-chess and tabia both read: lichess's clocks and
    # evaluations, several comments after one move, comments over two lines (CRLF too).
    games = [g for path in FIXTURES for g in tabia.read_games(path, errors="collect")]
    comments = [c for g in games for m in g.mainline() for c in m.comments]
    assert any(c.startswith("[%clk") for c in comments)
    assert any("\n" in c for c in comments)
    assert any(len(m.comments) > 1 for g in games for m in g.mainline())


def test_comments_lose_their_padding_not_their_text():
    pgn = (
        "{ intro }  1. e4 { [%clk 0:05:00] } { second }  e5 {  two spaces  } {} { }\n"
        "2. Nf3 {a multi-\r\nline comment } *\n"
    )
    game = tabia.read_game(pgn)
    peer = chess.pgn.read_game(io.StringIO(pgn.replace("\r\n", "\n")))
    assert game.comments == [["[%clk 0:05:00]", "second"], [" two spaces "], ["a multi-\nline comment"]]
    assert [m.comment for m in game.mainline()] == [n.comment for n in peer.mainline()]
    assert game.intro_comments == ["intro"] and peer.comment == "intro"
    # The export keeps the comments as they were written.
    assert "{ [%clk 0:05:00] } { second }" in game.pgn()


def test_game_fields(sample: Path):
    (game,) = tabia.read_games(sample)
    assert game.headers["White"] == "Fischer, Robert J."
    assert list(game.headers)[:3] == ["Event", "Site", "Date"]
    assert game.result == "1/2-1/2"
    assert (game.file, game.number, game.offset, game.line) == (str(sample), 1, 0, 1)
    assert len(game.san) == len(game.uci) == 85
    assert game.comments[4] == ["This opening is called the Ruy Lopez."]
    assert game.intro_comments == []
    assert game.opening().eco == "C95"
    positions = game.positions()
    assert len(positions) == 85
    assert positions[-1] == game.end_board()
    assert game.mainline()[0].uci == "e2e4"
    assert "1. e4 e5 2. Nf3 Nc6" in game.pgn()


def test_clocks_evals_and_nags(ok_dir: Path):
    first, second = tabia.read_games(ok_dir / "clocks-evals.pgn")
    moves = first.mainline()
    peer = chess.pgn.read_game(io.StringIO((ok_dir / "clocks-evals.pgn").read_text()))
    peer_clocks = [node.clock() for node in peer.mainline()]
    assert first.clocks == peer_clocks
    peer_evals = [node.eval() for node in peer.mainline()]
    assert [m.eval_cp for m in moves] == [
        e.white().score() if e is not None and not e.is_mate() else None for e in peer_evals
    ]
    assert [m.eval_mate for m in moves] == [
        e.white().mate() if e is not None and e.is_mate() else None for e in peer_evals
    ]
    assert first.nags == [sorted(node.nags) for node in peer.mainline()]
    assert second.number == 2


def test_what_the_workers_make_ahead_is_what_a_game_makes_alone(ok_dir: Path):
    # The first game asked for its SAN and tree has the workers make them for the games that
    # follow (those not yet read when it was asked): the same as each game makes alone.
    ahead = []
    for game in tabia.read_games(ok_dir, jobs=2, errors="collect"):
        moves = game.mainline()
        ahead.append((game.san, [(m.ply, m.san, m.uci, m.written, m.comments, m.nags, m.clock)
                                 for m in moves], game.comments, game.pgn()))
    alone = []
    for game in tabia.read_games(ok_dir, jobs=2, errors="collect"):
        # No game of this reader is asked for anything but its pickled state.
        game = pickle.loads(pickle.dumps(game))
        moves = game.mainline()
        alone.append((game.san, [(m.ply, m.san, m.uci, m.written, m.comments, m.nags, m.clock)
                                 for m in moves], game.comments, game.pgn()))
    assert len(ahead) >= 20
    assert ahead == alone


def test_mainline_moves_outlive_their_game(sample: Path):
    moves = next(iter(tabia.read_games(sample))).mainline()
    assert (moves[0].ply, moves[0].san, moves[0].uci) == (1, "e4", "e2e4")
    assert repr(moves[-1]).startswith("<tabia.MainlineMove 85 ")


def test_input_order_and_numbers_with_any_jobs(ok_dir: Path):
    one = [(g.file, g.number) for g in tabia.read_games(ok_dir, jobs=1, errors="collect")]
    many = [(g.file, g.number) for g in tabia.read_games(ok_dir, jobs=4, errors="collect")]
    assert one == many
    assert one == sorted(one)


def test_compressed_and_zipped_inputs(tmp_path: Path, sample: Path):
    import gzip
    import zipfile

    (tmp_path / "a.pgn.gz").write_bytes(gzip.compress(sample.read_bytes()))
    with zipfile.ZipFile(tmp_path / "b.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.write(sample, "inner.pgn")
    games = list(tabia.read_games(tmp_path))
    assert [g.file for g in games] == [str(tmp_path / "a.pgn.gz"), f"{tmp_path / 'b.zip'}/inner.pgn"]
    assert games[0].uci == games[1].uci


def test_opening_of_movetext():
    opening = tabia.eco("1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *")
    assert (opening.eco, opening.family) == ("B90", "Sicilian Defense")
    assert tabia.eco("1. a3 *") is not None
    with pytest.raises(ValueError):
        tabia.eco("1. e4 (((")


def test_headers_are_one_dict_and_the_tree_is_read_when_asked(tmp_path: Path):
    path = tmp_path / "g.pgn"
    path.write_text(
        '[White "A"]\n[White "B"]\n[Black "C"]\n\n'
        "{intro} 1. e4 {a} e5 $1 (1... c5 {b} 2. Nf3) 2. Nf3 -- 3. Bc4 *\n\n"
        "1. e4 e5 (1... c5 2. Nf3 Ke7) 2. Nf3 *\n\n"
        "1. e4 e5 (1... c5 2. Nf3 \n\n[White \"next\"]\n\n1. d4 *\n"
    )
    first, second, *rest = list(tabia.read_games(path, errors="yield"))
    # The same dict at each access, as python-chess's; the first of a repeated tag counts.
    assert first.headers is first.headers
    assert first.headers["White"] == "A" and list(first.headers) == ["White", "Black"]
    # Moves and positions come from the flat mainline, a null move included.
    assert first.uci == ["e2e4", "e7e5", "g1f3", "0000", "f1c4"]
    assert first.san == ["e4", "e5", "Nf3", "--", "Bc4"]
    assert len(first.positions()) == 5 and first.positions()[-1] == first.end_board()
    # Comments, NAGs and the export come from the tree, parsed on first use.
    assert first.intro_comments == ["intro"]
    assert first.comments[:2] == [["a"], []]
    assert first.nags[1] == [1]
    assert "(1... c5 {b} 2. Nf3)" in first.pgn()
    # A variation is not replayed unless asked: an illegal move there is an error only then.
    assert second.uci == ["e2e4", "e7e5", "g1f3"]
    (checked,) = [g for g in tabia.read_games(path, variations=True, errors="yield")][1:2]
    assert isinstance(checked, tabia.GameError) and checked.kind == "replay"
    assert "Ke7" in checked.message
    # A syntax error in a variation is the game's error, as the tree's would be.
    assert isinstance(rest[0], tabia.GameError) and rest[0].kind == "syntax"
    assert rest[1].headers["White"] == "next"
