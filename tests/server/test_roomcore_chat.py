"""Chat on the room core (fake clock, no sockets): two channels, the text rules, the rate,
the history a connection gets when it attaches, and the log that keeps it over a restart."""

from __future__ import annotations

import pytest

from server.errors import ClientError
from server.roomcore import chat
from server.roomcore import messages as m
from server.roomcore.settings import Settings
from tests.server.roomcore_harness import (
    ANA,
    BOB,
    KR_BOT,
    WES,
    Conn,
    Harness,
    decoded,
    make_core,
    seated,
)


def say(h: Harness, conn: Conn, text: str, at: float | None = None) -> dict[str, object]:
    """Say ``text``; return the speaker's own copy of the line (the reply)."""
    reply: dict[str, object] = h.request(m.Say(conn, text=text), at)
    return reply


def code_of(h: Harness, conn: Conn, text: str, at: float | None = None) -> str:
    with pytest.raises(ClientError) as error:
        h.request(m.Say(conn, text=text), at)
    return error.value.code


def test_players_and_spectators_talk_on_separate_channels() -> None:
    h, (ana, bob) = seated("perudo")
    wes, cy = Conn(WES), Conn(None)
    h.request(m.Watch(wes))
    h.request(m.Watch(cy))
    line = say(h, ana, "  good luck ")
    assert line == {
        "type": "chat",
        "room": "r1",
        "n": 1,
        "channel": "players",
        "seat": 0,
        "player": "p-ana",
        "name": "ana",
        "text": "good luck",
    }
    assert bob.of("chat") == [line] and not ana.of("chat")  # the speaker's copy is the reply
    assert not wes.of("chat")
    heard = say(h, wes, "go bob")
    assert heard["channel"] == "spectators" and heard["seat"] is None and heard["n"] == 2
    assert not any(f["text"] == "go bob" for f in [*ana.of("chat"), *bob.of("chat")])
    assert [f["text"] for f in cy.of("chat")] == ["go bob"]
    assert [(c.n, c.channel, c.text) for c in h.log.chat] == [
        (1, "players", "good luck"),
        (2, "spectators", "go bob"),
    ]
    stored: set[int] = set()
    for effect in h.effects:  # each line is stored before anyone hears it
        if isinstance(effect, m.Persist) and hasattr(effect.entry, "line"):
            stored.add(effect.entry.line.n)
        elif isinstance(effect, m.Send):
            for frame in map(decoded, effect.frames):
                assert frame["type"] != "chat" or frame["n"] in stored


def test_what_cannot_be_said() -> None:
    h, (ana, _bob) = seated("perudo")
    assert code_of(h, ana, "   ") == "bad_message"
    assert code_of(h, ana, "x" * (chat.MAX_CHARS + 1)) == "bad_message"
    assert code_of(h, ana, "a\x07b") == "bad_message"
    assert code_of(h, ana, "\u202eevil") == "bad_message"  # a bidirectional override
    assert say(h, ana, "two\nlines")["text"] == "two\nlines"
    assert code_of(h, Conn(WES), "I never came in") == "no_such_room"
    off, (cy, _) = seated("perudo", settings=Settings(chat=False))
    assert code_of(off, cy, "hello") == "unsupported"
    assert not h.log.chat[1:] and not off.log.chat


def test_a_speaker_has_a_burst_then_a_steady_rate() -> None:
    h, (ana, bob) = seated("perudo")
    burst = int(chat.BURST)
    for i in range(burst):
        say(h, ana, f"line {i}", at=10.0)
    assert code_of(h, ana, "one too many", at=10.0) == "rate_limited"
    assert say(h, bob, "bob has his own rate", at=10.0)["n"] == burst + 1
    assert code_of(h, ana, "still too soon", at=10.0 + 0.9 / chat.RATE) == "rate_limited"
    assert say(h, ana, "again", at=10.0 + 1.0 / chat.RATE)["n"] == burst + 2


def test_house_bots_neither_chat_nor_hear_it() -> None:
    h = Harness(make_core("kriegspiel", {"rules": "wild16"}))
    ana = Conn(ANA)
    h.request(m.Join(ana))
    h.request(m.AddBot(ana, bot=KR_BOT, name="kriegspiel-random"))
    bot = Conn(KR_BOT)
    h.request(m.Join(bot, ticket=h.launches()[-1].ticket))
    say(h, ana, "hello bot")
    assert code_of(h, bot, "beep") == "no_such_room"
    assert not bot.of("chat")


def test_an_attaching_connection_gets_its_channels_newest_lines() -> None:
    h, (ana, _bob) = seated("perudo")
    wes = Conn(WES)
    h.request(m.Watch(wes))
    for i in range(chat.HISTORY + 5):
        say(h, ana, f"line {i}", at=float(i))
    say(h, wes, "a spectator's line", at=200.0)
    again = Conn(BOB)
    h.request(m.Resume(again, since=0))
    lines = again.of("chat")
    assert [f["n"] for f in lines] == list(range(6, chat.HISTORY + 6))
    assert all(f["channel"] == "players" for f in lines)
    late = Conn(None)
    h.request(m.Watch(late))
    assert [f["text"] for f in late.of("chat")] == ["a spectator's line"]


def test_chat_survives_a_restart_on_its_own_channel() -> None:
    h, (ana, _bob) = seated("perudo")
    wes = Conn(WES)
    h.request(m.Watch(wes))
    say(h, ana, "good luck")
    say(h, wes, "go bob")
    again = h.restart(at=500.0)
    bob2, wes2 = Conn(BOB), Conn(WES)
    again.request(m.Resume(bob2, since=0))
    again.request(m.Watch(wes2))
    line = bob2.last("chat")
    assert (line["n"], line["name"], line["text"], line["channel"]) == (
        1,
        "ana",
        "good luck",
        "players",
    )
    assert [f["text"] for f in bob2.of("chat")] == ["good luck"]
    assert [(f["n"], f["text"]) for f in wes2.of("chat")] == [(2, "go bob")]
    assert say(again, bob2, "thanks", at=501.0)["n"] == 3  # numbering goes on
