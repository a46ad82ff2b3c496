"""``perudo-search``: an information-set Monte Carlo player, the strong reference for Perudo.

- :mod:`.rollout`: one round played out fast with every die known (perudo-simple's
  policy for every seat) and the value of its end (the seat's share of the dice);
- :mod:`.worlds`: deals consistent with what the seat knows, the opponents' bids read
  through the expert's inference as a probability;
- :mod:`.candidates`: dudo, calza and a shortlist of raises, none certainly lost;
- :mod:`.search`: sequential halving over the candidates, budgeted in rollouts;
- :mod:`.bot`: the bot, which plays the solved endgames as ``perudo-expert:hard`` does.

See docs/perudo_search.md.
"""

from __future__ import annotations

from bots.perudo.search.bot import DEFAULT_NODES, PerudoSearch
from bots.perudo.search.search import Evaluation, SearchResult

__all__ = ["DEFAULT_NODES", "Evaluation", "PerudoSearch", "SearchResult"]
