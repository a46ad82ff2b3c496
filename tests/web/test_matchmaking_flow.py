"""Seeks, rematches and hosted tournaments in real Chromium against a real ``umpire serve``.

Each test checks what the screen shows and what went over the wire; every wait is for a
DOM condition, never a sleep. The done-tests of issue 28's browser part:

- a person makes a seek, a second browser context takes it with one click, and they play
  to the end; a rematch is offered and accepted, and both land in the new room with the
  colours swapped;
- a person registers for a tournament and watches its standings update live.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import Served, Wire, shot
from tests.web.test_accounts_flow import enter_as_guest, no_sideways_scroll


def room_of(page: Any) -> str:
    return str(page.evaluate("location.hash")).rsplit("/", 1)[1]


def wait_room(page: Any, other_than: str | None = None) -> str:
    """Wait until the page shows a room (other than ``other_than``) and return its id."""
    page.wait_for_function(
        "old => location.hash.startsWith('#/room/') && location.hash !== '#/room/' + old"
        " && document.querySelector('.room')",
        arg=other_than or "",
    )
    return room_of(page)


def white_and_black(pages: dict[str, Any], wire: Wire, room: str) -> tuple[Any, Any]:
    """The pages of white (seat 0 in Kriegspiel) and black, from a match frame's players."""
    [match] = [m for m in wire.received_of("match") if m["room"] == room]
    names = [p["name"] for p in match["players"]]
    return pages[names[0]], pages[names[1]]


def two_players(served: Served, new_page: Any) -> tuple[Any, Wire, Any, Wire]:
    """ana on a wide screen and bob on a phone, both in the lobby, with their wires."""
    ana = new_page(viewport={"width": 1280, "height": 1000})
    ana_wire = Wire(ana)
    enter_as_guest(ana, served.url, "ana")
    bob = new_page(viewport={"width": 375, "height": 667})  # a phone
    bob_wire = Wire(bob)
    enter_as_guest(bob, served.url, "bob")
    bob.wait_for_selector("#no-seeks")
    return ana, ana_wire, bob, bob_wire


def seek_taken(ana: Any, ana_wire: Wire, bob: Any, bob_wire: Wire) -> str:
    """ana seeks a Kriegspiel game, bob takes it with one click: the room both are in."""
    ana.select_option("#f-game", "kriegspiel")
    ana.click("#f-seek")
    ana.locator(".seek.mine").wait_for()
    added = ana_wire.received_of("seek_added")[-1]["seek"]
    bob.locator(f".seek[data-seek='{added['id']}'] button").click()
    room = wait_room(bob)
    assert wait_room(ana) == room
    return room


def swapped_seat(wire: Wire, room: str, name: str) -> int:
    """The seat of ``name`` in ``room`` by the match frame."""
    [match] = [m for m in wire.received_of("match") if m["room"] == room]
    return [p["name"] for p in match["players"]].index(name)


def resign(page: Any) -> None:
    page.wait_for_selector(".turn-of:has-text('Your turn')")
    page.click("#resign")
    page.click("#resign-yes")


