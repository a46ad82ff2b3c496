"""Outside its game modules (server/web/js/games/), the browser client names no game: the
lobby, the create form and the bot pickers come from the server's catalogue, and every
table, command, replay and word of a game lives in that game's module."""

from __future__ import annotations

import re

from server.games import engine_names, register
from tests.web.conftest import ROOT

register("goofspiel", "tests.games.goofspiel")

JS = ROOT / "server" / "web" / "js"
GAMES = JS / "games"
#: words only one game's module has any business saying
GAME_WORDS = (
    "krieg",
    "dudo",
    "calza",
    "palifico",
    "bid",
    "bids",
    "dice",
    "uci",
    "chess",
    "pgn",
    "fen",
    "pawn",
    "san",
)


def forbidden() -> re.Pattern[str]:
    names = [*engine_names(), *GAME_WORDS]
    return re.compile(rf"\b({'|'.join(map(re.escape, names))})\b", re.IGNORECASE)


def test_no_game_is_named_outside_the_game_modules() -> None:
    pattern = forbidden()
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted(JS.rglob("*.js"))
        if GAMES not in path.parents
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if pattern.search(line)
    ]
    assert not found, "\n".join(found)


def test_every_registered_game_has_a_module_that_the_grep_would_catch() -> None:
    pattern = forbidden()
    index = (GAMES / "index.js").read_text()
    for name in engine_names():
        module = GAMES / f"{name}.js"
        assert module.is_file(), f"no client module for {name}"
        assert f'from "./{name}.js"' in index, f"{name}.js is not registered in games/index.js"
        assert pattern.search(module.read_text()), name
