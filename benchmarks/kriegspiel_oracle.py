"""Oracles for the conversion screen: the hero told part of the truth before each of its
own decisions, to measure what knowing it would be worth (issue 33, round forty).

An instrument, not a bot: ``kriegspiel-meta``'s code is untouched. ``screen --oracle
NAME`` (``benchmarks.kriegspiel_conversion``) wraps the hero's ``decide`` once its saved
decisions are replayed, and before each free decision edits the hero's metaposition from
the real board (kept by the game's event sink,
``tests.bots.kriegspiel_meta_harness.truth_sink``). Every edit keeps the metaposition's
invariant (each real enemy unit stands in its kind's set, the king in its set): it only
removes squares the truth rules out, so the bot plays on sound beliefs that are sharper
than it could have earned.

- ``king``: the king's set cut to its real square; ``kingR`` (``king1``, ``king2``...):
  to the squares of its set within ``R`` king steps of it (a box of ``2R + 1`` squares
  a side).
- ``everyN`` (``every10``...): the king's set cut to its real square at every ``N``-th of
  the hero's moves (when it has made a multiple of ``N``), left to widen in between.
- ``smallN`` (``small9``...): the king's set cut to its real square whenever it has at
  most ``N`` squares (what the hero's own narrowing would be worth finished).
- ``kinds``: every kind the enemy no longer has taken out of the sets, and the presence
  map's count of each kind set to the real one, its weights scaled where they stand (the
  kinds' counts known, not where the units are: round twenty's oracle on whole games).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import chess

from bots.kriegspiel.meta.bot import KriegspielMeta
from bots.kriegspiel.meta.endgames import king_spread
from bots.kriegspiel.meta.metaposition import Metaposition
from bots.kriegspiel.meta.presence import KINDS
from bots.sdk.bot import Decision

__all__ = ["NAMES", "Oracle", "parse_oracle"]

#: The oracles' names, as ``--oracle`` takes them (R and N whole numbers).
NAMES = ("king", "kingR", "everyN", "smallN", "kinds")
_NAME = re.compile(r"^(?:(king)(\d*)|(every|small)([1-9]\d*)|(kinds))$")


@dataclass(slots=True)
class Oracle:
    """One oracle (its ``name``); ``told`` counts the decisions it edited."""

    name: str
    kind: str  #: king, every, small or kinds
    number: int = 0  #: the box's reach (king), the period (every) or the set's size (small)
    told: int = 0
    #: the real position, kept by the game's event sink (``truth_sink(oracle.truth)``)
    truth: dict[str, chess.Board] = field(default_factory=dict)

    def tell(self, meta: Metaposition, board: chess.Board) -> None:
        """Edit ``meta`` (the hero's, before a decision) by the real ``board``."""
        if self.kind == "kinds":
            _kinds(meta, board)
        elif not self._king(meta, board):
            return
        self.told += 1

    def _king(self, meta: Metaposition, board: chess.Board) -> bool:
        """Cut the king's set as the oracle says; whether it was due now."""
        king = board.king(not meta.color)
        if king is None:
            return False
        if self.kind == "king":
            meta.may[chess.KING] &= _box(king, self.number)
            return True
        if self.kind == "every":
            due = len(meta.history) % self.number == 0
        else:  # small
            due = meta.may[chess.KING].bit_count() <= self.number
        if due:
            meta.may[chess.KING] = chess.BB_SQUARES[king]
        return due

    def attach(self, bot: Any, saved: Any) -> None:
        """Wrap ``bot``'s ``decide`` (a ``KriegspielMeta``'s, already wrapped to replay the
        ``saved`` decisions): once they are all replayed, each decision is told first."""
        if not isinstance(bot, KriegspielMeta):
            raise SystemExit(f"--oracle {self.name}: the hero must be kriegspiel-meta")
        inner = bot.decide

        async def told(decision: Decision) -> str:
            board = self.truth.get("board")
            if not saved and bot.meta is not None and board is not None:
                self.tell(bot.meta, board)
            choice: str = await inner(decision)
            return choice

        setattr(bot, "decide", told)  # noqa: B010 (an instance's own method)


def parse_oracle(text: str) -> Oracle:
    """The oracle ``text`` names (one of :data:`NAMES`); a clear error otherwise."""
    found = _NAME.match(text)
    if found is None:
        raise ValueError(f"no oracle {text!r}: one of {', '.join(NAMES)}")
    if found.group(1):
        return Oracle(text, "king", int(found.group(2) or 0))
    if found.group(3):
        return Oracle(text, found.group(3), int(found.group(4)))
    return Oracle(text, "kinds")


def _box(king: chess.Square, reach: int) -> int:
    """The squares within ``reach`` king steps of ``king``."""
    box = chess.BB_SQUARES[king]
    for _ in range(reach):
        box = king_spread(box)
    return box


def _kinds(meta: Metaposition, board: chess.Board) -> None:
    """The kinds' counts as they stand: a kind gone leaves its set; the presence map's
    mass of each kind is its real count, its weights scaled where they stand (spread
    over the set when the map held none) by :meth:`Presence.project`."""
    enemy = not meta.color
    for kind in KINDS:
        if not board.pieces_mask(kind, enemy):
            meta.may[kind] = 0
    presence = meta.presence
    if presence is None:
        return
    for kind in KINDS:
        presence.mass[kind] = float(board.pieces_mask(kind, enemy).bit_count())
    presence.project(meta.may, meta.caps(), meta.units)
