"""The Kriegspiel board, "your turn" and the Perudo round history, in real Chromium.

One ``umpire serve`` for the module. Two people play a short Kriegspiel game (ana white
in English, bob black in Italian): the square colours (a1 dark), the SVG pieces, the
coordinates, the legal targets drawn as a shape, the last move and the check, whose
pawn tries, "White to play" capitalised, the tab's title and icon when a game waits,
the sound (off by default, a setting kept in localStorage, WebAudio), and the real
final position on the table itself. Then a Perudo table keeps every round's bids and
cups after each reveal.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from tests.web.conftest import Served, serving, shot
from tests.web.test_browser import add_bots, choose_game, create_perudo, enter

#: counts the oscillators a page starts (WebAudio), before any of the page's scripts run
COUNT_TONES = """(() => {
  window.__tones = 0;
  const Real = window.AudioContext;
  if (!Real) return;
  window.AudioContext = class extends Real {
    createOscillator() {
      const tone = super.createOscillator();
      const start = tone.start.bind(tone);
      tone.start = (...args) => { window.__tones += 1; return start(...args); };
      return tone;
    }
  };
})()"""

LUMINANCE = """(sq) => {
  const rgb = getComputedStyle(document.querySelector(`.krieg .sq[data-square=${sq}]`))
    .backgroundColor.match(/\\d+/g).map(Number);
  return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
}"""


#: a target's ring: its width, height and border width (one call: the page re-renders)
RING_SIZE = """(sq) => {
  const ring = document.querySelector(`.krieg .sq[data-square=${sq}] .target-mark`);
  const box = ring.getBoundingClientRect();
  return [box.width, box.height, getComputedStyle(ring).borderTopWidth];
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from serving(tmp_path_factory.mktemp("board"))


def tab_icon(page: Any) -> str:
    """``"turn"`` or ``"idle"``: which picture the tab's icon is (a data: SVG, the turn's
    with a red dot)."""
    href = page.locator("#favicon").get_attribute("href") or ""
    assert href.startswith("data:image/svg+xml,"), href
    return "turn" if "#e0362b" in unquote(href) else "idle"


def icon_requests(page: Any) -> list[str]:
    """The requests for a tab icon that ``page`` makes from now on (kept up to date)."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "favicon" in r.url else None)
    return asked


def square(page: Any, sq: str) -> Any:
    return page.locator(f".krieg .sq[data-square={sq}]")


def test_kriegspiel_board_turn_signals_and_final_position(
    server: Served, new_page: Any, tmp_path: Path
) -> None:
    ana = new_page(viewport={"width": 1280, "height": 900})
    ana.add_init_script(COUNT_TONES)
    bob = new_page(viewport={"width": 375, "height": 667})
    bob.add_init_script(COUNT_TONES)
    enter(bob, server.url, "bob")
    bob.wait_for_selector("#create")
    choose_game(ana, server.url, "ana", "kriegspiel")
    # the sound is off by default; ana turns it on (a setting this browser keeps)
    assert ana.locator("#sound").get_attribute("aria-pressed") == "false"
    ana.click("#sound")
    assert ana.locator("#sound").get_attribute("aria-pressed") == "true"
    sample = ana.evaluate("window.__tones")  # turning it on plays the tone once (two notes)
    assert sample == 2
    ana.click("#f-create")
    ana.wait_for_selector(".seats")
    room = ana.evaluate("location.hash").rsplit("/", 1)[1]
    bob.wait_for_selector(f".room-card[data-room='{room}']")
    bob.click(f".room-card[data-room='{room}'] button:has-text('Join')")
    bob.wait_for_selector(".krieg .board")
    bob.click("#lang")  # bob reads Italian
    ana_icons, bob_icons = icon_requests(ana), icon_requests(bob)
    ana.wait_for_selector(".turn-of:has-text('Your turn')")

    # the tab says when a game waits for you, and only then
    ana.wait_for_function("() => document.title.includes('Your turn')")
    assert tab_icon(ana) == "turn"
    assert bob.title() == "umpire"
    assert tab_icon(bob) == "idle"
    # "White to play", capitalised, in Italian
    assert bob.locator(".turn-of").inner_text() == "Tocca al Bianco"

    # a1 is dark, h1 light; the pieces are SVG pictures that loaded
    assert "dark" in (square(ana, "a1").get_attribute("class") or "")
    assert "light" in (square(ana, "h1").get_attribute("class") or "")
    assert ana.evaluate(LUMINANCE, "a1") < ana.evaluate(LUMINANCE, "h1") - 40
    assert ana.locator(".krieg img.piece").count() == 16
    loaded = ana.locator(".krieg img.piece").evaluate_all(
        "els => els.every(e => e.complete && e.naturalWidth > 0 && e.src.endsWith('.svg'))"
    )
    assert loaded
    assert square(ana, "e1").locator("img.piece[data-piece=K]").count() == 1
    # each colour has an outline of the other: white pieces stand out on light squares
    outline = "sel => getComputedStyle(document.querySelector(sel)).filter"
    assert "drop-shadow(rgb(0, 0, 0)" in ana.evaluate(outline, ".krieg img.piece.white")
    assert "drop-shadow(rgba(255, 255, 255" in bob.evaluate(outline, ".krieg img.piece.black")
    assert bob.locator(".krieg .sq[data-square=e8] img.piece[data-piece=k]").count() == 1
    # coordinates: the ranks on the left, the files along the bottom
    assert square(ana, "a1").locator(".coord").inner_text() == "1"
    assert square(ana, "a8").locator(".coord").inner_text() == "8"
    file_mark = (
        "sq => getComputedStyle("
        "document.querySelector(`.krieg .sq[data-square=${sq}]`), '::after').content"
    )
    assert ana.evaluate(file_mark, "h1") == '"h"'
    assert bob.evaluate(file_mark, "a8") == '"a"'  # black's board is turned

    # the legal targets are marked by a shape (a ring), and named
    square(ana, "e2").click()
    for target in ("e3", "e4"):
        size = ana.evaluate(RING_SIZE, target)
        assert size[0] > 10 and size[1] > 10 and size[2] != "0px"
        assert "you can try a move here" in (square(ana, target).get_attribute("aria-label") or "")
    # the pawn's attempts: two pushes and two tries to capture (on squares that look empty)
    assert ana.locator(".krieg .target-mark").count() == 4
    shot(ana, "kriegspiel-targets", tmp_path)
    square(ana, "e4").click()

    # the last move is marked on the mover's board; the turn passes
    ana.wait_for_selector(".krieg .sq[data-square=e4].last-move")
    assert "last-move" in (square(ana, "e2").get_attribute("class") or "")
    ana.wait_for_function("() => document.title === 'umpire'")
    assert tab_icon(ana) == "idle"
    # the icons are drawn in the page: switching them asks the server nothing (it may be
    # away: the restart test's page switched icons while it was, a failed load)
    assert ana_icons == [] and bob_icons == []
    bob.wait_for_function("() => document.title.includes('Tocca a te')")
    # whose pawn tries
    ana.wait_for_selector('.tries:has-text("Black\'s pawn tries: 0")')
    bob.wait_for_selector(".tries:has-text('I tuoi tentativi di pedone: 0')")
    # bob plays by keyboard: the board is one Tab stop (at his king), the arrow keys move
    # over it as he sees it (turned: the a-file on his right), Enter picks and tries
    assert bob.locator(".krieg .board .sq[tabindex='0']").count() == 1
    focused = "document.activeElement.dataset.square || document.activeElement.id"
    bob.focus("#leave")
    bob.keyboard.press("Tab")
    assert bob.evaluate(focused) == "e8"
    for key, sq in (("ArrowLeft", "f8"), ("ArrowUp", "f7"), ("Enter", "f7"), ("ArrowUp", "f6")):
        bob.keyboard.press(key)
        assert bob.evaluate(focused) == sq
    assert "selected" in (square(bob, "f7").get_attribute("class") or "")
    assert bob.locator(".krieg .board .sq[tabindex='0']").count() == 1
    bob.keyboard.press("Enter")
    bob.wait_for_selector(".krieg .sq[data-square=f6].last-move")
    assert bob.evaluate(focused) == "f6"
    ana.wait_for_selector(".tries:has-text('Your pawn tries: 0')")
    ana.wait_for_selector(".turn-of:has-text('Your turn')")
    assert ana.locator(".turn-of").inner_text() == "Your turn"
    square(ana, "d1").click()
    square(ana, "h5").click()
    # bob's king is in check: marked on his board and said
    bob.wait_for_selector(".krieg .sq[data-square=e8].check")
    shot(bob, "kriegspiel-check-phone", tmp_path)
    assert bob.locator(".in-check").inner_text() == "Il tuo re è sotto scacco."
    assert "sotto scacco" in (square(bob, "e8").get_attribute("aria-label") or "")
    ana.wait_for_selector(".turn-of:has-text('Black to play')")

    # ana heard a tone at each of her turns (two oscillators a tone); bob, sound off, none
    assert ana.evaluate("window.__tones") - sample == 4
    assert bob.evaluate("window.__tones") == 0

    # the end: the real final position on the table itself, both sides
    bob.click("#resign")
    bob.click("#resign-yes")
    for page in (ana, bob):
        page.wait_for_selector(".krieg .final-caption")
        page.wait_for_selector(".krieg .sq[data-square=f6] img.piece[data-piece=p]")
        assert page.locator(".krieg .sq[data-square=h5] img.piece[data-piece=Q]").count() == 1
        assert page.locator(".krieg .board img.piece").count() == 32
        assert page.locator(".krieg .tries").count() == 0
    ana.wait_for_function("() => document.title === 'umpire'")
    # the sound setting is kept across a reload
    ana.reload()
    ana.wait_for_selector(".krieg .final-caption")
    assert ana.locator("#sound").get_attribute("aria-pressed") == "true"


def test_perudo_round_history_stays_after_each_reveal(
    server: Served, new_page: Any, tmp_path: Path
) -> None:
    page = new_page(viewport={"width": 1280, "height": 900})
    enter(page, server.url, "ana")
    # every cup is shown at each challenge (under until_proven the challenger's cup alone
    # may prove the bid, and the round's record then holds one cup)
    create_perudo(page, seats=3, dice=2, reveal="all", counts=True)
    add_bots(page, range(1, 3), "perudo-random")
    # play (the lowest bid, or dudo) until the third round has begun
    while not page.locator(".history-round[data-round='2']").count():
        page.wait_for_selector("#bid, #dudo, .placings")
        if page.locator(".placings").count():
            break
        before = page.locator(".log-lines li").count()
        page.click("#dudo" if page.locator("#dudo").count() else "#bid")
        # the move is played (its log line is in) before the next look at the buttons:
        # with bots at zero delay the old buttons may still be on the page
        page.wait_for_function(
            "n => document.querySelectorAll('.log-lines li').length > n", arg=before
        )
    page.wait_for_selector(".history-round[data-round='1']")
    first = page.locator(".history-round[data-round='1']")
    # round 1's bids, who called, every cup with its dice, and who lost a die
    assert first.locator(".history-bids").inner_text().strip()
    assert first.locator(".history-call").inner_text().strip()
    cups = first.locator(".history-cups .cup")
    assert cups.count() == 3
    faces = first.locator(".history-cups svg.die").evaluate_all(
        "els => els.map(e => Number(e.dataset.face))"
    )
    assert len(faces) == 6 and all(1 <= f <= 6 for f in faces)
    assert first.locator(".changes li").count() >= 1
    # newest first, in a box that scrolls
    rounds = page.locator(".history-round").evaluate_all(
        "els => els.map(e => Number(e.dataset.round))"
    )
    assert rounds == sorted(rounds, reverse=True) and rounds[-1] == 1
    overflow = page.locator(".history-rounds").evaluate("el => getComputedStyle(el).overflowY")
    assert overflow == "auto"
    shot(page, "perudo-history", tmp_path)
    # a reload rebuilds it from the room's events
    page.reload()
    page.wait_for_selector(".history-round[data-round='1'] .history-cups svg.die")
    assert page.locator(".history-round[data-round='1'] .history-cups .cup").count() == 3
