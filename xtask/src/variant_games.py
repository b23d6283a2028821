"""Random legal games of every lichess variant, played by python-chess's `chess.variant` boards.

Run by `cargo xtask variant-games` (see variant_games.rs), never by hand:

    python3 variant_games.py generate GAMES_PER_VARIANT SEED PGN_OUT FEN_OUT
        writes the games (PGN, `Variant` tags spelt in the ways people write them, some games
        from a `FEN` tag) and, per game, python-chess's final FEN (en passant only when legal)
    python3 variant_games.py diff GAMES_PER_VARIANT SEED TABIA
        generates games the same way, runs `TABIA epd --fen --ep legal --start` on them and
        compares the final position of every game with python-chess's; prints the counts and
        exits 1 on any difference
"""

import io
import random
import subprocess
import sys
import tempfile

import chess
import chess.pgn
import chess.variant

# (board class, the spellings of its Variant tag to cycle through)
VARIANTS = [
    (chess.variant.AntichessBoard, ["Antichess", "Giveaway", "suicide", "antichess"]),
    (chess.variant.AtomicBoard, ["Atomic", "atomic"]),
    (chess.variant.CrazyhouseBoard, ["Crazyhouse", "crazyhouse", "Crazy House"]),
    (chess.variant.HordeBoard, ["Horde", "horde"]),
    (chess.variant.KingOfTheHillBoard, ["King of the Hill", "kingofthehill", "KOTH"]),
    (chess.variant.RacingKingsBoard, ["Racing Kings", "racing-kings", "racingkings"]),
    (chess.variant.ThreeCheckBoard, ["Three-check", "three check", "3check"]),
]


def random_game(board_class, rng, max_plies):
    """A random legal game: the start board (standard or, sometimes, a position reached by
    random moves, to be given as a FEN tag) and the moves, until the game ends or `max_plies`."""
    board = board_class()
    from_fen = rng.random() < 0.25
    if from_fen:
        for _ in range(rng.randrange(4, 30)):
            if board.is_game_over():
                break
            board.push(rng.choice(list(board.legal_moves)))
        if board.is_game_over():
            board = board_class()
            from_fen = False
        board = board_class(board.fen())
    start = board.copy()
    moves = []
    for _ in range(max_plies):
        if board.is_game_over():
            break
        legal = list(board.legal_moves)
        # Prefer captures and drops a little, so that pockets and explosions happen.
        busy = [m for m in legal if board.is_capture(m) or m.drop]
        move = rng.choice(busy if busy and rng.random() < 0.4 else legal)
        moves.append(move)
        board.push(move)
    return start, from_fen, moves, board


def games(per_variant, seed):
    """(pgn text, final fen, variant name) of every game, in a fixed order for a seed."""
    rng = random.Random(seed)
    out = []
    for board_class, spellings in VARIANTS:
        for n in range(per_variant):
            start, from_fen, moves, end = random_game(board_class, rng, rng.randrange(10, 160))
            game = chess.pgn.Game()
            game.headers["Event"] = f"Random {board_class.aliases[0]} game {n + 1}"
            game.headers["Variant"] = board_class.aliases[0]
            if from_fen:
                game.setup(start)
            node = game
            for move in moves:
                node = node.add_variation(move)
            game.headers["Result"] = end.result(claim_draw=False) if end.is_game_over() else "*"
            exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=False)
            text = game.accept(exporter)
            # The tag as people spell it (python-chess reads only some of these spellings, so
            # the moves are written with the canonical one first).
            canonical = f'[Variant "{board_class.aliases[0]}"]'
            text = text.replace(canonical, f'[Variant "{spellings[n % len(spellings)]}"]', 1)
            out.append((text, end.fen(), board_class.aliases[0]))
    return out


def generate(per_variant, seed, pgn_out, fen_out):
    made = games(per_variant, seed)
    with open(pgn_out, "w", encoding="utf-8") as pgn, open(fen_out, "w", encoding="utf-8") as fen:
        for text, final, _ in made:
            pgn.write(text + "\n\n")
            fen.write(final + "\n")
    print(f"{len(made)} games written to {pgn_out}, final positions to {fen_out}")


def final_positions(epd_output):
    """The last FEN of each game in `tabia epd --start` output (games end with a blank line)."""
    finals, last = [], None
    for line in epd_output.splitlines():
        if line.strip():
            last = line
        elif last is not None:
            finals.append(last)
            last = None
    if last is not None:
        finals.append(last)
    return finals


def diff(per_variant, seed, tabia):
    made = games(per_variant, seed)
    with tempfile.NamedTemporaryFile("w", suffix=".pgn", encoding="utf-8", delete=False) as f:
        for text, _, _ in made:
            f.write(text + "\n\n")
        path = f.name
    run = subprocess.run(
        [tabia, "epd", "--fen", "--ep", "legal", "--start", "--quiet", "-j", "1", path],
        capture_output=True,
        text=True,
    )
    finals = final_positions(run.stdout)
    if run.returncode != 0 or len(finals) != len(made):
        print(run.stderr, file=sys.stderr)
        print(f"tabia exited {run.returncode}, {len(finals)} games for {len(made)}", file=sys.stderr)
        return 1
    counts = {}
    bad = 0
    for (text, expected, name), got in zip(made, finals):
        row = counts.setdefault(name, [0, 0, 0, 0])
        row[0] += 1
        if got == expected:
            row[1] += 1
        elif same_but_pawn_drop_clock(name, expected, got):
            row[2] += 1
        else:
            row[3] += 1
            bad += 1
            if bad <= 5:
                print(f"differs ({name}):\n  python-chess {expected}\n  tabia        {got}\n{text}\n")
    print("variant\tgames\tsame FEN\tsame but halfmove clock\tdifferent")
    total = [0, 0, 0, 0]
    for name, row in counts.items():
        print("\t".join([name] + [str(n) for n in row]))
        total = [a + b for a, b in zip(total, row)]
    print("\t".join(["all"] + [str(n) for n in total]))
    return 1 if bad else 0


def same_but_pawn_drop_clock(name, expected, got):
    """Whether two Crazyhouse FENs differ only in the halfmove clock. shakmaty restarts the
    clock on a pawn drop (a pawn move, as python-chess's own `is_zeroing` says); python-chess
    1.11's `push` does not. Nothing else may differ."""
    a, b = expected.split(" "), got.split(" ")
    return (
        name == "Crazyhouse"
        and len(a) == len(b) == 6
        and a[:4] == b[:4]
        and a[5] == b[5]
        and int(b[4]) <= int(a[4])
    )


def main(argv):
    if len(argv) == 5 and argv[0] == "generate":
        generate(int(argv[1]), int(argv[2]), argv[3], argv[4])
        return 0
    if len(argv) == 4 and argv[0] == "diff":
        return diff(int(argv[1]), int(argv[2]), argv[3])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
