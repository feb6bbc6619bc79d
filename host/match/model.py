"""The hardware player's search as a player at Python speed: the ``model`` player spec.

The search's Python model (``hw/search_model.py``) chooses exactly the move the gateware chooses for
the same position, depth, trial limit and array size, so a match against it is a match against the
board, thousands of times faster than simulating the gateware. It is judged by the board's own time,
not Python's: an answer takes its trials at the worst cycles per trial of the board's array
(``cycles_per_trial`` in ``hw/search_model.py``), at the board's clock, plus the serial line's
bytes at the baud rate.
The board's move is the player's (``hw/player_model.py``: the search on the array's window of
the game, then the keeper's exact pass); past the keeper's board it forgets and takes moves
on trust as the board does (``KeeperView``), and only if its keeper holds no move it may play
does the board stop answering, and so does the model.

Specs (``PLAYER_KINDS["model"]`` in ``players.py``):

- ``model``: the ULX3S-85F's settings (``DEFAULT_BOARD``);
- ``model:board=hx8k``: another board's settings (``fpgatrax build --help`` lists the boards);
- ``model:depth=2,max_trials=20000,width=12,height=12,clock=12e6``: settings given one by one,
  over the board's (``board=`` may come first); ``evasions=0`` is the search without check
  evasions, attack extensions and threat-space search (as on the iCE40 boards), ``extension=N``
  its plies of extension after attacks, ``tss=N`` the plies of its threat-space search (0:
  none; it gives up at a quarter of the trial limit, ``tss_trials_for``), ``every_attack=1``
  the search that judges every attack, on arrays that label their tracks (the 85F's; 0: only
  the attacks on the tracks of each move's tile, as on the 25F boards), ``table=N`` a table
  of 2**N leaf values per search (0: none), ``veto=N`` the plies of the opponent's
  threat-space search that checks each new best root move (0: none; it needs every attack;
  an eighth of the trial limit each, ``veto_trials_for``), ``lanes=N`` its
  searches at once (``hw/lanes_model.py``; an answer then takes the busiest lane's time).

``random_moves=K`` (default 0) makes the model's first K moves of each game random among the
moves after which the opponent proves no win (at once, or by a 7-ply threat-space search
within 20,000 trials: ``SAFE_TSS``, ``SAFE_TRIALS``), drawn with ``seed=S``: two deterministic
players would otherwise repeat one game forever. The strength bench numbers its games
(``opening``) so that their openings differ (``ModelBot._random_move``).
"""

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from fpgatrax.host.bots.perfect import canonical
from fpgatrax.host.bots.session import BotSession
from fpgatrax.host.link.transport import FunctionTransport
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.position import Move, Position
from fpgatrax.hw.lanes_model import LanesModel, search_model
from fpgatrax.hw.player_model import (
    KEEPER_SIZE,
    KeeperRefused,
    PlayerModel,
    board_cycles,
    check_keeper_size,
)
from fpgatrax.hw.search_model import (
    CYCLES_PER_TRIAL,
    DEFAULT_EXTENSION,
    DEFAULT_TSS,
    SearchModel,
    candidates_in_order,
    check_attack_settings,
    tss_trials_for,
    veto_trials_for,
    window_of,
)

__all__ = ["DEFAULT_BOARD", "ModelSettings", "ModelSession", "ModelBot", "OutOfRoom",
           "SearchStats", "BoardTimeClock", "open_model", "proof_search", "loses",
           "safe_moves"]

#: The board whose settings ``model`` plays with: the largest array and the deepest search.
DEFAULT_BOARD = "ulx3s-85f"
# Bits on the serial line per byte: start, 8 data, stop.
FRAME_BITS = 10
# A random move is one after which the opponent proves no win by this threat-space search.
SAFE_TSS, SAFE_TRIALS = 7, 20_000


