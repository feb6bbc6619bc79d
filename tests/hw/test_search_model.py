"""The search model's promises, checked by brute force with the reference engine on positions
from real play: always legal, a win whenever one exists, never a move that lets the opponent win
at once when another move does not, the same choice and value as plain minimax without pruning,
and the trial limit honoured."""

import collections
import random

import pytest
from threat_proofs import positions_from_play, proof_by

from fpgatrax.host.rules.notation import parse_move
from fpgatrax.host.rules.position import DELTA, SYMBOL_TILES, Position, key_of, tile_symbol, xy_of
from fpgatrax.hw.search_model import (
    DEFAULT_DEPTH,
    DEFAULT_EXTENSION,
    DOUBLE_PLIES,
    LEAF_LIMIT,
    MAX_COUNT,
    MINE_WEIGHT,
    THREAT_WEIGHT,
    WIN,
    SearchModel,
    attacks_held,
    candidates_in_order,
    check_table,
    holds_attack,
    levels_of,
    makes_threat,
    threat_pair,
    tss_trials_for,
    window_of,
)


def wins_for(position, move, colour):
    position.play(move)
    won = position.outcome is not None and position.outcome.winner == colour
    position.undo()
    return won


def opponent_can_win_after(position, move):
    me = position.to_move
    position.play(move)
    if position.outcome is not None:
        position.undo()
        return position.outcome is not None
    can = any(wins_for(position, reply, 1 - me) for reply in position.legal_moves())
    position.undo()
    return can


@pytest.mark.parametrize("seed", range(4))
def test_search_keeps_its_promises(seed):
    for position in positions_from_play(12, seed):
        legal = position.legal_moves()
        me = position.to_move
        can_win = any(wins_for(position, m, me) for m in legal)
        can_hold = any(not opponent_can_win_after(position, m) for m in legal)
        for depth in (1, 2):
            choice = SearchModel(depth=depth).choose(position)
            assert choice.move in legal
            if can_win:
                assert wins_for(position, choice.move, me)
            elif can_hold:
                assert not opponent_can_win_after(position, choice.move)


def minimax(position, ply, depth, attack=None, leaf=False, evasions=True, every=False):
    """The value of ``position`` for the side to move, by plain negamax over every legal move
    (no pruning, the engine's own move list), with the model's leaf evaluation at the horizon
    (``leaf``: ply ``depth + 1``, or up to ``DEFAULT_EXTENSION`` plies deeper after a move that
    made an attack); elsewhere, under an ``attack`` made by the move before, a move that ends
    nothing and leaves both its squares empty is lost at the next ply. Without ``evasions``
    attacks change nothing; with ``every`` an attack is any track with adjacent end squares
    (``holds_attack``), a move that leaves the opponent one is lost at the next ply, and a
    leaf where the side to move can make two while the opponent holds none is won two plies
    later."""
    me = position.to_move
    moves = position.legal_moves()
    if leaf:
        squares = {"threats": set(), "mine": set(), "theirs": set()}
        double = False
        for move in moves:
            position.play(move)
            winner = position.outcome.winner if position.outcome else None
            if winner is None:
                for colour, name in ((me, "mine"), (1 - me, "theirs")):
                    if (holds_attack(position, colour) if every
                            else makes_threat(position, move[0], colour)):
                        squares[name].add(move[0])
                double |= (every and attack_counts(position, WHOLE_BOARD)[me] >= 2
                           and not holds_attack(position, 1 - me))
            position.undo()
            if winner == me:
                return WIN - ply
            if winner is not None:
                squares["threats"].add(move[0])
        if double:
            return WIN - ply - DOUBLE_PLIES
        count = {name: min(len(found), MAX_COUNT) for name, found in squares.items()}
        value = MINE_WEIGHT * count["mine"] - count["theirs"] - THREAT_WEIGHT * count["threats"]
        return max(-LEAF_LIMIT, min(LEAF_LIMIT, value))
    values = [move_value(position, move, ply, depth, attack, evasions, every) for move in moves]
    return max(values) if values else 0


