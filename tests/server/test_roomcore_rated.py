"""Rated rooms on the sans-I/O core: who may sit, when the game is rated, the plan the
game's end carries, and the rating changes every viewer is shown (also after a restart).

The rating systems are ``server.ratings``'s; these tests read only what the room does
with their decision (``GameRow.rated``) and with the changes the store hands back.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from server import __version__
from server.errors import ClientError
from server.games import engine
from server.players.identity import Player
from server.roomcore import messages as m
from server.roomcore.core import RoomCore, new_row
from server.roomcore.settings import Settings
from server.store import journal
from server.store.contract import Rating, RatingChange, RatingKey
from tests.server.roomcore_harness import (
    KR_BOT,
    ROOM,
    TIMING,
    WES,
    Conn,
    Harness,
    dudo_or_lowest,
    play,
    play_to_the_end,
)

ANA = Player("p-ana", "ana", False, kind="account")
BOB = Player("p-bob", "bob", False, kind="account")
GUS = Player("p-gus", "gus", False)  # a guest
BOTTY = Player("p-botty", "botty", True, kind="bot", version="1.4.2")  # a bot account
PLAYERS = {p.id: p for p in (ANA, BOB, GUS, BOTTY, WES)}
VERSIONS = {"kriegspiel-random": "7", "autopilot": __version__}


def core(
    game: str = "kriegspiel",
    options: dict[str, Any] | None = None,
    rated: bool | None = None,
    **settings: Any,
) -> Harness:
    """A waiting room ``r1`` hosted by ana, whose house bots have :data:`VERSIONS`."""
    eng = engine(game)
    config = eng.make_config(options if options is not None else {"rules": "wild16"})
    row = new_row(ROOM, eng, config, Settings(rated=rated, **settings), ANA.id, 0.0, None)
    seeds = iter(bytes([i]) * 32 for i in range(1, 100))
    tickets = iter(f"ticket-{i}" for i in range(1, 100))
    return Harness(
        RoomCore(
            row,
            eng,
            config,
            TIMING,
            {},
            house_version=VERSIONS.__getitem__,
            token=lambda: next(tickets),
            new_seed=lambda: next(seeds),
        )
    )


def sit(h: Harness, *players: Player) -> list[Conn]:
    conns = [Conn(p) for p in players]
    for conn in conns:
        h.request(m.Join(conn), at=h.now)
    return conns


def resign(h: Harness, conns: list[Conn], plies: int = 2) -> None:
    """Each seat moves (``plies`` moves: a game shorter than 2 is never rated), then the
    seat to move resigns: the game is over."""
    for move in ("g1f3", "g8f6")[:plies]:
        h.request(m.Act(h.mover(*conns), action=move), at=h.now + 1)
    h.request(m.Act(h.mover(*conns), action="resign"), at=h.now + 1)
    assert h.core.state == "finished"


def finish_entry(h: Harness) -> journal.Finish:
    (end,) = [e for e in h.log.entries if isinstance(e, journal.Finish)]
    return end


def changes_of(end: journal.Finish) -> tuple[RatingChange, ...]:
    """What the store would return for ``end``: its plan applied to first ratings."""
    plan = end.plan
    assert plan is not None
    after = plan.rate([None] * len(plan.seats))
    new = Rating(1500.0, 350.0, 0.06, 0)
    return tuple(
        RatingChange(end.row.id, seat, key, pool, new, rating, end.row.finished or 0.0, n)
        for n, (seat, (key, pool), rating) in enumerate(
            zip(range(len(plan.seats)), plan.seats, after, strict=True), 1
        )
    )


def test_a_game_between_accounts_is_rated_and_everyone_sees_the_rating_changes() -> None:
    h = core()
    wes = Conn(WES)
    h.request(m.Watch(wes))
    ana, bob = sit(h, ANA)[0], None
    assert ana.last("room").get("rated") is True  # (it will be, if an account takes seat 1)
    (bob,) = sit(h, BOB)
    start = next(e for e in h.log.entries if isinstance(e, journal.Start))
    assert start.row.rated is not None
    assert start.row.rated["versions"] == ["", ""]
    assert start.row.rated["pools"] == ["human", "human"]
    assert h.core.summary().rated is True
    resign(h, [ana, bob])
    end = finish_entry(h)
    assert end.plan is not None
    assert [key.player for key, _ in end.plan.seats] == [ANA.id, BOB.id]
    assert end.row.rated == start.row.rated  # (the decision made at the start is kept)
    assert ana.last("room").get("ratings") is None  # (not yet stored)

    changes = changes_of(end)
    h.feed(m.Rated(changes), at=h.now)
    for conn in (ana, bob, wes):
        room = conn.last("room")
        assert room["state"] == "finished" and room.get("rated") is True
        ratings = room["ratings"]
        assert [r["seat"] for r in ratings] == [0, 1]
        assert [r["player"] for r in ratings] == [ANA.id, BOB.id]
        assert [r["after"] for r in ratings] == [c.after.rating for c in changes]
        assert [r["before"] for r in ratings] == [1500.0, 1500.0]
        assert all(r["games"] == 1 and r["provisional"] for r in ratings)
    winner = end.row.result["ranks"].index(1) if end.row.result else None
    assert ratings[winner]["after"] > ratings[winner]["before"]


def test_a_guest_at_the_table_makes_a_default_room_casual() -> None:
    h = core()
    (ana,) = sit(h, ANA)
    assert ana.last("room").get("rated") is True
    (gus,) = sit(h, GUS)
    assert h.log.row is not None and h.log.row.rated is None
    assert gus.last("room").get("rated", False) is False
    resign(h, [ana, gus])
    assert finish_entry(h).plan is None
    assert ana.last("room").get("ratings") is None


def test_a_rated_room_refuses_guests_a_seat_but_lets_them_watch() -> None:
    h = core(rated=True)
    gus = Conn(GUS)
    with pytest.raises(ClientError) as refused:
        h.request(m.Join(gus))
    assert refused.value.code == "account_required"
    assert h.request(m.Watch(gus))["seat"] is None
    assert gus.last("room").get("rated") is True
    ana, botty = sit(h, ANA, BOTTY)
    assert h.core.row.rated is not None
    assert h.core.row.rated["versions"] == ["", "1.4.2"]
    assert h.core.row.rated["pools"] == ["human", "bot"]
    resign(h, [ana, botty])
    assert finish_entry(h).plan is not None


def test_a_casual_room_is_never_rated() -> None:
    h = core(rated=False)
    ana, bob = sit(h, ANA, BOB)
    assert ana.last("room").get("rated", False) is False
    resign(h, [ana, bob])
    assert h.core.row.rated is None and finish_entry(h).plan is None
    h.feed(m.Rated(()), at=h.now)
    assert ana.last("room").get("ratings") is None


def test_house_bots_are_rated_under_their_own_ids_and_the_registrys_versions() -> None:
    h = core(rated=True)
    (ana,) = sit(h, ANA)
    h.request(m.AddBot(ana, bot=KR_BOT, name="kriegspiel-random", seat=1))
    rated = h.core.row.rated
    assert rated is not None
    assert rated["versions"] == ["", "7"] and rated["pools"] == ["human", "bot"]
    assert h.core.row.seats == [ANA.id, KR_BOT.id]


def test_a_bot_that_comes_back_before_the_start_is_rated_under_the_version_it_says_now() -> None:
    h = core()
    old = dataclasses.replace(BOTTY, version="1.0")
    (ana,) = sit(h, ANA)
    first = Conn(old)
    h.request(m.Join(first))  # (autostart: the game starts with version 1.0)
    assert h.core.row.rated is not None and h.core.row.rated["versions"] == ["", "1.0"]

    h = core(autostart=False)
    (ana,) = sit(h, ANA)
    h.request(m.Join(Conn(old)))
    h.request(m.Join(Conn(BOTTY)))  # the same bot, reconnected as version 1.4.2
    h.request(m.Start(ana))
    assert h.core.row.rated is not None and h.core.row.rated["versions"] == ["", "1.4.2"]


def test_a_finished_rated_room_rebuilt_from_the_log_shows_its_ratings() -> None:
    h = core()
    ana, bob = sit(h, ANA, BOB)
    resign(h, [ana, bob])
    changes = changes_of(finish_entry(h))
    h.feed(m.Rated(changes), at=h.now)
    shown = ana.last("room").get("ratings")

    row = h.log.row
    assert row is not None and row.status == "finished"
    eng = engine("kriegspiel")
    again = RoomCore(
        dataclasses.replace(row),
        eng,
        eng.stored_config(row.options),
        TIMING,
        PLAYERS,
        rating_changes=reversed(changes),
    )
    Harness(again).take(again.recover(list(h.log.actions), list(h.log.events), 0.0))
    wes = Conn(WES)
    Harness(again).request(m.Watch(wes))
    assert wes.last("room").get("ratings") == shown
    assert wes.last("room").get("rated") is True


def test_a_game_whose_end_was_logged_but_not_stored_is_rated_when_the_room_is_rebuilt() -> None:
    """The server died between the game's last action and its end's transaction (where
    the rating is applied): the rebuilt room finishes the game, with its plan."""
    h = core()
    ana, bob = sit(h, ANA, BOB)
    resign(h, [ana, bob])
    end = finish_entry(h)
    h.log.entries.remove(end)
    h.log.row = next(e for e in h.log.entries if isinstance(e, journal.Start)).row
    assert h.log.row.status == "playing" and h.log.row.rated is not None
    again = h.restart(at=100.0, players=PLAYERS)
    assert again.core.state == "finished"
    redone = finish_entry(again)
    assert redone.plan is not None and end.plan is not None
    assert redone.row.rated == end.row.rated and redone.row.result == end.row.result
    assert [key for key, _ in redone.plan.seats] == [key for key, _ in end.plan.seats]


def test_rating_changes_for_a_game_not_over_are_ignored() -> None:
    h = core()
    ana, _ = sit(h, ANA, BOB)
    key = RatingKey(ANA.id, "", "kriegspiel", "wild16")
    new = Rating(1500.0, 350.0, 0.06, 0)
    h.feed(m.Rated((RatingChange(ROOM, 0, key, "human", new, new, 0.0),)), at=h.now)
    assert h.core.ratings is None and ana.last("room").get("ratings") is None


def test_a_guest_who_claims_its_name_before_the_start_plays_a_rated_game() -> None:
    h = core(autostart=False)
    gus = Conn(GUS)
    h.request(m.Join(gus))
    h.request(m.Join(Conn(BOB)))
    gus.player = dataclasses.replace(GUS, kind="account")  # (``register`` on its connection)
    h.request(m.Start(Conn(ANA)))
    assert h.core.row.rated is not None and h.core.row.rated["pools"] == ["human", "human"]


def test_the_public_result_of_a_rated_game_waits_for_its_rating_changes() -> None:
    h = core()
    ana, bob = sit(h, ANA, BOB)
    resign(h, [ana, bob])
    assert not [e for e in h.effects if isinstance(e, m.PublishResult)]
    h.feed(m.Rated(changes_of(finish_entry(h))), at=h.now)
    assert len([e for e in h.effects if isinstance(e, m.PublishResult)]) == 1
    (rated,) = [e for e in h.effects if isinstance(e, m.PublishRatings)]
    assert rated.changes == changes_of(finish_entry(h))
    assert h.core.summary().ratings is not None
    h.feed(m.Rated(changes_of(finish_entry(h))), at=h.now)  # (once only)
    assert len([e for e in h.effects if isinstance(e, m.PublishResult)]) == 1

    casual = core(rated=False)
    ana, bob = sit(casual, ANA, BOB)
    resign(casual, [ana, bob])
    assert [e for e in casual.effects if isinstance(e, m.PublishResult)]


def test_a_rated_room_takes_each_house_bot_once() -> None:
    h = core("perudo", {"seats": 3, "preset": "classic"}, rated=True)
    (ana,) = sit(h, ANA)
    h.request(m.AddBot(ana, bot=KR_BOT, name="kriegspiel-random", seat=1))
    with pytest.raises(ClientError) as refused:
        h.request(m.AddBot(ana, bot=KR_BOT, name="kriegspiel-random", seat=2))
    assert refused.value.code == "unsupported"


def test_a_rated_perudo_game_rates_every_seat_from_its_placings() -> None:
    cid = Player("p-cid", "cid", False, kind="account")
    h = core("perudo", {"seats": 3, "preset": "classic"})
    conns = sit(h, ANA, BOB, cid)
    rated = h.core.row.rated
    assert rated is not None and (rated["system"], rated["rules"]) == ("openskill", "classic")
    play_to_the_end(h, list(conns))
    end = finish_entry(h)
    result = end.row.result
    assert result is not None
    h.feed(m.Rated(changes_of(end)), at=h.now)
    ratings = conns[0].last("room")["ratings"]
    by_rank = sorted(ratings, key=lambda r: result["ranks"][r["seat"]])
    assert by_rank[0]["after"] > by_rank[0]["before"] > by_rank[-1]["after"]


def test_abandoning_a_rated_game_loses_it_and_an_aborted_game_is_never_rated() -> None:
    h = core()
    ana, bob = sit(h, ANA, BOB)
    for move in ("g1f3", "g8f6"):  # (each seat moves: a shorter game is never rated)
        h.request(m.Act(h.mover(ana, bob), action=move), at=0.5)
    h.feed(m.Detach(bob), at=1.0)
    h.run_until(1.0 + TIMING.grace + 1)
    end = finish_entry(h)
    assert end.row.reason == "abandoned" and end.plan is not None
    h.feed(m.Rated(changes_of(end)), at=h.now)
    ratings = ana.last("room")["ratings"]
    assert ratings[0]["after"] > ratings[0]["before"] > ratings[1]["after"]

    h = core()
    sit(h, ANA, BOB)
    h.take(h.core.abort("internal error (a test)", h.now + 1))
    aborted = finish_entry(h)
    assert aborted.row.status == "aborted" and aborted.plan is None


@pytest.mark.parametrize("plies", [0, 1])
def test_a_kriegspiel_game_resigned_before_each_seat_moved_is_not_rated(plies: int) -> None:
    h = core()
    ana, bob = sit(h, ANA, BOB)
    assert h.core.row.rated is not None
    resign(h, [ana, bob], plies)
    end = finish_entry(h)
    assert end.plan is None and end.row.rated is None  # stored as casual: rebuild agrees
    assert ana.last("room").get("rated") is not True


def test_a_perudo_game_that_ends_before_its_first_round_ends_is_not_rated() -> None:
    cid = Player("p-cid", "cid", False, kind="account")
    h = core("perudo", {"seats": 3, "preset": "classic"})
    conns = sit(h, ANA, BOB, cid)
    assert h.core.row.rated is not None
    for conn in conns[1:]:  # two players leave in the first round: forfeited
        h.feed(m.Detach(conn), at=h.now)
    h.run_until(h.now + TIMING.grace + 1)
    end = finish_entry(h)
    assert end.plan is None and end.row.rated is None


def test_an_absent_player_of_a_rated_perudo_game_forfeits_its_seat() -> None:
    cid = Player("p-cid", "cid", False, kind="account")
    h = core("perudo", {"seats": 3, "preset": "classic"})
    ana, bob, cid_conn = sit(h, ANA, BOB, cid)
    conns: list[Conn | None] = [ana, bob, cid_conn]
    game = h.core.game
    assert game is not None
    while not any(e.truth["type"] == "reveal" for e in h.core.streams.log):
        play(h, conns, moves=1)  # the first round ends: the game will be rated
    h.feed(m.Detach(bob), at=h.now)
    h.run_until(h.now + TIMING.grace + 1)
    assert not h.core.seats[1].autopilot  # never played by the autopilot for a placing
    forfeits = [e.truth for e in h.core.streams.log if e.truth["type"] == "forfeit"]
    assert [(f["seat"], f["reason"]) for f in forfeits] == [(1, "abandoned")]
    play_to_the_end(h, [ana, None, cid_conn])
    end = finish_entry(h)
    assert end.plan is not None and end.row.result is not None
    assert end.row.result["ranks"][1] == 3  # behind every player still in


def test_a_rated_perudo_game_without_a_time_limit_gets_a_clock_and_a_staller_loses_on_it() -> None:
    cid = Player("p-cid", "cid", False, kind="account")
    h = core("perudo", {"seats": 3, "preset": "classic"})
    conns = sit(h, ANA, BOB, cid)
    assert h.core.row.rated is not None and h.core.clocks is not None
    assert conns[0].last("room")["clock"] == {"base": 300.0, "increment": 15.0}
    start = next(e for e in h.log.entries if isinstance(e, journal.Start))
    assert start.row.settings["clock_base"] == 300.0  # (a restart keeps it)
    # a player who stays connected and never bids is out when the clock runs out
    game = h.core.game
    assert game is not None and game.to_move is not None
    staller = game.to_move
    h.run_until(h.now + 300.0 + 1)
    forfeits = [e.truth for e in h.core.streams.log if e.truth["type"] == "forfeit"]
    assert [(f["seat"], f["reason"]) for f in forfeits] == [(staller, "timeout")]
    # a room with a turn limit keeps it (its slow seat loses on time: the test below),
    # and so does a casual room without any limit
    turned = core("perudo", {"seats": 3, "preset": "classic"}, turn_time=30.0)
    sit(turned, ANA, BOB, cid)
    assert turned.core.row.rated is not None and turned.core.clocks is None
    casual = core("perudo", {"seats": 3, "preset": "classic"}, rated=False)
    sit(casual, ANA, BOB, CID)
    assert casual.core.clocks is None


CID = Player("p-cid", "cid", False, kind="account")


def _rated_past_its_first_round(turn_time: float) -> tuple[Harness, list[Conn]]:
    """A rated three-seat Perudo game with a turn limit, played past its first round (a
    game that ends sooner is never rated): the harness and the seats' connections."""
    h = core("perudo", {"seats": 3, "preset": "classic"}, turn_time=turn_time)
    conns = sit(h, ANA, BOB, CID)
    while not any(e.truth["type"] == "reveal" for e in h.core.streams.log):
        play(h, list(conns), moves=1)
    return h, conns