@dataclass(frozen=True)
class ModelSettings:
    """The search's settings and the board's clock: what makes the model play as one board."""
    depth: int
    max_trials: int            # 0: no limit
    width: int
    height: int
    clock: float               # Hz
    baud: int = 19200
    random_moves: int = 0
    seed: int | None = None
    opening: int | None = None  # the game's number in a run whose openings must differ
    board: str = "custom"
    evasions: int = 1          # 0: the search ignores attacks, as on the iCE40 boards
    every_attack: int = 0      # 1: attacks anywhere, on arrays that label tracks (the 85F)
    table: int = 0             # a table of 2**table leaf values per search (0: none)
    extension: int = DEFAULT_EXTENSION
    tss: int = DEFAULT_TSS     # plies of the threat-space search (0: none)
    veto: int = 0              # plies of the opponent's threat-space search on new bests (0: none)
    cycles_per_trial: int = CYCLES_PER_TRIAL    # the board's array's most (cycles_per_trial)
    lanes: int = 1             # searches at once, each on its own array
    keeper: int = KEEPER_SIZE  # the keeper's board, squares per side (hw/keeper.py)
    forgetting: bool = True    # past the keeper's board (False: silent there, as the iCEBreaker)

    @classmethod
    def of_board(cls, name: str) -> "ModelSettings":
        """The settings of the board called ``name`` (its file in ``boards/``)."""
        try:
            from fpgatrax.boards.build import BoardError, board
        except ModuleNotFoundError as missing:
            raise UserError(f"model: the board definitions are not installed (no module "
                            f"{missing.name!r}): pip install 'fpgatrax[boards]', or give "
                            f"the settings, as in model:depth=3,max_trials=100000,width=16,"
                            f"height=16,clock=25e6") from None
        try:
            target = board(name)
        except BoardError as err:
            raise UserError(f"model: {err}") from None
        return cls(target.depth, target.max_trials, target.width, target.height,
                   target.clk_freq, board=name, evasions=int(target.evasions),
                   every_attack=int(target.every_attack), table=target.table,
                   extension=target.extension, tss=target.tss, veto=target.veto,
                   cycles_per_trial=target.cycles_per_trial, lanes=target.lanes,
                   keeper=target.keeper_size, forgetting=target.forgetting)

    @property
    def tss_trials(self) -> int:
        return tss_trials_for(self.max_trials, self.tss)

    def search(self, max_trials: int | None = None) -> SearchModel | LanesModel:
        """The board's search, with ``max_trials`` instead of its trial limit if given (its
        threat-space search keeps its share of it)."""
        limit = self.max_trials if max_trials is None else max_trials
        search: SearchModel | LanesModel = search_model(
            self.lanes, max_trials=limit or None, window=(self.width, self.height),
            depth=self.depth, extension=self.extension, evasions=bool(self.evasions),
            every_attack=bool(self.every_attack), table=self.table, tss=self.tss,
            tss_trials=tss_trials_for(limit, self.tss) or None, veto=self.veto,
            veto_trials=veto_trials_for(limit, self.veto) or None)
        return search

    def describe(self) -> str:
        trials = f"trial limit {self.max_trials:,}" if self.max_trials else "no trial limit"
        attacks = (f"check evasions{' of every attack' if self.every_attack else ''}, "
                   f"+{self.extension} after attacks" if self.evasions else "no evasions")
        if self.tss:
            attacks += (f", {self.tss}-ply threat-space search"
                        f"{f' up to {self.tss_trials:,} trials' if self.tss_trials else ''}")
        if self.veto:
            attacks += (f", each new best root move vetoed by the opponent's {self.veto}-ply "
                        f"threat-space search")
        if self.table:
            attacks += f", a table of {1 << self.table:,} leaf values"
        lanes = f"{self.lanes} lanes, each with a " if self.lanes > 1 else ""
        return (f"{self.board}: depth {self.depth} ({attacks}), {trials}, "
                f"{lanes}{self.width}x{self.height} array, {self.clock / 1e6:g} MHz")


_INTEGERS = ("depth", "evasions", "every_attack", "table", "extension", "tss", "veto",
             "max_trials",
             "width", "height", "baud", "random_moves", "seed", "lanes", "keeper")
# What a board decides; given all of them, no board is needed.
_BOARD_FIELDS = {"depth", "max_trials", "width", "height", "clock"}