def move_value(position, move, ply, depth, attacked=None, evasions=True, every=False):
    me = position.to_move
    position.play(move)
    try:
        if position.outcome is not None and position.outcome.winner is not None:
            return WIN - ply if position.outcome.winner == me else ply - WIN
        if every:
            if holds_attack(position, 1 - me):
                return ply + 1 - WIN
            made = holds_attack(position, me) or None
        else:
            if attacked is not None and not set(attacked) & position.tiles.keys():
                return ply + 1 - WIN
            made = threat_pair(position, move[0], me) if evasions else None
        leaf = ply >= depth and (made is None or ply >= depth + DEFAULT_EXTENSION)
        return -minimax(position, ply + 1, depth, made, leaf, evasions, every)
    finally:
        position.undo()


def attacker_proves(position, plies):
    """Whether the side to move wins within ``plies`` plies moving only moves that leave it an
    attack (any track one tile from a loop, ``holds_attack``), or the winning move itself,
    whatever the defender replies: a move that leaves the other side an attack loses (it
    closes that loop next), as in the search with every attack."""
    attacker = position.to_move
    for move in position.legal_moves():
        position.play(move)
        try:
            if position.outcome is not None:
                if position.outcome.winner == attacker:
                    return True
                continue
            if holds_attack(position, 1 - attacker):
                continue
            if plies > 1 and holds_attack(position, attacker) and \
                    defender_loses(position, plies - 1):
                return True
        finally:
            position.undo()
    return False


def defender_loses(position, plies):
    """Whether every legal reply (at least one) loses: it completes only the attacker's
    colour, leaves the attacker an attack, or lets the attacker prove a win after it."""
    defender = position.to_move
    replies = position.legal_moves()
    for move in replies:
        position.play(move)
        try:
            if position.outcome is not None:
                if position.outcome.winner != 1 - defender:
                    return False
                continue
            if not holds_attack(position, 1 - defender) and \
                    not attacker_proves(position, plies - 1):
                return False
        finally:
            position.undo()
    return bool(replies)


def positions_from_self_play(count, seed):
    """Positions of games of the 1-ply search with every attack against itself, from four
    random moves on: both sides attack, so the side to move often has moves that the
    opponent's forcing play wins against."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        position = Position()
        for _ in range(4):
            if position.outcome is None:
                position.play(rng.choice(position.legal_moves()))
        while position.outcome is None and len(found) < count:
            found.append(position.copy())
            position.play(SearchModel(depth=1, every_attack=True).choose(position).move)
    return found


def test_the_veto_chooses_the_best_move_the_opponent_cannot_prove_lost():
    """With a 3-ply veto (no trial limit), the choice is plain minimax's first move of the
    highest value once every move after which the opponent proves a win (by brute force,
    attacking within 3 plies) is worth ``3 + 1 - WIN`` (if it was worth more), and the veto
    turns some searches away from the move they would play without it."""
    veto, turned = 3, 0
    refuted_value = veto + 1 - WIN
    for position in positions_from_self_play(60, 1)[30:]:
        plain = SearchModel(depth=1, every_attack=True).choose(position)
        choice = SearchModel(depth=1, every_attack=True, veto=veto).choose(position)
        if plain.reason == "win":
            assert choice == plain
            continue
        legal = position.legal_moves()
        values = {}
        for move in [move for move in candidates_in_order(position) if move in legal]:
            value = move_value(position, move, 1, 1, every=True)
            position.play(move)
            if value > refuted_value and attacker_proves(position, veto):
                value = refuted_value
            position.undo()
            values[move] = value
        best = max(values.values())
        chosen = next(move for move, value in values.items() if value == best)
        assert (choice.move, choice.value) == (chosen, best)
        turned += choice.move != plain.move
    assert turned >= 2


# Depth 3 takes minutes of brute force (two and a half a position on a CI machine): the whole
# suite runs it on one position, `make test-fast` not.
@pytest.mark.parametrize("depth,positions,evasions,every", [
    (1, 24, True, False), (2, 10, True, False), (2, 10, False, False), (1, 24, True, True),
    (2, 8, True, True), pytest.param(3, 3, True, False, marks=pytest.mark.slow)])
def test_pruned_search_chooses_as_plain_minimax(depth, positions, evasions, every):
    extension = DEFAULT_EXTENSION if evasions else 0
    for position in positions_from_play(positions, 11 + depth)[2::2]:
        choice = SearchModel(depth=depth, extension=extension, evasions=evasions,
                             every_attack=every).choose(position)
        if choice.reason == "win":
            continue
        legal = position.legal_moves()
        order = [move for move in candidates_in_order(position) if move in legal]
        chosen = None
        for iteration in range(1, depth + 1):
            # The previous choice first, then raster order: the first of the highest value.
            values = {move: move_value(position, move, 1, iteration, evasions=evasions,
                                       every=every)
                      for move in ([chosen] if chosen else []) + order}
            best = max(values.values())
            chosen = next(move for move, value in values.items() if value == best)
        assert (choice.move, choice.value, choice.reason) == (chosen, best, "best")


def positions_from_random_play(count, seed):
    """Every third position of random games: wilder than the search's own games, with more
    moves that lose at once among the candidates."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        position = Position()
        while position.outcome is None and len(found) < count:
            if len(position.moves) % 3 == 2:
                found.append(position.copy())
            position.play(rng.choice(position.legal_moves()))
    return found


