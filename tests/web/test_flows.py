"""The web client's flows of issue 30 in real Chromium against one real ``umpire serve``
(shared by the module): watching a private room, bot pickers, the PGN, an eliminated
Perudo player, reasons in the page's language, leaving and coming back, draw offers,
errors in words, a pending action, the end screen, copying, a phone, the keyboard.

Each test checks what the screen shows and, where it matters, what went over the wire.
Every wait is for a DOM condition (Playwright's auto-waiting), never a sleep."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess.pgn
import pytest

from tests.web.conftest import Served, Wire, serving
from tests.web.test_browser import (
    add_bots,
    box,
    choose_game,
    create_perudo,
    enter,
    play_perudo_to_the_end,
)

PHONE = {"viewport": {"width": 375, "height": 667}, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One ``umpire serve`` for the whole module (its log checked at the end)."""
    yield from serving(tmp_path_factory.mktemp("flows"))


def room_id(page: Any) -> str:
    return str(page.evaluate("location.hash").rsplit("/", 1)[1])


def test_a_private_room_can_be_watched_by_its_invite_and_its_address(
    server: Served, new_page: Any
) -> None:
    ana = new_page(permissions=["clipboard-read", "clipboard-write"])
    enter(ana, server.url, "ana")
    create_perudo(ana, seats=2, dice=3, private=True, counts=True)
    room = room_id(ana)
    link = ana.input_value("#invite-link")
    # "Copy" says that it copied, and did
    ana.click("#copy-invite")
    ana.wait_for_selector("#copy-invite:has-text('Copied')")
    assert ana.evaluate("navigator.clipboard.readText()") == link
    add_bots(ana, range(1, 2), "perudo-simple")  # the table is full: the game starts
    ana.wait_for_selector(".my-dice svg.die")
    # bob opens the invite link after the start: he watches (watch with the invite)
    bob = new_page()
    wire = Wire(bob)
    enter(bob, link, "bob")
    bob.wait_for_selector(".cups")
    bob.wait_for_selector(f".room-head h1:has-text('{room}')")
    assert bob.locator(".error").count() == 0
    invite = link.rsplit("/", 1)[1]
    assert {"type": "watch", "invite": invite, "ref": "invite-watch"} in wire.sent_of("watch")
    assert bob.locator(".my-dice").count() == 0
    # the log has the lines from before he came (the whole stream, asked with the invite)
    bob.wait_for_selector(".log-lines li:has-text('The game starts: 2 players, 3 dice each.')")
    assert [m for m in wire.sent_of("resume") if m.get("since") == 0 and m.get("invite") == invite]
    # the room's address, reloaded, watches it again with the invite kept in the browser
    bob.reload()
    bob.wait_for_selector(".cups")
    assert bob.evaluate("location.hash") == f"#/room/{room}"
    assert bob.locator(".error").count() == 0
    assert [m for m in wire.sent_of("watch") if m.get("invite") == invite and "ref" not in m]
    # without the invite, the address says why in words (never a raw code), in Italian too
    eve = new_page()
    enter(eve, f"{server.url}#/room/{room}", "eve")
    eve.wait_for_selector(".error[data-code=no_such_room]")
    text = eve.locator(".error").inner_text()
    assert "invite" in text and "no_such_room" not in text and ":" not in text.split(",")[0]
    eve.click("#lang")
    eve.wait_for_selector(".error:has-text('invito')")
    assert "no_such_room" not in eve.locator(".error").inner_text()


