"""The live view in a real headless Chromium (Debian's, which ``.ci/run`` installs; the test
fails, never skips, without it): the page shows the tiles of a known record, a move appended
to the record appears without a reload, a finished game shows its result and its winning
track, and the arrow keys step back through the moves."""

import asyncio
import json
import socket
import threading
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from fpgatrax.host.match.live import LiveGames, LiveServer, watch_folder
from fpgatrax.host.pictures.svg import render_svg
from fpgatrax.host.puzzles.board import format_puzzle, square_name
from fpgatrax.host.puzzles.make import make_puzzle
from fpgatrax.host.rules.record import parse_record, replay

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
NS = {"svg": "http://www.w3.org/2000/svg"}
# A game that white wins by a loop on move 7 (greedy against random).
GAME = "greedy vs random\n@0+ B1+ @1\\ D1+ @1/ C0+\n"
LAST = "B3/"


def tiles_of(text):
    """(square, symbol) of every tile ``show --svg`` draws for the record ``text``."""
    root = ET.fromstring(render_svg(replay(parse_record(text)).position))
    return {(g.get("data-square"), g.get("data-symbol"))
            for g in root.findall("svg:g[@class='tile']", NS)}


@pytest.fixture
def page(tmp_path):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the live view's test needs Debian's Chromium at {CHROMIUM}: apt-get "
                    "install chromium (.ci/run does)")
    record = tmp_path / "game.txt"
    record.write_text(GAME)
    games, stop = LiveGames(), threading.Event()
    server = LiveServer(games, 0).start()
    watcher = threading.Thread(target=watch_folder, args=(tmp_path, games, stop, 0.1),
                               daemon=True)
    watcher.start()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_page()
            page.goto(server.url)
            yield page, record
        finally:
            browser.close()
            stop.set()
            server.stop()


def test_a_listener_that_left_is_not_woken_and_the_others_are():
    """The server's open event streams listen for changes; one that closed stops listening,
    and the change still reaches the rest."""
    games, loop = LiveGames(), asyncio.new_event_loop()
    stay, leave = asyncio.Event(), asyncio.Event()
    games.listen(loop, stay)
    games.listen(loop, leave)
    games.unlisten(leave)
    games.start("alice", "bob")
    loop.run_until_complete(asyncio.sleep(0))       # the wake-ups the change scheduled
    loop.close()
    assert stay.is_set() and not leave.is_set()


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_server_listens_on_the_port_asked_and_serves_pictures_as_svg():
    games, port = LiveGames(), free_port()
    games.start("alice", "bob")
    server = LiveServer(games, port).start()
    try:
        assert server.url == f"http://127.0.0.1:{port}/"
        with urllib.request.urlopen(server.url + "svg/0/0", timeout=10) as answer:
            assert answer.headers.get_content_type() == "image/svg+xml"
            assert answer.read().startswith(b"<svg")
    finally:
        server.stop()


def test_the_server_answers_on_this_machines_own_address_only():
    """Unless told another host, the page is for this machine: 127.0.0.1 answers, another
    address (127.0.0.2, this machine too on Linux, but not the one asked) does not."""
    server = LiveServer(LiveGames(), 0).start()
    try:
        with urllib.request.urlopen(server.url + "state", timeout=10) as answer:
            assert answer.status == 200
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.2", server.port), timeout=5)
    finally:
        server.stop()


def test_one_event_stream_carries_change_after_change():
    """The page keeps one connection to /events: each change comes down it as a new event,
    without the page reconnecting."""
    games = LiveGames()
    server = LiveServer(games, 0).start()
    try:
        with urllib.request.urlopen(server.url + "events", timeout=10) as stream:
            events = []
            for step in range(3):
                line = stream.readline()
                while not line.startswith(b"data: "):
                    assert line, f"the stream ended after {len(events)} events"
                    line = stream.readline()
                events.append(json.loads(line[len(b"data: "):]))
                stream.readline()                               # the blank line after it
                games.start(f"white{step}", "black")
        assert [len(event["games"]) for event in events] == [0, 1, 2]
    finally:
        server.stop()


