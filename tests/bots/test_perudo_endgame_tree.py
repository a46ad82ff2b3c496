"""The solver's model of a heads-up round is umpire's engine: same actions, same payoffs."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bots.perudo.endgame.exploit import CONFIG, _game_seed
from bots.perudo.endgame.tree import DUDO_CODE, bid_code, build, code_bid, hands
from server.games.perudo import Perudo, new_game
from server.games.perudo_actions import BIDS, Bid


def _history(tree_action: list[int]) -> list[str]:
    return ["dudo" if c == DUDO_CODE else str(code_bid(c)) for c in tree_action]


def test_bid_codes_round_trip() -> None:
    for q in range(1, 10):
        for f in range(1, 7):
            assert code_bid(bid_code(BIDS[q][f])) == Bid(q, f)


def test_hands_are_every_roll_with_its_chance() -> None:
    for k in (1, 2, 3):
        hs, w = hands(k)
        assert len(hs) == len(set(hs))
        assert abs(w.sum() - 1.0) < 1e-12
    assert hands(2)[1][hands(2)[0].index((1, 2))] == 2 / 36


def test_every_node_of_the_last_bet_round_offers_the_engines_legal_actions() -> None:
    tree = build(1, 1)
    seed = _game_seed()
    for node in range(tree.size):
        if tree.actor[node] < 0:
            continue
        path: list[int] = []
        n = node
        while n > 0:
            path.append(int(tree.action[n]))
            n = int(tree.parent[n])
        game, _ = new_game(CONFIG, seed)
        assert isinstance(game, Perudo)
        for text in _history(path[::-1]):
            mover = game.to_move
            assert mover is not None
            game.apply(mover, text)
        mover = game.to_move
        assert mover == int(tree.actor[node])  # the opener is seat 0
        offered = sorted(_history([int(tree.action[c]) for c in tree.children(node)]))
        assert offered == sorted(game.legal_texts(mover))


@settings(max_examples=200, deadline=None)
@given(seed=st.binary(min_size=8, max_size=8), picks=st.lists(st.integers(0, 10**6), max_size=8))
def test_a_dudo_costs_the_die_the_tree_says(seed: bytes, picks: list[int]) -> None:
    """Play the engine to a dudo; the truth table and the challenger say who loses."""
    game, _ = new_game(CONFIG, seed)
    assert isinstance(game, Perudo)
    tree = build(1, 1)
    opener = game.to_move
    assert opener is not None
    node = 0
    for pick in picks:
        children = [c for c in tree.children(node) if tree.action[c] != DUDO_CODE]
        if not children:
            break
        node = children[pick % len(children)]
        mover = game.to_move
        assert mover is not None
        game.apply(mover, str(code_bid(int(tree.action[node]))))
    if node == 0:
        mover = game.to_move
        assert mover is not None
        node = next(iter(tree.children(0)))
        game.apply(mover, str(code_bid(int(tree.action[node]))))
    challenger = game.to_move
    assert challenger is not None
    own = [tuple(sorted(game.round.dice[s])) for s in (opener, 1 - opener)]
    bid_true = bool(
        tree.truth[int(tree.last[node])][tree.hands[0].index(own[0]), tree.hands[1].index(own[1])]
    )
    events = game.apply(challenger, "dudo")
    changed = next(e.truth for e in events if e.truth["type"] == "dice_changed")
    assert changed["seat"] == (challenger if bid_true else 1 - challenger)


def test_the_depth_ranges_cover_every_node_once() -> None:
    # The deepest level (the dudo, or calza, after the highest bid) was left out: its
    # range had no end, so the passes never set a reach there and read whatever the
    # memory held (a flaky overflow warning in the best-response test).
    for calza in (False, True):
        tree = build(1, 1, calza=calza)
        starts = tree.depth_start
        assert starts[0] == 0 and starts[-1] == tree.size
        assert all(starts[d] < starts[d + 1] for d in range(len(starts) - 1))
        for d in range(1, len(starts) - 1):
            level = range(starts[d], starts[d + 1])
            assert all(starts[d - 1] <= tree.parent[n] < starts[d] for n in level)
