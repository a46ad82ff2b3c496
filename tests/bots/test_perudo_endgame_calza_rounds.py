"""One die against two in a calza room: the model's leaf values, the shipped played
policies (loaded, checked, near an equilibrium under the model), hard playing them and
the words for a calza with two dice."""

from __future__ import annotations

import asyncio
from pathlib import Path

import numpy as np
import pytest

from bots.perudo.endgame import calza_rounds
from bots.perudo.endgame.calza import last_bet_calza
from bots.perudo.endgame.cfr import evaluate
from bots.perudo.endgame.exploit import BotOracle
from bots.perudo.endgame.policy import Policy, load, save
from bots.perudo.endgame.positions import round_start
from bots.perudo.endgame.solve import equilibrium_policy, round_policy
from bots.perudo.endgame.tree import CALZA_CODE, DUDO_CODE, bid_code, build, code_bid
from bots.perudo.expert import TableView, advise
from bots.registry import load_bot
from bots.sdk.bot import Bot
from server.games.perudo_actions import BIDS
from tests.bots.perudo_policies import wrong_moves_played


def _policy(a: int, b: int) -> Policy:
    policy = calza_rounds.calza_round_policy(a, b)
    assert policy is not None, f"round_{a}v{b}_calza.npz is shipped and fits today's tree"
    return policy


def test_the_models_values_come_from_the_solved_rounds() -> None:
    assert last_bet_calza(True).value == pytest.approx(calza_rounds.LAST_BET_CALZA_VALUE, abs=2e-3)
    r21 = round_policy(2, 1)
    r12 = round_policy(1, 2)
    assert r21 is not None and r12 is not None
    assert r21.value == pytest.approx(calza_rounds.ROUND_2V1_VALUE, abs=2e-3)
    v, lb = calza_rounds.ROUND_2V1_VALUE, calza_rounds.LAST_BET_VALUE
    q = (v - lb) / (1 - lb)  # the 2 v 1 round's chance that the one-die player loses
    assert pytest.approx(q + (1 - q) * v, abs=1e-4) == calza_rounds.THREE_V_ONE_VALUE
    assert pytest.approx(calza_rounds.two_v_two_value(), abs=1e-3) == calza_rounds.TWO_V_TWO_VALUE
    # a lost die by the one-die player ends the game; the two-dice player's leads to
    # the last bet with calza, which the loser opens
    assert calza_rounds.values(1, 2)[:2] == (-1.0, -calza_rounds.LAST_BET_CALZA_VALUE)
    assert calza_rounds.values(2, 1)[:2] == (calza_rounds.LAST_BET_CALZA_VALUE, 1.0)
    # a room of two: the two-dice caller gains nothing and opens 2 v 1 again
    assert calza_rounds.room_values(1, 2, 2, 0.6) == (*calza_rounds.values(1, 2)[:3], -0.6)
    assert calza_rounds.room_values(2, 1, 2, 0.6)[2] == 0.6
    with pytest.raises(ValueError, match="no calza model"):
        calza_rounds.values(2, 2)


@pytest.mark.parametrize("responder_calls", [True, False])
def test_the_1v2_trees_leaves_are_the_models_values(responder_calls: bool) -> None:
    # the opener (one die) bids 1x2; then the responder (two dice) calls calza, or bids
    # 2x2 and the opener calls calza. With three dice, one 2 (or ace) each with 1/3:
    # exactly one with 3 * 1/3 * 4/9 = 4/9, exactly two with 3 * 1/9 * 2/3 = 2/9.
    tree = build(1, 2, calza=True)
    l0, l1, c0, c1 = calza_rounds.values(1, 2)
    opening = tree.child(0, bid_code(BIDS[1][2]))
    assert opening is not None
    sigma = (np.ones((tree.size, 6)), np.ones((tree.size, 21)))
    sigma[0][tree.children(0)] = 0.0
    sigma[0][opening] = 1.0
    sigma[1][tree.children(opening)] = 0.0
    if responder_calls:
        end = tree.child(opening, CALZA_CODE)
        assert end is not None
        sigma[1][end] = 1.0
        value = 4 / 9 * c1 + 5 / 9 * l1
    else:
        raised = tree.child(opening, bid_code(BIDS[2][2]))
        assert raised is not None
        end = tree.child(raised, CALZA_CODE)
        assert end is not None
        sigma[1][raised] = 1.0
        sigma[0][tree.children(raised)] = 0.0
        sigma[0][end] = 1.0
        value = 2 / 9 * c0 + 7 / 9 * l0
    assert evaluate(tree, sigma, calza_rounds.values(1, 2))[0] == pytest.approx(value)


@pytest.mark.slow  # some 15 s a round: three passes over 786,037 nodes
@pytest.mark.parametrize(("a", "b"), calza_rounds.ROUNDS)
def test_the_shipped_policies_are_near_an_equilibrium_under_the_model(a: int, b: int) -> None:
    policy = _policy(a, b)
    assert policy.tree.calza and (policy.tree.a, policy.tree.b) == (a, b)
    found = calza_rounds.laid(policy)
    assert 0.0 <= found.exploitability <= calza_rounds.TOLERANCE
    assert found.value == pytest.approx(policy.value, abs=0.01)
    assert calza_rounds.SHIPPED_CALZA_ROUNDS[(a, b)].stat().st_size < 5_000_000