def test_seek_made_cancelled_made_again_taken_with_one_click_and_played_to_the_end(
    served: Served, new_page: Any, tmp_path: Path
) -> None:
    ana, ana_wire, bob, bob_wire = two_players(served, new_page)

    # -- ana makes a Kriegspiel seek from the create form's options, and cancels it -------
    ana.select_option("#f-game", "kriegspiel")
    ana.click("#f-seek")
    first = ana.locator(".seek.mine")
    first.wait_for()
    bob.wait_for_selector(".seek[data-game=kriegspiel]")  # pushed to bob's lobby
    first.locator("button:has-text('Cancel')").click()
    ana.wait_for_selector("#no-seeks")
    bob.wait_for_selector("#no-seeks")  # and its end too
    cancelled = ana_wire.received_of("seek_cancelled")[-1]["seek"]
    assert ana_wire.sent_of("cancel_seek")[-1] == {"type": "cancel_seek", "seek": cancelled}

    # -- again, by keyboard, with a rating range -----------------------------------------
    ana.fill("#seek-lo", "1200")
    ana.fill("#seek-hi", "1800")
    ana.focus("#f-seek")
    ana.keyboard.press("Enter")
    mine = ana.locator(".seek.mine")
    mine.wait_for()
    seek = ana_wire.sent_of("seek")[-1]
    assert seek == {
        "type": "seek",
        "game": "kriegspiel",
        "options": {},
        "rating_range": [1200, 1800],
    }
    added = ana_wire.received_of("seek_added")[-1]["seek"]
    assert added["status"] == "open" and added["player"]["name"] == "ana"
    assert mine.get_attribute("data-seek") == added["id"] != cancelled
    assert "rating 1200–1800" in mine.inner_text()
    shot(ana, "seek", tmp_path)

    # -- bob sees it live (pushed, no reload) and takes it with one click -------------------
    line = bob.locator(f".seek[data-seek='{added['id']}']")
    line.wait_for()
    assert "ana" in line.locator(".owner").inner_text()
    assert line.locator("button").get_attribute("aria-label") == "Play ana's Kriegspiel seek"
    no_sideways_scroll(bob)
    shot(bob, "seeks-phone", tmp_path)
    line.locator("button").click()
    assert bob_wire.sent_of("take_seek")[-1] == {"type": "take_seek", "seek": added["id"]}

    # -- the match frame takes both to the room, which each page resumes ------------------
    room = wait_room(bob)
    assert wait_room(ana) == room
    for wire in (ana_wire, bob_wire):
        [match] = [m for m in wire.received_of("match") if m["room"] == room]
        assert match["source"] == "seek" and match["game"] == "kriegspiel"
        assert {p["name"] for p in match["players"]} == {"ana", "bob"}
        resumed = [m for m in wire.sent_of("resume") if m["room"] == room]
        assert resumed and resumed[0]["since"] == 0
    ana.click("#nav-lobby")
    ana.wait_for_selector("#no-seeks")  # taken: no longer open
    # every page but the room's says where the game is
    ana.click(f".match-waiting a[data-room='{room}']")
    assert room_of(ana) == room

    # -- they play: white moves, black moves, white resigns: the game is over ------------
    white, black = white_and_black({"ana": ana, "bob": bob}, ana_wire, room)
    white.wait_for_selector(".turn-of:has-text('Your turn')")
    white.click(".sq[data-square=e2]")
    white.click(".sq[data-square=e4]")
    white.wait_for_selector(".log-lines li:has-text('You moved e2e4.')")
    black.wait_for_selector(".turn-of:has-text('Your turn')")
    black.click(".sq[data-square=e7]")
    black.click(".sq[data-square=e5]")
    black.wait_for_selector(".log-lines li:has-text('You moved e7e5.')")
    resign(white)
    for page in (ana, bob):
        page.wait_for_selector(".game-over")
        page.wait_for_selector(".room-state[data-state=finished]")
    moves = [m["action"] for m in ana_wire.sent_of("act") + bob_wire.sent_of("act")]
    assert sorted(moves) == ["e2e4", "e7e5", "resign"]


def test_a_rematch_offered_and_accepted_opens_a_new_room_with_the_colours_swapped(
    served: Served, new_page: Any, tmp_path: Path
) -> None:
    ana, ana_wire, bob, bob_wire = two_players(served, new_page)
    room = seek_taken(ana, ana_wire, bob, bob_wire)
    white, black = white_and_black({"ana": ana, "bob": bob}, ana_wire, room)
    resign(white)
    for page in (ana, bob):
        page.wait_for_selector(".room-state[data-state=finished]")
    # ana offers; bob sees the offer and accepts; both go to the new room
    ana.click("#rematch")
    ana.wait_for_selector("#rematch-waiting")
    bob.wait_for_selector("#rematch-offered:has-text('ana offers a rematch.')")
    shot(bob, "rematch-offered", tmp_path)
    bob.click("#rematch-accept")
    again = wait_room(bob, room)
    assert wait_room(ana, room) == again
    assert ana_wire.sent_of("rematch")[-1] == {"type": "rematch", "room": room}
    assert bob_wire.sent_of("rematch")[-1] == {"type": "rematch", "room": room}
    for wire in (ana_wire, bob_wire):
        [match] = [m for m in wire.received_of("match") if m["room"] == again]
        assert match["source"] == "rematch" and match["ref"] == room
    new_white, _ = white_and_black({"ana": ana, "bob": bob}, ana_wire, again)
    assert new_white is black  # Kriegspiel swaps colours
    new_white.wait_for_selector(".turn-of:has-text('Your turn')")  # the new game runs
    # the old room links to the new one
    ana.goto(f"{served.url}#/room/{room}")
    ana.wait_for_selector(f"#rematch-room[href='#/room/{again}']")
    ana.click("#rematch-room")
    # the new game ends; bob offers, ana declines (in Italian): the offer is void
    resign(new_white)
    bob.wait_for_selector(".room-state[data-state=finished]")
    bob.click("#rematch")
    ana.click("#lang")
    ana.wait_for_selector("#rematch-offered:has-text('bob propone la rivincita.')")
    ana.click("#rematch-decline")
    bob.wait_for_selector("#rematch-declined:has-text('ana declined the rematch.')")
    ana.wait_for_selector("#rematch-declined:has-text('ana ha rifiutato la rivincita.')")
    assert ana_wire.sent_of("decline_rematch")[-1] == {"type": "decline_rematch", "room": again}
    declined = [f for f in bob_wire.received_of("room") if f["room"] == again][-1]["rematch"]
    assert declined["declined"] == swapped_seat(ana_wire, again, "ana")
    ana.click("#lang")


