"""The live view: a web page that shows games as they are judged, and finished ones move by move.

``fpgatrax match ... --web [PORT]`` feeds it from the referee (each legal move as it is judged,
with its time, and each result); ``fpgatrax watch RECORD-DIR`` from a folder of game records,
looked at twice a second, so that it follows a match writing its records there. The page
(one file, ``live.html``) lists the games; for the chosen one it shows both players, the
move list with each answer's time, the result, and the position as the SVG of ``show --svg``
(the winning loop or line over a gold band). Updates are pushed to the page as server-sent
events (``/events``, one JSON summary of every game per change); the page fetches the picture
of any move (``/svg/GAME/MOVE``), so a finished game can be stepped through with the buttons
or the arrow keys. The server is aiohttp's, on its own thread and event loop.

A solo puzzle file in the watched folder (``docs/puzzles.md``) is shown beside the games: its
board first, then, one step on, its solution as ``fpgatrax puzzle solve`` finds it, with the
verdict (unique or not) as the result.
"""

import asyncio
import functools
import json
import threading
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from aiohttp import web

from fpgatrax.host.pictures.svg import render_grid_svg, render_svg
from fpgatrax.host.puzzles.board import PuzzleError, is_puzzle_file, read_puzzle
from fpgatrax.host.puzzles.solve import solutions
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.notation import NotationError, parse_move
from fpgatrax.host.rules.position import IllegalMove, Position
from fpgatrax.host.rules.record import NOTATIONS, RecordError, read_record, replay

__all__ = ["LiveGame", "LiveGames", "LiveServer", "watch_folder"]

# How often ``watch`` looks at the folder, in seconds.
POLL = 0.5


@dataclass
class LiveGame:
    """One game as the page shows it."""
    white: str
    black: str
    variant: str = "standard"
    moves: list[tuple[str, str]] = field(default_factory=list)     # (text, time)
    result: str | None = None
    #: The picture of each step, made beforehand (a puzzle's), instead of the game's positions.
    pictures: list[str] | None = None

    def position(self, upto: int | None = None) -> Position:
        """The position after ``upto`` moves (all by default)."""
        position = Position(self.variant)
        for text, _ in self.moves[:upto]:
            position.play(parse_move(position, text))
        return position

    def summary(self, number: int) -> dict[str, object]:
        return {"number": number, "white": self.white, "black": self.black,
                "moves": [{"text": t, "time": s} for t, s in self.moves],
                "result": self.result}


class LiveGames:
    """The games the page shows, changed by one thread and read by the server's."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.games: list[LiveGame] = []
        self.version = 0
        self._listeners: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []

    def start(self, white: str, black: str, variant: str = "standard") -> int:
        with self._lock:
            self.games.append(LiveGame(white, black, variant))
            number = len(self.games) - 1
        self._changed()
        return number

    def move(self, number: int, text: str, timing: str = "") -> None:
        with self._lock:
            self.games[number].moves.append((text, timing))
        self._changed()

    def finish(self, number: int, result: str) -> None:
        with self._lock:
            self.games[number].result = result
        self._changed()

    def replace(self, games: list[LiveGame]) -> None:
        """Show ``games`` instead (``watch``: the folder as it is now), if they differ."""
        with self._lock:
            if games == self.games:
                return
            self.games = games
        self._changed()

    def summary(self) -> dict[str, object]:
        with self._lock:
            return {"version": self.version,
                    "games": [g.summary(i) for i, g in enumerate(self.games)]}

    def picture(self, number: int, upto: int) -> str:
        with self._lock:
            game = self.games[number]
        if game.pictures is not None:
            return game.pictures[upto]
        picture: str = render_svg(game.position(upto))
        return picture

    def listen(self, loop: asyncio.AbstractEventLoop, event: asyncio.Event) -> None:
        self._listeners.append((loop, event))

    def unlisten(self, event: asyncio.Event) -> None:
        self._listeners = [(loop, e) for loop, e in self._listeners if e is not event]

    def _changed(self) -> None:
        with self._lock:
            self.version += 1
        for loop, event in list(self._listeners):
            loop.call_soon_threadsafe(event.set)


class LiveServer:
    """The page's web server for ``games``, on ``host``:``port`` (0: a free port), in a thread
    of its own; ``url`` is the page's address once ``start`` returns."""

    def __init__(self, games: LiveGames, port: int, host: str = "127.0.0.1") -> None:
        self.games, self.host, self.port = games, host, port
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, daemon=True, name="live view")
        self._runner: web.AppRunner | None = None
        self._streams: set[asyncio.Task[object]] = set()     # the open /events responses

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    def start(self) -> "LiveServer":
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise UserError(f"the live view cannot listen on port {self.port}: "
                            f"{self._error}") from None
        return self

    def stop(self) -> None:
        """Close the pages' event streams, then the server."""
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)

    async def _close(self) -> None:
        for task in self._streams:
            task.cancel()
        assert self._runner is not None
        await self._runner.cleanup()

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._serve())
        except OSError as err:
            self._error = err
            self._ready.set()
            self._loop.close()
            return
        self._ready.set()
        self._loop.run_forever()
        self._loop.close()

    async def _serve(self) -> None:
        app = web.Application()
        app.router.add_get("/", self._page)
        app.router.add_get("/state", self._state)
        app.router.add_get("/events", self._events)
        app.router.add_get("/svg/{game}/{move}", self._svg)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def _page(self, request: web.Request) -> web.Response:
        page = resources.files("fpgatrax.host.match").joinpath("live.html").read_text("utf-8")
        return web.Response(text=page, content_type="text/html")

    async def _state(self, request: web.Request) -> web.Response:
        return web.json_response(self.games.summary())

    async def _svg(self, request: web.Request) -> web.Response:
        try:
            number, upto = int(request.match_info["game"]), int(request.match_info["move"])
            picture = self.games.picture(number, upto)
        except (ValueError, IndexError):
            raise web.HTTPNotFound(text="no such game or move") from None
        return web.Response(text=picture, content_type="image/svg+xml")

    async def _events(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                               "Cache-Control": "no-cache"})
        await response.prepare(request)
        event = asyncio.Event()
        self.games.listen(asyncio.get_running_loop(), event)
        task = asyncio.current_task()
        assert task is not None
        self._streams.add(task)
        sent = -1
        try:
            while True:
                summary = self.games.summary()
                if summary["version"] != sent:
                    sent = int(summary["version"])       # type: ignore[call-overload]
                    await response.write(f"data: {json.dumps(summary)}\n\n".encode())
                event.clear()
                try:
                    await asyncio.wait_for(event.wait(), 15)
                except TimeoutError:
                    await response.write(b": still here\n\n")
        except (ConnectionResetError, asyncio.CancelledError):
            return response          # the page went away, or the server is closing
        finally:
            self._streams.discard(task)
            self.games.unlisten(event)


