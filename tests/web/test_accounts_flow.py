"""Accounts, ratings, the leaderboard and player pages in real Chromium against a real
``umpire serve`` (tests/web/accounts_server.py: a leaderboard shows a player after one
rated game). Each test checks what the screen shows and what went over the wire; every
wait is for a DOM condition, never a sleep."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.web.conftest import Served, Wire, serving, shot

PASSWORD = "correct horse battery"
NEW_PASSWORD = "staple and more staples"


@pytest.fixture
def accounts_served(tmp_path: Path) -> Iterator[Served]:
    """A running server whose leaderboards show a player after one rated game."""
    yield from serving(tmp_path, "tests.web.accounts_server")


def enter_as_guest(page: Any, url: str, name: str) -> None:
    page.goto(url)
    page.fill("#name", name)
    page.press("#name", "Enter")
    page.wait_for_selector("#create")


def claim(page: Any, password: str) -> None:
    """From any page of a guest: open the account page and claim the name (by keyboard)."""
    page.click("#nav-account")
    page.fill("#claim-password", password)
    page.fill("#claim-again", password)
    page.press("#claim-again", "Enter")
    page.wait_for_selector("#my-kind[data-kind=account]")


def log_in(page: Any, url: str, name: str, password: str) -> None:
    page.goto(url)
    page.click("#tab-login")
    page.fill("#login-name", name)
    page.fill("#login-password", password)
    page.click("#login-submit")


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page scrolls sideways: {width}px"


def test_register_log_in_elsewhere_play_rated_then_board_player_page_and_replay(
    accounts_served: Served, new_page: Any, tmp_path: Path
) -> None:
    url = accounts_served.url
    # -- one browser: a guest claims its name ---------------------------------------------
    first = new_page(viewport={"width": 1280, "height": 900})
    first_wire = Wire(first)
    enter_as_guest(first, url, "Ana")
    guest = first_wire.received_of("welcome")[0]["player"]
    assert guest["kind"] == "guest"
    first.click("#nav-account")
    first.click("#my-page")  # a guest's page is found by id: guests' names are not unique
    first.wait_for_selector(".player-page h1:has-text('Player Ana')")
    assert first_wire.sent_of("profile")[-1] == {"type": "profile", "player": guest["id"]}
    first.click("#nav-account")
    first.fill("#claim-password", PASSWORD)
    first.fill("#claim-again", PASSWORD + "!")
    first.click("#claim-submit")
    first.wait_for_selector("#form-problem:has-text('The two passwords differ.')")
    assert first_wire.sent_of("register") == []  # the page caught it
    first.fill("#claim-again", PASSWORD)
    first.press("#claim-again", "Enter")
    first.wait_for_selector("#my-kind[data-kind=account]")
    assert "The name Ana is yours" in first.locator("#notice").inner_text()
    assert [m["password"] for m in first_wire.sent_of("register")] == [PASSWORD]
    account = first_wire.received_of("account")[0]["player"]
    assert account == {**guest, "kind": "account"}  # the same player, now an account

    # -- another browser: a wrong password, then the right one (the name's case differs) ---
    second = new_page(viewport={"width": 1280, "height": 1000})
    wire = Wire(second)
    log_in(second, url, "ana", "not the password")
    second.wait_for_selector("#login-error:has-text('Wrong name or password.')")
    second.fill("#login-password", PASSWORD)
    second.press("#login-password", "Enter")
    second.wait_for_selector("#nav-account:has-text('Ana')")
    logins = wire.sent_of("login")
    assert [m["password"] for m in logins] == ["not the password", PASSWORD]
    assert wire.sent_of("hello") == []  # logging in is the connection's first message
    assert [e["code"] for e in wire.received_of("error")] == ["bad_login"]
    welcome = wire.received_of("welcome")[0]
    assert welcome["player"] == account
    assert welcome["token"] not in {m.get("token") for m in first_wire.sent_of("hello")}

    # -- a rated Kriegspiel game against a house bot, to the end --------------------------
    second.select_option("#f-game", "kriegspiel")
    assert second.input_value("#f-rated") == ""  # automatic: rated if no guest sits
    second.click("#f-create")
    second.wait_for_selector(".seats")
    second.select_option("#bot-kind-1", "kriegspiel-random")
    second.click("[data-key=add-bot-1]")
    second.wait_for_selector(".turn-of:has-text('Your turn')")
    second.wait_for_selector(".rated[data-rated=true]")
    room = second.evaluate("location.hash").rsplit("/", 1)[1]
    assert "rated" not in wire.sent_of("create_room")[-1]
    second.click(".sq[data-square=e2]")
    second.click(".sq[data-square=e4]")
    second.wait_for_selector(".log-lines li:has-text('You moved e2e4.')")
    second.wait_for_selector(".turn-of:has-text('Your turn')")  # the bot moved: 2 plies
    second.click("#resign")
    second.click("#resign-yes")
    second.wait_for_selector(".game-over")
    change = second.locator("#rating-change")
    change.wait_for()
    rated = [f for f in wire.received_of("room") if f["room"] == room and f.get("ratings")]
    changes = {c["player"]: c for c in rated[-1]["ratings"]}
    assert set(changes) == {account["id"], "bot-kriegspiel-random"}
    mine = changes[account["id"]]
    before, after = round(mine["before"]), round(mine["after"])
    assert before == 1500 and after < before and mine["provisional"]  # a loss, one game
    assert change.inner_text() == f"Your rating: {before} → {after}? (−{before - after})"
    assert second.locator(".rating-changes li").count() == 2
    shot(second, "rating-change", tmp_path)

    # -- the leaderboard: people, then bots ------------------------------------------------
    second.click("#nav-board")
    second.wait_for_selector("#lb-game")
    second.select_option("#lb-game", "kriegspiel")
    row = second.locator("#leaderboard tr[data-player='Ana']")
    row.wait_for()
    assert "me" in (row.get_attribute("class") or "")
    assert row.locator(".rating").inner_text() == f"{after}?"
    assert second.input_value("#lb-rules") == "wild16"
    asked = wire.sent_of("leaderboard")[-1]
    assert asked["game"] == "kriegspiel" and asked["pool"] == "human"
    board = wire.received_of("leaderboard")[-1]
    assert (board["rules"], board["min_games"]) == ("wild16", 1)
    assert [(e["rank"], e["player"]["id"]) for e in board["entries"]] == [(1, account["id"])]
    shot(second, "leaderboard", tmp_path)
    second.select_option("#lb-pool", "bot")
    second.wait_for_selector("#leaderboard tr[data-player='kriegspiel-random']")
    assert second.locator("#leaderboard tr[data-player='Ana']").count() == 0
    second.select_option("#lb-pool", "human")

    # -- the player page: rating, chart, statistics, recent games -> the replay -----------
    second.click("#leaderboard tr[data-player='Ana'] a")
    card = second.locator(".player-game[data-game=kriegspiel] .rating-card[data-rules=wild16]")
    card.wait_for()
    assert card.locator(".rating").inner_text() == f"{after}?"
    assert card.locator(".provisional").count() == 1
    chart = card.locator("svg.chart")
    assert chart.get_attribute("data-points") == "1"
    assert chart.locator("circle.point").count() == 1
    games = second.locator(".player-game[data-game=kriegspiel] dd[data-stat=games]")
    assert games.inner_text() == "1"
    profile = wire.received_of("profile")[-1]
    assert wire.sent_of("profile")[-1] == {"type": "profile", "name": "Ana"}
    [rating] = [r for r in profile["ratings"] if r["game"] == "kriegspiel"]
    assert round(rating["rating"]) == after and len(rating["history"]) == 1
    shot(second, "player", tmp_path)
    second.click(f".recent li[data-room='{room}'] a")
    second.wait_for_selector(".replay #replay-first")
    assert second.evaluate("location.hash") == f"#/room/{room}"
    second.click("#replay-first")
    second.wait_for_selector(".replay .sq[data-square=e2] .piece")  # the start, both sides
    second.click("#replay-last")
    second.wait_for_selector(".replay .sq[data-square=e4] .piece")

    # -- a phone, in Italian ---------------------------------------------------------------
    second.set_viewport_size({"width": 375, "height": 667})
    second.click("#lang")
    second.goto(f"{url}#/player/ana")
    second.wait_for_selector("h3:has-text('Partite recenti')")
    no_sideways_scroll(second)
    second.click("#nav-board")
    second.wait_for_selector("#leaderboard th:has-text('Punteggio')")
    no_sideways_scroll(second)
    fits = (
        "document.getElementById('leaderboard').scrollWidth"
        " <= document.querySelector('.table-wrap').clientWidth"
    )
    assert second.evaluate(fits), "the leaderboard's columns do not fit a phone"
    shot(second, "leaderboard-phone", tmp_path)
    second.click("#lang")  # back to English

    # -- log out everywhere: both browsers are asked to log in again -----------------------
    second.click("#nav-account")
    second.click("#logout-all")
    second.click("#logout-all-yes")
    second.wait_for_selector("#login-form #notice:has-text('You are logged out on every device')")
    assert wire.sent_of("logout")[-1]["everywhere"] is True
    assert wire.received_of("logged_out")[-1]["revoked"] >= 2
    first.wait_for_selector("#login-form #notice:has-text('Your session has ended')")
    assert first.input_value("#login-name") == "Ana"


def test_bot_accounts_token_shown_once_and_a_new_password(
    accounts_served: Served, new_page: Any, tmp_path: Path
) -> None:
    url = accounts_served.url
    page = new_page(permissions=["clipboard-read", "clipboard-write"])
    wire = Wire(page)
    enter_as_guest(page, url, "bo")
    claim(page, PASSWORD)
    # a bot account: its token is shown once, with a copy button
    page.fill("#bot-name", "bobot")
    page.press("#bot-name", "Enter")
    token = page.locator("#bot-token")
    token.wait_for()
    made = wire.received_of("bot_account")[-1]
    assert token.input_value() == made["token"]
    assert made["player"]["kind"] == "bot" and made["player"]["name"] == "bobot"
    page.click("#copy-token")
    page.wait_for_selector("#copy-token:has-text('Copied')")
    shot(page, "account", tmp_path)
    assert page.evaluate("navigator.clipboard.readText()") == made["token"]
    ws_url = url.replace("http://", "ws://")
    with connect(ws_url) as ws:
        ws.send(json.dumps({"type": "hello", "v": 1, "token": made["token"], "bot_version": "1.0"}))
        welcome = json.loads(ws.recv(timeout=10))
    assert welcome["type"] == "welcome" and welcome["player"]["name"] == "bobot"
    # a reload lists the bot but never shows its token again
    page.reload()
    page.wait_for_selector(".bot-list li[data-bot=bobot]")
    assert page.locator("#bot-token").count() == 0
    # a new token (asked for with confirmation) revokes the old one
    bot_id = made["player"]["id"]
    page.click(f"#token-{bot_id}")
    page.click(f"#token-{bot_id}-yes")
    page.wait_for_function(
        "old => { const el = document.getElementById('bot-token');"
        " return el && el.value && el.value !== old; }",
        arg=made["token"],
    )
    assert wire.sent_of("bot_token")[-1]["bot"] == bot_id
    with connect(ws_url) as ws:
        ws.send(json.dumps({"type": "hello", "v": 1, "token": made["token"]}))
        refused = json.loads(ws.recv(timeout=10))
    assert (refused["type"], refused["code"]) == ("error", "bad_token")
    # Italian at a phone's width
    page.set_viewport_size({"width": 375, "height": 667})
    page.click("#lang")
    page.wait_for_selector("h2:has-text('Account bot')")
    no_sideways_scroll(page)
    shot(page, "account-phone", tmp_path)
    page.click("#lang")
    # a new password; a plain log out; the old password is refused, the new one works
    page.fill("#old-password", PASSWORD)
    page.fill("#new-password", NEW_PASSWORD)
    page.fill("#new-again", NEW_PASSWORD)
    page.click("#password-submit")
    page.wait_for_selector("#notice:has-text('Password changed')")
    assert wire.sent_of("change_password")[-1] == {
        "type": "change_password",
        "old": PASSWORD,
        "new": NEW_PASSWORD,
    }
    page.click("#logout")
    page.wait_for_selector("#login-form #notice:has-text('You are logged out.')")
    assert wire.sent_of("logout")[-1]["everywhere"] is False
    log_in(page, url, "bo", PASSWORD)
    page.wait_for_selector("#login-error")
    page.fill("#login-password", NEW_PASSWORD)
    page.click("#login-submit")
    page.wait_for_selector("#nav-account:has-text('bo')")
    assert page.locator("#nav-account .guest-mark").count() == 0


def test_a_guest_is_refused_a_seat_in_a_rated_room_and_told_why(
    accounts_served: Served, new_page: Any
) -> None:
    url = accounts_served.url
    host = new_page()
    enter_as_guest(host, url, "cy")
    claim(host, PASSWORD)
    host.click("#nav-lobby")
    host.select_option("#f-game", "kriegspiel")
    host.select_option("#f-rated", "true")
    host.click("#f-create")
    host.wait_for_selector(".rated[data-rated=true]")
    room = host.evaluate("location.hash").rsplit("/", 1)[1]
    guest = new_page()
    wire = Wire(guest)
    enter_as_guest(guest, url, "dee")
    card = guest.locator(f".room-card[data-room='{room}']")
    card.locator(".rated").wait_for()
    card.locator("button:has-text('Join')").click()
    guest.wait_for_selector(".error[data-code=account_required]")
    text = guest.locator(".error").inner_text()
    assert text == "Only accounts may sit in a rated room: claim your name first."
    assert wire.sent_of("join")[-1]["room"] == room
    assert [e["code"] for e in wire.received_of("error")] == ["account_required"]
    # the guest's page logs in to the account on its live connection
    guest.click("#nav-account")
    guest.fill("#other-name", "cy")
    guest.fill("#other-password", PASSWORD)
    guest.press("#other-password", "Enter")
    guest.wait_for_selector("#my-kind[data-kind=account]")
    assert guest.locator("#nav-account").inner_text() == "cy"
    assert [m["type"] for m in wire.sent if m["type"] in ("hello", "login")] == ["hello", "login"]
    assert [w["player"]["kind"] for w in wire.received_of("welcome")] == ["guest", "account"]
    # a guest may not take an account's name (whatever its case): back to the first form
    third = new_page()
    third.goto(url)
    third.fill("#name", "CY")
    third.press("#name", "Enter")
    third.wait_for_selector(".name-form .error:has-text('That name belongs to an account')")
    assert third.locator("#create").count() == 0


def test_name_taken_with_a_token_keeps_the_token_and_the_stored_name(
    accounts_served: Served, new_page: Any
) -> None:
    url = accounts_served.url
    page = new_page()
    enter_as_guest(page, url, "dorian")
    token = page.evaluate("localStorage.getItem('umpire.token')")
    claimer = new_page()
    enter_as_guest(claimer, url, "Dora")
    claim(claimer, PASSWORD)
    # the page remembers another name for the token (renamed in another tab, say)
    page.evaluate("localStorage.setItem('umpire.name', 'Dora')")
    wire = Wire(page)
    page.reload()
    page.wait_for_selector("#create")
    hellos = wire.sent_of("hello")
    assert hellos[0]["name"] == "Dora" and hellos[0]["token"] == token
    assert hellos[1] == {"type": "hello", "v": 1, "token": token}  # the token alone
    assert wire.received_of("welcome")[-1]["player"]["name"] == "dorian"
    assert page.evaluate("localStorage.getItem('umpire.token')") == token
    assert page.evaluate("localStorage.getItem('umpire.name')") == "dorian"
