"""The sans-I/O client core without sockets: frames in, events and frames out."""

from __future__ import annotations

from typing import Any

import pytest

from bots.client.core import (
    PROTOCOL_VERSION,
    ClientCore,
    Disconnected,
    GameEnded,
    HelloRefused,
    Lost,
    Pacer,
    Received,
    Refused,
    Turn,
)

Json = dict[str, Any]
LIMITS = {"max_frame": 16384, "rate": 20.0, "burst": 40.0, "idle_timeout": 600.0}


def sent(core: ClientCore) -> list[Json]:
    """Everything the core has for the wire now, in order."""
    out = []
    while (frame := core.next_frame()) is not None:
        out.append(frame)
    return out


def welcome(token: str = "tok", seats: list[Json] | None = None) -> Json:
    return {
        "type": "welcome",
        "v": 1,
        "server": "umpire test",
        "player": {"id": "p1", "name": "ana", "bot": False},
        "token": token,
        "seats": seats or [],
        "limits": LIMITS,
    }


def event(room: str, seq: int, kind: str = "bid") -> Json:
    return {"type": "event", "room": room, "seq": seq, "event": {"type": kind}}


def turn(room: str, seq: int, seat: int = 0) -> Json:
    return {"type": "turn", "room": room, "seat": seat, "seq": seq, "legal": ["dudo"]}


def kinds(outputs: list[Any]) -> list[str]:
    return [o.kind if isinstance(o, Received) else type(o).__name__ for o in outputs]


def welcomed(**kwargs: Any) -> ClientCore:
    core = ClientCore("ana", **kwargs)
    core.connection_made()
    sent(core)
    core.receive(welcome())
    sent(core)
    return core


def joined(core: ClientCore, room: str = "r1", seat: int = 0) -> None:
    ref = core.send({"type": "join", "room": room})
    sent(core)
    core.receive({"type": "joined", "room": room, "seat": seat, "ref": ref})


def test_hello_goes_first_and_messages_wait_for_the_welcome() -> None:
    core = ClientCore("ana", token="old", bot=True)
    ref = core.send({"type": "list_rooms"})
    core.connection_made()
    assert sent(core) == [
        {"type": "hello", "v": PROTOCOL_VERSION, "name": "ana", "bot": True, "token": "old"}
    ]
    out = core.receive(welcome("new"))
    assert kinds(out) == ["welcome"] and core.ready
    assert core.token == "new" and core.player == {"id": "p1", "name": "ana", "bot": False}
    assert sent(core) == [{"type": "list_rooms", "ref": ref}]


def test_a_reply_and_an_error_carry_the_message_they_answer() -> None:
    core = welcomed()
    ref = core.send({"type": "profile"})
    bad = core.send({"type": "join", "room": "nope"})
    assert [m["ref"] for m in sent(core)] == [ref, bad]
    (reply,) = core.receive({"type": "profile", "ref": ref, "player": {}})
    assert isinstance(reply, Received) and reply.request == {"type": "profile", "ref": ref}
    (error,) = core.receive({"type": "error", "code": "no_such_room", "message": "?", "ref": bad})
    assert isinstance(error, Refused) and error.code == "no_such_room"
    assert error.request == {"type": "join", "room": "nope", "ref": bad}
    (late,) = core.receive({"type": "pong", "ref": ref})  # answered already: no request
    assert isinstance(late, Received) and late.request is None


def test_a_forgotten_token_makes_a_new_player_and_other_refusals_are_final() -> None:
    core = ClientCore("ana", token="stale")
    core.connection_made()
    sent(core)
    out = core.receive({"type": "error", "code": "bad_token", "message": "unknown token"})
    assert isinstance(out[0], Refused) and out[0].request == {"type": "hello"}
    assert sent(core) == [{"type": "hello", "v": 1, "name": "ana"}]
    out = core.receive({"type": "error", "code": "bad_name", "message": "too long"})
    assert isinstance(out[0], HelloRefused)
    strict = ClientCore("bot", token="stale", forget_bad_token=False)
    strict.connection_made()
    sent(strict)
    (final,) = strict.receive({"type": "error", "code": "bad_token", "message": "?"})
    assert isinstance(final, HelloRefused) and sent(strict) == []