def parse_settings(argument: str, seed: int | None = None) -> ModelSettings:
    """The settings a ``model:...`` spec's argument names (see the module docstring);
    ``seed`` draws the random first moves unless the argument gives one."""
    fields = {}
    for item in filter(None, argument.split(",")):
        name, equals, value = item.partition("=")
        if not equals or not value:
            raise UserError(f"model: give settings as NAME=VALUE, as in model:board=hx8k or "
                            f"model:depth=2 (got {item!r})")
        fields[name.strip()] = value.strip()
    board = fields.pop("board", None)
    unknown = sorted(set(fields) - {*_INTEGERS, "clock"})
    if unknown:
        raise UserError(f"model: unknown setting {unknown[0]!r}; the settings are board, "
                        f"{', '.join(_INTEGERS)} and clock")
    values: dict[str, int | float] = {}
    for name, text in fields.items():
        try:
            values[name] = float(text) if name == "clock" else int(text)
        except ValueError:
            raise UserError(f"model: {name} must be a number, not {text!r}") from None
        lowest = 0 if name in ("evasions", "every_attack", "table", "extension", "tss", "veto",
                               "max_trials", "random_moves", "seed") else 1
        highest = {"evasions": 1, "every_attack": 1, "table": 16}.get(name, float("inf"))
        if not lowest <= values[name] <= highest:
            raise UserError(f"model: {name} {text} is out of range")
    values.setdefault("seed", seed)  # type: ignore[arg-type]
    if board is None and _BOARD_FIELDS <= set(values):     # a board of one's own: no defaults
        settings = ModelSettings(**values)  # type: ignore[arg-type]
    else:
        settings = ModelSettings.of_board(board or DEFAULT_BOARD)
        changed = sorted(set(values) & (_BOARD_FIELDS | {"evasions", "every_attack", "table",
                                                           "extension", "tss", "veto",
                                                           "lanes",
                                                           "keeper"}))
        if changed:
            values["board"] = f"{settings.board} with {', '.join(changed)} changed"  # type: ignore
        settings = replace(settings, **values)  # type: ignore[arg-type]
    if not settings.evasions:
        for name, what in (("extension", "an extension"), ("tss", "a threat-space search"),
                           ("every_attack", "judging every attack")):
            if getattr(settings, name) and name in values:
                raise UserError(f"model: {what} needs the evasions (evasions=1, or {name}=0)")
        settings = replace(settings, extension=0, tss=0, every_attack=0)
    if settings.veto and not settings.every_attack:
        if "veto" in values:
            raise UserError("model: the veto needs every attack judged (every_attack=1, or "
                            "veto=0)")
        settings = replace(settings, veto=0)
    try:
        check_attack_settings(settings.evasions, settings.extension, settings.max_trials,
                              settings.tss, settings.tss_trials, bool(settings.every_attack),
                              settings.veto)
        check_keeper_size(settings.keeper)
    except ValueError as err:
        raise UserError(f"model: {err}") from None
    return settings


class BoardTimeClock:
    """The model's time as the board's: advanced by each answer's trials and line bytes, read
    by the referee (see ``WallClock`` in ``host/link/transport.py``)."""

    simulated = True

    def __init__(self) -> None:
        self.seconds = 0.0

    def now(self) -> float:
        return self.seconds

    def wall_timeout(self, limit: float) -> float:
        return float("inf")      # Python's speed is not the board's: its answer always comes


@dataclass
class SearchStats:
    """What the model's searches cost, move by move."""
    trials: list[int] = field(default_factory=list)
    depths: list[int] = field(default_factory=list)   # deepest finished iteration (0: win pass)
    seconds: list[float] = field(default_factory=list)   # the board's time of each answer
    overflows: int = 0


def proof_search(plies: int = SAFE_TSS, trials: int | None = SAFE_TRIALS,
                 every_attack: bool = False) -> SearchModel:
    """A search for a win the side to move proves (``SearchModel.proven_win``): at once, or by
    a threat-space search of ``plies`` plies within ``trials`` trials, on an unbounded board;
    with ``every_attack`` it sees attacks anywhere, as the 85F's search does (more proofs: an
    attack made by forced play, a double attack), as ``bench.losses`` judges lost games."""
    return SearchModel(None, None, 1, DEFAULT_EXTENSION, True, plies, trials,
                       every_attack=every_attack)


def loses(position: Position, refuter: SearchModel) -> bool:
    """Whether the move just pushed on ``position`` loses for its mover (then takes it back): it
    completes only the opponent's colour, or the opponent proves a win after it with
    ``refuter`` (a ``proof_search``). A random opening move that merely does not lose at once
    often hands a forcing engine the game by its fourth move; the bench would then measure the
    draw, not the search."""
    try:
        outcome = position.outcome
        if outcome is not None:
            return outcome.winner not in (None, 1 - position.to_move)
        return refuter.proven_win(position) is not None
    finally:
        position.undo()


def safe_moves(position: Position, refuter: SearchModel,
               window: tuple[int, int, int, int] | None = None) -> list[Move]:
    """The legal moves (inside ``window``, if given) that do not lose by ``refuter``'s
    judgement (``loses``), in raster order, one for each position they make: moves that make
    one position, the same tiles moved, would make one game."""
    safe: list[Move] = []
    made = set()
    for move in candidates_in_order(position, window):
        if not position.push(move):
            continue
        shape = canonical(position, symmetries=False)
        if shape in made:
            position.undo()
            continue
        made.add(shape)
        if not loses(position, refuter):         # which takes the move back
            safe.append(move)
    return safe


