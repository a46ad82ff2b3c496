"""The ladder's pairing on a fake clock: who plays whom, limits, grace, fairness."""

from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from server.ladder.core import HOUSE, Entry, Ladder, Left, Limits, Open


def bot(
    player: str, owner: str | None = None, n: int = 1, rating: float = 1500.0, **kw: object
) -> Entry:
    return Entry(
        player,
        owner or f"owner-{player}",
        kw.pop("game", "kriegspiel"),  # type: ignore[arg-type]
        kw.pop("rules", "wild16"),  # type: ignore[arg-type]
        max_concurrent=n,
        rating=rating,
        **kw,  # type: ignore[arg-type]
    )


def opens(effects: Sequence[object]) -> list[Open]:
    return [e for e in effects if isinstance(e, Open)]


def players(open_: Open) -> set[str]:
    return {s.player for s in open_.seats}


def test_two_bots_are_paired_at_once_and_again_after_their_game() -> None:
    ladder = Ladder()
    assert ladder.join(bot("a"), 0.0, link="ca") == []
    (game,) = opens(ladder.join(bot("b"), 1.0, link="cb"))
    assert players(game) == {"a", "b"}
    assert game.game == "kriegspiel" and game.rules == "wild16"
    ladder.opened(game.match, "room1")
    assert ladder.tick(2.0) == []  # one game each at a time
    (again,) = opens(ladder.ended("room1", 3.0))
    assert players(again) == {"a", "b"}


def test_never_against_itself_or_its_owners_other_bots() -> None:
    ladder = Ladder()
    ladder.join(bot("a", owner="ann", n=4), 0.0, link=1)
    assert opens(ladder.join(bot("a2", owner="ann", n=4), 0.0, link=2)) == []
    assert opens(ladder.join(bot("a", owner="ann", n=4, rules="wild16"), 0.0, link=3)) == []
    (game,) = opens(ladder.join(bot("b", owner="bob"), 0.0, link=4))
    assert "b" in players(game)


def test_house_bots_never_meet_each_other() -> None:
    ladder = Ladder()
    for kind in ("kriegspiel-random", "kriegspiel-meta"):
        ladder.join(bot(f"bot-{kind}", owner=HOUSE, n=4, house=kind), 0.0)
    assert ladder.tick(1.0) == []
    found = opens(ladder.join(bot("x", n=2), 2.0, link="x"))
    assert len(found) == 2
    assert all({s.house for s in g.seats} - {None} and "x" in players(g) for g in found)


def test_a_pair_plays_one_game_at_a_time_and_limits_hold() -> None:
    ladder = Ladder(Limits(per_bot=3))
    ladder.join(bot("a", n=10), 0.0, link=1)
    effects = ladder.join(bot("b", n=10), 0.0, link=2)
    assert len(opens(effects)) == 1  # one game between a and b at a time
    for name in "cdefg":
        ladder.join(bot(name, n=10), 0.0, link=name)
    assert max(ladder.playing(p) for p in "abcdefg") <= 3


def test_per_owner_cap_counts_every_bot_of_the_owner() -> None:
    ladder = Ladder(Limits(per_bot=8, per_owner=3))
    for i in range(3):
        ladder.join(bot(f"own{i}", owner="ann", n=8), 0.0, link=f"o{i}")
    for i in range(6):
        ladder.join(bot(f"x{i}", n=8), 0.0, link=f"x{i}")
    assert sum(ladder.playing(f"own{i}") for i in range(3)) == 3


def test_max_concurrent_zero_leaves() -> None:
    ladder = Ladder()
    ladder.join(bot("a"), 0.0, link=1)
    assert ladder.join(bot("a", n=0), 1.0, link=1) == [Left("a", "kriegspiel", "wild16", "left")]
    assert opens(ladder.join(bot("b"), 2.0, link=2)) == []