def test_in_random_play_too_the_search_values_as_plain_minimax(monkeypatch):
    """One ply and its leaf evaluation on positions from random play: the value the search
    gives every root move, not only the one it chooses (exact at one ply: a leaf takes no
    window), is plain negamax's."""
    positions = positions_from_random_play(30, 3)
    valued, value = {}, SearchModel._value

    def noted(self, position, move, ply, *window):
        result = value(self, position, move, ply, *window)
        if ply == 1 and self._attacker is None:
            valued[move] = result
        return result

    monkeypatch.setattr(SearchModel, "_value", noted)
    compared = 0
    for position in positions:
        valued.clear()
        if SearchModel(depth=1, extension=0, evasions=False).choose(position).reason == "win":
            continue
        legal = position.legal_moves()
        assert {move for move, v in valued.items() if v is not None} == set(legal)
        for move in legal:
            assert valued[move] == move_value(position, move, 1, 1, evasions=False), move
            compared += 1
    assert compared > 300


def test_max_trials_bounds_the_trials():
    for position in positions_from_play(20, 5)[2::3]:
        unlimited = SearchModel(depth=2).choose(position)
        for max_trials in (1, 50, 400):
            choice = SearchModel(max_trials, depth=2).choose(position)
            win_pass = len(candidates_in_order(position))
            assert choice.trials <= max(max_trials, win_pass + 1)
            assert choice.move in position.legal_moves()
            if unlimited.trials < max_trials:
                assert choice == unlimited


def first_win(position):
    """The first winning move in the search's order, and the moves before it; or None."""
    order = candidates_in_order(position)
    legal = position.legal_moves()
    wins = [move for move in order if move in legal and wins_for(position, move, position.to_move)]
    return (wins[0], order[:order.index(wins[0])]) if wins else None


def test_the_win_pass_plays_the_first_win_and_counts_the_moves_it_tried():
    found = 0
    for position in positions_from_play(40, 9):
        if (win := first_win(position)) is not None:
            found += 1
            choice = SearchModel(depth=2).choose(position)
            assert (choice.move, choice.reason, choice.depth) == (win[0], "win", 0)
            assert choice.trials == len(win[1]) + 1
    assert found >= 3


