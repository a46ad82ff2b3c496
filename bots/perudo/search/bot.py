"""The ``perudo-search`` bot: the solved endgames where they apply, a search elsewhere.

It follows its seat's projections with a :class:`~bots.perudo.table.PerudoTable`. In the
solved heads-up rounds (one die each, one die against two) it plays the equilibrium as
``perudo-expert:hard`` does (:func:`bots.perudo.expert.endgame.solved_move`); everywhere
else it runs :func:`~bots.perudo.search.search.search` with its budget of rollouts.
``last_search`` keeps the latest search (every candidate's value) for inspection.
"""

from __future__ import annotations

import random
from typing import ClassVar

from bots.perudo.expert.endgame import solved_move
from bots.perudo.expert.model import bid_probability
from bots.perudo.expert.view import TableView
from bots.perudo.search.search import SearchResult, search
from bots.perudo.table import PerudoTable
from bots.sdk.bot import Bot, Decision, GameInfo, Json
from bots.sdk.budget import parse_budget
from server.games.perudo_actions import Bid

#: Rollouts per decision by default (docs/perudo_search.md: about 20 ms a decision).
DEFAULT_NODES = 1000


def parse_nodes(budget: int | str | None) -> int:
    """A budget in rollouts from ``nodes=N`` text (as ``umpire tournament --budget`` and
    the spec ``perudo-search:nodes=N`` give it) or a number; a clear error for anything
    else, time budgets included (this bot is budgeted by counted work only)."""
    if budget is None:
        return DEFAULT_NODES
    if isinstance(budget, int):
        nodes = budget
    else:
        parsed = parse_budget(budget)
        if parsed.unit != "nodes":
            raise ValueError(f"perudo-search counts its work: give it nodes=N, not {budget!r}")
        nodes = int(parsed.amount)
    if nodes < 1:
        raise ValueError(f"perudo-search needs at least one node, not {nodes}")
    return nodes


class PerudoSearch(Bot):
    """Information-set Monte Carlo search for Perudo (docs/perudo_search.md).

    ``level`` is an optional budget text (``nodes=2000``, from the spec
    ``perudo-search:nodes=2000``); ``budget`` is the same (``umpire tournament --budget``)
    or a number of rollouts per decision (default :data:`DEFAULT_NODES`). ``seed`` fixes
    the bot's random stream: with the same seed and game it makes the same moves.
    """

    name: ClassVar[str] = "perudo-search"
    games: ClassVar[tuple[str, ...]] = ("perudo",)

    def __init__(
        self,
        level: str | None = None,
        seed: int | None = None,
        budget: int | str | None = None,
    ) -> None:
        self.nodes = parse_nodes(budget if budget is not None else level)
        self.rng = random.Random(seed)
        self.round_seed = self.rng.getrandbits(64)
        self.last_search: SearchResult | None = None

    async def start(self, info: GameInfo) -> None:
        await super().start(info)
        self.table = PerudoTable.from_options(info.seat, info.options)

    async def observe(self, event: dict[str, Json]) -> None:
        self.table.observe(event)
        if event.get("type") == "round_started":
            self.round_seed = self.rng.getrandbits(64)

    def view(self) -> TableView:
        """What the bot knows now, as the expert's :class:`TableView`."""
        return TableView.from_table(self.table, self.info.options)

    def choose(self, view: TableView) -> str:
        """The action for ``view``: the solved round's, or the search's."""
        move = solved_move(view, self.round_seed)
        if move is not None:
            self.last_search = None
            return move.action
        seed = (self.round_seed * 1_000_003 + len(view.bids)) & ((1 << 64) - 1)
        self.last_search = search(view, seed, self.nodes)
        return self.last_search.action

    def decision_distribution(self, decision: Decision) -> dict[str, float] | None:
        """The equilibrium's mix in a solved round (read by
        ``benchmarks/perudo_exploitability.py``); ``None`` elsewhere, where the action is
        a function of the bot's seed."""
        move = solved_move(self.view(), self.round_seed)
        return None if move is None else dict(move.mix)

    async def decide(self, decision: Decision) -> str:
        view = self.view()
        action = self.choose(view)
        if action in decision.legal:
            return action
        # The table disagrees with the game (it cannot, if every event was observed):
        # the safest legal move rather than an illegal one.
        if "dudo" in decision.legal:
            return "dudo"
        return max(
            decision.legal,
            key=lambda t: bid_probability(Bid.parse(t), view.dice, view.total, view.aces_wild),
        )
