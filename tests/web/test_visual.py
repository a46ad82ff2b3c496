"""The visual check: every main screen, in English and Italian, on a desktop and a phone.

One ``umpire serve`` and one Chromium for the module. Each screen is reached once (two
people play, so nothing moves while it is photographed): the lobby, a Perudo table in
mid-round, a reveal, the end screen (placings), a Kriegspiel board at its start and at its
end, and the create form of each game with every option's help open. Each is then shown in
both languages at 1280 × 800, 375 × 667 and 320 × 568 and saved as a
screenshot into a temporary folder (``UMPIRE_VISUAL_DIR`` names another), and checked:

- no element overflows the viewport sideways (nothing scrolls horizontally);
- an Italian page shows no English word: the words of every English string of the
  client (``i18n.js`` and the games' words) whose Italian differs and which no Italian
  string uses, and the server's English reasons named in issue 30.

Every failure of every screen is gathered, and the test fails once with the whole list.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import WAIT_MS, Served, serving
from tests.web.test_browser import create_perudo, enter

SIZES = {"desktop": (1280, 800), "phone": (375, 667), "small-phone": (320, 568)}

#: English the server used to send as text (issue 30): never on an Italian page
SERVER_ENGLISH = [
    "lost dudo",
    "won dudo",
    "lost calza",
    "won calza",
    "last player standing",
    "resignation",
    "illegal",
    "(pawn)",
    "bad_state",
    "no_such_room",
    # the create form's choices as the protocol spells them (a choice is worded; the
    # option help may quote a value only as code, which the scan skips)
    "ordinary",
    "wild_conversion",
    "until_proven",
    "classic",
]

#: the English words of the client's strings whose Italian differs (computed in the page)
ENGLISH_WORDS = """async () => {
  const i18n = await import("/js/i18n.js");
  await import("/js/games/index.js");
  const tables = [[i18n.STRINGS.en, i18n.STRINGS.it]];
  for (const words of Object.values(i18n.GAME_WORDS)) tables.push([words.en || {}, words.it || {}]);
  const tokens = (text) => String(text).replace(/\\{\\w+\\}/g, " ").toLowerCase()
    .match(/[\\p{L}]+(?:['’][\\p{L}]+)*/gu) || [];
  const italian = new Set();
  for (const [, it] of tables) {
    for (const text of Object.values(it)) tokens(text).forEach((w) => italian.add(w));
  }
  const out = new Set();
  for (const [en, it] of tables) {
    for (const [key, text] of Object.entries(en)) {
      if (it[key] === text) continue;
      for (const word of tokens(text)) if (word.length >= 4 && !italian.has(word)) out.add(word);
    }
  }
  return [...out].sort();
}"""

#: every string of the client (both languages, every game) with a character beyond the
#: Basic Multilingual Plane: an emoji, drawn as an empty box without an emoji font (a
#: server, a CI machine and many desktops have none); an icon is an SVG instead
ASTRAL = r"""async () => {
  const i18n = await import("/js/i18n.js");
  await import("/js/games/index.js");
  const tables = [i18n.STRINGS.en, i18n.STRINGS.it];
  for (const words of Object.values(i18n.GAME_WORDS)) tables.push(words.en || {}, words.it || {});
  return tables.flatMap((table) => Object.entries(table))
    .filter(([, text]) => /[\u{10000}-\u{10FFFF}]/u.test(String(text)))
    .map(([key, text]) => `${key}: ${text}`);
}"""

#: the words and phrases an Italian page shows that are on the list: visible text, the
#: accessible names and the title (a token is a run of letters, digits, '-' and '_', so
#: that a bot's name such as perudo-random is not read as the English "random")
ENGLISH_ON_PAGE = """([words, phrases]) => {
  // a protocol value quoted as code (the option help's `true`, `until_proven`) is not
  // prose: each <code> is cut out of the visible text, in document order
  let body = document.body.innerText;
  let from = 0;
  for (const code of document.body.querySelectorAll("code")) {
    const at = body.indexOf(code.innerText, from);
    if (at < 0 || !code.innerText) continue;
    body = body.slice(0, at) + " " + body.slice(at + code.innerText.length);
    from = at + 1;
  }
  const texts = [body, document.title];
  const scanned = { "aria-label": "[aria-label]", title: "[title]", placeholder: "[placeholder]" };
  for (const [name, selector] of Object.entries(scanned)) {
    for (const el of document.querySelectorAll(selector)) texts.push(el.getAttribute(name));
  }
  const set = new Set(words);
  const found = new Map();
  const seen = (word, text, at) => {
    if (!found.has(word)) found.set(word, text.slice(Math.max(0, at - 30), at + word.length + 30));
  };
  for (const text of texts) {
    for (const m of text.matchAll(/[\\p{L}\\p{N}_-]+(?:['’][\\p{L}]+)*/gu)) {
      if (set.has(m[0].toLowerCase())) seen(m[0], text, m.index);
    }
    for (const phrase of phrases) {  // whole words: "illegal" is not in "illegale"
      const quoted = phrase.replace(/[.*+?^${}()|[\\]\\\\]/g, "\\\\$&");
      const m = new RegExp("(?<![\\\\p{L}_])" + quoted + "(?![\\\\p{L}_])", "iu").exec(text);
      if (m) seen(phrase, text, m.index);
    }
  }
  return [...found].map(([word, where]) => `${word} in “${where.replace(/\\s+/g, " ")}”`).sort();
}"""

#: every element that reaches past the viewport's left or right edge
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  const scrolled = document.documentElement.scrollWidth;
  if (scrolled > width + 1) out.push(`page ${scrolled}px wide`);
  for (const el of document.body.querySelectorAll("*")) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    if (box.right > width + 1 || box.left < -1) {
      const cls = typeof el.className === "string" ? el.className.trim() : "";
      const name = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
        + (cls ? "." + cls.split(/\\s+/).join(".") : "");
      out.push(`${name} ${Math.round(box.left)}..${Math.round(box.right)}`);
    }
  }
  return out.slice(0, 8);
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from serving(tmp_path_factory.mktemp("visual"))


@pytest.fixture(scope="module")
def shots_dir() -> Path:
    folder = os.environ.get("UMPIRE_VISUAL_DIR")
    path = Path(folder) if folder else Path(tempfile.mkdtemp(prefix="umpire-visual-"))
    path.mkdir(parents=True, exist_ok=True)
    return path


class Check:
    """Photographs a page in both languages at both sizes and gathers what is wrong."""

    def __init__(self, folder: Path, words: list[str]) -> None:
        self.folder = folder
        self.words = words
        self.failures: list[str] = []
        self.count = 0

    def screen(self, page: Any, name: str, ready: str) -> None:
        start = page.viewport_size
        closed = page.locator(".help-toggle[aria-expanded=false]")
        for _ in range(closed.count()):
            closed.first.click()  # every option's help is shown (and checked) too
        for lang in ("en", "it"):
            if page.evaluate("document.documentElement.lang") != lang:
                page.click("#lang")
                page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
            for size, (width, height) in SIZES.items():
                page.set_viewport_size({"width": width, "height": height})
                page.wait_for_selector(ready)
                page.evaluate("document.fonts.ready")
                where = f"{name} ({lang}, {size})"
                page.screenshot(path=str(self.folder / f"{name}-{lang}-{size}.png"), full_page=True)
                self.count += 1
                for item in page.evaluate(OVERFLOW):
                    self.failures.append(f"{where}: overflows the viewport: {item}")
                if lang == "it":
                    english = page.evaluate(ENGLISH_ON_PAGE, [self.words, SERVER_ENGLISH])
                    if english:
                        self.failures.append(f"{where}: English on an Italian page: {english}")
        if page.evaluate("document.documentElement.lang") != "en":
            page.click("#lang")
            page.wait_for_function("() => document.documentElement.lang === 'en'")
        page.set_viewport_size(start)


def next_mover(*pages: Any) -> Any:
    """The page whose turn it is, or None once the game is over (each page is given a
    short wait for a DOM condition in turn, a bounded number of times)."""
    from playwright.sync_api import TimeoutError as Timeout

    for _ in range(200):
        for page in pages:
            try:
                page.wait_for_selector("#bid, #dudo, .placings", timeout=150)
            except Timeout:
                continue
            return None if page.locator(".placings").count() else page
    raise AssertionError("no page got a turn")


def take_turn(page: Any) -> None:
    """Dudo when it is legal, else the lowest bid."""
    page.click("#dudo" if page.locator("#dudo").count() else "#bid")


# The whole tour of screens is long, and as its worker's last test it also carries the
# session fixtures' teardown (the PostgreSQL cluster's files removed): on a machine
# running two benchmark processes beside CI it passed 120 s during that teardown
# (2026-12-02, issue 33 round twenty). The default guards hangs, not load.
@pytest.mark.timeout(300)
def test_every_screen_in_both_languages_and_sizes(
    server: Served, new_page: Any, shots_dir: Path
) -> None:
    ana = new_page(viewport={"width": 1280, "height": 800})
    bob = new_page(viewport={"width": 1280, "height": 800})
    enter(bob, server.url, "bob")
    bob.wait_for_selector("#create")
    enter(ana, server.url, "ana")
    ana.wait_for_selector("#create")
    words = ana.evaluate(ENGLISH_WORDS)
    assert {"lobby", "create", "waiting"} <= set(words)  # the list is real
    assert ana.evaluate(ASTRAL) == []
    check = Check(shots_dir, words)

    # Perudo, two people: mid-round (bob to answer ana's bid), then a reveal
    room = create_perudo(ana, seats=2, dice=2, counts=True)
    bob.wait_for_selector(f".room-card[data-room='{room}']")
    check.screen(bob, "lobby", f".room-card[data-room='{room}']")
    bob.select_option("#f-game", "kriegspiel")
    check.screen(bob, "create-kriegspiel", "#f-rules")
    bob.select_option("#f-game", "perudo")
    bob.click(f".room-card[data-room='{room}'] button:has-text('Join')")
    for page in (ana, bob):
        page.wait_for_selector(".my-dice svg.die")
    first = next_mover(ana, bob)
    assert first is not None
    other = bob if first is ana else ana
    first.click("#bid")
    other.wait_for_selector("#dudo")
    check.screen(other, "perudo", "#dudo")
    other.click("#dudo")
    other.wait_for_selector(".reveal")
    # the loser of the die starts the next round: nobody bids, the reveal stays
    check.screen(other, "reveal", ".reveal")
    # play on to the end
    while (mover := next_mover(ana, bob)) is not None:
        take_turn(mover)
    ana.wait_for_selector("#seed-check")
    check.screen(ana, "end", ".placings")
    assert ana.locator(".winner-mark svg").count() + bob.locator(".winner-mark svg").count() == 1

    # Kriegspiel against a house bot: the start, then the end (resigned)
    ana.goto(server.url)
    ana.wait_for_selector("#create")
    ana.select_option("#f-game", "kriegspiel")
    ana.click("#f-create")
    ana.wait_for_selector(".seats")
    ana.select_option("#bot-kind-1", "kriegspiel-random")
    ana.click("[data-key=add-bot-1]")
    ana.wait_for_selector(".krieg .sq[data-square=e2] .piece")
    ana.wait_for_selector("#resign")
    # a refused attempt (a pawn's capture onto an empty square): the umpire's answer
    ana.click(".krieg .sq[data-square=e2]")
    ana.click(".krieg .sq[data-square=d3]")
    ana.wait_for_selector(".refused")
    check.screen(ana, "kriegspiel-start", ".krieg .board")
    ana.click("#resign")
    ana.click("#resign-yes")
    ana.wait_for_selector(".krieg .final-caption", timeout=WAIT_MS)
    check.screen(ana, "kriegspiel-end", ".krieg .final-caption")

    assert check.count == 7 * 2 * len(SIZES)
    assert not check.failures, f"screenshots in {shots_dir}\n" + "\n".join(check.failures)
