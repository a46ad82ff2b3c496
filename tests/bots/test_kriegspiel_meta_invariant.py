"""The invariant of ``kriegspiel-meta``: the real position is always inside its metaposition.

Seeded playouts under every rule set: the bot against ``kriegspiel-random`` in both seats,
and random players that only track a metaposition (their games go places the bot's never
would). After every projection a seat folds in, each real enemy piece must stand in its
kind's set, the known-occupied squares must be occupied, the enemy's unit count exact and
the own board equal to the real one. The test reads the truth from the events; the bot
never does.
"""

from __future__ import annotations

from typing import Any

import chess
import pytest

from bots.kriegspiel.meta import KriegspielMeta
from bots.sdk.bot import Decision
from tests.bots.kriegspiel_meta_harness import checked_game, tracked_random_game
from tests.profile import playouts

RULES = ("wild16", "cincinnati", "rand", "english")


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("seed", range(3))
async def test_the_bot_keeps_the_real_position_inside_its_metaposition(
    rules: str, seed: int
) -> None:
    played, bot = await checked_game(rules, 100 + seed, meta_seat=seed % 2, budget="nodes=5")
    assert played.game.is_over
    assert bot.problems == []
    assert bot.resyncs == 0
    assert not played.faults


@pytest.mark.parametrize("rules", RULES)
async def test_tracked_random_games_stay_inside_the_metaposition(rules: str) -> None:
    problems: list[str] = []
    for seed in range(playouts(5)):  # (8 until 2026-12-07, when CI ran over 15 minutes)
        problems += await tracked_random_game(rules, seed)
    assert problems == []


@pytest.mark.parametrize(
    "fen",
    [
        "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
        "8/2k5/8/8/3Q4/8/8/4K3 b - - 0 1",
        "r3k2r/pppq1ppp/8/3Pp3/8/8/PPPQ1PPP/R3K2R w KQkq e6 0 1",
        "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
    ],
)
async def test_custom_starts_stay_inside_the_metaposition(fen: str) -> None:
    for seed in range(3):
        assert await tracked_random_game("wild16", seed, fen=fen) == []
        assert await tracked_random_game("rand", seed, fen=fen) == []


class LegalOnly(KriegspielMeta):
    """Asserts that every action it returns was offered."""

    async def decide(self, decision: Decision) -> str:
        choice = await super().decide(decision)
        assert choice in decision.legal
        return choice


@pytest.mark.parametrize("rules", RULES)
async def test_the_bot_only_sends_offered_actions(rules: str) -> None:
    from bots.baseline import KriegspielRandom
    from bots.sdk.local import play_local

    bots: list[Any] = [LegalOnly(seed=3, budget="nodes=5"), KriegspielRandom(seed=4)]
    played = await play_local("kriegspiel", {"rules": rules}, bots, b"legal")
    assert played.game.is_over and not played.faults
    assert chess.Board(played.game.view(0)["revealed"]["fen"]) is not None
