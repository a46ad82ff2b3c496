"""The client core and the ``match`` frame: a client that follows its seats (a person's
client) follows and resumes the new room at once; any other only passes the frame on."""

from __future__ import annotations

from bots.client.core import ClientCore, Received
from tests.bots.test_client_core import sent, welcome

MATCH = {
    "type": "match",
    "room": "Qz81_kLm",
    "seat": 1,
    "game": "kriegspiel",
    "source": "seek",
    "ref": "sk3f9a01c2",  # (a seek's id: not a request's ref)
    "options": {},
    "players": [],
    "rated": False,
    "no_show": 60.0,
}


def welcomed(follow_seats: bool) -> ClientCore:
    core = ClientCore("ana", follow_seats=follow_seats)
    core.connection_made()
    sent(core)  # the hello
    core.receive(welcome())
    sent(core)
    return core


def test_a_match_is_followed_and_resumed_from_the_start() -> None:
    core = welcomed(follow_seats=True)
    out = core.receive(MATCH)
    assert [type(o) for o in out] == [Received]
    assert isinstance(out[0], Received) and out[0].frame == MATCH
    assert [(f["type"], f["room"], f["since"]) for f in sent(core)] == [("resume", "Qz81_kLm", 0)]
    assert core.streams["Qz81_kLm"].seat == 1
    core.receive(MATCH)  # the same frame again (two connections): no second resume
    assert sent(core) == []


def test_without_follow_seats_the_frame_is_only_passed_on() -> None:
    core = welcomed(follow_seats=False)
    out = core.receive(MATCH)
    assert [type(o) for o in out] == [Received]
    assert sent(core) == []