def test_a_slow_player_of_a_rated_perudo_game_with_a_turn_limit_loses_on_time() -> None:
    """No bot ever moves for a player in a rated game: where a casual room's stand-in
    makes a slow player's move, the rated seat is out on time, like a clock's flag."""
    h, conns = _rated_past_its_first_round(turn_time=30.0)
    game = h.core.game
    assert h.core.row.rated is not None and game is not None and game.to_move is not None
    slow, launched = game.to_move, len(h.launches())
    h.run_until(h.now + 30.0 + 1)
    forfeits = [e.truth for e in h.core.streams.log if e.truth["type"] == "forfeit"]
    assert [(f["seat"], f["reason"]) for f in forfeits] == [(slow, "timeout")]
    assert len(h.launches()) == launched  # no stand-in was sent
    assert h.core.game is not None and h.core.game.to_move != slow
    live: list[Conn | None] = [None if i == slow else c for i, c in enumerate(conns)]
    play_to_the_end(h, live)
    end = finish_entry(h)
    assert end.plan is not None and end.row.result is not None
    assert end.row.result["ranks"][slow] == 3  # behind every player still in

    # the same turn limit in a casual room: a stand-in bot makes the slow move
    casual = core("perudo", {"seats": 3, "preset": "classic"}, rated=False, turn_time=30.0)
    sit(casual, ANA, BOB, CID)
    casual.run_until(casual.now + 30.0 + 1)
    assert not any(e.truth["type"] == "forfeit" for e in casual.core.streams.log)
    assert casual.launches()  # a stand-in was sent for the slow seat


