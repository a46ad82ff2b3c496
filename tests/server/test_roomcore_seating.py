"""Seating on the room core (fake clock, no sockets): joining, leaving, the host's start,
house bots, several connections of one player, spectators and private rooms."""

from __future__ import annotations

import pytest

from server.errors import ClientError
from server.roomcore import messages as m
from server.roomcore.settings import Settings
from tests.server.roomcore_harness import (
    ANA,
    AUTOPILOT,
    BOB,
    CID,
    DEE,
    KR_BOT,
    PERUDO_BOT,
    WES,
    Conn,
    Harness,
    make_core,
    play_to_the_end,
    seated,
)


def refused(h: Harness, message: m.Request, at: float | None = None) -> str:
    """Feed a request that must be refused; return the error's code."""
    with pytest.raises(ClientError) as error:
        h.request(message, at)
    assert error.value.message
    return error.value.code


def test_join_takes_the_seat_asked_for_or_the_first_free_one() -> None:
    h = Harness(make_core("perudo", {"seats": 3}, Settings(autostart=False)))
    ana, bob, cid, dee = Conn(ANA), Conn(BOB), Conn(CID), Conn(DEE)
    assert h.request(m.Join(bob, seat=2))["seat"] == 2
    assert h.request(m.Join(ana))["seat"] == 0
    assert refused(h, m.Join(ana, seat=1)) == "already_seated"
    assert refused(h, m.Join(cid, seat=2)) == "seat_taken"
    assert refused(h, m.Join(cid, seat=7)) == "seat_taken"
    assert h.request(m.Join(cid))["seat"] == 1
    assert refused(h, m.Join(dee)) == "room_full"
    assert h.core.state == "waiting"
    # each join is saved before anyone hears of it, and everyone hears of it
    assert h.log.row is not None and h.log.row.seats == ["p-ana", "p-cid", "p-bob"]
    room = ana.last("room")
    assert [s["player"] for s in room["seats"]] == ["p-ana", "p-cid", "p-bob"]
    assert all(s["connected"] for s in room["seats"])


def test_a_full_room_starts_by_itself_and_tells_every_seat() -> None:
    h, (ana, bob) = seated("perudo")
    assert h.core.state == "playing"
    assert h.log.row is not None and h.log.row.status == "playing" and h.log.row.seed_sha256
    for seat, conn in enumerate((ana, bob)):
        assert conn.last("room")["state"] == "playing"
        opening = conn.events()
        assert [f["seq"] for f in opening] == list(range(1, h.core.viewer_seq(seat) + 1))
        assert opening[0]["event"]["seed_sha256"] == h.log.row.seed_sha256
    mover = h.mover(ana, bob)
    assert mover.last("turn")["legal"] and not h.mover(bob, ana).of("turn")


def test_nobody_joins_a_started_room_but_its_players_reattach() -> None:
    h, (ana, _bob) = seated("perudo")
    assert refused(h, m.Join(Conn(CID))) == "bad_state"
    again = Conn(ANA)
    assert h.request(m.Join(again))["seat"] == 0
    snapshot = again.last("snapshot")
    assert snapshot["seat"] == 0 and len(snapshot["view"]["dice"]) == 5
    assert snapshot["seq"] == h.core.viewer_seq(0) == ana.events()[-1]["seq"]


def test_resume_asks_for_a_sequence_number_the_viewer_has_seen() -> None:
    h, (ana, _bob) = seated("perudo")
    last = h.core.viewer_seq(0)
    for since in (last + 1, -1):
        assert refused(h, m.Resume(Conn(ANA), since=since)) == "bad_seq"
    again = Conn(ANA)
    assert h.request(m.Resume(again, since=last - 1))["seq"] == last
    assert [f["seq"] for f in again.events()] == [last]
    assert again.events()[-1] == ana.events()[-1]


def test_two_connections_of_one_player_share_the_seat() -> None:
    """Either of ana's connections may act; both get every projection of seat 0."""
    h, (ana, bob) = seated("perudo")
    twin = Conn(ANA)
    h.request(m.Join(twin))
    while h.core.game is not None and h.core.game.to_move != 0:
        h.request(m.Act(bob, action=h.legal(1)[0]))
    h.request(m.Act(twin, action=h.legal(0)[0]))
    assert ana.events()[-1] == twin.events()[-1]
    assert twin.events()[-1]["seq"] == h.core.viewer_seq(0)
    assert any(f["type"] == "ack" for f in twin.frames) and not ana.of("ack")


def test_leaving_before_the_start_frees_the_seat_and_after_it_keeps_it() -> None:
    h = Harness(make_core("perudo", {"seats": 3}))
    ana, bob, cid = Conn(ANA), Conn(BOB), Conn(CID)
    h.request(m.Join(ana))
    h.request(m.Join(bob))
    assert h.request(m.Leave(bob)) == {"type": "left", "room": "r1"}
    assert [s["player"] for s in ana.last("room")["seats"]] == ["p-ana", None, None]
    assert h.log.row is not None and h.log.row.seats == ["p-ana", None, None]
    h.request(m.Join(cid))
    h.request(m.Join(Conn(BOB)))
    assert h.core.state == "playing"
    h.request(m.Leave(cid), at=1.0)
    assert h.core.seats[1].player == CID  # a game is never left by leaving the room
    assert h.timers["grace:1"].at == pytest.approx(11.0)


