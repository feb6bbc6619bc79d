"""Transports: one line-oriented interface to a player, whatever carries its bytes.

The referee talks to every player the same way: ``send_line`` a protocol line, ``read_line`` the
answer within a timeout. What carries the bytes differs:

- ``SerialTransport``: a serial port through a pyserial URL (a device path, ``socket://``,
  ``rfc2217://``, ``loop://``), 8N1 at a chosen baud rate: a real board, or the simulated board
  behind its pseudo-terminal.
- ``CommandTransport``: a program run as a child process, spoken to over its stdin/stdout, the
  way most Trax engines run.
- ``TcpTransport``: the referee listens on a port and the engine connects as a client, as the
  competition tools do; ``TcpClientTransport`` is the client's end (``fpgatrax relay``).
- ``FunctionTransport``: a Python callable in this process (the software bots, for speed).

Reading follows ``docs/protocol.md``: lines end in LF, stray CRs and empty lines are ignored, and a
line is capped at ``MAX_LINE`` bytes, so a player that floods the link is cut off at once. Every
read has a deadline, so a player that hangs costs the referee its time limit and no more.

Each transport carries a ``clock``: the notion of time its player is judged by. Real players are
judged in wall time (``WallClock``); a simulated board can bring a clock that counts simulated
cycles instead, so that it is judged as the hardware would be, however slowly it simulates.
"""

import os
import select
import shlex
import signal
import socket
import subprocess
import termios
import time
from collections.abc import Callable
from typing import Protocol, Self

import serial

__all__ = ["MAX_LINE", "TransportError", "Disconnected", "NoAnswer", "LineTooLong", "Clock",
           "WallClock", "WALL_CLOCK", "Transport", "SerialTransport", "CommandTransport",
           "TcpTransport", "TcpClientTransport", "FunctionTransport"]

# Longest accepted line, LF excluded: room for any real move (``AA10/`` is 5) with a margin.
MAX_LINE = 16
# How long a TCP player may take to connect before it is treated as disconnected.
ACCEPT_TIMEOUT = 60.0
# How long a program that ended its game may take to exit before the next game starts.
EXIT_GRACE = 0.5


class TransportError(Exception):
    """The player did not deliver a line; the message says what happened instead."""


class Disconnected(TransportError):
    """The player is gone: the program exited, the socket or port closed."""


class NoAnswer(TransportError):
    """No complete line arrived before the deadline."""


class LineTooLong(TransportError):
    """The player sent more than ``MAX_LINE`` bytes without an LF."""


class Clock(Protocol):
    """What the referee needs of a transport's ``clock`` (see ``WallClock``)."""

    simulated: bool

    def now(self) -> float: ...

    def wall_timeout(self, limit: float) -> float: ...


class WallClock:
    """Judges a player in wall-clock seconds, as a real board or program is judged.

    A clock has ``now()`` in seconds of the player's time, read by the referee just after it sends
    a line and just after the answer arrives, and ``wall_timeout(limit)``: how long in wall time
    the referee waits for an answer that is allowed ``limit`` seconds of the player's time. A
    clock with ``simulated = True`` is reported alongside the wall time.
    """

    simulated = False

    def now(self) -> float:
        return time.monotonic()

    def wall_timeout(self, limit: float) -> float:
        return limit


WALL_CLOCK = WallClock()


class _LineBuffer:
    """Bytes in, protocol lines out: LF ends a line, CRs and empty lines vanish, and more than
    ``MAX_LINE`` bytes without an LF is an error rather than a growing buffer."""

    def __init__(self) -> None:
        self._data = b""

    def feed(self, data: bytes) -> None:
        self._data += data.replace(b"\r", b"")

    def clear(self) -> None:
        self._data = b""

    def next_line(self) -> str | None:
        while True:
            end = self._data.find(b"\n")
            if end < 0:
                if len(self._data) > MAX_LINE:
                    self._data = b""
                    raise LineTooLong(f"line longer than {MAX_LINE} bytes")
                return None
            line, self._data = self._data[:end], self._data[end + 1:]
            if len(line) > MAX_LINE:
                raise LineTooLong(f"line longer than {MAX_LINE} bytes")
            if line:
                return line.decode("ascii", errors="backslashreplace")


