"""Absent players on the room core (fake clock, no sockets): grace periods, forfeits for
abandonment, stand-in bots and the policy behind them, and the player's return."""

from __future__ import annotations

import pytest

from server.errors import ClientError
from server.roomcore import messages as m
from server.roomcore.core import STANDIN_FALLBACK
from server.roomcore.settings import Timing
from tests.server.roomcore_harness import (
    ANA,
    BOB,
    STANDIN,
    Conn,
    Harness,
    make_core,
    play_to_the_end,
    seated,
)

NO_EXPIRY = Timing(grace=10.0, autopilot_delay=1.0, finished_ttl=60.0, empty_room=0.0)


def test_an_absent_kriegspiel_player_loses_by_abandonment() -> None:
    h, (white, black) = seated("kriegspiel")
    h.feed(m.Detach(black), at=1.0)
    assert white.last("room")["seats"][1]["connected"] is False
    h.run_until(11.0)
    over = white.events()[-1]["event"]
    assert over["type"] == "game_over"
    assert (over["reason"], over["winner"]) == ("abandoned", "white")
    assert any(isinstance(e, m.Note) and "abandoned" in e.text for e in h.effects)


def test_a_connection_lost_before_the_start_costs_nothing() -> None:
    # (with empty waiting rooms kept: test_roomcore_empty.py has them expire)
    h = Harness(make_core("kriegspiel", {"rules": "wild16"}, timing=NO_EXPIRY))
    ana = Conn(ANA)
    h.request(m.Join(ana))
    h.feed(m.Detach(ana), at=1.0)
    assert not h.timers and h.core.seats[0].player == ANA
    bob = Conn(BOB)
    h.request(m.Join(bob), at=100.0)
    assert h.core.state == "playing"
    assert "grace:0" in h.timers and "grace:1" not in h.timers  # ana is away from the start
    h.request(m.Resume(Conn(ANA), since=0), at=101.0)
    assert "grace:0" not in h.timers


def test_the_policy_plays_for_an_absent_player_whose_stand_in_never_comes() -> None:
    h, (ana, bob) = seated("perudo")
    h.feed(m.Detach(bob), at=1.0)
    play_to_the_end(h, [ana, None])  # bob's seat moves on the room's timers only
    game = h.core.game
    assert game is not None and any(seat == 1 for seat, _ in game.history)
    assert [(launch.seat, launch.bot) for launch in h.launches()] == [(1, "perudo-simple")]
    assert any(f["seats"][1]["autopilot"] for f in ana.of("room"))
    moves = [t.at for t in h.effects if isinstance(t, m.Schedule) and t.name == "turn"]
    assert moves and min(moves) >= 11.0 + STANDIN_FALLBACK  # the stand-in had its chance
    # bob comes back to the finished game and sees it all
    again = Conn(BOB)
    assert h.request(m.Resume(again, since=0))["seq"] == h.core.viewer_seq(1)
    assert [f["seq"] for f in again.events()] == list(range(1, h.core.viewer_seq(1) + 1))


def test_a_stand_in_plays_until_the_player_acts_again() -> None:
    h, (ana, bob) = seated("perudo")
    h.feed(m.Detach(bob), at=1.0)
    h.run_until(11.0)
    standin = Conn(STANDIN)
    assert h.request(m.Join(standin, ticket=h.launches()[-1].ticket), at=11.5)["seat"] == 1
    game = h.core.game
    assert game is not None
    for _ in range(2):
        while game.to_move != 1:
            h.request(m.Act(ana, action=h.legal(0)[0]), at=h.now + 0.1)
        if not standin.of("ack"):
            turn = standin.last("turn")
            h.request(m.Act(standin, action=turn["legal"][0]), at=h.now + 0.1)
            assert game.history[-1].seat == 1 and h.core.seats[1].autopilot
            h.run_until(h.now + 1.0)  # the stand-in's move is shown at its pace
    # bob acts from his phone without resuming first: that is a return too
    phone = Conn(BOB)
    h.request(m.Act(phone, action=h.legal(1)[0]), at=h.now + 0.1)
    assert not h.core.seats[1].autopilot
    assert standin.last("left") == {"type": "left", "room": "r1"}
    while game.to_move != 1 and h.core.state == "playing":
        h.request(m.Act(ana, action=h.legal(0)[0]), at=h.now + 0.1)
    with pytest.raises(ClientError) as back:
        h.request(m.Act(standin, action=h.legal(1)[0]), at=h.now + 0.1)
    assert back.value.code == "not_seated"  # sent away: its ticket opens nothing now