def test_the_host_starts_early_with_the_seats_taken() -> None:
    h = Harness(make_core("perudo", {"seats": 4}))
    ana, bob = Conn(ANA), Conn(BOB)
    h.request(m.Join(ana))
    h.request(m.Join(bob, seat=2))
    assert refused(h, m.Start(bob)) == "not_host"
    started = h.request(m.Start(ana))
    assert started["type"] == "started" and started["seq"] >= 2
    assert h.core.config.seats == 2 and len(h.core.seats) == 2
    assert h.core.seat_of(BOB) == 1  # seats renumbered in order
    assert h.log.row is not None and h.log.row.options["seats"] == 2
    assert refused(h, m.Start(ana)) == "bad_state"
    play_to_the_end(h, [ana, bob])
    assert h.core.state == "finished"
    assert h.core.game is not None
    assert {seat for seat, _ in h.core.game.history} == {0, 1}


def test_only_the_host_adds_bots_and_only_before_the_start() -> None:
    h = Harness(make_core("perudo", {"seats": 3}))
    ana, bob = Conn(ANA), Conn(BOB)
    h.request(m.Join(ana))
    h.request(m.Join(bob))
    assert refused(h, m.AddBot(bob, bot=AUTOPILOT)) == "not_host"
    added = h.request(m.AddBot(ana, bot=PERUDO_BOT, name="perudo-random"))
    assert added == {"type": "bot_added", "room": "r1", "seat": 2, "bot": "bot-perudo-random"}
    [launch] = h.launches()
    assert (launch.seat, launch.bot) == (2, "perudo-random")
    assert h.log.row is not None and h.log.row.house == {"2": launch.ticket}
    assert h.core.state == "playing"
    assert refused(h, m.AddBot(ana, bot=AUTOPILOT)) == "bad_state"
    # the bot's client joins with its ticket; a forged ticket opens nothing
    assert refused(h, m.Join(Conn(PERUDO_BOT), ticket="forged")) == "not_your_seat"
    assert h.request(m.Join(Conn(PERUDO_BOT), ticket=launch.ticket))["seat"] == 2


def test_kriegspiel_has_no_autopilot() -> None:
    h = Harness(make_core("kriegspiel", {"rules": "wild16"}))
    ana = Conn(ANA)
    h.request(m.Join(ana))
    assert refused(h, m.AddBot(ana, bot=AUTOPILOT)) == "unsupported"
    h.request(m.AddBot(ana, bot=KR_BOT, name="kriegspiel-random"))
    assert h.launches()[-1].bot == "kriegspiel-random"


def test_house_autopilots_play_a_whole_game_for_a_spectator() -> None:
    h = Harness(make_core("perudo", {"seats": 3}, host="p-wes"))
    wes = Conn(WES)
    assert h.request(m.Watch(wes)) == {"type": "watching", "room": "r1", "seat": None}
    for _ in range(3):
        h.request(m.AddBot(wes, bot=AUTOPILOT))
    assert h.core.state == "playing" and not h.launches()  # no client: the room plays them
    h.run_until(10_000.0)
    assert h.core.state == "finished"
    room = wes.last("room")
    assert room["state"] == "finished" and all(s["house"] and s["connected"] for s in room["seats"])
    assert [f["seq"] for f in wes.events()] == list(range(1, h.core.viewer_seq(None) + 1))
    assert all(f["type"] != "turn" for f in wes.frames)


def test_spectators_as_the_room_allows() -> None:
    for policy, before, after in (
        ("live", True, True),
        ("after", False, True),
        ("none", False, False),
    ):
        h, conns = seated("kriegspiel", settings=Settings(spectators=policy))
        watcher = Conn(WES)
        if before:
            assert h.request(m.Watch(watcher))["seat"] is None
            assert watcher.last("snapshot")["seat"] is None
        else:
            assert refused(h, m.Watch(watcher)) == "no_spectators"
            assert refused(h, m.Resume(watcher, since=0)) == "no_spectators"
        h.request(m.Act(conns[0], action="resign"))
        assert h.core.state == "finished"
        if after:
            h.request(m.Resume(Conn(WES), since=0))
        else:
            assert refused(h, m.Watch(Conn(WES))) == "no_spectators"
        # a player who asks to watch gets its own seat
        assert h.request(m.Watch(Conn(BOB)))["seat"] == 1


def test_a_private_rooms_invite_is_shown_to_its_players_only() -> None:
    h = Harness(make_core("perudo", {"seats": 2}, Settings(public=False)))
    ana, wes = Conn(ANA), Conn(WES)
    h.request(m.Join(ana))
    h.request(m.Watch(wes))
    assert ana.last("room")["invite"] == "invite-code" and not ana.last("room")["public"]
    assert "invite" not in wes.last("room")


def test_actions_from_outside_the_game_are_refused() -> None:
    h = Harness(make_core("perudo", {"seats": 2}, Settings(autostart=False)))
    ana, bob, dee = Conn(ANA), Conn(BOB), Conn(DEE)
    h.request(m.Join(ana))
    h.request(m.Join(bob))
    assert refused(h, m.Act(ana, action="1x2")) == "bad_state"
    h.request(m.Start(ana))
    idle = h.mover(bob, ana)
    assert refused(h, m.Act(idle, action=h.legal(0)[0])) == "not_your_turn"
    assert refused(h, m.Act(dee, action="1x2")) == "not_seated"
    assert refused(h, m.Act(ana, action="1x2", seat=1)) == "not_your_seat"
    assert refused(h, m.Act(h.mover(ana, bob), action="forfeit:timeout")) == "malformed"
    play_to_the_end(h, [ana, bob])
    assert refused(h, m.Act(ana, action="1x2")) == "game_over"