def test_bot_pickers_keep_their_choice_the_lobby_names_and_leaving_then_coming_back(
    server: Served, new_page: Any
) -> None:
    ana = new_page(viewport={"width": 1280, "height": 900})
    wire = Wire(ana)
    enter(ana, server.url, "ana")
    create_perudo(ana, seats=4, dice=1, counts=True)
    room = room_id(ana)
    # the room is the page now (not the lobby): the lobby link is not the current one, and
    # the browser's Back returns to the lobby, Forward to the room
    assert ana.get_attribute("#nav-lobby", "aria-current") is None
    ana.go_back()
    ana.wait_for_selector("#create")
    assert ana.get_attribute("#nav-lobby", "aria-current") == "page"
    ana.go_forward()
    ana.wait_for_selector(".seats")
    assert ana.get_attribute("#nav-lobby", "aria-current") is None
    options = ana.locator("#bot-kind-1 option").evaluate_all("els => els.map(e => e.value)")
    assert "perudo-search" in options
    assert options[0] != "perudo-random"  # (a picker that resets shows its first bot)
    for seat in (1, 2, 3):
        ana.select_option(f"#bot-kind-{seat}", "perudo-random")
    ana.click("[data-key=add-bot-1]")
    ana.wait_for_selector(".seat[data-seat='1']:not(.free)")
    # the other pickers kept their choice, and their buttons add what they show
    assert ana.input_value("#bot-kind-2") == "perudo-random"
    assert ana.input_value("#bot-kind-3") == "perudo-random"
    ana.click("[data-key=add-bot-2]")
    ana.wait_for_selector(".seat[data-seat='2']:not(.free)")
    assert [m["bot"] for m in wire.sent_of("add_bot")] == ["perudo-random", "perudo-random"]
    # the lobby names the bots as the room does
    bob = new_page()
    enter(bob, server.url, "bob")
    names = bob.locator(f".room-card[data-room='{room}'] .names")
    names.wait_for()
    assert names.inner_text() == "ana, perudo-random#1, perudo-random#2"
    # the game starts with the last bot; ana leaves it and comes back to it
    ana.click("[data-key=add-bot-3]")
    ana.wait_for_selector(".log-lines li")
    before = ana.locator(".log-lines li").all_inner_texts()
    ana.click("#leave")
    ana.click("#leave-yes")
    ana.wait_for_selector("#create")
    mine = ana.locator(f".my-rooms a[href='#/room/{room}']")
    mine.wait_for()
    assert ana.locator(".my-rooms .left-mark").count() == 1
    mine.click()
    ana.wait_for_selector(".log-lines li")
    after = ana.locator(".log-lines li").all_inner_texts()
    assert after[: len(before)] == before
    assert [m for m in wire.sent_of("resume") if m["room"] == room and m.get("since", 0) > 0]


FITS = """() => {
  const card = document.querySelector('#create').getBoundingClientRect();
  return [...document.querySelectorAll('#create *')]
    .filter((el) => el.getClientRects().length)
    .filter((el) => el.getBoundingClientRect().right > card.right + 0.5)
    .map((el) => el.outerHTML.slice(0, 80));
}"""


#: the create form's selects whose chosen text is cut (measured in the select's own font,
#: beside the room its arrow and padding take)
CLIPPED = """() => [...document.querySelectorAll('#create select')].filter((select) => {
  const style = getComputedStyle(select);
  const probe = document.createElement('span');
  probe.style.font = style.font;
  probe.style.whiteSpace = 'pre';
  probe.textContent = select.options[select.selectedIndex]?.text || '';
  document.body.appendChild(probe);
  const needed = probe.getBoundingClientRect().width;
  probe.remove();
  return needed + 24 > select.clientWidth;
}).map((select) => `${select.id}: ${select.options[select.selectedIndex]?.text}`)"""