class Transport:
    """A line-oriented link to one player. Subclasses provide ``_write(data)`` and
    ``_read(timeout)``, which returns the bytes available within ``timeout`` (possibly none) and
    raises Disconnected when the link is closed."""

    clock: Clock = WALL_CLOCK

    def __init__(self, name: str) -> None:
        self.name = name
        self._buffer = _LineBuffer()

    def _write(self, data: bytes) -> None:
        raise NotImplementedError

    def _read(self, timeout: float) -> bytes:
        raise NotImplementedError

    def connect(self) -> None:
        """Make sure the player is there before a game starts (a TCP player connects now)."""

    def new_game(self) -> str | None:
        """Called before each game: renew the link if its player cannot play another game on
        it, and return a note saying what was done (None when nothing was)."""
        return None

    def send_line(self, text: str) -> None:
        self._write(text.encode("ascii") + b"\n")

    def send_raw(self, data: bytes) -> None:
        """Write ``data`` as it is, line ends or not (a soak's noise on the link)."""
        self._write(data)

    def read_line(self, timeout: float) -> str:
        """The next non-empty line, without its line end. Raises NoAnswer when none is complete
        within ``timeout`` seconds, LineTooLong or Disconnected."""
        deadline = time.monotonic() + timeout
        while True:
            line = self._buffer.next_line()
            if line is not None:
                return line
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise NoAnswer(f"no answer within {timeout:g} s")
            self._buffer.feed(self._read(remaining))

    def discard_input(self) -> None:
        """Drop whatever the player sent unasked (stale or surplus lines), so that the next line
        read is an answer to the next line sent."""
        self._buffer.clear()
        while self._read(0):
            pass

    def close(self) -> None:
        """Release the link; safe to call more than once."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


# What a port whose other end went away raises: pyserial's own errors, the OS's, and termios's
# (EIO from draining a pseudo-terminal whose program died), which is neither.
_PORT_ERRORS = (serial.SerialException, OSError, termios.error)


class SerialTransport(Transport):
    """A serial port (device path or pyserial URL) at ``baud``, 8 data bits, no parity, 1 stop
    bit, no flow control."""

    def __init__(self, url: str, baud: int = 19200) -> None:
        super().__init__(url)
        try:
            self._port = serial.serial_for_url(
                url, baudrate=baud, bytesize=serial.EIGHTBITS, parity=serial.PARITY_NONE,
                stopbits=serial.STOPBITS_ONE, xonxoff=False, rtscts=False, timeout=0,
                write_timeout=2.0)
        except serial.SerialException as err:
            raise Disconnected(str(err)) from None
        except ValueError as err:
            raise Disconnected(f"cannot open {url}: {err}") from None

    def _write(self, data: bytes) -> None:
        try:
            self._port.write(data)
            self._port.flush()
        except serial.SerialTimeoutException:
            raise Disconnected("the port stopped accepting data") from None
        except _PORT_ERRORS as err:
            raise Disconnected(f"port closed ({err})") from None

    def _read(self, timeout: float) -> bytes:
        try:
            self._port.timeout = max(timeout, 0)
            data: bytes = self._port.read(max(1, self._port.in_waiting))
            return data
        except _PORT_ERRORS as err:
            raise Disconnected(f"port closed ({err})") from None

    def discard_input(self) -> None:
        self._buffer.clear()
        try:
            self._port.reset_input_buffer()
        except _PORT_ERRORS as err:
            raise Disconnected(f"port closed ({err})") from None

    def close(self) -> None:
        self._port.close()


class CommandTransport(Transport):
    """A program run as a child process; its stdin and stdout are the link, its stderr is
    passed through (or discarded, ``quiet``). The program runs in its own session so that a
    terminal's Ctrl-C reaches the referee only, and closing ends it together with any processes
    it started."""

    def __init__(self, command: str, fresh_each_game: bool = False, quiet: bool = False,
                 startup: float = 0.0) -> None:
        super().__init__(f"cmd:{command}")
        self._argv = shlex.split(command)
        if not self._argv:
            raise Disconnected("cmd: needs a program to run, as in 'cmd:PROGRAM ARGS'")
        self._fresh_each_game = fresh_each_game
        self._stderr = subprocess.DEVNULL if quiet else None
        self._startup = startup
        self._games = 0
        self._start()

    def _start(self) -> None:
        try:
            self._process = subprocess.Popen(self._argv, stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, stderr=self._stderr,
                                             bufsize=0, start_new_session=True)
        except OSError as err:
            raise Disconnected(f"cannot run {self._argv[0]}: {err.strerror}") from None
        self._started = time.monotonic()

    def new_game(self) -> str | None:
        """Some engines play one game and exit (the competitions' clients often do): such a
        program is started afresh for the next game, and so is every program when
        ``fresh_each_game`` is set (for engines that keep the last game's state). A program
        started less than ``startup`` seconds ago gets the rest of that time before the game's
        first line: its start (loading, allocating its tables) is not its first answer's."""
        self._games += 1
        note = self._renew() if self._games > 1 else None
        time.sleep(max(0.0, self._started + self._startup - time.monotonic()))
        return note

    def _renew(self) -> str | None:
        try:    # an engine that has just sent its winning move may still be on its way out
            status: int | None = self._process.wait(timeout=EXIT_GRACE)
        except subprocess.TimeoutExpired:
            status = None
        if status is None and not self._fresh_each_game:
            return None
        self.close()
        self._buffer.clear()
        self._start()
        if status is None:
            return "started afresh for this game"
        return f"the program had exited (status {status}); started afresh for this game"

    def _gone(self) -> Disconnected:
        try:
            status = self._process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return Disconnected("the program closed its output")
        if status < 0:
            return Disconnected(f"the program was killed by signal {-status}")
        return Disconnected(f"the program exited with status {status}")

    def _write(self, data: bytes) -> None:
        assert self._process.stdin is not None        # opened as a pipe
        try:
            self._process.stdin.write(data)
        except (BrokenPipeError, ValueError):
            raise self._gone() from None

    def _read(self, timeout: float) -> bytes:
        stdout = self._process.stdout
        assert stdout is not None                      # opened as a pipe
        if stdout.closed:
            raise self._gone()
        ready, _, _ = select.select([stdout], [], [], max(timeout, 0))
        if not ready:
            return b""
        data = os.read(stdout.fileno(), 4096)
        if not data:
            stdout.close()
            raise self._gone()
        return data

    def close(self) -> None:
        process = self._process
        for pipe in (process.stdin, process.stdout):
            assert pipe is not None                    # opened as pipes
            try:
                pipe.close()
            except OSError:
                pass
        try:
            process.wait(timeout=1.0)
            return
        except subprocess.TimeoutExpired:
            pass
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(process.pid, sig)
            except ProcessLookupError:
                return
            try:
                process.wait(timeout=1.0)
                return
            except subprocess.TimeoutExpired:
                pass


class _SocketTransport(Transport):
    """Lines over a connected TCP socket, which ``connect()`` makes."""

    _socket: socket.socket | None = None

    def _connected(self, sock: socket.socket) -> None:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._socket = sock

    def _write(self, data: bytes) -> None:
        self.connect()
        assert self._socket is not None                # connect() made one or raised
        try:
            self._socket.sendall(data)
        except OSError as err:
            raise Disconnected(f"the connection closed ({err.strerror})") from None

    def _read(self, timeout: float) -> bytes:
        self.connect()
        assert self._socket is not None                # connect() made one or raised
        ready, _, _ = select.select([self._socket], [], [], max(timeout, 0))
        if not ready:
            return b""
        try:
            data = self._socket.recv(4096)
        except OSError as err:
            raise Disconnected(f"the connection closed ({err.strerror})") from None
        if not data:
            raise Disconnected("the connection closed")
        return data

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
        self._socket = None


class TcpTransport(_SocketTransport):
    """Listens on ``port`` (``host`` "" means every interface) for one engine to connect as a
    client; the connection then carries the protocol, game after game. Port 0 picks a free port,
    which ``port`` tells."""

    def __init__(self, port: int, host: str = "", accept_timeout: float = ACCEPT_TIMEOUT
                 ) -> None:
        super().__init__(f"tcp:{port}")
        try:
            self._server: socket.socket | None = socket.create_server((host, port))
        except OSError as err:
            raise Disconnected(f"cannot listen on TCP port {port}: {err.strerror}") from None
        self.port = self._server.getsockname()[1]
        self._accept_timeout = accept_timeout

    def connect(self) -> None:
        if self._socket is not None:
            return
        if self._server is None:
            raise Disconnected("the connection closed")
        self._server.settimeout(self._accept_timeout)
        try:
            sock, _ = self._server.accept()
        except TimeoutError:
            raise Disconnected(f"nobody connected to TCP port {self.port} within "
                               f"{self._accept_timeout:g} s") from None
        finally:
            self._server.close()
            self._server = None
        self._connected(sock)

    def close(self) -> None:
        if self._server is not None:
            self._server.close()
        self._server = None
        super().close()


class TcpClientTransport(_SocketTransport):
    """Connects to a referee or competition server listening at ``host``:``port``, as an
    engine does; a refused or failed connection raises Disconnected saying why."""

    def __init__(self, host: str, port: int, timeout: float = ACCEPT_TIMEOUT) -> None:
        super().__init__(f"{host}:{port}")
        self.host, self.port, self._timeout = host, port, timeout

    def connect(self) -> None:
        if self._socket is not None:
            return
        try:
            sock = socket.create_connection((self.host, self.port), timeout=self._timeout)
        except OSError as err:
            reason = err.strerror or str(err)
            raise Disconnected(f"cannot connect to {self.name}: {reason}") from None
        sock.settimeout(None)
        self._connected(sock)


class FunctionTransport(Transport):
    """A player in this process: ``respond(line)`` returns its answer line or None. The answer
    is computed when the referee reads it, so the referee's clock times the thinking."""

    def __init__(self, name: str, respond: Callable[[str], str | None]) -> None:
        super().__init__(name)
        self._respond = respond
        self._pending: list[str] = []

    def send_line(self, text: str) -> None:
        self._pending.append(text)

    def read_line(self, timeout: float) -> str:
        while self._pending:
            try:
                answer = self._respond(self._pending.pop(0))
            except Exception as err:
                raise Disconnected(f"the player crashed: {type(err).__name__}: {err}") from err
            if answer is not None:
                return answer
        raise NoAnswer(f"no answer within {timeout:g} s")

    def discard_input(self) -> None:
        pass