def test_a_puzzle_in_the_folder_is_shown_then_its_solution(tmp_path):
    """A puzzle file beside the records: step 0 is its board (the givens), step 1 the solution
    the solver finds, drawn tile for tile, and the verdict is the result."""
    (tmp_path / "game.txt").write_text(GAME)
    puzzle, answer = make_puzzle("line", 5, "hard", seed=3)
    (tmp_path / "puzzle.txt").write_text(format_puzzle(puzzle))
    games, stop = LiveGames(), threading.Event()
    server = LiveServer(games, 0).start()
    watcher = threading.Thread(target=watch_folder, args=(tmp_path, games, stop, 0.1),
                               daemon=True)
    watcher.start()
    try:
        for _ in range(100):
            if len(games.summary()["games"]) == 2:
                break
            stop.wait(0.1)
        shown = games.summary()["games"][1]
        assert (shown["white"], shown["black"]) == ("puzzle puzzle.txt", "line puzzle, 5×5")
        assert shown["result"] == "the solution is unique"
        for step, tiles in ((0, puzzle.givens), (1, answer)):
            with urllib.request.urlopen(f"{server.url}svg/1/{step}", timeout=10) as reply:
                root = ET.fromstring(reply.read())
            faces = {g.get("data-square"): g.find("svg:rect", NS).get("class")
                     for g in root.findall(".//svg:g[@class='tile']", NS)}
            assert faces.keys() == {square_name(s) for s in tiles}
            assert {k for k, face in faces.items() if face == "face"} == \
                {square_name(s) for s in puzzle.givens}
    finally:
        stop.set()
        server.stop()


def drawn(page):
    return {(g.get_attribute("data-square"), g.get_attribute("data-symbol"))
            for g in page.query_selector_all("#board svg g.tile")}


def test_the_page_follows_a_record_as_it_grows(page):
    page, record = page
    page.wait_for_function("document.querySelectorAll('#board svg g.tile').length > 0")
    assert drawn(page) == tiles_of(GAME)
    assert page.inner_text("#result") == "playing"
    assert page.inner_text("#players") == "greedy (white) vs random (black)"
    page.evaluate("window.marker = 1")            # gone if the page reloads
    record.write_text(GAME.rstrip("\n") + f" {LAST}\n")
    finished = tiles_of(GAME + LAST)
    page.wait_for_function(f"document.querySelectorAll('#board svg g.tile').length == "
                           f"{len(finished)}")
    assert drawn(page) == finished
    assert page.evaluate("window.marker") == 1
    assert page.inner_text("#moves li:last-child") == LAST
    page.wait_for_function("document.getElementById('result').textContent.includes('wins')")
    assert page.inner_text("#result") == "white wins by loop on move 7"
    assert page.query_selector_all("#board svg path.win-band")


def test_the_arrow_keys_step_through_the_moves(page):
    page, _ = page
    page.wait_for_function("document.querySelectorAll('#board svg g.tile').length > 0")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    before = GAME.split("\n")[1].split()[:4]
    page.wait_for_function("document.getElementById('at').textContent == 'move 4 of 6'")
    expected = tiles_of("x vs y\n" + " ".join(before) + "\n")
    page.wait_for_function(f"document.querySelectorAll('#board svg g.tile').length == "
                           f"{len(expected)}")
    assert drawn(page) == expected


def test_the_referee_feeds_the_page_its_moves_times_and_result():
    """What ``match --web`` does: each judged move, with its time, then the result."""
    from fpgatrax.host.bots import make_bot
    from fpgatrax.host.bots.session import BotSession
    from fpgatrax.host.link.transport import FunctionTransport
    from fpgatrax.host.match.referee import play_game
    from fpgatrax.host.rules.record import moves_text

    games = LiveGames()
    number = games.start("greedy", "random")
    players = [FunctionTransport(n, BotSession(make_bot(n, 5), "standard").respond)
               for n in ("greedy", "random")]
    result = play_game(*players, on_move=lambda p, c, text, timing: games.move(number, text,
                                                                               timing))
    games.finish(number, result.summary())
    shown = games.summary()["games"][0]
    assert [m["text"] for m in shown["moves"]] == moves_text(result.position)
    assert all(m["time"].endswith(" s") for m in shown["moves"])
    assert shown["result"] == result.summary()
    assert games.picture(0, len(result.position.moves)) == render_svg(result.position)