def test_a_disconnected_bot_leaves_after_the_grace_period() -> None:
    ladder = Ladder(Limits(grace=30.0))
    ladder.join(bot("a"), 0.0, link="conn-a")
    assert ladder.drop("conn-a", 10.0) == []
    assert ladder.wake() == 40.0
    # while in grace it is not paired
    assert opens(ladder.join(bot("b"), 20.0, link="conn-b")) == []
    assert ladder.tick(39.9) == []
    assert ladder.tick(40.0) == [Left("a", "kriegspiel", "wild16", "gone")]
    assert ladder.wake() is None


def test_coming_back_within_the_grace_period_keeps_the_membership() -> None:
    ladder = Ladder(Limits(grace=30.0))
    ladder.join(bot("a"), 0.0, link="c1")
    ladder.join(bot("b"), 0.0, link="c2")  # they play
    ladder.drop("c1", 5.0)
    (game,) = ladder.games.values()
    assert game.room is None
    (match,) = ladder.games
    ladder.opened(match, "r")
    assert ladder.ended("r", 6.0) == []  # a is away
    (again,) = opens(ladder.join(bot("a"), 20.0, link="c3"))
    assert players(again) == {"a", "b"}
    assert ladder.tick(100.0) == []  # no Left: it came back


def test_a_connection_of_two_holds_the_membership() -> None:
    ladder = Ladder(Limits(grace=5.0))
    ladder.join(bot("a"), 0.0, link="c1")
    ladder.join(bot("a"), 0.0, link="c2")
    ladder.drop("c1", 1.0)
    assert ladder.wake() is None


def test_house_bots_are_permanent() -> None:
    ladder = Ladder(Limits(grace=1.0))
    ladder.join(bot("bot-k", owner=HOUSE, house="k"), 0.0)
    ladder.drop("whatever", 1.0)
    assert ladder.tick(1000.0) == []


def test_the_longest_waiting_goes_first() -> None:
    ladder = Ladder()
    for name, since in (("late", 5.0), ("early", 1.0), ("middle", 3.0)):
        ladder.members[(name, "kriegspiel", "wild16")] = _member(name, 1500.0, since)
    (game,) = opens(ladder.tick(6.0))
    # early waited longest; middle and late are equally close: middle waited longer
    assert players(game) == {"early", "middle"}


def test_closest_rating_is_chosen_for_the_anchor() -> None:
    ladder = Ladder()
    ladder.join(bot("anchor", rating=1500), 0.0, link=1)
    ladder.members[("anchor", "kriegspiel", "wild16")].gone_at = 1e9  # hold it back
    ladder.join(bot("far", rating=1900), 1.0, link=2)
    ladder.join(bot("close", rating=1450), 2.0, link=3)
    (first,) = ladder.games.values()  # far and close paired while anchor was away
    assert {k[0] for k in first.members} == {"far", "close"}
    ladder2 = Ladder()
    for name, rating, t in (("anchor", 1500, 0.0), ("x", 1900, 1.0), ("y", 1460, 1.0)):
        ladder2.members[(name, "kriegspiel", "wild16")] = _member(name, rating, t)
    (game,) = opens(ladder2.tick(2.0))
    assert players(game) == {"anchor", "y"}


def _member(name: str, rating: float, since: float):  # type: ignore[no-untyped-def]
    from server.ladder.core import Member

    return Member(bot(name, rating=rating), 1, since, links={name})


def test_perudo_tables_of_three() -> None:
    ladder = Ladder()
    for name in "abc":
        effects = ladder.join(bot(name, game="perudo", rules="piatnik", seats=3), 0.0, link=name)
    (game,) = opens(effects)
    assert players(game) == {"a", "b", "c"}


def test_table_sizes_are_paired_apart() -> None:
    ladder = Ladder()
    ladder.join(bot("a", game="perudo", rules="piatnik", seats=3), 0.0, link=1)
    ladder.join(bot("b", game="perudo", rules="piatnik", seats=3), 0.0, link=2)
    assert opens(ladder.join(bot("c", game="perudo", rules="piatnik", seats=2), 0.0, link=3)) == []
    (game,) = opens(ladder.join(bot("d", game="perudo", rules="piatnik", seats=2), 0.0, link=4))
    assert players(game) == {"c", "d"}


