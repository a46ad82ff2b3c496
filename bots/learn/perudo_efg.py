"""The OpenSpiel Perudo game written out once as an extensive-form game (Gambit ``.efg``).

OpenSpiel's C++ algorithms (``exploitability``, ``TabularBestResponse``, ``CFRSolver``)
walk a game's tree many times. On the Python game ``python_umpire_perudo`` every node
of every walk calls back into Python and replays the engine, and the C++ best response
keeps every history's Python state: more than 10 GB for the two-player, one-die game.
:func:`write_efg` walks that Python game **once** and writes its whole tree in Gambit's
format; ``pyspiel.load_efg_game`` then holds it as a plain C++ tree (under 1 GB) on which
those algorithms run in C++ only.

Nothing is recomputed: each node is the Python game's (its player, legal actions, chance
outcomes and probabilities, returns), each information set is named after the Python
game's information state string, and each action after the Python game's
``action_to_string`` (``1x4``, ``dudo``, ``starter:0``, ``die:5``). The only change:
Gambit's names cannot hold a double quote, so ``"`` is written ``'`` (:func:`efg_name`;
the Python strings hold no ``'``, which the writer checks). An EFG information state
string is ``"<player>-<player>-<number>-<name>"``; :func:`python_info` gives back the
Python game's string, so a policy keyed by the Python game's information states maps
across (:mod:`bots.learn.efg_policy`).

Defensively, each node lists its actions in the order of the ids OpenSpiel gives them
(their names' first appearance in the file): the EFG reader's source at one commit sorts
a node's action ids without its children, which would pair them wrongly otherwise.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TextIO

import pyspiel

from bots.learn.openspiel_perudo import PerudoGame


def efg_name(text: str) -> str:
    """A Python game's string as a Gambit name: ``"`` becomes ``'``."""
    if "'" in text:
        raise ValueError(f"a name holds a single quote, which the EFG form reserves: {text!r}")
    return text.replace('"', "'")


def python_info(efg_info_state: str) -> str:
    """The Python game's information state string of an EFG game's one."""
    return efg_info_state.split("-", 3)[3].replace("'", '"')


def python_action(game: PerudoGame, name: str) -> int:
    """The Python game's action of an EFG action name (``starter:1``, ``die:4``, ``2x3``)."""
    kind, _, value = name.partition(":")
    if kind == "starter":
        return int(value)
    if kind == "die":
        return int(value) - 1
    return game.encoding.action_index(name)


@dataclass
class EfgStats:
    """What :func:`write_efg` wrote."""

    decision_nodes: int = 0
    chance_nodes: int = 0
    terminals: int = 0
    infosets: list[int] = field(default_factory=list)  #: information sets per player