def test_on_a_phone_the_create_form_fits_and_lobby_names_keep_their_width(
    server: Served, new_page: Any
) -> None:
    ana = new_page()
    enter(ana, server.url, "ana")
    create_perudo(ana, seats=4, dice=1)
    room = room_id(ana)
    add_bots(ana, range(1, 3), "perudo-expert:normal")
    bob = new_page(**PHONE)
    enter(bob, server.url, "bob")
    selector = f".room-card[data-room='{room}'] .names"
    names = bob.locator(selector)
    names.wait_for()
    assert names.inner_text() == "ana, perudo-expert:normal#1, perudo-expert:normal#2"
    measured = box(bob, selector)
    line = float(bob.evaluate("parseFloat(getComputedStyle(document.body).lineHeight) || 20"))
    assert measured["width"] >= 200, measured  # not a narrow column
    assert measured["height"] <= 2.5 * line, measured  # two lines at most
    for lang, (width, height) in (("en", (375, 667)), ("it", (375, 667)), ("it", (320, 568))):
        if bob.evaluate("document.documentElement.lang") != lang:
            bob.click("#lang")
            bob.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
        bob.set_viewport_size({"width": width, "height": height})
        for game in ("perudo", "kriegspiel"):
            bob.select_option("#f-game", game)
            assert bob.evaluate(FITS) == [], (game, lang, width)
            # every select shows its choice whole (not "i bicchieri fi")
            assert bob.evaluate(CLIPPED) == [], (game, lang, width)
            scrolled = bob.evaluate("document.documentElement.scrollWidth")
            assert scrolled <= width, scrolled


def _rank(bid: str) -> float:
    """How high a bid is (an ace counts twice; the face breaks ties)."""
    quantity, face = (int(x) for x in bid.split("x"))
    return quantity * 2 + 0.5 if face == 1 else quantity + face / 10


def _bid_top(page: Any) -> None:
    """Bid the highest bid the picker offers, by its controls (the next seat can only
    call Dudo on it: it is false unless every die is an ace)."""
    faces = page.locator(".faces button:not([disabled])").evaluate_all(
        "els => els.map(e => Number(e.dataset.key.split('-')[1]))"
    )
    best: tuple[float, int, str] | None = None
    for face in faces:
        page.click(f"[data-key=face-{face}]")
        top = page.locator("#quantity option").last.get_attribute("value")
        bid = f"{top}x{face}"
        if best is None or _rank(bid) > best[0]:
            best = (_rank(bid), face, str(top))
    assert best is not None
    page.click(f"[data-key=face-{best[1]}]")
    page.select_option("#quantity", best[2])
    page.click("#bid")


def _play(page: Any) -> None:
    """Call Dudo when possible, else bid the lowest bid."""
    page.click("#dudo" if page.locator("#dudo").count() else "#bid")


