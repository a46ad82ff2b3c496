"""Pacing on the room core (fake clock, no sockets): what a Kriegspiel opponent may not
learn from a refused attempt, and how requests wait while a house seat's move is held."""

from __future__ import annotations

from server.roomcore import messages as m
from server.roomcore.settings import Settings, Timing
from tests.server.roomcore_harness import ANA, PERUDO_BOT, WES, Conn, Harness, make_core, seated


def test_wild16_illegal_attempts_leave_no_trace_for_the_opponent() -> None:
    """Under wild16 the opponent hears nothing of an illegal attempt: no event, no
    placeholder, no skipped sequence number, no clock frame; the mover gets a new turn."""
    h, (white, black) = seated("kriegspiel", settings=Settings(clock_base=600.0))
    h.request(m.Act(white, action="e2e4"), at=1.0)
    h.request(m.Act(black, action="e7e5"), at=2.0)
    before = len(black.frames)
    black_seq = black.events()[-1]["seq"]
    h.request(m.Act(white, action="e4e5"), at=3.0)  # the pawn on e5 blocks it: illegal
    assert white.last("ack")["action"] == "e4e5"
    turn = white.last("turn")
    assert "e4e5" not in turn["legal"] and turn["seat"] == 0
    assert black.frames[before:] == []  # nothing at all reached black
    h.request(m.Act(white, action="d2d4"), at=4.0)
    new = black.frames[before:]
    events = [f for f in new if f["type"] == "event"]
    assert [f["seq"] for f in events] == [black_seq + 1, black_seq + 2]  # no gap
    assert [f["event"]["type"] for f in events] == ["move", "pawn_tries"]
    assert any(f["type"] == "turn" and f["seat"] == 1 for f in new)
    assert len(h.core.streams.log) > h.core.viewer_seq(1)  # logged, never shown to black


def test_a_spectator_is_answered_once_a_paced_house_move_is_shown() -> None:
    """A request that comes while a house bot's move is held for its pace waits for the
    release, then is answered (never refused), after the move is shown."""
    timing = Timing(grace=30.0, autopilot_delay=0.5, finished_ttl=60.0)
    h = Harness(make_core("perudo", {"seats": 2, "dice_per_player": 2}, timing=timing))
    ana, wes = Conn(ANA), Conn(WES)
    h.request(m.Join(ana))
    h.request(m.Watch(wes))
    h.request(m.AddBot(ana, bot=PERUDO_BOT, name="perudo-random"))
    bot = Conn(PERUDO_BOT)
    h.request(m.Join(bot, ticket=h.launches()[-1].ticket))
    held = 0
    t = 0.0
    while h.core.state == "playing":
        game = h.core.game
        assert game is not None and game.to_move is not None
        t += 0.1
        if game.to_move == 0:
            legal = h.legal(0)
            h.request(m.Act(ana, action="dudo" if "dudo" in legal else legal[0]), at=t)
            continue
        h.feed(m.Act(bot, action=h.legal(1)[0], token=object()), at=t)
        token = h.ask(m.Watch(wes), at=t + 0.1)  # during the hold
        assert token not in h.answers
        shown = len(wes.events())
        h.run_until(t + 1.0)
        t += 1.0
        assert h.answers[token] == {"type": "watching", "room": "r1", "seat": None}
        assert len(wes.events()) > shown
        held += 1
    assert held > 0
    assert not any(isinstance(e, m.Refuse) for e in h.effects)


#: how long the test's house bot takes to answer each ``turn`` (its round trip)
BOT_LATENCY = 0.003


def _move_shown_at(refusals: int) -> tuple[float, float]:
    """The time white's ack is sent and the time black's move reaches white, when the
    house bot (black) answers every ``turn`` after :data:`BOT_LATENCY` and needs
    ``refusals`` refused attempts first (each sent only once its new turn came)."""
    from tests.server.test_roomcore import house_kriegspiel

    h, ana, bot, _ = house_kriegspiel(pace=0.1)
    turns = len(bot.of("turn"))
    h.request(m.Act(ana, action="e2e4"), at=1.0)
    acked = h.now
    attempts = [*["d8h4", "f8b4", "c8h3", "a8a5"][:refusals], "e7e5"]
    shown_before = len(ana.events())
    for attempt in attempts:
        while len(bot.of("turn")) == turns:  # wait for the bot's (next) turn
            assert h.timers, "the bot is never told to move"
            h.run_until(min(t.at for t in h.timers.values()))
        turns = len(bot.of("turn"))
        h.feed(m.Act(bot, action=attempt, token=object()), at=h.now + BOT_LATENCY)
    while len(ana.events()) == shown_before:
        assert h.timers, "black's move is never shown"
        h.run_until(min(t.at for t in h.timers.values()))
    assert h.core.game is not None
    history = h.core.game.history
    assert len(history) == 2 + refusals and history[-1].action == "e7e5"
    return acked, h.now


def test_the_release_after_an_ack_does_not_depend_on_refused_attempts() -> None:
    """wild16's timing leak (issue 34): each refused attempt of a house bot used to wait
    for the paced release before its next turn, so black's move reached white one bot
    round trip later per refusal. The release is now the ack's time plus the pace."""
    times = [_move_shown_at(k) for k in range(5)]
    assert [shown for _, shown in times] == [acked + 0.1 for acked, _ in times]
