"""Outside its games' modules, the terminal client names no game (issue 31).

Everything that differs between games lives in one module per game under
``client_cli/games/``, registered in ``client_cli/games/__init__.py``; the rest of the
client asks the registry and the server's catalogue. A game's name, or a word only one game
uses, anywhere else in ``client_cli/`` fails this test, as does a game's module naming
another game.
"""

from __future__ import annotations

import re
from pathlib import Path

from client_cli import games
from server.games import engine_names, register

register("goofspiel", "tests.games.goofspiel")

CLIENT = Path(__file__).resolve().parents[2] / "client_cli"
GAMES = CLIENT / "games"
REGISTRY = GAMES / "__init__.py"

#: Words of one game or another, besides the games' names.
GAME_WORDS = ("dudo", "calza", "palifico", "uci", "chess", "dice", "aces", "krieg")


def game_names() -> set[str]:
    """Every game the server's engines or the client's registry know."""
    return set(engine_names()) | set(games.names())


def pattern(words: set[str] | tuple[str, ...]) -> re.Pattern[str]:
    """Any of ``words``, case-insensitive, not inside a longer word (``_`` separates)."""
    alternatives = "|".join(sorted(map(re.escape, words)))
    return re.compile(rf"(?<![a-z])({alternatives})(?![a-z])", re.IGNORECASE)


def hits(path: Path, words: re.Pattern[str]) -> list[str]:
    """``file:line: text`` for each line of ``path`` that says one of ``words``."""
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if words.search(line):
            found.append(f"{path.relative_to(CLIENT.parent)}:{number}: {line.strip()}")
    return found


def files() -> list[Path]:
    """Every text file of the client (no caches)."""
    return [p for p in sorted(CLIENT.rglob("*")) if p.is_file() and "__pycache__" not in p.parts]


def test_the_names_looked_for_include_every_game() -> None:
    assert {"perudo", "kriegspiel", "goofspiel"} <= game_names()
    assert set(games.names()) == {"perudo", "kriegspiel", "goofspiel"}


def test_no_game_is_named_outside_the_games_modules() -> None:
    words = pattern(game_names() | set(GAME_WORDS))
    found = []
    for path in files():
        if path == REGISTRY or (path.parent != GAMES and GAMES in path.parents):
            continue  # the registry, and a game's own module
        found += hits(path, words)
    assert found == []


def test_a_games_module_names_no_other_game() -> None:
    found = []
    for name in games.names():
        others = pattern(game_names() - {name})
        for path in files():
            if GAMES / name in path.parents:
                found += hits(path, others)
    assert found == []


def test_the_check_sees_a_name_where_it_would_be() -> None:
    words = pattern(game_names() | set(GAME_WORDS))
    assert words.search('if room.game == "perudo":')
    assert words.search("KRIEG_WORDS = {")
    assert words.search("def looks_like_uci(word)")
    assert not words.search("the dudoku of reducible things")
