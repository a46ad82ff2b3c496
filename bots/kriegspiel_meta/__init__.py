"""``kriegspiel-meta``: a Kriegspiel bot that reasons over metapositions.

Modules: :mod:`~bots.kriegspiel_meta.geometry` (bitboard helpers),
:mod:`~bots.kriegspiel_meta.metaposition` (what the seat knows),
:mod:`~bots.kriegspiel_meta.presence` (where the enemy's units probably stand),
:mod:`~bots.kriegspiel_meta.update` (folding projections in),
:mod:`~bots.kriegspiel_meta.evaluate` (static terms),
:mod:`~bots.kriegspiel_meta.endgames` (the hidden king's region),
:mod:`~bots.kriegspiel_meta.legality` (attempts already shown illegal, refusal chances),
:mod:`~bots.kriegspiel_meta.budget` (node and CPU-time budgets),
:mod:`~bots.kriegspiel_meta.search` (attempts and umpire answers),
:mod:`~bots.kriegspiel_meta.bot` (the :class:`~bots.sdk.Bot`).
"""

from __future__ import annotations

from bots.kriegspiel_meta.bot import KriegspielMeta
from bots.kriegspiel_meta.metaposition import Metaposition
from bots.kriegspiel_meta.update import observe

__all__ = ["KriegspielMeta", "Metaposition", "observe"]
