"""The local transport and the baseline bots: complete games, callback order, faults."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import pytest

from bots.baseline import KriegspielRandom, PerudoRandom, PerudoSimple
from bots.perudo.table import PerudoTable, bid_probability, prob_at_least
from bots.registry import HouseCatalog, builtin_names, load_bot
from bots.sdk.bot import Bot, BotError, Decision, GameInfo, GameResult
from bots.sdk.local import play_local
from server.games.perudo_actions import Bid


class Recorder(Bot):
    """Plays randomly and records every callback, to check the documented order."""

    name: ClassVar[str] = "recorder"

    def __init__(self, seed: int = 0) -> None:
        self.calls: list[str] = []
        self.seen: list[dict[str, Any]] = []
        self.rng = random.Random(seed)

    async def start(self, info: GameInfo) -> None:
        self.calls.append("start")
        self.info = info

    async def observe(self, event: dict[str, Any]) -> None:
        self.calls.append("observe")
        self.seen.append(event)

    async def decide(self, decision: Decision) -> str:
        self.calls.append("decide")
        assert decision.seat == self.info.seat
        assert decision.legal
        return self.rng.choice(decision.legal)

    async def end(self, result: GameResult) -> None:
        self.calls.append("end")
        self.result = result


async def test_a_perudo_game_runs_to_the_end_with_callbacks_in_order() -> None:
    bots = [Recorder(i) for i in range(3)]
    played = await play_local("perudo", {"seats": 3}, bots, b"seed")
    assert played.game.is_over and not played.faults
    for seat, bot in enumerate(bots):
        assert bot.calls[0] == "start" and bot.calls[-1] == "end"
        assert "decide" in bot.calls
        assert bot.seen == [e.view(seat) for e in played.events if e.view(seat) is not None]
        assert bot.result.ranks == list(played.outcome.ranks)
    winner = played.outcome.winners[0]
    assert bots[winner].result.won


async def test_bots_see_only_their_own_projections() -> None:
    bots = [Recorder(i) for i in range(2)]
    played = await play_local("perudo", {"seats": 2}, bots, b"private")
    for seat, bot in enumerate(bots):
        for event in bot.seen:
            if event["type"] == "round_started":
                assert event["seat"] == seat
    assert played.events[1].view(0) != played.events[1].view(1)


class Stubborn(Bot):
    """Always sends something the game refuses."""

    name: ClassVar[str] = "stubborn"

    def __init__(self) -> None:
        self.rejections: list[str] = []

    async def decide(self, decision: Decision) -> str:
        return "7x7"

    async def rejected(self, action: str, code: str, reason: str) -> None:
        self.rejections.append(code)


class Crashing(Bot):
    name: ClassVar[str] = "crashing"

    async def decide(self, decision: Decision) -> str:
        raise RuntimeError("boom")


async def test_a_bot_that_keeps_sending_garbage_is_forfeited() -> None:
    stubborn = Stubborn()
    played = await play_local(
        "perudo", {"seats": 3}, [stubborn, PerudoRandom(1), PerudoRandom(2)], b"x", max_rejections=3
    )
    assert played.faults == {0: "invalid_actions"}
    assert stubborn.rejections == ["malformed", "malformed"]
    assert played.outcome.ranks[0] == 3


@pytest.mark.allow_errors
async def test_a_crashing_bot_is_forfeited_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    played = await play_local("perudo", {"seats": 2}, [PerudoRandom(1), Crashing()], b"y")
    assert played.faults == {1: "bot_error"}
    assert played.outcome.winners == (0,)
    assert "failed" in caplog.text


async def test_seat_count_must_match() -> None:
    with pytest.raises(ValueError, match="3 seats, not 2 bots"):
        await play_local("perudo", {"seats": 3}, [PerudoRandom(), PerudoRandom()], b"z")


async def test_local_games_are_reproducible() -> None:
    async def once() -> list[Any]:
        played = await play_local("perudo", {"seats": 4}, [PerudoRandom(i) for i in range(4)], b"r")
        return [e.truth for e in played.events]

    assert await once() == await once()


async def test_kriegspiel_random_plays_whole_games() -> None:
    for i in range(3):
        played = await play_local(
            "kriegspiel", {}, [KriegspielRandom(i), KriegspielRandom(i + 10)], f"k{i}".encode()
        )
        assert played.game.is_over and not played.faults


def test_binomial_tail() -> None:
    assert prob_at_least(0, 5, 0.3) == 1.0
    assert prob_at_least(-3, 5, 0.3) == 1.0
    assert prob_at_least(0, 0, 0.3) == 1.0
    assert prob_at_least(6, 5, 0.3) == 0.0
    assert prob_at_least(1, 0, 0.3) == 0.0
    assert prob_at_least(1, 1, 1 / 6) == pytest.approx(1 / 6)
    assert prob_at_least(1, 2, 1 / 3) == pytest.approx(1 - (2 / 3) ** 2)


def test_binomial_tail_at_certain_and_impossible_dice() -> None:
    """p = 0: no die matches; p = 1: every die does."""
    assert prob_at_least(1, 5, 0.0) == 0.0
    assert prob_at_least(0, 5, 0.0) == 1.0
    assert prob_at_least(5, 5, 1.0) == 1.0
    assert prob_at_least(1, 5, 1.0) == 1.0
    assert prob_at_least(6, 5, 1.0) == 0.0


def test_binomial_tail_never_exceeds_one() -> None:
    """The tail's terms can sum past 1 in floating point (here 1.0000000000000002)."""
    assert prob_at_least(1, 20, 0.9) == 1.0
    assert all(
        0.0 <= prob_at_least(k, n, p) <= 1.0
        for n in range(41)
        for k in range(-1, n + 2)
        for p in (0.0, 1 / 6, 1 / 3, 0.5, 0.9, 1.0)
    )


