"""Empty waiting rooms expire (issue 34): a waiting room with no human seated and
connected is aborted as ``empty`` after ``Timing.empty_room`` seconds, on a fake clock."""

from __future__ import annotations

from server.roomcore import messages as m
from server.roomcore.settings import Timing
from tests.server.roomcore_harness import ANA, BOB, Conn, Harness, make_core

TIMING = Timing(grace=10.0, autopilot_delay=1.0, finished_ttl=60.0, empty_room=60.0)


def test_a_waiting_room_nobody_sits_in_expires() -> None:
    h = Harness(make_core("kriegspiel", {"rules": "wild16"}, timing=TIMING))
    h.feed(m.Relaunch(), at=0.0)  # (the lobby's first input to a new room)
    h.run_until(59.9)
    assert h.core.state == "waiting"
    h.run_until(60.0)
    assert h.core.state == "aborted" and h.core.row.reason == "empty"
    assert isinstance(h.effects[-1], m.Close) and not h.timers  # out of memory at once


def test_a_seated_human_keeps_it_and_leaving_starts_the_countdown() -> None:
    h = Harness(make_core("kriegspiel", {"rules": "wild16"}, timing=TIMING))
    ana = Conn(ANA)
    h.request(m.Join(ana), at=0.0)
    h.run_until(500.0)
    assert h.core.state == "waiting" and "empty" not in h.timers
    h.feed(m.Detach(ana), at=500.0)  # her connection closed: the seat stays hers
    assert h.timers["empty"].at == 560.0
    h.request(m.Join(Conn(ANA)), at=550.0)  # back in time
    assert "empty" not in h.timers
    h.feed(m.Detach(ana), at=600.0)
    h.run_until(700.0)
    assert h.core.state == "waiting"  # (her second connection is still there)


def test_a_room_that_starts_never_expires() -> None:
    h = Harness(make_core("kriegspiel", {"rules": "wild16"}, timing=TIMING))
    ana, bob = Conn(ANA), Conn(BOB)
    h.request(m.Join(ana), at=0.0)
    h.request(m.Join(bob), at=1.0)
    assert h.core.state == "playing" and "empty" not in h.timers
