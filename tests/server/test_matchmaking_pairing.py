"""The pure pairing of seeks (server.matchmaking.pairing) on a fake clock: examples, and
properties over random sequences of seeks, cancellations and ticks (hypothesis)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from server.matchmaking.pairing import Match, Pairing
from server.matchmaking.seeks import Seek

KS = {"rules": "wild16"}


def seek(
    sid: str,
    player: str,
    created: float = 0.0,
    *,
    seats: int = 2,
    game: str = "kriegspiel",
    rating: float | None = 1500.0,
    range: tuple[float, float] | None = None,
    fill_after: float | None = None,
    rated: bool = False,
    owner: str | None = None,
) -> Seek:
    options = KS if game == "kriegspiel" else {"seats": seats}
    return Seek(
        id=sid,
        player=player,
        game=game,
        options=options,
        rated=rated,
        seats=seats,
        created=created,
        rating=rating,
        range=range,
        fill_after=fill_after,
        owner=owner,
    )


def ids(match: Match) -> list[str]:
    return [s.id for s in match.seeks]


def test_two_seeks_of_one_pool_pair_at_once() -> None:
    p = Pairing()
    assert p.add(seek("a", "ana"), now=0) == []
    [match] = p.add(seek("b", "bob", 1), now=1)
    assert ids(match) == ["b", "a"] and match.house == 0
    assert len(p) == 0


def test_different_pools_and_one_player_never_pair() -> None:
    p = Pairing()
    p.add(seek("a", "ana"), now=0)
    assert p.add(seek("b", "bob", rated=True), now=0) == []
    assert p.add(seek("c", "ana"), now=0) == []  # ana's second seek: not against herself
    assert p.add(seek("d", "dee", game="perudo", seats=2), now=0) == []
    assert len(p) == 4


def test_rating_ranges_must_hold_both_ways() -> None:
    p = Pairing()
    p.add(seek("a", "ana", rating=1500, range=(1400, 1600)), now=0)
    assert p.add(seek("b", "bob", rating=1700), now=0) == []  # outside ana's range
    assert p.add(seek("c", "cid", rating=1550, range=(1600, 1650)), now=0) == []
    [match] = p.add(seek("d", "dee", rating=1450), now=0)
    assert ids(match) == ["d", "a"]


def test_a_table_of_three_waits_until_full() -> None:
    p = Pairing()
    assert p.add(seek("a", "ana", seats=3, game="perudo"), now=0) == []
    assert p.add(seek("b", "bob", 1, seats=3, game="perudo"), now=1) == []
    [match] = p.add(seek("c", "cid", 2, seats=3, game="perudo"), now=2)
    assert ids(match) == ["c", "a", "b"]


def test_fill_with_house_bots_after_the_deadline() -> None:
    p = Pairing()
    assert p.add(seek("a", "ana", 0, seats=4, game="perudo", fill_after=30), now=0) == []
    assert p.add(seek("b", "bob", 5, seats=4, game="perudo"), now=5) == []
    assert p.next_due() == 30
    assert p.tick(29.9) == []
    [match] = p.tick(30)
    assert ids(match) == ["a", "b"] and match.house == 2
    assert p.next_due() is None and len(p) == 0


def test_a_cancelled_seek_is_never_paired_nor_filled() -> None:
    p = Pairing()
    p.add(seek("a", "ana", fill_after=10), now=0)
    assert p.remove("a") is not None
    assert p.tick(100) == [] and p.add(seek("b", "bob"), now=100) == []


def test_take_seek_prefers_the_taken_one() -> None:
    p = Pairing()
    p.add(seek("a", "ana", 0), now=0)
    p.add(seek("b", "bob", 1, rated=True), now=1)
    [match] = p.add(seek("t", "tom", 2, rated=True), now=2, first="b")
    assert ids(match) == ["t", "b"]


def test_sync_learns_the_other_nodes_seeks_and_forgets_the_gone() -> None:
    p = Pairing()
    p.add(seek("a", "ana", 0), now=0)
    matches = p.sync([seek("b", "bob", 1, rated=True), seek("c", "cid", 2, rated=True)], now=3)
    assert [ids(m) for m in matches] == [["c", "b"]]
    assert "a" not in p and len(p) == 0


# -- properties ------------------------------------------------------------------------


@dataclass
class Op:
    kind: str  # add | remove | tick
    args: dict[str, Any]


PLAYERS = ["ana", "bob", "cid", "dee", "eve"]
ops = st.lists(
    st.one_of(
        st.builds(
            lambda player, pool, rating, range_, fill: Op(
                "add",
                {"player": player, "pool": pool, "rating": rating, "range": range_, "fill": fill},
            ),
            st.sampled_from(PLAYERS),
            st.sampled_from([("kriegspiel", 2), ("perudo", 2), ("perudo", 3)]),
            st.sampled_from([None, 1400.0, 1500.0, 1600.0]),
            st.sampled_from([None, (1450.0, 1550.0), (1300.0, 1700.0)]),
            st.sampled_from([None, 5.0, 20.0]),
        ),
        st.builds(lambda n: Op("remove", {"n": n}), st.integers(0, 30)),
        st.builds(lambda dt: Op("tick", {"dt": dt}), st.sampled_from([0.5, 3.0, 10.0])),
    ),
    max_size=60,
)


def run(script: list[Op]) -> tuple[list[Match], Pairing, float, list[Seek]]:
    """Play ``script`` on a fresh core, checking every step; return the matches, the
    core, the time and every seek made."""
    p = Pairing()
    now = 0.0
    made: list[Seek] = []
    open_ids: set[str] = set()
    matches: list[Match] = []
    for op in script:
        out: list[Match] = []
        if op.kind == "add":
            game, seats = op.args["pool"]
            s = seek(
                f"s{len(made)}",
                op.args["player"],
                now,
                game=game,
                seats=seats,
                rating=op.args["rating"],
                range=op.args["range"],
                fill_after=op.args["fill"],
            )
            made.append(s)
            open_ids.add(s.id)
            out = p.add(s, now)
        elif op.kind == "remove":
            if made:
                target = made[op.args["n"] % len(made)]
                gone = p.remove(target.id)
                assert (gone is not None) == (target.id in open_ids)
                open_ids.discard(target.id)
        else:
            now += op.args["dt"]
            out = p.tick(now)
        for match in out:
            check_match(match, now, open_ids)
            for s in match.seeks:
                open_ids.discard(s.id)
        matches += out
        assert {s.id for s in p.open()} == open_ids
        check_stable(p, now)
    return matches, p, now, made


def check_match(match: Match, now: float, open_ids: set[str]) -> None:
    seeks = match.seeks
    first = seeks[0]
    assert all(s.id in open_ids for s in seeks), "a seek paired twice, or after it was gone"
    assert len(seeks) + match.house == first.seats
    assert len({s.player for s in seeks}) == len(seeks)
    assert all(a.fits(b) for a in seeks for b in seeks if a is not b)
    if match.house:
        fill = first.fill_at()
        assert fill is not None and fill <= now, "house bots before the deadline"


def check_stable(p: Pairing, now: float) -> None:
    open_seeks = p.open()
    for s in open_seeks:
        fill = s.fill_at()
        assert fill is None or fill > now, "a seek left open past its fill deadline"
    for a in open_seeks:
        if a.seats == 2:
            assert not any(a.fits(b) for b in open_seeks if b is not a), "a pair left open"


@settings(max_examples=300)
@given(ops)
def test_pairing_properties(script: list[Op]) -> None:
    run(script)


@settings(max_examples=100)
@given(ops)
def test_pairing_is_deterministic_and_sync_agrees(script: list[Op]) -> None:
    first, p, now, _ = run(script)
    second, _, _, _ = run(script)
    assert [(ids(m), m.house) for m in first] == [(ids(m), m.house) for m in second]
    # a node that learns the open seeks from the store pairs none of them again
    other = Pairing()
    again = other.sync(p.open(), now)
    assert all(len(m.seeks) + m.house == m.seeks[0].seats for m in again)
    assert all(m.seeks[0].seats > 2 for m in again)  # (2 seats: nothing left to pair)


def test_a_rated_seek_never_pairs_two_players_of_one_owner() -> None:
    p = Pairing()
    assert p.add(seek("a", "bot1", rated=True, owner="ana"), now=0) == []
    assert p.add(seek("b", "bot2", rated=True, owner="ana"), now=0) == []  # same owner
    assert p.add(seek("c", "ana", rated=True), now=0) == []  # the owner herself
    [match] = p.add(seek("d", "bob", rated=True), now=0)
    assert ids(match) == ["d", "a"]
    casual = Pairing()
    casual.add(seek("a", "bot1", owner="ana"), now=0)
    assert len(casual.add(seek("b", "bot2", owner="ana"), now=0)) == 1  # casual: fine
