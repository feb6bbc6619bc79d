"""Benchmark: the player past its keeper's board, where it forgets part of the game.

A game wider or taller than ``size - 2`` squares does not fit the board keeper
(``hw/keeper.py``), which then forgets the far side of the game and takes moves beyond what it
holds on trust (``KeeperView`` in ``hw/player_model.py``). This plays games that the bench
stretches to several times a keeper's room, in two ways: at both ends of a row in turn (the
way a game outgrows the board by growing long), or every way at random, and asks the player's
model for its answer at every turn, with a small search (the keeper, not the search, is
measured). The bench's own moves are played, not the player's, so that the game keeps
growing. Per keeper size and way, it prints the player's turns, those where the keeper held
exactly the game's tiles inside its box, the sides forgotten and the moves taken on trust, and
how the games ended: stretched to the goal, or at the first turn with no answer (*silent*) or
an illegal one (*illegal*), which the referee would score as a loss.

    python -m fpgatrax.host.bench.room --keeper 32 --keeper 64 --games 4 --until 3
"""

import argparse
import random
import sys

from fpgatrax.host.match.tournament import Progress
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.position import IllegalMove, Position, xy_of
from fpgatrax.hw.player_model import PlayerModel, check_keeper_size
from fpgatrax.hw.search_model import SearchModel

__all__ = ["quiet_moves", "stretching_move", "widening_move", "stretch_game"]

PROG = "python -m fpgatrax.host.bench.room"


def quiet_moves(position):
    """The legal moves after which the game goes on."""
    quiet = []
    for move in position.legal_moves():
        if position.push(move):
            if position.outcome is None:
                quiet.append(move)
            position.undo()
    return quiet


def stretching_move(position, rng):
    """A random move that ends nothing, most often one that widens the tiles' box (any way)."""
    quiet = quiet_moves(position)
    if not quiet:
        return position.legal_moves()[0]
    x0, y0, x1, y1 = position.bbox
    wider = [m for m in quiet if not (x0 <= xy_of(m[0])[0] <= x1 and y0 <= xy_of(m[0])[1] <= y1)]
    return rng.choice(wider if wider and rng.random() < 0.8 else quiet)


def widening_move(position, rng):
    """A move that ends nothing: most often the one reaching furthest east (in the first two
    of every four turns) or west (in the others), else a random one."""
    quiet = quiet_moves(position)
    if not quiet:
        return position.legal_moves()[0]
    east = len(position.moves) // 2 % 2 == 0
    x0, _, x1, _ = position.bbox

    def reach(move):
        x = xy_of(move[0])[0]
        return x - x1 if east else x0 - x

    if rng.random() < 0.4:
        return rng.choice(quiet)
    return max(quiet, key=lambda move: (reach(move), rng.random()))


WAYS = {"east-west": widening_move, "every-way": stretching_move}


def stretch_game(keeper, stretch, rng, goal):
    """One game stretched by ``stretch`` until it spans ``goal`` columns or rows: a dict of
    the turns, exact turns, sides forgotten, moves on trust and how it ended."""
    position = Position()
    position.play(position.first_moves()[rng.randrange(2)])
    player = PlayerModel(SearchModel(max_trials=100, window=(5, 5), depth=1), (5, 5),
                         keeper_size=keeper)
    turns = exact = 0
    end = "stretched"
    while position.outcome is None and max(position.size()) < goal:
        turns += 1
        view = player.view(position)
        x0, y0, x1, y1 = view.box
        inside = {k: t for k, t in position.tiles.items()
                  if x0 <= xy_of(k)[0] <= x1 and y0 <= xy_of(k)[1] <= y1}
        exact += view.position.tiles == inside
        move = player.choose(position).move
        if move is None:
            end = "silent"
            break
        try:
            position.copy().play(move)
        except IllegalMove:
            end = "illegal"
            break
        position.play(stretch(position, rng))
    if position.outcome is not None:
        end = "ended"
    view = player.view(position)
    return {"turns": turns, "exact": exact, "forgot": len(view.cut), "trusted": view.blind,
            "end": end, "span": max(position.size())}


def main(argv=None):
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keeper", type=int, action="append",
                        help="the keeper's board, squares per side (repeatable; default 32 "
                             "and 64)")
    parser.add_argument("--games", type=int, default=4, help="games per size and way "
                                                              "(default 4)")
    parser.add_argument("--until", type=float, default=3.0,
                        help="stretch to this many times the keeper's room (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    args = parser.parse_args(argv)
    try:
        sizes = args.keeper or [32, 64]
        for size in sizes:
            check_keeper_size(size)
        if args.games < 1 or args.until <= 1:
            raise UserError("--games is at least 1 and --until more than 1")
    except (UserError, ValueError) as e:
        parser.exit(2, f"{PROG}: error: {e}\n")
    progress = Progress(unit="game")
    total = len(sizes) * len(WAYS) * args.games
    rows = []
    for size in sizes:
        goal = round(args.until * (size - 2))
        for way, stretch in WAYS.items():
            rng = random.Random(args.seed)
            games = []
            for _ in range(args.games):
                progress(len(rows) * args.games + len(games), total, f"{size}x{size} {way}")
                games.append(stretch_game(size, stretch, rng, goal))
            rows.append((size, way, goal, games))
    progress(total, total, "done")
    print(f"Keeper past its board ({PROG} --games {args.games} --until {args.until:g} "
          f"--seed {args.seed}):")
    print(f"{'keeper':>7} {'way':>10} {'goal':>5} {'turns':>6} {'exact':>6} {'forgot':>6} "
          f"{'trusted':>7}  ends")
    for size, way, goal, games in rows:
        ends = {}
        for game in games:
            ends[game["end"]] = ends.get(game["end"], 0) + 1
        print(f"{size:>7} {way:>10} {goal:>5} {sum(g['turns'] for g in games):>6} "
              f"{sum(g['exact'] for g in games):>6} {sum(g['forgot'] for g in games):>6} "
              f"{sum(g['trusted'] for g in games):>7}  "
              + ", ".join(f"{n} {end}" for end, n in sorted(ends.items()))
              + "  (spans " + " ".join(str(g["span"]) for g in games) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
