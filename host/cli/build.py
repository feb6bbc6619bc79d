"""Subcommands for the boards: ``build`` (a bitstream) and ``program`` (load it).

``build --write PAGE`` also puts the table of every board's last figures into a documentation
page, between the markers ``<!-- generated: boards -->`` and ``<!-- end generated: boards -->``
(``docs/measurements.md``; see ``host/bench/pages.py``).
"""

import dataclasses
import datetime
import pathlib

from fpgatrax.host.bench.pages import check_page, write_generated
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.variant import VARIANT_NAMES, VARIANTS

try:    # the board tools are an optional part of the package: fpgatrax[boards]
    from fpgatrax.boards.build import BoardError, boards, build, figures, program
except ModuleNotFoundError as missing:
    _MISSING = missing.name
else:
    _MISSING = None

__all__ = ["register", "board_table", "PAGE_BLOCK"]

#: The name of the board table's block in a documentation page.
PAGE_BLOCK = "boards"


def register(subparsers):
    names = ", ".join(boards()) if _MISSING is None else "(not installed)"
    p = subparsers.add_parser(
        "build", help="write a board's bitstream with the YoWASP tools from PyPI",
        description="Synthesize, place, route and pack the hardware player for a board with "
                    "the YoWASP tools installed with this package (no other tools, no "
                    "programmer needed). Each board takes minutes; the first YoWASP run also "
                    "compiles its WebAssembly (about a minute). The build fails if nextpnr's "
                    "Fmax is below the board's clock. Files go under build/boards/NAME/; "
                    "a table of LUTs, flip-flops, clock and Fmax ends the run.",
        epilog=f"boards: {names}")
    p.add_argument("names", nargs="*", metavar="NAME",
                   help="the boards to build (default: all of them)")
    p.add_argument("--variant", choices=VARIANT_NAMES,
                   help="build for this variant instead of the board's own (standard), under "
                        "build/boards/NAME-VARIANT/ (e.g. mini: Mini Trax on the same array)")
    p.add_argument("--table", action="store_true",
                   help="print the figures of the last builds only, building nothing")
    p.add_argument("--write", metavar="PAGE",
                   help="then write the table of every board's last figures into PAGE (e.g. "
                        "docs/measurements.md), between its markers '<!-- generated: boards -->' "
                        "and '<!-- end generated: boards -->'; every board must have been built")
    p.set_defaults(run=run_build)

    p = subparsers.add_parser(
        "program", help="load a board's bitstream (building it first if needed)",
        description="Load the bitstream into the board with its programmer (iceprog or "
                    "openFPGALoader); if the programmer is not installed, say how to get it.",
        epilog=f"boards: {names}")
    p.add_argument("name", metavar="NAME", help="the board")
    p.add_argument("--variant", choices=VARIANT_NAMES,
                   help="load the bitstream built with 'build --variant VARIANT'")
    p.set_defaults(run=run_program)


def _targets(names, variant=None):
    """The boards called ``names`` (all if none), built for ``variant`` if given: then named
    NAME-VARIANT, so that their files and figures stay apart from the board's own, and with an
    array no larger than a game of a size-limited variant can use (its span and a ring of
    empty squares around it: 5 × 5 for Mini Trax; on the ECP5 boards one more, 6 × 6, because
    Yosys's ABC9 pass fails an assertion in abc_ops_reintegrate on the 5 × 5 player)."""
    if _MISSING is not None:
        raise UserError(f"the board tools are not installed (no module {_MISSING!r}): "
                        "pip install 'fpgatrax[boards]'")
    known = boards()
    unknown = [name for name in names if name not in known]
    if unknown:
        raise UserError(f"unknown board {unknown[0]!r}; the boards are {', '.join(known)}")
    targets = [known[name] for name in names] if names else list(known.values())
    if variant is None:
        return targets
    limit = VARIANTS[variant].span_limit
    def side(target, n):
        return n if limit is None else min(n, limit + (2 if target.family == "ice40" else 3))

    return [dataclasses.replace(t, name=f"{t.name}-{variant}", variant=variant,
                                title=f"{t.title} ({variant})", width=side(t, t.width),
                                height=side(t, t.height)) for t in targets]


