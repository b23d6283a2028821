"""The peer of `tabia analyse` (cargo xtask analyse-bench): a python-chess script that analyses
every position of every game with one Stockfish per core, as a careful user writes it.

    python3 analyse_peer.py ENGINE DEPTH|nodes:N JOBS FILE...

Each process of a multiprocessing pool starts one engine (Threads=1, Hash=16, as tabia sets
them) and analyses the positions of the games it is given, the start and after each move, with
`ucinewgame` before each (a fresh `game=` object: what tabia does, so that each result depends
on the position alone). Prints one JSON line: games, positions, distinct positions (EPD), and
the seconds the analysis took.
"""

import json
import multiprocessing as mp
import sys
import time

import chess
import chess.engine
import chess.pgn

ENGINE = None


def start(path):
    global ENGINE
    ENGINE = chess.engine.SimpleEngine.popen_uci(path)
    ENGINE.configure({"Threads": 1, "Hash": 16})


def positions(game):
    board = game.board()
    yield board.copy()
    for move in game.mainline_moves():
        board.push(move)
        if not board.is_game_over():
            yield board.copy()


def analyse(job):
    fens, limit = job
    out = []
    for fen in fens:
        info = ENGINE.analyse(chess.Board(fen), limit, game=object())
        out.append((fen, info["score"].white().score(mate_score=100000)))
    return out


def main():
    engine, how, jobs, files = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    if how.startswith("nodes:"):
        limit = chess.engine.Limit(nodes=int(how[6:]))
    else:
        limit = chess.engine.Limit(depth=int(how))
    games = []
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                if not game.errors:
                    games.append([b.fen() for b in positions(game)])
    total = sum(len(g) for g in games)
    distinct = len({" ".join(f.split()[:4]) for g in games for f in g})
    begin = time.perf_counter()
    with mp.Pool(jobs, initializer=start, initargs=(engine,)) as pool:
        done = sum(len(r) for r in pool.imap_unordered(analyse, [(g, limit) for g in games]))
    seconds = time.perf_counter() - begin
    print(json.dumps({"games": len(games), "positions": total, "distinct": distinct,
                      "analysed": done, "seconds": seconds}))


if __name__ == "__main__":
    main()
