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

from tests.web.conftest import Served, shot
from tests.web.test_accounts_flow import Wire, enter_as_guest, no_sideways_scroll


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


def test_seek_taken_with_one_click_played_to_the_end_then_a_rematch(
    served: Served, new_page: Any, tmp_path: Path
) -> None:
    url = served.url
    ana = new_page(viewport={"width": 1280, "height": 1000})
    ana_wire = Wire(ana)
    enter_as_guest(ana, url, "ana")
    bob = new_page(viewport={"width": 375, "height": 667})  # a phone
    bob_wire = Wire(bob)
    enter_as_guest(bob, url, "bob")
    bob.wait_for_selector("#no-seeks")

    # -- ana makes a Kriegspiel seek from the create form's options ------------------------
    ana.select_option("#f-game", "kriegspiel")
    ana.click("#f-seek")
    mine = ana.locator(".seek.mine")
    mine.wait_for()
    [seek] = ana_wire.sent_of("seek")
    assert seek["game"] == "kriegspiel" and seek["type"] == "seek"
    added = ana_wire.received_of("seek_added")[-1]["seek"]
    assert mine.get_attribute("data-seek") == added["id"]
    assert mine.locator("button").inner_text() == "Cancel"
    shot(ana, "seek", tmp_path)

    # -- bob sees it live (pushed, no reload) and takes it with one click -------------------
    line = bob.locator(f".seek[data-seek='{added['id']}']")
    line.wait_for()
    assert "ana" in line.locator(".owner").inner_text()
    no_sideways_scroll(bob)
    shot(bob, "seeks-phone", tmp_path)
    line.locator("button").click()
    assert bob_wire.sent_of("take_seek")[-1] == {"type": "take_seek", "seek": added["id"]}

    # -- the match frame takes both to the room ------------------------------------------
    room = wait_room(bob)
    assert wait_room(ana) == room
    for wire in (ana_wire, bob_wire):
        [match] = [m for m in wire.received_of("match") if m["room"] == room]
        assert match["source"] == "seek" and match["game"] == "kriegspiel"
        assert {p["name"] for p in match["players"]} == {"ana", "bob"}
        assert {"type": "resume", "room": room, "since": 0} in [
            {k: v for k, v in m.items() if k != "ref"} for m in wire.sent_of("resume")
        ]
    seats = {m["players"][m["seat"]]["name"]: m["seat"] for m in ana_wire.received_of("match")}
    assert ana.locator(".seek.mine").count() == 0

    # -- they play: white moves, black moves, white resigns: the game is over ------------
    white, black = white_and_black({"ana": ana, "bob": bob}, ana_wire, room)
    white.wait_for_selector(".turn-of:has-text('Your turn')")
    white.click(".sq[data-square=e2]")
    white.click(".sq[data-square=e4]")
    white.wait_for_selector(".log-lines li:has-text('You moved e2e4.')")
    black.wait_for_selector(".turn-of:has-text('Your turn')")
    black.click(".sq[data-square=e7]")
    black.click(".sq[data-square=e5]")
    white.wait_for_selector(".turn-of:has-text('Your turn')")
    white.click("#resign")
    white.click("#resign-yes")
    for page in (ana, bob):
        page.wait_for_selector(".game-over")
        page.wait_for_selector(".room-state[data-state=finished]")

    # -- a rematch: ana offers, bob accepts; both go to the new room, colours swapped -----
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
    swapped = {m["players"][m["seat"]]["name"]: m["seat"] for m in ana_wire.received_of("match")}
    assert swapped["ana"] == 1 - seats["ana"]
    new_white, _ = white_and_black({"ana": ana, "bob": bob}, ana_wire, again)
    assert new_white is black
    new_white.wait_for_selector(".turn-of:has-text('Your turn')")  # the new game runs


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
    last = fan_wire.received_of("tournament")[-1]
    assert fan_wire.sent_of("tournament")[-1]["type"] == "tournament"
    assert last is not None
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
