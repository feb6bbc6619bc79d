"""Transports over real pipes, pseudo-terminals and sockets: line ends, empty lines, the length
cap, timeouts, floods and disconnections."""

import os
import shlex
import socket
import sys
import termios
import threading

import pytest

from fpgatrax.host.link.transport import (
    MAX_LINE,
    CommandTransport,
    Disconnected,
    FunctionTransport,
    LineTooLong,
    NoAnswer,
    SerialTransport,
    TcpTransport,
)
from fpgatrax.host.match.players import PlayerOptions, open_player
from fpgatrax.host.rules.errors import UserError


def child(code):
    """A CommandTransport running ``code`` in a fresh Python."""
    return CommandTransport(f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}")


def test_pipe_lines_accept_crlf_and_skip_empty_lines():
    code = ("import sys, time\n"
            "sys.stdout.write('\\r\\n\\nA1+\\r\\n\\rB2/\\n\\n')\n"
            "sys.stdout.flush(); time.sleep(30)")
    with child(code) as player:
        assert player.read_line(10) == "A1+"
        assert player.read_line(10) == "B2/"
        with pytest.raises(NoAnswer):
            player.read_line(0.2)


def test_pipe_round_trip_through_a_child():
    code = ("import sys\n"
            "for line in sys.stdin:\n"
            "    print(line.strip()[::-1], flush=True)")
    with child(code) as player:
        player.send_line("+1A")
        assert player.read_line(10) == "A1+"


def test_pipe_flood_without_line_end_is_cut_off():
    code = "import sys\nwhile True: sys.stdout.write('x' * 1000); sys.stdout.flush()"
    with child(code) as player:
        with pytest.raises(LineTooLong, match=str(MAX_LINE)):
            player.read_line(10)


def test_pipe_flood_of_empty_lines_times_out():
    code = "import sys\nwhile True: sys.stdout.write('\\r\\n' * 1000); sys.stdout.flush()"
    with child(code) as player:
        with pytest.raises(NoAnswer):
            player.read_line(0.3)


def test_long_line_with_line_end_is_refused():
    code = f"import sys, time\nprint('A' * {MAX_LINE + 1}, flush=True)\ntime.sleep(30)"
    with child(code) as player:
        with pytest.raises(LineTooLong):
            player.read_line(10)


def test_pipe_exit_is_a_disconnection_with_the_status():
    with child("import sys; sys.exit(7)") as player:
        with pytest.raises(Disconnected, match="status 7"):
            player.read_line(10)
        with pytest.raises(Disconnected):
            player.send_line("-W")


def test_missing_program_is_an_error():
    with pytest.raises(Disconnected, match="cannot run"):
        CommandTransport("/nonexistent/engine --fast")


def open_pty():
    """A SerialTransport on the slave side of a new pseudo-terminal, and the master fd."""
    master, slave = os.openpty()
    transport = SerialTransport(os.ttyname(slave))
    os.close(slave)
    return transport, master


def test_pty_lines_both_ways():
    transport, master = open_pty()
    with transport:
        os.write(master, b"\r\n@0+\r\n")
        assert transport.read_line(10) == "@0+"
        transport.send_line("-W")
        assert os.read(master, 100) == b"-W\n"
        os.close(master)


def test_pty_discard_input_drops_stale_lines():
    transport, master = open_pty()
    with transport:
        os.write(master, b"STALE\nOLD")
        transport.discard_input()
        os.write(master, b"FRESH\n")
        assert transport.read_line(10) == "FRESH"
        os.close(master)


def test_pty_closed_by_the_other_end_is_a_disconnection():
    transport, master = open_pty()
    with transport:
        os.close(master)
        with pytest.raises(Disconnected):
            transport.read_line(10)


def test_pty_closed_by_the_other_end_is_a_disconnection_when_writing(monkeypatch):
    transport, master = open_pty()
    with transport:
        os.close(master)
        with pytest.raises(Disconnected):
            transport.send_line("@0+")
    # Draining a pseudo-terminal whose program has just died can fail with termios's own EIO
    # error, which is not an OSError (seen once in a full run): that too is a disconnection.
    transport, master = open_pty()
    with transport:
        def drain_fails():
            raise termios.error(5, "Input/output error")
        monkeypatch.setattr(transport._port, "flush", drain_fails)
        with pytest.raises(Disconnected, match="Input/output error"):
            transport.send_line("@0+")
        os.close(master)


def test_serial_loop_url_echoes():
    with SerialTransport("loop://", 115200) as transport:
        transport.send_line("C3\\")
        assert transport.read_line(10) == "C3\\"