def test_an_eliminated_player_is_told_reasons_in_italian_and_the_end_screen(
    server: Served, new_page: Any
) -> None:
    ana = new_page(
        viewport={"width": 1280, "height": 1000}, permissions=["clipboard-read", "clipboard-write"]
    )
    wire = Wire(ana)
    enter(ana, server.url, "ana")
    ana.click("#lang")  # Italiano
    ana.wait_for_selector("#f-create:has-text('Crea')")
    room = create_perudo(ana, seats=3, dice=2, counts=True)
    bob = new_page()  # seat 1: the game waits for him once ana is out
    enter(bob, server.url, "bob")
    bob.click(f".room-card[data-room='{room}'] button:has-text('Join')")
    ana.wait_for_selector(".seat[data-seat='1']:not(.free)")
    add_bots(ana, range(2, 3), "perudo-simple")
    # ana bids the top every time: it can only be called, and it is false (unless every
    # die is an ace): she loses both dice; bob calls or bids the lowest
    # (each move is waited for in ana's log before the pages are looked at again: with a
    # bot at zero delay, a page may still show the buttons or the turn of a move played)
    lines = "n => document.querySelectorAll('.log-lines li').length > n"
    while True:
        ana.wait_for_selector("#bid, #dudo, #out-notice, .turn-of:has-text('Tocca a bob')")
        if ana.locator("#out-notice").count():
            break
        before = ana.locator(".log-lines li").count()
        if ana.locator("#bid").count():
            _bid_top(ana)
            ana.wait_for_selector("#pending", state="detached")
        elif ana.locator("#dudo").count():
            ana.click("#dudo")
            ana.wait_for_selector("#pending", state="detached")
        else:
            bob.wait_for_selector("#bid, #dudo")
            _play(bob)
            bob.wait_for_selector("#pending", state="detached")
        ana.wait_for_function(lines, arg=before)
    notice = ana.locator("#out-notice").inner_text()
    assert "Sei fuori" in notice
    assert ana.locator("#hint").count() == 0
    assert ana.locator(".my-dice").count() == 0  # no dice left: not the one she lost
    log = ana.locator(".log-lines").inner_text()
    assert "ana è fuori." in log
    assert "ana perde un dado (la puntata era falsa)." in log
    for english in ("lost dudo", "won calza", "last player standing", "(pawn)", "illegal"):
        assert english not in log
    # watch on: the notice goes, the game goes on without her to its end
    ana.click("#out-watch")
    assert ana.locator("#out-notice").count() == 0
    play_perudo_to_the_end(bob)  # bob plays on against the bot
    ana.wait_for_selector(".placings")
    ana.wait_for_selector(".log-lines li:has-text('ultimo rimasto in gioco')")
    assert ana.locator(".my-dice").count() == 0  # still none at the end
    # the end: the winner's cup, house bots are not "away", the whole seed and hash
    winner = next(m for m in wire.received_of("event") if m["event"]["type"] == "game_over")
    seat = winner["event"]["winners"][0]
    cup = ana.locator(f".perudo > ul.cups > .cup[data-seat='{seat}']")
    assert cup.locator(".winner-mark svg.cup-icon").count() == 1
    assert "vincitore" in cup.inner_text() and "nascosti" not in cup.inner_text()
    for badge in ana.locator(".seat .badges").all_inner_texts():
        assert "assente" not in badge
    final = [m for m in wire.received_of("room") if m.get("seed")][-1]
    assert ana.locator("#seed-value").inner_text() == final["seed"]
    assert ana.locator("#hash-value").inner_text() == final["seed_sha256"]
    style = "getComputedStyle(document.querySelector('.seed')).wordBreak"
    assert ana.evaluate(style) != "break-all"  # never broken inside words
    ana.click("#copy-seed")
    ana.wait_for_selector("#copy-seed:has-text('Copiato')")
    assert ana.evaluate("navigator.clipboard.readText()") == final["seed"]
    ana.wait_for_selector("#seed-check:has-text('✓')")


KRIEG_FEN = "8/P5k1/4K3/8/8/8/8/8 w - - 0 1"  # the black king hides on g7


