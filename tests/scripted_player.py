"""Small scripted players for the referee's tests: real programs and real link ends, no mocks.

A scripted player plays the first legal move (by the reference engine) until its ``at``-th
answer, where it misbehaves as told:

- ``play``: never misbehaves;
- ``late``: answers legally, but only after ``LATE_SECONDS``;
- ``silent``: never answers;
- ``garbage``: answers text that is not a move;
- ``illegal``: answers ``A1+`` (the first move must be @0, and A1 is occupied later);
- ``flood``: sends a long run of bytes without a line end;
- ``crash``: the program exits with status 3 (a thread closes its end of the link);
- ``hangup``: closes its output but stays alive;
- ``crlf``: answers legally with CR LF and blank lines around the move (allowed);
- ``once``: answers legally, and the program exits with status 0 right after (as engines that
  play one game and leave);
- ``stale``: never misbehaves, but keeps its position when a new game starts (as engines that
  do not reset on ``-W``/``-B``);
- ``slowstart``: never misbehaves, but takes ``SLOW_START`` seconds to start reading (as
  engines that allocate large tables first).

Run as a program (``python scripted_player.py BEHAVIOUR AT``) it plays on stdin/stdout; tests of
pseudo-terminals and sockets run ``serve`` in a thread on the link's other end.
"""

import os
import sys
import time

from fpgatrax.host.rules.notation import format_move, parse_move
from fpgatrax.host.rules.position import Position

LATE_SECONDS = 2.0
SLOW_START = 1.5
GARBAGE = "hello!"
ILLEGAL = "A1+"
FLOOD = b"B" * 5000


class Crash(Exception):
    """The player dies now."""


class Hangup(Exception):
    """The player closes its output now."""


class ScriptedPlayer:
    def __init__(self, behaviour="play", at=1, variant="standard"):
        self.behaviour, self.at, self.variant = behaviour, at, variant
        self.position = None
        self.answers = 0
        self.done = False      # the program leaves after this answer

    def respond(self, line):
        """The bytes to send for ``line`` (None for nothing), or raise Crash or Hangup."""
        if line == "-T":
            return b"SP\n"
        if line in ("-W", "-B"):
            if self.position is None or self.behaviour != "stale":
                self.position = Position(self.variant)
            if line == "-B":
                return None
        else:
            self.position.play(parse_move(self.position, line))
        self.answers += 1
        if self.answers == self.at:
            return self._misbehave()
        return self._move().encode() + b"\n"

    def _move(self):
        move = sorted(self.position.legal_moves())[0]
        text = format_move(self.position, move)
        self.position.play(move)
        return text

    def _misbehave(self):
        kind = self.behaviour
        if kind == "late":
            time.sleep(LATE_SECONDS)
        elif kind == "silent":
            return None
        elif kind == "garbage":
            return GARBAGE.encode() + b"\n"
        elif kind == "illegal":
            return ILLEGAL.encode() + b"\n"
        elif kind == "flood":
            return FLOOD
        elif kind == "crash":
            raise Crash
        elif kind == "hangup":
            raise Hangup
        elif kind == "crlf":
            return b"\r\n\n" + self._move().encode() + b"\r\n\r\n"
        elif kind == "once":
            self.done = True
        return self._move().encode() + b"\n"


def serve(player, read_line, write):
    """Answer each line ``read_line()`` returns (b"" at the end) through ``write(bytes)``;
    Crash and Hangup propagate to the caller, which ends the link its own way."""
    while True:
        raw = read_line()
        if not raw:
            return
        line = raw.replace(b"\r", b"").strip(b"\n").decode()
        if line:
            answer = player.respond(line)
            if answer:
                write(answer)
            if player.done:
                return


def main(behaviour, at):
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer

    def write(data):
        stdout.write(data)
        stdout.flush()
    if behaviour == "slowstart":
        time.sleep(SLOW_START)
    try:
        serve(ScriptedPlayer(behaviour, int(at)), stdin.readline, write)
    except Crash:
        os._exit(3)
    except Hangup:
        os.close(1)
        time.sleep(30)
    except BrokenPipeError:      # the referee has gone: nothing left to do
        pass


if __name__ == "__main__":
    main(*sys.argv[1:])
