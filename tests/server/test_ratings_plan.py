"""Deciding whether a game is rated, and rating its end (server/ratings/plan.py, rules.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from server import __version__
from server.ratings.plackett_luce import Placings, Skill
from server.ratings.plan import change_infos, decide, plan_for, provisional
from server.ratings.rules import rule_set
from server.store.contract import GameRow, Rating, RatingChange, RatingKey


@dataclass(frozen=True)
class Holder:
    id: str
    kind: str
    version: str = ""
    owner: str | None = None


ALICE = Holder("p-alice", "account")
BOB = Holder("p-bob", "account")
GUEST = Holder("p-guest", "guest")
MYBOT = Holder("p-mybot", "bot", "2.1")
HOUSE = Holder("bot-kriegspiel-random", "house")


def row(
    game: str, rated: dict[str, Any] | None, ranks: list[int], status: str = "finished"
) -> GameRow:
    seats = [f"p{i}" for i in range(len(ranks))]
    return GameRow(
        id="r1",
        game=game,
        options={},
        settings={},
        host=None,
        invite=None,
        public=True,
        seats=list(seats),
        status=status,
        seed=b"",
        seed_sha256="",
        created=1.0,
        result={"ranks": ranks, "winners": [], "reason": "x"} if status == "finished" else None,
        finished=2.0,
        rated=rated,
    )


def test_rule_sets() -> None:
    assert rule_set("kriegspiel", {}) == "wild16"
    assert rule_set("kriegspiel", {"rules": "english"}) == "english"
    assert rule_set("kriegspiel", {"fen": "4k3/8/8/8/8/8/8/4K2R w K - 0 1"}) is None
    assert rule_set("kriegspiel", {"rules": "nonsense"}) is None
    assert rule_set("perudo", {"seats": 5}) == "piatnik"
    assert rule_set("perudo", {"preset": "classic", "seats": 7}) == "classic"
    assert rule_set("perudo", {"calza": True}) is None
    assert rule_set("perudo", {"dice_per_player": 3}) is None
    assert rule_set("goofspiel", {}) is None


def test_decide() -> None:
    rated = decide("kriegspiel", {}, [ALICE, HOUSE], None)
    assert rated == {
        "system": "glicko2",
        "rules": "wild16",
        "versions": ["", __version__],
        "pools": ["human", "bot"],
    }
    assert decide("kriegspiel", {}, [ALICE, MYBOT], True) == {
        "system": "glicko2",
        "rules": "wild16",
        "versions": ["", "2.1"],
        "pools": ["human", "bot"],
    }
    assert decide("kriegspiel", {}, [ALICE, BOB], False) is None
    assert decide("kriegspiel", {}, [ALICE, GUEST], None) is None
    assert decide("kriegspiel", {}, [ALICE, None], None) is None
    assert decide("kriegspiel", {}, [ALICE, ALICE], None) is None
    assert decide("kriegspiel", {"fen": "4k3/8/8/8/8/8/8/4K2R w K - 0 1"}, [ALICE, BOB]) is None
    perudo = decide("perudo", {"seats": 3}, [ALICE, BOB, MYBOT], None)
    assert perudo is not None and perudo["system"] == "openskill"
    assert perudo["rules"] == "piatnik"
    # two house bots of one kind share a rating key: casual
    assert decide("perudo", {"seats": 3}, [ALICE, HOUSE, HOUSE], None) is None


def test_no_plan_for_casual_or_aborted_games() -> None:
    rated = {"system": "glicko2", "rules": "wild16", "versions": ["", ""], "pools": ["human"] * 2}
    assert plan_for(row("kriegspiel", None, [1, 2])) is None
    assert plan_for(row("kriegspiel", rated, [1, 2], status="aborted")) is None
    assert plan_for(row("kriegspiel", {**rated, "pools": ["human"]}, [1, 2])) is None
    assert plan_for(row("kriegspiel", {**rated, "system": "elo"}, [1, 2])) is None


def test_a_kriegspiel_plan() -> None:
    pools = ["human", "bot"]
    rated = {"system": "glicko2", "rules": "wild16", "versions": ["", "1"], "pools": pools}
    plan = plan_for(row("kriegspiel", rated, [2, 1]))
    assert plan is not None
    assert plan.seats == (
        (RatingKey("p0", "", "kriegspiel", "wild16"), "human"),
        (RatingKey("p1", "1", "kriegspiel", "wild16"), "bot"),
    )
    loser, winner = plan.rate([None, Rating(1600.0, 80.0, 0.06, 12)])
    assert loser.rating < 1500 < 1600 < winner.rating
    assert (loser.games, winner.games) == (1, 13)
    assert loser.volatility is not None and winner.deviation < 80.0 + 1
    draw = plan_for(row("kriegspiel", rated, [1, 1]))
    assert draw is not None
    a, b = draw.rate([None, None])
    assert a.rating == b.rating == 1500.0


def test_a_perudo_plan_is_openskills() -> None:
    pools = ["human"] * 3
    rated = {"system": "openskill", "rules": "piatnik", "versions": [""] * 3, "pools": pools}
    plan = plan_for(row("perudo", rated, [3, 1, 2]))
    assert plan is not None
    after = plan.rate([None, None, Rating(1400.0, 300.0, None, 7)])
    expected = Placings().rate([Skill(1500, 500), Skill(1500, 500), Skill(1400, 300)], [3, 1, 2])
    assert [(r.rating, r.deviation) for r in after] == [(s.mu, s.sigma) for s in expected]
    assert [r.volatility for r in after] == [None] * 3
    assert [r.games for r in after] == [1, 1, 8]
    assert after[1].rating > after[0].rating


@given(st.permutations([1, 2, 3, 4]))
def test_a_better_placing_never_rates_lower(ranks: list[int]) -> None:
    after = Placings().rate([Skill(1500, 500)] * 4, ranks)
    by_rank = sorted(zip(ranks, (s.mu for s in after), strict=True))
    assert [mu for _, mu in by_rank] == sorted((mu for _, mu in by_rank), reverse=True)


def test_change_infos_and_provisional() -> None:
    key = RatingKey("p0", "", "kriegspiel", "wild16")
    change = RatingChange(
        "r1", 0, key, "human", Rating(1500, 350, 0.06, 0), Rating(1662.3, 290.3, 0.06, 1), 2.0
    )
    other = RatingChange(
        "r1", 1, key, "human", Rating(1500, 120, 0.06, 30), Rating(1490, 100, 0.06, 31), 2.0
    )
    infos = change_infos([other, change])
    assert [i.seat for i in infos] == [0, 1]
    assert infos[0].provisional and not infos[1].provisional
    assert (infos[0].before, infos[0].after, infos[0].games) == (1500, 1662.3, 1)
    assert provisional("perudo", 301.0) and not provisional("perudo", 299.0)


def test_an_account_is_never_rated_against_its_own_bot_accounts() -> None:
    own = Holder("p-ownbot", "bot", "1", owner=ALICE.id)
    assert decide("kriegspiel", {}, [ALICE, own], True) is None
    assert decide("perudo", {"seats": 3}, [BOB, own, ALICE], None) is None
    assert decide("kriegspiel", {}, [BOB, own], None) is not None  # another's bot: rated


def test_two_bots_of_one_owner_are_never_rated_against_each_other() -> None:
    one = Holder("p-one", "bot", "1", owner=ALICE.id)
    two = Holder("p-two", "bot", "1", owner=ALICE.id)
    other = Holder("p-other", "bot", "1", owner=BOB.id)
    assert decide("kriegspiel", {}, [one, two], True) is None
    assert decide("perudo", {"seats": 3}, [BOB, one, two], None) is None
    assert decide("kriegspiel", {}, [one, other], True) is not None
