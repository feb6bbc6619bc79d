"""The ``puzzle`` subcommand: Trax's solo puzzles (Line, Loop, Match) shown, checked, solved and
made (``docs/puzzles.md``)."""

import random
import sys
from pathlib import Path

from fpgatrax.host.cli.match import at_least
from fpgatrax.host.pictures.svg import render_grid_svg
from fpgatrax.host.pictures.text import render_grid_text
from fpgatrax.host.puzzles.board import (
    KINDS,
    Puzzle,
    end_name,
    format_puzzle,
    read_puzzle,
)
from fpgatrax.host.puzzles.check import problems
from fpgatrax.host.puzzles.make import DIFFICULTIES, make_puzzle
from fpgatrax.host.puzzles.solve import PuzzleSolver
from fpgatrax.host.rules.errors import UserError

__all__ = ["register"]

_KINDS_HELP = ("line (fill the board so one red line joins the two marked ends and no other red "
               "track exists), loop (one red loop of so many straight and curved tiles), match "
               "(fill the board so that it is symmetric)")


def register(subparsers):
    p = subparsers.add_parser(
        "puzzle", help="Trax's solo puzzles: show, check, solve and make them",
        description=f"Trax's solo puzzles on a square board: {_KINDS_HELP}. A puzzle is a text "
                    "file (docs/puzzles.md): its kind, its size, the kind's data and the board, "
                    "with '.' for a square to fill.",
        epilog="examples: fpgatrax puzzle make line --difficulty hard -o line.txt; "
               "fpgatrax puzzle solve line.txt --svg line.svg")
    commands = p.add_subparsers(dest="puzzle_command", metavar="ACTION", required=True)

    q = commands.add_parser("show", help="draw a puzzle (or a solution)",
                            description="Print the puzzle's board with its squares' names, "
                                        "or write it as an SVG picture.")
    q.add_argument("file", metavar="FILE", help="a puzzle file")
    _add_svg_option(q)
    q.set_defaults(run=run_show)

    q = commands.add_parser(
        "check", help="say whether a filled board solves a puzzle, and why not",
        description="Check SOLUTION's board against PUZZLE: the given tiles kept, every square "
                    "filled (a loop: only the loop's), all sides matching, and the kind's goal "
                    "met. With one file, check that file's own board. Exit status 0 if it "
                    "solves the puzzle, 1 if not (each reason is printed).")
    q.add_argument("puzzle", metavar="PUZZLE", help="the puzzle file")
    q.add_argument("solution", nargs="?", metavar="SOLUTION",
                   help="a puzzle file whose board is the answer (as 'solve' writes it)")
    q.set_defaults(run=run_check)

    q = commands.add_parser(
        "solve", help="solve a puzzle and say whether its solution is unique",
        description="Solve the puzzle with a SAT solver, print its solution as a puzzle file "
                    "and say whether it is the only one (the puzzle is solved again with that "
                    "solution excluded). A loop puzzle with no tile given is solved up to where "
                    "the loop lies and how it is turned or mirrored. Exit status 1 if there is "
                    "no solution.")
    q.add_argument("file", metavar="FILE", help="a puzzle file")
    q.add_argument("--all", action="store_true", help="print every solution (up to --limit)")
    q.add_argument("--limit", type=at_least(1), default=100, metavar="N",
                   help="with --all, stop after N solutions (default 100)")
    q.add_argument("-o", "--output", metavar="FILE", help="write the (first) solution to FILE")
    _add_svg_option(q)
    q.set_defaults(run=run_solve)

    q = commands.add_parser(
        "make", help="make a puzzle with exactly one solution",
        description="Make a random puzzle of KIND with exactly one solution: a random answer, "
                    "then its tiles given and taken away one by one while the solution stays "
                    "unique. The difficulty sets how many stay: easy half of the answer's "
                    "tiles, medium a quarter, hard only those uniqueness needs.")
    q.add_argument("kind", choices=KINDS, help="the kind of puzzle")
    q.add_argument("--size", type=at_least(1), default=8, metavar="N",
                   help="the board's side, 3 to 12 (default 8)")
    q.add_argument("--difficulty", choices=DIFFICULTIES, default="medium",
                   help="how many tiles are given (default medium)")
    q.add_argument("--seed", type=int, metavar="N",
                   help="the random seed (default: a new one, written in the file)")
    q.add_argument("-o", "--output", metavar="FILE",
                   help="write the puzzle to FILE (default: print it)")
    q.add_argument("--solution", metavar="FILE", help="also write its solution to FILE")
    _add_svg_option(q)
    q.set_defaults(run=run_make)


