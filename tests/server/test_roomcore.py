"""The sans-I/O room core, driven with a fake clock: no sockets, no sleeps, no event loop.

Each test feeds inputs with explicit times and checks the effects that come out: what is
persisted (and that it comes before anything is sent), what each connection is sent,
which timers are armed, which bots are launched.
"""

from __future__ import annotations

from typing import Any

import pytest

from server.errors import ClientError
from server.players.identity import Player
from server.roomcore import messages as m
from server.roomcore.core import RoomCore
from server.roomcore.settings import Settings, Timing
from tests.server.roomcore_harness import ANA, BOB, KR_BOT, Conn, Harness, decoded, make_core


def test_an_action_is_persisted_before_it_is_acknowledged_or_shown() -> None:
    h = Harness(make_core("perudo", {"seats": 2}))
    ana, bob = Conn(ANA), Conn(BOB)
    h.request(m.Join(ana))
    out = h.feed(m.Join(bob))
    # the start is saved (with the opening events) before any event frame goes out
    first_persist = next(i for i, e in enumerate(out) if isinstance(e, m.Persist))
    first_event = next(
        i
        for i, e in enumerate(out)
        if isinstance(e, m.Send) and decoded(e.frames[0])["type"] == "event"
    )
    assert first_persist < first_event
    conn = h.mover(ana, bob)
    turn = [f for f in conn.frames if f["type"] == "turn"][-1]
    action = next(a for a in turn["legal"] if "x" in a)
    out = h.feed(m.Act(conn, action=action, token=object()))
    kinds = [type(e).__name__ for e in out]
    assert kinds.index("Persist") < kinds.index("Send")
    assert conn.frames[-len([f for f in conn.frames if f["type"] == "ack"]) :]  # acked
    assert any(f["type"] == "ack" and f["action"] == action for f in conn.frames)


def test_a_refused_action_changes_nothing_and_persists_nothing() -> None:
    h = Harness(make_core("perudo", {"seats": 2}))
    ana, bob = Conn(ANA), Conn(BOB)
    h.request(m.Join(ana))
    h.request(m.Join(bob))
    game = h.core.game
    assert game is not None
    before = (list(game.history), game.view(None), h.core.viewer_seq(None))
    assert game.to_move is not None
    idle = (bob, ana)[game.to_move]
    for bad in ("9x9", "not an action", "dudo"):
        out = h.feed(m.Act(idle, action=bad, token=object()))
        assert not any(isinstance(e, m.Persist) for e in out)
        assert any(isinstance(e, m.Refuse) for e in out)
    assert (list(game.history), game.view(None), h.core.viewer_seq(None)) == before


def test_kriegspiel_cannot_start_short_handed_and_says_why() -> None:
    h = Harness(make_core("kriegspiel", {"rules": "wild16"}, Settings(autostart=False)))
    h.request(m.Join(Conn(ANA)))
    with pytest.raises(ClientError) as refused:
        h.request(m.Start(Conn(ANA)))
    assert refused.value.code == "bad_state" and "1" in refused.value.message
    assert h.core.state == "waiting"


def test_an_absent_kriegspiel_player_forfeits_only_after_the_grace_period() -> None:
    h = Harness(make_core("kriegspiel", {"rules": "wild16"}))
    ana, bob = Conn(ANA), Conn(BOB)
    h.request(m.Join(ana))
    h.request(m.Join(bob))
    h.feed(m.Detach(bob, token=None), at=5.0)
    assert h.timers["grace:1"].at == pytest.approx(15.0)
    h.run_until(14.9)
    assert h.core.state == "playing"
    h.run_until(15.0)
    assert h.core.state == "finished"
    assert h.core.game is not None and h.core.game.outcome is not None
    assert h.core.game.outcome.reason in ("abandoned", "forfeit")
    assert h.log.actions[-1].action == "forfeit:abandoned"


def test_a_returning_player_cancels_the_grace_period() -> None:
    h = Harness(make_core("kriegspiel", {"rules": "wild16"}))
    ana, bob = Conn(ANA), Conn(BOB)
    h.request(m.Join(ana))
    h.request(m.Join(bob))
    h.feed(m.Detach(bob, token=None), at=5.0)
    again = Conn(BOB)
    h.request(m.Resume(again, since=0), at=9.0)
    h.run_until(100.0)
    assert h.core.state == "playing"
    assert "grace:1" not in h.timers