class _Ids:
    """OpenSpiel's action numbering: by first appearance of a name in the file."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}

    def order(self, names: list[str]) -> list[str]:
        """``names`` in increasing id order (new names last, numbered in that order)."""
        known = sorted((n for n in names if n in self.ids), key=self.ids.__getitem__)
        new = [n for n in names if n not in self.ids]
        for n in new:
            self.ids[n] = len(self.ids)
        return known + new


class _Writer:
    def __init__(self, game: PerudoGame, out: TextIO) -> None:
        self.game = game
        self.out = out
        self.players = game.num_players()
        self.actions = _Ids()
        self.outcomes = _Ids()
        self.numbers: list[dict[str, int]] = [{} for _ in range(self.players)]
        self.stats = EfgStats()

    def node(self, state: pyspiel.State) -> None:
        """Write ``state``'s node, then its children (Gambit's pre-order)."""
        if state.is_terminal():
            self.stats.terminals += 1
            payoffs = ", ".join(repr(float(r)) for r in state.returns())
            self.out.write(f't "" {self.stats.terminals} "" {{ {payoffs} }}\n')
            return
        if state.is_chance_node():
            self.stats.chance_nodes += 1
            probs = {state.action_to_string(pyspiel.PlayerId.CHANCE, a): (a, p)
                     for a, p in state.chance_outcomes()}  # fmt: skip
            names = self.outcomes.order(list(probs))
            listed = " ".join(
                f'"{efg_name(n)}" {Fraction(probs[n][1]).limit_denominator(10**6)}' for n in names
            )
            self.out.write(f'c "" {self.stats.chance_nodes} "" {{ {listed} }} 0\n')
            for n in names:
                self.node(state.child(probs[n][0]))
            return
        player = state.current_player()
        self.stats.decision_nodes += 1
        info = efg_name(state.information_state_string(player))
        numbers = self.numbers[player]
        number = numbers.setdefault(info, len(numbers) + 1)
        by_name = {state.action_to_string(player, a): a for a in state.legal_actions()}
        names = self.actions.order(list(by_name))
        listed = " ".join(f'"{efg_name(n)}"' for n in names)
        self.out.write(f'p "" {player + 1} {number} "{info}" {{ {listed} }} 0\n')
        for n in names:
            self.node(state.child(by_name[n]))


def write_efg(game: PerudoGame, out: TextIO, prefix: Sequence[int] = ()) -> EfgStats:
    """Write the Python game's tree (after the actions ``prefix``, if any) as an EFG file.

    With a ``prefix`` (say a starter and the first die) the file is the subgame from that
    state: a smaller game for tests, whose nodes are still the Python game's.
    """
    if game.num_players() != 2:
        raise ValueError("OpenSpiel's EFG reader is used here for two-player games only")
    state = game.new_initial_state()
    for action in prefix:
        state.apply_action(action)
    writer = _Writer(game, out)
    seats = " ".join(f'"seat {p}"' for p in range(game.num_players()))
    out.write(f'EFG 2 R "{efg_name(str(game))}" {{ {seats} }}\n""\n\n')
    writer.node(state)
    writer.stats.infosets = [len(n) for n in writer.numbers]
    return writer.stats


def compare_playout(
    game: PerudoGame, efg: pyspiel.Game, rng: random.Random, prefix: Sequence[int] = ()
) -> int:
    """Play one random game in both forms at once (the EFG game against the Python game
    after ``prefix``) and raise ``ValueError`` at the first difference: player, chance
    outcomes and probabilities, legal actions, the actor's information state, returns.
    Returns the number of decisions compared."""
    state = game.new_initial_state()
    for action in prefix:
        state.apply_action(action)
    twin = efg.new_initial_state()
    decisions = 0

    def differ(what: str, python: object, efg_form: object) -> ValueError:
        return ValueError(f"{what} differ after {state.history()}: {python!r} vs {efg_form!r}")

    while not state.is_terminal():
        player = state.current_player()
        if twin.current_player() != player:
            raise differ("players", player, twin.current_player())
        if state.is_chance_node():
            chances = {state.action_to_string(player, a): p for a, p in state.chance_outcomes()}
            theirs = {twin.action_to_string(player, a): (a, p) for a, p in twin.chance_outcomes()}
            if set(chances) != set(theirs) or any(
                abs(chances[n] - theirs[n][1]) > 1e-12 for n in chances
            ):
                raise differ("chance outcomes", chances, theirs)
            name = rng.choice(sorted(chances))
        else:
            decisions += 1
            info = state.information_state_string(player)
            if python_info(twin.information_state_string(player)) != info:
                raise differ("information states", info, twin.information_state_string(player))
            mine = {state.action_to_string(player, a) for a in state.legal_actions()}
            theirs = {twin.action_to_string(player, a): (a, 1.0) for a in twin.legal_actions()}
            if mine != set(theirs):
                raise differ("legal actions", sorted(mine), sorted(theirs))
            name = rng.choice(sorted(mine))
        state.apply_action(python_action(game, name))
        twin.apply_action(theirs[name][0])
    if not twin.is_terminal() or twin.returns() != state.returns():
        raise differ("returns", state.returns(), twin.returns())
    return decisions