def test_events_are_delivered_once_in_order_and_a_gap_asks_for_a_resume() -> None:
    core = welcomed()
    joined(core)
    assert kinds(core.receive(event("r1", 1))) == ["event"]
    assert core.receive(event("r1", 1)) == []  # repeated
    assert core.receive(event("r1", 3)) == []  # 2 is missing
    assert sent(core) == [{"type": "resume", "room": "r1", "since": 1, "ref": 2}]
    assert core.receive(event("r1", 4)) == [] and sent(core) == []  # one resume is enough
    replay = [core.receive(event("r1", n)) for n in (2, 3, 4)]
    assert [kinds(r) for r in replay] == [["event"]] * 3
    assert core.streams["r1"].seq == 4


def test_a_turn_waits_for_its_events_and_for_a_resync() -> None:
    core = welcomed()
    joined(core, seat=1)
    assert core.receive(turn("r1", 2, seat=1)) == []  # event 2 not seen yet
    assert kinds(core.receive(event("r1", 1))) == ["event"]
    out = core.receive(event("r1", 2))
    assert kinds(out) == ["event", "turn"] and isinstance(out[1], Turn)
    assert core.streams["r1"].turn is not None
    core.resume("r1", 0)
    sent(core)
    assert core.receive(turn("r1", 2, seat=1)) == []  # held during the resync
    core.receive(event("r1", 1))
    core.receive(event("r1", 2))
    out = core.receive({"type": "resumed", "room": "r1", "seat": 1, "seq": 2, "ref": 3})
    assert kinds(out) == ["resumed"]  # released with event 2 already
    assert core.receive(turn("r1", 1, seat=1)) == []  # stale: the game moved on


def test_the_turn_after_an_own_accepted_attempt_is_a_retry() -> None:
    core = welcomed()
    joined(core)
    core.receive(event("r1", 1))
    (first,) = core.receive(turn("r1", 1))
    assert isinstance(first, Turn) and not first.retry
    ref = core.act("r1", "a1a8")
    assert sent(core) == [{"type": "act", "room": "r1", "action": "a1a8", "ref": ref}]
    (ack,) = core.receive({"type": "ack", "room": "r1", "seq": 2, "first": 2, "ref": ref})
    assert isinstance(ack, Received) and ack.request is not None
    assert core.streams["r1"].turn is None
    core.receive(event("r1", 2, "illegal"))
    (again,) = core.receive(turn("r1", 2))
    assert isinstance(again, Turn) and again.retry


def test_a_refused_act_that_is_not_about_the_action_ends_the_turn() -> None:
    core = welcomed()
    joined(core)
    core.receive(event("r1", 1))
    core.receive(turn("r1", 1))
    bad = core.act("r1", "9x9")
    (refused,) = core.receive(
        {"type": "error", "code": "illegal", "message": "no", "ref": bad, "room": "r1"}
    )
    assert isinstance(refused, Refused) and core.streams["r1"].turn is not None
    late = core.act("r1", "dudo")
    core.receive({"type": "error", "code": "not_your_turn", "message": "no", "ref": late})
    assert core.streams["r1"].turn is None


def test_the_end_is_announced_after_every_event_before_it() -> None:
    core = welcomed()
    joined(core)
    final = {"type": "room", "room": "r1", "state": "finished", "seq": 2, "outcome": {}}
    assert kinds(core.receive(final)) == ["room"]
    assert kinds(core.receive(event("r1", 1))) == ["event"]
    out = core.receive(event("r1", 2, "game_over"))
    assert kinds(out) == ["event", "GameEnded"]
    assert isinstance(out[1], GameEnded) and out[1].frame is final
    assert core.receive(final) == [Received(final)]  # announced once