def test_a_failed_open_frees_the_seats_after_a_pause() -> None:
    ladder = Ladder(Limits(retry=5.0))
    ladder.join(bot("a"), 0.0, link=1)
    (game,) = opens(ladder.join(bot("b"), 0.0, link=2))
    assert ladder.failed(game.match, 1.0) == []
    assert ladder.playing("a") == 0 and ladder.wake() == 6.0
    assert ladder.tick(5.9) == []
    (again,) = opens(ladder.tick(6.0))
    assert players(again) == {"a", "b"}


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_runs_keep_every_rule(seed: int) -> None:
    """Random joins, leaves, drops and game ends: the invariants hold after each step."""
    rng = random.Random(seed)
    limits = Limits(grace=5.0, per_bot=3, per_owner=4, per_house=2)
    ladder = Ladder(limits)
    owners = ["o1", "o2", "o3", "o4"]
    now = 0.0
    live: dict[str, Open] = {}
    for _ in range(200):
        now += rng.random()
        roll = rng.random()
        effects: list[Open | Left]
        if roll < 0.35:
            name = f"p{rng.randrange(10)}"
            owner = owners[int(name[1:]) % 4]
            effects = ladder.join(bot(name, owner, n=rng.randrange(0, 5)), now, link=name)
        elif roll < 0.4:
            kind = f"h{rng.randrange(2)}"
            effects = ladder.join(bot(f"bot-{kind}", HOUSE, n=4, house=kind), now)
        elif roll < 0.5:
            effects = ladder.drop(f"p{rng.randrange(10)}", now)
        elif roll < 0.85 and live:
            room = rng.choice(sorted(live))
            del live[room]
            effects = ladder.ended(room, now)
        else:
            effects = ladder.tick(now)
        for effect in effects:
            if isinstance(effect, Open):
                room = f"r{effect.match}"
                ladder.opened(effect.match, room)
                live[room] = effect
                ids = [s.player for s in effect.seats]
                assert len(set(ids)) == len(ids)
                owner_of = {m.entry.player: m.entry.owner for m in ladder.members.values()}
                assert len({owner_of[p] for p in ids}) == len(ids)
                for seat in effect.seats:
                    member = ladder.members[(seat.player, "kriegspiel", "wild16")]
                    assert len(member.games) <= member.limit
        # invariants
        count: dict[str, int] = {}
        pairs: dict[tuple[str, ...], int] = {}
        for game in live.values():
            for seat in game.seats:
                count[seat.player] = count.get(seat.player, 0) + 1
            pair = tuple(sorted(s.player for s in game.seats))
            pairs[pair] = pairs.get(pair, 0) + 1
        for player, n in count.items():
            assert n == ladder.playing(player)
            if not player.startswith("bot-"):
                assert n <= limits.per_bot
        assert all(n == 1 for n in pairs.values())
        for owner in owners:
            assert ladder._by_owner.get(owner, 0) <= limits.per_owner


def test_a_room_from_before_a_restart_counts_until_it_ends() -> None:
    ladder = Ladder(Limits(per_owner=1))
    ladder.adopt("old", "kriegspiel", "wild16", [("a", "ann"), ("b", "bob")], 0.0)
    ladder.join(bot("a", owner="ann"), 1.0, link=1)
    assert opens(ladder.join(bot("b", owner="bob"), 1.0, link=2)) == []  # both busy
    assert opens(ladder.join(bot("c", owner="ann"), 1.0, link=3)) == []  # ann's cap
    (game,) = opens(ladder.ended("old", 2.0))
    assert players(game) in ({"a", "b"}, {"b", "c"})


def test_an_owner_is_counted_down_when_its_bot_left_mid_game() -> None:
    ladder = Ladder(Limits(per_owner=1))
    ladder.join(bot("a", owner="ann"), 0.0, link=1)
    (game,) = opens(ladder.join(bot("b", owner="bob"), 0.0, link=2))
    ladder.opened(game.match, "r")
    ladder.leave("a", "kriegspiel", "wild16", 1.0)
    ladder.ended("r", 2.0)
    ladder.join(bot("a2", owner="ann"), 3.0, link=3)
    assert ladder._by_owner == {"ann": 1, "bob": 1}