def test_clocks_charge_the_mover_and_flag_at_zero() -> None:
    settings = Settings(clock_base=60.0, clock_increment=2.0)
    h = Harness(make_core("kriegspiel", {"rules": "wild16"}, settings))
    white, black = Conn(ANA), Conn(BOB)
    h.request(m.Join(white), at=0.0)
    h.request(m.Join(black), at=0.0)
    h.request(m.Act(white, action="e2e4"), at=5.0)
    assert h.core.clocks is not None
    assert h.core.clocks.snapshot(5.0) == [57.0, 60.0]  # 60 - 5 + 2
    assert h.log.actions[-1].clocks == [57.0, 60.0]
    assert h.timers["flag"].at == pytest.approx(65.0)
    h.run_until(64.0)
    assert h.core.state == "playing"
    h.run_until(65.0)
    assert h.core.state == "finished"
    assert h.log.actions[-1].action == "forfeit:timeout"


def test_a_perudo_clock_puts_out_the_seat_that_flags() -> None:
    """A clock is allowed in Perudo too: the seat whose time runs out forfeits, places
    below the seats still playing, and the others play on."""
    cid = Player("p-cid", "cid", False)
    h = Harness(make_core("perudo", {"seats": 3}, Settings(clock_base=30.0)))
    for player in (ANA, BOB, cid):
        h.request(m.Join(Conn(player)), at=0.0)
    assert h.core.clocks is not None and h.core.game is not None
    first = h.core.game.to_move
    assert first is not None
    h.run_until(31.0)
    assert h.core.state == "playing"
    assert [a.action for a in h.log.actions] == ["forfeit:timeout"]
    assert h.core.clocks.snapshot(31.0)[first] == 0.0
    h.run_until(62.0)  # the next seat to move waits too, and flags
    assert h.core.state == "finished"
    outcome = h.core.game.outcome
    assert outcome is not None and outcome.reason == "last_player_standing"
    assert outcome.ranks[first] == 3


def test_downtime_is_nobodys_fault() -> None:
    """A restart resumes the clocks from the log and starts every grace period afresh:
    the time the server was down is charged to nobody."""
    settings = Settings(clock_base=60.0)
    h = Harness(make_core("kriegspiel", {"rules": "wild16"}, settings))
    white, black = Conn(ANA), Conn(BOB)
    h.request(m.Join(white), at=0.0)
    h.request(m.Join(black), at=0.0)
    h.request(m.Act(white, action="e2e4"), at=5.0)
    row = h.core.row
    row.status = "playing"
    # the server dies at t=6 and comes back at t=1000 (a new monotonic scale, even)
    again = RoomCore(row, h.core.engine, h.core.config, h.core.timing, {"p-ana": ANA, "p-bob": BOB})
    h2 = Harness(again)
    h2.now = 1000.0
    h2.take(again.recover(h.log.actions, h.log.events, 1000.0))
    assert again.clocks is not None and again.clocks.snapshot(1000.0) == [55.0, 60.0]
    assert h2.timers["grace:0"].at == pytest.approx(1010.0)
    assert h2.timers["flag"].at == pytest.approx(1060.0)
    w2, b2 = Conn(ANA), Conn(BOB)
    h2.request(m.Resume(w2, since=0), at=1001.0)
    h2.request(m.Resume(b2, since=0), at=1001.0)
    h2.run_until(1030.0)
    assert again.state == "playing"
    assert again.clocks.snapshot(1030.0) == [55.0, 30.0]


def house_kriegspiel(pace: float, clock: float = 0.0) -> tuple[Harness, Conn, Conn, str]:
    """A wild16 room: ana (white) against a house bot (black) paced at ``pace``."""
    settings = Settings(clock_base=clock)
    core = make_core(
        "kriegspiel",
        {"rules": "wild16"},
        settings,
        Timing(grace=30.0, autopilot_delay=pace, finished_ttl=60.0),
    )
    h = Harness(core)
    ana = Conn(ANA)
    h.request(m.Join(ana, seat=0))
    out = h.feed(m.AddBot(ana, bot=KR_BOT, name="kriegspiel-random", seat=1, token=object()))
    launch = next(e for e in out if isinstance(e, m.Launch))
    assert launch.seat == 1 and launch.bot == "kriegspiel-random"
    bot = Conn(KR_BOT)
    h.request(m.Join(bot, ticket=launch.ticket))
    return h, ana, bot, launch.ticket