def test_the_win_pass_goes_on_past_illegal_moves_to_a_win():
    """Positions from random play (the search's own games seldom have them) where a move the
    search tries before the first win is illegal: the win pass still finds the win."""
    rng, found = random.Random(4), 0
    while found < 3:
        position = Position()
        while position.outcome is None and found < 3:
            legal = position.legal_moves()
            win = first_win(position)
            if win is not None and any(move not in legal for move in win[1]):
                found += 1
                choice = SearchModel(depth=1).choose(position)
                assert (choice.move, choice.reason) == (win[0], "win")
                assert choice.trials == len(win[1]) + 1
            position.play(rng.choice(legal))


def test_a_win_found_at_the_horizon_is_valued_by_its_ply():
    """A two-ply search that sees its win at the leaf (the third ply): the value is that of a
    win at ply 3, as plain minimax values it."""
    found = 0
    for position in positions_from_play(60, 31):
        choice = SearchModel(depth=2).choose(position)
        if choice.reason == "best" and choice.value > LEAF_LIMIT:
            found += 1
            assert choice.value == WIN - 3 == move_value(position, choice.move, 1, 2)
    assert found >= 2


def test_no_ply_of_the_search_tries_a_square_outside_the_window(monkeypatch):
    """The array holds only its window: every move the search tries, at every ply, is inside
    it, and the games reach its edges."""
    positions = positions_from_play(16, 6)[8:]
    tried, trial = [], SearchModel._trial

    def noted(self, position, move):
        tried.append((xy_of(move[0]), self._window))
        return trial(self, position, move)

    monkeypatch.setattr(SearchModel, "_trial", noted)
    for position in positions:
        SearchModel(depth=2, window=(5, 5)).choose(position)
    assert all(x0 <= x <= x1 and y0 <= y <= y1 for (x, y), (x0, y0, x1, y1) in tried)
    edges = {(x, y) for (x, y), (x0, y0, x1, y1) in tried if x in (x0, x1) or y in (y0, y1)}
    assert len(tried) > 1000 and edges


def test_a_reply_with_no_square_left_in_the_window_is_worth_nothing():
    """Positions from random play whose tiles fill their bounding box but one square, searched
    two plies in a window of just that box: the move fills the hole, and the reply, with no
    square left to try, is valued 0 (neither side's win)."""
    rng, found = random.Random(2), 0
    while found < 5:
        position = Position()
        while position.outcome is None and found < 5:
            if position.tiles:
                x0, y0, x1, y1 = box = position.bbox
                holes = [key_of(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)
                         if key_of(x, y) not in position.tiles]
                if len(holes) == 1:
                    choice = SearchModel(depth=2, window=(x1 - x0 + 1, y1 - y0 + 1)).choose(
                        position, region=box)
                    if choice.reason != "win":
                        found += 1
                        assert (choice.move[0], choice.value) == (holes[0], 0)
            position.play(rng.choice(position.legal_moves()))


def test_killer_moves_save_trials_and_change_no_choice(monkeypatch):
    """A reply that cut a node off is tried first at its ply in the next nodes: over positions
    from play, fewer trials than without the killers, and the same moves and values."""
    positions = positions_from_play(12, 8)[1::2]
    with_killers = [SearchModel(depth=2).choose(position) for position in positions]
    monkeypatch.setattr(SearchModel, "_killer", lambda self, candidates, ply: None)
    without = [SearchModel(depth=2).choose(position) for position in positions]
    assert [(c.move, c.value) for c in with_killers] == [(c.move, c.value) for c in without]
    assert sum(c.trials for c in with_killers) < sum(c.trials for c in without)


def test_a_search_cut_short_keeps_the_best_move_so_far_and_says_so():
    """Trial limits that run out inside the second iteration: the move valued best so far in
    it, "unfinished", with the first iteration as the deepest finished."""
    seen = set()
    for position in positions_from_play(12, 21)[1::2]:
        whole = SearchModel(depth=2).choose(position)
        if whole.reason != "best":
            continue
        for limit in range(whole.trials - 30, whole.trials, 3):
            choice = SearchModel(limit, depth=2).choose(position)
            assert choice.reason in ("unfinished", "best"), choice
            seen.add(choice.reason)
            if choice.reason == "unfinished":
                assert choice.depth == 1 and choice.move in position.legal_moves()
    assert "unfinished" in seen