def test_a_reconnect_loses_what_was_in_flight_and_resumes_every_followed_room() -> None:
    core = welcomed()
    joined(core, "r1", seat=0)
    ref = core.send({"type": "watch", "invite": "CODE"})
    sent(core)
    core.receive({"type": "watching", "room": "r2", "seat": None, "ref": ref})
    core.receive(event("r2", 1))
    core.receive({"type": "room", "room": "r3", "state": "finished", "seq": 0})
    core.receive(event("r1", 1))
    pending = core.send({"type": "profile"})
    assert core.connection_lost() == [
        Disconnected(),
        Lost(pending, {"type": "profile", "ref": pending}),
    ]
    queued = core.send({"type": "list_rooms"})  # while away: waits for the welcome
    core.connection_made()
    assert [m["type"] for m in sent(core)] == ["hello"]
    core.receive(welcome())
    assert sent(core) == [
        {"type": "resume", "room": "r1", "since": 1, "ref": queued + 1},
        {"type": "resume", "room": "r2", "since": 1, "invite": "CODE", "ref": queued + 2},
        {"type": "list_rooms", "ref": queued},
    ]


def test_a_room_left_is_forgotten_and_welcome_seats_are_followed_on_request() -> None:
    core = welcomed()
    joined(core)
    ref = core.send({"type": "leave", "room": "r1"})
    sent(core)
    assert kinds(core.receive({"type": "left", "room": "r1", "ref": ref})) == ["left"]
    assert core.receive(event("r1", 1)) == []  # in flight when we left
    assert "r1" not in core.streams
    follower = ClientCore("ana", follow_seats=True)
    follower.connection_made()
    sent(follower)
    follower.receive(welcome(seats=[{"room": "r9", "game": "perudo", "seat": 2, "seq": 5}]))
    assert sent(follower) == [{"type": "resume", "room": "r9", "since": 0, "ref": 1}]
    assert follower.streams["r9"].seat == 2
    plain = welcomed()
    plain.receive(welcome(seats=[{"room": "r9", "game": "perudo", "seat": 2, "seq": 5}]))
    assert "r9" not in plain.streams


def test_a_house_bot_resumes_with_its_ticket() -> None:
    core = ClientCore("bot-x", bot=True)
    core.connection_made()
    sent(core)
    core.receive(welcome())
    ref = core.send({"type": "join", "room": "r1", "seat": 1, "ticket": "T"})
    sent(core)
    core.receive({"type": "joined", "room": "r1", "seat": 1, "ref": ref})
    core.connection_lost()
    core.connection_made()
    sent(core)
    core.receive(welcome())
    assert sent(core) == [{"type": "resume", "room": "r1", "since": 0, "ticket": "T", "ref": 2}]


def test_rate_limited_sends_the_same_message_again_after_a_full_token() -> None:
    core = welcomed()
    ref = core.act("r1", "dudo")
    (message,) = sent(core)
    assert core.receive({"type": "error", "code": "rate_limited", "message": "", "ref": ref}) == []
    assert sent(core) == [message]
    assert core.pacer.delay(core.pacer.stamp or 0.0) == pytest.approx(1 / 16)


def test_rate_limited_waits_the_servers_retry_after() -> None:
    core = welcomed()
    ref = core.act("r1", "dudo")
    (message,) = sent(core)
    error = {"type": "error", "code": "rate_limited", "message": "", "ref": ref}
    assert core.receive({**error, "retry_after": 0.25}) == []
    assert sent(core) == [message]
    assert core.pacer.delay(core.pacer.stamp or 0.0) == pytest.approx(0.25)