def run_build(args):
    targets = _targets(args.names, args.variant)
    if args.write and args.variant:
        raise UserError("--write puts the boards' own builds in a page; build a --variant "
                        "without it")
    if args.write:
        check_page(args.write, PAGE_BLOCK)      # before minutes of building, not after
    failed = []
    if not args.table:
        for count, target in enumerate(targets, 1):
            print(f"[{count}/{len(targets)}] ", end="", flush=True)
            try:
                build(target, log=lambda line: print(line, flush=True))
            except BoardError as err:
                print(f"fpgatrax build: error: {err}", flush=True)
                failed.append(target.name)
    print_table(targets)
    if failed:
        raise UserError(f"{len(failed)} of {len(targets)} builds failed: {', '.join(failed)}"
                        + ("; the page was not written" if args.write else ""))
    if args.write:
        write_page(args.write)


def board_table(targets):
    """The figures of the targets' last builds and their worst-case time per move (the search
    trial limit's bound, see ``boards/build.py``), as a Markdown table; *game board* is the
    keeper's (the whole game, in block RAM), *array* the search's window of it."""
    lines = ["| board | device | variant | game board | array | search | trial limit | LUT4 | FF | "
             "clock | Fmax | worst move | build |",
             "|---|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for target in targets:
        f = figures(target)
        luts, ffs, fmax, took = ((f["luts"], f["ffs"], f"{f['fmax_mhz']:.1f} MHz",
                                  f"{f['build_s']} s") if f else ("not built", "", "", ""))
        search = f"depth {target.depth}"
        if target.evasions:
            search += (f", evasions{' of every attack' if target.every_attack else ''}, "
                       f"+{target.extension}")
        if target.tss:
            search += f", TSS {target.tss} to {target.tss_trials:,}"
        if target.veto:
            search += f", veto {target.veto} to {target.veto_trials:,} each"
        if target.table:
            search += f", table {1 << target.table:,}"
        if target.lanes > 1:
            search += f", {target.lanes} lanes"
        lines.append(f"| {target.title} | {target.platform.device} | {target.variant} | "
                     f"{target.keeper_size}x{target.keeper_size} | "
                     f"{target.width}x{target.height} | {search} | {target.max_trials:,} | "
                     f"{luts} | {ffs} | {target.clk_freq / 1e6:g} MHz | {fmax} | "
                     f"{target.worst_move_seconds * 1e3:.0f} ms | {took} |")
    return "\n".join(lines)


def print_table(targets):
    print(board_table(targets))


def _built_on(target):
    """The day ``target``'s figures were written (its last build), or None if never built."""
    path = pathlib.Path(target.bitstream).with_name("figures.json")
    if not path.exists():
        return None
    return datetime.date.fromtimestamp(path.stat().st_mtime).isoformat()


def write_page(page):
    """Write the table of every board's last figures into ``page``, with when they were built;
    a board that was never built makes it a UserError and leaves the page as it was."""
    targets = list(boards().values())
    missing = [target.name for target in targets if figures(target) is None]
    if missing:
        raise UserError(f"no figures for {', '.join(missing)} (build them first: fpgatrax build "
                        f"{' '.join(missing)}); {page} was not written")
    days = sorted({day for day in map(_built_on, targets) if day})
    built = (f"built {days[0]}" if len(days) == 1 else f"built {days[0]} to {days[-1]}") \
        if days else "build dates unknown"
    text = (f"Written by `fpgatrax build --table --write {page}` on "
            f"{datetime.date.today().isoformat()} from each board's last build ({built}; build "
            f"times as measured on the machine that built them).\n\n{board_table(targets)}")
    write_generated(page, PAGE_BLOCK, text)
    print(f"wrote the board table into {page}")


def run_program(args):
    try:
        program(_targets([args.name], args.variant)[0], log=lambda line: print(line, flush=True))
    except BoardError as err:
        raise UserError(str(err)) from None