def opponent_view(attempts: int) -> tuple[list[dict[str, Any]], list[tuple[float, str]]]:
    """What ana sees (frames) and the release times of held moves when the house bot makes
    ``attempts`` illegal attempts before its move."""
    h, ana, bot, _ = house_kriegspiel(pace=1.0, clock=60.0)
    h.request(m.Act(ana, action="e2e4"), at=2.0)
    start = len(ana.frames)
    t = 2.0
    for bad in ["a8a6", "a8a5", "a8a4"][:attempts]:  # the rook is blocked by its own pawn
        t += 0.1
        h.feed(m.Act(bot, action=bad, token=object()), at=t)
    t += 0.1
    h.feed(m.Act(bot, action="e7e5", token=object()), at=t)
    h.run_until(10.0)
    assert h.core.game is not None
    history = h.core.game.history
    assert [r.action for r in history][-1] == "e7e5" and len(history) == 2 + attempts
    return ana.frames[start:], _release_times(h)


def _release_times(h: Harness) -> list[tuple[float, str]]:
    return [(t.at, t.name) for t in h.effects if isinstance(t, m.Schedule) and t.name == "hold"]


def test_pacing_hides_how_many_attempts_a_house_bot_needed() -> None:
    """In wild16 the opponent's frames, their timing and the clocks are the same whether
    the house bot's move was its first attempt or its fourth."""
    views = [opponent_view(k) for k in (0, 1, 3)]
    frames = [v[0] for v in views]
    releases = [v[1] for v in views]
    assert frames[0] == frames[1] == frames[2]
    assert releases[0] == releases[1] == releases[2] == [(3.0, "hold")]
    clock = [f for f in frames[0] if f["type"] == "clock"]
    assert clock and clock[-1]["remaining"][1] == 59.0  # exactly the pace was charged


def test_inputs_during_a_held_move_wait_for_its_release() -> None:
    h, ana, bot, _ = house_kriegspiel(pace=1.0)
    h.request(m.Act(ana, action="e2e4"), at=0.0)
    h.feed(m.Act(bot, action="e7e5", token=object()), at=0.2)
    before = len(ana.frames)
    # ana tries to move before she could know it is her turn: held, then judged at 1.0
    out = h.feed(m.Act(ana, action="d2d4", token=object()), at=0.5)
    assert out == [] and len(ana.frames) == before
    h.run_until(1.0)
    assert any(f["type"] == "ack" and f["action"] == "d2d4" for f in ana.frames[before:])


def test_house_seat_tickets_are_durable_and_relaunched() -> None:
    h, _ana, _bot, ticket = house_kriegspiel(pace=0.0)
    assert h.core.row.house == {"1": ticket}
    out = h.feed(m.Relaunch())
    launches = [e for e in out if isinstance(e, m.Launch)]
    assert launches == [m.Launch(1, "kriegspiel-random", ticket)]
    # a restarted room (same row) accepts the same ticket
    row = h.core.row
    again = RoomCore(row, h.core.engine, h.core.config, h.core.timing, {"p-ana": ANA})
    h2 = Harness(again)
    assert h2.request(m.Join(Conn(KR_BOT), ticket=ticket))["seat"] == 1
    with pytest.raises(ClientError):
        h2.request(m.Join(Conn(KR_BOT), ticket="forged"))


def test_a_finished_game_is_watched_and_resumed_from_the_log() -> None:
    h = Harness(make_core("kriegspiel", {"rules": "wild16"}))
    ana, bob = Conn(ANA), Conn(BOB)
    h.request(m.Join(ana))
    h.request(m.Join(bob))
    h.request(m.Act(ana, action="f2f3"))
    h.request(m.Act(bob, action="e7e5"))
    h.request(m.Act(ana, action="g2g4"))
    h.request(m.Act(bob, action="d8h4"))
    assert h.core.state == "finished"
    row = h.core.row
    players = {"p-ana": ANA, "p-bob": BOB}
    loaded = RoomCore(row, h.core.engine, h.core.config, h.core.timing, players)
    h2 = Harness(loaded)
    h2.take(loaded.recover(h.log.actions, h.log.events, 5.0))
    assert loaded.state == "finished" and "evict" in h2.timers
    spectator = Conn(Player("p-cy", "cy", False))
    h2.request(m.Resume(spectator, since=0))
    events = [f for f in spectator.frames if f["type"] == "event"]
    assert [f["seq"] for f in events] == list(range(1, h.core.viewer_seq(None) + 1))
    seat = Conn(ANA)
    h2.request(m.Resume(seat, since=0))
    mine = [f for f in seat.frames if f["type"] == "event"]
    original = [f for f in ana.frames if f["type"] == "event"]
    assert mine == original  # the same stream, frame for frame


