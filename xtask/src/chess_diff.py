"""python-chess's view of a PGN file, for `cargo xtask chess-diff`.

Usage: python3 - FILE < chess_diff.py
Prints one line per game, in input order: `ok<TAB>FEN` (the final position of the mainline,
en-passant square only when a capture is legal) or `error<TAB>MESSAGE` (python-chess logged
an error while reading the game).
"""

import sys

import chess.pgn


def main():
    with open(sys.argv[1], encoding="utf-8", errors="replace") as handle:
        while True:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            if game.errors:
                message = str(game.errors[0]).replace("\t", " ").replace("\n", " ")
                print(f"error\t{message}")
                continue
            board = game.end().board()
            print(f"ok\t{board.fen(en_passant='legal')}")


main()
