"""Policies of the Python Perudo game on its EFG form (:mod:`bots.learn.perudo_efg`).

:func:`infosets` walks the EFG game once and lists its information sets: each with its
player, its legal actions (EFG ids and the Python game's actions), one history of the
Python game that reaches it (to ask a bot there) and the player's previous information
set and action on the way (perfect recall: the same for every history of the set).

A policy of the Python game (``{python information state string: {python action: p}}``)
becomes a ``pyspiel.TabularPolicy`` of the EFG game with :func:`to_efg`, ready for
OpenSpiel's C++ ``exploitability``. :func:`mixture` turns a bot's seeded copies into the
behaviour policy of their mixture (Kuhn's theorem): at each information set, the seeds'
answers weighted by how likely each seed is to have reached it by its own earlier choices.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import pyspiel

from bots.learn.openspiel_perudo import PerudoGame
from bots.learn.perudo_efg import python_action, python_info

#: ``{python action: probability}``
Dist = dict[int, float]


@dataclass
class InfoSet:
    """One information set of the EFG game."""

    key: str  #: the EFG game's information state string
    player: int
    actions: dict[int, int]  #: EFG action id -> the Python game's action
    history: tuple[int, ...]  #: the Python game's actions of one history reaching it
    parent: tuple[str, int] | None  #: the player's previous set and Python action

    @property
    def python_key(self) -> str:
        """The Python game's information state string."""
        return python_info(self.key)


def infosets(efg: pyspiel.Game, game: PerudoGame, prefix: tuple[int, ...] = ()) -> list[InfoSet]:
    """Every information set of ``efg`` (written from ``game`` after ``prefix``), each
    after its player's previous one."""
    found: dict[str, InfoSet] = {}
    names: dict[tuple[bool, int], int] = {}

    def translate(state: pyspiel.State, player: int, action: int) -> int:
        key = (player == pyspiel.PlayerId.CHANCE, action)
        if key not in names:
            names[key] = python_action(game, state.action_to_string(player, action))
        return names[key]

    players = efg.num_players()
    stack: list[tuple[pyspiel.State, tuple[int, ...], tuple[tuple[str, int] | None, ...]]] = [
        (efg.new_initial_state(), prefix, (None,) * players)
    ]
    while stack:
        state, history, last = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            for action, _ in reversed(state.chance_outcomes()):
                move = translate(state, pyspiel.PlayerId.CHANCE, action)
                stack.append((state.child(action), (*history, move), last))
            continue
        player = state.current_player()
        key = state.information_state_string(player)
        legal = state.legal_actions()
        info = found.get(key)
        if info is None:
            moves = {a: translate(state, player, a) for a in legal}
            info = found[key] = InfoSet(key, player, moves, history, last[player])
        elif info.parent != last[player]:
            raise ValueError(f"imperfect recall at {key!r}")
        for action in reversed(legal):
            move = info.actions[action]
            mine = (*last[:player], (key, move), *last[player + 1 :])
            stack.append((state.child(action), (*history, move), mine))
    return list(found.values())


def to_efg(sets: list[InfoSet], policy: Mapping[str, Mapping[int, float]]) -> pyspiel.TabularPolicy:
    """The EFG game's ``TabularPolicy`` of a Python-game policy keyed by the Python game's
    information state strings (every set must be there, with every legal action)."""
    table: dict[str, list[tuple[int, float]]] = {}
    for info in sets:
        dist = policy[info.python_key]
        table[info.key] = [(a, float(dist.get(move, 0.0))) for a, move in info.actions.items()]
    return pyspiel.TabularPolicy(table)


def tabulate(
    sets: list[InfoSet], probs: Callable[[InfoSet], Mapping[int, float]]
) -> dict[str, Dist]:
    """``{python information state string: probs(set)}`` for every set."""
    return {info.python_key: dict(probs(info)) for info in sets}


def mixture(
    sets: list[InfoSet], answer: Callable[[InfoSet, int], Mapping[int, float]], seeds: int
) -> tuple[dict[str, Dist], int]:
    """The behaviour policy of the mixture of ``seeds`` seeded copies of a bot (each seed
    equally likely), and how many answers it took.

    ``answer(set, seed)`` is seed ``seed``'s action (or mix) there. A seed is asked only
    where its own earlier choices can lead; at a set no seed reaches, the policy is seed
    0's answer (it changes no expected value: the player never gets there).
    """
    reach: dict[str, list[float]] = {}
    answers: dict[str, list[Mapping[int, float] | None]] = {}
    policy: dict[str, Dist] = {}
    asked = 0
    for info in sets:
        if info.parent is None:
            mine = [1.0] * seeds
        else:
            before, move = info.parent
            mine = [
                r * (0.0 if a is None else float(a.get(move, 0.0)))
                for r, a in zip(reach[before], answers[before], strict=True)
            ]
        reach[info.key] = mine
        total = sum(mine)
        got: list[Mapping[int, float] | None] = []
        for seed, r in enumerate(mine):
            got.append(answer(info, seed) if r > 0 or (total == 0 and seed == 0) else None)
        asked += sum(a is not None for a in got)
        answers[info.key] = got
        dist: Dist = dict.fromkeys(info.actions.values(), 0.0)
        for r, a in zip(mine, got, strict=True):
            if a is not None:
                weight = r / total if total > 0 else 1.0
                for move, p in a.items():
                    dist[move] += weight * p
        policy[info.python_key] = dist
    return policy, asked