def test_kriegspiel_draw_offers_answers_in_italian_and_a_pgn_chess_programs_read(
    server: Served, new_page: Any
) -> None:
    ana = new_page(viewport={"width": 1280, "height": 1000})
    choose_game(ana, server.url, "ana", "kriegspiel")
    ana.fill("#f-fen", KRIEG_FEN)
    ana.set_checked("#f-public", False)
    ana.click("#f-create")
    link = ana.locator("#invite-link")
    link.wait_for()
    bob = new_page(viewport={"width": 1280, "height": 1000})
    enter(bob, link.input_value(), "bob")
    ana.wait_for_selector(".sq[data-square=e6] .piece")
    bob.wait_for_selector(".sq[data-square=g7] .piece")
    # black, out of turn, may resign or offer a draw (the server takes both at any time),
    # and may not offer again before white has moved
    bob.wait_for_selector("#resign")
    bob.click("#offer-draw")
    ana.wait_for_selector("#draw-state[data-state=offered]")
    # after a reload the page still knows its offer stands (rebuilt from the room's events)
    bob.reload()
    bob.wait_for_selector("#draw-state[data-state=offered]")
    bob.wait_for_selector("#resign")
    assert bob.locator("#offer-draw").count() == 0
    ana.click("#decline-draw")
    bob.wait_for_selector("#draw-state[data-state=declined]")
    assert bob.locator("#offer-draw").count() == 0
    # and, declined, that it offered since white's last move: not again (the server refuses)
    bob.reload()
    bob.wait_for_selector("#draw-state[data-state=declined]")
    bob.wait_for_selector("#resign")
    assert bob.locator("#offer-draw").count() == 0
    ana.click("#lang")  # Italiano
    ana.wait_for_selector("#resign:has-text('Abbandona'), #resign")
    # an illegal attempt, answered in Italian
    ana.click(".sq[data-square=e6]")
    ana.click(".sq[data-square=f7].target")
    ana.wait_for_selector(".log-lines li:has-text('Hai provato e6f7: illegale.')")
    # a draw offer declined
    ana.click("#offer-draw")
    ana.wait_for_selector("#draw-state[data-state=offered]")
    bob.click("#decline-draw")
    ana.wait_for_selector("#draw-state[data-state=declined]")
    assert "rifiutata" in ana.locator("#draw-state").inner_text()
    # moves; then an offer that bob lets lapse by moving
    ana.click(".sq[data-square=e6]")
    ana.click(".sq[data-square=d6].target")
    bob.wait_for_selector(".turn-of:has-text('Your turn')")
    bob.click(".sq[data-square=g7]")
    bob.click(".sq[data-square=g8].target")
    ana.wait_for_selector("#offer-draw")
    ana.click("#offer-draw")
    ana.wait_for_selector("#draw-state[data-state=offered]")
    bob.wait_for_selector("#decline-draw")
    ana.click(".sq[data-square=d6]")
    ana.click(".sq[data-square=e6].target")
    bob.wait_for_selector(".turn-of:has-text('Your turn')")
    bob.click(".sq[data-square=g8]")
    bob.click(".sq[data-square=g7].target")
    ana.wait_for_selector("#draw-state[data-state=lapsed]")
    assert "decaduta" in ana.locator("#draw-state").inner_text()
    # eve watches the private game by its invite link, then goes back to the lobby
    eve = new_page()
    sockets: list[Any] = []
    eve.on("websocket", lambda ws: sockets.append(ws))
    enter(eve, link.input_value(), "eve")
    eve.wait_for_selector(".krieg .turn-of")
    eve.click(".room-head a[href='#/']")
    eve.wait_for_selector("#create")
    with sockets[-1].expect_event("framereceived", lambda p: '"type":"watching"' in p):
        ana.click("#resign")
        ana.click("#resign-yes")
    ana.wait_for_selector(".game-over:has-text('abbandono')")
    # the page attached again by itself for the final view: eve stays in the lobby
    assert eve.evaluate("location.hash") == "#/" and eve.locator("#create").count() == 1
    eve.go_back()
    # the real final position, for the players and the spectator of a private room
    for page in (ana, bob, eve):
        page.wait_for_selector(".krieg .final-caption")
        assert page.locator(".krieg .board img.piece").count() == 3
    ana.wait_for_selector("#pgn")
    with ana.expect_download() as download:
        ana.click("#pgn")
    text = Path(download.value.path()).read_text()
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors
    board = game.end().board()  # python-chess plays it as chess
    assert board.fen().split(" ")[0] == "8/P5k1/4K3/8/8/8/8/8"
    assert [m.uci() for m in game.mainline_moves()] == ["e6d6", "g7g8", "d6e6", "g8g7"]
    assert "Variant" not in game.headers
    assert game.headers["UmpireVariant"] == "Kriegspiel"
    assert re.fullmatch(r"20\d\d\.\d\d\.\d\d", game.headers["Date"])
    assert game.headers["Result"] == "0-1"


def _perudo_duel(page: Any, url: str, name: str, dice: int = 3) -> None:
    enter(page, url, name)
    create_perudo(page, seats=2, dice=dice)
    add_bots(page, range(1, 2), "perudo-simple")
    page.wait_for_selector(".my-dice svg.die")