def test_register_for_a_tournament_and_watch_its_standings_update(
    served: Served, new_page: Any, tmp_path: Path
) -> None:
    url = served.url
    host = new_page(viewport={"width": 1280, "height": 1000})
    host_wire = Wire(host)
    enter_as_guest(host, url, "hana")
    # -- the host creates a round robin of Kriegspiel from the form ------------------------
    host.click("#nav-tournaments")
    host.wait_for_selector("#create-tournament")
    host.fill("#t-name", "Friday blitz")
    host.select_option("#t-game", "kriegspiel")
    host.select_option("#t-format", "round_robin")
    host.select_option("#t-rated", "false")
    host.click("#t-create")
    host.wait_for_selector(".tournament-page h1:has-text('Friday blitz')")
    created = host_wire.sent_of("create_tournament")[-1]
    assert created["format"] == "round_robin" and created["game"] == "kriegspiel"
    assert created["rated"] is False and "starts_at" not in created
    tid = host.locator(".tournament-page").get_attribute("data-tournament")
    host.click("#t-join")
    host.wait_for_selector("#entrants li[data-player=hana]")

    # -- a person finds it in the list and registers -------------------------------------
    eve = new_page(viewport={"width": 375, "height": 667})
    eve_wire = Wire(eve)
    enter_as_guest(eve, url, "eve")
    eve.click("#nav-tournaments")
    eve.click(f".tournament-list li[data-tournament='{tid}'] a")
    eve.wait_for_selector("#t-join")
    eve.click("#t-join")
    eve.wait_for_selector("#entrants li.me[data-player=eve]")
    assert eve_wire.sent_of("join_tournament")[-1]["type"] == "join_tournament"
    host.wait_for_selector("#entrants li[data-player=eve]")  # pushed to the host's page
    no_sideways_scroll(eve)

    # -- a spectator watches the standings page -------------------------------------------
    fan = new_page(viewport={"width": 1280, "height": 900})
    fan_wire = Wire(fan)
    enter_as_guest(fan, url, "fan")
    fan.goto(f"{url}#/tournament/{tid}")
    fan.wait_for_selector("#entrants li[data-player=eve]")

    # -- the host starts it: both entrants are taken to their room ------------------------
    host.click("#t-start")
    room = wait_room(host)
    assert wait_room(eve) == room
    for wire in (host_wire, eve_wire):
        [match] = [m for m in wire.received_of("match") if m["room"] == room]
        assert match["source"] == "tournament" and match["ref"] == tid
    fan.wait_for_selector(f"#standings, .pairings li[data-room='{room}']")
    fan.wait_for_selector(f".pairings li[data-room='{room}'] a")

    # -- the game ends; the standings update on the spectator's page, live ---------------
    white, _ = white_and_black({"hana": host, "eve": eve}, host_wire, room)
    white.wait_for_selector(".turn-of:has-text('Your turn')")
    white.click("#resign")
    white.click("#resign-yes")
    loser = "hana" if white is host else "eve"
    winner = "eve" if loser == "hana" else "hana"
    fan.wait_for_selector(f"#standings tr[data-player={winner}] .points:text-is('1')")
    assert fan.locator(f"#standings tr[data-player={loser}] .points").inner_text() == "0"
    assert fan.locator("#t-state").inner_text() == "finished"
    # the page asked once and followed: every later frame was pushed
    assert fan_wire.sent_of("tournament") == [{"type": "tournament", "tournament": tid}]
    pushed = fan_wire.received_of("tournament")
    assert len(pushed) >= 3  # the answer, the start, the result (at least)
    last = pushed[-1]["tournament"]
    assert last["status"] == "finished"
    shown = [
        [cell.inner_text() for cell in row.locator("td").all()]
        for row in fan.locator("#standings tbody tr").all()
    ]
    expected = [[str(s["rank"]), s["name"], "1" if s["points"] else "0"] for s in last["standings"]]
    assert [line[:3] for line in shown] == expected
    [game] = last["games"]
    assert game["room"] == room and sorted(game["scores"]) == [0.0, 1.0]
    shot(fan, "tournament", tmp_path)
    # the pairing links to its room, where the finished game opens
    fan.click(f".pairings li[data-room='{room}'] a")
    fan.wait_for_selector(".room-state[data-state=finished]")
    # Italian at a phone's width
    eve.click("#nav-tournaments")
    eve.click(f".tournament-list li[data-tournament='{tid}'] a")
    eve.click("#lang")
    eve.wait_for_selector("#standings th:has-text('Punti')")
    no_sideways_scroll(eve)
    fits = (
        "document.getElementById('standings').scrollWidth"
        " <= document.querySelector('.table-wrap').clientWidth"
    )
    assert eve.evaluate(fits), "the standings' columns do not fit a phone"
    shot(eve, "tournament-phone", tmp_path)
    eve.click("#lang")
