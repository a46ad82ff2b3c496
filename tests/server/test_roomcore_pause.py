"""A room whose store cannot write pauses (issue 34, item 1), on a fake clock.

The actor's part is played here as :mod:`server.rooms.room` plays it: when the persist
of an input fails, the effects from it on wait (nothing of them is carried out), the core
is told ``StoreFailed``; once the write is retried and stored, the rest is carried out and
the core is told ``StoreRecovered``. Checked: every viewer is told of the pause, nothing
that was not stored is acknowledged, shown or listed, requests get ``paused``, no clock
runs and no timer fires (no flag, no forfeit, no stand-in), a player away during the
pause keeps a whole grace period, the clocks and play go on afterwards, and a restart
from the stored log (a SIGTERM while paused) resumes at the stored state.
"""

from __future__ import annotations

from typing import Any

from server.errors import ClientError
from server.roomcore import messages as m
from server.roomcore.settings import Settings
from tests.server.roomcore_harness import ANA, BOB, WES, Conn, Harness, seated

CLOCK = Settings(clock_base=60.0)


class Failing:
    """The actor's pause, around a harness: ``fail()`` makes the next persists fail."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.failing = False
        #: the effects waiting for the write that failed (its Persist first)
        self.pending: list[m.Effect] = []

    def feed(self, message: m.Input, at: float) -> None:
        h = self.h
        h._advance(at)
        self.carry(h.core.handle(message, h.now))

    def ask(self, message: m.Request, at: float) -> object:
        token = object()
        message.token = token
        self.feed(message, at)
        return token

    def carry(self, effects: list[m.Effect]) -> None:
        for index, effect in enumerate(effects):
            if isinstance(effect, m.Persist) and self.failing:
                self.pending = list(effects[index:])
                if not self.h.core.paused:
                    failed = m.StoreFailed(effect.entry, "database or disk is full")
                    self.h.take(self.h.core.handle(failed, self.h.now))
                return
            self.h.take([effect])

    def recover(self, at: float) -> None:
        """Space is free: the write is retried, the rest carried out, the room goes on."""
        self.failing = False
        self.h._advance(at)
        pending, self.pending = self.pending, []
        self.carry(pending)
        self.carry(self.h.core.handle(m.StoreRecovered(), self.h.now))


def answer(h: Harness, token: object) -> Any:
    return h.answers.get(token, "no answer")


def test_a_failed_write_pauses_the_room_and_nothing_unstored_is_shown() -> None:
    h, (ana, bob) = seated("kriegspiel", settings=CLOCK)
    wes = Conn(WES)
    h.request(m.Watch(wes), at=0.0)
    room = Failing(h)
    white = h.mover(ana, bob)
    black = bob if white is ana else ana
    logged = len(h.log.events)
    listed = h.core.summary()
    before = {c: len(c.frames) for c in (ana, bob, wes)}
    room.failing = True
    token = room.ask(m.Act(white, action=h.legal(h.to_move())[0]), at=5.0)
    assert h.core.paused
    # every viewer is told, and told nothing else: no ack, no event, no clock, no turn
    for conn in (ana, bob, wes):
        new = conn.frames[before[conn] :]
        assert [f["type"] for f in new] == ["paused"], new
        assert new[0]["paused"] is True and "cannot save" in new[0]["message"]
    assert answer(h, token) == "no answer"  # the act waits for its write
    assert len(h.log.events) == logged
    # the lobby lists the room as stored
    paused = h.core.summary()
    assert paused.paused and paused.seq == listed.seq and paused.state == "playing"
    # a move, a chat line during the pause: a clear answer, not "aborted"
    refused = room.ask(m.Act(black, action="e7e5"), at=6.0)
    assert isinstance(answer(h, refused), ClientError)
    assert answer(h, refused).code == "paused"
    # an hour passes: no flag, no forfeit, no stand-in, no timer at all
    assert not h.timers
    h.run_until(3600.0)
    assert h.core.state == "playing" and not h.launches()
    # space is freed: the act is acknowledged, everyone sees it, the clocks go on
    room.recover(at=3605.0)
    assert not h.paused() and h.answers[token] is None
    assert white.of("ack") and white.last("paused")["paused"] is False
    assert bob.last("paused")["paused"] is False and wes.last("paused")["paused"] is False
    clock = black.last("clock")
    # white spent its 5 s before the pause; the hour of the pause was charged to nobody
    assert sorted(clock["remaining"]) == [55.0, 60.0], clock
    assert h.core.game is not None
    assert black.last("turn")["seq"] == h.core.viewer_seq(h.core.game.to_move)
    assert h.timers, "the clock's flag is armed again"


def test_the_end_of_a_game_is_never_shown_before_it_is_stored() -> None:
    def moves(h: Harness, conns: tuple[Conn, Conn], room: Failing, fail_at: int) -> int:
        """Play dudo-or-lowest; the ``fail_at``-th action's write fails. Return the count."""
        n = 0
        while h.core.state == "playing" and not h.core.paused:
            seat = h.to_move()
            legal = h.legal(seat)
            n += 1
            room.failing = n == fail_at
            room.ask(m.Act(conns[seat], action="dudo" if "dudo" in legal else legal[0]), h.now + 1)
        return n

    h, (ana, bob) = seated("perudo")
    last = moves(h, (ana, bob), Failing(h), fail_at=0)
    assert h.core.state == "finished"
    h, (ana, bob) = seated("perudo")  # the same seeds: the same game
    room = Failing(h)
    assert moves(h, (ana, bob), room, fail_at=last) == last
    assert h.core.paused and h.core.state == "finished"  # (in memory only)
    listed = h.core.summary()
    assert listed.state == "playing" and listed.seed is None and listed.outcome is None
    assert h.log.row is not None and h.log.row.status == "playing"
    assert not [f for c in (ana, bob) for f in c.of("room") if f["state"] == "finished"]
    room.recover(at=h.now + 100)
    assert h.core.summary().state == "finished" and h.core.summary().seed is not None
    assert ana.last("room")["state"] == "finished"


