"""Where the search's trials go: the leaf scans' share, and the share of scans of a position
scanned before in the same search.

Every leaf of the negamax scans all the candidates of the side to move, one trial each, so the
leaves are most of a search's trials. A leaf reached twice in one search (by the same moves in
another order: a transposition) is scanned twice, unless the search's table of leaf values
(``table``) still holds it. This counts both, over whole negamax searches (no trial limit, so
that every leaf of the full depth is met; no threat-space search) with a board's depth, array,
attack and table settings (``--model ...,table=0`` for none), on positions from the games of a
strength run (every ``--every``-th position where the model was to move, after the opening:
``--skip-plies``):

    python -m fpgatrax.host.bench.strength --opponent ENGINE --record games/
    python -m fpgatrax.host.bench.leaves games/
"""

import sys
from dataclasses import replace

from fpgatrax.host.bench.losses import check_skip, record_games, records_parser
from fpgatrax.host.match.model import parse_settings
from fpgatrax.host.match.tournament import Progress
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.position import Position
from fpgatrax.hw.search_model import SearchModel

__all__ = ["LeafCounter"]

PROG = "python -m fpgatrax.host.bench.leaves"


class LeafCounter(SearchModel):
    """The search, counting the trials of its leaf scans and of those that scan a position
    (tiles and side to move) already scanned in the same search (the table's misses)."""

    def choose(self, position):
        self.leaf_trials = self.repeated_trials = 0
        self._scanned = set()
        return super().choose(position)

    def _scan(self, position, ply):
        key = (frozenset(position.tiles.items()), position.to_move)
        before = self.trials
        value = super()._scan(position, ply)
        self.leaf_trials += self.trials - before
        if key in self._scanned:
            self.repeated_trials += self.trials - before
        self._scanned.add(key)
        return value


def main(argv=None):
    parser = records_parser(PROG, __doc__)
    parser.add_argument("--every", type=int, default=4,
                        help="search every N-th position of the model's (default 4)")
    args = parser.parse_args(argv)
    try:
        settings = replace(parse_settings(args.model), tss=0, max_trials=0)
        if args.every < 1:
            raise UserError("--every is at least 1")
        check_skip(args.skip_plies)
        positions = []
        for _, moves, colour, _, _ in record_games(args.records):
            position = Position()
            for number, move in enumerate(moves, 1):
                if position.to_move == colour and number > args.skip_plies:
                    positions.append(position.copy())
                position.play(move)
    except UserError as err:
        parser.exit(1, f"{PROG}: error: {err}\n")
    search = LeafCounter(None, (settings.width, settings.height), settings.depth,
                         settings.extension, bool(settings.evasions),
                         every_attack=bool(settings.every_attack), table=settings.table)
    trials = leaves = repeated = searches = 0
    progress = Progress(unit="position")
    chosen = positions[::args.every]
    for done, position in enumerate(chosen):
        progress(done, len(chosen), f"{trials:,} trials")
        choice = search.choose(position)
        if choice is None or choice.reason == "win":
            continue
        searches += 1
        trials += choice.trials
        leaves += search.leaf_trials
        repeated += search.repeated_trials
    progress(len(chosen), len(chosen), "")
    if not trials:
        parser.exit(1, f"{PROG}: error: no position needed a search\n")
    print(f"# {searches} searches of {settings.describe()}, on the games in {args.records}")
    print(f"trials {trials:,}; in leaf scans {leaves / trials:.1%}; in leaf scans of a "
          f"position already scanned in the same search {repeated / trials:.1%}")


if __name__ == "__main__":
    sys.exit(main())