def test_serial_socket_url_and_remote_close():
    server = socket.create_server(("127.0.0.1", 0))

    def peer():
        connection, _ = server.accept()
        connection.sendall(connection.makefile("rb").readline().upper())
        connection.close()
    thread = threading.Thread(target=peer)
    thread.start()
    with SerialTransport(f"socket://127.0.0.1:{server.getsockname()[1]}") as transport:
        transport.send_line("b1/")
        assert transport.read_line(10) == "B1/"
        with pytest.raises(Disconnected):
            transport.read_line(10)
    thread.join()
    server.close()


def test_tcp_engine_connects_as_a_client():
    transport = TcpTransport(0, "127.0.0.1", accept_timeout=30)

    def engine():
        with socket.create_connection(("127.0.0.1", transport.port)) as sock:
            line = sock.makefile("rb").readline()
            assert line == b"-W\n"
            sock.sendall(b"\n@0/\r\n")
    thread = threading.Thread(target=engine)
    thread.start()
    with transport:
        transport.send_line("-W")
        assert transport.read_line(10) == "@0/"
        thread.join()
        with pytest.raises(Disconnected, match="closed"):
            transport.read_line(10)


def test_tcp_nobody_connecting_is_a_disconnection():
    with TcpTransport(0, "127.0.0.1", accept_timeout=0.2) as transport:
        with pytest.raises(Disconnected, match="nobody connected"):
            transport.connect()


def test_function_transport_answers_and_crashes():
    def respond(line):
        if line == "boom":
            raise RuntimeError("kaput")
        return None if line == "-B" else line + "!"
    transport = FunctionTransport("f", respond)
    transport.send_line("-B")
    transport.send_line("A1")
    assert transport.read_line(1) == "A1!"
    with pytest.raises(NoAnswer):
        transport.read_line(1)
    transport.send_line("boom")
    with pytest.raises(Disconnected, match="kaput"):
        transport.read_line(1)


@pytest.mark.parametrize("spec, message", [
    ("sim:max_trials", "NAME=NUMBER"),
    ("sim:colour=2", "unknown parameter 'colour'"),
    ("nonsense", "unknown player"),
    ("tcp:http", "port number"),
    ("tcp:70000", "0 to 65535"),
    ("random:3", "takes no argument"),
    ("/dev/nonexistent-port", "nonexistent-port"),
    ("cmd:", "needs a program"),
    ("model:speed=3", "unknown setting 'speed'"),
    ("model:depth", "NAME=VALUE"),
    ("model:depth=x", "depth must be a number"),
    ("model:width=0", "out of range"),
    ("model:board=zx81", "unknown board 'zx81'"),
    ("model:evasions=2", "out of range"),
    ("model:evasions=0,extension=1", "an extension needs the evasions"),
    ("model:evasions=0,tss=7", "a threat-space search needs the evasions"),
    ("model:evasions=0,every_attack=1", "judging every attack needs the evasions"),
    ("model:every_attack=2", "out of range"),
    ("model:table=17", "out of range"),
    ("model:table=-1", "out of range"),
    ("model:tss=4", "odd number of plies"),
    ("model:tss=1", "odd number of plies"),
])
def test_bad_player_specs_are_user_errors(spec, message):
    with pytest.raises(UserError, match=message):
        open_player(spec)


def test_the_simulated_board_not_installed_is_one_line_saying_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "fpgatrax.sim.board", None)    # its import then fails
    with pytest.raises(UserError, match=r"no module 'fpgatrax.sim.board'\): "
                                        r"pip install 'fpgatrax\[sim\]'"):
        open_player("sim")


def test_player_specs_open_the_right_transports():
    assert isinstance(open_player("greedy"), FunctionTransport)
    with open_player("loop://", PlayerOptions(baud=9600)) as port:
        assert isinstance(port, SerialTransport)
    with open_player("tcp:127.0.0.1:0") as tcp:
        assert isinstance(tcp, TcpTransport) and tcp.port > 0
    with open_player(f"cmd:{shlex.quote(sys.executable)} -c pass") as program:
        assert isinstance(program, CommandTransport)


def test_a_line_of_exactly_the_cap_is_read_whole_and_can_arrive_in_pieces():
    """MAX_LINE bytes and its LF make a line; MAX_LINE bytes whose LF is still on its way are a
    line being read, not an overlong one; one byte more is refused, either way."""
    exact = "A" * (MAX_LINE - 2) + "1+"
    code = (f"import sys, time\nsys.stdout.write({exact!r}); sys.stdout.flush()\n"
            "time.sleep(0.3)\nprint(flush=True)\ntime.sleep(30)")
    with child(code) as player:
        assert player.read_line(10) == exact
    code = f"import sys, time\nprint({exact!r}, flush=True)\ntime.sleep(30)"
    with child(code) as player:
        assert player.read_line(10) == exact
    code = (f"import sys, time\nsys.stdout.write('A' * {MAX_LINE + 1}); sys.stdout.flush()\n"
            "time.sleep(30)")
    with child(code) as player:
        with pytest.raises(LineTooLong):
            player.read_line(10)
