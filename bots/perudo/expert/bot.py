"""The ``perudo-expert`` bot: plays what :func:`~bots.perudo.expert.advise` advises.

It follows its seat's projections with a :class:`~bots.perudo.table.PerudoTable`, counts
every seat's habits with :class:`~bots.perudo.expert.profiles.TableStats`, combines them
with the persistent profiles it was given, and at each decision asks :func:`advise` for
the move. ``last_advice`` keeps the latest advice (with its explanation) for inspection.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar

from bots.perudo.expert.advise import Advice, advise
from bots.perudo.expert.endgame import solved_move
from bots.perudo.expert.levels import LEVEL_NAMES, LEVELS
from bots.perudo.expert.profiles import OpponentProfile, TableStats, auto_level
from bots.perudo.expert.view import TableView
from bots.perudo.table import PerudoTable
from bots.sdk.bot import Bot, Decision, GameInfo, Json
from server.games.perudo_actions import Bid


class PerudoExpert(Bot):
    """The expert system of the source, on the bot SDK.

    ``level`` is ``easy``, ``normal`` (the default), ``hard`` or ``auto`` (chosen from
    the human opponents' profiles when the game starts; ``normal`` if none is known).
    ``seed`` fixes the bot's random stream (the virtual dice of its inference).
    ``profiles`` are opponents' persistent profiles by display name (as the server's
    ``profile`` request returns them); :meth:`set_profiles` may add them later.
    """

    name: ClassVar[str] = "perudo-expert"
    games: ClassVar[tuple[str, ...]] = ("perudo",)

    def __init__(
        self,
        level: str = "normal",
        seed: int | None = None,
        profiles: Mapping[str, OpponentProfile] | None = None,
    ) -> None:
        if level not in LEVEL_NAMES:
            raise ValueError(
                f"unknown perudo-expert level {level!r}: use one of {', '.join(LEVEL_NAMES)}"
            )
        self.requested_level = level
        self.level = "normal" if level == "auto" else level
        self.rng = random.Random(seed)
        self.named_profiles: dict[str, OpponentProfile] = dict(profiles or {})
        self.last_advice: Advice | None = None
        self.round_seed = self.rng.getrandbits(64)

    # -- knowledge -------------------------------------------------------------------

    def set_profiles(self, profiles: Mapping[str, OpponentProfile]) -> None:
        """Add or replace opponents' persistent profiles (by display name); with level
        ``auto`` the difficulty is chosen again."""
        self.named_profiles.update(profiles)
        if hasattr(self, "info"):
            self._resolve_level()

    def _seat_profiles(self) -> dict[int, OpponentProfile]:
        """Each opponent's persistent profile plus this game's statistics."""
        out: dict[int, OpponentProfile] = {}
        names = self.info.players
        for seat in range(self.info.seats):
            if seat == self.info.seat:
                continue
            stored = self.named_profiles.get(names[seat]) if seat < len(names) else None
            game = self.stats.profile(seat)
            out[seat] = stored.combined(game) if stored is not None else game
        return out

    def _resolve_level(self) -> None:
        if self.requested_level != "auto":
            return
        names = self.info.players
        opponents = [
            self.named_profiles[names[s]]
            for s in range(min(len(names), self.info.seats))
            if s != self.info.seat and names[s] in self.named_profiles
        ]
        self.level = auto_level(opponents)

    # -- the SDK callbacks -----------------------------------------------------------

    async def start(self, info: GameInfo) -> None:
        await super().start(info)
        self.table = PerudoTable.from_options(info.seat, info.options)
        self.stats = TableStats(info.seats)
        for seat, frame in info.profiles.items():
            if seat != info.seat and seat < len(info.players):
                self.named_profiles[info.players[seat]] = OpponentProfile.from_server(frame)
        self._resolve_level()

    async def observe(self, event: dict[str, Json]) -> None:
        self.table.observe(event)
        self.stats.observe(event)
        if event.get("type") == "round_started":
            self.round_seed = self.rng.getrandbits(64)

    def advise(self) -> Advice:
        """The advice for the current position (what :meth:`decide` plays)."""
        view = TableView.from_table(self.table, self.info.options)
        return advise(view, level=self.level, profiles=self._seat_profiles(), seed=self.round_seed)

    def decision_distribution(self, decision: Decision) -> dict[str, float] | None:
        """The mixed action :meth:`decide` samples from, where the expert plays a mixed
        strategy (the solved rounds: the last bet, one die against two, and two dice each
        from its tied abstraction, at ``hard``);
        ``None`` elsewhere (and at ``normal``, which plays the last bet half the time),
        where the action is a function of the bot's seed. The exploitability benchmark
        (``benchmarks/perudo_exploitability.py``) reads it to measure the mix exactly."""
        if self.level != "hard":
            return None
        view = TableView.from_table(self.table, self.info.options)
        move = solved_move(view, self.round_seed, two_v_two=LEVELS["hard"].solved_two_v_two)
        return None if move is None else dict(move.mix)

    async def decide(self, decision: Decision) -> str:
        advice = self.advise()
        self.last_advice = advice
        if advice.action in decision.legal:
            return advice.action
        # The table disagrees with the game (it cannot, if every event was observed):
        # fall back on the safest legal move rather than an illegal one.
        if "dudo" in decision.legal:
            return "dudo"
        return max(decision.legal, key=lambda t: self.table.probability(Bid.parse(t)))
