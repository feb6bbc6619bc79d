"""Two strength runs game by game: which games a change of the search won or lost.

The strength bench numbers its games, and a game's number picks the model's colour and its random
opening moves, so two runs with the same ``--seed`` against the same opponent play the same
openings. Pairing their records (``--record``) by number tells more than the two totals: the games
both runs won or lost say nothing about the change, and among the others a change that does not
matter gains as many as it loses. The sign test on those gives the chance of a split at least
as uneven as the one seen, were the two searches equally strong.

    python -m fpgatrax.host.bench.compare before/ after/
"""

import argparse
import math
import sys
from dataclasses import dataclass, field

from fpgatrax.host.bench.losses import BOOK_PLIES, record_games
from fpgatrax.host.bench.strength import wilson_interval
from fpgatrax.host.match.referee import record_number
from fpgatrax.host.rules.errors import UserError

__all__ = ["Comparison", "compare", "format_comparison", "sign_test", "main"]

PROG = "python -m fpgatrax.host.bench.compare"


def sign_test(gained, lost):
    """The two-sided exact sign test: the chance, were gains and losses equally likely, of a
    split at least as uneven as ``gained`` to ``lost``."""
    n = gained + lost
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(gained, lost) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


@dataclass
class Comparison:
    """The paired games of two runs: the games each won (by number), the pairs that differ
    before the search's first move (the model's colour, the opponent or the first moves), and
    the games only one run finished."""
    first: set = field(default_factory=set)
    second: set = field(default_factory=set)
    paired: list = field(default_factory=list)
    differing: list = field(default_factory=list)
    unpaired: list = field(default_factory=list)

    @property
    def gained(self):
        """Games the second run won and the first lost."""
        return sorted(self.second - self.first)

    @property
    def lost(self):
        """Games the first run won and the second lost."""
        return sorted(self.first - self.second)

    @property
    def both_won(self):
        return len(self.first & self.second)


def _finished(directory):
    """{game number: (the model's colour and opponent, the opening, whether it won)} of the
    finished games in a strength run's records."""
    games = {}
    for name, moves, colour, result, opponent in record_games(directory):
        number = record_number(name)
        if number is None or result.how == "unfinished":
            continue
        games[number] = ((colour, opponent), moves[:BOOK_PLIES], result.winner == colour)
    return games


def compare(first_dir, second_dir):
    """Pair the finished games of two strength runs' record folders by number."""
    first, second = _finished(first_dir), _finished(second_dir)
    comparison = Comparison()
    for number in sorted(first.keys() | second.keys()):
        if number not in first or number not in second:
            comparison.unpaired.append(number)
            continue
        (side, opening, won), (side2, opening2, won2) = first[number], second[number]
        if side != side2 or opening != opening2:
            comparison.differing.append(number)
            continue
        comparison.paired.append(number)
        if won:
            comparison.first.add(number)
        if won2:
            comparison.second.add(number)
    if not comparison.paired:
        raise UserError(f"no game of {first_dir} and {second_dir} opens alike: compare two runs "
                        f"with the same --seed against the same opponent")
    return comparison


def _total(name, wins, games):
    low, high = wilson_interval(wins, games)
    return (f"{name}: won {wins} of {games} paired games, {100 * wins / games:.0f} % "
            f"({100 * low:.0f}-{100 * high:.0f} %)")


def format_comparison(comparison, first_dir, second_dir):
    """The comparison as the lines the tool prints."""
    games = len(comparison.paired)
    gained, lost = comparison.gained, comparison.lost
    lines = [_total(first_dir, len(comparison.first), games),
             _total(second_dir, len(comparison.second), games),
             f"both won {comparison.both_won}, both lost "
             f"{games - comparison.both_won - len(gained) - len(lost)}",
             f"won only by {second_dir}: {len(gained)} {gained}",
             f"won only by {first_dir}: {len(lost)} {lost}",
             f"sign test: p = {sign_test(len(gained), len(lost)):.2f} (two-sided; the chance of "
             f"a split this uneven between equally strong searches)"]
    if comparison.differing:
        lines.append(f"left out, different opponent, colour or opening: {comparison.differing}")
    if comparison.unpaired:
        lines.append(f"left out, finished in one run only: {comparison.unpaired}")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("first", help="the records of one run (e.g. before a change)")
    parser.add_argument("second", help="the records of the other, with the same --seed")
    args = parser.parse_args(argv)
    try:
        comparison = compare(args.first, args.second)
    except UserError as err:
        parser.exit(1, f"{PROG}: error: {err}\n")
    for line in format_comparison(comparison, args.first, args.second):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