def test_a_rated_kriegspiel_game_without_a_clock_gets_the_default_clock() -> None:
    h = core()
    ana, _ = sit(h, ANA, BOB)
    assert h.core.row.rated is not None and h.core.clocks is not None
    assert ana.last("room")["clock"] == {"base": 900.0, "increment": 10.0}
    start = next(e for e in h.log.entries if isinstance(e, journal.Start))
    assert start.row.settings["clock_base"] == 900.0  # (a restart keeps it)
    timed = core(clock_base=60.0, clock_increment=1.0)
    sit(timed, ANA, BOB)
    assert timed.core.settings.clock_base == 60.0  # a clock given is kept
    casual = core(rated=False)
    sit(casual, ANA, BOB)
    assert casual.core.clocks is None


def _play_in_time(h: Harness, conns: list[Conn], step: float) -> None:
    """Every seat acts ``step`` seconds after the last action, the room's timers running
    in between, until the game ends."""
    for _ in range(10_000):
        h.run_until(h.now + step)
        game = h.core.game
        if h.core.state != "playing" or game is None or game.to_move is None:
            return
        h.request(m.Act(h.mover(*conns), action=dudo_or_lowest(h.legal(game.to_move))))
    raise AssertionError("the game did not end")


def test_a_seat_that_moves_twice_in_a_row_gets_the_whole_turn_limit_for_each_move() -> None:
    # A dudo caller who loses opens the next round: the same seat moves twice. Its
    # opening bid once inherited the time spent on the call, so a player who took 20 s
    # of a 30 s limit for each move was put out on time 10 s into its bid.
    cid = Player("p-cid", "cid", False, kind="account")
    h = core("perudo", {"seats": 3, "preset": "classic"}, turn_time=30.0)
    conns = sit(h, ANA, BOB, cid)
    _play_in_time(h, conns, step=20.0)
    game = h.core.game
    assert game is not None and game.is_over
    doubled = [
        (a.seat, b.action)
        for a, b in zip(game.history, game.history[1:], strict=False)
        if a.seat == b.seat
    ]
    assert doubled  # (the case happened: a seat moved twice in a row)
    assert not any(r.action.startswith("forfeit") for r in game.history)
    assert h.core.row.rated is not None and finish_entry(h).plan is not None


