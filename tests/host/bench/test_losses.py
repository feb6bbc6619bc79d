"""Where the search lost its games: the first lost move, held to plain AND/OR proof search,
and the report over a strength run's records."""

import pytest
from threat_proofs import attacker_proves

from fpgatrax.host.bench import leaves, losses, strength
from fpgatrax.host.match.model import parse_settings, proof_search
from fpgatrax.host.rules.position import Position
from fpgatrax.hw.search_model import holds_attack


def lost_by_oracle(position, move):
    """Whether ``move`` loses for the side to move: only the opponent's colour completed, or the
    opponent then proves a win within 3 plies."""
    me = position.to_move
    position.play(move)
    try:
        outcome = position.outcome
        if outcome is not None:
            return outcome.winner not in (None, me)
        return attacker_proves(position, 1, 3)
    finally:
        position.undo()


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    """Records of a weak model (its first legal move) against greedy, which it mostly loses."""
    folder = tmp_path_factory.mktemp("games")
    strength.main(["--games", "4", "--opponent", "greedy", "--model", "max_trials=1",
                   "--jobs", "1", "--record", str(folder)])
    return folder


@pytest.mark.parametrize("skip", [0, losses.BOOK_PLIES, 9])
def test_the_first_lost_move_is_the_first_the_oracle_proves_lost(records, skip):
    """The first move after ``skip`` plies that the oracle proves lost, whichever ``skip``."""
    games = list(losses._lost_games(records))
    assert games
    found = 0
    for _, moves, colour in games:
        before, number = losses.first_lost_move(moves, colour, proof_search(3, None), skip)
        position = Position()
        for index, move in enumerate(moves, 1):
            if position.to_move == colour and index > skip:
                lost = lost_by_oracle(position, move)
                assert lost == (index == number), index
                if lost:
                    assert before.moves == position.moves
                    found += 1
                    break
            position.play(move)
    assert found


def test_report_counts_the_lost_games_and_names_the_reply_before(records, capsys):
    games = {name: (moves, colour) for name, moves, colour in losses._lost_games(records)}
    losses.main([str(records), "--model", "max_trials=1", "--plies", "3", "--trials", "2000"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"# {len(games)} lost games")
    assert len(out) == len(games) + 3
    earlier, replies = {"attack": 0, "quiet": 0}, set()
    for row in out[2:-1]:
        name, _, lost_at, held, *_, depth, value, _, reply = row.split()
        if lost_at == "-":
            continue
        moves, colour = games[name]
        position = Position()
        for move in moves[:int(lost_at) - 1]:
            position.play(move)
        assert position.to_move == colour
        board = parse_settings("max_trials=1").search().choose(position.copy())
        assert (int(depth), int(value)) == (board.depth, board.value), name
        assert reply == ("attack" if holds_attack(position, 1 - colour) else "quiet"), name
        earlier[reply] += held == "0"
        replies.add(reply)
    assert replies == {"attack", "quiet"}
    assert out[-1].endswith(f"by an attack of the opponent's and {earlier['quiet']} by a "
                            f"quiet move")
    assert f", {sum(earlier.values())}, were decided earlier, {earlier['attack']} by" in out[-1]


def test_the_report_judges_only_the_moves_after_the_skipped_plies(records, capsys):
    def lost_at(skip):
        losses.main([str(records), "--model", "max_trials=1", "--plies", "3", "--trials",
                     "2000", "--skip-plies", str(skip)])
        rows = capsys.readouterr().out.splitlines()[2:-1]
        return [int(row.split()[2]) for row in rows if row.split()[2] != "-"]

    assert any(number <= 9 for number in lost_at(0))
    assert all(number > 9 for number in lost_at(9))


@pytest.mark.parametrize("tool", [losses, leaves])
def test_negative_skipped_plies_are_one_line(tool, records, capsys):
    with pytest.raises(SystemExit) as exit:
        tool.main([str(records), "--skip-plies", "-1"])
    assert exit.value.code == 1
    assert capsys.readouterr().err.strip().splitlines() == [
        f"{tool.PROG}: error: --skip-plies is at least 0"]


def test_an_empty_folder_is_one_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit:
        losses.main([str(tmp_path)])
    assert exit.value.code == 1
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