def test_the_pacer_keeps_below_the_server_limits() -> None:
    pacer = Pacer()
    pacer.configure({"rate": 10.0, "burst": 4.0})
    assert (pacer.rate, pacer.burst) == (8.0, 2.0)
    for _ in range(2):
        assert pacer.delay(100.0) == 0.0
        pacer.spend(100.0)
    assert pacer.delay(100.0) == pytest.approx(1 / 8)
    assert pacer.delay(100.0 + 1 / 8) == 0.0
    pacer.configure({})
    assert (pacer.rate, pacer.burst) == (16.0, 20.0)


def test_a_bot_that_joins_a_game_in_progress_gets_every_event_from_the_first() -> None:
    core = welcomed(from_start=True)
    joined(core, seat=1)
    snapshot = {"type": "snapshot", "room": "r1", "seat": 1, "seq": 3, "view": {}}
    assert core.receive(snapshot) == []
    assert sent(core) == [{"type": "resume", "room": "r1", "since": 0, "ref": 2}]
    assert core.receive(event("r1", 4)) == []  # live, ahead of the replay
    assert [kinds(core.receive(event("r1", n))) for n in (1, 2, 3, 4)] == [["event"]] * 4
    viewer = welcomed()
    joined(viewer)
    assert kinds(viewer.receive(snapshot)) == ["snapshot"] and viewer.streams["r1"].seq == 3


def test_a_ticket_is_known_before_the_reply_that_confirms_the_seat() -> None:
    core = welcomed(from_start=True)
    core.send({"type": "join", "room": "r1", "seat": 1, "ticket": "T"})
    sent(core)
    snapshot = {"type": "snapshot", "room": "r1", "seat": 1, "seq": 4, "view": {}}
    assert core.receive(snapshot) == []  # the game started before the reply
    assert sent(core) == [{"type": "resume", "room": "r1", "since": 0, "ticket": "T", "ref": 2}]


def test_the_core_does_no_io() -> None:
    import ast
    from pathlib import Path

    import bots.client.core as module

    tree = ast.parse(Path(module.__file__).read_text())
    imported = {
        (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    }
    assert imported <= {"__future__", "itertools", "collections", "dataclasses", "typing"}


def test_a_refused_resume_stops_the_resync_and_a_gone_room_is_no_longer_followed() -> None:
    core = welcomed()
    joined(core, "r1")
    joined(core, "r2")
    first = core.resume("r1")
    second = core.resume("r2")
    sent(core)
    core.receive({"type": "error", "code": "bad_seq", "message": "?", "ref": first})
    assert not core.streams["r1"].resyncing
    (refused,) = core.receive(
        {"type": "error", "code": "no_such_room", "message": "?", "ref": second}
    )
    assert isinstance(refused, Refused) and refused.request is not None
    assert "r2" not in core.streams


def test_a_turn_sent_again_by_a_resume_is_not_a_new_turn() -> None:
    core = welcomed()
    joined(core)
    core.receive(event("r1", 1))
    (first,) = core.receive(turn("r1", 1))
    assert isinstance(first, Turn)
    core.resume("r1", 0)
    core.receive(event("r1", 1))
    assert core.receive(turn("r1", 1)) == []  # the replay's copy of the turn being played
    ref = core.act("r1", "dudo")
    core.receive({"type": "ack", "room": "r1", "seq": 2, "first": 2, "ref": ref})
    core.receive(event("r1", 2))
    assert isinstance(core.receive(turn("r1", 2))[0], Turn)


def test_a_match_frame_is_delivered_and_follows_nothing() -> None:
    """A ``match`` offers a seat: the client decides whether to attach (the ladder's
    connection never does: each game has its own), so no stream is followed or resumed."""
    core = welcomed()
    frame = {"type": "match", "room": "r9", "seat": 1, "game": "perudo", "source": "ladder"}
    assert kinds(core.receive(frame)) == ["match"]
    assert core.streams == {}
    core.connection_lost()
    core.connection_made()
    sent(core)
    core.receive(welcome())
    assert sent(core) == []
