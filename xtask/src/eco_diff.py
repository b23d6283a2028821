# The peer of `cargo xtask eco-diff`: python-chess names each game of a PGN file by lichess's
# rule (scalachess OpeningDb.search) over the lichess chess-openings TSVs, independently of
# tabia. Usage: eco_diff.py TSV_DIR PGN_FILE. Writes one tab-separated line per game, in file
# order: number, eco, name ("-" when unnamed or not classified), the game's own ECO and Opening
# tags ("-" when absent), its UTCDate (or Date), and the names of every table position the
# game passed on the way, "|"-separated (for sorting the differences with lichess's tags).
import glob
import io
import sys

import chess
import chess.pgn

MAX_PLIES = 40
MIN_PIECES = 20

tsv_dir, pgn_path = sys.argv[1], sys.argv[2]
by_epd = {}
for path in sorted(glob.glob(tsv_dir + "/*.tsv")):
    with open(path, encoding="utf-8") as f:
        next(f)
        for line in f:
            eco, name, pgn = line.rstrip("\n").split("\t")
            board = chess.Board()
            for move in chess.pgn.read_game(io.StringIO(pgn)).mainline_moves():
                board.push(move)
            # Later rows replace earlier ones, as lichess's map by position does.
            by_epd[board.epd()] = (eco, name)

out = sys.stdout
with open(pgn_path, encoding="utf-8", errors="replace") as f:
    number = 0
    while True:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        number += 1
        h = game.headers
        own = (h.get("ECO", "-") or "-", h.get("Opening", "-") or "-")
        date = h.get("UTCDate", h.get("Date", "-"))
        found = ("-", "-")
        passed = []
        standard = "FEN" not in h and h.get("Variant", "Standard").lower() in ("standard", "chess")
        if standard and not game.errors:
            board = game.board()
            for ply, move in enumerate(game.mainline_moves(), 1):
                if ply > MAX_PLIES:
                    break
                board.push(move)
                if len(board.piece_map()) < MIN_PIECES:
                    break
                named = by_epd.get(board.epd())
                if named:
                    found = named
                    passed.append(named[1])
        out.write("\t".join([str(number), *found, *own, date, "|".join(passed)]) + "\n")