def test_an_action_clicked_while_disconnected_shows_pending_until_acknowledged(
    server: Served, new_page: Any
) -> None:
    page = new_page()
    state: dict[str, Any] = {"offline": False, "live": None}
    to_server: list[dict[str, Any]] = []
    while_offline: list[dict[str, Any]] = []

    def route(ws: Any) -> None:
        if state["offline"]:
            # the network is down: nothing reaches the server, the socket closes at once
            # (the page tries again, with a growing delay)
            ws.on_message(lambda m: while_offline.append(json.loads(m)))
            ws.close()
            return
        upstream = ws.connect_to_server()

        def forward(message: str) -> None:
            to_server.append(json.loads(message))
            upstream.send(message)

        ws.on_message(forward)
        state["live"] = (ws, upstream)

    page.route_web_socket(re.compile("^ws://"), route)
    _perudo_duel(page, server.url, "ana")
    while True:
        page.wait_for_selector("#bid, #dudo")
        if page.locator("#dudo").count():
            break
        page.click("#bid")
        page.wait_for_selector("#pending", state="detached")
    state["offline"] = True
    ws, upstream = state["live"]
    upstream.close()
    ws.close()
    page.wait_for_selector("#banner:visible")
    page.click("#dudo")
    pending = page.locator("#pending[data-action=dudo]")
    pending.wait_for()
    assert "pending" in pending.inner_text()
    assert not [m for m in while_offline if m.get("type") == "act"]
    assert not [m for m in to_server if m.get("type") == "act" and m["action"] == "dudo"]
    # the network is back: the action goes out after the welcome, and is acknowledged
    state["offline"] = False  # the page's next try connects
    page.wait_for_selector("#banner", state="hidden")
    page.wait_for_selector("#pending", state="detached")
    page.wait_for_selector(".log-lines li:has-text('ana calls DUDO')")
    kinds = [m.get("type") for m in to_server]
    last_hello = len(kinds) - 1 - kinds[::-1].index("hello")
    assert [m["action"] for m in to_server[last_hello:] if m.get("type") == "act"] == ["dudo"]


def test_the_keyboard_alone_plays_a_bid_and_focus_stays_on_the_table(
    server: Served, new_page: Any
) -> None:
    page = new_page()
    wire = Wire(page)
    _perudo_duel(page, server.url, "ana", dice=5)  # 10 dice: room for two more
    page.wait_for_selector("#bid")
    focused = "document.activeElement && document.activeElement.dataset.key"
    # the faces are one radio group: the chosen face is the group's one Tab stop, and
    # the arrow keys move the choice
    chosen = page.locator(".faces [aria-checked=true]")
    first = chosen.get_attribute("data-key")
    assert chosen.get_attribute("tabindex") == "0"
    assert page.locator(".faces [tabindex='0']").count() == 1
    page.focus(f"[data-key={first}]")
    page.keyboard.press("ArrowRight")
    second = page.locator(".faces [aria-checked=true]").get_attribute("data-key")
    assert second != first
    assert page.evaluate(focused) == second
    # Tab and Enter alone reach every higher quantity: the "+" button, up to the highest,
    # where it is disabled and the focus falls back to the quantity (not to the page).
    # How many there are depends on who opened the round, and how high.
    lowest = int(page.input_value("#quantity"))
    values = page.locator("#quantity option").evaluate_all("os => os.map(o => o.value)")
    highest = max(int(value) for value in values)
    assert highest > lowest
    for key in ("Tab", "Tab"):  # the quantity, then "+" ("−" is disabled at the lowest)
        page.keyboard.press(key)
    assert page.evaluate(focused) == "quantity-more"
    for quantity in range(lowest + 1, highest + 1):
        page.keyboard.press("Enter")
        assert int(page.input_value("#quantity")) == quantity
        assert page.evaluate(focused) == ("quantity-more" if quantity < highest else "quantity")
    # from the quantity Tab passes "−" and skips the disabled "+"
    page.keyboard.press("Tab")
    assert page.evaluate(focused) == "quantity-less"
    page.keyboard.press("Tab")
    assert page.evaluate(focused) == "bid"
    page.keyboard.press("Enter")
    # focus is on the table, not <body>
    page.wait_for_selector("[data-focus-landing]:focus")
    assert page.evaluate("document.activeElement !== document.body")
    face = int(second.split("-")[1])
    assert wire.sent_of("act")[0]["action"] == f"{highest}x{face}"
