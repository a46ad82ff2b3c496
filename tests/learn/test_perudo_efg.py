"""The Perudo OpenSpiel game written as an EFG game: the same game, OpenSpiel's C++
exploitability on it, and the behaviour policy of a mixture of seeded bots.

The whole two-player, one-die game takes minutes to write (``benchmarks/
openspiel_perudo.py`` does it once and checks it the same way); these tests write the
subgame after seat 0 starts holding a 3 (24,558 decisions, seat 1's die still a chance
node), which is the same code on a smaller tree.
"""

from __future__ import annotations

import io
import random
from collections.abc import Mapping

import pyspiel
import pytest

from bots.learn import efg_policy
from bots.learn.efg_policy import InfoSet
from bots.learn.openspiel_perudo import PerudoGame
from bots.learn.openspiel_policy import BotPolicy, expert_factory, load
from bots.learn.perudo_efg import compare_playout, efg_name, python_info, write_efg

PREFIX = (0, 2)  # seat 0 starts, seat 0's die is a 3


@pytest.fixture(scope="module")
def games() -> tuple[PerudoGame, pyspiel.Game, list[InfoSet]]:
    game = load(2, 1)
    out = io.StringIO()
    stats = write_efg(game, out, PREFIX)
    assert (stats.decision_nodes, stats.chance_nodes) == (24_558, 1)
    assert stats.infosets == [2_047, 12_276]  # seat 0: one die; seat 1: six dice
    efg = pyspiel.load_efg_game(out.getvalue())
    return game, efg, efg_policy.infosets(efg, game, PREFIX)


def test_the_efg_game_is_the_python_game(
    games: tuple[PerudoGame, pyspiel.Game, list[InfoSet]],
) -> None:
    game, efg, sets = games
    assert efg.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert efg.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    rng = random.Random(20)
    assert sum(compare_playout(game, efg, rng, PREFIX) for _ in range(300)) > 600
    assert len(sets) == 2_047 + 12_276
    # Each set's recorded history reaches it in the Python game, with its legal actions.
    for info in random.Random(1).sample(sets, 200):
        state = game.new_initial_state()
        for action in info.history:
            state.apply_action(action)
        assert state.current_player() == info.player
        assert state.information_state_string(info.player) == info.python_key
        assert sorted(info.actions.values()) == state.legal_actions()


def test_a_difference_is_found(games: tuple[PerudoGame, pyspiel.Game, list[InfoSet]]) -> None:
    """The check is not vacuous: the EFG game of another deal differs at once."""
    game, efg, _ = games
    with pytest.raises(ValueError, match="information states differ"):
        compare_playout(game, efg, random.Random(0), (0, 3))  # seat 0 holds a 4, not a 3


def test_names_map_back() -> None:
    text = 'p0\n{"bid":"1x3"}'
    assert python_info(f"0-0-17-{efg_name(text)}") == text
    with pytest.raises(ValueError, match="single quote"):
        efg_name("it's")


def _value(
    efg: pyspiel.Game, state: pyspiel.State, policies: list[Mapping[str, Mapping[int, float]]]
) -> float:
    """Seat 0's expected return with EFG-keyed policies ``{info state: {efg action: p}}``."""
    if state.is_terminal():
        return float(state.returns()[0])
    if state.is_chance_node():
        moves = state.chance_outcomes()
    else:
        player = state.current_player()
        moves = list(policies[player][state.information_state_string(player)].items())
    value: float = sum(p * _value(efg, state.child(a), policies) for a, p in moves if p > 0)
    return value


def test_a_mixture_of_seeds_is_worth_the_seeds_average(
    games: tuple[PerudoGame, pyspiel.Game, list[InfoSet]],
) -> None:
    """Kuhn's theorem, checked: against any opponent, the behaviour policy of a mixture
    of deterministic seeded policies is worth exactly the mean of the seeds' values."""
    _, efg, sets = games
    rng = random.Random(7)
    mine = [i for i in sets if i.player == 0]
    picks = {
        (i.key, seed): rng.choice(sorted(i.actions.values())) for i in mine for seed in range(3)
    }
    mixed, asked = efg_policy.mixture(mine, lambda i, seed: {picks[i.key, seed]: 1.0}, 3)
    assert asked < 3 * len(mine)  # each seed is asked only where it can arrive
    opponent = {i.key: {a: 1 / len(i.actions) for a in i.actions} for i in sets if i.player == 1}

    def efg_keyed(policy: Mapping[str, Mapping[int, float]]) -> dict[str, dict[int, float]]:
        return {
            i.key: {a: float(policy[i.python_key].get(m, 0.0)) for a, m in i.actions.items()}
            for i in mine
        }

    root = efg.new_initial_state()
    seeds = [
        _value(
            efg, root, [efg_keyed({i.python_key: {picks[i.key, s]: 1.0} for i in mine}), opponent]
        )
        for s in range(3)
    ]
    assert _value(efg, root, [efg_keyed(mixed), opponent]) == pytest.approx(sum(seeds) / 3)
    # and it is not the plain frequency of the seeds' answers
    frequency = {
        i.python_key: {
            m: sum(picks[i.key, s] == m for s in range(3)) / 3 for m in i.actions.values()
        }
        for i in mine
    }
    assert _value(efg, root, [efg_keyed(frequency), opponent]) != pytest.approx(sum(seeds) / 3)


def test_openspiel_exploitability_on_the_efg_game(
    games: tuple[PerudoGame, pyspiel.Game, list[InfoSet]],
) -> None:
    """OpenSpiel's C++ exploitability runs on the EFG game, for a Python-game policy (a
    bot's, through its information state strings) and for its own CFR."""
    game, efg, sets = games
    uniform = efg_policy.tabulate(
        sets, lambda i: {m: 1 / len(i.actions) for m in i.actions.values()}
    )
    bot = BotPolicy(game, expert_factory("hard"), samples=1)
    try:
        subset = [i for i in sets if len(i.history) <= 4]  # the first two decisions
        hard = {i.python_key: bot.action_probabilities(_state(game, i), i.player) for i in subset}
    finally:
        bot.close()
    assert any(0 < p < 1 for dist in hard.values() for p in dist.values())  # a stated mix
    policy = {**uniform, **hard}
    value = pyspiel.exploitability(efg, efg_policy.to_efg(sets, policy))
    assert 0 < value < pyspiel.exploitability(efg, efg_policy.to_efg(sets, uniform))
    solver = pyspiel.CFRPlusSolver(efg)
    for _ in range(20):
        solver.evaluate_and_update_policy()
    assert pyspiel.exploitability(efg, solver.average_policy()) < 0.05


def _state(game: PerudoGame, info: InfoSet) -> pyspiel.State:
    state = game.new_initial_state()
    for action in info.history:
        state.apply_action(action)
    return state