def test_candidate_order_is_raster_then_symbol():
    position = positions_from_play(12, 7)[-1]
    order = candidates_in_order(position)
    assert order == sorted(order, key=lambda m: (m[0], "+/\\".index(tile_symbol(m[1]))))
    assert set(order) == set(position.candidates())
    # On the empty board: the two first moves the rules allow, as the notation reads them.
    empty = Position()
    assert candidates_in_order(empty) == [parse_move(empty, "@0+"), parse_move(empty, "@0/")]


def test_same_position_same_choice():
    position = positions_from_play(15, 3)[-1]
    assert SearchModel(400, depth=2).choose(position) == SearchModel(400, depth=2).choose(position)


def test_threat_space_search_plays_the_first_proven_win():
    """The threat-space search (5 plies, no trial limit) plays a root move exactly when plain
    AND/OR search proves one wins, and then the first such move in candidate order; it runs
    after the win pass and before the negamax, whose choice it leaves alone otherwise."""
    proofs = 0
    for position in positions_from_play(24, 21)[3::2]:
        choice = SearchModel(depth=1, tss=5).choose(position)
        plain = SearchModel(depth=1).choose(position)
        if plain.reason == "win":
            assert choice == plain
            continue
        legal = position.legal_moves()
        proven = next((move for move in candidates_in_order(position)
                       if move in legal and proof_by(position, move, 1, 5)), None)
        if proven is None:
            assert choice.reason != "threat" and choice.move == plain.move
        else:
            proofs += 1
            assert (choice.reason, choice.move) == ("threat", proven)
            # Its value is a win the attacker completes at an odd ply within the 5, its trials
            # all that the search made (the win pass's too), and no negamax iteration finished.
            assert choice.value in {WIN - ply for ply in (1, 3, 5)}
            model = SearchModel(depth=1, tss=5)
            assert model.choose(position).trials == model.trials > len(legal)
            assert choice.depth == 0
    assert proofs >= 2       # the positions hold proofs to find


def test_the_array_has_a_level_for_every_ply_the_search_tries(monkeypatch):
    """``levels_of`` (the trial levels the gateware's arrays get) covers the deepest ply at
    which the search tries a move, and no more: the negamax's leaf ply after attack
    extensions, or the threat-space search's last ply."""
    deepest = {}

    def trial(self, position, move):
        key = (self.depth, self.extension, self.tss)
        deepest[key] = max(deepest.get(key, 0), len(position.moves) - self.root_plies + 1)
        return original(self, position, move)

    positions = positions_from_play(16, 23)[4::3]
    original = SearchModel._trial
    monkeypatch.setattr(SearchModel, "_trial", trial)
    settings = [(1, 0, 0), (2, 0, 0), (1, 1, 0), (2, 1, 0), (1, 1, 5)]
    for position in positions:
        for depth, extension, tss in settings:
            model = SearchModel(depth=depth, extension=extension, tss=tss)
            model.root_plies = len(position.moves)
            model.choose(position)
    for depth, extension, tss in settings:
        assert deepest[depth, extension, tss] == levels_of(depth, extension, tss)


def test_a_search_starts_afresh_after_another():
    """A model that has searched before chooses, with the same trials, as a new one: nothing
    (killer moves above all) carries over from one search to the next."""
    positions = positions_from_play(30, 9)[4::3]
    used = SearchModel(600, depth=2)
    for before, position in zip(positions, positions[1:], strict=False):
        used.choose(before)
        assert used.choose(position) == SearchModel(600, depth=2).choose(position)


