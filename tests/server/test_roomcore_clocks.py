"""Clocks and turn limits on the room core (fake clock, no sockets): what is charged, when a
flag falls, what a turn limit does, and which timer ticks count."""

from __future__ import annotations

import pytest

from server.errors import ClientError
from server.roomcore import messages as m
from server.roomcore.core import STANDIN_FALLBACK
from server.roomcore.settings import Settings
from tests.server.roomcore_harness import BOB, STANDIN, Conn, seated


def test_a_flag_loses_on_time() -> None:
    h, (white, black) = seated("kriegspiel", settings=Settings(clock_base=0.3, clock_increment=0.1))
    for conn in (white, black):
        clock = conn.last("clock")
        assert clock["remaining"] == [0.3, 0.3] and clock["to_move"] == 0
    h.request(m.Act(white, action="e2e4"), at=0.05)
    assert h.log.actions[0].clocks == [0.35, 0.3]  # 0.3 - 0.05 + the increment
    assert h.timers["flag"].at == pytest.approx(0.35)
    h.run_until(0.34)
    assert h.core.state == "playing"
    h.run_until(0.35)  # black never moves
    assert h.core.state == "finished"
    for conn in (white, black):
        over = conn.events()[-1]["event"]
        assert over["type"] == "game_over"
        assert (over["reason"], over["winner"]) == ("timeout", "white")
    last = h.log.actions[-1]
    assert (last.seat, last.action) == (1, "forfeit:timeout")
    assert h.core.clocks is not None and h.core.clocks.snapshot(0.35) == [0.35, 0.0]


def test_a_refused_attempt_spends_the_movers_time() -> None:
    """The clock runs from the turn's start to the accepted move, refusals included."""
    h, (white, black) = seated("kriegspiel", settings=Settings(clock_base=60.0))
    h.request(m.Act(white, action="e2e4"), at=1.0)
    h.request(m.Act(black, action="e7e5"), at=2.0)
    h.request(m.Act(white, action="e4e5"), at=5.0)  # blocked by black's pawn: illegal
    assert h.core.game is not None and h.core.game.to_move == 0
    assert h.core.clocks is not None and h.core.clocks.snapshot(5.0) == [56.0, 59.0]
    h.request(m.Act(white, action="d2d4"), at=8.0)
    assert h.log.actions[-1].clocks == [53.0, 59.0]
    assert white.last("clock")["remaining"] == [53.0, 59.0]


def test_a_move_sent_after_the_flag_fell_is_refused_and_flags() -> None:
    h, (white, _black) = seated("kriegspiel", settings=Settings(clock_base=10.0))
    with pytest.raises(ClientError) as late:
        h.request(m.Act(white, action="e2e4"), at=10.5)  # before the flag's tick came
    assert late.value.code == "game_over"
    assert h.core.state == "finished"
    assert [(a.seat, a.action) for a in h.log.actions] == [(0, "forfeit:timeout")]


def test_a_turn_limit_sends_a_stand_in_for_one_move_then_the_policy_moves() -> None:
    h, (ana, bob) = seated("perudo", settings=Settings(turn_time=5.0))
    clock = ana.last("clock")
    assert clock["turn_time"] == 5.0 and clock["remaining"] is None
    game = h.core.game
    assert game is not None and game.to_move is not None
    first = game.to_move
    h.run_until(5.0)  # nobody moves: a stand-in is sent for this one move
    [launch] = h.launches()
    assert (launch.seat, launch.bot) == (first, "perudo-simple")
    assert not game.history
    h.run_until(5.0 + STANDIN_FALLBACK)  # it never came: the engine's policy moves
    assert [r.seat for r in game.history] == [first]
    assert not h.core.seats[first].autopilot  # a turn limit is one move, not an absence
    assert h.timers["turn"].at == pytest.approx(5.0 + STANDIN_FALLBACK + 5.0)
    assert (ana, bob)[first].events()[-1]["seq"] == h.core.viewer_seq(first)


def test_a_stand_in_that_comes_makes_the_one_move_and_is_sent_away() -> None:
    h, (ana, bob) = seated("perudo", settings=Settings(turn_time=5.0))
    game = h.core.game
    assert game is not None and game.to_move is not None
    first = game.to_move
    h.run_until(5.0)
    standin = Conn(STANDIN)
    assert h.request(m.Join(standin, ticket=h.launches()[-1].ticket), at=6.0)["seat"] == first
    turn = standin.last("turn")
    assert turn["seat"] == first
    h.request(m.Act(standin, action=turn["legal"][0]), at=6.5)
    assert [r.seat for r in game.history] == [first]
    assert standin.last("left") == {"type": "left", "room": "r1"}
    h.run_until(5.0 + STANDIN_FALLBACK)
    assert len(game.history) == 1  # the policy did not move as well
    with pytest.raises(ClientError):  # its ticket opens nothing any more
        h.request(m.Join(Conn(STANDIN), ticket=h.launches()[-1].ticket), at=9.0)
    assert (ana, bob)[first].events()[-1]["seq"] == h.core.viewer_seq(first)


def test_a_tick_of_a_timer_set_again_is_ignored() -> None:
    """The actor may deliver a tick it queued before the timer was cancelled and set
    again: only the newest generation fires."""
    h, (_white, black) = seated("kriegspiel")
    h.feed(m.Detach(black), at=1.0)
    stale = h.timers["grace:1"]
    again = Conn(BOB)
    h.request(m.Resume(again, since=0), at=2.0)
    assert "grace:1" not in h.timers
    h.feed(m.Detach(again), at=5.0)
    assert h.timers["grace:1"].generation != stale.generation
    h.feed(m.Tick(stale.name, stale.generation), at=stale.at)
    assert h.core.state == "playing"
    h.run_until(15.0)
    assert h.core.state == "finished"
