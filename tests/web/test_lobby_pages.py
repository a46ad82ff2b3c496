"""The lobby follows ``list_rooms``' pages (issue 34), in real Chromium against a real
``umpire serve``: with more public rooms than a page holds it says which rooms it shows
of how many, and its buttons move between the pages."""

from __future__ import annotations

import json
from typing import Any

from websockets.sync.client import connect

from tests.web.conftest import Served
from tests.web.test_browser import enter

ROOMS = 31  # one more than a page


def make_rooms(port: int, count: int) -> None:
    """``count`` public Perudo rooms, made by guests (16 each: a player's cap is 20)."""
    made = 0
    while made < count:
        with connect(f"ws://127.0.0.1:{port}") as ws:
            ws.send(json.dumps({"type": "hello", "v": 1, "name": f"host{made}"}))
            for _ in range(min(16, count - made)):
                ws.send(json.dumps({"type": "create_room", "game": "perudo", "options": {}}))
                while (frame := json.loads(ws.recv()))["type"] != "created":
                    assert frame["type"] != "error", frame
                made += 1


def test_the_lobby_pages_through_the_rooms(served: Served, new_page: Any) -> None:
    make_rooms(served.port, ROOMS)
    page = new_page()
    enter(page, served.url, "pager")
    page.wait_for_selector(f"nav.pager >> text=Rooms 1–30 of {ROOMS}")
    assert page.locator(".room-card").count() == 30
    page.click("nav.pager button:has-text('Next')")
    page.wait_for_selector(f"nav.pager >> text=Rooms 31–31 of {ROOMS}")
    assert page.locator(".room-card").count() == 1
    page.click("nav.pager button:has-text('Previous')")
    page.wait_for_selector(f"nav.pager >> text=Rooms 1–30 of {ROOMS}")