def test_the_window_centres_the_tiles_with_the_odd_square_after_them():
    """Tiles over 3 columns and 2 rows in a 6×5 array: 3 squares to spare each way, 1 before
    the tiles and 2 after (the gateware's WINDOW halves the same way, rounding down)."""
    tile = SYMBOL_TILES["+"][0]
    position = Position.of_tiles({key_of(0, 0): tile, key_of(2, 1): tile}, [])
    assert window_of(position, (6, 5)) == (-1, -1, 4, 3)
    assert window_of(position, (7, 4)) == (-2, -1, 4, 2)
    # An empty board: the first tile's square, (0, 0), at the centre square.
    assert window_of(Position(), (6, 5)) == (-2, -2, 3, 2)
    assert window_of(Position(), (5, 6)) == (-2, -2, 2, 3)


def test_an_attack_counts_only_with_both_ends_inside_the_window():
    """The array cannot see an end outside it: with either end of an attack's track left out
    of the window, there is no attack; with both in, the same pair."""
    found = 0
    for position in positions_from_play(60, seed=5):
        for move in position.legal_moves():
            colour = position.to_move
            position.play(move)
            pair = threat_pair(position, move[0], colour)
            if pair is not None and position.outcome is None:
                found += 1
                (ax, ay), (bx, by) = xy_of(pair[0]), xy_of(pair[1])
                both = (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))
                assert threat_pair(position, move[0], colour, both) == pair
                assert threat_pair(position, move[0], colour, (ax, ay, ax, ay)) is None
                assert threat_pair(position, move[0], colour, (bx, by, bx, by)) is None
            position.undo()
    assert found > 20


WHOLE_BOARD = (-9999, -9999, 9999, 9999)


def attack_counts(position, window):
    """How many tracks of white and of red have two end squares adjacent and inside ``window``
    (x0, y0, x1, y1), by walking every track of the position."""
    found = [0, 0]
    for colour in (0, 1):
        seen = set()
        for key in position.tiles:
            if (key, colour) in seen:
                continue
            ends = position.track_ends(key, colour, seen)
            if ends is None:
                continue
            (ax, ay), (bx, by) = (xy_of(k + DELTA[d]) for k, d in ends)
            inside = all(window[0] <= x <= window[2] and window[1] <= y <= window[3]
                         for x, y in ((ax, ay), (bx, by)))
            if abs(ax - bx) + abs(ay - by) == 1 and inside:
                found[colour] += 1
    return found


def test_holds_attack_finds_every_track_one_tile_from_a_loop():
    """``holds_attack`` against a walk of every track, on positions of play and of random
    games, in and out of windows that cut the board; and with both colours and with attacks
    made by something other than the last move met."""
    met = collections.Counter()
    positions = positions_from_play(40, seed=8) + positions_from_random_play(120, seed=9)
    for position in positions:
        x0, y0, x1, y1 = position.bbox or (0, 0, 0, 0)
        for window in (None, (x0, y0, x1, y1), (x0 + 1, y0, x1 + 1, y1 - 1)):
            counts = attack_counts(position, window or WHOLE_BOARD)
            want = {colour for colour, count in enumerate(counts) if count}
            got = {colour for colour in (0, 1) if holds_attack(position, colour, window)}
            assert got == want, (position.moves, window)
            for colour, count in enumerate(counts):
                assert attacks_held(position, colour, window) == min(count, 2), position.moves
                met["double"] += count >= 2
            met[len(want)] += 1
            if position.moves and not any(
                    threat_pair(position, key, colour, window)
                    for key in position.placed_last() for colour in want):
                met["not by the last turn"] += bool(want)
    assert met[1] > 20 and met[2] > 2 and met["not by the last turn"] > 5, met
    assert met["double"] > 5, met