def test_a_seat_out_on_time_is_not_forfeited_again_when_its_grace_period_ends() -> None:
    h, conns = _rated_past_its_first_round(turn_time=5.0)
    game = h.core.game
    assert game is not None and game.to_move is not None
    gone = game.to_move
    h.feed(m.Detach(conns[gone]), at=h.now)  # away, and its turn's 5 s run out first
    h.run_until(h.now + 5.0 + 0.5)
    forfeits = [e.truth for e in h.core.streams.log if e.truth["type"] == "forfeit"]
    assert [(f["seat"], f["reason"]) for f in forfeits] == [(gone, "timeout")]
    assert f"grace:{gone}" not in h.timers  # (it once fired: "already out of the game")
    _play_in_time(h, conns, step=1.0)  # the others play on, past the grace period's end
    forfeits = [e.truth for e in h.core.streams.log if e.truth["type"] == "forfeit"]
    assert [(f["seat"], f["reason"]) for f in forfeits] == [(gone, "timeout")]


def test_a_seat_out_of_dice_that_leaves_gets_no_stand_in_and_no_forfeit() -> None:
    cid = Player("p-cid", "cid", False, kind="account")
    for rated in (None, False):
        h = core("perudo", {"seats": 3, "preset": "classic"}, rated=rated)
        conns = sit(h, ANA, BOB, cid)
        game = h.core.game
        assert game is not None
        while h.core.state == "playing" and all(game.in_play(s) for s in range(3)):
            play(h, list(conns), moves=1)
        assert h.core.state == "playing"
        (out,) = [s for s in range(3) if not game.in_play(s)]
        launched = len(h.launches())
        h.feed(m.Detach(conns[out]), at=h.now)
        live: list[Conn | None] = [None if s == out else c for s, c in enumerate(conns)]
        h.run_until(h.now + TIMING.grace + 1)  # (once raised "already out of the game")
        assert len(h.launches()) == launched and not h.core.seats[out].autopilot
        assert not any(e.truth["type"] == "forfeit" for e in h.core.streams.log)
        play_to_the_end(h, live)


def test_after_a_restart_a_turn_limit_waits_for_the_grace_period() -> None:
    # Downtime is nobody's fault: a rated player whose client comes back within the grace
    # period after a restart is not out on time for the minutes the server was down.
    h, _ = _rated_past_its_first_round(turn_time=5.0)
    again = h.restart(at=h.now + 600.0, players={p.id: p for p in (ANA, BOB, CID)})
    game = again.core.game
    assert game is not None and game.to_move is not None
    mover = game.to_move
    (due,) = [t.at for name, t in again.timers.items() if name == "turn"]
    assert due == again.now + TIMING.grace > again.now + 5.0
    back = Conn((ANA, BOB, CID)[mover])
    again.run_until(again.now + 7.0)  # past the turn limit, within the grace period
    again.request(m.Join(back), at=again.now)
    again.request(m.Act(back, action=dudo_or_lowest(again.legal(mover))), at=again.now)
    assert not any(e.truth["type"] == "forfeit" for e in again.core.streams.log)
