"""Umpire's bots as OpenSpiel policies, so OpenSpiel can measure them (exploitability).

:class:`BotPolicy` answers ``action_probabilities(state)`` for a state of
:mod:`bots.learn.openspiel_perudo` by asking a fresh bot, through the bot SDK, what it
would play at that information state: the bot starts with the seat's first snapshot,
observes every projection the seat has received, and decides from its snapshot and legal
actions, exactly as in a game. A bot that draws random numbers (virtual dice, noise) is
asked ``samples`` times with different seeds, and the policy is the frequency of each
answer. A bot that states the mix it samples from (``decision_distribution``, as
``perudo-expert:hard`` does in the solved round) is taken at its word there, as
``benchmarks/perudo_exploitability.py`` does. Answers are cached per information state.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import pyspiel
from open_spiel.python import policy

from bots.learn.openspiel_perudo import PerudoGame, PerudoState
from bots.sdk.bot import Bot, Decision, GameInfo

#: ``factory(seed)``: a new bot with that random seed.
BotFactory = Callable[[int], Bot]


class BotPolicy(policy.Policy):  # type: ignore[misc]  # open_spiel has no type information
    """A bot as an OpenSpiel policy for every seat of a :class:`PerudoGame`."""

    def __init__(self, game: PerudoGame, factory: BotFactory, samples: int = 1) -> None:
        super().__init__(game, list(range(game.num_players())))
        self.umpire_game = game
        self.factory = factory
        self.samples = samples
        self.cache: dict[str, dict[int, float]] = {}
        self.loop = asyncio.new_event_loop()

    def action_probabilities(
        self, state: PerudoState, player_id: int | None = None
    ) -> dict[int, float]:
        """The bot's distribution over the legal actions at ``state``."""
        player = state.current_player() if player_id is None else player_id
        key = state.information_state_string(player)
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = self._ask(state, player)
        return found

    def _ask(self, state: PerudoState, seat: int) -> dict[int, float]:
        votes: dict[int, float] = defaultdict(float)
        for sample in range(self.samples):
            for action, p in self.answer(state, seat, sample).items():
                votes[action] += p / self.samples
        # Every legal action, unchosen ones at 0 (OpenSpiel's tabular best response
        # looks each one up).
        engine = state.table.engine
        assert engine is not None
        encoding = self.umpire_game.encoding
        indices = sorted(encoding.action_index(text) for text in engine.legal_texts(seat))
        return {action: votes[action] for action in indices}

    def answer(self, state: PerudoState, seat: int, seed: int) -> dict[int, float]:
        """What the bot ``factory(seed)`` plays at ``state``: the mix it states
        (``decision_distribution``, where it has one), else its one decision."""
        table = state.table
        engine = table.engine
        start = table.start_views[seat]
        assert engine is not None and start is not None
        encoding = self.umpire_game.encoding
        legal = engine.legal_texts(seat)
        decision = Decision(seat, engine.view(seat), legal)
        info = GameInfo(
            game="perudo",
            seat=seat,
            seats=engine.num_seats,
            options=engine.config.to_options(),
            view=start,
        )
        bot = self.factory(seed)
        mix = self.loop.run_until_complete(_mix(bot, info, table.heard[seat], decision))
        for text in mix:
            if text not in legal:
                raise ValueError(f"the bot chose {text!r}, not one of the legal actions")
        return {encoding.action_index(text): p for text, p in mix.items() if p > 0}

    def close(self) -> None:
        """Close the event loop the bots run in."""
        self.loop.close()


async def _mix(
    bot: Bot, info: GameInfo, heard: list[dict[str, Any]], at: Decision
) -> dict[str, float]:
    await bot.start(info)
    for projection in heard:
        await bot.observe(projection)
    stated = getattr(bot, "decision_distribution", None)
    if stated is not None:
        mix = stated(at)
        if mix is not None:
            return {str(text): float(p) for text, p in mix.items()}
    return {await bot.decide(at): 1.0}


def expert_factory(level: str) -> BotFactory:
    """The ``perudo-expert`` bot at ``level`` (easy, normal, hard), seeded."""
    from bots.perudo.expert import PerudoExpert

    def make(seed: int) -> Bot:
        return PerudoExpert(level=level, seed=seed)

    return make


def registry_factory(spec: str) -> BotFactory:
    """Any bot of ``bots/registry.py`` (``perudo-simple``, ``perudo-expert:hard``, ...),
    given the seed when its constructor takes one."""
    from bots.registry import load_bot

    def make(seed: int) -> Bot:
        try:
            return load_bot(spec, seed=seed)[1]()
        except TypeError:
            return load_bot(spec)[1]()

    return make


def load(players: int = 2, dice_per_player: int = 1) -> PerudoGame:
    """Load the registered OpenSpiel Perudo game for these parameters."""
    game = pyspiel.load_game(
        "python_umpire_perudo", {"players": players, "dice_per_player": dice_per_player}
    )
    assert isinstance(game, PerudoGame)
    return game