def test_no_leaf_reaches_a_win_the_search_can_see():
    """A leaf's value is capped below the value of any win the negamax can find (a win at ply
    p is worth WIN - p, and the deepest ply is the depth plus the extension), so a found win
    always outranks a leaf."""
    deepest = max(DEFAULT_DEPTH, 3) + DEFAULT_EXTENSION
    assert LEAF_LIMIT < WIN - deepest
    for position in positions_from_play(20, 13)[3::4]:
        choice = SearchModel(depth=1, extension=0).choose(position)
        if choice.reason == "best":
            assert abs(choice.value) <= LEAF_LIMIT


def test_a_node_stops_at_the_first_value_that_reaches_beta(monkeypatch):
    """Alpha-beta's cut: a node values no move after one whose value reaches its beta (equal
    counts: the gateware cuts on the same comparison, and the trials must match), and it does
    cut there. Traced on positions from play, which must hold cuts at equality."""
    nodes, finished = [], []
    node, value = SearchModel._node, SearchModel._value

    def traced_node(self, position, ply, alpha, beta, attack):
        nodes.append((beta, []))
        try:
            return node(self, position, ply, alpha, beta, attack)
        finally:
            finished.append(nodes.pop())

    def traced_value(self, position, move, ply, alpha, beta, best, attacked):
        result = value(self, position, move, ply, alpha, beta, best, attacked)
        if nodes:
            nodes[-1][1].append(result)
        return result

    monkeypatch.setattr(SearchModel, "_node", traced_node)
    monkeypatch.setattr(SearchModel, "_value", traced_value)
    for position in positions_from_play(20, 17)[3::3]:
        SearchModel(depth=2).choose(position)
    at_equality = 0
    for beta, values in finished:
        reached = [i for i, v in enumerate(values) if v is not None and v >= beta]
        if reached:
            assert reached[0] == len(values) - 1, (beta, values)
            at_equality += values[reached[0]] == beta
    assert at_equality >= 5


def test_the_threat_space_search_gives_up_at_its_share_of_the_trials():
    """``tss_trials_for``: a board's threat-space search stops at a whole share of the trial
    limit, less than all of it, and a board without one has none; a search given that share
    ends its proof attempts within it (the win pass's trials counted)."""
    assert tss_trials_for(4000, 0) == 0
    share = tss_trials_for(4000, 5)
    assert isinstance(share, int) and 0 < share < 4000
    for position in positions_from_play(24, 21)[3::2]:
        choice = SearchModel(4000, depth=1, tss=5, tss_trials=share).choose(position)
        if choice.reason == "threat":
            assert choice.trials <= share


def test_a_table_of_leaf_values_saves_trials_and_changes_no_value():
    """A leaf taken from the table has the value its scan would have had: with a table of two
    entries (overwritten all the time, so its check of the key's rest is what keeps values
    right) or of 1,024, every iteration chooses the move and value of the search without one,
    in no more trials, and with 1,024 in fewer on every position the negamax searched (these
    all repeat leaves; a win found by the win pass has none)."""
    fewer, searched = 0, 0
    for position in positions_from_play(6, 5):
        plain_search = SearchModel(window=(9, 9), depth=3, every_attack=True)
        plain = plain_search.choose(position)
        searched += plain.reason == "best"
        for table in (1, 10):
            search = SearchModel(window=(9, 9), depth=3, every_attack=True, table=table)
            tabled = search.choose(position)
            assert search.iterations == plain_search.iterations
            assert (plain.move, plain.value) == (tabled.move, tabled.value)
            assert tabled.trials <= plain.trials
            fewer += table == 10 and tabled.trials < plain.trials
    assert fewer == searched >= 4


@pytest.mark.parametrize("table, window, message", [
    (17, (9, 9), "table from 1 to 16"), (-1, (9, 9), "table from 1 to 16"),
    (4, None, "needs a window")])
def test_a_table_that_cannot_be_is_refused(table, window, message):
    with pytest.raises(ValueError, match=message):
        check_table(table, window)
    with pytest.raises(ValueError, match=message):
        SearchModel(window=window, table=table)