def watch_folder(folder: Path, games: LiveGames, stop: threading.Event,
                 poll: float = POLL) -> None:
    """Show the records of ``folder`` (its ``*.txt`` files, by name) as they are, until
    ``stop`` is set; a record is shown up to its first move that does not replay."""
    if not folder.is_dir():
        raise UserError(f"{folder} is not a folder")
    while not stop.is_set():
        games.replace([_record_game(path) for path in sorted(folder.glob("*.txt"))])
        stop.wait(poll)


def _record_game(path: Path) -> LiveGame:
    if is_puzzle_file(path):
        stat = path.stat()
        return _puzzle_game(path, stat.st_mtime_ns, stat.st_size)
    try:
        record = read_record(path)
    except RecordError as err:
        return LiveGame(path.name, "", result=str(err))
    game = LiveGame(record.white or path.name, record.black or "", record.variant)
    position = Position(record.variant)
    (parse, _), (_, write_new) = NOTATIONS[record.notation], NOTATIONS["new"]
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    for text, line in record.moves:
        # The referee writes a move a line, its time as the line's comment.
        body, _, comment = lines[line - 1].partition("#")
        timing = comment.strip() if len(body.split()) == 1 else ""
        try:
            move = parse(position, text)
            game.moves.append((write_new(position, move), timing))
            position.play(move)
        except (NotationError, IllegalMove) as err:
            game.result = f"stopped at {text}: {err}"
            return game
    if position.outcome is not None or record.forfeit is not None:
        game.result = replay(record).summary()       # the words of `fpgatrax replay`
    return game


@functools.lru_cache(maxsize=256)
def _puzzle_game(path: Path, mtime_ns: int, size: int) -> LiveGame:
    """A puzzle file as the page shows it: the puzzle, then its solution (solved once per
    version of the file: the cache's key holds its time and size)."""
    try:
        puzzle = read_puzzle(path)
    except PuzzleError as err:
        return LiveGame(f"puzzle {path.name}", "", result=str(err))
    found = solutions(puzzle, limit=2)
    pictures = [render_grid_svg(puzzle.size, puzzle.givens, puzzle.givens, puzzle.ends or ())]
    if found:
        pictures.append(render_grid_svg(puzzle.size, found[0], puzzle.givens,
                                        puzzle.ends or ()))
    verdict = ("no solution" if not found else "the solution is unique" if len(found) == 1
               else "more than one solution")
    return LiveGame(f"puzzle {path.name}", f"{puzzle.kind} puzzle, {puzzle.size}×{puzzle.size}",
                    moves=[("solution", "")] if found else [], result=verdict,
                    pictures=pictures)
