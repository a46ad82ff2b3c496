"""The last bet with calza: the engine's rule heads-up, the tree's leaves, the shipped
solutions under their model, and hard playing them in a calza room."""

from __future__ import annotations

import numpy as np
import pytest

from bots.perudo.endgame import calza
from bots.perudo.endgame.cfr import evaluate, solve
from bots.perudo.endgame.exploit import measure_sync
from bots.perudo.endgame.positions import round_start
from bots.perudo.endgame.solve import LAST_BET_TREMBLE, round_policy
from bots.perudo.endgame.tree import CALZA_CODE, DUDO_CODE, bid_code, build
from bots.perudo.expert import TableView, advise
from bots.registry import load_bot
from bots.sdk.bot import Bot, Decision
from server.games.perudo_actions import BIDS, count_matching
from tests.bots.perudo_policies import wrong_moves_played


def _exact_bid(dice: list[tuple[int, ...]], right: bool) -> str:
    """An opening bid whose count over ``dice`` is exactly its quantity (or one more)."""
    every = tuple(d for hand in dice for d in hand)
    for face in range(2, 7):
        n = count_matching(every, BIDS[1][face], True)
        if n >= 1:
            return f"{n if right else n + 1}x{face}"
    raise AssertionError("two dice always count for some face")  # pragma: no cover


@pytest.mark.parametrize("start", [1, 2])
def test_the_engine_allows_calza_heads_up_with_one_die_each(start: int) -> None:
    for right in (True, False):
        game = round_start(1, 1, calza=True, dice_per_player=start).game
        assert game.counts == [1, 1] and game.to_move == 0
        game.apply(0, _exact_bid([tuple(d) for d in game.round.dice], right))
        assert "calza" in game.legal_texts(1)
        game.apply(1, "calza")
        if right:  # the caller gains a die (never above the start) and opens
            assert game.outcome is None
            assert game.counts == [1, min(2, start)] and game.to_move == 1
        else:  # the caller loses its only die: the game is over
            assert game.outcome is not None and game.outcome.winners == (0,)


def test_the_calza_trees_leaves_are_the_models_values() -> None:
    tree = build(1, 1, calza=True)
    assert all(
        int(tree.action[tree.child_start[n] + tree.child_count[n] - 1]) == CALZA_CODE
        for n in range(1, tree.size)
        if tree.actor[n] >= 0
    )
    opening = tree.child(0, bid_code(BIDS[1][2]))
    assert opening is not None
    for code, value in (
        # one 2 (or ace) per die: exactly one with 4/9, at least one with 5/9
        (CALZA_CODE, 4 / 9 * -calza.ROUND_2V1_VALUE + 5 / 9 * 1.0),
        (DUDO_CODE, 5 / 9 * 1.0 + 4 / 9 * -1.0),
    ):
        answer = tree.child(opening, code)
        assert answer is not None
        sigma = (np.ones((tree.size, 6)), np.ones((tree.size, 6)))
        sigma[0][tree.children(0)] = 0.0
        sigma[0][opening] = 1.0
        sigma[1][tree.children(opening)] = 0.0
        sigma[1][answer] = 1.0
        assert evaluate(tree, sigma, calza.values(True))[0] == pytest.approx(value)
    with pytest.raises(ValueError, match="calza"):
        evaluate(tree, sigma, (-1.0, 1.0))


@pytest.mark.parametrize("gain", [True, False])
def test_the_shipped_solutions_are_near_an_equilibrium_under_the_model(gain: bool) -> None:
    solution = calza.last_bet_calza(gain)
    assert solution.exploitability <= calza.TOLERANCE[gain]
    if gain:
        assert solution.exploitability < 0.01
        fresh = solve(build(1, 1, calza=True), calza.values(True), 100, LAST_BET_TREMBLE)
        assert solution.value == pytest.approx(fresh.value, abs=5e-3)
    else:  # its calzas are worth its own value: a fixed point
        assert calza.model_values(solution, False)[2] == pytest.approx(solution.value)


@pytest.mark.parametrize("gain", [True, False])
def test_the_played_policy_never_makes_a_move_that_cannot_win(gain: bool) -> None:
    policy = calza.calza_policy(gain)
    tree = policy.tree
    assert wrong_moves_played(policy) == 0
    assert (tree.action[policy.child] == CALZA_CODE).any()


def _hard(seed: int | None) -> Bot:
    return load_bot("perudo-expert:hard", seed=seed)[1]()


@pytest.mark.parametrize("gain", [True, False])
def test_hard_plays_the_solved_last_bet_in_a_calza_room(gain: bool) -> None:
    result = measure_sync(_hard, calza=gain)
    assert result.method == "exact"
    assert 0.0 <= result.value <= calza.TOLERANCE[gain]


def test_hard_calls_and_explains_calza() -> None:
    # holding a 3 after the opponent's opening "1x6": the solved mix calls calza about
    # half the time (right when the opener holds a 6 or an ace)
    view = TableView.build(1, [3], [1, 1], [(0, "1x6")], calza=True, dice_per_player=5)
    calls = [advise(view, level="hard", seed=s) for s in range(40)]
    assert all(a.rules_fired == ("solved-endgame",) for a in calls)
    called = [a for a in calls if a.action == "calza"]
    assert called, "the solved mix calls calza here"
    en, it = called[0].explanation_en, called[0].explanation_it
    assert en.startswith("Calza: at least 1 six is exactly right with probability")
    assert it.startswith("Calza: la dichiarazione «almeno 1 volta 6» è esatta con probabilità")
    assert len(called) < len(calls)  # a mix, not always calza
    assert "a wrong one loses the game" in en and "perdi la partita" in it
    assert "one each, and a lost die decides the game: the best play mixes" in en
    assert "chi perde il dado perde la partita: conviene alternare" in it


def test_easy_keeps_its_rules_in_a_calza_room() -> None:
    view = TableView.build(1, [4], [1, 1], [(0, "1x4")], calza=True, dice_per_player=5)
    assert advise(view, level="easy", seed=0).rules_fired != ("solved-endgame",)


def test_the_models_2v1_value_is_the_shipped_rounds() -> None:
    policy = round_policy(2, 1)
    assert policy is not None
    assert policy.value == pytest.approx(calza.ROUND_2V1_VALUE, abs=2e-3)


class _Overbidder(Bot):
    """Bids three sixes whenever it may (more dice than two players with one die hold)."""

    name = "overbidder"

    async def decide(self, decision: Decision) -> str:
        return "3x6" if "3x6" in decision.legal else "dudo"


def test_a_bid_of_more_dice_than_the_table_holds_is_challenged_and_loses() -> None:
    # in a room that started with two dice each, 3x6 is legal with one die each: the
    # best response calls dudo and wins the game, from either seat
    result = measure_sync(lambda seed: _Overbidder(), takes_seed=False, calza=True)
    assert result.method == "exact"
    assert result.against_opener == pytest.approx(1.0)
    assert result.against_responder == pytest.approx(1.0)
