"""The ``kriegspiel-meta`` bot: reads its projections into a metaposition and searches it."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import Any, ClassVar

import chess

from bots.kriegspiel.meta.dtm import warm_in_background
from bots.kriegspiel.meta.metaposition import Metaposition
from bots.kriegspiel.meta.search import Searcher
from bots.kriegspiel.meta.update import observe
from bots.sdk.bot import Bot, Decision, GameInfo
from bots.sdk.budget import Budget, parse_budget

__all__ = ["KriegspielMeta"]

log = logging.getLogger(__name__)

_COMMANDS = frozenset({"resign", "offer_draw", "accept_draw", "decline_draw", "any"})

#: Levels: the default per-move time budget in seconds.
LEVELS = {"easy": 0.02, "normal": 0.2, "hard": 1.0}


class KriegspielMeta(Bot):
    """Plays Kriegspiel over metapositions (``docs/kriegspiel_meta.md``).

    ``seed`` makes its random tie breaks reproducible; ``budget`` is what it allows
    itself per attempt: seconds (a number: wall time, or what ``clock`` measures) or a
    :class:`~bots.sdk.budget.Budget` or its text (``nodes=3000``: counted
    search nodes, the same on any machine; ``cpu=0.2``: the thread's CPU seconds).
    ``level`` picks one of :data:`LEVELS` or is such a text (``kriegspiel-meta:nodes=3000``).
    A decision's clock (``time_left``) caps a budget in seconds. ``know_start`` says a
    custom starting position (option ``fen``) was shown to both players; by default only
    its material is taken as known. ``clock`` measures a budget in seconds (wall time by
    default; see :class:`Searcher`).
    """

    name: ClassVar[str] = "kriegspiel-meta"
    games: ClassVar[tuple[str, ...]] = ("kriegspiel",)
    levels: ClassVar[tuple[str, ...]] = tuple(LEVELS)

    def __init__(
        self,
        seed: int | None = None,
        level: str | None = None,
        *,
        budget: float | str | Budget | None = None,
        know_start: bool = False,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if level is not None and level not in LEVELS:
            if "=" not in level:
                raise ValueError(
                    f"unknown level {level!r}: use one of {', '.join(LEVELS)} or nodes=N"
                )
            budget = budget if budget is not None else level
        self.rng = random.Random(seed)
        if isinstance(budget, str):
            budget = parse_budget(budget)
        if isinstance(budget, Budget):
            clock = budget.clock()
            self.timed = budget.unit != "nodes"
            budget = budget.amount
        else:
            self.timed = True
        self.budget = budget if budget is not None else LEVELS[level or "normal"]
        self.know_start = know_start
        self.clock = clock
        self.meta: Metaposition | None = None
        self.resyncs = 0  #: times the own board disagreed with the view (a bug if ever > 0)
        self.attempts = 0
        self.moves = 0
        self.thinking = 0.0
        self.times: list[float] = []  #: seconds spent on each decision (for benchmarks)

    async def start(self, info: GameInfo) -> None:
        """Build the starting metaposition from the seat's colour and the public options."""
        await super().start(info)
        color = info.seat == 0  # seat 0 plays white (the view may be empty on a server)
        rules = str(info.options.get("rules", "wild16"))
        fen = info.options.get("fen")
        self.meta = Metaposition.from_start(
            color, rules, fen if isinstance(fen, str) else None, know_start=self.know_start
        )
        self.searcher = Searcher(self.rng, clock=self.clock)
        warm_in_background()  # the endgame tables, ready before an endgame needs them

    async def observe(self, event: dict[str, Any]) -> None:
        """Fold one projection into the metaposition."""
        if self.meta is None:
            return
        if event.get("type") == "move" and "move" in event:
            self.moves += 1
        self.searcher.witness(self.meta, event)
        observe(self.meta, event)

    async def decide(self, decision: Decision) -> str:
        """Pick an attempt among ``decision.legal`` by searching the metaposition."""
        legal = decision.legal
        attempts = [text for text in legal if text not in _COMMANDS]
        meta = self.meta
        if meta is None or not attempts:
            return self._passive(legal)
        self._sync(decision.view)
        if "accept_draw" in legal and not self._can_win(meta):
            return "accept_draw"
        if "any" in legal and self._worth_asking(meta):
            return "any"
        started = time.perf_counter()
        budget = self.budget
        if decision.time_left is not None and self.timed:
            budget = min(budget, max(0.01, decision.time_left / 40))
        choice = self.searcher.choose(meta, attempts, budget)
        spent = time.perf_counter() - started
        self.thinking += spent
        self.times.append(spent)
        self.attempts += 1
        if choice not in legal:  # never happens; stay within the rules regardless
            choice = self.rng.choice(attempts)
        return choice

    def _passive(self, legal: list[str]) -> str:
        for word in ("decline_draw", "offer_draw", "resign"):
            if word in legal:
                return word
        return self.rng.choice(legal)

    def _sync(self, view: dict[str, Any]) -> None:
        meta = self.meta
        assert meta is not None
        placement = view.get("board")
        if isinstance(placement, str) and placement != meta.own.board_fen():
            log.warning("own board out of step: %s != %s", placement, meta.own.board_fen())
            self.resyncs += 1
            rights = meta.own.castling_rights
            meta.own.set_board_fen(placement)
            meta.own.castling_rights = rights & meta.own.rooks
            meta.tighten()

    @staticmethod
    def _can_win(meta: Metaposition) -> bool:
        own = meta.own
        mine = own.occupied_co[meta.color] & ~own.kings
        return bool(mine & (own.pawns | own.rooks | own.queens)) or mine.bit_count() >= 2

    @staticmethod
    def _worth_asking(meta: Metaposition) -> bool:
        own = meta.own
        targets = 0
        for square in chess.SquareSet(own.pawns & own.occupied_co[meta.color]):
            targets |= chess.BB_PAWN_ATTACKS[meta.color][square]
        return bool(targets & (meta.maybe_units() | meta.their_ep))
