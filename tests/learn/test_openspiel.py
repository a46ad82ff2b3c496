"""Perudo as an OpenSpiel game: the engine's rules, OpenSpiel's chance, the seat's own
information only, and umpire's bots as OpenSpiel policies."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

from bots.learn.openspiel_perudo import PerudoState, starter_seeds
from bots.learn.openspiel_policy import BotPolicy, expert_factory, load
from server.games.perudo_dice import first_starter


def play_randomly(game: pyspiel.Game, seed: int) -> PerudoState:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            state.apply_action(rng.choice(outcomes)[0])
            continue
        player = state.current_player()
        engine = state.engine
        assert engine is not None and engine.to_move == player
        texts = sorted(engine.legal_texts(player))
        assert sorted(state.action_to_string(player, a) for a in state.legal_actions()) == texts
        state.apply_action(rng.choice(state.legal_actions()))
    assert isinstance(state, PerudoState)
    return state


@pytest.mark.parametrize("dice", [1, 2])
@pytest.mark.parametrize("players", [2, 3])
def test_random_games_follow_the_engine(players: int, dice: int) -> None:
    game = load(players, dice)
    assert game.num_players() == players
    for seed in range(20):
        state = play_randomly(game, seed)
        returns = state.returns()
        assert sum(returns) == pytest.approx(0.0) and max(returns) == 1.0
        engine = state.engine
        assert engine is not None and engine.outcome is not None
        assert returns.index(1.0) == engine.outcome.winners[0]


def test_clones_replay_to_the_same_state() -> None:
    game = load(2, 2)
    state = play_randomly(game, 3)
    assert isinstance(state, PerudoState)
    rebuilt = game.new_initial_state()
    for action in state.history():
        rebuilt.apply_action(action)
    assert str(rebuilt) == str(state)
    assert rebuilt.clone().information_state_string(0) == state.information_state_string(0)
    assert rebuilt.returns() == state.returns()


def test_pyspiel_conformance_checks_pass() -> None:
    pyspiel.random_sim_test(load(2, 1), num_sims=10, serialize=False, verbose=False)


def test_chance_draws_the_starter_and_each_die() -> None:
    seeds = starter_seeds(3)
    assert [first_starter(seed, 3) for seed in seeds] == [0, 1, 2]
    game = load(3, 1)
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    state.apply_action(2)
    for face in (4, 1, 6):
        assert state.chance_outcomes() == [(o, 1 / 6) for o in range(6)]
        state.apply_action(face - 1)
    assert state.current_player() == 2
    engine = state.engine
    assert engine is not None and engine.round.dice == [[4], [1], [6]]


def test_information_states_hold_only_the_seats_own_dice() -> None:
    game = load(2, 1)

    def after(dice: tuple[int, int], bids: list[str]) -> pyspiel.State:
        state = game.new_initial_state()
        state.apply_action(0)
        for face in dice:
            state.apply_action(face - 1)
        for text in bids:
            state.apply_action(game.encoding.action_index(text))
        return state

    a, b = after((3, 5), ["1x4"]), after((3, 2), ["1x4"])
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    assert '"dice":[5]' in a.information_state_string(1)
    assert "[5]" not in a.information_state_string(0)
    # Seat 0 bids one 4 holding a 3, seat 1 holds a 5 and calls dudo: no 4, no ace, the
    # bid was false, the bidder loses its only die; both streams now hold the reveal.
    c = after((3, 5), ["1x4", "dudo"])
    assert c.is_terminal() and c.returns() == [-1.0, 1.0]
    assert '"type":"reveal"' in c.information_state_string(0)
    assert '"dice":[5]' in c.information_state_string(0)


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_the_expert_as_an_openspiel_policy(level: str) -> None:
    game = load(2, 1)
    bot_policy = BotPolicy(game, expert_factory(level), samples=2)
    try:
        rng = random.Random(level)
        for _ in range(10):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(rng.choice(state.chance_outcomes())[0])
                    continue
                probs = bot_policy.action_probabilities(state)
                assert sorted(probs) == state.legal_actions()
                assert sum(probs.values()) == pytest.approx(1.0)
                state.apply_action(rng.choice([a for a, p in probs.items() if p > 0]))
    finally:
        bot_policy.close()


@pytest.mark.parametrize("rules", ["wild16", "english"])
def test_kriegspiel_as_an_openspiel_game(rules: str) -> None:
    from bots.learn import openspiel_kriegspiel

    game = pyspiel.load_game(openspiel_kriegspiel.SHORT_NAME, {"rules": rules})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    state = game.new_initial_state()
    e2e4 = 12 * 64 + 28
    assert state.current_player() == 0 and e2e4 in state.legal_actions()
    state.apply_action(e2e4)
    clone = state.clone()
    assert clone.information_state_string(1) == state.information_state_string(1)
    # Black heard that white moved, never where: its information has no e2e4.
    assert "e2e4" in state.information_state_string(0)
    assert "e2e4" not in state.information_state_string(1)
    assert "e4" not in state.observation_string(1)


def test_openspiel_mccfr_learns_on_umpires_rules() -> None:
    """OpenSpiel's outcome-sampling MCCFR (a CFR that samples one trajectory per
    iteration) runs on the game; exact CFR and exploitability walk all 294,696 decision
    histories and are measured by benchmarks/openspiel_perudo.py instead."""
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = load(2, 1)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    np.random.seed(0)  # MCCFR samples with numpy's global generator
    for _ in range(300):
        solver.iteration()
    average = solver.average_policy()
    state = game.new_initial_state()
    for action in (0, 5, 5):  # seat 0 starts; both hold a 6
        state.apply_action(action)
    probs = average.action_probabilities(state)
    assert set(probs) == set(state.legal_actions())
    assert sum(probs.values()) == pytest.approx(1.0)
    assert len(solver._infostates) > 100  # it visited and updated many information states