def test_bid_probability_counts_own_dice_and_wild_aces() -> None:
    own = [4, 4, 1]
    assert bid_probability(Bid(3, 4), own, 10, aces_wild=True) == 1.0
    assert bid_probability(Bid(3, 4), own, 10, aces_wild=False) == pytest.approx(
        prob_at_least(1, 10, 1 / 6)
    )
    assert bid_probability(Bid(2, 1), own, 10, True) == pytest.approx(prob_at_least(1, 10, 1 / 6))


def test_table_tracks_counts_from_public_losses() -> None:
    table = PerudoTable(seat=0, seats=3, dice_per_player=5)
    table.observe({"type": "round_started", "round": 1, "palifico": None, "dice": [2, 3, 4, 5, 6]})
    table.observe({"type": "bid", "seat": 0, "bid": "3x4"})
    table.observe({"type": "dice_changed", "seat": 2, "change": -1})
    table.observe({"type": "forfeit", "seat": 1})
    table.observe({"type": "round_started", "round": 2, "palifico": 2, "dice": [2, 3, 4, 5, 6]})
    assert table.counts == [5, 0, 4] and table.unknown == 4 and not table.aces_wild
    assert table.bids == []


async def test_perudo_simple_beats_random() -> None:
    wins = 0
    games = 60
    for i in range(games):
        seats = [PerudoSimple(), PerudoRandom(i), PerudoRandom(i + 1000), PerudoRandom(i + 2000)]
        order = i % 4  # rotate the simple player's seat
        bots = seats[-order:] + seats[:-order] if order else seats
        played = await play_local("perudo", {"seats": 4}, bots, f"s{i}".encode())
        simple_seat = bots.index(seats[0])
        wins += played.outcome.winners == (simple_seat,)
    assert wins / games > 0.5  # random play would win 25%


def test_registry() -> None:
    name, factory = load_bot("perudo-random", seed=3)
    assert name == "perudo-random" and isinstance(factory(), PerudoRandom)
    name, factory = load_bot("bots.baseline:PerudoSimple")
    assert name == "perudo-simple" and isinstance(factory(), PerudoSimple)
    with pytest.raises(BotError, match="unknown bot 'nobody'"):
        load_bot("nobody")
    with pytest.raises(BotError, match="cannot import"):
        load_bot("no.such.module:Bot")
    with pytest.raises(BotError, match="not a Bot subclass"):
        load_bot("bots.sdk.bot:GameInfo")


def test_house_catalog_levels_and_advice() -> None:
    """What the server's catalogue asks of the bots: each bot's levels (every one of them
    makes a bot) and the games the advisor serves."""
    catalog = HouseCatalog()
    for name in builtin_names():
        for level in catalog.levels(name):
            assert catalog.knows(f"{name}:{level}"), (name, level)
    assert "hard" in catalog.levels("perudo-expert") and catalog.levels("perudo-random") == []
    assert catalog.levels("nobody") == []
    assert catalog.advises("perudo") and not catalog.advises("kriegspiel")


DOC_BOT = '''
import random

from bots.sdk.bot import Bot, Decision


class Cautious(Bot):
    """Calls dudo as soon as the bid reaches a third of the dice it can count."""

    name = "cautious"
    games = ("perudo",)

    async def observe(self, event):
        if event["type"] == "round_started":
            self.dice = event["dice"]

    async def decide(self, decision: Decision) -> str:
        bids = decision.view["bids"]
        if bids and int(bids[-1]["bid"].split("x")[0]) > len(self.dice) + 2:
            return "dudo"
        return random.choice([a for a in decision.legal if a not in ("dudo", "calza")])
'''


def test_the_bot_in_docs_bots_md_plays_a_tournament(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import pathlib

    from server.cli import main

    doc = (pathlib.Path(__file__).parents[2] / "docs" / "bots.md").read_text()
    assert DOC_BOT.strip() in doc  # the test runs exactly the documented code
    (tmp_path / "mybot.py").write_text(DOC_BOT)
    monkeypatch.syspath_prepend(str(tmp_path))
    # the documented bot draws from the global random generator: seeded, for the same games
    monkeypatch.setattr(random, "choice", random.Random(1).choice)
    name, _ = load_bot("mybot:Cautious")
    assert name == "cautious"
    code = main(
        [
            "tournament",
            "--game",
            "perudo",
            "--bots",
            "mybot:Cautious,perudo-simple,perudo-random",
            "--seats",
            "3",
            "--games",
            "9",
            "--seed",
            "1",
        ]
    )
    assert code == 0
    assert "mybot:Cautious" in capsys.readouterr().out
