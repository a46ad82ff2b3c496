"""A match on the room core (fake clock, no sockets): seats reserved for named players,
the start when all are there, the no-show deadline and its forfeits, a restart while
waiting (server.rooms.lobby.Lobby.open_match makes such rooms)."""

from __future__ import annotations

from typing import Any

import pytest

from server.errors import ClientError
from server.games import engine
from server.players.identity import Player
from server.roomcore import messages as m
from server.roomcore.core import RoomCore, new_row
from server.roomcore.settings import Settings
from tests.server.roomcore_harness import (
    ANA,
    AUTOPILOT,
    BOB,
    CID,
    PLAYERS,
    ROOM,
    TIMING,
    Conn,
    Harness,
    play_to_the_end,
)

NO_SHOW = 30.0


def match_core(
    game: str,
    seats: list[Player],
    options: dict[str, Any] | None = None,
    source: str = "seek",
) -> Harness:
    """A match room whose seats are given to ``seats`` (no host), as open_match makes it;
    the Relaunch the lobby posts arms the no-show deadline."""
    eng = engine(game)
    config = eng.make_config(options or ({"seats": len(seats)} if game == "perudo" else {}))
    settings = Settings(match=source, match_ref="s1", no_show=NO_SHOW)
    row = new_row(ROOM, eng, config, settings, None, 0.0, None)
    row.seats = [p.id for p in seats]
    players = {p.id: p for p in seats}
    seeds = iter(bytes([i]) * 32 for i in range(1, 100))
    core = RoomCore(row, eng, config, TIMING, players, new_seed=lambda: next(seeds))
    h = Harness(core)
    h.log.row = row
    h.feed(m.Relaunch(), at=0.0)
    return h


def test_a_match_waits_for_every_seat_then_starts() -> None:
    h = match_core("kriegspiel", [ANA, BOB])
    assert "no_show" in h.timers
    ana, bob = Conn(ANA), Conn(BOB)
    assert h.request(m.Resume(ana, since=0), at=1.0)["seat"] == 0
    assert h.core.state == "waiting"
    assert h.request(m.Join(bob), at=2.0)["seat"] == 1
    assert h.core.state == "playing"
    assert bob.last("room")["state"] == "playing" and bob.of("snapshot") == []
    assert bob.events()  # the opening events
    h.run_until(NO_SHOW + 1)  # (the deadline passes harmlessly)
    assert h.core.state == "playing"


def test_a_stranger_cannot_take_a_reserved_seat_and_leaving_keeps_it() -> None:
    h = match_core("kriegspiel", [ANA, BOB])
    ana, cid = Conn(ANA), Conn(CID)
    with pytest.raises(ClientError) as error:
        h.request(m.Join(cid), at=1.0)
    assert error.value.code == "room_full"
    h.request(m.Resume(ana, since=0), at=1.0)
    h.request(m.Leave(ana), at=2.0)
    assert h.core.row.seats == ["p-ana", "p-bob"]
    with pytest.raises(ClientError) as error:
        h.request(m.Start(ana), at=2.0)
    assert error.value.code == "not_host"


def test_a_no_show_forfeits_at_the_deadline() -> None:
    h = match_core("kriegspiel", [ANA, BOB])
    ana = Conn(ANA)
    h.request(m.Resume(ana, since=0), at=1.0)
    h.request(m.Leave(ana), at=2.0)  # came, then went: still not a no-show
    h.run_until(NO_SHOW)
    assert h.core.state == "finished"
    assert h.log.row is not None and h.log.row.status == "finished"
    game = h.core.game
    assert game is not None and game.outcome is not None
    assert list(game.outcome.winners) == [0]
    assert any("no_show" in str(record.action) for record in game.history)


def test_nobody_came_aborts_the_match() -> None:
    h = match_core("kriegspiel", [ANA, BOB])
    h.run_until(NO_SHOW)
    assert h.core.state == "aborted"
    assert h.log.row is not None and h.log.row.reason == "no_show"


def test_a_perudo_table_goes_on_without_its_no_show() -> None:
    h = match_core("perudo", [ANA, BOB, CID])
    ana, bob = Conn(ANA), Conn(BOB)
    h.request(m.Resume(ana, since=0), at=1.0)
    h.request(m.Resume(bob, since=0), at=1.0)
    h.run_until(NO_SHOW)
    assert h.core.state == "playing"
    play_to_the_end(h, [ana, bob, None])
    game = h.core.game
    assert game is not None and game.outcome is not None
    assert game.outcome.ranks[2] == max(game.outcome.ranks)  # the no-show came last


@pytest.mark.parametrize("source", ["seek", "rematch"])
def test_a_seek_or_rematch_whose_humans_never_came_is_aborted(source: str) -> None:
    h = match_core("perudo", [ANA, BOB, AUTOPILOT], source=source)
    h.run_until(NO_SHOW)  # (only the autopilot is there: no game of house bots alone)
    assert h.core.state == "aborted"
    assert h.log.row is not None and h.log.row.reason == "no_show"