def _add_svg_option(p):
    p.add_argument("--svg", metavar="FILE",
                   help="write an SVG picture to FILE ('-': to the output instead of text)")


def run_show(args):
    puzzle = read_puzzle(args.file)
    _show(puzzle, puzzle.givens, puzzle.givens, args.svg)


def run_check(args):
    puzzle = read_puzzle(args.puzzle)
    solution = read_puzzle(args.solution) if args.solution else puzzle
    if solution.size != puzzle.size:
        raise UserError(f"the solution's board is {solution.size}×{solution.size}, the "
                        f"puzzle's {puzzle.size}×{puzzle.size}")
    found = problems(puzzle, solution.givens)
    for reason in found:
        print(f"not solved: {reason}")
    if found:
        return 1
    print(f"solved: the board meets the {puzzle.kind} puzzle's goal")
    return 0


def run_solve(args):
    puzzle = read_puzzle(args.file)
    limit = args.limit if args.all else 2
    found = []
    with PuzzleSolver(puzzle) as solver:
        for board in solver:
            wrong = problems(puzzle, board)
            if wrong:     # the encoding and the checker disagree: a bug, not the user's
                raise RuntimeError(f"the solver's answer fails the checker: {wrong}")
            found.append(board)
            if args.all:
                print(f"solution {len(found)}:")
                print(format_puzzle(puzzle.with_board(board)))
            if len(found) >= limit:
                break
        cuts = solver.cuts
    if not found:
        print(f"{args.file}: no solution")
        return 1
    if not args.all:
        _show(puzzle, found[0], puzzle.givens, args.svg, text=format_puzzle(
            puzzle.with_board(found[0]), comment=f"a solution of {args.file}"))
    elif args.svg:
        _write(args.svg, _svg(puzzle, found[0], puzzle.givens))
    if args.output:
        _write(args.output, format_puzzle(puzzle.with_board(found[0]),
                                          comment=f"a solution of {args.file}"))
    shape = " (up to where the loop lies, turned or mirrored)" if solver.up_to_symmetry else ""
    if len(found) == 1:
        verdict = "the solution is unique"
    elif len(found) < limit:
        verdict = f"{len(found)} solutions"
    else:
        verdict = f"at least {len(found)} solutions"
    print(f"{args.file}: {verdict}{shape}; {cuts} cuts", file=sys.stderr)
    return 0


def run_make(args):
    if not 3 <= args.size <= 12:
        raise UserError(f"--size must be 3 to 12, not {args.size}")
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)

    def progress(done, total):
        if sys.stderr.isatty():
            print(f"\rtrying the givens: {done}/{total}", end="", file=sys.stderr, flush=True)

    puzzle, answer = make_puzzle(args.kind, args.size, args.difficulty, seed, progress)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    how = (f"made by: fpgatrax puzzle make {args.kind} --size {args.size} "
           f"--difficulty {args.difficulty} --seed {seed}\n{len(puzzle.givens)} tiles given; "
           "the solution is unique")
    text = format_puzzle(puzzle, comment=how)
    if args.output:
        _write(args.output, text)
    if args.solution:
        _write(args.solution, format_puzzle(puzzle.with_board(answer),
                                            comment=f"the solution of the puzzle {how}"))
    if args.svg:
        _write(args.svg, _svg(puzzle, puzzle.givens, puzzle.givens))
    if not args.output and args.svg != "-":
        print(text, end="")


def _show(puzzle, tiles, given, svg, text=None):
    if svg == "-":
        sys.stdout.write(_svg(puzzle, tiles, given))
        return
    if svg:
        _write(svg, _svg(puzzle, tiles, given))
    print(text if text is not None else _describe(puzzle))
    if text is None:
        print(render_grid_text(puzzle.size, tiles, ansi=sys.stdout.isatty()))


def _describe(puzzle: Puzzle) -> str:
    if puzzle.kind == "line":
        assert puzzle.ends is not None
        goal = f"one red line from {end_name(puzzle.ends[0])} to {end_name(puzzle.ends[1])}"
    elif puzzle.kind == "loop":
        goal = f"one red loop of {puzzle.crosses} crosses and {puzzle.curves} curves"
    else:
        goal = f"a board unchanged by {puzzle.symmetry}"
    return f"{puzzle.kind} puzzle, {puzzle.size}×{puzzle.size}: {goal}; " \
           f"{len(puzzle.givens)} tiles given"


def _svg(puzzle, tiles, given):
    return render_grid_svg(puzzle.size, tiles, given, puzzle.ends or ())


def _write(path, text):
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as err:
        raise UserError(f"cannot write {path}: {err.strerror}") from None