class OutOfRoom(Exception):
    """No legal move the keeper may play, or a move of the game it refuses: the board stops
    answering."""


class ModelBot:
    """The search model as a bot: random first moves if asked, the search after them."""

    def __init__(self, settings: ModelSettings, stats: SearchStats,
                 spend: Callable[[int], float]) -> None:
        self.player = PlayerModel(settings.search(), (settings.width, settings.height),
                                  keeper_size=settings.keeper,
                                  forgetting=settings.forgetting)
        self.settings, self.stats, self.spend = settings, stats, spend
        self.rng = random.Random(settings.seed)
        self._refuter = proof_search()
        self._openings = 1      # how many openings the random moves so far could tell apart

    def choose(self, position: Position) -> Move:
        opening, random_moves = self.settings.opening, self.settings.random_moves
        if len(position.moves) < 2:
            self._openings = 1
        if (len(position.moves) // 2 < random_moves
                or (random_moves and opening is not None and self._openings <= opening)):
            move = self._random_move(position)
            if move is not None:
                self.spend(0)
                return move
        try:
            choice = self.player.choose(position)
        except KeeperRefused:
            choice = None
        if choice is None or choice.move is None:
            self.stats.overflows += 1
            raise OutOfRoom()
        search = choice.search
        self.stats.trials.append(search.trials if search else 0)
        self.stats.depths.append(search.depth if search else 0)
        self.stats.seconds.append(self.spend(board_cycles(choice, self.player.size,
                                                          self.settings.cycles_per_trial,
                                                          self.settings.table)))
        chosen: Move = choice.move
        return chosen

    def _random_move(self, position: Position) -> Move | None:
        """A random legal move inside the array that does not lose (see ``loses``), or None if
        there is none: the search then finds the best of the rest.

        With an ``opening`` number, the moves are shuffled by the seed and the position alone,
        and the opening's number, written in the mixed radix of the choices met so far, picks
        one: a run's games numbered 0 to N - 1 then begin differently against a deterministic
        opponent (whose replies are the same after the same moves), one more random move being
        drawn for as long as the choices so far cannot tell N openings apart. (Mirror images
        count as different openings: the search's raster order, and most engines' move
        order, do not play them as mirror games. Moves that make one position, the same tiles
        moved, count once: two such openings would be one game.)"""
        window = window_of(position, (self.settings.width, self.settings.height))
        safe = safe_moves(position, self._refuter, window)
        if not safe:
            return None
        opening = self.settings.opening
        if opening is None:
            return self.rng.choice(safe)
        tiles = sorted(position.tiles.items())
        random.Random(f"{self.settings.seed} {tiles}").shuffle(safe)
        move = safe[opening // self._openings % len(safe)]
        self._openings *= len(safe)
        return move


class ModelSession(BotSession):
    """The board's side of the protocol, played by the model; ``stats`` counts its searches."""

    def __init__(self, settings: ModelSettings, variant: str = "standard",
                 clock: BoardTimeClock | None = None, team: str = "FT",
                 book: tuple[Move, ...] = ()) -> None:
        self.settings, self.stats = settings, SearchStats()
        self.clock = clock or BoardTimeClock()
        super().__init__(ModelBot(settings, self.stats, self._spend), variant, team, book)
        self._line_bytes = 0

    def _spend(self, cycles: int) -> float:
        """Add the board's time of an answer to its clock and return it: its ``cycles``
        (``board_cycles``: the search, loading the window, the keeper's pass) and the
        opponent's line on the link."""
        seconds_per_byte = FRAME_BITS / self.settings.baud
        seconds = cycles / self.settings.clock + self._line_bytes * seconds_per_byte
        self.clock.seconds += seconds
        return seconds

    def respond(self, line: str) -> str | None:
        self._line_bytes = len(line) + 1
        try:
            answer: str | None = super().respond(line)
        except OutOfRoom:
            return None
        if answer is not None:
            self.clock.seconds += (len(answer) + 1) * FRAME_BITS / self.settings.baud
        return answer


def open_model(argument: str, variant: str = "standard", seed: int | None = None,
               book: tuple[Move, ...] = ()) -> FunctionTransport:
    """A transport to the model that ``model:ARGUMENT`` names, judged by its board's time;
    ``seed`` draws its random first moves unless the argument gives one; ``book`` is an
    opening it plays first (``BotSession``)."""
    settings = parse_settings(argument, seed)
    session = ModelSession(settings, variant, book=book)
    transport = FunctionTransport(f"model ({settings.describe()})", session.respond)
    transport.clock = session.clock
    return transport
