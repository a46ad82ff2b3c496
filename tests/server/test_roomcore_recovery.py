"""Recovery from the log on the room core (fake clock, no sockets): a room rebuilt from what
it persisted plays on as if nothing happened, a log that does not replay is refused, and a
failed room ends its game for everyone."""

from __future__ import annotations

import dataclasses

import pytest

from server.errors import ClientError
from server.roomcore import messages as m
from server.roomcore.settings import Settings
from tests.server.roomcore_harness import (
    ANA,
    BOB,
    CID,
    WES,
    Conn,
    Harness,
    make_core,
    play_to_the_end,
    seated,
)


def test_a_restart_restores_the_game_and_its_clocks() -> None:
    settings = Settings(clock_base=60.0, clock_increment=1.0)
    h, (white, black) = seated("kriegspiel", options={"rules": "cincinnati"}, settings=settings)
    for conn, move, at in ((white, "e2e4", 2.0), (black, "e7e5", 5.0), (white, "g1f3", 6.0)):
        h.request(m.Act(conn, action=move), at=at)
    assert h.core.clocks is not None
    clocks = h.core.clocks.snapshot(6.0)
    assert clocks == [59.0, 58.0]
    seen = black.events()[-1]["seq"]
    assert seen == h.core.viewer_seq(1)

    again = h.restart(at=3000.0)
    assert again.core.state == "playing"
    assert again.core.viewer_seq(1) == seen and len(again.core.streams.log) == len(
        h.core.streams.log
    )
    assert again.core.clocks is not None and again.core.clocks.snapshot(3000.0) == clocks
    black2 = Conn(BOB)
    again.request(m.Resume(black2, since=0), at=3001.0)
    assert [f["event"] for f in black2.events()] == [f["event"] for f in black.events()]
    again.request(m.Act(black2, action="b8c6"), at=3003.0)
    ack = black2.last("ack")
    assert ack["first"] == seen + 1 and ack["action"] == "b8c6"
    assert again.log.actions[-1].clocks == [59.0, 56.0]  # the 3 s since the restart, + 1


def test_a_waiting_room_is_restored_with_its_seats() -> None:
    h = Harness(make_core("perudo", {"seats": 3}))
    h.request(m.Join(Conn(ANA)))
    h.request(m.Join(Conn(BOB)))
    again = h.restart(at=50.0)
    assert again.core.state == "waiting" and not again.effects
    assert again.request(m.Join(Conn(CID)))["seat"] == 2
    assert again.core.state == "playing"
    assert again.log.row is not None and again.log.row.seats == ["p-ana", "p-bob", "p-cid"]


def test_a_whole_game_replays_to_the_same_streams() -> None:
    """Every seat resuming from 0 after a restart gets its stream again, frame for frame."""
    h, conns = seated("perudo", (ANA, BOB, CID))
    play_to_the_end(h, list(conns))
    assert h.core.state == "finished"
    again = h.restart(at=10_000.0)
    assert again.core.state == "finished" and "evict" in again.timers
    for seat, player in enumerate((ANA, BOB, CID)):
        conn = Conn(player)
        again.request(m.Resume(conn, since=0))
        assert conn.events() == conns[seat].events()
    assert again.core.summary().seed == h.core.row.seed.hex()


def test_an_end_logged_before_the_row_was_updated_is_finished_on_recovery() -> None:
    """The server died between the last action's entry and the game's final row."""
    h, (white, black) = seated("kriegspiel")
    for conn, move in ((white, "f2f3"), (black, "e7e5"), (white, "g2g4")):
        h.request(m.Act(conn, action=move))
    playing_row = h.log.row
    h.request(m.Act(black, action="d8h4"))  # mate
    assert h.core.state == "finished"
    h.log.row = playing_row  # the final row never reached the store
    again = h.restart(at=100.0)
    assert again.core.state == "finished"
    assert again.log.row is not None and again.log.row.status == "finished"
    assert again.log.row.seed_revealed and again.log.row.result is not None
    assert "evict" in again.timers


def test_a_log_that_does_not_replay_is_refused() -> None:
    h, (white, _black) = seated("kriegspiel")
    h.request(m.Act(white, action="e2e4"))
    first = h.log.events[-1]
    h.log.events[-1] = dataclasses.replace(first, truth={**first.truth, "move": "e2e3"})
    with pytest.raises(RuntimeError, match="does not replay"):
        h.restart(at=10.0)
    h.log.events[-1] = first
    missing = h.log.events.pop()
    with pytest.raises(RuntimeError, match="not logged"):
        h.restart(at=10.0)
    h.log.events.append(missing)
    assert h.restart(at=10.0).core.state == "playing"


def test_a_failed_room_aborts_its_game_for_everyone() -> None:
    """What the actor does when the engine or the room fails: the game ends as aborted,
    requests held behind a paced move are refused, the seed is revealed."""
    h, (ana, bob) = seated("perudo")
    wes = Conn(WES)
    h.request(m.Watch(wes))
    h.take(h.core.abort("internal error: engine bug", now=5.0))
    for conn in (ana, bob, wes):
        aborted = conn.events()[-1]["event"]
        assert aborted == {
            "type": "aborted",
            "reason": "internal error: engine bug",
            "seed": h.core.row.seed.hex(),
        }
        assert conn.last("room")["state"] == "aborted"
    row = h.log.row
    assert row is not None and row.status == "aborted" and row.seed_revealed
    assert row.reason == "internal error: engine bug" and row.house == {}
    with pytest.raises(ClientError) as refused:
        h.request(m.Act(h.mover(ana, bob), action="1x2"), at=6.0)
    assert refused.value.code == "aborted"
    assert "evict" in h.timers
    again = h.restart(at=100.0)
    assert again.core.state == "aborted"
    watcher = Conn(WES)
    again.request(m.Watch(watcher))
    assert watcher.last("room")["reason"] == "internal error: engine bug"


def test_a_finished_room_leaves_memory_after_its_time() -> None:
    h, (white, _black) = seated("kriegspiel")
    h.request(m.Act(white, action="resign"), at=1.0)
    assert h.timers["evict"].at == pytest.approx(61.0)
    h.run_until(61.0)
    released = [e.conn for e in h.effects if isinstance(e, m.Released)]
    assert white in released and isinstance(h.effects[-1], m.Close)
    assert not h.core.viewers