def test_a_player_away_during_the_pause_keeps_a_whole_grace_period() -> None:
    """A Kriegspiel player who leaves during a pause is never scored abandoned for it."""
    h, (ana, bob) = seated("kriegspiel")
    room = Failing(h)
    room.failing = True
    white = h.mover(ana, bob)
    black = bob if white is ana else ana
    room.ask(m.Act(white, action=h.legal(h.to_move())[0]), at=1.0)
    assert h.core.paused
    room.feed(m.Detach(black), at=2.0)  # black closes the page: "paused"...
    h.run_until(500.0)  # ... for fifty grace periods
    room.recover(at=500.0)
    assert h.core.state == "playing"
    h.run_until(500.0 + h.core.timing.grace - 1)
    assert h.core.state == "playing"  # a whole grace period after the pause
    h.request(m.Join(black), at=h.now)  # black comes back in time
    h.run_until(h.now + 10 * h.core.timing.grace)
    assert h.core.state == "playing"
    assert not [e for e in h.log.events if "abandoned" in str(e.truth)]


def test_a_restart_while_paused_resumes_from_the_stored_log() -> None:
    """SIGTERM while paused: what waited was never stored and is never shown; the room
    the next server rebuilds from the log is the stored one, and resume works."""
    h, (ana, bob) = seated("kriegspiel")
    room = Failing(h)
    for _ in range(3):
        seat = h.to_move()
        h.request(m.Act((ana, bob)[seat], action=h.legal(seat)[0]), at=h.now + 1)
    stored = len(h.log.events)
    room.failing = True
    seat = h.to_move()
    room.ask(m.Act((ana, bob)[seat], action=h.legal(seat)[0]), at=h.now + 1)
    assert h.core.paused
    closed = h.core.drop_held(ClientError("no_such_room", "closed"))
    assert not closed  # nothing kept for later asked anything
    again = h.restart(at=0.0)
    assert again.core.state == "playing" and len(again.core.streams.log) == stored
    ana2 = Conn(ANA)
    since = again.core.viewer_seq(0)
    again.request(m.Resume(ana2, since=since), at=1.0)  # no bad_seq: it is the stored seq
    assert not ana2.of("error")
    bob2 = Conn(BOB)
    again.request(m.Resume(bob2, since=0), at=1.0)
    assert len(bob2.events()) == again.core.viewer_seq(1)


def test_attaching_during_a_pause_waits_for_its_end() -> None:
    h, (ana, bob) = seated("kriegspiel")
    room = Failing(h)
    room.failing = True
    white = h.mover(ana, bob)
    room.ask(m.Act(white, action=h.legal(h.to_move())[0]), at=1.0)
    wes = Conn(WES)
    token = room.ask(m.Watch(wes), at=2.0)
    assert [f["type"] for f in wes.frames] == ["paused"]  # told at once why it waits
    assert answer(h, token) == "no answer"
    room.recover(at=30.0)
    assert h.answers[token] is not None and wes.of("room") and wes.of("snapshot")
    assert wes.of("room")[-1]["seq"] == h.core.viewer_seq(None)


def test_a_paced_house_move_whose_write_fails_keeps_its_pace() -> None:
    """A house bot's move is held for its pace; its write fails: after the pause the move
    is shown at its pace (counted without the pause), the human's turn only after it."""
    from server.roomcore.settings import Timing
    from tests.server.roomcore_harness import PERUDO_BOT, make_core

    timing = Timing(grace=30.0, autopilot_delay=2.0, finished_ttl=60.0)
    h = Harness(make_core("perudo", {"seats": 2, "dice_per_player": 2}, timing=timing))
    ana = Conn(ANA)
    h.request(m.Join(ana))
    h.request(m.AddBot(ana, bot=PERUDO_BOT, name="perudo-random"))
    bot = Conn(PERUDO_BOT)
    h.request(m.Join(bot, ticket=h.launches()[-1].ticket))
    room = Failing(h)
    t = 0.0
    while h.core.game is not None and h.core.game.to_move != 1:
        t += 0.1
        h.request(m.Act(ana, action=h.legal(0)[0]), at=t)
    turns = len(ana.of("turn"))
    events = len(ana.events())
    room.failing = True
    room.ask(m.Act(bot, action=h.legal(1)[0]), at=t + 0.5)  # held until t + 2 (its pace)
    assert h.core.paused and not h.timers
    room.recover(at=t + 100.0)  # the pause: 99.5 s
    assert bot.of("ack")  # the bot hears at once; ana only at the pace
    assert len(ana.events()) == events and len(ana.of("turn")) == turns
    assert "hold" in h.timers and h.timers["hold"].at == t + 2.0 + 99.5
    h.run_until(t + 101.4)
    assert len(ana.events()) == events
    h.run_until(t + 101.6)
    assert len(ana.events()) > events and len(ana.of("turn")) == turns + 1