def test_a_tournament_match_keeps_the_forfeit_rule() -> None:
    h = match_core("perudo", [ANA, BOB, AUTOPILOT], source="tournament")
    h.run_until(NO_SHOW)
    assert h.core.state in ("playing", "finished")  # (the two no-shows forfeit)


def test_a_house_seat_of_the_autopilot_is_there_at_once() -> None:
    h = match_core("perudo", [ANA, AUTOPILOT])
    ana = Conn(ANA)
    h.request(m.Resume(ana, since=0), at=1.0)
    assert h.core.state == "playing"


def test_a_restart_while_waiting_gives_the_deadline_afresh() -> None:
    h = match_core("kriegspiel", [ANA, BOB])
    h.run_until(20.0)
    again = h.restart(at=100.0, players=PLAYERS)
    assert again.core.settings.match == "seek" and again.core.settings.no_show == NO_SHOW
    again.feed(m.Relaunch(), at=100.0)
    assert again.timers["no_show"].at == 100.0 + NO_SHOW
    ana, bob = Conn(ANA), Conn(BOB)
    again.request(m.Resume(ana, since=0), at=101.0)
    again.request(m.Resume(bob, since=0), at=102.0)
    assert again.core.state == "playing"


def finished_match(h: Harness) -> tuple[Conn, Conn]:
    ana, bob = Conn(ANA), Conn(BOB)
    h.request(m.Resume(ana, since=0), at=1.0)
    h.request(m.Resume(bob, since=0), at=1.0)
    h.request(m.Act(bob, action="resign"), at=2.0)
    assert h.core.state == "finished"
    return ana, bob


def test_a_rematch_opens_when_every_player_asked() -> None:
    h = match_core("kriegspiel", [ANA, BOB])
    ana, bob = finished_match(h)
    reply = h.request(m.Rematch(ana), at=3.0)
    assert reply["rematch"] == {"offered": [0], "declined": None, "room": None}
    assert bob.last("room")["rematch"]["offered"] == [0]
    assert not any(isinstance(e, m.OpenRematch) for e in h.effects)
    h.request(m.Rematch(bob), at=4.0)
    assert sum(isinstance(e, m.OpenRematch) for e in h.effects) == 1
    h.feed(m.Rematched("r2"), at=5.0)
    assert ana.last("room")["rematch"] == {"offered": [0, 1], "declined": None, "room": "r2"}
    with pytest.raises(ClientError) as error:
        h.request(m.Rematch(ana), at=6.0)
    assert error.value.code == "bad_state"


def test_a_decline_voids_the_offer_and_strangers_have_no_say() -> None:
    h = match_core("kriegspiel", [ANA, BOB])
    ana, bob = finished_match(h)
    with pytest.raises(ClientError) as error:
        h.request(m.Rematch(Conn(CID)), at=3.0)
    assert error.value.code == "not_seated"
    h.request(m.Rematch(ana), at=3.0)
    reply = h.request(m.DeclineRematch(bob), at=4.0)
    assert reply["rematch"] == {"offered": [], "declined": 1, "room": None}
    h.request(m.Rematch(bob), at=5.0)  # bob changes his mind: a new offer
    assert ana.last("room")["rematch"] == {"offered": [1], "declined": None, "room": None}


def test_no_rematch_before_the_end() -> None:
    h = match_core("kriegspiel", [ANA, BOB])
    with pytest.raises(ClientError) as error:
        h.request(m.Rematch(Conn(ANA)), at=1.0)
    assert error.value.code == "bad_state"


@pytest.mark.parametrize("source", ["ladder", "tournament"])
def test_house_bots_decline_a_rematch_of_a_ladder_or_tournament_game(source: str) -> None:
    h = match_core("perudo", [ANA, AUTOPILOT], source=source)
    ana = Conn(ANA)
    h.request(m.Resume(ana, since=0), at=1.0)
    play_to_the_end(h, [ana, None])
    assert h.core.state == "finished"
    with pytest.raises(ClientError) as error:
        h.request(m.Rematch(ana), at=100.0)
    assert error.value.code == "bad_state" and "house" in error.value.message
    assert not any(isinstance(e, m.OpenRematch) for e in h.effects)


def test_house_bots_accept_a_rematch_of_a_seek_game() -> None:
    h = match_core("perudo", [ANA, AUTOPILOT])
    ana = Conn(ANA)
    h.request(m.Resume(ana, since=0), at=1.0)
    play_to_the_end(h, [ana, None])
    h.request(m.Rematch(ana), at=100.0)
    assert sum(isinstance(e, m.OpenRematch) for e in h.effects) == 1