def test_a_perudo_player_gone_past_the_grace_period_gets_a_stand_in_at_once() -> None:
    h = Harness(make_core("perudo", {"seats": 2}))
    ana, bob = Conn(ANA), Conn(BOB)
    h.request(m.Join(ana))
    h.request(m.Join(bob))
    h.feed(m.Detach(bob, token=None), at=1.0)
    h.run_until(11.0)
    out = h.launches()
    assert out and out[-1].seat == 1 and out[-1].bot == "perudo-simple"
    assert h.autopilot(1)
    # the stand-in's ticket opens bob's seat; bob's return sends it away
    standin = Conn(Player("bot-perudo-simple", "perudo-simple", True))
    assert h.request(m.Join(standin, ticket=out[-1].ticket))["seat"] == 1
    h.request(m.Resume(Conn(BOB), since=0), at=12.0)
    assert not h.autopilot(1)
    assert {"type": "left", "room": "r1"} in standin.frames


def test_a_house_seat_whose_bot_is_late_gets_no_stand_in_and_keeps_its_ticket() -> None:
    """A house bot that has not come (back) past the grace period: the engine's policy moves
    for it and the house is asked for the same bot again; no stand-in is sent (it would pass
    for the house bot when it attached, and dismiss itself with the seat's ticket)."""
    h = Harness(make_core("perudo", {"seats": 2}))
    ana = Conn(ANA)
    h.request(m.Join(ana, seat=0))
    bot_player = Player("bot-perudo-random", "perudo-random", True)
    out = h.feed(m.AddBot(ana, bot=bot_player, name="perudo-random", seat=1, token=object()))
    ticket = next(e for e in out if isinstance(e, m.Launch)).ticket
    assert h.core.state == "playing"  # the room was full: it started by itself
    h.run_until(30.0)
    launches = [e for e in h.effects if isinstance(e, m.Launch)]
    assert launches and all(e == m.Launch(1, "perudo-random", ticket) for e in launches)
    assert len(launches) == 4  # added at 0 s, asked for again at 10, 20 and 30 s (grace 10 s)
    assert h.autopilot(1)
    # the policy moves for the late bot when it is its turn
    game = h.core.game
    assert game is not None
    if game.to_move == 0:
        h.request(m.Act(ana, action=game.legal_actions(0)[0]), at=31.0)
        h.run_until(40.0)
    assert any(seat == 1 for seat, _ in game.history)
    # the house bot arrives with its ticket and plays on
    bot = Conn(bot_player)
    assert h.request(m.Join(bot, ticket=ticket), at=41.0)["seat"] == 1
    assert not h.autopilot(1)
    assert h.core.row.house == {"1": ticket}
    assert not any(f["type"] == "left" for f in bot.frames)


def test_a_kriegspiel_house_bot_that_never_comes_does_not_forfeit() -> None:
    """No stand-in policy in Kriegspiel: a late house bot is asked for again after each grace
    period, and the game waits for it; its absence is the server's fault, not a loss."""
    h, ana, _bot, ticket = house_kriegspiel(pace=0.0)
    h.request(m.Act(ana, action="e2e4"), at=1.0)
    h.feed(m.Detach(_bot, token=None), at=2.0)
    h.run_until(200.0)
    assert h.core.state == "playing"
    launches = [e for e in h.effects if isinstance(e, m.Launch)]
    assert len(launches) > 2 and all(
        e == m.Launch(1, "kriegspiel-random", ticket) for e in launches
    )
    again = Conn(KR_BOT)
    assert h.request(m.Resume(again, since=0, ticket=ticket), at=201.0)["seat"] == 1
    assert "grace:1" not in h.timers
