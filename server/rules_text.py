"""``umpire rules``: the games, their rule sets, presets, options and house bots, and the
room options, as plain text for a terminal (no documentation markup), in English or
Italian.

It prints the catalogue the server publishes (:mod:`server.wire.catalogue`): the same
options, defaults, presets and help texts a client gets for its ``catalogue`` message.
"""

from __future__ import annotations

import re
import textwrap
from typing import TYPE_CHECKING, Any

from server.games import engine
from server.roomcore.rating import rated_game
from server.wire.catalogue import build
from server.wire.frames import CatalogueGame, CatalogueOption

if TYPE_CHECKING:
    from server.rooms.house import Catalog

_WIDTH = 88
_MARKUP = re.compile(r":[a-z]+:`~?([^`]+)`|``([^`]+)``|`([^`]+)`")

#: The words around the catalogue's texts, by language.
_WORDS = {
    "en": {
        "options": "{game}: game options (create_room's options)",
        "presets": "{game}: presets",
        "bots": "{game}: house bots (add_bot)",
        "levels": "levels",
        "hints": "{game}: hints: {answer}",
        "yes": "yes",
        "no": "no",
        "room": "room options (every game; create_room's own fields)",
        "default": "default",
    },
    "it": {
        "options": "{game}: opzioni del gioco (le options di create_room)",
        "presets": "{game}: varianti",
        "bots": "{game}: bot della casa (add_bot)",
        "levels": "livelli",
        "hints": "{game}: consigli: {answer}",
        "yes": "sì",
        "no": "no",
        "room": "opzioni del tavolo (ogni gioco; i campi di create_room)",
        "default": "predefinito",
    },
}


def plain(text: str) -> str:
    """``text`` without reStructuredText or Markdown markup: ":meth:`from_options`" and
    "``x``" become "from_options" and "x"."""
    return _MARKUP.sub(lambda m: next(g for g in m.groups() if g is not None), text)


def _value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _options(options: list[CatalogueOption], words: dict[str, str], indent: str) -> list[str]:
    out = []
    for option in options:
        out.append(f"{indent}{option.name} ({words['default']} {_value(option.default)})")
        for paragraph in plain(option.help).split("\n"):
            out += textwrap.wrap(
                paragraph, _WIDTH, initial_indent=indent + "    ", subsequent_indent=indent + "    "
            )
        out += _options(option.fields or [], words, indent + "    ")
    return out


def describe_game(game: CatalogueGame, lang: str = "en") -> str:
    """One game's options, presets, house bots and hints, in plain text."""
    words = _WORDS[lang]
    lines = [words["options"].format(game=game.name)]
    lines += _options(game.options, words, "  ")
    if game.presets:
        lines.append(words["presets"].format(game=game.name))
        for preset in game.presets:
            shown = ", ".join(f"{key} {_value(value)}" for key, value in preset.values.items())
            lines += textwrap.wrap(
                f"{preset.name}: {shown}", _WIDTH, initial_indent="  ", subsequent_indent="      "
            )
            lines += textwrap.wrap(
                plain(preset.help), _WIDTH, initial_indent="      ", subsequent_indent="      "
            )
    if game.bots:
        lines.append(words["bots"].format(game=game.name))
        for bot in game.bots:
            levels = f" ({words['levels']}: {', '.join(bot.levels)})" if bot.levels else ""
            lines.append(f"  {bot.name}{levels}")
    answer = words["yes" if game.hints else "no"]
    lines.append(words["hints"].format(game=game.name, answer=answer))
    return "\n".join(line.rstrip() for line in lines)


def describe(
    game: str | None = None,
    lang: str = "en",
    catalog: Catalog | None = None,
    *,
    advisor: bool = False,
) -> str:
    """Everything ``umpire rules`` prints: one game's entry of the catalogue (or every
    game's), then the room options, in ``lang``. ``catalog`` and ``advisor`` are the
    house bots and the advice a server built by :mod:`server.root` offers. Raise
    ``ConfigError`` for an unknown game (its message names the games) and
    ``UnknownLanguage`` for an unknown language."""
    if game is not None:
        engine(game)  # the clear error for an unknown game
    frame = build(lang, catalog, advisor=advisor, rated=rated_game)
    words = _WORDS[lang]
    games = [describe_game(g, lang) for g in frame.games if game is None or g.name == game]
    room = "\n".join([words["room"], *_options(frame.room_options, words, "  ")])
    return "\n\n".join([*games, room])
