"""``kriegspiel-meta``: a Kriegspiel bot that reasons over metapositions.

Modules: :mod:`~bots.kriegspiel.meta.geometry` (bitboard helpers),
:mod:`~bots.kriegspiel.meta.metaposition` (what the seat knows),
:mod:`~bots.kriegspiel.meta.presence` (where the enemy's units probably stand),
:mod:`~bots.kriegspiel.meta.update` (folding projections in),
:mod:`~bots.kriegspiel.meta.evaluate` (static terms),
:mod:`~bots.kriegspiel.meta.endgames` (the hidden king's region),
:mod:`~bots.kriegspiel.meta.legality` (attempts already shown illegal, refusal chances),
:mod:`~bots.sdk.budget` (node and CPU-time budgets),
:mod:`~bots.kriegspiel.meta.search` (attempts and umpire answers),
:mod:`~bots.kriegspiel.meta.bot` (the :class:`~bots.sdk.bot.Bot`).
"""

from __future__ import annotations

from bots.kriegspiel.meta.bot import KriegspielMeta
from bots.kriegspiel.meta.metaposition import Metaposition
from bots.kriegspiel.meta.update import observe

__all__ = ["KriegspielMeta", "Metaposition", "observe"]
