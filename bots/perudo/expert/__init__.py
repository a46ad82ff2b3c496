"""The Perudo expert system (``perudo-expert``): the source's production system rebuilt.

- :mod:`.model`: binomial probabilities of bids from known and unseen dice;
- :mod:`.inference`: opponents' dice inferred from their bids with loaded virtual dice (normal);
- :mod:`.reading`: hard's reading of the bids: a likelihood model, an exact posterior;
- :mod:`.profiles`: opponent profiles, this game's statistics, the ``auto`` trainer;
- :mod:`.levels`: the thresholds and what each difficulty level changes;
- :mod:`.rules` (with :mod:`.reasoning` and :mod:`.context`): the production rules by
  salience, their conditions and actions, and the working memory;
- :mod:`.explain`: explanations in English and Italian;
- :mod:`.advise`: :func:`advise`, the pure entry point; :mod:`.bot`: the bot.

See docs/perudo_expert.md.
"""

from __future__ import annotations

from bots.perudo.expert.advise import Advice, advise
from bots.perudo.expert.bot import PerudoExpert
from bots.perudo.expert.levels import LEVELS, Level, Thresholds
from bots.perudo.expert.profiles import OpponentProfile, TableStats, auto_level
from bots.perudo.expert.view import TableView

__all__ = [
    "LEVELS",
    "Advice",
    "Level",
    "OpponentProfile",
    "PerudoExpert",
    "TableStats",
    "TableView",
    "Thresholds",
    "advise",
    "auto_level",
]
