"""perudo-search: legal, never certainly wrong, deterministic for a seed, within budget.

"Certainly wrong" is from the seat's own view, as in issue 18: a bid its own dice prove
false whatever the unseen dice show, a dudo its own dice prove lost, a calza they rule
out. The budget is counted: every rollout the search plays is one node.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bots.perudo.search.search as search_module
from bots.baseline import PerudoSimple
from bots.perudo.expert.endgame import solved_move
from bots.perudo.expert.view import TableView
from bots.perudo.search import PerudoSearch
from bots.perudo.search.bot import parse_nodes
from bots.perudo.search.rollout import Deal, Result, play_out
from bots.perudo.search.search import search
from bots.registry import load_bot
from bots.sdk.bot import Bot
from bots.sdk.local import play_local
from tests.bots.perudo_views import certainly_loses, situations


@settings(max_examples=150, deadline=None)
@given(view=situations(), seed=st.integers(0, 2**64 - 1))
def test_the_search_plays_legal_moves_never_certainly_wrong(view: TableView, seed: int) -> None:
    legal = view.legal_actions()
    if not legal or all(certainly_loses(view, a) for a in legal):
        return  # nothing to play, or every move loses: any is as good
    result = search(view, seed, 60)
    assert result.action in legal
    assert not certainly_loses(view, result.action), (result, view)
    for evaluation in result.evaluations:
        assert not certainly_loses(view, evaluation.action)


def test_two_dice_on_the_table_it_never_outbids_them() -> None:
    """Issue 18's case, outside the solved rounds (calza on): one die each, 2x5 on the
    table; three of anything is certainly false (one ace is still possible)."""
    for die in range(1, 7):
        view = TableView.build(0, [die], [1, 1], [(1, "2x5")], calza=True)
        for seed in range(5):
            action = search(view, seed, 40).action
            assert action in ("dudo", "calza", "1x1"), action
            assert not certainly_loses(view, action)


def test_the_same_seed_gives_the_same_search() -> None:
    view = TableView.build(1, [2, 2, 5, 1], [4, 4, 3], [(0, "3x2"), (2, "4x6")])
    assert search(view, 7, 300) == search(view, 7, 300)
    # the seed is what varies the worlds: other seeds, other estimates
    assert len({search(view, seed, 300).evaluations for seed in range(4)}) > 1


@pytest.mark.parametrize("nodes", [1, 2, 7, 40, 333, 1000])
def test_the_budget_is_respected_by_count(nodes: int, monkeypatch: pytest.MonkeyPatch) -> None:
    played = 0
    real: Callable[[Deal, str], Result] = play_out

    def counting(deal: Deal, action: str) -> Result:
        nonlocal played
        played += 1
        return real(deal, action)

    monkeypatch.setattr(search_module, "play_out", counting)
    view = TableView.build(0, [3, 3, 4, 1, 2], [5, 5, 5], [(2, "4x5")])
    result = search(view, 1, nodes)
    assert played == result.nodes <= nodes
    assert sum(e.rollouts for e in result.evaluations) == played
    assert nodes < 40 or played >= nodes * 0.9  # a large budget is spent, not wasted


def test_a_budget_is_nodes_and_nothing_else() -> None:
    assert parse_nodes(None) > 0
    assert parse_nodes("nodes=250") == 250
    assert parse_nodes(12) == 12
    for bad in ("cpu=1", "wall=2", "nodes=0", "nodes=1.5", "fast", 0):
        with pytest.raises(ValueError):
            parse_nodes(bad)
    for spec, kw, nodes in (
        ("perudo-search:nodes=50", {}, 50),
        ("perudo-search", {"budget": "nodes=70"}, 70),
    ):
        bot = load_bot(spec, **kw)[1]()
        assert isinstance(bot, PerudoSearch) and bot.nodes == nodes


def test_it_plays_the_solved_endgames_as_hard_does() -> None:
    bot = PerudoSearch(seed=3)
    for die in range(1, 7):
        for bids in ([], [(1, "1x4")], [(1, "2x3")]):
            view = TableView.build(0, [die], [1, 1], bids)
            move = solved_move(view, bot.round_seed)
            assert move is not None
            assert bot.choose(view) == move.action
            assert bot.last_search is None


def _seed(i: int) -> bytes:
    return i.to_bytes(8, "big")


async def test_whole_games_are_legal_and_replay_exactly() -> None:
    """Games against perudo-simple with every rule variant: no fault, and the same seeds
    give the same games."""
    options: list[dict[str, Any]] = [
        {"seats": 3},
        {"seats": 4, "calza": True, "dice_per_player": 2},
        {"preset": "classic", "seats": 2, "dice_per_player": 3},
    ]
    for i, opts in enumerate(options):
        histories = []
        for _ in range(2):
            seats = int(opts["seats"])
            bots: list[Bot] = [PerudoSearch(seed=i, budget=40)]
            bots += [PerudoSimple() for _ in range(seats - 1)]
            game = await play_local("perudo", opts, bots, _seed(i))
            assert game.faults == {}
            histories.append([e.truth for e in game.events])
        assert histories[0] == histories[1]