def test_a_file_solved_under_other_leaf_values_is_refused(tmp_path: Path) -> None:
    policy = _policy(1, 2)
    path = tmp_path / "p.npz"
    save(policy, path, (-1.0, 0.0, 0.0, 0.0))
    with pytest.raises(ValueError, match="leaf values"):
        load(path, policy.tree, calza_rounds.values(1, 2))
    with pytest.raises(ValueError, match="not a policy"):
        load(path, build(1, 2), calza_rounds.values(1, 2))
    save(policy, path, calza_rounds.values(1, 2))
    again = load(path, policy.tree, calza_rounds.values(1, 2))
    assert np.array_equal(again.key, policy.key)


@pytest.mark.parametrize(("a", "b"), calza_rounds.ROUNDS)
def test_the_played_policy_never_makes_a_move_that_cannot_win(a: int, b: int) -> None:
    policy = _policy(a, b)
    tree = policy.tree
    # no certainly-false bid, no dudo against a sure bid, no calza that cannot be exact
    assert wrong_moves_played(policy) == 0
    assert (tree.action[policy.child] == CALZA_CODE).any()
    assert (tree.action[policy.child] == DUDO_CODE).any()


def _hard(seed: int | None) -> Bot:
    return load_bot("perudo-expert:hard", seed=seed)[1]()


@pytest.mark.parametrize("start", [3, 2])
def test_hard_plays_the_solution_in_a_calza_1v2_room(start: int) -> None:
    policy = _policy(1, 2)
    oracle = BotOracle(_hard, lambda: round_start(1, 2, calza=True, dice_per_player=start))

    def asked(seat: int, hand: tuple[int, ...], codes: list[int]) -> dict[str, float]:
        return asyncio.run(oracle.ask(0, seat, hand, codes))

    for die in (1, 4):  # the one-die opener, at the opening
        mix = equilibrium_policy(die, [], opener=True, opponent_dice=2, policy=policy)
        assert mix is not None
        assert asked(0, (die,), []) == pytest.approx(mix, abs=1e-9)
    for codes in ([bid_code(BIDS[1][6])], [bid_code(BIDS[1][3])]):
        for hand in ((2, 5), (6, 6), (1, 3)):  # the two-dice responder
            bids = [code_bid(c) for c in codes]
            mix = equilibrium_policy(hand, bids, opener=False, opponent_dice=1, policy=policy)
            assert mix is not None
            assert asked(1, hand, codes) == pytest.approx(mix, abs=1e-9)


def _calza_position(policy: Policy, player: int) -> tuple[list[int], tuple[int, ...]]:
    """A history and a hand where ``player`` calls calza in ``policy``, shortest first."""
    tree = policy.tree
    calls = np.nonzero(tree.action[policy.child] == CALZA_CODE)[0]
    mine = calls[(policy.key[calls] // 64) // tree.size == player]
    often = [i for i in mine if policy.prob[i] >= 0.2] or list(mine)
    best = min(often, key=lambda i: int(policy.child[i]))  # nodes are breadth first
    node = int(tree.parent[policy.child[best]])
    codes: list[int] = []
    while node > 0:
        codes.append(int(tree.action[node]))
        node = int(tree.parent[node])
    return codes[::-1], tree.hands[player][int(policy.key[best] % 64)]


def test_hard_explains_a_calza_with_two_dice() -> None:
    policy = _policy(2, 1)
    codes, hand = _calza_position(policy, 0)
    bids = [(i % 2, code_bid(c)) for i, c in enumerate(codes)]
    view = TableView.build(0, list(hand), [2, 1], bids, calza=True, dice_per_player=5)
    advice = [advise(view, level="hard", seed=s) for s in range(60)]
    assert all(a.rules_fired == ("solved-endgame",) for a in advice)
    called = [a for a in advice if a.action == "calza"]
    assert called, "the solved mix calls calza here"
    en, it = called[0].explanation_en, called[0].explanation_it
    assert en.startswith("Calza: ")
    assert "with a die more if the game started with more than two each" in en
    assert "a wrong one costs you a die" in en and "con una sbagliata perdi un dado" in it
    assert "your two against your opponent's one" in en


def test_hard_explains_a_calza_with_one_die_against_two() -> None:
    policy = _policy(2, 1)
    codes, hand = _calza_position(policy, 1)
    bids = [(i % 2, code_bid(c)) for i, c in enumerate(codes)]
    view = TableView.build(1, list(hand), [2, 1], bids, calza=True, dice_per_player=5)
    called = [a for s in range(60) if (a := advise(view, level="hard", seed=s)).action == "calza"]
    assert called
    en, it = called[0].explanation_en, called[0].explanation_it
    assert "a wrong one loses the game" in en and "perdi la partita" in it
    assert "your one against your opponent's two" in en


def test_two_dice_each_in_a_calza_room_keeps_the_rules() -> None:
    view = TableView.build(0, [3, 4], [2, 2], [], calza=True, dice_per_player=5)
    assert advise(view, level="hard", seed=0).rules_fired != ("solved-endgame",)
